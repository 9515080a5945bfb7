#!/usr/bin/env bash
# Installs the open-source browserless platform, pinned by
# scripts/farm/package-lock.json, into target/farm/node_modules: the real
# browser farm rove's farm tests run on 127.0.0.1 (rove-testkit's
# browserless.rs). No install scripts run, so no browser is downloaded: the
# farm runs the system Chromium, put where Playwright's registry looks
# (PLAYWRIGHT_BROWSERS_PATH; browserless 2.x reads no other setting for it).
# It asks for node >= 24 but runs on node 20.
set -euo pipefail
cd "$(dirname "$0")/.."
dest="target/farm"
stamp="$dest/node_modules/.rove-lock"
if [ -f "$stamp" ] && cmp -s "$stamp" scripts/farm/package-lock.json; then exit 0; fi
if ! command -v npm >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q npm
fi
mkdir -p "$dest"
cp scripts/farm/package.json scripts/farm/package-lock.json "$dest/"
# Its optional dependencies are its own build and test tools.
(cd "$dest" && npm ci --ignore-scripts --omit=optional --no-audit --no-fund --loglevel=error)
# Not needed to run it (581 MB installed in full, 283 MB without these):
# the routes of browsers other than Chromium (it refuses to start when their
# binaries are missing), the debugger and docs pages, the fonts of its
# Docker image, the ad-block extension, and its own tests.
bl="$dest/node_modules/@browserless.io/browserless"
rm -rf "$bl/build/routes/chrome" "$bl/build/routes/edge" "$bl/build/routes/firefox" \
  "$bl/build/routes/webkit" "$bl"/build/routes/*/tests "$bl/static/debugger" \
  "$bl/static/devtools" "$bl/static/docs" "$bl/fonts" "$bl/extensions"
cp scripts/farm/package-lock.json "$stamp"
