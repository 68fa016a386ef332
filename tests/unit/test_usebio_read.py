"""The USEBIO reader on small documents: nestings, lead orders, adjusted scores, the
consumers' rules (usebio.md), each fault with its exact diagnostic at the element."""

from __future__ import annotations

import io
from fractions import Fraction

import pytest

from handrec.events.checks import check_event
from handrec.events.event_score import score_event
from handrec.events.games import record
from handrec.events.travellers import travellers
from handrec.formats.dispatch import read
from handrec.formats.usebio.elements import format_decimal, parse_contract, parse_lead, parse_score
from handrec.formats.usebio.reader import parse_usebio_bytes
from handrec.inputs.entries import sniff
from handrec.rules.validator import analyse
from handrec.scoring.traveller import ArtificialScore

PAIRS = """<PARTICIPANTS>
<PAIR><PAIR_NUMBER>1</PAIR_NUMBER><TOTAL_SCORE>{t1}</TOTAL_SCORE><PLACE>{p1}</PLACE>
<PLAYER><PLAYER_NAME>Ann</PLAYER_NAME><NATIONAL_ID_NUMBER>0123</NATIONAL_ID_NUMBER></PLAYER>
<PLAYER><PLAYER_NAME>Bob</PLAYER_NAME><NATIONAL_ID_NUMBER>0124</NATIONAL_ID_NUMBER></PLAYER></PAIR>
<PAIR><PAIR_NUMBER>2</PAIR_NUMBER><TOTAL_SCORE>{t2}</TOTAL_SCORE><PLACE>{p2}</PLACE>
<PLAYER><PLAYER_NAME>Cat</PLAYER_NAME></PLAYER><PLAYER><PLAYER_NAME>Dan</PLAYER_NAME></PLAYER></PAIR>
<PAIR><PAIR_NUMBER>3</PAIR_NUMBER><TOTAL_SCORE>{t3}</TOTAL_SCORE><PLACE>{p3}</PLACE>
<PLAYER><PLAYER_NAME>Eve</PLAYER_NAME></PLAYER><PLAYER><PLAYER_NAME>Fay</PLAYER_NAME></PLAYER></PAIR>
<PAIR><PAIR_NUMBER>4</PAIR_NUMBER><TOTAL_SCORE>{t4}</TOTAL_SCORE><PLACE>{p4}</PLACE>
<PLAYER><PLAYER_NAME>Gus</PLAYER_NAME></PLAYER><PLAYER><PLAYER_NAME>Hal</PLAYER_NAME></PLAYER></PAIR>
</PARTICIPANTS>"""
# board 1 (dealer N, none vulnerable): 4S by S making 10 (420) and 9 (-50); 1 and 2 sit N-S, 3 and 4 E-W
BOARD = """<BOARD><BOARD_NUMBER>1</BOARD_NUMBER>
<TRAVELLER_LINE><NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><EW_PAIR_NUMBER>3</EW_PAIR_NUMBER><CONTRACT>4S</CONTRACT>
<PLAYED_BY>S</PLAYED_BY><LEAD>{lead1}</LEAD><TRICKS>10</TRICKS><SCORE>420</SCORE>
<NS_MATCH_POINTS>2</NS_MATCH_POINTS><EW_MATCH_POINTS>0</EW_MATCH_POINTS></TRAVELLER_LINE>
<TRAVELLER_LINE><NS_PAIR_NUMBER>2</NS_PAIR_NUMBER><EW_PAIR_NUMBER>4</EW_PAIR_NUMBER><CONTRACT>4s</CONTRACT>
<PLAYED_BY>S</PLAYED_BY><LEAD>{lead2}</LEAD><TRICKS>9</TRICKS><SCORE>{score2}</SCORE>
<NS_MATCH_POINTS>0</NS_MATCH_POINTS><EW_MATCH_POINTS>2</EW_MATCH_POINTS></TRAVELLER_LINE>
</BOARD>"""
HANDSET = """<HANDSET><BOARD><BOARD_NUMBER>1</BOARD_NUMBER>
<HAND><DIRECTION>North</DIRECTION><CLUBS>5432</CLUBS><DIAMONDS>765</DIAMONDS><HEARTS>T98</HEARTS><SPADES>AKQ</SPADES></HAND>
<HAND><DIRECTION>East</DIRECTION><CLUBS>AKQJ</CLUBS><DIAMONDS>432</DIAMONDS><HEARTS>765</HEARTS><SPADES>T98</SPADES></HAND>
<HAND><DIRECTION>South</DIRECTION><CLUBS>T98</CLUBS><DIAMONDS>AKQJ</DIAMONDS><HEARTS>432</HEARTS><SPADES>765</SPADES></HAND>
<HAND><DIRECTION>West</DIRECTION><CLUBS>76</CLUBS><DIAMONDS>T98</DIAMONDS><HEARTS>AKQJ</HEARTS><SPADES>J432</SPADES></HAND>
</BOARD></HANDSET>"""


def doc(
    nesting: str = "event",
    *,
    lead1="KH",
    lead2="HQ",
    score2="-50",
    totals=("2", "0", "0", "2"),
    places=("1", "3", "3", "1"),
    handset: bool = True,
    event_type: str = "MP_PAIRS",
    extra: str = "",
) -> bytes:
    parts = PAIRS.format(
        t1=totals[0], t2=totals[1], t3=totals[2], t4=totals[3], p1=places[0], p2=places[1], p3=places[2], p4=places[3]
    )
    body = parts + BOARD.format(lead1=lead1, lead2=lead2, score2=score2)
    if nesting == "section":
        body = f'<SECTION SECTION_ID="A">{body}</SECTION>'
    elif nesting == "session":
        body = f'<SESSION SESSION_ID="1"><SECTION SECTION_ID="A">{body}</SECTION></SESSION>'
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<USEBIO Version="1.2"><CLUB><CLUB_NAME>Club</CLUB_NAME></CLUB>'
        f'<EVENT EVENT_TYPE="{event_type}"><EVENT_DESCRIPTION>Test pairs</EVENT_DESCRIPTION>'
        f"<DATE>5/1/2026</DATE><WINNER_TYPE>1</WINNER_TYPE>{extra}{body}</EVENT>"
        f"{HANDSET if handset else ''}</USEBIO>"
    ).encode()


def test_values() -> None:
    assert [str(parse_contract(t)) for t in ("3N", "5cx", "4SXX", "PASS")] == ["3NT", "5CX", "4SXX", "Pass"]
    assert [str(parse_lead(t)[0]) for t in ("KD", "D10", "10d", "h4")] == ["DK", "DT", "DT", "H4"]
    assert parse_score("A6040") == (60, 40) and parse_score("+620") == 620
    with pytest.raises(ValueError):
        parse_lead("XX")
    assert format_decimal(Fraction(-1, 300)) == "0.00" and format_decimal(Fraction(-11, 3)) == "-3.67"


def test_sniffed_by_content() -> None:
    assert sniff(doc()) == "usebio"
    assert sniff(b'<USEBIO Version="1.2"><CLUB/></USEBIO>') == "usebio"  # no prolog (scorer-to-usebio)
    assert sniff(b"<?xml version='1.0'?><html/>") is None


@pytest.mark.parametrize("nesting", ["event", "section", "session"])
def test_three_nestings_give_the_same_games(nesting: str) -> None:
    boards, diags = parse_usebio_bytes(doc(nesting), "t.xml")
    assert diags == []
    assert [(b.number, b.tag("PairNS"), b.tag("PairEW"), b.tag("Contract"), b.result) for b in boards] == [
        (1, "1", "3", "4S", 10),
        (1, "2", "4", "4S", 9),
    ]
    b = boards[0]
    assert (b.tag("North"), b.tag("South"), b.tag("East"), b.tag("West")) == ("Ann", "Bob", "Eve", "Fay")
    assert (b.tag("Event"), b.tag("Date"), b.tag("Scoring"), b.tag("Dealer"), b.tag("Vulnerable")) == (
        "Test pairs",
        "2026.01.05",
        "MP1",
        "N",
        "None",
    )
    assert b.tag("Section") == (None if nesting == "event" else "A")
    assert b.tag("Stage") == ("Session 1" if nesting == "session" else None)
    assert b.origin.format == "usebio" and b.origin.line == 13 and b.origin.index == 0


def test_both_lead_orders_become_the_opening_lead() -> None:
    boards, _ = parse_usebio_bytes(doc(lead1="KH", lead2="HQ"), "t.xml")
    assert [str(b.play.cards[0]) for b in boards] == ["HK", "HQ"]
    assert [str(b.play.leader) for b in boards] == ["W", "W"]  # declarer's left-hand opponent (Law 41)
    assert [analyse(b).diagnostics for b in boards] == [(), ()]  # W holds both (the HANDSET)


def test_a_lead_not_in_the_leaders_hand_is_p402_at_the_lead() -> None:
    boards, _ = parse_usebio_bytes(doc(lead1="AS"), "t.xml")
    assert [str(d) for d in analyse(boards[0]).diagnostics] == [
        "t.xml:14:25: P402 error: W played SA, which is not in that hand"
    ]


def test_without_a_handset_the_lead_is_a_tag_and_no_deal_is_asked_for() -> None:
    boards, _ = parse_usebio_bytes(doc(handset=False), "t.xml")
    assert boards[0].play is None and boards[0].tag("Lead") == "HK" and boards[0].deal is None
    assert analyse(boards[0]).diagnostics == ()


def test_a_wrong_score_is_s601_at_the_score_and_the_files_score_is_scored() -> None:
    boards, _ = parse_usebio_bytes(doc(score2="-100"), "t.xml")
    a = analyse(boards[1])
    assert [str(d) for d in a.diagnostics] == [
        "t.xml:17:58: S601 error: Score NS -100 but 4S by S taking 9 tricks scores NS -50"
    ]
    assert a.replay.score_ns == -100  # what the scorer scored (usebio.md)


def test_the_files_match_points_are_claims_checked_s603() -> None:
    boards, _ = parse_usebio_bytes(doc(), "t.xml")
    assert [b.tag("ScoreMP") for b in boards] == ["NS 2 EW 0", "NS 0 EW 2"]
    assert check_event([record(b) for b in boards]) == []
    bad = doc().replace(b"<NS_MATCH_POINTS>2</NS_MATCH_POINTS>", b"<NS_MATCH_POINTS>1</NS_MATCH_POINTS>", 1)
    boards, _ = parse_usebio_bytes(bad, "t.xml")
    assert [str(d) for d in check_event([record(b) for b in boards])] == [
        "t.xml:15:1: S603 error: ScoreMP NS 1 EW 0 but matchpointing the 2 results of board 1 on the 2/1 scale gives NS 2 EW 0"
    ]


def test_participants_totals_and_places_are_checked_s608() -> None:
    boards, _ = parse_usebio_bytes(doc(totals=("2", "0", "0", "1.5")), "t.xml")
    assert [str(d) for d in check_event([record(b) for b in boards])] == [
        "t.xml:10:35: S608 error: TotalScoreTable row 4 TotalMP 1.5 but scoring the pair's 1 board in the file gives 2",
        "t.xml:10:65: S608 error: TotalScoreTable row 4 Rank 1 but the order of TotalMP 1.5 gives 2",
    ]  # at the pair's TOTAL_SCORE and PLACE elements


def test_an_adjusted_score_is_an_artificial_score_of_the_traveller() -> None:
    xml = doc().replace(
        b"</BOARD>",
        b"<TRAVELLER_LINE><NS_PAIR_NUMBER>3</NS_PAIR_NUMBER><EW_PAIR_NUMBER>1</EW_PAIR_NUMBER><SCORE>A6040</SCORE>"
        b"<NS_MATCH_POINTS>2.4</NS_MATCH_POINTS><EW_MATCH_POINTS>1.6</EW_MATCH_POINTS></TRAVELLER_LINE></BOARD>",
        1,
    )
    # the played results factored (Neuberg) to 3: 2 -> (2 + 1) * 3 / 2 - 1 = 3.5 on a top of 4
    xml = xml.replace(
        b"<NS_MATCH_POINTS>2</NS_MATCH_POINTS><EW_MATCH_POINTS>0</EW_MATCH_POINTS>",
        b"<NS_MATCH_POINTS>3.5</NS_MATCH_POINTS><EW_MATCH_POINTS>0.5</EW_MATCH_POINTS>",
    )
    xml = xml.replace(
        b"<NS_MATCH_POINTS>0</NS_MATCH_POINTS><EW_MATCH_POINTS>2</EW_MATCH_POINTS>",
        b"<NS_MATCH_POINTS>0.5</NS_MATCH_POINTS><EW_MATCH_POINTS>3.5</EW_MATCH_POINTS>",
    )
    boards, diags = parse_usebio_bytes(xml, "t.xml")
    assert len(boards) == 3 and boards[2].contract is None
    (t,) = travellers([record(b) for b in boards])
    assert [e.artificial for e in t.entries] == [
        None,
        None,
        (ArtificialScore.AVERAGE_PLUS, ArtificialScore.AVERAGE_MINUS),
    ]
    assert [str(d) for d in check_event([record(b) for b in boards]) if d.code != "S608"] == []
    (ev,) = score_event([record(b) for b in boards], None)
    assert [(se.ns, se.ew) for se in ev.travellers[0].entries][2] == (Fraction("2.4"), Fraction("1.6"))


def _codes(xml: bytes) -> list[str]:
    boards, diags = parse_usebio_bytes(xml, "t.xml")
    return [str(d) for d in diags] + [str(d) for b in boards for d in b.diagnostics]


def test_consumer_rules_each_at_its_element() -> None:
    twice = doc().replace(b"<PAIR_NUMBER>2</PAIR_NUMBER>", b"<PAIR_NUMBER>1</PAIR_NUMBER>")
    assert _codes(twice) == [
        "t.xml:6:7: U707 error: PAIR_NUMBER '1' is given twice (also at line 3)",
        "t.xml:16:17: U713 error: NS_PAIR_NUMBER '2' is no pair of the event",  # the second pair 1 is not read
    ]
    nat = doc().replace(
        b"<PLAYER_NAME>Cat</PLAYER_NAME>",
        b"<PLAYER_NAME>Cat</PLAYER_NAME><NATIONAL_ID_NUMBER>0123</NATIONAL_ID_NUMBER>",
    )
    assert [c for c in _codes(nat) if "U708" in c] == [
        "t.xml:7:39: U708 error: NATIONAL_ID_NUMBER '0123' is given twice (also at line 4)"
    ]
    place = doc(places=("1", "2", "5", "0"))
    assert [c.split(": ", 1)[1] for c in _codes(place) if "U709" in c] == [
        "U709 error: PLACE '5' of pair 3 is not from 1 to 4 (the 4 participants)",
        "U709 error: PLACE '0' of pair 4 is not from 1 to 4 (the 4 participants)",
    ]
    one = doc().replace(b"<PLAYER><PLAYER_NAME>Dan</PLAYER_NAME></PLAYER>", b"")
    assert [c.split(": ", 1)[1] for c in _codes(one) if "U710" in c] == [
        "U710 error: pair 2 has 1 PLAYER element, not 2"
    ]
    assert [c.split(": ", 1)[1] for c in _codes(doc(event_type="RUBBER"))] == [
        "U704 error: EVENT_TYPE 'RUBBER' is not a USEBIO event type"
    ]
    method = doc(event_type="PAIRS", extra="<BOARD_SCORING_METHOD>POINTS</BOARD_SCORING_METHOD>")
    assert any(
        "U704 error: BOARD_SCORING_METHOD 'POINTS' is not a USEBIO board scoring method" in c for c in _codes(method)
    )
    version = doc().replace(b'Version="1.2"', b'Version="2.0"')
    assert _codes(version) == ["t.xml:2:1: U701 error: USEBIO Version '2.0' is not 1.0, 1.1, 1.2 or 1.3"]
    unknown = doc().replace(b"<EW_PAIR_NUMBER>4</EW_PAIR_NUMBER>", b"<EW_PAIR_NUMBER>9</EW_PAIR_NUMBER>")
    assert [c for c in _codes(unknown) if "U713" in c] == [
        "t.xml:16:51: U713 error: EW_PAIR_NUMBER '9' is no pair of the event"
    ]
    no_score = doc().replace(b"<SCORE>420</SCORE>", b"")
    assert _codes(no_score) == ["t.xml:13:1: U711 error: TRAVELLER_LINE has no SCORE (a missing score)"]
    bad = doc().replace(b"<CONTRACT>4s</CONTRACT>", b"<CONTRACT>8S</CONTRACT>")
    assert [c for c in _codes(bad) if "T101" in c] == [
        "t.xml:16:85: T101 error: CONTRACT value '8S' is not valid: not a contract: a level 1-7, a strain (C D H S NT)"
        " and X or XX, or PASS"
    ]
    two_events = doc().replace(b"</USEBIO>", b"<EVENT EVENT_TYPE='MP_PAIRS'/></USEBIO>")
    assert _codes(two_events) == ["t.xml:24:19: U703 error: 2 EVENT elements, not exactly one"]


def test_read_from_a_stream_and_from_a_path(tmp_path) -> None:
    assert [b.number for b in read(io.BytesIO(doc()))] == [1, 1]
    p = tmp_path / "results.xml"
    p.write_bytes(doc())
    assert [b.tag("PairNS") for b in read(p)] == ["1", "2"]


def test_sections_that_number_their_pairs_alike_are_told_apart(tmp_path) -> None:
    one = doc("section", places=("1", "3", "3", "1"))
    body = one[one.index(b'<SECTION SECTION_ID="A">') + 24 : one.index(b"</SECTION>")]
    xml = one.replace(b"</SECTION>", b'</SECTION><SECTION SECTION_ID="B">' + body + b"</SECTION>")
    boards, diags = parse_usebio_bytes(xml, "t.xml")
    assert [(b.tag("Section"), b.tag("PairNS"), b.tag("PairEW")) for b in boards] == [
        ("A", "A:1", "A:3"),
        ("A", "A:2", "A:4"),
        ("B", "B:1", "B:3"),
        ("B", "B:2", "B:4"),
    ]
    (t,) = travellers([record(b) for b in boards])  # the same deal in both sections: one traveller
    assert len(t.entries) == 4
    p = tmp_path / "two.xml"
    p.write_bytes(xml)
    from typer.testing import CliRunner

    from handrec.cli import app

    out = tmp_path / "again.xml"
    res = CliRunner().invoke(app, ["export", str(p), "--to", "usebio", "-o", str(out)])
    assert res.exit_code == 0, res.output
    import xml.etree.ElementTree as ET

    sections = ET.parse(out).getroot().find("EVENT").findall("SECTION")
    assert [sorted(x.text for x in s.iter("PAIR_NUMBER")) for s in sections] == [["1", "2", "3", "4"]] * 2
    assert [b.tag("PairNS") for b in read(out)] == [b.tag("PairNS") for b in boards]
