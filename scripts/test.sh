#!/usr/bin/env bash
# Runs rove's tests on a fresh Debian machine: installs Chromium if it is
# missing, fetches the MiniWoB++ pages, the official MCP Python SDK (a
# client for `rove mcp`) and two real applications (Django and JupyterLab,
# into a venv at target/apps), then runs every test (they drive real headless
# Chromium against pages and apps served on 127.0.0.1).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q chromium
fi
scripts/fetch-miniwob.sh
scripts/fetch-mcp-sdk.sh
scripts/fetch-apps.sh
cargo test --workspace --locked
