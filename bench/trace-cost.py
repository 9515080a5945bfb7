#!/usr/bin/env python3
"""The cost of command traces: a click, and the view of a big page, with
no trace, with `rove mcp --trace FILE` (screenshots off), and with
`--trace-screenshots`; and the trace's size per command.

Serves on 127.0.0.1 a page with three buttons (no handler; a text change;
a change after a 100 ms request) and a big page (a manual of 400 sections
of distinct prose, whose view fills the default budget of 4,000 tokens),
starts `rove mcp` over stdio once per setting, and times each call's round
trip (the tool call until its answer) from this process.
The settings alternate, twice each, so a busy moment of the machine falls
on all of them. Prints the medians, the ratios and the sizes.

    python3 bench/trace-cost.py [ROVE_BIN] [CALLS]
"""

import http.server
import json
import os
import random
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

def big_page():
    """A long manual of distinct prose (rows alike would be folded into
    one line of the view): its default view reaches the view's budget."""
    rng = random.Random(7)
    words = ("alpha beta gamma delta river stone cloud paper engine garden window "
             "silver orange market winter summer forest signal copper lantern "
             "harbor meadow canyon").split()

    def sentence():
        return " ".join(rng.choice(words) for _ in range(rng.randint(8, 20))).capitalize() + "."

    parts = []
    for i in range(400):
        parts.append(f"<h2>Section {i}: {sentence()}</h2><p>{sentence()} {sentence()} "
                     f"<a href='/doc/{i}'>{sentence()}</a> {sentence()}</p>")
        if i % 5 == 0:
            items = "".join(f"<li>{sentence()}</li>" for _ in range(rng.randint(2, 5)))
            parts.append(f"<ul>{items}</ul>")
    return ("<!doctype html><title>Big</title><h1>Manual</h1>" + "".join(parts)).encode()


BIG = big_page()


class Page(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path == "/slow":
            time.sleep(0.1)
            body = b"fetched "
        elif self.path == "/big":
            body = BIG
        else:
            body = PAGE
        self.send_response(200)
        self.send_header("content-type", "text/html")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def measure(rove, base, calls, args):
    env = dict(os.environ)
    for name in ("RUST_LOG", "ROVE_LOG", "ROVE_CDP_URL", "ROVE_SESSION"):
        env.pop(name, None)
    mcp = Mcp(rove, env, args, client="trace-cost")
    view = mcp.call("open", {"url": base + "/"})["content"][0]["text"]
    results = {}
    commands = 1
    for name in ("Nothing", "Change", "Fetch"):
        ref = ref_of(view, name)
        mcp.call("click", {"ref": ref})  # warm
        results[name] = statistics.median(
            mcp.timed("click", {"ref": ref}) for _ in range(calls))
        commands += calls + 1
    mcp.call("open", {"url": base + "/big"})
    mcp.call("snapshot", {})  # warm
    results["view of the big page"] = statistics.median(
        mcp.timed("snapshot", {}) for _ in range(calls))
    commands += calls + 2
    mcp.close()
    return results, commands


def line_sizes(path):
    """The bytes of each command's line, by command name."""
    sizes = {}
    with open(path, encoding="utf-8") as trace:
        for line in trace:
            record = json.loads(line)
            if record.get("kind") == "command":
                sizes.setdefault(record["name"], []).append(len(line.encode()))
    return sizes


def main():
    rove = sys.argv[1] if len(sys.argv) > 1 else "target/release/rove"
    calls = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    names = ("Nothing", "Change", "Fetch", "view of the big page")
    with tempfile.TemporaryDirectory() as tmp:
        plain = os.path.join(tmp, "plain.trace")
        shots = os.path.join(tmp, "shots.trace")
        settings = {
            "off": [],
            "trace": ["--trace", plain],
            "trace+shots": ["--trace", shots, "--trace-screenshots"],
        }
        runs = {key: [] for key in settings}
        sizes = {}
        for _ in range(2):
            for key, args in settings.items():
                results, commands = measure(rove, base, calls, args)
                runs[key].append(results)
                if key != "off":
                    path = args[1]
                    sizes[key] = (os.path.getsize(path), commands, line_sizes(path))
    print("| call | no trace: ms | --trace: ms | ratio | --trace-screenshots: ms | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in names:
        a = statistics.median(r[name] for r in runs["off"])
        b = statistics.median(r[name] for r in runs["trace"])
        c = statistics.median(r[name] for r in runs["trace+shots"])
        print(f"| {name} | {a:.1f} | {b:.1f} | {b / a:.2f} | {c:.1f} | {c / a:.2f} |")
    print()
    for key, (size, commands, per_name) in sizes.items():
        print(f"{key}: {size} bytes for {commands} commands "
              f"(about {size / commands / 1024:.1f} KiB a command)")
        for name, lengths in sorted(per_name.items()):
            print(f"  {name}: {len(lengths)} lines, median {statistics.median(lengths) / 1024:.1f} KiB")


if __name__ == "__main__":
    main()
