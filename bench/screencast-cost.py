#!/usr/bin/env python3
"""What the screencast, the GIFs and the videos cost (issue 41).

Serves a scripted model (OpenAI chat wire) and two pages on 127.0.0.1, then:
1. the 4-step task of bench/eval-load.sh (click, look twice, done), `rove
   test --repeat N -j 1 --traces all`, with and without --trace-screencast,
   rounds alternating: wall time and CPU (rove and its Chromium, as the
   children's rusage);
2. a page that never stops animating, traced with `rove trace start
   --screencast` for 60 s: the trace's bytes a minute, frames kept;
3. a 10-step run (nine clicks and done) with `rove run --gif --trace
   --trace-screencast`: the GIF's size, and `rove trace export --gif`'s time
   on its trace and on the animation's.
Usage: bench/screencast-cost.py [ROVE_BINARY] [--repeat N] [--rounds R]
"""
import json, os, resource, subprocess, sys, tempfile, threading, time
from http.server import ThreadingHTTPServer, BaseHTTPRequestHandler

args = [a for a in sys.argv[1:] if not a.startswith("--")]
rove = args[0] if args else os.path.join(os.path.dirname(__file__), "..", "target", "release", "rove")
opt = lambda name, default: int(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default
REPEAT, ROUNDS = opt("--repeat", 10), opt("--rounds", 3)

SHOP = b"""<!doctype html><title>Shop</title><h1>Shop</h1><button onclick="document.getElementById('o').textContent='Added Lamp ' + (++n)">Lamp</button><p id=o>empty</p><script>let n = 0</script>"""
MOVING = b"""<!doctype html><title>Moving</title><div id=b style="position:absolute;top:80px;width:80px;height:80px;background:#c22"></div><p style="font:24px sans-serif">A page that never stops moving</p><script>let x=0;(function m(){x=(x+5)%900;b.style.left=x+'px';requestAnimationFrame(m)})()</script>"""

class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a): pass
    def send(self, ctype, body):
        self.send_response(200); self.send_header("content-type", ctype); self.send_header("content-length", str(len(body))); self.end_headers(); self.wfile.write(body)
    def do_GET(self):
        self.send("text/html", MOVING if self.path.startswith("/moving") else SHOP)
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", 0)))
        msgs = json.loads(body or b"{}").get("messages", [])
        first = next((m.get("content") for m in msgs if m.get("role") == "user"), "") or ""
        if isinstance(first, list): first = " ".join(p.get("text", "") for p in first if isinstance(p, dict))
        acted = sum(1 for m in msgs if m.get("role") == "assistant")
        ref = next((l.split()[0] for l in first.splitlines() if 'button "Lamp"' in l), "e0")
        ten = "ten times" in first
        if ten and acted < 9:
            call, text = ("click", {"ref": ref}), f"Step {acted + 1} of ten: press the Lamp button once more so that the cart shows {acted + 1} lamps."
        elif not ten and acted == 0:
            call, text = ("click", {"ref": ref}), None
        elif not ten and acted < 3:
            call, text = ("snapshot", {}), None
        else:
            call, text = ("done", {"text": "pressed the Lamp button", "success": True}), "The cart shows the lamps: done."
        tool = {"id": f"c{acted}", "type": "function", "function": {"name": call[0], "arguments": json.dumps(call[1])}}
        reply = {"model": "scripted", "choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant", "content": text, "tool_calls": [tool]}}], "usage": {"prompt_tokens": 40, "completion_tokens": 4}}
        self.send("application/json", json.dumps(reply).encode())

server = ThreadingHTTPServer(("127.0.0.1", 0), H)
threading.Thread(target=server.serve_forever, daemon=True).start()
base = f"http://127.0.0.1:{server.server_address[1]}"
work = tempfile.mkdtemp(prefix="rove-screencast-")
model = ["--model", "openai:scripted", "--base-url", base + "/v1", "--api-key", "none", "--vision", "off"]

def timed(cmd, **kw):
    """Wall seconds and CPU seconds (the command and its waited-for descendants)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    done = subprocess.run(cmd, capture_output=True, text=True, **kw)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done

print(f"load average before: {os.getloadavg()[0]:.1f}")
task = os.path.join(work, "lamp.yaml")
open(task, "w").write(f"name: lamp\ntask: Press Lamp\nstart_url: {base}/shop\nverify:\n  - text: {{contains: Added Lamp}}\n")
results = {False: [], True: []}
for r in range(ROUNDS):
    for cast in (False, True) if r % 2 == 0 else (True, False):
        out = os.path.join(work, f"out-{r}-{cast}")
        cmd = [rove, "test", task, *model, "--repeat", str(REPEAT), "-j", "1", "--traces", "all", "--out", out]
        if cast: cmd.append("--trace-screencast")
        wall, cpu, done = timed(cmd)
        size = sum(os.path.getsize(os.path.join(out, "traces", f)) for f in os.listdir(os.path.join(out, "traces")) if f.endswith(".trace"))
        frames = sum(open(os.path.join(out, "traces", f)).read().count('"kind":"frame"') for f in os.listdir(os.path.join(out, "traces")) if f.endswith(".trace"))
        results[cast].append((wall, cpu, size, frames))
        print(f"round {r + 1} screencast={'on ' if cast else 'off'}: {wall:.2f} s wall, {cpu:.2f} s CPU, traces {size / 1024:.0f} KiB, {frames} frames (status {done.returncode})")
for cast in (False, True):
    rows = results[cast]
    print(f"screencast {'on ' if cast else 'off'}: median wall {sorted(w for w, *_ in rows)[len(rows) // 2]:.2f} s, median CPU {sorted(c for _, c, *_ in rows)[len(rows) // 2]:.2f} s for {REPEAT} attempts")

env = dict(os.environ, ROVE_SESSION="screencast-bench")
anim = os.path.join(work, "moving.trace")
subprocess.run([rove, "trace", "start", anim, "--screencast"], env=env, check=True, capture_output=True)
subprocess.run([rove, "open", base + "/moving"], env=env, check=True, capture_output=True)
subprocess.run([rove, "wait", "60000"], env=env, check=True, capture_output=True)
subprocess.run([rove, "trace", "stop"], env=env, check=True, capture_output=True)
subprocess.run([rove, "close"], env=env, capture_output=True)
kept = open(anim).read().count('"kind":"frame"')
print(f"never-still page, 60 s: trace {os.path.getsize(anim) / 1048576:.1f} MiB, {kept} frame lines")

gif = os.path.join(work, "ten.gif"); trace = os.path.join(work, "ten.trace")
wall, cpu, done = timed([rove, "run", "Press the Lamp button ten times", *model, "--start-url", base + "/shop", "--max-steps", "12", "--gif", gif, "--trace", trace, "--trace-screencast"])
print(f"10-step run: {wall:.1f} s; GIF {os.path.getsize(gif) / 1024:.0f} KiB; trace {os.path.getsize(trace) / 1024:.0f} KiB ({done.stderr.strip().splitlines()[-1] if done.stderr.strip() else done.returncode})")
for name, source in (("10-step run", trace), ("60 s never-still page", anim)):
    out = os.path.join(work, "export.gif")
    wall, cpu, done = timed([rove, "trace", "export", source, "--gif", out])
    print(f"export of the {name}: {wall:.2f} s wall, {cpu:.2f} s CPU: {done.stdout.strip()}")
print(f"load average after: {os.getloadavg()[0]:.1f}; files in {work}")
