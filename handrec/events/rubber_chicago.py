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
from handrec.rules.faults import RANKED
from handrec.scoring.chicago import ChicagoScheme, chicago_vulnerability, score_chicago
from handrec.scoring.minibridge import (
    Declaring,
    MinibridgeRules,
    MiniContract,
    MiniKind,
    RecountError,
    announced_hcp,
    choose_declarer,
    minibridge_score,
)
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


def _mini_contract(c: Contract, rules: MinibridgeRules = MinibridgeRules()) -> MiniContract | None:
    """The minibridge contract a bridge contract stands for: level 1 a partscore, the game
    level of its strain (3NT, 4H/4S, 5C/5D) a game, level 6 a slam when ``rules`` have the
    slam variant (standard minibridge has none, bridge-rules.md §7.11); else ``None``."""
    if c.doubling or c.strain is None or not c.level:
        return None
    if c.level == 1:
        return MiniContract(MiniKind.PARTSCORE, c.strain)
    game = 3 if c.strain is Strain.NOTRUMP else 4 if c.strain >= Strain.HEARTS else 5
    if c.level == game:
        return MiniContract(MiniKind.GAME, c.strain)
    if c.level == 6 and rules.slam_bonus is not None:
        return MiniContract(MiniKind.SLAM, c.strain)
    return None


def _mini_declarer(r: GameRecord, c: Contract, dealer: Seat) -> str | None:
    """Why a minibridge board is not scored by who declared (bridge-rules.md §7.4-7.5): the
    pairs hold 20 HCP each (the same dealer deals again), or declarer is not the stronger
    hand of the stronger pair; ``None`` when it is, or when the deal is not known."""
    if r.deal is None:
        return None
    try:
        deal = Deal.parse(r.deal)
        if not deal.is_complete:
            return None
        hcp = announced_hcp(deal)
        who = choose_declarer(hcp, r.dealer if r.dealer is not None else dealer)
    except (ModelError, RecountError, ValueError):
        return None
    if not isinstance(who, Declaring):
        return "the pairs hold 20 HCP each: the same dealer deals again (bridge-rules.md §7.5), not scored"
    if who.declarer == c.declarer:
        return None
    a, b = who.side.seats
    return (
        f"declared by {c.declarer}, but {who.declarer} declares in minibridge ({who.side} {who.side_hcp} HCP,"
        f" {a} {hcp[a]} and {b} {hcp[b]}: bridge-rules.md §7.5), not scored"
    )


def _chicago_scheme(usable: list[tuple[GameRecord, DealResult]], first_dealer: Seat) -> tuple[ChicagoScheme, str]:
    """The Chicago vulnerability scheme the file's Vulnerable tags follow (bridge-rules.md §6.2)
    and a note: the standard when they agree with it (or give none), the club variant when
    they all agree with that, else the standard with a note naming the deals whose tag fits
    neither (the score does not follow them)."""
    res = score_chicago([dr for _, dr in usable], first_dealer=first_dealer)
    tagged = [(r, d) for (r, _), d in zip(usable, res.deals) if r.vul_tag and r.vulnerable is not None]
    if all(r.vulnerable == d.vulnerability for r, d in tagged):
        return ChicagoScheme.STANDARD, ""
    n = 0  # the counted deal each game is (a passed-out deal keeps the number of its redeal)
    club = True
    for r, d in tagged:
        n = (d.round - 1) * 4 + d.number
        if r.vulnerable != chicago_vulnerability(n, d.dealer, ChicagoScheme.CLUB):
            club = False
            break
    if club:
        return ChicagoScheme.CLUB, (
            "scored with the club variant's vulnerability (deals 2 and 3: the non-dealer's side,"
            " bridge-rules.md §6.2), which the Vulnerable tags follow"
        )
    wrong = ", ".join(dict.fromkeys(r.board or "?" for r, d in tagged if r.vulnerable != d.vulnerability))
    return ChicagoScheme.STANDARD, (
        f"the Vulnerable tags of boards {wrong} follow neither Chicago scheme (bridge-rules.md §6.2):"
        " scored with the standard vulnerability, not the tags'"
    )


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
    vulnerability (§6.2), or the club variant's when the file's Vulnerable tags
    follow it (a note says so, and one names the tags that follow neither), no
    honors.  Minibridge (standard EBU/ACBL rules): a contract at level 1 is a
    partscore, at the game level of its strain a game; others (a slam among them:
    standard minibridge has none, §7.11) are skipped (§7.7-7.9), and so is a board
    dealt 20-20 (redealt, §7.5) or declared by another hand than the stronger one
    of the stronger pair (§7.5), with a note.  The first dealer is the first
    board's.  Boards without a contract and result are skipped with a note, and
    so are those whose contract or result stands on a faulty record (issue #18:
    only clean results and those the Laws give are scored).
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
            elif r.result_status not in RANKED:
                notes.append(
                    f"board {r.board or '?'} (line {r.origin.line}): its result stands on a faulty record"
                    f" ({', '.join(r.faults) or 'no error'}; result {r.result_status}), skipped"
                )
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
            scheme, why = _chicago_scheme(usable, first_dealer)
            if why:
                notes.append(why)
            res = score_chicago([dr for _, dr in usable], first_dealer=first_dealer, scheme=scheme)
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
            rules = MinibridgeRules()  # standard: no slam (bridge-rules.md §7.11, §12 item 15)
            for r, dr in usable:
                c = dr.contract
                mini = None if c.is_passed_out else _mini_contract(c, rules)
                side = dr.declaring_side
                if mini is None or side is None:
                    notes.append(f"board {r.board or '?'}: {c} is not a minibridge contract, skipped")
                    continue
                why_not = _mini_declarer(r, c, first_dealer)
                if why_not is not None:
                    notes.append(f"board {r.board or '?'}: {why_not}")
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
