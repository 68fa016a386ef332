"""Diagnostics: the one registry of fault codes, and the Diagnostic record.

Every fault handrec reports has a stable code listed in :data:`CODES`.  The
first letter gives the kind:

* ``F`` file and format (unreadable input, encoding, syntax),
* ``T`` tags and values (malformed or disagreeing tag values),
* ``D`` deal (cards),
* ``A`` auction,
* ``P`` play,
* ``C`` contract and result,
* ``S`` score.

A diagnostic prints compiler style: ``path:line:col: CODE severity: message``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from handrec.model import Origin, Span

__all__ = ["Severity", "Code", "CODES", "Diagnostic", "make", "DiagnosticError"]


class Severity(enum.IntEnum):
    """How bad a fault is.  Errors make ``handrec validate`` exit 1."""

    INFO = 0
    WARNING = 1
    ERROR = 2

    def __str__(self) -> str:
        return self.name.lower()


@dataclass(frozen=True, slots=True)
class Code:
    """A registered diagnostic code: its severity, title and message template.

    ``source`` names the rule: a Law, a PBN section or a spec section.
    ``strict`` codes report what the standard allows readers to skip (an
    unknown tag, an unknown LIN command): ``handrec validate`` shows them
    only under ``--strict``, where they count as warnings.
    """

    code: str
    severity: Severity
    title: str
    template: str
    source: str
    strict: bool = False


def _c(code: str, sev: Severity, title: str, template: str, source: str, strict: bool = False) -> Code:
    return Code(code, sev, title, template, source, strict)


E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO

#: Every diagnostic code handrec can emit, by code.
CODES: dict[str, Code] = {
    c.code: c
    for c in [
        # --- file and format -------------------------------------------------
        _c("F001", E, "unreadable input", "cannot read input: {reason}", "handrec"),
        _c(
            "F002",
            I,
            "not UTF-8",
            "bytes not valid {encoding}: decoded as {fallback}",
            "PBN 2.1 §2 (PBN's character set is ISO-8859-1)",
        ),
        _c("F003", E, "syntax error", "syntax error: {detail}", "PBN 2.1 §3 / lin.md §1"),
        _c("F004", E, "unknown format", "not PBN or LIN: {reason}", "handrec"),
        _c("F005", E, "unterminated comment", "brace comment not closed before end of file", "PBN 2.1 §3.8"),
        _c("F006", W, "unknown token", "unknown token {token!r} ignored", "PBN 2.1 §3.5"),
        _c("F007", I, "unknown LIN command", "unknown LIN command {command!r} kept", "lin.md §3", strict=True),
        _c("F008", E, "unsafe archive member", "archive member {member!r} refused: {reason}", "handrec (archives)"),
        _c("F009", W, "archive entry skipped", "archive entry {member!r} skipped: {reason}", "handrec (archives)"),
        _c(
            "F010",
            E,
            "size limit exceeded",
            "{what} exceeds the size limit of {limit} bytes: {action}",
            "handrec (archives)",
        ),
        _c("F011", W, "stray pipe", "stray {token!r} ignored", "lin.md §1, §10"),
        _c("F012", I, "LIN undo", "{command!r} takes back {what}", "lin.md §3"),
        _c(
            "F013",
            E,
            "line too long",
            "line {line} is longer than the limit of {limit} bytes: the rest of it is skipped",
            "handrec (limits)",
        ),
        _c("F014", W, "special file skipped", "{kind} skipped: not a regular file", "handrec (folders)"),
        _c(
            "F016",
            E,
            "board too large",
            "board starting at line {line} is larger than the limit of {limit} bytes: not read",
            "handrec (limits)",
        ),
        _c(
            "F017",
            W,
            "LIN record without a deal at the end",
            "{commands} after the last deal open no record (the file may be truncated): ignored",
            "lin.md §1, §8.2",
        ),
        _c("F018", W, "no board", "no board in this {format} file", "PBN 2.1 §3 / lin.md §1"),
        _c(
            "F015",
            E,
            "internal error",
            "handrec failed on this input ({error}); the rest of it is not read: please report it",
            "handrec",
        ),
        _c("F020", W, "not export format", "file says '% EXPORT' but {detail}", "PBN 2.1 §2.1-§3.5 (export format)"),
        _c(
            "F021",
            W,
            "line too long",
            "line is {length} characters long counting a CR LF line end (as export format ends lines); export format allows 255",
            "PBN 2.1 §2.3",
        ),
        # --- tags and values -------------------------------------------------
        _c("T101", E, "bad tag value", "{tag} value {value!r} is not valid: {reason}", "PBN 2.1 §3.4"),
        _c("T102", W, "repeated tag", "tag {tag} repeated; the first value is kept", "PBN 2.1 §3.3"),
        _c(
            "T103",
            W,
            "dealer disagrees with board number",
            "Dealer {value} but board {board} is dealt by {expected}",
            "Law 2; bridge-rules.md §4.11",
        ),
        _c(
            "T104",
            W,
            "vulnerability disagrees with board number",
            "Vulnerable {value} but board {board} is {expected}",
            "Law 2; bridge-rules.md §4.11",
        ),
        _c(
            "T105",
            W,
            "non-standard spelling",
            "{tag} value {value!r} is not standard PBN; read as {read!r}",
            "PBN 2.1 §3.4",
        ),
        _c(
            "T106",
            E,
            "auction seat disagrees with dealer",
            "Auction starts at {value} but the dealer is {dealer}",
            "PBN 2.1 §3.5",
        ),
        _c("T107", E, "note reference without note", "note ={index}= has no Note tag", "PBN 2.1 §3.5"),
        _c("T108", W, "no board number", "board has no Board tag or number", "PBN 2.1 §3.4.4"),
        _c("T120", W, "unknown tag", "unknown tag {tag!r} kept", "PBN 2.1 §4.9", strict=True),
        _c(
            "T121",
            W,
            "tag value not in PBN form",
            "{tag} value {value!r} is not in PBN form: {expected}",
            "PBN 2.1 §3.4, §4",
        ),
        _c(
            "T122",
            W,
            "tag name case",
            "tag name {name!r} read as {read!r}: tag names are case-sensitive",
            "PBN 2.1 §3.3",
        ),
        _c("T123", W, "bad table column", "{table} column {column!r} is not valid: {reason}", "PBN 2.1 §3.2, §5.2"),
        _c("T124", W, "bad table element", "{table} {column} element {value!r} is not valid: {reason}", "PBN 2.1 §5"),
        _c("T125", W, "bad table layout", "{table}: {detail}", "PBN 2.1 §5.1-§5.2"),
        _c(
            "T126",
            W,
            "repeated note index",
            "Note {index} given twice in the {section} section; the first is kept",
            "PBN 2.1 §3.5.5",
        ),
        _c(
            "T127",
            W,
            "tags disagree",
            "{tag} {value!r} disagrees with {other}: {detail}",
            "PBN 2.1 §4.2.6, §5.7; pbn.md §17",
        ),
        _c("T128", W, "bad annotation", "{token!r} {reason}", "PBN 2.1 §3.5.2, §3.6.2, §3.7"),
        # --- deal ------------------------------------------------------------
        _c("D201", E, "wrong number of cards", "{seat} holds {count} cards, not 13", "Law 1; PBN 2.1 §3.4.11"),
        _c("D202", E, "duplicate card", "{card} appears in more than one hand ({seats})", "Law 1"),
        _c("D203", E, "missing cards", "the deal lacks {cards}", "Law 1"),
        _c(
            "D204",
            I,
            "partial deal",
            "the deal gives {given} of 52 cards; rules checks that need the full deal are skipped",
            "PBN 2.1 §3.10",
        ),
        _c("D205", E, "no deal", "board has no deal", "PBN 2.1 §3.4.11"),
        # --- double dummy (handrec validate --dd: the file's values against the solver) ---
        _c(
            "D210",
            E,
            "wrong double-dummy tricks",
            "{tag} disagrees with the double-dummy solver: {detail}",
            "pbn.md §17 (DoubleDummyTricks, Ability); PBN 2.1 §5.7 (OptimumResultTable)",
        ),
        _c(
            "D211",
            E,
            "wrong par score",
            "{tag} {value!r} but the par of the solved deal is {expected}",
            "PBN 2.1 §4.2.7 (OptimumScore); pbn.md §17",
        ),
        _c(
            "D212",
            E,
            "wrong par contract",
            "ParContract {value!r} but the par contracts of the solved deal are {expected!r}",
            "pbn.md §17 (ParContract)",
        ),
        _c("D213", I, "double dummy not checked", "{tag} not checked: {reason}", "handrec validate --dd"),
        # --- auction ---------------------------------------------------------
        _c(
            "A301",
            E,
            "insufficient bid",
            "{call} by {seat} does not outrank {previous}",
            "Law 27; bridge-rules.md §2.2",
        ),
        _c("A302", E, "illegal double", "double by {seat} is not allowed: {reason}", "Law 19A; bridge-rules.md §2.3"),
        _c(
            "A303",
            E,
            "illegal redouble",
            "redouble by {seat} is not allowed: {reason}",
            "Law 19B; bridge-rules.md §2.4",
        ),
        _c(
            "A304",
            E,
            "call after the auction ended",
            "{call} by {seat} comes after the auction ended",
            "Law 22; bridge-rules.md §2.6",
        ),
        _c("A305", W, "incomplete auction", "the auction is not finished ({count} call{s})", "Law 22"),
        _c("A306", E, "bad call", "{token!r} is not a call", "PBN 2.1 §3.5"),
        # --- play ------------------------------------------------------------
        _c(
            "P401",
            E,
            "revoke",
            "{seat} played {card} to a {led} lead while holding {held}",
            "Law 61; bridge-rules.md §3.2",
        ),
        _c(
            "P402",
            E,
            "card not held",
            "{seat} played {card}, which is not in that hand",
            "Law 45; bridge-rules.md §3.2",
        ),
        _c(
            "P403",
            E,
            "wrong opening leader",
            "the play starts with {value}; the opening leader is {expected}",
            "Law 41; bridge-rules.md §2.7",
        ),
        _c("P404", E, "play after the end", "{count} cards played after the last trick or claim", "Law 68"),
        _c("P405", E, "impossible claim", "claim of {claim} tricks is impossible: {reason}", "Law 68"),
        _c("P406", E, "bad card", "{token!r} is not a card", "PBN 2.1 §3.6"),
        _c("P407", W, "play without contract", "play is given but {reason}", "PBN 2.1 §3.6"),
        _c(
            "P408",
            E,
            "lead by the wrong hand",
            "{card} was led by {holder}, but {expected} {why}",
            "Law 44G, Law 53; lin.md §6",
        ),
        # --- contract and result ----------------------------------------------
        _c(
            "C501",
            E,
            "contract disagrees with auction",
            "Contract {value} but the auction ends in {expected}",
            "Law 22; bridge-rules.md §2.6",
        ),
        _c(
            "C502",
            E,
            "declarer disagrees with auction",
            "Declarer {value} but {expected} first named {strain} for the declaring side",
            "Law 22; bridge-rules.md §2.7",
        ),
        _c(
            "C503",
            E,
            "result disagrees with play",
            "Result {value} but declarer took {expected} tricks in the play",
            "Law 79; PBN 2.1 §3.4.15",
        ),
        _c("C504", E, "impossible result", "Result {value} is not a number of tricks from 0 to 13", "PBN 2.1 §3.4.15"),
        _c(
            "C505", E, "result for a passed-out board", "Result {value} given for a passed-out board", "PBN 2.1 §3.4.15"
        ),
        _c(
            "C506",
            E,
            "rs result disagrees with the table",
            "rs result {value!r} but the auction and play give {expected!r}",
            "lin.md §7; Laws 22, 79",
        ),
        _c(
            "C507",
            E,
            "result impossible after the play",
            "Result {value} but declarer won {won} and the defenders {lost} of the {played} tricks played:"
            " the result can only be {low} to {high}",
            "Laws 71, 79A; PBN 2.1 §3.4.15",
        ),
        # --- score -----------------------------------------------------------
        _c(
            "S601",
            E,
            "score disagrees",
            "Score {value} but {contract} by {declarer} taking {tricks} tricks scores {expected}",
            "Law 77; bridge-rules.md §4",
        ),
        _c("S602", E, "bad score value", "Score value {value!r} cannot be read", "PBN 2.1 §4.2"),
        _c(
            "S603",
            E,
            "ScoreMP disagrees",
            "ScoreMP {value} but {detail} gives {expected}",
            "PBN 2.1 §4.2.3; bridge-rules.md §8.3",
        ),
        _c(
            "S604",
            E,
            "ScoreIMP disagrees",
            "ScoreIMP {value} but {detail} gives {expected}",
            "PBN 2.1 §4.2.2; bridge-rules.md §8.1-8.5",
        ),
        _c(
            "S605",
            E,
            "ScorePercentage disagrees",
            "ScorePercentage {value} but {detail} gives {expected}",
            "PBN 2.1 §4.2.4; bridge-rules.md §8.3",
        ),
        _c(
            "S606",
            E,
            "ScoreRubber disagrees",
            "ScoreRubber {value} but {detail} scores {expected} (above/below the line)",
            "PBN 2.1 §4.2.5; bridge-rules.md §5-6",
        ),
        _c(
            "S607",
            E,
            "ScoreTable row disagrees",
            "ScoreTable row {row} {column} {value} but {detail} gives {expected}{note}",
            "PBN 2.1 §5.3 (ScoreTable); bridge-rules.md §4, §8",
        ),
        _c(
            "S608",
            E,
            "TotalScoreTable row disagrees",
            "TotalScoreTable row {row} {column} {value} but {detail} gives {expected}{note}",
            "PBN 2.1 §5.3 (TotalScoreTable); bridge-rules.md §8.3",
        ),
        _c("S609", W, "bad claimed score", "{tag} value {value!r} cannot be read", "PBN 2.1 §4.2"),
        _c(
            "S610",
            I,
            "claimed figures not checked",
            "claimed event figures (ScoreMP, ScoreTable...) not checked: the input has more than {limit} boards",
            "handrec (convert memory bound)",
        ),
        _c(
            "S611",
            W,
            "ScoreTable percentage by another formula",
            "ScoreTable row {row} {column} {value} is {note}, not 100 * MP / top over {detail} ({expected})",
            "PBN 2.1 §5.3 (ScoreTable Percentage); bridge-rules.md §8.3",
        ),
        _c(
            "S612",
            W,
            "pair plays a board twice",
            "{direction} pair {pair} plays board {board} a second time (also at line {other})",
            "Law 15A (a board played a second time); bridge-rules.md §8.3",
        ),
        _c(
            "S613",
            W,
            "fouled board",
            "board {board} was played with a different deal from the game at line {other} (a fouled board):"
            " the results of each deal are scored apart",
            "Law 87 (fouled board); bridge-rules.md §8.3",
        ),
        _c(
            "S614",
            W,
            "board given twice",
            "board {board} is given again with the same deal, without players or result (also at line {other})",
            "Law 2 (a board's number); PBN 2.1 §3.4.4",
        ),
        _c(
            "S615",
            W,
            "board played with a different dealer or vulnerability",
            "board {board} was played with {detail} as in the game at line {other} (a fouled board):"
            " the results of each are scored apart",
            "Law 87A (fouled board); bridge-rules.md §8.3",
        ),
        _c(
            "S616",
            E,
            "impossible claimed score",
            "{tag} {value} is impossible: {detail}",
            "PBN 2.1 §4.2.2-4.2.4; bridge-rules.md §8",
        ),
    ]
}


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One fault found in an input.

    ``line`` and ``column`` are 1-based file positions (column 0 when the
    fault belongs to a whole board or file); ``board`` is the 0-based index
    of the board in its file (``None`` for file-level faults).
    """

    code: str
    severity: Severity
    message: str
    path: str
    line: int
    column: int
    board: int | None = None

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}: {self.code} {self.severity}: {self.message}"

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready mapping (severity as its lower-case name; ``board_index`` is
        :attr:`board`, the 0-based position of the board in its file)."""
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "code": self.code,
            "severity": str(self.severity),
            "message": self.message,
            "board_index": self.board,
        }


class DiagnosticError(ValueError):
    """Raised by strict readers: carries the first error diagnostic."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(str(diagnostic))
        self.diagnostic = diagnostic


#: Longest text an argument puts in a message: a longer one (a junk token of a megabyte) is cut, with its length.
MAX_ARG_CHARS = 200


def _short(value: object) -> object:
    """``value``, or a string cut to :data:`MAX_ARG_CHARS` characters ending in ``... (N chars)``."""
    if isinstance(value, str) and len(value) > MAX_ARG_CHARS:
        return f"{value[: MAX_ARG_CHARS - 30]}... ({len(value)} chars)"
    return value


def make(
    code: str, origin: Origin | None, span: Span | None = None, *, path: str | None = None, **args: object
) -> Diagnostic:
    """Build a :class:`Diagnostic` for a registered code.

    Positions: ``origin`` gives the file and the board's first line;
    ``span`` a block-relative position (its line is added to the origin's).
    Without ``origin`` (a file-level fault) pass ``path``; line and column
    then come from ``span`` as absolute values, or 0.  A string argument
    longer than :data:`MAX_ARG_CHARS` is cut (input text never makes a
    message of a megabyte).

    :raises KeyError: for an unregistered code (a programming error).

    >>> from handrec.model import Origin, Span
    >>> str(make("A301", Origin("f.pbn", line=10), Span(3, 5), call="1D", seat="E", previous="1S"))
    'f.pbn:12:5: A301 error: 1D by E does not outrank 1S'
    """
    c = CODES[code]
    message = c.template.format(**{k: _short(v) for k, v in args.items()})
    if origin is None:
        line = span.line if span else 0
        col = span.column if span else 0
        return Diagnostic(code, c.severity, message, path or "<input>", line, col, None)
    line = origin.line + (span.line - 1 if span else 0)
    col = span.column if span else 0
    return Diagnostic(code, c.severity, message, origin.path, line, col, origin.index)
