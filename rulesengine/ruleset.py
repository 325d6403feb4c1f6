"""Loading rulesets and running their checks and procedures: the API front ends use.

>>> import rulesengine
>>> rs = rulesengine.load("my-system")                     # a shipped id, or a path
>>> chk = rs.check("skill_check")
>>> chk.roll({"skill": 12}, seed=1).outcome                 # doctest: +SKIP
'success'
>>> chk.odds({"skill": 12}).success                         # doctest: +SKIP
Fraction(20, 27)
"""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path
from typing import Any
from collections.abc import Iterable, Mapping, Sequence

from .rules.build import Builder, ruleset_functions
from .run.check import CheckRunner
from .run.calls import Runnable, refuse_parties
from .run.results import CheckOdds, CheckResult
from .codes import E_EXPRESSION
from .errors import Diagnostic, InputError, RulesetError, SchemaError
from .dice.parser import closest
from .limits import DEFAULT_LIMITS, Limits
from .rules.model import RulesetModel
from .rules.document import RULESET_SUFFIXES, Document, load_file, load_text


def nearest(name: Any, names: Iterable[Any]) -> str | None:
    """The known name closest to ``name``, for a "did you mean" hint; never fails on a
    name that is not text (an API caller's ``check(16)``), it just finds nothing."""
    if not isinstance(name, str):
        return None
    return closest(name, [n for n in names if isinstance(n, str)])


def rulesets_dir() -> Path:
    """Where the shipped rulesets live, in a checkout and in any install (rulesengine/shipped.py)."""
    from .shipped import rulesets_folder

    return rulesets_folder()


def shipped_ids() -> list[str]:
    return sorted(p.stem for p in rulesets_dir().glob("*.yaml"))


SHIPPED_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,99}\Z")
"""The form of a shipped ruleset id (the schema's ``ruleset`` pattern, at most 100 characters).
Only such a word is looked up among the shipped rulesets: a look-up never becomes a path."""


def resolve_path(name_or_path: str | os.PathLike) -> Path:
    """A shipped id (the file name under rulesets/ without .yaml) or a path to a YAML file.

    Anything with a ``/`` (or the platform's separator) or ending in ``.yaml``/``.yml`` is a
    path, and only ``*.yaml``/``*.yml`` files are read (see :func:`source.load_file`); a word
    of the id form is a shipped id; anything else is neither, and refused here without
    touching the file system (a 300-character word, ``MY-RULES``, a control character)."""
    text = os.fspath(name_or_path)
    text = os.fsdecode(text)
    if os.sep in text or "/" in text or text.lower().endswith(RULESET_SUFFIXES):
        return Path(text)
    ids = shipped_ids()
    if SHIPPED_ID.match(text):
        path = rulesets_dir() / f"{text}.yaml"
        if path.is_file():
            return path
        near = nearest(text, ids)
        raise InputError(f"no shipped ruleset '{text}'",
                         hint=f"did you mean '{near}'?" if near else "shipped: " + ", ".join(ids))
    near = nearest(text.lower(), ids)
    raise InputError(f"'{text}' is neither a shipped ruleset id nor a path to a .yaml file",
                     hint=(f"did you mean '{near}'? " if near else "")
                     + "ids are lower-case letters, digits and dashes; write a path as ./name.yaml")


def analyse(doc: Document, limits: Limits = DEFAULT_LIMITS) -> tuple[RulesetModel | None, list[Diagnostic]]:
    """Schema, then semantics: the model (None if invalid) and every diagnostic found."""
    from .rules.schema import validate_document

    diagnostics = validate_document(doc)
    if any(d.severity == "error" for d in diagnostics):
        return None, diagnostics
    builder = Builder(doc, limits)
    model = builder.build()
    return model, diagnostics + builder.diagnostics


class Check:
    """One check of a loaded ruleset: roll it, or get its exact odds."""

    def __init__(self, runner: CheckRunner) -> None:
        self.runner = runner
        self.model = runner.check

    is_procedure = False

    @property
    def name(self) -> str:
        return self.model.name

    @property
    def limits(self) -> Limits:
        return self.runner.limits

    def roll(self, inputs: Mapping[str, Any] | None = None, *, parties: Sequence[Mapping[str, Any]] | None = None,
             rng=None, seed: int | str | None = None, faces: Iterable[int] | None = None,
             choose: Iterable[int] | None = None) -> CheckResult:
        """Roll once. ``faces``: the faces of physical dice, in order; ``choose``: the dice the
        player picks, where the check chooses dice (else its declared policy picks).
        ``parties`` are refused (an InputError): they are for procedures."""
        refuse_parties(self.name, parties)
        return self.runner.roll(inputs, rng=rng, seed=seed, faces=faces, choose=choose)

    def odds(self, inputs: Mapping[str, Any] | None = None, *, parties: Sequence[Mapping[str, Any]] | None = None,
             given: str | None = None) -> CheckOdds:
        """Exact odds; ``given``: a yes/no expression over the check's names (``"outcome ==
        'success'"``, ``"result >= 3"``): the odds conditioned on it, its own probability in
        ``given_probability``. ``parties`` are refused, as by :meth:`roll`."""
        refuse_parties(self.name, parties)
        return self.runner.odds(inputs, given)

    def coerce_inputs(self, inputs: Mapping[str, Any] | None) -> dict[str, Any]:
        return self.runner.coerce_inputs(inputs)


class Ruleset:
    """A loaded, validated ruleset."""

    def __init__(self, model: RulesetModel, doc: Document, limits: Limits = DEFAULT_LIMITS,
                 warnings: tuple[Diagnostic, ...] = ()) -> None:
        self.model = model
        self.document = doc
        self.limits = limits
        self.warnings = warnings
        self.functions = ruleset_functions(model)
        self._checks: dict[str, Check] = {}

    @property
    def id(self) -> str:
        return self.model.id

    @property
    def name(self) -> str:
        return self.model.name

    def checks(self) -> list[str]:
        return list(self.model.checks)

    def procedures(self) -> list[str]:
        return list(self.model.procedures)

    def check(self, name: str) -> Check:
        if not isinstance(name, str) or name not in self.model.checks:
            near = nearest(name, self.model.checks)
            raise InputError(f"ruleset '{self.id}' has no check '{name}'",
                             hint=f"did you mean '{near}'?" if near else "checks: " + ", ".join(self.model.checks))
        if name not in self._checks:
            runner = CheckRunner(self.model, self.model.checks[name], self.functions, self.document, self.limits)
            self._checks[name] = Check(runner)
        return self._checks[name]

    def procedure(self, name: str):
        from .run.procedures import procedure_runner

        if not isinstance(name, str) or name not in self.model.procedures:
            near = nearest(name, self.model.procedures)
            raise InputError(f"ruleset '{self.id}' has no procedure '{name}'",
                             hint=f"did you mean '{near}'?" if near else
                             "procedures: " + (", ".join(self.model.procedures) or "none"))
        return procedure_runner(self, self.model.procedures[name])

    def runnable(self, name: str) -> Runnable:
        """A check or a procedure, by name: what the command line and the service call."""
        if isinstance(name, str) and name in self.model.checks:
            return self.check(name)
        if isinstance(name, str) and name in self.model.procedures:
            return self.procedure(name)
        names = list(self.model.checks) + list(self.model.procedures)
        near = nearest(name, names)
        raise InputError(f"ruleset '{self.id}' has no check or procedure '{name}'",
                         hint=f"did you mean '{near}'?" if near else "available: " + ", ".join(names))


def load(name_or_path: str | os.PathLike, limits: Limits = DEFAULT_LIMITS) -> Ruleset:
    """Load a shipped ruleset by id (its file name under rulesets/) or a ruleset file by path.

    Raises the first error found (LoadError, SchemaError or RulesetError), with its file
    position; ``rulesengine validate`` lists them all."""
    path = resolve_path(name_or_path)
    try:
        full = str(path.resolve())
    except (OSError, ValueError, RuntimeError):  # NUL, a loop of links (RuntimeError): load_file reports it
        full = str(path)
    return _load_cached(full, _mtime(path), limits)


def loads(text: str, path: str | None = None, limits: Limits = DEFAULT_LIMITS) -> Ruleset:
    """Load a ruleset from YAML text (for front ends that receive files from users)."""
    return _from_document(load_text(text, path, limits), limits)


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except (OSError, ValueError):
        return 0.0


@functools.lru_cache(maxsize=32)
def _load_cached(path: str, _mtime: float, limits: Limits) -> Ruleset:
    return _from_document(load_file(path, limits), limits)


def _from_document(doc: Document, limits: Limits) -> Ruleset:
    model, diagnostics = analyse(doc, limits)
    errors = [d for d in diagnostics if d.severity == "error"]
    if errors or model is None:
        first = errors[0] if errors else Diagnostic(E_EXPRESSION, "invalid ruleset")
        cls = SchemaError if first.code.startswith("E4") else RulesetError
        extra = f" (and {len(errors) - 1} more; run 'rulesengine validate')" if len(errors) > 1 else ""
        # Still a file error, but when it hit a limit it says which, as LimitError does.
        raise cls(first.message + extra, first.location, first.hint, code=first.code, limit=first.limit)
    return Ruleset(model, doc, limits, tuple(d for d in diagnostics if d.severity == "warning"))
