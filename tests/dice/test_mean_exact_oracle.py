"""A mean labelled exact is the roll's own mean, explosions followed forever (issue 29:
"wrong figures labelled exact"). Where the closed form (rulesengine.dice.expectation) has no
answer, the odds give the mean of the mass they worked out and say so: ``mean_kind`` is
``of_mass_worked_out`` and ``mass_left_out`` the probability cut off.

Every exact figure here comes from closed forms written in this file, apart from the
engine: a die that explodes with chance p is 1/(1 − p) dice on average; a compounded die is
its chain of faces enumerated until it stops or its sum is past every clamp and condition
of these tests, where its worth is known (a constant, or its sum so far plus the mean of a
fresh chain)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction as F

import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

from rulesengine import dice
from rulesengine.ruleset import load

# ---- the oracle: one die's mean, explosions followed forever ----------------------------


def clamp(v: int, low: int | None, high: int | None) -> int:
    """``min``/``max`` on one die's value: raised to ``low``, then lowered to ``high``."""
    if low is not None and v < low:
        v = low
    if high is not None and v > high:
        v = high
    return v


def explode_mean(faces: list[int], explodes: Callable[[int], bool], worth: Callable[[int], int]) -> F:
    """``!``: every die of the chain adds its worth; the chain has 1/(1 − p) dice on average."""
    p = F(sum(1 for f in faces if explodes(f)), len(faces))
    return F(sum(worth(f) for f in faces), len(faces)) / (1 - p)


def penetrate_mean(faces: list[int], explodes: Callable[[int], bool], worth: Callable[[int], int]) -> F:
    """``!p``: the first die adds its worth, each added one (p/(1 − p) of them on average)
    the worth of its face less one."""
    p = F(sum(1 for f in faces if explodes(f)), len(faces))
    first = F(sum(worth(f) for f in faces), len(faces))
    added = F(sum(worth(f - 1) for f in faces), len(faces))
    return first + p / (1 - p) * added


def once_mean(faces: list[int], explodes: Callable[[int], bool], worth: Callable[[int], int]) -> F:
    """``!o``: a die that explodes adds one die that doesn't."""
    p = F(sum(1 for f in faces if explodes(f)), len(faces))
    return F(sum(worth(f) for f in faces), len(faces)) * (1 + p)


FAR = 30  # past every clamp and condition number of these tests


def compound_mean(faces: list[int], explodes: Callable[[int], bool], worth: Callable[[int], int],
                  worth_is_value_far_up: bool) -> F:
    """``!!``: one value, the sum of the chain's faces, then clamped and scored (``worth``).
    The chain is enumerated by its partial sums, explosion after explosion (each exploding
    face here is 1 or more, so the sums grow), until each chain has stopped or its sum is FAR
    or more. A sum that far up is past every clamp and condition of these tests: the chain
    is worth ``worth(FAR)`` whatever comes next, or, where the worth that far up is the
    value itself, its sum so far plus a fresh chain's mean (faces' mean / (1 − p))."""
    assert all(f >= 1 for f in faces if explodes(f))
    n = len(faces)
    p = F(sum(1 for f in faces if explodes(f)), n)
    fresh_chain = F(sum(faces), n) / (1 - p)
    total = F(0)
    going: dict[int, F] = {0: F(1)}
    while going:
        nxt: dict[int, F] = defaultdict(F)
        for s, q in going.items():
            for f in faces:
                if not explodes(f):
                    total += q / n * worth(s + f)
                elif s + f >= FAR:
                    total += q / n * (s + f + fresh_chain if worth_is_value_far_up else worth(FAR))
                else:
                    nxt[s + f] += q / n
        going = nxt
    return total


def d(sides: int) -> list[int]:
    return list(range(1, sides + 1))


def mean_of(text: str, env: dict | None = None) -> tuple[F, str, dict]:
    """The engine's mean, what it calls it, and its JSON (dice odds)."""
    odds = dice.parse(text).odds(env)
    out = odds.to_dict()
    assert out["mean_kind"] == out["stats"]["mean_kind"] == odds.mean_kind
    return odds.mean, odds.mean_kind, out


# ---- the cases --------------------------------------------------------------------


def test_an_explode_condition_from_an_input_is_read_like_a_written_number():
    """``5d10!>=(again)cs>=8`` with again=8: each die a success with chance 3/10 and exploding
    with chance 3/10, so 5 · (3/10)/(7/10) = 15/7 (30610798800/14285688979 before)."""
    hits = 5 * explode_mean(d(10), lambda f: f >= 8, lambda f: int(f >= 8))
    assert hits == F(15, 7)
    mean, kind, out = mean_of("5d10!>=(again)cs>=8", {"again": 8})
    assert (mean, kind) == (hits, "exact")
    assert out["mean_exact"] == out["stats"]["mean_exact"] == "15/7"
    assert F(out["stats"]["mass_left_out"]) == dice.odds("5d10!>=(again)cs>=8", {"again": 8}).truncated > 0


def test_an_explode_condition_from_a_name_gives_the_mean_of_plain_explosion():
    """``d6!>=(x)`` with x=5: (mean face 7/2) / (1 − 1/3) = 21/4 (464978/88573 before)."""
    expected = explode_mean(d(6), lambda f: f >= 5, lambda f: f)
    assert expected == F(7, 2) / (1 - F(1, 3)) == F(21, 4)
    assert mean_of("d6!>=(x)", {"x": 5})[:2] == (expected, "exact")
    assert mean_of("d6!>=(x - 1)", {"x": 6})[:2] == (expected, "exact")


def test_a_compounded_die_clamped_after_compounding_has_its_own_mean():
    """``d6!!max8``: 1 to 5, or 6 and more clamped to 8: 15/6 + 7/36 + 8·5/36 = 137/36
    (1380644344/362797055 before)."""
    expected = compound_mean(d(6), lambda f: f == 6, lambda v: clamp(v, None, 8), False)
    assert expected == F(15, 6) + F(7, 36) + F(40, 36) == F(137, 36)
    assert mean_of("d6!!max8")[:2] == (expected, "exact")


@pytest.mark.parametrize("text, count, sides, explodes_on, low, high, success", [
    ("d6!!min3", 1, 6, {6}, 3, None, None),
    ("2d6!!min2max10", 2, 6, {6}, 2, 10, None),
    ("d8!!>=7max12", 1, 8, {7, 8}, None, 12, None),
    ("3d6!!cs>=8", 3, 6, {6}, None, None, 8),
    ("d10!!max15cs>=12", 1, 10, {10}, None, 15, 12),
    ("d4!!<=2min3", 1, 4, {1, 2}, 3, None, None),
])
def test_compounded_dice_clamped_or_counted_after_compounding(text, count, sides, explodes_on, low, high, success):
    """The chain is summed, then clamped, then counted, as the order of modifiers says."""
    def worth(v):
        v = clamp(v, low, high)
        return v if success is None else int(v >= success)

    expected = count * compound_mean(d(sides), lambda f: f in explodes_on, worth, high is None and success is None)
    assert mean_of(text)[:2] == (expected, "exact")


def test_a_dice_count_from_another_roll_gives_its_mean_times_one_die():
    """``(1d4)d6!``: E[n] · E[one die] = (5/2)(21/5), the count rolled apart from its dice."""
    expected = F(5, 2) * explode_mean(d(6), lambda f: f == 6, lambda f: f)
    assert mean_of("(1d4)d6!")[:2] == (expected, "exact") == (F(21, 2), "exact")


def test_an_if_on_an_input_takes_the_branch_the_input_settles():
    hits = 4 * explode_mean(d(6), lambda f: f == 6, lambda f: int(f >= 5))
    assert hits == F(8, 5)
    text = "if(pushing, (n)d6!cs>=5, (n)d6cs>=5)"
    assert mean_of(text, {"pushing": True, "n": 4})[:2] == (hits, "exact")
    # not pushing: nothing explodes, nothing is cut: 4 · 1/3
    assert mean_of(text, {"pushing": False, "n": 4})[:2] == (F(4, 3), "exact")


def test_an_if_on_a_roll_mixes_the_branches_by_its_chance():
    """``if(1d4 == 1, 1d6!, 2d6!)``: (1/4)(21/5) + (3/4)(42/5)."""
    one = explode_mean(d(6), lambda f: f == 6, lambda f: f)
    assert mean_of("if(1d4 == 1, 1d6!, 2d6!)")[:2] == (F(1, 4) * one + F(3, 4) * 2 * one, "exact")


@pytest.mark.parametrize("text", ["max(1d6!, 3)", "1d6! * 1d6!", "3d6!!>=5kh2", "(1d6!, 1d6)kh1", "(1d6!)d6kh1",
                                  "if(1d6! > 3, 1d6!, 0)"])
def test_without_a_closed_form_the_mean_is_labelled_of_the_mass_worked_out(text):
    mean, kind, out = mean_of(text)
    odds = dice.odds(text)
    assert odds.truncated > 0
    assert kind == out["stats"]["mean_kind"] == "of_mass_worked_out"
    mass = sum(odds.distribution.values(), F(0))
    assert mean == sum((v * p for v, p in odds.distribution.items()), F(0)) / mass
    assert F(out["stats"]["mass_left_out"]) == odds.truncated == 1 - mass


def test_nothing_cut_nothing_left_out():
    _, kind, out = mean_of("3d6")
    assert kind == "exact" and "mass_left_out" not in out["stats"]


# ---- a property over small exploding expressions -----------------------------------------

MARKS = {"explode": "!", "compound": "!!", "penetrate": "!p", "once": "!o"}


@st.composite
def terms(draw, names: dict) -> tuple[str, F | None]:
    """One exploding dice term, as text, with its oracle mean (names it reads bound in
    ``names``)."""
    sides = draw(st.sampled_from([4, 6, 8]))
    kind = draw(st.sampled_from(list(MARKS)))
    # the explosion's condition: on the highest face, or >= / <= a number (written, or a name)
    how = draw(st.sampled_from(["top", ">=", "<="]))
    if how == "top":
        cond, explodes = "", (lambda f, s=sides: f == s)
    else:
        at = draw(st.integers(2, sides) if how == ">=" else st.integers(1, sides - 1))
        written = draw(st.sampled_from(["number", "name", "sum"]))
        if written == "number":
            cond = f"{how}{at}"
        else:
            name = f"x{len(names)}"
            names[name] = at if written == "name" else at - 1
            cond = f"{how}({name})" if written == "name" else f"{how}({name} + 1)"
        explodes = (lambda f, a=at: f >= a) if how == ">=" else (lambda f, a=at: f <= a)
    low = draw(st.none() | st.integers(1, 4))
    high = draw(st.none() | st.integers(3, 12))
    if low is not None and high is not None and high < low:
        low, high = high, low
    success = draw(st.none() | st.integers(2, 10))
    mods = "".join(m for m in (f"min{low}" if low is not None else "", f"max{high}" if high is not None else "",
                                f"cs>={success}" if success is not None else ""))

    def worth(v, lo=low, hi=high, s=success):
        v = clamp(v, lo, hi)
        return v if s is None else int(v >= s)

    faces = d(sides)
    if kind == "compound":
        one = compound_mean(faces, explodes, worth, high is None and success is None)
    else:
        one = {"explode": explode_mean, "penetrate": penetrate_mean, "once": once_mean}[kind](faces, explodes, worth)
    count_kind = draw(st.sampled_from(["number", "name", "roll"]))
    if count_kind == "number":
        n = draw(st.integers(1, 2))
        count, expected_n = str(n), F(n)
    elif count_kind == "name":
        name = f"n{len(names)}"
        names[name] = draw(st.integers(0, 2))
        count, expected_n = f"({name})", F(names[name])
    else:
        count, expected_n = "(1d3)", F(2)
    # compounding on a condition on low faces keeps going while faces are low: fine (each is 1+)
    mark = MARKS[kind]
    if kind == "compound" and how == "top":
        text = f"{count}d{sides}{mark}"
    else:
        text = f"{count}d{sides}{mark}{cond}"
    return text + mods, expected_n * one


@st.composite
def expressions(draw) -> tuple[str, dict, F | None]:
    names: dict = {}
    text, mean = draw(terms(names))
    shape = draw(st.sampled_from(["term", "plus", "if_input", "if_roll", "times", "nonlinear"]))
    if shape == "plus":
        other, other_mean = draw(terms(names))
        k = draw(st.integers(-3, 3))
        return f"{text} + {other} + {k}", names, mean + other_mean + k
    if shape == "if_input":
        other, other_mean = draw(terms(names))
        flag = draw(st.booleans())
        names["flag"] = flag
        return f"if(flag, {text}, {other})", names, mean if flag else other_mean
    if shape == "if_roll":
        other, other_mean = draw(terms(names))
        return f"if(1d4 >= 3, {text}, {other})", names, (mean + other_mean) / 2
    if shape == "times":
        k = draw(st.integers(-2, 3))
        return f"{k} * ({text})", names, k * mean
    if shape == "nonlinear":
        return f"max({text}, 3)", names, None  # no closed form: the oracle doesn't know either
    return text, names, mean


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expressions())
def test_a_mean_labelled_exact_is_the_oracles_mean(case):
    """Whenever the odds call a mean exact it is the roll's own mean (the oracle's, from the
    closed forms above); otherwise they say it is the mean of the mass worked out."""
    text, env, expected = case
    odds = dice.parse(text).odds(env, explode_depth=3)
    out = odds.to_dict()
    if odds.mean is None:
        return
    kind = out["stats"]["mean_kind"]
    assert kind == out["mean_kind"]
    if kind == "exact" and expected is None:  # no closed form: exact only where nothing was cut (`!o`)
        assert odds.truncated == 0, text
    elif kind == "exact":
        assert F(out["mean_exact"]) == expected, text
    else:
        assert kind == "of_mass_worked_out", text
        assert odds.truncated > 0 and F(out["stats"]["mass_left_out"]) == odds.truncated


# ---- a ruleset's check ------------------------------------------------------------------

RULESET = """
ruleset: pushing
name: Pushing the dice
version: "1"
source: tests
checks:
  push:
    inputs:
      n: {type: integer, default: 4, min: 1, max: 12}
      pushing: {type: boolean, default: true}
    roll: if(pushing, (n)d6!cs>=5, (n)d6cs>=5)
    result: roll
    outcomes:
      - {name: success, when: "result >= 1", success: true}
      - {name: failure, success: false}
  pool_from_a_roll:
    rolls:
      size: 1d3
      hits: (size)d6!cs>=5
    let:
      doubled: hits * 2
    result: hits + size
    outcomes:
      - {name: success, when: "hits >= 1", success: true}
      - {name: failure, success: false}
    report: [doubled]
  nonlinear:
    roll: 2d6!
    result: max(roll, 9)
    outcomes:
      - {name: success, when: "roll >= 8", success: true}
      - {name: failure, success: false}
"""


@pytest.fixture(scope="module")
def ruleset(tmp_path_factory):
    path = tmp_path_factory.mktemp("mean") / "pushing.yaml"
    path.write_text(RULESET)
    return load(path)


@pytest.mark.parametrize("n", [4, 8, 12])
def test_a_checks_roll_that_is_an_if_on_an_input_has_its_exact_mean(ruleset, n):
    """E[hits] = n · (1/3)/(5/6) = 2n/5 when pushing (3482851688/2176782335 at n=4 before)."""
    hits = n * explode_mean(d(6), lambda f: f == 6, lambda f: int(f >= 5))
    assert hits == F(2 * n, 5)
    odds = ruleset.check("push").odds({"n": n, "pushing": True})
    stats = odds.to_dict()["stats"]["result"]
    assert odds.result_truncated > 0
    assert (F(stats["mean_exact"]), stats["mean_kind"]) == (hits, "exact")
    assert F(stats["mass_left_out"]) == odds.result_truncated


def test_a_checks_dice_count_from_an_earlier_roll(ruleset):
    """size: 1d3, hits: (size)d6!cs>=5: E[hits] = E[size] · 2/5 = 4/5; the result adds size."""
    odds = ruleset.check("pool_from_a_roll").odds({})
    stats = odds.to_dict()["stats"]
    hits = F(2) * explode_mean(d(6), lambda f: f == 6, lambda f: int(f >= 5))
    assert (F(stats["result"]["mean_exact"]), stats["result"]["mean_kind"]) == (hits + 2, "exact")
    # a reported value worked out under let: has the closed form the result would: 2 · E[hits]
    doubled = stats["values"]["doubled"]
    assert (F(doubled["mean_exact"]), doubled["mean_kind"]) == (2 * hits, "exact")


def test_a_checks_result_without_a_closed_form_is_labelled_so(ruleset):
    odds = ruleset.check("nonlinear").odds({})
    stats = odds.to_dict()["stats"]["result"]
    dist = odds.result_distribution
    mass = sum(dist.values(), F(0))
    assert stats["mean_kind"] == "of_mass_worked_out"
    assert F(stats["mean_exact"]) == sum((v * p for v, p in dist.items()), F(0)) / mass
    assert F(stats["mass_left_out"]) == 1 - mass == odds.result_truncated


def test_conditional_odds_of_exploding_dice_are_labelled_of_the_mass_worked_out(ruleset):
    odds = ruleset.check("push").odds({"n": 4}, given="result >= 1")
    stats = odds.to_dict()["stats"]["result"]
    # the outcomes given it are decided beyond the depth (every cut path has a success), the
    # result's number is not: its mean is of the mass worked out, and says what is left out
    assert odds.truncated == 0 and odds.result_truncated > 0
    assert stats["mean_kind"] == "of_mass_worked_out" and F(stats["mass_left_out"]) == odds.result_truncated
