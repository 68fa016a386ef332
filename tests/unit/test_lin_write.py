"""The LIN writer (handrec/formats/lin/writer.py): single-deal records, vugraph files, what
LIN cannot hold, LIN -> PBN, the export command, and a vugraph match queried
in SQL (IMP swing between the rooms checked against the scorer)."""

from __future__ import annotations

import io
import random
from dataclasses import replace
from pathlib import Path

from typer.testing import CliRunner

from handrec.cli import app
from handrec.dataset.query import run
from handrec.formats.lin.reader import parse_lin, parse_lin_text
from handrec.formats.lin.writer import dump, dumps, for_pbn, pbn_losses
from handrec.formats.pbn.reader import parse_pbn_text
from handrec.formats.pbn.writer import dumps as pbn_dumps
from handrec.generate import generate_boards
from handrec.model import Auction, Board, Call, CallKind, Contract, Play, Seat, Tag
from handrec.rules.auction import AuctionState
from handrec.rules.play import PlayState
from handrec.rules.validator import analyse
from handrec.runs.convert import convert
from handrec.scoring.duplicate import score_ns
from handrec.scoring.imps import imps

MD3 = "SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,"  # S spades, W hearts, N diamonds, E clubs
MD4 = "SAKQJT98765432HDC,SHAKQJT98765432DC,SHDAKQJT98765432C,SHDCAKQJT98765432"  # as the writer spells it


def lin(boards: list[Board], dropped: dict[str, int] | None = None) -> str:
    buf = io.StringIO()
    assert dump(boards, buf, dropped=dropped) == len(boards)
    return buf.getvalue()


def one(text: str) -> Board:
    (b,) = parse_lin_text(text, "t.lin")
    return b


# --- single-deal records (lin.md §2.1) ---------------------------------------------------


def test_single_deal_record_in_bbo_order() -> None:
    src = (
        f"pn|s,w,n,e|st||md|1{MD3}|rh||ah|Board 7|sv|b|mb|1N|an|15-17|mb|2D!|an|transfer|mb|p|mb|2H|"
        "mb|p|mb|p|mb|p|pg||pc|SA|pc|HA|pc|DA|pc|CA|pg||pc|S2|mc|9|nt|kib: wow|zz|raw|"
    )
    b = one(src)
    assert dumps(b) == (
        f"pn|s,w,n,e|st||md|1{MD4}|rh||ah|Board 7|sv|b|mb|1N|an|15-17|mb|2D!|an|transfer|mb|p|mb|2H|"
        "mb|p|mb|p|mb|p|pg||pc|SA|pc|HA|pc|DA|pc|CA|pg||pc|S2|mc|9|nt|kib: wow|zz|raw|\n"
    )
    assert one(dumps(b)) == b


def test_no_pn_without_players_and_always_an_md() -> None:
    b = Board(replace(one("md|1,,,|").origin), number=3)
    assert dumps(b) == "st||md|1,,,|rh||ah|Board 3|\n"  # board 3's dealer, S (Law 2; issue #18)
    back = one(dumps(b))
    assert (back.number, back.deal, back.tag("South")) == (3, None, None)


def test_pipes_commas_and_line_breaks_in_texts_are_replaced_and_reported() -> None:
    b = one(f"pn|a,b,c,d|md|1{MD3}|mb|1S|an|x|nt|chat|")
    b = replace(
        b,
        tags=tuple(Tag(t.name, "Smith, J|r" if t.name == "South" else t.value) for t in b.tags),
        commentary=("two\nlines", "a|b"),
        auction=replace(b.auction, calls=(Call(CallKind.BID, 1, b.auction.calls[0].strain, annotation="5+|!S"),)),
    )
    dropped: dict[str, int] = {}
    text = dumps(b, dropped=dropped)
    assert text.startswith("pn|Smith  J/r,b,c,d|")
    assert "mb|1S|an|5+/!S|" in text and "nt|two lines|nt|a/b|" in text
    assert dropped == {"'|' or ',' in a name": 1, "'|' in a text": 1, "line breaks in a text": 1}


def test_a_partial_play_with_a_result_is_written_as_a_claim() -> None:
    pbn = (
        '[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
        '[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]\n'
        '[Declarer "N"]\n[Contract "7S"]\n[Result "13"]\n'
        '[Auction "N"]\n7S Pass Pass Pass\n[Play "E"]\nH2 D2 C2 S2\n*\n'
    )
    (b,) = parse_pbn_text(pbn, "t.pbn")
    text = dumps(b)
    assert text.endswith("pc|H2|pc|D2|pc|C2|pc|S2|pg||mc|13|\n")
    back = one(text)
    assert (back.play.claim, back.result, analyse(back).replay.result) == (13, 13, 13)
    assert analyse(back).diagnostics == ()


def test_no_claim_for_a_complete_play_or_a_passed_out_board() -> None:
    boards = list(generate_boards(12, seed=3))
    for b in boards:
        assert "mc|" not in dumps(b)
        assert (b.play is None) == (str(b.contract) == "Pass")


def test_what_lin_cannot_hold_is_reported_per_board() -> None:
    boards = list(generate_boards(6, seed=2))
    dropped: dict[str, int] = {}
    lin(boards, dropped)
    # Contract, Declarer and Result are given by the auction and the play
    assert dropped == {"Event tag": 6, "Site tag": 6, "Date tag": 6, "Scoring tag": 6, "Score tag": 6}


def test_irregularities_unknown_cards_and_empty_sections_are_reported() -> None:
    b = next(generate_boards(1, seed=4))
    calls = b.auction.calls
    odd = replace(
        b,
        auction=replace(b.auction, calls=(replace(calls[0], nags=(1,)), Call.parse("^S"), *calls[1:])),
        play=replace(b.play, cards=(*b.play.cards[:5], None, *b.play.cards[6:])),
        declarer_swapped=True,
    )
    dropped: dict[str, int] = {}
    text = dumps(odd, dropped=dropped)
    assert "mb|^S|" not in text and text.count("pc|") == 5
    assert {k for k in dropped if not k.endswith(" tag")} == {
        "NAGs",
        "auction irregularities (^I, ^S)",
        "unknown cards ('-') in the play",
        "Declarer ^ (declarer and dummy swapped)",
    }
    empty = replace(b, auction=Auction(Seat.NORTH), play=Play(Seat.EAST), tags=(), contract=None, result=None)
    dropped = {}
    dumps(empty, dropped=dropped)
    assert dropped == {"Auction tag (no calls)": 1, "Play tag (no cards)": 1}


def test_deals_an_md_cannot_say_are_reported() -> None:
    b = one(f"md|1{MD3}|")
    three = replace(b, deal=replace(b.deal, hands=(*b.deal.hands[:1], None, *b.deal.hands[2:])))
    dropped: dict[str, int] = {}
    dumps(three, dropped=dropped)
    assert dropped == {"East not given (a LIN reader derives it)": 1}


def test_contract_and_result_without_an_auction_are_reported() -> None:
    pbn = '[Board "1"]\n[Declarer "S"]\n[Contract "4H"]\n[Result "10"]\n[Score "NS 420"]\n'
    (b,) = parse_pbn_text(pbn, "t.pbn")
    dropped: dict[str, int] = {}
    dumps(b, dropped=dropped)
    assert dropped == {"Contract tag": 1, "Declarer tag": 1, "Result tag": 1, "Score tag": 1}


# --- vugraph files (lin.md §2.3, §7) -----------------------------------------------------


def table(room: str, number: int, names: str, tail: str) -> Board:
    """A table of a match read from LIN, with the match tags and a room."""
    b = one(f"pn|{names}|md|1{MD3}|{tail}")
    match = (Tag("Event", "Cup"), Tag("Stage", "Final"), Tag("HomeTeam", "Home"), Tag("VisitTeam", "Away"))
    tags = tuple(t for t in b.tags if t.name != "Board") + (Tag("Board", str(number)), Tag("Room", room), *match)
    return replace(b, number=number, tags=tags)


SEVEN = "mb|7S|mb|p|mb|p|mb|p|pc|HA|mc|13|"


def test_vugraph_file_exact_text() -> None:
    boards = [
        table("Open", 1, "a,b,c,d", SEVEN),
        table("Closed", 1, "e,f,g,h", "mb|p|mb|p|mb|p|mb|p|"),
        table("Open", 2, "a,b,c,d", SEVEN),
        table("Closed", 2, "e,f,g,x", SEVEN.replace("mc|13|", "mc|12|")),
    ]
    assert lin(boards).splitlines() == [
        "vg|Cup,Final,,1,2,Home,0,Away,0|",
        "rs|7SS=,PASS,7SS=,7SS-1|",
        "pn|a,b,c,d,e,f,g,h|pg||",
        f"qx|o1|st||md|1{MD4}|mb|7S|mb|p|mb|p|mb|p|pg||pc|HA|mc|13|",
        f"qx|c1|st||md|1{MD4}|mb|p|mb|p|mb|p|mb|p|pg||",
        f"qx|o2|st||md|1{MD4}|mb|7S|mb|p|mb|p|mb|p|pg||pc|HA|mc|13|",
        f"qx|c2|pn|e,f,g,x|st||md|1{MD4}|mb|7S|mb|p|mb|p|mb|p|pg||pc|HA|mc|12|",  # its own players
    ]


def test_vugraph_tables_read_back_with_room_match_players_and_results() -> None:
    boards = [table("Open", 3, "a,b,c,d", SEVEN), table("Closed", 3, "e,f,g,h", SEVEN)]  # board 3: South deals
    dropped: dict[str, int] = {}
    file_diags: list = []
    back = list(parse_lin(lin(boards, dropped).splitlines(), "v.lin", file_diags))
    assert dropped == {} and file_diags == []
    for b, r in zip(boards, back, strict=True):
        assert (r.number, r.tag("Room"), r.tag("Event"), r.tag("Stage")) == (3, b.tag("Room"), "Cup", "Final")
        assert (r.tag("HomeTeam"), r.tag("VisitTeam"), r.tag("South")) == ("Home", "Away", b.tag("South"))
        assert (str(r.contract), r.declarer, r.result, r.tag("Result")) == ("7S", Seat.SOUTH, 13, "13")
        assert (r.deal, r.auction, r.play) == (b.deal, b.auction, b.play)
        assert analyse(r).diagnostics == ()


def test_one_segment_per_match_and_a_repeated_table_starts_another() -> None:
    a1 = table("Open", 1, "a,b,c,d", SEVEN)
    other = replace(a1, tags=tuple(Tag(t.name, "Plate" if t.name == "Event" else t.value) for t in a1.tags))
    text = lin([a1, other, a1])
    assert [line for line in text.splitlines() if line.startswith("vg|")] == [
        "vg|Cup,Final,,1,1,Home,0,Away,0|",
        "vg|Plate,Final,,1,1,Home,0,Away,0|",
        "vg|Cup,Final,,1,1,Home,0,Away,0|",
    ]
    assert [b.tag("Event") for b in parse_lin_text(text)] == ["Cup", "Plate", "Cup"]


def test_single_deal_records_come_before_the_segments() -> None:
    single = one(f"pn|p,q,r,s|md|2{MD3}|ah|Board 9|")
    text = lin([table("Open", 1, "a,b,c,d", SEVEN), single])
    assert text.splitlines()[0].startswith("pn|p,q,r,s|st||md|2")
    back = parse_lin_text(text)
    assert [(b.number, b.tag("Room"), b.tag("Event")) for b in back] == [(9, None, None), (1, "Open", "Cup")]
    assert back[0] == single


def test_a_room_other_than_open_or_closed_is_a_single_deal_record() -> None:
    b = replace(one(f"md|1{MD3}|ah|Board 1|"), tags=(Tag("Board", "1"), Tag("Room", "Table 3")))
    dropped: dict[str, int] = {}
    assert not lin([b], dropped).startswith("vg|")
    assert dropped == {"Room tag (not Open or Closed)": 1}


# --- LIN -> PBN ------------------------------------------------------------------------------


def test_for_pbn_gives_leader_and_tags_and_pbn_losses_lists_what_pbn_drops() -> None:
    b = one(f"pn|s,w,n,e|md|1{MD3}|ah|Board 1|mb|1S!|an|strong|mb|p|mb|p|mb|p|pc|HA|nt|hi|qq|1|")
    p = for_pbn(b)
    assert (p.tag("Declarer"), p.tag("Contract"), p.play.leader) == ("S", "1S", Seat.WEST)
    assert p.tag("Result") is None  # one card and no claim: no result
    assert pbn_losses(p) == ["unknown LIN commands", "alert marks (!) (kept as notes)"]
    (back,) = parse_pbn_text(pbn_dumps(p), "t.pbn")
    assert (back.auction.calls[0].annotation, back.play.leader, back.commentary) == ("strong", Seat.WEST, ("hi",))
    assert tuple(c for c in back.play.cards if c is not None) == b.play.cards  # PBN pads whole tricks with "-"
    pbn_board = back
    assert for_pbn(pbn_board) is pbn_board  # not from LIN: unchanged


# --- the export command ------------------------------------------------------------------------


def test_export_both_ways_reports_what_is_not_carried(tmp_path: Path) -> None:
    src = tmp_path / "g.pbn"
    with open(src, "w", encoding="utf-8", newline="") as f:
        from handrec.formats.pbn.writer import dump as pbn_dump

        pbn_dump(generate_boards(4, seed=9), f)
    runner = CliRunner()
    r = runner.invoke(app, ["export", str(src), "--to", "lin", "-o", str(tmp_path / "g.lin")])
    assert r.exit_code == 0, r.output
    assert r.stderr.splitlines() == [
        "handrec: not carried in LIN: Date tag (4 boards), Event tag (4 boards), Score tag (4 boards), "
        "Scoring tag (4 boards), Site tag (4 boards)",
        f"4 boards -> {tmp_path / 'g.lin'}",
    ]
    r = runner.invoke(app, ["export", str(tmp_path / "g.lin"), "--to", "pbn", "-o", str(tmp_path / "back.pbn")])
    assert r.exit_code == 0, r.output
    assert r.stderr.splitlines() == [f"4 boards -> {tmp_path / 'back.pbn'}"]
    orig = list(generate_boards(4, seed=9))
    back = parse_pbn_text((tmp_path / "back.pbn").read_text(encoding="utf-8"), "back.pbn")
    for a, b in zip(orig, back, strict=True):
        assert (b.deal, b.dealer, b.vulnerable, b.number) == (a.deal, a.dealer, a.vulnerable, a.number)
        assert [str(c) for c in b.auction.calls] == [str(c) for c in a.auction.calls]
        assert (b.contract, b.declarer, b.result) == (a.contract, a.declarer, a.result)
        assert b.play == a.play or (b.play.cards, b.play.leader) == (a.play.cards, a.play.leader)
        assert analyse(b).diagnostics == ()


# --- a vugraph match in SQL: the IMP swing of each board -----------------------------------------


def closed_room(b: Board, rng: random.Random) -> Board:
    """The other table of ``b``'s deal: all pass, the same auction played
    differently, or 3NT by the dealer, each played at random (legal cards)."""
    kind = b.number % 3
    if kind == 0:
        calls = tuple(Call(CallKind.PASS) for _ in range(4))
    elif kind == 1:
        calls = b.auction.calls
    else:
        calls = (Call.parse("3NT"), *(Call(CallKind.PASS) for _ in range(3)))
    state = AuctionState(b.dealer)
    for i, c in enumerate(calls):
        state.apply(c, b.auction.seat_of(i))
    contract: Contract = state.contract
    play, result = None, None
    if not contract.is_passed_out:
        ps = PlayState(b.deal, contract)
        cards = []
        while not ps.is_complete:
            card = rng.choice(ps.legal_cards())
            ps.play(card)
            cards.append(card)
        play, result = Play(contract.declarer.lho, tuple(cards)), ps.declarer_tricks
    tags = tuple(
        t
        for t in b.tags
        if t.name not in ("Declarer", "Contract", "Result", "Score", "North", "East", "South", "West", "Room")
    )
    names = (Tag("North", "n2"), Tag("East", "e2"), Tag("South", "s2"), Tag("West", "w2"))
    return replace(
        b,
        tags=(*tags, *names, Tag("Room", "Closed")),
        auction=Auction(b.dealer, calls),
        play=play,
        contract=contract,
        declarer=contract.declarer,
        result=result,
    )


def test_imp_swing_between_the_rooms_in_sql_matches_the_scorer(tmp_path: Path) -> None:
    rng = random.Random(11)
    match = (Tag("Stage", "Final"), Tag("HomeTeam", "Home"), Tag("VisitTeam", "Away"))
    opened = [replace(b, tags=(*b.tags, Tag("Room", "Open"), *match)) for b in generate_boards(12, seed=21)]
    tables = [t for b in opened for t in (b, closed_room(b, rng))]
    path = tmp_path / "match.lin"
    dropped: dict[str, int] = {}
    path.write_text(lin(tables, dropped), encoding="utf-8")
    assert set(dropped) == {"Site tag", "Date tag", "Score tag"}  # vugraph holds the rest
    assert path.read_text(encoding="utf-8").startswith("vg|handrec generated,Final,I,1,12,Home,0,Away,0|\nrs|")
    read = parse_lin_text(path.read_text(encoding="utf-8"), str(path))
    assert [d.code for b in read for d in analyse(b).diagnostics] == []  # rs agrees with every table

    out = tmp_path / "ds"
    convert([path], out)
    _, rows = run(
        out,
        "select o.board, o.score_ns, c.score_ns, imps(o.score_ns - c.score_ns), o.north, c.north "
        "from boards o join boards c on o.event = c.event and o.board = c.board "
        "where o.room = 'Open' and c.room = 'Closed' order by o.board",
    )
    assert len(rows) == 12
    swings = []
    for (board, open_ns, closed_ns, swing, n_open, n_closed), o, c in zip(rows, opened, tables[1::2], strict=True):
        expected_open = score_ns(o.contract, o.vulnerable, o.result) if o.result is not None else 0
        expected_closed = 0 if c.contract.is_passed_out else score_ns(c.contract, c.vulnerable, c.result)
        assert (board, open_ns, closed_ns) == (o.number, expected_open, expected_closed)
        assert swing == imps(expected_open - expected_closed)
        assert (n_open, n_closed) == (o.tag("North"), "n2")
        swings.append(swing)
    assert any(s > 0 for s in swings) and any(s < 0 for s in swings)


def test_an_agreed_result_after_a_full_play_is_listed_as_not_carried() -> None:
    from handrec.formats.pbn.reader import parse_pbn_text
    from handrec.formats.pbn.writer import dumps as pbn_dumps
    from handrec.generate import generate_boards

    text = pbn_dumps(next(generate_boards(1, seed=3)))
    assert '[Result "' in text and "[Play " in text
    agreed = text.replace('[Result "', '[Result "^', 1)
    (b,) = parse_pbn_text(agreed, "a.pbn")
    dropped: dict[str, int] = {}
    dumps(b, dropped=dropped)
    (plain,) = parse_pbn_text(text, "p.pbn")
    kept: dict[str, int] = {}
    dumps(plain, dropped=kept)  # the tags LIN has no place for, as for any PBN board
    assert dropped == {**kept, "agreed Result (^) after a full play": 1}
    assert "agreed Result (^) after a full play" not in kept


def test_an_unreadable_result_is_listed_as_not_carried() -> None:
    from handrec.formats.pbn.reader import parse_pbn_text
    from handrec.formats.pbn.writer import dumps as pbn_dumps

    text = pbn_dumps(next(generate_boards(1, seed=3)))
    (plain,) = parse_pbn_text(text, "p.pbn")
    kept: dict[str, int] = {}
    dumps(plain, dropped=kept)
    i = text.index('[Result "')
    j = text.index("\n", i)
    (b,) = parse_pbn_text(text[:i] + '[Result "NS 7 EW 7"]' + text[j:], "r.pbn")
    assert [d.code for d in b.diagnostics] == ["T101"]
    dropped: dict[str, int] = {}
    dumps(b, dropped=dropped)
    assert dropped == {**kept, "Result tag that cannot be read": 1}


def test_export_to_pbn_writes_lin_suit_symbols_as_pbn(tmp_path: Path) -> None:
    """Issue #19 point 7: LIN's suit symbols (``!H``, ``!h`` in explanations, ``@S`` in vugraph
    commentary) are PBN's ``\\H``, ``\\S`` in the PBN written (PBN 2.1 §3.8)."""
    src = tmp_path / "s.lin"
    src.write_text(
        "pn|Eve,Cat,Dan,Ann|st||md|3SKT64HDAQ983CJ874,SAQ932HKJ8654DCAK,SJHAT7DK7642CQT65,S875HQ932DJT5C932|rh||"
        "ah|Board 1|sv|o|mb|p|mb|p|mb|p|mb|1H!|an|5+ !H; 11-21 HCP|mb|p|mb|2h!|an|3+ !h, 6-9|mb|p|mb|p|mb|p|"
        "nt|@S shift? No: the @c 4, !Sure|\n"
    )
    r = CliRunner().invoke(app, ["export", str(src), "-o", "-"])
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[3] == "{\\S shift? No: the \\C 4, !Sure}"
    assert lines[-2:] == ['[Note "1:5+ \\H; 11-21 HCP"]', '[Note "2:3+ \\H, 6-9"]']
    back = parse_pbn_text(r.stdout, "back.pbn")[0]
    assert [c.annotation for c in back.auction.calls if c.annotation] == ["5+ \\H; 11-21 HCP", "3+ \\H, 6-9"]
    assert r.stderr.splitlines() == [
        "handrec: not carried in PBN: alert marks (!) (kept as notes) (1 board)",
        "1 boards -> standard output",
    ]
