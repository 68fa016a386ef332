"""Travellers: all the results of one board, from its games or from the file's ScoreTable.

:func:`travellers` groups the results of the same board: same session (Event and date, as
:func:`handrec.events.sessions.dated` sets it), same board number (or Board text), same
deal, dealer and vulnerability (Law 87A: a copy that differs is a fouled board, scored
apart, Law 87B).  A board whose game carries a PBN ``ScoreTable`` with scores takes its
traveller from the table's rows instead (PBN 2.1 §5.3: "the traveller of this board";
:func:`table_entries`, the N-S score of a row computed by :func:`row_score`, Law 77).

Sources: bridge-rules.md §8.3; Laws 12C2, 77, 87; PBN 2.1 §5.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from handrec.events.games import _UNKNOWN, GameRecord, TableView, _clean
from handrec.model import Contract, ModelError, Seat, Vulnerability
from handrec.scoring import MAX_MULTIPLICITY
from handrec.scoring.duplicate import score_ns
from handrec.scoring.traveller import ArtificialScore

__all__ = ["Entry", "Traveller", "travellers", "table_entries", "row_score", "unranked_notes"]


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of a traveller: a result of the board at one table.

    ``ns`` / ``ew`` the pairs (``None`` when unknown); ``score_ns`` points for
    North-South (``None`` for an artificial adjusted score); ``artificial``
    the Law 12C2 scores of (N-S, E-W) when the board was not played;
    ``multiplicity`` how many tables had this result (a ScoreTable's
    Multiplicity column); ``contract`` / ``declarer`` / ``tricks`` as text /
    seat / tricks taken; ``room``; ``record`` the game it comes from (``None``
    for a table row); ``row`` the table row index (``None`` for a game); ``names`` the
    players' names of (N-S, E-W) when ``ns`` / ``ew`` are pair numbers (a game's PairNS /
    PairEW, PBN 2.1 §4.3.2; a ScoreTable's PairId_* beside its Names_*, §5.3), else ``None``.
    """

    ns: str | None
    ew: str | None
    score_ns: int | None
    artificial: tuple[ArtificialScore, ArtificialScore] | None = None
    multiplicity: int = 1
    contract: str = ""
    declarer: str = ""
    tricks: int | None = None
    room: str | None = None
    record: GameRecord | None = field(default=None, compare=False)
    row: int | None = None
    names: tuple[str | None, str | None] = field(default=(None, None), compare=False)


@dataclass(frozen=True, slots=True)
class Traveller:
    """All results of one board: ``event``, ``board`` label, ``deal``, and the ``entries``.

    ``source`` is ``"games"`` (one game per table) or ``"ScoreTable"``; ``date`` the
    session's date (:func:`~handrec.events.games.session_date`, ``""`` unknown).
    """

    event: str
    board: str
    deal: str | None
    entries: tuple[Entry, ...]
    source: str = "games"
    date: str = ""

    @property
    def played(self) -> int:
        """Results with a score (multiplicities counted)."""
        return sum(e.multiplicity for e in self.entries if e.score_ns is not None)

    @property
    def size(self) -> int:
        """Results with a score or an artificial score (multiplicities counted); games
        without a result do not count."""
        return sum(e.multiplicity for e in self.entries if e.score_ns is not None or e.artificial is not None)

    def scores(self) -> list[int]:
        """The N-S scores of the played results, each repeated by its multiplicity."""
        out: list[int] = []
        for e in self.entries:
            if e.score_ns is not None:
                out.extend([e.score_ns] * e.multiplicity)
        return out


def _game_entry(r: GameRecord, ranked_only: bool = False) -> Entry:
    """A game's traveller line; with ``ranked_only`` its score only when the game is
    :attr:`~handrec.events.games.GameRecord.ranked` (issue #18: a score that stands on a
    faulty record is not compared; :func:`unranked_notes` says so)."""
    c = r.contract
    return Entry(
        ns=r.ns,
        ew=r.ew,
        score_ns=r.score_ns if not ranked_only or r.ranked else None,
        contract="" if c is None else str(c),
        declarer="" if c is None or c.declarer is None else str(c.declarer),
        tricks=None if r.passed_out else r.tricks,
        room=r.room,
        record=r,
        names=r.names,
    )


_NUM_RE = re.compile(r"^[+-]?\d+$")


def _int_cell(text: str) -> int | None:
    t = text.strip().strip('"')
    return int(t) if _NUM_RE.match(t) else None


def _artificial_kind(text: str) -> ArtificialScore | None:
    """A ``^``-marked percentage as a Law 12C2 kind: >= 55 plus, <= 45 minus, else average."""
    t = text.strip().lstrip("^").strip()
    try:
        p = Fraction(t)
    except (ValueError, ZeroDivisionError):
        return ArtificialScore.AVERAGE
    if p >= 55:
        return ArtificialScore.AVERAGE_PLUS
    if p <= 45:
        return ArtificialScore.AVERAGE_MINUS
    return ArtificialScore.AVERAGE


def table_entries(view: TableView, vulnerable: Vulnerability | None) -> list[Entry]:
    """The traveller lines of a ScoreTable: one :class:`Entry` per row.

    The N-S score is computed by handrec from the Contract / Declarer / Result
    columns and the board's ``vulnerable`` (Law 77, :func:`row_score`), never
    copied from the file: a wrong Score_NS (S607) is not matchpointed.  Only a
    row that cannot be computed takes Score_NS, else minus Score_EW.  A row whose cells carry ``^`` (artificial score, PBN 2.1 §5)
    and no score is an artificial adjusted score: its kind comes from
    Percentage_NS / Percentage_EW (Law 12C2: 60 / 50 / 40 %).  Pairs from
    PairId_* else Names_*; Multiplicity gives repeated results.
    """
    ix = view.index
    i_sns, i_sew = ix("Score_NS"), ix("Score_EW")
    i_c, i_d, i_r = ix("Contract"), ix("Declarer"), ix("Result")
    i_pns, i_pew = ix("PairId_NS"), ix("PairId_EW")
    i_nns, i_new = ix("Names_NS"), ix("Names_EW")
    i_m = ix("Multiplicity")
    i_pcns, i_pcew = ix("Percentage_NS"), ix("Percentage_EW")
    out: list[Entry] = []
    for n, row in enumerate(view.rows):

        def cell(i: int | None, row: tuple[str, ...] = row) -> str:
            return row[i] if i is not None and i < len(row) else "?"

        contract_text = cell(i_c).strip()
        declarer_text = cell(i_d).strip()
        tricks = _int_cell(cell(i_r))
        score = row_score(contract_text, declarer_text, tricks, vulnerable)
        if score is None:  # not computable: the file's Score_NS, else minus its Score_EW
            score = _int_cell(cell(i_sns))
            if score is None:
                ew = _int_cell(cell(i_sew))
                score = None if ew is None else -ew
        artificial = None
        if score is None and any(c.strip().startswith("^") for c in row):
            artificial = (_artificial_kind(cell(i_pcns)), _artificial_kind(cell(i_pcew)))
            if i_pcns is None and i_pcew is not None:
                artificial = (_mirror(artificial[1]), artificial[1])
            elif i_pcew is None:
                artificial = (artificial[0], _mirror(artificial[0]))
        mult = _int_cell(cell(i_m)) if i_m is not None else 1
        # the pair is its PairId when the table gives one, its names kept beside it
        pid_ns, pid_ew = _clean(cell(i_pns)), _clean(cell(i_pew))
        names_ns, names_ew = _names(cell(i_nns)), _names(cell(i_new))
        ns, ew = pid_ns or names_ns, pid_ew or names_ew
        out.append(
            Entry(
                ns=ns,
                ew=ew,
                score_ns=score,
                artificial=artificial,
                multiplicity=mult if mult is not None and 1 <= mult <= MAX_MULTIPLICITY else 1,  # else T124
                contract="" if contract_text in _UNKNOWN else contract_text,
                declarer="" if declarer_text in _UNKNOWN else declarer_text,
                tricks=tricks,
                row=n,
                names=(names_ns if pid_ns else None, names_ew if pid_ew else None),
            )
        )
    return out


def _mirror(kind: ArtificialScore) -> ArtificialScore:
    return {
        ArtificialScore.AVERAGE_PLUS: ArtificialScore.AVERAGE_MINUS,
        ArtificialScore.AVERAGE_MINUS: ArtificialScore.AVERAGE_PLUS,
    }.get(kind, ArtificialScore.AVERAGE)


def _names(text: str) -> str | None:
    t = _clean(text.strip('"'))
    if t is None:
        return None
    parts = [p.strip() for p in t.split(";") if p.strip()]
    return " - ".join(parts) if parts else None


def row_score(contract: str, declarer: str, tricks: int | None, vulnerable: Vulnerability | None) -> int | None:
    """N-S points of a table row's Contract / Declarer / Result (Law 77); ``None`` when not computable.

    >>> row_score("4S", "N", 10, Vulnerability.NONE), row_score("3NTX", "W", 7, Vulnerability.EW)
    (420, 500)
    """
    if contract in _UNKNOWN or vulnerable is None:
        return None
    try:
        c = Contract.parse(contract)
        if c.is_passed_out:
            return 0
        if c.is_end_position or tricks is None or declarer in _UNKNOWN:
            return None
        return score_ns(Contract(c.level, c.strain, c.doubling, Seat.parse(declarer)), vulnerable, tricks)
    except (ModelError, ValueError):
        return None


def unranked_notes(recs: Iterable[GameRecord]) -> list[str]:
    """A note for each game whose score is left out of the ranking because it stands on a
    faulty record (issue #18: only ``clean`` and ``by_law`` scores are ranked), naming the
    board, the pairs and the faults.

    >>> from handrec.model import Origin
    >>> r = GameRecord(Origin("t.pbn"), board="3", ns="A - B", ew="C - D", score_ns=420, status="from_tags", faults=("P403",))
    >>> unranked_notes([r])
    ['board 3: the result of N-S A - B against E-W C - D is not ranked: it stands on a faulty record (P403; score from_tags)']
    """
    out = []
    for r in recs:
        if r.score_ns is not None and not r.ranked:
            codes = ", ".join(r.faults) if r.faults else "no error"
            out.append(
                f"board {r.board or '?'}: the result of N-S {r.ns or '?'} against E-W {r.ew or '?'} is not ranked:"
                f" it stands on a faulty record ({codes}; score {r.status})"
            )
    return out


def travellers(recs: Iterable[GameRecord], *, tables: bool = True, ranked_only: bool = False) -> list[Traveller]:
    """Group results of the same board into travellers, in order of first appearance.

    Key: Event + date (the session, as :func:`~handrec.events.sessions.dated` sets it) + board (number, else Board
    text) + deal + dealer + vulnerability (bridge-rules.md §8.3: results are compared
    between tables that played the same cards; Law 87: a board played with other cards,
    another dealer or another vulnerability is fouled, and Law 87B scores each form of it
    apart).  Games
    with neither board nor deal stand alone.  With ``tables`` (default), a
    board one of whose games has a ScoreTable with at least one score or
    artificial score takes its traveller from the first such table, and its
    games' own results are not added again (the table lists them).  With
    ``ranked_only`` a game's score is kept only when it is ranked
    (:attr:`~handrec.events.games.GameRecord.ranked`; the event scoring's view).
    """
    games: dict[object, list[GameRecord]] = {}
    from_table: dict[object, Traveller] = {}
    for n, r in enumerate(recs):
        key: object = r.key if r.key is not None else ("#", r.origin.path, n)
        games.setdefault(key, []).append(r)
        if tables and key not in from_table:
            for v in r.tables:
                if v.name != "ScoreTable":
                    continue
                entries = table_entries(v, r.vulnerable)
                if any(e.score_ns is not None or e.artificial is not None for e in entries):
                    from_table[key] = Traveller(r.event, r.board, r.deal, tuple(entries), "ScoreTable", r.date)
                    break
    out: list[Traveller] = []
    for key, rs in games.items():
        if key in from_table:
            out.append(from_table[key])
        else:
            first = rs[0]
            out.append(
                Traveller(
                    first.event,
                    first.board,
                    first.deal,
                    tuple(_game_entry(r, ranked_only) for r in rs),
                    date=first.date,
                )
            )
    return out
