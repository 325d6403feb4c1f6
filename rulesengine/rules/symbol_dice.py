"""The symbol dice a ruleset declares under ``dice:``: each die's faces, the symbols printed
on them, checked for size and form (the schema has checked their shape). Split from
:mod:`.build`, which resolves ``3d{ability}`` in expressions to these dice."""

from __future__ import annotations

from typing import Any

from ..codes import E_EXPRESSION
from ..dice import ast
from ..limits import Limits
from .context import BuildContext
from .scope import escape_pointer


def declared_dice(spec: Any, limits: Limits, b: BuildContext) -> tuple[dict[str, ast.Die], set[str]]:
    """The dice of the file's ``dice:`` by name, and the names of those declared with an
    error (each error reported to ``b`` once, here, not again where the die is rolled)."""
    dice: dict[str, ast.Die] = {}
    broken: set[str] = set()
    if not isinstance(spec, dict):
        return dice, broken
    most = limits.max_custom_faces
    for name, die in spec.items():
        pointer = f"/dice/{escape_pointer(name)}/faces"
        faces = die.get("faces") if isinstance(die, dict) else None
        broken.add(name)
        if not isinstance(faces, list) or not all(isinstance(f, list) for f in faces) or not faces:
            continue
        if len(faces) > most:
            b.error(E_EXPRESSION, f"die '{name}' has {len(faces)} faces, more than {most:,}", pointer,
                    f"give it at most {most:,} faces (max_custom_faces)")
            continue
        if sum(len(f) for f in faces) > most:
            b.error(E_EXPRESSION, f"die '{name}' shows {sum(len(f) for f in faces):,} symbols in all, more than "
                    f"{most:,}", pointer, "a die's faces together show at most as many symbols as a die may have faces")
            continue
        if any(symbol == "blank" for f in faces for symbol in f):
            b.error(E_EXPRESSION, f"die '{name}': 'blank' names a face with no symbols, not a symbol", pointer,
                    "write a blank face as []")
            continue
        dice[name] = ast.symbol_die(tuple(tuple(str(x) for x in f) for f in faces), f"d{{{name}}}", name)
        broken.discard(name)
    return dice, broken


def declared_symbols(spec: Any) -> set[str]:
    """Every symbol on a face declared under ``dice:``, a broken die's too (its error is said
    once, where it is declared, not again at each symbol counted)."""
    out: set[str] = set()
    for die in spec.values() if isinstance(spec, dict) else ():
        faces = die.get("faces") if isinstance(die, dict) else None
        for face in faces if isinstance(faces, list) else ():
            if isinstance(face, list):
                out.update(str(symbol) for symbol in face)
    return out
