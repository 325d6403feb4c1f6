"""The README's quick start is what CI runs: keep the two in step."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


VENV = "python3 -m venv .venv && . .venv/bin/activate && "


def quick_start_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    return [line for line in block.splitlines() if line.strip()]


def test_quick_start_is_exactly_two_commands():
    commands = quick_start_commands()
    assert len(commands) == 2
    assert commands[0].startswith(VENV + "pip install -e . && rulesengine ")
    assert commands[1] == VENV + 'pip install -e ".[test]" && pytest'


def test_quick_start_makes_its_virtualenv_where_git_and_pytest_ignore_it():
    """The system Python may refuse `pip install` (externally managed), so each line makes
    and activates .venv inside the clone; it must not be committed or collected as tests."""
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert ".venv/" in ignored
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'testpaths = ["tests"]' in pyproject


def test_ci_runs_the_readme_commands_word_for_word():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    first, second = quick_start_commands()
    assert first in ci.splitlines()
    assert any(line.startswith(second) for line in ci.splitlines())
