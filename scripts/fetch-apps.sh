#!/usr/bin/env bash
# Installs the six real applications the end-to-end tests drive through rove
# (crates/rove/tests/it/real_apps/): Django (its admin), JupyterLab, Notebook 7,
# Streamlit, Datasette and Gradio, from PyPI with every package pinned
# (scripts/apps-requirements.txt), into one venv at target/apps. Idempotent:
# does nothing when the pinned set is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
dest="target/apps"
pins="scripts/apps-requirements.txt"
stamp="$dest/.installed"
if [ -f "$stamp" ] && cmp -s "$pins" "$stamp"; then exit 0; fi
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
rm -rf "$dest"
if ! python3 -m venv "$dest" >/dev/null 2>&1; then
  # Debian ships venv's pip bootstrap in a package of its own.
  rm -rf "$dest"
  as_root apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-venv
  python3 -m venv "$dest"
fi
"$dest/bin/python" -m pip install --quiet --disable-pip-version-check \
  --only-binary :all: --no-deps -r "$pins"
"$dest/bin/python" -m pip check --disable-pip-version-check >/dev/null
cp "$pins" "$stamp"
