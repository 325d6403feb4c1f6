"""Fixtures the tests of run/ share: counters of the work the exact driver does, counted
where it is done (never timed)."""

from __future__ import annotations

import pytest


def count_calls(monkeypatch, cls: type, name: str) -> list[int]:
    """A one-item list that counts the calls of ``cls.name`` from now on (the test's own)."""
    made = [0]
    original = getattr(cls, name)

    def counted(self, *args, **kwargs):
        made[0] += 1
        return original(self, *args, **kwargs)

    monkeypatch.setattr(cls, name, counted)
    return made


@pytest.fixture
def builds(monkeypatch):
    """Counts the roll distributions the check's exact driver builds."""
    from rulesengine.run.exact import ExactRolls

    return count_calls(monkeypatch, ExactRolls, "roll_dist")


@pytest.fixture
def resolved(monkeypatch):
    """Counts the joint values of rolls the one resolver resolves."""
    from rulesengine.run.resolver import Resolver

    return count_calls(monkeypatch, Resolver, "resolve")


@pytest.fixture
def lets_worked(monkeypatch):
    """Counts the lets the one resolver works out (resolving, and making groups of joint values)."""
    from rulesengine.run.resolver import Resolver

    return count_calls(monkeypatch, Resolver, "_let")
