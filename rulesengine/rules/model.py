"""The ruleset model: what a validated ruleset file becomes.

Immutable records (:mod:`rulesengine.records`), built once by :mod:`rulesengine.rules.build`:
every start-up pays for creating these classes, and a record class costs what a plain class
costs (a NamedTuple class about ten times more, a frozen dataclass a hundred). Every
expression is parsed and compiled when the ruleset is built (never per roll) and keeps the
JSON pointer of the YAML scalar it came from, so a problem found while running a check
still points at the file position.
"""

from __future__ import annotations

from ..records import Record, field
from typing import Any, Protocol
from collections.abc import Callable, Iterator

from ..dice import ast
from ..dice.pool_odds import PoolView


class Expr(Record):
    """One expression of the ruleset: its text, tree, compiled closures and origin."""

    text: str
    tree: ast.Node
    pointer: str
    run: Callable[[Any], Any] = field(repr=False, compare=False)  # plain values (one roll)
    names: frozenset[str] = frozenset()  # every name its tree reads (ast.names: each Name node's)
    # Where the file's text was written in a dialect (see dice.dialects): how a position of
    # ``text`` (this language's reading) maps back to the scalar in the file.
    source_offset: Callable[[int], int] | None = field(default=None, repr=False, compare=False)

    def __str__(self) -> str:
        return self.text

    def written_at(self, pos: int) -> int:
        """Where position ``pos`` of ``text`` is in the file's scalar."""
        return self.source_offset(pos) if self.source_offset is not None else pos


# ---- tables -----------------------------------------------------------------------------


class Ladder(Record):
    """Label → number, in the order the book lists them (a difficulty ladder)."""

    name: str
    description: str
    entries: tuple[tuple[str, int], ...]
    kind: str = "ladder"


class RangeRow(Record):
    low: int | None  # None: no lower bound
    high: int | None  # None: no upper bound
    value: Any


class Ranges(Record):
    """A number in a range → a value (any number from 1 to 3 → 20)."""

    name: str
    description: str
    rows: tuple[RangeRow, ...]
    kind: str = "ranges"


class Grid(Record):
    """Row label × column label → number (a difficulty table: 'hard' × 'quick' → 14)."""

    name: str
    description: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, tuple[int, ...]], ...]
    kind: str = "grid"


class Tier(Record):
    min: int
    label: str
    description: str = ""


class Tiers(Record):
    """Descriptive tiers: the highest tier whose minimum a number reaches (a degree of
    success of 5 is "good")."""

    name: str
    description: str
    tiers: tuple[Tier, ...]  # ascending by min
    kind: str = "tiers"


Table = Ladder | Ranges | Grid | Tiers


# ---- checks -----------------------------------------------------------------------------


def name_with_label(name: str, label: str) -> str:
    """A name as typed (on the command line, in expressions) with its display label, when
    the label says more than the name itself (``skill`` / ``Skill`` adds nothing)."""
    if not label or label.lower().replace(" ", "_").replace("-", "_") == name.lower():
        return name
    return f"{name} ({label})"


class Input(Record):
    name: str
    type: str  # "integer" | "boolean" | "choice" | "dice_pool"
    help: str = ""
    default: Any = None
    has_default: bool = False
    optional: bool = False  # may be left out: then given(name) is false
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()
    labels: str | None = None  # a ladder or grid whose labels may be given instead of a number
    labels_column: str | None = None  # for a grid: the column to read
    pointer: str = ""
    label: str = ""  # a human name for display; "" shows the name


class Candidate(Record):
    value: Expr
    when: Expr | None = None
    label: str = ""


class Let(Record):
    """A named value: an expression, or the best of several candidates (``best_of``)."""

    name: str
    expr: Expr | None = None
    best_of: tuple[Candidate, ...] = ()
    after_roll: bool = False  # depends on a roll (computed once the dice are known)
    pointer: str = ""


class Gate(Record):
    """Before rolling: when ``when`` holds, the check ends with ``outcome`` (no roll), or
    its rolls take the values of ``rolls`` instead of being rolled (a fixed result chosen in
    place of a roll)."""

    when: Expr
    outcome: str | None = None
    result: Expr | None = None
    rolls: tuple[tuple[str, Expr], ...] = ()
    reason: str = ""
    pointer: str = ""


MAX_PICK = 10
"""The most dice ``choose`` picks (the schema's maximum for a number; an expression's value
past it is an error of the rules, E509)."""


class Choose(Record):
    """Choose ``pick`` dice of a roll: the values they give, which choice is preferred."""

    source: str  # the roll to choose from
    pick: int | Expr  # how many: 1 to 10, or an expression known before the roll (``ring``)
    values: tuple[tuple[str, Expr], ...]
    prefer: Expr | None
    order: tuple[str, ...]
    pointer: str = ""

    @property
    def pick_expr(self) -> Expr | None:
        """``pick`` when it is an expression (``pick: ring``); None when it is a number."""
        return self.pick if isinstance(self.pick, Expr) else None


class OutcomeRule(Record):
    name: str
    success: bool | Expr  # a yes/no expression: whether it counts depends on the roll
    when: Expr | None = None  # None: always (a catch-all)
    result: Expr | None = None  # the result becomes this (may use `result`)
    description: str = ""
    pointer: str = ""
    label: str = ""


class TagRule(Record):
    name: str
    when: Expr
    description: str = ""
    pointer: str = ""


RESULT_KEYS = frozenset({"ruleset", "check", "inputs", "dice", "rolls", "result", "signed_result", "outcome",
                         "success", "tags", "trace", "tier", "reason", "secret", "skipped_roll", "choices",
                         "chosen", "report"})
"""The keys of a rolled check's JSON (``CheckResult.to_dict()``, ``roll --json``) of its own.
Its reported values are under ``report``, and beside these keys too, except where one is
named like one of them: that value is only under ``report`` (the name is deprecated, W504).
A test keeps the set in step with the result."""


class Check(Record):
    name: str
    description: str
    inputs: tuple[Input, ...]
    lets: tuple[Let, ...]
    gates: tuple[Gate, ...]
    rolls: tuple[tuple[str, Expr], ...]
    faces_needed: frozenset[str]  # rolls whose individual dice the rules look at
    choose: Choose | None
    result: Expr | None
    outcomes: tuple[OutcomeRule, ...]
    tags: tuple[TagRule, ...]
    report: tuple[str, ...]
    tiers: str | None
    secret: Expr | None
    rules: tuple[str, ...] = ()
    pointer: str = ""
    label: str = ""
    result_sign: Expr | None = None  # yes/no: the sign of a result of 0 (+0 when true, -0 when false)
    # For each roll in faces_needed: what the rules read of its dice (None: any of them),
    # so exact odds enumerate readings, not multisets of faces (dice.pool_odds.view_dist).
    face_views: tuple[tuple[str, PoolView | None], ...] = ()
    initial_needed: frozenset[str] = frozenset()  # rolls whose first throw the rules read (initial())
    sizes_needed: frozenset[str] = frozenset()  # rolls whose dice's sizes the rules read (largest_die, choose)
    # The rolls made once the dice are chosen (``choose``): the first roll that reads a
    # chosen value and every roll listed after it (``more: (tens)d10!``, the kept 10s
    # rolling again). Empty where no roll reads a chosen value.
    after_choice: frozenset[str] = frozenset()
    # What face_views were worked out from: each group of expressions that read the rolls
    # (the check's own, a procedure's) with the names it reads them by (a procedure's
    # ``roller_result``); exact odds work the views out again once the inputs are known.
    view_sources: tuple[tuple[tuple[Expr | None, ...], tuple[tuple[str, str], ...]], ...] = \
        field(default=(), repr=False, compare=False)
    # Worked out once from the fields above: odds and validation ask for every outcome's
    # success, and a scan per question made a check of 3,000 outcome rules quadratic.
    _names: tuple[str, ...] = field(init=False, repr=False, compare=False, default=())
    _success: dict = field(init=False, repr=False, compare=False, default_factory=dict)

    def __post_init__(self) -> None:
        success: dict[str, bool | None] = {}
        for o in self.outcomes:  # the first rule of a name decides; None: an expression decides
            success.setdefault(o.name, o.success if isinstance(o.success, bool) else None)
        names = list(success)
        for g in self.gates:
            if g.outcome and g.outcome not in success and g.outcome not in names:
                names.append(g.outcome)
        object.__setattr__(self, "_names", tuple(names))
        object.__setattr__(self, "_success", success)

    def input(self, name: str) -> Input | None:
        for i in self.inputs:
            if i.name == name:
                return i
        return None

    @property
    def outcome_names(self) -> tuple[str, ...]:
        """The outcomes' names in file order (each once), then the gates' own outcomes."""
        return self._names

    def outcome_success(self, name: str) -> bool | None:
        """Whether an outcome counts as a success; None when an expression decides it roll by
        roll (the odds' P(success) counts each roll as it went)."""
        return self._success.get(name, False)


# ---- procedures ---------------------------------------------------------------------------


class Procedure(Record):
    """A procedure built from checks: a contest, an extended, team, assisted or group check.

    ``settings`` is the kind's own typed, frozen spec (:mod:`rulesengine.rules.procedures`),
    its expressions already parsed."""

    name: str
    kind: str  # a key of rulesengine.rules.procedures.KINDS
    description: str
    check: str
    settings: ProcedureSpec
    inputs: tuple[Input, ...] = ()
    rules: tuple[str, ...] = ()
    pointer: str = ""
    label: str = ""
    report: tuple[tuple[str, Expr], ...] = ()  # values worked out when the procedure ends


class Role(Record):
    """Who gives inputs to a procedure, and which check's: what a front end asks each party.

    ``given_as`` says where the values go in a call: ``"parties"`` (one mapping per party,
    ``first`` numbering this role's first party from 1, ``min``..``max`` of them) or
    ``"inputs"`` (beside the procedure's own inputs, once). ``computed``: inputs of the check
    the procedure works out itself, which nobody gives."""

    name: str
    check: str
    min: int
    max: int
    given_as: str = "parties"
    first: int = 1
    computed: tuple[str, ...] = ()


class ProcedureSpec(Protocol):
    """What every procedure kind's spec tells the builder: the expressions that read a
    party's check after it resolved (so exact odds keep the dice those expressions look at)."""

    def party_expressions(self, check: str) -> list[tuple[str, list[Expr], dict[str, str]]]: ...

    def conditions(self) -> list[tuple[str, Expr]]:
        """The expressions that must give yes/no, each with the words a message calls it."""
        ...

    def texts(self) -> list[tuple[str, Expr, tuple[str, ...]]]:
        """The expressions that must give one of a few words: what each is called, the
        expression, the words."""
        ...

    def roles(self, check: str) -> tuple[Role, ...]:
        """Who gives which check's inputs (for the export and input forms)."""
        ...

    def numbers(self) -> list[tuple[str, Expr]]:
        """The expressions that must give a number, each with the words a message calls it."""
        ...


class Source(Record):
    title: str
    author: str = ""
    publisher: str = ""
    year: int | None = None
    url: str = ""
    section: str = ""


class RulesetModel(Record):
    id: str
    name: str
    version: str
    source: Source
    license: str
    description: str
    tables: dict[str, Table]
    checks: dict[str, Check]
    procedures: dict[str, Procedure]
    path: str = ""


# ---- walking a check ---------------------------------------------------------------------


def let_exprs(let: Let) -> list[Expr]:
    """The expressions of a value: its own, or each ``best_of`` choice's value and condition."""
    return ([let.expr] if let.expr is not None else []) + [
        e for c in let.best_of for e in (c.value, c.when) if e is not None]


def check_expressions(check: Check) -> Iterator[Expr]:
    """Every expression of ``check`` its rules may read: values (with their ``best_of``
    choices and conditions), gates, rolls, what ``choose`` reads, result, secret and sign,
    outcome rules (condition, result, success) and tags."""
    for let in check.lets:
        yield from let_exprs(let)
    for gate in check.gates:
        yield gate.when
        if gate.result is not None:
            yield gate.result
        yield from (e for _, e in gate.rolls)
    yield from (e for _, e in check.rolls)
    if check.choose is not None:
        yield from (e for _, e in check.choose.values)
        if check.choose.pick_expr is not None:
            yield check.choose.pick_expr
    for e in (check.result, check.secret, check.result_sign):
        if e is not None:
            yield e
    for rule in check.outcomes:
        for e in (rule.when, rule.result, rule.success if isinstance(rule.success, Expr) else None):
            if e is not None:
                yield e
    yield from (t.when for t in check.tags)
