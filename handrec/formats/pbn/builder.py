"""The board builder: one typed :class:`~handrec.model.Board` from a PBN game's sections.

:class:`_BoardBuilder` keeps the ``#``/``##`` tag inheritance across the games of one
file (PBN 2.1 §4.8) and builds each Board from the sections of
:mod:`handrec.formats.pbn.parser`: the typed values (Board, Dealer, Vulnerable, Deal,
Contract, Declarer, Result: :mod:`handrec.formats.pbn.tag_values`), the auction
(:mod:`handrec.formats.pbn.auction_section`), the play in play order
(:mod:`handrec.formats.pbn.play_section`), the tables
(:mod:`handrec.formats.pbn.table_section`), the comments with their anchors, the checks
across tags (T127: :func:`_cross_checks`) and, for a file that says ``% EXPORT``, the
export format's (:mod:`handrec.formats.pbn.export_checks`).  Nothing here raises on bad
input: faults become the board's diagnostics.
"""

from __future__ import annotations

from typing import Any

from lark import Lark

from handrec.diagnostics import make
from handrec.formats.pbn.annotations import _notes
from handrec.formats.pbn.auction_section import _auction, _call_anchors
from handrec.formats.pbn.parser import _AUCTION, _LEAD, _NAME, _PLAY, _TAGS, _parse_block, _Scanner, _Section
from handrec.formats.pbn.play_layout import TRUMP_UNKNOWN, play_trump
from handrec.formats.pbn.play_section import _no_trump_why, _play
from handrec.formats.pbn.table_cells import TABLES, typed_cell
from handrec.formats.pbn.table_section import _table
from handrec.formats.pbn.tag_values import (
    _CONTROL_RE,
    _TAG_KIND,
    _UNKNOWN,
    _VALUE_CHECKS,
    _check_chars,
    _check_value,
    _contract_value,
    _deal_value,
    _has_controls,
    _Issue,
    _result_value,
    _seat_value,
)
from handrec.formats.pbn.tags import TAG_NAMES_FOLDED, TAGS, TagValueError, rubber_vulnerability
from handrec.model import Board, ModelError, Origin, Seat, Strain, Table, Tag, Vulnerability

#: Tags that may not use # / ## (PBN 2.1 §4.8).
_NO_INHERIT = frozenset(("Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Auction", "Play", "Note"))


class _BoardBuilder:
    """Builds Boards from the parsed games of one file, keeping ``#``/``##`` state.

    ``last``: tag name to the Tag it had in the latest game giving it (for ``#``);
    ``sticky``: tag name to a ``##`` value that later games omitting the tag take over
    (PBN 2.1 §4.8).
    """

    def __init__(self) -> None:
        self.last: dict[str, Tag] = {}
        self.sticky: dict[str, str] = {}
        self.export = False  # the file said "% EXPORT" (PBN 2.1 §2.4): check export rules
        self.version: tuple[int, int] | None = None  # from "% PBN <major>.<minor>"

    def build_safely(self, parser: tuple[Lark, _Scanner], text: str, origin: Origin) -> Board:
        """Parse and build one board; an unexpected failure becomes an F003 diagnostic."""
        try:
            sections, errors = _parse_block(parser, text)
        except Exception as exc:  # never let a fault escape parse_pbn
            d = make("F003", origin, None, detail=f"game could not be read ({type(exc).__name__}: {exc})")
            return Board(origin, diagnostics=(d,))
        try:
            return self.build(sections, errors, origin, text)
        except Exception as exc:
            tags = tuple(t for sec in sections for t in sec.tags)
            d = make("F003", origin, None, detail=f"game could not be built ({type(exc).__name__}: {exc})")
            return Board(origin, tags=tags, diagnostics=(d,))

    def build(self, sections: list[_Section], errors: list[_Issue], origin: Origin, text: str = "") -> Board:
        """One Board from a game's parsed sections (field meanings: :class:`Board`)."""
        issues: list[_Issue] = errors
        tags: list[Tag] = []
        first: dict[str, Tag] = {}
        refused: list[str] = []
        sticky = self.sticky
        kind_of = _TAG_KIND.get
        value_checks = _VALUE_CHECKS
        last_tag: list[int] = []  # per section: index in ``tags`` of its last tag (-1: none)
        table_at: list[tuple[int, int]] = []  # (section, index in ``tags``) of each table
        controls = _has_controls(text)  # a tab or control character somewhere
        has_comments = False
        for si, sec in enumerate(sections):
            if sec.issues:
                issues.extend(sec.issues)
            if sec.comments:
                has_comments = True
            if controls and sec.raw is not None and _CONTROL_RE.search(sec.raw):
                _check_chars(sec.tags, issues)
            stags = sec.tags
            if sec.plain_tags and not sticky:
                # every tag known, no table, its value in form and not "#": only a name
                # given twice needs the loop below (T102, or a Note kept twice)
                named = dict(zip(map(_NAME, stags), stags))
                if len(named) == len(stags) and first.keys().isdisjoint(named):
                    first.update(named)
                    tags += stags
                    last_tag.append(len(tags) - 1)
                    if sec.rows and sec.kind == _TAGS and (not table_at or table_at[-1][1] != len(tags) - 1):
                        table_at.append((si, len(tags) - 1))  # an unknown section's data
                    continue
            for tag in stags:
                name = tag.name
                kind = kind_of(name)
                if kind is None:
                    known = TAG_NAMES_FOLDED.get(name.lower())
                    if known is None:
                        issues.append(("T120", tag.span, {"tag": name}))
                    else:
                        issues.append(("T122", tag.span, {"name": name, "read": known}))
                        name = known
                        kind = _TAG_KIND[name]
                        tag = Tag(name, tag.value, tag.span)
                if tag.value[:1] == "#" or (sticky and name in sticky):
                    if tag.value[:1] == "#" and name in _NO_INHERIT:
                        refused.append(name)
                    tag = self._inherit(tag, issues)
                tags.append(tag)
                if name in first:
                    if name != "Note":
                        issues.append(("T102", tag.span, {"tag": name}))
                else:
                    first[name] = tag
                    # a value already found in form (None) needs no call
                    if kind == 1 and tag.span is not None and value_checks.get((name, tag.value), "") is not None:
                        _check_value(tag, issues)
                if kind == 2:
                    table_at.append((si, len(tags) - 1))
            last_tag.append(len(tags) - 1)
            if sec.rows and sec.kind == _TAGS and (not table_at or table_at[-1][1] != len(tags) - 1):
                table_at.append((si, len(tags) - 1))  # an unknown section's data
        shift = 0
        if sticky:  # ## values for the tags this game omits, placed first like a header
            extra = [Tag(n, v) for n, v in sticky.items() if n not in first]
            if extra:
                for t in extra:
                    first[t.name] = t
                tags[:0] = extra
                shift = len(extra)
        self.last.update(first)
        for name in refused:  # reported by _inherit: no typed value, no second diagnostic
            if first[name].value[:1] == "#":
                del first[name]

        number = None
        t = first.get("Board")
        if t is not None:
            v = t.value.strip()
            if v.isascii() and v.isdigit() and len(v) <= 9:  # 999,999,999 at most: the int32 of Parquet
                number = int(v)
            if (number is None or number < 1) and v not in _UNKNOWN and t.span is not None:
                expected = "a positive integer of at most 9 digits"
                issues.append(("T121", t.span, {"tag": "Board", "value": t.value, "expected": expected}))
        dealer = _seat_value(first.get("Dealer"), issues)
        vulnerable = None
        t = first.get("Vulnerable")
        if t is not None and t.value.strip() not in _UNKNOWN:
            try:
                vulnerable = Vulnerability.parse(t.value)
            except ModelError:
                issues.append(("T101", t.span, {"tag": "Vulnerable", "value": t.value, "reason": "not None/NS/EW/All"}))
        deal = _deal_value(first.get("Deal"), issues)
        declarer_tag = first.get("Declarer")
        declarer = _seat_value(declarer_tag, issues, caret=True)
        swapped = declarer is not None and declarer_tag.value.lstrip()[:1] == "^"  # type: ignore[union-attr]
        contract = _contract_value(first.get("Contract"), declarer, issues)
        result = _result_value(first.get("Result"), declarer, issues)

        auction = None
        play = None
        auction_sec = play_sec = -1
        anchors: dict[int, list[tuple[str, int]]] = {}  # section index -> anchor per comment
        tables: list[Table] = []
        for i, sec in enumerate(sections):
            kind = sec.kind
            if kind == _AUCTION and auction_sec < 0:
                auction_sec = i
                auction = _auction(sec, _notes(sections, i, issues, "auction"), dealer, issues, sections)
                if sec.comments and auction is not None:
                    anchors[i] = _call_anchors(auction, sec.comment_at)
            elif kind == _PLAY and play_sec < 0:
                play_sec = i
                at: list[tuple[str, int]] = []
                notes = _notes(sections, i, issues, "play")
                trump = play_trump(contract, auction, bad_call=any(i[0] in ("A306", "T106") for i in issues))
                play = _play(
                    sec,
                    notes,
                    trump,
                    issues,
                    sec.comment_at,
                    at,
                    sections,
                    _no_trump_why(contract, auction) if trump is TRUMP_UNKNOWN else "",
                )
                if sec.comments and play is not None:
                    anchors[i] = at
        for i, g in table_at:
            tables.append(_table(tags[g + shift], sections[i] if g == last_tag[i] else None, issues))

        comments: list[str] = []
        comment_anchors: list[tuple[str, int]] = []
        for i, sec in enumerate(sections if has_comments else ()):
            if not sec.comments:
                continue
            comments.extend(sec.comments)
            at = anchors.get(i)
            if at is None:
                anchor = ("game", 0) if sec.kind == _LEAD or last_tag[i] < 0 else ("tag", last_tag[i] + shift)
                at = [anchor] * len(sec.comments)
            comment_anchors.extend(at)

        if "ScoreRubberHistory" in first or "DoubleDummyTricks" in first or "Ability" in first:
            _cross_checks(first, vulnerable, tables, issues)
        for table in tables:
            if table.name in ("AuctionTimeTable", "PlayTimeTable") and (
                (table.name == "AuctionTimeTable" and auction_sec < 0)
                or (table.name == "PlayTimeTable" and play_sec < 0)
            ):
                section = "Auction" if table.name == "AuctionTimeTable" else "Play"
                issues.append(("T125", table.span, {"table": table.name, "detail": f"no {section} section before it"}))
        if self.export:
            # imported by a file that says "% EXPORT" only: its checks and their patterns (start-up)
            from handrec.formats.pbn.export_checks import _export_check

            unknown_sections = frozenset(g + shift for _, g in table_at if tags[g + shift].name not in TABLES)
            _export_check(
                sections,
                tags,
                first,
                shift,
                text,
                dealer,
                deal,
                auction_sec,
                play_sec,
                self.version,
                issues,
                unknown_sections,
            )

        if issues:
            diags = sorted(
                (make(code, origin, span, **args) for code, span, args in issues), key=lambda d: (d.line, d.column)
            )
        else:
            diags = []
        return Board(
            origin=origin,
            tags=tuple(tags),
            number=number,
            dealer=dealer,
            vulnerable=vulnerable,
            deal=deal,
            auction=auction,
            play=play,
            contract=contract,
            declarer=declarer,
            result=result,
            commentary=tuple(comments) if comments else (),
            diagnostics=tuple(diags),
            declarer_swapped=swapped,
            tables=tuple(tables) if tables else (),
            comment_anchors=tuple(comment_anchors) if comment_anchors else (),
        )

    def _inherit(self, tag: Tag, issues: list[_Issue]) -> Tag:
        """The Tag with ``#``/``##`` resolved (PBN 2.1 §4.8); updates ``sticky``.

        ``#`` takes the value of the nearest earlier game that had the tag (``""`` if
        none); ``##text`` gives ``text`` now and in later games that omit the tag.  Any
        explicit value ends an earlier ``##``.  Not allowed for ``_NO_INHERIT`` (T101;
        the value is kept as written).
        """
        name, value, span = tag.name, tag.value, tag.span
        if value[:1] == "#":
            if name in _NO_INHERIT:
                issues.append(
                    (
                        "T101",
                        span,
                        {"tag": name, "value": value, "reason": "'#' inheritance is not allowed for this tag"},
                    )
                )
                return tag
            if value[:2] == "##":
                self.sticky[name] = value[2:]
                return Tag(name, value[2:], span)
            if value == "#":
                self.sticky.pop(name, None)
                prev = self.last.get(name)
                return Tag(name, "" if prev is None else prev.value, span)
        self.sticky.pop(name, None)
        return tag


#: OptimumResultTable (Declarer, Denomination, Result) elements -> :func:`_ort_entry`.
_ORT_ENTRIES: dict[tuple[str, str, str], Any] = {}


def _ort_entry(declarer: str, strain: str, result: str) -> tuple[tuple[Seat, Strain], int] | None:
    """``((seat, strain), tricks)`` for an OptimumResultTable row, or None when an element
    is unknown or not valid or the result is not a plain number of tricks."""
    name = "OptimumResultTable"
    try:
        seat = typed_cell(name, "Declarer", declarer)
        denomination = typed_cell(name, "Denomination", strain)
        tricks = typed_cell(name, "Result", result)
    except TagValueError:
        return None
    if seat is not None and denomination is not None and isinstance(tricks, int):
        return (seat, denomination), tricks
    return None


def _cross_checks(first: dict[str, Tag], vulnerable: Any, tables: list[Table], issues: list[_Issue]) -> None:
    """T127: ScoreRubberHistory against Vulnerable (PBN 2.1 §4.2.6); DoubleDummyTricks and
    Ability against the OptimumResultTable (pbn.md §17)."""
    t = first.get("ScoreRubberHistory")
    if t is not None and vulnerable is not None and t.value.strip() not in _UNKNOWN:
        try:
            implied = rubber_vulnerability(TAGS["ScoreRubberHistory"].parse(t.value))
        except TagValueError:
            implied = None
        if implied is not None and implied is not vulnerable:
            names = ("None", "NS", "EW", "All")
            detail = f"the games won make the vulnerability {names[implied]}, not {names[vulnerable]}"
            issues.append(("T127", t.span, {"tag": t.name, "value": t.value, "other": "Vulnerable", "detail": detail}))
    ort = next((x for x in tables if x.name == "OptimumResultTable"), None)
    if ort is None:
        return
    dd: dict[tuple[Seat, Strain], int] = {}
    # each row read as dict(zip(column names, row)): the last column of a name counts
    where = {name: k for k, name in enumerate(ort.column_names)}
    d_at, s_at, r_at = where.get("Declarer"), where.get("Denomination"), where.get("Result")
    if d_at is not None and s_at is not None and r_at is not None:  # else no row counts
        n = len(ort.columns)
        cache = _ORT_ENTRIES
        for row in ort.rows:
            if len(row) < n:
                continue
            key = (row[d_at], row[s_at], row[r_at])
            entry = cache.get(key, False)
            if entry is False:
                entry = _ort_entry(*key)
                if len(cache) >= 5_000:
                    cache.clear()
                cache[key] = entry
            if entry is not None:
                dd[entry[0]] = entry[1]
    if not dd:
        return
    for name in ("DoubleDummyTricks", "Ability"):
        t = first.get(name)
        if t is None or t.value.strip() in _UNKNOWN:
            continue
        try:
            given = TAGS[name].parse(t.value)
        except TagValueError:
            continue
        for key, tricks in given.items():
            if key in dd and dd[key] != tricks:
                seat, strain = key
                detail = f"{seat} {strain}: {tricks} tricks, the table {dd[key]}"
                issues.append(
                    ("T127", t.span, {"tag": name, "value": t.value, "other": "OptimumResultTable", "detail": detail})
                )
                break
