#!/usr/bin/env bash
# Side-by-side page-view benchmark: installs the peers from npm into
# bench/.cache (pointed at the system Chromium; no browser is downloaded),
# fetches the MiniWoB++ pages from PyPI, then runs the harness. The table goes
# to stdout and to bench/results.md.
set -euo pipefail
cd "$(dirname "$0")"
cache="$PWD/.cache"
mkdir -p "$cache"

command -v chromium >/dev/null || { echo "install Chromium first: apt-get install -y chromium" >&2; exit 1; }
if [ ! -f /usr/share/doc/python3/html/library/stdtypes.html ]; then
  echo "installing the Python documentation (python3-doc)" >&2
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q python3-doc
fi
if [ ! -d "$cache/node_modules/@playwright/mcp" ] || ! grep -q '"version": "0.41.2"' "$cache/node_modules/agent-browser/package.json" 2>/dev/null; then
  (cd "$cache" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 PUPPETEER_SKIP_DOWNLOAD=1 \
    npm install --no-audit --no-fund --ignore-scripts @playwright/mcp@0.0.83 chrome-devtools-mcp@1.11.0 agent-browser@0.41.2)
  chmod +x "$cache/node_modules/agent-browser/bin/agent-browser-linux-x64"
fi
if [ ! -d "$cache/miniwob/miniwob/html" ]; then
  python3 -m pip download --no-deps --dest "$cache/wheels" miniwob==1.1.0
  python3 -m zipfile -e "$cache"/wheels/miniwob-*.whl "$cache/miniwob"
fi

(cd .. && cargo build --release --locked --bin rove)
cd harness
cargo build --release --locked 2>/dev/null || cargo build --release
ROVE_BENCH_CACHE="$cache" ./target/release/rove-bench
# The click benchmark: one click by ref until the settled result, per tool.
ROVE_BENCH_CACHE="$cache" ./target/release/rove-bench-click
# `open` until a model can act: rove over MCP against agent-browser's open
# and first snapshot, on 16 MiniWoB++ pages.
ROVE_BENCH_CACHE="$cache" ./target/release/rove-bench-open
