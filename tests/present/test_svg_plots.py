"""Issue 35: ``--plot FILE.svg`` writes a chart the engine draws itself: valid XML (parsed
here), one series per item each named in a legend, both axes labelled, text escaped. The
bars' and points' figures are checked against brute-force enumeration of the dice."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from fractions import Fraction

from rulesengine.cli import main
from rulesengine.present.svg import bar_chart, line_chart, xml_text

NS = {"svg": "http://www.w3.org/2000/svg"}


def parse(path) -> ET.Element:
    return ET.parse(path).getroot()


def series(root: ET.Element) -> list[ET.Element]:
    return root.findall(".//svg:g[@class='series']", NS)


def legend(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.findall(".//svg:g[@class='legend-item']/svg:text", NS)]


def label(root: ET.Element, which: str) -> str:
    found = root.find(f".//svg:text[@class='{which}']", NS)
    assert found is not None
    return found.text or ""


def tips(group: ET.Element) -> list[str]:
    return [t.text or "" for t in group.findall(".//svg:title", NS)]


def sums(n: int, sides: int) -> dict[int, Fraction]:
    counts: dict[int, int] = {}
    for faces in itertools.product(range(1, sides + 1), repeat=n):
        counts[sum(faces)] = counts.get(sum(faces), 0) + 1
    return {v: Fraction(c, sides ** n) for v, c in counts.items()}


def test_dice_odds_plot_has_one_bar_series_per_expression_with_a_legend(tmp_path, capsys):
    out = tmp_path / "dice.svg"
    assert main(["dice", "--odds", "3d6", "2d10", "1d20", "--plot", str(out)]) == 0
    capsys.readouterr()
    root = parse(out)
    assert [g.get("data-name") for g in series(root)] == ["3d6", "2d10", "1d20"]
    assert legend(root) == ["3d6", "2d10", "1d20"]
    assert label(root, "x-label") == "value" and label(root, "y-label") == "% of each value"
    three_d6 = series(root)[0]
    assert len(three_d6.findall("svg:rect", NS)) == len(sums(3, 6))  # no bar where 3d6 never lands
    assert f"3d6: 10 {float(sums(3, 6)[10] * 100):.4g}" in tips(three_d6)


def test_dice_odds_plot_draws_the_at_least_view_when_asked(tmp_path, capsys):
    out = tmp_path / "dice.svg"
    assert main(["dice", "--odds", "2d6", "--at-least", "--plot", str(out)]) == 0
    capsys.readouterr()
    root = parse(out)
    assert label(root, "y-label") == "% at least each value"
    ge8 = sum((p for v, p in sums(2, 6).items() if v >= 8), Fraction(0))
    assert f"2d6: 8 {float(ge8 * 100):.4g}" in tips(series(root)[0])


def test_odds_plot_of_a_check_draws_bars_of_its_result(tmp_path, capsys):
    out = tmp_path / "check.svg"
    assert main(["odds", "gurps-4e", "success_roll", "skill=12", "--plot", str(out)]) == 0
    capsys.readouterr()
    root = parse(out)
    margins = {12 - v: p for v, p in sums(3, 6).items()}  # the result: skill - 3d6
    (bars,) = series(root)
    assert len(bars.findall("svg:rect", NS)) == len(margins)
    assert f"result: 0 {float(margins[0] * 100):.4g}" in tips(bars)
    assert label(root, "x-label") == "result"


def test_a_sweep_plot_has_a_line_per_outcome_across_the_swept_input(tmp_path, capsys):
    out = tmp_path / "sweep.svg"
    assert main(["odds", "dnd-5e-srd", "damage", "dice=1..3", "die=4", "--at-least", "5", "--plot", str(out)]) == 0
    capsys.readouterr()
    root = parse(out)
    names = [g.get("data-name") for g in series(root)]
    assert names == ["P(success)", "damage", "P(failure)", "result >= 5"]
    assert legend(root) == names
    assert label(root, "x-label") == "dice"
    ge5 = series(root)[-1]
    assert len(ge5.findall("svg:circle", NS)) == 3
    expected = [sum((p for v, p in sums(d, 4).items() if v >= 5), Fraction(0)) for d in (1, 2, 3)]
    assert tips(ge5) == [f"result >= 5: {d} {float(p * 100):.4g}" for d, p in zip((1, 2, 3), expected, strict=True)]


def test_a_sweep_of_two_inputs_plots_a_line_per_value_of_the_second(tmp_path, capsys):
    out = tmp_path / "grid.svg"
    assert main(["odds", "gurps-4e", "success_roll", "skill=8..12", "modifier=0,2", "--plot", str(out)]) == 0
    capsys.readouterr()
    root = parse(out)
    assert [g.get("data-name") for g in series(root)] == ["modifier=0", "modifier=2"]
    # GURPS: success on 3d6 <= effective skill, 3-4 always, 17-18 never (skill 8..14 here)
    p = {s: sum((q for v, q in sums(3, 6).items() if v <= 4 or (v <= s and v < 17)), Fraction(0)) for s in range(8, 15)}
    assert tips(series(root)[1])[0] == f"modifier=2: 8 {float(p[10] * 100):.4g}"


def test_plot_text_is_escaped_so_the_file_stays_xml():
    name = 'a <b> & "c" \x01'
    for chart in (bar_chart, line_chart):
        root = ET.fromstring(chart(name, "x & y", "<%>", ["<1>", "&"], [(name, [50.0, None])]))
        assert root.find("svg:title", NS).text == 'a <b> & "c" \ufffd'
        assert legend(root) == ['a <b> & "c" \ufffd']
        assert [g.get("data-name") for g in series(root)] == ['a <b> & "c" \ufffd']
    assert xml_text("<&>") == "&lt;&amp;&gt;"


def test_plot_is_refused_without_odds_or_an_svg_name(tmp_path, capsys):
    assert main(["dice", "3d6", "--plot", str(tmp_path / "x.svg")]) == 2
    assert "--plot is for --odds" in capsys.readouterr().err
    assert main(["odds", "gurps-4e", "success_roll", "skill=12", "--plot", str(tmp_path / "x.png")]) == 2
    assert "ending in .svg" in capsys.readouterr().err
    assert main(["odds", "gurps-4e", "success_roll", "skill=12", "--plot", str(tmp_path / "no" / "x.svg")]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_a_plot_to_a_folder_that_cannot_be_written_is_refused_before_the_odds_are_worked_out(tmp_path, capsys):
    """Found in review: a sweep printed its table (all its odds worked out) before the plot's
    folder was found missing."""
    assert main(["odds", "gurps-4e", "success_roll", "skill=3..18", "--plot", str(tmp_path / "no" / "x.svg")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "cannot write" in err.splitlines()[-1] and "Traceback" not in err
