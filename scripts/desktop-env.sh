#!/usr/bin/env bash
# Runs one command inside a private desktop: an X server (Xvfb), a D-Bus
# session bus and the accessibility bus with its registry (AT-SPI2), all
# ended when the command ends, however it ends. The desktop tests need it:
#
#   scripts/desktop-env.sh cargo test -p rove-desktop --test it
#
# Without arguments it starts a shell inside the desktop. The Debian
# packages it needs: xvfb dbus at-spi2-core (and the applications the tests
# drive: gnome-calculator gtk-3-examples zenity l3afpad); `.ci/run` installs them.
set -euo pipefail

for tool in Xvfb dbus-daemon; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "desktop-env: $tool is missing: apt-get install xvfb dbus at-spi2-core" >&2
    exit 2
  fi
done
launcher=""
for candidate in /usr/libexec/at-spi-bus-launcher /usr/lib/at-spi2-core/at-spi-bus-launcher; do
  if [ -x "$candidate" ]; then launcher=$candidate; fi
done
if [ -z "$launcher" ]; then
  echo "desktop-env: at-spi-bus-launcher is missing: apt-get install at-spi2-core" >&2
  exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/rove-desktop.XXXXXX")
pids=()
stop() {
  # Newest first: the accessibility bus before the session bus it sits on.
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    kill "${pids[i]}" 2>/dev/null || true
  done
  for pid in "${pids[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap stop EXIT
trap 'exit 130' INT TERM

# A display nobody uses: Xvfb picks one and writes its number.
exec 3>"$work/display"
Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
  [ -s "$work/display" ] && break
  sleep 0.05
done
exec 3>&-
if [ ! -s "$work/display" ]; then
  echo "desktop-env: Xvfb did not start:" >&2
  cat "$work/xvfb.log" >&2
  exit 2
fi
export DISPLAY=":$(head -1 "$work/display")"

dbus-daemon --session --nofork --nopidfile --print-address=4 --address="unix:path=$work/bus" \
  4>"$work/bus-address" >"$work/dbus.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
  [ -s "$work/bus-address" ] && break
  sleep 0.05
done
export DBUS_SESSION_BUS_ADDRESS
DBUS_SESSION_BUS_ADDRESS=$(head -1 "$work/bus-address")

# The accessibility bus, started now rather than on the first application's
# request, so the first test does not pay for it. Applications find it
# through org.a11y.Bus on the session bus; the registry starts on demand.
"$launcher" --launch-immediately >"$work/at-spi.log" 2>&1 &
pids+=($!)
# Either of these set keeps GTK's applications off the accessibility bus.
unset NO_AT_BRIDGE GTK_A11Y
# Only this desktop: no Wayland display of the caller's to go to instead.
unset WAYLAND_DISPLAY

if [ $# -eq 0 ]; then
  set -- "${SHELL:-bash}"
fi
"$@"
