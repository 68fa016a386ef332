"""The registry of codes documents itself: every code has a source, a rule and an example, and
each example is a message its template can print (so docs/diagnostics.md and ``handrec codes``
never show a message handrec cannot give)."""

from __future__ import annotations

import re
import string

import pytest

from handrec.diagnostics import CODES, Severity


def template_pattern(template: str) -> re.Pattern[str]:
    """A regular expression matching every message ``template`` can format: each field any text
    (a ``!r`` field a quoted one)."""
    out = []
    for literal, field, _spec, conversion in string.Formatter().parse(template):
        out.append(re.escape(literal))
        if field is not None:
            out.append("'.*'" if conversion == "r" else ".*")
    return re.compile("".join(out))


def test_template_pattern() -> None:
    p = template_pattern("{call} by {seat} does not outrank {previous}")
    assert p.fullmatch("1D by N does not outrank 1H")
    assert not p.fullmatch("1D by N outranks 1H")
    assert template_pattern("unknown tag {tag!r} kept").fullmatch("unknown tag 'X' kept")
    assert not template_pattern("unknown tag {tag!r} kept").fullmatch("unknown tag X kept")


@pytest.mark.parametrize("code", sorted(CODES))
def test_code_is_documented(code: str) -> None:
    c = CODES[code]
    assert c.code == code and re.fullmatch(r"[FTDAPCSU]\d{3}", code)
    assert isinstance(c.severity, Severity)
    for field in ("title", "template", "source", "rule", "example"):
        assert getattr(c, field).strip(), f"{code} has no {field}"
    assert c.rule.endswith("."), f"{code}: the rule is a sentence"
    assert template_pattern(c.template).fullmatch(c.example), f"{code}: {c.example!r} is not what {c.template!r} prints"


def test_sources_name_a_law_a_standard_or_handrec() -> None:
    known = re.compile(r"(Laws? \d|PBN 2\.1 §|lin\.md §|pbn\.md §|bridge-rules\.md §|usebio\.md|handrec)")
    assert [c.code for c in CODES.values() if not known.search(c.source)] == []
