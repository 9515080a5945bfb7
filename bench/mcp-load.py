#!/usr/bin/env python3
"""`rove mcp --http` under load: rove's own memory and threads with idle MCP
sessions and with a crowd of half-open connections, and how long a client
with the token waits for tools/list meanwhile.

    bench/mcp-load.py [ROVE_BINARY ...]

Each binary (default: target/release/rove) is started with `--http --port 0`
and an open-file limit of 1024 (the usual default). One run:

1. floor: the server just started; 21 tools/list calls on one session, each
   on a fresh connection (the median is the floor);
2. 200 MCP sessions initialized (initialize + notifications/initialized),
   then left idle: VmHWM, VmRSS, threads, descriptors;
3. 1,000 connections that each sent half a request, held open by this
   script: the same figures, the server's CPU use over the 3 s after they
   were opened (before any other client comes), then 21 tools/list calls (median, max) by a
   client with the token; a call that gets no answer in 30 s counts as none
   (and ends the round: the rest count as unanswered too).

Only the rove process is measured (no browser starts: no tool is called).
Prints a markdown table.
"""

import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import time

ROUNDS = 21
SESSIONS = 200
HALF_OPEN = 1000
ANSWER_WITHIN = 30.0
CPU_WINDOW = 3.0


def status(pid):
    """VmHWM and VmRSS in MB, threads, open descriptors of `pid`."""
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    kb = lambda k: int(fields[k].split()[0]) / 1024
    return {
        "hwm": kb("VmHWM"),
        "rss": kb("VmRSS"),
        "threads": int(fields["Threads"]),
        "fds": len(os.listdir(f"/proc/{pid}/fd")),
    }


def cpu_seconds(pid):
    """User + system CPU time of `pid` so far, in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def post(addr, headers, body, want_id=None, within=ANSWER_WITHIN):
    """One request on a fresh connection: (status, headers, text) or None
    when nothing came within `within` seconds."""
    host, port = addr.split(":")
    deadline = time.monotonic() + within
    try:
        s = socket.create_connection((host, int(port)), timeout=within)
    except OSError:
        return None
    try:
        head = (
            f"POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n"
            "Accept: application/json, text/event-stream\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n"
        )
        head += "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n"
        s.sendall(head.encode() + body.encode())
        got = b""
        wanted = f'"id":{want_id}'.encode() if want_id is not None else None
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            s.settimeout(left)
            try:
                chunk = s.recv(65536)
            except (socket.timeout, OSError):
                return None
            if not chunk:
                break
            got += chunk
            if wanted and wanted in got:
                break
        text = got.decode(errors="replace")
        first, _, rest = text.partition("\r\n")
        code = int(first.split()[1]) if len(first.split()) > 1 else 0
        head, _, payload = rest.partition("\r\n\r\n")
        hdrs = {}
        for line in head.split("\r\n"):
            k, _, v = line.partition(":")
            hdrs[k.strip().lower()] = v.strip()
        return code, hdrs, payload
    finally:
        s.close()


def initialize(addr, bearer):
    init = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"}}})
    answer = post(addr, {"Authorization": bearer}, init, want_id=1)
    if answer is None or answer[0] != 200:
        return None
    session = answer[1].get("mcp-session-id")
    done = json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"})
    post(addr, {"Authorization": bearer, "Mcp-Session-Id": session}, done)
    return session


def tools_list_times(addr, bearer):
    """Seconds for each of ROUNDS (initialize once, then tools/list);
    None for a call with no answer."""
    started = time.monotonic()
    session = initialize(addr, bearer)
    first = time.monotonic() - started
    if session is None:
        return None, [None] * ROUNDS
    times = []
    body = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    for _ in range(ROUNDS):
        t = time.monotonic()
        answer = post(addr, {"Authorization": bearer, "Mcp-Session-Id": session}, body, want_id=2)
        ok = answer is not None and answer[0] == 200 and '"tools"' in answer[2]
        times.append(time.monotonic() - t if ok else None)
        if not ok:
            # One call left unanswered for 30 s is enough to know.
            times += [None] * (ROUNDS - len(times))
            break
    return first, times


def half_open(addr, n):
    """Up to `n` connections that sent half a request; stops at the first
    one the kernel no longer completes (the server's accept queue is full)."""
    host, port = addr.split(":")
    held = []
    for _ in range(n):
        try:
            s = socket.create_connection((host, int(port)), timeout=3)
            s.sendall(f"POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Le".encode())
        except OSError:
            break
        held.append(s)
    return held


def limit_files():
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))


def ms(seconds):
    return "no answer" if seconds is None else f"{seconds * 1000:.1f}"


def summary(times):
    answered = [t for t in times if t is not None]
    if not answered:
        return "no answer", "no answer", f"0/{len(times)}"
    return ms(statistics.median(answered)), ms(max(answered)), f"{len(answered)}/{len(times)}"


def run(binary):
    server = subprocess.Popen(
        [binary, "mcp", "--http", "--port", "0", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, preexec_fn=limit_files,
        env={k: v for k, v in os.environ.items() if k not in ("ROVE_MCP_TOKEN", "ROVE_SESSION")},
    )
    try:
        started = json.loads(server.stdout.readline())
        addr = started["url"].removeprefix("http://").removesuffix("/mcp")
        bearer = f"Bearer {started['token']}"
        rows = {}
        rows["started"] = status(server.pid)
        first, times = tools_list_times(addr, bearer)
        rows["started"]["first"] = first
        rows["started"]["times"] = times
        made = sum(initialize(addr, bearer) is not None for _ in range(SESSIONS))
        rows["sessions"] = status(server.pid)
        rows["sessions"]["made"] = made
        held = half_open(addr, HALF_OPEN)
        before = cpu_seconds(server.pid)
        time.sleep(CPU_WINDOW)
        cpu = (cpu_seconds(server.pid) - before) / CPU_WINDOW
        load_started = time.monotonic()
        first, times = tools_list_times(addr, bearer)
        rows["half_open"] = status(server.pid)
        rows["half_open"]["first"] = first
        rows["half_open"]["times"] = times
        rows["half_open"]["window"] = time.monotonic() - load_started
        rows["half_open"]["held"] = len(held)
        rows["half_open"]["cpu"] = cpu
        for s in held:
            s.close()
        return rows
    finally:
        server.kill()
        server.wait()


def main():
    resource.setrlimit(resource.RLIMIT_NOFILE, (8192, max(8192, resource.getrlimit(resource.RLIMIT_NOFILE)[1])))
    binaries = sys.argv[1:] or ["target/release/rove"]
    print("| binary | state | VmHWM MB | VmRSS MB | threads | descriptors | CPU | initialize ms | tools/list median ms | max ms | answered |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for binary in binaries:
        rows = run(binary)
        s, m, h = rows["started"], rows["sessions"], rows["half_open"]
        med, top, n = summary(s["times"])
        print(f"| {binary} | just started | {s['hwm']:.1f} | {s['rss']:.1f} | {s['threads']} | {s['fds']} | | {ms(s['first'])} | {med} | {top} | {n} |")
        print(f"| {binary} | {m['made']} idle sessions | {m['hwm']:.1f} | {m['rss']:.1f} | {m['threads']} | {m['fds']} | | | | | |")
        med, top, n = summary(h["times"])
        print(f"| {binary} | + {h['held']} half-open connections | {h['hwm']:.1f} | {h['rss']:.1f} | {h['threads']} | {h['fds']} | {h['cpu'] * 100:.0f} % | {ms(h['first'])} | {med} | {top} | {n} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
