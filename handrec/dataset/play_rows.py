"""The rows of the ``plays`` table, kept as bytes while they are buffered and made columns with numpy.

A board's play is 52 rows of 8 columns: as Python lists, ``convert`` spent more on them than on
anything else it adds to ``validate`` (issue #23.2).  :class:`PlayRows` keeps a board's play
as a few small byte strings -- one code a card (its index in
:data:`handrec.model.ALL_CARDS`, :data:`_NO_CARD` for a card the record does not know), and a
trick's length, leader, winner and number -- and :meth:`PlayRows.take` makes the columns of all
the boards buffered at once, with numpy: ``card_index``, ``position`` and ``seat`` are computed
from the tricks (``seat`` = the leader's offset by the position, clockwise); ``seat``, ``card``
and ``winner`` are dictionary arrays of those codes on their fixed dictionaries
(:mod:`handrec.dataset.coded`: the Parquet writer stores the codes as they are); ``source_file``
is made from its buffers for a batch of one input (else from a dictionary array cast to
strings).  A play that does not fit the codes (a card or seat that is not one of the model's
own instances, a trick of more than four cards: only hand-built boards) is kept as lists, as
before, in its place among the others.
"""

from __future__ import annotations

from array import array
from itertools import chain
from typing import Any

import numpy as np
import pyarrow as pa

from handrec.dataset.coded import CODED, coded
from handrec.model import ALL_CARDS, Seat

__all__ = ["PlayRows"]

#: The code of a card the record does not know (``None``), after the 52 cards.
_NO_CARD = 52
#: The code of a trick without a winner (unfinished, or a card unknown).
_NO_WINNER = 4
_CODE: dict[int, int] = {id(c): i for i, c in enumerate(ALL_CARDS)}
_CODE[id(None)] = _NO_CARD
#: A trick's winner by seat (``None``: no winner); a key that is not one of these: not the model's.
_WINNER: dict[object, int] = {**{s: int(s) for s in Seat}, None: _NO_WINNER}
_SEAT_TYPE = {Seat}
#: The coded columns (:data:`handrec.dataset.coded.CODED`) as text, before they are coded.
_TEXT = dict.fromkeys(CODED["plays"], pa.string())


def _s(v: object) -> str | None:
    return None if v is None else str(v)


class _Coded:
    """The plays of consecutive boards in codes."""

    def __init__(self) -> None:
        self.cards = bytearray()  # a code a card
        self.tlen = bytearray()  # a trick's cards
        self.tlead = bytearray()  # its leader (0-3: N E S W)
        self.twin = bytearray()  # its winner, _NO_WINNER for none
        self.tnum = array("q")  # its number
        self.bids = array("q")  # a board's id
        self.paths: list[str] = []  # its source file
        self.bcards = array("q")  # its cards

    def columns(self, schema: pa.Schema) -> list[pa.Array]:
        codes = np.frombuffer(bytes(self.cards), np.int8)
        n = len(codes)
        tlen = np.frombuffer(bytes(self.tlen), np.uint8).astype(np.int64)
        bcards = np.frombuffer(self.bcards, np.int64)
        row = np.arange(n, dtype=np.int64)
        tstart = np.repeat(np.cumsum(tlen) - tlen, tlen)
        position = row - tstart + 1
        lead = np.repeat(np.frombuffer(bytes(self.tlead), np.uint8).astype(np.int64), tlen)
        seat = (lead + position - 1) & 3
        winner = np.repeat(np.frombuffer(bytes(self.twin), np.uint8), tlen)
        trick = np.repeat(np.frombuffer(self.tnum, np.int64), tlen)
        card_index = row - np.repeat(np.cumsum(bcards) - bcards, bcards)
        names = {p: i for i, p in enumerate(dict.fromkeys(self.paths))}
        text = self.paths[0].encode() if len(names) == 1 else b""
        if text and n * len(text) < 2**31:  # the usual batch, of one input: its path n times, from the buffers
            offsets = np.arange(0, (n + 1) * len(text), len(text), dtype=np.int32)
            paths = pa.StringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(text * n))
        else:
            path_idx = np.repeat(np.fromiter((names[p] for p in self.paths), np.int32, len(self.paths)), bcards)
            paths = pa.DictionaryArray.from_arrays(pa.array(path_idx), pa.array(list(names), pa.string()))
        fixed = CODED["plays"]
        cols = {
            "board_id": pa.array(np.repeat(np.frombuffer(self.bids, np.int64), bcards)),
            "source_file": paths,
            "card_index": pa.array(card_index),
            "trick": pa.array(trick),
            "position": pa.array(position),
            "seat": pa.DictionaryArray.from_arrays(pa.array(seat.astype(np.int8)), fixed["seat"]),
            "card": pa.DictionaryArray.from_arrays(pa.array(codes, mask=codes == _NO_CARD), fixed["card"]),
            "winner": pa.DictionaryArray.from_arrays(
                pa.array(winner.astype(np.int8), mask=winner == _NO_WINNER), fixed["winner"]
            ),
        }
        return [cols[f.name].cast(f.type) for f in schema]


class _Listed:
    """The plays of consecutive boards that do not fit the codes, as lists (one a column)."""

    def __init__(self, schema: pa.Schema) -> None:
        self.cols: dict[str, list[Any]] = {f.name: [] for f in schema}

    def add(self, bid: int, path: str, tricks: tuple) -> None:
        cards = [c for t in tricks for c in t.cards]
        n = len(cards)
        cols = self.cols
        cols["board_id"].extend([bid] * n)
        cols["source_file"].extend([path] * n)
        cols["card_index"].extend(range(n))
        cols["trick"].extend(t.number for t in tricks for _ in t.cards)
        cols["position"].extend(p + 1 for t in tricks for p in range(len(t.cards)))
        cols["seat"].extend(str(t.leader.offset(p)) for t in tricks for p in range(len(t.cards)))
        cols["card"].extend(_s(c) for c in cards)
        cols["winner"].extend(_s(t.winner) for t in tricks for _ in t.cards)

    def columns(self, schema: pa.Schema) -> list[pa.Array]:
        texts = pa.table({f.name: pa.array(self.cols[f.name], type=_TEXT.get(f.name, f.type)) for f in schema})
        return [c.combine_chunks() for c in coded("plays", texts).cast(schema).columns]


class PlayRows:
    """The ``plays`` rows of the boards buffered (:class:`handrec.dataset.tables.TableBuffers`), in order."""

    def __init__(self, schema: pa.Schema) -> None:
        self.schema = schema
        self._chunks: list[_Coded | _Listed] = []
        self.rows = 0

    def add(self, bid: int, path: str, tricks: tuple) -> int | None:
        """Add the rows of one board's tricks (:attr:`handrec.rules.replay.Replay.tricks`), one per card.

        Returns the cards the play gives (those not ``None``: ``boards.cards_played``) when the play
        fits the codes, else ``None`` (the caller counts them)."""
        if not tricks:
            return 0
        numbers, leaders, cards, winners = zip(*tricks)  # (each step below runs in C: no loop a card)
        try:
            leads = bytes(leaders)
            lens = bytes(map(len, cards))
            wins = bytes(map(_WINNER.__getitem__, winners))
            codes = bytes(map(_CODE.__getitem__, map(id, chain.from_iterable(cards))))
            nums = array("q", numbers)
        except (KeyError, TypeError, ValueError, OverflowError):  # not the model's own seats or cards
            return self._listed(bid, path, tricks)
        if max(leads) > 3 or max(lens) > 4 or {*map(type, leaders)} != _SEAT_TYPE:
            return self._listed(bid, path, tricks)
        chunk = self._chunks[-1] if self._chunks else None
        if type(chunk) is not _Coded:
            chunk = _Coded()
            self._chunks.append(chunk)
        chunk.cards += codes
        chunk.tlen += lens
        chunk.tlead += leads
        chunk.twin += wins
        chunk.tnum += nums
        chunk.bids.append(bid)
        chunk.paths.append(path)
        n = len(codes)
        chunk.bcards.append(n)
        self.rows += n
        return n - codes.count(_NO_CARD)

    def _listed(self, bid: int, path: str, tricks: tuple) -> None:  # (the caller counts the cards)
        chunk = self._chunks[-1] if self._chunks else None
        if type(chunk) is not _Listed:
            chunk = _Listed(self.schema)
            self._chunks.append(chunk)
        before = len(chunk.cols["board_id"])
        chunk.add(bid, path, tricks)
        self.rows += len(chunk.cols["board_id"]) - before

    def take(self) -> pa.RecordBatch:
        """The rows as a record batch of the ``plays`` schema; the buffer is cleared."""
        chunks, self._chunks, self.rows = self._chunks, [], 0
        if not chunks:
            return pa.RecordBatch.from_arrays([pa.array([], f.type) for f in self.schema], schema=self.schema)
        parts = [c.columns(self.schema) for c in chunks]
        cols = [pa.concat_arrays([p[i] for p in parts]) for i in range(len(self.schema))]
        return pa.RecordBatch.from_arrays(cols, schema=self.schema)
