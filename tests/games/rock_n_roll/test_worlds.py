"""Sampled Rock-n-Roll worlds (for search): consistent with a seat's view, drawn from the
view alone, with the other hand, the decks' order and the other side's operations drawn
afresh."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from typing import cast

import pytest

from fogofwar.core.game import Action, PlayerView, State
from fogofwar.core.rng import Stream, stream
from fogofwar.games.rock_n_roll import worlds
from fogofwar.games.rock_n_roll.state import RockNRollState, other
from fogofwar.games.rock_n_roll.worlds import WorldError

from .helpers import RS, P, V, act, fresh, give, orders_of, orders_phase, place, unit_of

Policy = Callable[[Stream, Sequence[Action]], Action]


def _uniform(rng: Stream, legal: Sequence[Action]) -> Action:
    return rng.choice(legal)


def _by_kind(rng: Stream, legal: Sequence[Action]) -> Action:
    """A kind at random, then one of its actions: the rarer decisions (the Current Act,
    the interrupt, the Devil's hand) come up far more often than under ``_uniform``."""
    kind = rng.choice(sorted({a.kind for a in legal}))
    return rng.choice([a for a in legal if a.kind == kind])


def _play(state: State, seed: int, policy: Policy = _uniform) -> list[State]:
    """Clones of ``state`` before each action of a random game, and at its end."""
    rng = stream(seed, "play")
    out = []
    while state.outcome() is None:
        out.append(state.clone())
        seat = sorted(state.to_act())[0]
        state.apply(policy(rng, list(state.legal_actions(seat))))
    out.append(state.clone())
    return out


def _play_on(world: State, seed: int, steps: int | None = None) -> None:
    """Random actions in ``world``: ``steps`` of them, or to the end."""
    rng = stream(seed, "on")
    done = 0
    while world.outcome() is None and (steps is None or done < steps):
        seat = sorted(world.to_act())[0]
        world.apply(rng.choice(list(world.legal_actions(seat))))
        done += 1
    if steps is None:
        assert world.is_over


def _wire(view: PlayerView) -> PlayerView:
    """The view as a seat receives it: read back from its JSON."""
    return PlayerView(view.ruleset, view.seat, json.loads(json.dumps(dict(view.data))))


def _check_world(state: State, seat: str, world: State) -> None:
    """The world gives ``seat`` its view, legal list and the turn, and hides the real
    cards: the seat's own decks hold exactly theirs, and the other hand with the decks
    it draws from the same cards as the real game, pile by pile in number."""
    assert world.view(seat).canonical() == state.view(seat).canonical()
    assert list(world.legal_actions(seat)) == list(state.legal_actions(seat))
    assert world.to_act() == state.to_act()
    w, s = cast(RockNRollState, world), cast(RockNRollState, state)
    opp = other(seat)
    # The seat knows its own hand, so its decks' contents (not their order).
    assert Counter(w.unit_deck[seat].cards) == Counter(s.unit_deck[seat].cards)
    assert Counter(w.order_deck[seat].cards) == Counter(s.order_deck[seat].cards)

    def hidden(x: RockNRollState) -> Counter[str]:
        piles = (x.unit_deck[opp], x.order_deck[opp], x.locals_deck)
        return Counter([*x.hand[opp], *(c for p in piles for c in p.cards)])

    def sizes(x: RockNRollState) -> tuple[int, ...]:
        piles = (x.unit_deck[opp], x.order_deck[opp], x.locals_deck, x.ops_deck)
        return (len(x.hand[opp]), len(x.ops[opp]), *map(len, piles))

    assert hidden(w) == hidden(s)
    assert sizes(w) == sizes(s)
    assert Counter([*w.ops[opp], *w.ops_deck.cards]) == Counter([*s.ops[opp], *s.ops_deck.cards])
    # What every seat saw go into the other hand stays there; the units in it fight for
    # that side, as drawn.
    assert set(s.known_hand(opp)) <= set(w.hand[opp])
    for c in w.hand[opp]:
        if c in w.pieces:
            pc = w.pieces[c]
            assert (pc.zone, pc.holder) == ("hand", opp)
            assert pc.owner == (None if pc.card.is_local else opp)


@pytest.mark.parametrize("seed", range(8))
def test_a_sampled_world_gives_each_seat_its_view_and_legal_actions(seed: int) -> None:
    # Every seat at every step: the world matches what the seat knows, and it is a real
    # game (a few actions on at every step, to the end now and then).
    draw = stream(seed, "worlds")
    policy = _uniform if seed % 2 == 0 else _by_kind
    for step, state in enumerate(_play(RS.new_game({}, seed), seed, policy)):
        for seat in (V, P):
            view = state.view(seat)
            world = RS.sample_world(_wire(view) if step % 4 == 0 else view, draw)
            _check_world(state, seat, world)
            _play_on(world, seed + step, None if step % 150 == 0 else 3)


def test_decisions_random_play_rarely_reaches() -> None:
    # Two sentinels to order (PT-L11), a roll under way (RD poured, ROCK'N'ROLL offered,
    # PT-C4, PT-R4), a drifter's withdrawal (PT-L11): hand-built positions whose cards
    # all stay accounted for (moved, not removed).
    st = fresh(3)
    place(st, unit_of(st, "locals", "Rong"), "A")
    place(st, unit_of(st, "locals", "Montagnard hunters"), "A")
    give(st, V, "V14")
    act(st, V, "deploy", "V14", "A")
    assert st.pending is not None and st.pending.kind == "first"
    seen = [st.clone()]
    st = fresh(3)
    orders_phase(st)
    smugglers = unit_of(st, "locals", "Smugglers")
    place(st, "V1", "C")
    place(st, smugglers, "C")
    give(st, V, orders_of(st, V, "attack")[0])
    st.rd[V] = 2
    act(st, V, "attack", "V1", smugglers)
    while st.pending is not None and st.pending.kind in ("pour", "rnr", "withdraw"):
        seen.append(st.clone())
        kind = st.pending.kind
        # The most RD dice, the re-roll, the last Point: the roll's record is full.
        legal = reversed(st.legal_actions(V))
        st.apply(next(a for a in legal if a.kind in ("pour", "rnr", "withdraw")))
        assert kind != "withdraw" or st.pending is None
    kinds = {x.pending.kind for x in seen if x.pending is not None}
    assert kinds == {"first", "pour", "rnr", "withdraw"}
    draw = stream(9, "rare")
    for i, state in enumerate(seen):
        for seat in (V, P):
            world = RS.sample_world(state.view(seat), draw)
            _check_world(state, seat, world)
            _play_on(world, i)


def test_the_other_hand_holds_the_order_its_interrupt_announced(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # PT-D3: the side off turn strikes its interrupt only holding an order it could
    # play, so every world's hand for it holds one: drawn again until it does, or, as a
    # last resort (no draws left here), one playable order swapped in from its deck.
    state = next(
        x
        for x in _play(RS.new_game({}, 3), 3, _by_kind)
        if x.pending is not None and x.pending.kind == "interrupt"
    )
    seat = other(state.pending.seat)  # type: ignore[union-attr]
    for tries in (worlds._TRIES, 0):
        monkeypatch.setattr(worlds, "_TRIES", tries)
        for i in range(20):
            world = RS.sample_world(state.view(seat), stream(i, "interrupt"))
            _check_world(state, seat, world)
            assert world.legal_actions(other(seat))


def test_the_world_is_drawn_from_the_view_alone() -> None:
    # Two games that differ only in what Vietnam cannot see (the VPA's hand against its
    # order deck, the order of Vietnam's own unit deck, the VPA's held operation against
    # the operations deck) give Vietnam the same view; the same stream then draws the
    # same world from either: nothing of the hidden cards reaches the sample.
    a = cast(RockNRollState, _play(RS.new_game({}, 0), 0)[150])
    b = a.clone()
    card = next(c for c in b.hand[P] if b.cards.is_order(c))
    top = b.order_deck[P].draw()
    b.hand[P][b.hand[P].index(card)] = top
    b.order_deck[P].put(card)
    units = list(b.unit_deck[V].take_all())
    b.unit_deck[V].put_many(units)  # the other way up
    if b.ops[P]:
        held = b.ops[P].pop()
        b.ops[P].append(b.ops_deck.draw())
        b.ops_deck.put(held)
    assert (a.hand[P], a.unit_deck[V].cards) != (b.hand[P], b.unit_deck[V].cards)
    assert a.view(V).canonical() == b.view(V).canonical()
    wa = cast(RockNRollState, RS.sample_world(a.view(V), stream(3, "w")))
    wb = cast(RockNRollState, RS.sample_world(b.view(V), stream(3, "w")))
    assert wa.hand == wb.hand and wa.ops == wb.ops
    for s in (V, P):
        assert wa.unit_deck[s] == wb.unit_deck[s] and wa.order_deck[s] == wb.order_deck[s]
        assert wa.view(s).canonical() == wb.view(s).canonical()
    _play_on(wa, 5)
    _play_on(wb, 5)
    assert wa.view(V).canonical() == wb.view(V).canonical()


def test_the_unknowns_are_drawn_afresh() -> None:
    # The other hand, the seat's own deck order and the other side's held operation
    # vary with the world drawn.
    state = cast(RockNRollState, _play(RS.new_game({}, 4), 4)[120])
    hands, tops, ops = set(), set(), set()
    for i in range(30):
        world = cast(RockNRollState, RS.sample_world(state.view(V), stream(i, "w")))
        hands.add(tuple(sorted(world.hand[P])))
        tops.add(world.unit_deck[V].top)
        ops.add(tuple(world.ops[P]))
    assert len(hands) >= 10 and len(tops) >= 2
    assert len(ops) >= 2 or not state.ops[P]


def test_a_world_is_drawn_for_a_seat() -> None:
    assert RS.can_sample_worlds
    with pytest.raises(WorldError, match="spectator"):
        RS.sample_world(fresh().view(None), stream(0, "w"))
