"""Validated ruleset data → the frozen model, with the semantic checks only a reader of
the whole file can make.

Runs after the JSON Schema (so shapes and types are right) and reports, each at its file
position: expressions that don't parse (at the column inside the YAML string), names and
functions that don't resolve in their scope, dice outside a check's rolls, gates that
look at the dice, outcome names that don't exist, inputs whose default breaks its bounds,
tables whose ranges overlap or whose labels repeat, and unreachable outcome rules.
"""

from __future__ import annotations

from ..records import replace
from typing import TYPE_CHECKING, Any
from collections.abc import Callable, Sequence

from ..codes import (E_DICE_OUTSIDE_ROLL, E_DUPLICATE,
                     E_EXPRESSION, E_GATE_AFTER_ROLL, E_UNKNOWN_LITERAL, E_UNKNOWN_NAME, E_UNKNOWN_REFERENCE,
                     E_UNKNOWN_VARIABLE, W_DEPRECATED_REPORT_NAME, W_UNREACHABLE)
from ..errors import DiceEvalError, Diagnostic, Location, RulesEngineError
from ..dice.evaluate import compile_expression
from ..dice.sampling import Sampling
from ..dice import ast
from ..dice.builtins import FUNCTIONS, SYMBOL_COUNTS, reads
from ..dice.parser import TreeSet, check_modifiers, closest, locate, parse
from ..limits import DEFAULT_LIMITS, Limits
from .model import (RESULT_KEYS, Candidate, Check, Expr, Gate, Input, Let,
                    OutcomeRule, Procedure, RulesetModel, Source, Table, TagRule,
                    Tiers)
from .choose import build_choose, chosen_names, rolls_after_choice
from .document import Document
from .faces import face_views, faces_needed, initial_needed, sizes_needed, with_reads
from .scope import Scope, escape_pointer
from .table_functions import ruleset_functions, table_functions
from .inputs import build_input
from .lints import expression_lints, symbol_lints
from .symbol_dice import declared_dice, declared_symbols

if TYPE_CHECKING:  # the dialects are imported where a file is written in one (start-up)
    from ..dice.dialects import Translation

__all__ = ["Builder", "RESERVED", "RESULT_KEYS", "ruleset_functions", "ruleset_model"]  # re-exported for callers

# Semantic error codes (docs/errors.md).

RESERVED = ("result", "outcome", "success", "chosen")
_AFTER_THE_LETS = {name: f"'{name}' is worked out after the values (let): work the total out in a value "
                         f"(total: roll + bonus), write result: total, and read total here"
                   for name in ("result", "outcome", "success")}
"""Why a value can't read the check's result, outcome or success: the hint of E502 there."""



class Builder:
    """Builds one ruleset, collecting every diagnostic instead of stopping at the first."""

    def __init__(self, doc: Document, limits: Limits = DEFAULT_LIMITS) -> None:
        self.doc = doc
        self.limits = limits
        dialect = doc.data.get("dialect") if isinstance(doc.data, dict) else None
        self.dialect: str | None = dialect if isinstance(dialect, str) else None
        self.diagnostics: list[Diagnostic] = []
        self.functions: dict = dict(FUNCTIONS)
        dice = doc.data.get("dice") if isinstance(doc.data, dict) else None
        # The file's symbol dice, and those declared with an error (reported once, where declared)
        self.named_dice, self.broken_dice = declared_dice(dice, limits, self)
        # Symbols the file's dice show, and each symbol a symbols() call names (checked at the end).
        self.symbols_shown: set[str] = declared_symbols(dice)
        # (symbol, pointer, (column in the scalar, length) where the text is a string)
        self.symbols_named: list[tuple[str, str, tuple[int, int] | None]] = []
        self._sampling = Sampling()
        self.tables: dict[str, Table] = {}  # built first (see build)
        self.checks: dict[str, Check] = {}  # built before any procedure
        self.parsed: dict[str, None] = {}  # every text parsed, in order (the file's set of trees: see build)

    # ---- reporting ---------------------------------------------------------------------
    def error(self, code: str, message: str, pointer: str, hint: str | None = None,
              key: bool = False, location: Location | None = None) -> None:
        self.diagnostics.append(Diagnostic(code, message, location or self.doc.location(pointer, key=key),
                                           hint, "error"))

    def warning(self, code: str, message: str, pointer: str, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(code, message, self.doc.location(pointer), hint, "warning"))

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)

    # ---- expressions -------------------------------------------------------------------
    def expr(self, value: Any, pointer: str, scope: Scope, *, dice: bool = False,
             what: str = "expression") -> Expr | None:
        """The expression at ``pointer`` reading ``scope`` (dice only with ``dice``): parsed from
        the file's dialect, resolved, compiled; None where it has a mistake (each reported)."""
        text = value if isinstance(value, str) else _literal(value)
        if text is None:
            self.error(E_EXPRESSION, f"{what} must be an expression, not {value!r}", pointer,
                       "write it as text, in quotes, e.g. \"roll >= 10\"")
            return None
        parsed = self._parse(value, text, pointer)
        if parsed is None:
            return None
        tree, text, translation = parsed
        at: Callable[[int], int] = translation.source_offset if translation is not None else _same
        nodes = tuple(ast.walk(tree))  # one walk feeds every reading of the tree below
        expression_lints(self, value, pointer, nodes, translation, at)
        self._note_symbols(nodes, value, pointer, at)
        if not self._names_known(nodes, value, pointer, scope, dice, what, at):
            return None
        try:
            run = compile_expression(tree, self._sampling, self.limits, text, self.functions)
        except RulesEngineError as exc:  # e.g. abs() with no argument
            col = exc.location.column
            loc = (self.doc.scalar_column(pointer, at(col - 1), length=exc.location.length)
                   if col is not None and isinstance(value, str) else self.doc.location(pointer))
            self.diagnostics.append(Diagnostic(E_EXPRESSION, exc.message, loc, exc.hint, "error"))
            return None
        return Expr(text, tree, pointer, run, frozenset(n.name for n in nodes if isinstance(n, ast.Name)),
                    translation.source_offset if translation else None)

    def _parse(self, value: Any, text: str, pointer: str) -> tuple[ast.Node, str, Translation | None] | None:
        """The tree of ``text`` (named dice written in), the text read (this language's) and
        the dialect's translation; None where it does not parse, reported at its column."""
        translation = None
        try:
            if self.dialect is not None and isinstance(value, str):
                from ..dice.dialects import translate  # only for a file written in a dialect

                translation = translate(text, self.dialect)
                text = translation.native
            tree = parse(text, self.limits)
            self.parsed[text] = None
            return self.with_named_dice(tree, text), text, translation
        except RulesEngineError as exc:
            if translation is not None:
                translation.relocate(exc)
            col = exc.location.column
            loc = (self.doc.scalar_column(pointer, col - 1, length=exc.location.length)
                   if col is not None and isinstance(value, str) else self.doc.location(pointer))
            hint = exc.hint
            if pointer.rsplit("/", 1)[-1].isdigit() and text.count("(") != text.count(")") \
                    and "[" in (loc.source_line or ""):
                # an item of a [ ] list with its brackets unbalanced: YAML cut it at a comma
                hint = "inside [ ] a comma ends an item, so quote an expression that holds commas: ['if(a, b, c)', …]"
            self.diagnostics.append(Diagnostic(exc.code if exc.code.startswith("E2") else E_EXPRESSION,
                                               exc.message, loc, hint, "error", getattr(exc, "limit", None)))
            return None

    def _note_symbols(self, nodes: Sequence[ast.Node], value: Any, pointer: str, at: Callable[[int], int]) -> None:
        """The symbols the dice of a tree (``nodes``, :func:`ast.walk`'s) show, and those its
        ``symbols()`` calls name (checked once the whole file is read)."""
        for node in nodes:
            if isinstance(node, ast.Dice) and node.die is not None and node.die.symbols:
                self.symbols_shown.update(s for f in node.die.symbols for s in f)
            elif isinstance(node, ast.Call) and reads(node) == SYMBOL_COUNTS:
                self.symbols_named += [(a.value, pointer, (at(a.span[0]), a.span[1] - a.span[0])
                                        if isinstance(value, str) else None)
                                       for a in node.args[1:] if isinstance(a, ast.Str)]

    def _names_known(self, nodes: Sequence[ast.Node], value: Any, pointer: str, scope: Scope, dice: bool,
                     what: str, at: Callable[[int], int]) -> bool:
        """Whether every name, function and die of a tree (``nodes``, :func:`ast.walk`'s) may
        be read where it is written (each one that may not is reported at its column)."""
        def where(node: ast.Node, length: int) -> Location | None:
            return self.doc.scalar_column(pointer, at(node.span[0]), length=length) if isinstance(value, str) else None

        ok = True
        said: set[str] = set()  # each unknown name said once an expression, at its first use
        for node in nodes:
            if isinstance(node, ast.Name) and node.name not in scope.names:
                ok = False
                if node.name in said:
                    continue
                said.add(node.name)
                near = closest(node.name, list(scope.names))
                self.error(E_UNKNOWN_NAME, f"unknown name '{node.name}' in {what}", pointer,
                           scope.hint_for(node.name, near), location=where(node, len(node.name)))
            elif isinstance(node, ast.Call) and node.name not in self.functions:
                near = closest(node.name, list(self.functions))
                self.error(E_UNKNOWN_NAME, f"unknown function '{node.name}' in {what}", pointer,
                           f"did you mean '{near}'?" if near else None, location=where(node, len(node.name)))
                ok = False
            elif isinstance(node, ast.Dice) and not dice:
                self.error(E_DICE_OUTSIDE_ROLL, f"dice in {what}: dice are rolled only in a check's roll or rolls",
                           pointer, "declare the dice under 'rolls' and use the roll's name here",
                           location=where(node, node.span[1] - node.span[0]))
                ok = False
        return ok

    # ---- dice declared by name ---------------------------------------------------------
    def with_named_dice(self, tree: ast.Node, text: str) -> ast.Node:
        """``tree`` with the faces of the dice it names (``3d{ability}``) written in; an
        unknown name, or a modifier the die can't take, is the expression's error."""
        def resolve(node: ast.Dice) -> ast.Dice:
            if node.die is None or node.die.declared:
                return node
            die = self.named_dice.get(node.die.name or "")
            if die is None and node.die.name in self.broken_dice:
                raise DiceEvalError(f"{node.die.text} can't be rolled: its faces under dice: have an error",
                                    locate(text, *node.span), "fix the error reported where the die is declared",
                                    E_UNKNOWN_VARIABLE)
            if die is None:
                near = closest(node.die.name or "", list(self.named_dice))
                raise DiceEvalError(f"unknown die {node.die.text}", locate(text, *node.span),
                                    f"did you mean d{{{near}}}?" if near else
                                    "declare it under dice: at the top of the file (docs/ruleset-language.md)",
                                    E_UNKNOWN_VARIABLE)
            check_modifiers(die, node.modifiers, text)
            return replace(node, die=die)

        return ast.map_dice(tree, resolve)

    # ---- the whole file ----------------------------------------------------------------
    def build(self) -> RulesetModel | None:
        """The model of the file, built in the order its parts see each other (tables, checks,
        procedures); None once any error is reported.

        The syntax trees of the file's expressions are read from the disk store as one set,
        and kept as one once built (:class:`~rulesengine.dice.parser.TreeSet`): a file read
        again costs one read of the store, not one per expression."""
        trees = TreeSet(self.doc.text, self.limits)
        try:
            return self._build()
        finally:
            trees.keep(self.parsed)

    def _build(self) -> RulesetModel | None:
        data = self.doc.data
        self.tables = tables = self.build_tables(data.get("tables") or {})
        checks = {}
        for name, spec in (data.get("checks") or {}).items():
            check = self.check(name, spec, f"/checks/{escape_pointer(name)}")
            if check is not None:
                checks[name] = check
        self.checks = checks
        procedures = {}
        for name, spec in (data.get("procedures") or {}).items():
            if name in checks:
                self.error(E_DUPLICATE, f"procedure '{name}' has the name of a check",
                           f"/procedures/{escape_pointer(name)}", "rename the procedure or the check", key=True)
            proc = self.procedure(name, spec, f"/procedures/{escape_pointer(name)}")
            if proc is not None:
                procedures[name] = proc
        self.read_by_procedures(checks, procedures)
        if self.ok:  # types are worked out on a model whose every expression was built
            from .tables import check_table_keys  # the whole file's checks (start-up: rules/verdicts.py)
            from .types import expressions_in
            self.type_check(tables, checks, procedures)
            check_table_keys(self, tables, [e for part in (*checks.values(), *procedures.values())
                                            for e in expressions_in(part)])
        self.check_symbols_named()
        symbol_lints(self)
        return ruleset_model(self.doc, tables, checks, procedures) if self.ok else None

    def build_tables(self, specs: dict) -> dict[str, Table]:
        """The file's tables, and the functions that read them (none may take a built-in's name)."""
        tables: dict[str, Table] = {}
        for name, spec in specs.items():
            from .tables import build_table  # only for a file with tables (start-up: rules/verdicts.py)
            table = build_table(self, name, spec, f"/tables/{escape_pointer(name)}")
            if table is not None:
                tables[name] = table
        for name in tables:
            if name in FUNCTIONS:
                self.error(E_DUPLICATE, f"table '{name}' has the name of a built-in function",
                           f"/tables/{escape_pointer(name)}", "rename the table", key=True)
        self.functions.update(table_functions(tables))
        return tables

    @staticmethod
    def read_by_procedures(checks: dict[str, Check], procedures: dict[str, Procedure]) -> None:
        """A procedure's rules may look at the dice of its check's rolls (``highest(roll)``,
        ``count(roll, 6)`` in round rules): exact odds of the check then keep those rolls'
        dice, as its own rules would. ``checks`` is updated in place."""
        from .procedures import party_expressions
        for proc in procedures.values():
            for check_name, exprs, aliases in party_expressions(proc):
                check = checks.get(check_name)
                if check is not None:
                    more = faces_needed(check, exprs, aliases) - check.faces_needed
                    views = face_views(check, exprs, aliases, dict(check.face_views), beside=True)
                    first = check.initial_needed | initial_needed(check, exprs, aliases)
                    sizes = check.sizes_needed | sizes_needed(check, exprs, aliases)
                    if more or views != dict(check.face_views) or first != check.initial_needed \
                            or sizes != check.sizes_needed:
                        checks[check_name] = check = replace(
                            check, faces_needed=check.faces_needed | more, face_views=tuple(sorted(views.items())),
                            initial_needed=first, sizes_needed=sizes,
                            view_sources=(*check.view_sources, (tuple(exprs), tuple(sorted(aliases.items())))))

    def check_symbols_named(self) -> None:
        """Each symbol a ``symbols()`` call names must be shown by some die of the file."""
        for symbol, pointer, where in self.symbols_named:
            if symbol not in self.symbols_shown:
                near = closest(symbol, sorted(self.symbols_shown))
                self.error(E_UNKNOWN_LITERAL, f"no die of this ruleset shows the symbol '{symbol}'", pointer,
                           f"did you mean '{near}'?" if near else
                           "symbols are printed on symbol dice: d{[], [hit]} or a die declared under dice:",
                           location=None if where is None else self.doc.scalar_column(pointer, where[0],
                                                                                      length=where[1]))

    # ---- checks --------------------------------------------------------------------------
    def check(self, name: str, spec: dict, ptr: str) -> Check | None:
        """One check, built in the order its parts see each other: inputs, lets and rolls,
        gates (before the dice), choose, the result, outcomes, tags, report and secret."""
        inputs, scope = self.check_inputs(spec, ptr)
        raw_rolls = spec.get("rolls") or ({"roll": spec["roll"]} if "roll" in spec else {})
        roll_ptr = (lambda n: f"{ptr}/rolls/{escape_pointer(n)}") if "rolls" in spec else (lambda n: f"{ptr}/roll")
        roll_names = list(raw_rolls)
        scope.elsewhere.update({n: f"'{n}' is a value of choose, known once the dice are chosen, after the lets: "
                                "read it in the result, the outcome rules or a roll" for n in chosen_names(spec)})
        lets, after, full_scope, pre_scope = self.check_lets(spec, ptr, scope, roll_names)
        rolls = self.check_rolls(raw_rolls, roll_ptr, scope, pre_scope, chosen_names(spec))
        gates = self.check_gates(spec, ptr, roll_names, full_scope, pre_scope, after)
        choose, scope_after_choose = build_choose(self, spec, ptr, roll_names, full_scope, after)
        after_choice = rolls_after_choice(self, rolls, choose, lets)
        result = self.expr(spec["result"], f"{ptr}/result", scope_after_choose, what="the result") \
            if "result" in spec else None
        outcome_scope = scope_after_choose.with_names(result="the result")
        outcomes, seen = self.check_outcomes(name, spec, ptr, outcome_scope)
        self.check_gate_outcomes(gates, seen)
        tags = self.check_tags(spec, ptr, outcome_scope)
        result_sign = self.expr(spec["result_sign"], f"{ptr}/result_sign", self.tag_scope(outcome_scope),
                                what="result_sign") if "result_sign" in spec else None
        report, tiers = self.check_report_and_tiers(spec, ptr, scope_after_choose)
        secret = self.check_secret(spec, ptr, full_scope, after)

        return with_reads(Check(name=name, description=spec.get("description", ""), inputs=inputs,
                                lets=tuple(lets), gates=tuple(gates), rolls=tuple(rolls), faces_needed=frozenset(),
                                choose=choose, result=result, outcomes=tuple(outcomes), tags=tuple(tags),
                                report=report, tiers=tiers, secret=secret, rules=tuple(spec.get("rules", ())),
                                pointer=ptr, label=spec.get("label", ""), result_sign=result_sign,
                                after_choice=after_choice))

    def check_inputs(self, spec: dict, ptr: str) -> tuple[tuple[Input, ...], Scope]:
        """A check's inputs and the scope they open; an input may not take a reserved or table name."""
        inputs = tuple(build_input(self, n, s, f"{ptr}/inputs/{escape_pointer(n)}")
                       for n, s in (spec.get("inputs") or {}).items())
        # A choice's word written bare (``use == mid``) reads as a name: the hint quotes it.
        quoted = {c: f"'{c}' is a choice of input '{i.name}', not a name: quote it, {i.name} == '{c}'"
                  for i in inputs if i.type == "choice" for c in i.choices}
        scope = Scope({i.name: "input" for i in inputs}, quoted)
        for i in inputs:
            if i.name in RESERVED or i.name in self.functions:
                what = "a reserved name" if i.name in RESERVED else \
                    "the name of a table" if i.name in self.tables else "the name of a function"
                self.error(E_DUPLICATE, f"input '{i.name}' has {what}", i.pointer,
                           f"rename the input, e.g. {i.name}_value (a table keeps its name: its labels are "
                           f"read with labels: {i.name})" if what == "the name of a table" else
                           f"rename the input, e.g. {i.name}_value", key=True)
        return inputs, scope

    def check_lets(self, spec: dict, ptr: str, scope: Scope,
                   roll_names: list[str]) -> tuple[list[Let], set[str], Scope, Scope]:
        """Lets in order; those that read a roll (directly or through another let) wait for it.

        Returns the lets, the names known only after rolling, the scope of everything
        (inputs, rolls, lets) and the scope known before rolling."""
        lets: list[Let] = []
        after: set[str] = set(roll_names)
        full_scope = scope.with_names(**{r: "roll" for r in roll_names})
        pre_scope = Scope(dict(scope.names), dict(scope.elsewhere))
        let_scope = Scope(full_scope.names, {**full_scope.elsewhere, **_AFTER_THE_LETS})  # the names grow below
        for lname, lspec in (spec.get("let") or {}).items():
            lptr = f"{ptr}/let/{escape_pointer(lname)}"
            if lname in full_scope.names or lname in RESERVED or lname in self.functions:
                self.error(E_DUPLICATE, f"'{lname}' is already an input, roll, table or reserved name",
                           lptr, f"rename the value, e.g. {lname}_value", key=True)
                continue
            if isinstance(lspec, dict) and "best_of" in lspec:
                let = self.best_of_let(lname, lspec, lptr, let_scope, after)
            else:
                e = self.expr(lspec, lptr, let_scope, what=f"'{lname}'")
                let = Let(lname, expr=e, after_roll=bool(e and e.names & after), pointer=lptr)
            if let.after_roll:
                after.add(lname)
            else:
                pre_scope.names[lname] = "value"
            full_scope.names[lname] = "value"
            lets.append(let)
        return lets, after, full_scope, pre_scope

    def best_of_let(self, lname: str, lspec: dict, lptr: str, full_scope: Scope, after: set[str]) -> Let:
        """A ``best_of`` let: its candidates (value, optional ``when``, label)."""
        cands = []
        for i, c in enumerate(lspec["best_of"]):
            cptr = f"{lptr}/best_of/{i}"
            value = self.expr(c["value"], f"{cptr}/value", full_scope, what=f"'{lname}'")
            when = self.expr(c["when"], f"{cptr}/when", full_scope, what=f"'{lname}'") if "when" in c else None
            if value is not None:
                cands.append(Candidate(value, when, c.get("label", "")))
        names = set().union(*(c.value.names | (c.when.names if c.when else set()) for c in cands)) if cands else set()
        return Let(lname, best_of=tuple(cands), after_roll=bool(names & after), pointer=lptr)

    def check_rolls(self, raw_rolls: dict, roll_ptr: Callable[[str], str], scope: Scope,
                    pre_scope: Scope, chosen: list[str]) -> list[tuple[str, Expr]]:
        """Rolls may use inputs, the values known before rolling, the rolls listed before
        them (a roll made after seeing another: ``if(first < 3, 2d6, first)``, a reroll) and
        the values of ``choose`` (``chosen``: it is then rolled after the choice)."""
        rolls = []
        roll_scope = Scope({**dict.fromkeys(chosen, "chosen value"), **pre_scope.names}, pre_scope.elsewhere)
        names = list(raw_rolls)
        for i, (rname, rtext) in enumerate(raw_rolls.items()):
            if rname in scope.names or rname in RESERVED:
                self.error(E_DUPLICATE, f"roll '{rname}' has the name of an input or a reserved name", roll_ptr(rname),
                           f"rename the roll, e.g. {rname}_roll")
            later = {n: f"a roll reads the rolls listed before it, and '{n}' comes after '{rname}': list '{n}' first"
                     for n in names[i + 1:] if n not in roll_scope.names}
            later[rname] = ("a roll can't read its own dice; to roll again on what it shows, roll twice and add up: "
                            "rolls: {first: 2d6, again: 'if(highest(first) == lowest(first), 2d6, 0)'}, "
                            "result: first + again")
            e = self.expr(rtext, roll_ptr(rname), Scope(roll_scope.names, {**roll_scope.elsewhere, **later}),
                          dice=True, what=f"roll '{rname}'")
            if e is not None:
                rolls.append((rname, e))
            roll_scope = roll_scope.with_names(**{rname: "roll"})
        return rolls

    def check_gates(self, spec: dict, ptr: str, roll_names: list[str], full_scope: Scope,
                    pre_scope: Scope, after: set[str]) -> list[Gate]:
        """Gates are decided before rolling: a gate whose ``when`` reads the dice is an error."""
        gates = []
        for i, g in enumerate(spec.get("gates") or []):
            gptr = f"{ptr}/gates/{i}"
            when = self.expr(g["when"], f"{gptr}/when", full_scope, what="a gate")
            if when is not None and when.names & after:
                self.error(E_GATE_AFTER_ROLL, "a gate is decided before rolling, but this one reads the dice",
                           f"{gptr}/when", "use values known before the roll: inputs and lets that read no roll")
                when = None
            result = (self.expr(g["result"], f"{gptr}/result", pre_scope, what="a gate's result")
                      if "result" in g else None)
            grolls = []
            for rname, rtext in (g.get("rolls") or {}).items():
                if rname not in roll_names:
                    self.error(E_UNKNOWN_REFERENCE, f"gate sets roll '{rname}', which the check does not roll",
                               f"{gptr}/rolls/{escape_pointer(rname)}", "rolls: " + ", ".join(roll_names), key=True)
                    continue
                e = self.expr(rtext, f"{gptr}/rolls/{escape_pointer(rname)}", pre_scope, what="a gate's roll value")
                if e is not None:
                    grolls.append((rname, e))
            if when is not None:
                gates.append(Gate(when, g.get("outcome"), result, tuple(grolls), g.get("reason", ""), gptr))
        return gates

    def check_outcomes(self, name: str, spec: dict, ptr: str,
                       outcome_scope: Scope) -> tuple[list[OutcomeRule], dict[str, str]]:
        """Outcome rules in order, with the names seen; warns about rules after a catch-all
        and about a list with no catch-all at all."""
        outcomes = []
        seen: dict[str, str] = {}
        catch_all = None
        for i, o in enumerate(spec.get("outcomes") or []):
            optr = f"{ptr}/outcomes/{i}"
            if o["name"] in seen:
                self.error(E_DUPLICATE, f"outcome '{o['name']}' is listed twice", f"{optr}/name",
                           "give each rule its own name, or join their conditions with 'or' in one rule")
            seen[o["name"]] = optr
            if catch_all is not None:
                self.warning(W_UNREACHABLE, f"outcome rule '{o['name']}' can never apply: '{catch_all}' "
                             "above it has no condition and always matches", optr,
                             "move the catch-all rule to the end")
            when = self.expr(o["when"], f"{optr}/when", outcome_scope, what=f"outcome '{o['name']}'") \
                if "when" in o else None
            res = self.expr(o["result"], f"{optr}/result", outcome_scope, what=f"outcome '{o['name']}'") \
                if "result" in o else None
            if "when" not in o and catch_all is None:
                catch_all = o["name"]
            success = o["success"]
            if not isinstance(success, bool):  # an expression: read on the outcome's final result
                success = self.expr(success, f"{optr}/success", outcome_scope, what=f"the success of '{o['name']}'")
                if success is None:
                    continue
            outcomes.append(OutcomeRule(o["name"], success, when, res, o.get("description", ""), optr,
                                        o.get("label", "")))
        return outcomes, seen

    def check_gate_outcomes(self, gates: list[Gate], seen: dict[str, str]) -> None:
        """A gate's outcome must be one of the check's outcomes (or ``not_allowed``)."""
        for g in gates:
            if g.outcome and g.outcome not in seen and g.outcome != "not_allowed":
                self.error(E_UNKNOWN_REFERENCE, f"gate outcome '{g.outcome}' is not an outcome of this check",
                           f"{g.pointer}/outcome", "use 'not_allowed' or one of: " + ", ".join(seen))

    @staticmethod
    def tag_scope(outcome_scope: Scope) -> Scope:
        """What is known once the outcome is: what tags and ``result_sign`` may read."""
        return outcome_scope.with_names(outcome="the outcome", success="whether it succeeded")

    def check_tags(self, spec: dict, ptr: str, outcome_scope: Scope) -> list[TagRule]:
        """Tag rules, which may also read the outcome and whether it succeeded."""
        tag_scope = self.tag_scope(outcome_scope)
        tags = []
        for i, t in enumerate(spec.get("tags") or []):
            tptr = f"{ptr}/tags/{i}"
            when = self.expr(t["when"], f"{tptr}/when", tag_scope, what=f"tag '{t['name']}'")
            if when is not None:
                tags.append(TagRule(t["name"], when, t.get("description", ""), tptr))
        return tags

    def check_report_and_tiers(self, spec: dict, ptr: str,
                               scope_after_choose: Scope) -> tuple[tuple[str, ...], str | None]:
        """The values a check reports (each must be a name of the check) and its tiers table."""
        report = tuple(spec.get("report") or ())
        for i, r in enumerate(report):
            if r not in scope_after_choose.names:
                self.error(E_UNKNOWN_REFERENCE, f"report '{r}', which is not a value of this check",
                           f"{ptr}/report/{i}", scope_after_choose.known())
            elif r in RESULT_KEYS:
                # Refused (E525) for a while, though such files loaded before: loaded again, with
                # the value only under 'report' in the result's JSON (issue 29).
                self.warning(W_DEPRECATED_REPORT_NAME, f"report '{r}' is named like the result's own '{r}' "
                             f"(roll --json, to_dict()): deprecated; its value is only under 'report'",
                             f"{ptr}/report/{i}", f"rename the value, e.g. {r}_value; a later release may "
                             "refuse this name")
        tiers = spec.get("tiers")
        if tiers is not None and not isinstance(self.tables.get(tiers), Tiers):
            named = [n for n, t in self.tables.items() if isinstance(t, Tiers)]
            self.error(E_UNKNOWN_REFERENCE, f"tiers '{tiers}' is not a tiers table", f"{ptr}/tiers",
                       "tiers tables: " + ", ".join(named) if named else "declare a tiers table under tables:")
        return report, tiers

    def check_secret(self, spec: dict, ptr: str, full_scope: Scope, after: set[str]) -> Expr | None:
        """Whether a roll is secret, which must be known before rolling."""
        if "secret" not in spec:
            return None
        secret = self.expr(spec["secret"], f"{ptr}/secret", full_scope, what="'secret'")
        if secret is not None and secret.names & after:
            self.error(E_GATE_AFTER_ROLL, "whether a roll is secret must be known before rolling",
                       f"{ptr}/secret", "read only inputs and values that read no roll in 'secret'")
            secret = None
        return secret

    # ---- types ---------------------------------------------------------------------------
    def type_check(self, tables: dict[str, Table], checks: dict[str, Check],
                   procedures: dict[str, Procedure]) -> None:
        """What would fail, or never match, when rolled (see :mod:`.types`): reported at the
        offending part of each expression, each problem once."""
        from .types import check_problems, expressions_in, procedure_env, procedure_problems, shared_fine, text_problems
        found = shared_fine([p for c in checks.values() for p in check_problems(c, tables)], checks.values())
        for proc in procedures.values():
            spec = proc.settings
            read = [checks[c] for c, _, _ in spec.party_expressions(proc.check) if c in checks]
            exprs = list(expressions_in(spec)) + [e for _, e in proc.report]
            found += procedure_problems(exprs, spec.conditions(), procedure_env(read, proc.inputs, tables),
                                        spec.numbers())
            found += [p for what, e, words in spec.texts() for p in text_problems(e, words, f"{what} of '{proc.name}'")]
        seen = set()
        for p in found:
            key = (p.code, p.expr.pointer, p.span)
            if key in seen:
                continue
            seen.add(key)
            where = self.doc.scalar_column(p.expr.pointer, p.expr.written_at(p.span[0]), length=p.span[1] - p.span[0])
            self.diagnostics.append(Diagnostic(p.code, p.message, where, p.hint,
                                               "warning" if p.code.startswith("W") else "error"))

    # ---- procedures ----------------------------------------------------------------------
    def procedure(self, name: str, spec: dict, ptr: str) -> Procedure | None:
        from .procedures import build_procedure
        return build_procedure(self, name, spec, ptr)


def ruleset_model(doc: Document, tables: dict[str, Table], checks: dict[str, Check],
                  procedures: dict[str, Procedure]) -> RulesetModel:
    """The model of a file whose parts were built without an error: its header and these."""
    data = doc.data
    src = data.get("source") or {}
    if isinstance(src, str):
        src = {"title": src}
    return RulesetModel(
        id=data["ruleset"], name=data.get("name", data["ruleset"]), version=str(data.get("version", "")),
        source=Source(**{k: src[k] for k in ("title", "author", "publisher", "year", "url", "section") if k in src}),
        license=data.get("license", ""), description=data.get("description", ""),
        tables=tables, checks=checks, procedures=procedures, path=doc.path)


def _literal(value: Any) -> str | None:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return None


def _same(pos: int) -> int:
    """A position of an expression written in this language: where it is in the file."""
    return pos
