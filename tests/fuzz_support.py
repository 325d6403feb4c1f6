"""Shared pieces of the fuzzing suite (tests/test_fuzz_*.py) and of bench/fuzz_figures.py.

* how many cases to run: a fast default, or the long run with ``RULESENGINE_LONG_FUZZ=1``;
* :func:`case_time_limit`: a per-case wall-clock limit, so that a hang fails one test with
  the input that hung instead of stalling the whole run;
* :func:`check_error`: what every error the engine raises must look like;
* mutators of ruleset YAML (text level and data level) and input values made from a
  check's input specs;
* counters (cases run, outcomes, worst time per case) written as JSON at exit when
  ``RULESENGINE_FUZZ_STATS=path`` is set, for bench/fuzz_figures.py.

Nothing here is collected by pytest (the file name does not start with ``test_``).
"""

from __future__ import annotations

import atexit
import contextlib
import copy
import dataclasses
import faulthandler
import json
import os
import random
import re
import signal
import string
import sys
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any
from collections.abc import Callable, Iterator

import yaml
from hypothesis import HealthCheck, settings

import rulesengine
from rulesengine.errors import LimitError, RulesEngineError
from rulesengine.limits import DEFAULT_LIMITS, Limits

ROOT = Path(__file__).resolve().parent.parent
RULESETS_DIR = ROOT / "rulesets"

# ---- how much to run ----------------------------------------------------------------------------

LONG = os.environ.get("RULESENGINE_LONG_FUZZ", "").strip() not in ("", "0", "false", "no")
"""True for the long run (``RULESENGINE_LONG_FUZZ=1``)."""


def examples(fast: int, long: int) -> int:
    """The number of cases of one fuzz test: ``fast`` by default, ``long`` in the long run.

    ``RULESENGINE_FUZZ_SCALE`` (a float, default 1) multiplies the long counts, for a run
    that must fit a time budget."""
    if not LONG:
        return fast
    scale = float(os.environ.get("RULESENGINE_FUZZ_SCALE", "1") or 1)
    return max(1, int(long * scale))


HANG_GUARD_SECONDS = 30.0
"""The shortest limit a test may put on a case's own CPU time, and only to catch a hang (the
process's CPU, not the clock: another program busy on the machine does not use it up). What the engine
must refuse is asserted by what it counts (its work budget, states, sizes), which is the same
on a fast idle machine and a slow busy one. Real times are figures in bench/."""

CASE_SECONDS = max(HANG_GUARD_SECONDS, float(os.environ.get("RULESENGINE_FUZZ_CASE_SECONDS", "30")))
"""CPU-time limit of one fuzz case: a hang guard (at least HANG_GUARD_SECONDS; the variable
may raise it). The hostile corpus in bench/fuzz_figures.py measures the real times."""


def fuzz_settings(fast: int, long: int, **kwargs: Any) -> settings:
    """Hypothesis settings for a fuzz test. No hypothesis ``deadline``: it only complains
    after a slow case has finished (and is flaky on a loaded machine); hangs are caught by
    :func:`case_time_limit` instead."""
    base = dict(
        max_examples=examples(fast, long),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                               HealthCheck.data_too_large, HealthCheck.function_scoped_fixture],
        print_blob=True,
    )
    base.update(kwargs)
    return settings(**base)


# ---- a per-case time limit ------------------------------------------------------------------------


class FuzzTimeout(BaseException):
    """Raised inside the engine by the timer. A BaseException, so that no ``except
    Exception`` on the way (the CLI has one) can swallow it; :func:`case_time_limit` turns
    it into an AssertionError that names the case."""


class CaseTimedOut(AssertionError):
    where: str | None = None  # the engine function that was running
    frames: list[str] = []  # every engine function on the stack


_PACKAGE = Path(rulesengine.__file__).resolve().parent


def engine_frames(exc: BaseException) -> list[str]:
    """``rulesengine/file.py:qualname`` of each frame of the engine in ``exc``'s traceback,
    outermost first."""
    found = []
    tb = exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        try:
            rel = Path(code.co_filename).resolve().relative_to(_PACKAGE)
        except ValueError:
            rel = None
        if rel is not None:
            found.append(f"rulesengine/{rel.as_posix()}:{getattr(code, 'co_qualname', code.co_name)}")
        tb = tb.tb_next
    return found


def engine_frame(exc: BaseException) -> str | None:
    """The innermost frame of the engine in ``exc``'s traceback."""
    frames = engine_frames(exc)
    return frames[-1] if frames else None


# Open bugs the fuzzers found, each pinned by a strict xfail test in tests/test_fuzz_found.py.
# While a bug is open, fuzz cases that hit it are counted as "known-bug:<id>" (and reported
# by bench/fuzz_figures.py) instead of failing every fuzz test; any other crash fails. When
# the engine is fixed, its xfail test starts passing (strict: it then fails, as a reminder
# to remove the mark and the entry here). The first fifteen were fixed in 70e3d8d, the
# sixteenth (a sweep's total work) later; their entries looked like:
#   ("dice-pool-huge-count", (OverflowError, MemoryError), "rulesengine/values.py:DicePool.parse"),
#   ("choose-enumerates-every-combination", (CaseTimedOut,), "rulesengine/check.py:CheckRunner._choose"),
#   ("sweep-work-unbudgeted", (CaseTimedOut,), "rulesengine/describe.py:sweep"),
KNOWN_BUGS: list[tuple[str, tuple[type[BaseException], ...], str]] = [
    # (id, exception types, "file:qualname" prefix of an engine function on the stack)
]


def known_bug(exc: BaseException) -> str | None:
    """The id of the open bug ``exc`` is an instance of, or None (a new crash)."""
    # Matched by the type and any engine function on the stack (for a hang: the stack the
    # timer interrupted).
    frames = exc.frames if isinstance(exc, CaseTimedOut) else engine_frames(exc)
    for bug, types, frame in KNOWN_BUGS:
        if isinstance(exc, types) and any(f.startswith(frame) for f in frames):
            return bug
    return None


BACKSTOP_SECONDS = 1800
"""Wall clock after which a case stuck in one C call (which no CPU timer interrupts) ends
the process with every thread's stack: only a real hang comes near it."""


@contextlib.contextmanager
def case_time_limit(what: Any, seconds: float | None = None) -> Iterator[None]:
    """Fail with a clear message if the body hangs: uses more than ``seconds`` of this
    process's CPU time (``ITIMER_PROF``: a busy machine slows the case down but does not use
    its CPU time up; default CASE_SECONDS). A limit under HANG_GUARD_SECONDS is refused: it would be a speed
    assertion, which belongs in bench/.

    Uses SIGPROF (``setitimer``), so it interrupts Python code but not one long C call;
    for that, ``faulthandler`` is armed as a backstop after BACKSTOP_SECONDS of wall clock, far
    past what any case takes on a busy machine: it prints every thread's stack and ends the
    process, so CI fails instead of hanging. Outside the main
    thread, or on a platform without SIGPROF, the body just runs."""
    seconds = CASE_SECONDS if seconds is None else seconds
    if seconds < HANG_GUARD_SECONDS:
        raise ValueError(f"case_time_limit({seconds:g} s) is a speed assertion, not a hang guard "
                         f"(at least {HANG_GUARD_SECONDS:g} s)")
    usable = hasattr(signal, "ITIMER_PROF") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def on_alarm(signum, frame):  # pragma: no cover - only on a hang
        raise FuzzTimeout()

    old = signal.signal(signal.SIGPROF, on_alarm)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:  # sys.stderr may be replaced by one without a file descriptor (capsys)
        faulthandler.dump_traceback_later(max(BACKSTOP_SECONDS, seconds * 4), exit=True, file=sys.__stderr__)
    except (AttributeError, ValueError, OSError):
        pass
    try:
        yield
    except FuzzTimeout as exc:
        where = engine_frame(exc)
        err = CaseTimedOut(f"fuzz case still running after {seconds:g} s of CPU (a hang?) in {where or '?'}: "
                           f"{_short(what)}")
        err.where, err.frames = where, engine_frames(exc)
        raise err from None
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)
        faulthandler.cancel_dump_traceback_later()


def _short(what: Any, n: int = 300) -> str:
    text = repr(what)
    return text if len(text) <= n else text[:n] + f"... ({len(text)} characters)"


# ---- the exact-odds budget is charged before the work ---------------------------------------------


@contextlib.contextmanager
def budgets_watched(max_states: int) -> Iterator[list[str]]:
    """Watch every work budget charged in the block; the yielded list gains a line for
    each breach of the promise that a refusal is as cheap as the limit says:

    - a budget charged again after it refused (work going on past a refusal, or a
      refusal swallowed);
    - work charged to a budget larger than ``max_states`` (the unlimited default budget
      of ``dist`` reached from an exact-odds path that forgot to pass its own);
    - a budget that accepted more than its limit in all.

    Counted in steps, so the check is the same on every machine."""
    from rulesengine.dice import dist

    breaches: list[str] = []
    refused: set[int] = set()
    real = dist.Budget.spend

    def spend(budget, amount):
        if id(budget) in refused:
            breaches.append(f"a budget charged {amount:,} steps after it refused")
        if budget.limit > max_states and amount:
            breaches.append(f"{amount:,} steps charged to an unlimited budget")
        try:
            real(budget, amount)
        except dist.BudgetExceeded:
            refused.add(id(budget))
            if budget.used - amount > budget.limit:
                breaches.append(f"a budget accepted {budget.used - amount:,} steps, over {budget.limit:,}")
            raise

    dist.Budget.spend = spend
    try:
        yield breaches
    finally:
        dist.Budget.spend = real


# ---- statistics for the figures ---------------------------------------------------------------------


@dataclasses.dataclass
class _Kind:
    cases: int = 0
    outcomes: Counter = dataclasses.field(default_factory=Counter)
    worst_seconds: float = 0.0
    worst_case: str = ""
    total_seconds: float = 0.0


STATS: dict[str, _Kind] = defaultdict(_Kind)


@contextlib.contextmanager
def measured(kind: str, what: Any, limit: bool = True) -> Iterator[Callable[[str], None]]:
    """Time one case under :func:`case_time_limit` and count it under ``kind``. The body
    calls the yielded function with its outcome ("ok", an error code...). An exception of
    an open bug (:data:`KNOWN_BUGS`) is counted and swallowed; any other propagates.
    ``limit=False``: no time limit here (the body limits its steps one by one: the timer
    cannot nest)."""
    outcome = ["ok"]
    start = time.perf_counter()
    try:
        with case_time_limit(what) if limit else contextlib.nullcontext():
            yield lambda o: outcome.__setitem__(0, o)
    except Exception as exc:
        bug = known_bug(exc)
        if bug is None:
            raise
        outcome[0] = "known-bug:" + bug
    took = time.perf_counter() - start
    k = STATS[kind]
    k.cases += 1
    k.outcomes[outcome[0]] += 1
    k.total_seconds += took
    if took > k.worst_seconds:
        k.worst_seconds, k.worst_case = took, _short(what, 120)


def _dump_stats() -> None:
    path = os.environ.get("RULESENGINE_FUZZ_STATS")
    if not path or not STATS:
        return
    data = {kind: {"cases": k.cases, "outcomes": dict(k.outcomes.most_common()),
                   "worst_seconds": round(k.worst_seconds, 4), "worst_case": k.worst_case,
                   "total_seconds": round(k.total_seconds, 2)}
            for kind, k in sorted(STATS.items())}
    Path(path).write_text(json.dumps(data, indent=2), encoding="utf-8")


atexit.register(_dump_stats)


# ---- one case in a child process, with a memory limit ---------------------------------------------


@dataclasses.dataclass
class ChildRun:
    returncode: int | None
    stdout: str
    stderr: str
    seconds: float
    peak_mb: float  # the child's own peak resident memory (ru_maxrss), Python start-up included
    timed_out: bool


def run_child(code: str, timeout: float = HANG_GUARD_SECONDS, memory_mb: int | None = None,
              env: dict[str, str] | None = None) -> ChildRun:
    """Run ``python -c code`` with ``RLIMIT_AS`` (so a runaway allocation is a MemoryError,
    not a machine out of memory) and a hang guard (the child is killed after ``timeout`` s). The peak
    memory is the child's own, from ``os.wait4``. POSIX only."""
    import resource
    import subprocess
    import tempfile

    def limit() -> None:  # pragma: no cover - runs in the child
        if memory_mb is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory_mb * 2**20, memory_mb * 2**20))

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-c", code], stdout=out, stderr=err, preexec_fn=limit,
                                cwd=str(ROOT), env={**os.environ, **(env or {})})
        fired = threading.Event()

        def kill() -> None:
            fired.set()
            proc.kill()

        timer = threading.Timer(timeout, kill)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return ChildRun(proc.returncode, out.read().decode("utf-8", "replace"),
                        err.read().decode("utf-8", "replace"), seconds, usage.ru_maxrss / 1024, fired.is_set())


def cli_code(argv: list[str]) -> str:
    """Python code that runs the CLI with ``argv`` and exits with its status."""
    return f"import sys; from rulesengine.cli import main; sys.exit(main({argv!r}))"


# ---- what an error must look like -----------------------------------------------------------------

LIMIT_NAMES = frozenset(f.name for f in dataclasses.fields(Limits)) | {"max_rounds", "max_tie_rounds"}
"""Names a LimitError may give: the fields of Limits, the round cap of extended checks and
the times a contest's tie is rolled again."""

_CODE = re.compile(r"^[EW]\d{3}$")


def check_error(exc: RulesEngineError, text: str | None = None) -> str:
    """Assert that ``exc`` is a well-formed project error; return its code.

    ``text``: the dice expression it came from (its column must fall inside it, or just
    after its end)."""
    assert isinstance(exc, RulesEngineError), type(exc)
    assert _CODE.match(exc.code), f"bad code {exc.code!r}"
    assert exc.message and "\n" not in exc.message, repr(exc.message)
    assert isinstance(str(exc), str)
    if isinstance(exc, LimitError):
        assert exc.limit in LIMIT_NAMES, f"LimitError names an unknown limit {exc.limit!r}"
    loc = exc.location
    if loc.column is not None:
        assert loc.column >= 1, loc
    if loc.line is not None:
        assert loc.line >= 1, loc
    if text is not None and loc.path is None and loc.column is not None:
        assert loc.column <= len(text) + 1, (loc.column, len(text))
    exc.render()  # rendering (caret, hint) never fails
    return exc.code


# ---- ruleset mutations --------------------------------------------------------------------------------


def shipped_texts() -> dict[str, str]:
    """The shipped rulesets' text, read now (other people may be editing them)."""
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted(RULESETS_DIR.glob("*.yaml"))}


_KEY_LINE = re.compile(r"^(\s*)(- )?([A-Za-z_][\w-]*):(\s|$)")
_VALUE_LINE = re.compile(r"^(\s*(?:- )?[A-Za-z_][\w-]*:[ ]+)(\S.*)$")
_EXPR_KEYS = ("roll", "when", "result", "value", "secret", "rank_by", "winner_result", "succeed_when",
              "fail_when", "max_rounds", "bonus", "roller", "ruin_when", "precision", "impact")
_IDENT = re.compile(r"\b[a-z_][a-z0-9_]{2,}\b")

JUNK_VALUES = [
    "[]", "{}", "~", "yes", "no", "3.5", '""', "''", "-1", "0", "1", "99999999999999999999",
    "-99999999999999999999", "1e400", ".inf", ".nan", "[1, 2]", "{a: 1}", "!!str 3", "!!int '7'",
    "'1d6'", "d20", "*nowhere", "&x", "!!python/object:os.system", "!custom x", "2024-01-01",
    "0x1F", "0o17", "1:30", "'" + "9" * 5000 + "'", "|\n  multi\n  line", ">-\n  folded",
    "'(((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((1'",
]

JUNK_EXPRESSIONS = [
    "1000000000d6", "d1!", "d1000000000", "(" * 80 + "1" + ")" * 80, "100d100kh50", "10000d6!",
    "d6!!p", "1/0", "9" * 40, "10 ** 10", "1 < 2 < 3", "unknown_name + 1", "foo(1)", "abs()",
    "d{}", "d{" + ",".join(["1"] * 1200) + "}", "(0-1)d6", "roll roll", "'text' + 1", "true + 1",
    "min()", "max(1)", "round(1/0)", "count(3)", "highest(1)", "drop_lowest(3)", "given(1)",
    "if(true)", "if(1, 2, 3)", "result", "outcome", "chosen", "success + 1",
    "3d6" + "+3d6" * 300, "-" * 70 + "1", "not " * 70 + "true",
]

JUNK_TEXT = [
    "\t", "\x00", "\x1b", "{", "}", "[", "]", ":", ": ", "- ", "---\n", "...\n", "%YAML 1.1\n", "? ",
    "&a ", "*a", "!!python/object/apply:os.system ['true']", "<<: *a\n", "#", "'", '"', "|", ">",
    "\ufeff", "\u2028", "\ud7ff", "é", "😀", "\r", "\r\n", "@", "`", "%", "!", "!!binary aGk=",
    "\n" + "  " * 40 + "x: 1\n", "a: &b [*b]\n",
]


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _block_end(lines: list[str], i: int) -> int:
    """The index just after the block that starts at key line ``i`` (its more-indented lines)."""
    indent = len(lines[i]) - len(lines[i].lstrip(" "))
    if lines[i].lstrip(" ").startswith("- "):
        indent += 2
    j = i + 1
    while j < len(lines):
        line = lines[j]
        if line.strip() and (len(line) - len(line.lstrip(" "))) <= indent and not line.lstrip().startswith("#"):
            break
        j += 1
    return j


def _key_lines(lines: list[str]) -> list[int]:
    return [i for i, line in enumerate(lines) if _KEY_LINE.match(line)]


def _pick(r: random.Random, seq):
    return seq[r.randrange(len(seq))] if seq else None


def mutate_delete_key(r: random.Random, text: str) -> str:
    lines = _lines(text)
    i = _pick(r, _key_lines(lines))
    if i is None:
        return text
    return "\n".join(lines[:i] + lines[_block_end(lines, i):])


def mutate_duplicate_key(r: random.Random, text: str) -> str:
    lines = _lines(text)
    i = _pick(r, _key_lines(lines))
    if i is None:
        return text
    j = _block_end(lines, i)
    block = [line.replace("- ", "  ", 1) if k == 0 and line.lstrip().startswith("- ") else line
             for k, line in enumerate(lines[i:j])]
    return "\n".join(lines[:j] + block + lines[j:])


def mutate_change_type(r: random.Random, text: str) -> str:
    lines = _lines(text)
    candidates = [i for i, line in enumerate(lines) if _VALUE_LINE.match(line)]
    i = _pick(r, candidates)
    if i is None:
        return text
    m = _VALUE_LINE.match(lines[i])
    indent = " " * (len(m.group(1)) - len(m.group(1).lstrip()) + 2)
    junk = r.choice(JUNK_VALUES).replace("\n", "\n" + indent)
    lines[i] = m.group(1) + junk
    return "\n".join(lines)


def mutate_number(r: random.Random, text: str) -> str:
    """A number somewhere becomes an extreme one (bounds, pick, parties, rounds, faces...)."""
    spots = [m for m in re.finditer(r"(?<![\w.])-?\d+(?![\w.])", text)]
    m = _pick(r, spots)
    if m is None:
        return text
    new = r.choice(["0", "-1", "1", "2", "7", "8", "9", "10", "11", "100", "1000", "1001", "100000",
                    "1000000000", "-1000000000", str(10**15), str(10**16), str(10**30), "-" + str(10**30)])
    return text[:m.start()] + new + text[m.end():]


def mutate_swap_name(r: random.Random, text: str) -> str:
    """One identifier (a name of an input, check, table, outcome, value...) becomes another
    identifier of the file, or a near miss of itself."""
    spots = list(_IDENT.finditer(text))
    if not spots:
        return text
    m = r.choice(spots)
    names = sorted({s.group() for s in spots})
    if r.random() < 0.7:
        new = r.choice(names)
    else:
        word = m.group()
        k = r.randrange(len(word))
        new = word[:k] + r.choice(string.ascii_lowercase + "_0") + word[k + 1:]
    return text[:m.start()] + new + text[m.end():]


def mutate_alias(r: random.Random, text: str) -> str:
    """Anchor one value and alias it from another place, or alias something that does not
    exist, or plant a small alias bomb."""
    lines = _lines(text)
    values = [i for i, line in enumerate(lines) if _VALUE_LINE.match(line)]
    keys = _key_lines(lines)
    choice = r.random()
    if choice < 0.15:
        bomb = ["bomb0: &b0 [x, x, x, x, x, x, x, x, x, x]"]
        bomb += [f"bomb{k}: &b{k} [" + ", ".join([f"*b{k - 1}"] * 10) + "]" for k in range(1, 9)]
        at = r.randrange(len(lines) + 1)
        return "\n".join(lines[:at] + bomb + lines[at:])
    if choice < 0.3 and values:
        i = r.choice(values)
        m = _VALUE_LINE.match(lines[i])
        lines[i] = m.group(1) + r.choice(["*undefined", "*", "&", "*a *b", "&a *a"])
        return "\n".join(lines)
    if not keys or not values:
        return text
    src = r.choice(keys)
    dst = r.choice(values)
    m = _KEY_LINE.match(lines[src])
    anchor = f"anc{r.randrange(1000)}"
    rest = lines[src][m.end():].rstrip()
    if rest and not rest.startswith("#"):
        lines[src] = lines[src][:m.end()] + f"&{anchor} " + lines[src][m.end():].lstrip()
    else:
        lines[src] = lines[src].rstrip() + f" &{anchor}"
    md = _VALUE_LINE.match(lines[dst])
    lines[dst] = md.group(1) + f"*{anchor}"
    return "\n".join(lines)


def mutate_expression(r: random.Random, text: str) -> str:
    """Break one expression: a junk expression, or a near miss of the one there."""
    lines = _lines(text)
    spots = []
    for i, line in enumerate(lines):
        m = _VALUE_LINE.match(line)
        if m and re.match(r"\s*(- )?(" + "|".join(_EXPR_KEYS) + r"|[a-z_]+):", line):
            spots.append(i)
    i = _pick(r, spots)
    if i is None:
        return text
    m = _VALUE_LINE.match(lines[i])
    value = m.group(2)
    if r.random() < 0.5:
        new = r.choice(JUNK_EXPRESSIONS)
    else:
        k = r.randrange(len(value) + 1)
        insert = r.choice(["(", ")", "d", "!", "+", " and ", " or ", "not ", "kh", "r", ",", "'", "[x]",
                           "1000000", "d0", "<", "==", "", "min(", "@", "**", "/0"])
        new = value[:k] + insert + value[k + r.randrange(0, 3):]
    if new[:1] in "'\"&*!|>%@`{[" or ": " in new or " #" in new:
        new = "'" + new.replace("'", "''") + "'"
    lines[i] = m.group(1) + new
    return "\n".join(lines)


def mutate_truncate(r: random.Random, text: str) -> str:
    return text[: r.randrange(len(text) + 1)]


def mutate_junk(r: random.Random, text: str) -> str:
    at = r.randrange(len(text) + 1)
    return text[:at] + r.choice(JUNK_TEXT) + text[at:]


def mutate_indent(r: random.Random, text: str) -> str:
    lines = _lines(text)
    i = r.randrange(len(lines))
    if r.random() < 0.5:
        lines[i] = " " * r.choice([1, 2, 3, 4]) + lines[i]
    else:
        lines[i] = lines[i][r.choice([1, 2, 4]):] if lines[i].startswith(" ") else lines[i]
    return "\n".join(lines)


def mutate_swap_lines(r: random.Random, text: str) -> str:
    lines = _lines(text)
    if len(lines) < 2:
        return text
    i, j = r.randrange(len(lines)), r.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


TEXT_MUTATORS = {
    "delete_key": mutate_delete_key,
    "duplicate_key": mutate_duplicate_key,
    "change_type": mutate_change_type,
    "number": mutate_number,
    "swap_name": mutate_swap_name,
    "alias": mutate_alias,
    "expression": mutate_expression,
    "truncate": mutate_truncate,
    "junk": mutate_junk,
    "indent": mutate_indent,
    "swap_lines": mutate_swap_lines,
}


# Data-level mutations: load the YAML (plain data), change it, dump it again. These reach
# the schema and semantic layers far more often than text edits, which mostly break YAML.

def _paths(data: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    yield path, data
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _paths(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _paths(v, path + (i,))


def _get(data: Any, path: tuple) -> Any:
    for p in path:
        data = data[p]
    return data


DATA_VALUES: list[Any] = [
    None, True, False, 0, -1, 1, 2, 10, 11, 1000, 1001, 10**6, 10**15, 10**16, -10**16, 10**30, 1.5,
    "", "x", "d6", "3d6", "1d20 + 5", "100d100kh50", "1000000000d6", "d1!", "skill", "result", "roll",
    "highest", "stand", "reroll", "contest", "extended", "integer", "boolean", "choice", "dice_pool",
    [], {}, [1, 2], ["result"], {"min": 5, "max": 1}, {"type": "integer"}, "9" * 50,
]


def mutate_data(r: random.Random, data: Any) -> Any:
    """One random change to plain YAML data (a deep copy is changed and returned)."""
    data = copy.deepcopy(data)
    spots = [(p, v) for p, v in _paths(data) if p]
    if not spots:
        return data
    path, value = r.choice(spots)
    parent = _get(data, path[:-1])
    key = path[-1]
    op = r.random()
    if op < 0.2:  # delete
        del parent[key]
    elif op < 0.45:  # another value, another type
        parent[key] = copy.deepcopy(r.choice(DATA_VALUES + [v for _, v in r.sample(spots, min(3, len(spots)))]))
    elif op < 0.6 and isinstance(parent, dict):  # rename the key
        names = [p[-1] for p, _ in spots if isinstance(p[-1], str)]
        new = r.choice(names + ["min", "max", "default", "when", "roll", "x"])
        parent[new] = parent.pop(key)
    elif op < 0.7 and isinstance(value, str):  # break the expression a little
        k = r.randrange(len(value) + 1)
        parent[key] = value[:k] + r.choice(["(", ")", "d", "!", "+", "kh", " or ", "1000000", "'", ""]) \
            + value[k + r.randrange(0, 3):]
    elif op < 0.8:  # copy another subtree here
        parent[key] = copy.deepcopy(r.choice(spots)[1])
    elif op < 0.9 and isinstance(value, (int, float)) and not isinstance(value, bool):
        parent[key] = r.choice([0, -1, 1, 2, 8, 9, 10, 11, 100, 1000, 1001, 10**6, 10**15, 10**16, -value])
    elif isinstance(parent, list):  # duplicate or reorder list items
        parent.insert(r.randrange(len(parent) + 1), copy.deepcopy(r.choice(parent)))
    else:
        parent[key] = r.choice(JUNK_EXPRESSIONS)
    return data


def _dump(data: Any) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=10_000)


_PARSED: dict[str, Any] = {}


def mutate_ruleset(r: random.Random, name: str, text: str) -> tuple[str, list[str]]:
    """1 to 3 mutations of a ruleset: data-level ones first (on the parsed file), then text
    ones. Returns the mutant and the names of the mutations, for the failure message."""
    done: list[str] = []
    if r.random() < 0.5:
        if name not in _PARSED:
            _PARSED[name] = yaml.safe_load(text)
        data = _PARSED[name]
        for _ in range(r.choice([1, 1, 2, 3])):
            data = mutate_data(r, data)
        text = _dump(data)
        done.append("data")
        if r.random() < 0.5:
            return text, done
    for _ in range(r.choice([1, 1, 1, 2, 3])):
        kind = r.choice(list(TEXT_MUTATORS))
        text = TEXT_MUTATORS[kind](r, text)
        done.append(kind)
    return text, done


# ---- inputs made from a check's input specs -------------------------------------------------------------

HOSTILE_VALUES: list[Any] = ["abc", "", " 3 ", "1.5", "1e3", "99999999999999999999", 10**20, -10**20,
                             True, None, "true", "d6", "100d100"]


def input_sets(specs, r: random.Random | None = None, hostile: bool = True) -> list[dict[str, Any]]:
    """Input mappings for a check or procedure: the defaults (a value for each required
    input), then one input at a time at its min, its max, each choice, true; then (with
    ``hostile``) a few out-of-range and ill-typed values."""
    base: dict[str, Any] = {}
    for spec in specs:
        if spec.has_default:
            continue
        if spec.optional:
            continue
        if spec.type == "integer":
            v = spec.min if spec.min is not None else (spec.max if spec.max is not None else 10)
        elif spec.type == "boolean":
            v = False
        elif spec.type == "choice":
            v = spec.choices[0] if spec.choices else "x"
        else:
            v = "d8/d4/d4"
        base[spec.name] = v
    out = [base]
    for spec in specs:
        values: list[Any] = []
        if spec.type == "integer":
            values += [v for v in (spec.min, spec.max) if v is not None]
            if spec.min is not None and spec.max is not None and spec.min <= spec.max:
                values.append((spec.min + spec.max) // 2)
        elif spec.type == "boolean":
            values += [True, "no"]
        elif spec.type == "choice":
            values += list(spec.choices)[:4]
        else:
            values += ["d12/d10/d8/d6/d4", "d6", "3d8", "d4/d4/d4/d4/d4/d4/d4/d4"]
        if hostile:
            if spec.type == "integer":
                values += [v for v in ((spec.min - 1) if spec.min is not None else None,
                                       (spec.max + 1) if spec.max is not None else None) if v is not None]
            values.append(r.choice(HOSTILE_VALUES) if r else "abc")
        out += [{**base, spec.name: v} for v in values]
    if hostile:
        out.append({**base, "no_such_input": 1})
    return out


def cap(r: random.Random, items: list, n: int) -> list:
    """The first item (the defaults) and up to ``n - 1`` others, chosen at random."""
    if len(items) <= n:
        return items
    return items[:1] + r.sample(items[1:], n - 1)


def run_ruleset(rs, r: random.Random, per_check: int | None = 6, inside: int | None = None,
                failures: list[str] | None = None, allowed: frozenset[str] = frozenset()) -> Counter:
    """Roll and get the odds of every check and procedure of a loaded ruleset, with input
    sets made from their specs, each call under :func:`case_time_limit` and
    :func:`budgets_watched`. Anything but a
    result, a RulesEngineError or an open bug propagates. Returns a count of outcomes ("ok",
    an error code, "known-bug:<id>").

    ``inside``: only inputs inside the declared bounds (:func:`inside_input_sets`, with that
    many random sets besides the boundary ones, which ``per_check`` caps; None: all of them).
    ``failures``: each call whose error code is not in ``allowed`` is appended there, as the
    call and its rendered error."""
    seen: Counter = Counter()

    def sets_for(specs, hostile: bool = True) -> list[dict[str, Any]]:
        if inside is None:
            return input_sets(specs, r, hostile=hostile)
        made = inside_input_sets(specs, r, inside)
        bounds, randoms = made[:len(made) - inside], made[len(made) - inside:]
        return (bounds if per_check is None else cap(r, bounds, per_check)) + randoms

    def attempt(fn: Callable[[], Any], what: str) -> None:
        try:
            with case_time_limit(what), budgets_watched(rs.limits.max_states) as breaches:
                try:
                    fn()
                finally:
                    assert not breaches, (what, breaches[:3])
            seen["ok"] += 1
        except RulesEngineError as exc:
            code = check_error(exc)
            seen[code] += 1
            if failures is not None and code not in allowed:
                failures.append(f"{what}: {exc.render()}")
        except Exception as exc:
            bug = known_bug(exc)
            if bug is None:
                raise
            seen["known-bug:" + bug] += 1

    for name in rs.checks():
        check = rs.check(name)
        made = sets_for(check.model.inputs)
        for inputs in made if inside is not None else cap(r, made, per_check or len(made)):
            attempt(lambda: check.roll(inputs, seed=r.randrange(1 << 30)), f"roll {name} {inputs!r}")
            attempt(lambda: check.odds(inputs), f"odds {name} {inputs!r}")
    for name in rs.procedures():
        proc = rs.procedure(name)
        party_specs = rs.check(rs.model.procedures[name].check).model.inputs
        own = sets_for(proc.proc.inputs, hostile=False)
        parties = sets_for(party_specs, hostile=False)
        for k in range(min(per_check or len(own), 3)):
            inputs = own[k % len(own)]
            group = [parties[(k + j) % len(parties)] for j in range(r.choice([0, 1, 2, 2, 3]))]
            attempt(lambda: proc.roll(inputs, parties=group or None, seed=r.randrange(1 << 30)),
                    f"roll {name} {inputs!r} parties={group!r}")
            attempt(lambda: proc.odds(inputs, parties=group or None), f"odds {name} {inputs!r} parties={group!r}")
        # Every party alike: two parties who both skip the roll (sure of the same result)
        # tie forever when ties roll again, a contest no roll can decide (E510).
        switches = [p for p in parties[1:] if any(type(v) is bool for v in p.values())]
        for alike in switches + cap(r, [p for p in parties if p not in switches], 2):
            group = [alike] * r.choice([2, 2, 3])
            attempt(lambda: proc.odds(own[0], parties=group), f"odds {name} {own[0]!r} parties={group!r}")
    return seen


def limits_for_fuzz(r: random.Random) -> Limits:
    """Default limits, or smaller ones (so that each limit is hit often)."""
    if r.random() < 0.6:
        return DEFAULT_LIMITS
    return dataclasses.replace(
        DEFAULT_LIMITS,
        max_expression_length=r.choice([5, 20, 1000]),
        max_nesting_depth=r.choice([1, 3, 64]),
        max_dice=r.choice([0, 1, 5, 100, 10_000]),
        max_sides=r.choice([1, 6, 1000, 1_000_000]),
        max_custom_faces=r.choice([1, 2, 1000]),
        max_magnitude=r.choice([1, 10, 1000, 10**15]),
        explode_depth=r.choice([0, 1, 3, 10]),
        reroll_depth=r.choice([0, 1, 5, 50]),
        max_states=r.choice([1, 100, 10_000, 2_000_000]),
    )


# A check that chooses ten dice of a pool: the fuzzing find behind max_choices, used by the
# tests of that limit and by bench/fuzz_figures.py.
PICK_TEN = """\
ruleset: pick-ten
name: Keep ten dice of a pool
version: "1"
source: {title: a fuzzing find}
checks:
  action:
    inputs:
      pool: {type: dice_pool}
    roll: pool
    choose:
      from: roll
      pick: 10
      values: {total: sum(chosen)}
      order: [total]
    result: total
    outcomes:
      - {name: done, success: true}
"""


# ---- semantic mutations: the mistakes a homebrewer makes (issue 32) ------------------------------------
#
# Each takes the parsed file (yaml.safe_load) and changes one thing the way an author slips:
# a bound off by one, an operator turned round, another dialect, a typo on a die's face, a
# number written as text, outcome rules reordered or lost. It returns a description of what
# it did (for the failure message), or None when the file has no place for it.

_TEST_RULESET_GLOBS = ("tests/rulesets/data/*.yaml", "tests/compat/*/rulesets/*.yaml",
                       "tests/compat/*/test-rulesets/*.yaml", "tests/corpus/mistakes/W*.yaml")
"""The test suite's ruleset files that plain validate accepts (the corpus's E* mistakes are
refused on purpose; its W* mistakes pass plain validate with a warning)."""


def _inline_rulesets(path: Path) -> Iterator[tuple[str, str]]:
    """The rulesets written inline in a test file: string constants that load as a mapping
    with ``checks`` or ``procedures``."""
    import ast

    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (SyntaxError, UnicodeDecodeError):
        return
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            continue
        text = node.value
        if "ruleset:" not in text or ("checks:" not in text and "procedures:" not in text):
            continue
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError:
            continue
        if isinstance(data, dict) and isinstance(data.get("checks", data.get("procedures")), dict):
            yield f"{path.relative_to(ROOT).as_posix()}:{node.lineno}", text


def promise_texts() -> dict[str, str]:
    """Every shipped ruleset and every test ruleset (files and the rulesets written inline in
    the tests), by a name that says where it lives."""
    texts = {f"rulesets/{name}": text for name, text in shipped_texts().items()}
    for pattern in _TEST_RULESET_GLOBS:
        for p in sorted(ROOT.glob(pattern)):
            texts[p.relative_to(ROOT).as_posix()] = p.read_text(encoding="utf-8")
    for p in sorted((ROOT / "tests").rglob("test_*.py")):
        texts.update(_inline_rulesets(p))
    return texts


def _spots(data: Any, want: Callable[[tuple, Any], bool]) -> list[tuple[tuple, Any]]:
    return [(p, v) for p, v in _paths(data) if p and want(p, v)]


def _where(path: tuple) -> str:
    return ".".join(str(p) for p in path)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def sem_off_by_one(r: random.Random, data: Any) -> str | None:
    """An input's (or a band's) min one lower or max one higher."""
    spots = _spots(data, lambda p, v: p[-1] in ("min", "max") and _is_int(v))
    if not spots:
        return None
    path, v = r.choice(spots)
    new = v - 1 if path[-1] == "min" else v + 1
    _get(data, path[:-1])[path[-1]] = new
    return f"off_by_one {_where(path)} {v}->{new}"


_EXPR_FIELDS = frozenset(_EXPR_KEYS) | {"let", "values", "from", "keep", "count", "total"}
_SKIP_TEXT = frozenset({"name", "help", "description", "label", "reason", "title", "author", "publisher",
                        "url", "section", "license", "source", "ruleset", "version", "type", "rules",
                        "kind", "choices", "dialect", "pointer", "labels", "column"})
_OPERATOR = re.compile(r"<=|>=|<|>|\+|(?<=[\w)\s])-(?=[\w(\s])")
_SWAP = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "+": "-", "-": "+"}


def _expression_spot(path: tuple, v: Any) -> bool:
    if not isinstance(v, str) or not _OPERATOR.search(v):
        return False
    keys = [p for p in path if isinstance(p, str)]
    return bool(keys) and keys[-1] not in _SKIP_TEXT and path[0] in ("checks", "procedures", "tables")


def sem_operator(r: random.Random, data: Any) -> str | None:
    """One operator of an expression turned round: < and <=, > and >=, + and -."""
    spots = _spots(data, _expression_spot)
    if not spots:
        return None
    path, v = r.choice(spots)
    m = r.choice(list(_OPERATOR.finditer(v)))
    new = v[:m.start()] + _SWAP[m.group()] + v[m.end():]
    _get(data, path[:-1])[path[-1]] = new
    return f"operator {_where(path)} {v!r}->{new!r}"


def sem_dialect(r: random.Random, data: Any) -> str | None:
    """Another dialect: one added, removed or changed."""
    from rulesengine.dice.dialects import DIALECTS

    if not isinstance(data, dict):
        return None
    old = data.get("dialect")
    choices = [d for d in DIALECTS if d != old] + ([None] if old is not None else [])
    new = r.choice(choices)
    if new is None:
        del data["dialect"]
    else:
        data["dialect"] = new
    return f"dialect {old}->{new}"


def sem_symbol_typo(r: random.Random, data: Any) -> str | None:
    """A symbol on one face of a declared die misspelled (a letter dropped, doubled or
    changed), or turned into another symbol of the die."""
    dice = data.get("dice") if isinstance(data, dict) else None
    if not isinstance(dice, dict):
        return None
    spots = _spots(dice, lambda p, v: isinstance(v, str) and "faces" in p)
    if not spots:
        return None
    path, v = r.choice(spots)
    others = sorted({s for _, s in spots if s != v})
    k = r.randrange(len(v))
    how = r.random()
    if others and how < 0.25:
        new = r.choice(others)
    elif how < 0.5 and len(v) > 1:
        new = v[:k] + v[k + 1:]
    elif how < 0.75:
        new = v[:k] + v[k] + v[k:]
    else:
        new = v[:k] + r.choice(string.ascii_lowercase) + v[k + 1:]
    _get(dice, path[:-1])[path[-1]] = new
    return f"symbol_typo dice.{_where(path)} {v!r}->{new!r}"


def sem_quoted_number(r: random.Random, data: Any) -> str | None:
    """A number in a table written as text: 3 becomes "3" or "+3"."""
    tables = data.get("tables") if isinstance(data, dict) else None
    if not isinstance(tables, dict):
        return None
    spots = _spots(tables, lambda p, v: _is_int(v))
    if not spots:
        return None
    path, v = r.choice(spots)
    new = r.choice([str(v), f"+{v}" if v >= 0 else str(v)])
    _get(tables, path[:-1])[path[-1]] = new
    return f"quoted_number tables.{_where(path)} {v!r}->{new!r}"


def _outcome_lists(data: Any) -> list[tuple[tuple, list]]:
    return [(p, v) for p, v in _paths(data) if p and p[-1] == "outcomes" and isinstance(v, list) and v]


def sem_reorder_outcomes(r: random.Random, data: Any) -> str | None:
    """Outcome rules in another order (two swapped, or all shuffled)."""
    spots = [(p, v) for p, v in _outcome_lists(data) if len(v) > 1]
    if not spots:
        return None
    path, rules = r.choice(spots)
    if r.random() < 0.5:
        i = r.randrange(len(rules) - 1)
        rules[i], rules[i + 1] = rules[i + 1], rules[i]
        return f"reorder_outcomes {_where(path)} swapped {i} and {i + 1}"
    r.shuffle(rules)
    return f"reorder_outcomes {_where(path)} shuffled"


def sem_remove_outcome(r: random.Random, data: Any) -> str | None:
    """One outcome rule removed."""
    spots = [(p, v) for p, v in _outcome_lists(data) if len(v) > 1]
    if not spots:
        return None
    path, rules = r.choice(spots)
    i = r.randrange(len(rules))
    del rules[i]
    return f"remove_outcome {_where(path)}[{i}]"


def sem_last_outcome_never(r: random.Random, data: Any) -> str | None:
    """The last outcome rule given ``when: "false"``."""
    spots = [(p, v) for p, v in _outcome_lists(data) if isinstance(v[-1], dict)]
    if not spots:
        return None
    path, rules = r.choice(spots)
    rules[-1]["when"] = "false"
    return f"last_outcome_never {_where(path)}[{len(rules) - 1}]"


SEMANTIC_MUTATORS: dict[str, Callable[[random.Random, Any], str | None]] = {
    "off_by_one": sem_off_by_one,
    "operator": sem_operator,
    "dialect": sem_dialect,
    "symbol_typo": sem_symbol_typo,
    "quoted_number": sem_quoted_number,
    "reorder_outcomes": sem_reorder_outcomes,
    "remove_outcome": sem_remove_outcome,
    "last_outcome_never": sem_last_outcome_never,
}


def mutate_semantic(r: random.Random, name: str, text: str) -> tuple[str, list[str]]:
    """1 or 2 of the homebrewer's mistakes above, on the parsed file, dumped back as YAML.
    Returns the mutant and what was done (empty when no mutator found a place)."""
    key = "semantic:" + name
    if key not in _PARSED:
        _PARSED[key] = yaml.safe_load(text)
    data = copy.deepcopy(_PARSED[key])
    done: list[str] = []
    for _ in range(r.choice([1, 1, 1, 2])):
        kinds = list(SEMANTIC_MUTATORS)
        r.shuffle(kinds)
        for kind in kinds:
            what = SEMANTIC_MUTATORS[kind](r, data)
            if what is not None:
                done.append(what)
                break
    return _dump(data), done


def inside_input_sets(specs, r: random.Random, randoms: int = 2) -> list[dict[str, Any]]:
    """Input mappings inside the declared bounds: the defaults, then one input at a time at
    its min, its max, its default, each choice, each truth value; then ``randoms`` mappings
    with every input drawn at random inside its bounds."""
    pools = ["d6", "d8/d4/d4", "3d8", "d12/d10/d8/d6/d4"]
    base = input_sets(specs, r, hostile=False)[0]

    def values(spec) -> list[Any]:
        if spec.type == "integer":
            vs = [v for v in (spec.min, spec.max) if v is not None]
            if spec.has_default:
                vs.append(spec.default)
            return vs or [0]
        if spec.type == "boolean":
            return [True, False]
        if spec.type == "choice":
            return list(spec.choices) or ["x"]
        return ([spec.default] if spec.has_default else []) + pools

    def random_value(spec) -> Any:
        if spec.type == "integer":
            lo = spec.min if spec.min is not None else (spec.default if _is_int(spec.default) else 0) - 10
            hi = spec.max if spec.max is not None else (spec.default if _is_int(spec.default) else 0) + 10
            return r.randint(lo, hi) if lo <= hi else lo
        return r.choice(values(spec))

    out = [base]
    for spec in specs:
        out += [{**base, spec.name: v} for v in values(spec)]
    for _ in range(randoms):
        out.append({spec.name: random_value(spec) for spec in specs
                    if not (spec.optional and r.random() < 0.5)})
    return out
