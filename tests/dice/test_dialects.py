"""Dialects (issue 20): other rollers' spellings read as this language's meaning.

The examples are restated here from each tool's documented modifiers (Foundry VTT's dice
modifiers, Roll20's dice reference, the d20 Python library's README), each with its meaning
written out as a brute force over the faces; the docs' side-by-side table is read and every
cell checked against its row's own spelling in this language."""

from __future__ import annotations

import itertools
import re
from collections import defaultdict
from fractions import Fraction as F
from pathlib import Path

import pytest

from rulesengine import dice
from rulesengine.arguments import DIALECT_NAMES
from rulesengine.cli import main
from rulesengine.dice.dialects import DIALECTS, translate
from rulesengine.errors import DiceSyntaxError, RulesetError
from rulesengine.present.export import export
from rulesengine.ruleset import loads

DOC = Path(__file__).resolve().parents[2] / "docs" / "dice-language.md"


def brute(n: int, sides: int, value) -> dict:
    """The distribution of ``value(faces)`` over every roll of n dice."""
    out: dict = defaultdict(F)
    for faces in itertools.product(range(1, sides + 1), repeat=n):
        out[value(faces)] += F(1, sides ** n)
    return dict(out)


def odds_of(text: str, dialect: str | None = None) -> dict:
    return dict(dice.odds(dice.parse(text, dialect=dialect)).distribution)


# (dialect, written, this language's reading, its meaning as a brute force (n, sides, value))
EXAMPLES = [
    ("foundry", "4d6k3", "4d6kh3", (4, 6, lambda f: sum(sorted(f)[1:]))),
    ("roll20", "4d6k3", "4d6kh3", (4, 6, lambda f: sum(sorted(f)[1:]))),
    ("foundry", "4d6d1", "4d6dl1", (4, 6, lambda f: sum(sorted(f)[1:]))),
    ("d20", "4d6pl1", "4d6dl1", (4, 6, lambda f: sum(sorted(f)[1:]))),
    ("d20", "4d6ph1", "4d6dh1", (4, 6, lambda f: sum(sorted(f)[:-1]))),
    ("foundry", "2d20kl", "2d20kl1", (2, 20, min)),
    ("roll20", "5d10>8", "5d10cs>=8", (5, 10, lambda f: sum(x >= 8 for x in f))),
    ("roll20", "5d10>8f1", "5d10cs>=8cf1", (5, 10, lambda f: sum(x >= 8 for x in f) - sum(x == 1 for x in f))),
    ("roll20", "5d10<3", "5d10cs<=3", (5, 10, lambda f: sum(x <= 3 for x in f))),
    ("d20", "8d6mi2", "8d6min2", None),
    ("d20", "3d6mi2", "3d6min2", (3, 6, lambda f: sum(max(x, 2) for x in f))),
    ("d20", "1d20ma19", "1d20max19", (1, 20, lambda f: min(f[0], 19))),
    ("roll20", "1d20cs>19 + 5", "1d20 + 5", (1, 20, lambda f: f[0] + 5)),
    ("foundry", "{1d6, 1d6}kh", "(1d6, 1d6)kh1", (2, 6, max)),
    ("roll20", "{1d6, 1d6}k1", "(1d6, 1d6)kh1", (2, 6, max)),
    # the d20 library's keeps by face: k3 keeps the 3s, k1k2k3 the dice showing any of them
    ("d20", "4d6k3", "4d6k=3", (4, 6, lambda f: sum(x for x in f if x == 3))),
    ("d20", "5d6k1k2k3", "5d6k=1k=2k=3", (5, 6, lambda f: sum(x for x in f if x <= 3))),
    ("d20", "4d6p1", "4d6p=1", (4, 6, lambda f: sum(x for x in f if x != 1))),
    ("d20", "4d6k>3", "4d6k>3", (4, 6, lambda f: sum(x for x in f if x > 3))),
    ("d20", "4d6p<3", "4d6p<3", (4, 6, lambda f: sum(x for x in f if x >= 3))),
    ("d20", "4d6p1kh2", "4d6p=1kh2", (4, 6, lambda f: sum(sorted(x for x in f if x != 1)[-2:]))),
]


@pytest.mark.parametrize("dialect, written, native, meaning", EXAMPLES, ids=[f"{d}:{w}" for d, w, _, _ in EXAMPLES])
def test_a_dialects_spelling_reads_as_its_meaning_here(dialect, written, native, meaning):
    expr = dice.parse(written, dialect=dialect)
    assert expr.text == native
    if meaning is not None:
        assert odds_of(written, dialect) == brute(*meaning)


def reroll_until(sides: int, rerolled) -> dict:
    kept = [f for f in range(1, sides + 1) if not rerolled(f)]
    return {f: F(1, len(kept)) for f in kept}


def reroll_once(sides: int, rerolled) -> dict:
    out: dict = defaultdict(F)
    for a in range(1, sides + 1):
        if rerolled(a):
            for b in range(1, sides + 1):
                out[b] += F(1, sides * sides)
        else:
            out[a] += F(1, sides)
    return dict(out)


@pytest.mark.parametrize("dialect, written, until", [
    ("foundry", "1d6r1", False), ("foundry", "1d6rr1", True), ("roll20", "1d6r1", True), ("roll20", "1d6ro1", False),
    ("d20", "1d6rr1", True), ("d20", "1d6ro1", False),
])
def test_rerolls_once_or_until_as_each_tool_means_them(dialect, written, until):
    """Foundry's r rerolls once; Roll20's and the d20 library's r/rr until none is left."""
    want = (reroll_until if until else reroll_once)(6, lambda f: f == 1)
    assert odds_of(written, dialect) == want


# Foundry's modifiers in every order (issue 29, 2): each is rewritten wherever it stands,
# after a modifier written as here (min, max, cs) or a bare one (kh, d) as well.
# (dice, [(Foundry's spelling, this language's)]): every order of the modifiers reads as
# this language's spelling of them (whose order changes nothing, see "Order of modifiers").
FOUNDRY_ORDERS = [
    ("4d6", [("max5", "max5"), ("r1", "ro1")]),
    ("4d6", [("min2", "min2"), ("rr1", "r1"), ("k3", "kh3")]),
    ("3d6", [("max5", "max5"), ("x", "!")]),
    ("3d6", [("xo", "!o"), ("d", "dl1"), ("min3", "min3")]),
    ("4d6", [("kh", "kh1"), ("r2", "ro2"), ("max4", "max4")]),
    ("5d6", [("cs>=5", "cs>=5"), ("rr1", "r1"), ("dl", "dl1")]),
    ("4d6", [("kl", "kl1"), ("x>=5", "!>=5")]),
    ("4d6", [("dh", "dh1"), ("xo", "!o"), ("r1", "ro1")]),
]


@pytest.mark.parametrize("dice_text, mods", FOUNDRY_ORDERS, ids=[d + "".join(f for f, _ in m) for d, m in FOUNDRY_ORDERS])
def test_foundry_modifiers_read_the_same_in_every_order(dice_text, mods):
    want = odds_of(dice_text + "".join(n for _, n in mods))
    for order in itertools.permutations(mods):
        written = dice_text + "".join(f for f, _ in order)
        assert odds_of(written, "foundry") == want, written


def test_foundrys_reroll_once_after_a_clamp_is_a_reroll_once():
    """4d6max5r1 and 4d6r1max5: each die rerolled once on a 1, then clamped to 5 at most;
    its mean worked out by hand: (1/6)·(1+2+3+4+5+5)/6 + (2+3+4+5+5)/6 = 134/36."""
    per_die = F(1, 6) * F(1 + 2 + 3 + 4 + 5 + 5, 6) + F(2 + 3 + 4 + 5 + 5, 6)
    for written in ("4d6max5r1", "4d6r1max5"):
        assert dice.odds(dice.parse(written, dialect="foundry")).mean == 4 * per_die, written


def test_roll20_compare_points_include_the_number():
    """Roll20's r<2 rerolls 1s and 2s, !>5 explodes on 5 and 6 (this language: <=, >=)."""
    assert odds_of("1d6r<2", "roll20") == reroll_until(6, lambda f: f <= 2)
    assert dice.parse("3d6!>5", dialect="roll20").text == "3d6!>=5"
    assert dice.parse("3d6!>5", dialect="foundry").text == "3d6!>5"  # Foundry: strictly greater
    assert dice.parse("3d6e>5", dialect="d20").text == "3d6!>5"


def test_explosions_in_each_dialect():
    want = odds_of("1d6!")
    assert odds_of("1d6x", "foundry") == odds_of("1d6e6", "d20") == odds_of("1d6!", "roll20") == want


def test_traces_show_this_languages_reading_and_physical_faces_follow_it():
    rolled = dice.roll("4d6k3", faces=[2, 5, 1, 6], dialect="foundry")
    assert rolled.total == 13 and rolled.trace.startswith("4d6kh3 → ")
    assert dice.roll("5d10>8f1", faces=[8, 9, 1, 3, 10], dialect="roll20").total == 2


@pytest.mark.parametrize("dialect, written, message", [
    ("d20", "1d6ra6", "reroll and add"),
    ("d20", "4d6kh1kl1", "joins them into one keep"),
    ("d20", "4d6ph1pl1", "joins them into one keep"),
    ("d20", "4d6kh3p1", "after a keep by rank"),
    ("d20", "(1d6, 2, 3)k3", "keeps a set's items by value"),
    ("foundry", "4d6cf<3", "failures alone"),
    ("roll20", "4d6mt", "matching"),
    ("roll20", "{4d6+3d8}k4", "pools its rolls' dice"),
])
def test_a_spelling_with_no_meaning_here_yet_is_an_error_saying_so(dialect, written, message):
    with pytest.raises(DiceSyntaxError) as err:
        dice.parse(written, dialect=dialect)
    assert message in err.value.message and f"({dialect})" in err.value.message
    assert err.value.location.source_line == written  # pointed at what was written


def test_a_parse_error_points_into_what_was_written():
    with pytest.raises(DiceSyntaxError) as err:
        dice.parse("4d6k3 + * 2", dialect="roll20")  # read as "4d6kh3 + * 2": one more character
    loc = err.value.location
    assert loc.source_line == "4d6k3 + * 2" and loc.column == 9


def test_no_dialect_no_change_and_unknown_dialects_are_refused():
    assert translate("4d6k3", None).native == "4d6k3"
    with pytest.raises(DiceSyntaxError):
        dice.parse("4d6k3")  # this language: an error naming kh
    with pytest.raises(DiceSyntaxError, match="unknown dialect"):
        dice.parse("1d6", dialect="avrae")
    assert DIALECT_NAMES == DIALECTS


def test_names_strings_and_dice_after_a_parenthesis_are_left_alone():
    assert translate("dex + 'd6k3' + (n)d6 + max(1, 2)", "foundry").native == "dex + 'd6k3' + (n)d6 + max(1, 2)"
    assert translate("1d{0,1,2}x", "foundry").native == "1d{0,1,2}!"


def _doc_rows() -> list[tuple[str, list[str], dict[str, list[str]]]]:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Dialects", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5 or cells[0] in ("meaning", "---") or set(cells[0]) <= {"-"}:
            continue
        spell = [re.findall(r"`([^`]+)`", c) for c in cells[1:]]
        rows.append((cells[0], spell[0], dict(zip(("foundry", "roll20", "d20"), spell[1:], strict=True))))
    return rows


DOC_ROWS = _doc_rows()


def test_the_docs_table_is_read():
    assert len(DOC_ROWS) >= 15


@pytest.mark.parametrize("meaning, native, by_dialect", DOC_ROWS, ids=[r[0] for r in DOC_ROWS])
def test_every_cell_of_the_docs_table_means_its_rows_spelling_here(meaning, native, by_dialect):
    for dialect, spellings in by_dialect.items():
        if not spellings:
            continue  # "—": the tool has no such spelling
        assert len(spellings) == len(native), (meaning, dialect)
        for written, here in zip(spellings, native, strict=True):
            assert odds_of(written, dialect) == odds_of(here), (meaning, dialect, written)


def test_the_cli_takes_a_dialect(capsys):
    assert main(["dice", "4d6k3", "--dialect", "roll20", "--faces", "2,5,1,6"]) == 0
    assert capsys.readouterr().out.strip() == "4d6kh3 → [2, 5, (1), 6] = 13"  # not a terminal: (1) for ~~1~~
    assert main(["dice", "4d6k3", "--dialect", "nope"]) == 2


RULESET = """
ruleset: roll20-habits
name: A ruleset written with Roll20's spellings
version: "1"
source: tests
dialect: roll20
checks:
  pool:
    inputs:
      dice: {type: integer, default: 5, min: 1, max: 20}
    roll: (dice)d10>8
    result: roll
    outcomes:
      - {name: success, when: "roll >= 1", success: true}
      - {name: failure, success: false}
"""


def test_a_ruleset_may_be_written_in_a_dialect():
    rs = loads(RULESET, "r20.yaml")
    assert rs.check("pool").odds({"dice": 3}).success == 1 - F(7, 10) ** 3
    assert export(rs)["checks"]["pool"]["rolls"]["roll"]["text"] == "(dice)d10cs>=8"  # exported in this language


def test_a_rulesets_error_points_into_its_file_as_written():
    bad = RULESET.replace("(dice)d10>8", "(dice)d10>8 + dcie")
    with pytest.raises(RulesetError) as err:
        loads(bad, "r20.yaml")
    loc = err.value.location
    line = bad.splitlines()[loc.line - 1]
    assert line[loc.column - 1:loc.column + 3] == "dcie"


@pytest.mark.parametrize("letters", ["x" * 900 + "z", "r" * 900 + "z"])
def test_a_long_run_of_modifier_letters_is_a_located_error(letters):
    """Letters run together are read as the dialect's modifiers one after another; a run of
    hundreds is still one located error (no recursion, no search that grows with the run)."""
    with pytest.raises(DiceSyntaxError) as err:
        dice.parse("4d6" + letters, dialect="foundry")
    assert err.value.location is not None and err.value.location.source_line == "4d6" + letters


# ---- spellings read otherwise (issue 32): noted, so that a ruleset file can say so ------------

# (dialect, written, the spelling noted, its code): every spelling a dialect reads otherwise
# than this language, or another dialect, does (the set listed in dice/dialects.py's NOTES).
READ_OTHERWISE = [
    ("foundry", "4d6r1", "r1", "W510"),
    ("foundry", "2d10r<=2", "r<=2", "W510"),
    ("roll20", "3d6!>5", "!>5", "W510"),
    ("roll20", "3d6!!>5", "!!>5", "W510"),
    ("roll20", "3d6!p>5", "!p>5", "W510"),
    ("roll20", "2d10r<2", "r<2", "W510"),
    ("roll20", "2d10ro<2", "ro<2", "W510"),
    ("roll20", "10d10>=8", ">=8", "W510"),
    ("roll20", "10d10<=3", "<=3", "W510"),
    ("roll20", "3d6==10", "==10", "W510"),
    ("roll20", "10d10cs>=8", "cs>=8", "W513"),
    ("roll20", "10d10>8cf1", "cf1", "W513"),
    ("roll20", "1d20cs>19 + 5", "cs>19", "W513"),
    ("d20", "4d6k3", "k3", "W510"),
]


@pytest.mark.parametrize("dialect, written, spelling, code", READ_OTHERWISE,
                         ids=[f"{d}:{w}" for d, w, _, _ in READ_OTHERWISE])
def test_a_spelling_the_dialect_reads_otherwise_is_noted_where_it_is_written(dialect, written, spelling, code):
    notes = translate(written, dialect).notes
    assert [(n.code, written[n.start:n.end]) for n in notes] == [(code, spelling)]
    assert notes[0].hint and ("warning" if code.startswith("W") else "error") == notes[0].severity


# Spellings every reading agrees on, the dialect's own ones that nothing else reads otherwise,
# and those this language refuses: none is noted.
AGREED = [
    ("foundry", "4d6ro1 + 4d6rr1 + 4d6k3 + 3d6x + 3d6xo + 4d6d1 + 8d6min2cs>=5"),
    ("roll20", "10d10>8f1 + 10d10<3 + 10d10=8 + 3d6!>=5 + 2d10r<=2 + 4d6k3 + 3d6!"),
    ("roll20", "if(3d6 >= 10, 1, 0) + 3d6 == 10"),  # with a space: a comparison, as everywhere
    ("d20", "4d6kh3 + 4d6k=3 + 4d6k>3 + 4d6p1 + 4d6pl1 + 8d6mi2 + 3d6e6 + 4d6rr1"),
]


@pytest.mark.parametrize("dialect, written", AGREED, ids=[d for d, _ in AGREED])
def test_spellings_every_reading_agrees_on_are_not_noted(dialect, written):
    assert translate(written, dialect).notes == ()


def reroll_once_sum(n: int, sides: int, again) -> dict:
    """n dice each rerolled once when ``again(face)``: the sum, face by face."""
    one: dict = defaultdict(F)
    for face in range(1, sides + 1):
        if again(face):
            for second in range(1, sides + 1):
                one[second] += F(1, sides * sides)
        else:
            one[face] += F(1, sides)
    out: dict = {0: F(1)}
    for _ in range(n):
        nxt: dict = defaultdict(F)
        for total, p in out.items():
            for v, q in one.items():
                nxt[total + v] += p * q
        out = dict(nxt)
    return out


def test_what_a_note_says_a_spelling_now_means_is_what_the_dialect_reads():
    """Each note's "now means", against a brute force of that meaning: Foundry's r1 rerolls
    once; Roll20's !>9 on a d10 explodes on 9 too (P(total >= 10) = 2/10, not 1/10); Roll20
    drops cs (the sum of the dice); >=8 after the dice counts them; the d20 library's k3 sums
    the 3s."""
    assert odds_of("2d6r1", "foundry") == reroll_once_sum(2, 6, lambda f: f == 1)
    exploding = dice.odds(dice.parse("1d10!>9", dialect="roll20"))
    assert exploding.at_least(10) == F(2, 10) and dice.odds("1d10!>9").at_least(10) == F(1, 10)
    assert odds_of("3d10cs>=8", "roll20") == brute(3, 10, sum)
    assert odds_of("3d10>=8", "roll20") == brute(3, 10, lambda f: sum(x >= 8 for x in f))
    assert odds_of("4d6k3", "d20") == brute(4, 6, lambda f: sum(x for x in f if x == 3))


# (dialect, written, the spelling a W510 hint gives, as the hint names it): read alike with and
# without the dialect
SUGGESTED = [
    ("foundry", "4d6r1", "4d6ro1", "'ro1'"),
    ("roll20", "3d6!>5", "3d6!>=5", "'!>=5'"),
    ("roll20", "2d10r<2", "2d10r<=2", "'r<=2'"),
    ("roll20", "2d10ro<2", "2d10ro<=2", "'ro<=2'"),
    ("roll20", "10d10>=8", "10d10 >= 8", "put a space before '>='"),
    ("d20", "4d6k3", "4d6kh3", "'kh3'"),
    ("d20", "4d6k3", "4d6k=3", "'k=3'"),
]


@pytest.mark.parametrize("dialect, written, suggested, named", SUGGESTED, ids=[f"{d}:{s}" for d, _, s, _ in SUGGESTED])
def test_the_spelling_a_warning_suggests_reads_alike_with_and_without_the_dialect(dialect, written, suggested, named):
    assert named in translate(written, dialect).notes[0].hint
    assert translate(suggested, dialect).notes == ()
    assert odds_of(suggested, dialect) == odds_of(suggested)
