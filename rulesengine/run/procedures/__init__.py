"""Procedures built from checks, run: one runner per kind, found through one registry.

A kind is one module here (its runner and its result types) beside its builder in
:mod:`rulesengine.rules.procedures`; adding a kind adds one line to ``RUNNERS``."""

from __future__ import annotations

from ...rules.model import Procedure
from .assisted import AssistedOdds, AssistedResult, AssistedRunner
from .base import Checks, ProcedureRunner
from .contest import ContestOdds, ContestResult, ContestRunner
from .extended import ExtendedOdds, ExtendedResult, ExtendedRunner
from .group import GroupOdds, GroupResult, GroupRunner
from .team import TeamOdds, TeamResult, TeamRunner

RUNNERS: dict[str, type[ProcedureRunner]] = {
    "contest": ContestRunner,
    "extended": ExtendedRunner,
    "team": TeamRunner,
    "assisted": AssistedRunner,
    "group": GroupRunner,
}


def procedure_runner(ruleset: Checks, proc: Procedure) -> ProcedureRunner:
    """The runner of ``proc``'s kind (``ruleset`` as for :class:`ProcedureRunner`)."""
    return RUNNERS[proc.kind](ruleset, proc)


__all__ = ["AssistedOdds", "AssistedResult", "ContestOdds", "ContestResult", "ExtendedOdds", "ExtendedResult",
           "GroupOdds", "GroupResult", "ProcedureRunner", "RUNNERS", "TeamOdds", "TeamResult", "procedure_runner"]
