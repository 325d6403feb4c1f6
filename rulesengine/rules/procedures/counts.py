"""How many parties a procedure takes (``parties: {min, max}``, ``helpers: {min, max}``),
checked: a fewest above the most allows no call at all."""

from __future__ import annotations


from ...codes import E_PROCEDURE
from ..context import BuildContext


def party_counts(builder: BuildContext, name: str, spec: dict, key: str, ptr: str, fewest: int, most: int
                 ) -> tuple[int, int]:
    """``spec[key]``'s min and max (``fewest`` and ``most`` where left out); a min above the
    max is reported at the min."""
    given = spec.get(key) or {}
    lo, hi = given.get("min", fewest), given.get("max", most)
    if isinstance(lo, int) and isinstance(hi, int) and lo > hi:
        builder.error(E_PROCEDURE, f"'{name}' takes at least {lo} {key} and at most {hi}: no number of {key} "
                      f"fits, so it can never be rolled", f"{ptr}/{key}/min" if "min" in given else f"{ptr}/{key}/max",
                      f"make {key}' min at most its max ({key}: {{min: {min(lo, hi)}, max: {max(lo, hi)}}})")
    return lo, hi
