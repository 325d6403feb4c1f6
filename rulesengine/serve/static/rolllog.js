// The roll log: every roll of the session (checks, procedures, dice), newest on top, each with
// its seed (the page picks one when none is given, so every roll can be repeated), its dice
// (expandable), its trace, a check's chance of success, and its JSON ({request, result}) to copy.
// Kept in sessionStorage: a reload of the tab keeps the session's rolls.
import { $, button, el, percent } from "./api.js";

const KEY = "rulesengine-playground-log";
const KEEP = 200; // the newest rolls kept
let entries = load();

function load() {
  try { return JSON.parse(sessionStorage.getItem(KEY) || "[]"); } catch { return []; }
}

function save() {
  try { sessionStorage.setItem(KEY, JSON.stringify(entries.slice(0, KEEP))); } catch { /* storage full or off */ }
}

// A seed for a roll: the one typed, or a fresh one the log will show.
export function seedFrom(input) {
  const text = input.value.trim();
  return text === "" ? Math.floor(Math.random() * 2 ** 31) : Number(text);
}

// entry: {kind: "check" | "procedure" | "dice", title, request, result, outcomeLabel?}; returns its number.
export function logRoll(entry) {
  const n = (entries.length ? entries[0].n : 0) + 1;
  entries.unshift({ n, ...entry });
  entries = entries.slice(0, KEEP);
  save();
  $("log-list").prepend(render(entries[0]));
  $("log-count").textContent = count();
  return n;
}

// A check's chance of success, once the odds are worked out, shown with its roll.
export function setChance(n, success) {
  const entry = entries.find((e) => e.n === n);
  if (!entry) return;
  entry.success = success;
  save();
  const li = document.querySelector(`#log-list li[data-n="${n}"]`);
  if (li) li.querySelector(".chance").replaceWith(chance(entry));
}

function count() {
  return entries.length ? `${entries.length} roll${entries.length > 1 ? "s" : ""} this session` : "no rolls yet";
}

function verdict(entry) {
  const r = entry.result;
  if (entry.kind === "dice") return String(r.total);
  if (r.outcome !== undefined) {
    const result = r.result === null || r.result === undefined ? "" : `, result ${r.result}`;
    return `${entry.outcomeLabel ?? r.outcome}${result}`;
  }
  if (r.winner !== undefined) return r.tie ? "a tie" : `party ${r.winner} wins`;
  return "";
}

function chance(entry) {
  const p = el("p", { className: "chance" });
  if (entry.success) {
    p.textContent = `P(success) ${percent(entry.success.probability)} (${entry.success.exact})`;
    p.dataset.probability = String(entry.success.probability);
    p.dataset.exact = entry.success.exact;
  }
  return p;
}

function diceList(entry) {
  const dice = entry.result.dice
    || (entry.result.parties || []).flatMap((party, k) => (party.dice || []).map((d) => ({ ...d, party: k + 1 })));
  if (!dice.length) return null;
  return el("details", { className: "dice" }, el("summary", { textContent: `dice (${dice.length})` }),
    el("ul", {}, ...dice.map((d) => el("li", { className: d.kept === false ? "dropped" : "",
      textContent: `${d.party ? `party ${d.party}, ` : ""}${d.roll ? d.roll + ": " : ""}${d.term}: ${d.face}`
        + (String(d.value) !== String(d.face) ? ` (value ${d.value})` : "") + (d.kept === false ? " — dropped" : "") }))));
}

function json(entry) {
  return JSON.stringify({ request: entry.request, result: entry.result }, null, 2);
}

async function copy(entry, status) {
  const text = json(entry);
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = "copied";
  } catch {
    status.textContent = "the browser refused the clipboard: select the JSON below and copy it";
    const details = status.closest("li").querySelector("details.json");
    details.open = true;
    window.getSelection().selectAllChildren(details.querySelector("pre"));
  }
}

function render(entry) {
  const status = el("span", { className: "muted copied", "aria-live": "polite" });
  const seed = entry.request.seed === undefined ? "physical dice" : `seed ${entry.request.seed}`;
  const li = el("li", { className: "log-entry", dataset: { n: String(entry.n) } },
    el("p", { className: "log-head" },
      el("strong", { textContent: `#${entry.n} ` }), el("span", { className: "what", textContent: entry.title }),
      " → ", el("span", { className: "verdict", textContent: verdict(entry) })),
    el("p", { className: "seed muted", textContent: seed }),
    chance(entry),
    entry.result.trace ? el("pre", { className: "trace", textContent: entry.result.trace }) : null,
    diceList(entry),
    el("div", { className: "row" }, button("Copy as JSON", () => copy(entry, status), "secondary"), status),
    el("details", { className: "json" }, el("summary", { textContent: "JSON" }), el("pre", { textContent: json(entry) })));
  return li;
}

export function setUpRollLog() {
  $("log-list").replaceChildren(...entries.map(render));
  $("log-count").textContent = count();
  $("log-clear").addEventListener("click", () => {
    entries = [];
    save();
    $("log-list").replaceChildren();
    $("log-count").textContent = count();
  });
}
