"""What the engine reads, and what of it an error may quote back (issue 19, items 5-7, 12).

* A shipped id is a word of the id form and is only ever looked up among the shipped
  rulesets; a path has a ``/`` or ends in ``.yaml``/``.yml``; anything else is neither.
* Only a regular file named ``*.yaml``/``*.yml`` is read: a FIFO, a device or a folder is
  refused from the open descriptor's type, before any read (so nothing blocks), and no
  other file is read at all, so no error can quote a line of ``/etc/passwd``.
* ``validate`` searches folders without following links, skips hidden folders and
  virtualenvs, and gives up after ``MAX_FOLDER_ENTRIES`` entries.
* Where the format expects a name, a YAML key must be text: ``16:`` is a positioned error.
* An input's default and bounds must be values of its type.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

import rulesengine
from rulesengine.cli import main
from rulesengine.errors import InputError, LoadError, RulesEngineError, UsageError
from rulesengine.ruleset import load, loads, resolve_path
from rulesengine.rules.document import E_UNREADABLE, load_file
from rulesengine.validate import expand, validate_file

from fuzz_support import case_time_limit

validate_module = sys.modules["rulesengine.validate"]  # rulesengine.validate is also a function

CHECK = """\
ruleset: probe
name: Probe
version: "1"
source: {title: probe}
checks:
  c:
    inputs:
INPUTS
    roll: 1d6
    result: roll
    outcomes:
      - {name: hit, success: true, when: result >= 4}
      - {name: miss, success: false}
"""


def ruleset_text(inputs: str) -> str:
    return CHECK.replace("INPUTS", inputs)


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


# ---- item 12: ids and paths --------------------------------------------------------------


@pytest.mark.parametrize("word", ["GURPS-4E", "a" * 300, "é", "rps\x1b[2J", "notes.txt", "-x"])
def test_a_word_that_is_neither_an_id_nor_a_path_is_refused_without_touching_the_disk(word, monkeypatch):
    def no_disk(*args, **kwargs):  # pragma: no cover - the assertion is that this never runs
        raise AssertionError("resolve_path touched the file system")

    monkeypatch.setattr(os, "open", no_disk)
    monkeypatch.setattr(Path, "is_file", no_disk)
    with pytest.raises(InputError) as info:
        resolve_path(word)
    assert "neither a shipped ruleset id nor a path" in info.value.message


def test_a_shipped_id_of_251_characters_is_an_input_error_not_an_os_error():
    with pytest.raises(InputError):
        load("a" * 251)


def test_a_shipped_id_lookup_never_becomes_a_path():
    assert resolve_path("rps").parent == rulesengine.ruleset.rulesets_dir()
    with pytest.raises(InputError) as info:
        resolve_path("gurps-4")
    assert info.value.message == "no shipped ruleset 'gurps-4'" and "gurps-4e" in info.value.hint


@pytest.mark.parametrize("path", ["/etc/passwd", "../../../../etc/passwd", "/proc/self/environ"])
def test_a_file_not_named_yaml_is_not_read_so_no_line_of_it_is_quoted(path, capsys):
    code, out, err = run(capsys, "roll", path, "x")
    assert code == 1
    assert "not a ruleset file" in err and "root:" not in err and "PATH=" not in err
    with pytest.raises(LoadError) as info:
        load(path)
    assert info.value.code == E_UNREADABLE and info.value.location.source_line is None


def test_a_file_with_another_suffix_is_not_read(tmp_path, monkeypatch):
    secret = tmp_path / "secrets.env"
    secret.write_text("TOKEN=hunter2\n")
    opened = []
    real_open = os.open
    monkeypatch.setattr(os, "open", lambda *a, **k: opened.append(a[0]) or real_open(*a, **k))
    report = validate_file(str(secret))
    assert [d.code for d in report.diagnostics] == [E_UNREADABLE]
    assert "hunter2" not in report.diagnostics[0].render()
    assert opened == []


# ---- items 6 and 7: links, pipes and folders ----------------------------------------------


def test_a_loop_of_symbolic_links_is_a_load_error(tmp_path, capsys):
    (tmp_path / "a.yaml").symlink_to(tmp_path / "b.yaml")
    (tmp_path / "b.yaml").symlink_to(tmp_path / "a.yaml")
    for command in ("roll", "odds", "show", "export"):
        argv = [command, tmp_path / "a.yaml"] + (["x"] if command in ("roll", "odds") else [])
        code, _, err = run(capsys, *argv)
        assert code == 1 and "E312" in err and "internal error" not in err, (command, err)
    with pytest.raises(LoadError):
        load(tmp_path / "a.yaml")
    report = validate_file(str(tmp_path / "a.yaml"))
    assert [d.code for d in report.diagnostics] == [E_UNREADABLE]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_is_refused_from_its_file_type_without_blocking(tmp_path, monkeypatch):
    fifo = tmp_path / "rules.yaml"
    os.mkfifo(fifo)
    reads = []
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda *a: reads.append(a) or real_read(*a))
    # Without O_NONBLOCK and the type check this open() blocks for ever: the guard (a hang
    # guard only, 30 s) turns a relapse into a failure instead of a hung test run.
    with case_time_limit("load_file of a FIFO", seconds=30), pytest.raises(LoadError) as info:
        load_file(fifo)
    assert info.value.code == E_UNREADABLE and "pipe" in info.value.message
    assert reads == []


def test_a_device_behind_a_yaml_name_is_refused_by_its_type(tmp_path):
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    link = tmp_path / "zero.yaml"
    link.symlink_to("/dev/zero")
    with pytest.raises(LoadError) as info:
        load_file(link)
    assert info.value.code == E_UNREADABLE and "device" in info.value.message


def test_validate_searches_folders_without_hidden_folders_virtualenvs_or_linked_folders(tmp_path):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "a.yaml").write_text("a: 1\n")
    (tmp_path / "rules" / "b.yml").write_text("a: 1\n")
    (tmp_path / ".github").mkdir()
    (tmp_path / ".github" / "ci.yml").write_text("a: 1\n")
    (tmp_path / "venv").mkdir()
    (tmp_path / "venv" / "pyvenv.cfg").write_text("home = /usr\n")
    (tmp_path / "venv" / "x.yaml").write_text("a: 1\n")
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "y.yaml").write_text("a: 1\n")
    (tmp_path / "loop").symlink_to(tmp_path, target_is_directory=True)
    found = expand([str(tmp_path)])
    assert sorted(Path(p).relative_to(tmp_path).as_posix() for p in found) == ["rules/a.yaml", "rules/b.yml"]


def test_validate_gives_up_after_max_folder_entries(tmp_path, monkeypatch):
    for i in range(30):
        (tmp_path / f"f{i}.txt").write_text("")
    monkeypatch.setattr(validate_module, "MAX_FOLDER_ENTRIES", 20)
    with pytest.raises(UsageError) as info:
        expand([str(tmp_path)])
    assert "more than 20 files and folders" in info.value.message
    monkeypatch.setattr(validate_module, "MAX_FOLDER_ENTRIES", 31)
    assert expand([str(tmp_path)]) == []


def test_validate_of_a_huge_tree_is_a_usage_error_on_the_command_line(tmp_path, capsys, monkeypatch):
    for i in range(5):
        (tmp_path / f"d{i}").mkdir()
    monkeypatch.setattr(validate_module, "MAX_FOLDER_ENTRIES", 3)
    code, _, err = run(capsys, "validate", tmp_path)
    assert code == 2 and "MAX_FOLDER_ENTRIES" in err


# ---- item 5: keys where names are expected -----------------------------------------------


def test_an_input_named_by_a_number_is_a_validate_error_at_the_key(tmp_path, capsys):
    path = tmp_path / "num.yaml"
    path.write_text(ruleset_text("      16: {type: integer}"))
    report = validate_file(str(path))
    assert [(d.code, d.location.line, d.location.column) for d in report.diagnostics] == [("E404", 8, 7)]
    assert "16" in report.diagnostics[0].message and "name" in report.diagnostics[0].message
    for argv in (["roll", path, "c", "16=3"], ["odds", path, "c"], ["validate", path]):
        code, _, err = run(capsys, *argv)
        assert "internal error" not in err and code == 1, (argv, err)


def test_a_number_key_with_an_unknown_name_in_an_expression_does_not_crash_validate(tmp_path):
    text = ruleset_text("      x: {type: integer}\n      16: {type: integer}").replace(
        "result >= 4", "result + sixteen >= 4")
    path = tmp_path / "num.yaml"
    path.write_text(text)
    report = validate_file(str(path))
    assert ("E404", 9, 7) in [(d.code, d.location.line, d.location.column) for d in report.diagnostics]


def test_a_boolean_key_where_a_name_is_expected_is_a_positioned_error():
    with pytest.raises(RulesEngineError) as info:
        loads(ruleset_text("      x: {type: integer}\n      'yes': {type: integer}\n      true: {type: integer}"))
    assert info.value.code in ("E311", "E404")


@pytest.mark.parametrize("name", [16, None, ("a",), ["unhashable"]])
def test_a_name_that_is_not_text_gets_an_input_error_not_a_crash_of_the_hint(name):
    rs = load("rps")
    for lookup in (rs.check, rs.procedure, rs.runnable):
        with pytest.raises(InputError) as info:
            lookup(name)
        assert "has no" in info.value.message and info.value.hint


# ---- smaller: defaults and bounds of the wrong type --------------------------------------


@pytest.mark.parametrize("spec, where", [
    ("{type: integer, default: on}", "default"),
    ("{type: boolean, default: 16}", "default"),
    ("{type: boolean, default: flase}", "default"),
    ("{type: integer, max: 0.}", "max"),
    ("{type: integer, min: 1.0}", "min"),
])
def test_a_default_or_bound_of_the_wrong_type_is_a_validate_error_at_it(tmp_path, spec, where):
    path = tmp_path / "d.yaml"
    path.write_text(ruleset_text(f"      a: {spec}"))
    report = validate_file(str(path))
    errors = [d for d in report.diagnostics if d.severity == "error"]
    assert [d.code for d in errors] == ["E506"]
    assert errors[0].location.pointer == f"/checks/c/inputs/a/{where}"
    assert errors[0].location.line == 8


def test_defaults_of_the_right_type_still_pass(tmp_path):
    path = tmp_path / "d.yaml"
    path.write_text(ruleset_text("      a: {type: integer, default: 3, min: 0, max: 5}\n"
                                 "      b: {type: boolean, default: off}"))
    assert validate_file(str(path)).errors == 0
