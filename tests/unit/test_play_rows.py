"""The ``plays`` rows kept as codes (:mod:`handrec.dataset.play_rows`, issue #23.2): the same columns as
one Python list a column, for plays that fit the codes and for those that do not, in their order."""

from __future__ import annotations

import dataclasses
import io

import pyarrow as pa

from handrec.dataset.coded import part_schema
from handrec.dataset.play_rows import PlayRows
from handrec.dataset.tables import SCHEMAS, TableBuffers
from handrec.formats.dispatch import read
from handrec.model import ALL_CARDS, Card, Seat
from handrec.rules.play import Trick
from handrec.rules.validator import analyse

N, E, S, W = Seat


def _reference(boards: list[tuple[int, str, tuple[Trick, ...]]]) -> list[dict]:
    """The rows as the list-a-column code wrote them."""
    out = []
    for bid, path, tricks in boards:
        i = 0
        for t in tricks:
            for p, c in enumerate(t.cards):
                out.append(
                    {
                        "board_id": bid,
                        "source_file": path,
                        "card_index": i,
                        "trick": t.number,
                        "position": p + 1,
                        "seat": str(t.leader.offset(p)),
                        "card": None if c is None else str(c),
                        "winner": None if t.winner is None else str(t.winner),
                    }
                )
                i += 1
    return out


def test_codes_and_lists_give_the_rows_in_order() -> None:
    c = ALL_CARDS
    full = (Trick(1, W, (c[0], c[13], c[26], c[39]), S), Trick(2, S, (c[51], None, c[1]), None))
    odd = Card(c[5].suit, c[5].rank)  # equal to a card of ALL_CARDS, but not that instance
    assert odd == c[5] and odd is not c[5]
    boards = [
        (0, "a.pbn", full),
        (1, "a.pbn", (Trick(1, N, (odd, c[7]), None),)),  # kept as lists
        (2, "b.lin", (Trick(1, E, (c[9],), None),)),
        (3, "b.lin", ()),
        (5, "c.pbn", full),
    ]
    rows = PlayRows(SCHEMAS["plays"])
    # add gives the cards known (boards.cards_played) of a play kept as codes, None for one kept as lists
    assert [rows.add(*b) for b in boards] == [6, None, 1, 0, 6]
    assert rows.rows == 4 + 3 + 2 + 1 + 7
    batch = rows.take()
    assert batch.schema == SCHEMAS["plays"]
    assert batch.to_pylist() == _reference(boards)
    assert rows.rows == 0 and rows.take().num_rows == 0
    rows.add(*boards[1])
    assert pa.Table.from_batches([rows.take()]).to_pylist() == _reference(boards[1:2])


def test_cards_played_counts_the_cards_given_whichever_way_the_play_is_kept() -> None:
    """``boards.cards_played`` (counted by PlayRows.add for a coded play, by the boards row for a
    listed one): the cards of the play that the record gives, not those it writes ``-``."""
    pbn = (
        '[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
        '[Deal "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"]\n'
        '[Declarer "S"]\n[Contract "1NT"]\n[Result "7"]\n[Play "W"]\n'
        "D5 DA DJ D8\n- DK DT -\n"
    )
    (board,) = read(io.StringIO(pbn))
    a = analyse(board)
    assert [len(t.cards) for t in a.replay.tricks][:2] == [4, 4]
    buf = TableBuffers()
    buf.add(a)
    assert buf.take("boards").column("cards_played").to_pylist() == [6]
    plays = buf.take("plays")  # one input: source_file made from the buffers
    assert plays.num_rows == 8 and plays.column("source_file").to_pylist() == [board.origin.path] * 8
    assert plays.column("card").to_pylist() == ["D5", "DA", "DJ", "D8", "DK", "DT", None, None]  # in play order
    assert plays.column("winner").to_pylist() == ["N"] * 4 + [None] * 4
    # the seats and cards as codes on their fixed dictionaries (handrec.dataset.coded); as text, the dataset's schema
    assert plays.schema == part_schema("plays", SCHEMAS["plays"])
    assert plays.column("card").dictionary.to_pylist() == [str(c) for c in ALL_CARDS]
    assert plays.cast(SCHEMAS["plays"]).schema == SCHEMAS["plays"]
    # The same tricks with a card that is not the model's own instance: kept as lists, counted by the row.
    t0 = a.replay.tricks[0]
    odd = Card(t0.cards[0].suit, t0.cards[0].rank)
    tricks = (t0._replace(cards=(odd, *t0.cards[1:])), *a.replay.tricks[1:])
    b = dataclasses.replace(a, replay=dataclasses.replace(a.replay, tricks=tricks))
    buf.add(b)
    assert buf.take("boards").column("cards_played").to_pylist() == [6]
    assert buf.take("plays").column("card").to_pylist()[:4] == ["D5", "DA", "DJ", "D8"]
