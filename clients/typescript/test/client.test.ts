// The client against a running `rulesengine serve` at RULESENGINE_URL (tests/serve/
// test_typescript_client.py starts one and runs these with `node --test`). Every exact figure
// comes from an enumeration written here, never from the service's own answers.
import assert from "node:assert/strict";
import { test } from "node:test";

import { isCheckRoll, isContestRoll, Problem, RulesEngine, sweep } from "../client.js";
import type { CheckRoll } from "../client.js";

const base = process.env["RULESENGINE_URL"];
if (!base) throw new Error("RULESENGINE_URL: set it to the address of a running `rulesengine serve`");
const rules = new RulesEngine(base);

// ---- oracles ------------------------------------------------------------------------------------

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
const fraction = (n: number, d: number): string => `${n / gcd(n, d)}/${d / gcd(n, d)}`;

/** Every way n dice of `sides` fall, as their faces (sides ** n lists). */
function outcomes(n: number, sides: number): number[][] {
  let all: number[][] = [[]];
  for (let i = 0; i < n; i++) all = all.flatMap((faces) => Array.from({ length: sides }, (_, f) => [...faces, f + 1]));
  return all;
}
const sum = (faces: number[]): number => faces.reduce((a, b) => a + b, 0);

/** GURPS 4e, Basic Set p. 347-348: a success roll of 3d6 against effective skill. */
function gurps(roll: number, skill: number): { outcome: string; success: boolean; margin: number } {
  const margin = skill - roll;
  if (roll <= 4 || (roll === 5 && skill >= 15) || (roll === 6 && skill >= 16)) return { outcome: "critical_success", success: true, margin };
  if (roll === 18 || (roll === 17 && skill <= 15) || roll - skill >= 10) return { outcome: "critical_failure", success: false, margin };
  if (roll <= 16 && roll <= skill) return { outcome: "success", success: true, margin };
  return { outcome: "failure", success: false, margin };
}

/** A Quick Contest: a success beats a failure, then the larger margin wins; else a tie. 0 = tie. */
function quickContest(a: ReturnType<typeof gurps>, b: ReturnType<typeof gurps>): 0 | 1 | 2 {
  if (a.success !== b.success) return a.success ? 1 : 2;
  return a.margin === b.margin ? 0 : a.margin > b.margin ? 1 : 2;
}

const GURPS = { ruleset: "gurps-4e", name: "success_roll" } as const;

// ---- roll ---------------------------------------------------------------------------------------

test("a roll with a seed is the same roll every time it is asked for", async () => {
  const first = await rules.roll({ ...GURPS, inputs: { skill: 12 }, seed: 1 });
  const again = await rules.roll({ ...GURPS, inputs: { skill: 12 }, seed: 1 });
  assert.deepEqual(again, first);
});

test("a check's roll reads as its dice say: result is skill minus the 3d6, outcome by the rules", async () => {
  const rolled = await rules.roll({ ...GURPS, inputs: { skill: 12 }, seed: 7 });
  assert.ok(isCheckRoll(rolled));
  const check: CheckRoll = rolled;
  const faces = check.dice.filter((die) => die.kept).map((die) => die.face as number);
  assert.equal(faces.length, 3);
  assert.equal(check.result, 12 - sum(faces));
  assert.equal(check.outcome, gurps(sum(faces), 12).outcome);
});

test("a roll of physical dice: the faces given are the faces read", async () => {
  const rolled = await rules.dice_roll({ expression: "2d6+1", faces: [3, 4] });
  assert.equal(rolled.total, 3 + 4 + 1);
  assert.deepEqual(rolled.dice.map((die) => die.face), [3, 4]);
});

// ---- odds ---------------------------------------------------------------------------------------

test("the odds of a shipped check are the enumeration of its 3d6, outcome by outcome", async () => {
  const [answer] = sweep(await rules.odds({ ...GURPS, inputs: { skill: 12 } }));
  assert.ok(answer);
  const rolls = outcomes(3, 6).map(sum);
  const count = (outcome: string) => rolls.filter((roll) => gurps(roll, 12).outcome === outcome).length;
  for (const row of answer.outcomes) assert.equal(row.exact, fraction(count(row.name), rolls.length), row.name);
  const successes = rolls.filter((roll) => gurps(roll, 12).success).length;
  assert.equal(answer.success?.exact, fraction(successes, rolls.length));
  assert.equal(fraction(successes, rolls.length), "20/27"); // the closed form: 160 of 3d6's 216 are at most 12
});

test("a list as an input's value sweeps it: one answer per value, in order", async () => {
  const answers = sweep(await rules.odds({ ...GURPS, inputs: { skill: [8, 12] } }));
  const rolls = outcomes(3, 6).map(sum);
  assert.deepEqual(answers.map((a) => a.success?.exact),
    [8, 12].map((skill) => fraction(rolls.filter((roll) => gurps(roll, skill).success).length, rolls.length)));
});

test("the odds of a dice expression are the enumeration of its dice", async () => {
  const odds = await rules.dice_odds({ expression: "2d6" });
  assert.ok(!Array.isArray(odds) && "distribution" in odds); // one expression (not a comparison, not cases)
  const totals = outcomes(2, 6).map(sum);
  assert.deepEqual(odds.distribution.map((row) => [row.value, row.exact]),
    [...new Set(totals)].sort((a, b) => a - b).map((v) => [v, fraction(totals.filter((t) => t === v).length, 36)]));
});

// ---- a procedure --------------------------------------------------------------------------------

test("a procedure's roll: a Quick Contest's winner is the party the contest's rule picks", async () => {
  const request = { ruleset: "gurps-4e", name: "quick_contest", parties: [{ skill: 12 }, { skill: 10 }], seed: 4 };
  const rolled = await rules.roll(request);
  assert.ok(isContestRoll(rolled));
  assert.deepEqual(await rules.roll(request), rolled);
  const [a, b] = rolled.parties.map((party, i) => gurps(sum(party.dice.map((die) => die.face as number)), [12, 10][i]!));
  const winner = quickContest(a!, b!);
  assert.equal(rolled.tie, winner === 0);
  assert.equal(rolled.winner, winner === 0 ? null : winner);
});

test("a procedure's odds: a Quick Contest at 12 against 10 is the enumeration of both parties' 3d6", async () => {
  const [answer] = sweep(await rules.odds({ ruleset: "gurps-4e", name: "quick_contest", parties: [{ skill: 12 }, { skill: 10 }] }));
  assert.ok(answer);
  const wins = [0, 0, 0];
  const rolls = outcomes(3, 6).map(sum);
  for (const x of rolls) for (const y of rolls) wins[quickContest(gurps(x, 12), gurps(y, 10))]! += 1;
  const total = rolls.length ** 2;
  const exact = Object.fromEntries(answer.outcomes.map((row) => [row.name, row.exact]));
  assert.deepEqual(exact, {
    party1_wins: fraction(wins[1]!, total), party2_wins: fraction(wins[2]!, total), tie: fraction(wins[0]!, total),
  });
});

// ---- errors as Problem --------------------------------------------------------------------------

test("an input the check does not take is thrown as a Problem E601 (422) with a hint naming the fix", async () => {
  const error = await rules.roll({ ...GURPS, inputs: { skil: 12 } }).catch((e: unknown) => e);
  assert.ok(error instanceof Problem, String(error));
  assert.equal(error.code, "E601");
  assert.equal(error.status, 422);
  assert.match(error.hint ?? "", /skill/);
  assert.equal(error.problem.type, "urn:ttrpg-rulesengine:error:E601");
});

test("a malformed request is a Problem E701 (400); an unknown ruleset a Problem E702 (404)", async () => {
  // @ts-expect-error: the generated types refuse the unknown field too
  const malformed = await rules.roll({ ...GURPS, seed: 1, bogus: 1 }).catch((e: unknown) => e);
  assert.ok(malformed instanceof Problem);
  assert.deepEqual([malformed.code, malformed.status], ["E701", 400]);
  const missing = await rules.exportRuleset("no-such-ruleset").catch((e: unknown) => e);
  assert.ok(missing instanceof Problem);
  assert.deepEqual([missing.code, missing.status], ["E702", 404]);
});

test("a broken ruleset sent to validate is an answer with its diagnostics, at their line", async () => {
  const answer = await rules.validate({ yaml: "ruleset: mine\nchecks: {}\n", path: "mine.yaml" });
  const missing = answer.diagnostics.filter((d) => d.code === "E403" && /'name'/.test(d.message));
  assert.equal(missing.length, 1);
  assert.deepEqual([missing[0]!.path, missing[0]!.line], ["mine.yaml", 1]);
});

// ---- the read-only operations -------------------------------------------------------------------

test("list, listRulesets, export, exportRuleset, form and inputForm agree with each other", async () => {
  const listed = await rules.listRulesets();
  assert.deepEqual(await rules.list(), listed);
  const gurps4e = listed.find((r) => r.id === "gurps-4e");
  assert.ok(gurps4e?.checks.includes("success_roll") && gurps4e.procedures.includes("quick_contest"));
  const exported = await rules.exportRuleset("gurps-4e");
  assert.deepEqual(await rules.export({ ruleset: "gurps-4e" }), exported);
  assert.equal(exported.format, 1);
  const form = await rules.inputForm("gurps-4e", "success_roll");
  assert.deepEqual(await rules.form({ ruleset: "gurps-4e", name: "success_roll" }), form);
  const inputs = (form["properties"] as { inputs: { properties: Record<string, { type?: string }> } }).inputs;
  assert.equal(inputs.properties["skill"]?.type, "integer");
});

test("source and rulesetSource give the ruleset's own YAML text", async () => {
  const text = await rules.rulesetSource("gurps-4e");
  assert.deepEqual(await rules.source({ ruleset: "gurps-4e" }), text);
  assert.equal(text.file, "gurps-4e.yaml");
  assert.match(text.yaml, /^ruleset: gurps-4e$/m);
  const missing = await rules.rulesetSource("no-such-ruleset").catch((e: unknown) => e);
  assert.ok(missing instanceof Problem && missing.status === 404);
});

test("health, ready and metrics answer what an operator reads", async () => {
  const health = await rules.health();
  assert.equal(health.status, "ok");
  const ready = await rules.ready();
  assert.equal(ready.rulesets, (await rules.listRulesets()).length);
  assert.match(await rules.metrics(), /^rulesengine_requests_total\{/m);
});
