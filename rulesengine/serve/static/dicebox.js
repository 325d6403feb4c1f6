// The dice box: dice expressions typed in, their exact distributions overlaid on one chart
// (normal, at least, at most; bars or a table), each expression rolled into the roll log.
// #dice-chart says what it has drawn: data-ready is the JSON list of the expressions charted.
import { $, api, button, el, uniqueId } from "./api.js";
import { distribution, normalize, viewControls } from "./chart.js";

export const diceBox = {
  state: { view: "normal", show: "bars" },
  onChange: () => {}, // told when the expressions or the view change (the URL keeps them)
  onRoll: () => {}, // given each roll: {kind: "dice", title, request, result}
};

let drawing = 0;
let timer = null;
let answers = []; // [{expression, result}] of the latest chart, redrawn as the view changes

export function expressions() {
  return [...document.querySelectorAll("#dice-exprs input")].map((i) => i.value.trim());
}

export function setExpressions(list) {
  $("dice-exprs").replaceChildren();
  for (const text of list.length ? list : [""]) addRow(text);
  refresh();
}

function renumber() {
  [...$("dice-exprs").children].forEach((row, k) => {
    row.querySelector("label").textContent = `Expression ${k + 1}`;
    row.querySelector("button").setAttribute("aria-label", `Remove expression ${k + 1}`);
  });
}

function addRow(text) {
  const input = el("input", { type: "text", value: text, className: "expr", spellcheck: false,
                              placeholder: "e.g. 4d6kh3", autocomplete: "off", id: uniqueId("expr") });
  input.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(refresh, 300); });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") { event.preventDefault(); clearTimeout(timer); refresh(); }
  });
  const row = el("div", { className: "expr-row" },
    el("label", { htmlFor: input.id }), input,
    button("✕", () => {
      row.remove();
      if (!$("dice-exprs").children.length) addRow("");
      renumber();
      refresh();
    }, "secondary icon"),
    el("span", { className: "error expr-error", "aria-live": "polite" }));
  $("dice-exprs").append(row);
  renumber();
  return input;
}

export async function refresh() {
  const ticket = ++drawing;
  const rows = [...$("dice-exprs").children];
  const texts = expressions();
  diceBox.onChange();
  delete $("dice-chart").dataset.ready;
  const results = await Promise.all(texts.map((expression) => expression
    ? api("api/dice_odds", { expression }).then((result) => ({ result }), (error) => ({ error }))
    : Promise.resolve({})));
  if (ticket !== drawing) return; // a later edit has its own chart coming
  answers = [];
  results.forEach((r, k) => {
    rows[k].querySelector(".expr-error").textContent = r.error ? String(r.error.message) : "";
    rows[k].querySelector("input").setAttribute("aria-invalid", r.error ? "true" : "false");
    if (r.result) answers.push({ expression: texts[k], result: r.result });
  });
  draw();
  $("dice-chart").dataset.ready = JSON.stringify(answers.map((a) => a.expression));
}

// explosions cut and no closed form: the figure is of what was worked out, not the roll's
function worked(kind) {
  return kind === "of_mass_worked_out" ? " (of the mass worked out)" : "";
}

function draw() {
  const chart = $("dice-chart");
  if (!answers.length) { chart.replaceChildren(); return; }
  const series = answers.map(({ expression, result }) => ({
    name: expression, rows: normalize(result.distribution),
    note: result.stats && result.stats.sd !== undefined
      ? `mean ${result.stats.mean.toFixed(3)}${worked(result.stats.mean_kind)}, ` +
        `SD ${result.stats.sd.toFixed(3)}${worked(result.stats.variance_kind)}` : "" }));
  chart.replaceChildren(viewControls(diceBox.state, () => {
    const had = document.activeElement;
    diceBox.onChange();
    draw();
    focusChoice(chart, had);
  }),
                        distribution(series, diceBox.state, "Total"));
}

// Redrawing replaces the radio buttons: the one chosen keeps the keyboard's focus.
export function focusChoice(chart, had) {
  if (!had || had.dataset.choice === undefined) return;
  const now = chart.querySelector(`input[data-choice="${had.dataset.choice}"][value="${had.value}"]`);
  if (now) now.focus();
}

async function rollAll(seedOf) {
  const rows = [...$("dice-exprs").children];
  for (const row of rows) {
    const expression = row.querySelector("input").value.trim();
    if (!expression) continue;
    const request = { expression, seed: seedOf() };
    try {
      const result = await api("api/dice_roll", request);
      row.querySelector(".expr-error").textContent = "";
      diceBox.onRoll({ kind: "dice", title: `dice ${expression}`, request, result });
    } catch (error) {
      row.querySelector(".expr-error").textContent = String(error.message || error);
    }
  }
}

export function setUpDiceBox(seedOf) {
  $("dice-add").addEventListener("click", () => addRow("").focus());
  $("dice-roll").addEventListener("click", () => rollAll(seedOf));
  $("dice-odds").addEventListener("click", refresh);
}

