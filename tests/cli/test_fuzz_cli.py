"""Fuzzing the command line: random arguments to `roll`, `odds` and `dice` (and a few to
`show` and `export`), run in-process through ``rulesengine.cli.main``.

Inputs: names that exist and names that don't, values in and out of range, words that are
not numbers (``skill=abc``), ``--faces`` with the wrong count or junk, ``--seed`` junk,
party syntax junk (``party0.x``, ``partyx.y``, ``party1.=3``), sweeps (``a..b``, ``5..1``,
``1..``), bytes that are not UTF-8 (as Python decodes them from argv), generated and mangled
dice expressions.

Invariant: exit status 0, 1 or 2; never 3 (an internal error); on 1 or 2 a message on
stderr and no traceback; each case within the per-case time limit. Party numbers and sweep
ranges stay small here: huge ones once made the CLI build huge lists (fixed; see
tests/test_fuzz_found.py, which tests them in a child process with a memory limit), and a
relapse in this process could take the machine's memory.
"""

from __future__ import annotations

import contextlib

from hypothesis import given
from hypothesis import strategies as st

from fuzz_support import fuzz_settings, known_bug, measured
from rulesengine import cli
from rulesengine.errors import RulesEngineError
from rulesengine.ruleset import load, shipped_ids
from dice_grammar import expressions, near_misses, wide_expressions

IDS = shipped_ids()


def _specs(rid: str) -> tuple[list[str], dict[str, tuple[list, list]]]:
    """The runnables of a shipped ruleset, and for each: its own input specs and its
    parties' input specs (a check has no parties)."""
    rs = load(rid)
    runnables = rs.checks() + rs.procedures()
    inputs: dict[str, tuple[list, list]] = {}
    for name in rs.checks():
        inputs[name] = (list(rs.check(name).model.inputs), [])
    for name in rs.procedures():
        p = rs.model.procedures[name]
        party = list(rs.check(p.check).model.inputs)
        inputs[name] = (list(p.inputs) + (party if p.kind == "extended" else []),
                        [] if p.kind == "extended" else party)
    return runnables, inputs


def _good_values(spec) -> list[str]:
    if spec.type == "integer":
        lo = spec.min if spec.min is not None else -5
        hi = spec.max if spec.max is not None else 20
        return [str(v) for v in (lo, hi, (lo + hi) // 2)] + [f"{lo}..{min(hi, lo + 5)}"]
    if spec.type == "boolean":
        return ["true", "false"]
    if spec.type == "choice":
        return list(spec.choices)
    return ["d8/d4/d4", "d6", "d12/d10/d8"]


SHIPPED = {rid: _specs(rid) for rid in IDS}

JUNK_WORDS = ["", "x", "abc", "skil", "SKILL", "skill ", "-1", "--", "-", "=", "==", "\udcff", "\udcc3",
              "é", "😀", "a" * 300, "../../etc/passwd", "/nonexistent/ruleset.yaml", "rulesets",
              "rulesets/", "nope.yaml", "gurps-5e", "GURPS-4E", "--json", "--seed", "-h"]
VALUES = ["0", "1", "3", "10", "12", "-1", "-20", "60", "61", "999", "1000", "1001", "-1000", "-1001",
          "99999999999999999999", "-99999999999999999999", "9" * 5000, "abc", "", " ", " 3 ", "3 ", "1.5",
          "1e3", "0x10", "１２", "true", "false", "yes", "no", "none", "minor", "major", "hard", "easy",
          "d8/d4/d4", "d12/d10", "d4" * 30, "d0", "d8/", "/", "3d8", "100d4", "101d4", "d1001",
          "99999999999999999999d4", "d99999999999999999999", "d8/d4/xyz", "\udcff", "'hard'", "None",
          "3..5", "5..3", "1..a", "a..b", "..", "1..", "..5", "-3..-1", "1..1", "0..100000", "1...3",
          "1..2..3", " 1 .. 3", "１..3", "99999999999999999999..99999999999999999999", "-5..5"]
SEEDS = ["0", "1", "-1", "42", "99999999999999999999999", "x", "", "1.5", "0x1", " 7", "\udcff"]
FACES = ["1", "6", "1,2,3", "6,6,6,6,6,6,6,6,6,6,6,6", "0", "-1", "7", "99999999999999999999", "a,b", ",", "",
         "1,,2", " 1, 2 ", "1;2", "1" + ",1" * 200, "1.5", "\udcff"]


def _party_word(name: str) -> st.SearchStrategy[str]:
    # Party numbers stay small: a large one once made the CLI build a list of that size
    # (tests/test_fuzz_found.py tests that in a child process).
    return st.builds(lambda k, v: f"party{k}.{name}={v}",
                     st.sampled_from(["1", "2", "3", "0", "-1", "x", "", "01", "9", "12", " 1", "1.5"]),
                     st.sampled_from(VALUES))


@st.composite
def ruleset_argv(draw) -> list[str]:
    command = draw(st.sampled_from(["roll", "roll", "odds", "odds", "show", "export"]))
    rid = draw(st.sampled_from(IDS * 4 + JUNK_WORDS[:6] + ["rulesets/gurps-4e.yaml", "/nonexistent/x.yaml",
                                                           "rulesets", "nope.yaml"]))
    runnables, inputs = SHIPPED.get(rid, SHIPPED[IDS[0]])
    if command == "export":
        return [command, rid] + draw(st.lists(st.sampled_from(JUNK_WORDS), max_size=1))
    name = draw(st.sampled_from(runnables * 3 + JUNK_WORDS[:8]))
    if command == "show":
        return [command, rid] + draw(st.lists(st.just(name), max_size=1))
    own, party = inputs.get(name, ([], []))
    words: list[str] = []
    # Mostly sensible inputs (so that the checks run), then a few hostile edits.
    for spec in own:
        if not (spec.has_default or spec.optional) or draw(st.booleans()):
            words.append(f"{spec.name}={draw(st.sampled_from(_good_values(spec)))}")
    for k in range(draw(st.sampled_from([0, 1, 2, 2, 2, 3]))) if party else ():
        for spec in party:
            if not (spec.has_default or spec.optional) or draw(st.integers(0, 3)) == 0:
                words.append(f"party{k + 1}.{spec.name}={draw(st.sampled_from(_good_values(spec)))}")
    known = [i.name for i in own + party]
    input_names = st.sampled_from(known + ["skil", "x", "", "party1", "nope"]) if known else \
        st.sampled_from(["skill", "x", ""])
    plain = st.builds(lambda n, v: f"{n}={v}", input_names, st.sampled_from(VALUES))
    hostile = st.one_of(plain, plain, input_names.flatmap(_party_word),
                        st.sampled_from(["skill", "=", "=3", "a=b=c", "party1.", "party.x=1"]))
    for _ in range(draw(st.sampled_from([0, 1, 1, 1, 2, 3]))):
        edit = draw(st.integers(0, 2))
        if edit == 0 or not words:
            words.insert(draw(st.integers(0, len(words))), draw(hostile))
        elif edit == 1:
            words[draw(st.integers(0, len(words) - 1))] = draw(hostile)
        else:
            del words[draw(st.integers(0, len(words) - 1))]
    options: list[str] = []
    if draw(st.booleans()):
        options.append("--json")
    if command == "roll":
        for flag, pool in (("--seed", SEEDS), ("--faces", FACES), ("--choose", FACES)):
            if draw(st.integers(0, 3)) == 0:
                options += [flag, draw(st.sampled_from(pool))]
    elif draw(st.integers(0, 3)) == 0:
        options.append("--csv")
    if draw(st.integers(0, 9)) == 0:
        options.append(draw(st.sampled_from(["--bogus", "--seed", "--faces", "-x", "--explode-depth=3"])))
    argv = [command, rid, name] + words + options
    if draw(st.integers(0, 9)) == 0:  # shuffled: options first, words moved
        argv = draw(st.permutations(argv))
    return argv


@st.composite
def dice_argv(draw) -> list[str]:
    expr = draw(st.one_of(expressions, wide_expressions, near_misses,
                          st.sampled_from(["", " ", "-", "--odds", "-3", "\udcff", "3d6", "1000000000d6", "d1!",
                                           "(" * 20000 + "1" + ")" * 20000, "100d100kh50", "x", "x+y"])))
    words = draw(st.lists(st.builds(lambda n, v: f"{n}={v}", st.sampled_from(["x", "y", "flag", "skill", "", "1x"]),
                                    st.sampled_from(["3", "-1", "0", "true", "12"] * 6 + VALUES)), max_size=3))
    options: list[str] = []
    for flag, pool in (("--seed", SEEDS), ("--faces", FACES),
                       ("--explode-depth", ["0", "1", "10", "-1", "x", "", "100000", "99999999999999999999"])):
        if draw(st.integers(0, 5)) == 0:
            options += [flag, draw(st.sampled_from(pool))]
    for flag in ("--odds", "--json"):
        if draw(st.booleans()):
            options.append(flag)
    return ["dice", "--", expr] + words + options if expr.startswith("-") and draw(st.booleans()) \
        else ["dice", expr] + words + options


@contextlib.contextmanager
def _catch_internal_errors():
    """See the exception behind an exit status 3: the CLI prints one line for it, which
    is right for users but not enough to tell a known bug from a new one."""
    caught: list[BaseException] = []
    saved = dict(cli.COMMANDS)

    def wrap(fn):
        def run(args):
            try:
                return fn(args)
            except (RulesEngineError, KeyboardInterrupt, BrokenPipeError):
                raise
            except Exception as exc:
                caught.append(exc)
                raise
        return run

    cli.COMMANDS.update({k: wrap(v) for k, v in saved.items()})
    try:
        yield caught
    finally:
        cli.COMMANDS.update(saved)


def check_cli(capsys, argv: list[str], kind: str) -> int:
    with measured(kind, argv) as outcome:
        with _catch_internal_errors() as caught:
            code = cli.main(argv)
        out, err = capsys.readouterr()
        if code == cli.EXIT_BUG and caught:
            bug = known_bug(caught[0])
            if bug is not None:
                outcome("known-bug:" + bug)
                return code
            raise caught[0]
        assert code in (0, 1, 2), (code, argv, err)
        assert "Traceback" not in err and "internal error" not in err, (argv, err)
        if code == 0:
            assert out, argv
        else:
            assert err.strip(), (argv, code)
            assert "error" in err, (argv, err)
        outcome(f"exit {code}")
        return code


@fuzz_settings(250, 20_000)
@given(ruleset_argv())
def test_roll_odds_show_export_exit_1_or_2_with_a_message(capsys, argv):
    check_cli(capsys, argv, "cli-rulesets")


@fuzz_settings(150, 10_000)
@given(dice_argv())
def test_dice_exits_1_or_2_with_a_message(capsys, argv):
    check_cli(capsys, argv, "cli-dice")


def test_the_cli_generators_reach_every_exit_status(capsys):
    seen = {check_cli(capsys, argv, "cli-sample") for argv in (
        ["roll", "gurps-4e", "success_roll", "skill=12", "--seed", "1"],
        ["roll", "gurps-4e", "success_roll", "skill=abc"],
        ["odds", "gurps-4e", "success_roll", "skill=a..b"],
        ["dice", "3d6", "--faces", "1,2"],
    )}
    assert seen == {0, 1, 2}
