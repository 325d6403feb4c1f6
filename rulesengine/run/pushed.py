"""A roll made after seeing another, read with it only through one sum (issue 33).

A push that re-rolls the 6s, ``pool_dice: (pool)d6`` then ``again:
(count(pool_dice, 6))d6!cs>=5``, read only as ``count(pool_dice, 5, 6) + again``, has as many
joint values as readings of the first roll times values of the second for each (68,000 at 30
dice), where its rules can tell only the sums apart (a hundred). So exact odds add them up as
they are made: for each reading of the first roll, each value of the second made for it, into
the sum ``part + second`` (``part``: what the rules read of the first roll, here
``count(pool_dice, 5, 6)``), and keep one joint value per sum: the first roll at one of its
readings (whose ``part`` is p0), the second at ``sum - p0``, so every place the rules read
them gives the sum it would have given.

Where this holds is decided from the check and what else reads its rolls (a procedure's rules,
a condition of conditional odds): the second roll reads the first and no other; nothing else
reads either; every place that reads them is a multiple of the same ``part + second``
(through parentheses, signs and numbers written out), with ``part`` the same expression (the
same shape, spaces aside) reading the first roll and nothing else that varies; neither is
fixed by a gate, reported, read by another name, or the second's dice read. Rolling is
untouched.

Where, besides, the first roll is a pool of plain dice and both the part and the second's
number of dice are counts of its faces (:class:`PerDie`), the sum is one over the first
roll's dice, each adding its own share whatever the others show: it is added up die by die
(:func:`per_die_sums`), no reading of the first roll worked out at all.
"""

from __future__ import annotations

from typing import Any, NamedTuple
from collections.abc import Callable, Collection, Iterable, Mapping

from ..dice import ast
from ..dice.beyond import AtLeast, AtMost
from ..dice.builtins import COUNTS, reads
from ..dice.context import Context
from ..dice.die_odds import die_dist, face_dist
from ..dice.dist import Budget, BudgetExceeded, Dist, held_cost, mixture, sum_of
from ..dice.evaluate import compile_expression
from ..dice.pool import PoolSpec
from ..dice.values import Rolled
from ..dice.sampling import Sampling
from ..limits import Limits
from ..records import Record
from ..rules.model import Check, Expr, check_expressions
from .joint_values import Joint, joint_width, outcomes_of


class _Part(NamedTuple):
    """A term of a place: a piece reading the first roll, by its shape (the other term is
    the second roll's name)."""

    shape: object


class PushedSum(NamedTuple):
    """``second`` (a roll reading ``first``) read with ``first`` only as ``part + second``:
    ``part`` and ``second`` as numbers, each worked out on one roll's value."""

    first: str
    second: str
    part: Callable[[Mapping[str, Any]], Any]
    number: Callable[[Mapping[str, Any]], Any]
    part_tree: ast.Node | None = None  # the part as written (what :func:`per_die` reads)
    die_by_die: PerDie | None = None  # the sum as one over the first roll's dice, where it is one

    def joins(self, name: str, reads_rolls: list[str], joint: Joint) -> bool:
        """Whether ``name``, a roll reading ``reads_rolls``, is the second roll joined to joint
        values that hold the first alone (:func:`added_up`)."""
        return self.second == name and reads_rolls == [self.first] \
            and all(d.keys() == {self.first} for d, _ in joint[:1])

    def at_once(self, held: Collection[str]) -> PushedSum | None:
        """Itself, where it is added up die by die (:func:`joined_die_by_die`) and neither roll
        is ``held`` (fixed by a gate, or read through a let that retires it); else None."""
        return self if self.die_by_die is not None and not {self.first, self.second} & set(held) else None


def _shape(value: object) -> object:
    """What a piece of a tree says, its places in the text left out: two pieces written
    alike but for spaces (``count(a, 5)``, ``count(a,5)``) have one shape."""
    if isinstance(value, Record):
        return (type(value).__name__, *(_shape(getattr(value, name)) for name in type(value).__record_fields__
                                        if name != "span"))
    if isinstance(value, tuple):
        return tuple(_shape(v) for v in value)
    return value


def _places(e: Expr, first: str, second: str) -> list[dict[str | _Part, int]] | None:
    """Each place ``e`` reads ``first`` or ``second``: the largest sum there, as its terms
    (``second``, or the text of a piece reading ``first`` and no other roll) with their
    whole-number factors; None where ``second`` or ``first`` is read otherwise (``first``
    outside such a piece, ``second`` passed to a function or multiplied by a roll)."""
    rolls = {first, second}
    places: list[dict[str | _Part, int]] = []
    bad = False

    def terms(node: ast.Node) -> dict[str | _Part, int]:
        nonlocal bad
        read = ast.names(node) & rolls
        if not read:
            return {}
        if read == {first}:  # the largest piece reading the first roll and not the second
            return {_Part(_shape(node)): 1}
        if isinstance(node, ast.Name):
            return {second: 1}
        if isinstance(node, (ast.Group, ast.Labeled)):
            return terms(node.inner)
        if isinstance(node, ast.Neg):
            return {k: -v for k, v in terms(node.operand).items()}
        if isinstance(node, ast.Binary) and node.op == "*":
            for number, other in ((ast.bare(node.left), node.right), (ast.bare(node.right), node.left)):
                if isinstance(number, ast.Num) and type(number.value) is int:
                    return {k: v * number.value for k, v in terms(other).items()}
        if isinstance(node, ast.Binary) and node.op in ("+", "-"):
            found = dict(terms(node.left))
            for k, v in terms(node.right).items():
                found[k] = found.get(k, 0) + (v if node.op == "+" else -v)
            return found
        for child in ast.children(node):  # read otherwise: each operand a place of its own...
            alone = ast.bare(child)
            if isinstance(alone, ast.Name) and alone.name == second:
                bad = True  # ...but the second roll passed to a function, compared or multiplied alone
            found = terms(child)
            if found:
                places.append(found)
        return {}

    top = terms(e.tree)
    if top:
        places.append(top)
    return None if bad else places


def pushed_sum(check: Check, also: Iterable[Expr], renamed: frozenset[str], limits: Limits,
               functions: Mapping[str, Any]) -> PushedSum | None:
    """The pair of rolls of ``check`` read only through one ``part + second`` (the module's
    text), by its rules and ``also``; None where there is none."""
    if check.choose is not None or len(check.rolls) < 2:
        return None
    rolls = dict(check.rolls)
    names = list(rolls)
    fixed = {n for gate in check.gates for n, _ in gate.rolls}
    shut = fixed | renamed | set(check.report) | {check.tiers}
    for i, second in enumerate(names):
        read = rolls[second].names & set(names)
        if len(read) != 1:
            continue
        (first,) = read
        if first not in names[:i] or rolls[first].names & set(names) or {first, second} & shut:
            continue
        if second in check.faces_needed | check.initial_needed or second in dict(check.face_views):
            continue
        if any(n not in (first, second) and rolls[n].names & {first, second} for n in names):
            continue
        found = _read_as_one(check, also, first, second)
        if found is not None:
            plan = _compiled(first, second, found, limits, functions)
            return None if plan is None else plan._replace(die_by_die=per_die(check, plan, limits, functions))
    return None


def _read_as_one(check: Check, also: Iterable[Expr], first: str, second: str) -> tuple[ast.Node, str] | None:
    """The one part the rules read of ``first`` beside ``second`` (its tree and text), where
    every place reading either is a multiple of ``part + second``; else None."""
    roll_exprs = {e for _, e in check.rolls}
    part: tuple[ast.Node, str] | None = None
    key: _Part | None = None
    for e in (*check_expressions(check), *also):
        if e is None or e in roll_exprs or not e.names & {first, second}:
            continue
        places = _places(e, first, second)
        if not places:
            return None
        for place in places:
            parts = [k for k in place if isinstance(k, _Part)]
            if len(parts) != 1 or set(place) != {second, parts[0]} or place[second] != place[parts[0]] \
                    or place[second] == 0 or (key is not None and parts[0] != key):
                return None
            if key is None:
                key = parts[0]
                part = _find_part(e, first, key)
    return part


def _find_part(e: Expr, first: str, key: _Part) -> tuple[ast.Node, str] | None:
    """The node of ``e`` whose shape is the part ``key``."""
    for node in ast.walk(e.tree):
        if ast.names(node) & {first} and _Part(_shape(node)) == key:
            return node, e.text
    return None


def _compiled(first: str, second: str, part: tuple[ast.Node, str] | None, limits: Limits,
              functions: Mapping[str, Any]) -> PushedSum | None:
    """The part and the second roll as numbers (each plus 0, as a sum reads it)."""
    if part is None:
        return None
    node, text = part
    end = node.span[1]

    def as_number(tree: ast.Node) -> Callable[[Mapping[str, Any]], Any]:
        run = compile_expression(ast.Binary("+", tree, ast.Num(0, (end, end)), node.span), Sampling(), limits, text,
                                 functions)
        return lambda env: run(Context(text, env, limits))

    return PushedSum(first, second, as_number(node), as_number(ast.Name(second, node.span)), node)


def added_up(joint: list[tuple[dict[str, Any], int]], name: str, plan: PushedSum, env: Mapping[str, Any],
             made_for: Callable[[Any], list[tuple[Any, int, int]]], common: int
             ) -> list[tuple[dict[str, Any], int]]:
    """The joint values of ``plan.first`` (``joint``, each holding that roll alone) joined
    with the values of ``name`` (``plan.second``) made for each (``made_for``: value, weight,
    denominator), over ``common``: one joint value per sum (a sum explosions cut is kept by
    its bound, :class:`.AtLeast` or :class:`.AtMost`, as the rules meet it: a part cut so plus a
    number, or plus a number cut the same way, is cut so at their sum), and each pair whose
    part or number is neither (an error: the resolver meets it as it would alone), or whose
    part and number are cut opposite ways, kept as it is."""
    adding = _Adding(name, plan, env, common)
    rep = next((d for d, _ in joint if type(adding.part(d[plan.first])) is int), None)
    out: list[tuple[dict[str, Any], int]] = []
    for d, w in joint:
        p, made = adding.part(d[plan.first]), made_for(d[plan.first])
        if type(p) not in _KINDS or (rep is None and type(p) is not int):
            out += [({**d, name: v}, w * wv * (common // dv)) for v, wv, dv in made]
            continue
        terms = adding.terms(made)
        out += [({**d, name: v}, w * q) for v, q in adding.apart(made, type(p), terms)]
        adding.gather(p, made, w, terms)
    if rep is not None:  # the sums written on the first joint value whose part is a number
        p0 = adding.part(rep[plan.first])
        out += [({**rep, name: t - p0 if kind is int else kind(t - p0)}, w) for kind, t, w in adding.sums()]
    return out


_KINDS = (int, AtLeast, AtMost)
"""What a part or a number adds up as: a whole number, or one explosions cut, kept by its bound."""

_Term = tuple[type | None, Any, Any, int]
"""A value of the second roll: its number's kind (None: neither a number nor cut), the value,
its number or bound, its weight over the common denominator."""


class _Adding:
    """The sums of one push as :func:`added_up` gathers them: each reading's part and each
    value's number worked out once, and the weight of each part with each distribution of
    the second roll gathered before any sum is made."""

    def __init__(self, name: str, plan: PushedSum, env: Mapping[str, Any], common: int) -> None:
        self.name, self.plan, self.env, self.common = name, plan, env, common
        self._parts: dict[int, Any] = {}  # by the first roll's value: its readings are shared objects
        self._numbers: dict[int, Any] = {}
        self._terms: dict[int, list[_Term]] = {}  # by distribution
        self._apart: dict[tuple[int, type], list[tuple[Any, int]]] = {}
        self._gathered: dict[tuple[type, int, int], list] = {}  # (part's kind, number or bound, distribution)

    def part(self, a: Any) -> Any:
        p = self._parts.get(id(a), self._parts)
        if p is self._parts:
            p = self._parts[id(a)] = _number(self.plan.part, {**self.env, self.plan.first: a})
        return p

    def terms(self, made: list[tuple[Any, int, int]]) -> list[_Term]:
        """The second roll's values made for a reading, each with its number's kind and number."""
        terms = self._terms.get(id(made))
        if terms is None:
            terms = self._terms[id(made)] = [self._term(v, wv, dv) for v, wv, dv in made]
        return terms

    def _term(self, v: Any, wv: int, dv: int) -> _Term:
        b = self._numbers.get(id(v), self._numbers)
        if b is self._numbers:
            b = self._numbers[id(v)] = _number(self.plan.number, {**self.env, self.name: v})
        kind = type(b) if type(b) in _KINDS else None
        return kind, v, b if kind is int else _bound(b) if kind is not None else None, wv * (self.common // dv)

    def apart(self, made: list, kind_p: type, terms: list[_Term]) -> list[tuple[Any, int]]:
        """The values kept as they are beside a part of ``kind_p``: neither a number nor cut (an
        error), or cut the other way from a cut part."""
        found = self._apart.get((id(made), kind_p))
        if found is None:
            found = self._apart[(id(made), kind_p)] = [(v, q) for kind, v, _, q in terms if kind is None or (
                kind_p is not int and kind not in (int, kind_p))]
        return found

    def gather(self, p: Any, made: list, w: int, terms: list[_Term]) -> None:
        key = (type(p), p if type(p) is int else _bound(p), id(made))
        slot = self._gathered.get(key)
        if slot is None:
            self._gathered[key] = [w, terms]
        else:
            slot[0] += w

    def sums(self) -> list[tuple[type, int, int]]:
        """Each sum with its kind and weight, each part's added once for all its readings."""
        sums: dict[type, dict[int, int]] = {kind: {} for kind in _KINDS}
        for (kind_p, at, _), (w, terms) in self._gathered.items():
            for kind, _, b, q in terms:
                to = kind if kind_p is int else kind_p if kind is int or kind is kind_p else None
                if to is not None:
                    where = sums[to]
                    where[at + b] = where.get(at + b, 0) + w * q
        return [(kind, t, w) for kind, by_sum in sums.items() for t, w in by_sum.items()]


def _bound(value: AtLeast | AtMost) -> int:
    return value.low if isinstance(value, AtLeast) else value.high


def _number(run: Callable[[Mapping[str, Any]], Any], env: Mapping[str, Any]) -> Any:
    """What ``run`` gives in ``env`` where it is a whole number or one explosions cut and
    kept by its bound; None for anything else (an error)."""
    try:
        value = run(env)
    except Exception:  # noqa: BLE001 - the resolver meets it with the pair as it is, and says so
        return None
    return value if type(value) in (int, AtLeast, AtMost) else None


class PerDie(NamedTuple):
    """A push read as :class:`PushedSum` whose sum is one over the first roll's dice: the
    first a pool of plain dice (``(pool)d6``), the part a count of its faces
    (``count(pool_dice, 5, 6)``) and the second as many dice of its own kind as the first
    shows faces of a range (``(count(pool_dice, 6))d6!cs>=5``), worth the sum of its dice.
    Each die of the first then adds its own share, whatever the others show: 1 where it
    shows a face the part counts, and a die of the second where it shows one the second
    rolls again; the sum is that share added over the dice (:func:`per_die_sums`)."""

    count: Callable[[Mapping[str, Any]], Any]  # the first roll's number of dice, from the inputs
    first: PoolSpec
    second: PoolSpec
    part: tuple[int, int]  # the faces of the first the part counts, lowest and highest
    again: tuple[int, int]  # the faces of the first whose dice the second rolls again


def per_die(check: Check, plan: PushedSum, limits: Limits, functions: Mapping[str, Any]) -> PerDie | None:
    """``plan`` as a sum over the first roll's dice (:class:`PerDie`), where it is one."""
    rolls = dict(check.rolls)
    first, second = (ast.bare(rolls[n].tree) for n in (plan.first, plan.second))
    if not (isinstance(first, ast.Dice) and isinstance(second, ast.Dice)) or first.die is None \
            or second.die is None or ast.condition_exprs(first) or ast.condition_exprs(second):
        return None
    one, other = PoolSpec.of(first), PoolSpec.of(second)
    if not one.plain or first.die.symbols or other.keeps or other.reroll_rank is not None:
        return None
    part = _faces_counted(plan.part_tree, plan.first)
    again = _faces_counted(second.count, plan.first)
    if part is None or again is None:
        return None
    text = rolls[plan.first].text
    run = compile_expression(first.count, Sampling(), limits, text, functions)
    return PerDie(lambda env: run(Context(text, env, limits)), one, other, part, again)


def _faces_counted(node: ast.Node | None, roll: str) -> tuple[int, int] | None:
    """The faces ``count(roll, lo, hi)`` (or ``count(roll, v)``) counts, written as whole
    numbers; None for anything else."""
    node = ast.bare(node) if node is not None else None
    if not isinstance(node, ast.Call) or reads(node) != COUNTS or len(node.args) not in (2, 3):
        return None
    read, *rest = (ast.bare(a) for a in node.args)
    bounds = [b.value for b in rest if isinstance(b, ast.Num) and type(b.value) is int]
    if not isinstance(read, ast.Name) or read.name != roll or len(bounds) != len(rest):
        return None
    return bounds[0], bounds[-1]


def per_die_sums(plan: PerDie, n: int, limits: Limits, budget: Budget) -> Dist | None:
    """The sum :class:`PerDie` reads, of ``n`` dice of the first roll: each die's share (its
    face weighed as the die falls; where the second rolls it again, one die of the second
    added, its explosions cut as a die of the second alone is cut), added over the dice.
    Charged as each step is made (the convolutions, :func:`.dist.sum_of`). None where a
    cut die of the second is known otherwise than by a lower bound."""
    faces = face_dist(plan.first, budget)
    again = die_dist(plan.second, "total", limits, budget)
    if any(type(lo) is not int for lo in again.tail):
        return None  # cut paths known otherwise than by a lower bound: the pairs, as before
    (plo, phi), (alo, ahi) = plan.part, plan.again
    parts = []
    for face, w in faces.weights.items():
        share = int(plo <= face <= phi)
        if alo <= face <= ahi:
            parts.append((_shifted(again, share), w))
        else:
            parts.append((Dist.point(share), w))
    return sum_of(mixture(parts, faces.denom, budget), n, budget)


def lowest_throw(plan: PerDie, n: int, budget: Budget) -> Rolled:
    """A throw of the first roll's ``n`` dice, each on its lowest face: the value it holds in
    the joint values :func:`per_die_sums` makes (the rules read it only through the part)."""
    low = min(face_dist(plan.first, budget).weights)
    return Rolled(n * low, (low,) * n)


def _shifted(d: Dist, by: int) -> Dist:
    """``d`` plus ``by`` (its cut paths' lower bounds too)."""
    if not by:
        return d
    return Dist({v + by: w for v, w in d.weights.items()}, d.denom, {lo + by: w for lo, w in d.tail.items()})


def joined_die_by_die(joint: Joint, name: str, push: PushedSum,
                      env: Mapping[str, Any], limits: Limits, budget: Budget, cut: bool,
                      too_big: Callable[[str], Exception]) -> tuple[Joint, int] | None:
    """The joint values so far joined with a push's two rolls at once (``name`` its first,
    read die by die: ``push.die_by_die``): one joint value per sum the rules read, the first roll at one of its
    throws (:func:`lowest_throw`, whose part is ``p0``) and the second at the sum less ``p0``,
    as :func:`added_up` keeps them; its cut sums by their bounds; with its denominator. None
    where the first's number of dice is not a whole number from 0 to ``max_dice`` (the rolls
    are then worked out one by one, as before, where the error is met as it is). Past the
    budget: ``too_big`` of what ran past it."""
    plan = push.die_by_die
    assert plan is not None, "only a push read die by die is joined so"
    try:
        n = plan.count(env)
    except Exception:  # noqa: BLE001 - met as it is where the roll is worked out alone
        return None
    if type(n) is not int or not 0 <= n <= limits.max_dice:
        return None
    try:
        rep = lowest_throw(plan, n, budget)
        p0 = push.part({**env, name: rep})
        sums = per_die_sums(plan, n, limits, budget)
        if sums is None:
            return None
        outcomes = [(v - p0 if type(v) is int else AtLeast(v.low - p0), w) for v, w in outcomes_of(sums, cut)]
        budget.spend(held_cost(len(joint) * len(outcomes), joint_width(joint) + 2))
    except BudgetExceeded:
        raise too_big(f"'{push.second}' added up over {n:,} dice of '{name}' ran past max_states "
                      f"({budget.limit:,})") from None
    second = push.second
    return [({**d, name: rep, second: v}, w * wv) for d, w in joint for v, wv in outcomes], sums.denom
