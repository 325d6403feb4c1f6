"""The indented JSON the CLI writes (issue 33, items 5 and 7): ``present.json_text.dumps`` is
byte for byte ``json.dumps(obj, indent=2)`` (the oracle is the standard library itself), on
random documents and on the real output of commands."""

from __future__ import annotations

import contextlib
import io
import json
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesengine.cli import main
from rulesengine.present.json_text import dumps

POOLS = str(Path(__file__).resolve().parents[2] / "bench" / "pools" / "pools.yaml")

SCALARS = st.one_of(
    st.none(), st.booleans(),
    st.integers(), st.integers(min_value=-10**300, max_value=10**300),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, 1e300, -1e300, 5e-324, 1e16, 0.1, math.inf, -math.inf]),
    st.text(), st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF, blacklist_categories=("Cs",))),
    st.sampled_from(["", '"', "\\", "\n\t\x00\x1f", "é", "→", "😀", "\u2028", "a, b: c", "{}", "[\n]"]),
)
KEYS = st.one_of(st.text(max_size=8), st.sampled_from(["", "a", "é", '"', "value", "probability", "😀"]))


def documents() -> st.SearchStrategy:
    """Nested documents as the engine writes them: dicts with str keys, lists (tuples, as
    the encoder takes them), scalars; long flat containers and empty ones among them."""
    return st.recursive(
        SCALARS,
        lambda inner: st.one_of(
            st.lists(inner, max_size=12), st.dictionaries(KEYS, inner, max_size=12),
            st.lists(inner, max_size=4).map(tuple),
            st.lists(SCALARS, min_size=8, max_size=20), st.dictionaries(KEYS, SCALARS, min_size=8, max_size=12),
            st.sampled_from([[], {}, [[]], [{}], {"": []}, {"a": {}}, ()]),
        ),
        max_leaves=60,
    )


@settings(max_examples=400, deadline=None)
@given(documents(), st.booleans())
def test_indented_text_is_what_the_standard_library_writes(doc, ensure_ascii):
    assert dumps(doc, ensure_ascii=ensure_ascii) == json.dumps(doc, indent=2, ensure_ascii=ensure_ascii)


@settings(max_examples=100, deadline=None)
@given(documents(), st.booleans())
def test_a_container_met_twice_is_written_the_same_at_every_depth(doc, ensure_ascii):
    """The same object in several places (a sweep's values sharing a distribution's rows) at
    the same depth and at other depths."""
    shared = [doc, {"again": doc}, [[doc]], doc]
    assert dumps(shared, ensure_ascii=ensure_ascii) == json.dumps(shared, indent=2, ensure_ascii=ensure_ascii)


def test_keys_that_are_not_text_are_converted_as_the_standard_library_converts_them():
    doc = {7: "int", 2.5: "float", -0.0: [], True: {}, None: [1], math.inf: 0, 10**30: {"x": {1: 2}}}
    for ensure_ascii in (True, False):
        assert dumps(doc, ensure_ascii=ensure_ascii) == json.dumps(doc, indent=2, ensure_ascii=ensure_ascii)


def test_a_scalar_alone_and_subclasses_of_scalars_are_written_as_the_standard_library_writes_them():
    class Text(str):
        pass

    class Whole(int):
        pass

    class Real(float):
        pass

    for doc in ["x", 3, 2.5, None, True, math.nan, [Text("a"), Whole(3), Real(0.5)] * 4, {"k": Whole(1)}]:
        assert dumps(doc) == json.dumps(doc, indent=2)


def test_what_json_cannot_hold_is_refused_as_the_standard_library_refuses_it():
    loop: list = []
    loop.append(loop)
    with pytest.raises(ValueError):
        dumps([loop])
    with pytest.raises(TypeError):
        dumps({"a": {1, 2}})
    with pytest.raises(TypeError):
        dumps({(1, 2): "a tuple key"})


def _stdout(*argv: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(list(argv)) == 0
    return out.getvalue()


@pytest.mark.parametrize("argv, ensure_ascii", [
    (("odds", POOLS, "percentile", "skill=40..45", "--json"), True),
    (("odds", "dnd-5e-srd", "attack", "proficiency_bonus=2", "--json"), True),
    (("dice", "4d6kh3", "--odds", "--json"), True),
    (("export", "pbta"), False),
    (("list", "--json"), True),
])
def test_the_commands_write_what_the_standard_library_writes_of_their_answer(argv, ensure_ascii):
    text = _stdout(*argv)
    assert text == json.dumps(json.loads(text), indent=2, ensure_ascii=ensure_ascii) + "\n"
