"""The README's quick start is what CI runs: keep the two in step; its install recipes name a
revision that exists (tests/cli/test_precommit_hook.py runs the pre-commit one)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from readme_support import git_install_revs, precommit_rev

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


# ---- the install recipes name a revision this repository has -------------------------------------


def commit_exists(rev: str) -> bool:
    done = subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", f"{rev}^{{commit}}"], capture_output=True)
    return done.returncode == 0


def test_every_git_recipe_pins_the_same_full_commit_sha_as_the_precommit_snippet():
    """No release tag exists yet: a tag such as v0.1.0 named in a recipe made it fail as pasted."""
    rev = precommit_rev()
    assert re.fullmatch(r"[0-9a-f]{40}", rev), f"rev: {rev} should be a full commit SHA until a release is tagged"
    revs = git_install_revs()
    assert len(revs) >= 2  # the pip line and the GitHub Actions step
    assert set(revs) == {rev}


@pytest.mark.skipif(not (ROOT / ".git").exists() or shutil.which("git") is None, reason="needs a git checkout")
def test_the_pinned_commit_is_in_this_repositorys_history_and_ships_the_hook():
    rev = precommit_rev()
    shallow = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--is-shallow-repository"],
                             capture_output=True, text=True).stdout.strip() == "true"
    if not commit_exists(rev) and shallow:
        pytest.skip(f"a shallow clone: cannot tell whether {rev} is in the history")
    assert commit_exists(rev), f"README pins {rev}, which this repository does not have"
    ancestor = subprocess.run(["git", "-C", str(ROOT), "merge-base", "--is-ancestor", rev, "HEAD"])
    assert ancestor.returncode == 0, f"README pins {rev}, which is not in the history of HEAD"
    hooks = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:.pre-commit-hooks.yaml"],
                           capture_output=True, text=True, check=True).stdout
    assert "- id: rulesengine-validate" in hooks
