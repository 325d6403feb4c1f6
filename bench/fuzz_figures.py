"""The figures behind docs/limits.md: the hostile corpus, and the fuzz counts.

    python bench/fuzz_figures.py                  # hostile corpus + the default fuzz run
    python bench/fuzz_figures.py --long           # hostile corpus + the long fuzz run
    python bench/fuzz_figures.py --only corpus    # or --only fuzz
    python bench/fuzz_figures.py --stats FILE     # keep the fuzz counts (JSON) in FILE
    python bench/fuzz_figures.py --only fuzz --long --select tests/test_fuzz_rulesets.py

Hostile corpus: each case runs in its own child process (``tests/fuzz_support.run_child``)
with an address-space limit (``--memory-mb``, default 4096, so that a runaway case ends in
MemoryError instead of taking the machine) and a timeout (``--timeout``, default 60 s). For
each it prints the outcome (the error code and limit, the answer, or the crash), the wall
time and the child's peak resident memory (``ru_maxrss`` from ``os.wait4``; a bare
``import rulesengine`` child is printed first as the baseline both include).

Fuzz run: the fuzz tests (tests/test_fuzz_dice.py, test_fuzz_rulesets.py, test_fuzz_cli.py)
run under pytest in a child with ``RULESENGINE_FUZZ_STATS`` set; every case counts itself
(kind, outcome, worst time); printed per kind with pytest's verdict, the wall time and the
peak memory of the whole run. ``--long`` sets ``RULESENGINE_LONG_FUZZ=1``
(``RULESENGINE_FUZZ_SCALE`` scales its counts).

Progress goes to stderr, the tables (markdown) to stdout. Exit status 0, or 1 if a fuzz
test failed or a corpus case crashed (an exception that is not a RulesEngineError, exit
status 3, a timeout).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from fuzz_support import PICK_TEN, cli_code, run_child  # noqa: E402

# ---- the hostile corpus ---------------------------------------------------------------------------

# Each API case is the body of a function `case(tmp)` whose return value is the answer;
# `tmp` is a folder with the hostile files below.
_CHILD = """\
import json, sys
sys.path.insert(0, {root!r})
tmp = {tmp!r}
def case(tmp):
{body}
try:
    answer = case(tmp)
    print(json.dumps({{"outcome": "answer", "detail": str(answer)[:160]}}))
except BaseException as exc:
    from rulesengine.errors import RulesEngineError
    if isinstance(exc, RulesEngineError):
        limit = getattr(exc, "limit", None)
        print(json.dumps({{"outcome": exc.code + (" " + limit if limit else ""), "detail": str(exc)[:160]}}))
    else:
        print(json.dumps({{"outcome": "CRASH " + type(exc).__name__, "detail": str(exc)[:160]}}))
"""


def _indent(code: str) -> str:
    return "\n".join("    " + line for line in code.strip("\n").splitlines())


DICE = "import rulesengine\nfrom rulesengine import dice\n"
VALIDATE = ("from rulesengine.validate import validate_file\n"
            "r = validate_file(tmp + '/{name}')\n"
            "d = next((d for d in r.diagnostics if d.severity == 'error'), None)\n"
            "if d is None: return 'valid'\n"
            "raise __import__('rulesengine.errors', fromlist=['x']).RulesEngineError("
            "d.message + f' (line {{d.location.line}}, column {{d.location.column}})', code=d.code)\n")


def hostile_files(tmp: Path) -> None:
    """The hostile files the corpus validates."""
    levels = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    levels += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 10)]
    (tmp / "alias_bomb.yaml").write_text("\n".join(levels) + "\n", encoding="utf-8")
    (tmp / "ten_mb.yaml").write_bytes(b"ruleset: x\n" + b"# padding padding padding\n" * 400_000)
    (tmp / "deep.yaml").write_text("a: " + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    (tmp / "many_aliases.yaml").write_text("a: &a 1\nb: [" + ", ".join(["*a"] * 1000) + "]\n", encoding="utf-8")
    (tmp / "huge_int.yaml").write_text("ruleset: " + "9" * 100_000 + "\n", encoding="utf-8")
    (tmp / "many_nodes.yaml").write_text("ruleset: x\nlist:\n" + "- 1\n" * 260_000, encoding="utf-8")
    (tmp / "pick_ten.yaml").write_text(PICK_TEN, encoding="utf-8")
    (tmp / "pick_default.yaml").write_text(
        PICK_TEN.replace("pool: {type: dice_pool}", "pool: {type: dice_pool, default: 30d2}").replace(
            "      - {name: done, success: true}",
            "      - {name: high, success: true, when: total > 15}\n      - {name: done, success: true}"),
        encoding="utf-8")
    (tmp / "no_choices.yaml").write_text(
        'ruleset: no-choices\nname: x\nversion: "1"\nsource: {title: x}\nchecks:\n  c:\n'
        '    inputs:\n      level: {type: choice}\n    roll: 1d6\n    outcomes:\n'
        '      - {name: done, success: true}\n', encoding="utf-8")
    (tmp / "arity.yaml").write_text(PICK_TEN.replace("    result: total\n", "    result: abs()\n"),
                                    encoding="utf-8")
    gurps = (ROOT / "rulesets" / "gurps-4e.yaml").read_text(encoding="utf-8")
    (tmp / "billion_dice_roll.yaml").write_text(gurps.replace("roll: 3d6", "roll: 1000000000d6"), encoding="utf-8")
    rps = (ROOT / "rulesets" / "rps.yaml").read_text(encoding="utf-8")
    (tmp / "rps_rounds.yaml").write_text(rps.replace("        max: 1000\n", "        max: 100000000\n"),
                                         encoding="utf-8")
    (tmp / "deep_roll.yaml").write_text(gurps.replace("roll: 3d6", "roll: " + "(" * 70 + "3d6" + ")" * 70),
                                        encoding="utf-8")


def corpus() -> list[tuple[str, str, str]]:
    """(name, kind, code): kind "api" (a case body) or "cli" (argv as code)."""
    deep = "(" * 20_000 + "1" + ")" * 20_000
    cases = [
        # the corpus
        ("alias bomb (9 levels x 9: 387 M nodes expanded)", "api", VALIDATE.format(name="alias_bomb.yaml")),
        ("`1000000000d6` roll", "api", DICE + "return dice.roll('1000000000d6', seed=1).total"),
        ("`1000000000d6` odds", "api", DICE + "return dice.odds('1000000000d6').mean"),
        ("`d1!` (explodes on every face)", "api", DICE + "return dice.roll('d1!', seed=1).total"),
        ("20,000 nested parentheses", "api", DICE + f"return dice.roll({deep!r}, seed=1).total"),
        ("`100d100kh50` exact odds", "api", DICE + "return dice.odds('100d100kh50').mean"),
        ("a 10 MB file", "api", VALIDATE.format(name="ten_mb.yaml")),
        # dice expressions
        ("100 nested parentheses (< 1000 characters)", "api",
         DICE + "return dice.roll('(' * 100 + '1' + ')' * 100, seed=1).total"),
        ("200 unary minus signs", "api", DICE + "return dice.roll('-' * 200 + '1', seed=1).total"),
        ("`1+1+...` (1,201 characters)", "api", DICE + "return dice.roll('1+' * 600 + '1', seed=1).total"),
        ("a 5,000-digit number", "api", DICE + "return dice.roll('9' * 5000, seed=1).total"),
        ("`1000000*1000000*1000000*1000000`", "api",
         DICE + "return dice.roll('1000000*1000000*1000000*1000000', seed=1).total"),
        ("`d10000000` (10 million sides)", "api", DICE + "return dice.roll('d10000000', seed=1).total"),
        ("`10000d6!` roll (explosions past max_dice)", "api",
         DICE + "return [dice.roll('10000d6!', seed=s).total for s in range(20)][-1]"),
        ("`10000d6!` odds", "api", DICE + "return dice.odds('10000d6!').mean"),
        ("`1000d2r<=1` roll (reroll until the face is not 1)", "api",
         DICE + "return dice.roll('1000d2r<=1', seed=1).total"),
        ("`d6!!` odds at explode depth 1,000,000", "api",
         DICE + "return dice.odds('d6!!', explode_depth=1_000_000).mean"),
        ("`10000d6kh3` exact odds", "api", DICE + "return float(dice.odds('10000d6kh3').mean)"),
        ("`d1000000` roll", "api", DICE + "return dice.roll('d1000000', seed=1).total"),
        ("`d1000000` exact odds", "api", DICE + "return len(dice.odds('d1000000').distribution)"),
        ("`d1000000` exact odds as JSON (`to_dict`)", "api",
         DICE + "return len(dice.odds('d1000000').to_dict()['distribution'])"),
        # ruleset files
        ("YAML nested 100,000 deep", "api", VALIDATE.format(name="deep.yaml")),
        ("1,000 aliases of one anchor", "api", VALIDATE.format(name="many_aliases.yaml")),
        ("a 100,000-digit integer in YAML", "api", VALIDATE.format(name="huge_int.yaml")),
        ("260,000 sequence items (~1 MB)", "api", VALIDATE.format(name="many_nodes.yaml")),
        ("gurps-4e with `roll: 1000000000d6`", "api", VALIDATE.format(name="billion_dice_roll.yaml")),
        ("gurps-4e with a roll nested 70 deep", "api", VALIDATE.format(name="deep_roll.yaml")),
        ("pick 10 of a 100-die pool, roll", "api",
         "from rulesengine.ruleset import load\n"
         "return load(tmp + '/pick_ten.yaml').check('action').roll({'pool': '100d4'}, seed=1).result"),
        ("shipped mudd, odds with a 10-die pool", "api",
         "from rulesengine.ruleset import load\n"
         "return load('mudd').check('action').odds({'pool': 'd12/d10/d8/d6/d4/d12/d10/d8/d6/d4', "
         "'precision_target': 5, 'impact_target': 2}).success"),
        ("shipped mudd, `pool=99999999999999999999d4`", "api",
         "from rulesengine.ruleset import load\n"
         "return load('mudd').check('action').roll({'pool': '99999999999999999999d4', "
         "'precision_target': 5, 'impact_target': 2}, seed=1).result"),
        ("shipped rps sustained action, goal 100, 1000 rounds, odds", "api",
         "from rulesengine.ruleset import load\n"
         "return float(load('rps').procedure('sustained').odds({'goal': 100, 'max_rounds': 1000, "
         "'skill': 10, 'attribute': 10}).success)"),
        ("rps with its max_rounds bound raised, 1,000,000 rounds", "api",
         "from rulesengine.ruleset import load\n"
         "return load(tmp + '/rps_rounds.yaml').procedure('sustained').odds({'goal': 100, "
         "'max_rounds': 1_000_000, 'skill': 10, 'attribute': 10}).success"),
        ("shipped rps sustained, skill 0, goal 100, max_rounds=1000, odds", "api",
         "from rulesengine.ruleset import load\n"
         "return float(load('rps').procedure('sustained').odds({'goal': 100, 'max_rounds': 1000, "
         "'skill': 0, 'attribute': 0}).success)"),
        ("shipped spycraft-2e opposed contest, 4 parties, odds", "api",
         "from rulesengine.ruleset import load\n"
         "rs = load('spycraft-2e'); p = rs.procedure('opposed')\n"
         "need = lambda specs: {s.name: (s.min if s.type == 'integer' and s.min is not None else "
         "s.choices[0] if s.choices else False) for s in specs if not (s.has_default or s.optional)}\n"
         "party = need(rs.check(p.proc.check).model.inputs)\n"
         "return p.odds(need(p.proc.inputs), parties=[party] * 4).wins"),
        ("validate: pick 10 of a default pool of 30d2 (20 lines)", "api", VALIDATE.format(name="pick_default.yaml")),
        ("validate: a choice input without choices", "api", VALIDATE.format(name="no_choices.yaml")),
        ("validate: `result: abs()`", "api", VALIDATE.format(name="arity.yaml")),
        # the command line
        ("CLI `roll mudd action pool=999999999d4 ...`", "cli",
         cli_code(["roll", "mudd", "action", "pool=999999999d4", "precision_target=5", "impact_target=2"])),
        ("CLI `roll gurps-4e quick_contest party100000000000.skill=10`", "cli",
         cli_code(["roll", "gurps-4e", "quick_contest", "party1.skill=10", "party100000000000.skill=10"])),
        ("CLI `odds gurps-4e success_roll skill=1..100000000000`", "cli",
         cli_code(["odds", "gurps-4e", "success_roll", "skill=1..100000000000"])),
        ("CLI `odds ... skill=1..10000000` (10 M values)", "cli",
         cli_code(["odds", "gurps-4e", "success_roll", "skill=1..10000000"])),
        ("CLI `odds ... skill=1..5000 modifier=1..5000`", "cli",
         cli_code(["odds", "gurps-4e", "success_roll", "skill=1..5000", "modifier=1..5000"])),
        ("CLI `dice d1000000 --odds`", "cli", cli_code(["dice", "d1000000", "--odds"])),
        ("CLI `odds rps sustained_attribute goal=5 max_rounds=801..1000 attribute=0 ...` (a sweep)", "cli",
         cli_code(["odds", "rps", "sustained_attribute", "goal=5", "max_rounds=801..1000", "attribute=0",
                   "other_modifier=-40", "retry=-5", "--csv"])),
        ("CLI `dice \"'hard'\" --odds` (text odds)", "cli", cli_code(["dice", "'hard'", "--odds"])),
        # issue 19, items 3, 4, 8, 9, 11
        ("CLI `dice \"2000d2!cs=3\" --odds --json` (6,623-digit fractions)", "cli",
         cli_code(["dice", "2000d2!cs=3", "--odds", "--json"])),
        ("CLI `dice \"10000d2!!cs10\" --odds --explode-depth 1`", "cli",
         cli_code(["dice", "10000d2!!cs10", "--odds", "--explode-depth", "1"])),
        ("CLI `dice \"750d1000cs=1 > 0 and 750d1000cs=1 > 0\" --odds`", "cli",
         cli_code(["dice", "750d1000cs=1 > 0 and 750d1000cs=1 > 0", "--odds"])),
        ("`1000d1000000kh1` exact odds", "api", DICE + "return dice.odds('1000d1000000kh1').mean"),
        ("`200d1000000kh1` exact odds", "api", DICE + "return dice.odds('200d1000000kh1').mean"),
        ("`10000d1000000kh9999` exact odds", "api", DICE + "return dice.odds('10000d1000000kh9999').mean"),
        ("`d(d(1000000))` exact odds", "api", DICE + "return dice.odds('d(d(1000000))').mean"),
        ("`floor((1000d%r=-1!!>3cf=1) / 10dFdh1)` exact odds", "api",
         DICE + "return dice.odds('floor((1000d%r=-1!!>3cf=1) / 10dFdh1)').mean"),
        ("`d1000000 < d(x)`: refused at x = 1000, then x = 1 (cached d1000000 charged)", "api",
         DICE + "try:\n    dice.odds('d1000000 < d(x)', env={'x': 1000})\nexcept Exception:\n    pass\n"
         "return dice.odds('d1000000 < d(x)', env={'x': 1}).mean"),
        ("30 refused `dice.odds('d1000000 + {i}')` in one process", "api",
         DICE + "for i in range(30):\n    try:\n        dice.odds(f'd{1000000 - i} + {i}')\n"
         "    except rulesengine.LimitError:\n        pass\nreturn 'all refused'"),
    ]
    return cases


def run_corpus(memory_mb: int, timeout: float, only: str | None) -> tuple[list[str], bool]:
    lines = ["| case | outcome | wall time | peak memory |", "|---|---|---|---|"]
    crashed = False
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        hostile_files(tmp)
        base = run_child("import rulesengine.dice, rulesengine.ruleset, rulesengine.cli", timeout=timeout)
        lines.append(f"| (baseline: a child that only imports rulesengine) | - | {base.seconds:.2f} s | "
                     f"{base.peak_mb:.0f} MB |")
        for name, kind, body in corpus():
            if only and only not in name:
                continue
            print(f"corpus: {name}", file=sys.stderr, flush=True)
            if kind == "api":
                code = _CHILD.format(root=str(ROOT), tmp=str(tmp), body=_indent(body))
            else:
                code = body
            run = run_child(code, timeout=timeout, memory_mb=memory_mb)
            if run.timed_out:
                outcome, bad = f"**TIMEOUT** (killed after {timeout:g} s)", True
            elif kind == "api":
                last = run.stdout.strip().splitlines()[-1:] or ['{"outcome": "no output", "detail": ""}']
                try:
                    data = json.loads(last[0])
                except ValueError:
                    data = {"outcome": f"exit {run.returncode}", "detail": run.stderr.strip()[-160:]}
                bad = data["outcome"].startswith("CRASH") or run.returncode != 0
                outcome = (("**" + data["outcome"] + "**") if bad else data["outcome"]) + \
                    (f": {data['detail']}" if data.get("detail") else "")
            else:
                first = (run.stderr.strip().splitlines() or run.stdout.strip().splitlines() or [""])[0]
                bad = run.returncode not in (0, 1, 2)
                outcome = (f"**exit {run.returncode}**" if bad else f"exit {run.returncode}") + \
                    (f": {first[:160]}" if first else "")
            crashed |= bad
            outcome = outcome.replace("|", "\\|").replace("\n", " ")
            lines.append(f"| {name} | {outcome} | {run.seconds:.2f} s | {run.peak_mb:.0f} MB |")
    return lines, crashed


# ---- the fuzz run -----------------------------------------------------------------------------------

FUZZ_FILES = ["tests/test_fuzz_dice.py", "tests/test_fuzz_rulesets.py", "tests/test_fuzz_cli.py"]
KIND_GROUPS = {"dice expressions (API)": ("dice",), "ruleset mutants": ("rulesets",),
               "CLI argument lists": ("cli-",)}


def run_fuzz(long: bool, stats_path: str | None, select: list[str] | None = None) -> tuple[list[str], bool]:
    stats = stats_path or tempfile.mktemp(prefix="fuzz-stats-", suffix=".json")
    env = {"RULESENGINE_FUZZ_STATS": stats, "RULESENGINE_LONG_FUZZ": "1" if long else "0"}
    tests = select or FUZZ_FILES
    code = ("import sys, pytest; sys.exit(pytest.main(" + repr(["-q", "-p", "no:cacheprovider", *tests])
            + "))")
    print(f"fuzz: running {'the long' if long else 'the default'} fuzz run...", file=sys.stderr, flush=True)
    run = run_child(code, timeout=24 * 3600, env=env)
    data = json.loads(Path(stats).read_text(encoding="utf-8")) if Path(stats).exists() else {}
    summary = [line for line in run.stdout.strip().splitlines() if " passed" in line or " failed" in line]
    failed = run.returncode != 0
    lines = [f"{'Long' if long else 'Default'} fuzz run: pytest {' '.join(tests)} -> "
             f"{summary[-1].strip('= ') if summary else 'exit ' + str(run.returncode)}; "
             f"wall time {run.seconds / 60:.1f} min, peak memory {run.peak_mb:.0f} MB", "",
             "| kind | cases | outcomes | crashes (known bugs) | worst time per case |", "|---|---|---|---|---|"]
    totals = {}
    for kind, k in data.items():
        outcomes = k["outcomes"]
        bugs = {o: n for o, n in outcomes.items() if o.startswith("known-bug:")}
        shown = ", ".join(f"{o} {n}" for o, n in list(outcomes.items())[:6] if not o.startswith("known-bug:"))
        crash = ", ".join(f"{n} {o[len('known-bug:'):]}" for o, n in bugs.items()) or "0"
        lines.append(f"| {kind} | {k['cases']:,} | {shown} | {crash} | {k['worst_seconds']:.2f} s "
                     f"(`{k['worst_case'][:60].replace('|', '/')}`) |")
        for group, prefixes in KIND_GROUPS.items():
            if kind.startswith(prefixes):
                totals[group] = totals.get(group, 0) + k["cases"]
    lines.append("")
    lines.append("Totals: " + ", ".join(f"{n:,} {g}" for g, n in totals.items()))
    if failed:
        tail = "\n".join(run.stdout.strip().splitlines()[-40:])
        lines += ["", "pytest output (tail):", "```", tail, "```"]
    return lines, failed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--long", action="store_true", help="the long fuzz run (RULESENGINE_LONG_FUZZ=1)")
    ap.add_argument("--only", choices=["corpus", "fuzz"], help="only one of the two parts")
    ap.add_argument("--case", help="only corpus cases whose name contains this text")
    ap.add_argument("--stats", help="keep the fuzz counts (JSON) in this file")
    ap.add_argument("--select", nargs="+", metavar="TEST", help="only these fuzz tests (pytest node ids)")
    ap.add_argument("--memory-mb", type=int, default=4096, help="address-space limit of each corpus child")
    ap.add_argument("--timeout", type=float, default=60, help="seconds before a corpus child is killed")
    args = ap.parse_args(argv)
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(f"# Fuzz figures\n\n- date: {now}\n- machine: {platform.platform()}, {os.cpu_count()} CPUs, "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n- Python {platform.python_version()}\n")
    bad = False
    if args.only in (None, "corpus"):
        lines, crashed = run_corpus(args.memory_mb, args.timeout, args.case)
        print(f"## Hostile corpus (each case in a child: memory limit {args.memory_mb} MB, "
              f"timeout {args.timeout:g} s)\n")
        print("\n".join(lines) + "\n", flush=True)
        bad |= crashed
    if args.only in (None, "fuzz"):
        lines, failed = run_fuzz(args.long, args.stats, args.select)
        print("## Fuzzing\n")
        print("\n".join(lines), flush=True)
        bad |= failed
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
