"""The ruleset's YAML from the playground's picker (issue 35): shown as its file has it (the
service's GET /api/rulesets/ID/source), and copied into the editor to change and roll as
"your ruleset" (every request may carry a ruleset's text as ``yaml``). The text expected is
read from the ruleset file on disk."""

from __future__ import annotations

from pathlib import Path

from playground_support import choose, open_check, wait_for_form

ROOT = Path(__file__).resolve().parents[2]


def text_of(ruleset: str) -> str:
    return (ROOT / "rulesets" / f"{ruleset}.yaml").read_text(encoding="utf-8")


def shown(browser) -> str | None:
    return browser.script("const p = document.querySelector('#source-yaml');"
                          "return p.dataset.ready ? p.dataset.ready + '\\n' + p.textContent : null")


def test_the_chosen_rulesets_yaml_is_shown_as_its_file_has_it(server, browser):
    open_check(browser, server.url, "gurps-4e", "success_roll")
    browser.click("#view-yaml")
    browser.wait_for(lambda: shown(browser) == "gurps-4e\n" + text_of("gurps-4e"), "gurps-4e's YAML")
    assert browser.text("#source-file").startswith("gurps-4e.yaml")
    choose(browser, "#ruleset", "rps")  # shown, it follows the picker
    browser.wait_for(lambda: shown(browser) == "rps\n" + text_of("rps"), "rps's YAML")
    browser.click("#view-yaml")
    assert browser.script("return document.querySelector('#source').hidden") is True


def test_a_copy_of_a_rulesets_yaml_is_edited_and_rolled_as_your_ruleset(server, browser):
    open_check(browser, server.url, "gurps-4e", "success_roll")
    browser.click("#edit-copy")
    browser.wait_for(lambda: browser.script("return document.querySelector('#yaml').value") == text_of("gurps-4e"),
                     "the copy in the editor")
    browser.wait_for(lambda: browser.text("#status") == "valid", "the copy to validate")
    assert text_of("gurps-4e").count("    label: Success roll\n") == 1
    browser.script("const t = document.querySelector('#yaml');"
                   "t.value = t.value.replace('    label: Success roll\\n', '    label: My success roll\\n');"
                   "t.dispatchEvent(new Event('input'))")
    browser.click("#use")
    wait_for_form(browser, "@editor", "success_roll")
    label = browser.script("return document.querySelector('#runnable').selectedOptions[0].textContent")
    assert label == "My success roll"
    browser.type("#form input[name=skill]", "12")
    browser.click("#roll")
    assert browser.wait_for(lambda: browser.text("#trace"), "the trace").startswith("roll: 3d6")
