"""One identity a pair: the site's score cards, ``booklet --player`` and ``score``'s ranking of
USEBIO sessions (the pair number, usebio.md "Participants") carry the pair's number and its
players' names (PARTICIPANTS > PAIR > PLAYER), and its boards and rank.

New-user trial: on a USEBIO session the ranking's names ("Player 5 - Player 6", the
TotalScoreTable's Names column) and the travellers' numbers ("3") made two pairs each, one
card empty ("No scored board.") and one without names or rank.  Expected values are the
file's own, read with ElementTree (PAIR_NUMBER, PLACE, PLAYER_NAME, the traveller lines).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handrec.cli import app
from handrec.events.event_score import score_event
from handrec.events.games import record
from handrec.formats.dispatch import read
from handrec.site.data import collect, site_sessions
from handrec.site.personal import find_pairs

HOWELL = "cobalt_mp_pairs_howell.xml"
MITCHELL = "cobalt_mp_pairs_mitchell_adjusted_02.xml"
MULTI = "scorer2usebio_multi-section-multi-movement-pairs.xml"
CROSS = "cobalt_cross_imp_howell.xml"
ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def _xml_pairs(path: Path) -> dict[str, tuple[str, str, int]]:
    """Each PAIR of the file by PAIR_NUMBER: its players' names joined " - ", its PLACE, and
    how many traveller lines name it (an independent reading, ElementTree)."""
    root = ET.parse(path).getroot()
    lines: dict[str, int] = {}
    for line in root.iter("TRAVELLER_LINE"):
        for side in ("NS_PAIR_NUMBER", "EW_PAIR_NUMBER"):
            n = (line.findtext(side) or "").strip()
            lines[n] = lines.get(n, 0) + 1
    out = {}
    for p in root.iter("PAIR"):
        number = p.findtext("PAIR_NUMBER").strip()
        names = " - ".join(pl.findtext("PLAYER_NAME").strip() for pl in p.iter("PLAYER"))
        out[number] = (names, p.findtext("PLACE").strip(), lines.get(number, 0))
    return out


def _session(path: Path):
    sessions, _ = site_sessions(collect(read(path)), dd=False)
    (s,) = sessions
    return s


@pytest.mark.parametrize("name", [HOWELL, MITCHELL, CROSS])
def test_usebio_cards_are_one_per_pair_with_number_names_boards_and_rank(corpus_dir: Path, name: str) -> None:
    path = corpus_dir / "usebio" / name
    want = _xml_pairs(path)
    s = _session(path)
    assert sorted(s.pairs) == sorted(want)  # one card a pair, keyed by its PAIR_NUMBER
    for number, (names, place, lines) in want.items():
        p = s.pairs[number]
        assert (p.name, p.names) == (number, names)
        assert len(p.card) == lines
        assert [r["row"]["cells"][0] for r in p.ranks] == [place]  # the file's ranking's Rank column
        assert p.page == (f"pair-{number}.html" if number.isdigit() else p.page)


def test_howell_pair_3_card(corpus_dir: Path) -> None:
    s = _session(corpus_dir / "usebio" / HOWELL)
    p = s.pairs["3"]
    assert (p.name, p.names, p.page) == ("3", "Player 5 - Player 6", "pair-3.html")
    first = p.card[0]  # board 1: 3 N-S against 11, 5C by W making 11, -400, 0 MP of 10
    assert (first["label"], first["seat"], first["opponents"], first["score"], first["value"], first["pct"]) == (
        "1",
        "N-S",
        "11",
        "\u2212400",
        "0",
        "0.00",
    )
    assert s.pairs["11"].names == "Player 21 - Player 22"


def test_mitchell_ranks_each_direction_and_names_its_winners(corpus_dir: Path, tmp_path: Path) -> None:
    # WINNER_TYPE 2: the file ranks N-S and E-W apart (two TotalScoreTables); its pairs are
    # listed by number, so the winner is the row of PLACE 1, not the first row
    path = corpus_dir / "usebio" / MITCHELL
    want = _xml_pairs(path)
    winners = sorted(n for n, (_, place, _) in want.items() if place == "1")
    assert winners == ["21NS", "2EW"]
    s = _session(path)
    assert [rk["title"] for rk in s.results["rankings"]] == ["Session ranking N-S", "Session ranking E-W"]
    assert [rk["winner"]["pair"] for rk in s.results["rankings"]] == ["21NS", "2EW"]
    out = tmp_path / "site"
    r = runner.invoke(app, ["site", str(path), "-o", str(out)])
    assert r.exit_code == 0, r.stderr
    index = (out / "index.html").read_text(encoding="utf-8")
    assert f">21NS ({want['21NS'][0]})</a>" in index and f">2EW ({want['2EW'][0]})</a>" in index


def test_multi_section_pairs_keep_their_section_numbers_and_names(corpus_dir: Path) -> None:
    path = corpus_dir / "usebio" / MULTI
    want = _xml_pairs(path)
    s = _session(path)
    assert len(s.pairs) == len(want) == 66
    assert all(p.card and p.ranks for p in s.pairs.values())
    p = s.pairs["(A) 1 NS"]
    assert (p.names, len(p.card), p.ranks[0]["row"]["cells"][0]) == ("p5_1 - p5_2", 26, "31")


def test_player_and_pair_number_find_a_usebio_pair(corpus_dir: Path) -> None:
    s = _session(corpus_dir / "usebio" / HOWELL)
    by_player = find_pairs([s], player="player 5")
    by_number = find_pairs([s], pair="3")
    by_names = find_pairs([s], pair="Player 5 - Player 6")
    assert [p.name for _, p in by_player] == [p.name for _, p in by_number] == [p.name for _, p in by_names] == ["3"]


def test_booklet_player_of_a_usebio_session(corpus_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "mine.html"
    r = runner.invoke(app, ["booklet", str(corpus_dir / "usebio" / HOWELL), "--player", "Player 5", "-o", str(out)])
    assert r.exit_code == 0, r.stderr
    assert "26 boards of 3 (Player 5 - Player 6)" in r.stderr
    assert out.read_text(encoding="utf-8").count('<article class="personal-board"') == 26


def test_score_ranking_names_usebio_pairs(corpus_dir: Path) -> None:
    (ev,) = score_event([record(b) for b in read(corpus_dir / "usebio" / HOWELL)], None)
    (ranking,) = ev.rankings
    rows = {row.name: row for row in ranking.rows}
    assert (rows["3"].rank, rows["3"].names, rows["3"].boards) == ("6", "Player 5 - Player 6", 26)
    assert (rows["6"].rank, rows["6"].names) == ("1", "Player 11 - Player 12")
    text = runner.invoke(app, ["score", str(corpus_dir / "usebio" / HOWELL)]).stdout
    assert text.split("Ranking pairs\n")[1].splitlines()[1].split() == [
        "1",
        "6",
        "Player",
        "11",
        "-",
        "Player",
        "12",
        "27",
        "162.6",
        "270",
        "60.22",
    ]


def test_usebio_export_scores_back_with_names(tmp_path: Path) -> None:
    # handrec's own USEBIO of the club session (no PairNS tags: pairs numbered 1NS...) read back
    xml = tmp_path / "club.xml"
    r = runner.invoke(app, ["export", str(ROOT / "sample_data" / "club_session.pbn"), "-o", str(xml)])
    assert r.exit_code == 0, r.stderr
    (ev,) = score_event([record(b) for b in read(xml)], None)
    ns = {row.name: row.names for row in ev.rankings[0].rows}
    assert ns == {"1NS": "N1 - S1", "2NS": "N2 - S2", "3NS": "N3 - S3", "4NS": "N4 - S4"}
    s = _session(xml)
    assert s.pairs["4NS"].names == "N4 - S4" and len(s.pairs["4NS"].card) == 8


def test_score_table_ranking_without_boards_makes_no_empty_card(corpus_dir: Path) -> None:
    # the reference ScoreTable has no PairId_NS / PairId_EW: the TotalScoreTable's ten pairs
    # played no board of the file that names them, so none gets a card that says nothing
    sessions, _ = site_sessions(collect(read(corpus_dir / "pbn" / "pbn20_reference_score_tables.pbn")), dd=False)
    ranked = [s for s in sessions if s.results and s.results["rankings"]]
    assert ranked and all(p.card for s in sessions for p in s.pairs.values())


def test_club_session_cards_unchanged() -> None:
    s = _session(ROOT / "sample_data" / "club_session.pbn")
    assert sorted(s.pairs) == sorted([f"N{k} - S{k}" for k in range(1, 5)] + [f"E{k} - W{k}" for k in range(1, 5)])
    assert all(len(p.card) == 8 and len(p.ranks) == 1 and p.names is None for p in s.pairs.values())


def test_score_csv_rankings_carry_the_players_names(corpus_dir: Path) -> None:
    """``score --format csv --table rankings``: a pair ranked by its number has its players in the
    ``names`` column (the file's PARTICIPANTS), as the text and JSON rankings show them."""
    import csv
    import io

    path = corpus_dir / "usebio" / HOWELL
    want = _xml_pairs(path)
    r = runner.invoke(app, ["score", str(path), "--format", "csv", "--table", "rankings"])
    assert r.exit_code == 0
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert {row["name"]: row["names"] for row in rows} == {n: names for n, (names, _, _) in want.items()}
    assert next(row for row in rows if row["name"] == "3")["names"] == "Player 5 - Player 6"


def test_the_files_own_ranking_is_shown_in_rank_order(corpus_dir: Path) -> None:
    """A USEBIO file lists its PAIRs by number (place 8, 3, 6, ...): the site's and the booklet's
    "as the file gives it" ranking shows them by PLACE, as a ranking reads."""
    path = corpus_dir / "usebio" / HOWELL
    s = _session(path)
    (rk,) = [r for r in s.results["rankings"] if r["source"] == "TotalScoreTable"]
    i = rk["columns"].index("Rank")
    places = [int(row["cells"][i].rstrip("=")) for row in rk["rows"]]
    assert places == sorted(places)
    want = sorted(int(place.rstrip("=")) for _, place, _ in _xml_pairs(path).values())
    assert places == want
