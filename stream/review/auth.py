"""Reviewer tokens, browser sessions and CSRF tokens.

The tokens file holds one `name:sha256:HEX` line per reviewer (the hex SHA-256 of the token,
never the token). Tokens are 256-bit random strings, so a fast hash is enough: there is no
password to guess. The file is re-read when it changes, so adding or removing a reviewer needs
no restart, and a removed reviewer's sessions end on their next request.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from stream.errors import UsageError

NAME_RE = re.compile(r"^[A-Za-z0-9._@-]{1,64}$")
HASH_RE = re.compile(r"^[0-9a-f]{64}$")
MAX_TOKEN_CHARS = 256
SESSION_TTL_S = 12 * 3600
MAX_SESSIONS = 10_000


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    return "cgr_" + secrets.token_urlsafe(32)


def parse_tokens(text: str, where: str) -> dict[str, str]:
    """`name:sha256:HEX` lines (blank lines and `#` comments skipped) -> {name: hex}."""
    out: dict[str, str] = {}
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        name, _, rest = line.partition(":")
        algo, _, digest = rest.partition(":")
        if not NAME_RE.match(name) or algo != "sha256" or not HASH_RE.match(digest.lower()):
            raise UsageError(f"{where}:{n}: expected `name:sha256:<64 hex>` (name [A-Za-z0-9._@-])")
        if name in out:
            raise UsageError(f"{where}:{n}: reviewer {name!r} appears twice")
        out[name] = digest.lower()
    return out


def add_token(path: Path, name: str) -> str:
    """Append a fresh token for `name` to the file (created 0600) and return the token."""
    if not NAME_RE.match(name):
        raise UsageError("reviewer name must be 1-64 characters of A-Z a-z 0-9 . _ @ -")
    existing = parse_tokens(path.read_text("utf-8"), str(path)) if path.exists() else {}
    if name in existing:
        raise UsageError(f"reviewer {name!r} already has a token in {path}; remove its line first")
    token = new_token()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    with os.fdopen(fd, "a", encoding="utf-8") as fh:
        fh.write(f"{name}:sha256:{token_hash(token)}\n")
    return token


class TokenFile:
    """The reviewers allowed in, re-read whenever the file's mtime or size changes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._stamp: tuple[int, int] | None = None
        self._hashes: dict[str, str] = {}
        self.reload()

    def reload(self) -> None:
        try:
            st = self.path.stat()
        except FileNotFoundError:
            raise UsageError(
                f"tokens file {self.path} does not exist; create one with "
                "`citegate review add-token NAME`"
            ) from None
        stamp = (st.st_mtime_ns, st.st_size)
        if stamp != self._stamp:
            self._hashes = parse_tokens(self.path.read_text("utf-8"), str(self.path))
            self._stamp = stamp

    def _fresh(self) -> dict[str, str]:
        # Keep the last good file rather than locking every reviewer out mid-edit.
        with contextlib.suppress(UsageError, OSError):
            self.reload()
        return self._hashes

    def reviewer(self, token: str) -> str | None:
        """The reviewer a token belongs to, or None; compares every entry in constant time."""
        if not token or len(token) > MAX_TOKEN_CHARS:
            return None
        digest = token_hash(token)
        found = None
        for name, expected in self._fresh().items():
            if hmac.compare_digest(digest, expected):
                found = name
        return found

    def knows(self, name: str) -> bool:
        return name in self._fresh()

    def __len__(self) -> int:
        return len(self._hashes)


@dataclass(frozen=True, slots=True)
class Session:
    reviewer: str
    csrf: str
    expires_at: float


class Sessions:
    """Server-side browser sessions: the cookie carries only a random id."""

    def __init__(
        self, ttl_s: float = SESSION_TTL_S, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.ttl_s = ttl_s
        self.clock = clock
        self._by_id: dict[str, Session] = {}

    def create(self, reviewer: str) -> tuple[str, Session]:
        now = self.clock()
        if len(self._by_id) >= MAX_SESSIONS:
            self._by_id = {k: s for k, s in self._by_id.items() if s.expires_at > now}
            while len(self._by_id) >= MAX_SESSIONS:
                self._by_id.pop(next(iter(self._by_id)))
        sid = secrets.token_urlsafe(32)
        session = Session(reviewer, secrets.token_urlsafe(32), now + self.ttl_s)
        self._by_id[sid] = session
        return sid, session

    def get(self, sid: str | None) -> Session | None:
        if not sid or len(sid) > MAX_TOKEN_CHARS:
            return None
        session = self._by_id.get(sid)
        if session is None:
            return None
        if session.expires_at <= self.clock():
            del self._by_id[sid]
            return None
        return session

    def drop(self, sid: str | None) -> None:
        if sid:
            self._by_id.pop(sid, None)


def same(a: str | None, b: str | None) -> bool:
    """Constant-time equality of two secrets, False when either is missing."""
    if not a or not b:
        return False
    return hmac.compare_digest(a.encode("utf-8"), b.encode("utf-8"))
