#!/usr/bin/env python3
"""A model played by a person: an endpoint on 127.0.0.1 speaking OpenAI's
chat-completions wire format that saves each request rove sends and waits
for the person's answer in a file.

Usage:

    python3 bench/hand-model.py DIR [--port 8490] [--wait 1800]
    rove run TASK --model openai:hand --base-url http://127.0.0.1:8490/v1 \\
        --api-key none --vision off --step-timeout 1800 --start-url …

For request N (1, 2, …) it writes:

- DIR/req-N.json: the request as rove sent it;
- DIR/req-N.txt: the same to read: the system prompt (on request 1 only),
  then every message, the tool definitions named, and the request's size;

and waits up to --wait seconds for DIR/ans-N.json, which the person writes
after reading it:

    {"text": "optional words", "calls": [["click", {"ref": "e3"}], ["done", {…}]]}

(``calls`` may be empty: a plain-text answer). It answers rove with those
calls, and appends one line per request to DIR/log.tsv: N, the request's
characters (its JSON body), of which tool definitions and of which
messages, and the number of calls answered. Nothing leaves the machine.
"""

from __future__ import annotations

import argparse
import json
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any


def readable(body: dict[str, Any], n: int) -> str:
    """The request as a person reads it."""
    out: list[str] = []
    for i, message in enumerate(body.get("messages", [])):
        role = message.get("role")
        content = message.get("content")
        if isinstance(content, list):
            content = "\n".join(part.get("text", f"[{part.get('type')}]") for part in content)
        if role == "system" and n > 1:
            out.append(f"--- [{i}] system: (as in request 1, {len(content or '')} chars)")
            continue
        head = f"--- [{i}] {role}"
        if message.get("tool_call_id"):
            head += f" ({message['tool_call_id']})"
        out.append(head)
        if content:
            out.append(str(content))
        for call in message.get("tool_calls") or []:
            fn = call.get("function", {})
            out.append(f"  call {call.get('id')}: {fn.get('name')}({fn.get('arguments')})")
    tools = [t.get("function", {}).get("name") for t in body.get("tools", [])]
    out.append(f"--- tools ({len(tools)}): {', '.join(map(str, tools))}")
    extra = {k: v for k, v in body.items() if k not in ("messages", "tools")}
    out.append(f"--- other fields: {json.dumps(extra)}")
    return "\n".join(out) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", type=Path)
    parser.add_argument("--port", type=int, default=8490)
    parser.add_argument("--wait", type=float, default=1800.0)
    options = parser.parse_args()
    folder: Path = options.dir
    folder.mkdir(parents=True, exist_ok=True)
    counter = {"n": len(list(folder.glob("req-*.json")))}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if not self.path.endswith("/chat/completions"):
                self._reply(404, {"error": {"message": "not served here"}})
                return
            counter["n"] += 1
            n = counter["n"]
            body = json.loads(raw)
            (folder / f"req-{n}.json").write_bytes(raw)
            (folder / f"req-{n}.txt").write_text(readable(body, n), encoding="utf-8")
            answer_file = folder / f"ans-{n}.json"
            deadline = time.monotonic() + options.wait
            while not answer_file.exists() and time.monotonic() < deadline:
                time.sleep(0.5)
            if not answer_file.exists():
                self._reply(500, {"error": {"message": f"no answer in {answer_file}"}})
                return
            time.sleep(0.2)  # the writer's last bytes
            answer = json.loads(answer_file.read_text(encoding="utf-8"))
            calls = [{"id": f"call_{n}_{i}", "type": "function",
                      "function": {"name": name, "arguments": json.dumps(args)}}
                     for i, (name, args) in enumerate(answer.get("calls", []))]
            sizes = (len(raw.decode("utf-8")),
                     len(json.dumps(body.get("tools", []), ensure_ascii=False, separators=(",", ":"))),
                     len(json.dumps(body.get("messages", []), ensure_ascii=False, separators=(",", ":"))))
            with open(folder / "log.tsv", "a", encoding="utf-8") as log:
                log.write("\t".join(map(str, (n, *sizes, len(calls)))) + "\n")
            message: dict[str, Any] = {"role": "assistant", "content": answer.get("text")}
            if calls:
                message["tool_calls"] = calls
            self._reply(200, {
                "id": f"hand-{n}", "object": "chat.completion", "model": "hand",
                "choices": [{"index": 0, "message": message,
                             "finish_reason": "tool_calls" if calls else "stop"}],
                # Characters over four: what the figures count is characters.
                "usage": {"prompt_tokens": sizes[0] // 4, "completion_tokens": 10},
            })

        def _reply(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", options.port), Handler)
    print(f"hand model on http://127.0.0.1:{options.port}/v1, requests in {folder}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
