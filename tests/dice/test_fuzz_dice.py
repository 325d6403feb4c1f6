"""Fuzzing the dice language, on top of tests/test_dice_properties.py.

That file checks the grammar-generated expressions under small limits. Here: the whole
grammar (dynamic dice, every function, strings, pools), the default limits and random
small ones (so that every limit is hit), near misses made by many more kinds of edit,
faces read off physical dice, random bytes, and a time limit on every case.

Invariants for every input: a result or a well-formed RulesEngineError (code, one-line
message, a column inside the text, a LimitError naming a real limit), nothing else, in
under ``fuzz_support.CASE_SECONDS``; exact probabilities plus the truncated mass are 1;
when nothing is truncated, every roll's total is in the support of the odds.

Fast by default; ``RULESENGINE_LONG_FUZZ=1`` runs the long counts (docs/limits.md).
"""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from fuzz_support import budgets_watched, check_error, fuzz_settings, limits_for_fuzz, measured
from rulesengine import dice
from rulesengine.errors import RulesEngineError
from rulesengine.limits import DEFAULT_LIMITS
from dice_grammar import WIDE_ENV as ENV
from dice_grammar import expressions, near_misses, wide_expressions

# ---- the invariant ----------------------------------------------------------------------------------


def check_expression(text: str, limits=DEFAULT_LIMITS, env=None, explode_depth=None, seed=0,
                     kind: str = "dice") -> str:
    """Parse, get the odds, roll a few times. Returns "ok" or the error code."""
    env = ENV if env is None else env
    with measured(kind, text) as outcome:
        try:
            e = dice.Expression(text, limits)
            with budgets_watched(limits.max_states) as breaches:
                try:
                    o = e.odds(env, explode_depth=explode_depth)
                except RulesEngineError as exc:
                    check_error(exc, text)
                    o = None
            assert not breaches, (text, breaches[:3])
            if o is not None:
                assert sum(o.distribution.values(), Fraction(0)) + o.truncated == 1, (text, o.truncated)
                assert all(p > 0 for p in o.distribution.values()), text
                o.to_dict(), o.rows(), o.mean  # noqa: B018 - the views never fail either
            for s in range(seed, seed + 3):
                r = e.roll(env, seed=s)
                r.trace, r.to_dict()  # noqa: B018
                if o is not None and o.truncated == 0:
                    assert r.total in o.distribution, (text, r.total, sorted(map(str, o.distribution))[:20])
            outcome("ok")
            return "ok"
        except RulesEngineError as exc:
            code = check_error(exc, text)
            outcome(code)
            return code


# ---- tests ------------------------------------------------------------------------------------------


@fuzz_settings(300, 40_000)
@given(wide_expressions, st.sampled_from([None, 0, 1, 3]))
def test_wide_grammar_gives_results_or_project_errors(text, explode_depth):
    check_expression(text, explode_depth=explode_depth)


@fuzz_settings(300, 40_000)
@given(near_misses)
def test_near_misses_give_results_or_project_errors(text):
    check_expression(text)


@fuzz_settings(150, 10_000)
@given(st.one_of(expressions, wide_expressions), st.randoms(use_true_random=False))
def test_every_limit_ends_in_a_named_limit_error(text, r):
    """Small random limits: the generated expressions hit each of them often."""
    check_expression(text, limits=limits_for_fuzz(r), kind="dice-small-limits")


@fuzz_settings(150, 10_000)
@given(st.one_of(st.binary(max_size=80).map(lambda b: b.decode("utf-8", "replace")),
                 st.binary(max_size=80).map(lambda b: b.decode("latin-1")),
                 st.text(max_size=80)))
def test_random_bytes_and_text_give_project_errors(text):
    check_expression(text, kind="dice-bytes")


@fuzz_settings(150, 10_000)
@given(st.one_of(expressions, wide_expressions),
       st.lists(st.integers(-3, 30) | st.sampled_from([10**20, -10**20, 0]), max_size=12))
def test_faces_from_physical_dice_give_results_or_project_errors(text, faces):
    """Faces typed by a player: too few, too many, off the die, huge."""
    with measured("dice-faces", (text, faces)) as outcome:
        try:
            r = dice.Expression(text).roll(ENV, faces=faces)
            r.trace  # noqa: B018
        except RulesEngineError as exc:
            outcome(check_error(exc, text))


@fuzz_settings(100, 5_000)
@given(st.one_of(expressions, wide_expressions),
       st.dictionaries(st.sampled_from(["x", "y", "flag", "big", "pool", "zero"]),
                       st.one_of(st.integers(), st.booleans(), st.text(max_size=5), st.none(), st.floats(),
                                 st.just(10**16), st.just("a" * 300), st.lists(st.integers(), max_size=2))))
def test_any_environment_gives_results_or_project_errors(text, env):
    """Values bound to names by an API caller: wrong types, too big, too long."""
    check_expression(text, env=env, kind="dice-env")


def test_the_generators_reach_results_and_errors_alike():
    """A sanity check of the strategies: a fixed sample both succeeds and fails."""
    rng = random.Random(5)
    seen = set()
    for text in ["3d6", "d(x)!", "1000000000d6", "(" * 70 + "1" + ")" * 70, "d1!", "x" * 1100, "d{}",
                 "count(pool)", "highest(rolled) + 1", "if(flag, 2d6, 1)", "given(missing)"]:
        seen.add(check_expression(text, seed=rng.randrange(100)))
    assert "ok" in seen and "E210" in seen and len(seen) >= 4, seen
