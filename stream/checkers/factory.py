"""Checker selection from settings (`CITEGATE_CHECKER` / `--checker`).

`rules` is the built-in lexical checker; `llm` a model behind an OpenAI-compatible endpoint;
`model:DIR` a cross-encoder trained by `citegate learn`, run by ONNX Runtime; `cascade` runs
the rules on every claim, then the learned model (`CITEGATE_MODEL`) and/or the LLM
(`CITEGATE_LLM_URL`) on the claims the earlier tiers left open (`stream.checkers.cascade`).
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
    from stream.checkers.model import ModelChecker

AVAILABLE = "rules, llm, model:DIR, cascade, or a checker config file (.toml)"


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
    if spec.startswith("model:"):
        return tier(learned_checker(spec.removeprefix("model:"), settings, metrics), "model")
    if spec == "cascade":
        unknown = sorted(settings.cascade_signals - {s.value for s in SignalCode})
        if unknown:
            raise UsageError(f"CITEGATE_CASCADE_SIGNALS: unknown signal codes {unknown}")
        if not settings.model and not settings.llm_url:
            raise UsageError(
                "the cascade needs a learned model (CITEGATE_MODEL=DIR) and/or an LLM "
                "(CITEGATE_LLM_URL and CITEGATE_LLM_MODEL)"
            )
        learned = (
            tier(learned_checker(settings.model, settings, metrics), "model")
            if settings.model
            else None
        )
        return CascadeChecker(
            tier(SyncChecker(rules_checker(settings), metrics), "rules"),
            tier(llm_checker(settings, metrics), "llm") if settings.llm_url else None,
            settings.cascade_band,
            settings.cascade_signals,
            metrics,
            learned=learned,
        )
    if spec.endswith(".toml") or Path(spec).is_file():
        return tier(SyncChecker(RulesChecker(load_rules_config(spec)), metrics), "rules")
    raise UsageError(f"unknown checker {spec!r}; available: {AVAILABLE}")


def check_spec(spec: str, settings: Settings) -> None:
    """Refuse a bad learned-model directory before a worker or replay starts (one line, exit 2)."""
    paths = [spec.removeprefix("model:")] if spec.startswith("model:") else []
    if spec == "cascade" and settings.model:
        paths.append(settings.model)
    if paths:
        from stream.checkers.modeldir import load_model_dir, require_runtime

        require_runtime()
        for path in paths:
            load_model_dir(path)


def rules_checker(settings: Settings) -> RulesChecker:
    """The rules side of `rules` and `cascade`: built in, or calibrated (CITEGATE_RULES_CONFIG)."""
    if settings.rules_config:
        return RulesChecker(load_rules_config(settings.rules_config))
    return RulesChecker()


def learned_checker(path: str, settings: Settings, metrics: Metrics | None = None) -> ModelChecker:
    from stream.checkers.modeldir import require_runtime

    if not path:
        raise UsageError("model:DIR needs a directory written by `citegate learn`")
    require_runtime()
    # imported here: onnxruntime and tokenizers cost ~0.3 s at start and are an optional extra
    from stream.checkers.model import model_checker

    return model_checker(path, metrics, settings.model_threads)


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
