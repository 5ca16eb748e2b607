"""Properties of whole ``zero-dark`` games under any sequence of legal actions
(hypothesis, derandomized): where models stand (FR-M2, FR-M3, FR-C1), the Control Deck's
cards (ZD-C6), what views show of pings (FR-P4), and illegal actions (which change
nothing)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fogofwar.core.errors import IllegalActionError
from fogofwar.core.game import Action
from fogofwar.core.grid import Square
from fogofwar.games.zero_dark.fear import FACINGS, Model
from fogofwar.games.zero_dark.maps import SHIPPED_MAPS
from fogofwar.games.zero_dark.state import TEAM, ZeroDarkState

from .helpers import RS

PROPS = settings(deadline=None, derandomize=True, max_examples=25)

games = st.fixed_dictionaries(
    {
        "map": st.sampled_from(SHIPPED_MAPS),
        "heroes": st.integers(1, 6),
        "red_force": st.sampled_from(
            ["grunt=5,elite=2,boss=1", "grunt=2,elite=2,boss=2,special=2", "grunt=8", "boss=3"]
        ),
        "los_origin": st.sampled_from(["centre", "any_corner"]),
        "diagonal_block": st.sampled_from(["either", "both"]),
        "engage_through_walls": st.booleans(),
    }
)
seeds = st.integers(0, 10_000)
picks = st.lists(st.integers(0, 2**16), min_size=1, max_size=45)


def new_game(config: dict[str, Any], seed: int) -> ZeroDarkState:
    state = RS.new_game(config, seed)
    assert isinstance(state, ZeroDarkState)
    return state


def may_cross(mover: Model, other: Model) -> bool:
    """FR-M2 for a hero: down bogeys and friendly characters."""
    if other.kind == "bogey":
        return other.state == "down"
    return other.kind in ("hero", "ally") and other.team == mover.team


def check_squares(state: ZeroDarkState) -> None:
    # FR-M2, FR-M3, FR-C1: no two models share a square, except the hero moving now
    # standing, mid-move, on a model it may cross (its automatic action's move, or a
    # bonus action's move, ZD-C2).
    on: dict[Square, list[Model]] = defaultdict(list)
    for m in state.position.models.values():
        for sq in m.squares:
            assert state.board.in_bounds(sq) and state.board.passable[sq], (m.id, sq)
            on[sq].append(m)
    for sq, here in on.items():
        if len(here) == 1:
            continue
        assert len(here) == 2, (sq, [m.id for m in here])
        assert state.phase in ("move", "bonus") and state.active is not None, sq
        (mover,) = [m for m in here if m.id == state.active]
        (other,) = [m for m in here if m.id != state.active]
        assert may_cross(mover, other), (sq, mover.id, other.id)
        assert not state.position.can_stop(mover.id, sq)


def check_deck(state: ZeroDarkState) -> None:
    # ZD-C6, ZD-C7, ZD-B2: every one of the 54 cards is to draw, discarded, set aside or
    # in the Spook's hand.
    aside = len(state.deck.pile("aside")) if "aside" in state.deck.pile_names else 0
    total = len(state.deck) + len(state.deck.discard_pile) + aside + len(state.hand)
    assert total == 54


def check_pings_blank(state: ZeroDarkState) -> None:
    # FR-P4: a ping in a view has no Cyl and no tier.
    for seat in (TEAM, None):
        for m in state.view(seat).data["models"]:
            if m["kind"] == "ping":
                assert "cyl" not in m and "tier" not in m, m


def play(state: ZeroDarkState, choices: list[int], each: Any = None) -> None:
    for i in choices:
        if state.is_over:
            break
        legal = state.legal_actions(TEAM)
        assert legal, "a game not over always has a legal action"
        state.apply(legal[i % len(legal)])
        if each is not None:
            each(state)


@PROPS
@given(config=games, seed=seeds, choices=picks)
def test_invariants_after_any_legal_actions(
    config: dict[str, Any], seed: int, choices: list[int]
) -> None:
    # FR-M2, FR-M3, FR-C1, ZD-C6, FR-P4 after every action.
    state = new_game(config, seed)

    def each(s: ZeroDarkState) -> None:
        check_squares(s)
        check_deck(s)
        check_pings_blank(s)
        # FR-P3: no ping is left in sight of (or engaged with) a character.
        for p in s.pings():
            for c in s.characters():
                assert not s.position.engaged(c.id, p.id), (c.id, p.id)
                assert not s.position.sees(c.id, p.id), (c.id, p.id)

    each(state)
    play(state, choices, each)


def far_square(state: ZeroDarkState, hero: Model) -> Square:
    """A square at least two king moves from the hero."""
    for sq in state.board.squares():
        if max(abs(sq.row - hero.square.row), abs(sq.col - hero.square.col)) >= 2:
            return sq
    raise AssertionError("the map is too small")  # pragma: no cover


def illegal_actions(state: ZeroDarkState) -> list[Action]:
    """Actions that are illegal now, by construction."""
    out = [
        Action(TEAM, "activate", ("H9",)),
        Action("team2", "stop"),  # not a seat of solo play
        Action(TEAM, "shoot", ("B99",)),  # no such bogey
    ]
    if state.is_over:
        return [*out, Action(TEAM, "stop")]
    if state.phase in ("choose", "red", "cqb"):
        out += [Action(TEAM, "stop"), Action(TEAM, "step", ("A1",)), Action(TEAM, "face", ("NE",))]
        out += [Action(TEAM, "activate", (h,)) for h in sorted(state.acted)]
    elif state.phase == "tested":
        out += [
            Action(TEAM, "stop"),
            Action(TEAM, "step", ("A1",)),
            Action(TEAM, "activate", ("H1",)),
        ]
    else:
        hero = state.position.model(str(state.active))
        out += [
            Action(TEAM, "step", (far_square(state, hero).name,)),
            Action(TEAM, "activate", (hero.id,)),
            Action(TEAM, "face", (hero.facing,)),  # not a new facing
            Action(TEAM, "face", ("N",)),
        ]
        out += [Action(TEAM, "activate", (h,)) for h in sorted(state.acted)]
        if state.steps:
            legal = state.legal_actions(TEAM)
            assert not any(a.kind == "door" for a in legal)  # ZD-C2: not after steps
    return out


@PROPS
@given(config=games, seed=seeds, choices=picks)
def test_illegal_actions_raise_and_change_nothing(
    config: dict[str, Any], seed: int, choices: list[int]
) -> None:
    # An illegal action raises IllegalActionError and leaves every view unchanged.
    state = new_game(config, seed)
    play(state, choices)
    before = {seat: state.view(seat).canonical() for seat in (TEAM, None)}
    legal = state.legal_actions(TEAM)
    for action in illegal_actions(state):
        assert action not in legal
        with pytest.raises(IllegalActionError):
            state.apply(action)
        for seat, text in before.items():
            assert state.view(seat).canonical() == text, action


@PROPS
@given(config=games, seed=seeds, choices=picks)
def test_clones_are_independent(config: dict[str, Any], seed: int, choices: list[int]) -> None:
    # A clone plays on without touching the original (the umpire's search and bots rely
    # on it), and plays the same as the original would.
    state = new_game(config, seed)
    play(state, choices[: len(choices) // 2])
    before = state.view(None).canonical()
    twin = state.clone()
    rest = choices[len(choices) // 2 :]
    play(twin, rest)
    assert state.view(None).canonical() == before
    play(state, rest)
    assert state.view(None).canonical() == twin.view(None).canonical()


def test_every_facing_but_the_current_is_offered() -> None:
    # FR-L5: turning to a new facing is an automatic action: the three other facings.
    state = new_game({"map": "zd-open", "heroes": 1}, 0)
    state.apply(Action(TEAM, "activate", ("H1",)))
    faces = {a.args[0] for a in state.legal_actions(TEAM) if a.kind == "face"}
    assert faces == set(FACINGS) - {state.position.model("H1").facing}
