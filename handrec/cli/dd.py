"""``handrec dd``: the double-dummy cache; and the helpers every ``--dd`` option shares.

:func:`dd_session` sets up the solver of a command (the persistent cache, or
none with ``--no-dd-cache``) and :class:`DDProgress` draws the progress bar
(:mod:`handrec.cli.progress`, only on a terminal: deals solved, deals/s, time left).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import typer

from handrec.cli.app import app

#: The help of every command's ``--no-dd-cache``.
NO_CACHE_HELP = "Neither read nor write the double-dummy cache ($HANDREC_DD_CACHE, default ~/.cache/handrec)."


class DDProgress:
    """A ``progress(done, total)`` callback drawing the bar of :mod:`handrec.cli.progress` for the
    solver: deals solved of the total, deals per second and the time left (only when
    ``enabled`` and stderr is a terminal: :func:`handrec.cli.progress.shown`).  Each solving
    call (a ``progress(0, total)``) starts a bar of its own; :meth:`close` removes the last one."""

    def __init__(self, label: str = "double dummy", *, enabled: bool = True) -> None:
        from handrec.cli.progress import Bar, shown

        self.label = label
        self.enabled = enabled and shown()
        self._bar = Bar(label, unit="count", what="deals", enabled=self.enabled)

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total <= 0:
            return
        if done == 0:
            self._bar.close()
        self._bar.update(done, total)
        if done >= total:
            self._bar.close()

    def close(self) -> None:
        self._bar.close()


def plain_warnings() -> None:
    """Print the library's logged warnings (a double-dummy cache that cannot be opened or
    written: :mod:`handrec.dd.cache`) as one line ``handrec: ...`` on stderr, like every other
    message of the command line; without a handler Python's last resort prints them bare.

    Set up here, not at start-up: only the solver logs, and importing :mod:`logging` at every
    start would cost the quick commands their time (#23 item 4).  Once a process.
    """
    import logging

    log = logging.getLogger("handrec")
    if not any(getattr(h, "_handrec_cli", False) for h in log.handlers):
        handler = logging.StreamHandler()  # sys.stderr as it is when a message comes
        handler.setFormatter(logging.Formatter("handrec: %(message)s"))
        handler._handrec_cli = True  # type: ignore[attr-defined]
        log.addHandler(handler)
        log.propagate = False  # a host application's root handler would print it a second time


@contextmanager
def dd_session(no_cache: bool = False, *, jobs: int | None = None) -> Iterator[Any]:
    """The solver of one command run (:func:`handrec.dd.solver.session`) on the default cache
    (:func:`handrec.dd.cache.default_cache_dir`), or on none with ``no_cache``."""
    from handrec.dd.cache import default_cache_dir
    from handrec.dd.solver import session

    plain_warnings()
    with session(None if no_cache else default_cache_dir(), jobs=jobs) as s:
        yield s


def interrupted_note(solver: Any) -> str:
    """What Ctrl-C during solving keeps: said on stderr."""
    kept = "kept in the cache" if solver.cache is not None else "not kept (--no-dd-cache)"
    return f"handrec: interrupted; the {solver.solved} deals solved so far are {kept}"


@app.command("dd")
def dd(
    stats: Annotated[
        bool, typer.Option("--stats", help="Show the cache's file, its size and how many tables it holds.")
    ] = False,
) -> None:
    """The double-dummy cache every --dd option shares (--stats: its size and contents).

    validate --dd, booklet --dd and convert --dd share it.  Solved tables live in one SQLite file in $HANDREC_DD_CACHE (default
    ~/.cache/handrec); a deal is solved once, whatever command asks.
    """
    from handrec.dd.cache import DDCache, default_cache_dir

    folder = default_cache_dir()
    if folder is None:
        typer.echo("double-dummy cache: disabled ($HANDREC_DD_CACHE is empty)")
        raise typer.Exit(0)
    if not stats:
        typer.echo(f"double-dummy cache: {folder}  (handrec dd --stats for its contents)")
        raise typer.Exit(0)
    from handrec.dd.cache import log

    cache = DDCache(folder)
    log.disabled = True  # a failure is said below, once, as the answer (not as a warning too)
    s = cache.stats()
    if cache.failure is not None:
        e = cache.failure
        why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        typer.echo(f"handrec: cannot read the double-dummy cache {s.path}: {why}", err=True)
        raise typer.Exit(2)
    typer.echo(f"cache: {s.path}")
    typer.echo(f"size: {s.bytes:,} bytes")
    typer.echo(f"tables: {s.tables:,}")
    typer.echo(f"opening leads: {s.leads:,}")
