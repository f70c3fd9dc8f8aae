"""Checker config files (TOML): what `citegate calibrate` writes and `--checker FILE` reads.

The file is small and meant to be read by a person: thresholds, the two weight tables by
feature name, and where it came from. Its content hash (not the file name) becomes the checker
version, so two workers with the same file report the same version.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from stream.errors import UsageError
from stream.verify.checkers import RulesConfig


def load_rules_config(path: str | Path) -> RulesConfig:
    """Read a rules checker config; a missing or malformed file is a one-line usage error."""
    try:
        data = tomllib.loads(Path(path).read_text("utf-8"))
    except OSError as exc:
        raise UsageError(f"cannot read checker config {path}: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"checker config {path} is not valid TOML: {exc}") from None
    kind = data.get("checker", {}).get("kind", "rules")
    if kind != "rules":
        raise UsageError(f"checker config {path}: kind {kind!r} is not supported (rules)")
    try:
        return RulesConfig.from_mapping(data)
    except (TypeError, ValueError) as exc:
        raise UsageError(f"checker config {path}: {exc}") from None


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(round(v, 6))
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {type(v).__name__} to TOML")


_BY_LANGUAGE = "entail_by_language"
"""The per-language entailment thresholds: a sub-table of `[thresholds]`."""


def _table(name: str, values: Mapping[str, Any]) -> list[str]:
    return [f"[{name}]", *(f"{k} = {_value(v)}" for k, v in values.items()), ""]


def dumps_rules_config(
    config: RulesConfig, sources: Sequence[str] = (), metrics: Mapping[str, Any] | None = None
) -> str:
    model = config.model()
    lines = [
        "# citegate rules checker config, written by `citegate calibrate`.",
        f"# version: {config.version}",
        "",
        *_table(
            "checker",
            {
                "kind": "rules",
                "base": config.base_version,
                "calibrated": True,
                "created_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
                "fitted_on": [Path(s).name for s in sources],
            },
        ),
        *_table("thresholds", {k: v for k, v in model["thresholds"].items() if k != _BY_LANGUAGE}),
        *_table(f"thresholds.{_BY_LANGUAGE}", model["thresholds"][_BY_LANGUAGE]),
        *_table("window", model["window"]),
        *_table("vetoes", model["vetoes"]),
        *_table("entail_weights", model["entail_weights"]),
        *_table("contradict_weights", model["contradict_weights"]),
    ]
    if metrics:
        lines += ["# figures printed by calibrate (5-fold cross-validated on the same files):"]
        lines += [f"# {k}: {v}" for k, v in metrics.items()]
    return "\n".join(lines) + "\n"
