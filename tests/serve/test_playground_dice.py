"""The playground's dice box (issue 35): dice expressions typed in, their exact distributions
charted as AnyDice shows them (normal, at least, at most; bars or a table; several overlaid
with a legend), and the same views on a check's result chart. Every figure is checked against
a brute-force enumeration of the dice (tests/oracle.py's product_dist), never the engine."""

from __future__ import annotations

from fractions import Fraction

from oracle import product_dist
from playground_support import cells, open_check, pick_view, wait_for_dice
from webdriver import Browser

D6 = range(1, 7)


def at_least(dist: dict[int, Fraction], v: int) -> Fraction:
    return sum((p for w, p in dist.items() if w >= v), Fraction(0))


def at_most(dist: dict[int, Fraction], v: int) -> Fraction:
    return sum((p for w, p in dist.items() if w <= v), Fraction(0))


def assert_drawn(drawn: dict, expected: dict[int, Fraction], exact: bool = True) -> None:
    """Every value the chart draws is one the oracle has, with its chance; every value of the
    oracle is drawn (those the chart has from another series at 0)."""
    assert {int(v) for v, c in drawn.items() if c["probability"] > 0} == {v for v, p in expected.items() if p}
    for value, cell in drawn.items():
        p = expected.get(int(value), Fraction(0))
        assert abs(cell["probability"] - float(p)) < 1e-12, (value, cell, p)
        if exact:
            assert Fraction(cell["exact"]) == p, (value, cell, p)


def type_expression(browser: Browser, row: int, text: str) -> None:
    css = f"#dice-exprs .expr-row:nth-child({row}) input"
    browser.clear(css)
    browser.type(css, text)


def test_the_dice_box_charts_an_expressions_exact_distribution(server, browser):
    browser.open(server.url + "/")
    wait_for_dice(browser, ["2d6"])  # the box starts with an example
    type_expression(browser, 1, "3d6")
    wait_for_dice(browser, ["3d6"])
    assert_drawn(cells(browser, "#dice-chart", 0), product_dist([D6] * 3, lambda a, b, c: a + b + c))
    assert "mean 10.500" in browser.text("#dice-chart .legend")  # 3 × 3.5


def test_several_expressions_are_overlaid_on_one_chart_with_a_legend(server, browser):
    browser.open(server.url + "/")
    wait_for_dice(browser, ["2d6"])
    browser.click("#dice-add")
    browser.type("#dice-exprs .expr-row:nth-child(2) input", "1d12\n")
    wait_for_dice(browser, ["2d6", "1d12"])
    legend = browser.script("return [...document.querySelectorAll('#dice-chart .legend .name')].map(n => n.textContent)")
    assert legend == ["2d6", "1d12"]
    assert_drawn(cells(browser, "#dice-chart", 0), product_dist([D6, D6], lambda a, b: a + b))
    assert_drawn(cells(browser, "#dice-chart", 1), product_dist([range(1, 13)], lambda a: a))
    browser.click("#dice-exprs .expr-row:nth-child(1) button")  # removing the first keeps the second
    wait_for_dice(browser, ["1d12"])


def test_an_expression_the_engine_refuses_says_why_beside_it_and_the_others_are_still_charted(server, browser):
    browser.open(server.url + "/")
    wait_for_dice(browser, ["2d6"])
    browser.click("#dice-add")
    browser.type("#dice-exprs .expr-row:nth-child(2) input", "2d6+\n")
    wait_for_dice(browser, ["2d6"])
    error = browser.text("#dice-exprs .expr-row:nth-child(2) .expr-error")
    assert error.startswith("E1") and "column" in error, error


def test_the_dice_chart_shows_at_least_and_at_most_as_bars_or_a_table(server, browser):
    browser.open(server.url + "/")
    wait_for_dice(browser, ["2d6"])
    two_d6 = product_dist([D6, D6], lambda a, b: a + b)
    pick_view(browser, "#dice-chart", "view", "at_least")
    # A dice answer gives the cumulative chances as floats only (no exact fraction to show).
    assert_drawn(cells(browser, "#dice-chart", 0), {v: at_least(two_d6, v) for v in two_d6}, exact=False)
    pick_view(browser, "#dice-chart", "view", "at_most")
    assert_drawn(cells(browser, "#dice-chart", 0), {v: at_most(two_d6, v) for v in two_d6}, exact=False)
    pick_view(browser, "#dice-chart", "show", "table")
    assert browser.script("return document.querySelectorAll('#dice-chart .barline').length") == 0
    table = cells(browser, "#dice-chart", 0)
    assert table["12"]["text"] == "100.00%" and table["2"]["text"] == "2.78%"  # 1/36
    assert_drawn(table, {v: at_most(two_d6, v) for v in two_d6}, exact=False)


def test_a_checks_result_chart_has_the_same_views(server, browser):
    """GURPS success roll, skill 12: result = 12 - 3d6."""
    open_check(browser, server.url, "gurps-4e", "success_roll")
    browser.type("#form input[name=skill]", "12")
    browser.click("#odds")
    browser.wait_for(lambda: browser.script("return document.querySelector('#chart .dist-chart')"), "the odds chart")
    result = product_dist([D6] * 3, lambda a, b, c: 12 - (a + b + c))
    assert_drawn(cells(browser, "#chart", 0), result)
    pick_view(browser, "#chart", "view", "at_least")
    assert_drawn(cells(browser, "#chart", 0), {v: at_least(result, v) for v in result})
    pick_view(browser, "#chart", "show", "table")
    pick_view(browser, "#chart", "view", "at_most")
    assert_drawn(cells(browser, "#chart", 0), {v: at_most(result, v) for v in result})


def test_overlaid_series_show_at_least_and_at_most_of_values_only_the_other_takes(server, browser):
    """1d6 over 2d6: 1d6 never takes 7..12 and 2d6 never takes 1, yet "at most 9" of 1d6 is 1 and
    "at least 1" of 2d6 is 1 (found in review: they were drawn as 0, labelled exact 0/1)."""
    browser.open(server.url + "/")
    wait_for_dice(browser, ["2d6"])
    browser.click("#dice-add")
    browser.type("#dice-exprs .expr-row:nth-child(2) input", "1d6\n")
    wait_for_dice(browser, ["2d6", "1d6"])
    two_d6 = product_dist([D6, D6], lambda a, b: a + b)
    one_d6 = product_dist([D6], lambda a: a)
    values = range(1, 13)
    for view, of in (("at_least", at_least), ("at_most", at_most)):
        pick_view(browser, "#dice-chart", "view", view)
        assert_drawn(cells(browser, "#dice-chart", 0), {v: of(two_d6, v) for v in values}, exact=False)
        assert_drawn(cells(browser, "#dice-chart", 1), {v: of(one_d6, v) for v in values}, exact=False)
