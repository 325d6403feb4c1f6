"""A fault validate finds says the inputs that show it, those its place reads through the
rolls and lets it names too (an outside author's Trophy Dark: `highest(dark_dice)` of
`dark_dice: (dark)d6` failed at dark=0, and the message named light=1 alone), each written
as the command line takes it (`gilded=true`, not Python's `True`)."""

from __future__ import annotations

from rulesengine.validate import validate_text

TEXT = """\
ruleset: trophy
name: Trophy
version: "1"
source: tests
checks:
  risk:
    inputs:
      light: {type: integer, default: 3, min: 1, max: 6}
      dark: {type: integer, default: 0, min: 0, max: 3}
      lit: {type: boolean, default: true}
    rolls:
      light_dice: (light)d6
      dark_dice: (dark)d6
    let:
      top_dark: highest(dark_dice)
      top: "if(lit, max(highest(light_dice), top_dark), top_dark)"
    result: top
    outcomes:
      - {name: success, when: "top == 6", success: true}
      - {name: failure, success: false}
"""


def test_the_input_read_through_a_roll_is_named():
    faults = [d for d in validate_text(TEXT, "trophy.yaml").diagnostics if d.code == "E201"]
    assert len(faults) == 1
    assert faults[0].message == "check 'risk': highest() of a roll with no dice with dark=0"


def test_a_yes_no_input_is_written_as_the_command_line_takes_it():
    text = TEXT.replace("top_dark: highest(dark_dice)", "top_dark: if(lit, highest(dark_dice), 0)")
    faults = [d for d in validate_text(text, "trophy.yaml").diagnostics if d.code == "E201"]
    assert len(faults) == 1 and faults[0].message.endswith("with dark=0, lit=true")


def test_validate_says_the_same_whatever_the_process_hashes_strings_by(tmp_path):
    """The inputs a fault is shown with came from the first failing set of a search whose
    order followed a set of names, so Python's string hashing, random per process, chose
    "dark=0" in one run and "light=1, dark=0" in the next: CI saw one, a laptop the other."""
    import os
    import subprocess
    import sys

    path = tmp_path / "trophy.yaml"
    path.write_text(TEXT, encoding="utf-8")
    outs = set()
    for seed in ("1", "2", "3", "4"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "RULESENGINE_CACHE": "off"}
        done = subprocess.run([sys.executable, "-m", "rulesengine", "validate", "--format", "json", str(path)],
                              capture_output=True, text=True, env=env, timeout=120)
        assert done.returncode == 1, done.stderr
        outs.add(done.stdout)
    assert len(outs) == 1
