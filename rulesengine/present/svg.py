"""A small SVG writer for the engine's charts (`--plot FILE.svg`): grouped bars for
distributions and lines across a sweep, one series per item, each with its colour in a
legend, a title and both axes labelled. No dependency: the text is written here, every piece
of text escaped for XML (and characters XML cannot carry replaced), so the file is valid
XML whatever an expression or a ruleset's label holds.

The charts are of percentages: the y axis starts at 0 and ends at a round step above the
largest value.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

__all__ = ["PALETTE", "Series", "bar_chart", "line_chart", "xml_text"]

Series = tuple[str, Sequence[float | None]]
"""One series: its name (the legend's) and one value per category (None: no value there)."""

PALETTE = ("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#999933", "#000000")
"""Colours told apart by colour-blind readers too (Okabe and Ito's), used in turn."""

WIDTH, PLOT_HEIGHT = 760, 320
LEFT, RIGHT, TOP = 64, 24, 48
X_AXIS_SPACE = 56  # tick labels and the x axis's label under the plot
LEGEND_LINE = 18
MAX_LEGEND_TEXT = 60

_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    """``text`` as XML character data: markup escaped, characters XML 1.0 cannot hold (control
    characters, lone surrogates) replaced by U+FFFD."""
    return _escape(_NOT_XML.sub("\ufffd", str(text)))


def _escape(text: str) -> str:
    """Markup escaped as XML character data (what ``xml.sax.saxutils.escape`` does, written
    here because importing it imports ``urllib`` and ``http``: a third of the start-up)."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def _attr(text: str) -> str:
    """An attribute value with its quotes, as ``xml.sax.saxutils.quoteattr`` writes it."""
    data = _escape(_NOT_XML.sub("\ufffd", str(text)))
    data = data.replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' not in data:
        return f'"{data}"'
    if "'" not in data:
        return f"'{data}'"
    return '"' + data.replace('"', "&quot;") + '"'



def _short(text: str) -> str:
    return text if len(text) <= MAX_LEGEND_TEXT else text[:MAX_LEGEND_TEXT - 1] + "…"


def _nice_top(peak: float) -> tuple[float, float]:
    """The y axis's top and its tick step: a round step (1, 2 or 5 × 10^k) with at most 5
    ticks above 0, covering ``peak``."""
    if peak <= 0:
        return 1.0, 0.2
    raw = peak / 5
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    return step * math.ceil(peak / step - 1e-9), step


class _Frame:
    """The parts every chart shares: the title, axes with ticks and labels, the legend."""

    def __init__(self, title: str, x_label: str, y_label: str, categories: Sequence[str],
                 series: Sequence[Series]) -> None:
        self.categories = [str(c) for c in categories]
        self.series = list(series)
        peak = max((v for _, values in self.series for v in values if v is not None), default=0.0)
        self.top, self.step = _nice_top(peak)
        self.plot_width = WIDTH - LEFT - RIGHT
        self.height = TOP + PLOT_HEIGHT + X_AXIS_SPACE + LEGEND_LINE * len(self.series) + 12
        self.parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{self.height}" '
            f'viewBox="0 0 {WIDTH} {self.height}" role="img" font-family="sans-serif" font-size="12">',
            f"<title>{xml_text(title)}</title>",
            f'<rect width="{WIDTH}" height="{self.height}" fill="#ffffff"/>',
            f'<text class="title" x="{WIDTH / 2:g}" y="24" text-anchor="middle" font-size="15">'
            f"{xml_text(title)}</text>",
        ]
        self._axes(x_label, y_label)

    def y(self, value: float) -> float:
        return TOP + PLOT_HEIGHT * (1 - value / self.top)

    def x_center(self, i: int) -> float:
        return LEFT + self.plot_width * (i + 0.5) / max(1, len(self.categories))

    def _axes(self, x_label: str, y_label: str) -> None:
        bottom = TOP + PLOT_HEIGHT
        out = ['<g class="axes" stroke="#333333">',
               f'<line x1="{LEFT}" y1="{bottom}" x2="{LEFT + self.plot_width}" y2="{bottom}"/>',
               f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{bottom}"/>', "</g>", '<g class="ticks" fill="#333333">']
        ticks = round(self.top / self.step)
        for k in range(ticks + 1):
            value = k * self.step
            y = self.y(value)
            out.append(f'<line x1="{LEFT - 4}" y1="{y:.1f}" x2="{LEFT}" y2="{y:.1f}" stroke="#333333"/>')
            out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + self.plot_width}" y2="{y:.1f}" '
                       'stroke="#dddddd"/>' if k else "")
            out.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{value:g}</text>')
        every = max(1, math.ceil(len(self.categories) / max(1, self.plot_width // 36)))
        for i, c in enumerate(self.categories):
            if i % every == 0:
                out.append(f'<text x="{self.x_center(i):.1f}" y="{bottom + 16}" text-anchor="middle">'
                           f"{xml_text(c)}</text>")
        out.append("</g>")
        out.append(f'<text class="x-label" x="{LEFT + self.plot_width / 2:g}" y="{bottom + 40}" '
                   f'text-anchor="middle">{xml_text(x_label)}</text>')
        out.append(f'<text class="y-label" x="16" y="{TOP + PLOT_HEIGHT / 2:g}" text-anchor="middle" '
                   f'transform="rotate(-90 16 {TOP + PLOT_HEIGHT / 2:g})">{xml_text(y_label)}</text>')
        self.parts += [p for p in out if p]

    def legend(self) -> None:
        y0 = TOP + PLOT_HEIGHT + X_AXIS_SPACE
        self.parts.append('<g class="legend">')
        for k, (name, _) in enumerate(self.series):
            y = y0 + k * LEGEND_LINE
            self.parts.append(f'<g class="legend-item"><rect x="{LEFT}" y="{y}" width="12" height="12" '
                              f'fill="{colour(k)}"/><text x="{LEFT + 18}" y="{y + 10}">{xml_text(_short(name))}'
                              "</text></g>")
        self.parts.append("</g>")

    def text(self) -> str:
        self.legend()
        return "\n".join(self.parts + ["</svg>"]) + "\n"


def colour(k: int) -> str:
    return PALETTE[k % len(PALETTE)]


def bar_chart(title: str, x_label: str, y_label: str, categories: Sequence[str], series: Sequence[Series]) -> str:
    """Grouped bars: for each category, one bar per series side by side (no bar where a
    series has no value)."""
    frame = _Frame(title, x_label, y_label, categories, series)
    group = frame.plot_width / max(1, len(frame.categories))
    width = group * 0.8 / max(1, len(frame.series))
    for k, (name, values) in enumerate(frame.series):
        frame.parts.append(f'<g class="series" data-name={_attr(name)} fill="{colour(k)}">')
        for i, v in enumerate(values):
            if v is None:
                continue
            x = LEFT + group * i + group * 0.1 + width * k
            y = frame.y(v)
            frame.parts.append(f'<rect x="{x:.2f}" y="{y:.2f}" width="{width:.2f}" '
                               f'height="{TOP + PLOT_HEIGHT - y:.2f}"><title>{xml_text(name)}: '
                               f"{xml_text(frame.categories[i])} {v:.4g}</title></rect>")
        frame.parts.append("</g>")
    return frame.text()


def line_chart(title: str, x_label: str, y_label: str, categories: Sequence[str], series: Sequence[Series]) -> str:
    """A line per series across the categories (broken where a series has no value), each
    point marked."""
    frame = _Frame(title, x_label, y_label, categories, series)
    for k, (name, values) in enumerate(frame.series):
        frame.parts.append(f'<g class="series" data-name={_attr(name)} stroke="{colour(k)}" fill="{colour(k)}">')
        run: list[str] = []
        for i, v in enumerate([*values, None]):
            if v is not None:
                run.append(f"{frame.x_center(i):.2f},{frame.y(v):.2f}")
                continue
            if len(run) > 1:
                frame.parts.append(f'<polyline fill="none" stroke-width="2" points="{" ".join(run)}"/>')
            run = []
        for i, v in enumerate(values):
            if v is not None:
                frame.parts.append(f'<circle cx="{frame.x_center(i):.2f}" cy="{frame.y(v):.2f}" r="3">'
                                   f"<title>{xml_text(name)}: {xml_text(frame.categories[i])} {v:.4g}</title>"
                                   "</circle>")
        frame.parts.append("</g>")
    return frame.text()
