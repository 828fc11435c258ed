"""The Background Battle bridge: one live, durable, guarded battle state for every client.

See docs/protocol.md for the messages, `server.main` for the command line.
"""

__version__ = "0.1.0"
