"""The director's double-dummy checks (``handrec validate --dd``, ``convert --dd``).

* D210-D212: the double dummy and par a file writes (DoubleDummyTricks,
  Ability, OptimumResultTable, OptimumScore, ParScore, ParContract,
  Minimax) against the solver; D213 when they cannot be checked.
* D214: a result at least ``margin`` tricks (default 3) away from what the
  contract takes double dummy: with a wrong declarer, contract or result
  the likeliest entry mistakes a director looks for before results are
  published.  :func:`worklist` orders them, most unlikely first.
* :func:`game_dd`: the per-game figures ``convert --dd`` writes
  (``dd_tricks``, ``tricks_vs_dd``, ``par_score_ns``, ``score_vs_par_ns``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from handrec.dd import solver
from handrec.dd.boards import solvable
from handrec.dd.par import par, parse_optimum_score, parse_par_contracts
from handrec.dd.table import DD_SEATS, DD_STRAINS, DDError, DDTable, parse_optimum_result_table
from handrec.diagnostics import Diagnostic, make
from handrec.model import Board, Contract, Seat, Strain, Vulnerability

__all__ = [
    "CHECKED_TAGS",
    "DEFAULT_MARGIN",
    "GameDD",
    "has_dd_values",
    "check_board",
    "check_boards",
    "check_games",
    "check_result",
    "game_dd",
    "worklist",
    "not_solvable",
]

#: Tricks between a result and double dummy from which ``validate --dd`` warns (D214; ``--dd-margin``).
DEFAULT_MARGIN = 3

#: The tags and tables :func:`check_boards` compares with the solver.
CHECKED_TAGS = (
    "DoubleDummyTricks",
    "Ability",
    "OptimumResultTable",
    "OptimumScore",
    "ParScore",
    "ParContract",
    "Minimax",
)
_MINIMAX_SCORE = re.compile(r"[1-7][CDHSN][DR]?[NESW]([+-]?\d+)")


def has_dd_values(board: Board) -> bool:
    """Whether the board writes a double-dummy table or a par (:data:`CHECKED_TAGS`)."""
    return any(t.name in CHECKED_TAGS and t.value.strip() not in ("", "?", "#") for t in board.tags)


#: Wrong cells a D210 message lists before saying how many more there are.
_SHOWN_CELLS = 4


def _table_detail(given: DDTable, solved: DDTable) -> str | None:
    """``N NT 8 (solver 7), ...`` for the cells that differ (declarers N S E W, strains NT S H D C),
    ``None`` when none does."""
    wrong = [
        f"{seat} {'NT' if strain is Strain.NOTRUMP else strain} {given[seat, strain]} (solver {solved[seat, strain]})"
        for seat in DD_SEATS
        for strain in DD_STRAINS
        if given[seat, strain] != solved[seat, strain]
    ]
    if not wrong:
        return None
    more = len(wrong) - _SHOWN_CELLS
    if more > 1:
        return ", ".join(wrong[:_SHOWN_CELLS]) + f" and {more} more cells"
    return ", ".join(wrong)


def check_board(board: Board, solved: DDTable) -> list[Any]:
    """The diagnostics of one board's written double dummy against ``solved`` (its deal's table).

    * **D210**: ``DoubleDummyTricks``, ``Ability`` or ``OptimumResultTable``
      gives a number of tricks the solver does not; one diagnostic per tag
      listing every wrong cell.
    * **D211**: ``OptimumScore`` (or BEN's ``ParScore``, or the score of Big
      Deal's ``Minimax``) is not the par of the solved table (:func:`par`,
      the board's vulnerability and dealer).
    * **D212**: ``ParContract`` does not name the par contracts.

    Each is reported at its tag.  Values that cannot be read are left to the
    reader's own checks (T121); par is not checked without a vulnerability.
    """
    out = []
    for name, reader in (("DoubleDummyTricks", DDTable.parse_hex), ("Ability", DDTable.parse_ability)):
        value = board.tag(name)
        if not value or not value.strip():
            continue
        try:
            given = reader(value)
        except DDError:
            continue
        detail = _table_detail(given, solved)
        if detail:
            out.append(make("D210", board.origin, board.tag_span(name), tag=name, detail=detail))
    for t in board.tables:
        if t.name != "OptimumResultTable" or not t.rows:
            continue
        header = ";".join(c.name for c in t.columns)
        try:
            given = parse_optimum_result_table(header, [cell for row in t.rows for cell in row])
        except DDError:
            continue
        detail = _table_detail(given, solved)
        if detail:
            out.append(make("D210", board.origin, t.span, tag="OptimumResultTable", detail=detail))
    if board.vulnerable is None:
        return out
    p = par(solved, board.vulnerable, board.dealer)
    for name in ("OptimumScore", "ParScore", "Minimax"):
        value = board.tag(name)
        if not value or not value.strip():
            continue
        try:
            if name == "Minimax":
                m = _MINIMAX_SCORE.fullmatch(value.strip())
                if m is None:
                    continue
                score = int(m.group(1))
            else:
                score = parse_optimum_score(value)
        except DDError:
            continue
        if score != p.score_ns:
            out.append(make("D211", board.origin, board.tag_span(name), tag=name, value=value, expected=p.label))
    value = board.tag("ParContract")
    if value and value.strip():
        try:
            given_contracts = parse_par_contracts(value)
        except DDError:
            given_contracts = None
        if given_contracts is not None:
            expected = sorted(str(c) for c in p.contracts)
            if sorted(str(c) for c in given_contracts) != expected:
                shown = "; ".join(str(c) for c in p.contracts) or "Pass"
                out.append(make("D212", board.origin, board.tag_span("ParContract"), value=value, expected=shown))
    return out


def check_boards(boards: Sequence[Board], *, progress: Callable[[int, int], None] | None = None) -> list[Diagnostic]:
    """Check the double dummy and par written in ``boards`` against the solver (see :func:`check_board`).

    Boards that write none are skipped; the complete deals of the others are
    solved together (:func:`handrec.dd.solver.solve_tables`: batches, the
    cache); a board whose deal is not complete gets **D213** (info) instead.
    Diagnostics in file order.

    :raises ImportError: without endplay (the ``handrec[dd]`` extra).
    """
    return check_games([(b, None, None) for b in boards], margin=None, progress=progress)


def check_games(
    games: Sequence[tuple[Board, Contract | None, int | None]],
    *,
    margin: int | None = DEFAULT_MARGIN,
    progress: Callable[[int, int], None] | None = None,
) -> list[Diagnostic]:
    """The director's checks of ``validate --dd`` on the games of one input: ``(board, contract, tricks)``
    with the contract (and its declarer) and declarer's tricks as the replay resolved them
    (``None`` when unknown).

    D210-D213 for the boards that write double dummy or par (:func:`check_board`); with a
    ``margin``, D214 for each result that many tricks or more from double dummy
    (:func:`check_result`).  The complete deals needed are solved together, once each
    (:func:`handrec.dd.solver.solve_tables`).  Diagnostics in file order.

    :raises ImportError: without endplay (the ``handrec[dd]`` extra), when a deal must be solved.
    """
    out: list[Diagnostic] = []
    wanted: list[tuple[Board, Contract | None, int | None, bool]] = []
    for b, contract, tricks in games:
        written = has_dd_values(b)
        played = margin is not None and _played(contract, tricks)
        if not (written or played):
            continue
        if solvable(b):
            wanted.append((b, contract, tricks, written))
            continue
        if written:
            first = next(t for t in b.tags if t.name in CHECKED_TAGS and t.value.strip() not in ("", "?", "#"))
            out.append(make("D213", b.origin, first.span, tag=first.name, reason="the deal is not complete"))
        if played:
            d = not_solvable(b)
            if d is not None:
                out.append(d)
    tables = solver.solve_tables([w[0].deal for w in wanted], progress=progress) if wanted else []  # type: ignore[misc]
    for (b, contract, tricks, written), table in zip(wanted, tables):
        if written:
            out.extend(check_board(b, table))
        if margin is not None and contract is not None and tricks is not None:
            d = check_result(b, table, contract, tricks, margin)
            if d is not None:
                out.append(d)
    return sorted(out, key=lambda d: (d.path, d.line, d.column, d.code))


def not_solvable(board: Board) -> Diagnostic | None:
    """**D216** (info) for a board whose deal is given but not complete (no double dummy for it; a board
    without any deal has D205 already), else ``None``."""
    deal = board.deal
    if deal is None or deal.is_complete:
        return None
    given = sum(len(h) for h in deal.hands if h is not None)
    if given < 52:
        reason = f"the deal gives {given} of 52 cards"
    else:
        reason = "the deal is not 4 hands of 13 different cards"
    return make("D216", board.origin, board.tag_span("Deal"), reason=reason)


def _played(contract: Contract | None, tricks: int | None) -> bool:
    return (
        contract is not None
        and tricks is not None
        and not contract.is_passed_out
        and contract.level >= 1
        and contract.declarer is not None
    )


def check_result(board: Board, table: DDTable, contract: Contract, tricks: int, margin: int) -> Diagnostic | None:
    """**D214** (warning) when declarer's ``tricks`` are ``margin`` or more away from what ``contract``
    takes double dummy on ``table`` (the board's deal), else ``None``.

    The message says by how much, and when the result fits double dummy
    with declarer's partner as declarer, or read as the defenders' tricks,
    says so (the usual entry mistakes).  Reported at the Result tag (else
    the Contract tag, else the board).
    """
    if not _played(contract, tricks):
        return None
    declarer = contract.declarer
    assert declarer is not None and contract.strain is not None
    dd = table[declarer, contract.strain]
    diff = tricks - dd
    if abs(diff) < margin:
        return None
    hints = []
    partner = Seat((declarer + 2) % 4)
    if abs(tricks - table[partner, contract.strain]) < margin:
        hints.append(f"{partner} as declarer takes {table[partner, contract.strain]}")
    if abs((13 - tricks) - dd) < margin:
        hints.append(f"the defenders took {13 - tricks}")
    span = board.tag_span("Result") or board.tag_span("Contract")
    return make(
        "D214",
        board.origin,
        span,
        contract=str(Contract(contract.level, contract.strain, contract.doubling)),
        declarer=str(declarer),
        tricks=tricks,
        dd=dd,
        diff=diff,
        hint=f" (maybe: {'; '.join(hints)})" if hints else "",
    )


_D214_DIFF = re.compile(r"double dummy \d+ \(([+-]\d+)\)")


def worklist(diagnostics: Sequence[Diagnostic]) -> list[Diagnostic]:
    """The D214 warnings of ``diagnostics`` as a director's worklist: the most unlikely results first.

    A result is the more unlikely the further it is from double dummy (the
    tricks between them: 5 before 4 before 3), and, at the same distance,
    one above double dummy (the defence gave away that many tricks) before
    one below it; then in file order.
    """
    rows = []
    for d in diagnostics:
        if d.code != "D214":
            continue
        m = _D214_DIFF.search(d.message)
        diff = int(m.group(1)) if m else 0
        rows.append((-abs(diff), -diff, d.path, d.line, d.column, d))
    rows.sort(key=lambda r: r[:5])
    return [r[-1] for r in rows]


class GameDD(tuple):
    """The double-dummy figures of one game, as ``convert --dd`` writes them in ``boards``:
    ``(dd_tricks, tricks_vs_dd, par_score_ns, score_vs_par_ns)``, each ``None`` when unknown."""

    __slots__ = ()

    def __new__(
        cls, dd_tricks: int | None, tricks_vs_dd: int | None, par_score_ns: int | None, score_vs_par_ns: int | None
    ) -> GameDD:
        return tuple.__new__(cls, (dd_tricks, tricks_vs_dd, par_score_ns, score_vs_par_ns))

    def as_row(self) -> dict[str, int | None]:
        return dict(zip(("dd_tricks", "tricks_vs_dd", "par_score_ns", "score_vs_par_ns"), self))


def game_dd(
    table: DDTable,
    contract: Contract | None,
    tricks: int | None,
    score_ns: int | None,
    vulnerable: Vulnerability | None,
    dealer: Seat | None,
) -> GameDD:
    """The figures of :class:`GameDD` for a game played on the deal of ``table``.

    ``dd_tricks``: what the contract's declarer takes in its strain double
    dummy (``None`` passed out or unknown); ``tricks_vs_dd``: ``tricks``
    minus that; ``par_score_ns``: the par (:func:`handrec.dd.par.par`) for
    the board's ``vulnerable`` and ``dealer`` (``None`` without a
    vulnerability); ``score_vs_par_ns``: North-South's ``score_ns`` minus
    the par score.
    """
    dd = None
    if contract is not None and not contract.is_passed_out and contract.level >= 1 and contract.declarer is not None:
        dd = table[contract.declarer, contract.strain]  # type: ignore[index]
    vs = None if dd is None or tricks is None else tricks - dd
    p = None if vulnerable is None else par(table, vulnerable, dealer).score_ns
    vs_par = None if p is None or score_ns is None else score_ns - p
    return GameDD(dd, vs, p, vs_par)
