"""pbta: rules PB-1..PB-4, the move roll shared by games Powered by the Apocalypse
(restated from Apocalypse World 2nd edition and the common advantage rule). Exact odds are
compared with a brute force over every face (itertools), and examples replayed with given
faces."""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction as F

import pytest

import rulesengine.ruleset as R

RS = R.load("pbta")
MOVE = RS.check("move")


def totals(edge: str) -> list[tuple[int, F]]:
    """(kept sum, probability) for every roll: 2d6, or 3d6 keeping the two highest/lowest."""
    n = 2 if edge == "none" else 3
    out = []
    for faces in itertools.product(range(1, 7), repeat=n):
        kept = sorted(faces)[1:] if edge == "advantage" else sorted(faces)[:2]
        out.append((sum(kept), F(1, 6 ** n)))
    return out


def by_hand(stat: int, modifier: int, edge: str, advanced: bool) -> dict[str, F]:
    out: dict[str, F] = defaultdict(F)
    for s, p in totals(edge):
        t = s + stat + modifier
        out["advanced_hit" if advanced and t >= 12 else "strong_hit" if t >= 10 else
            "weak_hit" if t >= 7 else "miss"] += p
    return dict(out)


@pytest.mark.parametrize("stat", [-3, -1, 0, 1, 2, 3, 4])
@pytest.mark.parametrize("edge", ["none", "advantage", "disadvantage"])
def test_pb1_pb2_bands_match_every_roll(stat, edge):
    want = by_hand(stat, 0, edge, False)
    got = {k: v for k, v in MOVE.odds({"stat": stat, "edge": edge}).outcomes.items() if v}
    assert got == want


def test_pb1_the_familiar_numbers():
    """With +0: a strong hit 1 in 6, a weak hit and a miss 5 in 12 each; with +2 the miss is
    1 in 6."""
    plain = MOVE.odds({"stat": 0}).outcomes
    assert (plain["strong_hit"], plain["weak_hit"], plain["miss"]) == (F(1, 6), F(5, 12), F(5, 12))
    assert MOVE.odds({"stat": 2}).outcomes["miss"] == F(1, 6)


def test_pb1_forward_and_ongoing_modifiers_add_to_the_stat():
    assert MOVE.odds({"stat": 1, "modifier": 1}).outcomes == MOVE.odds({"stat": 2}).outcomes


def test_pb1_examples():
    assert MOVE.roll({"stat": 2}, faces=[5, 4]).outcome == "strong_hit"   # 11
    assert MOVE.roll({"stat": 1}, faces=[3, 3]).outcome == "weak_hit"     # 7
    assert MOVE.roll({"stat": -1}, faces=[4, 3]).outcome == "miss"        # 6
    assert MOVE.roll({"stat": 0, "edge": "advantage"}, faces=[1, 6, 4]).result == 10  # keeps 6 and 4


@pytest.mark.parametrize("stat", [0, 2, 3])
def test_pb3_an_advanced_move_reads_12_or_more_apart(stat):
    want = by_hand(stat, 0, "none", True)
    got = {k: v for k, v in MOVE.odds({"stat": stat, "advanced": True}).outcomes.items() if v}
    assert got == want
    assert MOVE.roll({"stat": 3, "advanced": False}, faces=[6, 6]).outcome == "strong_hit"


def test_pb4_hold_from_the_band():
    assert MOVE.roll({"stat": 1}, faces=[6, 5]).values["hold"] == 3
    assert MOVE.roll({"stat": 1}, faces=[3, 3]).values["hold"] == 1
    assert MOVE.roll({"stat": 1}, faces=[1, 2]).values["hold"] == 0
    hold = MOVE.odds({"stat": 1, "hold_strong": 2, "hold_weak": 1}).values["hold"]
    want = by_hand(1, 0, "none", False)
    assert hold == {0: want["miss"], 1: want["weak_hit"], 2: want["strong_hit"]}
