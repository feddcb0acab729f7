"""The README's embedding section is a doctest: its examples run as written, in order, and print
what the README shows; the record they save verifies with ``fairdeal-verify``."""

import doctest
import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def _embedding_section() -> str:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Embed fairdeal in your server") :]
    return section[: section.index("\n## ", 1)]


def _examples(section: str) -> list[str]:
    return re.findall(r"```pycon\n(.*?)```", section, re.S)


def test_a_whole_bot_game_saved_and_verified_is_ten_lines_of_the_face():
    examples = _examples(_embedding_section())
    assert len(examples) >= 2
    bots = [line for line in examples[0].splitlines() if line.startswith((">>> ", "... "))]
    assert len(bots) <= 10, bots
    for code in examples:  # only the face: nothing beneath the package's names
        assert "fairdeal.table" not in code and ".match" not in code and ".dealer" not in code


def test_the_embedding_section_runs_as_a_doctest_and_its_record_verifies(tmp_path, monkeypatch):
    section = _embedding_section()
    monkeypatch.chdir(tmp_path)  # the examples write server-key.pem and game-42.jsonl
    test = doctest.DocTestParser().get_doctest("\n".join(_examples(section)), {}, "README.md", str(README), 0)
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    result = runner.run(test, out=report.append)
    assert result.attempted > 10 and result.failed == 0, "".join(report)
    shown = re.search(r"\$ \.venv/bin/fairdeal-verify game-42\.jsonl \| tail -1\n(.*)\n", section).group(1)
    verify = subprocess.run(
        [str(Path(sys.executable).parent / "fairdeal-verify"), "game-42.jsonl"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert verify.returncode == 0 and verify.stdout.splitlines()[-1] == shown == "VERIFIED"
