"""Fixtures the tests of run/ share."""

from __future__ import annotations

import pytest


@pytest.fixture
def builds(monkeypatch):
    """Counts the roll distributions the check's exact driver builds."""
    from rulesengine.run.exact import ExactRolls

    made = [0]
    roll_dist = ExactRolls.roll_dist

    def counted(self, *args, **kwargs):
        made[0] += 1
        return roll_dist(self, *args, **kwargs)

    monkeypatch.setattr(ExactRolls, "roll_dist", counted)
    return made
