#!/usr/bin/env python3
# A scripted model (OpenAI chat wire) and a tiny shop, for measuring rove test's own overhead.
import json, threading, sys
from http.server import ThreadingHTTPServer, BaseHTTPRequestHandler
count = {"lamp": 0}
lock = threading.Lock()
PAGE = b"""<!doctype html><title>Shop</title><h1>Shop</h1><button onclick="fetch('/api/add',{method:'POST'}).then(()=>{document.getElementById('o').textContent='Added Lamp'})">Lamp</button><p id=o>empty</p>"""
class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a): pass
    def send(self, code, ctype, body):
        self.send_response(code); self.send_header("content-type", ctype); self.send_header("content-length", str(len(body))); self.end_headers(); self.wfile.write(body)
    def do_GET(self):
        if self.path.startswith("/shop"): self.send(200, "text/html", PAGE)
        elif self.path.startswith("/api/count"): self.send(200, "application/json", json.dumps(count).encode())
        else: self.send(404, "text/plain", b"no")
    def do_POST(self):
        n = int(self.headers.get("content-length", 0)); body = self.rfile.read(n)
        if self.path.startswith("/api/add"):
            with lock: count["lamp"] += 1
            self.send(200, "text/plain", b"ok"); return
        req = json.loads(body or b"{}"); msgs = req.get("messages", [])
        first = next((m.get("content") for m in msgs if m.get("role") == "user"), "") or ""
        if isinstance(first, list): first = " ".join(p.get("text", "") for p in first if isinstance(p, dict))
        acted = sum(1 for m in msgs if m.get("role") == "assistant")
        if acted == 0:
            ref = next((l.split()[0] for l in first.splitlines() if 'button "Lamp"' in l), "e0")
            call = {"id": "c1", "type": "function", "function": {"name": "click", "arguments": json.dumps({"ref": ref})}}
        elif acted < 3:
            call = {"id": "c%d" % acted, "type": "function", "function": {"name": "snapshot", "arguments": "{}"}}
        else:
            call = {"id": "cd", "type": "function", "function": {"name": "done", "arguments": json.dumps({"text": "pressed", "success": True})}}
        reply = {"model": "scripted", "choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant", "content": None, "tool_calls": [call]}}], "usage": {"prompt_tokens": 40, "completion_tokens": 4}}
        self.send(200, "application/json", json.dumps(reply).encode())
ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
