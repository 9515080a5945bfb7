"""A throwaway Django project for rove's real-application tests.

`serve ROOT PASSWORD` creates the project in ROOT (startproject: the admin,
sqlite, DEBUG), migrates, creates the superuser `admin`, then serves it on
127.0.0.1 on a free port with Django's own threaded WSGI server (static files
too, as runserver does) and writes the port to ROOT/port.

`user ROOT NAME` and `group ROOT NAME` print what the database holds about
one user or group, as JSON: the tests check end states here, not in rove.
"""

import json
import os
import subprocess
import sys
from pathlib import Path


def setup(root: Path) -> None:
    sys.path.insert(0, str(root))
    os.environ["DJANGO_SETTINGS_MODULE"] = "site_conf.settings"
    import django

    django.setup()


def serve(root: Path, password: str) -> None:
    if not (root / "manage.py").exists():
        root.mkdir(parents=True, exist_ok=True)
        # In a process of its own: settings must not be read before setup().
        subprocess.run(
            [sys.executable, "-m", "django", "startproject", "site_conf", str(root)],
            check=True,
        )
        # Tests write from two sessions at once: take the write lock when a
        # transaction starts and wait for it, rather than fail with
        # "database is locked" (Django's advice for sqlite under load).
        with open(root / "site_conf" / "settings.py", "a") as settings:
            settings.write(
                '\nDATABASES["default"]["OPTIONS"] = '
                '{"transaction_mode": "IMMEDIATE", "timeout": 60}\n'
            )
    setup(root)
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    from django.contrib.auth import get_user_model

    users = get_user_model()
    if not users.objects.filter(username="admin").exists():
        users.objects.create_superuser("admin", "admin@example.org", password)

    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler
    from django.core.wsgi import get_wsgi_application

    httpd = ThreadedWSGIServer(("127.0.0.1", 0), WSGIRequestHandler)
    httpd.set_app(StaticFilesHandler(get_wsgi_application()))
    # Written whole, then renamed: the test never reads half a port.
    (root / "port.tmp").write_text(str(httpd.server_address[1]))
    (root / "port.tmp").rename(root / "port")
    httpd.serve_forever()


def when(value) -> str | None:
    return value.strftime("%Y-%m-%d %H:%M:%S") if value else None


def user(root: Path, name: str, password: str) -> dict:
    setup(root)
    from django.contrib.auth import get_user_model

    found = get_user_model().objects.filter(username=name).first()
    if found is None:
        return {"exists": False}
    return {
        "exists": True,
        "first_name": found.first_name,
        "last_name": found.last_name,
        "is_staff": found.is_staff,
        "is_superuser": found.is_superuser,
        "last_login": when(found.last_login),
        "date_joined": when(found.date_joined),
        "password_ok": found.check_password(password),
        "groups": sorted(g.name for g in found.groups.all()),
    }


def group(root: Path, name: str) -> dict:
    setup(root)
    from django.contrib.auth.models import Group

    found = Group.objects.filter(name=name).first()
    if found is None:
        return {"exists": False}
    return {
        "exists": True,
        "permissions": sorted(
            f"{p.content_type.app_label}.{p.codename}" for p in found.permissions.all()
        ),
    }


if __name__ == "__main__":
    what, root = sys.argv[1], Path(sys.argv[2])
    if what == "serve":
        serve(root, sys.argv[3])
    elif what == "user":
        print(json.dumps(user(root, sys.argv[3], sys.argv[4])))
    elif what == "group":
        print(json.dumps(group(root, sys.argv[3])))
    else:
        sys.exit(f"unknown command {what}")
