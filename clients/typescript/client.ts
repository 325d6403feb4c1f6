// A TypeScript client of `rulesengine serve` (docs/service.md): one method per operation of the
// service's OpenAPI document, each typed by what openapi-typescript generates from it
// (rulesengine.d.ts, made by check.sh from GET /openapi.json). No runtime dependency: the
// standard `fetch` of browsers, Node 18+, Deno and Bun.
//
//   const rules = new RulesEngine("http://127.0.0.1:8000");
//   const rolled = await rules.roll({ ruleset: "gurps-4e", name: "success_roll", inputs: { skill: 12 }, seed: 1 });
//
// An error of the service (an RFC 9457 problem object, docs/service.md "Errors") is thrown as a
// `Problem`, with the engine's code (E601, E702, ...), hint and place. Any other failed answer
// (a proxy's page, say) is an `Error` saying so; a network failure is fetch's own TypeError.
import type { components, operations } from "./rulesengine.js";

type Schemas = components["schemas"];
type Operation = keyof operations;

/** The JSON body an operation takes. */
export type Body<Op extends Operation> =
  operations[Op] extends { requestBody: { content: { "application/json": infer B } } } ? B : never;

/** What an operation answers with 200, as JSON. */
export type Answer<Op extends Operation> =
  operations[Op]["responses"] extends { 200: { content: { "application/json": infer A } } } ? A : never;

export type ProblemDetails = Schemas["problem"];
export type RollRequest = Body<"roll">;
export type RollResult = Answer<"roll">;
export type CheckRoll = Schemas["roll-result__check_roll"];
export type OddsRequest = Body<"odds">;
export type OddsResult = Schemas["odds-result"];
export type DiceRollResult = Answer<"dice_roll">;
export type DiceOddsResult = Answer<"dice_odds">;
export type RulesetSummary = Answer<"listRulesets">[number];
export type Export = Answer<"exportRuleset">;

/** An error the service answered: its problem object's fields, and the object itself. */
export class Problem extends Error {
  override readonly name = "Problem";
  readonly status: number;
  /** The engine's code (docs/errors.md): E701 a malformed request, E702 not found, E601 a bad input, ... */
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  /** What to do about it, when the engine knows. */
  readonly hint: string | null;
  /** Where, in a ruleset or request: file name, line, column, JSON pointer (null where none). */
  readonly path: string | null;
  readonly line: number | null;
  readonly column: number | null;
  readonly pointer: string | null;
  /** The limit an E210 hit (max_states, time_limit, ...), else null. */
  readonly limit: string | null;

  constructor(readonly problem: ProblemDetails) {
    super(`${problem.code}: ${problem.detail}${problem.hint ? ` (${problem.hint})` : ""}`);
    this.status = problem.status;
    this.code = problem.code;
    this.title = problem.title;
    this.detail = problem.detail;
    this.hint = problem.hint ?? null;
    this.path = problem.path ?? null;
    this.line = problem.line ?? null;
    this.column = problem.column ?? null;
    this.pointer = problem.pointer ?? null;
    this.limit = problem.limit ?? null;
  }
}

/** Every operationId of the document is a method of the client: a new one stops this compiling. */
type EveryOperation = { [Op in Operation]: (...args: never[]) => Promise<unknown> };

export class RulesEngine implements EveryOperation {
  private readonly base: string;

  /** `base`: the service's address, e.g. "http://127.0.0.1:8000" (a path prefix is kept). */
  constructor(base: string | URL) {
    this.base = String(base).replace(/\/+$/, "");
  }

  /** The rulesets this service has (POST /api/list). */
  list(): Promise<Answer<"list">> {
    return this.call("POST", "/api/list", {});
  }
  /** A ruleset as export format 1 (POST /api/export): by id, or YAML text of your own. */
  export(request: Body<"export">): Promise<Answer<"export">> {
    return this.call("POST", "/api/export", request);
  }
  /** A ruleset's YAML text and file name (POST /api/source): by id, as the service loaded it. */
  source(request: Body<"source">): Promise<Answer<"source">> {
    return this.call("POST", "/api/source", request);
  }
  /** The input form of a check or procedure, a JSON Schema of {inputs, parties} (POST /api/form). */
  form(request: Body<"form">): Promise<Answer<"form">> {
    return this.call("POST", "/api/form", request);
  }
  /** Roll a check or procedure once: a seed repeats a roll, faces read physical dice. */
  roll(request: RollRequest): Promise<RollResult> {
    return this.call("POST", "/api/roll", request);
  }
  /** Exact odds of a check or procedure; a list as an input's value sweeps it (then a list of answers). */
  odds(request: OddsRequest): Promise<Answer<"odds">> {
    return this.call("POST", "/api/odds", request);
  }
  /** Roll a dice expression, with its trace. */
  dice_roll(request: Body<"dice_roll">): Promise<DiceRollResult> {
    return this.call("POST", "/api/dice_roll", request);
  }
  /** Exact odds of a dice expression. */
  dice_odds(request: Body<"dice_odds">): Promise<DiceOddsResult> {
    return this.call("POST", "/api/dice_odds", request);
  }
  /** Every diagnostic of ruleset YAML text, with its line and column (an answer, not a Problem). */
  validate(request: Body<"validate">): Promise<Answer<"validate">> {
    return this.call("POST", "/api/validate", request);
  }
  /** The rulesets this service has (GET /api/rulesets). */
  listRulesets(): Promise<Answer<"listRulesets">> {
    return this.call("GET", "/api/rulesets");
  }
  /** A ruleset of the service as export format 1 (GET /api/rulesets/{rid}). */
  exportRuleset(rid: string): Promise<Export> {
    return this.call("GET", `/api/rulesets/${encodeURIComponent(rid)}`);
  }
  /** A ruleset of the service as its YAML text (GET /api/rulesets/{rid}/source). */
  rulesetSource(rid: string): Promise<Answer<"rulesetSource">> {
    return this.call("GET", `/api/rulesets/${encodeURIComponent(rid)}/source`);
  }
  /** The input form of a ruleset's check or procedure (GET /api/rulesets/{rid}/forms/{name}). */
  inputForm(rid: string, name: string): Promise<Answer<"inputForm">> {
    return this.call("GET", `/api/rulesets/${encodeURIComponent(rid)}/forms/${encodeURIComponent(name)}`);
  }
  /** Whether the service is up, and its version (GET /healthz). */
  health(): Promise<Answer<"health">> {
    return this.call("GET", "/healthz");
  }
  /** Whether it has loaded its rulesets (GET /readyz); while it has not, a Problem E704 (503). */
  ready(): Promise<Answer<"ready">> {
    return this.call("GET", "/readyz");
  }
  /** Prometheus metrics, as text (GET /metrics). */
  async metrics(): Promise<string> {
    return (await this.send("GET", "/metrics")).text();
  }

  private async call<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
    return (await (await this.send(method, path, body)).json()) as T;
  }

  private async send(method: "GET" | "POST", path: string, body?: unknown): Promise<Response> {
    const response = await fetch(this.base + path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.ok) return response;
    const text = await response.text();
    if ((response.headers.get("content-type") ?? "").startsWith("application/problem+json")) {
      throw new Problem(JSON.parse(text) as ProblemDetails);
    }
    throw new Error(`${method} ${path}: HTTP ${response.status}, not a problem object of the service: ${text.slice(0, 200)}`);
  }
}

/** A roll of a check (not of a procedure): it names its check. */
export function isCheckRoll(rolled: RollResult): rolled is CheckRoll {
  return "check" in rolled && typeof rolled.check === "string";
}

/** A contest's roll: its parties' rolls, the winner (1-based; null for a tie). */
export type ContestRoll = Extract<RollResult, { winner: number | null }>;
export function isContestRoll(rolled: RollResult): rolled is ContestRoll {
  return "winner" in rolled && "parties" in rolled;
}

/** One odds answer per value swept; a single answer is a list of one. */
export function sweep(answer: Answer<"odds">): OddsResult[] {
  return Array.isArray(answer) ? answer : [answer];
}
