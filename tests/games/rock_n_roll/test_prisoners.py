"""Capture (PT-P1..P5), prisoners (PT-P6..P11), goal change (PT-G1), RD rates (PT-R1, R2)."""

from __future__ import annotations

import pytest

from fogofwar.core.errors import IllegalActionError
from fogofwar.core.game import Event
from fogofwar.games.rock_n_roll.state import Interact, Phase, RockNRollState

from .helpers import (
    RS,
    P,
    V,
    act,
    empty_hands,
    end_round_now,
    finish_arrival,
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


def capture_position(own: int = 2) -> RockNRollState:
    st = fresh()
    empty_hands(st)
    orders_phase(st)
    for u in ("V1", "V2", "V3")[:own]:
        place(st, u, "C")
    place(st, "P1", "C")
    st.rd = {V: 0, P: 0}
    return st


def test_capture_needs_superiority() -> None:
    # PT-P1: more own units than enemy units at the Point.
    st = capture_position(2)
    give(st, V, orders_of(st, V, "attack")[0])  # a card to pay with
    assert "capture P1" in legal(st, V)
    st = capture_position(1)
    give(st, V, orders_of(st, V, "attack")[0])
    assert "capture P1" not in legal(st, V)
    with pytest.raises(IllegalActionError) as info:
        act(st, V, "capture", "P1")
    assert info.value.rule == "PT-P1"


def test_capture_in_orders_phase_paid_and_rolled() -> None:
    # PT-P2: orders phase; discard any own card (hand or Point) or pay 2 RD; roll 6+.
    st = capture_position(3)
    card = orders_of(st, V, "manoeuvre")[0]
    give(st, V, card)
    act(st, V, "capture", "P1")
    pays = legal(st, V)
    assert f"pay {card}" in pays and "pay V1" in pays  # V1 from the Point: still 2 v 1
    assert "pay rd" not in pays  # no RD
    script_dice(st, [5])
    act(st, V, "pay", card)
    act(st, V, "keep")
    assert st.pieces["P1"].zone == "point"  # 5 is not 6+
    assert card in st.order_discard[V]
    # With a 6 it succeeds; paying with a unit from a Point sends it to the HQ.
    act(st, V, "capture", "P1")
    script_dice(st, [6])
    act(st, V, "pay", "V1")
    act(st, V, "keep")
    assert st.pieces["V1"].zone == "hq" and st.pieces["P1"].zone == "prison"
    # Not in the deployment phase.
    st2 = capture_position(2)
    st2.phase = Phase.DEPLOY
    give(st2, V, card)
    with pytest.raises(IllegalActionError) as info:
        act(st2, V, "capture", "P1")
    assert info.value.rule == "PT-P2"


def test_capture_with_rd_dice_succeeds_on_any_die() -> None:
    # PT-C4/PT-P2: extra RD dice; any 6 captures.
    st = capture_position(2)
    st.rd[V] = 4
    act(st, V, "capture", "P1")
    act(st, V, "pay", "rd")
    assert st.rd[V] == 2 and legal(st, V) == {"pour 0", "pour 1", "pour 2"}
    asked = script_dice(st, [1, 6, 2])
    act(st, V, "pour", 2)
    act(st, V, "keep")
    assert asked == [(V, 3)] and st.pieces["P1"].zone == "prison"


def test_capture_is_not_an_attack() -> None:
    # PT-P3: no attack order is needed and no blocking unit answers; still a loss.
    st = capture_position(2)
    st.rd[V] = 2
    place(st, "P12", "C")  # Zulu, blocking
    place(st, "V3", "C")
    assert not [c for c in st.hand[V] if st.cards.is_order(c)]
    act(st, V, "capture", "P1")
    asked = script_dice(st, [6])
    act(st, V, "pay", "rd")
    act(st, V, "keep")
    assert asked == [(V, 1)]  # only the capture die: Zulu does not fire
    assert st.stats[P]["losses"] == 1 and st.stats[V]["kills"] == 0


def test_prisoner_at_captor_base() -> None:
    # PT-P4: the prisoner lies at the captor's base, holds no Point, is not "dead".
    st = capture_position(2)
    st.rd[V] = 2
    act(st, V, "capture", "P1")
    script_dice(st, [6])
    act(st, V, "pay", "rd")
    act(st, V, "keep")
    pc = st.pieces["P1"]
    assert pc.zone == "prison" and pc.holder == V
    assert st.view(P).data["sides"][V]["prisoners"][0]["id"] == "P1"
    assert st.count(st.pos_of("C"), P) == 0
    # Not returnable by the Devil's hand option 2; a dead unit is.
    st.turn, st.phase = P, Phase.DEPLOY
    assert not any(a.startswith("deal return") for a in legal(st, P))
    st.pieces["P2"].zone, st.pieces["P2"].holder, st.pieces["P2"].dead = "hq", P, True
    assert "deal return P2" in legal(st, P)


def test_locals_cannot_be_captured() -> None:
    # PT-P5 (and PT-L9).
    st = capture_position(2)
    st.rd[V] = 2
    place(st, "L7", "C")
    assert "capture L7" not in legal(st, V) and "capture P1" in legal(st, V)
    with pytest.raises(IllegalActionError) as info:
        act(st, V, "capture", "L7")
    assert info.value.rule == "PT-P5"


def interaction_position(captor: str = V, *prisoners: str) -> RockNRollState:
    st = fresh()
    empty_hands(st)
    for u in prisoners or ("P1",):
        imprison(st, u, captor)
    place(st, "V5", "A")
    place(st, "P5", "E")  # a level round: nobody names a prisoner
    end_round_now(st)
    return st


def test_torture_success_backfire_nothing() -> None:
    # PT-P6 torture 4+: the captor draws 1 order; exactly 3: the opponent draws one.
    # PT-P11: from the order decks; the tortured prisoner stays a prisoner.
    st = interaction_position(V, "P1")
    assert st.pending is not None and st.pending.kind == "interact"
    assert legal(st, V) == {"torture P1", "execute P1", "recruit P1", "spare P1"}
    hand, deck = len(st.hand[V]), len(st.order_deck[V])
    script_dice(st, [4])
    events = act(st, V, "torture", "P1")
    assert len(st.order_deck[V]) < deck or len(st.hand[V]) > hand
    assert st.pieces["P1"].zone == "prison" and st.stats[V]["tortured"] == 1
    assert "interaction" in kinds(events)
    st = interaction_position(V, "P1")
    opp = len(st.hand[P])
    script_dice(st, [3])
    act(st, V, "torture", "P1")
    assert st.stats[V]["backfired"] == 1 and st.pieces["P1"].zone == "prison"
    assert len(st.hand[P]) >= opp  # (round 2's arrival adds more on top)
    st = interaction_position(V, "P1")
    script_dice(st, [1])
    act(st, V, "torture", "P1")
    assert st.stats[V]["tortured"] == 0 and st.stats[V]["backfired"] == 0


def test_torture_draw_goes_to_captor_or_opponent() -> None:
    # PT-P11: compare the hands right after the interaction (before the arrival).
    for die, gainer in ((5, V), (3, P)):
        st = interaction_position(V, "P1", "P2")  # a second prisoner keeps the round open
        # The VPA's deck ran out (the round's end): give it cards to draw from.
        st.order_deck[P].put_many(st.order_discard[P])
        st.order_discard[P] = []
        before = {s: len(st.hand[s]) for s in (V, P)}
        script_dice(st, [die])
        act(st, V, "torture", "P1")
        assert len(st.hand[gainer]) == before[gainer] + 1
        loser = P if gainer == V else V
        assert len(st.hand[loser]) == before[loser]


def test_execute_success_and_backfire() -> None:
    # PT-P6 execute 5+: the unit leaves the match; exactly 3: it returns to its HQ,
    # bringing 1 random order from the captor's hand (PT-P11).
    st = interaction_position(V, "P1")
    script_dice(st, [5])
    act(st, V, "execute", "P1")
    assert st.pieces["P1"].zone == "gone" and st.twos_rounds[V] == {2}
    assert "P1" in st.view(P).data["executed"]
    st = interaction_position(V, "P1", "P2")
    give(st, V, orders_of(st, V, "attack")[0])
    before = len(st.hand[P])
    script_dice(st, [3])
    events = act(st, V, "execute", "P1")
    assert st.pieces["P1"].zone == "hq" and st.pieces["P1"].holder == P
    assert len(st.hand[P]) == before + 1 and not st.hand[V]
    taken = [e for e in events if e.kind == "order_taken"]
    assert taken and taken[0].to == frozenset({V, P})
    # Nothing on a 4.
    st = interaction_position(V, "P1")
    script_dice(st, [4])
    act(st, V, "execute", "P1")
    assert st.twos_rounds[V] == set()


def test_recruit_success_and_backfire() -> None:
    # PT-P6 recruit 6+: fights for the captor (its unit, in its HQ, PT-P11).
    st = interaction_position(V, "P1")
    script_dice(st, [6])
    act(st, V, "recruit", "P1")
    pc = st.pieces["P1"]
    assert pc.owner == V and pc.zone == "hq" and pc.holder == V
    # It is deployable by Vietnam as its own unit.
    st.turn, st.phase, st.hq_deploys, st.pending = V, Phase.DEPLOY, 0, None
    assert "deploy P1 A" in legal(st, V)
    st = interaction_position(V, "P1", "P2")
    script_dice(st, [3])
    act(st, V, "recruit", "P1")
    assert st.pieces["P1"].owner == P and st.pieces["P1"].zone == "hq"
    st = interaction_position(V, "P1")
    script_dice(st, [5])
    act(st, V, "recruit", "P1")
    assert st.pieces["P1"].zone == "prison"


def test_recruited_unit_fights_until_it_dies() -> None:
    # PT-P6: "until it dies": a dead recruit goes to its own side's HQ (ruling).
    st = fresh()
    empty_hands(st)
    orders_phase(st)
    place(st, "V1", "C", owner=P)  # a recruited Vietnam unit fighting for the VPA
    place(st, "V2", "C")
    give(st, V, orders_of(st, V, "attack")[0])
    st.rd[V] = 0
    assert "attack V2 V1" in legal(st, V)
    script_dice(st, [6, 6])
    act(st, V, "attack", "V2", "V1")
    act(st, V, "keep")
    assert st.pieces["V1"].owner == V and st.pieces["V1"].holder == V


def vietnam_wins_with_two_held() -> RockNRollState:
    """The end of a round Vietnam wins (V5 holds C) while the VPA holds V1 and V2."""
    st = fresh()
    empty_hands(st)
    imprison(st, "V1", P)
    imprison(st, "V2", P)
    place(st, "V5", "C")
    end_round_now(st)
    return st


def test_winner_names_prisoner_before_interactions() -> None:
    # PT-P7: the winner names its prisoner first; freed after the captor's interaction.
    st = vietnam_wins_with_two_held()
    assert st.pending is not None and st.pending.kind == "name" and st.pending.seat == V
    assert legal(st, V) == {"free V1", "free V2"}
    act(st, V, "free", "V2")
    assert isinstance(st.pending, Interact) and st.pending.unit == "V1"
    act(st, P, "spare", "V1")
    script_dice(st, [1])
    act(st, P, "torture", "V2")
    assert st.pieces["V2"].zone == "hq" and st.pieces["V2"].holder == V
    assert st.pieces["V1"].zone == "prison" and st.stats[V]["freed"] == 1
    # Not applying: the loser names nothing.
    st = fresh()
    empty_hands(st)
    imprison(st, "P1", V)
    place(st, "V5", "C")
    end_round_now(st)
    assert st.pending is not None and st.pending.kind == "interact" and st.pending.seat == V


def named_interaction(kind: str, die: int) -> tuple[RockNRollState, list[Event]]:
    """Vietnam wins the round and names V1, held with V2 by the VPA, which answers V1
    with ``kind`` rolling ``die``, then spares V2: the state and the last events."""
    st = vietnam_wins_with_two_held()
    act(st, V, "free", "V1")
    script_dice(st, [die])
    act(st, P, kind, "V1")
    script_dice(st)
    return st, act(st, P, "spare", "V2")


def test_named_prisoner_that_dies_or_turns_is_not_freed() -> None:
    # PT-P8: executed or recruited: not freed, and no other prisoner that round.
    for kind, why in (("execute", "executed"), ("recruit", "recruited")):
        st, events = named_interaction(kind, 6)
        assert "not_freed" in kinds(events)
        assert st.pieces["V2"].zone == "prison" and st.stats[V]["freed"] == 0
        said = next(e for e in events if e.kind == "not_freed")
        assert said.data["why"] == why


def test_named_prisoner_sent_home_by_a_backfire_needs_no_freeing() -> None:
    # PT-P8 speaks of a prisoner that dies or changes sides; an execute or recruit that
    # backfires (exactly 3, PT-P6) sends the named prisoner home itself: the event says
    # so ("returned"), it is not counted as freed, and no other prisoner is freed.
    for kind in ("execute", "recruit"):
        st, events = named_interaction(kind, 3)
        assert st.pieces["V1"].zone == "hq" and st.pieces["V1"].owner == V
        said = next(e for e in events if e.kind == "not_freed")
        assert said.data == {"unit": "V1", "why": "returned"}
        assert st.pieces["V2"].zone == "prison" and st.stats[V]["freed"] == 0
        assert "freed" not in kinds(events)
        assert RS.describe_event(said.to_json()) == "V1 is not freed: it went home already."


def test_effective_twos_next_round() -> None:
    # PT-P9: after an execution, the executing side's 2s count in the next round: a
    # natural 2 succeeds a threshold roll and is a hit in attacks.
    st = interaction_position(V, "P1")
    script_dice(st, [6])
    act(st, V, "execute", "P1")
    assert st.round == 2 and st.twos(V) and not st.twos(P)
    st.pending = None
    st.turn = V
    empty_hands(st)
    orders_phase(st)
    give(st, V, orders_of(st, V, "attack")[0])
    place(st, "V1", "C")
    place(st, "P2", "C")
    st.rd[V] = 0
    script_dice(st, [2, 1])
    act(st, V, "attack", "V1", "P2")
    act(st, V, "keep")
    assert st.pieces["P2"].zone == "hq"
    # Not the opponent's 2s.
    st.turn = P
    give(st, P, orders_of(st, P, "attack")[0])
    place(st, "P3", "C")
    st.rd[P] = 0
    script_dice(st, [2, 2])
    act(st, P, "attack", "P3", "V1")
    act(st, P, "keep")
    assert st.pieces["V1"].zone == "point"
    # Gone the round after.
    end_round_now(st)
    assert not st.twos(V)


def interaction_results(events: list[Event]) -> list[str]:
    return [e.data["result"] for e in events if e.kind == "interaction"]


def test_twos_not_in_the_executions_own_round() -> None:
    # PT-P9 (not applying): the 2s count in the NEXT round only; an interaction later in
    # the execution's own end of round still fails on a natural 2.
    st = interaction_position(V, "P1", "P2")
    script_dice(st, [6])
    act(st, V, "execute", "P1")
    assert st.round == 1 and not st.twos(V)
    script_dice(st, [2])
    events = act(st, V, "recruit", "P2")
    assert interaction_results(events) == ["nothing"]
    assert st.pieces["P2"].zone == "prison" and st.pieces["P2"].owner == P
    # Applying: the round after, the same 2 would pass.
    assert st.round == 2 and st.twos(V)


def test_twos_survive_a_second_execution() -> None:
    # PT-P9: a second execution at the end of round 2 adds round 3's 2s without wiping
    # round 2's, which still count in the rest of round 2's interactions.
    st = interaction_position(V, "P1")
    script_dice(st, [6])
    act(st, V, "execute", "P1")
    assert st.round == 2 and st.twos(V)
    imprison(st, "P2", V)
    imprison(st, "P3", V)
    end_round_now(st)
    assert st.round == 2 and isinstance(st.pending, Interact) and st.pending.unit == "P2"
    script_dice(st, [6])
    act(st, V, "execute", "P2")
    assert st.twos(V)
    script_dice(st, [2])
    events = act(st, V, "recruit", "P3")
    assert interaction_results(events) == ["success"]
    assert st.pieces["P3"].zone == "hq" and st.pieces["P3"].owner == V
    assert st.round == 3 and st.twos(V) and st.twos_rounds[V] == {2, 3}
    finish_arrival(st)  # P3 is in Vietnam's HQ: the arrival's units may come from it
    # Not applying: round 4 follows no execution.
    end_round_now(st)
    assert st.round == 4 and not st.twos(V)


def test_twos_in_interactions() -> None:
    # PT-P9: the threshold interactions also take the natural 2; 3 still backfires.
    st = interaction_position(V, "P1", "P2", "P3")
    st.twos_rounds[V].add(st.round)
    script_dice(st, [2])
    act(st, V, "recruit", "P1")
    assert st.pieces["P1"].owner == V
    script_dice(st, [3])
    act(st, V, "recruit", "P2")
    assert st.pieces["P2"].owner == P and st.pieces["P2"].zone == "hq"


def test_goal_change_swaps_points_units_stay() -> None:
    # PT-G1: discard 2 cards (or pay 4 RD) to swap 2 Points; units stay where they are.
    st = fresh()
    empty_hands(st)
    orders_phase(st)
    place(st, "V1", "A")
    place(st, "P1", "C")
    a, b = orders_of(st, V, "attack")[:2]
    give(st, V, a)
    give(st, V, b)
    st.rd[V] = 0
    assert "goal A C" in legal(st, V)
    act(st, V, "goal", "A", "C")
    assert legal(st, V) == {f"pay {a}", f"pay {b}"}
    act(st, V, "pay", a)
    act(st, V, "pay", b)
    assert [p.letter for p in st.points] == ["C", "B", "A", "D", "E"]
    assert st.letter(st.pieces["V1"].pos) == "C" and st.held_value(V) == 3
    # Not applying: one card and under 4 RD cannot pay.
    give(st, V, orders_of(st, V, "attack")[2])
    assert not any(x.startswith("goal") for x in legal(st, V))
    with pytest.raises(IllegalActionError) as info:
        act(st, V, "goal", "A", "B")
    assert info.value.rule == "PT-G1"


def test_rd_exchange_rates() -> None:
    # PT-R1: Goal Change 4 RD, capture 2 RD, Current Act 4 RD.
    st = fresh()
    empty_hands(st)
    orders_phase(st)
    place(st, "V1", "C")
    place(st, "V2", "C")
    place(st, "P1", "C")
    st.rd[V] = 4
    act(st, V, "goal", "B", "D")
    assert legal(st, V) == {"pay rd"}
    act(st, V, "pay", "rd")
    assert st.rd[V] == 0
    st.rd[V] = 3
    assert "act" not in legal(st, V) and "capture P1" in legal(st, V)
    act(st, V, "capture", "P1")
    act(st, V, "pay", "rd")
    assert st.rd[V] == 1
    st.rd[V] = 1
    with pytest.raises(IllegalActionError):
        act(st, V, "act")


def test_swap_a_card_for_a_new_one() -> None:
    # PT-R2: discard a card and pay 1 RD for a new card of the same kind.
    st = fresh()
    empty_hands(st)
    give(st, V, "V1")
    o = orders_of(st, V, "attack")[0]
    give(st, V, o)
    st.rd[V] = 2
    act(st, V, "swap", "V1")
    assert st.rd[V] == 1 and "V1" not in st.hand[V] and st.pieces["V1"].zone == "hq"
    assert sum(1 for c in st.hand[V] if st.cards.is_unit(c)) == 1
    act(st, V, "swap", o)
    assert st.rd[V] == 0 and o in st.order_discard[V]
    assert sum(1 for c in st.hand[V] if st.cards.is_order(c)) == 1
    # Not applying: without RD there is no swap.
    assert not any(x.startswith("swap") for x in legal(st, V))
    with pytest.raises(IllegalActionError) as info:
        act(st, V, "swap", st.hand[V][0])
    assert info.value.rule == "PT-R2"
