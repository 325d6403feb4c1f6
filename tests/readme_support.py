"""The README's install recipes as text, for the tests that run or check them (tests/test_readme.py,
tests/cli/test_precommit_hook.py): the pre-commit snippet word for word, and the revision it and
the `pip install ... git+` lines pin."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
URL_PLACEHOLDER = "<repository URL>"


def readme() -> str:
    return (ROOT / "README.md").read_text(encoding="utf-8")


def precommit_snippet() -> str:
    """The ```yaml block of "Validating rulesets in CI" that holds a `repos:` list, as written."""
    section = readme().split("## Validating rulesets in CI", 1)[1].split("\n## ", 1)[0]
    blocks = [b for b in re.findall(r"```yaml\n(.*?)```", section, re.S) if b.startswith("repos:")]
    assert len(blocks) == 1, "the README should have one pre-commit snippet in 'Validating rulesets in CI'"
    return blocks[0]


def precommit_rev() -> str:
    return re.search(r"^\s*rev:\s*(\S+)", precommit_snippet(), re.M).group(1)


def git_install_revs() -> list[str]:
    """The revision of every `git+<repository URL>@REV` the README tells someone to install."""
    return re.findall(re.escape(f"git+{URL_PLACEHOLDER}@") + r"([^\"'\s`]+)", readme())
