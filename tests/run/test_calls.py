"""What a check or a procedure can't take is refused by the kind itself, once, with the same
message from the library, the command line and the service (issue 31, part 3: ``cli.py``
and ``serve/operations.py`` only translate a request into a :class:`Runnable` call; they
used to decide ``is_procedure`` and word these refusals each, and none was tested)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesengine.cli import main
from rulesengine.errors import InputError
from rulesengine.ruleset import load
from rulesengine.serve.operations import Service

PACKAGE = Path(__file__).resolve().parents[2] / "rulesengine"

GURPS = load("gurps-4e")
CHECK, PROCEDURE = "success_roll", "quick_contest"
PARTIES = [{"skill": 12}, {"skill": 10}]

REFUSED = [
    # (what is called, the words of its refusal)
    ("roll a check with parties", lambda: GURPS.runnable(CHECK).roll({"skill": 12}, parties=PARTIES),
     "'success_roll' is a check: it takes its own inputs, not parties"),
    ("odds of a check with parties", lambda: GURPS.runnable(CHECK).odds({"skill": 12}, parties=PARTIES),
     "'success_roll' is a check: it takes its own inputs, not parties"),
    ("odds of a procedure given a condition",
     lambda: GURPS.runnable(PROCEDURE).odds(parties=PARTIES, given="outcome == 'tie'"),
     "a condition ('given') works with a check, and 'quick_contest' is a procedure"),
    ("roll a procedure with chosen dice", lambda: GURPS.runnable(PROCEDURE).roll(parties=PARTIES, choose=[1]),
     "chosen dice ('choose') are for a check that chooses dice, and 'quick_contest' is a procedure"),
]


@pytest.mark.parametrize("what, call, message", REFUSED, ids=[r[0] for r in REFUSED])
def test_the_kind_refuses_what_it_cannot_take(what, call, message):
    with pytest.raises(InputError) as info:
        call()
    assert info.value.message == message and info.value.hint


def test_the_command_line_says_the_same(capsys):
    assert main(["roll", "gurps-4e", CHECK, "skill=12", "party1.skill=12"]) == 1
    assert "'success_roll' is a check: it takes its own inputs, not parties" in capsys.readouterr().err
    assert main(["odds", "gurps-4e", PROCEDURE, "party1.skill=12", "party2.skill=10", "--given",
                 "outcome == 'tie'"]) == 1
    assert "a condition ('given') works with a check, and 'quick_contest' is a procedure" in capsys.readouterr().err
    assert main(["odds", "gurps-4e", CHECK, "skill=10..12", "--given", "outcome == 'success'"]) == 1
    assert "a condition ('given') does not combine with a sweep" in capsys.readouterr().err


def test_the_service_says_the_same():
    service = Service()
    cases = [
        ("roll", {"ruleset": "gurps-4e", "name": CHECK, "inputs": {"skill": 12}, "parties": PARTIES},
         "'success_roll' is a check: it takes its own inputs, not parties"),
        ("odds", {"ruleset": "gurps-4e", "name": PROCEDURE, "parties": PARTIES, "given": "outcome == 'tie'"},
         "a condition ('given') works with a check, and 'quick_contest' is a procedure"),
        ("roll", {"ruleset": "gurps-4e", "name": PROCEDURE, "parties": PARTIES, "choose": [1]},
         "chosen dice ('choose') are for a check that chooses dice, and 'quick_contest' is a procedure"),
        ("odds", {"ruleset": "gurps-4e", "name": CHECK, "inputs": {"skill": [10, 11]}, "given": "outcome == 'success'"},
         "a condition ('given') does not combine with a sweep"),
    ]
    for op, request, message in cases:
        with pytest.raises(InputError) as info:
            service.handle(op, request)
        assert info.value.message == message, (op, request)


def test_what_is_given_rightly_still_works():
    assert GURPS.runnable(CHECK).odds({"skill": 12}, parties=None).success > 0
    contest = GURPS.runnable(PROCEDURE).odds(parties=PARTIES)
    assert set(contest.outcomes) == {"party1_wins", "party2_wins", "tie"}
    assert GURPS.runnable(PROCEDURE).is_procedure and not GURPS.runnable(CHECK).is_procedure


def test_whether_a_name_is_a_procedure_is_decided_by_the_kind_alone():
    """The front ends and the sweep never ask which kind a name is (the service looks a
    name up among both only to answer 404 where it is neither)."""
    for module in ("cli.py", "serve/operations.py", "run/sweep.py"):
        text = (PACKAGE / module).read_text(encoding="utf-8")
        assert "is_procedure" not in text, module
        assert "in rs.model.procedures:" not in text.replace("name in rs.model.checks or name in rs.model.procedures:",
                                                              ""), module
