"""A sweep printed to a terminal ends with a small bar chart (issue 35): a bar per swept
value, in eighths of a cell, of the chance it shows (an ``--at-least`` asked, else P(success)
where it changes, else the result's mean). Bar lengths are checked against brute force; the
chart is left out of pipes, CSV and two-input grids."""

from __future__ import annotations

import io
import itertools
import sys
from fractions import Fraction

import pytest

from rulesengine.cli import main

WIDTH = 40  # cells of the longest bar


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def on_a_terminal(monkeypatch, *words: str) -> str:
    out = Terminal()
    monkeypatch.setattr(sys, "stdout", out)
    assert main(list(words)) == 0
    return out.getvalue()


def chart_lines(text: str, heading: str) -> list[str]:
    lines = text.splitlines()
    start = lines.index(heading)
    return lines[start + 1:]


def eighths(line: str) -> int:
    """The length of a bar in eighths of a cell."""
    partial = " ▏▎▍▌▋▊▉"
    bar = line.split("  ")[1] if "  " in line else ""
    return sum(8 if ch == "█" else partial.index(ch) for ch in bar if ch in "█" + partial.strip())


def gurps_success(skill: int) -> Fraction:
    """GURPS 4e success roll by brute force: 3d6 <= skill, 3-4 always succeed, 17-18 always fail."""
    rolls = [sum(f) for f in itertools.product(range(1, 7), repeat=3)]
    return Fraction(sum(1 for r in rolls if r <= 4 or (r <= skill and r <= 16)), 216)


def test_a_sweep_on_a_terminal_ends_with_a_bar_per_value_of_its_chance_of_success(monkeypatch):
    text = on_a_terminal(monkeypatch, "odds", "gurps-4e", "success_roll", "skill=3..18")
    rows = chart_lines(text, "P(success) by skill")
    assert len(rows) == 16
    for skill, line in zip(range(3, 19), rows, strict=True):
        assert line.split()[0] == str(skill)
        assert eighths(line) == round(gurps_success(skill) * WIDTH * 8)
        assert line.endswith(f"{float(gurps_success(skill)) * 100:.1f}%")


def test_a_damage_sweep_charts_the_at_least_asked_or_else_the_mean(monkeypatch):
    def at_least_10(dice: int) -> Fraction:
        rolls = [sum(f) for f in itertools.product(range(1, 7), repeat=dice)]
        return Fraction(sum(1 for r in rolls if r >= 10), len(rolls))

    text = on_a_terminal(monkeypatch, "odds", "dnd-5e-srd", "damage", "dice=1..4", "die=6", "--at-least", "10")
    rows = chart_lines(text, "result >= 10 by dice")
    assert [eighths(r) for r in rows] == [round(at_least_10(d) * WIDTH * 8) for d in range(1, 5)]
    text = on_a_terminal(monkeypatch, "odds", "dnd-5e-srd", "damage", "dice=1..4", "die=6")
    rows = chart_lines(text, "mean result by dice")
    means = [Fraction(7, 2) * d for d in range(1, 5)]  # the mean of a d6 is 7/2
    assert [eighths(r) for r in rows] == [round(m / means[-1] * WIDTH * 8) for m in means]


@pytest.mark.parametrize("words", [
    ["odds", "gurps-4e", "success_roll", "skill=3..18", "--csv"],
    ["odds", "dnd-5e-srd", "damage", "dice=1..2", "die=4,6"],
])
def test_no_chart_in_csv_or_for_two_swept_inputs(monkeypatch, words):
    assert not set(on_a_terminal(monkeypatch, *words)) & set("█▏▎▍▌▋▊▉")


def test_no_chart_when_the_output_is_not_a_terminal(capsys):
    assert main(["odds", "gurps-4e", "success_roll", "skill=3..18"]) == 0
    assert "█" not in capsys.readouterr().out
