#!/usr/bin/env python
"""Performance benchmarks of rulesengine against avrae's d20, icepool and check-jsonschema, side by side.

    python bench/run.py                        # run with the project's Python
    python bench/run.py --write bench/RESULTS.md

Prints one markdown table: every measurement, the ratio to the reference, the target and
whether it holds. d20 1.1.2, icepool 2.1.3 and check-jsonschema 0.39.0 run in their own
virtualenvs (bench/.venv-d20, bench/.venv-icepool, bench/.venv-checkjsonschema), which this
script creates on first use; they are never installed into the project's environment (d20
pins an old lark that would replace ours). The seed rulesets' checks and procedures are
discovered from rulesets/ and given the inputs of bench/seed_cases.py. See bench/README.md
for what is measured and how.

Exit status: 0, or 1 if icepool and rulesengine disagree on a distribution (printed loudly);
with --strict, 2 if a target is missed.
"""

from __future__ import annotations

import argparse
import atexit
import datetime
import itertools
import json
import math
import os
import platform
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from fractions import Fraction
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(BENCH))

from _timing import measure  # noqa: E402
import seed_cases  # noqa: E402

try:
    from rulesengine import __version__ as RULESENGINE_VERSION
    from rulesengine import dice
    from rulesengine.limits import DEFAULT_LIMITS
    import rulesengine.ruleset as rulesets
except ImportError:  # pragma: no cover - a usage error, not a benchmark result
    sys.exit("bench/run.py: rulesengine is not importable; run it with the project's Python "
             "(the dev virtualenv, or after `pip install -e .`)")

# ---- what is compared --------------------------------------------------------------------

ENVS = {
    # name: (requirement, virtualenv, distribution whose version is checked)
    "d20": ("d20==1.1.2", BENCH / ".venv-d20", "d20"),
    "icepool": ("icepool==2.1.3", BENCH / ".venv-icepool", "icepool"),
    "check-jsonschema": ("check-jsonschema==0.39.0", BENCH / ".venv-checkjsonschema", "check-jsonschema"),
}

ROLL_CASES = ["3d6", "1d20+5", "4d6kh3", "10d10cs>=8"]
ROLL_D20 = ["3d6", "1d20+5", "4d6kh3"]  # d20 has no success counting
ROLL_DICE = {"3d6": (3, 6), "1d20+5": (1, 20), "4d6kh3": (4, 6), "10d10cs>=8": (10, 10)}

ODDS_CASES = ["3d6", "2d10", "4d6kh3", "8d6kh3", "20d6kh3", "10d10cs>=8", "10d10!cs>=8",
              "3d6 > 3d6", "2d20kh1 + 5 >= 15"]
EXPLODING = "10d10!cs>=8"
ICEPOOL_EXPLODE_DEPTH = 9  # icepool 2.1.3's Die.explode(depth=9) default

GROWTH_NS = [8, 16, 32, 64]  # the target: growth per doubling over these
GROWTH_INFO_NS = [128, 256, 512, 1024]  # shown, not judged: where the growth is heading
SUCCESS_GROWTH_NS = [50, 100, 200, 500]  # issue 18: counting successes, Nd10cs>=8, from scratch
ICEPOOL_MAX_N = 2048  # the largest Nd6kh3 icepool is asked for in the memory section
ROLL_GROWTH_NS = [8, 16, 32, 64]  # rolling Nd6kh3 as the pool grows (shown, with d20)

SCHEMA = ROOT / "schemas" / "ruleset.schema.json"
RULESETS_DIR = ROOT / "rulesets"

# Every child process (workers, the rulesengine command, bare python) runs with bytecode
# caching on, into a cache under bench/, as an installed package would have it: a dev
# shell with PYTHONDONTWRITEBYTECODE=1 would otherwise recompile rulesengine's sources
# (50 KB of parser tables among them) in every process and time the compiler.
PYCACHE = BENCH / ".pycache"
POOLS_SECTION = "<!-- bench/pools.py -->"  # where bench/pools.py's section of RESULTS.md starts
CHILD_ENV = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "RULESENGINE_CACHE")}
CHILD_ENV["PYTHONPYCACHEPREFIX"] = str(PYCACHE)
# The store of parsed expressions (rulesengine/dice/tree_store.py) the children share: the
# benchmark's own, filled by the untimed first rounds as a user's first run fills theirs.
# Rows that time a first run ever say so and turn it off (NO_STORE_ENV).
CHILD_ENV["RULESENGINE_CACHE_DIR"] = tempfile.mkdtemp(prefix="rulesengine-bench-store-")
atexit.register(shutil.rmtree, CHILD_ENV["RULESENGINE_CACHE_DIR"], ignore_errors=True)
NO_STORE_ENV = {**CHILD_ENV, "RULESENGINE_CACHE": "off"}

# ---- helpers -----------------------------------------------------------------------------


def log(msg: str) -> None:
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


def venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def ensure_env(name: str) -> Path:
    """Create the reference library's own virtualenv and install it there, once."""
    requirement, venv, dist = ENVS[name]
    py = venv_python(venv)
    want = requirement.split("==")[1]
    if not py.exists():
        log(f"creating {venv.relative_to(ROOT)} ({requirement}) ...")
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    probe = subprocess.run([str(py), "-c", "import sys; from importlib.metadata import version; "
                            f"print(version({dist!r}))"], capture_output=True, text=True)
    if probe.returncode != 0 or probe.stdout.strip() != want:
        log(f"pip install {requirement} into {venv.relative_to(ROOT)} ...")
        subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                        requirement], check=True)
    return py


INSTALLED = BENCH / ".venv-installed"


def ensure_installed() -> Path:
    """The project as users install it: built from this tree and installed (not editable)
    in its own virtualenv, reinstalled every run so that it is the tree as it is now. The
    start-up rows time the command from there: an editable install adds its import hook to
    every process (some 15 ms here), which no user of a release pays."""
    py = venv_python(INSTALLED)
    if not py.exists():
        log(f"creating {INSTALLED.relative_to(ROOT)} ...")
        subprocess.run([sys.executable, "-m", "venv", str(INSTALLED)], check=True)
        subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(ROOT)],
                       check=True)
    log(f"installing this tree into {INSTALLED.relative_to(ROOT)} ...")
    subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
                    "--force-reinstall", str(ROOT)], check=True, capture_output=True)
    return py


def _gnu_time() -> str | None:
    """GNU time, used to read a child's peak RSS (see run_child)."""
    path = shutil.which("time") or ("/usr/bin/time" if Path("/usr/bin/time").exists() else None)
    if path is None:
        return None
    probe = subprocess.run([path, "--version"], capture_output=True, text=True)
    return path if "GNU" in probe.stdout + probe.stderr else None


GNU_TIME = _gnu_time()


def _vm_hwm_kb(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return None


def run_child(cmd: list[str], timeout: float | None = None, env: dict | None = None) -> dict:
    """Run one process; its wall time, its CPU time, its own peak RSS and its output.

    CPU time (user + system) is what ``wait4`` reports for the process, the processes it
    waited for included (the command under GNU ``time``); unlike wall time it does not
    grow while the process waits for a core another program holds.

    Peak RSS: a child forked from this (large) process inherits our RSS as its starting
    high-water mark (Linux keeps the pre-exec high-water mark in ``ru_maxrss``), so the
    command runs under GNU ``time -f %M``, a small process that forks it and reports its
    peak. Killed on timeout, the command's peak so far is read from /proc (VmHWM).
    Output goes to temporary files, not pipes, so a large answer cannot block the child.
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile(mode="r", suffix=".rss") as rss_file:
        full = [GNU_TIME, "-f", "%M", "-o", rss_file.name, *cmd] if GNU_TIME else cmd
        t0 = time.perf_counter()
        proc = subprocess.Popen(full, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                start_new_session=True, env=CHILD_ENV if env is None else env)
        killed: dict = {}

        def kill() -> None:
            try:
                kids = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
            except OSError:
                kids = []
            killed["rss_kb"] = max((_vm_hwm_kb(int(k)) or 0 for k in kids), default=None) \
                if GNU_TIME else _vm_hwm_kb(proc.pid)
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        timer = threading.Timer(timeout, kill) if timeout else None
        if timer:
            timer.start()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        if timer:
            timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        rss = killed.get("rss_kb")
        if not killed and GNU_TIME:
            text = Path(rss_file.name).read_text().split()
            rss = int(text[-1]) if text and text[-1].isdigit() else None
        out.seek(0)
        err.seek(0)
        return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss_kb": rss, "rc": proc.returncode,
                "timed_out": bool(killed),
                "stdout": out.read().decode(), "stderr": err.read().decode()}


def worker(py: Path, script: str, *args: str, timeout: float | None = None, env: dict | None = None) -> dict:
    res = run_child([str(py), str(BENCH / script), *args], timeout=timeout, env=env)
    if res["timed_out"]:
        return {"timed_out": True, "_rss_kb": res["rss_kb"], "_wall": res["wall"]}
    if res["rc"] != 0:
        raise RuntimeError(f"{script} {' '.join(args)[:80]} failed:\n{res['stderr']}")
    data = json.loads(res["stdout"])
    data["_rss_kb"], data["_wall"] = res["rss_kb"], res["wall"]
    return data


def fmt_time(s: float | None) -> str:
    if s is None:
        return "n/a"
    if s >= 1:
        return f"{s:.2f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.3g} ms"
    return f"{s * 1e6:.3g} µs"


def fmt_rate(per_call: float) -> str:
    return f"{1 / per_call / 1e3:.1f} k/s"


def fmt_mb(kb: int | None) -> str:
    return "n/a" if kb is None else f"{kb / 1024:.1f} MB"


def geomean(xs: list[float]) -> float:
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


class Table:
    def __init__(self) -> None:
        self.rows: list[tuple[str, ...]] = []
        self.missed: list[str] = []
        self.mismatches: list[str] = []
        self.errors: list[str] = []

    def add(self, area: str, what: str, ours: str, ref: str, ratio: str = "",
            target: str = "", result: str = "info", short: str | None = None) -> None:
        self.rows.append((area, what, ours, ref, ratio, target, result))
        if result.startswith("MISSED"):
            self.missed.append(f"{area}: {short or what} ({ratio})")
        if result.startswith("ERROR"):
            self.errors.append(f"{area}: {short or what}")

    def judge(self, ok: bool) -> str:
        return "holds" if ok else "MISSED"

    def markdown(self) -> str:
        head = ("area", "measurement", "rulesengine", "reference", "ratio", "target", "result")
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        # Sections may add rows to a later area (rolling adds "5 growth" rows): group by area.
        for row in sorted(self.rows, key=lambda r: r[0].split()[0]):
            lines.append("| " + " | ".join(c.replace("|", "\\|") for c in row) + " |")
        return "\n".join(lines)


# ---- the seed rulesets -------------------------------------------------------------------


def short_error(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text[:160]}" + ("…" if len(text) > 160 else "")


_LOADED: dict[str, object] = {}


def load_seed(ruleset: str):
    """The shipped ruleset, loaded once (its load time is the cold rows' business), or the
    exception that loading raised: the seed files change while the benchmark stays, and a
    ruleset that does not load is an ERROR row, not a crash."""
    if ruleset not in _LOADED:
        try:
            _LOADED[ruleset] = rulesets.load(ruleset)
        except Exception as exc:  # noqa: BLE001 - reported in the table
            _LOADED[ruleset] = exc
    return _LOADED[ruleset]


def forget(rs) -> bool:
    """Empty the exact-odds caches of every check of a loaded ruleset: each check runner's
    odds cache and its compiled exact evaluators (with their pool caches), the footing of a
    new ``dice.Expression`` per call in the dice rows. False if the internals moved."""
    try:
        for chk in rs._checks.values():
            chk.runner.forget_odds()
        return True
    except AttributeError:
        return False


def seed_procedures() -> list[tuple[str, str, str]]:
    """(ruleset, procedure, kind) of every procedure in the seed rulesets that load."""
    out = []
    for rid in seed_cases.SEED_CHECKS:
        rs = load_seed(rid)
        if isinstance(rs, Exception):
            continue
        for name in rs.procedures():
            out.append((rid, name, rs.model.procedures[name].kind))
    return out


# ---- 1. rolling --------------------------------------------------------------------------


ROLL_PASSES = 2  # rolling is measured in passes, ours then d20's, best of all passes


def _keep_best(into: dict, key, value: float) -> None:
    into[key] = min(into.get(key, value), value)


def bench_rolling(t: Table, d20_py: Path, seconds: float) -> None:
    """Rolls per second: the dice cases, a full check of each seed ruleset, Nd6kh3 as the
    pool grows. Everything, ours and d20's, is measured in ROLL_PASSES interleaved passes and
    the best of the passes kept, so that a busy moment on the machine does not decide a
    ratio alone (the seed rulesets are loaded before the first pass)."""
    growth_cases = [f"{n}d6kh3" for n in ROLL_GROWTH_NS]
    checks = {}  # rid -> (chk, inputs, sides, sample) or an exception
    for rid, seed in seed_cases.SEED_CHECKS.items():
        rs = load_seed(rid)
        try:
            if isinstance(rs, Exception):
                raise rs
            chk = rs.check(seed["check"])
            checks[rid] = (chk, seed["inputs"], seed["dice"], chk.roll(seed["inputs"], rng=random.Random(1)))
        except Exception as exc:  # noqa: BLE001 - reported in the table
            checks[rid] = exc
    ours: dict = {}
    d20: dict = {}
    randint = random.randint
    for rep in range(ROLL_PASSES):
        log(f"rolling, pass {rep + 1} of {ROLL_PASSES}: rulesengine (dice, a full check of each seed "
            "ruleset, Nd6kh3), plain random.randint, d20 ...")
        for text in ROLL_CASES + growth_cases:
            expr = dice.parse(text)
            rng = random.Random(1)
            _keep_best(ours, text, measure(lambda: expr.roll(rng=rng), seconds)["best"])
            if text in ROLL_CASES:
                _keep_best(ours, (text, "trace"), measure(lambda: expr.roll(rng=rng).trace, seconds / 2)["best"])
        for rid, c in checks.items():
            if isinstance(c, Exception):
                continue
            chk, inputs, sides, _ = c
            rng = random.Random(1)
            _keep_best(ours, rid, measure(lambda: chk.roll(inputs, rng=rng), seconds)["best"])
            _keep_best(ours, (rid, "trace"), measure(lambda: chk.roll(inputs, rng=rng).trace, seconds / 2)["best"])
            # As a table rolls it: a different character's inputs each time, the trace read.
            varied = [{**inputs, **party} for party in seed_cases.PARTIES.get(rid, [{}])]
            turn = itertools.cycle(varied)
            _keep_best(ours, (rid, "varied"),
                       measure(lambda: chk.roll(next(turn), rng=rng).trace, seconds / 2)["best"])
        random.seed(1)
        for text in ROLL_CASES:
            n, sides = ROLL_DICE[text]
            _keep_best(ours, (text, "floor"),
                       measure(lambda: [randint(1, sides) for _ in range(n)], seconds / 2)["best"])
        for rid, c in checks.items():
            if not isinstance(c, Exception):
                _keep_best(ours, (rid, "floor"), measure(lambda: [randint(1, s) for s in c[2]], seconds / 2)["best"])
        r = worker(d20_py, "worker_d20.py", json.dumps({"cases": ROLL_D20 + growth_cases, "seconds": seconds}))
        d20["version"] = r["version"]
        for text, v in r["cases"].items():
            _keep_best(d20, text, v["best"])
            _keep_best(d20, (text, "str"), v["str_best"])

    for text in ROLL_CASES:
        trace_cell = f"{fmt_rate(ours[text])} (trace read: {fmt_rate(ours[(text, 'trace')])})"
        if text not in d20:
            t.add("1 roll", f"`{text}` pre-parsed, rolls/s", trace_cell, "d20: n/a (no success counting)")
            continue
        ratio = d20[text] / ours[text]  # ours rate / d20 rate
        is_target = text == "3d6"
        t.add("1 roll", f"`{text}` pre-parsed, rolls/s (d20 {d20['version']}: `Roller().roll(parsed)`)",
              trace_cell, f"{fmt_rate(d20[text])} (with result string: {fmt_rate(d20[(text, 'str')])})",
              f"{ratio:.2f}", "≥ 1.00 (ours/d20)" if is_target else "",
              t.judge(ratio >= 1.0) if is_target else "info", short=f"`{text}` rolls/s vs d20")
    for text in ROLL_CASES:
        n, sides = ROLL_DICE[text]
        floor = ours[(text, "floor")]
        t.add("1 roll", f"`{text}` vs the floor: {n} × `random.randint(1, {sides})`",
              fmt_rate(ours[text]), fmt_rate(floor), f"{floor / ours[text]:.2f}", "", "info")

    # A full check of each seed ruleset against d20's bare 3d6.
    ref_cell = f"{fmt_rate(d20['3d6'])} (with result string: {fmt_rate(d20[('3d6', 'str')])})"
    target = "≥ 1.00 (ours/d20 `3d6`)"
    ratios, floors = {}, []
    for rid, c in checks.items():
        seed = seed_cases.SEED_CHECKS[rid]
        name, inputs, sides = seed["check"], seed["inputs"], seed["dice"]
        what = (f"`{rid}` `{name}` ({seed_cases.describe_call({'inputs': inputs})}): full check, "
                "checks/s (d20: `3d6`)")
        if isinstance(c, Exception):
            t.add("1 roll", what, f"could not roll: {short_error(c)}", ref_cell, "", target, "ERROR",
                  short=f"`{rid}` `{name}` full check")
            continue
        best = ours[rid]
        ratios[rid] = d20["3d6"] / best
        t.add("1 roll", what, f"{fmt_rate(best)} (trace read: {fmt_rate(ours[(rid, 'trace')])})", ref_cell,
              f"{ratios[rid]:.2f}", target, t.judge(ratios[rid] >= 1.0),
              short=f"`{rid}` `{name}` full check vs d20 `3d6`")
        n_dice = len(c[3].dice)
        note = "" if n_dice == len(sides) else f" (this roll had {n_dice} dice)"
        floors.append((f"`{rid}` `{name}` vs the floor: `random.randint` for "
                       + ", ".join(f"d{s}" for s in sides) + note, best, ours[(rid, "floor")]))
    if ratios:
        g = geomean(list(ratios.values()))
        worst = min(ratios, key=ratios.get)
        t.add("1 roll", f"full seed checks: geometric mean of rate ratios ({len(ratios)} rulesets; "
              f"slowest: `{worst}` {ratios[worst]:.2f})", "", "", f"{g:.2f}", "", "info")
    for what, best, floor in floors:
        t.add("1 roll", what, fmt_rate(best), fmt_rate(floor), f"{floor / best:.2f}", "", "info")

    # Issue 18's row: each seed check through the API as a table rolls it (inputs varied
    # roll to roll, the trace read) against d20 rolling a pre-parsed 3d6 and making its
    # result text; both measured in the same interleaved passes, best pass kept.
    varied_ratios = {}
    for rid, c in checks.items():
        if isinstance(c, Exception):
            continue
        seed = seed_cases.SEED_CHECKS[rid]
        varied_ratios[rid] = d20[("3d6", "str")] / ours[(rid, "varied")]
        t.add("1 roll", f"`{rid}` `{seed['check']}`, inputs varied roll to roll "
              f"({len(seed_cases.PARTIES.get(rid, [{}]))} characters), trace read, checks/s (d20: `3d6` with "
              "its result text)", fmt_rate(ours[(rid, "varied")]), fmt_rate(d20[("3d6", "str")]),
              f"{varied_ratios[rid]:.2f}", "≥ 1.00 (issue 18; goal ≥ 2)", t.judge(varied_ratios[rid] >= 1.0),
              short=f"`{rid}` varied inputs + trace vs d20 3d6 + text")
    if varied_ratios:
        worst = min(varied_ratios, key=varied_ratios.get)
        t.add("1 roll", f"varied inputs + trace: slowest seed check (`{worst}`) vs d20 `3d6` with text", "", "",
              f"{varied_ratios[worst]:.2f}", "every check ≥ 1.00 (issue 18)", t.judge(varied_ratios[worst] >= 1.0))

    # Rolling Nd6kh3 as the pool grows (shown, not judged).
    for i, n in enumerate(ROLL_GROWTH_NS):
        case, prev = f"{n}d6kh3", (f"{ROLL_GROWTH_NS[i - 1]}d6kh3" if i else None)
        t.add("5 growth", f"rolling `{case}`, time per roll (d20: pre-parsed)",
              fmt_time(ours[case]) + (f" ×{ours[case] / ours[prev]:.2f}" if prev else ""),
              fmt_time(d20[case]) + (f" ×{d20[case] / d20[prev]:.2f}" if prev else ""),
              f"{ours[case] / d20[case]:.2f}", "", "info")
    a, b = growth_cases[0], growth_cases[-1]
    steps = math.log2(ROLL_GROWTH_NS[-1] / ROLL_GROWTH_NS[0])
    g_ours, g_d20 = (ours[b] / ours[a]) ** (1 / steps), (d20[b] / d20[a]) ** (1 / steps)
    t.add("5 growth", f"rolling: growth of the time per doubling of N, {ROLL_GROWTH_NS[0]} → "
          f"{ROLL_GROWTH_NS[-1]}", f"×{g_ours:.2f}", f"×{g_d20:.2f}", f"{g_ours / g_d20:.2f}", "", "info")


# ---- 2. exact odds -----------------------------------------------------------------------


def _key(v) -> tuple:
    return (isinstance(v, bool), int(v))


def check_distributions(t: Table, ice_py: Path) -> dict[str, bool]:
    """Both libraries must give the same exact distribution for every case."""
    depth = DEFAULT_LIMITS.explode_depth
    log(f"odds: checking distributions against icepool (explode depth {depth} on both) ...")
    theirs = worker(ice_py, "worker_icepool.py", "dist",
                    json.dumps({"cases": ODDS_CASES, "explode_depth": depth}))
    sentinel = theirs["truncated_sentinel"]
    same = {}
    for case in ODDS_CASES:
        odds = dice.odds(case)
        mine = {_key(v): p for v, p in odds.distribution.items() if p}
        ice: dict = {}
        cut = Fraction(0)
        for o, num, den in theirs["cases"][case]:
            p = Fraction(num, den)
            if case == EXPLODING and not isinstance(o, bool) and o >= sentinel:
                cut += p
            else:
                ice[_key(o)] = ice.get(_key(o), Fraction(0)) + p
        ok = mine == ice and odds.truncated == cut
        same[case] = ok
        if not ok:
            diff = sorted(k for k in set(mine) | set(ice) if mine.get(k) != ice.get(k))[:5]
            msg = (f"{case}: values differing (first 5): "
                   + ", ".join(f"{k[1]}: ours {mine.get(k)} icepool {ice.get(k)}" for k in diff)
                   + f"; truncated ours {float(odds.truncated):.3g} icepool {float(cut):.3g}")
            t.mismatches.append(msg)
            print("\n" + "!" * 78 + f"\n!!! DISTRIBUTION MISMATCH with icepool: {msg}\n"
                  + "!" * 78 + "\n", file=sys.stderr, flush=True)
    n_ok = sum(same.values())
    t.add("2 odds", f"same exact distribution as icepool ({len(ODDS_CASES)} cases; "
          f"`{EXPLODING}` at depth {depth} on both, cut-off mass = our `truncated`)",
          f"{n_ok}/{len(ODDS_CASES)} identical", "", "", "all identical",
          "holds" if n_ok == len(ODDS_CASES) else "MISMATCH: " + "; ".join(
              c for c, ok in same.items() if not ok))
    return same


def bench_odds(t: Table, ice_py: Path, seconds: float, reps: int, same: dict[str, bool]) -> None:
    # Warm: repeated calls in one process.
    log("odds: warm (rulesengine, icepool) ...")
    ours = {c: measure(lambda c=c: dice.Expression(c).odds(), seconds)["best"] for c in ODDS_CASES}
    ours_d9 = measure(lambda: dice.Expression(EXPLODING).odds(explode_depth=ICEPOOL_EXPLODE_DEPTH),
                      seconds)["best"]
    ice = worker(ice_py, "worker_icepool.py", "warm",
                 json.dumps({"cases": ODDS_CASES, "seconds": seconds}))["cases"]

    # Cold: a fresh process per call. Judged: import + first computation (what a process
    # that computes one answer pays beyond the bare interpreter); first call alone: info.
    log(f"odds: cold ({reps} fresh processes per case and library, after one untimed round) ...")
    cold = {lib: {c: {"first": [], "import": []} for c in ODDS_CASES} for lib in ("ours", "ice", "first_run")}
    for rep in range(reps + 1):
        for c in ODDS_CASES:  # interleaved, so that drift on the machine hits both alike
            for lib, r in (
                ("ours", worker(Path(sys.executable), "worker_ours.py", json.dumps({"case": c}))),
                ("ice", worker(ice_py, "worker_icepool.py", "cold", json.dumps({"case": c}))),
                ("first_run", worker(Path(sys.executable), "worker_ours.py", json.dumps({"case": c}),
                                     env=NO_STORE_ENV)),
            ):
                if rep:  # round 0 fills the bytecode cache
                    cold[lib][c]["first"].append(r["first"])
                    cold[lib][c]["import"].append(r["import"])

    def med(lib: str, c: str, what: str) -> float:
        if what == "total":
            return statistics.median(f + i for f, i in zip(cold[lib][c]["first"], cold[lib][c]["import"]))
        return statistics.median(cold[lib][c][what])

    # Warm rows.
    theirs = {c: ice[c]["cleared"] for c in ODDS_CASES}
    ratios = {}
    for c in ODDS_CASES:
        ratios[c] = ours[c] / theirs[c]
        what = f"`{c}` warm"
        if c == EXPLODING:
            what += (f" (ours depth {DEFAULT_LIMITS.explode_depth}, icepool depth "
                     f"{ICEPOOL_EXPLODE_DEPTH}: each default)")
        if not same[c]:
            what += " **DIST MISMATCH**"
        t.add("2 odds", what, fmt_time(ours[c]),
              f"{fmt_time(theirs[c])} (caches kept: {fmt_time(ice[c]['cached'])})",
              f"{ratios[c]:.2f}", "≤ 2.00", t.judge(ratios[c] <= 2.0), short=f"`{c}` warm")
    r9 = ours_d9 / theirs[EXPLODING]
    t.add("2 odds", f"`{EXPLODING}` warm, both at depth {ICEPOOL_EXPLODE_DEPTH}",
          fmt_time(ours_d9), fmt_time(theirs[EXPLODING]), f"{r9:.2f}", "", "info")
    _summary(t, "warm", ratios, judged=True)

    # Cold rows.
    ratios, first_ratios = {}, {}
    for c in ODDS_CASES:
        ratios[c] = med("ours", c, "total") / med("ice", c, "total")
        first_ratios[c] = med("ours", c, "first") / med("ice", c, "first")
        what = f"`{c}` cold: import + first call (first call alone)"
        if not same[c]:
            what += " **DIST MISMATCH**"
        t.add("2 odds", what,
              f"{fmt_time(med('ours', c, 'total'))} ({fmt_time(med('ours', c, 'first'))})",
              f"{fmt_time(med('ice', c, 'total'))} ({fmt_time(med('ice', c, 'first'))})",
              f"{ratios[c]:.2f} ({first_ratios[c]:.2f})", "≤ 2.00", t.judge(ratios[c] <= 2.0),
              short=f"`{c}` cold, import + first call")
    _summary(t, "cold, import + first call", ratios, judged=True)
    _summary(t, "cold, first call alone", first_ratios, judged=False)
    first_run = {c: med("first_run", c, "total") / med("ice", c, "total") for c in ODDS_CASES}
    _summary(t, "cold, import + first call, the expression never seen before (no stored parse)", first_run,
             judged=False)
    imp_ours = [x for c in ODDS_CASES for x in cold["ours"][c]["import"]]
    imp_ice = [x for c in ODDS_CASES for x in cold["ice"][c]["import"]]
    t.add("2 odds", "import alone (`from rulesengine import dice` / `import icepool`), median",
          fmt_time(statistics.median(imp_ours)), fmt_time(statistics.median(imp_ice)),
          f"{statistics.median(imp_ours) / statistics.median(imp_ice):.2f}", "", "info")


POOL_VIEWS = """
ruleset: bench-pool-views
name: Pool readings
version: "1"
source: bench
checks:
  pool:
    inputs:
      dice: {type: integer, default: 30, min: 1, max: 60}
    roll: (dice)d6
    let:
      hits: count(roll, 5, 6)
      ones: count(roll, 1)
    result: hits
    outcomes:
      - {name: botch, when: "hits == 0 and ones > 0", success: false}
      - {name: success, when: "hits >= 3", success: true}
      - {name: failure, success: false}
"""


def bench_pool_views(t: Table, ice_py: Path, seconds: float) -> None:
    """A check whose rules count two sets of faces on one big pool (issue 14): exact odds
    through the pool's readings, against icepool summing a vector per die (the same joint
    distribution of the two counts; ours also resolves the check's outcomes from it)."""
    from rulesengine.ruleset import loads

    log("odds: two counts jointly on 30d6 (rulesengine check, icepool vector sum) ...")
    rs = loads(POOL_VIEWS, "bench-pool-views.yaml")
    chk = rs.check("pool")
    ours = measure(lambda: (forget(rs), chk.odds({"dice": 30})), seconds)["best"]
    case = "30d6 5-6s and 1s jointly"
    ice = worker(ice_py, "worker_icepool.py", "warm", json.dumps({"cases": [case], "seconds": seconds}))["cases"][case]
    ratio = ours / ice["cleared"]
    t.add("2 odds", f"{case}: a check's odds (icepool: the joint counts alone)", fmt_time(ours),
          fmt_time(ice["cleared"]), f"{ratio:.2f}", "≤ 1.00 (issue 14)", t.judge(ratio <= 1.0),
          short=f"{case} warm")

    # Counting successes on 60 exploding d10 (each success explodes): ours exact with nothing
    # truncated (a question the depth can't change), icepool at the same depth.
    from rulesengine.cache import ODDS, POOL_DISTS

    case = "60d10!>=8cs>=8 >= 11"
    log(f"odds: {case} from scratch (rulesengine, icepool) ...")

    def ours_once():
        POOL_DISTS.clear()
        ODDS.clear()
        return dice.Expression(case).odds()

    exact = ours_once().truncated == 0
    ours = measure(ours_once, seconds)["best"]
    ice = worker(ice_py, "worker_icepool.py", "warm", json.dumps({"cases": [case], "seconds": seconds}))["cases"][case]
    ratio = ours / ice["cleared"]
    t.add("2 odds", f"`{case}`, caches cleared: ours exact (truncated {'0' if exact else 'NOT 0'}), icepool at depth 10",
          fmt_time(ours), fmt_time(ice["cleared"]), f"{ratio:.2f}", "≤ 1.00 (issue 14)",
          t.judge(ratio <= 1.0 and exact), short=f"{case} cold cache")


SYMBOL_POOL = """
ruleset: bench-symbols
name: Narrative symbol dice
version: "1"
source: bench
dice:
  ability: {faces: [[], [s], [s], [s, s], [a], [a], [s, a], [a, a]]}
  proficiency: {faces: [[], [s], [s], [s, s], [s, s], [a], [s, a], [s, a], [s, a], [a, a], [a, a], [triumph]]}
  difficulty: {faces: [[], [f], [f, f], [t], [t], [t], [t, t], [f, t]]}
  challenge: {faces: [[], [f], [f], [f, f], [f, f], [t], [t], [f, t], [f, t], [t, t], [t, t], [despair]]}
checks:
  narrative:
    inputs:
      each: {type: integer, default: 5, min: 0, max: 10}
    roll: (each)d{ability} + (each)d{proficiency} + (each)d{difficulty} + (each)d{challenge}
    let:
      net: symbols(roll, 's', 'triumph') - symbols(roll, 'f', 'despair')
      advantage: symbols(roll, 'a') - symbols(roll, 't')
    result: net
    report: [advantage]
    outcomes:
      - {name: success, when: "net >= 1", success: true}
      - {name: failure, success: false}
"""


def bench_symbol_pool(t: Table, ice_py: Path, seconds: float) -> None:
    """Symbol counts on a 20-die pool of four kinds of symbol dice (issue 14): a check netting
    successes and advantages, against icepool summing a vector per die (the same joint
    distribution of the two net counts; ours also resolves the check's outcomes from it)."""
    from rulesengine.ruleset import loads

    case = "20 symbol dice, 2 net counts"
    log(f"odds: {case} (rulesengine check, icepool vector sum) ...")
    rs = loads(SYMBOL_POOL, "bench-symbols.yaml")
    chk = rs.check("narrative")
    exact = chk.odds({"each": 5}).truncated == 0
    ours = measure(lambda: (forget(rs), chk.odds({"each": 5})), seconds)["best"]
    ice = worker(ice_py, "worker_icepool.py", "warm", json.dumps({"cases": [case], "seconds": seconds}))["cases"][case]
    ratio = ours / ice["cleared"]
    t.add("2 odds", f"{case}: a check's odds (icepool: the joint net counts alone)", fmt_time(ours),
          fmt_time(ice["cleared"]), f"{ratio:.2f}", "≤ 1.00 (issue 14)", t.judge(ratio <= 1.0 and exact),
          short=f"{case} warm")


def bench_seed_odds(t: Table, seconds: float, reps: int) -> None:
    """Exact odds of every check and procedure of the seed rulesets: warm, and cold for a
    representative set (each seed ruleset's check, one procedure of each kind)."""
    log("odds: every check and procedure of the seed rulesets, warm ...")
    cases = []  # (ruleset, "check" | kind, name, call)
    for rid in seed_cases.SEED_CHECKS:
        rs = load_seed(rid)
        if isinstance(rs, Exception):
            t.add("2 odds", f"`{rid}`: its checks and procedures", f"could not load: {short_error(rs)}",
                  "", "", "", "ERROR")
            continue
        for name in rs.checks():
            cases.append((rid, "check", name))
        for name in rs.procedures():
            cases.append((rid, rs.model.procedures[name].kind, name))
    calls = {}
    for rid, kind, name in cases:
        rs = load_seed(rid)
        label = f"`{rid}` {'check' if kind == 'check' else kind} `{name}`"
        try:
            if kind == "check":
                call = seed_cases.check_call(rs, name)
                runnable = rs.check(name)
            else:
                call = seed_cases.procedure_call(rs, name)
                runnable = rs.procedure(name)
            forget(rs)
            runnable.odds(**call)
        except seed_cases.ConfigGap as exc:
            t.add("2 odds", f"{label} warm", f"not timed: {exc}", "", "", "", "ERROR")
            continue
        except Exception as exc:  # noqa: BLE001 - reported in the table
            t.add("2 odds", f"{label} warm", f"failed: {short_error(exc)}", "", "", "", "ERROR",
                  short=f"{label}: {short_error(exc)[:60]}…")
            continue
        calls[(rid, kind, name)] = call
        cleared_ok = forget(rs)
        warm = measure(lambda: (forget(rs), runnable.odds(**call)), seconds)["best"]
        kept = measure(lambda: runnable.odds(**call), seconds / 3)["best"]
        t.add("2 odds", f"{label} warm ({seed_cases.describe_call(call)})",
              f"{fmt_time(warm)} (caches kept: {fmt_time(kept)})"
              + ("" if cleared_ok else " [caches could not be emptied]"), "", "", "", "info")

    # Cold: fresh processes, interleaved; import + load + first odds.
    cold_cases = []
    for rid, seed in seed_cases.SEED_CHECKS.items():
        if (rid, "check", seed["check"]) in calls:
            cold_cases.append((rid, "check", seed["check"]))
    found = [c for c in calls if c[1] != "check"]
    for kind, pick in seed_cases.COLD_PROCEDURES.items():
        choice = next((c for c in found if c[1] == kind and c[:1] + c[2:] == pick), None) \
            or next((c for c in found if c[1] == kind), None)
        if choice:
            cold_cases.append(choice)
        else:
            t.add("2 odds", f"a procedure of kind `{kind}`: cold", "none in the seed rulesets", "", "", "", "info")
    log(f"odds: seed rulesets cold ({len(cold_cases)} cases × {reps} fresh processes, after one untimed round) ...")
    runs: dict[tuple, list[dict]] = {c: [] for c in cold_cases}
    failed: dict[tuple, str] = {}
    for rep in range(reps + 1):
        for c in cold_cases:
            if c in failed:
                continue
            rid, kind, name = c
            req = {"ruleset": rid, ("check" if kind == "check" else "procedure"): name, "call": calls[c]}
            try:
                r = worker(Path(sys.executable), "worker_ours.py", json.dumps(req))
            except RuntimeError as exc:
                failed[c] = str(exc).strip().splitlines()[-1][:160]
                continue
            if rep:
                runs[c].append(r)
    for c in cold_cases:
        rid, kind, name = c
        label = f"`{rid}` {'check' if kind == 'check' else kind} `{name}` cold: import + load + first odds"
        if c in failed:
            t.add("2 odds", label, f"failed: {failed[c]}", "", "", "", "ERROR")
            continue
        med = {k: statistics.median(r[k] for r in runs[c]) for k in ("import", "load", "first")}
        wall = statistics.median(r["_wall"] for r in runs[c])
        t.add("2 odds", label + f" (median of {reps})",
              f"{fmt_time(med['import'] + med['load'] + med['first'])} (import {fmt_time(med['import'])}, "
              f"load {fmt_time(med['load'])}, first odds {fmt_time(med['first'])}; process {fmt_time(wall)})",
              "", "", "", "info")


def _summary(t: Table, label: str, ratios: dict[str, float], judged: bool) -> None:
    g = geomean(list(ratios.values()))
    worst = max(ratios, key=ratios.get)
    t.add("2 odds", f"{label}: geometric mean of time ratios ({len(ratios)} cases)", "", "",
          f"{g:.2f}", "≤ 1.00" if judged else "", t.judge(g <= 1.0) if judged else "info")
    t.add("2 odds", f"{label}: worst case (`{worst}`)", "", "", f"{ratios[worst]:.2f}",
          "≤ 2.00" if judged else "", t.judge(ratios[worst] <= 2.0) if judged else "info")


# ---- 3. start-up, 4. memory --------------------------------------------------------------


def bench_startup(t: Table, reps: int, cjs_py: Path | None) -> dict:
    log(f"start-up: median of {reps} runs each ...")
    py = ensure_installed()
    cmd = [str(py.parent / ("rulesengine.exe" if os.name == "nt" else "rulesengine"))]
    shown = "rulesengine"
    files = sorted(str(p) for p in RULESETS_DIR.glob("*.yaml"))
    variants = {
        "bare": [str(py), "-c", "pass"],
        "dice": cmd + ["dice", "3d6"],
        "odds": cmd + ["dice", "3d6", "--odds"],
        "roll": cmd + ["roll", "gurps-4e", "success_roll", "skill=12"],
        "check_odds": cmd + ["odds", "gurps-4e", "success_roll", "skill=12"],
        "validate": cmd + ["validate", str(RULESETS_DIR) + "/"],
    }
    if cjs_py is not None:
        variants["cjs"] = [str(cjs_py.parent / "check-jsonschema"), "--schemafile", str(SCHEMA), *files]
    shown_cmd = {
        "bare": "`python -c pass`", "dice": f"`{shown} dice 3d6`", "odds": f"`{shown} dice 3d6 --odds`",
        "roll": f"`{shown} roll gurps-4e success_roll skill=12`", "validate": f"`{shown} validate rulesets/`",
        "check_odds": f"`{shown} odds gurps-4e success_roll skill=12`",
        "cjs": f"`check-jsonschema --schemafile schemas/ruleset.schema.json rulesets/*.yaml` ({len(files)} files)",
    }
    runs: dict[str, list[dict]] = {k: [] for k in variants}
    status: dict[str, str] = {}
    for k, c in variants.items():  # one untimed run each: page cache, .pyc files
        res = run_child(c)
        if res["rc"] != 0:
            msg = (res["stderr"] or res["stdout"]).strip().splitlines()
            status[k] = f"exit status {res['rc']}: {msg[-1][:120] if msg else ''}"
            if k in ("bare", "dice", "odds"):
                raise RuntimeError(f"{' '.join(c)} failed: {res['stderr']}")
    for _ in range(reps):
        for k, c in variants.items():
            runs[k].append(run_child(c))
    wall = {k: statistics.median(r["wall"] for r in v) for k, v in runs.items()}
    # CPU over bare Python, as the median of the differences of runs made side by side
    # (issue 18's measure: whole processes, robust to another program taking a core).
    cpu_over = {k: statistics.median(r["cpu"] - b["cpu"] for r, b in zip(v, runs["bare"], strict=True))
                for k, v in runs.items()}
    rss = {k: statistics.median(r["rss_kb"] for r in v) if all(r["rss_kb"] for r in v) else None
           for k, v in runs.items()}
    rss = {k: (int(v) if v is not None else None) for k, v in rss.items()}

    def note(k: str) -> str:
        return f" [{status[k]}]" if k in status else ""

    def over(k: str) -> str:
        return f"+{(wall[k] - wall['bare']) * 1e3:.0f} ms"

    t.add("3 start-up", f"{shown_cmd['dice']}, wall, median of {reps} (reference: `python -c pass`)",
          fmt_time(wall["dice"]), fmt_time(wall["bare"]), over("dice"),
          "≤ +150 ms", t.judge(wall["dice"] - wall["bare"] <= 0.150),
          short=f"{shown_cmd['dice']} over bare Python")
    t.add("3 start-up", f"{shown_cmd['odds']}, wall, median of {reps}",
          fmt_time(wall["odds"]), fmt_time(wall["bare"]), over("odds"), "", "info")
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        asis = statistics.median(run_child(variants["dice"], env=dict(os.environ))["wall"]
                                 for _ in range(max(3, reps // 3)))
        t.add("3 start-up", f"`{shown} dice 3d6` in this shell's environment as it is "
              "(PYTHONDONTWRITEBYTECODE=1: no .pyc, sources compiled every run)",
              fmt_time(asis), fmt_time(wall["bare"]), f"+{(asis - wall['bare']) * 1e3:.0f} ms",
              "", "info")
    t.add("3 start-up", f"{shown_cmd['roll']} (a ruleset check), wall, median of {reps}{note('roll')}",
          fmt_time(wall["roll"]), fmt_time(wall["bare"]), over("roll"), "≤ +150 ms",
          "ERROR" if "roll" in status else t.judge(wall["roll"] - wall["bare"] <= 0.150),
          short=f"{shown_cmd['roll']} over bare Python")
    for k in ("roll", "check_odds"):
        t.add("3 start-up", f"{shown_cmd[k]}, CPU time over `python -c pass` (user + system, median of "
              f"{reps} side-by-side pairs){note(k)}",
              f"+{cpu_over[k] * 1e3:.0f} ms", fmt_time(statistics.median(r["cpu"] for r in runs["bare"])),
              f"+{cpu_over[k] * 1e3:.0f} ms", "≤ +150 ms (goal ≤ +80 ms)",
              "ERROR" if k in status else t.judge(cpu_over[k] <= 0.150),
              short=f"{shown_cmd[k]} CPU over bare Python")
    t.add("3 start-up", f"{shown_cmd['validate']} ({len(files)} files: YAML, JSON Schema and semantic "
          f"checks), wall, median of {reps}{note('validate')}",
          fmt_time(wall["validate"]), fmt_time(wall["bare"]), over("validate"), "", "info")
    if "cjs" in variants:
        ratio = wall["validate"] / wall["cjs"]
        t.add("3 start-up", f"{shown_cmd['validate']} vs {shown_cmd['cjs']} (JSON Schema only), "
              f"wall, median of {reps}{note('validate')}{note('cjs')}",
              fmt_time(wall["validate"]), fmt_time(wall["cjs"]), f"{ratio:.2f}",
              "≤ 1.00 (ours/theirs)", t.judge(ratio <= 1.0), short="validate vs check-jsonschema")
    for k in variants:
        t.add("4 memory", f"peak RSS of {shown_cmd[k]} (median of {reps})", fmt_mb(rss[k]),
              fmt_mb(rss["bare"]) if k != "bare" else "", "", "", "info")
    return rss


def probe(n: int, timeout: float) -> dict:
    r = worker(Path(sys.executable), "worker_ours.py", json.dumps({"case": f"{n}d6kh3"}),
               timeout=timeout)
    if r.get("timed_out"):
        r["outcome"] = "timed out"
    return r


def bench_memory(t: Table, ice_py: Path, cap: float, full: bool) -> None:
    """Exact odds of the largest Nd6kh3 the default limits admit (N doubling from 8)."""
    log(f"memory: Nd6kh3 for N = 8, 16, ... until a LimitError or the {cap:g} s cap ...")
    done, done_n, n = None, 0, 8
    finished: dict[int, dict] = {}
    while True:
        r = probe(n, cap)
        if r["outcome"] != "ok":
            stop = (n, r)
            break
        done, done_n = r, n
        finished[n] = r
        n *= 2
    if done is None:
        t.add("4 memory", f"`8d6kh3` did not finish: {r['outcome']}", "n/a", "", "", "", "MISSED")
        return
    # Where do the limits refuse? A LimitError comes at once for max_dice (checked before
    # any work), so probes with a short cap tell "refused" from "admitted, still working";
    # a max_states refusal that came only after the short cap would be missed (--full
    # computes the edge case to completion).
    quick = 2.0
    refused = lambda r: r["outcome"].startswith("LimitError")  # noqa: E731
    lo = stop[0] if stop[1]["outcome"] == "timed out" else done_n  # admitted
    hi, why = (stop[0], stop[1]["outcome"]) if refused(stop[1]) else (None, "")
    if hi is None:
        m = DEFAULT_LIMITS.max_dice
        r_over, r_at = probe(m + 1, quick), probe(m, quick)
        if refused(r_over) and not refused(r_at):
            lo, hi, why = m, m + 1, r_over["outcome"]
        elif refused(r_over):
            hi, why = m + 1, r_over["outcome"]
    while hi is not None and hi - lo > 1:
        mid = (lo + hi) // 2
        r = probe(mid, quick)
        if refused(r):
            hi, why = mid, r["outcome"]
        else:
            lo = mid
    edge = lo
    # icepool's memory grows fast with N (2048d6kh3: ~0.5 GB; 8192d6kh3: over 4 GB within
    # 10 s, and freeing that slows whatever runs next), so it is compared at N ≤ ICEPOOL_MAX_N.
    ref_n = min(done_n, ICEPOOL_MAX_N)
    ours_ref = finished[ref_n]
    ice = worker(ice_py, "worker_icepool.py", "cold", json.dumps({"case": f"{ref_n}d6kh3"}),
                 timeout=cap)
    t.add("4 memory", f"peak RSS and time, exact odds of `{ref_n}d6kh3` in a fresh process (reference: "
          f"icepool `d(6).highest({ref_n}, 3)`, not run on larger pools)",
          f"{fmt_mb(ours_ref['_rss_kb'])}, {fmt_time(ours_ref['first'])}",
          f"{fmt_mb(ice['_rss_kb'])}, {fmt_time(ice.get('first'))}"
          if not ice.get("timed_out") else
          f"killed at the {cap:g} s cap; peak RSS so far {fmt_mb(ice['_rss_kb'])}",
          f"{ours_ref['first'] / ice['first']:.2f} (time)" if not ice.get("timed_out") else "",
          "", "info")
    if done_n != ref_n:
        t.add("4 memory", f"peak RSS and time, exact odds of `{done_n}d6kh3` (largest N = 8·2^k done "
              f"within the {cap:g} s cap)", f"{fmt_mb(done['_rss_kb'])}, {fmt_time(done['first'])}",
              "", "", "", "info")
    if stop[1]["outcome"] == "timed out":
        t.add("4 memory", f"`{stop[0]}d6kh3`: still computing at the {cap:g} s cap, no LimitError",
              f"killed; peak RSS so far {fmt_mb(stop[1]['_rss_kb'])}", "", "", "", "info")
    if hi is not None:
        t.add("4 memory", f"largest Nd6kh3 the default limits admit (not refused within {quick:g} s; "
              f"refused from N = {hi}: {why})", f"N = {edge}", "", "", "", "info")
    # The largest admitted pool, to completion: within the cap, or (--full) however long.
    if edge != done_n:
        if full:
            log(f"memory: --full: exact odds of {edge}d6kh3 to completion (may take minutes) ...")
        r = probe(edge, None if full else cap)
        if r["outcome"] == "timed out":
            t.add("4 memory", f"exact odds of `{edge}d6kh3`, the largest pool the limits admit",
                  f"still computing at the {cap:g} s cap (killed; peak RSS so far {fmt_mb(r['_rss_kb'])}); "
                  "`--full` runs it to completion", "", "", "", "info")
        else:
            t.add("4 memory", f"peak RSS and time, exact odds of `{edge}d6kh3`, the largest pool the limits "
                  "admit", f"{fmt_mb(r['_rss_kb'])}, {fmt_time(r['first'])}, {r['outcome']}", "", "", "",
                  "info")


# ---- 5. growth ---------------------------------------------------------------------------


def bench_growth(t: Table, ice_py: Path, seconds: float) -> None:
    ns = GROWTH_NS + GROWTH_INFO_NS
    log(f"growth: Nd6kh3 for N = {', '.join(map(str, ns))} ...")
    # 5 rounds: the target is a ratio of ratios, so one disturbed round must not decide it.
    ours = {n: measure(lambda n=n: dice.Expression(f"{n}d6kh3").odds(), seconds, rounds=5)["best"]
            for n in ns}
    ice = {int(k): v for k, v in worker(ice_py, "worker_icepool.py", "growth",
                                        json.dumps({"ns": ns, "seconds": seconds,
                                                    "rounds": 5}))["times"].items()}
    for i, n in enumerate(ns):
        t.add("5 growth", f"`{n}d6kh3` warm" + (" — beyond the target range" if n in GROWTH_INFO_NS else ""),
              fmt_time(ours[n]) + (f" ×{ours[n] / ours[ns[i - 1]]:.2f}" if i else ""),
              fmt_time(ice[n]) + (f" ×{ice[n] / ice[ns[i - 1]]:.2f}" if i else ""),
              f"{ours[n] / ice[n]:.2f}", "", "info")

    def per_doubling(times: dict, a: int, b: int) -> float:
        return (times[b] / times[a]) ** (1 / math.log2(b / a))

    a, b = GROWTH_NS[0], GROWTH_NS[-1]
    g_ours, g_ice = per_doubling(ours, a, b), per_doubling(ice, a, b)
    t.add("5 growth", f"growth per doubling of N, {a} → {b} (geometric mean)",
          f"×{g_ours:.2f}", f"×{g_ice:.2f}", f"{g_ours / g_ice:.2f}", "ours ≤ icepool's",
          t.judge(g_ours <= g_ice))
    a, b = GROWTH_INFO_NS[0], GROWTH_INFO_NS[-1]
    g_ours, g_ice = per_doubling(ours, a, b), per_doubling(ice, a, b)
    t.add("5 growth", f"growth per doubling of N, {a} → {b} (beyond the target range)",
          f"×{g_ours:.2f}", f"×{g_ice:.2f}", f"{g_ours / g_ice:.2f}", "", "info")

    # Counting successes as the pool grows (issue 18's row): exact odds from scratch, both
    # sides' caches emptied before each call; the growth as a power of N over 50 → 500.
    from rulesengine.cache import ODDS, POOL_DISTS

    ns = SUCCESS_GROWTH_NS
    log(f"growth: Nd10cs>=8 for N = {', '.join(map(str, ns))}, from scratch ...")

    def fresh(n: int):
        POOL_DISTS.clear()
        ODDS.clear()
        return dice.Expression(f"{n}d10cs>=8").odds()

    ours = {n: measure(lambda n=n: fresh(n), seconds, rounds=5)["best"] for n in ns}
    ice = {int(k): v for k, v in worker(ice_py, "worker_icepool.py", "successes_growth",
                                        json.dumps({"ns": ns, "seconds": seconds, "rounds": 5}))["times"].items()}
    for n in ns:
        t.add("5 growth", f"`{n}d10cs>=8`, caches cleared", fmt_time(ours[n]), fmt_time(ice[n]),
              f"{ours[n] / ice[n]:.2f}", "", "info")
    a, b = ns[0], ns[-1]
    p_ours = math.log(ours[b] / ours[a]) / math.log(b / a)
    p_ice = math.log(ice[b] / ice[a]) / math.log(b / a)
    t.add("5 growth", f"counting successes `Nd10cs>=8`, time ∝ N^p over N = {a} → {b}",
          f"p = {p_ours:.2f}", f"p = {p_ice:.2f}", f"{p_ours - p_ice:+.2f}", "no worse than icepool (issue 18)",
          t.judge(p_ours <= p_ice), short="Nd10cs>=8 growth")


# ---- report ------------------------------------------------------------------------------


def machine() -> list[str]:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    uname = subprocess.run(["uname", "-a"], capture_output=True, text=True).stdout.strip() \
        or " ".join(platform.uname())
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip() or "unknown"
    # `git status` only reads (it may refresh the index's stat cache, as any status does).
    dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--", "rulesengine",
                            "rulesets", "schemas"], capture_output=True, text=True).stdout.split("\n")
    dirty_dirs = sorted({line[3:].split("/")[0] + "/" for line in dirty if len(line) > 3})
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    return [
        f"- date: {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M UTC}",
        f"- machine: `{uname}`",
        f"- CPU: {cpu} ({os.cpu_count()} logical CPUs)"
        + (f"; load average at start {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}" if load else ""),
        f"- Python: {platform.python_implementation()} {platform.python_version()} "
        "(the reference virtualenvs are made from the same interpreter)",
        f"- rulesengine {RULESENGINE_VERSION} at commit {commit}"
        + (" with uncommitted changes under " + ", ".join(dirty_dirs) if dirty_dirs else ""),
        "- seed rulesets: " + ", ".join(
            f"{rid} ({'could not load' if isinstance(load_seed(rid), Exception) else ', '.join(load_seed(rid).checks()) + ('; ' + ', '.join(load_seed(rid).procedures()) if load_seed(rid).procedures() else '')})"
            for rid in seed_cases.SEED_CHECKS),
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=0.3,
                    help="time box per timed case (default 0.3; best of 3 rounds within it)")
    ap.add_argument("--cold-reps", type=int, default=3,
                    help="fresh processes per odds case and library for the cold times (median)")
    ap.add_argument("--startup-reps", type=int, default=11, help="runs per start-up command (median)")
    ap.add_argument("--cap", type=float, default=10.0,
                    help="seconds one Nd6kh3 memory probe may take before it is killed (default 10)")
    ap.add_argument("--full", action="store_true",
                    help="also compute the largest Nd6kh3 the limits admit, to completion (minutes)")
    ap.add_argument("--only", default="roll,odds,startup,memory,growth",
                    help="comma-separated sections to run (default: all)")
    ap.add_argument("--write", type=Path, metavar="FILE",
                    help="also write the report (machine, date, table) to FILE, e.g. bench/RESULTS.md")
    ap.add_argument("--strict", action="store_true", help="exit 2 if a target is missed")
    args = ap.parse_args(argv)
    sections = set(args.only.split(","))

    started = time.perf_counter()
    header = machine()
    d20_py = ensure_env("d20") if "roll" in sections else None
    ice_py = ensure_env("icepool") if sections & {"odds", "memory", "growth"} else None
    cjs_py = ensure_env("check-jsonschema") if sections & {"startup", "memory"} else None
    header.append("- references: d20 1.1.2 in `bench/.venv-d20`, icepool 2.1.3 in `bench/.venv-icepool`, "
                  "check-jsonschema 0.39.0 in `bench/.venv-checkjsonschema`")
    t = Table()
    if "roll" in sections:
        bench_rolling(t, d20_py, args.seconds)
    if "odds" in sections:
        same = check_distributions(t, ice_py)
        bench_odds(t, ice_py, args.seconds, args.cold_reps, same)
        bench_pool_views(t, ice_py, args.seconds)
        bench_symbol_pool(t, ice_py, args.seconds)
        bench_seed_odds(t, args.seconds, args.cold_reps)
    if "startup" in sections or "memory" in sections:
        bench_startup(t, args.startup_reps, cjs_py)
    if "memory" in sections:
        bench_memory(t, ice_py, args.cap, args.full)
    if "growth" in sections:
        bench_growth(t, ice_py, args.seconds)
    elapsed = time.perf_counter() - started

    summary = []
    if t.mismatches:
        summary.append("**DISTRIBUTION MISMATCH with icepool:** " + "; ".join(t.mismatches))
    summary.append(f"Targets missed: {len(t.missed)}" + (" — " + "; ".join(t.missed) if t.missed else ""))
    if t.errors:
        summary.append(f"Errors (not measured): {len(t.errors)} — " + "; ".join(t.errors))
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    summary.append(f"Whole run: {elapsed:.0f} s"
                   + (f" (load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f})" if load else "")
                   + ". Ratios are rulesengine / reference for times "
                   "(lower is better) and rulesengine rate / reference rate for rolls (higher "
                   "is better); see bench/README.md for how each number is measured.")
    body = t.markdown() + "\n\n" + "\n\n".join(summary) + "\n"
    print(body)
    if args.write:
        # bench/pools.py keeps its own section at the end of the same file: carried over as it is
        old = args.write.read_text(encoding="utf-8") if args.write.exists() else ""
        kept = old[old.find(POOLS_SECTION):] if POOLS_SECTION in old else ""
        args.write.write_text("# Benchmark results\n\nThe latest output of `python bench/run.py` "
                              "(bench/README.md explains every row).\n\n" + "\n".join(header)
                              + "\n\n" + body + ("\n" + kept if kept else ""), encoding="utf-8")
        log(f"wrote {args.write}")
    if t.mismatches:
        return 1
    if args.strict and t.missed:
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
