"""Rolls read only through one sum, worked out as that sum (issue 34); a term of the sum
may be the highest or lowest of rolls (``max(trait, wild) - defense``).

A swerve written as two rolls, ``good: 1d6!`` and ``bad: 1d6!``, whose rules read them only
as ``good - bad`` (in ``result: good - bad + edge``, in ``good - bad >= 4``), has the odds of
the one dice expression ``(1d6!) - (1d6!)``: and that one the dice's exact driver follows
for ever (:mod:`rulesengine.dice.open_ended`), where two rolls joined value by value are cut
at the explosion depth. It is also less work: a sum's values, not every pair of them.

So exact odds work such rolls out as one: one of them whose factor is 1 (the *carrier*) takes
each value of the sum ``Σ c·roll`` (each ``c`` a whole number written out, ``2 * good -
bad``), and the others 0. Every place the rules read them gives ``k·Σ c·roll + (what else it
adds)`` for a whole ``k``, so each reads the value it would have read of the rolls themselves.
Rolling is untouched: the trace shows every roll.

Where this holds is decided from the check and what else reads its rolls (a procedure's
rules, a condition of conditional odds): each of the rolls reads no other roll, nothing reads
its dice, and every place that reads it is a multiple of the same sum (through parentheses,
signs and numbers written out), the other way round included.

A term of the sum may be ``max`` or ``min`` of two or more of the rolls, each named bare
(``max(trait, wild) - defense``, a wild die against an exploding defense): the rolls of the
carrier's term all take the sum's value (the highest of several equal values is that value)
and the others 0, so each place still reads the sum's value.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple
from collections.abc import Iterable, Mapping

from ..dice import ast
from ..dice.builtins import extreme
from ..dice.evaluate import compile_expression
from ..dice.sampling import Sampling
from ..limits import Limits
from ..records import Record, replace
from ..rules.model import Check, Expr, check_expressions


class FusedRolls(NamedTuple):
    """Rolls worked out as one sum: ``expr`` is the sum's dice expression, named ``key``
    (no roll's name); ``carrier`` holds its value in the joint values, ``aliases`` (the
    other rolls of the carrier's ``max``/``min`` term) hold it too, the other ``members``
    hold 0."""

    key: str
    carrier: str
    members: tuple[str, ...]
    expr: Expr
    aliases: tuple[str, ...] = ()


class Alias(NamedTuple):
    """The value of a roll fused into a sum that holds what another (``of``, the carrier)
    holds: a roll of the carrier's ``max``/``min`` term."""

    of: str


Term = str | tuple[str, tuple[str, ...]]  # a roll, or (the max()/min() called, the rolls it reads, in order)


def term_rolls(term: Term) -> tuple[str, ...]:
    """The rolls a term of a sum reads."""
    return (term,) if isinstance(term, str) else term[1]


def _signatures(tree: ast.Node, rolls: frozenset[str]) -> list[dict[Term, int]]:
    """Each place ``tree`` reads any of ``rolls``: the terms summed there (a roll, or
    ``max``/``min`` of distinct rolls named bare), each with its whole-number factor (+1,
    -1; 2 in ``2 * a``, or for a term summed twice). A place is the largest sum or
    difference (through parentheses, labels, signs and numbers written out that multiply)
    holding a roll's name; a roll read any other way (``count(a)``, ``a * b``) is a place
    holding it alone, or with what it is summed with."""
    places: list[dict[Term, int]] = []

    def signature(node: ast.Node) -> dict[Term, int]:
        if isinstance(node, ast.Name):
            return {node.name: 1} if node.name in rolls else {}
        term = _extreme(node, rolls)
        if term is not None:
            return {term: 1}
        if isinstance(node, (ast.Group, ast.Labeled)):
            return signature(node.inner)
        if isinstance(node, ast.Neg):
            return {k: -v for k, v in signature(node.operand).items()}
        if isinstance(node, ast.Binary) and node.op == "*":  # a sum times a number written out
            for number, other in ((ast.bare(node.left), node.right), (ast.bare(node.right), node.left)):
                if isinstance(number, ast.Num):
                    return {k: v * number.value for k, v in signature(other).items()}
        if isinstance(node, ast.Binary) and node.op in ("+", "-"):
            sig = dict(signature(node.left))
            for k, v in signature(node.right).items():
                sig[k] = sig.get(k, 0) + (v if node.op == "+" else -v)
            return sig  # a roll summed away (a - a) keeps its 0: read, but not as +1 or -1
        for child in ast.children(node):  # read otherwise: each operand summed apart is a place
            found = signature(child)
            if found:
                places.append(found)
        return {}

    top = signature(tree)
    if top:
        places.append(top)
    return places


def _extreme(node: ast.Node, rolls: frozenset[str]) -> Term | None:
    """``max(a, b, …)`` or ``min(…)`` of two or more distinct rolls of ``rolls``, each named
    bare (through parentheses and labels), as a term: its rolls in name order (the same term
    however written)."""
    if extreme(node) is None:
        return None
    assert isinstance(node, ast.Call)
    args = [ast.bare(a) for a in node.args]
    names = [a.name for a in args if isinstance(a, ast.Name) and a.name in rolls]
    if len(names) != len(args) or len(set(names)) != len(names):
        return None
    return node.name, tuple(sorted(names))


def _candidates(check: Check, renamed: frozenset[str]) -> list[str]:
    """The rolls that could be fused: each rolls dice, reads no other roll and no dice pool
    given as an input, and nothing reads its dice or its first throw, reads it by another
    name (``renamed``), or fixes or reports it."""
    roll_names = {n for n, _ in check.rolls}
    pools = {i.name for i in check.inputs if i.type == "dice_pool"}
    fixed = {n for gate in check.gates for n, _ in gate.rolls}
    read_whole = check.faces_needed | check.initial_needed | set(dict(check.face_views)) | set(check.report)
    return [n for n, e in check.rolls
            if not e.names & (roll_names | pools) and n not in read_whole | fixed | renamed and n != check.tiers
            and ast.has_dice(e.tree)]


Sum = tuple[tuple[Term, int], ...]  # (term, factor) in the rolls' order, the first factor above 0


def fused_rolls(check: Check, also: Iterable[Expr], renamed: frozenset[str], limits: Limits,
                functions: Mapping[str, Any]) -> tuple[FusedRolls, ...]:
    """The rolls of ``check`` that its rules (and ``also``: what else reads its rolls, and
    ``renamed``: rolls read by other names there) read only through one sum, each such set
    as :class:`FusedRolls`."""
    candidates = _candidates(check, renamed)
    if len(candidates) < 2:
        return ()
    by_roll = _sums_read(check, candidates, also)
    found = []
    taken: set[str] = set()
    for name in candidates:
        sums = by_roll.get(name)
        if name in taken or sums is None or len(sums) != 1:
            continue
        (key,) = sums
        factors = dict(key)
        rolls = [r for term in factors for r in term_rolls(term)]
        # the carrier holds the sum's value, so its own factor must be 1 (or -1: the sum turned round)
        carrier = next((k for k, v in key if abs(v) == 1), None)
        if len(rolls) < 2 or carrier is None or 0 in factors.values() or len(set(rolls)) != len(rolls) \
                or any(by_roll.get(m) != sums for m in rolls):
            continue
        taken.update(rolls)
        factors = {k: v * factors[carrier] for k, v in factors.items()}
        terms = [carrier] + [k for k, _ in key if k != carrier]
        found.append(_fused(check, factors, terms, limits, functions))
    return tuple(found)


def _sums_read(check: Check, candidates: list[str], also: Iterable[Expr]) -> dict[str, set[Sum]]:
    """For each of ``candidates``, the sums it is read in, anywhere: a place that is a multiple
    of another (the other way round, ``2 * (a - b)``) reads the same sum."""
    rolls = frozenset(candidates)
    members_exprs = {e for n, e in check.rolls if n in rolls}
    order = {n: i for i, n in enumerate(candidates)}
    by_roll: dict[str, set[Sum]] = {}

    def place(term: Term) -> int:  # a term's place among the rolls: its first roll's
        return min(order[r] for r in term_rolls(term))

    for e in (*check_expressions(check), *also):
        if e is None or e in members_exprs or not e.names & rolls:
            continue
        for sig in _signatures(e.tree, rolls):
            first = min(sig, key=place)
            unit = (-1 if sig[first] < 0 else 1) * (math.gcd(*sig.values()) or 1)
            key = tuple(sorted(((k, v // unit) for k, v in sig.items()), key=lambda kv: place(kv[0])))
            for k in sig:
                for r in term_rolls(k):
                    by_roll.setdefault(r, set()).add(key)
    return by_roll


def _fused(check: Check, factors: dict[Term, int], terms: list[Term], limits: Limits,
           functions: Mapping[str, Any]) -> FusedRolls:
    """The one dice expression of ``terms`` (the carrier's first, its factor 1) summed with
    their ``factors``: each roll's own tree in parentheses (inside ``max(…)`` or ``min(…)``
    for such a term), times its factor's size where it is not 1, its positions moved to
    where its text sits in the sum's."""
    exprs = dict(check.rolls)
    order = {name: i for i, (name, _) in enumerate(check.rolls)}

    def rolled(term: Term) -> tuple[str, ...]:  # its rolls in the order they are rolled: the carrier first
        return tuple(sorted(term_rolls(term), key=order.__getitem__))

    text = ""
    tree: ast.Node | None = None

    def grouped(name: str) -> ast.Node:  # the roll's own text in parentheses, written on
        nonlocal text
        at = len(text)
        text += f"({exprs[name].text})"
        return ast.Group(_shifted(exprs[name].tree, at + 1), (at, len(text)))

    for term in terms:
        factor = factors[term]
        lead = "" if tree is None else (" + " if factor > 0 else " - ")
        times = f"{abs(factor)} * " if abs(factor) != 1 else ""
        start = len(text) + len(lead)
        text += f"{lead}{times}"
        inner = len(text)
        if isinstance(term, str):
            part = grouped(term)
        else:
            text += f"{term[0]}("
            args = []
            for i, name in enumerate(rolled(term)):
                text += ", " if i else ""
                args.append(grouped(name))
            text += ")"
            part = ast.Call(term[0], tuple(args), (inner, len(text)))
        if times:
            part = ast.Binary("*", ast.Num(abs(factor), (start, start + len(str(abs(factor))))), part,
                              (start, len(text)))
        if tree is None:
            tree = part if factor > 0 else ast.Neg(part, (start, len(text)))
        else:
            tree = ast.Binary("+" if factor > 0 else "-", tree, part, (0, len(text)))
    assert tree is not None
    members = [r for term in terms for r in rolled(term)]
    carrier = exprs[members[0]]
    offset = 1 if isinstance(terms[0], str) else len(terms[0][0]) + 2  # "(" or "max(("
    first_end = len(carrier.text) + offset

    def written_at(pos: int) -> int:  # a position in the carrier's text is where it is in the file
        return carrier.written_at(min(max(pos - offset, 0), len(carrier.text))) if pos <= first_end else 0

    run = compile_expression(tree, Sampling(), limits, text, functions)
    expr = Expr(text, tree, carrier.pointer, run, frozenset().union(*(exprs[m].names for m in members)), written_at)
    return FusedRolls(" ".join(("fused",) + tuple(members)), members[0], tuple(members), expr, rolled(terms[0])[1:])


def _shifted(node: ast.Node, by: int) -> ast.Node:
    """``node`` with every position in it moved ``by`` characters on."""
    return _shift(node, by)  # type: ignore[return-value]


def _shift(value: object, by: int) -> object:
    if isinstance(value, Record):
        changes = {}
        for name in type(value).__record_fields__:
            old = getattr(value, name)
            new = (old[0] + by, old[1] + by) if name == "span" and isinstance(old, tuple) else _shift(old, by)
            if new is not old:
                changes[name] = new
        return replace(value, **changes) if changes else value
    if isinstance(value, tuple):
        items = tuple(_shift(v, by) for v in value)
        return value if all(a is b for a, b in zip(items, value, strict=True)) else items
    return value
