"""The ``deals`` table of ``convert --dd``: one row per distinct complete deal of the dataset.

Built at the end of a conversion, from the merged ``boards`` table: the
distinct complete deals in the order of their first board, their tables
(the cache: the workers solved them while reading, see
:mod:`handrec.dd.rows`; any missing, e.g. rows reused from an older
dataset, are solved here with every core), and par for each vulnerability
that occurs among their boards (the dealer of the deal's first board).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from handrec.dataset.tables import SCHEMAS
from handrec.dd.cache import DDCache
from handrec.dd.par import par
from handrec.dd.solver import Solver
from handrec.dd.table import DD_SEATS, DD_STRAINS
from handrec.model import Deal, ModelError, Seat, Strain, Vulnerability
from handrec.rules.board import dealer_for_board, vulnerability_for_board

__all__ = ["write_deals", "CHUNK"]

#: Distinct deals solved and written at a time (bounds memory on a huge dataset).
CHUNK = 20_000

_VULS = {"None": "none", "NS": "ns", "EW": "ew", "Both": "both"}
_STRAIN_NAMES = {Strain.NOTRUMP: "nt", Strain.SPADES: "s", Strain.HEARTS: "h", Strain.DIAMONDS: "d", Strain.CLUBS: "c"}


def _key(text: str | None) -> str | None:
    if text is None:
        return None
    try:
        d = Deal.parse(text)
    except (ModelError, ValueError):
        return None
    return str(d) if d.is_complete else None


def write_deals(
    boards: Path,
    deals: Path,
    meta: dict[bytes, bytes],
    cache_dir: str | None,
    *,
    jobs: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Write the ``deals`` table to ``deals`` from the ``boards`` Parquet file; returns its rows.

    ``meta`` is the dataset's Parquet metadata (its run id); ``cache_dir``
    the cache the workers wrote (``None``: memory only).  Deals are looked
    up, and solved when missing, :data:`CHUNK` at a time.

    :raises ImportError: without endplay, when a deal is in no cache.
    """
    t = pq.read_table(boards, columns=["deal", "dealer", "vulnerable", "board", "dd_source"])
    first: dict[str, int] = {}
    info: dict[str, list] = {}  # key -> [dealer, count, vulnerabilities, from file]
    for i, (text, dealer, vul, number, source) in enumerate(
        zip(*(t.column(c).to_pylist() for c in ("deal", "dealer", "vulnerable", "board", "dd_source")))
    ):
        key = _key(text)
        if key is None:
            continue
        if vul is None and number is not None and number >= 1:
            vul = str(vulnerability_for_board(number))
        if dealer is None and number is not None and number >= 1:
            dealer = str(dealer_for_board(number))
        row = info.get(key)
        if row is None:
            first[key] = i
            row = info[key] = [dealer, 0, {}, False]
        row[1] += 1
        if vul is not None and vul not in row[2]:
            row[2][vul] = dealer
        row[3] = row[3] or source == "file"
    del t
    schema = SCHEMAS["deals"].with_metadata(meta)
    keys = sorted(first, key=first.__getitem__)
    solver = Solver(None if cache_dir is None else DDCache(cache_dir), jobs=jobs, progress=progress)
    writer = pq.ParquetWriter(deals, schema, compression="zstd")
    keys_written = 0
    try:
        for start in range(0, len(keys), CHUNK):
            chunk = keys[start : start + CHUNK]
            tables = _solve(solver, chunk)
            cols: dict[str, list] = {f.name: [] for f in schema}
            for key in chunk:
                table = tables.get(key)
                if table is None:  # the solver refused it: no row (its boards carry a D216)
                    continue
                keys_written += 1
                dealer, count, vuls, from_file = info[key]
                cols["deal"].append(key)
                cols["dealer"].append(dealer)
                cols["boards"].append(count)
                cols["source"].append("file" if from_file else "solver")
                for seat in DD_SEATS:
                    for strain in DD_STRAINS:
                        cols[f"dd_{str(seat).lower()}_{_STRAIN_NAMES[strain]}"].append(table[seat, strain])
                for text, col in _VULS.items():
                    if text in vuls:
                        d = vuls[text]
                        p = par(table, Vulnerability.parse(text), None if d is None else Seat.parse(d))
                        cols[f"par_{col}"].append(p.score_ns)
                        cols[f"par_contracts_{col}"].append("; ".join(str(c) for c in p.contracts) or "Pass")
                    else:
                        cols[f"par_{col}"].append(None)
                        cols[f"par_contracts_{col}"].append(None)
            writer.write_table(pa.table({f.name: pa.array(cols[f.name], f.type) for f in schema}, schema=schema))
    finally:
        writer.close()
        solver.close()
    return keys_written


def _solve(solver: Solver, keys: list[str]) -> dict:
    """The tables of ``keys``; when DDS fails on the batch, deal by deal, leaving out those it refuses."""
    try:
        return dict(zip(keys, solver.tables(keys)))
    except ImportError:
        raise
    except Exception:
        out = {}
        for k in keys:
            try:
                out[k] = solver.tables([k])[0]
            except ImportError:
                raise
            except Exception:
                continue
        return out
