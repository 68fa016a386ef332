"""Checking claimed figures: a file's ScoreMP, ScoreIMP, ScorePercentage, ScoreRubber,
ScoreTable and TotalScoreTable values against what handrec computes.

These figures compare a result with the other results of its board (or with
the deals before it in a rubber), so they can only be checked once every
board of an input has been read.  The validator streams boards; for each
input it feeds an :class:`EventChecker` with small per-board records
(:class:`handrec.events.games.GameRecord`, one replay per board, shared with the
board checks) and calls :meth:`EventChecker.finish` at the end of the input:

>>> from handrec.formats.dispatch import read
>>> import io
>>> text = '''[Event "Club"]
... [Board "1"]
... [Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]
... [Contract "4S"]
... [Declarer "N"]
... [Result "10"]
... [ScoreMP "NS 2"]
...
... [Event "Club"]
... [Board "1"]
... [Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]
... [Contract "4S"]
... [Declarer "N"]
... [Result "9"]
... '''
>>> checker = EventChecker()
>>> for board in read(io.StringIO(text)):
...     checker.add(board)
>>> [str(d) for d in checker.finish()]
[]

What is checked (each disagreement is reported at the tag or table row,
with the file's value and handrec's):

* **S603 ScoreMP**: the game's matchpoints among the games of the same board
  in the input (Event + Date + board + deal, dealer and vulnerability).  PBN
  2.1 §4.2.3 defines ScoreMP on the 2 / 1 scale (``MP1``); a Scoring tag with
  ``MP2`` asks for 1 / 0.5.
  When the Scoring tag names neither, either scale is accepted.
* **S605 ScorePercentage**: 100 * matchpoints / top (bridge-rules.md §8.3).
  For both, a value scaled by Neuberg's formula to the most-played board of
  the session is accepted too.
* **S604 ScoreIMP**: between the Open and Closed rooms of a teams match
  (bridge-rules.md §8.2); otherwise as the Scoring modifiers say: ``Butler``
  (datum: mean of all scores, or without one top and one bottom, exact or
  rounded to 10: bridge-rules.md §8.4, PBN 2.1 §3.4.12), ``Cross`` (sum of
  IMPs against every other score), ``Cross1`` (÷ number of scores),
  ``Cross2`` (÷ comparisons) (§8.5).  Plain ``IMP`` with no rooms is not
  checked (the method is unknown).
* **S606 ScoreRubber**: the above / below the line points of the deal in the
  input's sequence of Rubber (or Chicago) games, in file order
  (bridge-rules.md §5, §6).
* **S607 ScoreTable**: per row, Score_NS / Score_EW against the row's
  Contract, Declarer, Result (Law 77); Rank; MP_NS / MP_EW; Percentage_NS /
  Percentage_EW; IMP_NS / IMP_EW (Butler or Cross modifiers) against the
  table's own results (the rows, with their Multiplicity), or those of the
  largest table of the same board when this one lists a subset of it.
  A percentage that follows 100 * (MP + 1/2) / n instead (each result also
  counted as tying with itself, as the PBN 2.0 reference file does) is the
  warning S611, not S607.
* **S608 TotalScoreTable**: Mean* = Total* / NrBoards; the Rank against the
  sorted column; the percentage against TotalMP / NrBoards on the top per
  board that the other rows share; and, when the event's boards are in the
  input, NrBoards / TotalMP / TotalPercentage / TotalIMP of each pair
  against the event scored by :mod:`handrec.events.event_score` (cross-IMPs summed or divided as
  the Scoring tag's ``Cross``, ``Cross1``, ``Cross2`` say, as ``handrec score`` does).
* **S609** (warning): a claimed value that cannot be read.
* **S616**: a claimed ScorePercentage, ScoreIMP or ScoreMP that no scoring can give, checked
  on every game, a board played once included (:func:`impossible_claim`): a percentage
  outside 0-100, negative matchpoints; for a played result, N-S and E-W percentages that do
  not add up to 100, or IMPs that do not add up to 0.  Reported instead of S603-S605 (S609
  while :mod:`handrec.diagnostics` does not register S616).
* **S612** (warning): a pair that plays a board a second time (the same N-S,
  or E-W, pair at two tables of a traveller; Law 15A).  Checked for every
  input, with claims or not (:func:`check_pairs`).
* **S613** (warning): a fouled board (Law 87): games of one session (Event and
  session date), section, stage, round and board number played with different
  deals; once per extra deal, at its Deal tag.  Each deal's results form
  their own traveller (Law 87B: the Director scores each group apart).
* **S615** (warning): a fouled board (Law 87A): such games with the same deal
  but another dealer or vulnerability; once per extra form, at its Dealer
  (else Vulnerable) tag, naming a copy that agrees with the board number
  (Law 2) when one does.  Each form's results are a traveller of their own.
* **S614** (warning): a board given again with the same deal, in the same
  room, with neither players nor a result (a hand-record file listing a
  board twice).  S613-S615 are checked for every input, like S612.

Every comparison stays within a session: the games of one Event tag and one
session date (:func:`handrec.events.sessions.dated`, from
:func:`handrec.events.games.session_date` of the Date tag; PBN 2.1 §3.4.3,
bridge-rules.md §8.3), as ``handrec score`` groups them
(:func:`handrec.events.sessions.group_sessions`).  An event's dates, in order, are one
session until a date conflicts with the date just before it: at least two board
numbers that both dates have were played with different deals (a club's weekly
"Monday Pairs", new deals each week).  A session takes its first date: a session
that runs past midnight, with a Date on each board, is not split, a board of it
is no fouled board (S613) for being dated on both sides of midnight, and one
board played with another deal after midnight is a fouled board (S613), not a
new session.  A game without a Date tag takes its event's date when the event
has one session.  Positions are
1-based: a table row's fault is at its element (else its row, else the
table tag), a whole game's (S612, S614) at its first line, column 1.

Decimals: a claimed ``97.3`` agrees with any exact value within half a unit
of its last digit (either rounding rule).  Figures that cannot be computed
(a board played once in the input, an unknown method, an incomplete table)
are not compared, but are still checked for being possible at all (S616).

Sources: PBN 2.1 §4.2, §5.3; bridge-rules.md §4, §5, §6, §8; Law 12C2.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from handrec.diagnostics import CODES, Diagnostic, make
from handrec.events.games import GameRecord, TableView, record
from handrec.events.methods import Method, cross_for
from handrec.events.pairs import score_matchpoints, score_pairs
from handrec.events.report import fmt_number, fmt_percent
from handrec.events.rubber_chicago import deal_result
from handrec.events.sessions import dated
from handrec.events.travellers import Entry, Traveller, row_score, table_entries, travellers
from handrec.model import Board, Seat, Side, Span, sided_parts
from handrec.rules.board import dealer_for_board, own_vulnerability, scoring_fields, vulnerability_for_board
from handrec.rules.replay import _PBN_VUL, Replay
from handrec.scoring.chicago import score_chicago
from handrec.scoring.imps import imps
from handrec.scoring.rubber import DealResult, score_rubber
from handrec.scoring.traveller import MAX_MULTIPLICITY, Scale, artificial_mp, matchpoints, top

__all__ = ["EventChecker", "check_event", "check_pairs", "parse_claim", "agrees", "impossible_claim"]


class EventChecker:
    """Collects the boards of one input and checks their claimed figures at the end.

    ``add(board, replay)`` once per board (pass the replay when it exists,
    to avoid a second one); ``finish()`` returns the diagnostics, sorted by
    position, and forgets the input.  Memory: one small record per board.
    """

    def __init__(self) -> None:
        self._records: list[GameRecord] = []
        self._wanted = False

    def add(self, board: Board, rep: Replay | None = None) -> None:
        """Record one board (``rep``: its replay, computed when not given)."""
        self.add_record(record(board, rep))

    def add_record(self, r: GameRecord) -> None:
        """Record one game already reduced by :func:`handrec.events.games.record` (in a worker process,
        say: a :class:`~handrec.events.games.GameRecord` pickles, a board need not travel)."""
        self._records.append(r)
        self._wanted = self._wanted or bool(r.claims or r.tables)

    def finish(self) -> list[Diagnostic]:
        """The diagnostics of the claimed figures of the input; resets the checker."""
        recs, wanted = self._records, self._wanted
        self._records, self._wanted = [], False
        return check_event(recs) if wanted else check_pairs(recs)


# --- claimed values ------------------------------------------------------------------------

_NUM = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)"
_RUB = r"\d+\s*/\s*\d+"


@dataclass(frozen=True, slots=True)
class _Part:
    side: str | None  # "NS", "EW", or None (declarer's side)
    value: Fraction
    decimals: int
    below: int | None = None  # ScoreRubber: the second number (below the line)


def _decimals(text: str) -> int:
    t = text.strip()
    return len(t.split(".", 1)[1]) if "." in t else 0


def parse_claim(tag: str, value: str) -> tuple[_Part, ...] | None:
    """Read a claimed figure in the five forms of PBN 2.1 §4.2.1 (``12``, ``NS 12``, ``EW -3``,
    ``NS 4 EW -4``, ``EW -4 NS 4``); ScoreRubber values are ``above/below``.  ``None`` if unreadable.

    >>> [(p.side, str(p.value), p.decimals) for p in parse_claim("ScorePercentage", "NS 26.32")]
    [('NS', '658/25', 2)]
    >>> [(p.side, int(p.value), p.below) for p in parse_claim("ScoreRubber", "EW 300/40 NS 50 / 70")]
    [('EW', 300, 40), ('NS', 50, 70)]
    """
    rubber = tag == "ScoreRubber"
    parts = sided_parts(value, _RUB if rubber else _NUM, any_case=True)
    if parts is None:
        return None
    out = []
    for side, v in parts:
        if rubber:
            a, b = (int(x) for x in v.split("/"))
            out.append(_Part(side, Fraction(a), 0, b))
        else:
            out.append(_Part(side, Fraction(v.strip()), _decimals(v)))
    return tuple(out)


def agrees(claimed: Fraction, decimals: int, exact: Fraction) -> bool:
    """Whether a claimed decimal with ``decimals`` digits is ``exact`` rounded (either rounding rule).

    >>> agrees(Fraction("26.32"), 2, Fraction(500, 19)), agrees(Fraction(4), 0, Fraction(9, 2))
    (True, True)
    >>> agrees(Fraction(10), 0, Fraction(11))
    False
    """
    return abs(claimed - exact) <= Fraction(1, 2 * 10**decimals)


#: A fault of a whole game (S612, S614): at its first line, column 1 (columns are 1-based).
_GAME = Span(1, 1)


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


def _half(p: _Part) -> Fraction:
    """Half a unit of the last digit of a claimed value: how far it may be from the exact one."""
    return Fraction(1, 2 * 10**p.decimals)


def impossible_claim(tag: str, parts: Sequence[_Part], *, played: bool = True) -> str | None:
    """Why a claimed ScorePercentage, ScoreIMP or ScoreMP (:func:`parse_claim`) is impossible
    whatever the other results of its board, else ``None``.  Needs no other result: checked
    for every game, a board played once included.

    * a percentage is 0 to 100 (PBN 2.1 §4.2.4); matchpoints are never negative (§4.2.3,
      bridge-rules.md §8.3);
    * for a played result (a score, ``played``), N-S and E-W given both: the percentages add
      up to 100 (100 * (MP_NS + MP_EW) / top, MP_NS + MP_EW = top, Neuberg's formula
      included) and the IMPs to 0 (what one side wins the other loses: teams, Butler and
      cross-IMPs, §8.2-8.5).  An unplayed board's Law 12C2 artificial scores need not
      (40 % to both sides at fault), so they are not checked.

    Decimals: a value within half a unit of its last digit of a possible one is possible
    (as :func:`agrees`).

    >>> impossible_claim("ScorePercentage", parse_claim("ScorePercentage", "NS 126.32"))
    'a percentage is from 0 to 100'
    >>> impossible_claim("ScoreIMP", parse_claim("ScoreIMP", "NS 4 EW 4"))
    'the N-S and E-W IMPs add up to 8, not 0 (what one side wins, the other loses)'
    >>> impossible_claim("ScorePercentage", parse_claim("ScorePercentage", "NS 33.33 EW 66.67")) is None
    True
    """
    if tag == "ScorePercentage":
        for p in parts:
            if p.value < -_half(p) or p.value > 100 + _half(p):
                return "a percentage is from 0 to 100"
    elif tag == "ScoreMP":
        for p in parts:
            if p.value < -_half(p):
                return "matchpoints are never negative"
    if len(parts) != 2 or not played:
        return None
    total = parts[0].value + parts[1].value
    slack = _half(parts[0]) + _half(parts[1])
    if tag == "ScorePercentage" and abs(total - 100) > slack:
        return f"the N-S and E-W percentages add up to {fmt_number(total)}, not 100"
    if tag == "ScoreIMP" and abs(total) > slack:
        return f"the N-S and E-W IMPs add up to {fmt_number(total)}, not 0 (what one side wins, the other loses)"
    return None


#: The code of an impossible claimed figure (:func:`impossible_claim`): S616 once
#: :mod:`handrec.diagnostics` registers it, S609 (a claimed value that cannot be used) until then.
_IMPOSSIBLE = "S616"


def _impossible(r: GameRecord, tag: str, value: str, span: Span | None, why: str) -> Diagnostic:
    if _IMPOSSIBLE in CODES:
        return make(_IMPOSSIBLE, r.origin, _at(r, span), tag=tag, value=value, detail=why)
    return make("S609", r.origin, _at(r, span), tag=tag, value=value)


# --- the event check -----------------------------------------------------------------------


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


def check_event(recs: Sequence[GameRecord] | Iterable[GameRecord]) -> list[Diagnostic]:
    """Check every claimed figure of one input's records (see the module doc); sorted diagnostics."""
    rs = dated(recs)
    trs = travellers(rs, tables=False)
    trav_of: dict[int, tuple[Traveller, int]] = {}
    most: dict[tuple[str, str], int] = {}  # the most-played board of each session (Event, dated)
    for t in trs:
        for i, e in enumerate(t.entries):
            if e.record is not None:
                trav_of[id(e.record)] = (t, i)
        if t.deal is not None or t.board:
            k = (t.event, t.date)
            most[k] = max(most.get(k, 0), t.played)
    ctx = _Context(rs, trav_of, most, [])
    rubber_claims = False
    for r in rs:
        for c in r.claims:
            parts = parse_claim(c.tag, c.value)
            if parts is None:
                ctx.out.append(make("S609", r.origin, _at(r, c.span), tag=c.tag, value=c.value))
                continue
            bad = impossible_claim(c.tag, parts, played=r.score_ns is not None)
            if bad is not None:
                # a figure no scoring can give: said once, not compared with the board's results too
                ctx.out.append(_impossible(r, c.tag, c.value, c.span, bad))
                continue
            if c.tag == "ScoreMP":
                _check_mp(ctx, r, c.value, c.span, parts)
            elif c.tag == "ScorePercentage":
                _check_percentage(ctx, r, c.value, c.span, parts)
            elif c.tag == "ScoreIMP":
                _check_imp(ctx, r, c.value, c.span, parts)
            else:
                rubber_claims = True
    if rubber_claims:
        _check_rubber(ctx)
    _check_tables(ctx)
    ctx.out.extend(_pairs_twice(trs))
    ctx.out.extend(_boards_twice(rs))
    return sorted(ctx.out, key=lambda d: (d.path, d.line, d.column, d.code))


def check_pairs(recs: Sequence[GameRecord]) -> list[Diagnostic]:
    """S612 for a pair that plays a board a second time, S613 for a fouled board, S614 for a
    board given twice (part of :func:`check_event`, which also checks the claimed figures);
    sorted diagnostics."""
    if len(recs) < 2:
        return []
    recs = dated(recs)
    out = _boards_twice(recs)
    # only boards played more than once can have a pair playing them twice: their
    # travellers alone are built (a file of single games builds none)
    keys = [r.key for r in recs]
    again = {k for k, n in Counter(keys).items() if n > 1 and k is not None}
    if again:
        out.extend(_pairs_twice(travellers([r for r, k in zip(recs, keys) if k in again], tables=False)))
    return sorted(out, key=lambda d: (d.path, d.line, d.column, d.code)) if out else []


#: The length of a full deal's text (:func:`handrec.events.games.deal_text`): ``N:`` and four hands of
#: 13 cards, each with its three dots, between three spaces.  A fragment (an end position, a
#: teaching file's single suit, an unknown hand) is shorter.
_FULL_DEAL_TEXT = 2 + 4 * 16 + 3


def _boards_twice(recs: Iterable[GameRecord]) -> list[Diagnostic]:
    """S613 and S615 (Law 87) and S614 in one pass over the records: a dict entry per board,
    no traveller.

    S613: the games of one session (Event and session date, :func:`dated`), section, stage,
    round and board number (the number, else the Board tag's text) that were played (players
    or a result) with full deals that differ; once per extra deal, at its Deal tag, naming the
    board's first game.  The Open and Closed rooms of a teams match are the same board; other
    sessions, sections, stages, rounds and events may reuse a number for other deals.  Games
    with neither players nor a result (hand records: a dealing program's runs concatenated
    restart their numbers) are not compared.

    S615: such games with the same deal but another dealer or vulnerability (Law 87A: the
    dealer or the vulnerability differed between copies of the board); once per extra form,
    at its Dealer (else Vulnerable) tag, naming the reference game of that deal: its first
    game, or the first that agrees with the board number (Law 2) when the first does not (the
    first is then the copy reported).  A dealer or vulnerability that is not known is not
    compared.

    S614: such a game given again with the same deal in the same room (a hand-record file
    listing a board twice), at the repeat (its first line, column 1), naming the first.  A repeated game
    with players or a result is a traveller line, not a repeat.

    Fragments (deals of fewer than 52 cards: end positions, quizzes) are left alone.
    """
    first: dict[tuple[object, ...], GameRecord] = {}  # the first played game of each board
    deals: dict[tuple[object, ...], set[str | None]] = {}  # the deals of a board seen with two or more
    by_deal: dict[tuple[object, ...], GameRecord] = {}  # the first game of each further deal of a board
    forms: set[tuple[object, ...]] = set()  # the (board, deal, dealer, vulnerable) reported by S615
    reference: dict[tuple[object, ...], GameRecord] = {}  # a deal's copy that agrees with its number (S615)
    listed: dict[tuple[object, ...], GameRecord] = {}  # the first unplayed listing of each board and deal
    out: list[Diagnostic] = []
    for r in recs:
        deal = r.deal
        board = r.board
        if deal is None or len(deal) != _FULL_DEAL_TEXT or not board:
            continue
        if (
            r.ns is None
            and r.ew is None
            and r.contract is None
            and r.tricks is None
            and r.score_ns is None
            and not r.claims
            and not r.tables
        ):
            k = (r.event, r.date, r.match[:3], board, deal, r.room)
            f = listed.setdefault(k, r)
            if f is not r:
                out.append(make("S614", r.origin, _GAME, board=board, other=f.origin.line))
            continue
        k = (r.event, r.date, r.match[:3], board)
        f = first.setdefault(k, r)
        if f is r:
            continue
        if f.deal != deal:
            seen = deals.setdefault(k, {f.deal})
            if deal not in seen:
                seen.add(deal)
                by_deal[(k, deal)] = r
                out.append(make("S613", r.origin, r.span("Deal"), board=board, other=f.origin.line))
                continue
            f = by_deal.get((k, deal), f)
        f = reference.get((k, deal), f)
        if f.dealer != r.dealer or f.vulnerable != r.vulnerable:
            if _by_number(r) and not _by_number(f):
                # the reference copy is the one that disagrees with the board number (Law 2):
                # report it, naming this copy, which becomes the reference of the deal
                f, r = r, f
                reference[(k, deal)] = f
            d = _other_form(f, r, board)
            if d is not None and (k, deal, r.dealer, r.vulnerable) not in forms:
                forms.add((k, deal, r.dealer, r.vulnerable))
                out.append(d)
    return out


def _by_number(r: GameRecord) -> bool:
    """Whether the dealer and vulnerability of ``r`` are those of its board number (Law 2);
    ``False`` without a number, and under a Scoring of Rubber or Chicago (whose vulnerability
    is not the board number's)."""
    n = r.number
    if type(n) is not int or n < 1 or own_vulnerability(r.scoring):
        return False
    return (r.dealer is None or r.dealer == dealer_for_board(n)) and (
        r.vulnerable is None or r.vulnerable == vulnerability_for_board(n)
    )


def _other_form(f: GameRecord, r: GameRecord, board: str) -> Diagnostic | None:
    """S615 for game ``r``, whose dealer or vulnerability is not that of ``f`` (the reference
    game of its deal), or ``None`` when what differs is not known in one of them (Law 87A).
    Vulnerability in the file's words: PBN spells Both "All" (PBN 2.1 §3.4.10), as T104 does."""
    dealer = f.dealer is not None and r.dealer is not None and f.dealer != r.dealer
    vul = f.vulnerable is not None and r.vulnerable is not None and f.vulnerable != r.vulnerable
    if not dealer and not vul:
        return None
    pbn = r.origin.format == "pbn"
    r_vul = _PBN_VUL[r.vulnerable] if pbn and r.vulnerable is not None else r.vulnerable
    f_vul = _PBN_VUL[f.vulnerable] if pbn and f.vulnerable is not None else f.vulnerable
    if dealer and vul:
        detail = f"dealer {r.dealer} and vulnerability {r_vul}, not {f.dealer} and {f_vul}"
    elif dealer:
        detail = f"dealer {r.dealer}, not {f.dealer}"
    else:
        detail = f"vulnerability {r_vul}, not {f_vul}"
    code = "S615" if "S615" in CODES else None
    if code is None:  # not registered yet (handrec.diagnostics): nothing to report it with
        return None
    return make(
        code, r.origin, r.span("Dealer" if dealer else "Vulnerable"), board=board, detail=detail, other=f.origin.line
    )


def _pairs_twice(trs: Sequence[Traveller]) -> list[Diagnostic]:
    """S612 for each game of a traveller whose N-S (or E-W) pair already sat N-S (E-W) at an
    earlier table of the board (Law 15A).  Pairs are compared within a direction and a
    Section only: in a Mitchell movement N-S pair 1 and E-W pair 1 are two pairs, and each
    section numbers its own.  A side known only by one name in both seats (robots, whose
    name is the same at every table) is not compared."""
    out: list[Diagnostic] = []
    for t in trs:
        if t.played < 2:
            continue
        seen: dict[tuple[str, str, str], GameRecord] = {}
        for e in t.entries:
            r = e.record
            if r is None:
                continue
            section = r.match[0] if r.match else ""
            for direction, pair, one_name in (("N-S", e.ns, r.one_name[0]), ("E-W", e.ew, r.one_name[1])):
                if pair is None or one_name:
                    continue
                first = seen.setdefault((section, direction, pair), r)
                if first is not r:
                    board = t.board or "?"
                    out.append(
                        make(
                            "S612",
                            r.origin,
                            _GAME,
                            direction=direction,
                            pair=pair,
                            board=board,
                            other=first.origin.line,
                        )
                    )
    return out


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


# --- tables --------------------------------------------------------------------------------


def _num(text: str) -> tuple[Fraction, int, bool] | None:
    """(value, decimals, artificial) of a numeric cell (``^`` prefix = artificial; quotes allowed)."""
    t = text.strip().strip('"').strip()
    art = t.startswith("^")
    t = t.lstrip("^").strip()
    if not re.fullmatch(_NUM, t):
        return None
    return Fraction(t), _decimals(t), art


def _rank(text: str) -> int | None:
    m = re.match(r"\s*(\d+)", text)
    return int(m.group(1)) if m else None


def _cell(_view: TableView, row: tuple[str, ...], i: int | None) -> str:
    return row[i] if i is not None and i < len(row) else "?"


def _check_tables(ctx: _Context) -> None:
    """S607 / S608 for every ScoreTable and TotalScoreTable of the input."""
    reference: dict[object, tuple[TableView, list[Entry], GameRecord]] = {}
    tables: list[tuple[GameRecord, TableView, list[Entry]]] = []
    for r in ctx.recs:
        for v in r.tables:
            if v.name != "ScoreTable" or not v.rows:
                continue
            es = table_entries(v, r.vulnerable)
            tables.append((r, v, es))
            key = r.key
            size = sum(e.multiplicity for e in es)
            if key is not None and (key not in reference or size > sum(e.multiplicity for e in reference[key][1])):
                reference[key] = (v, es, r)
    for r, v, es in tables:
        ref = reference.get(r.key) if r.key is not None else None
        base = es
        if ref is not None and ref[0] is not v and _subset(es, ref[1]):
            base = ref[1]
        _check_score_table(ctx, r, v, es, base)
    for r in ctx.recs:
        for v in r.tables:
            if v.name == "TotalScoreTable" and v.rows:
                _check_total_table(ctx, r, v)


def _subset(small: list[Entry], big: list[Entry]) -> bool:
    count: dict[int, int] = {}
    for e in big:
        if e.score_ns is not None:
            count[e.score_ns] = count.get(e.score_ns, 0) + e.multiplicity
    for e in small:
        if e.score_ns is None:
            return False
        count[e.score_ns] = count.get(e.score_ns, 0) - e.multiplicity
        if count[e.score_ns] < 0:
            return False
    return True


def _row_fault(
    ctx: _Context,
    code: str,
    r: GameRecord,
    v: TableView,
    i: int,
    column: str,
    value: str,
    detail: str,
    expected: str,
    note: str = "",
) -> None:
    """S607 (a ScoreTable row), S608 (a TotalScoreTable row) or S611: a claimed element that
    disagrees, at the element (``column`` of row ``i``) when its position is known, else at
    the row, else at the table tag (PBN 2.1 §5.3)."""
    ctx.out.append(
        make(
            code,
            r.origin,
            _at(r, v.cell_span(i, column)),
            row=i + 1,
            column=column,
            value=value.strip(),
            detail=detail,
            expected=expected,
            note=note,
        )
    )


def _check_score_table(ctx: _Context, r: GameRecord, v: TableView, es: list[Entry], base: list[Entry]) -> None:
    """One ScoreTable: its rows against the Laws and against the traveller ``base`` (its own rows or a larger table)."""
    ix = v.index
    i_sns, i_sew = ix("Score_NS"), ix("Score_EW")
    i_c, i_d, i_r = ix("Contract"), ix("Declarer"), ix("Result")
    # --- scores against contract and result (Law 77) ------------------------------------------
    for n, row in enumerate(v.rows):
        sns = _num(_cell(v, row, i_sns))
        sew = _num(_cell(v, row, i_sew))
        contract, decl = _cell(v, row, i_c).strip(), _cell(v, row, i_d).strip()
        res = _num(_cell(v, row, i_r))
        tricks = int(res[0]) if res is not None and res[0].denominator == 1 else None
        computed = row_score(contract, decl, tricks, r.vulnerable)
        ns_value = sns[0] if sns is not None and not sns[2] else None
        if ns_value is not None and computed is not None and ns_value != computed:
            _row_fault(
                ctx,
                "S607",
                r,
                v,
                n,
                "Score_NS",
                _cell(v, row, i_sns),
                f"{contract} by {decl} taking {tricks} tricks ({r.vulnerable} vulnerable)",
                str(computed),
            )
        ref_ns = computed if computed is not None else ns_value
        if sew is not None and not sew[2] and ref_ns is not None and sew[0] != -ref_ns:
            _row_fault(ctx, "S607", r, v, n, "Score_EW", _cell(v, row, i_sew), "the N-S score", str(-ref_ns))
    # --- comparisons with the other results --------------------------------------------------
    trav = Traveller(r.event, r.board, r.deal, tuple(base), "ScoreTable", r.date)
    n_all = trav.size
    i_rank = ix("Rank")
    if i_rank is not None:
        for row, e in zip(v.rows, es):
            rk = _rank(_cell(v, row, i_rank))
            if rk is not None and rk + e.multiplicity - 1 > n_all:
                return  # an incomplete traveller: its rows cannot be compared
    scores = trav.scores()
    if len(scores) < 2:
        return
    by_score = _score_index(base)
    place = "the table" if base is es else "the board's larger table"
    what = f"the {n_all} results of {place}"
    # Rank: 1 + the results with a better N-S score
    if i_rank is not None:
        for n, (row, e) in enumerate(zip(v.rows, es)):
            rk = _rank(_cell(v, row, i_rank))
            if rk is None or e.score_ns is None:
                continue
            exp = 1 + sum(1 for s in scores if s > e.score_ns)
            if rk != exp:
                _row_fault(
                    ctx, "S607", r, v, n, "Rank", _cell(v, row, i_rank), f"N-S {e.score_ns} among {what}", str(exp)
                )
    _check_table_mp(ctx, r, v, es, trav, by_score, what)
    _check_table_imps(ctx, r, v, es, trav, place)


def _score_index(base: list[Entry]) -> dict[int, int]:
    """N-S score -> index of its first entry in ``base``."""
    out: dict[int, int] = {}
    for i, e in enumerate(base):
        if e.score_ns is not None and e.score_ns not in out:
            out[e.score_ns] = i
    return out


def _check_table_mp(
    ctx: _Context,
    r: GameRecord,
    v: TableView,
    es: list[Entry],
    trav: Traveller,
    by_score: dict[int, int],
    what: str,
) -> None:
    """MP_* and Percentage_* columns of a ScoreTable (bridge-rules.md §8.3; Law 12C2)."""
    cols = {c: v.index(c) for c in ("MP_NS", "MP_EW", "Percentage_NS", "Percentage_EW")}
    if all(i is None for i in cols.values()):
        return
    scored = {scale: score_matchpoints(trav, scale) for scale in (Scale.MP, Scale.MP2)}
    n = trav.size

    def values(e: Entry, scale: Scale) -> tuple[Fraction, Fraction, Fraction | None, Fraction | None] | None:
        if e.score_ns is not None:
            j = by_score.get(e.score_ns)
            if j is None:
                return None
            se = scored[scale].entries[j]
        elif e.artificial is not None:
            a = artificial_mp(e.artificial[0], n, scale=scale)
            b = artificial_mp(e.artificial[1], n, scale=scale)
            t = top(n, scale)
            return a, b, (100 * a / t if t else None), (100 * b / t if t else None)
        else:
            return None
        if se.ns is None or se.ew is None:
            return None
        return se.ns, se.ew, se.pct_ns, se.pct_ew

    # the scale of the MP columns: declared by Scoring, else the one most rows agree with
    f = scoring_fields(r.scoring)
    scales = [Scale.MP] if "MP2" in f else [Scale.MP2] if "MP1" in f else [Scale.MP2, Scale.MP]
    if len(scales) > 1:
        fits = {s: 0 for s in scales}
        for row, e in zip(v.rows, es):
            for s in scales:
                vals = values(e, s)
                for k, col in enumerate(("MP_NS", "MP_EW")):
                    c = _num(_cell(v, row, cols[col]))
                    if vals is not None and c is not None and agrees(c[0], c[1], vals[k]):
                        fits[s] += 1
        scales = [max(scales, key=lambda s: fits[s])]
    scale = scales[0]
    scale_text = "2/1" if scale is Scale.MP2 else "1/0.5"
    for n_row, (row, e) in enumerate(zip(v.rows, es)):
        vals = values(e, scale)
        if vals is None:
            continue
        for k, col in enumerate(("MP_NS", "MP_EW", "Percentage_NS", "Percentage_EW")):
            cell = _cell(v, row, cols[col])
            c = _num(cell)
            exact = vals[k]
            if c is None or exact is None or agrees(c[0], c[1], exact):
                continue
            detail = f"matchpointing {what} on the {scale_text} scale" if k < 2 else f"100 * MP / top over {what}"
            shown = fmt_number(exact) if k < 2 else fmt_percent(exact)
            if k >= 2 and e.score_ns is not None:
                # a known non-standard formula, each result also compared with itself: a warning (S611)
                own = vals[0] if col == "Percentage_NS" else vals[1]
                alt = 100 * (own / scale.value + Fraction(1, 2)) / n
                if agrees(c[0], c[1], alt):
                    note = f"100 * (MP + 1/2) / n = {fmt_percent(alt)}"
                    _row_fault(ctx, "S611", r, v, n_row, col, cell, what, shown, note)
                    continue
            _row_fault(ctx, "S607", r, v, n_row, col, cell, detail, shown)


def _check_table_imps(ctx: _Context, r: GameRecord, v: TableView, es: list[Entry], trav: Traveller, place: str) -> None:
    """IMP_NS / IMP_EW columns by the Scoring modifiers (Butler, Cross*); ``place``: the table's
    words in the messages (``the table``)."""
    cols = {c: v.index(c) for c in ("IMP_NS", "IMP_EW")}
    if all(i is None for i in cols.values()):
        return
    scores = trav.scores()
    for n_row, (row, e) in enumerate(zip(v.rows, es)):
        if e.score_ns is None:
            continue
        m = _imp_methods(r, scores, e.score_ns, place)
        if m is None:
            return
        desc, options = m
        for sign, col in ((1, "IMP_NS"), (-1, "IMP_EW")):
            cell = _cell(v, row, cols[col])
            c = _num(cell)
            if c is None or any(agrees(c[0], c[1], sign * o) for o in options):
                continue
            _row_fault(ctx, "S607", r, v, n_row, col, cell, desc, fmt_number(sign * options[-1]))


# --- TotalScoreTable -----------------------------------------------------------------------

_TOTAL_ALIASES = {
    "TotalMP": ("TotalMP", "MP"),
    "TotalPercentage": ("TotalPercentage", "Percentage"),
    "TotalIMP": ("TotalIMP", "IMP"),
    "TotalScore": ("TotalScore", "Score"),
}


def _check_total_table(ctx: _Context, r: GameRecord, v: TableView) -> None:
    """One TotalScoreTable: internal consistency, then against the event when its boards are here."""
    ix = v.index
    cols = {k: ix(*names) for k, names in _TOTAL_ALIASES.items()}
    names = {k: (v.columns[i] if i is not None else k) for k, i in cols.items()}
    i_nb = ix("NrBoards")
    rows = v.rows
    # Mean* = Total* / NrBoards
    if i_nb is not None:
        for mean, total in (
            ("MeanMP", "TotalMP"),
            ("MeanPercentage", "TotalPercentage"),
            ("MeanIMP", "TotalIMP"),
            ("MeanScore", "TotalScore"),
        ):
            i_mean, i_tot = ix(mean), cols[total]
            if i_mean is None or i_tot is None:
                continue
            for n, row in enumerate(rows):
                m, t, nb = _num(_cell(v, row, i_mean)), _num(_cell(v, row, i_tot)), _num(_cell(v, row, i_nb))
                if m is None or t is None or nb is None or nb[0] <= 0:
                    continue
                exact = t[0] / nb[0]
                if not agrees(m[0], m[1], exact):
                    _row_fault(
                        ctx,
                        "S608",
                        r,
                        v,
                        n,
                        mean,
                        _cell(v, row, i_mean),
                        f"{names[total]} {_cell(v, row, i_tot).strip()} / NrBoards {_cell(v, row, i_nb).strip()}",
                        fmt_number(exact),
                    )
    # a common top per board: Percentage = 100 * MP / (NrBoards * top)
    i_mp, i_pct = cols["TotalMP"], cols["TotalPercentage"]
    if i_mp is not None and i_pct is not None and i_nb is not None and len(rows) >= 3:
        implied: list[tuple[int, Fraction, Fraction, Fraction, int] | None] = []
        for row in rows:
            mp, pct, nb = _num(_cell(v, row, i_mp)), _num(_cell(v, row, i_pct)), _num(_cell(v, row, i_nb))
            if mp is None or pct is None or nb is None or nb[0] <= 0 or pct[0] <= 0:
                implied.append(None)
                continue
            t = 100 * mp[0] / (nb[0] * pct[0])
            implied.append((round(t), mp[0], nb[0], pct[0], pct[1]))
        tops = [x[0] for x in implied if x is not None]
        if tops:
            common = max(set(tops), key=tops.count)
            if 2 * tops.count(common) > len(tops) and common > 0:
                for n, x in enumerate(implied):
                    if x is None:
                        continue
                    _, mp, nb, pct, dec = x
                    exact = 100 * mp / (nb * common)
                    if not agrees(pct, dec, exact):
                        row = rows[n]
                        mp_text, nb_text = _cell(v, row, i_mp).strip(), _cell(v, row, i_nb).strip()
                        if exact > 100:
                            # no percentage: the row's MP and NrBoards disagree (NrBoards, likely)
                            detail = (
                                f"100 * {names['TotalMP']} {mp_text} / (NrBoards {nb_text} * a top of {common}"
                                " per board, as the other rows)"
                            )
                            note = f", more than 100: NrBoards or {names['TotalMP']} is wrong"
                        else:
                            detail = (
                                f"{names['TotalMP']} {mp_text} over NrBoards {nb_text} on a top of {common}"
                                " per board (as the other rows)"
                            )
                            note = ""
                        _row_fault(
                            ctx,
                            "S608",
                            r,
                            v,
                            n,
                            names["TotalPercentage"],
                            _cell(v, row, i_pct),
                            detail,
                            fmt_percent(exact),
                            note,
                        )
    _check_total_ranks(ctx, r, v, cols)
    _check_total_against_event(ctx, r, v, cols, i_nb)


def _check_total_ranks(ctx: _Context, r: GameRecord, v: TableView, cols: dict[str, int | None]) -> None:
    """Rank = 1 + the rows with a better value in the sorted column (the first with a ``+``/``-``
    marker other than Rank, else the percentage, MP, IMP or score column, descending)."""
    i_rank = v.index("Rank")
    if i_rank is None:
        return
    key_i, descending = None, True
    for i, (c, s) in enumerate(zip(v.columns, v.sort)):
        if s is not None and c.lower() != "rank":
            # a score, matchpoint, IMP or percentage total ranks higher-is-better whatever the
            # marker says (a wrong marker is T125's business); another column follows its marker
            key_i = i
            descending = s == "+" or any(w in c.lower() for w in ("percentage", "mp", "imp", "score"))
            break
    if key_i is None:
        key_i = next(
            (cols[k] for k in ("TotalPercentage", "TotalMP", "TotalIMP", "TotalScore") if cols[k] is not None), None
        )
    if key_i is None:
        return
    values = [_num(_cell(v, row, key_i)) for row in v.rows]
    i_m = v.index("Multiplicity")
    mult = [(_num(_cell(v, row, i_m)) if i_m is not None else None) for row in v.rows]
    weights = [int(m[0]) if m is not None and 1 <= m[0] <= MAX_MULTIPLICITY else 1 for m in mult]
    for n, row in enumerate(v.rows):
        rk = _rank(_cell(v, row, i_rank))
        x = values[n]
        if rk is None or x is None:
            continue
        better = sum(
            w for y, w in zip(values, weights) if y is not None and ((y[0] > x[0]) if descending else (y[0] < x[0]))
        )
        if rk != better + 1:
            _row_fault(
                ctx,
                "S608",
                r,
                v,
                n,
                "Rank",
                _cell(v, row, i_rank),
                f"the order of {v.columns[key_i]} {_cell(v, row, key_i).strip()}",
                str(better + 1),
            )


def _check_total_against_event(
    ctx: _Context, r: GameRecord, v: TableView, cols: dict[str, int | None], i_nb: int | None
) -> None:
    """NrBoards, TotalMP, TotalPercentage, TotalIMP of pairs whose boards are in the input."""
    session = r.session
    recs = [x for x in ctx.recs if x.session == session]
    trs = [t for t in travellers(recs) if t.size > 1]
    if not trs:
        return
    f = scoring_fields(r.scoring)
    methods: list[Method] = []
    if cols["TotalMP"] is not None or cols["TotalPercentage"] is not None:
        methods += [Method.MP] if "MP2" in f else [Method.MP2] if "MP1" in f else [Method.MP2, Method.MP]
    if cols["TotalIMP"] is not None:
        if any(x.startswith("BUTLER") for x in f):
            methods.append(Method.BUTLER)
        elif any(x.startswith("CROSS") for x in f):
            methods.append(Method.CROSS_IMP)
    if not methods and i_nb is None:
        return
    totals: dict[Method, dict[str, tuple[Fraction, Fraction | None, Fraction | None, int]]] = {}
    cross = cross_for([r])  # TotalIMP of cross-IMPs: summed or divided as the table's Scoring says
    for m in methods or [Method.MP]:
        _, rankings, _ = score_pairs(trs, m, neuberg=True, cross=cross)
        t: dict[str, tuple[Fraction, Fraction | None, Fraction | None, int]] = {}
        for rk in rankings:
            for row in rk.rows:
                t[row.name] = (row.total, row.top, row.pct, row.boards)
        totals[m] = t
    i_pid, i_names = v.index("PairId"), v.index("Names")
    for n, row in enumerate(v.rows):
        pid = _cell(v, row, i_pid).strip().strip('"') if i_pid is not None else ""
        nm = _cell(v, row, i_names).strip().strip('"') if i_names is not None else ""
        label = " - ".join(p.strip() for p in nm.split(";") if p.strip())
        found = {m: t.get(pid) or t.get(label) for m, t in totals.items()}
        anyf = next((x for x in found.values() if x is not None), None)
        if anyf is None:
            continue
        if i_nb is not None:
            nb = _num(_cell(v, row, i_nb))
            if nb is not None and nb[0] != anyf[3]:
                _row_fault(
                    ctx,
                    "S608",
                    r,
                    v,
                    n,
                    "NrBoards",
                    _cell(v, row, i_nb),
                    "counting the pair's results in the file",
                    str(anyf[3]),
                )
        for col, k, fmt in (
            ("TotalMP", 0, fmt_number),
            ("TotalPercentage", 2, fmt_percent),
            ("TotalIMP", 0, fmt_number),
        ):
            i = cols[col]
            c = _num(_cell(v, row, i)) if i is not None else None
            if c is None:
                continue
            ms = [m for m in found if (m in (Method.MP, Method.MP2)) == (col != "TotalIMP")]
            options = [found[m][k] for m in ms if found[m] is not None and found[m][k] is not None]
            if not options or any(agrees(c[0], c[1], o) for o in options):
                continue
            _row_fault(
                ctx,
                "S608",
                r,
                v,
                n,
                v.columns[i],
                _cell(v, row, i),
                f"scoring the pair's {anyf[3]} board{'s' if anyf[3] != 1 else ''} in the file",
                fmt(options[0]),
            )
