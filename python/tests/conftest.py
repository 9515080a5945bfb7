"""Fixtures for the Python package's tests: pages and a scripted model on
127.0.0.1, each a real HTTP server (the model speaks OpenAI's chat
completions wire format), and a unique session name per test."""

from __future__ import annotations

import json
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Iterator

import pytest

PAGES = {
    "/go": "<title>Go</title><h1>Hi</h1>"
           "<button onclick=\"this.textContent='Gone'\">Go</button>"
           "<input aria-label=\"Name\">",
    "/form": "<title>Form</title><form action=\"/done\"><input name=\"q\" aria-label=\"Query\">"
             "<button>Search</button></form>",
    "/done": "<title>Done</title><p>Thank you</p>",
}


class Server:
    """A local HTTP server in a thread; ``requests`` keeps what it was sent."""

    def __init__(self, handle: Callable[[str, str, bytes], tuple[int, str, bytes]]) -> None:
        self.requests: list[dict[str, Any]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                server.requests.append({"method": self.command, "path": self.path,
                                        "headers": dict(self.headers), "body": body})
                status, kind, payload = handle(self.command, self.path, body)
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = _answer

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str = "") -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}{path}"

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def pages() -> Iterator[Server]:
    def handle(method: str, path: str, body: bytes) -> tuple[int, str, bytes]:
        page = PAGES.get(path.split("?")[0])
        if page is None:
            return 404, "text/html", b"<title>Missing</title>"
        return 200, "text/html", page.encode()

    server = Server(handle)
    yield server
    server.stop()


def scripted_model(success: bool = True) -> Callable[[str, str, bytes], tuple[int, str, bytes]]:
    """A model that clicks the button "Go" it finds in the view, then says done."""
    steps = {"n": 0}

    def handle(method: str, path: str, body: bytes) -> tuple[int, str, bytes]:
        if not path.endswith("/chat/completions"):
            return 404, "application/json", b"{}"
        steps["n"] += 1
        request = json.loads(body or b"{}")
        if steps["n"] == 1:
            view = str(request["messages"][1]["content"])
            button = next((line.split()[0] for line in view.splitlines()
                           if 'button "Go"' in line), "e0")
            call = {"name": "click", "arguments": json.dumps({"ref": button})}
        else:
            call = {"name": "done", "arguments": json.dumps({"text": "went", "success": success})}
        reply = {"model": "scripted",
                 "choices": [{"finish_reason": "tool_calls", "message": {
                     "role": "assistant", "content": None,
                     "tool_calls": [{"id": f"c{steps['n']}", "type": "function", "function": call}]}}],
                 "usage": {"prompt_tokens": 50, "completion_tokens": 5}}
        return 200, "application/json", json.dumps(reply).encode()

    return handle


def secret_filling_model(secret: str) -> Callable[[str, str, bytes], tuple[int, str, bytes]]:
    """A model that fills the field "Query" with ``<secret>NAME</secret>``
    and submits it, then says done; a field the view does not show ends
    the run as a failure naming it."""
    steps = {"n": 0}

    def handle(method: str, path: str, body: bytes) -> tuple[int, str, bytes]:
        if not path.endswith("/chat/completions"):
            return 404, "application/json", b"{}"
        steps["n"] += 1
        request = json.loads(body or b"{}")
        view = str(request["messages"][1]["content"])
        field = next((line.split()[0] for line in view.splitlines()
                      if 'textbox "Query"' in line), None)
        if steps["n"] == 1 and field:
            call = {"name": "fill", "arguments": json.dumps(
                {"ref": field, "text": f"<secret>{secret}</secret>", "submit": True})}
        elif steps["n"] == 1:
            call = {"name": "done", "arguments": json.dumps(
                {"text": "scripted model: no textbox Query in the view", "success": False})}
        else:
            call = {"name": "done", "arguments": json.dumps({"text": "sent", "success": True})}
        reply = {"model": "scripted",
                 "choices": [{"finish_reason": "tool_calls", "message": {
                     "role": "assistant", "content": None,
                     "tool_calls": [{"id": f"c{steps['n']}", "type": "function", "function": call}]}}],
                 "usage": {"prompt_tokens": 50, "completion_tokens": 5}}
        return 200, "application/json", json.dumps(reply).encode()

    return handle


@pytest.fixture
def secret_model() -> Iterator[Server]:
    server = Server(secret_filling_model("pw"))
    yield server
    server.stop()


@pytest.fixture
def model() -> Iterator[Server]:
    server = Server(scripted_model())
    yield server
    server.stop()


@pytest.fixture
def session_name() -> str:
    return f"pytest-{uuid.uuid4().hex[:10]}"
