#!/usr/bin/env python3
"""Commands and characters per task on reactive apps: rove against
agent-browser, each driven as a careful user drives it (issue 35).

The apps are those of rove's real-app tests, from the pinned venv in
target/apps (scripts/fetch-apps.sh): the Gradio app
(crates/rove/tests/it/real_apps/gradio_app.py) and Jupyter Notebook 7
(jupyter_app.py beside it). Each task is a fixed list of
steps per tool, written the way that tool is used: rove answers every
action with what changed, so a rove user reads the answer; agent-browser
answers an action with "Done", so its user takes a compact snapshot to
find refs and to see the result. Every task's end state is checked on
what the app's server received, and a task that does not reach it is
reported as failed, not counted.

    ROVE=target/release/rove AGENT_BROWSER=bench/.cache/node_modules/.bin/agent-browser \
        python3 bench/reactive-apps.py
"""

import json, os, re, socket, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROVE = os.environ.get("ROVE", str(ROOT / "target/release/rove"))
AGENT_BROWSER = os.environ.get("AGENT_BROWSER", str(ROOT / "bench/.cache/node_modules/.bin/agent-browser"))
APP = ROOT / "crates/rove/tests/it/real_apps/gradio_app.py"
STATEMENT = ROOT / "crates/rove/tests/it/real_apps/statement.txt"
CHROMIUM_ARGS = ("--no-sandbox,--disable-gpu,--disable-quic,--no-first-run,"
                 "--disable-background-networking,--disable-component-update,--disable-sync")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Tool:
    """One tool's session: runs commands, counts them and what they print."""

    def __init__(self, name, argv, env):
        self.name, self.argv, self.env = name, argv, env
        self.commands, self.chars, self.last, self.seen = 0, 0, "", []

    def run(self, *args):
        out = subprocess.run([*self.argv, *args], capture_output=True, text=True,
                             env=self.env, timeout=120, cwd=ROOT)
        self.last = out.stdout + out.stderr
        self.seen.append(self.last)
        self.commands += 1
        self.chars += len(self.last)
        return self.last

    def ref(self, role, name):
        """The ref of the element `role "name"` in the latest answer that
        shows it (a ref stays valid in both tools until its element goes)."""
        for line in (l for answer in reversed(self.seen) for l in answer.splitlines()):
            if self.name == "rove":
                m = re.search(r'\b(e\d+) ' + re.escape(role) + r' "' + re.escape(name), line)
                if m:
                    return m.group(1)
            else:
                if f'{role} "{name}' in line:
                    m = re.search(r"ref=(e\d+)", line)
                    if m:
                        return "@" + m.group(1)
        raise LookupError(f"{self.name}: no {role} {name!r} in its answers")


def rove_steps(t, url, task):
    # rove's answers show what changed: nothing more to look at.
    if task == "theme":
        t.run("open", url)
        t.run("fill", t.ref("combobox", "Theme"), "Dark")
        t.run("click", t.ref("button", "Save"))
    elif task == "payment":
        t.run("open", url)
        t.run("fill", t.ref("spinbutton", "Principal"), "300000")
        t.run("click", t.ref("button", "Compute"))
    elif task == "schedule":
        t.run("open", url)
        t.run("click", t.ref("tab", "Schedule"))
    elif task == "upload":
        t.run("open", url)
        t.run("click", t.ref("tab", "Estimate"))
        t.run("upload", t.ref("button", "Click to upload"), str(STATEMENT))
    elif task == "term":
        t.run("open", url)
        t.run("click", t.ref("tab", "Estimate"))
        t.run("fill", t.ref("slider", "range slider for Term"), "25")


def ab_steps(t, url, task):
    snap = lambda: t.run("snapshot", "-c")

    def until_shown():
        # The server answers later than the action: look until it shows.
        for _ in range(8):
            if SHOWN[task] in snap():
                return
            t.run("wait", "1000")

    def opened():
        # The app's page is built after the load: a user snapshots until it
        # is there (a wait, then again).
        t.run("open", url)
        for _ in range(10):
            if 'button "Compute' in snap():
                return
            t.run("wait", "1000")
    if task == "theme":
        opened()
        # fill only filters Gradio's list: open it and click the option.
        t.run("click", t.ref("combobox", "Theme")); snap()
        t.run("click", t.ref("option", "Dark")); snap()
        t.run("click", t.ref("button", "Save")); snap()
    elif task == "payment":
        opened()
        t.run("fill", t.ref("spinbutton", "Principal"), "300000")
        t.run("press", "Tab"); snap()
        t.run("click", t.ref("button", "Compute")); until_shown()
    elif task == "schedule":
        opened()
        t.run("click", t.ref("tab", "Schedule")); snap()
    elif task == "upload":
        opened()
        t.run("click", t.ref("tab", "Estimate")); snap()
        t.run("upload", "input[type=file]", str(STATEMENT)); until_shown()
    elif task == "term":
        opened()
        t.run("click", t.ref("tab", "Estimate")); snap()
        # Its slider takes no fill (it typed into the number box); the box
        # commits on blur, not on Enter.
        t.run("fill", t.ref("spinbutton", "number input for Term"), "25")
        t.run("press", "Tab"); until_shown()


def rove_notebook(t, url):
    t.run("open", url)
    for _ in range(10):
        if "New Folder" in t.last or 'menuitem "New"' in t.last:
            break
        t.run("snapshot")
    t.run("click", t.ref("menuitem", "New"))
    t.run("click", t.ref("menuitem", "New Folder"))
    name = re.search(r"\b(e\d+) textbox", t.last)
    t.run("fill", name.group(1) if name else "e0", "archive", "--submit")


def ab_notebook(t, url):
    snap = lambda: t.run("snapshot", "-c")
    t.run("open", url)
    for _ in range(10):
        if 'menuitem "New"' in snap():
            break
        t.run("wait", "1000")
    t.run("click", t.ref("menuitem", "New")); snap()
    t.run("click", t.ref("menuitem", "New Folder")); snap()
    name = re.search(r'textbox[^\n]*ref=(e\d+)', t.last)
    t.run("fill", "@" + (name.group(1) if name else "e0"), "archive")
    t.run("press", "Enter"); snap()


# What the app's server must hold after each task (the JSON it writes).
WANTED = {
    "theme": ("saved", lambda v: v.get("theme") == "Dark"),
    "payment": ("payment", lambda v: v.get("principal") == 300000),
    "schedule": None,  # nothing reaches the server: the answer must show the code
    "upload": ("statement", lambda v: v.get("lines") == 3),
    "term": ("estimate", lambda v: v.get("term") == 25),
}
SHOWN = {
    "theme": "Saved theme Dark",
    "payment": "1979.87",
    "schedule": "schedule = plan(term=20)",
    "upload": "Statement lines: 3",
    "term": "Estimate for 25 years",
}


def tool(name, run):
    if name == "rove":
        return Tool("rove", [ROVE], dict(os.environ, ROVE_SESSION=run))
    return Tool("agent-browser", [AGENT_BROWSER, "--session", run],
                dict(os.environ, AGENT_BROWSER_EXECUTABLE_PATH="/usr/bin/chromium",
                     AGENT_BROWSER_ARGS=CHROMIUM_ARGS))


def notebook_rows():
    """Notebook 7: make a folder from the New menu and name it "archive";
    checked on disk. Each tool gets a fresh server and folder."""
    rows = []
    for name in ("rove", "agent-browser"):
        base = Path(tempfile.mkdtemp(prefix="rove-notebook-"))
        token = "bench-token"
        server = subprocess.Popen(
            [str(ROOT / "target/apps/bin/python"), str(APP.parent / "jupyter_app.py"),
             "serve", str(base), token, "notebook"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            info = base / f"runtime/jpserver-{server.pid}.json"
            for _ in range(120):
                if info.exists():
                    try:
                        port = json.loads(info.read_text())["port"]
                        break
                    except (ValueError, KeyError):
                        pass
                time.sleep(0.5)
            (base / "notebooks").mkdir(exist_ok=True)
            (base / "notebooks/notes.md").write_text("notes\n")
            run = f"{name.replace('-', '')}-folder-{os.getpid()}"
            t = tool(name, run)
            url = f"http://127.0.0.1:{port}/tree?token={token}"
            try:
                (rove_notebook if name == "rove" else ab_notebook)(t, url)
                error = None
            except Exception as e:
                error = str(e).splitlines()[0]
            subprocess.run([*t.argv, "close"], env=t.env, capture_output=True, timeout=60)
            done = False
            for _ in range(20):
                done = (base / "notebooks/archive").is_dir()
                if done:
                    break
                time.sleep(0.5)
            done = done and not error
            rows.append(("folder", name, t.commands, t.chars, done, error))
            print(f"folder    {name:14} {t.commands:3} commands {t.chars:7} chars "
                  f"{'done' if done else 'NOT DONE'} {error or ''}", file=sys.stderr)
        finally:
            server.terminate()
            server.wait(timeout=20)
    return rows


def main():
    state = Path(tempfile.mkdtemp(prefix="rove-reactive-"))
    port = free_port()
    app = subprocess.Popen([str(ROOT / "target/apps/bin/python"), str(APP), str(port)],
                           env=dict(os.environ, ROVE_GRADIO_STATE=str(state)),
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(120):
            try:
                socket.create_connection(("127.0.0.1", port), 0.5).close()
                break
            except OSError:
                time.sleep(0.5)
        rows = []
        for task in WANTED:
            for name in ("rove", "agent-browser"):
                run = f"{name.replace('-', '')}-{task}-{os.getpid()}"
                url = f"http://127.0.0.1:{port}/?run={run}"
                t = tool(name, run)
                steps = rove_steps if name == "rove" else ab_steps
                try:
                    steps(t, url, task)
                    error = None
                except Exception as e:  # a step that could not be taken
                    error = str(e).splitlines()[0]
                seen = "".join(t.seen)
                # Closing is not part of the task.
                subprocess.run([*t.argv, "close"], env=t.env, capture_output=True, timeout=60)
                shown = SHOWN[task] in seen
                held = True
                if WANTED[task]:
                    key, ok = WANTED[task]
                    file = state / f"{run}.json"
                    for _ in range(20):
                        values = json.loads(file.read_text()) if file.exists() else {}
                        held = key in values and ok(values[key])
                        if held:
                            break
                        time.sleep(0.5)
                done = shown and held and not error
                rows.append((task, name, t.commands, t.chars, done, error))
                print(f"{task:9} {name:14} {t.commands:3} commands {t.chars:7} chars "
                      f"{'done' if done else 'NOT DONE'} {error or ''}", file=sys.stderr)
        rows += notebook_rows()
        print("| task | rove commands | rove characters | agent-browser commands | agent-browser characters |")
        print("|---|---|---|---|---|")
        total = {"rove": [0, 0], "agent-browser": [0, 0]}
        for task in [*WANTED, "folder"]:
            cells = []
            for name in ("rove", "agent-browser"):
                row = next(r for r in rows if r[0] == task and r[1] == name)
                total[name][0] += row[2]
                total[name][1] += row[3]
                mark = "" if row[4] else " (not done)"
                cells += [f"{row[2]}{mark}", f"{row[3]:,}"]
            print(f"| {task} | " + " | ".join(cells) + " |")
        print(f"| **all** | {total['rove'][0]} | {total['rove'][1]:,} | "
              f"{total['agent-browser'][0]} | {total['agent-browser'][1]:,} |")
    finally:
        app.terminate()
        app.wait(timeout=10)


if __name__ == "__main__":
    main()
