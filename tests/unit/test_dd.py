"""Double-dummy tables and par (handrec.dd.solver).

Par tests use small tables reasoned out by hand (each test says why); the
corpus tests compare the computed par with what BridgeComposer, Big Deal and
deal-convert wrote into real files.  Solving with endplay is faked except
in one test that needs endplay installed (skipped otherwise).
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest

from handrec.dd import solver as dd
from handrec.dd.solver import (
    BATCH,
    DDError,
    DDTable,
    Par,
    ParContract,
    board_dd,
    boards_dd,
    par,
    parse_optimum_result_table,
    parse_optimum_score,
    parse_par_contracts,
)
from handrec.model import ALL_CARDS, Board, Deal, Hand, Origin, Seat, Side, Strain, Tag, Vulnerability

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
NT, SP, HE, DI, CL = Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS

# Board 1 of bridgecomposer_club_handrecord_dd_crlf.pbn: its DoubleDummyTricks and OptimumResultTable.
BC1_HEX = "7c5c67c5c61181711817"
BC1_ROWS = """N NT  7 N  S 12 N  H  5 N  D 12 N  C  6 S NT  7 S  S 12 S  H  5 S  D 12 S  C  6
E NT  1 E  S  1 E  H  8 E  D  1 E  C  7 W NT  1 W  S  1 W  H  8 W  D  1 W  C  7"""


def table(ns: int | dict[Strain, int], ew: int | dict[Strain, int], **seat: dict[Strain, int]) -> DDTable:
    """A table where both seats of a side take the same tricks, unless a seat (n=, e=...) overrides."""

    def full(v: int | dict[Strain, int]) -> dict[Strain, int]:
        return {st: v for st in Strain} if isinstance(v, int) else {st: v.get(st, 6) for st in Strain}

    sides = {N: full(ns), S: full(ns), E: full(ew), W: full(ew)}
    values = {}
    for s in Seat:
        row = dict(sides[s])
        row.update(seat.get(str(s).lower(), {}))
        for st in Strain:
            values[s, st] = row[st]
    return DDTable.from_mapping(values)


def contracts(p: Par) -> list[str]:
    return [str(c) for c in p.contracts]


# ---------------------------------------------------------------------------
# Reading tables


def test_double_dummy_tricks_real_value() -> None:
    t = DDTable.parse_hex(BC1_HEX)
    # Groups of five by declarer N, S, E, W; strains NT, S, H, D, C inside a group.
    assert t[N, NT] == 7 and t[N, SP] == 12 and t[N, HE] == 5 and t[N, DI] == 12 and t[N, CL] == 6
    assert t[S, SP] == 12
    assert t[E, NT] == 1 and t[E, HE] == 8 and t[W, CL] == 7
    assert t.to_hex() == BC1_HEX
    assert DDTable.parse_hex(BC1_HEX.upper()) == t
    assert t.rows()[0] == (N, [7, 12, 5, 12, 6])
    assert [s for s, _ in t.rows()] == [N, S, E, W]


@pytest.mark.parametrize(
    "bad", ["", "7c5c67c5c6118171181", "7c5c67c5c611817118177", "7c5c67c5c6118171181e", "7c5c67c5c6 181711817"]
)
def test_double_dummy_tricks_rejects(bad: str) -> None:
    with pytest.raises(DDError):
        DDTable.parse_hex(bad)


def test_ability_and_optimum_result_table_agree_with_hex() -> None:
    t = DDTable.parse_hex(BC1_HEX)
    assert DDTable.parse_ability("N:7C5C6 E:11817 S:7C5C6 W:11817") == t
    assert DDTable.parse_ability("W:11817 S:7c5c6 E:11817 N:7c5c6") == t
    header = "Declarer;Denomination\\2R;Result\\2R"
    assert parse_optimum_result_table(header, BC1_ROWS.split()) == t
    # Rows in another order, columns in another order.
    rows = [BC1_ROWS.split()[i : i + 3] for i in range(0, 60, 3)]
    shuffled = [x for r in reversed(rows) for x in (r[2], r[0], r[1])]
    assert parse_optimum_result_table("Result;Declarer;Denomination", shuffled) == t
    with pytest.raises(DDError):
        parse_optimum_result_table(header, BC1_ROWS.split()[:-3])
    with pytest.raises(DDError):
        parse_optimum_result_table("Declarer;Result", ["N", "7"])
    with pytest.raises(DDError):
        DDTable.parse_ability("N:7C5C6 E:11817 S:7C5C6")


def test_optimum_score_and_par_contract_parsing() -> None:
    assert parse_optimum_score("NS 980") == 980
    assert parse_optimum_score("EW 980") == -980
    assert parse_optimum_score("NS -100") == -100
    assert parse_optimum_score("NS 400 EW -400") == 400
    assert parse_optimum_score("EW 430 NS -430") == -430
    assert parse_optimum_score("0") == 0
    for bad in ("", "NS", "NS 400 EW 400", "north 400"):
        with pytest.raises(DDError):
            parse_optimum_score(bad)
    cs = parse_par_contracts("NS 2C+1; NS 2D+1; NS 2H=")
    assert [(c.level, c.strain, c.result) for c in cs] == [(2, CL, 1), (2, DI, 1), (2, HE, 0)]
    assert parse_par_contracts("NS Pass") == ()
    sac = ParContract.parse("EW 7DX-4")
    assert sac.doubled and sac.result == -4 and sac.declarers == (E, W) and str(sac) == "EW 7DX-4"
    assert str(ParContract.parse("W 3N+1")) == "W 3N+1"
    for bad in ("NS 8S=", "NS 3S", "XX 3S=", "NS 7S+1", "NS 1S-8"):
        with pytest.raises(DDError):
            ParContract.parse(bad)


# ---------------------------------------------------------------------------
# Par, hand-checked tables


def test_par_passed_out() -> None:
    # Everyone takes exactly six tricks in every strain: every contract goes down doubled,
    # so nobody bids and the deal is passed out.
    p = par(table(6, 6), Vulnerability.BOTH, N)
    assert p == Par(0, ()) and p.passed_out and p.label == "0"


def test_par_plain_game() -> None:
    # NS make 3NT exactly (400 not vulnerable) and nothing scores more (2S= 110, 1NT+2 150);
    # EW take 4 tricks anywhere, so any sacrifice over 3NT costs at least 1400.
    t = table({NT: 9, SP: 8, HE: 7}, 4)
    p = par(t, Vulnerability.NONE, N)
    assert p.score_ns == 400 and p.label == "NS +400" and contracts(p) == ["NS 3N="]


def test_par_sacrifice() -> None:
    # NS (vulnerable) make 4S = 620.  EW (not vulnerable) take 8 tricks in hearts: 5HX
    # goes 3 down = 500, cheaper than 620 (4NT, 5C, 5D cost 1100+).  Over 5H, NS's 5S
    # fails (-200), so NS take the 500.
    t = table({SP: 10}, {HE: 8, NT: 5, SP: 3, DI: 5, CL: 5})
    p = par(t, Vulnerability.NS, N)
    assert p.score_ns == 500 and p.label == "NS +500"
    assert contracts(p) == ["EW 5HX-3"]
    (c,) = p.contracts
    assert c.doubled and c.declarers == (E, W) and c.result == -3


def test_par_slam_one_declarer() -> None:
    # EW vulnerable: East takes 12 tricks in hearts, West only 11, so 6H is East's (1430);
    # NS take 4 tricks in anything: a seven-level sacrifice costs 2600+.
    t = table(4, {HE: 11, NT: 7, SP: 7, DI: 7, CL: 7}, e={HE: 12})
    p = par(t, Vulnerability.BOTH, W)
    assert p.score_ns == -1430 and p.label == "EW +1430"
    assert contracts(p) == ["E 6H="]


def test_par_depends_on_who_bids_first() -> None:
    # Both sides make 1NT and nothing else: the dealer's side bids it first (+90); the
    # other side's 2NT would go one down doubled (-100), worse than -90.
    t = table({NT: 7}, {NT: 7})
    assert par(t, Vulnerability.NONE, N).score_ns == 90
    assert contracts(par(t, Vulnerability.NONE, N)) == ["NS 1N="]
    assert par(t, Vulnerability.NONE, E).score_ns == -90
    assert contracts(par(t, Vulnerability.NONE, W)) == ["EW 1N="]


def test_par_lowest_level_with_overtricks() -> None:
    # NS take 11 tricks in spades: 4S+1 and 5S= both score 450; the par contract is the
    # lower one (EW take 5 tricks: no sacrifice pays).
    p = par(table({SP: 11}, 5), Vulnerability.NONE, S)
    assert p.score_ns == 450 and contracts(p) == ["NS 4S+1"]


def test_par_contract_above_a_sacrifice() -> None:
    # Board 18 of the BridgeComposer club file (NS vulnerable): NS make 10 tricks in
    # diamonds (3D+1 and 4D= both 130), EW 8 in hearts.  Over 3D, EW would sacrifice in
    # 3HX-1 (-100 beats -130), so the par contract is 4D= (BridgeComposer: "NS 4D=").
    t = DDTable.parse_hex("884a4884a45583855838")
    p = par(t, Vulnerability.NS, E)
    assert p.score_ns == 130 and contracts(p) == ["NS 4D="]


def test_par_two_strains() -> None:
    # Board 2 of the BridgeComposer club file: EW make 12 tricks in hearts and in spades.
    p = par(DDTable.parse_hex("00082000827cc5a7cc5a"), Vulnerability.NS, E)
    assert p.label == "EW +980" and sorted(contracts(p)) == ["EW 6H=", "EW 6S="]


# ---------------------------------------------------------------------------
# Corpus: par as other programs wrote it


def _boards(corpus_dir: Path, name: str) -> list[Board]:
    from handrec.formats.dispatch import read

    return list(read(corpus_dir / "pbn" / name))


@pytest.mark.parametrize(
    "name",
    [
        "bridgecomposer_club_handrecord_dd_crlf.pbn",
        "bridgecomposer_czech_club_latin1_dd.pbn",
        "camrose2024_handrecords_bridgecomposer_dd.pbn",
    ],
)
def test_par_matches_bridgecomposer(corpus_dir: Path, name: str) -> None:
    checked = 0
    for b in _boards(corpus_dir, name):
        hex_ = b.tag("DoubleDummyTricks")
        score = b.tag("OptimumScore")
        if not hex_ or not score:
            continue
        p = par(DDTable.parse_hex(hex_), b.vulnerable, b.dealer)
        assert p.score_ns == parse_optimum_score(score), (b.number, score)
        if b.tag("ParContract"):
            assert sorted(contracts(p)) == sorted(str(c) for c in parse_par_contracts(b.tag("ParContract"))), b.number
        checked += 1
    assert checked >= 15


@pytest.mark.parametrize("name", ["bigdeal_v12_ability_minimax_crlf.pbn", "dealconvert_jfr_dd_fields_crlf.pbn"])
def test_par_score_matches_minimax(corpus_dir: Path, name: str) -> None:
    checked = 0
    for b in _boards(corpus_dir, name):
        ability, minimax = b.tag("Ability"), b.tag("Minimax")
        if not ability or not minimax:
            continue
        m = re.fullmatch(r"[1-7][CDHSN]D?[NESW](-?\d+)", minimax)
        assert m is not None, minimax
        p = par(DDTable.parse_ability(ability), b.vulnerable, b.dealer)
        assert p.score_ns == int(m.group(1)), (b.number, minimax)
        checked += 1
    assert checked >= 16


def test_board_dd_from_corpus(corpus_dir: Path) -> None:
    boards = _boards(corpus_dir, "bridgecomposer_club_handrecord_dd_crlf.pbn")
    info = board_dd(boards[0])
    assert info is not None and info.source == "tags"
    assert info.table == DDTable.parse_hex(BC1_HEX)
    assert info.par is not None and info.par.label == "NS +980" and contracts(info.par) == ["NS 6S="]
    with_tables = [board_dd(b) for b in boards]
    assert sum(1 for i in with_tables if i is not None and i.table is not None) == 36


# ---------------------------------------------------------------------------
# Boards


def _board(number: int, tags: dict[str, str], deal: Deal | None = None, vul=Vulnerability.NONE) -> Board:
    return Board(
        origin=Origin("t.pbn"),
        tags=tuple(Tag(k, v) for k, v in tags.items()),
        number=number,
        dealer=N,
        vulnerable=vul,
        deal=deal,
    )


def test_board_dd_sources() -> None:
    assert board_dd(_board(1, {})) is None
    computed = board_dd(_board(1, {"DoubleDummyTricks": BC1_HEX}))
    assert computed is not None and computed.source == "tags+computed" and computed.par.label == "NS +980"
    given = board_dd(_board(1, {"DoubleDummyTricks": BC1_HEX, "OptimumScore": "NS 920", "ParContract": "NS 6D="}))
    assert given is not None and given.par.score_ns == 920 and contracts(given.par) == ["NS 6D="]
    # A file's par without a table is still shown; an unreadable ParContract is kept as text.
    only_par = board_dd(_board(1, {"OptimumScore": "EW 100", "ParContract": "EW weird"}))
    assert only_par is not None and only_par.table is None and only_par.par.score_ns == -100
    assert only_par.par_text == "EW weird"
    # Bad values are ignored (the validator reports them).
    assert board_dd(_board(1, {"DoubleDummyTricks": "zz"})) is None
    ability = board_dd(_board(1, {"Ability": "N:7C5C6 E:11817 S:7C5C6 W:11817"}))
    assert ability is not None and ability.table == DDTable.parse_hex(BC1_HEX)


# ---------------------------------------------------------------------------
# Solving (endplay faked, then real)


def random_deal(rng: random.Random) -> Deal:
    cards = list(ALL_CARDS)
    rng.shuffle(cards)
    return Deal(tuple(Hand(tuple(cards[13 * i : 13 * i + 13])) for i in range(4)))  # type: ignore[arg-type]


def _fake_hex(key: str, i: int) -> str:
    n = (len(key) + i) % 14
    return "".join(f"{v:x}" for v in [n] * 10 + [13 - n] * 10)  # declarers N S, then E W


@pytest.fixture
def fake_endplay(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """DDS replaced by a fake that records batch sizes and writes dump.txt like DDS (threads mode:
    the calls stay in this process)."""
    from handrec.dd import engine

    batches: list[int] = []

    def solve_tables(keys: list[str], *, in_place: bool = False) -> list[str]:
        if len(keys) > BATCH:
            raise RuntimeError("too many deals")
        batches.append(len(keys))
        Path("dump.txt").write_text("DDS was here")
        return [_fake_hex(k, i) for i, k in enumerate(keys)]

    monkeypatch.setattr(engine, "solve_tables", solve_tables)
    monkeypatch.setattr(engine, "set_threads", lambda n: None)
    monkeypatch.setattr(dd.current(), "mode", "threads")
    dd.clear_cache()
    yield batches
    dd.clear_cache()


def test_solve_batches_cache_and_temp_dir(fake_endplay: list[int], tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    rng = random.Random(7)
    deals = [random_deal(rng) for _ in range(85)]
    tables = dd.solve_tables(deals + deals[:3])  # repeats are solved once
    assert fake_endplay == [40, 40, 5]
    assert len(tables) == 88 and tables[85] == tables[0]
    assert os.getcwd() == str(tmp_path) and not (tmp_path / "dump.txt").exists()
    dd.solve_tables(deals[:10])  # all cached
    assert fake_endplay == [40, 40, 5]
    with pytest.raises(DDError):
        dd.solve_tables([Deal.parse("N:AKQ... - - -")])


def test_boards_dd_solves_only_what_tags_lack(fake_endplay: list[int]) -> None:
    rng = random.Random(3)
    boards = [
        _board(1, {"DoubleDummyTricks": BC1_HEX}, random_deal(rng)),
        _board(2, {}, random_deal(rng)),
        _board(3, {"OptimumScore": "NS 50"}, random_deal(rng)),
        _board(4, {}),  # no deal: nothing to solve
    ]
    infos, note = boards_dd(boards, solve=False)
    assert note is None and infos[1] is None and fake_endplay == []
    infos, note = boards_dd(boards, solve=True)
    assert note is None and fake_endplay == [2]
    assert infos[0].source == "tags+computed"
    assert infos[1].source == "solver" and infos[1].table is not None and infos[1].par is not None
    assert infos[2].source == "tags+solver" and infos[2].par.score_ns == 50
    assert infos[3] is None


def test_boards_dd_without_endplay(monkeypatch: pytest.MonkeyPatch, caplog) -> None:
    from handrec.dd import engine

    def missing() -> None:
        raise ImportError("No module named 'endplay'")

    monkeypatch.setattr(engine, "_dds", missing)
    monkeypatch.setattr(engine, "available", lambda: False)
    monkeypatch.setattr(dd.current(), "mode", "threads")
    dd.clear_cache()
    boards = [_board(1, {}, random_deal(random.Random(1))), _board(2, {"DoubleDummyTricks": BC1_HEX})]
    infos, note = boards_dd(boards, solve=True)
    assert note == dd.UNAVAILABLE_REASON and "handrec[dd]" in note
    assert infos[0] is None and infos[1] is not None
    assert not dd.solver_available()
    assert caplog.text.count("handrec[dd]") == 1


def test_solve_with_endplay(corpus_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The real solver on 3 deals (about 1-2 s) against the file's DoubleDummyTricks."""
    pytest.importorskip("endplay")
    monkeypatch.chdir(tmp_path)
    dd.clear_cache()
    boards = _boards(corpus_dir, "bridgecomposer_club_handrecord_dd_crlf.pbn")[:3]
    tables = dd.solve_tables([b.deal for b in boards])
    assert [t.to_hex() for t in tables] == [b.tag("DoubleDummyTricks").lower() for b in boards]
    assert list(tmp_path.iterdir()) == []
    dd.clear_cache()


# ---------------------------------------------------------------------------
# Twenty deals with their double-dummy tables and par written out
#
# The 20 boards of valet_euro2006_handrecord_minimal_both.pbn (European Championships
# 2006; the file gives only the deals).  Tables solved once with endplay's DDS, par
# computed by handrec.dd.solver.par; reviewed by hand for boards 1, 2, 8 and 15:
# 1: EW make 10 tricks in clubs and 9 in hearts, NS 9 in spades; over EW's 4C (+130) NS
#    sacrifice in 4SX-1 (-100 non-vulnerable): EW +100.
# 2: East's AKQ9.K..AQJT8732 takes 12 tricks in spades and clubs; 6S= non-vulnerable is 980,
#    and NS's 7DX would go 5 down vulnerable (1400): EW +980.
# 8: NS take all 13 tricks in clubs (the hex's "d"): 7C= non-vulnerable, +1440.
# 15: only South takes 11 tricks in no trump (North 10): "S 3N+2", vulnerable 660.

VALET = [
    (1, "N", "None", "N:QT98652.Q864.93. 3.732.T74.J98654 KJ4.J5.KQ652.KQ7 A7.AKT9.AJ8.AT32", "49463794636497a6497a", "EW +100", "NS 4SX-1"),
    (2, "E", "NS", "N:863.QT6.A96432.K AKQ9.K..AQJT8732 J72.AJ52.JT875.9 T54.98743.KQ.654", "11680105809c75c9c75c", "EW +980", "EW 6S="),
    (3, "S", "EW", "N:AT532.62.J76.AT8 KQ764.QJ84.Q9.Q5 98.AK93.AKT84.97 J.T75.532.KJ6432", "989a7989a74442544425", "NS +400", "NS 3N="),
    (4, "W", "Both", "N:A7542.Q.QT42.T76 T63.AKJT63.9.A53 KQJ98.8754.K65.Q .92.AJ873.KJ9842", "080500805084d7d84d7d", "EW +1400", "NS 7SX-5"),
    (5, "N", "NS", "N:7632.KT952.AQT.8 T8.73.KJ87654.95 Q95.AQJ84.92.A62 AKJ4.6.3.KQJT743", "75943759536638966389", "NS +100", "EW 4CX-1"),
    (6, "E", "EW", "N:AKT.A52.KJ92.QT2 J9843.3.Q64.A854 2.KQJT764.A75.J3 Q765.98.T83.K976", "b7bb7b7bb70600506005", "NS +460", "NS 3N+2"),
    (7, "S", "Both", "N:AK95.83.J9654.73 JT862.AT.A2.AQ54 3.K965.KQ83.JT82 Q74.QJ742.T7.K96", "64595645956984869848", "EW +140", "EW 3S="),
    (8, "W", "None", "N:K872.AJ6.A.KQ532 J93.T872.QT94.JT AT.93.KJ532.A876 Q654.KQ54.876.94", "bbabdbbabd2232022320", "NS +1440", "NS 7C="),
    (9, "N", "EW", "N:K5.J7.QT7.QT9853 AQJ73.A.A864.AK6 82.K8432.K2.J742 T964.QT965.J953.", "31427314278c9b68c9b6", "EW +1400", "NS 7CX-6"),
    (10, "E", "Both", "N:KJT84.A62.Q4.KQT Q732.KQ853.97.A9 A9.T94.AJ8.J7632 65.J7.KT6532.854", "88769887693466234662", "NS +120", "NS 1N+1"),
    (11, "S", "None", "N:A872.A3.63.Q8762 96543.8.KT95.K54 KQ.KQJ74.AQ874.3 JT.T9652.J2.AJT9", "97aa897aa84533545334", "NS +420", "NS 4H="),
    (12, "W", "NS", "N:KJ7.Q954.KJT4.Q7 A984.KT8.Q8.J862 T6532.J6.952.K43 Q.A732.A763.AT95", "46443464439798a9798a", "EW +400", "EW 3N="),
    (13, "N", "Both", "N:KQ94.864.AJ2.QT7 A8752.9.Q753.A93 T3.QJT.86.KJ8642 J6.AK7532.KT94.5", "643276432779ab679ab6", "EW +620", "EW 4H="),
    (14, "E", "None", "N:5432.963.74.9872 87.KJT2.Q9.AQJ65 AT96.AQ.KJT2.K43 KQJ.8754.A8653.T", "57455574558698875988", "EW +140", "EW 3H="),
    (15, "S", "NS", "N:742.J965.AKQT2.T T63.T832.J954.K6 KQJ5.AQ7.8.AQ932 A98.K4.763.J8754", "abaa9bbaa92233322333", "NS +660", "S 3N+2"),
    (16, "W", "EW", "N:Q643.J42.J53.J32 A87.T75.T974.A86 KJ2.AKQ93.Q8.974 T95.86.AK62.KQT5", "66745667457769876698", "EW +110", "EW 3D="),
    (17, "N", "None", "N:Q8.QJT.AK52.KT32 T9.A6543.J64.AQ7 J7643.92.Q873.84 AK52.K87.T9.J965", "56364563648696986969", "EW +140", "EW 2H+1"),
    (18, "E", "NS", "N:J73.AK43.T543.94 A84.J985.6.KQ863 KQ6.Q62.97.AT752 T952.T7.AKQJ82.J", "56747567477768677686", "EW +90", "EW 1N=; EW 2D="),
    (19, "S", "EW", "N:95.K85.QJ962.KQ4 J7632.QT73.A8.92 AK8.96.KT543.A63 QT4.AJ42.7.JT875", "966b8966b83772537725", "NS +400", "NS 3N=; NS 5D="),
    (20, "W", "Both", "N:9.KJ965.AT64.432 KQ4.743.Q75.AQT8 AT7.2.KJ983.K976 J86532.AQT8.2.J5", "647a8647a85853458534", "NS +130", "NS 3D+1"),
]  # fmt: skip
VULS = {"None": Vulnerability.NONE, "NS": Vulnerability.NS, "EW": Vulnerability.EW, "Both": Vulnerability.BOTH}


@pytest.mark.parametrize(("number", "dealer", "vul", "deal", "hex_", "label", "contracts_"), VALET)
def test_par_of_twenty_written_deals(
    number: int, dealer: str, vul: str, deal: str, hex_: str, label: str, contracts_: str
) -> None:
    p = par(DDTable.parse_hex(hex_), VULS[vul], Seat.parse(dealer))
    assert (p.label, "; ".join(contracts(p))) == (label, contracts_)
    assert_par_is_reachable(DDTable.parse_hex(hex_), VULS[vul], p)


def test_twenty_written_tables_against_the_solver(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The real solver on the 20 deals (a few seconds) gives the tables written above."""
    pytest.importorskip("endplay")
    monkeypatch.chdir(tmp_path)
    dd.clear_cache()
    try:
        tables = dd.solve_tables([Deal.parse(row[3]) for row in VALET])
        assert [t.to_hex() for t in tables] == [row[4] for row in VALET]
    finally:
        dd.clear_cache()


# ---------------------------------------------------------------------------
# The par property: a par contract is always makeable, or fails by exactly the tricks its score says


def assert_par_is_reachable(table: DDTable, vulnerability: Vulnerability, p: Par) -> None:
    """Every par contract: its declarers take ``level + 6 + result`` tricks double dummy (the others
    of its side no more), it makes (``result >= 0``) or is doubled and fails (``result < 0``),
    and its score (Law 77) is the par score."""
    from handrec.model import Contract, Doubling
    from handrec.scoring.duplicate import duplicate_score

    if p.score_ns == 0:
        assert p.contracts == ()
        return
    assert p.contracts
    for c in p.contracts:
        side = c.side
        tricks = c.level + 6 + c.result
        assert all(table[s, c.strain] == tricks for s in c.declarers), (str(c), table.to_hex())
        assert table.side_tricks(side, c.strain) == tricks
        assert c.doubled == (c.result < 0), str(c)
        doubling = Doubling.DOUBLED if c.doubled else Doubling.UNDOUBLED
        points = duplicate_score(Contract(c.level, c.strain, doubling), vulnerability.is_vulnerable(side), tricks)
        assert (points if side is Side.NS else -points) == p.score_ns, (str(c), p.label)


def _random_table(rng: random.Random) -> DDTable:
    """A table with the shape of real ones: partners close, the two sides' tricks summing to about 13."""
    values = {}
    for strain in Strain:
        ns = rng.randint(0, 13)
        for seat in Seat:
            base = ns if seat.side is Side.NS else 13 - ns
            values[seat, strain] = max(0, min(13, base + rng.choice((-1, 0, 0, 1))))
    return DDTable.from_mapping(values)


def test_par_property_on_corpus_and_random_tables(corpus_dir: Path) -> None:
    checked = 0
    for name in (
        "bridgecomposer_club_handrecord_dd_crlf.pbn",
        "bridgecomposer_czech_club_latin1_dd.pbn",
        "bigdeal_v12_ability_minimax_crlf.pbn",
        "dealconvert_jfr_dd_fields_crlf.pbn",
    ):
        for b in _boards(corpus_dir, name):
            info = board_dd(b)
            if info is None or info.table is None or b.vulnerable is None:
                continue
            assert_par_is_reachable(info.table, b.vulnerable, par(info.table, b.vulnerable, b.dealer))
            checked += 1
    assert checked >= 400
    rng = random.Random(2026)
    for _ in range(2000):
        table = _random_table(rng)
        vul = rng.choice(list(Vulnerability))
        assert_par_is_reachable(table, vul, par(table, vul, rng.choice(list(Seat))))
