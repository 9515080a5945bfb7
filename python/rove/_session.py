"""`Session` and `AsyncSession`: a rove session driven from Python.

Every call runs the rove binary with ``call TOOL JSON`` on the session's
daemon, exactly as a command typed at the shell does: the same parser, the
same errors, the same session. A named session is shared with the shell
(``rove --session NAME snapshot`` sees what Python did); an unnamed one is
this object's own and ends with it.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import uuid
from typing import Any

from ._binary import binary, flags
from ._commands import AsyncCommands, Commands
from ._error import RoveError
from ._result import Result

#: Seconds a call may take before the process running it is ended. rove's
#: own deadlines are shorter (a wait is at most 300 s); this one only
#: guards against a binary that never answers.
CALL_DEADLINE = 330.0


def _answer(stdout: bytes, stderr: bytes, status: int) -> dict[str, Any]:
    """rove's JSON answer, or a RoveError for what it printed instead."""
    text = stdout.decode("utf-8", "replace").strip()
    try:
        answer = json.loads(text.splitlines()[-1]) if text else None
    except ValueError:
        answer = None
    if isinstance(answer, dict):
        if answer.get("ok") is False and isinstance(answer.get("error"), dict):
            raise RoveError.of(answer["error"], status)
        return answer
    said = stderr.decode("utf-8", "replace").strip()
    from ._errors import BadInputError, InternalError

    code, cls = ("COMMAND_REJECTED", BadInputError) if status == 2 else ("INTERNAL", InternalError)
    raise cls(said or f"rove exited {status} without an answer", code=code, exit_status=status,
              hint="see the message; `rove --help` lists the options")


class _Base:
    def __init__(self, name: str | None = None, *, rove: str | None = None,
                 call_deadline: float = CALL_DEADLINE, **global_options: Any) -> None:
        self.named = name is not None
        self.name = name or f"py-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self._binary = rove or binary()
        self._deadline = call_deadline
        self._global = flags(global_options)

    def _argv(self, tool: str, arguments: dict[str, Any]) -> list[str]:
        return [self._binary, "--json", "--session", self.name, *self._global,
                "call", tool, json.dumps(arguments)]


class Session(_Base, Commands):
    """A rove session: one daemon, browser context, tabs and refs.

    ``rove.Session()`` is a session of its own, closed when the ``with``
    block ends (or by ``close()``); ``rove.Session("work")`` is the session
    the shell calls ``work``, left running for it. Keyword options are
    rove's global options (``headed=True``, ``cdp_url="http://…"``,
    ``allowed_domains="example.com"``, ``viewport="1024x768"`` …), applied
    when the session starts.

    Each command is a method (``s.open(url)``, ``s.click("e7")``,
    ``s.fill("e3", "ada")`` …) returning a :class:`Result`, or raising a
    :class:`RoveError` subclass.
    """

    def _call(self, tool: str, arguments: dict[str, Any]) -> Result:
        try:
            done = subprocess.run(self._argv(tool, arguments), capture_output=True,
                                  stdin=subprocess.DEVNULL, timeout=self._deadline)
        except subprocess.TimeoutExpired as e:
            from ._errors import Timeout

            raise Timeout(f"rove did not answer {tool} within {self._deadline:g} s",
                          action_sent="possibly_sent", retry="retry") from e
        return Result(_answer(done.stdout, done.stderr, done.returncode))

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, kind: object, *exc: object) -> None:
        if not self.named:
            try:
                self.close()
            except RoveError:
                # The block's own exception says more than a failed close.
                if kind is None:
                    raise


class AsyncSession(_Base, AsyncCommands):
    """:class:`Session` for asyncio: every method is awaited. Cancelling a
    call ends the rove process running it, and the session's daemon stops
    the command whose caller has gone."""

    async def _call(self, tool: str, arguments: dict[str, Any]) -> Result:
        process = await asyncio.create_subprocess_exec(
            *self._argv(tool, arguments), stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            stdout, stderr = await asyncio.wait_for(process.communicate(), self._deadline)
        except asyncio.TimeoutError as e:
            from ._errors import Timeout

            raise Timeout(f"rove did not answer {tool} within {self._deadline:g} s",
                          action_sent="possibly_sent", retry="retry") from e
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
        return Result(_answer(stdout, stderr, process.returncode or 0))

    async def __aenter__(self) -> "AsyncSession":
        return self

    async def __aexit__(self, kind: object, *exc: object) -> None:
        if not self.named:
            try:
                await self.close()
            except RoveError:
                if kind is None:
                    raise
