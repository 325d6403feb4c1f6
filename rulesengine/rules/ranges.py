"""Overlapping rows of a ranges table (``min``/``max`` per row, either end open), found with
one sweep so that a large table loads in n log n, and the words a message uses for a range.
"""

from __future__ import annotations

from .model import RangeRow


def overlapping_ranges(rows: list[RangeRow]) -> list[tuple[int, int]]:
    """Pairs ``(i, j)``, ``i < j`` in file order, of overlapping ranges: each range that
    overlaps an earlier-starting one, paired with the one of those that reaches furthest.

    A sweep over the ranges sorted by their start, so a table of n rows costs n log n and
    n - 1 calls of :func:`ranges_overlap` (comparing every pair made a 4,000-row table take
    seconds to load). Every range that overlaps another is reported at least once."""
    def start(i: int) -> float:
        low = rows[i].low
        return float("-inf") if low is None else low

    found = []
    reach: int | None = None  # of the ranges swept so far, the one ending last
    for index in sorted(range(len(rows)), key=lambda i: (start(i), i)):
        row = rows[index]
        if row.low is not None and row.high is not None and row.low > row.high:
            continue  # an empty range (reported above) overlaps nothing
        if reach is not None and ranges_overlap(rows[reach], row):
            found.append((min(reach, index), max(reach, index)))
        if reach is None or _end(row) > _end(rows[reach]):
            reach = index
    return sorted(found, key=lambda pair: pair[1])


def _end(row: RangeRow) -> float:
    return float("inf") if row.high is None else row.high


def ranges_overlap(a: RangeRow, b: RangeRow) -> bool:
    shared = _shared(a, b)
    return shared.low is None or shared.high is None or shared.low <= shared.high


def _shared(a: RangeRow, b: RangeRow) -> RangeRow:
    """The keys both rows hold (empty where ``low`` > ``high``); None where an end is open."""
    lows = [x for x in (a.low, b.low) if x is not None]
    highs = [x for x in (a.high, b.high) if x is not None]
    return RangeRow(max(lows) if lows else None, min(highs) if highs else None, None)


def range_text(r: RangeRow) -> str:
    if r.low is None and r.high is None:
        return "every key"
    if r.low is None:
        return f"up to {r.high}"
    if r.high is None:
        return f"{r.low} and up"
    return f"{r.low}..{r.high}"


def overlap_hint(earlier: RangeRow, later: RangeRow) -> str:
    """How to part two overlapping ranges: the keys both hold, and the bound of the later row
    (in the file) that parts them. A row with no ``min`` starts at the lowest key, not where
    the row before it ends, as a table read down the page may suggest."""
    both = _shared(earlier, later)
    keys = range_text(both)
    said = (f"the key {both.low} falls" if both.low is not None and both.low == both.high else
            "every key falls" if keys == "every key" else f"the keys {keys} fall") + \
        " in both, and each key must fall in one range only"
    if earlier.high is not None and (later.high is None or later.high > earlier.high):
        start = earlier.high + 1
        if later.low is None:
            return f"{said}: give this row min: {start} (a row with no min starts at the lowest key)"
        return f"{said}: start this row at min: {start}"
    if earlier.low is not None and (later.low is None or later.low < earlier.low):
        return f"{said}: end this row at max: {earlier.low - 1}"
    return f"{said}: change one row's min or max"
