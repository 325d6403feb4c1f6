"""The playground at a phone's width and by keyboard alone (issue 35): at 1280 and 360 px
nothing is wider than the window (document.scrollWidth <= innerWidth) and the main controls
are visible, long traces wrap; every control is reached with Tab, shows where the focus is,
and works from the keyboard; all text has a contrast of at least 4.5:1 (WCAG 2's formula,
written out here). Screenshots are kept in the test's temporary folder for a human to look
at; the assertions are on the DOM, not on pixels."""

from __future__ import annotations

import re

import pytest

from playground_support import fresh_page, pick_view, wait_for_dice, wait_for_form, wait_for_log
from webdriver import Browser

TAB, ENTER, RIGHT = "\ue004", "\ue007", "\ue014"
STATE = "#ruleset=gurps-4e&check=success_roll&in.skill=12&odds=1&sweep=skill&from=8&to=16&dice=2d6&dice=60d6"
MAIN = ["#ruleset", "#runnable", "#form input[name=skill]", "#roll", "#odds", "#chart table.outcomes",
        "#chart table.dist", "#sweep-chart svg", "#dice-exprs input", "#dice-chart table", "#log-list li", "#yaml", "#status", "#use"]


@pytest.fixture
def window(browser: Browser):
    yield browser
    browser.resize(1200, 1000)  # the other tests' size


def load(browser: Browser, url: str) -> None:
    fresh_page(browser, url)
    browser.open("about:blank")
    browser.open(url + "/" + STATE)
    wait_for_form(browser, "gurps-4e", "success_roll")
    browser.wait_for(lambda: browser.script("return document.querySelector('#chart .headline')"), "the odds")
    wait_for_dice(browser, ["2d6", "60d6"])
    browser.wait_for(lambda: browser.script("return document.querySelector('#sweep-chart').dataset.ready"), "the sweep")


@pytest.mark.parametrize("width", [1280, 360])
def test_the_page_fits_the_window_and_long_traces_wrap(server, window, width, tmp_path):
    window.resize(width, 900)
    load(window, server.url)
    window.click("#dice-roll")
    wait_for_log(window, 2)
    window.screenshot(str(tmp_path / f"playground-{width}.png"))
    inner, scroll = window.script("return [innerWidth, document.documentElement.scrollWidth]")
    assert inner == width and scroll <= inner
    for css in MAIN:
        box = window.script("const r = document.querySelector(arguments[0]).getBoundingClientRect();"
                            "return [r.left, r.right, r.width, r.height]", css)
        assert box[2] > 0 and box[3] > 0, (css, box)
        assert box[0] >= 0 and box[1] <= inner, (css, box)
    # 60d6's trace (60 faces) wraps within its box instead of scrolling or widening the page
    trace = '#log-list li[data-n="2"] pre.trace'
    assert window.script(f"return document.querySelector('{trace}').textContent").startswith("60d6 → [")
    wide, client, high, line = window.script(
        f"const p = document.querySelector('{trace}'); return [p.scrollWidth, p.clientWidth, p.clientHeight,"
        " parseFloat(getComputedStyle(p).lineHeight) || 18]")
    assert wide <= client and high > 2 * line


def focused(browser: Browser) -> dict:
    return browser.script(
        "const e = document.activeElement, ring = e.closest('.editor') || e, s = getComputedStyle(ring);"
        "return {kbd: e.dataset.kbd ?? null, id: e.id, tag: e.tagName, outline: s.outlineStyle,"
        " width: parseFloat(s.outlineWidth)}")


def tab_to(browser: Browser, css: str, presses: int = 300) -> None:
    """Press Tab until the focus is on the element ``css`` selects (it must be reachable)."""
    for _ in range(presses):
        if browser.script("return document.activeElement.matches(arguments[0])", css):
            return
        browser.keys(TAB)
    raise AssertionError(f"{css} is not reached with Tab")


def test_every_control_is_reached_with_tab_and_shows_its_focus(server, window):
    load(window, server.url)
    window.click("#dice-roll")
    wait_for_log(window, 2)
    # every control a user could operate: the checked radio of each group stands for its group
    count = window.script(
        "const all = [...document.querySelectorAll('a[href], button:not([disabled]), input, select, textarea,"
        " summary, [tabindex=\"0\"]')].filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden'"
        " && !(e.type === 'radio' && !e.checked));"
        "all.forEach((e, i) => { e.dataset.kbd = String(i); }); return all.length")
    window.script("document.activeElement.blur(); window.scrollTo(0, 0)")
    seen: dict[str, dict] = {}
    for _ in range(count + 5):
        window.keys(TAB)
        now = focused(window)
        if now["kbd"] is not None:
            seen.setdefault(now["kbd"], now)
    missing = window.script("return [...document.querySelectorAll('[data-kbd]')].filter(e => !arguments[0].includes(e.dataset.kbd))"
                            ".map(e => e.outerHTML.slice(0, 120))", list(seen))
    assert not missing, missing
    for where in seen.values():
        assert where["outline"] != "none" and where["width"] >= 2, where


def test_the_page_is_operated_by_keyboard_alone(server, window):
    load(window, server.url)
    window.script("document.activeElement.blur(); window.scrollTo(0, 0)")
    tab_to(window, "#roll")
    window.keys(ENTER)
    wait_for_log(window, 1)
    tab_to(window, '#dice-chart input[data-choice="view"]:checked')
    window.keys(RIGHT)  # the radio group's next choice: at least
    window.wait_for(lambda: window.script("return document.querySelector('#dice-chart .dist-chart').dataset.view")
                    == "at_least", "the dice chart at least")
    assert window.script("return document.activeElement.value") == "at_least"  # the focus stays on the choice
    window.keys(RIGHT)
    window.wait_for(lambda: window.script("return document.querySelector('#dice-chart .dist-chart').dataset.view")
                    == "at_most", "the dice chart at most")
    tab_to(window, "#log-list details.dice summary")
    window.keys(ENTER)
    assert window.script("return document.querySelector('#log-list details.dice').open") is True
    window.script("document.activeElement.blur(); window.scrollTo(0, 0)")
    tab_to(window, "#dice-exprs .expr-row:nth-child(2) input")
    window.keys("\ue010", *["\ue003"] * 4, *"1d4", ENTER)  # End, Backspace × 4 ("60d6" gone), then typed
    wait_for_dice(window, ["2d6", "1d4"])
    tab_to(window, "#yaml")
    window.keys("\ue010", *"\n      - {name: broken, success: maybe}")  # End of the text, then a broken line
    window.wait_for(lambda: window.script("return document.querySelector('#diagnostics li')"), "a diagnostic")
    tab_to(window, "#diagnostics li")
    window.keys(ENTER)  # goes to the place of the problem, in the editor
    assert window.script("return document.activeElement.id") == "yaml"


def luminance(rgb: tuple[float, float, float]) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    hi, lo = sorted([luminance(a), luminance(b)], reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def rgb(css: str) -> tuple[float, float, float]:
    r, g, b = (float(x) for x in re.findall(r"[\d.]+", css)[:3])
    return r, g, b


def test_all_text_has_a_contrast_of_at_least_4_5_to_1(server, window):
    load(window, server.url)
    window.click("#dice-roll")
    wait_for_log(window, 2)
    pick_view(window, "#chart", "show", "table")
    # each element with text of its own: its colour and the first opaque background behind it
    # (disabled controls are exempt in WCAG 2, 1.4.3)
    texts = window.script(
        "const out = [];"
        "for (const e of document.querySelectorAll('body *')) {"
        "  if (e.closest('[disabled]') || !e.getClientRects().length) continue;"
        "  if (![...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;"
        "  let b = e; while (b && /rgba\\(.*, 0\\)|transparent/.test(getComputedStyle(b).backgroundColor)) b = b.parentElement;"
        "  const ink = e instanceof SVGElement ? getComputedStyle(e).fill : getComputedStyle(e).color;"
        "  out.push({text: e.textContent.trim().slice(0, 40), color: ink,"
        "            background: b ? getComputedStyle(b).backgroundColor : 'rgb(255, 255, 255)'}); }"
        "return out;")
    assert len(texts) > 50
    low = [(t["text"], t["color"], t["background"], round(contrast(rgb(t["color"]), rgb(t["background"])), 2))
           for t in texts if contrast(rgb(t["color"]), rgb(t["background"])) < 4.5]
    assert not low, low
