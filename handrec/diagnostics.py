"""Diagnostics: the one registry of fault codes, and the Diagnostic record.

Every fault handrec reports has a stable code listed in :data:`CODES`.  The
first letter gives the kind:

* ``F`` file and format (unreadable input, encoding, syntax),
* ``T`` tags and values (malformed or disagreeing tag values),
* ``D`` deal (cards),
* ``A`` auction,
* ``P`` play,
* ``C`` contract and result,
* ``S`` score,
* ``U`` USEBIO structure and participants (the rules its consumers enforce, usebio.md).

A diagnostic prints compiler style: ``path:line:col: CODE severity: message``, or
``path: CODE severity: message`` for a fault of a whole file (line 0: no position).

What a faulty record yields (issue #18; docs/faulty-records.md): every value handrec
derives from a board (contract, declarer, the seat of each card played, result, score,
matchpoints) is what the record gives cleanly, what the Laws make of the fault (the Law
named in the diagnostic: Law 27A1 for A301, Law 36 for A302/A303 with C509, Law 39A for
A304, Laws 53A/55A for P408), what the record's own tags state beside a faulty auction
or play, or null; never a repair chosen by handrec.  The ``boards`` table says which
(``faults``, ``status`` and a status per value: :mod:`handrec.rules.faults`), and
``handrec score`` ranks only clean results and those the Laws give, with a note for
each left out.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: ``handrec codes`` reads CODES without the record model
    from handrec.model import Origin, Span

__all__ = ["Severity", "Code", "CODES", "STRICT_CODES", "Diagnostic", "make", "DiagnosticError"]


class Severity(enum.IntEnum):
    """How bad a fault is.  Errors make ``handrec validate`` exit 1."""

    INFO = 0
    WARNING = 1
    ERROR = 2

    def __str__(self) -> str:
        return self.name.lower()


@dataclass(frozen=True, slots=True)
class Code:
    """A registered diagnostic code: its severity, title, message template and documentation.

    ``source`` names the rule: a Law ("Law 27"), a section of the PBN 2.1 standard
    ("PBN 2.1 §3.6"), of the project's notes (``lin.md``, ``pbn.md``, ``bridge-rules.md``), or
    ``handrec`` for a limit of the tool itself.  ``rule`` says in one or two sentences what
    is checked; ``example`` is the message of one such fault (the template filled in), as
    ``handrec codes CODE`` and docs/diagnostics.md show it.  ``strict`` codes report what
    the standard allows readers to skip (an unknown tag, an unknown LIN command):
    ``handrec validate`` shows them only under ``--strict``, where they count as warnings.
    Plain strings only: ``handrec codes`` reads them without importing pyarrow or duckdb.
    """

    code: str
    severity: Severity
    title: str
    template: str
    source: str
    rule: str
    example: str
    strict: bool = False


E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO

# The registry is a table: one entry per code as Code(code, severity, title, template, source,
# rule, example[, strict]), kept compact by hand (ruff format would give each field a line).
# fmt: off
#: Every diagnostic code handrec can emit, by code.
CODES: dict[str, Code] = {
    c.code: c
    for c in [
        # --- file and format -------------------------------------------------
        Code("F001", E, "unreadable input", "cannot read input: {reason}", "handrec",
             "An input that cannot be opened or read to its end (missing, a folder without permission, a damaged "
             "archive member): what was read before the fault is kept, and the reason says where reading stopped.",
             "cannot read input: No such file or directory"),
        Code("F002", I, "not UTF-8", "bytes not valid {encoding}: decoded as {fallback}",
             "PBN 2.1 §2 (PBN's character set is ISO-8859-1)",
             "Text is read as UTF-8; a file that is not valid UTF-8 is decoded as ISO-8859-1 (Latin-1), the "
             "character set of PBN, so no byte is lost.",
             "bytes not valid UTF-8: decoded as ISO-8859-1"),
        Code("F003", E, "syntax error", "syntax error: {detail}", "PBN 2.1 §3 / lin.md §1",
             "A line the grammar cannot read (an unterminated string, a tag pair without its bracket, a LIN pair "
             "without its pipe); the rest of the board is read.",
             "syntax error: cannot read a tag pair (unterminated string or missing ']')"),
        Code("F004", E, "unknown format", "not PBN or LIN: {reason}", "handrec",
             "An input named on the command line that is neither PBN nor LIN by its content.",
             "not PBN or LIN: no tag pair and no LIN command"),
        Code("F005", E, "unterminated comment", "brace comment not closed before end of file{swallowed}",
             "PBN 2.1 §3.8",
             "A { comment must be closed by } before the end of the file; the comment is closed there.  The "
             "diagnostic stands where the comment opened and names the tags it swallows.",
             "brace comment not closed before end of file: the 3 tags after it (Declarer, Contract and Result) "
             "are read as comment"),
        Code("F006", W, "unknown token", "unknown token {token!r} ignored", "PBN 2.1 §3.5",
             "Text in a section that is no token of it (neither call, card, note reference, NAG nor comment) is "
             "ignored, and listed by export as not in the output.",
             "unknown token 'Z7' ignored"),
        Code("F007", I, "unknown LIN command", "unknown LIN command {command!r} kept", "lin.md §3",
             "A LIN command that handrec does not know is kept as it is, never a failure (shown with --strict).",
             "unknown LIN command 'zz' kept", strict=True),
        Code("F008", E, "unsafe archive member", "archive member {member!r} refused: {reason}", "handrec (archives)",
             "An archive member whose name is an absolute path or holds '..' is refused: nothing read from an input "
             "is ever used as a path.",
             "archive member '../etc/passwd' refused: '..' in path"),
        Code("F009", W, "archive entry skipped", "archive entry {member!r} skipped: {reason}", "handrec (archives)",
             "Links, devices and FIFOs inside an archive, nested archives and compressed members are not opened.",
             "archive entry 'boards/link.pbn' skipped: symbolic link"),
        Code("F010", E, "size limit exceeded", "{what} exceeds the size limit of {limit} bytes: {action}",
             "handrec (archives)",
             "A file over --max-file-size, an archive member over --max-member-size or an archive over "
             "--max-archive-size is not read (or reading stops at the limit).",
             "archive member exceeds the size limit of 1048576 bytes: not read"),
        Code("F011", W, "stray pipe", "stray {token!r} ignored", "lin.md §1, §10",
             "A LIN pipe that opens no command/value pair (a doubled or trailing '|') is ignored.",
             "stray '|' ignored"),
        Code("F012", I, "LIN undo", "{command!r} takes back {what}", "lin.md §3",
             "A LIN undo command takes back the last call or card, as the table did.",
             "'up' takes back the last call"),
        Code("F013", E, "line too long",
             "line {line} is longer than the limit of {limit} bytes: the rest of it is skipped",
             "handrec (limits)",
             "A line over --max-line-size (default 1M) is cut at the limit; the rest of the file is read.",
             "line 1 is longer than the limit of 1048576 bytes: the rest of it is skipped"),
        Code("F014", W, "special file skipped", "{kind} skipped: not a regular file", "handrec (folders)",
             "FIFOs, devices, sockets and symbolic links to nothing found inside folders are not read (reading a "
             "FIFO could block for ever); named on the command line, a link to nothing is F001.",
             "FIFO skipped: not a regular file"),
        Code("F016", E, "board too large",
             "board starting at line {line} is larger than the limit of {limit} bytes: not read",
             "handrec (limits)",
             "A board (a PBN game, a LIN deal) over --max-board-size (default 16M) is neither held in memory nor "
             "parsed; it is reported at its first line and the next board is read.",
             "board starting at line 1 is larger than the limit of 16777216 bytes: not read"),
        Code("F017", W, "LIN record without a deal at the end",
             "{commands} after the last deal open no record (the file may be truncated): ignored", "lin.md §1, §8.2",
             "LIN commands after the last deal that open no new record (no md) are ignored: the file may be cut short.",
             "mb, mb after the last deal open no record (the file may be truncated): ignored"),
        Code("F018", W, "no board", "no board in this {format} file", "PBN 2.1 §3 / lin.md §1",
             "A file of the format that holds no board at all (only comments or escape lines).",
             "no board in this PBN file"),
        Code("F015", E, "internal error",
             "handrec failed on this input ({error}); the rest of it is not read: please report it",
             "handrec",
             "A fault of handrec itself, caught so that the run goes on with the next input; please report it.",
             "handrec failed on this input (RuntimeError: boom); the rest of it is not read: please report it"),
        Code("F020", W, "not export format", "file says '% EXPORT' but {detail}", "PBN 2.1 §2.1-§3.5 (export format)",
             "A file that declares '% EXPORT' must follow export format: CR LF line ends, no tabs, an empty line "
             "between games, tags in their order.",
             "file says '% EXPORT' but a line holds a tab character"),
        Code("F021", W, "line too long",
             "line is {length} characters long counting a CR LF line end (as export format ends lines); export "
             "format allows 255",
             "PBN 2.1 §2.3",
             "Export format lines hold at most 255 characters, the CR LF line end included.",
             "line is 312 characters long counting a CR LF line end (as export format ends lines); export format "
             "allows 255"),
        Code("F022", E, "XML not well-formed", "XML is not well-formed: {detail}", "handrec (XML 1.0 §2.1)",
             "A USEBIO file must be well-formed XML (bad UTF-8, a mismatched tag, a file cut short); the "
             "traveller lines completed before the fault are read.",
             "XML is not well-formed: mismatched tag"),
        Code("F023", E, "XML construct refused", "{what} refused: {reason}", "handrec (safe XML; usebio.md)",
             "No DTD is ever loaded: a DOCTYPE internal subset, an entity declaration (billion laughs), an "
             "external entity or a reference to an entity only a DTD could declare is refused, and the file not read.",
             "DOCTYPE internal subset refused: USEBIO needs no DTD declarations (entity bombs and attribute "
             "defaults hide there)"),
        Code("F024", E, "XML limit exceeded",
             "{what} exceeds the limit of {limit}: reading stopped, the file is not read", "handrec (limits)",
             "Elements nested deeper than 32, a text over --max-line-size, or a USEBIO document over "
             "--max-board-size (it is read whole: its hand records come last) is refused: memory stays bounded.",
             "element nesting (a) exceeds the limit of 32 levels: reading stopped, the file is not read"),
        Code("F025", W, "unknown DTD named",
             "DOCTYPE {name} names the DTD {dtd!r}, which is not USEBIO's (it is not loaded: no DTD ever is)",
             "handrec (safe XML; usebio.md)",
             "A DOCTYPE may name the EBU's USEBIO DTD; one naming another DTD is read all the same, the DTD never "
             "fetched.",
             "DOCTYPE USEBIO names the DTD 'http://example.org/evil.dtd', which is not USEBIO's (it is not "
             "loaded: no DTD ever is)"),
        Code("F026", W, "line too long",
             "line is {length} characters long counting a one-character line end; PBN allows 255",
             "PBN 2.1 §2.3 (import format too)",
             "Every PBN line holds at most 255 characters with its line end, in import format too; long lines are "
             "common in the wild and readers cope, so this one is shown under --strict.  A line cut at the "
             "reading's limit (F013) is not reported again.",
             "line is 311 characters long counting a one-character line end; PBN allows 255", strict=True),
        # --- tags and values -------------------------------------------------
        Code("T101", E, "bad tag value", "{tag} value {value!r} is not valid: {reason}", "PBN 2.1 §3.4",
             "A tag value that is not of its tag's form (a Dealer that is no seat, a Contract that is no contract).",
             "Dealer value 'X' is not valid: not a seat (N, E, S, W)"),
        Code("T102", W, "repeated tag", "tag {tag} repeated; the first value is kept", "PBN 2.1 §3.3",
             "A tag may appear once in a game; a second one is ignored.",
             "tag Board repeated; the first value is kept"),
        Code("T103", W, "dealer disagrees with board number", "Dealer {value} but board {board} is dealt by {expected}",
             "Law 2; bridge-rules.md §4.11",
             "The dealer rotates with the board number: board 1 North, 2 East, 3 South, 4 West, and so on.",
             "Dealer S but board 1 is dealt by N"),
        Code("T104", W, "vulnerability disagrees with board number",
             "Vulnerable {value} but board {board} is {expected}",
             "Law 2; bridge-rules.md §4.11",
             "Vulnerability follows the board number in a cycle of 16 (not checked under Rubber or Chicago scoring).",
             "Vulnerable NS but board 1 is None"),
        Code("T105", W, "non-standard spelling", "{tag} value {value!r} is not standard PBN; read as {read!r}",
             "PBN 2.1 §3.4",
             "A value written in a form the standard does not give but whose meaning is plain is read, and said.",
             "Dealer value 'North' is not standard PBN; read as 'N'"),
        Code("T106", E, "auction seat disagrees with dealer", "Auction starts at {value} but the dealer is {dealer}",
             "PBN 2.1 §3.5",
             "The Auction tag names the seat of the first call, which is the dealer.",
             "Auction starts at E but the dealer is N"),
        Code("T107", E, "note reference without note", "note ={index}= has no Note tag", "PBN 2.1 §3.5",
             "A note reference =n= in the auction or play needs a Note tag of its section (or of the "
             "identification section) that explains it.",
             "note =2= has no Note tag"),
        Code("T108", W, "no board number", "board has no Board tag or number", "PBN 2.1 §3.4.4",
             "Every board should carry its number (a PBN Board tag, a LIN ah or qx).",
             "board has no Board tag or number"),
        Code("T120", W, "unknown tag", "unknown tag {tag!r} kept", "PBN 2.1 §4.9",
             "A tag the standard does not define is kept as it is (shown with --strict).",
             "unknown tag 'BCFlags' kept", strict=True),
        Code("T121", W, "tag value not in PBN form", "{tag} value {value!r} is not in PBN form: {expected}",
             "PBN 2.1 §3.4, §4",
             "A value kept as written that is not in the form the standard gives for its tag.",
             "Date value '2024-03-01' is not in PBN form: YYYY.MM.DD"),
        Code("T122", W, "tag name case", "tag name {name!r} read as {read!r}: tag names are case-sensitive",
             "PBN 2.1 §3.3",
             "Tag names are case-sensitive; a known tag written in another case is read as that tag.",
             "tag name 'dealer' read as 'Dealer': tag names are case-sensitive"),
        Code("T123", W, "bad table column", "{table} column {column!r} is not valid: {reason}", "PBN 2.1 §3.2, §5.2",
             "A column definition of a supplemental table (its name, width and order marks) that is not valid.",
             "ScoreTable column 'PairId\\x' is not valid: a column is a name with an optional \\width and order"),
        Code("T124", W, "bad table element", "{table} {column} element {value!r} is not valid: {reason}", "PBN 2.1 §5",
             "An element of a supplemental table that is not of its column's form (a Contract, a Result, a number).",
             "ScoreTable Contract element '8S' is not valid: not a contract"),
        Code("T125", W, "bad table layout", "{table}: {detail}", "PBN 2.1 §5.1-§5.2",
             "A supplemental table whose rows do not fit its columns, or that breaks the section's layout.",
             "ScoreTable: a comment after table data (only the tag may have one)"),
        Code("T126", W, "repeated note index", "Note {index} given twice in the {section} section; the first is kept",
             "PBN 2.1 §3.5.5",
             "Each Note of a section has its own index; a second Note of the same index is ignored.",
             "Note 1 given twice in the auction section; the first is kept"),
        Code("T127", W, "tags disagree", "{tag} {value!r} disagrees with {other}: {detail}",
             "PBN 2.1 §4.2.6, §5.7; pbn.md §17",
             "Two tags that state the same fact must agree (ScoreRubberHistory and Vulnerable, "
             "DoubleDummyTricks and OptimumResultTable).",
             "DoubleDummyTricks 'a9a9...' disagrees with OptimumResultTable: N NT 9 but the table gives 10"),
        Code("T128", W, "bad annotation", "{token!r} {reason}", "PBN 2.1 §3.5.2, §3.6.2, §3.7",
             "A note reference, suffix (! ?) or NAG on a call or card that is not valid there; a Note given in the "
             "identification section for a call or card is read, with this warning.",
             "'$300' is not a NAG (0-255)"),
        Code("T129", W, "play section without its tags", "the Play section needs the {tags} tag{s} before it{where}",
             "PBN 2.1 §3.1, §3.6",
             "A Play section needs the Deal, Declarer and Contract tags before it, in import format too (not an "
             "end position's, whose Play tag names the player on lead).",
             "the Play section needs the Declarer and Contract tags before it"),
        # --- deal ------------------------------------------------------------
        Code("D201", E, "wrong number of cards", "{seat} holds {count} cards, not 13", "Law 1; PBN 2.1 §3.4.11",
             "Each hand of a full deal holds 13 cards.",
             "N holds 12 cards, not 13"),
        Code("D202", E, "duplicate card", "{card} appears in more than one hand ({seats})", "Law 1",
             "A card belongs to one hand only: the deal is one pack of 52 different cards.",
             "HA appears in more than one hand (NW)"),
        Code("D203", E, "missing cards", "the deal lacks {cards}", "Law 1",
             "A full deal holds all 52 cards.",
             "the deal lacks H3"),
        Code("D204", I, "partial deal",
             "the deal gives {given} of 52 cards; rules checks that need the full deal are skipped",
             "PBN 2.1 §3.4.11, §3.10",
             "A deal with unknown hands ('-') or an end position: the checks that need every card (revokes, tricks "
             "won) are skipped, never guessed.",
             "the deal gives 26 of 52 cards; rules checks that need the full deal are skipped"),
        Code("D205", E, "no deal", "board has no deal", "PBN 2.1 §3.4.11",
             "A board with an auction, play or result but no Deal (LIN md) at all.",
             "board has no deal"),
        # --- double dummy (handrec validate --dd: the file's values against the solver) ---
        Code("D210", E, "wrong double-dummy tricks", "{tag} disagrees with the double-dummy solver: {detail}",
             "pbn.md §17 (DoubleDummyTricks, Ability); PBN 2.1 §5.7 (OptimumResultTable)",
             "With validate --dd: the double-dummy tricks a file writes must be those the solver finds.",
             "DoubleDummyTricks disagrees with the double-dummy solver: N NT 8 (solver 7)"),
        Code("D211", E, "wrong par score", "{tag} {value!r} but the par of the solved deal is {expected}",
             "PBN 2.1 §4.2.7 (OptimumScore); pbn.md §17",
             "With validate --dd: the par score a file writes (OptimumScore, ParScore, Minimax) must be the solved "
             "deal's.",
             "OptimumScore 'NS 420' but the par of the solved deal is NS 450"),
        Code("D212", E, "wrong par contract",
             "ParContract {value!r} but the par contracts of the solved deal are {expected!r}",
             "pbn.md §17 (ParContract)",
             "With validate --dd: the par contracts a file writes must be the solved deal's.",
             "ParContract 'NS 4S' but the par contracts of the solved deal are 'NS 4H, NS 4S'"),
        Code("D213", I, "double dummy not checked", "{tag} not checked: {reason}", "handrec validate --dd",
             "With validate --dd: a double-dummy value that cannot be checked (an incomplete deal).",
             "OptimumScore not checked: the deal is not complete"),
        Code("D214", W, "result far from double dummy",
             "{contract} by {declarer} took {tricks} tricks, double dummy {dd} ({diff:+d}){hint}",
             "handrec validate --dd, convert --dd (--dd-margin)",
             "With --dd: a result at least --dd-margin tricks (default 3) from what the contract takes double "
             "dummy, a director's check of the entered result; validate lists them again as a worklist.",
             "3NT by N took 7 tricks, double dummy 11 (-4)"),
        Code("D215", W, "deal rotated",
             "the cards played fit the deal only with the hands turned {turn}: {detail}",
             "Law 7C; handrec (hand-record programs sometimes write the deal rotated)",
             "The cards played fit the deal only with the four hands turned by one, two or three seats: the deal "
             "was written rotated against its auction and play (no solver needed).",
             "the cards played fit the deal only with the hands turned 2 seats (the hand written for North is "
             "South's): the board would be [Deal \"N:AKQJ63.AQ3.A7.KJ .T8742.T9863.A64 85.KJ6.KQ2.T9872 "
             "T9742.95.J54.Q53\"]"),
        Code("D216", I, "no double dummy", "no double dummy for this board: {reason}",
             "handrec validate --dd, convert --dd (only a complete deal can be solved, Law 1)",
             "With --dd: a played board whose deal is given but not complete gets no double-dummy values.",
             "no double dummy for this board: the deal gives 39 of 52 cards"),
        # --- auction ---------------------------------------------------------
        Code("A301", E, "insufficient bid",
             "{call} by {seat} does not outrank {previous}", "Law 27; bridge-rules.md §2.2",
             "A bid must name more tricks than the last bid, or as many in a higher strain.  An insufficient bid "
             "that the next player called over stands (Law 27A1), still reported.",
             "1D by N does not outrank 1H"),
        Code("A302", E, "illegal double", "double by {seat} is not allowed: {reason}", "Law 19A; bridge-rules.md §2.3",
             "A player may double only the last bid, made by an opponent, not yet doubled.",
             "double by S is not allowed: 1H was bid by the doubler's own side"),
        Code("A303", E, "illegal redouble",
             "redouble by {seat} is not allowed: {reason}", "Law 19B; bridge-rules.md §2.4",
             "A player may redouble only an opponent's double of their side's last bid.",
             "redouble by E is not allowed: there is no double to redouble"),
        Code("A304", E, "call after the auction ended", "{call} by {seat} comes after the auction ended",
             "Law 22; bridge-rules.md §2.6",
             "The auction ends with three passes after a bid, or four passes: no call follows.",
             "3NT by W comes after the auction ended"),
        Code("A305", W, "incomplete auction", "the auction is not finished ({count} call{s})", "Law 22",
             "An auction that stops before its closing passes.",
             "the auction is not finished (1 call)"),
        Code("A306", E, "bad call", "{token!r} is not a call", "PBN 2.1 §3.5",
             "A token in the auction that is no call (Pass, X, XX, a bid), nor an annotation.",
             "'8S' is not a call"),
        Code("A307", W, "insufficient mark on a sufficient bid",
             "^I marks {call} by {seat} as an insufficient bid, but it outranks {previous}", "PBN 2.1 §3.9; Law 27",
             "A bid marked ^I (an insufficient bid accepted) that outranks the last bid: the mark contradicts the "
             "record; the bid stands.",
             "^I marks 2S by S as an insufficient bid, but it outranks 1S"),
        # --- play ------------------------------------------------------------
        Code("P401", E, "revoke", "{seat} played {card} to a {led} lead while holding {held}",
             "Law 61; bridge-rules.md §3.2",
             "A player must follow suit when able.",
             "E played C4 to a spade lead while holding S7"),
        Code("P402", E, "card not held",
             "{seat} played {card}, which is not in that hand", "Law 45; bridge-rules.md §3.2",
             "Each card played comes from the hand of the player (or dummy) playing it.",
             "W played HK, which is not in that hand"),
        Code("P403", E, "wrong opening leader",
             "the play starts with {value}; the opening leader is {expected}{other}",
             "Law 41; bridge-rules.md §2.7; PBN 2.1 §3.6",
             "The opening lead is made by the player on declarer's left.  A Play tag that names the wrong leader "
             "over play lines written from the real one is one P403; the play is kept as the record writes it "
             "(column 1 is the Play tag's seat) and the message offers the other reading, never kept.",
             "the play starts with W; the opening leader is E (read as led by E the cards fit the hands: "
             "that reading is not kept)"),
        Code("P404", E, "play after the end", "{count} cards played after the last trick or claim", "Law 68",
             "No card is played after the thirteenth trick or after a claim.",
             "1 cards played after the last trick or claim"),
        Code("P405", E, "impossible claim", "claim of {claim} tricks is impossible: {reason}", "Law 68",
             "A claim counts all of declarer's tricks: no fewer than already won, no more than can still be won.",
             "claim of 7 tricks is impossible: declarer has already won 8"),
        Code("P406", E, "bad card", "{token!r} is not a card", "PBN 2.1 §3.6",
             "A token in the play that is no card (suit and rank), nor '-', '*' or an annotation.",
             "'S1' is not a card"),
        Code("P407", W, "play without contract", "play is given but {reason}", "PBN 2.1 §3.6",
             "Cards played on a board passed out or without a known contract are not replayed.",
             "play is given but the board was passed out"),
        Code("P408", E, "lead by the wrong hand", "{card} was led by {holder}, but {expected} {why}",
             "Law 44G, Law 53; lin.md §6",
             "Each trick is led by the winner of the last one (the first by the opening leader).",
             "C2 was led by S, but E is the opening leader"),
        Code("P409", E, "revoke mark on a legal card",
             "^R marks {card} by {seat} as a revoke, but {why}: the record contradicts itself", "PBN 2.1 §3.9; Law 61",
             "A card marked ^R (a revoke not corrected) that leads, follows suit or comes from a hand void in the "
             "suit led is no revoke; the play is then the record's (from its tags), not a count of tricks.",
             "^R marks C8 by S as a revoke, but it follows suit: the record contradicts itself"),
        Code("P410", W, "lead out of turn mark on the proper leader",
             "^L marks {card} by {seat} as a lead out of turn, but {seat} was on lead", "PBN 2.1 §3.9; Laws 41, 44G",
             "A card marked ^L (a lead out of turn accepted) led by the player on lead: the mark contradicts the "
             "record; the seats are the same either way.",
             "^L marks CJ by E as a lead out of turn, but E was on lead"),
        # --- contract and result ----------------------------------------------
        Code("C501", E, "contract disagrees with auction", "Contract {value} but the auction ends in {expected}",
             "Law 22; bridge-rules.md §2.6",
             "The contract is the last bid of the auction, with its double or redouble.",
             "Contract 4S but the auction ends in 4SX"),
        Code("C502", E, "declarer disagrees with auction",
             "Declarer {value} but {expected} first named {strain} for the declaring side",
             "Law 22; bridge-rules.md §2.7",
             "Declarer is the player of the declaring side who first named the contract's strain.",
             "Declarer S but N first named S for the declaring side"),
        Code("C503", E, "result disagrees with play", "Result {value} but declarer took {expected} tricks in the play",
             "Law 79; PBN 2.1 §3.4.15",
             "The Result is the tricks declarer took in the play given (a Result marked ^, agreed by the players, "
             "stands against the play: Law 69).",
             "Result 10 but declarer took 11 tricks in the play"),
        Code("C504", E, "impossible result", "Result {value} is not a number of tricks from 0 to 13",
             "PBN 2.1 §3.4.15",
             "Declarer takes from 0 to 13 tricks (side results must add up to 13).",
             "Result 14 is not a number of tricks from 0 to 13"),
        Code("C505", E, "result for a passed-out board",
             "Result {value} given for a passed-out board", "PBN 2.1 §3.4.15",
             "A passed-out board has no declarer and no result.",
             "Result 9 given for a passed-out board"),
        Code("C506", E, "rs result disagrees with the table",
             "rs result {value!r} but the auction and play give {expected!r}", "lin.md §7; Laws 22, 79",
             "The result a LIN vugraph header lists (rs) must be the contract and tricks of the table's own auction "
             "and play.",
             "rs result '4SN=' but the auction and play give '4SN-1'"),
        Code("C507", E, "result impossible after the play",
             "Result {value} but declarer won {won} and the defenders {lost} of the {played} tricks played:"
             " the result can only be {low} to {high}", "Laws 71, 79A; PBN 2.1 §3.4.15",
             "A Result after a partial play must count the tricks already won by each side.",
             "Result 5 but declarer won 6 and the defenders 2 of the 8 tricks played: the result can only be 6 to 11"),
        Code("C508", W, "partial result",
             "Result {value} counts the tricks declarer won in the {played} tricks completed ({won}): the play stops"
             " there without '*' or a claim, so the board's result is not known", "PBN 2.1 §3.4.15, §3.6",
             "A PBN play that stops before its last trick without '*', '+' or a claim has a partial Result: it "
             "counts the tricks completed, so the board's result is unknown (a Result that does not count them "
             "is C503).",
             "Result 2 counts the tricks declarer won in the 6 tricks completed (2): the play stops there without "
             "'*' or a claim, so the board's result is not known"),
        Code("C509", W, "contract by law", "Contract {value}, but under {law} the auction ends in {expected}",
             "Law 27A1 (insufficient bid called over), Law 36 (inadmissible double or redouble), Law 39A",
             "A Contract tag that keeps a call the Laws cancel (an inadmissible double or redouble, Law 36): the "
             "contract is the one the auction gives under that Law, by law (the call itself is A302 or A303).",
             "Contract 4SX, but under Law 36 the auction ends in 4S"),
        # --- score -----------------------------------------------------------
        Code("S601", E, "score disagrees",
             "Score {value} but {contract} by {declarer} taking {tricks} tricks scores {expected}",
             "Law 77; bridge-rules.md §4",
             "The Score tag must be the duplicate score of the contract, declarer, vulnerability and tricks.",
             "Score NS 470 but 2SX by S taking 10 tricks scores NS 670"),
        Code("S602", E, "bad score value", "Score value {value!r} cannot be read", "PBN 2.1 §4.2",
             "A Score value that is none of the forms 's', 'NS s', 'EW s', 'NS s EW s'.",
             "Score value 'NS four hundred' cannot be read"),
        Code("S603", E, "ScoreMP disagrees", "ScoreMP {value} but {detail} gives {expected}",
             "PBN 2.1 §4.2.3; bridge-rules.md §8.3",
             "The matchpoints a game claims must be those of its result among the results of the same board.",
             "ScoreMP NS 0.5 but matchpointing the 4 results of board 1 on the 2/1 scale gives NS 3"),
        Code("S604", E, "ScoreIMP disagrees", "ScoreIMP {value} but {detail} gives {expected}",
             "PBN 2.1 §4.2.2; bridge-rules.md §8.1-8.5",
             "The IMPs a game claims must be those of its result: teams IMPs against the other room, Butler or "
             "cross-IMPs as the Scoring tag says.",
             "ScoreIMP NS 5 but NS 420 against NS 170 in the Closed room gives NS 6"),
        Code("S605", E, "ScorePercentage disagrees", "ScorePercentage {value} but {detail} gives {expected}",
             "PBN 2.1 §4.2.4; bridge-rules.md §8.3",
             "The percentage a game claims must be its matchpoints over the top.",
             "ScorePercentage NS 50 but matchpointing the 4 results of board 1 gives NS 83.33"),
        Code("S606", E, "ScoreRubber disagrees",
             "ScoreRubber {value} but {detail} scores {expected} (above/below the line)",
             "PBN 2.1 §4.2.5; bridge-rules.md §5-6",
             "The rubber score a game claims must be the contract's points above and below the line.",
             "ScoreRubber NS 30/120 but deal 1 of the rubber (4S by N, 10 tricks) scores NS 0/120 (above/below "
             "the line)"),
        Code("S607", E, "ScoreTable row disagrees",
             "ScoreTable row {row} {column} {value} but {detail} gives {expected}{note}",
             "PBN 2.1 §5.3 (ScoreTable); bridge-rules.md §4, §8",
             "Each figure of a ScoreTable row (score, matchpoints, IMPs, percentage) must be what its contract and "
             "result give among the board's results.",
             "ScoreTable row 2 Score_NS 400 but 4S by N taking 10 tricks (None vulnerable) gives 420"),
        Code("S608", E, "TotalScoreTable row disagrees",
             "TotalScoreTable row {row} {column} {value} but {detail} gives {expected}{note}",
             "PBN 2.1 §5.3 (TotalScoreTable); bridge-rules.md §8.3",
             "A pair's totals and rank in a TotalScoreTable must be the sum of its boards' scores.",
             "TotalScoreTable row 1 TotalIMP 7.33 but scoring the pair's 1 board in the file gives 22"),
        Code("S609", W, "bad claimed score", "{tag} value {value!r} cannot be read", "PBN 2.1 §4.2",
             "A claimed figure (ScoreMP, ScoreIMP, ScorePercentage, ScoreRubber) that cannot be read is not checked.",
             "ScoreMP value 'NS ?' cannot be read"),
        Code("S610", I, "claimed figures not checked",
             "claimed event figures (ScoreMP, ScoreTable...) not checked: the input has more than {limit} boards",
             "handrec (convert memory bound, until issue #22)",
             "No longer reported: convert checks every input whole, its records kept on disk past 50,000 "
             "(as validate); the code stays for datasets written before.",
             "claimed event figures (ScoreMP, ScoreTable...) not checked: the input has more than 200000 boards"),
        Code("S611", W, "ScoreTable percentage by another formula",
             "ScoreTable row {row} {column} {value} is {note}, not 100 * MP / top over {detail} ({expected})",
             "PBN 2.1 §5.3 (ScoreTable Percentage); bridge-rules.md §8.3",
             "A ScoreTable percentage computed by another formula than 100 * MP / top (for example Neuberg's) is "
             "accepted with a warning.",
             "ScoreTable row 3 Percentage_NS 62.5 is 100 * (MP + 1/2) / n = 62.50, not 100 * MP / top over the 4 "
             "results "
             "of the table (66.67)"),
        Code("S612", W, "pair plays a board twice",
             "{direction} pair {pair} plays board {board} a second time (also at line {other})",
             "Law 15A (a board played a second time); bridge-rules.md §8.3",
             "A pair plays each board once in a session.",
             "N-S pair N1 - S1 plays board 5 a second time (also at line 120)"),
        Code("S613", W, "fouled board",
             "board {board} was played with a different deal from the game at line {other} (a fouled board):"
             " the results of each deal are scored apart", "Law 87 (fouled board); bridge-rules.md §8.3",
             "All games of a board in a session have the same deal; one with another deal is a fouled board and "
             "its results are scored apart.",
             "board 1 was played with a different deal from the game at line 1 (a fouled board): the results of "
             "each deal are scored apart"),
        Code("S614", W, "board given twice",
             "board {board} is given again with the same deal, without players or result (also at line {other})",
             "Law 2 (a board's number); PBN 2.1 §3.4.4",
             "A board repeated with the same deal and no players or result adds no game.",
             "board 4 is given again with the same deal, without players or result (also at line 37)"),
        Code("S615", W, "board played with a different dealer or vulnerability",
             "board {board} was played with {detail} as in the game at line {other} (a fouled board):"
             " the results of each are scored apart", "Law 87A (fouled board); bridge-rules.md §8.3",
             "All games of a board have the same dealer and vulnerability; a copy that differs is a fouled board.",
             "board 2 was played with vulnerability All, not NS as in the game at line 12 (a fouled board): the "
             "results of each are scored apart"),
        Code("S616", E, "impossible claimed score", "{tag} {value} is impossible: {detail}",
             "PBN 2.1 §4.2.2-4.2.4; bridge-rules.md §8",
             "A claimed figure no scoring can give: a percentage outside 0-100, negative matchpoints, or for a "
             "played board N-S and E-W percentages that do not add up to 100 or IMPs that do not add up to 0.",
             "ScorePercentage NS 60 EW 60 is impossible: the N-S and E-W percentages add up to 120, not 100"),
        Code("S617", W, "ScoreTable figure cut, not rounded",
             "ScoreTable row {row} {column} {value} is {expected} cut to its last digit, not rounded ({detail})",
             "PBN 2.1 §5.3 (ScoreTable); bridge-rules.md §8.3",
             "A factored matchpoint figure written as the exact one cut (truncated) to the digits shown, as "
             "Scorer writes them, instead of rounded: accepted with a warning (a figure cut otherwise, or off by "
             "more, is S607).",
             "ScoreTable row 3 MP_NS 20.2 is 20.29 cut to its last digit, not rounded (matchpointing the 33 "
             "results of the table on the 2/1 scale)"),
        Code("S618", I, "TotalScoreTable total factored",
             "TotalScoreTable row {row} {column} {value} is the pair's {total} match points on its {boards} boards"
             " factored to the {field} boards of the field (x {field}/{boards})",
             "bridge-rules.md §8.3; factoring as Compscore writes it (usebio.md)",
             "A pair that played fewer boards than the others (a sit-out, a board not played) may have its match "
             "points factored to the boards of the field: the total times the field's boards over its own. Such "
             "a total is accepted with this note (one that is neither the sum nor the factored sum is S608).",
             "TotalScoreTable row 1 TotalMP 128.77 is the pair's 124 match points on its 26 boards factored to "
             "the 27 boards of the field (x 27/26)"),
        # --- USEBIO (usebio.md "What consumers check") ---------------------------
        Code("U701", E, "unknown USEBIO version", "USEBIO Version {value!r} is not 1.0, 1.1, 1.2 or 1.3",
             "usebio.md §Document",
             "The USEBIO root's Version attribute is 1.0 to 1.3 (a national body's import rejects any other).",
             "USEBIO Version '2.0' is not 1.0, 1.1, 1.2 or 1.3"),
        Code("U702", E, "not a USEBIO document", "the root element is {tag!r}, not USEBIO", "usebio.md §Document",
             "A USEBIO file's root element is USEBIO.",
             "the root element is 'RESULTS', not USEBIO"),
        Code("U703", E, "not exactly one element", "{count} {element} elements, not exactly one",
             "usebio.md §Document",
             "A USEBIO file holds exactly one CLUB and one EVENT (a consumer rejects any other count).",
             "2 EVENT elements, not exactly one"),
        Code("U704", E, "unknown event type", "{element} {value!r} is not a USEBIO {what}", "usebio.md §EVENT",
             "EVENT_TYPE and BOARD_SCORING_METHOD take the values usebio.md lists (MP_PAIRS, CROSS_IMP(S), "
             "PAIRS with MATCH_POINTS...).",
             "EVENT_TYPE 'RUBBER' is not a USEBIO event type"),
        Code("U705", W, "scoring method not given",
             "EVENT_TYPE {value!r} gives no BOARD_SCORING_METHOD: read as {method}, as its {element} elements say"
             " (a consumer may reject the file)", "usebio.md §EVENT",
             "A generic PAIRS or TEAMS event names its method in BOARD_SCORING_METHOD; without it the method is "
             "taken from the traveller lines' figures.",
             "EVENT_TYPE 'PAIRS' gives no BOARD_SCORING_METHOD: read as matchpoints, as its NS_MATCH_POINTS "
             "elements say (a consumer may reject the file)"),
        Code("U706", E, "participant without a number", "{element} without a {number} is not read",
             "usebio.md §Participants",
             "Every PAIR, TEAM or PLAYER participant has its number (the travellers' join key).",
             "PAIR without a PAIR_NUMBER is not read"),
        Code("U707", E, "participant number given twice", "{element} {value!r} is given twice (also at line {other})",
             "usebio.md §Participants",
             "A section's participants have distinct numbers; the second with a number is not read.",
             "PAIR_NUMBER '1' is given twice (also at line 3)"),
        Code("U708", E, "national number given twice",
             "NATIONAL_ID_NUMBER {value!r} is given twice (also at line {other})", "usebio.md §Participants",
             "A player's national number (empty or 0: unknown) appears once in the event.",
             "NATIONAL_ID_NUMBER '0123' is given twice (also at line 4)"),
        Code("U709", E, "place outside the field", "PLACE {value!r} of pair {pair} is not from 1 to {size} ({field})",
             "usebio.md §Participants",
             "A PLACE (3= for a tie) is from 1 to the size of its field: its direction's pairs for NS and EW "
             "winners, else every participant.",
             "PLACE '0' of pair 4 is not from 1 to 4 (the 4 participants)"),
        Code("U710", E, "pair without two players", "pair {pair} has {count} PLAYER element{s}, not 2",
             "usebio.md §Participants",
             "A PAIR lists exactly two PLAYER elements.",
             "pair 2 has 1 PLAYER element, not 2"),
        Code("U711", E, "missing element", "{parent}{name} has no {element}{consequence}", "usebio.md §Travellers",
             "An element the format needs is there: a traveller line's pair numbers and SCORE, a played line's "
             "CONTRACT, PLAYED_BY and TRICKS, a pair's TOTAL_SCORE.",
             "TRAVELLER_LINE has no SCORE (a missing score)"),
        Code("U712", W, "USEBIO count", "{element} {value}: {reason}", "usebio.md §What consumers check",
             "Counts a consumer warns on: BOARDS_PLAYED 0, more than one session or section, WINNER_TYPE 2 in a "
             "non-pairs event.",
             "SECTION_COUNT 3: not one section (a consumer warns)"),
        Code("U713", E, "unknown pair in a traveller line", "{element} {value!r} is no pair of the {where}",
             "usebio.md §Travellers",
             "A traveller line's pair numbers are participants of its section (the names and totals join on them).",
             "EW_PAIR_NUMBER '9' is no pair of the event"),
        Code("U714", W, "element given twice", "{element} given twice in {parent}: the first is kept", "usebio.md",
             "An element that a traveller line or a hand record has once is not repeated.",
             "SCORE given twice in TRAVELLER_LINE: the first is kept"),
        Code("U715", W, "unknown USEBIO element", "unknown element {element!r} in {parent} ignored", "usebio.md",
             "An element that usebio.md does not list is ignored (shown with --strict).",
             "unknown element 'STRATUM' in PAIR ignored", strict=True),
    ]
}
# fmt: on


#: The codes the standard lets readers skip (:attr:`Code.strict`): reported by ``handrec
#: validate`` only under ``--strict``, kept in a dataset's ``diagnostics`` with ``strict`` true
#: and not counted in its warnings (issue #18).
STRICT_CODES = frozenset(c.code for c in CODES.values() if c.strict)


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
        """``path:line:col: CODE severity: message``; a fault of the whole file (line 0) has no
        position to give: ``path: CODE severity: message`` (as compilers print a fault of a file)."""
        where = f"{self.path}:{self.line}:{self.column}" if self.line else self.path
        return f"{where}: {self.code} {self.severity}: {self.message}"

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
