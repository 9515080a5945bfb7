"""rove from Python: a browser that AI agents can drive.

    import rove

    with rove.Session() as s:
        s.open("https://example.org")
        print(s.snapshot(mode="interactive").text)
        s.click("e7")

Every command of rove's vocabulary is a method of :class:`Session` (and,
awaited, of :class:`AsyncSession`), with the same argument names as the
CLI and MCP; failures raise :class:`RoveError` subclasses with rove's typed
fields. :func:`run` runs the agent (:class:`Agent`, a step at a time),
:func:`test` a task suite. The package
drives the rove binary its wheel installed; no browser logic lives here.
"""

from ._agent import History, Record, Results, run, test
from ._error import RoveError
from ._errors import *  # noqa: F401,F403  (one class per error code)
from ._result import Match, Result
from ._session import AsyncSession, Session
from ._steps import Agent

__all__ = [
    "Agent",
    "AsyncSession",
    "History",
    "Match",
    "Record",
    "Result",
    "Results",
    "RoveError",
    "Session",
    "run",
    "test",
]
