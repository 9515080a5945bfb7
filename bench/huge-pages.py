#!/usr/bin/env python3
"""Huge pages (issue 46): what rove's commands cost on pages that grow.

Generates tables of 1,000 to 100,000 rows (a number, a link and a button
per row), a log page (one <pre> of 20,000 lines, about 1 MB) and a list of
50,000 items that appends more as it is scrolled, serves them on
127.0.0.1, and times through rove's CLI, in a session whose browser is
already up: `open`, a warm `snapshot`, `find`
of the last row, a `click` by ref with its diff (the first button the
view shows) and a `click` by locator (the last row's button, scrolled to;
the log's and the list's one button), and for each of the last four, and
for a locator that matches nothing (`role=dialog`), the longest the
page's thread waited (a heartbeat timer on the page). Chromium's own load
time is `chromium --dump-dom` of the page less that of about:blank.
The floor of a click: the same page in a Chromium driven over raw CDP
(raw_cdp.py), the three mouse events of a click on the first row's button
(move, press, release) until Chromium answered, and how long they held
the page's thread.
Medians of TRIALS runs. With AGENT_BROWSER naming agent-browser's binary,
the same for it: `open`, its `snapshot` (the first and a warm one) and a
`click` by its ref (AB_TRIALS runs: its snapshots of big pages take
minutes). Usage: huge-pages.py ROVE_BINARY [TRIALS]
"""
import http.server, os, shutil, statistics, subprocess, sys, tempfile, threading, time

import raw_cdp

ROVE = sys.argv[1]
TRIALS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
ROOT = tempfile.mkdtemp(prefix="rove-huge-")

# Each page keeps a heartbeat: the longest its thread went without running
# a 5 ms timer, read and reset around each command, is how long rove held
# the page (its scripts, and the layout they forced) in one go.
HEART = ("<script>let beat = performance.now(); globalThis.__worst = 0; setInterval(() => {"
         " const now = performance.now(); __worst = Math.max(__worst, now - beat); beat = now; }, 5);</script>")

def write(name, html):
    with open(os.path.join(ROOT, name), "w") as f:
        f.write(html + HEART)

pages = []
for n in (1000, 10000, 30000, 50000, 100000):
    rows = "".join(f"<tr><td>{i}</td><td><a href='#r{i}'>Item {i}</a></td><td><button>Buy {i}</button></td></tr>" for i in range(n))
    write(f"rows-{n}.html", f"<!doctype html><title>Rows {n}</title><h1>Rows {n}</h1><table>{rows}</table>")
    pages.append((f"table, {n:,} rows", f"rows-{n}.html", f"Buy {n - 1}", f"text=Buy {n - 1}"))
lines = "\n".join(f"[{i:05d}] step {i} ok: compiled module_{i} in {i % 97} ms" for i in range(20000))
write("log.html", f"<!doctype html><title>Log</title><h1>Build log</h1><button>Rerun</button><pre>{lines}</pre>")
pages.append(("log, 20,000 lines", "log.html", "step 19999 ok", 'role=button[name="Rerun"]'))
items = "".join(f"<li>Message {i}</li>" for i in range(50000))
write("list.html", "<!doctype html><title>Feed</title><h1>Feed</h1><button>New post</button><ul id=feed>" + items +
      "</ul><script>let n = 50000; addEventListener('scroll', () => { if (innerHeight + scrollY < document.body.scrollHeight - 500) return;"
      " const ul = document.getElementById('feed'); for (let i = 0; i < 1000; i++) { const li = document.createElement('li');"
      " li.textContent = 'Message ' + (n++); ul.appendChild(li); } });</script>")
pages.append(("infinite list, 50,000 items", "list.html", "Message 49999", "text=New post"))

class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a):
        pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), lambda *a: Quiet(*a, directory=ROOT))
threading.Thread(target=server.serve_forever, daemon=True).start()
base = f"http://127.0.0.1:{server.server_address[1]}/"

def timed(args, env=None):
    start = time.monotonic()
    out = subprocess.run(args, capture_output=True, text=True, env=env, timeout=300)
    return time.monotonic() - start, out.stdout + out.stderr

def dump_dom(url):
    profile = tempfile.mkdtemp(prefix="rove-huge-chromium-")
    try:
        took, _ = timed(["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                         "--no-first-run", "--disable-background-networking", "--disable-component-update",
                         "--disable-sync", f"--user-data-dir={profile}", "--dump-dom", url])
        return took
    finally:
        shutil.rmtree(profile, ignore_errors=True)

def rove(session, *args):
    env = dict(os.environ, ROVE_SESSION=session)
    return timed([ROVE, *args], env)

def ref_of(view, role):
    """The ref of the first element of `role` the view shows (a table's
    line shows its row's ref first, then its cells': `e3 | 0 | e4 link
    "Item 0" | e5 button "Buy 0" |`)."""
    for line in view.splitlines():
        words = line.split()
        for before, word in zip(words, words[1:]):
            if word == role and before.startswith("e") and before[1:].isdigit():
                return before
    return None

AGENT_BROWSER = os.environ.get("AGENT_BROWSER")

def agent_browser(session, *args):
    env = dict(os.environ, AGENT_BROWSER_EXECUTABLE_PATH="/usr/bin/chromium",
               AGENT_BROWSER_ARGS="--no-sandbox,--disable-gpu,--disable-quic,--no-first-run,"
               "--disable-background-networking,--disable-component-update,--disable-sync")
    try:
        return timed([AGENT_BROWSER, "--session", session, *args], env)
    except subprocess.TimeoutExpired:
        return 300.0, "timed out after 300 s"

def ab_ref(view):
    for line in view.splitlines():
        if "button" in line and "[ref=" in line:
            return "@" + line.split("[ref=")[1].split("]")[0]
    return None

def held(session, *args):
    """A command's time, and the longest it held the page's thread. The
    page zeroes its heartbeat itself, after `eval`'s own diff (a walk of the
    page, which on the log page reads its whole `pre`) is done, so what is
    read is the command's alone."""
    rove(session, "eval", "setTimeout(() => { __worst = 0; }, 400)")
    time.sleep(0.6)
    took, _ = rove(session, *args)
    _, worst = rove(session, "eval", "__worst")
    try:
        return took, float(worst.strip().splitlines()[0])
    except (ValueError, IndexError):
        return took, float("nan")

def raw_clicks(url):
    """Raw CDP's click on the first button, fresh under the pointer each
    time (as rove's first click after `open` is): seconds and page held."""
    browser = raw_cdp.Browser()
    try:
        browser.load(url)
        got = []
        for _ in range(TRIALS):
            browser.page.call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": 700, "y": 5})
            browser.value("document.activeElement && document.activeElement.blur()")
            got.append(browser.click("button"))
        return statistics.median(t for t, _ in got), statistics.median(w for _, w in got)
    finally:
        browser.close()

print("| page | Chromium's load | `open` | ÷ Chromium | warm `snapshot` | `find` last | `click` by ref + diff | raw CDP click (held) | click ÷ raw | `click` by locator | page held: snapshot / find / click / locator / none matched |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
blank = statistics.median(dump_dom("about:blank") for _ in range(TRIALS))
ONLY = os.environ.get("ONLY")
for label, name, last, locator in pages:
    if ONLY and not any(word in label for word in ONLY.split(",")):
        continue
    url = base + name
    chromium = statistics.median(dump_dom(url) - blank for _ in range(TRIALS))
    opens, snaps, finds, clicks, located = [], [], [], [], []
    holds = {"snapshot": [], "find": [], "click": [], "locator": [], "none": []}
    for t in range(TRIALS):
        session = f"huge-bench-{os.getpid()}-{t}"
        # The browser is up first: `open` is timed as a load, not a launch.
        rove(session, "open", "about:blank")
        took, view = rove(session, "open", url)
        opens.append(took)
        if "error[" in view:
            print(f"<!-- {label}: open said {view.splitlines()[0]} -->")
        took, worst = held(session, "snapshot")
        snaps.append(took)
        holds["snapshot"].append(worst)
        took, worst = held(session, "find", last)
        finds.append(took)
        holds["find"].append(worst)
        target = ref_of(view, "button")
        if target:
            took, worst = held(session, "click", target)
            clicks.append(took)
            holds["click"].append(worst)
        # By locator, in the same document: the search's index is the one
        # `find` built (kept while the document does not change).
        took, worst = held(session, "click", locator)
        located.append(took)
        holds["locator"].append(worst)
        # A locator that matches nothing looks in every shadow root before
        # it says so.
        holds["none"].append(held(session, "click", "role=dialog")[1])
        rove(session, "close")
    med = lambda xs: statistics.median(xs) if xs else float("nan")
    raw, raw_held = raw_clicks(url)
    print(f"| {label} | {chromium:.2f} s | {med(opens):.2f} s | {med(opens) / chromium:.2f}× | "
          f"{med(snaps) * 1000:.0f} ms | {med(finds) * 1000:.0f} ms | {med(clicks) * 1000:.0f} ms | "
          f"{raw * 1000:.0f} ms ({raw_held:.0f} ms) | {med(clicks) / raw:.2f}× | {med(located) * 1000:.0f} ms | "
          f"{med(holds['snapshot']):.0f} / {med(holds['find']):.0f} / {med(holds['click']):.0f} / "
          f"{med(holds['locator']):.0f} / {med(holds['none']):.0f} ms |", flush=True)
    if AGENT_BROWSER:
        ab = {"open": [], "first": [], "warm": [], "click": []}
        for t in range(int(os.environ.get("AB_TRIALS", TRIALS))):
            session = f"huge-ab-{os.getpid()}-{t}"
            agent_browser(session, "open", "about:blank")
            ab["open"].append(agent_browser(session, "open", url)[0])
            took, view = agent_browser(session, "snapshot")
            ab["first"].append(took)
            ab["warm"].append(agent_browser(session, "snapshot")[0])
            target = ab_ref(view)
            if target:
                ab["click"].append(agent_browser(session, "click", target)[0])
            agent_browser(session, "close")
        print(f"| ↳ agent-browser | | {med(ab['open']):.2f} s + first snapshot {med(ab['first']):.2f} s | "
              f"{(med(ab['open']) + med(ab['first'])) / chromium:.2f}× | {med(ab['warm']) * 1000:.0f} ms | — | "
              f"{med(ab['click']) * 1000:.0f} ms | | {med(ab['click']) / raw:.2f}× | | |", flush=True)
server.shutdown()
shutil.rmtree(ROOT, ignore_errors=True)
