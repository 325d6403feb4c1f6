"""Which rolls of a check must keep their single faces: those a function that looks at single
dice (count, highest, lowest) is given, directly or through a name that may hold the roll
whole. The runner keeps faces only for these, so every other roll can be summed as it goes.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ..dice import ast
from ..dice.builtins import (BUILTINS, COUNTS, FIRST_THROW, HIGHEST_FACE, READERS, SIZES, SYMBOL_COUNTS,
                             conditional, extreme, names_reading, reads)
from ..dice.context import Context
from ..dice.evaluate import compile_expression
from ..dice.sampling import Sampling
from ..dice.values import Rolled
from ..dice.view_fold import Term
from ..limits import DEFAULT_LIMITS
from ..records import Record, replace
from ..dice.pool_odds import PoolView
from .model import Check, Expr, check_expressions

# What is known of an expression before anything is rolled (see :func:`face_views`): the
# value of a node of ``Expr``'s tree that reads only inputs and lets of inputs, or None
# where it is not known (it reads a roll, rolls dice itself, or nothing is bound yet).
Settle = Callable[[ast.Node, Expr], Any]


def _carriers(check: Check, aliases: dict[str, str] | None = None, settle: Settle | None = None
              ) -> dict[str, set[str]]:
    """Each name that may hold a roll whole, with the rolls it may hold: the rolls
    themselves, lets, the result, and ``aliases`` of these; ``settle``: an ``if()`` whose
    condition it knows holds only its taken branch (``if(weary, 4 * count(sd, 4) + …, sd)``
    holds no roll where weary is true)."""
    carries: dict[str, set[str]] = {}
    for n, e in check.rolls:  # a roll may be an earlier one, taken again (`if(c, 2d6, first)`)
        carries[n] = {n} | _carried(e, carries, settle)
    for let in check.lets:  # in order: a let reads only the names before it
        held = set()
        for e in ([let.expr] if let.expr is not None else []) + [c.value for c in let.best_of]:
            held |= _carried(e, carries, settle)
        if held:
            carries[let.name] = held
    held = set()
    for result in [check.result] + [o.result for o in check.outcomes]:
        held |= _carried(result, carries, settle)
    if held:
        carries["result"] = held
    for alias, name in (aliases or {}).items():
        if name in carries:
            carries[alias] = carries[name]
    return carries


def face_views(check: Check, exprs: list, aliases: dict[str, str] | None = None,
               known: dict[str, PoolView | None] | None = None,
               settle: Settle | None = None, beside: bool = False) -> dict[str, PoolView | None]:
    """For each roll of ``check`` whose dice ``exprs`` look at (see :func:`faces_needed`),
    what they read of them (a :class:`PoolView`), or None when that can't be told in
    advance (a count of a range given by a name, a roll chosen from); merged with the
    views ``known`` already. A view reads the total too wherever the roll may be read
    whole: as a number in ``exprs``, held by a let or the result, or reported.

    ``beside``: ``exprs`` are read beside the check's own rules (a condition of conditional
    odds, a procedure's rules), whose views are in ``known``: a roll those rules read by
    none of its dice, they read whole (``result: roll + bonus``), so its new view reads its
    total too (without it, ``--given "count(roll, 6) >= 1"`` read every throw as one).

    ``settle``: what is known once the inputs are given (exact odds for given inputs): an
    ``if()`` whose condition it knows reads only its taken branch, and a count's bound it
    knows is read as that number (``count(roll, double, 10)`` is ``count(roll, 8, 10)``
    for double = 8)."""
    carries = _carriers(check, aliases, settle)
    walk = _ViewWalk(carries, dict(known or {}), settle)
    for e in exprs:
        if e is not None:
            walk.expr(e)
    views = walk.views
    own = _named_by_rules(check) if beside else frozenset()
    for roll, view in list(views.items()):
        if view is not None and (_read_whole(roll, carries, exprs, walk.plain, check, settle)
                                 or (roll in own and roll not in (known or {}))):
            views[roll] = view.merge(PoolView(total=True))
    return views


def _named_by_rules(check: Check) -> frozenset[str]:
    """The names the check's own expressions read, and those it reports."""
    return frozenset(n for e in check_expressions(check) for n in e.names) | frozenset(check.report)


class _ViewWalk:
    """What :func:`face_views` gathers as it walks the expressions: the views so far; the
    Name nodes that are a pool function's first argument (``plain``); the ``initial()``
    calls and ``symbols()`` sums read already, through a count's view or as one net read."""

    def __init__(self, carries: dict[str, set[str]], views: dict[str, PoolView | None],
                 settle: Settle | None) -> None:
        self.carries = carries
        self.views = views
        self.settle = settle
        self.plain: dict[int, str] = {}
        self.counted_first: set[int] = set()
        self.compared: dict[int, int] = {}

    def expr(self, e: Expr) -> None:
        # Only numbers written out: a number known from the inputs would make each value of a
        # sweep read the roll its own way, where they share one distribution now.
        nodes = list(_live(e, self.settle))  # walked once, for both readings below
        self.compared = compared_caps(nodes)
        for node in nodes:
            if isinstance(node, (ast.Binary, ast.Neg)) and id(node) not in self.counted_first \
                    and (self._net_symbols(node) or self._count_sum(node, e) or self._complete_sum(node, e)):
                continue
            if isinstance(node, ast.Call) and extreme(node) is not None and id(node) not in self.counted_first \
                    and self._count_extreme(node, e):
                continue
            if isinstance(node, ast.Call) and node.name in READERS and node.args \
                    and id(node) not in self.counted_first:
                self._reader(node, e)

    def _merge(self, roll: str, seen: PoolView | None) -> None:
        """What a roll's readers read: None (can't be told) stays None."""
        if roll in self.views and self.views[roll] is None:
            return
        self.views[roll] = None if seen is None else (self.views.get(roll) or PoolView()).merge(seen)

    def _net_symbols(self, node: ast.Node) -> bool:
        """symbols(roll, 'success') - symbols(roll, 'failure'): one read, the net count
        (whether ``node`` is one)."""
        net = _symbol_sum(node)
        if net is None or not net[2]:
            return False
        self._read_as_one(node, net[0], net[2], PoolView(symbols=(net[1],)))
        return True

    def _count_sum(self, node: ast.Node, e: Expr) -> bool:
        """``count(roll, 7, 10) + count(roll, 9, 10)``: one read, the counts' weighted sum
        (whether ``node`` is one: two or more counts of one roll, added or taken away, each
        bound a number written out or known from the inputs)."""
        found = _count_sum(node, None if self.settle is None else _bound_in(self.settle, e))
        if found is None:
            return False
        self._read_as_one(node, found[0], found[2], PoolView(sums=(found[1],)))
        return True

    def _complete_sum(self, node: ast.Node, e: Expr) -> bool:
        """``min(count(roll, 1), 1) + min(count(roll, 2), 1) + …`` or ``floor(count(roll, 1) / 2)
        + …``: one read, the sum (whether ``node`` is one: numbers each made of one count of
        one roll and numbers written out, added or taken away, at least one of them more than
        the count, each range known before rolling)."""
        bound = None if self.settle is None else _bound_in(self.settle, e)
        terms = _weighted_terms(node, bound)
        if terms is None:
            return False
        # numbers known before rolling are the same for every roll: added when the rules are worked out
        found = _count_terms([(n, w) for n, w in terms if _number(n, bound) is None], bound, e.text)
        if found is None or all(cap is None and f is None for _, cap, f, _ in found[1]):
            return False  # counts alone: a sum of counts (_count_sum) or one count
        self._read_as_one(node, found[0], found[2], PoolView(complete=(("sum", found[1]),)))
        return True

    def _count_extreme(self, node: ast.Call, e: Expr) -> bool:
        """``max(count(roll, 1), count(roll, 2), …)``, ``max(if(count(roll, 1) >= 2, 1, 0), …)``:
        one read, the largest (smallest) of numbers each made of one count (whether ``node`` is
        one: two or more of them, of one roll, each count of its dice, not ``initial()``, in a
        range of whole numbers known before rolling)."""
        bound = None if self.settle is None else _bound_in(self.settle, e)
        found = _count_terms([(arg, 1) for arg in node.args], bound, e.text)
        if found is None or len(found[1]) < 2:
            return False
        self._read_as_one(node, found[0], found[2], PoolView(complete=(("max" if extreme(node) else "min", found[1]),)))
        return True

    def _read_as_one(self, node: ast.Node, name: str, calls: list[ast.Call], seen: PoolView) -> None:
        """The pool functions ``calls`` in ``node``, all of roll ``name``, read as the one
        number ``seen`` reads: none of them is read again on its own."""
        self.counted_first.update(id(c) for c in ast.walk(node))
        for call in calls:
            self.plain[id(ast.bare(call.args[0]))] = name
        for roll in _carried(calls[0].args[0], self.carries):
            self._merge(roll, seen)

    def _reader(self, node: ast.Call, e: Expr) -> None:
        """A function that reads single dice, of the rolls its first argument may hold."""
        arg = ast.bare(node.args[0])
        first_throw = False
        if reads(node) == COUNTS and isinstance(arg, ast.Call) and reads(arg) == FIRST_THROW \
                and len(arg.args) == 1:
            first_throw = True
            self.counted_first.add(id(arg))
            arg = ast.bare(arg.args[0])
        if isinstance(arg, ast.Name):
            self.plain[id(arg)] = arg.name
        seen = _observation(node, None if self.settle is None else _bound_in(self.settle, e))
        if first_throw and seen is not None:  # count(initial(roll), 1): counts of the first throw
            seen = PoolView(initial=seen.counts)
        if seen is not None and id(node) in self.compared and len(seen.counts + seen.initial) == 1:
            # only compared with a number: read as at most one past it (see PoolView.caps)
            key = (first_throw, (seen.initial or seen.counts)[0])
            seen = seen._replace(caps=((key, max(self.compared[id(node)] + 1, 1)),))
        elif seen is not None and id(node) in self.compared and len(seen.symbols) == 1 \
                and all(sign > 0 for _, sign in seen.symbols[0]):
            # symbols counted (none taken away), only compared with a number: the same
            seen = seen._replace(symbol_caps=((seen.symbols[0], max(self.compared[id(node)] + 1, 1)),))
        for roll in _carried(node.args[0], self.carries):
            self._merge(roll, seen)


def _symbols_call(node: ast.Node) -> tuple[str, dict[str, int]] | None:
    """``symbols(name, 'a', 'b')``: the name and the symbols it counts; None for anything else."""
    if not (isinstance(node, ast.Call) and reads(node) == SYMBOL_COUNTS and len(node.args) >= 2):
        return None
    arg = ast.bare(node.args[0])
    if not isinstance(arg, ast.Name) or not all(isinstance(a, ast.Str) for a in node.args[1:]):
        return None
    return arg.name, {str(a.value): 1 for a in node.args[1:] if isinstance(a, ast.Str)}


def _symbol_sum(node: ast.Node) -> tuple[str, tuple[tuple[str, int], ...], list[ast.Call]] | None:
    """A sum and difference of ``symbols()`` counts of one roll (``symbols(r, 'success') -
    symbols(r, 'failure')``): the roll's name, the net read (each symbol with its sign) and
    the calls; None for anything else."""
    terms = _weighted_terms(node, None)
    if terms is None:
        return None
    name: str | None = None
    net: dict[str, int] = {}
    calls: list[ast.Call] = []
    for n, sign in terms:
        one = _symbols_call(n)
        if one is None or (name is not None and one[0] != name):
            return None
        name = one[0]
        calls.append(n)  # type: ignore[arg-type]
        for symbol, k in one[1].items():
            net[symbol] = net.get(symbol, 0) + sign * k
    assert name is not None
    return name, tuple(sorted((s, k) for s, k in net.items() if k)), calls


def _weighted_terms(node: ast.Node, bound: Callable[[ast.Node], Any] | None) -> list[tuple[ast.Node, int]] | None:
    """The terms of a sum and difference (``a + b - c``, ``-(a - b)``, ``2 * a``), each with
    its whole-number weight, seeing through an ``if()`` whose condition ``bound`` knows (its
    taken branch); None where a product has no number known before rolling on either side."""
    out: list[tuple[ast.Node, int]] = []
    terms: list[tuple[ast.Node, int]] = [(node, 1)]
    while terms:
        n, weight = terms.pop()
        while isinstance(n, ast.Group):
            n = n.inner
        parts = conditional(n) if bound is not None else None
        taken = bound(parts[0]) if parts is not None and bound is not None else None
        if parts is not None and isinstance(taken, bool):
            terms.append((parts[1] if taken else parts[2], weight))
        elif isinstance(n, ast.Neg):
            terms.append((n.operand, -weight))
        elif isinstance(n, ast.Binary) and n.op in "+-":
            terms += [(n.left, weight), (n.right, weight if n.op == "+" else -weight)]
        elif isinstance(n, ast.Binary) and n.op == "*":
            left, right = _number(n.left, bound), _number(n.right, bound)
            if left is None and right is None:
                return None
            terms.append((n.right, weight * left) if left is not None else (n.left, weight * (right or 0)))
        else:
            out.append((n, weight))
    return out


def _count_sum(node: ast.Node, bound: Callable[[ast.Node], Any] | None
               ) -> tuple[str, tuple[tuple[tuple[int, int] | None, int], ...], list[ast.Call]] | None:
    """A weighted sum of two or more ``count()`` calls of one roll, by name, each of its dice
    (not ``initial()``) in a range of whole numbers (see :func:`_observation`), and numbers
    known before rolling: the name, each range with its weight (a range counted twice weighs
    2), and the calls; None for anything else."""
    terms = _weighted_terms(node, bound)
    if terms is None:
        return None
    name: str | None = None
    weights: dict[tuple[int, int] | None, int] = {}
    calls: list[ast.Call] = []
    for n, weight in terms:
        if _number(n, bound) is not None:
            continue  # the same for every roll: added when the rules are worked out
        if not (isinstance(n, ast.Call) and reads(n) == COUNTS and n.args):
            return None
        arg = ast.bare(n.args[0])
        if not isinstance(arg, ast.Name) or (name is not None and arg.name != name):
            return None
        seen = _observation(n, bound)
        if seen is None or len(seen.counts) != 1:
            return None
        name = arg.name
        calls.append(n)
        weights[seen.counts[0]] = weights.get(seen.counts[0], 0) + weight
    if name is None or len(calls) < 2 and all(k == 1 for k in weights.values()):
        return None  # one count as written: read as a count
    read = tuple((c, k) for c, k in weights.items() if k)
    return (name, read, calls) if read else None


def _one_range(count: ast.Call, bound: Callable[[ast.Node], Any] | None, name: str | None
               ) -> tuple[str, tuple[int, int]] | None:
    """The roll a ``count()`` call reads, by name (``name`` if given), and the one range of
    faces it counts, known before rolling; None for anything else (``count(roll)``, a bound
    read from a roll, another roll)."""
    roll = ast.bare(count.args[0])
    seen = _observation(count, bound)
    if not isinstance(roll, ast.Name) or (name is not None and roll.name != name) or seen is None \
            or len(seen.counts) != 1 or seen.counts[0] is None:
        return None
    return roll.name, seen.counts[0]


def _count_terms(weighted: list[tuple[ast.Node, int]], bound: Callable[[ast.Node], Any] | None, text: str
                 ) -> tuple[str, tuple[Term, ...], list[ast.Call]] | None:
    """Numbers each made of one count of one roll (:func:`_count_term`), each with its weight,
    as the terms of a read of complete counts: the roll's name, the terms and the ``count()``
    calls; None where one is anything else, or they read more than one roll (or none)."""
    name: str | None = None
    read: list[Term] = []
    calls: list[ast.Call] = []
    for n, weight in weighted:
        found = _count_term(n)
        one = None if found is None else _one_range(found[0], bound, name)
        if one is None or found is None:
            return None
        count, cap, function = found
        name = one[0]
        read.append((one[1], cap, None if function is None else CountFunction(function, text, name, one[1][0]), weight))
        calls.append(count)
    return None if name is None else (name, tuple(read), calls)


def _count_term(node: ast.Node) -> tuple[ast.Call, int | None, ast.Node | None] | None:
    """A number made of one count of a roll and numbers written out: the ``count()`` call,
    its cap where the number is ``min(count(…), N)`` (N a whole number written out), and
    else the number's tree where it is more than the count (``floor(count(roll, 1) / 2)``,
    ``if(count(roll, 1) >= 2, 1, 0)``: built-ins that read no dice); None for anything else."""
    node = ast.bare(node)
    if isinstance(node, ast.Call) and reads(node) == COUNTS and node.args:
        return node, None, None
    taken = _min_with_number(node)
    if taken is not None and isinstance(taken[0], ast.Call) and reads(taken[0]) == COUNTS and taken[0].args \
            and taken[1] >= 0:
        return taken[0], taken[1], None
    count = _only_count(node)
    return None if count is None else (count, None, node)


def _min_with_number(node: ast.Node) -> tuple[ast.Node, int] | None:
    """``min(x, N)`` or ``min(N, x)`` with N a whole number written out: x (bare) and N; None
    for anything else."""
    if not (isinstance(node, ast.Call) and extreme(node) is False and len(node.args) == 2):
        return None
    for side, other in ((node.args[0], node.args[1]), (node.args[1], node.args[0])):
        k = _number(other, None)
        if k is not None:
            return ast.bare(side), k
    return None


def _only_count(node: ast.Node) -> ast.Call | None:
    """The one ``count()`` call of a roll by name that ``node`` reads, where everything else
    in it is numbers written out and built-ins that read no dice; None for anything else."""
    counts = [n for n in ast.walk(node) if isinstance(n, ast.Call) and reads(n) == COUNTS]
    if len(counts) != 1 or not counts[0].args or ast.has_dice(node) or not isinstance(ast.bare(counts[0].args[0]),
                                                                                      ast.Name):
        return None
    inside = {id(n) for n in ast.walk(counts[0])}
    for n in ast.walk(node):
        if id(n) in inside:
            continue
        if isinstance(n, ast.Name) or isinstance(n, ast.Call) and (n.name not in BUILTINS or reads(n) is not None):
            return None  # a name, a table or a function of dice: not a number of the count alone
    return counts[0]


class CountFunction(Record):
    """A number made of one count of a roll and numbers written out, as a function of the
    count (``floor(count(roll, 1) / 2)``: 0, 0, 1, 1, 2, …), for a pool read face by face
    (``dice.face_fold``): the dice language's own evaluator works it out on a roll of that
    many dice showing ``face`` (in the count's range). None where it fails or gives no whole
    number: the pool is then read die by die and the rules meet that where they read it."""

    tree: ast.Node
    text: str
    roll: str
    face: int

    def __call__(self, count: int) -> int | None:
        dice = Rolled(self.face * count, (self.face,) * count)  # count dice, each in the count's range
        try:
            value = _compiled(self.tree, self.text)(Context(self.text, {self.roll: dice}, DEFAULT_LIMITS))
        except Exception:  # noqa: BLE001 - the resolver meets it, with its place, die by die
            return None
        return value if type(value) is int else None


@functools.lru_cache(maxsize=256)
def _compiled(tree: ast.Node, text: str) -> Callable[[Context], Any]:
    return compile_expression(tree, Sampling(), DEFAULT_LIMITS, text)


def _bound_in(settle: Settle, e: Expr) -> Callable[[ast.Node], Any]:
    """``settle`` for the nodes of ``e``."""
    return lambda node: settle(node, e)


def _live(e: Expr, settle: Settle | None) -> Iterator[ast.Node]:
    """Every node of ``e``'s tree, parents first, that may be read: the branch of an
    ``if()`` whose condition ``settle`` knows, not the other (nor the condition); the right
    side of ``and`` (``or``) whose left side it knows is true (false), nothing of it where
    that decides (``dice == 0 and count(pool, 1) == 1`` at dice=10), as evaluation skips it
    (a right side without dice terms, see ``dice.evaluate``)."""
    if settle is None:
        yield from ast.walk(e.tree)
        return
    stack = [e.tree]
    while stack:
        n = stack.pop()
        parts = conditional(n)
        if parts is not None:
            value = settle(parts[0], e)
            if isinstance(value, bool):
                stack.append(parts[1] if value else parts[2])
                continue
        elif isinstance(n, ast.Logic) and not ast.has_dice(n.right):
            value = settle(n.left, e)
            if isinstance(value, bool):
                if value == (n.op == "and"):  # the right side decides
                    stack.append(n.right)
                continue
        yield n
        stack.extend(reversed(ast.children(n)))


def compared_caps(nodes: Iterable[ast.Node]) -> dict[int, int]:
    """The calls among ``nodes`` that are compared with a number written out,
    ``count(roll, 6) >= 2`` or ``1 <= count(roll, 6)``: each call's id, with one less than
    the most it need be read as (the largest number it is compared with; one less where the
    comparison is ``>=`` or ``<``, which tell that number from more alike). A call that
    ``min()`` takes with a number written out (``min(count(roll, 6), 1)``, one if any die
    shows a 6) is read alike: as at most that number."""
    out: dict[int, int] = {}
    for node in nodes:
        taken = _min_with_number(node)
        if taken is not None:  # min(count(roll, f), 1): read as at most 1, as `count(roll, f) >= 1` reads it
            if isinstance(taken[0], ast.Call):
                at_most = taken[1] - 1
                out[id(taken[0])] = max(out.get(id(taken[0]), at_most), at_most)
            continue
        if not isinstance(node, ast.Compare):
            continue
        for side, other, op in ((node.left, node.right, node.op), (node.right, node.left, _FLIPPED[node.op])):
            call = ast.bare(side)
            k = _number(other, None)
            if isinstance(call, ast.Call) and k is not None:
                # ``count >= k`` and ``count < k`` tell k from more alike: read as at most k;
                # the others (``> k``, ``== k``, …) as at most one past it.
                k = k - 1 if op in (">=", "<") else k
                out[id(call)] = max(out.get(id(call), k), k)
    return out


_FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
"""A comparison's operator with its sides swapped (``1 <= count(…)`` is ``count(…) >= 1``)."""


def _number(arg: ast.Node, bound: Callable[[ast.Node], Any] | None) -> int | None:
    """The whole number ``arg`` is written as (``-2``, ``(3)``), or one ``bound`` knows; else None."""
    sign = 1
    while isinstance(arg, (ast.Group, ast.Neg)):
        if isinstance(arg, ast.Neg):
            sign = -sign
            arg = arg.operand
        else:
            arg = arg.inner
    value = arg.value if isinstance(arg, ast.Num) else bound(arg) if bound is not None else None
    if not (isinstance(value, int) and not isinstance(value, bool)):
        return None
    return sign * value


def _observation(call: ast.Call, bound: Callable[[ast.Node], Any] | None = None) -> PoolView | None:
    """What one call of a pool function reads of its roll; None unless its bounds are
    whole numbers written out, or known numbers (``bound`` of them: see :func:`face_views`)."""
    read = reads(call)
    if read == SYMBOL_COUNTS:
        one = _symbols_call(call)
        return None if one is None else PoolView(symbols=(tuple(sorted(one[1].items())),))
    bounds = []
    for arg in call.args[1:]:
        value = _number(arg, bound)
        if value is None:
            return None
        bounds.append(value)
    if read in (SIZES, FIRST_THROW):
        return None  # the sizes of dice, the dice before explosions: the roll's every die
    if read == COUNTS:
        if not bounds:
            return PoolView(counts=(None,))
        return PoolView(counts=((bounds[0], bounds[-1]),))
    return PoolView(highest=True) if read == HIGHEST_FACE else PoolView(lowest=True)


def _read_whole(roll: str, carries: dict[str, set[str]], exprs: list, plain: dict[int, str], check: Check,
                settle: Settle | None = None) -> bool:
    """Whether ``roll``'s total may be read: another name holds it (a let, the result: their
    values are reported), the check reports it, or an expression reads it other than as a
    pool function's first argument."""
    if any(roll in held for name, held in carries.items() if name != roll) or roll in check.report:
        return True
    for e in exprs:
        if e is None or roll not in e.names:  # no node of its tree names the roll: not walked
            continue
        for node in _live(e, settle):
            if isinstance(node, ast.Name) and node.name == roll and id(node) not in plain:
                return True
    return False


def with_reads(check: Check) -> Check:
    """``check`` with what its rules read of its rolls (dice, views, first throws, sizes) worked
    out from its expressions: the builder's, and rules.taken's."""
    choose, chosen = check.choose, [e for _, e in check.choose.values] if check.choose else []
    exprs: list = ([e for _, e in check.rolls] + [let.expr for let in check.lets]
                   + [c.value for let in check.lets for c in let.best_of] + chosen + [check.result]
                   + [o.when for o in check.outcomes] + [o.result for o in check.outcomes]
                   + [t.when for t in check.tags] + [check.result_sign])
    faces, views, sizes = faces_needed(check, exprs), face_views(check, exprs), sizes_needed(check, exprs)
    if choose is not None:
        faces |= {choose.source}
        views[choose.source] = None  # choosing dice reads every one of them
        if reads_sizes([e for _, e in choose.values] + [choose.prefer]):
            sizes |= {choose.source}  # largest_die(rest): a d8's 3 and a d6's 3 are two choices
    return replace(check, faces_needed=frozenset(faces), face_views=tuple(sorted(views.items())),
                   initial_needed=frozenset(initial_needed(check, exprs)), sizes_needed=frozenset(sizes),
                   view_sources=((tuple(exprs), ()),))


def initial_needed(check: Check, exprs: list, aliases: dict[str, str] | None = None) -> set[str]:
    """The rolls of ``check`` whose first throw ``exprs`` read (``initial(roll)``): their
    exact odds keep which dice an explosion added, and read every die (no view)."""
    return _passed_to(names_reading(FIRST_THROW), check, exprs, aliases)


def faces_needed(check: Check, exprs: list, aliases: dict[str, str] | None = None) -> set[str]:
    """The rolls of ``check`` passed to a function that looks at single dice (count, highest,
    lowest) in ``exprs``: by name, or by a name that may hold the roll whole (a let, the
    result, ``aliases`` such as a procedure's ``roller_result``: the same as ``result``),
    through parentheses, a label or a branch of ``if()``, as the rolling path passes them."""
    return _passed_to(READERS, check, exprs, aliases)


def sizes_needed(check: Check, exprs: list, aliases: dict[str, str] | None = None) -> set[str]:
    """The rolls of ``check`` whose dice's sizes ``exprs`` read (``largest_die(roll)``): a pool
    of mixed dice is then worked out with each die's size; otherwise by its faces alone."""
    return _passed_to(names_reading(SIZES), check, exprs, aliases)


def reads_sizes(exprs: list) -> bool:
    """Whether any of ``exprs`` reads the sizes of dice (``largest_die(rest)`` in a value of
    ``choose``): which die of two alike in face is chosen then matters to the rules."""
    return any(reads(n) == SIZES for e in exprs if e is not None for n in ast.walk(e.tree))


def _passed_to(functions: frozenset[str], check: Check, exprs: list, aliases: dict[str, str] | None) -> set[str]:
    """The rolls of ``check`` that may be the first argument of one of ``functions``."""
    carries = _carriers(check, aliases)
    out: set[str] = set()
    for e in exprs:
        if e is None:
            continue
        for arg in ast.arguments(e.tree, functions, first=True):
            out |= _carried(arg, carries)
    return out


def _carried(e, carries: dict[str, set[str]], settle: Settle | None = None) -> set[str]:
    """The rolls whose value ``e`` (an Expr or a node) may be, whole; of an ``if()`` whose
    condition ``settle`` knows (given an Expr), only the taken branch's."""
    if e is None:
        return set()
    out: set[str] = set()
    stack = [getattr(e, "tree", e)]
    known = settle if isinstance(e, Expr) else None
    while stack:
        node = ast.bare(stack.pop())
        parts = conditional(node)
        if isinstance(node, ast.Name):
            out |= carries.get(node.name, set())
        elif parts is not None:
            taken = known(parts[0], e) if known is not None else None
            stack.extend(parts[1:] if not isinstance(taken, bool) else [parts[1] if taken else parts[2]])
        elif isinstance(node, ast.Call) and reads(node) == FIRST_THROW and node.args:
            stack.append(node.args[0])  # the first throw of a roll: its dice, so the roll's
    return out
