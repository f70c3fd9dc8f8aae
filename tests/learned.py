"""Small real model directories for tests: a word-level tokenizer, a zero-layer encoder whose
score rises with the share of one marker word, exported by the real `export_onnx` and sealed
by the real `seal`, so the checker under test loads and runs them exactly as a learned model.

Building one needs PyTorch (the `learn` extra): locally a test skips without it, under
`CI=true` it fails, like every missing service.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from typing import Any

import pytest

WORDS = "yes no the claim evidence is was a an of in on and it service data kept days".split()
MARKER = "yes"


def need_learn_extra() -> None:
    missing = [
        m
        for m in ("torch", "onnxruntime", "tokenizers", "onnx")
        if importlib.util.find_spec(m) is None
    ]
    if missing:
        reason = f"needs the learn extra ({', '.join(missing)} missing): pip install '.[learn]'"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)


def tiny_parts(*, layers: int = 0, gain: float = 12.0, bias: float = -3.0) -> tuple[Any, Any]:
    """(CrossEncoder, PairTokenizer) of the tiny model (see the module docstring)."""
    need_learn_extra()
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers, processors

    from stream.checkers.pairs import PairTokenizer
    from stream.learn.encoder import CrossEncoder, EncoderShape

    vocab = {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3}
    vocab |= {w: i + 4 for i, w in enumerate(WORDS)}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        pair="[CLS] $A [SEP] $B [SEP]",
        special_tokens=[("[CLS]", 2), ("[SEP]", 3)],
    )
    pairs = PairTokenizer(tok, max_length=64)
    model = CrossEncoder(
        EncoderShape(vocab=len(vocab), hidden=32, layers=layers, heads=2, ffn=64, positions=128)
    )
    with torch.no_grad():
        for p in (model.word.weight, model.pos.weight, model.segment):
            p.zero_()
        direction = torch.zeros(32)
        direction[:16], direction[16:] = 1.0, -1.0  # LayerNorm keeps it: mean 0, variance 1
        model.word.weight[vocab[MARKER]] = direction
        model.eln.weight.fill_(1.0)
        model.eln.bias.zero_()
        model.head.weight[0] = direction * (gain / 32)
        model.head.bias.fill_(bias)
    return model, pairs


def tiny_model_dir(
    path: Path,
    *,
    gain: float = 12.0,
    bias: float = -3.0,
    threshold: float = 0.5,
    windows: int = 3,
    window_chars: int = 120,
    languages: tuple[str, ...] = (),
) -> Path:
    """p(entailed) = sigmoid(gain * share of `yes` tokens in the pair + bias)."""
    from stream.checkers.modeldir import Recipe
    from stream.learn.export import export_onnx
    from stream.learn.manifest import seal

    model, pairs = tiny_parts(gain=gain, bias=bias)
    path.mkdir(parents=True, exist_ok=True)
    export_onnx(model, path)
    pairs.save(path)
    recipe = Recipe(
        threshold, max_length=64, window_chars=window_chars, windows=windows, languages=languages
    )
    seal(path, recipe, {"name": "tiny"})
    return path
