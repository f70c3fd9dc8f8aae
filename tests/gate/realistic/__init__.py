"""A public realistic suite: knowledge-base documents and answers as an LLM assistant writes them.

Written from scratch for this suite (en, ru, zh); no record of any evaluation data set is used.
Run `python -m tests.gate.realistic` for the figures, `--show` for the cases judged wrongly.
"""

from tests.gate.realistic.model import (
    KINDS,
    Case,
    Doc,
    answer,
    contradiction,
    doc,
    faithful,
    overreach,
)

__all__ = ["KINDS", "Case", "Doc", "answer", "contradiction", "doc", "faithful", "overreach"]
