"""rulesets/rps.yaml: RPS-Squared stat checks (seed 000, "Stat checks", rps.net 1997).

Each test is named after the rule it checks (RPS-1 .. RPS-10, MECHANICS.md)
and cites the seed's worked example where there is one. Exact odds are compared with an
independent brute force written here in plain Python (two d10s, every face pair), not
with anything the engine computes.
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

PATH = Path(__file__).resolve().parents[2] / "rulesets" / "rps.yaml"

OUTCOMES = ("critical_success", "automatic_success", "success", "failure",
            "automatic_failure", "critical_failure")
SUCCESSES = {"critical_success", "automatic_success", "success"}


@pytest.fixture(scope="module")
def rs():
    return load(PATH)


@pytest.fixture(scope="module")
def skill(rs):
    return rs.check("skill_check")


@pytest.fixture(scope="module")
def attr(rs):
    return rs.check("attribute_check")


def at_base(base: int) -> dict:
    """skill_check inputs giving this Base (skill 0, attribute 0, the rest a modifier)."""
    return {"skill": 0, "attribute": 0, "modifier": base}


# ---- the brute force: the rules restated in plain Python -------------------------------


def stat_check(base: int, d1: int, d2: int) -> tuple[str, int]:
    """(outcome, final SL) of one stat check with these two d10 faces (1..10)."""
    sl = base - d1 - d2
    if d1 == d2 == 1:
        return ("automatic_success", 1) if base <= 2 else ("critical_success", sl + 5)
    if d1 == d2 == 10:
        return ("automatic_failure", 0) if sl >= 1 else ("critical_failure", sl)
    return ("success", sl) if sl >= 1 else ("failure", sl)


def tier(sl: int) -> str | None:
    for low, label in ((16, "miraculous"), (15, "spectacular"), (10, "impressive"), (5, "good"),
                       (1, "acceptable")):
        if sl >= low:
            return label
    return None


def brute(base: int) -> list[tuple[str, int, Fraction]]:
    p = Fraction(1, 100)
    return [(*stat_check(base, a, b), p) for a, b in itertools.product(range(1, 11), repeat=2)]


def sl_distribution(base: int) -> dict[int, Fraction]:
    out: dict[int, Fraction] = defaultdict(Fraction)
    for _, sl, p in brute(base):
        out[sl] += p
    return dict(out)


# ---- the file ------------------------------------------------------------------------------


def test_file_validates_with_no_diagnostics():
    model, diags = analyse(load_file(str(PATH)))
    assert diags == []
    assert model is not None
    assert PATH.read_text().startswith("# yaml-language-server: $schema=../schemas/ruleset.schema.json")


def test_source_cites_the_seed(rs):
    src = rs.model.source
    assert "RPS-Squared" in src.title and "Stat checks" in src.title
    assert src.year == 1997 and "rps.net" in src.url


def test_every_rule_id_is_encoded_somewhere(rs):
    encoded = {r for c in rs.model.checks.values() for r in c.rules}
    encoded |= {r for p in rs.model.procedures.values() for r in p.rules}
    assert {f"RPS-{i}" for i in range(1, 11)} <= encoded
    assert rs.model.procedures["resisted"].rules == ("RPS-8",)
    assert rs.model.procedures["sustained"].rules == ("RPS-9",)


def test_front_end_names(rs, skill):
    assert {"skill_check", "attribute_check"} <= set(rs.checks())
    assert {"resisted", "sustained"} <= set(rs.procedures())
    assert set(skill.odds(at_base(10)).outcomes) == set(OUTCOMES)
    for name in ("skill", "attribute", "modifier", "forgo", "retry"):
        assert skill.model.input(name) is not None
    assert skill.model.input("modifier").default == 0
    assert skill.model.input("forgo").default is False
    assert skill.model.input("retry").default == 0


# ---- RPS-1, RPS-2: Base and Success Level ----------------------------------------------------


def test_rps1_rps2_daniela_tracking(skill):
    # Seed 2.2.2: Tracking 4, Intuition 6, difficulty +2 → Base 12; rolls 1 and 7 → SL 4.
    first = skill.roll({"skill": 4, "attribute": 6, "modifier": 2}, faces=[1, 7])
    assert first.values["base"] == 12
    assert (first.outcome, first.result, first.success) == ("success", 4, True)
    assert first.tier == "acceptable"
    # Same Base, then 4 and 9 → SL -1: the trail is lost.
    second = skill.roll({"skill": 4, "attribute": 6, "modifier": 2}, faces=[4, 9])
    assert (second.outcome, second.result, second.success) == ("failure", -1, False)
    assert not second.tier
    assert second.tags == ()


def test_rps1_attribute_check_doubles_the_attribute(attr, skill):
    r = attr.roll({"attribute": 6, "modifier": 2}, faces=[1, 7])
    assert r.values["base"] == 14 and r.result == 6
    # An attribute check is a skill check whose "skill" is the attribute again.
    for a in range(0, 12):
        assert attr.odds({"attribute": a, "modifier": -3}).result_distribution == \
            skill.odds({"skill": a, "attribute": a, "modifier": -3}).result_distribution


def test_rps2_sl_zero_is_a_bare_miss_not_a_success(skill):
    r = skill.roll(at_base(9), faces=[4, 5])
    assert (r.outcome, r.result, r.success) == ("failure", 0, False)
    assert "bare_miss" in r.tags
    assert skill.roll(at_base(9), faces=[3, 5]).outcome == "success"  # SL 1 succeeds


# ---- RPS-3: the difficulty ladder -------------------------------------------------------------


SEED_LADDER = [20, 18, 15, 12, 10, 8, 6, 4, 2, 0, -2, -4, -6, -8, -10, -15, -18, -20]


def test_rps3_ladder_holds_the_seeds_steps_in_order(rs):
    entries = rs.model.tables["difficulty"].entries
    # The seed's table (2.2.4) has 18 rows from +20 to -20; none are invented.
    assert [v for _, v in entries] == SEED_LADDER
    assert dict(entries)["tricky"] == -2 and dict(entries)["difficult"] == 0


def test_rps3_modifier_label_equals_its_number(rs, skill, attr):
    for label, number in rs.model.tables["difficulty"].entries:
        by_label = skill.roll({"skill": 4, "attribute": 6, "modifier": label}, faces=[3, 8])
        by_number = skill.roll({"skill": 4, "attribute": 6, "modifier": number}, faces=[3, 8])
        assert by_label.values["base"] == by_number.values["base"] == 10 + number
        assert (by_label.outcome, by_label.result) == (by_number.outcome, by_number.result)
        assert attr.roll({"attribute": 5, "modifier": label}, faces=[3, 8]).result == \
            attr.roll({"attribute": 5, "modifier": number}, faces=[3, 8]).result
    assert skill.odds({"skill": 4, "attribute": 6, "modifier": "tricky"}).outcomes == \
        skill.odds({"skill": 4, "attribute": 6, "modifier": -2}).outcomes


def test_rps3_modifiers_are_cumulative(skill):
    # The seed's tightrope: wet and windy each make it harder, together harder still.
    r = skill.roll({"skill": 4, "attribute": 6, "modifier": "tricky", "other_modifier": "rather_tricky"},
                   faces=[2, 3])
    assert r.values["base"] == 10 - 2 - 4


def test_rps3_unknown_label_is_an_input_error(skill):
    with pytest.raises(InputError, match="tricky"):
        skill.roll({"skill": 4, "attribute": 6, "modifier": "trickyy"}, faces=[1, 2])


# ---- RPS-4: tiers --------------------------------------------------------------------------------


@pytest.mark.parametrize("sl, label", [(1, "acceptable"), (4, "acceptable"), (5, "good"), (9, "good"),
                                       (10, "impressive"), (14, "impressive"), (15, "spectacular"),
                                       (16, "miraculous"), (21, "miraculous")])
def test_rps4_success_tiers(skill, sl, label):
    r = skill.roll(at_base(sl + 7), faces=[3, 4])
    assert r.result == sl and r.tier == label


# ---- RPS-5, RPS-6: double 1s and double 10s --------------------------------------------------------


@pytest.mark.parametrize("base", [-2, 0, 1, 2])
def test_rps5_double_ones_at_base_2_or_less_is_automatic_success_sl_1(skill, base):
    r = skill.roll(at_base(base), faces=[1, 1])
    assert (r.outcome, r.result, r.success, r.tier) == ("automatic_success", 1, True, "acceptable")


@pytest.mark.parametrize("base", [3, 12, 25])
def test_rps5_double_ones_above_base_2_is_critical_success_plus_5(skill, base):
    r = skill.roll(at_base(base), faces=[1, 1])
    assert (r.outcome, r.result, r.success) == ("critical_success", base - 2 + 5, True)


@pytest.mark.parametrize("base", [21, 25])
def test_rps6_double_tens_with_sl_above_0_is_automatic_failure_sl_0(skill, base):
    r = skill.roll(at_base(base), faces=[10, 10])
    assert (r.outcome, r.result, r.success) == ("automatic_failure", 0, False)
    assert "bare_miss" in r.tags


@pytest.mark.parametrize("base", [-2, 12, 20])
def test_rps6_double_tens_with_sl_0_or_less_is_critical_failure_sl_unchanged(skill, base):
    r = skill.roll(at_base(base), faces=[10, 10])
    assert (r.outcome, r.result, r.success) == ("critical_failure", base - 20, False)


# ---- RPS-2, RPS-4, RPS-5, RPS-6: exact odds vs brute force ----------------------------------------


@pytest.mark.parametrize("base", range(-2, 26))
def test_rps2_rps4_rps5_rps6_exact_odds_match_brute_force(skill, attr, base):
    outcomes: dict[str, Fraction] = {n: Fraction(0) for n in OUTCOMES}
    results: dict[int, Fraction] = defaultdict(Fraction)
    tiers: dict[str, Fraction] = defaultdict(Fraction)
    bare_miss = Fraction(0)
    for name, sl, p in brute(base):
        outcomes[name] += p
        results[sl] += p
        if tier(sl):
            tiers[tier(sl)] += p
        if name not in SUCCESSES and sl == 0:
            bare_miss += p
    success = sum(p for n, p in outcomes.items() if n in SUCCESSES)

    # a skill check at this Base, and an attribute check at the same Base
    for check, inputs in ((skill, at_base(base)), (attr, {"attribute": 5, "modifier": base - 10})):
        o = check.odds(inputs)
        assert o.outcomes == outcomes
        assert o.success == success
        # double 1s and double 10s each come up 1 time in 100, whatever the Base
        assert o.outcomes["critical_success"] + o.outcomes["automatic_success"] == Fraction(1, 100)
        assert (o.outcomes["automatic_success"] > 0) == (base <= 2)
        assert (o.outcomes["automatic_failure"] > 0) == (base >= 21)
        assert o.outcomes["critical_failure"] + o.outcomes["automatic_failure"] == Fraction(1, 100)
        assert o.result_distribution == {k: v for k, v in sorted(results.items()) if v}
        # every tier of the table, in its order, 0 where the result can't reach it
        assert o.tiers == {t: tiers[t] for t in ("acceptable", "good", "impressive", "spectacular", "miraculous")}
        assert o.tags["bare_miss"] == bare_miss
        assert o.truncated == 0
        for name in OUTCOMES:
            assert o.outcome_success[name] == (name in SUCCESSES)


# ---- RPS-7: forgoing the roll ----------------------------------------------------------------------


def test_rps7_forgo_above_base_15_takes_sl_1_without_rolling(skill, attr):
    r = skill.roll({"skill": 10, "attribute": 6, "forgo": True}, faces=[])
    assert (r.outcome, r.result, r.success, r.skipped) == ("success", 1, True, True)
    assert r.dice == () and r.values["base"] == 16
    o = skill.odds({"skill": 10, "attribute": 6, "forgo": True})
    assert o.success == 1 and o.result_distribution == {1: 1}
    # attribute_check: 2 x 8 = 16 > 15
    assert attr.roll({"attribute": 8, "forgo": True}, faces=[]).result == 1


def test_rps7_forgo_at_base_15_or_less_is_refused(skill, attr):
    r = skill.roll({"skill": 9, "attribute": 6, "forgo": True}, faces=[])
    assert r.outcome == "not_allowed" and not r.success and r.dice == ()
    assert "15" in r.reason
    assert attr.roll({"attribute": 7, "modifier": 1, "forgo": True}, faces=[]).outcome == "not_allowed"


def test_rps7_forgo_is_off_by_default(skill):
    # Base 21: the player may forgo, but by default rolls (for a higher SL) and risks 1 in 100.
    r = skill.roll({"skill": 11, "attribute": 10}, faces=[10, 10])
    assert (r.outcome, r.result, r.skipped) == ("automatic_failure", 0, False)


def test_rps7_gm_may_rule_success_without_a_roll(skill):
    r = skill.roll({"skill": 0, "attribute": 1, "assured": True}, faces=[])
    assert (r.outcome, r.result, r.skipped) == ("success", 1, True)


# ---- RPS-10: second tries --------------------------------------------------------------------------


def test_rps10_retry_modifier_from_minus_5_to_plus_5(skill, attr):
    # Daniela searches the area and tries again; the GM grants +3 for her near miss.
    r = skill.roll({"skill": 4, "attribute": 6, "modifier": 2, "retry": 3}, faces=[4, 9])
    assert r.values["base"] == 15 and r.result == 2 and r.success
    assert attr.roll({"attribute": 5, "retry": -5}, faces=[1, 2]).values["base"] == 5
    for bad in (6, -6):
        with pytest.raises(InputError, match="retry"):
            skill.roll({"skill": 4, "attribute": 6, "retry": bad}, faces=[1, 2])


# ---- RPS-8: resisted actions ------------------------------------------------------------------------


def test_rps8_poker_hand(rs):
    # Seed 2.2.3: Johnny -3, Franky 1, Richard -2 (Gambling) → Franky wins, 1 - -2 = 3.
    johnny = {"skill": 3, "attribute": 5}   # Base 8, rolls 5+6 → -3
    franky = {"skill": 4, "attribute": 6}   # Base 10, rolls 4+5 → 1
    richard = {"skill": 2, "attribute": 5}  # Base 7, rolls 3+6 → -2
    c = rs.procedure("resisted").roll(parties=[johnny, franky, richard], faces=[5, 6, 4, 5, 3, 6])
    assert [p.result for p in c.parties] == [-3, 1, -2]
    assert c.winner == 1 and c.winner_result == 3
    assert c.rounds == ()


def test_rps8_beer_can(rs):
    # Seed 2.2.3: Strength checks, Franky -5, Johnny -1 → Johnny wins with SL -1 - -5 = 4,
    # a win though both failed. An attribute check is a skill check with skill = attribute.
    franky = {"skill": 5, "attribute": 5}  # Strength 5: Base 10, rolls 7+8 → -5
    johnny = {"skill": 6, "attribute": 6}  # Strength 6: Base 12, rolls 6+7 → -1
    c = rs.procedure("resisted").roll(parties=[franky, johnny], faces=[7, 8, 6, 7])
    assert [p.result for p in c.parties] == [-5, -1]
    assert [p.success for p in c.parties] == [False, False]
    assert c.winner == 1 and c.winner_result == 4
    a = rs.procedure("resisted_attribute").roll(parties=[{"attribute": 5}, {"attribute": 6}],
                                                faces=[7, 8, 6, 7])
    assert a.winner == 1 and a.winner_result == 4


def test_rps8_tied_parties_roll_again_and_the_rest_drop_out(rs):
    # The fumbled football: those tied for highest roll again; the others are out.
    p = {"skill": 5, "attribute": 5}  # Base 10
    c = rs.procedure("resisted").roll(parties=[p, p, p], faces=[4, 5, 3, 6, 5, 7,   # 1, 1, -2
                                                                2, 3, 5, 5])      # again: 5, 0
    assert [r.result for r in c.parties] == [1, 1, -2]
    assert c.rounds == ((0, 1),)  # party 3 did not roll again (10 faces: none left over)
    assert c.winner == 0 and c.winner_result == 5 - 0
    with pytest.raises(InputError):
        rs.procedure("resisted").roll(parties=[p] * 9, seed=1)
    with pytest.raises(InputError):
        rs.procedure("resisted").roll(parties=[p], seed=1)


def test_rps8_every_party_rolls_so_two_parties_at_a_high_base_are_decided(rs):
    # Two parties who may forgo the roll (Base 20, over 15) would both take SL 1 without
    # rolling and tie forever; in a resisted action every party rolls, so the parties' check
    # has no forgo and no assured, and the contest is decided like any other.
    high = {"skill": 10, "attribute": 10}
    for no_roll in ("forgo", "assured"):
        with pytest.raises(InputError, match=no_roll):
            rs.procedure("resisted").odds(parties=[{**high, no_roll: True}] * 2)
        with pytest.raises(InputError, match=no_roll):
            rs.procedure("resisted_attribute").odds(parties=[{"attribute": 10, no_roll: True}] * 2)
    o = rs.procedure("resisted").odds(parties=[high, high])
    wins, res = _contest_brute([20, 20])
    assert list(o.wins) == wins == [Fraction(1, 2)] * 2 and o.tie == 0
    assert o.winner_result == dict(sorted(res.items()))
    a = rs.procedure("resisted_attribute").odds(parties=[{"attribute": 10}, {"attribute": 10}])
    assert list(a.wins) == wins and a.winner_result == o.winner_result


def _contest_brute(bases: list[int]) -> tuple[list[Fraction], dict[int, Fraction]]:
    """Win chances and the winner's new SL for parties at these Bases, by enumeration:
    a unique highest SL wins with SL - second SL; a tie for highest rolls again among
    the tied (the self-loop summed as a geometric series: divide by 1 - P(loop))."""
    dists = [sl_distribution(b) for b in bases]
    memo: dict[tuple[int, ...], dict] = {}

    def solve(group: tuple[int, ...]) -> dict:
        if group in memo:
            return memo[group]
        out: dict = defaultdict(Fraction)
        loop = Fraction(0)
        for combo in itertools.product(*(dists[i].items() for i in group)):
            p = Fraction(1)
            for _, q in combo:
                p *= q
            sls = [s for s, _ in combo]
            top = max(sls)
            tied = tuple(g for g, s in zip(group, sls) if s == top)
            if len(tied) == 1:
                second = max(s for g, s in zip(group, sls) if g != tied[0])
                out[(tied[0], top - second)] += p
            elif tied == group:
                loop += p
            else:
                for k, q in solve(tied).items():
                    out[k] += p * q
        memo[group] = {k: v / (1 - loop) for k, v in out.items()}
        return memo[group]

    final = solve(tuple(range(len(bases))))
    wins = [Fraction(0)] * len(bases)
    res: dict[int, Fraction] = defaultdict(Fraction)
    for (w, r), p in final.items():
        wins[w] += p
        res[r] += p
    return wins, dict(res)


@pytest.mark.parametrize("a, b", [(10, 10), (12, 8), (-2, 25), (21, 21), (3, 2), (15, 16)])
def test_rps8_two_party_odds_match_brute_force(rs, a, b):
    o = rs.procedure("resisted").odds(parties=[at_base(a), at_base(b)])
    # Independent closed form for two parties: P(A wins) = P(a > b) / (1 - P(a == b)).
    da, db = sl_distribution(a), sl_distribution(b)
    tie = sum(p * db.get(s, 0) for s, p in da.items())
    win_a = sum(p * q for s, p in da.items() for t, q in db.items() if s > t) / (1 - tie)
    win_b = sum(p * q for s, p in da.items() for t, q in db.items() if t > s) / (1 - tie)
    margin: dict[int, Fraction] = defaultdict(Fraction)
    for (s, p), (t, q) in itertools.product(da.items(), db.items()):
        if s != t:
            margin[abs(s - t)] += p * q / (1 - tie)
    assert o.wins == (win_a, win_b)
    assert o.tie == 0 and o.truncated == 0
    assert o.winner_result == dict(sorted(margin.items()))
    assert _contest_brute([a, b]) == ([win_a, win_b], dict(margin))


def test_rps8_three_party_odds_match_brute_force(rs):
    bases = [10, 8, 12]
    o = rs.procedure("resisted").odds(parties=[at_base(b) for b in bases])
    wins, res = _contest_brute(bases)
    assert list(o.wins) == wins and o.tie == 0
    assert o.winner_result == dict(sorted(res.items()))


# ---- RPS-9: sustained actions -------------------------------------------------------------------------


def _sustained_brute(base: int, goal: int, rounds: int, no_loss: bool = False,
                     double_tens_fail: bool = False) -> dict[str, Fraction]:
    """Markov chain over the Success Pool, written out by hand."""
    check = brute(base)
    pools = {0: Fraction(1)}
    done = {"success": Fraction(0), "failure": Fraction(0)}
    for _ in range(rounds):
        nxt: dict[int, Fraction] = defaultdict(Fraction)
        for pool, p in pools.items():
            for outcome, sl, q in check:
                new = pool + sl if sl > 0 else pool - (0 if no_loss else 1)
                if new >= goal:
                    done["success"] += p * q
                elif outcome == "critical_failure" or new < -goal or \
                        (double_tens_fail and outcome == "automatic_failure"):
                    done["failure"] += p * q
                else:
                    nxt[new] += p * q
        pools = dict(nxt)
    return {**done, "unfinished": sum(pools.values(), Fraction(0))}


@pytest.mark.parametrize("base", [2, 6, 9, 12, 21])
@pytest.mark.parametrize("no_loss", [False, True])
def test_rps9_sustained_odds_match_markov_brute_force(rs, base, no_loss):
    o = rs.procedure("sustained").odds({**at_base(base), "goal": 3, "max_rounds": 6, "no_loss": no_loss})
    assert o.outcomes == _sustained_brute(base, 3, 6, no_loss)
    assert o.truncated == 0


def test_rps9_double_tens_reading_option_matches_brute_force(rs):
    o = rs.procedure("sustained").odds({**at_base(21), "goal": 30, "max_rounds": 4,
                                        "double_tens_always_fail": True})
    assert o.outcomes == _sustained_brute(21, 30, 4, double_tens_fail=True)
    assert o.outcomes != _sustained_brute(21, 30, 4)


def test_rps9_sustained_attribute_matches_skill_version(rs):
    a = rs.procedure("sustained_attribute").odds({"attribute": 5, "modifier": 1, "goal": 3, "max_rounds": 5})
    assert a.outcomes == _sustained_brute(11, 3, 5)


def test_rps9_replay_daniela_keeps_tracking(rs):
    # Daniela's two checks as a sustained action with Goal 3: -1 (pool -1), then 4 (pool 3).
    r = rs.procedure("sustained").roll({"skill": 4, "attribute": 6, "modifier": 2, "goal": 3},
                                       faces=[4, 9, 1, 7])
    assert [c.result for c in r.rounds] == [-1, 4]
    assert r.states == ({"pool": -1}, {"pool": 3})
    assert r.outcome == "success"


def test_rps9_replay_critical_failure_ends_it(rs):
    r = rs.procedure("sustained").roll({**at_base(12), "goal": 10}, faces=[3, 4, 10, 10])
    assert [c.outcome for c in r.rounds] == ["success", "critical_failure"]
    assert r.outcome == "failure"


def test_rps9_replay_pool_below_minus_goal_fails_unless_gm_rules_no_loss(rs):
    faces = [5, 5, 6, 6, 4, 4]  # Base 5: SL -5, -7, -3
    r = rs.procedure("sustained").roll({**at_base(5), "goal": 2}, faces=faces)
    assert r.states == ({"pool": -1}, {"pool": -2}, {"pool": -3}) and r.outcome == "failure"
    r = rs.procedure("sustained").roll({**at_base(5), "goal": 2, "no_loss": True, "max_rounds": 3},
                                       faces=faces)
    assert r.states == ({"pool": 0},) * 3 and r.outcome == "unfinished"


def test_rps9_automatic_failure_costs_1_by_default(rs):
    r = rs.procedure("sustained").roll({**at_base(21), "goal": 30, "max_rounds": 1}, faces=[10, 10])
    assert r.rounds[0].outcome == "automatic_failure" and r.states == ({"pool": -1},)
    assert r.outcome == "unfinished"
    r = rs.procedure("sustained").roll({**at_base(21), "goal": 30, "double_tens_always_fail": True},
                                       faces=[10, 10])
    assert r.outcome == "failure"


def test_rps9_default_round_limit_settles_the_seeds_average_case(rs):
    # The seed's cart: average Base 11 (+1 for the incline, here left out); a Goal of about
    # ten checks. With the default limit of 100 checks nothing is left unfinished.
    o = rs.procedure("sustained").odds({**at_base(11), "goal": 10})
    assert o.inputs["max_rounds"] == 100
    assert o.outcomes["unfinished"] < Fraction(1, 10**6)
    assert o.outcomes == _sustained_brute(11, 10, 100)
