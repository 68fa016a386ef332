"""The ``handrec`` application: the Typer app, the options and output helpers every command shares.

Commands live one per module beside this one and only wire the library together.
Exit status: 0 clean, 1 when any error diagnostic was found, 2 when an input could not be
read or the usage is wrong.
"""

from __future__ import annotations

import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from handrec import __version__

app = typer.Typer(
    name="handrec",
    help="Validate, convert, query and print contract-bridge records (PBN, LIN and USEBIO).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


class DiagFormat(StrEnum):
    text = "text"
    json = "json"


class RowFormat(StrEnum):
    table = "table"
    csv = "csv"
    json = "json"


def _version(value: bool) -> None:
    if value:
        typer.echo(f"handrec {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """Validate, convert, query and print contract-bridge records (PBN, LIN and USEBIO)."""


PathsArg = Annotated[
    list[Path],
    typer.Argument(
        metavar="PATHS...",
        help="PBN, LIN or USEBIO files (- for standard input), folders (searched recursively) or archives.",
    ),
]
_SIZES = "a size: 4096, 512K, 16M, 1G"
MemberSize = Annotated[
    str,
    typer.Option(
        "--max-member-size", metavar="SIZE", help=f"Largest archive member or compressed file, decompressed ({_SIZES})."
    ),
]
ArchiveSize = Annotated[
    str,
    typer.Option("--max-archive-size", metavar="SIZE", help=f"Largest archive, all members decompressed ({_SIZES})."),
]
FileSize = Annotated[
    str, typer.Option("--max-file-size", metavar="SIZE", help=f"Largest plain file read (F010; {_SIZES}).")
]
LineSize = Annotated[
    str,
    typer.Option(
        "--max-line-size", metavar="SIZE", help=f"Longest line read; longer ones are cut there (F013; {_SIZES})."
    ),
]
BoardSize = Annotated[
    str,
    typer.Option(
        "--max-board-size",
        metavar="SIZE",
        help=f"Largest board (PBN game, LIN deal) parsed; larger ones are reported (F016; {_SIZES}).",
    ),
]

ReadTimeout = Annotated[
    float,
    typer.Option(
        "--read-timeout",
        metavar="SECONDS",
        min=0,
        help="Give up a FIFO named on the command line after this many seconds without data (F001; 0: wait for ever).",
    ),
]


def _limits(member: str, archive: str, file: str, line: str, board: str, read_timeout: float = 60.0):
    """:class:`handrec.inputs.limits.Limits` from the size options and ``--read-timeout`` (seconds); a bad or
    zero size ends the command (exit 2)."""
    from handrec.inputs.limits import Limits, parse_size

    values = []
    for option, text in (
        ("--max-member-size", member),
        ("--max-archive-size", archive),
        ("--max-file-size", file),
        ("--max-line-size", line),
        ("--max-board-size", board),
    ):
        try:
            n = parse_size(text)
        except ValueError as e:
            typer.echo(f"handrec: {option}: {e}", err=True)
            raise typer.Exit(2) from None
        if n < 1:
            typer.echo(f"handrec: {option} must be at least 1 byte, not {text!r}", err=True)
            raise typer.Exit(2)
        values.append(n)
    return Limits(
        member_bytes=values[0],
        archive_bytes=values[1],
        max_file_bytes=values[2],
        max_line_bytes=values[3],
        max_board_bytes=values[4],
        read_timeout=read_timeout,
    )


def _files_summary(statuses: dict[str, int], note: str = "", actions: list[str] | None = None) -> str:
    """``N files``: every input and every path or member not read (the rows of convert's ``files``
    table), then, unless all are ``ok``, how many have each status there: ``4 files (2 ok, 1
    unreadable, 1 skipped)``.  ``note`` goes after them (``5 files (5 ok; 2 resumed)``).

    ``actions``: with ``convert --append``, what was done with each input (``kept``, ``skipped
    (unchanged)``, ``replaced``, ``added``: :class:`handrec.runs.convert_append.Action`); they are
    counted instead of ``ok`` and ``unchanged`` (a kept input is not "ok" of this run), in that order,
    then the other statuses: ``3 files (2 kept, 1 added; 1 unreadable)``.
    """
    from handrec.inputs.status import STATUSES

    total = sum(statuses.values())
    if actions is not None:
        from handrec.runs.convert_append import ACTIONS

        done = [f"{actions.count(a)} {a}" for a in ACTIONS if a in actions]
        bad = [
            f"{statuses[s]} {s.replace('_', ' ')}" for s in STATUSES if s not in ("ok", "unchanged") and statuses.get(s)
        ]
        rest = "; ".join(p for p in (", ".join(bad), note) if p)
        return f"{total} files ({', '.join(done)}{'; ' + rest if rest else ''})"
    parts = [f"{statuses[s]} {s.replace('_', ' ')}" for s in STATUSES if statuses.get(s)]
    if not note and all(s == "ok" for s, n in statuses.items() if n):
        return f"{total} files"
    return f"{total} files ({', '.join(parts)}{'; ' + note if note else ''})"


def _unreadable(code: str) -> bool:
    """Codes meaning an input (or part of it, or of an archive) could not be read: exit status 2."""
    return code in ("F001", "F004", "F008", "F010", "F013", "F015", "F016")


#: File-level errors after which an input's boards, or the rest of them, are not read though the
#: input was found and is of a known format: USEBIO XML not well-formed (F022: the traveller lines
#: before the fault are read), refused (F023: DTD declarations, the billion-laughs bomb) or over a
#: limit (F024).  An error, not "unreadable": exit status 1, as ``validate`` gives it.
_REFUSED = ("F022", "F023", "F024")


class InputReport:
    """What ``score``, ``site``, ``export`` and ``booklet`` say of their inputs besides the boards.

    Give :attr:`paths` to :func:`handrec.inputs.entries.iter_inputs` as its list of the paths it
    could not read, and :meth:`add` each input once it is read (its ``diagnostics`` filled).
    :meth:`say_faults` prints what kept boards from being read (the unreadable codes,
    :data:`_REFUSED`) in input order, as ``validate`` prints them: no input is dropped in
    silence.  When no board was read at all, :meth:`say_nothing` also gives each empty input's
    F018 (that file is why there is nothing), or, with no input at all, :func:`_nothing_found`.
    """

    def __init__(self) -> None:
        self.paths: list = []  # iter_inputs' own list: paths and members not read
        self.inputs = 0
        self.faults: list = []  # unreadable or refused, in input order
        self.empty: list = []  # F018 of inputs read to their end without a board
        self._seen = 0  # how much of ``paths`` is in ``faults``

    def _take_paths(self) -> None:
        new, self._seen = self.paths[self._seen :], len(self.paths)
        self.faults.extend(d for d in new if _unreadable(d.code) or d.code in _REFUSED)

    def add(self, inp) -> None:
        """Take note of ``inp``, an :class:`~handrec.inputs.sources.Input` read to its end (or to its fault)."""
        self._take_paths()  # the paths not read before it come before it
        self.inputs += 1
        self.faults.extend(d for d in inp.diagnostics if _unreadable(d.code) or d.code in _REFUSED)
        self.empty.extend(d for d in inp.diagnostics if d.code == "F018")

    @property
    def unreadable(self) -> bool:
        """Whether an input, or part of one, could not be read (exit status 2)."""
        self._take_paths()
        return any(_unreadable(d.code) for d in self.faults)

    def status(self, other: int = 0) -> int:
        """The exit status: 2 unreadable, else 1 for an input refused or for ``other`` (the command's own)."""
        return 2 if self.unreadable else max(other, 1 if self.faults else 0)

    def say_faults(self) -> None:
        """Print the faults on stderr, one a line, as ``validate`` prints them."""
        self._take_paths()
        for d in self.faults:
            typer.echo(_printable(str(d)), err=True)

    def say_nothing(self, paths: list[Path]) -> None:
        """Why no board was read, after :meth:`say_faults`: each empty input's F018, or, when no
        input was found at all and no path was refused either, :func:`_nothing_found`."""
        self._take_paths()
        for d in self.empty:
            typer.echo(_printable(str(d)), err=True)
        if not self.inputs and not self.faults:
            _nothing_found(paths)


#: Reading faults whose text is not in an exported file as written (dropped or replaced): a syntax
#: error's text (F003), an unknown token (F006), LIN commands after the last deal (F017), a bad call
#: (A306) or card (P406, written as an unknown card), a repeated tag or note (T102, T126: the first is
#: kept).  The others keep the text (T101 values, T124 table elements...) or repair only the form
#: (F005 closes the comment, F011 drops a stray separator, T105/T122 respell).  The unreadable
#: codes (:func:`_unreadable`) are listed apart, with exit status 2.
_NOT_AS_WRITTEN = ("F003", "F006", "F017", "A306", "P406", "T102", "T126")


def _not_as_written(d) -> bool:
    """Whether ``d``, a reading fault, means its text is not in an exported file as written:
    :data:`_NOT_AS_WRITTEN`, and T128 for a second note reference or suffix of a call or card
    (one is kept; a bad NAG is kept)."""
    from handrec.formats.pbn.annotations import T128_DROPPED  # the parser's reasons for an annotation it drops

    return d.code in _NOT_AS_WRITTEN or (d.code == "T128" and d.message.endswith(tuple(T128_DROPPED)))


_CONTROL = dict.fromkeys([*range(0x20), 0x7F, *range(0x80, 0xA0)])


def _printable(text: str) -> str:
    """``text`` with control characters escaped (``\\x1b``, ``\\n``): input never drives the terminal
    nor forges an output line."""
    if text.isprintable():
        return text
    return "".join(repr(c)[1:-1] if ord(c) in _CONTROL else c for c in text)


#: Every control character but the line end, as Python writes it escaped (``\\x1b``, ``\\t``).
_PLAIN = {c: repr(chr(c))[1:-1] for c in _CONTROL if c != 0x0A}
#: What JSON leaves unescaped of them (DEL and the C1 controls), as JSON escapes (``\\u009b``).
_JSON_PLAIN = {c: f"\\u{c:04x}" for c in (0x7F, *range(0x80, 0xA0))}


def _plain(text: str) -> str:
    """Many lines of output (a table, CSV) with every control character escaped but the line end:
    a name or file name holding ESC, OSC or CSI sequences never drives the terminal."""
    return text if text.isprintable() else text.translate(_PLAIN)


def _json_plain(text: str) -> str:
    """JSON text with DEL and the C1 controls escaped as ``\\u00XX`` (``json`` escapes the C0 ones
    itself): still the same JSON, but nothing in it drives a terminal it is printed on."""
    return text.translate(_JSON_PLAIN)


class PlainWriter:
    """A text stream that writes through :func:`_plain` (or :func:`_json_plain` with ``json=True``):
    for the rows a command prints from data (``query``, ``score``), written as they come."""

    def __init__(self, out, json: bool = False) -> None:
        self._out = out
        self._table = _JSON_PLAIN if json else _PLAIN

    def write(self, s: str) -> int:
        return self._out.write(s.translate(self._table))

    def flush(self) -> None:
        self._out.flush()


def _cannot(verb: str, path: object, e: OSError) -> typer.Exit:
    """Say on stderr, in one line, that ``path`` (as the user named it) cannot be ``verb`` (read,
    write) and why (``Permission denied``); return the exit (status 2) for the caller to raise.

    The path named, not ``e.filename``: the user gave ``-o locked/ds``, not the file handrec
    tried inside it (``locked/ds/.handrec-work``), and a folder's name is what they can fix.
    """
    typer.echo(f"handrec: cannot {verb} {_printable(str(path))}: {_printable(str(e.strerror or e))}", err=True)
    return typer.Exit(2)


def _require_solver() -> None:
    """End the command (exit 2, one line) when ``--dd`` was asked for and the solver (endplay) is missing."""
    from handrec.dd.solver import solver_available

    if not solver_available():
        typer.echo("handrec: --dd needs the double-dummy solver: pip install 'handrec[dd]' (adds endplay)", err=True)
        raise typer.Exit(2)


def _nothing_found(paths: list[Path]) -> None:
    """Say on stderr that ``paths`` held no input at all (a mistyped or empty folder must not pass
    as a clean run)."""
    where = ", ".join(_printable(str(p)) for p in paths)
    typer.echo(
        f"handrec: no PBN or LIN input found in {where} (inside folders and archives, files that are "
        "neither, by content or by a .pbn/.lin name, are skipped)",
        err=True,
    )


def terminal_columns() -> int | None:
    """The columns of the terminal standard output is, ``None`` when it is no terminal (a pipe,
    a file: output laid out as everywhere else, 80 columns)."""
    try:
        return os.get_terminal_size(sys.stdout.fileno()).columns if sys.stdout.isatty() else None
    except (OSError, ValueError, AttributeError):
        return None
