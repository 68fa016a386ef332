"""The everyday-statistics columns of a ``boards`` row, and the file's own claimed figures typed.

:func:`contract_facts` gives ``level``, ``strain``, ``doubled``, ``made``, ``overtricks``,
``undertricks`` and ``is_result`` from the replay's contract and result; :func:`file_figures`
the file's Score, ScoreMP, ScoreIMP and ScorePercentage (PBN 2.1 §4.2.1-4.2.4), OptimumScore
(§4.2.7), ParContract and DoubleDummyTricks (pbn.md §17) as typed values.  A value the record
does not give, or gives out of its PBN form, is ``None``: never a guess.
"""

from __future__ import annotations

import functools
from typing import Any

from handrec.dd.table import DD_SEATS, DD_STRAINS
from handrec.formats.pbn.tags import typed_value
from handrec.model import Contract, Doubling, Seat, Side, Strain, Vulnerability

__all__ = [
    "contract_facts",
    "contract_values",
    "enum_str",
    "file_figures",
    "figure_values",
    "FACT_COLUMNS",
    "FIGURE_COLUMNS",
    "FIGURE_TAGS",
]

#: The columns :func:`contract_facts` fills.
FACT_COLUMNS = ("level", "strain", "doubled", "made", "overtricks", "undertricks", "is_result")
#: The columns :func:`file_figures` fills.
FIGURE_COLUMNS = (
    "file_score_ns",
    "file_mp_ns",
    "file_mp_ew",
    "file_imp_ns",
    "file_imp_ew",
    "file_pct_ns",
    "file_pct_ew",
    "file_par_score_ns",
    "file_par_contracts",
    "file_dd_tricks",
)


def contract_facts(contract: Contract | None, result: int | None) -> dict[str, Any]:
    """``level`` (1-7), ``strain`` (``C``, ``D``, ``H``, ``S``, ``NT``), ``doubled`` (``''``,
    ``X``, ``XX``), ``made``, ``overtricks``, ``undertricks`` and ``is_result`` of a game.

    ``contract``: the replay's (``None`` unknown; level 0 passed out, or an end position
    without a level); ``result``: tricks taken by declarer (0-13, ``None`` unknown).  A
    passed-out game is a result (Law 22A: the board is scored, 0 to both sides) with every
    contract column null; a contract without a result is not (a hand record, or a game
    whose result is lost).  Law 77: a contract makes with level + 6 tricks.

    >>> from handrec.model import Seat
    >>> f = contract_facts(Contract.parse("4SX", Seat.NORTH), 9)
    >>> f["level"], f["strain"], f["doubled"], f["made"], f["undertricks"], f["is_result"]
    (4, 'S', 'X', False, 1, True)
    """
    return dict(zip(FACT_COLUMNS, contract_values(contract, result)))


_NO_CONTRACT = (None, None, None, None, None, None, False)

#: ``str()`` of the members of the model's enums by identity (a member lives as long as its class):
#: an IntEnum member prints through Python code (``__str__``), a lookup by ``id`` does not.
_ENUM_STR: dict[int, str] = {id(m): str(m) for e in (Seat, Vulnerability, Strain, Doubling) for m in e}


def enum_str(v: object) -> str | None:
    """``str(v)``, ``None`` for ``None``: by lookup for a member of the model's enums (Seat,
    Vulnerability, Strain, Doubling), else through ``str``."""
    s = _ENUM_STR.get(id(v))
    return s if s is not None or v is None else str(v)


def contract_values(contract: Contract | None, result: int | None) -> tuple[Any, ...]:
    """:func:`contract_facts` as a tuple, in the order of :data:`FACT_COLUMNS` (``convert``'s rows)."""
    if contract is None:
        return _NO_CONTRACT
    level = contract.level
    if level == 0:
        return (None, None, None, None, None, None, contract.is_passed_out)
    strain, doubled = enum_str(contract.strain), enum_str(contract.doubling)
    if result is None:
        return (level, strain, doubled, None, None, None, False)
    need = level + 6
    return (level, strain, doubled, result >= need, max(0, result - need), max(0, need - result), True)


#: Typed values of the figure tags by (name, value): a file repeats them (``NS 620``, ``NS 50``...).
_typed_value = functools.lru_cache(maxsize=4096)(typed_value)


def _sides(parts: Any, declarer: str | None) -> tuple[Any, Any]:
    """(N-S value, E-W value) of a sided figure: each as written; a bare value is declarer's side's."""
    ns = ew = None
    for side, value in parts or ():
        if side is None:
            side = None if declarer is None else (Side.NS if declarer in ("N", "S") else Side.EW)
        if side is Side.NS:
            ns = value
        elif side is Side.EW:
            ew = value
    return ns, ew


def _float(v: Any) -> float | None:
    return None if v is None else float(v)


def _points(v: Any) -> int | None:
    """A score for the int32 column, ``None`` past it: no contract scores 10,000 points (Law 77),
    and a figure of 20 digits is no score handrec can store (it stays in the tags)."""
    return v if v is None or -(2**31) < v < 2**31 else None


def file_figures(tags: dict[str, str], declarer: str | None) -> dict[str, Any]:
    """The file's own figures of a game (its tags by name: the first of each name), typed.

    ``file_score_ns``: the Score tag's N-S score, else minus its E-W score (Law 77: the same
    points for one side and against the other); ``file_mp_*``, ``file_imp_*``, ``file_pct_*``:
    ScoreMP, ScoreIMP, ScorePercentage for each side they name (PBN 2.1 §4.2.1: a bare value
    is declarer's side's, ``None`` when ``declarer`` is unknown); ``file_par_score_ns``: the
    OptimumScore (§4.2.7) likewise; ``file_par_contracts``: the ParContract parts joined by
    ``'; '``; ``file_dd_tricks``: DoubleDummyTricks as 20 lower-case hex digits, declarers N, S,
    E, W by strains NT, S, H, D, C (pbn.md §17).  ``None`` for a tag absent, ``?``, empty or
    not in PBN form.
    """
    return dict(zip(FIGURE_COLUMNS, figure_values(tags, declarer)))


#: The tags :func:`file_figures` reads.
FIGURE_TAGS = frozenset(
    {"Score", "ScoreMP", "ScoreIMP", "ScorePercentage", "OptimumScore", "ParContract", "DoubleDummyTricks"}
)
_NO_FIGURES = (None,) * len(FIGURE_COLUMNS)


def figure_values(tags: dict[str, str], declarer: str | None) -> tuple[Any, ...]:
    """:func:`file_figures` as a tuple, in the order of :data:`FIGURE_COLUMNS` (``convert``'s rows)."""
    if tags.keys().isdisjoint(FIGURE_TAGS):
        return _NO_FIGURES
    get = tags.get
    score = mp_ns = mp_ew = imp_ns = imp_ew = pct_ns = pct_ew = par_score = par = dd = None
    # Only the tags the game has are typed (a file gives one or two of the seven, Score most often).
    if (v := get("Score")) is not None:
        ns, ew = _sides(_typed_value("Score", v), declarer)
        score = _points(ns if ns is not None else None if ew is None else -ew)
    if (v := get("ScoreMP")) is not None:
        mp_ns, mp_ew = map(_float, _sides(_typed_value("ScoreMP", v), declarer))
    if (v := get("ScoreIMP")) is not None:
        imp_ns, imp_ew = map(_float, _sides(_typed_value("ScoreIMP", v), declarer))
    if (v := get("ScorePercentage")) is not None:
        pct_ns, pct_ew = map(_float, _sides(_typed_value("ScorePercentage", v), declarer))
    if (v := get("OptimumScore")) is not None:
        ns, ew = _sides(_typed_value("OptimumScore", v), declarer)
        par_score = _points(ns if ns is not None else None if ew is None else -ew)
    if (v := get("ParContract")) is not None:
        par = _typed_value("ParContract", v)
    if (v := get("DoubleDummyTricks")) is not None:
        dd = _typed_value("DoubleDummyTricks", v)
    return (
        score,
        mp_ns,
        mp_ew,
        imp_ns,
        imp_ew,
        pct_ns,
        pct_ew,
        par_score,
        None if par is None else "; ".join(par),
        None if dd is None else "".join(f"{dd[seat, strain]:x}" for seat in DD_SEATS for strain in DD_STRAINS),
    )
