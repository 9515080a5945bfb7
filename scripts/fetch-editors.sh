#!/usr/bin/env bash
# Installs the real code and rich-text editors that rove's `fill` tests type
# into (CodeMirror 5 and 6, Monaco, ProseMirror), pinned by
# scripts/editors/package-lock.json, into target/editors/node_modules. The
# tests serve them on 127.0.0.1; CodeMirror 6 and ProseMirror are ES modules
# loaded through an import map, so no bundler is needed.
set -euo pipefail
cd "$(dirname "$0")/.."
dest="target/editors"
stamp="$dest/node_modules/.rove-lock"
if [ -f "$stamp" ] && cmp -s "$stamp" scripts/editors/package-lock.json; then exit 0; fi
if ! command -v npm >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q npm
fi
mkdir -p "$dest"
cp scripts/editors/package.json scripts/editors/package-lock.json "$dest/"
(cd "$dest" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
# Monaco's sources, source maps and ESM build are not served: only min/vs.
rm -rf "$dest/node_modules/monaco-editor/dev" "$dest/node_modules/monaco-editor/esm" \
  "$dest/node_modules/monaco-editor/min-maps"
cp scripts/editors/package-lock.json "$stamp"
