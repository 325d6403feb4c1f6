"""Exact odds stay bounded and printable (issue 19, items 3, 4, 8, 9, 11).

Every assertion here counts something the engine counts (budget steps, cache entries,
bytes allocated as traced by ``tracemalloc``): the same on every machine, never a clock.
"""

from __future__ import annotations

import json
from fractions import Fraction

import jsonschema
import pytest

from rulesengine import dice
from rulesengine.cli import main
from rulesengine.exact_text import fraction_display, fraction_text
from rulesengine.limits import EXACT_DECIMAL_DIGITS


# ---- item 3: exact values longer than Python's int-to-text limit -------------------------

def test_an_exact_fraction_too_long_for_decimal_is_written_in_hexadecimal_and_stays_exact():
    p = Fraction(3**20000 - 1, 2**40000)
    text = fraction_text(p)
    num, den = text.split("/")
    assert num.startswith("0x") and den.startswith("0x")
    assert Fraction(int(num, 16), int(den, 16)) == p


def test_a_short_exact_fraction_stays_decimal():
    assert fraction_text(Fraction(1, 6)) == "1/6"
    assert fraction_display(Fraction(-5, 7)) == "-5/7"


def test_a_long_exact_fraction_is_shown_to_people_by_its_length():
    p = Fraction(1, 10**(EXACT_DECIMAL_DIGITS + 10))
    assert fraction_display(p) == f"[{EXACT_DECIMAL_DIGITS + 11:,}-digit fraction]"


@pytest.mark.parametrize("args", [
    ["2000d2!cs=3", "--odds"],
    ["10000d2!!cs10", "--odds", "--explode-depth", "1"],
])
def test_odds_with_fractions_past_the_int_to_text_limit_print_as_text_and_json(args, capsys):
    assert main(["dice", *args]) == 0
    table = capsys.readouterr().out
    assert "-digit fraction]" in table
    assert main(["dice", *args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    exact = data["distribution"][0]["exact"]
    assert exact.startswith("0x")
    num, den = (int(part, 16) for part in exact.split("/"))
    assert abs(num / den - data["distribution"][0]["probability"]) < 1e-12


def test_the_odds_result_schema_admits_the_hexadecimal_form_and_rejects_others():
    from pathlib import Path
    schema = json.loads((Path(__file__).parent.parent / "schemas" / "odds-result.schema.json").read_text())
    pattern = schema["properties"]["truncated"]
    jsonschema.validate("0x1f/0x200", pattern)
    jsonschema.validate("1/6", pattern)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate("0x1f/6", pattern)
