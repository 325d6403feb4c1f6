"""Issue 33: the pools at table sizes, each a whole ``rulesengine odds`` process against the
icepool program that computes the same figures (bench/pools_icepool.py).

    python bench/pools.py [--reps 3] [--only 1,2,...] [--no-growth]

For each row: the CPU (user + system of the child, best of ``--reps`` after one untimed run
that also fills the bytecode cache and the store of parsed expressions) of
``rulesengine odds bench/pools/pools.yaml CHECK ... --json`` and of
``python bench/pools_icepool.py CHECK ...``, whose figures are compared as exact fractions:
every outcome's chance and every result's and reported value's (below ``result_cut_from``
where an explosion leaves the higher results open). A disagreement is printed loudly and
makes the exit status 1. Then growth with the pool's size (N = 10, 20, 30, 40) for items 1,
2 and 4, and the bare ``python -c pass`` of the same run. icepool must be installed in the
Python that runs this (``pip install -e ".[bench]"``).

Targets (issue 33): a row icepool can express ≤ 1.0 × icepool; a row it can't ≤ 0.5 s CPU;
a refusal at the inputs' maximum ≤ 1 s CPU; growth from N = 10 to 40 no worse than icepool's.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

BENCH = Path(__file__).resolve().parent
RULESET = BENCH / "pools" / "pools.yaml"
ICEPOOL = BENCH / "pools_icepool.py"

# As bench/run.py: bytecode caching on (an installed package has its .pyc files), into a
# cache of the bench's own, and a store of parsed expressions of its own.
CHILD_ENV = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "RULESENGINE_CACHE")}
CHILD_ENV["PYTHONPYCACHEPREFIX"] = str(BENCH / ".pycache")

STEP_DICE = ["d12", "d10", "d8", "d6", "d4"]


def step_pool(n: int) -> str:
    return "/".join(STEP_DICE[i % 5] for i in range(n))


def kinds(n: int) -> list[str]:
    """n symbol dice shared among the four kinds, as evenly as they go."""
    names = ["ability", "proficiency", "difficulty", "challenge"]
    return [f"{k}={n // 4 + (i < n % 4)}" for i, k in enumerate(names)]


@dataclass
class Row:
    item: str
    label: str
    check: str
    words: list[str]
    kind: str = "icepool"  # "icepool": ≤ 1.0 × icepool; "alone": ≤ 0.5 s; "refusal": refused in ≤ 1 s
    why: str = ""  # why icepool has no program for the row
    slow: bool = False  # timed once (best of 1)
    notes: list[str] = field(default_factory=list)


NO_STEP = ("no icepool program at 30 dice: the one that checks 4 and 5 dice lists every throw (10^25 here), and a "
           "multiset of faces, which icepool's pool evaluators read, does not say which die showed each")
NO_REFUSAL = "a refusal: no icepool figure"
ROWS = [
    Row("–", "the floor: one d6 (start-up, loading the ruleset, writing JSON)", "floor", []),
    Row("1", "30d10, 7+, faces from `double` count twice (count), double=7..11", "threshold", ["pool=30", "double=7..11"]),
    Row("1", "the same written with if() on the input", "threshold_if", ["pool=30", "double=7..11"]),
    Row("2", "push: 5 base + 10 stress dice, all rolled again on no 6 and no 1", "push", ["base=5", "stress=10"]),
    Row("2", "push of the 6s, `(count(pool_dice, 6))d6!cs>=5`, 15 dice", "push_sixes", ["pool=15"]),
    Row("2", "push of the 6s, 30 dice", "push_sixes", ["pool=30"]),
    Row("3", "refused: one push of 12 + 12 + 12 dice", "push_three", ["base=12", "skill=12", "gear=12"],
        "refusal", NO_REFUSAL),
    Row("3", "refused: three pools pushed apart, 12 + 12 + 12", "push_apart", ["base=12", "skill=12", "gear=12"],
        "refusal", NO_REFUSAL),
    Row("4", "symbols: 30 dice of four kinds, net, advantage, triumphs, despairs", "symbols", kinds(30)),
    Row("5", "30d10 against difficulty=1..30 (8+, a 10 twice, botch)", "difficulty", ["dice=30", "difficulty=1..30"]),
    Row("6", "step dice `(pool)p1`, best 2, `largest_die` effect, 30 dice", "step",
        [f"pool={step_pool(30)}", "difficulty=15"], "alone", NO_STEP),
    Row("6", "step dice, 4 dice (d12/d10/d8/d6)", "step", [f"pool={step_pool(4)}", "difficulty=15"]),
    Row("6", "step dice, 5 dice (d12/d10/d8/d6/d4)", "step", [f"pool={step_pool(5)}", "difficulty=15"], slow=True),
    Row("7", "d100 roll-under, two penalty dice, skill=1..100", "percentile", ["skill=1..100"]),
    Row("8", "40d10!cs>=8, botch on count(initial(roll), 1), need=10", "exploding", ["pool=40", "need=10"]),
    Row("+", "not an item: One-Roll Engine sets, 10d10, the widest set and how many faces show", "sets",
        ["dice=10"]),
]
GROWTH_NS = [10, 20, 30, 40]
GROWTH = [
    ("1", "threshold, double=9", "threshold", lambda n: [f"pool={n}", "double=9"]),
    ("2", "push of the 6s", "push_sixes", lambda n: [f"pool={n}"]),
    ("4", "symbols, four kinds", "symbols", kinds),
]


def ours_argv(check: str, words: list[str]) -> list[str]:
    return [sys.executable, "-m", "rulesengine", "odds", str(RULESET), check, *words, "--json"]


def icepool_argv(check: str, words: list[str]) -> list[str]:
    return [sys.executable, str(ICEPOOL), check, *words]


def run(argv: list[str]) -> tuple[float, subprocess.CompletedProcess]:
    """One run of ``argv``: its CPU (user + system) and what it wrote."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, capture_output=True, text=True, env=CHILD_ENV)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done


def best(argv: list[str], reps: int) -> tuple[float, subprocess.CompletedProcess]:
    """Best CPU of ``reps`` runs after an untimed one, and the untimed run's output."""
    _, first = run(argv)
    return min(run(argv)[0] for _ in range(reps)), first


# --- agreement -------------------------------------------------------------------------------

def _fractions(part: dict) -> dict:
    return {str(k): Fraction(v) for k, v in part.items() if Fraction(v) != 0}


def normalise_ours(text: str) -> dict[tuple, dict]:
    """``rulesengine odds --json`` (one answer or a sweep's list) as {inputs: figures}; a
    result at or past ``result_cut_from`` (left open by the explode depth) is left out."""
    data = json.loads(text)
    out = {}
    for entry in data if isinstance(data, list) else [data]:
        cut = entry.get("result_cut_from")
        result = {str(r["value"]): r["exact"] for r in entry["result"] if cut is None or r["value"] < cut}
        out[_key(entry["inputs"])] = {
            "outcomes": _fractions({o["name"]: o["exact"] for o in entry["outcomes"]}),
            "result": _fractions(result),
            "values": {n: _fractions({str(r["value"]): r["exact"] for r in rows}) for n, rows in entry["values"].items()},
            "cut": cut,
            "truncated": Fraction(entry["truncated"]),
            "result_truncated": Fraction(entry["result_truncated"]),
        }
    return out


def normalise_icepool(text: str) -> dict[tuple, dict]:
    return {_key(e["inputs"]): {"outcomes": _fractions(e["outcomes"]), "result": _fractions(e["result"]),
                                "values": {n: _fractions(v) for n, v in e["values"].items()},
                                "cut": _fractions(e.get("cut", {}))}
            for e in json.loads(text)}


def _key(inputs: dict) -> tuple:
    return tuple(sorted((k, str(v)) for k, v in inputs.items()))


def disagreements(ours_json: str, icepool_json: str) -> list[str]:
    """Every figure on which the two programs differ (empty when they agree)."""
    ours, theirs = normalise_ours(ours_json), normalise_icepool(icepool_json)
    if ours.keys() != theirs.keys():
        return [f"different inputs: {sorted(ours)} against {sorted(theirs)}"]
    found = []
    for key, mine in ours.items():
        other = theirs[key]
        cut = mine["cut"]
        # Throws whose explosion the depth cut: icepool tallies them apart. rulesengine either
        # decides their outcome (truncated 0) or leaves their mass out as `truncated`; either
        # way its results leave them out (`result_truncated`), exact below `result_cut_from`.
        cut_mass = sum(other["cut"].values(), Fraction(0))
        if mine["truncated"] == 0:
            for name, p in other["cut"].items():
                other["outcomes"][name] = other["outcomes"].get(name, Fraction(0)) + p
        elif mine["truncated"] != cut_mass:
            found.append(f"{dict(key)} truncated: {mine['truncated']} vs {cut_mass}")
        if mine["result_truncated"] != cut_mass:
            found.append(f"{dict(key)} result_truncated: {mine['result_truncated']} vs {cut_mass}")
        if cut is not None:
            other["result"] = {v: p for v, p in other["result"].items() if int(v) < cut}
        for part in ("outcomes", "result"):
            if mine[part] != other[part]:
                found.append(f"{dict(key)} {part}: {_diff(mine[part], other[part])}")
        if mine["values"] != other["values"]:
            for name in sorted(set(mine["values"]) | set(other["values"])):
                a, b = mine["values"].get(name, {}), other["values"].get(name, {})
                if a != b:
                    found.append(f"{dict(key)} value {name}: {_diff(a, b)}")
    return found


def _diff(a: dict, b: dict) -> str:
    keys = sorted(set(a) | set(b), key=lambda k: (len(k), k))
    return ", ".join(f"{k}: {a.get(k)} vs {b.get(k)}" for k in keys if a.get(k) != b.get(k))[:300]


def agree(check: str, words: list[str]) -> list[str]:
    """Run both programs once and compare their figures (the test's entry point)."""
    _, ours = run(ours_argv(check, words))
    _, theirs = run(icepool_argv(check, words))
    if ours.returncode or theirs.returncode:
        return [f"exit {ours.returncode}/{theirs.returncode}: {ours.stderr.strip()[:300]} {theirs.stderr.strip()[:300]}"]
    return disagreements(ours.stdout, theirs.stdout)


# --- the table -------------------------------------------------------------------------------

def refusal(done: subprocess.CompletedProcess) -> str:
    """A refusal as the table shows it: its code, limit and message (``--json`` writes the
    error as JSON on stderr; its path is left out)."""
    try:
        error = json.loads(done.stderr)
    except ValueError:
        return "failed: " + done.stderr.strip()[-120:]
    message = error["message"].split(": ", 1)[-1]
    return f"refused, {error['code']} {error.get('limit', '')}: {message}"


def measure_row(row: Row, reps: int, bare: float) -> tuple[str, bool, bool]:
    """The row's table line, whether its figures agree, whether it holds its target."""
    runs = 1 if row.slow else reps
    mine, done = best(ours_argv(row.check, row.words), runs)
    if row.kind == "refusal":
        refused = done.returncode == 1 and "E210" in done.stderr
        said = refusal(done) if refused else f"NOT refused (exit {done.returncode})"
        holds = refused and mine <= 1.0
        return f"| {row.item} | {row.label} | {mine:.2f} s | — | — | — | ≤ 1 s | {'holds' if holds else 'MISSES'} | {said} |", True, holds
    if row.kind == "alone":
        if done.returncode:
            said = refusal(done)
        else:
            said = f"P(success) {float(json.loads(done.stdout)['success']['probability']):.4f}"
        holds = done.returncode == 0 and mine <= 0.5
        return (f"| {row.item} | {row.label} | {mine:.2f} s | — | — | — | ≤ 0.5 s | {'holds' if holds else 'MISSES'} | "
                f"{said}; {row.why} |"), True, holds
    theirs, their_done = best(icepool_argv(row.check, row.words), runs)
    if done.returncode or their_done.returncode:
        found = [f"exit {done.returncode}/{their_done.returncode}: {done.stderr.strip()[:200]} {their_done.stderr.strip()[:200]}"]
    else:
        found = disagreements(done.stdout, their_done.stdout)
    if found:
        print("DISAGREEMENT " + row.label + ":\n  " + "\n  ".join(found[:10]), file=sys.stderr)
    ratio = mine / theirs
    holds = not found and ratio <= 1.0
    said = "same figures" if not found else "**DISAGREE**"
    excess = (mine - bare) / max(theirs - bare, 1e-3)
    return (f"| {row.item} | {row.label} | {mine:.2f} s | {theirs:.2f} s | {ratio:.2f} | {excess:.2f} | ≤ 1.00 | "
            f"{'holds' if holds else 'MISSES'} | {said} |"), not found, holds


def growth(reps: int, bare: float) -> list[str]:
    """Growth with the pool's size: each N's two processes, and t(40) / t(10) of each side. A
    size rulesengine refuses is shown as refused, and the growth is then over the sizes
    both answered (the row says so, and misses)."""
    lines = ["| item | row | " + " | ".join(f"N={n} ours / icepool" for n in GROWTH_NS)
             + " | growth, ours (over bare) | icepool (over bare) | |",
             "|---" * (len(GROWTH_NS) + 5) + "|"]
    for item, label, check, make in GROWTH:
        cells, ours_t, theirs_t, answered, ok = [], [], [], [], True
        for n in GROWTH_NS:
            mine, done = best(ours_argv(check, make(n)), reps)
            theirs, their_done = best(icepool_argv(check, make(n)), reps)
            if done.returncode:
                ok = False
                cells.append(f"{refusal(done).split(':')[0]} in {mine:.2f} s / {theirs:.2f}")
                continue
            found = disagreements(done.stdout, their_done.stdout) if not their_done.returncode else ["exit status"]
            if found:
                ok = False
                print(f"DISAGREEMENT growth {label} N={n}: {found[:3]}", file=sys.stderr)
            answered.append(n)
            ours_t.append(mine)
            theirs_t.append(theirs)
            cells.append(f"{mine:.2f} / {theirs:.2f}" + ("" if not found else " **DISAGREE**"))
        span = f"{answered[0]}→{answered[-1]}: " if answered and answered[-1] != GROWTH_NS[-1] else ""
        g_ours, g_theirs = ours_t[-1] / ours_t[0], theirs_t[-1] / theirs_t[0]
        x_ours = (ours_t[-1] - bare) / max(ours_t[0] - bare, 1e-3)
        x_theirs = (theirs_t[-1] - bare) / max(theirs_t[0] - bare, 1e-3)
        holds = ok and g_ours <= g_theirs
        lines.append(f"| {item} | {label} | " + " | ".join(cells)
                     + f" | {span}×{g_ours:.2f} (×{x_ours:.2f}) | {span}×{g_theirs:.2f} (×{x_theirs:.2f}) | "
                     f"{'holds' if holds else 'MISSES'} |")
        print(lines[-1], file=sys.stderr, flush=True)
    return lines


SECTION = "<!-- bench/pools.py -->"  # bench/run.py --write keeps what follows it
NOTES = "<!-- notes: kept by bench/pools.py --write -->"


def write(path: Path, started: str, load_start: tuple, lines: list[str]) -> None:
    """Put this run's tables in ``path`` as its last section (after ``SECTION``), keeping
    the notes written by hand below ``NOTES``."""
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    head, _, section = old.partition(SECTION)
    notes = section[section.find(NOTES):] if NOTES in section else NOTES + "\n"
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=BENCH).stdout.strip()
    load_end = os.getloadavg()
    import icepool  # the bench extra

    text = (f"{SECTION}\n## Issue 33: pools at table sizes against icepool — `bench/pools.py`\n\n"
            f"The latest output of `python bench/pools.py --write bench/RESULTS.md` (bench/README.md, "
            f"\"Pools at table sizes\", explains the rows). CPU is user + system of each whole process, "
            f"best of the timed runs after an untimed one.\n\n"
            f"- date: {started}\n- machine: `{' '.join(os.uname()[i] for i in (0, 2, 4))}`, "
            f"{os.cpu_count()} logical CPUs; load average at start {' '.join(f'{x:.2f}' for x in load_start)}, "
            f"at the end {' '.join(f'{x:.2f}' for x in load_end)}\n"
            f"- Python {sys.version.split()[0]}; icepool {icepool.__version__} in the same environment; "
            f"rulesengine at commit {commit}\n- " + "\n".join(lines) + "\n\n" + notes)
    path.write_text(head.rstrip("\n") + "\n\n" + text, encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=3, help="timed runs per process (best of), after an untimed one")
    parser.add_argument("--only", default="", help="items to run, e.g. 1,4 (default: all)")
    parser.add_argument("--no-growth", action="store_true")
    parser.add_argument("--write", type=Path, metavar="FILE",
                        help="also write the tables as the last section of FILE (bench/RESULTS.md), keeping "
                             "the section's hand-written notes")
    args = parser.parse_args()
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load_start = os.getloadavg()
    store = tempfile.mkdtemp(prefix="rulesengine-bench-store-")
    CHILD_ENV["RULESENGINE_CACHE_DIR"] = store
    try:
        bare = best([sys.executable, "-c", "pass"], max(args.reps, 5))[0]
        icepool_import = best([sys.executable, "-c", "import icepool"], args.reps)[0]
        lines = [f"bare `python -c pass`: {bare:.3f} s CPU; `python -c 'import icepool'`: {icepool_import:.3f} s CPU",
                 "", "| item | row | ours | icepool | ratio | ratio over bare | target | | figures |",
                 "|---|---|---|---|---|---|---|---|---|"]
        all_agree, all_hold = True, True
        only = set(args.only.split(",")) if args.only else None
        for row in ROWS:
            if only and row.item not in only:
                continue
            line, agreed, holds = measure_row(row, args.reps, bare)
            all_agree &= agreed
            all_hold &= holds
            lines.append(line)
            print(line, file=sys.stderr, flush=True)
        if not args.no_growth:
            lines += ["", "Growth, N = 10 → 40 (CPU of each whole process, s):", "", *growth(args.reps, bare)]
        lines.append(f"\nfigures {'agree' if all_agree else 'DISAGREE'}; "
                     f"targets {'all hold' if all_hold else 'not all hold'}")
        print("\n".join(lines))
        if args.write:
            write(args.write, started, load_start, lines)
        return 0 if all_agree else 1
    finally:
        shutil.rmtree(store, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
