"""Records (rulesengine/records.py) behave as the frozen dataclasses they replace, for the
parts the engine uses, while costing next to nothing to define (issue 18)."""

from __future__ import annotations

import copy

import pytest

from rulesengine.records import FrozenInstanceError, Record, asdict, field, fields, is_record, replace


class Point(Record):
    x: int
    y: int = 0
    tags: list = field(default_factory=list)


class Derived(Record):
    a: int
    run: object = field(default=None, compare=False, repr=False)
    total: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        object.__setattr__(self, "total", self.a * 2)


class Other(Record):
    x: int
    y: int = 0
    tags: list = field(default_factory=list)


def test_construction_by_position_keyword_and_default():
    assert (Point(1).x, Point(1).y, Point(1, 2).y, Point(x=3, y=4).y) == (1, 0, 2, 4)
    assert Point(1).tags == [] and Point(1).tags is not Point(1).tags  # a fresh default each time
    with pytest.raises(TypeError):
        Point()
    with pytest.raises(TypeError):
        Point(1, 2, [], 4)
    with pytest.raises(TypeError):
        Point(1, z=2)
    with pytest.raises(TypeError):
        Point(1, x=2)


def test_value_equality_is_by_class_and_fields_and_hash_agrees():
    assert Point(1, 2) == Point(1, 2) and Point(1, 2) != Point(2, 1)
    assert Point(1, 2) != Other(1, 2)  # same fields, another class
    assert hash(Derived(1, run=print)) == hash(Derived(1, run=len)) and Derived(1, print) == Derived(1, len)


def test_records_are_frozen_and_slotted():
    p = Point(1)
    with pytest.raises(FrozenInstanceError):
        p.x = 2  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del p.x  # type: ignore[misc]
    assert not hasattr(p, "__dict__")


def test_post_init_and_fields_set_after_construction():
    d = Derived(3)
    assert d.total == 6
    assert replace(d, a=5).total == 10
    with pytest.raises(TypeError):
        Derived(1, None, 7)  # type: ignore[call-arg]  # total is not an argument


def test_repr_fields_replace_asdict_copy():
    assert repr(Point(1, 2)) == "Point(x=1, y=2, tags=[])"
    assert repr(Derived(1)) == "Derived(a=1, total=2)"
    assert fields(Point) == ("x", "y", "tags") and is_record(Point(1)) and not is_record((1,))
    assert replace(Point(1, 2), y=5) == Point(1, 5)
    with pytest.raises(TypeError):
        replace(Point(1), z=1)
    assert asdict(Point(1, 2)) == {"x": 1, "y": 2, "tags": []}
    assert copy.copy(Point(1, 2)) == Point(1, 2) and copy.deepcopy(Point(1, 2, [3])) == Point(1, 2, [3])


def test_a_field_without_a_default_may_not_follow_one_with_a_default():
    with pytest.raises(TypeError):
        type("Bad", (Record,), {"__annotations__": {"a": "int", "b": "int"}, "a": 1})

