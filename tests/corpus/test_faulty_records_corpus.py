"""Issue #18 on every corpus file: the ``boards`` rows marked not clean are exactly the boards
with an error diagnostic, a value whose status is ``unknown`` is null, and ``handrec score``
ranks only clean results and those the Laws give, with a note for each left out."""

from __future__ import annotations

from pathlib import Path

import pytest

from handrec.dataset.tables import to_arrow
from handrec.events.event_score import score_event
from handrec.events.games import record
from handrec.formats.dispatch import read
from handrec.rules.faults import RANKED, STATUSES
from handrec.rules.validator import analyse

#: Game results the corpus's pairs and teams events compare (each of them clean).
RANKED_IN_CORPUS = 777


def corpus_files(corpus_dir: Path) -> list[Path]:
    return sorted(p for p in corpus_dir.rglob("*") if p.suffix.lower() in (".pbn", ".lin"))


def test_corpus_has_files(corpus_dir: Path) -> None:
    assert len(corpus_files(corpus_dir)) >= 30


@pytest.mark.parametrize("name", ["pbn", "lin"])
def test_not_clean_rows_are_the_boards_with_an_error(corpus_dir: Path, name: str) -> None:
    checked = faulty = 0
    for path in corpus_files(corpus_dir):
        if path.parent.name != name:
            continue
        t = to_arrow(read(path))
        boards = t["boards"].to_pylist()
        with_error = {d["board_id"] for d in t["diagnostics"].to_pylist() if d["severity"] == "error"}
        not_clean = {b["board_id"] for b in boards if b["status"] != "clean"}
        assert not_clean == with_error, path.name
        for b in boards:
            assert (b["status"] == "clean") == (b["faults"] == []), (path.name, b["board_id"])
            for value, status in (
                ("contract", "contract_status"),
                ("result", "result_status"),
                ("score_ns", "score_status"),
            ):
                assert b[status] in STATUSES
                if b[status] == "unknown":
                    assert b[value] is None, (path.name, b["board_id"], value)
        checked += len(boards)
        faulty += len(not_clean)
    assert checked > 0
    if name == "pbn":
        assert faulty == 9  # pbn20_reference_errors.pbn (8, F003) and bfc_lin_converted (1, P406 and T107)


def test_score_ranks_only_clean_results_with_a_note_for_each_left_out(corpus_dir: Path) -> None:
    left_out = ranked = 0
    for path in corpus_files(corpus_dir):
        recs = [record(b, analyse(b).replay) for b in read(path)]
        events = score_event(recs, None)
        for ev in events:
            for st in ev.travellers:
                for se in st.entries:
                    r = se.entry.record
                    if r is not None and se.entry.score_ns is not None:
                        assert r.status in RANKED, (path.name, r.board)
                        ranked += 1
            for tb in ev.team_boards:
                assert tb.open.record.status in RANKED and tb.closed.record.status in RANKED
        unranked = [r for r in recs if r.score_ns is not None and r.status not in RANKED]
        notes = [n for ev in events for n in ev.notes]
        for r in unranked:
            if any(t.source == "ScoreTable" and t.board == r.board for ev in events for t in ev.travellers):
                continue  # its board's traveller is the file's ScoreTable: the game's own score is not used
            assert any(n.startswith(f"board {r.board}: ") and "not ranked" in n for n in notes), (path.name, r.board)
            left_out += 1
    # the corpus's faulty boards (F003, T107) have no result built on their faults: nothing is left out
    assert (ranked, left_out) == (RANKED_IN_CORPUS, 0)
