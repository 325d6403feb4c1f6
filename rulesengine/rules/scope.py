"""The names an expression may read while a ruleset is built, and JSON-pointer escaping.

Shared by the check builder and every procedure builder, so that a name unknown to an
expression is reported the same way wherever it is written."""

from __future__ import annotations

from ..records import Record, field


class Scope(Record):
    """The names visible to an expression and what each one is (for hints and messages)."""

    names: dict[str, str] = field(default_factory=dict)  # name -> what it is
    # names another expression nearby may read but this one may not -> the hint that says why
    elsewhere: dict[str, str] = field(default_factory=dict)

    def with_names(self, **more: str) -> Scope:
        return Scope({**self.names, **more}, self.elsewhere)

    def hint_for(self, name: str, near: str | None) -> str:
        """The hint for ``name``, unknown here: why it can't be read here, the nearest name,
        or the names that can be."""
        if name in self.elsewhere:
            return self.elsewhere[name]
        if near:
            return f"did you mean '{near}'?"
        return self.known()

    def known(self) -> str:
        """The names this expression may read, as a hint."""
        names = sorted(self.names)
        return "known names: " + ", ".join(names[:15]) if names else "this expression can use no names here"


def escape_pointer(name: object) -> str:
    """One JSON-pointer token (RFC 6901): ``~`` and ``/`` inside a key are escaped."""
    return str(name).replace("~", "~0").replace("/", "~1")
