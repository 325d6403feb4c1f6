#!/usr/bin/env bash
# Generates TypeScript types from the service's OpenAPI document and compiles the client that
# uses them, and its tests, under tsc --strict, into dist/: what a TypeScript front end does first.
#   usage: clients/typescript/check.sh http://127.0.0.1:8000/openapi.json   (or a saved openapi.json)
# then, against a running service:  RULESENGINE_URL=http://127.0.0.1:8000 npm test
# Needs npm (it installs the pinned packages of package.json into node_modules/ here).
set -euo pipefail
cd "$(dirname "$0")"
document="${1:?usage: check.sh OPENAPI-URL-OR-FILE}"
npm install --silent --no-audit --no-fund
# --empty-objects-unknown: an object schema without properties (a ruleset's inputs) is a
# Record<string, unknown>, not Record<string, never>.
npx --no-install openapi-typescript "$document" --empty-objects-unknown --output rulesengine.d.ts
# The client alone, with the DOM's fetch and no Node types (it runs in a browser too); then its tests.
npx --no-install tsc -p tsconfig.json
npx --no-install tsc -p tsconfig.test.json
echo "check.sh: the types generated from $document compile with client.ts and its tests under tsc --strict (dist/)"
