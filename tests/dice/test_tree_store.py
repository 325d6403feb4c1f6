"""Parsed expressions kept on disk between processes (rulesengine/dice/tree_store.py, issue 18):
a stored tree is the tree the parser makes, a fresh process reads it without loading the
parser, and a store that is off, unreadable, corrupt, foreign or full never changes an
answer or fails a call."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from dice_grammar import expressions
from store_support import run_twice
from rulesengine import disk_store
from rulesengine.dice import tree_store
from rulesengine.disk_store import DiskStore
from rulesengine.dice.parser import _parse_cached, _parse_text, parse
from rulesengine.errors import RulesEngineError
from rulesengine.limits import DEFAULT_LIMITS

SHOWN = [
    "3d6 + 2", "4d6kh3", "(1d4, 2+2, 3d6kl1)kh1", "d{0:'blank',1:'hit'} >= 1", "3d{[], [hit], [hit, hit]}!=3",
    "2d{ability} + 1d{difficulty}", "(n)d10!>=(again)cs>=(tn)", "if(edge, 3d6kh2, 2d6)", "1d20[attack] + 5 >= 15",
    "8d6rol1k>=3", "d(size) + -3", "not flag and x % 11 == 0", "'hard'", "10d6p1dl2", "4dF + d%",
]


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESENGINE_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("RULESENGINE_CACHE", raising=False)
    monkeypatch.setattr(tree_store, "_STORE", DiskStore("trees", tree_store._STORE.sources))
    monkeypatch.setattr(tree_store, "_SETS", DiskStore("treesets", tree_store._STORE.sources,
                                                       max_entries=tree_store.MAX_SETS,
                                                       write_budget=tree_store.MAX_SETS))
    monkeypatch.setattr(tree_store, "_WAITING", {})
    return tmp_path


@pytest.mark.parametrize("text", SHOWN)
def test_a_stored_tree_is_the_tree_the_parser_makes(text, store):
    tree = _parse_text(text, DEFAULT_LIMITS)
    assert tree_store.decode(json.loads(json.dumps(tree_store.encode(tree)))) == tree
    tree_store.put(text, tree)
    assert tree_store.get(text) == tree


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(expressions)
def test_every_generated_expression_comes_back_from_the_store_as_parsed(text):
    try:
        tree = _parse_text(text, DEFAULT_LIMITS)
    except RulesEngineError:
        return
    assert tree_store.decode(json.loads(json.dumps(tree_store.encode(tree)))) == tree


def test_a_fresh_process_reads_a_stored_expression_without_loading_the_parser(store):
    first, again = run_twice("import sys; from rulesengine import dice; print(dice.odds('3d6kh2 + 1').mean); "
                             "print('rulesengine.dice._lalr' in sys.modules)", store)
    assert first == [first[0], "True"]
    assert again == [first[0], "False"]  # same answer, no parser


def test_the_store_can_be_turned_off(store, monkeypatch):
    monkeypatch.setenv("RULESENGINE_CACHE", "off")
    tree_store.put("3d6", _parse_text("3d6", DEFAULT_LIMITS))
    assert not any(store.rglob("*.json"))
    env = {**os.environ, "RULESENGINE_CACHE_DIR": str(store)}
    env.pop("RULESENGINE_CACHE")
    subprocess.run([sys.executable, "-m", "rulesengine", "--no-cache", "dice", "2d6"], env=env, check=True,
                   capture_output=True)
    assert not any(store.rglob("*.json"))


def entry_file(store, text):
    tree_store.put(text, _parse_text(text, DEFAULT_LIMITS))
    (path,) = store.rglob("*.json")
    return path


def signed(body: str, store: DiskStore | None = None) -> bytes:
    """An entry as the store itself would sign it: what someone holding the key could plant."""
    return (store or tree_store._STORE)._signature(body.encode()) + b"\n" + body.encode()


@pytest.mark.parametrize("damage", [
    lambda e: "{not json",
    lambda e: json.dumps({**e, "text": "4d6"}),  # another text's tree
    lambda e: json.dumps({**e, "tree": {"@": "Popen", "args": ["rm"]}}),  # a class that is not a node
    lambda e: json.dumps({**e, "tree": {"@": "Num", "value": 1, "span": [0, 1], "extra": 2}}),
    lambda e: json.dumps({**e, "tree": {"@": "Num", "value": 1.5, "span": [0, 1]}}),
    lambda e: json.dumps([e]),
    lambda e: json.dumps({**e, "tree": 5}),  # a value that is no tree at all (issue 30: KeyError, exit 3)
    lambda e: json.dumps({**e, "tree": []}),
    lambda e: json.dumps({**e, "tree": "3d6"}),
    lambda e: json.dumps({**e, "tree": {"@": "Cond", "op": ">=", "value": 1}}),  # a node, not an expression
    lambda e: json.dumps({**e, "tree": {"@": "Binary", "op": "+", "left": 1, "right": 2, "span": [0, 3]}}),
])
@pytest.mark.parametrize("sign", [False, True], ids=["unsigned", "signed"])
def test_a_damaged_or_foreign_entry_is_not_read(store, damage, sign):
    path = entry_file(store, "3d6")
    entry = json.loads(path.read_bytes().split(b"\n", 1)[1])
    body = damage({"text": entry["key"], "tree": entry["value"]}).replace('"text"', '"key"').replace('"tree"', '"value"')
    path.write_bytes(signed(body) if sign else body.encode())
    if not sign:
        assert tree_store.get("3d6") is None  # not signed with this store's key: never decoded
    _parse_cached.cache_clear()
    assert parse("3d6") == _parse_text("3d6", DEFAULT_LIMITS)  # signed or not, the parser's own tree


def test_an_unwritable_store_is_skipped(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("RULESENGINE_CACHE_DIR", str(blocker))
    monkeypatch.setattr(tree_store, "_STORE", DiskStore("trees", tree_store._STORE.sources))
    tree_store.put("3d6", _parse_text("3d6", DEFAULT_LIMITS))  # no error
    assert tree_store.get("3d6") is None


def test_a_full_store_is_emptied_and_fills_again(store, monkeypatch):
    monkeypatch.setattr(disk_store, "MAX_ENTRIES", 3)
    for n in range(1, 6):
        tree_store.put(f"{n}d6", _parse_text(f"{n}d6", DEFAULT_LIMITS))
    assert len(list(store.rglob("*.json"))) == 2  # 3 written, emptied, 2 more
    assert tree_store.get("5d6") is not None and tree_store.get("1d6") is None


def test_only_trees_read_under_the_default_limits_are_stored(store):
    import dataclasses

    from rulesengine.dice.parser import parse

    parse("7d7 + 7", dataclasses.replace(DEFAULT_LIMITS, max_dice=50))
    assert not any(store.rglob("*.json"))
    parse("7d7 + 7")
    assert len(list(store.rglob("*.json"))) == 1


def test_a_service_writes_no_store(store, monkeypatch):
    """docs/service.md: a service's texts come from its clients; it keeps nothing on disk."""
    from rulesengine.serve.operations import Service

    monkeypatch.delenv("RULESENGINE_CACHE", raising=False)
    service = Service()
    assert os.environ.get("RULESENGINE_CACHE") == "off"  # monkeypatch restores it after the test
    tree_store.put("9d9", _parse_text("9d9", DEFAULT_LIMITS))
    assert service is not None and not any(store.rglob("*.json"))


# ---- a ruleset file's trees as one set (issue 33: one read of the store per file, not one per text)

SHIPPED = Path(__file__).resolve().parents[2] / "rulesets"


def set_file(name: str) -> Path:
    return Path(tree_store._SETS.path("set " + disk_store.digest(name)) or "")


def build_file(path: Path, limits=DEFAULT_LIMITS):
    from rulesengine.ruleset import analyse
    from rulesengine.rules.document import load_text

    _parse_cached.cache_clear()  # as a new process: no parse remembered
    return analyse(load_text(path.read_bytes(), str(path), limits), limits)


def test_a_ruleset_file_read_again_finds_its_trees_in_one_set_not_one_file_each(store, tmp_path):
    path = tmp_path / "pools.yaml"
    path.write_bytes((SHIPPED.parent / "bench" / "pools" / "pools.yaml").read_bytes())
    code = ("import sys; from rulesengine.disk_store import DiskStore; get = DiskStore.get; reads = []\n"
            "DiskStore.get = lambda self, key: reads.append(self.kind) or get(self, key)\n"
            f"import rulesengine; rulesengine.load({str(path)!r}).check('push')\n"
            "print(reads.count('trees'), reads.count('treesets'), 'rulesengine.dice._lalr' in sys.modules)")
    first, again = run_twice(code, store)
    assert int(first[0]) > 0 and first[1:] == ["1", "True"]  # each text looked for alone, then parsed
    assert again == ["0", "1", "False"]  # one set: no text looked for alone, no parser
    # (the file loaded without an error before, so the check is built alone: rules/verdicts.py)


@pytest.mark.parametrize("name", sorted(p.name for p in SHIPPED.glob("*.yaml")))
def test_trees_read_from_a_set_are_the_trees_the_parser_makes(store, monkeypatch, name):
    from rulesengine.dice import parser

    model, _ = build_file(SHIPPED / name)  # writes the file's set
    assert model is not None and set_file((SHIPPED / name).read_text(encoding="utf-8")).is_file()
    texts = set(tree_store.read_set((SHIPPED / name).read_text(encoding="utf-8")))
    tree_store.forget_set(texts)
    monkeypatch.setattr(tree_store, "_STORE", DiskStore("trees-elsewhere", ()))  # no tree stored alone

    def refuse(text, limits):
        raise AssertionError(f"{text!r} parsed, not read from the set")

    monkeypatch.setattr(parser, "_parse_text", refuse)
    again, _ = build_file(SHIPPED / name)
    assert again is not None
    monkeypatch.undo()
    assert texts and all(parse(text) == _parse_text(text, DEFAULT_LIMITS) for text in texts)


def test_a_set_holding_every_text_is_not_written_again(store):
    path = SHIPPED / "fate-core.yaml"
    build_file(path)
    before = set_file(path.read_text(encoding="utf-8")).stat()
    build_file(path)
    after = set_file(path.read_text(encoding="utf-8")).stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_no_set_is_kept_for_other_limits(store):
    import dataclasses

    build_file(SHIPPED / "fate-core.yaml", dataclasses.replace(DEFAULT_LIMITS, max_dice=50))
    assert not any(store.rglob("*.json"))


@pytest.mark.parametrize("damage", [
    lambda e: "{not json",
    lambda e: json.dumps({**e, "value": {"3d6": {"@": "Popen", "args": ["rm"]}}}),  # a class that is not a node
    lambda e: json.dumps({**e, "value": {"3d6": {"@": "Num", "value": DEFAULT_LIMITS.max_magnitude + 1, "span": [0, 3]}}}),  # past a limit
    lambda e: json.dumps({**e, "value": {"3d6": {"@": "Num", "value": 1, "span": [0, 9]}}}),  # a span past the text
    lambda e: json.dumps({**e, "value": ["3d6"]}),
])
@pytest.mark.parametrize("sign", [False, True], ids=["unsigned", "signed"])
def test_a_damaged_or_foreign_set_never_changes_a_tree(store, damage, sign):
    tree_store.put_set("a file", {"3d6": _parse_text("3d6", DEFAULT_LIMITS)})
    path = set_file("a file")
    body = damage(json.loads(path.read_bytes().split(b"\n", 1)[1]))
    path.write_bytes(signed(body, tree_store._SETS) if sign else body.encode())
    tree_store.read_set("a file")
    _parse_cached.cache_clear()
    assert parse("3d6") == _parse_text("3d6", DEFAULT_LIMITS)  # signed or not, the parser's own tree


@pytest.mark.parametrize("node", [{"@": "Cond", "op": "~", "value": 1, "high": None},
                                  {"@": "CondExpr", "op": "~", "expr": {"@": "Num", "value": 1, "span": [0, 1]},
                                   "source": "1"}])
def test_a_stored_node_is_refused_as_its_constructor_refuses_it(node):
    """decode sets a node's fields itself; what the class's constructor checks after (a
    condition's operator) is still checked."""
    with pytest.raises(ValueError):
        tree_store.decode(node)


def test_no_cache_called_in_process_turns_the_store_off_for_that_command_only(monkeypatch, capsys):
    """``main(["--no-cache", …])`` from a program that embeds the command line leaves the
    store as it found it for the program's next calls (and an ``off`` it found stays)."""
    from rulesengine.cli import main

    monkeypatch.delenv("RULESENGINE_CACHE", raising=False)
    assert main(["--no-cache", "dice", "2d6"]) == 0
    assert "RULESENGINE_CACHE" not in os.environ
    monkeypatch.setenv("RULESENGINE_CACHE", "off")
    assert main(["dice", "2d6"]) == 0
    assert os.environ["RULESENGINE_CACHE"] == "off"
    capsys.readouterr()
