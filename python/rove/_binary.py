"""Finding the rove binary this package shipped with, and turning options into its flags."""

from __future__ import annotations

import os
import shutil
import sysconfig
from pathlib import Path
from typing import Any, Mapping

from ._error import RoveError


def binary() -> str:
    """The rove executable: ``$ROVE_BINARY``, else the one this package's
    wheel installed beside its Python (the environment's scripts folder),
    else ``rove`` on PATH."""
    named = os.environ.get("ROVE_BINARY")
    if named:
        return named
    exe = "rove.exe" if os.name == "nt" else "rove"
    schemes = [sysconfig.get_default_scheme()]
    user = f"{os.name}_user"
    if user in sysconfig.get_scheme_names():
        schemes.append(user)
    for scheme in schemes:
        folder = sysconfig.get_path("scripts", scheme)
        if folder and (Path(folder) / exe).is_file():
            return str(Path(folder) / exe)
    found = shutil.which(exe)
    if found:
        return found
    raise RoveError(
        "the rove binary was not found",
        code="INTERNAL",
        hint="install the package with pip (it ships the binary), or set ROVE_BINARY",
    )


def flags(options: Mapping[str, Any]) -> list[str]:
    """Keyword options as rove's flags: ``headed=True`` is ``--headed``,
    ``cdp_url="…"`` is ``--cdp-url …``, a list repeats the flag, and
    ``None`` or ``False`` leaves it out. rove itself checks them: an
    unknown one is a ``BadInputError``."""
    out: list[str] = []
    for key, value in options.items():
        if value is None or value is False:
            continue
        flag = "--" + key.replace("_", "-")
        if value is True:
            out.append(flag)
        elif isinstance(value, (list, tuple)):
            for item in value:
                out += [flag, str(item)]
        else:
            out += [flag, str(value)]
    return out
