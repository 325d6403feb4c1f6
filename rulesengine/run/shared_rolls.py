"""Rolls shared across the computations of one answer (a sweep's values, a service request):
a roll's distribution, and a check's joint values, worked out once for all the computations
that give them alike, kept while :func:`sharing_rolls` is in force and bounded as the
process-wide caches are."""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any
from collections.abc import Iterable, Iterator, Mapping

from ..cache import SizeAccount, SizedCache
from ..limits import MAX_CACHED_WEIGHTS
from ..rules.model import Check, Expr, let_exprs
from .groups import Groupings
from .joint_values import Joint

_SHARED_ROLLS: ContextVar[SizedCache | None] = ContextVar("rulesengine_shared_rolls", default=None)


def shared_rolls() -> SizedCache | None:
    """The store of :func:`sharing_rolls` in force, or None outside it."""
    return _SHARED_ROLLS.get()


class SharedJoint:
    """Every joint value of a check's rolls for inputs that give them alike, kept for a
    sweep: the steps they cost, and (once asked for again) their groups (:mod:`.groups`)."""

    __slots__ = ("joint", "denom", "steps", "grouped")

    def __init__(self, joint: Joint, denom: int, steps: int) -> None:
        self.joint, self.denom, self.steps = joint, denom, steps
        self.grouped: Groupings = {}  # its groups, by the values known before rolling they hold for


@contextmanager
def sharing_rolls() -> Iterator[None]:
    """Inside the block, a roll's distribution is worked out once for all the computations
    that need it with the same key (:meth:`ExactRolls.share_key`: the values its expression
    reads and what is read of its dice), and handed to the others: a sweep over an input
    the roll does not read (a difficulty, a skill rolled under) works its dice out once.
    The steps it cost are charged once to the shared budgets in force (a sweep's
    ``max_sweep_states``, a service request's), and again to each computation's own budget
    (:meth:`Budget.spend_here`), so each is refused where it is refused alone. What is kept
    is bounded as the process-wide caches are (``MAX_CACHED_WEIGHTS``), and dropped at the
    end of the block."""
    token = _SHARED_ROLLS.set(SizedCache(SizeAccount(MAX_CACHED_WEIGHTS)))
    try:
        yield
    finally:
        _SHARED_ROLLS.reset(token)


def choice_key(check: Check, env: Mapping[str, Any]) -> tuple:
    """The values known before the roll (``env``) that the check's choice of dice may read
    (how many are picked, the values ranked, the lets, which may be among them): equal keys
    choose alike, so the rolls made after the choice come out alike too."""
    assert check.choose is not None
    return values_read(env, _names(_choice_exprs(check) + _lets(check)))


def moments_key(check: Check, env: Mapping[str, Any]) -> tuple:
    """The values known before the roll that the result's unbounded moments may read: those
    its rolls, lets, choice of dice and result read (a difficulty that only outcome rules
    read is not among them), so that a sweep works them out once for the values alike."""
    return values_read(env, _names([e for _, e in check.rolls] + [check.result] + _lets(check) + _choice_exprs(check)))


def values_read(env: Mapping[str, Any], names: Iterable[str]) -> tuple:
    """A key of what ``names`` read: each with its value in ``env`` and that value's type (8
    and 8.0, 1 and True read differently), or alone where ``env`` has none, in name order."""
    return tuple((n, type(env[n]), env[n]) if n in env else (n,) for n in sorted(names))


def _choice_exprs(check: Check) -> list[Expr | None]:
    """What the check's choice of dice reads: its values, its preference and how many it picks."""
    spec = check.choose
    if spec is None:
        return []
    return [*(e for _, e in spec.values), spec.prefer, spec.pick_expr]


def _lets(check: Check) -> list[Expr | None]:
    return [e for let in check.lets for e in let_exprs(let)]


def _names(exprs: list[Expr | None]) -> set[str]:
    return set().union(*(e.names for e in exprs if e is not None))
