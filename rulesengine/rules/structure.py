"""A quick structural check: is a document *certainly* valid under a JSON Schema?

Loading a ruleset confirms that it fits ``schemas/ruleset.schema.json``. Asking
``jsonschema`` costs its import (with ``referencing``, ``rpds`` and ``attrs``: about 55 ms,
a quarter of ``rulesengine roll``'s start-up) just to learn that a valid file is valid.
This module answers that common case without it. It interprets the same schema, read as
data at run time (no generated code, nothing evaluated), with the few keywords of JSON
Schema draft 2020-12 that the schema uses, each deciding exactly as ``jsonschema`` 4's
``Draft202012Validator`` does (see jsonschema/_keywords.py and _types.py).

:func:`verdict` answers in three values:

* ``True``: certainly valid: jsonschema would report no error;
* ``False``: certainly invalid: jsonschema would report at least one error;
* ``None``: not sure.

Callers act on ``True`` only (:func:`certainly_valid`): :func:`rulesengine.rules.schema.
validate_document` runs jsonschema for anything else, so every diagnostic (code,
position, hint, order) still comes from jsonschema.

How it stays sound:

* Each keyword decides exactly, in both directions. ``False`` cannot be merely cautious:
  ``oneOf`` turns "every other branch is invalid" into "valid", so a branch called invalid
  that jsonschema finds valid would make a wrong ``True``.
* Anything it cannot decide exactly makes the *whole* answer "not sure", wherever it is
  met: a keyword not implemented here (even beside one that fails: a keyword can change
  another's meaning, as ``patternProperties`` does ``additionalProperties`` or ``$id``
  does ``$ref``), a ``$ref`` that is not a local JSON pointer, a ``$ref`` cycle that does not
  reach further into the value (jsonschema would recurse for ever), nesting deeper than
  ``MAX_DEPTH``, a Python value JSON has no type for, a keyword value of the wrong shape.
* It never stops early: every keyword of every subschema it enters, every branch of a
  ``oneOf``, every property, every item is looked at, as jsonschema's ``iter_errors``
  does. So it meets everything jsonschema would meet, and a ``True`` can never hide a
  part of the schema that would make jsonschema fail or crash. (For a valid document —
  the case that matters — nothing could be skipped anyway; the cost is only on invalid
  ones, which then go to jsonschema.)

Implemented: exactly the keywords of ``schemas/ruleset.schema.json`` (``IMPLEMENTED``;
``tests/test_structure.py`` checks that the schema uses nothing else, and compares the
answers with jsonschema's on the shipped rulesets, the broken corpus, mutants, and random
schemas). Annotations (``ANNOTATIONS``) and ``$defs`` are skipped; ``$schema`` (draft
2020-12 only) and ``$id`` are accepted at the root, where they do not change how a local
``$ref`` (``#/$defs/...``) resolves.

Its own module, apart from :mod:`rulesengine.rules.schema`, because it is one concept — deciding
validity, with no diagnostics — and must never import jsonschema; being pure functions of
``(instance, schema)``, it is tested against jsonschema on any schema, not only ours.
"""

from __future__ import annotations

import functools
import re
from typing import Any
from collections.abc import Callable

__all__ = ["ANNOTATIONS", "IMPLEMENTED", "ROOT_ONLY", "certainly_valid", "verdict"]

DIALECT = "https://json-schema.org/draft/2020-12/schema"

ANNOTATIONS = frozenset({"title", "description", "examples", "default", "deprecated", "readOnly",
                         "writeOnly", "$comment"})
"""Keywords that never make a value invalid: skipped."""

ROOT_ONLY = frozenset({"$schema", "$id"})
"""Accepted at the root of the schema only (anywhere else they may change what ``$ref``
means): ``$schema`` must name draft 2020-12, ``$id`` is the base of ``#...`` references."""

MAX_DEPTH = 100
"""Nested keyword applications before giving up ("not sure", and jsonschema decides): a
shipped ruleset needs at most 11, and any valid one about as many, since the schema admits
no deeper nesting. It keeps the walk (three Python frames a level) well inside Python's
recursion limit."""

MAX_REF_CHAIN = 32
"""``$ref``\\ s followed in a row without reaching further into the value. A ``$ref`` seen
again in such a chain is a cycle: "not sure"."""

# A value of any other Python type is not JSON data: "not sure".
_JSON_TYPES = (dict, list, str, int, float, type(None))  # bool is an int


class _NotSure(Exception):
    """Raised wherever the walk cannot decide exactly: the whole answer is None."""


def certainly_valid(instance: Any, schema: Any) -> bool:
    """True only if jsonschema (draft 2020-12) would find no error in ``instance``."""
    return verdict(instance, schema) is True


def verdict(instance: Any, schema: Any) -> bool | None:
    """True (certainly valid), False (certainly invalid) or None (not sure)."""
    if isinstance(schema, dict):
        if schema.get("$schema", DIALECT) != DIALECT or not isinstance(schema.get("$id", ""), str):
            return None
    try:
        return _check(instance, schema, schema, (), 0)
    except (_NotSure, RecursionError):
        return None


# -- the walk ---------------------------------------------------------------------------------
# Each keyword function takes (instance, keyword value, the subschema, root, ref chain,
# depth), returns whether the instance passes that keyword, deciding as jsonschema's keyword
# of the same name does, or raises _NotSure. A keyword that applies to one JSON type passes
# values of the others. Nothing returns early: see the module docstring.


def _check(instance: Any, schema: Any, root: dict, chain: tuple, depth: int) -> bool:
    if schema is True or schema is False:
        return schema
    if not isinstance(schema, dict) or not isinstance(instance, _JSON_TYPES) or depth > MAX_DEPTH:
        raise _NotSure
    if not _KNOWN.issuperset(schema) and (schema is not root or not _KNOWN_AT_ROOT.issuperset(schema)):
        raise _NotSure  # a keyword not implemented here
    valid = True
    for keyword, value in schema.items():
        rule = _KEYWORDS.get(keyword)
        if rule is not None and not rule(instance, value, schema, root, chain, depth + 1):
            valid = False
    return valid


def _every(results) -> bool:
    """True if all are: every result is computed (a list, not a short-circuiting all())."""
    return all(list(results))


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_integer(value: Any) -> bool:
    # Draft 6 and later: a float with no fractional part (1.0) is an integer; a bool never is.
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


_TYPES: dict[str, Callable[[Any], bool]] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "integer": _is_integer,
    "number": _is_number,
}


def _type(instance, value, schema, root, chain, depth):
    if isinstance(value, str):
        value = [value]
    elif not isinstance(value, list):
        raise _NotSure
    fits = False
    for name in value:
        test = _TYPES.get(name) if isinstance(name, str) else None
        if test is None:
            raise _NotSure  # jsonschema raises UnknownType
        fits = fits or test(instance)
    return fits


def _enum(instance, value, schema, root, chain, depth):
    # jsonschema._utils.equal: a string equals only an equal string; True and False equal
    # only themselves (not 1 and 0); lists and mappings compare item by item (not done here).
    if not isinstance(value, list):
        raise _NotSure
    if isinstance(instance, str):
        return instance in value
    found = False
    for option in value:
        if isinstance(option, str):
            continue
        if isinstance(option, (list, dict)) or isinstance(instance, (list, dict)):
            raise _NotSure
        if option is instance or (not isinstance(option, bool) and not isinstance(instance, bool)
                                  and option == instance):
            found = True
    return found


def _pattern(instance, value, schema, root, chain, depth):
    regex = _regex(value)
    return not isinstance(instance, str) or regex.search(instance) is not None


@functools.lru_cache(maxsize=256)
def _compile(pattern: str) -> re.Pattern | None:
    try:
        return re.compile(pattern)  # jsonschema: re.search(pattern, instance)
    except re.error:
        return None


def _regex(pattern: Any) -> re.Pattern:
    regex = _compile(pattern) if isinstance(pattern, str) else None
    if regex is None:
        raise _NotSure
    return regex


def _bound(value: Any) -> Any:
    if not _is_number(value):
        raise _NotSure
    return value


def _min_length(instance, value, schema, root, chain, depth):
    return not isinstance(instance, str) or len(instance) >= _bound(value)


def _max_length(instance, value, schema, root, chain, depth):
    return not isinstance(instance, str) or len(instance) <= _bound(value)


def _min_items(instance, value, schema, root, chain, depth):
    return not isinstance(instance, list) or len(instance) >= _bound(value)


def _min_properties(instance, value, schema, root, chain, depth):
    return not isinstance(instance, dict) or len(instance) >= _bound(value)


def _minimum(instance, value, schema, root, chain, depth):
    return not _is_number(instance) or not instance < _bound(value)


def _maximum(instance, value, schema, root, chain, depth):
    return not _is_number(instance) or not instance > _bound(value)


def _required(instance, value, schema, root, chain, depth):
    if not isinstance(value, list):
        raise _NotSure
    return not isinstance(instance, dict) or all(name in instance for name in value)


def _properties(instance, value, schema, root, chain, depth):
    if not isinstance(value, dict):
        raise _NotSure
    if not isinstance(instance, dict):
        return True
    return _every(_check(instance[name], sub, root, (), depth) for name, sub in value.items() if name in instance)


def _additional_properties(instance, value, schema, root, chain, depth):
    declared = schema.get("properties", {})
    if not isinstance(declared, dict):
        raise _NotSure
    if not isinstance(instance, dict):
        return True
    extras = [key for key in instance if key not in declared]
    if isinstance(value, dict):
        return _every(_check(instance[key], value, root, (), depth) for key in extras)
    if isinstance(value, bool):
        return value or not extras
    raise _NotSure


def _property_names(instance, value, schema, root, chain, depth):
    if not isinstance(instance, dict):
        return True
    return _every(_check(key, value, root, (), depth) for key in instance)


def _items(instance, value, schema, root, chain, depth):
    # No prefixItems here: a subschema with it is "not sure".
    if not isinstance(instance, list):
        return True
    return _every(_check(item, value, root, (), depth) for item in instance)


def _one_of(instance, value, schema, root, chain, depth):
    if not isinstance(value, list):
        raise _NotSure
    return sum(1 for branch in value if _check(instance, branch, root, chain, depth)) == 1


def _any_of(instance, value, schema, root, chain, depth):
    if not isinstance(value, list):
        raise _NotSure
    return any(_check(instance, branch, root, chain, depth) for branch in value)


def _ref(instance, value, schema, root, chain, depth):
    if value in chain or len(chain) >= MAX_REF_CHAIN:
        raise _NotSure  # a cycle that never reaches further into the value
    return _check(instance, _resolve(root, value), root, chain + (value,), depth)


def _resolve(root: dict, ref: Any) -> Any:
    """The subschema a local ``$ref`` (``#`` or ``#/json/pointer``) points at. Anything else
    (another document, an anchor, percent-escapes, a pointer into a subschema with its own
    ``$id``) is "not sure"."""
    if not isinstance(ref, str) or "%" in ref or not (ref == "#" or ref.startswith("#/")):
        raise _NotSure
    node: Any = root
    for token in ref[2:].split("/") if ref != "#" else ():
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node) \
                and (token == "0" or not token.startswith("0")):
            node = node[int(token)]
        else:
            raise _NotSure
        if isinstance(node, dict) and "$id" in node:
            raise _NotSure
    return node


_KEYWORDS: dict[str, Callable[..., bool]] = {
    "$ref": _ref,
    "type": _type,
    "enum": _enum,
    "pattern": _pattern,
    "minLength": _min_length,
    "maxLength": _max_length,
    "minItems": _min_items,
    "minProperties": _min_properties,
    "minimum": _minimum,
    "maximum": _maximum,
    "required": _required,
    "properties": _properties,
    "additionalProperties": _additional_properties,
    "propertyNames": _property_names,
    "items": _items,
    "oneOf": _one_of,
    "anyOf": _any_of,
}

IMPLEMENTED = frozenset(_KEYWORDS)
"""The keywords decided here; any other (but ``ANNOTATIONS``, ``$defs`` and the root's
``$schema`` and ``$id``) makes the answer "not sure"."""

_KNOWN = IMPLEMENTED | ANNOTATIONS | {"$defs"}
_KNOWN_AT_ROOT = _KNOWN | ROOT_ONLY
