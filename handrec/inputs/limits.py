"""Size limits on inputs (:class:`Limits`, :func:`parse_size`) and the errors of reading an input.

The limits are applied where the bytes are met: archive members and archives in
:mod:`handrec.inputs.archives`, plain files and pipes in :mod:`handrec.inputs.entries`,
the bytes and lines read in :mod:`handrec.inputs.sources` and :mod:`handrec.inputs.streams`,
a board's text in the readers.

**Other limits.**  A plain file over :attr:`Limits.max_file_bytes` (4 GiB
by default) is not read (F010); a line over :attr:`Limits.max_line_bytes`
(1 MiB by default) is cut there and the rest of it is skipped without
being held in memory (F013), the following lines keep their numbers; a
board (a PBN game, a LIN record) over :attr:`Limits.max_board_bytes` is not
parsed: the parsers keep none of its text past the limit, report it (F016)
and go on at the next board (the limit reaches them through
:func:`handrec.formats.dispatch.read_input`).  Inside folders, FIFOs, devices and
sockets are skipped (F014); a FIFO named explicitly that stays silent for
:attr:`Limits.read_timeout` seconds is given up (F001).  Nothing read from an input is ever used as a
path to write to.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["InputError", "SizeLimitError", "Limits", "DEFAULT_LIMITS", "parse_size"]


class InputError(OSError):
    """An input path cannot be read (missing, a folder given as a file, no permission, damaged)."""


class SizeLimitError(InputError):
    """Reading an input went over :attr:`Limits.member_bytes` (reported as F010)."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Size limits on inputs, in bytes (decompressed).

    ``member_bytes``: one archive member or one compressed file;
    ``archive_bytes``: all regular members of one archive together;
    ``inline_bytes``: tar members up to this size are read into memory when
    listed (so they can be read again, or sent to a worker process); larger
    ones are read from the archive stream;
    ``max_file_bytes``: one plain (not compressed) file: a larger one is not
    read (F010);
    ``max_line_bytes``: one line of any input: a longer line is cut at the
    limit, the rest of it is dropped and never held in memory (F013);
    ``max_board_bytes``: the text of one board (a PBN game, a LIN deal),
    counted in characters as decoded: a larger board is not parsed; it is
    reported (F016, at its first line) as a board of its own and the
    reading goes on at the next board;
    ``read_timeout``: seconds (not bytes) a FIFO named explicitly may stay
    silent, before its first byte and between reads, before its reading is
    given up (F001 naming ``--read-timeout``): a FIFO no one writes to would
    otherwise be waited for for ever; ``0`` waits for ever.
    """

    member_bytes: int = 1 << 30
    archive_bytes: int = 4 << 30
    inline_bytes: int = 8 << 20
    max_file_bytes: int = 4 << 30
    max_line_bytes: int = 1 << 20
    max_board_bytes: int = 16 << 20
    read_timeout: float = 60.0


DEFAULT_LIMITS = Limits()


_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*", re.I)


def parse_size(text: str) -> int:
    """Bytes from a size such as ``"1G"``, ``"512MiB"``, ``"4096"`` (K/M/G/T are powers of 1024).

    :raises ValueError: when ``text`` is not a size.

    >>> parse_size("1G"), parse_size("512MiB"), parse_size("4096")
    (1073741824, 536870912, 4096)
    """
    m = _SIZE.fullmatch(text)
    if m is None:
        raise ValueError(f"not a size: {text!r} (examples: 4096, 512M, 1G)")
    scale = 1024 ** " kmgt".index((m.group(2) or " ").lower())
    return int(float(m.group(1)) * scale)
