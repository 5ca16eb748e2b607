"""The stand-in core (PT-C1..C8), the terms (PT-T1..T4), Current Act and ROCK'N'ROLL."""

from __future__ import annotations

import pytest

from fogofwar.core.errors import IllegalActionError
from fogofwar.core.game import Action
from fogofwar.games.rock_n_roll.state import RockNRollState, Take

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


def test_sides_and_their_piles() -> None:
    # PT-C1: each side has a unit deck, order deck, hand, HQ, RD pool and discard pile;
    # locals and operations are shared decks.
    st = fresh()
    view = st.view(V).data
    for side in (V, P):
        s = view["sides"][side]
        assert {"unit_deck", "order_deck", "hand", "hq", "rd", "order_discard"} <= set(s)
    assert view["locals_deck"] == 8 and view["operations_deck"] == 8
    # Not applying: a side's hand is its own, the other's is a count only.
    assert "hand" in view and isinstance(view["sides"][P]["hand"], int)


def test_points_row_deploy_outermost_and_neighbour_moves() -> None:
    # PT-C2: units are deployed onto the two outermost Points only.
    st = fresh()
    empty_hands(st)
    give(st, V, "V1")
    assert {"deploy V1 A", "deploy V1 E"} <= legal(st, V)
    with pytest.raises(IllegalActionError) as info:
        act(st, V, "deploy", "V1", "C")
    assert info.value.rule == "PT-C2"
    act(st, V, "deploy", "V1", "A")
    assert st.pieces["V1"].zone == "point" and st.letter(st.pieces["V1"].pos) == "A"
    # Manoeuvres go to a neighbouring Point only.
    orders_phase(st)
    give(st, V, orders_of(st, V, "manoeuvre")[0])
    assert "manoeuvre V1 B" in legal(st, V) and "manoeuvre V1 C" not in legal(st, V)


def test_blocking_unit_attacks_entering_enemy_only() -> None:
    # PT-C2: a blocking unit (Zulu) attacks every enemy that enters its Point.
    st = fresh()
    empty_hands(st)
    place(st, "P12", "A")  # Zulu 3 dice
    give(st, V, "V1")
    asked = script_dice(st, [5, 1, 1])
    events = act(st, V, "deploy", "V1", "A")
    assert asked == [(P, 3)] and "died" in kinds(events)
    assert st.pieces["V1"].zone == "hq" and st.pieces["V1"].dead
    # Not applying: a friendly unit entering Zulu's Point is not attacked.
    st.turn = P
    give(st, P, "P1")
    asked = script_dice(st)
    act(st, P, "deploy", "P1", "A")
    assert asked == [] and st.pieces["P1"].zone == "point"


def test_hq_units_are_deployed_once_per_phase() -> None:
    # PT-C2: units may be taken from the HQ in the deployment phase (ruling: one a phase).
    st = fresh()
    empty_hands(st)
    for u in ("V1", "V2"):
        st.pieces[u].zone, st.pieces[u].holder = "hq", V
    assert "deploy V1 A" in legal(st, V)
    act(st, V, "deploy", "V1", "A")
    assert "deploy V2 A" not in legal(st, V)


def test_round_sequence_and_skippable_phases() -> None:
    # PT-C3: either phase may be skipped; when the order deck runs out the round ends,
    # the winner is decided, then the named prisoner, interactions, freeing, operations.
    st = fresh()
    assert "end" in legal(st, V) and "orders" in legal(st, V)
    act(st, V, "end")  # both phases skipped
    assert st.turn == P and st.round == 1 and st.phase == "deploy"
    empty_hands(st)
    place(st, "P1", "C")
    place(st, "V1", "A")
    st.pieces["V2"].zone, st.pieces["V2"].holder = "prison", P  # P holds a V prisoner
    events = end_round_now(st)
    # VPA wins (C=3 against A=1), holds V2: no naming by VPA (its own units are free);
    # the captor's interaction comes next.
    assert "named" not in kinds(events)
    assert st.results[0]["winner"] == P
    assert st.pending is not None and st.pending.kind == "interact" and st.pending.seat == P
    act(st, P, "spare", "V2")
    assert st.round == 2


def test_end_of_round_order() -> None:
    # PT-C3: at the end of the round, in this order: the winner is decided, the winner
    # names the prisoner to free, the captors interact, the named prisoner is freed,
    # the special operations are summed up.
    st = fresh()
    empty_hands(st)
    place(st, "V1", "C")
    place(st, "V3", "B")  # Vietnam holds B and C: wins, and holds 2 Points
    imprison(st, "V2", P)
    st.ops_deck.remove("S5")  # Hold the line: hold 2 -> 1 unit
    st.ops[V].append("S5")
    events = end_round_now(st)
    assert st.pending is not None and st.pending.kind == "name" and st.pending.seat == V
    events += act(st, V, "free", "V2")
    assert st.pending is not None and st.pending.kind == "interact" and st.pending.seat == P
    script_dice(st, [1])
    events += act(st, P, "torture", "V2")
    order = kinds(events)
    steps = ("round_over", "named", "interaction", "freed", "revealed", "round")
    assert all(k in order for k in steps)
    at = [order.index(k) for k in steps]
    assert at == sorted(at), list(zip(steps, at, strict=True))
    assert st.round == 2 and st.pieces["V2"].zone == "hq" and "S5" not in st.ops[V]
    # Not applying: the winner (the VPA, holding D and E) has none of its own units held
    # prisoner, so nobody names one and none is freed; the interactions follow the
    # result directly, then the operations.
    st = fresh()
    empty_hands(st)
    place(st, "V1", "A")
    place(st, "P1", "E")
    place(st, "P3", "D")
    imprison(st, "V2", P)
    st.ops_deck.remove("S5")
    st.ops[P].append("S5")
    events = end_round_now(st)
    assert st.results[0]["winner"] == P
    assert st.pending is not None and st.pending.kind == "interact"
    assert "named" not in kinds(events) and "revealed" not in kinds(events)
    order = kinds(events + act(st, P, "spare", "V2"))
    assert "freed" not in order
    assert order.index("round_over") < order.index("spared") < order.index("revealed")


def test_round_does_not_end_while_orders_remain() -> None:
    # PT-C3 (not applying): with orders left in the deck the next turn starts.
    st = fresh()
    act(st, V, "end")
    assert st.round == 1 and st.turn == P and st.order_deck[P]


def test_effective_dice_and_rd_poured() -> None:
    # PT-C4: a die is effective on 5-6; RD buys extra dice, 1 each.
    st = fresh()
    empty_hands(st)
    orders_phase(st)
    give(st, V, orders_of(st, V, "attack")[0])
    place(st, "V1", "C")
    place(st, "P14", "C")  # Recoilless rifle, toughness 2
    st.rd[V] = 3
    act(st, V, "attack", "V1", "P14")
    assert legal(st, V) == {"pour 0", "pour 1", "pour 2", "pour 3"}
    asked = script_dice(st, [5, 4, 6, 2])
    act(st, V, "pour", 2)
    assert asked == [(V, 4)] and st.rd[V] == 1
    act(st, V, "keep")
    assert st.pieces["P14"].zone == "hq"  # 5 and 6 hit, 4 and 2 do not
    # Not applying: no RD, no pour step.
    st2 = fresh()
    empty_hands(st2)
    orders_phase(st2)
    give(st2, V, orders_of(st2, V, "attack")[0])
    place(st2, "V1", "C")
    place(st2, "P14", "C")
    st2.rd[V] = 0
    script_dice(st2, [4, 2])
    act(st2, V, "attack", "V1", "P14")
    assert st2.pending is not None and st2.pending.kind == "rnr"
    act(st2, V, "keep")
    assert st2.pieces["P14"].hits == 0


def test_no_rd_on_interactions() -> None:
    # PT-C4: RD is never spent on prisoner interactions: the die is rolled at once.
    st = fresh()
    empty_hands(st)
    st.rd[P] = 5
    st.pieces["V1"].zone, st.pieces["V1"].holder = "prison", P
    place(st, "P1", "C")
    end_round_now(st)
    assert st.pending is not None and st.pending.kind == "interact"
    asked = script_dice(st, [1])
    act(st, P, "torture", "V1")
    assert asked == [(P, 1)] and st.rd[P] >= 5


def test_attack_toughness_and_hq() -> None:
    # PT-C5: a unit dies after hits equal to its toughness and goes to its side's HQ.
    st = fresh()
    empty_hands(st)
    orders_phase(st)
    give(st, V, orders_of(st, V, "attack")[0])
    give(st, V, orders_of(st, V, "attack")[1])
    place(st, "V8", "C")  # Ranger 3 dice
    place(st, "P14", "C")  # toughness 2
    st.rd[V] = 0
    script_dice(st, [5, 1, 1])
    act(st, V, "attack", "V8", "P14")
    act(st, V, "keep")
    assert st.pieces["P14"].zone == "point" and st.pieces["P14"].hits == 1
    script_dice(st, [6, 1, 1])
    act(st, V, "attack", "V8", "P14")
    act(st, V, "keep")  # the offer stands while ROCK'N'ROLL is unused this round
    assert st.pieces["P14"].zone == "hq" and st.pieces["P14"].holder == P
    assert st.stats[P]["losses"] == 1 and st.stats[V]["kills"] == 1


def test_an_ambush_is_an_attack_at_the_same_point() -> None:
    # PT-C5: the attacking unit rolls at an enemy unit at the same Point; an ambush is
    # such an attack with its card's extra dice, so a unit at the next Point is out of
    # its reach.
    st = fresh()
    empty_hands(st)
    orders_phase(st)
    give(st, V, orders_of(st, V, "ambush")[0])
    place(st, "V8", "B")
    place(st, "P14", "B")
    place(st, "P15", "C")
    options = {a for a in legal(st, V) if a.startswith("ambush")}
    assert options == {"ambush V8 P14"}
    with pytest.raises(IllegalActionError) as info:
        st.apply(Action(V, "ambush", ("V8", "P15")))
    assert info.value.rule == "PT-C5"


def test_combat_loss_counts_capture() -> None:
    # PT-C5 / PT-P3: a capture is a combat loss: the vengeful Guerrillas react.
    st = fresh()
    empty_hands(st)
    orders_phase(st)
    place(st, "V1", "C")
    place(st, "V2", "C")
    place(st, "P1", "C")
    place(st, "P16", "C")  # vengeful
    place(st, "V3", "C")
    st.rd = {V: 2, P: 0}
    act(st, V, "capture", "P1")
    script_dice(st, [6])
    act(st, V, "pay", "rd")  # no RD left: no pour step, the die is rolled
    act(st, V, "keep")
    assert st.pieces["P1"].zone == "prison"
    assert st.rd[P] == 1 and st.stats[P]["losses"] == 1


def test_holding_and_round_winner() -> None:
    # PT-C6: more units holds a Point; the round goes to the greater held value.
    st = fresh()
    empty_hands(st)
    place(st, "V1", "A")
    place(st, "V2", "B")
    place(st, "P1", "C")
    place(st, "P2", "E")
    place(st, "V3", "E")
    assert st.held_by(st.pos_of("E")) is None  # a tie holds nothing
    assert st.held_value(V) == 3 and st.held_value(P) == 3
    end_round_now(st)
    assert st.results[-1]["winner"] is None and st.rounds_won == {V: 0, P: 0}
    place(st, "V4", "C")
    place(st, "V5", "C")
    end_round_now(st)
    assert st.results[-1]["winner"] == V and st.rounds_won[V] == 1


def test_match_won_at_three_rounds_or_by_rounds_limit() -> None:
    # PT-C6: first to 3 rounds; or after the set number of rounds, most rounds won.
    st = fresh()
    empty_hands(st)
    place(st, "V1", "C")
    for _ in range(3):
        assert not st.is_over
        end_round_now(st)
    out = st.outcome()
    assert out is not None and out.winners == {V} and out.rule == "PT-C6"
    st = fresh(rounds=2)
    empty_hands(st)
    place(st, "V1", "C")
    end_round_now(st)
    assert not st.is_over
    end_round_now(st)
    out = st.outcome()
    assert out is not None and out.winners == {V} and st.rounds_won[V] == 2
    assert out.reason == "vietnam won 2 rounds"
    st = fresh(rounds=1)
    end_round_now(st)
    out = st.outcome()
    assert out is not None and out.is_draw
    # One round won is "1 round" (it read "won 1 rounds").
    st = fresh(rounds=1)
    empty_hands(st)
    place(st, "V1", "C")
    end_round_now(st)
    out = st.outcome()
    assert out is not None and out.reason == "vietnam won 1 round"


def test_features_are_code_by_name() -> None:
    # PT-C7: a veteran rolls 1 extra die (its feature); a plain unit does not.
    st = fresh()
    empty_hands(st)
    orders_phase(st)
    give(st, V, orders_of(st, V, "attack")[0])
    give(st, V, orders_of(st, V, "attack")[1])
    place(st, "V20", "C")  # Airborne 3 + veteran
    place(st, "V8", "C")  # Ranger 3
    place(st, "P14", "C")
    st.rd[V] = 0
    asked = script_dice(st, [1, 1, 1, 1], [1, 1, 1])
    act(st, V, "attack", "V20", "P14")
    act(st, V, "keep")
    act(st, V, "attack", "V8", "P14")
    assert asked == [(V, 4), (V, 3)]


def test_defaults_in_data() -> None:
    # PT-C8: 4 units + 4 orders and 3 RD to start. Ruling: the starting hand is round 1's
    # arrival, so round 1 deals nothing more and the first turn's draw is not burned.
    st = fresh()
    for side in (V, P):
        units = [c for c in st.hand[side] if st.cards.is_unit(c)]
        assert len(units) == 4 and st.rd[side] == 3
    vo = [c for c in st.hand[V] if st.cards.is_order(c)]
    po = [c for c in st.hand[P] if st.cards.is_order(c)]
    assert len(po) == 4  # VPA has not had a turn yet
    # Vietnam's turn draw of 2 fits under the hand limit of 10: nothing is burned.
    assert len(vo) == 6 and st.order_discard[V] == []
    assert len(st.order_deck[V]) == 24 - 4 - 2
    assert len(st.unit_deck[V]) == 20 - 4


def level_round_with_hand(v_hand: list[str]) -> tuple[RockNRollState, int, int]:
    """Round 1 ends level (nobody wins, no PT-A1 cards) with Vietnam holding ``v_hand``;
    also Vietnam's unit and order cards in deck (and order discard) before the arrival."""
    st = fresh()
    empty_hands(st)
    place(st, "V5", "A")
    place(st, "P5", "E")
    for c in v_hand:
        give(st, V, c)
    units_left = len(st.unit_deck[V])
    orders_left = len(st.order_deck[V]) + len(st.order_discard[V])
    end_round_now(st)
    assert st.round == 2 and st.results[0]["winner"] is None
    return st, units_left, orders_left


def test_arrival_deals_two_units_and_three_orders() -> None:
    # PT-C8: from round 2 the arrival deals 2 units and 3 orders a side.
    st, units_left, _ = level_round_with_hand([])
    assert st.turn == P  # after a level round the side that did not start begins
    for side, turn_draw in ((V, 0), (P, 2)):
        hand = st.hand[side]
        assert sum(st.cards.is_unit(c) for c in hand) == 2
        assert sum(st.cards.is_order(c) for c in hand) == 3 + turn_draw
    assert len(st.unit_deck[V]) == units_left - 2


def test_arrival_stops_at_the_hand_limit() -> None:
    # PT-C8 (ruling): the arrival never deals past the hand limit of 10; units come
    # first, and a card that would exceed the limit stays in its deck.
    nine = [f"V{i}" for i in range(10, 19)]
    st, units_left, orders_left = level_round_with_hand(nine)
    hand = st.hand[V]
    assert len(hand) == 10 and sum(st.cards.is_order(c) for c in hand) == 0
    assert len(st.unit_deck[V]) == units_left - 1
    assert len(st.order_deck[V]) == orders_left  # every order back in the deck
    assert [e for e in st.log if e.kind == "burned"] == []
    # Not applying: a hand with room for both takes every card due.
    st, _, _ = level_round_with_hand(nine[:5])
    assert len(st.hand[V]) == 5 + 2 + 3


def test_terms_allies_enemies_neutrals() -> None:
    # PT-T1..T4: units are every deployed card; a recruited enemy is an ally (it counts
    # for holding); locals are neutral (they never count) but are units for features.
    st = fresh()
    empty_hands(st)
    place(st, "P1", "C", owner=V)  # recruited by Vietnam (PT-T2)
    place(st, "P2", "C")
    place(st, "L7", "C")  # Fishermen (PT-T4)
    assert st.count(st.pos_of("C"), V) == 1 and st.count(st.pos_of("C"), P) == 1
    assert st.held_by(st.pos_of("C")) is None
    units = {u["id"] for u in st.view(None).data["points"][st.pos_of("C")]["units"]}
    assert units == {"P1", "P2", "L7"}  # PT-T1
    orders_phase(st)
    give(st, V, orders_of(st, V, "attack")[0])
    # PT-T3: P2 is an enemy of the recruited P1; the local may be attacked too.
    assert {"attack P1 P2", "attack P1 L7"} <= legal(st, V)
    assert "attack P2 P1" not in legal(st, V)


def test_current_act_plays_top_order() -> None:
    # PT-R3: Current Act: pay 4 RD, play the top card of the order deck at once.
    st = fresh()
    empty_hands(st)
    orders_phase(st)
    place(st, "V1", "C")
    place(st, "P1", "C")
    st.rd[V] = 4
    top = orders_of(st, V, "attack")[3]
    if top in st.order_deck[V]:
        st.order_deck[V].remove(top)
    st.order_discard[V] = [c for c in st.order_discard[V] if c != top]
    st.order_deck[V].put(top)
    act(st, V, "act")
    assert st.rd[V] == 0 and st.pending is not None and st.pending.kind == "forced"
    assert legal(st, V) == {"attack V1 P1"}
    script_dice(st, [6, 6])
    act(st, V, "attack", "V1", "P1")
    act(st, V, "keep")
    assert top in st.order_discard[V] and st.pieces["P1"].zone == "hq"
    # Not applying: under 4 RD there is no Current Act.
    st.rd[V] = 3
    assert "act" not in legal(st, V)


def test_current_act_card_without_use_is_discarded() -> None:
    # PT-R3: a top card with no legal use is discarded.
    st = fresh()
    empty_hands(st)
    orders_phase(st)
    st.rd[V] = 4
    top = orders_of(st, V, "attack")[3]
    for pile in (st.order_deck[V],):
        if top in pile:
            pile.remove(top)
    st.order_discard[V] = [c for c in st.order_discard[V] if c != top]
    st.order_deck[V].put(top)
    events = act(st, V, "act")
    assert "no_use" in kinds(events) and top in st.order_discard[V] and st.pending is None


def test_rock_n_roll_once_per_round() -> None:
    # PT-R4: once per round, re-roll all dice of one of your rolls.
    st = fresh()
    empty_hands(st)
    orders_phase(st)
    for o in orders_of(st, V, "attack")[:3]:
        give(st, V, o)
    place(st, "V8", "C")
    place(st, "P14", "C")
    st.rd[V] = 0
    script_dice(st, [1, 1, 1], [5, 6, 1])
    act(st, V, "attack", "V8", "P14")
    assert legal(st, V) == {"rnr", "keep"}
    act(st, V, "rnr")
    assert st.pieces["P14"].zone == "hq"
    place(st, "P15", "C")
    script_dice(st, [1, 1, 1])
    act(st, V, "attack", "V8", "P15")
    assert st.pending is None  # used this round: no offer
    with pytest.raises(IllegalActionError) as info:
        act(st, V, "rnr")
    assert info.value.rule in ("PT-R4", None)
    # Next round it is offered again.
    end_round_now(st)
    assert st.rnr_available(V)


def test_no_rock_n_roll_on_interaction_rolls() -> None:
    # PT-R4 (ruling): ROCK'N'ROLL is not offered on a prisoner interaction's roll (PT-P6:
    # one interaction per prisoner); it stays available for the side's next roll.
    st = fresh()
    empty_hands(st)
    imprison(st, "V1", P)
    imprison(st, "V2", P)
    place(st, "P1", "C")
    end_round_now(st)
    assert st.rnr_available(P)
    script_dice(st, [3])
    act(st, P, "execute", "V1")  # a backfire: no re-roll to escape it
    assert st.pieces["V1"].zone == "hq"
    assert st.pending is not None and st.pending.kind == "interact"
    with pytest.raises(IllegalActionError) as info:
        act(st, P, "rnr")
    assert info.value.rule == "PT-R4"
    assert st.stats[P]["rnr"] == 0
    # Applying: the same side's capture roll is offered it.
    st = fresh()
    empty_hands(st)
    orders_phase(st)
    place(st, "V1", "C")
    place(st, "V2", "C")
    place(st, "P1", "C")
    st.rd[V] = 2
    act(st, V, "capture", "P1")
    asked = script_dice(st, [1])
    act(st, V, "pay", "rd")  # no RD left: no pour step, the die is rolled at once
    assert asked == [(V, 1)]
    assert st.pending is not None and st.pending.kind == "rnr"
    assert legal(st, V) == {"rnr", "keep"}


def test_arrival_units_may_come_from_the_hq() -> None:
    # PT-C2 (Fact): units may be taken from the HQ in the arrival phase. A side whose
    # HQ holds units takes each of the arrival's units (PT-C8: 2) from the top of its
    # unit deck or from the HQ, Vietnam first; its orders and income follow.
    st = fresh()
    empty_hands(st)
    place(st, "V5", "A")
    place(st, "P5", "E")
    for u in ("V1", "V2"):
        st.pieces[u].zone, st.pieces[u].holder, st.pieces[u].dead = "hq", V, True
    units_left = len(st.unit_deck[V])
    end_round_now(st)
    assert st.round == 2 and st.phase == "arrival"
    assert isinstance(st.pending, Take) and st.pending.arrival and st.pending.seat == V
    assert st.to_act() == frozenset({V})
    assert legal(st, V) == {"take deck", "take V1", "take V2"}
    # Vietnam's orders are not dealt yet, and the VPA (empty HQ) waits its turn.
    assert not any(st.cards.is_order(c) for c in st.hand[V])
    with pytest.raises(IllegalActionError) as info:
        st.apply(Action(P, "end", ()))
    assert info.value.rule == "PT-C2"
    with pytest.raises(IllegalActionError) as info:
        st.apply(Action(V, "take", ("P1",)))  # not in its HQ
    assert info.value.rule == "PT-C2"
    events = act(st, V, "take", "V2")
    assert "took" in kinds(events) and st.pieces["V2"].zone == "hand"
    assert not st.pieces["V2"].dead and "V2" in st.known_hand(V)  # both seats saw it
    assert legal(st, V) == {"take deck", "take V1"}
    events = act(st, V, "take", "deck")
    assert len(st.unit_deck[V]) == units_left - 1 and st.pieces["V1"].zone == "hq"
    # Then its 3 orders, the VPA's arrival (dealt: nothing in its HQ) and the turn.
    assert sum(st.cards.is_order(c) for c in st.hand[V]) == 3
    assert st.pending is None and st.phase == "deploy" and st.turn == P
    vpa = st.hand[P]
    assert sum(st.cards.is_unit(c) for c in vpa) == 2
    assert sum(st.cards.is_order(c) for c in vpa) == 3 + 2  # the turn's draw too
    # The VPA's view shows the HQ's unit entering Vietnam's hand, not the deck's.
    seen = st.view(P).data["known_hands"][V]
    assert seen == ["V2"]


def test_arrival_take_counts_the_hand_limit_and_round_one_deals_none() -> None:
    # PT-C2, PT-C8: the arrival's takes are the units it deals: none past the hand
    # limit (a hand of 9 takes 1; a full hand is not asked); round 1's arrival is the
    # starting hand, so nothing is taken then.
    st = fresh()
    assert st.round == 1 and st.pending is None
    nine = [f"V{i}" for i in range(10, 19)]
    for room, hand in ((1, nine), (0, [*nine, "V19"])):
        st = fresh()
        empty_hands(st)
        place(st, "V5", "A")
        place(st, "P5", "E")
        for c in hand:
            give(st, V, c)
        st.pieces["V1"].zone, st.pieces["V1"].holder = "hq", V
        end_round_now(st)
        if room:
            assert isinstance(st.pending, Take) and st.pending.left == 1
            act(st, V, "take", "V1")
            assert st.pending is None or st.pending.seat != V
        else:
            assert not (isinstance(st.pending, Take) and st.pending.seat == V)
            assert st.pieces["V1"].zone == "hq"
        assert len(st.hand[V]) == 10


def test_arrival_take_from_an_empty_deck() -> None:
    # PT-C2: with the unit deck empty the HQ's units are still there to take; a take
    # ends when nothing is left to take.
    st = fresh()
    empty_hands(st)
    place(st, "V5", "A")
    place(st, "P5", "E")
    st.unit_deck[V].take_all()
    st.pieces["V1"].zone, st.pieces["V1"].holder = "hq", V
    end_round_now(st)
    assert legal(st, V) == {"take V1"}
    act(st, V, "take", "V1")
    assert st.pending is None and st.phase == "deploy"
    assert sum(st.cards.is_unit(c) for c in st.hand[V]) == 1
