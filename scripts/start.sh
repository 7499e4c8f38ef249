#!/usr/bin/env bash
# npm start: fetch what is missing (Node 24, npm dependencies), then run the API and a worker
# on the embedded default (SQLite and files under ./data, or DOCSVC_DATA_DIR).
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$DOCSVC_ROOT"
exec node cli/bin/docsvc.js serve "$@"
