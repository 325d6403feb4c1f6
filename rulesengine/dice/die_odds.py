"""The exact distribution of one die of a dice term: its face after rerolls
(:func:`face_dist`), then its explosions (:func:`die_dist`), read as the pool needs it.

Split from :mod:`rulesengine.dice.pool_odds`, which combines the dice of a term. Every step
charges the exact-odds :class:`Budget` before it does the work.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction
from typing import Any, NamedTuple

from .dist import Budget, Dist, step_cost
from .pool import PoolSpec, face_weights
from ..limits import Limits

__all__ = ["face_dist", "die_dist", "followed_chains"]


def face_dist(spec: PoolSpec, budget: Budget) -> Dist:
    """One die roll's face after rerolls (:func:`.pool.face_weights`), its faces charged first."""
    budget.spend(spec.die.size)
    weights, denom = face_weights(spec)
    dist = Dist(weights, denom)
    return dist.reduced() if spec.rerolls and spec.reroll_once else dist


def die_dist(spec: PoolSpec, mode: str, limits: Limits, budget: Budget) -> Dist:
    """One die of the pool, explosions included.

    ``mode`` says what the caller needs to know about it: ``"total"`` its contribution to
    the term (value or success count, explosion dice included), ``"value"`` its value
    (no ``!``/``!p``: the die stays one die), ``"values"`` the sorted tuple of the values
    of it and the dice it added. Explosion paths longer than ``limits.explode_depth`` are
    cut and their mass is left out of the weights (reported as truncated). What is known of
    them is kept in ``tail`` where every further die can only add: for ``"total"`` their
    values so far (lower bounds, see :mod:`.beyond`); for ``"values"`` and ``"chain"`` (not
    compounding) the values they had, as the weights' keys are (:func:`.pool_odds.view_dist` reads them).
    """
    fd = face_dist(spec, budget)
    if spec.explode is None:
        return _unexploded(spec, mode, fd)
    path = _path_rules(spec, mode)
    active, finished, denom = _explode(spec, fd, path, limits, budget)
    ended = Dist(dict(finished), denom)
    result = ended if path.finish is None else ended.map(path.finish)
    if active and _cut_paths_only_grow(spec, mode, fd, path):
        # Every further die adds something of at least 0: a cut path ends on at least what
        # it had (see .beyond), which keeps whatever the depth cannot change exact.
        return Dist(result.weights, denom, _tail(active, path.finish))
    return result


def _unexploded(spec: PoolSpec, mode: str, fd: Dist) -> Dist:
    """A die that does not explode, read as ``mode`` asks."""
    if mode in ("total", "value") and not spec.counting and not spec.by_face and spec.low is None \
            and spec.high is None:
        return fd  # each face is its own value: no copy (a million-sided die is big)
    if mode == "total":
        return fd.map(lambda f: spec.worth(spec.clamp(f)))
    if mode == "value":
        return fd.map(spec.clamp)
    return fd.map(lambda f: (spec.clamp(f),))  # "values" and "chain": one die


class _PathRules(NamedTuple):
    """How an explosion path's state is kept: a running sum (compound), a total, or a tuple
    of values; made from the first face, extended by each face added, read at the end
    (``finish``; None: as it is)."""

    start: Callable[[int], Any]
    extend: Callable[[Any, int], Any]
    finish: Callable[[Any], Any] | None


def _path_rules(spec: PoolSpec, mode: str) -> _PathRules:
    penalty = 1 if spec.explode == "penetrate" else 0
    if spec.explode == "compound":  # the running sum of faces
        if mode in ("values", "chain"):
            return _PathRules(lambda f: f, lambda s, f: s + f, lambda s: (spec.clamp(s),))
        if mode == "total":
            return _PathRules(lambda f: f, lambda s, f: s + f, lambda s: spec.worth(spec.clamp(s)))
        return _PathRules(lambda f: f, lambda s, f: s + f, spec.clamp)
    if mode == "total":
        return _PathRules(lambda f: spec.worth(spec.clamp(f)),
                          lambda s, f: s + spec.worth(spec.clamp(f - penalty)), None)
    # The dice a chain added are kept highest first as they come (the first die apart, for
    # "chain"): two paths that rolled the same dice in another order are one state, so the
    # states to the depth are the multisets of exploding faces, not every sequence of them
    # (a d10 exploding on 8+ ten deep: 78 states, not 59,049).
    if mode == "chain":  # the first die, then those its explosions added
        finish: Callable[[Any], Any] = lambda s: (s[0], *sorted(s[1:], reverse=True))  # noqa: E731
        return _PathRules(lambda f: (spec.clamp(f),),
                          lambda s, f: (s[0], *_placed(s[1:], spec.clamp(f - penalty))), finish)
    finish = lambda s: tuple(sorted(s, reverse=True))  # noqa: E731
    return _PathRules(lambda f: (spec.clamp(f),), lambda s, f: _placed(s, spec.clamp(f - penalty)), finish)


def _placed(values: tuple, v: Any) -> tuple:
    """``values`` (highest first) with ``v`` put in its place."""
    for i, x in enumerate(values):
        if v > x:
            return (*values[:i], v, *values[i:])
    return (*values, v)


def _explode(spec: PoolSpec, fd: Dist, path: _PathRules, limits: Limits, budget: Budget
             ) -> tuple[dict, dict, int]:
    """Follow every explosion path to the depth: the paths still exploding there (cut),
    those that ended, each state with its weight, and their common denominator."""
    faces = list(fd.weights.items())
    active: dict = defaultdict(int)
    finished: dict = defaultdict(int)
    for f, w in faces:
        (active if spec.explodes(f) else finished)[path.start(f)] += w
    denom = fd.denom
    depth = 0
    once = spec.explode == "once"  # the added die does not explode: nothing is cut
    limit = spec.explode_limit(limits)
    while active and depth < limit:
        depth += 1
        budget.spend((len(active) * len(faces) + len(finished)) * step_cost(denom.bit_length() + fd.denom.bit_length()))
        finished = defaultdict(int, {s: w * fd.denom for s, w in finished.items()})
        denom *= fd.denom
        nxt: dict = defaultdict(int)
        for s, w in active.items():
            for f, wf in faces:
                (nxt if spec.explodes(f) and not once else finished)[path.extend(s, f)] += w * wf
        active = nxt
    return active, finished, denom


def _cut_paths_only_grow(spec: PoolSpec, mode: str, fd: Dist, path: _PathRules) -> bool:
    """Whether what a cut path had so far is a lower bound of where it ends (every further
    die adds 0 or more), as ``mode`` reads it: then the cut paths are kept as a tail."""
    if path.finish is None:  # a total of dice that explode in turn
        return mode == "total" and all(path.extend(0, f) >= 0 for f in fd.weights)
    if mode == "total":  # a compound die of faces of at least 0: its sum only grows, and so its value
        return not spec.counting and not spec.by_face and min(fd.weights) >= 0
    if mode == "value" and spec.explode == "compound":  # one die's value, unclamped: its running sum
        return spec.low is None and spec.high is None and not spec.by_face and min(fd.weights) >= 0
    # A chain cut here had these dice and more to come, each adding 0 or more.
    penalty = 1 if spec.explode == "penetrate" else 0
    return mode in ("values", "chain") and spec.explode != "compound" \
        and all(spec.score(spec.clamp(f - penalty)) >= 0 for f in fd.weights)


def _tail(active: dict, finish: Callable[[Any], Any] | None = None) -> dict[Any, int]:
    """The cut paths' lower bounds (their values so far, ``finish``ed) with their weights."""
    tail: dict[Any, int] = defaultdict(int)
    for value, w in active.items():
        tail[value if finish is None else finish(value)] += w
    return dict(tail)


MAX_CHAIN_STATES = 512
"""The most readings of one die's chain :func:`followed_chains` follows; past it, the depth's."""


class _Unbounded(Exception):
    """A chain's readings are not few enough to follow for ever (see :func:`followed_chains`)."""


def followed_chains(spec: PoolSpec, mode: str, reading: Callable[[Any], Any], budget: Budget, reads: int = 1
                    ) -> dict[Any, list] | None:
    """One die of ``spec`` and the dice its explosions add (``!`` or ``!p``), followed for
    ever and read by ``reading``: each reading with its exact chance and the first chain (as
    ``mode``, "values" or "chain", gives it) that reads so.

    ``reading`` must be one whose value for a chain and one more die depends only on its
    value for the chain and that die (it adds, takes the most or least, or is capped, or reads
    the first die: as :class:`~.view_fold.PoolView`'s readings do). Then a chain so far is known
    by its reading, and a die is a small absorbing chain over readings: a die that explodes
    and leaves the reading as it was comes back to it, so the reading's chances are those of
    its other ways on, over 1 − the chance of coming back. None where the readings run past
    :data:`MAX_CHAIN_STATES` (a reading that every explosion raises: follow it to the depth)
    or a chain could come back to a reading it left. Each reading followed is charged its
    faces, each read at ``reads`` steps."""
    fd = face_dist(spec, budget)
    path = _path_rules(spec, mode)
    finish = path.finish
    assert finish is not None  # "values" and "chain" are tuples of the chain's values
    faces = [(f, Fraction(w, fd.denom), spec.explodes(f)) for f, w in fd.weights.items()]
    ends: dict[Any, dict[Any, list]] = {}  # a reading so far -> {its chains' end readings: [chance, a chain]}
    going: set[Any] = set()

    def add(out: dict[Any, list], key: Any, p: Fraction, rep: Any) -> None:
        if key in out:
            out[key][0] += p
        else:
            out[key] = [p, rep]

    def onwards(prefix: tuple) -> dict[Any, list]:
        key = reading(finish(prefix))
        if key in ends:
            return ends[key]
        if key in going or len(ends) + len(going) >= MAX_CHAIN_STATES:
            raise _Unbounded
        going.add(key)
        budget.spend(len(faces) * reads)
        stay = Fraction(0)
        out: dict[Any, list] = {}
        for f, p, explodes in faces:
            nxt = path.extend(prefix, f)
            if not explodes:
                add(out, reading(finish(nxt)), p, finish(nxt))
            elif reading(finish(nxt)) == key:
                stay += p
            else:
                for k, (q, rep) in onwards(nxt).items():
                    add(out, k, p * q, rep)
        if stay == 1:
            raise _Unbounded
        for entry in out.values():
            entry[0] /= 1 - stay
        going.discard(key)
        ends[key] = out
        return out

    out: dict[Any, list] = {}
    try:
        for f, p, explodes in faces:
            first = path.start(f)
            if not explodes:
                add(out, reading(finish(first)), p, finish(first))
                continue
            for k, (q, rep) in onwards(first).items():
                add(out, k, p * q, rep)
    except _Unbounded:
        return None
    return out
