"""The JSON Schema layer of validation, with every error mapped back to the YAML.

``schemas/ruleset.schema.json`` is the single source of truth of the file format. Each
jsonschema error carries the path of the offending value; :class:`~rulesengine.rules.document.
Document` turns that path into a line and column. An unknown key points at the key itself
and suggests the nearest valid name; a value failing a ``oneOf`` is explained by its most
relevant branch rather than by jsonschema's generic "not valid under any of the given
schemas".

jsonschema is imported only when a document may have errors: :mod:`rulesengine.rules.structure`
first decides, without it, whether the document is certainly valid (the common case, and
~55 ms of start-up saved); only if it is not certain do the errors come from jsonschema,
so every diagnostic is the same either way.
"""

from __future__ import annotations

import re
import functools
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..codes import E_BAD_VALUE, E_MISSING_KEY, E_SCHEMA, E_UNKNOWN_KEY
from ..errors import Diagnostic
from ..dice.parser import closest
from ..shipped import ruleset_schema_file
from .document import Document, to_pointer
from .structure import certainly_valid

if TYPE_CHECKING:  # jsonschema itself is imported only when a document may have errors
    from jsonschema.exceptions import ValidationError


def schema_path() -> Path:
    """``ruleset.schema.json``, found in a checkout and in any install (rulesengine/shipped.py)."""
    return ruleset_schema_file()


@functools.lru_cache(maxsize=1)
def schema() -> dict:
    return json.loads(schema_path().read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=1)
def _validator():
    import jsonschema

    cls = jsonschema.Draft202012Validator
    return cls(schema(), format_checker=None)


def validate_document(doc: Document) -> list[Diagnostic]:
    """Every schema error of the document, in file order, each with its position."""
    if certainly_valid(doc.data, schema()):
        return []
    out: list[Diagnostic] = []
    seen = set()
    for error in _validator().iter_errors(doc.data):
        diag = _diagnostic(doc, error)
        key = (diag.location.line, diag.location.column, diag.code, diag.message)
        if key not in seen:
            seen.add(key)
            out.append(diag)
    out.sort(key=lambda d: (d.location.line or 0, d.location.column or 0))
    return out


_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")


def _unknown_key_hint(key: str, allowed: list[str], line: str) -> str | None:
    """Why a key is unknown, for the mistakes people make: the rest of an expression cut off
    by a comma inside { } (``{when: count(roll, 6) >= 2}`` makes a key ``6) >= 2``), a key
    that belongs to another part of the file (``report:`` on a procedure), a misspelling."""
    cut = re.search(r"([a-z_][a-z0-9_]*):\s*([^,{}\"]+?),\s*$", line[:max(line.find(key), 0)]) \
        if "{" in line else None
    # A key cut from the value before it: the key is no name (`6) >= 2`), or the value before
    # reads as text (`help: the stat rolled (cool, hard...)` makes a key `hard`).
    if cut and (not set(key) <= _NAME_CHARS or re.search(r"[\s(]", cut[2].strip())):
        # The whole value: from the cut to the next `, key:` or the closing brace.
        tail = line[line.find(key):]
        end = re.search(r",\s*[a-z_][a-z0-9_]*:\s|\}\s*$", tail)
        value = f"{cut[2]}, {tail[:end.start()] if end else key}".rstrip()
        q = '"' if "'" in value else "'"
        return (f"inside {{ }} a comma ends a value, so '{key}' became a key: quote the value, "
                f"e.g. {cut[1]}: {q}{value}{q}")
    if "{" in line and not set(key) <= _NAME_CHARS:
        return ("inside { } a comma ends a value, so the text after it became a key: quote the "
                "expression, e.g. when: 'count(roll, 6) >= 2'")
    near = closest(key, allowed)
    homes = [name for name, props in _keys_by_part().items() if key in props]
    # A near spelling wins when it is very near (outcome/outcomes); else a key of another
    # part is said to be one (report: on a procedure), not matched to an unrelated key.
    import difflib  # only when there is an error to explain

    if near and (not homes or difflib.SequenceMatcher(None, key, near).ratio() >= 0.85):
        return f"did you mean '{near}'?"
    if homes:
        parts = " or ".join(("an " if h[0] in "aeiou" else "a ") + h for h in homes)
        return f"'{key}' is a key of {parts}, not of this part of the file"
    return "allowed keys: " + ", ".join(allowed) if allowed else None


_OPEN_MAPPINGS = frozenset({"let", "inputs", "rolls", "state", "tables", "checks", "procedures", "totals",
                            "helper_inputs", "member_values", "round_inputs", "set", "values"})
"""Keys whose value is a mapping of names the file chooses (a let's values, a check's inputs):
a key that falls out of one by its indentation lands in the mapping around it."""


def _dedented_hint(key: Any, mapping: Any) -> str | None:
    """``effective:`` written one level too far left after ``let:``: say where it belongs."""
    if not isinstance(mapping, dict):
        return None
    keys = list(mapping)
    if key not in keys or keys.index(key) == 0:
        return None
    before = keys[keys.index(key) - 1]
    if before in _OPEN_MAPPINGS and isinstance(mapping[before], dict):
        return f"if '{key}' is one of the '{before}' above, indent it to line up with them"
    return None


@functools.lru_cache(maxsize=1)
def _keys_by_part() -> dict[str, list[str]]:
    """Each part of the format (check, procedure, input, outcome, ...) and its keys."""
    defs = schema().get("$defs", {})
    return {name: list(d.get("properties", {})) for name, d in defs.items() if d.get("properties")}


def _diagnostic(doc: Document, error) -> Diagnostic:
    """One jsonschema error as a diagnostic: explained by the small function for what failed
    (``_EXPLAIN``, by jsonschema's validator), else in jsonschema's own words."""
    error = _most_relevant(error)
    path = list(error.absolute_path)
    if "propertyNames" in error.absolute_schema_path and error.validator in ("type", "pattern"):
        return _bad_key(doc, error, path)
    return _EXPLAIN.get(error.validator, _as_jsonschema_says)(doc, error, path)


def _bad_key(doc: Document, error, path: list) -> Diagnostic:
    """A key that fails its mapping's rule for keys: a name, or a key of its own kind."""
    if error.schema.get("description"):  # not a name: a key of its own kind (a warning's code)
        return Diagnostic(E_BAD_VALUE, f"{_describe(error.instance)} cannot be a key{_where(path)}",
                          doc.location(to_pointer(path + [error.instance]), key=True),
                          error.schema["description"])
    return _bad_name(doc, path, error.instance)


def _unknown_key(doc: Document, error, path: list) -> Diagnostic:
    """At the key itself, with why it may be unknown (see :func:`_unknown_key_hint`)."""
    allowed = list(error.schema.get("properties", {}))
    extra = [k for k in error.instance if k not in allowed] if isinstance(error.instance, dict) else []
    key = extra[0] if extra else "?"
    location = doc.location(to_pointer(path + [key]), key=True)
    hint = _dedented_hint(key, error.instance)
    near = closest(str(key), allowed) if hint else None
    if hint and near:  # `let_after:` after `rolls:` is as likely a misspelt `let` as a name dedented
        hint += f"; or did you mean '{near}'?"
    hint = hint or _unknown_key_hint(str(key), allowed, location.source_line or "")
    return Diagnostic(E_UNKNOWN_KEY, f"unknown key '{key}'{_where(path)}", location, hint)


def _missing_key(doc: Document, error, path: list) -> Diagnostic:
    """At the mapping's key, with the missing key's description as the hint."""
    missing = error.message.split("'")[1] if "'" in error.message else "?"
    prop = error.schema.get("properties", {}).get(missing, {})
    hint = _MISSING_HINTS.get(missing) if len(path) == 2 and path[0] == "checks" else None
    return Diagnostic(E_MISSING_KEY, f"missing required key '{missing}'{_where(path)}",
                      doc.location(to_pointer(path), key=bool(path)), hint or prop.get("description"))


_MISSING_HINTS = {
    "roll": "a check rolls its dice here: roll: 3d6 (or rolls: to name several); a check decided without dice "
            "(a rule that takes the average) writes roll: 0d6",
}
"""The hint for a key a check must have, where its schema's description is no help."""


def _wrong_type(doc: Document, error, path: list) -> Diagnostic:
    """What was expected and what is there; the hint names YAML's two usual surprises (a
    bare yes/no read as true/false, a value cut off by a comma inside { })."""
    pointer = to_pointer(path)
    want = error.validator_value
    want = " or ".join(want) if isinstance(want, list) else want
    hint = error.schema.get("description")
    if isinstance(error.instance, bool) and "string" in str(want):
        hint = ("YAML reads yes/no/on/off/true/false as true or false: quote the word, "
                f"e.g. '{_yaml_word(doc, pointer)}'")
    if error.instance is None:
        hint = ("nothing is written here; inside { } a comma ends an entry, so quote an "
                "expression that contains commas: key: 'max(4, x)'")
    elif want == "array" and not isinstance(error.instance, list):
        hint = _list_shape(error.schema) or hint
    return Diagnostic(E_SCHEMA, f"expected {_article(want)}, got {_describe(error.instance)}{_where(path)}",
                      doc.location(pointer), hint)


def _list_shape(schema: dict[str, Any]) -> str | None:
    """How a list is written, from the schema's first example: items that are mappings one a
    line (``tags:`` given as a mapping: ``- {name: threat, when: "..."}``), others in brackets
    (``[controlled, risky]``); None without an example."""
    examples = schema.get("examples") or [None]
    if not isinstance(examples[0], list) or not examples[0]:
        return None
    example = examples[0]
    if isinstance(example[0], dict):
        shape = f"write a list, one item a line starting with '- ', e.g. - {_flow(example[0])}"
    else:
        shape = f"write a list, e.g. [{', '.join(_flow(v) for v in example)}]"
    described = schema.get("description")
    return shape + (f" ({described})" if described else "")


def _flow(value: Any) -> str:
    """``value`` written as YAML on one line, as the docs write it: a word bare, other text
    (an expression) in double quotes."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str) and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", value):
        return json.dumps(value)
    return str(value)


def _not_an_option(doc: Document, error, path: list) -> Diagnostic:
    """A value outside an ``enum``: the nearest option, and all of them."""
    options = [str(o) for o in error.validator_value]
    near = closest(str(error.instance), options)
    hint = (f"did you mean '{near}'? " if near else "") + "allowed: " + ", ".join(options)
    items = _list_items(error.parent.schema) if error.parent is not None and isinstance(error.instance, list) else []
    if items:  # a list, where a list of other things is the key's other shape: say which
        hint = f"a list here holds only {' and '.join(items)} items; {', '.join(options)} each go alone"
    return Diagnostic(E_BAD_VALUE, f"{_describe(error.instance)} is not allowed{_where(path)}",
                      doc.location(to_pointer(path)), hint)


def _list_items(schema: dict) -> list[str]:
    """The shapes of the items of a list that ``schema`` (a choice among shapes) may also be:
    ``{higher: …}`` for each mapping with one required key."""
    lists = [branch.get("items", {}) for branch in schema.get("oneOf", ()) if branch.get("type") == "array"]
    kinds = [kind for items in lists for kind in items.get("oneOf", [items])]
    return [f"{{{kind['required'][0]}: …}}" for kind in kinds if len(kind.get("required", ())) == 1]


def _pattern_failed(doc: Document, error, path: list) -> Diagnostic:
    """Text failing a ``pattern``: a map's value with a rule of its own (allow's reason) is
    explained by that rule's description; anything else is meant to be a name."""
    if list(error.absolute_schema_path)[-2:-1] == ["additionalProperties"] and error.schema.get("description"):
        return Diagnostic(E_BAD_VALUE, f"{_describe(error.instance)} does not fit{_where(path)}",
                          doc.location(to_pointer(path)), error.schema["description"])
    dashed = "-" in error.schema.get("pattern", "") and "_" not in error.schema.get("pattern", "")
    hint = "use lower case letters, digits and - (as in my-game-2e)" if dashed else \
        "use lower case letters, digits and _ (snake_case)"  # the ruleset's id is dashed; names are not
    return Diagnostic(E_BAD_VALUE, f"{_describe(error.instance)} is not a valid name{_where(path)}",
                      doc.location(to_pointer(path)), hint)


def _bad_key_name(doc: Document, error, path: list) -> Diagnostic:
    return _bad_name(doc, path, error.instance)


def _out_of_bounds(doc: Document, error, path: list) -> Diagnostic:
    """A number, list, mapping or text too small or too large: jsonschema's words say by how much."""
    return Diagnostic(E_BAD_VALUE, f"{error.message}{_where(path)}", doc.location(to_pointer(path)),
                      error.schema.get("description"))


def _one_of(doc: Document, error, path: list) -> Diagnostic:
    """A mapping that must have exactly one of some keys (``roll`` or ``rolls``) says which it
    has; any other value that fits no branch is :func:`_fits_no_branch`."""
    keys = _required_alternatives(error.validator_value) if isinstance(error.instance, dict) else []
    if not keys:
        return _fits_no_branch(doc, error, path)
    given = [k for k in keys if k in error.instance]
    what = f"both {' and '.join(given)}" if given else "none of " + ", ".join(keys)
    return Diagnostic(E_SCHEMA, f"this takes exactly one of {', '.join(keys)}, and has {what}{_where(path)}",
                      doc.location(to_pointer(path), key=bool(path)), f"keep one of {', '.join(keys)}")


def _fits_no_branch(doc: Document, error, path: list) -> Diagnostic:
    return Diagnostic(E_SCHEMA, f"{_describe(error.instance)} does not fit here{_where(path)}",
                      doc.location(to_pointer(path)), error.schema.get("description"))


def _as_jsonschema_says(doc: Document, error, path: list) -> Diagnostic:
    return Diagnostic(E_SCHEMA, f"{error.message}{_where(path)}", doc.location(to_pointer(path)),
                      error.schema.get("description"))


_EXPLAIN = {"additionalProperties": _unknown_key, "required": _missing_key, "type": _wrong_type,
            "enum": _not_an_option, "pattern": _pattern_failed, "propertyNames": _bad_key_name,
            **dict.fromkeys(("minimum", "maximum", "minItems", "maxItems", "minProperties", "minLength"),
                            _out_of_bounds),
            "oneOf": _one_of, "anyOf": _fits_no_branch}
"""What failed (jsonschema's validator) → the small function that explains it, at its place
in the file. A validator not here is said in jsonschema's own words."""


def _bad_name(doc: Document, path: list, key: Any) -> Diagnostic:
    """A mapping key where a name is expected that is not one, at the key itself.

    YAML reads ``16:`` or ``on:`` as a number or a boolean; a name must be text, else every
    later step that treats names as text (hints, lookups, ``name=value`` inputs) would
    fail."""
    where = _where(path)
    pointer = to_pointer(path + [key])
    if not isinstance(key, str):
        numbered = isinstance(key, int) and not isinstance(key, bool) and path[:1] == ["tables"]
        return Diagnostic(E_BAD_VALUE, f"the key {key!r} is not text, so it cannot be a name{where}",
                          doc.location(pointer, key=True),
                          # A grid's rows keyed by numbers (a step chart): the number is the lookup.
                          f"a table looked up by a number is a ranges table, a row for each: {{min: {key}, max: "
                          f"{key}, value: ...}} (one table for each column)" if numbered else
                          f"use a name such as 'n{key}' (lower case letters, digits and _, starting "
                          "with a letter)")
    if len(key) > 1 and key[0] == "d" and key[1].isdigit():
        return Diagnostic(E_BAD_VALUE, f"'{key}' cannot be a name{where}: it looks like dice",
                          doc.location(pointer, key=True),
                          f"an expression would read '{key}' as a die; call it e.g. 'roll_{key}'")
    return Diagnostic(E_BAD_VALUE, f"{_describe(key)} is not a valid name{where}",
                      doc.location(pointer, key=True),
                      "use lower case letters, digits and _ (snake_case), starting with a letter")


def _required_alternatives(branches: Any) -> list[str]:
    """``oneOf: [{required: [roll]}, {required: [rolls]}]`` → ["roll", "rolls"]: keys of which
    exactly one must be given (empty when the branches are anything else)."""
    if not isinstance(branches, list):
        return []
    keys = []
    for b in branches:
        if not (isinstance(b, dict) and set(b) == {"required"} and len(b["required"]) == 1):
            return []
        keys.append(b["required"][0])
    return keys


def _yaml_word(doc: Document, pointer: str) -> str:
    """The word as written in the file (``no``), for a hint about YAML's booleans."""
    line = doc.location(pointer).source_line or ""
    col = (doc.location(pointer).column or 1) - 1
    word = line[col:].split(",")[0].split("}")[0].split("]")[0].split("#")[0].strip()
    return word or "no"


def _most_relevant(error: ValidationError) -> ValidationError:
    """For a oneOf/anyOf failure, the error of the branch the value was most likely meant
    for: the branch whose own keys the value uses, else jsonschema's best match."""
    while error.validator in ("oneOf", "anyOf") and error.context:
        inst = error.instance
        branches: dict[str | int, list[ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.schema_path[0] if sub.schema_path else 0, []).append(sub)
        chosen = None
        if isinstance(inst, dict):
            for idx, subs in sorted(branches.items()):
                options = error.validator_value
                branch = options[idx] if isinstance(idx, int) and isinstance(options, list) else {}
                props = branch.get("properties", {}) if isinstance(branch, dict) else {}
                if props and any(k in props for k in inst) and branch.get("type") == "object":
                    # Prefer a branch whose required keys are present.
                    req = branch.get("required", [])
                    if all(r in inst for r in req):
                        chosen = subs
                        break
                    chosen = chosen or subs
        if chosen is None:
            import jsonschema.exceptions

            best = jsonschema.exceptions.best_match(error.context)
            if best is None or best is error:
                return error
            error = best
            continue
        deeper = [s for s in chosen if s.validator not in ("type",)] or chosen
        error = min(deeper, key=lambda s: -len(list(s.absolute_path)))
    return error


def _where(path: list) -> str:
    if not path:
        return " at the top level"
    return " in " + "/".join(str(p) for p in path)


def _article(kind: str) -> str:
    words = {"string": "text", "integer": "a whole number", "boolean": "true or false", "object": "a mapping",
             "array": "a list", "number": "a number", "null": "nothing"}
    return " or ".join(words.get(k.strip(), k) for k in kind.split(" or "))


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return f"'{str(value).lower()}'"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        text = value.replace("\n", "\\n")
        return f"'{text}'" if len(text) < 40 else f"'{text[:37]}...'"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "nothing" if value is None else type(value).__name__
