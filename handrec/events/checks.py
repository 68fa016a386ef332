"""Checking claimed figures: a file's ScoreMP, ScoreIMP, ScorePercentage, ScoreRubber,
ScoreTable and TotalScoreTable values against what handrec computes.

These figures compare a result with the other results of its board (or with
the deals before it in a rubber), so they can only be checked once every
board of an input has been read.  The validator streams boards; for each
input it feeds an :class:`EventChecker` with small per-board records
(:class:`handrec.events.games.GameRecord`, one replay per board, shared with the
board checks) and calls :meth:`EventChecker.finish` at the end of the input:

>>> from handrec.formats.dispatch import read
>>> import io
>>> text = '''[Event "Club"]
... [Board "1"]
... [Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]
... [Contract "4S"]
... [Declarer "N"]
... [Result "10"]
... [ScoreMP "NS 2"]
...
... [Event "Club"]
... [Board "1"]
... [Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]
... [Contract "4S"]
... [Declarer "N"]
... [Result "9"]
... '''
>>> checker = EventChecker()
>>> for board in read(io.StringIO(text)):
...     checker.add(board)
>>> [str(d) for d in checker.finish()]
[]

What is checked (each disagreement is reported at the tag or table row,
with the file's value and handrec's):

* **S603 ScoreMP**: the game's matchpoints among the games of the same board
  in the input (Event + Date + board + deal, dealer and vulnerability).  PBN
  2.1 §4.2.3 defines ScoreMP on the 2 / 1 scale (``MP1``); a Scoring tag with
  ``MP2`` asks for 1 / 0.5.
  When the Scoring tag names neither, either scale is accepted.
* **S605 ScorePercentage**: 100 * matchpoints / top (bridge-rules.md §8.3).
  For both, a value scaled by Neuberg's formula to the most-played board of
  the session is accepted too.
* **S604 ScoreIMP**: between the Open and Closed rooms of a teams match
  (bridge-rules.md §8.2); otherwise as the Scoring modifiers say: ``Butler``
  (datum: mean of all scores, or without one top and one bottom, exact or
  rounded to 10: bridge-rules.md §8.4, PBN 2.1 §3.4.12), ``Cross`` (sum of
  IMPs against every other score), ``Cross1`` (÷ number of scores),
  ``Cross2`` (÷ comparisons) (§8.5).  Plain ``IMP`` with no rooms is not
  checked (the method is unknown).
* **S606 ScoreRubber**: the above / below the line points of the deal in the
  input's sequence of Rubber (or Chicago) games, in file order
  (bridge-rules.md §5, §6).
* **S607 ScoreTable**: per row, Score_NS / Score_EW against the row's
  Contract, Declarer, Result (Law 77); Rank; MP_NS / MP_EW; Percentage_NS /
  Percentage_EW; IMP_NS / IMP_EW (Butler or Cross modifiers) against the
  table's own results (the rows, with their Multiplicity), or those of the
  largest table of the same board when this one lists a subset of it.
  A percentage that follows 100 * (MP + 1/2) / n instead (each result also
  counted as tying with itself, as the PBN 2.0 reference file does) is the
  warning S611, not S607.
* **S608 TotalScoreTable**: Mean* = Total* / NrBoards; the Rank against the
  sorted column; the percentage against TotalMP / NrBoards on the top per
  board that the other rows share; and, when the event's boards are in the
  input, NrBoards / TotalMP / TotalPercentage / TotalIMP of each pair
  against the event scored by :mod:`handrec.events.event_score` (cross-IMPs summed or divided as
  the Scoring tag's ``Cross``, ``Cross1``, ``Cross2`` say, as ``handrec score`` does).
* **S609** (warning): a claimed value that cannot be read.
* **S616**: a claimed ScorePercentage, ScoreIMP or ScoreMP that no scoring can give, checked
  on every game, a board played once included (:func:`~handrec.events.claims.impossible_claim`): a percentage
  outside 0-100, negative matchpoints; for a played result, N-S and E-W percentages that do
  not add up to 100, or IMPs that do not add up to 0.  Reported instead of S603-S605 (S609
  while :mod:`handrec.diagnostics` does not register S616).
* **S612** (warning): a pair that plays a board a second time (the same N-S,
  or E-W, pair at two tables of a traveller; Law 15A).  Checked for every
  input, with claims or not (:func:`check_pairs`).
* **S613** (warning): a fouled board (Law 87): games of one session (Event and
  session date), section, stage, round and board number played with different
  deals; once per extra deal, at its Deal tag.  Each deal's results form
  their own traveller (Law 87B: the Director scores each group apart).
* **S615** (warning): a fouled board (Law 87A): such games with the same deal
  but another dealer or vulnerability; once per extra form, at its Dealer
  (else Vulnerable) tag, naming a copy that agrees with the board number
  (Law 2) when one does.  Each form's results are a traveller of their own.
* **S614** (warning): a board given again with the same deal, in the same
  room, with neither players nor a result (a hand-record file listing a
  board twice).  S613-S615 are checked for every input, like S612.

Every comparison stays within a session: the games of one Event tag and one
session date (:func:`handrec.events.sessions.dated`, from
:func:`handrec.events.games.session_date` of the Date tag; PBN 2.1 §3.4.3,
bridge-rules.md §8.3), as ``handrec score`` groups them
(:func:`handrec.events.sessions.group_sessions`).  An event's dates, in order, are one
session until a date conflicts with the date just before it: at least two board
numbers that both dates have were played with different deals (a club's weekly
"Monday Pairs", new deals each week).  A session takes its first date: a session
that runs past midnight, with a Date on each board, is not split, a board of it
is no fouled board (S613) for being dated on both sides of midnight, and one
board played with another deal after midnight is a fouled board (S613), not a
new session.  A game without a Date tag takes its event's date when the event
has one session.  Positions are
1-based: a table row's fault is at its element (else its row, else the
table tag), a whole game's (S612, S614) at its first line, column 1.

Decimals: a claimed ``97.3`` agrees with any exact value within half a unit
of its last digit (either rounding rule).  Figures that cannot be computed
(a board played once in the input, an unknown method, an incomplete table)
are not compared, but are still checked for being possible at all (S616).

Sources: PBN 2.1 §4.2, §5.3; bridge-rules.md §4, §5, §6, §8; Law 12C2.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from handrec.diagnostics import Diagnostic, make
from handrec.events.checks_boards import _boards_twice, _pairs_twice
from handrec.events.games import GameRecord, record
from handrec.events.sessions import dated, session_dates_of
from handrec.events.spill import SPILL_RECORDS, RecordSpill
from handrec.model import Board
from handrec.rules.replay import Replay

if TYPE_CHECKING:
    from handrec.events.travellers import Traveller

__all__ = ["EventChecker", "check_event", "check_pairs"]


class EventChecker:
    """Collects the boards of one input and checks their claimed figures at the end.

    ``add(board, replay)`` once per board (pass the replay when it exists,
    to avoid a second one); ``finish()`` returns the diagnostics, sorted by
    position, and forgets the input.  Memory: one small record per board, up to
    ``bound`` records (default :data:`handrec.events.spill.SPILL_RECORDS`); past it the records
    go to a temporary database on disk and the checks run board by board
    (:mod:`handrec.events.spill`), with the same diagnostics.

    :raises ValueError: when ``bound`` is below 1.
    """

    def __init__(self, bound: int | None = None) -> None:
        self._bound = SPILL_RECORDS if bound is None else bound
        if self._bound < 1:
            raise ValueError(f"bound must be at least 1, not {self._bound}")
        self._records: list[GameRecord] = []
        self._spill: RecordSpill | None = None
        self._wanted = False
        self._whole = False  # a check needs the whole input at once (tables, a rubber's sequence)

    def add(self, board: Board, rep: Replay | None = None) -> None:
        """Record one board (``rep``: its replay, computed when not given)."""
        self.add_record(record(board, rep))

    def add_record(self, r: GameRecord) -> None:
        """Record one game already reduced by :func:`handrec.events.games.record` (in a worker process,
        say: a :class:`~handrec.events.games.GameRecord` pickles, a board need not travel)."""
        if self._spill is not None:
            self._spill.add(r)
        else:
            self._records.append(r)
            if len(self._records) > self._bound:
                self._spill = RecordSpill()
                for x in self._records:
                    self._spill.add(x)
                self._records = []
        if r.claims or r.tables:
            self._wanted = True
            self._whole = self._whole or bool(r.tables) or any(c.tag == "ScoreRubber" for c in r.claims)

    def finish(self) -> list[Diagnostic]:
        """The diagnostics of the claimed figures of the input; resets the checker."""
        recs, wanted, spill, whole = self._records, self._wanted, self._spill, self._whole
        self._records, self._wanted, self._spill, self._whole = [], False, None, False
        if spill is None:
            return check_event(recs) if wanted else check_pairs(recs)
        try:
            if whole:  # ScoreTable, TotalScoreTable, ScoreRubber: the whole input, as without a bound
                return check_event(list(spill.records()))
            return _check_groups(spill, wanted)
        finally:
            spill.close()


def _check_groups(spill: RecordSpill, wanted: bool) -> list[Diagnostic]:
    """:func:`check_event` (``wanted``), else :func:`check_pairs`, of the records in ``spill``,
    run on one group (Event, Board tag) at a time: see :mod:`handrec.events.spill`."""
    of = session_dates_of(spill.session_games())

    def groups() -> Iterator[list[GameRecord]]:
        for g in spill.groups(pairs_only=not wanted):
            if of is not None:
                g = [r if (d := of(r)) == r.date else dataclasses.replace(r, date=d) for r in g]
            yield g

    out: list[Diagnostic] = []
    if wanted:
        most: dict[tuple[str, str], int] = {}
        for g in groups():
            for k, n in _most(_travellers(g)).items():
                most[k] = max(most.get(k, 0), n)
        for g in groups():
            out.extend(_check_dated(g, _travellers(g), most))
    else:
        for g in groups():
            out.extend(_pairs_dated(g))
    return sorted(out, key=lambda d: (d.path, d.line, d.column, d.code))


def _travellers(recs: Iterable[GameRecord]) -> list[Traveller]:
    """:func:`handrec.events.travellers.travellers` of the records, without the score tables."""
    # imported here: a file whose boards are each played once builds no traveller (start-up)
    from handrec.events.travellers import travellers

    return travellers(recs, tables=False)


def _most(trs: Iterable[Traveller]) -> dict[tuple[str, str], int]:
    """The most-played board of each session (Event, date) of the travellers (Neuberg's top)."""
    most: dict[tuple[str, str], int] = {}
    for t in trs:
        if t.deal is not None or t.board:
            k = (t.event, t.date)
            most[k] = max(most.get(k, 0), t.played)
    return most


def check_event(recs: Sequence[GameRecord] | Iterable[GameRecord]) -> list[Diagnostic]:
    """Check every claimed figure of one input's records (see the module doc); sorted diagnostics."""
    rs = dated(recs)
    trs = _travellers(rs)
    out = _check_dated(rs, trs, _most(trs))
    return sorted(out, key=lambda d: (d.path, d.line, d.column, d.code))


def _check_dated(rs: list[GameRecord], trs: list[Traveller], most: dict[tuple[str, str], int]) -> list[Diagnostic]:
    """:func:`check_event` of records already :func:`dated`, their travellers and the sessions'
    most-played boards given; diagnostics not sorted."""
    # imported here: only an input that claims figures gets here, and these checks bring the
    # scoring of every method (rubber, Chicago, IMPs...), 0.03 s of a start (#23 item 4)
    from handrec.events.checks_tables import _check_tables
    from handrec.events.checks_tags import (
        _at,
        _check_imp,
        _check_mp,
        _check_percentage,
        _check_rubber,
        _Context,
        _impossible,
    )
    from handrec.events.claims import impossible_claim, parse_claim

    trav_of: dict[int, tuple[Traveller, int]] = {}
    for t in trs:
        for i, e in enumerate(t.entries):
            if e.record is not None:
                trav_of[id(e.record)] = (t, i)
    ctx = _Context(rs, trav_of, most, [])
    rubber_claims = False
    for r in rs:
        for c in r.claims:
            parts = parse_claim(c.tag, c.value)
            if parts is None:
                ctx.out.append(make("S609", r.origin, _at(r, c.span), tag=c.tag, value=c.value))
                continue
            bad = impossible_claim(c.tag, parts, played=r.score_ns is not None)
            if bad is not None:
                # a figure no scoring can give: said once, not compared with the board's results too
                ctx.out.append(_impossible(r, c.tag, c.value, c.span, bad))
                continue
            if c.tag == "ScoreMP":
                _check_mp(ctx, r, c.value, c.span, parts)
            elif c.tag == "ScorePercentage":
                _check_percentage(ctx, r, c.value, c.span, parts)
            elif c.tag == "ScoreIMP":
                _check_imp(ctx, r, c.value, c.span, parts)
            else:
                rubber_claims = True
    if rubber_claims:
        _check_rubber(ctx)
    _check_tables(ctx)
    ctx.out.extend(_pairs_twice(trs))
    ctx.out.extend(_boards_twice(rs))
    return ctx.out


def check_pairs(recs: Sequence[GameRecord]) -> list[Diagnostic]:
    """S612 for a pair that plays a board a second time, S613 for a fouled board, S614 for a
    board given twice (part of :func:`check_event`, which also checks the claimed figures);
    sorted diagnostics."""
    if len(recs) < 2:
        return []
    out = _pairs_dated(dated(recs))
    return sorted(out, key=lambda d: (d.path, d.line, d.column, d.code)) if out else []


def _pairs_dated(recs: list[GameRecord]) -> list[Diagnostic]:
    """:func:`check_pairs` of records already :func:`dated`; diagnostics not sorted."""
    if len(recs) < 2:
        return []
    out = _boards_twice(recs)
    # only boards played more than once can have a pair playing them twice: their
    # travellers alone are built (a file of single games builds none)
    keys = [r.key for r in recs]
    again = {k for k, n in Counter(keys).items() if n > 1 and k is not None}
    if again:
        out.extend(_pairs_twice(_travellers([r for r, k in zip(recs, keys) if k in again])))
    return out
