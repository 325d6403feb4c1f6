"""One value for what a roll of every kind of check and procedure produced, with one ``to_dict``.

Each kind rolls its own way (a check's resolver, a contest's rounds and roll-offs, an
extended check's rounds) and keeps what it rolled in a record of its own, whose fields are
its Python API. What people and programs are shown of it — the JSON of ``roll --json`` and
the service, the text of ``roll`` — is read from this one value, which every kind builds
with ``view()``, as the odds of every kind are read from their one
:class:`~rulesengine.run.odds_value.OddsValue`. So the JSON keys, their order and how each
value is written are decided here once, not in six ``to_dict``\\ s, and the text reads the
value, not each kind's attributes.

A value holds what was rolled as the rules read it (a roll as a ``Rolled``, a dice pool as a
``DicePool``); ``to_dict`` writes each as results' JSON carries it (:func:`jsonable`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..dice.pool import PoolRoll
from ..records import Record, field
from ..rules.model import RESULT_KEYS
from .json_parts import jsonable


class Choice(Record):
    """One way to choose dice from a roll (e.g. a pair of them), with the values it gives."""

    faces: tuple[int, ...]
    values: dict[str, Any]
    preferred: bool
    sides: tuple[int, ...] = ()  # each chosen die's size, for a pool of mixed dice
    symbols: tuple[tuple[str, ...], ...] = ()  # the symbols each chosen die shows, for symbol dice

    def dice_text(self, between: str) -> str:
        """The dice chosen as a roll's trace shows them, ``between`` each: their faces (``4+3``),
        with their sizes from a pool of mixed dice (``d10:4+d8:3``), or with the symbols they
        show, symbol dice by their symbols (``success+strife (6), blank (1)``: the number is
        what ``--choose`` takes)."""
        if self.symbols:
            return ", ".join(f"{'+'.join(on) or 'blank'} ({f})" for f, on in zip(self.faces, self.symbols, strict=True))
        if len(set(self.sides)) > 1:
            return between.join(f"d{s}:{f}" for f, s in zip(self.faces, self.sides, strict=True))
        return between.join(map(str, self.faces))

    def to_dict(self) -> dict:
        return {"faces": list(self.faces), "values": dict(self.values), "preferred": self.preferred} \
            | ({"sides": list(self.sides)} if self.sides else {}) \
            | ({"symbols": [list(on) for on in self.symbols]} if self.symbols else {})


class _NoResult:
    """The result of a roll that has none of its own (a contest: its winner's is ``winner_result``)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "NO_RESULT"


NO_RESULT: Any = _NoResult()

VALUES = "*values"  # where a check's reported values go among its JSON keys


class ResultValue(Record):
    """What one roll of a check or a procedure produced, as every front end shows it.

    ``kind``: ``"check"`` or the procedure's kind (``"contest"``, ``"team"``, …); ``names``:
    what was rolled, by JSON key (``(("check", "attack"),)``; a team's roll is of its check
    and of the procedure: both), the runnable's own name last. ``inputs``: the inputs it was
    rolled with where they are its own (a check's, an extended check's; a team's are its
    roller's: ``roller`` says whose); ``pools``: the dice rolled, by the roll they belong
    to; ``values``: a check's reported values; ``report``: the values reported when it
    ended (a check's are its ``values``); ``parties``, ``rounds``: what each party or
    round rolled, as values of their own (a round with the ``state`` after it); ``extra``:
    what only some procedure kinds give (a contest's ``winner``, an assisted check's
    ``leader`` and ``helpers``, a team's ``members``), by JSON key, placed by
    :data:`CHECK_ORDER` or :data:`PROCEDURE_ORDER`."""

    ruleset: str
    kind: str
    names: tuple[tuple[str, str], ...]
    trace: str
    outcome: str | None = None  # None: it has none (a contest)
    success: bool | None = None
    result: Any = NO_RESULT
    inputs: Mapping[str, Any] | None = None
    pools: tuple[tuple[str, PoolRoll], ...] | None = None
    rolls: Mapping[str, Any] | None = None
    tags: tuple[str, ...] | None = None
    values: Mapping[str, Any] = field(default_factory=dict)
    signed_result: str | None = None
    tier: str | None = None
    reason: str = ""
    secret: bool | None = None
    skipped: bool = False
    choices: tuple[Choice, ...] = ()
    chosen: Choice | None = None
    roller: int | None = None  # a team's: the member (from 1) who rolled
    parties: tuple[ResultValue, ...] | None = None
    rounds: tuple[ResultValue, ...] | None = None
    state: Mapping[str, Any] | None = None  # an extended check's round: the state after it
    report: Mapping[str, Any] = field(default_factory=dict)
    extra: tuple[tuple[str, Any], ...] = ()

    @property
    def name(self) -> str:
        """The name of the check or procedure that was rolled."""
        return self.names[-1][1]

    @property
    def is_procedure(self) -> bool:
        """Whether a procedure was rolled (its name is the procedure's), not a check."""
        return self.names[-1][0] == "procedure"

    def to_dict(self) -> dict[str, Any]:
        """The roll as JSON: a check's keys in :data:`CHECK_ORDER` (its reported values
        beside them, except one named like one of them: W504), a procedure's in
        :data:`PROCEDURE_ORDER`; a team's roll is its check's, with the procedure's keys."""
        parts: dict[str, Any] = {"ruleset": self.ruleset, **dict(self.names), "trace": self.trace,
                                 "report": _json(self.report)}
        if self.inputs is not None:
            parts["inputs"] = _json(self.inputs)
        if self.pools is not None:
            parts["dice"] = [dict(roll=name, term=p.text, **p.die_dict(d)) for name, p in self.pools for d in p.dice]
        if self.rolls is not None:
            parts["rolls"] = _json(self.rolls)
        if self.result is not NO_RESULT:
            parts["result"] = jsonable(self.result)
        if self.outcome is not None:
            parts["outcome"] = self.outcome
        if self.success is not None:
            parts["success"] = self.success
        parts.update(self._check_parts())
        if self.roller is not None:
            parts["roller"] = self.roller
        for key, nested in (("parties", self.parties), ("rounds", self.rounds)):
            if nested is not None:
                parts[key] = [v.to_dict() for v in nested]
        if self.state is not None:
            parts["state"] = self.state
        parts.update((k, _json(v)) for k, v in self.extra)
        return self._ordered(parts)

    def _check_parts(self) -> dict[str, Any]:
        """The keys only a rolled check has (a team's roll has them too)."""
        parts: dict[str, Any] = {}
        if self.tags is not None:
            parts["tags"] = list(self.tags)
        if self.signed_result is not None:
            parts["signed_result"] = self.signed_result
        if self.tier is not None:
            parts["tier"] = self.tier
        if self.reason:
            parts["reason"] = self.reason
        if self.secret is not None:
            parts["secret"] = self.secret
        if self.skipped:
            parts["skipped_roll"] = True
        if self.choices:
            parts["choices"] = [c.to_dict() for c in self.choices]
            parts["chosen"] = self.chosen.to_dict() if self.chosen else None
        return parts

    def _ordered(self, parts: dict[str, Any]) -> dict[str, Any]:
        """``parts`` in the order of this kind of roll; a check's reported values beside its
        own keys, where a value named like a key that follows them gives way to that key."""
        out: dict[str, Any] = {}
        for key in CHECK_ORDER if "check" in dict(self.names) else PROCEDURE_ORDER:
            if key == VALUES:
                out.update((k, jsonable(v)) for k, v in self.values.items() if k not in RESULT_KEYS)
            elif key in parts:
                out[key] = parts[key]
        return out


def _json(value: Any) -> Any:
    """A part of a roll as JSON: a roll's own value by its ``to_dict``, lists and mappings
    part by part, anything else as results' JSON carries it."""
    if isinstance(value, ResultValue):
        return value.to_dict()
    if isinstance(value, (list, tuple)):
        return [_json(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _json(v) for k, v in value.items()}
    return jsonable(value)


CHECK_ORDER = (
    "ruleset", "procedure", "roller", "check", "inputs", "dice", "rolls", "result", "outcome", "success", "tags",
    "trace", VALUES, "signed_result", "tier", "reason", "secret", "skipped_roll", "choices", "chosen", "report",
    "members", "state",
)
"""The order of the keys of a rolled check's JSON (a team's roll too: the procedure, its
roller and its members around its check's; an extended check's round: its state last)."""

PROCEDURE_ORDER = (
    "ruleset", "procedure", "inputs", "parties", "rerolls", "winner", "tie", "winner_result", "best", "tallies",
    "rounds", "outcome", "success", "result", "ruined", "bonus", "totals", "leader", "helpers", "report", "trace",
)
"""The order of the keys of every other procedure's roll JSON (each kind writes the ones it has)."""
