"""What the playground's browser tests share (tests/serve/test_playground*.py): the page's
controls driven as a user would, and waits for what the page says it has drawn (a form's
``data-ready``, a chart's ``data-ready``) instead of for time."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from oracle import product_dist
from webdriver import Browser


def options(browser: Browser, css: str) -> list[str]:
    return browser.script(f"return [...document.querySelectorAll('{css} option')].map(o => o.value)")


def choose(browser: Browser, css: str, value: str) -> None:
    browser.script("const s = document.querySelector(arguments[0]); s.value = arguments[1];"
                   "s.dispatchEvent(new Event('change'));", css, value)


def wait_for_form(browser: Browser, ruleset: str, name: str) -> None:
    """Until the form of ``ruleset``/``name`` is drawn and no other choice is loading (the page
    sets data-ready="RULESET/NAME" on it then): typing into an earlier form, about to be
    replaced, would type into an element that is gone."""
    browser.wait_for(lambda: browser.script("return document.querySelector('#form').dataset.ready")
                     == f"{ruleset}/{name}", f"the form of {ruleset}/{name}")


def open_check(browser: Browser, url: str, ruleset: str, name: str) -> None:
    browser.open(url + "/")
    browser.wait_for(lambda: ruleset in options(browser, "#ruleset"), "the rulesets to load")
    choose(browser, "#ruleset", ruleset)
    browser.wait_for(lambda: name in options(browser, "#runnable"), "the checks to load")
    choose(browser, "#runnable", name)
    wait_for_form(browser, ruleset, name)


def dice_drawn(browser: Browser) -> list[str] | None:
    """The expressions the dice box has charted (None while it is working)."""
    ready = browser.script("return document.querySelector('#dice-chart').dataset.ready")
    return None if ready is None else json.loads(ready)


def wait_for_dice(browser: Browser, expressions: list[str]) -> None:
    browser.wait_for(lambda: dice_drawn(browser) == expressions, f"the dice chart of {expressions}")


def cells(browser: Browser, chart: str, series: int) -> dict[str, dict[str, Any]]:
    """Value → {probability, exact} of series ``series`` as chart ``chart`` (a CSS selector) draws it."""
    return browser.script(
        "const out = {};"
        "for (const tr of document.querySelectorAll(arguments[0] + ' tr[data-value]')) {"
        "  const c = tr.querySelector('[data-series=\"' + arguments[1] + '\"]');"
        "  out[tr.dataset.value] = {probability: Number(c.dataset.probability), exact: c.dataset.exact || null,"
        "                           text: c.textContent}; }"
        "return out;", chart, series)


def pick_view(browser: Browser, chart: str, key: str, value: str) -> None:
    """Choose ``value`` of the chart's ``key`` radio group (view: normal/at_least/at_most; show:
    bars/table) and wait for the chart drawn with it."""
    browser.click(f'{chart} input[data-choice="{key}"][value="{value}"]')
    browser.wait_for(lambda: browser.script(
        "const d = document.querySelector(arguments[0] + ' .dist-chart'); return d && d.dataset[arguments[1]]",
        chart, key) == value, f"{chart} drawn with {key} {value}")


def fresh_page(browser: Browser, url: str) -> None:
    """The page with an empty roll log (the log keeps the tab's rolls in sessionStorage, and
    the tests share one browser)."""
    browser.open(url + "/")
    browser.script("sessionStorage.clear()")
    browser.open(url + "/")
    browser.wait_for(lambda: browser.script("return document.readyState === 'complete' && location.origin")
                     == url.rstrip("/"), "the playground loaded at its own origin")


def log_entries(browser: Browser) -> list[dict[str, Any]]:
    """The roll log as shown, newest first."""
    return browser.script(
        "return [...document.querySelectorAll('#log-list li.log-entry')].map(li => ({"
        "  n: Number(li.dataset.n), what: li.querySelector('.what').textContent,"
        "  verdict: li.querySelector('.verdict').textContent, seed: li.querySelector('.seed').textContent,"
        "  trace: (li.querySelector('pre.trace') || {}).textContent,"
        "  chance: li.querySelector('.chance').dataset.exact || null,"
        "  json: JSON.parse(li.querySelector('details.json pre').textContent)}))")


def wait_for_log(browser: Browser, count: int) -> list[dict[str, Any]]:
    browser.wait_for(lambda: len(log_entries(browser)) == count, f"{count} rolls in the log")
    return log_entries(browser)


def gurps_success_roll(effective: int) -> dict[str, Fraction]:
    """The GURPS success roll's outcomes by brute force over 3d6, restated from the rules
    as the game states them, not from the ruleset file: 3–4 always a critical success, 5 at
    effective skill 15+, 6 at 16+; 18 always a critical failure, 17 at 15 or less, 10 or more
    over the effective skill too; otherwise a roll of at most the effective skill (never 17
    or 18) succeeds. Effective skill below 3 allows no (non-defense) roll."""
    if effective < 3:
        return {"not_allowed": Fraction(1)}

    def outcome(a: int, b: int, c: int) -> str:
        roll = a + b + c
        if roll <= 4 or (roll == 5 and effective >= 15) or (roll == 6 and effective >= 16):
            return "critical_success"
        if roll == 18 or (roll == 17 and effective <= 15) or roll >= effective + 10:
            return "critical_failure"
        return "success" if roll <= min(16, effective) else "failure"

    return product_dist([range(1, 7)] * 3, outcome)
