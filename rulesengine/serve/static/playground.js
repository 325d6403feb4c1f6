// The playground: a page of the service that uses only its JSON API (no build step, no CDN).
// Plain JavaScript modules: api.js (the API, helpers), chart.js (distributions), dicebox.js.
import { $, api, button, el, percent } from "./api.js";
import { distribution, normalize, viewControls } from "./chart.js";
import { diceBox, expressions, focusChoice, setExpressions, setUpDiceBox } from "./dicebox.js";
import { logRoll, seedFrom, setChance, setUpRollLog } from "./rolllog.js";
import { clearSweep, restoreSweep, setUpSweep, sweep, sweepOptions, sweepState } from "./sweep.js";
import { readState, writeState } from "./urlstate.js";

const EDITOR = "@editor"; // the ruleset select's value for the editor's ruleset
let rulesets = []; // rows of GET api/rulesets
let editorYaml = null; // the editor's ruleset, once "Use it above" was pressed
let currentForm = null;
let choosing = 0; // the latest choice of a check: an older one's form, arriving late, is not drawn
let restoring = readState(); // the URL's state, applied once as the page loads (urlstate.js)
const checkChart = { ...restoring.chart }; // how the check's result is charted
let lastOdds = null; // the odds drawn, redrawn when the view changes
let oddsShown = false; // the current check's odds are drawn (the URL says so, a reload draws them)

function source() {
  return $("ruleset").value === EDITOR ? { yaml: editorYaml } : { ruleset: $("ruleset").value };
}

function showError(err) {
  $("error").hidden = !err;
  $("error").textContent = err ? String(err.message || err) : "";
}

// ---- choosing a ruleset and a check -----------------------------------------------------

async function loadRulesets() {
  rulesets = await api("api/rulesets");
  const select = $("ruleset");
  select.replaceChildren(...rulesets.map((r) => new Option(`${r.name} (${r.id})`, r.id)));
  if (editorYaml !== null) select.add(new Option("Your ruleset (from the editor)", EDITOR));
  if (restoring && rulesets.some((r) => r.id === restoring.ruleset)) select.value = restoring.ruleset;
  await chooseRuleset();
}

// Each ruleset's export (its labels: of checks, procedures, outcomes), fetched once: by id, or
// the editor's ruleset by its text.
const exported = new Map();
let currentDoc = null;
let pickingRuleset = 0; // the latest choice of a ruleset: an older one's list, arriving late, is not drawn

function exportOf(ruleset) {
  const key = ruleset === EDITOR ? `yaml:${editorYaml}` : ruleset;
  if (!exported.has(key)) {
    const doc = ruleset === EDITOR ? api("api/export", { yaml: editorYaml })
      : api(`api/rulesets/${encodeURIComponent(ruleset)}`);
    exported.set(key, doc);
    doc.catch(() => exported.delete(key));
  }
  return exported.get(key);
}

async function chooseRuleset() {
  showError(null);
  delete $("form").dataset.ready;
  const ticket = ++pickingRuleset;
  let doc;
  try { doc = await exportOf($("ruleset").value); } catch (err) {
    if (ticket === pickingRuleset) { restoring = null; showError(err); }
    return;
  }
  if (ticket !== pickingRuleset) return;
  currentDoc = doc;
  if (!$("source").hidden) showSource();
  const select = $("runnable");
  select.replaceChildren(
    ...Object.entries(doc.checks).map(([n, c]) => new Option(c.label || n, n)),
    ...Object.entries(doc.procedures).map(([n, p]) => new Option(`${p.label || n} (procedure)`, n)));
  if (restoring && restoring.check in doc.checks || restoring && restoring.check in doc.procedures) {
    select.value = restoring.check;
  }
  await chooseRunnable();
}

// ---- the ruleset's YAML: shown, and copied into the editor -------------------------------------

const sources = new Map(); // ruleset id → its source (GET api/rulesets/ID/source)

function sourceOf(ruleset) {
  if (ruleset === EDITOR) return Promise.resolve({ ruleset: "your ruleset", file: "the editor", yaml: editorYaml });
  if (!sources.has(ruleset)) {
    const answer = api(`api/rulesets/${encodeURIComponent(ruleset)}/source`);
    sources.set(ruleset, answer);
    answer.catch(() => sources.delete(ruleset));
  }
  return sources.get(ruleset);
}

// The shown YAML says whose it is: data-ready="RULESET" once its text is in.
async function showSource() {
  const ruleset = $("ruleset").value;
  delete $("source-yaml").dataset.ready;
  let source;
  try { source = await sourceOf(ruleset); } catch (err) { showError(err); return; }
  if (ruleset !== $("ruleset").value) return; // another ruleset was chosen meanwhile
  $("source-file").textContent = `${source.file} (${source.yaml.split("\n").length} lines)`;
  $("source-yaml").textContent = source.yaml;
  $("source-yaml").dataset.ready = ruleset;
}

function toggleSource() {
  const open = $("source").hidden;
  $("source").hidden = !open;
  $("view-yaml").setAttribute("aria-expanded", String(open));
  $("view-yaml").textContent = open ? "Hide its YAML" : "View its YAML";
  if (open) showSource();
}

async function editCopy() {
  let source;
  try { source = await sourceOf($("ruleset").value); } catch (err) { showError(err); return; }
  $("yaml").value = source.yaml;
  gutter(new Set());
  $("yaml").scrollTop = 0;
  validate();
  $("editor-section").scrollIntoView();
  $("yaml").focus();
  $("yaml").setSelectionRange(0, 0);
}

// An outcome's label where the ruleset gives one (the export fills in the name where it does not).
function outcomeLabel(name) {
  const check = currentDoc && currentDoc.checks[$("runnable").value];
  const outcome = check && check.outcomes.find((o) => o.name === name);
  return outcome && outcome.label ? outcome.label : name;
}

// The form says which check it is the form of once it is drawn: data-ready="RULESET/NAME"
// (absent while a choice is being loaded). Choices can overlap (the page's first ruleset
// loading while a user picks another); only the latest one draws its form.
async function chooseRunnable() {
  showError(null);
  $("trace").hidden = true;
  $("chart").replaceChildren();
  clearSweep();
  oddsShown = false;
  const ticket = ++choosing;
  const ruleset = $("ruleset").value;
  const name = $("runnable").value;
  delete $("form").dataset.ready;
  let form;
  try {
    form = ruleset === EDITOR
      ? await api("api/form", { ...source(), name })
      : await api(`api/rulesets/${encodeURIComponent(ruleset)}/forms/${encodeURIComponent(name)}`);
  } catch (err) {
    if (ticket === choosing) { restoring = null; showError(err); }
    return;
  }
  if (ticket !== choosing) return; // a later choice has its own form coming
  currentForm = form;
  $("description").textContent = currentForm.description || "";
  renderForm(currentForm);
  const restored = restoring;
  restoring = null;
  const mine = restored && restored.ruleset === ruleset && restored.check === name;
  if (mine) fillForm(restored);
  sweepOptions();
  $("form").dataset.ready = `${ruleset}/${name}`;
  saveState();
  if (mine && restored.odds) await odds();
  if (mine && restored.sweep) await restoreSweep(restored);
}

// ---- the page's state in its URL (urlstate.js) ---------------------------------------------

function fillForm(state) {
  const inputs = $("form").querySelector('fieldset[data-group="inputs"]');
  if (inputs) setValues(inputs, state.inputs);
  const parties = $("parties");
  if (!parties) return;
  for (let k = parties.children.length; k < state.parties.length; k++) addParty(currentForm.properties.parties);
  state.parties.forEach((party, k) => { if (parties.children[k]) setValues(parties.children[k], party); });
}

function setValues(set, given) {
  for (const input of set.querySelectorAll("input, select")) {
    if (!(input.name in given)) continue;
    if (input.type === "checkbox") input.checked = given[input.name] === "true";
    else input.value = given[input.name];
  }
}

// The inputs given, in words ("Skill 12, Modifier -2"), but the one swept (sweep.js's key).
function describeInputs(swept) {
  const words = [];
  for (const set of $("form").querySelectorAll("fieldset[data-group]")) {
    const party = set.dataset.group.startsWith("party") ? Number(set.dataset.group.slice(5)) + 1 : 0;
    for (const input of set.querySelectorAll("input, select")) {
      if ((party ? `p${party}.${input.name}` : input.name) === swept) continue;
      const label = set.querySelector(`label[for="${input.id}"]`).textContent.replace(/ \*$/, "");
      const value = input.type === "checkbox" ? (input.checked ? "yes" : "") : input.value.trim();
      if (value) words.push(`${party ? `party${party} ` : ""}${label} ${value}`);
    }
  }
  return words.join(", ") || "the defaults";
}

// What differs from the form's defaults: name → text.
function changed(set) {
  const out = {};
  for (const input of set.querySelectorAll("input, select")) {
    const value = input.type === "checkbox" ? String(input.checked) : input.value.trim();
    if (value !== input.dataset.default) out[input.name] = value;
  }
  return out;
}

function saveState() {
  if (restoring) return; // the URL's state is still being applied
  const state = { dice: expressions().filter(Boolean), diceChart: diceBox.state, chart: checkChart };
  const ruleset = $("ruleset").value;
  if (ruleset && ruleset !== EDITOR && $("form").dataset.ready) {
    const inputs = $("form").querySelector('fieldset[data-group="inputs"]');
    Object.assign(state, { ruleset, check: $("runnable").value, inputs: inputs ? changed(inputs) : {},
                           parties: $("parties") ? [...$("parties").children].map(changed) : [], odds: oddsShown,
                           ...sweepState() });
  }
  writeState(state);
}

// ---- a form from the input form's JSON Schema ------------------------------------------------

function renderForm(schema) {
  const form = $("form");
  form.replaceChildren();
  const inputs = schema.properties.inputs;
  if (Object.keys(inputs.properties).length) form.append(fieldset("Inputs", inputs, "inputs"));
  const parties = schema.properties.parties;
  if (!parties) return;
  const box = document.createElement("div");
  box.id = "parties";
  form.append(box);
  const note = document.createElement("p");
  note.className = "muted";
  note.textContent = parties.description || "";
  form.insertBefore(note, box);
  const add = button("Add a party", () => { addParty(parties); sweepOptions(); saveState(); }, "secondary");
  const remove = button("Remove the last party", () => {
    if (box.children.length > parties.minItems) box.lastElementChild.remove();
    sweepOptions();
    saveState();
  }, "secondary");
  form.append(add, remove);
  for (let i = 0; i < parties.minItems; i++) addParty(parties);
}

function addParty(parties) {
  const box = $("parties");
  const i = box.children.length;
  if (i >= parties.maxItems) return;
  const schema = (parties.prefixItems || [])[i] || parties.items;
  box.append(fieldset(`party${i + 1}: ${schema.title || ""}`, schema, `party${i}`));
}

function fieldset(title, schema, group) {
  const set = document.createElement("fieldset");
  set.dataset.group = group;
  const legend = document.createElement("legend");
  legend.textContent = title;
  set.append(legend);
  for (const [name, prop] of Object.entries(schema.properties)) {
    set.append(field(name, prop, (schema.required || []).includes(name)));
  }
  return set;
}

function field(name, prop, required) {
  const optional = prop.anyOf && prop.anyOf.some((p) => p.type === "null");
  const base = optional ? prop.anyOf.find((p) => p.type !== "null") : prop;
  const labels = base.anyOf ? base.anyOf.find((p) => p.enum) : null;
  const number = base.anyOf ? base.anyOf.find((p) => p.type === "integer") : base;
  const row = document.createElement("div");
  row.className = "field";
  const label = document.createElement("label");
  label.textContent = (base.title || name) + (required ? " *" : "");
  let input;
  if (base.type === "boolean") {
    input = document.createElement("input");
    input.type = "checkbox";
    input.checked = base.default === true;
  } else if (base.enum) {
    input = document.createElement("select");
    if (optional) input.add(new Option("(none)", ""));
    for (const choice of base.enum) input.add(new Option(choice, choice));
    if (base.default !== undefined) input.value = base.default;
  } else {
    input = document.createElement("input");
    input.type = "text";
    if (base.default !== undefined) input.value = base.default;
    const hints = [];
    if (number && number.type === "integer") {
      if (number.minimum !== undefined) input.dataset.min = String(number.minimum);
      if (number.maximum !== undefined) input.dataset.max = String(number.maximum);
      if (number.minimum !== undefined || number.maximum !== undefined) {
        hints.push(`${number.minimum ?? ""}..${number.maximum ?? ""}`);
      }
    }
    if (labels) {
      const list = document.createElement("datalist");
      list.id = `labels-${name}-${Math.random().toString(36).slice(2)}`;
      for (const l of labels.enum) list.append(new Option(l));
      input.setAttribute("list", list.id);
      row.append(list);
      hints.push("or a label");
    }
    if (base.examples) hints.push("e.g. " + base.examples[0]);
    input.placeholder = hints.join(" ");
  }
  input.name = name;
  input.dataset.default = input.type === "checkbox" ? String(input.checked) : input.value;
  input.dataset.kind = base.type === "boolean" ? "boolean" : (number && number.type === "integer" ? "integer" : "text");
  label.htmlFor = input.id = `in-${Math.random().toString(36).slice(2)}`;
  row.append(label, input);
  if (base.description) {
    const help = document.createElement("small");
    help.textContent = base.description;
    row.append(help);
  }
  return row;
}

function values(set) {
  const out = {};
  for (const input of set.querySelectorAll("input, select")) {
    if (input.dataset.kind === "boolean") { out[input.name] = input.checked; continue; }
    const text = input.value.trim();
    if (text === "") continue; // left out: its default applies
    out[input.name] = input.dataset.kind === "integer" && /^-?\d+$/.test(text) ? Number(text) : text;
  }
  return out;
}

function request() {
  const body = { ...source(), name: $("runnable").value };
  const inputs = $("form").querySelector('fieldset[data-group="inputs"]');
  body.inputs = inputs ? values(inputs) : {};
  const parties = $("parties");
  if (parties) body.parties = [...parties.children].map(values);
  return body;
}

// ---- rolling and odds -------------------------------------------------------------------

async function roll() {
  showError(null);
  const body = request();
  body.seed = seedFrom($("seed"));
  let result;
  try { result = await api("api/roll", body); } catch (err) { showError(err); return; }
  const outcome = result.outcome === undefined ? undefined : outcomeLabel(result.outcome);
  const verdict = outcome === undefined ? "" :
    `\n→ ${outcome}` + (result.result === null || result.result === undefined ? "" : `, result ${result.result}`);
  $("trace").textContent = result.trace + verdict;
  $("trace").hidden = false;
  const n = logRoll({ kind: result.check ? "check" : "procedure", title: rollTitle(), request: body, result,
                      outcomeLabel: outcome });
  if (result.check) { // the headline chance of success beside the roll (the odds are cached by the service)
    const { seed, ...question } = body;
    api("api/odds", question).then((odds) => { if (odds.success) setChance(n, odds.success); }, () => {});
  }
}

function rollTitle() {
  const runnable = $("runnable").selectedOptions[0];
  return `${$("ruleset").value === EDITOR ? "your ruleset" : $("ruleset").value} · ${runnable ? runnable.textContent : ""}`;
}

async function odds() {
  showError(null);
  $("chart").replaceChildren(Object.assign(document.createElement("p"), { textContent: "working out the exact odds…" }));
  const ticket = choosing;
  try {
    const result = await api("api/odds", request());
    if (ticket !== choosing) return; // another check was chosen meanwhile
    drawOdds(result);
    oddsShown = true;
    saveState();
  } catch (err) {
    if (ticket === choosing) { $("chart").replaceChildren(); showError(err); }
  }
}

function drawOdds(result) {
  lastOdds = result;
  const chart = $("chart");
  chart.replaceChildren();
  if (result.success) {
    chart.append(el("p", { className: "headline", dataset: { probability: String(result.success.probability),
                                                              exact: result.success.exact } },
      "Chance of success ", el("strong", { textContent: percent(result.success.probability) }),
      ` (${result.success.exact})`));
  }
  if (result.outcomes) chart.append(table("Outcome", result.outcomes.map((o) => [o.name, o.probability, o.exact])));
  if (Array.isArray(result.result) && result.result.length) {
    const had = document.activeElement;
    chart.append(viewControls(checkChart, () => { drawOdds(lastOdds); saveState(); }),
                 distribution([{ name: "result", rows: normalize(result.result) }], checkChart, "Result"));
    focusChoice(chart, had);
  }
  const stats = result.stats && result.stats.result;
  if (stats && stats.mean !== undefined) {
    const p = document.createElement("p");
    const worked = stats.mean_kind === "of_mass_worked_out" ? " (of the mass worked out)" : "";
    const sdWorked = stats.variance_kind === "of_mass_worked_out" ? " (of the mass worked out)" : "";
    p.textContent = `mean ${stats.mean.toFixed(3)}${worked}, SD ${stats.sd.toFixed(3)}${sdWorked}, min ${stats.min}, max ${stats.max}`;
    chart.append(p);
  }
}

function table(title, rows) {
  const top = Math.max(...rows.map((r) => r[1]), 1e-12);
  const t = document.createElement("table");
  t.className = "odds outcomes";
  const head = t.insertRow();
  for (const h of [title, "chance", ""]) {
    const th = document.createElement("th");
    th.textContent = h;
    head.append(th);
  }
  for (const [name, p, exact] of rows) {
    const tr = t.insertRow();
    tr.dataset.outcome = name;
    tr.insertCell().textContent = outcomeLabel(name);
    const cell = tr.insertCell();
    cell.textContent = percent(p);
    cell.title = exact;
    cell.dataset.probability = String(p);
    cell.dataset.exact = exact;
    const bar = tr.insertCell();
    bar.className = "bar";
    const span = document.createElement("span");
    span.className = "fill";
    span.style.width = `${Math.max(1, Math.round(100 * p / top))}%`;
    bar.append(span);
  }
  const box = document.createElement("div");
  box.className = "scroll";
  box.append(t);
  return box;
}

// ---- the editor, validated as you type -----------------------------------------------------

let validating = 0;

function gutter(bad) {
  const lines = $("yaml").value.split("\n").length;
  const out = [];
  for (let i = 1; i <= lines; i++) {
    const span = document.createElement("span");
    span.textContent = String(i);
    span.dataset.line = String(i);
    if (bad.has(i)) span.className = "bad";
    out.push(span, document.createTextNode("\n"));
  }
  $("gutter").replaceChildren(...out);
  $("gutter").scrollTop = $("yaml").scrollTop;
}

async function validate() {
  const text = $("yaml").value;
  const ticket = ++validating;
  $("status").textContent = "checking…";
  let report;
  try { report = await api("api/validate", { yaml: text, path: "my-ruleset.yaml" }); } catch (err) {
    $("status").textContent = String(err.message || err);
    return;
  }
  if (ticket !== validating) return; // a later keystroke has its own answer coming
  const list = $("diagnostics");
  list.replaceChildren();
  const bad = new Set();
  for (const d of report.diagnostics) {
    const li = document.createElement("li");
    li.className = d.severity === "error" ? "error-item" : "warning-item";
    li.dataset.line = d.line ?? "";
    li.dataset.column = d.column ?? "";
    li.textContent = `${d.line ?? "?"}:${d.column ?? "?"} ${d.severity}[${d.code}] ${d.message}` + (d.hint ? ` — ${d.hint}` : "");
    li.tabIndex = 0; // reached and opened by keyboard too: Enter or the space bar goes to the place
    li.setAttribute("role", "button");
    li.addEventListener("click", () => goTo(d.line, d.column));
    li.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); goTo(d.line, d.column); }
    });
    list.append(li);
    if (d.line) bad.add(d.line);
  }
  gutter(bad);
  const errors = report.diagnostics.filter((d) => d.severity === "error").length;
  $("status").textContent = errors ? `${errors} error${errors > 1 ? "s" : ""}` : "valid";
  $("use").disabled = errors > 0 || !text.trim();
}

function goTo(line, column) {
  const text = $("yaml").value.split("\n");
  let offset = 0;
  for (let i = 0; i < (line || 1) - 1 && i < text.length; i++) offset += text[i].length + 1;
  offset += Math.max(0, (column || 1) - 1);
  $("yaml").focus();
  $("yaml").setSelectionRange(offset, offset);
}

const STARTER = `ruleset: my-system
name: My system
version: "1"
source: my own rules
license: CC-BY-4.0
checks:
  attack:
    inputs:
      bonus: {type: integer, min: -5, max: 15, help: the attack bonus}
    roll: 1d20
    result: roll + bonus
    outcomes:
      - {name: critical_hit, success: true, when: roll == 20}
      - {name: hit, success: true, when: result >= 15}
      - {name: miss, success: false}
`;

let timer = null;
$("yaml").value = STARTER;
$("yaml").addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(validate, 250); });
$("yaml").addEventListener("scroll", () => { $("gutter").scrollTop = $("yaml").scrollTop; });
$("use").addEventListener("click", async () => {
  editorYaml = $("yaml").value;
  await loadRulesets();
  $("ruleset").value = EDITOR;
  await chooseRuleset();
});
$("ruleset").addEventListener("change", chooseRuleset);
$("runnable").addEventListener("change", chooseRunnable);
$("roll").addEventListener("click", roll);
$("view-yaml").addEventListener("click", toggleSource);
$("edit-copy").addEventListener("click", editCopy);
$("odds").addEventListener("click", odds);
setUpRollLog();
setUpSweep();
Object.assign(sweep, { request, labelOf: outcomeLabel, onChange: saveState, describe: describeInputs });
diceBox.onRoll = logRoll;
Object.assign(diceBox.state, restoring.diceChart);
diceBox.onChange = saveState;
$("form").addEventListener("input", saveState);
$("form").addEventListener("change", saveState);
setUpDiceBox(() => seedFrom($("dice-seed")));
setExpressions(restoring.dice.length ? restoring.dice : ["2d6"]);
// A link pasted into this tab changes only the fragment: the page applies it as a load would.
window.addEventListener("hashchange", () => {
  restoring = readState();
  Object.assign(checkChart, restoring.chart);
  Object.assign(diceBox.state, restoring.diceChart);
  setExpressions(restoring.dice.length ? restoring.dice : ["2d6"]);
  if (!rulesets.length) return; // the rulesets are loading: they apply it
  if (rulesets.some((r) => r.id === restoring.ruleset)) $("ruleset").value = restoring.ruleset;
  chooseRuleset();
});
gutter(new Set());
loadRulesets().catch(showError);
validate();
