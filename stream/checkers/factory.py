"""Checker selection from settings (`CITEGATE_CHECKER` / `--checker`).

`rules` is the built-in lexical checker; `llm` a model behind an OpenAI-compatible endpoint;
`cascade` runs the rules on every claim and sends only the doubtful ones to the model.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from stream.checkers.base import AsyncChecker, SyncChecker
from stream.checkers.cascade import CascadeChecker
from stream.checkers.config import load_rules_config
from stream.errors import UsageError
from stream.metrics import Metrics
from stream.settings import Settings
from stream.verify.checkers import RulesChecker
from stream.verify.codes import SignalCode

if TYPE_CHECKING:
    from stream.checkers.llm import LlmChecker

AVAILABLE = "rules, llm, cascade, or a checker config file (.toml)"


Tier = Callable[[AsyncChecker, str], AsyncChecker]
"""Applied to every tier the factory builds, with the tier's name (`rules`, `llm`, …): the
worker's tracing hook (`stream.tracing.tier_wrapper`) gives each tier its own span this way."""


def _as_is(checker: AsyncChecker, tier: str) -> AsyncChecker:
    return checker


def make_checker(
    spec: str,
    settings: Settings | None = None,
    metrics: Metrics | None = None,
    tier: Tier = _as_is,
) -> AsyncChecker:
    settings = settings or Settings()
    if spec in {"", "rules"}:
        return tier(SyncChecker(rules_checker(settings), metrics), "rules")
    if spec == "llm":
        return tier(llm_checker(settings, metrics), "llm")
    if spec == "cascade":
        unknown = sorted(settings.cascade_signals - {s.value for s in SignalCode})
        if unknown:
            raise UsageError(f"CITEGATE_CASCADE_SIGNALS: unknown signal codes {unknown}")
        return CascadeChecker(
            tier(SyncChecker(rules_checker(settings), metrics), "rules"),
            tier(llm_checker(settings, metrics), "llm"),
            settings.cascade_band,
            settings.cascade_signals,
            metrics,
        )
    if spec.endswith(".toml") or Path(spec).is_file():
        return tier(SyncChecker(RulesChecker(load_rules_config(spec)), metrics), "rules")
    raise UsageError(f"unknown checker {spec!r}; available: {AVAILABLE}")


def rules_checker(settings: Settings) -> RulesChecker:
    """The rules side of `rules` and `cascade`: built in, or calibrated (CITEGATE_RULES_CONFIG)."""
    if settings.rules_config:
        return RulesChecker(load_rules_config(settings.rules_config))
    return RulesChecker()


def llm_checker(settings: Settings, metrics: Metrics | None = None) -> LlmChecker:
    # imported here: aiohttp costs every `citegate verify` ~70 ms at start otherwise
    from stream.checkers.llm import LlmChecker, LlmConfig

    s = settings
    if not s.llm_url or not s.llm_model:
        raise UsageError("the llm checker needs CITEGATE_LLM_URL and CITEGATE_LLM_MODEL")
    if not s.llm_url.startswith(("http://", "https://")):
        raise UsageError(f"CITEGATE_LLM_URL must be an http(s) URL, got {s.llm_url!r}")
    config = LlmConfig(
        url=s.llm_url,
        model=s.llm_model,
        api_key=s.llm_api_key,
        timeout_s=s.llm_timeout_s,
        retries=s.llm_retries,
        concurrency=s.llm_concurrency,
        breaker_failures=s.llm_breaker_failures,
        breaker_reset_s=s.llm_breaker_reset_s,
        json_mode=s.llm_json_mode,
    )
    return LlmChecker(config, metrics)
