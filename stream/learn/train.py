"""Fine-tuning loop: class-balanced logistic loss, AdamW, a schedule that ends on time.

Word embeddings stay frozen (250k x 384 for e5: most of the model, and the part a few thousand
claims cannot improve), the encoder layers and the head learn. Batches are built from examples
of similar length so padding is small; token ids are computed once. The learning rate warms up,
then decays linearly to zero at whichever comes first, the planned steps or the time budget,
so a run cut short by `--max-minutes` still ends with a settled model.
"""

from __future__ import annotations

import math
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

import torch
from torch import nn
from tqdm import tqdm

from stream.checkers.pairs import PairTokenizer
from stream.learn.data import Example
from stream.learn.encoder import CrossEncoder


@dataclass(frozen=True, slots=True)
class TrainOptions:
    epochs: float = 2.0
    seconds: float = 600.0
    batch_size: int = 16
    lr: float = 1e-4
    head_lr: float = 1e-3
    warmup: float = 0.1
    weight_decay: float = 0.01
    seed: int = 0
    max_steps: int | None = None
    """Stop after this many steps (tests: a few steps of the real loop)."""
    bf16: bool = False
    """bfloat16 autocast: about 2x faster on CPUs with AMX or AVX512-BF16, slower elsewhere."""
    cpu_clock: bool = False
    """Count `seconds` in this process's CPU time instead of wall time: the same compute per
    run whatever else the machine is doing (reproducible figures on a shared machine)."""
    train_top: int | None = None
    """Train only the top N layers (and the head): the layers below are frozen, and their
    output for every example is computed once and reused in every epoch."""


@dataclass(frozen=True, slots=True)
class TrainStats:
    examples: int
    positives: int
    steps: int
    seen: int
    seconds: float
    stopped_by: str
    final_loss: float


def token_ids(pairs: PairTokenizer, data: Sequence[Example]) -> list[list[int]]:
    """Unpadded, truncated token ids of every example, computed once."""
    out: list[list[int]] = []
    for start in range(0, len(data), 256):
        chunk = data[start : start + 256]
        ids, mask = pairs.encode([(e.claim, e.evidence) for e in chunk])
        out.extend(list(map(int, row[: int(m.sum())])) for row, m in zip(ids, mask, strict=True))
    return out


def batches(lengths: Sequence[int], size: int, rng: random.Random) -> list[list[int]]:
    """Shuffle, then sort by length inside pools of 50 batches, then shuffle the batches."""
    order = list(range(len(lengths)))
    rng.shuffle(order)
    out: list[list[int]] = []
    pool = size * 50
    for start in range(0, len(order), pool):
        chunk = sorted(order[start : start + pool], key=lambda i: lengths[i])
        out += [chunk[j : j + size] for j in range(0, len(chunk), size)]
    rng.shuffle(out)
    return out


def _pad(rows: Sequence[list[int]], pad_id: int) -> tuple[torch.Tensor, torch.Tensor]:
    width = max(len(r) for r in rows)
    ids = torch.full((len(rows), width), pad_id, dtype=torch.long)
    mask = torch.zeros((len(rows), width), dtype=torch.long)
    for i, r in enumerate(rows):
        ids[i, : len(r)] = torch.tensor(r, dtype=torch.long)
        mask[i, : len(r)] = 1
    return ids, mask


def _cache_bottom(
    model: CrossEncoder, ids: Sequence[list[int]], pad_id: int, upto: int, bf16: bool
) -> list[torch.Tensor]:
    """Output of the frozen layers for every example (no dropout, trimmed to its length)."""
    model.eval()
    out: list[torch.Tensor | None] = [None] * len(ids)
    order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
    with torch.no_grad():
        for start in range(0, len(order), 32):
            chunk = order[start : start + 32]
            x, mask = _pad([ids[i] for i in chunk], pad_id)
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
                h = model.bottom(x, mask, upto)
            for row, i in enumerate(chunk):
                out[i] = h[row, : len(ids[i])].to(torch.bfloat16 if bf16 else torch.float32)
    model.train()
    return [t for t in out if t is not None]


def _stack(rows: Sequence[torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor]:
    width = max(r.shape[0] for r in rows)
    x = torch.zeros((len(rows), width, rows[0].shape[1]), dtype=torch.float32)
    mask = torch.zeros((len(rows), width), dtype=torch.long)
    for i, r in enumerate(rows):
        x[i, : r.shape[0]] = r.float()
        mask[i, : r.shape[0]] = 1
    return x, mask


def train(
    model: CrossEncoder,
    pairs: PairTokenizer,
    data: Sequence[Example],
    options: TrainOptions,
    *,
    desc: str = "training",
) -> TrainStats:
    rng = random.Random(options.seed)
    torch.manual_seed(options.seed)
    ids = token_ids(pairs, data)
    labels = torch.tensor([1.0 if e.label else 0.0 for e in data])
    positives = int(labels.sum())
    negatives = len(data) - positives
    if positives == 0 or negatives == 0:
        raise ValueError("training data needs both entailed and not-entailed claims")
    loss_fn = nn.BCEWithLogitsLoss(pos_weight=torch.tensor(negatives / positives))
    model.word.weight.requires_grad_(False)
    depth = len(model.layers)
    start = 0
    if options.train_top is not None and options.train_top < depth:
        start = depth - options.train_top
        for p in (model.pos.weight, model.segment, *model.eln.parameters()):
            p.requires_grad_(False)
        for layer in model.layers[:start]:
            layer.requires_grad_(False)
    head = list(model.head.parameters())
    body = [p for n, p in model.named_parameters() if p.requires_grad and not n.startswith("head")]
    optimiser = torch.optim.AdamW(
        [{"params": body, "lr": options.lr}, {"params": head, "lr": options.head_lr}],
        weight_decay=options.weight_decay,
    )
    per_epoch = math.ceil(len(data) / options.batch_size)
    planned = max(1, math.ceil(per_epoch * options.epochs))
    if options.max_steps is not None:
        planned = min(planned, options.max_steps)
    pad_id = pairs.tokenizer.padding["pad_id"] if pairs.tokenizer.padding else 0
    lengths = [len(r) for r in ids]
    clock = time.process_time if options.cpu_clock else time.monotonic
    began = clock()
    cached = _cache_bottom(model, ids, pad_id, start, options.bf16) if start else None
    steps = seen = 0
    stopped_by = "epochs"
    ema = float("nan")
    model.train()
    bar = tqdm(
        total=planned * options.batch_size,
        unit="ex",
        desc=desc,
        file=sys.stderr,
        disable=None,
        mininterval=1.0,
        dynamic_ncols=True,
    )
    try:
        while steps < planned:
            for batch in batches(lengths, options.batch_size, rng):
                elapsed = clock() - began
                progress = max(steps / planned, elapsed / options.seconds)
                if progress >= 1.0:
                    stopped_by = "time" if steps < planned else "epochs"
                    break
                scale = (
                    progress / options.warmup
                    if progress < options.warmup
                    else (1.0 - progress) / (1.0 - options.warmup)
                )
                for group, lr in zip(
                    optimiser.param_groups, (options.lr, options.head_lr), strict=True
                ):
                    group["lr"] = lr * max(scale, 0.0)
                if cached is None:
                    x, mask = _pad([ids[i] for i in batch], pad_id)
                    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=options.bf16):
                        logits = model(x, mask)
                else:
                    x, mask = _stack([cached[i] for i in batch])
                    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=options.bf16):
                        logits = model.top(x, mask, start)
                loss = loss_fn(logits.float(), labels[batch])
                optimiser.zero_grad(set_to_none=True)
                loss.backward()
                nn.utils.clip_grad_norm_(body + head, 1.0)
                optimiser.step()
                steps += 1
                seen += len(batch)
                value = float(loss.detach())
                ema = value if math.isnan(ema) else 0.95 * ema + 0.05 * value
                left = max(0.0, options.seconds - (clock() - began))
                bar.update(len(batch))
                bar.set_postfix(loss=f"{ema:.3f}", budget_left=f"{left / 60:.1f}min", refresh=False)
                if steps >= planned:
                    break
            else:
                continue
            break
    finally:
        bar.close()
        model.eval()
    if options.max_steps is not None and steps >= options.max_steps:
        stopped_by = "max_steps"
    return TrainStats(len(data), positives, steps, seen, clock() - began, stopped_by, ema)
