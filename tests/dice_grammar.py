"""Generators of dice expressions for the property and fuzz tests (hypothesis strategies):
the documented grammar, a wider one reaching the rest of it, and near misses of both.
Shared by tests/dice and tests/cli, so they live beside the test folders, not in a test."""

from __future__ import annotations

import dataclasses

from hypothesis import strategies as st

from rulesengine.dice.values import DicePool, Rolled
from rulesengine.limits import DEFAULT_LIMITS

SMALL = dataclasses.replace(DEFAULT_LIMITS, explode_depth=1, reroll_depth=2, max_states=200_000)

# ---- a generator for the grammar ------------------------------------------------------------

# Every spelling of a condition the grammar accepts (test_dice_conditions checks this list
# against the grammar), and a bare number, which is never negative.
CONDITION_OPERATORS = ("=", "==", "!=", "<", "<=", ">", ">=")
conds = st.one_of(
    st.builds(lambda op, v: f"{op}{v}", st.sampled_from(CONDITION_OPERATORS), st.integers(-1, 7)),
    st.integers(0, 7).map(str),
)
modifiers = st.one_of(
    st.builds(lambda k, n: f"{k}{n}", st.sampled_from(["kh", "kl", "dh", "dl"]),
              st.sampled_from(["", "1", "2", "3"])),
    st.builds(lambda e, c: f"{e}{c}", st.sampled_from(["!", "!!", "!p", "!o"]), st.one_of(st.just(""), conds)),
    st.builds(lambda r, c: f"{r}{c}", st.sampled_from(["r", "ro", "k", "p"]), conds),
    st.builds(lambda c, cond: f"{c}{cond}", st.sampled_from(["cs", "cf"]), conds),
    st.builds(lambda c, n: f"{c}{n}", st.sampled_from(["min", "max"]), st.integers(0, 6)),
    st.builds(lambda c, n: f"{c}{n}", st.sampled_from(["rol", "roh"]), st.integers(0, 3)),
)
dies = st.sampled_from(["d2", "d3", "d4", "d6", "dF", "d{1,1,2}", "d{-1,0,1,3}", "d%", "d1", "d0", "d(x)"])
dice_terms = st.builds(
    lambda n, d, mods: f"{n}{d}{''.join(mods)}",
    st.sampled_from(["", "1", "2", "3", "0", "(x)"]), dies, st.lists(modifiers, max_size=2))
leaves = st.one_of(dice_terms, st.integers(-5, 20).map(str), st.sampled_from(["x", "y", "flag", "true", "false"]))

# Every binary operator of the grammar. Symbols are written with and without spaces, so that
# an operator right after an explosion mark or a condition (`2d6!-1`, `d6!>=3<2`, `d6! >=4`)
# is generated too; words need spaces.
BINARY_SYMBOLS = ("+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=")
SPACINGS = ("{a} {op} {b}", "{a}{op}{b}", "{a} {op}{b}", "{a}{op} {b}")


def _combine(children):
    binary = st.one_of(
        st.builds(lambda a, op, spacing, b: spacing.format(a=a, op=op, b=b), children,
                  st.sampled_from(BINARY_SYMBOLS), st.sampled_from(SPACINGS), children),
        st.builds(lambda a, op, b: f"{a} {op} {b}", children, st.sampled_from(["and", "or"]), children))
    unary = st.builds(lambda op, a: f"{op}{a}", st.sampled_from(["-", "not ", "+"]), children)
    call = st.builds(lambda f, args: f"{f}({', '.join(args)})",
                     st.sampled_from(["min", "max", "abs", "ceil", "floor", "round"]),
                     st.lists(children, min_size=1, max_size=3))
    return st.one_of(binary, unary, call, children.map(lambda a: f"({a})"),
                     children.map(lambda a: f"{a}[label]"))


expressions = st.recursive(leaves, _combine, max_leaves=6)
ENV = {"x": 2, "y": -1, "flag": True}


def mutations(text):
    return st.one_of(
        st.integers(0, len(text)).map(lambda i: text[:i]),
        st.tuples(st.integers(0, len(text)), st.characters()).map(lambda t: text[:t[0]] + t[1] + text[t[0]:]),
        st.integers(0, max(0, len(text) - 1)).map(lambda i: text[:i] + text[i + 1:]),
    )


near_valid = expressions.flatmap(mutations)

WIDE_ENV = {**ENV, "big": 10**12, "zero": 0, "neg": -3, "label": "hard", "no": False,
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
    st.builds(lambda e, c: f"{e}{c}", st.sampled_from(["!", "!!", "!p", "!o"]), st.one_of(st.just(""), _conds)),
    st.builds(lambda r, c: f"{r}{c}", st.sampled_from(["r", "ro", "k", "p"]), _conds),
    st.builds(lambda c, cond: f"{c}{cond}", st.sampled_from(["cs", "cf"]), _conds),
    st.builds(lambda c, n: f"{c}{n}", st.sampled_from(["min", "max"]), st.integers(-1, 30)),
    st.builds(lambda c, n: f"{c}{n}", st.sampled_from(["rol", "roh"]), st.integers(0, 30)),
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
                       st.sampled_from(["+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=", "and", "or"]),
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

# Near misses: the edits above (cut, insert a character, delete one)
# plus the edits a typing player or a hostile one makes.
_INSERTS = ["(", ")", "d", "D", "!", "!!", "k", "kh", "r", "ro", "cs", "min", "max", "+", "-", "*", "/",
            "<", ">=", "==", "=", ",", "{", "}", "[", "]", "'", '"', " and ", " or ", "not ", "true",
            "999999999999999999999", "1000000", "d10000000", "0", "%", "F", "\t", "\n", "\x00", "é", "６",
            "×", "@", "#", "$", "^", "**", "..", "(" * 70, ")" * 70, "-" * 70, "x" * 1100]


def _edits(text):
    n = len(text)
    return st.one_of(
        mutations(text),
        st.tuples(st.integers(0, n), st.sampled_from(_INSERTS)).map(lambda t: text[:t[0]] + t[1] + text[t[0]:]),
        st.tuples(st.integers(0, n), st.integers(0, n)).map(lambda t: text[:min(t)] + text[max(t):]),
        st.tuples(st.integers(0, n), st.integers(0, n)).map(lambda t: text[:min(t)] + text[min(t):max(t)] * 2
                                                             + text[max(t):]),
        st.integers(1, 4).map(lambda k: text * k),
    )


near_misses = st.one_of(wide_expressions, expressions).flatmap(_edits)
