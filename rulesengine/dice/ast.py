"""The typed syntax tree of the expression language.

Every node is an immutable record (:mod:`rulesengine.records`) carrying ``span`` = (start, end), 0-based character
offsets into the expression text, so any later error (a division by zero, an unknown
name, a limit) can point at the exact characters, and a ruleset can map them to a
file column. Nodes are plain data: the evaluator and the renderers walk them; nothing
here rolls dice or formats output.
"""

from __future__ import annotations

import operator
from types import MappingProxyType
from typing import Any
from collections.abc import Callable, Collection, Iterator, Mapping

from ..records import Record, replace

Span = tuple[int, int]


# ---- dice -----------------------------------------------------------------------------


class Die(Record):
    """One kind of die: its faces, in order. ``d6`` is (1..6); ``dF`` is (-1, 0, 1).

    Standard dice keep only ``sides`` so that ``d1000000`` does not build a tuple.
    """

    sides: int | None = None  # a standard die 1..sides
    custom: tuple[int, ...] | None = None  # explicit faces, repeats allowed
    text: str = ""
    labels: tuple[tuple[int, str], ...] | None = None  # (face, the label printed on it): traces, entry
    # Symbol dice: the symbols printed on each face, in the order of ``custom`` (whose numbers
    # are then the faces' places, 1 to n): ``d{[], [hit], [hit, hit]}``.
    symbols: tuple[tuple[str, ...], ...] | None = None
    name: str | None = None  # ``d{ability}``: a die declared by this name in a ruleset's ``dice:``

    def label(self, face: int) -> str | None:
        """The label printed on ``face``, if the die has one."""
        return face_label(self.labels or (), face)

    @property
    def declared(self) -> bool:
        """The die's faces are known: false for ``d{ability}`` until a ruleset names them."""
        return self.sides is not None or self.custom is not None

    def symbols_on(self, face: int) -> tuple[str, ...]:
        """The symbols printed on ``face`` of a symbol die (its place, 1 to n); none on
        other dice, or on a value no face has (a compounded sum)."""
        if self.symbols is None or not 1 <= face <= len(self.symbols):
            return ()
        return self.symbols[face - 1]

    @property
    def faces(self) -> tuple[int, ...]:
        if self.custom is not None:
            return self.custom
        return tuple(range(1, self.sides + 1))  # type: ignore[operator]

    @property
    def size(self) -> int:
        return len(self.custom) if self.custom is not None else self.sides  # type: ignore[return-value]

    @property
    def lowest(self) -> int:
        return min(self.custom) if self.custom is not None else 1

    @property
    def highest(self) -> int:
        return max(self.custom) if self.custom is not None else self.sides  # type: ignore[return-value]


def symbol_label(symbols: tuple[str, ...]) -> str:
    """How a symbol face is shown in traces and entered as a physical face: its symbols
    joined by ``+`` (``success+advantage``), ``blank`` for none."""
    return "+".join(symbols) if symbols else "blank"


def symbol_die(faces: tuple[tuple[str, ...], ...], text: str, name: str | None = None) -> Die:
    """A die whose faces show symbols: numbered 1 to n in the order given, each labelled by
    its symbols."""
    return Die(custom=tuple(range(1, len(faces) + 1)), text=text, symbols=faces, name=name,
               labels=tuple((i, symbol_label(f)) for i, f in enumerate(faces, 1)))


def face_label(labels: tuple[tuple[int, str], ...], face: int) -> str | None:
    """The label of ``face`` among a die's (face, label) pairs, if it has one."""
    for value, text in labels:
        if value == face:
            return text
    return None


# The test behind every comparison a die condition may be written with. The grammar's
# condition operators and this table must list the same spellings (a test checks it); a
# Cond with any other operator cannot be made, so a missing entry fails loudly instead of
# falling back to some other test.
CONDITION_TESTS: Mapping[str, Callable[[int, int], bool]] = MappingProxyType({
    "=": operator.eq,
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
})


class Cond(Record):
    """A test on one die's face, e.g. ``>=8``; ``op`` is a key of CONDITION_TESTS, kept as
    written (``==`` and ``=`` both mean equal; a bare number is stored as ``=``)."""

    op: str
    value: int
    high: int | None = None  # a range of faces, ``2..5`` (op ``..``): value to high

    def __post_init__(self) -> None:
        if self.op not in CONDITION_TESTS:
            raise ValueError(f"no test for the die condition operator {self.op!r}")

    def __call__(self, face: int) -> bool:
        if self.high is not None:
            return self.value <= face <= self.high
        return CONDITION_TESTS[self.op](face, self.value)

    @property
    def is_equality(self) -> bool:
        return self.high is None and CONDITION_TESTS[self.op] is operator.eq

    def text(self) -> str:
        return f"{self.value}..{self.high}" if self.high is not None else f"{self.op}{self.value}"


class CondExpr(Record):
    """A test on one die's face whose number is an expression in parentheses, e.g.
    ``>=(tn)``: worked out before the dice are rolled (it may not roll dice), then read as
    the :class:`Cond` it gives (see :func:`with_conditions`)."""

    op: str
    expr: Node
    source: str  # the expression as written, for traces and errors

    def __post_init__(self) -> None:
        if self.op not in CONDITION_TESTS:
            raise ValueError(f"no test for the die condition operator {self.op!r}")

    @property
    def is_equality(self) -> bool:
        return CONDITION_TESTS[self.op] is operator.eq

    def text(self) -> str:
        return f"{'' if self.op == '=' else self.op}({self.source})"


class Keep(Record):
    """``kh n``, ``kl n``, ``dh n``, ``dl n``: keep or drop the n highest or lowest dice."""

    kind: str  # "kh" | "kl" | "dh" | "dl"
    n: int
    span: Span
    expr: Node | None = None  # `kh(n)`: the number from an expression (n is then 0 until written in)
    source: str = ""  # that expression as written


EXPLODE_MARKS: Mapping[str, str] = MappingProxyType({"explode": "!", "compound": "!!", "penetrate": "!p", "once": "!o"})


class Explode(Record):
    """``!`` adds a die, ``!!`` adds to the same die, ``!p`` adds a die worth one less,
    ``!o`` adds a die that does not explode in turn."""

    kind: str  # "explode" | "compound" | "penetrate" | "once"
    cond: Cond | CondExpr | None  # None: on the die's highest face
    span: Span

    def text(self) -> str:
        """The mark and its condition in a form that reads back the same: ``!!`` then
        ``=N`` would be ambiguous with ``!`` then ``!=N``, so it is written ``!!==N``."""
        mark = EXPLODE_MARKS[self.kind]
        if self.cond is None:
            return mark
        if self.kind == "compound" and self.cond.is_equality and isinstance(self.cond, Cond):
            return f"{mark}=={self.cond.value}"
        return mark + self.cond.text()


class Reroll(Record):
    """``ro`` rerolls once; ``r`` rerolls until the face no longer matches."""

    once: bool
    cond: Cond | CondExpr
    span: Span


class RerollRank(Record):
    """``rolN`` / ``rohN``: after the throw, the N lowest (highest) dice are rolled once
    more and the new faces stay."""

    lowest: bool
    n: int
    span: Span

    def text(self) -> str:
        return f"ro{'l' if self.lowest else 'h'}{self.n}"


class CountDice(Record):
    """``cs`` counts dice meeting the condition; ``cf`` subtracts those meeting it."""

    failures: bool
    cond: Cond | CondExpr
    span: Span


class KeepFace(Record):
    """``k=3`` keeps only the dice showing a face that meets the condition, ``p1`` drops
    them: a filter on the dice's values, applied before keeps by rank (``kh``...)."""

    keep: bool  # True: k (keep those meeting it); False: p (drop them)
    cond: Cond | CondExpr
    span: Span

    def text(self) -> str:
        """``k=3`` (``k3`` would be ambiguous), ``p1`` (a bare number, as for ``r1``)."""
        cond = self.cond.text()
        if not self.keep and isinstance(self.cond, Cond) and self.cond.op == "=" and cond[1:2].isdigit():
            cond = cond[1:]
        return ("k" if self.keep else "p") + cond


class Clamp(Record):
    """``min n`` raises each die to at least n; ``max n`` lowers each to at most n."""

    kind: str  # "min" | "max"
    n: int
    span: Span


Modifier = Keep | Explode | Reroll | RerollRank | CountDice | KeepFace | Clamp


class Dice(Record):
    """``count`` dice of kind ``die`` — or, for ``d(expr)``, with ``sides`` from an expression
    (then ``die`` is None and the die is known only when the expression is evaluated)."""

    count: Node
    die: Die | None
    modifiers: tuple[Modifier, ...]
    span: Span
    sides: Node | None = None


# ---- everything else ------------------------------------------------------------------


class Num(Record):
    value: int
    span: Span


class Str(Record):
    value: str
    span: Span


class Bool(Record):
    value: bool
    span: Span


class Name(Record):
    name: str
    span: Span


class Neg(Record):
    operand: Node
    span: Span


class Binary(Record):
    """Arithmetic on whole numbers. ``/`` rounds down unless wrapped in ceil() or round()."""

    op: str  # + - * /
    left: Node
    right: Node
    span: Span


class Compare(Record):
    op: str  # < <= > >= == !=
    left: Node
    right: Node
    span: Span


class Logic(Record):
    op: str  # and | or
    left: Node
    right: Node
    span: Span


class Not(Record):
    operand: Node
    span: Span


class Call(Record):
    name: str
    args: tuple[Node, ...]
    span: Span


class SetKeep(Record):
    """``(a, b, c)kh1``: several values (each its own roll), the highest (``kh``) or lowest
    (``kl``) kept or dropped (``dh``, ``dl``) in the order written; the value is the sum of
    those kept. A set with no keep adds them all up."""

    items: tuple[Node, ...]
    keeps: tuple[Keep, ...]
    span: Span


class PoolKeep(Record):
    """``(pool)p1``, ``(pool)k>=2``: the dice of a pool of mixed dice (a ``dice_pool`` input,
    or an earlier roll of one) kept by their faces, as ``4d6p1`` keeps a dice term's: once
    rolled, only the dice that pass are kept (their total, what the rules read of them)."""

    inner: Node
    keeps: tuple[KeepFace, ...]
    span: Span


class Group(Record):
    """Parentheses, kept so the trace prints the expression the way it was written."""

    inner: Node
    span: Span


class Labeled(Record):
    """``1d20[attack]``: a label shown in traces, with no effect on the value."""

    inner: Node
    label: str
    span: Span


Node = (Num | Str | Bool | Name | Dice | Neg | Binary | Compare | Logic | Not | Call | Group | Labeled | SetKeep
        | PoolKeep)


def bare(node: Node) -> Node:
    """``node`` without the parentheses and labels around it (``((roll))``, ``roll[attack]``):
    the expression whose value it is."""
    while isinstance(node, (Group, Labeled)):
        node = node.inner
    return node


def children(node: Node) -> tuple[Node, ...]:
    """The direct sub-expressions of a node, in reading order."""
    of_kind = _CHILDREN.get(type(node))
    return of_kind(node) if of_kind is not None else _children_by_kind(node)


def _children_by_kind(node: Node) -> tuple[Node, ...]:
    """:func:`children` of a node whose class is not one of this module's own (a subclass)."""
    if isinstance(node, (Binary, Compare, Logic)):
        return _operands(node)
    if isinstance(node, (Neg, Not)):
        return (node.operand,)
    if isinstance(node, (Group, Labeled)):
        return (node.inner,)
    if isinstance(node, Call):
        return node.args
    if isinstance(node, SetKeep):
        return node.items
    if isinstance(node, PoolKeep):
        return _pool_children(node)
    if isinstance(node, Dice):
        return _dice_children(node)
    return ()


def _operands(node: Binary | Compare | Logic) -> tuple[Node, ...]:
    return (node.left, node.right)


def _pool_children(node: PoolKeep) -> tuple[Node, ...]:
    return (node.inner,) + keep_exprs(node)


def _dice_children(node: Dice) -> tuple[Node, ...]:
    counted = (node.count,) if node.sides is None else (node.count, node.sides)
    return counted + condition_exprs(node) if node.modifiers else counted


def _leaf(node: Node) -> tuple[Node, ...]:
    return ()


_CHILDREN: Mapping[type, Callable[[Any], tuple[Node, ...]]] = MappingProxyType({
    Binary: _operands, Compare: _operands, Logic: _operands,
    Neg: lambda n: (n.operand,), Not: lambda n: (n.operand,), Group: lambda n: (n.inner,),
    Labeled: lambda n: (n.inner,),
    Call: operator.attrgetter("args"), SetKeep: operator.attrgetter("items"), PoolKeep: _pool_children,
    Dice: _dice_children, Num: _leaf, Str: _leaf, Bool: _leaf, Name: _leaf,
})
""":func:`children` by the node's class: one look-up instead of a test for each kind."""


def condition_exprs(node: Dice) -> tuple[Node, ...]:
    """The expressions written in parentheses in a dice term's modifiers (``cs>=(tn)``,
    ``kh(best)``), in the order of its modifiers."""
    out: list[Node] = []
    for m in node.modifiers:
        if isinstance(m, (Explode, Reroll, CountDice, KeepFace)) and isinstance(m.cond, CondExpr):
            out.append(m.cond.expr)
        elif isinstance(m, Keep) and m.expr is not None:
            out.append(m.expr)
    return tuple(out)


def keep_exprs(node: PoolKeep) -> tuple[Node, ...]:
    """The expressions written in parentheses in a pool's keeps by face (``(pool)k>=(tn)``)."""
    return tuple(k.cond.expr for k in node.keeps if isinstance(k.cond, CondExpr))


def with_keep_numbers(keeps: tuple[KeepFace, ...], values: tuple[int, ...]) -> tuple[KeepFace, ...]:
    """``keeps`` with the expressions of their conditions replaced by their values (in the
    order of :func:`keep_exprs`)."""
    it = iter(values)
    return tuple(replace(k, cond=Cond(k.cond.op, next(it))) if isinstance(k.cond, CondExpr) else k for k in keeps)


def with_conditions(node: Dice, values: tuple[int, ...]) -> Dice:
    """``node`` with the expressions of its modifiers replaced by their values (in the
    order of :func:`condition_exprs`): a dice term whose rules are all known."""
    it = iter(values)
    mods: list[Modifier] = []
    for m in node.modifiers:
        if isinstance(m, (Explode, Reroll, CountDice, KeepFace)) and isinstance(m.cond, CondExpr):
            m = replace(m, cond=Cond(m.cond.op, next(it)))
        elif isinstance(m, Keep) and m.expr is not None:
            m = Keep(m.kind, next(it), m.span)
        mods.append(m)
    return replace(node, modifiers=tuple(mods))


_CHILD_FIELDS: Mapping[type, tuple[str, ...]] = MappingProxyType({
    Binary: ("left", "right"), Compare: ("left", "right"), Logic: ("left", "right"),
    Neg: ("operand",), Not: ("operand",), Group: ("inner",), Labeled: ("inner",),
})


def map_dice(node: Node, fn: Callable[[Dice], Dice]) -> Node:
    """``node`` with each dice term replaced by ``fn`` of it (the count and sides of a term
    first): a ruleset writes in the faces of the dice it declares by name. Parts without dice
    are kept as they are. Recursive: the parser bounds the depth of a tree."""
    return _map_dice(node, fn, _holding_dice(node))


def _holding_dice(node: Node) -> set[int]:
    """The ids of the nodes of ``node``'s tree that are or hold a dice term (one walk, children
    before parents; the tree keeps every node alive while the ids are read)."""
    held: set[int] = set()
    stack: list[tuple[Node, bool]] = [(node, False)]
    while stack:
        n, done = stack.pop()
        if not done:
            stack.append((n, True))
            stack.extend((c, False) for c in children(n))
        elif isinstance(n, Dice) or any(id(c) in held for c in children(n)):
            held.add(id(n))
    return held


def _map_dice(node: Node, fn: Callable[[Dice], Dice], held: set[int]) -> Node:
    if id(node) not in held:
        return node
    if isinstance(node, Dice):
        sides = None if node.sides is None else _map_dice(node.sides, fn, held)
        return fn(replace(node, count=_map_dice(node.count, fn, held), sides=sides))
    if isinstance(node, Call):
        return replace(node, args=tuple(_map_dice(a, fn, held) for a in node.args))
    if isinstance(node, SetKeep):
        return replace(node, items=tuple(_map_dice(i, fn, held) for i in node.items))
    if isinstance(node, PoolKeep):
        return replace(node, inner=_map_dice(node.inner, fn, held))
    names = _CHILD_FIELDS.get(type(node), ())
    return replace(node, **{f: _map_dice(getattr(node, f), fn, held) for f in names})


WITH_NAMES_NODES = 4096
"""The most nodes :func:`with_names` builds: values written in terms of each other (``b: a + a``,
``c: b + b``, …) double with each; past this, the caller reads the expression otherwise."""
WITH_NAMES_DEPTH = 256
"""The deepest tree :func:`with_names` builds (a chain of values each one more than the last
nests one level each): within Python's recursion with room to spare."""


def with_names(node: Node, trees: Mapping[str, Node]) -> Node | None:
    """``node`` with each name of ``trees`` replaced by its tree, and again inside the trees
    put in (a value worked out from another): an expression read whole through the values
    it names (a check's result through its lets, for its mean). The trees' spans are their
    own texts'. None where it would pass :data:`WITH_NAMES_NODES` nodes. Names in a die's
    conditions (``cs>=(tn)``) are left as they are."""
    built = 0

    def put(n: Node, depth: int) -> Node:
        nonlocal built
        built += 1
        if built > WITH_NAMES_NODES or depth > WITH_NAMES_DEPTH:
            raise _TooBig
        d = depth + 1
        if isinstance(n, Name):
            return put(trees[n.name], d) if n.name in trees else n
        if isinstance(n, Dice):
            return replace(n, count=put(n.count, d), sides=None if n.sides is None else put(n.sides, d))
        if isinstance(n, Call):
            return replace(n, args=tuple(put(a, d) for a in n.args))
        if isinstance(n, SetKeep):
            return replace(n, items=tuple(put(i, d) for i in n.items))
        if isinstance(n, PoolKeep):
            return replace(n, inner=put(n.inner, d))
        fields = _CHILD_FIELDS.get(type(n), ())
        return replace(n, **{f: put(getattr(n, f), d) for f in fields}) if fields else n

    try:
        return put(node, 0)
    except _TooBig:
        return None


class _TooBig(Exception):
    """:func:`with_names` passed its bound."""


def walk(node: Node) -> Iterator[Node]:
    """Every node of the tree, parents before children (iterative: trees may be deep)."""
    stack = [node]
    pop, push, more = stack.pop, stack.append, stack.extend
    kinds = _CHILDREN
    while stack:
        n = pop()
        yield n
        of_kind = kinds.get(type(n))
        below = of_kind(n) if of_kind is not None else _children_by_kind(n)
        if len(below) == 1:
            push(below[0])
        elif below:
            more(reversed(below))



def has_dice(node: Node) -> bool:
    """Whether the tree rolls dice anywhere in it (a dice term at any depth)."""
    return any(isinstance(n, Dice) for n in walk(node))

def arguments(node: Node, functions: Collection[str] | None = None, first: bool = False) -> Iterator[Node]:
    """What is passed to the calls in ``node``, each argument :func:`bare`: to the calls of
    ``functions`` only, if given; only their first argument, if ``first``. The one way an
    expression sees more of a value than a number (``count(roll, 6)``, ``highest(if(c, a, b))``)."""
    for n in walk(node):
        if isinstance(n, Call) and (functions is None or n.name in functions):
            for arg in n.args[:1] if first else n.args:
                yield bare(arg)


def names(node: Node) -> frozenset[str]:
    """The free names an expression reads from its environment."""
    return frozenset(n.name for n in walk(node) if isinstance(n, Name))
