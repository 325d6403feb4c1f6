"""Every built-in function is declared once, in rulesengine/dice/builtins.py (issue 31, part 1):
its implementation, its arity, its signature over the kinds the type checker interprets, and
what it reads of a roll's dice. Nothing else in the package keeps its own list of built-in
names, and the docs list exactly the declared ones."""

from __future__ import annotations

import ast as pyast
import inspect
import re
from pathlib import Path

import pytest

from rulesengine.dice.builtins import (ANY, ARGUMENT_KINDS, BRANCHES, BUILTINS, DICE, FUNCTIONS, NUMBER, POOL,
                                       READERS, READS, RESULT_KINDS, ROLL, TEXT, YES_NO)
from rulesengine.rules.types import ARGUMENTS
from rulesengine.validate import validate_file

ROOT = Path(__file__).resolve().parent.parent.parent
PACKAGE = ROOT / "rulesengine"
NAMES = frozenset(BUILTINS)


# ---- the declaration ------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(NAMES))
def test_every_builtin_has_an_implementation_taking_its_arity(name):
    b = BUILTINS[name]
    assert callable(b.implementation)
    assert FUNCTIONS[name] == (b.implementation, b.fewest, b.most)
    assert 1 <= b.fewest <= len(b.args)
    assert (b.most is None) == (b.rest is not None)
    # The implementation's own Python signature takes the fewest and the most arguments
    # declared (a rest argument: several more); where it has no rest argument of its own
    # (``*args``), not one fewer and not one more (the evaluator checks the declared arity).
    params = inspect.signature(b.implementation)
    most = b.most if b.most is not None else b.fewest + 3
    for n in range(b.fewest, most + 1):
        params.bind(*range(n))
    if not any(p.kind is p.VAR_POSITIONAL for p in params.parameters.values()):
        with pytest.raises(TypeError):
            params.bind(*range(b.fewest - 1))
        with pytest.raises(TypeError):
            params.bind(*range(b.most + 1))


@pytest.mark.parametrize("name", sorted(NAMES))
def test_every_signature_is_over_kinds_the_type_checker_interprets(name):
    b = BUILTINS[name]
    for kind in b.args + ((b.rest,) if b.rest is not None else ()):
        assert kind in ARGUMENT_KINDS
        assert kind == ANY or kind in ARGUMENTS, f"rules/types.py does not interpret the argument kind {kind!r}"
    assert b.result in RESULT_KINDS
    assert (b.result == BRANCHES) == (name == "if")  # the marker types.py reads as if()'s rule


@pytest.mark.parametrize("name", sorted(NAMES))
def test_a_function_that_reads_dice_takes_them_first(name):
    b = BUILTINS[name]
    assert b.reads is None or b.reads in READS
    assert (b.reads is not None) == (name in READERS)
    if b.reads is not None:
        assert b.args[0] == DICE


# ---- the type checker reads the signatures -------------------------------------------------

HEAD = """ruleset: t
name: T
version: "1"
source: tests
checks:
  c:
    inputs:
      skill: {type: integer, min: 1, max: 20}
      braced: {type: boolean, default: false}
      pool: {type: dice_pool, default: d8/d6}
    roll: 3d6
    outcomes:
      - {name: hit, success: true, when: "%s"}
      - {name: miss, success: false}
"""

# A value of each kind, and one of another kind that an argument of that kind refuses.
FITS = {NUMBER: "skill", DICE: "roll", TEXT: "'hit'", YES_NO: "braced", POOL: "pool", ANY: "skill", ROLL: "roll"}
MISFITS = {NUMBER: ("braced", YES_NO), DICE: ("braced", YES_NO), TEXT: ("skill", NUMBER),
           YES_NO: ("skill", NUMBER), POOL: ("skill", NUMBER), ROLL: ("skill", NUMBER)}


def messages(tmp_path, when: str) -> list[str]:
    path = tmp_path / "t.yaml"
    path.write_text(HEAD % when, encoding="utf-8")
    return [d.message for d in validate_file(str(path)).diagnostics if d.severity == "error"]


def call(name: str, args: list[str]) -> str:
    return f"{name}({', '.join(args)})"


def good_args(name: str) -> list[str]:
    b = BUILTINS[name]
    return [FITS[k] for k in b.args]


@pytest.mark.parametrize("name, place", [(n, i) for n in sorted(NAMES - {"if"})
                                         for i, k in enumerate(BUILTINS[n].args) if k != ANY])
def test_an_argument_of_the_wrong_kind_is_refused_when_the_file_is_read(tmp_path, name, place):
    args = good_args(name)
    bad, bad_kind = MISFITS[BUILTINS[name].args[place]]
    args[place] = bad
    text = call(name, args)
    found = messages(tmp_path, f"{text} == {text}")
    assert any(m.startswith(f"{name}() needs ") and f"'{bad}' is {bad_kind}" in m for m in found), found


@pytest.mark.parametrize("name", sorted(NAMES - {"if"}))
def test_the_result_kind_is_what_the_type_checker_says_a_call_gives(tmp_path, name):
    text = call(name, good_args(name))
    found = [m for m in messages(tmp_path, text) if "must be yes/no" in m]
    if BUILTINS[name].result == YES_NO:
        assert found == []
    else:
        assert found == [f"the condition of outcome 'hit' must be yes/no, but '{text}' gives {BUILTINS[name].result}"]


def test_if_gives_the_kind_its_branches_share(tmp_path):
    assert messages(tmp_path, "if(braced, skill >= 3, roll <= 4)") == []
    assert messages(tmp_path, "if(braced, skill, roll)") == [
        "the condition of outcome 'hit' must be yes/no, but 'if(braced, skill, roll)' gives a number"]


# ---- no other list of built-in names --------------------------------------------------------

def listed_names(source: str) -> list[tuple[int, str]]:
    """Where ``source`` keeps its own list of built-in names: a dict, set, list or tuple
    literal holding three or more of them (fewer are words that happen to be names, a
    team's ``highest``/``lowest`` roller), or a node's ``.name`` compared with one."""
    out = []
    for node in pyast.walk(pyast.parse(source)):
        items: list[pyast.expr | None] = []
        if isinstance(node, pyast.Dict):
            items = list(node.keys)
        elif isinstance(node, (pyast.Set, pyast.List, pyast.Tuple)):
            items = list(node.elts)
        held = [i.value for i in items if isinstance(i, pyast.Constant) and i.value in NAMES]
        if len(held) >= 3:
            out.append((node.lineno, f"a literal of built-in names {held}"))
        if isinstance(node, pyast.Compare) and isinstance(node.left, pyast.Attribute) and node.left.attr == "name":
            for right in node.comparators:
                consts = right.elts if isinstance(right, (pyast.Tuple, pyast.Set, pyast.List)) else [right]
                named = [c.value for c in consts if isinstance(c, pyast.Constant) and c.value in NAMES]
                if named:
                    out.append((node.lineno, f"a name compared with built-in names {named}"))
    return sorted(out)


def test_the_scan_finds_the_lists_it_looks_for():
    source = '''
POOL_FUNCTIONS = frozenset({"count", "highest", "lowest"})
CALLS = {"min": 1, "max": 2, "abs": 3}
ok = node.name == "if" and len(node.args) == 3
div = n.args[0] if n.name in ("floor", "ceil", "round") else None
ROLLERS = ("highest", "lowest", "first")
'''
    assert [line for line, _ in listed_names(source)] == [2, 3, 4, 5, 5]


def test_no_other_module_keeps_a_list_of_builtin_names():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name in ("builtins.py", "_lalr.py"):  # the declaration; the generated parser
            continue
        for line, what in listed_names(path.read_text(encoding="utf-8")):
            found.append(f"{path.relative_to(ROOT)}:{line}: {what}")
    assert found == [], "declare built-ins in rulesengine/dice/builtins.py only:\n" + "\n".join(found)


# ---- the docs --------------------------------------------------------------------------------

def test_the_docs_list_exactly_the_declared_builtins():
    text = (ROOT / "docs" / "ruleset-language.md").read_text(encoding="utf-8")
    start = text.index("The language's functions, all of them")
    paragraph = text[start:text.index("\n\n", start)]
    listed = re.findall(r"`([a-z_]+)`", paragraph)
    assert sorted(listed) == sorted(NAMES)


@pytest.mark.parametrize("name", sorted(NAMES))
def test_every_builtin_is_shown_called_in_the_docs(name):
    docs = "".join((ROOT / "docs" / page).read_text(encoding="utf-8")
                   for page in ("dice-language.md", "ruleset-language.md"))
    assert re.search(rf"`[^`]*\b{name}\(", docs), f"no example of {name}() in the docs"
