// The sweep: one whole-number input of the check or procedure taken across a range, each
// outcome's chance (and the result's mean) drawn as lines over it; a sweep kept aside is drawn
// dashed on the same charts, to compare two sets of inputs. One odds request with the input's
// values as a list (the service's sweep). #sweep-chart says what it drew: data-ready is
// "INPUT FROM..TO", with " vs KEPT" when a kept sweep is compared.
import { $, api, el, percent } from "./api.js";
import { color, lineChart } from "./chart.js";

export const sweep = {
  request: () => ({}), // the current request body (inputs and parties as the form has them)
  describe: () => "", // the current inputs in words, for the legend
  labelOf: (name) => name, // an outcome's label
  onChange: () => {}, // the URL keeps the sweep
};

const MAX_VALUES = 101;
let shown = null; // {key, input, from, to, title, results}: the sweep drawn
let kept = null; // a sweep kept aside to compare

// The whole-number inputs of the form drawn: "NAME" for the check's, "pK.NAME" for party K's.
export function sweepOptions() {
  const select = $("sweep-input");
  const options = [];
  for (const set of document.querySelectorAll("#form fieldset[data-group]")) {
    const group = set.dataset.group;
    const party = group.startsWith("party") ? Number(group.slice(5)) + 1 : 0;
    for (const input of set.querySelectorAll('input[data-kind="integer"]')) {
      const label = set.querySelector(`label[for="${input.id}"]`).textContent.replace(/ \*$/, "");
      options.push(new Option(party ? `party${party}: ${label}` : label, party ? `p${party}.${input.name}` : input.name));
    }
  }
  select.replaceChildren(...options);
  $("sweep").disabled = !options.length;
  suggestRange();
}

function inputOf(key) {
  const party = /^p(\d+)\.(.+)$/.exec(key);
  const set = party ? $("parties") && $("parties").children[Number(party[1]) - 1]
    : document.querySelector('#form fieldset[data-group="inputs"]');
  return set ? set.querySelector(`[name="${party ? party[2] : key}"]`) : null;
}

// A range around the input's value, within its bounds.
function suggestRange() {
  const input = inputOf($("sweep-input").value);
  if (!input) return;
  const min = input.dataset.min === undefined ? -Infinity : Number(input.dataset.min);
  const max = input.dataset.max === undefined ? Infinity : Number(input.dataset.max);
  const value = /^-?\d+$/.test(input.value.trim()) ? Number(input.value.trim()) : (Number.isFinite(min) ? min + 5 : 0);
  const from = Math.max(min, value - 5);
  $("sweep-from").value = String(from);
  $("sweep-to").value = String(Math.min(max, from + 10));
}

export function sweepState() {
  return shown ? { sweep: shown.input, from: String(shown.from), to: String(shown.to) } : {};
}

export function clearSweep() {
  shown = null;
  $("sweep-chart").replaceChildren();
  delete $("sweep-chart").dataset.ready;
  $("sweep-keep").disabled = true;
  $("sweep-error").textContent = "";
}

export async function restoreSweep(state) {
  if (!state.sweep || ![...$("sweep-input").options].some((o) => o.value === state.sweep)) return;
  $("sweep-input").value = state.sweep;
  if (state.from !== null) $("sweep-from").value = state.from;
  if (state.to !== null) $("sweep-to").value = state.to;
  await run();
}

async function run() {
  $("sweep-error").textContent = "";
  const key = $("sweep-input").value;
  const from = Number($("sweep-from").value);
  const to = Number($("sweep-to").value);
  if (!key || !Number.isInteger(from) || !Number.isInteger(to) || to < from || to - from >= MAX_VALUES) {
    $("sweep-error").textContent = `give whole numbers from ≤ to, at most ${MAX_VALUES} values`;
    return;
  }
  const xs = Array.from({ length: to - from + 1 }, (_, k) => from + k);
  const body = sweep.request();
  const party = /^p(\d+)\.(.+)$/.exec(key);
  if (party) body.parties[Number(party[1]) - 1][party[2]] = xs;
  else body.inputs[key] = xs;
  delete $("sweep-chart").dataset.ready;
  $("sweep-chart").replaceChildren(el("p", { textContent: "working out the exact odds of each value…" }));
  let results;
  try { results = await api("api/odds", body); } catch (error) {
    $("sweep-chart").replaceChildren();
    $("sweep-error").textContent = String(error.message || error);
    return;
  }
  const check = body.ruleset ?? "your ruleset";
  shown = { key: `${check}/${body.name}/${key}`, input: key, from, to, xs, results,
            label: $("sweep-input").selectedOptions[0].textContent, title: sweep.describe(key) };
  if (kept && kept.key !== shown.key) kept = null; // a kept sweep of another input is not comparable
  $("sweep-keep").disabled = false;
  draw();
  sweep.onChange();
}

function lines(set, dashed, suffix) {
  const names = [];
  for (const r of set.results) for (const o of r.outcomes) if (!names.includes(o.name)) names.push(o.name);
  const x = (r) => Object.values(r.sweep)[0]; // the one input swept ("skill", or "party1.skill")
  const chances = names.map((name, i) => ({
    name: sweep.labelOf(name) + suffix, color: color(i), dashed,
    points: set.results.map((r) => {
      const o = r.outcomes.find((p) => p.name === name);
      return { x: x(r), y: o ? o.probability : 0, exact: o ? o.exact : "0/1" };
    }) }));
  const means = set.results.some((r) => r.stats && r.stats.result && r.stats.result.mean !== undefined)
    ? [{ name: "mean result" + suffix, color: color(0), dashed, points: set.results.map((r) => {
      const s = r.stats && r.stats.result;
      return { x: x(r), y: s && s.mean !== undefined ? s.mean : null, exact: s ? s.mean_exact : null };
    }) }] : [];
  return { chances, means };
}

function draw() {
  const sets = kept ? [[kept, true, " (A)"], [shown, false, " (B)"]] : [[shown, false, ""]];
  const drawn = sets.map(([set, dashed, suffix]) => lines(set, dashed, suffix));
  const xs = [...new Set(sets.flatMap(([set]) => set.xs))].sort((a, b) => a - b);
  const chances = drawn.flatMap((d) => d.chances);
  const means = drawn.flatMap((d) => d.means);
  const out = [];
  if (kept) {
    out.push(el("p", { className: "compare" }, el("strong", { textContent: "A" }), ` (dashed): ${kept.title}; `,
                el("strong", { textContent: "B" }), ` (solid): ${shown.title}`));
  }
  out.push(el("h3", { textContent: `Chance of each outcome by ${shown.label}` }),
           lineChart({ xs, lines: chances, yMin: 0, yMax: 1, yFormat: (y) => `${Math.round(100 * y)}%`,
                       xLabel: shown.label, caption: `chance of each outcome by ${shown.label}` }));
  const values = means.flatMap((m) => m.points.map((p) => p.y)).filter((y) => y !== null);
  if (values.length) {
    let lo = Math.min(...values), hi = Math.max(...values);
    if (lo === hi) { lo -= 1; hi += 1; }
    out.push(el("h3", { textContent: `Mean result by ${shown.label}` }),
             lineChart({ xs, lines: means, yMin: lo, yMax: hi, yFormat: (y) => y.toFixed(1), xLabel: shown.label,
                         caption: `mean result by ${shown.label}` }));
  }
  out.push(table(xs, chances, means));
  $("sweep-chart").replaceChildren(...out);
  $("sweep-chart").dataset.ready = `${shown.input} ${shown.from}..${shown.to}` + (kept ? ` vs ${kept.title}` : "");
}

function table(xs, chances, means) {
  const t = el("table", { className: "odds sweep-table" });
  const head = t.insertRow();
  for (const h of [shown.label, ...chances.map((c) => c.name), ...means.map((m) => m.name)]) {
    head.append(el("th", { textContent: h, scope: "col" }));
  }
  for (const x of xs) {
    const tr = t.insertRow();
    tr.insertCell().textContent = String(x);
    for (const line of chances) {
      const p = line.points.find((q) => q.x === x);
      const cell = tr.insertCell();
      cell.textContent = p ? percent(p.y) : "";
      if (p) cell.title = p.exact;
    }
    for (const line of means) {
      const p = line.points.find((q) => q.x === x);
      tr.insertCell().textContent = p && p.y !== null ? p.y.toFixed(3) : "";
    }
  }
  return el("details", {}, el("summary", { textContent: "the sweep as a table" }), el("div", { className: "scroll" }, t));
}

export function setUpSweep() {
  $("sweep-input").addEventListener("change", suggestRange);
  $("sweep").addEventListener("click", run);
  $("sweep-keep").addEventListener("click", () => {
    kept = { ...shown };
    draw();
  });
}
