"""The generated parser (lark's standalone tool) must be the one made from the current grammar."""

from __future__ import annotations

from rulesengine.dice.parser import stored_tables_match


def test_stored_parse_tables_match_the_grammar():
    # If this fails: run `python -m rulesengine.dice.parser` and commit rulesengine/dice/_lalr.py.
    assert stored_tables_match()
