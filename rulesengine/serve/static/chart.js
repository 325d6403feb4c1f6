// Charts of distributions, as AnyDice shows them: one or several series (dice expressions, a
// check's result) overlaid with a legend, each value's chance "normal", "at least" or "at most",
// as bars or as a table; and a line chart for sweeps. Plain DOM and SVG, no library.
// Every cell or point carries data-probability (a float) and, where the service gave it,
// data-exact (the exact fraction), so a script can read what is drawn.
import { el, percent, uniqueId } from "./api.js";

// Colours with a contrast of at least 4.5:1 on white, told apart by the legend's order too.
export const COLORS = ["#3056d3", "#b3261e", "#1b7a3a", "#8a5a00", "#7b2fa6", "#00727a", "#444c5c"];
export const color = (i) => COLORS[i % COLORS.length];

export const VIEWS = { normal: "chance", at_least: "at least", at_most: "at most" };
export const SHOWS = { bars: "bars", table: "table" };

function cumulative(p) {
  if (p === undefined || p === null) return { probability: 0, exact: null };
  return typeof p === "number" ? { probability: p, exact: null } : p;
}

// A row of a dice odds answer (at_least a float) or of a check's result (at_least {probability, exact}).
export function normalize(rows) {
  return rows.map((r) => ({ value: r.value, probability: r.probability, exact: r.exact,
                            at_least: cumulative(r.at_least), at_most: cumulative(r.at_most) }));
}

function pick(row, view) {
  return view === "normal" ? { probability: row.probability, exact: row.exact } : row[view];
}

function orderedValues(series) {
  const seen = new Map();
  for (const s of series) for (const r of s.rows) if (!seen.has(String(r.value))) seen.set(String(r.value), r.value);
  const values = [...seen.values()];
  const numbers = values.filter((v) => typeof v === "number").sort((a, b) => a - b);
  return [...numbers, ...values.filter((v) => typeof v !== "number")];
}

// The view and display choices: two groups of radio buttons (arrow keys move within a group).
export function viewControls(state, onChange) {
  const group = (legend, key, choices) => {
    const name = uniqueId(key);
    const set = el("fieldset", { className: "inline" }, el("legend", { textContent: legend }));
    for (const [value, text] of Object.entries(choices)) {
      const radio = el("input", { type: "radio", name, value, checked: state[key] === value });
      radio.dataset.choice = key;
      radio.addEventListener("change", () => { state[key] = value; onChange(); });
      set.append(el("label", {}, radio, text === "chance" ? "normal" : text));
    }
    return set;
  };
  return el("div", { className: "views row" }, group("Show", "view", VIEWS), group("As", "show", SHOWS));
}

function legend(series) {
  return el("ul", { className: "legend" }, ...series.map((s, i) => el("li", { dataset: { series: String(i) } },
    el("span", { className: "swatch", style: `background:${color(i)}`, "aria-hidden": "true" }),
    el("span", { className: "name", textContent: s.name }),
    s.note ? el("span", { className: "muted", textContent: " " + s.note }) : null)));
}

function cell(node, p, i) {
  node.dataset.series = String(i);
  node.dataset.probability = String(p.probability);
  if (p.exact) { node.dataset.exact = p.exact; node.title = p.exact; }
  return node;
}

// series: [{name, rows (normalized), note}]; state: {view, show}; title: the value column's heading.
export function distribution(series, state, title) {
  const values = orderedValues(series);
  const lookup = series.map((s) => new Map(s.rows.map((r) => [String(r.value), r])));
  const numbers = series.map((s) => s.rows.filter((r) => typeof r.value === "number")
    .sort((a, b) => a.value - b.value));
  const chance = (i, v) => {
    const r = lookup[i].get(String(v));
    if (r) return pick(r, state.view);
    if (state.view === "normal") return { probability: 0, exact: "0/1" };  // a value the series never takes
    if (typeof v !== "number") return { probability: 0, exact: null };
    // A number the series doesn't take: no mass lies between its neighbours, so "at least v" is
    // its next row's and "at most v" its previous row's (past its ends: 0; above its last row
    // "at least" is left without an exact figure, for mass an explosion cut may lie there).
    const rows = numbers[i];
    if (state.view === "at_least") {
      const next = rows.find((row) => row.value > v);
      return next ? next.at_least : { probability: 0, exact: null };
    }
    const before = rows.filter((row) => row.value < v).pop();
    return before ? before.at_most : { probability: 0, exact: "0/1" };
  };
  const table = el("table", { className: "odds dist" });
  const head = table.insertRow();
  const headings = state.show === "bars" ? [title, VIEWS[state.view]] : [title, ...series.map((s) => s.name)];
  for (const h of headings) head.append(el("th", { textContent: h, scope: "col" }));
  let top = 1e-12;
  for (let i = 0; i < series.length; i++) for (const v of values) top = Math.max(top, chance(i, v).probability);
  for (const v of values) {
    const tr = table.insertRow();
    tr.dataset.value = String(v);
    tr.insertCell().textContent = String(v);
    if (state.show === "bars") {
      const bars = tr.insertCell();
      bars.className = "bar";
      series.forEach((s, i) => {
        const p = chance(i, v);
        const width = Math.max(0.5, (100 * p.probability) / top);
        bars.append(cell(el("div", { className: "barline" },
          el("span", { className: "track" },
             el("span", { className: "fill", style: `width:${width.toFixed(2)}%;background:${color(i)}` })),
          el("span", { className: "pct", textContent: percent(p.probability) })), p, i));
      });
    } else {
      series.forEach((s, i) => {
        const p = chance(i, v);
        cell(tr.insertCell(), p, i).textContent = percent(p.probability);
      });
    }
  }
  const out = el("div", { className: "dist-chart" });
  out.dataset.view = state.view;
  out.dataset.show = state.show;
  if (series.length > 1 || series.some((s) => s.note)) out.append(legend(series));
  out.append(el("div", { className: "scroll" }, table));
  return out;
}

// A line chart in SVG: lines [{name, points: [{x, y, exact}], dashed, color}], x values in order.
export function lineChart({ xs, lines, yMin, yMax, yFormat, xLabel, caption }) {
  const W = 360, H = 200, L = 44, R = 8, T = 8, B = 30;
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", caption);
  svg.classList.add("line-chart");
  const node = (tag, attrs, text) => {
    const n = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
    if (text !== undefined) n.textContent = text;
    svg.append(n);
    return n;
  };
  const span = yMax - yMin || 1;
  const px = (x) => L + (xs.length > 1 ? (xs.indexOf(x) * (W - L - R)) / (xs.length - 1) : (W - L - R) / 2);
  const py = (y) => T + (H - T - B) * (1 - (y - yMin) / span);
  for (let k = 0; k <= 4; k++) {
    const y = yMin + (span * k) / 4;
    node("line", { x1: L, x2: W - R, y1: py(y), y2: py(y), class: "grid" });
    node("text", { x: L - 4, y: py(y) + 3, "text-anchor": "end", class: "tick" }, yFormat(y));
  }
  const every = Math.max(1, Math.ceil(xs.length / 10));
  xs.forEach((x, k) => {
    if (k % every === 0 || k === xs.length - 1) node("text", { x: px(x), y: H - B + 12, "text-anchor": "middle", class: "tick" }, String(x));
  });
  node("text", { x: (L + W - R) / 2, y: H - 4, "text-anchor": "middle", class: "tick" }, xLabel);
  lines.forEach((line, i) => {
    const points = line.points.filter((p) => p.y !== null && p.y !== undefined);
    const poly = node("polyline", { points: points.map((p) => `${px(p.x)},${py(p.y)}`).join(" "), fill: "none",
                                    stroke: line.color || color(i), "stroke-width": 2,
                                    "stroke-dasharray": line.dashed ? "5 3" : "none" });
    poly.dataset.series = String(i);
    poly.dataset.name = line.name;
    for (const p of points) {
      const dot = node("circle", { cx: px(p.x), cy: py(p.y), r: 2.5, fill: line.color || color(i) });
      dot.dataset.series = String(i);
      dot.dataset.x = String(p.x);
      dot.dataset.y = String(p.y);
      if (p.exact) dot.dataset.exact = p.exact;
      const tip = document.createElementNS(NS, "title");
      tip.textContent = `${line.name}, ${xLabel} ${p.x}: ${yFormat(p.y)}${p.exact ? " (" + p.exact + ")" : ""}`;
      dot.append(tip);
    }
  });
  const key = el("ul", { className: "legend" }, ...lines.map((line, i) => el("li", { dataset: { series: String(i) } },
    el("span", { className: "swatch" + (line.dashed ? " dashed" : ""), style: `border-color:${line.color || color(i)}`,
                 "aria-hidden": "true" }),
    el("span", { className: "name", textContent: line.name }))));
  return el("figure", { className: "line-figure" }, svg, key);
}
