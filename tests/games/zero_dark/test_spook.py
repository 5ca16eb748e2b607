"""The Spook supplement in whole ``zero-dark`` games: buying time (ZD-B*), priority tasks
(ZD-T*), the Persuaded state (ZD-P*), Dependent allies (ZD-D*) and the Dotlight (ZD-L*),
and the non-interference of the tasks' secrets (the double agent, the Boss to
assassinate).

Positions are made by surgery (``helpers.surgery_game`` with ``spook=True``, then the
Spook's hand, the Control Deck, the task's picks set by hand: each test says so), and
the dice are scripted: ``scripted.Dice`` monkeypatches ``state._roll`` to return chosen
successes in order and records the dice and TN of every test.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from fogofwar.core.cards import Deck, PlayingCard
from fogofwar.core.errors import RulesError
from fogofwar.core.game import Action, Config
from fogofwar.core.grid import Board, Square
from fogofwar.core.rng import stream
from fogofwar.games.zero_dark.fear import Model
from fogofwar.games.zero_dark.profiles import ALLY, BOGEYS, HERO, ROSTER, HeroStats
from fogofwar.games.zero_dark.state import TEAM, ZeroDarkState

from .helpers import (
    RS,
    act,
    ally,
    board,
    bogey,
    deck_of,
    dist,
    finish,
    hero,
    illegal_rule,
    kinds,
    legal,
    of_kind,
    ping,
    sq,
    surgery_game,
)
from .scripted import Dice, Roll

SPOOK = ROSTER[0][1]
"""The Spook's own profile (a real game's H1 with ``spook`` on)."""

# A 7x7 floor whose deployment site G7 is sealed off by blocks: a complication's ping
# there is never seen and never gets out (a Joker, or a face card with no Elite or Boss
# on the table, is a quiet flip).
ARENA = """
.......
.......
.......
.......
.......
.....XX
.....X.
"""

# A 12x3 floor, its deployment site L1 sealed off.
WIDE = """
..........X.
..........XX
............
"""

QUIET = ("JS", "QS", "KS", "JH", "QH", "KH", "JD", "QD", "KD", "JC", "QC", "KC", "BJ", "RJ")
"""Cards that do nothing while only Grunts (and the sealed ping) are on the table."""


def arena(**markers: str) -> Board:
    return board(ARENA, markers={"deployment": "G7", **markers})


def control(*top: str, hand: tuple[str, ...] = (), fill: bool = True) -> Deck[PlayingCard]:
    """A Control Deck with the ``hand`` drawn from it (out, as a real hand is), then
    ``top`` first, then (``fill``) the rest of the 54."""
    rest = [c for c in deck_of(*top, fill=fill).draw_pile if c.to_json() not in hand]
    deck = Deck([*map(PlayingCard.parse, hand), *rest], name="control")
    for _ in hand:
        deck.draw()
    return deck


def open_arena() -> Board:
    """The arena with G7 opened up (a way in for complications, ranges of 5 across)."""
    return board(ARENA.replace(".....X.", "......."), markers={"deployment": "G7"})


def spook_game(
    models: list[Model],
    *top: str,
    b: Board | None = None,
    hand: tuple[str, ...] = (),
    fill: bool = True,
    **config: Any,
) -> ZeroDarkState:
    """Surgery: a Spook game (H1 the Spook) with ``models`` on ``b`` (the arena), the
    Spook's hand ``hand`` (empty unless told) and a Control Deck of ``top`` (a quiet
    Joker unless told) then the rest (``fill``)."""
    state = surgery_game(b if b is not None else arena(), models, spook=True, **config)
    assert state.spook == "H1"
    state.hand = [PlayingCard.parse(c) for c in hand]
    state.deck = control(*(top or ("BJ",)), hand=hand, fill=fill)
    return state


def new_game(seed: int = 0, **config: Any) -> ZeroDarkState:
    state = RS.new_game({"map": "zd-open", "spook": True, **config}, seed)
    assert isinstance(state, ZeroDarkState)
    return state


def turn_of(state: ZeroDarkState, model: str = "H1") -> list[Any]:
    """``model``'s activation: no move (``stop``), no tested action, then the flip."""
    events = act(state, "activate", model) + act(state, "stop") + finish(state)
    if state.phase == "red":
        events += act(state, "flip")
    return events


def report(state: ZeroDarkState) -> dict[str, Any]:
    assert state.is_over and state.report is not None
    return state.report


def gained(state: ZeroDarkState, hero_id: str = "H1") -> list[tuple[str, int]]:
    return list(report(state)["xp"][hero_id]["gained"])


def aside(state: ZeroDarkState) -> list[str]:
    if "aside" not in state.deck.pile_names:
        return []
    return sorted(c.to_json() for c in state.deck.pile("aside"))


def with_ally(state: ZeroDarkState, ally_id: str = "A1", owner: str = "H1") -> None:
    """Surgery: ``ally_id`` (on the map already) is ``owner``'s persuaded ally, with the
    ally profile and the Dependent upgrade (as ZD-P5 makes one)."""
    state.ally_of[ally_id] = owner
    state.hero_stats[ally_id] = ALLY
    state.upgrades[ally_id] = ["dependent"]
    state.upgrades[owner].append(f"ally {ally_id}")
    state.allies_made = int(ally_id[1:])


# ======================================================================= ZD-B buying time


def test_buying_time_gives_up_the_hand() -> None:
    # ZD-B1: a Spook that buys time draws no hand; the whole deck stays to flip.
    state = new_game(2, buy_time=True)
    assert state.buying_time and state.hand == [] and len(state.deck) == 54
    assert of_kind(state.events, "buying_time") == [{"spook": "H1", "cards": 3, "rule": "ZD-B1"}]
    assert of_kind(state.events, "hand_drawn") == []
    assert state.view(TEAM).data["hand"] == []
    assert state.view(None).data["sides"][TEAM]["buying_time"] is True
    # ZD-B1 does not apply without buying time (a hand of D) or without a Spook.
    plain = new_game(2)
    assert not plain.buying_time and len(plain.hand) == 3
    no_spook = unchecked_game(2, spook=False, buy_time=True)
    assert not no_spook.buying_time and no_spook.aside_target == 0


def unchecked_game(seed: int, **options: Any) -> ZeroDarkState:
    """A mission on options the rule set refuses together (surgery: its configuration is
    built past ``resolve_config``), to show what the state itself does with them."""
    cfg = RS.resolve_config({"map": "zd-open"})
    return ZeroDarkState(RS, Config({**cfg, **options}), RS.board(cfg), seed)


@pytest.mark.parametrize(
    ("options", "names"),
    [
        ({"spook": False, "buy_time": True}, ("buy_time=true", "spook=true", "ZD-B1")),
        ({"spook": False, "task": "rescue"}, ("task=rescue", "spook=true", "ZD-T1")),
    ],
)
def test_a_task_or_buying_time_without_a_spook_is_refused(
    options: dict[str, Any], names: tuple[str, ...]
) -> None:
    # ZD-B1, ZD-T1: without a Spook nobody buys time and there is no task, so options
    # asking for them are refused (rather than silently dropped), naming the options.
    with pytest.raises(RulesError) as info:
        RS.resolve_config({"map": "zd-open", **options})
    assert all(name in str(info.value) for name in names), str(info.value)


@pytest.mark.parametrize("buy_time", [True, False])
def test_the_first_d_flips_are_set_aside(monkeypatch: pytest.MonkeyPatch, buy_time: bool) -> None:
    # ZD-B2: with buying time the first cards flipped, up to the Spook's D (3), are set
    # aside instead of discarded; ZD-B6: a set-aside card still takes effect (5S
    # activates the Grunt). Without buying time every flip is discarded.
    models = [hero("H1", "A7"), bogey("B1", "C1")]
    state = spook_game(models, "5S", "QH", "KH", "JH", buy_time=buy_time)
    Dice(monkeypatch, state, default=0)
    flips = []
    for _ in range(4):
        events = turn_of(state)
        flips += of_kind(events, "flip")
        if len(flips) == 1:
            assert of_kind(events, "activated") == [{"model": "B1"}]
    assert [f["card"] for f in flips] == ["5S", "QH", "KH", "JH"]
    if buy_time:
        assert [f.get("set_aside", False) for f in flips] == [True, True, True, False]
        assert aside(state) == ["5S", "KH", "QH"]
        assert [c.to_json() for c in state.deck.discard_pile] == ["JH"]
        assert state.view(TEAM).data["deck"]["set_aside"] == 3
    else:
        assert all("set_aside" not in f for f in flips)
        assert aside(state) == []
        assert len(state.deck.discard_pile) == 4


@pytest.mark.parametrize(("task", "d"), [("none", 3), ("assassination", 4), ("rescue", 3)])
def test_the_set_aside_count_is_d_at_the_start_with_task_bonuses(task: str, d: int) -> None:
    # ZD-B6: D is the Spook's D in force at the start of the mission, task bonuses
    # included (Assassination: +1 D; Rescue's bonus is to A).
    state = new_game(1, buy_time=True, task=task, red_force="grunt=2,boss=1")
    assert state.stats("H1").d == d
    assert state.aside_target == d
    assert of_kind(state.events, "buying_time")[0]["cards"] == d


def test_a_played_card_is_never_set_aside(monkeypatch: pytest.MonkeyPatch) -> None:
    # ZD-B6: a card played from a Spook's hand is not a Control Deck flip and is never
    # set aside. Surgery: a hand while buying time (in solo play the Spook that buys
    # time has none; a Versus opponent's Spook could).
    state = spook_game([hero("H1", "A7")], "QH", "KH", hand=("JS",), buy_time=True)
    act(state, "activate", "H1")
    act(state, "stop")
    act(state, "pass")
    assert state.phase == "red"
    act(state, "play", "JS")
    assert aside(state) == [] and [c.to_json() for c in state.deck.discard_pile] == ["JS"]
    assert state.flips == 0
    # ZD-B6 does not apply to the flips: the next one is set aside.
    events = turn_of(state)
    assert of_kind(events, "flip") == [{"card": "QH", "left": len(state.deck), "set_aside": True}]
    assert aside(state) == ["QH"]


@pytest.mark.parametrize("buy_time", [True, False])
def test_the_set_aside_cards_are_a_second_deck(buy_time: bool) -> None:
    # ZD-B3: when the last card is flipped, the set-aside cards, shuffled, are the new
    # Control Deck; play goes on until they are used up, then the mission ends. Without
    # buying time the mission ends with the first deck. A five-card deck.
    state = spook_game(
        [hero("H1", "A7")], "QS", "QH", "QD", "QC", "KS", fill=False, buy_time=buy_time
    )
    for _ in range(4):
        turn_of(state)
    events = turn_of(state)
    if not buy_time:
        assert state.is_over and report(state)["flips"] == 5
        assert of_kind(events, "second_deck") == []
        return
    assert not state.is_over
    assert of_kind(events, "second_deck") == [{"cards": 3, "rule": "ZD-B3"}]
    assert sorted(c.to_json() for c in state.deck.draw_pile) == ["QD", "QH", "QS"]
    assert state.second_deck and aside(state) == []
    flips = []
    for _ in range(3):
        flips += of_kind(turn_of(state), "flip")
    assert all("set_aside" not in f for f in flips)  # the second deck is discarded
    assert sorted(f["card"] for f in flips) == ["QD", "QH", "QS"]
    assert report(state)["flips"] == 8


def versus(first: tuple[str, str], second: tuple[str, str], seed: int = 1) -> ZeroDarkState:
    """A Versus mission (two heroes a team, each team's first hero its Spook) after both
    teams recorded (task, "buy" or "hand")."""
    config = {"map": "zd-open", "mode": "versus", "heroes": 2, "red_force": "grunt=3,boss=1"}
    state = new_game(seed, **config)
    assert state.phase == "prepare" and state.to_act() == frozenset({"team1", "team2"})
    state.apply(Action("team1", "prepare", first))
    state.apply(Action("team2", "prepare", second))
    return state


@pytest.mark.parametrize(
    ("first", "second", "aside_cards", "hands"),
    [
        (("none", "buy"), ("none", "buy"), 6, (0, 0)),  # ZD-B4: the sum of both D
        (("assassination", "buy"), ("none", "buy"), 7, (0, 0)),  # D 4 + D 3 (ZD-B6)
        (("none", "buy"), ("none", "hand"), 3, (0, 3)),  # ZD-B5: that Spook's D
        (("none", "hand"), ("assassination", "buy"), 4, (3, 0)),
        (("none", "hand"), ("none", "hand"), 0, (3, 3)),
    ],
)
def test_versus_set_aside_count(
    first: tuple[str, str], second: tuple[str, str], aside_cards: int, hands: tuple[int, int]
) -> None:
    # ZD-B4: both Versus Spooks buying time set aside the sum of their D; ZD-B5: only
    # one buying time, that Spook's D; the other draws its hand (ZD-C7).
    state = versus(first, second)
    assert state.aside_target == aside_cards
    assert (len(state.sides["team1"].hand), len(state.sides["team2"].hand)) == hands
    assert len(state.deck) == 54 - sum(hands)


def test_versus_buying_time_is_secret_until_both_have_recorded() -> None:
    # ZD-B4: each player records its choice in secret; ZD-B5: the choices are revealed
    # together at the start of the mission.
    state = new_game(1, map="zd-open", mode="versus", heroes=2, red_force="grunt=3,boss=1")
    state.apply(Action("team1", "prepare", ("none", "buy")))
    other = state.view("team2")
    assert other.data["sides"]["team1"]["buying_time"] is None
    assert "prepared" not in other.canonical() and "buying_time_choices" not in other.canonical()
    assert state.to_act() == frozenset({"team2"})
    state.apply(Action("team2", "prepare", ("none", "hand")))
    (choices,) = [e for e in state.events if e.kind == "buying_time_choices"]
    assert choices.visible_to("team1") and choices.visible_to("team2") and choices.visible_to(None)
    assert choices.data == {"choices": {"team1": True, "team2": False}, "rule": "ZD-B5"}
    assert state.view("team2").data["sides"]["team1"]["buying_time"] is True


def play_out(state: ZeroDarkState, play: int = 0) -> tuple[int, int]:
    """Activate H1 doing nothing until the mission ends, playing the first ``play``
    cards of the hand instead of flips; returns (flips, cards played)."""
    played = 0
    while not state.is_over:
        phase = state.phase
        if phase == "choose":
            act(state, "activate", "H1")
        elif phase == "move":
            act(state, "stop")
        elif phase == "tested":
            act(state, "pass")
        elif played < play:
            act(state, "play", state.hand[0].to_json())
            played += 1
        else:
            act(state, "flip")
    return state.flips, played


@pytest.mark.parametrize(("buy_time", "play"), [(False, 0), (False, 3), (True, 0)])
def test_control_deck_length_with_and_without_buying_time(
    monkeypatch: pytest.MonkeyPatch, buy_time: bool, play: int
) -> None:
    # ZD-B1, ZD-B3 (ZD-C6, ZD-C7): the flips until the mission ends are 54 - the hand
    # (3) without buying time, whether or not the hand is played (played cards are not
    # flips), and 54 + D (3) with buying time. A lone hero on the arena: every flip is
    # quiet (the sealed ping cannot move). No test is ever rolled.
    state = spook_game([hero("H1", "A7")], buy_time=buy_time)
    real = new_game(9, buy_time=buy_time)
    state.deck, state.hand = real.deck, real.hand  # surgery: a real deck and hand
    assert (len(state.deck), len(state.hand)) == ((54, 0) if buy_time else (51, 3))
    Dice(monkeypatch, state)
    flips, played = play_out(state, play)
    assert played == play
    assert flips == (54 + 3 if buy_time else 54 - 3)
    assert report(state)["flips"] == flips and report(state)["cards_left"] == 0
    assert len(of_kind(state.events, "second_deck")) == (1 if buy_time else 0)


# ======================================================================= ZD-T1 tasks


@pytest.mark.parametrize(
    ("task", "stat", "upgrades"),
    [
        ("none", None, []),
        ("rescue", "a", []),
        ("assassination", "d", []),
        ("acquisition", "m", []),
        ("observation", None, ["dotlight"]),
    ],
)
def test_a_task_comes_with_its_equipment(task: str, stat: str | None, upgrades: list[str]) -> None:
    # ZD-T1: one priority task per mission with its equipment (ZD-T3 +1 A, ZD-T4 +1 D,
    # ZD-T6 +1 M, ZD-T5 the Dotlight); none: no bonus. Only the Spook gets it.
    state = new_game(4, heroes=2, task=task, red_force="grunt=3,boss=1")
    assert state.task == task
    assert of_kind(state.events, "task") == [{"spook": "H1", "task": task, "rule": "ZD-T1"}]
    for s in ("m", "f", "a", "d", "av"):
        want = getattr(SPOOK, s) + (1 if s == stat else 0)
        assert getattr(state.stats("H1"), s) == want, s
    assert state.upgrades["H1"] == upgrades
    assert state.stats("H2") == ROSTER[1][1] and state.upgrades["H2"] == []


def test_no_task_without_a_spook() -> None:
    # ZD-T1 does not apply without a Spook: no task, no bonus (the options are refused
    # together; the state still drops the task).
    state = unchecked_game(4, spook=False, heroes=2, task="rescue")
    assert state.task == "none" and state.double_agent is None
    assert of_kind(state.events, "task") == []


# ======================================================================= ZD-T2 task XP


def failed_observation(spook_xp: int, spook_lost: bool) -> ZeroDarkState:
    """An Observation mission whose task fails; one card to flip (H2 acts)."""
    models = [
        hero("H1", "A7", state="ooa" if spook_lost else "active"),
        hero("H2", "E1"),
        hero("H3", "C1"),
    ]
    state = spook_game(models, "BJ", fill=False, task="observation")
    state.upgrades["H1"] = ["dotlight"]  # surgery: the task's equipment
    state.xp.update({"H1": spook_xp, "H2": 2, "H3": 5})  # surgery: earlier missions
    if spook_lost:
        state.wounds["H1"] = 2  # surgery: the Spook is down
    turn_of(state, "H2")
    return state


def test_a_failed_task_costs_the_spook_one_xp() -> None:
    # ZD-T2: failure: -1 XP to the Spook (it has XP: the survival point).
    state = failed_observation(0, spook_lost=False)
    assert report(state)["task_success"] is False
    assert gained(state) == [
        ("survived", 1),
        ("mission success", 2),
        ("task observation failed", -1),
    ]
    assert state.xp["H1"] == 2
    assert [x for x in gained(state, "H3") if x[1] < 0] == []


def test_a_spook_with_no_xp_makes_the_team_lose_it() -> None:
    # ZD-T2: the Spook (lost: nothing gained, no earlier XP) has no XP to lose: the team
    # loses it (the hero with most XP, H3: 5 + 3).
    state = failed_observation(0, spook_lost=True)
    assert gained(state) == [] and state.xp["H1"] == 0
    assert gained(state, "H3")[-1] == ("task observation failed (team)", -1)
    assert state.xp["H3"] == 5 + 3 - 1
    assert [x for x in gained(state, "H2") if x[1] < 0] == []
    assert state.xp["H2"] == 2 + 3


def test_a_lost_spook_with_xp_loses_it_itself() -> None:
    # ZD-T2: the team loses it only if the Spook has none: a lost Spook with earlier XP
    # loses one itself.
    state = failed_observation(4, spook_lost=True)
    assert gained(state) == [("task observation failed", -1)]
    assert state.xp["H1"] == 3
    assert all(x[1] > 0 for h in ("H2", "H3") for x in gained(state, h))


# ======================================================================= ZD-T3 rescue


def test_the_double_agent_is_picked_secretly_among_allowed_pings() -> None:
    # ZD-T3: picked at setup among the pings, never a Nemesis, named or (switch)
    # Synthetic one; with the switch off a Synthetic one may be picked.
    force = "grunt=1:named,elite=1:nemesis,boss=1:synthetic,grunt=1"
    for seed in range(6):
        state = new_game(seed, task="rescue", red_force=force)
        agent = state.double_agent
        assert agent is not None and agent.startswith("P")
        assert state.ping_flags[agent] == frozenset() and state.ping_types[agent] == "grunt"
        assert "double_agent" not in state.view(TEAM).canonical()
    picked = set()
    for seed in range(16):
        state = new_game(seed, task="rescue", red_force=force, rescue_excludes_synthetic=False)
        assert state.double_agent is not None
        picked.add(state.ping_flags[state.double_agent])
    assert picked == {frozenset(), frozenset({"synthetic"})}


def test_rescue_needs_a_ping_that_may_be_a_double_agent() -> None:
    # ZD-T3: if no ping qualifies the task cannot be chosen.
    with pytest.raises(RulesError, match="ZD-T3"):
        new_game(0, task="rescue", red_force="grunt=1:named,boss=1:synthetic")
    # ZD-T3 does not refuse it when the switch lets a Synthetic one be picked.
    state = new_game(
        0,
        task="rescue",
        red_force="grunt=1:named,boss=1:synthetic",
        rescue_excludes_synthetic=False,
    )
    assert state.double_agent is not None


def test_the_team_learns_the_double_agent_when_it_is_turned_over() -> None:
    # ZD-T3: the double agent is the umpire's secret until its ping is turned over; then
    # the Spook's player (the team) learns which bogey it is, a spectator does not.
    b = board(".....\n.X...\n.....\n.....", markers={"deployment": "E4"})
    state = spook_game([hero("H1", "A1", facing="SE"), ping("P1", "C3")], b=b, task="rescue")
    assert state.double_agent == "P1"  # the setup's pick, kept by the surgery
    assert state.view(TEAM).data["task_bogeys"] == {}
    act(state, "activate", "H1")
    events = act(state, "step", "B1")
    (secret,) = [e for e in events if e.kind == "double_agent"]
    assert secret.data == {"bogey": "B1", "rule": "ZD-T3"}
    assert secret.visible_to(TEAM) and not secret.visible_to(None)
    assert state.double_agent == "B1"
    assert state.view(TEAM).data["task_bogeys"] == {"double_agent": "B1"}
    assert "task_bogeys" not in state.view(None).data
    assert "double_agent" not in state.view(None).canonical()
    assert of_kind(events, "ping_revealed")[0]["flags"] == []


def rescue(
    monkeypatch: pytest.MonkeyPatch,
    models: list[Model],
    *cards: str,
    b: Board | None = None,
    persuader: str = "H1",
    script: tuple[int, int] = (2, 0),
) -> tuple[ZeroDarkState, list[Any]]:
    """A Rescue mission: ``persuader`` steps from its square one square east, engaging
    the double agent B1, and persuades it (dice scripted: ``script``)."""
    state = spook_game(models, *cards, b=b, fill=False, task="rescue")
    state.double_agent = "B1"  # surgery: B1 is the double agent (turned over)
    Dice(monkeypatch, state, (persuader, script[0]), ("B1", script[1]))
    start = state.position.model(persuader).square
    act(state, "activate", persuader)
    act(state, "step", Square(start.row, start.col + 1).name)
    events = act(state, "stop")
    assert state.phase == "cqb"
    events += act(state, "persuade")
    return state, events


def test_rescue_succeeds_with_the_ally_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    # ZD-T3: the Spook persuades the double agent (dice scripted: 2 to 0) and it ends
    # the mission within 4 of the Spook: +5 and +2 XP (ZD-T2, ZD-T7: at the end).
    state, events = rescue(monkeypatch, [hero("H1", "A4"), bogey("B1", "C4")], "BJ")
    assert of_kind(events, "persuaded")[0]["ally"] == "A1"
    assert state.xp["H1"] == 0  # ZD-T7: settled at the end only
    act(state, "pass")
    assert report(state)["task_success"] is True
    assert gained(state) == [
        ("survived", 1),
        ("mission success", 2),
        ("task rescue", 5),
        ("rescue: the ally kept", 2),
    ]


def test_rescue_succeeds_without_the_extra_when_the_ally_is_far(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # ZD-T3: persuaded, but at the end 5 squares from the Spook: +5, not the +2. The
    # Spook persuades B1 from B2 (dice scripted), the ally walks 3 squares east (range
    # 4), the Spook one west (range 5); the third card ends the mission.
    wide = board(WIDE, markers={"deployment": "L1"})
    state, _ = rescue(monkeypatch, [hero("H1", "A2"), bogey("B1", "C2")], "JS", "QS", "KS", b=wide)
    act(state, "pass")
    assert state.position.model("A1").square == sq("C2")
    act(state, "activate", "A1")
    for to in ("D2", "E2", "F2"):
        act(state, "step", to)
    act(state, "stop")
    act(state, "pass")
    assert state.position.range("A1", "H1") == 4
    act(state, "activate", "H1")
    act(state, "step", "A2")
    act(state, "stop")
    act(state, "pass")
    assert state.position.range("A1", "H1") == 5
    assert report(state)["task_success"] is True
    assert gained(state)[-1] == ("task rescue", 5)
    assert ("rescue: the ally kept", 2) not in gained(state)


def test_rescue_fails_when_the_double_agent_is_not_persuaded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # ZD-T3 does not apply: as many successes as the bogey (1 to 1) do not persuade;
    # the task fails: -1 XP (ZD-T2).
    state, events = rescue(monkeypatch, [hero("H1", "A4"), bogey("B1", "C4")], "BJ", script=(1, 1))
    assert of_kind(events, "persuaded") == []
    act(state, "pass")
    assert report(state)["task_success"] is False
    assert gained(state)[-1] == ("task rescue failed", -1)


def test_rescue_needs_the_spook_to_persuade(monkeypatch: pytest.MonkeyPatch) -> None:
    # ZD-T3 does not apply: another hero persuades the double agent; the Spook must.
    models = [hero("H1", "A7"), hero("H2", "A4"), bogey("B1", "C4")]
    state, events = rescue(monkeypatch, models, "BJ", persuader="H2")
    assert of_kind(events, "persuaded")[0]["hero"] == "H2"
    act(state, "pass")
    assert report(state)["task_success"] is False


def test_rescue_ally_leaving_by_the_exit_keeps_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    # ZD-T3: the persuaded bogey left the table without entering the dead state: +2.
    state, _ = rescue(
        monkeypatch, [hero("H1", "A4"), bogey("B1", "C4")], "BJ", "RJ", b=arena(exit="C4")
    )
    act(state, "pass")
    act(state, "activate", "A1")
    assert ("exit", ()) in legal(state)
    act(state, "exit")
    assert report(state)["exited"] == ["A1"]
    assert gained(state)[-2:] == [("task rescue", 5), ("rescue: the ally kept", 2)]


# ======================================================================= ZD-T4 assassination


def assassination(models: list[Model], *cards: str, down: bool = True) -> ZeroDarkState:
    """An Assassination mission; surgery: B1 (a Boss) is the Boss to assassinate, down
    (3 wounds) unless told, with no support tokens."""
    state = spook_game(models, *cards, fill=False, task="assassination", red_force="boss=1")
    state.boss_target = "B1"
    state.wounds["B1"] = 3 if down else 2
    return state


@pytest.mark.parametrize("target", [True, False])
def test_the_boss_to_assassinate_is_only_down(
    monkeypatch: pytest.MonkeyPatch, target: bool
) -> None:
    # ZD-T4: when the Boss to assassinate would enter the dead state it is only down
    # (the shot's first hit puts it down, the next two would kill it); another Boss
    # hit when down is dead (ZD-C3). Dice scripted: 3 hits.
    state = assassination([hero("H1", "A7"), bogey("B1", "A4", tier="boss")], "BJ", down=False)
    if not target:
        state.boss_target = None  # surgery: not the task's Boss
    Dice(monkeypatch, state, ("H1", 3))
    act(state, "activate", "H1")
    act(state, "stop")
    events = act(state, "shoot", "B1")
    if target:
        assert state.position.model("B1").state == "down"
        assert of_kind(events, "only_down") == [{"model": "B1", "rule": "ZD-T4"}] * 2
        assert of_kind(events, "dead") == []
    else:
        assert "B1" not in state.position.models
        assert of_kind(events, "only_down") == []


def test_the_spook_verifies_the_down_boss(monkeypatch: pytest.MonkeyPatch) -> None:
    # ZD-T4: the Spook engaged with the down Boss spends its automatic action to put it
    # into the dead state: the task succeeds (+5 at the end).
    state = assassination([hero("H1", "A5"), bogey("B1", "A4", tier="boss", state="down")], "BJ")
    act(state, "activate", "H1")
    assert ("verify", ("B1",)) in legal(state)
    events = act(state, "verify", "B1")
    assert of_kind(events, "verified") == [{"model": "H1", "boss": "B1", "rule": "ZD-T4"}]
    assert "B1" not in state.position.models and state.verified
    assert state.phase == "tested"
    act(state, "pass")
    assert report(state)["task_success"] is True
    assert gained(state)[-1] == ("task assassination", 5)


def test_the_spook_verifies_with_a_bonus_action(monkeypatch: pytest.MonkeyPatch) -> None:
    # ZD-T4: a bonus action may verify too (dice scripted: the cautious move scores 2).
    state = assassination([hero("H1", "A5"), bogey("B1", "A4", tier="boss", state="down")], "BJ")
    Dice(monkeypatch, state, ("H1", 2))
    act(state, "activate", "H1")
    act(state, "face", "SE")
    act(state, "cautious")
    assert state.phase == "bonus" and ("verify", ("B1",)) in legal(state)
    act(state, "verify", "B1")
    assert report(state)["task_success"] is True


@pytest.mark.parametrize("why", ["not the spook", "not engaged", "not down"])
def test_no_verify_otherwise(why: str) -> None:
    # ZD-T4 does not apply: another hero engaged with the down Boss, the Spook two
    # squares off, or the Boss not down: no verify; the task fails at the end.
    spook_square, other = (
        ("A7", "A5") if why == "not the spook" else ("A6" if why == "not engaged" else "A5", "E1")
    )
    boss = bogey("B1", "A4", tier="boss", state="active" if why == "not down" else "down")
    state = assassination(
        [hero("H1", spook_square), hero("H2", other), boss], "BJ", down=why != "not down"
    )
    who = "H2" if why == "not the spook" else "H1"
    act(state, "activate", who)
    assert "verify" not in kinds(state)
    assert illegal_rule(state, "verify", "B1") == "ZD-T4"
    act(state, "stop")
    act(state, "pass")
    assert report(state)["task_success"] is False
    assert gained(state)[-1] == ("task assassination failed", -1)


def test_the_boss_to_assassinate_is_a_boss_ping_picked_at_setup() -> None:
    # ZD-T4: among the "3" pings, secretly; a mission with no Boss cannot have the task.
    for seed in range(4):
        state = new_game(seed, task="assassination", red_force="grunt=3,boss=2")
        target = state.boss_target
        assert target is not None and state.ping_types[target] == "boss"
        assert state.view(TEAM).data["task_bogeys"] == {}
    with pytest.raises(RulesError, match="ZD-T4"):
        new_game(0, task="assassination", red_force="grunt=3,elite=1")


# ======================================================================= ZD-T5 observation


def observation(n_bogeys: int = 5) -> ZeroDarkState:
    """The Spook (H1, dotlight) and H2 on A7/B7, Grunts B1… on row 1; quiet cards."""
    models = [hero("H1", "A7"), hero("H2", "B7")]
    models += [bogey(f"B{i + 1}", f"{'ABCDE'[i]}1") for i in range(n_bogeys)]
    state = spook_game(models, *QUIET[:10], fill=False, task="observation")
    state.upgrades["H1"] = ["dotlight"]  # surgery: the task's equipment
    return state


def dotlight_turn(state: ZeroDarkState, who: str, target: str | None) -> None:
    act(state, "activate", who)
    act(state, "stop")
    if target is None:
        act(state, "pass")
    else:
        act(state, "dotlight", target)
    if state.phase == "bonus":
        act(state, "done")


@pytest.mark.parametrize(
    ("plan", "success"),
    [
        (["B1", "B2", "B3", "B4", "B5"], True),
        (["B1", "B2", "B3", "B4", "B1"], False),  # each bogey counts once
        (["B1", "B2", "B3", "B4", None], False),
    ],
)
def test_observation_needs_five_bogeys_targeted_by_the_spook(
    monkeypatch: pytest.MonkeyPatch, plan: list[str | None], success: bool
) -> None:
    # ZD-T5: the Spook must put at least five members of the Red Force into the
    # targeted state, each counted once. Dice scripted: each dotlight shot scores 1.
    state = observation()
    Dice(monkeypatch, state, default=1)
    for target in plan:
        dotlight_turn(state, "H1", target)
        dotlight_turn(state, "H2", None)
    assert state.is_over
    assert report(state)["task_success"] is success
    assert gained(state)[-1] == (
        ("task observation", 5) if success else ("task observation failed", -1)
    )


def test_observation_counts_only_the_spooks_targetings(monkeypatch: pytest.MonkeyPatch) -> None:
    # ZD-T5: another hero's dotlight targets (ZD-L2) but does not count for the task.
    state = observation()
    state.upgrades["H2"] = ["dotlight"]  # surgery: H2 has a dotlight too
    Dice(monkeypatch, state, default=1)
    for i, target in enumerate(["B1", "B2", "B3", "B4", None]):
        dotlight_turn(state, "H1", target)
        dotlight_turn(state, "H2", "B5" if i == 0 else None)
    assert "B5" in state.targeted and state.observed == {"B1", "B2", "B3", "B4"}
    assert report(state)["task_success"] is False


# ======================================================================= ZD-T6 acquisition


def acquisition(models: list[Model], *cards: str) -> ZeroDarkState:
    state = spook_game(models, *cards, fill=False, task="acquisition")
    state.deployment_marker = sq("C4")  # surgery: the dead-drop
    return state


def test_the_dead_drop_is_the_deployment_marker_at_the_start() -> None:
    # ZD-T6: the Red Force's deployment marker at the start of the mission.
    state = new_game(0, task="acquisition")
    assert state.deployment_marker == state.board.marker("deployment")[0]


@pytest.mark.parametrize("successes", [1, 0])
def test_acquisition_is_an_a16_interact_by_the_spook(
    monkeypatch: pytest.MonkeyPatch, successes: int
) -> None:
    # ZD-T6 (ZD-C10): the Spook engaged with the dead-drop interacts, A(16); a success
    # acquires the intelligence, secured if the Spook is not lost at the end: +5 (ZD-T7:
    # settled at the end). A failure: the task fails. Dice scripted.
    state = acquisition([hero("H1", "B4")], "BJ", "RJ")
    dice = Dice(monkeypatch, state, ("H1", successes))
    act(state, "activate", "H1")
    act(state, "stop")
    assert ("interact", ()) in legal(state)
    events = act(state, "interact")
    assert dice.calls == [Roll("H1", "interact dead-drop", HERO.a, 16)]
    assert state.acquired is bool(successes)
    assert len(of_kind(events, "acquired")) == successes
    assert state.xp["H1"] == 0  # ZD-T7: nothing yet
    turn_of(state)
    assert report(state)["task_success"] is bool(successes)
    assert gained(state)[-1] == (
        ("task acquisition", 5) if successes else ("task acquisition failed", -1)
    )


def test_the_intelligence_is_lost_with_the_spook() -> None:
    # ZD-T6 does not apply: acquired, but the Spook is lost at the end (surgery).
    state = acquisition([hero("H1", "B4", state="ooa"), hero("H2", "E1")], "BJ")
    state.acquired = True  # surgery
    state.wounds["H1"] = 2  # surgery: down
    turn_of(state, "H2")
    assert report(state)["lost"] == ["H1"]
    assert report(state)["task_success"] is False


def test_only_the_spook_works_the_dead_drop() -> None:
    # ZD-T6 does not apply to another hero engaged with the dead-drop, nor to the Spook
    # two squares off.
    state = acquisition([hero("H1", "A4"), hero("H2", "C5")], "BJ", "RJ")
    for who in ("H2", "H1"):
        act(state, "activate", who)
        act(state, "stop")
        assert "interact" not in kinds(state)
        act(state, "pass")


# ======================================================================= ZD-P persuasion


def cqb_game(
    models: list[Model], *cards: str, flags: frozenset[str] = frozenset(), **config: Any
) -> ZeroDarkState:
    """H1 on A7 steps to A6, engaging B1 on A5 (B1's flags by surgery)."""
    state = spook_game(models, *cards, **config)
    state.flags["B1"] = flags
    return state


def engage(state: ZeroDarkState) -> list[Any]:
    act(state, "activate", "H1")
    act(state, "step", "A6")
    return act(state, "stop")


@pytest.mark.parametrize(
    ("tier", "flags", "config", "susceptible"),
    [
        ("grunt", frozenset(), {"susceptible": "grunt"}, True),
        ("elite", frozenset(), {"susceptible": "grunt,elite"}, True),
        ("elite", frozenset(), {"susceptible": "grunt"}, False),
        ("grunt", frozenset({"susceptible"}), {}, True),
        ("grunt", frozenset(), {}, False),
        ("boss", frozenset({"named"}), {}, False),
    ],
)
def test_only_susceptible_bogeys_may_be_persuaded(
    monkeypatch: pytest.MonkeyPatch,
    tier: str,
    flags: frozenset[str],
    config: dict[str, str],
    susceptible: bool,
) -> None:
    # ZD-P0: a bogey is susceptible when the mission's data says so (its tier, its
    # flag); then the team chooses fight or persuade; others fight at once. Dice
    # scripted.
    state = cqb_game([hero("H1", "A7"), bogey("B1", "A5", tier=tier)], flags=flags, **config)
    dice = Dice(monkeypatch, state, 0, 0)
    events = engage(state)
    if susceptible:
        assert state.phase == "cqb" and dice.calls == []
        assert legal(state) == [("fight", ()), ("persuade", ())]
        assert of_kind(events, "cqb_choice") == [{"model": "H1", "bogey": "B1", "rule": "ZD-P1"}]
    else:
        assert state.phase == "tested" and len(dice.calls) == 2
        assert of_kind(events, "cqb_choice") == []
    # The susceptible flag is never shown (it is the mission's, or the double agent's).
    (b1,) = [m for m in state.view(TEAM).data["models"] if m["id"] == "B1"]
    assert "susceptible" not in b1["flags"]


@pytest.mark.parametrize(("tier", "tn"), [("grunt", 5), ("elite", 6), ("boss", 7)])
def test_persuading_rolls_a_instead_of_d(
    monkeypatch: pytest.MonkeyPatch, tier: str, tn: int
) -> None:
    # ZD-P1: in the CQB the hero rolls its A (4) instead of its D (3) at the tier's TN;
    # the bogey rolls as ever. More successes than the bogey: persuaded, an Ally of that
    # hero on its square. Dice scripted: 2 to 1.
    state = cqb_game([hero("H1", "A7"), bogey("B1", "A5", tier=tier)], susceptible=tier)
    state.support["B1"] = BOGEYS[tier].support  # surgery
    dice = Dice(monkeypatch, state, ("H1", 2), ("B1", 1))
    engage(state)
    events = act(state, "persuade")
    stats = BOGEYS[tier]
    assert dice.calls == [
        Roll("H1", "persuade", HERO.a, tn),
        Roll("B1", "cqb", stats.att + stats.support, 6),
    ]
    assert of_kind(events, "persuaded") == [
        {"bogey": "B1", "by": "H1", "ally": "A1", "hero": "H1", "rule": "ZD-P1"}
    ]
    assert "B1" not in state.position.models
    a1 = state.position.model("A1")
    assert (a1.kind, a1.square) == ("ally", sq("A5"))
    assert state.ally_of == {"A1": "H1"}
    assert state.wounds["H1"] == 1  # ZD-P2: the bogey's success still wounds
    assert state.phase == "tested"


@pytest.mark.parametrize(("ours", "theirs"), [(1, 1), (0, 2), (1, 0)])
def test_persuasion_needs_more_successes_and_never_wounds(
    monkeypatch: pytest.MonkeyPatch, ours: int, theirs: int
) -> None:
    # ZD-P1: as many successes as the bogey, or fewer, do not persuade; ZD-P2: the
    # hero's A test never wounds the bogey (an elite, Wnd 2), the bogey's successes
    # wound the hero. Dice scripted.
    state = cqb_game(
        [hero("H1", "A7"), hero("H2", "E1"), bogey("B1", "A5", tier="elite")], susceptible="elite"
    )
    Dice(monkeypatch, state, ("H1", ours), ("B1", theirs))
    engage(state)
    events = act(state, "persuade")
    persuaded = ours > theirs
    assert bool(of_kind(events, "persuaded")) is persuaded
    assert ("B1" in state.position.models) is not persuaded
    assert state.wounds.get("B1", 0) == 0
    assert of_kind(events, "wounded") == ([{"model": "H1", "wounds": theirs}] if theirs else [])


def test_the_persuasion_odds_are_the_cqb_the_rules_play(monkeypatch: pytest.MonkeyPatch) -> None:
    # ZD-P1 odds (`fogofwar odds zero-dark persuade`): the rules' own CQB rolls the
    # dice and TNs the odds name, and persuades exactly where the odds count a success;
    # every pair of successes played, weighed by each test's exact distribution, gives
    # the odds' chance.
    from fractions import Fraction

    from fogofwar.games.zero_dark.grouping import distribution
    from fogofwar.games.zero_dark.odds import persuade_json

    data = persuade_json(HERO.a, "elite", 1)
    ours = distribution(data["hero_dice"], data["hero_tn"])
    theirs = distribution(data["bogey_dice"], data["bogey_tn"])
    played = Fraction(0)
    for i, p in ours.items():
        for j, q in theirs.items():
            state = cqb_game(
                [hero("H1", "A7"), hero("H2", "E1"), bogey("B1", "A5", tier="elite")],
                susceptible="elite",
            )
            state.support["B1"] = 1  # surgery: one token of two left
            dice = Dice(monkeypatch, state, ("H1", i), ("B1", j))
            engage(state)
            events = act(state, "persuade")
            assert dice.calls == [
                Roll("H1", "persuade", data["hero_dice"], data["hero_tn"]),
                Roll("B1", "cqb", data["bogey_dice"], data["bogey_tn"]),
            ]
            if of_kind(events, "persuaded"):
                played += p * q
    assert played == Fraction(data["persuaded"]) and 0 < played < 1


def test_fighting_a_susceptible_bogey_wounds_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # ZD-P2 does not apply to a fight: D dice, and the hero's successes wound.
    state = cqb_game([hero("H1", "A7"), bogey("B1", "A5", tier="elite")], susceptible="elite")
    dice = Dice(monkeypatch, state, ("H1", 1), ("B1", 0))
    engage(state)
    act(state, "fight")
    assert dice.calls[0] == Roll("H1", "cqb", HERO.d, 6)
    assert state.wounds["B1"] == 1 and state.ally_of == {}


@pytest.mark.parametrize(("h2", "h3", "owner"), [("B3", "G3", "H2"), ("G3", "B4", "H3")])
def test_persuaded_by_a_hero_it_kills_it_joins_the_nearest_living_hero(
    monkeypatch: pytest.MonkeyPatch, h2: str, h3: str, owner: str
) -> None:
    # ZD-P3: the hero killed by this CQB but with more successes: the bogey is
    # persuaded and attaches to the nearest hero not dead (by range from it). Dice
    # scripted: 3 to 2, the hero had 1 wound (surgery).
    models = [hero("H1", "D5"), hero("H2", h2), hero("H3", h3), bogey("B1", "D3")]
    state = spook_game(models, susceptible="grunt")
    state.wounds["H1"] = 1
    Dice(monkeypatch, state, ("H1", 3), ("B1", 2))
    act(state, "activate", "H1")
    act(state, "step", "D4")
    act(state, "stop")
    events = act(state, "persuade")
    assert "H1" in state.dead
    (done,) = of_kind(events, "persuaded")
    assert (done["ally"], done["hero"], done["by"]) == ("A1", owner, "H1")
    assert state.ally_of == {"A1": owner}


def test_persuaded_by_a_hero_only_down_it_stays_that_heros(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # ZD-P3 does not apply: the hero is down, not dead: the ally is its own.
    models = [hero("H1", "D5"), hero("H2", "B3"), bogey("B1", "D3")]
    state = spook_game(models, susceptible="grunt")
    Dice(monkeypatch, state, ("H1", 3), ("B1", 2))
    act(state, "activate", "H1")
    act(state, "step", "D4")
    act(state, "stop")
    events = act(state, "persuade")
    assert state.position.model("H1").state == "ooa" and "H1" not in state.dead
    assert of_kind(events, "persuaded")[0]["hero"] == "H1"


def test_persuaded_owner_ties_go_by_the_seeded_rng(monkeypatch: pytest.MonkeyPatch) -> None:
    # ZD-P3: two living heroes at the same range from the persuaded bogey: the seeded
    # RNG picks, the same for a seed, not always the same over seeds.
    def owner(seed: int) -> str:
        models = [hero("H1", "D5"), hero("H2", "A3"), hero("H3", "G3"), bogey("B1", "D3")]
        state = spook_game(models, susceptible="grunt", seed=seed)
        state.wounds["H1"] = 1  # surgery
        Dice(monkeypatch, state, ("H1", 3), ("B1", 2))
        act(state, "activate", "H1")
        act(state, "step", "D4")
        act(state, "stop")
        act(state, "persuade")
        return state.ally_of["A1"]

    owners = [owner(seed) for seed in range(8)]
    assert owners == [owner(seed) for seed in range(8)]
    assert set(owners) == {"H2", "H3"}


def test_persuaded_with_no_living_hero_it_leaves_play(monkeypatch: pytest.MonkeyPatch) -> None:
    # ZD-P3: with no hero left alive the persuaded bogey leaves play.
    state = spook_game([hero("H1", "D5"), bogey("B1", "D3")], susceptible="grunt")
    state.wounds["H1"] = 1  # surgery
    Dice(monkeypatch, state, ("H1", 3), ("B1", 2))
    act(state, "activate", "H1")
    act(state, "step", "D4")
    act(state, "stop")
    events = act(state, "persuade")
    assert of_kind(events, "persuaded") == [
        {"bogey": "B1", "by": "H1", "ally": None, "rule": "ZD-P3"}
    ]
    assert [m.id for m in state.position.models.values() if m.kind in ("ally", "bogey")] == []
    assert state.is_over


@pytest.mark.parametrize(
    ("config", "double_agent"),
    [({"susceptible": "grunt"}, False), ({}, True), ({"task": "rescue"}, True)],
)
def test_synthetic_bogeys_cannot_be_persuaded(
    monkeypatch: pytest.MonkeyPatch, config: dict[str, str], double_agent: bool
) -> None:
    # ZD-P4: a Synthetic bogey is never susceptible, whatever its tier, its flags or
    # the double agent's pick say: the CQB is fought at once. Dice scripted.
    state = cqb_game(
        [hero("H1", "A7"), bogey("B1", "A5")],
        flags=frozenset({"synthetic", "susceptible"}),
        **config,
    )
    if double_agent:
        state.double_agent = "B1"  # surgery
    dice = Dice(monkeypatch, state, 0, 0)
    engage(state)
    assert state.phase == "tested" and len(dice.calls) == 2
    assert "persuade" not in kinds(state)


def test_a_persuaded_ally_has_the_ally_profile_and_dependent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # ZD-P5: the ally's stat line is the stand-in core's (M3 F3 A3 D3 AV0), with the
    # Dependent upgrade (ZD-D1, at no cost); ZD-D0: it fills one of its hero's slots.
    state = cqb_game([hero("H1", "A7"), bogey("B1", "A5")], susceptible="grunt")
    Dice(monkeypatch, state, ("H1", 1), ("B1", 0))
    engage(state)
    act(state, "persuade")
    assert state.stats("A1") == ALLY
    assert (ALLY.m, ALLY.f, ALLY.a, ALLY.d, ALLY.av) == (3, 3, 3, 3, 0)
    assert state.upgrades["A1"] == ["dependent"]
    assert state.upgrades["H1"] == ["ally A1"]
    (a1,) = [m for m in state.view(TEAM).data["models"] if m["id"] == "A1"]
    assert a1["profile"] == {"m": 3, "f": 3, "a": 3, "d": 3, "av": 0}
    assert (a1["kind"], a1["hero"], a1["upgrades"]) == ("ally", "H1", ["dependent"])


def test_a_persuaded_ally_takes_the_missions_stat_line(monkeypatch: pytest.MonkeyPatch) -> None:
    # ZD-P5: the ally stat line is "overridable per mission": the ``ally`` option (a
    # mission's ``ally:`` key) gives the persuaded ally its profile, Cyl included.
    line = "M5 F4 A2 D6 AV2 Cyl4"
    state = cqb_game([hero("H1", "A7"), bogey("B1", "A5")], susceptible="grunt", ally=line)
    Dice(monkeypatch, state, ("H1", 1), ("B1", 0))
    engage(state)
    act(state, "persuade")
    assert state.stats("A1") == HeroStats(m=5, f=4, a=2, d=6, av=2, cyl=4)
    assert state.position.model("A1").cyl == 4
    (a1,) = [m for m in state.view(TEAM).data["models"] if m["id"] == "A1"]
    assert a1["profile"] == {"m": 5, "f": 4, "a": 2, "d": 6, "av": 2}
    # ZD-P5 with no override: the stand-in core's line.
    assert RS.resolve_config({})["ally"] == "M3 F3 A3 D3 AV0"


@pytest.mark.parametrize("line", ["M3 F3 A3 D3", "M3 F3 A3 D3 AV9", "M0 F3 A3 D3 AV0", "X3"])
def test_a_bad_ally_stat_line_is_one_rules_error(line: str) -> None:
    # ZD-P5: the override is checked: M, F, A, D 1-12, AV 0-8, each once.
    with pytest.raises(RulesError, match=r"^ally: expected a stat line .*ZD-P5"):
        RS.new_game({"map": "zd-open", "ally": line}, 0)


def test_a_persuaded_ally_turns_over_the_pings_it_sees(monkeypatch: pytest.MonkeyPatch) -> None:
    # FR-P3 (R): the reveal check runs "after every placement": the ally placed where
    # the persuaded bogey stood (facing as it faced, south-west) sees the ping on C6,
    # which the hero, facing north-east, does not: it is turned over at once. Dice
    # scripted: 2 to 0.
    b = board("\n".join(["......."] * 7), markers={"deployment": "G7"})
    models = [hero("H1", "A2", facing="NE"), bogey("B1", "C2", facing="SW"), ping("P1", "C6")]
    state = spook_game(models, b=b, susceptible="grunt")
    Dice(monkeypatch, state, ("H1", 2), ("B1", 0))
    act(state, "activate", "H1")
    act(state, "step", "B2")
    act(state, "stop")
    assert "P1" in state.position.models and not state.position.sees("H1", "P1")
    events = act(state, "persuade")
    assert [e.kind for e in events if e.kind in ("persuaded", "ping_revealed")] == [
        "persuaded",
        "ping_revealed",
    ]
    (revealed,) = of_kind(events, "ping_revealed")
    assert (revealed["ping"], revealed["by"], revealed["how"]) == ("P1", "A1", "sight")
    assert "P1" not in state.position.models


# ======================================================================= ZD-D dependent


def test_an_ally_is_activated_on_its_own_with_a_flip() -> None:
    # ZD-D0: an ally is activated on its own, like a hero (once a turn), and a Control
    # Deck flip follows its activation.
    state = spook_game([hero("H1", "A7"), ally("A1", "C7")], "BJ", "RJ", "JS")
    with_ally(state)
    assert legal(state) == [("activate", ("H1",)), ("activate", ("A1",))]
    act(state, "activate", "A1")
    assert state.stats("A1").m == 3
    for to in ("C6", "C5", "C4"):
        act(state, "step", to)
    assert "step" not in kinds(state)  # the ally's M is 3
    events = act(state, "stop") + act(state, "pass")
    assert of_kind(events, "flip")[0]["card"] == "BJ"
    assert legal(state) == [("activate", ("H1",))]
    assert illegal_rule(state, "activate", "A1") == "ZD-C9"
    assert of_kind(turn_of(state), "turn") == [{"turn": 2}]


@pytest.mark.parametrize("far", [True, False])
def test_an_ally_more_than_4_away_forces_the_next_activation(far: bool) -> None:
    # ZD-D2: an ally more than 4 from its hero after an activation: the next activation
    # must be the ally's or the hero's. At 4 it does not apply.
    models = [hero("H1", "A7"), hero("H2", "G1"), ally("A1", "F7" if far else "E7")]
    state = spook_game(models, "BJ", "RJ", "JS", b=open_arena())
    with_ally(state)
    assert state.position.range("A1", "H1") == (5 if far else 4)
    events = turn_of(state, "H2")  # the check comes after any activation
    if far:
        assert of_kind(events, "dependent") == [{"ally": "A1", "hero": "H1", "rule": "ZD-D2"}]
        assert state.reunite == ("A1", "H1")
        assert legal(state) == [("activate", ("H1",)), ("activate", ("A1",))]
    else:
        assert of_kind(events, "dependent") == [] and state.reunite is None


def test_an_ally_more_than_4_away_bars_other_heroes() -> None:
    # ZD-D2: other heroes may not act next.
    models = [hero("H1", "A7"), hero("H2", "G1"), hero("H3", "D1"), ally("A1", "F7")]
    state = spook_game(models, "BJ", "RJ", "JS", b=open_arena())
    with_ally(state)
    turn_of(state, "H2")
    assert legal(state) == [("activate", ("H1",)), ("activate", ("A1",))]
    assert illegal_rule(state, "activate", "H3") == "ZD-D2"


@pytest.mark.parametrize(
    ("who", "to", "lost"),
    [("A1", "E7", False), ("H1", "B7", False), ("A1", None, True), ("H1", None, True)],
)
def test_the_ally_that_does_not_close_is_treated_as_dead(
    who: str, to: str | None, lost: bool
) -> None:
    # ZD-D3: at the end of that activation the ally still more than 4 from its hero is
    # treated as dead (it leaves the table); one that closed (by its move or its hero's)
    # stays.
    models = [hero("H1", "A7"), hero("H2", "G1"), ally("A1", "F7")]
    state = spook_game(models, "BJ", "RJ", "JS", b=open_arena())
    with_ally(state)
    turn_of(state, "H2")
    assert state.reunite == ("A1", "H1")
    act(state, "activate", who)
    if to is not None:
        act(state, "step", to)
    events = act(state, "stop") + finish(state)
    if lost:
        assert of_kind(events, "ally_lost") == [{"ally": "A1", "hero": "H1", "rule": "ZD-D3"}]
        assert "A1" not in state.position.models and "A1" in state.dead
    else:
        assert of_kind(events, "ally_lost") == []
        assert state.position.range("A1", "H1") == 4
    assert state.reunite is None


def test_the_distance_is_checked_after_a_flip(monkeypatch: pytest.MonkeyPatch) -> None:
    # ZD-D3 (R): checked after every flip too: the Grunt a flip brings into engagement
    # with H1 (1 wound) is persuaded as it kills H1; the ally joins H2, 6 squares away:
    # the flip ends with the ally too far. Dice scripted: 3 to 2.
    models = [hero("H1", "A5"), hero("H2", "G1"), bogey("B1", "A1")]
    state = spook_game(models, "5S", susceptible="grunt")
    state.wounds["H1"] = 1  # surgery
    Dice(monkeypatch, state, ("H1", 3), ("B1", 2))
    act(state, "activate", "H2")
    act(state, "face", "SW")
    act(state, "pass")
    assert state.phase == "cqb"  # mid-flip: the Grunt engaged H1
    events = act(state, "persuade")
    assert state.ally_of == {"A1": "H2"} and dist(state, "A1", "H2") > 4
    assert of_kind(events, "dependent") == [{"ally": "A1", "hero": "H2", "rule": "ZD-D2"}]


# ======================================================================= ZD-L dotlight


def dotlight(
    monkeypatch: pytest.MonkeyPatch,
    hits: int,
    *,
    tier: str = "elite",
    targeted: bool = False,
    support: int | None = None,
) -> tuple[ZeroDarkState, list[Any], Dice]:
    """H1 (a dotlight, surgery) shoots its dotlight at B1 (range 3); dice scripted."""
    state = spook_game([hero("H1", "A7"), bogey("B1", "A4", tier=tier)])
    state.upgrades["H1"] = ["dotlight"]  # surgery
    state.support["B1"] = BOGEYS[tier].support if support is None else support
    if targeted:
        state.targeted.add("B1")
    dice = Dice(monkeypatch, state, ("H1", hits))
    act(state, "activate", "H1")
    act(state, "stop")
    return state, act(state, "dotlight", "B1"), dice


@pytest.mark.parametrize(("tier", "targeted"), [("boss", False), ("elite", True)])
def test_a_dotlight_shot_ignores_def(
    monkeypatch: pytest.MonkeyPatch, tier: str, targeted: bool
) -> None:
    # ZD-L1: TN = range (3), not range + Def; a targeted bogey still gives +1 die
    # (ZD-C3).
    _, _, dice = dotlight(monkeypatch, 0, tier=tier, targeted=targeted)
    assert dice.calls == [Roll("H1", "dotlight B1", HERO.f + (1 if targeted else 0), 3)]


def test_no_dotlight_without_the_upgrade() -> None:
    # ZD-L1 does not apply: a hero with no dotlight shoots as ever (TN with Def).
    state = spook_game([hero("H1", "A7"), bogey("B1", "A4")])
    act(state, "activate", "H1")
    act(state, "stop")
    assert "dotlight" not in kinds(state)
    assert illegal_rule(state, "dotlight", "B1") == "ZD-L1"


@pytest.mark.parametrize(
    ("hits", "targeted", "support_left", "bonus"),
    [
        (0, False, 2, 0),  # a miss
        (1, False, 2, 0),  # ZD-L2: targeted
        (2, False, 1, 0),  # ZD-L2: targeted, then one token
        (3, False, 1, 1),  # ZD-L0: one token at most; ZD-L4: one bonus action
        (4, False, 1, 2),
        (1, True, 2, 0),  # ZD-L3: one success is not enough for a token; ZD-L4: not a bonus
        (2, True, 1, 0),  # ZD-L3: two successes remove one
        (3, True, 1, 1),
    ],
)
def test_dotlight_successes(
    monkeypatch: pytest.MonkeyPatch, hits: int, targeted: bool, support_left: int, bonus: int
) -> None:
    # ZD-L0, ZD-L2, ZD-L3, ZD-L4: one success targets; then one more removes a support
    # token (two if the bogey was targeted already); at most one token a shot; the
    # successes left are bonus actions; a dotlight never wounds. Dice scripted.
    state, events, _ = dotlight(monkeypatch, hits, targeted=targeted)
    assert ("B1" in state.targeted) is (targeted or hits > 0)
    assert state.support["B1"] == support_left
    assert state.wounds.get("B1", 0) == 0 and of_kind(events, "wounded") == []
    assert bool(of_kind(events, "targeted")) is (hits > 0 and not targeted)
    assert state.bonus == bonus
    assert state.phase == ("bonus" if bonus else "choose")


def test_a_dotlight_never_wounds(monkeypatch: pytest.MonkeyPatch) -> None:
    # ZD-L0: a Grunt with no token: 3 successes target it, the rest are bonus actions;
    # no wound (a plain shot would have put it down, ZD-C3).
    state, events, _ = dotlight(monkeypatch, 3, tier="grunt", support=0)
    assert state.position.model("B1").state == "active"
    assert of_kind(events, "wounded") == [] and state.bonus == 2


# ======================================================================= non-interference


def swap_secret(state: ZeroDarkState, attr: str, kind: str) -> tuple[str, str]:
    """Surgery: point ``attr`` (double_agent / boss_target) at another ping of ``kind``
    (``any``), the one farthest from the heroes; returns (the old pick, the new one)."""
    old = getattr(state, attr)
    heroes = [h.square for h in state.heroes()]
    others = [p for p, t in state.ping_types.items() if p != old and (kind == "any" or t == kind)]

    def far(p: str) -> tuple[int, int]:
        r = state.position.range_between([state.position.model(p).square], heroes)
        return (-(r or 0), int(p[1:]))

    new = min(others, key=far)
    setattr(state, attr, new)
    return old, new


def compare_until_reveal(
    task: str, red_force: str, attr: str, kind: str, seed: int
) -> tuple[int, bool]:
    """Two games identical but for the secret pick, one random action sequence: every
    view alike until one of the two pings is turned over. Returns (actions compared,
    whether that reveal came)."""
    config = {"map": "zd-open", "heroes": 3, "task": task, "red_force": red_force}
    a, b = new_game(seed, **config), new_game(seed, **config)
    pair = swap_secret(b, attr, kind)
    assert getattr(a, attr) == pair[0] != getattr(b, attr)
    rng = stream(seed, "zd-secret")
    actions = 0
    while not a.is_over:
        for seat in (TEAM, None):
            assert a.view(seat).canonical() == b.view(seat).canonical(), (seed, actions, seat)
        legal_a = a.legal_actions(TEAM)
        assert legal_a == b.legal_actions(TEAM)
        action = rng.choice(legal_a)
        ea, eb = a.apply(action), b.apply(action)
        actions += 1
        turned = {str(e.data["ping"]) for e in ea if e.kind == "ping_revealed"}
        if turned & set(pair):
            # The reveal: the team learns its task's bogey in one game only (a private
            # event); a spectator still sees the same.
            assert a.view(None).canonical() == b.view(None).canonical()
            public = [e.to_json() for e in ea if e.visible_to(None)]
            assert public == [e.to_json() for e in eb if e.visible_to(None)]
            return actions, True
        assert [e.to_json() for e in ea] == [e.to_json() for e in eb]
    return actions, False


@pytest.mark.parametrize(
    ("task", "red_force", "attr", "kind"),
    [
        ("rescue", "grunt=4,elite=2,boss=1", "double_agent", "any"),
        ("assassination", "grunt=3,elite=1,boss=2", "boss_target", "boss"),
    ],
)
def test_the_tasks_secret_does_not_change_what_anyone_sees(
    task: str, red_force: str, attr: str, kind: str
) -> None:
    # ZD-T3, ZD-T4 (FR-P4): two games identical but for the secret pick (swapped by
    # surgery between two pings) give identical spectator and team views, and the same
    # legal actions, after every action of one random sequence, until one of the two
    # pings is turned over (and the spectator's view stays alike then). Six seeds.
    runs = [compare_until_reveal(task, red_force, attr, kind, seed) for seed in range(6)]
    assert sum(n for n, _ in runs) >= 40
    assert any(revealed for _, revealed in runs)


# ======================================================================= engine questions


def test_rescue_extra_for_a_down_ally_within_4(monkeypatch: pytest.MonkeyPatch) -> None:
    # ZD-T3: "within 4 of the Spook at the end of the mission": a down ally (2 wounds,
    # surgery) is still on the table, 1 square from the Spook; only the dead state
    # matters (for one that left the table).
    state, _ = rescue(monkeypatch, [hero("H1", "A4"), bogey("B1", "C4")], "BJ")
    a1 = state.position.model("A1")
    state.position = state.position.with_model(replace(a1, state="ooa"))  # surgery
    state.wounds["A1"] = 2
    act(state, "pass")
    assert report(state)["task_success"] is True
    assert gained(state)[-1] == ("rescue: the ally kept", 2)


def test_rescue_no_extra_for_a_dead_ally(monkeypatch: pytest.MonkeyPatch) -> None:
    # ZD-T3 does not give the +2 for an ally that entered the dead state (surgery: it
    # was treated as dead and left the table); the task itself succeeded.
    state, _ = rescue(monkeypatch, [hero("H1", "A4"), bogey("B1", "C4")], "BJ")
    state.position = state.position.without("A1")  # surgery
    state.dead.add("A1")
    act(state, "pass")
    assert report(state)["task_success"] is True
    assert gained(state)[-1] == ("task rescue", 5)


def test_an_ally_cannot_persuade(monkeypatch: pytest.MonkeyPatch) -> None:
    # ZD-P1: "a hero must be engaged with it"; the ally's CQB is a fight, at once.
    # Dice scripted: nobody scores.
    state = spook_game([hero("H1", "E1"), ally("A1", "A7"), bogey("B1", "A5")], susceptible="grunt")
    with_ally(state)
    Dice(monkeypatch, state, ("A1", 0), ("B1", 0))
    act(state, "activate", "A1")
    act(state, "step", "A6")
    act(state, "stop")
    assert state.phase == "tested"
    assert "persuade" not in kinds(state)


def test_a_dead_ally_forces_no_activation() -> None:
    # ZD-D2: A1 is 5 from H1 after H2's activation, so H1 or A1 must act next; A1 then
    # dies (surgery: three wounds, as from a fight). With no ally left, the restriction
    # is gone: any hero not yet acted may go, H1 or H3.
    b = open_arena()
    models = [hero("H1", "A7"), hero("H2", "G1"), hero("H3", "D1"), ally("A1", "F7")]
    state = spook_game(models, "BJ", b=b)
    with_ally(state)
    events = turn_of(state, "H2")
    assert of_kind(events, "dependent") and state.reunite == ("A1", "H1")
    assert legal(state) == [("activate", ("H1",)), ("activate", ("A1",))]
    state._wound_character("A1", 3)  # surgery
    assert "A1" in state.dead and state.reunite is None
    assert legal(state) == [("activate", ("H1",)), ("activate", ("H3",))]
