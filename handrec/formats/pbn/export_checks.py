"""The checks of a game in a file that says ``% EXPORT`` (F020; PBN 2.1 §2.3, §3.3-§3.6, §3.11).

:func:`_export_check` finds what the export format does not allow in one game: tag pairs
not alone on their line, the mandatory tag set missing or tags out of export order
(:func:`_order_check`), values, auction and play lines not in export spelling, a table
row over several lines.  The checks of each line (tabs, length) are the framing's
(:mod:`handrec.formats.pbn.framing`).
"""

from __future__ import annotations

import re
from typing import Any

from handrec.formats.pbn.annotations import _SUFFIX_NAG, _pieces
from handrec.formats.pbn.auction_section import _CALLS, _STANDARD_CALLS
from handrec.formats.pbn.parser import _NAME, _TAGS, _play_elements, _Section, _span
from handrec.formats.pbn.table_cells import TABLES
from handrec.formats.pbn.table_section import _columns, _section_rows
from handrec.formats.pbn.tag_values import _SEATS, _UNKNOWN, _Issue
from handrec.formats.pbn.tags import MTS_ORDER
from handrec.model import ALL_CARDS, Deal, Seat, Span, Tag

#: Possessive quantifiers (as in grammars/pbn.lark): the parts they repeat are disjoint
#: from what follows, so they match what the greedy forms match, without backtracking.
_EXPORT_TAG_RUN = re.compile(
    r'\[[A-Za-z0-9_]++ "[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"\](?:\n\[[A-Za-z0-9_]++ "[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"\])*+'
)
_EXPORT_TAG = re.compile(r'\[[A-Za-z0-9_]+ "[^"\\\n]*(?:\\.[^"\\\n]*)*"\]')
_EXPORT_VUL = frozenset(("None", "NS", "EW", "All"))
_EXPORT_RESULT = re.compile(r"\^?\d+")
_EXPORT_CALL_TOKENS = frozenset(
    ["Pass", "X", "XX", "*", "+", "^I", "^S"] + [f"{lv}{st}" for lv in range(1, 8) for st in ("C", "D", "H", "S", "NT")]
)
_EXPORT_CARD_TOKENS = frozenset([str(c) for c in ALL_CARDS] + ["-", "*", "+", "^R", "^L"])
#: Export order (PBN 2.1 §3.1, §3.4): the mandatory tags in order, other tags by name, the
#: Auction and Play sections, the tables by name.  Scoring is left out for PBN 1.0 files.
_ORDER_KEYS: dict[str, tuple[Any, ...]] = (
    {name: (0, 0, i) for i, name in enumerate(MTS_ORDER)}
    | {"Auction": (1, 0, ""), "Play": (2, 0, "")}
    | {name: (3, 0, name) for name in TABLES}
)
_EXPORT_SUIT = "A?+K?+Q?+J?+T?+9?+8?+7?+6?+5?+4?+3?+2?+"  # possessive: a rank is never given back
_EXPORT_HAND = rf"(?:-|{_EXPORT_SUIT}\.{_EXPORT_SUIT}\.{_EXPORT_SUIT}\.{_EXPORT_SUIT})"
_EXPORT_DEAL = re.compile(rf"[NESW]:{_EXPORT_HAND}(?: {_EXPORT_HAND}){{3}}")
#: A plain auction (calls only, four a line) and a plain play (cards, four a line), as PBN
#: exports them: the usual case, checked with one match.
_EXPORT_CALL = r"(?:Pass|XX?|[1-7](?:NT|[CDHS]))"
_EXPORT_AUCTION = re.compile(
    rf"(?:{_EXPORT_CALL}(?: {_EXPORT_CALL}){{3}}\n)*(?:{_EXPORT_CALL}(?: {_EXPORT_CALL}){{0,3}})?(?: ?[*+])?\s*"
)
_EXPORT_CARD = r"(?:[SHDC][2-9TJQKA]|-)"
_EXPORT_PLAY = re.compile(
    rf"(?:{_EXPORT_CARD}(?: {_EXPORT_CARD}){{0,3}}\n)*(?:{_EXPORT_CARD}(?: {_EXPORT_CARD}){{0,3}}\n?)?\*?\s*"
)


_ORDER_CHECKS: dict[tuple[Any, ...], list[tuple[int, str]]] = {}


def _order_check(names: tuple[str, ...], shift: int, version: tuple[int, int] | None) -> list[tuple[int, str]]:
    """Export-order faults of a game's tag names: (index of the tag or -1, detail)."""
    out: list[tuple[int, str]] = []
    mts = MTS_ORDER if version is None or version >= (2, 0) else tuple(n for n in MTS_ORDER if n != "Scoring")
    present = set(names)
    for name in mts:
        if name not in present:
            out.append((-1, f"the mandatory tag {name} is missing"))
    prev: tuple[Any, ...] = (0, 0, -1)
    prev_name = ""
    for k in range(shift, len(names)):
        name = names[k]
        key = _ORDER_KEYS.get(name)
        if key is None:
            if name == "Note":
                continue
            if name[-1:] == "\x00":  # an unknown supplemental section: with the tables
                name = name[:-1]
                key = (3, 0, name)
            else:
                key = (0, 1, name)
        if key < prev:
            out.append((k, f"tag {name} comes after {prev_name}"))
            break
        prev, prev_name = key, name
    return out


def _export_check(
    sections: list[_Section],
    tags: list[Tag],
    first: dict[str, Tag],
    shift: int,
    text: str,
    dealer: Seat | None,
    deal: Deal | None,
    auction_sec: int,
    play_sec: int,
    version: tuple[int, int] | None,
    issues: list[_Issue],
    sections_at: frozenset[int] = frozenset(),
) -> None:
    """F020 for what a file that says ``% EXPORT`` may not do in one game: tag pairs not
    alone on their line as ``[Name "value"]`` from column 1 (§3.3); a tag of the mandatory
    set missing (14 tags for PBN 1.0, §3.4); tags out of export order (mandatory set in
    order, other tags by name, Auction, Play, tables by name; §3.1, §3.4); Vulnerable not
    None/NS/EW/All; a Deal not from the dealer, upper case, ranks high to low (§3.4.11); a
    Result other than declarer's tricks (§3.4.15); an auction with ``-`` before the dealer,
    more than four calls a line, lower case or suffixes (§3.5); a play line of more than
    four cards, lower case or suffixes (§3.6); a table row over several lines (§5.2)."""

    def add(span: Span | None, detail: str) -> None:
        issues.append(("F020", span, {"detail": detail}))

    lines: list[str] | None = None
    # tag pairs: alone on their line, [Name "value"], from column 1
    for sec in sections:
        tok = sec.raw
        if tok is None:
            continue
        if sec.export_tags:  # every tag pair alone on its line as [Name "value"] (_tag_pairs_plain)
            m_end = len(tok.rstrip()) if tok.column == 1 else -1
        elif sec.kind != _TAGS:  # an Auction or Play tag: one tag pair
            t = sec.tags[0]
            end = len(t.name) + len(t.value) + 5
            m_end = end if tok.column == 1 and tok[:end] == f'[{t.name} "{t.value}"]' else -1
        else:
            m = _EXPORT_TAG_RUN.match(tok) if tok.column == 1 else None
            m_end = -1 if m is None else m.end()
        if m_end >= 0:
            rest = tok[m_end:]
            if (rest[:1] == "\n" and rest.isspace()) or (not rest and tok.end_pos >= len(text)):
                continue
        if lines is None:
            lines = text.split("\n")
        for t in sec.tags:
            line = lines[t.span.line - 1] if t.span is not None and t.span.line <= len(lines) else ""
            if t.span is not None and (t.span.column != 1 or _EXPORT_TAG.fullmatch(line) is None):
                add(t.span, f'tag pair {t.name} is not alone on its line as [{t.name} "value"]')
                break
    # the mandatory tag set and the export order (by the sequence of names: it recurs)
    if sections_at:  # an unknown tag with data is a supplemental section (PBN 2.1 §5)
        names = tuple([t.name + "\x00" if k in sections_at else t.name for k, t in enumerate(tags)])
    elif not shift and len(first) == len(tags):
        names = tuple(first)  # every name once, in tag order: the names of ``tags``
    else:
        names = tuple(map(_NAME, tags))
    found = _ORDER_CHECKS.get((names, shift, version))
    if found is None:
        found = _order_check(names, shift, version)
        if len(_ORDER_CHECKS) >= 2_000:
            _ORDER_CHECKS.clear()
        _ORDER_CHECKS[(names, shift, version)] = found
    for k, detail in found:
        add(None if k < 0 else tags[k].span, detail)
    # values in export spelling
    t = first.get("Vulnerable")
    if t is not None and t.value not in _EXPORT_VUL and t.value.strip() not in _UNKNOWN:
        add(t.span, f"Vulnerable {t.value!r} is not None, NS, EW or All")
    t = first.get("Deal")
    if (
        t is not None
        and deal is not None
        and ((dealer is not None and t.value[:1] != "NESW"[dealer]) or _EXPORT_DEAL.fullmatch(t.value) is None)
    ):
        add(t.span, "the Deal does not start with the dealer in upper case with ranks high to low")
    t = first.get("Result")
    d = first.get("Declarer")
    has_declarer = d is not None and d.value.lstrip("^").strip() in _SEATS
    if t is not None and has_declarer and t.value not in _UNKNOWN and _EXPORT_RESULT.fullmatch(t.value) is None:
        add(t.span, f"Result {t.value!r} is not the number of tricks won by declarer")
    for name in ("Dealer", "Declarer", "Contract"):
        t = first.get(name)
        if t is not None and t.value != t.value.upper() and t.value != "Pass":
            add(t.span, f"{name} {t.value!r} is not upper case")
    # the auction: from the dealer, four calls a line, NAGs not suffixes, upper case
    if auction_sec >= 0 and not (
        len(sections[auction_sec].rows) == 1 and _EXPORT_AUCTION.fullmatch(sections[auction_sec].rows[0])
    ):
        sec = sections[auction_sec]
        per_line: dict[int, int] = {}
        call_tokens = _EXPORT_CALL_TOKENS
        reported = False  # one token fault per auction is enough
        for word, span in sec.elements:
            if word in call_tokens:
                if word[0] not in "*+^":
                    per_line[span.line] = per_line.get(span.line, 0) + 1
                continue
            for piece, sp, _ in _pieces([(word, span)], _EXPORT_CALL_TOKENS):
                if piece in _EXPORT_CALL_TOKENS or piece[0] in "=$":
                    if piece not in ("*", "+") and piece[0] not in "=$^":
                        per_line[sp.line] = per_line.get(sp.line, 0) + 1
                    continue
                if reported or (piece not in _STANDARD_CALLS and piece.upper() in _CALLS):
                    continue  # (a call in a spelling the standard does not know is T105 already)
                reported = True
                if piece == "-":
                    add(sp, "'-' before the dealer's call (the auction starts with the dealer)")
                elif piece in _SUFFIX_NAG:
                    add(sp, f"suffix {piece!r} (export format writes NAGs)")
                else:
                    add(sp, f"call {piece!r} is not written as PBN exports it")
                    per_line[sp.line] = per_line.get(sp.line, 0) + 1
        for line, count in per_line.items():
            if count > 4:
                add(_span(line, 1), f"{count} calls on one auction line (at most 4)")
                break
    if play_sec >= 0:
        card_tokens = _EXPORT_CARD_TOKENS
        tokens = sections[play_sec].rows
        if sections[play_sec].plain or (len(tokens) == 1 and _EXPORT_PLAY.fullmatch(tokens[0])):
            rows = []  # the usual case: plain cards, at most four a line
        else:
            rows = _play_elements(sections[play_sec])
        for words, where in rows:
            if len(words) <= 4 and card_tokens.issuperset(words):
                continue
            count = 0
            for word, span in zip(words, where):
                for piece, sp, _ in _pieces([(word, span)], _EXPORT_CARD_TOKENS):
                    if piece in _EXPORT_CARD_TOKENS or piece[0] in "=$":
                        count += piece not in ("*", "^R", "^L") and piece[0] not in "=$"
                        continue
                    what = f"suffix {piece!r} (export format writes NAGs)" if piece in _SUFFIX_NAG else None
                    add(sp, what or f"card {piece!r} is not written as PBN exports it")
                    return
            if count > 4:
                add(where[0], f"{count} cards on one play line (at most 4)")
                return
    for sec in sections:
        if sec.rows and sec.kind == _TAGS and sec.tags[-1].name in TABLES:
            cols = len(_columns(sec.tags[-1].value)[0])
            data = [r.elements for r in _section_rows(sec)]
            if not cols or set(map(len, data)) <= {cols}:
                continue  # every row on one line (the usual case: no need to look row by row)
            for k, line in enumerate(data):
                if cols and (len(line) > cols or (len(line) < cols and k < len(data) - 1)):
                    add(line[0][2], f"a {sec.tags[-1].name} row not on one line")
                    break
