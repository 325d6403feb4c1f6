"""The engine names no game: every system is data (the issue's acceptance check)."""

from __future__ import annotations

import re
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "rulesengine"
GAMES = re.compile(r"rps|spycraft|gurps|mudd|cyberpunk|blades|forged in the dark|apocalypse|pbta|daggerheart|duality|cypher|dnd|wizards of the coast|pathfinder|paizo|fate core|fate-core|evil hat|cepheus|traveller|mothership|old-school|essentials|necrotic gnome", re.I)
RULESETS = ENGINE.parent / "rulesets"


def engine_lines_matching(pattern: re.Pattern) -> list[str]:
    """``file:line: text`` of every line of the engine's code and grammar that ``pattern`` finds."""
    return [f"{p.relative_to(ENGINE)}:{i}: {line.strip()}"
            for p in ENGINE.rglob("*") if p.is_file() and p.suffix in (".py", ".lark")
            for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if pattern.search(line)]


def test_no_game_system_is_named_in_the_engine():
    assert engine_lines_matching(GAMES) == []


def test_the_guard_knows_every_shipped_ruleset():
    """A new ruleset's game must be added to GAMES, or the engine could name it unseen."""
    assert [p.stem for p in sorted(RULESETS.glob("*.yaml")) if not GAMES.search(p.stem)] == []


# Words of particular games' rules that once stood in the engine's comments, docstrings and
# messages; the engine says it in general terms ("a difficulty table", "a degree of success",
# "a pool of mixed dice such as d8/d6", "a fixed result in place of a roll").
GAME_JARGON = re.compile(r"\bDN\b|\bSL\b|\btake (10|ten)\b|result_cap|success_tier|action dice|avrae"
                         r"|ranks 1.3 . cap|test type", re.I)


def test_no_game_jargon_in_the_engine_comments_docstrings_or_messages():
    assert engine_lines_matching(GAME_JARGON) == []
