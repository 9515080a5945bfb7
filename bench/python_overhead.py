#!/usr/bin/env python3
"""A Python call's overhead over the CLI's, for docs/benchmarks.md.

Run with the Python of an environment the rove wheel is installed in:

    python bench/python_overhead.py [ROUNDS]

Against one session on a local page it alternates `rove --session S eval 1`
(a process started from Python, as a shell starts it) with
`rove.Session(S).eval("1")`, and prints the medians and their difference.
"""

from __future__ import annotations

import http.server
import statistics
import subprocess
import sys
import threading
import time
import uuid

import rove
from rove._binary import binary


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    name = f"bench-{uuid.uuid4().hex[:8]}"
    exe = binary()
    session = rove.Session(name)
    try:
        session.open(url)
        cli, py = [], []
        for _ in range(rounds):
            start = time.perf_counter()
            subprocess.run([exe, "--session", name, "eval", "1"], check=True,
                           capture_output=True)
            cli.append(time.perf_counter() - start)
            start = time.perf_counter()
            assert session.eval("1").value == 1
            py.append(time.perf_counter() - start)
    finally:
        session.close()
        server.shutdown()
    med_cli, med_py = statistics.median(cli) * 1000, statistics.median(py) * 1000
    print(f"binary: {exe}")
    print(f"rounds: {rounds}")
    print(f"CLI    eval 1: median {med_cli:.2f} ms")
    print(f"Python eval 1: median {med_py:.2f} ms")
    print(f"overhead: {med_py - med_cli:+.2f} ms ({med_py / med_cli:.2f}x)")


class Page(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = b"<title>bench</title><button>Go</button>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


if __name__ == "__main__":
    main()
