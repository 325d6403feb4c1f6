"""What a front end calls: a check or a procedure, by one interface, with the refusals every
front end shares decided here once.

The command line, the service and a program using the library all ask the same two things
of a check or a procedure — roll it, work out its odds — with inputs, parties for the
procedures that have them, a condition for odds (checks only) and chosen dice for a roll
(checks that choose). What one kind can't take is refused by the kind itself, with one
message, so ``cli.py`` and ``serve/operations.py`` only translate their requests into these
calls (they used to decide ``is_procedure`` and word the same refusals each)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from ..errors import InputError
from ..limits import Limits
from .results import RunOdds, RunResult


class Runnable(Protocol):
    """A check or a procedure of a loaded ruleset (``Ruleset.runnable(name)``)."""

    @property
    def name(self) -> str: ...

    @property
    def is_procedure(self) -> bool: ...

    @property
    def limits(self) -> Limits: ...

    def roll(self, inputs: Mapping[str, Any] | None = None, *,
             parties: Sequence[Mapping[str, Any]] | None = None, rng: Any = None, seed: int | str | None = None,
             faces: Iterable[int] | None = None, choose: Iterable[int] | None = None) -> RunResult: ...

    def odds(self, inputs: Mapping[str, Any] | None = None, *,
             parties: Sequence[Mapping[str, Any]] | None = None, given: str | None = None) -> RunOdds: ...


def refuse_parties(check: str, parties: Sequence[Mapping[str, Any]] | None) -> None:
    """A check takes its inputs, not parties."""
    if parties:
        raise InputError(f"'{check}' is a check: it takes its own inputs, not parties",
                         hint="give the check's inputs; parties are for procedures (contests, teams, groups)",
                         field=("parties",))


def refuse_parties_of_extended(procedure: str, parties: Sequence[Mapping[str, Any]] | None) -> None:
    """An extended check takes its own inputs (its check's and its own), not parties: they
    were taken and left unread."""
    if parties:
        raise InputError(f"'{procedure}' is an extended check: it takes its inputs without a party's prefix, "
                         "not parties", hint="give each as name=value, without 'party1.'; parties are for "
                         "contests, teams, groups and assisted checks", field=("parties",))


def refuse_for_procedure(procedure: str, given: str | None = None, choose: Iterable[int] | None = None) -> None:
    """A procedure takes no condition for its odds and no chosen dice."""
    if given is not None:
        raise InputError(f"a condition ('given') works with a check, and '{procedure}' is a procedure",
                         hint="ask for the odds of one of its checks with the condition", field=("given",))
    if choose is not None:
        raise InputError(f"chosen dice ('choose') are for a check that chooses dice, and '{procedure}' is a "
                         "procedure", hint="leave out the chosen dice", field=("choose",))


def refuse_given_in_sweep(given: str | None) -> None:
    """A sweep gives odds for many input values; a condition is asked of one."""
    if given is not None:
        raise InputError("a condition ('given') does not combine with a sweep", hint="give every input one value",
                         field=("given",))
