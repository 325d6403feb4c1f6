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


# ---- exploding expressions with their oracle --------------------------------------------------
#
# Trees of tests/oracle.py's nodes: each renders as text and has its distribution worked out
# apart from the engine (explosions followed deep, the cut kept as intervals). Exploding
# terms of every kind, conditions written or given as names (`!>=(x0)`, `!>=(x1 + 1)`),
# dice counts that are numbers, names or other rolls (`(1d3)d6!`), and around them sums,
# differences, multiples, max/min/abs, comparisons, and/or/not and if() on an input or a roll.


@st.composite
def oracle_terms(draw, names: dict):
    """One dice term (text and oracle node); names it reads are added to ``names``."""
    from oracle import DieSpec, OTerm

    style = draw(st.sampled_from(["sum", "count"]))
    sides = draw(st.sampled_from([4, 6, "F"] if style == "sum" else [6, 8, 10]))
    faces = (-1, 0, 1) if sides == "F" else tuple(range(1, sides + 1))
    explode = draw(st.sampled_from(["!", "!", "!!", "!p", "!o", None]))
    cond, on = "", frozenset([max(faces)])
    if explode is not None and sides != "F":
        how = draw(st.sampled_from(["top", ">=", "<=", "="]))
        if how != "top":
            at = draw(st.integers(2, sides) if how == ">=" else st.integers(1, sides - 1) if how == "<="
                      else st.sampled_from(faces))
            on = frozenset(f for f in faces if CONDITION_MEANING[how](f, at))
            written = draw(st.sampled_from(["number", "name", "name+1"]) if how != "=" else st.just("number"))
            if written == "number":  # `!!=3` is ambiguous (`!!` `=3` or `!` `!=3`): `!!==3`
                cond = f"{'==' if how == '=' and explode == '!!' else how}{at}"
            else:
                name = f"x{len(names)}"
                names[name] = at if written == "name" else at - 1
                cond = f"{how}({name})" if written == "name" else f"{how}({name} + 1)"
    low = draw(st.none() | st.integers(0, 3))
    high = draw(st.none() | st.integers(2, 9))
    if low is not None and high is not None and high < low:
        low, high = high, low
    success = draw(st.integers(2, 12)) if style == "count" else None
    spec = DieSpec(faces, explode, on if explode else frozenset(), low, high, success)
    most = 2 if style == "sum" else 4
    count_kind = draw(st.sampled_from(["number", "number", "name", "roll"]))
    if count_kind == "number":
        count: object = draw(st.integers(1, most))
        count_text = "" if count == 1 and draw(st.booleans()) else str(count)
    elif count_kind == "name":
        count = f"n{len(names)}"
        names[count] = draw(st.integers(0, most))
        count_text = f"({count})"
    else:
        k = draw(st.integers(2, most if style == "count" else 3))
        count, count_text = ("roll", k), f"(1d{k})"
    mods = (f"min{low}" if low is not None else "") + (f"max{high}" if high is not None else "") \
        + (f"cs>={success}" if success is not None else "")
    return OTerm(f"{count_text}d{sides}{explode or ''}{cond}{mods}", spec, count)


CONDITION_MEANING = {"=": lambda a, b: a == b, "<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b}


@st.composite
def oracle_numbers(draw, names: dict, budget: list):
    """A numeric expression of at most budget[0] dice terms (budget is shared and spent)."""
    from oracle import OBinary, OCall, OIf, OLit, OName, OScale

    if budget[0] <= 1 or draw(st.integers(0, 3)) == 0:
        budget[0] -= 1
        return draw(oracle_terms(names))
    shape = draw(st.sampled_from(["add", "sub", "plus_k", "scale", "max", "min", "abs", "if_input", "if_roll",
                                  "if_roll"]))
    if shape in ("add", "sub", "max", "min"):
        budget[0] -= 1
        a = draw(oracle_terms(names))
        b = draw(oracle_numbers(names, budget))
        a, b = (a, b) if draw(st.booleans()) else (b, a)
        if shape in ("max", "min"):
            return OCall(shape, (a, b))
        return OBinary("+" if shape == "add" else "-", a, b)
    if shape == "plus_k":
        a = draw(oracle_numbers(names, budget))
        k = draw(st.integers(-4, 6))
        if draw(st.booleans()):
            name = f"k{len(names)}"
            names[name] = k
            return OBinary(draw(st.sampled_from(["+", "-"])), a, OName(name))
        return OBinary("+", a, OLit(k)) if k >= 0 else OBinary("-", a, OLit(-k))
    if shape == "scale":
        return OScale(draw(st.integers(-2, 3)), draw(oracle_numbers(names, budget)))
    if shape == "abs":
        return OCall("abs", (draw(oracle_numbers(names, budget)),))
    if shape == "if_input":
        flag = f"flag{len(names)}"
        names[flag] = draw(st.booleans())
        return OIf(OName(flag), draw(oracle_numbers(names, budget)), draw(oracle_numbers(names, budget)))
    cond = draw(oracle_conditions(names, budget))
    return OIf(cond, draw(oracle_numbers(names, budget)), draw(oracle_numbers(names, budget)))


@st.composite
def oracle_conditions(draw, names: dict, budget: list):
    """A yes/no: a roll compared with a number or with another roll, and/or/not of those."""
    from oracle import OBinary, OCall, OLit

    op = draw(st.sampled_from([">=", ">", "<=", "<", "==", "!="]))
    a = draw(oracle_numbers(names, budget)) if budget[0] > 1 else draw(oracle_terms(names))
    budget[0] -= 0 if budget[0] > 1 else 1
    if budget[0] >= 1 and draw(st.integers(0, 2)) == 0:
        budget[0] -= 1
        b = draw(oracle_terms(names))
    else:
        b = OLit(draw(st.integers(0, 14)))
    cond = OBinary(op, a, b)
    how = draw(st.sampled_from(["plain", "plain", "plain", "not", "and", "or"]))
    if how == "not":
        return OCall("not", (cond,))
    if how in ("and", "or") and budget[0] >= 1:
        budget[0] -= 1
        other = OBinary(draw(st.sampled_from([">=", "<"])), draw(oracle_terms(names)), OLit(draw(st.integers(1, 8))))
        return OBinary(how, cond, other)
    return cond


@st.composite
def oracle_expressions(draw, max_terms: int = 3):
    """(text, names bound, oracle node) of a numeric or yes/no expression."""
    names: dict = {}
    budget = [draw(st.integers(1, max_terms))]
    if draw(st.integers(0, 2)) == 0:
        node = draw(oracle_conditions(names, budget))
    else:
        node = draw(oracle_numbers(names, budget))
    return node.text(), names, node
