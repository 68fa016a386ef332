"""The one place the site takes the booklet's view models from (:mod:`handrec.booklet.views` and :mod:`handrec.booklet.results_pages`).

The site shows the same diagrams, travellers and rankings as the booklet, computed once,
in one way: the board view (:func:`board_view`, :func:`dd_view`), the results of a session
(:func:`session_results`: travellers scored by :mod:`handrec.events`, rankings, the
rows the file's own figures disagree with) and the traveller cells of one result
(:func:`result_cells`).  Keeping these imports here means a move inside the booklet
package changes this module only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from handrec.booklet.results_pages import _flags, _result_cells, _results, _signed
from handrec.booklet.views import board_view, dd_view
from handrec.events.games import GameRecord

__all__ = ["board_view", "dd_view", "session_results", "result_cells", "signed", "flagged_games"]


def session_results(recs: Sequence[GameRecord], known: Sequence[Any] = ()) -> tuple[dict[str, Any] | None, list[Any]]:
    """The booklet's results data of one session's records and the claimed-figure diagnostics.

    ``(None, diagnostics)`` when the session has nothing to compare (each board played once,
    no ScoreTable, no teams match).  The data is :func:`handrec.booklet.results_pages._results`'s
    (``events``: at most one here, ``flagged``); ``known``: the session's scores already
    computed (:func:`handrec.events.event_score.score_event`), reused rather than scored again."""
    return _results(list(recs), known)


def result_cells(entry: Any) -> dict[str, Any]:
    """A traveller entry's room, contract (``level``, ``strain``, ``doubling``, ``result``, ``text``),
    ``by``, ``tricks``, ``score_ns``, ``score_ew``, ``zero``, as the booklet prints them."""
    return _result_cells(entry)


def signed(value: Any) -> str:
    """An exact number as a traveller prints it: at most 2 decimals, a true minus sign (U+2212)."""
    return _signed(value)


def flagged_games(diagnostics: Sequence[Any]) -> set[tuple[str, int | None]]:
    """The games ``(path, board index)`` whose own figures (ScoreMP, ScorePercentage...) the
    claimed-figure checks found to disagree with handrec's: the booklet marks their rows."""
    return _flags(diagnostics)[0]
