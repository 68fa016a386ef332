"""Writing LIN (Bridge Base Online), and converting between LIN and PBN boards.

:func:`dump` writes boards as a LIN file (shared/specs/lin.md):

* a board without a room (no ``Room`` tag ``Open``/``Closed``) is a
  single-deal record on one line (§2.1): ``pn`` (S,W,N,E), ``st``, ``md``
  (dealer digit, four hands S,W,N,E), ``rh``, ``ah|Board n|``, ``sv``, the
  calls ``mb`` with ``!`` alerts and ``an`` explanations, ``pg``, the cards
  ``pc`` in play order with ``pg`` after each trick, ``mc`` for a claim,
  then ``nt`` commentary and the board's unknown LIN commands
  (:attr:`Board.extra <handrec.model.Board.extra>`);
* boards with a room are written as vugraph segments (§2.3, §7), one per
  match (same Event, Stage, HomeTeam, VisitTeam and Scoring; a board
  number and room seen twice starts another segment): a header
  ``vg|...|rs|...|pn|<open S,W,N,E>,<closed S,W,N,E>|pg||`` then one line per
  table, ``qx|o<n>|`` or ``qx|c<n>|`` followed by the table's own ``pn`` when
  its players differ from the header's, and the same pairs as above
  without ``rh`` and ``ah``.

Single-deal records come first, then the segments (a reader frames by
``qx`` once one appears, lin.md §8).  One line per record, LF line ends.

LIN holds less than PBN.  What a board has that its LIN cannot hold is not
dropped silently: pass ``dropped`` (a dict) and it counts, per kind of
loss, the boards that lost something (e.g. ``{"Score tag": 8}``).  Contract,
Declarer and Result are *held* when the auction and play give them (or a
vugraph ``rs`` entry does); everything else outside the LIN mapping of
lin.md §9 is reported.

The other way, :func:`for_pbn` prepares a board read from LIN for the PBN
writer (opening leader, Contract/Declarer/Result tags from the replay) and
:func:`pbn_losses` names what LIN content the PBN writer cannot hold.

>>> from handrec.model import Board, Deal, Origin, Seat, Vulnerability
>>> d = Deal.parse("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")
>>> dumps(Board(Origin("x"), number=1, dealer=Seat.NORTH, vulnerable=Vulnerability.NONE, deal=d))
'st||md|3S765H432DAKQJCT98,S432HAKQJDT98C765,SAKQJHT98D765C432,ST98H765D432CAKQJ|rh||ah|Board 1|sv|o|\\n'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, MutableMapping
from dataclasses import replace
from typing import TextIO

from handrec.formats.lin.vugraph import rs_text
from handrec.model import (
    SUITS_HIGH_FIRST,
    Board,
    CallKind,
    Contract,
    Deal,
    Hand,
    Note,
    Seat,
    Strain,
    Tag,
)
from handrec.rules.board import dealer_for_board
from handrec.rules.replay import replay

__all__ = ["dump", "dumps", "for_pbn", "pbn_losses", "pbn_suits"]

_LIN_ORDER = (Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST)
_DEALER_DIGIT = {Seat.SOUTH: "1", Seat.WEST: "2", Seat.NORTH: "3", Seat.EAST: "4"}
_SV = ("o", "n", "e", "b")  # by Vulnerability NONE, NS, EW, BOTH
_NAME_TAGS = ("South", "West", "North", "East")  # LIN order
_CALL_LETTER = {CallKind.PASS: "p", CallKind.DOUBLE: "d", CallKind.REDOUBLE: "r"}
_SCORING_LETTER = {"IMP": "I", "MP": "P", "BAM": "B"}
_ROOMS = {"open": "Open", "closed": "Closed"}
_MATCH_TAGS = ("Event", "Stage", "HomeTeam", "VisitTeam", "Scoring")

#: Tags a LIN record always holds when the board has the value (lin.md §9); the
#: PBN sections Auction, Play and Note are the calls, explanations and cards.
_HELD = frozenset(
    {"Board", "West", "North", "East", "South", "Dealer", "Vulnerable", "Deal", "Auction", "Play", "Note"}
)
#: Boards further apart than this do not share one ``rs`` list.
_RS_SPAN = 10_000
#: Tags held by the table's auction and play (or by ``rs`` in a vugraph file).
_RESULT_TAGS = ("Contract", "Declarer", "Result")

Dropped = MutableMapping[str, int]


def _hand(h: Hand | None) -> str:
    if h is None:
        return ""
    return "".join(f"{s}" + "".join(str(c.rank) for c in h.suit_cards(s)) for s in SUITS_HIGH_FIRST)


class _Losses:
    """The kinds of loss of one board (each counted once per board)."""

    __slots__ = ("kinds",)

    def __init__(self) -> None:
        self.kinds: dict[str, None] = {}

    def add(self, kind: str) -> None:
        self.kinds[kind] = None

    def text(self, value: str, *, name: bool = False) -> str:
        """``value`` made safe for a LIN value: no ``|`` (and no ``,`` in a
        name list); no line break (a record is one line)."""
        if "\n" in value or "\r" in value:
            self.add("line breaks in a text")
            value = " ".join(value.splitlines())
        if "|" in value or (name and "," in value):
            self.add("'|' or ',' in a name" if name else "'|' in a text")
            value = value.replace("|", "/")
            if name:
                value = value.replace(",", " ")
        return value

    def into(self, dropped: Dropped | None) -> None:
        if dropped is not None:
            for k in self.kinds:
                dropped[k] = dropped.get(k, 0) + 1


def _names(board: Board, lost: _Losses) -> list[str] | None:
    """S, W, N, E names, or ``None`` when the board names no player."""
    values = [board.tag(t) for t in _NAME_TAGS]
    if all(v is None for v in values):
        return None
    return [lost.text(v or "", name=True) for v in values]


def _table(board: Board, lost: _Losses, *, vugraph: bool) -> list[str]:
    """The pairs of one table after ``qx``/``pn``: deal, vulnerability, auction, play, chat, extras."""
    out: list[str] = ["st||"]
    # always an md, even with no hand (no deal): it frames the record (lin.md §8)
    dealer = _dealer(board)
    if dealer is None:
        lost.add("dealer (no Dealer tag, auction or board number gives it: md without its digit)")
    digit = "" if dealer is None else _DEALER_DIGIT[dealer]
    hands = ("", "", "", "") if board.deal is None else tuple(_hand(board.deal[s]) for s in _LIN_ORDER)
    out.append(f"md|{digit}{','.join(hands)}|")
    if board.deal is not None:
        _deal_losses(board.deal, lost)
    if not vugraph:
        out.append("rh||")
        if board.number is not None:
            out.append(f"ah|Board {board.number}|")
    if board.vulnerable is not None:
        out.append(f"sv|{_SV[board.vulnerable]}|")
    if board.auction is not None:
        for call in board.auction.calls:
            if call.irregular is not None:
                lost.add("auction irregularities (^I, ^S)")
                if call.is_skipped:
                    continue
            if call.nags:
                lost.add("NAGs")
            tok = _CALL_LETTER.get(call.kind)
            if tok is None:
                tok = f"{call.level}{'N' if call.strain is Strain.NOTRUMP else call.strain}"
            out.append(f"mb|{tok}{'!' if call.alert else ''}|")
            if call.annotation:
                out.append(f"an|{lost.text(call.annotation)}|")
        out.append("pg||")
        if not board.auction.calls:
            lost.add("Auction tag (no calls)")
    play = board.play
    claim = None if play is None else play.claim
    if play is not None:
        if not play.cards and play.claim is None:
            lost.add("Play tag (no cards)")
        if play.irregular and any(play.irregular):
            lost.add("play irregularities (^R, ^L)")
        if any(getattr(play, "annotations", ())):
            lost.add("card annotations (notes, NAGs)")
        for i, card in enumerate(play.cards):
            if card is None:
                lost.add("unknown cards ('-') in the play")
                break
            out.append(f"pc|{card}|")
            if i % 4 == 3:
                out.append("pg||")
    if claim is None and board.result is not None and board.auction is not None:
        # PBN: a play that stops with a Result tag is a claim (lin.md §9: mc <-> Result)
        if play is None or len(play.cards) < 52:
            r = replay(board)
            contract = r.contract
            if contract is not None and contract.level > 0:
                if r.result is None and any(d.code == "C508" for d in r.diagnostics):
                    # a partial result (the play stops short, PBN 2.1 §3.4.15) is no claim
                    lost.add("partial Result (the play stops short without '*')")
                else:
                    claim = board.result
    if claim is not None:
        out.append(f"mc|{claim}|")
    elif board.result_agreed and play is not None and len(play.cards) >= 52:
        lost.add("agreed Result (^) after a full play")  # LIN's mc is a claim, not an agreed result
    elif board.result is None and (board.tag("Result") or "").strip() not in ("", "?"):
        lost.add("Result tag that cannot be read")  # (T101): LIN has no place for it as written
    for text in board.commentary:
        out.append(f"nt|{lost.text(text)}|")
    for cmd, value in board.extra:
        out.append(f"{cmd}|{lost.text(value)}|")
    return out


def _dealer(board: Board) -> Seat | None:
    """The dealer ``md`` writes: the Dealer tag's, else the seat of the auction's first call
    (PBN 2.1 §3.5: the Auction tag names it; without a Dealer tag nothing says otherwise),
    else the board number's (Law 2); ``None`` when nothing gives it (issue #18: LIN's
    readers take the digit for the dealer, and without it drop the calls)."""
    if isinstance(board.dealer, Seat):
        return board.dealer
    auction = board.auction
    if auction is not None and isinstance(auction.dealer, Seat) and auction.calls:
        return auction.dealer
    if type(board.number) is int and board.number >= 1:
        return dealer_for_board(board.number)
    return None


def _deal_losses(deal: Deal, lost: _Losses) -> None:
    """What of a deal ``md`` cannot say: a hand given with no card (PBN
    ``...``) is read as not given; with no hand at all there is no deal; and
    East not given beside three complete hands is derived by a reader."""
    s, w, n, e = (deal[seat] for seat in _LIN_ORDER)
    if all(h is None or len(h) == 0 for h in (s, w, n, e)):
        lost.add("Deal tag (no hand given)")
    elif any(h is not None and len(h) == 0 for h in (s, w, n, e)):
        lost.add("empty hands in the Deal")
    elif e is None and s is not None and w is not None and n is not None:
        if len({*s.cards, *w.cards, *n.cards}) == 39 and len(s) == len(w) == len(n) == 13:
            lost.add("East not given (a LIN reader derives it)")


def _tag_losses(board: Board, lost: _Losses, held: frozenset[str]) -> None:
    """Report the tags outside ``held``; Contract, Declarer and Result only
    when the auction and play do not give them (when not held by ``rs``)."""
    names = {t.name for t in board.tags if t.value.strip() not in ("", "?")}  # "" and "?" say nothing
    for name in names - held - set(_RESULT_TAGS):
        if name != "Room":  # a Room other than Open/Closed: reported by dump
            lost.add(f"{name} tag")
    if "Board" in names and board.number is None:
        lost.add("Board tag (not a number)")
    if "Deal" in names and board.deal is None:
        lost.add("Deal tag")
    if board.declarer_swapped:
        lost.add("Declarer ^ (declarer and dummy swapped)")
    if "Contract" in held:
        return
    wanted = [n for n in _RESULT_TAGS if n in names and (board.tag(n) or "").strip() not in ("", "?")]
    if not wanted:
        return
    r = replay(board)
    for name in wanted:
        if name == "Result":
            ok = r.result is not None and board.auction is not None and r.contract_source == "auction"
        else:
            ok = r.contract_source == "auction"
        if not ok:
            lost.add(f"{name} tag")


def dumps(board: Board, *, dropped: Dropped | None = None) -> str:
    """One board as a single-deal LIN record (one line, ending in a newline).

    ``|`` cannot occur in a LIN value: one inside a name, explanation or
    chat is written as ``/`` (and reported in ``dropped``, see the module).
    """
    lost = _Losses()
    parts: list[str] = []
    names = _names(board, lost)
    if names is not None:
        parts.append(f"pn|{','.join(names)}|")
    parts += _table(board, lost, vugraph=False)
    if dropped is not None:
        _tag_losses(board, lost, _HELD)
        lost.into(dropped)
    return "".join(parts) + "\n"


def _room(board: Board) -> str | None:
    v = board.tag("Room")
    return None if v is None else _ROOMS.get(v.strip().lower())


def _rs_entry(board: Board) -> str:
    """The board's ``rs`` entry: its Contract/Declarer/Result (the typed
    values, else the tags), completed from the replay; ``""`` when unknown."""
    contract, result = board.contract, board.result
    declarer = board.declarer if board.declarer is not None else None if contract is None else contract.declarer
    if contract is None:
        try:
            contract = Contract.parse(board.tag("Contract") or "")
        except ValueError:
            contract = None
    if declarer is None:
        try:
            declarer = Seat.parse(board.tag("Declarer") or "")
        except ValueError:
            declarer = None
    if result is None and contract is not None and (board.tag("Result") or "").strip().isdigit():
        result = int(board.tag("Result"))  # type: ignore[arg-type]
    if contract is not None and contract.declarer is None and declarer is not None:
        contract = Contract(contract.level, contract.strain, contract.doubling, declarer)
    if contract is None or contract.is_end_position or (result is None and not contract.is_passed_out):
        r = replay(board)
        if contract is None or contract.is_end_position:
            contract = r.contract
        if result is None:
            result = r.result
    if contract is None or (result is None and not contract.is_passed_out):
        return ""
    return rs_text(contract, result)


class _Segment:
    """The tables of one vugraph match segment, in the order given."""

    def __init__(self, key: tuple[str | None, ...]) -> None:
        self.key = key
        self.boards: list[tuple[Board, str]] = []  # (board, room)
        self.seen: set[tuple[int | None, str]] = set()

    def write(self, file: TextIO, dropped: Dropped | None) -> None:
        event, stage, home, visit, scoring = self.key
        numbers = [b.number for b, _ in self.boards if b.number is not None]
        first = min(numbers) if numbers else 1
        last = max(numbers) if numbers else 1
        with_rs = last - first <= _RS_SPAN
        entries = [""] * (2 * (last - first + 1)) if with_rs else []
        header_names: dict[str, list[str] | None] = {}
        for b, room in self.boards:
            if b.number is not None and with_rs:
                entries[2 * (b.number - first) + (room == "Closed")] = _rs_entry(b)
            if room not in header_names:
                header_names[room] = _names(b, _Losses())
        lost = _Losses()
        letter = "" if scoring is None else _SCORING_LETTER.get(scoring, "")
        fields = [event or "", stage or "", letter, str(first), str(last), home or "", "0", visit or "", "0"]
        vg = ",".join(lost.text(f, name=True) for f in fields)
        file.write(f"vg|{vg}|\nrs|{','.join(entries)}|\n")
        if any(header_names.values()):
            names = (header_names.get("Open") or [""] * 4) + (header_names.get("Closed") or [""] * 4)
            file.write(f"pn|{','.join(names)}|pg||\n")
        else:
            header_names = {}
        for b, room in self.boards:
            table_lost = _Losses()
            for k in lost.kinds:
                table_lost.add(k)
            if scoring is not None and not letter and scoring.strip() not in ("", "?"):
                table_lost.add("Scoring tag")
            parts = [f"qx|{room[0].lower()}{'' if b.number is None else b.number}|"]
            names = _names(b, table_lost)
            if names is not None and names != header_names.get(room):
                parts.append(f"pn|{','.join(names)}|")
            parts += _table(b, table_lost, vugraph=True)
            file.write("".join(parts) + "\n")
            if dropped is not None:
                held = _HELD | {"Room", "Event", "Stage", "HomeTeam", "VisitTeam", "Scoring", *_RESULT_TAGS}
                if b.number is None or not with_rs or not _rs_entry(b):
                    held -= set(_RESULT_TAGS)
                _tag_losses(b, table_lost, held)
                table_lost.into(dropped)


def dump(boards: Iterable[Board], file: TextIO, *, dropped: Dropped | None = None) -> int:
    """Write boards as a LIN file; returns the number written.

    Boards without a room stream out as single-deal records; boards with a
    room are held until the end and written as vugraph segments (see the
    module).  ``dropped``, when given, counts what could not be written.
    """
    n = 0
    segments: list[_Segment] = []
    open_segments: dict[tuple[str | None, ...], _Segment] = {}
    for b in boards:
        n += 1
        room = _room(b)
        if room is None:
            file.write(dumps(b, dropped=dropped))
            if dropped is not None and (b.tag("Room") or "").strip() not in ("", "?"):
                dropped["Room tag (not Open or Closed)"] = dropped.get("Room tag (not Open or Closed)", 0) + 1
            continue
        key = tuple(b.tag(t) for t in _MATCH_TAGS)
        seg = open_segments.get(key)
        if seg is None or (b.number, room) in seg.seen:
            seg = open_segments[key] = _Segment(key)
            segments.append(seg)
        seg.boards.append((b, room))
        seg.seen.add((b.number, room))
    for seg in segments:
        seg.write(file, dropped)
    return n


# ---------------------------------------------------------------------------
# LIN -> PBN
# ---------------------------------------------------------------------------


def for_pbn(board: Board) -> Board:
    """A board read from LIN, made ready for the PBN writer (:mod:`handrec.formats.pbn.writer`).

    LIN gives the play in play order without an opening leader, and no
    Contract or Declarer (the auction gives them) nor, without a claim or
    ``rs``, a Result.  PBN export format needs them (PBN 2.1 §3.4, §3.6):
    the replay provides the opening leader (declarer's left-hand opponent)
    and the missing Declarer, Contract and Result tags.  LIN's suit symbols in
    the explanations (``an``), notes and commentary (``nt``) become PBN's
    (:func:`pbn_suits`).  Boards from other sources are returned unchanged.
    """
    if board.origin.format != "lin":
        return board
    board = _with_pbn_suits(board)
    r = replay(board)
    c = r.contract
    tags = list(board.tags)
    names = {t.name for t in tags}
    contract, declarer, result = board.contract, board.declarer, board.result
    if c is not None and r.contract_source == "auction" and "Contract" not in names:
        if c.declarer is not None:
            tags.append(Tag("Declarer", str(c.declarer)))
        tags.append(Tag("Contract", str(c)))
        contract, declarer = c, c.declarer
    if r.result is not None and "Result" not in names and c is not None and not c.is_passed_out:
        tags.append(Tag("Result", str(r.result)))
        result = r.result
    play = board.play
    if play is not None and play.leader is None and c is not None and c.declarer is not None and c.strain is not None:
        play = replace(play, leader=c.declarer.lho)
    return replace(board, tags=tuple(tags), contract=contract, declarer=declarer, result=result, play=play)


#: A LIN suit symbol: ``!S`` (explanations, lin.md §2.2) or ``@S`` (vugraph commentary, lin.md
#: §2.3), in either case, not the start of a word (``!Sure``, ``a@Club`` are text).
_LIN_SUIT_RE = re.compile(r"[!@]([SHDCshdc])(?![A-Za-z])")


def pbn_suits(text: str) -> str:
    r"""``text`` with LIN's suit symbols (``!S``, ``!h``, ``@D``...) written as PBN's, ``\S``
    ``\H`` ``\D`` ``\C`` (PBN 2.1 §3.8, suit symbols in commentary; pbn.md §10).

    >>> print(pbn_suits("2!H = transfer to !s, @C ok!"), pbn_suits("!Sure, mail a@Club"), sep="\n")
    2\H = transfer to \S, \C ok!
    !Sure, mail a@Club
    """
    return _LIN_SUIT_RE.sub(lambda m: "\\" + m.group(1).upper(), text)


def _with_pbn_suits(board: Board) -> Board:
    """``board`` with :func:`pbn_suits` applied to its calls' explanations, its auction's and
    play's notes and its commentary (``board`` itself when none holds a LIN suit symbol)."""
    a, p = board.auction, board.play
    texts = [*board.commentary]
    if a is not None:
        texts += [c.annotation for c in a.calls if c.annotation] + [n.text for n in a.notes]
    if p is not None:
        texts += [n.text for n in p.notes]
    if not any(_LIN_SUIT_RE.search(t) for t in texts):
        return board
    if a is not None:
        calls = tuple(replace(c, annotation=pbn_suits(c.annotation)) if c.annotation else c for c in a.calls)
        a = replace(a, calls=calls, notes=tuple(Note(n.index, pbn_suits(n.text)) for n in a.notes))
    if p is not None and p.notes:
        p = replace(p, notes=tuple(Note(n.index, pbn_suits(n.text)) for n in p.notes))
    return replace(board, auction=a, play=p, commentary=tuple(pbn_suits(t) for t in board.commentary))


def pbn_losses(board: Board) -> list[str]:
    """What of ``board`` PBN cannot hold (see :mod:`handrec.formats.pbn.writer`): LIN
    commands kept raw (:attr:`Board.extra <handrec.model.Board.extra>`) and
    alert marks (PBN has no alert flag: the writer keeps an alerted call's
    explanation as a note)."""
    out = []
    if board.extra:
        out.append("unknown LIN commands")
    if board.auction is not None and any(c.alert for c in board.auction.calls):
        out.append("alert marks (!) (kept as notes)")
    return out
