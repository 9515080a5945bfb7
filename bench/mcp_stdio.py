"""A minimal MCP client over stdio for the benchmarks: starts `rove mcp`,
does the handshake, and calls tools one at a time (requests are answered
in order, so notifications in between are skipped). Shared by
log-cost.py and trace-cost.py."""
import json
import subprocess
import time


class Mcp:
    def __init__(self, rove, env, args=(), client="bench"):
        self.proc = subprocess.Popen(
            [rove, "mcp", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            text=True,
        )
        self.next = 0
        self.request("initialize", {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": client, "version": "1"},
        })
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message):
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def request(self, method, params):
        self.next += 1
        self.send({"jsonrpc": "2.0", "id": self.next, "method": method, "params": params})
        while True:
            message = json.loads(self.proc.stdout.readline())
            if message.get("id") == self.next:
                return message["result"]

    def call(self, tool, arguments):
        return self.request("tools/call", {"name": tool, "arguments": arguments})

    def timed(self, tool, arguments):
        """Milliseconds one call took, its answer included."""
        started = time.perf_counter()
        self.call(tool, arguments)
        return (time.perf_counter() - started) * 1e3

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def ref_of(view, name):
    """The ref of the button named `name` in a view."""
    for line in view.splitlines():
        if f'button "{name}"' in line:
            return next(w for w in line.split() if w.startswith("e"))
    raise SystemExit(f"no {name} in {view}")
