"""What the parts of a ruleset are built with: the :class:`BuildContext` a table, an input or a
procedure kind's builder is handed (the :class:`~rulesengine.rules.build.Builder` of the file).

A protocol, so that a part's builder reads only what it needs of the whole file (the tables
and checks built so far, the way to build an expression, the way to report a mistake) and
mypy checks each use."""

from __future__ import annotations

from typing import Any, Protocol
from collections.abc import Mapping

from ..dice import ast
from ..errors import Location
from .model import Check, Expr, OutcomeRule, Table
from .scope import Scope

__all__ = ["BuildContext", "built"]


class BuildContext(Protocol):
    """The file being built, as the builder of one of its parts sees it."""

    @property
    def tables(self) -> Mapping[str, Table]:
        """The file's tables, by name (built first)."""
        ...

    @property
    def checks(self) -> Mapping[str, Check]:
        """The file's checks, by name (built before any procedure)."""
        ...

    def error(self, code: str, message: str, pointer: str, hint: str | None = None,
              key: bool = False, location: Location | None = None) -> None:
        """Report a mistake at ``pointer`` (its key with ``key``), or at ``location``."""
        ...

    def expr(self, value: Any, pointer: str, scope: Scope, *, dice: bool = False,
             what: str = "expression") -> Expr | None:
        """The expression written at ``pointer``, reading the names of ``scope``; None
        (with its mistakes reported) where it has any."""
        ...

    def check_outcomes(self, name: str, spec: dict, ptr: str,
                       outcome_scope: Scope) -> tuple[list[OutcomeRule], dict[str, str]]:
        """Outcome rules in order, built as a check's are, with the names seen."""
        ...


def _never_run(_ctx: Any) -> Any:
    raise AssertionError("an expression that failed to build was run")  # its file is refused


_UNBUILT = Expr("", ast.Num(0, (0, 0)), "", _never_run)


def built(e: Expr | None) -> Expr:
    """``e``, or where it failed to build, a stand-in. A failed expression has its mistake
    reported, so the file is refused and its model never made (``Builder.build``): the
    stand-in only keeps a part's spec whole while the rest of the file is checked (and its
    other mistakes found), and is never run."""
    return e if e is not None else _UNBUILT
