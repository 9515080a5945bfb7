#!/usr/bin/env bash
# Packs rove for npm: the platform package (rove-linux-x64, the binary
# stripped of debug sections) and the rove package whose `rove` command
# runs it (`npx rove mcp`). Usage: scripts/npm-pack.sh [BINARY] [OUT]
# (default target/release/rove, target/npm).
set -euo pipefail
cd "$(dirname "$0")/.."
binary="${1:-target/release/rove}"
out="${2:-target/npm}"
rm -rf "$out" && mkdir -p "$out/stage"
cp -r npm/rove "$out/stage/rove"
cp -r npm/platform "$out/stage/platform"
mkdir -p "$out/stage/platform/bin"
strip --strip-debug -o "$out/stage/platform/bin/rove" "$binary"
chmod 755 "$out/stage/platform/bin/rove"
(cd "$out" && npm pack --silent ./stage/platform ./stage/rove >/dev/null)
rm -rf "$out/stage"
ls "$out"/*.tgz
