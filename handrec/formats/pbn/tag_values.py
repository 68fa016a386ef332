"""The reader's typed tag values: the Board's fields, and the check of every other value (T121).

The tags behind typed :class:`~handrec.model.Board` fields are read here: Dealer and
Declarer (:func:`_seat_value`), Deal (:func:`_deal_value`, fast for the usual forms),
Contract and Result, each with T101 for a value that cannot be read and T105 for one
read from a spelling the standard does not give (PBN 2.1 §3.4).  Every other tag whose
value has a form (:data:`handrec.formats.pbn.tags.TAGS`) is checked against it
(:func:`_check_value`, T121), as are tabs and control characters in values
(:func:`_check_chars`).  ``_Issue`` is the reader's pending diagnostic.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from handrec.formats.pbn.tags import TAGS, TagValueError
from handrec.model import ALL_CARDS, Card, Contract, Deal, Hand, ModelError, Seat, Side, Span, Strain, Tag
from handrec.rules.board import FULL_MASK, remember_full_deal

#: A pending diagnostic: (code, block-relative span or None, template arguments).
_Issue = tuple[str, Span | None, dict[str, Any]]


#: "?" = unknown, "" = not applicable (PBN 2.1 §3.4): both give a None typed value.
_UNKNOWN = ("", "?")
#: Seat letters (either case) and side names, as tag values write them.
_SEATS = {ch: Seat.parse(ch) for ch in "NESWnesw"}
_SIDES = {"NS": Side.NS, "EW": Side.EW}


def _seat_value(t: Tag | None, issues: list[_Issue], caret: bool = False) -> Seat | None:
    """Dealer/Declarer value to a Seat (PBN 2.1 §3.4.9, §3.4.13); ``?``/``""`` give None.

    With ``caret``, a leading ``^`` (declarer and dummy swapped, §3.9) is accepted and the
    seat kept (the builder sets ``Board.declarer_swapped``).  ``North`` etc. are read with
    T105; anything else is T101.
    """
    if t is None:
        return None
    v = t.value
    seat = _SEATS.get(v)
    if seat is not None:
        return seat
    v = v.strip()
    if caret and v[:1] == "^":
        v = v[1:]
    if v in _UNKNOWN:
        return None
    try:
        seat = Seat.parse(v)
    except ModelError:
        issues.append(("T101", t.span, {"tag": t.name, "value": t.value, "reason": "not a seat N/E/S/W"}))
        return None
    if len(v) != 1:
        issues.append(("T105", t.span, {"tag": t.name, "value": t.value, "read": str(seat)}))
    return seat


#: Rank characters to 0..12 (2..A), any case.
_RANK_INDEX = {ch: i for i, ch in enumerate("23456789TJQKA")} | {ch: i for i, ch in enumerate("23456789tjqka")}
#: Card.index of the 2 of each suit, in hand order: spades, hearts, diamonds, clubs.
_SUIT_BASE = (3 * 13, 2 * 13, 1 * 13, 0)
_card_at = ALL_CARDS.__getitem__
#: Hand has the single field ``cards``, kept in hand order by its __post_init__: cards
#: already in that order may skip the sort.  Checked so a model change cannot break this.
_HAND_FIELDS_OK = [f.name for f in dataclasses.fields(Hand)] == ["cards"]


#: Per suit in hand order (spades, hearts, diamonds, clubs): the text of a suit's ranks to
#: its cards high to low, for texts already read (a file repeats the same holdings).
_RUNS: tuple[dict[str, tuple[Card, ...]], ...] = ({}, {}, {}, {})
#: The same runs' card masks (bit ``Card.index``), kept with :data:`_RUNS` (same keys).
_RUN_MASKS: tuple[dict[str, int], ...] = ({}, {}, {}, {})


def _suit_run(k: int, ranks: str) -> tuple[Card, ...] | None:
    """The cards of ranks text ``ranks`` in suit ``k`` of hand order, high to low; None for
    a character that is no rank, or a repeated rank.  Remembered in :data:`_RUNS`."""
    base = _SUIT_BASE[k]
    idx = []
    mask = 0
    for ch in ranks:
        r = _RANK_INDEX.get(ch)
        if r is None:
            return None
        idx.append(base + r)
        mask |= 1 << (base + r)
    if mask.bit_count() != len(idx):  # a rank repeated
        return None
    idx.sort(reverse=True)  # Card.index descending = high to low
    run = tuple(map(_card_at, idx))
    runs = _RUNS[k]
    masks = _RUN_MASKS[k]
    if len(runs) >= 20_000:
        runs.clear()
        masks.clear()
    runs[ranks] = run
    masks[ranks] = mask
    return run


def _fast_hand(text: str) -> Hand | None:
    """PBN hand notation to a Hand, or None when the model's :meth:`Hand.parse` must read
    it (``10``, bad ranks, repeated cards: it then gives the error message)."""
    suits = text.split(".")
    if len(suits) != 4:
        return None
    s, h, d, c = suits
    r0, r1, r2, r3 = _RUNS
    try:
        cards = r0[s] + r1[h] + r2[d] + r3[c]
    except KeyError:
        runs = [r0.get(s) or _suit_run(0, s), r1.get(h) or _suit_run(1, h), r2.get(d) or _suit_run(2, d)]
        runs.append(r3.get(c) or _suit_run(3, c))
        if None in runs:
            return None
        cards = runs[0] + runs[1] + runs[2] + runs[3]  # type: ignore[operator]
    if not _HAND_FIELDS_OK:  # pragma: no cover - only if model.Hand changes
        return Hand(cards)
    hand = object.__new__(Hand)
    object.__setattr__(hand, "cards", cards)
    return hand


#: Recently read deals by their text (travellers repeat a deal in every game).
_DEALS: dict[str, Deal] = {}
#: A deal of four hands given in full, one space between them: first seat and 16 suits.
_DEAL_SUITS_RE = re.compile(r"([NESWnesw]):" + " ".join([r"\.".join([r"([^\s.]*+)"] * 4)] * 4))


#: The groups of :data:`_DEAL_SUITS_RE`'s 16 suits and their suits in hand order (0 spades).
_SUIT_GROUPS = tuple((j, (j - 1) & 3) for j in range(1, 17))


def _parse_deal(v: str) -> Deal:
    """PBN deal notation to a Deal (PBN 2.1 §3.4.11), fast for the usual forms.

    :raises ModelError: as :meth:`Deal.parse`.
    """
    d = _DEALS.get(v)
    if d is not None:
        return d
    m = _DEAL_SUITS_RE.fullmatch(v)
    if m is not None and _HAND_FIELDS_OK:
        # the usual form (four hands, one space between them): the 16 suits in one match
        g = m.groups()
        r0, r1, r2, r3 = _RUNS
        runs: list[tuple[Card, ...]] | None
        try:
            runs = [r0[g[k]] + r1[g[k + 1]] + r2[g[k + 2]] + r3[g[k + 3]] for k in (1, 5, 9, 13)]
        except KeyError:  # a suit not read yet: read, then the same (a suit not valid: read below)
            runs = None
            for j, k in _SUIT_GROUPS:
                if g[j] not in _RUNS[k] and _suit_run(k, g[j]) is None:
                    break
            else:
                try:
                    runs = [r0[g[k]] + r1[g[k + 1]] + r2[g[k + 2]] + r3[g[k + 3]] for k in (1, 5, 9, 13)]
                except KeyError:  # (a run forgotten meanwhile: _RUNS full)
                    runs = None
        if runs is not None:
            hands: list[Hand | None] = [None, None, None, None]
            first = _SEATS[g[0]]
            for i, cards in enumerate(runs):
                hand = object.__new__(Hand)
                object.__setattr__(hand, "cards", cards)
                hands[(first + i) % 4] = hand
            deal = _remember_deal(v, Deal(tuple(hands)))  # type: ignore[arg-type]
            if len(runs[0]) == len(runs[1]) == len(runs[2]) == len(runs[3]) == 13:
                # a full deal: its masks (from the runs') shared with the replay's check_deal
                m0, m1, m2, m3 = _RUN_MASKS
                masks = [m0[g[k]] | m1[g[k + 1]] | m2[g[k + 2]] | m3[g[k + 3]] for k in (1, 5, 9, 13)]
                if sum(masks) == FULL_MASK:  # 52 distinct cards
                    f = 4 - first
                    remember_full_deal(deal, (masks[f % 4], masks[(f + 1) % 4], masks[(f + 2) % 4], masks[(f + 3) % 4]))
            return deal
    first = _SEATS.get(v[:1]) if v[1:2] == ":" else None
    parts = v[2:].split()
    if first is None or len(parts) != 4:
        return Deal.parse(v)
    hands: list[Hand | None] = [None, None, None, None]
    for i, p in enumerate(parts):
        if p != "-":
            h = _fast_hand(p)
            if h is None:
                return Deal.parse(v)
            hands[(first + i) % 4] = h
    return _remember_deal(v, Deal(tuple(hands)))  # type: ignore[arg-type]


def _remember_deal(v: str, d: Deal) -> Deal:
    """Keep ``d`` in :data:`_DEALS` as the deal of text ``v``."""
    if len(_DEALS) >= 2048:
        _DEALS.clear()
    _DEALS[v] = d
    return d


def _deal_value(t: Tag | None, issues: list[_Issue]) -> Deal | None:
    """Deal value to a Deal: any first seat, ``-`` = hand not given (None), voids, ranks
    in any order and case; ``...`` = a hand known to be empty; ``?``/``""`` give None."""
    if t is None:
        return None
    v = t.value.strip()
    if v in _UNKNOWN:
        return None
    try:
        return _parse_deal(v)
    except ModelError as exc:
        reason = str(exc).removesuffix(f": {v!r}")  # the message shows the value once
        issues.append(("T101", t.span, {"tag": "Deal", "value": t.value, "reason": reason}))
        return None


#: Contract values read, by (value, declarer): the (immutable) Contract, None if not valid.
_CONTRACTS: dict[tuple[str, Seat | None], Contract | None] = {}


def _contract_value(t: Tag | None, declarer: Seat | None, issues: list[_Issue]) -> Contract | None:
    """Contract value (PBN 2.1 §3.4.14) to a :class:`Contract` with ``declarer``.

    ``?``/``""`` give None without diagnostics; ``3N`` and a lower-case ``x`` are read with
    T105 (pbn.md §18.9); an end position's contract is only a denomination (PBN 2.1 §3.10,
    ``H`` or ``NT``; ``N``: T105): a contract of level 0 with that strain
    (:attr:`Contract.is_end_position`); anything else is T101.
    """
    if t is None:
        return None
    v = t.value.strip()
    if v in _UNKNOWN:
        return None
    key = (v, declarer)
    c = _CONTRACTS.get(key, False)
    if c is False:
        try:
            c = Contract.parse(v, declarer)
        except ModelError:
            c = None
        if len(_CONTRACTS) >= 2_000:
            _CONTRACTS.clear()
        _CONTRACTS[key] = c
    if c is None:
        issues.append(("T101", t.span, {"tag": "Contract", "value": t.value, "reason": "not Pass or like 4HX"}))
        return None
    if c.strain is not None and ("x" in v or (c.strain is Strain.NOTRUMP and "NT" not in v.upper())):
        issues.append(("T105", t.span, {"tag": "Contract", "value": t.value, "read": str(c)}))
    return c


def _result_value(t: Tag | None, declarer: Seat | None, issues: list[_Issue]) -> int | None:
    """Result value to the tricks taken by declarer (PBN 2.1 §3.4.15).

    ``9``; ``NS 9``, ``EW 4``, ``NS 9 EW 4`` are read for the declarer's side (13 minus
    the other side's tricks when only that is given; both must add up to 13, else T101); a
    leading ``^`` (result agreed by the players) is accepted.  None when ``?``/``""`` or side-specific without a declarer.
    Range checks are the validator's (C504).
    """
    if t is None:
        return None
    v = t.value.strip()
    if v[:1] == "^":
        v = v[1:].strip()
    if v in _UNKNOWN:
        return None
    if v.isascii() and v.isdigit():
        return int(v)
    parts = v.split()
    sides: dict[Side, int] = {}
    ok = len(parts) in (2, 4)
    if ok:
        for k in range(0, len(parts), 2):
            side = _SIDES.get(parts[k].upper())
            n = parts[k + 1]
            if side is None or side in sides or not (n.isascii() and n.isdigit()):
                ok = False
                break
            sides[side] = int(n)
    if not ok:
        issues.append(("T101", t.span, {"tag": "Result", "value": t.value, "reason": "not tricks like 9 or NS 9"}))
        return None
    if len(sides) == 2 and sum(sides.values()) != 13:
        total = sum(sides.values())
        issues.append(
            (
                "T101",
                t.span,
                {"tag": "Result", "value": t.value, "reason": f"the sides' tricks add up to {total}, not 13"},
            )
        )
        return None
    if declarer is None:
        return None
    mine = declarer.side
    if mine in sides:
        return sides[mine]
    return 13 - sides[mine.other]


#: Tags whose value the reader checks against their PBN form (T121; Board is checked with
#: its number).
_CHECKED = frozenset(n for n, spec in TAGS.items() if spec.checked and n != "Board")
#: Tag name -> 0 (a tag), 1 (a tag whose value the reader checks: T121), 2 (a table).
_TAG_KIND = {n: 2 if spec.group == "table" else 1 if n in _CHECKED else 0 for n, spec in TAGS.items()}
#: (name, value) -> None when in form, else what the form is.
_VALUE_CHECKS: dict[tuple[str, str], str | None] = {}


#: Characters a string may not hold (PBN 2.1 §2.2-§2.3): tabs and control characters (line
#: ends cannot be in a string; between tag pairs a tab is white space, so a hit in a token
#: is looked at tag by tag).
_CONTROL_RE = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")


#: The ASCII characters of :data:`_CONTROL_RE`.
_CONTROL_BYTES = bytes(c for c in range(128) if _CONTROL_RE.match(chr(c)))


def _has_controls(text: str) -> bool:
    """Whether :data:`_CONTROL_RE` finds something in ``text`` (for ASCII text by deleting
    those bytes from its encoding, a few times faster than the regex)."""
    if text.isascii():
        data = text.encode()
        return len(data.translate(None, _CONTROL_BYTES)) != len(data)
    return _CONTROL_RE.search(text) is not None


def _check_chars(tags: list[Tag], issues: list[_Issue]) -> None:
    """T121 for a tag value (of a section's ``tags``) holding a tab or a control character."""
    for tag in tags:
        m = _CONTROL_RE.search(tag.value)
        if m is not None:
            what = "a tab" if m.group() == "\t" else f"the control character U+{ord(m.group()):04X}"
            expected = f"text without tabs or control characters (it holds {what})"
            issues.append(("T121", tag.span, {"tag": tag.name, "value": tag.value, "expected": expected}))


def _check_value(tag: Tag, issues: list[_Issue]) -> None:
    """T121 when a checked tag's value is not in its PBN form (``?`` and ``""`` always are)."""
    key = (tag.name, tag.value)
    expected = _VALUE_CHECKS.get(key, "")
    if expected == "":
        expected = None
        if tag.value.strip() not in _UNKNOWN:
            try:
                TAGS[tag.name].parse(tag.value)
            except TagValueError as e:
                expected = str(e)
        if len(_VALUE_CHECKS) >= 20_000:
            _VALUE_CHECKS.clear()
        _VALUE_CHECKS[key] = expected
    if expected is not None:
        issues.append(("T121", tag.span, {"tag": tag.name, "value": tag.value, "expected": expected}))


def _plain_tag(tag: Tag) -> bool:
    """Whether the board builder has nothing to do for ``tag`` but keep it: its name is
    known (in its case), not a table, its value not ``#``/``##`` and in form (no T121)."""
    kind = _TAG_KIND.get(tag.name)
    if kind is None or kind == 2 or tag.value[:1] == "#":
        return False
    if kind == 1:
        found: list[_Issue] = []
        _check_value(tag, found)
        return not found
    return True
