"""Crashes and hangs the fuzzers found, one minimal regression test each.

Each was first written as a strict ``xfail`` test while the bug was open (the docstrings say
what the engine did then). The first fifteen were fixed in commit 70e3d8d, the sixteenth (a
sweep's total work) after it; they now guard against a relapse. Open ones, if any, are under
"open" at the end, still strict ``xfail``. A new find goes there the same way: a strict-xfail
test with the exact input, and an entry in ``fuzz_support.KNOWN_BUGS`` so that the fuzzers
count it and carry on until it is fixed; then the mark and the entry go and the test moves
to its section.

Inputs that allocate without bound run in a child process with a memory limit
(``fuzz_support.run_child``), so a relapse cannot take the machine's memory; hangs run
under ``case_time_limit``.
"""

from __future__ import annotations

import pytest

from fuzz_support import PICK_TEN, case_time_limit, cli_code, run_child
from rulesengine import dice
from rulesengine.errors import LimitError, RulesEngineError
from rulesengine.ruleset import load, loads
from rulesengine.dice.values import DicePool

MEMORY_MB = 500  # a child's address-space limit: the engine should need far less


def assert_clean_exit(run) -> None:
    """A CLI child ended like a user error, within its memory cap: exit 1 or 2, a message, no
    internal error (a MemoryError past the cap would be one), no hang."""
    assert not run.timed_out, f"still running after {run.seconds:.1f} s (a hang?)"
    assert run.returncode in (1, 2), (run.returncode, run.stderr[-500:])
    assert "internal error" not in run.stderr and "Traceback" not in run.stderr, run.stderr[-500:]


MUDD_INPUTS = {"precision_target": 5, "impact_target": 2}


# ---- dice pools ----------------------------------------------------------------------------


def test_a_pool_with_a_huge_count_is_an_input_error():
    """Found: DicePool.parse (rulesengine/values.py) multiplies out the count before checking
    max_dice: '99999999999999999999d4' raises OverflowError"""
    with pytest.raises(RulesEngineError):
        load("mudd").check("action").roll({"pool": "99999999999999999999d4", **MUDD_INPUTS}, seed=1)


def test_a_pool_with_a_billion_dice_is_refused_without_allocating_it():
    """Found: DicePool.parse builds [sides] * count first: '999999999d4' allocates 8 GB (MemoryError,
    exit 3) before 'more than 100 dice'"""
    run = run_child(cli_code(["roll", "mudd", "action", "pool=999999999d4", "precision_target=5",
                              "impact_target=2"]), memory_mb=MEMORY_MB)
    assert_clean_exit(run)


# ---- choosing dice of a pool ----------------------------------------------------------------------



def test_choosing_ten_dice_of_a_large_pool_ends_quickly():
    """Found: CheckRunner._choose (rulesengine/check.py) walks every combination: pick 10 (schema
    maximum) of a 100-die pool (the pool maximum) is C(100, 10) = 1.7e13 combinations; 30
    dice already take 4 s. No limit applies."""
    check = loads(PICK_TEN).check("action")
    with case_time_limit("roll pick 10 of 100d4"), pytest.raises(LimitError) as info:
        check.roll({"pool": "100d4"}, seed=1)
    assert info.value.limit == "max_choices" and "17,310,309,456,440 ways" in info.value.message


def test_odds_of_the_shipped_mudd_check_with_ten_dice_end_quickly():
    """Found: CheckRunner.resolutions (rulesengine/check.py) resolves every joint outcome (with
    _choose inside) outside the max_states budget: the shipped mudd action with a 10-die
    pool runs for minutes (7 dice: 4 s, x4 per die)"""
    check = load("mudd").check("action")
    with case_time_limit("odds mudd action, 10 dice"), pytest.raises(LimitError) as info:
        check.odds({"pool": "d12/d10/d8/d6/d4/d12/d10/d8/d6/d4", **MUDD_INPUTS})
    assert info.value.limit == "max_states"


# ---- the command line ---------------------------------------------------------------------------


def test_a_huge_party_number_is_a_usage_error():
    """Found: the command line's party list (arguments.party_list) listed every missing party number up to the largest given:
    party100000000000.skill=10 allocates until MemoryError (exit 3)"""
    run = run_child(cli_code(["roll", "gurps-4e", "quick_contest", "party1.skill=10",
                              "party100000000000.skill=10"]), memory_mb=MEMORY_MB)
    assert_clean_exit(run)


def test_a_huge_sweep_is_refused_before_it_is_built():
    """Found: describe._range builds list(range(lo, hi + 1)) before the MAX_SWEEP check:
    skill=1..100000000000 is a MemoryError (exit 3); 1..10000000 takes ~3 s and ~1 GB to say
    'too large'"""
    run = run_child(cli_code(["odds", "gurps-4e", "success_roll", "skill=1..100000000000"]),
                    memory_mb=MEMORY_MB)
    assert_clean_exit(run)


def test_a_huge_two_way_sweep_is_refused_before_it_is_built():
    """Found: describe.sweep builds every combination of two ranges before the MAX_SWEEP check:
    1..5000 x 1..5000 is 25 million tuples (MemoryError, exit 3)"""
    run = run_child(cli_code(["odds", "gurps-4e", "success_roll", "skill=1..5000", "modifier=1..5000"]),
                    memory_mb=MEMORY_MB)
    assert_clean_exit(run)


def test_a_sweep_of_costly_odds_ends_quickly(capsys):
    """Found (by the CLI fuzzer, on 70e3d8d: goal=1..6 took 10 s): describe.sweep checks the number
    of combinations (MAX_SWEEP = 2000) but not their total work: each is an exact-odds run that
    may use nearly its whole max_states budget (~2.8 s here), so `odds rps sustained_attribute
    goal=5 max_rounds=991..1000 ...` takes ~28 s, max_rounds=801..1000 ~9 min, and a
    2000-combination sweep about an hour. Now each value gets one max_states budget and the
    whole sweep max_sweep_states (ten budgets, issue 29): it stops after ten budgets' worth of
    work, at the 12th value here (each needs ~1.8 million steps)"""
    from rulesengine.cli import main

    with case_time_limit("odds rps sustained_attribute goal=5 max_rounds=901..1000"):
        code = main(["odds", "rps", "sustained_attribute", "goal=5", "max_rounds=901..1000", "attribute=0",
                     "other_modifier=-40", "retry=-5", "--csv"])
    err = capsys.readouterr().err
    assert code == 1 and "error[E210]: a sweep of 100 values is too big" in err, err
    assert "hint: sweep fewer values" in err and "Traceback" not in err


# ---- exact odds output ------------------------------------------------------------------------------


def test_odds_of_a_million_sided_die_end_quickly_in_little_memory():
    """Found: no limit on the number of outcomes: d1000000 is allowed (max_sides) and within
    max_states, but `dice d1000000 --odds` takes ~35 s and ~1 GB (Fraction arithmetic per
    row in Odds.rows / format_odds_table; --json: 1.7 GB)"""
    run = run_child(cli_code(["dice", "d1000000", "--odds"]), memory_mb=MEMORY_MB)
    assert_clean_exit(run)
    assert "'d1000000' has 1,000,000 possible values, too many to list" in run.stderr, run.stderr[-300:]


def test_odds_of_a_pool_valued_expression_convert_to_a_dict():
    """Found: Odds.mean (rulesengine/dice.py) calls int() on every value: a dice pool bound to a name
    (allowed by the API) makes .mean / .to_dict() a TypeError"""
    odds = dice.odds("pool", env={"pool": DicePool.parse("d8/d4")})
    odds.to_dict()


# ---- API paths ---------------------------------------------------------------------------------------


def test_a_path_with_a_nul_character_is_a_load_error():
    """Found: ruleset.load / source.load_file catch OSError only: a path with a NUL character raises
    ValueError (API only: argv cannot hold NUL)"""
    with pytest.raises(RulesEngineError):
        load("rules\x00.yaml")


def test_a_grid_row_of_the_wrong_length_is_reported_not_a_crash(tmp_path):
    """Found (mutant cyberpunk-3d6 seed=3732): a grid row with fewer values than columns was
    reported as E505, and then building the table's lookup function for the other checks
    raised ValueError from zip(strict=True): an internal error instead of the diagnostic"""
    from rulesengine.validate import validate_file

    text = load("cyberpunk-3d6").model.path
    with open(text, encoding="utf-8") as f:
        broken = f.read().replace("very_easy: [10, 12]", "very_easy: [10]", 1)
    assert "very_easy: [10]" in broken
    path = tmp_path / "grid.yaml"
    path.write_text(broken, encoding="utf-8")
    report = validate_file(str(path))
    assert [d.code for d in report.diagnostics if d.severity == "error"] == ["E505"]
    with pytest.raises(RulesEngineError) as info:
        load(str(path))
    assert info.value.code == "E505"


# ---- procedures --------------------------------------------------------------------------------


def _required_inputs(specs) -> dict:
    """A value for each required input: its minimum, first choice, or false."""
    out = {}
    for s in specs:
        if s.has_default or s.optional:
            continue
        if s.type == "integer":
            out[s.name] = s.min if s.min is not None else 10
        elif s.type == "choice":
            out[s.name] = s.choices[0]
        elif s.type == "boolean":
            out[s.name] = False
        else:
            out[s.name] = "d8/d4/d4"
    return out


def test_odds_of_a_four_party_contest_end_quickly():
    """Found: ProcedureRunner._odds_contest (rulesengine/procedures.py) checks only the number of
    joint rows (<= max_states), but evaluates expressions for each of them: the shipped
    spycraft-2e 'opposed' contest with 4 parties (~1.9 M rows) runs for minutes (3 parties:
    2 s; rps 'resisted' with 4: 4 s)"""
    rs = load("spycraft-2e")
    proc = rs.procedure("opposed")
    party = _required_inputs(rs.check(proc.proc.check).model.inputs)
    with case_time_limit("odds spycraft-2e opposed, 4 parties"), pytest.raises(LimitError) as info:
        proc.odds(_required_inputs(proc.proc.inputs), parties=[party] * 4)
    assert info.value.limit == "max_states" and "4 parties is too big" in info.value.message


def test_validating_a_small_file_that_chooses_from_a_large_default_pool_ends_quickly(tmp_path):
    """Found: the same CheckRunner._choose enumeration runs inside validation
    (reach.unreachable_outcomes computes odds; SEARCH_STATES bounds the dice, not the
    choices): `rulesengine validate` on this 20-line file takes minutes (24d2: 8 s)"""
    from rulesengine.validate import validate_file

    text = PICK_TEN.replace("pool: {type: dice_pool}", "pool: {type: dice_pool, default: 30d2}").replace(
        "      - {name: done, success: true}", "      - {name: high, success: true, when: total > 15}\n"
        "      - {name: done, success: true}")
    path = tmp_path / "pick.yaml"
    path.write_text(text, encoding="utf-8")
    with case_time_limit("validate pick 10 of a 30d2 default pool"):
        report = validate_file(str(path))
    assert report.diagnostics == [] or all(d.severity == "warning" for d in report.diagnostics), report.diagnostics


def test_odds_of_a_long_extended_check_end_quickly():
    """Found: ProcedureRunner._odds_extended (rulesengine/procedures.py) bounds the states of one
    round by max_states but not the rounds' total work: the shipped rps 'sustained' action
    with max_rounds=1000 (its input's maximum) takes ~70 s"""
    proc = load("rps").procedure("sustained")
    with case_time_limit("odds rps sustained, goal 100, skill 0, 1000 rounds"), pytest.raises(LimitError) as info:
        proc.odds({"goal": 100, "skill": 0, "attribute": 0, "max_rounds": 1000})
    assert info.value.limit == "max_states" and "over 1000 rounds is too big" in info.value.message


# ---- validation ----------------------------------------------------------------------------------

NO_CHOICES = """\
ruleset: no-choices
name: A choice input without choices
version: "1"
source: {title: a fuzzing find}
checks:
  c:
    inputs:
      level: {type: choice}
    roll: 1d6
    outcomes:
      - {name: done, success: true}
"""


def test_validating_a_choice_input_without_choices_gives_diagnostics(tmp_path):
    """Found: reach.base_inputs (rulesengine/reach.py) takes telling_values(spec)[0], an IndexError
    for a choice input with no choices (the schema allows it): `rulesengine validate` exits
    3"""
    from rulesengine.validate import validate_file

    path = tmp_path / "no-choices.yaml"
    path.write_text(NO_CHOICES, encoding="utf-8")
    report = validate_file(str(path))
    assert all(d.location.line is not None for d in report.diagnostics)


ARITY = """\
ruleset: arity
name: A function called with the wrong number of arguments
version: "1"
source: {title: a fuzzing find}
checks:
  c:
    roll: 1d6
    result: abs()
    outcomes:
      - {name: done, success: true}
"""


def test_a_call_with_the_wrong_number_of_arguments_is_a_diagnostic_at_its_file_position(tmp_path):
    """Found: Builder.expr (rulesengine/build.py) compiles each expression outside its diagnostics: a
    call with the wrong number of arguments (abs(), min(), if(true)) makes validate_file and
    load raise DiceEvalError E201 at 'column 1' of the expression, with no file, line or
    column (`rulesengine validate` prints no position)"""
    from rulesengine.validate import validate_file

    path = tmp_path / "arity.yaml"
    path.write_text(ARITY, encoding="utf-8")
    report = validate_file(str(path))
    found = [(d.code, d.location.line, d.location.column) for d in report.diagnostics]
    assert ("E501", 8, 13) in found or any(line == 8 for _, line, _ in found), found


def test_exact_odds_of_a_chain_of_ands_end_quickly():
    """Found: Exact.lazy_logic (rulesengine/evaluate.py) worked out its left operand, and when
    that did not decide the answer, worked it out again inside a lift over [left, right]:
    each `and`/`or` of a chain doubled the work, uncharged to max_states, so the odds of
    `x and x and ...` (30 terms, 150 characters) took hours"""
    text = " and ".join(["x"] * 30)
    with case_time_limit(f"odds of {text!r}"):
        assert dice.odds(text, env={"x": True}).distribution == {True: 1}
        assert dice.odds(" or ".join(["x"] * 200), env={"x": False}).distribution == {False: 1}


# ---- open ------------------------------------------------------------------------------------------


def test_a_state_value_that_starts_as_a_number_is_never_set_to_yes_no():
    """tests/rules/test_validate_promise.py, seed 327714231 (2026-11-25): a mutant of
    cepheus-engine set an extended check's numeric state to ``false``; it fed the check's
    integer input ``chain_dm``, and rolling failed with E201 although ``validate --strict``
    passed. validate now says where: a state value keeps the kind it starts with."""
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "rulesets" / "cepheus-engine.yaml").read_text(encoding="utf-8")
    assert "set: {chain: next_dm}" in text
    with pytest.raises(RulesEngineError) as err:
        loads(text.replace("set: {chain: next_dm}", "set: {chain: false}"), "mutant.yaml")
    assert err.value.code == "E521" and "state 'chain' (it starts as a number)" in err.value.message
    assert err.value.location.line is not None
