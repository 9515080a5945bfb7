#!/bin/bash
# rove test on a real browser farm against a local browser, at the same -j:
# the 4-step task of bench/eval-load.sh (scripted model and one-page shop
# from bench/eval-servers.py on 127.0.0.1), a browser per attempt either
# way: `--isolate browser` launching the system Chromium, and farm mode
# (`--isolate browser --cdp-url ws://…?token=… --slots J`) on browserless
# (scripts/fetch-farm.sh) with CONCURRENT=J, which launches the same
# Chromium per connection. Prints wall time and attempts a minute.
# Usage: bench/farm-load.sh [ROVE_BINARY] [J…]   (default target/release/rove; 2 4)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
rove=${1:-$root/target/release/rove}
shift || true
jobs=("${@:-2}")
[ $# -eq 0 ] && jobs=(2 4)
"$root/scripts/fetch-farm.sh"
port=18766
farm_port=18767
token="bench-$$"
work=$(mktemp -d)
chromium=$(command -v "${ROVE_BROWSER:-chromium}")
# browserless takes its browser where Playwright's registry keeps one: a
# script there runs the system Chromium with rove's networking switches and
# notes each browser's pid (puppeteer gives each a process group of its own).
revision=$(cd "$root/target/farm" && node -p \
  "require('./node_modules/playwright-core/browsers.json').browsers.find(b => b.name === 'chromium').revision")
mkdir -p "$work/pw/chromium-$revision/chrome-linux64" "$work/tmp"
cat > "$work/pw/chromium-$revision/chrome-linux64/chrome" <<SH
#!/bin/sh
echo \$\$ >> '$work/browser-pids'
exec '$chromium' --disable-background-networking --disable-component-update --disable-sync --disable-quic --disable-breakpad --no-first-run "\$@"
SH
chmod +x "$work/pw/chromium-$revision/chrome-linux64/chrome"
python3 "$here/eval-servers.py" "$port" &
server=$!
farm=""
stop_farm() {
  if [ -n "$farm" ]; then
    kill -KILL -- "-$farm" 2>/dev/null || true
    wait "$farm" 2>/dev/null || true
  fi
  for pid in $(cat "$work/browser-pids" 2>/dev/null); do kill -KILL -- "-$pid" 2>/dev/null || true; done
  : > "$work/browser-pids"
  farm=""
}
trap 'stop_farm; kill $server; rm -rf "$work"' EXIT
cat > "$work/bench.yaml" <<YAML
name: lamp
task: Press Lamp
start_url: http://127.0.0.1:$port/shop
verify:
  - text: {contains: Added Lamp}
YAML
measure() { # label j repeat rove-args…
  local label=$1 j=$2 n=$3; shift 3
  local start end
  start=$(date +%s.%N)
  "$rove" test "$work/bench.yaml" --model openai:scripted --base-url "http://127.0.0.1:$port/v1" \
    --api-key none --vision off -j "$j" --repeat "$n" --isolate browser --json "$@" \
    > "$work/out.json" 2> "$work/err.txt" || true
  end=$(date +%s.%N)
  python3 - "$work/out.json" "$start" "$end" "$label" "$j" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); s = d["suite"]
wall = float(sys.argv[3]) - float(sys.argv[2])
print(f"{sys.argv[4]:<6} -j {sys.argv[5]:>2}: {s['passed']}/{s['attempts']} passed in {wall:.1f} s, "
      f"{s['attempts'] / wall * 60:.0f} attempts/min")
PY
}
sleep 1
for j in "${jobs[@]}"; do
  n=$((j * 4))
  measure local "$j" "$n"
  # Its own session and process group (its pid), ended whole.
  setsid env -C "$root/target/farm" HOST=127.0.0.1 PORT=$farm_port TOKEN=$token CONCURRENT=$j \
    QUEUED=64 TIMEOUT=120000 PLAYWRIGHT_BROWSERS_PATH="$work/pw" TMPDIR="$work/tmp" \
    node node_modules/@browserless.io/browserless/build/index.js > "$work/farm.log" 2>&1 &
  farm=$!
  for _ in $(seq 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$farm_port") 2>/dev/null && break
    sleep 0.2
  done
  measure farm "$j" "$n" --cdp-url "ws://127.0.0.1:$farm_port?token=$token" --slots "$j"
  stop_farm
done
