"""Every built-in function of the language, declared once.

One :class:`Builtin` per function: its name, its implementation (in :mod:`.functions`), its
signature as data over a small vocabulary of kinds, and what it reads of a roll's dice. The
rest of the engine reads this table and keeps no list of its own: the evaluator calls the
implementations and checks the arity, ``rules/types.py`` interprets the signatures when a
file is read, ``rules/faces.py`` keeps the single dice of the rolls a function reads. A new
function is one entry here (and its implementation); ``tests/dice/test_builtins.py`` checks
that nothing else names the built-ins and that the docs list exactly these.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any
from collections.abc import Callable, Mapping

from ..records import Record
from . import ast
from . import functions as f

# ---- the kinds of value (the words the static checks print) ----------------------------------
NUMBER = "a number"  # a whole number; as an argument, a roll counts as its total
YES_NO = "yes/no"
TEXT = "text"
ROLL = "a roll"  # a number whose dice can be read (count(roll, 6))
POOL = "a dice pool"  # mixed dice, not rolled (a dice_pool input, drop_highest(pool))
# Argument kinds only:
DICE = "a roll or a dice pool"  # dice to read: a roll, or a pool (count(pool), largest_die(pool))
ANY = "any value"  # not checked (given(x), sum(x))
# Result kind of if() only: the kind its two branches share (rules/types.py works it out).
BRANCHES = "the kind of its branches"

ARGUMENT_KINDS = (NUMBER, YES_NO, TEXT, ROLL, POOL, DICE, ANY)
RESULT_KINDS = (NUMBER, YES_NO, TEXT, ROLL, POOL, BRANCHES)

# ---- what a function reads of a roll's dice (its first argument) ------------------------------
COUNTS = "counts of faces"  # count(roll), count(roll, 6), count(roll, 5, 6)
HIGHEST_FACE = "highest face"
LOWEST_FACE = "lowest face"
SIZES = "sizes of the dice"  # every die, with its size
FIRST_THROW = "first throw"  # the dice before explosions added to them: every die
SYMBOL_COUNTS = "counts of symbols"

READS = (COUNTS, HIGHEST_FACE, LOWEST_FACE, SIZES, FIRST_THROW, SYMBOL_COUNTS)
# ...and, given its dice alone (no other argument), where that is less than the above:
HOW_MANY = "how many dice"  # count(rest)
LARGEST_SIZE = "the largest size"  # largest_die(rest)


class Builtin(Record):
    """One built-in function.

    ``args`` are the kinds of its positional arguments, ``rest`` the kind of any number of
    arguments after them (None: none), ``fewest`` how many must be given; ``result`` the kind
    of its value. ``reads`` says what it reads of the dice of its first argument (None: it
    reads a roll as its total, like any number). ``rounding``: how a division written
    directly inside it rounds (``ceil(7 / 2)`` is 4). ``limited``: its implementation is
    given the limit on a result's size as ``limit=`` (``pow()``). ``per_die``: its value on
    dice is the sum of its values on each die, the other arguments alike (``count(chosen, 6)``,
    ``symbols(chosen, 'success')``, ``sum(chosen)``): dice chosen by such values are chosen
    die by die (run/choosing.py); on those dice it never fails. ``never_fails``: a function of
    numbers (or any value) that fails only where an argument does; ``fails_without_dice``:
    given its dice alone, it fails only where they are none (or, for largest_die, not of a
    pool of mixed dice). Both tell which values of a choice fail alike on every way of
    choosing (run/fails_alike.py). ``alone``: what it reads of its dice given alone, where
    that is less than ``reads`` (``count(rest)``: how many; ``largest_die(rest)``: the
    largest size): dice read only so need no faces (run/ranked_pool.py).
    """

    name: str
    implementation: Callable[..., Any]
    fewest: int
    args: tuple[str, ...]
    result: str
    rest: str | None = None
    reads: str | None = None
    rounding: Callable[[int, int], int] | None = None
    # Whether its implementation takes ``limit``, the largest size a result may have
    # (``max_magnitude``), given by the evaluator: pow() refuses a power past it unworked.
    limited: bool = False
    per_die: bool = False
    never_fails: bool = False
    fails_without_dice: bool = False
    # Whether it gives the highest (True) or the lowest (False) of its numbers: max, min
    # (the closed form of open-ended dice's extremes, dice/extremes.py); None for the rest.
    highest: bool | None = None
    # The hint where it is given more arguments than it takes, for a spelling another
    # language or a book suggests (``highest(pool, 2)``); None: the count says it all.
    too_many: str | None = None
    alone: str | None = None

    @property
    def most(self) -> int | None:
        """The most arguments it takes; None: any number."""
        return None if self.rest is not None else len(self.args)

    def argument(self, i: int) -> str | None:
        """The kind of its argument at place ``i``; None beyond its arguments."""
        return self.args[i] if i < len(self.args) else self.rest


_DECLARED = (
    Builtin("if", f.choose, 3, (YES_NO, ANY, ANY), BRANCHES),
    Builtin("given", f.given, 1, (ANY,), YES_NO, never_fails=True),
    Builtin("count", f.count_dice, 1, (DICE, NUMBER, NUMBER), NUMBER, reads=COUNTS, per_die=True,
            alone=HOW_MANY),
    Builtin("highest", f.highest_die, 1, (DICE,), NUMBER, reads=HIGHEST_FACE, fails_without_dice=True,
            too_many="highest(roll) is its one highest die; the sum of the 2 highest is kept by the dice term: 4d6kh2"),
    Builtin("lowest", f.lowest_die, 1, (DICE,), NUMBER, reads=LOWEST_FACE, fails_without_dice=True,
            too_many="lowest(roll) is its one lowest die; the sum of the 2 lowest is kept by the dice term: 4d6kl2"),
    Builtin("sum", f.sum_of, 1, (ANY,), NUMBER, per_die=True,
            too_many="sum(x) adds up what x holds; the dice showing 8 to 10 are counted by count(roll, 8, 10)"),
    Builtin("largest_die", f.largest_die, 1, (DICE, NUMBER, NUMBER), NUMBER, reads=SIZES,
            fails_without_dice=True, alone=LARGEST_SIZE),
    Builtin("initial", f.first_throw, 1, (DICE,), ROLL, reads=FIRST_THROW),
    Builtin("symbols", f.count_symbols, 2, (DICE, TEXT), NUMBER, rest=TEXT, reads=SYMBOL_COUNTS, per_die=True),
    Builtin("drop_highest", f.drop_highest, 1, (ANY,), POOL),
    Builtin("drop_lowest", f.drop_lowest, 1, (ANY,), POOL),
    Builtin("min", f.smallest, 1, (NUMBER,), NUMBER, rest=NUMBER, highest=False, never_fails=True),
    Builtin("max", f.largest, 1, (NUMBER,), NUMBER, rest=NUMBER, highest=True, never_fails=True),
    Builtin("abs", f.absolute, 1, (NUMBER,), NUMBER, never_fails=True),
    Builtin("pow", f.power, 2, (NUMBER, NUMBER), NUMBER, limited=True),
    Builtin("floor", f.whole("floor"), 1, (NUMBER,), NUMBER, rounding=f.floor_div, never_fails=True),
    Builtin("ceil", f.whole("ceil"), 1, (NUMBER,), NUMBER, rounding=f.ceil_div, never_fails=True),
    Builtin("round", f.whole("round"), 1, (NUMBER,), NUMBER, rounding=f.round_div, never_fails=True),
)

BUILTINS: Mapping[str, Builtin] = MappingProxyType({b.name: b for b in _DECLARED})

# What the evaluator calls: name -> (implementation, fewest arguments, most or None). A
# ruleset adds its tables' functions to these (rules/table_functions.py).
FUNCTIONS: Mapping[str, tuple[Callable[..., Any], int, int | None]] = MappingProxyType(
    {b.name: (b.implementation, b.fewest, b.most) for b in _DECLARED})

# The functions that read single dice of a roll.
READERS = frozenset(b.name for b in _DECLARED if b.reads is not None)

_IF = BUILTINS["if"]


def reads(node: ast.Node) -> str | None:
    """What ``node``, a call of a built-in, reads of its first argument's dice (one of
    :data:`READS`); None for anything else."""
    if not isinstance(node, ast.Call):
        return None
    builtin = BUILTINS.get(node.name)
    return None if builtin is None else builtin.reads


def names_reading(what: str) -> frozenset[str]:
    """The built-ins that read ``what`` of a roll's dice (one of :data:`READS`)."""
    return frozenset(b.name for b in _DECLARED if b.reads == what)


def extreme(node: ast.Node) -> bool | None:
    """Whether ``node``, a call of ``max`` (True) or ``min`` (False) of two or more values,
    gives their highest or their lowest; None for anything else."""
    if not isinstance(node, ast.Call) or len(node.args) < 2:
        return None
    builtin = BUILTINS.get(node.name)
    return None if builtin is None else builtin.highest


def on_the_term(call: ast.Call, term: str) -> str | None:
    """What a call that reads a dice term's dice written inline (``count(4d6, 6)``) means,
    written on the term itself where the language has a modifier for it (``4d6cs6``): a term
    given to a function is its total, so the call itself is refused, and its hint says this.
    None where there is no such spelling (a term with modifiers of its own, ``initial()``)."""
    arg = ast.bare(call.args[0]) if call.args else None
    if not isinstance(arg, ast.Dice) or arg.modifiers or reads(call) is None:
        return None
    if call.name == "highest" or call.name == "lowest":
        return f"{term}k{call.name[0]}1"
    numbers = [a.value for a in map(ast.bare, call.args[1:]) if isinstance(a, ast.Num)]
    if call.name != "count" or not numbers or len(numbers) != len(call.args) - 1:
        return None
    lo, hi = numbers[0], numbers[-1]
    sides = arg.die.sides if arg.die is not None else None  # None: faces of its own (dF, d{...})
    if lo < 0 or hi < 0:
        return None
    if lo == hi:
        return f"{term}cs{lo}"
    if sides is None:
        return None
    if hi >= sides:
        return f"{term}cs>={lo}"
    return f"{term}cs<={hi}" if lo <= 1 else None


def conditional(node: ast.Node) -> tuple[ast.Node, ast.Node, ast.Node] | None:
    """``if(c, a, b)``: its condition and its two branches; None for any other node."""
    if isinstance(node, ast.Call) and node.name == _IF.name and len(node.args) == 3:
        return node.args[0], node.args[1], node.args[2]
    return None
