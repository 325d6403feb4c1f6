"""Faces with the labels printed on them (issue 14: face labels for physical entry and
traces): `d{0:'blank', 1:'hit', 2:'crit'}`. The value is the number; the trace shows the
label, physical faces may be entered by it, JSON gives it beside the face."""

from __future__ import annotations

import pytest

from rulesengine import dice
from rulesengine.cli import main
from rulesengine.errors import RulesEngineError
from rulesengine.ruleset import loads

DIE = "d{0:'blank',0:'blank',1:'hit',1:'hit',2:'crit',0:'blank'}"


def test_labels_change_nothing_in_the_odds():
    assert dice.odds("3" + DIE).distribution == dice.odds("3d{0,0,1,1,2,0}").distribution


def test_the_trace_shows_labels_and_faces_are_entered_by_them():
    rolled = dice.roll("3" + DIE, faces=["hit", "Crit", " blank "])
    assert rolled.total == 3
    assert rolled.trace == f"3{DIE} → [hit, crit, blank] = 3"
    assert [(d["face"], d.get("label")) for d in rolled.to_dict()["dice"]] == [(1, "hit"), (2, "crit"), (0, "blank")]
    assert dice.roll("3" + DIE, faces=[1, 2, 0]).total == 3  # numbers still work


def test_a_partly_labelled_die_shows_the_labels_it_has():
    assert dice.roll("2d{1,2,3,4,5,6:'skull'}", faces=["skull", 3]).trace == "2d{1,2,3,4,5,6:'skull'} → [skull, 3] = 9"


def test_a_face_that_is_neither_a_number_nor_a_label_names_what_the_die_shows():
    with pytest.raises(RulesEngineError) as info:
        dice.roll("1" + DIE, faces=["miss"])
    assert info.value.code == "E204" and "0 (blank), 1 (hit), 2 (crit)" in (info.value.hint or "")


@pytest.mark.parametrize("text, words", [
    ("d{1:'a',1:'b'}", "two labels"), ("d{1:'a',2:'a'}", "on two different faces"),
    ("d{1:'2'}", "can't label"), ("d{1:''}", "can't label"), ("d{1:'a,b'}", "can't label"),
])
def test_labels_that_cannot_be_read_back_are_refused_where_they_are_written(text, words):
    with pytest.raises(RulesEngineError) as info:
        dice.parse(text)
    assert info.value.code == "E102" and words in info.value.message
    assert info.value.location.column >= 3


def test_a_negative_face_takes_a_label_too():
    assert dice.roll("d{-1:'minus',0,1:'plus'}", faces=["minus"]).total == -1


RULESET = """
ruleset: labelled-dice
name: Hits on labelled dice
version: "1"
source: tests
checks:
  attack:
    inputs:
      dice: {type: integer, default: 3, min: 1, max: 10}
    roll: "(dice)d{0:'blank',0:'blank',1:'hit',1:'hit',2:'crit',0:'blank'}"
    result: roll
    outcomes:
      - {name: hit, when: "result >= 2", success: true}
      - {name: miss, success: false}
"""


def test_a_ruleset_check_takes_labelled_faces_and_shows_them(capsys, tmp_path):
    check = loads(RULESET, "labels.yaml").check("attack")
    rolled = check.roll({"dice": 2}, faces=["crit", "blank"])
    assert rolled.outcome == "hit" and "[crit, blank]" in rolled.trace
    path = tmp_path / "labels.yaml"
    path.write_text(RULESET, encoding="utf-8")
    assert main(["roll", str(path), "attack", "dice=2", "--faces", "hit,hit"]) == 0
    assert "[hit, hit]" in capsys.readouterr().out
