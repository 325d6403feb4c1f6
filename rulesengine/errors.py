"""One error hierarchy for the whole engine.

Every problem the engine reports to a user, whatever layer found it (YAML, schema,
dice expression, inputs, evaluation, limits), is a :class:`RulesEngineError` with a
stable ``code``, a one-line ``message``, an optional :class:`Location` and an optional
``hint``. Front ends and the CLI never need to catch anything else: a traceback reaching
a user is a bug.

Codes are grouped by layer so that CI logs and ``docs/errors.md`` stay readable:

* ``E1xx`` dice expression syntax,
* ``E2xx`` dice expression evaluation and limits,
* ``E3xx`` YAML loading,
* ``E4xx`` schema,
* ``E5xx`` ruleset semantics,
* ``E6xx`` inputs given to a check,
* ``E9xx`` command-line usage.
"""

from __future__ import annotations

from .records import Record, field, replace

from .codes import (E_DICE_SYNTAX, E_EVAL, E_EXPRESSION, E_INPUT, E_LIMIT, E_REQUEST, E_SCHEMA,
                    E_UNCLASSIFIED, E_USAGE, E_YAML_SYNTAX)
from .echo import echo, window
from .limits import MAX_MESSAGE_CHARS


def _one_line(text: str) -> str:
    """A message or hint as it is echoed: one line, printable, cut to MAX_MESSAGE_CHARS."""
    return echo(text.replace("\r\n", "\n").replace("\r", "\\r").replace("\n", "\\n"), MAX_MESSAGE_CHARS)


Field = tuple[str | int, ...]
"""A field of the arguments of a call (a check's or a procedure's ``roll``/``odds``, a request
to the service, which has the same fields): ``("inputs", "skill")``, ``("parties", 1, "skill")``
(the second party: parties count from 0 here, as in a list), ``("parties",)``, ``("given",)``."""


class Location(Record):
    """Where a problem is: a file (or ``<expr>``), 1-based line and column, a JSON pointer
    into the file; or, for a problem with what a call was given, the :data:`Field` of its
    arguments (``field``), which each front end names its own way (the command line as
    ``party2.skill``, the service as the JSON pointer ``/parties/1/skill`` of its request).

    ``length`` is how many characters the caret should underline; ``source_line`` is the
    text of the offending line, kept so a message can be rendered without re-reading files.
    """

    path: str | None = None
    line: int | None = None
    column: int | None = None
    pointer: str | None = None
    length: int = 1
    source_line: str | None = None
    field: Field | None = None

    def prefix(self) -> str:
        """``path:line:col`` (as much of it as is known), the way compilers print it."""
        parts = [echo(self.path) if self.path else "<expr>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)

    def caret(self) -> str | None:
        """The source line and a caret line under the problem, or None if unknown."""
        if self.source_line is None or self.column is None:
            return None
        # Cut to MAX_ECHO_CHARS around the column and made printable, so a 900 KB line or
        # an escape sequence in the file is not sent to the terminal as it is.
        line, column, length = window(self.source_line.rstrip("\n"), self.column, self.length)
        # Tabs keep their width so the caret lines up under them.
        pad = "".join("\t" if ch == "\t" else " " for ch in line[: column - 1])
        return f"{line}\n{pad}{'^' * max(1, length)}"


class Diagnostic(Record):
    """A finding with a severity, as printed by ``rulesengine validate``.

    ``limit`` names the field of ``Limits`` that an ``E210`` finding hit (as ``LimitError.limit``
    does), so that a front end reading the JSON knows which limit it was without parsing
    the message."""

    code: str
    message: str
    location: Location = field(default_factory=Location)
    hint: str | None = None
    severity: str = "error"  # "error" or "warning"
    limit: str | None = None

    def __post_init__(self) -> None:
        # Messages and hints are one line each, whatever text they quote.
        object.__setattr__(self, "message", _one_line(self.message))
        if self.hint is not None:
            object.__setattr__(self, "hint", _one_line(self.hint))

    def to_dict(self) -> dict:
        loc = self.location
        return {
            "path": loc.path,
            "line": loc.line,
            "column": loc.column,
            "pointer": loc.pointer,
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "hint": self.hint,
            "limit": self.limit,
        }

    def render(self) -> str:
        """``path:line:col: error[E123]: message``, then the caret block and the hint."""
        out = [f"{self.location.prefix()}: {self.severity}[{self.code}]: {self.message}"]
        caret = self.location.caret()
        if caret:
            out.append(caret)
        if self.hint:
            out.append(f"hint: {self.hint}")
        return "\n".join(out)


class PartiesExample(Record):
    """A hint that shows what to give, as data: ``lead`` words, then parties, each as the names
    of the inputs it is given. Each front end writes the parties its own way: Python's
    ``parties=[{"skill": ...}, {"skill": ...}]`` (:meth:`text`, an error's ``hint`` as the
    library raises it), the command line's ``party1.skill=... party2.skill=...``, the
    service's ``"parties": [{"skill": …}, {"skill": …}]``."""

    lead: str
    parties: tuple[tuple[str, ...], ...]

    def text(self) -> str:
        """The hint in Python's words (the library's own)."""
        shown = ", ".join("{" + ", ".join(f'"{n}": ...' for n in names) + "}" for names in self.parties)
        return f"{self.lead} parties=[{shown}]"


class RulesEngineError(Exception):
    """Base of every error the engine raises on bad input."""

    code = E_UNCLASSIFIED  # never raised as such: each subclass has its default code from codes.CODES

    def __init__(
        self,
        message: str,
        location: Location | None = None,
        hint: str | None = None,
        code: str | None = None,
        *,
        limit: str | None = None,
        field: Field | None = None,
        example: PartiesExample | None = None,
    ) -> None:
        message = _one_line(message)
        super().__init__(message)
        self.message = message
        self.location = location or Location()
        if field is not None:
            self.location = replace(self.location, field=field)
        if hint is None and example is not None:
            hint = example.text()
        self.hint = _one_line(hint) if hint is not None else None
        # What the hint shows to give, as data, for a front end to write in its own words
        # (see PartiesExample); None where the hint is words only.
        self.example = example
        if code is not None:
            self.code = code
        # The field of ``Limits`` this error hit, or None. Set here, not patched on later,
        # so that a file error reporting a limit (a LoadError, say) carries it like a LimitError.
        self.limit = limit
        # What was worked out before it, for a front end to show beside it (a sweep's rows
        # finished before the value that failed: ``run.sweep.Sweep``); None for most errors.
        self.partial: object | None = None

    @property
    def field(self) -> Field | None:
        """The field of the call's arguments this error is about (``location.field``), or None."""
        return self.location.field

    def diagnostic(self) -> Diagnostic:
        return Diagnostic(self.code, self.message, self.location, self.hint, "error", self.limit)

    def render(self) -> str:
        return self.diagnostic().render()

    def one_line(self) -> str:
        """The message on one line, with the column when known (for chat bots and logs)."""
        text = self.message
        if self.location.column is not None and " column " not in text:
            text += f" at column {self.location.column}"
        if self.hint:
            text += f"; {self.hint}"
        return text

    def __str__(self) -> str:
        return self.one_line()


class DiceSyntaxError(RulesEngineError):
    """A dice expression that does not parse."""

    code = E_DICE_SYNTAX


class DiceEvalError(RulesEngineError):
    """A dice expression that parses but cannot be evaluated (type error, 1/0, d0...)."""

    code = E_EVAL


class LimitError(RulesEngineError):
    """A documented limit was hit; the message names the limit (see docs/limits.md)."""

    code = E_LIMIT
    limit: str

    def __init__(self, message: str, limit: str, location: Location | None = None,
                 hint: str | None = None, code: str | None = None) -> None:
        super().__init__(message, location, hint, code, limit=limit)


class LoadError(RulesEngineError):
    """A ruleset file that cannot be read safely as YAML."""

    code = E_YAML_SYNTAX


class SchemaError(RulesEngineError):
    """A ruleset that does not match the JSON Schema."""

    code = E_SCHEMA


class RulesetError(RulesEngineError):
    """A ruleset that is well formed but means something impossible."""

    code = E_EXPRESSION


class InputError(RulesEngineError):
    """Inputs given to a check that are unknown, missing, out of range or mistyped."""

    code = E_INPUT


class RequestError(RulesEngineError):
    """A request to the service that is not well formed, names nothing that exists, or is
    too large (``rulesengine serve``): the client's mistake, never the engine's."""

    code = E_REQUEST


class UsageError(RulesEngineError):
    """A command-line usage error (exit status 2)."""

    code = E_USAGE


def out_of_memory(what: str = "this") -> LimitError:
    """The refusal a ``MemoryError`` becomes where the command line and the service meet it:
    a backstop, never a traceback or an "internal error". The work budget charges what a
    computation holds (``dice.dist.held_cost``), so within the default ``max_states`` memory
    stays in the low hundreds of megabytes; a budget raised 50-fold (``--max-states``) allows
    more than a small machine may have, and then this is what the user sees (issue 34)."""
    return LimitError(f"ran out of memory working {what} out: the work budget allowed more than "
                      "this machine could hold", "max_states",
                      hint="lower --max-states (max_states), or use fewer dice")
