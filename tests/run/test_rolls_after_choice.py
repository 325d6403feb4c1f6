"""Rolls made after the dice are chosen (issue #34): a roll that reads a value of ``choose``
is rolled once the choice is made, so "keep as many dice as the ring, then the kept 10s
roll again" is ``more: (tens)d10!`` beside ``tens: count(chosen, 10)``. Rolled and in exact
odds by the one resolver; each figure here against an oracle written apart from the engine:
every throw listed, the kept dice taken by hand, and the chains of the kept 10s followed to
the end by a walk over partial sums that stops once the target is met (each die adds at
least 1, so the walk is finite and exact: no depth cuts it)."""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from fractions import Fraction

import pytest

from rulesengine import dice, loads
from rulesengine.errors import RulesEngineError
from rulesengine.validate import validate_text

RULESET = """\
ruleset: keep-explode
name: Keep, then explode
version: "1"
source: tests
checks:
  roll:
    inputs:
      ring: {type: integer, default: 2, min: 1, max: 3}
      skill: {type: integer, default: 1, min: 0, max: 2}
      tn: {type: integer, default: 15, min: 1, max: 60}
    rolls:
      dice: (ring + skill)d10
      more: (tens)d10!
    choose:
      from: dice
      pick: ring
      values:
        kept: sum(chosen)
        tens: count(chosen, 10)
    result: kept + more
    outcomes:
      - {name: success, success: true, when: result >= tn}
      - {name: failure, success: false}
"""


@functools.cache
def chains_reach(chains: int, need: int) -> Fraction:
    """P(the sum of ``chains`` exploding d10s is at least ``need``): each throw of a chain
    adds its face; a 10 throws again. Followed until the need is met or the chains end."""
    if need <= 0:
        return Fraction(1)
    if chains == 0:
        return Fraction(0)
    tenth = Fraction(1, 10)
    return sum((tenth * chains_reach(chains - 1, need - face) for face in range(1, 10)), Fraction(0)) \
        + tenth * chains_reach(chains, need - 10)


def keep_then_explode(ring: int, skill: int, tn: int) -> Fraction:
    """P(the ring highest of ring + skill d10, each kept 10 then exploding, reach ``tn``):
    every throw listed; the highest dice are the kept ones (the policy's largest total)."""
    throws = list(itertools.product(range(1, 11), repeat=ring + skill))
    total = Fraction(0)
    for throw in throws:
        kept = sorted(throw, reverse=True)[:ring]
        total += chains_reach(kept.count(10), tn - sum(kept))
    return total / len(throws)


@pytest.mark.parametrize("ring, skill, tn", [(1, 0, 12), (1, 1, 15), (2, 1, 20), (2, 1, 25), (2, 2, 30),
                                             (3, 0, 28), (1, 2, 40)])
def test_the_kept_tens_rolling_again_have_exact_odds(ring, skill, tn):
    odds = loads(RULESET).check("roll").odds({"ring": ring, "skill": skill, "tn": tn})
    assert odds.outcomes["success"] == keep_then_explode(ring, skill, tn)
    assert odds.truncated == 0  # the outcome is exact, whatever depth the result's tail is cut at


def test_keeping_before_exploding_is_not_exploding_before_keeping():
    """Only the kept die explodes. Keep the lower of two d10 (the policy's largest ``low``),
    then it explodes: it reaches 15 only when both show 10 and the one kept adds 5 or more,
    1/100 · 6/10. Exploding both (compounding) before keeping the lower (``2d10!!kl1``) is another rule:
    both chains reach 15, (1/10 · 6/10)², as the dice language's own odds say."""
    text = RULESET.replace("pick: ring", "pick: 1\n      order: [low]").replace(
        "kept: sum(chosen)", "kept: sum(chosen)\n        low: -sum(chosen)")
    odds = loads(text).check("roll").odds({"ring": 1, "skill": 1, "tn": 15})
    assert odds.outcomes["success"] == Fraction(1, 100) * chains_reach(1, 5) == Fraction(6, 1000)
    assert dice.odds("2d10!!kl1 >= 15").probability(True) == (Fraction(1, 10) * chains_reach(1, 5)) ** 2


def test_rolling_reads_the_chosen_values_and_traces_the_choice_before_the_dice_it_rolls():
    check = loads(RULESET).check("roll")
    rolled = check.roll({"ring": 2, "skill": 1}, faces=[10, 4, 10, 10, 3, 7])
    assert rolled.result == 20 + (10 + 3) + 7
    text = rolled.trace
    assert text.index("chosen: 10, 10") < text.index("more: (tens)d10!")


def test_the_players_choice_decides_what_the_later_roll_reads():
    check = loads(RULESET).check("roll")
    rolled = check.roll({"ring": 2, "skill": 1}, faces=[10, 4, 10, 6], choose=[10, 4])
    assert rolled.result == 14 + 6  # one 10 kept: one more die
    with pytest.raises(RulesEngineError):  # three faces were given for the first throw's dice alone
        check.roll({"ring": 2, "skill": 1}, faces=[10, 4, 10, 6], choose=[10, 10])


SMALL = RULESET.replace("d10", "d4").replace("d4!", "d4").replace("count(chosen, 10)", "count(chosen, 4)") \
    .replace("(tens)", "(fours)").replace("tens:", "fours:")


def test_rolling_every_face_and_the_exact_odds_agree():
    """Every sequence of faces the dice can show, rolled through the sampler (the later roll
    takes as many faces as the chosen 4s), weighted by its chance, against the exact odds."""
    check = loads(SMALL).check("roll")
    for ring, skill, tn in [(1, 1, 5), (2, 1, 9), (2, 0, 6)]:
        tally: Counter = Counter()
        for first in itertools.product(range(1, 5), repeat=ring + skill):
            fours = sorted(first, reverse=True)[:ring].count(4)
            for more in itertools.product(range(1, 5), repeat=fours):
                rolled = check.roll({"ring": ring, "skill": skill, "tn": tn}, faces=[*first, *more])
                tally[rolled.outcome] += Fraction(1, 4 ** (len(first) + len(more)))
        odds = check.odds({"ring": ring, "skill": skill, "tn": tn})
        assert dict(odds.outcomes) == {k: tally.get(k, Fraction(0)) for k in odds.outcomes}


def test_a_seeded_roll_is_the_same_roll_again():
    check = loads(RULESET).check("roll")
    assert check.roll({"ring": 3, "skill": 2}, seed=7).to_dict() == check.roll({"ring": 3, "skill": 2}, seed=7).to_dict()


@pytest.mark.parametrize("edit, line, words", [
    (("    result: kept + more", "    let:\n      all: kept + more\n    result: kept + more"), None, None),
    (("        kept: sum(chosen)", "        kept: sum(chosen) + more"), 18, "'kept' reads 'more'"),
    (("      from: dice", "      from: more"), 15, "choose from 'more'"),
    (("    result: kept + more", "    let:\n      bonus: more * 2\n    result: kept + more"), 21,
     "'bonus' reads 'more'"),
])
def test_what_the_choice_is_made_from_may_not_read_a_roll_made_after_it(edit, line, words):
    text = RULESET.replace(*edit)
    report = validate_text(text, "kx.yaml")
    errors = [d for d in report.diagnostics if d.severity == "error"]
    if line is None:  # a let may not read a chosen value at all: the choice comes after the lets
        assert errors and errors[0].code == "E502" and "after the lets" in (errors[0].hint or "")
        return
    found = [d for d in errors if d.code == "E509"]
    assert found, [d.message for d in errors]
    assert found[0].location.line == line and words in found[0].message
    assert "before" in (found[0].hint or "")


def test_throws_that_choose_alike_are_resolved_once_and_answer_the_same():
    """Where nothing after the choice reads the first throw but through the chosen values,
    throws giving the same chosen values are one (fewer resolutions); a result that reads the
    throw itself (``0 * sum(dice)``) keeps them apart. Both give the oracle's odds."""
    merged = loads(RULESET).check("roll")
    apart = loads(RULESET.replace("result: kept + more", "result: kept + more + 0 * sum(dice)")).check("roll")
    inputs = {"ring": 3, "skill": 1, "tn": 25}
    fewer = len(merged.runner.resolutions(merged.coerce_inputs(inputs), cut=True)[0])
    every = len(apart.runner.resolutions(apart.coerce_inputs(inputs), cut=True)[0])
    assert fewer * 5 < every
    expected = keep_then_explode(3, 1, 25)
    assert merged.odds(inputs).outcomes["success"] == apart.odds(inputs).outcomes["success"] == expected


def test_a_choice_too_big_to_follow_is_refused_before_it_is_made_and_says_why():
    check = loads(RULESET.replace("max: 3}", "max: 5}").replace("max: 2}", "max: 5}")).check("roll")
    with pytest.raises(RulesEngineError) as caught:
        check.odds({"ring": 4, "skill": 4})
    assert caught.value.code == "E210" and "choosing 4 dice of each of 24,310 throws" in caught.value.message


@pytest.mark.parametrize("ring, skill", [(1, 1), (2, 1), (1, 2)])
def test_the_mean_and_variance_of_a_result_read_after_the_choice_are_exact(ring, skill):
    """One exploding d10 is 10·K + R, K the 10s before the last die (P(K = k) = 9/10 · 10^-k)
    and R uniform on 1..9 apart from it: mean 10/9 + 5 = 55/9, variance 100 · (10/81) + 80/12 =
    1540/81. The result, each throw listed: the kept total plus that many chains."""
    chain_mean, chain_variance = Fraction(55, 9), Fraction(1540, 81)
    throws = list(itertools.product(range(1, 11), repeat=ring + skill))
    mean = second = Fraction(0)
    for throw in throws:
        kept = sorted(throw, reverse=True)[:ring]
        m = sum(kept) + kept.count(10) * chain_mean
        mean += m
        second += m * m + kept.count(10) * chain_variance
    mean, second = mean / len(throws), second / len(throws)
    odds = loads(RULESET).check("roll").odds({"ring": ring, "skill": skill})
    assert odds.unbounded_mean == mean and odds.unbounded_variance == second - mean * mean


from hypothesis import given, strategies as st  # noqa: E402

from fuzz_support import fuzz_settings  # noqa: E402

GENERAL = """\
ruleset: after-choice
name: any roll after any choice
version: "1"
source: tests
checks:
  roll:
    inputs:
      tn: {type: integer, default: 3, min: -20, max: 40}
    rolls:
      dice: N dS
      more: (hits)dS
    choose:
      from: dice
      pick: K
      values:
        kept: sum(chosen)
        low: -sum(chosen)
        hits: count(chosen, T, S)
      order: [ORDER]
    result: RESULT
    outcomes:
      - {name: reached, success: true, when: result >= tn}
      - {name: short, success: false}
"""


@fuzz_settings(fast=8, long=200)
@given(st.integers(3, 4), st.integers(1, 3), st.data())
def test_any_roll_after_any_choice_has_the_odds_of_every_face_rolled(sides, n, data):
    """Odds and rolling agree: a pool, a pick, a policy (highest or lowest kept), one more die
    for each kept die showing T or more, and a result reading both, against every sequence of
    faces rolled through the sampler (the second throw as long as the choice makes it)."""
    pick = data.draw(st.integers(1, n))
    t = data.draw(st.integers(1, sides))
    order = data.draw(st.sampled_from(["kept", "low"]))
    result = data.draw(st.sampled_from(["kept + more", "more - kept", "more * 2 + hits"]))
    tn = data.draw(st.integers(-6, 16))
    text = GENERAL.replace("N dS", f"{n}d{sides}").replace("(hits)dS", f"(hits)d{sides}") \
        .replace("pick: K", f"pick: {pick}").replace("count(chosen, T, S)", f"count(chosen, {t}, {sides})") \
        .replace("ORDER", order).replace("RESULT", result)
    check = loads(text).check("roll")
    tally: Counter = Counter()
    for first in itertools.product(range(1, sides + 1), repeat=n):
        ranked = sorted(first, reverse=order == "kept")
        hits = sum(1 for f in ranked[:pick] if f >= t)
        for more in itertools.product(range(1, sides + 1), repeat=hits):
            rolled = check.roll({"tn": tn}, faces=[*first, *more])
            tally[rolled.outcome] += Fraction(1, sides ** (n + hits))
    odds = check.odds({"tn": tn})
    assert dict(odds.outcomes) == {k: tally.get(k, Fraction(0)) for k in odds.outcomes}


# ---- the system: ring and skill symbol dice, keep up to the ring, kept explosives roll again ----

from oracle import RING, SKILL, faces_text as _faces, symbols_at_least as at_least  # noqa: E402

RING_MARKED = [[s.replace("explosive", "ring_explosive") for s in f] for f in RING]
SKILL_MARKED = [[s.replace("explosive", "skill_explosive") for s in f] for f in SKILL]


KEEP_AND_EXPLODE = f"""\
ruleset: keep-and-explode
name: ring and skill dice, keep up to the ring, kept explosives roll again
version: "1"
source: issue 34
dice:
  ring:
    faces: {_faces(RING_MARKED)}
  skill:
    faces: {_faces(SKILL_MARKED)}
checks:
  check:
    inputs:
      ring: {{type: integer, default: 2, min: 1, max: 3}}
      skill: {{type: integer, default: 1, min: 0, max: 2}}
      tn: {{type: integer, default: 2, min: 1, max: 8}}
    rolls:
      dice: (ring)d{{ring}} + (skill)d{{skill}}
      ring_more: (ring_bursts)d{{ring}}!=6
      skill_more: (skill_bursts)d{{skill}}!>=11
    choose:
      from: dice
      pick: ring
      values:
        kept: symbols(chosen, 'success', 'ring_explosive', 'skill_explosive')
        ring_bursts: symbols(chosen, 'ring_explosive')
        skill_bursts: symbols(chosen, 'skill_explosive')
      order: [kept, ring_bursts, skill_bursts]
    result: kept + symbols(ring_more, 'success', 'ring_explosive') + symbols(skill_more, 'success', 'skill_explosive')
    outcomes:
      - {{name: success, when: "result >= tn", success: true}}
      - {{name: failure, success: false}}
"""


def _chain_counts(faces, places, names, chains: int, below: int) -> list[Fraction]:
    """P(the chains show exactly j of ``names``), j < ``below``, from the tails of at_least."""
    return [at_least(faces, places, names, chains, j) - at_least(faces, places, names, chains, j + 1)
            for j in range(below)]


@pytest.mark.parametrize("ring, skill, tn", [(1, 1, 2), (2, 1, 2), (2, 1, 4), (2, 2, 3)])
def test_ring_and_skill_dice_keep_up_to_the_ring_and_the_kept_explosives_roll_again(ring, skill, tn):
    """Every throw of the ring and skill dice listed; the kept dice the most successes (then
    the most explosives of each kind); each kept explosive's chain of its own kind solved face
    by face (tests/run/test_symbols_of_cut_rolls.py), the two kinds' counts added up."""
    succ = ("success", "explosive")
    total = Fraction(0)
    throws = list(itertools.product(range(1, 7), repeat=ring))
    skills = list(itertools.product(range(1, 13), repeat=skill))
    for r in throws:
        for sk in skills:
            dice_ = [("ring", f) for f in r] + [("skill", f) for f in sk]

            def score(way):
                kept = sum(s in succ for kind, f in way for s in (RING if kind == "ring" else SKILL)[f - 1])
                return kept, sum(kind == "ring" and f == 6 for kind, f in way), \
                    sum(kind == "skill" and f >= 11 for kind, f in way)

            kept, rb, sb = max(score(way) for way in itertools.combinations(dice_, min(ring, len(dice_))))
            need = tn - kept
            if need <= 0:
                total += 1
                continue
            ring_counts = _chain_counts(RING, {6}, succ, rb, need)
            skill_counts = _chain_counts(SKILL, {11, 12}, succ, sb, need)
            short = sum((ring_counts[i] * skill_counts[j] for i in range(need) for j in range(need - i)), Fraction(0))
            total += 1 - short
    expected = total / (len(throws) * len(skills))
    odds = loads(KEEP_AND_EXPLODE).check("check").odds({"ring": ring, "skill": skill, "tn": tn})
    assert odds.outcomes["success"] == expected and odds.truncated == 0
