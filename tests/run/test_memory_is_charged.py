"""The work budget charges what a computation holds, not only the steps it takes (issue 34).

A roll-and-keep system with symbol dice (ring d6s and skill d12s, keep up to ``ring`` dice,
explosive successes roll again), written from the docs the ways a homebrewer would, grew
memory inside ``max_states``: a joined roll of ten symbol dice made a million rolls of ten
dice each, uncharged for their size (14 s and 729 MB before ``max_outcomes`` refused it);
explosions written as later rolls made two million joint values of four rolls each, at one
step each (361 MB); with ``--max-states 100000000`` one ended ``internal error:
MemoryError`` under a 2 GB cap. Now each entry is charged for the values it holds
(``dice.dist.held_cost``), before it is made, so they are refused by the usual one-line
E210 early and small; a ``MemoryError`` that still escapes (a budget raised 50-fold on a
small machine) is the same kind of refusal, never a traceback. Bounded here by what the
engine counts and by a child's address-space limit, never by the clock.
"""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product

import pytest

from fuzz_support import cli_code, run_child
from oracle import RING, SKILL, faces_text as _faces
from rulesengine.dice import pool_odds
from rulesengine.errors import LimitError
from rulesengine.ruleset import loads

MEMORY_MB = 500  # a child's address-space limit: each refusal needs far less



HEAD = f"""ruleset: keep-and-explode
name: ring and skill dice, keep up to ring
version: "1"
source: issue 34
dice:
  ring:
    faces: {_faces(RING)}
  skill:
    faces: {_faces(SKILL)}
checks:
  check:
    inputs:
      ring: {{type: integer, default: 2, min: 1, max: 5}}
      skill: {{type: integer, default: 1, min: 0, max: 5}}
      tn: {{type: integer, default: 2, min: 1, max: 10}}
"""

OUTCOMES = """    outcomes:
      - {name: success, when: "result >= tn", success: true}
      - {name: failure, success: false}
"""

KEEP = HEAD + """    roll: (ring)d{ring} + (skill)d{skill}
    choose:
      from: roll
      pick: ring
      values:
        successes: symbols(chosen, 'success', 'explosive')
        strife: symbols(chosen, 'strife')
      order: [successes]
    result: successes
""" + OUTCOMES + "    report: [strife]\n"
"""Keep ``ring`` dice of the whole throw by their successes (explosions left out)."""

EXPLOSIONS_AS_ROLLS = HEAD + """    rolls:
      ring_dice: (ring)d{ring}
      skill_dice: (skill)d{skill}
      ring_more: (count(ring_dice, 6))d{ring}!=6
      skill_more: (count(skill_dice, 11, 12))d{skill}!>=11
    let:
      extra: symbols(ring_more, 'success', 'explosive') + symbols(skill_more, 'success', 'explosive')
    choose:
      from: ring_dice
      pick: ring
      values:
        kept: symbols(chosen, 'success', 'explosive')
      order: [kept]
    result: kept + extra
""" + OUTCOMES
"""The explosive dice thrown again as later rolls that read the first ones."""

ONE_MORE_ROLL = HEAD + """    rolls:
      ring_dice: (ring)d{ring}
      skill_dice: (skill)d{skill}
      more: (count(ring_dice, 6))d{ring}!=6 + (count(skill_dice, 11, 12))d{skill}!>=11
    let:
      successes: symbols(ring_dice, 'success', 'explosive') + symbols(skill_dice, 'success', 'explosive') + symbols(more, 'success', 'explosive')
      strife: symbols(ring_dice, 'strife') + symbols(skill_dice, 'strife') + symbols(more, 'strife')
    result: successes
""" + OUTCOMES + "    report: [strife]\n"
"""Every explosion in one later roll: ended ``internal error: MemoryError`` at the CLI's
highest budget under a 2 GB cap."""

BIG = {"ring": 5, "skill": 5}


def _refused_in_a_child(text: str, tmp_path, *extra: str, memory_mb: int = MEMORY_MB) -> dict:
    path = tmp_path / "keep-and-explode.yaml"
    path.write_text(text)
    run = run_child(cli_code(["odds", str(path), "check", "ring=5", "skill=5", "--json", *extra]),
                    memory_mb=memory_mb)
    assert not run.timed_out
    assert run.returncode == 1, (run.returncode, run.stderr[-500:])
    assert "Traceback" not in run.stderr and "internal error" not in run.stderr, run.stderr[-500:]
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr[-500:]
    error = json.loads(lines[0])
    assert error["code"] == "E210" and error["limit"] == "max_states", error
    return error


def test_a_joined_roll_of_symbol_dice_is_charged_for_its_dice_before_they_are_joined(monkeypatch, tmp_path):
    """5d{ring} + 5d{skill} read whole (for ``choose``): 252 × 4,368 joined rolls of ten dice
    each, one step apiece, fitted the budget; charged for the dice each holds, it is refused
    before any is made (before: 1,100,988 joined rolls made, 14 s and 729 MB)."""
    made = [0]
    joined = pool_odds.joined

    def counted(parts):
        made[0] += 1
        return joined(parts)

    monkeypatch.setattr(pool_odds, "joined", counted)
    with pytest.raises(LimitError) as info:
        loads(KEEP).check("check").odds(BIG)
    assert info.value.limit == "max_states"
    ring_rolls = 252  # the multisets of 5 faces of 6 (C(10, 5)): what joining starts from
    assert made[0] <= ring_rolls  # none of the 1.1 million ten-dice rolls is made
    _refused_in_a_child(KEEP, tmp_path)


def test_joint_values_are_charged_for_the_rolls_they_hold(tmp_path):
    """Explosions as later rolls: a million joint values of four rolls each, one step each,
    fitted; each holds four values and is charged for them too (before: 2 million dictionaries
    made, 361 MB)."""
    with pytest.raises(LimitError) as info:
        loads(EXPLOSIONS_AS_ROLLS).check("check").odds(BIG)
    assert info.value.limit == "max_states"
    assert "joint values of 4 rolls each" in info.value.message
    _refused_in_a_child(EXPLOSIONS_AS_ROLLS, tmp_path)


def test_running_out_of_memory_is_a_one_line_refusal_not_an_internal_error(tmp_path):
    """With the CLI's highest budget (50 times the default) the work may hold more than a
    small machine has: under a 250 MB cap the MemoryError is answered as an E210 naming
    ``max_states``, one line, exit status 1 (before: "internal error (please report):
    MemoryError", exit 3)."""
    error = _refused_in_a_child(ONE_MORE_ROLL, tmp_path, "--max-states", "100000000", memory_mb=250)
    assert "memory" in error["message"] or "too big" in error["message"]


def test_the_service_answers_a_memory_error_with_the_refusal_of_a_limit():
    """A MemoryError inside a request is the engine's E210 problem object (422), not a 500."""
    from rulesengine.serve.problems import internal_problem

    body = internal_problem(MemoryError())
    assert body["status"] == 422 and body["code"] == "E210" and body["limit"] == "max_states"


def _kept_successes_oracle(ring: int, skill: int, tn: int) -> Fraction:
    """Every throw of ``ring`` ring dice and ``skill`` skill dice, the ``ring`` dice with the
    most successes kept (an explosive success counts one): P(kept successes >= tn)."""
    dice = [RING] * ring + [SKILL] * skill
    hits = 0
    throws = 0
    for faces in product(*dice):
        counts = sorted((sum(s in ("success", "explosive") for s in f) for f in faces), reverse=True)
        throws += 1
        hits += sum(counts[:ring]) >= tn
    return Fraction(hits, throws)


@pytest.mark.parametrize("ring,skill,tn", [(2, 1, 2), (2, 1, 1), (1, 2, 1), (3, 2, 3)])
def test_small_throws_are_still_answered_exactly(ring, skill, tn):
    """The charges only refuse sooner what holds much: ring 2, skill 1 is answered exactly,
    as every throw enumerated says."""
    odds = loads(KEEP).check("check").odds({"ring": ring, "skill": skill, "tn": tn})
    assert odds.outcomes["success"] == _kept_successes_oracle(ring, skill, tn)


def test_resolutions_of_exact_odds_keep_the_way_chosen_not_every_way():
    """A roll's result lists every way of choosing (a player may pick another); the odds
    read only the one chosen, so the resolutions they keep hold no others (keep 2 of 7
    dice: 21 ways for each of 91,728 throws held 500 MB). The way chosen is still there."""
    runner = loads(KEEP).check("check").runner
    inputs = runner.coerce_inputs({"ring": 2, "skill": 1})
    outs, _ = runner.resolutions(inputs)
    assert outs and all(res.choices == () and res.chosen is not None for res, _env, _w in outs)
    rolled = loads(KEEP).check("check").roll({"ring": 2, "skill": 1}, seed=1)
    assert len(rolled.choices) >= 1  # a roll still lists its ways of choosing
