#!/usr/bin/env bash
# Installs the official MCP Python SDK (PyPI `mcp`) into target/mcp-sdk, for
# the test that drives `rove mcp` with a client the rove team did not write.
set -euo pipefail
cd "$(dirname "$0")/.."
dest="target/mcp-sdk"
if [ -f "$dest/mcp/__init__.py" ]; then exit 0; fi
if ! python3 -m pip --version >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q python3-pip
fi
# --target keeps it out of the system's Python; Debian's pip may still ask
# for --break-system-packages, which touches nothing outside $dest here.
python3 -m pip install --quiet --disable-pip-version-check --target "$dest" mcp==2.3.0 \
  || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages --target "$dest" mcp==2.3.0
