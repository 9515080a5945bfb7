#!/bin/bash
# rove test's own overhead: a 4-step task (click, look twice, done) against a
# scripted model and a one-page shop, both served by bench/eval-servers.py
# on 127.0.0.1, at several -j. Prints attempts a minute and rove's own peak
# RSS (VmHWM of the rove process, not the browser's).
# Usage: bench/eval-load.sh [ROVE_BINARY]   (default target/release/rove)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rove=${1:-$here/../target/release/rove}
port=18765
work=$(mktemp -d)
python3 "$here/eval-servers.py" "$port" &
server=$!
trap 'kill $server; rm -rf "$work"' EXIT
sleep 1
cat > "$work/bench.yaml" <<YAML
name: lamp
task: Press Lamp
start_url: http://127.0.0.1:$port/shop
verify:
  - text: {contains: Added Lamp}
YAML
for spec in "1 4" "8 16" "32 64" "64 64"; do
  set -- $spec
  start=$(date +%s.%N)
  "$rove" test "$work/bench.yaml" --model openai:scripted --base-url "http://127.0.0.1:$port/v1" \
    --api-key none --vision off -j "$1" --repeat "$2" --json > "$work/out.json" 2> "$work/err.txt" &
  pid=$!
  peak=0
  while kill -0 $pid 2>/dev/null; do
    v=$(awk '/VmHWM/{print $2}' /proc/$pid/status 2>/dev/null || true)
    [ -n "$v" ] && peak=$v
    sleep 0.2
  done
  wait $pid || true
  end=$(date +%s.%N)
  python3 - "$work/out.json" "$start" "$end" "$peak" "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); s = d["suite"]
wall = float(sys.argv[3]) - float(sys.argv[2])
print(f"-j {sys.argv[5]:>2}: {s['passed']}/{s['attempts']} passed in {wall:.1f} s, "
      f"{s['attempts'] / wall * 60:.0f} attempts/min, rove peak RSS {int(sys.argv[4]) / 1024:.0f} MB")
PY
done
