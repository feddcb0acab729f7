"""Records for the browser's verifier to check: honest simulated games and tampered copies.

Each tampering is what a cheating operator, a broken store or a careless
editor might produce; most are re-chained and re-signed (fairdeal.record.resign)
so that only the content is wrong and the replay has to catch it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from fairdeal.record import Signer
from fairdeal.record import canonical
from fairdeal.record import resign
from fairdeal.simulate import simulate

from .conftest import VerifyPage

Lines = list[dict]

FORGER = Signer.from_seed(b"\x07" * 32)


def text(lines: Lines) -> str:
    return "".join(canonical(line).decode() + "\n" for line in lines)


def honest_records(out: Path) -> list[Path]:
    """Seeded bot games of Crazy Eights for 2 to 6 players, heuristic, random and mixed bots."""
    paths: list[Path] = []
    paths += simulate("crazy-eights", 2, 3, out, seed="web2", bot="random")
    paths += simulate("crazy-eights", 3, 5, out, seed="web3")
    paths += simulate("crazy-eights", 4, 5, out, seed="web4", bot="mixed")
    paths += simulate("crazy-eights", 5, 3, out, seed="web5")
    paths += simulate("crazy-eights", 6, 3, out, seed="web6", bot="mixed")
    # A short match with a tiny restock limit: blocked hands and restocks.
    paths += simulate(
        "crazy-eights", 2, 2, out, seed="webblk", bot="random", options={"target": 40, "restock_limit": 1}
    )
    return paths


def _first(lines: Lines, kind: str, start: int = 1, **match: object) -> int:
    for i in range(start, len(lines)):
        line = lines[i]
        if line["type"] == kind and all(line.get(k) == v for k, v in match.items()):
            return i
    raise LookupError(kind)


def _edit(lines: Lines, index: int, **changes: object) -> Lines:
    out = [dict(line) for line in lines]
    out[index].update(changes)
    return out


def _drop_keys(line: dict, *keys: str) -> dict:
    return {k: v for k, v in line.items() if k not in keys}


def tamperings(lines: Lines) -> Iterator[tuple[str, str]]:
    """(name, record text) for tampered copies of one honest record."""
    yield "honest", text(lines)

    move = _first(lines, "move")
    play = _first(lines, "move", move="play")
    draw = _first(lines, "move", move="draw")
    deal2 = next((i for i, l in enumerate(lines) if l["type"] == "deal" and l["hand"] == 2), None)
    hand_end = _first(lines, "hand-end")
    start = _first(lines, "start")
    reveal = len(lines) - 1

    # Content changed, then re-chained and re-signed: only the replay can tell.
    other = "KD" if lines[play]["card"] != "KD" else "QC"
    yield "a card nobody played", text(resign(_edit(lines, play, card=other), FORGER))
    yield (
        "a move by the wrong seat",
        text(resign(_edit(lines, move, seat=(lines[move]["seat"] + 1) % len(lines[0]["seats"])), FORGER)),
    )
    scores = list(lines[hand_end]["scores"])
    scores[0] += 10
    yield "a score changed", text(resign(_edit(lines, hand_end, scores=scores), FORGER))
    yield "a draw recorded as a pass", text(resign(_edit(lines, draw, move="pass"), FORGER))
    if deal2 is not None:
        turned = list(lines[deal2]["turned"])
        turned[-1] = "8S" if turned[-1] != "8S" else "8H"
        yield "another starter", text(resign(_edit(lines, deal2, turned=turned), FORGER))
    seeds = list(lines[start]["client_seeds"])
    seeds[0] = seeds[0] + "x"
    yield "a client seed swapped at the start", text(resign(_edit(lines, start, client_seeds=seeds), FORGER))
    yield "a different server seed", text(resign(_edit(lines, reveal, server_seed="ab" * 32), FORGER))
    yield (
        "the first two moves swapped",
        text(resign(lines[:move] + [lines[move + 1], lines[move]] + lines[move + 2 :], FORGER)),
    )
    yield "another target", text(resign(_edit(lines, 0, options={**lines[0]["options"], "target": 500}), FORGER))

    # Chain and signature faults, left unsigned.
    yield (
        "a byte of prev changed",
        text(_edit(lines, move, prev=("0" if lines[move]["prev"][0] != "0" else "1") + lines[move]["prev"][1:])),
    )
    sig = lines[hand_end]["sig"]
    yield "a bad signature", text(_edit(lines, hand_end, sig=("0" if sig[0] != "0" else "1") + sig[1:]))
    unsigned = [dict(line) for line in lines]
    unsigned[hand_end] = _drop_keys(unsigned[hand_end], "sig")
    yield "a hand end not signed", text(unsigned)
    yield "a card changed without re-signing", text(_edit(lines, play, card=other))

    # Shape faults.
    yield "the reveal cut off", text(lines[:-1])
    yield "cut in the middle of a line", text(lines)[: len(text(lines[: move + 1])) + 25]
    raw = text(lines).splitlines()
    raw[move] = raw[move].replace(",", ", ", 1)
    yield "a space in a line", "\n".join(raw) + "\n"
    yield "a line after the reveal", text(resign(lines + [{"type": "move", "seat": 0, "move": "draw"}], FORGER))


TAMPERED = ("sim-web3-1", "sim-web4-2", "sim-webblk-1")
"""The honest records whose tampered copies are checked too (small ones: the browser checks each)."""


def every_game_records(out: Path) -> list[Path]:
    """One seeded bot game of each of the twenty games, at its fewest seats (the catalogue's)."""
    from fairdeal.rules import RULES

    return [
        simulate(name, max(cls.min_seats, 2), 1, out / name, seed=f"every-{name}")[0] for name, cls in RULES.items()
    ]


def _bump(value: object) -> object:
    return value + 1 if isinstance(value, int) and not isinstance(value, bool) else value


def game_tamperings(lines: Lines) -> Iterator[tuple[str, str]]:
    """(name, record text) for tampered copies of one honest record of any game: moves, chips,
    counters, scores, totals, standings, deals and seeds changed, each re-signed with the
    record's own forger key, so that only the replay can tell."""
    yield "honest", text(lines)
    seats = len(lines[0]["seats"])
    carded = next(i for i, l in enumerate(lines) if l["type"] == "move" and "card" in l)
    card = lines[carded]["card"]
    other = next(c for c in ("KD", "QC", "2H", "7S") if c != card)
    yield "a card the seat never played", text(resign(_edit(lines, carded, card=other), FORGER))
    move = _first(lines, "move")
    yield "a move by the wrong seat", text(resign(_edit(lines, move, seat=(lines[move]["seat"] + 1) % seats), FORGER))
    chips = next((i for i, l in enumerate(lines) if l["type"] == "chips"), None)
    if chips is not None:
        yield "a chip payment changed", text(resign(_edit(lines, chips, amount=lines[chips]["amount"] + 1), FORGER))
    hand_end = _first(lines, "hand-end")
    if "layout" in lines[hand_end] and lines[hand_end]["layout"]:
        layout = dict(lines[hand_end]["layout"])
        first_card = sorted(layout)[0]
        layout[first_card] = layout[first_card] + 1
        yield "counters left on the layout changed", text(resign(_edit(lines, hand_end, layout=layout), FORGER))
    scores = list(lines[hand_end]["scores"])
    scores[0] = _bump(scores[0])
    totals = [_bump(t) if i == 0 else t for i, t in enumerate(lines[hand_end]["totals"])]
    yield "a score and its total changed", text(resign(_edit(lines, hand_end, scores=scores, totals=totals), FORGER))
    end = next((i for i, l in enumerate(lines) if l["type"] == "match-end"), None)
    if end is not None:
        standings = [dict(row) for row in lines[end]["standings"]]
        standings[0]["total"] = _bump(standings[0]["total"])
        yield "the standings changed", text(resign(_edit(lines, end, standings=standings), FORGER))
    deal = _first(lines, "deal")
    yield (
        "another dealer for the first hand",
        text(resign(_edit(lines, deal, dealer=(lines[deal]["dealer"] + 1) % seats), FORGER)),
    )
    start = _first(lines, "start")
    seeds = list(lines[start]["client_seeds"])
    seeds[0] = seeds[0] + "x"
    yield "a client seed changed at the start", text(resign(_edit(lines, start, client_seeds=seeds), FORGER))
    yield "a different server seed", text(resign(_edit(lines, len(lines) - 1, server_seed="ab" * 32), FORGER))
    sig = lines[hand_end]["sig"]
    yield "a bad signature", text(_edit(lines, hand_end, sig=("0" if sig[0] != "0" else "1") + sig[1:]))


def all_cases(out: Path) -> list[tuple[str, str]]:
    """Every honest record and, for those in :data:`TAMPERED`, every tampering: (name, text); then
    one game of each of the twenty games with :func:`game_tamperings`."""
    cases: list[tuple[str, str]] = []
    for path in honest_records(out):
        lines = [json.loads(raw) for raw in path.read_text().splitlines()]
        if path.stem in TAMPERED:
            cases += [(f"{path.stem}: {name}", body) for name, body in tamperings(lines)]
        else:
            cases.append((f"{path.stem}: honest", text(lines)))
    for path in every_game_records(out / "every"):
        lines = [json.loads(raw) for raw in path.read_text().splitlines()]
        cases += [(f"{lines[0]['rules']}: {name}", body) for name, body in game_tamperings(lines)]
    return cases


def cli_report(path: Path) -> dict:
    """``fairdeal-verify --json PATH``'s object: the command as a person runs it, in its own process."""
    run = subprocess.run(
        [sys.executable, "-m", "verifier.cli", "--json", str(path)], capture_output=True, text=True, timeout=300
    )
    assert run.returncode in (0, 1), run.stderr
    return json.loads(run.stdout)


def with_cli_reports(named: list[tuple[str, str]], out: Path) -> list[dict]:
    """Each (name, record text) written to ``out`` and checked by ``fairdeal-verify --json``:
    ``{"name", "text", "path", "cli"}`` dicts, ``cli`` its report."""
    paths = []
    for n, (_, body) in enumerate(named):
        paths.append(out / f"case-{n:03d}.jsonl")
        paths[-1].write_text(body, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "verifier.cli", "--json", *map(str, paths)], capture_output=True, text=True, timeout=300
    )
    assert run.returncode in (0, 1), run.stderr
    reports = {Path(r["file"]).name: r for r in map(json.loads, run.stdout.splitlines())}
    return [
        {"name": name, "text": body, "path": path, "cli": reports[path.name]}
        for (name, body), path in zip(named, paths)
    ]


def page_reports(verify_page: VerifyPage, texts: list[str]) -> list[dict]:
    """What the verify page reports of each text: fairdeal-verify --json's object, computed by the
    engine in the page's worker (Pyodide, loaded once for the test process: conftest's ``verify_page``);
    no page error allowed. A text that is no record at all gives ``{"unreadable": reason}``."""
    reports = verify_page.page.evaluate(
        """async (texts) => {
          const out = [];
          for (const t of texts) {
            const answer = await globalThis.fairdealEngine("verify", t, null, null);
            out.push(answer.report === null ? { unreadable: answer.error } : { ...answer.report, text: answer.text });
          }
          return out;
        }""",
        texts,
    )
    assert not verify_page.errors, verify_page.errors
    return reports
