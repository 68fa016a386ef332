"""One board number, two deals (a fouled board, S613) or the same deal given twice (S614).

The event checks of an input (:func:`handrec.events.checks.check_pairs` for every input,
:func:`~handrec.events.checks.check_event` when it claims figures) warn:

* S613 once per extra deal when games of one event, section, stage, round and board number
  were played with different deals (Law 87: a fouled board; its results are scored apart,
  one traveller a deal, Law 87B), at the first game of that deal, naming the board's first game;
* S614 when a board is given again with the same deal, in the same room, with neither players
  nor a result (a hand-record file listing a board twice).

Legitimate repeats are not warned: a traveller (the same deal at every table), the Open and
Closed rooms of a teams match, board numbers reused by another section, stage, round or
event, deal fragments (end positions, teaching files), and generator files of several sets
(no results, no players).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from handrec.cli import app
from handrec.events.checks import EventChecker, check_event, check_pairs
from handrec.events.event_score import score_event
from handrec.events.games import GameRecord, record
from handrec.formats.pbn.reader import parse_pbn_text
from handrec.model import Origin, Vulnerability
from handrec.rules.board import dealer_for_board, vulnerability_for_board

runner = CliRunner()

A = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
B = "N:765.432.AKQJ.T98 T98.765.432.AKQJ AKQJ.T98.765.432 432.AKQJ.T98.765"  # N and S swapped
C = "N:AKQJ.T98.765.432 432.AKQJ.T98.765 765.432.AKQJ.T98 T98.765.432.AKQJ"  # E and W swapped


def game(board: int = 1, deal: str = A, table: int | None = 1, result: int | None = 10, **tags: str) -> str:
    """One game of board ``board``: 4S by N at ``table`` (players N1, S1... ; ``None``: no
    players) with ``result`` tricks (``None``: no contract, no result)."""
    dealer, vul = dealer_for_board(board), vulnerability_for_board(board)
    vul_text = "All" if vul is Vulnerability.BOTH else str(vul)
    lines = ['[Event "Club"]', f'[Board "{board}"]', f'[Dealer "{dealer}"]', f'[Vulnerable "{vul_text}"]']
    lines.append(f'[Deal "{deal}"]')
    if table is not None:
        lines += [f'[North "N{table}"]', f'[South "S{table}"]', f'[East "E{table}"]', f'[West "W{table}"]']
    if result is not None:
        lines += ['[Contract "4S"]', '[Declarer "N"]', f'[Result "{result}"]']
    lines += [f'[{k} "{v}"]' for k, v in tags.items()]
    return "\n".join(lines) + "\n"


def session(*games: str) -> str:
    return "\n".join(games)


def first_lines(text: str) -> list[int]:
    """The first line of each game of ``text`` (games are separated by one empty line)."""
    out, start = [], True
    for n, row in enumerate(text.split("\n"), 1):
        if row and start:
            out.append(n)
        start = not row
    return out


def checked(text: str) -> list[tuple[str, int, int, str]]:
    """The event checks' diagnostics for ``text``: check_pairs (no claims), and check_event the same."""
    recs = [record(b) for b in parse_pbn_text(text, "t.pbn")]
    got = [(d.code, d.line, d.column, d.message) for d in check_pairs(recs)]
    assert [(d.code, d.line, d.column, d.message) for d in check_event(recs)] == got
    return got


def s613(board: int, line: int, other: int) -> tuple[str, int, int, str]:
    """S613 of the game starting at ``line``: at its Deal tag (the game's fifth line), column 1."""
    message = (
        f"board {board} was played with a different deal from the game at line {other} (a fouled board):"
        " the results of each deal are scored apart"
    )
    return ("S613", line + 4, 1, message)


def s614(board: int, line: int, other: int) -> tuple[str, int, int, str]:
    """S614 of the game starting at ``line``: at that line, column 1."""
    return (
        "S614",
        line,
        1,
        f"board {board} is given again with the same deal, without players or result (also at line {other})",
    )


# --- fouled boards ----------------------------------------------------------------------------


def test_fouled_board_once_per_extra_deal() -> None:
    text = session(
        game(1, A, 1),
        game(1, B, 2, 11),
        game(1, A, 3, 9),
        game(1, B, 4, 12),
        game(1, C, 5),
        game(2, A, 1),
        game(2, A, 2),
    )
    at = first_lines(text)
    assert checked(text) == [s613(1, at[1], at[0]), s613(1, at[4], at[0])]


def test_fouled_board_in_the_users_words() -> None:
    """The user's file: board 1's second table with N and S swapped, no other change."""
    text = session(game(1, A, 1), game(1, B, 2), game(1, A, 3), game(2, A, 1), game(2, A, 2))
    assert first_lines(text)[:2] == [1, 14]
    assert checked(text) == [s613(1, 14, 1)]


def test_teams_rooms_with_different_deals() -> None:
    text = session(
        game(1, A, 1, Room="Open", HomeTeam="Aces", VisitTeam="Kings"),
        game(1, B, 2, Room="Closed", HomeTeam="Aces", VisitTeam="Kings"),
    )
    assert checked(text) == [s613(1, first_lines(text)[1], 1)]


@pytest.mark.parametrize(
    ("tag", "values"),
    [
        ("Section", ("A", "B")),
        ("Stage", ("Qualifying", "Final")),
        ("Round", ("1", "2")),
        ("Event", ("Monday pairs", "Tuesday pairs")),
    ],
)
def test_board_numbers_reused_elsewhere(tag: str, values: tuple[str, str]) -> None:
    def g(deal: str, table: int, value: str) -> str:
        text = game(1, deal, table, **({} if tag == "Event" else {tag: value}))
        return text.replace('[Event "Club"]', f'[Event "{value}"]') if tag == "Event" else text

    text = session(g(A, 1, values[0]), g(A, 2, values[0]), g(B, 3, values[1]), g(B, 4, values[1]))
    assert checked(text) == []
    # within one of them, a second deal is still a fouled board
    text = session(g(A, 1, values[0]), g(B, 2, values[0]), g(B, 3, values[1]))
    assert checked(text) == [s613(1, first_lines(text)[1], 1)]


def test_traveller_and_rooms_are_not_warned() -> None:
    assert checked(session(*(game(1, A, t, 8 + t) for t in range(1, 6)))) == []
    rooms = session(game(1, A, 1, Room="Open"), game(1, A, 2, Room="Closed"))
    assert checked(rooms) == []
    # the same deal in both rooms, given as hand records (no players, no result): no S614
    assert checked(session(game(1, A, None, None, Room="Open"), game(1, A, None, None, Room="Closed"))) == []


def test_hand_records_of_several_sets_are_not_fouled() -> None:
    """A dealing program's runs concatenated (board numbers restart, new deals): nothing was played."""
    assert checked(session(game(1, A, None, None), game(2, A, None, None), game(1, B, None, None))) == []
    # one set played, the other only dealt: still nothing played twice with two deals
    assert checked(session(game(1, A, 1), game(1, B, None, None))) == []


def test_fragments_are_not_compared() -> None:
    """End positions and teaching fragments carry fewer than 52 cards: not a board's deal."""
    end = "N:.6.AKQ987.A9732 A865.KQ5.T.QJT6 J97.J98742.3.K4 QT2.AT.J6542.85"
    text = session(game(1, A, 1), game(1, end, 2, None), game(1, "N:AKQJ.T98.765.432 - - -", 3))
    assert checked(text) == []
    empty = "W:... ... ... ..."
    assert checked(session(game(3, empty, None, None), game(3, empty, None, None))) == []


# --- a board given twice ------------------------------------------------------------------------


def test_hand_record_board_given_twice() -> None:
    text = session(game(1, A, None, None), game(2, C, None, None), game(1, A, None, None), game(1, A, None, None))
    at = first_lines(text)
    assert checked(text) == [s614(1, at[2], at[0]), s614(1, at[3], at[0])]


def test_same_deal_twice_with_players_or_results_is_a_traveller() -> None:
    # players but no result yet (a traveller line), or a result without names
    assert checked(session(game(1, A, 1, None), game(1, A, 2, None))) == []
    assert checked(session(game(1, A, None, 10), game(1, A, None, 9))) == []
    # a hand record before the travellers of its board
    assert checked(session(game(1, A, None, None), game(1, A, 1), game(1, A, 2))) == []


# --- the checker, the validate command, the score command ----------------------------------------


def test_event_checker_reports_them() -> None:
    text = session(game(1, A, 1), game(1, B, 2), game(1, A, None, None), game(1, A, None, None))
    checker = EventChecker()
    for b in parse_pbn_text(text, "t.pbn"):
        checker.add(b)
    at = first_lines(text)
    assert [(d.code, d.line, d.column, d.message) for d in checker.finish()] == [
        s613(1, at[1], 1),
        s614(1, at[3], at[2]),
    ]


def test_validate_and_score_commands(tmp_path: Path) -> None:
    f = tmp_path / "fouled.pbn"
    f.write_text(session(game(1, A, 1), game(1, B, 2), game(1, A, 3), game(2, A, 1), game(2, A, 2)))
    r = runner.invoke(app, ["validate", str(f)])
    assert r.stdout.splitlines() == [
        f"{f}:18:1: S613 warning: board 1 was played with a different deal from the game at line 1 (a fouled"
        " board): the results of each deal are scored apart",
        "1 files, 5 boards, 0 errors, 1 warnings",
    ]
    r = runner.invoke(app, ["score", str(f)])
    assert r.exit_code == 0
    notes = [x for x in r.stdout.splitlines() if x.startswith("note: ")]
    assert notes == [
        "note: board 1: 2 travellers, one for each deal: the board was played with different deals"
        " (a fouled board, Law 87), the results of each deal are scored apart",
        "note: board 1: 1 result scored on the top of 2 (Neuberg)",
    ]


def test_score_says_why_sections_give_two_travellers(tmp_path: Path) -> None:
    recs = [
        record(b)
        for b in parse_pbn_text(
            session(game(1, A, 1, Section="A"), game(1, A, 2, Section="A"), game(1, B, 1, Section="B")), "t.pbn"
        )
    ]
    (ev,) = score_event(recs, None)
    assert ev.notes == (
        "board 1: 2 travellers, one for each deal: sections, stages or rounds reuse the board number",
        "board 1: 1 result scored on the top of 2 (Neuberg)",
    )


def test_score_teams_fouled_board_note() -> None:
    recs = [
        record(b)
        for b in parse_pbn_text(
            session(
                game(1, A, 1, Room="Open"),
                game(1, B, 2, Room="Closed"),
                game(2, A, 1, Room="Open"),
                game(2, A, 2, Room="Closed", Result="9"),
            ),
            "t.pbn",
        )
    ]
    (ev,) = score_event(recs, None)
    assert ev.notes == (
        "board 1: 1 Open and 0 Closed results, not a pair of rooms (the rooms played different deals:"
        " a fouled board, Law 87)",
        "board 1: 0 Open and 1 Closed results, not a pair of rooms (the rooms played different deals:"
        " a fouled board, Law 87)",
    )


# --- cost: a file of single games ----------------------------------------------------------------


def test_many_single_games_stay_cheap(monkeypatch: pytest.MonkeyPatch) -> None:
    """20,000 games, each board once (the parent of ``validate --jobs`` checks every record of a
    file): one dict pass, no traveller built."""

    def no_travellers(*args: object, **kw: object) -> list:
        raise AssertionError("travellers built for boards played once")

    monkeypatch.setattr("handrec.events.travellers.travellers", no_travellers)  # imported by checks when needed
    recs = [
        GameRecord(Origin("big.pbn", line=1 + 20 * i, index=i), "Big", str(i + 1), i + 1, A, ns=f"N{i}", ew=f"E{i}")
        for i in range(20_000)
    ]
    assert check_pairs(recs) == []  # the cost is the structure (no traveller built), not a wall-clock figure
