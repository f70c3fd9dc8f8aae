"""`model.toml`: what the model is, what it was trained on, how well it did held out.

Written by `citegate learn` for the person who deploys the model as much as for the loader
(`stream.checkers.modeldir`, which reads `[model]`, `[base]`, `[input]`, `[decision]` and
`[files]` and verifies the digest).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from stream.checkers.modeldir import FORMAT, MANIFEST, Recipe, digest, file_sha256


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(round(v, 6))
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        escaped = v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        return f'"{escaped}"'
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(f"cannot write {type(v).__name__} to TOML")


def _key(k: str) -> str:
    return k if k.replace("_", "").replace("-", "").isalnum() else _value(k)


def dumps(
    tables: Mapping[str, Mapping[str, Any]],
    arrays: Mapping[str, Sequence[Mapping[str, Any]]] = {},
    header: Sequence[str] = (),
) -> str:
    lines = [f"# {h}" for h in header]
    for name, values in tables.items():
        lines += ["", f"[{name}]", *(f"{_key(k)} = {_value(v)}" for k, v in values.items())]
    for name, rows in arrays.items():
        for row in rows:
            lines += ["", f"[[{name}]]", *(f"{_key(k)} = {_value(v)}" for k, v in row.items())]
    return "\n".join(lines).lstrip("\n") + "\n"


MODEL_FILES = ("model.onnx", "tokenizer.json", "normalize.json")


def seal(
    directory: Path,
    recipe: Recipe,
    base: Mapping[str, Any],
    tables: Mapping[str, Mapping[str, Any]] = {},
    arrays: Mapping[str, Sequence[Mapping[str, Any]]] = {},
    header: Sequence[str] = (),
) -> str:
    """Hash the model files, write `model.toml` with the digest over them and the recipe;
    returns the digest. `base` needs at least `name`."""
    names = [n for n in MODEL_FILES if (directory / n).exists()]
    hashes = {n: file_sha256(directory / n) for n in names}
    identity = digest(hashes, recipe)
    decision = recipe.as_dict()
    head: dict[str, Mapping[str, Any]] = {
        "model": {
            "format": FORMAT,
            "kind": "cross-encoder",
            "digest": identity,
            "version": f"{base['name']}+{identity[:12]}",
            "created_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "size_bytes": sum((directory / n).stat().st_size for n in names),
        },
        "base": base,
        "input": {k: v for k, v in decision.items() if k != "threshold"},
        "decision": {"threshold": decision["threshold"]},
        "labels": {"entailed": ["entailed"], "not_entailed": ["contradicted", "insufficient"]},
        "files": hashes,
    }
    (directory / MANIFEST).write_text(dumps({**head, **tables}, arrays, header), "utf-8")
    return identity
