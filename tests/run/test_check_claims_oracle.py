"""Every figure a check's odds call exact is the deep oracle's (issue 29: "an independent
oracle for every exact claim", for random small rulesets).

Random checks over an exploding pool (read as a number, counted with ``cs``, counted die by
die with ``count(roll, lo, hi)``, its first throw read with ``count(initial(roll), 1)`` for a
glitch) and an exploding wild die, combined by ``max``, ``+`` or ``-``; outcomes in order,
tags, reported values (the result through a let, a target from the inputs, the first throw's
1s), and odds ``--given`` a condition. The oracle (tests/oracle.py) follows each die's
chain 15 added dice deeper than the engine (at most 30), with the features the rules read (the die's worth, its 1s on the
first throw, its dice in a range) summed per chain, and decides each rule in three values
(yes, no, open where a cut path could go either way).

The check's claims: with ``truncated == 0``, each outcome and success (a tag where no
``tags_truncated`` says the depth left tags open on their own) (and, given a
condition, its probability and the odds given it); with ``result_truncated == 0`` every row
of the result; with ``result_cut_from = c`` each result below c and "at least" up to c; a
result mean of kind ``exact``; a reported value's as the result's (its own cut, its
``values_cut_from``, its mean). Each must equal the oracle's, which must be able to decide
it. The rest is held to soundness (worked out <= the oracle's <= worked out + truncated).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction as F

from hypothesis import given, strategies as st

from fuzz_support import case_time_limit, fuzz_settings
import math

from oracle import (COUNTS, DEEP, MAYBE, Cut, Deep, DieSpec, OpenSum, degree, die_chain, extreme_at_least, o_and,
                    o_compare, o_max, o_sub, o_add, open_sum_at_least, pool, series_sum)
from rulesengine.errors import RulesEngineError
from rulesengine.limits import DEFAULT_LIMITS
from rulesengine.ruleset import loads



@dataclasses.dataclass
class Case:
    yaml: str
    inputs: dict
    depth: int
    given: str | None
    spec: DieSpec
    count: object  # a number, or the name of an input
    reads: tuple[str, ...]  # "initial" (1s on the first throw), "range" (dice from lo up)
    lo: int
    wild: DieSpec | None
    result: str  # "a", "max", "plus", "minus", "range"
    rules: list  # (name, success, kind, number): kind "glitch", "result", or "default"
    tags: list  # (name, kind, number)
    values: tuple[str, ...] = ()  # reported: "total" (the result, through a let), "target", "ones"


def _when(kind: str, k: int) -> str:
    return {"glitch": f"count(initial(a), 1) >= {k}", "result": f"result >= {k}",
            "wild": f"max(a, b) >= {k}", "ones": "count(initial(a), 1) > 0"}[kind]


@st.composite
def checks(draw) -> Case:
    sides = draw(st.sampled_from([6, 8, 10]))
    faces = tuple(range(1, sides + 1))
    explode = draw(st.sampled_from(["!", "!", "!", "!p", "!o", "!!"]))
    inputs: dict = {}
    specs = []
    how = draw(st.sampled_from(["top", "top", ">=", "name"]))
    success = draw(st.none() | st.integers(sides - 4, sides + 1))
    # where faces are summed, explode on the top two at most: fewer states for the oracle
    at = sides if how == "top" else draw(st.integers(sides - (2 if success is not None else 1), sides))
    if how == "top":
        cond = ""
    elif how == ">=":
        cond = f">={at}"
    else:
        inputs["again"] = at
        specs.append(f"      again: {{type: integer, default: {sides}, min: 2, max: 20}}")
        cond = ">=(again)"
    spec = DieSpec(faces, explode, frozenset(f for f in faces if f >= at), None, None, success)
    most = 4 if success is not None else 3  # fewer dice where their faces are summed: fewer states
    if draw(st.booleans()):
        count: object = "n"
        inputs["n"] = draw(st.integers(1, most))
        specs.append("      n: {type: integer, default: 3, min: 0, max: 12}")
        count_text = "(n)"
    else:
        count = draw(st.integers(1, most))
        count_text = str(count)
    reads: list[str] = []
    if explode != "!!" and draw(st.booleans()):
        reads.append("initial")
    lo = draw(st.integers(sides - 3, sides))
    if explode == "!" and success is None and draw(st.booleans()):
        reads.append("range")
    wild = None
    if draw(st.booleans()):
        w = draw(st.sampled_from([6, 8]))
        wild = DieSpec(tuple(range(1, w + 1)), "!", frozenset({w}))
    results = ["a"] + (["max", "plus", "minus"] if wild else []) + (["range"] if "range" in reads else [])
    result = draw(st.sampled_from(results))
    rules = []
    if "initial" in reads and draw(st.booleans()):
        rules.append(("glitch", False, "glitch", draw(st.integers(1, 2))))
    high = draw(st.integers(0, 14))
    if draw(st.booleans()):
        rules.append(("great", True, "result", high + draw(st.integers(1, 6))))
    rules.append(("hit", True, "result", high))
    rules.append(("miss", False, "default", 0))
    tags = []
    if "initial" in reads and draw(st.booleans()):
        tags.append(("ones", "ones", 0))
    if wild and draw(st.booleans()):
        tags.append(("wild", "wild", draw(st.integers(2, 12))))
    given_text = draw(st.none() | st.sampled_from([f"result >= {draw(st.integers(0, 6))}", "outcome == 'hit'",
                                                   "success"]))
    roll_text = f"{count_text}d{sides}{explode}{cond}" + (f"cs>={success}" if success is not None else "")
    result_text = {"a": "a", "max": "max(a, b)", "plus": "a + b", "minus": "a - b",
                   "range": f"count(a, {lo}, {sides})"}[result]
    # reported values: the result through a let (read by the result too), a target the inputs
    # give (known on every throw, open or not), the 1s of the first throw
    values = tuple(v for v in ("total", "target", "ones")
                   if (v != "ones" or "initial" in reads) and draw(st.booleans()))
    lines = ["ruleset: oracle-check", "name: A check the oracle works out", 'version: "1"', "source: tests",
             "checks:", "  c:"]
    if specs:
        lines += ["    inputs:"] + specs
    lines += ["    rolls:", f"      a: {roll_text}"]
    if wild:
        lines.append(f"      b: 1d{max(wild.faces)}!")
    if values:
        lets = {"total": result_text, "target": f"{_target_text(inputs)}", "ones": "count(initial(a), 1)"}
        lines += ["    let:"] + [f"      {v}: {lets[v]}" for v in values]
    lines += [f"    result: {'total' if 'total' in values else result_text}", "    outcomes:"]
    for name, ok, kind, k in rules:
        if kind == "default":
            lines.append(f"      - {{name: {name}, success: {str(ok).lower()}}}")
        else:
            lines.append(f'      - {{name: {name}, when: "{_when(kind, k)}", success: {str(ok).lower()}}}')
    if tags:
        lines.append("    tags:")
        lines += [f'      - {{name: {name}, when: "{_when(kind, k)}"}}' for name, kind, k in tags]
    if values:
        lines.append(f"    report: [{', '.join(values)}]")
    depth = draw(st.sampled_from([1, 2, 3, 10]))
    return Case("\n".join(lines) + "\n", inputs, depth, given_text, spec, count, tuple(reads), lo, wild,
                result, rules, tags, values)


def _target_text(inputs: dict) -> str:
    return "n * 2 + 1" if "n" in inputs else "7"


def _target(case: Case) -> int:
    return case.inputs["n"] * 2 + 1 if "n" in case.inputs else 7


def _values(case: Case, result: object, ones: object) -> tuple:
    """The reported values of a resolution, in the order the case reports them."""
    return tuple({"total": result, "target": _target(case), "ones": ones}[v] for v in case.values)


# ---- the oracle's reading of a case ------------------------------------------------------


def oracle_depth(case: Case) -> int:
    """The oracle's depth for a check: 15 added dice past the engine's, at most DEEP (the
    dice property's 30; joint features of a pool make more states than one number)."""
    return min(DEEP, case.depth + 15)


def _pool_features(case: Case) -> Deep:
    """Roll ``a`` as a tuple: (its total, 1s on its first throw, dice from ``lo`` up)."""
    spec, lo = case.spec, case.lo

    initial, in_range = "initial" in case.reads, "range" in case.reads

    def features(face: int, index: int) -> tuple[int, ...]:  # only what the rules read: fewer states
        value = face - 1 if spec.explode == "!p" and index > 0 else face
        return (spec.worth(value), int(initial and index == 0 and face == 1), int(in_range and value >= lo))

    if spec.explode == "!!":
        chain = die_chain(spec, oracle_depth(case)).map(lambda v: (v, 0, 0))
    else:
        chain = die_chain(spec, oracle_depth(case), features)
    n = case.count if isinstance(case.count, int) else case.inputs[case.count]
    return pool(chain, n)


def resolve(case: Case) -> Deep:
    """Each way the check can come out: (outcome, result, success, tags...) with the open
    ones MAYBE or a Cut."""
    a = _pool_features(case)
    b = die_chain(case.wild, oracle_depth(case)) if case.wild else Deep.point(0)

    def one(av, bv):
        total, ones, in_range = av
        result = {"a": total, "max": o_max(total, bv), "plus": o_add(total, bv), "minus": o_sub(total, bv),
                  "range": in_range}[case.result]

        def holds(kind, k):
            if kind == "glitch":
                return o_compare(">=", ones, k)
            if kind == "result":
                return o_compare(">=", result, k)
            if kind == "wild":
                return o_compare(">=", o_max(total, bv), k)
            if kind == "ones":
                return o_compare(">", ones, 0)
            return True

        may = []  # the outcomes it may be: a rule open here may hold, or not (the next read)
        for name, _ok, kind, k in case.rules:
            h = holds(kind, k)
            if h is MAYBE or h:
                may.append(name)
            if h is not MAYBE and h:
                break
        outcome = may[0] if len(may) == 1 else MAYBE
        counts = {dict((r[0], r[1]) for r in case.rules)[n] for n in may}
        success = counts.pop() if len(counts) == 1 else MAYBE  # open outcomes that all agree decide it
        tags = tuple(holds(kind, k) for _, kind, k in case.tags)
        # last: the outcomes it may be (an outcome not among them is certainly not it)
        return (outcome, result, success) + tags + _values(case, result, ones) + (tuple(may),)

    return a.combine(b, one)


def _given(case: Case, key) -> object:
    outcome, result, success = key[:3]
    text = case.given
    if text is None:
        return True
    if text == "success":
        return success
    if text.startswith("outcome"):
        return (MAYBE if "hit" in key[-1] else False) if outcome is MAYBE else outcome == "hit"
    return o_compare(">=", result, int(text.split()[-1]))


FOREVER_SIDES = 30
"""The most sides (all dice's together) of a sum :func:`forever` works out: beyond, its
series' recurrences take seconds each; such a sum is held to the deep oracle's bounds."""


def open_law(case: Case) -> OpenSum | None:
    """``result = a ± b`` as the oracle's X − Y, where the rules read the rolls only through
    it and the dice explode with no other modifier: the engine then works the two out as one
    sum (run/fused.py), followed for ever. None for any other case."""
    spec, wild = case.spec, case.wild
    n = case.count if isinstance(case.count, int) else case.inputs[case.count]
    glitch = any(kind == "glitch" for _, _, kind, _ in case.rules)  # the one rule that reads more than the result
    if case.result not in ("plus", "minus") or glitch or case.tags or "ones" in case.values or wild is None or not n \
            or spec.explode not in ("!", "!!", "!p") or spec.success is not None:
        return None
    die: tuple = (max(spec.faces), tuple(sorted(spec.explodes_on)))
    if spec.explode == "!p":  # each die its explosions add worth one less: the oracle's fourth entry
        die = (*die, 1, 1)
    other = (max(wild.faces), tuple(sorted(wild.explodes_on)))
    return OpenSum((die,) * n + ((other,) if case.result == "plus" else ()), () if case.result == "plus" else (other,))


def law_mean(law: OpenSum) -> F:
    """E[X − Y]: each die's mean face, again on each exploding face ((S+1)/2 / (1 − |F|/S));
    under ``!p`` each die added is worth one less: E[face] + p·(E[face] − 1)/(1 − p)."""
    def mean_of(kind: tuple) -> F:
        sides, again = kind[0], kind[1]
        p, face = F(len(again), sides), F(sides + 1, 2)
        if len(kind) > 3 and kind[3]:
            return face + p * (face - 1) / (1 - p)
        return face / (1 - p)

    return sum(map(mean_of, law.plus), F(0)) - sum(map(mean_of, law.minus), F(0))


def forever(case: Case, law: OpenSum, thresholds: set[int]) -> Deep:
    """Each way the check comes out with its exact probability, from P(result >= t) summed by
    ``open_sum_at_least`` (the series' own recurrence) for every ``t`` in ``thresholds`` (what
    the rules and the condition read, and the results whose claims are checked)."""
    def at_least(t: int) -> F:
        return open_sum_at_least(law, t)

    weights = {}
    edges = [None, *sorted(thresholds), None]  # None: no bound
    for low, high in zip(edges, edges[1:]):
        p = (at_least(low) if low is not None else F(1)) - (at_least(high) if high is not None else F(0))
        if p:
            weights[_resolved(case, low if low is not None else high - 1)] = p
    denom = math.lcm(*(p.denominator for p in weights.values()))
    return Deep({k: int(p * denom) for k, p in weights.items()}, denom)


def highest_mean(case: Case) -> F | None:
    """E[max(a, b)] where a is one die and b the wild die, each exploding on its top face alone
    (the closed form the engine claims for them, dice/extremes.py): Σ_{m ≥ 1} P(max ≥ m), each
    term from the oracle's own closed form of one chain (``extreme_at_least``), the series
    summed by the linear recurrence its terms satisfy (``series_sum``). None for any other case."""
    spec, wild = case.spec, case.wild
    n = case.count if isinstance(case.count, int) else case.inputs[case.count]
    if case.result != "max" or wild is None or n != 1 or spec.explode != "!" or spec.success is not None \
            or spec.explodes_on != frozenset({max(spec.faces)}):
        return None
    sizes = (max(spec.faces), max(wild.faces))
    return series_sum(lambda y: extreme_at_least(sizes, True, y + 1), degree(sizes, True) + 2)


def _resolved(case: Case, result: int) -> tuple:
    """How the check comes out for this result (the rules read nothing else)."""
    for name, ok, kind, k in case.rules:
        if kind == "default" or result >= k:
            return (name, result, ok) + _values(case, result, None) + ((name,),)
    raise AssertionError("the rules end with a default")


def _eq(x, v):
    if x is MAYBE or isinstance(x, Cut):
        return o_compare("==", x, v) if isinstance(x, Cut) else MAYBE
    return x == v


def check_case(case: Case) -> list[str]:
    try:
        check = loads(case.yaml, limits=dataclasses.replace(DEFAULT_LIMITS, explode_depth=case.depth)).check("c")
        odds = check.odds(case.inputs, given=case.given) if case.given else check.odds(case.inputs)
    except RulesEngineError as exc:
        COUNTS[f"checks refused {exc.code}"] += 1
        return []
    COUNTS["checks"] += 1
    law = open_law(case)
    small = law is not None and sum(k[0] for k in law.plus + law.minus) <= FOREVER_SIDES
    sampled = set(sorted(odds.result_distribution, key=abs)[:4])  # the results whose claims are checked
    forever_mean = None if law is None else law_mean(law)
    if law is not None and not small and case.given is not None:
        COUNTS["checks too big to follow for ever, given a condition"] += 1
        return []  # odds given a condition have no simple bounds to hold them to
    if small:
        assert law is not None
        wanted = {k for _, _, kind, k in case.rules if kind == "result"} | sampled | {v + 1 for v in sampled}
        if case.given is not None and case.given.startswith("result"):
            wanted.add(int(case.given.split()[-1]))
        deep = forever(case, law, wanted)
        COUNTS["checks followed for ever"] += 1
    else:
        deep = resolve(case)
    wrong: list[str] = []

    def claim(what: str, claimed: F, event) -> None:
        """``event`` over a resolution; with a condition, the odds given it."""
        COUNTS["check exact claims"] += 1
        if case.given is None:
            low, high = deep.probability(event)
        else:
            g_low, g_high = deep.probability(lambda k: _given(case, k))
            j_low, j_high = deep.probability(lambda k: o_and(_given(case, k), event(k)))
            if g_low != g_high or j_low != j_high:
                wrong.append(f"{what} = {claimed} called exact, but the oracle can't decide it")
                return
            low = high = j_low / g_low
        if low != high and law is not None and low <= claimed <= high:
            COUNTS["check exact claims within the deep oracle's bounds"] += 1  # a sum too big to follow here
        elif low != high:
            wrong.append(f"{what} = {claimed} called exact, but the oracle can't decide it: [{low}, {high}]")
        elif claimed != low:
            wrong.append(f"{what} = {claimed} called exact, the oracle's is {low}")

    def sound(what: str, worked: F, cut: F, event) -> None:
        if case.given is not None:
            return  # conditioned figures have no simple bound
        low, high = deep.probability(event)
        if not worked <= high or not low <= worked + cut:
            wrong.append(f"{what} worked out {worked} (+ cut {cut}) outside the oracle's [{low}, {high}]")

    names = [r[0] for r in case.rules]
    for name in names:
        p = odds.outcomes.get(name, F(0))
        def is_outcome(k, n=name):
            if k[0] is MAYBE:  # one of the outcomes it may be: certainly not any other
                return MAYBE if n in k[-1] else False
            return k[0] == n

        # an outcome the cut mass can't be (``truncated_outcomes`` lists those it may be) is exact
        if odds.truncated == 0 or (odds.truncated_outcomes is not None and name not in odds.truncated_outcomes):
            claim(f"P(outcome {name})", p, is_outcome)
        else:
            sound(f"P(outcome {name})", p, odds.truncated, is_outcome)
    for i, (name, _, _) in enumerate(case.tags):
        p = odds.tags.get(name, F(0))
        def has_tag(k, i=i):
            return k[3 + i]

        # the tags' own cut, where the depth left a tag open on throws whose outcome it decided
        tags_cut = odds.truncated if odds.tags_truncated is None else odds.tags_truncated
        if tags_cut == 0:
            claim(f"P(tag {name})", p, has_tag)
        else:
            sound(f"P(tag {name})", p, tags_cut, has_tag)
    # success's own cut, where the outcomes the depth left open agree on it
    success_cut = odds.truncated if odds.success_truncated is None else odds.success_truncated
    if success_cut == 0:
        claim("P(success)", odds.success, lambda k: k[2])
    else:
        sound("P(success)", odds.success, success_cut, lambda k: k[2])
    if odds.truncated == 0:
        if case.given is not None:
            COUNTS["check exact claims"] += 1
            low, high = deep.probability(lambda k: _given(case, k))
            if low != high or odds.given_probability != low:
                wrong.append(f"P(given {case.given}) = {odds.given_probability} called exact, the oracle's [{low}, {high}]")
    # the result
    # given a condition, ``truncated`` is what it leaves open, and nothing divided by its
    # chance is exact then (CheckOdds.left_out)
    cut_from, whole = odds.result_cut_from, odds.left_out(odds.result_truncated) == 0
    views = odds.result_cumulative()
    for v, p in odds.result_distribution.items():
        if small and v not in sampled:
            continue  # read off for ever only at the values sampled
        if whole or (cut_from is not None and v < cut_from):
            claim(f"P(result {v})", p, lambda k, v=v: _eq(k[1], v))
        else:
            sound(f"P(result {v})", p, odds.result_truncated, lambda k, v=v: _eq(k[1], v))
        if v in views and (whole or (cut_from is not None and v <= cut_from)):
            claim(f"P(result >= {v})", views[v][0], lambda k, v=v: o_compare(">=", k[1], v))
        if v in views and (whole or (cut_from is not None and v < cut_from)):
            claim(f"P(result <= {v})", views[v][1], lambda k, v=v: o_compare("<=", k[1], v))
    for j, name in enumerate(case.values):
        _value_claims(case, odds, name, 3 + len(case.tags) + j, deep, claim, sound, wrong,
                      small and name == "total", sampled, forever_mean if name == "total" else None)
    stats = odds.to_dict()["stats"]["result"]
    if stats.get("mean_kind") == "exact" and case.given is None:
        COUNTS["check exact means"] += 1
        low, high = (forever_mean, forever_mean) if forever_mean is not None else deep.map(lambda k: k[1]).mean()
        if low != high and (closed := highest_mean(case)) is not None:
            low = high = closed  # the highest of two chains: its own series, followed for ever
            COUNTS["check exact means of the highest of two chains, summed for ever"] += 1
        if low != high:
            wrong.append(f"result mean {stats['mean_exact']} called exact, but the oracle can't decide it: [{low}, {high}]")
        elif F(stats["mean_exact"]) != low:
            wrong.append(f"result mean {stats['mean_exact']} called exact, the oracle's is {low}")
    if wrong:
        COUNTS["check disagreements"] += 1
    return wrong


def _value_claims(case: Case, odds, name: str, at: int, deep: Deep, claim, sound, wrong: list[str],
                  sampled_only: bool, sampled: set, followed_mean: F | None) -> None:
    """The claims of reported value ``name`` (the resolution's entry ``at``), as the result's:
    every row with nothing cut from it, each row below its ``values_cut_from`` and "at least"
    up to it; the rest held to soundness; its mean where called exact."""
    if name not in odds.values:
        return  # odds given a condition that no throw worked out meets: no value, nothing claimed
    dist = odds.values[name]
    cut = odds.left_out(odds.values_truncated.get(name, odds.truncated))
    cut_from = odds.values_cut_from.get(name)
    shown = odds.view().groups[0].members[name]
    views = shown.cumulative()
    for v, p in dist.items():
        if sampled_only and v not in sampled:
            continue
        if cut == 0 or (cut_from is not None and v < cut_from):
            claim(f"P({name} {v})", p, lambda k, v=v: _eq(k[at], v))
        else:
            sound(f"P({name} {v})", p, cut, lambda k, v=v: _eq(k[at], v))
        if v in views and (cut == 0 or (cut_from is not None and v <= cut_from)):
            claim(f"P({name} >= {v})", views[v][0], lambda k, v=v: o_compare(">=", k[at], v))
    stats = odds.to_dict()["stats"]["values"][name]
    if stats.get("mean_kind") == "exact" and case.given is None:
        COUNTS["check exact means of reported values"] += 1
        low, high = (followed_mean, followed_mean) if followed_mean is not None else deep.map(lambda k: k[at]).mean()
        if low != high and name == "total" and (closed := highest_mean(case)) is not None:
            low = high = closed
        if low != high:
            wrong.append(f"{name} mean {stats['mean_exact']} called exact, but the oracle can't decide it: "
                         f"[{low}, {high}]")
        elif F(stats["mean_exact"]) != low:
            wrong.append(f"{name} mean {stats['mean_exact']} called exact, the oracle's is {low}")


@fuzz_settings(fast=60, long=1_500)
@given(checks())
def test_every_figure_a_check_calls_exact_is_the_deep_oracles(case):
    with case_time_limit(case.yaml):
        wrong = check_case(case)
    assert not wrong, f"inputs {case.inputs}, depth {case.depth}, given {case.given!r}\n{case.yaml}\n  " \
        + "\n  ".join(wrong[:6])


PUSH = """\
ruleset: oracle-check
name: A check the oracle works out
version: "1"
source: tests
checks:
  c:
    inputs:
      n: {type: integer, default: 3, min: 0, max: 12}
    rolls:
      a: (n)d6!cs>=5
      b: 1d8!
    result: max(a, b)
    outcomes:
      - {name: glitch, when: "count(initial(a), 1) >= 2", success: false}
      - {name: hit, when: "result >= 1", success: true}
      - {name: miss, success: false}
    tags:
      - {name: ones, when: "count(initial(a), 1) > 0"}
      - {name: wild, when: "max(a, b) >= 5"}
"""


def test_the_issues_glitch_beside_an_exploding_count_and_a_wild_die_agree_with_the_oracle():
    """Issue 29 items 2 and 4 together: ``count(initial(a), 1)`` read beside ``(n)d6!cs>=5``,
    and the best of the pool and an exploding wild die against a target."""
    for depth in (1, 10):
        case = Case(PUSH, {"n": 4}, depth, None, DieSpec(tuple(range(1, 7)), "!", frozenset({6}), success=5), "n",
                    ("initial",), 6, DieSpec(tuple(range(1, 9)), "!", frozenset({8})), "max",
                    [("glitch", False, "glitch", 2), ("hit", True, "result", 1), ("miss", False, "default", 0)],
                    [("ones", "ones", 0), ("wild", "wild", 5)])
        assert check_case(case) == []
        assert check_case(dataclasses.replace(case, given="success")) == []
