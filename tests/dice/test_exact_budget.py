"""Exact odds stay bounded and printable (issue 19, items 3, 4, 8, 9, 11).

Every assertion here counts something the engine counts (budget steps, cache entries,
bytes allocated as traced by ``tracemalloc``): the same on every machine, never a clock.
"""

from __future__ import annotations

import json
from fractions import Fraction

import jsonschema
import pytest

from rulesengine import dice
from rulesengine.errors import LimitError
from rulesengine.cli import main
from rulesengine.exact_text import fraction_display, fraction_text
from rulesengine.limits import DEFAULT_LIMITS, EXACT_DECIMAL_DIGITS


# ---- item 3: exact values longer than Python's int-to-text limit -------------------------

def test_an_exact_fraction_too_long_for_decimal_is_written_in_hexadecimal_and_stays_exact():
    p = Fraction(3**20000 - 1, 2**40000)
    text = fraction_text(p)
    num, den = text.split("/")
    assert num.startswith("0x") and den.startswith("0x")
    assert Fraction(int(num, 16), int(den, 16)) == p


def test_a_fraction_is_written_in_decimal_up_to_the_digits_its_bit_lengths_promise():
    """Decimal while each part's digits, bounded from its bit length as int(bits × log10 2) + 1
    (docs: nothing converted to judge it), are at most EXACT_DECIMAL_DIGITS; hexadecimal past
    it. Every bit length about the edge, in the numerator and in the denominator."""
    def decimal(bits: int) -> bool:
        return int(bits * 0.30103) + 1 <= EXACT_DECIMAL_DIGITS

    edge = int(EXACT_DECIMAL_DIGITS / 0.30103)
    for bits in range(edge - 40, edge + 40):
        big = 2 ** bits - 1  # odd: the fraction stays in lowest terms over a power of two
        for p in (Fraction(big, 2), Fraction(1, 2 ** (bits - 1)), Fraction(-big, 2)):
            n, d = p.numerator, p.denominator
            expected = (f"{n}/{d}" if decimal(abs(n).bit_length()) and decimal(d.bit_length())
                        else f"{'-' if n < 0 else ''}{hex(abs(n))}/{hex(d)}")
            assert fraction_text(p) == expected


def test_a_short_exact_fraction_stays_decimal():
    assert fraction_text(Fraction(1, 6)) == "1/6"
    assert fraction_display(Fraction(-5, 7)) == "-5/7"


def test_a_long_exact_fraction_is_shown_to_people_by_its_length():
    p = Fraction(1, 10**(EXACT_DECIMAL_DIGITS + 10))
    assert fraction_display(p) == f"[{EXACT_DECIMAL_DIGITS + 11:,}-digit fraction]"


@pytest.mark.parametrize("args", [
    ["2000d2!cs=1", "--odds"],
    ["10000d2!!cs10", "--odds", "--explode-depth", "1"],
    ["750d1000cs=1 > 0 and 750d1000cs=1 > 0", "--odds"],  # 4,501 digits: within the budget
])
def test_odds_with_fractions_past_the_int_to_text_limit_print_as_text_and_json(args, capsys):
    assert main(["dice", *args]) == 0
    assert "(long)" in capsys.readouterr().out  # a person reads the percentage
    assert main(["dice", *args, "--exact"]) == 0
    assert "-digit fraction]" in capsys.readouterr().out
    assert main(["dice", *args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    exact = data["distribution"][0]["exact"]
    assert exact.startswith("0x")
    num, den = (int(part, 16) for part in exact.split("/"))
    assert abs(num / den - data["distribution"][0]["probability"]) < 1e-12


def test_the_odds_result_schema_admits_the_hexadecimal_form_and_rejects_others():
    from pathlib import Path
    schema = json.loads((Path(__file__).resolve().parents[2] / "schemas" / "odds-result.schema.json").read_text())
    pattern = schema["properties"]["truncated"]
    jsonschema.validate("0x1f/0x200", pattern)
    jsonschema.validate("1/6", pattern)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate("0x1f/6", pattern)


# ---- items 4 and 8: the budget is charged before the work --------------------------------

class CountingBudget:
    """Wraps ``dist.Budget`` to count its charges: how many were made and how much work
    each promised, so a test can say *when* a refusal came, in steps, not seconds."""

    def __init__(self, monkeypatch):
        import rulesengine.dice.api as dice_module
        from rulesengine.dice.dist import Budget

        self.charges: list[int] = []
        charges = self.charges

        class Counting(Budget):
            __slots__ = ()

            def spend(self, amount: int) -> None:
                charges.append(amount)
                super().spend(amount)

        monkeypatch.setattr(dice_module, "Budget", Counting)


@pytest.mark.parametrize("text", [
    "1000d1000000kh1",      # was MemoryError after 31 s at 1 GB
    "200d1000000kh1",       # was refused after 5 s and 500 MB
    "10000d1000000kh9999",  # was 13 s
    "d(d(1000000))",        # was 11 s and 394 MB: a million pools made before any charge
    "floor((1000d%!!>3cf1) / 10dFdh1)",  # compound explosions of 1000 big-weighted dice
])
def test_a_term_too_big_for_the_budget_is_refused_by_its_first_charges(text, monkeypatch):
    budget = CountingBudget(monkeypatch)
    with pytest.raises(LimitError) as info:
        dice.odds(dice.Expression(text))
    assert info.value.limit == "max_states"
    # Each step's whole cost is charged before it is done: a few dozen charges at most
    # (the die's faces, one per explosion depth, one per convolution of the doubling,
    # the floor of a keep), not one per face or per pool made before the budget ran out.
    assert len(budget.charges) <= 2 * DEFAULT_LIMITS.explode_depth + 20, budget.charges[:40]


def test_weights_of_many_bits_cost_more_than_one_step_each():
    from rulesengine.dice.dist import WORD_BITS, Budget, Dist, add, step_cost

    assert step_cost(0) == step_cost(WORD_BITS - 1) == 1
    assert step_cost(16 * WORD_BITS) == 1 + 16 * 4
    big = Dist({0: 1, 1: 1}, 2**(10 * WORD_BITS))
    budget = Budget(10**9)
    add(big, big, budget)
    assert budget.used == 4 * step_cost(20 * WORD_BITS + 2)


@pytest.mark.parametrize("text", ["1000d100000kh1", "10000d100000kh9999"])
def test_refusing_a_term_too_big_allocates_little(text):
    import tracemalloc

    tracemalloc.start()
    try:
        with pytest.raises(LimitError):
            dice.odds(dice.Expression(text))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # the die's 100,000 faces (about 15 MB traced), not a DP of weights of 17,000 to
    # 170,000 bits
    assert peak < 40 * 2**20, peak


def test_a_die_of_rolled_sides_is_charged_before_its_pools_are_made(monkeypatch):
    import rulesengine.dice.exact as exact  # the exact driver makes the pools

    made = []
    real = exact.dynamic_spec
    monkeypatch.setattr(exact, "dynamic_spec", lambda *a: made.append(a) or real(*a))
    with pytest.raises(LimitError) as info:
        dice.odds(dice.Expression("d(d(1000000))"))
    assert info.value.limit == "max_states"
    assert len(made) == 1  # the inner d(1000000); was: a million more before the first charge


# ---- item 9: work served from a cache is charged ----------------------------------------

def _fresh_caches():
    from rulesengine import cache

    cache.POOL_DISTS.clear()
    cache.ODDS.clear()
    cache.CHECK_ODDS.clear()


def test_a_cached_dice_term_is_charged_what_it_cost_so_a_second_call_is_refused_as_a_fresh_one():
    text = "d1000000 < d(x)"  # d1000000: 1,000,000 steps; comparing with d(x): 1,000,000 · x
    _fresh_caches()
    with pytest.raises(LimitError):
        dice.odds(text, env={"x": 1})  # a fresh process: 2,000,001 steps, one too many
    _fresh_caches()
    with pytest.raises(LimitError):
        dice.odds(text, env={"x": 1000})  # leaves d1000000 in the cache
    with pytest.raises(LimitError) as info:
        dice.odds(text, env={"x": 1})  # was: answered, the cached million entries free
    assert info.value.limit == "max_states"


# ---- item 11: what a long-running process keeps is bounded ----------------------------

BYTES_PER_CACHED_UNIT = 250
"""Traced bytes one unit of cache size may take (docs/limits.md: a dict entry of a small
int weight is about 100 bytes, a Fraction of a finished odds about 200)."""


def test_many_distinct_odds_and_rolls_in_one_process_keep_memory_under_the_cache_bound(monkeypatch):
    import gc
    import tracemalloc

    from rulesengine import cache

    import dataclasses

    small = dataclasses.replace(DEFAULT_LIMITS, max_outcomes=10_000, max_states=200_000)
    bound = 30_000
    monkeypatch.setattr(cache.ACCOUNT, "bound", bound)
    _fresh_caches()
    dice.parse.cache_clear()
    gc.collect()
    tracemalloc.start()
    try:
        start, _ = tracemalloc.get_traced_memory()
        refused = answered = 0
        for i in range(10):
            for text in (f"d{15000 - i} + 1",      # refused: too many values (max_outcomes)
                         f"d{6000 - i} + {i}",     # answered: 6,000 values
                         f"d{100000 - i} < d(x)",  # refused: max_states
                         f"{i + 3}d6kh3"):         # answered, small
                try:
                    dice.odds(text, env={"x": 100}, limits=small)
                    answered += 1
                except LimitError:
                    refused += 1
                dice.roll(text, seed=i, env={"x": 100}, limits=small)
            assert cache.ACCOUNT.held <= bound
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()
        _fresh_caches()
    assert refused == 20 and answered == 20
    # Before the bound: every expression in dice.parse's cache kept its dice terms'
    # distributions (10 × ~121,000 entries) and its odds.
    assert kept < bound * BYTES_PER_CACHED_UNIT, kept


def test_sized_caches_share_one_bound_and_drop_the_least_recently_used_first():
    from rulesengine.cache import SizeAccount, SizedCache

    account = SizeAccount(10)
    a, b = SizedCache(account), SizedCache(account)
    a.put("x", 1, 4)
    a.put("y", 2, 4)
    assert a.get("x") == 1  # now y is the least recently used
    b.put("z", 3, 4)  # 12 > 10: the cache holding most (a) drops y
    assert (a.get("y"), a.get("x"), b.get("z")) == (None, 1, 3)
    assert account.held == 8
    b.put("huge", 4, 11)  # bigger than the whole bound: not kept, nothing dropped
    assert b.get("huge") is None and account.held == 8


def test_a_checks_odds_at_many_distinct_inputs_are_kept_within_the_cache_bound(monkeypatch, tmp_path):
    """Issue 30, item 5: each check kept up to 257 finished odds, counted but not sized (the
    service grew 87 -> 366 MB in 24 requests). They are now in the shared sized cache."""
    import gc
    import tracemalloc

    from rulesengine import cache
    from rulesengine.ruleset import load

    path = tmp_path / "wide.yaml"
    path.write_text(
        "ruleset: wide\nname: Wide\nversion: '1'\nsource: a test\nlicense: none\n"
        "checks:\n  hit:\n    inputs:\n      bonus: {type: integer, min: 0, max: 100000}\n"
        "    roll: 1d1000 + 1d1000\n    result: roll + bonus\n"
        "    outcomes:\n      - {name: high, when: 'result >= 1000 + bonus', success: true}\n"
        "      - {name: low, success: false}\n",
        encoding="utf-8")
    check = load(str(path)).check("hit")
    bound = 40_000
    monkeypatch.setattr(cache.ACCOUNT, "bound", bound)
    _fresh_caches()
    gc.collect()
    tracemalloc.start()
    try:
        start, _ = tracemalloc.get_traced_memory()
        for bonus in range(40):  # each answer: a 1,999-value distribution of its own
            odds = check.odds({"bonus": bonus})
            assert odds.result_distribution[2 + bonus] == Fraction(1, 1000 * 1000)  # brute: only 1+1
            assert cache.ACCOUNT.held <= bound
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()
        _fresh_caches()
    assert len(cache.CHECK_ODDS) < 40
    assert kept < bound * BYTES_PER_CACHED_UNIT, kept
