#!/usr/bin/env bash
# npm run bench: every benchmark of bench/, each next to its baseline measured in the same run
# (raw Chromium, in-process liquidjs, the qpdf CLI, a bare HTTP loop). Each one's markdown goes
# to bench/results/<name>.md and bench/RESULTS.md gathers them all.
# `npm run bench -- canvas liquid` runs only the named ones: render, liquid, canvas, pdf-tools, pdf-pool, pdfa, webhook, test-mark, cli-start.
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$DOCSVC_ROOT"
all=(render liquid canvas pdf-tools pdf-pool pdfa webhook test-mark cli-start)
wanted=("$@")
[ ${#wanted[@]} -eq 0 ] && wanted=("${all[@]}")
mkdir -p bench/results
for name in "${wanted[@]}"; do
  echo "docsvc bench: $name" >&2
  out="$(node "bench/src/$name-bench.ts")"
  printf '## %s\n\n%s\n' "$name" "$out" >"bench/results/$name.md"
  printf '%s\n' "$out"
done
{
  printf '# Benchmark results\n\nEach section comes from `npm run bench` (bench/results/<name>.md, with the date of its run).\n'
  for name in "${all[@]}"; do
    [ -f "bench/results/$name.md" ] && printf '\n' && cat "bench/results/$name.md"
  done
} >bench/RESULTS.md
