"""Rubber, Chicago and minibridge: the boards of one file, in file order, scored as one session.

:func:`score_sessions` scores each file's deals with :mod:`handrec.scoring.rubber`
(consecutive rubbers), :mod:`handrec.scoring.chicago` (rounds of four deals) or
:mod:`handrec.scoring.minibridge`; :func:`deal_result` turns a game into the
:class:`~handrec.scoring.rubber.DealResult` those scorers take (also for the ScoreRubber
check, :mod:`handrec.events.checks_tags`).

Sources: bridge-rules.md §5 (rubber), §6 (Chicago), §7 (minibridge).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

from handrec.events.games import GameRecord
from handrec.events.methods import Method
from handrec.events.results import EventScore, Ranking, RankRow, Session, SessionDeal
from handrec.model import Contract, Deal, ModelError, Seat, Side, Strain
from handrec.scoring.chicago import score_chicago
from handrec.scoring.minibridge import MinibridgeRules, MiniContract, MiniKind, minibridge_score
from handrec.scoring.rubber import DealResult, Scoresheet, score_rubber
from handrec.scoring.traveller import rank_totals

__all__ = ["deal_result", "score_sessions"]


def deal_result(r: GameRecord) -> DealResult | None:
    """The rubber / Chicago :class:`~handrec.scoring.rubber.DealResult` of a game; ``None``
    without a contract and result.

    Honors are taken from the deal when it is complete (bridge-rules.md §5.9).
    """
    c = r.contract
    if c is None:
        return None
    if c.is_passed_out:
        return DealResult.passed_out()
    if c.declarer is None or r.tricks is None:
        return None
    deal: Deal | None = None
    if r.deal is not None:
        try:
            d = Deal.parse(r.deal)
            deal = d if d.is_complete else None
        except ModelError:
            deal = None
    return DealResult(c, r.tricks, deal=deal)


def _mini_contract(c: Contract) -> MiniContract | None:
    """The minibridge contract a bridge contract stands for: level 1 a partscore, the game
    level of its strain (3NT, 4H/4S, 5C/5D) a game, level 6 a slam; else ``None``."""
    if c.doubling or c.strain is None or not c.level:
        return None
    if c.level == 1:
        return MiniContract(MiniKind.PARTSCORE, c.strain)
    game = 3 if c.strain is Strain.NOTRUMP else 4 if c.strain >= Strain.HEARTS else 5
    if c.level == game:
        return MiniContract(MiniKind.GAME, c.strain)
    if c.level == 6:
        return MiniContract(MiniKind.SLAM, c.strain)
    return None


def _same(names: Iterable[str | None]) -> str | None:
    s = {n for n in names}
    return next(iter(s)) if len(s) == 1 else None


def score_sessions(recs: Sequence[GameRecord], method: Method) -> list[EventScore]:
    """Score each file's boards, in file order, as one rubber / Chicago / minibridge session.

    Rubber: consecutive rubbers (a new one starts after a side wins two
    games); the last one, if unfinished when the file ends, gets the
    unfinished-rubber bonuses (bridge-rules.md §5.8); honors from the deal
    when it is complete; vulnerability from games won, not the Vulnerable
    tag (§5.5).  Chicago: rounds of four counted deals, standard
    vulnerability (§6.2), no honors.  Minibridge: a contract at level 1 is a
    partscore, at the game level of its strain a game, at level 6 a slam
    (bonus 800, §7.11); other contracts are skipped (§7.7-7.9).  The first
    dealer is the first board's.  Boards without a contract and result are
    skipped with a note.
    """
    by_path: dict[str, list[GameRecord]] = {}
    for r in recs:
        by_path.setdefault(r.origin.path, []).append(r)
    out: list[EventScore] = []
    for path, rs in by_path.items():
        notes: list[str] = []
        usable: list[tuple[GameRecord, DealResult]] = []
        for r in rs:
            dr = deal_result(r)
            if dr is None:
                notes.append(f"board {r.board or '?'} (line {r.origin.line}): no contract and result, skipped")
            else:
                usable.append((r, dr))
        first_dealer = next((r.dealer for r, _ in usable if r.dealer is not None), Seat.NORTH)
        deals: list[SessionDeal] = []
        sheets: list[Scoresheet] = []
        if method is Method.RUBBER:
            _rubbers(usable, first_dealer, deals, sheets)
            total_ns = sum(s.total(Side.NS) for s in sheets)
            total_ew = sum(s.total(Side.EW) for s in sheets)
        elif method is Method.CHICAGO:
            res = score_chicago([dr for _, dr in usable], first_dealer=first_dealer)
            for (r, dr), d in zip(usable, res.deals):
                below = d.below
                note = "" if d.counted else "passed out: redealt"
                if d.game is not None:
                    note = f"game {d.game}"
                elif d.fourth_deal_bonus:
                    note = "deal-4 partscore bonus"
                deals.append(
                    SessionDeal(
                        d.round,
                        d.number,
                        r.board,
                        str(dr.contract),
                        "" if dr.contract.declarer is None else str(dr.contract.declarer),
                        None if dr.is_passed_out else dr.tricks,
                        str(d.vulnerability),
                        d.points[0],
                        d.points[1],
                        below[0],
                        below[1],
                        note,
                    )
                )
            total_ns, total_ew = res.points
        else:
            total_ns = total_ew = 0
            rules = MinibridgeRules(slam_bonus=800)
            for r, dr in usable:
                c = dr.contract
                mini = None if c.is_passed_out else _mini_contract(c)
                side = dr.declaring_side
                if mini is None or side is None:
                    notes.append(f"board {r.board or '?'}: {c} is not a minibridge contract, skipped")
                    continue
                s = minibridge_score(mini, dr.tricks, rules)
                ns, ew = s.points_for(side)
                total_ns += ns
                total_ew += ew
                deals.append(
                    SessionDeal(
                        1,
                        len(deals) + 1,
                        r.board,
                        str(c),
                        str(c.declarer),
                        dr.tricks,
                        "-",
                        ns,
                        ew,
                        note=f"{mini}: target {mini.target}",
                    )
                )
        session = Session(
            path,
            tuple(deals),
            total_ns,
            total_ew,
            tuple(sheets),
            _same(r.ns for r, _ in usable),
            _same(r.ew for r, _ in usable),
        )
        rows = []
        for lab, side, v in rank_totals({"NS": Fraction(total_ns), "EW": Fraction(total_ew)}):
            name = session.ns_name if side == "NS" else session.ew_name
            rows.append(RankRow(lab, side if not name else f"{side} ({name})", len(deals), v))
        out.append(
            EventScore(method, path, session=session, rankings=(Ranking("sides", tuple(rows)),), notes=tuple(notes))
        )
    return out


def _rubbers(
    usable: list[tuple[GameRecord, DealResult]],
    first_dealer: Seat,
    deals: list[SessionDeal],
    sheets: list[Scoresheet],
) -> None:
    """Split the deals into consecutive rubbers and score each (bridge-rules.md §5)."""
    dealer = first_dealer
    i = 0
    number = 0
    while i < len(usable):
        number += 1
        chunk: list[tuple[GameRecord, DealResult]] = []
        sheet = score_rubber([], first_dealer=dealer)
        while i < len(usable):
            chunk.append(usable[i])
            i += 1
            sheet = score_rubber([d for _, d in chunk], first_dealer=dealer)
            if sheet.finished:
                break
        if not sheet.finished:
            sheet = score_rubber([d for _, d in chunk], first_dealer=dealer, stopped=True)
        sheets.append(sheet)
        for (r, dr), rd in zip(chunk, sheet.deals):
            pts = [0, 0]
            below = [0, 0]
            for e in rd.entries:
                pts[e.side] += e.points
                if e.below:
                    below[e.side] += e.points
            vul = "-" if rd.vulnerable is None else ("V" if rd.vulnerable else "NV")
            deals.append(
                SessionDeal(
                    number,
                    rd.number,
                    r.board,
                    str(dr.contract),
                    "" if dr.contract.declarer is None else str(dr.contract.declarer),
                    None if dr.is_passed_out else dr.tricks,
                    vul,
                    pts[0],
                    pts[1],
                    below[0],
                    below[1],
                    "" if rd.game is None else f"game {rd.game}",
                )
            )
        dealer = sheet.next_dealer
