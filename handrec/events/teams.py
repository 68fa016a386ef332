"""Teams matches: IMPs between the Open and Closed rooms of each board, and the teams ranked.

A match is Section + Stage + Round + HomeTeam + VisitTeam (:func:`score_teams`); the home
team sits N-S in the Open room.

Sources: bridge-rules.md §8.2; PBN 2.1 §4.1.7 (Room), §4.4 (HomeTeam, VisitTeam); Law 87
(fouled boards).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from handrec.events.games import GameRecord
from handrec.events.results import Ranking, RankRow, TeamBoard
from handrec.events.travellers import _game_entry
from handrec.scoring.traveller import rank_totals, teams_imps

__all__ = ["score_teams"]


def score_teams(recs: Sequence[GameRecord]) -> tuple[list[TeamBoard], list[Ranking], list[str]]:
    """IMPs between the Open and Closed rooms of each teams match, and team totals.

    A match is Section + Stage + Round + HomeTeam + VisitTeam; a board of it
    is scored when exactly one Open-room and one Closed-room result with a
    score exist.  The home team sits N-S in the Open room (see
    :class:`~handrec.events.results.TeamBoard`); without team names the teams are ``Home`` (N-S in
    the Open room) and ``Visit``.  Ranking: by net IMPs (won - lost).

    Source: bridge-rules.md §8.2; PBN 2.1 §4.1.7 (Room), §4.4 (HomeTeam, VisitTeam).
    """
    rooms: dict[tuple[tuple[str, ...], tuple[object, ...] | None], dict[str, list[GameRecord]]] = {}
    deals: dict[tuple[object, ...], set[tuple[object, ...]]] = {}  # the forms of each board of a match
    for r in recs:
        if r.room not in ("Open", "Closed") or r.key is None:
            continue
        rooms.setdefault((r.match, r.key), {}).setdefault(r.room, []).append(r)
        if r.deal is not None:
            deals.setdefault((r.match, r.event, r.date, r.board), set()).add((r.deal, r.dealer, r.vulnerable))
    out: list[TeamBoard] = []
    notes: list[str] = []
    won: dict[str, Fraction] = {}
    lost: dict[str, Fraction] = {}
    played: dict[str, int] = {}
    for (match, key), by_room in rooms.items():
        o, c = by_room.get("Open", []), by_room.get("Closed", [])
        board = str(key[2]) if key else "?"
        if len(o) != 1 or len(c) != 1:
            why = ""
            forms = deals.get((match, key[0], key[1], key[2]), set()) if key is not None else set()
            if len({f[0] for f in forms}) > 1:
                why = " (the rooms played different deals: a fouled board, Law 87)"
            elif len(forms) > 1:
                why = " (the rooms played another dealer or vulnerability: a fouled board, Law 87A)"
            notes.append(f"board {board}: {len(o)} Open and {len(c)} Closed results, not a pair of rooms{why}")
            continue
        if not o[0].ranked or not c[0].ranked:
            # issue #18: a score that stands on a faulty record is not compared
            bad = o[0] if not o[0].ranked else c[0]
            room = "the Open" if bad is o[0] else "the Closed"
            if bad.score_ns is None:
                notes.append(f"board {board}: no score in {room} room")
            else:
                notes.append(
                    f"board {board}: the score in {room} room is not ranked: it stands on a faulty record"
                    f" ({', '.join(bad.faults) or 'no error'}; score {bad.status})"
                )
            continue
        v = teams_imps(o[0].score_ns, c[0].score_ns)
        out.append(TeamBoard(match, board, _game_entry(o[0]), _game_entry(c[0]), v))
        home = match[3] if len(match) > 3 and match[3] else "Home"
        visit = match[4] if len(match) > 4 and match[4] else "Visit"
        for team, plus in ((home, v), (visit, -v)):
            won[team] = won.get(team, Fraction(0)) + max(plus, 0)
            lost[team] = lost.get(team, Fraction(0)) + max(-plus, 0)
            played[team] = played.get(team, 0) + 1
    if not out and not notes:
        notes.append("no teams match found (games with Room Open and Closed)")
    net = {t: won[t] - lost[t] for t in won}
    rows = tuple(RankRow(lab, t, played[t], won[t], against=lost[t]) for lab, t, _ in rank_totals(net))
    return out, ([Ranking("teams", rows)] if rows else []), notes
