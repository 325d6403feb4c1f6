// A tiny client of `rulesengine serve`, written only against the types openapi-typescript
// generates from GET /openapi.json (rulesengine.d.ts, made by check.sh). If the document's
// components stop resolving or stop meaning what the service answers, this stops compiling.
import type { components, paths } from "./rulesengine";

type Schemas = components["schemas"];
export type RollRequest = paths["/api/roll"]["post"]["requestBody"]["content"]["application/json"];
export type RollResult = paths["/api/roll"]["post"]["responses"]["200"]["content"]["application/json"];
export type CheckRoll = Schemas["roll-result__check_roll"];
export type OddsRequest = paths["/api/odds"]["post"]["requestBody"]["content"]["application/json"];
export type OddsAnswer = paths["/api/odds"]["post"]["responses"]["200"]["content"]["application/json"];
export type Problem = Schemas["problem"];

export class ServiceError extends Error {
  constructor(readonly problem: Problem) {
    super(`${problem.code}: ${problem.detail}${problem.hint ? ` (${problem.hint})` : ""}`);
  }
}

async function post<T>(base: string, path: keyof paths, body: unknown): Promise<T> {
  const response = await fetch(base + path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new ServiceError((await response.json()) as Problem);
  return (await response.json()) as T;
}

export const roll = (base: string, request: RollRequest) => post<RollResult>(base, "/api/roll", request);
export const odds = (base: string, request: OddsRequest) => post<OddsAnswer>(base, "/api/odds", request);

/** A check's roll in one line: "success_roll: success [2, 5, 1]". */
export function describe(check: CheckRoll): string {
  const faces = check.dice.filter((die) => die.kept).map((die) => die.face);
  return `${check.check}: ${check.outcome} [${faces.join(", ")}]`;
}

/** The exact chance of success of one odds answer (a sweep gives one per row). */
export function chances(answer: OddsAnswer): string[] {
  const rows = Array.isArray(answer) ? answer : [answer];
  return rows.map((row) => row.success?.exact ?? "no success outcome");
}

export async function example(base: string): Promise<void> {
  const rolled = await roll(base, { ruleset: "gurps-4e", name: "success_roll", inputs: { skill: 12 }, seed: 1 });
  if ("check" in rolled && typeof rolled.check === "string") console.log(describe(rolled as CheckRoll));
  console.log(chances(await odds(base, { ruleset: "gurps-4e", name: "success_roll", inputs: { skill: [8, 12] } })));
}
