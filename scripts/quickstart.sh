#!/usr/bin/env bash
# Sets rove up on a fresh Debian machine and runs it against a real page:
# installs Chromium if it is missing, builds rove as it ships
# (scripts/release.sh: target/dist/rove and its debug file beside it), checks
# the setup with `rove doctor`, then opens a page (default
# https://example.org, or $1) in a session and prints what can be acted on.
set -euo pipefail
cd "$(dirname "$0")/.."

url="${1:-https://example.org}"

if ! command -v chromium >/dev/null 2>&1 && [ -z "${ROVE_BROWSER:-}" ]; then
  echo "Chromium is missing; installing it with apt-get" >&2
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q chromium
fi

scripts/release.sh
rove=./target/dist/rove
"$rove" doctor
# A session daemon keeps the browser between commands; end it however
# this script ends.
trap '"$rove" close >/dev/null 2>&1 || true' EXIT
"$rove" open "$url"
"$rove" snapshot --interactive
