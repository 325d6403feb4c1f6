"""Static types of a ruleset's expressions: what would fail at the table, found when the file
is read.

Every expression is given a kind of value — a number, yes/no, text, a roll (a number whose
dice can be read), a pool of mixed dice — from the names it reads (inputs by their type,
lets, rolls, the result, ``outcome``, ``success``, table lookups) and the operators and
functions it applies. Where a place wants a kind (a condition wants yes/no, a result a
number) or an operator cannot take an operand (``not 3``, ``'a' + 1``), a :class:`Problem`
says so at the sub-expression's own span. A comparison of ``outcome`` (or a choice input)
with a text literal is checked against the names that can really come up.

Kinds are inferred, never guessed: a name whose kind is not known (a procedure's own
names, a lookup in a table of mixed values) is :data:`UNKNOWN`, which fits anywhere, so a
file is only ever refused for a mistake that would fail, or silently never match, when
rolled. The checks are a table from node type to a small function, like the compiler's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, NamedTuple

from ..records import fields, is_record
from ..codes import (E_BAD_OPERAND, E_BRANCH_TYPES, E_NOT_A_NUMBER, E_NOT_YES_NO, W_SYMBOL_ROLL_NUMBER,
                     E_UNKNOWN_LITERAL)
from ..dice import ast
from ..dice.builtins import (ANY, BRANCHES, BUILTINS, DICE, FIRST_THROW, NUMBER, POOL, ROLL, SYMBOL_COUNTS, TEXT,
                             YES_NO, Builtin, conditional, reads)
from .model import Check, Expr, Grid, Input, Ladder, Ranges, Table, Tiers

UNKNOWN = "unknown"  # besides the kinds of dice/builtins.py (NUMBER, YES_NO, TEXT, ROLL, POOL)
NOTHING = "nothing (its check defines no result)"  # `result` of a check without one
NUMERIC = (NUMBER, ROLL)  # a roll counts as its total wherever a number is wanted
# A roll of nothing but symbol dice: its dice can be read (symbols(roll, 'hit')), but its
# number is the sum of its faces' places, which counts nothing: no use as a number (E531).
SYMBOL_ROLL = "a roll of symbol dice"

NOT_ALLOWED = "not_allowed"  # the outcome of a gate that refuses the check (see run/results.py)


class Problem(NamedTuple):
    """A mistake in one expression: ``span`` is the offending part of ``expr.text``."""

    code: str
    message: str
    hint: str | None
    expr: Expr
    span: tuple[int, int]


class Env(NamedTuple):
    """What an expression's names are: their kinds, and the literal values some may take
    (``outcome``: the check's outcome names; a choice input: its choices)."""

    kinds: Mapping[str, str]
    values: Mapping[str, tuple[str, ...]]
    tables: Mapping[str, Table]
    symbols: Mapping[str, tuple[str, ...]] = {}  # a roll of symbol dice: the symbols its dice show


class _Infer:
    """One expression's walk: the kind of each node, and the problems found on the way."""

    def __init__(self, expr: Expr, env: Env) -> None:
        self.expr, self.env = expr, env
        self.problems: list[Problem] = []

    def problem(self, code: str, message: str, node: Any, hint: str | None = None) -> None:
        self.problems.append(Problem(code, message, hint, self.expr, node.span))

    def text(self, node: Any) -> str:
        return self.expr.text[node.span[0]:node.span[1]]

    def kind(self, node: ast.Node) -> str:
        return _RULES[type(node)](self, node)

    def want(self, node: ast.Node, kinds: tuple[str, ...], what: str, code: str = E_BAD_OPERAND,
             hint: str | None = None) -> str:
        """The kind of ``node``; a problem if it is known and not one of ``kinds``."""
        got = self.kind(node)
        if got == SYMBOL_ROLL and got not in kinds:
            self.symbol_number(node)
        elif got != UNKNOWN and got not in kinds:
            self.problem(code, f"{what} needs {' or '.join(dict.fromkeys(_plain(k) for k in kinds))}, "
                               f"but '{self.text(node)}' is {got}", node, hint)
        return got

    def symbol_number(self, node: ast.Node) -> None:
        """``node``, a roll of symbol dice, used as a number (W514, deprecated: an error later)."""
        name = self.text(node)
        shown = self.env.symbols.get(name, ())
        self.problem(W_SYMBOL_ROLL_NUMBER, f"'{name}' is a roll of symbol dice: its number is the sum of its "
                     "faces' places (1 to n, in the order listed), which counts nothing (deprecated: a later "
                     "release refuses it)", node,
                     f"count its symbols with symbols({name}, '{shown[0] if shown else 'name'}')")


def _plain(kind: str) -> str:
    return NUMBER if kind == ROLL else kind


def _num(inf: _Infer, n: ast.Num) -> str:
    return NUMBER


def _str(inf: _Infer, n: ast.Str) -> str:
    return TEXT


def _bool(inf: _Infer, n: ast.Bool) -> str:
    return YES_NO


def _name(inf: _Infer, n: ast.Name) -> str:
    return inf.env.kinds.get(n.name, UNKNOWN)


def _dice(inf: _Infer, n: ast.Dice) -> str:
    count = ast.bare(n.count)
    if isinstance(count, ast.Name) and inf.env.kinds.get(count.name) == SYMBOL_ROLL:  # `(hits)d6`
        inf.symbol_number(n.count)
    for e in ast.condition_exprs(n):  # `cs>=(tn)`: a number
        inf.want(e, NUMERIC, "a die's condition")
    return ROLL


def _set(inf: _Infer, n: ast.SetKeep) -> str:
    for item in n.items:
        inf.want(item, NUMERIC, "a set")
    return NUMBER


def _pool_keep(inf: _Infer, n: ast.PoolKeep) -> str:
    """``(pool)p1``: keeps by face of a pool of mixed dice, each condition's number a number."""
    for e in ast.keep_exprs(n):
        inf.want(e, NUMERIC, "a die's condition")
    got = inf.kind(n.inner)
    if got not in (POOL, UNKNOWN):
        marks = inf.expr.text[n.keeps[0].span[0]:n.keeps[-1].span[1]]
        inner = inf.text(n.inner)
        hint = (f"keep by face the pool before it is rolled, e.g. roll: (pool){marks}; a roll's dice are read by "
                f"face with count({inner}, lo, hi) and largest_die({inner}, lo, hi)" if got in (ROLL, SYMBOL_ROLL) else
                f"put it on a dice term, e.g. 4d6{marks}, or after a dice_pool input, e.g. (pool){marks}")
        inf.problem(E_BAD_OPERAND, f"'{marks}' keeps the dice of a pool of mixed dice, but '{inner}' is {got}",
                    n.inner, hint)
    return POOL


def _neg(inf: _Infer, n: ast.Neg) -> str:
    inf.want(n.operand, NUMERIC, "'-'")
    return NUMBER


def _binary(inf: _Infer, n: ast.Binary) -> str:
    divisor = ast.bare(n.right)
    if n.op in ("/", "%") and isinstance(divisor, ast.Num) and divisor.value == 0:
        inf.problem(E_BAD_OPERAND, f"'{inf.text(n)}' divides by zero", n, "divide by a number other than 0")
    for side in (n.left, n.right):
        got = inf.kind(side)
        if got == SYMBOL_ROLL:
            inf.symbol_number(side)
        elif got in (YES_NO, TEXT, NOTHING):
            inf.problem(E_BAD_OPERAND, f"'{n.op}' needs a number, but '{inf.text(side)}' is {got}", side,
                        "if(x, 1, 0) turns a yes/no into a number" if got == YES_NO else None)
    return NUMBER


_ROLL_WITH_TEXT = (": a roll is its number, a face with a label too; compare with the number the label stands "
                   "for (on d{0:'eye', 1, …, 11:'rune'}, roll == 0)")


def _compare(inf: _Infer, n: ast.Compare) -> str:
    if n.op in ("==", "!="):
        left, right = inf.kind(n.left), inf.kind(n.right)
        for side, got in ((n.left, left), (n.right, right)):
            if got == SYMBOL_ROLL:
                inf.symbol_number(side)
        if SYMBOL_ROLL not in (left, right) and UNKNOWN not in (left, right) and _plain(left) != _plain(right) \
                and POOL not in (left, right):
            inf.problem(E_BAD_OPERAND, f"'{inf.text(n)}' compares {left} with {right}: never equal", n,
                        "compare values of the same kind" + (" (quote the number as text, or the text "
                                                             "as a number)" if {left, right} == {TEXT, NUMBER}
                                                             else _ROLL_WITH_TEXT if {left, right} == {ROLL, TEXT}
                                                             else ""))
        for name, literal in ((n.left, n.right), (n.right, n.left)):
            _literal_of(inf, name, literal)
        return YES_NO
    for side in (n.left, n.right):
        inf.want(side, NUMERIC, f"'{n.op}'")
    return YES_NO


def _literal_of(inf: _Infer, name: ast.Node, literal: ast.Node) -> None:
    """``outcome == 'sucess'``: a literal a name can never be."""
    name = ast.bare(name)
    if not (isinstance(name, ast.Name) and isinstance(literal, ast.Str)):
        return
    allowed = inf.env.values.get(name.name)
    if allowed is None or literal.value in allowed:
        return
    import difflib  # only when there is an error to explain

    near = difflib.get_close_matches(literal.value, allowed, n=1, cutoff=0.6)
    inf.problem(E_UNKNOWN_LITERAL, f"'{name.name}' is never '{literal.value}'", literal,
                f"did you mean '{near[0]}'?" if near else f"it is one of: {', '.join(allowed)}")


def _logic(inf: _Infer, n: ast.Logic) -> str:
    for side in (n.left, n.right):
        inf.want(side, (YES_NO,), f"'{n.op}'", hint="write a comparison, e.g. roll >= 10")
    return YES_NO


def _not(inf: _Infer, n: ast.Not) -> str:
    inf.want(n.operand, (YES_NO,), "'not'", hint="write a comparison, e.g. not (roll >= 10)")
    return YES_NO


def _group(inf: _Infer, n: ast.Group | ast.Labeled) -> str:
    return inf.kind(n.inner)


def _call(inf: _Infer, n: ast.Call) -> str:
    builtin = BUILTINS.get(n.name)
    if builtin is not None:
        return _builtin(inf, n, builtin)
    table = inf.env.tables.get(n.name)
    for arg in n.args:
        if inf.kind(arg) == SYMBOL_ROLL:
            inf.symbol_number(arg)
    return _table_kind(table) if table is not None else UNKNOWN


# What an argument of each kind accepts (see dice/builtins.py), and the hint when it is not.
ARGUMENTS: Mapping[str, tuple[str, ...]] = {
    NUMBER: NUMERIC, YES_NO: (YES_NO,), TEXT: (TEXT,), ROLL: (ROLL, SYMBOL_ROLL), POOL: (POOL,),
    DICE: (ROLL, SYMBOL_ROLL, POOL),
}
_ARGUMENT_HINTS: Mapping[str, str] = {DICE: "pass the name of a roll, e.g. count(roll, 1)"}


def _builtin(inf: _Infer, n: ast.Call, builtin: Builtin) -> str:
    """A call of a built-in, by its signature: each argument of a checked kind (beyond its
    arguments, or of kind ANY: only looked into), and the kind of its result."""
    if builtin.result == BRANCHES:
        return _if(inf, n)
    if builtin.reads == SYMBOL_COUNTS and n.args and reads(ast.bare(n.args[0])) == FIRST_THROW:
        # The first throw is read as its faces' numbers: its symbols would all count 0.
        inf.problem(E_BAD_OPERAND, f"{n.name}() can't count the symbols of initial(): the first throw is read "
                    "by its faces' numbers only", n.args[0],
                    "count the symbols of the whole roll, symbols(roll, 'name'), or the first throw's faces "
                    "with count(initial(roll), face)")
    first = None
    for i, arg in enumerate(n.args):
        kind = builtin.argument(i)
        if kind is None or kind == ANY:
            got = inf.kind(arg)
        else:
            got = inf.want(arg, ARGUMENTS[kind], f"{n.name}()", hint=_ARGUMENT_HINTS.get(kind))
        first = got if i == 0 else first
    # initial(roll) of symbol dice is still symbol dice
    return SYMBOL_ROLL if builtin.result == ROLL and first == SYMBOL_ROLL else builtin.result


def _if(inf: _Infer, n: ast.Call) -> str:
    """``if(c, a, b)``: ``c`` yes/no; the kind the branches share."""
    parts = conditional(n)
    if parts is None:
        return UNKNOWN
    cond, then, other = parts
    inf.want(cond, (YES_NO,), "the condition of if()", E_NOT_YES_NO, "write a comparison, e.g. roll >= 10")
    yes, no = inf.kind(then), inf.kind(other)
    if yes != no and SYMBOL_ROLL in (yes, no):
        inf.symbol_number(then if yes == SYMBOL_ROLL else other)
        return UNKNOWN
    if UNKNOWN in (yes, no):
        return UNKNOWN
    if _plain(yes) != _plain(no):
        inf.problem(E_BRANCH_TYPES, f"the branches of '{inf.text(n)}' differ: {yes} or {no}", n,
                    "give both branches the same kind of value")
        return UNKNOWN
    return yes if yes == no else NUMBER


_RULES: dict[type, Callable[[_Infer, Any], str]] = {
    ast.Num: _num, ast.Str: _str, ast.Bool: _bool, ast.Name: _name, ast.Dice: _dice, ast.SetKeep: _set, ast.Neg: _neg,
    ast.Binary: _binary, ast.Compare: _compare, ast.Logic: _logic, ast.Not: _not, ast.Call: _call,
    ast.Group: _group, ast.Labeled: _group, ast.PoolKeep: _pool_keep,
}


def _table_kind(table: Table) -> str:
    if isinstance(table, (Ladder, Grid)):
        return NUMBER
    if isinstance(table, Tiers):
        return TEXT
    if isinstance(table, Ranges):
        kinds = {YES_NO if isinstance(r.value, bool) else NUMBER if isinstance(r.value, int) else TEXT
                 for r in table.rows}
        return kinds.pop() if len(kinds) == 1 else UNKNOWN
    return UNKNOWN


def infer(expr: Expr, env: Env) -> tuple[str, list[Problem]]:
    """The kind of ``expr``'s value, and the problems inside it."""
    inf = _Infer(expr, env)
    return inf.kind(expr.tree), inf.problems


def expect(expr: Expr | None, env: Env, kinds: tuple[str, ...], what: str) -> Iterator[Problem]:
    """The problems of ``expr``, and one more if its value is not of ``kinds``."""
    if expr is None:
        return
    got, problems = infer(expr, env)
    yield from problems
    if got == UNKNOWN or got in kinds:
        return
    if got == SYMBOL_ROLL:
        inf = _Infer(expr, env)
        inf.symbol_number(expr.tree)
        yield from inf.problems
        return
    if kinds == (YES_NO,):
        yield Problem(E_NOT_YES_NO, f"{what} must be yes/no, but '{expr.text}' gives {got}",
                      "write a comparison, e.g. roll >= 10", expr, (0, len(expr.text)))
    else:
        yield Problem(E_NOT_A_NUMBER, f"{what} must be a number, but '{expr.text}' gives {got}",
                      "write an arithmetic expression, e.g. skill - roll", expr, (0, len(expr.text)))


# ---- a check's names ------------------------------------------------------------------------

_INPUT_KINDS = {"integer": NUMBER, "boolean": YES_NO, "choice": TEXT, "dice_pool": POOL}


def check_env(check: Check, tables: Mapping[str, Table]) -> tuple[Env, list[Problem]]:
    """The kinds of every name of ``check`` (inputs, lets, rolls, chosen dice, the result,
    ``outcome``, ``success``), worked out in the order the check defines them; the problems
    found in the expressions that define them."""
    kinds: dict[str, str] = {}
    values: dict[str, tuple[str, ...]] = {}
    problems: list[Problem] = []
    symbols: dict[str, tuple[str, ...]] = {}
    env = Env(kinds, values, tables, symbols)
    for spec in check.inputs:
        kinds[spec.name] = _INPUT_KINDS.get(spec.type, UNKNOWN)
        if spec.type == "choice" and spec.choices:
            values[spec.name] = tuple(spec.choices)
    def roll_kinds(rolls: Iterable[tuple[str, Expr]]) -> None:
        nonlocal problems
        for name, e in rolls:
            got, found = infer(e, env)
            problems += found
            if name in check.faces_needed:
                problems += _number_branches(name, e, env)
            shown = _symbols_shown(e.tree)
            kinds[name] = SYMBOL_ROLL if shown is not None or got == SYMBOL_ROLL else ROLL
            symbols[name] = shown or ()

    roll_kinds((n, e) for n, e in check.rolls if n not in check.after_choice)  # the rest read chosen values
    for let in check.lets:
        candidates = [let.expr] if let.expr is not None else [c.value for c in let.best_of]
        found_kinds = set()
        for e in candidates:
            got, found = infer(e, env)
            problems += found
            found_kinds.add(_plain(got))
        for c in let.best_of:
            problems += expect(c.when, env, (YES_NO,), f"the condition of '{let.name}'")
        kinds[let.name] = found_kinds.pop() if len(found_kinds) == 1 else UNKNOWN
        alias = ast.bare(let.expr.tree) if let.expr is not None else None
        if kinds[let.name] == SYMBOL_ROLL and isinstance(alias, ast.Name):
            symbols[let.name] = symbols.get(alias.name, ())
    if check.choose is not None:
        kinds["chosen"] = kinds.get(check.choose.source, ROLL)
        for name, e in check.choose.values:
            got, found = infer(e, env)
            problems += found
            kinds[name] = got
    roll_kinds((n, e) for n, e in check.rolls if n in check.after_choice)
    kinds["result"] = infer(check.result, env)[0] if check.result is not None else result_kind(check)
    if kinds["result"] == SYMBOL_ROLL:
        kinds["result"] = UNKNOWN  # said once, at the result
    kinds["outcome"], kinds["success"] = TEXT, YES_NO
    values["outcome"] = tuple(check.outcome_names) + (NOT_ALLOWED,)
    return env, problems


def _number_branches(name: str, e: Expr, env: Env) -> Iterator[Problem]:
    """The branches of a roll's ``if()`` that give a number where another rolls dice, for a
    roll whose dice are read (``count(extra)``, ``extra: if(flag, 2d6, 3)``): the number has no
    dice to read. ``0`` is a roll of no dice, and an earlier roll keeps its own."""
    tree = ast.bare(e.tree)
    if conditional(tree) is None or not ast.has_dice(tree):
        return
    stack = [tree]
    while stack:
        node = ast.bare(stack.pop())
        parts = conditional(node)
        if parts is not None:
            stack += [parts[2], parts[1]]
            continue
        if ast.has_dice(node) or (isinstance(node, ast.Num) and node.value == 0):
            continue
        inf = _Infer(e, env)
        if inf.kind(node) != NUMBER:
            continue
        text = inf.text(node)
        yield Problem(E_BAD_OPERAND, f"roll '{name}' may be the number {text}, not dice, but its dice are read "
                      "(count(), largest_die(), initial(), ...)",
                      "write 0 (a roll of no dice, like 0d6) or a dice term, e.g. 1d6", e, node.span)


def _symbols_shown(tree: ast.Node) -> tuple[str, ...] | None:
    """The symbols a roll's dice show, if every die it rolls is a symbol die; None if not."""
    dice = [n.die for n in ast.walk(tree) if isinstance(n, ast.Dice)]
    if not dice or not all(d is not None and d.symbols for d in dice):
        return None
    return tuple(dict.fromkeys(s for d in dice if d is not None and d.symbols for face in d.symbols for s in face))


def result_kind(check: Check) -> str:
    """What ``result`` is in a check with no ``result:``: nothing, unless a gate or an outcome
    rule sets it (then its kind is not known here)."""
    if check.result is None and all(o.result is None for o in check.outcomes) \
            and all(g.result is None for g in check.gates):
        return NOTHING
    return UNKNOWN


def check_problems(check: Check, tables: Mapping[str, Table]) -> Iterator[Problem]:
    """Every type problem of one check, each once."""
    env, found = check_env(check, tables)
    yield from found
    results = (NUMBER, ROLL)
    for gate in check.gates:
        yield from expect(gate.when, env, (YES_NO,), "the gate condition")
        yield from expect(gate.result, env, results, "the gate's result")
    yield from expect(check.secret, env, (YES_NO,), "secret")
    if check.choose is not None:
        yield from expect(check.choose.prefer, env, (YES_NO,), "prefer")
        yield from expect(check.choose.pick_expr, env, NUMERIC, "pick")
    yield from expect(check.result, env, results, "the result")
    for rule in check.outcomes:
        yield from expect(rule.when, env, (YES_NO,), f"the condition of outcome '{rule.name}'")
        if not isinstance(rule.success, bool):
            yield from expect(rule.success, env, (YES_NO,), f"the success of outcome '{rule.name}'")
        yield from expect(rule.result, env, results, f"the result of outcome '{rule.name}'")
    for tag in check.tags:
        yield from expect(tag.when, env, (YES_NO,), f"the condition of tag '{tag.name}'")
    yield from expect(check.result_sign, env, (YES_NO,), "result_sign")


def check_expressions(check: Check) -> Iterator[Expr]:
    """Every expression of ``check``."""
    yield from (e for _, e in check.rolls)
    for let in check.lets:
        yield from [let.expr] if let.expr is not None else []
        for c in let.best_of:
            yield from [c.value] + ([c.when] if c.when is not None else [])
    if check.choose is not None:
        yield from (e for _, e in check.choose.values)
        yield from [check.choose.prefer] if check.choose.prefer is not None else []
        yield from [check.choose.pick_expr] if check.choose.pick_expr is not None else []
    for gate in check.gates:
        yield from [gate.when] + ([gate.result] if gate.result is not None else [])
    yield from (e for e in (check.secret, check.result) if e is not None)
    for rule in check.outcomes:
        yield from (e for e in (rule.when, rule.result) if e is not None)
        yield from [] if isinstance(rule.success, bool) else [rule.success]
    yield from (t.when for t in check.tags)
    yield from [check.result_sign] if check.result_sign is not None else []


def shared_fine(problems: list[Problem], checks: Iterable[Check]) -> list[Problem]:
    """``problems`` less the literals that fit elsewhere: an expression shared by several
    checks (a YAML alias) may compare a choice input with a value only some of them offer
    (``kind == 'passive'`` in a check whose only kind is 'secret'); it is a mistake only if
    no check that has the same expression offers the value."""
    uses: dict[str, int] = {}
    for check in checks:
        for e in check_expressions(check):
            uses[e.text] = uses.get(e.text, 0) + 1
    flagged: dict[tuple[str, tuple[int, int]], int] = {}
    for p in problems:
        if p.code == E_UNKNOWN_LITERAL:
            flagged[(p.expr.text, p.span)] = flagged.get((p.expr.text, p.span), 0) + 1
    return [p for p in problems
            if p.code != E_UNKNOWN_LITERAL or flagged[(p.expr.text, p.span)] >= uses.get(p.expr.text, 0)]


def expressions_in(value: Any) -> Iterator[Expr]:
    """Every expression held by a procedure's spec, whatever its kind: the spec's fields and
    the tuples, mappings and records inside them (a tie-breaker, a round rule)."""
    if isinstance(value, Expr):
        yield value
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from expressions_in(v)
    elif isinstance(value, (tuple, list)):
        for v in value:
            yield from expressions_in(v)
    elif is_record(value):
        for name in fields(value):
            yield from expressions_in(getattr(value, name))


def procedure_env(checks: Iterable[Check], inputs: Iterable[Input], tables: Mapping[str, Table]) -> Env:
    """What a procedure's expressions can be sure of: the outcome names of its checks (for
    ``outcome``, ``roller_outcome`` and the like) and its own inputs' kinds. The rest of its
    names (state, party values) are left unknown."""
    checks = list(checks)
    outcomes = tuple(dict.fromkeys(n for c in checks for n in c.outcome_names)) + (NOT_ALLOWED,)
    kinds = {i.name: _INPUT_KINDS.get(i.type, UNKNOWN) for i in inputs}
    if checks and all(result_kind(c) == NOTHING and c.result is None for c in checks):
        for name in ("result", "roller_result", "leader_result", "runner_up"):
            kinds[name] = NOTHING
    values: dict[str, tuple[str, ...]] = {i.name: tuple(i.choices) for i in inputs if i.type == "choice" and i.choices}
    for name in ("outcome", "roller_outcome", "leader_outcome", "runner_up_outcome"):
        values.setdefault(name, outcomes)
        kinds.setdefault(name, TEXT)
    return Env(kinds, values, tables)


def procedure_problems(expressions: Iterable[Expr], conditions: Iterable[tuple[str, Expr]],
                       env: Env, numbers: Iterable[tuple[str, Expr]] = ()) -> Iterator[Problem]:
    """The problems of a procedure's expressions; ``conditions`` must give yes/no, ``numbers``
    a number."""
    for e in expressions:
        yield from infer(e, env)[1]
    for what, e in numbers:
        got = infer(e, env)[0]
        if got not in (UNKNOWN, *NUMERIC):
            yield Problem(E_NOT_A_NUMBER, f"{what} must be a number, but '{e.text}' gives {got}",
                          f"to count it, write if({e.text}, 1, 0)" if got == YES_NO
                          else "write an expression that gives a number", e, (0, len(e.text)))
    for what, e in conditions:
        got = infer(e, env)[0]
        if got not in (UNKNOWN, YES_NO):
            yield Problem(E_NOT_YES_NO, f"{what} must be yes/no, but '{e.text}' gives {got}",
                          "write a comparison, e.g. progress >= 10", e, (0, len(e.text)))


def text_problems(expr: Expr, allowed: tuple[str, ...], what: str) -> Iterator[Problem]:
    """A text ``expr`` may give (a literal, or a branch of ``if()``) that is not ``allowed``."""
    stack: list[ast.Node] = [expr.tree]
    while stack:
        node = ast.bare(stack.pop())
        parts = conditional(node)
        if parts is not None:
            stack += [parts[1], parts[2]]
        elif isinstance(node, ast.Str) and node.value not in allowed:
            import difflib  # only when there is an error to explain

            near = difflib.get_close_matches(node.value, allowed, n=1, cutoff=0.6)
            yield Problem(E_UNKNOWN_LITERAL, f"{what} gives '{node.value}', which is not one of {', '.join(allowed)}",
                          f"did you mean '{near[0]}'?" if near else f"write one of: {', '.join(allowed)}",
                          expr, node.span)
