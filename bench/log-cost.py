#!/usr/bin/env python3
"""The cost of rove's cdp log layer: a click with the layer off against the
same click with it at trace, written to a file.

Serves a page with three buttons on 127.0.0.1 (no handler; a text change; a
change after a 100 ms request), starts `rove mcp` over stdio once per
setting, and times each click's round trip (the tool call until its
answer) from this process. Prints the medians, the ratio, and the log's
size per click.

    python3 bench/log-cost.py [ROVE_BIN] [CLICKS]
"""

import http.server
import os
import statistics
import sys
import tempfile
import threading
import time

from mcp_stdio import Mcp, ref_of

PAGE = b"""<!doctype html><title>Click</title>
<button>Nothing</button>
<button onclick="out.textContent = 'changed ' + Date.now()">Change</button>
<button onclick="fetch('/slow').then(r => r.text()).then(t => out.textContent = t + Date.now())">Fetch</button>
<p id=out>-</p>"""


class Page(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path == "/slow":
            time.sleep(0.1)
            body = b"fetched "
        else:
            body = PAGE
        self.send_response(200)
        self.send_header("content-type", "text/html")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def measure(rove, url, clicks, extra_env):
    env = dict(os.environ, **extra_env)
    for name in ("RUST_LOG", "ROVE_CDP_URL", "ROVE_SESSION"):
        env.pop(name, None)
    mcp = Mcp(rove, env, client="log-cost")
    view = mcp.call("open", {"url": url})["content"][0]["text"]
    results = {}
    for name in ("Nothing", "Change", "Fetch"):
        ref = ref_of(view, name)
        mcp.call("click", {"ref": ref})  # warm
        times = []
        for _ in range(clicks):
            started = time.perf_counter()
            mcp.call("click", {"ref": ref})
            times.append((time.perf_counter() - started) * 1e3)
        results[name] = statistics.median(times)
    mcp.close()
    return results


def main():
    rove = sys.argv[1] if len(sys.argv) > 1 else "target/release/rove"
    clicks = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "cdp.log")
        # Alternate the settings so a busy moment of the machine falls on both.
        off, trace = [], []
        for _ in range(2):
            off.append(measure(rove, url, clicks, {"ROVE_LOG": "cdp=off"}))
            trace.append(measure(rove, url, clicks, {"ROVE_LOG": "cdp=trace", "ROVE_LOG_FILE": log}))
        size = os.path.getsize(log)
        lines = sum(1 for _ in open(log, encoding="utf-8", errors="replace"))
    total_clicks = 2 * 3 * (clicks + 1)
    print("| click | cdp=off: ms | cdp=trace to a file: ms | ratio |")
    print("|---|---:|---:|---:|")
    for name in ("Nothing", "Change", "Fetch"):
        a = statistics.median(r[name] for r in off)
        b = statistics.median(r[name] for r in trace)
        print(f"| {name} | {a:.1f} | {b:.1f} | {b / a:.2f} |")
    print(f"\ncdp.log: {size} bytes, {lines} lines for 2 sessions of 1 open and "
          f"{total_clicks} clicks (about {size / total_clicks / 1024:.1f} KiB a click, open included)")


if __name__ == "__main__":
    main()
