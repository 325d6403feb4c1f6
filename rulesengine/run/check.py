"""Running a check: validated inputs → (gates) → rolls → one resolution, rolled or exact.

:class:`CheckRunner` is the small facade a loaded ruleset gives each check (and procedures
use to run their checks). Behind it, each in its own module:

- :mod:`.runtime`: the ruleset as it runs (model, functions, limits, document);
- :mod:`.resolver`: the check's rules, pure, the ONE resolver of (inputs, roll values);
- :mod:`.sampling`: the sampling driver, which rolls the dice from a dice source;
- :mod:`.enumeration`: the exact driver, which feeds the resolver every joint value of the
  rolls with its exact weight and adds up the answers;
- :mod:`.memo`: what is remembered between rolls.

Rolling and exact odds can't disagree about the rules, because only the source of the roll
values differs.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any
from collections.abc import Iterable, Mapping

from ..dice.dist import Budget, Dist
from ..dice.sources import DiceSource, FacesSource, RandomSource, dice_source
from ..errors import Field, InputError, PartiesExample
from ..limits import DEFAULT_LIMITS, Limits
from ..rules.document import Document
from ..rules.model import Check, Expr, Input, RulesetModel
from .enumeration import Enumerator, Joint
from .exact import ExactRolls, RollReads
from .inputs import InputChecker, describe_input
from .memo import Remembered, RollMemo
from .resolver import PreRoll, Resolver
from .results import NOT_ALLOWED, CheckOdds, CheckResult, Choice, Resolution, Sample
from .runtime import AnyError, Functions, Runtime
from .sampling import RollPlan, Sampler
from .taken_checks import TakenChecks

if TYPE_CHECKING:  # for the type of rng only: random is imported where a roll makes one
    import random

__all__ = ["NOT_ALLOWED", "CheckOdds", "CheckResult", "CheckRunner", "Choice", "PreRoll", "RandomSource",
           "Remembered", "Resolution", "Sample", "describe_input"]


class CheckRunner:
    """Runs one check of one ruleset. Made once per check (see Ruleset.check)."""

    def __init__(self, model: RulesetModel, check: Check, functions: Functions, doc: Document | None = None,
                 limits: Limits = DEFAULT_LIMITS) -> None:
        self.runtime = runtime = Runtime(model, functions, limits, doc)
        self.model, self.check, self.functions, self.doc, self.limits = model, check, functions, doc, limits
        self.inputs = InputChecker(model, limits)
        self.resolver = resolver = Resolver(runtime, check)
        exact = ExactRolls(check, functions, limits)
        self.sampler = Sampler(runtime, resolver, [(name, e, RollPlan.of(name, e, check, exact.earlier_rolls(name)))
                                                   for name, e in check.rolls])
        self.enumerator = Enumerator(runtime, resolver, exact)
        self._taken = TakenChecks(runtime, self.enumerator)
        self.memo = RollMemo(resolver, self.coerce_inputs)
        # where a trace says which dice were chosen: after the rolls made before the choice
        self._choice_line = next((i for i, (name, _) in enumerate(check.rolls) if name in check.after_choice),
                                 len(check.rolls))

    # ---- inputs ------------------------------------------------------------------------
    def coerce_inputs(self, given: Mapping[str, Any] | None, at: Field = ("inputs",)) -> dict[str, Any]:
        """Validate and convert inputs before anything is rolled (InputError otherwise, at
        ``at``: the field of the call they were given in, a party's ``("parties", 1)``)."""
        return self.inputs.coerce_specs(self.check.inputs, given, f"check '{self.check.name}'", at=at)

    def coerce_specs(self, specs: Iterable[Input], given: Mapping[str, Any] | None, owner: str,
                     unknown_hint: str | PartiesExample | None = None) -> dict[str, Any]:
        """Other input specs (a procedure's own) checked with this ruleset's tables and limits."""
        return self.inputs.coerce_specs(specs, given, owner, unknown_hint)

    # ---- the rules -----------------------------------------------------------------------
    def evaluate(self, e: Expr, env: Mapping[str, Any], **ctx_args: Any) -> Any:
        """Any expression of this ruleset with the names of ``env`` (see :class:`Runtime`)."""
        return self.runtime.evaluate(e, env, **ctx_args)

    def truth(self, e: Expr, env: Mapping[str, Any]) -> bool:
        return self.runtime.truth(e, env)

    def relocate(self, exc: AnyError, e: Expr) -> AnyError:
        """Point an error inside a ruleset expression at the file, not the expression."""
        return self.runtime.relocate(exc, e)

    def before_roll(self, inputs: dict[str, Any]) -> PreRoll:
        """Values known before rolling; a gate's verdict (or fixed roll values); secrecy."""
        return self.resolver.before_roll(inputs)

    def resolve(self, env: dict[str, Any], player_choice: Iterable[int] | None = None,
                budget: Budget | None = None) -> Resolution:
        """The one resolver (:meth:`Resolver.resolve`): roll values are in ``env``."""
        return self.resolver.resolve(env, player_choice, budget)

    def resolve_rolls(self, values: dict[str, Any], rolls: Mapping[str, Any],
                      choose: Iterable[int] | None = None) -> Resolution:
        """The resolution of given roll values under given inputs (gates re-decided)."""
        return self.resolver.resolve_rolls(values, rolls, choose)

    # ---- rolling -------------------------------------------------------------------------
    def roll(self, inputs: Mapping[str, Any] | None = None, *, rng: random.Random | None = None,
             seed: int | str | None = None, faces: Iterable[int] | None = None,
             choose: Iterable[int] | None = None) -> CheckResult:
        values, pre = self.memo.prepare(inputs)
        source = dice_source(rng=rng, seed=seed, faces=faces)
        result = self.finish(values, self.sampler.sample(values, source, pre, choose), choose)
        if isinstance(source, FacesSource) and source.used < len(source.faces):  # faces were given
            raise InputError(f"{len(source.faces)} faces given, but the check rolled only {source.used}",
                             hint="give one face per die rolled", field=("faces",))
        return result

    def roll_from(self, values: dict[str, Any], source: DiceSource, choose: Iterable[int] | None = None
                  ) -> CheckResult:
        """Roll with coerced inputs and a dice source shared with other rolls (contests)."""
        return self.finish(values, self.sampler.sample(values, source, None, choose), choose)

    def prepare(self, given: Mapping[str, Any] | None) -> tuple[dict[str, Any], PreRoll]:
        """Coerced inputs and what is settled before the roll, remembered (:meth:`RollMemo.prepare`)."""
        return self.memo.prepare(given)

    def remembered(self) -> Remembered:
        """How much this runner remembers now (see :class:`RollMemo`)."""
        return self.memo.remembered()

    def sample(self, values: dict[str, Any], source: DiceSource, pre: PreRoll | None = None) -> Sample:
        """Roll the check's dice (unless a gate decides first); nothing is resolved yet."""
        return self.sampler.sample(values, source, pre)

    def finish(self, values: dict[str, Any], sample: Sample, choose: Iterable[int] | None = None) -> CheckResult:
        """Resolve rolled dice with these inputs (which may differ from the inputs the dice
        were rolled with: a bonus from helpers applies to the same dice)."""
        if sample.gated is not None:
            res = sample.gated
        elif values is sample.values and sample.pre is not None:
            # The same inputs the dice were rolled with: the values before the roll are known.
            res = self.memo.resolve_known(sample.pre, sample.rolls, choose)
        else:
            res = self.resolver.resolve_rolls(values, sample.rolls, choose)
        lines = sample.lines
        if res.chosen is not None:  # the choice's line, before the rolls made after it
            at = self._choice_line
            lines = lines[:at] + (functools.partial(self.memo.chosen_text, res.chosen),) + lines[at:]
        return CheckResult(self.model.id, self.check.name, values, res.outcome, res.success, res.result,
                           res.tags, dict(res.values), dict(sample.rolls), sample.pools, lines, res.tier,
                           res.reason, sample.secret, res.skipped, res.choices, res.chosen, dict(res.env),
                           res.signed)

    # ---- exact odds ----------------------------------------------------------------------
    def forget_odds(self) -> None:
        """Empty the odds this runner remembers and its compiled exact evaluators (with their
        pools' caches): what a benchmark does to time exact odds from scratch."""
        self.enumerator.forget()
        self._taken.forget()

    def odds(self, inputs: Mapping[str, Any] | None = None, given: str | None = None) -> CheckOdds:
        """Exact odds; with ``given`` (a yes/no expression over the check's names, e.g.
        ``"outcome == 'success'"``), the odds conditioned on it, and its own probability."""
        if given is not None:
            from .conditional import condition, conditional_odds  # only for --given: not on every odds' import

            holds = condition(self.runtime, self.check, given)  # a mistake in it is said before one in the inputs
            values = self.coerce_inputs(inputs)
            return conditional_odds(self._taken.enumerator(values), values, holds, given)
        values = self.coerce_inputs(inputs)
        return self._taken.enumerator(values).odds(values)

    def resolutions(self, values: dict[str, Any], reads: RollReads | None = None, cut: bool = False
                    ) -> tuple[list[tuple[Resolution, dict, int]], int]:
        """Every resolution of the check for these (coerced) inputs, with its weight over a
        common denominator: the exact driver of the one resolver (:meth:`Enumerator.resolutions`)."""
        return self.enumerator.resolutions(values, reads, cut)

    def joint_rolls(self, values: dict[str, Any], reads: RollReads | None = None, cut: bool = False
                    ) -> tuple[dict, Resolution | None, Joint, int]:
        """The values known before rolling, a gate's verdict, and every joint value of the
        check's rolls with its weight over ``denom`` (:meth:`Enumerator.joint_rolls`)."""
        return self.enumerator.joint_rolls(values, reads, cut)

    def expression_dist(self, e: Expr, env: Mapping[str, Any], budget: Budget) -> Dist:
        """The exact distribution of any expression of this ruleset read with a party's names
        (a contest's roll-off), by the check's own exact driver."""
        return self.enumerator.expression_dist(e, env, budget)
