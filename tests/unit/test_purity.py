"""`stream/verify` does no I/O: it imports no Kafka, database, HTTP, asyncio, socket or metrics."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

VERIFY = Path(__file__).resolve().parents[2] / "stream" / "verify"
FORBIDDEN = {
    "faust",
    "mode",
    "aiokafka",
    "kafka",
    "prometheus_client",
    "asyncio",
    "socket",
    "ssl",
    "sqlite3",
    "asyncpg",
    "psycopg",
    "psycopg2",
    "http",
    "urllib",
    "requests",
    "httpx",
    "aiohttp",
    "subprocess",
    "threading",
    "multiprocessing",
    "selectors",
    "orjson",
}


def test_verify_modules_import_nothing_forbidden() -> None:
    found = []
    for path in sorted(VERIFY.glob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                if top in FORBIDDEN or (
                    top == "stream" and not name.startswith(("stream.verify", "stream.errors"))
                ):
                    found.append(f"{path.name}: {name}")
    assert found == []


def test_importing_the_core_loads_no_io_module() -> None:
    modules = [f"stream.verify.{p.stem}" for p in VERIFY.glob("*.py") if p.stem != "__init__"]
    code = (
        "import sys\n"
        "before = set(sys.modules)\n"
        + "".join(f"import {m}\n" for m in modules)
        + "new = set(sys.modules) - before\n"
        + f"bad = sorted(m for m in new if m.split('.')[0] in {sorted(FORBIDDEN)!r})\n"
        + "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
    assert len(modules) >= 8
