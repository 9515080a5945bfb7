"""JupyterLab and Notebook 7 for rove's real-application tests and
bench/apps.sh.

`serve DIR TOKEN [lab|notebook]` prepares DIR (notebooks/, the served folder; home/,
runtime/, settings/, workspaces/ of its own) and becomes `jupyter lab` on
127.0.0.1 on a free port (or `jupyter notebook`, Notebook 7, with
`notebook`), with that token, no browser, no news, no update
check and no extension manager: nothing leaves the machine. The process
keeps its id, so its address is in DIR/runtime/jpserver-<pid>.json once it
listens.
"""

import json
import os
import sys
from pathlib import Path


def serve(base: Path, token: str, app: str) -> None:
    dirs = {name: base / name for name in ("notebooks", "home", "runtime", "settings")}
    for d in dirs.values():
        d.mkdir(parents=True, exist_ok=True)
    # No news toast over the page at a random moment.
    notification = dirs["settings"] / "@jupyterlab" / "apputils-extension"
    notification.mkdir(parents=True, exist_ok=True)
    (notification / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False})
    )
    env = dict(os.environ)
    for name in ("JUPYTER_TOKEN", "JUPYTER_PORT", "JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR"):
        env.pop(name, None)
    env.update(
        HOME=str(dirs["home"]),
        JUPYTER_RUNTIME_DIR=str(dirs["runtime"]),
        IPYTHONDIR=str(dirs["home"] / ".ipython"),
        PYTHONDONTWRITEBYTECODE="1",
    )
    lab = Path(sys.executable).parent / ("jupyter-lab" if app == "lab" else "jupyter-notebook")
    settings = "LabApp" if app == "lab" else "JupyterNotebookApp"
    args = [
        str(lab),
        "--no-browser",
        "--allow-root",
        "--ServerApp.ip=127.0.0.1",
        "--ServerApp.port=0",
        "--ServerApp.port_retries=0",
        "--ServerApp.terminals_enabled=False",
        f"--ServerApp.root_dir={dirs['notebooks']}",
        f"--IdentityProvider.token={token}",
        f"--{settings}.user_settings_dir={dirs['settings']}",
        f"--{settings}.workspaces_dir={base / 'workspaces'}",
    ]
    if app == "lab":
        args += [
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            "--LabApp.extension_manager=readonly",
        ]
    os.execve(lab, args, env)


if __name__ == "__main__":
    if len(sys.argv) not in (4, 5) or sys.argv[1] != "serve" or sys.argv[4:] not in ([], ["lab"], ["notebook"]):
        sys.exit("usage: jupyter_app.py serve DIR TOKEN [lab|notebook]")
    serve(Path(sys.argv[2]), sys.argv[3], (sys.argv[4:] or ["lab"])[0])
