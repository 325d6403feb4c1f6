"""Two rows of a ranges table that overlap (E505): the hint names the keys both hold and the
bound of the later row that parts them, each checked against the keys themselves."""

from __future__ import annotations

import pytest

from rulesengine.rules.model import RangeRow
from rulesengine.rules.ranges import overlap_hint, ranges_overlap

ANY = range(-5, 30)


def keys(row: RangeRow) -> set[int]:
    return {k for k in ANY if (row.low is None or k >= row.low) and (row.high is None or k <= row.high)}


@pytest.mark.parametrize("earlier, later, said", [
    (RangeRow(None, 6, 0), RangeRow(None, 7, 1), "the keys up to 6 fall in both"),  # read as "up to"
    (RangeRow(0, 3, 0), RangeRow(3, 6, 1), "the key 3 falls in both"),
    (RangeRow(5, None, 0), RangeRow(1, 8, 1), "the keys 5..8 fall in both"),  # the later row lower
    (RangeRow(10, 20, 0), RangeRow(None, 12, 1), "the keys 10..12 fall in both"),
])
def test_the_hint_names_the_keys_both_hold_and_a_bound_that_parts_the_rows(earlier, later, said):
    assert ranges_overlap(earlier, later)
    hint = overlap_hint(earlier, later)
    assert hint.startswith(said)
    bound = int(hint.split("max: " if "max: " in hint else "min: ")[1].split()[0])
    fixed = RangeRow(later.low, bound, None) if "max: " in hint else RangeRow(bound, later.high, None)
    assert not keys(earlier) & keys(fixed) and keys(fixed)  # parted, and the row still holds keys
    assert keys(earlier) | keys(fixed) == keys(earlier) | keys(later)  # no key lost


def test_a_row_inside_another_gets_no_bound_it_could_not_take():
    hint = overlap_hint(RangeRow(1, 10, 0), RangeRow(3, 5, 1))
    assert hint == "the keys 3..5 fall in both, and each key must fall in one range only: change one row's min or max"


def test_two_rows_open_at_both_ends_share_every_key():
    """Two rows with neither min nor max: every key is in both (it read "the key None")."""
    assert ranges_overlap(RangeRow(None, None, 0), RangeRow(None, None, 1))
    assert overlap_hint(RangeRow(None, None, 0), RangeRow(None, None, 1)).startswith("every key falls in both,")
