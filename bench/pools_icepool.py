"""The icepool program beside bench/pools/pools.yaml: the same figures, worked out by icepool.

    python bench/pools_icepool.py CHECK name=value ...     (a value LO..HI sweeps that input)

takes the words ``rulesengine odds bench/pools/pools.yaml CHECK ...`` takes and prints, as
JSON, one entry per input value: the chance of each outcome, of each result and of each
reported value, as exact fractions ("p/q"). Explosions go 10 extra dice deep, as
rulesengine's default ``explode_depth``; a chain cut there keeps its last die (icepool's
default) and is tallied apart ("cut": the outcomes of the dice so far, which decide
every outcome asked here as a deeper chain would: each threshold is reached before the
cut), so that the figures can be compared with rulesengine's whether it decides those
outcomes or leaves them out as ``truncated``. Step dice (``step``) are listed throw by
throw, so only for a few dice; the refusals (``push_three``, ``push_apart``) have no program
here: bench/pools.py says why.

icepool is a bench-only dependency (``pip install -e ".[bench]"``).
"""

from __future__ import annotations

import itertools
import json
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable
from fractions import Fraction

import icepool
from icepool import Vector, d

DEPTH = 10  # rulesengine's default explode_depth: extra dice one die may add

# The narrative dice of pools.yaml: the symbols on each face.
SYMBOL_DICE = {
    "ability": [[], ["success"], ["success"], ["success", "success"], ["advantage"], ["advantage"],
                ["success", "advantage"], ["advantage", "advantage"]],
    "proficiency": [[], ["success"], ["success"], ["success", "success"], ["success", "success"], ["advantage"],
                    ["success", "advantage"], ["success", "advantage"], ["success", "advantage"],
                    ["advantage", "advantage"], ["advantage", "advantage"], ["triumph"]],
    "difficulty": [[], ["failure"], ["failure", "failure"], ["threat"], ["threat"], ["threat"],
                   ["threat", "threat"], ["failure", "threat"]],
    "challenge": [[], ["failure"], ["failure"], ["failure", "failure"], ["failure", "failure"], ["threat"],
                  ["threat"], ["failure", "threat"], ["failure", "threat"], ["threat", "threat"],
                  ["threat", "threat"], ["despair"]],
}

Figures = dict[str, dict]  # {"outcomes": {name: p}, "result": {value: p}, "values": {name: {value: p}}}


def dist(die: icepool.Die) -> dict:
    den = die.denominator()
    return {o: Fraction(q, den) for o, q in die.items() if q}


def tally(joint: dict, judge: Callable) -> Figures:
    """Outcomes and result from a joint distribution: ``judge(key)`` gives (outcome, result)."""
    outcomes: dict = defaultdict(Fraction)
    result: dict = defaultdict(Fraction)
    for key, p in joint.items():
        name, value = judge(key)
        outcomes[name] += p
        result[value] += p
    return {"outcomes": dict(outcomes), "result": dict(result), "values": {}, "cut": {}}


def with_botch(successes: dict, quiet: Fraction, judge: Callable[[int], str]) -> Figures:
    """A pool's figures from the distribution of its successes alone: a botch (no success
    and a 1) is P(no success) less the chance that every die shows neither a success nor a
    1 (``quiet``), so the 1s need no dimension of their own."""
    figures = tally(successes, lambda s: (judge(s), s))
    figures["outcomes"]["botch"] = successes.get(0, Fraction(0)) - quiet
    figures["outcomes"]["failure"] = figures["outcomes"].get("failure", Fraction(0)) + quiet - successes.get(0, 0)
    return figures


def neither(n: int, success: Callable[[int], bool]) -> Fraction:
    """The chance that each of ``n`` d10s shows neither a success nor a 1."""
    return Fraction(sum(1 for f in range(2, 11) if not success(f)), 10) ** n


def chain(success_at: int, sides: int, depth: int = DEPTH) -> icepool.Die:
    """The successes of one die that explodes on its top face (``dS!cs>=K``), ``depth`` extra
    dice deep. Each face is ``successes + 100 * (top face)``, so the chain's sum over 100
    counts its top faces and ``% 100`` its successes (at most depth + 1 < 100); a chain cut
    at the depth (every die showed the top face) is the outcome ``CUT``."""
    enc = d(sides).map(lambda f: int(f >= success_at) + 100 * int(f == sides))
    return enc.explode([100 + int(sides >= success_at)], depth=depth, end=CUT).map(
        lambda t: CUT if t >= CUT else t % 100)


CUT = 10**6  # a sentinel outcome: an explosion the depth cut (more than any pool's successes)


def uncut_pool(n: int, die: icepool.Die) -> tuple[dict, Fraction]:
    """The successes of ``n`` such dice over the throws none of whose chains was cut, and the
    chance that one was: each die is conditioned on its chain not being cut (icepool's
    ``reroll``), and the pool's distribution scaled by the chance that none was."""
    q = Fraction(die.quantity(CUT), die.denominator())
    whole = dist(n @ die.reroll([CUT], depth="inf"))
    scale = (1 - q) ** n
    return {v: p * scale for v, p in whole.items()}, 1 - scale


def floor() -> Figures:
    return tally(dist(d(6)), lambda r: ("success" if r >= 4 else "failure", r))


def threshold(pool: int, double: int) -> Figures:
    successes = dist(pool @ d(10).map(lambda f: int(f >= 7) + int(f >= double)))
    quiet = neither(pool, lambda f: f >= 7)
    return with_botch(successes, quiet, lambda s: "success" if s >= 1 else "failure")


def push(base: int, stress: int) -> Figures:
    sixes_ones = d(6).map(lambda f: Vector((int(f == 6), int(f == 1))))

    def judge(result: int, stress_ones: int) -> str:
        name = "panic" if result == 0 and stress_ones >= 1 else "success" if result >= 1 else "failure"
        return f"{name}|{result}"

    def first(b: Vector, s: Vector):
        if b[0] + s[0] == 0 and b[1] + s[1] == 0:  # no 6 and no 1: every die (2..5) is rolled again
            return icepool.map(lambda pb, ps: judge(pb[0] + ps[0], ps[1]), base @ sixes_ones, stress @ sixes_ones)
        return judge(b[0] + s[0], s[1])

    joint = dist(icepool.map(first, base @ sixes_ones, stress @ sixes_ones))
    return tally(joint, lambda k: (k.split("|")[0], int(k.split("|")[1])))


def push_sixes(pool: int) -> Figures:
    again = chain(5, 6)  # (count(pool_dice, 6))d6!cs>=5: one exploding d6 for each 6
    six = again.map(lambda a: CUT if a == CUT else a + 1)  # the 6 itself is a success
    die = d(6).map(lambda f: six if f == 6 else int(f >= 5))
    successes, cut = uncut_pool(pool, die)
    figures = tally(successes, lambda r: ("great" if r >= 8 else "success" if r >= 3 else "failure", r))
    figures["cut"] = {"great": cut}  # a cut chain has DEPTH + 2 successes so far
    return figures


def symbols(**counts: int) -> Figures:
    """Each figure asked for is a sum over the dice: the net successes (the outcome and the
    result), the net advantage, the triumphs and the despairs, each worked out on its own."""
    weights = {"net": {"success": 1, "triumph": 1, "failure": -1, "despair": -1},
               "advantage": {"advantage": 1, "threat": -1},
               "triumphs": {"triumph": 1}, "despairs": {"despair": 1}}
    sums = {}
    for figure, weight in weights.items():
        total: icepool.Die | None = None
        for kind, n in counts.items():
            if n:
                die = icepool.Die([sum(weight.get(s, 0) for s in face) for face in SYMBOL_DICE[kind]])
                total = n @ die if total is None else total + n @ die
        sums[figure] = dist(total if total is not None else icepool.Die([0]))
    figures = tally(sums.pop("net"), lambda net: ("success" if net >= 1 else "failure", net))
    figures["values"] = sums
    return figures


def difficulty(dice: int, difficulty: int) -> Figures:
    return _difficulty(dice)(difficulty)


def _difficulty(dice: int) -> Callable[[int], Figures]:
    successes = dist(dice @ d(10).map(lambda f: int(f >= 8) + int(f == 10)))
    quiet = neither(dice, lambda f: f >= 8)
    return lambda diff: with_botch(successes, quiet, lambda s: "success" if s >= diff else "failure")


def percentile(skill: int) -> Figures:
    return _percentile()(skill)


def _percentile() -> Callable[[int], Figures]:
    digit = d(10) - 1
    tens = digit.highest(3, 1)  # the tens die and two penalty dice: the highest counts
    value = dist(icepool.map(lambda t, o: 100 if 10 * t + o == 0 else 10 * t + o, tens, digit))

    def judge(skill: int, v: int) -> str:
        if v == 100 or (skill < 50 and v >= 96):
            return "fumble"
        return "extreme" if 5 * v <= skill else "hard" if 2 * v <= skill else "regular" if v <= skill else "failure"
    return lambda skill: tally(value, lambda v: (judge(skill, v), v))


def exploding(pool: int, need: int) -> Figures:
    rest = chain(8, 10, DEPTH - 1)  # a 10 rolls one more die, whose chain may add DEPTH - 1
    die = d(10).map(lambda f: rest.map(lambda c: CUT if c == CUT else 1 + c) if f == 10 else int(f >= 8))
    successes, cut = uncut_pool(pool, die)
    quiet = neither(pool, lambda f: f >= 8)
    figures = with_botch(successes, quiet, lambda s: "success" if s >= need else "failure")
    figures["cut"] = {"success": cut}  # a cut chain has DEPTH + 1 successes so far (need <= 11 here)
    return figures


def step(pool: str, difficulty: int) -> Figures:
    """Step dice by brute force: every throw of the pool's dice (``icepool.map`` over them),
    the 1s set aside, the two kept that give the largest total and then the largest effect
    (the largest die left, at least a d4; a d4 if none is left). The throws multiply with
    each die, so this is for a few dice only."""
    sizes = [int(s.removeprefix("d")) for s in pool.split("/")]
    if len(sizes) > 6:
        raise SystemExit(f"step: {len(sizes)} dice are too many throws to list (at most 6 here)")

    def best(*faces: int) -> tuple[int, int]:
        kept = [(f, size) for f, size in zip(faces, sizes) if f != 1]
        ways = []
        for chosen in itertools.combinations(range(len(kept)), min(2, len(kept))):
            rest = [kept[i][1] for i in range(len(kept)) if i not in chosen]
            ways.append((sum(kept[i][0] for i in chosen), max(4, *rest) if rest else 4))
        return max(ways)

    joint = dist(icepool.map(best, *(d(size) for size in sizes)))
    figures = tally(joint, lambda k: ("success" if k[0] >= difficulty else "failure", k[0]))
    effect: dict = defaultdict(Fraction)
    for (_, e), p in joint.items():
        effect[e] += p
    figures["values"] = {"effect": dict(effect)}
    return figures


def sets(dice: int) -> Figures:
    """A pool not among the items (One-Roll Engine sets): the widest set of matching faces
    (``largest_count``) and how many faces show (``unique().size()``), each a multiset
    evaluator over the pool."""
    pool = d(10).pool(dice)
    figures = tally(dist(pool.largest_count()), lambda w: ("wide" if w >= 3 else "set" if w >= 2 else "none", w))
    figures["values"] = {"shown": dist(pool.unique().size())}
    return figures


PROGRAMS: dict[str, Callable[..., Figures]] = {
    "floor": floor,
    "threshold": threshold, "threshold_if": threshold, "push": push, "push_sixes": push_sixes,
    "symbols": symbols, "difficulty": difficulty, "percentile": percentile, "exploding": exploding, "step": step,
    "sets": sets,
}
# Programs whose work does not depend on the swept input: worked out once for a sweep.
SHARED = {"difficulty": (_difficulty, ("dice",)), "percentile": (_percentile, ())}


def values_of(word: str) -> list:
    """An input's values: ``LO..HI`` a sweep, a number, or a word (a dice pool)."""
    lo, _, hi = word.partition("..")
    if hi:
        return list(range(int(lo), int(hi) + 1))
    return [int(word)] if word.lstrip("-").isdigit() else [word]


def figures(check: str, words: Iterable[str]) -> list[dict]:
    """The figures of ``check`` for every combination of the inputs' values."""
    inputs = dict(w.split("=", 1) for w in words)
    names = list(inputs)
    program = PROGRAMS[check]
    if check in SHARED:
        make, fixed = SHARED[check]
        once = make(*(int(inputs[n]) for n in fixed))
        program = lambda **kw: once(*(v for k, v in kw.items() if k not in fixed))  # noqa: E731
    out = []
    for combo in itertools.product(*(values_of(inputs[n]) for n in names)):
        given = dict(zip(names, combo))
        figs = program(**given)
        out.append({"inputs": given, **{k: encode(v) for k, v in figs.items()}})
    return out


def encode(part: dict) -> dict:
    return {str(k): (encode(v) if isinstance(v, dict) else f"{v.numerator}/{v.denominator}")
            for k, v in part.items()}


def main() -> None:
    print(json.dumps(figures(sys.argv[1], sys.argv[2:])))


if __name__ == "__main__":
    main()
