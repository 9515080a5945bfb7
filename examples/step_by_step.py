"""The agent a step at a time from Python (rove.Agent): a page on 127.0.0.1,
a model, and an application that prints each step, tells the model
something after the first, and reads the history at the end.

The model is a scripted one on 127.0.0.1 speaking OpenAI's wire format,
unless ROVE_EXAMPLE_MODEL names a real one (``openai:gpt-5-mini``, its key
in the provider's variable, OPENAI_API_KEY here).

    pip install rove   # or the wheel scripts/test-python.sh builds
    python examples/step_by_step.py
"""

from __future__ import annotations

import json
import os
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import rove

PAGE = (b"<!doctype html><title>Greeting</title><label>Name <input id=n></label>"
        b"<button onclick=\"out.textContent = 'Hello ' + n.value\">Greet</button><p id=out></p>")


def serve(answer) -> ThreadingHTTPServer:
    """An HTTP server on 127.0.0.1 in a thread; ``answer(path, body)``
    gives the content type and bytes."""

    class Handler(BaseHTTPRequestHandler):
        def _reply(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            kind, payload = answer(self.path, body)
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        do_GET = do_POST = _reply

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def scripted_model(path: str, body: bytes) -> tuple[str, bytes]:
    """Fills the name, presses Greet, then says done with what the page
    answered: each answer read off the request, as a model would."""
    request = json.loads(body)
    said = "\n".join(str(m.get("content")) for m in request["messages"])
    turn = sum(1 for m in request["messages"] if m["role"] == "assistant")

    def ref(marker: str) -> str:
        line = next((l for l in said.splitlines() if marker in l), "")
        found = re.search(r"\be\d+\b", line)
        return found.group(0) if found else "e0"

    if turn == 0:
        name, args = "fill", {"ref": ref('textbox "Name"'), "text": "Ada"}
    elif turn == 1:
        name, args = "click", {"ref": ref('button "Greet"')}
    else:
        greeted = "Hello Ada" in said
        name, args = "done", {"text": "Hello Ada" if greeted else "no answer",
                              "success": greeted}
    call = {"id": f"call_{turn}", "type": "function",
            "function": {"name": name, "arguments": json.dumps(args)}}
    reply = {"model": "scripted", "choices": [{"index": 0, "finish_reason": "tool_calls",
             "message": {"role": "assistant", "content": None, "tool_calls": [call]}}],
             "usage": {"prompt_tokens": 0, "completion_tokens": 0}}
    return "application/json", json.dumps(reply).encode()


def main() -> None:
    pages = serve(lambda path, body: ("text/html", PAGE))
    page_url = f"http://127.0.0.1:{pages.server_address[1]}/"
    options: dict[str, object] = {"max_steps": 6, "vision": "off"}
    model = os.environ.get("ROVE_EXAMPLE_MODEL")
    if model is None:
        scripted = serve(scripted_model)
        model = "openai:scripted"
        options.update(base_url=f"http://127.0.0.1:{scripted.server_address[1]}/v1",
                       api_key="none")
    task = "Greet Ada on this page and say what it answers."
    with rove.Agent(task, model=model, start_url=page_url, **options) as agent:
        for step in agent:
            for action in step.actions:
                first_line = action.result.splitlines()[0] if action.result else ""
                print(f"step {step.number}: {action.tool} {json.dumps(action.arguments.raw)}"
                      f" -> {first_line}")
            if step.number == 1:
                agent.tell("Use the name exactly as written: Ada.")
    history = agent.history
    print(f"ending: {history.ending.raw}")


if __name__ == "__main__":
    main()
