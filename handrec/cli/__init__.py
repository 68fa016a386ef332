"""The ``handrec`` command line: one small module per command, wired to the library.

:mod:`handrec.cli.app` holds the Typer app and the shared options; importing a command's
module registers it.  Only this package imports typer and rich.
"""

from __future__ import annotations

import copy
import os
import sys
from collections.abc import Sequence

from handrec.cli.interrupt import guard, run
from handrec.cli.startup import imports_without_gc

# Ctrl-C while the commands are imported: one line, status 130; no garbage collection meanwhile
with guard(), imports_without_gc("handrec.cli.app"):
    import typer
    from typer.main import get_command_name

    from handrec.cli.app import app, terminal_columns

    # Importing each command's module registers it on ``app``, in the order ``--help`` lists them.
    # isort: off
    from handrec.cli import validate, convert, query, booklet, export, generate, score, site, codes, schema  # noqa: F401
    from handrec.cli import dd  # noqa: F401
    # isort: on

__all__ = ["app", "main"]


def main() -> None:
    """Console-script entry point (Ctrl-C: :mod:`handrec.cli.interrupt`)."""
    # numpy (convert's plays columns) does no linear algebra here: without this its OpenBLAS starts
    # a thread a core that spins idle, 7-28 M instructions of a convert run (issue #23.2).  The
    # workers inherit it; a user's own setting wins.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    narrow = terminal_columns()
    if narrow is not None and narrow < 80:  # Click lays help out at least 50 columns wide otherwise
        app.info.context_settings = {**(app.info.context_settings or {}), "terminal_width": narrow}
    run(for_command(app, sys.argv[1:]))


def for_command(whole: typer.Typer, args: Sequence[str]) -> typer.Typer:
    """``whole``, or, when ``args`` start with the name of one of its commands, a copy of it that
    holds that command alone (and the app's own options, ``--version``).

    Typer builds the Click parameters of every command (``inspect.signature`` and
    ``typing.get_type_hints`` of each function) before it runs one: 15-20 ms of every start for
    the eleven commands, most of a quick command's own time (#23 item 4).  The command runs as in
    the whole app, with the same options, help, usage line and errors; ``--help``, ``--version``
    and a word that names no command get the whole app (its list, its suggestions).
    """
    if not args or whole.registered_groups:
        return whole
    chosen = [
        c
        for c in whole.registered_commands
        if c.callback is not None and (c.name or get_command_name(c.callback.__name__)) == args[0]
    ]
    if len(chosen) != 1:
        return whole
    alone = copy.copy(whole)
    alone.registered_commands = chosen
    return alone
