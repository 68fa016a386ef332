"""LIN gives cards in play order without seats: a wrong lead is reported once, not blamed on every later card."""

from __future__ import annotations

from pathlib import Path

from handrec.formats.lin.reader import parse_lin_text
from handrec.rules.validator import validate

# Board 4 of `handrec generate -n 4 --seed 11 -o x.lin`, with East's D3 and H6 swapped:
# East now ruffs trick 1 (a revoke: East holds diamonds) and wins it, yet the record
# goes on with North leading the club ace, as in the original play.
RECORD = (Path(__file__).parent / "data" / "lin_revoke_changes_winner.lin").read_text()


def test_revoke_that_changes_the_winner() -> None:
    (board,) = parse_lin_text(RECORD, "r.lin")
    got = [(d.code, d.line, d.column) for d in validate(board)]
    assert got[:2] == [("P401", 1, 184), ("P408", 1, 200)]
    assert {c for c, _, _ in got} == {"P401", "P408"}
    assert len(got) <= 4  # not one P402 for every later card
    # after trick 1 the expected leader is the previous trick's winner (the opening lead's
    # wording, "is the opening leader", is in tests/hostile/test_bad_inputs.py)
    assert [d.message for d in validate(board) if d.code == "P408"][0] == (
        "CA was led by N, but E won the previous trick and leads"
    )


def test_pbn_columns_are_not_resynchronised() -> None:
    # The same fault in PBN: columns name the seats, so only the revoke is reported.
    from handrec.formats.pbn.reader import parse_pbn_text
    from handrec.formats.pbn.writer import dumps

    (board,) = parse_lin_text(RECORD, "r.lin")
    (again,) = parse_pbn_text(dumps(board), "r.pbn")
    codes = [d.code for d in validate(again)]
    assert "P408" not in codes
