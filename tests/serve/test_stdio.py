"""``rulesengine serve --stdio`` (issue 16): a spawned process, one JSON request per line in, one
answer per line out, in order, with the same operations and problem objects as HTTP; bad lines
get an error answer and the loop goes on; end of input ends it with exit 0."""

from __future__ import annotations

import json
import subprocess
import sys

import jsonschema

import rulesengine
from service_support import schema

GUARD_SECONDS = 120  # a hang guard for a busy machine, not a speed assertion


def exchange(lines: list[bytes], *options: str) -> tuple[int, list[dict]]:
    done = subprocess.run([sys.executable, "-m", "rulesengine", "serve", "--stdio", *options],
                          input=b"".join(line + b"\n" for line in lines), capture_output=True,
                          timeout=GUARD_SECONDS)
    return done.returncode, [json.loads(line) for line in done.stdout.splitlines()]


def request(**fields) -> bytes:
    return json.dumps(fields).encode()


def test_each_line_gets_its_answer_in_order_with_its_id():
    code, answers = exchange([
        request(id=1, op="roll", ruleset="gurps-4e", name="success_roll", inputs={"skill": 12}, seed=7),
        request(id="two", op="dice_odds", expression="3d6 >= 10"),
        request(id=3, op="list"),
    ])
    assert code == 0
    assert [a["id"] for a in answers] == [1, "two", 3]
    assert all(a["ok"] for a in answers)
    expected = rulesengine.load("gurps-4e").check("success_roll").roll({"skill": 12}, seed=7).to_dict()
    assert answers[0]["result"] == json.loads(json.dumps(expected))
    jsonschema.validate(answers[1]["result"], schema("dice-odds-result"))
    jsonschema.validate(answers[2]["result"], schema("list-result"))


def test_errors_are_answers_with_problem_objects_and_the_loop_goes_on():
    code, answers = exchange([
        b"not json",
        b"[1]",
        request(id=2, op="rol"),
        request(id=3, op="roll", ruleset="gurps-4e", name="success_roll", inputs={"skil": 1}),
        request(id=4, op="dice_roll", expression="3d6 +"),
        b"",
        request(id=5, op="dice_roll", expression="1d1"),
    ])
    assert code == 0
    assert [(a["id"], a["ok"]) for a in answers] == [(None, False), (None, False), (2, False), (3, False),
                                                     (4, False), (5, True)]
    for a in answers[:5]:
        jsonschema.validate(a["error"], schema("problem"))
    assert [a["error"]["code"] for a in answers[:5]] == ["E701", "E701", "E701", "E601", "E101"]
    assert "did you mean 'roll'" in answers[2]["error"]["hint"]


def test_a_line_over_the_body_limit_is_answered_without_being_held_whole():
    code, answers = exchange([b'{"op": "validate", "yaml": "' + b"x" * 50_000 + b'"}', request(id=1, op="list")],
                             "--max-body", "4096")
    assert code == 0
    assert answers[0]["error"]["code"] == "E703" and answers[0]["error"]["status"] == 413
    assert answers[1]["ok"]


def test_stdio_needs_no_web_packages():
    """The core install has no starlette: --stdio imports nothing of the HTTP side."""
    code = ("import sys; sys.modules['starlette'] = None; sys.modules['uvicorn'] = None\n"
            "from rulesengine.cli import main\n"
            "raise SystemExit(main(['serve', '--stdio']))")
    done = subprocess.run([sys.executable, "-c", code], input=request(id=1, op="dice_roll", expression="1d1") + b"\n",
                          capture_output=True, timeout=GUARD_SECONDS)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["result"]["total"] == 1


def test_http_without_the_extra_says_how_to_install_it():
    code = ("import sys; sys.modules['uvicorn'] = None\n"
            "from rulesengine.cli import main\n"
            "raise SystemExit(main(['serve']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=GUARD_SECONDS)
    assert done.returncode == 2
    assert "ttrpg-rulesengine[serve]" in done.stderr and "Traceback" not in done.stderr
