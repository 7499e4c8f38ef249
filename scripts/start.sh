#!/usr/bin/env bash
# npm start: fetch what is missing (Node 24, npm dependencies), then run the API and a worker
# on the embedded default (SQLite and files under ./data, or DOCSVC_DATA_DIR).
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
# Chromium and the PDF tools; a machine without root keeps going and renders fail with a clear error
bash "$DOCSVC_ROOT/scripts/ensure-debian-packages.sh" || echo "docsvc: could not install Debian packages; renders need chromium" >&2
cd "$DOCSVC_ROOT"
exec node cli/bin/docsvc.js serve "$@"
