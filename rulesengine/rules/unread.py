"""Work that nothing reads: warnings for parts of a check that change nothing it answers.

A homebrewer's mistake often leaves the file valid and its answers wrong without a word: a
re-roll written as a second roll that the result never reads, an input the rules forgot, a
``choose`` whose chosen dice no rule reads (the result reads the whole roll instead), an
outcome rule that an earlier, broader rule always takes first. Each is found here from the
model alone, before anything is rolled (whether a tag can ever be set needs the odds:
:mod:`rulesengine.run.tag_reach`):

* **W520** a roll, and **W525** a value (``let``), that nothing live reads: not the result,
  an outcome rule, a tag, ``result_sign``, a gate, ``secret``, ``report``, a procedure's
  expressions, nor a roll or value that one of those reads;
* **W521** an input that nothing live reads;
* **W522** a ``choose`` none of whose values the result, outcome rules, tags, ``result_sign``,
  ``report`` or a procedure reads;
* **W524** an outcome rule whose condition holds only where the rules above it already
  matched: the same condition again, a narrower comparison of the same value (``x >= 5``
  after ``x >= 3``), a conjunction with an earlier condition, or a range the earlier
  comparisons of one value cover together. Rules after a catch-all are W501's.

Each is reported at the thing that does no work, with a hint naming the fix.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Iterable, Iterator

from ..codes import (W_SHADOWED_OUTCOME, W_UNREACHABLE_OUTCOME, W_UNREAD_CHOOSE, W_UNREAD_INPUT, W_UNREAD_ROLL,
                     W_UNREAD_VALUE)
from ..dice import ast
from ..errors import Diagnostic
from ..records import fields, is_record
from .document import Document
from .model import Check, Expr, OutcomeRule, RulesetModel, let_exprs
from .procedures import party_expressions


def unread_work(model: RulesetModel, doc: Document) -> list[Diagnostic]:
    """Every roll, value, input and ``choose`` nothing reads, and every outcome rule an
    earlier rule shadows, of every check of ``model``."""
    read_by_procedures = _read_by_procedures(model)
    out: list[Diagnostic] = []
    for name, check in model.checks.items():
        out += _unread_parts(name, check, doc, read_by_procedures.get(name, set()))
        out += _shadowed_rules(name, check, doc)
    return out


def with_unread_work(diagnostics: list[Diagnostic], found: list[Diagnostic]) -> list[Diagnostic]:
    """``diagnostics`` and the work nothing reads ``found``, an outcome rule that another
    shadows (W524, which says which) no longer also reported as unreachable (W503)."""
    shadowed = {d.location.pointer.rsplit("/", 1)[0] for d in found
                if d.code == W_SHADOWED_OUTCOME and d.location.pointer}
    return [d for d in diagnostics
            if not (d.code == W_UNREACHABLE_OUTCOME and d.location.pointer in shadowed)] + found


def names_read(exprs: Iterable[Expr | bool | None]) -> set[str]:
    """Every name the expressions among ``exprs`` read (a rule's literal ``true`` reads none)."""
    out: set[str] = set()
    for e in exprs:
        if isinstance(e, Expr):
            out |= e.names
    return out


def value_reads(check: Check) -> dict[str, set[str]]:
    """The names each value (``let``) and each roll of ``check`` reads."""
    reads: dict[str, set[str]] = {}
    for let in check.lets:
        reads[let.name] = names_read(let_exprs(let))
    for rname, e in check.rolls:
        reads[rname] = set(e.names)
    return reads


def name_reads(check: Check) -> dict[str, set[str]]:
    """What every name of ``check`` reads, for following a name back to the inputs it depends
    on: each value and roll (:func:`value_reads`); what ``choose`` makes (the chosen dice and
    each chosen value read the dice chosen from, how many are picked and the preference); and
    ``result``, ``outcome`` and ``success``, which read the result and every outcome rule."""
    deps = value_reads(check)
    if check.choose is not None:
        chosen = {check.choose.source} | names_read([check.choose.pick_expr, check.choose.prefer])
        for vname, e in check.choose.values:
            deps[vname] = set(e.names) | chosen
        deps["chosen"] = deps["rest"] = chosen
    deps["result"] = deps["outcome"] = deps["success"] = names_read(
        [check.result] + [x for o in check.outcomes for x in (o.when, o.result, o.success)])
    return deps


def _read_by_procedures(model: RulesetModel) -> dict[str, set[str]]:
    """For each check, the names of it that a procedure's expressions read (by any alias)."""
    out: dict[str, set[str]] = {}
    for proc in model.procedures.values():
        for check, exprs, aliases in party_expressions(proc):
            names = names_read(exprs)
            out.setdefault(check, set()).update(names, (aliases.get(n, n) for n in names))
    return out


def _roots(check: Check, by_procedures: set[str]) -> tuple[set[str], set[str]]:
    """What the check's answers read directly: the names read by what it answers with
    (result, outcome rules, tags, result_sign, gates, secret, report, procedures), and the
    names the chosen values are read by (the same, less what ``choose`` itself reads)."""
    answers = set(check.report) | by_procedures | names_read(
        [check.result, check.result_sign, check.secret]
        + [x for o in check.outcomes for x in (o.when, o.result, o.success)]
        + [t.when for t in check.tags])
    for g in check.gates:
        answers |= names_read([g.when, g.result, *(e for _, e in g.rolls)])
    everything = set(answers)
    if check.choose is not None:
        everything |= names_read([e for _, e in check.choose.values] + [check.choose.prefer, check.choose.pick_expr]
                                 ) | {check.choose.source}
    return everything, answers


def _live(check: Check, roots: set[str]) -> tuple[set[str], dict[str, list[str]]]:
    """The names the answers read, through values and rolls; and for every name, the values
    and rolls that read it (to say "read only by x, which nothing reads")."""
    reads = value_reads(check)
    readers: dict[str, list[str]] = {}
    for who, names in reads.items():
        for n in names:
            readers.setdefault(n, []).append(who)
    live = set(roots)
    pending = list(roots)
    while pending:
        for n in reads.get(pending.pop(), ()):
            if n not in live:
                live.add(n)
                pending.append(n)
    return live, readers


def _no_dice(tree: ast.Node) -> bool:
    """A roll written as no dice at all (``0d6``)."""
    tree = ast.bare(tree)
    return isinstance(tree, ast.Dice) and isinstance(tree.count, ast.Num) and tree.count.value == 0


def _unread_parts(name: str, check: Check, doc: Document, by_procedures: set[str]) -> Iterator[Diagnostic]:
    roots, answers = _roots(check, by_procedures)
    live, readers = _live(check, roots)

    def why(n: str) -> str:
        dead = [r for r in readers.get(n, ()) if r not in live]
        if not dead:
            return "nothing reads it"
        return f"only {_listed(dead)} read{'s' if len(dead) == 1 else ''} it, and nothing reads " + \
            ("that" if len(dead) == 1 else "those")

    for rname, e in check.rolls:
        if rname not in live and not _no_dice(e.tree):  # `roll: 0d6`: a check decided without dice, on purpose
            yield Diagnostic(
                W_UNREAD_ROLL, f"check '{name}': roll '{rname}' is rolled and never read ({why(rname)}): whatever it "
                "shows, every answer is the same",
                doc.location(e.pointer, key=True),
                f"read '{rname}' where the rules mean it (the result, an outcome rule, a value), list it under "
                "report: to show it, or remove the roll", "warning")
    for let in check.lets:
        if let.name not in live:
            yield Diagnostic(
                W_UNREAD_VALUE, f"check '{name}': value '{let.name}' is worked out and never read ({why(let.name)}): "
                "no answer and no roll shows it",
                doc.location(let.pointer, key=True),
                f"read '{let.name}' where the rules mean it, list it under report: to show it, or remove it",
                "warning")
    for spec in check.inputs:
        if spec.name not in live:
            yield Diagnostic(
                W_UNREAD_INPUT, f"check '{name}': input '{spec.name}' is never read ({why(spec.name)}): every value "
                "given for it gives the same answers",
                doc.location(spec.pointer, key=True),
                f"read '{spec.name}' where the rules mean it (a value, the roll, the result, a condition), "
                "or remove the input", "warning")
    choose = check.choose
    # a chosen value counts as read where the answers read it, or a roll made after the choice does
    answers = answers | names_read([e for r, e in check.rolls if r in check.after_choice and r in live])
    if choose is not None and not any(v in answers for v, _ in choose.values):
        values = [v for v, _ in choose.values]
        instead = f"; the rules read '{choose.source}' instead, every die of it" if choose.source in answers else ""
        yield Diagnostic(
            W_UNREAD_CHOOSE, f"check '{name}': the dice chosen from '{choose.source}' are never read: nothing but "
            f"choose reads {_listed(values)}{instead}, so the choice changes no answer",
            doc.location(choose.pointer, key=True),
            f"read a chosen value where the rules mean the chosen dice (e.g. result: {values[0]}), "
            "or remove choose" if values else "remove choose", "warning")


def _listed(names: list[str]) -> str:
    quoted = [f"'{n}'" for n in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


# ---- outcome rules an earlier rule shadows ----------------------------------------------------


def _shadowed_rules(name: str, check: Check, doc: Document) -> Iterator[Diagnostic]:
    earlier: list[OutcomeRule] = []
    for rule in check.outcomes:
        if rule.when is None:
            return  # the rules after a catch-all are W501's
        if earlier and not _always_false(rule.when.tree):
            by = _shadowing(rule.when.tree, earlier)
            if by:
                rules = _listed([r.name for r in by])
                assert by[0].when is not None
                above = (f"{rules} above it ({by[0].when}) matches" if len(by) == 1 else
                         f"{rules} above it together match")
                yield Diagnostic(
                    W_SHADOWED_OUTCOME, f"outcome rule '{rule.name}' of check '{name}' can never apply: {above} "
                    "every roll it would, and the first rule that matches wins",
                    doc.location(rule.when.pointer),
                    f"give it its own condition (it repeats the condition of {rules}), or remove it"
                    if len(by) == 1 and _key(by[0].when.tree) == _key(rule.when.tree) else
                    f"put the narrower rule first (move '{rule.name}' above {rules}), or fix its condition",
                    "warning")
        earlier.append(rule)


def _shadowing(tree: ast.Node, earlier: list[OutcomeRule]) -> list[OutcomeRule]:
    """The fewest earlier rules (one, else all those whose conditions compare what ``tree``
    does) whose conditions together hold whenever ``tree`` does; [] when none is shown to."""
    for rule in earlier:
        assert rule.when is not None
        if _implies(tree, [rule.when.tree]):
            return [rule]
    whens = [r.when.tree for r in earlier if r.when is not None]
    if _implies(tree, whens):
        subjects = {_key(s) for s, _ in _atoms(tree)}
        return [r for r in earlier if r.when is not None and subjects & {_key(s) for s, _ in _atoms(r.when.tree)}]
    return []


def _strip(node: ast.Node) -> ast.Node:
    while isinstance(node, (ast.Group, ast.Labeled)):
        node = node.inner
    return node


def _key(node: Any) -> Any:
    """A node's value without its position: two conditions written alike have one key."""
    if isinstance(node, (ast.Group, ast.Labeled)):
        return _key(node.inner)
    if is_record(node):
        return (type(node).__name__,) + tuple(_key(getattr(node, f)) for f in fields(node) if f != "span")
    if isinstance(node, tuple):
        return tuple(_key(x) for x in node)
    return node


def _always_false(node: ast.Node) -> bool:
    node = _strip(node)
    return isinstance(node, ast.Bool) and not node.value


def _implies(a: ast.Node, bs: list[ast.Node]) -> bool:
    """Whether ``a`` holding means one of ``bs`` holds, shown from their form alone (sound,
    not complete: False means "not shown")."""
    a = _strip(a)
    if isinstance(a, ast.Logic):
        if a.op == "or":
            return _implies(a.left, bs) and _implies(a.right, bs)
        if _implies(a.left, bs) or _implies(a.right, bs):
            return True
    flat = [x for b in bs for x in _disjuncts(b)]
    for b in flat:
        if isinstance(b, ast.Bool) and b.value:
            return True
        if _key(a) == _key(b):
            return True
        if isinstance(b, ast.Logic) and b.op == "and" and _implies(a, [b.left]) and _implies(a, [b.right]):
            return True
    return _covered(a, flat)


def _disjuncts(node: ast.Node) -> Iterator[ast.Node]:
    node = _strip(node)
    if isinstance(node, ast.Logic) and node.op == "or":
        yield from _disjuncts(node.left)
        yield from _disjuncts(node.right)
    else:
        yield node


# A comparison of a value with a number, as the whole numbers it allows (every value the
# language compares is a whole number: ``/`` rounds): (low, high), None for no bound.
Interval = tuple[int | None, int | None]
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
_NEGATE = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}


def _number(node: ast.Node) -> int | None:
    node = _strip(node)
    if isinstance(node, ast.Num):
        return node.value
    if isinstance(node, ast.Neg):
        inner = _number(node.operand)
        return None if inner is None else -inner
    return None


def _comparison(node: ast.Node) -> tuple[ast.Node, str, int] | None:
    """``x op n`` for a comparison of anything with a number (either side, or negated)."""
    node = _strip(node)
    negate = False
    while isinstance(node, ast.Not):
        negate, node = not negate, _strip(node.operand)
    if not isinstance(node, ast.Compare):
        return None
    right, left = _number(node.right), _number(node.left)
    if right is not None and left is None:
        subject, op, n = node.left, node.op, right
    elif left is not None and right is None:
        subject, op, n = node.right, _FLIP[node.op], left
    else:
        return None
    return subject, (_NEGATE[op] if negate else op), n


def _atoms(node: ast.Node) -> Iterator[tuple[ast.Node, str]]:
    """The subjects of the comparisons with numbers inside a condition."""
    c = _comparison(node)
    if c is not None:
        yield c[0], c[1]
        return
    node = _strip(node)
    if isinstance(node, ast.Logic):
        yield from _atoms(node.left)
        yield from _atoms(node.right)


def _intervals(op: str, n: int) -> list[Interval]:
    table: dict[str, list[Interval]] = {
        "<": [(None, n - 1)], "<=": [(None, n)], ">": [(n + 1, None)], ">=": [(n, None)],
        "==": [(n, n)], "!=": [(None, n - 1), (n + 1, None)]}
    return table[op]


def _covered(a: ast.Node, bs: list[ast.Node]) -> bool:
    """``a`` a comparison of a value with a number, and the comparisons of that value among
    ``bs`` cover every number ``a`` allows."""
    ca = _comparison(a)
    if ca is None:
        return False
    subject = _key(ca[0])
    cover: list[Interval] = []
    for b in bs:
        cb = _comparison(b)
        if cb is not None and _key(cb[0]) == subject:
            cover += _intervals(cb[1], cb[2])
    return bool(cover) and all(_inside(i, cover) for i in _intervals(ca[1], ca[2]))


def _inside(want: Interval, cover: list[Interval]) -> bool:
    """Whether the union of ``cover`` holds every whole number of ``want``: a sweep from its
    low end, each step to the furthest end of the intervals holding the next number."""
    lo, hi = want
    if lo is None:
        ends = [c[1] for c in cover if c[0] is None]
        if not ends:
            return False
        if None in ends:
            return True
        nxt = max(e for e in ends if e is not None)
    else:
        nxt = lo - 1  # every number up to nxt is covered
    while hi is None or nxt < hi:
        ends = [c[1] for c in cover if (c[0] is None or c[0] <= nxt + 1) and (c[1] is None or c[1] > nxt)]
        if not ends:
            return False
        if None in ends:
            return True
        nxt = max(e for e in ends if e is not None)
    return True
