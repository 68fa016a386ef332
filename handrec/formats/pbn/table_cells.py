"""The tables of PBN 2.1 §5: their predefined columns and the grammar of their elements.

:data:`TABLES` holds the eight tables of PBN 2.1 §5 with a converter from an element to a
typed value for each predefined column (:class:`~handrec.formats.pbn.tags.TagValueError`
when it is not valid); :func:`typed_cell` gives one element's typed value,
:func:`table_records` the rows of a :class:`~handrec.model.Table` with typed values, and
:class:`Artificial` stands for a score written with ``^``.  A table's header (its tag's
value) is read by :func:`handrec.formats.pbn.tags.parse_columns`.

Shared by the reader (its checks of table elements, T124:
:mod:`handrec.formats.pbn.table_section`) and the writer.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, NamedTuple

from handrec.formats.pbn.tags import _DEC, _INT, _SEAT_LETTERS, TagValueError, _bad, _contract, _names, _number, _text
from handrec.model import Call, Card, Contract, ModelError, Seat, Strain, Suit, Table
from handrec.scoring import MAX_MULTIPLICITY

__all__ = ["TABLES", "TableSpec", "Artificial", "typed_cell", "table_records"]


class Artificial(NamedTuple):
    """A table element written with ``^``: an artificial score (PBN 2.1 §5.2)."""

    value: int | float


def _cell_number(pattern: str, what: str, low: float | None = None, high: float | None = None) -> Callable[[str], Any]:
    rx = re.compile(pattern)

    def convert(v: str) -> Any:
        artificial = v[:1] == "^"
        t = v[1:] if artificial else v
        if rx.fullmatch(t) is None:
            raise _bad(what)
        n = _number(t)
        if (low is not None and n < low) or (high is not None and n > high):
            raise _bad(what)
        return Artificial(n) if artificial else n

    return convert


_cell_int = _cell_number(_INT, "an integer score")
_cell_decimal = _cell_number(_DEC, "a number")
_cell_percent = _cell_number(_DEC, "a percentage 0-100", 0, 100)
_cell_count = _cell_number(r"\d+", "a positive integer", 1)
_cell_multiplicity = _cell_number(r"\d+", f"a count of tables from 1 to {MAX_MULTIPLICITY:,}", 1, MAX_MULTIPLICITY)
_cell_tricks = _cell_number(r"\d+", "tricks 0-13", 0, 13)


def _cell_rank(v: str) -> int:
    if not (v.isascii() and v.isdigit()) or int(v) < 1:
        raise _bad("a rank 1, 2, ... ('-' for a tie)")
    return int(v)


def _cell_seat(v: str) -> Seat:
    seat = _SEAT_LETTERS.get(v)
    if seat is None:
        raise _bad("W, N, E or S")
    return seat


def _cell_strain(v: str) -> Strain:
    if v not in ("S", "H", "D", "C", "NT", "s", "h", "d", "c", "nt"):
        raise _bad("S, H, D, C or NT")
    return Strain.parse(v)


def _cell_contract(v: str) -> Contract:
    return _contract(v)


def _cell_call(v: str) -> Call | None:
    """An ActionTable Call: a call of the auction section (``0`` = any other call, as in
    the PBN 2.0 reference files)."""
    if v == "0":
        return None
    try:
        return Call.parse(v)
    except ModelError:
        raise _bad("a call like 1H, X or Pass") from None


def _cell_card(v: str) -> Card | Suit | None:
    """An ActionTable Card: a card, or a suit letter for any card of the suit (``0`` = any
    other card, as in the PBN 2.0 reference files)."""
    if v == "0":
        return None
    if len(v) == 1 and v.upper() in "SHDC":
        return Suit.parse(v)
    try:
        return Card.parse(v)
    except ModelError:
        raise _bad("a card like SA or a suit letter") from None


_DURATION_RE = re.compile(r"(?:(?:(\d+):)?(\d{1,2}):)?(\d{1,2})")


def _cell_duration(v: str) -> int:
    """``HH:MM:SS``, ``MM:SS`` or ``SS`` (PBN 2.1 §5.4): seconds."""
    m = _DURATION_RE.fullmatch(v)
    if m is None:
        raise _bad("a time HH:MM:SS, MM:SS or SS")
    h, mi, s = (int(g) if g else 0 for g in m.groups())
    if (m.group(1) is not None or m.group(2) is not None) and s > 59 or (m.group(1) is not None and mi > 59):
        raise _bad("a time HH:MM:SS, MM:SS or SS")
    return h * 3600 + mi * 60 + s


_SCORE_RANGE_RE = re.compile(rf"({_INT})|({_INT}),\*|({_INT}),({_INT})|\*,({_INT})")


def _cell_score_range(v: str) -> tuple[int | None, int | None]:
    """InstantScoreTable ``<score>``, ``<s1>,*``, ``<s1>,<s2>``, ``*,<s2>`` (PBN 2.1 §5.5):
    (low, high) bounds, ``None`` when open; a single score gives (s, s)."""
    m = _SCORE_RANGE_RE.fullmatch(v)
    if m is None:
        raise _bad("a score range s, s1,*, s1,s2 or *,s2")
    g = m.groups()
    if g[0] is not None:
        return int(g[0]), int(g[0])
    if g[1] is not None:
        return int(g[1]), None
    if g[2] is not None:
        return int(g[2]), int(g[3])
    return None, int(g[4])


def _cell_ranks(v: str) -> str:
    """OptimumPlayTable: ranks of a suit (PBN 2.1 §5.6)."""
    if not v or any(ch not in "AKQJT98765432" for ch in v.upper()) or len(set(v.upper())) != len(v):
        raise _bad("ranks like AKQ or '-' for none")
    return v.upper()


def _cell_names(v: str) -> tuple[str, ...]:
    return _names(v)


class TableSpec(NamedTuple):
    """A table of PBN 2.1 §5: its predefined columns, each with a converter from an
    element to a typed value (:class:`TagValueError` when not valid)."""

    name: str
    source: str
    columns: dict[str, Callable[[str], Any]]


#: The eight tables of PBN 2.1 §5 and their predefined columns (other columns are free text).
TABLES: dict[str, TableSpec] = {
    t.name: t
    for t in [
        TableSpec(
            "ActionTable",
            "PBN 2.1 §5.3",
            {
                "Rank": _cell_rank,
                "Call": _cell_call,
                "Card": _cell_card,
                "Declarer": _cell_seat,
                "Contract": _cell_contract,
                "Percentage": _cell_percent,
            },
        ),
        TableSpec("AuctionTimeTable", "PBN 2.1 §5.4", {"Time": _cell_duration, "TotalTime": _cell_duration}),
        TableSpec(
            "InstantScoreTable",
            "PBN 2.1 §5.5",
            {
                "Rank": _cell_rank,
                "ScoreRange_NS": _cell_score_range,
                "ScoreRange_EW": _cell_score_range,
                "IMP_NS": _cell_decimal,
                "IMP_EW": _cell_decimal,
                "Percentage_NS": _cell_percent,
                "Percentage_EW": _cell_percent,
            },
        ),
        TableSpec(
            "OptimumPlayTable",
            "PBN 2.1 §5.6",
            {"S": _cell_ranks, "H": _cell_ranks, "D": _cell_ranks, "C": _cell_ranks},
        ),
        TableSpec(
            "OptimumResultTable",
            "PBN 2.1 §5.7",
            {"Declarer": _cell_seat, "Denomination": _cell_strain, "Result": _cell_tricks},
        ),
        TableSpec("PlayTimeTable", "PBN 2.1 §5.8", {"Time": _cell_duration, "TotalTime": _cell_duration}),
        TableSpec(
            "ScoreTable",
            "PBN 2.1 §5.9",
            {
                "Rank": _cell_rank,
                "PairId_NS": _text,
                "PairId_EW": _text,
                "Names_NS": _cell_names,
                "Names_EW": _cell_names,
                "Contract": _cell_contract,
                "Declarer": _cell_seat,
                "Result": _cell_tricks,
                "Score_NS": _cell_int,
                "Score_EW": _cell_int,
                "IMP_NS": _cell_decimal,
                "IMP_EW": _cell_decimal,
                "MP_NS": _cell_decimal,
                "MP_EW": _cell_decimal,
                "Percentage_NS": _cell_percent,
                "Percentage_EW": _cell_percent,
                "Multiplicity": _cell_multiplicity,
            },
        ),
        TableSpec(
            "TotalScoreTable",
            "PBN 2.1 §5.10",
            {
                "Rank": _cell_rank,
                "PairId": _text,
                "Names": _cell_names,
                "TotalScore": _cell_decimal,
                "TotalIMP": _cell_decimal,
                "TotalMP": _cell_decimal,
                "TotalPercentage": _cell_percent,
                "MeanScore": _cell_decimal,
                "MeanIMP": _cell_decimal,
                "MeanMP": _cell_decimal,
                "MeanPercentage": _cell_percent,
                "NrBoards": _cell_count,
                "Multiplicity": _cell_multiplicity,
            },
        ),
    ]
}


def typed_cell(table: str, column: str, value: str) -> Any:
    """The typed value of one table element: ``None`` for ``?`` (unknown) and ``-``
    (irrelevant), :class:`Artificial` for a ``^`` score, the string itself in a column
    that is not predefined.

    :raises TagValueError: when the element is not valid for its predefined column.

    >>> typed_cell("OptimumResultTable", "Denomination", "NT"), typed_cell("ScoreTable", "Score_NS", "^-50")
    (Strain.NOTRUMP, Artificial(value=-50))
    """
    if value in ("?", "-"):
        return None
    spec = TABLES.get(table)
    convert = None if spec is None else spec.columns.get(column)
    if convert is None:
        return value
    return convert(value)


def table_records(table: Table) -> list[dict[str, Any]]:
    """The rows of a table as ``{column name: typed value}`` (:func:`typed_cell`); an
    element that is not valid gives ``None``, a missing one (short last row) is left out.
    An unknown section (no columns) gives ``{"0": ..., "1": ...}`` by position.

    >>> from handrec.formats.pbn.tags import parse_columns
    >>> t = Table("OptimumResultTable", parse_columns("Declarer;Denomination\\\\2R;Result\\\\2R")[0], (("N", "NT", "9"),))
    >>> table_records(t)
    [{'Declarer': Seat.NORTH, 'Denomination': Strain.NOTRUMP, 'Result': 9}]
    """
    names = [c.name for c in table.columns]
    out = []
    for row in table.rows:
        rec: dict[str, Any] = {}
        for i, v in enumerate(row):
            key = names[i] if i < len(names) else str(i)
            try:
                rec[key] = typed_cell(table.name, key, v)
            except TagValueError:
                rec[key] = None
        out.append(rec)
    return out
