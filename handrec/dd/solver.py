"""Double-dummy tables and par: read them from a board's tags, compute par, solve with endplay.

A *double-dummy table* gives, for each of the 4 declarers and 5 strains,
the tricks (0-13) declarer takes when all four hands are known and every
card is played perfectly.  *Par* is the result of perfect bidding on that
table: the contract both sides reach when each bids on exactly while it
pays and doubles every contract that fails.

Sources of a table, in order (:func:`board_dd`):

1. the ``DoubleDummyTricks`` tag (BridgeComposer and others; pbn.md §17):
   20 hex digits, groups of 5 by declarer N, S, E, W, inside a group the
   strains NT, S, H, D, C;
2. the ``Ability`` tag (Big Deal, deal-convert; pbn.md §17):
   ``N:xxxxx E:xxxxx S:xxxxx W:xxxxx`` with the strains NT, S, H, D, C;
3. optionally the DDS solver bundled with endplay (the ``handrec[dd]``
   extra), imported lazily, fed at most :data:`BATCH` deals per call, its
   results cached in memory by deal.

The rows of an ``OptimumResultTable`` (PBN 2.1 §5.2) can be read with
:func:`parse_optimum_result_table`; the board model does not keep table
data yet, so :func:`board_dd` cannot use them by itself.  A file's own par
(``OptimumScore``, ``ParContract``, BEN's ``ParScore``) is preferred over
the computed one when present.

>>> t = DDTable.parse_hex("7c5c67c5c61181711817")
>>> t[Seat.NORTH, Strain.SPADES], t[Seat.EAST, Strain.HEARTS]
(12, 8)
>>> p = par(t, Vulnerability.NONE, Seat.NORTH)
>>> p.label, [str(c) for c in p.contracts]
('NS +980', ['NS 6S='])
"""

from __future__ import annotations

import logging
import os
import re
import tempfile
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from handrec.model import Board, Contract, Deal, Doubling, Seat, Side, Strain, Vulnerability
from handrec.scoring.duplicate import duplicate_score

__all__ = [
    "BATCH",
    "DDError",
    "DDTable",
    "ParContract",
    "Par",
    "BoardDD",
    "par",
    "parse_optimum_score",
    "parse_par_contracts",
    "parse_optimum_result_table",
    "board_dd",
    "boards_dd",
    "solver_available",
    "solve_tables",
    "clear_cache",
    "set_cache_dir",
    "default_cache_dir",
    "check_board",
    "check_boards",
    "has_dd_values",
    "UNAVAILABLE_REASON",
]

log = logging.getLogger(__name__)

#: Most deals DDS accepts in one ``calc_all_tables`` call with all five strains
#: (stack-notes.md: the 41st raises).
BATCH = 40

#: Said (once) when double-dummy solving is asked for without the extra.
UNAVAILABLE_REASON = (
    "Double-dummy tables omitted: solving needs the optional extra (pip install 'handrec[dd]', which adds endplay)."
)

#: Declarers in the order PBN's DoubleDummyTricks and every printed grid use.
DD_SEATS: tuple[Seat, ...] = (Seat.NORTH, Seat.SOUTH, Seat.EAST, Seat.WEST)
#: Strains in the order DoubleDummyTricks, Ability and printed grids use.
DD_STRAINS: tuple[Strain, ...] = (Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)

_STRAIN_LETTERS = {"C": Strain.CLUBS, "D": Strain.DIAMONDS, "H": Strain.HEARTS, "S": Strain.SPADES}
_STRAIN_LETTERS.update({"N": Strain.NOTRUMP, "NT": Strain.NOTRUMP})


class DDError(ValueError):
    """A double-dummy or par value could not be read (bad notation)."""


@dataclass(frozen=True, slots=True)
class DDTable:
    """Double-dummy tricks for every declarer and strain.

    ``tricks[seat][strain]`` is the number of tricks (0-13) ``seat`` takes
    as declarer in ``strain``, indexed by the model's enums (seats N E S W,
    strains C D H S NT).  Index the table as ``table[seat, strain]``.
    """

    tricks: tuple[tuple[int, int, int, int, int], ...]

    def __post_init__(self) -> None:
        if len(self.tricks) != 4 or any(len(row) != 5 for row in self.tricks):
            raise DDError("a double-dummy table has 4 declarers x 5 strains")
        if any(not isinstance(t, int) or not 0 <= t <= 13 for row in self.tricks for t in row):
            raise DDError(f"tricks must be 0-13: {self.tricks!r}")

    def __getitem__(self, key: tuple[Seat, Strain]) -> int:
        seat, strain = key
        return self.tricks[seat][strain]

    @classmethod
    def from_mapping(cls, values: dict[tuple[Seat, Strain], int]) -> DDTable:
        """Build from ``{(seat, strain): tricks}`` holding all 20 entries.

        :raises DDError: if an entry is missing or out of range.
        """
        try:
            return cls(tuple(tuple(values[s, st] for st in Strain) for s in Seat))  # type: ignore[arg-type]
        except KeyError as e:
            raise DDError(f"double-dummy table lacks {e.args[0]}") from None

    @classmethod
    def parse_hex(cls, text: str) -> DDTable:
        """Parse a ``DoubleDummyTricks`` value (pbn.md §17).

        20 hex digits (``a``-``d`` = 10-13, either case): 4 groups of 5 by
        declarer N, S, E, W; inside a group the strains NT, S, H, D, C.

        :raises DDError: for anything else.

        >>> DDTable.parse_hex("00082000827cc5a7cc5a")[Seat.EAST, Strain.SPADES]
        12
        """
        t = text.strip()
        if len(t) != 20 or any(c not in "0123456789abcdABCD" for c in t):
            raise DDError(f"DoubleDummyTricks needs 20 hex digits 0-d: {text!r}")
        values = {}
        for i, seat in enumerate(DD_SEATS):
            for j, strain in enumerate(DD_STRAINS):
                values[seat, strain] = int(t[5 * i + j], 16)
        return cls.from_mapping(values)

    @classmethod
    def parse_ability(cls, text: str) -> DDTable:
        """Parse an ``Ability`` value (Big Deal; pbn.md §17).

        ``N:xxxxx E:xxxxx S:xxxxx W:xxxxx`` in any seat order, 5 hex digits
        per declarer in strain order NT, S, H, D, C.

        :raises DDError: for anything else.

        >>> DDTable.parse_ability("N:AB76A E:00671 S:AB76A W:00671")[Seat.NORTH, Strain.HEARTS]
        7
        """
        values: dict[tuple[Seat, Strain], int] = {}
        parts = text.split()
        if len(parts) != 4:
            raise DDError(f"Ability needs four declarers: {text!r}")
        for part in parts:
            m = re.fullmatch(r"([NESWnesw]):([0-9a-dA-D]{5})", part)
            if m is None:
                raise DDError(f"not an Ability entry: {part!r} in {text!r}")
            seat = Seat.parse(m.group(1))
            for strain, digit in zip(DD_STRAINS, m.group(2)):
                values[seat, strain] = int(digit, 16)
        return cls.from_mapping(values)

    def to_hex(self) -> str:
        """The ``DoubleDummyTricks`` spelling (lower-case hex digits)."""
        return "".join(f"{self[s, st]:x}" for s in DD_SEATS for st in DD_STRAINS)

    def rows(self) -> list[tuple[Seat, list[int]]]:
        """The grid as printed: declarers N, S, E, W; tricks for NT, S, H, D, C."""
        return [(s, [self[s, st] for st in DD_STRAINS]) for s in DD_SEATS]

    def side_tricks(self, side: Side, strain: Strain) -> int:
        """The tricks the side's better declarer takes in ``strain``."""
        return max(self[s, strain] for s in side.seats)


@dataclass(frozen=True, slots=True)
class ParContract:
    """One par contract: ``level`` 1-7, ``strain``, ``doubled`` (a failing
    sacrifice), ``declarers`` (the seats of one side that reach the result,
    N E S W order) and ``result``: tricks relative to the contract (``0``
    made exactly, ``+n`` overtricks, ``-n`` down n).

    ``str()`` is the ``ParContract`` spelling of BridgeComposer (pbn.md §17).

    >>> c = ParContract.parse("EW 5SX-2")
    >>> c.declarers, c.doubled, c.result, str(c)
    ((Seat.EAST, Seat.WEST), True, -2, 'EW 5SX-2')
    """

    level: int
    strain: Strain
    doubled: bool
    declarers: tuple[Seat, ...]
    result: int

    def __str__(self) -> str:
        return f"{self.declarer_text} {self.contract_text}{self.result_text}"

    @property
    def declarer_text(self) -> str:
        """``NS``, ``EW`` or one seat letter."""
        if set(self.declarers) == {Seat.NORTH, Seat.SOUTH}:
            return "NS"
        if set(self.declarers) == {Seat.EAST, Seat.WEST}:
            return "EW"
        return "".join(str(s) for s in self.declarers)

    @property
    def contract_text(self) -> str:
        """``6S``, ``3N``, ``5SX`` (``N`` for no trump, as ParContract writes it)."""
        return f"{self.level}{'N' if self.strain is Strain.NOTRUMP else self.strain}{'X' if self.doubled else ''}"

    @property
    def result_text(self) -> str:
        """``=``, ``+1``, ``-2``."""
        return "=" if self.result == 0 else f"{self.result:+d}"

    @property
    def side(self) -> Side:
        return self.declarers[0].side

    @classmethod
    def parse(cls, text: str) -> ParContract:
        """Parse one ``ParContract`` item: ``NS 6S=``, ``EW 1S+2``, ``W 3N=``, ``NS 5HX-1``.

        :raises DDError: for anything else (including ``NS Pass``: see
            :func:`parse_par_contracts`).
        """
        m = re.fullmatch(r"\s*(NS|EW|[NESW])\s+([1-7])(NT|[CDHSN])(X?)\s*(=|[+-]\d{1,2})\s*", text.upper())
        if m is None:
            raise DDError(f"not a par contract: {text!r}")
        seats = {"NS": (Seat.NORTH, Seat.SOUTH), "EW": (Seat.EAST, Seat.WEST)}.get(m.group(1))
        declarers = seats if seats is not None else (Seat.parse(m.group(1)),)
        result = 0 if m.group(5) == "=" else int(m.group(5))
        level = int(m.group(2))
        if not -(level + 6) <= result <= 7 - level:
            raise DDError(f"impossible result in par contract: {text!r}")
        return cls(level, _STRAIN_LETTERS[m.group(3)], m.group(4) == "X", declarers, result)


@dataclass(frozen=True, slots=True)
class Par:
    """A par result: ``score_ns`` (points, North-South's view; 0 = passed
    out) and the ``contracts`` that reach it (empty when passed out).

    ``label`` is what a hand record prints: ``NS +980``, ``EW +100``, ``0``.
    """

    score_ns: int
    contracts: tuple[ParContract, ...] = ()

    @property
    def label(self) -> str:
        if self.score_ns == 0:
            return "0"
        side = "NS" if self.score_ns > 0 else "EW"
        return f"{side} +{abs(self.score_ns)}"

    @property
    def passed_out(self) -> bool:
        return self.score_ns == 0 and not self.contracts


@dataclass(frozen=True, slots=True)
class BoardDD:
    """What a booklet shows of one board's double dummy: the ``table``
    (``None`` if unknown), the ``par`` (``None`` if unknown) and where they
    came from (``source``: ``"tags"``, ``"solver"``, or ``"tags+computed"``
    when the table came from the file and the par was computed from it).
    ``par_text`` keeps a file's ``ParContract`` value that could not be
    read item by item (printed as given).
    """

    table: DDTable | None
    par: Par | None
    source: str
    par_text: str | None = field(default=None)


# ---------------------------------------------------------------------------
# Par


def par(table: DDTable, vulnerability: Vulnerability, dealer: Seat | None = None) -> Par:
    """The par score and par contracts of a double-dummy table.

    ``vulnerability`` is the board's; ``dealer`` decides which side may bid
    first (it matters only when both sides can make the same top contract;
    ``None`` counts as North).  Returns a :class:`Par` with the score from
    North-South's view.

    Method: perfect-information bidding solved by backward induction over
    the 35 bids 1C..7NT.  A side that has the last bid scores its contract
    undoubled when its better declarer makes it (overtricks included) and
    doubled when it fails (defenders always double a failing contract and
    never a making one; redoubles never pay).  After a bid, the other side
    passes or bids any higher contract, whichever is best for it; the
    opening passes follow the auction (dealer's side, the other, dealer's
    side, the other: four passes pass the deal out).  Scores are Law 77
    (:func:`handrec.scoring.duplicate.duplicate_score`).  This is the usual
    definition of par (e.g. the DDS library's ``DealerPar``; bridge-rules.md
    §4 for the scores).

    Par contracts are the final contracts that score the par, that the
    other side cannot improve on by bidding on, and above which the other
    side has no contract that would score better for it as it stands (so
    ``4D=``, not ``3D+1``, when the opponents would sacrifice in ``3H``
    over ``3D``); the lowest such level per side, strain and doubling.
    Declarers are the seats of the side that take the most tricks.  This
    reproduces what BridgeComposer writes (``OptimumScore`` on all 83 and
    ``ParContract`` on all 68 boards of the shared corpus that carry them)
    and the scores of Big Deal's and deal-convert's ``Minimax`` (412
    boards); ``tests/unit/test_dd.py`` checks it.

    >>> t = DDTable.parse_hex("00082000827cc5a7cc5a")
    >>> p = par(t, Vulnerability.NS, Seat.EAST)
    >>> p.score_ns, [str(c) for c in p.contracts]
    (-980, ['EW 6S=', 'EW 6H='])
    """
    sides = (Side.NS, Side.EW)
    # payoff[side][rank]: the side's own score when it plays bid ``rank`` (0 = 1C .. 34 = 7NT).
    payoff = [[0] * 35 for _ in sides]
    makes = [[False] * 35 for _ in sides]
    for side in sides:
        vul = vulnerability.is_vulnerable(side)
        for rank in range(35):
            level, strain = rank // 5 + 1, Strain(rank % 5)
            tricks = table.side_tricks(side, strain)
            made = tricks >= level + 6
            doubling = Doubling.UNDOUBLED if made else Doubling.DOUBLED
            payoff[side][rank] = duplicate_score(Contract(level, strain, doubling), vul, tricks)
            makes[side][rank] = made

    def ns(side: Side, points: int) -> int:
        return points if side is Side.NS else -points

    def better(side: Side, a: int, b: int) -> int:
        """The NS-view value ``side`` prefers."""
        return max(a, b) if side is Side.NS else min(a, b)

    # value[rank][side]: NS-view outcome once ``side`` has bid ``rank`` and the other side is to act.
    # best_from[rank][side]: the best outcome for ``side`` of bidding any rank >= ``rank``.
    value = [[0, 0] for _ in range(36)]
    best_from: list[list[int | None]] = [[None, None] for _ in range(36)]
    for rank in range(34, -1, -1):
        for side in sides:
            other = side.other
            v = ns(side, payoff[side][rank])
            higher = best_from[rank + 1][other]
            value[rank][side] = v if higher is None else better(other, v, higher)
        for side in sides:
            b = best_from[rank + 1][side]
            best_from[rank][side] = value[rank][side] if b is None else better(side, value[rank][side], b)

    first = (Seat.NORTH if dealer is None else dealer).side
    second = first.other
    opening = {s: best_from[0][s] for s in sides}
    # Passes: first, second, first, second; the fourth pass ends it at 0.
    outcome = 0
    for s in (second, first, second, first):
        outcome = better(s, opening[s], outcome)  # type: ignore[arg-type]

    if outcome == 0:  # every contract scores for one side or the other: 0 is the pass-out
        return Par(0, ())

    contracts = _par_contracts(table, payoff, makes, value, outcome, strict=True)
    if not contracts:  # never seen; kept so that a par always names a contract
        contracts = _par_contracts(table, payoff, makes, value, outcome, strict=False)
    return Par(outcome, tuple(contracts))


def _par_contracts(
    table: DDTable,
    payoff: list[list[int]],
    makes: list[list[bool]],
    value: list[list[int]],
    outcome: int,
    *,
    strict: bool,
) -> list[ParContract]:
    """The final contracts that score ``outcome`` and that the other side leaves alone (see :func:`par`).

    ``strict``: also require that no higher contract of the other side, played
    as it stands, would score better for that side.
    """

    def ns(side: Side, points: int) -> int:
        return points if side is Side.NS else -points

    def gains(side: Side, points_ns: int) -> bool:
        return points_ns > outcome if side is Side.NS else points_ns < outcome

    contracts: list[ParContract] = []
    seen: set[tuple[Side, Strain, bool]] = set()
    for rank in range(35):
        level, strain = rank // 5 + 1, Strain(rank % 5)
        for side in (Side.NS, Side.EW):
            if ns(side, payoff[side][rank]) != outcome or value[rank][side] != outcome:
                continue
            made = makes[side][rank]
            other = side.other
            if strict and any(gains(other, ns(other, payoff[other][r])) for r in range(rank + 1, 35)):
                continue
            key = (side, strain, not made)
            if key in seen:
                continue
            seen.add(key)
            tricks = table.side_tricks(side, strain)
            declarers = tuple(s for s in Seat if s.side is side and table[s, strain] == tricks)
            contracts.append(ParContract(level, strain, not made, declarers, tricks - level - 6))
    # Highest strain first within a level, as hand records list them.
    contracts.sort(key=lambda c: (c.level, -c.strain, c.side))
    return contracts


def parse_optimum_score(text: str) -> int:
    """Read an ``OptimumScore`` value (PBN 2.1 §4) as points for North-South.

    Forms: ``NS 980``, ``EW -100``, ``NS 400 EW -400``, ``EW 430 NS -430``,
    a bare signed number (BEN's ``ParScore``, North-South's view), and
    ``0``.

    :raises DDError: for anything else, or two halves that disagree.

    >>> parse_optimum_score("EW 980"), parse_optimum_score("NS +400"), parse_optimum_score("-430")
    (-980, 400, -430)
    """
    t = text.strip().upper()
    if re.fullmatch(r"[+-]?\d+", t):
        return int(t)
    found: dict[str, int] = {}
    for m in re.finditer(r"(NS|EW)\s*([+-]?\d+)", t):
        found[m.group(1)] = int(m.group(2))
    rest = re.sub(r"(NS|EW)\s*([+-]?\d+)", "", t).strip()
    if not found or rest:
        raise DDError(f"not an optimum score: {text!r}")
    ns_score = found.get("NS")
    ew_score = found.get("EW")
    if ns_score is not None and ew_score is not None and ns_score != -ew_score:
        raise DDError(f"optimum score halves disagree: {text!r}")
    return ns_score if ns_score is not None else -ew_score  # type: ignore[operator]


def parse_par_contracts(text: str) -> tuple[ParContract, ...]:
    """Read a ``ParContract`` value: items joined by ``;`` (``NS Pass`` or
    ``Pass`` = passed out, giving ``()``).

    :raises DDError: if an item cannot be read.

    >>> [str(c) for c in parse_par_contracts("EW 6H=; EW 6S=")]
    ['EW 6H=', 'EW 6S=']
    """
    items = [p.strip() for p in text.split(";") if p.strip()]
    if len(items) == 1 and re.fullmatch(r"((NS|EW)\s+)?PASS", items[0].upper()):
        return ()
    return tuple(ParContract.parse(p) for p in items)


def parse_optimum_result_table(header: str, elements: Iterable[str]) -> DDTable:
    """Read an ``OptimumResultTable`` (PBN 2.1 §5.2) into a table.

    ``header`` is the tag value (columns, e.g. ``Declarer;Denomination\\2R;Result\\2R``);
    ``elements`` the data tokens in order (rows of one token per column;
    rows may come in any order).  Declarers ``N E S W``, denominations
    ``S H D C NT`` (``N`` accepted).

    :raises DDError: unless the rows give all 20 declarer/strain pairs once.

    >>> rows = "N NT 7 N S 12 N H 5 N D 12 N C 6 S NT 7 S S 12 S H 5 S D 12 S C 6"
    >>> rows += " E NT 1 E S 1 E H 8 E D 1 E C 7 W NT 1 W S 1 W H 8 W D 1 W C 7"
    >>> parse_optimum_result_table("Declarer;Denomination\\\\2R;Result\\\\2R", rows.split()).to_hex()
    '7c5c67c5c61181711817'
    """
    names = [re.sub(r"\\.*$", "", c.strip().lstrip("+-")) for c in header.split(";")]
    try:
        di, si, ri = names.index("Declarer"), names.index("Denomination"), names.index("Result")
    except ValueError:
        raise DDError(f"OptimumResultTable lacks Declarer/Denomination/Result columns: {header!r}") from None
    tokens = [e.strip('"') for e in elements]
    width = len(names)
    if len(tokens) % width:
        raise DDError("OptimumResultTable rows are incomplete")
    values: dict[tuple[Seat, Strain], int] = {}
    for i in range(0, len(tokens), width):
        row = tokens[i : i + width]
        try:
            seat = Seat.parse(row[di])
            strain = _STRAIN_LETTERS[row[si].upper()]
            tricks = int(row[ri])
        except (ValueError, KeyError):
            raise DDError(f"bad OptimumResultTable row: {row!r}") from None
        if (seat, strain) in values:
            raise DDError(f"OptimumResultTable repeats {seat} {strain}")
        values[seat, strain] = tricks
    if len(values) != 20:
        raise DDError(f"OptimumResultTable has {len(values)} of 20 entries")
    return DDTable.from_mapping(values)


def board_dd(board: Board) -> BoardDD | None:
    """The double-dummy table and par a board's tags give, or ``None``.

    Table: ``DoubleDummyTricks``, else ``Ability``.  Par: ``OptimumScore``
    (else BEN's ``ParScore``) with ``ParContract`` when the file gives them,
    else computed from the table with :func:`par` (needs the board's
    vulnerability).  Unreadable values are ignored here (the validator
    reports them).
    """
    table = None
    for name, reader in (("DoubleDummyTricks", DDTable.parse_hex), ("Ability", DDTable.parse_ability)):
        value = board.tag(name)
        if value and value.strip():
            try:
                table = reader(value)
                break
            except DDError:
                continue
    file_par, par_text = _file_par(board)
    if file_par is not None:
        return BoardDD(table, file_par, "tags", par_text)
    if table is None:
        return None
    computed = par(table, board.vulnerable, board.dealer) if board.vulnerable is not None else None
    return BoardDD(table, computed, "tags+computed" if computed is not None else "tags")


def _file_par(board: Board) -> tuple[Par | None, str | None]:
    score_text = board.tag("OptimumScore") or board.tag("ParScore")
    if not score_text or not score_text.strip():
        return None, None
    try:
        score = parse_optimum_score(score_text)
    except DDError:
        return None, None
    contract_text = board.tag("ParContract")
    if not contract_text or not contract_text.strip():
        return Par(score, ()), None
    try:
        return Par(score, parse_par_contracts(contract_text)), None
    except DDError:
        return Par(score, ()), contract_text.strip()


# ---------------------------------------------------------------------------
# Solving with endplay (optional)

_CACHE: dict[str, DDTable] = {}
_LOCK = threading.Lock()

#: The folder of the on-disk cache (``None``: memory only); see :func:`set_cache_dir`.
_DISK: Path | None = None
_DISK_LOADED: set[Path] = set()
#: The cache file in that folder: one ``<deal from North> <DoubleDummyTricks hex>`` per line.
CACHE_FILE = "dd-tables-v1.txt"
_DISK_LINE = re.compile(r"(N:\S+ \S+ \S+ \S+) ([0-9a-d]{20})")


def default_cache_dir() -> Path | None:
    """Where the command line keeps solved tables: ``$HANDREC_DD_CACHE`` (empty: no disk cache),
    else ``$XDG_CACHE_HOME/handrec``, else ``~/.cache/handrec``."""
    env = os.environ.get("HANDREC_DD_CACHE")
    if env is not None:
        return Path(env) if env.strip() else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "handrec"


def set_cache_dir(folder: Path | str | None) -> Path | None:
    """Keep solved tables in ``folder`` too (created on first write), so that a second run costs
    nothing; ``None`` (the library's default) keeps them in memory only.  Returns the previous
    setting.  A cache line that does not read back as a deal and a table is ignored, and a
    folder that cannot be written is reported once and otherwise ignored."""
    global _DISK
    with _LOCK:
        previous, _DISK = _DISK, (None if folder is None else Path(folder))
    return previous


def _load_disk(folder: Path) -> None:
    """Read ``folder``'s cache file into the memory cache (once per folder and process)."""
    if folder in _DISK_LOADED:
        return
    _DISK_LOADED.add(folder)
    try:
        text = (folder / CACHE_FILE).read_text(encoding="ascii", errors="replace")
    except OSError:
        return
    for line in text.splitlines():
        m = _DISK_LINE.fullmatch(line.strip())
        if m is None:
            continue
        try:
            table = DDTable.parse_hex(m.group(2))
        except DDError:
            continue
        _CACHE.setdefault(m.group(1), table)


def _save_disk(folder: Path, items: list[tuple[str, DDTable]]) -> None:
    """Append solved tables to ``folder``'s cache file (one ``write`` of whole lines)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with open(folder / CACHE_FILE, "a", encoding="ascii") as f:
            f.write("".join(f"{k} {t.to_hex()}\n" for k, t in items))
    except OSError as e:
        log.warning("double-dummy cache %s not written: %s", folder, e.strerror or e)


def solver_available() -> bool:
    """Whether endplay (the ``handrec[dd]`` extra) can be imported."""
    try:
        _endplay()
    except ImportError:
        return False
    return True


def _endplay() -> tuple[Any, Any]:
    """``(endplay.dds.calc_all_tables, endplay.types.Deal)``, imported on first use (about 0.4-1 s)."""
    from endplay.dds import calc_all_tables
    from endplay.types import Deal as EndplayDeal

    return calc_all_tables, EndplayDeal


def clear_cache() -> None:
    """Forget every solved table held in memory (the disk cache is read again on next use)."""
    with _LOCK:
        _CACHE.clear()
        _DISK_LOADED.clear()


def solve_tables(deals: Sequence[Deal], *, progress: Callable[[int, int], None] | None = None) -> list[DDTable]:
    """Double-dummy tables for complete deals, solved by DDS through endplay.

    Deals already solved in this process (or found in the disk cache, see
    :func:`set_cache_dir`) come from a cache keyed by the deal's PBN
    spelling (North first); ``progress(done, total)`` is called before the
    first batch and after each one, counting the deals to solve.  The rest go to
    ``endplay.dds.calc_all_tables`` :data:`BATCH` at a time (about 0.15-0.45 s
    per deal on two cores).  DDS writes ``dump.txt`` into the working
    directory on a bad deal, so each call runs from a temporary directory
    (the working directory is process-wide: do not solve from two threads
    that also depend on it).

    :raises ImportError: without endplay (install ``handrec[dd]``).
    :raises DDError: if a deal is not complete (four hands, 52 cards).
    """
    keys = []
    for d in deals:
        if not d.is_complete:
            raise DDError(f"cannot solve an incomplete deal: {d}")
        keys.append(str(d))
    with _LOCK:
        disk = _DISK
        if disk is not None:
            _load_disk(disk)
        todo = list(dict.fromkeys(k for k in keys if k not in _CACHE))
    if todo:
        calc_all_tables, EndplayDeal = _endplay()
        if progress is not None:
            progress(0, len(todo))
        for start in range(0, len(todo), BATCH):
            chunk = todo[start : start + BATCH]
            solved = _in_temp_dir(lambda chunk=chunk: calc_all_tables([EndplayDeal(k) for k in chunk]))
            items = [(k, _from_endplay(t.to_list())) for k, t in zip(chunk, solved)]
            with _LOCK:
                _CACHE.update(items)
            if disk is not None:
                _save_disk(disk, items)
            if progress is not None:
                progress(start + len(chunk), len(todo))
    with _LOCK:
        return [_CACHE[k] for k in keys]


def _in_temp_dir(fn: Any) -> Any:
    here = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="handrec-dds-") as tmp:
        os.chdir(tmp)
        try:
            return fn()
        finally:
            os.chdir(here)


def _from_endplay(grid: list[list[int]]) -> DDTable:
    """endplay's ``to_list()``: ``[denomination][player]``, denominations S H D C NT, players N E S W."""
    order = (Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS, Strain.NOTRUMP)
    return DDTable.from_mapping({(Seat(p), order[d]): grid[d][p] for d in range(5) for p in range(4)})


def boards_dd(
    boards: Sequence[Board], *, solve: bool = False, progress: Callable[[int, int], None] | None = None
) -> tuple[list[BoardDD | None], str | None]:
    """Double dummy for each board, and a note to print once (or ``None``).

    Tags first (:func:`board_dd`).  With ``solve``, complete deals that lack a
    table are solved (:func:`solve_tables`) and get a computed par; without
    endplay they are left out and the note says why.
    """
    out = [board_dd(b) for b in boards]
    if not solve:
        return out, None
    need = [i for i, (b, d) in enumerate(zip(boards, out)) if (d is None or d.table is None) and _solvable(b)]
    if not need:
        return out, None
    try:
        tables = solve_tables([boards[i].deal for i in need], progress=progress)  # type: ignore[misc]
    except ImportError:
        log.warning(UNAVAILABLE_REASON)
        return out, UNAVAILABLE_REASON
    for i, table in zip(need, tables):
        b, known = boards[i], out[i]
        if known is not None and known.par is not None:
            out[i] = BoardDD(table, known.par, "tags+solver", known.par_text)
        else:
            p = par(table, b.vulnerable, b.dealer) if b.vulnerable is not None else None
            out[i] = BoardDD(table, p, "solver")
    return out, None


def _solvable(board: Board) -> bool:
    return board.deal is not None and board.deal.is_complete


# ---------------------------------------------------------------------------
# Checking a file's values against the solver (handrec validate --dd)

#: The tags and tables :func:`check_boards` compares with the solver.
CHECKED_TAGS = (
    "DoubleDummyTricks",
    "Ability",
    "OptimumResultTable",
    "OptimumScore",
    "ParScore",
    "ParContract",
    "Minimax",
)
_MINIMAX_SCORE = re.compile(r"[1-7][CDHSN][DR]?[NESW]([+-]?\d+)")


def has_dd_values(board: Board) -> bool:
    """Whether the board writes a double-dummy table or a par (:data:`CHECKED_TAGS`)."""
    return any(t.name in CHECKED_TAGS and t.value.strip() not in ("", "?", "#") for t in board.tags)


#: Wrong cells a D210 message lists before saying how many more there are.
_SHOWN_CELLS = 4


def _table_detail(given: DDTable, solved: DDTable) -> str | None:
    """``N NT 8 (solver 7), ...`` for the cells that differ (declarers N S E W, strains NT S H D C),
    ``None`` when none does."""
    wrong = [
        f"{seat} {'NT' if strain is Strain.NOTRUMP else strain} {given[seat, strain]} (solver {solved[seat, strain]})"
        for seat in DD_SEATS
        for strain in DD_STRAINS
        if given[seat, strain] != solved[seat, strain]
    ]
    if not wrong:
        return None
    more = len(wrong) - _SHOWN_CELLS
    if more > 1:
        return ", ".join(wrong[:_SHOWN_CELLS]) + f" and {more} more cells"
    return ", ".join(wrong)


def check_board(board: Board, solved: DDTable) -> list[Any]:
    """The diagnostics of one board's written double dummy against ``solved`` (its deal's table).

    * **D210**: ``DoubleDummyTricks``, ``Ability`` or ``OptimumResultTable``
      gives a number of tricks the solver does not; one diagnostic per tag
      listing every wrong cell.
    * **D211**: ``OptimumScore`` (or BEN's ``ParScore``, or the score of Big
      Deal's ``Minimax``) is not the par of the solved table (:func:`par`,
      the board's vulnerability and dealer).
    * **D212**: ``ParContract`` does not name the par contracts.

    Each is reported at its tag.  Values that cannot be read are left to the
    reader's own checks (T121); par is not checked without a vulnerability.
    """
    from handrec.diagnostics import make

    out = []
    for name, reader in (("DoubleDummyTricks", DDTable.parse_hex), ("Ability", DDTable.parse_ability)):
        value = board.tag(name)
        if not value or not value.strip():
            continue
        try:
            given = reader(value)
        except DDError:
            continue
        detail = _table_detail(given, solved)
        if detail:
            out.append(make("D210", board.origin, board.tag_span(name), tag=name, detail=detail))
    for t in board.tables:
        if t.name != "OptimumResultTable" or not t.rows:
            continue
        header = ";".join(c.name for c in t.columns)
        try:
            given = parse_optimum_result_table(header, [cell for row in t.rows for cell in row])
        except DDError:
            continue
        detail = _table_detail(given, solved)
        if detail:
            out.append(make("D210", board.origin, t.span, tag="OptimumResultTable", detail=detail))
    if board.vulnerable is None:
        return out
    p = par(solved, board.vulnerable, board.dealer)
    for name in ("OptimumScore", "ParScore", "Minimax"):
        value = board.tag(name)
        if not value or not value.strip():
            continue
        try:
            if name == "Minimax":
                m = _MINIMAX_SCORE.fullmatch(value.strip())
                if m is None:
                    continue
                score = int(m.group(1))
            else:
                score = parse_optimum_score(value)
        except DDError:
            continue
        if score != p.score_ns:
            out.append(make("D211", board.origin, board.tag_span(name), tag=name, value=value, expected=p.label))
    value = board.tag("ParContract")
    if value and value.strip():
        try:
            given_contracts = parse_par_contracts(value)
        except DDError:
            given_contracts = None
        if given_contracts is not None:
            expected = sorted(str(c) for c in p.contracts)
            if sorted(str(c) for c in given_contracts) != expected:
                shown = "; ".join(str(c) for c in p.contracts) or "Pass"
                out.append(make("D212", board.origin, board.tag_span("ParContract"), value=value, expected=shown))
    return out


def check_boards(boards: Sequence[Board], *, progress: Callable[[int, int], None] | None = None) -> list[Any]:
    """Check the double dummy and par written in ``boards`` against the solver (see :func:`check_board`).

    Boards that write none are skipped; the complete deals of the others are
    solved together (:func:`solve_tables`: batches of :data:`BATCH`, the
    cache); a board whose deal is not complete gets **D213** (info) instead.
    Diagnostics in file order.

    :raises ImportError: without endplay (the ``handrec[dd]`` extra).
    """
    from handrec.diagnostics import make

    wanted = [b for b in boards if has_dd_values(b)]
    out: list[Any] = []
    solvable = []
    for b in wanted:
        if _solvable(b):
            solvable.append(b)
        else:
            first = next(t for t in b.tags if t.name in CHECKED_TAGS and t.value.strip() not in ("", "?", "#"))
            out.append(make("D213", b.origin, first.span, tag=first.name, reason="the deal is not complete"))
    tables = solve_tables([b.deal for b in solvable], progress=progress) if solvable else []  # type: ignore[misc]
    for b, table in zip(solvable, tables):
        out.extend(check_board(b, table))
    return sorted(out, key=lambda d: (d.path, d.line, d.column, d.code))
