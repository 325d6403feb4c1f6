"""What a check's runner remembers between rolls: rolling a check again costs its dice, not
its rules. A check is a pure function of its inputs and its roll values, so the coerced
inputs and the values known before the roll are remembered per set of given inputs, and
the resolution per set of roll values under them; each table is bounded."""

from __future__ import annotations

from typing import Any, NamedTuple
from collections.abc import Callable, Iterable, Mapping

from ..dice.trace import format_value
from .resolver import PreRoll, Resolver
from .json_parts import jsonable
from .results import Choice, Resolution

PREPARED_INPUTS = 256  # sets of inputs whose coerced values and PreRoll are remembered
RESOLVED_PER_INPUTS = 4096  # resolutions remembered per set of inputs (RollMemo.resolve_known)
RESOLVED_IN_ALL = 8192  # ... and by one check in all: a few MB at most, however it is used


class Remembered(NamedTuple):
    """The sizes of a runner's memo: sets of inputs, and resolutions (most for one set, in all)."""

    inputs: int
    most_resolved_per_inputs: int
    resolved: int


class RollMemo:
    """The memo of one check: ``coerce`` checks given inputs, ``resolver`` is the check's."""

    def __init__(self, resolver: Resolver, coerce: Callable[[Mapping[str, Any] | None], dict[str, Any]]) -> None:
        self.resolver = resolver
        self.coerce = coerce
        self._prepared: dict[tuple, tuple[dict[str, Any], PreRoll]] = {}
        self._resolved_in_all = 0
        self._chosen_lines: dict[int, tuple[Choice, str]] = {}

    def prepare(self, given: Mapping[str, Any] | None) -> tuple[dict[str, Any], PreRoll]:
        """Coerced inputs and what is settled before the roll, remembered per set of given
        inputs: a front end rolls the same character's check again and again, and nothing
        before the dice depends on anything but the inputs. Each call gets its own copy of
        the inputs (results hand them out); the PreRoll is shared and never changed."""
        try:
            # Types are part of the key: 1, 1.0 and True are equal keys but not equal inputs.
            key = (tuple(given.items()), tuple(map(type, given.values()))) if given else ()
            entry = self._prepared.get(key)
        except TypeError:  # an unhashable value: nothing to remember it by
            values = self.coerce(given)
            return values, self.resolver.before_roll(values)
        if entry is None:
            values = self.coerce(given)
            entry = (values, self.resolver.before_roll(values)._replace(resolved={}))
            if len(self._prepared) >= PREPARED_INPUTS:
                self._prepared.clear()
                self._resolved_in_all = 0
            self._prepared[key] = entry
        return dict(entry[0]), entry[1]

    def remembered(self) -> Remembered:
        """How much is remembered now (see :meth:`prepare`): a long-lived front end or
        service can watch it, and the bounds above are tested through it."""
        sizes = [len(pre.resolved or ()) for _values, pre in self._prepared.values()]
        return Remembered(len(sizes), max(sizes, default=0), sum(sizes))

    def resolve_known(self, pre: PreRoll, rolls: dict[str, Any], choose: Iterable[int] | None) -> Resolution:
        """``resolve`` under a known PreRoll. The resolver is a pure function of the values
        before the roll and the roll values, so a PreRoll that remembers (``resolved``) hands
        out the resolution it already worked out for the same dice. (The runner's ``finish``
        copies the dicts a Resolution carries into the result, so no caller can change what
        is remembered.)"""
        resolve = self.resolver.resolve
        memo = pre.resolved
        if memo is None:
            return resolve({**pre.env, **rolls}, choose)
        choice = tuple(choose) if choose is not None else None
        key = (tuple(rolls.values()), choice)
        try:
            res = memo.get(key)
        except TypeError:  # a choice that is not a list of faces: resolve says what is wrong
            return resolve({**pre.env, **rolls}, choice)
        if res is None:
            res = resolve({**pre.env, **rolls}, choice)
            if len(memo) < RESOLVED_PER_INPUTS and self._resolved_in_all < RESOLVED_IN_ALL:
                memo[key] = res
                self._resolved_in_all += 1
        return res

    def chosen_text(self, chosen: Choice) -> str:
        """The trace line of the dice chosen, made once for each remembered choice (a check
        rolled again with the same faces chooses the same Choice object)."""
        seen = self._chosen_lines.get(id(chosen))
        if seen is not None and seen[0] is chosen:
            return seen[1]
        text = _chosen_line(chosen)
        if len(self._chosen_lines) >= RESOLVED_IN_ALL:
            self._chosen_lines.clear()
        self._chosen_lines[id(chosen)] = (chosen, text)  # holds the choice: its id stays its own
        return text


def _chosen_line(chosen: Choice) -> str:
    return (f"chosen: {chosen.dice_text(', ')} → "
            + ", ".join(f"{k} {format_value(jsonable(v))}" for k, v in chosen.values.items()))
