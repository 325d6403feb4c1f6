"""The stored LALR tables must describe the current grammar."""

from __future__ import annotations

from rulesengine.dice import _tables
from rulesengine.dice.parser import _grammar


def test_stored_parse_tables_match_the_grammar():
    # If this fails: run `python -m rulesengine.dice.parser` and commit _tables.py.
    assert _tables.GRAMMAR_SHA256 == _grammar()[1]
