"""A chance that is not 0 or 1 never reads as one in the text tables (an outside author: a
sweep's 100.0% for a 15-dice pool whose botch is 0.05%): ``>99.9%`` and ``<0.1%`` in a
sweep's cells, ``>99.99`` in the table of one set of inputs."""

from __future__ import annotations

from fractions import Fraction

from rulesengine.cli import main

NEAR_SURE = """\
ruleset: near-sure
name: Nearly sure
version: "1"
source: tests
checks:
  hit:
    inputs:
      bonus: {type: integer, min: 0, max: 1}
    roll: 1d10000
    result: roll + bonus
    outcomes:
      - {name: hit, when: "result >= 2", success: true}
      - {name: miss, success: false}
  pair:
    roll: 2d1000
    result: roll
    outcomes:
      - {name: hit, when: "result >= 3", success: true}
      - {name: miss, success: false}
"""


def _out(capsys, tmp_path, *words: str) -> str:
    path = tmp_path / "near.yaml"
    path.write_text(NEAR_SURE, encoding="utf-8")
    assert main(["odds", str(path), *words]) == 0
    return capsys.readouterr().out


def test_a_sweep_cell_short_of_sure_reads_more_than_99_9_and_one_above_nothing_less_than_0_1(capsys, tmp_path):
    header, short, sure = _out(capsys, tmp_path, "hit", "bonus=0..1").splitlines()[:3]
    assert header.split()[:4] == ["bonus", "P(success)", "hit", "miss"]
    # bonus 0: a hit on 2 to 10,000 (9,999 in 10,000), a miss on 1; bonus 1: every face hits
    assert Fraction(9999, 10000) * 1000 > 999.5  # what rounds to 100.0 at a tenth of a percent
    assert short.split()[1:4] == [">99.9%", ">99.9%", "<0.1%"]
    assert sure.split()[1:4] == ["100.0%", "100.0%", "0.0%"]


def test_the_table_of_one_set_of_inputs_says_more_than_99_99_where_a_miss_remains(capsys, tmp_path):
    out = _out(capsys, tmp_path, "pair")
    # a miss only on 1 + 1: 1 in 1,000,000, so a hit is 99.9999 %, which two decimals show as 100.00
    hit = next(line for line in out.splitlines() if line.startswith("hit"))
    assert ">99.99" in hit.split() and "100.00" not in hit
