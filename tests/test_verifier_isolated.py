"""ISOLATION TEST: ``fairdeal-verify`` runs with only its own dependencies installed.

It builds a fresh virtual environment (no system site-packages, nothing of
this project's .venv), installs exactly the dependencies pyproject.toml gives
(``cryptography``, ``pynacl`` and ``click``, none of the extras) with pip
(from PyPI or pip's local cache), puts the project on PYTHONPATH without
installing it, shows that the service's dependencies are absent, and runs
``python -m verifier.cli`` on a record. It takes some seconds (the venv and
pip) and needs PyPI or a warm pip cache; it never skips, so that CI proves
the verifier imports no service code.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from test_verifier_support import SIGNER
from test_verifier_support import play
from test_verifier_support import text_of

from fairdeal.record import resign

ROOT = Path(__file__).resolve().parent.parent
DEPENDENCIES = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory) -> Path:
    venv = tmp_path_factory.mktemp("bare-venv")
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True, capture_output=True)
    python = venv / "bin" / "python"
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *DEPENDENCIES],
        capture_output=True,
        text=True,
    )
    assert install.returncode == 0, install.stderr
    return python


def _run(python: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([str(python), *args], cwd=cwd, env=env, capture_output=True, text=True)


def test_the_bare_environment_has_no_service_dependencies(bare_python, tmp_path):
    for module in ("fastapi", "uvicorn", "starlette", "pydantic", "pytest"):
        proc = _run(bare_python, "-c", f"import {module}", cwd=tmp_path)
        assert proc.returncode == 1
        assert f"No module named '{module}'" in proc.stderr
    assert sorted(DEPENDENCIES) == ["click>=8.1", "cryptography>=42", "pynacl>=1.5"]
    proc = _run(bare_python, "-c", "import cryptography, nacl, click, fairdeal; print(fairdeal.__file__)", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == str(ROOT / "fairdeal" / "__init__.py")  # from PYTHONPATH, not installed


def test_the_verifier_runs_with_only_its_own_dependencies(bare_python, tmp_path):
    game = play("isolated", 3, humans=2, options={"target": 50}, use_bots=False)
    record = tmp_path / "record.jsonl"
    record.write_text(game.text)
    proc = _run(bare_python, "-m", "verifier.cli", str(record), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "VERIFIED"
    assert proc.stderr == ""
    # And it still refuses a forgery there.
    lines = [dict(line) for line in game.lines]
    lines[-1]["server_seed"] = "00" * 32
    forged = tmp_path / "forged.jsonl"
    forged.write_text(text_of(resign(lines, SIGNER)))
    proc = _run(bare_python, "-m", "verifier.cli", "--json", str(forged), cwd=tmp_path)
    assert proc.returncode == 1
    assert '"verified":false' in proc.stdout
