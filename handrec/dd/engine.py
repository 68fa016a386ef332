"""The calls into DDS (Bo Haglund's double-dummy solver, bundled with endplay).

This is the only module that talks to DDS.  It feeds DDS's own C structures
(``endplay._dds``) straight from handrec's deal text, so no endplay ``Deal``
is built per deal, and it keeps DDS's ``dump.txt`` (written into the working
directory on a bad deal) out of the user's folders: every call runs with a
temporary working directory (:func:`in_temp_dir`), and the worker processes
of :mod:`handrec.dd.solver` start in one.

Encodings (DDS 2.9, ``dll.h``): hands N E S W = 0-3; suits S H D C = 0-3 and
no trump = 4; a holding is a 13-bit mask with the two at bit 2 and the ace
at bit 14.  ``endplay`` is imported on first use (about 0.4 s), only when a
deal must be solved.

>>> masks("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")[0]
(32764, 0, 0, 0)
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from handrec.model import Seat, Strain

__all__ = [
    "BATCH",
    "LEAD_BATCH",
    "available",
    "masks",
    "solve_tables",
    "solve_leads",
    "set_threads",
    "in_temp_dir",
    "worker_init",
]

#: Most deals DDS takes in one ``CalcAllTables`` call with all five strains
#: (``MAXNOOFTABLES``; stack-notes.md: the 41st raises).
BATCH = 40
#: Most boards DDS takes in one ``SolveAllBoards`` call (``MAXNOOFBOARDS``).
LEAD_BATCH = 200

_RANK_BIT = {r: 1 << (i + 2) for i, r in enumerate("23456789TJQKA")}
#: DDS's strain index of each of handrec's strains (C D H S NT = 0-4 in handrec).
DDS_STRAIN = {Strain.SPADES: 0, Strain.HEARTS: 1, Strain.DIAMONDS: 2, Strain.CLUBS: 3, Strain.NOTRUMP: 4}
_HANDREC_STRAIN = {v: k for k, v in DDS_STRAIN.items()}
_threads: int | None = None


def available() -> bool:
    """Whether endplay (the ``handrec[dd]`` extra) is installed, without importing it (no DDS threads start)."""
    import importlib.util

    try:
        return importlib.util.find_spec("endplay") is not None
    except (ImportError, ValueError):
        return False


def _dds() -> Any:
    """``endplay._dds``, imported on first use.

    :raises ImportError: without endplay.
    """
    import endplay._dds as dds

    return dds


def masks(key: str) -> tuple[tuple[int, int, int, int], ...]:
    """DDS's holdings of a deal written ``N:s.h.d.c s.h.d.c s.h.d.c s.h.d.c`` (North first, as
    ``str(Deal)`` writes it): ``masks(key)[hand][suit]``, hands N E S W, suits S H D C.

    :raises ValueError: for text not of that form.
    """
    if not key.startswith("N:"):
        raise ValueError(f"a deal key starts with 'N:': {key!r}")
    hands = key[2:].split(" ")
    if len(hands) != 4:
        raise ValueError(f"a deal key has four hands: {key!r}")
    out = []
    for h in hands:
        suits = h.split(".")
        if len(suits) != 4:
            raise ValueError(f"a hand has four suits: {h!r}")
        out.append(tuple(sum(_RANK_BIT[c] for c in s) for s in suits))
    return tuple(out)  # type: ignore[return-value]


def set_threads(n: int | None) -> None:
    """Let DDS use ``n`` threads in this process (``None`` or 0: one per core, DDS's default)."""
    global _threads
    want = n or 0
    if _threads != want:
        with _DDS_LOCK:  # not while a call Ctrl-C stopped waiting for still runs
            _dds().SetMaxThreads(want)
        _threads = want


@contextlib.contextmanager
def in_temp_dir() -> Iterator[None]:
    """Run the body with a new temporary working directory (removed after), so that a ``dump.txt``
    DDS writes never lands in the user's folder.  The working directory is process-wide: the
    solver never calls DDS from two threads at once."""
    here = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="handrec-dds-") as tmp:
        os.chdir(tmp)
        try:
            yield
        finally:
            os.chdir(here)


def worker_init(folder: str, threads: int | None) -> None:
    """Initialiser of a solver worker process: work in ``folder`` (a temporary directory the parent
    removes), ignore Ctrl-C (the parent stops the pool), use ``threads`` DDS threads."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.chdir(folder)
    set_threads(threads)


#: Held by the thread inside a DDS call: DDS runs one call at a time, and a call the main thread
#: stopped waiting for (Ctrl-C) still runs until it returns.
_DDS_LOCK = threading.Lock()
#: Seconds between two looks for a signal while the main thread waits for DDS.
_WAIT_STEP = 0.1


def _interruptible(fn: Callable[[], Any]) -> Any:
    """``fn()`` (one DDS call) in a helper thread, the main thread waiting for it.

    A DDS call is C code that runs for seconds (40 deals on a busy machine); a signal's Python
    handler runs only once it returns, so Ctrl-C (or a pool's stop signal, in a worker) would
    wait for it.  Waiting on a thread (in steps of :data:`_WAIT_STEP`: the kernel may hand the
    signal to any thread, and that wakes no blocked wait), the main thread takes the signal at
    once, and the call,
    whose result is no longer wanted, goes on in its (daemon) thread until it returns or the
    process ends.  Off the main thread, ``fn()`` is called as it is.
    """
    if threading.current_thread() is not threading.main_thread():
        with _DDS_LOCK:
            return fn()
    box: list[Any] = []

    def call() -> None:
        with _DDS_LOCK:
            try:
                box.append((True, fn()))
            except BaseException as e:  # noqa: BLE001 - handed to the waiting thread
                box.append((False, e))

    t = threading.Thread(target=call, name="handrec-dds", daemon=True)
    t.start()
    while t.is_alive():  # in steps: a signal taken by another thread wakes no blocked join
        t.join(_WAIT_STEP)
    ok, value = box[0]
    if not ok:
        raise value
    return value


def _run(fn: Callable[[], Any], here_ok: bool) -> Any:
    if here_ok:
        return _interruptible(fn)
    with in_temp_dir():
        return _interruptible(fn)


def solve_tables(keys: Sequence[str], *, in_place: bool = False) -> list[str]:
    """The double-dummy tables of up to :data:`BATCH` complete deals, as ``DoubleDummyTricks`` hex
    (declarers N S E W, strains NT S H D C: :meth:`handrec.dd.table.DDTable.parse_hex`).

    ``keys`` are deals as ``str(Deal)`` writes them; the caller checks that
    each is complete (four hands of 13 distinct cards).  ``in_place``: the
    working directory is already a temporary one (a worker process).

    :raises ImportError: without endplay.
    :raises ValueError: for more than :data:`BATCH` deals.
    :raises endplay._dds.DDSError: when DDS refuses a deal.
    """
    if len(keys) > BATCH:
        raise ValueError(f"at most {BATCH} deals a call, not {len(keys)}")
    if not keys:
        return []
    dds = _dds()
    deals = dds.ddTableDeals()
    deals.noOfTables = len(keys)
    for i, key in enumerate(keys):
        cards = deals.ddTableDeal[i].cards
        for h, hand in enumerate(masks(key)):
            for s, m in enumerate(hand):
                cards[h][s] = m
    res = dds.ddTablesRes()
    par = dds.allParResults()
    _run(lambda: dds.CalcAllTables(deals, -1, (0, 0, 0, 0, 0), res, par), in_place)
    out = []
    order_seats = (0, 2, 1, 3)  # N S E W, as DoubleDummyTricks writes them
    order_strains = (4, 0, 1, 2, 3)  # NT S H D C
    for i in range(len(keys)):
        t = res.results[i].resTable
        out.append("".join(f"{t[st][h]:x}" for h in order_seats for st in order_strains))
    return out


def solve_leads(items: Sequence[tuple[str, Strain, Seat]], *, in_place: bool = False) -> list[str]:
    """For each ``(deal key, strain, declarer)``: the tricks declarer takes double dummy after each
    opening lead, as 13 hex digits, one per card of the leader's hand (declarer's left-hand
    opponent, Law 41) in the order the key writes that hand (spades first, high to low).
    Equal cards (DDS's ``equals``) get the same count.  At most :data:`LEAD_BATCH` items.

    :raises ImportError: without endplay.
    :raises ValueError: for more than :data:`LEAD_BATCH` items.
    """
    if len(items) > LEAD_BATCH:
        raise ValueError(f"at most {LEAD_BATCH} boards a call, not {len(items)}")
    if not items:
        return []
    dds = _dds()
    bo = dds.boards()
    bo.noOfBoards = len(items)
    leaders = []
    for i, (key, strain, declarer) in enumerate(items):
        d = bo.deals[i]
        leader = (int(declarer) + 1) % 4
        leaders.append(leader)
        d.trump = DDS_STRAIN[strain]
        d.first = leader
        for k in range(3):
            d.currentTrickSuit[k] = 0
            d.currentTrickRank[k] = 0
        for h, hand in enumerate(masks(key)):
            for s, m in enumerate(hand):
                d.remainCards[h][s] = m
        bo.target[i] = -1
        bo.solutions[i] = 3
        bo.mode[i] = 1
    solved = dds.solvedBoards()
    _run(lambda: dds.SolveAllBoardsBin(bo, solved), in_place)
    out = []
    for i, (key, _, _) in enumerate(items):
        fut = solved.solvedBoard[i]
        score: dict[tuple[int, int], int] = {}  # (suit S H D C, rank bit) -> tricks of the side on lead
        for j in range(fut.cards):
            held = (1 << fut.rank[j]) | fut.equals[j]
            for r in range(2, 15):
                if held >> r & 1:
                    score[fut.suit[j], 1 << r] = fut.score[j]
        hand = key[2:].split(" ")[leaders[i]].split(".")
        digits = []
        for s, holding in enumerate(hand):
            for c in holding:
                digits.append(f"{13 - score[s, _RANK_BIT[c]]:x}")
        out.append("".join(digits))
    return out
