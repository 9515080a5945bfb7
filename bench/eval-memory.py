#!/usr/bin/env python3
"""The browser's memory per attempt running at once: rove test at -j 1 and
-j 8, sharing one browser (a context each) or with --isolate browser (a
browser each). Samples the proportional set size (PSS, so shared pages
count once) of rove's whole process tree every 0.2 s and reports the peak.
Needs bench/eval-servers.py running on port 18765 (bench/eval-load.sh
starts it; or start it by hand). Usage: eval-memory.py ROVE_BINARY"""
import json, os, subprocess, sys, tempfile, time

rove = sys.argv[1]
port = 18765

def tree(root):
    children = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(pid))
        except (OSError, IndexError, ValueError):
            pass
    out, todo = [], [root]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, []))
    return out

def pss_kb(pid):
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0

work = tempfile.mkdtemp()
with open(f"{work}/t.yaml", "w") as f:
    f.write(f"name: lamp\ntask: Press Lamp\nstart_url: http://127.0.0.1:{port}/shop\nverify: [{{text: {{contains: Added Lamp}}}}]\n")
for isolate in ["context", "browser"]:
    for j in [1, 8]:
        p = subprocess.Popen([rove, "test", f"{work}/t.yaml", "--model", "openai:scripted",
                              "--base-url", f"http://127.0.0.1:{port}/v1", "--api-key", "none",
                              "--vision", "off", "-j", str(j), "--repeat", str(2 * j),
                              "--isolate", isolate, "--json"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        peak = 0
        while p.poll() is None:
            peak = max(peak, sum(pss_kb(q) for q in tree(p.pid) if q != p.pid))
            time.sleep(0.2)
        out = json.loads(p.stdout.read() or b"{}")
        passed = out.get("suite", {}).get("passed")
        print(f"--isolate {isolate:7} -j {j}: browser PSS peak {peak / 1024:.0f} MB ({passed}/{2 * j} passed)")
