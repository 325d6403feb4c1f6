"""bench/pools.py (issue 33) compares the figures of ``rulesengine odds`` with those of an
independent icepool program before it times them. These tests run that agreement part
alone, at small sizes, for two rows; no time is measured or asserted. Skipped where icepool
(the ``bench`` extra) is not installed."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip("icepool")

BENCH = Path(__file__).resolve().parent.parent / "bench"


@pytest.fixture(scope="module")
def pools():
    spec = importlib.util.spec_from_file_location("bench_pools", BENCH / "pools.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_pools"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop("bench_pools", None)


def test_threshold_with_a_doubled_face_swept_agrees_with_icepool(pools):
    """Item 1: d10s succeeding on 7+, faces from ``double`` up counting twice, a botch on no
    success and a 1, swept over every value of ``double`` (11: no face doubles)."""
    assert pools.agree("threshold", ["pool=4", "double=7..11"]) == []


def test_exploding_pool_with_a_botch_on_the_first_throw_agrees_with_icepool(pools):
    """Item 8: ``(pool)d10!cs>=8``, a botch read on ``count(initial(roll), 1)``: the outcomes
    exactly, and the results below the point the explode depth leaves open."""
    assert pools.agree("exploding", ["pool=3", "need=2"]) == []


def test_a_different_figure_is_reported_as_a_disagreement(pools):
    """The comparison is not vacuous: icepool's figures for need=3, relabelled need=2, differ
    from ours for need=2 in the outcomes."""
    _, ours = pools.run(pools.ours_argv("exploding", ["pool=3", "need=2"]))
    _, theirs = pools.run(pools.icepool_argv("exploding", ["pool=3", "need=3"]))
    found = pools.disagreements(ours.stdout, theirs.stdout.replace('"need": 3', '"need": 2'))
    assert found and "outcomes" in found[0]
