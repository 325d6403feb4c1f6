"""Every public name imports (issue 36, item 5): front ends write ``rulesengine.CheckResult``
or ``from rulesengine import *``; a lazy name that points at a module that moved must fail
here, not in their programs."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGES = ["rulesengine", "rulesengine.dice", "rulesengine.ruleset"]


def public(module_name: str) -> list[tuple[str, str]]:
    module = importlib.import_module(module_name)
    return [(module_name, name) for name in getattr(module, "__all__", [])]


@pytest.mark.parametrize("module_name,name", [pair for m in PACKAGES for pair in public(m)])
def test_every_name_in_all_imports(module_name, name):
    assert getattr(importlib.import_module(module_name), name) is not None


@pytest.mark.parametrize("module_name", PACKAGES)
def test_import_star_works_in_a_fresh_process(module_name):
    done = subprocess.run([sys.executable, "-c", f"from {module_name} import *"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_result_classes_are_the_ones_checks_return():
    import rulesengine

    check = rulesengine.load("gurps-4e").check("success_roll")
    assert isinstance(check.roll({"skill": 12}, seed=1), rulesengine.CheckResult)
    assert isinstance(check.odds({"skill": 12}), rulesengine.CheckOdds)


def test_rulesengine_validate_can_be_called_again_after_the_module_of_the_same_name_is_imported():
    """``rulesengine.validate`` is a function and a module: importing the module (as the first
    call does) replaced the function on the package, so a second call raised TypeError."""
    import rulesengine
    import rulesengine.validate  # noqa: F401  the module, as `from rulesengine.validate import …` imports it

    shipped = Path(__file__).resolve().parent.parent / "rulesets" / "gurps-4e.yaml"
    first = rulesengine.validate(str(shipped))
    second = rulesengine.validate(str(shipped))
    assert [r.errors for r in first] == [r.errors for r in second] == [0]
