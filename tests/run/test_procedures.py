"""Procedures as general features, on a small d6 ruleset, against brute force.

Contest tie rules (stand, reroll, first, last, higher then a roll-off), extended checks as
Markov chains, team checks (who rolls, values per member) and assisted checks (helpers
first, or after the leader's dice) are each checked against an enumeration written here.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest

from rulesengine.errors import InputError, RulesEngineError
from rulesengine.ruleset import loads
import functools

YAML = """
ruleset: groups
name: Procedures test
version: "1"
source: tests
checks:
  d6:
    inputs:
      bonus: {type: integer, default: 0, min: -10, max: 10}
      target: {type: integer, default: 4}
      blocked: {type: boolean, default: false}
    gates:
      - {when: blocked, outcome: not_allowed, reason: blocked}
    roll: 1d6
    result: roll + bonus
    outcomes:
      - {name: great, success: true, when: roll == 6}
      - {name: botch, success: false, when: roll == 1}
      - {name: hit, success: true, when: result >= target}
      - {name: miss, success: false}
procedures:
  stand: {kind: contest, check: d6, rank_by: [result], ties: stand}
  first: {kind: contest, check: d6, rank_by: [result], ties: first}
  last: {kind: contest, check: d6, rank_by: [result], ties: last}
  rolloff: {kind: contest, check: d6, rank_by: [result], ties: [{higher: bonus}, {roll: 1d4}]}
  reroll:
    kind: contest
    check: d6
    rank_by: [result]
    ties: reroll
    winner_result: result - runner_up
  race:
    kind: extended
    check: d6
    inputs: {goal: {type: integer, default: 3, min: 1, max: 10}}
    state: {pool: 0}
    each_round:
      - {when: outcome == 'botch', set: {pool: 0}}
      - {when: success, set: {pool: pool + 1}}
    succeed_when: pool >= goal
    fail_when: round >= 4 and pool == 0
    max_rounds: 6
  team:
    kind: team
    check: d6
    inputs: {all_must_succeed: {type: boolean, default: false}}
    rank_by: [bonus]
    roller: if(all_must_succeed, 'lowest', 'highest')
    member_values: {learns: roller_success and bonus <= roller_bonus - 2, bonus_after: "if(learns, 2, 0)"}
  helped:
    kind: assisted
    check: d6
    helpers: {min: 1, max: 3}
    totals: {hits: "if(success, 1, 0)", greats: "if(outcome == 'great', 1, 0)"}
    ruin_when: outcome == 'botch'
    bonus: min(1, hits) + greats
    bonus_to: bonus
  after:
    kind: assisted
    check: d6
    order: leader_first
    helpers: {min: 1, max: 2}
    helper_inputs: {target: "max(4, leader_result)"}
    totals: {hits: "if(success, 1, 0)"}
    ruin_when: outcome == 'botch'
    bonus: hits
    bonus_to: bonus
  copycat:
    kind: assisted
    check: d6
    helpers: {min: 1, max: 1}
    helper_inputs: {target: leader_target}
    totals: {hits: "if(success, 1, 0)"}
    bonus: hits
    bonus_to: bonus
"""

D6 = range(1, 7)


@pytest.fixture(scope="module")
def rs():
    return loads(YAML, "groups.yaml")


def outcome(roll: int, bonus: int = 0, target: int = 4) -> tuple[str, bool, int]:
    """The d6 check restated."""
    result = roll + bonus
    if roll == 6:
        return "great", True, result
    if roll == 1:
        return "botch", False, result
    if result >= target:
        return "hit", True, result
    return "miss", False, result


def test_a_tie_can_stand(rs):
    o = rs.procedure("stand").odds(parties=[{}, {"bonus": 1}])
    want = [F(0), F(0)]
    tie = F(0)
    for a, b in itertools.product(D6, D6):
        if a > b + 1:
            want[0] += F(1, 36)
        elif b + 1 > a:
            want[1] += F(1, 36)
        else:
            tie += F(1, 36)
    assert list(o.wins) == want and o.tie == tie


def test_ties_go_to_the_first_or_the_last_party(rs):
    first = rs.procedure("first").odds(parties=[{}, {}])
    last = rs.procedure("last").odds(parties=[{}, {}])
    assert first.wins == (F(21, 36), F(15, 36)) and first.tie == 0
    assert last.wins == (F(15, 36), F(21, 36))


def test_tie_breakers_higher_bonus_then_a_roll_off(rs):
    proc = rs.procedure("rolloff")
    o = proc.odds(parties=[{"bonus": 1}, {"bonus": 0}, {"bonus": 0}])
    # Brute force: the highest result wins; among tied parties the higher bonus; then a
    # 1d4 roll-off among those still tied, rolled again while tied (fair: equal shares).
    wins = [F(0)] * 3
    for rolls in itertools.product(D6, repeat=3):
        res = [rolls[0] + 1, rolls[1], rolls[2]]
        top = [i for i in range(3) if res[i] == max(res)]
        bonus = [1, 0, 0]
        top = [i for i in top if bonus[i] == max(bonus[j] for j in top)]
        for i in top:
            wins[i] += F(1, 216) / len(top)
    assert list(o.wins) == wins and o.tie == 0
    r = proc.roll(parties=[{}, {}], faces=[3, 3, 2, 2, 4, 1])  # 3 v 3, roll-off 2 v 2, then 4 v 1
    assert r.winner == 0
    # the trace says how the tie was broken, each roll-off too (an outside author saw none)
    lines = r.trace.splitlines()
    assert [line.split(":")[0] for line in lines[2:5]] == ["tie", "roll-off 1d4", "roll-off 1d4"]
    assert lines[3].endswith("party 1 2, party 2 2") and lines[4].endswith("party 1 4, party 2 1")


def test_tied_parties_roll_again_and_the_others_drop_out(rs):
    o = rs.procedure("reroll").odds(parties=[{}, {}, {"bonus": -2}])
    # Solve the reroll recursion by brute force over a few hundred thousand rounds' worth of
    # algebra: P(win | group) with ties among a subgroup rolling again.

    bonus = [0, 0, -2]

    @functools.cache
    def win(group: tuple) -> tuple:
        out = [F(0)] * 3
        loop = F(0)
        for rolls in itertools.product(D6, repeat=len(group)):
            res = {g: r + bonus[g] for g, r in zip(group, rolls)}
            top = tuple(g for g in group if res[g] == max(res.values()))
            p = F(1, 6 ** len(group))
            if len(top) == 1:
                out[top[0]] += p
            elif top == group:
                loop += p
            else:
                for i, q in enumerate(win(top)):
                    out[i] += p * q
        return tuple(x / (1 - loop) for x in out)

    assert list(o.wins) == list(win((0, 1, 2)))


def test_the_winner_result_is_measured_against_the_runner_up(rs):
    r = rs.procedure("reroll").roll(parties=[{}, {}], faces=[5, 2])
    assert (r.winner, r.winner_result) == (0, 3)


DICE_CONTEST = """
ruleset: dice-contest
name: Contests whose ranking, tie-breakers and winner's result read the dice
version: "1"
source: tests
checks:
  trio:
    roll: 3d3
    result: roll
    outcomes:
      - {name: triple, success: true, when: "count(roll, 3) == 3"}
      - {name: other, success: false}
procedures:
  threes: {kind: contest, check: trio, rank_by: [result], ties: [{higher: "count(roll, 3)"}]}
  top: {kind: contest, check: trio, rank_by: ["highest(roll)"], ties: stand, winner_result: "count(roll, 1)"}
  rolloff: {kind: contest, check: trio, rank_by: [result], ties: [{roll: "d2 + count(roll, 3)"}]}
"""

TRIO = list(itertools.product(range(1, 4), repeat=3))


def _dice_contest_brute_force(name: str) -> tuple[list, F, dict]:
    """(wins, tie, winner's results) of a DICE_CONTEST procedure between two parties with no
    inputs, over every face of both parties' 3d3 (7 is 3+3+1 or 3+2+2: one 3 or two)."""
    wins, tie, results = [F(0), F(0)], F(0), {}
    for dice in itertools.product(TRIO, TRIO):
        p = F(1, 3 ** 6)
        if name == "threes":  # the higher total, then more 3s; a tie stands
            keys = [(sum(d), d.count(3)) for d in dice]
            shares = {0: 1} if keys[0] > keys[1] else {1: 1} if keys[1] > keys[0] else {}
            result = lambda w: sum(dice[w])  # noqa: E731
        elif name == "top":  # the higher die; a tie stands; the winner scores its 1s
            keys = [max(d) for d in dice]
            shares = {0: 1} if keys[0] > keys[1] else {1: 1} if keys[1] > keys[0] else {}
            result = lambda w: dice[w].count(1)  # noqa: E731
        else:  # the higher total, then d2 + its 3s, rolled again while tied
            totals = [sum(d) for d in dice]
            result = lambda w: totals[w]  # noqa: E731
            if totals[0] != totals[1]:
                shares = {totals.index(max(totals)): 1}
            else:
                a = [F(1, 2) * (x + dice[0].count(3) > y + dice[1].count(3)) for x in (1, 2) for y in (1, 2)]
                b = [F(1, 2) * (y + dice[1].count(3) > x + dice[0].count(3)) for x in (1, 2) for y in (1, 2)]
                shares = {0: sum(a) / (sum(a) + sum(b)), 1: sum(b) / (sum(a) + sum(b))}
        if not shares:
            tie += p
        for w, q in shares.items():
            wins[w] += p * q
            results[result(w)] = results.get(result(w), F(0)) + p * q
    return wins, tie, results


def _dice_contest_rolled_with_every_face(proc) -> tuple[list, F, dict]:
    """The same from the rolling path: the contest rolled with every faces of both parties'
    dice given; a tie broken by a roll-off gets every face of one d2 each, a roll-off that
    ties again dropped (rolled again, it is the same series: its share is renormalised)."""
    from rulesengine.errors import RulesEngineError

    def roll(faces):
        try:
            return proc.roll(parties=[{}, {}], faces=list(faces))
        except RulesEngineError as exc:
            assert "faces given" in str(exc)
            return None

    wins, tie, results = [F(0), F(0)], F(0), {}
    for a, b in itertools.product(TRIO, TRIO):
        p = F(1, 3 ** 6)
        r = roll(a + b)
        decided = [r] if r is not None else [x for x in (roll(a + b + off) for off in itertools.product((1, 2), repeat=2))
                                            if x is not None]
        for r in decided:
            q = p / len(decided)
            if r.winner is None:
                tie += q
            else:
                wins[r.winner] += q
                value = getattr(r.winner_result, "total", r.winner_result)  # the roll, seen as its total
                results[value] = results.get(value, F(0)) + q
    return wins, tie, results


@pytest.mark.parametrize("name", ["threes", "top", "rolloff"])
def test_a_contest_that_reads_the_dice_tells_outcomes_apart_by_their_dice_not_only_their_total(name):
    """Exact odds merge a party's outcomes by what the contest reads of them; a roll passed to
    a function in rank_by, a tie-breaker, a roll-off or winner_result (``count(roll, 3)``,
    ``highest(roll)``) is told apart by its dice, not only its total, and a roll-off may read
    the party's roll: the same odds as every face enumerated, and as rolling with those faces."""
    rs = loads(DICE_CONTEST, "dice-contest.yaml")
    o = rs.procedure(name).odds(parties=[{}, {}])
    want = _dice_contest_brute_force(name)
    assert (list(o.wins), o.tie, o.winner_result) == want
    assert _dice_contest_rolled_with_every_face(rs.procedure(name)) == want


UNSEEN_DICE = """
ruleset: unseen-dice
name: A check that never looks at its dice, and procedures that do
version: "1"
source: tests
checks:
  pair:
    inputs: {wild: {type: boolean, default: false}}
    let: {held: "(roll)"}
    roll: 2d6
    result: roll
    outcomes:
      - {name: high, success: true, when: result >= 8}
      - {name: low, success: false}
procedures:
  sixes:
    kind: extended
    check: pair
    state: {sixes: 0}
    each_round:
      - {set: {sixes: "sixes + count(if(round > 1, roll, (roll)), 6)"}}
    succeed_when: sixes >= 1
    max_rounds: 2
  top: {kind: contest, check: pair, rank_by: ["highest(result)"], ties: [{higher: "if(wild, count(held, 6), 0)"}]}
"""


def test_a_procedure_that_looks_at_dice_its_check_never_looks_at_gets_exact_odds():
    """A roll whose dice only a procedure looks at (``count(roll, 6)`` in the round rules,
    ``highest(result)`` in a ranking, through ``if()`` and a let) keeps its dice in exact odds,
    as rolling does: the check's own rules never read them (it was "count() needs a roll of
    dice, not the number 2")."""
    rs = loads(UNSEEN_DICE, "unseen.yaml")
    assert rs.model.checks["pair"].faces_needed == {"roll"}
    one_round = F(11, 36)  # at least one six on 2d6
    o = rs.procedure("sixes").odds({})
    assert o.by_round[0] == (one_round, 0) and o.success == 1 - (1 - one_round) ** 2
    pairs = list(itertools.product(D6, D6))
    for wild in (False, True):
        wins, tie = [F(0), F(0)], F(0)
        for a, b in itertools.product(pairs, pairs):
            ka, kb = [(max(d), d.count(6) if wild else 0) for d in (a, b)]
            if ka == kb:
                tie += F(1, 6 ** 4)
            else:
                wins[ka < kb] += F(1, 6 ** 4)
        o = rs.procedure("top").odds(parties=[{"wild": wild}, {"wild": wild}])
        assert (list(o.wins), o.tie) == (wins, tie)
        r = rs.procedure("top").roll(parties=[{"wild": wild}, {"wild": wild}], faces=[6, 6, 5, 6])
        assert r.winner == (0 if wild else None)


def test_extended_checks_are_markov_chains(rs):
    o = rs.procedure("race").odds({"goal": 2})
    # Brute force over every sequence of six d6 rolls.
    succ = fail = unfinished = F(0)
    for rolls in itertools.product(D6, repeat=6):
        pool, verdict = 0, "unfinished"
        for n, roll in enumerate(rolls, 1):
            name, ok, _ = outcome(roll)
            if name == "botch":
                pool = 0
            elif ok:
                pool += 1
            if pool >= 2:
                verdict = "success"
                break
            if n >= 4 and pool == 0:
                verdict = "failure"
                break
        p = F(1, 6 ** 6)
        succ += p * (verdict == "success")
        fail += p * (verdict == "failure")
        unfinished += p * (verdict == "unfinished")
    assert o.outcomes == {"success": succ, "failure": fail, "unfinished": unfinished}
    assert o.by_round[-1] == (succ, fail)


def test_extended_check_replayed_with_faces(rs):
    r = rs.procedure("race").roll({"goal": 2}, faces=[5, 1, 6, 4])
    assert r.outcome == "success" and [s["pool"] for s in r.states] == [1, 0, 1, 2]


CLIMB = """
ruleset: climb
name: Extended checks whose dice change with the state and the round
version: "1"
source: tests
checks:
  d:
    inputs:
      bonus: {type: integer, default: 0, min: -20, max: 20}
      sides: {type: integer, default: 6, min: 2, max: 20}
    roll: 1d(sides)!
    result: roll + bonus
    outcomes:
      - {name: botch, success: false, when: roll == 1}
      - {name: great, success: true, when: result >= 10}
      - {name: hit, success: true, when: result >= 5}
      - {name: miss, success: false}
  pair:
    roll: 2d6
    result: roll
    outcomes:
      - {name: doubles, success: true, when: "count(roll, 6) == 2 or count(roll, 1) == 2"}
      - {name: other, success: false}
procedures:
  climb:
    kind: extended
    check: d
    inputs: {goal: {type: integer, default: 4}}
    state: {height: 0, strain: 0}
    round_inputs: {bonus: height - strain, sides: "if(round > 2, 8, 6)"}
    each_round:
      - when: outcome == 'botch'
        set: {strain: strain + 1, height: "max(0, height - 1)"}
      - {when: outcome == 'great', set: {height: height + 2}}
      - {when: outcome == 'hit', set: {height: height + 1}}
    succeed_when: height >= goal
    fail_when: strain >= 2 or round >= 5 and height == 0
    max_rounds: 7
  steady:
    kind: extended
    check: d
    inputs: {goal: {type: integer, default: 4}}
    state: {height: 0, strain: 0}
    round_inputs: {sides: "4 + 2 * min(height, 3)"}
    each_round:
      - when: outcome == 'botch'
        set: {strain: strain + 1, height: "max(0, height - 1)"}
      - {when: outcome == 'great', set: {height: height + 2}}
      - {when: outcome == 'hit', set: {height: height + 1}}
    succeed_when: height >= goal
    fail_when: strain >= 3
    max_rounds: 8
  sixes:
    kind: extended
    check: pair
    state: {sixes: 0}
    each_round:
      - {set: {sixes: "sixes + count(roll, 6)"}}
    succeed_when: sixes >= 1
    max_rounds: 2
  tally:
    kind: extended
    check: d
    inputs: {rounds: {type: integer, default: 10}}
    state: {n: 0}
    each_round:
      - {when: success, set: {n: n + 1}}
    succeed_when: n >= 100
    max_rounds: rounds
  tally_by_round:
    kind: extended
    check: d
    inputs: {rounds: {type: integer, default: 10}}
    state: {n: 0}
    each_round:
      - {when: success, set: {n: n + 1}}
    succeed_when: n >= 100
    fail_when: round > 1000
    max_rounds: rounds
"""


def _climb_chain(rs, goal: int, rounds: int, round_inputs, fail_when) -> dict:
    """The extended check walked by hand with Fractions: each round, every state's check
    inputs restated here, the probability of each outcome from the check's own exact odds
    (``Check.odds``), the round rules restated here."""
    check = rs.check("d")
    states = {(0, 0): F(1)}
    succeeded = failed = truncated = F(0)
    by_round, ended = [], {}
    for n in range(1, rounds + 1):
        nxt: dict = {}
        s_n = f_n = F(0)
        for (height, strain), p in states.items():
            odds = check.odds(round_inputs(height, strain, n))
            truncated += p * odds.truncated
            for name, q in odds.outcomes.items():
                h, s = height, strain
                if name == "botch":
                    h, s = max(0, h - 1), s + 1
                elif name == "great":
                    h += 2
                elif name == "hit":
                    h += 1
                if h >= goal:
                    s_n += p * q
                elif fail_when(h, s, n):
                    f_n += p * q
                else:
                    nxt[(h, s)] = nxt.get((h, s), F(0)) + p * q
        succeeded += s_n
        failed += f_n
        if s_n or f_n:
            ended[n] = s_n + f_n
        by_round.append((succeeded, failed))
        states = nxt
        if not states:
            break
    unfinished = sum(states.values(), F(0))
    if unfinished:
        ended[rounds] = ended.get(rounds, F(0)) + unfinished
    return {"outcomes": {"success": succeeded, "failure": failed, "unfinished": unfinished},
            "by_round": tuple(by_round), "expected_rounds": sum((n * p for n, p in ended.items()), F(0)),
            "rounds_distribution": ended, "truncated": truncated}


@pytest.mark.parametrize("goal", [1, 3, 5])
def test_extended_odds_are_the_markov_chain_of_the_checks_odds_when_the_dice_change_each_round(goal):
    """Round inputs that read the state and the round (a bonus from the height reached, bigger
    dice after round 2) and a fail rule that reads the round: the odds are the chain walked with
    the check's own exact odds state by state, exactly — by round, expected rounds, and the
    mass lost to explosions cut off (``truncated``) included: none, as every outcome of the
    exploding die (botch on a 1, thresholds on the total) is the same however deep the
    explosions went (rulesengine.dice.beyond)."""
    rs = loads(CLIMB, "climb.yaml")
    o = rs.procedure("climb").odds({"goal": goal})
    want = _climb_chain(rs, goal, 7, lambda h, s, n: {"bonus": h - s, "sides": 8 if n > 2 else 6},
                        lambda h, s, n: s >= 2 or (n >= 5 and h == 0))
    assert want["truncated"] == 0
    got = {"outcomes": o.outcomes, "by_round": o.by_round, "expected_rounds": o.expected_rounds,
           "rounds_distribution": o.rounds_distribution, "truncated": o.truncated}
    assert got == want


@pytest.mark.parametrize("goal", [2, 4, 6])
def test_extended_odds_are_the_markov_chain_of_the_checks_odds_when_each_state_rolls_other_dice(goal):
    """Each state rolls a different die (d4 to d10 by height), so the states of one round have
    different denominators: still exactly the chain of the check's odds."""
    rs = loads(CLIMB, "climb.yaml")
    o = rs.procedure("steady").odds({"goal": goal})
    want = _climb_chain(rs, goal, 8, lambda h, s, n: {"sides": 4 + 2 * min(h, 3)}, lambda h, s, n: s >= 3)
    got = {"outcomes": o.outcomes, "by_round": o.by_round, "expected_rounds": o.expected_rounds,
           "rounds_distribution": o.rounds_distribution, "truncated": o.truncated}
    assert got == want


def test_round_rules_that_look_at_the_dice_see_each_rolls_own_dice():
    """Outcomes are merged by what the round rules read of them; a roll passed to a function
    (``count(roll, 6)``) is told apart by its dice, not only its total (7 is 1+6 or 3+4)."""
    rs = loads(CLIMB, "climb.yaml")
    o = rs.procedure("sixes").odds({})
    one_round = F(11, 36)  # at least one six on 2d6
    assert o.by_round[0] == (one_round, 0)
    assert o.success == 1 - (1 - one_round) ** 2


def test_each_transition_of_an_extended_check_is_worked_out_once(monkeypatch):
    """Exact odds evaluate the round rules once per state and outcome the rules can tell apart,
    not once per round: a tally (n successes so far) over r rounds meets the states 0..r-1,
    each with two outcomes (success or not), so 2r evaluations instead of r(r+1). Rules that
    read ``round`` are evaluated again every round."""
    from rulesengine.run.procedures import RUNNERS
    from rulesengine.ruleset import load

    calls = []
    extended = RUNNERS["extended"]
    advance = extended.advance
    monkeypatch.setattr(extended, "advance", lambda self, *a: calls.append(1) or advance(self, *a))

    def evaluations(rs, name, inputs):
        calls.clear()
        rs.procedure(name).odds(inputs)
        return len(calls)

    rs = loads(CLIMB, "climb.yaml")
    assert [evaluations(rs, "tally", {"rounds": r}) for r in (10, 20)] == [20, 40]
    assert [evaluations(rs, "tally_by_round", {"rounds": r}) for r in (10, 20)] == [110, 420]
    # RPS-9 sustained, Goal 10: 20 pools going (-10..9), all met within 40 rounds, times 19
    # (outcome, SL) pairs of the check: 380 evaluations, where the walk once made 36,575.
    rps, inputs = load("rps"), {"goal": 10, "skill": 8, "attribute": 6}
    assert evaluations(rps, "sustained", {**inputs, "max_rounds": 100}) == \
        evaluations(rps, "sustained", {**inputs, "max_rounds": 40}) == 20 * 19


def test_an_extended_check_is_charged_for_the_size_of_its_exact_weights():
    """Exact weights are integers over a denominator that grows every round (6^100 a round
    for 100d6): past 20,480 bits each outcome of each state costs a step per 1,024 bits,
    so max_states still bounds the time spent on big-integer arithmetic: 1,000 rounds of
    100d6 are refused, quickly, instead of taking minutes within the budget."""
    from fuzz_support import case_time_limit
    from rulesengine.dice.dist import shared_budget
    from rulesengine.errors import LimitError

    def steps(rounds: int) -> int:
        rs = loads(BIG_DENOMINATORS, "big.yaml")  # fresh: the check's odds are worked out each time
        with shared_budget(10**12) as used:
            assert rs.procedure("walk").odds({"rounds": rounds}).outcomes["unfinished"] == 1
        return used.used

    # Round r has r states going (n = 0..r-1), two outcomes each (a hit or not).
    assert (6 ** (100 * 49)).bit_length() < 20_480 < (6 ** (100 * 99)).bit_length()
    assert steps(50) - steps(49) == 50 * 2 * 20  # after 49 rounds: 20 steps an outcome
    assert steps(100) - steps(99) == 100 * 2 * ((6 ** (100 * 99)).bit_length() >> 10)  # after 99: 24
    with case_time_limit("odds of 1000 rounds of 100d6"), pytest.raises(LimitError) as info:
        loads(BIG_DENOMINATORS, "big.yaml").procedure("walk").odds({"rounds": 1000})
    assert info.value.limit == "max_states"


BIG_DENOMINATORS = """
ruleset: big
name: An extended check with a large denominator each round
version: "1"
source: tests
checks:
  many:
    roll: 100d6
    result: roll
    outcomes:
      - {name: hit, success: true, when: result > 350}
      - {name: miss, success: false}
procedures:
  walk:
    kind: extended
    check: many
    inputs: {rounds: {type: integer, default: 10, max: 1000}}
    state: {n: 0}
    each_round:
      - {when: success, set: {n: "min(n + 1, 99)"}}
      - {set: {n: "max(n - 1, 0)"}}
    succeed_when: false
    max_rounds: rounds
"""


def test_team_check_rolls_for_the_highest_or_the_lowest_member(rs):
    proc = rs.procedure("team")
    members = [{"bonus": 1}, {"bonus": 4}, {"bonus": 2}]
    assert proc.roll(parties=members, faces=[3]).roller == 1
    low = proc.roll({"all_must_succeed": "true"}, parties=members, faces=[3])
    assert low.roller == 0 and low.outcome == "hit"
    o = proc.odds(parties=members)
    assert o.success == F(5, 6) and o.roller == 1
    # Members two or more below a successful roller learn something.
    assert o.member_values[0]["learns"] == {True: F(5, 6), False: F(1, 6)}
    assert o.member_values[2]["learns"] == {True: F(5, 6), False: F(1, 6)}
    assert o.member_values[1]["learns"] == {False: F(1)}


def test_assisted_check_helpers_first(rs):
    proc = rs.procedure("helped")
    o = proc.odds(parties=[{}, {}, {}])
    outcomes: dict[str, F] = {}
    for h1, h2, lead in itertools.product(D6, D6, D6):
        helpers = [outcome(h1), outcome(h2)]
        p = F(1, 216)
        if any(n == "botch" for n, _, _ in helpers):
            outcomes["ruined"] = outcomes.get("ruined", F(0)) + p
            continue
        bonus = min(1, sum(ok for _, ok, _ in helpers)) + sum(n == "great" for n, _, _ in helpers)
        name, _, _ = outcome(lead, bonus)
        outcomes[name] = outcomes.get(name, F(0)) + p
    assert {k: v for k, v in o.outcomes.items() if v} == outcomes
    r = proc.roll(parties=[{}, {}, {}], faces=[6, 4, 2])
    assert (r.bonus, r.outcome, r.result) == (2, "hit", 4)
    ruined = proc.roll(parties=[{}, {}], faces=[1])
    assert ruined.outcome == "ruined" and ruined.leader is None


def test_assisted_check_after_the_leader_reuses_the_leaders_dice(rs):
    proc = rs.procedure("after")
    o = proc.odds(parties=[{}, {}])
    outcomes: dict[str, F] = {}
    for lead, helper in itertools.product(D6, D6):
        provisional = outcome(lead)[2]
        helper_name, ok, _ = outcome(helper, 0, max(4, provisional))
        name = "ruined" if helper_name == "botch" else outcome(lead, int(ok))[0]
        outcomes[name] = outcomes.get(name, F(0)) + F(1, 36)
    assert {k: v for k, v in o.outcomes.items() if v} == outcomes
    r = proc.roll(parties=[{}, {}], faces=[3, 5])  # leader 3; helper 5 ≥ max(4, 3): +1 → 4, a hit
    assert (r.bonus, r.outcome, r.result) == (1, "hit", 4)
    assert r.leader.dice[0].face == 3


@pytest.mark.parametrize("field, text", [("totals", "{hits: outcome}"), ("bonus", "\"'two'\""),
                                         ("bonus", "\"1 > 0\"")])
def test_an_assisted_total_or_bonus_that_is_not_a_number_is_refused_at_load_at_its_expression(field, text):
    """Totals are summed over the helpers and the bonus is added to the leader's input: a
    word or a yes/no there (a fuzzed ruleset's ``outcome``) is E521 when the file is loaded, at
    the expression (it was an E510 when rolled, before procedures' numbers were typed)."""
    other = {"totals": "bonus: 1", "bonus": "totals: {hits: 1}"}[field]
    text_of_file = YAML.replace("procedures:\n", "procedures:\n  worded:\n    kind: assisted\n    check: d6\n"
                                f"    helpers: {{min: 1, max: 1}}\n    {field}: {text}\n    {other}\n"
                                "    bonus_to: bonus\n", 1)
    with pytest.raises(RulesEngineError, match="must be a number") as info:
        loads(text_of_file, "worded.yaml")
    assert info.value.code == "E521" and info.value.location.path == "worded.yaml"
    assert info.value.location.line is not None


def test_procedure_inputs_are_checked(rs):
    with pytest.raises(InputError, match="needs 1 to 3 helpers"):
        rs.procedure("helped").roll(parties=[{}], seed=1)
    with pytest.raises(InputError, match="unknown input 'gaol'"):
        rs.procedure("race").roll({"gaol": 3}, seed=1)


def test_member_values_may_use_the_ones_before(rs):
    r = rs.procedure("team").roll(parties=[{"bonus": 1}, {"bonus": 4}], faces=[5])
    assert [m["bonus_after"] for m in r.member_values] == [2, 0]


def test_a_leader_who_may_not_act_first_gets_no_help_and_nobody_rolls(rs):
    proc = rs.procedure("after")
    r = proc.roll(parties=[{"blocked": True}, {}], faces=[])
    assert (r.outcome, r.helpers, r.bonus) == ("not_allowed", (), 0)
    assert proc.odds(parties=[{"blocked": True}, {}]).outcomes["not_allowed"] == 1


def test_a_ruined_task_keeps_the_leaders_dice(rs):
    r = rs.procedure("after").roll(parties=[{}, {}], faces=[5, 1])  # the helper botches
    assert r.outcome == "ruined" and [d.face for d in r.dice] == [5, 1]


def test_helper_inputs_may_read_the_leaders_inputs(rs):
    r = rs.procedure("copycat").roll(parties=[{"target": 6}, {}], faces=[5, 5])
    assert r.helpers[0].inputs["target"] == 6 and r.bonus == 0  # 5 misses the leader's target 6


def test_helper_errors_name_the_party(rs):
    with pytest.raises(InputError, match="party 2 \\(a helper\\): unknown input 'bonsu'"):
        rs.procedure("helped").roll(parties=[{}, {"bonsu": 1}], seed=1)


BIG_ROLL_OFF = """
ruleset: big-roll-off
name: A roll-off with many possible values
version: "1"
source: tests
checks:
  even:
    inputs: {sides: {type: integer, default: 6, min: 1, max: 1000000}}
    roll: 1d2
    result: 0
    outcomes:
      - {name: done, success: true}
procedures:
  duel: {kind: contest, check: even, rank_by: [result], ties: [{roll: d(sides)}]}
"""


def test_the_work_of_a_roll_off_is_charged_to_the_budget():
    """Exact odds of a roll-off compare every line-up of the tied parties' values: three parties
    tied on a d1000 roll-off are a billion line-ups, refused by max_states at once (it used to
    be uncharged: three d100s took 6 s, d1000s hours)."""
    from fuzz_support import case_time_limit
    from rulesengine.errors import LimitError

    duel = loads(BIG_ROLL_OFF).procedure("duel")
    assert duel.odds(parties=[{"sides": 20}] * 3).wins == (F(1, 3),) * 3
    with case_time_limit("roll-off of three d1000s"), pytest.raises(LimitError) as info:
        duel.odds(parties=[{"sides": 1000}] * 3)
    assert info.value.limit == "max_states" and "roll-off 'd(sides)'" in info.value.message


LIMITED = """\
ruleset: limited
name: Procedures that run into limits
version: "1"
source: tests
checks:
  d:
    inputs:
      sides: {type: integer, default: 6, min: 1, max: 1000000}
    roll: 1d(sides)
    result: roll
    outcomes:
      - {name: hit, success: true, when: roll >= 4}
      - {name: miss, success: false}
  even:
    inputs:
      sides: {type: integer, default: 6, min: 1, max: 1000000}
    roll: 1d2
    result: 0
    outcomes:
      - {name: done, success: true}
procedures:
  duel: {kind: contest, check: even, rank_by: [0], ties: [{roll: "(sides)d(sides)"}]}
  crowd: {kind: contest, check: d, rank_by: [result], ties: stand}
  race:
    kind: extended
    check: d
    inputs: {rounds: {type: integer, default: 3}}
    state: {pool: 0}
    each_round:
      - {when: success, set: {pool: pool + 1}}
    succeed_when: pool >= 100
    max_rounds: rounds
  helped:
    kind: assisted
    check: d
    helpers: {min: 1, max: 7}
    totals: {sum: result}
    bonus: 0
    bonus_to: sides
"""


@pytest.fixture(scope="module")
def limited(tmp_path_factory):
    import dataclasses

    from rulesengine import DEFAULT_LIMITS
    from rulesengine.ruleset import load

    path = tmp_path_factory.mktemp("limited") / "limited.yaml"
    path.write_text(LIMITED, encoding="utf-8")
    return str(path), lambda **kw: load(path, limits=dataclasses.replace(DEFAULT_LIMITS, **kw))


def _limit_error(call):
    from rulesengine.errors import LimitError

    with pytest.raises(LimitError) as info:
        call()
    return info.value


@pytest.mark.parametrize("name,call,limit,line,column,pointer", [
    # the whole procedure is too big: at its name
    ("extended check's work", lambda rs: rs.procedure("race").odds({"rounds": 1000}), "max_states", 24, 3,
     "/procedures/race"),
    ("contest's line-ups", lambda rs: rs.procedure("crowd").odds(parties=[{"sides": 20}] * 3), "max_states", 23, 3,
     "/procedures/crowd"),
    ("helpers' states", lambda rs: rs.procedure("helped").odds(parties=[{"sides": 20}] * 8), "max_states", 33, 3,
     "/procedures/helped"),
    # one of its expressions: at that expression (at the term, inside a dice expression)
    ("round cap", lambda rs: rs.procedure("race").odds({"rounds": 5000}), "max_rounds", 32, 17,
     "/procedures/race/max_rounds"),
    ("roll-off's work", lambda rs: rs.procedure("duel").odds(parties=[{"sides": 5}] * 3), "max_states", 22, 67,
     "/procedures/duel/ties/0/roll"),
    ("roll-off's odds", lambda rs: rs.procedure("duel").odds(parties=[{"sides": 1000}] * 2), "max_states", 22, 67,
     "/procedures/duel/ties/0/roll"),
    ("roll-off's dice", lambda rs: rs.procedure("duel").roll(parties=[{"sides": 20000}] * 2, faces=[1, 1] + [1] * 4),
     "max_dice", 22, 67, "/procedures/duel/ties/0/roll"),
])
def test_a_procedures_limit_errors_name_the_limit_and_point_into_the_file(limited, name, call, limit, line, column,
                                                                          pointer):
    """Like every other ruleset error, a limit a procedure hits is reported at its place in the
    file (line and column), and keeps the name of the limit (LimitError.limit)."""
    path, load_with = limited
    err = _limit_error(lambda: call(load_with(max_states=20_000)))
    assert (err.limit, err.code) == (limit, "E210"), err.message
    loc = err.location
    assert (loc.path, loc.line, loc.column, loc.pointer) == (path, line, column, pointer), (name, loc)


def test_a_limit_one_value_of_a_sweep_hits_keeps_its_name_and_place_and_says_which_value(limited):
    """A value too big on its own (not the sweep's shared budget running out): its own error,
    the limit named and the place in the file kept, prefixed with the value it was at."""
    from rulesengine.run.sweep import sweep

    path, load_with = limited
    err = _limit_error(lambda: sweep(load_with(max_states=20_000).check("d"), {"sides": "999999..1000000"}, {}))
    assert err.limit == "max_states" and err.message.startswith("at sides=999999: '1d(sides)' is too big")
    assert (err.location.path, err.location.pointer, err.location.line) == (path, "/checks/d/roll", 9)


ROLL_OFF_READS_THE_RULESET = """
ruleset: roll-off-reads
name: A roll-off that reads a table and an optional input
version: "1"
source: tests
tables:
  boost:
    ladder: {low: 0, high: 2}
checks:
  d4:
    inputs:
      edge: {type: integer, optional: true, min: 0, max: 3}
    roll: 1d4
    result: roll
    outcomes:
      - {name: done, success: true}
procedures:
  duel:
    kind: contest
    check: d4
    rank_by: [result]
    ties: [{roll: "1d4 + boost('high') + if(given(edge), edge, 0)"}]
"""


def _roll_off_brute_force(edges: list[int | None]) -> list[F]:
    """Who wins the duel, by enumerating both d4s and then the roll-off as a geometric series:
    ties on the check go to a roll-off of d4 + 2 (the table's 'high') + edge (0 when not given),
    and a tied roll-off is rolled again."""
    bonus = [2 + (e or 0) for e in edges]
    wins = [F(0), F(0)]
    one_roll = [F(0), F(0)]
    again = F(0)
    for a, b in itertools.product(range(1, 5), repeat=2):
        x, y = a + bonus[0], b + bonus[1]
        if x == y:
            again += F(1, 16)
        else:
            one_roll[0 if x > y else 1] += F(1, 16)
    settle = [p / (1 - again) for p in one_roll]
    for a, b in itertools.product(range(1, 5), repeat=2):
        if a != b:
            wins[0 if a > b else 1] += F(1, 16)
        else:
            wins[0] += F(1, 16) * settle[0]
            wins[1] += F(1, 16) * settle[1]
    return wins


@pytest.mark.parametrize("edges", [[None, None], [1, None], [None, 3], [2, 2]])
def test_a_roll_off_reads_the_rulesets_tables_and_optional_inputs_in_exact_odds(edges):
    """A roll-off is an expression of the ruleset like any other: its exact odds use the
    ruleset's tables (``boost('high')``) and a party's optional input (``given(edge)``), as
    rolling does. (Found: its odds once went through a bare dice expression that knew neither,
    failing with 'unknown function' where the roll worked.)"""
    rs = loads(ROLL_OFF_READS_THE_RULESET, "roll-off.yaml")
    parties = [{} if e is None else {"edge": e} for e in edges]
    o = rs.procedure("duel").odds(parties=parties)
    assert list(o.wins) == _roll_off_brute_force(edges) and o.tie == 0
    # Rolled: both show 3, then the roll-off's d4s; the bonuses decide who wins it.
    high, low = (4, 1) if edges[1] != 3 else (1, 4)
    rolled = rs.procedure("duel").roll(parties=parties, faces=[3, 3, high, low])
    assert rolled.winner == (0 if edges[1] != 3 else 1)


@pytest.mark.parametrize("name", ["stand", "race", "team", "helped"])
def test_every_result_and_odds_kind_follows_the_one_results_protocol(rs, name):
    """present.text formats any check or procedure through run.results' RunResult/RunOdds."""
    from rulesengine.present.text import format_odds, format_roll
    from rulesengine.run.results import RunOdds, RunResult

    proc = rs.procedure(name)
    parties = None if name == "race" else [{}, {}]
    rolled, odds = proc.roll(parties=parties, seed=3), proc.odds(parties=parties)
    check_rolled, check_odds = rs.check("d6").roll(seed=3), rs.check("d6").odds()
    for r, o, title in ((rolled, odds, name), (check_rolled, check_odds, "d6")):
        assert isinstance(r, RunResult) and isinstance(o, RunOdds)
        assert r.name == o.name == title
        assert format_roll(r).startswith(f"{r.ruleset} / {title}")
        kind, dist = o.distribution()
        assert kind in ("result", "winner's result", "rounds") and sum(dist.values()) <= 1
        assert f"{o.ruleset} / {title}" in format_odds(o)


USAGE = """
ruleset: usage
name: A usage die that steps down, its size set each round
version: "1"
source: tests
checks:
  use:
    inputs:
      size: {type: integer, min: 4, max: 12}
    roll: d(size)
    result: roll
    outcomes:
      - {name: down, when: "roll <= 2", success: false}
      - {name: fine, success: true}
procedures:
  supply:
    kind: extended
    check: use
    inputs:
      start: {type: integer, min: 4, max: 12, default: 8}
    state: {die: start}
    round_inputs: {size: die}
    each_round:
      - {when: "outcome == 'down' and die == 4", set: {die: 0}}
      - {when: "outcome == 'down'", set: {die: die - 2}}
    succeed_when: false
    fail_when: die == 0
    max_rounds: 100
  supply_from_size:
    kind: extended
    check: use
    state: {die: size}
    round_inputs: {size: die}
    each_round:
      - {when: "outcome == 'down'", set: {die: die - 2}}
    succeed_when: false
    fail_when: die < 4
    max_rounds: 100
"""


def test_an_input_the_rounds_set_need_not_be_given():
    """``size`` is worked out each round (``round_inputs``) and has no default: the forms of
    the procedure don't ask for it, so a call without it is answered (it was refused as
    missing). A d8 steps down on 1-2 to a d6, a d4, then runs out: in three rounds with
    chance 2/8 · 2/6 · 2/4 = 1/24; 8/2 + 6/2 + 4/2 = 9 uses on average (each die's expected
    rolls its size over 2; the 100 rounds allowed leave out a tail below 1e-10)."""
    rs = loads(USAGE, "t.yaml")
    odds = rs.procedure("supply").odds(inputs={"start": 8}).to_dict()
    assert "size" not in odds["inputs"]
    assert F(next(r["exact"] for r in odds["result"] if r["value"] == 3)) == F(1, 24)
    assert abs(odds["expected_rounds"] - 9) < 1e-10
    rolled = rs.procedure("supply").roll(inputs={"start": 8}, seed=1)
    assert rolled.outcome == "failure" and "size" not in rolled.to_dict()["inputs"]
    assert rs.procedure("supply").odds(inputs={"start": 8, "size": 6}).to_dict()["expected_rounds"] == \
        odds["expected_rounds"]  # given anyway, as before: the rounds set it


def test_an_input_the_rounds_set_and_the_starting_state_reads_is_still_asked_for():
    rs = loads(USAGE, "t.yaml")
    with pytest.raises(InputError, match="missing input 'size'"):
        rs.procedure("supply_from_size").odds(inputs={})
    assert rs.procedure("supply_from_size").odds(inputs={"size": 4}).to_dict()["outcomes"]
