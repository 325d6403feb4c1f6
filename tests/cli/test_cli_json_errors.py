"""With --json an error is one JSON object on stderr (issue 15), valid against the shipped
schemas/error.schema.json, with the same exit status as without --json."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from rulesengine.cli import main

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "schemas" / "error.schema.json").read_text())


@pytest.mark.parametrize("argv, code, status", [
    (["odds", "gurps-4e", "success_roll", "skill=99", "--json"], "E601", 1),
    (["roll", "gurps-4e", "success_roll", "skil=12", "--json"], "E601", 1),
    (["dice", "3d", "--json"], "E101", 1),
    (["odds", "gurps-4e", "success_roll", "skill=3..2500", "--json"], "E901", 2),
    (["odds", "gurps-4e", "success_roll", "skill=12", "--given", "sucess", "--json"], "E601", 1),
])
def test_an_error_with_json_is_one_object_on_stderr(capsys, argv, code, status):
    assert main(argv) == status
    out, err = capsys.readouterr()
    assert out == ""
    data = json.loads(err)
    jsonschema.validate(data, SCHEMA)
    assert data["code"] == code and data["severity"] == "error" and data["message"]


def test_without_json_the_same_error_is_text(capsys):
    assert main(["odds", "gurps-4e", "success_roll", "skill=99"]) == 1
    assert capsys.readouterr().err.startswith("rulesengine: error[E601]")
