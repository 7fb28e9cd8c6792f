"""The MCP server (service/mcp/server.py), over streamable HTTP at `/mcp` (http.py) and stdio (stdio.py)."""
