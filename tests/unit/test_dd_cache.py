"""The SQLite double-dummy cache (handrec.dd.cache): concurrent writers, kill -9, migration, stats.

The writers are real processes (``python -c``) writing real tables of random deals (the
values need not be solved: the cache stores whatever it is given).
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from typer.testing import CliRunner

from handrec.cli import app
from handrec.dd.cache import CACHE_FILE, OLD_CACHE_FILE, DDCache
from handrec.dd.table import DDTable
from handrec.generate import random_deal
from handrec.model import Seat, Strain

WRITER = r"""
import random, sys
from handrec.dd.cache import DDCache
from handrec.dd.table import DDTable
from handrec.generate import random_deal
folder, seed, batches, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rng = random.Random(seed)
cache = DDCache(folder)
for b in range(batches):
    items = []
    for i in range(size):
        key = str(random_deal(rng))
        n = len(items) % 14
        items.append((key, DDTable.parse_hex(f"{n:x}" * 10 + f"{13 - n:x}" * 10)))
    cache.put_tables(items)
    print(b + 1, flush=True)
"""


def _keys(seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    return [str(random_deal(rng)) for _ in range(n)]


def _writer(folder: Path, seed: int, batches: int, size: int) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", WRITER, str(folder), str(seed), str(batches), str(size)],
        stdout=subprocess.PIPE,
        text=True,
    )


def _integrity(folder: Path) -> str:
    con = sqlite3.connect(folder / CACHE_FILE)
    try:
        return con.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        con.close()


def test_two_concurrent_writers_lose_nothing(tmp_path: Path) -> None:
    # Two processes write 30 batches of 20 tables each at the same time; seeds 1 and 2 give distinct deals.
    procs = [_writer(tmp_path, seed, 30, 20) for seed in (1, 2)]
    for p in procs:
        out, _ = p.communicate(timeout=120)
        assert p.returncode == 0 and out.split()[-1] == "30"
    assert _integrity(tmp_path) == "ok"
    cache = DDCache(tmp_path)
    assert cache.stats().tables == 1200
    # Every table reads back as written: the n-th of its batch has N-S n tricks everywhere.
    rng = random.Random(1)
    keys = [str(random_deal(rng)) for _ in range(20)]
    got = cache.get_tables(keys)
    assert [got[k][Seat.NORTH, Strain.SPADES] for k in keys] == [i % 14 for i in range(20)]


OPENER = r"""
import sys, time
from handrec.dd.cache import DDCache
root, start, n = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
broken = 0
for k in range(n):
    while time.time() < start + 0.1 * k:  # every process opens folder k at the same instant
        pass
    cache = DDCache(f"{root}/c{k}")
    cache.stats()
    broken += cache._broken
print(broken)
"""


def test_processes_creating_the_cache_at_once_all_keep_it(tmp_path: Path) -> None:
    """Six processes open 20 new caches, each at the same instant: none goes on without it.

    Found in CI: two processes switching a new file to WAL at once, one got "database is
    locked" at once (SQLite does not wait there) and ran uncached, its tables lost.
    """
    start = time.time() + 1.5
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", OPENER, str(tmp_path), str(start), "20"], stdout=subprocess.PIPE, text=True
        )
        for _ in range(6)
    ]
    outs = [p.communicate(timeout=120)[0].split() for p in procs]
    assert all(p.returncode == 0 for p in procs)
    assert [o[-1] for o in outs] == ["0"] * 6


def test_kill_9_loses_at_most_the_batch_in_flight(tmp_path: Path) -> None:
    """SIGKILL a writer at three moments: each time the file is intact and holds whole batches only."""
    total = 0
    for round_, delay in enumerate((0.3, 0.6, 0.9)):
        p = _writer(tmp_path, 100 + round_, 10_000, 25)
        assert p.stdout is not None
        committed = 0
        deadline = time.monotonic() + delay
        while time.monotonic() < deadline or committed == 0:
            line = p.stdout.readline()
            if not line:
                break
            committed = int(line)
        os.kill(p.pid, signal.SIGKILL)
        p.wait()
        # Batches it reported before it died may still wait unread in the pipe: count them too
        # (under load the reader falls behind the writer, and they are not lost batches).
        for line in p.stdout.read().split():
            committed = int(line)
        p.stdout.close()
        assert p.returncode == -signal.SIGKILL
        assert _integrity(tmp_path) == "ok"
        n = DDCache(tmp_path).stats().tables - total
        # The batches it said were committed are there, at most one more (committed before it could say so).
        assert n % 25 == 0 and committed <= n // 25 <= committed + 1, (n, committed)
        total += n
    assert total >= 75


def test_old_text_cache_is_migrated_once(tmp_path: Path) -> None:
    keys = _keys(5, 3)
    hexes = ["7c5c67c5c61181711817", "00082000827cc5a7cc5a", "49463794636497a6497a"]
    old = tmp_path / OLD_CACHE_FILE
    lines = [f"{k} {h}" for k, h in zip(keys, hexes)] + ["garbage line", f"{keys[0]} 7c5c67c5c6118171181z"]
    old.write_text("\n".join(lines) + "\n", encoding="ascii")
    cache = DDCache(tmp_path)
    got = cache.get_tables(keys)
    assert [got[k].to_hex() for k in keys] == hexes
    assert not old.exists() and (tmp_path / (OLD_CACHE_FILE + ".migrated")).is_file()
    # A new old file is not read again (the migration is recorded in the database).
    old.write_text(f"{_keys(6, 1)[0]} {hexes[0]}\n", encoding="ascii")
    cache.close()
    assert DDCache(tmp_path).stats().tables == 3


def test_bad_rows_and_unusable_cache_are_ignored(tmp_path: Path, caplog) -> None:
    cache = DDCache(tmp_path)
    key = _keys(7, 1)[0]
    cache.put_tables([(key, DDTable.parse_hex("7c5c67c5c61181711817"))])
    con = sqlite3.connect(tmp_path / CACHE_FILE)
    con.execute("UPDATE tables SET tricks = 'not a table'")
    con.commit()
    con.close()
    assert cache.get_tables([key]) == {}  # solved again, never trusted
    # A file that is not a database: a warning once, then the cache is empty, never an error.
    other = tmp_path / "other"
    other.mkdir()
    (other / CACHE_FILE).write_bytes(b"this is not sqlite" * 100)
    broken = DDCache(other)
    assert broken.get_tables([key]) == {}
    broken.put_tables([(key, DDTable.parse_hex("7c5c67c5c61181711817"))])
    assert caplog.text.count("going on without it") == 1


def test_dd_stats_command(tmp_path: Path) -> None:
    cache = DDCache(tmp_path / "c")
    keys = _keys(8, 4)
    cache.put_tables([(k, DDTable.parse_hex("7c5c67c5c61181711817")) for k in keys])
    cache.put_leads([((keys[0], Strain.SPADES, Seat.NORTH), "9999889988999")])
    cache.close()
    r = CliRunner(env={"HANDREC_DD_CACHE": str(tmp_path / "c")}).invoke(app, ["dd", "--stats"])
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0] == f"cache: {tmp_path / 'c' / CACHE_FILE}"
    assert lines[1].startswith("size: ") and int(lines[1].split()[1].replace(",", "")) > 4096
    assert lines[2:] == ["tables: 4", "opening leads: 1"]
    r = CliRunner(env={"HANDREC_DD_CACHE": ""}).invoke(app, ["dd", "--stats"])
    assert r.stdout == "double-dummy cache: disabled ($HANDREC_DD_CACHE is empty)\n"
