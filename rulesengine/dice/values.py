"""The kinds of value an expression can have besides numbers and yes/no values.

* text — choice inputs and table labels (``'hard'``, ``"minor"``);
* :class:`Rolled` — a rolled dice term seen whole: its total and its kept dice, so rules
  can look at the faces ("double 1s", "a natural 3"); used as a number it is its total;
* :class:`DicePool` — dice still to be rolled, such as a ``d8/d6`` pool input; a check
  whose roll is a pool rolls each of its dice.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..records import Record, field, set_field as _set
from .ast import Cond, Die, KeepFace

from ..limits import MAX_POOL_DICE, MAX_POOL_SIDES



class Rolled(Record):
    # Its hash, worked out once, as it is made: exact odds key their tables by rolls (a
    # push's readings are looked up tens of thousands of times, each hashing every field),
    # and a roll rolled is hashed once anyway (the resolutions remembered by roll values).
    __record_slots__ = ("_hash",)

    total: int
    faces: tuple[int, ...]  # the kept dice's values (sorted, highest first, in exact odds)
    sides: tuple[int, ...] = ()  # each die's size, beside its face: a pool of mixed dice (d10/d8/d6)
    initial: tuple[int, ...] | None = None  # the dice of the first throw, where the rules read them
    symbols: tuple[tuple[str, int], ...] = ()  # symbol dice: how many of each symbol the kept dice show
    # Symbol dice: the symbols on each kept die, beside its face (``()`` for a die without
    # symbols), so dice picked from the roll (``choose``) show theirs; empty for a roll
    # with no symbol dice.
    shows: tuple[tuple[str, ...], ...] = ()

    def __init__(self, total: int, faces: tuple[int, ...], sides: tuple[int, ...] = (),
                 initial: tuple[int, ...] | None = None, symbols: tuple[tuple[str, int], ...] = (),
                 shows: tuple[tuple[str, ...], ...] = ()) -> None:
        # Written out, as records made by the thousand are (rulesengine/records.py).
        _set(self, "total", total)
        _set(self, "faces", faces)
        _set(self, "sides", sides)
        _set(self, "initial", initial)
        _set(self, "symbols", symbols)
        _set(self, "shows", shows)
        _set(self, "_hash", hash((total, faces, sides, initial, symbols, shows)))

    def __hash__(self) -> int:
        try:
            return self._hash  # type: ignore[attr-defined]
        except AttributeError:  # unset in a copy (made field by field)
            found = hash(self.__record_key__(self))  # type: ignore[attr-defined]
            _set(self, "_hash", found)
            return found

    def __str__(self) -> str:
        return str(self.total)

    def count_symbols(self, names: tuple[str, ...]) -> int:
        """How many of the symbols ``names`` the kept dice show, all told."""
        return sum(n for s, n in self.symbols if s in names)


def _tallied(pairs: Iterable[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    counts: dict[str, int] = {}
    for symbol, n in pairs:
        counts[symbol] = counts.get(symbol, 0) + n
    return tuple(sorted(counts.items()))


def symbols_shown(die: Die | None, values: Iterable[int]) -> tuple[tuple[str, int], ...]:
    """The symbols dice of ``die`` showing these values show, counted by name
    (``(('advantage', 1), ('success', 2))``); none for a die without symbols."""
    if die is None or die.symbols is None:
        return ()
    return _tallied((s, 1) for v in values for s in die.symbols_on(v))


def symbols_per_die(die: Die | None, values: Iterable[int]) -> tuple[tuple[str, ...], ...]:
    """The symbols on each of the dice of ``die`` showing these values, in their order;
    none for a die without symbols."""
    if die is None or die.symbols is None:
        return ()
    return tuple([die.symbols_on(v) for v in values])


def counted(shows: Iterable[tuple[str, ...]]) -> tuple[tuple[str, int], ...]:
    """The symbols on these dice (each die's symbols, as ``Rolled.shows`` has them), counted."""
    return _tallied((s, 1) for on in shows for s in on)


def merged_symbols(counts: Iterable[tuple[tuple[str, int], ...]]) -> tuple[tuple[str, int], ...]:
    """Several rolls' symbol counts, added up."""
    return _tallied(pair for c in counts for pair in c)


def symbols_text(counts: tuple[tuple[str, int], ...]) -> str:
    """The symbols a roll shows, for a trace: ``2 success, 1 advantage`` (``no symbols``)."""
    return ", ".join(f"{n} {s}" for s, n in counts) or "no symbols"


def joined(parts: list[Rolled]) -> Rolled:
    """Several rolls read as one (``2d{ability} + 1d{difficulty}``): every die of each, the
    totals added, the symbols counted together; the first throw where each part has one."""
    if any(p.shows for p in parts):  # each face with the symbols on its die, sorted together
        pairs = sorted(((f, on) for p in parts
                        for f, on in zip(p.faces, p.shows or ((),) * len(p.faces), strict=True)), reverse=True)
        faces, shows = tuple(f for f, _ in pairs), tuple(on for _, on in pairs)
    else:
        faces, shows = tuple(sorted((f for p in parts for f in p.faces), reverse=True)), ()
    firsts = [p.initial for p in parts]
    initial = (tuple(sorted((f for i in firsts for f in i), reverse=True))  # type: ignore[union-attr]
               if all(i is not None for i in firsts) else None)
    return Rolled(sum(p.total for p in parts), faces, initial=initial,
                  symbols=merged_symbols(p.symbols for p in parts), shows=shows)


_POOL_PART = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*$")
POOL_PATTERN = r"^\s*\d*\s*[dD]\s*\d+\s*([/+,]\s*\d*\s*[dD]\s*\d+\s*)*$"
"""The form of a dice pool's text as a regular expression (JSON Schema's dialect, for forms
and the export): dice such as ``d8`` or ``2d6`` joined by ``/``, ``+`` or ``,``. It says
only the form; :meth:`DicePool.parse` also bounds the number of dice and their sides."""


def in_play(keep_faces: tuple[Cond, ...], drop_faces: tuple[Cond, ...], value: int) -> bool:
    """Whether a die showing ``value`` stays after keeps and drops by face: it meets one of
    ``keep_faces`` (if there are any: ``k>=2``) and none of ``drop_faces`` (``p1``)."""
    if keep_faces and not any(c(value) for c in keep_faces):
        return False
    return not any(c(value) for c in drop_faces)


class DicePool(Record):
    """Dice of several sizes still to be rolled (``d8/d6/d6``), largest first; ``keep_faces``
    and ``drop_faces``: once rolled, only the dice passing them are kept (``(pool)k>=2``,
    ``(pool)p1``), as a dice term's ``k`` and ``p`` keep its dice."""

    sides: tuple[int, ...]  # one entry per die, e.g. (8, 4, 4)
    keep_faces: tuple[Cond, ...] = ()
    drop_faces: tuple[Cond, ...] = ()
    marks: str = ""  # the keeps by face as written (``p1``), for its text
    # Its text, written once (each roll of the pool names it): set from the fields, not given.
    written: str = field(default="", init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        dice = "/".join(f"d{s}" for s in self.sides)
        _set(self, "written", f"({dice}){self.marks}" if self.marks else dice)

    @staticmethod
    def parse(text: str, max_dice: int = MAX_POOL_DICE, max_sides: int = MAX_POOL_SIDES) -> DicePool:
        """``"d8/d6/d6"``, ``"d8 / 2d6"``, ``"d8+2d6"`` → DicePool((8, 6, 6)).

        Raises ValueError with a readable message."""
        sides: list[int] = []
        for part in re.split(r"[/+,]", text):
            if not part.strip():
                continue
            m = _POOL_PART.match(part)
            if not m:
                raise ValueError(f"{part.strip()!r} is not a die such as d8 or 2d4")
            if len(m.group(1)) > 6 or len(m.group(2)) > 7:
                raise ValueError(f"{part.strip()!r} is far too large (at most {max_dice} dice of {max_sides} sides)")
            n, s = int(m.group(1) or 1), int(m.group(2))
            if len(sides) + n > max_dice:
                raise ValueError(f"more than {max_dice} dice")
            if s < 1 or s > max_sides:
                raise ValueError(f"a d{s} is not allowed (1 to {max_sides} sides)")
            sides.extend([s] * n)
            if len(sides) > max_dice:
                raise ValueError(f"more than {max_dice} dice")
        if not sides:
            raise ValueError("no dice given")
        return DicePool(tuple(sorted(sides, reverse=True)))

    @property
    def by_face(self) -> bool:
        """Some of its dice may be set aside by their faces once rolled."""
        return bool(self.keep_faces or self.drop_faces)

    def in_play(self, value: int) -> bool:
        """A die showing ``value`` is kept once the pool is rolled."""
        return in_play(self.keep_faces, self.drop_faces, value)

    def kept_by_face(self, keeps: Iterable[KeepFace]) -> DicePool:
        """The pool with these keeps by face (their numbers known) added to its own, as on a
        dice term: ``((pool)k>=2)p6`` is ``(pool)k>=2p6``."""
        keep, drop, marks = list(self.keep_faces), list(self.drop_faces), self.marks
        for k in keeps:
            assert isinstance(k.cond, Cond), "a keep by face is read with its number written in"
            (keep if k.keep else drop).append(k.cond)
            marks += k.text()
        return DicePool(self.sides, tuple(keep), tuple(drop), marks)

    def text(self) -> str:
        return self.written

    def __str__(self) -> str:
        return self.text()
