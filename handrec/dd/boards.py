"""What a board says of its double dummy, and what the booklet shows: tags first, then the solver.

Sources of a board's table, in order (:func:`board_dd`):

1. the ``DoubleDummyTricks`` tag (BridgeComposer and others; pbn.md §17);
2. the ``Ability`` tag (Big Deal, deal-convert; pbn.md §17);
3. with ``solve``, the solver (:mod:`handrec.dd.solver`, :func:`boards_dd`).

A file's own par (``OptimumScore``, ``ParContract``, BEN's ``ParScore``) is
preferred over the computed one when present.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from handrec.dd import solver
from handrec.dd.par import Par, par, parse_optimum_score, parse_par_contracts
from handrec.dd.table import DDError, DDTable
from handrec.model import Board

__all__ = ["BoardDD", "board_dd", "boards_dd", "solvable"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class BoardDD:
    """What a booklet shows of one board's double dummy: the ``table``
    (``None`` if unknown), the ``par`` (``None`` if unknown) and where they
    came from (``source``: ``"tags"``, ``"solver"``, or ``"tags+computed"``
    when the table came from the file and the par was computed from it).
    ``par_text`` keeps a file's ``ParContract`` value that could not be
    read item by item (printed as given).
    """

    table: DDTable | None
    par: Par | None
    source: str
    par_text: str | None = field(default=None)


def board_dd(board: Board) -> BoardDD | None:
    """The double-dummy table and par a board's tags give, or ``None``.

    Table: ``DoubleDummyTricks``, else ``Ability``.  Par: ``OptimumScore``
    (else BEN's ``ParScore``) with ``ParContract`` when the file gives them,
    else computed from the table with :func:`par` (needs the board's
    vulnerability).  Unreadable values are ignored here (the validator
    reports them).
    """
    table = None
    for name, reader in (("DoubleDummyTricks", DDTable.parse_hex), ("Ability", DDTable.parse_ability)):
        value = board.tag(name)
        if value and value.strip():
            try:
                table = reader(value)
                break
            except DDError:
                continue
    file_par, par_text = _file_par(board)
    if file_par is not None:
        return BoardDD(table, file_par, "tags", par_text)
    if table is None:
        return None
    computed = par(table, board.vulnerable, board.dealer) if board.vulnerable is not None else None
    return BoardDD(table, computed, "tags+computed" if computed is not None else "tags")


def _file_par(board: Board) -> tuple[Par | None, str | None]:
    score_text = board.tag("OptimumScore") or board.tag("ParScore")
    if not score_text or not score_text.strip():
        return None, None
    try:
        score = parse_optimum_score(score_text)
    except DDError:
        return None, None
    contract_text = board.tag("ParContract")
    if not contract_text or not contract_text.strip():
        return Par(score, ()), None
    try:
        return Par(score, parse_par_contracts(contract_text)), None
    except DDError:
        return Par(score, ()), contract_text.strip()


def boards_dd(
    boards: Sequence[Board], *, solve: bool = False, progress: Callable[[int, int], None] | None = None
) -> tuple[list[BoardDD | None], str | None]:
    """Double dummy for each board, and a note to print once (or ``None``).

    Tags first (:func:`board_dd`).  With ``solve``, complete deals that lack a
    table are solved (:func:`solve_tables`) and get a computed par; without
    endplay they are left out and the note says why.
    """
    out = [board_dd(b) for b in boards]
    if not solve:
        return out, None
    need = [i for i, (b, d) in enumerate(zip(boards, out)) if (d is None or d.table is None) and solvable(b)]
    if not need:
        return out, None
    try:
        tables = solver.solve_tables([boards[i].deal for i in need], progress=progress)  # type: ignore[misc]
    except ImportError:
        log.warning(solver.UNAVAILABLE_REASON)
        return out, solver.UNAVAILABLE_REASON
    for i, table in zip(need, tables):
        b, known = boards[i], out[i]
        if known is not None and known.par is not None:
            out[i] = BoardDD(table, known.par, "tags+solver", known.par_text)
        else:
            p = par(table, b.vulnerable, b.dealer) if b.vulnerable is not None else None
            out[i] = BoardDD(table, p, "solver")
    return out, None


def solvable(board: Board) -> bool:
    return board.deal is not None and board.deal.is_complete
