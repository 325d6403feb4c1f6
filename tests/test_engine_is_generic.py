"""The engine names no game: every system is data (the issue's acceptance check)."""

from __future__ import annotations

import re
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "rulesengine"
GAMES = re.compile(r"rps|spycraft|gurps|mudd|cyberpunk", re.I)


def test_no_game_system_is_named_in_the_engine():
    hits = [f"{p.relative_to(ENGINE)}:{i}: {line.strip()}"
            for p in ENGINE.rglob("*") if p.is_file() and p.suffix in (".py", ".lark")
            for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if GAMES.search(line)]
    assert hits == []
