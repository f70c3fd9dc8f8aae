"""Exact conversion of citation offsets between units (code points, UTF-16, UTF-8).

Producers count differently: Python counts code points, JavaScript counts UTF-16 units, byte
stores count UTF-8 bytes. citegate converts at the edge and never mixes units.
"""

from __future__ import annotations

from stream.verify.model import OffsetUnit

_CODECS = {"utf16": ("utf-16-le", 2), "utf8": ("utf-8", 1)}


def to_codepoints(text: str, start: int, end: int, unit: OffsetUnit) -> tuple[int, int] | None:
    """Return the code-point range for `[start, end)` given in `unit`, or None.

    None means the range cannot be expressed in code points: it is negative, past the end, or
    one of its ends cuts a character (a surrogate pair, a multi-byte sequence) in two.
    """
    if unit == "codepoint":
        return (start, end)
    codec, width = _CODECS[unit]
    data = text.encode(codec, "surrogatepass")
    size = len(data) // width
    if start < 0 or end < 0 or start > size or end > size:
        return None
    try:
        cp_start = len(data[: start * width].decode(codec))
        cp_end = cp_start + len(data[start * width : end * width].decode(codec))
    except UnicodeDecodeError:
        return None
    return (cp_start, cp_end)


def from_codepoints(text: str, start: int, end: int, unit: OffsetUnit) -> tuple[int, int]:
    """Express a valid code-point range in `unit` (used by tests and producers)."""
    if unit == "codepoint":
        return (start, end)
    codec, width = _CODECS[unit]
    head = len(text[:start].encode(codec, "surrogatepass")) // width
    body = len(text[start:end].encode(codec, "surrogatepass")) // width
    return (head, head + body)
