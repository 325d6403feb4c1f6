"""The ruleset commands: validate (text, JSON, GitHub), schema, list, show, export, roll, odds."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from fuzz_support import case_time_limit

from rulesengine import dice
from rulesengine.cli import main

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "corpus" / "broken"


def run(capsys, *argv, env=None):
    old = dict(os.environ)
    if env is not None:
        os.environ.clear()
        os.environ.update(env)
    try:
        code = main([str(a) for a in argv])
    finally:
        os.environ.clear()
        os.environ.update(old)
    out, err = capsys.readouterr()
    return code, out, err


def test_validate_shipped_rulesets_is_clean(capsys):
    code, out, _ = run(capsys, "validate", ROOT / "rulesets")
    assert code == 0
    assert out.strip().endswith("0 errors, 0 warnings")


def test_validate_text_output_has_position_caret_and_hint(capsys):
    code, out, _ = run(capsys, "validate", CORPUS / "E502_unknown_name.yaml")
    assert code == 1
    assert out.splitlines()[:4] == [
        f"{CORPUS / 'E502_unknown_name.yaml'}:10:13: error[E502]: unknown name 'skil' in the result",
        "    result: skil - roll",
        "            ^^^^",
        "hint: did you mean 'skill'?",
    ]


def test_validate_json_lists_diagnostics(capsys):
    code, out, _ = run(capsys, "validate", "--format", "json", CORPUS / "E402_unknown_key.yaml")
    data = json.loads(out)["diagnostics"]
    assert code == 1
    assert {"path", "line", "column", "pointer", "code", "severity", "message", "hint", "limit"} == set(data[0])
    unknown = next(d for d in data if d["code"] == "E402")
    assert (unknown["line"], unknown["column"], unknown["hint"]) == (9, 5, "did you mean 'outcomes'?")


def test_validate_json_names_the_limit_an_expression_hits(capsys, tmp_path):
    path = tmp_path / "many-dice.yaml"
    path.write_text(DEEP.replace("1d6+" * 249 + "1d6", "20000d6"), encoding="utf-8")
    code, out, _ = run(capsys, "validate", "--format", "json", path)
    (found,) = [d for d in json.loads(out)["diagnostics"] if d["code"] == "E210"]
    assert code == 1 and found["limit"] == "max_dice" and (found["line"], found["column"]) == (9, 12)
    code, out, _ = run(capsys, "validate", "--format", "json", CORPUS / "E402_unknown_key.yaml")
    assert all(d["limit"] is None for d in json.loads(out)["diagnostics"])


def test_validate_json_names_the_engine_version_that_judged(capsys):
    import jsonschema

    from rulesengine import __version__

    code, out, _ = run(capsys, "validate", "--format", "json", ROOT / "rulesets", CORPUS / "E402_unknown_key.yaml")
    data = json.loads(out)
    jsonschema.validate(data, json.loads((ROOT / "schemas" / "validate-result.schema.json").read_text()))
    assert code == 1
    assert (data["engine"], data["version"]) == ("rulesengine", __version__)
    assert data["files"] == len(list((ROOT / "rulesets").glob("*.yaml"))) + 1


def test_version_flag_prints_the_package_version(capsys):
    from rulesengine import __version__

    assert run(capsys, "--version") == (0, f"rulesengine {__version__}\n", "")


def test_validate_github_annotations(capsys):
    code, out, _ = run(capsys, "validate", "--format", "github", CORPUS / "E502_unknown_name.yaml")
    assert code == 1
    assert out.strip() == (f"::error file={CORPUS / 'E502_unknown_name.yaml'},line=10,col=13,title=E502::"
                           "unknown name 'skil' in the result (did you mean 'skill'?)")


def test_validate_picks_github_format_inside_github_actions(capsys):
    code, out, _ = run(capsys, "validate", CORPUS / "E502_unknown_name.yaml",
                       env={**os.environ, "GITHUB_ACTIONS": "true"})
    assert out.startswith("::error ")


def test_warnings_pass_unless_strict(capsys):
    path = CORPUS / "W501_unreachable_outcome.yaml"
    assert run(capsys, "validate", path)[0] == 0
    assert run(capsys, "validate", "--strict", path)[0] == 1


def test_validate_a_folder_fails_if_any_file_is_invalid(capsys):
    code, out, _ = run(capsys, "validate", CORPUS)
    assert code == 1
    assert f"{len(list(CORPUS.glob('*.yaml')))} files checked" in out


def test_validate_usage_errors_exit_2(capsys):
    assert run(capsys, "validate", "no/such/path.yaml")[0] == 2
    assert run(capsys, "validate", "--format", "xml", ROOT / "rulesets")[0] == 2


@pytest.mark.parametrize("content", [
    b"ruleset: x\n" + b"# padding\n" * 1_100_000,  # over 10 MB
    bytes(range(256)) * 64,  # binary
    b"\xff\xfe\x00r\x00u\x00l\x00e",  # not UTF-8
])
def test_hostile_files_fail_fast_with_a_position(capsys, tmp_path, content):
    path = tmp_path / "hostile.yaml"
    path.write_bytes(content)
    with case_time_limit(f"validate {content[:20]!r}"):
        code, out, err = run(capsys, "validate", "--format", "json", path)
    assert code == 1 and "Traceback" not in err
    diag = json.loads(out)["diagnostics"][0]
    assert diag["path"] == str(path) and diag["code"].startswith("E3")


def test_schema_prints_the_schema(capsys):
    code, out, _ = run(capsys, "schema")
    assert code == 0 and json.loads(out)["title"] == "rulesengine ruleset"


def test_schema_with_a_name_prints_an_answers_schema_as_the_service_docs_say(capsys):
    code, out, _ = run(capsys, "schema", "odds-result")
    assert code == 0 and out == (ROOT / "schemas" / "odds-result.schema.json").read_text(encoding="utf-8")
    code, _, err = run(capsys, "schema", "odds-reslt")
    assert code == 2 and "did you mean 'odds-result'?" in err and err.count("\n") == 1


def test_schema_output_saves_the_schema_for_a_homebrewers_repository(capsys, tmp_path):
    target = tmp_path / "schemas" / "ruleset.schema.json"
    target.parent.mkdir()
    code, out, _ = run(capsys, "schema", "--output", target)
    assert (code, out) == (0, "")
    assert target.read_text(encoding="utf-8") == (ROOT / "schemas" / "ruleset.schema.json").read_text(encoding="utf-8")


def test_schema_output_to_a_missing_folder_is_a_one_line_usage_error(capsys, tmp_path):
    code, _, err = run(capsys, "schema", "--output", tmp_path / "no-such-folder" / "ruleset.schema.json")
    assert code == 2 and err.count("\n") == 1
    assert "cannot write" in err and "no-such-folder" in err and "Traceback" not in err


def test_schema_ids_are_stable_urns_not_a_placeholder_host():
    for path in sorted((ROOT / "schemas").glob("*.schema.json")):
        assert json.loads(path.read_text())["$id"] == f"urn:ttrpg-rulesengine:schema:{path.name.removesuffix('.schema.json')}"


def test_list_names_shipped_rulesets(capsys):
    code, out, _ = run(capsys, "list", "--json")
    rows = {r["id"]: r for r in json.loads(out)}
    assert code == 0 and "success_roll" in rows["gurps-4e"]["checks"]


def test_show_describes_a_check_in_words(capsys):
    code, out, _ = run(capsys, "show", "gurps-4e", "success_roll")
    assert code == 0
    assert "skill: a whole number -20..60 — base skill or attribute level" in out
    assert "critical_success (success) if roll <= 4" in out
    code, out, _ = run(capsys, "show", "gurps-4e")
    assert code == 0 and "quick_contest (contest of success_roll)" in out


def test_export_is_canonical_json_with_expressions_parsed(capsys):
    code, out, _ = run(capsys, "export", "gurps-4e")
    data = json.loads(out)
    chk = data["checks"]["success_roll"]
    assert code == 0
    assert chk["inputs"]["modifier"]["default"] == 0 and chk["inputs"]["skill"]["required"] is True
    assert chk["rolls"]["roll"]["ast"]["node"] == "Dice"
    assert chk["result"]["text"] == "effective - roll" and chk["result"]["names"] == ["effective", "roll"]


def test_roll_prints_a_readable_account(capsys):
    code, out, _ = run(capsys, "roll", "gurps-4e", "success_roll", "skill=12", "--faces", "3,4,5")
    assert code == 0
    assert "roll: 3d6 → [3, 4, 5] = 12" in out
    assert "outcome: success (a success)" in out and "result: 0" in out


def test_roll_json_has_the_contract_keys(capsys):
    code, out, _ = run(capsys, "roll", "gurps-4e", "success_roll", "skill=12", "--seed", "4", "--json")
    data = json.loads(out)
    assert {"ruleset", "check", "inputs", "dice", "result", "outcome", "success", "tags", "trace"} <= set(data)


def test_odds_json_has_the_contract_keys(capsys):
    code, out, _ = run(capsys, "odds", "gurps-4e", "success_roll", "skill=12", "--json")
    data = json.loads(out)
    assert {"ruleset", "check", "inputs", "outcomes", "success", "result", "truncated"} <= set(data)
    assert data["success"]["exact"] == "20/27"
    assert {"name", "success", "probability", "exact"} == set(data["outcomes"][0])


def test_odds_sweep_prints_one_row_per_value(capsys):
    code, out, _ = run(capsys, "odds", "gurps-4e", "success_roll", "skill=3..20")
    lines = out.strip().splitlines()
    assert code == 0 and len(lines) == 19
    assert lines[0].split()[:2] == ["skill", "P(success)"]
    assert lines[-1].split()[:2] == ["20", "98.1%"]
    code, out, _ = run(capsys, "odds", "gurps-4e", "success_roll", "skill=10..12", "--csv")
    assert out.splitlines()[1].startswith("10,0.5")


def test_a_list_of_choices_that_read_as_dice_sweeps_the_choice(capsys, tmp_path):
    """``die=d4,d6`` for a choice input whose choices are d4 and d6 is a list of two of them
    (an outside author: it was one dice pool, "not one of its choices"); for a dice pool it
    stays one pool of two dice."""
    path = tmp_path / "weapons.yaml"
    path.write_text("""\
ruleset: weapons
name: Weapons
version: "1"
source: tests
checks:
  damage:
    inputs:
      die: {type: choice, choices: [d4, d6]}
    roll: if(die == 'd4', 1d4, 1d6)
    result: roll
    outcomes:
      - {name: high, when: "result >= 4", success: true}
      - {name: low, success: false}
  pool:
    inputs:
      dice: {type: dice_pool}
    roll: dice
    result: roll
    outcomes:
      - {name: high, when: "result >= 4", success: true}
      - {name: low, success: false}
""", encoding="utf-8")
    code, out, err = run(capsys, "odds", path, "damage", "die=d4,d6", "--csv")
    assert code == 0, err
    assert [line.split(",")[:2] for line in out.splitlines()[1:]] == [["d4", "0.250000"], ["d6", "0.500000"]]
    code, out, err = run(capsys, "odds", path, "pool", "dice=d4,d6")
    assert code == 0 and "dice=d6/d4" in out, err  # one pool of two dice


RPS = (ROOT / "rulesets" / "rps.yaml").read_text(encoding="utf-8")
SLOW_TASK = {"goal": "5", "attribute": "0", "other_modifier": "-40", "retry": "-5"}  # rarely done: many states


def _sweep_rounds(text: str, max_sweep_states: int):
    import dataclasses

    from rulesengine import DEFAULT_LIMITS
    from rulesengine.run.sweep import sweep
    from rulesengine.ruleset import loads

    limits = dataclasses.replace(DEFAULT_LIMITS, max_sweep_states=max_sweep_states)
    rs = loads(RPS, limits=limits)  # fresh: no cached odds
    return rs, sweep(rs.procedure("sustained_attribute"), {**SLOW_TASK, "max_rounds": text}, {})


def test_a_sweep_shares_one_work_budget_between_its_values():
    """Each value of a sweep fits in max_states on its own, but all of them together get one
    max_sweep_states budget: the sweep stops with a LimitError naming it, at the same value
    every time (work is counted in steps, not seconds)."""
    from rulesengine.errors import LimitError

    rs, one = _sweep_rounds("110..110", 300_000)  # 110 rounds alone: ~200,000 steps
    assert len(one.rows) == 1
    stops = []
    for _ in range(2):
        with pytest.raises(LimitError) as info:
            _sweep_rounds("100..110", 300_000)
        err = info.value
        assert err.limit == "max_sweep_states" and err.code == "E210" and err.hint == "sweep fewer values"
        assert err.message.startswith("a sweep of 11 values is too big to work out exactly")
        stops.append(err.message)
    assert stops[0] == stops[1] and "(stopped at max_rounds=101)" in stops[0]


def test_a_sweep_refused_for_its_values_together_says_what_max_states_gives_a_sweep(capsys):
    """On the command line, the hint names the option and what it gives a sweep (an outside
    author read "sweep fewer values" alone, not that --max-states raises the sweep's budget)."""
    from rulesengine.cli import main

    words = [f"{k}={v}" for k, v in SLOW_TASK.items()]
    code = main(["odds", "rps", "sustained_attribute", *words, "max_rounds=901..1000", "--json"])
    err = json.loads(capsys.readouterr().err)
    assert code == 1 and err["limit"] == "max_sweep_states"
    assert err["hint"] == ("sweep fewer values; or allow more work: --max-states N gives each value N and the "
                           "sweep 10 × N (now 2,000,000 each)")


def test_a_sweep_within_the_budget_gives_the_odds_of_each_value():
    rs, swept = _sweep_rounds("20..22", 300_000)
    proc = rs.procedure("sustained_attribute")
    assert [values for values, _ in swept.rows] == [(20,), (21,), (22,)]
    for (rounds,), odds in swept.rows:
        assert odds == proc.odds({**SLOW_TASK, "max_rounds": str(rounds)})


def test_a_sweep_never_works_past_its_budget():
    """Everything the odds of a sweep work out is charged to the sweep's one budget (measured
    here by an outer shared budget, which the sweep's own budget charges in turn)."""
    from rulesengine.dice.dist import shared_budget
    from rulesengine.errors import LimitError

    with shared_budget(10**12) as outer:
        with pytest.raises(LimitError):
            _sweep_rounds("100..110", 300_000)
    assert 200_000 < outer.used <= 300_000


DEEP = """\
ruleset: deep
name: The deepest expressions the limits admit
version: "1"
source: {{title: tests}}
checks:
  pile:
    inputs:
      b: {{type: integer, default: 0}}
    roll: "{roll}"
    result: "{result}"
    outcomes:
      - {{name: high, success: true, when: result >= 1000}}
      - {{name: low, success: false}}
""".format(roll="1d6+" * 249 + "1d6", result="roll" + "+b" * 255)


def test_a_ruleset_with_the_deepest_expressions_the_limits_admit_works_in_every_command(capsys, tmp_path):
    """A flat sum of 250 dice, and a result 256 levels deep counting each operator of its
    chain: validated, shown, exported, rolled and its odds worked out, without a crash."""
    path = tmp_path / "deep.yaml"
    path.write_text(DEEP, encoding="utf-8")
    for argv in (["validate", path], ["show", path, "pile"], ["export", path],
                 ["roll", path, "pile", "b=1", "--seed", "1"], ["odds", path, "pile", "b=1", "--json"]):
        code, out, err = run(capsys, *argv)
        assert code == 0 and "error" not in err, (argv, err)
    exact = dice.odds("250d6 >= 745").probability(True)  # 250d6 + 255 x 1 >= 1000
    assert json.loads(out)["success"]["exact"] == f"{exact.numerator}/{exact.denominator}"


def test_a_limit_a_procedure_hits_is_reported_at_its_place_in_the_file(capsys):
    code, _, err = run(capsys, "odds", ROOT / "rulesets" / "rps.yaml", "sustained", "goal=100", "skill=0",
                       "attribute=0", "max_rounds=1000")
    line = next(i for i, text in enumerate(RPS.splitlines(), 1) if text == "  sustained:")
    assert code == 1 and f"rps.yaml:{line}:3: error[E210]: extended check 'sustained' over 1000 rounds" in err, err
    assert "  sustained:\n    ^^^^^^^^^" in err and "hint: use fewer rounds or a smaller goal" in err


def test_contest_inputs_per_party(capsys):
    code, out, _ = run(capsys, "odds", "gurps-4e", "regular_contest", "party1.skill=12", "party2.skill=10")
    assert code == 0 and "party1_wins  20/27" in out


@pytest.mark.parametrize("argv,code,needle", [
    (["roll", "gurps-4e", "success_roll", "skill=abc"], 1, "skill='abc' is not a whole number"),
    (["roll", "gurps-4e", "success_roll", "skil=12"], 1, "did you mean 'skill'?"),
    (["roll", "gurps-4e", "success_roll"], 1, "missing input 'skill'"),
    (["roll", "gurps-4e", "success_roll", "skill=999"], 1, "above its maximum 60"),
    (["roll", "gurps-4e", "success_rol", "skill=1"], 1, "did you mean 'success_roll'?"),
    (["roll", "gurps-5e", "success_roll"], 1, "did you mean 'gurps-4e'?"),
    (["roll", "gurps-4e", "success_roll", "skill=12", "--faces", "1,2"], 1, "only 2 faces given"),
    (["roll", "gurps-4e", "success_roll", "skill=12", "--seed", "x"], 2, "invalid seed"),
    (["roll", "gurps-4e", "success_roll", "skill"], 2, "expected name=value"),
    (["odds", "gurps-4e", "success_roll", "skill=9..3"], 2, "LO is above HI"),
    (["odds", "gurps-4e", "success_roll", "skill=1..a"], 2, "a sweep is LO..HI"),
    (["odds", "cyberpunk-3d6", "skill_test", "characteristic=6", "skill=5", "dn=easy..hard"], 2,
     "listed, each: dn=easy,hard, with any between"),
    (["odds", "cyberpunk-3d6", "skill_test", "characteristic=1..2", "skill=1..2", "dn=easy,hard"], 2,
     "characteristic, skill, dn are swept"),
    (["odds", "gurps-4e", "quick_contest", "party1.skill=12"], 1, "needs 2 parties"),
    (["odds", "rps", "sustained", "party1.goal=10", "party1.skill=8", "party1.attribute=6"], 1,
     "'sustained' is an extended check: it takes its inputs without a party's prefix"),
    (["roll", "rps", "sustained", "goal=10", "skill=8", "attribute=6", "party1.goal=10"], 1, "without 'party1.'"),
    (["roll", "gurps-4e", "quick_contest", "party0.skill=12"], 2, "numbered from 1"),
])
def test_bad_arguments_get_one_clear_error(capsys, argv, code, needle):
    got, out, err = run(capsys, *argv)
    assert got == code and needle in err
    assert "Traceback" not in err


LABELLED_DICE = """\
ruleset: labelled
name: Labelled dice
version: "1"
source: test
tables:
  trait:
    ladder: {d4: 4, d6: 6, d8: 8}
checks:
  trait:
    inputs:
      die: {type: integer, min: 4, max: 8, labels: trait}
    roll: 1d(die)
    result: roll
    outcomes:
      - {name: hit, when: "result >= 4", success: true}
      - {name: miss, success: false}
"""


def test_labels_that_read_as_dice_are_swept_by_their_numbers(capsys, tmp_path):
    """``die=d4,d8`` reads as one dice pool (a comma joins a pool's dice), and ``die=d4..d8``
    is no range of numbers: both say the numbers to sweep (found by an outside author, whom
    the hint sent from the one to the other)."""
    path = tmp_path / "labelled.yaml"
    path.write_text(LABELLED_DICE, encoding="utf-8")
    code, _, err = run(capsys, "odds", str(path), "trait", "die=d4,d8")
    assert code == 1 and "reads as one dice pool" in err and "die=4,8" in err, err
    code, _, err = run(capsys, "odds", str(path), "trait", "die=d4..d8")
    assert code == 2 and "labels that read as dice are swept by their numbers" in err, err
    code, out, _ = run(capsys, "odds", str(path), "trait", "die=4,8", "--json")
    assert code == 0 and [str(row["sweep"]["die"]) for row in json.loads(out)] == ["4", "8"]


def test_loading_a_ruleset_that_hits_a_limit_says_which_limit(tmp_path):
    from rulesengine.errors import RulesetError
    from rulesengine.ruleset import load

    path = tmp_path / "many-dice.yaml"
    path.write_text(DEEP.replace("1d6+" * 249 + "1d6", "20000d6"), encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load(str(path))
    assert info.value.limit == "max_dice"
    assert (info.value.location.line, info.value.location.column) == (9, 12)


def test_a_refusal_over_the_work_budget_names_the_option_that_raises_it(capsys):
    """An author of L5R's 10k9 was refused (E210) and found --max-states only in
    docs/limits.md: the hint of a command that takes the option names it and the budget
    in force, in text and in JSON."""
    code, _, err = run(capsys, "dice", "100d100kh50", "--odds", "--max-states", "5000")
    assert code != 0 and "E210" in err
    assert "or allow more work: --max-states N (now 5,000;" in err
    code, _, err = run(capsys, "dice", "100d100kh50", "--odds", "--json")
    assert "--max-states N (now 2,000,000;" in json.loads(err)["hint"]


def test_a_sweep_row_a_gate_decides_shows_its_outcome(capsys):
    """A row whose inputs a gate turns away shows `not_allowed`, even where the first row
    has no such column (the table took its columns from the first row: the gated row read
    0% for every outcome and 100% failure; found by an outside author)."""
    words = ["odds", "cyberpunk-3d6", "skill_test", "characteristic=6", "skill=1,0", "dn=average",
             "unskilled_allowed=false"]
    code, out, _ = run(capsys, *words, "--csv")  # the columns the table shows, in any layout
    header, first, gated = (line.split(",") for line in out.splitlines()[:3])
    assert code == 0 and "not_allowed" in header
    column = header.index("not_allowed")
    assert float(first[column]) == 0 and float(gated[column]) == 1
    assert gated[header.index("mean result")] == ""  # a row with no result has no mean
    code, out, _ = run(capsys, *words)  # too wide for a table: a block for each value
    assert code == 0 and "not_allowed 100.0%" in out.split("skill=0:")[1] and "mean result -" in out


EXPLODING = """\
ruleset: exploding
name: Exploding
version: "1"
source: test
checks:
  trait:
    roll: 1d4!
    result: roll
    outcomes:
      - {name: success, when: "result >= 6", success: true}
      - {name: failure, success: false}
"""


def test_the_outcome_table_says_what_explosions_cut(capsys, tmp_path):
    """At depth 0 every 4 of a d4! is cut (1/4), which leaves 6 or more open: the outcome
    table says so in a row of its own, beside the rows it leaves short (it was said only
    below the result's table)."""
    path = tmp_path / "exploding.yaml"
    path.write_text(EXPLODING, encoding="utf-8")
    code, out, _ = run(capsys, "odds", str(path), "trait", "--explode-depth", "0")
    rows = {line.split()[0]: line.split()[1] for line in out.splitlines()[1:5]}
    assert code == 0 and rows == {"outcome": "exact", "success": "0/1", "failure": "3/4", "(cut": "off)"}, out
    assert "(cut off)     1/4    25.00  (explosions past the depth" in out
