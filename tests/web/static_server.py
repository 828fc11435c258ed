"""A small static file server for the built site (127.0.0.1, a free port, in a thread).

It can pretend some files are missing (to test that a failed load step shows an error) or fail
their first requests (`flaky`: a lost request on mobile data), and it counts the bytes it sends
per path (the benchmark lists what a first visit downloads).
"""

from __future__ import annotations

import threading
from collections import Counter
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

TYPES = {
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".svg": "image/svg+xml",
    ".whl": "application/zip",
    ".zip": "application/zip",
}


class _Handler(SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {**SimpleHTTPRequestHandler.extensions_map, **TYPES}

    def __init__(self, *args: Any, site: StaticServer, **kwargs: Any) -> None:
        self.site = site
        super().__init__(*args, directory=str(site.root), **kwargs)

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        if path.lstrip("/") in self.site.missing:
            self.send_error(404, "missing on purpose")
            return
        if self.site.fails_now(path.lstrip("/")):
            self.send_error(503, "lost on purpose")
            return
        extra = self.site.extra.get(path)
        if extra is not None:
            body, content_type = extra
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            self.site.count(path, len(body))
            return
        super().do_GET()

    def copyfile(self, source: Any, outputfile: Any) -> None:
        before = source.tell()
        super().copyfile(source, outputfile)
        self.site.count(self.path.split("?", 1)[0], source.tell() - before)

    def log_message(self, format: str, *args: Any) -> None:
        pass


class StaticServer:
    """Serve ``root`` on 127.0.0.1 at a free port until ``close()``."""

    def __init__(self, root: Path, missing: set[str] | None = None) -> None:
        self.root = root
        self.missing = set(missing or ())
        self.extra: dict[str, tuple[bytes, str]] = {}
        self.flaky: Counter[str] = Counter()  # path: how many of its next requests fail
        self.asked: Counter[str] = Counter()
        self.sent: Counter[str] = Counter()
        self._lock = threading.Lock()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Handler, site=self))
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}/"

    def fails_now(self, path: str) -> bool:
        """Counts a request for ``path``; True when it is one of the requests meant to fail."""
        with self._lock:
            self.asked[path] += 1
            if self.flaky[path] > 0:
                self.flaky[path] -= 1
                return True
            return False

    def count(self, path: str, size: int) -> None:
        with self._lock:
            self.sent[path] += size

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=10)
