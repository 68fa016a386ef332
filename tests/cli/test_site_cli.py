"""``handrec site`` and ``handrec booklet --pair / --player`` without a browser: the files
written, their figures against ``handrec score``, escaping, the folder rules, the exit codes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handrec.cli import app
from handrec.site.render import MARKER

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_data" / "club_session.pbn"
TEAMS = ROOT / "sample_data" / "bbo_hands.lin"

runner = CliRunner()


def _site(tmp_path: Path, *args: str) -> tuple[int, str, Path]:
    out = tmp_path / "site"
    r = runner.invoke(app, ["site", *args, "-o", str(out)])
    return r.exit_code, r.stderr, out


def test_site_writes_every_page_and_its_assets(tmp_path: Path) -> None:
    code, err, out = _site(tmp_path, str(SAMPLE))
    assert code == 0, err
    assert "1 session, 32 boards (8 deals), 8 score cards" in err
    names = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert names == sorted(
        [MARKER, "index.html", "s1/index.html"]
        + [f"s1/board-{i}.html" for i in range(1, 9)]
        + [f"s1/pair-{i}.html" for i in range(1, 9)]
        + ["assets/site.css", "assets/sort.js"]
        + [f"assets/fonts/{f}" for f in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "LICENSE-DejaVu.txt")]
    )
    # nothing but the BBO link points outside the folder
    for page in out.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        for url in re.findall(r'(?:href|src)="([^"]+)"', text):
            assert not re.match(r"^[a-z]+:", url) or url.startswith(
                "https://www.bridgebase.com/tools/handviewer.html?lin="
            )
        assert "@import" not in text and "//" not in re.sub(r'href="https://www\.bridgebase\.com[^"]*"', "", text)


def test_site_figures_are_handrec_score_s(tmp_path: Path) -> None:
    code, err, out = _site(tmp_path, str(SAMPLE))
    assert code == 0, err
    scored = json.loads(runner.invoke(app, ["score", str(SAMPLE), "-f", "json"]).stdout)["events"][0]
    session = (out / "s1" / "index.html").read_text(encoding="utf-8")
    for ranking in scored["rankings"]:
        for row in ranking["rows"]:
            pct = f"{row['pct']:.2f}"
            assert re.search(rf">{re.escape(row['name'])}</a></th>.*?<td class=\"num\">{pct}</td>", session)
    board = (out / "s1" / "board-3.html").read_text(encoding="utf-8")
    trav = next(t for t in scored["travellers"] if t["board"] == "3")
    for e in trav["entries"]:
        assert f'<tr data-score="{e["score_ns"]}"' in board
    # board 3: N1-S1 and N4-S4 made 2S+2 (+170, 2.5 MP each), N2-S2 2S+1, N3-S3 2S=
    assert board.count('<td class="num ns-value">2.5</td>') == 2


@pytest.mark.parametrize("src", [SAMPLE, TEAMS], ids=["pairs", "teams"])
def test_each_session_is_scored_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, src: Path) -> None:
    """The booklet's travellers and the score cards come from one scoring of the session (the
    site scored every session twice, about an eighth of its build time)."""
    import handrec.booklet.results_pages as pages
    import handrec.events.event_score as event_score
    import handrec.events.teams as teams
    import handrec.site.data as data

    calls: list[str] = []

    def counted(name: str, f):  # type: ignore[no-untyped-def]
        def wrapper(*a, **k):  # type: ignore[no-untyped-def]
            calls.append(name)
            return f(*a, **k)

        return wrapper

    monkeypatch.setattr(data, "score_event", counted("score_event", event_score.score_event))
    monkeypatch.setattr(pages, "score_event", counted("score_event", event_score.score_event))
    monkeypatch.setattr(pages, "score_teams", counted("score_teams", teams.score_teams))
    code, err, _ = _site(tmp_path, str(src))
    assert code == 0, err
    # the pairs session is scored once; score_teams looks for teams matches first, as the booklet does
    assert calls.count("score_event") == 1, calls


def test_site_of_a_teams_match(tmp_path: Path) -> None:
    code, err, out = _site(tmp_path, str(TEAMS))
    assert code == 0, err
    assert (out / "s1" / "board-1.html").is_file()


def test_hostile_text_is_escaped_in_the_files(tmp_path: Path) -> None:
    src = tmp_path / "x.pbn"
    deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    games = [
        f'[Event "<script>alert(1)</script>"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
        f'[North "{n}"]\n[South "S"]\n[East "E{i}"]\n[West "W{i}"]\n[Deal "{deal}"]\n'
        f'[Contract "4S"]\n[Declarer "N"]\n[Result "{10 + i}"]\n'
        for i, n in enumerate(['\\"><img src=x onerror=alert(1)>', "A&B"])
    ]
    src.write_text("\n".join(games), encoding="utf-8")
    code, err, out = _site(tmp_path, str(src))
    assert code == 0, err
    for page in out.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "<script>alert" not in text and "<img" not in text, page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in (out / "index.html").read_text(encoding="utf-8")
    assert "&#34;&gt;&lt;img src=x onerror=alert(1)&gt; - S" in (out / "s1" / "index.html").read_text(encoding="utf-8")


def test_a_folder_not_made_by_handrec_is_left_alone(tmp_path: Path) -> None:
    out = tmp_path / "site"
    out.mkdir()
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    r = runner.invoke(app, ["site", str(SAMPLE), "-o", str(out)])
    assert r.exit_code == 2 and "did not write" in r.stderr
    assert [p.name for p in out.iterdir()] == ["notes.txt"]


def test_a_second_build_replaces_the_first_and_drops_its_stale_pages(tmp_path: Path) -> None:
    code, _, out = _site(tmp_path, str(SAMPLE))
    assert code == 0
    (out / "extra.txt").write_text("kept", encoding="utf-8")
    small = tmp_path / "one.pbn"
    text = SAMPLE.read_text(encoding="utf-8")
    small.write_text(text[: text.index('[Board "2"]')].rsplit("[Event", 1)[0], encoding="utf-8")
    code, err, out = _site(tmp_path, str(small))
    assert code == 0, err
    assert (out / "extra.txt").read_text(encoding="utf-8") == "kept"  # not ours: untouched
    assert not (out / "s1" / "board-8.html").exists() and (out / "s1" / "board-1.html").exists()


def test_no_input_exit_1(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    code, err, _ = _site(tmp_path, str(empty))
    assert code == 1 and "no PBN or LIN input" in err


def test_booklet_pair_and_player(tmp_path: Path) -> None:
    out = tmp_path / "mine.html"
    r = runner.invoke(app, ["booklet", str(SAMPLE), "--pair", "n4 - s4", "-o", str(out)])
    assert r.exit_code == 0, r.stderr
    assert "8 boards of N4 - S4" in r.stderr
    text = out.read_text(encoding="utf-8")
    assert text.count('<article class="personal-board"') == 8
    assert "<link" not in text and "<script" not in text  # one file, nothing to fetch
    # board 1: N4-S4 defended 2H+1 (-140, 1 MP, 33.33%); the field: +170 once, -140 at three tables
    first = text[text.index('<article class="personal-board"') : text.index("</article>")]
    assert '<b class="score">−140</b>' in first and '<span class="pct">33.33</span>' in first
    assert re.search(r"\+170</th><td class=\"num\">1</td><td class=\"num\">3</td>", first)
    assert re.search(r"−140<span class=\"vh\"> \(this pair\)</span></th><td class=\"num\">3</td>", first)
    r = runner.invoke(app, ["booklet", str(SAMPLE), "--player", "w2", "-o", str(out)])
    assert r.exit_code == 0 and "8 boards of E2 - W2" in r.stderr


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["--pair", "nobody"], 1, "no pair 'nobody'"),
        (["--pair", "N1 - S1", "--player", "N1"], 2, "not both"),
    ],
)
def test_booklet_pair_errors(tmp_path: Path, args: list[str], code: int, message: str) -> None:
    r = runner.invoke(app, ["booklet", str(SAMPLE), *args, "-o", str(tmp_path / "x.html")])
    assert r.exit_code == code and message in r.stderr
    assert not (tmp_path / "x.html").exists()


def test_booklet_pair_is_html_only(tmp_path: Path) -> None:
    r = runner.invoke(app, ["booklet", str(SAMPLE), "--pair", "N1 - S1", "-o", str(tmp_path / "x.pdf")])
    assert r.exit_code == 2 and "HTML" in r.stderr


def test_site_dd_solves_the_grid_and_par(tmp_path: Path) -> None:
    pytest.importorskip("endplay")
    code, err, out = _site(tmp_path, str(SAMPLE), "--dd")
    assert code == 0, err
    board = (out / "s1" / "board-1.html").read_text(encoding="utf-8")
    # board 1 (the booklet's figures): N-S make 4 in diamonds and clubs, E-W 5 hearts; par E-W +300
    assert re.search(
        r'<tr data-seat="N"><th scope="row">N</th><td>–</td><td>–</td><td>–</td><td>4</td><td>4</td>', board
    )
    assert re.search(
        r'<tr data-seat="E"><th scope="row">E</th><td>1</td><td>3</td><td>5</td><td>–</td><td>–</td>', board
    )
    assert '<b class="par-score">EW +300</b>' in board
    plain = (_site(tmp_path / "b", str(SAMPLE))[2] / "s1" / "board-1.html").read_text(encoding="utf-8")
    assert 'class="dd"' not in plain  # the file has no double-dummy tags


def test_the_file_s_disagreeing_figures_are_marked_and_listed(tmp_path: Path) -> None:
    src = tmp_path / "claims.pbn"
    deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    games = [
        f'[Event "Club"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n[North "N{i}"]\n[South "S{i}"]\n'
        f'[East "E{i}"]\n[West "W{i}"]\n[Deal "{deal}"]\n[Contract "4S"]\n[Declarer "N"]\n[Result "{r}"]\n'
        f'[ScoreMP "NS {mp}"]\n'
        for i, (r, mp) in enumerate([(10, 2), (9, 2)], 1)  # the second game made 9 tricks: 0 MP, not 2
    ]
    src.write_text("\n".join(games), encoding="utf-8")
    code, err, out = _site(tmp_path, str(src))
    assert code == 0, err
    assert "S603" in err
    board = (out / "s1" / "board-1.html").read_text(encoding="utf-8")
    assert board.count('class="flagged"') == 1 and "&dagger;" in board
    card = next(p for p in (out / "s1").glob("pair-*.html") if "N2 - S2</h1>" in p.read_text(encoding="utf-8"))
    assert 'class="flagged"' in card.read_text(encoding="utf-8")


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_site_is_the_same_whatever_jobs(tmp_path: Path) -> None:
    """``--jobs 2`` renders the pages in two forked workers (a process each, as a user runs
    it): the folder, marker included, is byte for byte that of ``--jobs 1``."""
    import os
    import subprocess
    import sys

    src = tmp_path / "session.pbn"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = [sys.executable, "-m", "handrec.cli"]
    # 200 boards at 2 tables: 206 pages, enough for the workers (render.POOL_PAGES)
    subprocess.run([*run, "generate", "-o", str(src), "--boards", "200", "--tables", "2"], check=True, env=env)
    built = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"site{jobs}"
        r = subprocess.run(
            [*run, "site", str(src), "-o", str(out), "--jobs", jobs], capture_output=True, text=True, env=env
        )
        assert r.returncode == 0, r.stderr
        assert "1 session, 400 boards (200 deals), 4 score cards" in r.stderr
        built[jobs] = _files(out)
    assert len(built["1"]) == 1 + 2 + 3 + 2 + 200 + 4  # marker, index pages, fonts, css and js, boards, cards
    assert built["1"] == built["2"]


def test_pages_shared_out_in_turn_are_those_of_one_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A runner's tasks each write every n-th page: with 3 shares (run here, in order) the
    folder is that of a build without a runner, and every share wrote its pages."""
    from handrec.formats.dispatch import read
    from handrec.site import render
    from handrec.site.render import build_site

    monkeypatch.setattr(render, "POOL_PAGES", 1)  # the sample's 18 pages would be rendered here

    shares: list[int] = []

    def runner(task):  # type: ignore[no-untyped-def]
        done = [task(k, 3) for k in range(3)]
        shares.extend(done)
        return done

    one = build_site(read(SAMPLE), tmp_path / "one")
    three = build_site(read(SAMPLE), tmp_path / "three", runner=runner)
    assert (one.pages, three.pages) == (18, 18)
    assert shares == [6, 6, 6]  # 18 pages: the index, the session, 8 boards, 8 cards
    assert _files(tmp_path / "one") == _files(tmp_path / "three")


def test_a_big_file_read_in_parts_gives_the_games_of_one_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With two jobs a PBN file over ``PART_BYTES`` is read, replayed and recorded in parts by
    two workers: the records, leads and first games are those of reading it here."""
    from handrec.formats.dispatch import read
    from handrec.formats.pbn.writer import dump
    from handrec.generate import generate_boards
    from handrec.runs import parts, site_read
    from handrec.site.data import collect

    src = tmp_path / "session.pbn"
    with src.open("w", encoding="utf-8") as f:
        dump(generate_boards(36, seed=4, tables=3), f)
    monkeypatch.setattr(parts, "PART_BYTES", src.stat().st_size // 3)
    cut: list[int] = []
    bounds = parts._part_bounds

    def counted(*args):  # type: ignore[no-untyped-def]
        found = bounds(*args)
        cut.append(len(found or ()))
        return found

    monkeypatch.setattr(parts, "_part_bounds", counted)
    seen: list[str] = []
    got = site_read.collect_inputs([src], [], 2, on_input=lambda inp: seen.append(inp.path))
    one = collect(read(src))
    assert cut == [4] and seen == [str(src)]  # two parts a job
    assert (len(got.records), len(got.first)) == (36, 12) and got.records == one.records and got.leads == one.leads
    assert list(got.first) == list(one.first)
    assert [(b, r.tricks) for b, r in got.first.values()] == [(b, r.tricks) for b, r in one.first.values()]


def _vugraph(path: Path, boards: int = 4, seed: int = 5) -> Path:
    """A vugraph teams match as BBO writes it (``vg`` header, ``rs``, ``qx|o``/``qx|c`` tables):
    ``boards`` boards, each played in the Open and the Closed room, Home v Away."""
    import dataclasses
    import io

    from handrec.formats.lin.writer import dump as lin_dump
    from handrec.generate import generate_boards
    from handrec.model import Tag

    out = []
    for i, b in enumerate(generate_boards(2 * boards, seed=seed, tables=2)):
        keep = tuple(t for t in b.tags if t.name not in ("Event", "Room"))
        more = (Tag("Event", "Cup"), Tag("Room", "Open" if i % 2 == 0 else "Closed"))
        out.append(dataclasses.replace(b, tags=keep + more + (Tag("HomeTeam", "Home"), Tag("VisitTeam", "Away"))))
    buf = io.StringIO()
    lin_dump(out, buf)
    path.write_text(buf.getvalue(), encoding="utf-8")
    return path


def test_a_vugraph_team_match_is_scored_in_imps_as_handrec_score_does(tmp_path: Path) -> None:
    """A vugraph LIN of a teams match (both rooms of each board): ``handrec score``, the
    session page and every board page say IMPs, with score's IMPs (``sample_data/bbo_hands.lin``
    is no teams match: four boards played once each, no rooms, scored in matchpoints)."""
    src = _vugraph(tmp_path / "match.lin")
    scored = json.loads(runner.invoke(app, ["score", str(src), "-f", "json"]).stdout)
    assert scored["method"] == "imp"
    code, err, out = _site(tmp_path, str(src))
    assert code == 0, err
    assert "1 session, 8 boards (4 deals), 2 score cards" in err
    session = (out / "s1" / "index.html").read_text(encoding="utf-8")
    assert "<caption>Ranking Teams" in session
    for b in scored["events"][0]["boards"]:
        page = (out / "s1" / f"board-{b['board']}.html").read_text(encoding="utf-8")
        imps = b["imps_home"]
        who = f"Home +{imps} IMPs" if imps > 0 else f"Away +{-imps} IMPs" if imps < 0 else ""
        assert f"<caption>Home v Away: Traveller, board {b['board']}" in page
        assert who in page
        assert "Teams: IMPs between the Open and Closed rooms." in page
    lin = json.loads(runner.invoke(app, ["score", str(TEAMS), "-f", "json"]).stdout)
    assert lin["method"] == "mp"


_DEAL = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"


def _numbered_pairs(pairs: list[tuple[str | None, str | None, int]]) -> str:
    """Two boards, each played by the (PairNS, PairEW, tricks) given; a pair without a
    number is known by its players' names (N1 - S1...)."""
    games = []
    for board in (1, 2):
        for k, (ns, ew, tricks) in enumerate(pairs, 1):
            ids = (f'[PairNS "{ns}"]\n' if ns else "") + (f'[PairEW "{ew}"]\n' if ew else "")
            games.append(
                f'[Event "Club pairs"]\n[Board "{board}"]\n[North "N{k}"]\n[South "S{k}"]\n[East "E{k}"]\n'
                f'[West "W{k}"]\n{ids}[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{_DEAL}"]\n'
                f'[Contract "4S"]\n[Declarer "N"]\n[Result "{tricks}"]\n'
            )
    return "\n".join(games)


def test_a_pair_s_page_is_named_by_its_pair_number(tmp_path: Path) -> None:
    # New-user trial: pair 12's card was pair-1.html (the order of the rankings), so a club
    # could not link "your card" by the number the players know.
    src = tmp_path / "pairs.pbn"
    src.write_text(_numbered_pairs([("12", "5", 10), ("3", "7", 9), ("1", "2", 11)]), encoding="utf-8")
    code, err, out = _site(tmp_path, str(src))
    assert code == 0, err
    pages = {p.name: _card_name(p) for p in (out / "s1").glob("pair-*.html")}
    assert pages == {f"pair-{n}.html": n for n in ("1", "2", "3", "5", "7", "12")}


def test_pairs_known_by_names_take_numbers_no_pair_has(tmp_path: Path) -> None:
    src = tmp_path / "pairs.pbn"
    src.write_text(_numbered_pairs([("1", "2", 10), (None, None, 9), ("3", None, 11)]), encoding="utf-8")
    code, err, out = _site(tmp_path, str(src))
    assert code == 0, err
    pages = {p.name: _card_name(p) for p in (out / "s1").glob("pair-*.html")}
    assert set(pages.values()) == {"1", "2", "3", "N2 - S2", "E2 - W2", "E3 - W3"}
    assert {pages[f"pair-{n}.html"] for n in ("1", "2", "3")} == {"1", "2", "3"}
    assert sorted(p for p, name in pages.items() if " - " in name) == ["pair-4.html", "pair-5.html", "pair-6.html"]


def _card_name(page: Path) -> str:
    """The pair or team a score card page is about: its heading without the screen-reader prefix."""
    h1 = re.search(r"<h1>(.*?)</h1>", page.read_text(encoding="utf-8")).group(1)
    return re.sub(r'<span class="vh">[^<]*</span>', "", h1)


def test_a_mitchell_s_pairs_of_one_number_are_two_pairs(tmp_path: Path) -> None:
    # A Mitchell numbers its N-S and E-W pairs alike (PairNS 1 and PairEW 1 at table 1): two
    # pairs, ranked apart (handrec score), so two cards -- not one card of both pairs' boards.
    src = tmp_path / "mitchell.pbn"
    src.write_text(_numbered_pairs([("1", "1", 10), ("2", "2", 9), ("3", "3", 11)]), encoding="utf-8")
    scored = json.loads(runner.invoke(app, ["score", str(src), "-f", "json"]).stdout)["events"][0]
    assert [r["ranking"] for r in scored["rankings"]] == ["NS", "EW"]
    code, err, out = _site(tmp_path, str(src))
    assert code == 0, err
    assert "6 score cards" in err
    pages = {p.name: _card_name(p) for p in (out / "s1").glob("pair-*.html")}
    assert pages == {f"pair-{n}{d}.html": f"{n} {'N-S' if d == 'ns' else 'E-W'}" for n in "123" for d in ("ns", "ew")}
    one_ew = (out / "s1" / "pair-1ew.html").read_text(encoding="utf-8")
    assert '<p class="players">E1 - W1</p>' in one_ew
    assert one_ew.count('<th scope="row" data-sort=') == 2  # its two boards, not pair 1 N-S's too
    # its opponents link to pair 1 N-S's card; the ranking's row to its own
    assert '<a class="pair" href="pair-1ns.html">1</a>' in one_ew
    session = (out / "s1" / "index.html").read_text(encoding="utf-8")
    assert '<a class="pair" href="pair-1ew.html">1</a>' in session
