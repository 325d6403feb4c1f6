"""`rulesengine new` (issue 17): a homebrewer's first file validates clean as written, its
editor line points at a schema that is there, and it never overwrites a file by surprise."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesengine.cli import main
from rulesengine.shipped import ruleset_schema_file, rulesets_folder

SHIPPED = sorted(p.stem for p in rulesets_folder().glob("*.yaml"))


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def modeline_target(path: Path) -> Path:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema=")
    return (path.parent / first.split("=", 1)[1]).resolve()


def test_the_starter_validates_clean_and_points_the_editor_at_the_schema(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "new", "my-game")
    assert code == 0 and out.startswith("wrote my-game.yaml and schemas/ruleset.schema.json")
    assert run(capsys, "validate", "--strict", "my-game.yaml")[0] == 0
    target = modeline_target(tmp_path / "my-game.yaml")
    assert target == (tmp_path / "schemas" / "ruleset.schema.json").resolve()
    assert target.read_text(encoding="utf-8") == ruleset_schema_file().read_text(encoding="utf-8")
    assert run(capsys, "odds", "my-game.yaml", "attack", "bonus=2")[0] == 0


@pytest.mark.parametrize("shipped", SHIPPED)
def test_a_copy_of_a_shipped_ruleset_validates_clean_under_its_new_id(tmp_path, monkeypatch, capsys, shipped):
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "new", "my-variant", "--from", shipped, "--output", "rulesets/my-variant.yaml")
    assert code == 0
    path = tmp_path / "rulesets" / "my-variant.yaml"
    assert "\nruleset: my-variant\n" in path.read_text(encoding="utf-8")
    assert modeline_target(path) == (tmp_path / "schemas" / "ruleset.schema.json").resolve()
    code, out, _ = run(capsys, "validate", "--strict", path)
    assert code == 0, out


def test_an_existing_file_is_kept_unless_forced(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.yaml").write_text("my work\n", encoding="utf-8")
    code, _, err = run(capsys, "new", "mine")
    assert code == 2 and "mine.yaml already exists" in err and len(err.strip().splitlines()) == 1
    assert (tmp_path / "mine.yaml").read_text(encoding="utf-8") == "my work\n"
    assert run(capsys, "new", "mine", "--force")[0] == 0
    assert "ruleset: mine" in (tmp_path / "mine.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize("argv, words", [
    (["new", "My Game"], "is not a ruleset id"),
    (["new", "x", "--from", "no-such-thing"], "no shipped ruleset 'no-such-thing'"),
    (["new", "x", "--from", "../secrets"], "no shipped ruleset"),
])
def test_bad_names_are_one_line_errors(tmp_path, monkeypatch, capsys, argv, words):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, *argv)
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1
    assert not list(tmp_path.iterdir())
