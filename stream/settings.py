"""One frozen settings object. Every `CITEGATE_*` variable is declared here, once.

Precedence: built-in default < environment variable < command-line flag. Secrets (SASL
password, model API key) are read from the environment only and held as `Secret`, which never
prints itself; URLs (store, broker, model endpoint) are shown with their passwords masked, in
`redacted()` and in `repr()` alike.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from stream.errors import UsageError
from stream.secret import Secret, redact_url

MiB = 1024 * 1024


def _env(name: str, help_: str, *, secret: bool = False) -> dict[str, Any]:
    return {"env": f"CITEGATE_{name}", "help": help_, "secret": secret}


def _bool(raw: str) -> bool:
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off", ""}:
        return False
    raise ValueError(f"expected true/false, got {raw!r}")


def _domains(raw: str) -> frozenset[str]:
    return frozenset(d.strip().lower() for d in raw.split(",") if d.strip())


def _band(raw: str) -> tuple[float, float]:
    parts = [p.strip() for p in raw.split(",")]
    if len(parts) != 2:
        raise ValueError(f"expected lo,hi, got {raw!r}")
    lo, hi = float(parts[0]), float(parts[1])
    if not 0.0 <= lo <= hi <= 1.0:
        raise ValueError(f"expected 0 <= lo <= hi <= 1, got {raw!r}")
    return lo, hi


@dataclass(frozen=True, slots=True, repr=False)
class Settings:
    broker: str = field(
        default="embedded",
        metadata=_env(
            "BROKER", "`embedded` (bundled Tansu on a free loopback port) or kafka://host:port[,…]"
        ),
    )
    store: str = field(
        default="sqlite:///./.citegate/corpus.db",
        metadata=_env(
            "STORE", "corpus store URL: sqlite:///PATH, postgresql://…, or a documents.json path"
        ),
    )
    group_id: str = field(default="citegate", metadata=_env("GROUP_ID", "consumer group id"))
    topic_answers: str = field(
        default="rag.answers", metadata=_env("TOPIC_ANSWERS", "input topic of answer events")
    )
    topic_verdicts: str = field(
        default="rag.claim-verdicts",
        metadata=_env("TOPIC_VERDICTS", "output topic, one claim verdict per claim"),
    )
    topic_decisions: str = field(
        default="rag.decisions",
        metadata=_env("TOPIC_DECISIONS", "output topic, one decision per answer"),
    )
    topic_dlq: str = field(
        default="rag.answers.dlq",
        metadata=_env("TOPIC_DLQ", "dead-letter topic for refused inputs"),
    )
    topic_replay: str = field(
        default="rag.decisions.replay", metadata=_env("TOPIC_REPLAY", "output topic of replays")
    )
    topic_reviews: str = field(
        default="rag.reviews",
        metadata=_env("TOPIC_REVIEWS", "reviewer decisions on manual-review answers"),
    )
    topic_released: str = field(
        default="rag.released",
        metadata=_env(
            "TOPIC_RELEASED",
            "answers delivery may show: accepted by the worker or published by a reviewer",
        ),
    )
    session_timeout_ms: int = field(
        default=6000,
        metadata=_env(
            "SESSION_TIMEOUT_MS",
            "consumer group session timeout; a dead worker's partitions move after it",
        ),
    )
    batch_max_records: int = field(
        default=500,
        metadata=_env(
            "BATCH_MAX_RECORDS", "records per consume batch (outputs acked, then offsets committed)"
        ),
    )
    partitions: int = field(
        default=4, metadata=_env("PARTITIONS", "partitions for topics the stage creates")
    )
    max_event_bytes: int = field(
        default=1 * MiB, metadata=_env("MAX_EVENT_BYTES", "largest accepted answer event, bytes")
    )
    max_claims: int = field(default=256, metadata=_env("MAX_CLAIMS", "claims per answer"))
    max_citations_per_claim: int = field(
        default=32, metadata=_env("MAX_CITATIONS_PER_CLAIM", "citations per claim")
    )
    dedup_window_s: int = field(
        default=86400,
        metadata=_env(
            "DEDUP_WINDOW_S", "how long a seen input event_id suppresses duplicates, seconds"
        ),
    )
    cache_bytes: int = field(
        default=256 * MiB,
        metadata=_env("CACHE_BYTES", "corpus cache size bound, bytes of memory its documents hold"),
    )
    negative_cache_s: float = field(
        default=5.0,
        metadata=_env("NEGATIVE_CACHE_S", "how long a missing document is remembered, seconds"),
    )
    corpus_retries: int = field(
        default=3,
        metadata=_env("CORPUS_RETRIES", "store lookup attempts before `corpus_unavailable`"),
    )
    corpus_backoff_s: float = field(
        default=0.2, metadata=_env("CORPUS_BACKOFF_S", "first retry delay; doubles per attempt")
    )
    corpus_timeout_s: float = field(
        default=2.0,
        metadata=_env(
            "CORPUS_TIMEOUT_S",
            "per store lookup; a store that accepts but never answers counts as unavailable",
        ),
    )
    corpus_breaker_s: float = field(
        default=2.0,
        metadata=_env(
            "CORPUS_BREAKER_S",
            "after a lookup found the store unavailable, lookups fail fast this long (0: off)",
        ),
    )
    stall_s: float = field(
        default=60.0,
        metadata=_env(
            "STALL_S",
            "no progress this long while inputs wait (or the broker lost the input topic, or the "
            "consumer group never completes a rebalance): "
            "the worker exits 1 so its supervisor restarts it; /readyz is 503 after 5 s",
        ),
    )
    restore_timeout_s: float = field(
        default=60.0,
        metadata=_env(
            "RESTORE_TIMEOUT_S",
            "duplicate-index restore at start; not complete in time = the worker exits 1",
        ),
    )
    web_host: str = field(
        default="127.0.0.1", metadata=_env("WEB_HOST", "address of /metrics, /healthz, /readyz")
    )
    web_port: int = field(default=6066, metadata=_env("WEB_PORT", "port of /metrics etc."))
    label_cap: int = field(
        default=50,
        metadata=_env("LABEL_CAP", "distinct values per metric label before `__other__`"),
    )
    force_review_domains: frozenset[str] = field(
        default=frozenset(),
        metadata=_env(
            "FORCE_REVIEW_DOMAINS", "comma list of risk domains always sent to manual review"
        ),
    )
    relocate_quotes: bool = field(
        default=False,
        metadata=_env("RELOCATE_QUOTES", "accept a quote found exactly once elsewhere (warning)"),
    )
    checker: str = field(
        default="rules",
        metadata=_env(
            "CHECKER",
            "semantic checker: `rules`, `llm`, `model:DIR` (a `citegate learn` model), "
            "`cascade` (rules, then the model and/or llm) or a rules config file",
        ),
    )
    model: str | None = field(
        default=None,
        metadata=_env(
            "MODEL", "learned model directory (`citegate learn`) for the cascade's model tier"
        ),
    )
    model_threads: int = field(
        default=1,
        metadata=_env("MODEL_THREADS", "ONNX Runtime threads of the learned model per process"),
    )
    llm_url: str | None = field(
        default=None,
        metadata=_env(
            "LLM_URL",
            "OpenAI-compatible base URL of the model checker, e.g. http://127.0.0.1:8000/v1",
        ),
    )
    llm_model: str | None = field(
        default=None, metadata=_env("LLM_MODEL", "model name sent to the model checker endpoint")
    )
    llm_api_key: Secret | None = field(
        default=None,
        metadata=_env(
            "LLM_API_KEY",
            "bearer token for the model endpoint (environment only, never logged)",
            secret=True,
        ),
    )
    llm_timeout_s: float = field(
        default=20.0, metadata=_env("LLM_TIMEOUT_S", "model request timeout per attempt, seconds")
    )
    llm_retries: int = field(
        default=2,
        metadata=_env("LLM_RETRIES", "extra attempts on 5xx, 429, timeouts, connection errors"),
    )
    llm_concurrency: int = field(
        default=4, metadata=_env("LLM_CONCURRENCY", "model requests in flight per worker")
    )
    llm_breaker_failures: int = field(
        default=5,
        metadata=_env(
            "LLM_BREAKER_FAILURES", "consecutive failed model requests that open the circuit"
        ),
    )
    llm_breaker_reset_s: float = field(
        default=30.0,
        metadata=_env("LLM_BREAKER_RESET_S", "how long the circuit stays open before a probe"),
    )
    llm_json_mode: bool = field(
        default=True,
        metadata=_env("LLM_JSON_MODE", "send response_format json_object (some servers reject it)"),
    )
    cascade_band: tuple[float, float] = field(
        default=(0.3, 0.7),
        metadata=_env("CASCADE_BAND", "lo,hi: rules p_entailed in this band goes to the model"),
    )
    cascade_signals: frozenset[str] = field(
        default=frozenset({"negation_mismatch", "number_unsupported", "modality_strengthened"}),
        metadata=_env("CASCADE_SIGNALS", "comma list of risk signals that always go to the model"),
    )
    security_protocol: str = field(
        default="PLAINTEXT",
        metadata=_env("SECURITY_PROTOCOL", "Kafka: PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL"),
    )
    sasl_mechanism: str | None = field(
        default=None,
        metadata=_env("SASL_MECHANISM", "Kafka SASL mechanism, e.g. PLAIN or SCRAM-SHA-512"),
    )
    sasl_username: str | None = field(
        default=None, metadata=_env("SASL_USERNAME", "Kafka SASL user")
    )
    sasl_password: Secret | None = field(
        default=None,
        metadata=_env(
            "SASL_PASSWORD", "Kafka SASL password (environment only, never logged)", secret=True
        ),
    )
    ssl_cafile: str | None = field(
        default=None, metadata=_env("SSL_CAFILE", "CA bundle for Kafka TLS")
    )
    log_level: str = field(default="info", metadata=_env("LOG_LEVEL", "worker log level"))
    rules_config: str | None = field(
        default=None,
        metadata=_env(
            "RULES_CONFIG", "calibrated rules checker config (TOML) for `rules` and `cascade`"
        ),
    )
    review_host: str = field(
        default="127.0.0.1",
        metadata=_env("REVIEW_HOST", "address `citegate review` listens on (loopback by default)"),
    )
    review_port: int = field(
        default=8088, metadata=_env("REVIEW_PORT", "port of the `citegate review` web server")
    )
    review_tokens_file: str = field(
        default=".citegate/review-tokens",
        metadata=_env(
            "REVIEW_TOKENS_FILE",
            "reviewer token hashes, one `name:sha256:HEX` a line (`citegate review add-token`)",
        ),
    )

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Defaults, then `CITEGATE_*` from `env`, then non-None `overrides` (CLI flags)."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        for f in fields(cls):
            name = f.metadata["env"]
            if name in env:
                try:
                    values[f.name] = _PARSERS.get(f.name, _parser_for(f.type))(env[name])
                except ValueError as exc:
                    raise UsageError(f"{name}: {exc}") from None
        values.update({k: v for k, v in overrides.items() if v is not None})
        for f in fields(cls):
            if f.metadata["secret"] and isinstance(values.get(f.name), str):
                values[f.name] = Secret(values[f.name])
        settings = cls(**values)
        settings.validate()
        return settings

    def validate(self) -> None:
        """Every size, count, timeout and window must be positive (a zero batch or a negative
        timeout would stall or spin the loop)."""
        for name in (
            "batch_max_records",
            "session_timeout_ms",
            "dedup_window_s",
            "partitions",
            "max_event_bytes",
            "max_claims",
            "max_citations_per_claim",
            "cache_bytes",
            "corpus_retries",
            "label_cap",
            "model_threads",
        ):
            if getattr(self, name) < 1:
                raise UsageError(f"{name} must be at least 1")
        for name in ("web_port", "review_port"):
            if not 1 <= getattr(self, name) <= 65535:
                raise UsageError(f"{name} must be 1..65535")
        if self.llm_retries < 0:
            raise UsageError("llm_retries must be at least 0")
        for name in ("llm_concurrency", "llm_breaker_failures"):
            if getattr(self, name) < 1:
                raise UsageError(f"{name} must be at least 1")
        if self.llm_timeout_s <= 0 or self.llm_breaker_reset_s < 0:
            raise UsageError("llm_timeout_s must be positive, llm_breaker_reset_s not negative")
        for name in ("corpus_timeout_s", "stall_s", "restore_timeout_s"):
            if not getattr(self, name) > 0:
                raise UsageError(f"{name} must be positive")
        for name in ("negative_cache_s", "corpus_backoff_s", "corpus_breaker_s"):
            if not getattr(self, name) >= 0:
                raise UsageError(f"{name} must not be negative")

    def with_(self, **changes: Any) -> Settings:
        return replace(self, **changes)

    def redacted(self) -> dict[str, object]:
        """Settings safe to log: secrets `***`, passwords and tokens in URLs masked."""
        out: dict[str, object] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.metadata["secret"] and value:
                value = "***"
            elif f.name in URL_FIELDS and isinstance(value, str):
                value = redact_url(value)
            out[f.name] = value
        return out

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.redacted().items())
        return f"Settings({shown})"


def _parser_for(type_: object) -> Callable[[str], Any]:
    text = str(type_)
    if text.startswith("int"):
        return int
    if text.startswith("float"):
        return float
    if text.startswith("bool"):
        return _bool
    return str


URL_FIELDS = frozenset({"broker", "store", "llm_url"})
"""Settings that are URLs and may carry a password or token."""

_PARSERS: dict[str, Callable[[str], Any]] = {
    "llm_api_key": Secret,
    "sasl_password": Secret,
    "force_review_domains": _domains,
    "cascade_signals": _domains,
    "cascade_band": _band,
}


def env_table() -> list[tuple[str, str, str]]:
    """(variable, default, meaning) for docs/configuration.md's table (a test keeps them equal)."""
    rows = []
    for f in fields(Settings):
        default = f.default
        if isinstance(default, frozenset):
            shown: object = ",".join(sorted(default))
        elif isinstance(default, tuple):
            shown = ",".join(str(x) for x in default)
        else:
            shown = default
        rows.append((f.metadata["env"], "" if shown is None else str(shown), f.metadata["help"]))
    return rows
