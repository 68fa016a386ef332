"""Boards and diagnostics to Arrow tables: the schema of everything ``convert`` writes.

Tables (one Arrow schema each, :data:`SCHEMAS`):

* ``boards``: one row per game (a table's result of one board), with the
  faults of its record and the status of each derived value (``where status =
  'clean'`` keeps the boards without an error; docs/faulty-records.md),
* ``calls``: one row per call, ``plays``: one row per card played,
* ``diagnostics``: one row per diagnostic (file-level ones have a null
  ``board_id``),
* ``supplemental``: one row per element of a PBN supplemental table (ScoreTable,
  OptimumResultTable ...; PBN 2.1 §5); an older dataset's ``tables.parquet``
  (:data:`RENAMED`),
* ``files``: one row per input (file, compressed file or archive member,
  including those not read), with the counts that must add up:
  ``boards`` read from it and ``boards_written`` to ``boards`` (equal),
  ``errors``/``warnings`` (its rows in ``diagnostics``; not those with ``strict`` true,
  the codes ``handrec validate`` shows only under ``--strict``), ``status``
  (``ok``, ``unreadable``, ``skipped``, ``unchanged``, ``not_read``), ``sha256`` of its
  bytes (decompressed; null when not read to the end) and ``bytes``.

Rows of one board share ``board_id`` (0-based, in reading order).  The
schema version is :data:`SCHEMA_VERSION`, written into each Parquet
file's metadata with the handrec version.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import chain
from operator import attrgetter
from typing import Any

import pyarrow as pa

from handrec import __version__
from handrec.dataset.board_facts import FIGURE_COLUMNS, contract_values, enum_str, figure_values
from handrec.dataset.coded import part_schema
from handrec.dataset.play_rows import PlayRows
from handrec.diagnostics import STRICT_CODES, Diagnostic, Severity
from handrec.events.games import GameRecord, deal_text, pair_label
from handrec.model import ALL_CARDS, Board, Deal, Hand, Seat
from handrec.rules.board import check_deal
from handrec.rules.validator import Analysis, analyse

__all__ = ["SCHEMAS", "SCHEMA_VERSION", "RENAMED", "TableBuffers", "to_arrow", "board_row", "description"]

SCHEMA_VERSION = "7"
#: Tables renamed since an older schema: the name now -> the name of its file in an older dataset.
#: ``tables`` became ``supplemental``: ``describe tables`` and ``show tables`` are DuckDB statements.
RENAMED = {"supplemental": "tables"}

_ERROR, _WARNING = Severity.ERROR, Severity.WARNING

_str = pa.string()
_i16 = pa.int16()
_i32 = pa.int32()
_i64 = pa.int64()


def _col(name: str, type_: pa.DataType, description: str) -> pa.Field:
    """A column of :data:`SCHEMAS`, its one-line description as Arrow field metadata (it is written
    into every Parquet file, and ``handrec schema`` and docs/sql.md show it)."""
    return pa.field(name, type_, metadata={"description": description})


def description(field: pa.Field) -> str:
    """The one-line description of ``field`` (:func:`_col`), ``""`` when it has none."""
    return (field.metadata or {}).get(b"description", b"").decode()


_BOARD_ID = "The game's id in the dataset (0-based, in reading order): the key to boards.board_id."
_SOURCE = "The input read: its path, ARCHIVE!MEMBER for an archive member, - for standard input."


# ``convert --dd`` (handrec.dd; null without --dd, or without a complete deal).
_DD_BOARD_FIELDS = [
    _col("dd_tricks", _i16, "Tricks the contract's declarer takes double dummy (convert --dd)."),
    _col("tricks_vs_dd", _i16, "result minus dd_tricks: tricks above (+) or below (-) double dummy."),
    _col("par_score_ns", _i32, "Par score for North-South on this deal, vulnerability and dealer."),
    _col("score_vs_par_ns", _i32, "score_ns minus par_score_ns: North-South's points above or below par."),
    _col("dd_source", _str, "'file': the file's own table, confirmed by the solver; 'solver': solved."),
]
_DD_SEAT_LETTERS = ("n", "s", "e", "w")
_DD_STRAIN_NAMES = ("nt", "s", "h", "d", "c")
_DD_VULS = (("none", "None"), ("ns", "NS"), ("ew", "EW"), ("both", "Both"))
_DD_TABLES = {
    "deals": pa.schema(
        [
            _col("deal", _str, "The deal, North first (one row per distinct complete deal, convert --dd)."),
            _col("dealer", _str, "The dealer of its first board (decides par when both sides can bid first)."),
            _col("boards", _i32, "Rows of boards played with this deal."),
            _col("source", _str, "'file' when a file's own table was confirmed by the solver, else 'solver'."),
            *[
                _col(f"dd_{seat}_{strain}", pa.int8(), f"Double-dummy tricks for {seat.upper()} in {strain.upper()}.")
                for seat in _DD_SEAT_LETTERS
                for strain in _DD_STRAIN_NAMES
            ],
            *[
                f
                for key, vul in _DD_VULS
                for f in (
                    _col(
                        f"par_{key}", _i32, f"Par score for North-South with vulnerability {vul} (null: not played so)."
                    ),
                    _col(f"par_contracts_{key}", _str, f"The par contracts with vulnerability {vul} ('NS 4S=; ...')."),
                )
            ],
        ]
    ),
    "leads": pa.schema(
        [
            _col("board_id", _i64, "The board (boards.board_id) whose contract this lead is against."),
            _col("source_file", _str, "The board's input."),
            _col("lead", _str, "A card the opening leader holds (convert --dd-leads)."),
            _col("dd_tricks", _i16, "Tricks declarer takes double dummy after this opening lead."),
            _col("best", pa.bool_(), "Whether no other lead holds declarer to fewer tricks."),
            _col("cost", _i16, "Tricks this lead gives declarer over the best lead (0 for a best lead)."),
            _col("played", pa.bool_(), "Whether this card was the opening lead at the table."),
        ]
    ),
}
#: The file's own figures (PBN 2.1 §4.2: Score, ScoreMP, ScoreIMP, ScorePercentage), beside handrec's
#: ``score_ns``: each as written for its side (``NS <n>``, ``EW <n>``, both), a bare ``<n>`` for
#: declarer's side (null when the declarer is unknown); null when the tag is absent, ``?`` or not
#: in PBN form (never a guess).  ``file_score_ns`` is North-South's: the NS value, else minus the
#: EW value (a duplicate score is the same points for one side and against the other, Law 77).
_CLAIM_FIELDS = [
    _col("file_score_ns", _i32, "North-South's score as the file's Score tag gives it; null when absent."),
    _col("file_mp_ns", pa.float64(), "North-South's matchpoints as the file's ScoreMP tag gives them."),
    _col("file_mp_ew", pa.float64(), "East-West's matchpoints as the file's ScoreMP tag gives them."),
    _col("file_imp_ns", pa.float64(), "North-South's IMPs as the file's ScoreIMP tag gives them."),
    _col("file_imp_ew", pa.float64(), "East-West's IMPs as the file's ScoreIMP tag gives them."),
    _col("file_pct_ns", pa.float64(), "North-South's percentage as the file's ScorePercentage tag gives it."),
    _col("file_pct_ew", pa.float64(), "East-West's percentage as the file's ScorePercentage tag gives it."),
]
#: The file's own par and double-dummy tags, beside ``convert --dd``'s (null when absent or not in form).
_FILE_DD_FIELDS = [
    _col("file_par_score_ns", _i32, "North-South's par score as the file's OptimumScore tag gives it."),
    _col("file_par_contracts", _str, "The file's ParContract tag ('NS 4S=', several joined by ';'), checked."),
    _col(
        "file_dd_tricks",
        _str,
        "The file's DoubleDummyTricks: 20 hex digits, declarers N, S, E, W by strains NT, S, H, D, C.",
    ),
]

#: The columns that say what each derived value of a board stands on (issue #18; the rule is
#: :mod:`handrec.rules.faults` and docs/faulty-records.md).
_STATUS_TEXT = (
    ": clean (the record gives it, no error bears on it), by_law (what a Law makes of the fault, named in the"
    " diagnostic), from_tags (the faulty auction or play's own tags state it) or unknown (null)."
)
_FAULT_FIELDS = [
    _col(
        "faults", pa.list_(_str), "The codes of the game's error diagnostics, each once, in file order ([] when none)."
    ),
    _col("status", _str, "clean when the game has no error diagnostic, else faulty (its codes in faults)."),
    _col("contract_status", _str, "What contract and declarer stand on" + _STATUS_TEXT),
    _col("play_status", _str, "What the seat of each card in plays stands on" + _STATUS_TEXT),
    _col("result_status", _str, "What result stands on" + _STATUS_TEXT),
    _col("score_status", _str, "What score_ns stands on; handrec score ranks clean and by_law only" + _STATUS_TEXT),
]

SCHEMAS: dict[str, pa.Schema] = {
    "boards": pa.schema(
        [
            _col("board_id", _i64, "The game's id in the dataset: 0-based, in reading order (the key of this table)."),
            _col("source_file", _str, _SOURCE),
            _col("source_line", _i32, "The line of the input where the game starts (1-based)."),
            _col("board_index", _i32, "The game's position in its file (0-based), as validate --format json gives it."),
            _col("format", pa.dictionary(pa.int8(), _str), "The input's format: pbn, lin or usebio."),
            _col("event", _str, "The Event tag (null when empty or '?', as for every tag below)."),
            _col("site", _str, "The Site tag."),
            _col("date", _str, "The Date tag as written (PBN: YYYY.MM.DD, ? for an unknown digit)."),
            _col("scoring", _str, "The Scoring tag as written (MP, IMP, IMP;Cross, Rubber...)."),
            _col("board", _i32, "The board number (PBN Board tag, LIN ah or qx); null when it is not a number."),
            _col("board_label", _str, "The Board tag as written ('1', '01', '1-1')."),
            _col("room", _str, "The Room tag of a teams match: Open or Closed (LIN: the qx room)."),
            _col("stage", _str, "The Stage tag (Preliminary, Semifinal...)."),
            _col("home_team", _str, "The HomeTeam tag."),
            _col("visit_team", _str, "The VisitTeam tag."),
            _col("section", _str, "The Section tag (with Stage, Round and the teams: a teams match)."),
            _col("round", _str, "The Round tag."),
            _col("north", _str, "North's name (North tag, LIN pn)."),
            _col("east", _str, "East's name."),
            _col("south", _str, "South's name."),
            _col("west", _str, "West's name."),
            _col(
                "pair_ns",
                _str,
                "North-South's pair as handrec score names it: the PairNS tag, else 'North - South' (one name"
                " when both seats give it).",
            ),
            _col("pair_ew", _str, "East-West's pair: the PairEW tag, else 'East - West'."),
            _col("dealer", _str, "The dealer: N, E, S or W (Dealer tag, LIN md); null when not given."),
            _col("vulnerable", _str, "The vulnerability: None, NS, EW or Both (Vulnerable tag, LIN sv)."),
            _col(
                "deal",
                _str,
                "The deal in PBN notation from North (N:spades.hearts.diamonds.clubs x4, - a hand unknown).",
            ),
            _col("hcp_n", _i16, "North's high-card points (A 4, K 3, Q 2, J 1); null when the hand is unknown."),
            _col("hcp_e", _i16, "East's high-card points."),
            _col("hcp_s", _i16, "South's high-card points."),
            _col("hcp_w", _i16, "West's high-card points."),
            _col("hcp_ns", _i16, "North-South's high-card points (hcp_n + hcp_s); null when a hand is unknown."),
            _col("hcp_ew", _i16, "East-West's high-card points (hcp_e + hcp_w)."),
            _col("auction", _str, "The calls in order from the dealer, separated by spaces (Pass, X, XX, 1C...7NT)."),
            _col(
                "contract",
                _str,
                "The contract (4S, 3NTX, Pass): the auction's when it is complete, else the tags' (contract_status).",
            ),
            _col("declarer", _str, "The declarer (N, E, S, W); null when passed out or unknown."),
            _col("level", pa.int8(), "The contract's level (1-7); null when passed out or unknown."),
            _col("strain", _str, "The contract's strain: C, D, H, S or NT; null when passed out or unknown."),
            _col("doubled", _str, "'' undoubled, 'X' doubled, 'XX' redoubled; null when passed out or unknown."),
            _col(
                "result",
                _i16,
                "Tricks taken by declarer (0-13): the play's or claim's when complete, else the Result tag"
                " (result_status).",
            ),
            _col("made", pa.bool_(), "Whether declarer took level + 6 tricks or more; null without a result."),
            _col(
                "overtricks", _i16, "Tricks taken above level + 6 (0 when the contract failed); null without a result."
            ),
            _col("undertricks", _i16, "Tricks short of level + 6 (0 when the contract made); null without a result."),
            _col(
                "is_result",
                pa.bool_(),
                "Whether the game is a played result (a contract with its result, or passed out), not a hand record.",
            ),
            _col("score_ns", _i32, "North-South's duplicate score computed by handrec (0 when passed out; Law 77)."),
            *_CLAIM_FIELDS,
            _col("opening_lead", _str, "The first card of the play (SA, H7...)."),
            _col("cards_played", _i16, "How many cards of the play are given (52 for a full play)."),
            _col("errors", _i16, "The game's error diagnostics (its rows in diagnostics of severity error)."),
            _col("warnings", _i16, "The game's warnings."),
            *_DD_BOARD_FIELDS,
            *_FILE_DD_FIELDS,
            *_FAULT_FIELDS,
        ]
    ),
    "calls": pa.schema(
        [
            _col("board_id", _i64, _BOARD_ID),
            _col("source_file", _str, _SOURCE),
            _col("call_index", _i16, "The call's position in the auction (0-based; 0 is the dealer's)."),
            _col("seat", _str, "Who made the call: N, E, S or W."),
            _col("call", _str, "The call: Pass, X, XX or a bid (1C...7NT)."),
            _col("alert", pa.bool_(), "Whether the call was alerted (PBN !, LIN mb suffix !)."),
            _col("annotation", _str, "The call's note or explanation (PBN Note, LIN an), as written."),
        ]
    ),
    "plays": pa.schema(
        [
            _col("board_id", _i64, _BOARD_ID),
            _col("source_file", _str, _SOURCE),
            _col("card_index", _i16, "The card's position in the play (0-based; 0 is the opening lead)."),
            _col("trick", _i16, "The trick's number (1-13)."),
            _col("position", _i16, "The card's place in its trick (1 is the lead, 4 the last)."),
            _col("seat", _str, "Who played the card: N, E, S or W (dummy's cards under dummy's seat)."),
            _col("card", _str, "The card: suit and rank (SA, HT, C2); null when the record gives none ('-')."),
            _col("winner", _str, "Who won the trick; null for an unfinished trick."),
        ]
    ),
    "diagnostics": pa.schema(
        [
            _col(
                "board_id", _i64, "The game the fault belongs to (boards.board_id); null for a fault of a whole file."
            ),
            _col("source_file", _str, _SOURCE),
            _col("line", _i32, "The fault's line (1-based); 0 for the whole file."),
            _col("column", _i32, "The fault's column (1-based); 0 for a whole line or board."),
            _col("code", _str, "The diagnostic code (A301, S601...): handrec codes CODE explains it."),
            _col("severity", _str, "error, warning or info."),
            _col("message", _str, "The message, as validate prints it."),
            _col(
                "strict",
                pa.bool_(),
                "A code the standard lets readers skip: validate shows it only under --strict, and no warnings"
                " column counts it (T120, F007, F026).",
            ),
        ]
    ),
    "supplemental": pa.schema(
        [
            _col("board_id", _i64, _BOARD_ID),
            _col("source_file", _str, _SOURCE),
            _col("table_name", _str, "The supplemental table: ScoreTable, TotalScoreTable, OptimumResultTable..."),
            _col("row", _i32, "The row of the table (0-based)."),
            _col("column", _str, "The column's name in the table's tag (#n past the columns it names)."),
            _col("value", _str, "The element as written (PBN 2.1 §5)."),
        ]
    ),
    "files": pa.schema(
        [
            _col("source_file", _str, _SOURCE),
            _col("format", _str, "pbn, lin or usebio; null when the input was not read as any of them."),
            _col("boards", _i32, "Games read from the input."),
            _col("errors", _i32, "Its error rows in diagnostics."),
            _col("warnings", _i32, "Its warning rows in diagnostics."),
            _col("boards_written", _i32, "Its rows in boards (equal to boards)."),
            _col("status", _str, "ok, unreadable, skipped, unchanged or not_read (after --fail-fast or --max-errors)."),
            _col("sha256", _str, "SHA-256 of its bytes (decompressed); null when not read to the end."),
            _col("bytes", _i64, "Its size in bytes (decompressed)."),
        ]
    ),
    **_DD_TABLES,
}


def _s(v: object) -> str | None:
    return None if v is None else str(v)


# Fast paths for the model's canonical instances (parsing returns them): ``str()`` of a
# card, a seat or a hand by lookup instead of through the enums' Python ``__str__``.
# Anything else (a hand-built value) falls back to ``str()``, so the text is the same.
_SEAT_STR = ("N", "E", "S", "W")
#: ``_SEATS_FROM[leader]``: the seats of positions 1-4 of a trick led by ``leader``.
_SEATS_FROM = tuple(tuple(_SEAT_STR[(lead + i) & 3] for i in range(4)) for lead in range(4))
_POSITIONS = ((), (1,), (1, 2), (1, 2, 3), (1, 2, 3, 4))
_CARD_STR: dict[int, str | None] = {id(c): str(c) for c in ALL_CARDS}
_CARD_STR[id(None)] = None
_CARD_HCP: dict[int, int] = {id(c): max(0, c.rank - 10) for c in ALL_CARDS}
_CARD_BIT: dict[int, int] = {id(c): 1 << c.index for c in ALL_CARDS}
#: ``_RANKS[m]``: the ranks of a 13-bit suit mask (bit 0 = the two), high first.
_RANKS: tuple[str, ...] = tuple(
    "".join("23456789TJQKA"[r] for r in range(12, -1, -1) if m >> r & 1) for m in range(1 << 13)
)


_NONE_ID = id(None)
_TRICK_CARDS = attrgetter("cards")


def _card_str(c: object) -> str | None:
    s = _CARD_STR.get(id(c), _s)
    return _s(c) if s is _s else s  # type: ignore[return-value]


def _hand_hcp(h: Hand) -> int:
    try:
        return sum(map(_CARD_HCP.__getitem__, map(id, h.cards)))
    except KeyError:
        return h.hcp


def _hand_str(h: Hand) -> str:
    cards = h.cards
    try:
        m = sum(map(_CARD_BIT.__getitem__, map(id, cards)))
    except KeyError:
        return str(h)
    if m.bit_count() != len(cards):  # a repeated card: let Hand spell it
        return str(h)
    r = _RANKS
    return f"{r[m >> 39 & 0x1FFF]}.{r[m >> 26 & 0x1FFF]}.{r[m >> 13 & 0x1FFF]}.{r[m & 0x1FFF]}"


def _deal_str(d: Deal) -> str:
    if type(d) is not Deal or len(d.hands) != 4:
        return str(d)
    hands = []
    for h in d.hands:
        if h is None:
            hands.append("-")
        elif type(h) is Hand:
            hands.append(_hand_str(h))
        else:
            hands.append(str(h))
    return "N:" + " ".join(hands)


#: The HCP of a suit's jack, queen, king and ace by their four bits (the top ones of its 13-bit mask).
_HCP4 = tuple((n & 1) + 2 * (n >> 1 & 1) + 3 * (n >> 2 & 1) + 4 * (n >> 3 & 1) for n in range(16))


def _deal_facts(deal: Deal | None, text: str | None = None) -> tuple[str | None, list[int | None]]:
    """The ``deal`` column (``str(deal)``) and each seat's HCP (``None`` for a hand not given).

    A full deal of 52 distinct cards takes both from the card masks that
    :func:`~handrec.rules.board.check_deal` keeps for the deal it checked last (the replay's);
    its text is ``text`` when given (:func:`handrec.events.games.deal_text` of ``deal``, made already).
    """
    if deal is None:
        return None, [None] * 4
    if type(deal) is Deal and len(deal.hands) == 4 and _NONE_ID not in map(id, deal.hands):  # (no Hand.__eq__)
        dc = check_deal(deal, required=False)
        if dc.cards_per_hand == 13 and not dc.faults:
            h = _HCP4
            return text if text is not None else deal_text(deal), [
                h[m >> 9 & 15] + h[m >> 22 & 15] + h[m >> 35 & 15] + h[m >> 48 & 15]  # type: ignore[operator]
                for m in dc.masks
            ]
    hcp: list[int | None] = [None] * 4
    for seat in Seat:
        hand = deal[seat]
        hcp[seat] = None if hand is None else (_hand_hcp(hand) if type(hand) is Hand else hand.hcp)
    return _deal_str(deal), hcp


def board_row(board_id: int, a: Analysis) -> dict[str, Any]:
    """The ``boards`` row of one analysed board (see :data:`SCHEMAS`).

    Contract, declarer and result are the replay's resolved values (the
    auction and play when complete, else the file's tags); an unknown value
    is null, never a guess.  A passed-out board has contract ``Pass``, null
    declarer and result, and ``score_ns`` 0.  ``faults`` lists the codes of the
    board's errors and ``status`` is ``clean`` without any, else ``faulty``;
    ``contract_status``, ``play_status``, ``result_status`` and ``score_status`` say
    what each derived value stands on (:mod:`handrec.rules.faults`: ``clean``,
    ``by_law``, ``from_tags``, ``unknown``; issue #18).
    """
    auction = a.board.auction
    row = dict(zip(_BOARD_COLUMNS, _board_row(board_id, a, None if auction is None else str(auction), None)))
    row["faults"] = list(row["faults"])
    return row


#: The columns of ``boards``, in the order of the tuples of :func:`_board_row` (its schema's).
_BOARD_COLUMNS = tuple(SCHEMAS["boards"].names)
#: Where the ``convert --dd`` columns are in those tuples (:data:`_DD_BOARD_FIELDS`).
_DD_AT = {f.name: _BOARD_COLUMNS.index(f.name) for f in _DD_BOARD_FIELDS}
_DD_START = _BOARD_COLUMNS.index(_DD_BOARD_FIELDS[0].name)
assert _BOARD_COLUMNS[_DD_START : _DD_START + len(_DD_BOARD_FIELDS)] == tuple(f.name for f in _DD_BOARD_FIELDS)
_NO_DD = (None,) * len(_DD_BOARD_FIELDS)
_ALERT = attrgetter("alert")
_ANNOTATION = attrgetter("annotation")
_CLAIMS_AT = _BOARD_COLUMNS.index(_CLAIM_FIELDS[0].name)
_FILE_DD_AT = _BOARD_COLUMNS.index(_FILE_DD_FIELDS[0].name)
assert FIGURE_COLUMNS == (
    _BOARD_COLUMNS[_CLAIMS_AT : _CLAIMS_AT + 7] + _BOARD_COLUMNS[_FILE_DD_AT : _FILE_DD_AT + 3]
), "figure_values gives the claim columns, then the file's dd columns"


def _board_row(
    board_id: int, a: Analysis, auction_text: str | None, rec: GameRecord | None, played: int | None = None
) -> tuple[Any, ...]:
    """The ``boards`` row of one board as a tuple in the order of :data:`_BOARD_COLUMNS`.

    ``auction_text``: ``str(board.auction)``; ``rec``: the board's :func:`handrec.events.games.record`,
    when the caller has it (``convert`` makes it for the event checks): its deal text and pair
    identities are the columns ``deal``, ``pair_ns`` and ``pair_ew`` (the same values, not
    computed twice); ``played``: the cards of the play not ``None`` (``cards_played``), when the
    caller has counted them (:meth:`handrec.dataset.play_rows.PlayRows.add`)."""
    b = a.board
    r = a.replay
    c = r.contract
    deal = b.deal
    deal_text, hcp = _deal_facts(deal, None if rec is None else rec.deal)
    lead = None
    tricks = r.tricks
    if tricks:
        first = tricks[0].cards
        if first and first[0] is not None:
            lead = _card_str(first[0])
        if played is None:  # the cards given, by identity, in C (``None in cards`` calls Card.__eq__ a card)
            ids = list(map(id, chain.from_iterable(map(_TRICK_CARDS, tricks))))
            played = len(ids) - ids.count(_NONE_ID)
    else:
        played = 0
    tags = {t.name: t.value for t in reversed(b.tags)}  # the first tag of each name wins, as in Board.tag
    tag = tags.get
    origin = b.origin
    if lead is None and origin.format == "usebio":
        lead = _blank(tag("Lead"))  # a USEBIO LEAD without the hand records: no play, the card alone
    # The tag columns in one pass in C: "" and "?" (not applicable / unknown) become null (_blank).
    texts = list(map(tags.get, _TAG_COLUMNS))
    texts = list(map(_BLANKS.get, texts, texts))
    errors = warnings = 0
    faults: list[str] = []
    for d in a.diagnostics:
        sev = d.severity
        if sev is _ERROR:
            errors += 1
            if d.code not in faults:
                faults.append(d.code)
        elif sev is _WARNING and d.code not in STRICT_CODES:
            warnings += 1
    declarer = None if c is None or c.is_passed_out else enum_str(c.declarer)
    result = None if c is not None and c.is_passed_out else r.result
    hcp_n, hcp_e, hcp_s, hcp_w = hcp
    if rec is not None:
        pair_ns, pair_ew = rec.ns, rec.ew
    else:
        pair_ns = _pair_id(tag("PairNS"), tag("North"), tag("South"))
        pair_ew = _pair_id(tag("PairEW"), tag("East"), tag("West"))
    level, strain, doubled, made, over, under, is_result = contract_values(c, result)
    fig = figure_values(tags, declarer)
    return (
        board_id,
        origin.path,
        origin.line,
        origin.index,
        origin.format,
        *texts[:4],  # Event, Site, Date, Scoring
        b.number,
        tag("Board"),
        *texts[4:],  # Room ... West
        pair_ns,
        pair_ew,
        enum_str(b.dealer),
        enum_str(b.vulnerable),
        deal_text,
        hcp_n,
        hcp_e,
        hcp_s,
        hcp_w,
        None if hcp_n is None or hcp_s is None else hcp_n + hcp_s,
        None if hcp_e is None or hcp_w is None else hcp_e + hcp_w,
        auction_text,
        _s(c),
        declarer,
        level,
        strain,
        doubled,
        result,
        made,
        over,
        under,
        is_result,
        r.score_ns,
        *fig[:7],
        lead,
        played,
        errors,
        warnings,
        *_NO_DD,
        *fig[7:],
        tuple(faults) if faults else (),  # (a row of atoms and tuples only: the collector leaves it alone)
        "faulty" if errors else "clean",
        r.contract_status,
        r.play_status,
        r.result_status,
        r.score_status,
    )


def _pair_id(pair: str | None, first: str | None, second: str | None) -> str | None:
    """A pair's identity as :func:`handrec.events.games.record` gives it (``handrec score``'s
    rankings): the PairNS / PairEW tag (PBN 2.1 §4.3.2), else :func:`~handrec.events.games.pair_label`
    of the two names."""
    own = pair_label(pair, pair)  # the tag cleaned as record cleans it
    return own if own is not None else pair_label(first, second)


def _blank(v: str | None) -> str | None:
    """Tag values ``""`` and ``"?"`` (not applicable / unknown) become null."""
    return None if v is None or v in ("", "?") else v


#: The tags of the text columns of ``boards`` (Event ... Scoring, then Room ... West), in their order.
_TAG_COLUMNS = (
    "Event", "Site", "Date", "Scoring",
    "Room", "Stage", "HomeTeam", "VisitTeam", "Section", "Round", "North", "East", "South", "West",
)  # fmt: skip
#: ``_BLANKS.get(v, v)`` is :func:`_blank` of a tag value ``v`` (a ``str`` or ``None``).
_BLANKS: dict[str | None, None] = {"": None, "?": None}


class TableBuffers:
    """Column buffers for every table, flushed as Arrow record batches.

    ``add(analysis)`` appends the rows of one board; ``add_diagnostic`` a file-level fault;
    ``take(name)`` returns and clears a table's buffered rows as a RecordBatch.  Memory is
    bounded by the caller flushing every ``batch_rows`` boards.

    A board's ``boards`` row and each ``diagnostics`` row are kept as one tuple (in the
    schema's column order), made columns at :meth:`take`; the plays are kept compact
    (:class:`handrec.dataset.play_rows.PlayRows`); the other tables as one list a column.
    """

    def __init__(self) -> None:
        self.rows: dict[str, dict[str, list[Any]]] = {
            name: {f.name: [] for f in schema}
            for name, schema in SCHEMAS.items()
            if name not in ("boards", "plays", "diagnostics")
        }
        self.next_board_id = 0
        self.pending_boards = 0
        self._boards: list[tuple[Any, ...]] = []
        self._diagnostics: list[tuple[Any, ...]] = []
        # the plays kept compact (handrec.dataset.play_rows), their seats and cards coded (handrec.dataset.coded)
        self._plays = PlayRows(part_schema("plays", SCHEMAS["plays"]))

    def pending(self, table: str) -> int:
        """The rows of ``table`` buffered (not yet taken)."""
        if table == "plays":
            return self._plays.rows
        if table == "boards":
            return len(self._boards)
        if table == "diagnostics":
            return len(self._diagnostics)
        return len(self.rows[table]["source_file"])

    def _append(self, table: str, row: dict[str, Any]) -> None:
        cols = self.rows[table]
        for k, v in row.items():
            cols[k].append(v)

    def add(self, a: Analysis, dd: dict[str, Any] | None = None, record: GameRecord | None = None) -> int:
        """Append one analysed board's rows; returns its ``board_id``.  ``dd``: its double-dummy
        columns (``convert --dd``: :meth:`handrec.dd.rows.DDRows.push`): the boards row's
        ``dd_*`` values, and ``leads`` (rows of the ``leads`` table without ``board_id`` and
        ``source_file``).  ``record``: the board's :func:`handrec.events.games.record`, when the
        caller has made it (some of its values are columns of ``boards``)."""
        bid = self.next_board_id
        self.next_board_id += 1
        self.pending_boards += 1
        b = a.board
        path = b.origin.path
        auction = b.auction
        auction_text = None
        if auction is not None:
            calls = auction.calls
            n = len(calls)
            texts = list(map(str, calls))
            auction_text = " ".join(texts)
            dealer = auction.dealer
            if type(dealer) is Seat:
                seats = (_SEATS_FROM[dealer] * (n // 4 + 1))[:n]
            else:
                seats = [str(auction.seat_of(i)) for i in range(n)]
            cols = self.rows["calls"]
            cols["board_id"].extend([bid] * n)
            cols["source_file"].extend([path] * n)
            cols["call_index"].extend(range(n))
            cols["seat"].extend(seats)
            cols["call"].extend(texts)
            cols["alert"].extend(map(_ALERT, calls))
            cols["annotation"].extend(map(_ANNOTATION, calls))
        tricks = a.replay.tricks
        played = self._plays.add(bid, path, tricks) if tricks else 0  # (plays first: it counts the cards)
        row = _board_row(bid, a, auction_text, record, played)
        if dd:
            leads = dd.get("leads")
            values = list(row)
            for k, v in dd.items():
                if k != "leads":
                    values[_DD_AT[k]] = v
            row = tuple(values)
            if leads:
                cols = self.rows["leads"]
                for lead in leads:
                    cols["board_id"].append(bid)
                    cols["source_file"].append(path)
                    for k, v in lead.items():
                        cols[k].append(v)
        self._boards.append(row)
        for d in a.diagnostics:
            self.add_diagnostic(d, bid)
        if b.tables:
            self._add_tables(bid, path, b.tables)
        return bid

    def _add_tables(self, bid: int, path: str, tables: tuple) -> None:
        """PBN supplemental tables (ScoreTable, OptimumResultTable ...), one row per element:
        the table's name, the row number (0-based), the column name (``#n`` past the
        header, or for an unknown section) and the element as written (PBN 2.1 §5)."""
        cols = self.rows["supplemental"]
        for t in tables:
            names = [c.name for c in t.columns]
            for r, row in enumerate(t.rows):
                n = len(row)
                cols["board_id"].extend([bid] * n)
                cols["source_file"].extend([path] * n)
                cols["table_name"].extend([t.name] * n)
                cols["row"].extend([r] * n)
                cols["column"].extend(names[c] if c < len(names) else f"#{c + 1}" for c in range(n))
                cols["value"].extend(row)

    def add_diagnostic(self, d: Diagnostic, board_id: int | None) -> None:
        """Append one diagnostic row."""
        code = d.code
        self._diagnostics.append(
            (board_id, d.path, d.line, d.column, code, str(d.severity), d.message, code in STRICT_CODES)
        )

    def add_file(
        self,
        path: str,
        fmt: str | None,
        boards: int,
        errors: int,
        warnings: int,
        *,
        boards_written: int | None = None,
        status: str = "ok",
        sha256: str | None = None,
        nbytes: int | None = None,
    ) -> None:
        """Append one ``files`` row (``boards_written`` defaults to ``boards``)."""
        self._append(
            "files",
            {
                "source_file": path,
                "format": fmt,
                "boards": boards,
                "errors": errors,
                "warnings": warnings,
                "boards_written": boards if boards_written is None else boards_written,
                "status": status,
                "sha256": sha256,
                "bytes": nbytes,
            },
        )

    def take(self, table: str) -> pa.RecordBatch:
        """The buffered rows of ``table`` as a RecordBatch; the buffer is cleared.  Its schema is
        :func:`handrec.dataset.coded.part_schema` of the table's (``plays``: its seats and cards
        as dictionary arrays)."""
        if table == "plays":
            return self._plays.take()
        schema = SCHEMAS[table]
        if table in ("boards", "diagnostics"):
            rows = self._boards if table == "boards" else self._diagnostics
            cols = list(zip(*rows)) if rows else [()] * len(schema)
            batch = pa.RecordBatch.from_arrays([_array(c, f.type) for c, f in zip(cols, schema)], schema=schema)
            rows.clear()
            if table == "boards":
                self.pending_boards = 0
            return batch
        lists = self.rows[table]
        batch = pa.RecordBatch.from_arrays([pa.array(lists[f.name], type=f.type) for f in schema], schema=schema)
        for v in lists.values():
            v.clear()
        return batch


def _array(values: tuple[Any, ...], type_: pa.DataType) -> pa.Array:
    """``pa.array(values, type_)``; a column of nulls only (a tag no game of the batch gives, the
    ``dd_*`` columns without ``--dd``) made at once, not converted a value at a time."""
    if values and values[0] is None and values.count(None) == len(values):
        return pa.nulls(len(values), type_)
    return pa.array(values, type=type_)


def metadata() -> dict[bytes, bytes]:
    """Parquet key-value metadata: schema and handrec versions."""
    return {b"handrec.schema_version": SCHEMA_VERSION.encode(), b"handrec.version": __version__.encode()}


def to_arrow(boards: Iterable[Board]) -> dict[str, pa.Table]:
    """The Arrow tables that ``handrec convert`` writes, for an iterable of boards.

    Returns ``{"boards", "calls", "plays", "diagnostics", "supplemental"}`` tables (see
    :data:`SCHEMAS`); each board is replayed once.

    >>> import io
    >>> from handrec.formats.dispatch import read
    >>> t = to_arrow(read(io.StringIO('[Board "2"]\\n[Dealer "E"]\\n[Vulnerable "NS"]\\n[Contract "4S"]\\n[Declarer "N"]\\n[Result "10"]\\n')))
    >>> t["boards"].select(["board", "contract", "declarer", "result", "score_ns"]).to_pylist()
    [{'board': 2, 'contract': '4S', 'declarer': 'N', 'result': 10, 'score_ns': 620}]
    """
    buf = TableBuffers()
    for b in boards:
        buf.add(analyse(b))
    return {
        name: pa.Table.from_batches([buf.take(name)]).cast(SCHEMAS[name])
        for name in ("boards", "calls", "plays", "diagnostics", "supplemental")
    }
