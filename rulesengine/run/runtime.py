"""What running a ruleset reads: one typed :class:`Runtime` (the model, its functions, the
limits and the document the model came from), held by each check's runner and by each
procedure, so both evaluate expressions and point errors at the file the same way."""

from __future__ import annotations

from typing import Any, TypeVar
from collections.abc import Callable, Mapping

from ..dice.beyond import Undetermined, Unknown
from ..dice.context import Context
from ..dice.trace import format_value
from ..codes import E_NOT_A_CONDITION
from ..errors import RulesEngineError, RulesetError
from ..limits import DEFAULT_LIMITS, Limits
from ..rules.document import Document
from ..rules.model import Expr, RulesetModel

Functions = Mapping[str, tuple[Callable[..., Any], int, int | None]]
"""The functions a ruleset's expressions may call, by name: the built-ins and one per table
(see :func:`rulesengine.rules.table_functions.ruleset_functions`)."""

AnyError = TypeVar("AnyError", bound=RulesEngineError)


class Runtime:
    """One loaded ruleset as its checks and procedures run it: read only."""

    __slots__ = ("model", "functions", "limits", "doc")

    def __init__(self, model: RulesetModel, functions: Functions, limits: Limits = DEFAULT_LIMITS,
                 doc: Document | None = None) -> None:
        self.model = model
        self.functions = functions
        self.limits = limits
        self.doc = doc  # None for a model built without a file: errors then keep their own place

    def evaluate(self, e: Expr, env: Mapping[str, Any], **ctx_args: Any) -> Any:
        """The value of ``e`` with the names of ``env`` (one roll of any dice it has)."""
        ctx = Context(e.text, env, self.limits, **ctx_args) if ctx_args else Context(e.text, env, self.limits)
        try:
            return e.run(ctx)
        except RulesEngineError as exc:
            raise self.relocate(exc, e) from None

    def truth(self, e: Expr, env: Mapping[str, Any]) -> bool:
        """The value of a condition, which must be yes or no."""
        return self.truth_in(Context(e.text, env, self.limits), e)

    def reading(self, env: Mapping[str, Any]) -> Context:
        """One context for several expressions read over the same names, none of which rolls
        (a resolution's lets, result and conditions; ``env`` may grow between them): made
        once, not once for each (a sweep resolves tens of thousands of joint values).
        :meth:`value_in` and :meth:`truth_in` point it at each expression's text."""
        return Context("", env, self.limits)

    def value_in(self, ctx: Context, e: Expr) -> Any:
        """:meth:`evaluate` of ``e`` in a context made by :meth:`reading`."""
        ctx.text = e.text  # what an error inside it points into
        try:
            return e.run(ctx)
        except RulesEngineError as exc:
            raise self.relocate(exc, e) from None

    def truth_in(self, ctx: Context, e: Expr) -> bool:
        """:meth:`truth` of ``e`` in a context made by :meth:`reading`."""
        ctx.text = e.text
        try:
            value = e.run(ctx)
        except RulesEngineError as exc:
            raise self.relocate(exc, e) from None
        if value is True or value is False:  # (no class derives from bool)
            return value
        if isinstance(value, Unknown):  # a let explosions past the depth left open: so is this
            raise Undetermined
        raise self.relocate(RulesetError(
            f"condition '{e.text}' gives {format_value(value)}, not true or false",
            code=E_NOT_A_CONDITION, hint="write a comparison, e.g. roll >= 10"), e)

    def relocate(self, exc: AnyError, e: Expr) -> AnyError:
        """Point an error inside a ruleset expression at the file, not the expression."""
        if self.doc is not None and exc.location.path is None:
            col = exc.location.column
            loc = (self.doc.scalar_column(e.pointer, e.written_at(col - 1), length=exc.location.length)
                   if col is not None else self.doc.location(e.pointer))
            exc.location = loc
        return exc

    def locate(self, exc: AnyError, pointer: str) -> AnyError:
        """Point an error of a part of the file with no expression of its own (a procedure)
        at that part's key."""
        if self.doc is not None and exc.location.path is None:
            exc.location = self.doc.location(pointer, key=True)
        return exc
