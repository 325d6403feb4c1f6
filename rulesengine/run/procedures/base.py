"""What every procedure kind's runner shares: the check it is made of, procedure-level inputs,
parties, evaluation in the check's own compiled context, and the two entry points.

A kind subclasses :class:`ProcedureRunner` and implements ``_roll`` and ``_odds``; the registry
in :mod:`rulesengine.run.procedures` picks the subclass by the procedure's kind."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Protocol, TypeVar
from collections.abc import Iterable, Mapping, Sequence

from ...dice import ast
from ...dice.values import Rolled
from ...dice.sources import FacesSource, dice_source
from ...codes import E_FACES, E_PROCEDURE
from ...errors import InputError, PartiesExample, RulesEngineError, RulesetError
from ...rules.model import Check, Expr, Procedure
from ...rules.procedures import party_expressions
from ...limits import Limits
from ...rules.table_functions import read_values
from ..calls import refuse_for_procedure
from ..check import CheckRunner
from ..json_parts import jsonable
from ..results import NOT_ALLOWED, CheckResult, Resolution, with_declared
from ..runtime import Runtime


def not_allowed(index: int | None, reason: str, round_no: int | None = None) -> InputError:
    who = f"party {index + 1}" if index is not None else f"round {round_no}"
    return InputError(f"{who} may not make the check" + (f": {reason}" if reason else ""),
                      hint="change that party's inputs so the check is allowed",
                      field=("parties", index) if index is not None else ("inputs",))


def parties_example(check: Check, count: int, lead: str = "give") -> PartiesExample:
    """A hint's example of ``count`` parties (at least one) of ``check``, each given the
    input the check needs (its first without a default), else its first input."""
    inputs = check.inputs
    name = next((i.name for i in inputs if not i.has_default and not i.optional), inputs[0].name if inputs else None)
    return PartiesExample(lead, tuple((name,) if name else () for _ in range(max(count, 1))))


ABSENT = object()  # a name a resolution does not define, told apart from one defined as None


def call_arguments(exprs: Sequence[Expr]) -> frozenset[str]:
    """Names passed straight to a function in ``exprs`` (through parentheses or a label):
    the only way an expression sees more of a roll than its total (``count(roll, 6)``,
    ``highest(if(c, a, b))``), so only these keep a roll's dice in a fingerprint. The same
    walk (:func:`~rulesengine.dice.ast.arguments`) finds the rolls a check's rules pass to a
    function that reads dice (``rules/faces.py``)."""
    return frozenset(arg.name for e in exprs for arg in ast.arguments(e.tree) if isinstance(arg, ast.Name))


def fingerprint(env: Mapping[str, Any], names: Iterable[str], dice_names: frozenset[str]) -> tuple:
    """What expressions reading ``names`` can see of ``env``: a roll's dice where it is passed
    to a function (``dice_names``, see :func:`call_arguments`), else its total; ABSENT for a
    name ``env`` lacks. Outcomes with equal fingerprints are the same to those expressions,
    so they are merged before any joint is taken."""
    return tuple(ABSENT if n not in env else _seen(env[n], n in dice_names) for n in names)


def _seen(value: Any, whole: bool) -> Any:
    if isinstance(value, (int, str, bool)) or value is None or (whole and isinstance(value, Rolled)):
        return value
    return getattr(value, "total", value)


def rank_value(value: Any) -> Any:
    """A value as a ranking compares it: yes above no (1 and 0), a roll by its total."""
    return int(value) if isinstance(value, bool) else getattr(value, "total", value)


SpecT = TypeVar("SpecT")
AnyError = TypeVar("AnyError", bound=RulesEngineError)


class RunnableCheck(Protocol):
    """A check of a loaded ruleset, as a procedure runs it: through its runner."""

    @property
    def runner(self) -> CheckRunner: ...


class Checks(Protocol):
    """What a procedure needs of a loaded ruleset (the facade's ``Ruleset``): its id, its
    limits and its checks by name. Only read."""

    @property
    def id(self) -> str: ...

    @property
    def limits(self) -> Limits: ...

    def check(self, name: str) -> RunnableCheck: ...


class ProcedureRunner:
    """A procedure of a loaded ruleset (see :class:`Checks`), run through the runner of its
    check and the ruleset's :class:`Runtime`."""

    def __init__(self, ruleset: Checks, proc: Procedure) -> None:
        self.ruleset = ruleset
        self.proc = proc
        self.check = ruleset.check(proc.check)
        self.runner: CheckRunner = self.check.runner
        self.runtime: Runtime = self.runner.runtime
        self.limits = ruleset.limits

    @property
    def name(self) -> str:
        return self.proc.name

    def evaluate(self, e: Expr, env: Mapping[str, Any], **ctx: Any) -> Any:
        return self.runtime.evaluate(e, env, **ctx)

    def truth(self, e: Expr, env: Mapping[str, Any]) -> bool:
        return self.runtime.truth(e, env)

    def locate(self, exc: AnyError, e: Expr | None = None) -> AnyError:
        """Point an error of the procedure at the ruleset file, like every other ruleset
        error: at the expression ``e`` (at its column, when the error has one), else at the
        procedure's name. The error itself is kept (a LimitError keeps its ``limit``)."""
        if e is not None:
            return self.runtime.relocate(exc, e)
        return self.runtime.locate(exc, self.proc.pointer)

    @staticmethod
    def party_env(res: Resolution | CheckResult, env: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Every name of a party's check after it resolved: the resolver's own record, the
        same for a roll and for each enumerated outcome."""
        out = dict(env or {})
        out.update(res.env)
        out.update(res.values)
        out.update(result=res.result, outcome=res.outcome, success=res.success)
        return out

    def party_resolutions(self, values: dict[str, Any], index: int, extra: Mapping[str, Any] | None = None
                          ) -> tuple[list[tuple[Resolution, dict[str, Any], int]], int]:
        """Every resolution of party ``index``'s check with the names the procedure reads of
        it (its check's, ``party`` and ``extra``), over a common denominator; a party whose
        check is not allowed is an input error."""
        outs, denom = self.runner.resolutions(values)
        rows = []
        for res, env, w in outs:
            if res.outcome == NOT_ALLOWED:
                raise not_allowed(index, res.reason)
            rows.append((res, {**self.party_env(res, env), **(extra or {}), "party": index + 1}, w))
        return rows, denom

    def whole_number(self, value: Any, e: Expr, what: str) -> int:
        """A value the procedure adds up (a helper's total, a bonus, a group's tally): a whole
        number (a roll counts by its total), else an error at its expression."""
        value = getattr(value, "total", value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.locate(RulesetError(f"{what} gives {value!r}, not a whole number", code=E_PROCEDURE,
                                           hint="write an expression that gives a number"), e)
        return value

    def typed_spec(self, kind: type[SpecT]) -> SpecT:
        """This procedure's spec as its kind's own type (the model types it as any kind's)."""
        spec = self.proc.settings
        assert isinstance(spec, kind), (self.proc.kind, kind)
        return spec

    def _party_exprs(self) -> list[Expr]:
        """The procedure's expressions that read a party's check after it resolved."""
        return [e for _, exprs, _ in party_expressions(self.proc) for e in exprs]

    def report(self, env: Mapping[str, Any]) -> tuple:
        """The procedure's ``report`` values worked out in ``env`` (what the procedure's kind
        gives its report when it ends), in the order the ruleset lists them, each reading
        those above it (but where one is named as a name of ``env``: that stays); as results'
        JSON carries them, so equal values merge in exact odds."""
        local = dict(env)
        values = []
        for name, e in self.proc.report:
            value = self.evaluate(e, local)
            local.setdefault(name, value)
            values.append(jsonable(value))
        return tuple(values)

    def report_dict(self, values: tuple | None) -> dict[str, Any]:
        """Report values by name; empty when the procedure ended without them (a tie, a
        ruined task)."""
        if values is None:
            return {}
        return {name: v for (name, _), v in zip(self.proc.report, values, strict=True)}

    def report_dists(self, weighted: Iterable[tuple[tuple | None, Fraction]]) -> dict[str, dict[Any, Fraction]]:
        """Each report value's distribution from (values or None, probability) pairs: the
        mass where the procedure ended without a report (a tie, a ruined task) is left out,
        so a distribution's total is the chance its value exists."""
        out: dict[str, dict[Any, Fraction]] = {name: {} for name, _ in self.proc.report}
        for values, p in weighted:
            if values is None:
                continue
            for (name, _), v in zip(self.proc.report, values, strict=True):
                out[name][v] = out[name].get(v, Fraction(0)) + p
        # A value read straight from a table lists every value the table declares (0 where
        # it can't happen).
        return {name: with_declared(out[name], read_values(self.runtime.model, e)) for name, e in self.proc.report}

    def report_line(self, values: tuple | None) -> list[str]:
        """The trace's last line: the report values, when the procedure has them."""
        if not self.proc.report or values is None:
            return []
        return ["report: " + ", ".join(f"{k} {v}" for k, v in self.report_dict(values).items())]

    @property
    def party_reads(self) -> tuple[tuple[str, ...], frozenset[str]]:
        """What the procedure's expressions read of a party's check after it resolved: the
        names, and those of them whose dice they may read (see :func:`call_arguments`)."""
        exprs = self._party_exprs()
        return tuple(sorted(set().union(*(e.names for e in exprs)))), call_arguments(exprs)

    is_procedure = True

    def roll(self, inputs: Mapping[str, Any] | None = None, *, parties: Sequence[Mapping[str, Any]] | None = None,
             rng=None, seed=None, faces=None, choose: Iterable[int] | None = None):
        """Roll the procedure. Contests, team and assisted checks take ``parties`` (one input
        mapping per party: for assisted checks the leader first, then the helpers). Chosen
        dice are refused (an InputError): they are for a check that chooses dice."""
        refuse_for_procedure(self.name, choose=choose)
        source = dice_source(rng=rng, seed=seed, faces=faces)
        result = self._roll(parties, source, inputs)
        if isinstance(source, FacesSource) and source.used < len(source.faces):
            raise InputError(f"{len(source.faces)} faces given, but '{self.proc.name}' rolled only {source.used}",
                             hint="give one face per die rolled", field=("faces",))
        return result

    def odds(self, inputs: Mapping[str, Any] | None = None, *, parties: Sequence[Mapping[str, Any]] | None = None,
             given: str | None = None):
        """Exact odds of the procedure, for the same inputs and parties as :meth:`roll`; a
        condition (``given``) is refused: it works with a check."""
        refuse_for_procedure(self.name, given=given)
        return self._odds(parties, inputs)

    def _roll(self, parties, source, inputs):
        raise NotImplementedError  # each kind's runner rolls its own way

    def _odds(self, parties, inputs):
        raise NotImplementedError  # each kind's runner computes its own exact odds

    def _own_inputs(self, inputs) -> dict[str, Any]:
        return self.runner.coerce_specs(self.proc.inputs, inputs, f"'{self.proc.name}'",
                                        parties_example(self.runner.check, 1, "give each party's inputs as"))

    def _members(self, parties, lo: int, hi: int, runner: CheckRunner, what: str = "parties",
                 who: str | None = None) -> list[dict[str, Any]]:
        """Each party's inputs, checked by its check's runner; between ``lo`` and ``hi`` of them."""
        parties = list(parties or [])
        if not lo <= len(parties) <= hi:
            who = who or f"'{self.proc.name}'"
            raise InputError(f"{who} needs {lo}" + (f" to {hi}" if hi != lo else "")
                             + f" {what}, got {len(parties)}", field=("parties",),
                             example=parties_example(runner.check, lo))
        out = []
        for i, p in enumerate(parties):
            try:
                out.append(runner.coerce_inputs(p, ("parties", i)))
            except InputError as exc:
                raise InputError(f"party {i + 1}: {exc.message}", hint=exc.hint, field=exc.field) from None
        return out


class faces_for:  # noqa: N801 - read as a function: `with faces_for("party {}'s check", 2):`
    """Where the faces given (``--faces``) run out in a procedure's roll, the error says whose
    check was rolling (``party 2's check``, ``round 3``): every party reads the same faces in
    turn, so the roll's line alone does not say which ran short. ``who`` is formatted with
    ``n`` only then: a party's roll pays for no text it does not print."""

    __slots__ = ("who", "n")

    def __init__(self, who: str, n: int) -> None:
        self.who, self.n = who, n

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, exc: BaseException | None, tb: object) -> None:
        if isinstance(exc, RulesEngineError) and exc.code == E_FACES:
            exc.message = f"{exc.message}, rolling {self.who.format(self.n)}"
