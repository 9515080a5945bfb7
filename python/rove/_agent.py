"""`rove.run` and `rove.test`: the agent and the evaluation runner from Python.

Both run the rove binary (``rove run`` with ``--history``, ``rove test`` with
``--out``) and read back what it wrote: a run's history and a suite's
results.json, as objects. Secrets go to rove in a private file that is
removed afterwards, never on a command line other users can read.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path
from typing import Any, Iterable, Mapping

from ._binary import binary, flags
from ._error import RoveError


class Record:
    """A JSON object read as attributes (``history.steps[0].actions``),
    nested objects and lists of objects too; ``raw`` is the object itself
    and ``record["key"]`` reads a key that is not a valid attribute."""

    def __init__(self, raw: Mapping[str, Any]) -> None:
        self.raw: dict[str, Any] = dict(raw)

    def __getattr__(self, name: str) -> Any:
        try:
            return _wrap(self.raw[name])
        except KeyError:
            raise AttributeError(name) from None

    def __getitem__(self, key: str) -> Any:
        return _wrap(self.raw[key])

    def get(self, key: str, default: Any = None) -> Any:
        return _wrap(self.raw.get(key, default))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(sorted(self.raw))})"


def _wrap(value: Any) -> Any:
    if isinstance(value, dict):
        return Record(value)
    if isinstance(value, list):
        return [_wrap(v) for v in value]
    return value


class History(Record):
    """A run as ``rove run --history`` records it: ``task``, ``ending``
    (``reason``, ``text``, ``success``), ``steps`` (each with ``thought``,
    ``actions``, ``usage``), ``usage``, ``cost``, ``judge`` (the verdict), ``divergence`` … plus
    ``exit_status``, ``stdout`` and ``stderr`` of the run."""

    exit_status: int
    stdout: str
    stderr: str

    @property
    def succeeded(self) -> bool:
        """The agent reported success (what ``rove run``'s exit status 0 says)."""
        return self.exit_status == 0


class Results(Record):
    """A suite's results.json (docs/eval.md): ``suite``, ``tasks``,
    ``attempts`` (each with ``status``, ``checks``, ``judge`` …), ``met`` …
    plus ``exit_status``, ``stdout``, ``stderr`` and ``out`` (the folder)."""

    exit_status: int
    stdout: str
    stderr: str
    out: Path


def _options(options: Mapping[str, Any]) -> list[str]:
    return flags({k: v for k, v in options.items()})


def _secrets_file(folder: Path, secrets: Mapping[str, str] | None) -> list[str]:
    if not secrets:
        return []
    path = folder / "secrets"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        for name, value in secrets.items():
            if "\n" in name or "\n" in value or "=" in name:
                raise RoveError(f"secret {name!r}: a name without '=' and values on one line",
                                code="COMMAND_REJECTED", hint="fix the secret")
            f.write(f"{name}={value}\n")
    return ["--secrets-file", str(path)]


def _run(argv: list[str], deadline: float | None) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(argv, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                              timeout=deadline)
    except subprocess.TimeoutExpired as e:
        from ._errors import Timeout

        raise Timeout(f"rove did not finish within {deadline:g} s",
                      action_sent="possibly_sent", retry="retry") from e


def _refused(done: subprocess.CompletedProcess[str], what: str) -> RoveError:
    from ._errors import BadInputError, InternalError

    code, cls = (("COMMAND_REJECTED", BadInputError) if done.returncode == 2
                 else ("INTERNAL", InternalError))
    said = done.stderr.strip() or done.stdout.strip()
    return cls(said or f"{what} exited {done.returncode} and wrote nothing", code=code,
               exit_status=done.returncode, hint=f"see `rove {what} --help`")


def run(task: str, *, model: str, start_url: str | None = None,
        judge_model: str | None = None, secrets: Mapping[str, str] | None = None,
        deadline: float | None = None, **options: Any) -> History:
    """Run a task with a model driving a fresh session (``rove run``).

    ``options`` are ``rove run``'s flags and the global ones as keywords
    (``max_steps=20``, ``base_url="http://…/v1"``, ``allowed_domains="…"``,
    ``api_key="…"``, ``ground_truth="…"`` …). Returns the history however
    the run ended; ``history.succeeded`` says whether the agent reported
    success. Raises :class:`RoveError` when rove refused the call (a bad
    flag, a missing key) and wrote no history.
    """
    with tempfile.TemporaryDirectory(prefix="rove-run-") as folder:
        history = Path(folder) / "history.json"
        argv = [binary(), "run", task, "--model", model, "--history", str(history)]
        if start_url:
            argv += ["--start-url", start_url]
        if judge_model:
            argv += ["--judge-model", judge_model]
        argv += _secrets_file(Path(folder), secrets) + _options(options)
        done = _run(argv, deadline)
        if not history.is_file():
            raise _refused(done, "run")
        result = History(json.loads(history.read_text(encoding="utf-8")))
    result.exit_status, result.stdout, result.stderr = done.returncode, done.stdout, done.stderr
    return result


def test(paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]], *, model: str,
         jobs: int | None = None, out: str | os.PathLike[str] | None = None,
         secrets: Mapping[str, str] | None = None, deadline: float | None = None,
         **options: Any) -> Results:
    """Run YAML task suites (``rove test``) and return results.json as objects.

    ``paths`` is a file or folder, or several; ``out`` keeps the results
    folder (otherwise a temporary one is read and removed). ``options`` are
    ``rove test``'s flags as keywords (``repeat=3``, ``judge_model="…"``,
    ``min_pass_rate=0.9``, ``tags="smoke"`` …). ``results.met`` says whether
    every task met its threshold (rove's exit status 0).
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    with tempfile.TemporaryDirectory(prefix="rove-test-") as folder:
        results_dir = Path(out) if out is not None else Path(folder) / "out"
        argv = [binary(), "test", *[str(p) for p in paths], "--model", model,
                "--out", str(results_dir)]
        if jobs is not None:
            argv += ["-j", str(jobs)]
        argv += _secrets_file(Path(folder), secrets) + _options(options)
        done = _run(argv, deadline)
        results = results_dir / "results.json"
        if not results.is_file():
            raise _refused(done, "test")
        result = Results(json.loads(results.read_text(encoding="utf-8")))
    result.exit_status, result.stdout, result.stderr = done.returncode, done.stdout, done.stderr
    result.out = results_dir
    return result
