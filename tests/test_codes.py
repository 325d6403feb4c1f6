"""Every diagnostic code comes from one table, ``rulesengine/codes.py``, and is raised by
the one error class that table names; ``docs/errors.md`` lists exactly those codes."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

from rulesengine import codes, errors
from rulesengine.codes import CODES

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "rulesengine"
CODE_LITERAL = re.compile(r"""["'][EW]\d{3}["']""")
TABLE_ROW = re.compile(r"^\|\s*([EW]\d{3})\s*\|", re.M)

ERROR_CLASSES = {name: cls for name, cls in vars(errors).items()
                 if inspect.isclass(cls) and issubclass(cls, errors.RulesEngineError)}
CODE_CONSTANTS = {name: value for name, value in vars(codes).items()
                  if re.fullmatch(r"[EW]_[A-Z_]+", name) and isinstance(value, str)}


def engine_modules() -> list[Path]:
    return sorted(p for p in ENGINE.rglob("*.py") if p.is_file())


def test_docs_error_table_lists_exactly_the_codes_of_the_table_each_once():
    documented = TABLE_ROW.findall((ROOT / "docs" / "errors.md").read_text(encoding="utf-8"))
    repeated = sorted({c for c in documented if documented.count(c) > 1})
    assert repeated == []
    assert sorted(documented) == sorted(CODES)


def test_every_code_constant_of_the_table_module_is_in_the_table():
    placeholders = {codes.E_UNCLASSIFIED}  # the base class's, never raised nor documented
    assert set(CODE_CONSTANTS.values()) - placeholders == set(CODES)


def test_each_code_is_raised_by_a_class_of_the_error_module_or_is_a_warning():
    for code, entry in CODES.items():
        assert entry.code == code
        if code.startswith("W"):
            assert entry.raised_as == "warning", code
        else:
            assert entry.raised_as in ERROR_CLASSES, code


def test_no_engine_module_but_the_code_table_spells_a_code_literal():
    hits = [f"{p.relative_to(ROOT)}:{i}: {line.strip()}"
            for p in engine_modules() if p.name != "codes.py" or p.parent != ENGINE
            for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
            if CODE_LITERAL.search(line)]
    assert hits == []


def _call_name(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _codes_passed(call: ast.Call) -> list[str]:
    """The code constants a call passes, by keyword ``code=`` or as a positional argument."""
    values = list(call.args) + [k.value for k in call.keywords if k.arg == "code"]
    return [CODE_CONSTANTS[v.id] for v in values if isinstance(v, ast.Name) and v.id in CODE_CONSTANTS]


def test_every_error_raised_with_a_code_is_of_the_class_the_table_names_for_it():
    calls = wrong = 0
    problems = []
    for path in engine_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or _call_name(node) not in ERROR_CLASSES:
                continue
            for code in _codes_passed(node):
                calls += 1
                if CODES[code].raised_as != _call_name(node):
                    wrong += 1
                    problems.append(f"{path.relative_to(ROOT)}:{node.lineno}: {_call_name(node)} raises {code}, "
                                    f"which the table gives to {CODES[code].raised_as}")
    assert problems == [] and wrong == 0
    assert calls > 20  # the walk did find the engine's error calls


def test_each_error_class_default_code_is_one_the_table_gives_that_class():
    for name, cls in ERROR_CLASSES.items():
        if cls is errors.RulesEngineError:
            assert cls.code not in CODES  # the base is never raised as such
            continue
        assert CODES[cls.code].raised_as == name, name


def test_an_error_that_hit_a_limit_carries_it_from_construction():
    err = errors.LoadError("too big", code=codes.E_FILE_TOO_LARGE, limit="max_file_bytes")
    assert err.limit == "max_file_bytes" and err.diagnostic().limit == "max_file_bytes"
    assert errors.LimitError("too many dice", "max_dice").diagnostic().limit == "max_dice"
    assert errors.DiceEvalError("1/0").limit is None
