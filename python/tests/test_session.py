"""rove.Session and rove.AsyncSession against real Chromium and local pages."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import pytest
import rove
from rove._binary import binary


def test_the_package_drives_the_binary_its_wheel_installed() -> None:
    scripts = Path(sysconfig.get_path("scripts"))
    assert Path(binary()) == scripts / "rove"
    version = subprocess.run([binary(), "--version"], capture_output=True, text=True, check=True)
    assert version.stdout.startswith("rove ")


def test_open_click_fill_eval_and_find(pages) -> None:
    with rove.Session() as s:
        opened = s.open(pages.url("/go"))
        assert 'button "Go"' in opened.text and opened.url == pages.url("/go")
        found = s.find("Go")
        assert [m.role for m in found.matches] == ["button"]
        button = found.matches[0].ref
        clicked = s.click(button)
        assert any(button in line for line in clicked.happened)
        assert s.eval("document.querySelector('button').textContent").value == "Gone"
        field = s.find("Name", role="textbox").matches[0].ref
        s.fill(field, "Ada")
        assert s.get("value", field).value == "Ada"
        assert s.eval("[1, {a: 2}]").value == [1, {"a": 2}]
        name = s.name
    # An unnamed session ends with its block: the same name is a fresh
    # session, on a blank page.
    after = subprocess.run([binary(), "--session", name, "--json", "eval", "location.href"],
                           capture_output=True, text=True)
    assert json.loads(after.stdout)["data"]["result"] == "about:blank"
    subprocess.run([binary(), "--session", name, "close"], capture_output=True)


def test_failures_raise_typed_exceptions_with_rove_fields(pages) -> None:
    with rove.Session(allowed_domains="127.0.0.1") as s:
        s.open(pages.url("/go"))
        with pytest.raises(rove.RefNotFound) as gone:
            s.click("e999")
        error = gone.value
        assert isinstance(error, rove.PageStateError) and isinstance(error, rove.RoveError)
        assert error.code == "REF_NOT_FOUND" and error.retry == "reobserve"
        assert error.action_sent == "not_sent" and error.side_effect == "none"
        assert error.hint and 'button "Go"' in (error.fresh_view or "")
        assert error.exit_status == 3
        with pytest.raises(rove.CommandRejected) as bad:
            s.snapshot(mode="sideways")  # type: ignore[arg-type]
        assert bad.value.retry == "never" and isinstance(bad.value, rove.BadInputError)
        with pytest.raises(rove.NavigationBlocked) as blocked:
            s.open("http://example.invalid/")
        assert blocked.value.action_sent == "not_sent"
        assert isinstance(blocked.value, rove.NavigationError)


def test_an_unknown_option_is_a_bad_input_error() -> None:
    with pytest.raises(rove.BadInputError) as bad:
        with rove.Session(no_such_option=True) as s:
            s.snapshot()
    assert "--no-such-option" in str(bad.value)


def test_a_named_session_is_shared_with_the_shell(pages, session_name) -> None:
    s = rove.Session(session_name)
    try:
        s.open(pages.url("/go"))
        shell = subprocess.run([binary(), "--session", session_name, "--json", "find", "Go"],
                               capture_output=True, text=True, check=True)
        ref = json.loads(shell.stdout)["matches"][0]["ref"]
        subprocess.run([binary(), "--session", session_name, "click", ref],
                       capture_output=True, text=True, check=True)
        assert s.eval("document.querySelector('button').textContent").value == "Gone"
    finally:
        s.close()
    # Closed from Python, the shell's session is gone too: a new one starts empty.
    after = subprocess.run([binary(), "--session", session_name, "--json", "eval", "location.href"],
                           capture_output=True, text=True)
    assert json.loads(after.stdout)["data"]["result"] == "about:blank"
    subprocess.run([binary(), "--session", session_name, "close"], capture_output=True)


def test_async_sessions_run_side_by_side(pages) -> None:
    both_open = asyncio.Event()
    opened: list[str] = []

    async def one(path: str) -> tuple[str, float, float]:
        async with rove.AsyncSession() as s:
            await s.open(pages.url(path))
            opened.append(path)
            if len(opened) == 2:
                both_open.set()
            await asyncio.wait_for(both_open.wait(), 60)
            # A call that takes 1.5 s in the page: side by side, the two
            # overlap; one after the other, the second starts after the
            # first has ended.
            started = time.monotonic()
            title = (await s.eval(
                "new Promise((r) => setTimeout(() => r(document.title), 1500))")).value
            return title, started, time.monotonic()

    async def both() -> list[tuple[str, float, float]]:
        return list(await asyncio.gather(one("/go"), one("/done")))

    (go, go_start, go_end), (done, done_start, done_end) = asyncio.run(both())
    assert [go, done] == ["Go", "Done"]
    assert max(go_start, done_start) < min(go_end, done_end), \
        f"no overlap: {go_start:.2f}-{go_end:.2f} and {done_start:.2f}-{done_end:.2f}"


def test_the_methods_are_the_vocabulary(tmp_path) -> None:
    """Every tool rove's MCP server lists is a method of both session
    classes with the tool's argument names, and the stub beside the module
    declares the same; nothing of the package's is a second list."""
    process = subprocess.Popen([binary(), "mcp", "--caps", "all"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdin and process.stdout
        for message in [
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "pytest", "version": "1"}}},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        ]:
            process.stdin.write(json.dumps(message) + "\n")
            process.stdin.flush()
        lines = [json.loads(process.stdout.readline()) for _ in range(2)]
    finally:
        process.kill()
        process.wait()
    tools = next(line for line in lines if line.get("id") == 2)["result"]["tools"]
    import inspect
    stub = (Path(rove.__file__).parent / "_commands.pyi").read_text()
    assert len(tools) > 30
    for tool in tools:
        method = tool["name"].replace("-", "_")
        expected = {name + ("_" if name in ("from",) else "")
                    for name in tool["inputSchema"].get("properties", {})}
        for cls in (rove.Session, rove.AsyncSession):
            parameters = set(inspect.signature(getattr(cls, method)).parameters) - {"self"}
            assert parameters == expected, (cls.__name__, method)
        assert f"    def {method}(self" in stub and f"    async def {method}(self" in stub


def test_uvx_runs_the_wheels_mcp_server_without_an_install(tmp_path) -> None:
    """`uvx --from WHEEL rove mcp`, as `print-config --uvx` writes it for a
    host, answers MCP's handshake from a fresh environment uv makes."""
    import os

    wheel = os.path.realpath(os.environ["ROVE_TEST_WHEEL"])
    uvx = Path(sysconfig.get_path("scripts")) / "uvx"
    config = subprocess.run([binary(), "print-config", "--harness", "cursor", "--uvx", wheel],
                            capture_output=True, text=True, check=True)
    entry = json.loads(config.stdout)["mcpServers"]["rove"]
    assert entry["command"] == "uvx" and entry["args"][:2] == ["--from", wheel]
    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "pytest", "version": "1"}}}
    done = subprocess.run([str(uvx), "--offline", *entry["args"]], input=json.dumps(hello) + "\n",
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    answer = json.loads(done.stdout.splitlines()[0])
    assert answer["result"]["serverInfo"]["name"] == "rove", done.stderr
