"""The Specter Ops 5-player traitor game: rules SO-T2 to SO-T6 (and SO-G1's switch).

Each test names the rules it checks (``# SO-T3``) and plays a case where the rule
applies and one where it does not. Positions are reached by legal play from
``new_game`` and, where that would take long, by "surgery" on public fields (hunter
squares, the vehicle) or on an agent's secret square; every such place says so, and an
agent moved by hand gets a map holding exactly its square (so the map stays true).

Default board squares used below (see the board file): the agent starts on N1; the
N-O road runs from row 1 to row 14, so a hunter on N6, O6 or O9 sees columns N and O
up to row 1 (SO-L2); P7 and P9 (off the road) do not see column N; M2, L2 and M3 lie
off the road; the vehicle starts on K23, far from all of them.
"""

from __future__ import annotations

from typing import Any

import pytest

from fogofwar.core.errors import IllegalActionError, InvalidNotationError
from fogofwar.core.game import Action, Event, get_ruleset
from fogofwar.core.rng import stream
from fogofwar.games.specter_ops.knowledge import PossibilityMap
from fogofwar.games.specter_ops.state import SpecterOpsState

from .helpers import (
    SMALL,
    at,
    finish_round,
    hunter,
    of_kind,
    place_hunter,
    place_vehicle,
    play,
    start_turn,
)

RS = get_ruleset("specter-ops")
HUNTER_SEATS = ("hunter1", "hunter2", "hunter3", "hunter4")

# ====================================================================== helpers


def new(seed: int = 0, **options: Any) -> SpecterOpsState:
    state = RS.new_game({"characters": False, "players": 5, **options}, seed)
    assert isinstance(state, SpecterOpsState)
    return state


def dealt(traitor: str = "H3", seed: int = 0, **options: Any) -> SpecterOpsState:
    """A traitor game just after the agent dealt the traitor card to ``traitor``."""
    state = new(seed, **options)
    play(state, "agent", "traitor", traitor)
    assert state.phase == "agent" and state.round == 1
    return state


def agent_move(state: SpecterOpsState, *squares: str) -> list[Event]:
    """The agent in focus steps to ``squares`` and ends its move (stop, then done)."""
    focus = state.focus_index
    seat = state.agents[focus].seat
    events: list[Event] = []
    for square in squares:
        events += play(state, seat, "step", square)
    if state.phase == "agent" and state.focus_index == focus:
        events += play(state, seat, "stop")
    if state.phase == "agent_after" and state.focus_index == focus:
        events += play(state, seat, "done")
    return events


def hidden_round(traitor: str = "H3", seed: int = 0, **options: Any) -> SpecterOpsState:
    """Round 2's agent turn: in round 1 the agent went N1-M2 unseen and the hunters all
    stayed aboard the vehicle on K23."""
    state = dealt(traitor, seed, **options)
    events = agent_move(state, "M2")
    assert of_kind(events, "agent_moved") == [{"result": "hidden", "square": None}]
    finish_round(state)
    assert state.round == 2 and state.phase == "agent"
    return state


def place_agent(state: SpecterOpsState, index: int, square: str) -> None:
    # Surgery: agent ``index``'s true square (its turn starts there, its figure is off
    # the board); its map holds only that square, its hidden dimensions kept.
    a = state.agents[index]
    i = at(state, square)
    a.square = i
    a.path = [i]
    a.turn_start = i
    a.shown = None
    k = a.knowledge
    a.knowledge = PossibilityMap.start(i, k.possible_sites(), k.possible_kits(), k.possible_roles())
    if index == 0 and state.traitor_map is not None:
        traitor = state.traitor
        state.traitor_map = a.knowledge.roles_where(lambda r: r[0] == traitor)


def view(state: SpecterOpsState, seat: str | None) -> dict[str, Any]:
    data: dict[str, Any] = state.view(seat).to_json()["view"]
    return data


def seen_events(state: SpecterOpsState, seat: str | None, kind: str) -> list[dict[str, Any]]:
    """The events of ``kind`` of the whole game that ``seat`` receives."""
    return [dict(e.data) for e in state.events if e.kind == kind and e.visible_to(seat)]


def refused(state: SpecterOpsState, seat: str, kind: str, *args: str, rule: str | None) -> str:
    """The action is illegal with ``rule`` and changes nothing; return the reason."""
    events = len(state.events)
    before = {s: view(state, s) for s in (*state.seats, None)}
    with pytest.raises(IllegalActionError) as info:
        play(state, seat, kind, *args)
    assert info.value.rule == rule, info.value.reason
    assert len(state.events) == events
    assert {s: view(state, s) for s in (*state.seats, None)} == before
    reason, explained = state.explain_illegal(Action(seat, kind, tuple(args)))
    assert (reason, explained) == (info.value.reason, rule)
    return reason


def kinds(state: SpecterOpsState, seat: str) -> set[str]:
    return {a.kind for a in state.legal_actions(seat)}


def accusable(state: SpecterOpsState, seat: str) -> set[str]:
    return {str(a.args[0]) for a in state.legal_actions(seat) if a.kind == "accuse"}


def sees(state: SpecterOpsState, viewer: str, square: str) -> bool:
    return bool(state.sight()[at(state, viewer)] >> at(state, square) & 1)


# ====================================================================== SO-T2 the deal


def test_t2_deal_phase_only_the_agent_deals() -> None:
    # SO-T2: at the end of setup the agent deals the roles: only it acts, and its legal
    # actions are exactly "traitor H1" ... "traitor H4"; the hunters wait.
    state = new()
    assert state.phase == "deal" and state.to_act() == {"agent"}
    assert state.traitor == "" and not state.traitor_revealed
    assert state.legal_actions("agent") == [
        Action("agent", "traitor", (f"H{k}",)) for k in range(1, 5)
    ]
    for seat in HUNTER_SEATS:
        assert state.legal_actions(seat) == []
    # Before the deal the agent may not move, nor deal to a figure that is not a hunter.
    assert "deals the role cards" in refused(state, "agent", "step", "N2", rule="SO-T2")
    refused(state, "agent", "traitor", "H5", rule="SO-T2")
    refused(state, "hunter1", "accuse", "H2", rule=None)  # not its turn
    assert view(state, "hunter1")["phase"] == "setup"
    assert view(state, None)["traitor"] == {
        "dealt": False,
        "revealed": None,
        "accusations": {},
        "failed": 0,
        "possible": [],
        "resume": None,
    }
    assert "role" not in view(state, "hunter1")
    # After the deal: the agent's first turn; the card is not dealt twice.
    play(state, "agent", "traitor", "H2")
    assert state.phase == "agent" and state.round == 1
    assert (state.traitor, state.traitor_seat) == ("H2", "hunter2")
    assert not any(a.kind == "traitor" for a in state.legal_actions("agent"))
    assert refused(state, "agent", "traitor", "H1", rule="SO-T2")
    assert view(state, None)["traitor"]["dealt"] is True


def test_t2_deal_events_and_their_audiences() -> None:
    # SO-T2: the agent learns who got the traitor card; everyone learns that the roles
    # were dealt; each hunter seat learns its own role and no one else's.
    state = new()
    events = play(state, "agent", "traitor", "H3")
    (dealt_event,) = [e for e in events if e.kind == "traitor_dealt"]
    assert dealt_event.to == frozenset({"agent"})
    assert dict(dealt_event.data) == {"hunter": "H3", "seat": "hunter3"}
    (public,) = [e for e in events if e.kind == "roles_dealt"]
    assert public.to is None and dict(public.data) == {"hunters": ["H1", "H2", "H3", "H4"]}
    roles = [e for e in events if e.kind == "role"]
    assert [(e.to, dict(e.data)) for e in roles] == [
        (frozenset({"hunter1"}), {"hunter": "H1", "role": "loyal"}),
        (frozenset({"hunter2"}), {"hunter": "H2", "role": "loyal"}),
        (frozenset({"hunter3"}), {"hunter": "H3", "role": "traitor"}),
        (frozenset({"hunter4"}), {"hunter": "H4", "role": "loyal"}),
    ]
    # Each seat's view of the events: its own role only; the spectator none.
    for k, seat in enumerate(HUNTER_SEATS):
        got = [e for e in view(state, seat)["events"] if e["kind"] in ("role", "traitor_dealt")]
        assert got == [{"kind": "role", "hunter": f"H{k + 1}", "role": roles[k].data["role"]}]
    spectator = view(state, None)["events"]
    assert not [e for e in spectator if e["kind"] in ("role", "traitor_dealt")]
    assert [e["kind"] for e in spectator if e["kind"] == "roles_dealt"] == ["roles_dealt"]
    agent_events = [e["kind"] for e in view(state, "agent")["events"]]
    assert "traitor_dealt" in agent_events and "role" not in agent_events


def test_t2_views_show_each_hunter_its_own_role_and_the_agent_the_traitor() -> None:
    # SO-T2: hunters do not know each other's roles; the agent knows the traitor.
    state = dealt("H4")
    for seat in HUNTER_SEATS:
        v = view(state, seat)
        mine = seat == "hunter4"
        assert v["role"] == {
            "role": "traitor" if mine else "loyal",
            "concealed": [] if mine else None,
            "proves": None,  # SO-T4: no concealed sighting yet, nothing proven
        }
        assert "secret" not in v
        assert v["traitor"] == {
            "dealt": True,
            "revealed": None,
            "accusations": {},
            "failed": 0,
            "possible": ["H1", "H2", "H3", "H4"],  # the public map allows any of them
            "resume": None,
        }
    assert view(state, "agent")["secret"]["traitor"] == "H4"
    spectator = view(state, None)
    assert "role" not in spectator and "secret" not in spectator
    # The deal leaves no public trace of who: the public view is the same whoever got it.
    other = dealt("H1")
    assert view(other, None) == spectator
    # Without a traitor (the switch off) there is no deal, no role, no traitor field.
    plain = new(traitor=False)
    assert plain.phase == "agent" and not plain.traitor_game
    assert "role" not in view(plain, "hunter1") and "traitor" not in view(plain, None)
    assert "traitor" not in view(plain, "agent")["secret"]


def test_t2_deal_comes_after_the_character_picks() -> None:
    # SO-T2 "at the end of setup", SO-S4: with characters the hunters pick, then the
    # agent its character and 3 cards (SO-T1), and only then does it deal the roles.
    state = new(characters=True)
    phases = []
    for k, char in enumerate(("beast", "gun", "prophet", "puppet")):
        phases.append(state.phase)
        refused(state, "agent", "traitor", "H1", rule=None)  # not the agent's turn yet
        play(state, f"hunter{k + 1}", "character", f"H{k + 1}", char)
    phases.append(state.phase)
    play(state, "agent", "character", "spider")
    for card in ("flash-bang", "smoke-grenade", "signal-jammer"):
        phases.append(state.phase)
        refused(state, "agent", "traitor", "H1", rule="SO-S4")  # cards first
        play(state, "agent", "card", card)
    assert phases == ["pick_hunter"] * 4 + ["pick_agent"] + ["pick_cards"] * 3
    assert state.phase == "deal" and state.to_act() == {"agent"}
    assert len(state.focus.cards) == 3
    play(state, "agent", "traitor", "H1")
    assert state.phase == "agent" and state.traitor == "H1"
    assert view(state, "hunter1")["role"]["role"] == "traitor"


# ====================================================================== SO-T3 concealed sight


def test_t3_seen_only_by_the_traitor_at_the_end_of_the_move() -> None:
    # SO-T3: the agent ends its move in sight of the traitor only: no figure, no Last
    # Seen token; the agent and the traitor (only) are told of the concealed sighting.
    state = hidden_round("H3")
    place_hunter(state, "H3", "N6")  # surgery: the traitor got out and walked to N6
    assert sees(state, "N6", "N3")
    events = agent_move(state, "N3")
    assert of_kind(events, "agent_moved") == [{"result": "hidden", "square": None}]
    assert state.agents[0].shown is None and state.agents[0].last_seen is None
    (sighting,) = [e for e in events if e.kind == "concealed_sighting"]
    assert sighting.to == frozenset({"agent", "hunter3"})
    assert dict(sighting.data) == {"hunter": "H3", "square": "N3", "moment": "agent_turn"}
    assert state.concealed == [{"round": 2, "moment": "agent_turn", "square": "N3"}]
    for seat in ("hunter1", "hunter2", "hunter4", None):
        assert not seen_events(state, seat, "concealed_sighting")
        assert view(state, seat)["agent"]["revealed_at"] is None
        assert view(state, seat)["agent"]["last_seen"] is None
    assert seen_events(state, "agent", "concealed_sighting") == [dict(sighting.data)]
    assert view(state, "hunter3")["role"]["concealed"] == state.concealed
    # The sightings a view lists are the seat's own copies (a review's finding): written
    # into by the agent's and the traitor's bots, the game's are unchanged.
    view(state, "hunter3")["role"]["concealed"][0]["square"] = "A1"
    view(state, "agent")["secret"]["concealed"][0].clear()
    assert state.concealed == [{"round": 2, "moment": "agent_turn", "square": "N3"}]
    # The traitor's own map knows where the agent is; a loyal hunter's allows N3 too
    # (the traitor may be H3), and the public map allows a sighting by H3.
    assert view(state, "hunter3")["possible"] == ["N3"]
    assert "N3" in view(state, "hunter1")["possible"]
    assert ("H3", True) in state.agents[0].knowledge.possible_roles()


def test_t3_an_agent_that_cannot_move_stays_in_every_map() -> None:
    # SO-A3 (R), SO-I2: the agent may stay where it may not end (the vehicle's square)
    # when it cannot move at all: here the dead end A1 (its one way out, A2, held by
    # the traitor on foot) with the vehicle parked on it and no one aboard. Only the
    # traitor sees it (SO-T3), so the move is hidden; every map keeps the true square
    # (they once lost it: a move's end on the vehicle's square was ruled out).
    state = hidden_round("H3")
    for hid, square in (("H1", "M20"), ("H2", "N20"), ("H4", "O20"), ("H3", "A2")):
        place_hunter(state, hid, square)  # surgery: everyone on foot
    place_vehicle(state, "A1")  # surgery: parked in the dead end
    place_agent(state, 0, "A1")
    assert state.legal_actions("agent") == [Action("agent", "stop")]
    events = agent_move(state)
    assert of_kind(events, "agent_moved") == [{"result": "hidden", "square": None}]
    assert state.agents[0].knowledge.squares == 1 << at(state, "A1")
    assert state.traitor_map is not None and state.traitor_map.squares == 1 << at(state, "A1")
    for seat in (*HUNTER_SEATS, None):
        assert view(state, seat)["possible"] == ["A1"], seat


def test_t3_seen_by_a_loyal_hunter_is_an_ordinary_reveal() -> None:
    # SO-T3 does not apply when a loyal hunter sees the agent as well (or alone): the
    # figure is placed (SO-A5) and there is no concealed sighting.
    for squares in ({"H3": "N6", "H1": "O6"}, {"H1": "N6"}):
        state = hidden_round("H3")
        for hid, square in squares.items():
            place_hunter(state, hid, square)  # surgery: hunters on foot on the road
        events = agent_move(state, "N3")
        assert of_kind(events, "agent_moved") == [{"result": "revealed", "square": "N3"}]
        assert state.agents[0].shown == at(state, "N3")
        assert not of_kind(events, "concealed_sighting") and state.concealed == []
        for seat in (*HUNTER_SEATS, None):
            assert view(state, seat)["agent"]["revealed_at"] == "N3"
            assert view(state, seat)["possible"] == ["N3"]


def test_t3_seen_only_by_the_traitor_during_the_move_leaves_no_token() -> None:
    # SO-T3 with SO-A6: seen mid-move by the traitor only, unseen at the end: no Last
    # Seen token and no concealed sighting (that is only at the end of the move).
    state = hidden_round("H3")
    place_hunter(state, "H3", "N6")  # surgery
    assert sees(state, "N6", "N2") and not sees(state, "N6", "M3")
    events = agent_move(state, "N2", "M3")
    assert of_kind(events, "agent_moved") == [{"result": "hidden", "square": None}]
    assert state.agents[0].last_seen is None and state.concealed == []
    assert not of_kind(events, "concealed_sighting")
    # The same move in sight of a loyal hunter: Last Seen on N2.
    state = hidden_round("H3")
    place_hunter(state, "H1", "N6")  # surgery
    events = agent_move(state, "N2", "M3")
    assert of_kind(events, "agent_moved") == [{"result": "last_seen", "square": "N2"}]
    assert state.agents[0].last_seen == at(state, "N2")


def announcement_setup(mover: str) -> SpecterOpsState:
    """Round 2, hunters' turn: the agent went M2-N3 unseen; ``mover`` on foot on P9 (out
    of sight of column N) is about to step onto the road at O9 (in sight of N3)."""
    state = hidden_round("H3")
    agent_move(state, "N3")
    assert state.agents[0].shown is None and state.concealed == []
    place_hunter(state, mover, "P9")  # surgery: the hunter got out and walked to P9
    assert not sees(state, "P9", "N3") and sees(state, "O9", "N3")
    return state


def test_t3_traitor_announcement_answers_clear() -> None:
    # SO-T3, SO-H3: the traitor ends its move in sight of the hidden agent: the agent
    # answers "Clear", is not placed, and the sighting is a concealed one (agent and
    # traitor only); the traitor gets no attack on an agent that is not on the board.
    state = announcement_setup("H3")
    seat = start_turn(state, "H3")
    events = play(state, seat, "step", "O9") + play(state, seat, "stop")
    assert of_kind(events, "announcement") == [{"hunter": "H3", "answer": "clear", "square": None}]
    (sighting,) = [e for e in events if e.kind == "concealed_sighting"]
    assert sighting.to == frozenset({"agent", "hunter3"})
    assert dict(sighting.data) == {"hunter": "H3", "square": "N3", "moment": "hunter_turn"}
    assert state.concealed == [{"round": 2, "moment": "hunter_turn", "square": "N3"}]
    assert state.agents[0].shown is None
    assert hunter(state, "H3").acted and state.phase != "attack"  # no attack offered
    assert view(state, "hunter3")["possible"] == ["N3"]
    assert not seen_events(state, "hunter1", "concealed_sighting")


def test_t3_loyal_announcement_places_the_agent() -> None:
    # SO-T3 does not apply to a loyal hunter: the same move places the agent (SO-H3)
    # and it may attack (SO-H2); no concealed sighting. SO-T4: no accusation now.
    state = announcement_setup("H2")
    seat = start_turn(state, "H2")
    events = play(state, seat, "step", "O9") + play(state, seat, "stop")
    assert of_kind(events, "announcement") == [
        {"hunter": "H2", "answer": "visible", "square": "N3"}
    ]
    assert not of_kind(events, "concealed_sighting") and state.concealed == []
    assert state.phase == "attack" and Action(seat, "attack") in state.legal_actions(seat)
    assert "own turn" in refused(state, seat, "accuse", "H3", rule="SO-T4")


def test_t3_traitor_may_attack_a_placed_agent() -> None:
    # SO-T3: only a concealed agent is out of the traitor's reach: once a loyal hunter
    # has placed the figure, the traitor seeing it is offered an attack (SO-H2).
    state = announcement_setup("H2")
    place_hunter(state, "H3", "P7")  # surgery: the traitor on foot, out of sight of N3
    assert not sees(state, "P7", "N3") and sees(state, "O7", "N3")
    seat = start_turn(state, "H2")
    play(state, seat, "step", "O9")
    play(state, seat, "stop")
    play(state, seat, "end")  # H2 does not attack
    seat = start_turn(state, "H3")
    play(state, seat, "step", "O7")
    play(state, seat, "stop")
    assert state.phase == "attack" and Action(seat, "attack") in state.legal_actions(seat)
    assert state.concealed == []


def test_t3_traitor_seeing_a_placed_agent_answers_visible() -> None:
    # SO-T3, SO-H3: "Clear" means "not visible to this hunter". The figure already stands
    # in the traitor's sight (a loyal hunter placed it), so the answer is "visible":
    # nothing is concealed, and the traitor may attack it.
    state = hidden_round("H3")
    place_hunter(state, "H1", "O6")  # surgery: a loyal hunter and the traitor on the road
    place_hunter(state, "H3", "N6")
    agent_move(state, "N3")
    assert state.agents[0].shown == at(state, "N3")
    seat = start_turn(state, "H3")
    events = play(state, seat, "stop")
    assert of_kind(events, "announcement") == [
        {"hunter": "H3", "answer": "visible", "square": "N3"}
    ]


def test_t3_traitor_seeing_a_placed_agent_does_not_expose_it() -> None:
    # SO-T2, SO-T3, SO-I2: the traitor stopping in sight of an agent that is already on
    # the board tells nobody anything about roles: the public map keeps all four
    # possible traitors (it must not single out the traitor).
    state = hidden_round("H3")
    place_hunter(state, "H1", "O6")  # surgery
    place_hunter(state, "H3", "N6")
    agent_move(state, "N3")
    assert state.agents[0].knowledge.possible_traitors() == {"H1", "H2", "H3", "H4"}
    seat = start_turn(state, "H3")
    play(state, seat, "stop")
    assert state.agents[0].knowledge.possible_traitors() == {"H1", "H2", "H3", "H4"}


def test_t3_traitor_map_excludes_what_the_traitor_sees_without_a_sighting() -> None:
    # SO-T3, SO-I2: the traitor knows it saw no concealed sighting (it would have been
    # told), so its own map cannot hold a square it saw at the end of the agent's move.
    state = hidden_round("H3")
    place_hunter(state, "H3", "N6")  # surgery
    events = agent_move(state, "L2")
    assert not of_kind(events, "concealed_sighting")
    mine = view(state, "hunter3")["possible"]
    assert "L2" in mine
    # A loyal hunter rightly allows N3 (the traitor, if H3, would not have told).
    assert "N3" in view(state, "hunter1")["possible"]
    assert [sq for sq in mine if sees(state, "N6", sq)] == []


# ====================================================================== SO-T4 accusations


def test_t4_accuse_only_at_the_start_of_the_own_turn() -> None:
    # SO-T4 (R): a hunter accuses at the start of its own turn: not while the hunters
    # choose who acts, not after a step or a drive, not in its attack phase.
    state = hidden_round("H3")
    agent_move(state, "L2")
    assert state.phase == "order"
    reason = refused(state, "hunter1", "accuse", "H2", rule="SO-T4")
    assert "start of its own turn" in reason
    seat = start_turn(state, "H1")
    assert accusable(state, seat) == {"H2", "H3", "H4"}  # not itself
    drive = next(a for a in state.legal_actions(seat) if a.kind == "drive")
    state.apply(drive)
    assert accusable(state, seat) == set()
    assert "before moving" in refused(state, seat, "accuse", "H2", rule="SO-T4")
    # On foot: before the first step yes, after it no.
    state = hidden_round("H3")
    agent_move(state, "L2")
    place_hunter(state, "H2", "P9")  # surgery: H2 on foot
    seat = start_turn(state, "H2")
    assert accusable(state, seat) == {"H1", "H3", "H4"}
    play(state, seat, "step", "O10")
    refused(state, seat, "accuse", "H1", rule="SO-T4")
    assert "accuse" not in kinds(state, seat)


def test_t4_a_clone_keeps_its_own_accusations() -> None:
    # SO-T4: an accusation made in a copy of the game (a bot's look-ahead, a search) is
    # not made in the game: clones used to share the accusations.
    state = hidden_round("H3")
    agent_move(state, "L2")
    seat = start_turn(state, "H1")
    twin = state.clone()
    play(twin, seat, "accuse", "H4")
    assert "accuse" not in kinds(twin, seat)
    assert accusable(state, seat) == {"H2", "H3", "H4"}
    assert view(state, None)["traitor"]["accusations"] == {}


def test_t4_once_per_seat_and_not_of_itself() -> None:
    # SO-T4 (R): each hunter seat accuses once per game, never itself; the traitor's
    # seat may accuse too (so that the option gives nothing away).
    state = hidden_round("H3")
    agent_move(state, "L2")
    seat = start_turn(state, "H1")
    assert "one of the other hunters" in refused(state, seat, "accuse", "H1", rule="SO-T4")
    events = play(state, seat, "accuse", "H4")
    assert of_kind(events, "accusation") == [
        {"hunter": "H1", "seat": "hunter1", "accused": "H4", "proven": False}
    ]
    assert "only once" in refused(state, seat, "accuse", "H2", rule="SO-T4")
    assert "accuse" not in kinds(state, seat)
    play(state, seat, "stop")
    seat = start_turn(state, "H3")  # the traitor's seat
    assert accusable(state, seat) == {"H1", "H2", "H4"}
    assert "reveal" in kinds(state, seat)
    finish_round(state)
    agent_move(state, "K3")
    seat = start_turn(state, "H1")  # round 3: hunter1 has used its accusation
    assert "accuse" not in kinds(state, seat)
    refused(state, seat, "accuse", "H3", rule="SO-T4")
    assert view(state, None)["traitor"]["accusations"] == {"hunter1": "H4"}


def test_t4_accusation_proven_reveals_the_traitor() -> None:
    # SO-T4: the accused is the traitor and the record holds a concealed sighting: the
    # accusation is proven and the traitor revealed; the accuser's turn goes on.
    state = announcement_setup("H3")
    seat = start_turn(state, "H3")
    play(state, seat, "step", "O9")
    play(state, seat, "stop")  # a concealed sighting at the traitor's announcement
    assert len(state.concealed) == 1
    seat = start_turn(state, "H4")  # after H3 in the list: its index moves on the reveal
    events = play(state, seat, "accuse", "H3")
    assert of_kind(events, "accusation") == [
        {"hunter": "H4", "seat": "hunter4", "accused": "H3", "proven": True}
    ]
    (revealed,) = [e for e in events if e.kind == "traitor_revealed"]
    assert revealed.to is None
    assert dict(revealed.data) == {
        "hunter": "H3",
        "seat": "hunter3",
        "square": "O9",
        "how": "accused",
    }  # no record of where it saw the agent: that stays the traitor's and the agent's
    assert state.traitor_revealed and [h.id for h in state.hunters] == ["H1", "H2", "H4"]
    assert state.phase == "hunter" and state.to_act() == {"hunter4"}
    assert state.current is not None and state.hunters[state.current].id == "H4"
    assert "accuse" not in kinds(state, seat)
    play(state, seat, "stop")  # the round goes on with the hunters left to act
    assert [h.id for h in state.hunters if not h.acted] == ["H1", "H2"]
    assert state.failed_accusations == 0
    assert view(state, "hunter2")["traitor"]["revealed"] == "H3"


def test_t4_accusation_of_a_loyal_hunter_fails() -> None:
    # SO-T4: the accused is loyal: the failure is announced and nothing else happens;
    # the map learns that the accused, were it the traitor, had no concealed sighting.
    state = hidden_round("H3")
    place_hunter(state, "H2", "N6")  # surgery: loyal H2 watches the road
    agent_move(state, "L2")  # unseen by anyone
    roles = state.agents[0].knowledge.possible_roles()
    assert ("H2", True) in roles  # had H2 been the traitor, it might have seen the agent
    assert "N3" in view(state, "hunter1")["possible"]
    seat = start_turn(state, "H1")
    hunters_before = [(h.id, h.square, h.aboard) for h in state.hunters]
    events = play(state, seat, "accuse", "H2")
    assert [e.kind for e in events] == ["accusation"] and events[0].to is None
    assert dict(events[0].data)["proven"] is False
    assert not state.traitor_revealed and len(state.agents) == 1
    assert [(h.id, h.square, h.aboard) for h in state.hunters] == hunters_before
    assert state.phase == "hunter" and state.to_act() == {seat} and state.failed_accusations == 1
    assert state.agents[0].knowledge.possible_roles() == roles - {("H2", True)}
    assert "N3" not in view(state, "hunter1")["possible"]
    assert state.agents[0].knowledge.squares >> state.agents[0].square & 1
    assert view(state, "hunter3")["traitor"]["accusations"] == {"hunter1": "H2"}


def test_t4_accusing_the_traitor_without_a_concealed_sighting_fails() -> None:
    # SO-T4: right about the traitor, but nothing in the record shows it: not proven.
    state = hidden_round("H3")
    place_hunter(state, "H3", "N6")  # surgery
    agent_move(state, "L2")  # the traitor does not see the agent
    assert state.concealed == []
    assert ("H3", True) in state.agents[0].knowledge.possible_roles()
    seat = start_turn(state, "H4")
    events = play(state, seat, "accuse", "H3")
    assert of_kind(events, "accusation") == [
        {"hunter": "H4", "seat": "hunter4", "accused": "H3", "proven": False}
    ]
    assert not state.traitor_revealed and "H3" in [h.id for h in state.hunters]
    assert not of_kind(events, "traitor_revealed")
    roles = state.agents[0].knowledge.possible_roles()
    assert ("H3", True) not in roles and ("H3", False) in roles
    assert state.agents[0].knowledge.squares >> state.agents[0].square & 1


def test_t4_voluntary_reveal_only_by_the_traitor() -> None:
    # SO-T4: the traitor may reveal itself at the start of its turn (its turn ends); a
    # loyal hunter may not "reveal".
    state = hidden_round("H3")
    agent_move(state, "L2")
    seat = start_turn(state, "H2")
    assert "reveal" not in kinds(state, seat)
    assert "only the traitor" in refused(state, seat, "reveal", rule="SO-T4")
    play(state, seat, "stop")
    seat = start_turn(state, "H3")
    assert "reveal" in kinds(state, seat)
    events = play(state, seat, "reveal")
    (revealed,) = of_kind(events, "traitor_revealed")
    assert revealed == {
        "hunter": "H3",
        "seat": "hunter3",
        "square": "K23",
        "how": "voluntary",
    }
    assert state.traitor_revealed and state.current is None  # its turn is over
    assert state.phase == "order" and state.to_act() <= {"hunter1", "hunter4"}
    # Not after a step: the reveal is at the start of the turn.
    state = hidden_round("H3")
    agent_move(state, "L2")
    place_hunter(state, "H3", "P9")  # surgery
    seat = start_turn(state, "H3")
    play(state, seat, "step", "O10")
    refused(state, seat, "reveal", rule="SO-T4")


def test_t4_the_traitor_may_reveal_itself_after_its_accusation() -> None:
    # SO-T4: "the traitor may also reveal voluntarily", whatever it did with its one
    # accusation (every seat has one, the traitor's too, so that it gives nothing away).
    state = hidden_round("H3")
    agent_move(state, "L2")
    seat = start_turn(state, "H3")
    events = play(state, seat, "accuse", "H1")
    assert of_kind(events, "accusation")[0]["proven"] is False
    assert "reveal" in kinds(state, seat) and "accuse" not in kinds(state, seat)
    (revealed,) = of_kind(play(state, seat, "reveal"), "traitor_revealed")
    assert revealed["hunter"] == "H3" and revealed["how"] == "voluntary"


def test_t4_nothing_to_accuse_once_revealed() -> None:
    # SO-T4: after the reveal there are no accusations and no reveal.
    state = hidden_round("H3")
    agent_move(state, "L2")
    seat = start_turn(state, "H3")
    play(state, seat, "reveal")
    seat = start_turn(state, "H1")
    assert not kinds(state, seat) & {"accuse", "reveal"}
    assert "already been revealed" in refused(state, seat, "accuse", "H2", rule="SO-T4")
    refused(state, seat, "reveal", rule="SO-T4")


@pytest.mark.parametrize(
    "config",
    [{"characters": False, "players": 5, "traitor": False}, {"characters": False, "players": 4}],
)
def test_t4_no_accusations_without_a_traitor(config: dict[str, Any]) -> None:
    # SO-G1, SO-T4: without a traitor (the switch off, or not 5 players) nobody accuses.
    state = RS.new_game(config, 0)
    assert isinstance(state, SpecterOpsState) and state.phase == "agent"
    agent_move(state, "M2")
    seat = start_turn(state, "H1")
    assert not kinds(state, seat) & {"accuse", "reveal"}
    assert "5-player game" in refused(state, seat, "accuse", "H2", rule="SO-G1")
    refused(state, seat, "reveal", rule="SO-G1")


# ====================================================================== SO-T5 the second agent


def revealed_game(where: str = "P9", traitor: str = "H3") -> SpecterOpsState:
    """Round 2: the agent went M2-L2 unseen; the traitor, on foot on ``where``, revealed
    itself at the start of its turn."""
    state = hidden_round(traitor)
    agent_move(state, "L2")
    place_hunter(state, traitor, where)  # surgery: the traitor got out and walked there
    seat = start_turn(state, traitor)
    play(state, seat, "reveal")
    return state


def test_t5_the_traitor_becomes_a_second_agent() -> None:
    # SO-T5: the traitor's figure leaves the hunters; a second agent A2 starts on its
    # square (public), with 4 health, moved by the traitor's seat.
    state = revealed_game("P9")
    (second,) = seen_events(state, None, "second_agent")
    assert second == {"agent": "A2", "seat": "hunter3", "square": "P9", "health": 4}
    assert "H3" not in [h.id for h in state.hunters]
    a2 = state.agents[1]
    assert (a2.id, a2.seat, a2.square, a2.health, a2.max_health) == (
        "A2",
        "hunter3",
        at(state, "P9"),
        4,
        4,
    )
    assert a2.shown == a2.square and a2.cards == {}
    assert state.traitor_map is None
    for seat in (*state.seats, None):
        v = view(state, seat)
        assert v["agent2"]["revealed_at"] == "P9" and v["agent2"]["health"] == 4
        assert v["possible2"] == ["P9"]
        assert v["traitor"]["revealed"] == "H3"
        # After the reveal everybody shares the public map of A1.
        assert v["possible"] == view(state, None)["possible"]
    assert view(state, "hunter3")["secret"]["square"] == "P9"
    assert "secret" not in view(state, "hunter1")
    # Before a reveal there is no second agent.
    assert view(hidden_round("H3"), None)["agent2"] is None
    assert view(hidden_round("H3"), None)["possible2"] is None


def reveal_with_characters(a1: str, traitor: str = "H2") -> SpecterOpsState:
    """Characters on; A1 chose ``a1`` and 3 cards; round 1's hunters: ``traitor`` (aboard)
    reveals itself at the start of its turn; A2's setup comes next."""
    state = new(characters=True)
    for k, char in enumerate(("beast", "gun", "prophet", "puppet")):
        play(state, f"hunter{k + 1}", "character", f"H{k + 1}", char)
    play(state, "agent", "character", a1)
    while state.phase == "pick_cards":
        play(state, "agent", "card", str(state.legal_actions("agent")[0].args[0]))
    play(state, "agent", "traitor", traitor)
    agent_move(state, "M2")
    seat = start_turn(state, traitor)
    play(state, seat, "reveal")
    return state


def test_t5_second_agent_character_and_cards() -> None:
    # SO-T5: A2 picks a character not in use (A1's is excluded) and exactly 2 cards;
    # the Orangutan gets its +2 (6 health); the choices are its seat's secret.
    state = reveal_with_characters("spider")
    assert state.phase == "pick_agent" and state.to_act() == {"hunter2"}
    assert {str(a.args[0]) for a in state.legal_actions("hunter2")} == {
        "cobra",
        "orangutan",
        "blue-jay",
    }
    refused(state, "hunter2", "character", "spider", rule="SO-S4")
    (second,) = seen_events(state, None, "second_agent")
    assert second == {"agent": "A2", "seat": "hunter2", "square": "K23"}
    play(state, "hunter2", "character", "orangutan")
    assert state.phase == "pick_cards"
    play(state, "hunter2", "card", "med-kit")
    assert state.phase == "pick_cards"
    play(state, "hunter2", "card", "stealth-field")
    assert state.phase != "pick_cards" and state.to_act() <= {"hunter1", "hunter3", "hunter4"}
    a2 = state.agents[1]
    assert a2.character == "orangutan" and (a2.health, a2.max_health) == (6, 6)
    assert a2.cards == {"med-kit": 1, "stealth-field": 3}
    picks = [e for e in state.events if e.kind in ("agent_character", "agent_card")]
    assert picks and all(e.to == frozenset({"hunter2"}) for e in picks[-3:])
    assert view(state, "hunter1")["agent2"]["character"] is None
    assert view(state, "hunter2")["secret"]["character"] == "orangutan"
    # Another character keeps the base 4 health.
    state = reveal_with_characters("orangutan", traitor="H4")
    assert "orangutan" not in {str(a.args[0]) for a in state.legal_actions("hunter4")}
    play(state, "hunter4", "character", "cobra")
    while state.phase == "pick_cards":
        play(state, "hunter4", "card", str(state.legal_actions("hunter4")[0].args[0]))
    assert state.agents[1].health == 4 and len(state.agents[1].cards) == 2


def test_t5_second_agent_moves_right_after_the_first() -> None:
    # SO-T5 (R): from the next round, A2 takes its turn right after A1's, each round;
    # then the hunters act. With two agents the events name the agent.
    state = revealed_game("P9")
    assert state.round == 2
    assert not [
        e
        for e in state.events[state.round_events :]
        if e.kind == "agent_turn" and "agent" in e.data
    ]
    finish_round(state)
    assert state.round == 3 and state.phase == "agent" and state.to_act() == {"agent"}
    events = agent_move(state, "K3")
    assert state.phase == "agent" and state.focus_index == 1 and state.to_act() == {"hunter3"}
    assert of_kind(events, "agent_moved") == [{"result": "hidden", "agent": "A1", "square": None}]
    events = agent_move(state, "O10")
    assert state.phase in ("order", "hunter") and state.focus_index == 0
    turns = [dict(e.data) for e in state.events[state.round_events :] if e.kind == "agent_turn"]
    assert turns == [{"round": 3, "agent": "A1"}, {"round": 3, "agent": "A2"}]
    assert not of_kind(state.events[state.round_events :], "hunter_turn")  # hunters next
    (moved,) = of_kind(events, "agent_moved")
    assert moved["agent"] == "A2"
    finish_round(state)
    turns = [dict(e.data) for e in state.events[state.round_events :] if e.kind == "agent_turn"]
    assert turns == [{"round": 4, "agent": "A1"}]


def test_t5_second_agent_is_hidden_with_its_own_map() -> None:
    # SO-T5: A2 moves in secret (SO-A4): its square is its seat's secret, the others
    # get its public map ("possible2"), which always holds its true square.
    state = revealed_game("P9")
    finish_round(state)
    agent_move(state, "K3")
    assert state.focus_index == 1 and state.agents[1].shown == at(state, "P9")
    events = agent_move(state, "O10", "O11", "O12")
    a2 = state.agents[1]
    assert a2.square == at(state, "O12") and a2.shown is None and a2.last_seen is None
    assert of_kind(events, "agent_moved") == [{"result": "hidden", "agent": "A2", "square": None}]
    path = [e for e in events if e.kind == "agent_path"]
    assert [e.to for e in path] == [frozenset({"hunter3"})]  # the path goes to A2's seat only
    assert view(state, "hunter3")["secret"]["square"] == "O12"
    assert view(state, "hunter3")["secret"]["path"] == ["P9", "O10", "O11", "O12"]
    for seat in ("hunter1", "hunter4", None):
        v = view(state, seat)
        assert "O12" in v["possible2"] and len(v["possible2"]) > 1
        assert v["agent2"]["revealed_at"] is None and "secret" not in v
    # The agent's seat keeps its own secret map (A1's), not A2's.
    assert view(state, "agent")["secret"]["square"] == "K3"
    # A2's map keeps its true square through the hunters' turns (SO-I2).
    while state.phase != "agent":
        (seat,) = state.to_act()
        action = state.legal_actions(seat)[0] if state.phase == "order" else Action(seat, "stop")
        state.apply(action)
        assert a2.knowledge.squares >> a2.square & 1


def test_t5_attacks_name_the_agent() -> None:
    # SO-T5: with two agents an attack names its target, A1 or A2 (SO-H2: seen on the
    # board); the attack event names it too.
    state = hidden_round("H3")
    place_hunter(state, "H1", "N6")  # surgery: loyal H1 watches the road
    agent_move(state, "N3")
    assert state.agents[0].shown == at(state, "N3")
    place_hunter(state, "H3", "P9")  # surgery: the traitor on foot
    place_hunter(state, "H2", "P7")  # surgery
    seat = start_turn(state, "H3")
    play(state, seat, "reveal")
    seat = start_turn(state, "H2")
    play(state, seat, "step", "O8")
    play(state, seat, "step", "O9")
    play(state, seat, "stop")
    assert sees(state, "O9", "N3") and sees(state, "O9", "P9")
    assert state.phase == "attack"
    attacks = {a.args for a in state.legal_actions(seat) if a.kind == "attack"}
    assert attacks == {("A1",), ("A2",)}
    refused(state, seat, "attack", rule="SO-H2")
    events = play(state, seat, "attack", "A2")
    (attack,) = of_kind(events, "attack")
    assert attack["agent"] == "A2" and attack["distance"] == 1
    assert state.agents[1].health == 4 - attack["hit"]
    assert state.agents[0].health == 4


def test_t5_second_agent_completes_no_objectives() -> None:
    # SO-T5 (R): A2 does not complete objectives; A1 does, at the start of its turn.
    state = revealed_game("P9")
    site0, site1 = (state.geo.name(s) for s in state.sites[:2])
    assert (site0, site1) == ("B10", "T10")  # seed 0's sites of sectors 1 and 2
    place_agent(state, 0, "A9")  # surgery: A1 next to sector 1's site B10
    place_agent(state, 1, "T9")  # surgery: A2 next to sector 2's site T10
    finish_round(state)
    completed = of_kind(state.events[state.round_events :], "objectives_completed")
    assert completed == [{"completed": [{"sector": 1, "site": "B10"}], "done": 1}]
    agent_move(state)  # A1 stays
    assert state.focus_index == 1 and state.agents[1].square == at(state, "T9")
    assert of_kind(state.events[state.round_events :], "objectives_completed") == completed
    assert state.done == [True, False, False, False]


# ====================================================================== SO-T6 the end


def test_t6_agent_escapes_while_the_traitor_is_unrevealed() -> None:
    # SO-T6: 3 objectives done and A1 escapes (at H1, a 5-player escape point, SO-T1)
    # while the traitor is unrevealed: the agent and the traitor win.
    for done, over in (([True, True, True, False], True), ([True, True, False, False], False)):
        state = dealt("H2")
        state.done = list(done)  # surgery: objectives completed
        place_agent(state, 0, "H2")  # surgery: the agent next to the north gate H1
        agent_move(state, "H1")
        outcome = state.outcome()
        if not over:
            assert outcome is None and not state.agents[0].escaped
            continue
        assert outcome is not None and outcome.rule == "SO-T6"
        assert outcome.winners == {"agent", "hunter2"} and outcome.sides == {"agent"}
        assert "traitor" in outcome.reason


def test_t6_after_a_reveal_both_agents_must_escape() -> None:
    # SO-T6: with two agents, A1 escaping alone does not end the game (it leaves the
    # board and takes no more turns); when A2 escapes too, the agents win.
    state = revealed_game("P9")
    finish_round(state)
    state.done = [True, True, True, False]  # surgery: objectives completed
    place_agent(state, 0, "H2")  # surgery: A1 next to the north gate
    events = agent_move(state, "H1")
    assert of_kind(events, "escaped") == [{"square": "H1", "agent": "A1"}]
    assert state.outcome() is None and state.agents[0].escaped
    assert state.phase == "agent" and state.focus_index == 1
    agent_move(state, "O10")  # A2 does not escape this round
    assert state.outcome() is None
    finish_round(state)
    turns = [dict(e.data) for e in state.events[state.round_events :] if e.kind == "agent_turn"]
    assert turns == [{"round": 4, "agent": "A2"}] and state.to_act() == {"hunter3"}
    place_agent(state, 1, "B3")  # surgery: A2 next to the west gate A3
    events = agent_move(state, "A3")
    assert of_kind(events, "escaped") == [{"square": "A3", "agent": "A2"}]
    outcome = state.outcome()
    assert outcome is not None and outcome.rule == "SO-T6"
    assert outcome.winners == {"agent", "hunter3"} and outcome.sides == {"agent"}
    final = view(state, "hunter1")["final"]
    assert final["traitor"] == "H3" and final["agent2"]["square"] == "A3"


def eliminate(target: str) -> SpecterOpsState:
    """Round 2: A1 revealed on N3 by loyal H1 (on N6); the traitor H3 revealed itself on
    P9; the target's health set to 1 (surgery); H2 steps onto the target's square."""
    state = hidden_round("H3")
    place_hunter(state, "H1", "N6")  # surgery
    agent_move(state, "N3")
    place_hunter(state, "H3", "P9")  # surgery
    seat = start_turn(state, "H3")
    play(state, seat, "reveal")
    index = 0 if target == "A1" else 1
    state.agents[index].health = 1  # surgery: one health left
    square = "N3" if target == "A1" else "P9"
    place_hunter(state, "H2", "N4" if target == "A1" else "O10")  # surgery: next to it
    seat = start_turn(state, "H2")
    play(state, seat, "step", square)
    play(state, seat, "stop")
    play(state, seat, "attack", target)  # distance 0: a hit (SO-X2)
    return state


@pytest.mark.parametrize("target", ["A1", "A2"])
def test_t6_hunters_win_when_either_agent_is_eliminated(target: str) -> None:
    # SO-T6: either agent's health reaching 0 wins for the hunters; the traitor's seat
    # (now an agent) is not among the winners.
    state = eliminate(target)
    outcome = state.outcome()
    assert outcome is not None and outcome.rule == "SO-T6" and outcome.sides == {"hunters"}
    assert outcome.winners == {"hunter1", "hunter2", "hunter4"}
    assert target in outcome.reason


def test_t6_hunters_win_without_a_reveal_traitor_excluded() -> None:
    # SO-E3 with SO-T6: the agent eliminated while the traitor is unrevealed: the loyal
    # hunters win, the (secret) traitor loses with the agent.
    state = hidden_round("H4")
    place_hunter(state, "H1", "N6")  # surgery
    agent_move(state, "N3")
    state.agents[0].health = 1  # surgery
    seat = start_turn(state, "H1")
    for square in ("N5", "N4", "N3"):
        play(state, seat, "step", square)
    play(state, seat, "stop")
    play(state, seat, "attack")
    outcome = state.outcome()
    assert outcome is not None and outcome.rule == "SO-E3"
    assert outcome.winners == {"hunter1", "hunter2", "hunter3"}
    assert view(state, None)["final"]["traitor"] == "H4"


def test_t6_round_limit_hunters_win() -> None:
    # SO-G3 with SO-T6: the last round ends without an escape: the loyal hunters win.
    state = dealt("H1", max_rounds=1)
    agent_move(state, "M2")
    finish_round(state)
    outcome = state.outcome()
    assert outcome is not None and outcome.rule == "SO-G3" and outcome.sides == {"hunters"}
    assert outcome.winners == {"hunter2", "hunter3", "hunter4"}
    final = view(state, "hunter2")["final"]
    assert final["traitor"] == "H1" and final["concealed"] == [] and "agent2" not in final
    # With a round to go, the game goes on.
    state = dealt("H1", max_rounds=2)
    agent_move(state, "M2")
    finish_round(state)
    assert state.outcome() is None and state.round == 2


# ====================================================================== SO-R1 with a reveal


def test_t5_revealed_hunter1_no_longer_orders_the_hunters() -> None:
    # SO-R1, SO-T5: the hunters choose their order; once H1 is revealed its seat plays
    # A2 for the agents' side, so a loyal hunter's seat chooses who acts next.
    state = hidden_round("H1")
    agent_move(state, "L2")
    seat = start_turn(state, "H1")
    play(state, seat, "reveal")
    assert state.phase == "order"
    loyal = {h.seat for h in state.hunters}
    assert loyal == {"hunter2", "hunter3", "hunter4"}
    assert state.to_act() <= loyal


# ====================================================================== secrets


def loyal_views_game(traitor: str, seed: int) -> list[tuple[Any, ...]]:
    """A few rounds in which nobody sees the agent (the hunters stay aboard on K23 and
    stop; one seat accuses H4, loyal in both games); every loyal-in-both view after
    each action."""
    state = dealt(traitor, seed)
    rng = stream(seed, "test")
    out: list[tuple[Any, ...]] = []
    accused = False
    while state.round <= 4:
        (seat,) = state.to_act()
        if state.phase == "agent":
            action = rng.choice(state.legal_actions(seat))
        elif state.phase == "order":
            action = state.legal_actions(seat)[0]
        elif not accused and state.round == 2 and seat == "hunter2":
            action, accused = Action(seat, "accuse", ("H4",)), True
        else:
            action = Action(seat, "stop")
        state.apply(action)
        out.append(tuple(state.view(s).to_json() for s in ("hunter1", "hunter4", None)))
    assert accused and state.concealed == [] and not state.traitor_revealed
    assert {e.data["result"] for e in state.events if e.kind == "agent_moved"} == {"hidden"}
    return out


@pytest.mark.parametrize("seed", [0, 5])
def test_secrets_loyal_view_does_not_depend_on_who_is_the_traitor(seed: int) -> None:
    # SO-T2, SO-I1: a loyal hunter's view and the spectator's are the same whichever
    # OTHER hunter got the traitor card, as long as the game's public course is the same.
    one, other = loyal_views_game("H2", seed), loyal_views_game("H3", seed)
    assert len(one) > 30 and one == other


def random_game(seed: int, **options: Any) -> SpecterOpsState:
    """A random 5-player game (a keyed stream): accusations and reveals are made rarer;
    the maps are checked after every action but during an agent's own move."""
    state = new(seed, max_rounds=15, **options)
    rng = stream(seed, "test")
    while not state.is_over:
        (seat,) = state.to_act()
        actions = state.legal_actions(seat)
        reveal = [a for a in actions if a.kind == "reveal"]
        accuse = [a for a in actions if a.kind == "accuse"]
        other = [a for a in actions if a.kind not in ("reveal", "accuse")]
        r = rng.random()
        if reveal and r < 0.08:
            action = reveal[0]
        elif accuse and r < 0.12:
            action = rng.choice(accuse)
        else:
            action = rng.choice(other)
        state.apply(action)
        if state.phase not in ("agent", "agent_after"):
            check_maps(state)
    return state


def test_secrets_random_games_keep_every_map_true() -> None:
    # SO-I2 with SO-T3…T5: over random 5-player games, every hunter seat's map of A1
    # (a loyal hunter's, the traitor's own) and the public map of A2 hold the true
    # square; the public map allows the true role (SO-T4's hidden dimension).
    games = [random_game(seed, board=SMALL if seed % 5 else "specter-ops") for seed in range(10)]
    assert sum(g.traitor_revealed for g in games) >= 3
    assert sum(bool(g.concealed) for g in games) >= 2
    how = [e.data["how"] for g in games for e in g.events if e.kind == "traitor_revealed"]
    assert "accused" in how and "voluntary" in how
    assert any(g.accused and not g.traitor_revealed for g in games)  # failed accusations


def test_secrets_random_games_with_characters_keep_every_map_true() -> None:
    # SO-I2 with SO-T5's second agent's character and cards (and A1's, SO-S4).
    games = [random_game(seed, board=SMALL, characters=True) for seed in (2, 8)]
    assert all(g.traitor_revealed for g in games)
    assert all(g.agents[1].character != g.agents[0].character for g in games)
    assert all(len(g.agents[1].cards) == 2 for g in games)


def check_maps(state: SpecterOpsState) -> None:
    a1 = state.agents[0]
    name = state.geo.name(a1.square)
    if not a1.escaped:
        for seat in HUNTER_SEATS:
            assert name in view(state, seat)["possible"], (seat, state.round)
        if state.traitor and not state.traitor_revealed:
            role = (state.traitor, bool(state.concealed))
            truth = a1.knowledge.squares_where(lambda r: r == role)
            assert truth >> a1.square & 1
    if len(state.agents) == 2 and not state.agents[1].escaped:
        a2 = state.agents[1]
        assert a2.knowledge.squares >> a2.square & 1
        assert state.geo.name(a2.square) in view(state, None)["possible2"]
    # The views above asked the maps' queries, which each map keeps: the kept answers
    # are a fresh map's (the same groups, nothing asked yet).
    maps = [a.knowledge for a in state.agents]
    if state.traitor_map is not None:
        maps.append(state.traitor_map)
    for m in maps:
        check_kept_answers(m)


def check_kept_answers(m: PossibilityMap) -> None:
    fresh = PossibilityMap(m.groups, m.classes, m.space, m.squares)
    assert m.possible_sites() == fresh.possible_sites()
    assert m.possible_roles() == fresh.possible_roles()
    assert m.possible_traitors() == fresh.possible_traitors()
    assert m.possible_characters() == fresh.possible_characters()
    for seat_figures in ({"H1"}, {"H2"}, {"H3"}, {"H4"}, {"H1", "H2"}, {"H3", "H4"}):
        mine = frozenset(seat_figures)
        assert m.squares_without(mine) == fresh.squares_where(lambda r, mine=mine: r[0] not in mine)
    assert fresh == m  # the kept answers are not part of the map's value


# ====================================================================== notation, reasons


def test_notation_for_the_traitor_game() -> None:
    # SO-T2, SO-T4, SO-T5: "traitor H3", "accuse H2", "reveal", "attack A2".
    state = new()
    assert RS.parse_actions("traitor h3", "agent", state) == [Action("agent", "traitor", ("H3",))]
    assert RS.parse_actions("accuse h2", "hunter1", state) == [Action("hunter1", "accuse", ("H2",))]
    assert RS.parse_actions("reveal", "hunter3", state) == [Action("hunter3", "reveal")]
    assert RS.parse_actions("attack A2", "hunter1", state) == [Action("hunter1", "attack", ("A2",))]
    assert RS.parse_actions("attack", "hunter1", state) == [Action("hunter1", "attack")]
    for bad in ("accuse", "accuse H1 H2", "traitor", "reveal H3", "attack A3"):
        with pytest.raises(InvalidNotationError):
            RS.parse_actions(bad, "hunter1", state)
    # The parsed actions play.
    for action in RS.parse_actions("traitor H3", "agent", state):
        state.apply(action)
    assert state.traitor == "H3"


def test_explain_illegal_names_the_traitor_rules() -> None:
    # SO-T2, SO-T4, SO-G1: the reasons of refused traitor actions name their rules.
    state = new()
    reason, rule = state.explain_illegal(Action("agent", "step", ("N2",)))
    assert rule == "SO-T2" and "deals" in reason
    state = hidden_round("H3")
    agent_move(state, "L2")
    seat = start_turn(state, "H1")
    cases = {
        ("accuse", ("H1",)): "SO-T4",
        ("reveal", ()): "SO-T4",
        ("traitor", ("H2",)): "SO-T2",
    }
    for (kind, args), want in cases.items():
        reason, rule = state.explain_illegal(Action(seat, kind, args))
        assert rule == want and reason
    # A seat that is not to act gets the protocol's reason, no rule.
    reason, rule = state.explain_illegal(Action("hunter2", "accuse", ("H1",)))
    assert rule is None and "may not act now" in reason


def test_t2_the_traitors_own_win_rate_is_a_metric() -> None:
    # SO-T2: the traitor wins with the agent's side. A batch's table lists its seat under
    # the hunters it started with, so a designer could not read how the traitor does:
    # traitor_won is 1 exactly when the traitor's seat is among the winners.
    rs = get_ruleset("specter-ops")
    seen = set()
    for seed in range(12):
        state = rs.new_game({"players": 5}, seed)
        assert rs.metrics(state)["traitor_won"] == 0.0  # probed before the end
        pick = stream(seed, "metric")
        while not state.is_over:
            seat = min(state.to_act())
            state.apply(pick.choice(list(state.legal_actions(seat))))
        outcome = state.outcome()
        assert outcome is not None and state.traitor is not None
        won = f"hunter{state.traitor[1:]}" in outcome.winners
        assert rs.metrics(state)["traitor_won"] == float(won)
        assert won == ("agent" in outcome.winners)  # with the agent's side, never alone
        seen.add(won)
    assert "traitor_won" not in rs.metrics(rs.new_game({"players": 4}, 0))
