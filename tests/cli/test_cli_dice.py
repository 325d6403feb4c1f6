"""The `rulesengine dice` command: output, JSON, exit codes, and no tracebacks."""

from __future__ import annotations

import io
import json
import math
import os
import re
import subprocess
import sys
from fractions import Fraction

import pytest

from oracle import product_dist
from rulesengine.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_dice_prints_the_trace_with_a_dropped_die_in_parentheses_where_no_terminal_reads_it(capsys):
    """Issue 35: no Markdown in a terminal's traces; piped, a dropped die is `(2)`."""
    code, out, err = run(capsys, "dice", "4d6kh3", "--faces", "6,5,4,2")
    assert (code, out, err) == (0, "4d6kh3 → [6, 5, 4, (2)] = 15\n", "")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("no_color,want", [
    (None, "4d6kh3 → [6, 5, 4, \x1b[9m2\x1b[29m] = 15\n"),
    ("1", "4d6kh3 → [6, 5, 4, (2)] = 15\n"),
    ("", "4d6kh3 → [6, 5, 4, \x1b[9m2\x1b[29m] = 15\n"),  # no-color.org: set and empty is unset
])
def test_a_terminal_strikes_a_dropped_die_through_unless_no_color_is_set(monkeypatch, no_color, want):
    if no_color is None:
        monkeypatch.delenv("NO_COLOR", raising=False)
    else:
        monkeypatch.setenv("NO_COLOR", no_color)
    terminal = Terminal()
    monkeypatch.setattr(sys, "stdout", terminal)
    assert main(["dice", "4d6kh3", "--faces", "6,5,4,2"]) == 0
    assert terminal.getvalue() == want


def test_rerolled_faces_and_roll_traces_use_the_same_marks_and_json_keeps_markdown(capsys):
    code, out, _ = run(capsys, "dice", "2d6ro1!", "--faces", "1,6,3,2")
    assert out == "2d6ro1! → [(1) 3, 6!, 2] = 11\n"
    code, out, _ = run(capsys, "dice", "2d6ro1!", "--faces", "1,6,3,2", "--json")
    assert json.loads(out)["trace"] == "2d6ro1! → [~~1~~ 3, 6!, 2] = 11"
    code, out, _ = run(capsys, "dice", "2d{1:'a b', 2:'c'}kh1 + 2d{1:'x~y', 2:'z'}kh1", "--faces", "1,2,1,2")
    assert "[(a b), c] + [~~x~y~~, z]" in out  # a label with a ~ in it keeps its marks (documented)


def test_dice_seed_is_reproducible(capsys):
    first = run(capsys, "dice", "3d6+2", "--seed", "99")
    assert first == run(capsys, "dice", "3d6+2", "--seed", "99")


def test_dice_json_has_expression_total_dice_and_trace(capsys):
    code, out, _ = run(capsys, "dice", "2d6", "--faces", "3,4", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["expression"] == "2d6" and data["total"] == 7
    assert [d["face"] for d in data["dice"]] == [3, 4]
    assert data["trace"] == "2d6 → [3, 4] = 7"


def test_dice_names_take_values_from_assignments(capsys):
    code, out, _ = run(capsys, "dice", "3d6 <= skill", "skill=12", "--faces", "4,4,4")
    assert code == 0 and out.strip() == "3d6 <= skill → [4, 4, 4] <= skill:12 = true"


@pytest.mark.parametrize("expr,dice,fn", [
    ("4d6kh3", 4, lambda *f: sum(sorted(f)[1:])),
    ("3d6", 3, lambda *f: sum(f)),
    ("2d20kh1 + 5 >= 15", 2, None),
])
def test_odds_json_is_exactly_the_brute_force_distribution(capsys, expr, dice, fn):
    code, out, _ = run(capsys, "dice", expr, "--odds", "--json")
    data = json.loads(out)
    assert code == 0 and data["expression"] == expr and data["truncated"] == "0/1"
    if fn is None:
        sides = range(1, 21)
        want = product_dist([sides, sides], lambda a, b: max(a, b) + 5 >= 15)
    else:
        want = product_dist([range(1, 7)] * dice, fn)
    got = {row["value"]: Fraction(row["exact"]) for row in data["distribution"]}
    assert got == want
    for row in data["distribution"]:
        assert row["probability"] == pytest.approx(float(Fraction(row["exact"])))
    if all(isinstance(v, bool) for v in want):  # yes/no: the chance of true, no mean (issue 15)
        assert data["mean"] is None and Fraction(data["stats"]["p_true_exact"]) == want.get(True, 0)
    else:
        assert Fraction(data["mean_exact"]) == sum(v * p for v, p in want.items())
        mean = sum(v * p for v, p in want.items())
        assert Fraction(data["stats"]["variance_exact"]) == sum((v - mean) ** 2 * p for v, p in want.items())


def test_odds_table_has_value_fraction_percent_at_least_at_most_and_bar(capsys):
    code, out, _ = run(capsys, "dice", "2d6", "--odds")
    lines = out.splitlines()
    assert code == 0
    assert lines[0].startswith("2d6    mean 7")
    assert lines[1].split() == ["value", "exact", "%", "at", "least", "at", "most"]
    assert lines[7].split() == ["7", "1/6", "16.67", "58.33", "58.33", "#" * 40]


def test_odds_table_reports_truncation_in_one_short_sentence(capsys):
    """Issue 35: what explosions cut off is one sentence with a small number; the exact
    fraction when it is short. Oracle: three sixes in a row, (1/6)^3."""
    code, out, _ = run(capsys, "dice", "d6!", "--odds", "--explode-depth", "2")
    cut = Fraction(1, 6) ** 3
    assert code == 0
    assert out.splitlines()[1].startswith(f"cut off past explode depth 2: {cut} (~5e-03), all on ")


def test_a_long_cut_off_fraction_is_a_small_number_in_the_table_and_whole_with_exact(capsys):
    """Issue 35: `10d10!cs>=8` cuts 1 - (1 - 10^-11)^10 (a die that shows eleven 10s in a
    row goes deeper than 10 explosions): a 110-digit fraction, shown as ~1e-10, but whole
    with --exact and in JSON."""
    cut = 1 - (1 - Fraction(1, 10) ** 11) ** 10
    code, out, _ = run(capsys, "dice", "10d10!cs>=8", "--odds")
    assert code == 0 and out.splitlines()[1].startswith("cut off past explode depth 10: ~1e-10, all on 11 or more")
    assert str(cut.numerator) not in out
    code, out, _ = run(capsys, "dice", "10d10!cs>=8", "--odds", "--exact")
    assert code == 0 and f"truncated {cut}" in out
    code, out, _ = run(capsys, "dice", "10d10!cs>=8", "--odds", "--json")
    assert Fraction(json.loads(out)["truncated"]) == cut


def test_the_human_table_of_an_exploding_pool_fits_in_100_columns_with_short_numbers(capsys):
    """Issue 35's acceptance: the table of `10d10!cs>=8` fits in 100 columns and has no
    number longer than 20 characters."""
    code, out, _ = run(capsys, "dice", "10d10!cs>=8", "--odds")
    assert code == 0
    assert max(len(line) for line in out.splitlines()) <= 100
    numbers = re.findall(r"[0-9][0-9./e+-]*", out)
    assert numbers and max(len(n) for n in numbers) <= 20, max(numbers, key=len)


def _ways(total: int, n: int, sides: int = 6) -> int:
    """Ways n dice of ``sides`` faces sum to ``total``: the closed form by inclusion-exclusion."""
    return sum((-1) ** k * math.comb(n, k) * math.comb(total - sides * k - 1, n - 1)
               for k in range(n + 1) if total - sides * k - 1 >= n - 1)


def test_tails_below_the_threshold_are_one_rest_row_with_their_total(capsys):
    """Issue 35: rows below 0.005 % at either end of the table are folded into one row, with
    their total; `--exact` shows every row. Oracle: 8d6 counted by inclusion-exclusion; 8, 9
    and 10 (and 46, 47, 48) are each under 0.005 %, 11 is not."""
    p = {t: Fraction(_ways(t, 8), 6 ** 8) for t in range(8, 49)}
    assert sum(p.values()) == 1
    tiny = [t for t in p if p[t] < Fraction(5, 100_000)]
    assert tiny == [8, 9, 10, 46, 47, 48]
    code, out, _ = run(capsys, "dice", "8d6", "--odds")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 2 + (41 - 6 + 2)
    rest_low = f"~{float((p[8] + p[9] + p[10]) * 100):.1e}"  # under 0.005 %: ~2.7e-03
    assert lines[2].split()[:4] == ["8..10", "rest", rest_low, "100.00"]
    assert lines[3].split()[0] == "11" and lines[-2].split()[0] == "45"
    assert lines[-1].split()[:5] == ["46..48", "rest", rest_low, rest_low, "100.00"]
    assert "(3 values under 0.005% each)" in lines[-1]
    code, out, _ = run(capsys, "dice", "8d6", "--odds", "--exact")
    assert len(out.splitlines()) == 2 + 41 and "rest" not in out


@pytest.mark.parametrize("argv,code,needle", [
    (["dice", "3d6kk3"], 1, "unknown modifier 'kk' at column 4"),
    (["dice", "1/0"], 1, "division by zero"),
    (["dice", "3d6", "--faces", "1,2"], 1, "only 2 faces given"),
    (["dice", "3d6", "--seed", "junk"], 2, "invalid seed 'junk'"),
    (["dice", "3d6", "--faces", "1.5,#"], 2, "invalid faces"),
    (["dice", "3d6", "--faces", "a,b,c"], 1, "face 'a' (number 1 given) cannot come up on a d6"),  # a word: a label?
    (["dice", "3d6", "--explode-depth", "-1"], 2, "invalid depth"),
    (["dice", "x+1", "x=abc"], 2, "not a whole number"),
    (["dice", "x+1", "=3"], 2, "expected name=value"),
    (["dice", "3d6", "--faces", "1,2,3", "--seed", "1"], 2, "not both"),
    (["dice", "3d6", "--odds", "--seed", "1"], 2, "for rolling"),
    (["dice"], 2, "give a dice expression"),
    (["nonsense"], 2, "invalid choice"),
    ([], 2, "usage"),
    (["dice", "100d100kh50", "--odds"], 1, "too big to work out exactly"),
])
def test_bad_input_exits_1_and_usage_errors_exit_2(capsys, argv, code, needle):
    got, out, err = run(capsys, *argv)
    assert got == code
    assert needle in err
    assert "Traceback" not in err and out == ""


@pytest.mark.parametrize("value", ["١٢", "１２", "1_2", "12٢"])
def test_numbers_on_the_command_line_are_ascii_digits_as_in_the_dice_language(capsys, value):
    """Issue 19: `skill=١٢`, `1_2` and full-width digits were read by int() although the
    dice language refuses them; one rule (rulesengine.numerals) now serves both."""
    got, out, err = run(capsys, "dice", "3d6 <= skill", f"skill={value}", "--seed", "1")
    assert (got, out) == (2, "") and "ASCII 0-9" in err
    got, _, err = run(capsys, "dice", "3d6", "--seed", value)
    assert got == 2 and "ASCII digits 0-9" in err
    got, _, err = run(capsys, "dice", "3d6", "--faces", f"1,2,{value}")
    assert got == 2 and "ASCII digits 0-9" in err
    got, _, err = run(capsys, "roll", "gurps-4e", "success_roll", f"skill={value}", "--seed", "1")
    assert got == 1 and "not a whole number" in err and "ASCII 0-9" in err


def test_a_ruleset_input_in_ascii_digits_still_rolls(capsys):
    got, out, _ = run(capsys, "roll", "gurps-4e", "success_roll", "skill= 12", "--seed", "1")
    assert got == 0 and "skill=12" in out


@pytest.mark.parametrize("argv, trace", [
    (["dice", "-1d6", "--faces", "4"], "-1d6 → -[4] = -4"),
    (["dice", "--faces", "4", "-1d6+1"], "-1d6+1 → -[4] + 1 = -3"),
    (["dice", "-x", "x=2"], "-x → -x:2 = -2"),
    (["dice", "4dF", "--faces", "-1,0,1,1"], "4dF → [-1, 0, 1, 1] = 1"),
    (["dice", "--", "-1d6", "--faces", "4"], None),
])
def test_an_expression_may_start_with_a_minus(capsys, argv, trace):
    """Issue 19: `rulesengine dice -1d6` was read as an unknown option. After `--` every word
    is an argument, as in any command (so `--faces` there is a name=value mistake)."""
    got, out, err = run(capsys, *argv)
    if trace is None:
        assert got == 2 and "expected name=value, got '--faces'" in err
    else:
        assert (got, out.strip(), err) == (0, trace, "")


def test_dice_help_still_works(capsys):
    got, out, _ = run(capsys, "dice", "-h")
    assert got == 0 and "usage: rulesengine dice" in out


def test_error_shows_a_caret_and_a_hint(capsys):
    _, _, err = run(capsys, "dice", "3d6kk3")
    assert err.splitlines() == [
        "rulesengine: error[E103]: unknown modifier 'kk' at column 4",
        "  3d6kk3",
        "     ^^",
        "hint: did you mean 'kh'?",
    ]


def test_the_installed_command_runs_in_a_fresh_process():
    env = dict(os.environ, PYTHONIOENCODING="ascii")  # a console that cannot print "→"
    proc = subprocess.run([sys.executable, "-m", "rulesengine", "dice", "2d6", "--faces", "1,2"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0
    assert proc.stdout.strip() == "2d6 ? [1, 2] = 3"


def test_name_value_words_may_follow_the_options(capsys):
    """`dice "1d20 + b" --odds b=0..2` and `roll ... --seed 1 skill=12` read the trailing
    inputs as if written before the options (argparse alone stops at the first option)."""
    code, out, _ = run(capsys, "dice", "1d20 + b", "--odds", "b=0..2")
    assert code == 0 and [line.split()[0] for line in out.splitlines()] == ["b=0", "b=1", "b=2"]
    code, out, _ = run(capsys, "roll", "gurps-4e", "success_roll", "--seed", "1", "skill=12")
    assert code == 0 and "skill=12" in out
    code, _, err = run(capsys, "dice", "1d20", "--odds", "--bogus")
    assert code == 2 and "unrecognized arguments: --bogus" in err
