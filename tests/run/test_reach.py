"""validate's search over a check's inputs (rulesengine/run/reach.py, issue 13 part 3): outcome
rules that can fall through are an error with the inputs that show it, a warning only when
the search could not prove they can't, and nothing when it proved it; an outcome nobody
reached is claimed "never" only for input combinations actually worked out."""

from __future__ import annotations

from fractions import Fraction

from rulesengine.validate import validate_file

HEAD = """ruleset: t
name: T
version: "1"
source: tests
checks:
  c:
"""


def found(tmp_path, body: str) -> list[tuple[str, str]]:
    path = tmp_path / "t.yaml"
    path.write_text(HEAD + body, encoding="utf-8")
    return [(d.code, d.message) for d in validate_file(str(path)).diagnostics]


def test_rules_that_cover_every_roll_of_bounded_inputs_are_proven_complete(tmp_path):
    """skill 3..18 against 3d6: `roll <= skill` or `roll > skill` covers every roll; all 16
    input values are worked out, so no catch-all is needed and nothing is said."""
    body = """    inputs:
      skill: {type: integer, min: 3, max: 18}
    roll: 3d6
    outcomes:
      - {name: success, success: true, when: roll <= skill}
      - {name: failure, success: false, when: roll > skill}
"""
    assert found(tmp_path, body) == []


def test_rules_that_miss_a_roll_for_some_input_are_an_error_naming_the_inputs(tmp_path):
    """The gap: a 17 or 18 at skill 17 or more matches neither rule."""
    body = """    inputs:
      skill: {type: integer, min: 3, max: 20}
    roll: 3d6
    outcomes:
      - {name: success, success: true, when: roll <= skill and roll <= 16}
      - {name: failure, success: false, when: roll > skill}
"""
    (code, message), = [(c, m) for c, m in found(tmp_path, body) if c.startswith("E")]
    assert code == "E512"
    assert "with skill=" in message


def test_rules_over_an_unbounded_input_get_a_warning_not_a_claim(tmp_path):
    body = """    inputs:
      skill: {type: integer}
    roll: 3d6
    outcomes:
      - {name: success, success: true, when: roll <= skill}
      - {name: failure, success: false, when: roll > skill}
"""
    assert [c for c, _ in found(tmp_path, body)] == ["W502"]


def test_an_outcome_that_no_input_can_reach_is_said_to_be_impossible_only_after_all_were_tried(tmp_path):
    body = """    inputs:
      bonus: {type: integer, min: 0, max: 2}
    roll: 3d6
    result: roll + bonus
    outcomes:
      - {name: legendary, success: true, when: result > 20}
      - {name: normal, success: true}
"""
    (code, message), = found(tmp_path, body)
    assert code == "W503" and "can never happen" in message and "all 3 worked out" in message


def test_combinations_that_could_not_be_worked_out_make_the_warning_undecided(tmp_path):
    """Keeping the highest 3 of 30 to 40 d10 while counting their 9s is too big for the odds'
    own budget at every input: the search cannot tell, and says so instead of claiming the
    outcome never happens."""
    body = """    inputs:
      dice: {type: integer, min: 30, max: 40}
    roll: (dice)d10kh3
    outcomes:
      - {name: thirty, success: true, when: "roll == 30 and count(roll, 9) == 0"}
      - {name: other, success: false}
"""
    messages = [m for c, m in found(tmp_path, body) if c == "W503"]
    assert messages and all(m.startswith("could not decide") for m in messages), messages


# ---- issue 32: correct files must pass --strict; what the odds can work out is decided ----

EXPLODING_TRAIT_AND_WILD = """    inputs:
      target: {type: integer, min: 2, max: 30}
    roll: max(1d8!, 1d6!)
    outcomes:
      - {name: raise, success: true, when: roll >= target + 4}
      - {name: success, success: true, when: roll >= target}
      - {name: failure, success: false}
"""


def test_a_trait_die_and_a_wild_die_both_exploding_are_decided_as_the_odds_decide_them(tmp_path):
    """`max(1d8!, 1d6!)`: too big for the search's small budget at every target, within the
    odds' own: each outcome is seen with a chance above 0 at some target, nothing is said."""
    assert found(tmp_path, EXPLODING_TRAIT_AND_WILD) == []


def test_two_exploding_rolls_read_together_are_decided(tmp_path):
    body = """    inputs:
      target: {type: integer, default: 4, min: 2, max: 12}
    rolls: {trait: 1d8!, wild: 1d6!}
    result: max(trait, wild)
    outcomes:
      - {name: raise, success: true, when: result >= target + 4}
      - {name: success, success: true, when: result >= target}
      - {name: failure, success: false}
"""
    assert found(tmp_path, body) == []


def test_a_reroll_of_the_lowest_die_with_a_keep_is_decided(tmp_path):
    """`4d6rol1kh3`: 18 needs three 6s kept; the odds answer at once, so validate decides."""
    body = """    roll: 4d6rol1kh3
    outcomes:
      - {name: top, success: true, when: roll == 18}
      - {name: fine, success: true, when: roll >= 10}
      - {name: low, success: false}
"""
    assert found(tmp_path, body) == []


PANIC = """    inputs:
      stress: {type: integer, default: 2, min: 0, max: 20}
    rolls: {save: 1d20, again: 1d20, table: 1d20}
    let:
      kept: max(save, again)
      effect: panic_table(table + stress)
    result: effect
    outcomes:
      - {name: keeps_it_together, when: "kept > stress", success: true}
      - {name: shaken, when: "effect == 1", success: false}
      - {name: frightened, when: "effect == 2", success: false}
      - {name: catatonic, success: false}
"""
PANIC_TABLE = """tables:
  panic_table:
    ranges:
      - {min: 1, max: 10, value: 1}
      - {min: 11, max: 16, value: 2}
      - {min: 17, value: 3}
"""


def test_a_rare_panic_outcome_of_three_rolls_is_decided(tmp_path):
    """Three d20s (8,000 ways) are past the search's budget; 'frightened' at stress 10 has a
    chance of 3/40 (brute force below), and validate finds it as the odds do."""
    from oracle import product_dist

    oracle = product_dist([range(1, 21)] * 3, lambda a, b, t: max(a, b) <= 10 and 11 <= t + 10 <= 16)
    assert oracle[True] == Fraction(10 * 10 * 6, 20 ** 3)
    path = tmp_path / "t.yaml"
    path.write_text(HEAD.replace("checks:\n", PANIC_TABLE + "checks:\n") + PANIC, encoding="utf-8")
    assert [d.code for d in validate_file(str(path)).diagnostics] == []


def test_an_outcome_past_the_explosion_depth_is_undecided_not_impossible(tmp_path):
    """`1d6!` over 100 takes seventeen 6s in a row: a chance above 0 that the odds, followed
    ten explosions deep, leave in their truncated mass. validate must not call it impossible."""
    body = """    roll: 1d6!
    outcomes:
      - {name: legend, success: true, when: roll > 100}
      - {name: other, success: false}
"""
    (code, message), = found(tmp_path, body)
    assert code == "W503" and message.startswith("could not decide"), message
    # what stopped it is the depth, not the rule: the hint says what settles it
    path = tmp_path / "t.yaml"
    (d,) = validate_file(str(path)).diagnostics
    assert d.hint.startswith('if it can happen, an example that reaches it (examples:) or allow: {W503: "why"}')


def test_what_even_the_odds_budget_cannot_work_out_stays_undecided(tmp_path):
    """With a work budget too small for the odds themselves, the outcome stays undecided."""
    from dataclasses import replace

    from rulesengine.limits import DEFAULT_LIMITS

    path = tmp_path / "t.yaml"
    path.write_text(HEAD + EXPLODING_TRAIT_AND_WILD, encoding="utf-8")
    small = replace(DEFAULT_LIMITS, max_states=3000)
    messages = [d.message for d in validate_file(str(path), small).diagnostics if d.code == "W503"]
    assert len(messages) == 3 and all(m.startswith("could not decide") for m in messages), messages



POOL_SUMMED = """    inputs:
      pool: {type: integer, min: 1, max: 20}
    roll: (pool)d10
    result: roll
    outcomes:
      - {name: huge, when: "result > 200", success: true}
      - {name: high, when: "result >= 100", success: true}
      - {name: low, success: false}
"""


def test_many_combinations_past_the_search_budget_but_cheap_for_the_odds_are_all_decided(tmp_path):
    """1 to 20 d10s summed: from 7 dice on, past the search's 2,000 steps, each a few
    thousand for the odds. Past the first six worked out with the odds' own budget, the
    rest share one more such budget: all 20 are worked out, and 'huge' (over 200 on at
    most 200) is said never to happen, not left undecided (an outside author's report)."""
    (code, message), = found(tmp_path, POOL_SUMMED)
    assert code == "W503" and "can never happen" in message and "all 20 worked out" in message, message


def test_the_combinations_past_the_sixth_share_one_budget_and_stop_when_it_runs_out(tmp_path, monkeypatch):
    """Validation stays bounded: the sets past the first REACH_DECIDE_TRIES share one budget
    of the odds' size. With that budget at about two sums of 20 d10s, six sets are worked
    out alone, the next share it until it runs out, and the rest stay undecided."""
    from dataclasses import replace

    from rulesengine.limits import DEFAULT_LIMITS
    from rulesengine.run import reach

    tried: list[int] = []
    work_out = reach._Tally.work_out

    def counting(self, runner, inputs):
        done = work_out(self, runner, inputs)
        tried.append(done)
        return done

    monkeypatch.setattr(reach._Tally, "work_out", counting)
    path = tmp_path / "t.yaml"
    path.write_text(HEAD + POOL_SUMMED, encoding="utf-8")
    limits = replace(DEFAULT_LIMITS, max_states=12_000)  # about two sums of 20 d10s
    messages = [d.message for d in validate_file(str(path), limits).diagnostics if d.code == "W503"]
    assert len(messages) == 1 and messages[0].startswith("could not decide"), messages
    decided = tried[20:]  # after the search's 20 (14 of them past its budget)
    assert reach.REACH_DECIDE_TRIES < len(decided) < 14  # six alone, some shared, then it stopped
    assert decided[reach.REACH_DECIDE_TRIES] and not decided[-1]  # the last cut by the shared budget

BIG_PRODUCT = """    rolls:
      a: 1d1500
      b: 1d1000
    result: a * b
    outcomes:
      - {name: high, when: "result >= 500000", success: true}
"""


def test_rules_that_fall_through_where_no_budget_can_work_the_odds_out_are_found_by_rolling(tmp_path):
    """1,500,000 joint values: the odds are refused (E210) even with their own budget, so the
    search rolls the check (fixed seeds) and meets a roll no rule matches: an error, not a
    warning (validate's promise: rolling this file fails; the promise test met it as a mutant,
    the last rule of a catch-all made `when: 'false'`). 1,048,489 of the 1,500,000 rolls (a
    product under 500,000) match nothing, so a few rolls meet one."""
    below = sum(min(1000, (500_000 - 1) // a) for a in range(1, 1501))
    assert below == 1048489  # by hand: the pairs whose product is under 500,000
    assert [code for code, _ in found(tmp_path, BIG_PRODUCT + "      - {name: low, when: 'false', success: false}\n")] \
        == ["E512"]


def test_rules_too_big_to_work_out_that_never_fall_through_keep_the_warning(tmp_path):
    """The same rules with the second made the complement: no roll falls through, the rolls
    find none, and the search still cannot prove it: W502 (and W503 could not decide)."""
    codes = [code for code, _ in found(tmp_path, BIG_PRODUCT + "      - {name: low, when: 'result < 500000', "
                                                              "success: false}\n")]
    assert "E512" not in codes and "W502" in codes


GAP = """\
ruleset: t
name: T
version: "1"
source: test
checks:
  c:
    inputs:
      pool: {type: integer, default: 5, min: 1, max: 40}
      difficulty: {type: integer, default: 3, min: 1, max: 10}
    roll: (pool)d10
    let:
      successes: count(roll, 6, 10)
    result: successes
    outcomes:
      - {name: win, when: "successes >= difficulty", success: true}
      - {name: failure, when: "successes < difficulty - 1", success: false}
"""


def test_rules_that_fall_through_are_named_at_the_last_rule_with_every_input_they_ran_with(tmp_path):
    """A gap between the outcome rules (successes one short of the difficulty), the inputs
    at their defaults (an outside author's Vampire 5e; 400 combinations, so the search starts
    from the defaults): E512 names them, defaults and all, at
    the last rule (where a catch-all goes, or the rule is widened); and no W503 says it
    "could not decide" outcomes that plainly happen, while the gap stops their odds."""
    path = tmp_path / "gap.yaml"
    path.write_text(GAP)
    report = validate_file(str(path))
    assert [d.code for d in report.diagnostics] == ["E512"]
    (d,) = report.diagnostics
    assert d.message == "check 'c': some rolls match no outcome rule with pool=5, difficulty=3"
    assert d.location.pointer == "/checks/c/outcomes/1"
    path.write_text(GAP.replace('when: "successes < difficulty - 1", ', ""))
    assert not validate_file(str(path)).diagnostics


def test_an_outcome_whose_condition_is_false_as_written_is_said_to_be_impossible(tmp_path):
    """Over an unbounded input the search can't try every value, but `when: false` needs none."""
    body = """    inputs:
      skill: {type: integer}
    roll: 3d6
    outcomes:
      - {name: never, success: true, when: "false"}
      - {name: success, success: true, when: roll <= skill}
      - {name: failure, success: false}
"""
    messages = [m for c, m in found(tmp_path, body) if c == "W503"]
    assert messages == ["outcome 'never' of check 'c' can never happen: its condition is false as written"]
