"""The playground's sweep (issue 35): one input of a check taken across a range, each
outcome's chance and the result's mean drawn as lines over it, and two sets of inputs compared
on one chart. GURPS success roll: every point against brute-force enumeration of 3d6 (the
rules restated in playground_support.gurps_success_roll) and the mean's closed form,
effective skill − 10.5."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import yaml

from playground_support import gurps_success_roll, open_check, wait_for_form
from webdriver import Browser

ROOT = Path(__file__).resolve().parents[2]
LABELS = {o["name"]: o.get("label", o["name"]) for o in yaml.safe_load(
    (ROOT / "rulesets" / "gurps-4e.yaml").read_text(encoding="utf-8"))["checks"]["success_roll"]["outcomes"]}


def lines(browser: Browser, chart: int) -> dict[str, dict]:
    """Line name → {dashed, points: {x: exact}} of the sweep's chart number ``chart`` (0: chances, 1: mean)."""
    return browser.script(
        "const svg = document.querySelectorAll('#sweep-chart svg')[arguments[0]], out = {};"
        "for (const line of svg.querySelectorAll('polyline')) {"
        "  const points = {};"
        "  for (const dot of svg.querySelectorAll('circle[data-series=\"' + line.dataset.series + '\"]'))"
        "    points[dot.dataset.x] = dot.dataset.exact;"
        "  out[line.dataset.name] = {dashed: line.getAttribute('stroke-dasharray') !== 'none', points}; }"
        "return out;", chart)


def sweep(browser: Browser, first: int, last: int, expected_ready: str) -> None:
    browser.script("const s = document.querySelector('#sweep-input'); s.value = 'skill';"
                   "s.dispatchEvent(new Event('change'))")
    for css, value in (("#sweep-from", first), ("#sweep-to", last)):
        browser.clear(css)
        browser.type(css, str(value))
    browser.click("#sweep")
    browser.wait_for(lambda: browser.script("return document.querySelector('#sweep-chart').dataset.ready")
                     == expected_ready, f"the sweep {expected_ready}")


def assert_sweep(drawn: dict, means: dict, skills: range, modifier: int, suffix: str = "") -> None:
    for skill in skills:
        effective = skill + modifier
        odds = gurps_success_roll(effective)
        for name, label in LABELS.items():
            assert Fraction(drawn[label + suffix]["points"][str(skill)]) == odds.get(name, 0), (label, skill)
        assert Fraction(means["mean result" + suffix]["points"][str(skill)]) == effective - Fraction(21, 2)


def set_modifier(browser: Browser, value: int) -> None:
    browser.clear("#form input[name=modifier]")
    browser.type("#form input[name=modifier]", str(value))


def test_a_sweep_charts_each_outcomes_chance_and_the_mean_result_across_a_range(server, browser):
    open_check(browser, server.url, "gurps-4e", "success_roll")
    browser.type("#form input[name=skill]", "12")
    sweep(browser, 8, 16, "skill 8..16")
    drawn, means = lines(browser, 0), lines(browser, 1)
    assert set(drawn) == set(LABELS.values()) and set(means) == {"mean result"}
    assert_sweep(drawn, means, range(8, 17), 0)


def test_two_sets_of_inputs_are_compared_on_one_sweep_chart(server, browser):
    open_check(browser, server.url, "gurps-4e", "success_roll")
    browser.type("#form input[name=skill]", "12")
    sweep(browser, 8, 12, "skill 8..12")
    browser.click("#sweep-keep")  # A: modifier 0
    set_modifier(browser, -2)
    sweep(browser, 8, 12, "skill 8..12 vs Modifier 0")  # B: modifier -2
    drawn, means = lines(browser, 0), lines(browser, 1)
    assert all(line["dashed"] == name.endswith("(A)") for name, line in drawn.items())
    assert_sweep(drawn, means, range(8, 13), 0, " (A)")
    assert_sweep(drawn, means, range(8, 13), -2, " (B)")
    assert "Modifier -2" in browser.text("#sweep-chart .compare")


def test_the_sweep_is_kept_in_the_url_and_a_reload_draws_it_again(server, browser):
    open_check(browser, server.url, "gurps-4e", "success_roll")
    browser.type("#form input[name=skill]", "12")
    sweep(browser, 5, 9, "skill 5..9")
    browser.wait_for(lambda: "sweep=skill&from=5&to=9" in browser.script("return location.hash"), "the URL")
    browser.refresh()
    wait_for_form(browser, "gurps-4e", "success_roll")
    browser.wait_for(lambda: browser.script("return document.querySelector('#sweep-chart').dataset.ready")
                     == "skill 5..9", "the sweep drawn again")
    assert_sweep(lines(browser, 0), lines(browser, 1), range(5, 10), 0)
