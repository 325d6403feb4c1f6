"""The ruleset model is immutable and compares by value, whatever kind of class each
object is (rulesengine/rules/model.py: NamedTuples, a few records)."""

from __future__ import annotations

import copy

import pytest

import rulesengine
from rulesengine import records
from rulesengine.rules import model
from rulesengine.ruleset import shipped_ids

MODEL_CLASSES = tuple(c for c in vars(model).values()
                      if isinstance(c, type) and c.__module__ == model.__name__ and c is not model.ProcedureSpec)


def model_objects(obj, seen=None):
    """Every object of a model class reachable from ``obj``, through fields, tuples and dicts."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, MODEL_CLASSES):
        yield obj
        fields = obj._fields if hasattr(obj, "_fields") else records.fields(obj)
        children = [getattr(obj, f) for f in fields if not f.startswith("_")]
        if isinstance(obj, model.Procedure):  # who gives which inputs: worked out from its spec
            children.append(obj.settings.roles(obj.check))
    elif isinstance(obj, (tuple, list, frozenset)):
        children = list(obj)
    elif isinstance(obj, dict):
        children = list(obj.values())
    else:
        return
    for child in children:
        yield from model_objects(child, seen)


@pytest.mark.parametrize("rid", shipped_ids())
def test_model_objects_are_immutable_and_equal_to_a_copy(rid):
    found = list(model_objects(rulesengine.load(rid).model))
    assert any(isinstance(o, model.Check) for o in found)
    for obj in found:
        name = (obj._fields if hasattr(obj, "_fields") else records.fields(obj))[0]
        with pytest.raises(AttributeError):
            setattr(obj, name, None)
        assert not hasattr(obj, "__dict__"), f"{type(obj).__name__} is not slotted"
        twin = copy.copy(obj)
        assert twin == obj and not (twin != obj)
        try:
            h = hash(obj)
        except TypeError:  # it holds a dict (the ruleset's tables, a range's value): unhashable
            continue
        assert hash(twin) == h


def test_every_model_class_is_reached_by_some_shipped_ruleset():
    """So the test above covers each class (a class no ruleset uses would go unchecked)."""
    reached = {type(o) for rid in shipped_ids() for o in model_objects(rulesengine.load(rid).model)}
    assert set(MODEL_CLASSES) - reached == set()


@pytest.mark.parametrize("rid", shipped_ids())
def test_an_expressions_names_are_every_name_its_tree_reads(rid):
    """rules/faces.py skips walking an expression whose names do not hold a roll's: so an
    Expr's ``names`` must be every Name of its tree, counted here by a walk of its own."""
    from rulesengine.dice import ast

    def names_in(node):
        found, stack = set(), [node]
        while stack:
            n = stack.pop()
            if isinstance(n, ast.Name):
                found.add(n.name)
            stack.extend(ast.children(n))
        return found

    exprs = [o for o in model_objects(rulesengine.load(rid).model) if isinstance(o, model.Expr)]
    assert exprs and all(e.names == names_in(e.tree) for e in exprs)
