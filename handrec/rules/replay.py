"""THE replay engine: what a board's auction and play imply, and every fault.

``replay(board)`` is shared by validate, convert, booklet and score.  It
checks the deal, replays the auction and the play, resolves the contract,
the result and the North-South score, and compares them with what the
file's tags claim.  It never raises, whatever the board holds.

>>> from handrec.model import Auction, Board, Call, Origin, Seat
>>> calls = tuple(Call.parse(c) for c in "1S P 4S P P P".split())
>>> r = replay(Board(Origin("t.pbn"), number=1, auction=Auction(Seat.NORTH, calls), result=11))
>>> str(r.contract), r.contract.declarer, r.result, r.score_ns, r.diagnostics
('4S', Seat.NORTH, 11, 450, ())
"""

from __future__ import annotations

from dataclasses import dataclass

from handrec.diagnostics import Diagnostic, Severity, make
from handrec.model import Auction, Board, Contract, Doubling, Play, Seat, Span, Strain, Vulnerability, sided_parts
from handrec.rules.auction import ILLEGAL_CALL_CODES, AuctionReplay, replay_auction
from handrec.rules.board import Fault, check_deal, dealer_for_board, own_vulnerability, vulnerability_for_board
from handrec.rules.faults import (
    AUCTION_BY_LAW,
    AUCTION_FAULTS,
    BY_LAW,
    CLEAN,
    DEAL_FAULTS,
    FROM_TAGS,
    PLAY_BY_LAW,
    PLAY_FAULTS,
    RANKED,
    UNKNOWN,
    tag_of,
    worst,
)
from handrec.rules.play import PlayReplay, Trick, replay_play
from handrec.scoring.duplicate import score_ns as _score_ns

__all__ = ["Trick", "Replay", "replay", "parse_score_tag"]


@dataclass(frozen=True, slots=True)
class Replay:
    """What a board's records imply (see :func:`replay`).

    * ``contract``: from the auction when it is complete, else from the
      Contract and Declarer tags, else ``None``; from those tags also when
      the auction holds an illegal call (A301-A304, A306) and they name
      another contract with its declarer (the call is the fault, not every
      card of the play); ``Contract.passed_out()``
      for a passed-out board; an end position's denomination-only contract
      (level 0 with a strain, PBN 2.1 §3.10) from its Contract tag.  Its
      ``declarer`` is the seat that actually declared: the Declarer tag's
      seat when the tag marks a declarer/dummy swap (``^S``, PBN 2.1 §3.9;
      :attr:`Board.declarer_swapped <handrec.model.Board.declarer_swapped>`).
    * ``contract_source``: ``"auction"``, ``"tags"`` or ``None``.
    * ``tricks``: the replayed tricks (see :class:`Trick`).
    * ``result``: tricks taken by declarer, 0-13: from 13 played tricks,
      else from a claim, else the Result tag (when the play leaves it
      possible: C507); ``None`` when unknown or passed out.
    * ``score_ns``: duplicate score for North-South (points; 0 when passed
      out); ``None`` when contract, declarer, result or vulnerability is
      unknown, and for an end position (no level, no score).
      Vulnerability: the Vulnerable tag, else the board number's.  For a USEBIO
      traveller line (``origin.format == "usebio"``) the file's SCORE (its ``NS`` Score
      tag) instead: it is what the scorer scored, contract or not (S601 when they differ).
    * ``diagnostics``: every fault the replay found (not the board's own
      parse diagnostics).
    * ``contract_status``, ``play_status``, ``result_status``, ``score_status``:
      what each derived value stands on (:mod:`handrec.rules.faults`): ``clean``,
      ``by_law``, ``from_tags`` or ``unknown`` (the value is null; a passed-out
      board's result takes its contract's status).  ``play_status`` is that of
      the seat of each card in ``tricks`` (``unknown`` when there are none).
    """

    contract: Contract | None
    contract_source: str | None
    tricks: tuple[Trick, ...]
    result: int | None
    score_ns: int | None
    diagnostics: tuple[Diagnostic, ...]
    contract_status: str = UNKNOWN
    play_status: str = UNKNOWN
    result_status: str = UNKNOWN
    score_status: str = UNKNOWN


#: Dealer and vulnerability of the 16-board cycle by ``(number - 1) % 16`` (Law 2; as
#: :func:`dealer_for_board` and :func:`vulnerability_for_board`, without their checks).
_CYCLE_DEALER = tuple(dealer_for_board(i) for i in range(1, 17))
_CYCLE_VUL = tuple(vulnerability_for_board(i) for i in range(1, 17))
#: Scores already computed, by ``(level, strain, doubling, declarer, vulnerability, tricks)``.
_SCORES: dict[tuple[int, Strain, Doubling, Seat, Vulnerability, int], int] = {}


def _score(contract: Contract, vul: Vulnerability, result: int) -> int:
    """``score_ns(contract, vul, result)``, memoised for the usual well-typed values."""
    level, strain, doubling, declarer = contract.level, contract.strain, contract.doubling, contract.declarer
    if (
        type(level) is int
        and type(strain) is Strain
        and type(doubling) is Doubling
        and type(declarer) is Seat
        and type(vul) is Vulnerability
        and type(result) is int
    ):
        key = (level, strain, doubling, declarer, vul, result)
        score = _SCORES.get(key)
        if score is None:
            score = _SCORES[key] = _score_ns(contract, vul, result)
        return score
    return _score_ns(contract, vul, result)


_SCORE_NUMBER = r"[+-]?\d{1,6}"  # one score in a Score tag (at most 7,600 in bridge; 6 digits read)


def parse_score_tag(value: str) -> tuple[tuple[str | None, int], ...] | None:
    """Read a PBN ``Score`` value: ``620`` (declarer's side), ``NS 620``,
    ``EW -620``, ``NS 620 EW -620`` or ``EW -620 NS 620``.

    Returns ``(side, points)`` pairs, side ``"NS"``, ``"EW"`` or ``None``
    (declarer's side); ``None`` when the value cannot be read.

    Source: PBN 2.1 §4.2 (pbn.md §13).

    >>> parse_score_tag("NS +550"), parse_score_tag("-300"), parse_score_tag("NS 1 NS 2")
    ((('NS', 550),), ((None, -300),), None)
    """
    parts = sided_parts(value, _SCORE_NUMBER, any_case=True)
    return None if parts is None else tuple((side, int(v)) for side, v in parts)


def _valid_contract(c: object) -> bool:
    if not isinstance(c, Contract):
        return False
    if c.level == 0:
        return c.strain is None or isinstance(c.strain, Strain)
    return (
        type(c.level) is int
        and 1 <= c.level <= 7
        and isinstance(c.strain, Strain)
        and isinstance(c.doubling, int)
        and 0 <= c.doubling <= 2
        and (c.declarer is None or isinstance(c.declarer, Seat))
    )


#: A vulnerability as PBN writes it (PBN 2.1 §3.4.10): "All" where handrec's tables say "Both".
_PBN_VUL = {v: ("All" if v is Vulnerability.BOTH else str(v)) for v in Vulnerability}


def _valid_tricks(n: object) -> bool:
    return type(n) is int and 0 <= n <= 13  # type: ignore[operator]


class _Sink(list):
    """Collects diagnostics for one board (it is their list), resolving spans lazily.

    A list subclass with no ``__init__``, so that making one per board is cheap:
    ``_Sink()``, then set :attr:`board`.
    """

    __slots__ = ("board",)
    board: Board

    def tag(self, code: str, tag: str, **args: object) -> None:
        self.append(make(code, self.board.origin, self.board.tag_span(tag), **args))

    def fault(self, f: Fault, span: Span | None) -> None:
        self.append(make(f.code, self.board.origin, span, **dict(f.args)))


def replay(board: Board) -> Replay:
    """Replay one board and check what its tags claim.

    Input: a :class:`~handrec.model.Board` as read from a file (any field
    may be ``None`` or inconsistent).  Output: a :class:`Replay` with the
    resolved contract, tricks, result (tricks taken by declarer, 0-13) and
    North-South score (points), and the diagnostics, each positioned at the
    call, card or tag concerned:

    * T103/T104 (warning): Dealer/Vulnerable tag vs the board number (no
      T104 under a Scoring tag of Rubber or Chicago, whose vulnerability
      is not the board number's);
    * D201-D205: the deal (Law 1); D205 only when a play is given without
      a deal (no tag is mandatory in PBN import format);
    * A301-A306: the auction (Laws 18-22, 27);
    * C501/C502: Contract/Declarer tags vs a complete auction without an
      illegal call (with one, tags that name a contract and its declarer
      give the contract: see ``Replay.contract``);
    * P401-P407: the play (Laws 41, 44, 61, 68);
    * C503-C505: Result tag vs the play or claim, out of range, or given
      for a passed-out board; a Result marked ``^`` (agreed by the players,
      PBN 2.1 §3.4.15) gives the result, as an agreed claim or concession
      stands (Law 69);
    * C507: Result tag outside what a partial play leaves possible (PBN
      ``*``, a play cut short, unknown cards, an impossible claim): below
      the tricks declarer has won, or above 13 minus the defenders' tricks
      (Laws 71, 79A).  Such a Result is not scored (``result`` and
      ``score_ns`` are ``None``: no S601 from it), nor is an impossible
      claim (P405) that the Result repeats;
    * S601/S602: Score tag vs the computed score, or unreadable.

    Irregularities the record marks as accepted (PBN 2.1 §3.9) are not
    faults: ``^I`` and ``^S`` in the auction (Laws 27A1, 29A; see
    :func:`~handrec.rules.auction.replay_auction`), ``^R`` and ``^L`` in the
    play (Laws 53-55, 62-64; see :func:`~handrec.rules.play.replay_play`).
    A Declarer tag ``^S`` (declarer and dummy swapped) names the seat that
    actually declared: it must be the partner of the auction's declarer
    (else C502), it is the contract's declarer, and the opening leader is
    its left-hand opponent; the declaring side, so result and score, is
    unchanged.  With a revoke marked ``^R`` the Result tag is not compared
    with the tricks won in play (Law 64 transfers tricks after the play,
    Law 64C lets the Director adjust): it gives the result when present.

    An end position (PBN 2.1 §3.10: Contract tag = a denomination, hands of
    equal length under 13) is played from its partial hands, from the
    player on lead its Play tag names (no P403); it has no score, so no
    S601; its Result is bounded (C507) only when the Declarer tag says
    whose tricks they are.

    Source: bridge-rules.md §2.9, §3, §4.7, §4.11; PBN 2.1 §3-4.
    """
    sink = _Sink()
    sink.board = board

    # --- tags vs board number (Law 2) -----------------------------------------
    number = board.number
    has_number = type(number) is int and number >= 1  # type: ignore[operator]
    dealer = board.dealer
    if not isinstance(dealer, Seat):
        dealer = None
    vul = board.vulnerable if isinstance(board.vulnerable, Vulnerability) else None
    if has_number:
        cycle = (number - 1) % 16  # type: ignore[operator]
        exp_dealer = _CYCLE_DEALER[cycle]
        exp_vul = _CYCLE_VUL[cycle]
        if dealer is not None and dealer != exp_dealer:
            sink.tag("T103", "Dealer", value=str(dealer), board=number, expected=str(exp_dealer))
        if vul is not None and vul != exp_vul and not own_vulnerability(board.tag("Scoring")):
            # in the file's words: PBN spells Both "All" (PBN 2.1 §3.4.10), LIN "b"
            pbn = board.origin.format == "pbn"
            written = (board.tag("Vulnerable") or "").strip() if pbn else ""
            value = written or (_PBN_VUL[vul] if pbn else str(vul))
            sink.tag(
                "T104", "Vulnerable", value=value, board=number, expected=_PBN_VUL[exp_vul] if pbn else str(exp_vul)
            )
        if vul is None:
            vul = exp_vul

    # --- deal (Law 1) ---------------------------------------------------------
    deal = board.deal
    play = board.play
    required = False
    if deal is None and isinstance(play, Play) and any(c is not None for c in play.cards):
        # No tag is mandatory in PBN import format, but a play section needs the deal
        # (PBN 2.1 §3.6).  A Deal tag that could not be read was reported by the parser.
        deal_tag = board.tag("Deal")
        required = deal_tag is None or deal_tag.strip() in ("", "?")
    dc = check_deal(deal, required=required)
    if dc.faults:
        deal_span = board.tag_span("Deal")
        for f in dc.faults:
            sink.fault(f, deal_span)

    # --- auction (Laws 18-22) ---------------------------------------------------
    ar: AuctionReplay | None = None
    auction = board.auction
    if isinstance(auction, Auction) and isinstance(auction.dealer, Seat):
        ar = replay_auction(auction)
        if ar.faults:
            calls = auction.calls
            for f in ar.faults:
                span = None
                if f.index is not None and 0 <= f.index < len(calls):
                    span = calls[f.index].span
                if span is None:
                    span = auction.span or board.tag_span("Auction")
                sink.fault(f, span)

    # --- contract ---------------------------------------------------------------
    tag_contract = board.contract
    if tag_contract is not None and not _valid_contract(tag_contract):
        tag_contract = None
    tag_declarer = board.declarer
    if not isinstance(tag_declarer, Seat):
        tag_declarer = None
    swapped = board.declarer_swapped is True and tag_declarer is not None
    contract: Contract | None = None
    source: str | None = None
    # the errors that bear on the auction (issue #18: what a faulty record yields)
    auction_bad = _auction_errors(board, ar) if (ar is not None and ar.faults) or board.diagnostics else ()
    auction_by_law = bool(auction_bad) and all(c in AUCTION_BY_LAW for c in auction_bad)
    cstatus = UNKNOWN
    if (
        ar is not None
        and ar.complete
        and ar.contract is not None
        and not (
            (ar.faults or board.diagnostics)  # the usual clean board: no call to make
            and tag_contract is not None
            and (
                _tags_over_faulty_auction(board, ar, tag_contract, tag_declarer)
                or (auction_bad and not auction_by_law)  # no Law gives the auction's contract: the tags'
            )
        )
    ):
        # a contract that stands on an auction fault no Law rectifies is not kept (the tags' below)
        cstatus = CLEAN if not auction_bad else BY_LAW if auction_by_law else UNKNOWN
    if cstatus is not UNKNOWN:
        a = ar.contract  # type: ignore[union-attr]
        contract, source = a, "auction"
        declarer_ok = True
        if a.level and tag_declarer is not None and a.declarer is not None:
            # PBN 2.1 §3.9: with ^ declarer and dummy swapped; the tag names who actually declared
            actual = a.declarer.partner if swapped else a.declarer
            if tag_declarer != actual:
                declarer_ok = False
            elif swapped:
                contract = Contract(a.level, a.strain, a.doubling, tag_declarer)
        tc = tag_contract
        if tc is not None and (tc.level, tc.strain, tc.doubling) != (a.level, a.strain, a.doubling):
            if cstatus is BY_LAW:  # the tag kept a call the Laws cancel (or one they accept)
                laws = ", ".join(dict.fromkeys(AUCTION_BY_LAW[c] for c in auction_bad))
                sink.tag("C509", "Contract", value=str(tag_contract), law=laws, expected=str(a))
            else:
                sink.tag("C501", "Contract", value=str(tag_contract), expected=str(a))
        elif not declarer_ok:
            value = f"^{tag_declarer}" if swapped else str(tag_declarer)
            sink.tag("C502", "Declarer", value=value, expected=str(a.declarer), strain=str(a.strain))
    if contract is None and tag_contract is not None:
        source = "tags"
        cstatus = FROM_TAGS if auction_bad else CLEAN
        if tag_contract.level == 0 and tag_contract.strain is None:
            contract = Contract.passed_out()
        else:
            decl = tag_declarer if tag_declarer is not None else tag_contract.declarer
            contract = Contract(tag_contract.level, tag_contract.strain, tag_contract.doubling, decl)
    passed_out = contract is not None and contract.level == 0 and contract.strain is None

    # --- play (Laws 41-68) ------------------------------------------------------
    tricks: tuple[Trick, ...] = ()
    play_result: int | None = None
    pr: PlayReplay | None = None
    own_play = UNKNOWN  # the status of the play itself (of its seats and its count of tricks)
    if isinstance(play, Play) and (play.cards or play.claim is not None):
        if contract is None or contract.strain is None:
            if any(c is not None for c in play.cards) and not any(d.code == "P407" for d in board.diagnostics):
                span = board.tag_span("Play")
                if span is None:  # LIN has no Play tag: at the first card given
                    span = next((s for s in play.spans if s is not None), None)
                why = "the board was passed out" if passed_out else "no contract is known"
                sink.append(make("P407", board.origin, span, reason=why))
        else:
            pr = replay_play(play, contract, deal, dc, follow_leads=board.origin.format == "lin")
            tricks = pr.tricks
            play_result = pr.result
            if pr.faults:
                spans = play.spans
                ncards = len(play.cards)
                for f in pr.faults:
                    idx = f.index
                    if idx is None and f.code == "P405":
                        if play.claim_span is not None:  # at the claim itself (LIN: its mc pair)
                            sink.fault(f, play.claim_span)
                            continue
                        if ncards:
                            idx = ncards - 1
                    span = spans[idx] if idx is not None and 0 <= idx < len(spans) else None
                    if span is None:
                        span = board.tag_span("Play")
                        if span is None and spans:
                            span = spans[0]
                    sink.fault(f, span)
            own_play = _play_status(board, pr, dc.faults)
            if own_play not in RANKED:
                play_result = None  # a count of tricks built on the fault: not a result (issue #18)
    pstatus = worst(own_play, cstatus) if tricks else UNKNOWN

    # --- result -------------------------------------------------------------------
    tag_result = board.result
    if tag_result is not None and not _valid_tricks(tag_result):
        sink.tag("C504", "Result", value=f"^{tag_result}" if board.result_agreed else tag_result)  # as written
        tag_result = None
    elif tag_result is not None and passed_out:
        sink.tag("C505", "Result", value=tag_result)
        tag_result = None
    if play_result is not None and tag_result is not None and play_result != tag_result:
        marks = play.irregular  # type: ignore[union-attr]
        if type(marks) is tuple and "R" in marks:
            play_result = tag_result  # an established revoke: Law 64 trick transfers (see above)
        elif board.result_agreed:
            play_result = tag_result  # a result the players agreed (PBN 2.1 §3.4.15 "^"): it stands, Law 69
        else:
            sink.tag("C503", "Result", value=tag_result, expected=play_result)
    elif play_result is None and tag_result is not None and pr is not None and own_play in RANKED:
        if not _result_possible(sink, pr, play, contract, tag_result, dc.cards_per_hand):  # type: ignore[arg-type]
            tag_result = None  # impossible after the play: not scored (one error, no S601 from it)
        elif _stops_short(board, play, pr, dc.cards_per_hand):  # type: ignore[arg-type]
            _partial_result(sink, pr, tag_result)
            tag_result = None  # a partial result counts the tricks completed: not the board's result
    result = None if passed_out else (play_result if play_result is not None else tag_result)
    declarer_tag = board.tag("Declarer") if tag_result is not None else None
    if declarer_tag is not None and not passed_out and declarer_tag.strip() == "":
        # PBN 2.1 §3.4: an empty value is "not applicable": a board without declarer has no result
        sink.append(
            make(
                "T127",
                board.origin,
                board.tag_span("Result"),
                tag="Result",
                value=(board.tag("Result") or "").strip(),
                other='Declarer ""',
                detail="an empty Declarer says the board has no declarer (PBN 2.1 §3.4: not applicable)",
            )
        )
    if passed_out:
        rstatus = cstatus
    elif result is None:
        rstatus = UNKNOWN
    elif play_result is not None:
        rstatus = worst(own_play, cstatus)
    elif pr is not None and own_play not in RANKED and (play.claim is not None or len(play.cards) >= 52):  # type: ignore[union-attr]
        # the Result tag beside a faulty play that would give the result (all its cards, or a
        # claim); beside a part of a play (an opening lead alone) it stands on its own
        rstatus = FROM_TAGS
    else:
        rstatus = worst(cstatus if cstatus is not UNKNOWN else (FROM_TAGS if auction_bad else CLEAN))

    # --- score (Law 77) -----------------------------------------------------------
    score: int | None = None
    usebio_own = False
    if passed_out:
        score = 0
    elif (
        contract is not None
        and contract.level
        and contract.declarer is not None
        and result is not None
        and vul is not None
    ):
        score = _score(contract, vul, result)
    score_tag = board.tag("Score")
    if score_tag is not None and score_tag.strip() not in ("", "?"):
        _check_score_tag(sink, score_tag, contract, result, score)
        if board.origin.format == "usebio":
            # USEBIO's SCORE is the result its scorer scored (a line may give no contract at
            # all, usebio.md): it is the board's score; S601 above says when the contract
            # and tricks disagree with it
            parts = _parsed_score_tag(score_tag)
            if parts is not None and len(parts) == 1 and parts[0][0] == "NS":
                if score is not None and parts[0][1] != score:
                    usebio_own = True  # the line's own SCORE against its contract and tricks (S601)
                score = parts[0][1]

    if pr is not None and board.origin.format == "pbn" and (dc.cards_per_hand or 13) == 13:
        _play_needs(sink, board)
    sstatus = UNKNOWN if score is None else cstatus if passed_out else worst(cstatus, rstatus)
    if usebio_own:
        sstatus = FROM_TAGS  # the record's own SCORE, which its contract and tricks contradict (issue #18)
    return Replay(
        contract, source, tricks, result, score, tuple(sink) if sink else (), cstatus, pstatus, rstatus, sstatus
    )


def _play_needs(sink: _Sink, board: Board) -> None:
    """T129 (warning) when a PBN Play section is not preceded by the Deal, Declarer and
    Contract tags (PBN 2.1 §3.1, §3.6: a play section needs them before it, in import
    format too).  Not for an end position, whose Play tag names the player on lead (PBN 2.1
    §3.10), nor for a play that could not be replayed (P407 says why)."""
    seen: set[str] = set()
    for t in board.tags:
        if t.name == "Play":
            # a play without a deal is D205 (or the Deal tag's own fault): not told twice
            needed = ("Deal", "Declarer", "Contract") if board.deal is not None else ("Declarer", "Contract")
            missing = [n for n in needed if n not in seen]
            if missing:
                later = [n for n in missing if board.tag(n) is not None]
                where = " (it comes after it)" if len(later) == len(missing) == 1 else ""
                if len(later) and len(missing) > 1:
                    where = f" ({' and '.join(later)} after it)"
                sink.tag("T129", "Play", tags=" and ".join(missing), s="s" if len(missing) > 1 else "", where=where)
            return
        seen.add(t.name)


def _auction_errors(board: Board, ar: AuctionReplay | None) -> tuple[str, ...]:
    """The codes of the errors that bear on the auction's contract, each once: the replay's
    illegal calls (A301-A304, A306) and the reader's A306 (a token that is no call), T106 (the
    auction does not start at the dealer) and T101 of the Auction tag (its seat unreadable)."""
    out: dict[str, None] = {}
    if ar is not None:
        for f in ar.faults:
            if f.code in ILLEGAL_CALL_CODES:  # not A305 (stops short) nor A307 (a needless ^I): warnings
                out.setdefault(f.code)
    for d in board.diagnostics:
        code = d.code
        if d.severity is Severity.ERROR and (
            code in AUCTION_FAULTS or (code == "T101" and tag_of(d.message) == "Auction")
        ):
            out.setdefault(code)
    return tuple(out)


def _play_status(board: Board, pr: PlayReplay, deal_faults: tuple[Fault, ...]) -> str:
    """The status of a replayed play's seats and count of tricks (:mod:`handrec.rules.faults`):
    ``clean`` without a play or deal error, ``by_law`` when its only errors are ones a Law
    rectifies (P408: a lead by the wrong hand that the next hand played to stands, Laws 53A,
    55A), else ``from_tags`` (the seats its Play tag and columns give; PBN 2.1 §3.6)."""
    # the play's errors (not P405, an impossible claim: the result's fault only; not the warnings)
    codes = {f.code for f in pr.faults if f.code in PLAY_FAULTS or f.code in PLAY_BY_LAW}
    codes.update(f.code for f in deal_faults if f.code in DEAL_FAULTS)
    if board.diagnostics:
        codes.update(d.code for d in board.diagnostics if d.code in PLAY_FAULTS and d.severity is Severity.ERROR)
    if not codes:
        return CLEAN
    if all(c in PLAY_BY_LAW for c in codes):
        return BY_LAW
    return FROM_TAGS


def _stops_short(board: Board, play: Play, pr: PlayReplay, per_hand: int | None) -> bool:
    """Whether a PBN play stops before its last trick without ``*`` (no more cards known),
    ``+`` or a claim, and without tricks of unknown cards after it (a converter's padding
    after a claim, pbn.md §8): its Result is then a partial result (PBN 2.1 §3.4.15:
    it counts the tricks completed).  An agreed Result (``^``, Law 69) and a revoke marked
    ``^R`` (Law 64) give the outcome all the same."""
    if board.origin.format != "pbn" or play.ended is not None or play.claim is not None:
        return False
    if play.padded or board.result_agreed or "R" in (play.irregular or ()):
        return False
    if (per_hand or 13) != 13 or pr.complete:
        return False
    return len(play.cards) < 52


def _partial_result(sink: _Sink, pr: PlayReplay, result: int) -> None:
    """C508 (warning) for a Result that counts the tricks completed, C503 for one that does
    not (PBN 2.1 §3.4.15: an unfinished play's Result counts the completed tricks only)."""
    won, unknown = pr.declarer_tricks, pr.played - pr.declarer_tricks - pr.defence_tricks
    written = sink.board.tag("Result")
    value = written.strip() if written and written.strip() else result
    if won <= result <= won + unknown:
        sink.tag("C508", "Result", value=value, won=won, played=pr.played)
    else:
        sink.tag("C503", "Result", value=value, expected=won)


def _tags_over_faulty_auction(board: Board, ar: AuctionReplay, tag: Contract, tag_declarer: Seat | None) -> bool:
    """Whether the Contract and Declarer tags, not the auction, give the contract: the
    auction holds an illegal call (A301-A304, A306, found by the replay or, for a token
    that is no call, by the reader), the tags name a contract with its declarer, and they
    differ from the replay's.

    Not when the tags differ from the auction only in the doubling and the auction's only
    illegal calls are inadmissible doubles or redoubles: Law 36 cancels them, and the
    contract that stood is the auction's (issue #18).

    The replay's contract is then a guess about a faulty record (an illegal call skipped,
    an insufficient bid taken as accepted, Law 27A1), and following it would charge the
    play with one fault per card (P402, P403) and the Result and Score with faults of
    their own.  The call is the fault reported; the play, result and score are checked
    against the contract the table recorded.
    """
    if not any(f.code in ILLEGAL_CALL_CODES for f in ar.faults) and not any(
        d.code == "A306" for d in board.diagnostics
    ):
        return False
    if tag.level == 0 or tag.strain is None:
        return False
    declarer = tag_declarer if tag_declarer is not None else tag.declarer
    if declarer is None:
        return False
    a = ar.contract
    if a is None:
        return True
    if (a.level, a.strain, a.declarer) == (tag.level, tag.strain, declarer) and all(
        f.code in ("A302", "A303") for f in ar.faults if f.code in ILLEGAL_CALL_CODES
    ):
        # only the doubling differs, and the fault is an inadmissible double or redouble: Law 36
        # cancels it, so the contract that stood is the auction's, not the tag's (C509)
        return False
    return (a.level, a.strain, a.doubling, a.declarer) != (tag.level, tag.strain, tag.doubling, declarer)


def _result_possible(
    sink: _Sink, pr: PlayReplay, play: Play, contract: Contract, result: int, per_hand: int | None
) -> bool:
    """Whether a Result tag's ``result`` fits a play that did not give the result (PBN ``*``
    or a play cut short, an impossible claim, unknown cards); C507 when it does not.

    Declarer keeps the tricks already won (Law 71: conceding one of them is void) and can add
    at most the tricks the defenders have not won (Law 79A).  Not checked: with a revoke
    marked ``^R`` (Law 64 moves tricks after the play), and for an end position without a
    declarer (its Play tag names the player on lead, not declarer's left-hand opponent).  A
    Result that repeats an impossible claim (LIN ``mc`` gives the Result) is not reported
    again: P405 said it.
    """
    won, lost = pr.declarer_tricks, pr.defence_tricks
    if won <= result <= 13 - lost:
        return True
    marks = play.irregular
    if type(marks) is tuple and "R" in marks:
        return True  # Law 64 trick transfers: the Result gives the outcome
    if contract.declarer is None and (contract.level == 0 or (per_hand is not None and per_hand < 13)):
        return True  # an end position without a declarer: nobody's tricks are known
    claim = play.claim
    if claim is not None and claim == result and any(f.code == "P405" for f in pr.faults):
        return False  # P405 reported it
    written = sink.board.tag("Result")
    sink.tag(
        "C507",
        "Result",
        value=written.strip() if written and written.strip() else result,
        won=won,
        lost=lost,
        played=pr.played,
        low=won,
        high=13 - lost,
    )
    return False


#: parse_score_tag results by value: a session repeats a few dozen Score values.
_SCORE_TAGS: dict[str, tuple[tuple[str | None, int], ...] | None] = {}


def _parsed_score_tag(value: str) -> tuple[tuple[str | None, int], ...] | None:
    """``parse_score_tag(value)``, memoised (the cache is emptied when it grows large)."""
    try:
        return _SCORE_TAGS[value]
    except KeyError:
        pass
    parts = parse_score_tag(value)
    if len(_SCORE_TAGS) >= 4096:
        _SCORE_TAGS.clear()
    _SCORE_TAGS[value] = parts
    return parts


def _check_score_tag(sink: _Sink, value: str, contract: Contract | None, result: int | None, score: int | None) -> None:
    parts = _parsed_score_tag(value)
    if parts is None:
        sink.tag("S602", "Score", value=value)
        return
    if score is None or contract is None:
        return
    declarer = contract.declarer
    decl_ns = declarer is None or declarer % 2 == 0  # passed out: either view is 0
    for side, points in parts:
        if points != (score if side == "NS" or (side is None and decl_ns) else -score):
            break
    else:
        return  # the tag agrees: the usual case
    shown = []
    for side, _points in parts:
        if side is None:
            expected = score if decl_ns else -score
            shown.append(str(expected))
        elif side == "NS":
            expected = score
            shown.append(f"NS {expected}")
        else:
            expected = -score
            shown.append(f"EW {expected}")
    sink.tag(
        "S601",
        "Score",
        value=value,
        contract=str(contract),
        declarer="nobody" if declarer is None else str(declarer),
        tricks=0 if result is None else result,
        expected=" ".join(shown),
    )
