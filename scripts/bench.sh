#!/usr/bin/env bash
# npm run bench: render throughput and latency next to raw Chromium; writes bench/RESULTS.md.
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$DOCSVC_ROOT"
exec node bench/src/render-bench.ts "$@"
