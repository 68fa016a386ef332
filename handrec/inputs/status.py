"""The status of an entry (an input, or a path or member not read) from the codes of its diagnostics.

One reading for every summary: ``handrec convert`` writes it in the ``files`` table and
``handrec validate`` counts by it (:func:`entry_status`).
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["STATUSES", "SKIP_CODES", "entry_status"]


#: The status of an entry (an input, or a path or member not read), in the order summaries list
#: them: the ``status`` column of ``handrec convert``'s ``files`` table (see :mod:`handrec.dataset.store`).
STATUSES = ("ok", "unchanged", "unreadable", "skipped", "not_read")
#: Codes that mean an entry was refused by policy (status ``skipped``): an unsafe, linked, nested or
#: too large archive member, a file over a size limit (F008-F010), a FIFO or device in a folder (F014).
SKIP_CODES = frozenset({"F008", "F009", "F010", "F014"})
_UNREAD_CODES = frozenset({"F001", "F004", "F015"})


def entry_status(codes: Iterable[str], read: bool = True) -> str:
    """The status of an entry from the codes of its diagnostics: ``"skipped"``, ``"unreadable"`` or ``"ok"``.

    ``read``: the entry is an input that was read (an :class:`Input` with a
    ``format``), not a path or member listed as a diagnostic.  Refused by
    policy (:data:`SKIP_CODES`): skipped; not read, or not to its end (F001;
    F015, a failure of handrec itself), or not PBN or LIN (F004): unreadable;
    else ok.  ``handrec convert`` writes
    it in the ``files`` table and ``handrec validate`` counts by it, so their
    summaries agree.

    >>> entry_status(["T104", "F002"]), entry_status(["F001"]), entry_status(["F009"], read=False)
    ('ok', 'unreadable', 'skipped')
    """
    codes = set(codes)
    if codes & SKIP_CODES:
        return "skipped"
    if not read or codes & _UNREAD_CODES:
        return "unreadable"
    return "ok"
