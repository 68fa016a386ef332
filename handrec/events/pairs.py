"""Pairs events: each traveller scored in matchpoints, Butler IMPs or cross-IMPs, and the pairs ranked.

Matchpoints on the 1 / 0.5 scale (``mp``, top n - 1) or the 2 / 1 scale (``mp2``, top
2(n - 1)), with Neuberg's formula for boards played fewer times than the most-played
board of the event and Law 12C2 artificial adjusted scores (:func:`score_matchpoints`);
Butler IMPs (:func:`score_butler`); cross-IMPs summed, or divided by the results or the
comparisons (:func:`score_cross`); then session totals and rankings of pairs
(:func:`score_pairs`: one field for a Howell movement, N-S and E-W apart for a Mitchell).

All arithmetic is exact (:class:`fractions.Fraction`).  Sources: bridge-rules.md §8.3
(matchpoints), §8.4 (Butler), §8.5 (cross-IMPs); Law 12C2; Law 87 (fouled boards).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

from handrec.events.methods import Cross, Method
from handrec.events.results import Ranking, RankRow, ScoredEntry, ScoredTraveller
from handrec.events.travellers import Traveller
from handrec.model import Side
from handrec.scoring.imps import imps
from handrec.scoring.traveller import ArtificialScore, Scale, artificial_mp, butler_datum, matchpoints, rank_totals, top

__all__ = ["artificial_imps", "score_matchpoints", "score_butler", "score_cross", "score_pairs"]


#: Law 12C2: in IMP scoring an average-plus is +3 IMPs, average 0, average-minus -3.
_ARTIFICIAL_IMPS = {ArtificialScore.AVERAGE_PLUS: 3, ArtificialScore.AVERAGE: 0, ArtificialScore.AVERAGE_MINUS: -3}


def artificial_imps(kind: ArtificialScore) -> int:
    """IMPs of an artificial adjusted score: +3 / 0 / -3 (Law 12C2, IMP scoring).

    >>> artificial_imps(ArtificialScore.AVERAGE_MINUS)
    -3
    """
    return _ARTIFICIAL_IMPS[kind]


def score_matchpoints(trav: Traveller, scale: Scale, expected: int | None = None) -> ScoredTraveller:
    """Matchpoints of every entry of ``trav`` on ``scale``.

    The board's results are compared with each other (bridge-rules.md §8.3).
    When the board is to be scored on the top of ``expected`` results (the
    most-played board of the event) or some results are artificial (Law
    12C2), the played results are scaled with Neuberg's formula to the top of
    ``expected`` (default: all results of the board, artificial ones
    included) and artificial scores get 60 / 50 / 40 % of that top.
    Percentages are of the top.
    """
    scores = trav.scores()
    k = len(scores)
    n = max(trav.size, expected or 0)
    t = top(n, scale) if n else 0
    ns_mp = matchpoints(scores, scale=scale, expected=n if k != n else None) if k else ()
    ew_mp = matchpoints(scores, scale=scale, side=Side.EW, expected=n if k != n else None) if k else ()
    out: list[ScoredEntry] = []
    i = 0
    for e in trav.entries:
        if e.score_ns is not None:
            a, b = ns_mp[i], ew_mp[i]
            i += e.multiplicity
        elif e.artificial is not None and n:
            a, b = artificial_mp(e.artificial[0], n, scale=scale), artificial_mp(e.artificial[1], n, scale=scale)
        else:
            out.append(ScoredEntry(e, None, None))
            continue
        pa = Fraction(100) * a / t if t else None
        pb = Fraction(100) * b / t if t else None
        out.append(ScoredEntry(e, a, b, pa, pb))
    note = "" if k else "no result with a score"
    return ScoredTraveller(trav, tuple(out), t, n if n != trav.size else None, note=note)


def score_butler(trav: Traveller) -> ScoredTraveller:
    """Butler IMPs of every entry: ``imps(score - datum)``; the datum is the mean without one top and one bottom.

    Needs at least 3 played results; artificial scores get +3 / 0 / -3 IMPs
    (Law 12C2).  Source: bridge-rules.md §8.4.
    """
    scores = trav.scores()
    if len(scores) < 3:
        return ScoredTraveller(
            trav, tuple(ScoredEntry(e, None, None) for e in trav.entries), note="fewer than 3 results"
        )
    datum = butler_datum(scores)
    out = []
    for e in trav.entries:
        if e.score_ns is not None:
            v = Fraction(imps(e.score_ns - datum))
            out.append(ScoredEntry(e, v, -v))
        elif e.artificial is not None:
            out.append(
                ScoredEntry(e, Fraction(artificial_imps(e.artificial[0])), Fraction(artificial_imps(e.artificial[1])))
            )
        else:
            out.append(ScoredEntry(e, None, None))
    return ScoredTraveller(trav, tuple(out), datum=datum)


def score_cross(trav: Traveller, cross: Cross = Cross.COMPARISONS) -> ScoredTraveller:
    """Cross-IMPs of every entry: the IMPs against every other result, divided by the comparisons
    (n - 1, the default), or summed, or divided by the number of results (n), as ``cross`` says.

    ``total_ns`` keeps the undivided sum.  Needs at least 2 played results;
    artificial scores get +3 / 0 / -3 IMPs a comparison (Law 12C2): +3 / 0 / -3 averaged
    over the comparisons, (n - 1) times that summed, (n - 1) / n times that divided by the
    results.  Source: bridge-rules.md §8.5; PBN 2.1 §3.4.12 (Cross, Cross1, Cross2).
    """
    scores = trav.scores()
    k = len(scores)
    if k < 2:
        return ScoredTraveller(
            trav, tuple(ScoredEntry(e, None, None) for e in trav.entries), note="fewer than 2 results"
        )
    divisor = {Cross.SUM: 1, Cross.SCORES: k, Cross.COMPARISONS: k - 1}[Cross(cross)]
    per = Fraction(k - 1, divisor)  # an artificial score's IMPs a comparison, on this scale
    out = []
    for e in trav.entries:
        if e.score_ns is not None:
            # every other result: all scores, minus this one's own comparison with itself (0 IMPs)
            total = Fraction(sum(imps(e.score_ns - s) for s in scores))
            v = total / divisor
            out.append(ScoredEntry(e, v, -v, total_ns=total))
        elif e.artificial is not None:
            a, b = (artificial_imps(x) * per for x in e.artificial)
            out.append(ScoredEntry(e, a, b))
        else:
            out.append(ScoredEntry(e, None, None))
    return ScoredTraveller(trav, tuple(out))


def _rank_rows(
    totals: dict[str, Fraction],
    boards: dict[str, int],
    tops: dict[str, Fraction] | None,
) -> tuple[RankRow, ...]:
    # a pair whose boards all had a top of 0 (each played once: nothing to compare) has no
    # percentage and no rank: listed after the ranked pairs, rank "-"
    unranked = [] if tops is None else [p for p in totals if not tops[p]]
    if tops is not None:
        keyed = {p: Fraction(100) * totals[p] / tops[p] for p in totals if tops[p]}
    else:
        keyed = dict(totals)
    rows = []
    for label, pair, _ in rank_totals(keyed):
        rows.append(
            RankRow(
                label,
                pair,
                boards[pair],
                totals[pair],
                None if tops is None else tops[pair],
                None if tops is None else keyed[pair],
            )
        )
    for pair in sorted(unranked):
        rows.append(RankRow("-", pair, boards[pair], totals[pair], tops[pair] if tops is not None else None, None))
    return tuple(rows)


def _named(rows: tuple[RankRow, ...], names: dict[str, str]) -> tuple[RankRow, ...]:
    """The rows with their pairs' players' names (a ranking by pair number says who each is)."""
    return tuple(replace(r, names=names[r.name]) if r.name in names else r for r in rows)


def score_pairs(
    trs: Sequence[Traveller], method: Method, *, neuberg: bool = True, cross: Cross = Cross.COMPARISONS
) -> tuple[list[ScoredTraveller], list[Ranking], list[str]]:
    """Score the travellers of one pairs event and rank the pairs.

    ``method`` ``mp`` / ``mp2`` / ``butler`` / ``cross-imp``; ``neuberg``:
    score every board on the top of the most-played board of the event
    (Neuberg's formula for the others; default on), else each board on its
    own top.  Rankings: by session percentage (100 * matchpoints / tops of
    the boards played, bridge-rules.md §8.3) for matchpoints, by total IMPs
    otherwise (cross-IMPs divided as ``cross`` says: :func:`score_cross`).  N-S
    and E-W are ranked together when a pair id sits N-S on some boards and E-W
    on others and no board has one id in both directions (a Howell movement);
    else separately (a Mitchell movement, where N-S 1 and E-W 1 are two
    pairs).  Entries with a Multiplicity above 1 or without pairs are not ranked.

    Returns (scored travellers, rankings, notes).
    """
    notes: list[str] = []
    scored: list[ScoredTraveller] = []
    if method in (Method.MP, Method.MP2):
        scale = Scale.MP if method is Method.MP else Scale.MP2
        most = max((t.size for t in trs), default=0)
        for t in trs:
            s = score_matchpoints(t, scale, most if neuberg else None)
            if s.expected is not None and t.played < s.expected and t.played == t.size:
                notes.append(
                    f"board {t.board or '?'}: {t.played} result{'s' if t.played != 1 else ''}"
                    f" scored on the top of {s.expected} (Neuberg)"
                )
            scored.append(s)
    elif method is Method.BUTLER:
        scored = [score_butler(t) for t in trs]
    elif method is Method.CROSS_IMP:
        scored = [score_cross(t, cross) for t in trs]
    else:
        raise ValueError(f"{method} is not a pairs method")
    for s in scored:
        if s.note:
            notes.append(f"board {s.traveller.board}: not scored ({s.note})")
    # session totals
    totals: dict[tuple[str, str], Fraction] = {}
    tops: dict[tuple[str, str], Fraction] = {}
    boards: dict[tuple[str, str], int] = {}
    names: dict[tuple[str, str], str] = {}  # (direction, pair number) -> its players' names
    ns_pairs: set[str] = set()
    ew_pairs: set[str] = set()
    both_ways = False  # a board has one id both N-S and E-W: two pairs (a Mitchell), not one
    for s in scored:
        ids = [(se.entry.ns, se.entry.ew) for se in s.entries]
        both_ways = both_ways or bool({ns for ns, _ in ids if ns} & {ew for _, ew in ids if ew})
        for se in s.entries:
            e = se.entry
            for direction, pair, who in (("NS", e.ns, e.names[0]), ("EW", e.ew, e.names[1])):
                if pair is not None and who is not None and who != pair:
                    names.setdefault((direction, pair), who)
            if e.multiplicity != 1 or se.ns is None or se.ew is None:
                continue
            for direction, pair, value in (("NS", e.ns, se.ns), ("EW", e.ew, se.ew)):
                if pair is None:
                    continue
                (ns_pairs if direction == "NS" else ew_pairs).add(pair)
                k = (direction, pair)
                totals[k] = totals.get(k, Fraction(0)) + value
                tops[k] = tops.get(k, Fraction(0)) + (s.top or 0)
                boards[k] = boards.get(k, 0) + 1
    is_mp = method in (Method.MP, Method.MP2)
    rankings: list[Ranking] = []
    if ns_pairs & ew_pairs and not both_ways:  # pairs changed direction (a Howell): one field
        t2: dict[str, Fraction] = {}
        p2: dict[str, Fraction] = {}
        b2: dict[str, int] = {}
        for (_, pair), v in totals.items():
            t2[pair] = t2.get(pair, Fraction(0)) + v
        for (_, pair), v in tops.items():
            p2[pair] = p2.get(pair, Fraction(0)) + v
        for (_, pair), v in boards.items():
            b2[pair] = b2.get(pair, 0) + v
        both = {p: n for (_, p), n in reversed(names.items())}  # the names first seen, either direction
        rankings.append(Ranking("pairs", _named(_rank_rows(t2, b2, p2 if is_mp else None), both)))
    else:
        for direction in ("NS", "EW"):
            t1 = {p: v for (d, p), v in totals.items() if d == direction}
            if not t1:
                continue
            p1 = {p: v for (d, p), v in tops.items() if d == direction}
            b1 = {p: v for (d, p), v in boards.items() if d == direction}
            n1 = {p: n for (d, p), n in names.items() if d == direction}
            rankings.append(Ranking(direction, _named(_rank_rows(t1, b1, p1 if is_mp else None), n1)))
    return scored, rankings, notes


def _split_board_notes(trs: Sequence[Traveller]) -> list[str]:
    """Why a board number has several travellers (one a deal,
    :func:`~handrec.events.travellers.travellers`): a fouled board (Law 87,
    :mod:`handrec.events.checks_boards` S613: different deals in one section, stage and round;
    S615: the same deal with another dealer or vulnerability; Law 87B scores each form of the
    board apart), or sections, stages or rounds that reuse the number, or games that give no
    deal."""
    by_board: dict[str, list[Traveller]] = {}
    for t in trs:
        if t.board:
            by_board.setdefault(t.board, []).append(t)
    notes: list[str] = []
    for board, ts in by_board.items():
        if len(ts) < 2:
            continue
        groups: dict[tuple[str, ...], set[str | None]] = {}
        forms: dict[tuple[str, ...], set[tuple[object, ...]]] = {}
        for t in ts:
            for e in t.entries:
                r = e.record
                if r is not None:
                    groups.setdefault(r.match[:3], set()).add(t.deal)
                    forms.setdefault(r.match[:3], set()).add((t.deal, r.dealer, r.vulnerable))
        each = "deal"
        if any(len(d - {None}) > 1 for d in groups.values()):
            why = (
                "the board was played with different deals (a fouled board, Law 87),"
                " the results of each deal are scored apart"
            )
        elif any(len(f) > len(groups[k]) for k, f in forms.items()):
            each = "dealer and vulnerability"
            why = (
                "the board was played with a different dealer or vulnerability (a fouled board, Law 87A),"
                " the results of each are scored apart"
            )
        elif len(groups) > 1:
            why = "sections, stages or rounds reuse the board number"
        elif any(t.deal is None for t in ts):
            why = "some games give no deal"
        else:
            why = "its results come from different sources"
        notes.append(f"board {board}: {len(ts)} travellers, one for each {each}: {why}")
    return notes
