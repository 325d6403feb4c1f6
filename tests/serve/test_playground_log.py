"""The playground's roll log (issue 35): every roll of the session, newest on top, with the
seed that repeats it (the page picks one when none is typed), its dice expandable, its JSON
to copy, and a check's chance of success, which the odds chart shows as its headline too."""

from __future__ import annotations

import json

from playground_support import fresh_page, gurps_success_roll, log_entries, open_check, wait_for_log


def success(effective: int):
    odds = gurps_success_roll(effective)
    return odds.get("critical_success", 0) + odds.get("success", 0)


def test_each_roll_goes_on_top_of_the_log_with_its_seed_and_its_dice(server, browser):
    fresh_page(browser, server.url)
    open_check(browser, server.url, "gurps-4e", "success_roll")
    browser.type("#form input[name=skill]", "12")
    browser.type("#seed", "7")
    browser.click("#roll")
    wait_for_log(browser, 1)
    browser.type("#dice-seed", "3")
    browser.click("#dice-roll")
    newest, check = wait_for_log(browser, 2)
    assert (newest["n"], check["n"]) == (2, 1)
    assert newest["what"] == "dice 2d6" and newest["seed"] == "seed 3"
    assert check["seed"] == "seed 7"
    _, answer = server.post("/api/roll", {"ruleset": "gurps-4e", "name": "success_roll", "inputs": {"skill": 12}, "seed": 7})
    assert check["trace"] == answer["trace"]
    _, dice = server.post("/api/dice_roll", {"expression": "2d6", "seed": 3})
    assert newest["verdict"] == str(dice["total"])
    # the dice are folded away until asked for
    css = '#log-list li[data-n="1"] details.dice'
    assert browser.script(f"return document.querySelector('{css}').open") is False
    browser.click(css + " summary")
    assert browser.script(f"return document.querySelector('{css}').open") is True
    shown = browser.script(f"return [...document.querySelectorAll('{css} li')].map(li => li.textContent)")
    assert shown == [f"roll: 3d6: {d['face']}" for d in answer["dice"]]


def test_a_roll_without_a_seed_shows_the_seed_that_repeats_it(server, browser):
    fresh_page(browser, server.url)
    open_check(browser, server.url, "gurps-4e", "success_roll")
    browser.type("#form input[name=skill]", "12")
    browser.click("#roll")
    (entry,) = wait_for_log(browser, 1)
    seed = int(entry["seed"].removeprefix("seed "))
    _, again = server.post("/api/roll", {"ruleset": "gurps-4e", "name": "success_roll", "inputs": {"skill": 12},
                                         "seed": seed})
    assert entry["trace"] == again["trace"]
    assert entry["json"]["request"]["seed"] == seed


def test_a_roll_is_copied_as_json_with_its_request(server, browser):
    fresh_page(browser, server.url)
    browser.allow("clipboard-read")
    browser.allow("clipboard-write")
    browser.type("#dice-seed", "11")
    browser.click("#dice-roll")
    wait_for_log(browser, 1)
    browser.click("#log-list li .row button")
    browser.wait_for(lambda: browser.text("#log-list li .copied") == "copied", "the copy")
    copied = browser.script_async("navigator.clipboard.readText().then(arguments[0])")
    _, answer = server.post("/api/dice_roll", {"expression": "2d6", "seed": 11})
    assert json.loads(copied) == {"request": {"expression": "2d6", "seed": 11}, "result": answer}


def test_a_checks_roll_and_its_odds_show_the_chance_of_success(server, browser):
    """GURPS, skill 12: P(success) by enumerating 3d6 (20/27)."""
    fresh_page(browser, server.url)
    open_check(browser, server.url, "gurps-4e", "success_roll")
    browser.type("#form input[name=skill]", "12")
    browser.click("#roll")
    browser.wait_for(lambda: log_entries(browser) and log_entries(browser)[0]["chance"], "the chance beside the roll")
    assert log_entries(browser)[0]["chance"] == str(success(12))
    browser.click("#odds")
    headline = browser.wait_for(lambda: browser.script(
        "const h = document.querySelector('#chart .headline'); return h && h.dataset.exact"), "the headline")
    assert headline == str(success(12))
    assert browser.text("#chart .headline").startswith("Chance of success 74.07%")  # 20/27 = 0.74074…


def test_the_log_keeps_the_sessions_rolls_across_a_reload(server, browser):
    fresh_page(browser, server.url)
    browser.click("#dice-roll")
    (before,) = wait_for_log(browser, 1)
    browser.open(server.url + "/")
    (after,) = wait_for_log(browser, 1)
    assert after == before
    browser.click("#log-clear")
    wait_for_log(browser, 0)
