"""The quick structural check (rulesengine/structure.py) never contradicts jsonschema.

Loading a ruleset asks :func:`rulesengine.rules.structure.verdict` first and imports jsonschema
only when the answer is not "certainly valid". The answer is True, False or None (not
sure). The rules these tests pin:

* soundness: whenever it says True, jsonschema finds no error; whenever it says False,
  jsonschema finds one (False must be exact too: ``oneOf`` counts on it);
* usefulness: every shipped ruleset is certainly valid, and the schema uses only keywords
  the check implements;
* cheapness: loading a ruleset and rolling a check does not import jsonschema, and the
  diagnostics of an invalid file are the same as without the quick check.

Every keyword test asks both sides (:func:`agree`), so each expected answer is also
checked against jsonschema itself.
"""

from __future__ import annotations

import datetime
import json
import random
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzz_support import fuzz_settings, mutate_ruleset, shipped_texts
from rulesengine.rules import schema as schema_layer
from rulesengine.errors import LoadError
from rulesengine.rules.document import load_file, load_text
from rulesengine.rules.structure import ANNOTATIONS, IMPLEMENTED, ROOT_ONLY, certainly_valid, verdict

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schemas" / "ruleset.schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
TEXTS = shipped_texts()
CORPUS = sorted((ROOT / "tests" / "corpus" / "broken").glob("*.yaml"))


def jsonschema_valid(instance, schema) -> bool:
    return not list(jsonschema.Draft202012Validator(schema).iter_errors(instance))


def agree(instance, schema):
    """The quick verdict, after checking that a definite one is jsonschema's answer."""
    answer = verdict(instance, schema)
    if answer is not None:
        assert answer == jsonschema_valid(instance, schema), (instance, schema, answer)
    return answer


# -- type -----------------------------------------------------------------------------------


def test_integer_refuses_booleans_although_python_bools_are_ints():
    assert agree(True, {"type": "integer"}) is False
    assert agree(False, {"type": "integer"}) is False
    assert agree(7, {"type": "integer"}) is True


def test_a_float_with_no_fraction_is_an_integer_in_draft_2020_12():
    assert agree(1.0, {"type": "integer"}) is True
    assert agree(-3.0, {"type": "integer"}) is True
    assert agree(1.5, {"type": "integer"}) is False
    assert agree(float("inf"), {"type": "integer"}) is False
    assert agree(float("nan"), {"type": "integer"}) is False


def test_number_refuses_booleans_and_accepts_ints_and_floats():
    assert agree(True, {"type": "number"}) is False
    assert agree(2, {"type": "number"}) is True
    assert agree(2.5, {"type": "number"}) is True
    assert agree("2", {"type": "number"}) is False


def test_boolean_accepts_only_true_and_false():
    assert agree(True, {"type": "boolean"}) is True
    assert agree(1, {"type": "boolean"}) is False
    assert agree(0, {"type": "boolean"}) is False
    assert agree("true", {"type": "boolean"}) is False


def test_a_list_of_types_accepts_any_of_them():
    expression = {"type": ["string", "integer", "boolean"]}
    for value in ("3d6", 3, True, 3.0):
        assert agree(value, expression) is True
    for value in (None, 3.5, [], {}):
        assert agree(value, expression) is False


def test_the_other_json_types():
    assert agree(None, {"type": "null"}) is True
    assert agree(0, {"type": "null"}) is False
    assert agree({}, {"type": "object"}) is True
    assert agree([], {"type": "object"}) is False
    assert agree([], {"type": "array"}) is True
    assert agree("", {"type": "array"}) is False


def test_an_unknown_type_name_is_not_sure():
    assert verdict(1, {"type": "whole"}) is None
    assert verdict(1, {"type": ["integer", "whole"]}) is None


def test_a_python_value_json_has_no_type_for_is_not_sure():
    for value in (datetime.date(2024, 1, 1), (1, 2), {1, 2}, b"x"):
        assert verdict(value, {"type": "string"}) is None
        assert verdict({"a": value}, {"type": "object"}) is True  # not looked at
        assert verdict({"a": value}, {"properties": {"a": {"type": "string"}}}) is None


# -- objects --------------------------------------------------------------------------------


def test_additional_properties_false_refuses_undeclared_keys():
    closed = {"type": "object", "properties": {"min": {"type": "integer"}}, "additionalProperties": False}
    assert agree({"min": 1}, closed) is True
    assert agree({}, closed) is True
    assert agree({"min": 1, "mni": 2}, closed) is False
    assert agree({1: 2}, closed) is False  # an integer key (YAML allows them) is undeclared too


def test_additional_properties_schema_checks_only_the_undeclared_keys():
    typed_map = {"properties": {"name": {"type": "string"}}, "additionalProperties": {"type": "integer"}}
    assert agree({"name": "x", "a": 1, "b": 2}, typed_map) is True
    assert agree({"name": "x", "a": "one"}, typed_map) is False
    assert agree({"name": 5}, typed_map) is False
    assert agree({"a": 1}, {"additionalProperties": True}) is True


def test_pattern_properties_is_not_implemented_so_its_subschema_is_not_sure():
    # The ruleset schema does not use it. It changes which keys are "additional", so the
    # whole subschema is not judged, even where additionalProperties alone would say no.
    schema = {"patternProperties": {"^x_": {"type": "integer"}}, "additionalProperties": False}
    assert verdict({"x_a": 1}, schema) is None
    assert verdict({"other": 1}, schema) is None
    assert jsonschema_valid({"x_a": 1}, schema) and not jsonschema_valid({"other": 1}, schema)


def test_required_keys_must_be_present():
    assert agree({"a": 1}, {"required": ["a"]}) is True
    assert agree({"b": 1}, {"required": ["a"]}) is False
    assert agree([], {"required": ["a"]}) is True  # applies to objects only


def test_property_names_checks_every_key_and_its_pattern_ignores_integer_keys():
    names = {"propertyNames": {"pattern": "^[a-z][a-z0-9_]*$"}}
    assert agree({"skill": 1, "dx2": 2}, names) is True
    assert agree({"Skill": 1}, names) is False
    assert agree({7: 1}, names) is True  # jsonschema's pattern skips non-strings


def test_min_properties():
    assert agree({"a": 1}, {"minProperties": 1}) is True
    assert agree({}, {"minProperties": 1}) is False


def test_properties_validate_only_the_keys_present():
    schema = {"properties": {"a": {"type": "integer"}, "b": {"type": "string"}}}
    assert agree({"a": 1}, schema) is True
    assert agree({"b": 1}, schema) is False
    assert agree("not an object", schema) is True


# -- strings, numbers, arrays, enum ---------------------------------------------------------


def test_pattern_searches_anywhere_unless_anchored():
    assert agree("xx3d6yy", {"pattern": "3d6"}) is True  # re.search, not re.match
    assert agree("xx3d6yy", {"pattern": "^3d6"}) is False
    assert agree("skill\n", {"pattern": "^[a-z]+$"}) is True  # Python's $ matches before a final newline
    assert agree(12, {"pattern": "^[a-z]+$"}) is True  # applies to strings only


def test_an_invalid_regular_expression_is_not_sure():
    assert verdict("a", {"pattern": "("}) is None


def test_max_length_counts_characters():
    assert agree("abcd", {"maxLength": 3}) is False
    assert agree("ééé", {"maxLength": 3}) is True
    assert agree(12345, {"maxLength": 3}) is True


def test_min_length_counts_characters():
    assert agree("", {"minLength": 1}) is False
    assert agree("é", {"minLength": 1}) is True
    assert agree(0, {"minLength": 1}) is True


def test_minimum_and_maximum_are_inclusive_and_ignore_booleans():
    pick = {"minimum": 1, "maximum": 10}
    assert agree(1, pick) is True
    assert agree(10, pick) is True
    assert agree(10.5, pick) is False
    assert agree(0, pick) is False
    assert agree(True, {"minimum": 2}) is True  # a boolean is not a number
    assert agree("0", pick) is True


def test_items_and_min_items():
    ints = {"type": "array", "items": {"type": "integer"}, "minItems": 1}
    assert agree([1, 2], ints) is True
    assert agree([], ints) is False
    assert agree([1, True], ints) is False
    assert agree([1], {"items": False}) is False
    assert agree([], {"items": False}) is True


def test_prefix_items_is_not_implemented_so_not_sure():
    assert verdict([1, "a"], {"prefixItems": [{"type": "integer"}], "items": {"type": "string"}}) is None


def test_enum_compares_as_json_does_true_is_not_one():
    assert agree("reroll", {"enum": ["stand", "reroll"]}) is True
    assert agree("rerol", {"enum": ["stand", "reroll"]}) is False
    assert agree(1, {"enum": ["stand", "reroll"]}) is False
    assert agree(True, {"enum": [1]}) is False
    assert agree(1, {"enum": [True]}) is False
    assert agree(True, {"enum": [True]}) is True
    assert agree(1.0, {"enum": [1]}) is True
    assert verdict([1], {"enum": [[1]]}) is None  # lists and mappings are not compared here


# -- combining: oneOf, $ref, boolean schemas -----------------------------------------------


def test_one_of_needs_exactly_one_branch_to_fit():
    one = {"oneOf": [{"type": "string"}, {"type": "object"}]}
    assert agree("x", one) is True
    assert agree(3, one) is False


def test_one_of_with_two_fitting_branches_is_invalid():
    both = {"oneOf": [{"type": "integer"}, {"minimum": 0}]}
    assert agree(5, both) is False  # both fit
    assert agree(-5, both) is True  # only the first
    check = {"type": "object", "oneOf": [{"required": ["roll"]}, {"required": ["rolls"]}]}
    assert agree({"roll": "3d6"}, check) is True
    assert agree({"roll": "3d6", "rolls": {"a": "d6"}}, check) is False
    assert agree({}, check) is False


def test_one_of_with_a_branch_it_cannot_judge_is_not_sure():
    # The second branch might fit too (it does not here, but the check cannot know).
    assert verdict(4, {"oneOf": [{"type": "integer"}, {"const": 5}]}) is None
    # Not sure of one part is not sure of the whole, even where the rest would decide.
    assert verdict(4, {"oneOf": [{"type": "integer"}, {"type": "integer"}, {"const": 5}]}) is None
    assert verdict("x", {"oneOf": [{"type": "integer", "properties": {"a": {"const": 1}}},
                                   {"type": "string"}]}) is True  # the const is never reached
    assert verdict({"a": 1}, {"oneOf": [{"type": "integer", "properties": {"a": {"const": 1}}},
                                        {"type": "object"}]}) is None  # jsonschema reaches it


def test_a_failing_branch_is_looked_at_in_full_as_jsonschema_does():
    # jsonschema lists every error of a failing oneOf branch, so it follows this $ref cycle
    # for ever (RecursionError) although "type" has already failed: not a certain "valid".
    loop = {"$defs": {"loop": {"$ref": "#/$defs/loop"}},
            "oneOf": [{"type": "integer", "$ref": "#/$defs/loop"}, {"type": "string"}]}
    assert verdict("x", loop) is None
    with pytest.raises(RecursionError):
        list(jsonschema.Draft202012Validator(loop).iter_errors("x"))


def test_ref_follows_local_json_pointers():
    schema = {"$defs": {"name": {"type": "string", "pattern": "^[a-z]+$"}, "a/b": {"type": "integer"}},
              "properties": {"x": {"$ref": "#/$defs/name"}, "y": {"$ref": "#/$defs/a~1b"}}}
    assert agree({"x": "ok", "y": 1}, schema) is True
    assert agree({"x": "Not ok"}, schema) is False
    assert agree({"y": "1"}, schema) is False


def test_ref_recursion_through_the_value_is_followed():
    tree = {"$defs": {"node": {"type": "object", "properties": {"kids": {"type": "array",
                                                                          "items": {"$ref": "#/$defs/node"}}},
                               "additionalProperties": False}},
            "$ref": "#/$defs/node"}
    assert agree({"kids": [{"kids": []}, {}]}, tree) is True
    assert agree({"kids": [{"kids": [{"kid": 1}]}]}, tree) is False


def test_a_ref_cycle_that_never_reaches_into_the_value_is_not_sure():
    loop = {"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"oneOf": [{"$ref": "#/$defs/a"}, {"type": "string"}]}},
            "$ref": "#/$defs/a"}
    assert verdict("x", loop) is None
    assert verdict("x", {"$ref": "#"}) is None


def test_a_ref_it_cannot_resolve_is_not_sure():
    for ref in ("other.json#/x", "#/$defs/missing", "#anchor", "#/$defs/%61", "https://x.invalid/s.json"):
        assert verdict(1, {"$defs": {"a": {}}, "$ref": ref}) is None, ref


def test_a_nested_id_is_not_sure_because_it_moves_the_base_of_refs():
    schema = {"$defs": {"a": {"$id": "https://x.invalid/a.json", "type": "integer"}},
              "properties": {"x": {"$ref": "#/$defs/a"}}}
    assert verdict({"x": 1}, schema) is None
    assert verdict(1, {"properties": {"x": {"$id": "y", "type": "string"}}}) is True  # not reached
    assert verdict({"x": 1}, {"properties": {"x": {"$id": "y", "type": "string"}}}) is None


def test_the_root_may_name_draft_2020_12_and_an_id_but_no_other_dialect():
    assert agree(1, {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "https://x.invalid/s",
                     "type": "integer"}) is True
    assert verdict(1, {"$schema": "http://json-schema.org/draft-07/schema#", "type": "integer"}) is None


def test_boolean_schemas_and_annotations():
    assert agree({"a": [1]}, True) is True
    assert agree(None, False) is False
    annotated = {"type": "string", "description": "d", "examples": ["x"], "title": "t", "default": "x",
                 "$comment": "c", "deprecated": False}
    assert agree("x", annotated) is True
    assert agree(1, annotated) is False


def test_an_unimplemented_keyword_makes_its_whole_subschema_not_sure():
    # Even where an implemented keyword beside it fails: a keyword may change another's meaning.
    for keyword, value in [("const", 1), ("allOf", [{}]), ("not", {}), ("if", {}),
                           ("maxItems", 3), ("uniqueItems", True), ("format", "email"),
                           ("$anchor", "a"), ("$dynamicRef", "#a"), ("typo", 1)]:
        assert verdict("x", {"type": "integer", keyword: value}) is None, keyword
    assert verdict({"a": 1}, {"properties": {"b": {"const": 1}}}) is True  # not reached


def test_very_deep_values_are_not_sure_rather_than_a_crash():
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    assert verdict(deep, {"$defs": {"l": {"type": "array", "items": {"$ref": "#/$defs/l"}}},
                          "$ref": "#/$defs/l"}) is None


# -- any schema, any value: the definite answers are jsonschema's -----------------------------

SCALARS = (st.none() | st.booleans() | st.integers(-3, 3)
           | st.sampled_from([0.0, 1.0, -2.0, 1.5, float("inf")])
           | st.sampled_from(["", "a", "ab", "Ab", "x_1", "1", "reroll"]))
KEYS = st.sampled_from(["a", "b", "c", "A", 1])
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(KEYS, inner, max_size=3), max_leaves=10)
TYPE_NAMES = st.sampled_from(["object", "array", "string", "integer", "number", "boolean", "null"])
LEAF_SCHEMAS = st.one_of(
    st.booleans(),
    st.builds(lambda t: {"type": t}, TYPE_NAMES | st.lists(TYPE_NAMES, min_size=1, max_size=3)),
    st.builds(lambda e: {"enum": e}, st.lists(SCALARS, min_size=1, max_size=3)),
    st.builds(lambda p: {"pattern": p}, st.sampled_from(["^a", "b", "^[a-z][a-z0-9_]*$", "", "^$"])),
    st.builds(lambda k, n: {k: n}, st.sampled_from(["minLength", "maxLength", "minItems", "minProperties"]), st.integers(0, 3)),
    st.builds(lambda k, n: {k: n}, st.sampled_from(["minimum", "maximum"]), st.sampled_from([-1, 0, 1, 1.5, 2])),
    st.builds(lambda r: {"required": r}, st.lists(st.sampled_from(["a", "b"]), max_size=2, unique=True)),
    st.just({"$ref": "#/$defs/d"}),
    st.just({"const": 1}),  # not implemented: must never be judged
)


def _refers_to_itself_in_place(node) -> bool:
    """Whether the definition reaches its own ``$ref`` without going down into a part of the
    instance (the node itself and its ``oneOf`` members apply to the same value; properties,
    items and property names to smaller ones, so they end)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            if "$ref" in n:
                return True
            stack.extend(n.get("oneOf", []))
    return False


def _merge(a, b):
    return {**a, **b} if isinstance(a, dict) and isinstance(b, dict) else a


SCHEMAS = st.recursive(LEAF_SCHEMAS, lambda inner: st.one_of(
    st.builds(lambda p: {"properties": p}, st.dictionaries(st.sampled_from(["a", "b", "c"]), inner, max_size=3)),
    st.builds(lambda p, ap: {"properties": p, "additionalProperties": ap},
              st.dictionaries(st.sampled_from(["a", "b"]), inner, max_size=2), inner),
    st.builds(lambda s: {"items": s}, inner),
    st.builds(lambda s: {"propertyNames": s}, inner),
    st.builds(lambda s: {"oneOf": s}, st.lists(inner, min_size=1, max_size=3)),
    st.builds(_merge, inner, inner),
), max_leaves=8)


@fuzz_settings(400, 20_000)
@given(VALUES, SCHEMAS, SCHEMAS)
def test_on_any_schema_and_value_a_definite_answer_is_jsonschemas(instance, body, definition):
    schema = {**body, "$defs": {"d": definition}} if isinstance(body, dict) else body
    answer = verdict(instance, schema)
    if _refers_to_itself_in_place(definition):
        # jsonschema would follow it until Python's stack gives out, which depends on how
        # deep the test runner's stack already is: in a long run it once aborted the process
        # instead of raising RecursionError. Whether the value reaches the cycle, only
        # following it tells: there is no second opinion to hold the verdict to here.
        return
    try:
        expected = jsonschema_valid(instance, schema)
    except RecursionError:  # a $ref cycle that jsonschema follows for ever
        assert answer is None
        return
    assert answer in (None, expected), (instance, schema, answer)


# -- the ruleset schema, the shipped rulesets, the corpus, mutants ----------------------------


def _keywords(node, root=True):
    """Every keyword used in a schema position of the schema, with the root's apart."""
    if not isinstance(node, dict):
        return set()
    found = set(node) - (ROOT_ONLY if root else set())
    for key, value in node.items():
        if key in ("properties", "$defs"):
            for sub in value.values():
                found |= _keywords(sub, False)
        elif key in ("items", "additionalProperties", "propertyNames"):
            found |= _keywords(value, False)
        elif key == "oneOf":
            for sub in value:
                found |= _keywords(sub, False)
    return found


def test_the_ruleset_schema_uses_only_keywords_the_quick_check_implements():
    assert _keywords(SCHEMA) - ANNOTATIONS - {"$defs"} <= IMPLEMENTED
    assert "oneOf" in _keywords(SCHEMA) and "$ref" in _keywords(SCHEMA)


def test_the_quick_check_reads_the_schema_file_that_validation_uses():
    assert schema_layer.schema() == SCHEMA


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_every_shipped_ruleset_is_certainly_valid(name):
    doc = load_file(str(ROOT / "rulesets" / f"{name}.yaml"))
    assert verdict(doc.data, SCHEMA) is True
    assert list(VALIDATOR.iter_errors(doc.data)) == []


def _agrees_with_jsonschema(data, what: str) -> bool | None:
    answer = verdict(data, SCHEMA)
    errors = list(VALIDATOR.iter_errors(data))
    if answer is True:
        assert errors == [], (what, [e.message for e in errors])
    elif answer is False:
        assert errors, what
    return answer


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_on_the_broken_corpus_the_quick_check_agrees_with_jsonschema(path):
    try:
        doc = load_file(str(path))
    except LoadError:
        return  # a YAML error: never reaches the schema
    answer = _agrees_with_jsonschema(doc.data, path.name)
    if path.name.startswith("E4"):
        assert answer is False


def _mutant_data(seed: int):
    r = random.Random(seed)
    name = r.choice(sorted(TEXTS))
    text, done = mutate_ruleset(r, name, TEXTS[name])
    try:
        return load_text(text, f"{name}.yaml").data, f"{name} seed={seed} {done}"
    except LoadError:
        return None, None


DEFS = {name: {"$schema": SCHEMA["$schema"], "$id": SCHEMA["$id"], "$defs": SCHEMA["$defs"],
               "$ref": f"#/$defs/{name}"} for name in SCHEMA["$defs"]}
DEF_VALIDATORS = {name: jsonschema.Draft202012Validator(s) for name, s in DEFS.items()}


def _subtrees(data):
    yield data
    if isinstance(data, dict):
        for value in data.values():
            yield from _subtrees(value)
    elif isinstance(data, list):
        for value in data:
            yield from _subtrees(value)


@fuzz_settings(150, 10_000)
@given(st.integers(0, 2**32 - 1))
def test_on_mutants_of_the_shipped_rulesets_the_quick_check_agrees_with_jsonschema(seed):
    data, what = _mutant_data(seed)
    if data is None:
        return
    _agrees_with_jsonschema(data, what)
    # Each part of the mutant against each definition (table, let, check...): the oneOf
    # branches are judged on every shape the mutators make, valid or not.
    r = random.Random(seed)
    parts = list(_subtrees(data))
    for part in r.sample(parts, min(12, len(parts))):
        for name, schema in DEFS.items():
            answer = verdict(part, schema)
            if answer is not None:
                assert answer == DEF_VALIDATORS[name].is_valid(part), (what, name, part, answer)


def test_the_mutants_are_judged_both_ways():
    """A fixed sample: the quick check says certainly valid of some mutants and certainly
    invalid of others (so the fuzzing above tests both answers)."""
    answers = set()
    for seed in range(60):
        data, what = _mutant_data(seed)
        if data is not None:
            answers.add(_agrees_with_jsonschema(data, what))
    assert {True, False} <= answers, answers


# -- wiring: what loading imports, what validation reports ----------------------------------


def test_loading_a_ruleset_and_rolling_does_not_import_jsonschema():
    code = ("import sys, rulesengine\n"
            "rs = rulesengine.load('gurps-4e')\n"
            "rs.check('success_roll').roll({'skill': 12}, seed=1)\n"
            "from rulesengine.cli import main\n"
            "assert main(['roll', 'gurps-4e', 'success_roll', 'skill=12', '--seed', '1']) == 0\n"
            "heavy = sorted(m for m in sys.modules if m.split('.')[0] in "
            "('jsonschema', 'referencing', 'rpds', 'attrs'))\n"
            "print('HEAVY', heavy)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "HEAVY []" in proc.stdout, proc.stdout


def test_importing_the_quick_check_does_not_import_jsonschema():
    code = "import sys, rulesengine.rules.structure, rulesengine.rules.schema; print('jsonschema' in sys.modules)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.stdout.strip() == "False", proc.stderr


def _schema_diagnostics(doc, monkeypatch, quick: bool):
    with monkeypatch.context() as m:
        if not quick:
            m.setattr(schema_layer, "certainly_valid", lambda data, schema: False)
        return [d.to_dict() for d in schema_layer.validate_document(doc)]


def test_diagnostics_are_the_same_with_or_without_the_quick_check(monkeypatch):
    docs = []
    for path in CORPUS:
        try:
            docs.append(load_file(str(path)))
        except LoadError:
            pass
    for name, text in TEXTS.items():
        docs.append(load_text(text, f"{name}.yaml"))
    for seed in range(40):
        r = random.Random(seed)
        name = r.choice(sorted(TEXTS))
        text, _ = mutate_ruleset(r, name, TEXTS[name])
        try:
            docs.append(load_text(text, f"{name}.yaml"))
        except LoadError:
            pass
    assert any(_schema_diagnostics(d, monkeypatch, True) for d in docs)
    for doc in docs:
        assert _schema_diagnostics(doc, monkeypatch, True) == _schema_diagnostics(doc, monkeypatch, False)


def test_certainly_valid_is_the_verdict_true():
    assert certainly_valid(1, {"type": "integer"}) is True
    assert certainly_valid(True, {"type": "integer"}) is False
    assert certainly_valid(1, {"const": 1}) is False


def test_any_of_holds_when_one_branch_or_more_holds():
    """anyOf (used by an outcome's success: true/false or an expression, which may itself
    be a boolean): one or more branches may match."""
    branches = [{"type": "boolean"}, {"type": ["string", "boolean"]}]
    assert verdict(True, {"anyOf": branches}) is True
    assert verdict("x", {"anyOf": branches}) is True
    assert verdict(3, {"anyOf": branches}) is False
