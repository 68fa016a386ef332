"""The game records of one big input kept on disk, and its event checks run board by board.

:class:`~handrec.events.checks.EventChecker` keeps one
:class:`~handrec.events.games.GameRecord` per board (about 1 KB) until the end of the input,
where the claimed figures are checked against the other results of each board.  Past a
bound (:data:`SPILL_RECORDS`), the records go to a private temporary SQLite database
instead (the standard library's ``sqlite3``; the file is SQLite's own temporary file, deleted
when the connection closes and never seen by another process), so that ``handrec validate``
of a file of ten million boards needs no more memory than one of fifty thousand (issue #22).

At the end, the checks run on one group of records at a time: the games of one Event (else
file) and one Board tag text.  Every check that compares games compares games of one board
(a traveller, the Open and Closed rooms of a teams match, a fouled or repeated board, a pair
playing a board twice: :mod:`handrec.events.checks`), so the groups give the same
diagnostics as one pass over all the records.  Two figures are of a whole session, and are
computed first, in a pass over all the records that keeps only small sets: the session
dates (:func:`handrec.events.sessions.session_dates`) and the most-played board of each
session (Neuberg's scaling of S603 and S605).  Two checks need the whole input and are run
on it whole, as without the bound: ScoreTable and TotalScoreTable (S607, S608: a table
lists the event), and the ScoreRubber sequence (S606: a rubber is the deals in file order).

Memory: the largest group (one board's games in one event), the session figures, and
SQLite's page cache (:data:`_CACHE_KIB`).  Disk: about 400 bytes a board.
"""

from __future__ import annotations

import itertools
import pickle
from collections.abc import Iterator
from typing import Any

from handrec.events.checks_boards import used_by_pair_checks
from handrec.events.games import GameRecord
from handrec.events.sessions import _event_name

__all__ = ["SPILL_RECORDS", "RecordSpill"]

#: Records an :class:`~handrec.events.checks.EventChecker` keeps in memory before it spills
#: them all to disk (about 50 MB of records).
SPILL_RECORDS = 50_000
#: SQLite's page cache for the spill, in KiB (negative ``cache_size`` is KiB: SQLite docs).
_CACHE_KIB = 16 * 1024
#: Records inserted at once.
_BATCH = 4096


class RecordSpill:
    """The game records of one input in a private temporary SQLite database, in input order.

    ``add(r)`` appends one record; :meth:`groups` yields the records of each group (Event
    else file, Board tag text), groups in order of first appearance, records in input order
    within each; :meth:`records` yields them all in input order; :meth:`close` deletes the
    database (also done by the garbage collector, and by SQLite when the process ends).
    """

    def __init__(self) -> None:
        import sqlite3  # here: only an input past SPILL_RECORDS boards spills (start-up, #23 item 4)

        # "" is a private temporary database on disk, deleted when closed (SQLite docs,
        # "Temporary Databases"): nothing to clean up after a crash either.
        self._db = sqlite3.connect("", isolation_level=None, check_same_thread=False)
        self._db.execute(f"pragma cache_size=-{_CACHE_KIB}")
        self._db.execute("pragma journal_mode=off")
        self._db.execute("pragma synchronous=off")
        self._db.execute(
            "create table r (grp integer not null, seq integer primary key, name text, date text, board text,"
            " deal text, pairs integer, blob blob not null)"
        )
        self._group: dict[tuple[str, str], int] = {}
        self._rows: list[tuple[Any, ...]] = []
        self.count = 0

    def add(self, r: GameRecord) -> None:
        """Append ``r`` (its group from its Event, else file, and its Board tag text)."""
        name = _event_name(r)
        key = (name, r.board)
        g = self._group.get(key)
        if g is None:
            g = self._group[key] = len(self._group)
        pairs = used_by_pair_checks(r)
        self._rows.append(
            (g, self.count, name, r.date, r.board, r.deal, pairs, pickle.dumps(r, pickle.HIGHEST_PROTOCOL))
        )
        self.count += 1
        if len(self._rows) >= _BATCH:
            self._flush()

    def _flush(self) -> None:
        if self._rows:
            self._db.execute("begin")
            self._db.executemany("insert into r values (?, ?, ?, ?, ?, ?, ?, ?)", self._rows)
            self._db.execute("commit")
            self._rows = []

    def records(self) -> Iterator[GameRecord]:
        """Every record, in input order."""
        self._flush()
        for (blob,) in self._db.execute("select blob from r order by seq"):
            yield pickle.loads(blob)

    def session_games(self) -> Iterator[tuple[str, str, str, str | None]]:
        """The distinct ``(event name, date, board, deal)`` of the records, in no order, one
        row for the undated (what :func:`handrec.events.sessions.session_dates_of` needs)."""
        self._flush()
        yield from self._db.execute("select distinct name, date, board, deal from r where date != ''")
        yield from self._db.execute("select name, date, board, deal from r where date = '' limit 1")

    def groups(self, pairs_only: bool = False) -> Iterator[list[GameRecord]]:
        """The records of each group, groups in order of first appearance, each in input order;
        with ``pairs_only``, only the records that the checks of an input without claimed
        figures can use (:func:`handrec.events.checks_boards.used_by_pair_checks`)."""
        self._flush()
        self._db.execute("create index if not exists r_grp on r (grp, seq)")
        where = " where pairs" if pairs_only else ""
        rows = self._db.execute(f"select grp, blob from r{where} order by grp, seq")
        for _, blobs in itertools.groupby(rows, key=lambda row: row[0]):
            yield [pickle.loads(blob) for _, blob in blobs]

    def close(self) -> None:
        """Delete the database."""
        self._rows = []
        self._db.close()
