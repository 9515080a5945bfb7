#!/usr/bin/env bash
# The Python package's tests (python/tests): builds the wheel with maturin
# from the debug build the Rust tests already made (target/debug), installs
# it into a fresh virtual environment, and runs pytest there against real
# headless Chromium and pages and a scripted model on 127.0.0.1. maturin and
# pytest come from PyPI, pinned in scripts/python-requirements.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
tools="target/py-tools"
pins="scripts/python-requirements.txt"
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
venv() {
  if ! python3 -m venv "$1" >/dev/null 2>&1; then
    # Debian ships venv's pip bootstrap in a package of its own.
    rm -rf "$1"
    as_root apt-get update -q
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-venv
    python3 -m venv "$1"
  fi
}
if ! { [ -f "$tools/.installed" ] && cmp -s "$pins" "$tools/.installed"; }; then
  rm -rf "$tools"
  venv "$tools"
  "$tools/bin/python" -m pip install --quiet --disable-pip-version-check \
    --only-binary :all: --no-deps -r "$pins"
  cp "$pins" "$tools/.installed"
fi
rm -rf target/py-wheel target/py-test
"$tools/bin/maturin" build --quiet --profile dev --out target/py-wheel
venv target/py-test
target/py-test/bin/python -m pip install --quiet --disable-pip-version-check \
  --only-binary :all: --no-deps -r "$pins"
target/py-test/bin/python -m pip install --quiet --disable-pip-version-check --no-deps \
  target/py-wheel/rove-*.whl
# From the tests' folder, so `import rove` is the installed package, not
# python/rove beside them.
cd python/tests
wheel=$(ls "$PWD"/../../target/py-wheel/rove-*.whl)
env -u ROVE_BINARY -u ROVE_SESSION -u ROVE_CDP_URL ROVE_TEST_WHEEL="$wheel" \
  UV_CACHE_DIR="$PWD/../../target/py-uv-cache" \
  ../../target/py-test/bin/python -m pytest -q -p no:cacheprovider "$@"
