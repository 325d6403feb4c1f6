"""The disk store against someone who can write its folder (issue 30, items 7-10): a shared
or world-writable ``RULESENGINE_CACHE_DIR``, a cache restored from elsewhere. What the store
trusts is written in rulesengine/disk_store.py; each test plants one thing an attacker could
and checks that no file outside the store's folder is touched, no answer changes, no limit
is skipped and no call fails or blocks."""

from __future__ import annotations

import itertools
import json
import os
import stat
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from rulesengine import disk_store
from rulesengine.dice import tree_store
from rulesengine.dice.parser import _parse_cached, _parse_text, parse
from rulesengine.disk_store import DiskStore
from rulesengine.limits import DEFAULT_LIMITS
from rulesengine.rules import document

ROOT = os.geteuid() == 0 if hasattr(os, "geteuid") else False


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("RULESENGINE_CACHE_DIR", str(folder))
    monkeypatch.delenv("RULESENGINE_CACHE", raising=False)
    monkeypatch.setattr(tree_store, "_STORE", DiskStore("trees", tree_store._STORE.sources))
    monkeypatch.setattr(document, "_STORED", None)
    _parse_cached.cache_clear()
    yield folder
    _parse_cached.cache_clear()


@pytest.fixture
def victim(tmp_path):
    """Files someone would like the engine to delete or overwrite."""
    folder = tmp_path / "victim"
    folder.mkdir()
    for name in ("notes.txt", "a.json", "b.tmp"):
        (folder / name).write_text(f"precious {name}\n", encoding="utf-8")
    return folder


def contents(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def store_folder() -> Path:
    where = tree_store._STORE.where()
    assert where is not None
    return Path(where)


def fill(n: int = 3) -> None:
    for i in range(1, n + 1):
        tree_store.put(f"{i}d6", _parse_text(f"{i}d6", DEFAULT_LIMITS))


def entry_path(text: str) -> Path:
    path = tree_store._STORE.path(text)
    assert path is not None
    return Path(path)


# ---- item 7: links named like store folders ----------------------------------------------


def test_a_link_named_like_an_old_store_folder_loses_only_the_link(cache, victim):
    cache.mkdir(mode=0o700)
    before = contents(victim)
    (cache / "trees-00000000").symlink_to(victim, target_is_directory=True)
    fill()  # a new store folder: the old ones of its kind are removed
    assert contents(victim) == before
    assert not os.path.lexists(cache / "trees-00000000")


def test_a_store_folder_that_is_a_link_is_not_used(cache, victim, monkeypatch):
    cache.mkdir(mode=0o700)
    folder = Path(tree_store._STORE.where() or "")
    tree_store._STORE.ready = False
    folder.rmdir()
    folder.symlink_to(victim, target_is_directory=True)
    before = contents(victim)
    monkeypatch.setattr(disk_store, "MAX_ENTRIES", 2)
    tree_store._STORE.ready = False
    fill(5)  # would empty the folder when full
    assert tree_store._STORE.where() is None
    assert contents(victim) == before


def test_a_link_inside_a_full_store_is_unlinked_not_followed(cache, victim, monkeypatch):
    monkeypatch.setattr(disk_store, "MAX_ENTRIES", 2)
    fill(1)
    (store_folder() / "planted.json").symlink_to(victim / "notes.txt")
    before = contents(victim)
    fill(4)
    assert contents(victim) == before
    assert not os.path.lexists(store_folder() / "planted.json")


@pytest.mark.parametrize("mode", [0o777, 0o770, 0o722])
def test_a_cache_folder_others_may_write_is_not_used(cache, mode):
    cache.mkdir()
    cache.chmod(mode)
    fill()
    assert tree_store._STORE.where() is None
    assert list(cache.iterdir()) == []
    assert parse("3d6") == _parse_text("3d6", DEFAULT_LIMITS)


@pytest.mark.skipif(not ROOT, reason="giving a folder to another user needs root")
def test_a_cache_folder_owned_by_someone_else_is_not_used(cache):
    cache.mkdir(mode=0o700)
    os.chown(cache, 65534, 65534)
    fill()
    assert tree_store._STORE.where() is None
    assert list(cache.iterdir()) == []


def test_the_engine_makes_its_folders_private(cache):
    fill(1)
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700
    assert stat.S_IMODE(store_folder().stat().st_mode) == 0o700
    assert stat.S_IMODE((cache / disk_store.KEY_FILE).stat().st_mode) == 0o600


# ---- item 8: temporary files -------------------------------------------------------------


def test_a_link_planted_at_a_temporary_name_is_never_written_through(cache, victim, monkeypatch):
    fill(1)
    path = entry_path("9d9")
    monkeypatch.setattr(os, "urandom", lambda n: b"\x01" * n)  # the next temporary name, known in advance
    for name in (f"{path}.{os.getpid()}.tmp", f"{path.name}.{os.getpid()}.{'01' * 6}.tmp"):
        (path.parent / Path(name).name).symlink_to(victim / "notes.txt")
    before = contents(victim)
    tree_store.put("9d9", _parse_text("9d9", DEFAULT_LIMITS))
    assert contents(victim) == before


# ---- item 9: poisoned entries ------------------------------------------------------------


def plant(text: str, value: object, signed: bool) -> None:
    body = json.dumps({"key": text, "value": value}).encode()
    path = entry_path(text)
    path.write_bytes((tree_store._STORE._signature(body) + b"\n" + body) if signed else body)
    _parse_cached.cache_clear()


@pytest.mark.parametrize("signed", [False, True], ids=["unsigned", "signed"])
def test_a_planted_tree_of_another_text_does_not_change_the_odds(cache, signed):
    from rulesengine import dice

    fill(1)
    plant("3d6", tree_store.encode(_parse_text("1d1+17", DEFAULT_LIMITS)), signed)
    odds = dice.odds("3d6")
    throws = list(itertools.product(range(1, 7), repeat=3))
    for total in (3, 10, 18):  # brute force over every throw
        assert odds.probability(total) == Fraction(sum(sum(t) == total for t in throws), len(throws))


@pytest.mark.parametrize("planted", [
    {"@": "Dice", "count": {"@": "Num", "value": 1, "span": [0, 1]},
     "die": {"@": "Die", "sides": 10**18, "text": "d6"}, "modifiers": [], "span": [0, 3]},  # past max_sides
    {"@": "Num", "value": 10**40, "span": [0, 3]},  # past max_magnitude
    {"@": "Dice", "count": {"@": "Num", "value": 10**9, "span": [0, 1]},
     "die": {"@": "Die", "sides": 6, "text": "d6"}, "modifiers": [], "span": [0, 3]},  # past max_dice
    {"@": "Num", "value": 3, "span": [0, 3000]},  # a span past the text
])
def test_a_stored_tree_past_a_limit_is_not_used_even_when_signed(cache, planted):
    fill(1)
    plant("3d6", planted, signed=True)
    assert parse("3d6") == _parse_text("3d6", DEFAULT_LIMITS)


@pytest.mark.parametrize("signed", [False, True], ids=["unsigned", "signed"])
def test_a_planted_document_does_not_change_a_ruleset(cache, tmp_path, signed):
    path = tmp_path / "r.yaml"
    path.write_text("ruleset: a\nname: A\n", encoding="utf-8")
    assert document.load_file(path).data["name"] == "A"
    store = document._stored_files()
    (entry,) = [p for p in Path(store.where() or "").iterdir() if p.suffix == ".json"]
    body = entry.read_bytes().split(b"\n", 1)[1]
    poisoned = body.replace(b'"name":"A"', b'"name":"B"')
    assert poisoned != body
    entry.write_bytes((store._signature(poisoned) + b"\n" + poisoned) if signed else poisoned)
    if not signed:
        assert document.load_file(path).data["name"] == "A"
    foreign = json.dumps({"key": json.loads(body)["key"], "value": {"data": 5}}).encode()
    entry.write_bytes(store._signature(foreign) + b"\n" + foreign)
    assert document.load_file(path).data["name"] == "A"  # a value the loader could not have written


# ---- item 10: things that are not entries ------------------------------------------------


@pytest.mark.parametrize("value", [5, [], "3d6", None, {"@": "Num"}])
def test_a_foreign_value_is_a_miss(cache, value):
    fill(1)
    plant("3d6", value, signed=True)
    assert parse("3d6") == _parse_text("3d6", DEFAULT_LIMITS)


def get_in_child(folder: Path, text: str) -> list[str]:
    """``tree_store.get(text)`` in a child process with 1 GiB of address space, so that a
    regression (reading /dev/zero for ever, blocking on a FIFO) is a failed test, not a
    killed or hung suite (the timeout is a hang guard, not a speed assertion)."""
    code = ("import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)); "
            f"from rulesengine.dice import tree_store; print(tree_store.get({text!r}))")
    env = {**os.environ, "RULESENGINE_CACHE_DIR": str(folder.parent)}
    env.pop("RULESENGINE_CACHE", None)
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.split()


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_a_link_to_a_device_is_a_miss(cache):
    fill(1)
    entry_path("3d6").symlink_to("/dev/zero")
    assert get_in_child(store_folder(), "3d6") == ["None"]


def test_an_oversized_entry_is_not_read(cache):
    fill(1)
    with open(entry_path("3d6"), "wb") as f:
        f.truncate(150 * 1024 * 1024)  # sparse: 150 MB that costs no disk
    assert get_in_child(store_folder(), "3d6") == ["None"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_at_an_entry_does_not_block(cache):
    fill(1)
    os.mkfifo(entry_path("3d6"))
    assert get_in_child(store_folder(), "3d6") == ["None"]


@pytest.mark.parametrize("damage", ["link", "public", "short"])
def test_a_key_that_is_not_private_turns_the_store_off(cache, victim, damage):
    cache.mkdir(mode=0o700)
    key = cache / disk_store.KEY_FILE
    if damage == "link":
        key.symlink_to(victim / "notes.txt")
    else:
        key.write_text("00" * (32 if damage == "public" else 3), encoding="ascii")
        key.chmod(0o644 if damage == "public" else 0o600)
    before = contents(victim)
    fill()
    assert tree_store._STORE.where() is None
    assert contents(victim) == before


# ---- many processes at once --------------------------------------------------------------


def test_concurrent_writers_leave_only_whole_entries(tmp_path, monkeypatch):
    cache = tmp_path / "shared-cache"
    texts = [f"{n}d{s} + {n}" for n in range(1, 16) for s in (4, 6, 8)]
    code = ("import sys, json; from rulesengine.dice.parser import parse; "
            "[parse(t) for t in json.loads(sys.argv[1])]")
    env = {**os.environ, "RULESENGINE_CACHE_DIR": str(cache)}
    env.pop("RULESENGINE_CACHE", None)
    workers = [subprocess.Popen([sys.executable, "-c", code, json.dumps(texts[i::2] + texts)], env=env)
               for i in range(4)]
    assert [w.wait(timeout=300) for w in workers] == [0, 0, 0, 0]
    (folder,) = [p for p in cache.iterdir() if p.is_dir()]
    assert not [p for p in folder.iterdir() if p.suffix == ".tmp"]
    monkeypatch.setenv("RULESENGINE_CACHE_DIR", str(cache))
    monkeypatch.delenv("RULESENGINE_CACHE", raising=False)
    store = DiskStore("trees", tree_store._STORE.sources)
    for text in texts:
        assert tree_store.decode(store.get(text)) == _parse_text(text, DEFAULT_LIMITS)


# ---- engines sharing one cache folder ----------------------------------------------------


def _engine(tmp_path: Path, n: int) -> DiskStore:
    """A store of engine ``n``: its own source file, so its own folder, in the shared cache."""
    source = tmp_path / f"engine{n}.py"
    if not source.exists():
        source.write_text(f"# engine {n}\n", encoding="utf-8")
    return DiskStore("trees", (str(source),))


def test_two_engines_sharing_a_cache_folder_each_keep_their_store(cache, tmp_path):
    """A checkout and its pre-commit hook's environment, say: neither removes the other's
    folder on each run (which left both cold every time)."""
    _engine(tmp_path, 1).put("3d6", "one")
    _engine(tmp_path, 2).put("3d6", "two")
    assert _engine(tmp_path, 1).get("3d6") == "one"  # a new process of engine 1: its entries are there
    assert _engine(tmp_path, 2).get("3d6") == "two"
    assert len(list(cache.glob("trees-*"))) == 2


def test_a_store_keeps_the_folders_used_last_and_removes_the_others(cache, tmp_path):
    stores = []
    for n in range(disk_store.KEEP_VERSIONS):
        store = _engine(tmp_path, n)
        store.put("3d6", n)
        folder = Path(store.where() or "")
        os.utime(folder, ns=(10**18 + n * 10**9, 10**18 + n * 10**9))  # engine 0 the least recently used...
        stores.append(folder)
    _engine(tmp_path, 0).get("3d6")  # ...until it is used again: now engine 1 is
    _engine(tmp_path, disk_store.KEEP_VERSIONS).put("3d6", "new")  # a new folder: one of the others goes
    assert sorted(p.exists() for p in stores) == [False] + [True] * (disk_store.KEEP_VERSIONS - 1)
    assert not stores[1].exists() and stores[0].exists()
    assert len(list(cache.glob("trees-*"))) == disk_store.KEEP_VERSIONS


def test_the_engine_files_that_name_a_store_folder():
    """``engine_files()``: every module of the engine (validate's reports depend on them all);
    ``engine_files("rules", "dice")``: the package's own modules and those two subpackages
    (what decides whether a file loads), each list in a fixed order."""
    package = Path(disk_store.__file__).resolve().parent
    every = [Path(p).relative_to(package).as_posix() for p in disk_store.engine_files()]
    some = [Path(p).relative_to(package).as_posix() for p in disk_store.engine_files("rules", "dice")]
    assert {"cli.py", "run/enumeration.py", "serve/http.py", "dice/grammar.lark", "rules/build.py"} <= set(every)
    assert {"cli.py", "dice/grammar.lark", "rules/build.py"} <= set(some)
    assert not any(p.startswith(("run/", "serve/", "present/")) for p in some)
    assert set(some) < set(every) and disk_store.engine_files() == disk_store.engine_files()
    assert not any("__pycache__" in p for p in every)
