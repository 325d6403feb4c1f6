"""Keeping or dropping dice by their face (`k=3`, `k>=4`, `k1..3`, `p1`) and exploding once
(`!o`), issue 20: the spellings the d20 library (`k3`, `p1`, `10d6k1k2k3`) and Foundry
(`xo`) have, given their own spelling here. Each is checked against a brute force over
every roll written in this file, and rolling against the exact odds by walking every path
of the roller (oracle.replay_dist)."""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction as F

import pytest

from oracle import replay_dist
from rulesengine import dice
from rulesengine.errors import RulesEngineError


def brute(n: int, sides: int, value) -> dict:
    out: dict = defaultdict(F)
    for faces in itertools.product(range(1, sides + 1), repeat=n):
        out[value(faces)] += F(1, sides ** n)
    return dict(sorted(out.items()))


def odds(text: str) -> dict:
    return dict(dice.parse(text).odds().distribution)


def highest(values, k):
    return sum(sorted(values, reverse=True)[:k])


@pytest.mark.parametrize("text, n, sides, value", [
    ("4d6k=3", 4, 6, lambda f: sum(x for x in f if x == 3)),
    ("4d6k>=4", 4, 6, lambda f: sum(x for x in f if x >= 4)),
    ("5d6k1..3", 5, 6, lambda f: sum(x for x in f if x <= 3)),
    ("5d6k=1k=6", 5, 6, lambda f: sum(x for x in f if x in (1, 6))),  # several keeps by face: either
    ("4d6p1", 4, 6, lambda f: sum(x for x in f if x != 1)),
    ("4d6p1p2", 4, 6, lambda f: sum(x for x in f if x > 2)),
    ("4d6p<3", 4, 6, lambda f: sum(x for x in f if x >= 3)),
    ("5d6k<=4p1", 5, 6, lambda f: sum(x for x in f if 2 <= x <= 4)),
    # keeps by face come first, then keeps by rank among the dice left
    ("4d6p1kh3", 4, 6, lambda f: highest([x for x in f if x != 1], 3)),
    ("5d6kh2p6", 5, 6, lambda f: highest([x for x in f if x != 6], 2)),  # order written doesn't matter
    ("5d6k<=4kl2", 5, 6, lambda f: sum(sorted(x for x in f if x <= 4)[:2])),
    ("4d6k>=3dh1", 4, 6, lambda f: sum(sorted(x for x in f if x >= 3)[:-1])),
    # counting among the dice kept
    ("6d6p1cs>=5", 6, 6, lambda f: sum(x >= 5 for x in f)),
    ("6d6k>=3cs>=5cf3", 6, 6, lambda f: sum(x >= 5 for x in f) - sum(x == 3 for x in f)),
    # a clamp first: the keep reads the clamped value
    ("4d6min3k=3", 4, 6, lambda f: sum(max(x, 3) for x in f if max(x, 3) == 3)),
])
def test_keeping_by_face_matches_every_roll(text, n, sides, value):
    assert odds(text) == brute(n, sides, value)


@pytest.mark.parametrize("text", ["4d6p1kh3", "3d6k>=3", "3d4!p1", "2d6!k>=5", "2d6!kh2p1", "2d4!!k>=3",
                                  "2d6r1k=2", "3d6!ok=6", "3d6p6!o"])
def test_rolling_and_exact_odds_agree_on_every_path(text):
    dist, truncated = replay_dist(text)
    o = dice.parse(text).odds()
    assert dict(o.distribution) == dict(sorted(dist.items())) and o.truncated == truncated


def test_a_die_set_aside_is_struck_in_the_trace_and_faces_are_read_as_usual():
    rolled = dice.roll("4d6p1kh2", faces=[1, 5, 3, 6])
    assert rolled.total == 11
    assert rolled.trace == "4d6p1kh2 → [~~1~~, 5, ~~3~~, 6] = 11"
    assert [(d["term"], d["kept"]) for d in rolled.to_dict()["dice"]] == [
        ("4d6p1kh2", False), ("4d6p1kh2", True), ("4d6p1kh2", False), ("4d6p1kh2", True)]


def explode_once(sides: int, explodes) -> dict:
    """One die that adds one more die if it meets the condition; the added die never does."""
    out: dict = defaultdict(F)
    for a in range(1, sides + 1):
        if explodes(a):
            for b in range(1, sides + 1):
                out[a + b] += F(1, sides * sides)
        else:
            out[a] += F(1, sides)
    return dict(sorted(out.items()))


def test_explode_once_adds_one_die_that_does_not_explode():
    want = explode_once(6, lambda f: f == 6)
    o = dice.parse("1d6!o").odds()
    assert dict(o.distribution) == want and o.truncated == 0
    assert dict(dice.parse("1d6!o>=5").odds().distribution) == explode_once(6, lambda f: f >= 5)


def test_explode_once_is_exact_whatever_the_depth_and_its_mean_is_exact():
    """Two dice, each adding at most one: mean = 2 · 3.5 · (1 + 1/6)."""
    o = dice.parse("2d6!o").odds(explode_depth=0)
    assert o.truncated == 0 and o.mean == F(7) * F(7, 6)
    pair = explode_once(6, lambda f: f == 6)
    want: dict = defaultdict(F)
    for (a, pa), (b, pb) in itertools.product(pair.items(), repeat=2):
        want[a + b] += pa * pb
    assert dict(o.distribution) == dict(sorted(want.items()))


def test_explode_once_in_the_trace():
    rolled = dice.roll("3d6!o", faces=[6, 2, 6, 6, 4])
    assert rolled.total == 24  # the added 6 does not explode
    assert rolled.trace == "3d6!o → [6!, 2, 6!, 6, 4] = 24"


@pytest.mark.parametrize("text, words", [
    ("4d6k3", "ambiguous"), ("4d6k(2)", "ambiguous"), ("4d6k=7", "'k=7' meets no face of d6"),
    ("4d6p<=6", "leaves no face"), ("4d6k>=5p5p6", "leaves no face"), ("4d6k 3", "a space"),
    ("4d6p-1", "cannot be negative"),
])
def test_a_keep_by_face_that_cannot_work_is_refused_where_it_is_written(text, words):
    with pytest.raises(RulesEngineError) as info:
        dice.parse(text)
    assert info.value.code == "E103" and words in info.value.message
    loc = info.value.location
    assert text[loc.column - 1] in "kp"  # at the keep it is about


def test_keeping_by_a_face_from_an_expression():
    assert odds_with("4d6k=(n)", n=3) == brute(4, 6, lambda f: sum(x for x in f if x == 3))
    assert odds_with("4d6p<=(n)", n=2) == brute(4, 6, lambda f: sum(x for x in f if x > 2))


def odds_with(text: str, **env) -> dict:
    return dict(dice.parse(text).odds(env).distribution)


def test_or_after_an_explosion_is_still_or():
    """`!o` is read only when no `r` follows, so `1d6!or x` keeps its meaning."""
    from rulesengine.dice import ast

    tree = dice.parse("1d6!or flag").tree
    assert isinstance(tree, ast.Logic) and tree.op == "or"
    assert isinstance(tree.left, ast.Dice) and tree.left.modifiers[0].kind == "explode"


def test_explode_once_then_a_reroll_is_two_modifiers():
    """`!o` then `ro1` with nothing between (what the foundry dialect writes for `xor1`) is
    the explosion and the reroll, as `ro1!o` is; only a whole word `or` after `!` is `or`."""
    assert odds_with("4d6!oro1") == odds_with("4d6ro1!o")
    assert odds_with("2d6!or1") == odds_with("2d6r1!o")
