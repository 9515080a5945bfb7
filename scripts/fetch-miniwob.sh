#!/usr/bin/env bash
# Fetches the MiniWoB++ task pages (PyPI package `miniwob`, HTML with a reward
# function) into target/miniwob, for the end-to-end action tests.
set -euo pipefail
cd "$(dirname "$0")/.."
dest="target/miniwob"
if [ -f "$dest/miniwob/html/miniwob/click-button.html" ]; then exit 0; fi
mkdir -p target/miniwob-wheel
if ! python3 -m pip --version >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q python3-pip
fi
python3 -m pip download --quiet --no-deps --dest target/miniwob-wheel miniwob==1.1.0
python3 -m zipfile -e target/miniwob-wheel/miniwob-1.1.0-py3-none-any.whl "$dest"
