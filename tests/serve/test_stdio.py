"""``rulesengine serve --stdio`` (issue 16): a spawned process, one JSON request per line in, one
answer per line out, in order, with the same operations and problem objects as HTTP; bad lines
get an error answer and the loop goes on; end of input ends it with exit 0."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema

import rulesengine
from service_support import MINE, schema

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


# ---- text and numbers no answer could carry, and the server's own paths (issue 30) ---------------

LONE = "\ud800"  # valid JSON as the escape \ud800, not Unicode that UTF-8 carries
GOOD = request(id="last", op="dice_roll", expression="1d1")


def strict_exchange(lines: list[bytes], *options: str) -> tuple[int, list[bytes], list[dict]]:
    """The raw answer lines, and each as a strict parser reads it (UTF-8, no NaN or Infinity)."""
    done = subprocess.run([sys.executable, "-m", "rulesengine", "serve", "--stdio", *options],
                          input=b"".join(line + b"\n" for line in lines), capture_output=True,
                          timeout=GUARD_SECONDS)

    def refuse(word: str) -> None:
        raise AssertionError(f"{word} in an answer")

    raw = done.stdout.splitlines()
    return done.returncode, raw, [json.loads(line.decode("utf-8"), parse_constant=refuse) for line in raw]


def test_a_lone_surrogate_in_any_field_is_an_error_line_naming_its_pointer_and_the_loop_goes_on():
    code, _, answers = strict_exchange([
        request(id=LONE, op="list"),
        request(id=1, op="dice_roll", expression=f"1d6[{LONE}]"),
        request(id=2, op="roll", ruleset="gurps-4e", name="success_roll", inputs={"skill": f"high{LONE}"}),
        request(id=3, op="roll", ruleset="gurps-4e", name=f"success{LONE}"),
        request(id=4, op="validate", yaml="x: 1", path=LONE),
        GOOD,
    ])
    assert code == 0
    assert [(a["id"], a["ok"]) for a in answers] == [(None, False), (1, False), (2, False), (3, False), (4, False),
                                                     ("last", True)]
    for a, pointer in zip(answers, ["/id", "/expression", "/inputs/skill", "/name", "/path"]):
        jsonschema.validate(a["error"], schema("problem"))
        assert (a["error"]["code"], a["error"]["status"], a["error"]["pointer"]) == ("E701", 400, pointer)


def test_an_id_that_is_not_a_finite_number_is_an_error_line_and_the_loop_goes_on():
    code, raw, answers = strict_exchange([
        b'{"id": NaN, "op": "list"}',
        b'{"id": Infinity, "op": "list"}',
        b'{"id": -1e400, "op": "list"}',
        b'{"id": 5, "op": "dice_roll", "expression": "1d1", "env": {"x": -Infinity}}',
        GOOD,
    ])
    assert code == 0 and len(raw) == 5
    assert [(a["id"], a["ok"]) for a in answers] == [(None, False)] * 3 + [(5, False), ("last", True)]
    assert [a["error"]["pointer"] for a in answers[:4]] == ["/id", "/id", "/id", "/env/x"]
    assert {a["error"]["code"] for a in answers[:4]} == {"E701"}


def test_the_writer_writes_any_text_and_a_result_that_is_not_json_is_an_internal_error_line():
    """Beneath the decode step's refusals: whatever an answer holds, the loop writes a JSON line."""
    import io

    from rulesengine.serve.operations import Service
    from rulesengine.serve.stdio import serve_stdio

    class Odd(Service):
        def handle(self, op, request):
            return {"text": LONE, "nan": float("nan")} if op == "nan" else {"text": f"→{LONE}"}

    out = io.BytesIO()
    lines = request(id=1, op="text") + b"\n" + request(id=2, op="nan") + b"\n" + GOOD + b"\n"
    assert serve_stdio(Odd(), io.BytesIO(lines), out) == 0
    answers = [json.loads(line.decode("utf-8")) for line in out.getvalue().splitlines()]
    assert answers[0] == {"id": 1, "ok": True, "result": {"text": f"→{LONE}"}}
    assert (answers[1]["id"], answers[1]["ok"], answers[1]["error"]["status"]) == (2, False, 500)
    assert answers[2]["id"] == "last"


def test_an_error_in_a_ruleset_of_the_server_names_it_never_by_a_server_path(tmp_path):
    from rulesengine.ruleset import rulesets_dir

    (tmp_path / "mine.yaml").write_text(MINE, encoding="utf-8")
    code, raw, answers = strict_exchange([
        request(id=1, op="roll", ruleset="gurps-4e", name="success_roll", inputs={"skill": 12}, faces=[99]),
        request(id=2, op="roll", ruleset="mine", name="attack", inputs={"bonus": 1}, faces=[21]),
        GOOD,
    ], "--rulesets", str(tmp_path))
    assert code == 0
    assert [(a["error"]["code"], a["error"]["path"]) for a in answers[:2]] == [("E204", "gurps-4e"),
                                                                             ("E204", "mine.yaml")]
    assert answers[2]["ok"]
    for place in (rulesets_dir(), rulesets_dir().resolve(), tmp_path, tmp_path.resolve(),
                  Path(rulesengine.__file__).resolve().parent.parent):
        assert not any(str(place).encode() in line for line in raw)
