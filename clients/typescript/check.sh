#!/usr/bin/env bash
# Generates TypeScript types from the service's OpenAPI document and type-checks a tiny client
# that uses them, under tsc --strict: what a TypeScript front end does first.
#   usage: clients/typescript/check.sh http://127.0.0.1:8000/openapi.json   (or a saved openapi.json)
# Needs npm (it installs the two pinned packages of package.json into node_modules/ here).
set -euo pipefail
cd "$(dirname "$0")"
document="${1:?usage: check.sh OPENAPI-URL-OR-FILE}"
npm install --silent --no-audit --no-fund
# --empty-objects-unknown: an object schema without properties (a ruleset's inputs) is a
# Record<string, unknown>, not Record<string, never>.
npx --no-install openapi-typescript "$document" --empty-objects-unknown --output rulesengine.d.ts
npx --no-install tsc --strict --noEmit -p .
echo "check.sh: the types generated from $document compile with client.ts under tsc --strict"
