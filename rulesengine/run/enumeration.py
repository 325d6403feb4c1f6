"""The exact driver of a check: every joint value of its rolls with its exact weight, each
resolved by the one resolver (:mod:`.resolver`), and the odds they add up to.

The work is charged to ``max_states`` before it is done: each join of a roll's values, each
distribution of a roll that reads earlier rolls, each resolution (and each way of choosing
dice), so a check too big to work out is refused at once, at the roll that makes it so.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any
from collections.abc import Mapping

from ..dice.beyond import UNDETERMINED, Beyond
from ..dice.dist import Budget, BudgetExceeded, Dist, held_cost, shared_budget
from ..cache import CHECK_ODDS, SizedCache, weights_size
from ..errors import LimitError, Location, RulesEngineError
from ..records import replace
from ..rules.model import Check, Expr
from .choosing import ways_to_try
from .closed_moments import ClosedMoments, unbounded_moments
from .exact import ExactRolls, RollReads, remembering_rolls
from .groups import Plans, ResolutionGroups, resolve_plans
from .fused import Alias, FusedRolls, fused_rolls
from .marginals import ReportPasses, report_passes
from .joint_values import Joint, joint_width, outcomes_of
from .shared_rolls import SharedJoint, choice_key, moments_key, shared_rolls
from .reading_join import join_reading
from .resolver import Resolver
from .results import CheckOdds, Resolution
from .runtime import Runtime
from .tally import OddsTally, collecting_undecided, note_undecided

if TYPE_CHECKING:  # each imported where the check needs it (start-up, issue 33)
    from .pushed import PushedSum

_UNSET = object()

GROUPED_FROM = 1024
"""The fewest joint values one call's odds try to group (:meth:`Enumerator._grouped_resolutions`)."""
GROUP_SAMPLE = 256
"""How many of them are grouped first, to see whether grouping them all is worth it."""


class Enumerator:
    """Exact odds of one check."""

    def __init__(self, runtime: Runtime, resolver: Resolver, exact: ExactRolls) -> None:
        self.runtime = runtime
        self.resolver = resolver
        self.check: Check = resolver.check
        self.exact = exact
        self._odds_token = object()  # this check's part of cache.CHECK_ODDS (a new one forgets it)
        self.groups = ResolutionGroups(runtime, resolver, self.check)
        self._passes: ReportPasses | None | object = _UNSET  # report_passes(check), once asked
        self._fusions: tuple[FusedRolls, ...] | None = None  # _fused(()), once asked
        self._push: PushedSum | None | object = _UNSET  # _pushed(()), once asked

    def forget(self) -> None:
        """Empty the odds remembered and the compiled exact evaluators (with their pools'
        caches): what a benchmark does to time exact odds from scratch."""
        self._odds_token = object()  # the old entries are never asked for again and age out
        self.exact.forget()

    def odds(self, values: dict[str, Any]) -> CheckOdds:
        """Exact odds for these (coerced) inputs, remembered in the shared cache."""
        key = (self._odds_token, tuple(sorted((k, str(v)) for k, v in values.items())))
        cached = CHECK_ODDS.get(key)
        if cached is not None:
            return cached
        with remembering_rolls():  # the moments join the rolls again: each worked out once
            odds = self._odds_in_passes(values)
            odds = self._tally(values) if odds is None else odds
            cut_values = [k for k, cut in odds.values_truncated.items() if cut]
            if odds.result_truncated or cut_values:
                found = self._moments(values)
                mean, variance = found.result
                if mean is not None and odds.result_truncated:
                    odds = replace(odds, unbounded_mean=mean, unbounded_variance=variance)
                closed = {k: found.values[k] for k in cut_values if found.values.get(k, (None,))[0] is not None}
                if closed:
                    odds = replace(odds, values_moments=closed)
        CHECK_ODDS.put(key, odds, odds.size)
        return odds

    def _tally(self, values: dict[str, Any], reads: RollReads | None = None) -> CheckOdds:
        """The odds of every resolution, with ``reads`` (see :meth:`resolutions`)."""
        acc = OddsTally()
        with collecting_undecided() as undecided:
            shared = self._shared_resolutions(values) if reads is None and shared_rolls() is not None else None
            outcomes, joint_denom = shared if shared is not None else self._grouped_resolutions(values, reads)
        total_weight = 0
        for res, _env, w in outcomes:
            acc.add(res, w, 1)
            total_weight += w
        rt = self.runtime
        return acc.finish(rt.model, self.check, values, joint_denom, total_weight, rt.limits.max_states,
                          shared_rolls(), undecided)

    def _odds_in_passes(self, values: dict[str, Any]) -> CheckOdds | None:
        """The odds with the reported values that nothing else reads worked out apart (see
        :mod:`.marginals`): a pass for the outcome, result, tags and tiers, and one for each
        of those values, over one work budget. None where the check can't be split so, or a
        pass meets what it can't split (a roll cut by the depth) or runs out of work: the
        caller then works out every reading in one pass."""
        if self._passes is _UNSET:
            self._passes = report_passes(self.check)
        passes = self._passes
        if not isinstance(passes, ReportPasses) or self.check.after_choice:
            return None
        with shared_budget(self.runtime.limits.max_states) as total:
            try:
                odds = self._tally(values, RollReads(passes.core))
                apart = {name: self._tally(values, RollReads(views)) for name, views in passes.apart}
            except LimitError:
                if total.timed_out or (total.total is not None and total.total.exhausted):
                    raise  # a budget shared beyond this check ran out: nothing is left to fall back on
                return None
        if any(o.truncated or o.result_truncated or any(o.values_truncated.values())
               for o in (odds, *apart.values())):
            return None
        return replace(odds, values={k: apart[k].values[k] if k in apart else v for k, v in odds.values.items()})

    def _unbounded_moments(self, values: dict[str, Any]) -> ClosedMoments:
        """The result's and the reported values' moments with explosions followed for ever,
        where they have a closed form (:mod:`.closed_moments`)."""
        rt = self.runtime

        def until_choice(env: dict[str, Any], budget: Budget) -> tuple[Joint, int]:
            return self._joint(env, {}, budget, None, False, until_choice=True)

        return unbounded_moments(self.check, self.resolver, self.exact, values, until_choice, rt.limits, rt.functions)

    def resolutions(self, values: dict[str, Any], reads: RollReads | None = None, cut: bool = False,
                    open_ok: bool = False) -> tuple[list[tuple[Resolution, dict, int]], int]:
        """Every resolution of the check for these (coerced) inputs, with its weight over a
        common denominator. Weights sum to the denominator unless an explosion was truncated.
        ``reads``: what is read of the rolls when more than the check's own rules read (see
        :class:`RollReads`).

        ``cut``: also resolve what explosions cut off, where it is known to be at least some
        number (:mod:`rulesengine.dice.beyond`): a resolution that comes out the same
        whatever the explosions went on to is kept (its result may itself be an
        ``AtLeast``), the rest stays truncated; with ``open_ok`` (the check's own odds), one whose
        outcome is decided where a tag or the tier is not too (``Resolution.open_parts``)."""
        env, gated, joint, denom = self.joint_rolls(values, reads, cut)
        if gated is not None:
            return [(gated, env, 1)], 1
        return self._resolve(env, joint, cut, open_ok=open_ok), denom

    def _grouped_resolutions(self, values: dict[str, Any], reads: RollReads | None = None
                             ) -> tuple[list[tuple[Resolution, dict, int]], int]:
        """:meth:`resolutions` (with ``cut``) for the odds of one call (or one pass of them,
        ``reads``: :meth:`_odds_in_passes`), the joint values its rules can't tell apart
        (:mod:`.groups`) resolved once for all, where that is worth it: many joint values
        (``GROUPED_FROM``), and the first ``GROUP_SAMPLE`` of them falling into at most a
        quarter as many groups (a push read only through ``count(b, 6) + again``: tens of
        thousands of joint values, a hundred sums). Decided by counts alone, so the same
        inputs take the same path; charged as resolving every joint value is. Joint values
        alike in every part the rules read resolve alike in each pass too."""
        env, gated, joint, denom = self.joint_rolls(values, reads, True)
        if gated is not None:
            return [(gated, env, 1)], 1
        if not self._worth_grouping(joint, env):
            return self._resolve(env, joint, True, open_ok=True), denom
        return self._resolve(env, joint, True, self.groups.group(joint, env), open_ok=True), denom

    def _worth_grouping(self, joint: Joint, env: Mapping[str, Any]) -> bool:
        """Whether resolving ``joint`` by groups is worth working out the groups: many joint
        values, the first ``GROUP_SAMPLE`` of them falling into at most a quarter as many.
        Not where rolls are made after the choice: their joint values hold chosen values too."""
        return len(joint) >= GROUPED_FROM and not self.check.after_choice and self.groups.plan() is not None \
            and len(self.groups.group(joint[:GROUP_SAMPLE], env) or joint) <= GROUP_SAMPLE // 4

    def _resolve(self, env: dict, joint: Joint, cut: bool, resolved: Joint | None = None,
                 plans: Plans | None = None, open_ok: bool = False) -> list[tuple[Resolution, dict, int]]:
        """Each joint value of ``joint`` resolved with ``env``, with its weight; or, given,
        the groups ``resolved`` of them (:mod:`.groups`), each resolved once. Charged as
        ``joint`` alone, and to a sweep's budget the resolutions made. ``plans``: what
        :func:`.groups.resolve_plans` gives for them, where kept; ``open_ok``: :meth:`resolutions`."""
        # Charge the whole enumeration before doing it: every joint outcome is resolved,
        # and where the check chooses dice, every way of choosing is tried (of each joint
        # value's own dice: an exploding roll has more dice in some than in others). What
        # the resolutions hold was charged with the joint values (``_joint``).
        cost = len(joint)
        choose = self.check.choose
        if choose is not None and joint:
            cost = ways_to_try(choose.source, self.resolver.pick(choose, env), joint)
        try:
            budget = Budget(self.runtime.limits.max_states)
            if resolved is None:
                budget.spend(cost)
            else:  # a call alone resolves every joint value: its own budget says so
                budget.spend_here(cost)
                if budget.total is not None:
                    budget.total.spend(len(resolved))
        except BudgetExceeded:
            raise self.resolver.too_big(self.check.rolls[0][1]) from None
        # A check that chooses dice: only the way its rules pick is made and kept; every way
        # is listed for a roll's result (a player may pick another), but C(7, 2) = 21 of them
        # for each of 91,728 throws of seven dice held 500 MB (issue 34).
        resolve = self.resolver.resolve if choose is None else \
            partial(self.resolver.resolve, memo=self.resolver.choice_memo(env))
        source = joint if resolved is None else resolved
        if plans is None:
            plans = resolve_plans(source, self.groups.settled() if resolved is not None else frozenset())
        out = []
        for (rolls, w), (beyond, settled) in zip(source, plans, strict=True):
            local = {**env, **rolls}
            if cut and beyond:
                try:
                    out.append((resolve(local, settled=settled, open_ok=open_ok), local, w))
                except UNDETERMINED + (RulesEngineError,):  # open past the depth: truncated
                    note_undecided(partial(self.resolver.left_open, local, settled), w, local)
                continue
            out.append((resolve(local, settled=settled), local, w))
        return out

    def _shared_resolutions(self, values: dict[str, Any]) -> tuple[list[tuple[Resolution, dict, int]], int] | None:
        """:meth:`resolutions` (with ``cut``) inside :func:`.shared_rolls.sharing_rolls`: the joint values
        of the rolls worked out once for all the inputs that give them alike, and, from the
        second time they are asked for on (from the first, where that is worth it, see
        :meth:`_worth_grouping`), resolved one group at a time (:mod:`.groups`).
        Each computation's own budget is charged as a call alone charges it. None where the
        inputs say nothing to share by (a gate decides, a value is no key)."""
        env, gated, fixed = self.resolver.before_roll(values)[:3]
        if gated is not None:
            return None
        budget = Budget(self.runtime.limits.max_states)
        reads = self.exact.settled_reads(env, budget, None)
        rolls, held = self._rolls(fixed, reads)  # as _joint works them out
        keys = [self.exact.share_key(key, e, env, reads) for name, key, e in rolls if name not in held]
        retired = self.groups.retiring(held)  # rolls retired by lets, which may read inputs
        # the rolls after the choice read the chosen values, which read these too
        chose = choice_key(self.check, env) if self.check.after_choice else ()
        key = (self, "joint", tuple(sorted(held.items(), key=lambda kv: kv[0])), tuple(keys), chose,
               self.groups.known_key(env) if retired else ())
        try:
            hash(key)
        except TypeError:
            return None
        if any(k is None for k in keys) or key[-1] is None:
            return None
        store: SizedCache = shared_rolls()  # type: ignore[assignment]
        entry: SharedJoint | None = store.get(key)
        if entry is None:
            before = budget.used
            joint, denom = self._joint(env, fixed, budget, reads, True)
            entry = SharedJoint(joint, denom, budget.used - before)
            store.put(key, entry, weights_size(len(joint) * (1 + len(self.check.rolls)), denom.bit_length()))
            if not self._worth_grouping(joint, env):
                return self._resolve(env, joint, True, open_ok=True), denom
        else:
            try:  # charged as a call alone is: it fitted then; settled reads may have cost more now
                budget.spend_here(entry.steps)
            except BudgetExceeded:
                raise self.resolver.too_big(self.check.rolls[0][1]) from None
        if self.check.after_choice:  # joint values holding chosen values are resolved one by one
            return self._resolve(env, entry.joint, True, open_ok=True), entry.denom
        try:  # the parts read of each joint value, once for each grouping, to a sweep's budget
            groups, plans = self.groups.grouping(entry.grouped, entry.joint, env, budget.total)
        except BudgetExceeded:
            raise self.resolver.too_big(self.check.rolls[0][1]) from None
        return self._resolve(env, entry.joint, True, groups, plans, open_ok=True), entry.denom

    def _moments(self, values: dict[str, Any]) -> ClosedMoments:
        """:meth:`_unbounded_moments`; in a sweep, once for the values that read alike (those
        the rolls, lets, choice and result read: a difficulty only outcome rules read is not
        among them), as the rolls are (:func:`.shared_rolls.sharing_rolls`)."""
        store = shared_rolls()
        if store is None or self.check.gates:
            return self._unbounded_moments(values)
        key = (self, "moments", moments_key(self.check, self.resolver.before_roll(values).env))
        try:
            found: ClosedMoments | None = store.get(key)
        except TypeError:  # a value that is no key (a pool's dice)
            return self._unbounded_moments(values)
        if found is None:
            found = self._unbounded_moments(values)
            store.put(key, found, 1)
        return found

    def joint_rolls(self, values: dict[str, Any], reads: RollReads | None = None, cut: bool = False
                    ) -> tuple[dict, Resolution | None, Joint, int]:
        """The values known before rolling, a gate's verdict, and every joint value of the
        check's rolls with its weight over ``denom``; with ``cut``, what explosions cut off
        too, as ``AtLeast`` values (see :meth:`resolutions`)."""
        env, gated, fixed = self.resolver.before_roll(values)[:3]
        if gated is not None:
            return env, gated, [], 1
        budget = Budget(self.runtime.limits.max_states)
        # The inputs given: what the rules read of the rolls for these values.
        reads = self.exact.settled_reads(env, budget, reads)
        joint, denom = self._joint(env, fixed, budget, reads, cut)
        return env, None, joint, denom

    def _joint(self, env: dict, fixed: Mapping[str, Any], budget: Budget, reads: RollReads | None, cut: bool,
               until_choice: bool = False) -> tuple[Joint, int]:
        """Every joint value of the rolls, with its weight over the denominator returned;
        with ``until_choice``, of the rolls made before the choice only, each with the values
        the rolls after it read (:func:`.after_choice.with_choice`)."""
        rolls, fixed = self._rolls(fixed, reads)
        retiring = self.groups.retiring(fixed, reads.also if reads is not None else ()) if not until_choice else {}
        per = self._per_die(reads, fixed, retiring)
        # A push added up die by die is made at once: the floors (only bounds) leave both rolls out.
        built, keys = self._afford_readings(env, fixed, budget, reads, cut, rolls if per is None else
                                            [r for r in rolls if r[0] not in (per.first, per.second)])
        joint: Joint = [({}, 1)]
        denom = 1
        chose = False
        for name, key, e in rolls:
            if name in self.check.after_choice and not chose and name not in fixed:
                from .after_choice import read_only_as_chosen, with_choice

                alone = read_only_as_chosen(self.check, *self._readers(reads.also if reads is not None else ()))
                joint, chose = with_choice(self.check, self.resolver, joint, env, budget, cut, alone), True
                if until_choice:
                    return joint, denom
            if name in fixed:
                held = fixed[name]
                joint = [({**d, name: d[held.of] if isinstance(held, Alias) else held}, w) for d, w in joint]
                continue
            if per is not None and name == per.second and name in joint[0][0]:
                continue  # made with its first (below)
            reads_rolls = sorted(e.names & set(joint[0][0])) if joint else []
            if not reads_rolls:
                # a check of one roll: its work is all this budget has left to do but holding its values
                sole = len(rolls) == 1 and not fixed and not retiring
                joint, d = self._join_alone(joint, name, key, e, env, budget, reads, cut, built, sole, per)
                if name in retiring:  # rolls read no more but through lets (.groups)
                    joint = self.groups.retire(joint, retiring[name], env, budget, e)
            else:
                push = self._pushed_here(reads, name, reads_rolls, joint)
                joint, d = join_reading(self, joint, name, e, reads_rolls, env, budget, reads, cut, keys, push)
            denom *= d
        # Each joint value is resolved and kept with the names it is resolved with (those known
        # before the roll, the rolls, what the check adds: ``Resolution.env``): charged before.
        names = self.names_held(env, joint)
        spent, held = budget.used, held_cost(len(joint), names)
        try:
            budget.spend(held)
        except BudgetExceeded:
            # What was spent already is said too: the joint values alone may be well inside the limit.
            raise self.resolver.too_big(self.check.rolls[-1][1], f"{spent:,} steps working the rolls out, then "
                                        f"{len(joint):,} joint values to resolve and keep ({held:,} more): past "
                                        f"max_states ({self.runtime.limits.max_states:,})") from None
        return joint, denom

    def _rolls(self, fixed: Mapping[str, Any], reads: RollReads | None
               ) -> tuple[list[tuple[str, str, Expr]], Mapping[str, Any]]:
        """The rolls as exact odds work them out, in order, each as (its name in the joint
        values, the name its distribution is kept and shared by, its expression), and the
        rolls whose values are fixed: rolls read only through one sum (:mod:`.fused`) are
        that sum, held by the first of them, the others fixed at 0 (unless a gate fixed one)."""
        rolls = [(name, name, e) for name, e in self.check.rolls]
        if self.check.after_choice:  # a roll after the choice reads more than rolls: none is fused
            return rolls, fixed
        also = reads.also if reads is not None else ()
        if also:  # a condition of conditional odds: asked anew, as each condition may read otherwise
            found = self._fused(also)
        else:
            if self._fusions is None:
                self._fusions = self._fused(())
            found = self._fusions
        for fused in found:
            if not any(m in fixed for m in fused.members):
                fixed = {**fixed, **{m: Alias(fused.carrier) if m in fused.aliases else 0 for m in fused.members[1:]}}
                rolls = [(n, fused.key, fused.expr) if n == fused.carrier else (n, k, e) for n, k, e in rolls]
        return rolls, fixed

    def _fused(self, also: tuple[Expr, ...]) -> tuple[FusedRolls, ...]:
        """The check's rolls read only through one sum, by its rules, by what a procedure reads
        of them (a roll a procedure reads by another name is left alone) and by ``also``."""
        more, renamed = self._readers(also)
        return fused_rolls(self.check, more, renamed, self.runtime.limits, self.runtime.functions)

    def _pushed(self, reads: RollReads | None) -> PushedSum | None:
        """The roll made after seeing another that the rules read with it only through one
        sum (:mod:`.pushed`), read as :meth:`_fused` reads; asked anew for a condition. None
        where no roll reads another (and pushed.py is not imported)."""
        names = [n for n, _ in self.check.rolls]
        if not any(e.names & set(names[:i]) for i, (_, e) in enumerate(self.check.rolls)):
            return None
        from .pushed import pushed_sum

        also = reads.also if reads is not None else ()
        if also:
            return pushed_sum(self.check, *self._readers(also), self.runtime.limits, self.runtime.functions)
        if self._push is _UNSET:
            self._push = pushed_sum(self.check, *self._readers(()), self.runtime.limits, self.runtime.functions)
        return self._push  # type: ignore[return-value]

    def _pushed_here(self, reads: RollReads | None, name: str, reads_rolls: list[str], joint: Joint
                     ) -> PushedSum | None:
        """The push whose second roll ``name`` is joined to its first alone (:meth:`.PushedSum.joins`)."""
        push = self._pushed(reads)
        return push if push is not None and push.joins(name, reads_rolls, joint) else None

    def _per_die(self, reads: RollReads | None, fixed: Mapping[str, Any], retiring: Mapping[str, Any]
                 ) -> PushedSum | None:
        """The push added up die by die, neither roll fixed nor retired (:meth:`.PushedSum.at_once`)."""
        push = self._pushed(reads)
        return None if push is None else push.at_once({*fixed, *retiring})

    def _join_alone(self, joint: Joint, name: str, key: str, e: Expr, env: dict, budget: Budget,
                    reads: RollReads | None, cut: bool, built: dict[str, Dist], sole: bool,
                    per: PushedSum | None) -> tuple[Joint, int]:
        """The joint values so far joined with a roll that reads none of them (``built``, or worked
        out: ``sole``, the check's one roll), or with both of a push ``per`` that begins with it."""
        if per is not None and name == per.first:
            from .pushed import joined_die_by_die

            summed = joined_die_by_die(joint, name, per, env, self.runtime.limits, budget, cut,
                                       lambda what: self.too_big(dict(self.check.rolls)[per.second], what))
            if summed is not None:
                return summed
        budget.sole = sole
        try:
            dist = built.pop(name) if name in built else self.roll_dist(key, e, env, budget, reads)
        finally:
            budget.sole = False
        return self._join(joint, name, e, dist, budget, cut), dist.denom

    def _readers(self, also: tuple[Expr, ...]) -> tuple[list[Expr], frozenset[str]]:
        """What reads the check's rolls beside its rules: what a procedure reads of them (and
        the rolls it reads by another name), and ``also``."""
        procedures = self.runtime.model.procedures
        if not procedures:  # (rules.procedures is imported only for a file with procedures)
            return list(also), frozenset()
        from ..rules.procedures import roll_readers

        return roll_readers(procedures.values(), self.check.name, also)

    def _join(self, joint: Joint, name: str, e: Expr, dist: Dist, budget: Budget, cut: bool) -> Joint:
        """The joint values so far, each with each value of a roll that reads none of them."""
        outcomes = outcomes_of(dist, cut)
        try:  # each new joint value holds the values of the rolls so far and this one
            budget.spend(held_cost(len(joint) * len(outcomes), joint_width(joint) + 1))
        except BudgetExceeded:
            raise self.resolver.too_big(e) from None
        return [({**d, name: v}, w * wv) for d, w in joint for v, wv in outcomes]

    def _afford_readings(self, env: dict, fixed: Mapping[str, Any], budget: Budget, reads: RollReads | None,
                         cut: bool, rolls: list[tuple[str, str, Expr]]
                         ) -> tuple[dict[str, Dist], dict[str, dict[tuple, Any]]]:
        """Charge, before any joint value is made or any roll that reads earlier rolls is
        worked out, at least what :meth:`joint_rolls` will charge (see :mod:`.readings`):
        for each roll, the joint values of the rolls up to it and, for a roll that reads
        earlier ones, one step for each reading of them and at least the steps and values
        of its distributions. What is refused here would be refused there, only later.
        Returns the distributions of the rolls that read none, built once, and the reading
        keys worked out on the way (by roll and reading, see ExactRolls.reading_key)."""
        names = [n for n, _, _ in rolls]
        read_by = {n: sorted(e.names & set(names[:i])) for i, (n, _, e) in enumerate(rolls)}
        if not any(read_by.values()):
            return {}, {}  # no roll reads another: each join is charged before it is made
        from .readings import Floors

        floors = Floors(self.exact, self.runtime.limits, self.resolver.too_big, env, budget, reads,
                        {n: e for n, _, e in rolls}, read_by)
        built: dict[str, Dist] = {}
        for name, key, e in rolls:
            if name in self.check.after_choice:
                break  # read with the chosen values: charged as it is worked out
            if isinstance(fixed.get(name), Alias):
                break  # holds what its carrier holds: charged as it is worked out
            if name in fixed:
                floors.known(name, [] if isinstance(fixed[name], Beyond) else [fixed[name]], 1, stage=False)
            elif not read_by[name]:
                dist = built[name] = self.roll_dist(key, e, env, budget, reads)
                outcomes = outcomes_of(dist, cut)
                floors.known(name, [v for v, _ in outcomes if not isinstance(v, Beyond)], len(outcomes))
            elif not floors.reading(name):
                break  # past what can be floored: the rest is charged as it is worked out
        return built, floors.keys

    def names_held(self, env: Mapping[str, Any], joint: Joint) -> int:
        """The names a resolution of a joint value keeps: those known before the roll, the
        rolls, and what the check adds to them (its lets, the chosen values, result, outcome
        and success; ``Resolution.env``)."""
        check = self.check
        return len(env) + joint_width(joint) + len(check.lets) + (len(check.choose.values) if check.choose else 0) + 3

    def too_big(self, e: Expr, what: str = "") -> LimitError:
        """The refusal of exact odds over the work budget, at ``e`` (``Resolver.too_big``)."""
        return self.resolver.too_big(e, what)

    def expression_dist(self, e: Expr, env: Mapping[str, Any], budget: Budget) -> Dist:
        """The exact distribution of any expression of this ruleset read with a party's names
        (a contest's roll-off): the check's own exact driver, tables and functions, so what
        rolls also has odds. Pool values count by their totals."""
        try:
            dist = self.exact.expression_dist(e, env, budget)
        except BudgetExceeded:
            raise self.resolver.too_big(e) from None
        except RulesEngineError as exc:
            raise self.runtime.relocate(exc, e) from None
        return self._listable(dist, e)

    def roll_dist(self, name: str, e: Expr, env: dict, budget: Budget, reads: RollReads | None = None,
                  what: str = "") -> Dist:
        """The exact distribution of the check's roll ``name`` (``e``) with ``env``; in a sweep,
        the one worked out for another value where it is the same (``sharing_rolls``)."""
        shared = shared_rolls()
        key = self.exact.share_key(name, e, env, reads) if shared is not None else None
        if key is not None:
            found = shared.get(key)  # type: ignore[union-attr]
            if found is not None:  # worked out for another value of the sweep
                dist, steps = found
                try:
                    budget.spend_here(steps)
                except BudgetExceeded:
                    raise self.resolver.too_big(e, what) from None
                return dist
        before = budget.used
        try:
            dist = self.exact.roll_dist(name, e, env, budget, reads)
        except BudgetExceeded:
            raise self.resolver.too_big(e, what) from None
        except RulesEngineError as exc:
            raise self.runtime.relocate(exc, e) from None
        dist = self._listable(dist, e)
        if key is not None:
            shared.put(key, (dist, budget.used - before),  # type: ignore[union-attr]
                       weights_size(len(dist.weights) + len(dist.tail), dist.denom.bit_length()))
        return dist

    def _listable(self, dist: Dist, e: Expr) -> Dist:
        """``dist``, a roll's or an expression's distribution, where it has at most
        ``max_outcomes`` values: each of them is resolved and may be listed, so a check is
        held to the limit its expression's own odds are (``dice.odds``), at the same point,
        before any value is resolved."""
        limits = self.runtime.limits
        if len(dist.weights) > limits.max_outcomes:
            raise self.runtime.relocate(LimitError(
                f"'{e.text}' has {len(dist.weights):,} possible values, too many to list", "max_outcomes",
                Location(column=1, source_line=e.text),
                f"at most {limits.max_outcomes:,} (a limit of its own: --max-states does not raise it); use fewer dice "
                "or sides, or roll it instead"), e)
        return dist
