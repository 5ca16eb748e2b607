"""Every draw the rules give, with an empty deck and at the hand limit (PT-P11, PT-P6,
PT-O1, PT-D1, PT-C8): a reward is never lost to an empty order deck (its discard pile
re-forms it, shuffled from a keyed stream) nor to the hand limit; where the rules give
nothing, the event says so."""

from __future__ import annotations

from typing import Any

import pytest

from fogofwar.core.cards import Pile
from fogofwar.core.errors import IllegalActionError
from fogofwar.core.game import Event
from fogofwar.core.rng import stream
from fogofwar.games.rock_n_roll.state import RockNRollState, id_key

from .helpers import (
    P,
    V,
    act,
    empty_hands,
    end_round_now,
    fresh,
    give,
    imprison,
    kinds,
    legal,
    orders_of,
    orders_phase,
    place,
    script_dice,
)

SEED = 0


def at_interaction(captor: str = V, *prisoners: str, seed: int = SEED) -> RockNRollState:
    """The end of round 1 with ``captor`` holding ``prisoners`` (a second one keeps the
    round open after the first interaction, so the hands can be compared before the
    next arrival), in a level round: nobody names a prisoner."""
    st = fresh(seed)
    empty_hands(st)
    for u in prisoners or ("P1", "P2"):
        imprison(st, u, captor)
    place(st, "V5", "A")
    place(st, "P5", "E")
    end_round_now(st)
    assert st.pending is not None and st.pending.kind == "interact"
    return st


def run_out(st: RockNRollState, side: str) -> list[str]:
    """Put ``side``'s whole order deck on its discard pile (the end of a round)."""
    cards = list(st.order_deck[side].take_all())
    st.order_discard[side] += cards
    return cards


def fill_hand(st: RockNRollState, side: str, n: int) -> None:
    """Give ``side`` orders from its deck until its hand holds ``n`` cards."""
    for card in orders_of(st, side, "attack") + orders_of(st, side, "manoeuvre"):
        if len(st.hand[side]) >= n:
            return
        if card in st.order_deck[side]:
            give(st, side, card)


def only(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [dict(e.data) for e in events if e.kind == kind]


# ----------------------------------------------------------------- torture (PT-P6, P11)


def test_torture_draws_from_the_reformed_deck_when_it_is_empty() -> None:
    # PT-P11 / PT-P6: the captor's order deck is empty at the end of the round: its
    # discard pile is first shuffled to form it, so the torture's order is not lost.
    st = at_interaction(V)
    pile = run_out(st, V)
    assert not st.order_deck[V] and len(pile) > 1
    hand = len(st.hand[V])
    script_dice(st, [4])
    events = act(st, V, "torture", "P1")
    assert len(st.hand[V]) == hand + 1
    [reformed] = only(events, "deck_reformed")
    assert reformed == {"side": V, "cards": len(pile), "rule": "PT-P11"}
    assert len(st.order_deck[V]) == len(pile) - 1 and not st.order_discard[V]
    # Where it does not apply: a deck with cards is drawn from as it is.
    st = at_interaction(V)
    deck, discard = len(st.order_deck[V]), list(st.order_discard[V])
    assert deck > 0
    script_dice(st, [4])
    events = act(st, V, "torture", "P1")
    assert "deck_reformed" not in kinds(events)
    assert len(st.order_deck[V]) == deck - 1 and st.order_discard[V] == discard


def test_torture_with_deck_and_discard_empty_draws_nothing_and_says_so() -> None:
    # PT-P11: only if deck and discard are both empty is nothing drawn; the event says so.
    st = at_interaction(V)
    run_out(st, V)
    st.order_discard[V] = []
    hand = list(st.hand[V])
    script_dice(st, [6])
    events = act(st, V, "torture", "P1")
    assert st.hand[V] == hand and st.stats[V]["tortured"] == 1
    [nothing] = only(events, "nothing_drawn")
    assert nothing["side"] == V and nothing["cause"] == "torture"
    assert nothing["cards"] == "orders" and nothing["missing"] == 1
    assert nothing["rule"] == "PT-P11"
    # With a single card on the discard pile, that card is drawn.
    st = at_interaction(V)
    run_out(st, V)
    last = st.order_discard[V][0]
    st.order_discard[V] = [last]
    script_dice(st, [6])
    events = act(st, V, "torture", "P1")
    assert st.hand[V][-1] == last and "nothing_drawn" not in kinds(events)


def test_torture_over_the_hand_limit() -> None:
    # PT-P11 / PT-C8: the hand limit never cancels an (S) reward: a full hand still gets
    # the torture's order.
    st = at_interaction(V)
    limit = st.setup["hand_limit"]
    fill_hand(st, V, limit)
    run_out(st, V)
    assert len(st.hand[V]) == limit
    script_dice(st, [5])
    act(st, V, "torture", "P1")
    assert len(st.hand[V]) == limit + 1
    # Where the limit does apply: a turn's draw over the limit is discarded (PT-C8).
    st = fresh(SEED)
    fill_hand(st, P, limit)
    before = len(st.hand[P])
    events = act(st, V, "end")
    assert len(st.hand[P]) == before and "burned" in kinds(events)


def test_torture_reform_is_shuffled_from_a_keyed_stream() -> None:
    # PT-P11: the re-formed deck's order comes from a stream keyed by the seed, the side,
    # the round and the re-forming's number: the same match draws the same card, and the
    # card is the one that stream's shuffle puts on top.
    drawn = []
    for _ in range(2):
        st = at_interaction(V, seed=11)
        pile = run_out(st, V)
        script_dice(st, [4])
        act(st, V, "torture", "P1")
        drawn.append(st.hand[V][-1])
    assert drawn[0] == drawn[1]
    expected = Pile(sorted(pile, key=id_key))
    expected.shuffle(stream(11, "deck", "orders", V, 1, "reform", 1))
    assert expected.draw() == drawn[0]


def test_torture_backfire_draws_from_the_opponents_own_deck() -> None:
    # PT-P11: on exactly 3 the opponent draws from its own order deck — re-formed from
    # its own discard pile when empty — and the captor's deck is not touched.
    st = at_interaction(V)
    assert not st.order_deck[P]  # the VPA's deck ran out: the round ended
    run_out(st, V)
    mine = (len(st.order_deck[V]), list(st.order_discard[V]))
    hand = {s: len(st.hand[s]) for s in (V, P)}
    script_dice(st, [3])
    events = act(st, V, "torture", "P1")
    assert len(st.hand[P]) == hand[P] + 1 and len(st.hand[V]) == hand[V]
    assert only(events, "deck_reformed")[0]["side"] == P
    assert (len(st.order_deck[V]), st.order_discard[V]) == mine
    assert st.pieces["P1"].zone == "prison"
    # Not applying: no backfire on a 2 — nobody draws.
    st = at_interaction(V)
    hand = {s: len(st.hand[s]) for s in (V, P)}
    script_dice(st, [2])
    events = act(st, V, "torture", "P1")
    assert {s: len(st.hand[s]) for s in (V, P)} == hand and "drew" not in kinds(events)


def test_torture_backfire_over_the_opponents_hand_limit() -> None:
    # PT-P11: the opponent's order is an (S) reward too: its hand limit does not stop it.
    st = at_interaction(V)
    limit = st.setup["hand_limit"]
    st.order_deck[P].put_many(st.order_discard[P])
    st.order_discard[P] = []
    fill_hand(st, P, limit)
    assert len(st.hand[P]) == limit
    script_dice(st, [3])
    act(st, V, "torture", "P1")
    assert len(st.hand[P]) == limit + 1


# ---------------------------------------------- execute / recruit backfire (PT-P6, P11)


@pytest.mark.parametrize("kind", ["execute", "recruit"])
def test_backfire_returns_the_prisoner_with_a_random_order(kind: str) -> None:
    # PT-P11: the prisoner returns to its side's HQ, taking 1 order card at random from
    # the captor's hand to its own side's hand (over its hand limit too); units in the
    # captor's hand are not taken.
    st = at_interaction(V)
    orders = orders_of(st, V, "attack")[:3]
    for c in orders:
        give(st, V, c)
    give(st, V, "V9")
    limit = st.setup["hand_limit"]
    st.order_deck[P].put_many(st.order_discard[P])
    st.order_discard[P] = []
    fill_hand(st, P, limit)
    script_dice(st, [3])
    events = act(st, V, kind, "P1")
    pc = st.pieces["P1"]
    assert (pc.zone, pc.holder, pc.owner) == ("hq", P, P)
    [taken] = only(events, "order_taken")
    assert taken["from"] == V and taken["to"] == P and taken["card"] in orders
    assert taken["card"] in st.hand[P] and taken["card"] not in st.hand[V]
    assert len(st.hand[P]) == limit + 1 and "V9" in st.hand[V]
    assert only(events, "returned_home") == [{"side": P, "unit": "P1", "rule": "PT-P11"}]
    # The card is chosen by a keyed stream: the same match takes the same card.
    again = at_interaction(V)
    for c in orders:
        give(again, V, c)
    give(again, V, "V9")
    script_dice(again, [3])
    assert only(act(again, V, kind, "P1"), "order_taken")[0]["card"] == taken["card"]


def test_backfire_from_a_captor_without_orders_takes_nothing_and_says_so() -> None:
    # PT-P11 (ruling): a captor holding no order card loses none — a unit is not an order
    # card — and the event says so; the prisoner still returns to its HQ.
    st = at_interaction(V)
    give(st, V, "V9")
    hand = {s: list(st.hand[s]) for s in (V, P)}
    script_dice(st, [3])
    events = act(st, V, "execute", "P1")
    assert st.pieces["P1"].zone == "hq" and {s: st.hand[s] for s in (V, P)} == hand
    [nothing] = only(events, "nothing_taken")
    assert nothing["side"] == V and nothing["to_side"] == P and nothing["rule"] == "PT-P11"
    assert "order_taken" not in kinds(events)


# ------------------------------------------------------------ operations (PT-O1, P11)


def test_operation_orders_reward_from_the_reformed_deck_over_the_limit() -> None:
    # PT-O1 / PT-P11: an operation revealed at the end of the round (its deck is usually
    # empty then) still gives its orders: the discard re-forms the deck, and the hand
    # limit does not cancel the reward.
    st = fresh(SEED)
    empty_hands(st)
    st.ops_deck.remove("S3")  # Snatch: captures 1 -> orders 2
    st.ops[V].append("S3")
    st.round_stats[V]["captures"] = 1
    place(st, "V1", "A")
    place(st, "P1", "E")
    limit = st.setup["hand_limit"]
    fill_hand(st, V, limit)
    run_out(st, V)
    events = end_round_now(st)
    revealed = [i for i, e in enumerate(events) if e.kind == "revealed"]
    reformed = [i for i, e in enumerate(events) if e.kind == "deck_reformed"]
    assert revealed and reformed and reformed[0] > revealed[0]
    drew = [e for e in events[revealed[0] :] if e.kind == "drew" and e.data["side"] == V]
    assert len(drew[0].data["cards"]) == 2
    # Where it does not apply: an RD reward draws nothing.
    st = fresh(SEED)
    empty_hands(st)
    st.ops_deck.remove("S7")  # Key terrain: value 5 -> rd 2
    st.ops[V].append("S7")
    place(st, "V1", "C")
    place(st, "V2", "B")
    run_out(st, V)
    events = end_round_now(st)
    assert "revealed" in kinds(events)
    first = next(i for i, e in enumerate(events) if e.kind == "revealed")
    assert "deck_reformed" not in kinds(events[first : first + 2])


def test_operation_units_reward_over_the_limit_and_from_an_empty_deck() -> None:
    # PT-O1: a units reward is not cancelled by the hand limit; units have no discard pile
    # (they go to the HQ, PT-C2), so an empty unit deck gives nothing — and says so.
    st = fresh(SEED)
    empty_hands(st)
    orders_phase(st)
    st.ops_deck.remove("S8")  # Strongpoint: value 4 -> units 2
    st.ops[V].append("S8")
    place(st, "V1", "C")
    place(st, "V2", "A")
    limit = st.setup["hand_limit"]
    fill_hand(st, V, limit)
    act(st, V, "reveal", "S8")
    assert len(st.hand[V]) == limit + 2
    st = fresh(SEED)
    empty_hands(st)
    orders_phase(st)
    st.ops_deck.remove("S8")
    st.ops[V].append("S8")
    place(st, "V1", "C")
    place(st, "V2", "A")
    left = st.unit_deck[V].cards[-1:]
    for c in st.unit_deck[V].cards[:-1]:
        st.unit_deck[V].remove(c)
    events = act(st, V, "reveal", "S8")
    units = [c for c in st.hand[V] if st.cards.is_unit(c)]
    assert units == list(left)
    [nothing] = only(events, "nothing_drawn")
    assert nothing == {
        "side": V,
        "cards": "units",
        "missing": 1,
        "cause": "operation",
        "reason": "its unit deck is empty",
        "rule": "PT-O1",
    }


# ------------------------------------------------------------------ the deal (PT-D1)


def test_deal_take_orders_reform_the_deck_over_the_limit() -> None:
    # PT-D1 option 1 / PT-P11: in the orders phase the deal's 2 orders are drawn as
    # PT-P11 draws: a deck of 1 card, then the discard pile re-forms it.
    st = fresh(SEED)
    orders_phase(st)
    limit = st.setup["hand_limit"]
    fill_hand(st, V, limit)
    pile = run_out(st, V)
    st.order_deck[V].put(st.order_discard[V].pop())
    assert len(st.order_deck[V]) == 1
    assert "deal take" in legal(st, V)
    events = act(st, V, "deal", "take")
    assert len(st.hand[V]) == limit + 2
    assert only(events, "deck_reformed")[0]["cards"] == len(pile) - 1
    # Not offered when it could not give both cards (ruling): one order in all.
    st = fresh(SEED)
    orders_phase(st)
    run_out(st, V)
    st.order_discard[V] = st.order_discard[V][:1]
    assert "deal take" not in legal(st, V)
    with pytest.raises(IllegalActionError) as info:
        act(st, V, "deal", "take")
    assert info.value.rule == "PT-D1" and "must hold two" in info.value.reason


def test_deal_take_units_offered_only_when_two_can_be_had() -> None:
    # PT-D1 option 1 (ruling): in the deployment phase two units from the deck or the HQ;
    # offered only while two are there, so the deal never gives one.
    st = fresh(SEED)
    for c in st.unit_deck[V].cards:
        st.unit_deck[V].remove(c)
    place(st, "V1", "A")
    assert "deal take" not in legal(st, V)
    st.pieces["V1"].zone, st.pieces["V1"].holder = "hq", V
    assert "deal take" not in legal(st, V)  # one unit in all
    st.pieces["V2"].zone, st.pieces["V2"].holder, st.pieces["V2"].pos = "hq", V, -1
    st.hand[V] = [c for c in st.hand[V] if c != "V2"]
    assert "deal take" in legal(st, V)
    act(st, V, "deal", "take")
    act(st, V, "take", "V1")
    act(st, V, "take", "V2")
    assert {"V1", "V2"} <= set(st.hand[V])


# -------------------------------------------------- draws the limit does govern (PT-C8)


def test_arrival_stops_at_the_hand_limit_and_turn_draws_end_the_round() -> None:
    # PT-C8 (ruling): the arrival deals up to the hand limit, a card that would exceed it
    # staying in its deck (the limit is the arrival's own rule). Not a reward: the
    # turn's draw from a deck of 1 gives 1, and the round ends when the side due to start
    # its turn finds its deck empty (PT-C3): the round's clock is never re-formed.
    st = fresh(SEED)
    empty_hands(st)
    limit = st.setup["hand_limit"]
    fill_hand(st, V, limit - 1)
    units = len(st.unit_deck[V])
    end_round_now(st)  # a level round: no locals card on top
    assert st.round == 2 and len(st.hand[V]) == limit
    assert len(st.unit_deck[V]) == units - 1
    st = fresh(SEED)
    empty_hands(st)
    act(st, V, "end")
    deck = st.order_deck[V]
    while len(deck) > 1:
        st.order_discard[V].append(deck.draw())
    hand = len(st.hand[V])
    events = act(st, P, "end")
    assert st.turn == V and len(st.hand[V]) == hand + 1 and not st.order_deck[V]
    events += act(st, V, "end")
    assert st.round == 1
    events += act(st, P, "end")
    assert "round_over" in kinds(events) and "deck_reformed" not in kinds(events)
