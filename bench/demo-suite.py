#!/usr/bin/env python3
"""rove test on the shipped demo suite (examples/demo-tasks) with the
scripted model: attempts a minute, rove's own peak RSS (VmHWM of the rove
process) and the browser's peak PSS (rove's process tree without rove, so
pages shared between processes count once), at -j 1, 8, 32 and 64; then
the browser's memory per extra attempt with a context each (default)
against a browser each (--isolate browser), at -j 1 and -j 8.

The suite is copied as often as a level needs attempts (copy k runs on the
seeded accounts' numbered copies, cat-k …, so copies never share state);
each level gets a fresh demo shop. The model costs nothing, so the figures
are rove's and Chromium's own overhead; rove's CPU time per attempt
tells the two apart.

Usage: bench/demo-suite.py [--memory] [TARGET_DIR]   (default target/release;
needs rove and rove-demo-model there: cargo build --release -p rove -p rove-demo).
--memory runs only the levels the memory comparison needs (-j 1 and -j 8,
a context each and a browser each).
"""
import json, math, os, re, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
args = sys.argv[1:]
memory_only = "--memory" in args
args = [a for a in args if a != "--memory"]
target = args[0] if args else os.path.join(here, "..", "target", "release")
rove = os.path.join(target, "rove")
suite = os.path.join(here, "..", "examples", "demo-tasks")
USERS = ["ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jon", "kim", "lea",
         "max", "ned", "oli", "pam", "quin", "rex", "sue", "tom", "uma", "vic", "wes", "xia",
         "yan", "zoe", "newcomer"]
TASKS = 22


def serve(args):
    """Starts a server that prints its URL first; returns (process, url)."""
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return p, p.stdout.readline().strip()


def copies(work, count):
    """`count` copies of the suite in `work`, the k-th on accounts user-k."""
    os.makedirs(work, exist_ok=True)
    users = re.compile(r"\b(" + "|".join(USERS) + r")\b")
    for k in range(1, count + 1):
        for name in sorted(os.listdir(suite)):
            text = open(os.path.join(suite, name)).read()
            if k > 1:
                text = users.sub(lambda m: f"{m.group(1)}-{k}", text)
                text = re.sub(r"^(- )?name: (\w+)", lambda m: f"{m.group(1) or ''}name: {m.group(2)}-{k}",
                              text, flags=re.M)
            open(os.path.join(work, f"{k}-{name}"), "w").write(text)


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


def field_kb(path, key):
    try:
        with open(path) as f:
            for line in f:
                if line.startswith(key):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def kind(pid):
    """Chromium's process type (`renderer`, `gpu-process`…); `browser` for
    the main process. Chromium rewrites its command line into one string."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            args = f.read().replace(b"\0", b" ").decode(errors="replace").split()
    except OSError:
        return "gone"
    if not args or "crashpad" in args[0] or "chrom" not in args[0]:
        return "other"
    return next((a[len("--type="):] for a in args if a.startswith("--type=")), "browser")


def cpu_seconds(pid):
    """The user and system CPU time a process used so far."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0


def run(jobs, count, isolate, model_url):
    work = tempfile.mkdtemp(prefix="rove-demo-bench-")
    copies(work, count)
    site, site_url = serve([rove, "demo-site"])
    env = dict(os.environ, ROVE_DEMO_URL=site_url, ROVE_DEMO_PASSWORD="demo-pass",
               ROVE_DEMO_COMPANY_CARD="5555 5555 5555 4444", OPENAI_API_KEY="none")
    env.pop("ROVE_CDP_URL", None)
    started = time.monotonic()
    p = subprocess.Popen([rove, "test", work, "--model", "openai:scripted", "--base-url", model_url,
                          "--vision", "off", "-j", str(jobs), "--isolate", isolate,
                          "--out", os.path.join(work, "out"), "--json"],
                         env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    rove_peak = browser_peak = browser_uss_peak = rove_cpu = 0
    most = {"renderer": 0, "browser": 0}
    while p.poll() is None:
        rove_peak = max(rove_peak, field_kb(f"/proc/{p.pid}/status", "VmHWM:"))
        rove_cpu = max(rove_cpu, cpu_seconds(p.pid))
        pids = [q for q in tree(p.pid) if q != p.pid]
        browser = [f"/proc/{q}/smaps_rollup" for q in pids]
        # How many pages and browsers were alive at once: peaks of short
        # attempts may hold fewer than -j of them.
        kinds = [kind(q) for q in pids]
        for k in most:
            most[k] = max(most[k], kinds.count(k))
        browser_peak = max(browser_peak, sum(field_kb(f, "Pss:") for f in browser))
        # Private memory too: PSS splits shared pages with every other
        # Chromium on the machine, so it moves when other users' start.
        browser_uss_peak = max(browser_uss_peak, sum(field_kb(f, "Private_Clean:") +
                                                     field_kb(f, "Private_Dirty:") for f in browser))
        time.sleep(0.2)
    wall = time.monotonic() - started
    site.kill()
    results = json.load(open(os.path.join(work, "out", "results.json")))
    s = results["suite"]
    timeouts = sum(1 for a in results["attempts"] if a.get("ending") == "timeout")
    for a in results["attempts"]:
        if a["status"] != "passed":
            print(f"    -j {jobs} {a['task']} #{a['attempt']}: {a['status']}: {a['reason']}", flush=True)
    subprocess.run(["rm", "-rf", work])
    return dict(jobs=jobs, isolate=isolate, attempts=s["attempts"], passed=s["passed"],
                timeouts=timeouts, wall=wall, per_min=s["attempts"] / wall * 60,
                rove_mb=rove_peak / 1024, browser_mb=browser_peak / 1024,
                browser_uss_mb=browser_uss_peak / 1024, renderers=most["renderer"],
                browsers=most["browser"],
                rove_cpu_ms=rove_cpu / s["attempts"] * 1000)


def show(r):
    print(f"--isolate {r['isolate']:7} -j {r['jobs']:>2}: {r['passed']}/{r['attempts']} passed, "
          f"{r['timeouts']} timed out, {r['wall']:.1f} s, {r['per_min']:.0f} attempts/min, "
          f"rove peak RSS {r['rove_mb']:.0f} MB and {r['rove_cpu_ms']:.0f} ms CPU an attempt, "
          f"browser peak PSS {r['browser_mb']:.0f} MB, USS {r['browser_uss_mb']:.0f} MB, "
          f"at most {r['browsers']} browsers and {r['renderers']} renderers at once", flush=True)


model, model_url = serve([os.path.join(target, "rove-demo-model")])
try:
    print(f"load average {open('/proc/loadavg').read().split()[0]}", flush=True)
    levels = {}
    for jobs in [1, 8] if memory_only else [1, 8, 32, 64]:
        levels[jobs] = run(jobs, max(1, math.ceil(jobs / TASKS)), "context", model_url)
        show(levels[jobs])
    isolated = {jobs: run(jobs, 1, "browser", model_url) for jobs in [1, 8]}
    for r in isolated.values():
        show(r)
    for key, name in [("browser_mb", "PSS"), ("browser_uss_mb", "USS")]:
        context = (levels[8][key] - levels[1][key]) / 7
        browser = (isolated[8][key] - isolated[1][key]) / 7
        print(f"{name} per extra attempt at -j 8: a context {context:.0f} MB, a browser {browser:.0f} MB "
              f"(ratio {context / browser:.2f})")
    print(f"load average {open('/proc/loadavg').read().split()[0]}")
finally:
    model.kill()
