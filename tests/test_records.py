"""Records (rulesengine/records.py) behave as the frozen dataclasses they replace, for the
parts the engine uses, while costing next to nothing to define (issue 18)."""

from __future__ import annotations

import copy
import dataclasses

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


def test_a_private_slot_is_no_field_and_a_cached_hash_agrees_with_equality():
    """``__record_slots__``: room a class keeps for itself (``Rolled`` its hash, worked out
    once), not a field: not compared, shown, copied or asked for by the constructor."""
    from rulesengine.dice.values import Rolled

    assert Rolled.__record_fields__ == ("total", "faces", "sides", "initial", "symbols", "shows")
    assert "_hash" in Rolled.__slots__ and "_hash" not in repr(Rolled(3, (2, 1)))
    a, b = Rolled(3, (2, 1), initial=(2, 1)), Rolled(3, (2, 1), initial=(2, 1))
    assert hash(a) == hash(a) == hash(b) == hash((3, (2, 1), (), (2, 1), (), ())) and a == b
    assert {a: 1}[b] == 1 and Rolled(3, (2, 1)) != a
    assert copy.copy(a) == a and hash(copy.copy(a)) == hash(a)  # a copy, made field by field, works it out
    assert dataclasses.astuple(a) == (3, (2, 1), (), (2, 1), (), ())
    assert dataclasses.replace(a, total=4) == Rolled(4, (2, 1), initial=(2, 1))
    with pytest.raises(FrozenInstanceError):
        a.total = 4  # type: ignore[misc]


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



def test_the_dataclasses_functions_take_a_record_as_a_frozen_dataclass():
    """``dataclasses.replace(DEFAULT_LIMITS, max_dice=...)`` is documented (docs/limits.md):
    a record answers ``dataclasses``' functions as the frozen dataclass it replaced did."""
    import dataclasses

    assert dataclasses.is_dataclass(Point(1)) and dataclasses.is_dataclass(Point)
    assert [f.name for f in dataclasses.fields(Derived)] == ["a", "run", "total"]
    assert [f.name for f in dataclasses.fields(Derived(1))] == ["a", "run", "total"]
    assert [f.init for f in dataclasses.fields(Derived)] == [True, True, False]
    assert [f.compare for f in dataclasses.fields(Derived)] == [True, False, True]
    assert dataclasses.replace(Point(1, 2, ["a"]), y=5) == Point(1, 5, ["a"])
    assert dataclasses.replace(Derived(2), a=3).total == 6  # not an argument: made again
    assert dataclasses.asdict(Point(1, 2)) == {"x": 1, "y": 2, "tags": []}
    assert dataclasses.astuple(Point(1, 2)) == (1, 2, [])
    with pytest.raises(FrozenInstanceError):
        dataclasses.replace(Point(1), y=2).y = 3

    class Sub(Point):
        z: int = 0

    # each class its own fields, whichever was asked first
    assert [f.name for f in dataclasses.fields(Sub)] == ["x", "y", "tags", "z"]
    assert [f.name for f in dataclasses.fields(Point)] == ["x", "y", "tags"]


def test_the_limits_are_changed_as_the_docs_show():
    import dataclasses

    from rulesengine import DEFAULT_LIMITS
    from rulesengine.limits import Limits

    generous = dataclasses.replace(DEFAULT_LIMITS, max_dice=100_000, max_states=20_000_000)
    assert isinstance(generous, Limits) and (generous.max_dice, generous.max_states) == (100_000, 20_000_000)
    assert generous.max_sides == DEFAULT_LIMITS.max_sides and DEFAULT_LIMITS.max_dice == 10_000
    assert replace(DEFAULT_LIMITS, max_dice=100_000) == dataclasses.replace(DEFAULT_LIMITS, max_dice=100_000)
    assert [f.name for f in dataclasses.fields(Limits)] == list(fields(Limits))
    assert {f.name: f.default for f in dataclasses.fields(Limits)}["max_dice"] == 10_000


class Tally(Record, frozen=False):
    name: str
    count: int = 0

    def __init__(self, name: str, count: int = 0) -> None:
        self.name = name
        self.count = count


def test_a_record_that_is_not_frozen_may_be_assigned_and_has_no_hash():
    t = Tally("a")
    t.count += 2
    assert t == Tally("a", 2) and repr(t) == "Tally(name='a', count=2)"
    with pytest.raises(TypeError):
        hash(t)
    with pytest.raises(AttributeError):  # slotted still: no field that was not declared
        t.other = 1  # type: ignore[attr-defined]
    with pytest.raises(FrozenInstanceError):
        Point(1).x = 2  # the frozen ones stay frozen


def test_frozen_and_assignable_records_do_not_derive_from_each_other():
    """As dataclasses: a subclass would otherwise be assignable while it says it is frozen,
    or make a frozen record's fields assignable."""
    with pytest.raises(TypeError, match="not frozen"):
        class Frozen(Tally):  # noqa: F841 - defining it is the test
            extra: int = 0
    with pytest.raises(TypeError, match="frozen Point"):
        class Loose(Point, frozen=False):  # noqa: F841
            extra: int = 0

    class LooseToo(Tally, frozen=False):
        extra: int = 0

        def __init__(self, name: str, count: int = 0, extra: int = 0) -> None:
            self.name, self.count, self.extra = name, count, extra

    loose = LooseToo("b")
    loose.extra = 3
    assert loose.extra == 3


def _engine_records() -> list[type]:
    """Every record class of the engine, its modules all imported."""
    import importlib
    import pkgutil

    import rulesengine

    for info in pkgutil.walk_packages(rulesengine.__path__, "rulesengine."):
        if not info.name.endswith("__main__"):  # which runs the command line
            importlib.import_module(info.name)
    seen, todo = [], list(Record.__subclasses__())
    while todo:
        cls = todo.pop()
        if cls.__module__.startswith("rulesengine."):
            seen.append(cls)
        todo.extend(cls.__subclasses__())
    return seen


def test_a_constructor_written_out_takes_the_records_fields_in_order_with_their_defaults():
    """Records made by the thousand write their ``__init__`` out (rulesengine/records.py); each
    takes exactly the record's fields, in order, with the same defaults (None where a fresh
    default is made each time), so that it makes the record the general constructor would."""
    import inspect

    written = [cls for cls in _engine_records() if "__init__" in cls.__dict__]
    assert {c.__name__ for c in written} >= {"Dist", "Rolled", "Context", "CheckResult"}
    for cls in written:
        params = list(inspect.signature(cls.__init__).parameters.values())[1:]
        assert [p.name for p in params] == list(cls.__record_init__), cls
        for p in params:
            spec = cls.__record_specs__[p.name]
            expected = (inspect.Parameter.empty if not spec.has_default else None if spec.makes_fresh
                        else spec.default)
            assert p.default is expected or p.default == expected, (cls, p.name)


def test_the_engine_defines_records_not_dataclasses():
    """Importing :mod:`dataclasses` (with :mod:`inspect`) and decorating a class cost a tenth of
    a command's start-up (issue 33): no module of the engine imports it, but for the parser
    lark generates (``dice/_lalr.py``) and :mod:`rulesengine.records`, which reads it only when
    asked for a record's dataclass fields."""
    import re
    from pathlib import Path

    import rulesengine

    package = Path(rulesengine.__file__).parent
    importing = sorted(str(f.relative_to(package)) for f in package.rglob("*.py")
                       if re.search(r"^\s*(from dataclasses import|import dataclasses)", f.read_text(), re.M))
    assert importing == ["dice/_lalr.py", "records.py"]
