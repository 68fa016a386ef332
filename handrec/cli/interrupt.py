"""Ctrl-C on the command line: one line on stderr, exit status 130, no traceback, no worker left.

The first Ctrl-C (``SIGINT``) raises :class:`KeyboardInterrupt` in the main thread as Python
does; the library stops its pools without waiting for their tasks
(:func:`handrec.runs.pool.stop_pool`) and every file it writes goes under a temporary name
first, so the unwinding is short.  From then on a second Ctrl-C does not raise again in the
middle of that clean-up (which would leave workers and print a traceback): it kills this
process's children and ends the process at once.  Typer turns a :class:`KeyboardInterrupt`
that no command caught into exit status 130 without a word; :func:`run` then says the line.
The line is said once, whoever says it (:func:`say`).
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import sys
from collections.abc import Callable, Iterator
from typing import NoReturn

from handrec.runs.children import kill_children

__all__ = ["NOTE", "RESUME_NOTE", "say", "run", "guard"]

#: What an interrupted command says.
NOTE = "handrec: interrupted"
#: What an interrupted ``convert`` says (its work folder lets ``--resume`` go on).
RESUME_NOTE = "handrec: interrupted; run the same command with --resume to continue"
#: The commands whose interruption :data:`RESUME_NOTE` describes.
_RESUMABLE = frozenset({"convert"})

_said = False


def _default_note() -> str:
    """:data:`RESUME_NOTE` when the command line runs ``convert``, else :data:`NOTE`."""
    words = [a for a in sys.argv[1:] if not a.startswith("-")]
    return RESUME_NOTE if words and words[0] in _RESUMABLE else NOTE


def say(line: str | None = None) -> int:
    """Write ``line`` (default: the note of this command line) to stderr, the standard output
    flushed first; returns the exit status, 130 (128 + SIGINT, as shells report it).  A command
    that catches its interruption says its own line; :func:`run` then says none."""
    global _said
    _said = True
    try:
        sys.stdout.flush()
    except (OSError, ValueError):  # a closed pipe: nothing more to say there
        pass
    try:
        sys.stderr.write((line or _default_note()) + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    return 130


def _end() -> None:
    """End an interrupted run: the line (once), any child left killed, exit status 130.

    ``os._exit``: the interpreter's own exit would wait for the pools' threads and run
    atexit callbacks (a pool's ``shutdown(wait=True)``), which is what made an interrupted
    run hang or print a traceback; and Python ends a process whose KeyboardInterrupt went
    through some C code by SIGINT instead of status 130.  Everything handrec writes is
    complete or under a temporary name by then, and the streams are flushed (:func:`say`).
    """
    if not _said:
        say()
    kill_children()
    os._exit(130)


def _again(signum: int, frame: object) -> None:
    """A Ctrl-C while the first one is being handled: end now."""
    _end()


def _first(signum: int, frame: object) -> None:
    """The first Ctrl-C: a :class:`KeyboardInterrupt` where the main thread is; the next ones
    end the process (:func:`_again`)."""
    signal.signal(signal.SIGINT, _again)
    raise KeyboardInterrupt


def run(app: Callable[[], object]) -> None:
    """Run the Typer ``app`` (standalone: it exits) with the Ctrl-C handling of this module."""
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not when started with Ctrl-C ignored
        signal.signal(signal.SIGINT, _first)
    try:
        app()
    except SystemExit as e:
        if e.code != 130:
            _flush_stdout()
            raise
    except KeyboardInterrupt:  # raised outside the command (Typer catches it inside)
        pass
    except OSError as e:
        # A write refused for want of room reaching here is standard output's (the commands say
        # so themselves for the files they write): one line, status 2, not a traceback.
        if e.errno not in _NO_ROOM:
            raise
        _stdout_refused(e)
    _end()


#: The errors of a write that found no room (a full disk, a quota, a file too big, a failing device).
_NO_ROOM = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO}


def _flush_stdout() -> None:
    """Flush standard output before the exit, so that a write it refuses (a full disk:
    ``> /dev/full``) is one line and status 2, not status 0 with the output lost.  A reader
    that has gone (``| head``) ends the output quietly, as SIGPIPE would."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (the interpreter's exit flushes it again)
    except OSError as e:
        _stdout_refused(e)


def _stdout_refused(e: OSError) -> NoReturn:
    """Standard output refused a write: one line, status 2 (and no second try at the exit)."""
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (the interpreter's exit flushes it again)
    sys.stderr.write(f"handrec: cannot write standard output: {e.strerror or e}\n")
    raise SystemExit(2) from None


@contextlib.contextmanager
def guard() -> Iterator[None]:
    """A Ctrl-C in the body (the command line's imports, before :func:`run`) ends the
    process with the one line and status 130, not a traceback."""
    try:
        yield
    except KeyboardInterrupt:
        _end()
