"""Property: a check's odds read as its inputs make it (rules/taken.py) are the odds of the
check as written, to the last fraction, the mass cut, the means and their kinds but where
the rules taken have a closed form the written ones lack (then the figure made exact equals
the written one's within the mass it left out).

Random small checks switch rolls, values, the result and outcome rules on a yes/no input
and a number input (``if()``, ``and``, ``or``, ``not``), over plain and exploding dice, a
second roll reading the first (a push), for every value of the inputs; the written path is
the one every check took before (the taken drivers switched off)."""

from __future__ import annotations

from hypothesis import given, strategies as st

from fuzz_support import case_time_limit, fuzz_settings
from rulesengine.limits import Limits
from rulesengine.ruleset import loads

CONDITIONS = ["flag", "not flag", "n == 0", "n >= 1 and flag", "n == 2 or flag", "n > 0"]
DICE = ["(n)d6", "(n + 1)d6cs>=5", "(n)d6!cs>=5", "1d8", "2d4!"]


@st.composite
def checks(draw) -> str:
    c = [draw(st.sampled_from(CONDITIONS)) for _ in range(4)]
    a, b = draw(st.sampled_from(DICE)), draw(st.sampled_from(DICE))
    again = draw(st.sampled_from(["0", "(count(first, 6))d6", "(count(initial(first), 1, 2))d6!"]))
    result = draw(st.sampled_from(["first + again", f"if({c[2]}, first + again, first)", "first"]))
    return f"""\
ruleset: t
name: T
version: "1"
source: tests
checks:
  c:
    inputs:
      n: {{type: integer, min: 0, max: 2}}
      flag: {{type: boolean}}
    rolls:
      first: "if({c[0]}, {a}, {b})"
      again: "if({c[1]}, {again}, 0)"
    let:
      total: "{result}"
    result: total
    outcomes:
      - {{name: top, when: "{c[3]} and total >= 4", success: true}}
      - {{name: some, when: "total >= 2 or (not flag and first == 1)", success: true}}
      - {{name: none, success: false}}
"""


def _odds(text: str, taken: bool, values: dict):
    check = loads(text, "t.yaml", Limits(explode_depth=2)).check("c")
    if not taken:
        check.runner._taken._conditions = []  # the written path: nothing taken
    return check.odds(values).to_dict()


def _same_but_closed_forms(got: dict, want: dict) -> None:
    for key in want:
        if key != "stats":
            assert got[key] == want[key], key
    g, w = got["stats"]["result"], want["stats"]["result"]
    for kind in ("mean", "variance"):
        if g[f"{kind}_kind"] == w[f"{kind}_kind"]:
            assert g[f"{kind}_exact"] == w[f"{kind}_exact"], kind
        else:  # made exact: the written figure is of the mass worked out
            assert (g[f"{kind}_kind"], w[f"{kind}_kind"]) == ("exact", "of_mass_worked_out")


@fuzz_settings(fast=25, long=300)
@given(checks())
def test_the_rules_taken_answer_as_the_rules_written(text):
    for n in range(3):
        for flag in (False, True):
            values = {"n": n, "flag": flag}
            with case_time_limit((text, values)):
                _same_but_closed_forms(_odds(text, True, values), _odds(text, False, values))

