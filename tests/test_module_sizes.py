"""Rooms of one purpose: no Python module over 1,200 lines, no JS module over 600, no CSS file over
1,000 (issue #30), in fairdeal/, verifier/ and the example plugin. Fetched files (Pyodide, the
vendored front-end packages) are not the project's and are not counted. A module that grows past
its size is split by purpose, not squeezed."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMITS = {".py": 1200, ".js": 600, ".css": 1000}
FETCHED = {"pyodide", "vendor", "node_modules"}


def sizes() -> dict[str, int]:
    """Each of the project's own source files and its line count."""
    found = {}
    for top in ("fairdeal", "verifier", "examples"):
        for path in (ROOT / top).rglob("*"):
            if path.suffix in LIMITS and path.is_file() and not FETCHED & set(path.relative_to(ROOT).parts):
                found[path.relative_to(ROOT).as_posix()] = len(path.read_text(encoding="utf-8").splitlines())
    return found


def test_no_module_is_over_its_size():
    found = sizes()
    assert any(name.endswith(".js") for name in found) and any(name.endswith(".css") for name in found)
    over = {name: n for name, n in found.items() if n > LIMITS[Path(name).suffix]}
    assert over == {}
