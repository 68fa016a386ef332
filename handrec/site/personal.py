"""Personal hand records: one pair's boards with its result and the field's frequencies (``booklet --pair``).

One pair's (or team's) boards, each diagram with the pair's own result and the field's
frequencies under it, as clubs hand out to players after a session (``handrec booklet
--pair N`` or ``--player NAME``).

The content is the site's (:mod:`handrec.site.data`): the same diagrams, score cards and
travellers, scored by :mod:`handrec.events` as ``handrec score`` does.  The page is
one standalone HTML file (its stylesheet inlined, no font or script to fetch) that prints
two boards to a sheet.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from handrec._resources import templates_dir
from handrec.model import Board
from handrec.site.data import SitePair, SiteSession, collect, site_sessions
from handrec.site.render import environment

__all__ = ["PersonalBooklet", "NoSuchPair", "find_pairs", "personal_booklet", "write_personal"]

_FONT_FACE = re.compile(r"@font-face\s*\{[^}]*\}\s*")


class NoSuchPair(LookupError):
    """No pair (or team) of the inputs has the label or player asked for; ``known`` lists the
    pairs there are (at most 20), to say what can be asked for."""

    def __init__(self, message: str, known: list[str]) -> None:
        super().__init__(message)
        self.known = known


@dataclass(slots=True)
class PersonalBooklet:
    """What :func:`personal_booklet` found: per session, the pairs that match (``parts``: a list
    of (session, pair)), and the double-dummy ``note`` when asked for and missing."""

    parts: list[tuple[SiteSession, SitePair]] = field(default_factory=list)
    note: str | None = None

    @property
    def boards(self) -> int:
        return len({(s.folder, r["label"]) for s, p in self.parts for r in p.card})


def _names(label: str) -> list[str]:
    return [n.strip().casefold() for n in label.split(" - ") if n.strip()]


def find_pairs(
    sessions: list[SiteSession], *, pair: str | None = None, player: str | None = None
) -> list[tuple[SiteSession, SitePair]]:
    """The pairs (or teams) asked for, session by session.

    ``pair``: the pair's label as the rankings print it: its number or id (PairNS / PairEW
    tags, PBN 2.1 §4.3.2; a USEBIO PAIR_NUMBER), else its players' names joined by `` - ``
    (case and spaces around it aside); a numbered pair is found by its players' names too.
    ``player``: a player's name, one of the names of a pair (case aside): each pair that
    player played in.  One of the two is given.
    """
    want = None if pair is None else pair.strip().casefold()
    who = None if player is None else player.strip().casefold()
    out = []
    for s in sessions:
        for p in s.pairs.values():
            if not p.card:
                continue
            labels = {p.name.strip().casefold(), (p.ident or p.name).strip().casefold()}
            if p.names:  # a numbered pair: its players are named beside the number
                labels.add(p.names.strip().casefold())
            if (want is not None and want in labels) or (who is not None and who in _names(p.names or p.name)):
                out.append((s, p))
    return out


def personal_booklet(
    boards: Iterable[Board], *, pair: str | None = None, player: str | None = None, dd: bool | None = None
) -> PersonalBooklet:
    """Read ``boards`` and find the pair (``pair``) or the player's pairs (``player``).

    :raises NoSuchPair: when none of the inputs' pairs matches.
    """
    sessions, note = site_sessions(collect(boards), dd=dd)
    parts = find_pairs(sessions, pair=pair, player=player)
    if not parts:
        known = [p.title for s in sessions for p in s.pairs.values() if p.card]
        what = f"pair {pair!r}" if pair is not None else f"player {player!r}"
        raise NoSuchPair(f"no {what} among the scored pairs and teams of the input", known[:20])
    return PersonalBooklet(parts, note)


def render_personal(book: PersonalBooklet, *, title: str | None = None) -> str:
    """The personal booklet as one standalone HTML page (stylesheet inlined, nothing to fetch)."""
    css = _FONT_FACE.sub("", (templates_dir() / "site" / "site.css").read_text(encoding="utf-8"))
    heading = title or book.parts[0][1].title
    return (
        environment()
        .get_template("personal.html.j2")
        .render(heading=heading, parts=book.parts, css=css, dd_note=book.note, board_rows=board_rows)
    )


def write_personal(book: PersonalBooklet, out: Path | str, *, title: str | None = None) -> int:
    """Write the booklet to ``out`` (UTF-8, atomically: a temporary file moved over it) and
    return how many boards it holds.

    :raises OSError: if the folder is missing or not writable."""
    text = render_personal(book, title=title)
    target = Path(out)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return book.boards


def board_rows(pair: SitePair) -> list[dict[str, Any]]:
    """The pair's score card grouped by board: ``board`` (the site's board, or ``None``) and
    its ``rows`` (one line a board; two, the Open and Closed rooms, for a team)."""
    out: list[dict[str, Any]] = []
    for r in pair.card:
        if out and out[-1]["board"] is r["board"] and out[-1]["label"] == r["label"]:
            out[-1]["rows"].append(r)
        else:
            out.append({"board": r["board"], "label": r["label"], "rows": [r]})
    return out
