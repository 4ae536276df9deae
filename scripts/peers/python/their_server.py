"""A small server written with the Python SDK's MCPServer (FastMCP's name since mcp 2), for our CLI to drive.

It has what issue 23 asks of each foreign server: a tool with an output schema (structured output,
from the return annotation), a tool that reports progress through ctx.report_progress, a resource and
a prompt. `python their_server.py stdio` serves on stdin/stdout; `python their_server.py http PORT`
serves Streamable HTTP at http://127.0.0.1:PORT/mcp.

The same file runs under mcp 1.x (requirements-v1.txt), whose FastMCP speaks the handshake era
only: the server our CLI's `--protocol-version auto` must fall back to initialize against.
"""

import sys

from pydantic import BaseModel, Field

try:
    from mcp.server.mcpserver import Context, MCPServer

    server = MCPServer(name="mcp-wire-python-peer", version="1.0.0", log_level="WARNING")

    def run_http(port: int) -> None:
        server.run("streamable-http", host="127.0.0.1", port=port)
except ImportError:  # mcp 1.x
    from mcp.server.fastmcp import Context, FastMCP

    server = FastMCP(name="mcp-wire-python-peer", log_level="WARNING")

    def run_http(port: int) -> None:
        server.settings.port = port
        server.run("streamable-http")


class Sum(BaseModel):
    sum: float = Field(description="a + b")


@server.tool(description="Adds a and b; the sum is structured content (an output schema from the return type).")
def add(a: float, b: float) -> Sum:
    return Sum(sum=a + b)


@server.tool(description="Counts down, reporting progress once a step.")
async def countdown(steps: int, ctx: Context) -> str:
    for step in range(1, steps + 1):
        await ctx.report_progress(step, steps, f"step {step} of {steps}")
    return f"counted down {steps} steps"


@server.resource("peer://notes", name="notes", description="A fixed text resource.", mime_type="text/plain")
def notes() -> str:
    return "notes from the Python peer"


@server.prompt(description="Asks to greet someone by name.")
def greeting(name: str) -> str:
    return f"Please greet {name}."


if __name__ == "__main__":
    if sys.argv[1:2] == ["http"]:
        run_http(int(sys.argv[2]))
    else:
        server.run("stdio")
