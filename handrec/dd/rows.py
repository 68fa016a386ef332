"""``convert --dd`` board by board: what a conversion worker adds to each analysed board.

:class:`DDRows` sits between the analysis of a board and its rows: boards
wait until :data:`handrec.dd.engine.BATCH` of them have a complete deal,
those deals are solved together (:class:`handrec.dd.solver.Solver`, the
shared cache first; in a worker process DDS uses its own threads, so one
worker with one big file still keeps every core busy), and the boards come
out in their order with

* their ``boards`` columns (:func:`handrec.dd.director.game_dd`, and
  ``dd_source``: ``"file"`` when the board's own DoubleDummyTricks, Ability
  or OptimumResultTable is what the solver finds, else ``"solver"``);
* the director's diagnostics added to the analysis (D210-D213 for the
  values the file writes, D214 for a result far from double dummy), so the
  boards' and files' error and warning counts include them;
* with ``leads``, the ``leads`` rows: declarer's tricks after each opening lead.

A board whose deal is given but not complete passes through with null
columns and a D216 note (no deal at all: D205 says so already).
"""

from __future__ import annotations

from typing import Any

from handrec.dd import solver as solver_mod
from handrec.dd.boards import board_dd
from handrec.dd.cache import DDCache
from handrec.dd.director import DEFAULT_MARGIN, check_board, check_result, game_dd, has_dd_values, not_solvable
from handrec.dd.engine import BATCH
from handrec.dd.table import DDTable
from handrec.diagnostics import make
from handrec.model import Card, Seat
from handrec.rules.board import dealer_for_board, vulnerability_for_board
from handrec.rules.validator import Analysis

__all__ = ["DDRows", "lead_rows", "worker_solver", "release_worker_solver"]

_SUIT_LETTERS = "SHDC"
_solvers: dict[str | None, solver_mod.Solver] = {}


def worker_solver(cache_dir: str | None) -> solver_mod.Solver:
    """The solver of this process for ``cache_dir`` (``"threads"`` mode: a worker never starts a pool
    of its own), kept for the process's life so that its memo serves every task."""
    s = _solvers.get(cache_dir)
    if s is None:
        s = _solvers[cache_dir] = solver_mod.Solver(None if cache_dir is None else DDCache(cache_dir), mode="threads")
    return s


def release_worker_solver(cache_dir: str | None) -> None:
    """Close and forget this process's solver for ``cache_dir`` (a run's own cache, deleted after it)."""
    s = _solvers.pop(cache_dir, None)
    if s is not None:
        s.close()


def lead_rows(key: str, declarer: Seat, digits: str, played: Card | None) -> list[dict[str, Any]]:
    """The ``leads`` rows of one board from :meth:`handrec.dd.solver.Solver.leads`' ``digits``: one per card
    of the opening leader's hand (declarer's left-hand opponent, Law 41), in the hand's order."""
    hand = key[2:].split(" ")[(declarer + 1) % 4].split(".")
    cards = [f"{_SUIT_LETTERS[s]}{r}" for s, holding in enumerate(hand) for r in holding]
    tricks = [int(c, 16) for c in digits]
    best = min(tricks)
    lead = None if played is None else str(played)
    return [
        {"lead": c, "dd_tricks": t, "best": t == best, "cost": t - best, "played": c == lead}
        for c, t in zip(cards, tricks)
    ]


class DDRows:
    """Batches analysed boards for solving (see the module doc).  ``cache_dir``: the shared cache
    folder (``None``: this process's memory only); ``margin``: D214's (``None``: no D214);
    ``leads``: also the opening leads; ``batch``: complete deals a solving call."""

    def __init__(
        self, cache_dir: str | None, *, margin: int | None = DEFAULT_MARGIN, leads: bool = False, batch: int = BATCH
    ) -> None:
        self.solver = worker_solver(cache_dir)
        self.margin = margin
        self.leads = leads
        self.batch = batch
        self._pending: list[tuple[Analysis, str | None]] = []
        self._complete = 0

    def push(self, a: Analysis) -> list[tuple[Analysis, dict[str, Any] | None]]:
        """Take one analysed board; return the boards now ready (in order), each with its ``dd`` columns
        (``None``: no complete deal) for :meth:`handrec.dataset.tables.TableBuffers.add`."""
        deal = a.board.deal
        key = str(deal) if deal is not None and deal.is_complete else None
        self._pending.append((a, key))
        self._complete += key is not None
        if self._complete >= self.batch:
            return self.drain()
        return []

    def drain(self) -> list[tuple[Analysis, dict[str, Any] | None]]:
        """Solve what waits and return every board held, in order."""
        pending, self._pending, self._complete = self._pending, [], 0
        keys = [k for _, k in pending if k is not None]
        digits: dict[int, str] = {}
        try:
            tables = dict(zip(keys, self.solver.tables(keys))) if keys else {}
            games = [(a, k) for a, k in pending if k is not None and _played(a)]
            if self.leads and games:
                items = [(k, a.replay.contract.strain, a.replay.contract.declarer) for a, k in games]  # type: ignore[union-attr]
                for (a, _), d in zip(games, self.solver.leads(items)):
                    digits[id(a)] = d
        except ImportError:
            raise
        except Exception as e:  # DDS refused a deal (never seen: deals are checked first): a note, not a crash
            return [(self._failed(a, e), None) if k is not None else _incomplete(a) for a, k in pending]
        out: list[tuple[Analysis, dict[str, Any] | None]] = []
        for a, key in pending:
            if key is None:
                out.append(_incomplete(a))
                continue
            out.append(self._one(a, key, tables[key], digits.get(id(a))))
        return out

    def _failed(self, a: Analysis, e: Exception) -> Analysis:
        d = make(
            "D216", a.board.origin, a.board.tag_span("Deal"), reason=f"the solver failed ({type(e).__name__}: {e})"
        )
        return Analysis(a.board, a.replay, tuple(sorted((*a.diagnostics, d), key=_position)))

    def _one(self, a: Analysis, key: str, table: DDTable, digits: str | None) -> tuple[Analysis, dict[str, Any]]:
        b, r = a.board, a.replay
        vul = b.vulnerable
        dealer = b.dealer
        if b.number is not None and b.number >= 1:  # Law 2, as the replay scores it
            vul = vul if vul is not None else vulnerability_for_board(b.number)
            dealer = dealer if dealer is not None else dealer_for_board(b.number)
        figures = game_dd(table, r.contract, r.result, r.score_ns, vul, dealer).as_row()
        given = board_dd(b)
        figures["dd_source"] = "file" if given is not None and given.table == table else "solver"
        extra = list(check_board(b, table)) if has_dd_values(b) else []
        if self.margin is not None and r.contract is not None and r.result is not None:
            d = check_result(b, table, r.contract, r.result, self.margin)
            if d is not None:
                extra.append(d)
        if extra:
            diags = tuple(sorted((*a.diagnostics, *extra), key=_position))
            a = Analysis(b, r, diags)
        if digits is not None:
            c = r.contract
            assert c is not None and c.declarer is not None
            first = r.tricks[0].cards[0] if r.tricks and r.tricks[0].cards else None
            figures["leads"] = lead_rows(key, c.declarer, digits, first)
        return a, figures


def _incomplete(a: Analysis) -> tuple[Analysis, None]:
    """A board without a complete deal: D216 when it has part of one (no ``dd`` columns)."""
    d = not_solvable(a.board)
    if d is not None:
        a = Analysis(a.board, a.replay, tuple(sorted((*a.diagnostics, d), key=_position)))
    return a, None


def _position(d: Any) -> tuple[int, int, str]:
    return (d.line, d.column, d.code)


def _played(a: Analysis) -> bool:
    c = a.replay.contract
    return c is not None and not c.is_passed_out and c.level >= 1 and c.declarer is not None
