"""A small FastMCP (the standalone `fastmcp` package) server.

    python fastmcp_server.py [stdio | http PORT]
"""

import sys

from fastmcp import FastMCP

transport = sys.argv[1] if len(sys.argv) > 1 else "stdio"
server = FastMCP("compat-fastmcp")


@server.tool
def add(a: int, b: int) -> int:
    """Adds two integers."""
    return a + b


@server.tool
def reverse(text: str) -> str:
    """Reverses a text."""
    return text[::-1]


@server.resource("compat://greeting")
def greeting() -> str:
    """A fixed greeting."""
    return "hello"


if transport == "stdio":
    server.run(show_banner=False)
else:
    server.run("http", host="127.0.0.1", port=int(sys.argv[2]), show_banner=False, log_level="WARNING")
