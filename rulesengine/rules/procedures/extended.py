"""An extended check: the check is made round after round; rules update a state (a
success pool, a clock) from each round's outcome until a success or failure condition holds
or the round limit is reached."""

from __future__ import annotations

from ...dice import ast
from ...records import Record
from types import MappingProxyType
from typing import NamedTuple
from collections.abc import Mapping

from ...codes import E_NAME_CLASH, E_PROCEDURE, E_UNKNOWN_REFERENCE
from ..context import BuildContext, built
from ..model import Check, Expr, Input, Role
from ..scope import Scope, escape_pointer


class RoundRule(NamedTuple):
    when: Expr | None  # None: every round
    set: tuple[tuple[str, Expr], ...]  # (state name, its new value), in order


class ExtendedSpec(Record):
    state: Mapping[str, Expr]  # each state value and its starting value, in order
    each_round: tuple[RoundRule, ...]
    succeed_when: Expr
    fail_when: Expr | None
    max_rounds: Expr
    round_inputs: Mapping[str, Expr]  # inputs of the check, worked out each round

    def party_expressions(self, check: str) -> list[tuple[str, list[Expr], dict[str, str]]]:
        exprs = [self.succeed_when, *([self.fail_when] if self.fail_when else [])]
        exprs += [r.when for r in self.each_round if r.when is not None]
        exprs += [e for r in self.each_round for _, e in r.set]
        return [(check, exprs, {})]

    def texts(self) -> list[tuple[str, Expr, tuple[str, ...]]]:
        return []

    def roles(self, check: str) -> tuple[Role, ...]:
        return (Role("check", check, 1, 1, given_as="inputs", computed=tuple(self.round_inputs)),)

    def numbers(self) -> list[tuple[str, Expr]]:
        """max_rounds, and every value set to a state value that starts as a number: a state
        value keeps one kind, so the rules and the check's inputs it feeds read what they expect."""
        out = [("max_rounds", self.max_rounds)]
        for s, start in self.state.items():
            if _number_literal(start.tree):
                out += [(f"the value set to state '{s}' (it starts as a number)", e)
                        for rule in self.each_round for name, e in rule.set if name == s]
        return out

    def conditions(self) -> list[tuple[str, Expr]]:
        out = [("succeed_when", self.succeed_when)] + ([("fail_when", self.fail_when)] if self.fail_when else [])
        return out + [("the condition of a round rule", r.when) for r in self.each_round if r.when is not None]


def _number_literal(node: ast.Node) -> bool:
    """A whole number written out (``0``, ``-3``, ``(2)``)."""
    while isinstance(node, (ast.Group, ast.Neg)):
        node = node.inner if isinstance(node, ast.Group) else node.operand
    return isinstance(node, ast.Num)


def end_scope(spec: ExtendedSpec, own: Scope, party: Scope) -> Scope:
    """An extended check's report reads its inputs (its own and its check's, as given) and its
    final state."""
    inputs = {n: kind for n, kind in party.names.items() if kind == "input"}
    names = {**inputs, **own.names, **{s: "state" for s in spec.state}}
    return Scope(names, {n: f"a report reads the final state and inputs, not a round's values: keep it in state "
                            f"(state: {{last_{n}: 0}}; each_round set: {{last_{n}: {n}}}), report last_{n}"
                     for n in party.names if n not in names})


def build(builder: BuildContext, name: str, spec: dict, ptr: str, check: Check, inputs: tuple[Input, ...],
          party: Scope) -> ExtendedSpec | None:
    for key in ("state", "each_round", "succeed_when"):
        if key not in spec:
            builder.error(E_PROCEDURE, f"extended check '{name}' needs '{key}'", ptr)
            return None
    own = Scope({i.name: "input" for i in inputs})
    own.names.update({i.name: "input" for i in check.inputs})
    state = {s: builder.expr(text, f"{ptr}/state/{escape_pointer(s)}", own, what=f"state '{s}'")
             for s, text in spec["state"].items()}
    names = set(state)
    for s in state:
        clash = party.names.get(s) or own.names.get(s)
        if clash is not None:
            builder.error(E_NAME_CLASH, f"state '{s}' is also a name of check '{check.name}' ({clash}): one "
                          "would hide the other in the round rules", f"{ptr}/state/{escape_pointer(s)}",
                          f"rename the state value, e.g. {s}_so_far", key=True)
    round_scope = own.with_names(**{s: "state" for s in names}, round="the round number")
    after = Scope({**round_scope.names, **party.names})
    rules = []
    for i, rule in enumerate(spec["each_round"]):
        when = builder.expr(rule["when"], f"{ptr}/each_round/{i}/when", after, what="a round rule") \
            if "when" in rule else None
        sets = []
        for s, text in rule["set"].items():
            where = f"{ptr}/each_round/{i}/set/{escape_pointer(s)}"
            if s not in names:
                builder.error(E_UNKNOWN_REFERENCE, f"'{s}' is not part of the state", where,
                              "state: " + ", ".join(state), key=True)
                continue
            sets.append((s, built(builder.expr(text, where, after, what=f"state '{s}'"))))
        rules.append(RoundRule(when, tuple(sets)))
    succeed_when = builder.expr(spec["succeed_when"], f"{ptr}/succeed_when", after, what="succeed_when")
    fail_when = builder.expr(spec["fail_when"], f"{ptr}/fail_when", after, what="fail_when") \
        if "fail_when" in spec else None
    max_rounds = builder.expr(spec.get("max_rounds", 100), f"{ptr}/max_rounds", own, what="max_rounds")
    fixed = _constant(max_rounds.tree) if max_rounds is not None else None
    if fixed is not None and fixed < 1:
        builder.error(E_PROCEDURE, f"extended check '{name}': max_rounds {fixed} allows no round, so it can never "
                      "be rolled", f"{ptr}/max_rounds", "give it 1 or more rounds, e.g. max_rounds: 20")
    round_inputs: dict[str, Expr] = {}
    for n, text in (spec.get("round_inputs") or {}).items():
        where = f"{ptr}/round_inputs/{escape_pointer(n)}"
        round_inputs[n] = built(builder.expr(text, where, round_scope, what=f"round input '{n}'"))
        if check.input(n) is None:
            builder.error(E_UNKNOWN_REFERENCE, f"round input '{n}' is not an input of check '{check.name}'",
                          where, key=True)
    return ExtendedSpec(MappingProxyType({s: built(e) for s, e in state.items()}), tuple(rules), built(succeed_when),
                        fail_when, built(max_rounds),
                        MappingProxyType(round_inputs))


def _constant(tree: ast.Node) -> int | None:
    """The whole number an expression is, when it is one written out (``0``, ``-1``, ``(5)``)."""
    while isinstance(tree, (ast.Group, ast.Labeled)):
        tree = tree.inner
    if isinstance(tree, ast.Num):
        return tree.value
    if isinstance(tree, ast.Neg):
        inner = _constant(tree.operand)
        return -inner if inner is not None else None
    return None
