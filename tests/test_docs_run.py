"""docs/tutorial.md and docs/cookbook.md are run as written (issue 17): each ```console
block's commands in one folder per page, in order, their output compared with the page (a
line `...` stands for any lines), and each ```yaml file=NAME block written to NAME before
the commands after it (``append``: added to the end of NAME; ``as-written``: the file a
command wrote must read exactly so)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from rulesengine.cli import main

DOCS = Path(__file__).resolve().parent.parent / "docs"
PAGES = ["tutorial.md", "cookbook.md"]
BLOCK = re.compile(r"^```(console|yaml file=(\S+)(?: (as-written|append))?)\n(.*?)^```$", re.M | re.S)


def steps(page: str) -> list[tuple[str, str, str, str]]:
    """(kind, file name, body, how) for each block the test runs, in page order."""
    return [("console" if m[1] == "console" else "file", m[2] or "", m[4], m[3] or "")
            for m in BLOCK.finditer((DOCS / page).read_text(encoding="utf-8"))]


def commands(body: str) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            out.append((line[2:], []))
        else:
            assert out, f"output before any command: {line!r}"
            out[-1][1].append(line)
    return out


def matches(expected: list[str], actual: list[str]) -> bool:
    """Line by line (trailing spaces ignored); `...` matches any run of lines."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(matches(expected[1:], actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and expected[0].rstrip() == actual[0].rstrip() and matches(expected[1:], actual[1:])


@pytest.mark.parametrize("page", PAGES)
def test_the_page_has_commands_and_files(page):
    kinds = [k for k, *_ in steps(page)]
    assert kinds.count("console") >= 5 and kinds.count("file") >= 3


@pytest.mark.parametrize("page", PAGES)
def test_the_page_runs_as_written(page, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for kind, name, body, how in steps(page):
        if kind == "file":
            if how == "as-written":
                assert (tmp_path / name).read_text(encoding="utf-8") == body, f"{name} is not as the page shows"
            elif how == "append":
                with open(tmp_path / name, "a", encoding="utf-8") as f:
                    f.write(body)
            else:
                (tmp_path / name).write_text(body, encoding="utf-8")
            continue
        for command, expected in commands(body):
            words = shlex.split(command)
            assert words[0] == "rulesengine", command
            try:
                main(words[1:])
            except SystemExit:
                pass
            out, err = capsys.readouterr()
            actual = (out + err).rstrip("\n").splitlines()
            if not matches(expected, actual):
                pytest.fail(f"$ {command}\n--- the page says:\n" + "\n".join(expected)
                            + "\n--- the command printed:\n" + "\n".join(actual))
