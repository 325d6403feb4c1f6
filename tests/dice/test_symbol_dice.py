"""Symbol dice (issue 14, gap 5): dice whose faces show symbols instead of numbers, written
``d{[], [hit], [hit, hit]}`` or declared by name in a ruleset's ``dice:`` and rolled as
``3d{name}``; rules count what a roll shows with ``symbols(roll, 'hit')``, a pool of several
kinds of dice added up is read as one roll, and a difference of counts (``symbols(roll, 's')
- symbols(roll, 'f')``) is read as one number. Checked against brute forces written here:
itertools over every face of small pools, and the whole-roll reading against every
combination of its parts."""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesengine.cli import main
from rulesengine.dice import ast
from rulesengine.dice.dist import Budget
from rulesengine.dice.parser import parse
from rulesengine.dice.pool import PoolSpec
from rulesengine.dice.pool_odds import PoolView, faces_dist, joined_dist
from rulesengine.errors import DiceSyntaxError
from rulesengine.limits import DEFAULT_LIMITS
from rulesengine.ruleset import loads

GOOD = [(), ("s",), ("s",), ("s", "s"), ("a",), ("a",), ("s", "a"), ("a", "a")]
BAD = [(), ("f",), ("f", "f"), ("t",), ("t",), ("t",), ("t", "t"), ("f", "t")]


def die_text(faces) -> str:
    return "d{" + ", ".join("[" + ", ".join(f) + "]" for f in faces) + "}"


def term(text: str) -> ast.Dice:
    return next(n for n in ast.walk(parse(text)) if isinstance(n, ast.Dice))


# ---- the language ----------------------------------------------------------------------


def test_a_symbol_face_is_a_list_of_symbols_and_the_faces_are_numbered_by_place():
    die = term("2d{[], [hit], [hit, hit]}").die
    assert die.custom == (1, 2, 3)
    assert die.symbols == ((), ("hit",), ("hit", "hit"))
    assert [die.label(f) for f in die.faces] == ["blank", "hit", "hit+hit"]
    assert die.symbols_on(3) == ("hit", "hit")


def test_a_die_named_in_braces_waits_for_a_ruleset():
    die = term("3d{ability}").die
    assert die.name == "ability" and not die.declared


@pytest.mark.parametrize("text, message", [
    ("d{1, [hit]}", "all numbers or all symbols"),
    ("d{[two words-x]}", "can't name a symbol"),
    ("d{[blank]}", "can't name a symbol"),
    ("2d{[a], [b]}!!", "shows symbols"),
    ("2d{[a], [b]}!p", "shows symbols"),
    ("2d{[a], [b]}max1", "shows symbols"),
])
def test_what_a_symbol_die_cannot_be(text, message):
    with pytest.raises(DiceSyntaxError) as err:
        parse(text)
    assert message in err.value.message


def test_an_undeclared_die_is_a_located_error_outside_a_ruleset(capsys):
    assert main(["dice", "1 + 3d{ability}"]) != 0
    err = capsys.readouterr().err
    assert "unknown die d{ability}" in err and "column 5" in err and "Traceback" not in err


# ---- one term: every face of a small pool --------------------------------------------


def brute_symbols(faces, n):
    """Every sequence of n faces, its symbols counted."""
    out: dict = defaultdict(F)
    for throw in itertools.product(faces, repeat=n):
        out[tuple(sorted(Counter(s for f in throw for s in f).items()))] += F(1, len(faces) ** n)
    return dict(out)


@pytest.mark.parametrize("n", [0, 1, 3])
def test_a_term_of_symbol_dice_counts_every_symbol_as_itertools_does(n):
    spec = PoolSpec.of(term(f"{n}{die_text(GOOD)}"))
    dist = faces_dist(spec, n, DEFAULT_LIMITS, Budget(10 ** 9))
    got: dict = defaultdict(F)
    for rolled, p in dist.probabilities().items():
        got[rolled.symbols] += p
    assert dict(got) == brute_symbols(GOOD, n)


# ---- several terms read as one ---------------------------------------------------------

PARTS = ["2d{[], [a], [a, b]}", "1d{[b], [b, b], []}", "2d{[a], []}!=1", "d4", "1d{[c], [a]}ro2"]
NETS = st.lists(st.lists(st.tuples(st.sampled_from("abc"), st.sampled_from([1, -1])), min_size=1, max_size=3,
                         unique_by=lambda x: x[0]).map(lambda r: tuple(sorted(r))), max_size=2).map(tuple)
COUNTS = st.lists(st.one_of(st.none(), st.tuples(st.integers(1, 2), st.integers(2, 4))), max_size=1).map(tuple)


def read(view: PoolView, rolled) -> tuple:
    have = dict(rolled.symbols)
    return (rolled.total if view.total else None,
            tuple(len(rolled.faces) if c is None else sum(c[0] <= f <= c[1] for f in rolled.faces)
                  for c in view.counts),
            tuple(sum(sign * have.get(s, 0) for s, sign in net) for net in view.symbols),
            max(rolled.faces) if view.highest and rolled.faces else None)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(PARTS), min_size=1, max_size=3), st.builds(
    PoolView, st.booleans(), COUNTS, st.booleans(), st.just(False), st.just(()), NETS, caps=st.just(()),
    complete=st.just(())))  # numbers of one count (functions from the rules): test_pool_views.py draws them
def test_a_sum_of_terms_read_through_a_view_reads_as_every_combination_of_its_parts(parts, view):
    """(Capped counts, ``PoolView.caps``, are tested with their own oracle in test_pool_views.py.)"""
    budget = Budget(10 ** 9)
    dists = []
    for text in parts:
        node = term(text)
        dists.append(faces_dist(PoolSpec.of(node), node.count.value, DEFAULT_LIMITS, budget))
    seen = joined_dist(dists, view, budget)
    every = joined_dist(dists, None, budget)  # every combination of the parts' rolls
    want: dict = defaultdict(F)
    for combo in itertools.product(*(d.probabilities().items() for d in dists)):
        p = F(1)
        for _, q in combo:
            p *= q
        faces = sorted((f for r, _ in combo for f in r.faces), reverse=True)
        assert any(r.faces == tuple(faces) for r in every.weights)
        symbols = Counter()
        for r, _ in combo:
            symbols.update(dict(r.symbols))
        key = (sum(r.total for r, _ in combo) if view.total else None,
               tuple(len(faces) if c is None else sum(c[0] <= f <= c[1] for f in faces) for c in view.counts),
               tuple(sum(sign * symbols.get(s, 0) for s, sign in net) for net in view.symbols),
               max(faces) if view.highest and faces else None)
        want[key] += p
    got: dict = defaultdict(F)
    for rolled, p in seen.probabilities().items():
        got[read(view, rolled)] += p
    assert dict(got) == dict(want)


# ---- in a ruleset ------------------------------------------------------------------------

def yaml_faces(faces) -> str:
    return "[" + ", ".join("[" + ", ".join(f) + "]" for f in faces) + "]"


RULESET = f"""
ruleset: symbols
name: Symbol dice
version: "1"
source: tests
dice:
  good: {{faces: {yaml_faces(GOOD)}}}
  bad: {{faces: {yaml_faces(BAD)}}}
checks:
  net:
    inputs:
      good: {{type: integer, default: 2, min: 0, max: 12}}
      bad: {{type: integer, default: 2, min: 0, max: 12}}
    roll: (good)d{{good}} + (bad)d{{bad}}
    let:
      net: symbols(roll, 's') - symbols(roll, 'f')
      edge: symbols(roll, 'a') - symbols(roll, 't')
    result: net
    report: [edge]
    outcomes:
      - {{name: success, when: "net >= 1 and edge >= 0", success: true}}
      - {{name: mixed, when: "net >= 1", success: true}}
      - {{name: failure, success: false}}
"""


def brute_net(good: int, bad: int) -> dict:
    out: dict = defaultdict(F)
    for throw in itertools.product(GOOD, repeat=good):
        for against in itertools.product(BAD, repeat=bad):
            seen = Counter(s for f in throw + against for s in f)
            net, edge = seen["s"] - seen["f"], seen["a"] - seen["t"]
            name = "success" if net >= 1 and edge >= 0 else "mixed" if net >= 1 else "failure"
            out[name] += F(1, 8 ** (good + bad))
    return dict(out)


@pytest.mark.parametrize("good, bad", [(0, 0), (2, 1), (2, 3), (3, 2)])
def test_a_pool_of_two_kinds_of_symbol_dice_nets_its_symbols_as_itertools_does(good, bad):
    rs = loads(RULESET, "symbols.yaml")
    odds = rs.check("net").odds({"good": good, "bad": bad})
    assert {k: v for k, v in odds.outcomes.items() if v} == brute_net(good, bad)


def test_twenty_symbol_dice_are_exact_and_the_sum_of_their_expectations():
    """Means add: a good die shows 5/8 s and 5/8 a, a bad one 4/8 f and 6/8 t."""
    rs = loads(RULESET, "symbols.yaml")
    odds = rs.check("net").odds({"good": 10, "bad": 10})
    assert sum(odds.outcomes.values()) == 1
    mean = sum(v * p for v, p in odds.result_distribution.items())
    assert mean == 10 * F(5, 8) - 10 * F(4, 8)
    edge = sum(v * p for v, p in odds.values["edge"].items())
    assert edge == 10 * F(5, 8) - 10 * F(6, 8)


def test_a_symbol_pool_rolls_with_its_symbols_in_the_trace_and_takes_them_as_faces():
    rs = loads(RULESET, "symbols.yaml")
    res = rs.check("net").roll({"good": 1, "bad": 1}, faces=["s+a", "t+f"])
    assert res.result == 0 and res.outcome == "failure"
    assert "1d{good}[s+a] + 1d{bad}[f+t] = 1 a, 1 f, 1 s, 1 t" in res.trace


def test_a_symbol_no_die_shows_and_an_unknown_die_are_located_errors():
    text = RULESET.replace("symbols(roll, 's') - symbols(roll, 'f')", "symbols(roll, 'sucess') - symbols(roll, 'f')")
    with pytest.raises(Exception) as err:
        loads(text.replace("(bad)d{bad}", "(bad)d{badd}"), "symbols.yaml")
    message = str(err.value)
    assert "unknown die d{badd}" in message and "did you mean d{bad}?" in message
    with pytest.raises(Exception) as err:
        loads(text, "symbols.yaml")
    assert "no die of this ruleset shows the symbol 'sucess'" in str(err.value)


def test_the_documented_symbol_dice_example_runs_as_shown():
    """docs/ruleset-language.md, "Symbol dice": its file validates and its roll prints the
    trace line the page shows."""
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "ruleset-language.md").read_text(encoding="utf-8")
    section = doc[doc.index("### Symbol dice"):doc.index("### Choosing dice")]
    body = re.search(r"```yaml\n(.*?)```", section, re.S).group(1)
    rs = loads('ruleset: narrative\nname: N\nversion: "1"\nsource: docs\n' + body, "narrative.yaml")
    shown = next(line for line in section.splitlines() if line.startswith("roll: "))
    res = rs.check("narrative").roll({"ability": 1, "difficulty": 1}, faces=["advantage+success", "threat"])
    assert shown in res.trace
    assert res.result == 1 and res.outcome == "success"


def test_a_symbol_die_is_bounded_like_any_custom_die():
    """A die's faces together show at most max_custom_faces symbols (rolling reads every
    symbol of every kept die: without a bound a file could make one roll take hours)."""
    import dataclasses

    from rulesengine.errors import LimitError
    from rulesengine.limits import DEFAULT_LIMITS

    wide = dataclasses.replace(DEFAULT_LIMITS, max_expression_length=20_000)
    with pytest.raises(LimitError) as err:
        parse("d{[" + ", ".join(["hit"] * 1500) + "]}", wide)
    assert err.value.limit == "max_custom_faces"
    text = RULESET.replace("good: {faces: [", "good: {faces: [[" + ", ".join(["s"] * 1500) + "], ")
    with pytest.raises(Exception) as err:
        loads(text, "symbols.yaml")
    assert "shows 1,510 symbols in all" in str(err.value) and "and 1 more" in str(err.value)
    assert err.value.location.line == 7  # where the die is declared; its roll says it can't be rolled


@pytest.mark.parametrize("typed, place", [("blank", 1), ("hit+hit", 3), ("HIT + hit", 3), ("hit", 2)])
def test_physical_symbol_faces_are_entered_by_their_symbols_in_any_order_and_case(typed, place):
    from rulesengine.dice.sources import printed_face

    assert printed_face(term("d{[], [hit], [hit, hit]}").die, typed) == place


@pytest.mark.parametrize("typed", ["+", "", "miss", "hit+miss"])
def test_text_that_names_no_face_is_not_a_symbol_face(typed):
    from rulesengine.dice.sources import printed_face

    assert printed_face(term("d{[], [hit], [hit, hit]}").die, typed) == typed


def test_the_dice_command_says_what_symbol_dice_showed(capsys):
    """docs/dice-language.md, "Symbol dice": a roll of symbol dice alone ends with its symbols;
    mixed with numbers it ends with the number."""
    assert main(["dice", "3d{[], [hit], [hit, hit]}", "--faces", "hit+hit,blank,hit"]) == 0
    assert capsys.readouterr().out.strip() == "3d{[], [hit], [hit, hit]} → [hit+hit, blank, hit] = 3 hit"
    assert main(["dice", "3d{[], [hit], [hit, hit]} + 1", "--faces", "hit+hit,blank,hit"]) == 0
    assert capsys.readouterr().out.strip().endswith("+ 1 = 7")


# ---- dice chosen from a roll of symbol dice (issue 29, 1) ----------------------------------

KEEP = f"""
ruleset: symbols-kept
name: Symbol dice kept
version: "1"
source: tests
dice:
  good: {{faces: {yaml_faces(GOOD)}}}
  bad: {{faces: {yaml_faces(BAD)}}}
checks:
  keep:
    roll: 3d{{good}} + 1d{{bad}}
    choose:
      from: roll
      pick: 2
      values:
        net: symbols(chosen, 's') - symbols(chosen, 'f')
        spare: symbols(rest, 'a')
      order: [net, spare]
    result: net * 10 + spare
    outcomes:
      - {{name: success, when: "net >= 1", success: true}}
      - {{name: failure, success: false}}
"""


def brute_keep() -> dict:
    """Every throw of three good dice and a bad one (a good and a bad die share their faces'
    places, not their symbols), the best two kept by (net, spare) as the check orders them."""
    out: dict = defaultdict(F)
    for throw in itertools.product(GOOD, GOOD, GOOD, BAD):
        ways = []
        for kept in itertools.combinations(range(4), 2):
            on_kept = Counter(s for i in kept for s in throw[i])
            on_left = Counter(s for i in range(4) if i not in kept for s in throw[i])
            ways.append((on_kept["s"] - on_kept["f"], on_left["a"]))
        net, spare = max(ways)
        out[net * 10 + spare] += F(1, 8 ** 4)
    return dict(out)


def test_symbols_of_the_dice_chosen_and_left_count_what_those_dice_show_in_exact_odds():
    rs = loads(KEEP, "kept.yaml")
    odds = rs.check("keep").odds({})
    want = brute_keep()
    assert {v: p for v, p in odds.result_distribution.items() if p} == want
    assert odds.outcomes["success"] == sum(p for v, p in want.items() if v >= 10)


def test_symbols_of_the_dice_chosen_count_what_those_dice_show_when_rolled():
    """Faces s, blank, s+a on the good dice and f on the bad one: the two dice showing s are
    kept (net 2); the bad die's f, at the same place as a good die's s, is left out. Then
    nothing to gain: two blanks kept, so that the a is left (spare 1)."""
    rs = loads(KEEP, "kept.yaml")
    res = rs.check("keep").roll({}, faces=["s", "blank", "s+a", "f"])
    assert res.env["net"] == 2 and res.env["spare"] == 0 and res.outcome == "success"
    res = rs.check("keep").roll({}, faces=["blank", "blank", "a", "f"])
    assert res.env["net"] == 0 and res.env["spare"] == 1 and res.outcome == "failure"


def test_symbols_of_the_first_throw_is_refused_where_it_is_written():
    """initial() reads the first throw by its faces' numbers only: symbols() of it would count
    0 whatever the dice showed, so the file is refused at the argument (E523), with the two
    spellings that do read it."""
    import rulesengine
    from rulesengine.errors import RulesEngineError

    text = ("ruleset: t\nname: T\nversion: '1'\nsource: a test\nlicense: none\n"
            "dice:\n  skill: {faces: [[], [hit], [hit, hit]]}\n"
            "checks:\n  c:\n    roll: 3d{skill}!\n    result: symbols(initial(roll), 'hit')\n"
            "    outcomes:\n      - {name: any, success: true}\n")
    with pytest.raises(RulesEngineError) as err:
        rulesengine.loads(text)
    assert err.value.code == "E523" and err.value.location.line == 11
    assert "symbols(roll, 'name')" in err.value.hint and "count(initial(roll), face)" in err.value.hint
