"""Every diagnostic code once: its constant, and a one-line meaning.

``docs/errors.md`` documents each code; a test keeps the two in step. Modules import the
constant they raise, never a bare string, so a code can't be spelled two ways."""

from __future__ import annotations

# ---- building a ruleset (E5xx, W5xx) -------------------------------------------------------
E_EXPRESSION = "E501"  # an expression that does not parse
E_UNKNOWN_NAME = "E502"  # a name that is not an input, a value, a roll or a table
E_UNKNOWN_REFERENCE = "E503"  # an outcome, table, check or roll that does not exist
E_DUPLICATE = "E504"  # two things with one name
E_BAD_TABLE = "E505"  # overlapping ranges, ragged grid rows
E_BAD_DEFAULT = "E506"  # a default outside its bounds, min above max
E_DICE_OUTSIDE_ROLL = "E507"  # dice written outside `roll`/`rolls`
E_GATE_AFTER_ROLL = "E508"  # a gate (or secret) that looks at the dice
E_BAD_CHOOSE = "E509"  # choose from something that is not a roll
E_PROCEDURE = "E510"  # a procedure that can't be built or run as written
W_UNREACHABLE = "W501"  # an outcome rule after a catch-all
W_NO_CATCH_ALL = "W502"  # outcome rules that may all fail to match
