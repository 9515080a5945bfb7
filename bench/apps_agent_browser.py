#!/usr/bin/env python3
"""The real-application tasks of crates/rove/tests/it/real_apps, done with
agent-browser's CLI the way a careful agent does them: `snapshot -i` to get
refs, act on `@eN` refs from the latest snapshot, and a snapshot again
whenever the next step needs refs the page has just made or needs to see
what an action did (agent-browser answers an action with "Done").

Starts Django and JupyterLab with the same helpers as the tests, checks every
end state on the server the same way (the database, the notebook files), and
writes one transcript per test, in the tests' format, to OUT_DIR/<test>.jsonl
({"task", "args", "status", "stdout", "stderr"} per command), for
rove-bench-apps to count.

Usage: apps_agent_browser.py AGENT_BROWSER_EXE VENV_DIR OUT_DIR
"""

import datetime
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
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


# ---- the applications ---------------------------------------------------------


class Apps:
    def __init__(self, venv: Path, base: Path):
        self.python = str(venv / "bin" / "python")
        self.base = base
        self.procs = []
        self.django_root = base / "django"
        self.jupyter_dir = base / "jupyter"

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
        port_file = self.django_root / "port"
        info = self.jupyter_dir / "runtime" / f"jpserver-{jupyter.pid}.json"
        started = time.monotonic()
        while not (port_file.exists() and info.exists()):
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


def main() -> int:
    exe, venv, out = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
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
            ):
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
