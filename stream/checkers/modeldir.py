"""A learned checker's directory: `model.toml`, the int8 ONNX model and its tokenizer.

`citegate learn` writes it; `--checker model:DIR` reads it. Everything that changes a verdict
— the ONNX file, the tokenizer files, the threshold and the input recipe — goes into one
digest, checked on load against the files, so a damaged or edited directory is refused and two
workers with the same model report the same `checker_version`.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stream.errors import UsageError

FORMAT = 1
"""The `model.toml` format this citegate reads; another value is refused on load."""
MANIFEST = "model.toml"
ONNX_FILE = "model.onnx"


RUNTIME_HINT = "the model checker needs onnxruntime and tokenizers: pip install 'citegate[model]'"


def require_runtime() -> None:
    """One line instead of an ImportError when the run-time extra is not installed."""
    if any(importlib.util.find_spec(m) is None for m in ("onnxruntime", "tokenizers", "numpy")):
        raise UsageError(RUNTIME_HINT)


@dataclass(frozen=True, slots=True)
class Recipe:
    """How claims and evidence become model input, and how a score becomes a verdict."""

    threshold: float
    max_length: int = 256
    window_chars: int = 600
    windows: int = 3
    claim_prefix: str = ""
    evidence_prefix: str = ""
    languages: tuple[str, ...] = ()
    """The claim languages the model was trained and held out on, the only ones it judges;
    empty (directories written before it was recorded) for every language."""

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "threshold": round(self.threshold, 6),
            "max_length": self.max_length,
            "window_chars": self.window_chars,
            "windows": self.windows,
            "claim_prefix": self.claim_prefix,
            "evidence_prefix": self.evidence_prefix,
        }
        if self.languages:  # absent before: earlier directories keep their digest
            out["languages"] = list(self.languages)
        return out

    def judges(self, language: str) -> bool:
        """Whether a claim in `language` (a tag such as `en` or `en-GB`) is the model's to
        judge: a threshold chosen on English claims says nothing about Russian ones."""
        return not self.languages or primary_language(language) in self.languages


def primary_language(tag: str) -> str:
    """`en-GB` -> `en`: the part of a language tag the models are trained per."""
    return tag.replace("_", "-").partition("-")[0].strip().lower()


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def digest(files: Mapping[str, str], recipe: Recipe) -> str:
    """The model's identity: file hashes plus the recipe, canonical JSON, SHA-256."""
    canonical = json.dumps(
        {"files": dict(sorted(files.items())), "recipe": recipe.as_dict(), "format": FORMAT},
        sort_keys=True,
        separators=(",", ":"),
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class ModelDir:
    path: Path
    recipe: Recipe
    files: dict[str, str]
    """file name -> sha256, as recorded (and verified on load)."""
    digest: str
    base: str
    manifest: dict[str, Any]

    @property
    def version(self) -> str:
        return f"{self.base}+{self.digest[:12]}"


def _fail(path: Path, why: str) -> UsageError:
    return UsageError(f"model directory {path}: {why}")


def load_model_dir(path: str | Path, *, verify: bool = True) -> ModelDir:
    """Read and check a model directory; anything wrong is one usage error line."""
    root = Path(path)
    manifest_path = root / MANIFEST
    if not root.is_dir():
        raise _fail(root, "not found (train one with `citegate learn FILE -o DIR`)")
    try:
        data = tomllib.loads(manifest_path.read_text("utf-8"))
    except OSError as exc:
        raise _fail(root, f"cannot read {MANIFEST}: {exc.strerror or exc}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise _fail(root, f"{MANIFEST} is not valid TOML: {exc}") from None
    model = data.get("model", {})
    fmt = model.get("format")
    if fmt != FORMAT:
        raise _fail(root, f"format {fmt!r} is not supported by this citegate (reads {FORMAT})")
    try:
        given = dict(data["input"])
        if "languages" in given:
            langs = given["languages"]
            if not isinstance(langs, list) or not all(isinstance(x, str) for x in langs):
                raise TypeError("'languages' (a list of language tags)")
            given["languages"] = tuple(langs)
        recipe = Recipe(**data["decision"], **given)
        files = {str(k): str(v) for k, v in data["files"].items()}
        recorded = str(model["digest"])
        base = str(data["base"]["name"])
    except (KeyError, TypeError) as exc:
        raise _fail(root, f"{MANIFEST} lacks or mistypes {exc}") from None
    if not 0.0 <= recipe.threshold <= 1.0 or recipe.windows < 1 or recipe.max_length < 8:
        raise _fail(root, f"{MANIFEST} has out-of-range values ({recipe})")
    if ONNX_FILE not in files:
        raise _fail(root, f"{MANIFEST} names no {ONNX_FILE}")
    if verify:
        for name, sha in files.items():
            if Path(name).name != name:
                raise _fail(root, f"file name {name!r} must be a plain name")
            try:
                actual = file_sha256(root / name)
            except OSError as exc:
                raise _fail(root, f"cannot read {name}: {exc.strerror or exc}") from None
            if actual != sha:
                raise _fail(root, f"{name} is damaged or changed (sha256 differs from {MANIFEST})")
    if digest(files, recipe) != recorded:
        raise _fail(root, f"the digest in {MANIFEST} does not match its files and recipe")
    return ModelDir(root, recipe, files, recorded, base, data)
