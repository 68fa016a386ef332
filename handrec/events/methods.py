"""The scoring method: how an event is scored (:class:`Method`, :class:`Cross`), and which one its tags ask for.

``handrec score --method`` names a :class:`Method`; without it :func:`method_for` reads the
event's own tags: Rubber or Chicago in the Scoring tag of every game, else teams IMPs when
a board was given in both the Open and the Closed room, else the pairs method of the
Scoring tags (:func:`pairs_method_for`: matchpoints, Butler or cross-IMPs).  :func:`cross_for`
says how the Scoring tags divide cross-IMPs (``Cross``, ``Cross1``, ``Cross2``).

Sources: PBN 2.1 §3.4.12 (Scoring), §4.1.7 (Room); bridge-rules.md §5-§8.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from handrec.events.games import GameRecord
from handrec.rules.board import scoring_fields

__all__ = ["Method", "Cross", "method_for", "cross_for", "pairs_method_for"]


class Method(enum.StrEnum):
    """How an event is scored (``handrec score --method``).

    ``mp``: matchpoints, 1 per pair beaten and 1/2 per tie, top n - 1 (ACBL);
    ``mp2``: 2 and 1, top 2(n - 1) (Europe; PBN's ``MP1``);
    ``imp``: IMPs between the two rooms of a teams match;
    ``butler``: IMPs against the board's datum;
    ``cross-imp``: IMPs against every other result, divided by the comparisons
    (bridge-rules.md §8.5), or as the Scoring tag's modifier says when the method comes
    from the tags (:class:`Cross`);
    ``rubber``, ``chicago``, ``minibridge``: a file's boards as one session.

    Source: bridge-rules.md §5-§8.
    """

    MP = "mp"
    MP2 = "mp2"
    IMP = "imp"
    BUTLER = "butler"
    CROSS_IMP = "cross-imp"
    RUBBER = "rubber"
    CHICAGO = "chicago"
    MINIBRIDGE = "minibridge"

    @property
    def is_session(self) -> bool:
        """Rubber, Chicago and minibridge score a file's boards as one sequence."""
        return self in (Method.RUBBER, Method.CHICAGO, Method.MINIBRIDGE)


class Cross(enum.StrEnum):
    """How cross-IMPs are divided: the PBN Scoring modifiers (PBN 2.1 §3.4.12; bridge-rules.md §8.5).

    ``sum`` (``Cross``): the IMPs against every other result, summed;
    ``scores`` (``Cross1``): that sum divided by the number of results of the board (n);
    ``comparisons`` (``Cross2``): divided by the comparisons (n - 1), bridge-rules.md §8.5's
    average and ``handrec score -m cross-imp``.
    """

    SUM = "sum"
    SCORES = "scores"
    COMPARISONS = "comparisons"


#: The Scoring modifier of each :class:`Cross` variant.
_CROSS_FIELDS = {"CROSS": Cross.SUM, "CROSS1": Cross.SCORES, "CROSS2": Cross.COMPARISONS}


def method_for(recs: Sequence[GameRecord]) -> Method:
    """The method an event's own tags ask for (``handrec score`` without ``--method``).

    ``Rubber`` / ``Chicago`` in the Scoring tag of every record -> that session
    scoring (PBN 2.1 §3.4.12); else teams IMPs when the records hold an Open and a
    Closed room of a board (PBN 2.1 §4.1.7), with results or not (a vugraph match
    without any result is still a teams match); else :func:`pairs_method_for`.
    """
    every = set.intersection(*(scoring_fields(r.scoring) for r in recs)) if recs else set()
    if "RUBBER" in every:
        return Method.RUBBER
    if "CHICAGO" in every:
        return Method.CHICAGO
    if _two_rooms(recs):  # (every board score_teams scores has both rooms)
        return Method.IMP
    return pairs_method_for(recs)


def _two_rooms(recs: Sequence[GameRecord]) -> bool:
    """Whether some board of a teams match was given in both its Open and its Closed room."""
    seen: dict[tuple[object, ...], str] = {}
    for r in recs:
        if r.room not in ("Open", "Closed") or r.key is None:
            continue
        other = seen.setdefault((r.match, r.key), r.room)
        if other != r.room:
            return True
    return False


def cross_for(recs: Sequence[GameRecord]) -> Cross:
    """How the Scoring tags of an event divide its cross-IMPs (PBN 2.1 §3.4.12): ``Cross`` summed,
    ``Cross1`` by the number of results, ``Cross2`` by the comparisons; the modifier of the most
    games when they differ (in this order on a tie); by the comparisons (bridge-rules.md §8.5)
    when none says."""
    counts = dict.fromkeys(_CROSS_FIELDS, 0)
    for r in recs:
        for f in scoring_fields(r.scoring) & counts.keys():
            counts[f] += 1
    best = max(counts, key=lambda f: counts[f])
    return _CROSS_FIELDS[best] if counts[best] else Cross.COMPARISONS


def pairs_method_for(recs: Sequence[GameRecord]) -> Method:
    """The pairs method the Scoring tags ask for (PBN 2.1 §3.4.12; the booklet's results
    pages of a pairs event): ``Butler`` -> Butler, ``Cross...`` -> cross-IMPs, ``MP1`` ->
    matchpoints 2/1, ``IMP`` without ``MP`` -> Butler (a pairs event scored in IMPs);
    otherwise matchpoints 1/0.5 (top n - 1)."""
    fields: set[str] = set().union(*(scoring_fields(r.scoring) for r in recs))
    if "BUTLER" in fields:
        return Method.BUTLER
    if any(f.startswith("CROSS") for f in fields):
        return Method.CROSS_IMP
    if "MP1" in fields:
        return Method.MP2
    if "IMP" in fields and "MP" not in fields:
        return Method.BUTLER
    return Method.MP
