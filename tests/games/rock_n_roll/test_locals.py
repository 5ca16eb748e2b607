"""Locals (PT-L1..L11)."""

from __future__ import annotations

import pytest

from fogofwar.core.errors import IllegalActionError
from fogofwar.games.rock_n_roll.state import Phase

from .helpers import (
    P,
    V,
    act,
    empty_hands,
    fresh,
    give,
    legal,
    orders_of,
    orders_phase,
    place,
    script_dice,
)

RONG, HUNTERS, MILITIA, SMUGGLERS, FISHERMEN, FISHERMEN2 = "L1", "L2", "L3", "L5", "L7", "L8"
ZULU, SHI_HO = "P12", "V19"


def test_locals_deployed_in_deployment_phase() -> None:
    # PT-L1: deployed by their own text (ruling: onto any Point) in the deployment phase.
    st = fresh()
    empty_hands(st)
    give(st, V, FISHERMEN)
    assert {f"deploy {FISHERMEN} {x}" for x in "ABCDE"} <= legal(st, V)
    act(st, V, "deploy", FISHERMEN, "C")
    assert st.pieces[FISHERMEN].owner is None and st.pieces[FISHERMEN].zone == "point"
    st = fresh()
    empty_hands(st)
    give(st, V, FISHERMEN)
    orders_phase(st)
    assert not any(a.startswith("deploy") for a in legal(st, V))
    with pytest.raises(IllegalActionError) as info:
        act(st, V, "deploy", FISHERMEN, "C")
    assert info.value.rule == "PT-L1"


def test_locals_hold_nothing_and_obey_no_orders() -> None:
    # PT-L2.
    st = fresh()
    empty_hands(st)
    orders_phase(st)
    place(st, FISHERMEN, "C")
    place(st, FISHERMEN2, "C")
    place(st, "P1", "C")
    assert st.held_by(st.pos_of("C")) == P
    give(st, V, orders_of(st, V, "manoeuvre")[0])
    place(st, "V1", "B")
    assert "manoeuvre V1 C" in legal(st, V)
    assert not any(a.startswith(f"manoeuvre {FISHERMEN}") for a in legal(st, V))
    with pytest.raises(IllegalActionError) as info:
        act(st, V, "manoeuvre", FISHERMEN, "B")
    assert info.value.rule == "PT-L2"


def test_locals_attack_each_other_only_on_a_ground() -> None:
    # PT-L3: Shi Ho's feature lets Vietnam order a local to attack another.
    st = fresh()
    empty_hands(st)
    orders_phase(st)
    place(st, FISHERMEN, "C")
    place(st, MILITIA, "C")
    give(st, V, orders_of(st, V, "attack")[0])
    assert f"attack {FISHERMEN} {MILITIA}" not in legal(st, V)
    with pytest.raises(IllegalActionError) as info:
        act(st, V, "attack", FISHERMEN, MILITIA)
    assert info.value.rule == "PT-L3"
    place(st, SHI_HO, "C")
    assert f"attack {FISHERMEN} {MILITIA}" in legal(st, V)
    # Shi Ho at another Point gives no ground here.
    place(st, SHI_HO, "A")
    assert f"attack {FISHERMEN} {MILITIA}" not in legal(st, V)


def test_locals_ignore_each_other() -> None:
    # PT-L4: the avenger does not strike back at a local; a sentinel ignores a local.
    st = fresh()
    empty_hands(st)
    orders_phase(st)
    place(st, SHI_HO, "C")
    place(st, FISHERMEN, "C")
    place(st, MILITIA, "C")
    give(st, V, orders_of(st, V, "attack")[0])
    asked = script_dice(st, [1])
    act(st, V, "attack", FISHERMEN, MILITIA)
    assert asked == [(None, 1)]  # the Fishermen's die only: no strike back
    st.phase = Phase.DEPLOY
    place(st, RONG, "B")
    give(st, V, FISHERMEN2)
    asked = script_dice(st)
    act(st, V, "deploy", FISHERMEN2, "B")
    assert asked == []
    # Not applying: the avenger does strike back at a side unit (PT-L6).
    st.phase = Phase.ORDERS
    place(st, "V1", "C")
    give(st, V, orders_of(st, V, "attack")[1])
    st.rd[V] = 0
    asked = script_dice(st, [1, 1], [5])
    act(st, V, "attack", "V1", MILITIA)
    act(st, V, "keep")
    assert asked == [(V, 2), (None, 1)] and st.pieces["V1"].zone == "hq"


def test_dead_locals_leave_for_the_match() -> None:
    # PT-L5.
    st = fresh()
    empty_hands(st)
    orders_phase(st)
    place(st, "V1", "C")
    place(st, FISHERMEN, "C")
    give(st, V, orders_of(st, V, "attack")[0])
    st.rd[V] = 0
    script_dice(st, [5, 1])
    act(st, V, "attack", "V1", FISHERMEN)
    act(st, V, "keep")
    pc = st.pieces[FISHERMEN]
    assert pc.zone == "discard" and FISHERMEN in st.view(P).data["locals_discard"]
    assert FISHERMEN not in st.locals_deck


def test_locals_act_only_by_their_features() -> None:
    # PT-L6: a plain local never attacks; a sentinel attacks a unit entering.
    st = fresh()
    empty_hands(st)
    place(st, FISHERMEN, "A")
    give(st, V, "V1")
    asked = script_dice(st)
    act(st, V, "deploy", "V1", "A")
    assert asked == []
    place(st, RONG, "E")
    give(st, V, "V2")
    asked = script_dice(st, [1, 1])
    act(st, V, "deploy", "V2", "E")
    assert asked == [(None, 2)]


def test_locals_enter_blocking_points_freely() -> None:
    # PT-L7: Zulu's entry attack does not fire at a local.
    st = fresh()
    empty_hands(st)
    place(st, ZULU, "A")
    give(st, V, FISHERMEN)
    asked = script_dice(st)
    act(st, V, "deploy", FISHERMEN, "A")
    assert asked == [] and st.pieces[FISHERMEN].zone == "point"


def test_any_unit_may_attack_locals_blocking_ones_by_order() -> None:
    # PT-L8: with an order, any unit (Zulu too) may attack a local.
    st = fresh()
    empty_hands(st)
    st.turn = P
    orders_phase(st)
    place(st, ZULU, "C")
    place(st, FISHERMEN, "C")
    assert not any(a.startswith("attack") for a in legal(st, P))
    give(st, P, orders_of(st, P, "attack")[0])
    assert f"attack {ZULU} {FISHERMEN}" in legal(st, P)


def test_locals_use_no_rd_nor_rerolls() -> None:
    # PT-L9: an incited local's attack has no pour step and no ROCK'N'ROLL.
    st = fresh()
    empty_hands(st)
    orders_phase(st)
    place(st, SHI_HO, "C")
    place(st, FISHERMEN, "C")
    place(st, FISHERMEN2, "C")
    give(st, V, orders_of(st, V, "attack")[0])
    st.rd[V] = 3
    script_dice(st, [1])
    act(st, V, "attack", FISHERMEN, FISHERMEN2)
    assert st.pending is None and st.rd[V] == 3 and st.rnr_available(V)
    # Not applying: a side unit's attack has both.
    give(st, V, orders_of(st, V, "attack")[1])
    act(st, V, "attack", SHI_HO, FISHERMEN2)
    assert st.pending is not None and st.pending.kind == "pour"


def test_zulu_then_rong() -> None:
    # PT-L10: an enemy entering where Zulu and Rong stand: Zulu first, Rong only if the
    # enemy survives.
    st = fresh()
    empty_hands(st)
    place(st, ZULU, "A")
    place(st, RONG, "A")
    give(st, V, "V14")  # Armoured car, toughness 2
    asked = script_dice(st, [5, 1, 1], [1, 1])
    act(st, V, "deploy", "V14", "A")
    assert asked == [(P, 3), (None, 2)]
    assert st.pieces["V14"].hits == 1
    give(st, V, "V1")  # toughness 1: Zulu kills it, Rong does not fire
    asked = script_dice(st, [6, 1, 1])
    act(st, V, "deploy", "V1", "A")
    assert asked == [(P, 3)] and st.pieces["V1"].zone == "hq"


def test_side_on_turn_orders_locals_attacks() -> None:
    # PT-L11: two sentinels provoked at once: the side on turn picks the order.
    st = fresh()
    empty_hands(st)
    place(st, RONG, "A")
    place(st, HUNTERS, "A")
    give(st, V, "V14")
    act(st, V, "deploy", "V14", "A")
    assert st.pending is not None and st.pending.kind == "first" and st.pending.seat == V
    assert legal(st, V) == {f"first {RONG}", f"first {HUNTERS}"}
    asked = script_dice(st, [1], [1, 1])
    act(st, V, "first", HUNTERS)
    assert asked == [(None, 1), (None, 2)]
    # A single local: no choice.
    st = fresh()
    empty_hands(st)
    place(st, RONG, "E")
    give(st, V, "V14")
    script_dice(st, [1, 1])
    act(st, V, "deploy", "V14", "E")
    assert st.pending is None


def test_side_on_turn_decides_disputed_local_moves() -> None:
    # PT-L11: a drifter withdrawing with two neighbours: the side on turn picks.
    st = fresh()
    empty_hands(st)
    orders_phase(st)
    place(st, "V1", "C")
    place(st, SMUGGLERS, "C")  # toughness 2
    give(st, V, orders_of(st, V, "attack")[0])
    st.rd[V] = 0
    script_dice(st, [5, 1])
    act(st, V, "attack", "V1", SMUGGLERS)
    act(st, V, "keep")
    assert st.pending is not None and st.pending.kind == "withdraw" and st.pending.seat == V
    assert legal(st, V) == {"withdraw B", "withdraw D"}
    act(st, V, "withdraw", "D")
    assert st.letter(st.pieces[SMUGGLERS].pos) == "D"
    # At the row's end there is one way: no choice.
    place(st, SMUGGLERS, "A")
    place(st, "V2", "A")
    give(st, V, orders_of(st, V, "attack")[1])
    script_dice(st, [5, 1])
    act(st, V, "attack", "V2", SMUGGLERS)
    act(st, V, "keep")
    assert st.pending is None and st.letter(st.pieces[SMUGGLERS].pos) == "B"
