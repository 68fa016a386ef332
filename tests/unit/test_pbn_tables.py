"""PBN supplemental sections and tables (PBN 2.1 §5; pbn.md §15): headers, rows, typed
elements, and the exact diagnostic for each fault.  Rows come from the PBN reference files
(shared/corpus/pbn) and the standard."""

from __future__ import annotations

import pytest

from handrec.formats.pbn.reader import parse_pbn_text
from handrec.formats.pbn.table_cells import TABLES, Artificial, table_records, typed_cell
from handrec.formats.pbn.tags import TagValueError, parse_columns
from handrec.formats.pbn.writer import dumps
from handrec.model import Board, Call, Card, Column, Contract, Seat, Strain, Suit, Table


def one(text: str) -> Board:
    (b,) = parse_pbn_text(text, "t.pbn")
    return b


def diags(board: Board) -> list[tuple[str, int, int]]:
    return [(d.code, d.line, d.column) for d in board.diagnostics]


#: One real table per name (header, data), an invalid element to put in it (file line,
#: column, the element there, the invalid one) and the typed first row.
REAL = {
    "ActionTable": (
        "Rank;Call\\4L;Percentage\\3R;Experts\\2R;Readers\\2R",
        "1  4H   100  6  8\n2  4D    80  2  1\n-  3C    80  1  3",
        (3, 4, "4D", "8H"),
        {"Rank": 1, "Call": Call.parse("4H"), "Percentage": 100, "Experts": "6", "Readers": "8"},
    ),
    "AuctionTimeTable": (
        "Time;TotalTime",
        "0:05 0:05\n12 0:17\n1:02:03 1:02:20",
        (3, 1, "12", "1:75"),
        {"Time": 5, "TotalTime": 5},
    ),
    "InstantScoreTable": (
        "Rank;ScoreRange_NS;Percentage_NS",
        "1 400,* 100\n2 100,400 60\n3 *,100 20",
        (3, 3, "100,400", "100..400"),
        {"Rank": 1, "ScoreRange_NS": (400, None), "Percentage_NS": 100},
    ),
    "OptimumPlayTable": (
        "S\\8R;H\\8R;D\\8R;C\\8R",
        "KQ86    -       QJ      K\nT       -       -       -",
        (3, 1, "T", "T1"),
        {"S": "KQ86", "H": None, "D": "QJ", "C": "K"},
    ),
    "OptimumResultTable": (
        "Declarer;Denomination\\2R;Result\\2R",
        "N  C  9\nN  D  6\nN NT  6",
        (3, 7, "6", "14"),
        {"Declarer": Seat.NORTH, "Denomination": Strain.CLUBS, "Result": 9},
    ),
    "PlayTimeTable": (
        "Time;TotalTime",
        "5 5\n7 12",
        (3, 1, "7", "-5"),
        {"Time": 5, "TotalTime": 5},
    ),
    "ScoreTable": (
        "-Rank\\3R;+Percentage_NS\\4R;-Percentage_EW\\4R;+Score_NS\\5R;Multiplicity\\2L",
        "  1 99.4  0.6   500 2\n  3 98.4  1.6   470 1\n  4 96.5  3.5   450 5",
        (3, 21, "1", "0"),
        {"Rank": 1, "Percentage_NS": 99.4, "Percentage_EW": 0.6, "Score_NS": 500, "Multiplicity": 2},
    ),
    "TotalScoreTable": (
        "-Rank\\3R;PairId\\5R;Names\\45;Center\\3;NrBoards\\3R;MP\\6R;+Percentage\\5R",
        '  1   581 "Sergey OSTRIKOV      ;Oleg ODINTSEV        " OMS  20 1449.8 72.49\n'
        '  2   226 "Lia FREJDLINA        ;Anatoly ZHOKHOV      " UFA   6 2393.1 70.38',
        (3, 63, "6", "x6"),
        {
            "Rank": 1,
            "PairId": "581",
            "Names": ("Sergey OSTRIKOV", "Oleg ODINTSEV"),
            "Center": "OMS",
            "NrBoards": 20,
            "MP": "1449.8",
            "Percentage": "72.49",
        },
    ),
}


def _game(name: str, data: str) -> str:
    before = (
        '[Dealer "N"]\n[Auction "N"]\nPass\n[Play "E"]\n*\n' if name in ("AuctionTimeTable", "PlayTimeTable") else ""
    )
    return f'[{name} "{REAL[name][0]}"]\n{data}\n' + before


def test_every_table_of_the_standard_has_a_case() -> None:
    assert set(REAL) == set(TABLES) == {n for n in TABLES}


@pytest.mark.parametrize("name", sorted(REAL))
def test_a_real_table_reads_into_typed_rows(name: str) -> None:
    header, data, _, first = REAL[name]
    b = one(_game(name, data))
    assert b.diagnostics == ()
    (t,) = b.tables
    assert t.name == name and t.span is not None and (t.span.line, t.span.column) == (1, 1)
    assert t.columns == parse_columns(header)[0] and len(t.rows) == data.count("\n") + 1
    assert table_records(t)[0] == first


@pytest.mark.parametrize("name", sorted(REAL))
def test_an_invalid_element_is_t124_at_its_position(name: str) -> None:
    header, data, (line, column, good, bad), _ = REAL[name]
    lines = data.split("\n")
    row = lines[line - 2]
    assert row[column - 1 :].startswith(good)
    lines[line - 2] = row[: column - 1] + bad + row[column - 1 + len(good) :]
    b = one(_game(name, "\n".join(lines)))
    assert diags(b) == [("T124", line, column)]
    assert bad in b.diagnostics[0].message


def test_columns_sort_markers_widths_and_alignment() -> None:
    cols, problems = parse_columns("-Rank\\3R;+Percentage_NS\\4;Names_NS;Lead\\2L")
    assert cols == (
        Column("Rank", "-", 3, "R"),
        Column("Percentage_NS", "+", 4, None),
        Column("Names_NS"),
        Column("Lead", None, 2, "L"),
    )
    assert problems == [] and ";".join(map(str, cols)) == "-Rank\\3R;+Percentage_NS\\4;Names_NS;Lead\\2L"


@pytest.mark.parametrize(
    ("header", "column", "reason"),
    [
        ("Rank;Call\\L", "Call\\L", "must be followed by a width"),  # pbn20_reference_errors game 14
        ("Rank;Call\\ ", "Call\\ ", "must be followed by a width"),
        ("Rank;-;Call", "-", "no column name"),
        ("", "", "at least one column"),
    ],
)
def test_a_bad_column_is_t123_at_the_tag(header: str, column: str, reason: str) -> None:
    b = one(f'[Board "1"]\n[ActionTable "{header}"]\n1 4H')
    assert [(d.code, d.line, d.column) for d in b.diagnostics if d.code == "T123"] == [("T123", 2, 1)]
    assert f"column {column!r}" in b.diagnostics[0].message and reason in b.diagnostics[0].message


def test_rows_may_wrap_in_import_format_and_a_short_last_row_is_t125() -> None:
    wrapped = one('[OptimumResultTable "Declarer;Denomination;Result"]\nN C 9 N\nD 6\nN H 5')
    assert wrapped.tables[0].rows == (("N", "C", "9"), ("N", "D", "6"), ("N", "H", "5"))
    assert wrapped.diagnostics == ()
    short = one('[ActionTable "Rank;Call\\4L;Percentage\\3R;Experts;Readers"]\n1  4H   100  6  8\n10 -      0  0')
    assert short.tables[0].rows == (("1", "4H", "100", "6", "8"), ("10", "-", "0", "0"))
    assert diags(short) == [("T125", 3, 1)] and "4 of 5" in short.diagnostics[0].message


def test_a_column_marked_sorted_must_be_sorted() -> None:
    # pbn20_reference_errors game 22: -Percentage (ascending) but the rows go down
    b = one('[TotalScoreTable "-Rank\\3R;PairId\\5R;-Percentage\\5R"]\n  1 581 72.49\n  2 226 70.38\n  3 290 70.20')
    assert diags(b) == [("T125", 1, 1)] and "Percentage is marked ascending" in b.diagnostics[0].message
    ties = one('[ScoreTable "-Rank;+Score_NS"]\n1 500\n- 500\n3 ^450\n4 ?')
    assert ties.diagnostics == ()


def test_strings_forbidden_characters_and_comments_in_table_data() -> None:
    b = one('[ScoreTable "Rank;Names_NS;Score_NS"]\n1 "A ;{B} \\"C\\"" 100\n2 50% ]\n{late}')
    assert b.tables[0].rows == (("1", 'A ;{B} "C"', "100"), ("2", "50%", "]"))
    assert diags(b) == [("T125", 1, 1), ("T124", 3, 3), ("T124", 3, 7)]
    assert b.diagnostics[0].message == "ScoreTable: a comment after table data (only the tag may have one)"


def test_a_table_header_can_be_inherited() -> None:
    games = parse_pbn_text('[ScoreTable "Rank;Score_NS"]\n1 100\n\n[ScoreTable "#"]\n1 200\n2 50')
    assert [g.tables[0].columns for g in games] == [parse_columns("Rank;Score_NS")[0]] * 2
    assert games[1].tables[0].rows == (("1", "200"), ("2", "50"))


def test_an_empty_table_and_an_unknown_section() -> None:
    b = one(
        '[ScoreTable "Section\\1L;PairId_NS\\2R;Contract\\4L"]\n[Dealer "N"]\n[MyData "v1"]\na b c\nd e\n[Board "1"]'
    )
    assert [(t.name, t.rows) for t in b.tables] == [("ScoreTable", ()), ("MyData", (("a", "b", "c"), ("d", "e")))]
    assert b.tables[1].columns == ()
    assert [d.code for d in b.diagnostics] == ["T120"]  # MyData: unknown (validate --strict only)


def test_time_tables_need_their_section() -> None:
    b = one('[Board "1"]\n[AuctionTimeTable "Time"]\n5\n[PlayTimeTable "Time"]\n7')
    assert diags(b) == [("T125", 2, 1), ("T125", 4, 1)]
    assert "no Auction section" in b.diagnostics[0].message


def test_double_dummy_tags_are_checked_against_the_optimum_result_table() -> None:
    ort = '[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]\nN NT 9\nS  S  8\nE  H  3\n'
    good = one('[DoubleDummyTricks "98aa59800a4434444444"]\n[Ability "N:98AA5 E:44344 S:9800A W:44444"]\n' + ort)
    assert good.diagnostics == ()
    bad = one('[DoubleDummyTricks "88aa59800a4434444444"]\n' + ort)
    assert diags(bad) == [("T127", 1, 1)] and "N NT: 8 tricks, the table 9" in bad.diagnostics[0].message
    ability = one('[Ability "N:98AA5 E:44344 S:9700A W:44444"]\n' + ort)
    assert diags(ability) == [("T127", 1, 1)] and "S S: 7 tricks, the table 8" in ability.diagnostics[0].message


def test_rubber_history_is_checked_against_vulnerable() -> None:
    ok = one('[Vulnerable "NS"]\n[ScoreRubberHistory "NS 0 0 / 100 0 EW 0 0 / 0 0"]')
    assert ok.diagnostics == ()
    # pbn20_reference_errors games 3-6: the games won make NS (or both) vulnerable
    for text, pos in [
        ('[Vulnerable "All"]\n[ScoreRubberHistory "NS 0 0 / 100 0 EW 0 0 / 0 0"]', (2, 1)),
        ('[ScoreRubberHistory "NS 0 0 / 100 0 0 EW 0 0 / 0 100 0"]\n[Vulnerable "None"]', (1, 1)),
    ]:
        b = one(text)
        assert diags(b) == [("T127", *pos)]


def test_typed_cells() -> None:
    assert typed_cell("ScoreTable", "Contract", "4HX") == Contract.parse("4HX")
    assert typed_cell("ScoreTable", "Score_NS", "^-50") == Artificial(-50)
    assert typed_cell("ScoreTable", "Names_EW", "A;B") == ("A", "B")
    assert typed_cell("ScoreTable", "Declarer", "-") is None and typed_cell("ScoreTable", "Result", "?") is None
    assert typed_cell("ActionTable", "Card", "D") is Suit.DIAMONDS and typed_cell(
        "ActionTable", "Card", "SA"
    ) == Card.parse("SA")
    assert typed_cell("ActionTable", "Call", "0") is None  # "any other call" in the PBN 2.0 reference file
    assert typed_cell("InstantScoreTable", "ScoreRange_EW", "-100") == (-100, -100)
    assert typed_cell("PlayTimeTable", "TotalTime", "01:02:03") == 3723
    assert typed_cell("MyTable", "Anything", "x") == "x"
    for table, column, value in [("ScoreTable", "Percentage_NS", "101"), ("ScoreTable", "Multiplicity", "0")]:
        with pytest.raises(TagValueError):
            typed_cell(table, column, value)
    t = Table("ScoreTable", parse_columns("Rank;Score_NS")[0], (("1", "100"), ("2",)))
    assert table_records(t) == [{"Rank": 1, "Score_NS": 100}, {"Rank": 2}]
    assert t.column("Score_NS") == ("100", "") and t.column("Nope") == ()


def test_tables_are_written_after_the_sections_sorted_with_widths() -> None:
    b = one(
        '[ScoreTable "-Rank\\3R;Names_NS\\6L;Score_NS\\5R"]\n1 "A;B" 420\n2 Smith -50\n'
        '[ActionTable "Rank;Call"]\n1 4H\n[Dealer "N"]\n[Auction "N"]\nAP'
    )
    text = dumps(b)
    tail = text[text.index("[Auction") :].split("\r\n")
    assert tail == [
        '[Auction "N"]',
        "Pass Pass Pass Pass",
        '[ActionTable "Rank;Call"]',
        "1 4H",
        '[ScoreTable "-Rank\\3R;Names_NS\\6L;Score_NS\\5R"]',
        '  1 "A;B"    420',
        "  2 Smith    -50",
        "",
    ]
