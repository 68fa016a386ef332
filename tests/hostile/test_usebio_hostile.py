"""Hostile XML, refused with diagnostics and bounded memory (the USEBIO reader, safe XML).

Each case goes through ``handrec validate`` (a file on disk, as a user would give it) or the
reader; none may raise, fetch anything, or hold more than a bounded amount of memory.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from handrec.cli import app
from handrec.formats.usebio.reader import parse_usebio_bytes
from handrec.runs.validate import validate_paths

runner = CliRunner()
HEAD = b'<?xml version="1.0" encoding="UTF-8"?>\n'
GOOD = (
    b'<USEBIO Version="1.2"><CLUB><CLUB_NAME>C</CLUB_NAME></CLUB><EVENT EVENT_TYPE="MP_PAIRS"><PARTICIPANTS>'
    b"<PAIR><PAIR_NUMBER>1</PAIR_NUMBER><TOTAL_SCORE>2</TOTAL_SCORE><PLACE>1</PLACE>"
    b"<PLAYER><PLAYER_NAME>P1a</PLAYER_NAME></PLAYER><PLAYER><PLAYER_NAME>P1b</PLAYER_NAME></PLAYER></PAIR>"
    b"<PAIR><PAIR_NUMBER>2</PAIR_NUMBER><TOTAL_SCORE>0</TOTAL_SCORE><PLACE>3</PLACE>"
    b"<PLAYER><PLAYER_NAME>P2a</PLAYER_NAME></PLAYER><PLAYER><PLAYER_NAME>P2b</PLAYER_NAME></PLAYER></PAIR>"
    b"<PAIR><PAIR_NUMBER>3</PAIR_NUMBER><TOTAL_SCORE>0</TOTAL_SCORE><PLACE>3</PLACE>"
    b"<PLAYER><PLAYER_NAME>P3a</PLAYER_NAME></PLAYER><PLAYER><PLAYER_NAME>P3b</PLAYER_NAME></PLAYER></PAIR>"
    b"<PAIR><PAIR_NUMBER>4</PAIR_NUMBER><TOTAL_SCORE>2</TOTAL_SCORE><PLACE>1</PLACE>"
    b"<PLAYER><PLAYER_NAME>P4a</PLAYER_NAME></PLAYER><PLAYER><PLAYER_NAME>P4b</PLAYER_NAME></PLAYER></PAIR>"
    b"</PARTICIPANTS><BOARD><BOARD_NUMBER>1</BOARD_NUMBER>\n"
    b"<TRAVELLER_LINE><NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><EW_PAIR_NUMBER>3</EW_PAIR_NUMBER><CONTRACT>3NT</CONTRACT>"
    b"<PLAYED_BY>N</PLAYED_BY><TRICKS>9</TRICKS><SCORE>400</SCORE></TRAVELLER_LINE>\n"
    b"<TRAVELLER_LINE><NS_PAIR_NUMBER>2</NS_PAIR_NUMBER><EW_PAIR_NUMBER>4</EW_PAIR_NUMBER><CONTRACT>3NT</CONTRACT>"
    b"<PLAYED_BY>N</PLAYED_BY><TRICKS>8</TRICKS><SCORE>-50</SCORE></TRAVELLER_LINE>\n"
    b"</BOARD></EVENT></USEBIO>\n"
)


def _report(path: Path):
    (rep,) = list(validate_paths([path], jobs=1))
    return rep, [str(f.diagnostic) for f in rep.findings]


def test_billion_laughs_is_refused(tmp_path: Path) -> None:
    lol = b"".join(b'<!ENTITY lol%d "%s">' % (i, (b"&lol%d;" % (i - 1)) * 10 if i else b"lol") for i in range(10))
    p = tmp_path / "laughs.xml"
    p.write_bytes(HEAD + b"<!DOCTYPE USEBIO [" + lol + b"]>\n" + GOOD.replace(b"<CLUB_NAME>C", b"<CLUB_NAME>&lol9;"))
    rep, diags = _report(p)
    assert rep.boards == 0
    assert diags == [
        f"{p}:2:18: F023 error: DOCTYPE internal subset refused: USEBIO needs no DTD declarations"
        " (entity bombs and attribute defaults hide there)"
    ]


def test_external_entity_is_refused(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("do not read me")
    p = tmp_path / "xxe.xml"
    p.write_bytes(
        HEAD
        + f'<!DOCTYPE USEBIO [<!ENTITY x SYSTEM "file://{secret}">]>\n'.encode()
        + GOOD.replace(b"<CLUB_NAME>C", b"<CLUB_NAME>&x;")
    )
    boards, diags = parse_usebio_bytes(p.read_bytes(), "xxe.xml")
    assert boards == [] and [d.code for d in diags] == ["F023"]
    assert "do not read me" not in "".join(str(d) for d in diags)


def test_an_undeclared_entity_is_not_well_formed_and_no_dtd_supplies_it(tmp_path: Path) -> None:
    dtd = tmp_path / "evil.dtd"
    dtd.write_text('<!ENTITY x "from the DTD">')
    data = (
        HEAD + f'<!DOCTYPE USEBIO SYSTEM "file://{dtd}">\n'.encode() + GOOD.replace(b"<CLUB_NAME>C", b"<CLUB_NAME>&x;")
    )
    boards, diags = parse_usebio_bytes(data, "ent.xml")
    assert boards == []
    assert [str(d).split(": ", 1)[1] for d in diags] == [
        f"F025 warning: DOCTYPE USEBIO names the DTD 'file://{dtd}', which is not USEBIO's (it is not"
        " loaded: no DTD ever is)",
        "F023 error: entity reference &x; refused: its declaration would be in a DTD, and no DTD is ever loaded",
    ]
    assert (diags[1].line, diags[1].column) == (3, data.split(b"\n")[2].index(b"&x;") + 1)


def test_a_dtd_url_is_never_fetched(tmp_path: Path) -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    server.settimeout(0.5)
    port = server.getsockname()[1]
    try:
        p = tmp_path / "dtd.xml"
        p.write_bytes(HEAD + f'<!DOCTYPE USEBIO SYSTEM "http://127.0.0.1:{port}/usebio_v1_2.dtd">\n'.encode() + GOOD)
        rep, diags = _report(p)
        assert rep.boards == 2 and diags == []  # the EBU's file name: read, not loaded
        p2 = tmp_path / "dtd2.xml"
        p2.write_bytes(HEAD + f'<!DOCTYPE USEBIO SYSTEM "http://127.0.0.1:{port}/evil.dtd">\n'.encode() + GOOD)
        rep, diags = _report(p2)
        col = len(f'<!DOCTYPE USEBIO SYSTEM "http://127.0.0.1:{port}/evil.dtd"') + 1  # where expat has read it
        assert rep.boards == 2
        assert diags == [
            f"{p2}:2:{col}: F025 warning: DOCTYPE USEBIO names the DTD 'http://127.0.0.1:{port}/evil.dtd', which is not"
            " USEBIO's (it is not loaded: no DTD ever is)"
        ]
        try:
            conn, _ = server.accept()
        except TimeoutError:
            conn = None
        assert conn is None, "the reader connected to the DTD's host"
    finally:
        server.close()


def test_deep_nesting_is_refused(tmp_path: Path) -> None:
    p = tmp_path / "deep.xml"
    p.write_bytes(HEAD + b'<USEBIO Version="1.2">' + b"<a>" * 100_000 + b"</a>" * 100_000 + b"</USEBIO>")
    rep, diags = _report(p)
    assert rep.boards == 0
    col = len(b'<USEBIO Version="1.2">') + 31 * len(b"<a>") + 1  # the 32nd <a>: a 33rd level
    assert diags == [
        f"{p}:2:{col}: F024 error: element nesting (a) exceeds the limit of 32 levels: reading stopped, the file is not read"
    ]


def test_a_100_mb_text_node_is_refused_in_bounded_memory(tmp_path: Path) -> None:
    p = tmp_path / "big.xml"
    chunk = b"x" * (1 << 20)
    with open(p, "wb") as f:  # written in blocks: the test holds 1 MiB, not 100
        f.write(HEAD + b'<USEBIO Version="1.2"><CLUB><CLUB_NAME>')
        for _ in range(100):
            f.write(chunk)
        f.write(b"</CLUB_NAME></CLUB></USEBIO>\n")
    assert p.stat().st_size > 100 << 20
    # handrec validate in a fresh process that reports its own peak memory
    code = (
        "import resource, runpy, sys\n"
        "import handrec.cli, handrec.runs.validate, handrec.formats.usebio.reader\n"  # imports first
        "base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        f"sys.argv = ['handrec', 'validate', {str(p)!r}]\n"
        "try:\n    runpy.run_module('handrec.cli', run_name='__main__')\n"
        "except SystemExit as e:\n    code = e.code\n"
        "print('GREW', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base, file=sys.stderr)\n"
        "sys.exit(code)\n"
    )
    res = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    assert res.returncode == 1
    assert (
        f"{p}:2:29: F024 error: the text of CLUB_NAME exceeds the limit of 1048576 characters: reading stopped,"
        " the file is not read" in res.stdout
    )
    grew_kib = int(res.stderr.split("GREW")[1].split()[0])  # the peak's growth while reading (KiB, Linux)
    assert grew_kib < 40 * 1024  # far below the 100 MB the node holds


def test_bad_utf8_is_a_positioned_fault_and_the_whole_lines_before_are_kept(tmp_path: Path) -> None:
    bad = GOOD.replace(b"<SCORE>-50</SCORE>", b"<SCORE>-5\xff0</SCORE>")
    boards, diags = parse_usebio_bytes(HEAD + bad, "bad.xml")
    col = (HEAD + bad).split(b"\n")[3].index(b"\xff") + 1  # at the bad byte
    assert [str(d) for d in diags] == [
        f"bad.xml:4:{col}: F022 error: XML is not well-formed: not well-formed (invalid token)"
    ]
    assert [b.tag("Score") for b in boards] == ["NS 400"]  # the line cut by the fault is not read


def test_a_truncated_file_keeps_its_complete_traveller_lines(tmp_path: Path) -> None:
    data = HEAD + GOOD
    cut = data[: data.index(b"<TRICKS>8")]
    boards, diags = parse_usebio_bytes(cut, "cut.xml")
    assert [d.code for d in diags] == ["F022"] and diags[0].message.endswith("no element found")
    assert [(b.tag("PairNS"), b.tag("Score")) for b in boards] == [("1", "NS 400")]


def test_mismatched_tag_and_garbage_never_raise(tmp_path: Path) -> None:
    for data in (
        b"<USEBIO><CLUB></EVENT></USEBIO>",
        b"<USEBIO",
        b"",
        b"\x00\x01<<<>>>",
        HEAD + b"<USEBIO>&#0;</USEBIO>",
    ):
        boards, diags = parse_usebio_bytes(data, "g.xml")
        assert boards == [] and [d.code for d in diags][:1] == ["F022"]
    boards, diags = parse_usebio_bytes(b"<USEBIO><CLUB></EVENT></USEBIO>", "g.xml")
    assert [str(d) for d in diags] == ["g.xml:1:17: F022 error: XML is not well-formed: mismatched tag"]


def test_a_document_over_the_board_size_limit_is_not_read(tmp_path: Path) -> None:
    p = tmp_path / "large.xml"
    p.write_bytes(HEAD + GOOD + b"<!--" + b" " * 8000 + b"-->")
    res = runner.invoke(app, ["validate", str(p), "--max-board-size", "4K"])
    assert res.exit_code == 1
    assert (
        "F024 error: the USEBIO document (read whole: its hand records come last) exceeds the limit of 4096 bytes"
        in res.output
    )
    res = runner.invoke(app, ["validate", str(p)])
    assert res.exit_code == 0 and "2 boards" in res.output
