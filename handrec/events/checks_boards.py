"""Boards and pairs of an input played more than once: a pair that plays a board twice (S612),
a fouled board (S613, S615) and a board given twice (S614).

Checked for every input, with claimed figures or not (:func:`handrec.events.checks.check_pairs`;
the module doc of :mod:`handrec.events.checks` says what each code checks).

Sources: Law 15A (a board played twice), Law 87 (fouled boards), Law 2 (the board number's
dealer and vulnerability); PBN 2.1 §3.4.10.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from handrec.diagnostics import CODES, Diagnostic, make
from handrec.events.games import GameRecord
from handrec.model import Span
from handrec.rules.board import dealer_for_board, own_vulnerability, vulnerability_for_board
from handrec.rules.replay import _PBN_VUL

if TYPE_CHECKING:
    from handrec.events.travellers import Traveller

#: A fault of a whole game (S612, S614): at its first line, column 1 (columns are 1-based).
_GAME = Span(1, 1)


#: The length of a full deal's text (:func:`handrec.events.games.deal_text`): ``N:`` and four hands of
#: 13 cards, each with its three dots, between three spaces.  A fragment (an end position, a
#: teaching file's single suit, an unknown hand) is shorter.
_FULL_DEAL_TEXT = 2 + 4 * 16 + 3


def _full_board(r: GameRecord) -> bool:
    """A full deal with its board: what S613-S615 compare (:func:`_boards_twice`; fragments are left alone)."""
    deal = r.deal
    return deal is not None and len(deal) == _FULL_DEAL_TEXT and bool(r.board)


def used_by_pair_checks(r: GameRecord) -> bool:
    """Whether the checks of an input without claimed figures (:func:`handrec.events.checks.check_pairs`)
    can use the game at all: a full deal with its board (S613-S615, :func:`_boards_twice`),
    else players or a score in a traveller (S612, :func:`_pairs_twice`, which counts scored
    results).  The other games may be left out without changing a diagnostic
    (:mod:`handrec.events.spill` reads only these back from disk)."""
    return _full_board(r) or ((r.ns is not None or r.ew is not None or r.score_ns is not None) and r.key is not None)


def _boards_twice(recs: Iterable[GameRecord]) -> list[Diagnostic]:
    """S613 and S615 (Law 87) and S614 in one pass over the records: a dict entry per board,
    no traveller.

    S613: the games of one session (Event and session date, :func:`~handrec.events.sessions.dated`), section, stage,
    round and board number (the number, else the Board tag's text) that were played (players
    or a result) with full deals that differ; once per extra deal, at its Deal tag, naming the
    board's first game.  The Open and Closed rooms of a teams match are the same board; other
    sessions, sections, stages, rounds and events may reuse a number for other deals.  Games
    with neither players nor a result (hand records: a dealing program's runs concatenated
    restart their numbers) are not compared.

    S615: such games with the same deal but another dealer or vulnerability (Law 87A: the
    dealer or the vulnerability differed between copies of the board); once per extra form,
    at its Dealer (else Vulnerable) tag, naming the reference game of that deal: its first
    game, or the first that agrees with the board number (Law 2) when the first does not (the
    first is then the copy reported).  A dealer or vulnerability that is not known is not
    compared.

    S614: such a game given again with the same deal in the same room (a hand-record file
    listing a board twice), at the repeat (its first line, column 1), naming the first.  A repeated game
    with players or a result is a traveller line, not a repeat.

    Fragments (deals of fewer than 52 cards: end positions, quizzes) are left alone.
    """
    first: dict[tuple[object, ...], GameRecord] = {}  # the first played game of each board
    deals: dict[tuple[object, ...], set[str | None]] = {}  # the deals of a board seen with two or more
    by_deal: dict[tuple[object, ...], GameRecord] = {}  # the first game of each further deal of a board
    forms: set[tuple[object, ...]] = set()  # the (board, deal, dealer, vulnerable) reported by S615
    reference: dict[tuple[object, ...], GameRecord] = {}  # a deal's copy that agrees with its number (S615)
    listed: dict[tuple[object, ...], GameRecord] = {}  # the first unplayed listing of each board and deal
    out: list[Diagnostic] = []
    for r in recs:
        if not _full_board(r):
            continue
        deal = r.deal
        board = r.board
        if (
            r.ns is None
            and r.ew is None
            and r.contract is None
            and r.tricks is None
            and r.score_ns is None
            and not r.claims
            and not r.tables
        ):
            k = (r.event, r.date, r.match[:3], board, deal, r.room)
            f = listed.setdefault(k, r)
            if f is not r:
                out.append(make("S614", r.origin, _GAME, board=board, other=f.origin.line))
            continue
        k = (r.event, r.date, r.match[:3], board)
        f = first.setdefault(k, r)
        if f is r:
            continue
        if f.deal != deal:
            seen = deals.setdefault(k, {f.deal})
            if deal not in seen:
                seen.add(deal)
                by_deal[(k, deal)] = r
                out.append(make("S613", r.origin, r.span("Deal"), board=board, other=f.origin.line))
                continue
            f = by_deal.get((k, deal), f)
        f = reference.get((k, deal), f)
        if f.dealer != r.dealer or f.vulnerable != r.vulnerable:
            if _by_number(r) and not _by_number(f):
                # the reference copy is the one that disagrees with the board number (Law 2):
                # report it, naming this copy, which becomes the reference of the deal
                f, r = r, f
                reference[(k, deal)] = f
            d = _other_form(f, r, board)
            if d is not None and (k, deal, r.dealer, r.vulnerable) not in forms:
                forms.add((k, deal, r.dealer, r.vulnerable))
                out.append(d)
    return out


def _by_number(r: GameRecord) -> bool:
    """Whether the dealer and vulnerability of ``r`` are those of its board number (Law 2);
    ``False`` without a number, and under a Scoring of Rubber or Chicago (whose vulnerability
    is not the board number's)."""
    n = r.number
    if type(n) is not int or n < 1 or own_vulnerability(r.scoring):
        return False
    return (r.dealer is None or r.dealer == dealer_for_board(n)) and (
        r.vulnerable is None or r.vulnerable == vulnerability_for_board(n)
    )


def _other_form(f: GameRecord, r: GameRecord, board: str) -> Diagnostic | None:
    """S615 for game ``r``, whose dealer or vulnerability is not that of ``f`` (the reference
    game of its deal), or ``None`` when what differs is not known in one of them (Law 87A).
    Vulnerability in the file's words: PBN spells Both "All" (PBN 2.1 §3.4.10), as T104 does."""
    dealer = f.dealer is not None and r.dealer is not None and f.dealer != r.dealer
    vul = f.vulnerable is not None and r.vulnerable is not None and f.vulnerable != r.vulnerable
    if not dealer and not vul:
        return None
    pbn = r.origin.format == "pbn"
    r_vul = _PBN_VUL[r.vulnerable] if pbn and r.vulnerable is not None else r.vulnerable
    f_vul = _PBN_VUL[f.vulnerable] if pbn and f.vulnerable is not None else f.vulnerable
    if dealer and vul:
        detail = f"dealer {r.dealer} and vulnerability {r_vul}, not {f.dealer} and {f_vul}"
    elif dealer:
        detail = f"dealer {r.dealer}, not {f.dealer}"
    else:
        detail = f"vulnerability {r_vul}, not {f_vul}"
    code = "S615" if "S615" in CODES else None
    if code is None:  # not registered yet (handrec.diagnostics): nothing to report it with
        return None
    return make(
        code, r.origin, r.span("Dealer" if dealer else "Vulnerable"), board=board, detail=detail, other=f.origin.line
    )


def _pairs_twice(trs: Sequence[Traveller]) -> list[Diagnostic]:
    """S612 for each game of a traveller whose N-S (or E-W) pair already sat N-S (E-W) at an
    earlier table of the board (Law 15A).  Pairs are compared within a direction and a
    Section only: in a Mitchell movement N-S pair 1 and E-W pair 1 are two pairs, and each
    section numbers its own.  A side known only by one name in both seats (robots, whose
    name is the same at every table) is not compared."""
    out: list[Diagnostic] = []
    for t in trs:
        if t.played < 2:
            continue
        seen: dict[tuple[str, str, str], GameRecord] = {}
        for e in t.entries:
            r = e.record
            if r is None:
                continue
            section = r.match[0] if r.match else ""
            for direction, pair, one_name in (("N-S", e.ns, r.one_name[0]), ("E-W", e.ew, r.one_name[1])):
                if pair is None or one_name:
                    continue
                first = seen.setdefault((section, direction, pair), r)
                if first is not r:
                    board = t.board or "?"
                    out.append(
                        make(
                            "S612",
                            r.origin,
                            _GAME,
                            direction=direction,
                            pair=pair,
                            board=board,
                            other=first.origin.line,
                        )
                    )
    return out
