"""What a faulty record yields: the status of each value the replay derives from a board.

The rule (issue #18; docs/faulty-records.md): every value handrec derives from a board (the
contract with its declarer, the seat of each card played, the result, the score, and from
them the matchpoints) is one of

* ``clean``: what the record gives, with no error of the board bearing on it (a tag that
  disagrees with a fault-free auction or play, C501 C502 C503 S601, is a fault of that tag:
  the value the auction or play gives stays clean);
* ``by_law``: what the Laws make of the fault, the Law named in the diagnostic: an
  insufficient bid called over is accepted (Law 27A1), an inadmissible double or redouble is
  cancelled (Law 36), calls after the final pass are cancelled (Law 39A), a lead out of turn
  that the next hand played to is accepted (Laws 53A, 55A);
* ``from_tags``: the auction or play that should give the value is faulty, and the value is
  the one the record's own tags state (the Contract, Declarer and Result tags; for the play,
  the seats its Play tag and columns give, PBN 2.1 §3.6): the record's statement, kept and
  marked, never a reading chosen by handrec;
* ``unknown``: the value is null: the record does not give it, or gives it only through the
  fault.

``handrec score`` ranks only ``clean`` and ``by_law`` results; a result of any other status is
left out of the ranking with a note naming the faults.  Statuses order from best to worst as
listed (:func:`worst`).
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "CLEAN",
    "BY_LAW",
    "FROM_TAGS",
    "UNKNOWN",
    "STATUSES",
    "RANKED",
    "worst",
    "AUCTION_BY_LAW",
    "AUCTION_FAULTS",
    "PLAY_BY_LAW",
    "PLAY_FAULTS",
    "DEAL_FAULTS",
]

CLEAN, BY_LAW, FROM_TAGS, UNKNOWN = "clean", "by_law", "from_tags", "unknown"
#: Every status, best first.
STATUSES = (CLEAN, BY_LAW, FROM_TAGS, UNKNOWN)
#: The statuses of a result that ``handrec score`` ranks.
RANKED = frozenset({CLEAN, BY_LAW})
_ORDER = {s: i for i, s in enumerate(STATUSES)}

#: Auction errors whose rectification a Law gives, with that Law: the replay makes the
#: auction so (:func:`handrec.rules.auction.replay_auction`).
AUCTION_BY_LAW = {
    "A301": "Law 27A1",  # an insufficient bid called over is accepted
    "A302": "Law 36",  # an inadmissible double is cancelled
    "A303": "Law 36",  # an inadmissible redouble is cancelled
    "A304": "Law 39A",  # calls after the final pass are cancelled
}
#: Errors that make an auction's contract unknown (no Law gives it): a token that is no call,
#: an auction that does not start at the dealer (T106), an unreadable Auction seat (T101).
AUCTION_FAULTS = frozenset({"A306", "T106"})
#: Play errors whose rectification a Law gives: a lead by the wrong hand that the next hand
#: played to is accepted (LIN records, P408: Laws 53A, 55A).
PLAY_BY_LAW = {"P408": "Laws 53A, 55A"}
#: Errors of the play itself: a revoke (P401), a card not held (P402), the wrong opening
#: leader (P403), cards after the end (P404), a revoke mark on a legal card (P409: the
#: Result would be taken for the Law 64 outcome of a revoke the cards deny).  (A token that is no card, P406, is read as an
#: unknown card: null, as the rule asks, and the other cards keep their seats.)
PLAY_FAULTS = frozenset({"P401", "P402", "P403", "P404", "P409"})
#: Errors of the deal, on which the seat of each card played rests (Law 1).
DEAL_FAULTS = frozenset({"D201", "D202", "D203", "D205"})


def worst(*statuses: str) -> str:
    """The worst of ``statuses`` (order: clean, by_law, from_tags, unknown).

    >>> worst("clean", "by_law"), worst("by_law", "from_tags", "clean"), worst()
    ('by_law', 'from_tags', 'clean')
    """
    out = CLEAN
    for s in statuses:
        if _ORDER[s] > _ORDER[out]:
            out = s
    return out


def tag_of(message: str) -> str:
    """The tag a T101 message names (its first word: ``"Auction value 'Q' is not valid..."``)."""
    return message.split(" ", 1)[0]


def error_codes(diagnostics: Iterable[object]) -> list[str]:
    """The codes of the error diagnostics among ``diagnostics``, each once, in order."""
    out: dict[str, None] = {}
    for d in diagnostics:
        if int(getattr(d, "severity", 0)) >= 2:
            out.setdefault(d.code)  # type: ignore[attr-defined]
    return list(out)
