"""Tests for rulesengine.rules.document: the safe, position-keeping YAML loader.

Ruleset files are untrusted, so most of these tests feed hostile or broken input and
check that the loader answers with a precise LoadError (right code, right line and
column) quickly, and never with a traceback, a hang or a side effect.
"""

from __future__ import annotations

import dataclasses
import math

import pytest

from fuzz_support import case_time_limit
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesengine.rules import document as source
from rulesengine.errors import LoadError
from rulesengine.limits import DEFAULT_LIMITS
from rulesengine.rules.document import Document, load_file, load_text, to_pointer

LOADERS = [pytest.param(yaml.SafeLoader, id="pure")]
if getattr(yaml, "CSafeLoader", None) is not None:
    LOADERS.insert(0, pytest.param(yaml.CSafeLoader, id="libyaml"))


@pytest.fixture(params=LOADERS)
def loader(request, monkeypatch):
    """Run a test against both parsers: their events and marks must agree."""
    monkeypatch.setattr(source, "YAML_LOADER", request.param)
    return request.param


def load_error(text, **kwargs) -> LoadError:
    with pytest.raises(LoadError) as info:
        load_text(text, "rules.yaml", **kwargs)
    return info.value


def where(err_or_loc):
    """(line, column) of a LoadError or Location, 1-based."""
    loc = getattr(err_or_loc, "location", err_or_loc)
    return loc.line, loc.column


RULESET = """\
# A small ruleset
name: Test System
version: 2
checks:
  skill_check:
    roll: 1d20 + @bonus
    dc: 15
    quoted: 'it''s 2d6 @x'
    escaped: "a\\tb @c"
  save:
    inputs:
      - name: bonus
        default: 0
      - {name: "adv", default: false}
"""


# --- positions ----------------------------------------------------------------------


def test_positions_of_nested_keys_and_values_are_exact(loader):
    """Errors from later layers point at a JSON pointer; it must map to the exact cell."""
    doc = load_text(RULESET, "rules.yaml")
    assert where(doc.location("/name")) == (2, 7)
    assert where(doc.location("/name", key=True)) == (2, 1)
    assert where(doc.location("/checks/skill_check", key=True)) == (5, 3)
    assert where(doc.location("/checks/skill_check/roll")) == (6, 11)
    assert where(doc.location("/checks/skill_check/roll", key=True)) == (6, 5)
    assert where(doc.location("/checks/skill_check/dc")) == (7, 9)
    loc = doc.location("/checks/skill_check/roll")
    assert loc.length == len("1d20 + @bonus")
    assert loc.source_line == "    roll: 1d20 + @bonus"
    assert loc.path == "rules.yaml"
    assert loc.pointer == "/checks/skill_check/roll"


def test_positions_of_sequence_items_block_and_flow(loader):
    """Sequence items are addressed by index, in block and in flow style."""
    doc = load_text(RULESET, "rules.yaml")
    assert where(doc.location("/checks/save/inputs/0")) == (12, 9)
    assert where(doc.location("/checks/save/inputs/0/name")) == (12, 15)
    assert where(doc.location("/checks/save/inputs/0/default", key=True)) == (13, 9)
    flow = doc.location("/checks/save/inputs/1")
    assert where(flow) == (14, 9)
    assert flow.length == len('{name: "adv", default: false}')
    assert where(doc.location("/checks/save/inputs/1/name")) == (14, 16)
    assert where(doc.location("/checks/save/inputs/1/default", key=True)) == (14, 23)
    # A sequence item has no key: key=True gives the item itself.
    assert where(doc.location("/checks/save/inputs/1", key=True)) == (14, 9)


def test_missing_pointer_falls_back_to_nearest_ancestor(loader):
    """A missing required property is reported at the key of the object that lacks it."""
    doc = load_text(RULESET, "rules.yaml")
    loc = doc.location("/checks/skill_check/difficulty")
    assert where(loc) == (5, 3)
    assert loc.pointer == "/checks/skill_check/difficulty"
    assert where(doc.location("/checks/skill_check/difficulty/x", key=True)) == (5, 3)
    assert where(doc.location("/nope")) == (2, 1)  # root: its first line
    assert where(doc.location("not a pointer")) == (2, 1)


def test_pointer_tokens_are_escaped_per_rfc6901(loader):
    """Keys containing '/' and '~' must round-trip through pointers."""
    doc = load_text("a/b:\n  c~d: 1\n")
    assert doc.data == {"a/b": {"c~d": 1}}
    assert to_pointer(["a/b", "c~d"]) == "/a~1b/c~0d"
    assert where(doc.location("/a~1b/c~0d")) == (2, 8)
    assert where(doc.location("/a~1b/c~0d", key=True)) == (2, 3)
    assert to_pointer(["inputs", 0, "name"]) == "/inputs/0/name"


def test_non_ascii_text_columns_count_characters(loader):
    """Columns count characters, not UTF-8 bytes, like every editor does."""
    doc = load_text("nom: épée\nkey: x\n".encode())
    assert where(doc.location("/key")) == (2, 6)
    assert doc.data["nom"] == "épée"


def test_bom_is_accepted_and_not_counted(loader):
    """Windows editors add a BOM; it must not shift columns on line 1."""
    doc = load_text(b"\xef\xbb\xbfname: x\n")
    assert doc.data == {"name": "x"}
    assert where(doc.location("/name")) == (1, 7)
    assert not doc.text.startswith("\ufeff")


def test_crlf_line_endings_keep_positions(loader):
    """Files saved on Windows use CRLF; lines must still count one per line."""
    doc = load_text(b"a: 1\r\nb:\r\n  c: 'x y'\r\n")
    assert where(doc.location("/b/c")) == (3, 6)
    assert doc.location("/b/c").source_line == "  c: 'x y'"
    assert where(doc.scalar_column("/b/c", 2)) == (3, 9)


def test_nodes_under_alias_report_the_alias_position(loader):
    """An aliased block has no positions of its own: report where it was pulled in."""
    text = "base: &b\n  dc: 10\n  roll: 1d20\nother: *b\n"
    doc = load_text(text)
    assert where(doc.location("/other")) == (4, 8)
    assert doc.location("/other").length == 2
    assert where(doc.location("/other/dc")) == (4, 8)
    assert where(doc.location("/other/dc", key=True)) == (4, 8)
    assert where(doc.location("/base/dc")) == (2, 7)


# --- scalar_column ------------------------------------------------------------------


def column_of(doc: Document, pointer: str, needle: str):
    value = doc.data
    for token in pointer.split("/")[1:]:
        value = value[int(token)] if isinstance(value, list) else value[token]
    return where(doc.scalar_column(pointer, value.index(needle)))


def test_scalar_column_plain_scalar(loader):
    """A dice syntax error inside a plain value points at the bad character."""
    doc = load_text(RULESET)
    assert column_of(doc, "/checks/skill_check/roll", "@") == (6, 11 + 7)
    assert where(doc.scalar_column("/checks/skill_check/roll", 0)) == (6, 11)


def test_scalar_column_single_quoted_scalar(loader):
    """Single quotes add one column, and '' stands for one quote character."""
    doc = load_text(RULESET)
    # 'it''s 2d6 @x' starts at column 13; the value "it's 2d6 @x" has '@' at offset 9,
    # which is after the doubled quote, so one more column in the file.
    assert column_of(doc, "/checks/skill_check/quoted", "2") == (8, 13 + 1 + 6)
    assert column_of(doc, "/checks/skill_check/quoted", "@") == (8, 13 + 1 + 10)


def test_scalar_column_double_quoted_scalar(loader):
    """Double quotes add one column and a backslash escape takes two file columns."""
    doc = load_text(RULESET)
    assert doc.data["checks"]["skill_check"]["escaped"] == "a\tb @c"
    assert column_of(doc, "/checks/skill_check/escaped", "a") == (9, 15)
    # a(15) \t(16-17) b(18) space(19) @(20)
    assert column_of(doc, "/checks/skill_check/escaped", "@") == (9, 20)
    doc = load_text('x: "\\u00e9t\\x41 @"\n')
    assert doc.data["x"] == "étA @"
    # \u00e9 is 6 columns (5-10), t(11), \x41 (12-15), space(16), @(17)
    assert where(doc.scalar_column("/x", 4)) == (1, 17)


def test_scalar_column_block_and_multiline_scalars(loader):
    """Block scalars and folded plain scalars map to the right line and column."""
    text = (
        "lit: |\n"
        "  1d20\n"
        "  + @b\n"
        "fold: >-\n"
        "  2d6\n"
        "  + @c\n"
        "plain: 3d8\n"
        "  + @d\n"
    )
    doc = load_text(text)
    assert doc.data == {"lit": "1d20\n+ @b\n", "fold": "2d6 + @c", "plain": "3d8 + @d"}
    assert column_of(doc, "/lit", "@") == (3, 5)
    assert column_of(doc, "/fold", "@") == (6, 5)
    assert column_of(doc, "/plain", "@") == (8, 5)


def test_scalar_column_with_anchor_or_tag_skips_properties(loader):
    """`&name` / `!!str` before a value must not shift the mapped column."""
    doc = load_text("a: &r 1d20 @x\nb: !!str '2d6 @y'\n")
    assert column_of(doc, "/a", "@") == (1, 12)
    assert column_of(doc, "/b", "@") == (2, 15)
    assert where(doc.location("/a")) == (1, 4)  # the node itself starts at its anchor


def test_scalar_column_past_the_end_points_after_last_character(loader):
    """'unexpected end of expression' should point just after the text."""
    doc = load_text("a: 1d20 +\nb: '2d6 +'\nc: |\n  3d8 +\nd: ''\n")
    assert where(doc.scalar_column("/a", 99)) == (1, 10)
    assert where(doc.scalar_column("/b", 5)) == (2, 10)  # on the closing quote
    assert where(doc.scalar_column("/c", 5)) == (4, 8)
    assert where(doc.scalar_column("/d", 0)) == (5, 5)


def test_scalar_column_falls_back_for_non_scalars(loader):
    """An alias or container has no characters to map: report the node itself."""
    doc = load_text("a: &x '1d4 @'\nb: *x\nc: [1]\n")
    assert where(doc.scalar_column("/b", 3)) == (2, 4)
    assert where(doc.scalar_column("/c", 3)) == (3, 4)
    assert doc.scalar_column("/a", 4, length=9).length == 2  # clamped to the line


# --- data ---------------------------------------------------------------------------


def test_ruleset_loads_to_plain_data(loader):
    """A normal ruleset gives plain dict/list/str/int/float/bool/None data."""
    doc = load_text(RULESET, "rules.yaml")
    assert doc.path == "rules.yaml"
    assert doc.data == {
        "name": "Test System",
        "version": 2,
        "checks": {
            "skill_check": {"roll": "1d20 + @bonus", "dc": 15, "quoted": "it's 2d6 @x",
                            "escaped": "a\tb @c"},
            "save": {"inputs": [{"name": "bonus", "default": 0},
                                {"name": "adv", "default": False}]},
        },
    }
    assert type(doc.data) is dict and type(doc.data["checks"]["save"]["inputs"]) is list


def test_scalar_typing_matches_yaml11_safe_loader(loader):
    """Scalars are typed exactly like yaml.safe_load (YAML 1.1) would type them."""
    text = """\
ints: [0, -12, +7, 0x1F, 0b101, 017, 1_000, '3', "4", !!int "5", 1:30]
floats: [1.5, -2.0e+3, .5, .inf, -.Inf, 1_0.5, !!float 3]
bools: [true, False, yes, NO, on, Off, !!bool "true"]
nulls: [~, null, Null, !!null ""]
empty:
strs: [y, n, 1d20+3, '0x1F', !!str 12, "<<", 2d6 >= 7]
"""
    doc = load_text(text)
    assert doc.data == yaml.safe_load(text)
    # safe_load crashes on a lone '=' (the YAML 1.1 "value" type); we keep the text.
    assert load_text("a: =\n").data == {"a": "="}
    assert doc.data["ints"][-1] == 90
    assert [type(v) for v in doc.data["bools"]] == [bool] * 7
    nan = load_text("x: .nan\n").data["x"]
    assert math.isnan(nan)


def test_timestamps_stay_strings(loader):
    """No datetime objects in ruleset data: dates are kept as the text written."""
    doc = load_text("released: 2024-01-01\nat: 2001-12-14t21:59:43.10-05:00\n")
    assert doc.data == {"released": "2024-01-01", "at": "2001-12-14t21:59:43.10-05:00"}


def test_integer_keys_are_kept_as_integers(loader):
    """Tables such as `1: miss` are legitimate data; keys stay ints."""
    doc = load_text("table:\n  1: miss\n  2: hit\n  0x10: crit\n")
    assert doc.data == {"table": {1: "miss", 2: "hit", 16: "crit"}}
    assert where(doc.location("/table/2", key=True)) == (3, 3)


def test_aliases_expand_to_the_same_object(loader):
    """Homebrewers reuse blocks with anchors; aliases share, not copy, the object."""
    doc = load_text("base: &b {dc: 10, tags: [a, b]}\nx: *b\ny: [*b, &s hi, *s]\n")
    assert doc.data["x"] == {"dc": 10, "tags": ["a", "b"]}
    assert doc.data["x"] is doc.data["base"]
    assert doc.data["y"][0] is doc.data["base"]
    assert doc.data["y"][1:] == ["hi", "hi"]


def test_odd_resolver_matches_are_kept_as_text(loader):
    """PyYAML resolves '._' as a float but cannot convert it; we keep the text."""
    assert load_text("a: ._\nb: 0b_\n").data == {"a": "._", "b": "0b_"}


def test_huge_integer_literal_is_refused_quickly(loader):
    """Python refuses >4300-digit int strings and base 60 is quadratic: refuse early."""
    err = load_error("a: " + "1:" * 100_000 + "1\n")
    assert err.code == source.E_YAML_SYNTAX
    err = load_error("a: " + "9" * 5000 + "\n")
    assert err.code == source.E_YAML_SYNTAX and "too long" in err.message


# --- keys ---------------------------------------------------------------------------


def test_duplicate_key_is_reported_at_the_second_key(loader):
    """YAML silently keeps the last duplicate; a ruleset author wants to be told."""
    err = load_error("checks:\n  roll: 1d20\n  dc: 5\n  roll: 2d6\n")
    assert err.code == source.E_DUPLICATE_KEY
    assert where(err) == (4, 3)
    assert "'roll'" in err.message and "line 2" in err.message
    assert err.location.pointer == "/checks/roll"
    assert err.location.length == 4
    assert err.hint


def test_duplicate_key_int_and_string_spelling(loader):
    """`1:` and `"1":` are the same key once the data is JSON-validated."""
    err = load_error('t:\n  1: a\n  "1": b\n')
    assert err.code == source.E_DUPLICATE_KEY
    assert where(err) == (3, 3)


@pytest.mark.parametrize("text, position", [
    ("on: 1\n", (1, 1)),
    ("a:\n  no: x\n", (2, 3)),
    ("~: 1\n", (1, 1)),
    ("1.5: x\n", (1, 1)),
    ("? [a, b]\n: x\n", (1, 3)),
    ("? {a: 1}\n: x\n", (1, 3)),
    ("a: &l [1]\n*l : 2\n", (2, 1)),
])
def test_keys_must_be_strings_or_integers(loader, text, position):
    """Bool/null/float/complex keys cannot become JSON keys: refuse them with a hint."""
    err = load_error(text)
    assert err.code == source.E_BAD_KEY
    assert where(err) == position
    assert err.hint


def test_merge_keys_are_refused(loader):
    """`<<:` merge keys are not supported (choice documented in the module)."""
    err = load_error("base: &b {dc: 1}\nx:\n  <<: *b\n  roll: 1d6\n")
    assert err.code == source.E_TAG
    assert where(err) == (3, 3)
    assert "merge" in err.message
    # A quoted '<<' is an ordinary string key.
    assert load_text("'<<': 1\n").data == {"<<": 1}


# --- aliases and size limits ----------------------------------------------------------

BILLION_LAUGHS = """\
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
"""


def test_billion_laughs_fails_fast_with_alias_limit(loader):
    """Nested aliases expand exponentially; the expanded size is counted, not built."""
    assert len(BILLION_LAUGHS) < 400
    with case_time_limit("billion laughs"):
        err = load_error(BILLION_LAUGHS)
    assert err.code == source.E_ALIAS
    assert "max_yaml_nodes" in err.message
    assert err.location.line == 6  # f: 9 * 66430 nodes > 100_000


def test_too_many_aliases(loader):
    """Even cheap aliases are capped (max_yaml_aliases)."""
    text = "a: &a x\nb: [" + ", ".join(["*a"] * 101) + "]\n"
    err = load_error(text)
    assert err.code == source.E_ALIAS
    assert "max_yaml_aliases" in err.message
    assert where(err) == (2, 5 + 4 * 100)
    assert load_text("a: &a x\nb: [" + ", ".join(["*a"] * 100) + "]\n").data["b"][99] == "x"


def test_limits_are_taken_from_the_limits_argument(loader):
    """Callers pass their own Limits; the loader must honour them."""
    tight = dataclasses.replace(DEFAULT_LIMITS, max_yaml_nodes=5, max_yaml_depth=2)
    assert load_error("a: [1, 2, 3, 4, 5]\n", limits=tight).code == source.E_ALIAS
    assert load_error("a: {b: {c: 1}}\n", limits=tight).code == source.E_TOO_DEEP
    assert load_text("a: {b: 1}\n", limits=tight).data == {"a": {"b": 1}}


@pytest.mark.parametrize("text, position, word", [
    ("a: *nope\n", (1, 4), "unknown anchor"),
    ("a: &x [1, *x]\n", (1, 11), "contains it"),
    ("a: &x 1\nb: &x 2\n", (2, 4), "defined twice"),
])
def test_bad_aliases_are_refused(loader, text, position, word):
    """Unknown, self-referencing (infinite) and redefined anchors are errors."""
    err = load_error(text)
    assert err.code == source.E_ALIAS
    assert where(err) == position
    assert word in err.message


def test_alias_cannot_smuggle_extra_depth(loader):
    """Aliasing a deep block inside another deep block would exceed the depth limit."""
    deep = "{a: " * 40 + "1" + "}" * 40
    text = f"x: &d {deep}\ny: {'[' * 30}*d{']' * 30}\n"
    err = load_error(text)
    assert err.code == source.E_TOO_DEEP
    assert err.location.line == 2


@pytest.mark.parametrize("text", [
    "a: " + "[" * 20_000 + "]" * 20_000 + "\n",
    "a: " + "{a: " * 20_000 + "1" + "}" * 20_000 + "\n",
    "".join("  " * i + "a:\n" for i in range(500)),
    "a:\n" + "".join("  " * i + "- \n" for i in range(1, 500)),
], ids=["flow-seq", "flow-map", "block-map", "block-seq"])
def test_deep_nesting_fails_with_depth_limit(loader, text):
    """20,000 nested brackets must not raise RecursionError or hang."""
    with case_time_limit(text[:40]):
        err = load_error(text)
    assert err.code == source.E_TOO_DEEP
    assert "max_yaml_depth" in err.message


def test_depth_limit_is_exact(loader):
    """max_yaml_depth levels are fine, one more is not; the error is at that node."""
    ok = "a: " + "[" * 63 + "]" * 63 + "\n"  # root mapping + 63 lists = 64 levels
    assert isinstance(load_text(ok).data["a"], list)
    err = load_error("a: " + "[" * 64 + "]" * 64 + "\n")
    assert where(err) == (1, 4 + 63)


def test_file_too_large_is_refused_before_reading(tmp_path):
    """A 10 MB file is refused from its size alone, fast, without parsing it."""
    big = tmp_path / "big.yaml"
    big.write_bytes(b"a: " + b"x" * (10 * 1024 * 1024) + b"\n")
    with pytest.raises(LoadError) as info:
        load_file(big)
    assert info.value.code == source.E_FILE_TOO_LARGE
    assert "max_file_bytes" in info.value.message
    assert info.value.location.path == str(big)


def test_file_too_large_through_load_text():
    """The same limit applies to text given directly (bytes or str)."""
    size = DEFAULT_LIMITS.max_file_bytes
    assert load_error(b"#" * (size + 1)).code == source.E_FILE_TOO_LARGE
    assert load_error("#" * (size + 1)).code == source.E_FILE_TOO_LARGE
    assert load_error("é" * (size // 2 + 1)).code == source.E_FILE_TOO_LARGE


def test_load_file_reads_a_ruleset(tmp_path):
    """load_file decodes the file and names it in positions."""
    path = tmp_path / "rules.yaml"
    path.write_text(RULESET, encoding="utf-8")
    doc = load_file(path)
    assert doc.path == str(path)
    assert doc.location("/name").path == str(path)
    assert doc.data["checks"]["skill_check"]["dc"] == 15


@pytest.mark.parametrize("kind", ["missing", "directory"])
def test_unreadable_file_is_a_load_error(tmp_path, kind):
    """A missing path or a directory is a LoadError (E312), not an OSError."""
    path = tmp_path / "nope.yaml" if kind == "missing" else tmp_path
    with pytest.raises(LoadError) as info:
        load_file(path)
    assert info.value.code == source.E_UNREADABLE
    assert info.value.hint


# --- encoding and characters --------------------------------------------------------


def test_bad_utf8_is_reported_at_the_first_bad_byte():
    """Latin-1 files are common; say where the first non-UTF-8 byte is."""
    err = load_error(b"name: ok\ndesc: caf" + b"\xe9 au lait\n")
    assert err.code == source.E_ENCODING
    assert where(err) == (2, 10)
    assert "0xE9" in err.message
    assert err.location.source_line == "desc: caf\ufffd au lait"
    assert "^" in err.render()


def test_random_binary_bytes_are_an_encoding_error():
    """Opening a binary file by mistake gives E307, not a YAML traceback."""
    blob = bytes(range(256)) * 4
    assert load_error(blob).code == source.E_ENCODING
    assert load_error(b"\x89PNG\r\n\x1a\n\x00\x00").code == source.E_ENCODING


def test_utf16_file_is_an_encoding_error():
    """A UTF-16 file (Windows Notepad's 'Unicode') gets a specific message."""
    err = load_error("a: 1\n".encode("utf-16"))
    assert err.code == source.E_ENCODING
    assert "UTF-16" in err.message


@pytest.mark.parametrize("char", ["\x00", "\x1b", "\x7f", "\x0c", "\ud800"])
def test_forbidden_control_characters_are_reported(loader, char):
    """NUL, ESC, DEL, form feed and lone surrogates are not allowed in YAML."""
    err = load_error(f"a: 1\nb: x{char}y\n")
    assert err.code == source.E_ENCODING
    assert where(err) == (2, 5)
    assert f"U+{ord(char):04X}" in err.message


# --- tags ---------------------------------------------------------------------------


def test_python_object_tag_is_refused_and_never_executed(loader, tmp_path):
    """The classic PyYAML exploit must be rejected without running anything."""
    target = tmp_path / "pwned"
    text = f'checks: !!python/object/apply:os.system ["touch {target}"]\n'
    err = load_error(text)
    assert err.code == source.E_TAG
    assert where(err) == (1, 9)
    assert "python/object/apply:os.system" in err.message
    assert err.location.length == len("!!python/object/apply:os.system")
    assert not target.exists()
    err = load_error(f'x: !!python/object/apply:os.system\n  args: ["touch {target}"]\n')
    assert err.code == source.E_TAG
    assert not target.exists()


@pytest.mark.parametrize("text", [
    "a: !!python/name:os.system\n",
    "a: !!python/object:collections.OrderedDict {}\n",
    "a: !!python/tuple [1, 2]\n",
    "a: !custom 1\n",
    "a: !custom {x: 1}\n",
    "a: !!binary aGVsbG8=\n",
    "a: !!set {x, y}\n",
    "a: !!omap [a: 1]\n",
    "a: !!timestamp 2024-01-01\n",
    "a: !!map [1]\n",
    "a: !!seq {x: 1}\n",
    "a: !!str [1]\n",
    "%TAG !e! tag:example.com,2000:\n---\na: !e!thing 1\n",
])
def test_non_standard_tags_are_refused(loader, text):
    """Only !!str/int/float/bool/null/map/seq are data; everything else is refused."""
    err = load_error(text)
    assert err.code == source.E_TAG
    assert err.hint
    assert err.location.column == 4


def test_explicit_standard_tags_are_honoured(loader):
    """Standard tags are harmless and sometimes useful (!!str 12)."""
    doc = load_text('a: !!str 12\nb: !!int "7"\nc: !!map {x: !!seq [1]}\nd: !!float "1"\n')
    assert doc.data == {"a": "12", "b": 7, "c": {"x": [1]}, "d": 1.0}


@pytest.mark.parametrize("text", ['a: !!int "abc"\n', "a: !!bool maybe\n", "a: !!null x\n",
                                  "a: !!float x\n"])
def test_explicit_tag_with_invalid_value(loader, text):
    """`!!int abc` cannot be honoured: E305, not a ValueError traceback."""
    err = load_error(text)
    assert err.code == source.E_TAG
    assert "not a valid" in err.message


# --- tabs and syntax ----------------------------------------------------------------


@pytest.mark.parametrize("text, position", [
    ("a:\n\tb: 1\n", (2, 1)),
    ("a: b\n\tc: d\n", (2, 1)),
    ("a:\n  - 1\n\t- 2\n", (3, 1)),
    ("a:\n  b: 1\n  \tc: 2\n", (3, 3)),
])
def test_tab_indentation_is_reported_at_the_tab(loader, text, position):
    """Tabs are the most common YAML mistake; say so plainly, at the tab."""
    err = load_error(text)
    assert err.code == source.E_TAB
    assert where(err) == position
    assert "indent with spaces" in err.message


def test_tabs_inside_values_and_flow_collections_are_fine(loader):
    """Tabs are only a problem in block indentation; elsewhere they are data."""
    doc = load_text("c: |\n  x\ty\nd: \"\\t\"\n")
    assert doc.data == {"c": "x\ty\n", "d": "\t"}
    # libyaml also accepts a tab after ':', inside a plain value and indenting a flow
    # collection, as the YAML spec does; the pure-Python parser does not (we then
    # report E308).
    for text, data in [("a:\t1\n", {"a": 1}), ("b: [1,\n\t2]\n", {"b": [1, 2]}),
                       ("e: x\ty\n", {"e": "x\ty"})]:
        if loader is yaml.SafeLoader:
            assert load_error(text).code == source.E_TAB
        else:
            assert load_text(text).data == data


@pytest.mark.parametrize("text, position", [
    ("a: b: c\n", (1, 5)),
    ("a: [1, 2\nb: 3\n", (2, 2)),
    ("a: 'unclosed\n", (1, 4)),  # at the opening quote, not the end of the file
    ("a: @x\n", (1, 4)),
    ("a:\n  b: 1\n c: 2\n", (3, 2)),
])
def test_syntax_errors_have_one_based_positions(loader, text, position):
    """Syntax errors come with a 1-based line/column, a one-line message and a hint."""
    err = load_error(text)
    assert err.code == source.E_YAML_SYNTAX
    assert where(err) == position
    assert "\n" not in err.message
    assert err.hint
    assert err.location.path == "rules.yaml"
    rendered = err.render()
    assert rendered.startswith(f"rules.yaml:{position[0]}:{position[1]}: error[E301]")


def test_syntax_error_render_shows_caret(loader):
    """The offending line is kept so Diagnostic.render() can draw a caret under it."""
    err = load_error("name: x\nroll: 1d20: bad\n")
    assert err.location.source_line == "roll: 1d20: bad"
    lines = err.render().splitlines()
    assert lines[1] == "roll: 1d20: bad"
    assert lines[2] == " " * (err.location.column - 1) + "^"


# --- document shape -----------------------------------------------------------------


@pytest.mark.parametrize("text, word", [
    ("- a\n- b\n", "list"),
    ("just a string\n", "string"),
    ("42\n", "integer"),
    ("", "empty"),
    ("# only a comment\n", "empty"),
    ("---\n", "empty"),
    ("---\n...\n", "empty"),
])
def test_top_level_must_be_a_mapping(loader, text, word):
    """A ruleset is a mapping; lists, scalars and empty files get E309."""
    err = load_error(text)
    assert err.code == source.E_NOT_A_MAPPING
    assert word in err.message
    assert err.location.line == 1


def test_several_documents_are_refused(loader):
    """A second '---' usually means two files were pasted together."""
    err = load_error("a: 1\n---\nb: 2\n")
    assert err.code == source.E_MULTIPLE_DOCUMENTS
    assert where(err) == (2, 1)
    assert load_text("---\na: 1\n...\n").data == {"a": 1}


# --- robustness ---------------------------------------------------------------------


@settings(deadline=2000, max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.text())
def test_arbitrary_text_raises_only_load_error(text):
    """Whatever a user pastes, the loader answers with a Document or a LoadError."""
    try:
        doc = load_text(text)
    except LoadError as err:
        assert err.code.startswith("E3")
        assert err.location.line is None or err.location.line >= 1
    else:
        assert isinstance(doc.data, dict)


@settings(deadline=2000, max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary())
def test_arbitrary_bytes_raise_only_load_error(data):
    """Same for raw bytes, including invalid UTF-8."""
    try:
        load_text(data)
    except LoadError as err:
        assert err.code.startswith("E3")


YAML_ALPHABET = st.sampled_from(list("ab1 :-[]{},'\"&*!|>#?\n\t~.") + ["  ", "\n  ", "&a ", "*a"])


@settings(deadline=2000, max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(YAML_ALPHABET, max_size=40).map("".join))
def test_yaml_like_text_raises_only_load_error(text):
    """Text built from YAML punctuation reaches far more parser paths than random text."""
    default = source.YAML_LOADER
    for parser in [p.values[0] for p in LOADERS]:
        source.YAML_LOADER = parser
        try:
            doc = load_text(text)
        except LoadError as err:
            assert err.code.startswith("E3")
            assert err.location.line is None or err.location.line >= 1
        else:
            # Every recorded position must be a real place in the text.
            for pointer in doc.pointers():
                loc = doc.location(pointer)
                assert 1 <= loc.line and 1 <= loc.column
                doc.scalar_column(pointer, 3)
        finally:
            source.YAML_LOADER = default
