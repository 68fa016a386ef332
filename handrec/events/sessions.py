"""The session rule: which games of an event are one session (compared and ranked together).

A session is the games of one Event tag and one session date.  :func:`dated` gives each
game its session's date: within one event (its Event tag, else its file) a date starts a
new session only when at least two board numbers that it shares with the date just before
it were played with other deals (a club's weekly "Monday Pairs", new deals each week); a
session that runs past midnight stays one.  :func:`group_sessions` names the sessions in
order of first appearance.  ``handrec score`` (:mod:`handrec.events.event_score`), the
event checks (:mod:`handrec.events.checks`) and the SQL views of
:mod:`handrec.dataset.query` all group by this rule; a game's date itself comes from its
Date tag (:func:`handrec.events.games.session_date`).

Sources: PBN 2.1 §3.4.1-3.4.3 (Event, Site, Date); bridge-rules.md §8.3 (results are
compared within a session).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable

from handrec.events.games import GameRecord

__all__ = ["dated", "group_sessions"]


def _event_name(r: GameRecord) -> str:
    """The event of a game: its Event tag, else its file (``<path> (no Event tag)``)."""
    return r.event or f"{r.origin.path} (no Event tag)"


def dated(recs: Iterable[GameRecord]) -> list[GameRecord]:
    """The records, each game given its session's date (PBN 2.1 §3.4.3 Date; bridge-rules.md
    §8.3: results are compared within a session).

    Within one event (its Event tag, else its file), take the event's distinct known dates
    in order: a date joins the session of the date just before it unless the two conflict,
    that is at least two board numbers (the number, else the Board tag's text) that both
    dates have were played with different deals on the two dates.  A fouled board is one
    board: a session that runs past midnight, its Date written on each board (BBO exports),
    stays one even when a board of it was played with another deal after midnight; a new
    week of a club's weekly "Monday Pairs" reuses all the board numbers with new deals: a
    session of its own.  Sessions are numbered by the running count of conflicts in date
    order; a session's date is its first date.  A game without a Date tag takes the date of
    its event's session when the event has exactly one, else it stays undated (an unknown
    date says nothing): a session of its own (:func:`group_sessions`).  The SQL views of
    :mod:`handrec.dataset.query` apply the same rule.  Records are copied only when their date
    changes, so the function is idempotent and keeps the order.
    """
    rs = list(recs)
    of = session_dates(rs)
    if of is None:
        return rs
    out: list[GameRecord] = []
    for r in rs:
        date = of(r)
        out.append(r if date == r.date else dataclasses.replace(r, date=date))
    return out


def session_dates(recs: Iterable[GameRecord]) -> Callable[[GameRecord], str] | None:
    """The session date of each game, as :func:`dated` sets it, from one pass over ``recs``.

    Returns a function of a game (one of ``recs``, or any game of the same events) giving its
    session date, or ``None`` when every game keeps its own date.
    """
    return session_dates_of((_event_name(r), r.date, r.board, r.deal) for r in recs)


def session_dates_of(
    games: Iterable[tuple[str, str, str, str | None]],
) -> Callable[[GameRecord], str] | None:
    """:func:`session_dates` from ``(event name, date, board, deal)`` of each game (any
    repeats may be left out, as ``select distinct`` does; an undated game needs one row).
    Memory: those tuples, not the games (the records of a big input stay on disk:
    :mod:`handrec.events.spill`)."""
    known: dict[str, set[str]] = {}
    undated = False
    # per event, per date and per board: its deals (used for the events of several dates)
    deals: dict[str, dict[str, dict[str, set[str]]]] = {}
    for name, date, board, deal in games:
        if date:
            known.setdefault(name, set()).add(date)
            if board and deal is not None:
                deals.setdefault(name, {}).setdefault(date, {}).setdefault(board, set()).add(deal)
        else:
            undated = True
    several = {name for name, d in known.items() if len(d) > 1}
    if not known or (not undated and not several):
        return None
    # the session date of each known date of each event, and the events of one session
    date_of: dict[tuple[str, str], str] = {}
    one: dict[str, str] = {}
    for name, ds in known.items():
        order = sorted(ds)
        boards = deals.get(name, {}) if name in several else {}
        first = order[0]
        split = False
        for prev, date in zip([None, *order], order):
            if prev is not None and _conflict(boards.get(prev, {}), boards.get(date, {})):
                first, split = date, True
            date_of[name, date] = first
        if not split:
            one[name] = order[0]

    def of(r: GameRecord) -> str:
        name = _event_name(r)
        return date_of.get((name, r.date), r.date) if r.date else one.get(name, r.date)

    return of


def _conflict(before: dict[str, set[str]], after: dict[str, set[str]]) -> bool:
    """Whether two dates of an event are sessions apart (:func:`dated`): at least two board
    numbers that both dates have were played with different deals on the two dates (some deal
    of one date differs from some deal of the other)."""
    n = 0
    for board, ds in after.items():
        other = before.get(board)
        if other and any(a != b for a in ds for b in other):
            n += 1
            if n >= 2:
                return True
    return False


def group_sessions(recs: Iterable[GameRecord]) -> list[tuple[str, list[GameRecord]]]:
    """The sessions of the records, in order of first appearance, each with its name.

    A session is the games of one Event tag and one session date (:func:`dated`; PBN 2.1
    §3.4.1-3.4.3, bridge-rules.md §8.3): an event's dates, in order, are one session until a
    date conflicts with the date just before it (at least two board numbers that both dates
    have were played with different deals).  A club's weekly "Monday Pairs" files, new deals
    each week, are as many sessions, each scored and ranked on its own; a session that runs
    past midnight with a Date on each board is one, even with one fouled board after
    midnight.  Games without an Event tag form one event per file, named ``<path> (no Event
    tag)`` (they are never compared across files).  The name is the event's when the event
    has one session; else each session's name adds its (first) date: ``Monday Pairs
    (2026.01.05)`` (``(no Date tag)`` for games without one, when :func:`dated` cannot tell
    their date).
    Sections, stages and rounds stay within a session: their boards are told apart by
    their deals (:func:`~handrec.events.travellers.travellers`), teams matches by Section, Stage and Round
    (:func:`~handrec.events.teams.score_teams`).
    """
    groups: dict[tuple[str, str], list[GameRecord]] = {}
    for r in dated(recs):
        groups.setdefault((_event_name(r), r.date), []).append(r)
    dates: dict[str, int] = {}
    for name, _ in groups:
        dates[name] = dates.get(name, 0) + 1
    return [
        (name if dates[name] == 1 else f"{name} ({date or 'no Date tag'})", group)
        for (name, date), group in groups.items()
    ]
