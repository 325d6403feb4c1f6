"""What the playground's browser tests share (tests/serve/test_playground*.py): the page's
controls driven as a user would, and waits for what the page says it has drawn (a form's
``data-ready``, a chart's ``data-ready``) instead of for time."""

from __future__ import annotations

import json
from typing import Any

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
