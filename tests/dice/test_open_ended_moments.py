"""A variance labelled exact is the roll's own variance, explosions followed forever (issue 34:
"means and variances of all of the above in closed form"). Before, ``1d6!`` gave its mean in
closed form (21/5) beside the variance of the mass worked out to depth 10, both unlabelled
as anything but exact; now the variance says which it is (``variance_kind``).

Every exact figure here comes from this file, apart from the engine:

* per die, a closed form written as the sum of geometric series, by the compound-sum law: a
  chain that explodes with chance p is K exploding dice (K geometric: P(K = k) = p^k (1 − p),
  E[K] = p/(1 − p), Var(K) = p/(1 − p)²) then a last die that doesn't, so
  E = E[K]·E[A] + E[B] and Var = E[K]·Var(A) + Var(K)·E[A]² + Var(B) (A the worth of an
  exploding face, B of a stopping one); ``!p``, ``!o`` and ``!!`` by conditioning on the
  first die (the engine works them out by another recursion, over E[C²]);
* per expression, independence: variances of independent terms add, c·X has c² Var(X), a
  rolled count N of dice X has E[N]·Var(X) + Var(N)·E[X]², an ``if`` mixes second moments;
* a deep enumeration of each die's chain to 40 explosions, its left-out mass and an explicit
  bound on what that mass can add to the mean and the second moment, which every closed
  form must fall within.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction as F

import pytest
from hypothesis import given, settings, strategies as st

from rulesengine import dice
from rulesengine.dice.dist import Budget
from rulesengine.dice.expectation import exact_moments, roll_mean
from rulesengine.present.dice_table import summary_line
from rulesengine.ruleset import load

Worth = Callable[[int], int]


def d(sides: int) -> list[int]:
    return list(range(1, sides + 1))


def moments_of(dist: dict[int, F]) -> tuple[F, F]:
    """(E[X], E[X²]) of a distribution whose probabilities sum to 1."""
    assert sum(dist.values()) == 1
    return sum((v * p for v, p in dist.items()), F(0)), sum((v * v * p for v, p in dist.items()), F(0))


def uniform(values: list[int]) -> dict[int, F]:
    out: dict[int, F] = defaultdict(F)
    for v in values:
        out[v] += F(1, len(values))
    return out


# ---- per die: closed forms as sums of geometric series -----------------------------------

def geometric(p: F) -> tuple[F, F]:
    """E[K], Var(K) of K geometric, P(K = k) = p^k (1 − p): Σ k p^k (1 − p) = p/(1 − p) and
    Σ k² p^k (1 − p) = p(1 + p)/(1 − p)², so Var(K) = p/(1 − p)²."""
    mean = p / (1 - p)
    second = p * (1 + p) / (1 - p) ** 2
    return mean, second - mean * mean


def split(faces: list[int], explodes: Callable[[int], bool], worth: Worth) -> tuple[F, dict, dict]:
    """p, and the worth of an exploding face and of a stopping one, each as a distribution."""
    going = [worth(f) for f in faces if explodes(f)]
    stopping = [worth(f) for f in faces if not explodes(f)]
    return F(len(going), len(faces)), uniform(going) if going else {0: F(1)}, uniform(stopping)


def explode_moments(faces: list[int], explodes: Callable[[int], bool], worth: Worth) -> tuple[F, F]:
    """``!``: (mean, variance) of a chain, the compound-sum law over K exploding dice."""
    p, a, b = split(faces, explodes, worth)
    ek, vk = geometric(p)
    (ma, sa), (mb, sb) = moments_of(a), moments_of(b)
    return ek * ma + mb, ek * (sa - ma * ma) + vk * ma * ma + (sb - mb * mb)


def penetrate_moments(faces: list[int], explodes: Callable[[int], bool], worth: Worth) -> tuple[F, F]:
    """``!p``: the first die stops (chance 1 − p, worth B) or explodes (worth A) and adds a
    chain L of dice worth one less (the ``!`` chain of f − 1), independent of A."""
    p, a, b = split(faces, explodes, worth)
    ml, vl = explode_moments(faces, explodes, lambda f: worth(f - 1))
    (ma, sa), (mb, sb) = moments_of(a), moments_of(b)
    mean = (1 - p) * mb + p * (ma + ml)
    second = (1 - p) * sb + p * (sa + 2 * ma * ml + vl + ml * ml)
    return mean, second - mean * mean


def once_moments(faces: list[int], explodes: Callable[[int], bool], worth: Worth) -> tuple[F, F]:
    """``!o``: the first die stops (B) or explodes (A) and adds one die W that doesn't."""
    p, a, b = split(faces, explodes, worth)
    (ma, sa), (mb, sb) = moments_of(a), moments_of(b)
    mw, sw = moments_of(uniform([worth(f) for f in faces]))
    mean = (1 - p) * mb + p * (ma + mw)
    second = (1 - p) * sb + p * (sa + 2 * ma * mw + sw)
    return mean, second - mean * mean


def top_face_compound_moments(sides: int, score: Worth, far: int) -> tuple[F, F]:
    """``dS!!`` scored by ``score`` on its sum, which is constant from ``far`` on: the sum is
    S·k + y (k tops, then y in 1..S − 1) with chance (1/S)^k (1/S); every k with S·k + 1 ≥ far
    scores score(far), together with chance (1/S)^k0."""
    k0 = -(-(far - 1) // sides)  # the least k with S·k + 1 >= far
    mean, second = F(0), F(0)
    for k in range(k0):
        for y in range(1, sides):
            q = F(1, sides) ** (k + 1)
            v = score(sides * k + y)
            mean, second = mean + q * v, second + q * v * v
    rest = F(1, sides) ** k0
    v = score(far)
    mean, second = mean + rest * v, second + rest * v * v
    return mean, second - mean * mean


# ---- per die: a deep enumeration and what its left-out mass can move -----------------------

DEPTH = 40


def deep_chain(faces: list[int], explodes: Callable[[int], bool], first: Worth, later: Worth,
               final: Worth = lambda v: v, depth: int = DEPTH) -> tuple[dict[int, F], F, F, F]:
    """One die's chain enumerated to ``depth`` explosions: the values of the chains that
    stopped (``final`` of the sum of their dice's worth), the mass left out (the chains still
    going), and bounds on what it adds to E[X] and E[X²]. A chain of n dice is worth at most
    w·n in size (w: the largest worth of a face, or of ``final``), so the left-out part of
    E[X²] is at most w²·Σ_{n ≥ depth + 2} n² p^(n−1) (1 − p): terms whose ratio is at most
    ρ = ((depth + 3)/(depth + 2))²·p, so at most the first over 1 − ρ. Likewise E[|X|] with n."""
    n = len(faces)
    w = max(1, *(max(abs(first(f)), abs(later(f))) for f in faces))
    # what ``final`` makes of a sum is no bigger than the sum, or than one die's worth
    assert all(abs(final(v)) <= max(abs(v), w) for v in range(-w * (depth + 2), w * (depth + 2) + 1))
    stopped: dict[int, F] = defaultdict(F)
    going: dict[int, F] = {0: F(1)}
    for k in range(depth + 1):
        worth = first if k == 0 else later
        nxt: dict[int, F] = defaultdict(F)
        for s, q in going.items():
            for f in faces:
                if explodes(f):
                    nxt[s + worth(f)] += q / n
                else:
                    stopped[final(s + worth(f))] += q / n
        going = nxt
    left = sum(going.values(), F(0))
    p = F(sum(1 for f in faces if explodes(f)), n)
    m = depth + 2
    rho2 = F(m + 1, m) ** 2 * p
    rho1 = F(m + 1, m) * p
    assert rho2 < 1
    first_term = p ** (m - 1) * (1 - p)
    return stopped, left, w * m * first_term / (1 - rho1), w * w * m * m * first_term / (1 - rho2)


def within(closed: tuple[F, F], deep: tuple[dict[int, F], F, F, F]) -> bool:
    """The closed form's (mean, variance) is what the deep enumeration gives, give or take
    what its left-out mass can add: E[X] and E[X²] each within their tail's bound."""
    stopped, left, tail1, tail2 = deep
    m1 = sum((v * p for v, p in stopped.items()), F(0))
    m2 = sum((v * v * p for v, p in stopped.items()), F(0))
    mean, variance = closed
    assert left > 0 and tail2 < F(1, 10 ** 10)
    return abs(mean - m1) <= tail1 and abs(variance + mean * mean - m2) <= tail2


def engine(text: str, env: dict | None = None, depth: int | None = 3) -> tuple[F, str, F, str]:
    """The engine's mean and variance and what it calls them (dice odds, JSON and summary)."""
    odds = dice.parse(text).odds(env, explode_depth=depth)
    stats = odds.to_dict()["stats"]
    assert stats["variance_kind"] == odds.variance_kind == odds.summary.variance_kind
    assert F(stats["variance_exact"]) == odds.summary.variance
    return odds.mean, odds.mean_kind, odds.summary.variance, odds.variance_kind


def top(sides: int) -> Callable[[int], bool]:
    return lambda f: f == sides


def face(f: int) -> int:
    return f


# ---- the case ---------------------------------------------------------------------


def test_an_exploding_d6_has_the_variance_of_6K_plus_Y_labelled_exact():
    """``1d6!`` is 6·K + Y, K geometric (p = 1/6), Y uniform on 1..5, independent:
    Var = 36·Var(K) + Var(Y) = 36·(6/25) + 2 = 266/25 (56018133632697002/5264868124666921,
    the variance of the mass worked out to depth 10, was given before)."""
    ek, vk = geometric(F(1, 6))
    assert (ek, vk) == (F(1, 5), F(6, 25))
    expected = 36 * vk + F(2)
    assert expected == F(266, 25) == explode_moments(d(6), top(6), face)[1]
    assert engine("1d6!", depth=None) == (F(21, 5), "exact", expected, "exact")
    out = dice.odds("1d6!").to_dict()
    assert out["stats"]["variance_exact"] == "266/25" and F(out["stats"]["mass_left_out"]) > 0
    assert within((F(21, 5), expected), deep_chain(d(6), top(6), face, face))


def test_a_variance_without_a_closed_form_is_labelled_of_the_mass_worked_out():
    """``max(1d6!, 3)`` has none here: its variance is that of the mass worked out, said so,
    in JSON and in the text (as the mean is)."""
    odds = dice.odds("max(1d6!, 3)")
    dist = odds.distribution
    mass = sum(dist.values(), F(0))
    mean = sum((v * p for v, p in dist.items()), F(0)) / mass
    assert odds.variance_kind == "of_mass_worked_out"
    assert odds.summary.variance == sum((v * v * p for v, p in dist.items()), F(0)) / mass - mean * mean
    head = dice.parse("max(1d6!, 3)").odds().to_dict()["stats"]
    assert head["variance_kind"] == "of_mass_worked_out"
    assert "sd 2.891 (of the mass worked out)" in summary_line(odds.summary)
    assert "(of the mass worked out)" not in summary_line(dice.odds("1d6!").summary)


def test_nothing_cut_means_the_variance_is_exact():
    """``3d6``: three times 35/12, nothing truncated."""
    assert engine("3d6") == (F(21, 2), "exact", 3 * F(35, 12), "exact")


# ---- one die of each kind -------------------------------------------------------------------

DIE_CASES = [
    # text, closed form, deep enumeration (faces, explodes, first worth, later worth, final)
    ("1d10!", explode_moments(d(10), top(10), face), (d(10), top(10), face, face)),
    ("1d6!>=5", explode_moments(d(6), lambda f: f >= 5, face), (d(6), lambda f: f >= 5, face, face)),
    ("1d6!p", penetrate_moments(d(6), top(6), face), (d(6), top(6), face, lambda f: f - 1)),
    ("1d8!p>=7", penetrate_moments(d(8), lambda f: f >= 7, face), (d(8), lambda f: f >= 7, face, lambda f: f - 1)),
    ("1d6!!", explode_moments(d(6), top(6), face), (d(6), top(6), face, face)),  # unclamped: the sum
    ("1d6!!max8", top_face_compound_moments(6, lambda v: min(v, 8), 9),
     (d(6), top(6), face, face, lambda v: min(v, 8))),
    ("1d8!!cs>=10", top_face_compound_moments(8, lambda v: int(v >= 10), 10),
     (d(8), top(8), face, face, lambda v: int(v >= 10))),
    ("1d10!cs>=8", explode_moments(d(10), top(10), lambda f: int(f >= 8)),
     (d(10), top(10), lambda f: int(f >= 8), lambda f: int(f >= 8))),
]


@pytest.mark.parametrize("text, closed, deep", DIE_CASES, ids=[c[0] for c in DIE_CASES])
def test_one_exploding_die_has_its_closed_form_variance(text, closed, deep):
    """Each kind of explosion: the engine's figures are the closed form, which the deep
    enumeration brackets."""
    assert within(closed, deep_chain(*deep))
    mean, mean_kind, variance, kind = engine(text)
    assert (mean, variance, mean_kind, kind) == (*closed, "exact", "exact")


def test_a_die_that_explodes_once_is_enumerated_whole():
    """``1d6!o``: nothing is cut (it adds one die at most), so the enumeration is exact."""
    closed = once_moments(d(6), top(6), face)
    whole: dict[int, F] = defaultdict(F)
    for f in d(5):
        whole[f] += F(1, 6)
    for g in d(6):
        whole[6 + g] += F(1, 36)
    m1, m2 = moments_of(whole)
    assert closed == (m1, m2 - m1 * m1)
    assert engine("1d6!o")[::2] == closed


# ---- expressions: sums, differences, multiples, if(), rolled counts -------------------------

D6, D8, D4 = (explode_moments(d(s), top(s), face) for s in (6, 8, 4))


def deep_sum(terms: list[tuple[int, tuple]], k: int = 0) -> tuple[F, F, F, F]:
    """E[Z], E[Z²] of Z = k + Σ c·(one die's chain) over the chains that all stopped within
    the depth, and bounds on what the left-out mass adds: with N dice, Z² ≤ (N + 1)·(k² +
    Σ c²·X²), and a die's X² counts on its own cut mass (its tail bound) or on another's (its
    whole second moment, at most what was enumerated plus its tail, times their mass)."""
    chains = [(c, deep_chain(*spec)) for c, spec in terms]
    joint: dict[int, F] = {k: F(1)}
    for c, (stopped, _, _, _) in chains:
        nxt: dict[int, F] = defaultdict(F)
        for z, p in joint.items():
            for v, q in stopped.items():
                nxt[z + c * v] += p * q
        joint = nxt
    m1 = sum((v * p for v, p in joint.items()), F(0))
    m2 = sum((v * v * p for v, p in joint.items()), F(0))
    n = len(chains) + 1
    cut = sum((ch[1][1] for ch in chains), F(0))
    bound1, bound2 = abs(k) * cut, n * k * k * cut
    for c, (stopped, left, tail1, tail2) in chains:
        others = cut - left  # the other dice's cut mass
        whole1 = sum((abs(v) * p for v, p in stopped.items()), F(0)) + tail1
        whole2 = sum((v * v * p for v, p in stopped.items()), F(0)) + tail2
        bound1 += abs(c) * (tail1 + whole1 * others)
        bound2 += n * c * c * (tail2 + whole2 * others)
    return m1, m2, bound1, bound2


def deep_within(closed: tuple[F, F], deep: tuple[F, F, F, F]) -> bool:
    mean, variance = closed
    m1, m2, bound1, bound2 = deep
    assert bound2 < F(1, 10 ** 15)
    return abs(mean - m1) <= bound1 and abs(variance + mean * mean - m2) <= bound2


TOP6 = (d(6), top(6), face, face)
TOP8 = (d(8), top(8), face, face)
TOP4 = (d(4), top(4), face, face)

EXPRESSION_CASES = [
    # text, closed form (mean, variance), the deep enumeration's terms and number
    ("2d6! + 1d8!", (2 * D6[0] + D8[0], 2 * D6[1] + D8[1]), [(1, TOP6), (1, TOP6), (1, TOP8)], 0),
    ("1d6! - 1d6!", (F(0), 2 * D6[1]), [(1, TOP6), (-1, TOP6)], 0),
    ("1d6! - 1d8!", (D6[0] - D8[0], D6[1] + D8[1]), [(1, TOP6), (-1, TOP8)], 0),
    ("3 * 1d6!", (3 * D6[0], 9 * D6[1]), [(3, TOP6)], 0),
    ("1d8! * -2 + 5", (5 - 2 * D8[0], 4 * D8[1]), [(-2, TOP8)], 5),
    ("2d6! - 2 * 1d4! + 3", (2 * D6[0] - 2 * D4[0] + 3, 2 * D6[1] + 4 * D4[1]),
     [(1, TOP6), (1, TOP6), (-2, TOP4)], 3),
]


@pytest.mark.parametrize("text, closed, terms, k", EXPRESSION_CASES, ids=[c[0] for c in EXPRESSION_CASES])
def test_independent_terms_add_their_variances_a_multiple_scales_by_its_square(text, closed, terms, k):
    assert deep_within(closed, deep_sum(terms, k))
    assert engine(text) == (closed[0], "exact", closed[1], "exact")


def test_an_if_on_a_rolled_condition_mixes_the_branches_second_moments():
    """``if(1d2 == 1, 1d6!, 1d8! + 2)``: E[X²] = ½·E[1d6!²] + ½·E[(1d8! + 2)²]."""
    a = (D6[0], D6[1] + D6[0] ** 2)
    b = (D8[0] + 2, D8[1] + (D8[0] + 2) ** 2)
    mean = (a[0] + b[0]) / 2
    variance = (a[1] + b[1]) / 2 - mean * mean
    assert engine("if(1d2 == 1, 1d6!, 1d8! + 2)") == (mean, "exact", variance, "exact")
    # the deep enumeration of the mixture, from each branch's
    ea, eb = deep_sum([(1, TOP6)]), deep_sum([(1, TOP8)], 2)
    assert deep_within((mean, variance), tuple((x + y) / 2 for x, y in zip(ea, eb, strict=True)))


def test_a_rolled_count_of_exploding_dice_is_a_compound_sum():
    """``(1d4)d6!``: Var = E[N]·Var(X) + Var(N)·E[X]² (N = 1d4: 5/2 and 5/4), and by
    conditioning on N in the deep enumeration: E[S²] = Σ_n P(n)·E[(X_1 + … + X_n)²]."""
    en, vn = F(5, 2), F(5, 4)
    variance = en * D6[1] + vn * D6[0] ** 2
    assert engine("(1d4)d6!") == (en * D6[0], "exact", variance, "exact")
    per_n = [deep_sum([(1, TOP6)] * n) for n in range(1, 5)]
    mix = tuple(sum((x[i] for x in per_n), F(0)) / 4 for i in range(4))
    assert deep_within((en * D6[0], variance), mix)


def test_a_count_that_itself_explodes_is_a_compound_sum_too():
    """``(1d4!)d6!``: N = 1d4! has its own closed form (explode_moments)."""
    en, vn = D4
    assert engine("(1d4!)d6!", depth=2) == (en * D6[0], "exact", en * D6[1] + vn * D6[0] ** 2, "exact")


def test_rolled_sides_shared_by_the_dice_leave_the_variance_of_the_mass_worked_out():
    """``2d(2 * 1d2 + 4)!``: both dice read one roll of the sides, so they are not apart; the
    mean still has its closed form (½·2·E[d6!] + ½·2·E[d8!])."""
    mean, mean_kind, variance, kind = engine("2d(2 * 1d2 + 4)!")
    assert (mean, mean_kind, kind) == (D6[0] + D8[0], "exact", "of_mass_worked_out")


# ---- a roll read by name twice is one roll --------------------------------------------------


def moments(text: str, rolls: dict) -> tuple[F | None, F | None]:
    return exact_moments(dice.parse(text).tree, {}, Budget(2_000_000), rolls=rolls)


def named(text: str, rolls: dict | None = None):
    found = roll_mean(dice.parse(text).tree, {}, Budget(2_000_000), rolls=rolls or {})
    assert found is not None
    return found


def test_the_same_roll_read_twice_is_not_two_independent_rolls():
    """x = 1d6!: x − x is 0 (variance 0, not 2·Var), x + x is 2x (4·Var), x + 1d6! adds two
    independent rolls (2·Var), and y = x + 1d4 minus x is the 1d4 alone (15/12)."""
    x = named("1d6!")
    assert moments("x - x", {"x": x}) == (F(0), F(0))
    assert moments("x + x", {"x": x}) == (2 * D6[0], 4 * D6[1])
    assert moments("2 * x - x", {"x": x}) == (D6[0], D6[1])
    assert moments("x + 1d6!", {"x": x}) == (2 * D6[0], 2 * D6[1])
    y = named("x + 1d4", {"x": x})
    assert moments("y - x", {"x": x, "y": y}) == (F(5, 2), F(15, 12))
    assert moments("y + x", {"x": x, "y": y}) == (2 * D6[0] + F(5, 2), 4 * D6[1] + F(15, 12))


def test_a_count_read_from_a_roll_is_correlated_with_that_roll():
    """n = 1d4, then (n)d6! − 3·n: given n the sum has mean n·μ and variance n·σ², so
    E[(S − 3n)²] = Σ_n ¼·(n·σ² + (n·μ − 3n)²), worked out by conditioning, not by the law
    the engine uses."""
    mu, var = D6
    n = named("1d4")
    mean = sum((F(1, 4) * (k * mu - 3 * k) for k in range(1, 5)), F(0))
    second = sum((F(1, 4) * (k * var + (k * mu - 3 * k) ** 2) for k in range(1, 5)), F(0))
    assert moments("(n)d6! - 3 * n", {"n": n}) == (mean, second - mean * mean)


def test_an_if_whose_branch_reads_a_roll_has_no_closed_form_variance():
    """Its value is not a part of its own (it moves with x, which the rest may read too): the
    mean has its closed form, the variance none here."""
    x = named("1d6!")
    mean, variance = moments("if(1d2 == 1, x, 0)", {"x": x})
    assert mean == D6[0] / 2 and variance is None


# ---- a check: labelled, and unchanged where nothing explodes ------------------------------

RULESET = """
ruleset: moments
name: Moments
version: "1.0.0"
source: tests
checks:
  damage:
    roll: 2d6!
    result: roll
    outcomes: [{name: damage, success: true}]
  plain:
    roll: 3d6
    result: roll
    outcomes: [{name: rolled, success: true}]
"""


def test_a_checks_result_has_the_closed_form_variance_where_explosions_were_cut(tmp_path):
    """A check's result has its mean and its variance in closed form, as a dice expression
    has; with nothing cut both are exact too."""
    path = tmp_path / "moments.yaml"
    path.write_text(RULESET)
    rs = load(path)
    stats = rs.check("damage").odds({}).to_dict()["stats"]["result"]
    assert (stats["mean_kind"], stats["variance_kind"]) == ("exact", "exact")
    assert F(stats["mean_exact"]) == 2 * D6[0]
    assert F(stats["variance_exact"]) == 2 * D6[1]
    plain = rs.check("plain").odds({}).to_dict()["stats"]["result"]
    assert (F(plain["variance_exact"]), plain["variance_kind"]) == (3 * F(35, 12), "exact")


# ---- the property --------------------------------------------------------------------------

KINDS = {
    "!": explode_moments,
    "!p": penetrate_moments,
    "!o": once_moments,
    "!!": lambda faces, explodes, worth: explode_moments(faces, explodes, worth),  # no clamp: the sum
}


@st.composite
def linear_expressions(draw):
    """One to three terms c·NdS<kind>, joined by + and −, and the oracle's (mean, variance)
    from each term's closed form: N independent dice, times c², added."""
    text, mean, variance = [], F(0), F(0)
    for i in range(draw(st.integers(1, 3))):
        n, sides = draw(st.integers(1, 2)), draw(st.sampled_from([4, 6, 8]))
        kind, c = draw(st.sampled_from(sorted(KINDS))), draw(st.sampled_from([1, 2, 3, -1]))
        sign = draw(st.sampled_from(["+", "-"])) if i else "+"
        m, v = KINDS[kind](d(sides), top(sides), face)
        s = (1 if sign == "+" else -1) * c
        text.append(f"{'' if not i else f' {sign} '}{f'{c} * ' if c != 1 else ''}{n}d{sides}{kind}")
        mean, variance = mean + s * n * m, variance + c * c * n * v
    return "".join(text), mean, variance


@settings(max_examples=60, deadline=None)
@given(linear_expressions())
def test_a_variance_labelled_exact_is_the_sum_of_its_terms_closed_forms(case):
    text, mean, variance = case
    odds = dice.parse(text).odds(explode_depth=1)
    if odds.variance_kind == "exact":
        assert odds.summary.variance == variance
    if odds.mean_kind == "exact":
        assert odds.mean == mean
    assert odds.variance_kind == "exact"  # every such sum has its closed form
