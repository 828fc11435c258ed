"""A small static file server for the built site (127.0.0.1, a free port, in a thread).

It can pretend some files are missing (to test that a failed load step shows an error) or fail
their first requests (`flaky`: a lost request on mobile data), and it counts the bytes it sends
per path (the benchmark lists what a first visit downloads). With ``gzip=True`` it compresses
what a browser accepts gzipped (level 6, as a static host that compresses does; the phone
profile of the benchmark sends its bytes so) and counts the compressed bytes. With ``network``
(a ``Network``) it is a slow network, for every request whatever sent it (a page, its worker,
its service worker) and in every browser: each answer waits the latency, and the bodies of all
answers together go out at the network's rate.
"""

from __future__ import annotations

import gzip
import threading
import time
from collections import Counter
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Network:
    """A slow network: bytes per second for every answer together, and each answer's latency."""

    bytes_per_s: float
    latency_s: float


CHUNK = 16 * 1024


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
        if extra is None and (self.site.gzip or self.site.network):
            extra = self._file(path)
        if extra is not None:
            body, content_type = extra
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            if self.site.gzip and "gzip" in self.headers.get("Accept-Encoding", ""):
                body = self.site.gzipped(path, body)
                self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            if self.site.network:
                time.sleep(self.site.network.latency_s)
            self.end_headers()
            if self.site.network:
                for start in range(0, len(body), CHUNK):
                    self.site.wait_to_send(len(body[start : start + CHUNK]))
                    self.wfile.write(body[start : start + CHUNK])
            else:
                self.wfile.write(body)
            self.site.count(path, len(body))
            return
        super().do_GET()

    def _file(self, path: str) -> tuple[bytes, str] | None:
        """A file of the site (a folder's index.html) and its type, or None (then: 404)."""
        file = Path(self.translate_path(path))
        if file.is_dir():
            file = file / "index.html"
        if not file.is_file():
            return None
        return file.read_bytes(), self.guess_type(str(file))

    def copyfile(self, source: Any, outputfile: Any) -> None:
        before = source.tell()
        super().copyfile(source, outputfile)
        self.site.count(self.path.split("?", 1)[0], source.tell() - before)

    def log_message(self, format: str, *args: Any) -> None:
        pass


class StaticServer:
    """Serve ``root`` on 127.0.0.1 at a free port until ``close()``."""

    def __init__(
        self,
        root: Path,
        missing: set[str] | None = None,
        gzip: bool = False,
        network: Network | None = None,
    ) -> None:
        self.root = root
        self.gzip = gzip
        self.network = network
        self._line_free = 0.0  # when the slow network's line is free again
        self._packed: dict[str, bytes] = {}
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

    def gzipped(self, path: str, body: bytes) -> bytes:
        """``body`` gzipped at level 6, made once per path."""
        with self._lock:
            if path not in self._packed:
                self._packed[path] = gzip.compress(body, compresslevel=6, mtime=0)
            return self._packed[path]

    def wait_to_send(self, size: int) -> None:
        """Wait until ``size`` more bytes fit through the slow network (shared by every answer)."""
        assert self.network
        with self._lock:
            now = time.monotonic()
            self._line_free = max(now, self._line_free) + size / self.network.bytes_per_s
            until = self._line_free
        time.sleep(max(0.0, until - time.monotonic()))

    def count(self, path: str, size: int) -> None:
        with self._lock:
            self.sent[path] += size

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=10)
