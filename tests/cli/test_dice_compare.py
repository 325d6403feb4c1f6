"""`rulesengine dice --odds A B C`: several expressions in one table, a row for each value and
a column for each expression, in the normal, "at least" and "at most" views, as text, CSV and
JSON (issue 35). Every figure comes from brute-force enumeration (itertools.product)."""

from __future__ import annotations

import csv
import io
import json
import math
from collections import Counter
from fractions import Fraction
from itertools import product
from pathlib import Path

import jsonschema
import pytest

from rulesengine.cli import main

CASES = ("3d6", "4d6kh3", "2d10")
SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "schemas" / "dice-odds-result.schema.json")
                    .read_text(encoding="utf-8"))


def enumerate_dist(sides: int, n: int, total) -> dict[int, Fraction]:
    """The distribution of ``total(faces)`` over every way ``n`` dice of ``sides`` faces fall."""
    counts = Counter(total(f) for f in product(range(1, sides + 1), repeat=n))
    ways = sides ** n
    return {v: Fraction(c, ways) for v, c in sorted(counts.items())}


ORACLE = {
    "3d6": enumerate_dist(6, 3, sum),
    "4d6kh3": enumerate_dist(6, 4, lambda f: sum(sorted(f)[1:])),
    "2d10": enumerate_dist(10, 2, sum),
}
VALUES = range(2, 21)  # every value any of the three can take


def at_least(dist: dict[int, Fraction], v: int) -> Fraction:
    return sum((p for x, p in dist.items() if x >= v), Fraction(0))


def at_most(dist: dict[int, Fraction], v: int) -> Fraction:
    return sum((p for x, p in dist.items() if x <= v), Fraction(0))


VIEWS = {"normal": lambda d, v: d.get(v), "at_least": at_least, "at_most": at_most}


def stats(dist: dict[int, Fraction]) -> tuple[Fraction, float, int, int]:
    mean = sum(v * p for v, p in dist.items())
    variance = sum((v - mean) ** 2 * p for v, p in dist.items())
    return mean, math.sqrt(variance), min(dist), max(dist)


def run(capsys, *flags: str) -> tuple[int, str, str]:
    code = main(["dice", "--odds", *CASES, *flags])
    out, err = capsys.readouterr()
    return code, out, err


def percent(p: Fraction | None) -> str:
    return "-" if p is None else f"{float(p * 100):.2f}"


@pytest.mark.parametrize("flag,view", [((), "normal"), (("--at-least",), "at_least"), (("--at-most",), "at_most")])
def test_several_expressions_are_one_table_a_row_per_value_and_a_column_per_expression(capsys, flag, view):
    code, out, err = run(capsys, *flag)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[1].split() == ["value", *CASES]
    rows = {line.split()[0]: line.split()[1:] for line in lines[2:]}
    assert [k for k in rows if k.lstrip("-").isdigit()] == [str(v) for v in VALUES]
    for v in VALUES:
        assert rows[str(v)] == [percent(VIEWS[view](ORACLE[c], v)) for c in CASES], v
    for name, i in (("mean", 0), ("sd", 1)):
        assert rows[name] == [f"{float(stats(ORACLE[c])[i]):.4g}" for c in CASES]
    assert rows["min"] == [str(stats(ORACLE[c])[2]) for c in CASES]
    assert rows["max"] == [str(stats(ORACLE[c])[3]) for c in CASES]
    assert max(len(line) for line in lines) <= 100


def test_the_columns_line_up(capsys):
    _, out, _ = run(capsys)
    lines = out.splitlines()[1:]
    assert len({len(line) for line in lines}) == 1  # every cell right-aligned to its column's width


@pytest.mark.parametrize("flag,view", [((), "normal"), (("--at-least",), "at_least"), (("--at-most",), "at_most")])
def test_csv_carries_the_same_numbers_as_floats(capsys, flag, view):
    code, out, _ = run(capsys, "--csv", *flag)
    rows = list(csv.reader(io.StringIO(out)))
    assert code == 0 and rows[0] == ["value", *CASES]
    body = {r[0]: r[1:] for r in rows[1:]}
    for v in VALUES:
        want = [VIEWS[view](ORACLE[c], v) for c in CASES]
        assert body[str(v)] == ["" if p is None else repr(float(p)) for p in want], v
    assert [float(x) for x in body["mean"]] == [float(stats(ORACLE[c])[0]) for c in CASES]
    assert [int(x) for x in body["max"]] == [stats(ORACLE[c])[3] for c in CASES]


def test_json_is_each_expressions_odds_object_plus_the_shared_rows(capsys):
    code, out, _ = run(capsys, "--json")
    data = json.loads(out)
    assert code == 0
    jsonschema.validate(data, SCHEMA)
    one = {**SCHEMA, "$ref": "#/$defs/one"}
    one.pop("oneOf")
    assert data["cases"] == list(CASES)
    for case, column in zip(CASES, data["columns"], strict=True):
        jsonschema.validate(column, one)  # each column is what `dice CASE --odds --json` writes
        assert column["case"] == case
        assert {r["value"]: Fraction(r["exact"]) for r in column["distribution"]} == ORACLE[case]
        assert main(["dice", case, "--odds", "--json"]) == 0
        alone = json.loads(capsys.readouterr().out)
        assert {k: v for k, v in column.items() if k != "case"} == alone
    assert [r["value"] for r in data["rows"]] == list(VALUES)
    for r in data["rows"]:
        for view, key in (("normal", "probability"), ("at_least", "at_least"), ("at_most", "at_most")):
            want = [VIEWS[view](ORACLE[c], r["value"]) for c in CASES]
            assert r[key] == [None if p is None else pytest.approx(float(p), abs=1e-15) for p in want]
    assert data["stats"]["mean"] == [pytest.approx(float(stats(ORACLE[c])[0])) for c in CASES]
    assert data["stats"]["min"] == [stats(ORACLE[c])[2] for c in CASES]


def test_one_expression_prints_as_it_always_has(capsys):
    """Issue 35 keeps a single expression's table and JSON; --csv gives it as one column."""
    assert main(["dice", "3d6", "--odds"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == ["value", "exact", "%", "at", "least", "at", "most"]
    assert main(["dice", "3d6", "--odds", "--csv"]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert rows[0] == ["value", "3d6"]
    assert {int(r[0]): r[1] for r in rows[1:17]} == {v: repr(float(p)) for v, p in ORACLE["3d6"].items()}


def test_the_tails_below_the_threshold_in_every_column_are_one_rest_row(capsys):
    """Rows where every column is under 0.005 % (or can't take the value), at either end, are
    one row with each column's total. Oracle: 10d6 as two enumerated 5d6 halves, 11d6 as that
    and one more die; 10 to 13 are under 0.005 % in both, 14 (715 ways of 6^10) is not."""
    five = Counter(sum(f) for f in product(range(1, 7), repeat=5))
    ten: Counter = Counter()
    for (a, x), (b, y) in product(five.items(), repeat=2):
        ten[a + b] += x * y
    eleven: Counter = Counter()
    for (a, x), b in product(ten.items(), range(1, 7)):
        eleven[a + b] += x
    assert [ten[t] for t in range(10, 15)] == [1, 10, 55, 220, 715]
    p10 = {t: Fraction(c, 6 ** 10) for t, c in ten.items()}
    p11 = {t: Fraction(c, 6 ** 11) for t, c in eleven.items()}
    below = Fraction(5, 100_000)
    first_shown = next(t for t in range(10, 67) if p10.get(t, 0) >= below or p11.get(t, 0) >= below)
    assert main(["dice", "--odds", "10d6", "11d6"]) == 0
    rows = capsys.readouterr().out.splitlines()[2:]
    low10 = sum((p10.get(t, 0) for t in range(10, first_shown)), Fraction(0))
    low11 = sum((p11.get(t, 0) for t in range(10, first_shown)), Fraction(0))
    assert rows[0].split()[:2] == [f"10..{first_shown - 1}", "rest"]
    assert rows[0].split()[2:] == [f"{float(p * 100):.2f}" if p * 100 >= Fraction(1, 200) else f"~{float(p * 100):.1e}"
                                   for p in (low10, low11)]
    assert rows[1].split()[0] == str(first_shown)


@pytest.mark.parametrize("argv,needle", [
    (["dice", "3d6", "--odds", "--at-least"], "--at-least is for comparing expressions"),
    (["dice", "3d6", "--csv"], "--csv is for --odds"),
    (["dice", "1d20 + b", "b=0..2", "--odds", "--csv"], "not for a sweep"),
    (["dice", "3d6", "2d6", "--odds", "--at-least", "--at-most"], "not allowed with argument"),
])
def test_table_options_where_they_change_nothing_are_refused_with_a_hint(capsys, argv, needle):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert needle in err.strip().splitlines()[-1]


def test_an_expression_with_an_equals_sign_is_compared_not_taken_for_a_name(capsys):
    """``"d20 >= 10"`` after the first expression was read as the name ``d20 >`` given 10 and
    left out of the table without a word; only ``name=value`` words give names values."""
    assert main(["dice", "--odds", "--json", "1d6", "d20 >= 10", "x==3", "x=3"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["cases"] == ["1d6", "d20 >= 10", "x==3"]
    p_true = {c["case"]: c["stats"].get("p_true_exact") for c in data["columns"]}
    assert Fraction(p_true["d20 >= 10"]) == Fraction(sum(f >= 10 for f in range(1, 21)), 20)
    assert Fraction(p_true["x==3"]) == 1
