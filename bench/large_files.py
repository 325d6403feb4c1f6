"""Time to validate and to load large ruleset files within the limits (issue 19, item 10).

    python bench/large_files.py

Prints one markdown table: for each generated file, its size, the CPU seconds of
`rulesengine validate` in a fresh process on the file's first run (the store of parsed
expressions empty) and on the next, and the seconds `loads` takes in this process (best of
three). The tests (tests/test_large_files.py) count the work
instead; this is where the seconds live.
"""

from __future__ import annotations

import time

from rulesengine.ruleset import loads

HEAD = 'ruleset: big\nname: Big\nversion: "1"\nsource: {title: x}\n'


def ranges(n: int) -> str:
    rows = "\n".join(f"      - {{min: {i * 2}, max: {i * 2 + 1}, value: {i}}}" for i in range(n))
    return (HEAD + f"tables:\n  big:\n    ranges:\n{rows}\nchecks:\n  c:\n    roll: 1d6\n    result: roll\n"
            "    outcomes:\n      - {name: hit, success: true, when: big(result) >= 4}\n"
            "      - {name: miss, success: false}\n")


def outcomes(n: int) -> str:
    rules = "".join(f"      - {{name: o{i}, success: true, when: result == {i + 1}}}\n" for i in range(n))
    return (HEAD + "checks:\n  c:\n    inputs:\n      skill: {type: integer, min: 0, max: 20}\n"
            f"    roll: 3d6\n    result: roll + skill\n    outcomes:\n{rules}      - {{name: miss, success: false}}\n")


def best(fn, reps: int = 3) -> float:
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def cli_cpu(path: str, cache: str) -> float:
    """CPU seconds (user + system) of `rulesengine validate PATH` in a fresh process using
    the store in ``cache``: what a CI job or a homebrewer's editor pays."""
    import os
    import resource
    import subprocess
    import sys

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "rulesengine", "validate", path], capture_output=True,
                   env={**os.environ, "RULESENGINE_CACHE_DIR": cache}, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    import tempfile
    from pathlib import Path

    print("| file | bytes | validate, first run (CPU s) | validate, next run (CPU s) | load (s) |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for label, text in [(f"ranges table, {n:,} rows", ranges(n)) for n in (1000, 4000, 10000)] + \
                           [(f"outcome rules, {n:,}", outcomes(n)) for n in (1000, 3000, 10000)]:
            path = Path(folder) / "big.yaml"
            path.write_text(text, encoding="utf-8")
            cache = tempfile.mkdtemp(dir=folder)  # the store empty, as on a file's first run
            first = cli_cpu(str(path), cache)
            again = cli_cpu(str(path), cache)
            print(f"| {label} | {len(text.encode()):,} | {first:.2f} | {again:.2f} | {best(lambda: loads(text)):.2f} |")


if __name__ == "__main__":
    main()
