"""The browser side of fairdeal: the lobby, the live table and the verify page.

Plain HTML, CSS and ES modules, served as they are (no build step). The
pages talk to the service's JSON API only; the verify page checks a record
with its own JavaScript implementation of the protocol and the rules.

:func:`mount` adds the pages to an app (FastAPI or Starlette):

- ``/`` the lobby (create a table, get a link per seat),
- ``/table/{game_id}`` a seat's table (its join token rides in the URL
  fragment, ``#seat=2&token=...``, which browsers never send to a server),
- ``/verify`` the verify page (``?game=ID`` loads a game from this server),
- ``/css/...``, ``/js/...`` their files; ``/js/games/<module>.js`` draws one game (or family)
  at the table and says its words, picked through the catalogue's ``module`` (``GET /rules``).

Outside ``js/games/`` the pages name no game: the lobby's games, seats and options, the
table's title and unit, the verify page's deal layouts come from the catalogue, and what
the table shows that depends on the rules comes in the seat's view.

>>> sorted(PAGES)
['/', '/table/{game_id}', '/verify']
>>> all((WEB_DIR / name).is_file() for name in PAGES.values())
True
>>> from fairdeal.rules import RULES
>>> all((WEB_DIR / "js" / "games" / f"{cls.module()}.js").is_file() for cls in RULES.values())
True
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["WEB_DIR", "PAGES", "SECURITY_HEADERS", "mount"]

WEB_DIR = Path(__file__).resolve().parent
"""Where the pages live."""

PAGES = {
    "/": "index.html",
    "/table/{game_id}": "table.html",
    "/verify": "verify.html",
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


def mount(app: Any) -> None:
    """Serve the pages and their files from ``app`` (call it after the API routes)."""
    from starlette.responses import FileResponse
    from starlette.staticfiles import StaticFiles

    def page(name: str) -> Any:
        path = WEB_DIR / name

        async def endpoint(request: Any) -> FileResponse:
            return FileResponse(path, media_type="text/html; charset=utf-8", headers=SECURITY_HEADERS)

        endpoint.__name__ = f"page_{path.stem}"
        return endpoint

    for route, name in PAGES.items():
        app.add_route(route, page(name), methods=["GET", "HEAD"], include_in_schema=False)
    for folder in ("css", "js"):
        app.mount(f"/{folder}", StaticFiles(directory=WEB_DIR / folder), name=f"web-{folder}")
