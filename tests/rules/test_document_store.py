"""Loaded ruleset files kept on disk between processes (rulesengine/disk_store.py, used by
rules/document.py, issue 18): a file read back from the store is the document its YAML
makes, positions included; a changed file is read again; a fresh process reads a stored
file without importing PyYAML."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rulesengine.disk_store import DiskStore
from store_support import run_twice
from rulesengine.rules import document
from rulesengine.rules.document import load_file, load_text

SHIPPED = sorted((Path(__file__).resolve().parents[2] / "rulesets").glob("*.yaml"))


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESENGINE_CACHE_DIR", str(tmp_path / "store"))
    monkeypatch.delenv("RULESENGINE_CACHE", raising=False)
    monkeypatch.setattr(document, "_STORED", None)
    return tmp_path / "store"


def same(a, b) -> None:
    assert (a.path, a.text, a.data) == (b.path, b.text, b.data)
    assert list(a.pointers()) == list(b.pointers())
    for pointer in a.pointers():
        assert a.location(pointer) == b.location(pointer)
        assert a.location(pointer, key=True) == b.location(pointer, key=True)
        assert a.scalar_column(pointer, 2) == b.scalar_column(pointer, 2)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_a_file_read_back_from_the_store_is_the_document_its_yaml_makes(path, store):
    first = load_file(path)
    assert isinstance(document._stored_files(), DiskStore) and any(store.rglob("*.json"))
    again = load_file(path)
    same(again, load_text(path.read_bytes(), os.fspath(path)))
    same(again, first)


def test_a_changed_file_is_read_again(store, tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text("ruleset: a\nname: A\n", encoding="utf-8")
    assert load_file(path).data["name"] == "A"
    path.write_text("ruleset: a\nname: B\n", encoding="utf-8")
    assert load_file(path).data["name"] == "B"


def test_a_file_with_errors_is_never_stored(store, tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("a: [1, 2\n", encoding="utf-8")
    with pytest.raises(document.LoadError):
        load_file(path)
    assert not any(store.rglob("*.json"))


def test_a_fresh_process_reads_a_stored_file_without_pyyaml(store):
    first, again = run_twice("import sys; from rulesengine.ruleset import load; print(load('gurps-4e')"
                             ".check('success_roll').odds({'skill': 12}).success); print('yaml' in sys.modules)", store)
    assert first[1] == "True"
    assert again == [first[0], "False"]  # same odds, no YAML parser


def test_switching_the_yaml_parser_skips_the_store(store, monkeypatch):
    import yaml

    monkeypatch.setattr(document, "YAML_LOADER", yaml.SafeLoader)
    load_file(SHIPPED[0])
    assert not any(store.rglob("*.json"))
