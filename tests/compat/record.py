"""Record a release's answers for the compatibility corpus (tests/compat/README.md).

    python tests/compat/record.py v0.2.0 --copy    # copy today's files into tests/compat/v0.2.0/
    python tests/compat/record.py v0.2.0           # (re)record tests/compat/v0.2.0/answers.json

``--copy`` copies every shipped ruleset (rulesets/*.yaml), every test ruleset
(tests/rulesets/data/*.yaml) and the broken-file corpus (tests/corpus/broken/*.yaml) into the
release's folder, as the release has them. Recording then reads only the files in that folder
(any other ``*.yaml`` put there beside them too) with the engine that is importable, and writes
``answers.json``: for each file that loads, each check's exact odds on a small grid of inputs;
for each file that does not, its diagnostics' codes. Record a release with that release's
engine, before changing anything: the answers are what the release gave, and
``test_compat.py`` holds every later engine to them.

The grid: every input at its default (an input without one at the middle of its range, an
optional one left out), then each input alone moved to each of its other values (a number:
min, middle, max; yes/no: both; a choice: each). One at a time, so a check with six inputs
has about a dozen points, not 3**6. A point whose odds need more than ``BUDGET`` steps is
skipped with its reason recorded.

Kept to what every engine since the first release offers (``rulesengine.load``,
``Ruleset.check(...).odds``, ``validate.validate_file``), so it records an old engine too.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

BUDGET = 300_000
"""``max_states`` of each recorded point: smaller than the engine's default so that the whole
compat test stays quick; points that need more are skipped (with the reason recorded)."""

SOURCES = {"rulesets": ROOT / "rulesets", "test-rulesets": ROOT / "tests" / "rulesets" / "data",
           "broken": ROOT / "tests" / "corpus" / "broken"}
"""The release folder's subfolders and where ``--copy`` takes their files from."""

POOL_VALUES = ("d6", "d8/d6")
"""Values tried for a dice-pool input that has no default."""


def fraction(p: Fraction) -> str:
    """An exact probability as text: ``p/q`` (``0/1``, ``1/1`` included)."""
    p = Fraction(p)
    return f"{p.numerator}/{p.denominator}"


def _value_key(v: Any) -> Any:
    return v if isinstance(v, bool | int | str) or v is None else str(v)


def answers(odds: Any) -> dict[str, Any]:
    """What the compat corpus keeps of a check's odds: every outcome's probability, success,
    what explosions cut off, and each reported value's distribution, all exact."""
    values = {name: sorted(([_value_key(v), fraction(p)] for v, p in dist.items()), key=lambda r: repr(r[0]))
              for name, dist in sorted(odds.values.items())}
    return {"outcomes": {name: fraction(p) for name, p in sorted(odds.outcomes.items())},
            "success": fraction(odds.success), "truncated": fraction(odds.truncated), "values": values}


def input_values(spec: Any) -> tuple[Any, list[Any]]:
    """One input's base value (``None``: left out) and the values the grid tries."""
    if spec.type == "boolean":
        options: list[Any] = [False, True]
    elif spec.type == "choice":
        options = list(spec.choices)
    elif spec.type == "dice_pool":
        options = [spec.default] if spec.has_default else list(POOL_VALUES)
    elif spec.min is not None and spec.max is not None:
        options = sorted({spec.min, (spec.min + spec.max) // 2, spec.max})
    else:
        options = [v for v in (spec.min, spec.default, spec.max) if v is not None] or [0]
    if spec.has_default:
        base = spec.default
        if base not in options:
            options.insert(0, base)
    elif getattr(spec, "optional", False):
        base = None
    else:
        base = options[len(options) // 2]
    return base, options


def grid(inputs: Any) -> list[dict[str, Any]]:
    """The points tried: every input at its base value, then each one alone at its others."""
    bases = {}
    tries = []
    for spec in inputs:
        base, options = input_values(spec)
        bases[spec.name] = base
        tries.append((spec.name, [v for v in options if v != base]))
    base_point = {k: v for k, v in bases.items() if v is not None}
    points = [base_point]
    for name, others in tries:
        for v in others:
            points.append({**base_point, name: v})
    return points


def odds_of(rs: Any, check: str, point: dict[str, Any]) -> dict[str, Any]:
    """The recorded answer at one point: the odds' answers, or ``{"skipped": reason}`` when
    they need more than ``BUDGET`` steps, or ``{"error": code}`` when the engine refuses
    the inputs."""
    from rulesengine.errors import LimitError, RulesEngineError

    try:
        return answers(rs.check(check).odds(dict(point)))
    except LimitError as exc:
        return {"skipped": f"{exc.code} {exc.limit}: more work than the compat budget of {BUDGET:,} steps"}
    except RulesEngineError as exc:
        return {"error": exc.code}


def load_limited(path: Path) -> Any:
    import rulesengine
    from rulesengine.limits import DEFAULT_LIMITS

    return rulesengine.load(str(path), dataclasses.replace(DEFAULT_LIMITS, max_states=BUDGET))


def diagnostics(path: Path) -> dict[str, list[str]]:
    """A file's diagnostics' codes, errors and warnings apart, each list sorted."""
    from rulesengine.validate import validate_file

    report = validate_file(str(path))
    return {"errors": sorted(d.code for d in report.diagnostics if d.severity == "error"),
            "warnings": sorted(d.code for d in report.diagnostics if d.severity != "error")}


def record_file(path: Path) -> dict[str, Any]:
    found = diagnostics(path)
    if found["errors"]:
        return found
    rs = load_limited(path)
    checks = {}
    for name in rs.checks():
        checks[name] = [{"inputs": point, **odds_of(rs, name, point)}
                        for point in grid(rs.model.checks[name].inputs)]
    return {**found, "checks": checks}


def release_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.yaml") if p.is_file())


def copy_sources(folder: Path) -> None:
    for sub, source in SOURCES.items():
        target = folder / sub
        target.mkdir(parents=True, exist_ok=True)
        for path in sorted(source.glob("*.yaml")):
            shutil.copyfile(path, target / path.name)


def _commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                             check=False)
        return out.stdout.strip()
    except OSError:
        return ""


def record(release: str, commit: str | None = None) -> dict[str, Any]:
    from rulesengine import __version__

    folder = HERE / release
    files = {p.relative_to(folder).as_posix(): record_file(p) for p in release_files(folder)}
    return {"release": release, "engine_version": __version__, "engine_commit": commit or _commit(),
            "budget": BUDGET, "files": files}


def dump(result: dict[str, Any]) -> str:
    """The answers as JSON with one line per file's diagnostics and per point, so that a
    change to one answer is a change to one line."""
    def line(v: Any) -> str:
        return json.dumps(v, sort_keys=True, separators=(",", ":"))

    head = {k: v for k, v in result.items() if k != "files"}
    out = ["{" + ",\n".join(f" {json.dumps(k)}: {line(v)}" for k, v in sorted(head.items())) + ",", ' "files": {']
    files = []
    for name, rec in sorted(result["files"].items()):
        parts = [f'   "errors": {line(rec["errors"])}', f'   "warnings": {line(rec["warnings"])}']
        if "checks" in rec:
            checks = [f'    {json.dumps(c)}: [\n' + ",\n".join(f"     {line(p)}" for p in points) + "\n    ]"
                      for c, points in sorted(rec["checks"].items())]
            parts.append('   "checks": {\n' + ",\n".join(checks) + "\n   }")
        files.append(f"  {json.dumps(name)}: {{\n" + ",\n".join(parts) + "\n  }")
    return "\n".join(out) + "\n" + ",\n".join(files) + "\n }\n}\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("release", help="the release's folder name under tests/compat, e.g. v0.1.0")
    parser.add_argument("--copy", action="store_true", help="first copy today's ruleset files into it")
    parser.add_argument("--commit", help="the engine's commit to write down (default: git rev-parse HEAD)")
    args = parser.parse_args(argv)
    folder = HERE / args.release
    if args.copy:
        copy_sources(folder)
    if not folder.is_dir():
        parser.error(f"no folder {folder}; give --copy to make it")
    result = record(args.release, args.commit)
    text = dump(result)
    if json.loads(text) != result:
        raise SystemExit("internal: the answers do not read back as written")
    (folder / "answers.json").write_text(text, encoding="utf-8")
    points = sum(len(v) for f in result["files"].values() for v in f.get("checks", {}).values())
    print(f"{args.release}: {len(result['files'])} files, {points} points recorded", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
