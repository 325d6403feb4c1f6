// The page's state in its URL (the fragment, so it never reaches the server's logs): the
// ruleset, the check or procedure, its inputs (in.NAME) and each party's (p1.NAME, ...), whether
// its odds are shown, how charts are viewed, the sweep, and the dice box's expressions. A link
// shares the view; a reload restores it. The editor's ruleset is not kept (it may be long).
import { SHOWS, VIEWS } from "./chart.js";

const CHART_DEFAULTS = { view: "normal", show: "bars" };
// A link is anyone's text: it may ask for at most this many dice expressions (each is a request).
export const MAX_DICE_EXPRESSIONS = 12;
const oneOf = (value, choices) => (value in choices ? value : Object.keys(choices)[0]);

export function readState(hash = location.hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const state = { ruleset: params.get("ruleset"), check: params.get("check"), inputs: {}, parties: [],
                  odds: params.get("odds") === "1", dice: params.getAll("dice").slice(0, MAX_DICE_EXPRESSIONS),
                  chart: { view: oneOf(params.get("view"), VIEWS), show: oneOf(params.get("show"), SHOWS) },
                  diceChart: { view: oneOf(params.get("dice.view"), VIEWS), show: oneOf(params.get("dice.show"), SHOWS) },
                  sweep: params.get("sweep"), from: params.get("from"), to: params.get("to") };
  for (const [key, value] of params) {
    if (key.startsWith("in.")) state.inputs[key.slice(3)] = value;
    const party = /^p(\d+)\.(.*)$/.exec(key);
    if (party && Number(party[1]) >= 1 && Number(party[1]) <= 100) {
      while (state.parties.length < Number(party[1])) state.parties.push({});
      if (party[2]) state.parties[Number(party[1]) - 1][party[2]] = value;
    }
  }
  return state;
}

export function writeState(state) {
  const params = new URLSearchParams();
  if (state.ruleset) params.set("ruleset", state.ruleset);
  if (state.check) params.set("check", state.check);
  for (const [name, value] of Object.entries(state.inputs || {})) params.append(`in.${name}`, value);
  (state.parties || []).forEach((party, k) => {
    const entries = Object.entries(party);
    if (!entries.length) params.append(`p${k + 1}.`, ""); // the party is there, all its inputs left as they are
    for (const [name, value] of entries) params.append(`p${k + 1}.${name}`, value);
  });
  if (state.odds) params.set("odds", "1");
  for (const [key, value] of Object.entries(state.chart || {})) if (value !== CHART_DEFAULTS[key]) params.set(key, value);
  for (const [key, value] of Object.entries(state.diceChart || {})) {
    if (value !== CHART_DEFAULTS[key]) params.set(`dice.${key}`, value);
  }
  if (state.sweep) {
    params.set("sweep", state.sweep);
    if (state.from !== undefined && state.from !== "") params.set("from", state.from);
    if (state.to !== undefined && state.to !== "") params.set("to", state.to);
  }
  for (const expression of state.dice || []) params.append("dice", expression);
  const hash = params.toString();
  if (hash !== location.hash.replace(/^#/, "")) history.replaceState(null, "", hash ? `#${hash}` : location.pathname);
}
