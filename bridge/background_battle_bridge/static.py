"""The web page over plain HTTP from the bridge's own port (files under one folder).

>>> site = Site(None)
>>> site.response("/").status_code
200
>>> site.response("/missing.js").status_code
404
"""

from __future__ import annotations

import email.utils
import hashlib
import http
import mimetypes
from importlib import resources
from pathlib import Path

from websockets.datastructures import Headers
from websockets.http11 import Response

TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".wasm": "application/wasm",
    ".svg": "image/svg+xml",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".tar": "application/x-tar",
    ".txt": "text/plain; charset=utf-8",
    ".map": "application/json",
}

FALLBACK = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Background Battle bridge</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40em;margin:2em auto;padding:0 1em}
code{background:#eee;padding:.1em .3em}</style></head>
<body>
<h1>Background Battle bridge is running</h1>
<p>The web page has not been built, so there is nothing else to show here yet.
Build it with <code>make site</code> (or start everything with <code>make run</code>),
then reload this page.</p>
<p>The bridge itself works: WebSocket clients (the Foundry module, scripts) connect to
<code>/ws</code> on this address. See <code>docs/protocol.md</code>.</p>
<p lang="ru">Мост работает, но веб-страница ещё не собрана: выполните <code>make run</code>
и обновите страницу.</p>
</body></html>
"""


# Where a wheel carries the built page (setup.py copies web/dist there; a source tree has none).
PACKAGED_PAGE = "page"


def packaged_page() -> Path | None:
    """The page built into the installed package, or None (a source tree, an editable install)."""
    page = resources.files(__package__) / PACKAGED_PAGE
    return page if isinstance(page, Path) and (page / "index.html").is_file() else None


class Site:
    """Serves files from `root` (the built `web/dist/`), or the fallback page when it is absent."""

    def __init__(self, root: Path | None) -> None:
        self.root = root.resolve() if root is not None and root.is_dir() else None

    def response(self, path: str, if_none_match: str | None = None) -> Response:
        """The HTTP response for a GET of `path` (already decoded; never outside the root)."""
        if self.root is None:
            if path in ("/", "/index.html"):
                return _response(http.HTTPStatus.OK, FALLBACK.encode(), TYPES[".html"])
            return _not_found()
        try:
            target, body = _read(self.root, path)
        except (OSError, ValueError):  # missing, outside the root, a name too long, ...
            return _not_found()
        etag = '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'
        if if_none_match == etag:
            return _response(http.HTTPStatus.NOT_MODIFIED, b"", None, etag)
        kind = TYPES.get(target.suffix) or mimetypes.guess_type(target.name)[0]
        return _response(http.HTTPStatus.OK, body, kind or "application/octet-stream", etag)


def _read(root: Path, path: str) -> tuple[Path, bytes]:
    """The file at `path` under `root` (a folder's index.html).

    Raises:
        OSError: no such file, or a name the system refuses.
        ValueError: the path leads outside `root`, or holds a NUL.
    """
    target = (root / (path.lstrip("/") or "index.html")).resolve()
    if target.is_dir():
        target = target / "index.html"
    if not target.is_relative_to(root):
        raise ValueError(f"{path!r} is outside the site")
    return target, target.read_bytes()


def _not_found() -> Response:
    return _response(http.HTTPStatus.NOT_FOUND, b"Not found\n", TYPES[".txt"])


def _response(
    status: http.HTTPStatus, body: bytes, kind: str | None, etag: str | None = None
) -> Response:
    headers = Headers(
        [
            ("Date", email.utils.formatdate(usegmt=True)),
            ("Connection", "close"),
            ("Content-Length", str(len(body))),
            ("Cache-Control", "no-cache"),
            ("X-Content-Type-Options", "nosniff"),
        ]
    )
    if kind is not None:
        headers["Content-Type"] = kind
    if etag is not None:
        headers["ETag"] = etag
    return Response(status.value, status.phrase, headers, body)
