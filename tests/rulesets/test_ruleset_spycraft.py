"""Tests for rulesets/spycraft-2e.yaml: Spycraft 2.0 skill checks (SC-1..SC-12).

Source: the Spycraft 2.0 skill check rules, seed 001 (``seeds/001_681f116ee56e4725.txt``),
with the rule ids of MECHANICS.md ("spycraft-2e"). The seed's worked examples (Kevin's
Analysis check and his action dice, the race to the closing door, slipping past the
minion) are replayed with faces; the exact odds are checked against a brute force written
here in plain Python (every natural d20, every face of every action die), independently of
the engine.

SC-10 (cooperative checks), SC-11 (team checks) and SC-12 (directed checks, Kevin tutoring
his teammates) are tested at the end: replays with faces, and exact odds against a plain
Python restatement that enumerates the leader's and every helper's d20.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import pytest

from rulesengine.errors import InputError
from rulesengine.ruleset import analyse, load
from rulesengine.rules.document import load_file

PATH = Path(__file__).resolve().parents[2] / "rulesets" / "spycraft-2e.yaml"


@pytest.fixture(scope="module")
def ruleset():
    return load(PATH)


@pytest.fixture(scope="module")
def check(ruleset):
    return ruleset.check("skill_check")


# ---- an independent restatement of the rules ----------------------------------------------------


def cap_for(ranks: int) -> int:
    """Seed 001, Table: Result Caps (SC-2)."""
    if ranks == 0:
        return 15
    if ranks <= 3:
        return 20
    if ranks <= 6:
        return 30
    if ranks <= 9:
        return 40
    if ranks <= 12:
        return 50
    return 60


def one_check(natural, dice_total, *, bonus, ranks, dc, threat_range=20, rolled=True,
              cap_modifier=0, reading="lifted_first"):
    """One standard check, given the natural d20 and the action dice total: (result, success,
    tags). ``rolled`` is False when the natural roll was taken (take 10 / take 20)."""
    cap = cap_for(ranks) + cap_modifier
    raw = natural + bonus
    # SC-6: dice on a result that starts above the cap go on top of the cap; otherwise the
    # cap is still a hard limit for the boosted result.
    with_cap = cap + dice_total if raw > cap else min(raw + dice_total, cap)
    without_cap = raw + dice_total
    threat_roll = rolled and natural >= threat_range
    # SC-4: a threat needs a success; the two readings judge it on different results.
    judged = without_cap if reading == "lifted_first" else with_cap
    threat = threat_roll and judged >= dc
    result = without_cap if threat else with_cap
    success = result >= dc
    tags = set()
    if threat:
        tags.add("threat")
    error_range = 3 if ranks == 0 else 1  # SC-5: widened by 2 when untrained
    if rolled and natural <= error_range:
        tags.add("error")
    if result >= 75:
        tags.add("triumph")
    return result, success, tags


def brute_odds(*, bonus, ranks, dc, threat_range=20, action_dice=0, action_die=4, take="roll",
               kind="active", cap_modifier=0, reading="lifted_first", take_allowed=None):
    """Outcome, tag and result probabilities by enumerating every natural and every action die."""
    if cap_for(ranks) + cap_modifier < 5:
        return {"not_allowed": Fraction(1)}, {}, {}
    may_take = take_allowed if take_allowed is not None else kind != "passive"
    if take != "roll" and not may_take:
        return {"not_allowed": Fraction(1)}, {}, {}
    naturals = {"roll": range(1, 21), "take_10": [10], "take_20": [20]}[take]
    spent = 0 if kind == "passive" or take == "take_10" else action_dice
    outcomes, tags, results = defaultdict(int), defaultdict(int), defaultdict(int)
    total = 0
    for natural in naturals:
        for dice in itertools.product(range(1, action_die + 1), repeat=spent):
            result, success, t = one_check(natural, sum(dice), bonus=bonus, ranks=ranks, dc=dc,
                                           threat_range=threat_range, rolled=take == "roll",
                                           cap_modifier=cap_modifier, reading=reading)
            outcomes["success" if success else "failure"] += 1
            for name in t:
                tags[name] += 1
            results[result] += 1
            total += 1
    frac = lambda d: {k: Fraction(v, total) for k, v in d.items()}  # noqa: E731
    return frac(outcomes), frac(tags), frac(results)


def nonzero(d):
    return {k: v for k, v in d.items() if v}


def assert_matches_brute(check, **inputs):
    engine_inputs = {k: v for k, v in inputs.items() if k != "reading"}
    if "reading" in inputs:
        engine_inputs["threat_reading"] = inputs["reading"]
    odds = check.odds(engine_inputs)
    outcomes, tags, results = brute_odds(**inputs)
    assert nonzero(odds.outcomes) == outcomes, inputs
    assert nonzero(odds.tags) == tags, inputs
    assert odds.success == outcomes.get("success", 0), inputs
    if "not_allowed" not in outcomes:
        assert odds.result_distribution == results, inputs


# ---- the file ------------------------------------------------------------------------------------


def test_file_validates_without_diagnostics():
    model, diags = analyse(load_file(PATH))
    assert diags == []
    assert model is not None and model.id == "spycraft-2e"


def test_file_header_names_and_rule_coverage(ruleset):
    assert PATH.read_text(encoding="utf-8").startswith(
        "# yaml-language-server: $schema=../schemas/ruleset.schema.json\n")
    assert load("spycraft-2e").id == "spycraft-2e"
    assert ruleset.checks() == ["skill_check", "opposed_check", "cooperative_check", "directed_check"]
    assert ruleset.procedures() == ["opposed", "opposed_tie_stands", "cooperative", "team", "directed"]
    skill = ruleset.model.checks["skill_check"]
    names = [i.name for i in skill.inputs]
    assert names[:5] == ["bonus", "ranks", "dc", "threat_range", "action_dice"]
    assert {"action_die", "take", "kind", "threat_reading"} <= set(names)
    defaults = {i.name: i.default for i in skill.inputs if i.has_default}
    assert defaults["threat_range"] == 20 and defaults["action_dice"] == 0
    assert defaults["threat_reading"] == "lifted_first"
    assert [o.name for o in skill.outcomes] == ["success", "failure"]
    assert "not_allowed" in skill.outcome_names
    assert [t.name for t in skill.tags] == ["threat", "error", "triumph"]
    covered = set()
    for c in ruleset.model.checks.values():
        covered |= set(c.rules)
    for p in ruleset.model.procedures.values():
        covered |= set(p.rules)
    assert covered == {f"SC-{i}" for i in range(1, 13)}
    procs = ruleset.model.procedures
    assert procs["cooperative"].rules == ("SC-10",) and procs["cooperative"].kind == "assisted"
    assert procs["team"].rules == ("SC-11",) and procs["team"].kind == "team"
    assert procs["directed"].rules == ("SC-12",) and procs["directed"].kind == "team"
    assert "seed 001" in ruleset.model.source.section


# ---- SC-1 / SC-2 / SC-6: Kevin ----------------------------------------------------------------------


def test_sc2_kevin_41_is_capped_to_40(check):
    """Seed 001, Result Caps, Example 1: Kevin has 8 ranks in Analysis, rolls a 19 and has +14
    in other modifiers: 41, but his cap at 8 ranks is 40, so the result is 40."""
    r = check.roll({"bonus": 8 + 14, "ranks": 8, "dc": 40}, faces=[19])
    assert r.values["total"] == 41
    assert r.values["cap"] == 40
    assert r.result == 40
    assert r.outcome == "success" and r.success
    assert r.tags == ()
    assert r.rolls["natural"] == 19  # a number: the rules read its total, not its dice


def test_sc6_kevin_action_dice_add_to_the_cap_not_to_41(check):
    """Seed 001, Result Caps, Example 2: Kevin then spends action dice; their total goes on top
    of 40, not of 41 (here 2d6 showing 3 and 5: 48)."""
    r = check.roll({"bonus": 22, "ranks": 8, "dc": 45, "action_dice": 2, "action_die": 6}, faces=[19, 3, 5])
    assert r.result == 40 + 8
    assert r.outcome == "success"
    assert r.values["dice_spent"] == 2


def test_sc6_boost_below_the_cap_still_stops_at_the_cap(check):
    """Seed 001: the cap is a hard limit except for a result that *begins* above it; a result of
    35 (cap 40) boosted by 12 stops at 40, and so does one that begins exactly at the cap."""
    r = check.roll({"bonus": 20, "ranks": 8, "dc": 10, "action_dice": 2, "action_die": 6}, faces=[15, 6, 6])
    assert r.values["total"] == 35 and r.result == 40
    r = check.roll({"bonus": 21, "ranks": 8, "dc": 10, "action_dice": 2, "action_die": 6}, faces=[19, 6, 6])
    assert r.values["total"] == 40 and r.result == 40
    r = check.roll({"bonus": 22, "ranks": 8, "dc": 10, "action_dice": 2, "action_die": 6}, faces=[19, 6, 6])
    assert r.values["total"] == 41 and r.result == 52  # one above the cap: 40 + 12


def test_sc6_triumph_at_75(check):
    """Seed 001: a total result of 75 or more is a Triumph. 13 ranks (cap 60), a 65 cut to 60,
    plus 3d6 action dice: 15 makes 75 (Triumph), 14 makes 74 (none)."""
    base = {"bonus": 50, "ranks": 13, "dc": 40, "action_dice": 3, "action_die": 6}
    r = check.roll(base, faces=[15, 6, 5, 4])
    assert r.result == 75 and "triumph" in r.tags
    r = check.roll(base, faces=[15, 6, 5, 3])
    assert r.result == 74 and "triumph" not in r.tags


def test_sc6_triumph_at_any_rank(check):
    """Seed 001: a Triumph needs no particular rank: an untrained character (cap 15) whose
    threat lifts the cap reaches 80."""
    r = check.roll({"bonus": 60, "ranks": 0, "dc": 10}, faces=[20])
    assert r.result == 80
    assert set(r.tags) == {"threat", "triumph"}


def test_sc1_meet_or_beat_the_dc(check):
    """Seed 001, The Standard Skill Check: the result must equal or exceed the DC."""
    assert check.roll({"bonus": 5, "ranks": 2, "dc": 15}, faces=[10]).outcome == "success"
    assert check.roll({"bonus": 5, "ranks": 2, "dc": 16}, faces=[10]).outcome == "failure"


# ---- SC-3 ------------------------------------------------------------------------------------------


def test_sc3_no_rank_has_a_cap_below_5(ruleset):
    """Seed 001, Table: Result Caps: the lowest cap is 15 (0 ranks), so only a change to the cap
    from another rule (the cap_modifier input) can bring it below 5."""
    fn = ruleset.functions["result_cap"][0]
    assert [fn(r) for r in range(0, 16)] == [15, 20, 20, 20, 30, 30, 30, 40, 40, 40, 50, 50, 50, 60, 60, 60]
    assert min(fn(r) for r in range(0, 51)) == 15


def test_sc3_cap_below_5_is_not_allowed(check):
    """Seed 001: a check whose cap drops below 5 cannot be used until it is 5 or more again.
    Deliberate input: 0 ranks (cap 15) with a cap modifier of −11 (cap 4); −10 (cap 5) is fine."""
    r = check.roll({"bonus": 10, "ranks": 0, "dc": 5, "cap_modifier": -11}, faces=[])
    assert r.outcome == "not_allowed" and not r.success and r.skipped
    assert "below 5" in r.reason
    odds = check.odds({"bonus": 10, "ranks": 0, "dc": 5, "cap_modifier": -11})
    assert odds.outcomes["not_allowed"] == 1
    r = check.roll({"bonus": 10, "ranks": 0, "dc": 5, "cap_modifier": -10}, faces=[1])
    assert r.outcome == "success" and r.result == 5


# ---- SC-4 / SC-5: threats and errors ------------------------------------------------------------------


def test_sc4_threat_range_tag_and_cap_lift(check):
    """SC-4 (MECHANICS.md; the seed: "the result cap is lifted with a threat"): threat_range is
    the lowest natural that threatens. With 19–20, Kevin's 19 is a threat and his 41 stands."""
    r = check.roll({"bonus": 22, "ranks": 8, "dc": 30, "threat_range": 19}, faces=[19])
    assert r.tags == ("threat",) and r.result == 41
    r = check.roll({"bonus": 22, "ranks": 8, "dc": 30, "threat_range": 20}, faces=[19])
    assert r.tags == () and r.result == 40
    odds = check.odds({"bonus": 22, "ranks": 8, "dc": 30, "threat_range": 17})
    assert odds.tags["threat"] == Fraction(4, 20)


def test_sc4_natural_20_is_not_an_automatic_success(check):
    """SC-4: a natural 20 on a failed check is neither a success nor a threat."""
    r = check.roll({"bonus": 3, "ranks": 3, "dc": 30}, faces=[20])
    assert r.outcome == "failure" and r.result == 20 and r.tags == ()


def test_sc4_the_two_readings_of_the_cap_lift(check):
    """SC-4 is circular about when the threat lifts the cap. Untrained (cap 15), +5, natural 20:
    25 against DC 20. Lifted first (default): success and threat, 25. Judged first: the capped
    15 fails, so there is no threat and the result stays 15. Against DC 15 both readings agree."""
    base = {"bonus": 5, "ranks": 0, "dc": 20}
    r = check.roll(base, faces=[20])
    assert (r.outcome, r.result, r.tags) == ("success", 25, ("threat",))
    r = check.roll({**base, "threat_reading": "judged_first"}, faces=[20])
    assert (r.outcome, r.result, r.tags) == ("failure", 15, ())
    for reading in ("lifted_first", "judged_first"):
        r = check.roll({**base, "dc": 15, "threat_reading": reading}, faces=[20])
        assert (r.outcome, r.result, r.tags) == ("success", 25, ("threat",))


def test_sc5_error_range_trained_and_untrained(check):
    """SC-5: the error range is a natural 1, widened by 2 to 1–3 with no ranks; an error does
    not depend on success (a 1 with +30 against DC 10 succeeds and is still an error)."""
    trained = {"bonus": 30, "ranks": 1, "dc": 10}
    assert check.roll(trained, faces=[1]).tags == ("error",)
    assert check.roll(trained, faces=[1]).outcome == "success"
    assert check.roll(trained, faces=[2]).tags == ()
    untrained = {"bonus": 2, "ranks": 0, "dc": 10}
    assert [check.roll(untrained, faces=[n]).tags for n in (1, 2, 3, 4)] == [("error",)] * 3 + [()]
    assert check.odds(trained).tags["error"] == Fraction(1, 20)
    assert check.odds(untrained).tags["error"] == Fraction(3, 20)


# ---- SC-7: who rolls, who sees ---------------------------------------------------------------------------


def test_sc7_secret_and_passive_checks_are_hidden(check):
    """Seed 001, Active vs. Secret vs. Passive: the GC rolls secret and passive checks, hidden
    from the player (unless the GC lets players roll them); a passive check takes no action dice."""
    base = {"bonus": 5, "ranks": 2, "dc": 10}
    assert check.roll(base, faces=[7]).secret is False
    assert check.roll({**base, "kind": "secret"}, faces=[7]).secret is True
    assert check.roll({**base, "kind": "passive"}, faces=[7]).secret is True
    assert check.roll({**base, "kind": "passive", "players_roll": True}, faces=[7]).secret is False
    r = check.roll({**base, "kind": "passive", "action_dice": 2}, faces=[7])  # no dice rolled
    assert r.values["dice_spent"] == 0 and r.result == 12 and r.values["kind"] == "passive"
    r = check.roll({**base, "kind": "secret", "action_dice": 1}, faces=[7, 3])
    assert r.result == 15  # a secret check may be boosted, at the player's risk


# ---- SC-8: take 10 / take 20 ---------------------------------------------------------------------------------


def test_sc8_take_10_and_take_20(check):
    """SC-8: the result is 10 or 20 + bonus, capped; taking never threatens; action dice never
    boost a take-10 (no die is rolled). Kevin (+22, cap 40): 32 and 42 → 40."""
    kevin = {"bonus": 22, "ranks": 8, "dc": 30, "threat_range": 19}
    r = check.roll({**kevin, "take": "take_10", "action_dice": 3}, faces=[])
    assert (r.result, r.outcome, r.tags, r.values["dice_spent"]) == (32, "success", (), 0)
    assert r.rolls["natural"] == 10
    r = check.roll({**kevin, "take": "take_20"}, faces=[])
    assert (r.result, r.tags) == (40, ())  # capped; a taken 20 is no threat
    r = check.roll({**kevin, "take": "take_20", "action_dice": 1, "action_die": 6}, faces=[4])
    assert r.result == 44  # 42 begins above the cap: the die goes on top of 40
    odds = check.odds({**kevin, "take": "take_10"})
    assert odds.result_distribution == {32: 1} and odds.tags["threat"] == 0


def test_sc7_sc8_passive_checks_may_not_take_unless_allowed(check):
    """Seed 001: unless the GC or a rule says otherwise, a passive check may not take 10 or 20."""
    base = {"bonus": 4, "ranks": 2, "dc": 10, "kind": "passive", "take": "take_10"}
    r = check.roll(base, faces=[])
    assert r.outcome == "not_allowed" and "take 10" in r.reason
    r = check.roll({**base, "take_allowed": True}, faces=[])
    assert r.outcome == "success" and r.result == 14
    r = check.roll({**base, "kind": "active", "take_allowed": False}, faces=[])
    assert r.outcome == "not_allowed"


# ---- exact odds against the brute force ------------------------------------------------------------------------


def test_odds_match_brute_force_across_ranks_bonus_and_dc(check):
    """SC-1, SC-2, SC-4, SC-5: every rank 0..15, bonuses from below the ranks to far above the
    cap, DCs 5..60: the chance of success, each tag and the whole result distribution."""
    for ranks in range(0, 16):
        for other in (-3, 0, 4, 9, 14, 25, 40):
            for dc in (5, 10, 15, 20, 22, 25, 30, 35, 40, 45, 50, 55, 60):
                assert_matches_brute(check, bonus=ranks + other, ranks=ranks, dc=dc)


@pytest.mark.parametrize("reading", ["lifted_first", "judged_first"])
@pytest.mark.parametrize("ranks", [0, 3, 8, 13])
def test_odds_match_brute_force_with_action_dice_and_threat_ranges(check, ranks, reading):
    """SC-4, SC-6: action dice (d4, d6), threat ranges 20, 19–20 and 16–20, both cap-lift readings."""
    for action_dice, action_die in ((0, 4), (1, 6), (2, 4), (3, 6)):
        for threat_range in (20, 19, 16):
            for other in (0, 10, 30, 50):
                for dc in (15, 25, 40, 60, 75):
                    assert_matches_brute(check, bonus=ranks + other, ranks=ranks, dc=dc,
                                         threat_range=threat_range, action_dice=action_dice,
                                         action_die=action_die, reading=reading)


def test_odds_match_brute_force_for_taking_kinds_and_caps(check):
    """SC-3, SC-7, SC-8: take 10/20, passive checks, cap modifiers (down to a forbidden cap)."""
    for take in ("roll", "take_10", "take_20"):
        for kind in ("active", "secret", "passive"):
            for cap_modifier in (-11, -5, 0, 7):
                for take_allowed in (None, True, False):
                    inputs = dict(bonus=12, ranks=5, dc=25, action_dice=1, action_die=6, take=take, kind=kind,
                                  cap_modifier=cap_modifier, threat_range=19)
                    if take_allowed is not None:
                        inputs["take_allowed"] = take_allowed
                    if cap_modifier == -11:
                        inputs["ranks"] = 0
                    assert_matches_brute(check, **inputs)


def test_odds_kevin(check):
    """Kevin (+22, cap 40) against DC 40: he needs 18+ (18 → 40, 19 → 41 → 40, 20 → 42 → 40)."""
    odds = check.odds({"bonus": 22, "ranks": 8, "dc": 40})
    assert odds.success == Fraction(3, 20)
    assert odds.result_distribution[40] == Fraction(2, 20)
    assert odds.result_distribution[42] == Fraction(1, 20)  # the threat lifts the cap


# ---- SC-9: opposed checks ---------------------------------------------------------------------------------------


def side_dist(bonus, ranks, action_dice=0, action_die=4, threat_range=20, reading="lifted_first"):
    """One side of an opposed check (no DC): result → probability, by brute force."""
    cap = cap_for(ranks)
    out, total = defaultdict(int), 0
    for natural in range(1, 21):
        for dice in itertools.product(range(1, action_die + 1), repeat=action_dice):
            raw = natural + bonus
            s = sum(dice)
            capped = cap + s if raw > cap else min(raw + s, cap)
            lifted = natural >= threat_range and reading == "lifted_first"
            out[raw + s if lifted else capped] += 1
            total += 1
    return {k: Fraction(v, total) for k, v in out.items()}


def brute_contest(sides, breakers=True):
    """P(each side wins), P(tie): highest result; then (if breakers) the higher bonus; then a
    fair roll-off among those still tied, each equally likely to win."""
    dists = [side_dist(**s) for s in sides]
    wins = [Fraction(0)] * len(sides)
    tie = Fraction(0)
    for combo in itertools.product(*[list(d.items()) for d in dists]):
        p = Fraction(1)
        for _, q in combo:
            p *= q
        results = [r for r, _ in combo]
        top = max(results)
        tied = [i for i, r in enumerate(results) if r == top]
        if len(tied) > 1 and breakers:
            best = max(sides[i]["bonus"] for i in tied)
            tied = [i for i in tied if sides[i]["bonus"] == best]
        if len(tied) == 1:
            wins[tied[0]] += p
        elif breakers:
            for i in tied:
                wins[i] += p / len(tied)
        else:
            tie += p
    return wins, tie


@pytest.mark.parametrize("sides", [
    [dict(bonus=10, ranks=5), dict(bonus=12, ranks=6)],
    [dict(bonus=10, ranks=5), dict(bonus=10, ranks=4)],             # equal bonuses: roll-off
    [dict(bonus=25, ranks=0), dict(bonus=20, ranks=1)],             # both capped, often equal
    [dict(bonus=30, ranks=8, action_dice=1, action_die=6, threat_range=18), dict(bonus=28, ranks=9)],
    [dict(bonus=30, ranks=8, reading="judged_first", threat_range=19), dict(bonus=31, ranks=9)],
    [dict(bonus=9, ranks=3), dict(bonus=9, ranks=3), dict(bonus=8, ranks=2)],  # a three-way roll-off
])
def test_sc9_opposed_odds_match_brute_force(ruleset, sides):
    """Seed 001, Opposed Skill Checks: the highest result wins; equal results go to the higher
    skill bonus, then to a 1d20 roll-off (rolled again while tied)."""
    parties = []
    for s in sides:
        p = {k: v for k, v in s.items() if k != "reading"}
        if "reading" in s:
            p["threat_reading"] = s["reading"]
        parties.append(p)
    odds = ruleset.procedure("opposed").odds(parties=parties)
    wins, tie = brute_contest(sides)
    assert list(odds.wins) == wins
    assert odds.tie == tie == 0
    stands = ruleset.procedure("opposed_tie_stands").odds(parties=parties)
    wins, tie = brute_contest(sides, breakers=False)
    assert list(stands.wins) == wins and stands.tie == tie


def test_sc9_slipping_past_the_minion(ruleset):
    """Seed 001, Opposed Skill Checks, Example 2: Kevin's Sneak against the minion's Search.
    Equal results need a clear answer: the higher skill bonus wins; equal bonuses, a roll-off."""
    opposed = ruleset.procedure("opposed")
    kevin, minion = {"bonus": 12, "ranks": 6}, {"bonus": 10, "ranks": 5}
    r = opposed.roll(parties=[kevin, minion], faces=[9, 12])  # 21 against 22: spotted
    assert r.winner == 1 and r.ranking == (1, 0)
    r = opposed.roll(parties=[kevin, minion], faces=[10, 12])  # 22 each: Kevin's +12 wins
    assert r.winner == 0 and r.winner_result == 22
    r = opposed.roll(parties=[kevin, {"bonus": 12, "ranks": 4}], faces=[10, 10, 7, 15])
    assert r.winner == 1  # 22 each, +12 each: the roll-off 7 against 15
    assert not r.tie


def test_sc9_no_take_10_or_20_in_an_opposed_check(ruleset):
    """Seed 001: a character may not take 10 or 20 in an opposed check."""
    with pytest.raises(InputError, match="take"):
        ruleset.procedure("opposed").roll(parties=[{"bonus": 5, "ranks": 2, "take": "take_10"},
                                                    {"bonus": 5, "ranks": 2}], faces=[10, 10])


def test_sc9_the_race_to_the_closing_door(ruleset):
    """Seed 001, Opposed Skill Checks, Example 1: Kevin and five others race for a door; they
    arrive in order of result, equal results together."""
    race = ruleset.procedure("opposed_tie_stands")
    runners = [{"bonus": 12, "ranks": 6}, {"bonus": 9, "ranks": 4}, {"bonus": 7, "ranks": 3},
               {"bonus": 10, "ranks": 5}, {"bonus": 5, "ranks": 2}, {"bonus": 8, "ranks": 4}]
    r = race.roll(parties=runners, faces=[16, 15, 6, 9, 19, 2])
    assert [p.result for p in r.parties] == [28, 24, 13, 19, 20, 10]  # 5 + 19 = 24, capped to 20
    assert r.winner == 0 and r.winner_result == 28
    assert r.ranking == (0, 1, 4, 3, 2, 5)
    r = race.roll(parties=runners, faces=[11, 15, 6, 14, 19, 2])
    assert [p.result for p in r.parties] == [23, 24, 13, 24, 20, 10]
    assert r.tie and r.winner is None  # the second and fourth runners arrive together, first
    assert set(r.ranking[:2]) == {1, 3} and r.ranking[2:] == (0, 4, 2, 5)


def test_sc9_three_runner_race_odds(ruleset):
    """The race with three runners: exact chances of each arriving first alone, or a tie."""
    sides = [dict(bonus=12, ranks=6), dict(bonus=9, ranks=4), dict(bonus=10, ranks=5)]
    odds = ruleset.procedure("opposed_tie_stands").odds(parties=sides)
    wins, tie = brute_contest(sides, breakers=False)
    assert list(odds.wins) == wins and odds.tie == tie
    assert sum(odds.wins) + odds.tie == 1


# ---- SC-10 / SC-11 / SC-12: cooperative, team and directed checks -----------------------------------------
#
# Critical results, as this ruleset defines them (cooperative_check, directed_check): a critical
# success is a threat (a natural in the threat range on a successful check, or with no DC) that the
# player activates with an action die (activate_threat, default true); a critical failure is an
# error (a natural 1, or 1-3 untrained) that the GC activates with action dice (gc_error_dice > 0,
# default 0), whatever the result. The restatement below is written from the seed, not the YAML.


def critical_check(natural, dice_total=0, *, bonus, ranks, dc=None, threat_range=20, activate_threat=True,
                   gc_error_dice=0, cap_modifier=0, reading="lifted_first"):
    """One check with critical results: (outcome, result). ``dc`` None: the task has no set DC."""
    cap = cap_for(ranks) + cap_modifier
    raw = natural + bonus
    with_cap = cap + dice_total if raw > cap else min(raw + dice_total, cap)
    without_cap = raw + dice_total
    judged = without_cap if reading == "lifted_first" else with_cap
    threat = natural >= threat_range and (dc is None or judged >= dc)
    result = without_cap if threat else with_cap
    error = natural <= (3 if ranks == 0 else 1)
    if error and gc_error_dice > 0:
        return "critical_failure", result
    if threat and activate_threat:
        return "critical_success", result
    if dc is None:
        return "no_dc", result
    return ("success" if result >= dc else "failure"), result


CHECK_KEYS = ("bonus", "ranks", "dc", "threat_range", "activate_threat", "gc_error_dice", "cap_modifier")


def _kw(party, **extra):
    """A party's engine inputs as critical_check's keywords."""
    kw = {k: v for k, v in party.items() if k in CHECK_KEYS}
    if "threat_reading" in party:
        kw["reading"] = party["threat_reading"]
    kw.update(extra)
    return kw


def brute_cooperative(leader, helpers, set_dc=True):
    """Seed 001, Cooperative Skill Checks, enumerated: every leader d20 (and action die), every
    helper d20. Helpers' DC: 15 with a set DC, else the leader's result - 10 (at least 15). The
    leader gets +1 per successful helper (at most +5) and +1 per helper critical success; one
    helper critical failure ruins the task. Returns (outcomes, results, bonuses)."""
    outcomes, results, bonuses = defaultdict(int), defaultdict(int), defaultdict(int)
    leader_dice = list(itertools.product(range(1, leader.get("action_die", 4) + 1),
                                         repeat=leader.get("action_dice", 0)))
    total = 20 * len(leader_dice) * 20 ** len(helpers)
    for natural in range(1, 21):
        for dice in leader_dice:
            _, before = critical_check(natural, sum(dice), **_kw(leader))
            helper_dc = 15 if set_dc else max(15, before - 10)
            # each helper's outcome for each natural d20, against this DC
            table = [{n: critical_check(n, **_kw(h, dc=helper_dc))[0] for n in range(1, 21)} for h in helpers]
            for naturals in itertools.product(range(1, 21), repeat=len(helpers)):
                outs = [t[n] for t, n in zip(table, naturals)]
                if "critical_failure" in outs:
                    outcomes["ruined"] += 1
                    continue
                successes = sum(o in ("success", "critical_success") for o in outs)
                criticals = outs.count("critical_success")
                bonus = min(5, successes) + criticals
                bonuses[bonus] += 1
                name, result = critical_check(natural, sum(dice), **_kw(leader, bonus=leader["bonus"] + bonus))
                outcomes[name] += 1
                results[result] += 1
    frac = lambda d: {k: Fraction(v, total) for k, v in d.items()}  # noqa: E731
    return frac(outcomes), frac(results), frac(bonuses)


@pytest.fixture(scope="module")
def cooperative(ruleset):
    return ruleset.procedure("cooperative")


@pytest.mark.parametrize("set_dc, leader, helpers", [
    # A set DC (every helper against 15); the leader spends a d4 action die (rolled once, reused
    # with the help); an untrained helper whose errors (1-3) the GC activates.
    (True, dict(bonus=12, ranks=6, dc=25, threat_range=19, action_dice=1, action_die=4),
     [dict(bonus=4, ranks=2), dict(bonus=1, ranks=0, gc_error_dice=1)]),
    # No set DC: helpers against the leader's result - 10 (at least 15); a wide threat range,
    # an error the GC activates, a helper who does not activate his threats.
    (False, dict(bonus=20, ranks=8, threat_range=19),
     [dict(bonus=8, ranks=4, threat_range=18), dict(bonus=6, ranks=3, gc_error_dice=2),
      dict(bonus=10, ranks=5, activate_threat=False)]),
    # A set DC the leader can reach only with help; a helper whose threat is judged first.
    (True, dict(bonus=19, ranks=9, dc=38),
     [dict(bonus=14, ranks=1, threat_range=19, threat_reading="judged_first"), dict(bonus=3, ranks=1)]),
])
def test_sc10_cooperative_odds_match_brute_force(cooperative, set_dc, leader, helpers):
    """SC-10 (seed 001, Cooperative Skill Checks): exact odds of every outcome, the leader's final
    result and the helpers' bonus, against the enumeration above."""
    odds = cooperative.odds({"set_dc": set_dc}, parties=[leader, *helpers])
    outcomes, results, bonuses = brute_cooperative(leader, helpers, set_dc)
    assert nonzero(odds.outcomes) == outcomes
    assert odds.result_distribution == results
    assert odds.bonus_distribution == bonuses
    assert odds.success == sum(p for n, p in outcomes.items() if n in ("success", "critical_success", "no_dc"))
    assert sum(odds.outcomes.values()) == 1


def test_sc10_a_helper_critical_failure_ruins_the_task(cooperative):
    """Seed 001, Cooperative Skill Checks: if even one helper's check is a critical failure the
    whole task is ruined. The leader (+10, 6 ranks) rolls 14 against DC 25: 24 alone. The first
    helper (+4) rolls 15: 19 against DC 15, a success. The second is untrained (+1, errors on
    1-3) and rolls 2: an error; the GC spends an action die on it, so the task is ruined. Left
    alone by the GC, the error is only a tag: the leader gets +1 and makes 25."""
    leader, helper = {"bonus": 10, "ranks": 6, "dc": 25}, {"bonus": 4, "ranks": 2}
    r = cooperative.roll(parties=[leader, helper, {"bonus": 1, "ranks": 0, "gc_error_dice": 1}], faces=[14, 15, 2])
    assert (r.outcome, r.success, r.result, r.ruined) == ("ruined", False, None, True)
    assert [h.outcome for h in r.helpers] == ["success", "critical_failure"]
    assert [h.inputs["dc"] for h in r.helpers] == [15, 15]
    assert "ruins the task" in r.trace
    r = cooperative.roll(parties=[leader, helper, {"bonus": 1, "ranks": 0}], faces=[14, 15, 2])
    assert [h.outcome for h in r.helpers] == ["success", "failure"] and r.helpers[1].tags == ("error",)
    assert (r.bonus, r.outcome, r.result) == (1, "success", 25)
    assert r.leader.dice[0].face == 14  # the leader's same die, worked out again with the help
    # An activated error is a critical failure even when the helper's result makes the DC.
    r = cooperative.roll(parties=[leader, helper, {"bonus": 20, "ranks": 5, "gc_error_dice": 1}], faces=[14, 15, 1])
    assert r.helpers[1].result == 21 and r.helpers[1].outcome == "critical_failure" and r.outcome == "ruined"


SEVEN_HELPERS = [{"bonus": 5, "ranks": 2} for _ in range(7)]


def test_sc10_successful_helpers_give_at_most_plus_5(cooperative):
    """Seed 001: +1 per successful helper, to a maximum of +5 however many help. Seven helpers
    (+5) roll 10 to 16: all reach 15 and succeed, no threat. The leader (+10, 9 ranks) rolls 15:
    25 + 5 = 30 against DC 30."""
    r = cooperative.roll(parties=[{"bonus": 10, "ranks": 9, "dc": 30}, *SEVEN_HELPERS],
                         faces=[15, 10, 11, 12, 13, 14, 15, 16])
    assert r.totals == {"successes": 7, "criticals": 0}
    assert (r.bonus, r.outcome, r.result) == (5, "success", 30)
    assert r.leader.values["total"] == 30
    r = cooperative.roll(parties=[{"bonus": 10, "ranks": 9, "dc": 30}, *SEVEN_HELPERS],
                         faces=[14, 10, 11, 12, 13, 14, 15, 16])
    assert (r.bonus, r.outcome, r.result) == (5, "failure", 29)


def test_sc10_helper_critical_successes_go_beyond_the_cap(cooperative):
    """Seed 001: each helper's critical success adds +1 more, and this bonus may pass the +5 limit.
    Seven helpers succeed; two roll a natural 20 and activate the threat (critical successes); a
    third rolls 20 but does not activate it (a plain success with a threat). +5 + 2 = +7: the
    leader's 13 + 10 = 23 becomes 30. A natural 20 on a failing helper is no critical success."""
    helpers = [dict(h) for h in SEVEN_HELPERS]
    helpers[2]["activate_threat"] = False
    r = cooperative.roll(parties=[{"bonus": 10, "ranks": 9, "dc": 30}, *helpers],
                         faces=[13, 20, 20, 20, 12, 13, 14, 15])
    assert [h.outcome for h in r.helpers][:3] == ["critical_success", "critical_success", "success"]
    assert r.helpers[2].tags == ("threat",)
    assert r.totals == {"successes": 7, "criticals": 2}
    assert (r.bonus, r.outcome, r.result) == (7, "success", 30)
    helpers[3] = {"bonus": -6, "ranks": 0}  # 20 - 6 = 14 < 15: failure, so no threat and no critical
    r = cooperative.roll(parties=[{"bonus": 10, "ranks": 9, "dc": 30}, *helpers],
                         faces=[13, 20, 20, 20, 20, 13, 14, 15])
    assert r.helpers[3].outcome == "failure" and r.helpers[3].tags == ()
    assert r.totals == {"successes": 6, "criticals": 2} and r.bonus == 7


def test_sc10_without_a_set_dc_helpers_face_the_leaders_result_minus_10(cooperative):
    """Seed 001: with no set DC, each helper's DC is the leader's result - 10, at least 15. The
    leader (+20, 8 ranks) rolls first: 15 → 35, so the helpers need 25: +8 rolling 16 (24) fails,
    +10 rolling 15 (25) succeeds. The leader's 35 becomes 36 on the same die; with no DC the outcome
    is no_dc (the result sets the effect). A leader's 22 gives DC 15, not 12."""
    leader = {"bonus": 20, "ranks": 8}
    helpers = [{"bonus": 8, "ranks": 4}, {"bonus": 10, "ranks": 5}]
    r = cooperative.roll({"set_dc": False}, parties=[leader, *helpers], faces=[15, 16, 15])
    assert [h.inputs["dc"] for h in r.helpers] == [25, 25]
    assert [h.outcome for h in r.helpers] == ["failure", "success"]
    assert (r.bonus, r.outcome, r.result, r.success) == (1, "no_dc", 36, True)
    r = cooperative.roll({"set_dc": False}, parties=[leader, *helpers], faces=[2, 6, 4])
    assert [h.inputs["dc"] for h in r.helpers] == [15, 15]
    assert [h.outcome for h in r.helpers] == ["failure", "failure"] and r.result == 22
    # A set DC: the helpers' DC is 15 whatever the leader rolled.
    r = cooperative.roll(parties=[{**leader, "dc": 40}, *helpers], faces=[15, 7, 5])
    assert [h.inputs["dc"] for h in r.helpers] == [15, 15] and r.bonus == 2 and r.result == 37


def test_sc10_no_take_10_or_20_for_the_leader_or_a_helper(cooperative):
    """Seed 001: in a cooperative check neither the leader nor any helper may take 10 or 20:
    cooperative_check has no `take` input."""
    leader, helper = {"bonus": 10, "ranks": 6, "dc": 25}, {"bonus": 4, "ranks": 2}
    with pytest.raises(InputError, match="party 1: unknown input 'take'"):
        cooperative.roll(parties=[{**leader, "take": "take_10"}, helper], seed=1)
    with pytest.raises(InputError, match="unknown input 'take'"):
        cooperative.roll(parties=[leader, {**helper, "take": "take_20"}], seed=1)


def test_sc10_helper_limit(cooperative):
    """Seed 001: only so many characters may work on each check (the skill's own limit, a table
    the seed does not give). The procedure takes 1 to 7 helpers (the engine's most); the skill's
    limit is the caller's to respect (see the procedure's description)."""
    with pytest.raises(InputError, match="1 to 7 helpers"):
        cooperative.roll(parties=[{"bonus": 10, "ranks": 6, "dc": 25}], seed=1)
    with pytest.raises(InputError, match="1 to 7 helpers"):
        cooperative.roll(parties=[{"bonus": 10, "ranks": 6, "dc": 25}, *SEVEN_HELPERS, {"bonus": 1, "ranks": 1}],
                         seed=1)


# ---- SC-11: team checks -------------------------------------------------------------------------------------------

TEAM = [{"bonus": 5, "ranks": 2, "dc": 15}, {"bonus": 9, "ranks": 5, "dc": 15},
        {"bonus": 9, "ranks": 4, "dc": 15}, {"bonus": 3, "ranks": 1, "dc": 15}]


def test_sc11_highest_bonus_rolls_when_one_success_suffices(ruleset):
    """Seed 001, Team Skill Checks: when one success is enough (a team Notice check), the member
    with the highest skill bonus rolls for the team; between the two +9s the team chooses, by
    listing its choice first."""
    team = ruleset.procedure("team")
    r = team.roll(parties=TEAM, faces=[6])
    assert r.roller == 1 and r.check.result == 15 and r.outcome == "success"
    r = team.roll(parties=[TEAM[0], TEAM[2], TEAM[1], TEAM[3]], faces=[6])
    assert r.roller == 1 and r.check.inputs["ranks"] == 4  # the other +9, now listed first
    assert "member 2 rolls for the team" in r.trace


def test_sc11_lowest_bonus_rolls_when_all_must_succeed(ruleset):
    """Seed 001: when every member must succeed (simultaneous Security checks), the member with
    the lowest bonus rolls: +3 rolling 6 makes 9, a failure for the whole team."""
    team = ruleset.procedure("team")
    r = team.roll({"all_must_succeed": True}, parties=TEAM, faces=[6])
    assert r.roller == 3 and (r.outcome, r.check.result) == ("failure", 9)


@pytest.mark.parametrize("all_must_succeed, roller", [(False, 1), (True, 3)])
def test_sc11_team_odds_are_the_rollers_check_odds(ruleset, check, all_must_succeed, roller):
    """The team's odds are exactly the rolling member's skill_check odds (and the brute force's).
    skill_check's optional take_allowed is left out, and then given: both must work."""
    for members in (TEAM, [{**m, "take_allowed": True} for m in TEAM]):
        odds = ruleset.procedure("team").odds({"all_must_succeed": all_must_succeed}, parties=members)
        assert odds.roller == roller
        alone = check.odds(members[roller])
        assert odds.outcomes == alone.outcomes and odds.result_distribution == alone.result_distribution
        outcomes, _, results = brute_odds(bonus=TEAM[roller]["bonus"], ranks=TEAM[roller]["ranks"], dc=15)
        assert nonzero(odds.outcomes) == outcomes and odds.result_distribution == results
        assert odds.success == outcomes.get("success", 0)


# ---- SC-12: directed checks ------------------------------------------------------------------------------------------

KEVIN_TUTOR = {"bonus": 22, "ranks": 8, "dc": 30}
KEVIN_TEAM = [KEVIN_TUTOR, {"bonus": 2, "ranks": 0, "dc": 30}, {"bonus": 7, "ranks": 3, "dc": 30},
              {"bonus": 13, "ranks": 7, "dc": 30}]


def values(r, name):
    return [m[name] for m in r.member_values]


def test_sc12_kevin_tutors_teammates_with_0_3_and_7_ranks(ruleset):
    """Seed 001, Directed Skill Checks, the example: Kevin (8 ranks in Analysis, +22) tutors his
    three teammates in Authenticate; they have 0, 3 and 7 ranks. The GC rolls in secret: 12 → 34
    against DC 30, a success. Only the first two teammates (8 - 0 and 8 - 3 are 4 or more) gain
    +2 on their next identical check, for 8 minutes (Kevin's ranks); the third (8 - 7 = 1) does not."""
    r = ruleset.procedure("directed").roll(parties=KEVIN_TEAM, faces=[12])
    assert r.roller == 0 and r.check.secret is True
    assert (r.outcome, r.check.result) == ("success", 34)
    assert values(r, "benefits") == [False, True, True, False]
    assert values(r, "synergy") == [0, 2, 2, 0]
    assert values(r, "minutes") == [0, 8, 8, 0]
    assert values(r, "penalty") == [0, 0, 0, 0]
    # The same example as exact odds: the first two benefit exactly when Kevin succeeds (8+).
    odds = ruleset.procedure("directed").odds(parties=KEVIN_TEAM)
    assert odds.success == Fraction(13, 20)
    assert [m["benefits"].get(True, 0) for m in odds.member_values] == [0, Fraction(13, 20), Fraction(13, 20), 0]
    assert odds.member_values[1]["minutes"] == {0: Fraction(7, 20), 8: Fraction(12, 20), 16: Fraction(1, 20)}


def test_sc12_ranks_must_trail_the_tutor_by_4_and_the_watcher_must_watch(ruleset):
    """Seed 001: a watcher benefits only if the tutor's ranks exceed his by 4 or more (4 ranks
    under Kevin's 8: yes; 5: no), and only if he watched throughout without acting."""
    team = [KEVIN_TUTOR, {"bonus": 9, "ranks": 4, "dc": 30}, {"bonus": 10, "ranks": 5, "dc": 30},
            {"bonus": 2, "ranks": 0, "dc": 30, "watched": False}]
    r = ruleset.procedure("directed").roll(parties=team, faces=[12])
    assert values(r, "benefits") == [False, True, False, False]


def test_sc12_failure_critical_success_and_time(ruleset):
    """Seed 001: a failure wastes the time (nobody gains); a critical success (an activated threat)
    lasts twice the tutor's ranks in minutes or to the end of the following scene; otherwise the
    bonus lasts the tutor's ranks in minutes or to the end of the scene, whichever ends first. A
    directed check takes 10 times the usual time."""
    directed = ruleset.procedure("directed")
    r = directed.roll(parties=KEVIN_TEAM, faces=[7])  # 29 < 30
    assert r.outcome == "failure" and values(r, "synergy") == [0, 0, 0, 0] and values(r, "minutes") == [0] * 4
    r = directed.roll(parties=KEVIN_TEAM, faces=[20])  # a threat, activated: 42 (the cap lifted)
    assert (r.outcome, r.check.result) == ("critical_success", 42)
    assert values(r, "minutes") == [0, 16, 16, 0]
    r = directed.roll({"scene_minutes_left": 5, "next_scene_minutes": 6}, parties=KEVIN_TEAM, faces=[20])
    assert values(r, "minutes") == [0, 11, 11, 0]  # to the end of the next scene: 5 + 6 < 16
    r = directed.roll({"scene_minutes_left": 5}, parties=KEVIN_TEAM, faces=[12])
    assert values(r, "minutes") == [0, 5, 5, 0]  # the scene ends before 8 minutes pass
    no_activation = [{**KEVIN_TUTOR, "activate_threat": False}, *KEVIN_TEAM[1:]]
    r = directed.roll(parties=no_activation, faces=[20])
    assert r.outcome == "success" and r.check.tags == ("threat",) and values(r, "minutes") == [0, 8, 8, 0]
    timed = [{**KEVIN_TUTOR, "usual_time": 3}, *KEVIN_TEAM[1:]]
    r = directed.roll(parties=timed, faces=[12])
    assert values(r, "time_needed") == [30] * 4 and r.check.values["usual_time"] == 3


def test_sc12_an_error_lets_the_gc_impose_a_penalty(ruleset):
    """Seed 001: with an error the GC may secretly spend action dice, each a -1 penalty on every
    identical check until the end of the scene (here on every member who watched, Kevin too). A
    critical failure gives no bonus; an error the GC leaves alone is only a tag."""
    directed = ruleset.procedure("directed")
    team = [{**KEVIN_TUTOR, "gc_error_dice": 2}, *KEVIN_TEAM[1:3], {**KEVIN_TEAM[3], "watched": False}]
    r = directed.roll(parties=team, faces=[1])
    assert r.outcome == "critical_failure" and r.check.secret
    assert values(r, "penalty") == [-2, -2, -2, 0] and values(r, "synergy") == [0] * 4
    r = directed.roll(parties=KEVIN_TEAM, faces=[1])  # 23, a failure; the error is not activated
    assert r.outcome == "failure" and r.check.tags == ("error",) and values(r, "penalty") == [0] * 4
    odds = directed.odds(parties=team)
    assert odds.outcomes["critical_failure"] == Fraction(1, 20)
    assert odds.member_values[1]["penalty"] == {0: Fraction(19, 20), -2: Fraction(1, 20)}


def test_sc12_the_players_may_roll_if_the_gc_allows(ruleset):
    """Seed 001 (Players and Dice): the GC may let players roll their own secret checks."""
    r = ruleset.procedure("directed").roll(parties=[{**KEVIN_TUTOR, "players_roll": True}, *KEVIN_TEAM[1:]],
                                           faces=[12])
    assert r.check.secret is False
