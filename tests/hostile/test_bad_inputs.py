"""The bad-input suite: each hostile or broken input with the exact diagnostics ``handrec validate`` gives.

Every case runs the real command (``validate --info --strict``: every
diagnostic shows) on one file and compares the whole output, with the
file's path written ``{f}``, and the exit status.  These positions and
codes are the contract: a reader rewrite must keep them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handrec.cli import app

runner = CliRunner()

#: A clean PBN game with its full play (2H by W making 9).
BASE = """[Event "Club"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:J3.53.KQJ852.J63 K976.9.AT6.AKQT4 AT8.KT764.74.752 Q542.AQJ82.93.98"]
[Declarer "W"]
[Contract "2H"]
[Result "9"]
[Score "NS -140"]
[Auction "N"]
Pass 1C Pass 1H
Pass 2C Pass 2H
Pass Pass Pass
[Play "N"]
DK DA D4 D3
C3 CA C2 C8
S3 SK SA S2
H3 H9 HK HA
H5 C4 H4 H2
D5 D6 D7 D9
SJ S6 S8 S5
D2 DT H6 H8
C6 S7 ST SQ
CJ CT H7 HQ
D8 S9 HT S4
DJ CQ C7 C9
DQ CK C5 HJ
"""

#: A clean LIN record: 2S by E, three tricks played, then a claim of 6 more.
LIN = (
    "pn|Hal,Fay,Dan,Eve|st||md|3S875HT93D763CQ532,SJ4HQ764DK52CT986,SAQ6HAKJ5DJ8CKJ74,SKT932H82DAQT94CA|"
    "rh||ah|Board 1|sv|o|mb|1H|mb|1S|mb|p|mb|1N|mb|2H|mb|2S|mb|p|mb|p|mb|p|pg||pc|C2|pc|C8|pc|CJ|pc|CA|pg||"
    "pc|SK|pc|S5|pc|S4|pc|SA|pg||mc|6|\n"
)

DEAL = "N:J3.53.KQJ852.J63 K976.9.AT6.AKQT4 AT8.KT764.74.752 Q542.AQJ82.93.98"


def _pbn(old: str, new: str) -> bytes:
    assert old in BASE
    return BASE.replace(old, new, 1).encode()


def _lin(old: str, new: str) -> bytes:
    assert old in LIN
    return LIN.replace(old, new, 1).encode()


def validate(tmp_path: Path, name: str, data: bytes, *args: str) -> tuple[list[str], int]:
    f = tmp_path / name
    f.write_bytes(data)
    r = runner.invoke(app, ["validate", "--info", "--strict", *args, str(f)])
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    return r.stdout.replace(str(f), "{f}").splitlines(), r.exit_code


#: The F018 warning of a file read to its end without a board.
_NO_BOARD = "{{f}}: F018 warning: no board in this {} file"

# (id, file name, bytes, expected output lines, exit status)
CASES = [
    # --- empty and header-only files -------------------------------------------------------
    ("zero-byte .pbn", "empty.pbn", b"", [_NO_BOARD.format("PBN"), "1 files, 0 boards, 0 errors, 1 warnings"], 0),
    ("zero-byte .lin", "empty.lin", b"", [_NO_BOARD.format("LIN"), "1 files, 0 boards, 0 errors, 1 warnings"], 0),
    # (an empty input is an empty PBN file whatever its name, as an empty standard input)
    ("zero-byte, no extension", "empty", b"", [_NO_BOARD.format("PBN"), "1 files, 0 boards, 0 errors, 1 warnings"], 0),
    (
        "PBN header only",
        "h.pbn",
        b"% PBN 2.1\r\n% EXPORT\r\n",
        [_NO_BOARD.format("PBN"), "1 files, 0 boards, 0 errors, 1 warnings"],
        0,
    ),
    (
        "LIN header only",
        "h.lin",
        b"pn|a,b,c,d|st||",
        [_NO_BOARD.format("LIN"), "1 files, 0 boards, 0 errors, 1 warnings"],
        0,
    ),
    # --- binary ------------------------------------------------------------------------------
    (
        "PNG named .pbn",
        "pic.pbn",
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10[Event ",
        [
            "{f}: F004 error: not PBN or LIN: no PBN tag pair or LIN command found",
            "1 files (1 unreadable), 0 boards, 1 errors, 0 warnings",
        ],
        2,
    ),
    (
        "ELF named .lin",
        "prog.lin",
        b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 4,
        [
            "{f}: F004 error: not PBN or LIN: no PBN tag pair or LIN command found",
            "1 files (1 unreadable), 0 boards, 1 errors, 0 warnings",
        ],
        2,
    ),
    (
        "UTF-16 with a byte-order mark",
        "u16.pbn",
        BASE.encode("utf-16"),
        [
            "{f}: F004 error: not PBN or LIN: UTF-16 text: save it as UTF-8 (or ISO-8859-1) and read it again",
            "1 files (1 unreadable), 0 boards, 1 errors, 0 warnings",
        ],
        2,
    ),
    # --- encodings ---------------------------------------------------------------------------
    (
        "invalid UTF-8 (a Latin-1 byte)",
        "latin.pbn",
        _pbn('[Event "Club"]', '[Event "Caf\xe9"]'.encode("latin-1").decode("latin-1")).replace(
            "Café".encode(), b"Caf\xe9"
        ),
        ["{f}:1:1: F002 info: bytes not valid UTF-8: decoded as ISO-8859-1", "1 files, 1 boards, 0 errors, 0 warnings"],
        0,
    ),
    (
        "mixed UTF-8 and Latin-1 lines",
        "mixed.pbn",
        _pbn('[Event "Club"]', '[Event "Müller"]\n[Site "M\x00ller"]').replace(b"\x00", b"\xfc"),
        ["{f}:2:1: F002 info: bytes not valid UTF-8: decoded as ISO-8859-1", "1 files, 1 boards, 0 errors, 0 warnings"],
        0,
    ),
    (
        "UTF-8 byte-order mark",
        "bom.pbn",
        b"\xef\xbb\xbf" + _pbn('[Vulnerable "None"]', '[Vulnerable "NS"]'),
        ["{f}:4:1: T104 warning: Vulnerable NS but board 1 is None", "1 files, 1 boards, 0 errors, 1 warnings"],
        0,
    ),
    # --- comments, strings, nesting, tag values ------------------------------------------------
    (
        "unterminated brace comment",
        "open.pbn",
        _pbn('[Auction "N"]', '{ never closed\n[Auction "N"]'),
        [
            "{f}:10:1: F005 error: brace comment not closed before end of file: the 2 tags after it (Auction and Play)"
            " are read as comment",
            "1 files, 1 boards, 1 errors, 0 warnings",
        ],
        1,
    ),
    (
        "unterminated string",
        "string.pbn",
        _pbn('[Event "Club"]', '[Event "Club]'),
        [
            "{f}:1:1: F003 error: syntax error: cannot read a tag pair (unterminated string or missing ']'); "
            "rest of line skipped",
            "1 files, 1 boards, 1 errors, 0 warnings",
        ],
        1,
    ),
    (
        "deeply nested braces",
        "nested.pbn",
        _pbn('[Event "Club"]', '[Event "Club"]\n' + "{" * 50_000 + "}" * 50_000),
        [
            "{f}:2:1: F026 warning: line is 100001 characters long counting a one-character line end; PBN allows 255",
            "{f}:2:50002: F006 warning: unknown token '" + "}" * 170 + "... (49999 chars)' ignored",
            "1 files, 1 boards, 0 errors, 2 warnings",
        ],
        0,
    ),
    (
        "brackets and quotes in tag values",
        "quotes.pbn",
        _pbn('[Event "Club"]', '[Event "a ] b [c] \\"d\\" {e} ;f"]\n[Site "x"] ]'),
        ["{f}:2:12: F006 warning: unknown token ']' ignored", "1 files, 1 boards, 0 errors, 1 warnings"],
        0,
    ),
    (
        "control characters",
        "ctrl.pbn",
        _pbn('[Event "Club"]', '[Event "a\x00b\x07c\x1b[31md"]\n\x1b]0;title\x07'),
        [
            "{f}:1:1: T121 warning: Event value 'a\\x00b\\x07c\\x1b[31md' is not in PBN form: text without tabs or "
            "control characters (it holds the control character U+0000)",
            "{f}:2:1: F006 warning: unknown token '\\x1b]0' ignored",
            "1 files, 1 boards, 0 errors, 2 warnings",
        ],
        0,
    ),
    # --- cards -------------------------------------------------------------------------------
    (
        "53 cards",
        "c53.pbn",
        _pbn(DEAL, DEAL.replace("J3.53", "J3.532")),
        [
            "{f}:5:1: D201 error: N holds 14 cards, not 13",
            "{f}:5:1: D202 error: H2 appears in more than one hand (NW)",
            "1 files, 1 boards, 2 errors, 0 warnings",
        ],
        1,
    ),
    (
        "51 cards",
        "c51.pbn",
        _pbn(DEAL, DEAL.replace("J3.53", "J3.5")),
        [
            "{f}:5:1: D201 error: N holds 12 cards, not 13",
            "{f}:5:1: D203 error: the deal lacks H3",
            "1 files, 1 boards, 2 errors, 0 warnings",
        ],
        1,
    ),
    (
        "duplicate card",
        "dup.pbn",
        _pbn(DEAL, DEAL.replace("J3.53", "J3.5A")),
        [
            "{f}:5:1: D202 error: HA appears in more than one hand (NW)",
            "{f}:5:1: D203 error: the deal lacks H3",
            "1 files, 1 boards, 2 errors, 0 warnings",
        ],
        1,
    ),
    # --- auction and play --------------------------------------------------------------------
    (
        "auction after its end",
        "late.pbn",
        _pbn("Pass Pass Pass\n", "Pass Pass Pass 3NT\n"),
        ["{f}:13:16: A304 error: 3NT by W comes after the auction ended", "1 files, 1 boards, 1 errors, 0 warnings"],
        1,
    ),
    (
        "play after the end of play (PBN '*')",
        "star.pbn",
        _pbn("H3 H9 HK HA\n", "*\nH3 H9 HK HA\n"),
        [
            "{f}:19:1: F003 error: syntax error: 'H3' after the play's end marker '*'",
            "1 files, 1 boards, 1 errors, 0 warnings",
        ],
        1,
    ),
    pytest.param(
        "claim.lin",
        _lin("mc|6|", "mc|6|pc|HA|"),
        [
            "{f}:1:235: P404 error: 1 cards played after the last trick or claim",
            "1 files, 1 boards, 1 errors, 0 warnings",
        ],
        1,
        id="play after a claim (LIN)",
    ),
    (
        "more than 13 tricks",
        "t14.pbn",
        _pbn("DQ CK C5 HJ\n", "DQ CK C5 HJ\nSA SK SQ SJ\n"),
        [
            "{f}:28:10: P404 error: 4 cards played after the last trick or claim",
            "1 files, 1 boards, 1 errors, 0 warnings",
        ],
        1,
    ),
    # --- LIN ---------------------------------------------------------------------------------
    (
        "LIN missing pipe between pairs",
        "pipes.lin",
        _lin("|sv|o|mb|1H|", "|sv|o|mb1H|"),
        [
            "{f}:1:120: F003 error: syntax error: 'mb1H|' is not a cmd|value| pair",
            # without the 1H opening E declares and S leads: the replay follows the hand that led
            "{f}:1:173: P408 error: C2 was led by S, but E is the opening leader",
            "1 files, 1 boards, 2 errors, 0 warnings",
        ],
        1,
    ),
    (
        "LIN missing last pipe",
        "last.lin",
        _lin("mc|6|", "mc|6"),
        [
            "{f}:1:230: F003 error: syntax error: pair 'mc|6' has no closing '|'",
            "1 files, 1 boards, 1 errors, 0 warnings",
        ],
        1,
    ),
    (
        "LIN unknown commands",
        "unknown.lin",
        _lin("|rh||", "|rh||zz|what|"),
        ["{f}:1:104: F007 warning: unknown LIN command 'zz' kept", "1 files, 1 boards, 0 errors, 1 warnings"],
        0,
    ),
    (
        "truncated hand-viewer URL",
        "url.lin",
        b"https://www.bridgebase.com/tools/handviewer.html?lin=" + LIN.encode()[:120].replace(b"|", b"%7C") + b"\n",
        [
            "{f}:1:157: F003 error: syntax error: pair 'ah|Board' has no closing '|'",
            "1 files, 1 boards, 1 errors, 0 warnings",
        ],
        1,
    ),
]


def _param(c):
    return c if hasattr(c, "marks") else pytest.param(*c[1:], id=c[0])


@pytest.mark.parametrize(("name", "data", "expected", "status"), [_param(c) for c in CASES])
def test_bad_input(tmp_path: Path, name: str, data: bytes, expected: list[str] | None, status: int) -> None:
    lines, code = validate(tmp_path, name, data)
    assert lines == expected
    assert code == status


def test_a_50_mb_line_is_cut_at_the_line_limit(tmp_path: Path) -> None:
    """One line of 50 MB (a tag value that never ends): streamed, cut at 1 MiB, the next lines read as usual."""
    f = tmp_path / "huge.pbn"
    chunk = b"x" * (1 << 20)
    with open(f, "wb") as out:
        out.write(b'[Board "1"]\n[Event "')
        for _ in range(50):
            out.write(chunk)
        out.write(b'"]\n' + BASE.split("\n", 2)[2].encode())  # the rest of the game after its Board tag
    assert f.stat().st_size > 50_000_000
    r = runner.invoke(app, ["validate", str(f)])
    assert r.stdout.replace(str(f), "{f}").splitlines() == [
        "{f}:2:1: F003 error: syntax error: cannot read a tag pair (unterminated string or missing ']'); "
        "rest of line skipped",
        "{f}:2:1048577: F013 error: line 2 is longer than the limit of 1048576 bytes: the rest of it is skipped",
        "1 files, 1 boards, 2 errors, 0 warnings",
    ]
    assert r.exit_code == 2  # part of the input was not read


def test_the_line_limit_is_configurable(tmp_path: Path) -> None:
    f = tmp_path / "long.pbn"
    f.write_text('[Board "1"]\n[Event "' + "x" * (2 << 20) + '"]\n' + BASE.split("\n", 2)[2])
    r = runner.invoke(app, ["validate", str(f)])
    assert r.stdout.splitlines()[-1] == "1 files, 1 boards, 2 errors, 0 warnings"
    r = runner.invoke(app, ["validate", "--max-line-size", "3M", str(f)])
    assert r.stdout.splitlines()[-1] == "1 files, 1 boards, 0 errors, 0 warnings"
    assert r.exit_code == 0
    r = runner.invoke(app, ["validate", "--max-line-size", "1000", str(f)])
    assert r.stdout.replace(str(f), "{f}").splitlines()[1] == (
        "{f}:2:1001: F013 error: line 2 is longer than the limit of 1000 bytes: the rest of it is skipped"
    )


def test_tag_values_with_brackets_and_quotes_are_read_literally() -> None:
    import io

    from handrec.formats.dispatch import read

    text = BASE.replace('[Event "Club"]', '[Event "a ] b [c] \\"d\\" {e} ;f"]\n[Site "x"] ]')
    (b,) = read(io.StringIO(text))
    assert b.tag("Event") == 'a ] b [c] "d" {e} ;f'
    assert b.tag("Site") == "x"


def test_control_characters_never_reach_the_terminal(tmp_path: Path) -> None:
    """A member name with an escape sequence or a line end is printed escaped: no forged output line."""
    import zipfile

    z = tmp_path / "names.zip"
    bad = BASE.replace('[Score "NS -140"]', '[Score "NS -150"]')
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("a\x1b[2J.pbn", bad)
        zf.writestr("b\nfake.pbn:1:1: S601 error: forged.pbn", bad)
    r = runner.invoke(app, ["validate", str(z)])
    assert r.exit_code == 1
    lines = r.stdout.replace(str(z), "{z}").splitlines()
    assert lines == [
        "{z}!a\\x1b[2J.pbn:9:1: S601 error: Score NS -150 but 2H by W taking 9 tricks scores NS -140",
        "{z}!b\\nfake.pbn:1:1: S601 error: forged.pbn:9:1: S601 error: Score NS -150 but 2H by W taking 9 tricks "
        "scores NS -140",
        "2 files, 2 boards, 2 errors, 0 warnings",
    ]
    assert "\x1b" not in r.stdout


@pytest.mark.parametrize(
    "command",
    [["score"], ["export", "--to", "pbn", "-o", "{out}.pbn"], ["booklet", "-o", "{out}.html"]],
)
def test_unreadable_inputs_are_printed_escaped_by_every_command(tmp_path: Path, command: list[str]) -> None:
    """score, export and booklet print an unreadable input's fault as validate does: control
    characters in its name escaped, never sent to the terminal."""
    import zipfile

    z = tmp_path / "names.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("good.pbn", BASE)
        zf.writestr("a\x1b[2J.pbn", b"\x89PNG\r\n\x1a\n\x00 not a bridge file")
    args = [a.replace("{out}", str(tmp_path / "out")) for a in command]
    r = runner.invoke(app, [args[0], str(z), *args[1:]])
    assert r.exit_code == 2, r.output
    assert "\x1b" not in r.stderr
    assert f"{z}!a\\x1b[2J.pbn: F004 error: " in r.stderr


def test_huge_numbers_never_overflow_the_parquet_columns(tmp_path: Path) -> None:
    """Regression: ``[Board "2147483648"]`` made convert die with ArrowInvalid (int32 column)."""
    import pyarrow.parquet as pq

    src = tmp_path / "in"
    src.mkdir()
    big = "99999999999999999999"
    (src / "b.pbn").write_text(
        BASE.replace('[Board "1"]', '[Board "2147483648"]')
        + f'\n[Event "Club"]\n[Board "{big}"]\n[Score "NS {big}"]\n[Table "{big}"]\n[Round "{big}"]\n',
        encoding="utf-8",
    )
    (src / "b.lin").write_text(f"qx|o{big}|ah|Board {big}|mc|{big}|rs|4SN{big}|\n", encoding="utf-8")
    r = runner.invoke(app, ["validate", str(src / "b.pbn")])
    assert r.stdout.splitlines()[0] == (
        f"{src / 'b.pbn'}:2:1: T121 warning: Board value '2147483648' is not in PBN form: "
        "a positive integer of at most 9 digits"
    )
    out = tmp_path / "ds"
    r = runner.invoke(app, ["convert", str(src), "-o", str(out), "-q"])
    assert r.exit_code == 0, r.output
    boards = pq.read_table(out / "boards.parquet").to_pylist()
    assert [(b["board"], b["board_label"]) for b in boards if b["format"] == "pbn"] == [
        (None, "2147483648"),
        (None, big),
    ]
    # a Score of 20 digits is no score: null in the typed column (the tag keeps its text)
    assert [b["file_score_ns"] for b in boards if b["format"] == "pbn"][1] is None
    files = pq.read_table(out / "files.parquet").to_pylist()
    assert sum(f["boards"] for f in files) == len(boards)


@pytest.mark.parametrize("multiplicity", ["99999999999999999999", "300000000"])
def test_a_huge_multiplicity_is_a_fault_not_a_list_of_results(tmp_path: Path, multiplicity: str) -> None:
    """Regression (a new-user test): a ScoreTable row's Multiplicity was expanded into a list of results,
    so a 20-digit one was an OverflowError traceback in score, convert and booklet, and 300 million ate
    gigabytes.  Now over 10,000 tables it is T124 and the row counts once."""
    f = tmp_path / "mult.pbn"
    f.write_text(
        '[Event "e"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
        '[Deal "N:AKQJ.AKQ.AKQ.AKQ 5432.5432.J.JT98 T987.T987.T9.765 6.J6.8765432.432"]\n'
        f'[ScoreTable "Score_NS;Multiplicity"]\n1520 {multiplicity}\n1020 1\n'
    )
    r = runner.invoke(app, ["validate", str(f)])
    assert r.stdout.splitlines() == [
        f"{f}:7:6: T124 warning: ScoreTable Multiplicity element '{multiplicity}' is not valid: "
        "a count of tables from 1 to 10,000",
        "1 files, 1 boards, 0 errors, 1 warnings",
    ]
    s = runner.invoke(app, ["score", str(f), "-m", "mp", "--format", "json"])
    assert s.exit_code == 0, s.output
    (trav,) = json.loads(s.stdout)["events"][0]["travellers"]
    assert [(e["score_ns"], e["multiplicity"], e["mp_ns"]) for e in trav["entries"]] == [(1520, 1, 1), (1020, 1, 0)]
    for args in (
        ["convert", str(f), "-o", str(tmp_path / "ds"), "-q"],
        ["booklet", str(f), "-o", str(tmp_path / "b.pdf")],
    ):
        assert runner.invoke(app, args).exit_code == 0
