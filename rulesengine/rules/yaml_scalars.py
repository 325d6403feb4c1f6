"""How a YAML scalar is typed: the standard tags a ruleset may use and PyYAML's YAML 1.1
``SafeLoader`` conversions (``yes`` is a bool, ``0x1F`` an int, ``~`` null), redone here so
that nothing is ever constructed from a tag, with a length guard on integer literals.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Callable

import yaml

from ..limits import MAX_YAML_INT_CHARS

TAG_PREFIX = "tag:yaml.org,2002:"
TAG_STR = TAG_PREFIX + "str"
TAG_INT = TAG_PREFIX + "int"
TAG_FLOAT = TAG_PREFIX + "float"
TAG_BOOL = TAG_PREFIX + "bool"
TAG_NULL = TAG_PREFIX + "null"
TAG_MAP = TAG_PREFIX + "map"
TAG_SEQ = TAG_PREFIX + "seq"
TAG_MERGE = TAG_PREFIX + "merge"
SCALAR_TAGS = frozenset({TAG_STR, TAG_INT, TAG_FLOAT, TAG_BOOL, TAG_NULL})
ALLOWED_TAGS_TEXT = "!!str, !!int, !!float, !!bool, !!null, !!map and !!seq"

# One resolver instance: for scalars, resolve() only reads the class-level regex table.
RESOLVER = yaml.resolver.Resolver()

BOOL_VALUES = {"yes": True, "no": False, "true": True, "false": False, "on": True, "off": False}
NULL_VALUES = frozenset({"", "~", "null", "Null", "NULL"})


def short_tag(tag: str) -> str:
    """``tag:yaml.org,2002:int`` -> ``!!int``, the way users write it."""
    return "!!" + tag[len(TAG_PREFIX):] if tag.startswith(TAG_PREFIX) else tag


def yaml_int(value: str) -> int:
    """SafeConstructor.construct_yaml_int, with a length guard (see MAX_YAML_INT_CHARS)."""
    if len(value) > MAX_YAML_INT_CHARS:
        raise OverflowError
    value = value.replace("_", "")
    sign, value = _sign(value)
    if value == "0":
        return 0
    if value.startswith("0b"):
        return sign * int(value[2:], 2)
    if value.startswith("0x"):
        return sign * int(value[2:], 16)
    if value[0] == "0":
        return sign * int(value, 8)
    if ":" in value:
        return sign * _base_60(value, int)
    return sign * int(value)


def yaml_float(value: str) -> float:
    """SafeConstructor.construct_yaml_float."""
    value = value.replace("_", "").lower()
    sign, value = _sign(value)
    if value == ".inf":
        return sign * float("inf")
    if value == ".nan":
        return float("nan")
    if ":" in value:
        return sign * _base_60(value, float)
    return sign * float(value)


def _sign(value: str) -> tuple[int, str]:
    """A literal's sign (-1 or 1) and its digits without the sign, as both constructors read it."""
    sign = -1 if value[0] == "-" else 1
    return sign, value[1:] if value[0] in "+-" else value


def _base_60(value: str, number: Callable[[str], Any]) -> Any:
    """YAML 1.1's sexagesimal literals (``1:30`` is 90), for ``int`` and ``float`` alike.

    The sum starts from ``number("0")`` and the place value from ``number("1")``, so an int
    literal is summed in exact integers and a float one in floats, as PyYAML does."""
    result, base = number("0"), number("1")
    for part in reversed(value.split(":")):
        result += number(part) * base
        base *= 60
    return result


def type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    return {dict: "mapping", list: "list", str: "string", int: "integer",
            float: "number"}.get(type(value), type(value).__name__)
