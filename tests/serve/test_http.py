"""``rulesengine serve`` over real HTTP (issue 16): every operation answers what the Python API
answers, in the shapes the shipped schemas describe; every error is a problem object with
the engine's code and a 4xx status; limits hold; 50 concurrent clients get the same answers."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import jsonschema
import pytest

import rulesengine
from rulesengine import dice
from rulesengine.present.export import export
from rulesengine.ruleset import shipped_ids

from service_support import MINE, Server, schema

BROKEN = ("ruleset: mine\nname: Mine\nversion: '1'\nsource: x\nlicense: MIT\nchecks:\n  c:\n    roll: 1d20 +\n"
          "    outcomes:\n      - {name: any, success: true}\n")


@pytest.fixture(scope="module")
def limited():
    """A second service with small limits and one allowed browser origin."""
    s = Server("--time-limit", "0.3", "--max-states", "100000000", "--max-body", "4096",
               "--cors-origin", "http://example.test")
    yield s
    s.stop()


# ---- every operation: the Python API's answer, in the shipped schema's shape ------------------------


def test_list_is_the_shipped_rulesets_as_list_json_gives_them(server):
    status, rows = server.get("/api/rulesets")
    assert status == 200
    jsonschema.validate(rows, schema("list-result"))
    assert [r["id"] for r in rows] == shipped_ids()
    assert server.post("/api/list", {}) == (200, rows)


def test_export_is_export_format_1(server):
    status, doc = server.get("/api/rulesets/gurps-4e")
    assert status == 200
    jsonschema.validate(doc, schema("export"))
    assert doc == json.loads(json.dumps(export(rulesengine.load("gurps-4e"))))


def test_source_is_the_rulesets_yaml_text_as_its_file_has_it(server):
    status, source = server.get("/api/rulesets/gurps-4e/source")
    assert status == 200
    jsonschema.validate(source, schema("source-result"))
    text = (Path(__file__).resolve().parents[2] / "rulesets" / "gurps-4e.yaml").read_text(encoding="utf-8")
    assert source == {"ruleset": "gurps-4e", "file": "gurps-4e.yaml", "yaml": text}
    assert server.post("/api/source", {"ruleset": "gurps-4e"}) == (200, source)
    status, problem = server.get("/api/rulesets/gurps4e/source")
    assert (status, problem["code"], problem["hint"]) == (404, "E702", "did you mean 'gurps-4e'?")


def test_a_form_is_the_input_form_of_a_check_or_procedure(server):
    status, form = server.get("/api/rulesets/gurps-4e/forms/quick_contest")
    assert status == 200
    jsonschema.Draft202012Validator.check_schema(form)
    assert form["properties"]["parties"]["minItems"] == 2
    assert server.post("/api/form", {"ruleset": "gurps-4e", "name": "quick_contest"}) == (200, form)


def test_roll_answers_what_the_python_api_answers_for_the_same_seed(server):
    status, result = server.post("/api/roll", {"ruleset": "gurps-4e", "name": "success_roll",
                                               "inputs": {"skill": 12}, "seed": 7})
    assert status == 200
    jsonschema.validate(result, schema("roll-result"))
    expected = rulesengine.load("gurps-4e").check("success_roll").roll({"skill": 12}, seed=7).to_dict()
    assert result == json.loads(json.dumps(expected))


def test_a_procedure_rolls_with_parties_and_physical_faces(server):
    body = {"ruleset": "gurps-4e", "name": "quick_contest", "parties": [{"skill": 12}, {"skill": 10}],
            "faces": [3, 4, 5, 6, 6, 6]}
    status, result = server.post("/api/roll", body)
    assert status == 200
    expected = rulesengine.load("gurps-4e").procedure("quick_contest").roll(
        parties=[{"skill": 12}, {"skill": 10}], faces=[3, 4, 5, 6, 6, 6]).to_dict()
    assert result == json.loads(json.dumps(expected))


def test_odds_are_exact_and_the_same_as_the_python_api(server):
    status, result = server.post("/api/odds", {"ruleset": "gurps-4e", "name": "success_roll",
                                               "inputs": {"skill": 12}})
    assert status == 200
    jsonschema.validate(result, schema("odds-result"))
    assert result["success"]["exact"] == "20/27"
    expected = rulesengine.load("gurps-4e").check("success_roll").odds({"skill": 12}).to_dict()
    assert result == json.loads(json.dumps(expected))


def test_odds_given_a_condition(server):
    status, result = server.post("/api/odds", {"ruleset": "gurps-4e", "name": "success_roll",
                                               "inputs": {"skill": 12}, "given": "success"})
    assert status == 200
    assert result["given"] == {"expression": "success", "probability": 20 / 27, "exact": "20/27"}


def test_a_list_as_an_input_value_sweeps_it(server):
    status, rows = server.post("/api/odds", {"ruleset": "gurps-4e", "name": "success_roll",
                                             "inputs": {"skill": [8, 12, 16]}})
    assert status == 200
    assert [r["sweep"] for r in rows] == [{"skill": 8}, {"skill": 12}, {"skill": 16}]
    for row in rows:
        jsonschema.validate(row, schema("odds-result"))


def test_procedure_odds_and_a_party_sweep(server):
    status, rows = server.post("/api/odds", {"ruleset": "gurps-4e", "name": "quick_contest",
                                             "parties": [{"skill": [10, 12]}, {"skill": 11}]})
    assert status == 200
    assert [r["sweep"] for r in rows] == [{"party1.skill": 10}, {"party1.skill": 12}]


def test_dice_roll_and_dice_odds(server):
    status, rolled = server.post("/api/dice/roll", {"expression": "4d6kh3 + bonus", "env": {"bonus": 2}, "seed": 3})
    assert status == 200
    jsonschema.validate(rolled, schema("dice-roll-result"))
    assert rolled == json.loads(json.dumps(dice.parse("4d6kh3 + bonus").roll({"bonus": 2}, seed=3).to_dict()))
    status, odds = server.post("/api/dice_odds", {"expression": "1d100 % 11 == 0"})
    assert status == 200
    jsonschema.validate(odds, schema("dice-odds-result"))
    assert {d["value"]: d["exact"] for d in odds["distribution"]}[True] == "9/100"


def test_validate_gives_every_diagnostic_at_its_line_and_column(server):
    status, report = server.post("/api/validate", {"yaml": BROKEN, "path": "mine.yaml"})
    assert status == 200
    jsonschema.validate(report, schema("validate-result"))
    first = report["diagnostics"][0]
    assert (first["path"], first["line"], first["code"]) == ("mine.yaml", 8, "E501")
    status, clean = server.post("/api/validate", {"yaml": MINE})
    assert (status, clean["diagnostics"]) == (200, [])


def test_roll_and_odds_of_an_inline_ruleset(server):
    status, rolled = server.post("/api/roll", {"yaml": MINE, "name": "attack", "inputs": {"bonus": 3}, "seed": 1})
    assert status == 200 and rolled["ruleset"] == "mine"
    status, odds = server.post("/api/odds", {"yaml": MINE, "name": "attack", "inputs": {"bonus": 3}})
    assert status == 200 and odds["success"]["exact"] == "9/20"
    assert server.post("/api/roll", {"yaml": MINE, "name": "attack", "inputs": {"bonus": 3}, "seed": 1})[1] == rolled


def test_openapi_describes_every_operation_with_the_shipped_result_schemas(server):
    status, doc = server.get("/openapi.json")
    assert status == 200 and doc["openapi"].startswith("3.1")
    from rulesengine.serve.operations import OPERATIONS
    from rulesengine.serve.requests import REQUESTS, RESULTS

    assert set(OPERATIONS) == set(REQUESTS) == set(RESULTS)
    for op in OPERATIONS:
        post = doc["paths"][f"/api/{op}"]["post"]
        jsonschema.Draft202012Validator.check_schema(post["requestBody"]["content"]["application/json"]["schema"])
    for component in doc["components"]["schemas"].values():  # hoisted: tests/serve/test_openapi.py
        jsonschema.Draft202012Validator.check_schema(component)


def test_the_playground_is_served_at_the_root(server):
    status, headers, body = server.request("GET", "/")
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert b"playground.js" in body
    assert server.request("GET", "/playground.js")[0] == 200


# ---- errors: a problem object, the engine's code, a 4xx ----------------------------------------


def problem_of(status: int, body: dict, code: str, expected_status: int) -> dict:
    jsonschema.validate(body, schema("problem"))
    assert (status, body["status"], body["code"]) == (expected_status, expected_status, code), body
    assert body["type"].endswith(code) or body["type"] == "about:blank"
    return body


@pytest.mark.parametrize("raw, message", [
    (b"not json", "not JSON"),
    (b"[1, 2]", "must be a JSON object"),
    (b"[" * 100_000 + b"]" * 100_000, "nests too deeply"),
    (b'{"ruleset": "gurps-4e", "name": 12}', "name: 12 is not of type 'string'"),
    (b'{"ruleset": "gurps-4e"}', "needs 'name'"),
    (b'{"ruleset": "gurps-4e", "yaml": "x", "name": "a"}', "one of them"),
    (b'{"ruleset": "gurps-4e", "name": "success_roll", "sneaky": 1}', "sneaky"),
    (b'{"ruleset": "gurps-4e", "name": "success_roll", "seed": 1, "faces": [1]}', "not both"),
])
def test_a_malformed_request_is_a_400(server, raw, message):
    status, headers, body = server.request("POST", "/api/roll", raw, {"content-type": "application/json"})
    assert headers["content-type"] == "application/problem+json"
    found = problem_of(status, json.loads(body), "E701", 400)
    assert message in found["detail"]


@pytest.mark.parametrize("method, path, body, hint", [
    ("GET", "/api/rulesets/gurps", None, "gurps-4e"),
    ("GET", "/api/rulesets/gurps-4e/forms/sucess_roll", None, "success_roll"),
    ("POST", "/api/rol", {}, "roll"),
    ("GET", "/nowhere", None, "openapi"),
    ("POST", "/api/roll", {"ruleset": "../../etc/passwd", "name": "x"}, "rulesets"),
])
def test_what_does_not_exist_is_a_404_with_a_hint(server, method, path, body, hint):
    status, _, raw = server.request(method, path, None if body is None else json.dumps(body).encode())
    found = problem_of(status, json.loads(raw), "E702", 404)
    assert hint in (found["hint"] or "")


def test_inputs_the_check_refuses_are_a_422_with_the_engines_hint(server):
    status, body = server.post("/api/roll", {"ruleset": "gurps-4e", "name": "success_roll", "inputs": {"skil": 12}})
    found = problem_of(status, body, "E601", 422)
    assert "did you mean 'skill'" in found["hint"]


def test_a_broken_inline_ruleset_is_a_422_at_its_line_and_column(server):
    status, body = server.post("/api/roll", {"yaml": BROKEN, "name": "c"})
    found = problem_of(status, body, "E501", 422)
    assert (found["path"], found["line"]) == ("request.yaml", 8)
    assert found["column"] is not None


def test_a_dice_expression_error_is_a_422_at_its_column(server):
    found = problem_of(*server.post("/api/dice/roll", {"expression": "3d6 +* 2"}), "E101", 422)
    assert found["column"] == 6


def test_work_over_the_budget_is_a_422_naming_the_limit(server):
    found = problem_of(*server.post("/api/dice/odds", {"expression": "100d10kh50"}), "E210", 422)
    assert found["limit"] == "max_states"


def test_a_request_past_the_time_limit_stops_frees_its_worker_and_is_a_503(limited):
    # ~8 s of work inside its max_states (100d10kh50, 0.4 s since keeps got cheaper, was too near 0.3 s)
    found = problem_of(*limited.post("/api/dice/odds", {"expression": "300d10kh150"}), "E210", 503)
    assert found["limit"] == "time_limit"
    status, _ = limited.post("/api/dice/odds", {"expression": "3d6"})
    assert status == 200


def test_a_body_over_the_limit_is_a_413(limited):
    status, _, raw = limited.request("POST", "/api/validate", json.dumps({"yaml": "x" * 10_000}).encode())
    problem_of(status, json.loads(raw), "E703", 413)


def test_cors_is_off_by_default_and_on_for_the_origins_given(server, limited):
    headers = {"origin": "http://example.test"}
    assert "access-control-allow-origin" not in server.request("GET", "/api/rulesets", None, headers)[1]
    allowed = limited.request("GET", "/api/rulesets", None, headers)[1]
    assert allowed["access-control-allow-origin"] == "http://example.test"
    other = limited.request("GET", "/api/rulesets", None, {"origin": "http://elsewhere.test"})[1]
    assert "access-control-allow-origin" not in other


def test_a_folder_of_the_operators_own_rulesets_is_served_by_id(tmp_path):
    (tmp_path / "mine.yaml").write_text(MINE, encoding="utf-8")
    s = Server("--rulesets", str(tmp_path))
    try:
        status, rows = s.get("/api/rulesets")
        assert "mine" in [r["id"] for r in rows]
        status, result = s.post("/api/odds", {"ruleset": "mine", "name": "attack", "inputs": {"bonus": 3}})
        assert (status, result["success"]["exact"]) == (200, "9/20")
        assert s.get("/api/rulesets/mine/source") == (200, {"ruleset": "mine", "file": "mine.yaml", "yaml": MINE})
    finally:
        s.stop()


# ---- concurrency: answers identical to the Python API --------------------------------------------


def test_fifty_concurrent_clients_get_the_python_apis_answers(server):
    rs = rulesengine.load("gurps-4e")
    requests = []
    for i in range(20):
        requests.append(("/api/roll", {"ruleset": "gurps-4e", "name": "success_roll",
                                        "inputs": {"skill": 8 + i % 10}, "seed": i},
                         rs.check("success_roll").roll({"skill": 8 + i % 10}, seed=i).to_dict()))
    for skill in (9, 13):
        requests.append(("/api/odds", {"ruleset": "gurps-4e", "name": "success_roll", "inputs": {"skill": skill}},
                         rs.check("success_roll").odds({"skill": skill}).to_dict()))
    requests.append(("/api/dice/roll", {"expression": "4d6kh3", "seed": 5}, dice.roll("4d6kh3", seed=5).to_dict()))
    expected = [(path, body, json.loads(json.dumps(answer))) for path, body, answer in requests]
    failures: list[str] = []

    def client(n: int) -> None:
        for k in range(20):
            path, body, answer = expected[(n * 7 + k) % len(expected)]
            status, got = server.post(path, body)
            if status != 200 or got != answer:
                failures.append(f"client {n} request {k}: {status} {str(got)[:200]}")

    threads = [threading.Thread(target=client, args=(n,)) for n in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


def test_two_worker_processes_answer_like_one(server):
    s = Server("--workers", "2")
    try:
        body = {"ruleset": "gurps-4e", "name": "success_roll", "inputs": {"skill": 11}, "seed": 4}
        for _ in range(6):  # connections land on either worker
            assert s.post("/api/roll", body) == server.post("/api/roll", body)
    finally:
        s.stop()


# ---- text and numbers no answer could carry, and the server's own paths (issue 30) ---------------


LONE = "\ud800"  # valid JSON as the escape \ud800 (json.dumps writes it so), not Unicode that UTF-8 carries


def strict(raw: bytes) -> dict:
    """An answer as a strict parser reads it: UTF-8, and no NaN or Infinity."""
    def refuse(word: str) -> None:
        raise AssertionError(f"{word} in an answer")

    return json.loads(raw.decode("utf-8"), parse_constant=refuse)


def install_paths() -> list[str]:
    """Where this engine is installed on the server's machine: no answer may name it."""
    from rulesengine.ruleset import rulesets_dir

    return [str(rulesets_dir().resolve()), str(rulesets_dir()), str(Path(rulesengine.__file__).resolve().parent.parent)]


@pytest.mark.parametrize("path, body, pointer", [
    ("/api/dice/roll", {"expression": f"1d6[{LONE}]"}, "/expression"),
    ("/api/roll", {"ruleset": "gurps-4e", "name": f"success{LONE}"}, "/name"),
    ("/api/roll", {"ruleset": "gurps-4e", "name": "success_roll", "inputs": {"skill": f"high{LONE}"}},
     "/inputs/skill"),
    ("/api/roll", {"ruleset": "gurps-4e", "name": "success_roll", "inputs": {LONE: 1}}, "/inputs/\\ud800"),
    ("/api/validate", {"yaml": MINE, "path": f"mine{LONE}.yaml"}, "/path"),
    ("/api/dice/odds", {"id": LONE, "expression": "1d6"}, "/id"),
])
def test_a_lone_surrogate_anywhere_in_a_request_is_a_400_naming_its_pointer(server, path, body, pointer):
    status, headers, raw = server.request("POST", path, json.dumps(body).encode(), {"content-type": "application/json"})
    assert headers["content-type"] == "application/problem+json"
    found = problem_of(status, strict(raw), "E701", 400)
    assert found["pointer"] == pointer and "lone surrogate" in found["message"]
    assert server.post("/api/dice/roll", {"expression": "1d1"})[0] == 200


@pytest.mark.parametrize("raw, pointer", [
    (b'{"id": NaN, "expression": "1d6"}', "/id"),
    (b'{"id": Infinity, "expression": "1d6"}', "/id"),
    (b'{"id": [1, {"x": -1e400}], "expression": "1d6"}', "/id/1/x"),
    (b'{"expression": "1d6", "env": {"x": -Infinity}}', "/env/x"),
])
def test_a_number_that_is_not_finite_is_a_400_naming_its_pointer(server, raw, pointer):
    status, headers, body = server.request("POST", "/api/dice/odds", raw, {"content-type": "application/json"})
    assert headers["content-type"] == "application/problem+json"
    found = problem_of(status, strict(body), "E701", 400)
    assert found["pointer"] == pointer and "not finite" in found["message"]
    assert server.post("/api/dice/roll", {"expression": "1d1"})[0] == 200


def test_an_error_in_a_shipped_ruleset_names_it_by_its_id_not_the_install_path(server):
    status, headers, raw = server.request("POST", "/api/roll", json.dumps(
        {"ruleset": "gurps-4e", "name": "success_roll", "inputs": {"skill": 12}, "faces": [99]}).encode())
    found = problem_of(status, strict(raw), "E204", 422)
    assert headers["content-type"] == "application/problem+json"
    assert (found["path"], found["pointer"]) == ("gurps-4e", "/checks/success_roll/roll")
    assert found["line"] is not None
    for place in install_paths():
        assert place.encode() not in raw


def test_an_error_in_an_operators_ruleset_names_its_file_in_the_folder_not_the_folders_path(tmp_path):
    import os

    (tmp_path / "mine.yaml").write_text(MINE, encoding="utf-8")
    s = Server("--rulesets", str(tmp_path))
    try:
        answers = [s.request("POST", "/api/roll", json.dumps(
            {"ruleset": "mine", "name": "attack", "inputs": {"bonus": 1}, "faces": [21]}).encode())]
        found = problem_of(answers[0][0], strict(answers[0][2]), "E204", 422)
        assert (found["path"], found["pointer"]) == ("mine.yaml", "/checks/attack/roll")
        # the file broken while the service runs: read again, and its error names it the same way
        broken = BROKEN.replace("  c:\n", "  attack:\n")
        (tmp_path / "mine.yaml").write_text(broken, encoding="utf-8")
        later = os.stat(tmp_path / "mine.yaml").st_mtime + 10
        os.utime(tmp_path / "mine.yaml", (later, later))
        answers.append(s.request("POST", "/api/roll", json.dumps({"ruleset": "mine", "name": "attack"}).encode()))
        found = problem_of(answers[1][0], strict(answers[1][2]), "E501", 422)
        assert (found["path"], found["line"]) == ("mine.yaml", 8)
        answers.append(s.request("POST", "/api/validate", json.dumps({"yaml": broken, "path": "yours.yaml"}).encode()))
        assert strict(answers[2][2])["diagnostics"][0]["path"] == "yours.yaml"  # the client's own name stays
        for _, _, raw in answers:
            for place in [str(tmp_path), str(tmp_path.resolve()), *install_paths()]:
                assert place.encode() not in raw
    finally:
        s.stop()


@pytest.mark.parametrize("path", ["/api/roll", "/api/dice_odds", "/api/dice/roll"])
def test_an_operation_asked_for_with_get_is_405_naming_post(server, path):
    """Issue 36, item 4: it was a 404, as if the operation did not exist."""
    status, headers, body = server.request("GET", path)
    assert status == 405 and headers["allow"] == "POST"
    assert headers["content-type"].startswith("application/problem+json")
    assert json.loads(body)["status"] == 405 and "POST" in json.loads(body)["message"]


def test_the_browsers_icon_request_is_answered_without_an_error(server):
    status, _, body = server.request("GET", "/favicon.ico")
    assert status == 204 and body == b""
