"""`make faults` as a test: the fault suite's scenarios meet their targets.

0 answers lost, 0 duplicate decisions, 0 accepts while the corpus is unavailable, every answer
decided within 30 s of the fault's end, and each scenario's own targets (the durable-broker
rows: /readyz reports the stall of the S3 store, the kill lands mid-stream). The suite takes
two to three minutes, so it runs with `make test`.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.faults.suite import SCENARIOS, TARGET_RECOVER_S, run, table
from tests.integration.conftest import service_missing
from tests.integration.s3 import moto_missing

pytestmark = [pytest.mark.integration, pytest.mark.faults, pytest.mark.slow]


def test_every_fault_scenario_meets_its_targets(postgres_dsn: str, tmp_path: Path) -> None:
    del postgres_dsn  # requested so a missing server skips (or fails under CI) clearly
    missing = moto_missing()  # the durable-broker rows need moto's S3 server (dev extra)
    if missing:
        service_missing(missing)
    try:
        rows = asyncio.run(run(list(SCENARIOS), tmp_path))
    except OSError as exc:
        service_missing(f"the fault suite could not start its broker: {exc}")
    print(table(rows))
    for row in rows:
        assert not row.failures, table(rows)
        assert row.lost == 0, table(rows)
        assert not row.wrong_accepts, table(rows)
        assert row.recover_s is not None, table(rows)
        assert row.recover_s <= TARGET_RECOVER_S, table(rows)
        assert row.duplicates == 0, table(rows)
