#!/usr/bin/env bash
# The integration suites need PostgreSQL on 127.0.0.1:5432; start the local cluster if it is down.
set -euo pipefail
if pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then exit 0; fi
if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
  echo "starting PostgreSQL" >&2
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
fi
for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && exit 0; sleep 1; done
echo "PostgreSQL is not reachable on 127.0.0.1:5432; the PostgreSQL suites need it" >&2
exit 1
