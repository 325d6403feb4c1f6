"""What a dice term means: one die's rerolls and explosions, then the pool's keeps and counts.

A dice term's modifiers are applied in one fixed order, whatever order they are written
in (docs/dice-language.md, "Order of modifiers"):

1. **roll** each die; **reroll** it (``ro``: once if it matches; ``r``: until it doesn't);
2. **explode**: a die whose face (after rerolls) meets the condition rolls one more die
   (itself rerolled the same way): ``!`` adds it to the pool, ``!!`` adds its face to the
   same die, ``!p`` adds it to the pool worth one less; at most ``explode_depth`` times
   for each die of the original pool (``!o``: once, the added die doesn't explode);
3. **clamp** each die's value (``min``/``max``);
4. **keep/drop by face** (``k=3``, ``p1``): dice whose value doesn't pass are set aside;
   then **keep/drop by rank** (``kh kl dh dl``, in the order written) among the dice left,
   exploded ones included;
5. the term's value: the number of kept dice meeting ``cs`` minus those meeting ``cf``
   when counting, else the sum of the kept dice.

:class:`PoolSpec` holds these rules once. It has two readings: :func:`roll_pool` (here)
rolls one pool from a dice source and records every die (for traces and for faces read
off physical dice), and :func:`~rulesengine.dice.pool_odds.pool_dist` computes the exact
distribution of the term's value. Tests check the two against each other by feeding
:func:`roll_pool` every possible sequence of faces.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

from . import ast
from .sources import DiceCounter, DiceSource
from .values import DicePool, in_play, symbols_per_die, symbols_shown
from ..limits import Limits


def _written(cond: ast.Cond | ast.CondExpr) -> ast.Cond:
    """A condition whose number is known: one from an expression is written in first
    (:func:`ast.with_conditions`), by whoever knows the expression's value."""
    if isinstance(cond, ast.CondExpr):
        raise ValueError(f"the condition {cond.text()} has no number yet: write it in with ast.with_conditions")
    return cond


class PoolSpec(NamedTuple):
    """The rules of one dice term, independent of how many dice it rolls. (A NamedTuple:
    immutable and hashable, it keys the cache of pool distributions, and its class costs
    start-up a tenth of a frozen dataclass's.)"""

    die: ast.Die
    rerolls: tuple[ast.Cond, ...] = ()
    reroll_once: bool = False
    reroll_rank: tuple[bool, int] | None = None  # rol2: (True, 2), the 2 lowest rerolled once
    explode: str | None = None  # "explode" | "compound" | "penetrate" | "once"
    explode_conds: tuple[ast.Cond | None, ...] = ()  # a die explodes on any of them (None: its highest face)
    low: int | None = None  # clamp: every die is at least this
    high: int | None = None  # clamp: every die is at most this
    keeps: tuple[tuple[str, int], ...] = ()
    keep_faces: tuple[ast.Cond, ...] = ()  # k=3: only dice meeting one of these stay in play
    drop_faces: tuple[ast.Cond, ...] = ()  # p1: dice meeting one of these are set aside
    successes: tuple[ast.Cond, ...] = ()
    failures: tuple[ast.Cond, ...] = ()

    @staticmethod
    def of(node: ast.Dice, die: ast.Die | None = None) -> PoolSpec:
        """The rules of ``node``, on its own die, or on ``die`` (the size a ``d(expr)``
        term took this time)."""
        die = die or node.die
        if die is None:
            raise ValueError("d(expr) has no die of its own: pass the die it rolled")
        rerolls: list[ast.Cond] = []
        once, explode = False, None
        conds: list[ast.Cond | None] = []
        ranked: tuple[bool, int] | None = None
        lows: list[int] = []
        highs: list[int] = []
        keeps: list[tuple[str, int]] = []
        succ: list[ast.Cond] = []
        fail: list[ast.Cond] = []
        keep_faces: list[ast.Cond] = []
        drop_faces: list[ast.Cond] = []
        for m in node.modifiers:
            if isinstance(m, ast.Reroll):
                rerolls.append(_written(m.cond))
                once = m.once
            elif isinstance(m, ast.RerollRank):
                ranked = (m.lowest, m.n)
            elif isinstance(m, ast.Explode):
                explode = m.kind  # one kind (modifier_checks); its conditions combine
                conds.append(None if m.cond is None else _written(m.cond))
            elif isinstance(m, ast.Clamp):
                (lows if m.kind == "min" else highs).append(m.n)
            elif isinstance(m, ast.Keep):
                if m.expr is not None:
                    raise ValueError(f"{m.kind}({m.source}) has no number yet: write it in with ast.with_conditions")
                keeps.append((m.kind, m.n))
            elif isinstance(m, ast.CountDice):
                (fail if m.failures else succ).append(_written(m.cond))
            elif isinstance(m, ast.KeepFace):
                (keep_faces if m.keep else drop_faces).append(_written(m.cond))
        return PoolSpec(
            die=die,
            rerolls=tuple(rerolls),
            reroll_once=once,
            reroll_rank=ranked,
            explode=explode,
            explode_conds=tuple(conds),
            low=max(lows) if lows else None,
            high=min(highs) if highs else None,
            keeps=tuple(keeps),
            keep_faces=tuple(keep_faces),
            drop_faces=tuple(drop_faces),
            successes=tuple(succ),
            failures=tuple(fail),
        )

    # ---- the rules, shared by both readings -------------------------------------------
    @property
    def plain(self) -> bool:
        """No modifier at all (``3d6``): every die rolled once, kept, worth its face."""
        return not (self.rerolls or self.explode or self.keeps or self.successes or self.failures
                    or self.keep_faces or self.drop_faces or self.reroll_rank) \
            and self.low is None and self.high is None

    @property
    def counting(self) -> bool:
        return bool(self.successes or self.failures)

    def is_rerolled(self, face: int) -> bool:
        return any(c(face) for c in self.rerolls)

    def is_kept_face(self, face: int) -> bool:
        return not self.is_rerolled(face)

    def explode_limit(self, limits: Limits) -> int:
        """How many times a die and the dice it adds may explode: ``!o`` once, else the depth."""
        return 1 if self.explode == "once" else limits.explode_depth

    @property
    def by_face(self) -> bool:
        """Some dice may be set aside by their value (``k=3``, ``p1``)."""
        return bool(self.keep_faces or self.drop_faces)

    def in_play(self, value: int) -> bool:
        """A die with this value stays in the pool after the keeps by face."""
        return in_play(self.keep_faces, self.drop_faces, value)

    def worth(self, value: int) -> int:
        """What a die of this value adds to the term when no keep by rank drops dice."""
        return self.score(value) if self.in_play(value) else 0

    def explodes(self, face: int) -> bool:
        if self.explode is None:
            return False
        return any(face == self.die.highest if c is None else c(face) for c in self.explode_conds)

    def clamp(self, value: int) -> int:
        if self.low is not None and value < self.low:
            value = self.low
        if self.high is not None and value > self.high:
            value = self.high
        return value

    def is_success(self, value: int) -> bool:
        return any(c(value) for c in self.successes)

    def is_failure(self, value: int) -> bool:
        return any(c(value) for c in self.failures)

    def score(self, value: int) -> int:
        """What one kept die adds to the term: its value, or +1/−1/0 when counting."""
        if not self.counting:
            return value
        return self.is_success(value) - self.is_failure(value)

    def symbols_of(self, values: tuple[int, ...]) -> tuple[tuple[str, int], ...]:
        """The symbols dice of these values show, counted (none on a die without symbols)."""
        return symbols_shown(self.die, values)

    def shows_of(self, values: tuple[int, ...]) -> tuple[tuple[str, ...], ...]:
        """The symbols on each die of these values (none on a die without symbols)."""
        return symbols_per_die(self.die, values)

    def kept_range(self, n: int) -> tuple[int, int]:
        """Kept ranks [lo, hi) among n dice sorted from highest (rank 0) to lowest."""
        return kept_ranks(self.keeps, n)


def kept_ranks(keeps: tuple[tuple[str, int], ...], n: int) -> tuple[int, int]:
    """The ranks [lo, hi) that keeps (kh/kl/dh/dl, in the order written, each applied to
    what the one before kept) leave of n values sorted from highest (rank 0) to lowest: the
    dice of a pool, or the items of a set."""
    lo, hi = 0, n
    for kind, k in keeps:
        k = min(k, hi - lo)
        if kind == "kh":
            hi = lo + k
        elif kind == "kl":
            lo = hi - k
        elif kind == "dh":
            lo += k
        else:  # dl
            hi -= k
    return lo, hi


# ---- rolling -----------------------------------------------------------------------------


class DieRoll(NamedTuple):
    """One die of a rolled pool, as a trace shows it. (A NamedTuple: rolling makes many of
    these, and a tuple is several times cheaper to create than a frozen dataclass.)"""

    face: int  # the face it finally showed (after rerolls)
    value: int  # what it is worth: compounded, penetration −1, clamped
    kept: bool = True
    rerolled: tuple[int, ...] = ()  # faces replaced by rerolls, in order
    exploded: bool = False  # this die made another die roll
    added: bool = False  # this die was added by an explosion
    parts: tuple[int, ...] = ()  # compounded faces, when ``!!`` added to it
    success: bool = False
    failure: bool = False

    def to_dict(self) -> dict:
        d: dict[str, Any] = {"face": self.face, "value": self.value, "kept": self.kept}
        for key in ("rerolled", "parts"):
            if getattr(self, key):
                d[key] = list(getattr(self, key))
        for key in ("exploded", "added", "success", "failure"):
            if getattr(self, key):
                d[key] = True
        return d


class PoolRoll(NamedTuple):
    """A rolled dice term: its dice in reading order and its value. (A NamedTuple, like
    DieRoll: one is made per dice term rolled, and rolling is the hot path.)"""

    text: str
    dice: tuple[DieRoll, ...]
    total: int
    counting: bool = False
    labels: tuple[tuple[int, str], ...] = ()  # the die's printed labels (d{0:'blank',...}), for traces
    die: ast.Die | None = None  # the die rolled, where the rules may read its symbols
    plain: bool = False  # every die kept as it fell, worth its face (a trace writes the faces as they are)

    def kept_symbols(self) -> tuple[tuple[str, int], ...]:
        """The symbols the kept dice show, counted (none unless the die shows symbols)."""
        return symbols_shown(self.die, [d.value for d in self.dice if d.kept])

    def kept_shows(self) -> tuple[tuple[str, ...], ...]:
        """The symbols on each kept die (none unless the die shows symbols)."""
        return symbols_per_die(self.die, [d.value for d in self.dice if d.kept])

    def label(self, face: int) -> str | None:
        """The label printed on ``face`` (None for dice without labels)."""
        return ast.face_label(self.labels, face) if self.labels else None

    def die_dict(self, die: DieRoll) -> dict[str, Any]:
        """One of its dice as plain JSON, with the label printed on its face if it has one."""
        out = die.to_dict()
        label = self.label(die.face)
        if label is not None:
            out["label"] = label
        return out


class _Building:
    __slots__ = ("face", "rerolled", "exploded", "added", "parts", "penalty")

    def __init__(self, face: int, rerolled: tuple[int, ...], added: bool = False, penalty: int = 0):
        self.face = face
        self.rerolled = rerolled
        self.exploded = False
        self.added = added
        self.parts: list[int] | None = None
        self.penalty = penalty

    def raw_value(self) -> int:
        if self.parts is not None:
            return sum(self.parts)
        return self.face - self.penalty



def _roll_wave(spec: PoolSpec, n: int, source: DiceSource, counter: DiceCounter,
               limits: Limits) -> list[_Building]:
    """Roll n dice, then reroll those that need it, each reroll round in die order."""
    counter.spend(n)
    die = spec.die
    faces = [source.draw(die) for _ in range(n)]
    history: list[list[int]] | None = None
    if spec.rerolls:
        pending = [i for i, f in enumerate(faces) if spec.is_rerolled(f)]
        depth = 0
        while pending:
            if history is None:
                history = [[] for _ in range(n)]
            depth += 1
            last = not spec.reroll_once and depth >= limits.reroll_depth
            counter.spend(len(pending))
            for i in pending:
                history[i].append(faces[i])
                # At the depth limit, the last reroll draws among the faces that are kept:
                # the same distribution as rerolling on, so rolls and odds still agree.
                faces[i] = source.draw_allowed(die, spec.is_kept_face) if last else source.draw(die)
            if spec.reroll_once or last:
                break
            pending = [i for i in pending if spec.is_rerolled(faces[i])]
    if history is None:
        return [_Building(f, ()) for f in faces]
    return [_Building(f, tuple(h)) for f, h in zip(faces, history, strict=True)]


def roll_plain(die: ast.Die, text: str, count: int, source: DiceSource, counter: DiceCounter) -> PoolRoll:
    """Roll a term without modifiers (``3d6``), the commonest by far: every die is rolled
    once, kept, and worth its face."""
    counter.spend(count)
    faces = source.draw_many(die, count)
    return PoolRoll(text, _plain_dice(faces), sum(faces), False, die.labels or (), die if die.symbols else None, True)


_PLAIN = DieRoll(0, 0)[2:]  # the fields after face and value of a die kept as it fell


def _plain_dice(faces: list[int]) -> tuple[DieRoll, ...]:
    """``DieRoll(f, f)`` for each face, made the way NamedTuple's own ``_make`` does, without
    its per-call argument handling (half the cost, on the hottest line of rolling)."""
    make, rest = tuple.__new__, _PLAIN
    return tuple([make(DieRoll, (f, f) + rest) for f in faces])


def ranked_for_reroll(spec: PoolSpec, values: list[int]) -> list[int]:
    """Which dice ``rolN``/``rohN`` rolls again: the N lowest (highest) values, the die
    read first going first among equal ones."""
    assert spec.reroll_rank is not None
    lowest, n = spec.reroll_rank
    order = sorted(range(len(values)), key=values.__getitem__, reverse=not lowest)
    return sorted(order[:n])


def _reroll_ranked(spec: PoolSpec, dice: list[_Building], source: DiceSource, counter: DiceCounter) -> None:
    chosen = ranked_for_reroll(spec, [spec.clamp(d.face) for d in dice])
    counter.spend(len(chosen))
    for i in chosen:
        dice[i] = _Building(source.draw(spec.die), dice[i].rerolled + (dice[i].face,))


def roll_pool(spec: PoolSpec, text: str, count: int, source: DiceSource,
              counter: DiceCounter, limits: Limits) -> PoolRoll:
    """Roll one dice term. Faces are read in this order: the pool's dice; their rerolls;
    then, wave by wave, the dice added by explosions (and their rerolls)."""
    if spec.plain:
        return roll_plain(spec.die, text, count, source, counter)
    dice = _roll_wave(spec, count, source, counter, limits)
    if spec.reroll_rank is not None:
        _reroll_ranked(spec, dice, source, counter)
    if spec.explode is not None:
        _explode(spec, dice, source, counter, limits)
    values = [spec.clamp(d.raw_value()) for d in dice]
    kept = _kept(spec, values)
    counting = spec.counting
    total = 0
    records = []
    for d, v, k in zip(dice, values, kept, strict=True):
        s = counting and spec.is_success(v)
        f = counting and spec.is_failure(v)
        if k:
            total += (s - f) if counting else v
        records.append(DieRoll(d.face, v, k, d.rerolled, d.exploded, d.added,
                               tuple(d.parts) if d.parts else (), bool(s), bool(f)))
    return PoolRoll(text, tuple(records), total, counting, spec.die.labels or (),
                    spec.die if spec.die.symbols else None)


def _explode(spec: PoolSpec, dice: list[_Building], source: DiceSource, counter: DiceCounter,
             limits: Limits) -> None:
    """Roll the dice the explosions add, wave by wave, onto ``dice`` (``!!``: onto the die
    that exploded)."""
    compound = spec.explode == "compound"
    penalty = 1 if spec.explode == "penetrate" else 0
    frontier = [d for d in dice if spec.explodes(d.face)]
    depth = 0
    once = spec.explode == "once"
    limit = spec.explode_limit(limits)
    while frontier and depth < limit:
        depth += 1
        wave = _roll_wave(spec, len(frontier), source, counter, limits)
        nxt = []
        for parent, extra in zip(frontier, wave, strict=True):
            parent.exploded = True
            if compound:
                if parent.parts is None:
                    parent.parts = [parent.face]
                parent.parts.append(extra.face)
                parent.rerolled += extra.rerolled
                if spec.explodes(extra.face):
                    nxt.append(parent)
            else:
                extra.added, extra.penalty = True, penalty
                dice.append(extra)
                if not once and spec.explodes(extra.face):
                    nxt.append(extra)
        frontier = nxt


def face_weights(spec: PoolSpec) -> tuple[dict[Any, int], int]:
    """One die roll's face after rerolls: each face's whole-number weight and their
    denominator (the faces of a custom die counted as often as they are listed).

    Rerolling *until* a face is kept ends on each kept face with probability proportional
    to its weight, however many rerolls it takes: exact, with nothing truncated. Rerolling
    once: a face rerolled is rolled again and kept, whatever it shows.
    """
    die = spec.die
    base: dict[Any, int] = {}
    if die.custom is None:
        base = {f: 1 for f in range(1, die.size + 1)}
    else:
        for face in die.custom:
            base[face] = base.get(face, 0) + 1
    s = sum(base.values())
    if not spec.rerolls:
        return base, s
    matched = {f: w for f, w in base.items() if spec.is_rerolled(f)}
    m = sum(matched.values())
    if spec.reroll_once:
        weights = {f: (0 if f in matched else w * s) + m * w for f, w in base.items()}
        return {f: w for f, w in weights.items() if w}, s * s
    return {f: w for f, w in base.items() if f not in matched}, s - m


def _kept(spec: PoolSpec, values: list[int]) -> list[bool]:
    """Which dice the term keeps: by face, then by rank among the dice left."""
    playing = [i for i, v in enumerate(values) if spec.in_play(v)] if spec.by_face else range(len(values))
    n = len(playing)
    lo, hi = spec.kept_range(n)
    if (lo, hi) == (0, n) and n == len(values):
        return [True] * n
    order = sorted(playing, key=values.__getitem__, reverse=True)
    # sorted() is stable even with reverse=True, so among equal values the die
    # read first ranks higher: it is kept, the later one dropped.
    kept = [False] * len(values)
    for i in order[lo:hi]:
        kept[i] = True
    return kept



def roll_dice_pool(pool: DicePool, source: DiceSource, counter: DiceCounter) -> PoolRoll:
    """Roll a mixed pool once, each die in the order listed (largest first); its keeps by
    face (``(pool)p1``) set aside the dice that fail them, as on a dice term."""
    counter.spend(len(pool.sides))
    faces = [source.draw(_plain_die(s)) for s in pool.sides]
    if not pool.by_face:
        return PoolRoll(pool.text(), _plain_dice(faces), sum(faces))
    dice = tuple(DieRoll(f, f, pool.in_play(f)) for f in faces)
    return PoolRoll(pool.text(), dice, sum(d.value for d in dice if d.kept))


@lru_cache(maxsize=256)
def _plain_die(sides: int) -> ast.Die:
    return ast.Die(sides=sides, text=f"d{sides}")
