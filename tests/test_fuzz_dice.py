"""Fuzzing the dice language, on top of tests/test_dice_properties.py.

That file checks the grammar-generated expressions under small limits. Here: the whole
grammar (dynamic dice, every function, strings, pools), the default limits and random
small ones (so that every limit is hit), near misses made by many more kinds of edit,
faces read off physical dice, random bytes, and a time limit on every case.

Invariants for every input: a result or a well-formed RulesEngineError (code, one-line
message, a column inside the text, a LimitError naming a real limit), nothing else, in
under ``fuzz_support.CASE_SECONDS``; exact probabilities plus the truncated mass are 1;
when nothing is truncated, every roll's total is in the support of the odds.

Fast by default; ``RULESENGINE_LONG_FUZZ=1`` runs the long counts (docs/limits.md).
"""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from fuzz_support import budgets_watched, check_error, fuzz_settings, limits_for_fuzz, measured
from rulesengine import dice
from rulesengine.errors import RulesEngineError
from rulesengine.limits import DEFAULT_LIMITS
from rulesengine.dice.values import DicePool, Rolled
from test_dice_properties import ENV as BASE_ENV
from test_dice_properties import _mutations, expressions

ENV = {**BASE_ENV, "big": 10**12, "zero": 0, "neg": -3, "label": "hard", "no": False,
       "pool": DicePool.parse("d8/d4/d4"), "rolled": Rolled(7, (4, 3))}

# ---- a wider generator: the rest of the grammar ---------------------------------------------------

_counts = st.sampled_from(["", "1", "2", "3", "0", "10", "(x)", "(zero)", "(neg)", "(big)", "(1d4)", "(2 - 3)"])
_dies = st.sampled_from(["d2", "d6", "D20", "d100", "d%", "dF", "d{1,1,2}", "d{-1,0,1}", "d{}", "d0", "d1",
                         "d(x)", "d(1d6)", "d(zero)", "d(neg)", "d(big)", "d(true)", "d('hard')", "d1000",
                         "d10000000"])
# Not d1000000 (allowed by max_sides): computing its exact odds takes about a second before
# max_outcomes refuses them; the hostile corpus of bench/fuzz_figures.py measures it.
_conds = st.builds(lambda op, v: f"{op}{v}", st.sampled_from(["", "=", ">=", "<=", ">", "<", "!=", "=-"]),
                   st.integers(-2, 25))
_mods = st.one_of(
    st.builds(lambda k, n: f"{k}{n}", st.sampled_from(["kh", "kl", "dh", "dl"]), st.sampled_from(["", "0", "1", "3", "99"])),
    st.builds(lambda e, c: f"{e}{c}", st.sampled_from(["!", "!!", "!p"]), st.one_of(st.just(""), _conds)),
    st.builds(lambda r, c: f"{r}{c}", st.sampled_from(["r", "ro"]), _conds),
    st.builds(lambda c, cond: f"{c}{cond}", st.sampled_from(["cs", "cf"]), _conds),
    st.builds(lambda c, n: f"{c}{n}", st.sampled_from(["min", "max"]), st.integers(-1, 30)),
)
_dice = st.builds(lambda n, d, mods: f"{n}{d}{''.join(mods)}", _counts, _dies, st.lists(_mods, max_size=3))
_leaves = st.one_of(
    _dice,
    st.integers(-10, 10**6).map(str),
    st.sampled_from(["x", "y", "flag", "big", "zero", "neg", "label", "no", "pool", "rolled", "missing",
                     "true", "false", "'hard'", '"easy"', "''", "999999999999999", "1000000000000000"]),
)


def _wider(children):
    binary = st.builds(lambda a, op, b: f"{a} {op} {b}", children,
                       st.sampled_from(["+", "-", "*", "/", "<", "<=", ">", ">=", "==", "!=", "and", "or"]),
                       children)
    call = st.builds(lambda f, args: f"{f}({', '.join(args)})",
                     st.sampled_from(["min", "max", "abs", "ceil", "floor", "round", "if", "given", "count",
                                      "highest", "lowest", "sum", "drop_highest", "drop_lowest", "nope"]),
                     st.lists(children, max_size=3))
    dynamic = st.builds(lambda a, b: f"({a})d({b})", children, children)
    return st.one_of(binary, call, dynamic, children.map(lambda a: f"({a})"),
                     children.map(lambda a: f"-{a}"), children.map(lambda a: f"not {a}"),
                     children.map(lambda a: f"{a}[tag]"))


wide_expressions = st.recursive(_leaves, _wider, max_leaves=8)

# Near misses: the edits of test_dice_properties (cut, insert a character, delete one)
# plus the edits a typing player or a hostile one makes.
_INSERTS = ["(", ")", "d", "D", "!", "!!", "k", "kh", "r", "ro", "cs", "min", "max", "+", "-", "*", "/",
            "<", ">=", "==", "=", ",", "{", "}", "[", "]", "'", '"', " and ", " or ", "not ", "true",
            "999999999999999999999", "1000000", "d10000000", "0", "%", "F", "\t", "\n", "\x00", "é", "６",
            "×", "@", "#", "$", "^", "**", "..", "(" * 70, ")" * 70, "-" * 70, "x" * 1100]


def _edits(text):
    n = len(text)
    return st.one_of(
        _mutations(text),
        st.tuples(st.integers(0, n), st.sampled_from(_INSERTS)).map(lambda t: text[:t[0]] + t[1] + text[t[0]:]),
        st.tuples(st.integers(0, n), st.integers(0, n)).map(lambda t: text[:min(t)] + text[max(t):]),
        st.tuples(st.integers(0, n), st.integers(0, n)).map(lambda t: text[:min(t)] + text[min(t):max(t)] * 2
                                                             + text[max(t):]),
        st.integers(1, 4).map(lambda k: text * k),
    )


near_misses = st.one_of(wide_expressions, expressions).flatmap(_edits)


# ---- the invariant ----------------------------------------------------------------------------------


def check_expression(text: str, limits=DEFAULT_LIMITS, env=None, explode_depth=None, seed=0,
                     kind: str = "dice") -> str:
    """Parse, get the odds, roll a few times. Returns "ok" or the error code."""
    env = ENV if env is None else env
    with measured(kind, text) as outcome:
        try:
            e = dice.Expression(text, limits)
            with budgets_watched(limits.max_states) as breaches:
                try:
                    o = e.odds(env, explode_depth=explode_depth)
                except RulesEngineError as exc:
                    check_error(exc, text)
                    o = None
            assert not breaches, (text, breaches[:3])
            if o is not None:
                assert sum(o.distribution.values(), Fraction(0)) + o.truncated == 1, (text, o.truncated)
                assert all(p > 0 for p in o.distribution.values()), text
                o.to_dict(), o.rows(), o.mean  # noqa: B018 - the views never fail either
            for s in range(seed, seed + 3):
                r = e.roll(env, seed=s)
                r.trace, r.to_dict()  # noqa: B018
                if o is not None and o.truncated == 0:
                    assert r.total in o.distribution, (text, r.total, sorted(map(str, o.distribution))[:20])
            outcome("ok")
            return "ok"
        except RulesEngineError as exc:
            code = check_error(exc, text)
            outcome(code)
            return code


# ---- tests ------------------------------------------------------------------------------------------


@fuzz_settings(300, 40_000)
@given(wide_expressions, st.sampled_from([None, 0, 1, 3]))
def test_wide_grammar_gives_results_or_project_errors(text, explode_depth):
    check_expression(text, explode_depth=explode_depth)


@fuzz_settings(300, 40_000)
@given(near_misses)
def test_near_misses_give_results_or_project_errors(text):
    check_expression(text)


@fuzz_settings(150, 10_000)
@given(st.one_of(expressions, wide_expressions), st.randoms(use_true_random=False))
def test_every_limit_ends_in_a_named_limit_error(text, r):
    """Small random limits: the generated expressions hit each of them often."""
    check_expression(text, limits=limits_for_fuzz(r), kind="dice-small-limits")


@fuzz_settings(150, 10_000)
@given(st.one_of(st.binary(max_size=80).map(lambda b: b.decode("utf-8", "replace")),
                 st.binary(max_size=80).map(lambda b: b.decode("latin-1")),
                 st.text(max_size=80)))
def test_random_bytes_and_text_give_project_errors(text):
    check_expression(text, kind="dice-bytes")


@fuzz_settings(150, 10_000)
@given(st.one_of(expressions, wide_expressions),
       st.lists(st.integers(-3, 30) | st.sampled_from([10**20, -10**20, 0]), max_size=12))
def test_faces_from_physical_dice_give_results_or_project_errors(text, faces):
    """Faces typed by a player: too few, too many, off the die, huge."""
    with measured("dice-faces", (text, faces)) as outcome:
        try:
            r = dice.Expression(text).roll(ENV, faces=faces)
            r.trace  # noqa: B018
        except RulesEngineError as exc:
            outcome(check_error(exc, text))


@fuzz_settings(100, 5_000)
@given(st.one_of(expressions, wide_expressions),
       st.dictionaries(st.sampled_from(["x", "y", "flag", "big", "pool", "zero"]),
                       st.one_of(st.integers(), st.booleans(), st.text(max_size=5), st.none(), st.floats(),
                                 st.just(10**16), st.just("a" * 300), st.lists(st.integers(), max_size=2))))
def test_any_environment_gives_results_or_project_errors(text, env):
    """Values bound to names by an API caller: wrong types, too big, too long."""
    check_expression(text, env=env, kind="dice-env")


def test_the_generators_reach_results_and_errors_alike():
    """A sanity check of the strategies: a fixed sample both succeeds and fails."""
    rng = random.Random(5)
    seen = set()
    for text in ["3d6", "d(x)!", "1000000000d6", "(" * 70 + "1" + ")" * 70, "d1!", "x" * 1100, "d{}",
                 "count(pool)", "highest(rolled) + 1", "if(flag, 2d6, 1)", "given(missing)"]:
        seen.add(check_expression(text, seed=rng.randrange(100)))
    assert "ok" in seen and "E210" in seen and len(seen) >= 4, seen
