"""Secrets that cannot print themselves, and URLs masked before they are shown.

A `Secret` holds a password, API key or token. Its `repr` and `str` are `***`, so a settings
object, an exception message or a log line that formats it by accident shows nothing; only
`reveal()` — called where a client library needs the value — returns it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

MASK = "***"
SECRET_QUERY_KEYS = frozenset(
    {
        "password",
        "passfile",
        "sslpassword",
        "sslkey",
        "token",
        "access_token",
        "api_key",
        "apikey",
        "key",
        "secret",
        "sig",
    }
)
"""Query parameters whose value is a credential (libpq's, common API tokens)."""


@dataclass(frozen=True, slots=True)
class Secret:
    """A credential: `***` when printed; `reveal()` is the one way to read it."""

    _value: str = field(repr=False)

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return f"Secret({MASK!r})"

    def __str__(self) -> str:
        return MASK

    def __bool__(self) -> bool:
        return bool(self._value)


def reveal(secret: Secret | None) -> str | None:
    return None if secret is None else secret.reveal()


_USERINFO = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*://[^:/?#@]*:)(.*)@")
"""`scheme://user:` then everything up to the last `@`: a password may contain `/`, `?` or `#`,
which would make `urlsplit` cut the netloc short and show the rest of it as path or query."""


def redact_url(url: str) -> str:
    """`url` safe to log or show: a password in the netloc and credential query values masked."""
    masked_userinfo = _USERINFO.sub(lambda m: f"{m.group(1)}{MASK}@", url, count=1)
    if masked_userinfo != url:
        url = masked_userinfo
        if "@" in url.split(f"{MASK}@", 1)[1]:
            return url  # more `@` after the mask: do not guess further, never show more
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<unparsable url>"
    netloc = parts.netloc
    changed = False
    if "@" in netloc:
        userinfo, host = netloc.rsplit("@", 1)
        if ":" in userinfo and not userinfo.endswith(f":{MASK}"):
            netloc = f"{userinfo.split(':', 1)[0]}:{MASK}@{host}"
            changed = True
    query = parts.query
    pairs = parse_qsl(query, keep_blank_values=True)
    if any(k.lower() in SECRET_QUERY_KEYS for k, _ in pairs):
        masked = [(k, MASK if k.lower() in SECRET_QUERY_KEYS else v) for k, v in pairs]
        query = urlencode(masked, safe="*")
        changed = True
    if not changed:
        return url  # unchanged, so `sqlite:///path` keeps its three slashes
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))
