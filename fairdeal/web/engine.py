"""The engine bundle: the installed fairdeal and verifier Python files, as one zip for the verify page.

The verify page runs the very code ``fairdeal-verify`` runs, in Pyodide (CPython compiled to
WebAssembly). The app builds that code into a zip at start-up, from the installed package
(not a copy kept elsewhere), and serves it at ``/engine/<sha256>.zip``; the page shows the
hash it ran. The zip is deterministic, so the same version gives the same hash wherever it
is built: names sorted, every entry stored (not deflated: zlib's output differs between
versions), dated 1980-01-01 00:00:00, mode 0644, made on Unix, no comment, no extra fields.

What it holds: every ``.py`` file of ``fairdeal/`` except ``fairdeal/service/`` and
``fairdeal/web/`` (the server and the pages, which the verifier never imports), every
``.py`` file of ``verifier/`` (the page's door, :mod:`verifier.browser`) and of each installed
game plugin's package, names as they are imported (``fairdeal/rules/base.py``), with their
translations (each ``i18n/<lang>.json``: the verifier says its reasons in the page's language); and for each
distribution that registers games, a ``dist-info`` folder with its name, version and games,
so that the page finds the games through their entry points as fairdeal does everywhere.
spec/verify-page.md is the contract.

>>> bundle = engine_bundle()
>>> bundle.data == build_bundle() and len(bundle.sha256) == 64
True
>>> "fairdeal/verification/replay.py" in bundle.names and "verifier/browser.py" in bundle.names
True
>>> any(name.startswith(("fairdeal/service/", "fairdeal/web/")) for name in bundle.names)
False
"""

from __future__ import annotations

import functools
import hashlib
import io
import zipfile
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Bundle", "engine_files", "build_bundle", "engine_bundle", "EXCLUDED"]

EXCLUDED = ("fairdeal/service/", "fairdeal/web/")
"""Folders of the package the bundle leaves out: the verifier never imports them."""

_DATE = (1980, 1, 1, 0, 0, 0)  # the earliest date a zip can hold: no clock in the bundle
_MODE = 0o100644  # a regular file, rw-r--r--


def engine_files() -> dict[str, Path | bytes]:
    """The bundle's entries, by name, sorted: the installed file each comes from, or the bytes
    of a generated one (a plugin's distribution metadata)."""
    import importlib.util

    files: dict[str, Path | bytes] = {}
    for name in _packages():
        # Found, not imported: find_spec of a top-level name only looks for its files, so fairdeal
        # bundles the verifier without depending on it (the verifier imports fairdeal).
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin is not None:
            files.update(_python_files(Path(spec.origin).resolve()))
    files.update(_plugin_files())
    return dict(sorted(files.items()))


def _packages() -> list[str]:
    """The top-level packages the fairdeal distribution installs, by its metadata: ``fairdeal``
    and ``verifier``."""
    from importlib import metadata

    names = sorted(
        name
        for name, dists in metadata.packages_distributions().items()
        if "fairdeal" in dists and name.isidentifier() and not name.startswith("_")
    )
    return names or ["fairdeal", "verifier"]  # a checkout on PYTHONPATH has no metadata: its two packages


def _python_files(init: Path) -> dict[str, Path]:
    """The ``.py`` files of the package whose ``__init__.py`` (or single module) is ``init``, and its
    translations (``i18n/*.json``), by their import name, less :data:`EXCLUDED`."""
    if init.name != "__init__.py":
        return {init.name: init}
    root = init.parent
    files = {}
    for path in [*root.rglob("*.py"), *root.rglob("i18n/*.json")]:
        name = f"{root.name}/{path.relative_to(root).as_posix()}"
        if "__pycache__" not in path.parts and not name.startswith(EXCLUDED):
            files[name] = path
    return files


def _plugin_files() -> dict[str, Path | bytes]:
    """What the page needs to find the installed games as fairdeal does (through the entry
    points of :data:`fairdeal.rules.GROUP`): each plugin's package, and for every distribution
    that registers games, fairdeal's own included, a ``<name>-<version>.dist-info`` of two files:
    ``METADATA`` with its name and version, ``entry_points.txt`` with its games alone."""
    import importlib.util
    from importlib import metadata

    from fairdeal.rules import GROUP

    files: dict[str, Path | bytes] = {}
    by_dist: dict[tuple[str, str], list[metadata.EntryPoint]] = {}
    for entry in metadata.entry_points(group=GROUP):
        dist = entry.dist
        if dist is None:  # pragma: no cover - entry points always come from a distribution
            continue
        by_dist.setdefault((dist.metadata["Name"], dist.version), []).append(entry)
        top = entry.module.split(".", 1)[0]
        if top not in ("fairdeal", "verifier"):
            spec = importlib.util.find_spec(top)
            if spec is not None and spec.origin is not None:
                files.update(_python_files(Path(spec.origin).resolve()))
    for (name, version), entries in by_dist.items():
        folder = f"{name.replace('-', '_')}-{version}.dist-info"
        files[f"{folder}/METADATA"] = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode()
        games = "".join(f"{e.name} = {e.value}\n" for e in sorted(entries, key=lambda e: e.name))
        files[f"{folder}/entry_points.txt"] = f"[{GROUP}]\n{games}".encode()
    return files


def build_bundle(files: dict[str, Path | bytes] | None = None) -> bytes:
    """The zip of ``files`` (default :func:`engine_files`), byte for byte the same every time."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for name, path in sorted((files if files is not None else engine_files()).items()):
            info = zipfile.ZipInfo(name, date_time=_DATE)
            info.compress_type = zipfile.ZIP_STORED
            info.create_system = 3  # Unix, wherever it is built (Windows would write 0)
            info.external_attr = _MODE << 16
            archive.writestr(info, path if isinstance(path, bytes) else path.read_bytes())
    return buffer.getvalue()


@dataclass(frozen=True)
class Bundle:
    """A built engine bundle: its bytes, their SHA-256 (hex) and the names it holds."""

    data: bytes
    sha256: str
    names: tuple[str, ...]

    @property
    def filename(self) -> str:
        """The name it is served under: its hash, so a cache may keep it forever."""
        return f"{self.sha256}.zip"

    def manifest(self) -> dict[str, object]:
        """What ``/engine/manifest.json`` says: which bundle to load and how to check it."""
        from fairdeal import __version__

        return {"bundle": self.filename, "sha256": self.sha256, "size": len(self.data), "version": __version__}


@functools.cache
def engine_bundle() -> Bundle:
    """The bundle of the installed package, built once per process."""
    files = engine_files()
    data = build_bundle(files)
    return Bundle(data, hashlib.sha256(data).hexdigest(), tuple(files))
