"""Drives `rove mcp` with the official MCP Python SDK (PyPI `mcp`), a client
no one on the rove team wrote. Usage: mcp_client.py ROVE_BINARY PAGE_URL.
Prints one JSON object with what it saw; the Rust test asserts on it."""

import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def texts(result):
    return [block.text for block in result.content if getattr(block, "type", "") == "text"]


def is_error(result):
    for name in ("isError", "is_error"):
        if hasattr(result, name):
            return bool(getattr(result, name))
    return False


async def main(rove, url):
    seen = {}
    params = StdioServerParameters(command=rove, args=["mcp"])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            seen["server"] = init.serverInfo.name if hasattr(init, "serverInfo") else init.server_info.name
            tools = await session.list_tools()
            seen["tools"] = [t.name for t in tools.tools]
            opened = await session.call_tool("open", {"url": url})
            seen["open_error"] = is_error(opened)
            view = texts(opened)[0]
            seen["view"] = view
            button = next(line.split()[0] for line in view.splitlines() if 'button "Greet"' in line)
            clicked = await session.call_tool("click", {"ref": button})
            seen["click_error"] = is_error(clicked)
            seen["click"] = texts(clicked)[0]
            failed = await session.call_tool("click", {"ref": "e999"})
            seen["stale_error"] = is_error(failed)
            seen["stale"] = json.loads(texts(failed)[0])
            seen["stale_view"] = texts(failed)[1] if len(texts(failed)) > 1 else ""
            bad = await session.call_tool("click", {"ref": "e1", "bogus": 1})
            seen["bad_error"] = is_error(bad)
            seen["bad"] = texts(bad)[0]
            try:
                unknown = await session.call_tool("teleport", {})
                seen["unknown"] = {"error": is_error(unknown), "text": texts(unknown)}
            except Exception as e:  # a protocol error is also a fine answer
                seen["unknown"] = {"protocol_error": str(e)}
    print(json.dumps(seen))


asyncio.run(main(sys.argv[1], sys.argv[2]))
