#!/usr/bin/env python3
"""The real-application tasks of crates/rove/tests/it/real_apps, done with
agent-browser's CLI the way a careful agent does them: `snapshot -i` to get
refs, act on `@eN` refs from the latest snapshot, and a snapshot again
whenever the next step needs refs the page has just made or needs to see
what an action did (agent-browser answers an action with "Done").

Starts Django, JupyterLab, Streamlit and Datasette the way the tests do,
checks every end state on the server the same way (the database, the
notebook files, the Streamlit server's state JSON, Datasette's URL, rows and
exported CSV), and writes one transcript per test, in the tests' format, to
OUT_DIR/<test>.jsonl ({"task", "args", "status", "stdout", "stderr"} per
command), for rove-bench-apps to count.

Usage: apps_agent_browser.py AGENT_BROWSER_EXE VENV_DIR OUT_DIR [TEST...]
(all tests unless some are named: django_group, django_user, jupyter,
streamlit_form, streamlit_controls, streamlit_editor, datasette, datasette_sql)
"""

import datetime
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
HELPERS = HERE.parent / "crates" / "rove" / "tests" / "it" / "real_apps"
PASSWORD = "rove-admin-Pw-1"
TOKEN = "rove-real-apps-token"
DEADLINE = 90.0
REF_LINE = re.compile(r'^\s*- (\w+)(?: "((?:[^"\\]|\\.)*)")?(?: \[([^\]]*)\])?(?:: (.*))?$')


class AgentBrowser:
    """One agent-browser session; every command goes to the transcript."""

    def __init__(self, exe: str, session: str, transcript: Path):
        self.exe = exe
        self.session = session
        self.transcript = transcript.open("w")
        self.task_name = ""
        self.view = ""
        self.env = dict(
            os.environ,
            AGENT_BROWSER_EXECUTABLE_PATH="/usr/bin/chromium",
            AGENT_BROWSER_ARGS="--no-sandbox,--disable-gpu,--disable-quic,--no-first-run,"
            "--disable-background-networking,--disable-component-update,--disable-sync",
        )

    def task(self, name: str) -> None:
        self.task_name = name

    def run(self, *args: str) -> str:
        done = subprocess.run(
            [self.exe, "--session", self.session, *args],
            capture_output=True,
            text=True,
            timeout=120,
            env=self.env,
            stdin=subprocess.DEVNULL,
        )
        line = {
            "task": self.task_name,
            "args": list(args),
            "status": done.returncode,
            "stdout": done.stdout,
            "stderr": done.stderr,
        }
        self.transcript.write(json.dumps(line) + "\n")
        self.transcript.flush()
        if done.returncode != 0:
            raise RuntimeError(f"agent-browser {args} failed: {done.stdout}{done.stderr}")
        return done.stdout

    def quiet(self, *args: str) -> str:
        """A look the agent is granted for free (not recorded): see click."""
        done = subprocess.run(
            [self.exe, "--session", self.session, *args],
            capture_output=True, text=True, timeout=120, env=self.env, stdin=subprocess.DEVNULL,
        )
        return done.stdout

    def into_view(self, ref: str) -> None:
        """agent-browser 0.27's click does not scroll: on an element below
        the fold it reports "Done" and nothing happens. The agent here is
        granted knowing where each element is (that look is not counted) and
        pays only for the `scrollintoview` a careful agent would send."""
        box = json.loads(self.quiet("get", "box", ref, "--json"))["data"]
        height = float(self.quiet("eval", "innerHeight").strip() or 0)
        if box["y"] < 0 or box["y"] + box["height"] > height:
            self.run("scrollintoview", ref)

    def click(self, ref: str) -> None:
        self.into_view(ref)
        self.run("click", ref)

    def loaded(self) -> None:
        """After an action that loads a page: agent-browser answers the click
        at once, and its guide says to wait for the load this way."""
        self.run("wait", "--load", "networkidle")

    def check(self, ref: str) -> None:
        self.into_view(ref)
        self.run("check", ref)

    def snap(self, *flags: str) -> str:
        self.view = self.run("snapshot", *flags)
        return self.view

    def until(self, what: str, holds) -> None:
        """`snapshot -i` until `holds(view)`, with `wait 250` between."""
        started = time.monotonic()
        self.snap("-i")
        while not holds(self.view):
            if time.monotonic() - started > DEADLINE:
                raise RuntimeError(f"{what}: not shown; last snapshot:\n{self.view}")
            self.run("wait", "250")
            self.snap("-i")

    def close(self) -> None:
        """Ends the session (not a step of any task: not recorded)."""
        subprocess.run(
            [self.exe, "--session", self.session, "close"],
            capture_output=True, timeout=120, env=self.env, stdin=subprocess.DEVNULL,
        )
        self.transcript.close()


def items(view: str):
    """(role, name, attributes, value, ref) of every line of a snapshot."""
    for line in view.splitlines():
        m = REF_LINE.match(line)
        if not m or not m.group(3):
            continue
        attrs = m.group(3)
        ref = re.search(r"ref=(e\d+)", attrs)
        if ref:
            name = m.group(2)
            if name is not None:
                name = name.replace('\\"', '"').replace("\\\\", "\\")
            yield m.group(1), name, attrs, m.group(4), "@" + ref.group(1)


def ref(view: str, role: str, name=None, prefix=None, after=None, nameless=False, index=0) -> str:
    """The ref of the index-th element of `role` that matches, in a snapshot,
    counting from the line that contains `after`."""
    if after is not None:
        at = view.find(after)
        if at < 0:
            raise RuntimeError(f"no {after!r} in:\n{view}")
        view = view[at:]
    found = [
        r
        for (ro, n, _, _, r) in items(view)
        if ro == role
        and (name is None or n == name)
        and (prefix is None or (n or "").startswith(prefix))
        and (not nameless or n is None)
    ]
    if len(found) <= index:
        raise RuntimeError(f"no {role} {name or prefix or ''!r} in:\n{view}")
    return found[index]


def marked(view: str, role: str) -> str:
    """The ref of the first line of `role`, also one `items` skips for the
    marks agent-browser adds after its attributes (`focusable [tabindex]`)."""
    m = re.search(rf"^\s*- {role}\b[^\n]*?\bref=(e\d+)", view, re.M)
    if not m:
        raise RuntimeError(f"no {role} in:\n{view}")
    return "@" + m.group(1)


def has(view: str, role: str, name: str) -> bool:
    return any(ro == role and n == name for (ro, n, _, _, _) in items(view))


def eventually(what: str, check):
    started = time.monotonic()
    while True:
        ok, value = check()
        if ok:
            return value
        if time.monotonic() - started > 30:
            raise RuntimeError(f"{what}: not so; last seen {value}")
        time.sleep(0.1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def answers(port: int, path: str) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5):
            return True
    except Exception:
        return False


# ---- the applications ---------------------------------------------------------


class Apps:
    def __init__(self, venv: Path, base: Path):
        self.python = str(venv / "bin" / "python")
        self.base = base
        self.procs = []
        self.django_root = base / "django"
        self.jupyter_dir = base / "jupyter"
        self.streamlit_state = base / "streamlit"

    def start(self) -> None:
        log = (self.base / "apps.log").open("w")
        self.procs.append(
            subprocess.Popen(
                [self.python, str(HELPERS / "django_app.py"), "serve", str(self.django_root), PASSWORD],
                stdout=log, stderr=log, stdin=subprocess.DEVNULL, start_new_session=True,
            )
        )
        jupyter = subprocess.Popen(
            [self.python, str(HELPERS / "jupyter_app.py"), "serve", str(self.jupyter_dir), TOKEN],
            stdout=log, stderr=log, stdin=subprocess.DEVNULL, start_new_session=True,
        )
        self.procs.append(jupyter)
        st_port, ds_port = free_port(), free_port()
        self.procs.append(
            subprocess.Popen(
                [str(Path(self.python).with_name("streamlit")), "run", str(HELPERS / "streamlit_app.py"),
                 "--server.address", "127.0.0.1", "--server.port", str(st_port),
                 "--server.headless", "true", "--browser.gatherUsageStats", "false",
                 "--server.fileWatcherType", "none"],
                stdout=log, stderr=log, stdin=subprocess.DEVNULL, start_new_session=True,
                env=dict(os.environ, ROVE_STREAMLIT_STATE=str(self.streamlit_state), HOME=str(self.base),
                         PYTHONDONTWRITEBYTECODE="1"),
            )
        )
        self.procs.append(
            subprocess.Popen(
                [self.python, str(HELPERS / "datasette_app.py"), "serve", str(self.base / "datasette"), str(ds_port)],
                stdout=log, stderr=log, stdin=subprocess.DEVNULL, start_new_session=True,
                env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"),
            )
        )
        self.streamlit = f"http://127.0.0.1:{st_port}/"
        self.datasette = f"http://127.0.0.1:{ds_port}/"
        port_file = self.django_root / "port"
        info = self.jupyter_dir / "runtime" / f"jpserver-{jupyter.pid}.json"
        started = time.monotonic()
        while not (
            port_file.exists() and info.exists()
            and answers(st_port, "/_stcore/health") and answers(ds_port, "/-/versions.json")
        ):
            if time.monotonic() - started > 120:
                raise RuntimeError("the apps did not start; see " + str(self.base / "apps.log"))
            time.sleep(0.1)
        self.django = f"http://127.0.0.1:{port_file.read_text().strip()}/"
        self.jupyter = f"http://127.0.0.1:{json.loads(info.read_text())['port']}/"
        self.notebooks = self.jupyter_dir / "notebooks"

    def stop(self) -> None:
        for p in self.procs:
            try:
                os.killpg(p.pid, signal.SIGTERM)
                p.wait(timeout=20)
            except Exception:
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass

    def query(self, *args: str) -> dict:
        out = subprocess.run(
            [self.python, str(HELPERS / "django_app.py"), *args[:1], str(self.django_root), *args[1:]],
            capture_output=True, text=True, check=True,
        )
        return json.loads(out.stdout)

    def lab(self, workspace: str, path: str = "") -> str:
        return f"{self.jupyter}lab/workspaces/{workspace}{path}?token={TOKEN}"


# ---- Django -------------------------------------------------------------------


def django_log_in(ab: AgentBrowser, apps: Apps) -> None:
    ab.task("django: log in")
    ab.run("open", apps.django + "admin/")
    v = ab.snap("-i")
    ab.run("fill", ref(v, "textbox", "Username:"), "admin")
    ab.run("fill", ref(v, "textbox", "Password:"), PASSWORD)
    ab.click(ref(v, "button", "Log in"))
    ab.loaded()
    # agent-browser answers a click before the page it leads to has loaded:
    # read the page until it shows what the click leads to.
    ab.until("the admin's index", lambda v: has(v, "heading", "Site administration"))


def django_group(ab: AgentBrowser, apps: Apps) -> None:
    django_log_in(ab, apps)
    ab.task("django: create a group with three permissions")
    ab.click(ref(ab.view, "link", "Add", after='link "Groups"'))
    ab.loaded()
    # The two-pane widget is built by the page's script after the load.
    ab.until(
        "the group form",
        lambda v: has(v, "textbox", "Name:") and has(v, "button", "Choose selected permissions"),
    )
    v = ab.view
    ab.run("fill", ref(v, "textbox", "Name:"), "Reviewers")
    ab.run(
        "select",
        ref(v, "listbox", prefix="Available permissions"),
        "Authentication and Authorization | user | Can view user",
        "Authentication and Authorization | user | Can change user",
        "Authentication and Authorization | group | Can view group",
    )
    ab.click(ref(v, "button", "Choose selected permissions"))
    chosen = ab.snap("-i")
    assert "Can change user" in chosen[chosen.find('listbox "Chosen permissions'):], chosen
    ab.click(ref(chosen, "button", "Save"))
    ab.loaded()
    ab.until("the group in the change list", lambda v: has(v, "link", "Reviewers"))
    group = eventually("the group", lambda: ((g := apps.query("group", "Reviewers"))["exists"], g))
    assert group["permissions"] == ["auth.change_user", "auth.view_group", "auth.view_user"], group


def django_user(ab: AgentBrowser, apps: Apps) -> None:
    django_log_in(ab, apps)
    ab.task("django: add a user")
    ab.click(ref(ab.view, "link", "Add", after='link "Users"'))
    ab.loaded()
    ab.until("the user form", lambda v: has(v, "textbox", "Username:"))
    v = ab.view
    ab.run("fill", ref(v, "textbox", "Username:"), "ada")
    ab.run("fill", ref(v, "textbox", "Password:"), "Analytical-Engine-1843")
    ab.run("fill", ref(v, "textbox", "Password confirmation:"), "Analytical-Engine-1843")
    ab.click(ref(v, "button", "Save and continue editing"))
    ab.loaded()
    # The calendar and clock icons are added by the page's script.
    ab.until(
        "the user's page",
        lambda v: has(v, "heading", "Change user")
        and len([1 for (ro, n, *_) in items(v[v.find('heading "Important dates"') :]) if ro == "link" and n is None]) == 4,
    )
    v = ab.view
    assert apps.query("user", "ada", "Analytical-Engine-1843")["exists"]

    ab.task("django: edit the user (name, staff, dates with the calendar and clock) and save")
    dates = 'heading "Important dates"'
    ab.run("fill", ref(v, "textbox", "First name:"), "Ada")
    ab.run("fill", ref(v, "textbox", "Last name:"), "Lovelace")
    ab.check(ref(v, "checkbox", "Staff status"))
    # The icons have no names: calendar and clock of Last login, then of
    # Date joined, in page order.
    ab.click(ref(v, "link", after=dates, nameless=True, index=0))
    v = ab.snap("-i")
    ab.click(ref(v, "link", "<"))
    v = ab.snap("-i")
    ab.click(ref(v, "link", "15"))
    ab.click(ref(v, "link", after=dates, nameless=True, index=1))
    v = ab.snap("-i")
    ab.click(ref(v, "link", "6 a.m."))
    ab.click(ref(v, "link", after=dates, nameless=True, index=2))
    v = ab.snap("-i")
    ab.click(ref(v, "link", "1"))
    ab.click(ref(v, "link", after=dates, nameless=True, index=3))
    v = ab.snap("-i")
    ab.click(ref(v, "link", "Midnight"))
    ab.click(ref(v, "button", "Save"))
    ab.loaded()
    ab.until("the change list", lambda v: has(v, "link", "ada") and has(v, "textbox", "Search"))
    v = ab.view

    ab.task("django: find the user in the change list")
    ab.run("fill", ref(v, "textbox", "Search"), "Lovelace")
    ab.run("press", "Enter")
    ab.loaded()

    def found(v: str) -> bool:
        at = v.find('rowheader "ada"')
        return at >= 0 and all(has(v[at:], "cell", c) for c in ("Ada", "Lovelace", "True"))

    ab.until("the user's row in the change list", found)

    user = apps.query("user", "ada", "Analytical-Engine-1843")
    today = datetime.date.today()
    previous = (today.replace(day=1) - datetime.timedelta(days=1)).replace(day=15)
    expected = {
        "first_name": "Ada",
        "last_name": "Lovelace",
        "is_staff": True,
        "last_login": f"{previous:%Y-%m-%d} 06:00:00",
        "date_joined": f"{today:%Y-%m}-01 00:00:00",
        "password_ok": True,
    }
    for k, want in expected.items():
        assert user[k] == want, (k, user)


# ---- JupyterLab ------------------------------------------------------------------


def selected_notebook(view: str):
    for role, name, attrs, _, _ in items(view):
        if role == "tab" and "selected" in attrs and (name or "").endswith(".ipynb"):
            return name
    return None


def notebook(path: Path):
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def renamed(apps: Apps, old: str, new: str) -> None:
    eventually(
        f"{old} renamed {new}",
        lambda: ((apps.notebooks / new).exists() and not (apps.notebooks / old).exists(), new),
    )


def jupyter(ab: AgentBrowser, apps: Apps) -> None:
    ab.task("jupyterlab: create a notebook from the launcher, run a cell, read its output, save")
    ab.run("open", apps.lab("run"))
    ab.run("wait", "--text", "Python 3 (ipykernel)")
    v = ab.snap("-i")
    ab.click(ref(v, "button", prefix="Python 3 (ipykernel)"))

    def notebook_ready(v: str) -> bool:
        name = selected_notebook(v)
        if not name or "Save and create checkpoint" not in v:
            return False
        return any(ro == "textbox" for (ro, *_) in items(v[v.find(f'tab "{name}"') :]))

    ab.until("the new notebook", notebook_ready)
    v = ab.view
    name = selected_notebook(v)
    cell = ref(v, "textbox", after=f'tab "{name}"')
    save = ref(v, "button", prefix="Save and create checkpoint")
    ab.run("type", cell, "print('answer:', 6 * 7)")
    ab.run("press", "Shift+Enter")
    out = ab.run("wait", "--text", "answer: 42")
    assert "answer: 42" in out, out
    ab.click(save)
    ab.until("the rename dialog of a first save", lambda v: has(v, "button", "Rename and Save"))
    ab.click(ref(ab.view, "button", "Rename and Save"))

    path = apps.notebooks / name
    nb = eventually(
        "the saved notebook",
        lambda: ((n := notebook(path)) is not None and bool(n["cells"] and n["cells"][0]["outputs"]), n),
    )
    cell = nb["cells"][0]
    assert "".join(cell["source"]) == "print('answer:', 6 * 7)", cell
    assert "".join(cell["outputs"][0]["text"]) == "answer: 42\n", cell

    ab.task("jupyterlab: rename the notebook through the File menu, twice")
    for old, new in ((name, "first-name.ipynb"), ("first-name.ipynb", "second-name.ipynb")):
        ab.click(ref(ab.view, "menuitem", "File"))
        v = ab.snap("-i")
        ab.click(ref(v, "menuitem", prefix="Rename Notebook"))
        v = ab.snap("-i")
        field = next(r for (ro, _, _, val, r) in items(v) if ro == "textbox" and val == old)
        ab.run("fill", field, new)
        ab.click(ref(v, "button", "Rename File"))
        renamed(apps, old, new)
        ab.until("the renamed tab", lambda v: selected_notebook(v) == new)

    ab.task("jupyterlab: rename the notebook through the file browser's context menu, find it")
    entry = ref(ab.view, "button", "second-name.ipynb")
    box = json.loads(ab.run("get", "box", entry, "--json"))["data"]
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    ab.run("mouse", "move", f"{x:.0f}", f"{y:.0f}")
    ab.run("mouse", "down", "right")
    ab.run("mouse", "up", "right")
    v = ab.snap("-i")
    ab.click(ref(v, "menuitem", prefix="Rename"))
    v = ab.snap("-i")
    field = next(r for (ro, _, _, val, r) in items(v) if ro == "textbox" and val == "second-name.ipynb")
    ab.run("fill", field, "final-name.ipynb")
    ab.run("press", "Enter")
    renamed(apps, "second-name.ipynb", "final-name.ipynb")
    ab.until("the file browser's entry", lambda v: has(v, "button", "final-name.ipynb"))
    final = notebook(apps.notebooks / "final-name.ipynb")
    assert final["cells"][0] == nb["cells"][0], final


# ---- Streamlit -------------------------------------------------------------------


def streamlit_state(apps: "Apps", run: str):
    try:
        return json.loads((apps.streamlit_state / f"{run}.json").read_text())
    except (OSError, ValueError):
        return None


def server_has(apps: "Apps", run: str, key: str, want) -> dict:
    return eventually(
        f"the Streamlit server holds {key} = {want!r}",
        lambda: ((s := streamlit_state(apps, run)) is not None and s[key] == want, s),
    )


def streamlit_open(ab: AgentBrowser, apps: "Apps", run: str) -> None:
    ab.task("streamlit: open the app")
    ab.run("open", f"{apps.streamlit}?run={run}")
    # open answers with the page's title; the app is built over the
    # WebSocket afterwards: read it until the widgets are there.
    ab.until(
        "the app built by its server",
        lambda v: has(v, "textbox", "Customer name") and has(v, "button", "Compute total"),
    )
    server_has(apps, run, "product", "Apples")


def streamlit_form(ab: AgentBrowser, apps: "Apps") -> None:
    streamlit_open(ab, apps, "form")
    v = ab.view

    ab.task("streamlit: type a name into the text input")
    ab.run("fill", ref(v, "textbox", "Customer name"), "Ada")
    ab.run("press", "Enter")
    server_has(apps, "form", "name", "Ada")

    ab.task("streamlit: choose a product in the selectbox")
    # `select` on Streamlit's combobox (not a <select>) answers "Done" and
    # changes nothing: open the list and click the option.
    ab.click(ref(v, "combobox", "Product"))
    options = ab.snap("-i")
    ab.click(ref(options, "option", "Pears"))
    server_has(apps, "form", "product", "Pears")

    ab.task("streamlit: press the button; the server computes the total")
    # The list's snapshot renumbered the refs: the page's refs again.
    v = ab.snap("-i")
    ab.click(ref(v, "button", "Compute total"))
    # "Done" says nothing of the server's answer: wait for it, then read it
    # (wait --text prints only the text it was given).
    ab.run("wait", "--text", "Total:")
    text = ab.run("get", "text", marked(v, "main"))
    assert "Total: 40 EUR" in text, text
    server_has(apps, "form", "total", 40)

    ab.task("streamlit: open the Notes tab")
    ab.click(ref(v, "tab", "Notes"))
    # The tab's text is not interactive: the full snapshot shows it.
    full = ab.snap()
    at = full.find('tabpanel "Notes"')
    assert at >= 0 and "Deliver before noon" in full[at:], full


def streamlit_controls(ab: AgentBrowser, apps: "Apps") -> None:
    streamlit_open(ab, apps, "controls")
    v = ab.view
    quantity = ref(v, "slider", prefix="Quantity")

    ab.task("streamlit: set the slider to 70")
    # `fill` on the slider answers "Done" and the app keeps 10; its thumb
    # takes keys: PageUp moves it by 10.
    ab.run("focus", quantity)
    for _ in range(6):
        ab.run("press", "PageUp")
    server_has(apps, "controls", "quantity", 70)

    ab.task("streamlit: choose a region in the sidebar")
    ab.click(ref(v, "radio", "East"))
    server_has(apps, "controls", "region", "East")


def streamlit_editor(ab: AgentBrowser, apps: "Apps") -> None:
    streamlit_open(ab, apps, "editor")
    v = ab.view

    ab.task("streamlit: change a count in the data editor")
    # The grid is a canvas: its gridcells are in the snapshot but `click`
    # and `focus` on them fail or do nothing (no box). Click the canvas on
    # the first row (rows are 35 px under a 35 px header; the index column
    # is narrow), then move with the grid's keys and type.
    canvas = marked(v, "Canvas")
    box = json.loads(ab.run("get", "box", canvas, "--json"))["data"]
    ab.run("mouse", "move", f"{box['x'] + 90:.0f}", f"{box['y'] + 52:.0f}")
    ab.run("mouse", "down")
    ab.run("mouse", "up")
    for key in ("ArrowDown", "ArrowRight", "5", "Enter"):
        ab.run("press", key)
    eventually(
        "the Streamlit server holds the edited count",
        lambda: ((s := streamlit_state(apps, "editor")) is not None and s["orders"][1]["count"] == 5, s),
    )


# ---- Datasette ---------------------------------------------------------------------


def employee_names(view: str):
    """The employees' names in a table snapshot, in order: the cell after a
    row's id cell (a cell named by digits holding a link of that name)."""
    lines = list(items(view))
    names = []
    for i, (role, name, _, _, _) in enumerate(lines):
        if (
            role == "cell" and name and name.isdigit()
            and i + 2 < len(lines) and lines[i + 1][0] == "link" and lines[i + 1][1] == name
            and lines[i + 2][0] == "cell"
        ):
            names.append(lines[i + 2][1])
    return names


def url(ab: AgentBrowser) -> str:
    """The page's address, for the check only (not the agent's; not counted)."""
    return ab.quiet("get", "url").strip()


def datasette_open(ab: AgentBrowser, apps: "Apps", query: str = "") -> str:
    ab.run("open", f"{apps.datasette}staff/employees{query}")
    return ab.snap("-i")


def datasette(ab: AgentBrowser, apps: "Apps") -> None:
    ab.task("datasette: facet by city, then pick Paris")
    v = datasette_open(ab, apps)
    ab.click(ref(v, "link", "city"))
    ab.loaded()
    v = ab.snap("-i")
    assert "_facet=city" in url(ab), url(ab)
    ab.click(ref(v, "link", prefix="Paris"))
    ab.loaded()
    v = ab.snap("-i")
    assert "city=Paris" in url(ab), url(ab)
    assert employee_names(v) == ["Ada", "Linus", "Ken", "Dennis"], v

    ab.task("datasette: filter salary > 5000")
    v = datasette_open(ab, apps)
    column, operator = ref(v, "combobox"), ref(v, "combobox", index=1)
    ab.run("select", column, "salary")
    ab.run("select", operator, ">")
    ab.run("fill", ref(v, "textbox"), "5000")
    ab.click(ref(v, "button", "Apply"))
    ab.loaded()
    v = ab.snap("-i")
    assert "salary__gt=5000" in url(ab), url(ab)
    assert employee_names(v) == ["Ada", "Grace", "Linus", "Ken"], v

    ab.task("datasette: sort by salary")
    v = datasette_open(ab, apps)
    ab.click(ref(v, "link", "salary"))
    ab.loaded()
    v = ab.snap("-i")
    assert "_sort=salary" in url(ab), url(ab)
    assert employee_names(v) == ["Dennis", "Barbara", "Margaret", "Linus", "Ken", "Grace", "Ada"], v

    ab.task("datasette: open a row's page")
    ab.click(ref(v, "link", "3"))
    ab.loaded()
    # The row's values are not interactive: the full snapshot shows them.
    full = ab.snap()
    assert url(ab).endswith("/staff/employees/3"), url(ab)
    for value in ("Linus", "5100", "Paris"):
        assert f'"{value}"' in full, full

    ab.task("datasette: export the Lyon rows as a CSV file")
    v = datasette_open(ab, apps, "?city=Lyon")
    ab.check(ref(v, "checkbox", "download file"))
    path = apps.base / "lyon.csv"
    ab.run("download", ref(v, "button", "Export CSV"), str(path))
    csv = path.read_text().replace("\r\n", "\n")
    assert csv == (
        "id,name,department_id,department_id_label,salary,city\n"
        "2,Grace,1,Engineering,6900,Lyon\n6,Barbara,3,Support,4300,Lyon\n"
    ), csv


def datasette_sql(ab: AgentBrowser, apps: "Apps") -> None:
    ab.task("datasette: run a query on the SQL page")
    v = datasette_open(ab, apps)
    ab.click(ref(v, "link", "✎ View and edit SQL"))
    ab.loaded()
    v = ab.snap("-i")
    query = "select name, salary from employees where salary > 6000 order by salary desc"
    # `fill` on the CodeMirror editor leaves Datasette's query after the
    # new one (the page then runs both, run together): select the old text
    # with the editor's keys and type over it.
    ab.click(ref(v, "textbox"))
    ab.run("press", "Control+a")
    ab.run("keyboard", "type", query)
    ab.click(ref(v, "button", "Run SQL"))
    ab.loaded()
    full = ab.snap()
    address = url(ab)
    assert (
        "sql=select+name%2C+salary+from+employees+where+salary+%3E+6000+order+by+salary+desc" in address
        and "limit+101" not in address
    ), address
    for value in ("Ada", "7200", "Grace", "6900"):
        assert f'"{value}"' in full, full


def main() -> int:
    exe, venv, out = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    only = set(sys.argv[4:])
    out.mkdir(parents=True, exist_ok=True)
    failed = []
    with tempfile.TemporaryDirectory(prefix="rove-bench-apps-") as base:
        apps = Apps(venv, Path(base))
        try:
            apps.start()
            for test, run in (
                ("django_group", django_group),
                ("django_user", django_user),
                ("jupyter", jupyter),
                ("streamlit_form", streamlit_form),
                ("streamlit_controls", streamlit_controls),
                ("streamlit_editor", streamlit_editor),
                ("datasette", datasette),
                ("datasette_sql", datasette_sql),
            ):
                if only and test not in only:
                    continue
                ab = AgentBrowser(exe, f"rove-bench-{test}", out / f"{test}.jsonl")
                try:
                    run(ab, apps)
                    print(f"agent-browser: {test} done", file=sys.stderr)
                except Exception as e:  # the run goes on; the failure is reported
                    failed.append(test)
                    print(f"agent-browser: {test} FAILED: {e}", file=sys.stderr)
                finally:
                    ab.close()
        finally:
            apps.stop()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
