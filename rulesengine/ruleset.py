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
from _thread import RLock  # threading's own, without importing threading (start-up)
from pathlib import Path
from typing import Any
from collections.abc import Iterable, Mapping, Sequence

from .rules.build import Builder, ruleset_functions
from .run.check import CheckRunner
from .run.calls import Runnable, refuse_parties
from .run.runtime import Functions
from .run.results import CheckOdds, CheckResult
from .codes import E_EXPRESSION
from .errors import Diagnostic, InputError, RulesetError, SchemaError
from .dice.parser import closest
from .limits import DEFAULT_LIMITS, Limits
from .rules.model import RulesetModel
from .rules.document import RULESET_SUFFIXES, Document, load_file, load_text
from .rules.verdicts import build_alone, clean_before, remember_clean, stands_alone


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
        """Roll the check once: its dice, then its values, gates, result, outcome and tags.

        Args:
            inputs: the check's inputs by name; one not given takes its default, and one
                without a default must be given unless it is optional. Text is read as the
                command line reads it (``"12"`` for a whole number).
            parties: refused: they are for procedures (contests, teams, groups).
            rng: a :class:`random.Random` to draw the dice from (not with ``seed``).
            seed: a seed for a fresh :class:`random.Random`, so that a roll can be repeated;
                with neither ``rng`` nor ``seed``, fresh randomness.
            faces: the faces of physical dice, in the order the check reads its dice; when
                given, ``rng`` and ``seed`` are not used.
            choose: the dice the player picks, where the check chooses dice; else its
                declared policy picks.

        Returns:
            The :class:`~rulesengine.CheckResult`: the outcome, whether it is a success, the
            result, the values and rolls, the tags, and the trace of the dice.

        Raises:
            InputError: an input unknown, missing, out of its range or of the wrong type;
                ``parties`` given; both ``rng`` and ``seed``; more ``faces`` than the check
                rolls.
            DiceEvalError: too few ``faces``, or a face its die cannot show (E204); or a fault
                of the rules these inputs meet (a table with no row for a key, a dice count
                below 0, a division by 0: what ``rulesengine validate`` searches for).
            LimitError: one of the check's :class:`~rulesengine.Limits` was hit.
        """
        refuse_parties(self.name, parties)
        return self.runner.roll(inputs, rng=rng, seed=seed, faces=faces, choose=choose)

    def odds(self, inputs: Mapping[str, Any] | None = None, *, parties: Sequence[Mapping[str, Any]] | None = None,
             given: str | None = None) -> CheckOdds:
        """The check's exact odds, as fractions: every outcome, the success, the result's
        distribution, worked out by the same rules as :meth:`roll`, never by sampling.

        Args:
            inputs: the check's inputs by name, as for :meth:`roll`.
            parties: refused, as by :meth:`roll`.
            given: a yes/no expression over the check's names (``"outcome == 'success'"``,
                ``"result >= 3"``): the odds conditioned on it, and its own probability in
                ``given_probability``.

        Returns:
            The :class:`~rulesengine.CheckOdds`.

        Raises:
            InputError: an input unknown, missing, out of its range or of the wrong type;
                ``parties`` given; a ``given`` that does not parse, names what the check
                does not have, rolls dice, or never holds for these inputs.
            RulesetError: a ``given`` that is not true or false (E511).
            DiceEvalError: a fault of the rules these inputs meet, as for :meth:`roll`.
            LimitError: one of the check's :class:`~rulesengine.Limits` was hit (too many
                states to enumerate, say).
        """
        refuse_parties(self.name, parties)
        return self.runner.odds(inputs, given)

    def coerce_inputs(self, inputs: Mapping[str, Any] | None) -> dict[str, Any]:
        return self.runner.coerce_inputs(inputs)


class Ruleset:
    """A loaded, validated ruleset.

    A file that loaded without an error before, unchanged since, is not checked again
    (:mod:`rulesengine.rules.verdicts`): its checks are built as they are asked for, and
    the whole model only when something reads it (``model``, ``warnings``, a procedure)."""

    def __init__(self, model: RulesetModel | None, doc: Document, limits: Limits = DEFAULT_LIMITS,
                 warnings: tuple[Diagnostic, ...] = ()) -> None:
        self._model = model
        self.document = doc
        self.limits = limits
        self._warnings = warnings
        self._functions: Functions | None = ruleset_functions(model) if model is not None else None
        self._checks: dict[str, Check] = {}
        self._lock = RLock()

    @classmethod
    def checked_before(cls, doc: Document, limits: Limits = DEFAULT_LIMITS) -> Ruleset:
        """A file found free of errors before, as it is now: nothing is built yet."""
        return cls(None, doc, limits)

    @property
    def model(self) -> RulesetModel:
        """The model of the whole file (built now if the file was loaded as checked before)."""
        if self._model is None:
            with self._lock:
                if self._model is None:
                    whole = _from_document(self.document, self.limits)
                    self._warnings, self._functions, self._model = whole._warnings, whole._functions, whole._model
        assert self._model is not None
        return self._model

    @property
    def warnings(self) -> tuple[Diagnostic, ...]:
        """The file's warnings (the whole file is checked for them if it was not yet)."""
        _ = self.model  # builds the whole file once
        return self._warnings

    @property
    def functions(self) -> Functions:
        """Every function the file's expressions may call: the language's and its tables'."""
        if self._functions is None:
            self._functions = ruleset_functions(self.model)
        return self._functions

    @property
    def id(self) -> str:
        return self._model.id if self._model is not None else self.document.data["ruleset"]

    @property
    def name(self) -> str:
        return self._model.name if self._model is not None else self.document.data.get("name", self.id)

    def _names(self, part: str) -> list[str]:
        """The names of the file's checks or procedures, in the file's order (a file that
        loaded builds every one of them, so its data names the same as its model)."""
        if self._model is not None:
            return list(self._model.checks if part == "checks" else self._model.procedures)
        return list(self.document.data.get(part) or {})

    def checks(self) -> list[str]:
        return self._names("checks")

    def procedures(self) -> list[str]:
        return self._names("procedures")

    def check(self, name: str) -> Check:
        """One check of the ruleset, to roll or get the odds of.

        Args:
            name: the check's name, as the file gives it (``checks()`` lists them).

        Returns:
            The :class:`Check`; the same object each time for the same name.

        Raises:
            InputError: no check has that name (the hint names the nearest, or lists them).
        """
        names = self.checks()
        if not isinstance(name, str) or name not in names:
            near = nearest(name, names)
            raise InputError(f"ruleset '{self.id}' has no check '{name}'",
                             hint=f"did you mean '{near}'?" if near else "checks: " + ", ".join(names))
        if name not in self._checks:
            model = self._model_for(name)
            if self._functions is None:
                self._functions = ruleset_functions(model)  # the tables, as the whole file's
            runner = CheckRunner(model, model.checks[name], self._functions, self.document, self.limits)
            self._checks[name] = Check(runner)
        return self._checks[name]

    def _model_for(self, name: str) -> RulesetModel:
        """The whole model, or, for a file checked before, one with the check built alone
        where that is the same check (:func:`~rulesengine.rules.verdicts.stands_alone`)."""
        if self._model is None and stands_alone(self.document, name):
            alone = build_alone(self.document, self.limits, name)
            if alone is not None:
                return alone
        return self.model

    def procedure(self, name: str):
        """One procedure of the ruleset (a contest, a team, group, assisted or extended check).

        Args:
            name: the procedure's name (``procedures()`` lists them).

        Returns:
            A runner with ``roll`` and ``odds`` like :class:`Check`'s, which also take
            ``parties`` (one mapping of inputs per party); a new runner each time.

        Raises:
            InputError: no procedure has that name (the hint names the nearest, or lists them).
        """
        from .run.procedures import procedure_runner

        names = self.procedures()
        if not isinstance(name, str) or name not in names:
            near = nearest(name, names)
            raise InputError(f"ruleset '{self.id}' has no procedure '{name}'",
                             hint=f"did you mean '{near}'?" if near else "procedures: " + (", ".join(names) or "none"))
        return procedure_runner(self, self.model.procedures[name])

    def runnable(self, name: str) -> Runnable:
        """A check or a procedure, by name: what the command line and the service call.

        Args:
            name: a check's or a procedure's name (no two share one).

        Returns:
            The :class:`Check` (see :meth:`check`) or the procedure's runner (see
            :meth:`procedure`).

        Raises:
            InputError: no check or procedure has that name.
        """
        if isinstance(name, str) and name in self.checks():
            return self.check(name)
        if isinstance(name, str) and name in self.procedures():
            return self.procedure(name)
        names = self.checks() + self.procedures()
        near = nearest(name, names)
        raise InputError(f"ruleset '{self.id}' has no check or procedure '{name}'",
                         hint=f"did you mean '{near}'?" if near else "available: " + ", ".join(names))


def load(name_or_path: str | os.PathLike, limits: Limits = DEFAULT_LIMITS) -> Ruleset:
    """Load a shipped ruleset by id (its file name under rulesets/) or a ruleset file by path.

    Args:
        name_or_path: a shipped id (see ``rulesengine list``), or a path: anything with a ``/`` or
            ending in ``.yaml``/``.yml``.
        limits: the limits the file is read with and its checks run with.

    Returns:
        The :class:`Ruleset`. Loading a file again with the same limits while it is
        unchanged (the same resolved path and modification time) gives the same object,
        from a cache of the 32 used last.

    Raises:
        InputError: a word that is no shipped id (the hint names the nearest), or neither
            an id nor a path.
        LoadError: the file cannot be read, or not safely as YAML (missing, not a
            ``.yaml`` file, too large, a syntax error...).
        SchemaError: the first error against the file format (an E4xx code).
        RulesetError: the first error of what the file means (an unknown name, an outcome
            that can never apply...).

    Each error carries its place in the file; the message says how many more there are,
    and ``rulesengine validate`` lists them all.
    """
    path = resolve_path(name_or_path)
    try:
        full = str(path.resolve())
    except (OSError, ValueError, RuntimeError):  # NUL, a loop of links (RuntimeError): load_file reports it
        full = str(path)
    return _load_cached(full, _mtime(path), limits)


def loads(text: str, path: str | None = None, limits: Limits = DEFAULT_LIMITS) -> Ruleset:
    """Load a ruleset from YAML text (for front ends that receive files from users).

    Args:
        text: the YAML, as text or as UTF-8 bytes.
        path: the name the file's errors give it (``"<string>"`` when None); nothing is read.
        limits: the limits the text is read with and its checks run with.

    Returns:
        A new :class:`Ruleset` (nothing is cached).

    Raises:
        TypeError: ``text`` is neither text nor bytes.
        LoadError: the text is not safely one YAML mapping (too large, not UTF-8, a syntax
            error...).
        SchemaError: the first error against the file format, as for :func:`load`.
        RulesetError: the first error of what the file means, as for :func:`load`.
    """
    return _from_document(load_text(text, path, limits), limits)


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except (OSError, ValueError):
        return 0.0


@functools.lru_cache(maxsize=32)
def _load_cached(path: str, _mtime: float, limits: Limits) -> Ruleset:
    doc = load_file(path, limits)
    if clean_before(doc, limits):
        return Ruleset.checked_before(doc, limits)
    ruleset = _from_document(doc, limits)
    remember_clean(doc, limits)
    return ruleset


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
