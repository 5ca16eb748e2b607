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

from fogofwar.core.errors import IllegalActionError, RulesError
from fogofwar.core.game import Action
from fogofwar.core.grid import Square
from fogofwar.core.rng import Stream, stream
from fogofwar.games.zero_dark.fear import FACINGS, Model, around
from fogofwar.games.zero_dark.maps import SHIPPED_MAPS
from fogofwar.games.zero_dark.missions import SHIPPED_MISSIONS
from fogofwar.games.zero_dark.profiles import TASKS
from fogofwar.games.zero_dark.state import (
    MAX_ALLIES,
    MAX_BOGEYS,
    MAX_RED_FORCE,
    TEAM,
    ZeroDarkState,
)

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
    # FR-P4: a ping in a view has no Cyl and no tier while the mission runs; once it is
    # over nothing is secret and every view shows its tier (never its Cyl).
    for seat in (TEAM, None):
        for m in state.view(seat).data["models"]:
            if m["kind"] == "ping":
                assert "cyl" not in m and ("tier" in m) == state.is_over, m


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


@PROPS
@given(config=games, seed=seeds, choices=picks)
def test_the_legal_steps_are_those_the_check_allows(
    config: dict[str, Any], seed: int, choices: list[int]
) -> None:
    # ZD-C2, FR-M1…M4: the legal list offers a one-square hero's steps from the squares
    # worked out together (Position.step_squares); they are, in order, the squares around
    # it whose step the move's own check allows, asked one by one.
    state = new_game(config, seed)

    def each(s: ZeroDarkState) -> None:
        if s.is_over or s.active is None or s.phase.value not in ("automatic", "bonus"):
            return
        hero = s.position.model(s.active)
        offered = [a.args[0] for a in s.legal_actions(TEAM) if a.kind == "step"]
        allowed = [
            to.name
            for to in around(hero.square)
            if s.board.in_bounds(to) and s._check_step(TEAM, (to,)) is None
        ]
        assert offered == allowed, (hero.id, hero.square.name, s.steps)

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


def test_every_facing_but_the_current_is_offered() -> None:
    # FR-L5: turning to a new facing is an automatic action: the three other facings.
    state = new_game({"map": "zd-open", "heroes": 1}, 0)
    state.apply(Action(TEAM, "activate", ("H1",)))
    faces = {a.args[0] for a in state.legal_actions(TEAM) if a.kind == "face"}
    assert faces == set(FACINGS) - {state.position.model("H1").facing}


# ------------------------------------------------------------------ any action refused

versus_games = st.fixed_dictionaries(
    {
        "map": st.just("zd-open"),
        "mode": st.just("versus"),
        "heroes": st.integers(1, 4),
        "red_force": st.sampled_from(["grunt=3,elite=1,boss=2", "grunt=2,elite=1,boss=1"]),
        "susceptible": st.sampled_from(["", "grunt"]),
    }
)
solo_base = {
    "map": st.sampled_from(SHIPPED_MAPS),
    "heroes": st.integers(1, 6),
    "red_force": st.just("grunt=3,elite=2,boss=2"),
    "susceptible": st.sampled_from(["", "grunt,elite"]),
}
# A task and buying time need a Spook (ZD-T1, ZD-B1: the options are refused without).
solo_games = st.fixed_dictionaries(
    {**solo_base, "task": st.sampled_from(TASKS), "buy_time": st.booleans()}
) | st.fixed_dictionaries({**solo_base, "spook": st.just(False)})
any_game = st.one_of(
    solo_games, versus_games, st.sampled_from([{"mission": m} for m in SHIPPED_MISSIONS])
)


def junk_actions(state: ZeroDarkState, rng: Stream, n: int) -> list[Action]:
    """``n`` actions of any shape: every kind of the game and some it has not, with
    none, one or several arguments of every sort (squares, ids, cards, facings, tasks,
    numbers, unicode digits, empty and long strings), by every seat and some others."""
    kinds = [
        "prepare", "activate", "step", "stop", "face", "door", "exit", "verify", "shoot",
        "dotlight", "interact", "cautious", "pass", "done", "fight", "persuade", "flip",
        "play", "move", "", "STEP", "jump", "²",
    ]  # fmt: skip
    values: list[int | str] = [
        "A1", "X24", "B19", "Z99", "a1", "H1", "H2", "H4", "H12", "H13", "A1", "B1", "B2",
        "B99", "P1", "7H", "10S", "BJ", "RJ", "1X", "NE", "SW", "N", "n", "e", "F20 s",
        "F20", "rescue", "assassination", "none", "hand", "buy", "Rescue", "", " ", "²",
        "①", "٣", "\x00", "x" * 300, 0, 1, -1, 2**70,
    ]  # fmt: skip
    seats = [*state.ruleset.seats(state.config), "team", "team1", "team2", "umpire", ""]
    out = []
    for _ in range(n):
        args = tuple(rng.choice(values) for _ in range(rng.choice((0, 1, 1, 2, 3))))
        out.append(Action(rng.choice(seats), rng.choice(kinds), args))
    return out


def snapshot(state: ZeroDarkState) -> tuple[Any, ...]:
    seats = (*state.ruleset.seats(state.config), None)
    views = tuple(state.view(s).canonical() for s in seats)
    legal = tuple(tuple(state.legal_actions(s)) for s in seats if s is not None)
    return views, legal, state.to_act(), len(state.events)


@settings(deadline=None, derandomize=True, max_examples=30)
@given(config=any_game, seed=seeds, junk=st.integers(0, 2**32))
def test_every_illegal_or_malformed_action_is_refused_in_every_phase(
    config: dict[str, Any], seed: int, junk: int
) -> None:
    # Every refusal, in every phase (the Versus setup, ZD-B4, included), is an
    # IllegalActionError with a reason — and the game's own explanation names a rule —
    # and changes nothing: no view, no legal action, no seat to act.
    state = new_game(config, seed)
    rng = stream(junk, "zd-junk")
    phases: set[str] = set()
    for step in range(60):
        if step % 3 == 0 or state.phase in ("prepare", "red", "cqb", "over"):
            phases.add(state.phase)
            before = snapshot(state)
            legal = {a for s in state.to_act() for a in state.legal_actions(s)}
            for action in junk_actions(state, rng, 8):
                if action in legal:
                    continue
                reason, rule = state.explain_illegal(action)
                assert isinstance(reason, str) and reason, action
                assert isinstance(rule, str) and rule, action
                with pytest.raises(IllegalActionError) as info:
                    state.apply(action)
                assert isinstance(info.value.reason, str) and info.value.reason, action
                assert snapshot(state) == before, action
        if state.is_over:
            break
        seat = sorted(state.to_act())[0]
        state.apply(rng.choice(state.legal_actions(seat)))
    assert phases


@pytest.mark.parametrize("phase", ["prepare", "choose", "move", "tested", "red", "over"])
def test_versus_refusals_in_each_phase_name_a_rule(phase: str) -> None:
    # The case: in the Versus setup (ZD-B4) a wrong or malformed action was a
    # RuntimeError ("no hero is activated"); now every phase refuses with a reason and
    # a rule.
    state = new_game({"map": "zd-open", "mode": "versus", "heroes": 2}, 1)
    rng = stream(1, "zd-phases")
    moves = 0
    while state.phase != phase and moves < 2000:
        seat = sorted(state.to_act())[0]
        legal = state.legal_actions(seat)
        hand = [a for a in legal if a.kind == "prepare" and a.args[1] == "hand"]
        state.apply(rng.choice(hand or legal))
        moves += 1
    assert state.phase == phase
    for action in (
        Action("team1", "step", ("A1",)),
        Action("team2", "stop"),
        Action("team1", "prepare", ("rescue",)),
        Action("team1", "prepare", ("dragon", "hand")),
        Action("team1", "activate", ()),
        Action("team1", "play", ("ZZ",)),
        Action("nobody", "flip"),
    ):
        if state.is_legal(action):
            continue
        reason, rule = state.explain_illegal(action)
        assert reason and rule, action
        with pytest.raises(IllegalActionError):
            state.apply(action)


# ------------------------------------------------------------------ the action encoding


def test_versus_shots_at_heroes_and_allies_have_indices() -> None:
    # ZD-C9 (the case): in Versus a hero may shoot (and dotlight) the other
    # team's heroes and allies: those actions have indices; solo has none for them.
    versus = RS.encoding({"map": "zd-open", "mode": "versus", "heroes": 6})
    for target in ("H1", "H6", "H12", "A1", f"A{MAX_ALLIES}", f"B{MAX_BOGEYS}"):
        for kind in ("shoot", "dotlight"):
            versus.encode(Action("team1", kind, (target,)))
    solo = RS.encoding({})
    solo.encode(Action(TEAM, "shoot", (f"B{MAX_BOGEYS}",)))
    with pytest.raises(RulesError):
        solo.encode(Action(TEAM, "shoot", ("H2",)))
    # Such a shot is offered in real games: random Versus games until one is.
    config = {"map": "zd-open", "mode": "versus", "heroes": 6, "red_force": "grunt=1"}
    encoding = RS.encoding(config)
    for seed in range(20):
        state = new_game(config, seed)
        rng = stream(seed, "zd-shots")
        while not state.is_over:
            legal = state.legal_actions(sorted(state.to_act())[0])
            shots = [a for a in legal if a.kind == "shoot" and str(a.args[0])[0] in "HA"]
            if shots:
                encoding.encode(shots[0])
                return
            state.apply(rng.choice(legal))
    pytest.fail("no shot at a hero in 20 Versus games")  # pragma: no cover


def test_a_task_the_red_force_rules_out_is_not_offered() -> None:
    # ZD-T4: with no Boss ping the Assassination task cannot be chosen; ZD-T3: with no
    # ping that may be the double agent, the Rescue cannot (Versus: not offered, and
    # refused with its rule, not an error half-way through the setup).
    state = new_game(
        {"map": "zd-open", "mode": "versus", "heroes": 2, "red_force": "grunt=2:named"}, 0
    )
    tasks = {a.args[0] for a in state.legal_actions("team1")}
    assert tasks == {"none", "observation", "acquisition"}
    for task, rule in (("assassination", "ZD-T4"), ("rescue", "ZD-T3")):
        with pytest.raises(IllegalActionError) as info:
            state.apply(Action("team1", "prepare", (task, "hand")))
        assert info.value.rule == rule
    assert state.phase == "prepare" and state.to_act() == frozenset({"team1", "team2"})


def test_the_id_bounds_hold() -> None:
    # FR-P1, ZD-C6, ZD-P1: ids never pass the encoding's bounds: at most MAX_RED_FORCE
    # pings at the start, at most one more ping per card resolved (each of the 54 at
    # most twice, ZD-B3), and every ally a persuaded bogey.
    assert MAX_BOGEYS >= MAX_RED_FORCE + 2 * 54 and MAX_ALLIES >= MAX_BOGEYS
    with pytest.raises(RulesError, match="at most 60"):
        RS.new_game({"red_force": f"grunt={MAX_RED_FORCE},elite=1"}, 0)


@settings(deadline=None, derandomize=True, max_examples=20)
@given(config=versus_games, seed=seeds, policy=st.integers(0, 2**32))
def test_versus_cards_are_all_accounted_for(config: dict[str, Any], seed: int, policy: int) -> None:
    # ZD-C6, ZD-C7, ZD-B2, ZD-B3 in Versus: every one of the 54 cards is to draw,
    # discarded, set aside or in a Spook's hand — none is lost — and the count the
    # table sees is the deck and the hands together.
    state = new_game(config, seed)
    rng = stream(policy, "zd-cards")
    for _ in range(300):
        hands = sum(len(x.hand) for x in state.sides.values())
        aside = len(state.deck.pile("aside")) if "aside" in state.deck.pile_names else 0
        assert len(state.deck) + len(state.deck.discard_pile) + aside + hands == 54
        assert state.view(None).data["deck"]["left"] == len(state.deck) + hands
        if state.is_over:
            break
        seat = sorted(state.to_act())[0]
        state.apply(rng.choice(state.legal_actions(seat)))
