"""What a check or a procedure can't take is refused by the kind itself, once, with the same
message from the library, the command line and the service (issue 31, part 3: ``cli.py``
and ``serve/operations.py`` only translate a request into a :class:`Runnable` call; they
used to decide ``is_procedure`` and word these refusals each, and none was tested)."""

from __future__ import annotations

import json
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


# ---- which field of the call an error is about, and a hint's example, as data (issue 36, item 4) ----

FIELDS = [
    # (what is wrong, the call, the field of its arguments: parties counted from 0, as in the list)
    ("an unknown input", lambda: GURPS.runnable(CHECK).odds({"skil": 12}), ("inputs", "skil")),
    ("an input out of its bounds", lambda: GURPS.runnable(CHECK).roll({"skill": 61}, seed=1), ("inputs", "skill")),
    ("a missing input", lambda: GURPS.runnable(CHECK).odds({}), ("inputs",)),
    ("the second party's input out of its bounds",
     lambda: GURPS.runnable(PROCEDURE).odds(parties=[{"skill": 12}, {"skill": 61}]), ("parties", 1, "skill")),
    ("too few parties", lambda: GURPS.runnable(PROCEDURE).odds(parties=[{"skill": 12}]), ("parties",)),
    ("inputs for a contest", lambda: GURPS.runnable(PROCEDURE).odds({"skill": 12}), ("inputs",)),
] + [(what, call, (field,)) for what, call, _ in REFUSED
     for field in ["parties" if "parties" in what else "given" if "condition" in what else "choose"]]


@pytest.mark.parametrize("what, call, field", FIELDS, ids=[f[0] for f in FIELDS])
def test_an_error_names_the_field_of_the_call_it_is_about(what, call, field):
    with pytest.raises(InputError) as info:
        call()
    assert info.value.field == field == info.value.location.field


def test_a_hint_that_shows_the_parties_is_in_each_front_ends_own_words(capsys):
    """Python's ``parties=[...]`` from the library, ``party1.skill=...`` words on the command
    line (it used to print both, "(parties=[{...}, {...}] in Python)" included)."""
    needed = [i.name for i in GURPS.check(CHECK).model.inputs if not i.has_default and not i.optional]
    assert needed == ["skill"]  # the input the hint names: the one a party of quick_contest must give
    with pytest.raises(InputError) as info:
        GURPS.runnable(PROCEDURE).odds({"skill": 12})
    assert info.value.hint == 'give parties=[{"skill": ...}, {"skill": ...}]'
    assert main(["odds", "gurps-4e", PROCEDURE, "skill=12"]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == "hint: give party1.skill=... party2.skill=..."
    assert main(["odds", "gurps-4e", PROCEDURE, "party1.skill=12", "--json"]) == 1
    assert json.loads(capsys.readouterr().err)["hint"] == "give party1.skill=... party2.skill=..."
