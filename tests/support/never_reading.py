"""A peer that never reads: a real socket with a small receive window that says hello, watching
a battle, and then never reads again (the eviction test and the bridge's benchmark)."""

from __future__ import annotations

import json
import socket

from websockets.client import ClientProtocol
from websockets.http11 import Response
from websockets.uri import parse_uri


def never_reading(port: int, token: str, battle: str) -> socket.socket:
    """Connected, the hello sent (watching ``battle``); its reads stop after the handshake."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    protocol = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}/ws"))
    protocol.send_request(protocol.connect())
    sock.sendall(b"".join(protocol.data_to_send()))
    while not any(isinstance(event, Response) for event in protocol.events_received()):
        protocol.receive_data(sock.recv(1024))
    hello = {"type": "hello", "token": token, "client": "web", "battle": battle}
    protocol.send_text(json.dumps(hello).encode())
    sock.sendall(b"".join(protocol.data_to_send()))
    return sock
