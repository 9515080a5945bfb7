"""`RoveError`: a failure as rove reports it, with the same fields on every face."""

from __future__ import annotations

from typing import Any, Mapping


class RoveError(Exception):
    """A command, a run or a suite failed.

    The fields are rove's typed error (docs/errors.md):

    - ``code``: ``REF_NOT_FOUND``, ``TIMEOUT`` …; each has its own subclass
      (``rove.RefNotFound``) under its exit class (``rove.PageStateError``).
    - ``hint``: what to do about it.
    - ``retry``: ``reobserve`` (look at the page again first), ``retry``
      (the same call may work) or ``never`` (change the call).
    - ``action_sent``: ``sent``, ``possibly_sent`` or ``not_sent``.
    - ``side_effect``: ``none``, ``uncertain`` …
    - ``facts``: the details the code carries (a dict).
    - ``fresh_view``: the page's view, when the failure came with one.
    """

    code = "INTERNAL"

    def __init__(self, message: str, *, code: str | None = None, hint: str = "",
                 retry: str = "never", action_sent: str = "not_sent",
                 side_effect: str = "none", facts: Mapping[str, Any] | None = None,
                 fresh_view: str | None = None, exit_status: int | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.message = message
        self.hint = hint
        self.retry = retry
        self.action_sent = action_sent
        self.side_effect = side_effect
        self.facts = dict(facts or {})
        self.fresh_view = fresh_view
        self.exit_status = exit_status

    def __str__(self) -> str:
        text = f"{self.code}: {self.message}"
        if self.hint:
            text += f" (hint: {self.hint})"
        return text

    @staticmethod
    def of(error: Mapping[str, Any], exit_status: int | None = None) -> "RoveError":
        """The exception of an ``error`` object as rove prints it with ``--json``."""
        from ._errors import BY_CODE

        code = str(error.get("code", "INTERNAL"))
        cls = BY_CODE.get(code, RoveError)
        return cls(
            str(error.get("message", "")),
            code=code,
            hint=str(error.get("hint", "")),
            retry=str(error.get("retry", "never")),
            action_sent=str(error.get("action_sent", "not_sent")),
            side_effect=str(error.get("side_effect", "none")),
            facts=error.get("facts") or {},
            fresh_view=error.get("fresh_view"),
            exit_status=exit_status,
        )
