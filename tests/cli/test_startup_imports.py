"""What one command imports (issue 33, "the floor"): every row of bench/pools.py pays for a
whole ``rulesengine odds … --json`` process, so its start-up imports only what that command
runs. Counted, never timed: the modules a fresh process holds once the command is done,
beside those it held before it started (whatever the interpreter and site had loaded)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent

_CHILD = """
import gc, io, json, sys
before = set(sys.modules)
from rulesengine.cli import main
collections = []
gc.callbacks.append(lambda phase, info: phase == "start" and collections.append(info["generation"]))
out, sys.stdout = sys.stdout, io.StringIO()
status = main()  # the words after the program's name, as the rulesengine command reads them
text, sys.stdout = sys.stdout.getvalue(), out
print(json.dumps({"status": status, "out": text, "new": sorted(set(sys.modules) - before),
                  "collections": len(collections), "frozen": gc.get_freeze_count()}))
"""


def _imported_by(store: Path, *argv: str) -> dict:
    """What the command imports once its expressions are in the store (as in the bench: one
    run first, which parses them and fills a store of its own)."""
    env = {k: v for k, v in os.environ.items() if k != "RULESENGINE_CACHE"}
    env["RULESENGINE_CACHE_DIR"] = str(store)
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", _CHILD, *argv], capture_output=True, text=True, cwd=ROOT,
                              env=env, timeout=120)
        assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_odds_of_a_check_as_json_import_no_text_presentation_sweep_or_package_resources(tmp_path):
    """``odds RULESET CHECK --json`` with no swept input: the text tables, the sweep, the dice
    API's facade, ``importlib.resources`` (the shipped schema is found by a stat in a
    checkout), ``random`` and ``threading`` are for other commands and options, and the
    parser with its tree builder for expressions the store does not hold; and :mod:`dataclasses`
    with :mod:`inspect`, whose import alone was a fifth of the floor's own start-up."""
    seen = _imported_by(tmp_path, "odds", "bench/pools/pools.yaml", "floor", "--json")
    assert seen["status"] == 0
    # the oracle: the check "floor" of bench/pools/pools.yaml succeeds on a d6's faces of 4 and up
    assert Fraction(json.loads(seen["out"])["success"]["exact"]) == Fraction(sum(f >= 4 for f in range(1, 7)), 6)
    unwanted = {"rulesengine.present.text", "rulesengine.present.sweep_table", "rulesengine.present.dice_table",
                "rulesengine.run.sweep", "rulesengine.dice.api", "importlib.resources", "csv",
                "rulesengine.dice.tree_builder", "rulesengine.dice._lalr",  # every expression is in the store
                "rulesengine.rules.procedures.contest",  # the file has no procedure
                "random", "threading",  # no dice are rolled, and no progress line is shown to a pipe
                "shutil", "bz2", "lzma",  # the terminal's width is asked only for help (arguments.Parser)
                "rulesengine.rules.schema", "rulesengine.rules.structure",  # loaded clean before: not checked again
                "rulesengine.rules.types", "rulesengine.rules.tables", "rulesengine.rules.unread",
                "rulesengine.rules.procedures",  # the whole file's checks; no table, no procedure
                "rulesengine.dice.open_ended", "rulesengine.dice.extremes", "rulesengine.dice.kept_ranks",  # no "!"
                "rulesengine.run.pushed", "rulesengine.run.readings", "rulesengine.run.after_choice",  # one roll
                "rulesengine.run.ranked_pool",  # no dice are chosen
                "dataclasses", "inspect"}  # records, not dataclasses (rulesengine/records.py)
    assert unwanted.isdisjoint(seen["new"]), sorted(unwanted & set(seen["new"]))


def test_a_sweep_and_text_output_still_import_what_they_print_with(tmp_path):
    """The same command sweeping an input, as text, loads the sweep and its table when it needs them."""
    seen = _imported_by(tmp_path, "odds", "bench/pools/pools.yaml", "threshold", "pool=3", "double=7..8")
    assert seen["status"] == 0, seen["out"]
    assert {"rulesengine.run.sweep", "rulesengine.present.sweep_table"} <= set(seen["new"])


def test_a_sweep_as_json_imports_no_text_table(tmp_path):
    """A sweep written as JSON (bench/pools.py items 1, 5 and 7) is the sweep's own JSON: the
    text tables, which a failed sweep prints its finished rows with, load only for text."""
    seen = _imported_by(tmp_path, "odds", "bench/pools/pools.yaml", "threshold", "pool=3", "double=7..8", "--json")
    assert seen["status"] == 0, seen["out"]
    assert "rulesengine.run.sweep" in seen["new"]
    assert {"rulesengine.present.sweep_table", "rulesengine.present.dice_table"}.isdisjoint(seen["new"])


def test_the_floor_runs_no_garbage_collection(tmp_path):
    """A command's start-up makes only objects that outlive it (rulesengine/collector.py): the
    floor, a ruleset of 12 checks loaded and one d6 worked out, runs without the collector,
    and what it made is left to the process's end."""
    seen = _imported_by(tmp_path, "odds", "bench/pools/pools.yaml", "floor", "--json")
    assert seen["status"] == 0
    assert seen["collections"] == 0
    assert seen["frozen"] > 0  # and left to the process's end, not looked at by Python's last collection


def test_a_command_leaves_the_collector_as_it_found_it_and_a_service_runs_with_pythons(monkeypatch, capsys):
    import gc

    from rulesengine import cli

    seen = []
    monkeypatch.setitem(cli.COMMANDS, "serve", lambda args: seen.append(gc.get_threshold()) or 0)
    was = gc.get_threshold()
    assert cli.main(["--version"]) == 0 and gc.get_threshold() == was
    assert cli.main(["serve", "--stdio"]) == 0 and gc.get_threshold() == was
    assert seen == [was]  # the thresholds this process had before any command ran
