"""A dataset that grows: ``handrec convert --append``, and the refusal to drop inputs silently.

:func:`handrec.runs.convert.convert` reads the inputs given and, before it
merges, asks this module what the dataset will hold (``existing``):

* ``"append"`` (``convert --append``): every input the dataset already holds
  is kept, at its place, and the inputs given are merged into that list
  (:func:`combine`): one already held and unchanged (same path and SHA-256) is
  *skipped* (its rows reused as they are), one held but changed is *replaced*
  at its place, one not held is *added* after all the others, in the order
  given.  So a dataset of ``A`` with ``B`` appended is, row for row, the
  dataset ``convert A B`` writes (``board_id`` renumbered by the merge,
  ``files.status`` as it was written for each kept input).  A held input
  that ``max_errors`` stopped before reading (``not_read``) is kept.
* ``"refuse"`` (``convert`` without ``--append`` or ``--replace``): when the
  dataset holds inputs not given this time, :class:`WouldDrop` is raised and
  nothing is written.  It is checked twice: before anything is read, on the
  paths as given (:func:`check_paths`: a held input is given when its path is
  a path given, or lies in a folder or archive given), and after reading, on
  the inputs found (:func:`check_inputs`: a file gone from a folder given).
* ``"replace"`` (``convert --replace``): the dataset holds the inputs given
  and no others (what ``convert`` did before ``--append``).

An input is known by its path as given (``week1.pbn`` and ``./week1.pbn`` are
two inputs), the key by which convert reuses unchanged rows.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass

from handrec.dataset.store import InputRows, OldDataset
from handrec.inputs.entries import STDIN

__all__ = ["EXISTING", "ACTIONS", "WouldDrop", "Action", "check_paths", "check_inputs", "combine"]

#: The values of ``existing``: what becomes of the inputs a dataset holds that are not given again.
EXISTING = ("refuse", "replace", "append")
#: What ``convert --append`` does with an input (:class:`Action`), in the order summaries count them.
ACTIONS = ("kept", "skipped (unchanged)", "replaced", "added")


class WouldDrop(ValueError):
    """Converting into the folder would drop inputs the dataset there holds (nothing was written).

    ``paths``: the inputs it would drop, in the dataset's order; ``boards``: their rows in
    ``boards``; ``folder``: the dataset folder; ``reason``: ``None`` when ``--append``
    or ``--replace`` decides it, or why ``--append`` cannot keep them (the dataset was written by
    another handrec version or with other double-dummy options).
    """

    def __init__(self, folder: str, paths: list[str], boards: int, reason: str | None = None) -> None:
        self.folder = folder
        self.paths = paths
        self.boards = boards
        self.reason = reason
        n = len(paths)
        names = ", ".join(paths[:3]) + (f" and {n - 3} more" if n > 3 else "")
        held = f"{n} input{'s' if n != 1 else ''} ({boards} board{'s' if boards != 1 else ''}: {names})"
        if reason is None:
            msg = (
                f"{folder} holds {held} not given this time; converting would drop "
                f"{'them' if n != 1 else 'it'}: add --append to keep {'them' if n != 1 else 'it'} "
                f"and add the inputs given, or --replace to rebuild {folder} with only the inputs given"
            )
        else:
            msg = f"cannot append to {folder} ({reason}); --replace rebuilds it with only the inputs given, dropping {held}"
        super().__init__(msg)


@dataclass(frozen=True, slots=True)
class Action:
    """What ``convert --append`` did with one input: ``kept`` (held, not given), ``skipped
    (unchanged)``, ``replaced``, ``added``."""

    path: str
    action: str


def _given(path: str | os.PathLike[str]) -> str:
    p = os.fspath(path)
    return STDIN if p == "-" else p


def _covered(held: str, given: list[str]) -> bool:
    """Whether the held path ``held`` is one of the paths ``given``, or inside one (folder, archive)."""
    for g in given:
        if held == g or held.startswith(g + "!"):
            return True
        folder = g.rstrip("/" + os.sep)
        if folder and (held.startswith(folder + "/") or held.startswith(folder + os.sep)):
            return True
    return False


def _has_bytes(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` may hold something to read: standard input, a file not empty, a folder not empty."""
    if os.fspath(path) == "-":
        return True
    try:
        if os.path.isdir(path):
            with os.scandir(path) as it:
                return any(True for _ in it)
        return os.path.getsize(path) > 0 or not os.path.isfile(path)  # a FIFO or device: maybe
    except OSError:
        return False


def check_paths(folder: str, held: list[tuple[str, int]], paths: Iterable[str | os.PathLike[str]]) -> None:
    """Before reading: refuse when a held input ``(path, boards)`` is not among ``paths`` nor inside one.

    Not when no path given has anything to read (empty files and folders, paths that do not
    exist): such a run writes nothing (:attr:`handrec.runs.convert.ConvertSummary.written`),
    so it drops nothing.

    :raises WouldDrop: naming those inputs.
    """
    paths = list(paths)
    if not any(map(_has_bytes, paths)):
        return
    given = [_given(p) for p in paths]
    gone = [(p, n) for p, n in held if not _covered(p, given)]
    if gone:
        raise WouldDrop(folder, [p for p, _ in gone], sum(n or 0 for _, n in gone))


def check_inputs(folder: str, held: list[tuple[str, int]], order: list[InputRows]) -> None:
    """After reading: refuse when a held input ``(path, boards)`` is not one of the inputs of ``order``.

    :raises WouldDrop: naming those inputs.
    """
    found = {d.path for d in order}
    gone = [(p, n) for p, n in held if p not in found]
    if gone:
        raise WouldDrop(folder, [p for p, _ in gone], sum(n or 0 for _, n in gone))


def combine(old: OldDataset, order: list[InputRows]) -> tuple[list[InputRows], list[Action]]:
    """The inputs of the appended dataset, in order, and what was done with each (see the module doc).

    ``old``: the dataset in the folder (:attr:`~handrec.dataset.store.OldDataset.held`);
    ``order``: the inputs given, as read (status ``unchanged`` for rows reused).
    """
    new = {d.path: d for d in order}
    out: list[InputRows] = []
    actions: list[Action] = []
    for h in old.held:
        d = new.pop(h.path, None)
        if d is None or d.status == "not_read":
            out.append(h)
            actions.append(Action(h.path, "kept"))
        else:
            out.append(d)
            actions.append(Action(d.path, "skipped (unchanged)" if d.status == "unchanged" else "replaced"))
    for d in order:
        if d.path in new:
            out.append(d)
            actions.append(Action(d.path, "added"))
    return out, actions
