"""What running a check gives back, and the one small interface every result shares.

Rolling gives a result (:class:`CheckResult`, a procedure kind's ``...Result``), exact odds
give odds (:class:`CheckOdds`, a procedure kind's ``...Odds``); each follows
:class:`RunResult` or :class:`RunOdds`, so front ends (``present.text``, the JSON of the
command line) read every kind the same way. Plain data: nothing here rolls or resolves.
"""

from __future__ import annotations

from fractions import Fraction
from types import MappingProxyType
from typing import Any, NamedTuple, Protocol, runtime_checkable
from collections.abc import Mapping

from ..cache import fractions_size
from ..dice.pool import DieRoll, PoolRoll
from ..dice.stats import Summary, summarize, value_order
from ..dice.values import Rolled
from ..limits import DEFAULT_LIMITS
from ..records import Record, field
from .json_parts import cut_cumulative
from .odds_value import Group, OddsValue, Shown
from .result_value import Choice, ResultValue

NOT_ALLOWED = "not_allowed"  # the outcome of a gate that forbids the check


@runtime_checkable
class RunResult(Protocol):
    """One roll of a check or procedure. ``name``: the check's or procedure's name;
    ``trace``: a readable account of the dice; ``own_inputs``: the inputs it was rolled with
    where they are its own (a check's, an extended check's; {} where they are its parties');
    ``view()``: the one value every front end shows
    (:class:`~rulesengine.run.result_value.ResultValue`); ``to_dict()``: its JSON."""

    ruleset: str

    @property
    def name(self) -> str: ...

    @property
    def trace(self) -> str: ...

    @property
    def own_inputs(self) -> Mapping[str, Any]: ...

    def view(self) -> ResultValue: ...

    def to_dict(self) -> dict[str, Any]: ...


@runtime_checkable
class RunOdds(Protocol):
    """Exact odds of a check or procedure. ``outcomes``: each outcome's probability;
    ``truncated``: what an unbounded mechanic left out; ``distribution()``: the main
    distribution of values a table shows under the outcomes, with its title; ``view()``:
    the one value every front end shows (:class:`~rulesengine.run.odds_value.OddsValue`)."""

    @property
    def ruleset(self) -> str: ...

    @property
    def outcomes(self) -> Mapping[str, Fraction]: ...

    @property
    def truncated(self) -> Fraction: ...

    @property
    def name(self) -> str: ...

    def distribution(self) -> tuple[str, Mapping[Any, Fraction]]: ...

    def view(self) -> OddsValue: ...

    def to_dict(self) -> dict[str, Any]: ...


class Resolution(Record, frozen=False):
    """One resolution of a check's rules: what the resolver gives for one set of roll values.
    Assignable (as :class:`CheckResult` is): exact odds make one for each joint value, tens
    of thousands in a sweep, and setting twelve fields of a frozen record through
    ``object.__setattr__`` cost three times as much as assigning them. Nothing assigns one
    after it is made."""

    outcome: str
    success: bool
    result: Any
    tags: tuple[str, ...] = ()
    values: dict[str, Any] = field(default_factory=dict)
    tier: str | None = None
    reason: str = ""
    skipped: bool = False
    choices: tuple[Choice, ...] = ()
    chosen: Choice | None = None
    env: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    """Every name the check defined (inputs, values, rolls, chosen values, result, outcome,
    success): what procedures' expressions see, the same whether rolled or enumerated."""
    signed: str | None = None  # the result with a sign of its own (``result_sign``): "+0", "-0", "+3"
    # Exact odds, where explosions past the depth leave a tag or the tier open and the outcome
    # decided: "tags" (the tags listed are those known to hold), "tier" (no tier given).
    open_parts: tuple[str, ...] = ()

    def __init__(self, outcome: str, success: bool, result: Any, tags: tuple[str, ...] = (),
                 values: dict[str, Any] | None = None, tier: str | None = None, reason: str = "",
                 skipped: bool = False, choices: tuple[Choice, ...] = (), chosen: Choice | None = None,
                 env: dict[str, Any] | None = None, signed: str | None = None,
                 open_parts: tuple[str, ...] = ()) -> None:
        # Written out, as records made by the thousand are (rulesengine/records.py).
        self.outcome = outcome
        self.success = success
        self.result = result
        self.tags = tags
        self.values = {} if values is None else values
        self.tier = tier
        self.reason = reason
        self.skipped = skipped
        self.choices = choices
        self.chosen = chosen
        self.env = {} if env is None else env
        self.signed = signed
        self.open_parts = open_parts


class LeftOpen(NamedTuple):
    """What is known of a throw of exact odds whose outcome explosions past the depth leave
    open (:meth:`.resolver.Resolver.left_open`), added where the depth does not reach it
    (:mod:`.tally`): its result (None where that is open too, or outcome rules rewrite it);
    each reported value known on it (a target worked out from the inputs; a let the cut roll
    leaves at least a number), those open left out; the tags that hold where every tag is
    decided (a glitch read on the first throw; None where one is open); the outcomes it may
    still come out as (None: any)."""

    result: Any = None
    values: Mapping[str, Any] = MappingProxyType({})
    tags: tuple[str, ...] | None = None
    outcomes: tuple[str, ...] | None = None


class Sample(NamedTuple):
    """A check's dice, rolled but not yet resolved (or a gate's verdict, with no dice)."""

    gated: Resolution | None
    rolls: dict[str, Any]
    pools: tuple[tuple[str, PoolRoll], ...]
    lines: tuple[Any, ...]  # text, or a function rendering it when the trace is read
    secret: bool
    pre: Any = None  # the PreRoll the dice were rolled under
    values: Any = None  # the inputs it was made with


class CheckResult(Record, frozen=False):
    """One roll of a check: what a front end shows and a chat bot prints.

    A record to read, not to change. It is not frozen only because a frozen record with
    this many fields costs ~1 µs more to make, a tenth of a whole roll of a simple check;
    nothing in the engine reads a result back after handing it out."""

    ruleset: str
    check: str
    inputs: dict[str, Any]
    outcome: str
    success: bool
    result: Any
    tags: tuple[str, ...]
    values: dict[str, Any]
    # Each roll's value as the rules read it: its total, or where they read its dice
    # (count(roll, 6), symbols(roll, 'hit')) a Rolled with its total and kept dice.
    rolls: dict[str, Any]
    pools: tuple[tuple[str, PoolRoll], ...]
    lines: tuple[Any, ...] = field(repr=False, compare=False)  # text, or functions rendering it
    tier: str | None = None
    reason: str = ""
    secret: bool = False
    skipped: bool = False
    choices: tuple[Choice, ...] = ()
    chosen: Choice | None = None
    env: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    signed_result: str | None = None  # with ``result_sign``: "+0", "-0", "+3", "-2"
    _shown: list = field(default_factory=list, repr=False, compare=False)

    def __init__(self, ruleset: str, check: str, inputs: dict[str, Any], outcome: str, success: bool, result: Any,
                 tags: tuple[str, ...], values: dict[str, Any], rolls: dict[str, Any],
                 pools: tuple[tuple[str, PoolRoll], ...], lines: tuple[Any, ...], tier: str | None = None,
                 reason: str = "", secret: bool = False, skipped: bool = False, choices: tuple[Choice, ...] = (),
                 chosen: Choice | None = None, env: dict[str, Any] | None = None, signed_result: str | None = None,
                 _shown: list | None = None) -> None:
        # Written out, as records made by the thousand are (rulesengine/records.py): one per roll.
        self.ruleset = ruleset
        self.check = check
        self.inputs = inputs
        self.outcome = outcome
        self.success = success
        self.result = result
        self.tags = tags
        self.values = values
        self.rolls = rolls
        self.pools = pools
        self.lines = lines
        self.tier = tier
        self.reason = reason
        self.secret = secret
        self.skipped = skipped
        self.choices = choices
        self.chosen = chosen
        self.env = {} if env is None else env
        self.signed_result = signed_result
        self._shown = [] if _shown is None else _shown

    @property
    def trace(self) -> str:
        """A readable account of the dice, rendered when first read (rolling many times and
        reading only outcomes doesn't pay for the text)."""
        if not self._shown:
            self._shown.append("\n".join(line() if callable(line) else line for line in self.lines))
        return self._shown[0]

    @property
    def name(self) -> str:
        return self.check

    @property
    def own_inputs(self) -> Mapping[str, Any]:
        return self.inputs

    @property
    def dice(self) -> tuple[DieRoll, ...]:
        return tuple(d for _, p in self.pools for d in p.dice)

    def view(self) -> ResultValue:
        """This roll as every front end shows it (JSON, the text of ``roll``)."""
        return ResultValue(
            ruleset=self.ruleset, kind="check", names=(("check", self.check),), trace=self.trace,
            outcome=self.outcome, success=self.success, result=self.result, inputs=self.inputs, pools=self.pools,
            rolls=self.rolls, tags=self.tags, values=self.values, signed_result=self.signed_result, tier=self.tier,
            reason=self.reason, secret=self.secret, skipped=self.skipped, choices=self.choices, chosen=self.chosen,
            report=self.values)

    def to_dict(self) -> dict[str, Any]:
        """The roll as JSON (:meth:`ResultValue.to_dict`)."""
        return self.view().to_dict()


class CheckOdds(Record):
    """Exact probabilities of every outcome, tag, tier and result value of one check."""

    ruleset: str
    check: str
    inputs: dict[str, Any]
    outcomes: dict[str, Fraction]
    outcome_success: dict[str, bool | None]  # None: a yes/no expression decides, roll by roll
    success: Fraction
    result_distribution: dict[Any, Fraction]
    tags: dict[str, Fraction]
    tiers: dict[str, Fraction]
    values: dict[str, dict[Any, Fraction]]
    truncated: Fraction = Fraction(0)  # what explosions cut from the outcomes (and success, tags, tiers)
    # Where the depth left a tag (the tier) open on throws whose outcome it decided: what is cut
    # from the tags (the tiers), more than ``truncated`` (None: as ``truncated``).
    tags_truncated: Fraction | None = None
    tiers_truncated: Fraction | None = None
    # Where the depth left the outcome open on throws whose success it decided (every outcome
    # they may be counts as a success, or none does): what is cut from ``success``, less than
    # ``truncated`` (None: as ``truncated``); and the outcomes all the mass ``truncated`` may
    # be, where that is fewer than all (None: any).
    success_truncated: Fraction | None = None
    truncated_outcomes: tuple[str, ...] | None = None
    given: str | None = None  # the condition these odds are conditioned on
    given_probability: Fraction | None = None  # its own probability (at least, where given_open)
    given_open: Fraction = Fraction(0)  # the mass on which explosions past the depth leave it open
    signed_distribution: dict[str, Fraction] = field(default_factory=dict)  # ranked: ..., "-0", "+0", ...
    unbounded_mean: Fraction | None = None  # with truncated explosions: the result's mean followed forever
    unbounded_variance: Fraction | None = None  # and its variance, where it has a closed form too
    # the same for each reported value explosions cut that has a closed form: (mean, variance or None)
    values_moments: dict[str, tuple[Fraction | None, Fraction | None]] = field(default_factory=dict)
    # What explosions cut from the result's distribution: at least ``truncated``, more where
    # an outcome is known whatever the explosions went on to but the result is not.
    result_truncated: Fraction = Fraction(0)
    # What explosions cut from each reported value's distribution (as for the result).
    values_truncated: dict[str, Fraction] = field(default_factory=dict)
    # Where all of ``result_truncated`` is known to lie on this number or above: "at least v"
    # for every v up to it counts that mass in, and is exact (None: not known, or none cut).
    result_cut_from: int | None = None
    # The same for each reported value whose cut mass is known to lie on a number or above.
    values_cut_from: dict[str, int] = field(default_factory=dict)
    # The work budget the odds were worked out under: writing them out is charged to it.
    max_states: int = field(default=DEFAULT_LIMITS.max_states, compare=False, repr=False)

    @property
    def name(self) -> str:
        return self.check

    @property
    def size(self) -> int:
        """What keeping these odds costs, counted as every cache of rulesengine.cache counts:
        one unit an entry, more for long fractions."""
        tables = [self.outcomes, self.result_distribution, self.tags, self.tiers, self.signed_distribution,
                  *self.values.values()]
        return sum(len(t) + fractions_size(t.values()) for t in tables)
    def result_cumulative(self) -> dict[Any, tuple[Fraction, Fraction]]:
        """Each number of the result with its chance of that or more and of that or less; the
        cut mass counted in "at least" up to ``result_cut_from``."""
        return cut_cumulative(self.result_distribution, self.result_cut_from, self.result_truncated)

    def distribution(self) -> tuple[str, Mapping[Any, Fraction]]:
        return "result", self.result_distribution

    @property
    def summary(self) -> Summary:
        """The result's statistics over the mass worked out, its mean exact where explosions
        were truncated and the result has a closed form (:mod:`rulesengine.dice.expectation`),
        else labelled the mean of the mass worked out (``mean_kind``)."""
        return summarize(self.result_distribution, self.left_out(self.result_truncated)).with_mean(
            self.unbounded_mean, self.unbounded_variance)

    def left_out(self, cut: Fraction) -> Fraction:
        """What explosions cut from a distribution of these odds: ``cut`` (less than
        ``truncated`` where the throws whose outcome the depth left open give it: a target
        worked out from the inputs), or, given a condition, all that was cut before
        conditioning (those odds' own distributions sum to 1)."""
        return cut if self.given is None else max(cut, self.truncated)

    def value_summary(self, name: str) -> Summary:
        """A reported value's statistics over the mass worked out (``mean_kind`` says so)."""
        return summarize(self.values[name], self.left_out(self.values_truncated.get(name, self.truncated))).with_mean(
            *self.values_moments.get(name, (None, None)))

    def probability(self, outcome: str) -> Fraction:
        return self.outcomes.get(outcome, Fraction(0))

    def view(self) -> OddsValue:
        """These odds as every front end shows them (JSON, the text table, a sweep's cells)."""
        result = Shown(self.result_distribution, self.summary, cut_from=self.result_cut_from, cut=self.result_truncated)
        return OddsValue(
            ruleset=self.ruleset, names=(("check", self.check),), inputs=self.inputs, outcomes=self.outcomes,
            outcome_success=self.outcome_success, success=self.success,
            result=result, chart=("result", result),
            named=(("tags", self.tags), ("tiers", self.tiers)),
            named_truncated=tuple((k, cut) for k, cut in (("success", self.success_truncated),
                                                          ("tags", self.tags_truncated),
                                                          ("tiers", self.tiers_truncated)) if cut is not None),
            groups=(Group("values", {k: Shown(d, self.value_summary(k), cut_from=self.values_cut_from.get(k),
                                              cut=self.values_truncated.get(k, self.truncated))
                                     for k, d in self.values.items()}),),
            signed=self.signed_distribution, signed_cut_through=self._signed_cut_through(),
            given=(self.given, self.given_probability, self.given_open)
            if self.given is not None and self.given_probability is not None else None,
            truncated=self.truncated, result_truncated=self.result_truncated, result_cut_from=self.result_cut_from,
            extra=((("values_cut_from", dict(self.values_cut_from)),) if self.values_cut_from else ())
            + ((("truncated_outcomes", list(self.truncated_outcomes)),) if self.truncated_outcomes else ()),
            checks_truncation=True, max_states=self.max_states)

    def _signed_cut_through(self) -> int:
        """How many of the lowest signed results the mass the depth cut lies above (its results
        are ``result_cut_from`` or more, so its signs rank at that result's lowest or higher):
        their "at least" counts it in, as the result's does. 0 where the signed table lacks
        more than that mass (a sign the depth left open)."""
        cut_from, cut, signed = self.result_cut_from, self.result_truncated, self.signed_distribution
        if cut_from is None or not cut or sum(signed.values()) + cut != 1:
            return 0
        lowest = signed_rank(signed_text(cut_from, False) or "+0")
        return sum(1 for v in signed if signed_rank(v) <= lowest)

    def to_dict(self) -> dict[str, Any]:
        """The odds as JSON (:meth:`OddsValue.to_dict`: charged to ``max_states``)."""
        return self.view().to_dict()


def signed_text(result: Any, positive: bool) -> str | None:
    """A result with a sign of its own: ``+3``, ``-2``; a 0 takes the sign ``result_sign``
    gave it (``+0``, ``-0``). None for a result that is not a whole number."""
    if isinstance(result, Rolled):
        result = result.total
    if isinstance(result, bool) or not isinstance(result, int):
        return None
    if result == 0:
        return "+0" if positive else "-0"
    return f"{result:+d}"


def signed_rank(text: str) -> tuple[int, int]:
    """The order of signed results: ... -1, -0, +0, +1 ..."""
    return int(text), 0 if text.startswith("-") else 1


def with_declared(dist: Mapping[Any, Fraction], declared: tuple[Any, ...] = ()) -> dict[Any, Fraction]:
    """A distribution of values in the order results list them, the one order of every
    distribution's values (:func:`~rulesengine.dice.stats.value_order`: numbers, then yes/no,
    then text), with every value the ruleset declares for it (a table's values, a choice's
    choices) listed, probability 0 where it can't happen: text in the order declared, then
    any other value."""
    if all(isinstance(v, int) and not isinstance(v, bool) for v in (*dist, *declared)):
        return {v: dist.get(v, Fraction(0)) for v in sorted({*dist, *declared})}
    rest = sorted((v for v in dist if v not in declared), key=value_order)
    return {v: dist.get(v, Fraction(0)) for v in (*declared, *rest)}


class ProcedureRecord(Record):
    """What a procedure kind's result and odds share for :class:`RunResult`/:class:`RunOdds`:
    they are named by their procedure (a ``procedure`` field)."""

    __slots__ = ()

    @property
    def name(self) -> str:
        return self.procedure  # type: ignore[attr-defined]

    @property
    def own_inputs(self) -> Mapping[str, Any]:
        """A procedure's inputs are its parties' ({}), except where a kind has its own."""
        return {}
