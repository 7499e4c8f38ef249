#!/usr/bin/env bash
# npm test: everything — lint and format check, typecheck, unit and integration suites (SQLite
# and PostgreSQL at DOCSVC_TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test).
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$DOCSVC_ROOT"
bash scripts/ensure-postgres.sh
echo "== lint"; npx biome check .
echo "== typecheck"; npx tsc --noEmit -p tsconfig.json
echo "== tests"; npx vitest run "$@"
