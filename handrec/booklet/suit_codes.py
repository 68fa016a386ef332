"""Suit codes in text from the input, drawn as suit symbols: for the booklets and the site.

Writers mark a suit inside free text two ways: BBO's ``!S !H !D !C`` in alert explanations
(LIN ``an``, lin.md §3) and BridgeComposer's ``\\S \\H \\D \\C`` in comments, notes and even
tags (pbn.md §3.8 [wild]).  The stored data keeps the text as written; only the pages draw
the symbols.  The text is untrusted: :func:`suit_text` escapes everything but the symbols it
draws itself, :func:`suit_plain` gives a plain string for places without markup (a page
title, an attribute, a Typst string).

>>> str(suit_text("5+ !S & <b>"))
'5+ <span class="sym" aria-hidden="true">♠</span><span class="vh"> spades</span> &amp; &lt;b&gt;'
>>> suit_plain(r"Rebid after 2\\C; 3+ !D")
'Rebid after 2♣; 3+ ♦'
"""

from __future__ import annotations

import re

from markupsafe import Markup, escape

from handrec.model import Suit

__all__ = ["SUIT_SPANS", "suit_text", "suit_plain"]

_NAMES = {Suit.SPADES: "spades", Suit.HEARTS: "hearts", Suit.DIAMONDS: "diamonds", Suit.CLUBS: "clubs"}
#: A suit as the pages draw it (``S H D C`` to markup): the symbol for the eye, in the
#: diagrams' ``sym``/``red`` classes, and its name for a screen reader (``vh``: visually hidden).
SUIT_SPANS: dict[str, Markup] = {
    str(s): Markup(
        f'<span class="sym{" red" if s.is_red else ""}" aria-hidden="true">{s.symbol}</span>'
        f'<span class="vh"> {_NAMES[s]}</span>'
    )
    for s in _NAMES
}
_SYMBOLS = {str(s): s.symbol for s in _NAMES}

#: ``!S`` or ``\S``.  A letter after it other than a rank (``!CA``: the ace of clubs) or ``x``
#: (``!Sxx``) makes a word of it ("!Spades", ``C:\Data``), which stays as written.
_SUIT_CODE = re.compile(r"[!\\]([SHDC])(?![B-IL-PR-SU-Za-wyz])")


def suit_text(text: str | None) -> Markup:
    """``text`` escaped, its suit codes drawn as :data:`SUIT_SPANS`; empty for ``None``."""
    if not text:
        return Markup("")
    out: list[str] = []
    pos = 0
    for m in _SUIT_CODE.finditer(text):
        out.append(escape(text[pos : m.start()]))
        out.append(SUIT_SPANS[m.group(1)])
        pos = m.end()
    out.append(escape(text[pos:]))
    return Markup("".join(out))


def suit_plain(text: str | None) -> str:
    """``text`` with its suit codes as bare suit symbols (not escaped); ``""`` for ``None``."""
    return _SUIT_CODE.sub(lambda m: _SYMBOLS[m.group(1)], text) if text else ""
