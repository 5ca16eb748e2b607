"""Specter Ops characters and equipment (rules section "Characters and equipment").

Games with ``characters=True``: the setup choices (SO-S4), health (SO-S6), the
equipment rules (SO-A7, SO-A8), one test per card, one per character, the stun in real
play (SO-H4), and random play with characters that checks the possibility map (SO-I2)
and the hidden kit after every action outside the agent's own turn.

Each test plays a case where the rule applies and one where it does not, and names
the rule it checks. Positions are built by playing legal actions and, where a position
would take many rounds to reach, by setting public fields of the state ("surgery"); every
such place says so, and the possibility map is then reset to the agent's true square
with the kits it still allows, so that it holds the truth (SO-I2).

Most positions use the small open board YARD below (clear lines along every row and
column, the road K-L on the east edge), written to a temporary file.

Engine bugs found while writing these tests were fixed; their reproductions stay here
as regression tests (Holo Decoy reach and the map, the Gun's public dice, steps left
under Adrenal Surge, the rules named for illegal uses and picks, secrets after the game).
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from fogofwar.core.dice import exploding_check
from fogofwar.core.errors import IllegalActionError
from fogofwar.core.game import Action, Event, get_ruleset
from fogofwar.core.record import Record, Recorder
from fogofwar.core.rng import stream
from fogofwar.games.specter_ops.bots import AgentBot
from fogofwar.games.specter_ops.characters import (
    AGENTS,
    CARDS,
    GENERIC_CARDS,
    HUNTERS,
    card_pool,
)
from fogofwar.games.specter_ops.knowledge import PossibilityMap
from fogofwar.games.specter_ops.state import (
    SpecterOpsState,
    attack_dice,
    attack_modifier,
)

from .helpers import (
    at,
    finish_round,
    hunter,
    name_of,
    of_kind,
    place_hunter,
    place_vehicle,
    play,
    start_turn,
)

RS = get_ruleset("specter-ops")

# ====================================================================== boards

HEAD = """\
name: {name}
format: 1

[legend]
.  open       passable    transparent
=  road       passable    transparent
X  structure  impassable  opaque
O  objective  impassable  opaque

[terrain]
"""

# An open 12x12 yard: every row and column is a clear line of sight (SO-L1) except where
# an objective site (C3, J3, C10, J10) stands; the road K-L runs north-south.
YARD = """\
# ABCDEFGHIJKL
  ..........==    # 1
  ..........==    # 2
  ..O......O==    # 3   sites C3 (sector 1), J3 (sector 2)
  ..........==    # 4
  ..........==    # 5
  ..........==    # 6
  ..........==    # 7
  ..........==    # 8
  ..........==    # 9
  ..O......O==    # 10  sites C10 (sector 3), J10 (sector 4)
  ..........==    # 11
  ..........==    # 12

[roads]
K1-L12 ns

[markers]
agent_start: F6
escape: A1 A12
vehicle_start: K12
vehicle_start.four: L12
"""
YARD_SITES = {1: "C3", 2: "J3", 3: "C10", 4: "J10"}

# A 1-wide corridor (row 2, C-J) between walls, open to the agent's corner A1-B2 and to
# the road: a hunter standing in the corridor is the only way through it.
CORRIDOR = """\
# ABCDEFGHIJKL
  ..XXXXXXXX==    # 1
  ..........==    # 2
  ..XXXXXXXX==    # 3
  ..........==    # 4
  ..........==    # 5
  ..O.O.O.O.==    # 6   sites C6, E6, G6, I6 (sectors 1-4)
  ..........==    # 7
  ..........==    # 8

[roads]
K1-L8 ns

[markers]
agent_start: A1
escape: A8 J8
vehicle_start: K8
vehicle_start.four: L8
"""
CORRIDOR_SITES = {1: "C6", 2: "E6", 3: "G6", 4: "I6"}


def _write_board(directory: Path, name: str, body: str, sites: dict[int, str]) -> str:
    # Each sector's six candidate sites are one square, so objectives do not depend on
    # the seed and hidden sites (4 players) stay a single world.
    markers = "".join(f"objective.{j}.{k}: {sites[j]}\n" for j in sites for k in range(1, 7))
    path = directory / f"{name}.board"
    path.write_text(HEAD.format(name=name) + body + markers, encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def yard(tmp_path_factory: pytest.TempPathFactory) -> str:
    return _write_board(tmp_path_factory.mktemp("boards"), "yard", YARD, YARD_SITES)


@pytest.fixture(scope="module")
def corridor(tmp_path_factory: pytest.TempPathFactory) -> str:
    return _write_board(tmp_path_factory.mktemp("boards"), "corridor", CORRIDOR, CORRIDOR_SITES)


# ====================================================================== helpers

DEFAULT_HUNTERS = ("gun", "beast", "prophet")
ANY_RULE = object()


def new(players: int = 3, seed: int = 0, **options: Any) -> SpecterOpsState:
    """A game with characters, in its setup."""
    state = RS.new_game({"players": players, "characters": True, **options}, seed)
    assert isinstance(state, SpecterOpsState)
    return state


def pick(
    state: SpecterOpsState,
    agent: str,
    cards: Iterable[str] = (),
    hunters: Iterable[str] | None = None,
) -> SpecterOpsState:
    """Play the setup (SO-S4): hunters' characters in figure order, then the agent's."""
    chosen = list(DEFAULT_HUNTERS if hunters is None else hunters)
    for h, char in zip(state.hunters, chosen, strict=False):
        play(state, h.seat, "character", h.id, char)
    play(state, "agent", "character", agent)
    for card in cards:
        if state.phase != "pick_cards":
            break
        play(state, "agent", "card", card)
    assert state.phase == "agent", "setup not finished"
    return state


def game(
    agent: str,
    cards: Iterable[str] = (),
    players: int = 3,
    seed: int = 0,
    hunters: Iterable[str] | None = None,
    **options: Any,
) -> SpecterOpsState:
    return pick(new(players, seed, **options), agent, cards, hunters)


def public(events: Iterable[Event]) -> list[Event]:
    """The events every seat (and a spectator) sees."""
    return [e for e in events if e.to is None]


def view_of(state: SpecterOpsState, seat: str | None) -> Any:
    return state.view(seat).data


def outsiders(state: SpecterOpsState) -> tuple[str | None, ...]:
    """The hunter seats and a spectator."""
    return (*state.seats[1:], None)


def outside_views(state: SpecterOpsState) -> list[str]:
    return [state.view(seat).canonical() for seat in outsiders(state)]


def snapshot(state: SpecterOpsState) -> tuple[Any, ...]:
    views = {seat: state.view(seat).canonical() for seat in (*state.seats, None)}
    legal = {seat: list(state.legal_actions(seat)) for seat in state.seats}
    return views, legal, sorted(state.to_act()), state.focus.character, dict(state.focus.cards)


def illegal(
    state: SpecterOpsState, seat: str, kind: str, *args: str, rule: object = ANY_RULE
) -> IllegalActionError:
    """The action is illegal (with ``rule`` if given) and changes nothing."""
    before = snapshot(state)
    events = len(state.events)
    with pytest.raises(IllegalActionError) as info:
        play(state, seat, kind, *args)
    if rule is not ANY_RULE:
        assert info.value.rule == rule, info.value.reason
    assert snapshot(state) == before
    assert len(state.events) == events
    return info.value


def uses(state: SpecterOpsState, card: str | None = None) -> set[tuple[str, ...]]:
    """The agent's legal ``use`` actions now (their arguments), of one card if named."""
    return {
        tuple(str(x) for x in a.args)
        for a in state.legal_actions("agent")
        if a.kind == "use" and (card is None or a.args[0] == card)
    }


def targets(state: SpecterOpsState, card: str) -> set[str]:
    return {args[1] for args in uses(state, card)}


def agent_move(state: SpecterOpsState, *squares: str, after: str | None = None) -> list[Event]:
    """The agent steps to ``squares`` and stops; then ``done`` (or ``use`` the card
    ``after``, given as "card" or "card TARGET") if it is asked about a card after moving."""
    events: list[Event] = []
    for square in squares:
        events += play(state, "agent", "step", square)
    if state.phase == "agent":
        events += play(state, "agent", "stop")
    if after is not None:
        assert state.phase == "agent_after"
        events += play(state, "agent", "use", *after.split())
    elif state.phase == "agent_after":
        events += play(state, "agent", "done")
    return events


def true_kit(state: SpecterOpsState) -> tuple[str, tuple[tuple[str, int], ...]]:
    return state.focus.character, tuple(sorted(state.focus.cards.items()))


def reset_knowledge(state: SpecterOpsState) -> None:
    """After surgery on the agent's square: the map holds exactly the true square, with
    every kit it still allowed (the true one among them)."""
    kits = state.focus.knowledge.possible_kits()
    assert true_kit(state) in kits
    state.focus.knowledge = PossibilityMap.start(
        state.focus.square, state.focus.knowledge.possible_sites(), kits
    )


def place_agent(state: SpecterOpsState, square: str) -> None:
    # Surgery, at the start of the agent's turn: its true square, path and turn start.
    assert state.phase == "agent" and len(state.focus.path) == 1
    state.focus.square = state.focus.turn_start = at(state, square)
    state.focus.path = [state.focus.square]
    reset_knowledge(state)


def holds_truth(state: SpecterOpsState) -> bool:
    """SO-I2 with characters: the map holds the true square, kit and character."""
    kits = state.focus.knowledge.possible_kits()
    return bool(
        state.focus.knowledge.squares >> state.focus.square & 1
        and true_kit(state) in kits
        and state.focus.character in state.focus.knowledge.possible_characters()
    )


def hit_chance(dice: Any) -> Fraction:
    return Fraction(dice.dist()[1])


# ====================================================================== setup (SO-S4)


@pytest.mark.parametrize("players", [3, 4])
def test_s4_hunters_pick_in_public_in_figure_order(players: int) -> None:
    # SO-S4: the hunters choose their characters first, in public, one figure at a time in
    # figure order (H1, H2, ...), each seat for its own figure, and no two the same.
    state = new(players)
    assert state.phase == "pick_hunter"
    assert view_of(state, None)["phase"] == "setup"
    chosen = ["prophet", "puppet", "gun"][: len(state.hunters)]
    for k, h in enumerate(state.hunters):
        assert state.to_act() == {h.seat}
        assert h.seat == f"hunter{k + 1}"
        taken = set(chosen[:k])
        offered = state.legal_actions(h.seat)
        assert {a.args[0] for a in offered} == {h.id}
        assert {a.args[1] for a in offered} == set(HUNTERS) - taken
        # Not applicable: a later figure may not choose before this one, nor its seat.
        for later in state.hunters[k + 1 :]:
            illegal(state, h.seat, "character", later.id, "beast")
            illegal(state, later.seat, "character", later.id, "beast")
        # No duplicates; no agent character; the agent waits.
        for char in taken:
            illegal(state, h.seat, "character", h.id, char)
        illegal(state, h.seat, "character", h.id, "cobra")
        illegal(state, "agent", "character", "cobra")
        events = play(state, h.seat, "character", h.id, chosen[k])
        # Public: every seat and a spectator see the choice.
        assert [e.kind for e in events] == ["hunter_character"]
        assert public(events) == events
        assert of_kind(events, "hunter_character") == [{"hunter": h.id, "character": chosen[k]}]
        for seat in (*state.seats, None):
            assert view_of(state, seat)["hunters"][k]["character"] == chosen[k]
    assert [h.character for h in state.hunters] == chosen
    assert state.phase == "pick_agent" and state.to_act() == {"agent"}


def test_s4_two_players_hunter1_picks_for_both_figures() -> None:
    # SO-S4 with SO-G4: with 2 players the one hunter seat picks for H1 and then H2.
    state = new(2)
    assert [h.seat for h in state.hunters] == ["hunter1", "hunter1"]
    assert state.to_act() == {"hunter1"}
    assert {a.args[0] for a in state.legal_actions("hunter1")} == {"H1"}
    play(state, "hunter1", "character", "H1", "gun")
    assert state.to_act() == {"hunter1"}
    assert {a.args for a in state.legal_actions("hunter1")} == {
        ("H2", c) for c in HUNTERS if c != "gun"
    }
    illegal(state, "hunter1", "character", "H2", "gun")  # no duplicates
    play(state, "hunter1", "character", "H2", "beast")
    assert [h.character for h in state.hunters] == ["gun", "beast"]
    assert state.phase == "pick_agent"


def test_characters_are_on_by_default() -> None:
    # SO-S4: the game as it is played: the default configuration begins with the
    # hunters' character choices, then the agent's character and cards.
    assert RS.resolve_config({})["characters"] is True
    state = RS.new_game({}, 0)
    assert isinstance(state, SpecterOpsState)
    assert state.phase == "pick_hunter" and state.with_characters


def test_s4_without_characters_there_is_no_setup_choice() -> None:
    # SO-S4 does not apply with characters off (the base game): the agent moves at once,
    # with no character or cards, and its health is public (SO-S6).
    state = RS.new_game({"players": 3, "characters": False}, 0)
    assert isinstance(state, SpecterOpsState)
    assert state.phase == "agent" and state.focus.character == "" and state.focus.cards == {}
    assert not any(a.kind in ("character", "card", "use") for a in state.legal_actions("agent"))
    assert {h.character for h in state.hunters} == {""}
    assert view_of(state, "hunter1")["agent"]["health"] == 4
    assert of_kind(state.events, "setup")[0]["health"] == 4


@pytest.mark.parametrize(
    ("players", "first", "second"),
    [
        (
            3,
            ("cobra", ("flash-bang", "smoke-grenade", "venom-dart")),
            ("blue-jay", ("adrenal-surge", "stealth-field", "holo-decoy")),
        ),
        (
            2,
            ("spider", ("signal-jammer", "flash-bang", "adrenal-surge")),
            ("orangutan", ("med-kit", "stealth-field", "smoke-grenade")),
        ),
        (4, ("cobra", ()), ("orangutan", ())),
    ],
)
def test_s4_agent_choice_is_secret(
    players: int, first: tuple[str, tuple[str, ...]], second: tuple[str, tuple[str, ...]]
) -> None:
    # SO-S4, SO-I1: the agent chooses its character and cards secretly: its choices are
    # events for the agent alone, and the hunters' and a spectator's views are the same whatever
    # it chose, after every choice and after its first turn.
    games = []
    for agent, cards in (first, second):
        state = new(players)
        for h, char in zip(state.hunters, DEFAULT_HUNTERS, strict=False):
            play(state, h.seat, "character", h.id, char)
        games.append((state, agent, list(cards)))
    a, b = games[0][0], games[1][0]
    assert outside_views(a) == outside_views(b)
    # The character, then the cards (2-3 players choose; 4 players take all five).
    for state, agent, _ in games:
        events = play(state, "agent", "character", agent)
        for e in events:
            assert e.kind in ("agent_character", "agent_card", "agent_ready", "agent_turn")
            if e.kind in ("agent_character", "agent_card"):
                assert e.to == frozenset({"agent"})
            else:
                assert e.to is None and "character" not in e.data
    assert outside_views(a) == outside_views(b)
    while a.phase == "pick_cards" or b.phase == "pick_cards":
        assert a.phase == b.phase == "pick_cards"
        for state, _, cards in games:
            events = play(state, "agent", "card", cards.pop(0))
            assert {e.to for e in events if e.kind == "agent_card"} == {frozenset({"agent"})}
            assert not [e for e in public(events) if e.kind not in ("agent_ready", "agent_turn")]
        assert outside_views(a) == outside_views(b)
    assert a.phase == b.phase == "agent"
    ready = [of_kind(s.events, "agent_ready") for s in (a, b)]
    assert ready[0] == ready[1] == [{"cards": 5 if players == 4 else 3}]
    # The agents differ (their own views say so), the outsiders cannot tell.
    assert a.view("agent").canonical() != b.view("agent").canonical()
    assert view_of(a, "agent")["secret"]["character"] == first[0]
    for state in (a, b):
        agent_move(state)  # the same public turn: stay on the start square
    assert outside_views(a) == outside_views(b)
    assert a.focus.knowledge == b.focus.knowledge


@pytest.mark.parametrize(("players", "count"), [(2, 3), (3, 3), (4, 5)])
@pytest.mark.parametrize("agent", list(AGENTS))
def test_s4_card_count_and_pool(players: int, count: int, agent: str) -> None:
    # SO-S4: the pool is the 4 generic cards and the character's unique card; 3 cards
    # with 2-3 players, 5 with 4 (all of the pool, taken without a choice).
    pool = card_pool(agent)
    assert set(pool) == {*GENERIC_CARDS, AGENTS[agent].unique_card}
    assert len(GENERIC_CARDS) == 4 and len(pool) == 5
    assert not any(CARDS[c].owner for c in GENERIC_CARDS)
    assert CARDS[AGENTS[agent].unique_card].owner == agent
    state = new(players)
    for h, char in zip(state.hunters, DEFAULT_HUNTERS, strict=False):
        play(state, h.seat, "character", h.id, char)
    events = play(state, "agent", "character", agent)
    if count == len(pool):
        # No choice: every card is taken at once and the game starts.
        assert state.phase == "agent"
        assert state.focus.cards == {c: CARDS[c].uses for c in pool}
        assert sorted(d["card"] for d in of_kind(events, "agent_card")) == sorted(pool)
        return
    taken: list[str] = []
    while state.phase == "pick_cards":
        offered = {a.args[0] for a in state.legal_actions("agent") if a.kind == "card"}
        assert offered == set(pool) - set(taken)  # the pool, without duplicates
        card = sorted(offered)[len(taken) % len(offered)]
        play(state, "agent", "card", card)
        taken.append(card)
    assert len(taken) == count == len(state.focus.cards)
    assert state.focus.cards == {c: CARDS[c].uses for c in taken}
    assert state.phase == "agent"


def test_s4_illegal_agent_picks_change_nothing() -> None:
    # SO-S4: a pick that is not the agent's to make raises IllegalActionError and
    # changes nothing: a hunter character, a card before the character, a hunter acting
    # for the agent, another character's unique card, a second character, a duplicate
    # card, an unknown card.
    state = new(3)
    for h, char in zip(state.hunters, DEFAULT_HUNTERS, strict=False):
        play(state, h.seat, "character", h.id, char)
    illegal(state, "agent", "character", "gun")
    illegal(state, "agent", "card", "flash-bang")
    illegal(state, "hunter1", "character", "cobra")
    illegal(state, "agent", "character", "jackal")
    play(state, "agent", "character", "cobra")
    for other in ("holo-decoy", "med-kit", "signal-jammer"):
        illegal(state, "agent", "card", other)
    illegal(state, "agent", "character", "spider")
    illegal(state, "agent", "card", "jetpack")
    play(state, "agent", "card", "venom-dart")
    illegal(state, "agent", "card", "venom-dart")
    illegal(state, "hunter1", "card", "flash-bang")
    play(state, "agent", "card", "flash-bang")
    play(state, "agent", "card", "smoke-grenade")
    assert state.focus.cards == {"venom-dart": 2, "flash-bang": 3, "smoke-grenade": 3}
    # Setup is over: no more picks.
    assert state.phase == "agent"
    illegal(state, "agent", "card", "stealth-field")
    illegal(state, "agent", "character", "orangutan")


def test_s4_illegal_pick_names_its_rule() -> None:
    # SO-S4: a duplicate hunter character and another character's card name SO-S4.
    state = new(3)
    play(state, "hunter1", "character", "H1", "gun")
    assert illegal(state, "hunter2", "character", "H2", "gun").rule == "SO-S4"
    play(state, "hunter2", "character", "H2", "beast")
    play(state, "agent", "character", "cobra")
    assert illegal(state, "agent", "card", "holo-decoy").rule == "SO-S4"


def test_s4_character_public_after_the_game() -> None:
    # SO-S4, SO-I1: once the game is over nothing is secret any more.
    state = game("cobra", ["venom-dart", "smoke-grenade", "flash-bang"], max_rounds=1)
    agent_move(state)
    finish_round(state)
    assert state.is_over and not state.focus.character_public
    for seat in outsiders(state):
        assert "cobra" in state.view(seat).canonical()


# ====================================================================== health (SO-S6)


@pytest.mark.parametrize(
    ("players", "agent", "health"),
    [
        (2, "cobra", 4),
        (3, "spider", 4),
        (3, "blue-jay", 4),
        (3, "orangutan", 6),
        (4, "cobra", 6),
        (4, "orangutan", 8),
    ],
)
def test_s6_health(players: int, agent: str, health: int) -> None:
    # SO-S6: health 4; the Orangutan +2; 4 players +2 (SO-F1), so an Orangutan has 8.
    state = game(agent, sorted(card_pool(agent)), players)
    assert state.focus.health == state.focus.max_health == health
    assert view_of(state, "agent")["secret"]["health"] == health


def test_s6_health_hidden_until_the_character_is_revealed(yard: str) -> None:
    # SO-S6, SO-S4: with characters the health depends on the hidden character, so the
    # hunters see neither until the agent is first revealed; then both are public.
    state = game("orangutan", ["med-kit", "smoke-grenade", "flash-bang"], board=yard)
    assert of_kind(state.events, "setup")[0]["health"] is None
    for seat in outsiders(state):
        agent = view_of(state, seat)["agent"]
        assert agent["character"] is None and agent["health"] is None
    assert view_of(state, "agent")["secret"]["health"] == 6
    # Not revealed yet: the agent stays hidden on F6 (the hunters are aboard on K12).
    events = agent_move(state)
    assert of_kind(events, "agent_moved") == [{"result": "hidden", "square": None}]
    assert view_of(state, "hunter1")["agent"]["health"] is None
    assert not of_kind(state.events, "character_revealed")
    finish_round(state)
    # Revealed at the end of its move: the character card is turned face up with it.
    place_hunter(state, "H1", "F1")  # surgery: H1 on foot, looking down column F
    events = agent_move(state)
    assert of_kind(events, "agent_moved") == [{"result": "revealed", "square": "F6"}]
    revealed = [e for e in events if e.kind == "character_revealed"]
    assert len(revealed) == 1 and revealed[0].to is None
    assert dict(revealed[0].data) == {"character": "orangutan", "health": 6}
    for seat in outsiders(state):
        agent = view_of(state, seat)["agent"]
        assert agent["character"] == "orangutan" and agent["health"] == 6
    # Only the first reveal turns the card.
    finish_round(state)
    events = agent_move(state)
    assert of_kind(events, "agent_moved")[0]["result"] == "revealed"
    assert not of_kind(events, "character_revealed")


def test_s4_character_revealed_by_an_announcement(yard: str) -> None:
    # SO-S4, SO-H3: a hunter's "visible" answer is also a reveal, and turns the card.
    state = game("spider", ["signal-jammer", "smoke-grenade", "flash-bang"], board=yard)
    place_hunter(state, "H1", "E1")  # surgery: H1 on foot, column E
    agent_move(state)
    assert view_of(state, "hunter1")["agent"]["character"] is None
    start_turn(state, "H1")
    events = play(state, "hunter1", "step", "F1")
    events += play(state, "hunter1", "stop")
    assert of_kind(events, "announcement") == [
        {"hunter": "H1", "answer": "visible", "square": "F6"}
    ]
    assert of_kind(events, "character_revealed") == [{"character": "spider", "health": 4}]
    assert state.focus.knowledge.possible_characters() == {"spider"}


# ====================================================================== equipment (SO-A7, SO-A8)


def test_a7_one_card_per_turn_before_or_after(yard: str) -> None:
    # SO-A7 (equipment_per_turn=1, the default): one card per turn, before moving or
    # after it, not both.
    state = game("spider", ["signal-jammer", "smoke-grenade", "flash-bang"], board=yard)
    assert state.per_turn == 1
    before = uses(state)
    assert {u[0] for u in before} == {"signal-jammer", "smoke-grenade", "flash-bang"}
    play(state, "agent", "use", "signal-jammer")
    # Used before: no second card now, and none after moving.
    assert not uses(state)
    illegal(state, "agent", "use", "smoke-grenade", "F5")
    play(state, "agent", "step", "E7")
    assert not uses(state)
    play(state, "agent", "stop")
    assert state.phase == "order"  # no "after" moment was offered
    finish_round(state)
    # Not used before: after the move the agent may use one card, then the turn ends.
    play(state, "agent", "step", "D8")
    assert not uses(state)  # not during the move
    illegal(state, "agent", "use", "smoke-grenade", "D7")
    play(state, "agent", "stop")
    assert state.phase == "agent_after"
    assert {u[0] for u in uses(state)} == {"signal-jammer", "smoke-grenade", "flash-bang"}
    play(state, "agent", "use", "smoke-grenade", "D7")
    assert state.phase == "order"


def test_a7_two_cards_per_turn_one_before_one_after(yard: str) -> None:
    # SO-A7 with equipment_per_turn=2: one card before and one after (not the same one,
    # and never two before).
    state = game(
        "spider", ["signal-jammer", "smoke-grenade", "flash-bang"], board=yard, equipment_per_turn=2
    )
    play(state, "agent", "use", "signal-jammer")
    assert not uses(state)  # one before at most
    illegal(state, "agent", "use", "flash-bang", "F5")
    assert not play(state, "agent", "step", "E7")
    play(state, "agent", "stop")
    assert state.phase == "agent_after"
    assert {u[0] for u in uses(state)} == {"smoke-grenade", "flash-bang"}
    events = play(state, "agent", "use", "smoke-grenade", "E6")
    assert state.phase == "order"
    assert [d["card"] for d in of_kind(state.events, "equipment")] == [
        "signal-jammer",
        "smoke-grenade",
    ]
    assert of_kind(events, "agent_moved")
    assert state.focus.cards == {"signal-jammer": 1, "smoke-grenade": 2, "flash-bang": 3}
    # Not applicable: with nothing used before, two after are still one.
    finish_round(state)
    agent_move(state, "D8", after="flash-bang D7")
    assert state.phase == "order"


def test_a8_uses_count_down_and_a_spent_card_is_gone(yard: str) -> None:
    # SO-A8: each use spends one of the card's uses; a spent card cannot be used.
    state = game("spider", ["signal-jammer", "smoke-grenade", "flash-bang"], board=yard)
    assert CARDS["signal-jammer"].uses == 2
    for left in (1, 0):
        play(state, "agent", "use", "signal-jammer")
        assert state.focus.cards["signal-jammer"] == left
        assert view_of(state, "agent")["secret"]["cards"]["signal-jammer"] == left
        agent_move(state)
        finish_round(state)
    # Spent: offered neither before nor after the move, and refused.
    assert ("signal-jammer",) not in uses(state)
    assert uses(state)  # the other cards still have uses
    illegal(state, "agent", "use", "signal-jammer")
    play(state, "agent", "stop")
    assert state.phase == "agent_after"
    assert ("signal-jammer",) not in uses(state)
    illegal(state, "agent", "use", "signal-jammer")
    # The hunters counted the public uses: every kit they allow has the jammer spent.
    kits = state.focus.knowledge.possible_kits()
    assert kits and all(dict(k[1])["signal-jammer"] == 0 for k in kits)


def test_a8_illegal_use_names_the_equipment_rule(yard: str) -> None:
    # SO-A7, SO-A8: the refusal names the equipment rule, not the movement rule.
    state = game("spider", ["signal-jammer", "smoke-grenade", "flash-bang"], board=yard)
    play(state, "agent", "use", "signal-jammer")
    assert illegal(state, "agent", "use", "flash-bang", "F5").rule == "SO-A7"
    agent_move(state)
    finish_round(state)
    play(state, "agent", "use", "signal-jammer")
    agent_move(state)
    finish_round(state)
    assert illegal(state, "agent", "use", "signal-jammer").rule == "SO-A8"


# ====================================================================== cards


def test_adrenal_surge_six_steps_hidden(yard: str) -> None:
    # Adrenal Surge (SO-A7's cards, SO-A1's 4 steps raised to 6): up to 6 steps this turn;
    # its use is hidden (no public event, SO-I1) and the map allows for it, so it still
    # holds the true square (SO-I2).
    cards = ["adrenal-surge", "stealth-field", "holo-decoy"]
    state = game("blue-jay", cards, board=yard)
    plain = game("blue-jay", cards, board=yard)
    events = play(state, "agent", "use", "adrenal-surge")
    assert not public(events)
    assert [e.kind for e in events] == ["agent_used"] and events[0].to == {"agent"}
    assert view_of(state, "agent")["secret"]["move_limit"] == 6
    path = ["F5", "F4", "F3", "F2", "F1", "E1"]
    events = []
    for square in path[:5]:
        events += play(state, "agent", "step", square)
        assert state.phase == "agent"  # a 4th (and 5th) step does not end the move
    events += play(state, "agent", "step", path[5])  # the 6th step ends it
    assert state.phase == "order"
    assert state.focus.last_steps == 6 and name_of(state, state.focus.square) == "E1"
    assert of_kind(events, "agent_moved") == [{"result": "hidden", "square": None}]
    assert state.focus.knowledge.squares >> state.focus.square & 1
    assert holds_truth(state)
    assert state.focus.cards["adrenal-surge"] == 2
    # Not applicable: without the card the 4th step ends the move.
    for square in path[:4]:
        play(plain, "agent", "step", square)
    assert plain.phase != "agent"
    # The hunters cannot tell the two turns apart: the surge was hidden.
    if plain.phase == "agent_after":
        play(plain, "agent", "done")
    assert outside_views(state) == outside_views(plain)


def test_adrenal_surge_steps_left_in_the_agents_view(yard: str) -> None:
    state = game("blue-jay", ["adrenal-surge", "stealth-field", "holo-decoy"], board=yard)
    play(state, "agent", "use", "adrenal-surge")
    for square in ("F5", "F4", "F3", "F2"):
        play(state, "agent", "step", square)
    assert view_of(state, "agent")["secret"]["steps_left"] == 2


def flash_bang_game(yard: str) -> SpecterOpsState:
    """4 players (all five cards): H1 on foot on F2 (sees column F), H2 on foot on A9
    (row 9, column A), H3 aboard the vehicle on K5 (row 5 and the road); agent F6."""
    state = game("cobra", players=4, board=yard, hunters=("gun", "beast", "prophet"))
    assert "flash-bang" in state.focus.cards
    place_vehicle(state, "K5")  # surgery: the vehicle with the hunters aboard
    place_hunter(state, "H1", "F2")  # surgery: figures on foot
    place_hunter(state, "H2", "A9")
    return state


def test_flash_bang_stuns_hunters_on_foot_that_see_the_square(yard: str) -> None:
    # Flash Bang (SO-A7): every hunter not aboard that sees the chosen square (SO-L1) is
    # stunned (SO-H4); hunters aboard cannot be stunned (SO-V4). Public, with its square
    # and effect.
    state = flash_bang_game(yard)
    here = state.focus.square
    assert targets(state, "flash-bang") == set(state.geo.names(state.geo.within(here, 4)))
    events = play(state, "agent", "use", "flash-bang", "F5")
    assert of_kind(public(events), "equipment") == [
        {"card": "flash-bang", "moment": "before", "square": "F5", "stunned": ["H1"]}
    ]
    # H3 aboard sees F5 along row 5 but is not stunned; H2 does not see F5.
    assert state.geo.sees(hunter(state, "H3").square, at(state, "F5"))
    assert [h.stunned for h in state.hunters] == [True, False, False]
    assert [h["stunned"] for h in view_of(state, "hunter2")["hunters"]] == [True, False, False]
    agent_move(state, "E7")
    assert holds_truth(state)
    # Not applicable: a square no hunter sees stuns nobody (still a public use).
    other = flash_bang_game(yard)
    events = play(other, "agent", "use", "flash-bang", "C8")
    assert of_kind(public(events), "equipment")[0]["stunned"] == []
    assert not any(h.stunned for h in other.hunters)


def test_flash_bang_target_within_4_only(yard: str) -> None:
    # Flash Bang (SO-A7): the square is chosen within 4 (king distance, SO-L5) of the
    # agent, before moving or after (from the end square).
    state = flash_bang_game(yard)
    assert "F2" in targets(state, "flash-bang") and "B10" in targets(state, "flash-bang")
    for far in ("F1", "A6", "K6", "F11"):
        illegal(state, "agent", "use", "flash-bang", far)
    # After moving, the reach is counted from the end square.
    agent_move(state, "G7", "H8", after="flash-bang L12")
    assert of_kind(state.events, "equipment")[0]["square"] == "L12"
    assert holds_truth(state)


def smoke_game(yard: str) -> SpecterOpsState:
    """H1 on foot on F1, looking down column F at the agent on F6."""
    state = game("spider", ["smoke-grenade", "flash-bang", "signal-jammer"], board=yard)
    place_hunter(state, "H1", "F1")  # surgery
    return state


def test_smoke_grenade_blocks_sight_until_the_end_of_the_next_agent_turn(yard: str) -> None:
    # Smoke Grenade (SO-A7, SO-L1, SO-H3): the 3x3 area round a square within 4 blocks
    # sight (not movement) until the end of the agent's next turn; public, with its
    # square and area.
    state = smoke_game(yard)
    illegal(state, "agent", "use", "smoke-grenade", "F1")  # 5 away
    events = play(state, "agent", "use", "smoke-grenade", "F4")
    area = ["E3", "F3", "G3", "E4", "F4", "G4", "E5", "F5", "G5"]
    assert of_kind(public(events), "equipment") == [
        {"card": "smoke-grenade", "moment": "before", "square": "F4", "area": area}
    ]
    assert view_of(state, "hunter1")["smoke"] == area
    # The agent stays on F6, in H1's line but behind the smoke: not revealed.
    events = agent_move(state)
    assert of_kind(events, "agent_moved") == [{"result": "hidden", "square": None}]
    # H1's announcement would have seen the agent; the smoke makes it "clear".
    start_turn(state, "H1")
    events = play(state, "hunter1", "step", "F2")
    events += play(state, "hunter1", "stop")
    assert state.geo.sees(at(state, "F2"), at(state, "F6"))  # a clear line without smoke
    assert of_kind(events, "announcement") == [{"hunter": "H1", "answer": "clear", "square": None}]
    finish_round(state)
    # The agent's next turn: the smoke still stands (movement through it is free) ...
    assert "F5" in {a.args[0] for a in state.legal_actions("agent") if a.kind == "step"}
    events = agent_move(state)
    assert of_kind(events, "agent_moved") == [{"result": "hidden", "square": None}]
    # ... and clears at the end of that turn: now H1 sees the agent.
    assert view_of(state, "hunter1")["smoke"] == []
    start_turn(state, "H1")
    events = play(state, "hunter1", "stop")
    assert of_kind(events, "announcement") == [
        {"hunter": "H1", "answer": "visible", "square": "F6"}
    ]
    assert holds_truth(state)


def test_smoke_grenade_not_thrown_the_agent_is_seen(yard: str) -> None:
    # Smoke Grenade, not applicable: without smoke the same position reveals the agent
    # (SO-A5).
    state = smoke_game(yard)
    events = agent_move(state)
    assert of_kind(events, "agent_moved") == [{"result": "revealed", "square": "F6"}]


@pytest.mark.parametrize(("distance", "revealed"), [(2, True), (3, False), (5, False)])
def test_stealth_field_visible_only_within_2(yard: str, distance: int, revealed: bool) -> None:
    # Stealth Field (SO-A7, SO-A5): this turn the agent is visible only to hunters within
    # 2 squares: a hunter 3 or more away on a clear line does not reveal it at the end of
    # its move. Hidden use: no public event (SO-I1); the map allows for it (SO-I2).
    state = game("blue-jay", ["stealth-field", "adrenal-surge", "holo-decoy"], board=yard)
    watcher = f"F{6 - distance}"
    place_hunter(state, "H1", watcher)  # surgery: on foot, column F
    events = play(state, "agent", "use", "stealth-field")
    assert not public(events)
    events = agent_move(state)
    result = of_kind(events, "agent_moved")[0]
    assert result == (
        {"result": "revealed", "square": "F6"} if revealed else {"result": "hidden", "square": None}
    )
    assert holds_truth(state)
    # Only the agent's turn: H1's own announcement sees it as ever.
    start_turn(state, "H1")
    events = play(state, "hunter1", "stop")
    assert of_kind(events, "announcement")[0]["answer"] == "visible"


def test_stealth_field_not_used_the_agent_is_seen_at_3(yard: str) -> None:
    # Stealth Field, not applicable: without it a hunter 3 away reveals the agent (SO-A5).
    state = game("blue-jay", ["stealth-field", "adrenal-surge", "holo-decoy"], board=yard)
    place_hunter(state, "H1", "F3")  # surgery
    events = agent_move(state)
    assert of_kind(events, "agent_moved") == [{"result": "revealed", "square": "F6"}]


@pytest.mark.parametrize("after", [None, "stealth-field"])
def test_stealth_field_used_after_moving_lasts_the_whole_turn(yard: str, after: str | None) -> None:
    # Stealth Field (SO-A7, SO-A6): "this turn" whenever it is used. H1 on A8 watches row
    # 8 from 5 away; the agent crosses it (F7, F8, F9). Without the card the token falls on
    # F8; used after the last step, the card hides the path too, not just the end (a
    # hunter that saw the end square would otherwise mark the agent's true square). The
    # map allows for the hidden use and holds the truth (SO-I2).
    state = game("blue-jay", ["stealth-field", "adrenal-surge", "holo-decoy"], board=yard)
    place_hunter(state, "H1", "A8")  # surgery
    events = agent_move(state, "F7", "F8", "F9", after=after)
    expected = (
        {"result": "hidden", "square": None} if after else {"result": "last_seen", "square": "F8"}
    )
    assert of_kind(events, "agent_moved") == [expected]
    assert holds_truth(state)


def test_stealth_field_used_after_moving_hides_the_end_square(yard: str) -> None:
    # The same card after a move that ends seen from 3 away (H1 on F3, the agent back on
    # F6): without it the agent is revealed, with it the turn is hidden.
    state = game("blue-jay", ["stealth-field", "adrenal-surge", "holo-decoy"], board=yard)
    place_hunter(state, "H1", "F3")  # surgery
    events = agent_move(state, "G6", "F6", after="stealth-field")
    assert of_kind(events, "agent_moved") == [{"result": "hidden", "square": None}]
    assert holds_truth(state)


def test_the_heuristic_agent_hides_a_move_seen_from_afar(yard: str) -> None:
    # SO-A7: so-agent plays a Stealth Field after moving when only hunters 3 or more away
    # saw its path (here H1 from A8, 5 away) — and not when no hunter saw it at all.
    for crossing, wanted in ((("F7", "F8", "F9"), True), (("G6",), False)):
        state = game("blue-jay", ["stealth-field", "adrenal-surge", "holo-decoy"], board=yard)
        place_hunter(state, "H1", "A8")  # surgery
        for square in crossing:
            play(state, "agent", "step", square)
        play(state, "agent", "stop")
        assert state.phase == "agent_after"
        legal = state.legal_actions("agent")
        bot = AgentBot()
        bot.reset("agent", RS.id, state.config)
        choice = bot.choose(state.view("agent"), legal, stream(0, "bot"))
        assert (str(choice) == "use stealth-field") is wanted, str(choice)


def decoy_game(yard: str) -> SpecterOpsState:
    """Blue Jay on F6; H1 on foot on A8 watches row 8, H2 aboard on K12."""
    state = game("blue-jay", ["holo-decoy", "stealth-field", "adrenal-surge"], board=yard)
    place_hunter(state, "H1", "A8")  # surgery
    return state


def test_holo_decoy_places_the_last_seen_token(yard: str) -> None:
    # Holo Decoy (Blue Jay, SO-A7): after moving unseen, the agent puts the Last Seen
    # token on a square it could have been seen on this turn: one a hunter sees and the
    # agent could have reached. The token is public (SO-A6); that it is a decoy is not
    # (SO-I1); the map still holds the true square (SO-I2).
    state = decoy_game(yard)
    play(state, "agent", "step", "G5")
    play(state, "agent", "step", "H4")
    play(state, "agent", "stop")
    assert state.phase == "agent_after"
    # Row 8 is seen by H1; B8-J8 are within 4 steps of F6 (A8 and K8 are 5 away).
    assert targets(state, "holo-decoy") == {f"{c}8" for c in "BCDEFGHIJ"}
    illegal(state, "agent", "use", "holo-decoy", "D7")  # reachable, not seen
    illegal(state, "agent", "use", "holo-decoy", "K8")  # seen, not reachable
    events = play(state, "agent", "use", "holo-decoy", "D8")
    assert [e.kind for e in public(events)] == ["agent_moved"]
    assert of_kind(events, "agent_moved") == [{"result": "last_seen", "square": "D8"}]
    used = [e for e in events if e.kind == "agent_used"]
    assert used and used[0].to == {"agent"}
    for seat in outsiders(state):
        assert view_of(state, seat)["agent"]["last_seen"] == "D8"
    assert name_of(state, state.focus.square) == "H4"
    assert holds_truth(state)
    assert state.focus.cards["holo-decoy"] == 1


def test_holo_decoy_not_when_seen_at_the_end(yard: str) -> None:
    # Holo Decoy, not applicable: an agent seen at the end of its move is revealed
    # (SO-A5); no decoy squares are offered.
    state = decoy_game(yard)
    play(state, "agent", "step", "F7")
    play(state, "agent", "step", "F8")
    play(state, "agent", "stop")
    assert state.phase == "agent_after"  # the Stealth Field could still be used
    assert not targets(state, "holo-decoy")
    illegal(state, "agent", "use", "holo-decoy", "D8")
    events = play(state, "agent", "done")
    assert of_kind(events, "agent_moved") == [{"result": "revealed", "square": "F8"}]


def test_holo_decoy_only_squares_the_agent_could_reach(corridor: str) -> None:
    # Holo Decoy, SO-A1: the agent in A1; H1 stands in the corridor on D2. E2 can be reached only
    # through D2 (which the agent may not enter, SO-A1); D2 itself is H1's square.
    state = game("blue-jay", ["holo-decoy", "stealth-field", "adrenal-surge"], board=corridor)
    place_hunter(state, "H1", "D2")  # surgery
    play(state, "agent", "stop")
    assert targets(state, "holo-decoy") == {"A2", "B2", "C2"}


def test_holo_decoy_through_a_hunter_keeps_the_true_square(corridor: str) -> None:
    # SO-I2: the same position; a decoy on E2 must not lose the agent.
    state = game("blue-jay", ["holo-decoy", "stealth-field", "adrenal-surge"], board=corridor)
    place_hunter(state, "H1", "D2")  # surgery
    play(state, "agent", "stop")
    if "E2" in targets(state, "holo-decoy"):
        play(state, "agent", "use", "holo-decoy", "E2")
        assert holds_truth(state)  # fails: state.focus.knowledge.squares == 0


def test_holo_decoy_from_a_hunters_square_keeps_the_true_square(yard: str) -> None:
    # SO-I2, SO-H5: H1 ended its move on the hidden agent (F6) and revealed it; the agent moves
    # off unseen (E7, D8) and puts the token on F2, which H1 sees and the agent could
    # have reached (F5, F4, F3, F2).
    state = game("blue-jay", ["holo-decoy", "stealth-field", "adrenal-surge"], board=yard)
    place_hunter(state, "H1", "E9")  # surgery: on foot, row 9 and column E
    events = agent_move(state)
    assert of_kind(events, "agent_moved") == [{"result": "hidden", "square": None}]
    start_turn(state, "H1")
    for square in ("E8", "E7", "F6"):
        play(state, "hunter1", "step", square)
    events = play(state, "hunter1", "stop")
    assert of_kind(events, "announcement")[0]["answer"] == "visible"
    play(state, "hunter1", "end")
    finish_round(state)
    assert hunter(state, "H1").square == state.focus.square
    play(state, "agent", "step", "E7")
    play(state, "agent", "step", "D8")
    play(state, "agent", "stop")
    assert "F2" in targets(state, "holo-decoy")
    play(state, "agent", "use", "holo-decoy", "F2")
    assert holds_truth(state)


def venom_game(yard: str) -> SpecterOpsState:
    """4 players: the Cobra on H6; H1 on foot on H2 (4 away), H2 on foot on C6 (5 away),
    H3 aboard the vehicle on K6 (3 away)."""
    state = game("cobra", players=4, board=yard, hunters=("gun", "beast", "prophet"))
    place_agent(state, "H6")
    place_vehicle(state, "K6")  # surgery
    place_hunter(state, "H1", "H2")
    place_hunter(state, "H2", "C6")
    return state


def test_venom_dart_stuns_one_hunter_on_foot_within_4(yard: str) -> None:
    # Venom Dart (Cobra, SO-A7): stun a hunter on foot within 4 (SO-H4); not one aboard
    # (SO-V4), not one 5 away. Public, with the hunter.
    state = venom_game(yard)
    assert targets(state, "venom-dart") == {"H1"}
    illegal(state, "agent", "use", "venom-dart", "H2")  # 5 away
    illegal(state, "agent", "use", "venom-dart", "H3")  # aboard
    events = play(state, "agent", "use", "venom-dart", "H1")
    assert of_kind(public(events), "equipment") == [
        {"card": "venom-dart", "moment": "before", "hunter": "H1", "stunned": ["H1"]}
    ]
    assert [h.stunned for h in state.hunters] == [True, False, False]
    assert state.focus.cards["venom-dart"] == 1
    agent_move(state, "I7")
    assert holds_truth(state)
    # The stunned hunter moves at most 2 (SO-H4).
    seat = start_turn(state, "H1")
    assert view_of(state, seat)["current"]["limit"] == 2


def test_med_kit_regains_one_health_up_to_the_start(yard: str) -> None:
    # Med Kit (Orangutan, SO-A7, SO-S6, SO-A9): regain 1 health, never above the starting
    # health; public.
    state = game("orangutan", ["med-kit", "smoke-grenade", "flash-bang"], board=yard)
    assert ("med-kit",) not in uses(state)  # full health: nothing to regain
    illegal(state, "agent", "use", "med-kit")
    # A hit in real play: H1 ends on the hidden agent's square (SO-H5, SO-X2: an
    # automatic hit).
    place_hunter(state, "H1", "D9")  # surgery: on foot, row 9 and column D
    events = agent_move(state, "E7")
    assert of_kind(events, "agent_moved") == [{"result": "hidden", "square": None}]
    start_turn(state, "H1")
    play(state, "hunter1", "step", "E8")
    play(state, "hunter1", "step", "E7")
    play(state, "hunter1", "stop")
    events = play(state, "hunter1", "attack")
    assert of_kind(events, "attack")[0]["hit"] and state.focus.health == 5
    finish_round(state)
    assert ("med-kit",) in uses(state)
    events = play(state, "agent", "use", "med-kit")
    assert of_kind(public(events), "equipment") == [
        {"card": "med-kit", "moment": "before", "health": 6}
    ]
    assert state.focus.health == state.focus.max_health == 6
    assert state.focus.cards["med-kit"] == 0  # one use (SO-A8)
    agent_move(state, "D6")
    assert holds_truth(state)


def test_signal_jammer_sensor_answers_jammed(yard: str) -> None:
    # Signal Jammer (Spider, SO-A7): this round the motion sensor detects nothing (SO-V5);
    # public. The next round it works again.
    state = game("spider", ["signal-jammer", "adrenal-surge", "smoke-grenade"], board=yard)
    events = play(state, "agent", "use", "signal-jammer")
    assert of_kind(public(events), "equipment") == [{"card": "signal-jammer", "moment": "before"}]
    assert view_of(state, "hunter1")["sensor_jammed"] is True
    agent_move(state, "F5", "F4", "F3")  # 3 steps: the sensor would give a bearing
    seat = start_turn(state, "H1")
    events = play(state, seat, "sensor")
    assert of_kind(events, "sensor") == [{"hunter": "H1", "answer": "jammed"}]
    assert holds_truth(state)
    finish_round(state)
    assert view_of(state, "hunter1")["sensor_jammed"] is False
    agent_move(state, "G4", "H5", "I6")
    seat = start_turn(state, "H1")
    events = play(state, seat, "sensor")
    answer = of_kind(events, "sensor")[0]["answer"]
    assert answer not in ("jammed", "no movement detected")
    assert holds_truth(state)


# ====================================================================== characters


def cobra_game(yard: str, seed: int = 0, agent: str = "cobra") -> SpecterOpsState:
    """The hidden agent on F6 (round 1 over, unseen); H1 (Gun) on foot on E9."""
    cards = {
        "cobra": ["venom-dart", "smoke-grenade", "flash-bang"],
        "spider": ["signal-jammer", "smoke-grenade", "flash-bang"],
    }[agent]
    state = game(agent, cards, seed=seed, board=yard)
    place_hunter(state, "H1", "E9")  # surgery: row 9 and column E, not F6
    events = agent_move(state)
    assert of_kind(events, "agent_moved") == [{"result": "hidden", "square": None}]
    assert state.focus.shown is None
    start_turn(state, "H1")
    return state


def test_cobra_ambush_on_its_square_stuns(yard: str) -> None:
    # Cobra (SO-H5, SO-H4): a hunter that ends its move on the hidden agent's square is
    # stunned, no roll; public. The stun lasts through the hunter's next turn.
    state = cobra_game(yard)
    play(state, "hunter1", "step", "E8")
    play(state, "hunter1", "step", "E7")
    play(state, "hunter1", "step", "F6")
    events = play(state, "hunter1", "stop")
    ambush = [e for e in events if e.kind == "ambush"]
    assert len(ambush) == 1 and ambush[0].to is None
    assert dict(ambush[0].data) == {"hunter": "H1", "roll": None, "stunned": True}
    assert hunter(state, "H1").stunned
    # It sees the agent on its square, but a stunned hunter may not attack (SO-H4).
    assert of_kind(events, "announcement")[0]["answer"] == "visible"
    assert state.phase != "attack"
    assert state.focus.knowledge.possible_characters() == {"cobra"}
    assert holds_truth(state)
    finish_round(state)
    assert hunter(state, "H1").stunned  # stunned in its own turn: kept for the next
    agent_move(state, "G7", "H8")
    seat = start_turn(state, "H1")
    assert view_of(state, seat)["current"]["limit"] == 2
    play(state, seat, "step", "F7")
    events = play(state, seat, "step", "F8")  # the 2nd step ends the move
    assert of_kind(events, "stun_removed") == [{"hunter": "H1"}]
    assert not hunter(state, "H1").stunned


def test_cobra_ambush_orthogonally_next_rolls_4_or_more(yard: str) -> None:
    # Cobra (SO-H4): a hunter that ends orthogonally next to the hidden agent is stunned
    # on a d6 of 4+; the roll is public. Over seeds, both results occur and follow the rule.
    results = set()
    for seed in range(40):
        state = cobra_game(yard, seed)
        play(state, "hunter1", "step", "E8")
        play(state, "hunter1", "step", "F7")  # south of F6
        events = play(state, "hunter1", "stop")
        (ambush,) = [e for e in events if e.kind == "ambush"]
        assert ambush.to is None
        roll = ambush.data["roll"]
        assert roll in range(1, 7)
        assert ambush.data["stunned"] == (roll >= 4) == hunter(state, "H1").stunned
        assert holds_truth(state)
        results.add(roll >= 4)
        if results == {True, False}:
            break
    assert results == {True, False}


def test_cobra_no_ambush_diagonally(yard: str) -> None:
    # Cobra, not applicable: diagonally next (E7 to F6) is no ambush; the map notes that
    # a Cobra is not orthogonally next to E7 (SO-I2).
    state = cobra_game(yard)
    play(state, "hunter1", "step", "E8")
    events = play(state, "hunter1", "step", "E7")
    events += play(state, "hunter1", "stop")
    assert not of_kind(events, "ambush")
    assert not hunter(state, "H1").stunned
    assert holds_truth(state)


def test_cobra_no_ambush_when_the_agent_is_shown(yard: str) -> None:
    # Cobra, not applicable: only the hidden agent ambushes; once revealed, a hunter may
    # end next to it (and attack).
    state = game("cobra", ["venom-dart", "smoke-grenade", "flash-bang"], board=yard)
    place_hunter(state, "H1", "F9")  # surgery: sees column F
    events = agent_move(state)
    assert of_kind(events, "agent_moved") == [{"result": "revealed", "square": "F6"}]
    start_turn(state, "H1")
    play(state, "hunter1", "step", "F8")
    events = play(state, "hunter1", "step", "F7")
    events += play(state, "hunter1", "stop")
    assert not of_kind(events, "ambush")
    assert not hunter(state, "H1").stunned
    assert state.phase == "attack"
    assert Action("hunter1", "attack") in state.legal_actions("hunter1")


def test_no_ambush_by_another_character(yard: str) -> None:
    # Cobra, not applicable: another agent on the same square ambushes nobody.
    state = cobra_game(yard, agent="spider")
    for square in ("E8", "E7", "F6"):
        play(state, "hunter1", "step", square)
    events = play(state, "hunter1", "stop")
    assert not of_kind(events, "ambush")
    assert not hunter(state, "H1").stunned
    assert state.phase == "attack"


@pytest.mark.parametrize("distance", range(1, 9))
def test_spider_minus_2_from_within_3(distance: int) -> None:
    # Spider (SO-X1, SO-X3, SO-X4, SO-X5): hunters attacking from within 3 squares get -2
    # on the roll (exact odds).
    near = distance <= 3
    assert attack_modifier("", "spider", distance) == (-2 if near else 0)
    expected = exploding_check(6, distance, modifier=-2 if near else 0)
    assert attack_dice("", "spider", distance).dist() == expected.dist()
    # Other agents: the plain roll (SO-X1...X5).
    for other in ("cobra", "orangutan", "blue-jay", ""):
        assert attack_dice("", other, distance).dist() == exploding_check(6, distance).dist()
    if near:
        assert hit_chance(attack_dice("", "spider", distance)) < hit_chance(
            attack_dice("", "cobra", distance)
        )


@pytest.mark.parametrize(("distance", "modifier"), [(3, -2), (4, 0)])
def test_spider_modifier_in_a_real_attack(yard: str, distance: int, modifier: int) -> None:
    # Spider (SO-X1, SO-H2): the public attack event names the modifier (-2 within 3,
    # none at 4).
    state = game("spider", ["signal-jammer", "smoke-grenade", "flash-bang"], board=yard)
    place_hunter(state, "H1", f"F{6 - distance}")  # surgery: on foot, column F
    agent_move(state)
    start_turn(state, "H1")
    play(state, "hunter1", "stop")
    (attack,) = of_kind(play(state, "hunter1", "attack"), "attack")
    assert attack["distance"] == distance and attack["modifier"] == modifier


@pytest.mark.parametrize("distance", range(1, 11))
def test_gun_best_of_two_attacks(distance: int) -> None:
    # Gun (SO-X1...SO-X5): two attack rolls, the better kept: P(hit) = 1 - (1 - p)^2
    # exactly.
    p = hit_chance(exploding_check(6, distance))
    assert hit_chance(attack_dice("gun", "", distance)) == 1 - (1 - p) ** 2
    assert hit_chance(attack_dice("beast", "", distance)) == p  # not applicable
    # With the Spider's -2 both rolls carry it.
    q = hit_chance(exploding_check(6, distance, modifier=-2 if distance <= 3 else 0))
    assert hit_chance(attack_dice("gun", "spider", distance)) == 1 - (1 - q) ** 2


def test_gun_attack_dice_are_public(yard: str) -> None:
    state = game("cobra", ["venom-dart", "smoke-grenade", "flash-bang"], board=yard)
    place_hunter(state, "H1", "F2")  # surgery: a Gun on foot, 4 from the agent
    agent_move(state)
    start_turn(state, "H1")
    play(state, "hunter1", "stop")
    (attack,) = of_kind(play(state, "hunter1", "attack"), "attack")
    assert len(attack["dice"]) >= 2


@pytest.mark.parametrize("distance", range(1, 11))
def test_prophet_plus_2_natural_1_misses(distance: int) -> None:
    # Prophet (SO-X1, SO-X3, SO-X5): +2 to attack rolls; a natural 1 still misses.
    dice = attack_dice("prophet", "", distance)
    assert attack_modifier("prophet", "", distance) == 2
    assert dice.dist() == exploding_check(6, distance, modifier=2).dist()
    if distance <= 3:
        assert hit_chance(dice) == Fraction(5, 6)  # every roll but the natural 1
    assert hit_chance(dice) >= hit_chance(exploding_check(6, distance))
    # Prophet against the Spider close by: +2 - 2.
    assert attack_modifier("prophet", "spider", distance) == (0 if distance <= 3 else 2)


def test_prophet_natural_1_misses_in_play(yard: str) -> None:
    # Prophet, in play (SO-X3): at distance 1 a natural 1 misses despite the +2; other
    # faces hit.
    seen = set()
    for seed in range(60):
        state = game(
            "cobra",
            ["venom-dart", "smoke-grenade", "flash-bang"],
            seed=seed,
            board=yard,
            hunters=("prophet", "gun"),
        )
        place_hunter(state, "H1", "F5")  # surgery: next to the agent, column F
        agent_move(state)
        start_turn(state, "H1")
        play(state, "hunter1", "stop")
        (attack,) = of_kind(play(state, "hunter1", "attack"), "attack")
        assert attack["distance"] == 1 and attack["modifier"] == 2
        assert attack["hit"] == (attack["dice"][0] != 1)
        seen.add(attack["hit"])
        if seen == {True, False}:
            break
    assert seen == {True, False}


def blue_jay_objective(yard: str, agent: str, square: str) -> list[dict[str, Any]]:
    """The agent ends round 1 on ``square``; the objectives completed at its next turn."""
    cards = {
        "blue-jay": ["holo-decoy", "stealth-field", "adrenal-surge"],
        "cobra": ["venom-dart", "smoke-grenade", "flash-bang"],
    }[agent]
    state = game(agent, cards, board=yard)
    place_agent(state, square)
    agent_move(state)
    assert of_kind(state.events, "agent_moved")[-1]["result"] == "hidden"
    events = finish_round(state)
    assert holds_truth(state)
    done = of_kind(events, "objectives_completed")
    return done[0]["completed"] if done else []


@pytest.mark.parametrize(
    ("agent", "square", "completed"),
    [
        ("blue-jay", "C5", True),  # 2 south of C3
        ("blue-jay", "E5", True),  # 2 diagonally
        ("blue-jay", "C6", False),  # 3 away
        ("blue-jay", "F3", False),  # 3 away along the row
        ("cobra", "C5", False),  # 2 away: only the Blue Jay
        ("cobra", "C4", True),  # next to it (SO-O1)
    ],
)
def test_blue_jay_completes_objectives_from_2(
    yard: str, agent: str, square: str, completed: bool
) -> None:
    # Blue Jay (SO-O1, SO-O2): objectives are completed from up to 2 squares away, not 3.
    done = blue_jay_objective(yard, agent, square)
    assert done == ([{"sector": 1, "site": "C3"}] if completed else [])


def beast_game(yard: str) -> SpecterOpsState:
    """H1 (Beast) on foot on A12 (5 from C7), H2 (Gun) aboard on K12; the agent moved
    unseen from F6 to C7."""
    state = game(
        "spider",
        ["signal-jammer", "smoke-grenade", "flash-bang"],
        board=yard,
        hunters=("beast", "gun"),
    )
    place_hunter(state, "H1", "A12")  # surgery: on foot
    agent_move(state, "E7", "D7", "C7")
    assert of_kind(state.events, "agent_moved")[-1]["result"] == "hidden"
    start_turn(state, "H1")
    return state


@pytest.mark.parametrize(
    ("path", "near"), [(["B11", "C11", "D11"], True), ([], False), (["B12"], False)]
)
def test_beast_sniffs_after_3_steps_or_fewer(yard: str, path: list[str], near: bool) -> None:
    # Beast (SO-H2's moment, SO-I1, SO-I2): after moving 3 or fewer steps it may sniff: the
    # agent says, in public, whether it is within 4 squares; the map keeps the squares
    # that fit the answer.
    state = beast_game(yard)
    for square in path:
        play(state, "hunter1", "step", square)
    events = play(state, "hunter1", "stop")
    assert of_kind(events, "announcement")[0]["answer"] == "clear"
    assert state.phase == "attack"
    assert Action("hunter1", "sniff") in state.legal_actions("hunter1")
    events = play(state, "hunter1", "sniff")
    (sniff,) = [e for e in events if e.kind == "sniff"]
    assert sniff.to is None and dict(sniff.data) == {"hunter": "H1", "near": near}
    zone = state.geo.within(hunter(state, "H1").square, 4)
    assert state.focus.knowledge.squares & ~(zone if near else ~zone) == 0
    assert holds_truth(state)
    assert state.phase != "attack"  # nothing left to do: the turn ended


def test_beast_no_sniff_after_4_steps(yard: str) -> None:
    # Beast, not applicable: after 4 steps no sniff (the 4th step ends the move).
    state = beast_game(yard)
    for square in ("A11", "A10", "A9", "A8"):
        play(state, "hunter1", "step", square)
    # The 4th step ended the move and the turn: H2 acts now.
    assert state.phase == "hunter" and state.hunters[state.current].id == "H2"
    assert not of_kind(state.events, "sniff")
    # Nor does another hunter character sniff, after 0 steps: getting out ends H2's
    # move, it sees nothing, and the round is over.
    play(state, "hunter1" if state.players == 2 else "hunter2", "step", "J11")
    assert state.phase == "agent"
    assert not of_kind(state.events, "sniff")


def puppet_game(yard: str, *, stunned: bool = False) -> SpecterOpsState:
    """H1 (Puppet) on foot on A11 (``stunned``: as a Flash Bang would leave it), H2 (Gun)
    aboard on K12; the agent moved 3 steps."""
    state = game(
        "cobra",
        ["venom-dart", "smoke-grenade", "flash-bang"],
        board=yard,
        hunters=("puppet", "gun"),
    )
    place_hunter(state, "H1", "A11")  # surgery: on foot, far from the vehicle
    hunter(state, "H1").stunned = stunned  # surgery
    agent_move(state, "E7", "D7", "C7")
    start_turn(state, "H1")
    return state


def test_puppet_sensor_from_anywhere(yard: str) -> None:
    # Puppet (SO-V5, SO-V7): may use the motion sensor from anywhere, instead of moving.
    state = puppet_game(yard)
    kinds = {a.kind for a in state.legal_actions("hunter1")}
    assert {"sensor", "drive", "step", "stop"} <= kinds
    events = play(state, "hunter1", "sensor")
    (sensor,) = of_kind(events, "sensor")
    assert sensor["hunter"] == "H1" and sensor["answer"] not in ("jammed", "no movement detected")
    assert hunter(state, "H1").square == at(state, "A11")  # it did not move
    assert state.vehicle_scanned
    assert holds_truth(state)
    # H2 (aboard since the start of its turn) may not drive a scanned vehicle (SO-V7).
    seat = start_turn(state, "H2")
    assert not [a for a in state.legal_actions(seat) if a.kind == "drive"]


def test_puppet_drives_from_anywhere(yard: str) -> None:
    # Puppet (SO-V1, SO-H3): may drive the vehicle from anywhere, instead of moving; those
    # aboard ride along; the Puppet stays where it is and takes no step after.
    state = puppet_game(yard)
    play(state, "hunter1", "drive", "K11")
    assert not [a for a in state.legal_actions("hunter1") if a.kind in ("step", "sensor")]
    play(state, "hunter1", "drive", "K10")
    events = play(state, "hunter1", "stop")
    assert name_of(state, state.vehicle) == "K10"
    assert hunter(state, "H2").square == at(state, "K10") and hunter(state, "H2").aboard
    assert hunter(state, "H1").square == at(state, "A11") and not hunter(state, "H1").aboard
    assert len(of_kind(events, "announcement")) == 1
    assert holds_truth(state)


def test_a_stunned_puppet_still_drives_from_afar(yard: str) -> None:
    # Ruling (SO-H4 with the Puppet): a stun limits the hunter's own steps (2) and forbids
    # its attack; the remote drive replaces its move and is not a step, so it stands.
    state = puppet_game(yard, stunned=True)
    for square in ("K11", "K10", "K9"):  # more squares than a stunned hunter's 2 steps
        play(state, "hunter1", "drive", square)
    play(state, "hunter1", "stop")
    assert name_of(state, state.vehicle) == "K9"
    assert hunter(state, "H1").square == at(state, "A11")


def test_puppet_not_after_a_step_and_not_other_hunters(yard: str) -> None:
    # Puppet, not applicable (SO-V1, SO-V7): once it has stepped, it moves as any hunter;
    # and a hunter on foot that is not the Puppet may neither drive nor use the sensor.
    state = puppet_game(yard)
    # Before its step a drive off the road is refused for the road, not as if only a
    # hunter aboard could drive.
    error = illegal(state, "hunter1", "drive", "J12", rule="SO-V1")
    assert "road" in error.reason, error.reason
    play(state, "hunter1", "step", "B11")
    assert not [a for a in state.legal_actions("hunter1") if a.kind in ("drive", "sensor")]
    # The refusals say why: the Puppet's remote use replaces its move.
    for kind, args, rule in (("sensor", (), "SO-V7"), ("drive", ("K11",), "SO-V1")):
        error = illegal(state, "hunter1", kind, *args, rule=rule)
        assert "before its first step" in error.reason, error.reason
    other = game(
        "cobra",
        ["venom-dart", "smoke-grenade", "flash-bang"],
        board=yard,
        hunters=("gun", "puppet"),
    )
    place_hunter(other, "H1", "A11")  # surgery: a Gun on foot
    agent_move(other, "E7", "D7", "C7")
    start_turn(other, "H1")
    assert not [a for a in other.legal_actions("hunter1") if a.kind in ("drive", "sensor")]
    illegal(other, "hunter1", "sensor", rule="SO-V7")
    illegal(other, "hunter1", "drive", "K11", rule="SO-V1")


# ====================================================================== the stun (SO-H4)


def test_h4_flash_bang_stun_in_real_play(yard: str) -> None:
    # SO-H4 reachable in real play: a Flash Bang in the agent's turn stuns H1; in its
    # next turn H1 moves at most 2 steps and may not attack although it sees the agent;
    # the stun is removed at the end of that turn. The round after, it moves and attacks.
    state = game("spider", ["flash-bang", "smoke-grenade", "stealth-field"], board=yard)
    place_hunter(state, "H1", "F2")  # surgery: a Gun on foot, column F
    play(state, "agent", "use", "flash-bang", "F5")
    assert hunter(state, "H1").stunned
    events = agent_move(state, "E7", "D8")
    # Seen on F6 where it started (SO-A6), unseen after.
    assert of_kind(events, "agent_moved") == [{"result": "last_seen", "square": "F6"}]
    seat = start_turn(state, "H1")
    assert view_of(state, seat)["current"]["limit"] == 2
    play(state, seat, "step", "E3")
    events = play(state, seat, "step", "D4")  # the 2nd step ends the move
    assert of_kind(events, "announcement") == [
        {"hunter": "H1", "answer": "visible", "square": "D8"}
    ]
    assert not of_kind(events, "attack") and state.phase != "attack"
    assert of_kind(events, "stun_removed") == [{"hunter": "H1"}]
    assert not hunter(state, "H1").stunned
    assert state.to_act() == {"hunter2"}
    finish_round(state)
    # Not stunned now: 3 steps, then an attack.
    events = agent_move(state)
    assert of_kind(events, "agent_moved")[0]["result"] == "revealed"
    seat = start_turn(state, "H1")
    assert view_of(state, seat)["current"]["limit"] == 4
    for square in ("D5", "D6", "D7"):
        play(state, seat, "step", square)
    play(state, seat, "stop")
    assert state.phase == "attack"
    assert Action(seat, "attack") in state.legal_actions(seat)


def test_h4_stunned_hunter_that_sees_the_agent_may_not_attack(yard: str) -> None:
    # SO-H4: a stunned hunter that sees the agent after 1 step may not attack.
    state = game("spider", ["flash-bang", "smoke-grenade", "stealth-field"], board=yard)
    place_hunter(state, "H1", "F2")  # surgery
    play(state, "agent", "use", "flash-bang", "F4")
    agent_move(state)  # stays on F6: H1 sees it at the end, so it is revealed
    seat = start_turn(state, "H1")
    illegal(state, seat, "attack", rule="SO-H4")
    play(state, seat, "step", "F3")
    events = play(state, seat, "stop")
    assert of_kind(events, "announcement")[0]["answer"] == "visible"
    assert state.phase != "attack"
    assert of_kind(events, "stun_removed") == [{"hunter": "H1"}]


# ====================================================================== notation


def test_notation_for_characters_and_cards() -> None:
    # SO-S4, SO-A7: `character H1 gun`, `character cobra`, `card flash-bang`,
    # `use flash-bang N3`, `use venom-dart h1`, `use adrenal-surge`, `sniff`, `done`; a
    # `move` may use the Adrenal Surge's 6 steps, not 7.
    state = new(3)
    parse = RS.parse_actions
    assert parse("character h1 Gun", "hunter1", state) == [
        Action("hunter1", "character", ("H1", "gun"))
    ]
    play(state, "hunter1", "character", "H1", "gun")
    play(state, "hunter2", "character", "H2", "beast")
    assert parse("character Cobra", "agent", state) == [Action("agent", "character", ("cobra",))]
    play(state, "agent", "character", "cobra")
    assert parse("card Venom-Dart", "agent", state) == [Action("agent", "card", ("venom-dart",))]
    for card in ("venom-dart", "flash-bang", "adrenal-surge"):
        play(state, "agent", "card", card)
    assert parse("use flash-bang n3", "agent", state) == [
        Action("agent", "use", ("flash-bang", "N3"))
    ]
    assert parse("use venom-dart h1", "agent", state) == [
        Action("agent", "use", ("venom-dart", "H1"))
    ]
    for action in parse("use adrenal-surge", "agent", state):
        state.apply(action)
    six = parse("move N1 N2 N3 N4 N5 N6 N7", "agent", state)
    assert [a.kind for a in six] == ["step"] * 6  # the 6th step ends the move
    with pytest.raises(IllegalActionError) as info:
        parse("move N1 N2 N3 N4 N5 N6 N7 N8", "agent", state)
    assert info.value.rule == "SO-A1"
    assert parse("done", "agent", state) == [Action("agent", "done")]
    assert parse("sniff", "hunter2", state) == [Action("hunter2", "sniff")]


# ====================================================================== random play


def _outside_the_agents_turn(state: SpecterOpsState) -> bool:
    if state.phase in ("order", "hunter", "attack"):
        return True
    return state.phase == "agent" and len(state.focus.path) == 1 and not state.focus.used_before


def random_game(
    players: int, seed: int, per_turn: int, board: str = "specter-ops"
) -> tuple[SpecterOpsState, Recorder]:
    config = {
        "players": players,
        "characters": True,
        "max_rounds": 10,
        "equipment_per_turn": per_turn,
        "board": board,
    }
    recorder = Recorder(RS, config, seed)
    state = recorder.state
    assert isinstance(state, SpecterOpsState)
    encoding = RS.encoding(recorder.config)
    rng = stream(seed, "test-characters", players)
    checked = 0
    while not state.is_over:
        (seat,) = state.to_act()
        legal = state.legal_actions(seat)
        attack = [a for a in legal if a.kind == "attack"]
        if attack and seed % 2:
            action = attack[0]  # aggressive hunters in half the games
        else:
            # A kind first, then one of its actions: cards with a square target would
            # otherwise crowd out the steps.
            kind = rng.choice(sorted({a.kind for a in legal}))
            action = rng.choice([a for a in legal if a.kind == kind])
        recorder.apply(action)
        # The protocol: exactly the seats in to_act have legal actions, and every legal
        # action round-trips through the encoding.
        to_act = state.to_act()
        for s in state.seats:
            acts = state.legal_actions(s)
            assert bool(acts) == (s in to_act), (s, to_act, state.phase)
            assert int(encoding.legal_mask(state, s).sum()) == len(acts) == len(set(acts))
            for a in acts:
                assert encoding.decode(encoding.encode(a), s) == a
        if _outside_the_agents_turn(state):
            # SO-I2: the true square, kit and character are in the map.
            assert state.focus.knowledge.squares >> state.focus.square & 1, (seed, "square")
            assert true_kit(state) in state.focus.knowledge.possible_kits(), (seed, true_kit(state))
            assert state.focus.character in state.focus.knowledge.possible_characters()
            checked += 1
    assert checked > 20
    assert state.focus.character in AGENTS
    return state, recorder


def _views(state: Any) -> list[str]:
    return [state.view(seat).canonical() for seat in (*RS.seats(state.config), None)]


BOARDS = Path(__file__).parent / "boards"


@pytest.mark.parametrize(
    ("players", "per_turn", "board", "seeds"),
    [
        (2, 1, "specter-ops", range(0, 20)),
        (2, 2, "specter-ops", range(100, 120)),
        (3, 1, "specter-ops", range(200, 220)),
        (3, 2, "specter-ops", range(300, 320)),
        # Small boards: hunters meet the agent often (ambush, sniff, stuns, attacks).
        (2, 1, "small", range(400, 440)),
        (3, 2, "small", range(500, 540)),
        (2, 2, "tight", range(600, 640)),
        (3, 1, "tight", range(700, 740)),
        (3, 2, "yard", range(800, 830)),
    ],
)
def test_random_play_with_characters(
    request: pytest.FixtureRequest, players: int, per_turn: int, board: str, seeds: Iterable[int]
) -> None:
    # SO-I2, SO-S4, SO-A7, SO-A8 and the protocol in every reachable state of random games
    # with characters (every agent character, random cards and uses).
    if board == "yard":
        board = request.getfixturevalue("yard")
    elif board != "specter-ops":
        board = str(BOARDS / f"{board}.board")
    characters = set()
    kinds: set[str] = set()
    for seed in seeds:
        state, recorder = random_game(players, seed, per_turn, board)
        characters.add(state.focus.character)
        kinds |= {e.kind for e in state.events}
        if seed % 7 == 0:
            # The record replays to the same views, step by step, and outcome.
            record = Record.loads(recorder.record().dumps())
            assert record.outcome == state.outcome()
            live = RS.new_game(record.config, record.seed)
            originals = [_views(live)]
            for action in record.actions:
                live.apply(action)
                originals.append(_views(live))
            assert [_views(s) for s in record.states(clone=False)] == originals
            assert _views(record.replay()) == _views(state)
    assert len(characters) >= 3
    assert {"equipment", "agent_used"} <= kinds


def test_cobra_ambush_rolls_the_object_its_odds_read(
    yard: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # SO-H4, the Cobra: the game's roll next to the Cobra is AMBUSH_DIE read by
    # ambush_stuns, the pair `fogofwar odds specter-ops ambush` gives the odds of.
    from fogofwar.games.specter_ops.state import sightings

    monkeypatch.setattr(sightings, "ambush_stuns", lambda face: face == 1)
    for seed in range(6):
        state = cobra_game(yard, seed)
        play(state, "hunter1", "step", "E8")
        play(state, "hunter1", "step", "F7")
        (ambush,) = [e for e in play(state, "hunter1", "stop") if e.kind == "ambush"]
        assert ambush.data["stunned"] == (ambush.data["roll"] == 1)
