"""docs/limits.md stays true: every limit is listed with its current default, each
documented trigger ends in the documented error, and each Limits field is honoured when an
API caller passes their own Limits.
"""

from __future__ import annotations

import dataclasses
import inspect
from fractions import Fraction
from pathlib import Path

import pytest

from rulesengine import dice
from rulesengine import limits
from rulesengine.errors import LimitError, LoadError, RulesEngineError
from rulesengine import limits as limits_module
from rulesengine.limits import DEFAULT_LIMITS, Limits
from rulesengine.ruleset import load, loads
from rulesengine.rules.document import load_text
from rulesengine.run.sweep import sweep
from rulesengine.dice.values import DicePool

from fuzz_support import PICK_TEN

DOC = (Path(__file__).resolve().parent.parent / "docs" / "limits.md").read_text(encoding="utf-8")
FIELDS = [f.name for f in dataclasses.fields(Limits)]


def _row(name: str) -> str:
    rows = [line for line in DOC.splitlines() if line.startswith("|") and f"`{name}`" in line.split("|")[1]]
    assert rows, f"docs/limits.md has no table row for `{name}`"
    return rows[0]


@pytest.mark.parametrize("name", FIELDS)
def test_every_limits_field_has_a_row_with_its_default(name):
    default = getattr(DEFAULT_LIMITS, name)
    assert f"{default:,}" in _row(name).split("|")[2], (name, default)


CONSTANTS = sorted((name, value) for name, value in vars(limits_module).items()
                   if name.isupper() and type(value) is int)


@pytest.mark.parametrize("name,value", CONSTANTS)
def test_every_other_limit_of_the_limits_module_has_a_row_with_its_value(name, value):
    assert f"{value:,}" in _row(name).split("|")[2], (name, value)


def test_the_limits_module_holds_the_caps_the_engine_uses():
    from rulesengine.run import sweep
    assert len(CONSTANTS) >= 12
    assert sweep.MAX_SWEEP is limits.MAX_SWEEP
    pool = inspect.signature(DicePool.parse).parameters
    assert (pool["max_dice"].default, pool["max_sides"].default) == (limits.MAX_POOL_DICE, limits.MAX_POOL_SIDES)


GURPS = (Path(__file__).resolve().parent.parent / "rulesets" / "gurps-4e.yaml").read_text(encoding="utf-8")


def _alias_bomb() -> str:
    levels = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    levels += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 6)]
    return "\n".join(levels) + "\n"


# (limit, how to hit it, expected code) — the examples of docs/limits.md
TRIGGERS = [
    ("max_expression_length", lambda L: dice.parse("1+" * 600 + "1", L), "E210"),
    ("max_nesting_depth", lambda L: dice.parse("(" * 65 + "1" + ")" * 65, L), "E210"),
    ("max_nesting_depth", lambda L: dice.parse("-" * 65 + "1", L), "E210"),
    ("max_nesting_depth", lambda L: dice.parse("1+" * 256 + "1", L), "E210"),
    ("max_dice", lambda L: dice.parse("10001d6", L), "E210"),
    ("max_dice", lambda L: dice.roll("(x)d6", env={"x": 10_001}, limits=L), "E210"),
    ("max_dice", lambda L: dice.roll("6000d6 + 6000d6", seed=1, limits=L), "E210"),
    ("max_sides", lambda L: dice.parse("d1000001", L), "E210"),
    ("max_sides", lambda L: dice.roll("d(x)", env={"x": 1_000_001}, limits=L), "E210"),
    ("max_custom_faces", lambda L: dice.parse("d{" + ",".join(["1"] * 1001) + "}",
                                              dataclasses.replace(L, max_expression_length=10_000)), "E210"),
    ("max_magnitude", lambda L: dice.parse("1000000000000001", L), "E210"),
    ("max_magnitude", lambda L: dice.roll("1000000*1000000*1000000*1000000", limits=L), "E210"),
    ("max_states", lambda L: dice.odds("100d100kh50", limits=L), "E210"),
    ("max_states", lambda L: load("mudd", limits=L).check("action").odds(
        {"pool": "d12/d10/d8/d6/d4/d12/d10/d8/d6/d4", "precision_target": 5, "impact_target": 2}), "E210"),
    ("max_states", lambda L: dice.odds("10000d2", limits=L).to_dict(), "E210"),
    ("max_outcomes", lambda L: dice.odds("d100001", limits=L), "E210"),
    ("max_outcomes", lambda L: dice.odds("d1000 * d1000", limits=L), "E210"),
    ("max_choices", lambda L: loads(PICK_TEN, limits=L).check("action").roll({"pool": "20d4"}, seed=1), "E210"),
    ("max_file_bytes", lambda L: load_text(b"a: 1\n" + b"#" * L.max_file_bytes, limits=L), "E306"),
    ("max_yaml_nodes", lambda L: load_text(_alias_bomb(), limits=L), "E304"),
    ("max_yaml_depth", lambda L: load_text("a: " + "[" * 65 + "]" * 65, limits=L), "E302"),
    ("max_yaml_aliases", lambda L: load_text("a: &a 1\nb: [" + ", ".join(["*a"] * 101) + "]\n", limits=L), "E304"),
]


@pytest.mark.parametrize("limit,trigger,code", TRIGGERS, ids=[f"{t[0]}-{i}" for i, t in enumerate(TRIGGERS)])
def test_documented_trigger_ends_in_the_documented_error(limit, trigger, code):
    with pytest.raises(RulesEngineError) as info:
        trigger(DEFAULT_LIMITS)
    err = info.value
    assert err.code == code, (err.code, err.message)
    if isinstance(err, LimitError):
        assert err.limit == limit
        assert err.location.column is not None
    else:
        assert isinstance(err, LoadError) and limit in err.message, err.message
        assert err.code == "E306" or err.location.column is not None  # too large: before any line is read


# Each field honoured: a generous value lets the trigger through, or (where raising it
# would only make the test slow) a stricter value makes a harmless input fail.
RAISED = {
    "max_expression_length": lambda: dice.roll("1" + " " * 1500, limits=dataclasses.replace(DEFAULT_LIMITS, max_expression_length=2000)),
    "max_nesting_depth": lambda: dice.roll("(" * 80 + "1" + ")" * 80, limits=dataclasses.replace(DEFAULT_LIMITS, max_nesting_depth=100)),
    "max_dice": lambda: dice.roll("15000d2", seed=1, limits=dataclasses.replace(DEFAULT_LIMITS, max_dice=20_000)),
    "max_sides": lambda: dice.roll("d2000000", seed=1, limits=dataclasses.replace(DEFAULT_LIMITS, max_sides=2_000_000)),
    "max_magnitude": lambda: dice.roll("10000000000000000", limits=dataclasses.replace(DEFAULT_LIMITS, max_magnitude=10**17)),
    "max_file_bytes": lambda: load_text(b"a: 1\n" + b"#" * 2_000_000, limits=dataclasses.replace(DEFAULT_LIMITS, max_file_bytes=3_000_000)),
    "max_yaml_aliases": lambda: load_text("a: &a 1\nb: [" + ", ".join(["*a"] * 101) + "]\n", limits=dataclasses.replace(DEFAULT_LIMITS, max_yaml_aliases=200)),
}
LOWERED = {
    "max_custom_faces": lambda L: dice.odds("d{1,2,3}", limits=L),
    "max_states": lambda L: dice.odds("3d6", limits=L),
    "max_outcomes": lambda L: dice.odds("3d6", limits=L),
    "max_choices": lambda L: loads(PICK_TEN, limits=L).check("action").roll({"pool": "11d4"}, seed=1),
    "max_sweep_states": lambda L: sweep(loads(GURPS, limits=L).check("success_roll"), {"skill": "3..18"}, {}),
    "max_yaml_nodes": lambda L: loads(GURPS, limits=L),
    "max_yaml_depth": lambda L: loads(GURPS, limits=L),
}
STRICT = dict(max_custom_faces=2, max_states=10, max_outcomes=5, max_choices=5, max_sweep_states=10, max_yaml_nodes=10,
              max_yaml_depth=1)


@pytest.mark.parametrize("name", FIELDS)
def test_each_field_is_honoured_when_an_api_caller_passes_limits(name):
    if name in RAISED:
        RAISED[name]()
    elif name == "explode_depth":
        small = dataclasses.replace(DEFAULT_LIMITS, explode_depth=2)
        assert dice.odds("d6!", limits=small).truncated == dice.odds("d6!", explode_depth=2).truncated \
            == Fraction(1, 6**3)
        assert len(dice.Expression("d6!", small).roll(faces=[6, 6, 6]).dice) == 3  # no 4th die
    elif name == "reroll_depth":
        small = dataclasses.replace(DEFAULT_LIMITS, reroll_depth=2)
        assert dice.Expression("d6r<=5", small).roll(faces=[1, 1, 6]).total == 6
        with pytest.raises(RulesEngineError) as info:
            dice.Expression("d6r<=5", small).roll(faces=[1, 1, 1])  # the 2nd reroll must be kept
        assert info.value.code == "E204"
    else:
        assert name in LOWERED, f"a new Limits field: add it to docs/limits.md and here ({name})"
        strict = dataclasses.replace(DEFAULT_LIMITS, **{name: STRICT[name]})
        LOWERED[name](DEFAULT_LIMITS)  # fine with the defaults...
        with pytest.raises(RulesEngineError) as info:  # ...refused with the stricter value
            LOWERED[name](strict)
        assert getattr(info.value, "limit", None) == name or name in info.value.message


def test_the_extended_round_cap_is_a_limit_error_named_max_rounds():
    rps = (Path(__file__).resolve().parent.parent / "rulesets" / "rps.yaml").read_text(encoding="utf-8")
    if "        max: 1000\n" not in rps:
        pytest.skip("rps.yaml changed; the example needs its max_rounds input bounded at 1000")
    rs = loads(rps.replace("        max: 1000\n", "        max: 100000000\n"))
    with pytest.raises(LimitError) as info:
        rs.procedure("sustained").odds({"goal": 10, "max_rounds": 1001, "skill": 10, "attribute": 10})
    assert info.value.limit == "max_rounds" and info.value.code == "E210"
