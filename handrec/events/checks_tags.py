"""The claimed Score tags of each game checked against its board's results: ScoreMP (S603),
ScoreIMP (S604), ScorePercentage (S605), ScoreRubber (S606), and figures that cannot be
read (S609) or no scoring can give (S616).

Part of :func:`handrec.events.checks.check_event` (the module doc there says what each
code checks); :class:`_Context` is what all the checks of one input share, the tables'
checks (:mod:`handrec.events.checks_tables`) included.

Sources: PBN 2.1 §4.2; bridge-rules.md §5, §6, §8.2-8.5.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from handrec.diagnostics import CODES, Diagnostic, make
from handrec.events.claims import _Part, agrees, parse_claim
from handrec.events.games import GameRecord
from handrec.events.report import fmt_number, fmt_percent
from handrec.events.rubber_chicago import deal_result
from handrec.events.travellers import Traveller
from handrec.model import Seat, Side, Span
from handrec.rules.board import scoring_fields
from handrec.scoring.chicago import score_chicago
from handrec.scoring.imps import imps
from handrec.scoring.rubber import DealResult, score_rubber
from handrec.scoring.traveller import Scale, matchpoints, top


def _at(r: GameRecord, span: Span | None) -> Span:
    """``span``, else the game's Board tag, else its first line at column 1: a diagnostic's
    column is 1-based, never 0."""
    return span if span is not None else r.span("Board")


def _side_of(r: GameRecord, side: str | None) -> str:
    if side is not None:
        return side
    d = r.declarer
    return "EW" if d is not None and d.side is Side.EW else "NS"


def _fits(parts: Sequence[_Part], r: GameRecord, ns: Fraction, ew: Fraction) -> bool:
    return all(agrees(p.value, p.decimals, ns if _side_of(r, p.side) == "NS" else ew) for p in parts)


def _shown(parts: Sequence[_Part], r: GameRecord, ns: Fraction, ew: Fraction, fmt=fmt_number) -> str:
    out = []
    for p in parts:
        side = _side_of(r, p.side)
        v = fmt(ns if side == "NS" else ew)
        out.append(v if p.side is None else f"{side} {v}")
    return " ".join(out)


#: The code of an impossible claimed figure (:func:`~handrec.events.claims.impossible_claim`): S616 once
#: :mod:`handrec.diagnostics` registers it, S609 (a claimed value that cannot be used) until then.
_IMPOSSIBLE = "S616"


def _impossible(r: GameRecord, tag: str, value: str, span: Span | None, why: str) -> Diagnostic:
    if _IMPOSSIBLE in CODES:
        return make(_IMPOSSIBLE, r.origin, _at(r, span), tag=tag, value=value, detail=why)
    return make("S609", r.origin, _at(r, span), tag=tag, value=value)


@dataclass(slots=True)
class _Context:
    """What the checks of one input share: travellers by record, the most-played board per event."""

    recs: Sequence[GameRecord]
    trav_of: dict[int, tuple[Traveller, int]]
    most: dict[tuple[str, str], int]
    out: list[Diagnostic]
    rooms: dict[tuple[object, ...], list[GameRecord]] | None = None

    def room_games(self, r: GameRecord, room: str) -> list[GameRecord]:
        """The games of ``r``'s teams match and board played in ``room`` (index built on first use)."""
        if self.rooms is None:
            self.rooms = {}
            for x in self.recs:
                if x.room is not None and x.key is not None:
                    self.rooms.setdefault((x.match, x.key, x.room), []).append(x)
        return self.rooms.get((r.match, r.key, room), [])


def _traveller(ctx: _Context, r: GameRecord) -> tuple[Traveller, int] | None:
    """The games traveller of ``r`` and its index, when ``r`` has a score and is compared with another."""
    found = ctx.trav_of.get(id(r))
    if found is None or r.score_ns is None or found[0].played < 2:
        return None
    return found


def _mp_scales(r: GameRecord) -> list[Scale]:
    """The scales a ScoreMP may use: PBN ``MP2`` = 1 / 0.5, ``MP1`` = 2 / 1; undeclared: both, 2 / 1 first."""
    f = scoring_fields(r.scoring)
    if "MP2" in f:
        return [Scale.MP]
    if "MP1" in f:
        return [Scale.MP2]
    return [Scale.MP2, Scale.MP]


def _mp_values(t: Traveller, i: int, scale: Scale, expected: int | None) -> tuple[Fraction, Fraction]:
    """(N-S, E-W) matchpoints of entry ``i`` (games traveller: multiplicity 1, no artificial scores)."""
    scores = t.scores()
    pos = sum(1 for e in t.entries[:i] if e.score_ns is not None)
    exp = expected if expected is not None and expected != len(scores) else None
    ns = matchpoints(scores, scale=scale, expected=exp)[pos]
    ew = matchpoints(scores, scale=scale, side=Side.EW, expected=exp)[pos]
    return ns, ew


def _alternatives(ctx: _Context, r: GameRecord, t: Traveller) -> list[int | None]:
    most = ctx.most.get(r.session, 0)
    return [None, most] if most > t.played else [None]


def _check_mp(ctx: _Context, r: GameRecord, value: str, span: Span | None, parts: Sequence[_Part]) -> None:
    found = _traveller(ctx, r)
    if found is None:
        return
    t, i = found
    scales = _mp_scales(r)
    for scale in scales:
        for exp in _alternatives(ctx, r, t):
            if _fits(parts, r, *_mp_values(t, i, scale, exp)):
                return
    ns, ew = _mp_values(t, i, scales[0], None)
    scale_text = "2/1" if scales[0] is Scale.MP2 else "1/0.5"
    ctx.out.append(
        make(
            "S603",
            r.origin,
            _at(r, span),
            value=value,
            detail=f"matchpointing the {t.played} results of board {t.board or '?'} on the {scale_text} scale",
            expected=_shown(parts, r, ns, ew),
        )
    )


def _check_percentage(ctx: _Context, r: GameRecord, value: str, span: Span | None, parts: Sequence[_Part]) -> None:
    found = _traveller(ctx, r)
    if found is None:
        return
    t, i = found
    for exp in _alternatives(ctx, r, t):
        n = exp or t.played
        ns, ew = _mp_values(t, i, Scale.MP, exp)
        if _fits(parts, r, 100 * ns / top(n), 100 * ew / top(n)):
            return
    ns, ew = _mp_values(t, i, Scale.MP, None)
    ctx.out.append(
        make(
            "S605",
            r.origin,
            _at(r, span),
            value=value,
            detail=f"matchpointing the {t.played} results of board {t.board or '?'}",
            expected=_shown(parts, r, 100 * ns / top(t.played), 100 * ew / top(t.played), fmt_percent),
        )
    )


def _butler_data(scores: Sequence[int]) -> list[Fraction]:
    """Datums PBN's Butler modifiers allow: mean of all, mean without one top and one bottom; exact or to 10."""
    ordered = sorted(scores)
    out = [Fraction(sum(ordered), len(ordered))]
    if len(ordered) >= 3:
        out.append(Fraction(sum(ordered[1:-1]), len(ordered) - 2))
    for d in list(out):
        tens, rest = divmod(abs(d), 10)
        out.append(Fraction(10 * (tens + (1 if rest >= 5 else 0))) * (1 if d >= 0 else -1))
    return out


def _imp_methods(r: GameRecord, scores: Sequence[int], score: int, place: str) -> tuple[str, list[Fraction]] | None:
    """(description, acceptable N-S IMPs) for a result by the Scoring modifiers, else ``None``.
    The description is the subject of a message's "gives": ``scoring Cross2 IMPs against the
    3 other results of board 1`` (``place``: ``board 1``, ``the table``...)."""
    f = scoring_fields(r.scoring)
    n = len(scores)
    if any(x.startswith("BUTLER") for x in f) and n >= 2:
        values = [Fraction(imps(score - d)) for d in _butler_data(scores)]
        return f"scoring Butler IMPs against the datum of the {n} results of {place}", values
    cross = [x for x in ("CROSS", "CROSS1", "CROSS2") if x in f]
    if cross and n >= 2:
        total = Fraction(sum(imps(score - s) for s in scores))
        values = {"CROSS": total, "CROSS1": total / n, "CROSS2": total / (n - 1)}
        others = f"the {n - 1} other result{'s' if n > 2 else ''}"
        return f"scoring {cross[0].title()} IMPs against {others} of {place}", [values[c] for c in cross]
    return None


def _check_imp(ctx: _Context, r: GameRecord, value: str, span: Span | None, parts: Sequence[_Part]) -> None:
    if r.score_ns is None:
        return
    if r.room in ("Open", "Closed"):
        other = "Closed" if r.room == "Open" else "Open"
        mates = ctx.room_games(r, other) if r.key is not None else []
        if len(mates) == 1 and mates[0].score_ns is not None:
            v = Fraction(imps(r.score_ns - mates[0].score_ns))
            if not _fits(parts, r, v, -v):
                ctx.out.append(
                    make(
                        "S604",
                        r.origin,
                        _at(r, span),
                        value=value,
                        detail=f"NS {r.score_ns} against NS {mates[0].score_ns} in the {other} room",
                        expected=_shown(parts, r, v, -v),
                    )
                )
            return
    found = _traveller(ctx, r)
    if found is None:
        return
    t, _ = found
    m = _imp_methods(r, t.scores(), r.score_ns, f"board {t.board or '?'}")
    if m is None:
        return
    what, values = m
    if any(_fits(parts, r, v, -v) for v in values):
        return
    ctx.out.append(
        make(
            "S604",
            r.origin,
            _at(r, span),
            value=value,
            detail=what,
            expected=_shown(parts, r, values[-1], -values[-1]),
        )
    )


# --- rubber and Chicago --------------------------------------------------------------------


def _check_rubber(ctx: _Context) -> None:
    """ScoreRubber of each game of a Rubber (or Chicago) sequence, per file in file order."""
    by_path: dict[str, list[GameRecord]] = {}
    for r in ctx.recs:
        f = scoring_fields(r.scoring) | scoring_fields(r.competition)
        if "RUBBER" in f or "CHICAGO" in f:
            by_path.setdefault(r.origin.path, []).append(r)
    for seq in by_path.values():
        chicago = "CHICAGO" in scoring_fields(seq[0].scoring) | scoring_fields(seq[0].competition)
        results: list[DealResult] = []
        for r in seq:
            dr = deal_result(r)
            if dr is None:
                break  # the sequence is unknown from here on
            results.append(dr)
        per_deal = _chicago_lines(results, seq) if chicago else _rubber_lines(results, seq)
        for r, (above, below) in zip(seq, per_deal):
            for c in r.claims:
                if c.tag != "ScoreRubber":
                    continue
                parts = parse_claim(c.tag, c.value)
                if not parts:
                    continue
                bad = False
                shown = []
                for p in parts:
                    side = Side.NS if _side_of(r, p.side) == "NS" else Side.EW
                    exp = f"{above[side]}/{below[side]}"
                    shown.append(exp if p.side is None else f"{side} {exp}")
                    bad |= (int(p.value), p.below) != (above[side], below[side])
                if bad:
                    form = "Chicago" if chicago else "rubber"
                    ctx.out.append(
                        make(
                            "S606",
                            r.origin,
                            _at(r, c.span),
                            value=c.value,
                            detail=f"deal {seq.index(r) + 1} of the {form} ({r.contract} by {r.declarer}, "
                            f"{r.tricks} tricks)",
                            expected=" ".join(shown),
                        )
                    )


def _rubber_lines(results: list[DealResult], seq: Sequence[GameRecord]) -> list[tuple[list[int], list[int]]]:
    """(above, below) points per side written on each deal, rubbers following each other."""
    out: list[tuple[list[int], list[int]]] = []
    first = next((r.dealer for r in seq if r.dealer is not None), Seat.NORTH)
    chunk: list[DealResult] = []
    done = 0
    for dr in results:
        chunk.append(dr)
        sheet = score_rubber(chunk, first_dealer=first)
        rd = sheet.deals[-1]
        above, below = [0, 0], [0, 0]
        for e in rd.entries:
            (below if e.below else above)[e.side] += e.points
        out.append((above, below))
        done += 1
        if sheet.finished:
            first = sheet.next_dealer
            chunk = []
    return out


def _chicago_lines(results: list[DealResult], seq: Sequence[GameRecord]) -> list[tuple[list[int], list[int]]]:
    """(above, below) points per side on each Chicago deal: below = trick score of a made contract."""
    first = next((r.dealer for r in seq if r.dealer is not None), Seat.NORTH)
    res = score_chicago(results, first_dealer=first)
    out = []
    for d in res.deals:
        below = list(d.below)
        above = [d.points[0] - below[0], d.points[1] - below[1]]
        out.append((above, below))
    return out
