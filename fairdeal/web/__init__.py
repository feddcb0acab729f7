"""The browser side of fairdeal: the lobby, the live table and the verify page.

Plain HTML, CSS and ES modules, served as they are (no build step). The
pages talk to the service's JSON API only; the verify page (and the replayer)
run fairdeal's own Python verifier in the browser, in Pyodide, and ask no
server for a verdict (spec/verify-page.md).

:func:`mount` adds the pages to an app (FastAPI or Starlette):

- ``/`` the lobby (create a table, get a link per seat),
- ``/table/{game_id}`` a seat's table (its join token rides in the URL
  fragment, ``#seat=2&token=...``, which browsers never send to a server),
- ``/verify`` the verify page (``?game=ID`` loads a game from this server): it runs
  fairdeal's own verifier in the browser, in Pyodide, inside a Web Worker,
- ``/engine/manifest.json`` (not cached) names the engine bundle, ``/engine/<sha256>.zip``
  (cached for good: its name is its hash) the installed package's verifier code
  (:mod:`fairdeal.web.engine`),
- ``/vendor/...`` front-end libraries fetched by ``make`` (@noble/hashes' SHA-256 for pages without Web Crypto,
  the SVG card deck the pages draw every card with, the bot's avatar icon),
- ``/pyodide/...`` Pyodide's core files (fetched by ``make``; cached for good, the version is pinned),
- ``/replay`` the hand replayer (``?game=ID``: a finished game of this server), every hand move by move,
- ``/css/...``, ``/js/...`` their files; ``/js/games/<renderer>.js`` draws one game (or family)
  at the table and says its words, picked through the catalogue's ``renderer`` (``GET /rules``;
  ``generic.js`` draws a game that has none of its own, from its view), with the style sheets it
  names beside it (``/js/games/<name>.css``); the table page's own modules are ``/js/table/*.js``.

Outside ``js/games/`` the pages name no game: the lobby's games, seats and options, the
table's title and unit, the verify page's deal layouts come from the catalogue, and what
the table shows that depends on the rules comes in the seat's view.

>>> sorted(PAGES)
['/', '/replay', '/table/{game_id}', '/verify']
>>> all((WEB_DIR / name).is_file() for name in PAGES.values())
True
>>> from fairdeal.rules import RULES
>>> all((WEB_DIR / "js" / "games" / f"{cls.renderer}.js").is_file() for cls in RULES.values())
True
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["WEB_DIR", "PAGES", "SECURITY_HEADERS", "VERIFY_HEADERS", "PYODIDE_DIR", "VENDOR_DIR", "IMMUTABLE", "mount"]

WEB_DIR = Path(__file__).resolve().parent
"""Where the pages live."""

PAGES = {
    "/": "index.html",
    "/table/{game_id}": "table.html",
    "/verify": "verify.html",
    "/replay": "replay.html",
}
"""Page paths and the file each serves."""

SECURITY_HEADERS = {
    # Scripts and styles come from this server only; nothing inline runs.
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    # A table page is never cached: a seat reopening its link must get the current page.
    "Cache-Control": "no-cache",
}

VERIFY_HEADERS = {
    **SECURITY_HEADERS,
    # The verify page runs Pyodide in a worker: WebAssembly must compile ('wasm-unsafe-eval',
    # which allows no JavaScript eval) and the worker script comes from this server. Only this
    # page gets them.
    "Content-Security-Policy": SECURITY_HEADERS["Content-Security-Policy"].replace(
        "script-src 'self';", "script-src 'self' 'wasm-unsafe-eval'; worker-src 'self';"
    ),
}
"""The engine pages' headers: :data:`SECURITY_HEADERS`, loosened only as Pyodide needs."""

ENGINE_PAGES = frozenset({"verify.html", "replay.html"})
"""The pages that run the engine (js/verify-worker.js) and get :data:`VERIFY_HEADERS`."""

PYODIDE_DIR = WEB_DIR / "pyodide"
"""Pyodide's core files, fetched by ``make pyodide`` (gitignored)."""
VENDOR_DIR = WEB_DIR / "vendor"
"""Front-end libraries from the npm registry, fetched by ``make vendor`` (gitignored): @noble/hashes, uqr,
the card deck (``playing-cards/``), the bot's icon (``bootstrap-icons/``)."""

IMMUTABLE = {"Cache-Control": "public, max-age=31536000, immutable"}
"""For files whose URL changes whenever their bytes do (a hash, a pinned version)."""


def mount(app: Any) -> None:
    """Serve the pages and their files from ``app`` (call it after the API routes)."""
    from starlette.responses import FileResponse
    from starlette.responses import JSONResponse
    from starlette.responses import Response
    from starlette.staticfiles import StaticFiles

    from fairdeal.web.engine import engine_bundle

    def page(name: str) -> Any:
        path = WEB_DIR / name
        headers = VERIFY_HEADERS if name in ENGINE_PAGES else SECURITY_HEADERS

        async def endpoint(request: Any) -> FileResponse:
            return FileResponse(path, media_type="text/html; charset=utf-8", headers=headers)

        endpoint.__name__ = f"page_{path.stem}"
        return endpoint

    for route, name in PAGES.items():
        app.add_route(route, page(name), methods=["GET", "HEAD"], include_in_schema=False)
    bundle = engine_bundle()  # built once, at start-up, from the installed package

    async def manifest(request: Any) -> JSONResponse:
        return JSONResponse(bundle.manifest(), headers={"Cache-Control": "no-cache"})

    async def engine(request: Any) -> Response:
        if request.path_params["name"] != bundle.filename:
            return Response("no such engine bundle", status_code=404, media_type="text/plain")
        return Response(bundle.data, media_type="application/zip", headers=IMMUTABLE)

    app.add_route("/engine/manifest.json", manifest, methods=["GET", "HEAD"], include_in_schema=False)
    app.add_route("/engine/{name}", engine, methods=["GET", "HEAD"], include_in_schema=False)
    for folder in ("css", "js"):
        app.mount(f"/{folder}", StaticFiles(directory=WEB_DIR / folder), name=f"web-{folder}")
    app.mount("/pyodide", _immutable_files()(directory=PYODIDE_DIR, check_dir=False), name="web-pyodide")
    app.mount("/vendor", StaticFiles(directory=VENDOR_DIR, check_dir=False), name="web-vendor")


def _immutable_files() -> Any:
    from starlette.staticfiles import StaticFiles

    class Immutable(StaticFiles):
        """Static files that a browser may keep for a year without asking again."""

        def file_response(self, *args: Any, **kwargs: Any) -> Any:
            response = super().file_response(*args, **kwargs)
            response.headers.update(IMMUTABLE)
            return response

    return Immutable
