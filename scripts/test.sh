#!/usr/bin/env bash
# npm test: everything — lint and format check, typecheck, unit and integration suites (SQLite
# and PostgreSQL at DOCSVC_TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test).
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$DOCSVC_ROOT"
bash scripts/ensure-postgres.sh
echo "== lint"; npx biome check .
echo "== typecheck"; npx tsc --noEmit -p tsconfig.json
# the example plugins are JavaScript outside the workspaces; their JSDoc types checked against the SDK
for example in examples/*/; do npx tsc --noEmit -p "$example"; done
echo "== tests"; npx vitest run "$@"
