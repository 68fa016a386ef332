"""USEBIO participants: pairs, teams and individuals, and the consumers' rules on them.

usebio.md "What consumers check": a participant without a number, a number or a national
number given twice, a pair without two players, a missing score, a place outside the field.
"""

from __future__ import annotations

from handrec.formats.usebio.structure import Base, Pair, Player, Section, Wrap
from handrec.formats.usebio.xml import Element

__all__ = ["Participants"]


class Participants(Base):
    """Reads the PARTICIPANTS of each section into :class:`Section.pairs`."""

    winner: str

    # --- participants ----------------------------------------------------------------------
    def _participants(self, sections: list[Section]) -> None:
        nationals: dict[str, Element] = {}
        for sec in sections:
            for parts in sec.element.findall("PARTICIPANTS"):
                for el in parts.children:
                    if el.tag == "PAIR":
                        self._pair(sec, el, nationals)
                    elif el.tag == "TEAM":
                        self._team(sec, el, nationals)
                    elif el.tag == "PLAYER":
                        self._individual(sec, el, nationals)
                    else:
                        self.file("U715", el, element=el.tag, parent="PARTICIPANTS")
        self._places(sections)
        self._labels(sections)

    def _labels(self, sections: list[Section]) -> None:
        """Each pair's label, the PairNS / PairEW of its games: its number, or ``A:1`` (its
        section's id first) in every section when two sections number their pairs alike (the
        same boards played in two sections are scored together: pair 1 of A is not pair 1 of B)."""
        seen: dict[str, str] = {}
        clash = False
        for sec in sections:
            for number in sec.pairs:
                other = seen.setdefault(number, sec.id or "")
                clash = clash or other != (sec.id or "")
        for sec in sections:
            for p in sec.pairs.values():
                p.label = f"{sec.id}:{p.number}" if clash and sec.id else p.number

    def _players(self, owner: Element, nationals: dict[str, Element]) -> list[Player]:
        out = []
        for p in owner.iter("PLAYER"):
            name = (p.value("PLAYER_NAME") or "").strip() or None
            nid_el = p.find("NATIONAL_ID_NUMBER")
            nid = nid_el.text.strip() if nid_el is not None else ""
            if nid and nid.strip("0"):  # empty or 0: unknown (usebio.md)
                first = nationals.setdefault(nid, nid_el)  # type: ignore[arg-type]
                if first is not nid_el:
                    self.file("U708", nid_el, value=nid, other=first.line)
            else:
                nid = ""
            out.append(Player(name, nid or None, p))
        return out

    def _pair(self, sec: Section, el: Element, nationals: dict[str, Element]) -> None:
        n_el = el.find("PAIR_NUMBER")
        number = n_el.text.strip() if n_el is not None else ""
        if not number:
            self.file("U706", el, element="PAIR", number="PAIR_NUMBER")
            return
        players = self._players(el, nationals)
        if len(players) != 2:
            self.file("U710", el, pair=number, count=len(players), s="" if len(players) == 1 else "s")
        if el.find("TOTAL_SCORE") is None:
            self.file(
                "U711", el, parent="PAIR", name=f" {number}", element="TOTAL_SCORE", consequence=" (a missing score)"
            )
        d = (el.value("DIRECTION") or "").strip().upper() or None
        pair = Pair(number, el, sec.id or "", d if d in ("NS", "EW") else None, players)
        if number in sec.pairs:
            self.file("U707", n_el, element="PAIR_NUMBER", value=number, other=sec.pairs[number].element.line)
            return
        sec.pairs[number] = pair

    def _team(self, sec: Section, el: Element, nationals: dict[str, Element]) -> None:
        number = (el.attrs.get("TEAM_ID") or el.value("TEAM_ID") or el.value("TEAM_NUMBER") or "").strip()
        if not number:
            self.file("U706", el, element="TEAM", number="TEAM_ID")
            return
        name = (el.attrs.get("TEAM_NAME") or el.value("TEAM_NAME") or "").strip() or None
        pair = Pair(number, el, sec.id or "", None, self._players(el, nationals), name)
        if number in sec.pairs:
            self.file("U707", el, element="TEAM_ID", value=number, other=sec.pairs[number].element.line)
            return
        sec.pairs[number] = pair

    def _individual(self, sec: Section, el: Element, nationals: dict[str, Element]) -> None:
        number = (el.value("PLAYER_NUMBER") or el.value("PAIR_NUMBER") or "").strip()
        if not number:
            self.file("U706", el, element="PLAYER", number="PLAYER_NUMBER")
            return
        if number in sec.pairs:
            self.file("U707", el, element="PLAYER_NUMBER", value=number, other=sec.pairs[number].element.line)
            return
        p = self._players(Wrap(el), nationals)
        sec.pairs[number] = Pair(number, el, sec.id or "", None, p)

    def _places(self, sections: list[Section]) -> None:
        """U709: a PLACE from 1 to the size of its field (the pairs of its direction for NS and
        EW winners, else every participant of the event)."""
        everyone = [p for s in sections for p in s.pairs.values()]
        for p in everyone:
            el = p.element.find("PLACE")
            if el is None:
                continue
            text = el.text.strip().rstrip("=").strip()
            if self.winner == "2" and p.direction is not None:
                size = sum(1 for q in everyone if q.direction == p.direction)
                what = f"the {size} {p.direction} pairs"
            else:
                size = len(everyone)
                what = f"the {size} participants"
            if not text.isdigit() or not 1 <= int(text) <= size:
                self.file("U709", el, value=el.text, pair=p.number, size=size, field=what)

    # --- traveller lines -------------------------------------------------------------------
