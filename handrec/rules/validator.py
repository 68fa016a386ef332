"""The validator: a board's parse faults plus everything the replay finds.

:func:`analyse` runs the one replay engine (:func:`handrec.rules.replay.replay`)
once per board; validate, convert, score and booklet all use its result, so
a board is never replayed twice.
"""

from __future__ import annotations

from dataclasses import dataclass

from handrec.diagnostics import STRICT_CODES, Diagnostic, Severity
from handrec.model import Board
from handrec.rules.replay import Replay, replay

__all__ = ["Analysis", "analyse", "validate"]


@dataclass(frozen=True, slots=True)
class Analysis:
    """A board, its replay, and all its diagnostics sorted by position.

    ``diagnostics`` = the reader's faults (``board.diagnostics``) followed
    by the replay's (rules of Laws 18-79 and the scorer), sorted by line
    and column.
    """

    board: Board
    replay: Replay
    diagnostics: tuple[Diagnostic, ...]

    @property
    def errors(self) -> int:
        """Number of error-severity diagnostics."""
        return sum(1 for d in self.diagnostics if d.severity is Severity.ERROR)

    @property
    def warnings(self) -> int:
        """Number of warning-severity diagnostics, but the codes the standard lets readers
        skip (:attr:`Code.strict <handrec.diagnostics.Code.strict>`: ``handrec validate``
        shows them only under ``--strict``), so that convert and validate count alike."""
        return sum(1 for d in self.diagnostics if d.severity is Severity.WARNING and d.code not in STRICT_CODES)


def _position(d: Diagnostic) -> tuple[int, int, str]:
    return (d.line, d.column, d.code)


def analyse(board: Board) -> Analysis:
    """Replay ``board`` and collect every diagnostic for it.  Never raises."""
    r = replay(board)
    own = board.diagnostics
    found = r.diagnostics
    if found and any(d.code == "P402" for d in found):  # cards not held: a deal written rotated? (D215)
        from handrec.rules.rotation import rotation

        turned = rotation(board, r.contract)
        if turned is not None:
            found = (*found, turned)
    if not own:
        # the usual case: nothing from the reader; the replay's list is sorted only when it has two or more
        diags = tuple(sorted(found, key=_position)) if len(found) > 1 else tuple(found)
    else:
        diags = tuple(sorted((*own, *found), key=_position))
    return Analysis(board, r, diags)


def validate(board: Board) -> list[Diagnostic]:
    """All diagnostics for one board: reader faults, rule violations, score mismatches.

    >>> from handrec.formats.dispatch import read
    >>> import io
    >>> text = '[Board "1"]\\n[Dealer "E"]\\n'
    >>> [d.code for d in validate(next(read(io.StringIO(text))))]
    ['T103']
    """
    return list(analyse(board).diagnostics)
