"""The playground keeps its state in its URL (issue 35): the ruleset, the check or procedure,
its inputs and parties, whether its odds are shown, the charts' views and the dice box's
expressions. A reload restores them, a link opens them in a new page, and a link pasted into
the same tab applies them. Chances are checked against brute-force enumeration of the dice."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from playground_support import (fresh_page, gurps_success_roll, open_check, pick_view, wait_for_dice,
                                wait_for_form)
from webdriver import Browser


def success(effective: int):
    odds = gurps_success_roll(effective)
    return odds.get("critical_success", 0) + odds.get("success", 0)


def fragment(browser: Browser) -> dict[str, list[str]]:
    return parse_qs(urlsplit(browser.script("return location.href")).fragment, keep_blank_values=True)


def inputs(browser: Browser) -> list[list[str]]:
    return browser.script("return [...document.querySelectorAll('#form fieldset')].map(f =>"
                          " [...f.querySelectorAll('input[type=text]')].map(i => i.name + '=' + i.value))")


def headline(browser: Browser) -> str:
    return browser.wait_for(lambda: browser.script(
        "const h = document.querySelector('#chart .headline'); return h && h.dataset.exact"), "the odds' headline")


def test_a_reload_restores_the_check_its_inputs_its_odds_and_the_dice(server, browser):
    fresh_page(browser, server.url)
    open_check(browser, server.url, "gurps-4e", "success_roll")
    browser.type("#form input[name=skill]", "12")
    browser.clear("#form input[name=modifier]")
    browser.type("#form input[name=modifier]", "-2")
    wait_for_dice(browser, ["2d6"])
    browser.clear("#dice-exprs input")
    browser.type("#dice-exprs input", "3d6\n")
    wait_for_dice(browser, ["3d6"])
    browser.click("#dice-add")
    browser.type("#dice-exprs .expr-row:nth-child(2) input", "1d8\n")
    wait_for_dice(browser, ["3d6", "1d8"])
    pick_view(browser, "#dice-chart", "view", "at_least")
    browser.click("#odds")
    assert headline(browser) == str(success(10))
    browser.wait_for(lambda: fragment(browser).get("odds") == ["1"], "the URL to say the odds are shown")
    assert fragment(browser) == {"ruleset": ["gurps-4e"], "check": ["success_roll"], "in.skill": ["12"],
                                 "in.modifier": ["-2"], "odds": ["1"], "dice.view": ["at_least"],
                                 "dice": ["3d6", "1d8"]}
    browser.refresh()
    wait_for_form(browser, "gurps-4e", "success_roll")
    assert inputs(browser) == [["skill=12", "modifier=-2"]]
    assert headline(browser) == str(success(10))  # skill 12, modifier -2
    wait_for_dice(browser, ["3d6", "1d8"])
    assert browser.script("return document.querySelector('#dice-chart .dist-chart').dataset.view") == "at_least"


def test_a_link_opens_a_procedure_with_its_parties_in_a_new_page(server, browser):
    browser.open("about:blank")
    browser.open(server.url + "/#ruleset=gurps-4e&check=quick_contest&p1.skill=12&p2.skill=9&p2.modifier=1")
    wait_for_form(browser, "gurps-4e", "quick_contest")
    assert inputs(browser) == [["skill=12", "modifier=0"], ["skill=9", "modifier=1"]]
    assert browser.script("return document.querySelector('#runnable').value") == "quick_contest"


def test_a_link_pasted_into_the_same_tab_applies_its_state(server, browser):
    open_check(browser, server.url, "gurps-4e", "default_roll")
    browser.script("location.hash = 'ruleset=gurps-4e&check=success_roll&in.skill=14&odds=1&dice=1d20'")
    wait_for_form(browser, "gurps-4e", "success_roll")
    assert headline(browser) == str(success(14))
    wait_for_dice(browser, ["1d20"])


def test_a_link_asks_for_at_most_twelve_dice_expressions(server, browser):
    """Found in review: a shared link with thousands of dice= entries sent as many requests."""
    browser.open(server.url + "/#" + "&".join(f"dice={n}d6" for n in range(1, 41)))
    browser.wait_for(lambda: browser.script("return document.querySelectorAll('#dice-exprs input').length") > 1,
                     "the dice box restored from the link")
    assert browser.script("return document.querySelectorAll('#dice-exprs input').length") == 12
