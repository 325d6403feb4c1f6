"""The docs are reachable from an install (issue 36): `rulesengine docs` lists the pages of
docs/, prints one, or gives its installed path; every pointer to the docs that a user meets
(each command's --help, the starter file of `rulesengine new`) names a page it can print."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from rulesengine.arguments import build_parser
from rulesengine.cli import COMMANDS, main

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted(p.stem for p in (ROOT / "docs").glob("*.md"))  # the repository's docs/, the source of truth
POINTER = re.compile(r"rulesengine docs ([a-z][a-z0-9-]*)|docs/([a-z][a-z0-9-]*)\.md")


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def help_texts(capsys) -> dict[str, str]:
    """What `rulesengine --help` and `rulesengine COMMAND --help` print, for every command."""
    texts = {"rulesengine": build_parser().format_help()}
    for name in COMMANDS:
        code, out, _ = run(capsys, name, "--help")
        assert code == 0
        texts[name] = out
    return texts


def pointers(text: str) -> set[str]:
    return {a or b for a, b in POINTER.findall(text)}


def test_docs_with_no_topic_lists_every_page_of_the_docs_folder(capsys):
    code, out, _ = run(capsys, "docs")
    assert code == 0
    listed = [line.split()[0] for line in out.splitlines() if line and not line.startswith("rulesengine docs")]
    assert listed == PAGES


@pytest.mark.parametrize("page", PAGES)
def test_docs_topic_prints_the_page_as_written_in_docs(capsys, page):
    code, out, _ = run(capsys, "docs", page)
    assert code == 0
    assert out == (ROOT / "docs" / f"{page}.md").read_text(encoding="utf-8")


def test_docs_path_gives_a_file_holding_the_page(capsys):
    code, out, _ = run(capsys, "docs", "tutorial", "--path")
    assert code == 0
    installed = Path(out.strip())
    assert installed.name == "tutorial.md"
    assert installed.read_text(encoding="utf-8") == (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8")


def test_an_unknown_topic_is_a_usage_error_that_names_the_topics(capsys):
    code, out, err = run(capsys, "docs", "tutorail")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert "'tutorail'" in err and "tutorial" in err and "Traceback" not in err


def test_docs_works_from_any_folder(tmp_path):
    done = subprocess.run([sys.executable, "-m", "rulesengine", "docs", "errors"], cwd=tmp_path,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("# Error codes")


def test_every_command_help_ends_with_a_more_line_naming_rulesengine_docs(capsys):
    for name, text in help_texts(capsys).items():
        if name == "rulesengine":
            continue
        more = [line for line in text.splitlines() if line.startswith("more: ")]
        assert len(more) == 1, name
        assert more[0].startswith("more: rulesengine docs "), (name, more[0])


def test_every_docs_pointer_in_a_help_text_names_a_page_rulesengine_docs_prints(capsys):
    named = set()
    for name, text in help_texts(capsys).items():
        for page in pointers(text):
            assert page in PAGES, f"`rulesengine {name} --help` points at {page}, which is not a page of docs/"
            named.add(page)
    assert named  # the check above saw pointers
    for page in named:
        code, out, _ = run(capsys, "docs", page)
        assert code == 0 and out


def test_every_docs_pointer_in_the_starter_file_names_a_page_rulesengine_docs_prints(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "new", "my-game")[0] == 0
    text = (tmp_path / "my-game.yaml").read_text(encoding="utf-8")
    named = pointers(text)
    assert {"tutorial", "ruleset-language"} <= named
    for page in named:
        code, out, _ = run(capsys, "docs", page)
        assert code == 0 and out
