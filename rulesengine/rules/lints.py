"""Lints for files that read otherwise than they were written (issue 32): a file that loads
but means something other than its author meant, said at the place that means it.

- A spelling the file's dialect reads otherwise than this language (or drops): the notes
  of :mod:`rulesengine.dice.dialects` (W510, E530).
- A label after something that is not a dice term: ``roll[0] == roll[1]`` reads as
  ``roll == roll``, since ``[...]`` labels a term in traces and is no index (E532).
- ``max()`` or ``min()`` of one value, which gives that value: ``max(roll)`` is the roll's
  total, where its highest die (``highest(roll)``) was meant (W516).
- A symbol on one face of a declared die that nothing counts and no other face shows: a
  misspelling on the die, which makes that face count as a blank (W511).

The builder calls :func:`expression_lints` on each expression it reads and
:func:`symbol_lints` once, at the end (the number of a roll of symbol dice used as a
number, E531, is a kind of value: :mod:`.types`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..codes import W_LABEL_NOT_ON_DICE, W_ONE_VALUE_EXTREME, W_SYMBOL_NEVER_READ
from ..dice import ast
from ..dice.builtins import BUILTINS
from ..dice.parser import closest
from ..errors import Diagnostic
from .scope import escape_pointer

if TYPE_CHECKING:
    from ..dice.dialects import Translation


def expression_lints(builder: Any, value: Any, pointer: str, nodes: Sequence[ast.Node],
                     translation: Translation | None, at: Callable[[int], int]) -> None:
    """What ``builder`` reports of one expression as read (``nodes``, its tree as
    :func:`ast.walk` lists it): its dialect's notes, labels after anything but dice, and
    ``max()`` or ``min()`` of one value.
    ``at`` maps a position of the text parsed to the text written."""
    if not isinstance(value, str):
        return
    doc = builder.doc
    for note in translation.notes if translation is not None else ():
        builder.diagnostics.append(Diagnostic(note.code, note.message, doc.scalar_column(
            pointer, note.start, length=note.end - note.start), note.hint, note.severity))
    text = translation.native if translation is not None else value
    for node in nodes:
        if isinstance(node, ast.Labeled) and not _on_dice(node.inner):
            start = text.rfind("[", node.inner.span[1], node.span[1])
            start = node.inner.span[1] if start < 0 else start
            message, hint = _label_said(node, text)
            message += " (deprecated: a later release refuses it)"
            builder.diagnostics.append(Diagnostic(W_LABEL_NOT_ON_DICE, message, doc.scalar_column(
                pointer, at(start), length=max(1, node.span[1] - start)), hint, "warning"))
        elif isinstance(node, ast.Call) and len(node.args) == 1 and _extreme_of(node) is not None:
            message, hint = _one_value_said(node, text)
            builder.diagnostics.append(Diagnostic(W_ONE_VALUE_EXTREME, message, doc.scalar_column(
                pointer, at(node.span[0]), length=node.span[1] - node.span[0]), hint, "warning"))


def _on_dice(node: ast.Node) -> bool:
    """A labelled thing that is a dice term or a set of rolls (in parentheses or not)."""
    while isinstance(node, ast.Group):
        node = node.inner
    return isinstance(node, (ast.Dice, ast.SetKeep))


def _label_said(node: ast.Labeled, text: str) -> tuple[str, str]:
    inner = ast.bare(node.inner)
    written = text[node.inner.span[0]:node.inner.span[1]]
    if isinstance(inner, ast.Name):
        return (f"'{written}[{node.label}]' reads as '{written}': [{node.label}] after a name is a label for "
                "traces, not an index, and changes nothing",
                "labels go on dice terms (1d20[attack]); to read single dice of a roll use count(), highest() "
                "or lowest(), or roll each die under its own name (docs/cookbook.md, \"Doubles\")")
    return (f"the label '[{node.label}]' after '{written}' changes nothing: labels show dice terms in traces",
            f"put the label on a dice term (1d20[{node.label}]), or remove it")


def _extreme_of(node: ast.Call) -> bool | None:
    """Whether a call gives the highest (True) or the lowest (False) of its numbers, as
    dice/builtins.py declares ``max`` and ``min``; None for any other call."""
    builtin = BUILTINS.get(node.name)
    return builtin.highest if builtin is not None else None


def _one_value_said(node: ast.Call, text: str) -> tuple[str, str]:
    """``max(x)`` is ``x``: said with what was likely meant. Of dice or a name (a roll, whose
    value is its total), its highest die; of anything else, a bound beside it."""
    written = text[node.span[0]:node.span[1]]
    arg = text[node.args[0].span[0]:node.args[0].span[1]]
    die, bound = ("highest", "0") if _extreme_of(node) else ("lowest", "10")
    inner = ast.bare(node.args[0])
    said = f"'{written}' is '{arg}' itself: {node.name}() of one value is that value"
    if isinstance(inner, ast.Dice):
        return said + ", here the total of the dice", f"for their {die} die write {die}({arg})"
    if isinstance(inner, ast.Name):
        return (said + " (a roll's value is its total)",
                f"for a roll's {die} die write {die}({arg}); to compare it with a number write "
                f"{node.name}({arg}, {bound})")
    return said, f"give {node.name}() two or more values to compare, e.g. {node.name}({arg}, {bound}), or write {arg}"


def symbol_lints(builder: Any) -> None:
    """A symbol on one face of a declared die, which no ``symbols()`` call names and no other
    face of the file's dice shows: a misspelling on the die (that face then counts as blank)."""
    spec = builder.doc.data.get("dice") if isinstance(builder.doc.data, dict) else None
    if not isinstance(spec, dict):
        return
    counted = {symbol for symbol, _, _ in builder.symbols_named}
    faces: Counter[str] = Counter()
    places: dict[str, tuple[str, int, int]] = {}  # a symbol's first place: die, face, symbol
    for name, die in spec.items():
        if name in builder.broken_dice:
            continue
        for i, face in enumerate(die["faces"]):
            for j, symbol in enumerate(face):
                symbol = str(symbol)
                places.setdefault(symbol, (name, i, j))
            faces.update({str(symbol) for symbol in face})
    for symbol, (name, i, j) in places.items():
        if faces[symbol] != 1 or symbol in counted:
            continue
        near = closest(symbol, sorted(counted | (set(faces) - {symbol})))
        builder.diagnostics.append(Diagnostic(
            W_SYMBOL_NEVER_READ,
            f"the symbol '{symbol}' is on one face of die '{name}' only, and no symbols() call counts it: "
            "that face counts as a blank",
            builder.doc.location(f"/dice/{escape_pointer(name)}/faces/{i}/{j}"),
            f"did you mean '{near}'?" if near else f"count it with symbols(roll, '{symbol}'), or leave it off the die",
            "warning"))
