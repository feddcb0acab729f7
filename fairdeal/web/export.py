"""``fairdeal export-verifier DIR``: the verify page as a static folder any file server can host.

An auditor who does not want to trust the operator's copy of the page serves this folder
from anywhere (``python -m http.server``, a CDN, a USB stick behind a local server): the
page, its scripts and styles, the engine bundle and Pyodide's core files, every URL
relative. Verifying a pasted or uploaded record calls no API: the catalogue comes from
the engine itself, and the record never leaves the browser.

The folder::

    index.html                  the verify page
    replay.html                 the hand replayer (the verify page links to it)
    rules                       the games' catalogue, as GET /rules gives it (for the replayer
                                when the folder is the root of its server; the verify page asks
                                the engine instead)
    css/ js/                    its styles and scripts (js/verify-worker.js runs the engine)
    engine/manifest.json        names the bundle and its SHA-256
    engine/<sha256>.zip         the engine bundle (fairdeal.web.engine)
    pyodide/                    Pyodide's core files
    vendor/                     the front-end libraries from npm (the card deck's pictures, SHA-256)
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from fairdeal.web import PYODIDE_DIR
from fairdeal.web import VENDOR_DIR
from fairdeal.web import WEB_DIR
from fairdeal.web.engine import engine_bundle

__all__ = ["ExportError", "PYODIDE_CORE", "STATIC_PAGES", "export_verifier", "static_page"]

PYODIDE_CORE = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
"""Pyodide's core files, as the Makefile fetches them."""


class ExportError(ValueError):
    """The folder cannot be written (Pyodide not fetched, or the folder is not empty)."""


STATIC_PAGES = {"index.html": "verify.html", "replay.html": "replay.html"}
"""The exported pages and the page of the app each is made from."""


def static_page(name: str = "verify.html") -> str:
    """The page ``name`` of fairdeal/web with relative URLs, linking only to the exported pages.

    >>> page = static_page()
    >>> 'href="css/verify.css"' in page and 'src="js/verify.js"' in page and 'href="/' not in page
    True
    >>> 'href="/' in static_page("replay.html")
    False
    """
    page = (WEB_DIR / name).read_text(encoding="utf-8")
    page = page.replace('href="/css/', 'href="css/').replace('src="/js/', 'src="js/')
    page = page.replace('<a class="brand" href="/">', '<a class="brand" href="index.html">')
    page = re.sub(r'^ *<a href="/"[^>]*>[^<]*</a>\n', "", page, flags=re.M)  # the service's lobby is not in the copy
    page = page.replace('<a href="/verify"', '<a href="index.html"').replace(
        '<a href="/replay"', '<a href="replay.html"'
    )
    return page


def export_verifier(directory: str | Path, *, pyodide: Path = PYODIDE_DIR, vendor: Path = VENDOR_DIR) -> list[Path]:
    """Write the static verifier into ``directory`` (created; it must be empty); the files written."""
    directory = Path(directory)
    missing = [name for name in PYODIDE_CORE if not (pyodide / name).is_file()]
    if missing:
        raise ExportError(f"Pyodide's core files are not in {pyodide} (run `make pyodide`): {', '.join(missing)}")
    if not (vendor / "playing-cards").is_dir():
        # The pages draw every card with the deck's pictures: a copy without them shows blanks.
        raise ExportError(f"the front-end libraries are not in {vendor} (run `make vendor`)")
    if directory.exists() and any(directory.iterdir()):
        raise ExportError(f"{directory} is not empty")
    directory.mkdir(parents=True, exist_ok=True)
    for name, source in STATIC_PAGES.items():
        if (WEB_DIR / source).is_file():
            (directory / name).write_text(static_page(source), encoding="utf-8")
    for folder in ("css", "js"):
        shutil.copytree(WEB_DIR / folder, directory / folder, ignore=shutil.ignore_patterns("__pycache__"))
    from fairdeal.rules import catalogue_json

    (directory / "rules").write_text(catalogue_json(), encoding="utf-8")
    bundle = engine_bundle()
    (directory / "engine").mkdir()
    (directory / "engine" / bundle.filename).write_bytes(bundle.data)
    (directory / "engine" / "manifest.json").write_text(
        json.dumps(bundle.manifest(), indent=2) + "\n", encoding="utf-8"
    )
    (directory / "pyodide").mkdir()
    for name in PYODIDE_CORE:
        shutil.copyfile(pyodide / name, directory / "pyodide" / name)
    shutil.copytree(vendor, directory / "vendor", ignore=shutil.ignore_patterns(".fetched-*"))
    return sorted(path for path in directory.rglob("*") if path.is_file())
