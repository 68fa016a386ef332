"""The persistent double-dummy cache: one SQLite database shared by every command and process.

A deal is solved once, ever: ``validate --dd``, ``booklet --dd`` and
``convert --dd`` look every deal up here first and add what they solve.
The database (:data:`CACHE_FILE` in the cache folder, by default
``~/.cache/handrec``; ``$HANDREC_DD_CACHE`` chooses the folder) holds:

* ``tables(deal, tricks)``: the deal's canonical text (``str(Deal)``: North
  first, each suit high to low) and its table as ``DoubleDummyTricks`` hex
  (:meth:`handrec.dd.table.DDTable.to_hex`);
* ``leads(deal, strain, declarer, tricks)``: declarer's tricks after each
  opening lead (:func:`handrec.dd.engine.solve_leads`), strain and declarer
  as handrec's enum values;
* ``meta(key, value)``: the format version and the old caches migrated.

Concurrency and crashes: the database is in WAL mode, so any number of
processes read while one writes, and writers wait for each other
(:data:`BUSY_SECONDS`); each batch of solved deals is one transaction, so a
``kill -9`` at any moment loses at most the batch being written and never
leaves a partial row or a corrupt file (SQLite's atomic commit).  A row
that does not read back as a table (a file edited by hand) is ignored and
solved again.  A cache that cannot be opened or written (a read-only
folder, a file that is not a database) is reported once as a warning and
the run goes on without it: the cache never makes a command fail.

The text cache of earlier versions (``dd-tables-v1.txt`` in the same folder,
one ``<deal> <hex>`` per line) is read once into the database, then renamed
``dd-tables-v1.txt.migrated``.
"""

from __future__ import annotations

import logging
import os
import re
import sqlite3
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from handrec.dd.table import DDError, DDTable
from handrec.model import Seat, Strain

__all__ = ["CACHE_FILE", "OLD_CACHE_FILE", "BUSY_SECONDS", "DDCache", "CacheStats", "default_cache_dir"]

log = logging.getLogger(__name__)

#: The database file in the cache folder.
CACHE_FILE = "dd-cache.sqlite3"
#: The text cache of handrec 0.1 (migrated once).
OLD_CACHE_FILE = "dd-tables-v1.txt"
#: How long a writer waits for another process's transaction before giving up on a batch.
BUSY_SECONDS = 60.0
_FORMAT = "1"
_OLD_LINE = re.compile(r"(N:\S+ \S+ \S+ \S+) ([0-9a-d]{20})")
_HEX20 = re.compile(r"[0-9a-d]{20}")
_HEX13 = re.compile(r"[0-9a-d]{13}")
#: Keys per ``IN (...)`` look-up (SQLite allows 32766 parameters; smaller is kinder to other writers).
_LOOKUP = 500

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tables (deal TEXT PRIMARY KEY, tricks TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS leads (
    deal TEXT NOT NULL, strain INTEGER NOT NULL, declarer INTEGER NOT NULL, tricks TEXT NOT NULL,
    PRIMARY KEY (deal, strain, declarer)
) WITHOUT ROWID;
"""


def _wal(con: sqlite3.Connection) -> None:
    """Put the database in WAL mode, waiting for other processes doing the same.

    SQLite does not call the busy handler when two connections switch a new file's
    journal mode at once: one gets "database is locked" at once.  Retry for up to
    :data:`BUSY_SECONDS`, as a writer would wait.
    """
    deadline = time.monotonic() + BUSY_SECONDS
    delay = 0.005
    while True:
        try:
            con.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) and "busy" not in str(e) or time.monotonic() > deadline:
                raise
        time.sleep(delay)
        delay = min(delay * 2, 0.2)


def default_cache_dir() -> Path | None:
    """Where the command line keeps solved tables: ``$HANDREC_DD_CACHE`` (empty: no disk cache),
    else ``$XDG_CACHE_HOME/handrec``, else ``~/.cache/handrec``."""
    env = os.environ.get("HANDREC_DD_CACHE")
    if env is not None:
        return Path(env) if env.strip() else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "handrec"


@dataclass(frozen=True, slots=True)
class CacheStats:
    """What ``handrec dd --stats`` shows: the database ``path``, its size in ``bytes`` (with its
    WAL file), the number of ``tables`` and of opening-lead ``leads`` rows it holds."""

    path: Path
    bytes: int
    tables: int
    leads: int


class DDCache:
    """The SQLite cache in ``folder`` (created on first use; see the module doc).

    One connection per process (opened lazily, again after a fork).  Every
    method is safe to call from the threads of one process.  Failures to
    open or write are logged once and make the cache behave as empty.
    """

    def __init__(self, folder: Path | str) -> None:
        self.folder = Path(folder)
        self.path = self.folder / CACHE_FILE
        self._con: sqlite3.Connection | None = None
        self._pid = -1
        self._lock = threading.Lock()
        self._broken = False
        #: Why the cache could not be opened or written (logged once), ``None`` while it works.
        self.failure: Exception | None = None

    # -- connection ----------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection | None:
        if self._broken:
            return None
        if self._con is not None and self._pid == os.getpid():
            return self._con
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            con = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False)
            _wal(con)
            con.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: a crash never corrupts, commits stay atomic
            # The schema under the write lock: a deferred read-then-write can fail at once
            # (SQLITE_BUSY_SNAPSHOT) when another process created the tables in between.
            con.execute("BEGIN IMMEDIATE")
            try:
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        con.execute(statement)
                con.execute("INSERT OR IGNORE INTO meta VALUES ('format', ?)", (_FORMAT,))
                con.execute("COMMIT")
            except BaseException:
                if con.in_transaction:
                    con.execute("ROLLBACK")
                raise
        except (OSError, sqlite3.Error) as e:
            self._fail("opened", e)
            return None
        self._con, self._pid = con, os.getpid()
        self._migrate(con)
        return con

    def _fail(self, what: str, e: Exception) -> None:
        if not self._broken:
            log.warning("double-dummy cache %s not %s (%s); going on without it", self.path, what, e)
            self.failure = e
        self._broken = True
        self._con = None

    def close(self) -> None:
        """Close this process's connection (a later call opens it again)."""
        with self._lock:
            if self._con is not None and self._pid == os.getpid():
                self._con.close()
            self._con = None

    def _migrate(self, con: sqlite3.Connection) -> None:
        """Read the old text cache into the database once (see the module doc)."""
        old = self.folder / OLD_CACHE_FILE
        if not old.is_file():
            return
        try:
            con.execute("BEGIN IMMEDIATE")
            try:
                done = con.execute("SELECT 1 FROM meta WHERE key = ?", ("migrated:" + OLD_CACHE_FILE,)).fetchone()
                if done is None:
                    rows = []
                    with open(old, encoding="ascii", errors="replace") as f:
                        for line in f:
                            m = _OLD_LINE.fullmatch(line.strip())
                            if m is not None:
                                rows.append((m.group(1), m.group(2)))
                    con.executemany("INSERT OR IGNORE INTO tables VALUES (?, ?)", rows)
                    con.execute("INSERT INTO meta VALUES (?, ?)", ("migrated:" + OLD_CACHE_FILE, str(len(rows))))
                con.execute("COMMIT")
            except BaseException:
                con.execute("ROLLBACK")
                raise
            os.replace(old, old.with_name(OLD_CACHE_FILE + ".migrated"))
        except (OSError, sqlite3.Error) as e:
            log.warning("old double-dummy cache %s not migrated: %s", old, e)

    # -- tables --------------------------------------------------------------------------

    def get_tables(self, keys: Iterable[str]) -> dict[str, DDTable]:
        """The cached tables of ``keys`` (deal texts), by key; keys not cached are absent."""
        keys = list(keys)
        out: dict[str, DDTable] = {}
        with self._lock:
            con = self._connect()
            if con is None:
                return out
            try:
                for i in range(0, len(keys), _LOOKUP):
                    chunk = keys[i : i + _LOOKUP]
                    q = f"SELECT deal, tricks FROM tables WHERE deal IN ({','.join('?' * len(chunk))})"
                    for deal, tricks in con.execute(q, chunk):
                        if isinstance(tricks, str) and _HEX20.fullmatch(tricks):
                            try:
                                out[deal] = DDTable.parse_hex(tricks)
                            except DDError:
                                pass
            except sqlite3.Error as e:
                self._fail("read", e)
        return out

    def put_tables(self, items: Sequence[tuple[str, DDTable]]) -> None:
        """Store solved tables, in one transaction (all or none of them)."""
        self._put("INSERT OR REPLACE INTO tables VALUES (?, ?)", [(k, t.to_hex()) for k, t in items])

    def _put(self, sql: str, rows: list[tuple]) -> None:
        if not rows:
            return
        with self._lock:
            con = self._connect()
            if con is None:
                return
            try:
                con.execute("BEGIN IMMEDIATE")
                try:
                    con.executemany(sql, rows)
                    con.execute("COMMIT")
                except BaseException:
                    if con.in_transaction:
                        con.execute("ROLLBACK")
                    raise
            except sqlite3.Error as e:
                self._fail("written", e)

    # -- opening leads -------------------------------------------------------------------

    def get_leads(self, keys: Iterable[tuple[str, Strain, Seat]]) -> dict[tuple[str, Strain, Seat], str]:
        """Cached opening-lead results (:func:`handrec.dd.engine.solve_leads` digits) by ``(deal, strain, declarer)``."""
        keys = list(keys)
        out: dict[tuple[str, Strain, Seat], str] = {}
        with self._lock:
            con = self._connect()
            if con is None:
                return out
            try:
                by_deal: dict[str, list[tuple[str, Strain, Seat]]] = {}
                for k in keys:
                    by_deal.setdefault(k[0], []).append(k)
                deals = list(by_deal)
                for i in range(0, len(deals), _LOOKUP):
                    chunk = deals[i : i + _LOOKUP]
                    q = f"SELECT deal, strain, declarer, tricks FROM leads WHERE deal IN ({','.join('?' * len(chunk))})"
                    for deal, strain, declarer, tricks in con.execute(q, chunk):
                        if (
                            isinstance(tricks, str)
                            and _HEX13.fullmatch(tricks)
                            and 0 <= strain <= 4
                            and 0 <= declarer <= 3
                        ):
                            out[deal, Strain(strain), Seat(declarer)] = tricks
            except sqlite3.Error as e:
                self._fail("read", e)
        wanted = set(keys)
        return {k: v for k, v in out.items() if k in wanted}

    def put_leads(self, items: Sequence[tuple[tuple[str, Strain, Seat], str]]) -> None:
        """Store opening-lead results, in one transaction."""
        rows = [(k[0], int(k[1]), int(k[2]), v) for k, v in items]
        self._put("INSERT OR REPLACE INTO leads VALUES (?, ?, ?, ?)", rows)

    # -- stats ---------------------------------------------------------------------------

    def stats(self) -> CacheStats:
        """Size and contents (opens, so creates, the database; migrates an old text cache)."""
        tables = leads = 0
        with self._lock:
            con = self._connect()
            if con is not None:
                try:
                    tables = con.execute("SELECT count(*) FROM tables").fetchone()[0]
                    leads = con.execute("SELECT count(*) FROM leads").fetchone()[0]
                except sqlite3.Error as e:
                    self._fail("read", e)
        size = 0
        for suffix in ("", "-wal"):
            try:
                size += os.stat(str(self.path) + suffix).st_size
            except OSError:
                pass
        return CacheStats(self.path, size, tables, leads)
