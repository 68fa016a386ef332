"""The ``handrec`` command line: one small module per command, wired to the library.

:mod:`handrec.cli.app` holds the Typer app and the shared options; importing a command's
module registers it.  Only this package imports typer and rich.
"""

from __future__ import annotations

from handrec.cli.interrupt import guard, run

with guard():  # Ctrl-C while the commands are imported: one line, status 130
    from handrec.cli.app import app

    # Importing each command's module registers it on ``app``, in the order ``--help`` lists them.
    # isort: off
    from handrec.cli import validate, convert, query, booklet, export, generate, score, site, codes, schema  # noqa: F401
    from handrec.cli import dd  # noqa: F401
    # isort: on

__all__ = ["app", "main"]


def main() -> None:
    """Console-script entry point (Ctrl-C: :mod:`handrec.cli.interrupt`)."""
    run(app)
