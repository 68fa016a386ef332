"""The PBN reader's fast paths give what its general code gives (handrec.formats.pbn.reader)."""

from __future__ import annotations

import io
import random
import re

import pytest

from handrec.dd.solver import DDTable
from handrec.formats.pbn import framing, parser, play_section, reader, table_section, tag_values
from handrec.formats.pbn.play_layout import best_known
from handrec.formats.pbn.tags import _dd_mapping, _double_dummy
from handrec.model import ALL_CARDS, Suit

GAME = """[Event "x"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:AQ6.AKJ5.J8.KJ74 KT932.82.AQT94.A 875.T93.763.Q532 J4.Q764.K52.T986"]
[Declarer "E"]
[Contract "2S"]
[Result "6"]
[Auction "N"]
1H 1S Pass 1NT
2H 2S Pass Pass
Pass
[Play "S"]
C2 C8 CJ CA
S5 S4 SA SK
H3 H4 HA H2
H9 H6 HK H8
C3 C6 CK S2
D3 D2 DJ DA
D6 DK D8 D4
S7 SJ SQ S3
HT H7 HJ S9
D7 D5 S6 DQ
C5 C9 C7 ST
S8 CT H5 DT
CQ HQ C4 D9
"""


def _tokens(text: str) -> list:
    return parser._parser()[1].scan(text, [])


@pytest.mark.parametrize(
    "text",
    [
        '[A "1"]\n[B "x\\"y"]\n\n[C ""]\n  ',
        '[A "1"] [B "2"]\n[C "3"]',
        '[A\n"1"]\n[B "2"]',
        '  [A "1"]\n[B "2"]  \n',
        '[A "1"]\t\n[B "2"]',
    ],
)
def test_tag_lines_read_as_the_general_tag_pairs(text: str) -> None:
    (tok,) = [t for t in _tokens(text) if t.type == "TAGS"]
    got = parser._tag_pairs(tok)
    assert [(t.name, t.value, t.span) for t in got] == [
        (t.name, t.value, t.span) for t in parser._tag_pairs_general(tok)
    ]


def _elements_by_regex(tokens: list) -> list[list[tuple]]:
    """The table elements as one finditer over each token (the reference)."""
    out: list[list[tuple]] = []
    for tok in tokens:
        line, line_start, current_line = tok.line, 1 - tok.column, -1
        for m in table_section._ELEMENT_RE.finditer(tok):
            st = m.start()
            line = tok.line + tok.count("\n", 0, st)
            if tok.count("\n", 0, st):
                line_start = tok.rfind("\n", 0, st) + 1
            if line != current_line:
                out.append([])
                current_line = line
            quoted = m.group(1) is not None
            text = m.group(1) if quoted else m.group()
            if quoted:
                text = re.sub(r'\\(["\\])', r"\1", text)
            out[-1].append((text, quoted, parser._span(line, st - line_start + 1)))
    return out


def test_table_lines_read_as_one_regex_over_each_token() -> None:
    text = '[OptimumResultTable "Declarer;Denomination\\2R;Result\\1R"]\nN NT 5\nS  "a \\"b\\" c" 4 {x} N H 5\n\n E\tD  "" 7\n'
    tokens = [t for t in _tokens(text) if t.type == "ROWS"]
    assert len(tokens) == 2
    assert [list(line) for line in table_section._table_lines(tokens)] == _elements_by_regex(tokens)


def test_unrolled_trick_winner_is_best_known() -> None:
    rng = random.Random(4)
    for _ in range(2000):
        played = rng.sample(ALL_CARDS, 4)
        for trump in (None, *Suit):
            assert play_section._winner(played, trump) == best_known(played, trump)


@pytest.mark.parametrize(
    "value", ["54555546658977889778", " 00082000827cc5a7cc5a ", "0008200082 7cc5a7cc5a", "eeeee555554444433333"]
)
def test_double_dummy_digits_read_as_ddtable(value: str) -> None:
    try:
        want = list(_dd_mapping(DDTable.parse_hex(value)).items())
    except Exception:
        want = None
    try:
        got = list(_double_dummy(value).items())
    except Exception:
        got = None
    assert got == want


def test_parse_feeds_larks_parser_as_lark_parse() -> None:
    lalr, scanner = parser._parser()
    tokens = _tokens(GAME + '{c}\n[ScoreTable "Rank"]\n1\n')
    fast = scanner.parse(tokens)
    slow = lalr.parse(tokens)
    assert [(s.kind, s.tags, s.elements, s.rows) for s in fast] == [(s.kind, s.tags, s.elements, s.rows) for s in slow]


def _sections(secs: list) -> list:
    return [(s.kind, s.tags, s.elements, s.rows, s.comments, s.issues, s.flat) for s in secs]


def test_a_parse_replayed_by_token_types_is_larks_parse() -> None:
    """The second game of a token-type sequence runs the steps kept from the first (the
    parse plans of handrec.formats._lark.feeder): what Lark's own parse gives, for games of
    many shapes (comments, tables, unknown data, sections in any order)."""
    lalr, scanner = parser._parser()
    texts = [
        GAME,
        GAME.replace("[Event", "{lead}\n[Event"),
        GAME + "{c}\n" + '[ScoreTable "Rank"]\n1\n2\n;x\n',
        'stray\n[Board "2"]\n[Play "N"]\nSA\n{c} H2\n[Auction "N"]\nPass\n[Note "1:x"]',
        '[X "1"]\ndata data\n{c}\n[Y "2"]',
        GAME.replace("\n[", "\n{c}\n[").replace("\nS5", "\n{c} S5") + "{c}\n" * 80,  # over 64 tokens: not kept
    ]
    for text in texts:
        for k in (1, 2):  # once recorded, then replayed from its plan
            tokens = _tokens(text.replace("1", str(k)))
            assert _sections(scanner.parse(tokens)) == _sections(lalr.parse(tokens)), (text, k)


def test_plain_play_reads_as_the_general_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    fast = reader.parse_pbn_text(GAME)[0]
    monkeypatch.setattr(play_section, "_UPPER_CARDS", {})  # no line is plain: the general loop reads every card
    slow = reader.parse_pbn_text(GAME)[0]
    assert fast.play == slow.play
    assert fast.play is not None and len(fast.play.cards) == 52


@pytest.mark.parametrize("tricks", [1, 5, 12])
def test_claimed_play_reads_as_the_general_loop(tricks: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A play of whole tricks and then ``*`` alone on its line (a claim) takes a fast path
    in _play: the same Play, and the section not plain (for the export check)."""
    head, lines = GAME.split('[Play "S"]\n')
    text = head + '[Play "S"]\n' + "".join(lines.splitlines(keepends=True)[:tricks]) + "*\n"
    fast = reader.parse_pbn_text(text)[0]
    sec_fast = [s for s in parser._parse_block(parser._parser(), text)[0] if s.kind == parser._PLAY][0]
    monkeypatch.setattr(play_section, "_UPPER_CARDS", {})  # no line is plain: the general loop reads every card
    slow = reader.parse_pbn_text(text)[0]
    assert fast.play == slow.play and fast.diagnostics == slow.diagnostics
    assert fast.play is not None and fast.play.ended == "*" and len(fast.play.cards) == 4 * tricks
    issues: list = []
    play_section._play(sec_fast, ({}, ()), None, issues)
    assert sec_fast.plain is False


@pytest.mark.parametrize(
    ("text", "export"),
    [
        (GAME, True),
        ('[A "1"]\n\n[B "2"]\n   \n[C "3"]\n\n', True),
        ('[A "1"]  \n[B "2"]\n', False),
        ('[A "1"]\n[B "2"]  ', False),
        ('[A "1"]\n[B "2"]\n\t\n', True),
    ],
)
def test_tag_lines_looked_up_as_read(text: str, export: bool) -> None:
    """_tag_pairs_plain looks up the lines it has read before (_TAG_LINES): a token read
    again (every line known) gives what its first reading gave, tags and both flags."""
    parser._TAG_LINES.clear()
    toks = [t for t in _tokens(text) if t.type in ("TAGS", "AUCTION_TAG", "PLAY_TAG")]
    cold = [parser._tag_pairs_plain(t) for t in toks]
    warm = [parser._tag_pairs_plain(t) for t in toks]
    assert warm == cold
    for tok, (tags, _, _) in zip(toks, cold):
        assert [(t.name, t.value, t.span) for t in tags] == [
            (t.name, t.value, t.span) for t in parser._tag_pairs_general(tok)
        ]
    assert cold[0][2] is export  # every tag pair alone on its line as [Name "value"]


def test_plain_auction_keeps_the_dealer_check() -> None:
    b = reader.parse_pbn_text(GAME.replace('[Auction "N"]', '[Auction "E"]'))[0]
    assert "T106" in [d.code for d in b.diagnostics]
    assert b.auction is not None and str(b.auction.calls[0]) == "1H"


#: Pieces of PBN files that the framing by blocks must leave to the line-by-line framing,
#: or read as it does: brace comments over empty lines, escape lines, tabs, separators of
#: spaces, comment-only games, CR LF and lone CR, non-ASCII and Unicode white space, lines
#: over 255 characters (export format), a byte that is not UTF-8.
_FRAME_PIECES = [
    GAME,
    GAME,
    '[Board "2"]\n[Deal "N:- - - -"]',
    "{c\n\n}",
    "{c}",
    "{a\nb}",
    GAME + "\n{a\n\n" + GAME + "\n}",
    GAME + " {claim} ;x",
    "{open",
    "}",
    "% PBN 2.1",
    "% EXPORT",
    "%x",
    "\t",
    "  ",
    "; c",
    "\r\n",
    "\r",
    "\u00a0",
    "\u00a0; c",
    "é",
    "\x1c",
    '[Site "' + "x" * 300 + '"]',
]


def _read_pbn(data: bytes, by_blocks: bool, board_limit: int | None, line_limit: int) -> tuple[list, list[str]]:
    from handrec.inputs.limits import Limits
    from handrec.inputs.sources import Input

    inp = Input("t.pbn", "pbn", opener=lambda: io.BytesIO(data), limits=Limits(max_line_bytes=line_limit))
    lines = inp.lines()
    boards = list(reader.parse_pbn(lines if by_blocks else iter(lines), "t.pbn", inp.diagnostics, board_limit))
    return boards, [str(d) for d in inp.diagnostics]


@pytest.mark.parametrize("seed", range(120))
def test_blocks_frame_as_lines(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """parse_pbn frames the decoded blocks of Input.lines() (its fast path) into the same
    games, lines, offsets and diagnostics as the lines one by one, whatever the read size."""
    import handrec.inputs.streams as streams

    rng = random.Random(seed)
    parts = []
    for _ in range(rng.randint(1, 25)):
        parts.append(rng.choice(_FRAME_PIECES) if rng.random() < 0.4 else GAME)
        parts.append(rng.choice(["\n", "\n\n", "\n\n\n", "\r\n\r\n", ""]))
    data = "".join(parts).encode()
    if rng.random() < 0.2:
        data = data.replace(b"\xc3\xa9", b"\xe9", 1)  # not UTF-8
    monkeypatch.setattr(streams, "CHUNK_BYTES", rng.choice([7, 64, 300, 1 << 20]))
    board_limit = rng.choice([None, 60, 400])
    line_limit = rng.choice([1 << 20, 100])
    blocks = _read_pbn(data, True, board_limit, line_limit)
    lines = _read_pbn(data, False, board_limit, line_limit)
    assert blocks == lines


def test_blocks_frame_a_plain_file_without_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """A plain export file read in small blocks is framed by its text only (never line by
    line), games across the blocks included, with the positions of the line-by-line read."""
    import handrec.inputs.streams as streams

    monkeypatch.setattr(streams, "CHUNK_BYTES", 100)
    seen = []
    real = framing._frame
    monkeypatch.setattr(framing, "_frame", lambda *a: seen.append(a) or real(*a))
    text = "% PBN 2.1\r\n% EXPORT\r\n\r\n" + "\r\n".join([GAME.replace("\n", "\r\n")] * 5)
    boards, diags = _read_pbn(text.encode(), True, None, 1 << 20)
    assert not seen and diags == []
    lines = text.split("\r\n")
    starts = [
        (k + 1, sum(len(x) + 1 for x in lines[:k])) for k in range(1, len(lines)) if lines[k] and not lines[k - 1]
    ]
    assert len(boards) == 5
    assert [(b.origin.line, b.origin.offset) for b in boards] == starts
    monkeypatch.setattr(framing, "_frame", real)
    assert _read_pbn(text.encode(), False, None, 1 << 20) == (boards, diags)


@pytest.mark.parametrize("text", ["", "a\nb", "a\tb", "\x00", "x\x1f", "\x7f", "é\x85", "é", "\x0b\n"])
def test_control_check_as_the_regex(text: str) -> None:
    assert tag_values._has_controls(text) == (tag_values._CONTROL_RE.search(text) is not None)


@pytest.mark.parametrize(
    "line",
    [
        '[Board "1"]',
        '[Board  "1"]',
        '[ Board "1"]',
        '[Board "1" ]',
        '[Board"1"]',
        '[Board "1"]{c}',
        '[Board "1"];c',
        '  [Board "1"]',
        '[Board "a\\"b"]',
    ],
)
def test_export_tag_form_as_the_regex_check(line: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The export check trusts the tag lines' own form (_Section.export_tags, found by
    _tag_pairs_plain) where it would have matched the token against _EXPORT_TAG_RUN."""
    text = f'% EXPORT\n[Event "e"]\n{line}\n[Dealer "N"]\n[Auction "N"]\nPass Pass Pass Pass\n'

    def f020(boards: list) -> list:
        return [(d.line, d.column, d.message) for d in boards[0].diagnostics if d.code == "F020"]

    fast = f020(reader.parse_pbn_text(text))
    real = parser._tag_pairs_plain
    monkeypatch.setattr(parser, "_tag_pairs_plain", lambda tok: (*real(tok)[:2], False))
    parser._TAG_LINES.clear()
    assert fast == f020(reader.parse_pbn_text(text))
    assert any("alone on its line" in m for _, _, m in fast) == (line not in ('[Board "1"]', '[Board "a\\"b"]'))


def test_blocks_frame_games_with_comments_without_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """Games with brace comments (claims, commentary: a tenth of real files' boards) are framed
    alone, not the rest of the file line by line; a comment open over an empty line is left to
    the lines from there; a % EXPORT met in such a game holds for the plain games after it."""
    game = GAME.rstrip("\n")
    long_site = '[Site "' + "x" * 300 + '"]\n' + game
    pieces = [game, game + "\n{claim}", game, "% EXPORT\n" + game, long_site, "{a\n\n" + game + "\n}", game]
    text = "\n\n".join(pieces) + "\n"
    framed: list[str] = []  # the first line of each run of the line-by-line framing
    real = framing._frame

    def spy(lines, *args):
        lines = list(lines)
        framed.append(lines[0])
        return real(lines, *args)

    monkeypatch.setattr(framing, "_frame", spy)
    boards, diags = _read_pbn(text.encode(), True, None, 1 << 20)
    monkeypatch.setattr(framing, "_frame", real)
    assert (boards, diags) == _read_pbn(text.encode(), False, None, 1 << 20)
    assert framed == ['[Event "x"]', "% EXPORT", "{a", "{a"]  # the last: tried alone, then from there on
    assert len(boards) == 6  # the game inside the open comment is comment
    site_line = text[: text.index("[Site")].count("\n") + 1
    assert [d for d in diags if ": F021 " in d] == [
        f"t.pbn:{site_line}:1: F021 warning: line is 311 characters long counting a CR LF line end "
        "(as export format ends lines); export format allows 255"
    ]


@pytest.mark.parametrize("first", "NESW")
def test_deal_masks_shared_as_check_deal(first: str) -> None:
    """The reader hands a full deal's masks to check_deal (rules.board.remember_full_deal):
    the DealCheck it then returns is the one check_deal computes itself."""
    from handrec.model import Deal
    from handrec.rules import board

    v = f"{first}:AQ6.AKJ5.J8.KJ74 KT932.82.AQT94.A 875.T93.763.Q532 J4.Q764.K52.T986"
    tag_values._DEALS.clear()
    tag_values._parse_deal(v)  # the runs read once
    tag_values._DEALS.clear()
    deal = tag_values._parse_deal(v)
    assert board._last_check[0] is deal
    shared = board.check_deal(deal)
    board._last_check = (None, board._NO_DEAL)
    assert shared == board.check_deal(Deal.parse(v)) == board.check_deal(deal)
    assert shared.masks[0] == board.hand_mask(Deal.parse(v).hands[0])


@pytest.mark.parametrize("contract", ["2S", "3H", "1NT", "4D", "5C"])
def test_known_play_in_play_order_as_the_general_loop(contract: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """_play's loop for a play of known cards (slots from _TRICK_SLOTS, Law 44 inline) puts
    the cards in the order the general loop does, whatever the trumps."""
    text = GAME.replace('[Contract "2S"]', f'[Contract "{contract}"]')
    fast = reader.parse_pbn_text(text)[0]
    monkeypatch.setattr(play_section, "_UPPER_CARDS", {})  # no line is plain: the general loop reads every card
    slow = reader.parse_pbn_text(text)[0]
    assert fast.play == slow.play and fast.diagnostics == slow.diagnostics
    assert fast.play is not None and len(fast.play.cards) == 52 and len(set(fast.play.cards)) == 52
