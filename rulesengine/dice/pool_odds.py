"""The exact distribution of a dice term's value, for the rules :class:`PoolSpec` holds.

One die's face after rerolls (:func:`face_dist`) and one die with its explosions
(:func:`die_dist`) are :mod:`.die_odds`'s; here, the pool: a sum of independent dice when
every die is kept, a dynamic programme over face values for keeps (:func:`_keep_dp`), or
over sorted value tuples when explosions grow the pool (:func:`_keep_multiset`). :func:`faces_dist` gives
whole rolls, for rules that look at single dice (:mod:`.mixed_pool`: a pool of mixed dice). Every step
charges the exact-odds :class:`Budget` before it does the work.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any

from .beyond import CutRoll
from .die_odds import MAX_CHAIN_STATES, die_dist, face_dist, followed_chains
from .dist import NO_TAIL, Budget, BudgetExceeded, Dist, add, combine2, held_cost, step_cost, sum_of
from .pool import PoolSpec
from .values import Rolled, joined
from .face_fold import complete_reads, fold_by_face
from .view_fold import Counted, CutChain, PoolView, fold, fold_at_once, fold_dice, fold_one_cut, readings, tally
from ..limits import Limits


# ---- exact distribution ------------------------------------------------------------------


def pool_dist(spec: PoolSpec, count: int, limits: Limits, budget: Budget) -> Dist:
    """The exact distribution of a dice term's value with ``count`` dice."""
    if count == 0:
        return Dist.point(0)
    if spec.reroll_rank is not None:
        lowest, n = spec.reroll_rank
        n = min(n, count)
        if not spec.keeps and not spec.by_face:
            # The dice that stay are the throw's highest (lowest) count - n, whatever the
            # new dice show: their sum by order statistics, plus n new dice.
            lo, hi = (0, count - n) if lowest else (n, count)
            stay = _keep_dp(die_dist(spec, "value", limits, budget), count, lo, hi, spec.score, budget) \
                if hi > lo else Dist.point(0)
            return add(stay, sum_of(die_dist(spec, "total", limits, budget), n, budget), budget).reduced()
        return _ranked_values(spec, count, budget).map(lambda t: _kept_score(spec, t))
    if sums_whole(spec, count):
        return sum_of(die_dist(spec, "total", limits, budget), count, budget)
    if spec.explode in (None, "compound") and not spec.by_face:
        lo, hi = spec.kept_range(count)
        return _keep_dp(die_dist(spec, "value", limits, budget), count, lo, hi, spec.score, budget,
                        bounds=not spec.counting and spec.low is None and spec.high is None)
    followed = _followed_keeps(spec, budget)
    return _keep_multiset(spec, followed if followed is not None else die_dist(spec, "values", limits, budget),
                          count, budget)


def sums_whole(spec: PoolSpec, count: int) -> bool:
    """Whether ``count`` dice of ``spec`` are worth the sum of their dice, each die alone
    (no keep that drops dice, no reroll of the lowest or highest): a sum of copies of one die."""
    return spec.reroll_rank is None and (not spec.keeps or not spec.by_face and spec.kept_range(count) == (0, count)
                                         and spec.explode in (None, "compound"))


def _ranked_values(spec: PoolSpec, count: int, budget: Budget) -> Dist:
    """``rolN``/``rohN``: the sorted values (highest first) of the dice after the N lowest
    (highest) of the throw are rolled once more. Over the throw's multisets: the dice that
    stay, joined with every multiset of the N new dice."""
    lowest, n = spec.reroll_rank  # type: ignore[misc]
    n = min(n, count)
    one = face_dist(spec, budget).map(lambda f: (spec.clamp(f),))
    throw = _multisets(one, count, budget)
    fresh = _multisets(one, n, budget)
    budget.spend(len(throw.weights) * len(fresh.weights) * count)
    out: dict[tuple, int] = defaultdict(int)
    for t, w in throw.weights.items():
        stay = t[:count - n] if lowest else t[n:]
        for u, wu in fresh.weights.items():
            out[tuple(sorted(stay + u, reverse=True))] += w * wu
    return Dist(dict(out), throw.denom * fresh.denom).reduced()


def _multisets(one: Dist, n: int, budget: Budget) -> Dist:
    """n dice of ``one`` (each a tuple of values) as sorted tuples, highest first."""
    return Dist(_sorted_tuples(one, n, budget), one.denom ** n)


def _sorted_tuples(d: Dist, n: int, budget: Budget, trim: Callable[[tuple], tuple] | None = None) -> dict[tuple, int]:
    """The weights of the sorted values (highest first) of n dice of ``d``, each die a tuple
    of values (its face, and the dice its explosions added); ``trim`` keeps of each state
    only what can still matter."""
    states: dict[tuple, int] = {(): 1}
    items = list(d.weights.items())
    bits = d.denom.bit_length()
    for i in range(n):
        budget.spend(len(states) * len(items) * step_cost((i + 1) * bits))
        nxt: dict[tuple, int] = defaultdict(int)
        for t, w in states.items():
            for t2, w2 in items:
                key = tuple(sorted(t + t2, reverse=True))
                nxt[trim(key) if trim is not None else key] += w * w2
        states = nxt
    return states


def kept_values(spec: PoolSpec, values: tuple) -> tuple[tuple, bool]:
    """The values a term keeps of its dice' sorted values (keeps by face, then by rank), and
    whether it keeps them all."""
    playing = tuple(v for v in values if spec.in_play(v)) if spec.by_face else values
    lo, hi = spec.kept_range(len(playing))
    kept = playing[lo:hi]
    return kept, len(kept) == len(values)


def _kept_score(spec: PoolSpec, values: tuple) -> int:
    """The term's value from its dice' sorted values: what it keeps, scored."""
    return sum(spec.score(v) for v in kept_values(spec, values)[0])


def _keep_dp(d: Dist, n: int, lo: int, hi: int, score: Callable[[int], int],
             budget: Budget, bounds: bool = False) -> Dist:
    """Sum of ``score`` over the dice ranked [lo, hi) among n iid dice (rank 0 = highest).

    Dynamic programming over face values instead of over dice: walk the values from the
    end nearer the kept ranks, choosing how many dice show each value (weight
    C(remaining, c)·w^c). The state is (dice placed, score so far, whether a die the
    explosion depth cut is among those kept), with fewer than ``hi`` dice placed. Once a
    choice fills every kept rank the score no longer depends on how many more dice show
    that value, so that whole tail is one term in closed form, (w + rest)^left − (the head
    terms), rest being the weight of the lower values. Each state costs O(hi) big-integer
    steps, not O(n): 20d6kh3 has a few dozen states, and 10000d6kh3 takes a fraction of a
    second.

    With ``bounds`` (each die worth its value), the dice the depth cut (``d.tail``: lower
    bounds, every one above each value of a die not cut, as a compounding ``d10!!`` has) are
    ranked above the others: a roll keeping one is at least its kept values (the tail of the
    result), one dropping them all is exact (``2d10!!kl1``), so ``2d10!!kh1 >= 15`` is exact.
    """
    values = _ranked(d, bounds)
    if lo > 0 and hi == n:  # keeping the lowest: walk upwards, ranks mirrored
        values.reverse()
        lo, hi = 0, n - lo
    # Every value costs at least one state's (hi + 1) steps, at the size of the final
    # weights (n · bits of one die): charge that floor before anything is built, so a term
    # too big for the budget (1000d1000000kh1) is refused at once; the loop charges the
    # states beyond the first.
    cost = (hi + 1) * step_cost(n * d.denom.bit_length())
    budget.spend(len(values) * cost)
    suffix = [0] * (len(values) + 1)
    for i in range(len(values) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + values[i][1]
    states: dict[tuple[int, int, bool], int] = {(0, 0, False): 1}
    final: dict[tuple[int, bool], int] = defaultdict(int)
    last = len(values) - 1
    for i, (v, w, cut) in enumerate(values):
        sv = v if cut else score(v)
        rest = suffix[i + 1]
        budget.spend((len(states) - 1) * cost)
        nxt: dict[tuple[int, int, bool], int] = defaultdict(int)
        # The weights of this value's choices depend on the dice placed alone, not on the
        # score so far: worked out once for each number placed (their powers are big).
        by_placed: dict[int, tuple[list[int], int]] = {}
        for (placed, acc, was_cut), weight in states.items():
            left = n - placed
            if i == last:  # every remaining die shows this, the lowest value
                final[_kept(acc, hi - max(placed, lo), sv, was_cut, cut)] += weight * w ** left
                continue
            known = by_placed.get(placed)
            if known is None:
                known = by_placed[placed] = _choices(left, hi - placed, w, rest)
            terms, filled = known
            need = hi - placed  # this many more dice fill every kept rank
            base = lo - placed if lo > placed else 0  # c dice of this value: c - base of them kept
            for c, term in enumerate(terms):  # fewer than fill the kept ranks (_kept, written out)
                key = (placed + c, acc + (c - base) * sv, was_cut or cut) if c > base else (placed + c, acc, was_cut)
                nxt[key] += weight * term
            final[(acc + (need - base) * sv, was_cut or cut) if need > base else (acc, was_cut)] += weight * filled
        states = nxt
        if not states:
            break
    weights = {acc: weight for (acc, was_cut), weight in final.items() if not was_cut}
    tail = {acc: weight for (acc, was_cut), weight in final.items() if was_cut}
    return Dist(weights, d.denom ** n, tail or NO_TAIL).reduced()


def _choices(left: int, need: int, w: int, rest: int) -> tuple[list[int], int]:
    """:func:`_keep_dp`'s weights for one value of weight ``w`` with ``left`` dice to place,
    ``need`` of which fill every kept rank (1 <= need <= left), ``rest`` the weight of the
    values after it: of c = 0 … need - 1 dice showing it, C(left, c)·w^c; and of ``need`` or
    more, (w + rest)^left less the ways with fewer."""
    terms: list[int] = []
    binom, wp, head = 1, 1, 0
    for c in range(need):
        if c:
            binom = binom * (left - c + 1) // c
            wp *= w
        term = binom * wp
        terms.append(term)
        head += term * rest ** (left - c)
    return terms, (w + rest) ** left - head


def _ranked(d: Dist, bounds: bool) -> list[tuple[int, int, bool]]:
    """A die's values, highest first, each with its weight and whether the depth cut it: with
    ``bounds``, the cut dice's lower bounds first, where each is above every value not cut."""
    values = [(v, w, False) for v, w in sorted(d.weights.items(), reverse=True)]
    if bounds and d.tail and d.weights and all(type(b) is int for b in d.tail) and min(d.tail) > max(d.weights):
        return [(b, w, True) for b, w in sorted(d.tail.items(), reverse=True)] + values
    return values


def _kept(acc: int, kept: int, score: int, was_cut: bool, cut: bool) -> tuple[int, bool]:
    """The score so far with ``kept`` more dice of ``score`` (a cut one among them: ``cut``)."""
    return (acc + kept * score, was_cut or cut) if kept > 0 else (acc, was_cut)


def _keep_multiset(spec: PoolSpec, d: Dist, n: int, budget: Budget) -> Dist:
    """Keeps over pools that grow by explosion: combine the dice's sorted value tuples.

    Only the highest (``kh``) or lowest (``kl``) values that can still be kept are carried,
    which keeps the state small for the usual ``Nd6!khK``.
    """
    # With a single kh/kl, the carried values are exactly the kept ones (dice set aside by
    # their face, k=3 or p1, are left out as they come).
    simple_keep = len(spec.keeps) == 1 and spec.keeps[0][0] in ("kh", "kl")
    if spec.by_face:
        d = d.map(lambda t: tuple(v for v in t if spec.in_play(v)))
    elif simple_keep and spec.keeps[0][0] == "kh" and d.tail:
        d = _with_topped_cuts(spec, d, spec.keeps[0][1])
    trim: Callable[[tuple], tuple] | None = None
    if simple_keep:
        k = spec.keeps[0][1]
        trim = (lambda t: t[:k]) if spec.keeps[0][0] == "kh" else (lambda t: t[-k:])  # noqa: E731
    states = _sorted_tuples(d, n, budget, trim)
    out: dict[int, int] = defaultdict(int)
    for t, w in states.items():
        if simple_keep:
            kept = t
        else:
            lo, hi = spec.kept_range(len(t))
            kept = t[lo:hi]
        out[sum(spec.score(v) for v in kept)] += w
    return Dist(dict(out), d.denom ** n).reduced()


MOST_FOLLOWED_KEEPS = 8192
"""The most readings times faces :func:`_followed_keeps` follows (``4d20!>=15kh2``: 231 · 20):
each reading reads every face of a chain as long as the chain that reached it, so the
work grows faster than the budget :func:`followed_chains` charges; past this, the depth's."""


def _followed_keeps(spec: PoolSpec, budget: Budget) -> Dist | None:
    """Each die's chain (a die and the dice its explosions add, ``!``) read by the ``k``
    highest (lowest) values it holds, followed for ever (:func:`followed_chains`), where the
    term keeps its ``k`` highest (``khK``, ``klK``) of all its dice: those are the ``k``
    highest of its chains' ``k`` highest, so ``3d6!>=5kh2`` has nothing cut though a chain
    of 5s and 6s may go on for ever (more 5s leave its two highest 6 and 6, or 6 and 5, as
    they were). For dice worth their faces; None where it does not apply or the readings
    run past their bound."""
    if spec.explode != "explode" or spec.counting or spec.low is not None or spec.high is not None \
            or spec.by_face or spec.reroll_rank is not None or len(spec.keeps) != 1 \
            or spec.keeps[0][0] not in ("kh", "kl"):
        return None
    highest, k = spec.keeps[0][0] == "kh", spec.keeps[0][1]
    faces = len(face_dist(spec, budget).weights)
    readings = math.comb(faces + k, k)  # at most: the multisets of up to k faces
    if readings > MAX_CHAIN_STATES or readings * faces > MOST_FOLLOWED_KEEPS:
        return None  # too many to follow, known before following any (3d1000!>=500kh3, 2d500!>=2kh1)

    def reading(values: tuple) -> tuple:
        ranked = sorted(values, reverse=True)
        return tuple(ranked[:k] if highest else ranked[-k:])

    try:
        chains = followed_chains(spec, "values", reading, budget, k + 1)
    except (TypeError, ValueError):  # faces that are not whole numbers
        return None
    if chains is None:
        return None
    common = math.lcm(*(p.denominator for p, _ in chains.values()))
    return Dist({key: p.numerator * (common // p.denominator) for key, (p, _) in chains.items()}, common)


def _with_topped_cuts(spec: PoolSpec, d: Dist, k: int) -> Dist:
    """``d`` with the chains the depth cut whose dice so far already hold ``k`` top faces
    (``Nd6!kh3``: a chain cut at the depth has eleven 6s) among its values: the ``k`` highest
    of any throw holding one are those, whatever more dice come, so it is known; the other
    cut chains stay cut. For dice worth their faces (no clamp, count or other die)."""
    if not d.tail or spec.explode != "explode" or spec.counting or spec.die.custom is not None \
            or spec.low is not None or spec.high is not None or spec.die.sides is None:
        return d
    top = (spec.die.sides,) * k
    topped = {t: w for t, w in d.tail.items() if isinstance(t, tuple) and t[:k] == top}
    if not topped:
        return d
    return Dist({**d.weights, **topped}, d.denom)


# ---- whole rolls, for rules that look at single dice ------------------------------------------


def faces_dist(spec: PoolSpec, count: int, limits: Limits, budget: Budget, initial: bool = False) -> Dist:
    """The distribution of a dice term seen whole: ``Rolled(total, kept values)``, the kept
    values sorted highest first (the order dice come up in doesn't change the odds).
    ``initial``: keep which dice the first throw rolled too (``Rolled.initial``, where every
    die is kept), the states then being (every value, the first throw's values).

    Enumerates multisets, not sequences: 3d6 has 56 states, 2d10 has 55.
    """
    if spec.reroll_rank is not None:  # every die is of the first throw: nothing added
        out_ranked: dict = defaultdict(int)
        ranked = _ranked_values(spec, count, budget)
        for values, w in ranked.weights.items():
            kept, every = kept_values(spec, values)
            out_ranked[Rolled(sum(spec.score(v) for v in kept), kept, initial=kept if initial and every else None,
                              symbols=spec.symbols_of(kept), shows=spec.shows_of(kept))] += w
        return Dist(dict(out_ranked), ranked.denom).reduced()
    d = die_dist(spec, "chain" if initial else "values", limits, budget)

    def rolls(b: Budget, with_cut: bool) -> Dist:
        # Each die's chains, and those the depth cut (more dice were to come): a state is the
        # sorted values (and the first throw's), and whether a die of it was cut.
        items = [(t, w, False) for t, w in d.weights.items()]
        if with_cut:
            items += [(t, w, True) for t, w in d.tail.items()]
        states: dict[tuple, int] = {((), (), False) if initial else ((), False): 1}
        for i in range(count):
            # sorting tuples of i + 1 dice (twice, with the first throw), weights of (i + 1) dice's bits
            b.spend(len(states) * len(items) * (2 if initial else 1) * (i + 1)
                    * step_cost((i + 1) * d.denom.bit_length()))
            nxt: dict[tuple, int] = defaultdict(int)
            for t, w in states.items():
                for t2, w2, cut in items:
                    if initial:
                        key: tuple = (tuple(sorted(t[0] + t2, reverse=True)),
                                      tuple(sorted(t[1] + t2[:1], reverse=True)), t[2] or cut)
                    else:
                        key = (tuple(sorted(t[0] + t2, reverse=True)), t[1] or cut)
                    nxt[key] += w * w2
            states = nxt
        out: dict = defaultdict(int)
        tail: dict = defaultdict(int)
        for state, w in states.items():
            values, firsts, was_cut = state if initial else (state[0], None, state[1])
            kept, every = kept_values(spec, values)
            if was_cut:
                tail[CutRoll(sum(spec.score(v) for v in kept), kept, firsts, spec.symbols_of(kept))] += w
                continue
            out[Rolled(sum(spec.score(v) for v in kept), kept, initial=firsts if every else None,
                       symbols=spec.symbols_of(kept), shows=spec.shows_of(kept))] += w
        return Dist(dict(out), d.denom ** count, dict(tail) or NO_TAIL).reduced()

    if d.tail and not spec.keeps and not spec.by_face:  # with keeps, what is kept of a cut roll is unknown
        return _afford(budget, lambda b: rolls(b, True), lambda b: rolls(b, False))
    return rolls(budget, False)


def view_dist(spec: PoolSpec, count: int, view: PoolView, limits: Limits, budget: Budget) -> Dist | None:
    """A dice term seen through ``view``: ``Rolled(total, faces)`` values, one for each
    distinct reading (total, counts, highest, lowest), its faces one roll that reads so.

    A dynamic programme over the dice, in the spirit of a multiset evaluator: a state is a
    reading of the dice so far (sums and counts add, highest and lowest take the max and
    min), and one more die (its explosions included) moves each state to the next. The
    states number the distinct readings — a few hundred for two counts on 30d6, where the
    multisets of faces number over three hundred thousand — so the cost is polynomial in
    the number of dice. Every rule that reads the roll reads it through the view, so any
    roll with that reading gives the rules the same answers: each state keeps the first
    roll that reached it (as a chain of dice, flattened at the end). None when a keep
    drops dice: which dice are kept depends on them all (the caller enumerates faces)."""
    if count == 0:  # no dice: the first throw is no dice too (a roll of (n)d6 at n = 0)
        return Dist.point(Rolled(0, (), initial=() if view.initial else None))
    if spec.keeps and spec.kept_range(count) != (0, count) or spec.by_face or spec.reroll_rank:
        return None
    if view.face_by_face:
        by_face = _by_face(spec, count, view, limits, budget)
        if by_face is not None:
            return by_face
        view = view.spread()
    # Counts among the first throw's dice read each die's chain (its face, then the dice its
    # explosions added): the chain's first value is the first throw's.
    # Reading each outcome of the die is charged before it is read: its faces before the die is
    # made (a million-sided die read whole is refused before its million faces are), what
    # explosions add after.
    budget.spend(spec.die.size * view.reads)
    reading = view_reading(spec, view)
    mode = "chain" if view.initial else "values"
    if few_readings(spec, view, budget):
        chains = followed_chains(spec, mode, reading, budget, view.reads)
        if chains is not None:  # each die followed for ever: nothing cut
            common = math.lcm(*(p.denominator for p, _ in chains.values()))
            steps = [(k, p.numerator * (common // p.denominator), rep) for k, (p, rep) in chains.items()]
            states = fold_dice(steps, count, view, common.bit_length(), budget)
            budget.spend(len(states) * count)
            return _rolls_of(spec, states, view, common ** count)
    d = die_dist(spec, mode, limits, budget)
    budget.spend(max(0, len(d.weights) - spec.die.size) * view.reads)

    def folded(b: Budget) -> list[tuple[int, Counted]]:
        return fold_dice(readings(d, reading), count, view, d.denom.bit_length(), b)

    def folded_with_cut(b: Budget) -> list[tuple[int, Counted]]:
        # Chains the depth cut (each with the dice it had, more to come) are read alike, with
        # one more part: whether a die of the roll was cut. A roll with one is a cut roll.
        uncut = readings(d, lambda v: reading(v, (0,)))
        cut = [(k, w, CutChain(rep))
               for k, w, rep in readings(Dist(dict(d.tail), d.denom), lambda v: reading(v, (1,)))]
        if len(cut) == 1 and not (view.highest or view.lowest):
            at_once = fold_at_once(uncut + cut, count, view, d.denom.bit_length(), b, flag=True, share=False)
            return at_once if at_once is not None else fold_one_cut(uncut, cut[0], count, view, d.denom.bit_length(), b)
        return fold_dice(uncut + cut, count, view, d.denom.bit_length(), b, flag=True)

    def flattened(states: list[tuple[int, Counted]], b: Budget) -> Dist:
        b.spend(len(states) * count)  # flattening each state's roll
        return _rolls_of(spec, states, view, d.denom ** count)

    if d.tail:
        return _afford(budget, lambda b: flattened(folded_with_cut(b), b), lambda b: flattened(folded(b), b))
    return flattened(folded(budget), budget)


def _by_face(spec: PoolSpec, count: int, view: PoolView, limits: Limits, budget: Budget) -> Dist | None:
    """Dice that stay one die each read face by face for numbers made of complete counts
    (:mod:`.face_fold`); None for dice that grow, or a number of one count with no whole value."""
    if spec.explode is not None:
        return None
    reads = complete_reads(view, count, budget)
    if reads is None:
        return None
    budget.spend(spec.die.size * view.reads)  # reading each face, as view_dist does
    d = die_dist(spec, "values", limits, budget)
    if d.tail or any(len(v) != 1 for v in d.weights):
        return None
    reading = view_reading(spec, view)
    faces = [(v[0], w, reading(v)) for v, w in d.weights.items()]
    states = fold_by_face(faces, count, view, reads, d.denom.bit_length(), budget)
    budget.spend(len(states) * count)  # flattening each state's roll
    return _rolls_of(spec, [(w, Counter(reps)) for w, reps in states], view, d.denom ** count)


def few_readings(spec: PoolSpec, view: PoolView, budget: Budget) -> bool:
    """Whether a die of ``spec`` that explodes (``!``, ``!p``) can be read through ``view`` in
    few ways whatever its chain's length, so that :func:`view_dist` follows it for ever
    (:func:`.die_odds.followed_chains`): no face it explodes on adds to anything the view
    reads without a cap (its total, a count not capped, a sum of symbols or of counts)."""
    if spec.explode not in ("explode", "penetrate"):
        return False
    penalty = 1 if spec.explode == "penetrate" else 0
    grown = [spec.clamp(f - penalty) for f in face_dist(spec, budget).weights if spec.explodes(f)]
    uncapped = [c for c, cap in zip(view.counts, view.count_caps(), strict=False) if cap is None]
    whole = view._replace(symbols=tuple(r for r in view.symbols if view.symbol_cap(r) is None), symbol_caps=())
    return not any((view.total and spec.score(v)) or any(tally(c, (v,)) for c in uncapped)
                   or any(whole.symbol_reads(spec.symbols_of((v,)))) or any(view.count_sums((v,)))
                   for v in grown)


def view_reading(spec: PoolSpec, view: PoolView) -> Callable[..., tuple]:
    """What ``view`` reads of one die's values (its face and the dice its explosions added),
    with ``cut`` (a yes/no part, before highest and lowest) where it is given: the sum, each
    count, each sum of symbols, then highest and lowest. Sums and counts add from die to die."""

    def reading(values: tuple, cut: tuple = ()) -> tuple:
        return (sum(spec.score(v) for v in values) if view.total else 0,
                *view.capped([tally(c, values) for c in view.counts] + [tally(c, values[:1]) for c in view.initial]),
                *view.symbol_reads(spec.symbols_of(values)), *view.count_sums(values), *cut,
                max(values) if view.highest else 0, min(values) if view.lowest else 0)

    return reading


def _rolls_of(spec: PoolSpec, states: list[tuple[int, Counted]], view: PoolView, denom: int) -> Dist:
    """The rolls of :func:`view_dist`'s states, each state's dice flattened into one roll;
    a state with a cut chain among them is a cut roll (:class:`CutRoll`), in the tail."""
    out: dict = {}
    tail: dict = {}
    scores = _Scores(spec.score)  # each value's score, worked out once (a condition per value)
    for w, dice in states:
        faces, initial, total, cut = _flattened(dice, scores)
        if cut:
            key: Any = CutRoll(total, faces, initial if view.initial else None, spec.symbols_of(faces))
            tail[key] = tail.get(key, 0) + w
            continue
        rolled = Rolled(total, faces, initial=initial if view.initial else None, symbols=spec.symbols_of(faces),
                        shows=spec.shows_of(faces))
        out[rolled] = out.get(rolled, 0) + w
    return Dist(out, denom, tail or NO_TAIL).reduced()


def _flattened(dice: Counted, scores: _Scores) -> tuple[tuple[int, ...], tuple[int, ...], int, bool]:
    """One state's dice (each a chain of values: a die and what its explosions added, with
    the number of dice that show it) as one roll: every value, highest first; each die's
    first value, highest first; the values' total score; whether the depth cut a die. A
    state holds a few distinct dice many times over (40 exploding d10s: 240 values, from 13
    chains), so each distinct chain's values are counted once and the roll is written out
    from the counts, not sorted value by value."""
    per_face: dict[int, int] = {}
    firsts: dict[int, int] = {}
    for rep, m in dice.items():
        for f in rep:
            per_face[f] = per_face.get(f, 0) + m
        firsts[rep[0]] = firsts.get(rep[0], 0) + m
    total = sum(scores[f] * n for f, n in per_face.items())
    return _descending(per_face), _descending(firsts), total, CutChain in map(type, dice)


def _descending(counts: dict[int, int]) -> tuple[int, ...]:
    """Each value as many times as counted, highest first."""
    out: list[int] = []
    for f in sorted(counts, reverse=True):
        out += [f] * counts[f]
    return tuple(out)


class _Scores(dict):
    """Each value's score, worked out the first time it is asked for."""

    def __init__(self, score: Callable[[int], int]) -> None:
        super().__init__()
        self.score = score

    def __missing__(self, value: int) -> int:
        s = self[value] = self.score(value)
        return s


SOLE_HOLD = 16
"""Steps of the budget left, for each value of a roll whose cut explosions were followed with
more than half of it (``Budget.sole``), that holding its values may need (one step for each
four names a joint value holds: up to some sixty)."""


def _afford(budget: Budget, dearer: Callable[[Budget], Dist], cheaper: Callable[[Budget], Dist]) -> Dist:
    """``dearer(budget)`` (the cut rolls worked out too) where half of what is left of the
    budget allows it, else ``cheaper(budget)`` (their mass left truncated): following the cut
    rolls costs up to twice the work, and should not refuse what could be worked out without
    them (half, so that the work after this, which the cheaper way would leave room for,
    still fits). Three quarters where the budget says this roll is all the work left but
    holding its values (``sole``: a check of one roll), as long as what is left then holds
    them (``SOLE_HOLD``): thirty exploding d6s read by hits and a glitch were exact at depth
    10 and cut at 11, where following the cut rolls takes 57 % of the budget. A shared
    budget (or a deadline) that runs out is not tried again."""
    left = budget.limit - budget.used
    trial = Budget(left * 3 // 4 if budget.sole else left // 2, budget.deadline)
    try:
        out = dearer(trial)
    except BudgetExceeded:
        if trial.timed_out or (trial.total is not None and trial.total.exhausted):
            raise
        return cheaper(budget)
    if trial.used > left // 2 and (len(out.weights) + len(out.tail)) * SOLE_HOLD > left - trial.used:
        return cheaper(budget)  # more than half, and too little left to hold what it made
    budget.used += trial.used  # charged to the shared budget already, as it went
    return out


def rolled_reading(view: PoolView, rolled: Rolled) -> tuple:
    """What ``view`` reads of a whole roll, as :func:`view_dist` reads it of one die. A roll
    of no dice has no highest or lowest: read as below (above) every face, so that joined
    with other rolls the highest (lowest) is theirs, not 0."""
    first = rolled.initial or ()
    faces = rolled.faces
    return (rolled.total if view.total else 0,
            *view.capped([tally(c, faces) for c in view.counts] + [tally(c, first) for c in view.initial]),
            *view.symbol_reads(rolled.symbols), *view.count_sums(faces),
            (max(faces) if faces else -math.inf) if view.highest else 0,
            (min(faces) if faces else math.inf) if view.lowest else 0)


def joined_dist(parts: list[Dist], view: PoolView | None, budget: Budget) -> Dist:
    """Several independent rolls read as one (``2d{ability} + 1d{difficulty}``, see
    :func:`values.joined`). Through a view, one state per distinct reading, as for the dice
    of one term; else every combination of the parts' rolls."""
    denom = 1
    for p in parts:
        denom *= p.denom
    if view is None:
        every = parts[0].map(lambda r: joined([r]))
        for p in parts[1:]:
            # Each new roll holds the dice of both: charged for them before any is made.
            dice = _most_dice(every) + _most_dice(p)
            budget.spend(held_cost(len(every.weights) * len(p.weights), dice))
            every = combine2(lambda a, b: joined([a, b]), every, p, budget)
        return every.reduced()
    view = view.spread()  # rolls of several kinds: read roll by roll, every count
    budget.spend(sum(len(p.weights) for p in parts) * view.reads)  # reading each part's rolls, before
    steps = [readings(p, lambda r: rolled_reading(view, r)) for p in parts]
    bits = max(p.denom.bit_length() for p in parts)
    states = fold(steps, view, bits, budget)
    budget.spend(len(states) * len(parts))
    out: dict = {}
    for w, reps in states:
        r = joined(reps)
        out[r] = out.get(r, 0) + w
    return Dist(out, denom).reduced()


def _most_dice(d: Dist) -> int:
    """The most dice one roll of ``d`` holds (a value that is no roll: one)."""
    return max((len(r.faces) if isinstance(r, Rolled) else 1 for r in d.weights), default=1)
