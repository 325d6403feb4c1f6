"""A sweep of a check whose explosions the depth cuts says so in its text, as the table of
one set of inputs does (an outside author: a sweep at ``--explode-depth 1`` showed its
success as 58.0% with nothing to say it was at least that, 1% of each row being cut)."""

from __future__ import annotations

import csv
import io
from fractions import Fraction

from rulesengine.cli import main

EXPLODING = """\
ruleset: cut-sweep
name: A sweep cut by the depth
version: "1"
source: tests
checks:
  thirteen:
    inputs:
      bonus: {type: integer, min: 0, max: 3}
    roll: 1d6!
    result: roll * roll + bonus
    outcomes:
      - {name: thirteen, when: "roll == 13", success: true}
      - {name: other, success: false}
  plain:
    inputs:
      bonus: {type: integer, min: 0, max: 3}
    roll: 1d6
    result: roll + bonus
    outcomes:
      - {name: high, when: "result >= 6", success: true}
      - {name: low, success: false}
"""


def _run(capsys, tmp_path, *words: str) -> str:
    path = tmp_path / "cut.yaml"
    path.write_text(EXPLODING, encoding="utf-8")
    assert main(["odds", str(path), *words]) == 0
    return capsys.readouterr().out


def _chains() -> tuple[dict[int, Fraction], Fraction]:
    """1d6! at depth 1 (a 6 rolls one more die; a second 6 would roll a third, past the
    depth): each total worked out with its chance, and the mass cut (6 then 6), whose total
    is 13 or more: 13 or not, so ``roll == 13`` is open there."""
    worked = {f: Fraction(1, 6) for f in range(1, 6)} | {6 + g: Fraction(1, 36) for g in range(1, 6)}
    return worked, Fraction(1, 36)


def test_a_sweep_shows_what_the_depth_cuts_in_a_column_and_says_the_rows_are_bounds(capsys, tmp_path):
    out = _run(capsys, tmp_path, "thirteen", "bonus=0..3", "--explode-depth", "1")
    header, *rows, note = out.splitlines()
    assert header.split() == ["bonus", "P(success)", "thirteen", "other", "(cut", "off)", "P(failure)", "mean",
                              "result"]
    worked, cut = _chains()
    mass = sum(worked.values())
    for bonus, line in zip(range(4), rows, strict=True):
        cells = line.split()
        other = sum(p for t, p in worked.items() if t != 13)
        mean = sum((t * t + bonus) * p for t, p in worked.items()) / mass  # of the mass worked out
        assert cells[2:5] == ["0.0%", f"{round(other * 1000) / 10:.1f}%", f"{round(cut * 1000) / 10:.1f}%"]
        assert cells[-1] == f"{float(mean):.2f}*"
    assert note.startswith("(cut off):") and "at least its chance" in note and "marked *" in note


def test_the_csv_of_such_a_sweep_has_a_truncated_column(capsys, tmp_path):
    out = _run(capsys, tmp_path, "thirteen", "bonus=0..3", "--explode-depth", "1", "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["truncated"] for r in rows] == [f"{float(_chains()[1]):.6f}"] * 4


def test_a_sweep_nothing_cuts_has_no_such_column_or_note(capsys, tmp_path):
    out = _run(capsys, tmp_path, "plain", "bonus=0..3")
    assert "(cut off)" not in out and "*" not in out
    assert len(out.splitlines()) == 5  # the header and a row for each bonus
