"""A sweep that stops at a value it can't work out (a limit, an input out of bounds) shows the
values worked out before it: the command line prints their rows, then the error (exit 1);
``--json`` prints the error alone, as before; the error keeps them (``partial``) for a
program. Each row's figures are checked against every throw of the dice."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest

from rulesengine import loads
from rulesengine.cli import main
from rulesengine.errors import LimitError
from rulesengine.limits import Limits
from rulesengine.run.sweep import Sweep, sweep

POOL = """\
ruleset: pool
name: Pool
version: "0.1"
source: a test
checks:
  pool:
    inputs:
      dice: {type: integer, min: 1, max: 12}
    roll: (dice)d6
    result: count(roll, 6) * 10 + count(roll, 1)
    outcomes:
      - {name: hit, when: "result >= 10", success: true}
      - {name: miss, success: false}
"""


def hit(dice: int) -> Fraction:
    """P(at least one 6 among ``dice`` d6), every throw listed."""
    throws = list(itertools.product(range(1, 7), repeat=dice))
    return Fraction(sum(6 in t for t in throws), len(throws))


@pytest.fixture
def path(tmp_path):
    p = tmp_path / "pool.yaml"
    p.write_text(POOL, encoding="utf-8")
    return str(p)


def test_the_rows_before_the_value_a_sweep_stops_at_are_printed_then_the_error(path, capsys):
    assert main(["odds", path, "pool", "dice=1..6", "--max-states", "100"]) == 1
    out, err = capsys.readouterr()
    rows = [line.split() for line in out.splitlines()[1:]]
    assert [r[0] for r in rows] == ["1", "2"]  # dice=3 is past 100 steps
    assert [r[1] for r in rows] == [f"{float(hit(n)) * 100:.1f}%" for n in (1, 2)]
    assert "at dice=3:" in err and "E210" in err


def test_a_csv_sweep_that_stops_prints_its_rows_as_csv(path, capsys):
    assert main(["odds", path, "pool", "dice=1..6", "--max-states", "100", "--csv"]) == 1
    out, _ = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0].startswith("dice,") and [line.split(",")[0] for line in lines[1:]] == ["1", "2"]


def test_json_prints_the_error_alone(path, capsys):
    assert main(["odds", path, "pool", "dice=1..6", "--max-states", "100", "--json"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and json.loads(err)["code"] == "E210"


def test_the_error_keeps_the_values_worked_out_before_it():
    runnable = loads(POOL, "pool.yaml", Limits(max_states=100)).check("pool")
    with pytest.raises(LimitError) as info:
        sweep(runnable, {"dice": "1..6"}, {})
    done = info.value.partial
    assert isinstance(done, Sweep) and [values for values, _ in done.rows] == [(1,), (2,)]
    assert [odds.success for _, odds in done.rows] == [hit(1), hit(2)]


def test_a_sweep_stopped_at_its_first_value_prints_no_rows(path, capsys):
    assert main(["odds", path, "pool", "dice=3..6", "--max-states", "100"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "at dice=3:" in err
