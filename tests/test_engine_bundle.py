"""The engine bundle the verify page runs, and the verifier without the cryptography package."""

from __future__ import annotations

import hashlib
import importlib
import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import fairdeal
import verifier
from fairdeal.record import ed25519_check
from fairdeal.rules import RULES
from fairdeal.rules import own
from fairdeal.web.engine import build_bundle
from fairdeal.web.engine import engine_bundle
from fairdeal.web.engine import engine_files
from verifier.browser import signature_requests
from verifier.browser import verify_json

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "spec" / "vectors" / "record-example.jsonl"


def test_building_twice_gives_the_same_bytes_and_hash():
    first, second = build_bundle(), build_bundle()
    assert first == second
    assert hashlib.sha256(first).hexdigest() == hashlib.sha256(second).hexdigest() == engine_bundle().sha256


def test_the_zip_holds_exactly_the_packages_python_files_and_translations_with_their_bytes():
    expected = {}
    plugins = sorted({cls.__module__.split(".")[0] for cls in RULES.values() if not own(cls)})
    for package in (fairdeal, verifier, *map(importlib.import_module, plugins)):
        root = Path(package.__file__).resolve().parent
        for path in [*root.rglob("*.py"), *root.rglob("i18n/*.json")]:
            name = f"{root.name}/{path.relative_to(root).as_posix()}"
            if "__pycache__" not in path.parts and not name.startswith(("fairdeal/service/", "fairdeal/web/")):
                expected[name] = path.read_bytes()
    # Each distribution that registers games, with its name, version and games alone.
    games = "[fairdeal.games]\n" + "".join(
        f"{name} = {cls.__module__}:{cls.__qualname__}\n" for name, cls in sorted(RULES.items()) if own(cls)
    )
    expected["fairdeal-0.1.0.dist-info/METADATA"] = b"Metadata-Version: 2.1\nName: fairdeal\nVersion: 0.1.0\n"
    expected["fairdeal-0.1.0.dist-info/entry_points.txt"] = games.encode()
    # The example plugin, which the suite installs (examples/switch): its package and its game.
    assert plugins == ["fairdeal_switch"] and "fairdeal_switch/__init__.py" in expected
    expected["fairdeal_switch-0.1.0.dist-info/METADATA"] = (
        b"Metadata-Version: 2.1\nName: fairdeal-switch\nVersion: 0.1.0\n"
    )
    expected["fairdeal_switch-0.1.0.dist-info/entry_points.txt"] = (
        b"[fairdeal.games]\nswitch = fairdeal_switch:Switch\n"
    )
    with zipfile.ZipFile(io.BytesIO(engine_bundle().data)) as archive:
        infos = archive.infolist()
        assert [info.filename for info in infos] == sorted(expected)
        assert {info.filename: archive.read(info) for info in infos} == expected
        assert {(info.compress_type, info.date_time, info.external_attr >> 16) for info in infos} == {
            (zipfile.ZIP_STORED, (1980, 1, 1, 0, 0, 0), 0o100644)
        }
    assert (
        "fairdeal/verification/replay.py" in expected
        and "verifier/browser.py" in expected
        and "fairdeal/rules/fan_tan.py" in expected
    )
    # The verifier's words in another language travel with it (fairdeal's, its games', a plugin's).
    assert {"fairdeal/i18n/nb.json", "fairdeal/rules/i18n/nb.json", "fairdeal_switch/i18n/nb.json"} <= set(expected)
    assert not any(name.startswith("fairdeal/web/") for name in expected)
    assert list(engine_files()) == sorted(expected)


def _checked(text: str) -> list[list[object]]:
    return [[*triple, ed25519_check(*map(bytes.fromhex, triple))] for triple in signature_requests(text)]


def test_verify_json_is_fairdeal_verify_json_for_the_record():
    text = EXAMPLE.read_text()
    cli = subprocess.run([sys.executable, "-m", "verifier.cli", "--json", str(EXAMPLE)], capture_output=True, text=True)
    expected = json.loads(cli.stdout)
    del expected["file"]
    answer = verify_json(text, _checked(text))
    assert answer["missing"] == [] and answer["report"] == expected
    text_cli = subprocess.run([sys.executable, "-m", "verifier.cli", str(EXAMPLE)], capture_output=True, text=True)
    assert answer["text"].rstrip("\n") == text_cli.stdout.rstrip("\n")


def test_the_verifier_runs_without_the_cryptography_package():
    # As in Pyodide: no cryptography wheel; signatures answered from results checked elsewhere.
    text = EXAMPLE.read_text()
    script = (
        "import json, sys\n"
        "sys.modules['cryptography'] = None  # importing it now fails, as in Pyodide\n"
        "from verifier.browser import verify_json\n"
        "text, checked = json.load(sys.stdin)\n"
        "print(json.dumps(verify_json(text, checked)['report']['verified']))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script],
        input=json.dumps([text, _checked(text)]),
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) is True


def test_a_forged_signature_answered_as_false_fails_where_the_cli_says():
    text = EXAMPLE.read_text()
    checked = [[k, m, s, False] for k, m, s, _ in _checked(text)]
    answer = verify_json(text, checked)
    assert answer["report"]["error"] == {"line": 21, "reason": "bad signature"}
