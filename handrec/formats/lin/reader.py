"""LIN reader: ``cmd|value|`` pairs to typed :class:`~handrec.model.Board` records.

Implements shared/specs/lin.md §1-§10 (BBO hand records, one-record-per-line
session files, vugraph match files, hand-viewer URLs).

Pipeline, one pass, streaming:

1. **Lines to tokens** (:mod:`handrec.formats.lin.lexer`).  Each decoded
   line is lexed by the lexer-only instance of ``grammars/lin.lark``.  A run
   of auction and play pairs (``mb an pc pg mc up nt``) is ONE ``MOVES``
   token; every other command is one token (``MD``, ``QX``... or the
   generic ``PAIR``); text that is no pair is ``JUNK``, a stray ``|`` is
   ``PIPE``.  A pair whose value runs over a line end (damaged files, §1)
   is carried over and re-lexed together with the next line, so the value
   is joined.  Hand-viewer URLs and ``hv_popuplin('...')`` carriers are
   decoded first (§2.4).  Token positions are made absolute (file line,
   column, character offset).
2. **Framing** (:func:`parse_lin`), in Python on the token types (§8): pairs
   before the first ``qx`` are the header; each ``qx`` starts a record;
   without ``qx`` each ``md`` starts a record; a ``vg`` after records starts
   a new segment (a second match in the same file) with its own header.  The
   ``pn``/``pw``/``st`` pairs written just before the ``md`` (or before a
   ``qx`` that follows a record) belong to the new record.  Only the current
   record's tokens are buffered.  Reading one part of a big file (``part``),
   the framing still runs from the file's start (headers included), and only
   the records that start in the part go on to steps 3 and 4.
3. **Record parse** (:mod:`handrec.formats.lin.records`): the record's
   tokens go to the LALR instance of the same grammar (pass-through lexer,
   Transformer given to the constructor, so no tree is built).  One
   reduction per token: its callback turns the value(s) into model values
   (Call, Card, Deal...; the LIN spellings are read by
   :mod:`handrec.formats.lin.spellings`) and adds them to the record's
   ``_Parts``; the ``MOVES`` callback splits its run with a compiled regex
   and gives every call and card the position of its own pair.
4. **Board** (:func:`_board`): ``_Parts``, the header (players by room,
   ``vg`` tags, ``rs`` results, ``bn`` numbers:
   :mod:`handrec.formats.lin.vugraph`) and the :class:`~handrec.model.Origin`
   give the Board with its PBN-equivalent tags (§9) and diagnostics.  A record's ``rs`` entry is checked against
   what its own auction and play give (C506).

Every command of lin.md §3 is typed: ``pn`` (4 names, 8 in a vugraph table
or header, longer header lists by block), ``md``, ``sv``, ``ah``, ``mb``
(``!`` alert, ``an`` explanation), ``pc``, ``mc``, ``up`` (undo), ``nt``,
``qx``, and the header's ``vg``, ``rs``, ``pw``, ``bn``, ``mp``; ``pg``,
``st``, ``rh``, ``sk`` and ``pf`` are display commands with nothing to keep.
Any other command is kept on the board as a raw ``(command, value)`` pair in
:attr:`Board.extra <handrec.model.Board.extra>` and noted with F007, a
*strict* code (``handrec validate`` shows it only under ``--strict``).  A
command in the header of a vugraph file that the reader does not know goes
to the segment's first record.

Nothing here raises on bad input: faults become diagnostics (F003 syntax,
F011 stray pipe, T101 bad value, T102 repeated pair, T105 odd spelling, A306
bad call, P406 bad card, C506 ``rs`` disagreeing with the table; F012 notes
an undo) and every framed record is yielded.

Positions: ``Origin.line`` is the file line of the record's first pair,
``Origin.offset`` its character offset (each line end counts as one
character); a ``Span`` line counts from the record's first line and its
column is the column of the pair's command in the file line.  For LIN
decoded out of a URL, columns and offsets count characters of the decoded
text, starting at the column where the encoded LIN starts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from lark import Token

from handrec.diagnostics import Diagnostic, make
from handrec.formats.lin.lexer import _TOO_BIG, _tokens
from handrec.formats.lin.records import _parse_tokens, _Parts
from handrec.formats.lin.spellings import _MOVE_KIND, _MOVE_PAIR, _NT, _PG, _bad, _int, _span_at
from handrec.formats.lin.vugraph import _check_rs, _Header, _read_header, _RsResult, _select_names
from handrec.model import Auction, Board, Contract, Origin, Play, Seat, Span, Tag

__all__ = ["parse_lin", "parse_lin_text"]


_PBN_PLAYER_ORDER = ((1, "West"), (2, "North"), (3, "East"), (0, "South"))  # index in S,W,N,E
#: Pairs written just before ``md`` (no ``qx``) or ``qx`` that belong to the new record (§8.2).
_LEAD_IN = frozenset({"PN", "PW", "ST"})


def _board(p: _Parts, h: _Header, origin: Origin) -> Board:
    """Combine one record's parts with the header into a Board (§8, §9)."""
    problems = p.problems
    if p.after_claim:
        problems.append(("P404", p.after_claim[0], {"count": len(p.after_claim)}))
    index = origin.index

    number = p.qx_number
    number_span = p.qx_span
    if number is None and p.ah_number is not None:
        number, number_span = p.ah_number, p.ah_span
    if number is None and index < len(h.boards):
        number, number_span = _int(h.boards[index]), None

    names: list[str] | None = None
    names_span: Span | None = None
    if p.names is not None:
        names, names_span = _select_names(p.names, p.room, None), p.names_span
    elif h.names is not None:
        names = _select_names(h.names, p.room, index)

    rs: _RsResult | None = None
    rs_index = -1
    if number is not None and h.results:
        first = h.first_board if h.first_board is not None else 1
        rs_index = 2 * (number - first) + (1 if p.room == "Closed" else 0)
        if 0 <= rs_index < len(h.results):
            rs = h.results[rs_index]
    contract: Contract | None = None
    result: int | None = None
    rs_span: Span | None = None  # the rs entry's position, block-relative (the header may come before)
    result_span: Span | None = None
    if rs is not None:
        contract, result = rs
        if rs_index < len(h.result_spans):
            at = h.result_spans[rs_index]
            rs_span = result_span = _span_at(at.line - origin.line + 1, at.column)
    elif p.claim is not None:
        result, result_span = p.claim, p.claim_span  # lin.md §9: mc -> Result

    tags: list[Tag] = []
    if h.event is not None:
        tags.append(Tag("Event", h.event))
    if number is not None:
        tags.append(Tag("Board", str(number), number_span))
    if names is not None:
        for i, tag in _PBN_PLAYER_ORDER:
            if i < len(names):
                tags.append(Tag(tag, names[i], names_span))
    if p.dealer is not None:
        tags.append(Tag("Dealer", str(p.dealer), p.md_span))
    if p.vulnerable is not None:
        tags.append(Tag("Vulnerable", str(p.vulnerable), p.sv_span))
    if p.deal_pbn is not None:
        first = p.dealer or Seat.NORTH
        hands = p.deal_pbn
        deal_text = f"{first}:{hands[first]} {hands[(first + 1) % 4]} {hands[(first + 2) % 4]} {hands[(first + 3) % 4]}"
        tags.append(Tag("Deal", deal_text, p.md_span))
    if h.scoring is not None:
        tags.append(Tag("Scoring", h.scoring))
    if contract is not None:
        if contract.declarer is not None:
            tags.append(Tag("Declarer", str(contract.declarer), rs_span))
        tags.append(Tag("Contract", str(contract), rs_span))
    if result is not None:
        tags.append(Tag("Result", str(result), result_span))
    if p.room is not None:
        tags.append(Tag("Room", p.room, p.qx_span))
    if h.stage is not None:
        tags.append(Tag("Stage", h.stage))
    if h.home is not None:
        tags.append(Tag("HomeTeam", h.home))
    if h.visit is not None:
        tags.append(Tag("VisitTeam", h.visit))

    auction: Auction | None = None
    if p.calls:
        first_span = p.calls[0].span
        # the dealer digit of md starts the auction; without it, the board number's dealer (Law 2)
        dealer = p.dealer if p.dealer is not None else Seat((number - 1) % 4) if number is not None else None
        if dealer is None:
            problems.append(
                _bad("mb", str(p.calls[0]), "calls but no dealer (no md dealer digit, no board number)", first_span)
            )
        else:
            auction = Auction(dealer, tuple(p.calls), span=first_span)

    play: Play | None = None
    if p.cards or p.claim is not None:
        play = Play(None, tuple(p.cards), p.claim, None, tuple(p.card_spans), claim_span=p.claim_span)

    extra = p.extra
    if h.extra:  # unknown commands of the header go to the segment's first record
        extra = h.extra + extra
        h.extra = []

    board = Board(
        origin=origin,
        tags=tuple(tags),
        number=number,
        dealer=p.dealer,
        vulnerable=p.vulnerable,
        deal=p.deal,
        auction=auction,
        play=play,
        contract=contract,
        declarer=contract.declarer if contract is not None else None,
        result=result,
        commentary=tuple(p.commentary),
        diagnostics=tuple([make(code, origin, span, **args) for code, span, args in problems]),
        extra=tuple(extra),
    )
    if rs is not None and (auction is not None or play is not None):
        board = _check_rs(board, h, rs_index)
    return board


def _lead_in_start(tokens: list[Token]) -> int:
    """Index where the trailing run of pn/pw/st pairs starts (len if none)."""
    i = len(tokens)
    while i > 0 and tokens[i - 1].type in _LEAD_IN:
        i -= 1
    return i


def _makes_a_record(tokens: list[Token]) -> bool:
    """Whether pairs framed by neither ``md`` nor ``qx`` still describe a table
    (``sv``, ``ah``, a call, a card, a claim or an undo) rather than a header."""
    for t in tokens:
        if t.type in ("SV", "AH"):
            return True
        if t.type == "MOVES" and any(_MOVE_KIND[m.group(1)] not in (_PG, _NT) for m in _MOVE_PAIR.finditer(t)):
            return True
    return False


def parse_lin(
    lines: Iterable[str],
    path: str,
    file_diagnostics: list[Diagnostic],
    max_board_chars: int | None = None,
    part: tuple[int, int] | None = None,
) -> Iterator[Board]:
    """Read LIN records (lin.md §1-§10), one Board per record, streaming.

    :param lines: decoded text lines WITHOUT line ends, line 1 first (the
        caller has decoded bytes and normalised CR/LF).  A line may also be a
        hand-viewer URL or ``hv_popuplin('...')`` call carrying LIN (§2.4).
    :param path: the file name put in every Origin and Diagnostic.
    :param file_diagnostics: receives faults that belong to no record: junk
        in the header, bad ``vg`` fields, unreadable ``rs`` entries, unknown
        header commands (F003, T101, F007; positions are file line and
        column), a header over the size limit (F016), ``pn``/``pw``/``st``
        after the last deal (F017).
    :param max_board_chars: the largest record read, in characters from the
        start of its first pair to the end of its last one
        (:attr:`handrec.inputs.limits.Limits.max_board_bytes`), or None for no limit.
        A larger record is not held past the limit nor parsed: its pairs are
        dropped as they come (the framing still follows them) and it is
        yielded as a Board with only its origin and an F016 error at its
        first line.  Pairs before the first ``md`` count with record 1 in a
        file without ``qx``; a header (pairs before the first ``qx``) over
        the limit is not read and gets a file-level F016.
    :param part: ``(start, stop)`` character offsets, to read one part of a big
        file in a worker process: only the records whose ``Origin.offset`` is
        in ``[start, stop)`` are built and yielded.  The whole file up to the
        part is still tokenised and framed (every header read, the segments,
        the record indexes and the size limit followed), so lines, offsets,
        indexes and the header values each record inherits are those of the
        whole file; reading stops at the first record at or after ``stop``.
        ``file_diagnostics`` receives the faults of the headers read just
        before this part's records (a header's faults go with the record that
        follows it) and, when the part holds the last record (or ``start`` is
        0 and the file has none), what is found after it (F017, a header
        that no record follows): the parts ``[0, a), [a, b), ..., [z, inf)``
        give between them every board and file diagnostic of the whole file,
        in order, each once.
    :returns: an iterator of Boards in file order; ``Origin.index`` is the
        0-based record ordinal.  Only the current record's pairs are held.

    Never raises on bad input: faults are diagnostics, and every framed
    record is yielded with what could be read.

    >>> b = next(parse_lin(["pn|S1,W1,N1,E1|md|3SAKQJT98765432H,HAKQJT98765432D,DAKQJT98765432C,|sv|b|mb|7S|"], "x.lin", []))
    >>> b.tag("Deal"), b.tag("North"), str(b.auction)
    ('N:..AKQJT98765432. ...AKQJT98765432 AKQJT98765432... .AKQJT98765432..', 'N1', '7S')
    """
    preamble: list[Token] = []
    cur: list[Token] | None = None
    cur_has_md = False
    qx_mode = False
    header = _Header()
    index = 0

    limit = max_board_chars if max_board_chars is not None else 1 << 62
    start, stop = (0, 1 << 62) if part is None else part
    # whether the record being read is this part's (then so is what is found after it, when it
    # is the last; before any record: the first part's)
    mine = start == 0

    def enter(at: int) -> bool:
        """A record starts at offset ``at`` (offsets only grow along the file): whether the
        reading goes on (it stops before a later part's record, its header's faults and what
        follows); ``mine``: whether the record is this part's."""
        nonlocal mine
        mine = at >= start
        return at < stop

    def build(tokens: list[Token]) -> Board | None:
        """The record's Board, or None for a record outside the part (not built)."""
        first = tokens[0]
        if not mine:
            if first.type != _TOO_BIG and header.extra:  # as _board: the segment's first record takes them
                header.extra = []
            return None
        origin = Origin(path, line=first.line, offset=first.start_pos, index=index, format="lin")
        if first.type == _TOO_BIG:
            return Board(origin, diagnostics=(make("F016", origin, None, line=first.line, limit=max_board_chars),))
        return _board(_parse_tokens(tokens, first.line), header, origin)

    def read_header(tokens: list[Token], found: list[Diagnostic]) -> _Header:
        first = tokens[0]
        if first.type == _TOO_BIG:
            found.append(make("F016", None, Span(first.line, 0), path=path, line=first.line, limit=max_board_chars))
            return _Header()
        parts = _parse_tokens(tokens, 1)
        h = _read_header(parts, path, found)
        found.extend(make(c, None, s, path=path, **a) for c, s, a in parts.problems)
        return h

    for tok in _tokens(lines, max_board_chars):
        kind = tok.type
        if kind == _TOO_BIG:  # a pair cut by line ends went over the limit
            if cur is not None:
                cur = _too_big(cur)
            else:
                preamble = _too_big(preamble)
            continue
        if kind == "VG" and cur is not None:
            # a vugraph header after records: a new segment with its own header (§2.3)
            split = _lead_in_start(cur)
            lead_in = cur[split:]
            del cur[split:]
            if cur:
                if (b := build(cur)) is not None:
                    yield b
                index += 1
            cur, cur_has_md, qx_mode, header = None, False, False, _Header()
            preamble = lead_in + [tok]
        elif kind == "QX":
            if cur is None:
                if not enter(tok.start_pos):  # a record starts at this qx
                    return
                if preamble:  # the header: everything before the first qx (§2.3)
                    header = read_header(preamble, file_diagnostics if mine else [])
                    preamble = []
                cur = [tok]
            else:
                split = _lead_in_start(cur) if qx_mode else len(cur)
                lead_in = cur[split:]
                del cur[split:]
                if cur:
                    if (b := build(cur)) is not None:
                        yield b
                    index += 1
                cur = lead_in + [tok]
                if not enter(cur[0].start_pos):
                    return
            qx_mode = True
        elif kind == "MD" and not qx_mode:
            if cur is None:
                if not enter((preamble[0] if preamble else tok).start_pos):  # record 1 (of its segment)
                    return
                # no qx: the preamble gives the header values AND is record 1's start; a
                # pn/pw of one table written just before the md is record 1's own (§8.2)
                if preamble and preamble[0].type != _TOO_BIG:
                    split = _lead_in_start(preamble)
                    lists = [t for t in preamble[split:] if t.type in ("PN", "PW") and t.count(",") > 3]
                    header_tokens = preamble[:split] + lists
                    if header_tokens:
                        found = file_diagnostics if mine else []
                        header = _read_header(_parse_tokens(header_tokens, 1), path, found)
                        header.extra = []  # the preamble's unknown commands are record 1's own
                cur = preamble + [tok]
                preamble = []
            elif cur_has_md:
                split = _lead_in_start(cur)
                lead_in = cur[split:]
                del cur[split:]
                if (b := build(cur)) is not None:
                    yield b
                index += 1
                cur = lead_in + [tok]
                if not enter(cur[0].start_pos):
                    return
            else:
                cur.append(tok)
            cur_has_md = True
        elif cur is not None:
            cur.append(tok)
        else:
            preamble.append(tok)
        # the size limit: a record over it is held as a _TOO_BIG token standing for its
        # first pair, then only the pn/pw/st pairs that may open the next record (once
        # these go over the limit, the next record will too: its first pair is enough)
        held = cur if cur is not None else preamble
        first = held[0]
        if first.type == _TOO_BIG:
            if kind not in _LEAD_IN:
                del held[1:]
            elif tok.start_pos + len(tok) - held[1].start_pos > limit:
                del held[2:]
        elif tok.start_pos + len(tok) - first.start_pos > limit:
            if cur is not None:
                cur = _too_big(cur)
            else:
                preamble = _too_big(preamble)

    found = file_diagnostics if mine else []  # what follows the last record is its part's
    if cur is not None:
        split = _lead_in_start(cur) if cur_has_md and not qx_mode else len(cur)
        if 0 < split < len(cur) and cur[0].type != _TOO_BIG:
            # pn/pw/st after the last deal open the next record, which never came (lin.md §8.2):
            # said, and not read as the last record's players
            tail = cur[split:]
            del cur[split:]
            commands = "|".join(dict.fromkeys(t.type.lower() for t in tail)) + "|"
            found.append(make("F017", None, Span(tail[0].line, tail[0].column), path=path, commands=commands))
        if (b := build(cur)) is not None:
            yield b
    elif preamble:
        if _makes_a_record(preamble):  # a record with no md/qx: still a record
            if not enter(preamble[0].start_pos):
                return
            if (b := build(preamble)) is not None:
                yield b
        else:
            read_header(preamble, found)


def _too_big(held: list[Token]) -> list[Token]:
    """The record being read (or the pairs before the first record) went over the size
    limit: a one-token list standing for it, at its first pair's position."""
    return [Token.new_borrow_pos(_TOO_BIG, "", held[0])]


_LINE_END = re.compile(r"\r\n|\r|\n")


def parse_lin_text(text: str, path: str = "<string>") -> list[Board]:
    """Read every LIN record of ``text`` (a BOM and any line ends allowed).

    File-level diagnostics are dropped; use :func:`parse_lin` to get them.

    >>> [b.number for b in parse_lin_text("qx|o7|md|1S,S,S,S|qx|c7|md|1S,S,S,S|")]
    [7, 7]
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    return list(parse_lin(_LINE_END.split(text), path, []))
