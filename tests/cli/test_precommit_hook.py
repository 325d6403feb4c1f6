"""The pre-commit hook (.pre-commit-hooks.yaml) works in someone else's repository: pre-commit
installs this checkout the way it installs any hook (a regular, non-editable install in its own
environment) and runs `rulesengine validate` on the rulesets it finds there."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HANG_GUARD_SECONDS = 900  # building the hook's environment downloads and installs packages

pytestmark = pytest.mark.skipif(not (ROOT / ".git").exists() or shutil.which("git") is None,
                                reason="pre-commit try-repo needs this project as a git checkout")


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True)


def test_precommit_hook_passes_a_good_ruleset_and_fails_a_broken_one_at_its_position(tmp_path):
    homebrew = tmp_path / "homebrew"
    (homebrew / "rulesets").mkdir(parents=True)
    good = (ROOT / "rulesets" / "rps.yaml").read_text(encoding="utf-8")
    (homebrew / "rulesets" / "good.yaml").write_text(good, encoding="utf-8")
    (homebrew / "rulesets" / "broken.yaml").write_text(good.replace("\nchecks:", "\nchekcs:", 1),
                                                         encoding="utf-8")
    (homebrew / "notes.yaml").write_text("not: a ruleset\n", encoding="utf-8")  # outside rulesets/
    git(homebrew, "init", "-q")
    git(homebrew, "add", ".")
    env = dict(os.environ, PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"),
               GIT_AUTHOR_NAME="test", GIT_AUTHOR_EMAIL="test@localhost",
               GIT_COMMITTER_NAME="test", GIT_COMMITTER_EMAIL="test@localhost")

    def try_repo(*files: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), "rulesengine-validate",
                               "--verbose", *(["--files", *files] if files else ["--all-files"])],
                              cwd=homebrew, env=env, capture_output=True, text=True,
                              timeout=HANG_GUARD_SECONDS)

    passed = try_repo("rulesets/good.yaml")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "Passed" in passed.stdout and "internal error" not in passed.stdout

    failed = try_repo()
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "rulesets/broken.yaml:" in failed.stdout and "error[E402]" in failed.stdout
    broken_line = good[:good.index("\nchecks:")].count("\n") + 2
    assert f"rulesets/broken.yaml:{broken_line}:1: error[E402]" in failed.stdout
    assert "rulesets/good.yaml:" not in failed.stdout and "notes.yaml" not in failed.stdout
    assert "internal error" not in failed.stdout
