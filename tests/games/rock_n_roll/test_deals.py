"""Devil's hand (PT-D1..D3), the arrival bonus (PT-A1), special operations (PT-O1, O2)."""

from __future__ import annotations

import pytest

from fogofwar.core.errors import IllegalActionError
from fogofwar.core.game import Action
from fogofwar.games.rock_n_roll.state import Phase

from .helpers import (
    P,
    V,
    act,
    empty_hands,
    end_round_now,
    fresh,
    give,
    kinds,
    legal,
    orders_of,
    orders_phase,
    place,
    script_dice,
)


def test_deal_take_units_in_deployment_orders_in_orders_phase() -> None:
    # PT-D1 option 1: 2 cards within the phase's limits, from the deck or the HQ.
    st = fresh()
    empty_hands(st)
    st.pieces["V3"].zone, st.pieces["V3"].holder = "hq", V
    act(st, V, "deal", "take")
    assert legal(st, V) == {"take deck", "take V3"}
    act(st, V, "take", "V3")
    act(st, V, "take", "deck")
    units = [c for c in st.hand[V] if st.cards.is_unit(c)]
    assert len(units) == 2 and "V3" in units and st.dealt[V]
    # Once per match.
    assert not any(a.startswith("deal") for a in legal(st, V))
    st = fresh()
    empty_hands(st)
    orders_phase(st)
    act(st, V, "deal", "take")
    assert len(st.hand[V]) == 2 and all(st.cards.is_order(c) for c in st.hand[V])


def test_deal_return_dead_unit() -> None:
    # PT-D1 option 2: in the deployment phase, a dead unit of its own back to hand.
    st = fresh()
    empty_hands(st)
    pc = st.pieces["V4"]
    pc.zone, pc.holder, pc.dead = "hq", V, True
    given_up = st.pieces["V5"]
    given_up.zone, given_up.holder, given_up.dead = "hq", V, False
    assert "deal return V4" in legal(st, V) and "deal return V5" not in legal(st, V)
    orders_phase(st)
    assert "deal return V4" not in legal(st, V)
    with pytest.raises(IllegalActionError) as info:
        act(st, V, "deal", "return", "V4")
    assert info.value.rule == "PT-D1"
    st.phase = Phase.DEPLOY
    act(st, V, "deal", "return", "V4")
    assert "V4" in st.hand[V] and pc.zone == "hand"


def test_interrupt_offered_to_side_not_on_turn() -> None:
    # PT-D1 option 3 / PT-D3: before each of Vietnam's actions the VPA may interrupt
    # and play 1 order; then Vietnam continues.
    st = fresh()
    empty_hands(st)
    place(st, "V1", "C")
    place(st, "P1", "C")
    give(st, P, orders_of(st, P, "attack")[0])
    st.rd = {V: 0, P: 0}
    # The VPA answers the offer first; Vietnam may act only after it (one seat at a time).
    assert st.to_act() == {P} and st.legal_actions(V) == []
    assert legal(st, P) == {"deal interrupt", "pass", "pass turn", "pass round"}
    act(st, P, "deal", "interrupt")
    assert st.to_act() == {P} and legal(st, P) == {"attack P1 V1"}
    script_dice(st, [6, 6])
    act(st, P, "attack", "P1", "V1")
    # PT-D2: no ROCK'N'ROLL offered after the deal.
    assert st.pieces["V1"].zone == "hq" and st.to_act() == {V} and st.turn == V
    assert st.phase == "deploy"  # Vietnam continues its turn where it was


def test_interrupt_window_pass_and_when_not_offered() -> None:
    # PT-D3: a pass closes the offer until Vietnam's next action; no offer after the
    # deal, nor in the middle of a step (a pour).
    st = fresh()
    act(st, P, "pass")
    assert st.to_act() == {V}
    st.apply(Action(V, "orders"))
    assert st.to_act() == {P}  # offered again before Vietnam's next action
    # Without a usable order the offer is only the passes.
    empty_hands(st)
    assert legal(st, P) == {"pass", "pass turn", "pass round"}
    st.dealt[P] = True
    assert st.to_act() == {V}
    st = fresh()
    empty_hands(st)
    orders_phase(st)
    place(st, "V1", "C")
    place(st, "P1", "C")
    give(st, V, orders_of(st, V, "attack")[0])
    st.rd[V] = 2
    act(st, V, "attack", "V1", "P1")
    assert st.to_act() == {V}  # the pour step: no interrupt


def test_pass_turn_declines_until_the_turn_ends() -> None:
    # PT-D3: "pass turn" takes the offer before each of the opponent's actions as refused
    # for the rest of that turn (a convenience at the table); the next turn offers again.
    st = fresh()
    act(st, P, "pass", "turn")
    assert st.to_act() == {V}
    st.apply(Action(V, "orders"))
    assert st.to_act() == {V}  # still declined: no offer before Vietnam's next action
    st.apply(Action(V, "end"))
    assert st.turn == P and st.to_act() == {V}  # Vietnam's own offer, in the VPA's turn
    act(st, V, "pass")
    st.apply(Action(P, "orders"))
    assert st.to_act() == {V}  # a plain pass answers one action only
    act(st, V, "pass")
    st.apply(Action(P, "end"))
    assert st.turn == V and st.to_act() == {P}  # a new turn of Vietnam: offered again


def test_no_rerolls_after_the_deal() -> None:
    # PT-D2: after the deal no ROCK'N'ROLL; RD dice stay unless the switch is on.
    for blocks in (False, True):
        st = fresh(devils_hand_blocks_rd=blocks)
        empty_hands(st)
        orders_phase(st)
        place(st, "V1", "C")
        place(st, "P14", "C")
        give(st, V, orders_of(st, V, "attack")[0])
        st.rd[V] = 2
        act(st, V, "deal", "take")
        act(st, V, "attack", "V1", "P14")
        if blocks:
            assert st.pending is None  # rolled at once: no RD dice, no reroll
        else:
            assert st.pending is not None and st.pending.kind == "pour"
            script_dice(st, [1, 1, 1])
            act(st, V, "pour", 1)
            assert st.pending is None  # no ROCK'N'ROLL offer
        assert not st.rnr_available(V)
    # Not applying: before the deal the reroll is offered.
    st = fresh()
    assert st.rnr_available(V)


def test_arrival_bonus_for_the_loser() -> None:
    # PT-A1: the previous round's loser gets 1 locals card and 1 operations card.
    st = fresh()
    empty_hands(st)
    place(st, "V1", "C")
    end_round_now(st)
    assert len(st.ops[P]) == 1 and any(c.startswith("L") for c in st.hand[P])
    assert not st.ops[V] and not any(c.startswith("L") for c in st.hand[V])
    assert st.view(V).data["sides"][P]["operations"] == 1
    # A level round: nobody gets them.
    st = fresh()
    end_round_now(st)
    assert not st.ops[V] and not st.ops[P]
    # While they remain: with empty decks nothing replaces them.
    st = fresh()
    empty_hands(st)
    place(st, "V1", "C")
    st.locals_deck.take_all()
    st.ops_deck.take_all()
    end_round_now(st)
    assert not st.ops[P] and not any(c.startswith("L") for c in st.hand[P])


def test_operation_revealed_when_met() -> None:
    # PT-O1: reveal when the conditions are met, take the reward, card back to the deck.
    st = fresh()
    empty_hands(st)
    st.ops_deck.remove("S5")  # Hold the line: hold 2 -> 1 unit
    st.ops[V].append("S5")
    place(st, "V1", "A")
    assert "reveal S5" not in legal(st, V)
    with pytest.raises(IllegalActionError) as info:
        act(st, V, "reveal", "S5")
    assert info.value.rule == "PT-O1"
    place(st, "V2", "B")
    assert "reveal S5" in legal(st, V)
    events = act(st, V, "reveal", "S5")
    assert "revealed" in kinds(events) and events[0].to is None
    assert not st.ops[V] and st.ops_deck.cards[-1] == "S5"
    assert sum(1 for c in st.hand[V] if st.cards.is_unit(c)) == 1


def test_operations_summed_up_at_round_end() -> None:
    # PT-C3/PT-O1: held operations whose conditions hold are revealed at the round's end.
    st = fresh()
    empty_hands(st)
    st.ops_deck.remove("S7")  # Key terrain: value 5 -> 2 RD
    st.ops[V].append("S7")
    place(st, "V1", "C")
    place(st, "V2", "B")
    rd = st.rd[V]
    events = end_round_now(st)
    assert "revealed" in kinds(events) and st.rd[V] >= rd + 2


def test_loser_takes_winner_revealed_card_from_empty_deck() -> None:
    # PT-O2: the winner reveals at the round's end, the deck is then empty: the loser
    # takes that card as its due one.
    st = fresh()
    empty_hands(st)
    st.ops_deck.take_all()
    st.ops[V].append("S5")
    place(st, "V1", "A")
    place(st, "V2", "C")
    events = end_round_now(st)
    assert "took_revealed" in kinds(events) and st.ops[P] == ["S5"]
    # Not applying: the loser's own revealed card goes back to the deck.
    st = fresh()
    empty_hands(st)
    st.ops_deck.take_all()
    st.ops[P].append("S3")  # Snatch: captures 1
    st.round_stats[P]["captures"] = 1
    place(st, "V1", "C")
    events = end_round_now(st)
    assert "took_revealed" not in kinds(events)
    assert st.ops[P] == [] and st.ops_deck.cards == ("S3",)


def test_pass_round_is_not_asked_again_this_round() -> None:
    # PT-D3 (R): "pass round" declines the interrupt for the rest of the round — across
    # the opponent's later turns too — and the next round offers it again.
    st = fresh()
    empty_hands(st)
    give(st, P, orders_of(st, P, "attack")[0])
    assert st.to_act() == {P}
    act(st, P, "pass", "round")
    assert st.to_act() == {V}
    act(st, V, "end")  # the VPA's turn: Vietnam is offered its own interrupt
    assert st.turn == P and st.to_act() == {V}
    act(st, V, "pass", "turn")
    assert st.to_act() == {P}
    act(st, P, "end")  # Vietnam's turn again, the same round: the VPA is not asked
    assert st.turn == V and st.to_act() == {V} and st.declined_round == P
    # The round is over (no prisoner to name or interact with): the next one starts
    # with the offer made again.
    st.results.append({"round": st.round, "values": {}, "winner": None})
    before = st.round
    st._finish_round()
    assert not st.is_over and st.round == before + 1 and st.declined_round is None
