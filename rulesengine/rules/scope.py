"""The names an expression may read while a ruleset is built, and JSON-pointer escaping.

Shared by the check builder and every procedure builder, so that a name unknown to an
expression is reported the same way wherever it is written."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Scope:
    """The names visible to an expression and what each one is (for hints and messages)."""

    names: dict[str, str] = field(default_factory=dict)  # name -> what it is

    def with_names(self, **more: str) -> Scope:
        return Scope({**self.names, **more})


def escape_pointer(name: object) -> str:
    """One JSON-pointer token (RFC 6901): ``~`` and ``/`` inside a key are escaped."""
    return str(name).replace("~", "~0").replace("/", "~1")
