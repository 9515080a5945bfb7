"""What a command answers: the view or diff, what happened, and its data."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping


@dataclass(frozen=True)
class Match:
    """One element ``find`` matched."""

    ref: str
    role: str
    name: str


class Result:
    """A command's answer (rove's ``--json`` object), read as attributes.

    ``text`` is the view or the diff the command printed; ``happened`` says
    what the command did; ``value`` is what ``eval`` and ``get`` returned;
    ``matches`` what ``find`` found; ``data`` anything else a command gave
    (``read``'s markdown, the tab list, cookies …); ``raw`` the whole object.
    """

    def __init__(self, raw: Mapping[str, Any]) -> None:
        self.raw: dict[str, Any] = dict(raw)

    @property
    def text(self) -> str:
        """The view (or diff) the command answered with; empty when none."""
        return str(self.raw.get("view") or "")

    @property
    def happened(self) -> list[str]:
        """What the command did, a line each."""
        return [str(line) for line in self.raw.get("happened") or []]

    @property
    def data(self) -> Any:
        """The command's data: a text, ``{"result": …}``, or a saved file's ``{"path", "bytes", "mime"}``."""
        return self.raw.get("data")

    @property
    def value(self) -> Any:
        """The value ``eval`` or ``get`` returned (None for other commands)."""
        data = self.raw.get("data")
        if isinstance(data, dict) and "result" in data:
            return data["result"]
        return None

    @property
    def matches(self) -> list[Match]:
        """The elements ``find`` matched, in the order shown."""
        return [Match(str(m.get("ref", "")), str(m.get("role", "")), str(m.get("name", "")))
                for m in self.raw.get("matches") or []]

    @property
    def tab(self) -> str | None:
        return self.raw.get("tab")

    @property
    def url(self) -> str | None:
        return self.raw.get("url")

    @property
    def title(self) -> str | None:
        return self.raw.get("title")

    @property
    def tokens(self) -> int:
        return int(self.raw.get("tokens") or 0)

    @property
    def timing(self) -> dict[str, Any]:
        return dict(self.raw.get("timing") or {})

    @property
    def downloads(self) -> list[dict[str, Any]]:
        return list(self.raw.get("downloads") or [])

    def __str__(self) -> str:
        lines = self.happened
        if isinstance(self.data, str):
            lines.append(self.data.rstrip("\n"))
        if self.text:
            lines.append(self.text)
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Result(happened={self.happened!r}, tokens={self.tokens})"
