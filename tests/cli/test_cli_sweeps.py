"""Sweeps over lists, sweeps and comparisons in `dice` (issue 15), checked against brute force."""

from __future__ import annotations

import json
from fractions import Fraction

from rulesengine.cli import main
from rulesengine.ruleset import load


def test_an_odds_sweep_over_a_list_gives_one_row_per_value(capsys):
    assert main(["odds", "gurps-4e", "success_roll", "skill=8,12,16", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["sweep"] for r in rows] == [{"skill": "8"}, {"skill": "12"}, {"skill": "16"}]
    chk = load("gurps-4e").check("success_roll")
    for r in rows:
        assert Fraction(r["success"]["exact"]) == chk.odds({"skill": int(r["sweep"]["skill"])}).success


def test_a_list_sweep_takes_labels_too(capsys):
    assert main(["odds", "cyberpunk-3d6", "skill_test", "characteristic=6", "skill=5", "dn=easy,hard"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].split()[0] == "easy" and out[2].split()[0] == "hard"


def test_a_dice_pool_written_with_commas_is_one_value_not_a_sweep(capsys):
    assert main(["odds", "mudd", "action", "pool=d8,d4", "precision_target=5", "impact_target=2"]) == 0
    assert "pool=d8/d4" in capsys.readouterr().out


def test_dice_compares_several_expressions_side_by_side(capsys):
    assert main(["dice", "3d6", "2d10", "--odds", "--json"]) == 0
    cases = json.loads(capsys.readouterr().out)["columns"]  # one table since issue 35: the odds are its columns
    assert [c["case"] for c in cases] == ["3d6", "2d10"]
    assert Fraction(cases[0]["stats"]["mean_exact"]) == Fraction(21, 2)
    assert Fraction(cases[1]["stats"]["variance_exact"]) == Fraction(99, 6)  # 2 × (100 - 1) / 12


def test_dice_sweeps_one_name(capsys):
    assert main(["dice", "1d20 + bonus >= 15", "bonus=0..2", "--odds", "--json"]) == 0
    cases = json.loads(capsys.readouterr().out)
    assert [c["case"] for c in cases] == ["bonus=0", "bonus=1", "bonus=2"]
    assert [Fraction(c["stats"]["p_true_exact"]) for c in cases] == [Fraction(6 + b, 20) for b in range(3)]


def test_the_work_budget_and_explosion_depth_can_be_raised_up_to_a_ceiling(capsys):
    """Issue 15: a user may allow a bigger computation from the command line, never an
    unbounded one (MAX_STATES_CEILING, MAX_EXPLODE_DEPTH in docs/limits.md)."""
    assert main(["odds", "gurps-4e", "success_roll", "skill=12", "--max-states", "10"]) == 1
    assert "E210" in capsys.readouterr().err
    assert main(["odds", "gurps-4e", "success_roll", "skill=12", "--max-states", "5000000"]) == 0
    capsys.readouterr()
    assert main(["odds", "gurps-4e", "success_roll", "skill=12", "--max-states", "1000000000"]) == 2
    assert "at most 100,000,000" in capsys.readouterr().err
    assert main(["dice", "1d6!", "--odds", "--json", "--explode-depth", "3"]) == 0
    assert json.loads(capsys.readouterr().out)["explode_depth"] == 3
    assert main(["dice", "1d6!", "--odds", "--explode-depth", "5000"]) == 2
