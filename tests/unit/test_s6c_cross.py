"""Cross-IMPs as the Scoring tag says (PBN 2.1 §3.4.12: ``Cross`` summed, ``Cross1`` ÷ the number
of scores, ``Cross2`` ÷ the comparisons) when ``handrec score`` takes the method from the tags;
``-m cross-imp`` keeps bridge-rules.md §8.5 (÷ the comparisons, n - 1).  ``handrec validate``
(handrec.events.checks) accepts exactly the figures ``handrec score`` prints."""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest

from handrec.events.checks import check_event
from handrec.events.event_score import score_event
from handrec.events.games import record
from handrec.events.methods import Cross, Method, cross_for
from handrec.events.pairs import score_cross
from handrec.events.report import render
from handrec.events.travellers import Entry, Traveller
from handrec.formats.pbn.reader import parse_pbn_text
from handrec.scoring.traveller import ArtificialScore

A = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
#: bridge-rules.md §8.5 (I09): N-S +620, +620, +170, -100 (N-S vulnerable: 4S=, 4S=, 2S+2, 4S-1)
I09 = (("4S", 10), ("4S", 10), ("2S", 10), ("4S", 9))


def games(scoring: str, claims: list[str] | None = None) -> str:
    out = []
    for t, (contract, tricks) in enumerate(I09, 1):
        lines = ['[Event "Club"]', '[Board "1"]', '[Dealer "N"]', '[Vulnerable "NS"]', f'[Deal "{A}"]']
        lines += [f'[Scoring "{scoring}"]'] if scoring else []
        lines += [f'[North "N{t}"]', f'[South "S{t}"]', f'[East "E{t}"]', f'[West "W{t}"]']
        lines += [f'[Contract "{contract}"]', '[Declarer "N"]', f'[Result "{tricks}"]']
        lines += [f'[ScoreIMP "{claims[t - 1]}"]'] if claims else []
        out.append("\n".join(lines) + "\n")
    return "\n".join(out)


def recs(t: str) -> list:
    return [record(b) for b in parse_pbn_text(t, "t.pbn")]


@pytest.mark.parametrize(
    ("scoring", "cross", "values", "title"),
    [
        ("IMP;Cross", Cross.SUM, [22, 22, -13, -31], "cross-IMPs (summed over the comparisons)"),
        (
            "IMP;Cross1",
            Cross.SCORES,
            [F(11, 2), F(11, 2), F(-13, 4), F(-31, 4)],
            "cross-IMPs (divided by the results, n)",
        ),
        (
            "IMP;Cross2",
            Cross.COMPARISONS,
            [F(22, 3), F(22, 3), F(-13, 3), F(-31, 3)],
            "cross-IMPs (divided by the comparisons, n - 1)",
        ),
    ],
)
def test_score_follows_the_scoring_tag(scoring: str, cross: Cross, values: list[F], title: str) -> None:
    rs = recs(games(scoring))
    assert cross_for(rs) is cross
    (ev,) = score_event(rs, None)
    assert (ev.method, ev.cross) == (Method.CROSS_IMP, cross)
    (t,) = ev.travellers
    assert [e.ns for e in t.entries] == values
    assert [e.ew for e in t.entries] == [-v for v in values]
    assert [e.total_ns for e in t.entries] == [22, 22, -13, -31]
    # rankings on the totals of the variant
    ns, ew = ev.rankings
    assert [(r.rank, r.name, r.total) for r in ns.rows] == [
        ("1=", "N1 - S1", values[0]),
        ("1=", "N2 - S2", values[1]),
        ("3", "N3 - S3", values[2]),
        ("4", "N4 - S4", values[3]),
    ]
    assert [(r.rank, r.name, r.total) for r in ew.rows] == [
        ("1", "E4 - W4", -values[3]),
        ("2", "E3 - W3", -values[2]),
        ("3=", "E1 - W1", -values[0]),
        ("3=", "E2 - W2", -values[1]),
    ]
    out = render([ev])
    assert out.splitlines()[0] == f"Club: {title}"
    doc = json.loads(render([ev], "json"))
    assert (doc["method"], doc["events"][0]["cross"]) == ("cross-imp", str(cross))
    # validate accepts the figures score prints, and only those
    if cross is Cross.SUM:
        shown = ["NS 22 EW -22", "NS 22 EW -22", "NS -13 EW 13", "NS -31 EW 31"]
    else:
        shown = [f"NS {float(v):.2f} EW {float(-v):.2f}" for v in values]
    assert [d.code for d in check_event(recs(games(scoring, shown)))] == []
    other = {Cross.SUM: "NS 7.33 EW -7.33", Cross.SCORES: "NS 22 EW -22", Cross.COMPARISONS: "NS 22 EW -22"}[cross]
    assert [d.code for d in check_event(recs(games(scoring, [other, *shown[1:]])))] == ["S604"]


def test_explicit_method_keeps_the_average_over_the_comparisons() -> None:
    # -m cross-imp: bridge-rules.md §8.5, whatever the Scoring tag says (I09: 7.33, 7.33, -4.33, -10.33)
    for scoring in ("IMP;Cross", "IMP;Cross1", ""):
        (ev,) = score_event(recs(games(scoring)), Method.CROSS_IMP)
        assert ev.cross is Cross.COMPARISONS
        assert [e.ns for e in ev.travellers[0].entries] == [F(22, 3), F(22, 3), F(-13, 3), F(-31, 3)]
        assert [round(float(r.total), 2) for r in ev.rankings[0].rows] == [7.33, 7.33, -4.33, -10.33]
        assert render([ev]).splitlines()[0] == "Club: cross-IMPs (divided by the comparisons, n - 1)"
    # an explicit variant is taken as given
    (ev,) = score_event(recs(games("IMP;Cross")), Method.CROSS_IMP, cross=Cross.SCORES)
    assert [e.ns for e in ev.travellers[0].entries] == [F(11, 2), F(11, 2), F(-13, 4), F(-31, 4)]


def test_other_methods_have_no_cross_variant() -> None:
    (ev,) = score_event(recs(games("IMP;Butler")), None)
    assert (ev.method, ev.cross) == (Method.BUTLER, None)
    assert "cross" not in json.loads(render([ev], "json"))["events"][0]
    assert cross_for(recs(games("MP"))) is Cross.COMPARISONS


def test_artificial_scores_count_three_imps_a_comparison() -> None:
    # Law 12C2: average-plus +3 IMPs, average-minus -3, per comparison (the played results: 3 here)
    played = [Entry(f"N{i}", f"E{i}", s) for i, s in enumerate((620, 620, 170, -100))]
    adj = Entry("N9", "E9", None, artificial=(ArtificialScore.AVERAGE_PLUS, ArtificialScore.AVERAGE_MINUS))
    t = Traveller("Club", "1", A, (*played, adj))
    got = {c: score_cross(t, c).entries[-1] for c in Cross}
    assert {c: (e.ns, e.ew, e.total_ns) for c, e in got.items()} == {
        Cross.SUM: (9, -9, None),
        Cross.SCORES: (F(9, 4), F(-9, 4), None),
        Cross.COMPARISONS: (3, -3, None),
    }
    assert [e.ns for e in score_cross(t).entries[:4]] == [F(22, 3), F(22, 3), F(-13, 3), F(-31, 3)]


def test_total_score_table_imps_follow_the_scoring_tag() -> None:
    # a TotalScoreTable's TotalIMP of "IMP;Cross" are the summed cross-IMPs (handrec score's totals)
    from handrec.events.games import GameRecord, TableView
    from handrec.model import Origin, Span

    def checked(scoring: str, first: str) -> list[tuple[str, int, int, str]]:
        rows = ((first, "N1;S1"), ("-31", "N4;S4"))
        view = TableView("TotalScoreTable", ("TotalIMP", "Names"), (None, None), rows, (), Span(2, 1))
        t = GameRecord(Origin("t.pbn", 100), event="Club", board="2", deal="x", scoring=scoring, tables=(view,))
        rs = recs(games(scoring))
        if scoring == "IMP;Cross2":
            rows = ((first, "N1;S1"), ("-10.33", "N4;S4"))
            view = TableView("TotalScoreTable", ("TotalIMP", "Names"), (None, None), rows, (), Span(2, 1))
            t = GameRecord(Origin("t.pbn", 100), event="Club", board="2", deal="x", scoring=scoring, tables=(view,))
        return [(d.code, d.line, d.column, d.message) for d in check_event([*rs, t])]

    assert checked("IMP;Cross", "22") == []
    assert checked("IMP;Cross", "7.33") == [
        ("S608", 101, 1, "TotalScoreTable row 1 TotalIMP 7.33 but scoring the pair's 1 board in the file gives 22")
    ]
    assert checked("IMP;Cross2", "7.33") == []
