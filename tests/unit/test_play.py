"""Play replay: bridge-rules.md §10.6 (P01-P09) and the fault codes P401-P405."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from handrec.model import ALL_CARDS, Card, Contract, Deal, Hand, Play, Seat, Suit, trick_winner
from handrec.rules.play import IllegalPlayError, PlayState, legal_cards, replay_play

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST


def cards(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


def deal_with(**fixed: str) -> Deal:
    """A complete deal where each named seat holds the given cards; the rest is dealt in order."""
    hands: dict[Seat, list[Card]] = {s: cards(fixed.get(str(s), "")) for s in Seat}
    used = {c for h in hands.values() for c in h}
    rest = [c for c in ALL_CARDS if c not in used]
    for s in Seat:
        while len(hands[s]) < 13:
            hands[s].append(rest.pop())
    return Deal(tuple(Hand(tuple(hands[s])) for s in Seat))  # type: ignore[arg-type]


def play(leader: Seat | None, text: str, claim: int | None = None) -> Play:
    return Play(leader, tuple(None if c == "-" else Card.parse(c) for c in text.split()), claim)


# --- P01-P09 ----------------------------------------------------------------------

# Example P1 [000]: W declares, N leads, E is dummy (dummy's hand as the seed gives it).
P1 = {"E": "S2 S3 S8 D8 DT DA CT CJ CQ H4 H6 H8 H9", "N": "DK S5", "S": "D2 S4", "W": "D3 SA"}

PLAY_ROWS = [
    # id, fixed cards, contract, declarer, leader, play, winners, next leader, faults
    ("P01", P1, "3NT", W, N, "DK DA D2 D3 S2", [E], E, []),
    ("P02", P1, "3NT", W, N, "DK DA D2 D3 S2 S4 SA S5", [E, W], W, []),
    ("P03", {"E": "HK", "S": "H3", "W": "H7", "N": "HA"}, "4S", N, E, "HK H3 H7 HA", [N], N, []),
    # spades trumps, S declares, dummy N (void in diamonds) ruffs a diamond lead with SA
    (
        "P04",
        {"W": "DK", "N": "SA C2 C3 C4 C5 C6 C7 C8 C9 CT CJ CQ CK", "E": "DA", "S": "D2"},
        "4S",
        S,
        W,
        "DK SA DA D2",
        [N],
        N,
        [],
    ),
    # no trumps: N, void in clubs, discards SA; it cannot win
    (
        "P05",
        {"W": "C2", "N": "SA S2 S3 S4 S5 S6 S7 S8 S9 ST SJ SQ SK", "E": "C3", "S": "C4"},
        "3NT",
        S,
        W,
        "C2 SA C3 C4",
        [S],
        S,
        [],
    ),
    # N is void in diamonds and holds a trump, but discards a heart: legal
    (
        "P06",
        {"W": "DK", "N": "S2 H2 C2 C3 C4 C5 C6 C7 C8 C9 CT CJ CQ", "E": "DA", "S": "D2"},
        "4S",
        S,
        W,
        "DK H2 DA D2",
        [E],
        E,
        [],
    ),
    # S holds HA but plays H3 under E's HK: legal
    ("P07", {"E": "HK", "S": "HA H3", "W": "H7", "N": "H2"}, "4S", N, E, "HK H3 H7 H2", [E], E, []),
    # S holds H3 and plays C5 to a heart lead: revoke
    ("P08", {"E": "HK", "S": "H3 C5", "W": "H7", "N": "HA"}, "4S", N, E, "HK C5 H7 HA", [N], N, ["P401"]),
    # hearts trumps: N ruffs a club, E (void, holds H3) discards D2, S overruffs with HA
    (
        "P09",
        {
            "W": "C2",
            "N": "H2 S2 S3 S4 S5 S6 S7 S8 S9 ST SJ SQ SK",
            "E": "D2 H3 D3 D4 D5 D6 D7 D8 D9 DT DJ DQ DK",
            "S": "HA",
        },
        "4H",
        S,
        W,
        "C2 H2 D2 HA",
        [S],
        S,
        [],
    ),
]


@pytest.mark.parametrize(
    ("fixed", "contract", "declarer", "leader", "text", "winners", "next_leader", "codes"),
    [r[1:] for r in PLAY_ROWS],
    ids=[r[0] for r in PLAY_ROWS],
)
def test_play_rows(
    fixed: dict[str, str],
    contract: str,
    declarer: Seat,
    leader: Seat,
    text: str,
    winners: list[Seat],
    next_leader: Seat,
    codes: list[str],
) -> None:
    deal = deal_with(**fixed)
    c = Contract.parse(contract, declarer=declarer)
    r = replay_play(play(leader, text), c, deal)
    assert [f.code for f in r.faults] == codes
    assert [t.winner for t in r.tricks if t.winner is not None] == winners
    # the winner leads the next trick (from dummy's hand when dummy won)
    assert r.tricks[len(winners) - 1].winner == next_leader
    if not codes:  # the legal-play engine agrees card by card
        state = PlayState(deal, c)
        for card in cards(text)[: 4 * len(winners)]:
            state.play(card)
        assert state.next_seat == next_leader


def test_P01_model_trick_winner() -> None:
    assert trick_winner(N, cards("DK DA D2 D3"), None) == E
    assert trick_winner(E, cards("S2 S4 SA S5"), None) == W


def test_P06_P07_legal_cards() -> None:
    hand = Hand(tuple(cards("S2 S3 H4 H5")))
    assert set(legal_cards(hand, Suit.DIAMONDS)) == set(hand.cards)  # void: anything, no duty to ruff
    assert set(legal_cards(Hand(tuple(cards("HA H2 S5"))), Suit.HEARTS)) == set(cards("HA H2"))  # follow, low allowed
    assert set(legal_cards(hand, None)) == set(hand.cards)  # the lead


def test_P08_details() -> None:
    deal = deal_with(E="HK", S="H3 C5", W="H7", N="HA")
    r = replay_play(play(E, "HK C5 H7 HA"), Contract.parse("4S", declarer=N), deal)
    assert [(f.code, f.index, f.kwargs) for f in r.faults] == [
        ("P401", 1, {"seat": "S", "card": "C5", "led": "heart", "held": "H3"})
    ]
    state = PlayState(deal, Contract.parse("4S", declarer=N))
    state.play(Card.parse("HK"))
    assert Card.parse("C5") not in state.legal_cards()
    with pytest.raises(IllegalPlayError) as e:
        state.play(Card.parse("C5"))
    assert e.value.code == "P401"


# --- faults -----------------------------------------------------------------------

FULL = Deal.parse("N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432")
SEVEN_NT_S = Contract.parse("7NT", declarer=S)  # W leads


def all_thirteen() -> str:
    """A legal 13-trick play of FULL in 7NT by S: N wins everything."""
    st_ = PlayState(FULL, SEVEN_NT_S)
    out = []
    while not st_.is_complete:
        c = st_.legal_cards()[-1] if st_.next_seat != N else st_.legal_cards()[0]
        st_.play(c)
        out.append(str(c))
    return " ".join(out)


def test_full_play_result() -> None:
    r = replay_play(play(W, all_thirteen()), SEVEN_NT_S, FULL)
    assert r.faults == () and r.complete and r.result == 13 and len(r.tricks) == 13
    assert [t.number for t in r.tricks] == list(range(1, 14))


def test_P402_card_not_held() -> None:
    r = replay_play(play(W, "S2 SA ST SK"), SEVEN_NT_S, FULL)  # N holds SK, not S
    assert [(f.code, f.index, f.kwargs) for f in r.faults] == [("P402", 3, {"seat": "S", "card": "SK"})]


def test_P402_card_played_twice() -> None:
    # N wins trick 1 and leads SK; W, whose only spade was S2, plays it again
    r = replay_play(play(W, "S2 SA ST S3 SK S9 S4 S2"), SEVEN_NT_S, FULL)
    assert [(f.code, f.index, f.kwargs) for f in r.faults] == [("P402", 7, {"seat": "W", "card": "S2"})]


def test_P403_wrong_leader() -> None:
    r = replay_play(play(N, "SA ST S3 S2"), SEVEN_NT_S, FULL)
    assert [(f.code, f.index, f.kwargs) for f in r.faults] == [
        ("P403", None, {"value": "N", "expected": "W", "other": ""})
    ]
    assert r.tricks[0].leader == N  # the record's leader is followed: the cards fit N's lead


def test_P403_wrong_play_tag_over_lines_from_the_real_leader() -> None:
    # The Play tag says N, but the lines were written from W (declarer's LHO): W's S2, N's
    # SA...  Read from N every card is in the wrong hand; read from W they all fit: the tag
    # is the one fault, and the message offers W's reading, which is never kept (issue #18:
    # PBN 2.1 §3.6, column 1 is the Play tag's seat).
    r = replay_play(play(N, all_thirteen()), SEVEN_NT_S, FULL)
    other = " (read as led by W the cards fit the hands: that reading is not kept)"
    assert [(f.code, f.index, f.kwargs) for f in r.faults] == [
        ("P403", None, {"value": "N", "expected": "W", "other": other})
    ]
    assert r.tricks[0].leader == N


def test_P404_after_13_tricks() -> None:
    r = replay_play(play(W, all_thirteen() + " - SA"), SEVEN_NT_S, FULL)
    assert [(f.code, f.index, f.kwargs) for f in r.faults] == [("P404", 53, {"count": 1})]
    assert r.result == 13


def test_unknown_padding_after_claim_is_not_P404() -> None:
    r = replay_play(play(W, "S2 SA ST S3 " + "- " * 48, claim=13), SEVEN_NT_S, FULL)
    assert r.faults == () and r.result == 13


CLAIMS = [
    ("ok", "S2 SA ST S3", 13, [], 13),
    ("ok-mid-trick", "S2 SA ST S3 HA", 13, [], 13),
    ("too-many", "S2 SA ST S3", 14, ["P405"], None),
    ("below-won", "S2 SA ST S3", 0, ["P405"], None),
    ("not-a-count", "S2 SA ST S3", -1, ["P405"], None),
]


@pytest.mark.parametrize(("text", "claim", "codes", "result"), [c[1:] for c in CLAIMS], ids=[c[0] for c in CLAIMS])
def test_P405_claims(text: str, claim: int, codes: list[str], result: int | None) -> None:
    r = replay_play(play(W, text, claim=claim), SEVEN_NT_S, FULL)
    assert [f.code for f in r.faults] == codes and r.result == result


def test_P405_claim_exceeds_remaining() -> None:
    contract = Contract.parse("1S", declarer=W)  # N leads and wins SA: the defenders have 1
    r = replay_play(play(N, "SA ST S6 S2", claim=13), contract, FULL)
    assert [(f.code, f.kwargs) for f in r.faults] == [
        ("P405", {"claim": 13, "reason": "declarer can take at most 12 (0 won, 12 to play)"})
    ]
    r = replay_play(play(N, "SA ST S6 S2", claim=12), contract, FULL)
    assert r.faults == () and r.result == 12


def test_complete_play_with_matching_claim() -> None:
    text = all_thirteen()
    assert replay_play(play(W, text, claim=13), SEVEN_NT_S, FULL).faults == ()
    r = replay_play(play(W, text, claim=12), SEVEN_NT_S, FULL)
    assert [f.code for f in r.faults] == ["P405"] and r.result == 13


def test_unknown_cards_do_not_crash_or_revoke() -> None:
    r = replay_play(play(W, "S2 - ST S3 H2 HA"), SEVEN_NT_S, FULL)
    assert r.faults == ()
    assert r.tricks[0].winner is None
    # the next leader is found from who holds H2 (W): W leads trick 2
    assert r.tricks[1].leader == W and r.result is None and not r.complete


def test_unknown_lead_card() -> None:
    r = replay_play(play(W, "- SA ST S3"), SEVEN_NT_S, FULL)
    assert r.faults == () and r.tricks[0].winner is None


def test_no_deal_still_computes_winners() -> None:
    r = replay_play(play(W, "S2 SA ST S3"), SEVEN_NT_S, None)
    assert r.faults == () and r.tricks[0].winner == N and r.declarer_tricks == 1


def test_partial_deal_checks_given_hands_only() -> None:
    partial = Deal((FULL.hands[0], None, None, FULL.hands[3]))
    r = replay_play(play(W, "S2 CA ST S3"), SEVEN_NT_S, partial)  # N revokes (holds spades)
    assert [f.code for f in r.faults] == ["P401"]
    r = replay_play(play(W, "S2 SA H9 S3"), SEVEN_NT_S, partial)  # E unknown: no check
    assert r.faults == ()


def test_no_leader_known_infers_from_cards() -> None:
    contract = Contract.parse("7NT")  # no declarer
    r = replay_play(play(None, "S2 SA ST S3"), contract, FULL)
    assert r.tricks[0].leader == W and r.declarer_tricks == 1


def test_end_position() -> None:
    deal = Deal.parse("N:AK.2.. Q2.3.. J3.4.. T4.5..")
    r = replay_play(play(E, "SQ S3 S4 SK"), Contract(0, Contract.parse("1NT").strain, declarer=N), deal)
    assert r.faults == () and r.tricks[0].number == 11 and r.tricks[0].winner == N


def test_passed_out_contract_rejected() -> None:
    with pytest.raises(ValueError):
        replay_play(play(W, "S2"), Contract.passed_out(), FULL)


def test_playstate_errors() -> None:
    state = PlayState(FULL, SEVEN_NT_S)
    with pytest.raises(IllegalPlayError) as e:
        state.play(Card.parse("SA"))
    assert e.value.code == "P402"


# --- property: random legal play replays cleanly -------------------------------------


@given(
    st.permutations(ALL_CARDS), st.sampled_from(list(Seat)), st.sampled_from(["1C", "2D", "3H", "4S", "5NT"]), st.data()
)
def test_random_legal_play(pack: list[Card], declarer: Seat, contract_text: str, data: st.DataObject) -> None:
    deal = Deal(tuple(Hand(tuple(pack[13 * i : 13 * i + 13])) for i in range(4)))  # type: ignore[arg-type]
    contract = Contract.parse(contract_text, declarer=declarer)
    state = PlayState(deal, contract)
    played = []
    while not state.is_complete:
        c = data.draw(st.sampled_from(state.legal_cards()))
        state.play(c)
        played.append(c)
    r = replay_play(Play(declarer.lho, tuple(played)), contract, deal)
    assert r.faults == () and r.complete
    assert r.result == state.declarer_tricks
    assert r.tricks == tuple(state.tricks)
