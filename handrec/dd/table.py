"""Double-dummy tables: the 20 trick counts of a deal, and how files write them.

A *double-dummy table* gives, for each of the 4 declarers and 5 strains,
the tricks (0-13) declarer takes when all four hands are known and every
card is played perfectly.  Files write one as ``DoubleDummyTricks`` (20 hex
digits, pbn.md §17), ``Ability`` (Big Deal, pbn.md §17) or an
``OptimumResultTable`` (PBN 2.1 §5.2); :class:`DDTable` reads all three.

>>> t = DDTable.parse_hex("7c5c67c5c61181711817")
>>> t[Seat.NORTH, Strain.SPADES], t[Seat.EAST, Strain.HEARTS]
(12, 8)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from handrec.model import Seat, Side, Strain

__all__ = ["DDError", "DDTable", "DD_SEATS", "DD_STRAINS", "STRAIN_LETTERS", "parse_optimum_result_table"]

#: Declarers in the order PBN's DoubleDummyTricks and every printed grid use.
DD_SEATS: tuple[Seat, ...] = (Seat.NORTH, Seat.SOUTH, Seat.EAST, Seat.WEST)
#: Strains in the order DoubleDummyTricks, Ability and printed grids use.
DD_STRAINS: tuple[Strain, ...] = (Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)

STRAIN_LETTERS = {"C": Strain.CLUBS, "D": Strain.DIAMONDS, "H": Strain.HEARTS, "S": Strain.SPADES}
STRAIN_LETTERS.update({"N": Strain.NOTRUMP, "NT": Strain.NOTRUMP})


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
            strain = STRAIN_LETTERS[row[si].upper()]
            tricks = int(row[ri])
        except (ValueError, KeyError):
            raise DDError(f"bad OptimumResultTable row: {row!r}") from None
        if (seat, strain) in values:
            raise DDError(f"OptimumResultTable repeats {seat} {strain}")
        values[seat, strain] = tricks
    if len(values) != 20:
        raise DDError(f"OptimumResultTable has {len(values)} of 20 entries")
    return DDTable.from_mapping(values)
