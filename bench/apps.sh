#!/usr/bin/env bash
# Commands and tokens per task on four real applications (Django's admin,
# JupyterLab, Streamlit and Datasette), rove beside agent-browser. Installs
# the apps (scripts/fetch-apps.sh) and agent-browser 0.41.2 (npm, into
# bench/.cache, pointed at the system Chromium); runs rove's end-to-end tests, which keep a transcript
# of every command (target/tmp/real-apps/transcripts), then the same tasks
# with agent-browser's CLI (bench/apps_agent_browser.py); the harness counts
# both. The table goes to stdout and to bench/apps-results.md.
set -euo pipefail
cd "$(dirname "$0")/.."
cache="$PWD/bench/.cache"
mkdir -p "$cache"
command -v chromium >/dev/null || { echo "install Chromium first: apt-get install -y chromium" >&2; exit 1; }
scripts/fetch-apps.sh
agent_browser="$cache/node_modules/agent-browser/bin/agent-browser-linux-x64"
if [ ! -f "$agent_browser" ]; then
  (cd "$cache" && npm install --no-audit --no-fund --ignore-scripts agent-browser@0.41.2)
fi
chmod +x "$agent_browser"

# rove: one test at a time, so no step waits on another test's load.
rm -rf target/tmp/real-apps/transcripts
cargo test --locked -p rove --test it -- real_apps:: --test-threads=1
rm -rf "$cache/apps-agent-browser"
python3 bench/apps_agent_browser.py "$agent_browser" target/apps "$cache/apps-agent-browser"

cd bench/harness
cargo build --release --locked --bin rove-bench-apps 2>/dev/null || cargo build --release --bin rove-bench-apps
./target/release/rove-bench-apps ../../target/tmp/real-apps/transcripts "$cache/apps-agent-browser"
