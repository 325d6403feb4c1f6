"""``odds RULESET CHECK … --csv`` for one set of inputs: every figure the text table shows,
one a row (an outside author: it had the outcomes and the result, and left out the chance
of success, the tags and the reported values the JSON has)."""

from __future__ import annotations

import csv
import io
import itertools
from fractions import Fraction

from rulesengine.cli import main

DAMAGE = """\
ruleset: damage
name: Damage dice
version: "1"
source: tests
checks:
  damage:
    inputs:
      defense: {type: integer, min: 0, max: 12}
    roll: 3d6
    let:
      body: count(roll, 2, 5) + 2 * count(roll, 6)
    result: roll
    outcomes:
      - {name: wounds, when: "body > defense", success: true}
      - {name: none, success: false}
    tags:
      - {name: stunned, when: "roll >= 15"}
    report: [body]
  exploding:
    roll: 1d6!
    result: roll
    outcomes:
      - {name: high, when: "result >= 4", success: true}
      - {name: low, success: false}
  twenty:
    roll: 1d6!
    result: roll
    outcomes:
      - {name: twenty, when: "result == 20", success: true}
      - {name: other, success: false}
"""


def _csv(capsys, tmp_path, *words: str) -> list[list[str]]:
    path = tmp_path / "damage.yaml"
    path.write_text(DAMAGE, encoding="utf-8")
    assert main(["odds", str(path), *words, "--csv"]) == 0
    return list(csv.reader(io.StringIO(capsys.readouterr().out)))


def _figures(rows: list[list[str]], kind: str) -> dict[str, Fraction]:
    return {name: Fraction(exact) for k, name, exact, _ in rows if k == kind}


def test_the_csv_of_one_check_holds_success_tags_and_reported_values_each_against_every_throw(capsys, tmp_path):
    rows = _csv(capsys, tmp_path, "damage", "defense=4")
    assert rows[0] == ["kind", "name", "exact", "probability"]
    throws = list(itertools.product(range(1, 7), repeat=3))

    def chance(holds) -> Fraction:
        return Fraction(sum(1 for t in throws if holds(t)), len(throws))

    def body(t: tuple[int, ...]) -> int:
        return sum(1 if 2 <= f <= 5 else 2 if f == 6 else 0 for f in t)

    assert _figures(rows, "outcome") == {"wounds": chance(lambda t: body(t) > 4), "none": chance(lambda t: body(t) <= 4)}
    assert _figures(rows, "success") == {"P(success)": chance(lambda t: body(t) > 4)}
    assert _figures(rows, "tag") == {"stunned": chance(lambda t: sum(t) >= 15)}
    assert _figures(rows, "value:body") == {str(b): chance(lambda t, b=b: body(t) == b) for b in range(7)}
    assert _figures(rows, "result") == {str(s): chance(lambda t, s=s: sum(t) == s) for s in range(3, 19)}
    assert not _figures(rows, "truncated")  # nothing is cut: no such row
    for _, _, exact, probability in rows[1:]:
        assert float(Fraction(exact)) == float(probability)


def test_the_csv_says_what_explosions_cut_so_the_rows_it_reaches_read_as_bounds(capsys, tmp_path):
    cut = Fraction(1, 6 ** 3)  # three 6s in a row: the third would explode past the depth
    # high: a first face 4 or 5, or a 6 (every chain from a 6 is 6 or more): the cut chains
    # are high too, so the outcomes are exact; the cut mass is cut from the result alone
    rows = _csv(capsys, tmp_path, "exploding", "--explode-depth", "2")
    assert _figures(rows, "truncated") == {"result": cut}
    # every cut chain is 18 or more (6 + 6 + 6 and more to come): each result below is exact
    assert [r[2] for r in rows if r[0] == "cut_from"] == ["18"]
    assert _figures(rows, "outcome") == {"high": Fraction(1, 2), "low": Fraction(1, 2)}
    # 20 is 6 + 6 + 6 + 2: a cut chain (18 and more to come) may be 20 or not: open
    rows = _csv(capsys, tmp_path, "twenty", "--explode-depth", "2")
    assert _figures(rows, "truncated") == {"outcomes": cut, "result": cut}
    assert _figures(rows, "outcome") == {"twenty": Fraction(0), "other": 1 - cut}
