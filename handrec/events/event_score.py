"""Scoring an event (``handrec score``): every session of the records, each with its method.

:func:`score_event` groups the records into sessions (the session rule,
:mod:`handrec.events.sessions`), takes each session's method from ``--method`` or from its
tags (:mod:`handrec.events.methods`), and scores it: pairs (:mod:`handrec.events.pairs`),
teams (:mod:`handrec.events.teams`), or each file as a rubber, Chicago or minibridge
session (:mod:`handrec.events.rubber_chicago`).  The answer is one
:class:`~handrec.events.results.EventScore` a session or file, printed by
:mod:`handrec.events.report`.

Sources: bridge-rules.md §5-§8; PBN 2.1 §3.4 (Event, Date, Scoring).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from handrec.events.games import GameRecord
from handrec.events.methods import Cross, Method, cross_for, method_for
from handrec.events.pairs import _split_board_notes, score_pairs
from handrec.events.results import EventScore
from handrec.events.rubber_chicago import score_sessions
from handrec.events.sessions import dated, group_sessions
from handrec.events.teams import score_teams
from handrec.events.travellers import travellers, unranked_notes
from handrec.rules.faults import CLEAN, RANKED

__all__ = ["score_event"]


def score_event(
    recs: Iterable[GameRecord],
    method: Method | None,
    *,
    neuberg: bool = True,
    cross: Cross | None = None,
    every_result: bool = False,
) -> list[EventScore]:
    """Score all records with ``method``: one :class:`~handrec.events.results.EventScore` per session (pairs and teams,
    grouped by Event and session date as :func:`~handrec.events.sessions.group_sessions` names them, in order of
    first appearance; games without an Event tag form one event per file, named by its
    path) or per file (rubber, Chicago, minibridge).

    ``method`` None: each event (each file for a session scoring) with the method its
    tags ask for (:func:`~handrec.events.methods.method_for`), cross-IMPs divided as its Scoring tags say
    (:func:`~handrec.events.methods.cross_for`).  ``cross``: how cross-IMPs are divided; ``None``: as the tags say
    when ``method`` is None, else by the comparisons (bridge-rules.md §8.5).

    Only results that are clean or that the Laws give are compared and ranked (issue #18;
    :attr:`GameRecord.ranked <handrec.events.games.GameRecord.ranked>`), the others listed with
    a note; ``every_result`` compares every result with a score, as a scoring file's own figures
    do (an export that writes figures for every line: :mod:`handrec.events.usebio`)."""
    rs = list(recs)
    if every_result:
        rs = [
            r if r.status in RANKED and r.result_status in RANKED else replace(r, status=CLEAN, result_status=CLEAN)
            for r in rs
        ]
    if method is None:
        by_file: dict[str, list[GameRecord]] = {}
        for r in rs:
            by_file.setdefault(r.origin.path, []).append(r)
        sessions = {path: m for path, f in by_file.items() if (m := method_for(f)).is_session}
        # in order of first appearance: each file scored as a rubber / Chicago / minibridge
        # session, and each session of the other games (teams or pairs, as its tags say)
        played = [i for i, r in enumerate(rs) if r.origin.path not in sessions]
        ds = dated([rs[i] for i in played])
        at = {id(r): i for r, i in zip(ds, played)}
        order: list[tuple[int, str, str, list[GameRecord]]] = [
            (at[id(group[0])], "event", name, group) for name, group in group_sessions(ds)
        ]
        files: dict[str, tuple[int, list[GameRecord]]] = {}
        for i, r in enumerate(rs):
            if r.origin.path in sessions:
                files.setdefault(r.origin.path, (i, []))[1].append(r)
        order += [(i, "file", path, group) for path, (i, group) in files.items()]
        out: list[EventScore] = []
        for _, kind, name, group in sorted(order, key=lambda x: x[0]):
            if kind == "file":
                out.extend(score_sessions(group, sessions[name]))
            else:
                m = method_for(group)
                if m.is_session:  # an event of the file scored as rubber / Chicago / minibridge, the rest not
                    out.extend(score_sessions(group, m))
                    continue
                c = cross if cross is not None else cross_for(group) if m is Method.CROSS_IMP else None
                out.extend(_score_session(name, group, m, neuberg, c))
        return out
    method = Method(method)
    if method.is_session:
        return score_sessions(rs, method)
    out = []
    for name, ev in group_sessions(rs):
        out.extend(_score_session(name, ev, method, neuberg, cross))
    return out


def _score_session(
    name: str, ev: list[GameRecord], method: Method, neuberg: bool, cross: Cross | None = None
) -> list[EventScore]:
    """One session (:func:`~handrec.events.sessions.group_sessions`) scored with a pairs or teams ``method`` (cross-IMPs
    divided as ``cross`` says, by the comparisons when ``None``)."""
    if method is Method.IMP:
        boards, rankings, notes = score_teams(ev)
        return [EventScore(method, name, team_boards=tuple(boards), rankings=tuple(rankings), notes=tuple(notes))]
    every = travellers(ev, ranked_only=True)
    trs = [t for t in every if t.size > 0]
    scored_boards = {t.board for t in trs}
    no_result = tuple(
        dict.fromkeys(
            f"{t.board or '?'}{' (another deal)' if t.board in scored_boards else ''}" for t in every if t.size == 0
        )
    )
    c = (cross or Cross.COMPARISONS) if method is Method.CROSS_IMP else None
    scored, rankings, notes = score_pairs(trs, method, neuberg=neuberg, cross=c or Cross.COMPARISONS)
    notes[:0] = _split_board_notes(trs)  # why a board number has several travellers
    tabled = {(t.event, t.board) for t in every if t.source == "ScoreTable"}  # their games are not compared
    notes.extend(unranked_notes(r for r in ev if (r.event, r.board) not in tabled))
    if not trs:
        notes.append("no board with a result")
    return [
        EventScore(
            method,
            name,
            travellers=tuple(scored),
            rankings=tuple(rankings),
            notes=tuple(notes),
            cross=c,
            no_result=no_result,
        )
    ]
