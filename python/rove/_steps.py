"""`rove.Agent`: the agent a step at a time, steered from Python.

It runs ``rove run --steer`` and speaks its protocol (one JSON order a line
on rove's stdin, one JSON answer a line on its stdout, docs/agent.md):
between two steps the application looks at what the model did, tells it
something, changes the task, reads the page, or stops the run.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path
from typing import IO, Any, Iterator, Mapping

from ._agent import History, Record, _options, _refused, _secrets_file
from ._binary import binary
from ._error import RoveError


class Agent:
    """A run of ``task`` by ``model`` that goes one step at a time::

        with rove.Agent("Find the cheapest bolt", model="openai:gpt-5-mini",
                        start_url="http://127.0.0.1:8000/parts") as agent:
            for step in agent:
                print(step.number, [a.tool for a in step.actions])
                if any(a.tool == "open" for a in step.actions):
                    agent.tell("Stay on this site.")
        print(agent.history.ending.text)

    ``options`` are ``rove run``'s flags as keywords, as for :func:`rove.run`
    (``max_steps=20``, ``base_url=…``, ``judge_model=…``). Iterating runs
    the steps until the run ends; :meth:`step` runs one. Leaving the
    ``with`` block finishes the run (after an exception in it, rove is
    stopped instead); :attr:`history` is then the run as :func:`rove.run`
    returns it.
    """

    def __init__(self, task: str, *, model: str, start_url: str | None = None,
                 judge_model: str | None = None, secrets: Mapping[str, str] | None = None,
                 **options: Any) -> None:
        self._folder = tempfile.TemporaryDirectory(prefix="rove-steer-")
        folder = Path(self._folder.name)
        self._history_path = folder / "history.json"
        argv = [binary(), "run", task, "--model", model, "--history",
                str(self._history_path), "--steer"]
        if start_url:
            argv += ["--start-url", start_url]
        if judge_model:
            argv += ["--judge-model", judge_model]
        argv += _secrets_file(folder, secrets) + _options(options)
        # rove's notes and logs go to a file: a pipe nobody reads would fill
        # and stop rove.
        self._stderr: IO[str] = open(folder / "stderr", "w+", encoding="utf-8")
        self._process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=self._stderr, text=True, encoding="utf-8",
                                         bufsize=1)
        self.steps: list[Record] = []
        """The steps so far, as :meth:`step` returned them."""
        self.ending: Record | None = None
        """How the run ended (``reason``, ``text`` …), once it has."""
        self.history: History | None = None
        """The run as :func:`rove.run` returns it, once finished."""

    def _ask(self, order: Mapping[str, Any]) -> dict[str, Any]:
        if self.history is not None:
            raise RoveError("the run is finished", code="COMMAND_REJECTED",
                            hint="start another rove.Agent")
        stdin, stdout = self._process.stdin, self._process.stdout
        assert stdin is not None and stdout is not None
        try:
            stdin.write(json.dumps(order) + "\n")
            stdin.flush()
        except BrokenPipeError:
            pass
        line = stdout.readline()
        answer = json.loads(line) if line.strip() else None
        if not isinstance(answer, dict) or "ok" in answer:
            # rove ended on its own (the browser went, the model refused
            # the key, a flag was wrong): its final object or its stderr
            # says why.
            raise self._ended_early(answer)
        if "error" in answer:
            raise RoveError(str(answer["error"]), code="COMMAND_REJECTED")
        return answer

    def step(self) -> Record | None:
        """Runs the next step and returns it (``number``, ``thought``,
        ``actions`` with each ``tool``, ``arguments``, ``result`` and
        ``failed``, ``failure``); ``None`` when the run has already ended.
        After the step that ends the run, :attr:`ending` says how."""
        answer = self._ask({"do": "step"})
        if answer.get("ending") is not None:
            self.ending = Record(answer["ending"])
        if answer.get("step") is None:
            return None
        step = Record(answer["step"])
        self.steps.append(step)
        return step

    def __iter__(self) -> Iterator[Record]:
        while self.ending is None:
            step = self.step()
            if step is None:
                return
            yield step

    def tell(self, text: str) -> None:
        """Tells the model something before its next step (``Note from the
        user: …`` in its conversation)."""
        self._ask({"do": "tell", "text": text})

    def set_task(self, text: str) -> None:
        """Changes the task from the next step on; the model is told."""
        self._ask({"do": "set_task", "text": text})

    def view(self) -> str:
        """The page as the model's next request would show it."""
        return str(self._ask({"do": "view"})["view"])

    def finish(self, deadline: float | None = None) -> History:
        """Ends the run and returns its history. A run that has not ended
        asks the model once for its best answer (it ends as ``max_steps``);
        the judge, when one was given, judges it."""
        if self.history is not None:
            return self.history
        try:
            # The order, then the end of stdin; then rove's final object.
            stdout, _ = self._process.communicate(json.dumps({"do": "finish"}) + "\n",
                                                  timeout=deadline)
        except subprocess.TimeoutExpired as e:
            self._process.kill()
            self._process.wait()
            from ._errors import Timeout

            raise Timeout(f"rove did not finish within {deadline:g} s",
                          action_sent="possibly_sent", retry="retry") from e
        done = subprocess.CompletedProcess(self._process.args, self._process.returncode,
                                           stdout, self._stderr_text())
        try:
            if not self._history_path.is_file():
                raise _refused(done, "run")
            history = History(json.loads(self._history_path.read_text(encoding="utf-8")))
        finally:
            self._cleanup()
        history.exit_status, history.stdout, history.stderr = (done.returncode, done.stdout,
                                                               done.stderr)
        self.history = history
        if self.ending is None:
            self.ending = history.ending
        return history

    def close(self) -> None:
        """Stops rove at once (its browser goes with it), without a last
        word; :attr:`history` stays ``None``."""
        if self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._cleanup()

    def __enter__(self) -> "Agent":
        return self

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        if self.history is not None:
            return
        if kind is None:
            self.finish()
        else:
            self.close()

    def _stderr_text(self) -> str:
        self._stderr.flush()
        self._stderr.seek(0)
        return self._stderr.read()

    def _ended_early(self, answer: dict[str, Any] | None) -> RoveError:
        self._process.wait()
        stderr = self._stderr_text()
        self._cleanup()
        if answer and isinstance(answer.get("error"), dict):
            return RoveError.of(answer["error"], exit_status=self._process.returncode)
        done = subprocess.CompletedProcess(self._process.args, self._process.returncode,
                                           "", stderr)
        return _refused(done, "run")

    def _cleanup(self) -> None:
        for stream in (self._process.stdin, self._process.stdout):
            if stream is not None and not stream.closed:
                stream.close()
        if not self._stderr.closed:
            self._stderr.close()
        self._folder.cleanup()
