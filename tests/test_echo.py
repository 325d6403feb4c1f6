"""What the engine echoes back is bounded and cannot drive a terminal (issue 19, items 13, 14).

Every quoted value, path and source line is cut to ``MAX_ECHO_CHARS``, a message and a hint as
a whole to ``MAX_MESSAGE_CHARS``; every
control character (ESC, BEL, DEL, C1, bidirectional overrides) in anything the command line
prints is written as ``\\uXXXX``, which JSON reads back as the same character.
"""

from __future__ import annotations

import json
import re

from hypothesis import given
from hypothesis import strategies as st

from rulesengine.cli import main
from rulesengine.echo import clip, printable, window
from rulesengine.errors import Diagnostic, Location, RulesEngineError
from rulesengine.limits import MAX_ECHO_CHARS, MAX_MESSAGE_CHARS
from rulesengine.validate import validate_file

RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
BIG = "9" * 120_000
HOSTILE = "\x1b]0;pwned\x07\x1b[2J\x9b31m\u202e"

RULESET = """\
ruleset: esc
name: "Esc \\e]0;pwned\\a"
version: "1"
source: {title: "x\\e[2J"}
checks:
  c:
    description: "clears \\e[2J the screen"
    roll: 1d6
    result: roll
    outcomes:
      - {name: hit, success: true, when: result >= 4}
      - {name: miss, success: false}
"""


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


# ---- the helpers -----------------------------------------------------------------------------


@given(st.text())
def test_printable_text_has_no_character_a_terminal_acts_on(text):
    shown = printable(text)
    assert not RAW_CONTROL.search(shown)
    assert printable(shown) == shown  # nothing left to escape


@given(st.text(alphabet=st.sampled_from("\x00\x07\t\n\x0b\r\x1b \x7e\x7f\x80\x9f\xa0\u200e\u2028\u202e") | st.characters()))
def test_printable_escapes_exactly_what_the_character_class_names(text):
    """The plain-ASCII shortcut (a test in C before the search) gives what the search alone gives."""
    expected = "".join(f"\\u{ord(c):04x}" if RAW_CONTROL.match(c) or c in "\u200e\u200f\u2028\u2029" else c
                       for c in text)
    assert printable(text) == expected


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=400))
def test_printable_is_a_json_escape_so_json_output_keeps_its_strings(text):
    encoded = json.dumps({"name": text}, ensure_ascii=False)
    assert json.loads(printable(encoded)) == {"name": text}


def _marker_rest(after: str) -> tuple[int | None, str]:
    m = re.match(r"([\d,]+) characters cut\]… ", after)
    return (int(m.group(1).replace(",", "")), after[m.end():]) if m else (None, "")


@given(st.text(max_size=2000), st.integers(min_value=40, max_value=500))
def test_clip_keeps_short_text_and_cuts_long_text_to_the_width(text, width):
    cut = clip(text, width)
    if len(text) <= width:
        assert cut == text
    else:
        assert len(cut) <= width and "characters cut" in cut
        # some split of ``cut`` is: a start of ``text``, the marker naming how many
        # characters were cut, an end of ``text`` (the text may itself contain a marker)
        splits = [(cut[:i], n, t) for i in range(len(cut)) if cut.startswith(" …[", i)
                   for n, t in [_marker_rest(cut[i + 3:])] if n is not None]
        assert any(h and text.startswith(h) and text.endswith(t) and len(text) - len(h) - len(t) == n
                   for h, n, t in splits)


@given(st.text(alphabet="ab\t\x1b", min_size=1, max_size=3000), st.data())
def test_a_windowed_source_line_keeps_the_caret_under_the_same_character(line, data):
    column = data.draw(st.integers(min_value=1, max_value=len(line)))
    shown, new_column, length = window(line, column, 3, width=50)
    assert len(shown) <= 2 + 6 * 50 and length >= 1
    assert shown[new_column - 1:].startswith(printable(line[column - 1]))


# ---- item 13: echo is bounded ----------------------------------------------------------------


def test_an_error_message_and_its_hint_are_cut_to_max_message_chars():
    error = RulesEngineError("bad value '" + BIG + "'", hint="try " + BIG)
    assert len(error.message) <= MAX_MESSAGE_CHARS and len(error.hint) <= MAX_MESSAGE_CHARS
    assert error.message.startswith("bad value '999") and error.message.endswith("999'")
    assert len(Diagnostic("E1", BIG).message) <= MAX_MESSAGE_CHARS


def test_a_refusal_that_says_its_sizes_is_read_whole():
    """An outside author's refusal lost its middle, the part that said what was too big:
    "choosing 2 dice of each of 83,538 throws of 'dice' …[61 characters cut]… max_states
    (2,000,000) leaves after the rolls before it". An engine's message of a few hundred
    characters is kept whole; only what is longer is cut."""
    message = ("'(ring)d{ring} + (skill)d{skill}' is too big to work out exactly: choosing 2 dice of each of "
               "83,538 throws of 'dice' before 'ring_more' is rolled tries 1,503,684 ways, more than max_states "
               "(2,000,000) leaves after the rolls before it")
    assert MAX_ECHO_CHARS < len(message) <= MAX_MESSAGE_CHARS
    assert RulesEngineError(message).message == message


def test_a_source_line_is_cut_around_the_caret():
    loc = Location("f.yaml", 1, 100_000, source_line="x" * 99_999 + "!" + "y" * 800_000)
    text, caret = loc.caret().split("\n")
    assert len(text) <= MAX_ECHO_CHARS + 2
    assert text[len(caret) - 1] == "!"


def test_a_path_is_cut_in_the_position_prefix():
    assert len(Location("/" + "d" * 5000 + ".yaml", 1, 1).prefix()) <= MAX_ECHO_CHARS + 10


def test_a_120_kb_argument_never_comes_back_whole(capsys):
    cases = [
        ["dice", BIG],
        ["dice", "1d6", "x=" + BIG],
        ["dice", "1d6", "--faces", BIG + "a"],
        ["dice", "1d6", "--seed", BIG + "a"],
        ["dice", "1d6", BIG],
        ["roll", BIG, "x"],
        ["roll", "rps", BIG],
        ["roll", "rps", "skill_check", "skill=" + BIG],
        ["roll", "rps", "skill_check", BIG + "=1"],
        ["odds", "rps", "skill_check", "skill=1.." + BIG],
        ["show", "rps", BIG],
        ["validate", BIG + ".yaml"],
    ]
    for argv in cases:
        code, out, err = run(capsys, *argv)
        assert code in (1, 2), argv
        assert len(out) + len(err) < 3 * MAX_ECHO_CHARS + 600, (argv[:2], len(err))


def test_a_900_kb_yaml_line_is_cut_in_validate_output(tmp_path, capsys):
    path = tmp_path / "long.yaml"
    path.write_text("a: " + "x" * 900_000 + "\n")
    code, out, _ = run(capsys, "validate", path)
    assert code == 1 and len(out) < 20 * MAX_ECHO_CHARS  # six diagnostics, each quoting line 1
    assert max(len(line) for line in out.splitlines()) <= len(str(path)) + MAX_ECHO_CHARS + 60
    report = validate_file(str(path))
    assert all(len(d.render()) < 4 * MAX_ECHO_CHARS for d in report.diagnostics)


# ---- item 14: no control character reaches the terminal --------------------------------------


def test_control_characters_in_arguments_are_escaped_in_errors(capsys):
    for argv in (["dice", "d6" + HOSTILE], ["roll", "rps" + HOSTILE, "x"], ["roll", "rps", "x" + HOSTILE],
                 ["roll", "rps", "skill_check", "skill=" + HOSTILE], ["dice", "x", HOSTILE + "=1"],
                 ["dice", "1d6", "--seed", HOSTILE], ["validate", HOSTILE]):
        code, out, err = run(capsys, *argv)
        assert code in (1, 2)
        assert not RAW_CONTROL.search(out + err), (argv, err)
        assert "\\u001b" in err or "\\x1b" in err, (argv, err)


def test_control_characters_from_a_ruleset_are_escaped_in_every_human_output(tmp_path, capsys):
    path = tmp_path / "esc.yaml"
    path.write_text(RULESET)
    for argv in (["show", path], ["show", path, "c"], ["roll", path, "c", "--seed", "1"], ["odds", path, "c"],
                 ["export", path], ["roll", path, "c", "--json", "--seed", "1"]):
        code, out, err = run(capsys, *argv)
        assert code == 0, (argv, err)
        assert not RAW_CONTROL.search(out + err), argv
    code, out, _ = run(capsys, "export", path)
    assert json.loads(out)["name"] == "Esc \x1b]0;pwned\x07"  # JSON keeps the exact text


def test_a_trace_of_an_expression_with_a_control_character_in_a_label_is_escaped(capsys):
    code, out, err = run(capsys, "dice", "1d6 [fire\x07\x1b]", "--seed", "1")
    assert code == 0 and "fire\\u0007\\u001b" in out
    assert not RAW_CONTROL.search(out + err)


def test_a_trace_an_api_caller_gets_is_printable():
    from rulesengine import dice

    trace = dice.roll("1d6 [fire\x07]", seed=1).trace
    assert "fire\\u0007" in trace and not RAW_CONTROL.search(trace)
