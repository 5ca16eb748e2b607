"""Sampled Zero Dark worlds (for search): consistent with a seat's view, drawn from the
view alone, with what the seat does not know — what the pings hide, the other team's
secrets, the Control Deck's order — drawn afresh."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, cast

import pytest

from fogofwar.core.cards import PlayingCard
from fogofwar.core.game import Action, PlayerView, State
from fogofwar.core.rng import stream
from fogofwar.games.zero_dark.fear import id_number
from fogofwar.games.zero_dark.state import ZeroDarkState, parse_red_force_specs

from .helpers import RS

CONFIGS: list[dict[str, Any]] = [
    {},
    {"mission": "the-spy"},
    {"mission": "the-boss"},
    {"map": "zd-open", "task": "observation", "buy_time": True},
    {"mode": "versus", "map": "zd-open"},
    {"mission": "dead-drop"},
    {"mode": "versus", "map": "zd-open", "heroes": 2, "red_force": "grunt=3,elite=1,boss=2"},
]


def _play(state: State, seed: int, steps: int | None = None) -> list[State]:
    """Clones of ``state`` before each action of a random game (``steps`` at most)."""
    rng = stream(seed, "zd-worlds-play")
    out = []
    while state.outcome() is None and (steps is None or len(out) < steps):
        out.append(state.clone())
        seat = sorted(state.to_act())[0]
        state.apply(rng.choice(list(state.legal_actions(seat))))
    out.append(state.clone())
    return out


def _zd(state: State) -> ZeroDarkState:
    return cast(ZeroDarkState, state)


def _face_down(st: ZeroDarkState) -> Counter[tuple[str, frozenset[str]]]:
    """What the Red Force's face-down pings hide, as the table counts them: tier and
    public flags (ZD-P0: ``susceptible`` is never shown)."""
    n = len(parse_red_force_specs(str(st.config["red_force"])))
    return Counter(
        (st.ping_types[p], st.ping_flags[p] - {"susceptible"})
        for p in st.ping_types
        if id_number(p) <= n
    )


def _unseen(st: ZeroDarkState, seat: str | None) -> Counter[PlayingCard]:
    """The cards ``seat`` has not seen: the deck and the other Spooks' hands."""
    cards = Counter(st.deck)
    for x in st.sides.values():
        if x.seat != seat:
            cards.update(x.hand)
    return cards


def _check_world(world: ZeroDarkState, state: ZeroDarkState, seat: str | None) -> None:
    view = state.view(seat)
    assert world.view(seat).canonical() == view.canonical()
    if seat is not None:
        assert list(world.legal_actions(seat)) == list(state.legal_actions(seat))
    assert world.to_act() == state.to_act()
    # The unknowns are only which is which: the same cards unseen, the same counters
    # face down, the same ids to come.
    assert _unseen(world, seat) == _unseen(state, seat)
    assert _face_down(world) == _face_down(state)
    assert set(world.ping_types) == set(state.ping_types)
    made = ("pings_made", "bogeys_made", "allies_made", "flips")
    assert [getattr(world, k) for k in made] == [getattr(state, k) for k in made]
    mine = state.sides.get(seat or "")
    if mine is not None:
        theirs = world.sides[mine.seat]
        assert (theirs.task, theirs.buying_time, theirs.hand) == (
            mine.task,
            mine.buying_time,
            mine.hand,
        )
        for pick in ("double_agent", "boss_target"):
            true, drawn = getattr(mine, pick), getattr(theirs, pick)
            if true is None or str(true).startswith("B"):
                assert drawn == true  # none, or told once turned over (ZD-T3, ZD-T4)
            else:
                assert drawn in world.ping_types  # face down until then


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: str(c.get("mission", c)))
def test_a_sampled_world_gives_each_seat_its_view_and_plays_on(config: dict[str, Any]) -> None:
    # Every seat at every step of a random game, and every third step of another (a
    # spectator every other of those): the world gives back the view, the legal list
    # and the seats to act; its hidden things are the real ones rearranged; and every
    # 50 steps the world plays on to the end.
    draw = stream(1, "zd-worlds", str(config))
    for seed in range(2):
        states = _play(RS.new_game(config, seed), seed)
        for i, state in enumerate(states):
            if seed and i % 3:
                continue
            for seat in (*RS.seats(state.config), None):
                if seat is None and i % 2:
                    continue
                world = _zd(RS.sample_world(state.view(seat), draw))
                _check_world(world, _zd(state), seat)
                if seat is not None and i % 50 == 7:
                    end = _play(world, seed + i)[-1]
                    assert end.outcome() is not None


def test_the_world_is_drawn_from_the_view_alone() -> None:
    # Two games whose hidden state differs (the pings' types exchanged, the deck's order
    # reversed) give the same view; the same stream then draws the same world from
    # either, and from the view read back from its JSON: nothing of the truth reaches it.
    state = _zd(_play(RS.new_game({"mission": "the-spy"}, 4), 4, 30)[-1])
    other = _zd(state.clone())
    pings = sorted(state.ping_types)
    other.ping_types = dict(zip(pings, reversed([state.ping_types[p] for p in pings]), strict=True))
    other.ping_flags = {p: state.ping_flags[p] for p in reversed(pings)}
    cards = list(other.deck)
    for _ in cards:
        other.deck.draw()
    for c in cards:  # laid back one by one: the old top card is now at the bottom
        other.deck.put_back(c)
    assert list(other.deck) != list(state.deck)
    assert other.ping_types != state.ping_types
    view = state.view("team")
    assert other.view("team").canonical() == view.canonical()
    wire = PlayerView(view.ruleset, view.seat, json.loads(json.dumps(dict(view.data))))
    worlds = [_zd(RS.sample_world(v, stream(3, "w"))) for v in (view, other.view("team"), wire)]
    for w in worlds:
        _play(w, 5, 40)
    assert len({w.view("team").canonical() for w in worlds}) == 1
    assert len({json.dumps(w.ping_types) for w in worlds}) == 1


def test_a_teams_secret_choices_do_not_reach_the_other_teams_world() -> None:
    # Versus (ZD-B4): two games that differ only in team1's secret task look alike to
    # team2, and team2's worlds drawn from the same stream are the same.
    games = []
    for task in ("none", "assassination"):
        st = RS.new_game({"mode": "versus", "map": "zd-open"}, 2)
        st.apply(Action("team1", "prepare", (task, "hand")))
        st.apply(Action("team2", "prepare", ("none", "hand")))
        games.append(_zd(st))
    a, b = games
    assert a.sides["team1"].hand != b.sides["team1"].hand
    assert a.view("team2").canonical() == b.view("team2").canonical()
    wa = _zd(RS.sample_world(a.view("team2"), stream(7, "w")))
    wb = _zd(RS.sample_world(b.view("team2"), stream(7, "w")))
    assert wa.sides["team1"].task == wb.sides["team1"].task
    assert wa.sides["team1"].hand == wb.sides["team1"].hand
    assert list(wa.deck) == list(wb.deck)


def test_the_unknowns_are_drawn_afresh() -> None:
    # What a ping hides, the deck's next card, the double agent (ZD-T3) and the other
    # team's task (ZD-B4) vary with the world drawn.
    spy = _zd(RS.new_game({"mission": "the-spy"}, 1))
    vs = _zd(_play(RS.new_game({"mode": "versus", "map": "zd-open"}, 3), 3, 4)[-1])
    assert vs.phase != "prepare"
    tiers, tops, agents, tasks = set(), set(), set(), set()
    for i in range(40):
        world = _zd(RS.sample_world(spy.view("team"), stream(i, "w")))
        tiers.add(world.ping_types["P1"])
        tops.add(world.deck.peek()[0])
        agents.add(world.sides["team"].double_agent)
        theirs = _zd(RS.sample_world(vs.view("team1"), stream(i, "w"))).sides["team2"]
        tasks.add(theirs.task)
    assert len(tiers) >= 2 and len(tops) >= 10 and len(agents) >= 3 and len(tasks) >= 3


def test_the_pick_and_the_pings_are_drawn_together_uniformly() -> None:
    # ZD-T3: the double agent is a face-down ping that may be one (never the named Boss)
    # and the Red Force's tiers are dealt around it: at the start of the-spy each
    # ping is the double agent about as often, and the Boss is never it.
    state = RS.new_game({"mission": "the-spy"}, 2)
    view = state.view("team")
    counts: Counter[str] = Counter()
    tiers: Counter[str] = Counter()
    n = 400
    for i in range(n):
        world = _zd(RS.sample_world(view, stream(i, "uniform")))
        agent = str(world.sides["team"].double_agent)
        counts[agent] += 1
        assert world.ping_types[agent] != "boss"
        tiers[world.ping_types[agent]] += 1
    pings = [p for p in _zd(state).ping_types]
    assert set(counts) == set(pings)
    assert all(n / len(pings) / 2 < c < n / len(pings) * 2 for c in counts.values())
    # 3 grunts and an elite may be the agent (grunt=3,elite=1,boss=1:named): 1 in 4 elite.
    assert n / 8 < tiers["elite"] < n * 3 / 8


def test_a_cqb_choice_is_against_a_bogey_that_may_be_persuaded() -> None:
    # ZD-P0, ZD-P1: the susceptible flag stays hidden when a ping is turned over, but a
    # choice to fight or persuade shows it: in every world that bogey is susceptible.
    config = {"red_force": "grunt=3:susceptible,grunt=3,elite=1", "map": "zd-open"}
    # Random play until a CQB comes: the first seed (from 2) whose walk reaches one
    # before the mission ends.
    for seed in range(2, 40):
        state = _zd(RS.new_game(config, seed))
        rng = stream(seed, "zd-worlds-cqb")
        while state.phase != "cqb" and not state.is_over:
            state.apply(rng.choice(state.legal_actions("team")))
        if state.phase == "cqb":
            break
    assert state.phase == "cqb"
    bogey = state.cqb_queue[0].bogey
    others = set()
    for i in range(30):
        world = _zd(RS.sample_world(state.view("team"), stream(i, "cqb")))
        assert "susceptible" in world.flags[bogey]
        assert [a.kind for a in world.legal_actions("team")] == ["fight", "persuade"]
        others.add(frozenset(b for b, f in world.flags.items() if "susceptible" in f))
    assert len(others) >= 2  # the other grunts' flags are drawn


def test_the_other_teams_task_fits_what_its_spook_showed() -> None:
    # ZD-C1, ZD-T3: team2's Spook rolls a cautious move with A 6 this turn, which only
    # the Rescue's +1 A gives: in every world team1 draws, team2's task is the Rescue
    # (with the double agent among the pings that may be one), though team1's view
    # never names it.

    def shown(st: ZeroDarkState) -> bool:
        events = st.view("team1").data["events"]
        return any(e["kind"] == "test" and e["who"] == "H5" and e["dice"] == 6 for e in events)

    # The first random game (from seed 0 on) in which H5 rolls such a test.
    for seed in range(20):
        state = _zd(RS.new_game({"mode": "versus", "map": "zd-open"}, seed))
        state.apply(Action("team1", "prepare", ("none", "hand")))
        state.apply(Action("team2", "prepare", ("rescue", "hand")))
        rng = stream(seed, "tell")
        while not shown(state) and not state.is_over:
            state.apply(rng.choice(state.legal_actions(sorted(state.to_act())[0])))
        if shown(state):
            break
    assert shown(state)
    assert state.view("team1").data["sides"]["team2"]["task"] is None
    for i in range(20):
        world = _zd(RS.sample_world(state.view("team1"), stream(i, "tell")))
        theirs = world.sides["team2"]
        assert theirs.task == "rescue" and world.stats("H5").a == 6
        assert theirs.double_agent is not None
