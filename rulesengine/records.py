"""Immutable records (syntax-tree nodes, model objects, limits) that cost nothing to define.

A frozen dataclass writes and compiles six methods for its class when the module is
imported, about a millisecond each time on the machines users run the CLI on; the engine
has dozens of such classes, so defining them was a fifth of a command's start-up (issue 18).
A :class:`Record` class gets the same behaviour from methods written once, here: keyword
or positional construction with defaults and ``__post_init__``, ``__slots__``, value
equality and hashing (by class and fields), a readable ``repr``, and no assignment after
construction. Defining one costs what defining a plain class costs; building an instance
with the general constructor costs a few microseconds more than a dataclass's, which is why
the classes made by the thousand while rolling or working out odds write theirs out (below).
Every value class of the engine is a record (``tests/test_records.py``).

Type checkers read a Record class as a frozen dataclass (:pep:`681`), and so do the
:mod:`dataclasses` module's functions: ``dataclasses.replace``, ``fields``, ``asdict`` and
``is_dataclass`` take a record as they take a dataclass (:class:`_DataclassView`), without
this module importing :mod:`dataclasses`, whose import (with :mod:`inspect`) was a tenth of
a command's start-up (issue 33).

A record made by the thousand (a distribution, a roll, a resolution) writes its ``__init__``
out, setting each field with ``object.__setattr__`` as a frozen dataclass's does; a test
holds each to the record's fields and defaults. ``class R(Record, frozen=False)``
is a record whose fields may be assigned, which its own ``__init__`` then does at the speed
of a plain class (and which, like a mutable dataclass, has no hash). A class body's
``__record_slots__`` names slots the class keeps for itself and that are no field (not
compared, shown, copied or asked for): a roll keeps its hash there.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, ClassVar, TypeVar, dataclass_transform

__all__ = ["Record", "FrozenInstanceError", "field", "fields", "replace", "is_record", "asdict", "set_field"]

_MISSING: Any = object()
_set = object.__setattr__

set_field = object.__setattr__
"""How a record's written-out ``__init__`` sets a field of a frozen record (as a frozen
dataclass's own ``__init__`` does)."""


class FrozenInstanceError(AttributeError):
    """A field of a record was assigned or deleted after construction."""


class Field:
    """A field's default (or the function that makes a fresh one for each record), and
    whether it is an argument of the constructor, part of the record's value (equality and
    hash) and shown by ``repr``."""

    __slots__ = ("default", "default_factory", "init", "compare", "repr")

    def __init__(self, default: Any = _MISSING, default_factory: Any = _MISSING,
                 init: bool = True, compare: bool = True, repr: bool = True) -> None:
        self.default, self.default_factory = default, default_factory
        self.init, self.compare, self.repr = init, compare, repr

    @property
    def has_default(self) -> bool:
        return self.default is not _MISSING or self.default_factory is not _MISSING

    @property
    def makes_fresh(self) -> bool:
        """A default made for each record by a function (``default_factory``)."""
        return self.default_factory is not _MISSING

    def value(self) -> Any:
        return self.default if self.default_factory is _MISSING else self.default_factory()


def field(*, default: Any = _MISSING, default_factory: Any = _MISSING,
          init: bool = True, compare: bool = True, repr: bool = True) -> Any:
    """A field's default given as a value or as a function (``field(default_factory=dict)``);
    ``init=False``: set from its default, not an argument; ``compare=False``: not part of
    the value; ``repr=False``: not shown."""
    return Field(default, default_factory, init, compare, repr)


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
class RecordMeta(type):
    """Reads the class's annotations into its fields, in order (inherited ones first), and
    gives the class ``__slots__`` for them."""

    def __new__(mcs, name: str, bases: tuple[type, ...], ns: dict[str, Any], *, frozen: bool = True,
                **kwargs: Any) -> RecordMeta:
        inherited, specs = _inherited_fields(bases)
        own = _own_fields(ns, inherited, specs)
        names = inherited + own
        _check_order(name, names, specs)
        ns["__slots__"] = own + tuple(ns.pop("__record_slots__", ()))  # fields, then a class's own private slots
        _check_frozen(name, bases, frozen)
        if not frozen:  # object's own methods: assignment as fast as a plain class's
            ns.update(__setattr__=object.__setattr__, __delattr__=object.__delattr__, __hash__=None)
        ns["__record_frozen__"] = frozen
        cls = super().__new__(mcs, name, bases, ns, **kwargs)
        _index_fields(cls, names, specs)
        return cls


def _check_frozen(name: str, bases: tuple[type, ...], frozen: bool) -> None:
    """The rule dataclasses keep: a frozen record derives from no record that may be
    assigned, and one that may be assigned from no frozen record with fields (whose fields
    would then be assignable after all)."""
    for base in bases:
        base_frozen = getattr(base, "__record_frozen__", None)
        if frozen and base_frozen is False:
            raise TypeError(f"{name}: a frozen record cannot derive from {base.__name__}, which is not frozen")
        if not frozen and base_frozen and getattr(base, "__record_fields__", ()):
            raise TypeError(f"{name}: a record that is not frozen cannot derive from the frozen {base.__name__}")


def _inherited_fields(bases: tuple[type, ...]) -> tuple[tuple[str, ...], dict[str, Field]]:
    """The fields of the bases, in order (the first base's first), and their specs."""
    inherited: tuple[str, ...] = ()
    specs: dict[str, Field] = {}
    for base in reversed(bases):
        inherited += tuple(n for n in getattr(base, "__record_fields__", ()) if n not in inherited)
        specs.update(getattr(base, "__record_specs__", {}))
    return inherited, specs


def _is_field(name: str, annotation: Any) -> bool:
    """An annotation that makes a field: not a dunder, not a ``ClassVar``."""
    return not (name.startswith("__") or str(annotation).startswith(("ClassVar", "typing.ClassVar")))


def _own_fields(ns: dict[str, Any], inherited: tuple[str, ...], specs: dict[str, Field]) -> tuple[str, ...]:
    """The fields the class body adds, in order; their specs go into ``specs`` (a default
    written in the body also overrides an inherited field's). The defaults leave ``ns``: a
    slot and a class attribute of the same name cannot both exist."""
    own: list[str] = []
    for n, annotation in ns.get("__annotations__", {}).items():
        if not _is_field(n, annotation):
            continue
        if n not in inherited:
            own.append(n)
        if n in ns:
            value = ns.pop(n)
            specs[n] = value if isinstance(value, Field) else Field(value)
        elif n not in specs:
            specs[n] = Field()
    return tuple(own)


def _check_order(name: str, names: tuple[str, ...], specs: dict[str, Field]) -> None:
    """The rules a dataclass keeps too: no argument without a default after one with a
    default (positional construction would be ambiguous), and a default for every field
    that is not an argument (nothing else could give it a value)."""
    with_default = [specs[n].has_default for n in names if specs[n].init]
    if True in with_default and False in with_default[with_default.index(True):]:
        raise TypeError(f"{name}: a field without a default follows one with a default")
    if any(not specs[n].init and not specs[n].has_default for n in names):
        raise TypeError(f"{name}: a field that is not an argument needs a default")


def _index_fields(cls: Any, names: tuple[str, ...], specs: dict[str, Field]) -> None:
    """What :class:`Record`'s methods read, worked out once per class: the fields, the
    constructor's arguments, those set from their defaults, those shown, and the key of
    equality and hashing."""
    compared = tuple(n for n in names if specs[n].compare)
    cls.__record_fields__ = names
    cls.__record_specs__ = specs
    cls.__record_init__ = tuple(n for n in names if specs[n].init)
    cls.__record_later__ = tuple(n for n in names if not specs[n].init)
    cls.__record_shown__ = tuple(n for n in names if specs[n].repr)
    cls.__record_key__ = attrgetter(*compared) if compared else _no_key


def _no_key(record: Any) -> tuple:
    return ()


class _DataclassView:
    """A record class's ``__dataclass_fields__``, what the :mod:`dataclasses` functions read:
    the fields of a dataclass made to the record's shape (names, defaults, ``init``,
    ``compare``, ``repr``), made the first time something asks and kept on the class.
    ``dataclasses.replace`` then builds the copy with the record's own constructor."""

    def __get__(self, record: Any, cls: type) -> dict[str, Any]:
        view = cls.__dict__.get("__record_dataclass_fields__")
        if view is None:
            view = _dataclass_fields(cls)
            type.__setattr__(cls, "__record_dataclass_fields__", view)
        return view


def _dataclass_fields(cls: Any) -> dict[str, Any]:
    import dataclasses

    def annotation(name: str) -> Any:
        return next((k.__annotations__[name] for k in cls.__mro__ if name in k.__dict__.get("__annotations__", {})),
                    Any)

    def shaped(spec: Field) -> Any:
        default, factory = spec.default, spec.default_factory
        if default is not _MISSING and type(default).__hash__ is None:  # dataclasses refuse it as a default
            default, factory = _MISSING, (lambda value=default: value)
        return dataclasses.field(default=dataclasses.MISSING if default is _MISSING else default,
                                 default_factory=dataclasses.MISSING if factory is _MISSING else factory,
                                 init=spec.init, repr=spec.repr, compare=spec.compare)

    shape = dataclasses.make_dataclass(
        cls.__name__, [(n, annotation(n), shaped(cls.__record_specs__[n])) for n in cls.__record_fields__],
        frozen=cls.__record_frozen__)
    view: dict[str, Any] = shape.__dict__["__dataclass_fields__"]
    return view


class Record(metaclass=RecordMeta):
    """Base of immutable records: subclass it and annotate the fields, as for a dataclass."""

    __slots__ = ()
    __record_fields__: ClassVar[tuple[str, ...]]
    __dataclass_fields__: ClassVar[dict[str, Any]] = _DataclassView()  # type: ignore[assignment]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        cls = type(self)
        names = cls.__record_init__  # type: ignore[attr-defined]
        given = len(args)
        if given > len(names):
            raise TypeError(f"{cls.__name__}() takes {len(names)} arguments but {given} were given")
        for name, value in zip(names, args, strict=False):  # the rest: keywords and defaults
            _set(self, name, value)
        if given < len(names):
            specs = cls.__record_specs__  # type: ignore[attr-defined]
            for name in names[given:]:
                if name in kwargs:
                    _set(self, name, kwargs.pop(name))
                elif specs[name].has_default:
                    _set(self, name, specs[name].value())
                else:
                    raise TypeError(f"{cls.__name__}() missing required argument: {name!r}")
        for name in cls.__record_later__:  # type: ignore[attr-defined]
            _set(self, name, cls.__record_specs__[name].value())  # type: ignore[attr-defined]
        if kwargs:
            raise TypeError(f"{cls.__name__}() got unexpected or repeated arguments: {', '.join(sorted(kwargs))}")
        post = getattr(self, "__post_init__", None)
        if post is not None:
            post()

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            key = self.__record_key__  # type: ignore[attr-defined]
            return bool(key(self) == key(other))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.__record_key__(self))  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__record_shown__)  # type: ignore[attr-defined]
        return f"{type(self).__name__}({inner})"

    def __getstate__(self) -> tuple:
        return tuple(getattr(self, n) for n in self.__record_fields__)

    def __setstate__(self, state: tuple) -> None:
        for name, value in zip(self.__record_fields__, state, strict=True):
            _set(self, name, value)


R = TypeVar("R", bound=Record)


def is_record(value: Any) -> bool:
    return isinstance(value, Record)


def fields(record: Record | type[Record]) -> tuple[str, ...]:
    """The names of a record's fields, in order."""
    return record.__record_fields__


def replace(record: R, **changes: Any) -> R:
    """A copy of ``record`` with some fields changed (its ``__post_init__`` runs again)."""
    values = {n: getattr(record, n) for n in record.__record_init__}  # type: ignore[attr-defined]
    unknown = set(changes) - set(values)
    if unknown:
        raise TypeError(f"{type(record).__name__} has no field {sorted(unknown)[0]!r}")
    values.update(changes)
    return type(record)(**values)


def asdict(record: Record) -> dict[str, Any]:
    """The fields as a dict (records inside are turned into dicts too)."""
    return {n: asdict(v) if isinstance(v, Record) else v
            for n in record.__record_fields__ for v in (getattr(record, n),)}
