"""Zero Dark Versus (ZD-C9, ZD-B4, ZD-B5): two teams, their secret setup choices,
the roll-off, alternating activations, heroes fighting heroes, and what each team may
know of the other."""

from __future__ import annotations

from typing import Any

import pytest

from fogofwar.core.errors import IllegalActionError
from fogofwar.core.game import Action, get_ruleset
from fogofwar.core.rng import stream
from fogofwar.games.zero_dark.state import ZeroDarkState

RS = get_ruleset("zero-dark")
VS: dict[str, Any] = {"map": "zd-open", "mode": "versus", "heroes": 3}


def versus(seed: int = 0, **config: Any) -> ZeroDarkState:
    state = RS.new_game({**VS, **config}, seed)
    assert isinstance(state, ZeroDarkState)
    return state


def prepare(state: ZeroDarkState, one: tuple[str, str], two: tuple[str, str]) -> None:
    state.apply(Action("team1", "prepare", one))
    state.apply(Action("team2", "prepare", two))


def test_seats_and_secret_simultaneous_setup() -> None:
    # ZD-C9: Versus seats are team1 and team2; ZD-B4: each records its choice in secret,
    # both at once (either may go first).
    assert RS.seats({"mode": "versus"}) == ("team1", "team2")
    assert RS.seats({}) == ("team",)
    state = versus()
    assert state.phase == "prepare" and state.to_act() == frozenset({"team1", "team2"})
    state.apply(Action("team2", "prepare", ("observation", "buy")))
    assert state.to_act() == frozenset({"team1"})
    # team2's choice is its own: team1 and spectators learn nothing of it yet.
    for seat in ("team1", None):
        text = state.view(seat).canonical()
        assert "observation" not in text and '"buy"' not in text
    assert "observation" in state.view("team2").canonical()
    state.apply(Action("team1", "prepare", ("none", "hand")))
    assert state.phase != "prepare"


def test_buying_time_choices_are_revealed_together() -> None:
    # ZD-B5: once both are in, the buying-time choices are shown together; ZD-B4: with
    # both buying, the set-aside count is the sum of both Spooks' D.
    state = versus()
    prepare(state, ("none", "buy"), ("none", "buy"))
    (reveal,) = [e for e in state.events if e.kind == "buying_time_choices"]
    assert reveal.to is None and reveal.data["choices"] == {"team1": True, "team2": True}
    d1 = state.stats(state.sides["team1"].spook or "").d
    d2 = state.stats(state.sides["team2"].spook or "").d
    assert state.aside_target == d1 + d2
    assert state.sides["team1"].hand == [] and state.sides["team2"].hand == []


def test_one_side_buying_time_sets_aside_its_d_only() -> None:
    # ZD-B5: if only one Versus player buys time, the count is that Spook's D; the other
    # Spook draws its hand (ZD-C7).
    state = versus()
    prepare(state, ("assassination", "buy"), ("none", "hand"))
    spook1 = state.sides["team1"].spook or ""
    assert state.aside_target == state.stats(spook1).d == 4  # D3 + 1 (ZD-T4, ZD-B6)
    assert len(state.sides["team2"].hand) == state.stats(state.sides["team2"].spook or "").d


def test_roll_off_and_alternating_activations() -> None:
    # ZD-C9: a roll-off picks who starts; the teams alternate activations, each
    # activating only its own models.
    state = versus(seed=3)
    prepare(state, ("none", "hand"), ("none", "hand"))
    (roll,) = [e for e in state.events if e.kind == "roll_off"]
    first = roll.data["first"]
    other = "team2" if first == "team1" else "team1"
    assert state.to_act() == frozenset({first})
    mine = {a.args[0] for a in state.legal_actions(first)}
    assert mine == set(state.sides[first].heroes)
    theirs = state.sides[other].heroes[0]
    with pytest.raises(IllegalActionError):
        state.apply(Action(first, "activate", (theirs,)))
    state.apply(Action(first, "activate", (state.sides[first].heroes[0],)))
    state.apply(Action(first, "stop"))
    state.apply(Action(first, "pass"))
    if state.phase == "red":
        state.apply(Action(first, "flip"))
    assert state.to_act() == frozenset({other})


def test_heroes_of_the_other_team_are_enemies() -> None:
    # ZD-C9: heroes may shoot opposing heroes; FR-M2: enemy characters are impassable.
    state = versus()
    prepare(state, ("none", "hand"), ("none", "hand"))
    h1 = state.position.model(state.sides["team1"].heroes[0])
    h2 = state.position.model(state.sides["team2"].heroes[0])
    assert h1.team == "team1" and h2.team == "team2"
    assert h2.square in state.position.impassable_to(h1)
    assert state.sides["team2"].heroes[0] in {m.id for m in state._enemies(h1)}
    assert h1.id not in {
        m.id for m in state._enemies(state.position.model(state.sides["team1"].heroes[1]))
    }


@pytest.mark.parametrize("seed", [1, 4])
def test_a_teams_secret_task_changes_nothing_the_other_team_receives(seed: int) -> None:
    # ZD-B4, ZD-T1 non-interference: two games that differ only in team2's secret task
    # (tasks that leave D as it is) give team1 and spectators the same views, action by
    # action, both teams playing the same actions, until an action of team2 has a
    # public effect that the task changes (a test with its Spook's bonus die).
    a, b = versus(seed), versus(seed)
    prepare(a, ("none", "hand"), ("rescue", "hand"))
    prepare(b, ("none", "hand"), ("observation", "hand"))
    rng = stream(seed, "versus")
    checked = 0
    while not a.is_over and checked < 80:
        for seat in ("team1", None):
            assert a.view(seat).canonical() == b.view(seat).canonical(), (checked, seat)
        assert a.to_act() == b.to_act()
        seat = sorted(a.to_act())[0]
        both = [x for x in a.legal_actions(seat) if x in b.legal_actions(seat)]
        if seat == "team1":
            assert a.legal_actions(seat) == b.legal_actions(seat)
        action = rng.choice(both)
        ea = [e.to_json() for e in a.apply(action) if e.visible_to("team1")]
        eb = [e.to_json() for e in b.apply(action) if e.visible_to("team1")]
        checked += 1
        if ea != eb:
            assert seat == "team2"  # only team2's own actions may show its task
            break
    assert checked >= 10
    assert a.view("team2").canonical() != b.view("team2").canonical()


def test_versus_plays_to_the_end_with_a_result() -> None:
    # ZD-C8, ZD-C9: random legal actions of both teams reach the end and a report.
    state = versus(seed=2, heroes=2)
    rng = stream(2, "versus-end")
    moves = 0
    while not state.is_over:
        seat = sorted(state.to_act())[0]
        state.apply(rng.choice(state.legal_actions(seat)))
        moves += 1
    assert state.report is not None
    assert set(state.report["tasks"]) == {"team1", "team2"}
    assert state.report["result"] in ("team1 wins", "team2 wins", "a draw")
    assert moves > 20


def test_versus_needs_a_second_deployment_zone() -> None:
    # ZD-C9 on a map without a heroes2 zone: a clear error, not a game.
    with pytest.raises(Exception, match="heroes2"):
        RS.new_game({"map": "zd-corridor", "mode": "versus"}, 0)
