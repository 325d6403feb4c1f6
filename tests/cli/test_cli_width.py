"""Human output stays readable (issue 15): no line of the tables people read is wider than
100 columns, however long the exact fractions (they are in --json, or with --exact)."""

from __future__ import annotations

import pytest

from rulesengine.cli import main

COMMANDS = [
    ["odds", "rps", "sustained", "goal=20", "skill=8", "attribute=6"],
    ["odds", "gurps-4e", "success_roll", "skill=12", "--given", "success"],
    ["odds", "cyberpunk-3d6", "skill_test", "characteristic=6", "skill=5", "dn=average"],
    ["odds", "rps", "skill_check", "skill=3..20", "attribute=6"],
    ["dice", "1d6!", "--odds"],
    ["dice", "10d10cs>=8", "--odds"],
    ["list"],
]


@pytest.mark.parametrize("argv", COMMANDS, ids=[" ".join(a[:3]) for a in COMMANDS])
def test_no_line_of_human_output_is_wider_than_100_columns(capsys, argv):
    assert main(argv) == 0
    out = capsys.readouterr().out
    wide = [line for line in out.splitlines() if len(line) > 100]
    assert not wide, wide[:3]


def test_long_exact_fractions_are_left_to_json_or_exact(capsys):
    argv = ["odds", "rps", "sustained", "goal=20", "skill=8", "attribute=6"]
    assert main(argv) == 0
    assert "(long)" in capsys.readouterr().out
    assert main(argv + ["--exact"]) == 0
    assert "(long)" not in capsys.readouterr().out
