"""A small server on the official Python SDK's high-level API, as people write
them: FastMCP in mcp 1.x (mcp.server.fastmcp), MCPServer in mcp 2.x.

    python sdk_server.py [stdio | sse PORT | streamable-http PORT]
"""

import sys

try:
    from mcp.server.mcpserver import MCPServer as Server  # mcp 2.x
except ImportError:
    from mcp.server.fastmcp import FastMCP as Server  # mcp 1.x

transport = sys.argv[1] if len(sys.argv) > 1 else "stdio"
port = int(sys.argv[2]) if len(sys.argv) > 2 else 0

if transport == "stdio" or Server.__name__ == "MCPServer":
    server = Server("compat-python-sdk")
else:
    # mcp 1.x takes the address as settings; 2.x as arguments of run().
    server = Server("compat-python-sdk", host="127.0.0.1", port=port, log_level="WARNING")


@server.tool()
def add(a: int, b: int) -> int:
    """Adds two integers."""
    return a + b


@server.tool()
def echo(text: str) -> str:
    """Returns the text it was given."""
    return text


@server.tool()
def word_count(text: str) -> int:
    """Counts the words of a text."""
    return len(text.split())


if transport == "stdio":
    server.run()
elif Server.__name__ == "MCPServer":
    server.run(transport, host="127.0.0.1", port=port)
else:
    server.run(transport)
