"""The vugraph header that LIN records inherit (lin.md §2.3, §7) and the ``rs`` results checked against the table.

The pairs before a file's first ``qx`` (or a segment's ``vg``) are its header: the match
(``vg``: event, stage, scoring, teams, first board), the results of every table (``rs``:
two per board, open then closed room), the players (``pn``/``pw``, by room or by block)
and the board numbers (``bn``).  :func:`rs_text` writes an ``rs`` entry (the LIN writer's
too); a record's entry is checked against what its own auction and play give (C506).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from handrec.diagnostics import Diagnostic, make
from handrec.formats.lin.records import _Parts
from handrec.formats.lin.spellings import _int
from handrec.model import Board, Contract, Doubling, Seat, Span, Strain, trick_winner

__all__ = ["rs_text"]

#: The scoring letter of a ``vg`` header (its third field) -> the PBN Scoring tag (§7).
_SCORING = {"I": "IMP", "P": "MP", "B": "BAM"}
#: One ``rs`` entry (§7): level, strain, declarer, doubling, then ``=`` or the over- or undertricks.
_RS = re.compile(r"([1-7])(NT|[CDHSN])([NESW])(XX|X)?(=|[+-][0-9]{1,2})", re.IGNORECASE)


#: A parsed ``rs`` entry: (contract with declarer, tricks taken by declarer or None).
_RsResult = tuple[Contract, int | None]


@dataclass(slots=True)
class _Header:
    """File-level values that records inherit: ``vg``, ``rs``, ``pn``/``pw``, ``bn``."""

    event: str | None = None
    stage: str | None = None
    scoring: str | None = None
    home: str | None = None
    visit: str | None = None
    first_board: int | None = None
    results: list[_RsResult | None] = field(default_factory=list)
    result_texts: list[str] = field(default_factory=list)
    result_spans: list[Span] = field(default_factory=list)  # absolute file positions
    names: list[str] | None = None
    boards: list[str] = field(default_factory=list)
    extra: list[tuple[str, str]] = field(default_factory=list)  # unknown commands, for the first record


def _parse_rs(entry: str) -> _RsResult | str | None:
    """One ``rs`` entry (§7): ``4HE=``, ``3NW+1``, ``4SWx-4``, ``PASS`` or empty.

    Returns ``None`` for an empty entry, the result, or a reason string when
    the entry cannot be read.

    >>> _parse_rs("4SWx-4")
    (Contract.parse('4SX', declarer=Seat.WEST), 6)
    """
    t = entry.strip()
    if not t:
        return None
    if t.upper() in ("PASS", "P"):
        return (Contract.passed_out(), None)
    m = _RS.fullmatch(t)
    if m is None:
        return "not <level><strain><declarer>[x|xx](=|+n|-n) or PASS"
    level = int(m.group(1))
    x = (m.group(4) or "").upper()
    doubling = Doubling.REDOUBLED if x == "XX" else Doubling.DOUBLED if x == "X" else Doubling.UNDOUBLED
    outcome = m.group(5)
    tricks = level + 6 + (0 if outcome == "=" else int(outcome))
    if not 0 <= tricks <= 13:
        return f"{tricks} tricks is not 0 to 13"
    declarer = Seat.parse(m.group(3))
    return (Contract(level, Strain.parse(m.group(2)), doubling, declarer), tricks)


def rs_text(contract: Contract | None, tricks: int | None) -> str:
    """A table's result as an ``rs`` entry (lin.md §7), the inverse of reading one.

    ``PASS`` for a passed-out deal; ``""`` when the contract (with its
    declarer) is unknown or an end position; without ``tricks`` only the
    contract part (not a complete entry).

    >>> rs_text(Contract.parse("4SX", Seat.WEST), 6), rs_text(Contract.parse("3NT", Seat.NORTH), 10)
    ('4SWx-4', '3NN+1')
    """
    if contract is None:
        return ""
    if contract.is_passed_out:
        return "PASS"
    if contract.level == 0 or contract.strain is None or contract.declarer is None:
        return ""
    strain = "N" if contract.strain is Strain.NOTRUMP else str(contract.strain)
    text = f"{contract.level}{strain}{contract.declarer}{str(contract.doubling).lower()}"
    if tricks is None:
        return text
    over = tricks - contract.level - 6
    return text + ("=" if over == 0 else f"{over:+d}")


def _read_header(p: _Parts, path: str, file_diagnostics: list[Diagnostic]) -> _Header:
    """Header values from the pairs before the first record; bad ``vg`` and
    ``rs`` values go to ``file_diagnostics`` (T101, file positions)."""
    h = _Header(names=p.names, boards=p.bn or [], extra=list(p.extra))
    if p.calls or p.cards or p.claim is not None or p.vulnerable is not None or p.deal is not None:
        # lin.md §8: pairs before the first qx are the header; record pairs there belong to no board
        spans = [c.span for c in p.calls if c.span is not None] + [x for x in p.card_spans if x is not None]
        if p.sv_span is not None:
            spans.append(p.sv_span)
        first = min(spans, key=lambda x: (x.line, x.column)) if spans else None
        file_diagnostics.append(
            make(
                "F003",
                None,
                first,
                path=path,
                detail="record pairs (sv, mb, pc, mc) before the first qx belong to no board and are not read",
            )
        )
    if p.vg is not None:
        f = [x.strip() for x in p.vg]
        if len(f) != 9:
            file_diagnostics.append(
                make(
                    "T101", None, p.vg_span, path=path, tag="vg", value=",".join(p.vg), reason=f"{len(f)} fields, not 9"
                )
            )
        f += [""] * (9 - len(f))
        h.event, h.stage, h.home, h.visit = f[0], f[1], f[5], f[7]
        if f[2]:
            h.scoring = _SCORING.get(f[2].upper())
            if h.scoring is None:
                file_diagnostics.append(
                    make("T101", None, p.vg_span, path=path, tag="vg", value=f[2], reason="scoring is not I, P or B")
                )
        h.first_board = _int(f[3])
    if p.rs is not None:
        h.result_texts = [e.strip() for e in p.rs]
        h.result_spans = p.rs_spans or []
        for i, entry in enumerate(p.rs):
            r = _parse_rs(entry)
            if isinstance(r, str):
                span = h.result_spans[i] if i < len(h.result_spans) else None
                file_diagnostics.append(make("T101", None, span, path=path, tag="rs", value=entry, reason=r))
                r = None
            h.results.append(r)
    return h


def _select_names(names: list[str], room: str | None, block: int | None) -> list[str]:
    """The S,W,N,E names of one table from a ``pn``/``pw`` list (§2.3, §8.3).

    Up to 8 names: open room (or no room) the first 4, closed room names 5-8.
    Longer header lists (players changing, ``pw`` with 4 names per board) are
    taken by block: the record's ordinal in the file selects names
    ``4*block .. 4*block+3`` when the list is that long.
    """
    if block is not None and len(names) > 8 and len(names) >= 4 * block + 4:
        return names[4 * block : 4 * block + 4]
    if room == "Closed" and len(names) >= 8:
        return names[4:8]
    return names[:4]


def _table_result(board: Board) -> tuple[Contract | None, bool, int | None]:
    """What a record's own auction and play give: (contract, whether the
    auction gave it, declarer's tricks).

    The contract is the auction's when it is complete (the rules' auction
    replay), else the record's ``rs`` contract; the tricks are counted from
    13 complete tricks (Law 44, :func:`~handrec.model.trick_winner`), else
    taken from the claim, else unknown -- the same precedence as the replay
    engine, without its checks (the validator reports faults of the play).
    """
    from handrec.rules.auction import replay_auction  # rules depend on the model only

    contract, from_auction = board.contract, False
    if board.auction is not None:
        ar = replay_auction(board.auction)
        if ar.complete and ar.contract is not None:
            contract, from_auction = ar.contract, True
    play = board.play
    if contract is None or contract.level == 0 or contract.declarer is None or play is None:
        return contract, from_auction, None
    cards = play.cards
    if len(cards) == 52 and None not in cards:
        trump, declarer = contract.trump, contract.declarer
        leader, won = declarer.lho, 0
        for i in range(0, 52, 4):
            leader = trick_winner(leader, cards[i : i + 4], trump)  # type: ignore[arg-type]
            won += (leader - declarer) % 2 == 0
        return contract, from_auction, won
    return contract, from_auction, play.claim


def _check_rs(board: Board, h: _Header, i: int) -> Board:
    """C506 when the record's ``rs`` entry disagrees with its own auction and
    play (see :func:`_table_result`).

    On a disagreement the board keeps the entry's Contract, Declarer and
    Result *tags* (what the file says) but not the typed values, so that the
    replay reports nothing twice.
    """
    rs_contract, rs_tricks = board.contract, board.result
    contract, from_auction, tricks = _table_result(board)
    contract_bad = (
        from_auction
        and contract is not None
        and rs_contract is not None
        and (
            (contract.level, contract.strain, contract.doubling, contract.declarer)
            != (rs_contract.level, rs_contract.strain, rs_contract.doubling, rs_contract.declarer)
        )
    )
    result_bad = tricks is not None and rs_tricks is not None and tricks != rs_tricks
    if not (contract_bad or result_bad):
        return board
    span = h.result_spans[i] if i < len(h.result_spans) else None
    rel = None if span is None else Span(span.line - board.origin.line + 1, span.column)
    value = h.result_texts[i] if i < len(h.result_texts) else rs_text(rs_contract, rs_tricks)
    diag = make("C506", board.origin, rel, value=value, expected=rs_text(contract, tricks))
    if contract_bad:
        return replace(board, contract=None, declarer=None, result=None, diagnostics=(*board.diagnostics, diag))
    return replace(board, result=None, diagnostics=(*board.diagnostics, diag))
