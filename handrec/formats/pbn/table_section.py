"""A table's data in a PBN game to a :class:`~handrec.model.Table` (PBN 2.1 §5).

:func:`_table` reads a table or an unknown supplemental section from its tag and the
data lines after it: the columns from the header (T123), the rows (one a line, or the
elements cut into rows of the column count, §5.2), each element of a predefined column
checked (:mod:`handrec.formats.pbn.table_cells`, T124) and the sort order of a column
marked ``+``/``-`` (T125).  The data lines are read once per place and shared between
the games of a file (:func:`_table_rows`).
"""

from __future__ import annotations

import functools
import re
from operator import attrgetter
from typing import Any

from lark import Token

from handrec.formats.pbn.parser import _UNESCAPE_RE, _Section, _span
from handrec.formats.pbn.table_cells import TABLES, typed_cell
from handrec.formats.pbn.tag_values import _Issue
from handrec.formats.pbn.tags import TagValueError, parse_columns
from handrec.model import Span, Table, Tag

_ELEMENTS = attrgetter("elements")


#: A table element: a string token (group 1, escapes \" and \\) or a section token.
_ELEMENT_RE = re.compile(r'"([^"\\\n]*(?:\\.[^"\\\n]*)*)"|[^\s"]+')
_TOKEN_OK = frozenset(chr(c) for c in range(33, 127)) - set('[]{};"%')
#: A character a section token may not hold (the complement of :data:`_TOKEN_OK`).
_TOKEN_BAD_RE = re.compile("[^" + re.escape("".join(sorted(_TOKEN_OK))) + "]")
#: (table, column, element) -> None when valid, else why not.
_CELL_CHECKS: dict[tuple[str, str, str], str | None] = {}


class _TableRow:
    """The elements of one line of table data at a given place, shared between games:
    ``elements`` (text, was a string, span) and ``texts``; ``checked_for`` and ``issues``
    remember the cell diagnostics of the latest (table, columns) it was checked for."""

    __slots__ = ("elements", "texts", "spans", "checked_for", "issues")

    def __init__(self, elements: tuple[tuple[str, bool, Span], ...]) -> None:
        self.elements = elements
        self.texts = tuple([e[0] for e in elements])
        self.spans = tuple([e[2] for e in elements])
        self.checked_for: Any = None
        self.issues: tuple[_Issue, ...] = ()


#: Lines of table data by (text, line, column of its first character): table rows recur
#: at the same place in every game of a file (hand records: one OptimumResultTable each).
_TABLE_ROWS: dict[tuple[str, int, int], _TableRow | None] = {}


def _table_row(row: str, line: int, col: int) -> _TableRow | None:
    """The elements of one line of a ROWS token (no line end in it) whose first character
    is at ``(line, col)``; None when it holds none.  No element spans a line end, so a
    line read alone gives what :data:`_ELEMENT_RE` finds in the whole token."""
    out = []
    if '"' not in row:  # no strings: the elements are the whitespace-separated words
        pos = 0
        for w in row.split():
            i = row.find(w, pos)
            pos = i + len(w)
            out.append((w, False, _span(line, col + i)))
    else:
        for m in _ELEMENT_RE.finditer(row):
            quoted = m.group(1) is not None
            text = m.group(1) if quoted else m.group()
            if quoted and "\\" in text:
                text = _UNESCAPE_RE.sub(r"\1", text)
            out.append((text, quoted, _span(line, col + m.start())))
    return _TableRow(tuple(out)) if out else None


def _table_rows(tokens: list[Token]) -> list[_TableRow]:
    """The lines of a section's ROWS tokens that hold elements, in order (a line split by
    a comment gives two); shared :class:`_TableRow` objects from :data:`_TABLE_ROWS`."""
    cache = _TABLE_ROWS
    out = []
    for tok in tokens:
        line = tok.line
        col = tok.column
        for row in tok.split("\n"):
            key = (row, line, col)
            r = cache.get(key, False)
            if r is False:
                r = _table_row(row, line, col)
                if len(row) < 1000:
                    if len(cache) >= 20_000:
                        cache.clear()
                    cache[key] = r
            if r is not None:
                out.append(r)
            line += 1
            col = 1
    return out


def _section_rows(sec: _Section) -> list[_TableRow]:
    """:func:`_table_rows` of a section's ROWS tokens, read once (the table and the export
    check both read them)."""
    rows = sec.table_rows
    if rows is None:
        rows = sec.table_rows = _table_rows(sec.rows)
    return rows


def _table_lines(tokens: list[Token]) -> list[tuple[tuple[str, bool, Span], ...]]:
    """The elements of a section's ROWS tokens, per line: (text, was a string, span)."""
    return [r.elements for r in _table_rows(tokens)]


#: :func:`handrec.formats.pbn.tags.parse_columns`, remembered by tag value (the same header recurs
#: in every game; its results are not changed).
_columns = functools.lru_cache(maxsize=2_000)(parse_columns)


def _cell_issues(name: str, columns: tuple[Any, ...], row: Any, issues: list[_Issue]) -> None:
    """T124 for each element of ``row`` ((text, was a string, span) items) that is not valid
    in its column of table ``name``."""
    n = len(columns)
    convert = TABLES[name].columns
    checks = _CELL_CHECKS
    for k, (text, quoted, span) in enumerate(row):
        column = columns[k].name if k < n else "?"
        if not quoted and _TOKEN_BAD_RE.search(text) is not None:
            bad = next(ch for ch in text if ch not in _TOKEN_OK)
            reason = f"{bad!r} is not allowed in a section token (write a string)"
            issues.append(("T124", span, {"table": name, "column": column, "value": text, "reason": reason}))
            continue
        if column not in convert or text in ("?", "-"):
            continue
        key = (name, column, text)
        why = checks.get(key, "")
        if why == "":
            why = None
            try:
                typed_cell(name, column, text)
            except TagValueError as e:
                why = str(e)
            if len(checks) >= 20_000:
                checks.clear()
            checks[key] = why
        if why is not None:
            issues.append(("T124", span, {"table": name, "column": column, "value": text, "reason": why}))


def _table(tag: Tag, sec: _Section | None, issues: list[_Issue]) -> Table:
    """A table or unknown supplemental section (PBN 2.1 §5) from its tag and data.

    A known table's header gives its columns (T123 for one that is not valid); its rows
    are one per line when every line holds one row, else the element stream cut into rows
    of the column count (import format may wrap rows, §5.2), a short last row T125.  Each
    element of a predefined column is checked (T124), as is a character a section token
    may not hold; a column marked ``+``/``-`` must be sorted (T125); a comment after table
    data is T125 (§5.1).  An unknown section keeps its data lines as rows.
    """
    name = tag.name
    lines = _section_rows(sec) if sec is not None and sec.rows else []
    spec = TABLES.get(name)
    if spec is None:
        return Table(name, (), tuple([r.texts for r in lines]), tag.span, tuple([r.spans for r in lines]))
    columns, problems = _columns(tag.value)
    for text, reason in problems:
        issues.append(("T123", tag.span, {"table": name, "column": text, "reason": reason}))
    n = len(columns)
    if n and not set(map(len, map(_ELEMENTS, lines))) <= {n}:  # some line is not one row
        flat = [e for r in lines for e in r.elements]
        grouped = [flat[k : k + n] for k in range(0, len(flat), n)]
        if grouped and len(grouped[-1]) < n:
            detail = f"the last row has {len(grouped[-1])} of {n} elements"
            issues.append(("T125", grouped[-1][0][2], {"table": name, "detail": detail}))
        for row in grouped:
            _cell_issues(name, columns, row, issues)
        rows = tuple(tuple([e[0] for e in row]) for row in grouped)
        cells = tuple(tuple([e[2] for e in row]) for row in grouped)
    else:
        # one row per line (the usual case): a line's cell diagnostics are remembered on
        # its shared _TableRow, for the (table, columns) they were found for
        key = (name, columns)
        for r in lines:
            if r.checked_for != key:
                found: list[_Issue] = []
                _cell_issues(name, columns, r.elements, found)
                r.issues = tuple(found)
                r.checked_for = key
            if r.issues:
                issues.extend(r.issues)
        rows = tuple([r.texts for r in lines])
        cells = tuple([r.spans for r in lines])
    for k, col in enumerate(columns):
        if col.sort is not None:
            _check_sorted(name, col, [r[k] for r in rows if k < len(r)], tag.span, issues)
    if sec is not None and sec.rows_comment:
        issues.append(
            ("T125", tag.span, {"table": name, "detail": "a comment after table data (only the tag may have one)"})
        )
    return Table(name, columns, rows, tag.span, cells)


def _check_sorted(table: str, col: Any, values: list[str], span: Span | None, issues: list[_Issue]) -> None:
    """T125 when a column marked ``+`` (descending) or ``-`` (ascending) is not in that order;
    only numeric elements count (``-``, ``?`` are skipped, ``^`` is dropped)."""
    nums = []
    for v in values:
        if v in ("-", "?"):
            continue
        try:
            nums.append(float(v.lstrip("^")))
        except ValueError:
            return  # not a numeric column: nothing to check
    pairs = zip(nums, nums[1:])
    ok = all(a >= b for a, b in pairs) if col.sort == "+" else all(a <= b for a, b in pairs)
    if not ok:
        order = "descending ('+')" if col.sort == "+" else "ascending ('-')"
        issues.append(("T125", span, {"table": table, "detail": f"column {col.name} is marked {order} but is not"}))
