#!/usr/bin/env bash
# Installs the Debian packages of scripts/debian-packages.txt whose command (or file) is missing.
# Used by .ci/run and npm start; needs root (or passwordless sudo) only when something is missing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
missing=()
while read -r cmd pkg; do
  [ -z "$cmd" ] || [[ "$cmd" == \#* ]] && continue
  if [[ "$cmd" == /* ]]; then
    [ -e "$cmd" ] || missing+=("$pkg")
  else
    command -v "$cmd" >/dev/null 2>&1 || missing+=("$pkg")
  fi
done < scripts/debian-packages.txt
[ "${#missing[@]}" -eq 0 ] && exit 0
echo "docsvc: installing Debian packages: ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
