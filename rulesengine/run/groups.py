"""Joint values of a check's rolls that its rules cannot tell apart.

The rules read the rolls through expressions. A part of one that reads only rolls (and
values worked out from rolls alone: ``value: if(raw == 0, 100, raw)``) has one value for
each joint value of the rolls, the same under every input; the rest of the rules reads the
rolls only through such parts. So joint values on which every such part agrees resolve
alike under any inputs: a sweep over an input resolves one of them for all (a d100 and its
penalty dice: 10,000 throws, 100 readings of ``value``), with their weights added up.
A value worked out from rolls and values known before rolling (``worst: if(penalty >= 2,
max(tens, extra1, extra2), tens)``, the penalty dice an input) is one too, for each set of
those known values: groups made for some hold wherever they are the same (a sweep over
the skill, the penalty given), and are made again for others.

A part is the largest piece of an expression that reads a roll and no input, rolls no dice,
and is not passed to a function (``count(roll, 6)`` reads more of ``roll`` than a value, so
only the name itself is taken there, by its whole value: its dice too). A joint value where
a part cannot be worked out (an error, a value explosions cut off) keeps a group of its
own: the resolver then meets it as it would alone.

Lets and parts are each worked out once for each set of values they read (none rolls dice).
And rolls are *retired* as the joint values are made (:meth:`ResolutionGroups.retire`): once
a roll is joined to those before it, a roll that nothing reads from then on but lets worked
out of the rolls so far is read only through those lets, so joint values alike in them (and
in the rolls still read) are one from there: The One Ring's two feat dice, read through the
one kept, are 13 values, not 144, before the success dice are joined to them.
"""

from __future__ import annotations

import operator
from typing import Any, NamedTuple
from collections.abc import Callable, Collection, Iterable, Mapping

from ..dice import ast
from ..dice.beyond import Beyond, Undetermined
from ..dice.context import Context
from ..dice.dist import Budget, BudgetExceeded
from ..dice.evaluate import compile_expression
from ..dice.sampling import Sampling
from ..rules.model import Check, Expr, Let, let_exprs
from .resolver import Resolver
from .runtime import Runtime

Joint = list[tuple[dict[str, Any], int]]
Part = tuple[str | None, Callable[[Context], Any] | None, str]  # a name read whole, or a compiled piece, its text

Plans = list[tuple[bool, Collection[str]]]
"""For each joint value resolved: whether explosions cut one of its values, and the lets it
carries worked out (:func:`resolve_plans`)."""
Groupings = dict[tuple | None, tuple[Joint | None, Plans]]
"""A shared joint's groups and plans (:meth:`ResolutionGroups.grouping`), by the values known
before rolling they hold for."""
_FREE: tuple = (object(),)
"""The key a joint's groups of the rules' parts alone are kept by (:meth:`ResolutionGroups._free_grouping`):
no values known before rolling make it."""
FREE_GROWTH = 4
"""How many times as many groups of the parts alone may be as the first groups made with the
lets carried, for them to serve every point of a sweep."""
GROUPINGS_KEPT = 8
"""The most groupings of one joint kept at once, each for other values known before rolling
(a sweep over the number of penalty dice groups the same throws once for each number)."""

_PASSES_VALUES = (ast.Binary, ast.Compare, ast.Logic, ast.Neg, ast.Not, ast.Group)  # a value, nothing more
_MADE = frozenset({"result", "outcome", "success"})  # names the resolver sets


def _lets_of_rolls(check: Check, fixed: set[str], known: frozenset[str]) -> tuple[list[Let], list[Expr]]:
    """The lets worked out from the rolls and the values ``known`` before rolling alone
    (their names added to ``fixed``), and the expressions of the other lets worked out
    after the roll."""
    shared: list[Let] = []
    exprs: list[Expr] = []
    for let in check.lets:
        if not let.after_roll:
            continue
        own = let_exprs(let)
        if all(ast.names(e.tree) <= fixed | known for e in own):
            fixed.add(let.name)
            shared.append(let)
        else:
            exprs += own
    return shared, exprs


def _rules(check: Check) -> list[Expr]:
    """The expressions the resolver reads after the lets: the result, the outcome rules,
    the tags, the result's sign."""
    exprs = [e for e in (check.result, check.result_sign) if e is not None]
    for rule in check.outcomes:
        exprs += [e for e in (rule.when, rule.result) if e is not None]
        if isinstance(rule.success, Expr):
            exprs.append(rule.success)
    return exprs + [t.when for t in check.tags]


def _parts(node: ast.Node, fixed: frozenset[str], passed: bool, out: list[ast.Node]) -> None:
    """Append to ``out`` the parts of ``node`` (see the module's text) that read only
    ``fixed``; ``passed``: ``node`` is passed to a function (or read inside what is)."""
    read = ast.names(node)
    if not read & fixed:
        return  # reads no roll: the same for every joint value
    if read <= fixed and (isinstance(node, ast.Name) or not passed):
        out.append(node)
        return
    inner = passed or not isinstance(node, _PASSES_VALUES)
    for child in ast.children(node):
        _parts(child, fixed, inner, out)


class ResolutionGroups:
    """How one check's joint roll values fall into groups its rules resolve alike."""

    def __init__(self, runtime: Runtime, resolver: Resolver, check: Check, known_free: bool = False) -> None:
        self.runtime = runtime
        self.resolver = resolver
        self.check = check
        # Carry no let that reads a value known before rolling: the groups then hold for every
        # such value (see :meth:`grouping`).
        self.known_free = known_free
        self._free: ResolutionGroups | None = None
        self._plan: tuple[list[Let], list[Part]] | None | bool = False  # False: not worked out yet
        self._known_read: tuple[str, ...] = ()  # the values known before rolling the carried lets read
        self._let_reads: list[_Reads] = []  # what each carried let reads (see _reader)
        self._part_reads: list[_Reads | None] = []  # ... and each part worked out (None: a name read whole)
        self._outside: frozenset[str] = frozenset()  # the names read other than by the carried lets
        self._retiring: dict[str, Retiring] | None | bool = False  # False: not worked out yet

    def plan(self) -> tuple[list[Let], list[Part]] | None:
        """The lets worked out from rolls alone, and the parts read of the rolls; None where
        the check can't be grouped (it chooses dice, a name is given twice, its rules roll)."""
        if self._plan is False:
            self._plan = self._make_plan()
        return self._plan  # type: ignore[return-value]

    def _make_plan(self) -> tuple[list[Let], list[Part]] | None:
        check = self.check
        if check.choose is not None:
            return None
        rolls = [name for name, _ in check.rolls]
        names = [i.name for i in check.inputs] + [let.name for let in check.lets] + rolls
        if len(set(names)) != len(names) or _MADE & set(names):
            return None  # a name that hides another: read by the names alone, not safe
        fixed = set(rolls)
        known = frozenset(i.name for i in check.inputs) | {let.name for let in check.lets if not let.after_roll}
        shared, exprs = _lets_of_rolls(check, fixed, frozenset() if self.known_free else known)
        exprs += _rules(check)
        if any(isinstance(n, ast.Dice) for e in exprs + [x for let in shared for x in let_exprs(let)]
               for n in ast.walk(e.tree)):
            return None
        parts, reads = self._parts_read(exprs, frozenset(fixed))
        self._outside = frozenset(check.report).union(*(ast.names(e.tree) for e in exprs))
        self._known_read = tuple(sorted({n for let in shared for e in let_exprs(let) for n in ast.names(e.tree)}
                                        & known))
        self._let_reads = [_reader({n for e in let_exprs(let) for n in ast.names(e.tree)}) for let in shared]
        self._part_reads = [None if name is not None else _reader(read) for (name, _, _), read in zip(parts, reads,
                                                                                                    strict=True)]
        return shared, parts

    def _parts_read(self, exprs: list[Expr], fixed: frozenset[str]) -> tuple[list[Part], list[Collection[str]]]:
        """The parts of ``exprs`` that read the rolls (and the lets of rolls, ``fixed``), after
        the rolls and lets reported, each compiled unless a name read whole; and the names each
        reads."""
        limits, functions = self.runtime.limits, self.runtime.functions
        parts: list[Part] = [(name, None, "") for name in self.check.report if name in fixed]
        reads: list[Collection[str]] = [() for _ in parts]
        for e in exprs:
            found: list[ast.Node] = []
            _parts(e.tree, fixed, False, found)
            for node in found:
                if isinstance(node, ast.Name):
                    parts.append((node.name, None, ""))
                else:
                    parts.append((None, compile_expression(node, Sampling(), limits, e.text, functions), e.text))
                reads.append(ast.names(node))
        return parts, reads

    def retiring(self, fixed: Mapping[str, Any], also: Collection[Any] = ()) -> Mapping[str, Retiring]:
        """By roll: what the joint values are told apart by once it is joined to the rolls
        before it, where some of those rolls are then read no more but through lets worked
        out of them (:meth:`retire`). None of them where the check can't be grouped, a roll
        reads another (its distribution is made for each value of the rolls it reads), rolls
        are made after a choice, a procedure names the check, a roll is ``fixed`` (a gate, a
        sum of rolls read as one) or ``also`` reads them (a condition of conditional odds)."""
        if self._retiring is False:
            self._retiring = self._make_retiring()
        if fixed or also or not self._retiring:
            return {}
        return self._retiring  # type: ignore[return-value]

    def _make_retiring(self) -> dict[str, Retiring] | None:
        plan = self.plan()
        check = self.check
        rolls = [name for name, _ in check.rolls]
        if plan is None or check.after_choice or any(e.names & set(rolls) for _, e in check.rolls):
            return None
        procedures = self.runtime.model.procedures
        if procedures:  # a procedure reads its party's rolls with rules of its own
            from ..rules.procedures import party_expressions

            if any(name == check.name for proc in procedures.values() for name, _, _ in party_expressions(proc)):
                return None
        shared = plan[0]
        direct = {let.name: set().union(*(ast.names(e.tree) for e in let_exprs(let))) for let in shared}
        made_of: dict[str, set[str]] = {}  # the rolls each let is worked out of, through other lets too
        for let in shared:
            made_of[let.name] = (direct[let.name] & set(rolls)).union(
                *(made_of[n] for n in direct[let.name] if n in made_of))
        out: dict[str, Retiring] = {}
        for k, roll in enumerate(rolls[:-1]):  # after the last, the groups of joint values tell them apart
            joined = set(rolls[:k + 1])
            closed = [i for i, let in enumerate(shared) if made_of[let.name] <= joined]
            later = self._outside.union(*(direct[let.name] for i, let in enumerate(shared) if i not in closed))
            kept = tuple(r for r in rolls[:k + 1] if r in later)
            if len(kept) < k + 1:
                out[roll] = Retiring(kept, tuple(closed), tuple(shared[i].name for i in closed
                                                                if shared[i].name in later))
        return out

    def retire(self, joint: Joint, step: Retiring, env: Mapping[str, Any], budget: Budget, roll: Expr) -> Joint:
        """``joint`` with the joint values that agree on ``step``'s rolls kept and lets read
        later made one (at the first of them, weighing them all): what is read of the other
        rolls from here on is those lets (each worked out once for each set of values it
        reads); a joint value where a let can't be worked out, or a value is no key (one
        explosions cut), is kept as it is. One step charged for each joint value, before: past
        the budget, the check is too big at ``roll``, the roll just joined (a LimitError)."""
        plan = self.plan()
        assert plan is not None
        try:
            budget.spend(len(joint))
        except BudgetExceeded:
            raise self.resolver.too_big(roll) from None
        shared = plan[0]
        known = {n: env[n] for n in self._known_read if n in env}
        memos: list[dict] = [{} for _ in step.lets]

        def keyed(rolls: dict[str, Any]) -> tuple[tuple, dict[str, Any]] | None:
            local = {**known, **rolls}
            try:
                self._work_out(shared, step.lets, memos, local)
            except Exception:  # noqa: BLE001 - the resolver meets it with this joint value, alone
                return None
            values = [local[n] for n in step.kept + step.exported]
            return (tuple(values), tuple(map(type, values))), rolls  # 1, 1.0 and True read differently

        return _merged(joint, keyed)

    def _work_out(self, shared: list[Let], lets: Iterable[int], memos: list[dict], local: dict[str, Any]) -> None:
        """The carried lets ``lets`` (by place, in order) worked out into ``local``, each once
        for each set of values it reads (``memos``, one for each)."""
        resolver = self.resolver
        for i, memo in zip(lets, memos, strict=True):
            let = shared[i]
            names, many = self._let_reads[i]
            local[let.name] = _once(memo, names(local), many, lambda: resolver.let_value(let, local))  # noqa: B023

    def known_key(self, env: Mapping[str, Any]) -> tuple | None:
        """The values known before rolling that the lets a group carries read (a penalty die
        given as an input): groups made for one of these keys hold for every ``env`` with
        it, as a sweep's points share them; None where the check can't be grouped or a
        value is no key."""
        if self.plan() is None:
            return None
        key = tuple(_known(env.get(n)) for n in self._known_read)
        try:
            hash(key)
        except TypeError:
            return None
        return key

    def grouping(self, kept: Groupings, joint: Joint, env: Mapping[str, Any], total: Budget | None
                 ) -> tuple[Joint | None, Plans]:
        """The groups of ``joint`` (None: not grouped) for the values of ``env`` known before
        rolling, and the plans of what is resolved (:func:`resolve_plans`): those ``kept``
        (a joint a sweep shares) holds for them, else worked out (charged to ``total``, a
        sweep's budget, one step for each joint value) and kept there."""
        known = self.known_key(env)
        found = kept.get(known)
        if found is None and known:
            found = self._free_grouping(kept, joint, env, total)
        if found is None:
            if total is not None and known is not None:
                total.spend(len(joint))
            groups = self.group(joint, env) if known is not None else None
            if len(kept) >= GROUPINGS_KEPT:  # the groups of the parts alone, once asked, are kept
                kept_free = kept.get(_FREE)
                kept.clear()
                if kept_free is not None:
                    kept[_FREE] = kept_free
            found = kept[known] = (groups, resolve_plans(joint if groups is None else groups,
                                                         self.settled() if groups is not None else frozenset()))
        return found

    def _free_grouping(self, kept: Groupings, joint: Joint, env: Mapping[str, Any], total: Budget | None
                       ) -> tuple[Joint | None, Plans] | None:
        """Where groups were made for other values known before rolling (a sweep over an
        input a carried let reads: ``total: max(trait, wild) + modifier``, swept over the
        modifier), the groups of the rules' parts alone (:attr:`known_free`), made once and
        kept for every such value, where they are at most ``FREE_GROWTH`` times as many as
        the first made: each point of the sweep then resolves those, and works such lets out
        itself. None where they don't serve (none made before, rolls retired by lets: the
        joint values hold those lets, not the rolls; too many groups)."""
        before = [found for key, found in kept.items() if key is not None and key != _FREE]
        if not before or before[0][0] is None or self._retiring:
            return None
        if _FREE not in kept:
            if self._free is None:
                self._free = ResolutionGroups(self.runtime, self.resolver, self.check, known_free=True)
            free = self._free
            if total is not None:
                total.spend(len(joint))
            groups = free.group(joint, env)
            if groups is not None and len(groups) <= FREE_GROWTH * len(before[0][0]):
                kept[_FREE] = (groups, resolve_plans(groups, free.settled()))
            else:
                kept[_FREE] = (None, [])  # they don't serve: asked no more for this joint
        found = kept[_FREE]
        return found if found[0] is not None else None

    def group(self, joint: Joint, env: Mapping[str, Any]) -> Joint | None:
        """``joint`` with the joint values its rules resolve alike made one, each at the
        first of them, weighing them all (the order of first appearance kept); None where
        the check can't be grouped. A group's joint value carries the lets worked out from
        the rolls (and the values of ``env`` known before rolling) too (:meth:`settled`):
        the resolver need not work them out again."""
        plan = self.plan()
        if plan is None:
            return None
        known = {n: env[n] for n in self._known_read if n in env}
        # each let's and each part's values, by the values it read
        seen: tuple[list[dict], list[dict]] = ([{} for _ in plan[0]], [{} for _ in plan[1]])
        return _merged(joint, lambda rolls: self._key(plan, rolls, known, seen))

    def settled(self) -> frozenset[str]:
        """The lets a group's joint value carries (worked out from the rolls alone)."""
        plan = self.plan()
        return frozenset(let.name for let in plan[0]) if plan is not None else frozenset()

    def _key(self, plan: tuple[list[Let], list[Part]], rolls: dict[str, Any], known: dict[str, Any],
             seen: tuple[list[dict], list[dict]]) -> tuple[tuple, dict[str, Any]] | None:
        """The values of the parts for one joint value, and the joint value with the lets
        worked out from the rolls (and the values ``known`` before rolling that they read);
        None where one can't be worked out. A value explosions cut is keyed by what is known
        of it (its bound; a cut roll's dice so far too): the rules meet that alone, so joint
        values whose parts are cut alike resolve alike (or are left truncated alike).
        ``seen``: for each let and each part, its values by what it read, worked out once each
        (each is a function of the names it reads: none rolls dice, :meth:`plan`)."""
        shared, parts = plan
        local = {**known, **rolls}
        with_lets = dict(rolls)
        limits = self.runtime.limits
        values: list[Any] = []
        try:
            self._work_out(shared, range(len(shared)), seen[0], local)
            with_lets.update((let.name, local[let.name]) for let in shared)
            for (name, run, text), reads, memo in zip(parts, self._part_reads, seen[1], strict=True):
                if reads is None:
                    values.append(local[name])  # type: ignore[index]  # a part without reads is a name
                else:
                    values.append(_once(memo, reads[0](local), reads[1],
                                        lambda: run(Context(text, local, limits))))  # type: ignore[misc]  # noqa: B023
            try:  # each with its type (1, 1.0 and True read differently)
                found: tuple = (True, tuple(values), tuple(map(type, values)))
                hash(found)
            except (TypeError, Undetermined):  # a value explosions cut: keyed by what is known of it
                found = (False, *map(_known, values))
                hash(found)
        except Exception:  # noqa: BLE001 - the resolver says what is wrong, where, resolving it alone
            return None
        return found, with_lets


def _merged(joint: Joint, keyed: Callable[[dict[str, Any]], tuple[tuple, dict[str, Any]] | None]) -> Joint:
    """``joint`` with the joint values ``keyed`` gives one key made one, at the first of them
    (as ``keyed`` gives it) weighing them all, in the order of first appearance; a joint
    value with no key (None), or one that is no key (a value explosions cut), kept as it is."""
    where: dict[tuple, int] = {}
    out: list[list[Any]] = []
    for rolls, w in joint:
        found = keyed(rolls)
        try:
            at = where.get(found[0]) if found is not None else None
        except (TypeError, Undetermined):
            found = None
        if found is None:
            out.append([rolls, w])
            continue
        key, carried = found
        if at is None:
            where[key] = len(out)
            out.append([carried, w])
        else:
            out[at][1] += w
    return [(rolls, w) for rolls, w in out]


def _once(memo: dict[tuple, Any], read: Any, many: bool, work: Callable[[], Any]) -> Any:
    """What ``work`` gives for ``read`` (the values of the names it reads, a tuple of them if
    ``many``), worked out the first time and remembered by them with their types (1, 1.0 and
    True read differently); a value that is no key (explosions cut it) is worked out each
    time, and a failure is not remembered (it fails again where it is read)."""
    try:
        key = (read, tuple(map(type, read)) if many else type(read))
        return memo[key]
    except KeyError:
        value = memo[key] = work()
        return value
    except (TypeError, Undetermined):
        return work()


class Retiring(NamedTuple):
    """After a roll is joined to the rolls before it: the rolls read later (``kept``), the
    carried lets worked out of the rolls so far (``lets``, by place, in order) and of them
    those read later (``exported``). Joint values alike in these are alike to the rules from
    here on; the other rolls so far are read only through those lets."""

    kept: tuple[str, ...]
    lets: tuple[int, ...]
    exported: tuple[str, ...]


_Reads = tuple[Callable[[Mapping[str, Any]], Any], bool]
"""The values of the names an expression reads, from a joint value's (one value, or a tuple of
them where it reads other than one name), and whether a tuple."""


def _reader(names: Collection[str]) -> _Reads:
    """What an expression reading ``names`` reads of a joint value (see ``_Reads``)."""
    ordered = sorted(names)
    return (operator.itemgetter(*ordered) if ordered else _nothing), len(ordered) != 1


def _nothing(env: Mapping[str, Any]) -> tuple:
    """What an expression that reads no name reads: nothing."""
    return ()


def _known(value: Any) -> tuple:
    """What a group's key holds of one part's value: its type and value (1, 1.0 and True
    read differently), or for a value explosions cut, its kind and what is known of it."""
    if isinstance(value, Beyond):
        return (type(value), *(getattr(value, slot) for cls in type(value).__mro__
                                for slot in getattr(cls, "__slots__", ())))
    return (type(value), value)


def resolve_plans(joint: Joint, carried: frozenset[str]) -> Plans:
    """For each joint value: whether explosions cut one of its values, and the lets it
    carries worked out (``carried``: a group's, :meth:`ResolutionGroups.settled`; none where the
    values are not grouped). Kept for a joint a sweep shares, not worked out again at each
    of its points."""
    return [(any(isinstance(v, Beyond) for v in rolls.values()),
             carried if carried and carried <= rolls.keys() else ()) for rolls, _ in joint]
