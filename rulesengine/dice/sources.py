"""Where a roll's faces come from, and how many dice one evaluation may roll.

A dice source is a random generator (:class:`RandomSource`, reproducible from a seed) or
faces read off physical dice (:class:`FacesSource`); :func:`dice_source` turns a caller's
choice into one. :class:`DiceCounter` bounds the dice rolled in one evaluation by
``Limits.max_dice``. Both raise plain exceptions (:class:`FacesError`,
:class:`DiceLimitReached`) that the evaluator turns into located errors.
"""

from __future__ import annotations

import re
from typing import Any, Protocol
from collections.abc import Callable

from . import ast
from ..errors import InputError
from ..limits import Limits


class DiceSource(Protocol):
    """Where faces come from when rolling: a random generator or faces typed by a player."""

    def draw(self, die: ast.Die) -> int: ...

    def draw_many(self, die: ast.Die, n: int) -> list[int]: ...

    def draw_allowed(self, die: ast.Die, allowed: Callable[[int], bool]) -> int: ...


def _randbelow(rng, n: int) -> int:
    """A uniform integer in [0, n) from ``getrandbits`` only.

    ``getrandbits`` is fully specified for Mersenne Twister, so a seed gives the same
    faces on every machine and Python version (``randrange``'s algorithm is not a
    documented guarantee).
    """
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


class RandomSource:
    """Faces from an injected ``random.Random`` (or any object with ``getrandbits``)."""

    __slots__ = ("rng",)

    def __init__(self, rng) -> None:
        self.rng = rng

    def draw(self, die: ast.Die) -> int:
        if die.custom is None:
            # A Die has sides exactly when it has no custom faces; no check on the hot path.
            return 1 + _randbelow(self.rng, die.sides)  # type: ignore[arg-type]
        return die.custom[_randbelow(self.rng, len(die.custom))]

    def draw_many(self, die: ast.Die, n: int) -> list[int]:
        """n draws, the same as n calls of ``draw`` (the same bits in the same order),
        without a function call per die: pools of plain dice are the commonest roll."""
        sides = die.sides
        if die.custom is not None or sides is None:
            return [self.draw(die) for _ in range(n)]
        k = sides.bit_length()
        bits = self.rng.getrandbits
        faces = []
        for _ in range(n):
            r = bits(k)
            while r >= sides:
                r = bits(k)
            faces.append(r + 1)
        return faces

    def draw_allowed(self, die: ast.Die, allowed: Callable[[int], bool]) -> int:
        faces = [f for f in die.faces if allowed(f)]
        return faces[_randbelow(self.rng, len(faces))]


def dice_source(*, rng=None, seed: int | str | None = None, faces=None) -> RandomSource | FacesSource:
    """Where a roll's faces come from: physical dice typed in (``faces``), an injected
    ``rng``, or a ``seed`` (else fresh randomness). The one place every entry point — bare
    dice, checks and procedures — turns the caller's choice into a dice source."""
    if faces is not None:
        return FacesSource(faces)
    if rng is not None and seed is not None:
        raise InputError("give either rng or seed, not both")
    if rng is None:
        import random  # here: a command that rolls no dice need not import it (start-up)

        rng = random.Random(seed)
    return RandomSource(rng)


class FacesError(Exception):
    """Raised by FacesSource; the evaluator adds the position and the error code."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message)
        self.message, self.hint = message, hint


class FacesSource:
    """Faces read off physical dice, consumed in the order the roll needs them."""

    __slots__ = ("faces", "used")

    def __init__(self, faces) -> None:
        self.faces = list(faces)
        self.used = 0

    def draw(self, die: ast.Die) -> int:
        if self.used >= len(self.faces):
            raise FacesError(
                f"only {len(self.faces)} face{'s' if len(self.faces) != 1 else ''} given, "
                f"but the roll needs more (next: a {die.text})",
                "give one face per die, in the order the dice are read",
            )
        face = printed_face(die, self.faces[self.used])
        self.used += 1
        ok = isinstance(face, int) and not isinstance(face, bool) and (
            face in die.custom if die.custom is not None else 1 <= face <= (die.sides or 0))
        if not ok:
            raise FacesError(f"face {face!r} (number {self.used} given) cannot come up on a {die.text}",
                             f"a {die.text} shows {_face_range(die)}")
        return face

    def draw_many(self, die: ast.Die, n: int) -> list[int]:
        return [self.draw(die) for _ in range(n)]

    def draw_allowed(self, die: ast.Die, allowed: Callable[[int], bool]) -> int:
        face = self.draw(die)
        if not allowed(face):
            raise FacesError(f"face {face} (number {self.used} given) should have been rerolled",
                             "after the last reroll allowed, give a face that is kept")
        return face


FATE_FACES = (-1, 0, 1)
FATE_PRINTED = {"+": 1, "-": -1, "\u2212": -1, "blank": 0, "0": 0}
"""A Fate die's faces as printed: plus, minus (either dash), blank."""


def printed_face(die: ast.Die, face: Any) -> Any:
    """A face given as it is printed on a physical die, as the number it stands for: the
    0 of a d10 and the 00 (or 0) of a percentile die are their top face, 10 and 100, as
    most games read them (a die whose faces include 0, like ``d{0,1,2}``, keeps its 0);
    a Fate die's +, - and blank are 1, -1 and 0; a face with a label (``d{1:'hit'}``) is
    entered by its label too. A face given as text reads as its number otherwise.
    Anything else is returned as it is, for the caller to refuse."""
    if isinstance(face, str):
        token = face.strip().lower()
        for value, label in die.labels or ():  # a face entered by the label printed on it
            if label.lower() == token:
                return value
        if die.symbols is not None:  # a symbol face, its symbols in any order: f+t, t + f
            shown = sorted(w for w in re.split(r"[\s,+]+", token) if w)
            for place, symbols in enumerate(die.symbols, 1):
                if shown and sorted(x.lower() for x in symbols) == shown:
                    return place
        if die.custom == FATE_FACES and token in FATE_PRINTED:
            return FATE_PRINTED[token]
        if not (token.isascii() and token.lstrip("-").isdigit() and len(token) <= 20):
            return face
        face = int(token)
    if type(face) is int and face == 0 and die.custom is None and die.sides in (10, 100):
        return die.sides
    return face


def _face_range(die: ast.Die) -> str:
    if die.custom == FATE_FACES:
        return "-1, 0, 1 (or +, -, blank)"
    if die.custom is None:
        return f"1 to {die.sides}" + (" (0 reads as 10)" if die.sides == 10 else
                                      " (0 or 00 reads as 100)" if die.sides == 100 else "")
    return ", ".join(f"{f} ({die.label(f)})" if die.label(f) else str(f) for f in sorted(set(die.custom)))



class DiceCounter:
    """Counts dice rolled in one evaluation against ``Limits.max_dice``."""

    __slots__ = ("left",)

    def __init__(self, limits: Limits) -> None:
        self.left = limits.max_dice

    def spend(self, n: int) -> None:
        self.left -= n
        if self.left < 0:
            raise DiceLimitReached()


class DiceLimitReached(Exception):
    """Raised by DiceCounter; the evaluator adds the position and the limit's name."""
