// A front end in JavaScript talking to `rulesengine serve`, with Node's standard library only
// (Node 18+: the global fetch). It lists the rulesets and checks, prints one check's input
// form as fields, rolls the check with a seed and prints the trace, then prints its exact odds.
//
//   rulesengine serve --port 8000 &
//   node examples/node-client.mjs http://127.0.0.1:8000 gurps-4e success_roll skill=12
//
// Arguments: the service's address, then optionally a ruleset id, a check and name=value inputs.

const [base = "http://127.0.0.1:8000", rulesetArg, checkArg, ...assignments] = process.argv.slice(2);

async function call(method, path, body) {
  const response = await fetch(new URL(path, base), {
    method,
    headers: body ? { "content-type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json();
  if (!response.ok) {
    // Every error is a problem object with the engine's code, message and hint.
    throw new Error(`${response.status} ${data.code}: ${data.detail}${data.hint ? ` (${data.hint})` : ""}`);
  }
  return data;
}

function describe(name, prop, required) {
  const base = prop.anyOf?.find((p) => p.type !== "null" && !p.enum) ?? prop;
  const labels = prop.anyOf?.find((p) => p.enum)?.enum ?? base.anyOf?.find((p) => p.enum)?.enum;
  let kind = base.type ?? "value";
  if (base.enum) kind = `one of ${base.enum.join(", ")}`;
  if (base.minimum !== undefined || base.maximum !== undefined) kind += ` ${base.minimum ?? ""}..${base.maximum ?? ""}`;
  if (labels) kind += ` or a label (${labels.slice(0, 4).join(", ")}${labels.length > 4 ? ", ..." : ""})`;
  const extra = [required ? "required" : `default ${JSON.stringify(prop.default ?? null)}`];
  return `  ${(prop.title ?? name).padEnd(16)} ${kind} [${extra}]${prop.description ? ` - ${prop.description}` : ""}`;
}

function parseInputs(words) {
  const inputs = {};
  for (const word of words) {
    const [name, ...rest] = word.split("=");
    const value = rest.join("=");
    inputs[name] = /^-?\d+$/.test(value) ? Number(value) : value === "true" ? true : value === "false" ? false : value;
  }
  return inputs;
}

async function main() {
  const rulesets = await call("GET", "/api/rulesets");
  console.log("rulesets:");
  for (const r of rulesets) console.log(`  ${r.id}: ${r.name} — checks: ${r.checks.join(", ")}`);

  const ruleset = rulesetArg ?? rulesets[0].id;
  const check = checkArg ?? rulesets.find((r) => r.id === ruleset).checks[0];
  const form = await call("GET", `/api/rulesets/${encodeURIComponent(ruleset)}/forms/${encodeURIComponent(check)}`);
  console.log(`\nform of ${ruleset} / ${form.title}:`);
  const fields = form.properties.inputs;
  for (const [name, prop] of Object.entries(fields.properties)) console.log(describe(name, prop, fields.required.includes(name)));

  const inputs = parseInputs(assignments);
  for (const name of fields.required) {  // what the user left out: the least a form would accept
    const prop = fields.properties[name];
    if (!(name in inputs)) inputs[name] = prop.examples?.[0] ?? prop.enum?.[0] ?? prop.minimum ?? prop.anyOf?.[0]?.minimum ?? 0;
  }
  const rolled = await call("POST", "/api/roll", { ruleset, name: check, inputs, seed: 1 });
  console.log(`\nroll with ${JSON.stringify(rolled.inputs)}, seed 1:\n${rolled.trace}`);
  console.log(`outcome: ${rolled.outcome}, result ${JSON.stringify(rolled.result)}`);

  const odds = await call("POST", "/api/odds", { ruleset, name: check, inputs });
  console.log("\nexact odds:");
  for (const o of odds.outcomes) console.log(`  ${o.name.padEnd(20)} ${(100 * o.probability).toFixed(2).padStart(6)}%  (${o.exact})`);
}

main().catch((err) => {
  console.error(`node-client: ${err.message}`);
  process.exit(1);
});
