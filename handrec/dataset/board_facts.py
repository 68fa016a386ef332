"""The everyday-statistics columns of a ``boards`` row, and the file's own claimed figures typed.

:func:`contract_facts` gives ``level``, ``strain``, ``doubled``, ``made``, ``overtricks``,
``undertricks`` and ``is_result`` from the replay's contract and result; :func:`file_figures`
the file's Score, ScoreMP, ScoreIMP and ScorePercentage (PBN 2.1 §4.2.1-4.2.4), OptimumScore
(§4.2.7), ParContract and DoubleDummyTricks (pbn.md §17) as typed values.  A value the record
does not give, or gives out of its PBN form, is ``None``: never a guess.
"""

from __future__ import annotations

from typing import Any

from handrec.dd.table import DD_SEATS, DD_STRAINS
from handrec.formats.pbn.tags import typed_value
from handrec.model import Contract, Side

__all__ = ["contract_facts", "file_figures", "FACT_COLUMNS", "FIGURE_COLUMNS"]

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
    out: dict[str, Any] = dict.fromkeys(FACT_COLUMNS)
    if contract is None:
        out["is_result"] = False
        return out
    if contract.level == 0:
        out["is_result"] = contract.is_passed_out
        return out
    out["level"] = contract.level
    out["strain"] = str(contract.strain)
    out["doubled"] = str(contract.doubling)
    out["is_result"] = result is not None
    if result is not None:
        need = contract.level + 6
        out["made"] = result >= need
        out["overtricks"] = max(0, result - need)
        out["undertricks"] = max(0, need - result)
    return out


def _typed(tags: dict[str, str], name: str) -> Any:
    return typed_value(name, tags.get(name))


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
    out: dict[str, Any] = dict.fromkeys(FIGURE_COLUMNS)
    ns, ew = _sides(_typed(tags, "Score"), declarer)
    out["file_score_ns"] = _points(ns if ns is not None else None if ew is None else -ew)
    for tag, key in (("ScoreMP", "mp"), ("ScoreIMP", "imp"), ("ScorePercentage", "pct")):
        ns, ew = _sides(_typed(tags, tag), declarer)
        out[f"file_{key}_ns"], out[f"file_{key}_ew"] = _float(ns), _float(ew)
    ns, ew = _sides(_typed(tags, "OptimumScore"), declarer)
    out["file_par_score_ns"] = _points(ns if ns is not None else None if ew is None else -ew)
    par = _typed(tags, "ParContract")
    out["file_par_contracts"] = None if par is None else "; ".join(par)
    dd = _typed(tags, "DoubleDummyTricks")
    if dd is not None:
        out["file_dd_tricks"] = "".join(f"{dd[seat, strain]:x}" for seat in DD_SEATS for strain in DD_STRAINS)
    return out
