"""The raw CDP cost of a click, as the floor rove's own is measured against.

A Chromium with the same flags as rove's, driven over its DevTools socket
by a client of about fifty lines (the standard library has no WebSocket
client): load a page, then send the three mouse events a click is (move,
press, release) at an element's centre and time them until Chromium has
answered each, with the page's heartbeat (the longest its thread went
without running a 5 ms timer) read around them. No actionability checks,
no settling, no view: what any tool pays at least. Used by huge-pages.py.
"""
import base64, json, os, shutil, socket, struct, subprocess, tempfile, time, urllib.request


class Socket:
    """A WebSocket client: text frames out (masked), text frames in."""

    def __init__(self, url):
        host, rest = url[len("ws://"):].split("/", 1)
        name, port = host.split(":")
        self.sock = socket.create_connection((name, int(port)), timeout=600)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /{rest} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)
        self.next_id = 0

    def _read(self, n):
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise ConnectionError("the browser closed its socket")
            data += chunk
        return data

    def send(self, method, params=None):
        self.next_id += 1
        body = json.dumps({"id": self.next_id, "method": method, "params": params or {}}).encode()
        mask = os.urandom(4)
        n = len(body)
        head = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack(">H", n)
                                if n < 65536 else bytes([0x80 | 127]) + struct.pack(">Q", n))
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(body)))
        return self.next_id

    def answer(self, wanted):
        while True:
            first, second = self._read(2)
            n = second & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            payload = self._read(n)
            if first & 0x0F != 1:
                continue
            message = json.loads(payload)
            if message.get("id") == wanted:
                return message

    def call(self, method, params=None):
        return self.answer(self.send(method, params)).get("result", {})


class Browser:
    """A Chromium of its own on a free port, with one page."""

    def __init__(self):
        self.profile = tempfile.mkdtemp(prefix="rove-raw-cdp-")
        self.proc = subprocess.Popen(
            ["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={self.profile}", "--remote-debugging-port=0", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        for _ in range(300):
            if os.path.exists(port_file) and open(port_file).read().count("\n") >= 1:
                break
            time.sleep(0.05)
        port = open(port_file).read().split("\n")[0]
        pages = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
        page = next(p for p in pages if p["type"] == "page")
        self.page = Socket(page["webSocketDebuggerUrl"])
        self.page.call("Page.enable")

    def load(self, url):
        self.page.call("Page.navigate", {"url": url})
        while self.page.call("Runtime.evaluate", {"expression": "document.readyState", "returnByValue": True})[
                "result"]["value"] != "complete":
            time.sleep(0.05)

    def value(self, expression):
        return self.page.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})["result"].get("value")

    def click(self, selector):
        """Move, press and release at `selector`'s centre: seconds until the
        release was answered, and the longest the page's thread was held."""
        x, y = self.value(f"(() => {{ const r = document.querySelector({json.dumps(selector)}).getBoundingClientRect();"
                          " return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        self.value("__worst = 0")
        start = time.monotonic()
        for kind, buttons in (("mouseMoved", 0), ("mousePressed", 1), ("mouseReleased", 0)):
            self.page.call("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left",
                                                         "buttons": buttons, "clickCount": 1})
        took = time.monotonic() - start
        # The heartbeat notes a hold when its timer next runs, after the
        # hold: read before that, it would miss the click's own.
        time.sleep(0.1)
        return took, float(self.value("__worst") or 0)

    def close(self):
        self.proc.kill()
        self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)
