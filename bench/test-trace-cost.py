#!/usr/bin/env python3
"""What `rove test`'s traces cost: the shipped demo suite
(examples/demo-tasks) with the scripted model, -j 4, run with
`--traces off`, `--traces all`, and `--traces all --trace-screenshots`,
in turn, ROUNDS times each (interleaved, so a change in the machine's load
falls on every setting alike). Reports the wall time, rove's own CPU time
per attempt (user + system of the rove process: the browser's work is not
in it), and per step the bytes of the trace files and of their pages.

Usage: bench/test-trace-cost.py [TARGET_DIR] [ROUNDS]   (default target/release
and 3; needs rove and rove-demo-model there:
cargo build --release -p rove -p rove-demo)
"""
import json, os, statistics, subprocess, sys, tempfile, time, shutil

here = os.path.dirname(os.path.abspath(__file__))
target = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "target", "release")
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
rove = os.path.join(target, "rove")
suite = os.path.join(here, "..", "examples", "demo-tasks")
SETTINGS = {
    "off": ["--traces", "off"],
    "all": ["--traces", "all"],
    "all + screenshots": ["--traces", "all", "--trace-screenshots"],
}


def serve(args):
    """Starts a server that prints its URL first; returns (process, url)."""
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return p, p.stdout.readline().strip()


def cpu_seconds(pid):
    """The user and system CPU time a process used so far."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0


def run(flags, model_url):
    work = tempfile.mkdtemp(prefix="rove-trace-bench-")
    out = os.path.join(work, "out")
    site, site_url = serve([rove, "demo-site"])
    env = dict(os.environ, ROVE_DEMO_URL=site_url, ROVE_DEMO_PASSWORD="demo-pass",
               ROVE_DEMO_COMPANY_CARD="5555 5555 5555 4444", OPENAI_API_KEY="none")
    env.pop("ROVE_CDP_URL", None)
    started = time.monotonic()
    p = subprocess.Popen([rove, "test", suite, "--model", "openai:scripted", "--base-url", model_url,
                          "--vision", "off", "-j", "4", "--out", out, "--json", *flags],
                         env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    cpu = 0
    while p.poll() is None:
        cpu = max(cpu, cpu_seconds(p.pid))
        time.sleep(0.1)
    wall = time.monotonic() - started
    site.kill()
    results = json.load(open(os.path.join(out, "results.json")))
    attempts = results["suite"]["attempts"]
    steps = sum(a["steps"] for a in results["attempts"])
    traces = os.path.join(out, "traces")
    sizes = {".trace": 0, ".html": 0}
    if os.path.isdir(traces):
        for name in os.listdir(traces):
            ext = os.path.splitext(name)[1]
            if ext in sizes:
                sizes[ext] += os.path.getsize(os.path.join(traces, name))
    shutil.rmtree(work, ignore_errors=True)
    return {"wall": wall, "cpu_ms": cpu * 1000 / attempts, "passed": results["suite"]["passed"],
            "attempts": attempts, "steps": steps,
            "trace_b": sizes[".trace"] / max(steps, 1), "html_b": sizes[".html"] / max(steps, 1)}


def main():
    model, model_url = serve([os.path.join(target, "rove-demo-model")])
    seen = {name: [] for name in SETTINGS}
    try:
        for _ in range(rounds):
            for name, flags in SETTINGS.items():
                seen[name].append(run(flags, model_url))
    finally:
        model.kill()
    print("| traces | attempts | passed | steps | wall (median) | rove's CPU an attempt (median) | trace bytes a step | page bytes a step |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, runs in seen.items():
        med = lambda k: statistics.median(r[k] for r in runs)
        print(f"| {name} | {runs[0]['attempts']} | {min(r['passed'] for r in runs)}–{max(r['passed'] for r in runs)} "
              f"| {runs[0]['steps']} | {med('wall'):.1f} s | {med('cpu_ms'):.0f} ms "
              f"| {med('trace_b'):,.0f} | {med('html_b'):,.0f} |")


if __name__ == "__main__":
    main()
