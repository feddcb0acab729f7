"""The README's embedding example runs as written and prints what the README shows."""

import doctest
import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def _embedding_example() -> tuple[str, str]:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Embed fairdeal in your server"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    shown = re.search(r"```\n\$ \.venv/bin/python embed\.py\n(.*?)\$ ", section, re.S).group(1)
    return code, shown


def test_the_embedding_example_runs_and_its_record_verifies(tmp_path):
    code, shown = _embedding_example()
    assert "fairdeal.table" not in code and ".match" not in code and ".dealer" not in code  # only the face
    (tmp_path / "embed.py").write_text(code, encoding="utf-8")
    run = subprocess.run([sys.executable, "embed.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    checker = doctest.OutputChecker()
    assert checker.check_output(shown, run.stdout, doctest.ELLIPSIS), (shown, run.stdout)
    verify = subprocess.run([str(Path(sys.executable).parent / "fairdeal-verify"), "game-42.jsonl"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=120)
    assert verify.returncode == 0 and verify.stdout.splitlines()[-1] == "VERIFIED"
