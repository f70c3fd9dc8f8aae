"""The rules checker's results on a sample of the labelled dev records are unchanged."""

from __future__ import annotations

import orjson
import pytest

from tests.golden.eval_sample import DIGESTS, FILES, compute, eval_dir


def test_dev_record_sample_results_are_unchanged() -> None:
    directory = eval_dir()
    missing = [n for n in FILES if not (directory / n).is_file()]
    if missing:
        pytest.skip(
            f"the labelled dev files are not at {directory} ({', '.join(missing)} missing); "
            "set CITEGATE_EVAL_DIR to check the dev-record golden sample"
        )
    golden = orjson.loads(DIGESTS.read_bytes())
    actual = compute(directory)
    changed = [
        f"{name}: {rid}"
        for name, records in golden.items()
        for rid, digest in records.items()
        if actual.get(name, {}).get(rid) != digest
    ]
    assert actual.keys() == golden.keys()
    assert not changed, (
        f"{len(changed)} sampled dev records changed result (citegate eval shows how): "
        + "; ".join(changed[:10])
    )
