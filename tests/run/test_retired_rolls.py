"""Rolls the rules are done with once the rolls before them are joined (``groups.retire``):
where every later reader reads a roll only through lets worked out of the rolls joined so
far, the joint values alike in those lets (and the rolls still read whole) are made one
before the next roll is joined. Don't Rest Your Head's four pools (the successes of three
against pain, and which pool shows the most 6s) and The One Ring's feat dice read through
the one die kept: the joint values shrink from the product of every roll's readings to
the product of what is read of them.

Checked by a property: checks drawn at random (three small rolls, lets reading rolls, lets
and an input, rules reading lets and rolls) against every throw of their dice, worked out
here from the same expressions restated in Python; for one input and for a sweep over it.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction

from hypothesis import given, settings, strategies as st

from rulesengine.ruleset import loads
from rulesengine.run.sweep import sweep

Env = dict
Term = tuple[str, Callable[[Env], int]]  # an expression as the rules write it, and restated

# each roll: how it is written, and the faces of each of its dice
ROLLS = {"d4": [range(1, 5)], "2d3": [range(1, 4)] * 2, "d6": [range(1, 7)], "2d4": [range(1, 5)] * 2,
         "d{0,1,2}": [range(0, 3)]}


def roll_terms(name: str) -> list[Term]:
    """What the rules may read of a roll: its total, its highest die, a count of a range."""
    return [(name, lambda env: sum(env[name])),
            (f"highest({name})", lambda env: max(env[name])),
            (f"count({name}, 2, 3)", lambda env: sum(2 <= f <= 3 for f in env[name])),
            (f"count({name}, 1)", lambda env: sum(f == 1 for f in env[name]))]


@st.composite
def expressions(draw, atoms: list[Term], depth: int = 2) -> Term:
    """A number made of ``atoms`` (what may be read here) and numbers written out."""
    if depth == 0 or draw(st.booleans()):
        if draw(st.integers(0, 4)) == 0:
            k = draw(st.integers(0, 3))
            return str(k), lambda env: k
        return draw(st.sampled_from(atoms))
    (a, fa), (b, fb) = draw(expressions(atoms, depth - 1)), draw(expressions(atoms, depth - 1))
    form = draw(st.sampled_from(["+", "-", "max", "min", "if", "*2"]))
    if form == "+":
        return f"({a} + {b})", lambda env: fa(env) + fb(env)
    if form == "-":
        return f"({a} - {b})", lambda env: fa(env) - fb(env)
    if form == "max":
        return f"max({a}, {b})", lambda env: max(fa(env), fb(env))
    if form == "min":
        return f"min({a}, {b})", lambda env: min(fa(env), fb(env))
    if form == "*2":
        return f"({a} * 2)", lambda env: fa(env) * 2
    (c, fc) = draw(expressions(atoms, 0))
    return f"if({a} >= {b}, {c}, 1)", lambda env: fc(env) if fa(env) >= fb(env) else 1


@st.composite
def checks(draw, reads_x: bool = False
           ) -> tuple[str, list[str], list[tuple[str, Term]], Term, list[tuple[str, Term]], list[str]]:
    """A check: three rolls, up to four lets (each reading some rolls, earlier lets and the
    input x), a result and two outcome rules reading lets and rolls, maybe a let reported.
    ``reads_x``: the first let reads a roll and x, and nothing is reported."""
    rolls = [draw(st.sampled_from(sorted(ROLLS))) for _ in range(3)]
    names = ["r0", "r1", "r2"]
    lets: list[tuple[str, Term]] = []
    if reads_x:
        text, f = draw(st.sampled_from(roll_terms(draw(st.sampled_from(names)))))
        lets.append(("v9", (f"if({text} + x >= 4, 1, 0)", lambda env: int(f(env) + env["x"] >= 4))))
    for i in range(draw(st.integers(1, 4))):
        # most lets read one roll, or lets before them: the shapes that let rolls retire
        source = draw(st.sampled_from(["one roll", "lets", "anything"]))
        if source == "one roll":
            atoms = roll_terms(draw(st.sampled_from(names)))
        elif source == "lets" and lets:
            atoms = [(n, (lambda n: lambda env: env[n])(n)) for n, _ in lets] + [("x", lambda env: env["x"])]
        else:
            atoms = [t for n in names for t in roll_terms(n)] + [(n, (lambda n: lambda env: env[n])(n))
                                                                 for n, _ in lets] + [("x", lambda env: env["x"])]
        lets.append((f"v{i}", draw(expressions(atoms))))
    readable = [(n, (lambda n: lambda env: env[n])(n)) for n, _ in lets]
    later = readable + ([t for t in roll_terms(draw(st.sampled_from(names)))] if draw(st.booleans()) else [])
    result = draw(expressions(later, 1))
    rules = [(name, draw(expressions(later, 1))) for name in ("high", "mid")]
    report = [draw(st.sampled_from([n for n, _ in lets]))] if not reads_x and draw(st.booleans()) else []
    return rolls[0], rolls[1:], lets, result, rules, report


def ruleset(rolls: list[str], lets, result: Term, rules, report: list[str]) -> str:
    lines = ["ruleset: t", "name: T", 'version: "1"', "source: tests", "checks:", "  c:", "    inputs:",
             "      x: {type: integer, default: 0, min: 0, max: 3}", "    rolls:"]
    lines += [f'      r{i}: "{r}"' for i, r in enumerate(rolls)]
    lines += ["    let:"] + [f'      {n}: "{text}"' for n, (text, _) in lets]
    lines += [f'    result: "{result[0]}"', "    outcomes:"]
    lines += [f'      - {{name: {n}, when: "{text} >= {k}", success: true}}' for (n, (text, _)), k in zip(rules, (4, 2))]
    lines += ["      - {name: low, success: false}"]
    if report:
        lines += [f"    report: [{report[0]}]"]
    return "\n".join(lines) + "\n"


def every_throw(rolls: list[str], lets, result: Term, rules, x: int) -> tuple[dict, dict]:
    """The outcomes and results of every throw of the three rolls, each die on its own."""
    outcomes: dict = defaultdict(Fraction)
    results: dict = defaultdict(Fraction)
    dice = [ROLLS[r] for r in rolls]
    total = 1
    for faces in dice:
        for die in faces:
            total *= len(die)
    for throw in itertools.product(*(itertools.product(*faces) for faces in dice)):
        env: Env = {"x": x, "r0": throw[0], "r1": throw[1], "r2": throw[2]}
        for name, (_, f) in lets:
            env[name] = f(env)
        name = next((n for (n, (_, f)), k in zip(rules, (4, 2)) if f(env) >= k), "low")
        outcomes[name] += Fraction(1, total)
        results[result[1](env)] += Fraction(1, total)
    return dict(outcomes), dict(results)


@settings(max_examples=120, deadline=None)
@given(checks(), st.integers(0, 3))
def test_a_check_whose_rolls_retire_into_lets_gives_every_throws_figures(drawn, x):
    first, rest, lets, result, rules, report = drawn
    rolls = [first, *rest]
    rs = loads(ruleset(rolls, lets, result, rules, report), "t.yaml")
    odds = rs.check("c").odds({"x": x})
    want_outcomes, want_results = every_throw(rolls, lets, result, rules, x)
    assert {k: v for k, v in odds.outcomes.items() if v} == want_outcomes
    assert {k: v for k, v in odds.result_distribution.items() if v} == want_results


@settings(max_examples=60, deadline=None)
@given(checks(reads_x=True))
def test_a_sweep_over_an_input_the_lets_read_gives_each_value_every_throws_figures(drawn):
    """Rolls retired through lets that read x hold for one x: a sweep shares them only
    between values of x alike (its rows worked out in one pass: nothing reported)."""
    first, rest, lets, result, rules, report = drawn
    rolls = [first, *rest]
    rs = loads(ruleset(rolls, lets, result, rules, report), "t.yaml")
    swept = sweep(rs.check("c"), {"x": "0..3"}, {})
    for (x,), odds in swept.rows:
        want_outcomes, _ = every_throw(rolls, lets, result, rules, x)
        assert {k: v for k, v in odds.outcomes.items() if v} == want_outcomes, x


FOUR_POOLS = """ruleset: t
name: T
version: "1"
source: tests
checks:
  c:
    rolls:
      d: 3d6
      e: 2d6
      m: 2d6
      p: 3d6
    let:
      mine: count(d, 1, 3) + count(e, 1, 3) + count(m, 1, 3)
      sixes: max(count(d, 6), count(e, 6), count(m, 6))
    result: mine - count(p, 1, 3)
    outcomes:
      - {name: win, when: "result >= 0 and sixes >= count(p, 6)", success: true}
      - {name: lose, success: false}
"""


def test_past_the_budget_while_rolls_retire_the_check_is_refused_never_broken():
    """Every budget from nothing to enough: the odds, or E210 at a roll (a LimitError), never
    an error of the engine's own (validate's search for unreachable outcomes works with a
    small budget, and met a bare BudgetExceeded from the retirement before)."""
    import dataclasses

    from rulesengine import DEFAULT_LIMITS
    from rulesengine.errors import LimitError

    answered = refused = 0
    for max_states in [*range(50, 3000, 50), 10 ** 6]:
        rs = loads(FOUR_POOLS, "t.yaml", dataclasses.replace(DEFAULT_LIMITS, max_states=max_states))
        try:
            rs.check("c").odds({})
            answered += 1
        except LimitError as exc:
            assert exc.code == "E210"
            refused += 1
    assert answered and refused
