"""Secrets: hands, decks and unrevealed operations are hidden; views are built from
what a seat may know (non-interference), and hidden draws never shift public rolls."""

from __future__ import annotations

import json

import pytest

from .helpers import P, V, act, empty_hands, fresh, give, orders_of, orders_phase, place


def views(st: object) -> dict[str | None, str]:
    return {s: st.view(s).canonical() for s in (V, P, None)}  # type: ignore[attr-defined]


def test_own_hand_and_counts_of_others() -> None:
    st = fresh()
    v = st.view(V).data
    assert [c["id"] for c in v["hand"]] == st.hand[V]
    assert v["sides"][P]["hand"] == len(st.hand[P])
    assert "hand" not in st.view(None).data and "operations" not in st.view(None).data
    text = st.view(V).canonical()
    for card in st.hand[P]:
        assert f'"id":"{card}"' not in text


def test_opponent_hand_change_changes_nothing_for_the_seat() -> None:
    st = fresh()
    before = views(st)
    # Swap one card of the VPA's hand with the top of its order deck (same count).
    card = next(c for c in st.hand[P] if st.cards.is_order(c))
    top = st.order_deck[P].draw()
    st.hand[P][st.hand[P].index(card)] = top
    st.order_deck[P].put(card)
    after = views(st)
    assert after[V] == before[V] and after[None] == before[None]
    assert after[P] != before[P]  # the VPA itself sees the change
    assert {str(a) for a in st.legal_actions(V)} == {str(a) for a in fresh().legal_actions(V)}


def test_deck_order_and_operations_are_hidden() -> None:
    st = fresh()
    before = views(st)
    cards = list(st.order_deck[P].take_all())
    st.order_deck[P].put_many(reversed(cards))
    cards = list(st.unit_deck[V].take_all())
    st.unit_deck[V].put_many(reversed(cards))
    st.ops[P].append(st.ops_deck.draw())
    after = views(st)
    assert after[V] != before[V]  # the operations count is public...
    st2 = fresh()
    st2.ops[P].append(st2.ops_deck.cards[-1])  # ...which card it is is not
    st2.ops_deck.remove(st2.ops_deck.cards[-1])
    assert st2.view(V).canonical() == after[V]
    assert st2.view(P).canonical() != after[P]


@pytest.mark.parametrize("draw", ["swap", "deal"])
def test_hidden_draws_never_shift_public_rolls(draw: str) -> None:
    # Keyed streams: a private draw (a swapped order, or the Devil's `deal take` in the
    # orders phase) made in one game and not in the other leaves the next public roll
    # the same.
    rolls = []
    for hidden in (False, True):
        st = fresh(seed=5)
        empty_hands(st)
        orders_phase(st)
        place(st, "V8", "C")
        place(st, "P14", "C")
        give(st, V, orders_of(st, V, "attack")[0])
        if hidden:
            if draw == "swap":
                spare = orders_of(st, V, "supply")[0]
                give(st, V, spare)
                st.rd[V] = 1
                events = act(st, V, "swap", spare)
            else:
                events = act(st, V, "deal", "take")
            drew = [e for e in events if e.kind == "drew"]
            assert drew and all(e.to == frozenset({V}) for e in drew)
        st.rd[V] = 0
        events = act(st, V, "attack", "V8", "P14")
        rolls.append([e.data["dice"] for e in events if e.kind == "rolled"])
    assert rolls[0] == rolls[1] and rolls[0]


def test_private_draw_events() -> None:
    st = fresh()
    drew = [e for e in st.log if e.kind == "drew"]
    assert drew and all(e.to is not None and len(e.to) == 1 for e in drew)
    v_events = json.dumps(st.view(V).data["events"])
    for e in drew:
        if e.to == frozenset({P}):
            for c in e.data["cards"]:
                assert f'"{c}"' not in v_events
