"""The pre-commit hook (.pre-commit-hooks.yaml) works in someone else's repository: pre-commit
installs this checkout the way it installs any hook (a regular, non-editable install in its own
environment) and runs `rulesengine validate` on the rulesets it finds there; and the README's
pre-commit snippet, as pasted, does the same."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from readme_support import URL_PLACEHOLDER, precommit_rev, precommit_snippet

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


def test_the_readmes_precommit_snippet_as_pasted_passes_a_good_ruleset_and_fails_a_broken_one(tmp_path):
    """README.md's .pre-commit-config.yaml, word for word but for the repository's address (a
    clone of this checkout, so no network is needed to fetch the hook), under `pre-commit run
    --all-files` in a fresh repository: green with a valid ruleset, red once a broken one is added."""
    clone = tmp_path / "rulesengine"
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(ROOT), str(clone)], check=True,
                   capture_output=True, text=True)
    rev = precommit_rev()
    if subprocess.run(["git", "-C", str(clone), "cat-file", "-e", f"{rev}^{{commit}}"]).returncode != 0:
        shallow = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--is-shallow-repository"],
                                 capture_output=True, text=True).stdout.strip() == "true"
        if shallow:
            pytest.skip(f"a shallow checkout: the README's rev {rev} is not in it")
        pytest.fail(f"the README's pre-commit snippet pins rev {rev}, which this repository does not have")
    snippet = precommit_snippet()
    assert URL_PLACEHOLDER in snippet
    homebrew = tmp_path / "homebrew"
    (homebrew / "rulesets").mkdir(parents=True)
    (homebrew / ".pre-commit-config.yaml").write_text(snippet.replace(URL_PLACEHOLDER, str(clone)),
                                                      encoding="utf-8")
    good = (ROOT / "rulesets" / "rps.yaml").read_text(encoding="utf-8")
    (homebrew / "rulesets" / "good.yaml").write_text(good, encoding="utf-8")
    git(homebrew, "init", "-q")
    git(homebrew, "add", ".")
    env = dict(os.environ, PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"))

    def run_all() -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "pre_commit", "run", "--all-files", "--verbose"],
                              cwd=homebrew, env=env, capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)

    passed = run_all()
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "validate rulesengine rulesets" in passed.stdout and "Passed" in passed.stdout

    (homebrew / "rulesets" / "broken.yaml").write_text(good.replace("\nchecks:", "\nchekcs:", 1), encoding="utf-8")
    git(homebrew, "add", ".")
    failed = run_all()
    assert failed.returncode == 1, failed.stdout + failed.stderr
    broken_line = good[:good.index("\nchecks:")].count("\n") + 2
    assert f"rulesets/broken.yaml:{broken_line}:1: error[E402]" in failed.stdout
    assert "rulesets/good.yaml:" not in failed.stdout and "internal error" not in failed.stdout
