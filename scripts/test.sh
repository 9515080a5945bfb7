#!/usr/bin/env bash
# Runs rove's tests.
#
#   scripts/test.sh          every test, on a fresh Debian machine: installs
#                            Chromium if it is missing, fetches the MiniWoB++
#                            pages, the official MCP Python SDK (a client for
#                            `rove mcp`) and two real applications (Django and
#                            JupyterLab, into a venv at target/apps) and
#                            the code editors the fill tests type into
#                            (npm, pinned by scripts/editors/) and the
#                            browserless farm the farm tests run (npm,
#                            pinned by scripts/farm/), then runs
#                            every test (they drive real headless Chromium
#                            against pages and apps served on 127.0.0.1).
#   scripts/test.sh --fast   only the tests that need no browser: the unit
#                            tests beside the code and the integration tests
#                            under each crate's tests/it/fast/ (not the
#                            doctests: the full run has them). Chromium is
#                            hidden from them (ROVE_BROWSER names a file that
#                            does not exist), so a test there that reaches for
#                            a browser fails instead of passing slowly.
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in
  "") ;;
  --fast)
    export ROVE_BROWSER=/nonexistent/the-fast-tier-has-no-browser
    cargo test --workspace --locked --lib --bins
    # No doctest pass here: rove has two doctests, both `no_run`, and the
    # pass builds every library once more apart from the test builds
    # (24 s for those two). The full run below runs them.
    cargo test --workspace --locked --test it -- fast::
    exit 0
    ;;
  *)
    echo "usage: scripts/test.sh [--fast]" >&2
    exit 2
    ;;
esac

if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q chromium
fi
# The desktop tests' stack: an X server, D-Bus, the accessibility bus, and
# the applications they drive (docs/desktop.md).
desktop_packages="xvfb dbus at-spi2-core gnome-calculator gtk-3-examples zenity l3afpad"
if ! command -v Xvfb >/dev/null 2>&1 || ! command -v gnome-calculator >/dev/null 2>&1 \
  || ! command -v gtk3-widget-factory >/dev/null 2>&1 || ! command -v zenity >/dev/null 2>&1 \
  || ! command -v l3afpad >/dev/null 2>&1 \
  || ! [ -x /usr/libexec/at-spi-bus-launcher ]; then
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update -q
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends $desktop_packages
fi
scripts/fetch-miniwob.sh
scripts/fetch-mcp-sdk.sh
scripts/fetch-editors.sh
scripts/fetch-farm.sh
scripts/fetch-apps.sh
# The desktop tests run inside a private desktop of their own (Xvfb, a
# session bus, the accessibility bus), the rest without one.
cargo test --workspace --locked --exclude rove-desktop -- --skip desktop::
scripts/desktop-env.sh cargo test --locked -p rove-desktop
scripts/desktop-env.sh cargo test --locked -p rove-commands --test it -- desktop::
scripts/desktop-env.sh cargo test --locked -p rove --test it -- desktop::
# The Python package (python/): its wheel, built from the debug build above,
# in a fresh venv, under pytest.
scripts/test-python.sh
# The npm packages (npm/): packed from the same build, run with npx.
scripts/test-npm.sh
