"""What the fuzz harnesses (tests/fuzz) found in the stream/verify core, each as a plain test
with its input inline. The inputs also live in tests/fuzz/regressions/, replayed through the
harness's whole contract."""

from __future__ import annotations

from stream.verify.checkers import RulesChecker
from stream.verify.codes import Verdict
from stream.verify.model import CheckRequest, Fragment


def test_a_claim_is_never_entailed_without_naming_its_evidence() -> None:
    # Found by the `verify` harness: the single character 局 aligned (inside 全局) while no
    # evidence window counted as covering it, so the verdict was `entailed` with no evidence.
    request = CheckRequest("c1", "局", (Fragment("S1", "Node.js 20 提供全局 fetch API。"),), "zh")
    result = RulesChecker().check(request)
    assert result.verdict is not Verdict.ENTAILED or result.evidence
    assert result.verdict is not Verdict.ENTAILED
