"""The modifiers of a dice term, checked: combinations whose meaning would be empty,
infinite or ambiguous are refused before anything is rolled.

Each rule is a small check of its own that yields what it refuses, a :class:`Refusal`
(message, span, hint), in the manner of jsonschema's validators; :func:`check_modifiers`
runs them (the symbol-dice check, then, once every number of the term is known, those of
:data:`CHECKS` in order), adds the location and code, and raises the first refusal.
A check runs only once those before it found nothing, and may rely on that (the face checks,
for instance, read the faces left after rerolls, which an earlier check made sure are some).

Split from :mod:`rulesengine.dice.parser`, which re-exports :func:`check_modifiers`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple

from ..codes import E_BAD_MODIFIER
from ..errors import DiceSyntaxError
from . import ast
from .syntax_errors import locate

__all__ = ["check_modifiers", "modifier_refusals", "Refusal", "CHECKS", "EXPLODE_KINDS"]

# An explosion's mark as written, and its kind (``ast.Explode.kind``).
EXPLODE_KINDS = {"!": "explode", "!!": "compound", "!p": "penetrate", "!o": "once"}


class Refusal(NamedTuple):
    """What one check refuses: a message, the span of the modifier at fault, a hint."""

    message: str
    span: ast.Span
    hint: str | None = None


def check_modifiers(die: ast.Die, modifiers: tuple, text: str) -> None:
    """Reject modifier combinations whose meaning would be empty, infinite or ambiguous.

    Called by the parser for every die it can see, and by the evaluator for ``d(expr)``
    dice once their number of sides is known.
    """
    for refusal in modifier_refusals(die, modifiers, text):
        raise DiceSyntaxError(refusal.message, locate(text, *refusal.span), refusal.hint, E_BAD_MODIFIER)


def modifier_refusals(die: ast.Die, modifiers: tuple, text: str) -> Iterator[Refusal]:
    """What the first check to find anything refuses of ``modifiers`` on ``die``, the
    checks taken in the order of :data:`CHECKS` (a check runs only once those before it found
    nothing: it may rely on them)."""
    if not die.declared:
        return  # d{ability}: checked when a ruleset gives its faces
    term = Term(die, modifiers, text)
    refused = list(_symbol_dice_keep_their_faces(term))
    if refused or term.pending:  # pending: checked when the numbers are known (ast.with_conditions)
        yield from refused
        return
    for check in CHECKS:
        refused = list(check(term))
        if refused:
            yield from refused
            return


class Reach(NamedTuple):
    """The values the dice can have where keeps by face and counts read them (after
    explosions and clamps): those listed, and with ``open_from`` every value from it up (a
    compounding die with no clamp above); ``after``, the modifiers that changed them."""

    values: list[int]
    open_from: int | None
    high: int | None  # the clamp from above, if any
    after: list

    def meets(self, cond: ast.Cond) -> bool:
        if any(cond(v) for v in self.values):
            return True
        return self.open_from is not None and meets_between(cond, self.open_from, self.high)


class Term:
    """A dice term's die and modifiers as the checks read them; what is derived from them
    is worked out once, when first read."""

    def __init__(self, die: ast.Die, modifiers: tuple, text: str) -> None:
        self.die = die
        self.modifiers = modifiers
        self.text = text
        self.explodes = [m for m in modifiers if isinstance(m, ast.Explode)]
        self.rerolls = [m for m in modifiers if isinstance(m, ast.Reroll)]
        self.clamps = [m for m in modifiers if isinstance(m, ast.Clamp)]
        self.ranked = [m for m in modifiers if isinstance(m, ast.RerollRank)]

    def written(self, m) -> str:
        """A modifier as written."""
        return self.text[m.span[0]:m.span[1]]

    @property
    def pending(self) -> bool:
        """Some condition or keep is an expression whose number is not known yet."""
        return any(isinstance(getattr(m, "cond", None), ast.CondExpr) or getattr(m, "expr", None) is not None
                   for m in self.modifiers)

    @functools.cached_property
    def faces(self) -> list[int] | None:
        """The die's distinct faces in order; None for a huge standard die (over 1,000
        sides), of which only the two ends are looked at."""
        small = self.die.custom is not None or (self.die.sides or 0) <= 1000
        return sorted(set(self.die.faces)) if small else None

    def every_face(self, conds: Sequence) -> bool:
        """Whether each face of the die meets one of ``conds``."""
        if self.faces is not None:
            return all(any(c(f) for c in conds) for f in self.faces)
        # A huge standard die: a condition covers every face only if it covers both ends
        # and is an interval (all conditions are intervals or single points).
        return any((c.op in (">=", "<=", ">", "<", "!=") or getattr(c, "high", None) is not None)
                   and c(1) and c(self.die.sides) for c in conds)

    @functools.cached_property
    def until(self) -> list[ast.Reroll]:
        """The rerolls until a face is kept (``r``), whose condition is known."""
        return [r for r in self.rerolls if not r.once and isinstance(r.cond, ast.Cond)]

    @functools.cached_property
    def shown(self) -> list[int]:
        """The faces a die can show after its rerolls until (not empty: checked before)."""
        conds = [r.cond for r in self.until if isinstance(r.cond, ast.Cond)]
        return [f for f in self.faces or () if not any(c(f) for c in conds)]

    @functools.cached_property
    def reach(self) -> Reach:
        lo = max((m.n for m in self.clamps if m.kind == "min"), default=None)
        hi = min((m.n for m in self.clamps if m.kind == "max"), default=None)

        def clamp(v: int) -> int:
            v = v if lo is None else max(v, lo)
            return v if hi is None else min(v, hi)

        shown = self.shown
        values = set(shown)
        kind = self.explodes[0].kind if self.explodes else None
        if kind == "penetrate":  # an added die is worth one less than its face
            values |= {f - 1 for f in shown}
        open_from: int | None = None
        if kind == "compound":  # a die's faces added up: any value from its lowest up (a superset)
            open_from = clamp(shown[0])
            if hi is not None and hi - open_from <= 10_000:  # clamped from above: those values
                values |= set(range(open_from, hi + 1))
                open_from = None
        after = self.until + self.clamps + self.explodes[:1] if kind in ("penetrate", "compound") \
            else self.until + self.clamps
        return Reach(sorted({clamp(v) for v in values}), open_from, hi, after)


def shown_text(values: list[int], open_from: int | None = None) -> str:
    """The values a die can show, in words: ``1 to 6``, ``2, 4, 6``, ``3 or more``."""
    if open_from is not None:
        return f"{min(values + [open_from])} or more"
    if len(values) > 2 and values[-1] - values[0] == len(values) - 1:
        return f"{values[0]} to {values[-1]}"
    return ", ".join(map(str, values[:8])) + (", …" if len(values) > 8 else "")


def meets_none(term: Term, m, mark: str, values: list[int], after: list, example: str, extra: str = "",
               open_from: int | None = None) -> Refusal:
    """The refusal of a condition that meets no value the die can have where it is read."""
    ordered = sorted(after, key=lambda a: a.span)
    changes = " after " + " and ".join(f"'{term.written(a)}'" for a in ordered) if after else ""
    hint = (f"write a condition one of them meets, e.g. {mark}{example}{extra}" if example
            else "it can show one face only: leave the explosion out")
    cond = getattr(m, "cond", None)
    known = f" ({cond.text()} here)" if "(" in term.written(m) and isinstance(cond, ast.Cond) else ""
    return Refusal(f"'{term.written(m)}'{known} meets no face of {term.die.text}{changes}: "
                   f"it can show {shown_text(values, open_from)}", m.span, hint)


def meets_between(cond: ast.Cond, a: int, b: int | None) -> bool:
    """Whether some whole number from ``a`` to ``b`` (None: no end) meets ``cond``."""
    if cond.high is not None:
        return cond.high >= a and (b is None or cond.value <= b)
    v, op = cond.value, cond.op
    if op in ("=", "=="):
        return a <= v and (b is None or v <= b)
    if op == "!=":
        return b is None or b > a or a != v
    if op in (">", ">="):
        return b is None or (b > v if op == ">" else b >= v)
    return a < v if op == "<" else a <= v


# ---- the checks, in the order they run ----------------------------------------------------


def _symbol_dice_keep_their_faces(term: Term) -> Iterator[Refusal]:
    """A symbol die's number is its face's place: nothing may add to it or clamp it."""
    if term.die.symbols is None:
        return
    for m in term.modifiers:
        if (isinstance(m, ast.Explode) and m.kind in ("compound", "penetrate")) or isinstance(m, ast.Clamp):
            yield Refusal(f"'{term.written(m)}' changes a die's number, and {term.die.text} shows symbols",
                          m.span, "a symbol die may reroll, explode with ! or !o, and keep; "
                          "count its symbols with symbols(roll, 'name')")


def _keeps_keep_dice(term: Term) -> Iterator[Refusal]:
    for m in term.modifiers:
        if isinstance(m, ast.Keep) and (m.n < 0 or (m.n < 1 and m.kind[0] == "k")):
            yield Refusal(f"'{m.kind}' with {m.n} {'keeps no dice' if m.n == 0 else 'dice is not a number of dice'}",
                          m.span, f"{'keep at least one die' if m.kind[0] == 'k' else 'drop 0 dice or more'}")


def _one_explosion(term: Term) -> Iterator[Refusal]:
    """Several conditions of one kind of explosion combine (``1d20!=10!=20`` explodes on 10
    and on 20, as rerolls and keeps combine theirs); two kinds on one die can't."""
    kinds = [m.kind for m in term.explodes]
    for m in term.explodes[1:]:
        if m.kind != kinds[0]:
            yield Refusal("a die can explode only one way", m.span,
                          "use one of !, !!, !p and !o; several conditions of one kind combine (1d20!=10!=20)")
            return


def _huge_dice_stop_exploding(term: Term) -> Iterator[Refusal]:
    """On a huge standard die, only what its two ends tell (the face checks cover the rest)."""
    if term.faces is not None:
        return
    for m in term.explodes:
        if term.every_face([m.cond or ast.Cond("=", term.die.highest)]):
            yield Refusal(f"'{term.written(m)}' explodes on every face of {term.die.text}, forever",
                          m.span, "explode on some faces only, e.g. !=6 or !>=5")


def _one_ranked_reroll(term: Term) -> Iterator[Refusal]:
    if len(term.ranked) > 1:
        yield Refusal("a term can reroll its lowest or highest dice once", term.ranked[1].span,
                      "write one rol or roh")


def _ranked_reroll_alone(term: Term) -> Iterator[Refusal]:
    explodes, rerolls = term.explodes, term.rerolls
    if term.ranked and (explodes or rerolls):
        other = (explodes or rerolls)[0]
        yield Refusal(f"'{term.ranked[0].text()}' with {'an explosion' if explodes else 'another reroll'}: "
                      "which dice are lowest would depend on the order", other.span,
                      "reroll the lowest dice of a plain throw, then count or keep")


def _one_kind_of_reroll(term: Term) -> Iterator[Refusal]:
    if term.rerolls and len({m.once for m in term.rerolls}) > 1:
        yield Refusal("mixing 'ro' (reroll once) and 'r' (reroll until)", term.rerolls[1].span,
                      "use one kind of reroll; several conditions of one kind combine")


def _rerolls_keep_a_face(term: Term) -> Iterator[Refusal]:
    rerolls = term.rerolls
    if rerolls and term.every_face([m.cond for m in rerolls if isinstance(m.cond, ast.Cond)]):
        yield Refusal(f"the rerolls match every face of {term.die.text}", rerolls[-1].span,
                      "leave at least one face that is kept")


def _clamps_leave_a_value(term: Term) -> Iterator[Refusal]:
    lows = [m.n for m in term.clamps if m.kind == "min"]
    highs = [m.n for m in term.clamps if m.kind == "max"]
    if lows and highs and max(lows) > min(highs):
        yield Refusal("'min' is above 'max'", term.clamps[-1].span, "the clamp range would be empty")


# One rule for conditions: each must meet a face the die can show where it is read
# (docs/dice-language.md, "Order of modifiers"). A reroll reads the faces rolled; an
# explosion the faces left after rerolls until (``d6r<=5!`` can only show 6s, so it explodes
# forever: refused like ``d1!``); a keep by face and a count read the dice's values after
# explosions and clamps (``4d6max3k=5`` keeps nothing). Only where the faces are listed.


def _rerolls_meet_a_face(term: Term) -> Iterator[Refusal]:
    faces = term.faces
    if faces is None:
        return
    for r in term.rerolls:
        if isinstance(r.cond, ast.Cond) and not any(r.cond(f) for f in faces):
            yield meets_none(term, r, "ro" if r.once else "r", faces, [], str(faces[0]))


def _explosions_meet_some_faces(term: Term) -> Iterator[Refusal]:
    """Each explosion meets some of the faces left after rerolls until, and all of them
    together not every one (``d6!<=3!>=4`` would explode forever)."""
    if term.faces is None:
        return
    conds = []
    for m in term.explodes:
        cond = m.cond or ast.Cond("=", term.die.highest)
        if isinstance(cond, ast.Cond):
            conds.append(cond)
            yield from _explosion_refusals(term, m, cond)
    if len(conds) > 1 and len(conds) == len(term.explodes) and all(any(c(f) for c in conds) for f in term.shown):
        last = term.explodes[-1]
        yield Refusal(f"'{''.join(term.written(m) for m in term.explodes)}' together explode on every face "
                      f"{term.die.text} can show, forever", last.span, "explode on some faces only, e.g. !=10!=20")


def _explosion_refusals(term: Term, m: ast.Explode, cond: ast.Cond) -> Iterator[Refusal]:
    faces, shown, until, written = term.faces or [], term.shown, term.until, term.written(m)
    mark = written[:2] if written[:2] in EXPLODE_KINDS else "!"
    hit = [f for f in shown if cond(f)]
    if len(hit) == len(shown) == len(faces):
        yield Refusal(f"'{written}' explodes on every face of {term.die.text}, forever", m.span,
                      "explode on some faces only, e.g. !=6 or !>=5")
    elif len(hit) == len(shown):
        rerolled = " and ".join(f"'{term.written(u)}'" for u in until)
        yield Refusal(f"'{written}' explodes on every face {term.die.text} can show after {rerolled} "
                      f"({shown_text(shown)}), forever", m.span,
                      "reroll fewer faces, or explode on some of the faces left only")
    elif not hit and written == "!0":  # the digit 0 typed for the letter o
        refusal = meets_none(term, m, mark, shown, until, "", "")
        on_face = f"; to explode on a face write one it can show, e.g. !={shown[-1]}" if len(shown) > 1 else ""
        yield refusal._replace(hint=f"to explode once write '!o', with the letter o: {term.die.text}!o{on_face}")
    elif not hit and len(shown) == 1:
        yield meets_none(term, m, mark, shown, until, "", "")
    elif not hit:
        extra = ""
        if m.cond is not None and m.cond.is_equality and "(" not in written:
            extra = "; for a comparison, put a space before it: '3d6 != 10'"
        yield meets_none(term, m, mark, shown, until, f"={shown[-1]}", extra)


def _face_keeps_meet_a_value(term: Term) -> Iterator[Refusal]:
    """A count no face meets is 0, a number with a meaning (a target past the die: no
    success), and files of 0.1.0 relied on it (``(n)d6cs>=(tn)`` at tn = 7): counts stay
    allowed; keeps by face that keep nothing are refused."""
    if term.faces is None:
        return
    reach = term.reach
    for m in term.modifiers:
        if isinstance(m, ast.KeepFace) and isinstance(m.cond, ast.Cond) and not reach.meets(m.cond):
            yield meets_none(term, m, "k" if m.keep else "p", reach.values, reach.after, f"={reach.values[-1]}",
                             open_from=reach.open_from)


def _face_keeps_keep_some(term: Term) -> Iterator[Refusal]:
    """Each keep meets a value, yet together they may keep none (``k>=5p5p6``): the term
    would always be 0, surely a slip."""
    face_keeps = [m for m in term.modifiers if isinstance(m, ast.KeepFace) and isinstance(m.cond, ast.Cond)]
    if term.faces is None or not face_keeps or term.reach.open_from is not None:
        return
    values = term.reach.values
    keeps = [k.cond for k in face_keeps if k.keep and isinstance(k.cond, ast.Cond)]
    drops = [k.cond for k in face_keeps if not k.keep and isinstance(k.cond, ast.Cond)]
    if not any((not keeps or any(c(v) for c in keeps)) and not any(c(v) for c in drops) for v in values):
        yield Refusal(f"'{term.written(face_keeps[-1])}' leaves no face of {term.die.text} kept",
                      face_keeps[-1].span, f"keep faces {term.die.text} can show, e.g. k>={values[-1]}")


CHECKS: tuple[Callable[[Term], Iterator[Refusal]], ...] = (
    _keeps_keep_dice,
    _one_explosion,
    _huge_dice_stop_exploding,
    _one_ranked_reroll,
    _ranked_reroll_alone,
    _one_kind_of_reroll,
    _rerolls_keep_a_face,
    _clamps_leave_a_value,
    _rerolls_meet_a_face,
    _explosions_meet_some_faces,
    _face_keeps_meet_a_value,
    _face_keeps_keep_some,
)
"""The checks of a term whose numbers are all known, in the order they run."""
