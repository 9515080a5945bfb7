#!/usr/bin/env bash
# The npm packages' test: packs them from the debug build (scripts/npm-pack.sh),
# installs both tarballs into an empty folder with npm --offline (nothing
# comes from a registry), then checks that `npx rove` runs the packaged
# binary: its version, an MCP handshake over stdio, and a failing command's
# exit status passed through.
set -euo pipefail
cd "$(dirname "$0")/.."
fail() { echo "test-npm: FAILED: $*" >&2; exit 1; }
scripts/npm-pack.sh target/debug/rove target/npm >/dev/null
prefix=target/npm/installed
rm -rf "$prefix" && mkdir -p "$prefix"
(cd "$prefix" && npm install --silent --no-audit --no-fund --offline \
  ../rove-linux-x64-0.1.0.tgz ../rove-0.1.0.tgz)
cd "$prefix"
version=$(npx --no-install rove --version)
[ "$version" = "rove $(../../debug/rove --version | cut -d' ' -f2)" ] || fail "version: $version"
hello='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test-npm","version":"1"}}}'
answer=$(printf '%s\n' "$hello" | timeout 60 npx --no-install rove mcp | head -n 1)
case "$answer" in
  *'"serverInfo":{"name":"rove"'*) ;;
  *) fail "mcp handshake answered: $answer" ;;
esac
set +e
npx --no-install rove --no-such-flag >/dev/null 2>&1
status=$?
set -e
[ "$status" -eq 2 ] || fail "a usage error exited $status, not 2"
echo "test-npm: npx rove ran the packaged binary (version, MCP handshake, exit status)"
