"""What a faulty record yields (issue #18): never a value built on the fault.

Each derived value of a board (contract and declarer, the seat of each card played, the
result, the score, and from them the matchpoints) is what the record gives cleanly, what the
Laws make of the fault, or null; the ``boards`` row says which (``faults``, ``status`` and a
status per value), and ``handrec score`` ranks only clean results and those the Laws give,
with a note for each left out.  Each case is a small file written here, with the exact
diagnostics and the exact values in ``boards``, ``plays``, ``score`` and the rankings.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from handrec.cli import app
from handrec.dataset.tables import to_arrow
from handrec.formats.pbn.reader import parse_pbn_text

DEAL = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
#: 4S by N taking 7 tricks (the play of tests/unit/test_validate_faults.py), led by E.
PLAY = """CJ C8 C5 C2
CQ C9 C6 C3
CK CT C7 C4
CA DJ D8 D5
D2 DQ D9 D6
D3 DK DT D7
D4 DA HJ H8
H5 H2 HQ H9
H6 H3 HK HT
H7 H4 HA SJ
S8 S5 S2 SQ
S9 S6 S3 SK
ST S7 S4 SA
"""
STATUS = ["faults", "status", "contract_status", "play_status", "result_status", "score_status"]
VALUES = ["contract", "declarer", "result", "score_ns"]


def game(
    table: int,
    *,
    contract: str | None = "4S",
    declarer: str | None = "N",
    result: str | None = "10",
    score: str | None = None,
    auction: str | None = "1S Pass 4S Pass\nPass Pass",
    auction_seat: str = "N",
    play: str | None = None,
    play_seat: str = "E",
) -> str:
    """One table's game of board 1 (dealer N, nobody vulnerable), pairs N1 - S1 / E1 - W1 and so on."""
    lines = ['[Event "Club"]', '[Date "2026.01.05"]', '[Board "1"]']
    lines += [f'[North "N{table}"]', f'[South "S{table}"]', f'[East "E{table}"]', f'[West "W{table}"]']
    lines += ['[Dealer "N"]', '[Vulnerable "None"]', f'[Deal "{DEAL}"]']
    lines += [f'[Declarer "{declarer}"]'] if declarer is not None else []
    lines += [f'[Contract "{contract}"]'] if contract is not None else []
    lines += [f'[Result "{result}"]'] if result is not None else []
    lines += [f'[Score "{score}"]'] if score is not None else []
    lines += [f'[Auction "{auction_seat}"]', auction] if auction is not None else []
    lines += [f'[Play "{play_seat}"]', play.rstrip("\n")] if play is not None else []
    return "\n".join(lines) + "\n"


def tables(text: str) -> dict:
    return to_arrow(parse_pbn_text(text, "t.pbn"))


def row(text: str, index: int = 0) -> dict:
    """The boards row of game ``index``: its values and statuses."""
    return {k: v for k, v in tables(text)["boards"].to_pylist()[index].items() if k in VALUES + STATUS}


def diags(text: str) -> list[tuple[str, int, str]]:
    return [(d["code"], d["line"], d["message"]) for d in tables(text)["diagnostics"].to_pylist()]


def score(tmp_path: Path, *games: str) -> dict:
    f = tmp_path / "t.pbn"
    f.write_text("\n".join(games), encoding="utf-8")
    r = CliRunner().invoke(app, ["score", str(f), "--format", "json"])
    assert r.exit_code == 0, r.output
    (ev,) = json.loads(r.stdout)["events"]
    return ev


def ranked(ev: dict) -> dict[str, list[tuple[str, str, float]]]:
    return {k["ranking"]: [(x["rank"], x["name"], x["pct"]) for x in k["rows"]] for k in ev["rankings"]}


def scores(ev: dict) -> list[tuple[str, int | None, float | None]]:
    return [(e["ns"], e["score_ns"], e["mp_ns"]) for t in ev["travellers"] for e in t["entries"]]


CLEAN_420 = game(2)  # 4S by N, 10 tricks: 420
DOWN_ONE = game(3, result="9")  # 4S by N, 9 tricks: -50


# --- case 1: an inadmissible double (Law 36) ---------------------------------------------

#: N doubles his own side's 4S and the Contract tag keeps the double: Law 36 cancels it.
LAW_36 = game(1, contract="4SX", score="NS 590", auction="1S Pass 4S Pass\nX Pass Pass Pass")


def test_inadmissible_double_is_cancelled_by_law_36() -> None:
    assert diags(LAW_36) == [
        ("C509", 12, "Contract 4SX, but under Law 36 the auction ends in 4S"),
        ("S601", 14, "Score NS 590 but 4S by N taking 10 tricks scores NS 420"),
        ("A302", 17, "double by N is not allowed: 4S was bid by the doubler's own side"),
    ]
    assert row(LAW_36) == {
        "contract": "4S",
        "declarer": "N",
        "result": 10,
        "score_ns": 420,  # not the 590 of the doubled contract the tag names
        "faults": ["S601", "A302"],
        "status": "faulty",
        "contract_status": "by_law",
        "play_status": "unknown",
        "result_status": "by_law",
        "score_status": "by_law",
    }


def test_a_contract_by_law_is_ranked(tmp_path: Path) -> None:
    ev = score(tmp_path, LAW_36, CLEAN_420, DOWN_ONE)
    assert scores(ev) == [("N1 - S1", 420, 1.5), ("N2 - S2", 420, 1.5), ("N3 - S3", -50, 0)]
    assert ranked(ev)["NS"] == [("1=", "N1 - S1", 75), ("1=", "N2 - S2", 75), ("3", "N3 - S3", 0)]
    assert ev["notes"] == []


# --- case 2: an auction that does not start at the dealer (T106) --------------------------

#: Dealer N, but the Auction tag says the first call was East's: the calls cannot be placed.
T106 = game(1, auction_seat="E")


def test_auction_not_at_the_dealer_keeps_only_the_tags() -> None:
    assert diags(T106) == [("T106", 14, "Auction starts at E but the dealer is N")]
    # not 4S by E, the calls read from the Auction tag's seat: the Contract and Declarer tags
    assert row(T106) == {
        "contract": "4S",
        "declarer": "N",
        "result": 10,
        "score_ns": 420,
        "faults": ["T106"],
        "status": "faulty",
        "contract_status": "from_tags",
        "play_status": "unknown",
        "result_status": "from_tags",
        "score_status": "from_tags",
    }
    bare = game(1, contract=None, declarer=None, auction_seat="E")
    assert diags(bare) == [("T106", 12, "Auction starts at E but the dealer is N")]
    assert row(bare) == {
        "contract": None,
        "declarer": None,
        "result": 10,
        "score_ns": None,
        "faults": ["T106"],
        "status": "faulty",
        "contract_status": "unknown",
        "play_status": "unknown",
        "result_status": "from_tags",
        "score_status": "unknown",
    }


def test_a_result_from_tags_beside_a_faulty_auction_is_not_ranked(tmp_path: Path) -> None:
    ev = score(tmp_path, T106, CLEAN_420, DOWN_ONE)
    # the T106 table is listed with its score but not compared: the other two are a top of 1
    assert scores(ev) == [("N1 - S1", None, None), ("N2 - S2", 420, 1), ("N3 - S3", -50, 0)]
    assert ranked(ev)["NS"] == [("1", "N2 - S2", 100), ("2", "N3 - S3", 0)]
    assert ev["notes"] == [
        "board 1: the result of N-S N1 - S1 against E-W E1 - W1 is not ranked:"
        " it stands on a faulty record (T106; score from_tags)"
    ]


# --- case 3: play lines read from another seat than the Play tag's (P403) -----------------

#: [Play "W"] over lines written from E, declarer's LHO.
P403 = game(1, result="7", score="NS -150", auction="1S Pass 2S Pass\n4S Pass Pass Pass", play=PLAY, play_seat="W")


def test_play_is_read_from_the_play_tags_seat() -> None:
    assert diags(P403) == [
        (
            "P403",
            18,
            "the play starts with W; the opening leader is E"
            " (read as led by E the cards fit the hands: that reading is not kept)",
        )
    ]
    assert row(P403) == {
        "contract": "4S",
        "declarer": "N",
        "result": 7,
        "score_ns": -150,
        "faults": ["P403"],
        "status": "faulty",
        "contract_status": "clean",
        "play_status": "from_tags",
        "result_status": "from_tags",  # the Result tag's: the play's count under either reading is not kept
        "score_status": "from_tags",
    }
    plays = tables(P403)["plays"].to_pylist()
    # PBN 2.1 §3.6: column 1 is the Play tag's seat (W), whatever fits the hands better
    assert [(p["card"], p["seat"]) for p in plays[:4]] == [("CJ", "W"), ("C8", "N"), ("C5", "E"), ("C2", "S")]
    assert len(plays) == 52


def test_a_faulty_play_is_not_ranked(tmp_path: Path) -> None:
    ev = score(tmp_path, P403, game(2, result="7"), game(3, result="8"))
    assert scores(ev) == [("N1 - S1", None, None), ("N2 - S2", -150, 0), ("N3 - S3", -100, 1)]
    assert ranked(ev)["NS"] == [("1", "N3 - S3", 100), ("2", "N2 - S2", 0)]
    assert ev["notes"] == [
        "board 1: the result of N-S N1 - S1 against E-W E1 - W1 is not ranked:"
        " it stands on a faulty record (P403; score from_tags)"
    ]


# --- case 4: a Result after a play that stops short without '*' or a claim ---------------

#: The first six tricks of that play (declarer won 2, the defenders 4), no '*', no claim.
SHORT = PLAY.split("D4 DA HJ H8")[0]


def test_result_of_a_play_that_stops_short_is_a_partial_result() -> None:
    partial = game(1, result="2", auction="1S Pass 2S Pass\n4S Pass Pass Pass", play=SHORT)
    assert diags(partial) == [
        (
            "C508",
            13,
            "Result 2 counts the tricks declarer won in the 6 tricks completed (2): the play stops"
            " there without '*' or a claim, so the board's result is not known",
        )
    ]
    assert row(partial) == {
        "contract": "4S",
        "declarer": "N",
        "result": None,
        "score_ns": None,
        "faults": [],
        "status": "clean",
        "contract_status": "clean",
        "play_status": "clean",
        "result_status": "unknown",
        "score_status": "unknown",
    }
    final = partial.replace('[Result "2"]', '[Result "7"]')  # a final result on an unfinished play
    assert diags(final) == [("C503", 13, "Result 7 but declarer took 2 tricks in the play")]
    assert row(final)["result"] is None and row(final)["score_ns"] is None
    # with '*' (no more cards known) the Result gives the outcome, as PBN 2.1 §3.6 says
    ended = game(1, result="7", auction="1S Pass 2S Pass\n4S Pass Pass Pass", play=SHORT + "*\n")
    assert diags(ended) == []
    assert row(ended)["result"] == 7 and row(ended)["score_ns"] == -150
    # and a converter's '- - - -' padding after the last card is no stop either
    padded = game(1, result="7", auction="1S Pass 2S Pass\n4S Pass Pass Pass", play=SHORT + "- - - -\n" * 7)
    assert diags(padded) == []
    assert row(padded)["result"] == 7 and row(padded)["score_status"] == "clean"


# --- case 5: a Play section without the tags it needs, and a comment that swallows them ----


def test_play_section_needs_declarer_and_contract_before_it() -> None:
    auction = "1S Pass 2S Pass\n4S Pass Pass Pass"
    assert diags(game(1, result="7", auction=auction, play=PLAY)) == []
    bare = game(1, contract=None, declarer=None, result="7", auction=auction, play=PLAY)
    assert diags(bare) == [("T129", 15, "the Play section needs the Declarer and Contract tags before it")]
    # the auction gives the contract, cleanly: the fault is the file's order, not a value
    assert row(bare)["contract"] == "4S" and row(bare)["contract_status"] == "clean"
    after = game(1, declarer=None, result="7", auction=auction, play=PLAY) + '[Declarer "N"]\n'
    assert diags(after) == [("T129", 16, "the Play section needs the Declarer tag before it (it comes after it)")]


def test_open_brace_comment_says_where_it_opened_and_what_it_swallows(tmp_path: Path) -> None:
    text = game(1, contract=None, declarer=None, result=None, auction=None)
    text += '{ a note never closed\n[Declarer "N"]\n[Contract "4S"]\n[Result "10"]\n'
    f = tmp_path / "t.pbn"
    f.write_text(text, encoding="utf-8")
    r = CliRunner().invoke(app, ["validate", str(f)])
    assert r.exit_code == 1
    assert r.stdout.splitlines()[0] == (
        f"{f}:11:1: F005 error: brace comment not closed before end of file: the 3 tags after it"
        " (Declarer, Contract and Result) are read as comment"
    )
    # what it swallowed is not known: null, never guessed
    assert {k: row(text)[k] for k in VALUES} == {"contract": None, "declarer": None, "result": None, "score_ns": None}


# --- case 6: marks and values the standard names that contradict the record ----------------

AUCTION_4S = "1S Pass 2S Pass\n4S Pass Pass Pass"


def test_revoke_mark_on_a_card_that_follows_suit() -> None:
    # ^R (PBN 2.1 §3.9) would make the Result tag the Law 64 outcome of a revoke the cards deny
    text = game(1, result="7", auction=AUCTION_4S, play=PLAY.replace("CJ C8", "CJ ^R C8", 1))
    assert diags(text) == [
        ("P409", 18, "^R marks C8 by S as a revoke, but it follows suit: the record contradicts itself")
    ]
    assert row(text) == {
        "contract": "4S",
        "declarer": "N",
        "result": 7,
        "score_ns": -150,
        "faults": ["P409"],
        "status": "faulty",
        "contract_status": "clean",
        "play_status": "from_tags",
        "result_status": "from_tags",
        "score_status": "from_tags",
    }
    doubled = game(1, result="7", auction=AUCTION_4S, play=PLAY.replace("CJ C8", "CJ ^R ^R C8", 1))
    assert [d[:2] for d in diags(doubled)] == [("T128", 18), ("P409", 18)]
    assert diags(doubled)[0][2] == "'^R' repeats an irregularity mark before the same card (one a card)"
    # a discard by a hand void in the suit led is no revoke either: S has played its three clubs
    void = game(1, result="7", auction=AUCTION_4S, play=PLAY.replace("CA DJ D8 D5", "CA ^R DJ D8 D5", 1))
    assert diags(void) == [
        ("P409", 21, "^R marks DJ by S as a revoke, but S holds no club: the record contradicts itself")
    ]


def test_lead_out_of_turn_mark_on_the_proper_leader_and_insufficient_mark_on_a_sufficient_bid() -> None:
    lead = game(1, result="7", auction=AUCTION_4S, play=PLAY.replace("CJ C8", "^L CJ C8", 1))
    assert diags(lead) == [("P410", 18, "^L marks CJ by E as a lead out of turn, but E was on lead")]
    bid = game(1, result="7", auction="1S Pass ^I 2S Pass\n4S Pass Pass Pass", play=PLAY)
    assert diags(bid) == [("A307", 15, "^I marks 2S by S as an insufficient bid, but it outranks 1S")]
    # neither mark changes a value: the seats and the calls are the same with or without it
    for text in (lead, bid):
        assert row(text)["status"] == "clean" and row(text)["score_ns"] == -150 and row(text)["score_status"] == "clean"


def test_note_numbers_and_an_empty_declarer_with_a_result() -> None:
    for n in ("0", "33"):
        text = game(1, result="7", auction=f'1S ={n}= Pass 2S Pass\n4S Pass Pass Pass\n[Note "{n}:opening"]', play=PLAY)
        assert diags(text) == [("T121", 17, f"Note value '{n}:opening' is not in PBN form: notes are numbered 1 to 32")]
    empty = game(1, declarer="", result="7", auction=AUCTION_4S, play=PLAY)
    assert diags(empty) == [
        (
            "T127",
            13,
            "Result '7' disagrees with Declarer \"\": an empty Declarer says the board has no declarer"
            " (PBN 2.1 §3.4: not applicable)",
        )
    ]


def test_import_format_line_over_255_characters(tmp_path: Path) -> None:
    f = tmp_path / "t.pbn"
    f.write_text(game(1).replace('[Event "Club"]', f'[Event "{"x" * 300}"]'), encoding="utf-8")
    assert "F026" not in CliRunner().invoke(app, ["validate", str(f)]).stdout  # the standard lets readers cope
    r = CliRunner().invoke(app, ["validate", "--strict", str(f)])
    assert r.stdout.splitlines()[0] == (
        f"{f}:1:1: F026 warning: line is 311 characters long counting a one-character line end; PBN allows 255"
    )
    f.write_text(game(1).replace('[Event "Club"]', f'[Event "{"x" * 243}"]'), encoding="utf-8")  # 254 and LF
    assert "F026" not in CliRunner().invoke(app, ["validate", "--strict", str(f)]).stdout
    # long lines inside the game, the last one ending the file: each at its own line
    text = game(1).rstrip("\n") + "\n{" + "y" * 298 + "}"
    text = text.replace('[Event "Club"]', '[Event "Club"]\n{' + "z" * 253 + "}")
    f.write_text(text, encoding="utf-8")
    lines = text.split("\n")
    r = CliRunner().invoke(app, ["validate", "--strict", str(f)])
    assert [line for line in r.stdout.splitlines() if "F026" in line] == [
        f"{f}:{lines.index(x) + 1}:1: F026 warning: line is {len(x) + 1} characters long counting a one-character "
        "line end; PBN allows 255"
        for x in lines
        if len(x) > 254
    ]
    assert len([x for x in lines if len(x) > 254]) == 2


# --- case 9: convert counts as validate does; the diagnostics table tells strict codes apart --


def test_convert_and_validate_count_the_same_warnings(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    # two unknown tags (T120: shown by validate only under --strict) and a pass spelled P
    # (T105, a warning in every mode)
    text = game(1, auction="1S P 4S P\nP P").replace('[Dealer "N"]', '[Dealer "N"]\n[MyTag "a"]\n[OtherTag "b"]')
    f = tmp_path / "t.pbn"
    f.write_text(text, encoding="utf-8")
    plain = json.loads(CliRunner().invoke(app, ["validate", "--format", "json", str(f)]).stdout)
    strict = json.loads(CliRunner().invoke(app, ["validate", "--strict", "--format", "json", str(f)]).stdout)
    assert (plain["warnings"], strict["warnings"]) == (1, 3)
    r = CliRunner().invoke(app, ["convert", str(f), "-o", str(tmp_path / "ds")])
    assert r.exit_code == 0, r.output
    files = pq.read_table(tmp_path / "ds" / "files.parquet").to_pylist()
    boards = pq.read_table(tmp_path / "ds" / "boards.parquet").to_pylist()
    rows = pq.read_table(tmp_path / "ds" / "diagnostics.parquet").to_pylist()
    assert files[0]["warnings"] == boards[0]["warnings"] == plain["warnings"] == 1
    assert [(d["code"], d["severity"], d["strict"]) for d in rows] == [
        ("T120", "warning", True),
        ("T120", "warning", True),
        ("T105", "warning", False),
    ]
    assert r.output.splitlines()[-1] == f"1 files, 1 boards, 0 errors, 1 warnings -> {tmp_path / 'ds'}"


# --- case 7: export to LIN of a game without a Dealer tag ---------------------------------


def test_lin_export_writes_the_dealer_the_auction_or_board_number_gives(tmp_path: Path) -> None:
    from handrec.formats.lin.reader import parse_lin_text

    src = tmp_path / "t.pbn"
    src.write_text(
        f'[Board "3"]\n[Deal "{DEAL}"]\n[Auction "S"]\n1S Pass 4S Pass\nPass Pass\n'
        f'\n[Deal "{DEAL}"]\n[Auction "E"]\n1S Pass 4S Pass\nPass Pass\n'
        f'\n[Board "6"]\n[Deal "{DEAL}"]\n'
        f'\n[Event "x"]\n[Deal "{DEAL}"]\n',
        encoding="utf-8",
    )
    out = tmp_path / "t.lin"
    r = CliRunner().invoke(app, ["export", str(src), "--to", "lin", "-o", str(out)])
    assert r.exit_code == 0, r.output
    lines = out.read_text().splitlines()
    # LIN's dealer digit: 1 S, 2 W, 3 N, 4 E (lin.md §4)
    assert [line.split("|")[3][:1] for line in lines] == ["1", "4", "4", "S"]
    assert "dealer (no Dealer tag, auction or board number gives it: md without its digit) (1 board)" in r.stderr
    boards = parse_lin_text(out.read_text(), "t.lin")
    # handrec's own LIN reader keeps the calls, the contract and the declarer
    assert [(len(b.auction.calls) if b.auction else 0) for b in boards[:2]] == [6, 6]
    a = tables(src.read_text().split("\n\n")[0] + "\n")["boards"].to_pylist()[0]
    back = to_arrow(boards)["boards"].to_pylist()
    assert [(b["contract"], b["declarer"], b["dealer"]) for b in back[:3]] == [
        ("4S", "S", "S"),
        ("4S", "E", "E"),
        (None, None, "E"),
    ]
    assert (a["contract"], a["declarer"]) == ("4S", "S")


# --- case 8: the PBN export adds no fault: long comments wrapped, Board "?" is unknown ------


def test_pbn_export_adds_no_fault(tmp_path: Path) -> None:
    text = f'[Event "x"]\n[Deal "{DEAL}"]\n{{{" ".join(["word"] * 80)}}}\n'
    src, out = tmp_path / "t.pbn", tmp_path / "out.pbn"
    src.write_text(text + "\n" + text, encoding="utf-8")  # no Board tag, the same deal twice
    r = CliRunner().invoke(app, ["export", str(src), "--to", "pbn", "-o", str(out)])
    assert r.exit_code == 0, r.output
    written = out.read_text(encoding="utf-8")
    assert '[Board "?"]' in written  # export format's mandatory tag: unknown
    assert max(len(line) for line in written.splitlines()) <= 253  # 255 with CR LF (PBN 2.1 §2.3)
    v = CliRunner().invoke(app, ["validate", "--strict", str(out)])
    assert v.stdout.splitlines() == ["1 files, 2 boards, 0 errors, 0 warnings"]  # no F021, no S614 "board ?"
    # the comment's words are all there, in order, read back as one comment
    (first, _) = parse_pbn_text(written, "out.pbn")
    assert first.commentary[0].split() == ["word"] * 80


# --- cases 10 and 11: minibridge's declarer, redeal and slam; Chicago's Vulnerable tags ----

#: N holds 26 HCP (AKQJ.5432.AKQ.AK), S 3: N-S declare, N is declarer (bridge-rules.md §7.5).
STRONG_N = "N:AKQJ.5432.AKQ.AK T98.T98.JT9.8765 76.76.876.QJT943 5432.AKQJ.5432.2"


def session(text: str, method: str):
    from handrec.events.event_score import score_event
    from handrec.events.games import record
    from handrec.events.methods import Method

    (ev,) = score_event([record(b) for b in parse_pbn_text(text, "t.pbn")], Method(method))
    return ev


def mini(board: int, contract: str, declarer: str, result: str, deal: str) -> str:
    return (
        f'[Event "Mini"]\n[Board "{board}"]\n[Deal "{deal}"]\n[Declarer "{declarer}"]\n'
        f'[Contract "{contract}"]\n[Result "{result}"]\n'
    )


def test_minibridge_checks_declarer_redeals_20_20_and_has_no_slam(tmp_path: Path) -> None:
    text = "\n".join(
        [
            mini(1, "4S", "N", "10", STRONG_N),  # N the stronger hand: game in spades, 420
            mini(2, "4S", "S", "10", STRONG_N),  # S declares with 3 HCP beside N's 26
            mini(3, "1NT", "N", "7", DEAL),  # 10 HCP each: the pairs hold 20 each
            mini(4, "6S", "N", "12", STRONG_N),  # no slam in standard minibridge
        ]
    )
    ev = session(text, "minibridge")
    assert [(d.board, d.ns, d.ew) for d in ev.session.deals] == [("1", 420, 0)]
    assert (ev.session.total_ns, ev.session.total_ew) == (420, 0)
    assert list(ev.notes) == [
        "board 2: declared by S, but N declares in minibridge (NS 29 HCP, N 26 and S 3:"
        " bridge-rules.md §7.5), not scored",
        "board 3: the pairs hold 20 HCP each: the same dealer deals again (bridge-rules.md §7.5), not scored",
        "board 4: 6S is not a minibridge contract, skipped",
    ]


def chicago(board: int, dealer: str, vul: str | None, contract: str, declarer: str, result: str) -> str:
    v = f'[Vulnerable "{vul}"]\n' if vul is not None else ""
    return (
        f'[Event "Chicago"]\n[Board "{board}"]\n[Dealer "{dealer}"]\n{v}[Declarer "{declarer}"]\n'
        f'[Contract "{contract}"]\n[Result "{result}"]\n'
    )


#: bridge-rules.md §6.4's round: 2H by N =, 3NT by E +1, 2S by S +1, 2C by N =.
ROUND = [("N", "2H", "N", "8"), ("E", "3NT", "E", "10"), ("S", "2S", "S", "9"), ("W", "2C", "N", "8")]


def test_chicago_follows_vulnerable_tags_of_the_club_variant_or_says_they_fit_neither() -> None:
    standard = [None, "EW", "NS", "All"]
    club = [None, "NS", "EW", "All"]  # deals 2 and 3: the non-dealer's side (bridge-rules.md §6.2)
    plain = session("\n".join(chicago(i + 1, *r[:1], None, *r[1:]) for i, r in enumerate(ROUND)), "chicago")
    assert (plain.session.total_ns, plain.session.total_ew) == (690, 630) and plain.notes == ()
    tagged = session("\n".join(chicago(i + 1, r[0], standard[i], *r[1:]) for i, r in enumerate(ROUND)), "chicago")
    assert (tagged.session.total_ns, tagged.session.total_ew) == (690, 630) and tagged.notes == ()
    ev = session("\n".join(chicago(i + 1, r[0], club[i], *r[1:]) for i, r in enumerate(ROUND)), "chicago")
    assert [d.vulnerable for d in ev.session.deals] == ["None", "NS", "EW", "Both"]
    # E-W's 3NT +1 not vulnerable: 100 + 30 + 300 = 430; N-S's 2S +1 and 2C = make game: 40 + 500
    assert (ev.session.total_ns, ev.session.total_ew) == (690, 430)
    assert ev.notes == (
        "scored with the club variant's vulnerability (deals 2 and 3: the non-dealer's side,"
        " bridge-rules.md §6.2), which the Vulnerable tags follow",
    )
    odd = ["None", "Both", "NS", "All"]
    ev = session("\n".join(chicago(i + 1, r[0], odd[i], *r[1:]) for i, r in enumerate(ROUND)), "chicago")
    assert (ev.session.total_ns, ev.session.total_ew) == (690, 630)
    assert ev.notes == (
        "the Vulnerable tags of boards 2 follow neither Chicago scheme (bridge-rules.md §6.2):"
        " scored with the standard vulnerability, not the tags'",
    )


def test_sql_views_compare_what_score_ranks(tmp_path: Path) -> None:
    from handrec.dataset.query import run

    f = tmp_path / "t.pbn"
    f.write_text("\n".join([T106, CLEAN_420, DOWN_ONE]), encoding="utf-8")
    r = CliRunner().invoke(app, ["convert", str(f), "-o", str(tmp_path / "ds")])
    assert r.exit_code == 0, r.output  # written, its one error (T106) counted
    _, rows = run(tmp_path / "ds", "select north, score_ns, mp_ns, tables from travellers order by north")
    assert rows == [("N2", 420, 1.0, 2), ("N3", -50, 0.0, 2)]  # not N1's, from the tags beside T106
    _, rows = run(tmp_path / "ds", "select north, score_status, faults from boards order by north")
    assert rows == [("N1", "from_tags", ["T106"]), ("N2", "clean", []), ("N3", "clean", [])]
