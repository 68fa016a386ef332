"""The small pieces of markup of the site's pages: a suit, a contract, a card, a link to a pair.

The templates use them thousands of times a build, so they are Python functions: a Jinja
macro call costs far more, and a 1,000-board site calls these some hundred thousand times.

Each returns :class:`markupsafe.Markup` built from escaped values only: a text from the
input never becomes markup.  A suit is drawn for the eye (``aria-hidden``) and named for
a screen reader (visually hidden text): ``2`` + hearts reads "2 hearts".

>>> str(contract({"level": "4", "strain": "H", "doubling": "x", "text": ""}))
'<span class="contract">4<span class="sym red" aria-hidden="true">♥</span><span class="vh"> hearts</span><span aria-hidden="true">x</span><span class="vh"> doubled</span></span>'
>>> str(pair_link("<b>A</b>", {"<b>A</b>": type("P", (), {"page": "pair-1.html"})()}))
'<a class="pair" href="pair-1.html">&lt;b&gt;A&lt;/b&gt;</a>'
"""

from __future__ import annotations

from functools import cache
from typing import Any

from markupsafe import Markup, escape

from handrec.booklet.suit_codes import SUIT_SPANS, suit_plain, suit_text
from handrec.model import Suit

__all__ = [
    "SUITS",
    "sym",
    "suit_text",
    "suit_plain",
    "strain",
    "doubling",
    "contract",
    "card",
    "pbn_card",
    "flag",
    "pair_link",
    "freq_list",
    "play_rows",
    "card_rows",
    "GLOBALS",
]

_NAMES = {Suit.SPADES: "spades", Suit.HEARTS: "hearts", Suit.DIAMONDS: "diamonds", Suit.CLUBS: "clubs"}
#: The suits as the templates list them (spades first): ``key``, ``symbol``, ``name``, ``red``.
SUITS = [
    {"key": str(s), "symbol": s.symbol, "name": _NAMES[s], "red": s.is_red}
    for s in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
]
# one markup of a suit: sym's and that of a suit code in the input's text (suit_text)
_SYM = SUIT_SPANS
_NT = Markup('<span aria-hidden="true">NT</span><span class="vh"> no trump</span>')
_DOUBLING = {
    "x": Markup('<span aria-hidden="true">x</span><span class="vh"> doubled</span>'),
    "xx": Markup('<span aria-hidden="true">xx</span><span class="vh"> redoubled</span>'),
}
_FLAG = Markup(
    '<span class="flag" title="The file\'s own figure differs from handrec\'s">&dagger;'
    '<span class="vh"> the file\'s own figure differs</span></span>'
)
_NO_LEAD = Markup('<span class="none" title="not recorded">\u2013</span>')


def sym(key: str) -> Markup:
    """A suit (``S H D C``): its symbol, in colour, and its name for a screen reader."""
    return _SYM.get(key, Markup(""))


def strain(key: str) -> Markup:
    """A strain (``S H D C NT``), as :func:`sym`; ``NT`` is read "no trump"."""
    return _NT if key == "NT" else sym(key)


def doubling(d: str) -> Markup:
    """``x`` / ``xx`` (any case), read "doubled" / "redoubled"; nothing for undoubled."""
    return _DOUBLING.get((d or "").lower(), Markup(""))


def contract(c: dict[str, Any]) -> Markup:
    """A contract view (``level``, ``strain``, ``doubling``, ``text``: the booklet's
    traveller cell): level, strain and doubling, else its text (``Pass``)."""
    if c["level"]:
        return _contract(c["level"], c["strain"], c["doubling"])
    return escape(c["text"] or "")


@cache
def _contract(level: str, strain_key: str, doubled: str) -> Markup:
    # a few dozen distinct contracts: each made once a build
    return Markup(f'<span class="contract">{escape(level)}{strain(strain_key)}{doubling(doubled)}</span>')


def card(c: dict[str, str]) -> Markup:
    """A card view (``suit``, ``rank``): suit symbol and rank; ``?`` for an unknown card."""
    return _card(c["suit"], c["rank"])


@cache
def _card(suit: str, rank: str) -> Markup:
    if suit:
        return Markup(f'<span class="card">{sym(suit)}{escape(rank)}</span>')
    return Markup('<span class="card">?</span>')


def pbn_card(text: str | None) -> Markup:
    """A card written as PBN writes it (``HA``, ``DT``), a dash when not recorded."""
    if not text:
        return _NO_LEAD
    rank = text[1:]
    return _card(text[0], "10" if rank == "T" else rank)


def flag(on: bool) -> Markup:
    """The booklet's mark (a dagger) for a row whose own figure in the file differs from handrec's."""
    return _FLAG if on else Markup("")


def pair_link(name: str | None, pairs: dict[str, Any], text: str | None = None) -> Markup:
    """A pair's name, linked to its score card when it has one (``pairs``: name to an object
    with ``page`` and a writable ``link``, where the link is kept).  ``text``: what to show
    when it is not the name (a ranking row that names the pair by its other column: the
    TotalScoreTable's PairId of a pair the travellers know by its Names)."""
    shown = name if text is None else text
    if not shown:
        return Markup("")
    p = pairs.get(name) if name else None
    if p is None:
        return escape(shown)
    if shown != name:  # not the pair's own link: made here, not kept
        return Markup(f'<a class="pair" href="{escape(p.page)}">{escape(shown)}</a>')
    link = getattr(p, "link", None)  # made once a pair: the travellers and cards link it thousands of times
    if link is None:
        link = p.link = Markup(f'<a class="pair" href="{escape(p.page)}">{escape(name)}</a>')
    return link


def freq_list(field: list[dict[str, Any]], own: str | None) -> Markup:
    """How the field scored a board, as a score card's cell lists it: each score (``field``:
    :func:`handrec.site.data._field`, best first), ``×n`` when several tables had it, the
    pair's own (``own``, signed text) marked; nothing for an empty field.

    Every line of a side of a board has the same field: :func:`handrec.site.data.score_cards`
    makes this once a side and own score, not once a line (the score cards' biggest part).

    >>> str(freq_list([{"score": "+420", "count": 3, "value": "8"}, {"score": "−50", "count": 1, "value": "0"}], "+420"))
    '<ul class="freq"><li class="own">+420<span class="times"> &times;3</span><span class="vh"> (this pair)</span></li><li>−50</li></ul>'
    """
    if not field:
        return Markup("")
    out = ['<ul class="freq">']
    for f in field:
        mine = f["score"] == own
        out.append('<li class="own">' if mine else "<li>")
        out.append(escape(f["score"]))
        if f["count"] > 1:
            out.append(f'<span class="times"> &times;{escape(f["count"])}</span>')
        if mine:
            out.append('<span class="vh"> (this pair)</span>')
        out.append("</li>")
    out.append("</ul>")
    return Markup("".join(out))


def play_rows(tricks: list[dict[str, Any]]) -> Markup:
    """The rows of a board page's play table, a line each (:func:`handrec.site.pages.play_view`'s
    ``tricks``): the trick's number, its cards in the order played (seat and :func:`card`, the
    winner's cell marked ``won``), empty cells up to four, the winner.  Made here and not by a
    template loop: some 13 tricks of four cards a board, a thousand boards a site.

    >>> str(play_rows([{"number": 1, "leader": "E", "winner": "S", "cards": [
    ...     {"seat": "E", "suit": "H", "rank": "A"}, {"seat": "S", "suit": "S", "rank": "2"}]}]))
    '    <tr><th scope="row">1</th><td><span class="pseat">E</span> <span class="card"><span class="sym red" aria-hidden="true">♥</span><span class="vh"> hearts</span>A</span></td><td class="won"><span class="pseat">S</span> <span class="card"><span class="sym" aria-hidden="true">♠</span><span class="vh"> spades</span>2</span></td><td></td><td></td><td>S</td></tr>\\n'
    """
    out = []
    for t in tricks:
        winner = t["winner"]
        out.append(f'    <tr><th scope="row">{escape(t["number"])}</th>')
        for c in t["cards"]:
            out.append('<td class="won">' if c["seat"] == winner else "<td>")
            out.append(f'<span class="pseat">{escape(c["seat"])}</span> {card(c)}</td>')
        out.append("<td></td>" * (4 - len(t["cards"])))
        out.append(f"<td>{escape(winner)}</td></tr>\n")
    return Markup("".join(out))


_FLAGGED = ' class="flagged"'


def card_rows(rows: list[dict[str, Any]], pairs: dict[str, Any], pct: bool, teams: bool) -> Markup:
    """The rows of a score card's table, a line each (``rows``: the pair's lines of
    :func:`handrec.site.data.score_cards`, or a team's): the board (linked to its page, sorted
    by its number), contract, declarer, result, score, matchpoints or IMPs, the percentage
    (``pct``), the lead, the room (``teams``), the seat, the opponents (:func:`pair_link`,
    ``pairs`` as there), the field's scores (not for ``teams``) and the mark of a row whose
    own figure differs.  Made here and not by a template loop: a pair plays every board of
    a session, so the cards hold some ten thousand lines a site."""
    out = []
    for i, r in enumerate(rows, 1):
        c = r["cells"]
        b = r["board"]
        label = escape(r["label"])
        sort = b.number if b and b.number is not None else i
        head = Markup(f'<a href="{escape(b.page)}">{label}</a>') if b else label
        out.append(
            f'    <tr{_FLAGGED if r["flag"] else ""}><th scope="row" data-sort="{escape(sort)}">{head}</th>'
            f'<td>{contract(c["contract"])}</td><td class="c">{escape(c["by"])}</td>'
            f'<td class="c">{escape(c["contract"]["result"])}</td><td class="num score">{escape(r["score"])}</td>'
            f'<td class="num value">{escape(r["value"])}</td>'
        )
        if pct:
            out.append(f'<td class="num pct">{escape(r["pct"])}</td>')
        out.append(f'<td class="lead">{pbn_card(r["lead"])}</td>')
        if teams:
            out.append(f"<td>{escape(r['room'])}</td>")
        out.append(
            f"<td>{escape(r['seat'])}</td><td>{pair_link(r.get('opp_key') or r['opponents'], pairs, r['opponents'])}</td>"
        )
        if not teams:
            out.append(f'<td class="field">{r["field_html"]}</td>')
        out.append(f'<td class="flag-col">{flag(r["flag"])}</td></tr>\n')
    return Markup("".join(out))


#: What :func:`handrec.site.render.environment` makes global to every template.
GLOBALS = {
    "suits": SUITS,
    "sym": sym,
    "suit_text": suit_text,
    "suit_plain": suit_plain,
    "strain": strain,
    "doubling": doubling,
    "contract": contract,
    "card": card,
    "pbn_card": pbn_card,
    "flag": flag,
    "pair_link": pair_link,
    "play_rows": play_rows,
    "card_rows": card_rows,
}
