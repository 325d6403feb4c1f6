"""The playground shows a ruleset's labels (issue 35): a check's or procedure's label in the
picker, an outcome's label in the odds table and on a roll, never an id like
``critical_success`` where the ruleset gives a label. The labels expected are read from the
ruleset file itself (YAML), not from the service."""

from __future__ import annotations

from pathlib import Path

import yaml

from playground_support import fresh_page, open_check, wait_for_log

ROOT = Path(__file__).resolve().parents[2]
GURPS = yaml.safe_load((ROOT / "rulesets" / "gurps-4e.yaml").read_text(encoding="utf-8"))


def outcome_labels(check: str) -> dict[str, str]:
    return {o["name"]: o.get("label", o["name"]) for o in GURPS["checks"][check]["outcomes"]}


def test_the_picker_shows_each_checks_and_procedures_label(server, browser):
    open_check(browser, server.url, "gurps-4e", "success_roll")
    shown = browser.script("return [...document.querySelectorAll('#runnable option')].map(o => [o.value, o.textContent])")
    expected = [[n, c.get("label", n)] for n, c in GURPS["checks"].items()]
    expected += [[n, f"{p.get('label', n)} (procedure)"] for n, p in GURPS["procedures"].items()]
    assert shown == expected


def test_the_odds_table_names_each_outcome_by_its_label(server, browser):
    open_check(browser, server.url, "gurps-4e", "success_roll")
    browser.type("#form input[name=skill]", "12")
    browser.click("#odds")
    browser.wait_for(lambda: browser.script("return document.querySelector('#chart table.outcomes')"), "the odds table")
    rows = browser.script("return [...document.querySelectorAll('#chart table.outcomes tr[data-outcome]')]"
                          ".map(tr => [tr.dataset.outcome, tr.cells[0].textContent])")
    labels = outcome_labels("success_roll")
    assert {name for name, _ in rows} == set(labels)
    for name, shown in rows:
        assert shown == labels[name]
    assert labels["critical_success"] == "Critical success"  # the file does label some outcomes


def test_a_rolls_outcome_is_shown_by_its_label(server, browser):
    """Skill 3: a roll of 13 or more is a critical failure (10 or more over the effective skill);
    the seed is one for which the service's own roll says so."""
    body = {"ruleset": "gurps-4e", "name": "success_roll", "inputs": {"skill": 3}}
    seed = next(s for s in range(1, 1000) if server.post("/api/roll", {**body, "seed": s})[1]["outcome"] == "critical_failure")
    fresh_page(browser, server.url)
    open_check(browser, server.url, "gurps-4e", "success_roll")
    browser.type("#form input[name=skill]", "3")
    browser.type("#seed", str(seed))
    browser.click("#roll")
    (entry,) = wait_for_log(browser, 1)
    assert entry["verdict"].startswith(outcome_labels("success_roll")["critical_failure"] + ", result ")
    assert entry["what"] == "gurps-4e · Success roll"
    assert browser.text("#trace").splitlines()[-1].startswith("→ Critical failure")
