"""The observer: seat views of Specter Ops, built from what each seat may know (SO-I1,
SO-I2), and their typed structure (:class:`SpecterOpsView`, read by the bots and the
renderer).

A view is the *public projection* (what every seat and a spectator know: the table,
the announcements, the possibility map) plus, for the agent's seat only, its secret
map; in the traitor game each hunter seat also learns its role, and the traitor its
concealed sightings and, once revealed, its own agent's secret map. The public part is
built from public fields alone; nothing is copied from the whole state and then
deleted. After the game every secret is public (``final``).
"""

from __future__ import annotations

from typing import Any, Final, NotRequired, TypedDict, cast

from ...core.game import PlayerView, fresh_json
from .characters import AGENTS
from .state import AGENT, Agent, Phase, Sighting, SpecterOpsState

__all__ = [
    "PUBLIC_PHASE",
    "AgentView",
    "CurrentView",
    "FinalAgentView",
    "FinalView",
    "FirstAgentView",
    "HunterView",
    "ObjectiveView",
    "RoleView",
    "SecretView",
    "SpecterOpsView",
    "TraitorView",
    "VehicleView",
    "build_view",
    "public_view",
    "view_data",
]

#: The phases as every seat sees them: the agent's turn and its setup look the same from
#: outside, whatever it does.
PUBLIC_PHASE: Final[dict[str, str]] = {
    Phase.AGENT_AFTER: "agent",
    Phase.PICK_HUNTER: "setup",
    Phase.PICK_AGENT: "setup",
    Phase.PICK_CARDS: "setup",
    Phase.DEAL: "setup",
}


#: The phases an agent's own secret map names (its turn and its setup).
_OWN_MOMENTS: Final = frozenset(
    {Phase.AGENT, Phase.AGENT_AFTER, Phase.PICK_HUNTER, Phase.PICK_AGENT, Phase.PICK_CARDS}
)


class CurrentView(TypedDict):
    """The hunter whose turn it is, and its movement so far."""

    hunter: str
    steps: int
    limit: int
    drove: int
    started_aboard: bool
    stunned_at_start: bool  # its stun token when the turn began (removed at the end)
    sniffed: bool  # the Beast has sniffed this turn


class HunterView(TypedDict):
    """A hunter figure (public)."""

    id: str
    seat: str
    square: str
    aboard: bool
    stunned: bool
    acted: bool
    character: str | None


class VehicleView(TypedDict):
    square: str
    moved: bool  # this round (SO-V7)
    scanned: bool  # the sensor was used from it this round


class FirstAgentView(TypedDict):
    """What every seat knows of the (first) agent."""

    character: str | None  # once its card is face up
    health: int | None
    revealed_at: str | None  # its figure on the board
    last_seen: str | None  # its Last Seen token
    objectives_done: int
    escaped: bool
    wounds: int  # hits taken less Med Kit heals (each announced)
    cards_used: dict[str, int]  # its public card uses so far, by card
    possible_characters: list[str]  # the characters the map allows ([] without characters)


class AgentView(TypedDict):
    """What every seat knows of one agent figure (the second one: ``agent2``)."""

    id: str
    character: str | None
    health: int | None
    revealed_at: str | None
    last_seen: str | None
    escaped: bool
    wounds: int
    cards_used: dict[str, int]
    possible_characters: list[str]


class ObjectiveView(TypedDict):
    sector: int
    site: str | None  # hidden with 4-5 players until completed
    done: bool
    possible: list[str] | None  # while hidden: the candidates the map still allows


class TraitorView(TypedDict):
    """The public side of the traitor game (SO-T2…T6)."""

    dealt: bool
    revealed: str | None
    accusations: dict[str, str]  # hunter seat -> the figure it accused
    failed: int  # accusations that failed
    possible: list[str]  # the hunters the public map allows as the traitor
    resume: str | None  # where the hunters' round goes on once A2 is ready (SO-T5)


class RoleView(TypedDict):
    """A hunter seat's role (SO-T2); the traitor's concealed sightings (SO-T3)."""

    role: str  # "traitor" or "loyal"
    concealed: list[Sighting] | None
    # A loyal seat: the hunter the public record proves the traitor (every world of its
    # map has that hunter as the traitor with a concealed sighting, SO-T3), so that an
    # accusation of it is proven (SO-T4); None while it proves none.
    proves: str | None


class SecretView(TypedDict):
    """An agent's own secret map (its seat only)."""

    square: str
    path: list[str]
    steps_left: int | None
    last_move_steps: int
    character: str | None
    health: int
    cards: dict[str, int]
    moment: str | None
    move_limit: int
    used_this_turn: list[str]
    objective_sites: NotRequired[list[str]]  # the first agent's
    traitor: NotRequired[str]  # SO-T2: the agent knows the traitor
    concealed: NotRequired[list[Sighting]]  # SO-T3: the agent is told of each
    characters_left: NotRequired[list[str]]  # the characters not in use when it chose


class FinalAgentView(TypedDict):
    square: str
    character: str | None
    cards: dict[str, int]


class FinalView(TypedDict):
    """Every secret, once the game is over."""

    agent_square: str
    objective_sites: list[str]
    character: str | None
    cards: dict[str, int]
    traitor: NotRequired[str | None]
    concealed: NotRequired[list[Sighting]]
    agent2: NotRequired[FinalAgentView]


class SmokeView(TypedDict):
    """A Smoke Grenade's cloud: its squares, until the agent's turn of round ``until``."""

    area: list[str]
    until: int


class SpecterOpsView(TypedDict):
    """A seat's view of a Specter Ops game (``PlayerView.data``)."""

    config: dict[str, Any]  # the game's options (public)
    round: int
    max_rounds: int
    players: int
    phase: str
    to_act: list[str]
    current: CurrentView | None
    hunters: list[HunterView]
    vehicle: VehicleView
    agent: FirstAgentView
    objectives: list[ObjectiveView]
    smoke: list[str]
    smokes: list[SmokeView]
    sensor_jammed: bool
    jammed_until: int  # the round whose sensor a Signal Jammer blinds (0: none yet)
    possible: list[str]  # the squares the agent may be on (the possibility map)
    possible_count: int
    traitor: NotRequired[TraitorView]  # the traitor game only
    agent2: NotRequired[AgentView | None]
    possible2: NotRequired[list[str] | None]
    events: list[dict[str, Any]]  # this round's events the seat was told
    outcome: dict[str, Any] | None
    secret: NotRequired[SecretView]
    role: NotRequired[RoleView]
    final: NotRequired[FinalView]


def view_data(view: PlayerView) -> SpecterOpsView:
    """A Specter Ops view's data, typed (for the bots and the renderer)."""
    return cast(SpecterOpsView, view.data)


def maps_on_board(data: SpecterOpsView) -> list[list[str]]:
    """The possibility maps (square names) of the agents still on the board: the first
    agent's, and the revealed traitor's second agent's (SO-T5). An agent that has
    escaped is left out: its map is only the square it left from (SO-E1, SO-T6). What
    the hunter bots hunt and the drawings shade."""
    out = [] if data["agent"]["escaped"] else [data["possible"]]
    second = data.get("agent2")
    possible2 = data.get("possible2")
    if second is not None and possible2 and not second["escaped"]:
        out.append(possible2)
    return out


def _public_agent(state: SpecterOpsState, a: Agent) -> AgentView:
    """What every seat knows of one agent figure."""
    geo = state.geo
    known = a.character_public or state.is_over
    chars = a.knowledge.possible_characters() if state.with_characters else ()
    return {
        "id": a.id,
        "character": a.character if known and a.character else None,
        "health": a.health if known else None,
        "revealed_at": None if a.shown is None else geo.name(a.shown),
        "last_seen": None if a.last_seen is None else geo.name(a.last_seen),
        "escaped": a.escaped,
        "wounds": a.max_health - a.health,
        "cards_used": dict(sorted(a.public_uses.items())),
        "possible_characters": sorted(c for c in chars if c),
    }


def _possible(state: SpecterOpsState, seat: str | None) -> int:
    """The first agent's possibility map as ``seat`` knows it (SO-I2): a loyal hunter's
    worlds are those in which another hunter is the traitor; the traitor's own map adds
    its concealed sightings (SO-T3); everyone else gets the public map."""
    a1 = state.agents[0]
    if not state.traitor_game or state.traitor_revealed or seat is None or seat == AGENT:
        return a1.knowledge.squares
    if seat == state.traitor_seat and state.traitor_map is not None:
        return state.traitor_map.squares
    mine = frozenset(h.id for h in state.hunters if h.seat == seat)
    if not mine:
        return a1.knowledge.squares
    return a1.knowledge.squares_without(mine)


def public_view(state: SpecterOpsState, seat: str | None) -> SpecterOpsView:
    """What every seat knows now, plus the events of this round addressed to ``seat``."""
    geo = state.geo
    current: CurrentView | None = None
    if state.current is not None:
        h = state.hunters[state.current]
        current = {
            "hunter": h.id,
            "steps": state.steps,
            "limit": state.hunter_limit(h),
            "drove": state.drove,
            "started_aboard": state.started_aboard,
            "stunned_at_start": h.stunned_at_start,
            "sniffed": state.sniffed,
        }
    a1_map = state.agents[0].knowledge
    allowed = a1_map.possible_sites() if state.hidden_sites else ()
    objectives: list[ObjectiveView] = [
        {
            "sector": j + 1,
            "site": None if site is None else geo.name(site),
            "done": done,
            "possible": None if site is not None else sorted(geo.name(s) for s in allowed[j]),
        }
        for j, (site, done) in enumerate(zip(state.public_sites, state.done, strict=True))
    ]
    a1 = _public_agent(state, state.agents[0])
    possible = _possible(state, seat)
    outcome = state.outcome()
    data: SpecterOpsView = {
        "config": state.config.to_json(),  # a new dict (dict() of a Mapping goes key by key)
        "round": state.round,
        "max_rounds": state.max_rounds,
        "players": state.players,
        "phase": PUBLIC_PHASE.get(state.phase, state.phase.value),
        "to_act": sorted(state.to_act()),
        "current": current,
        "hunters": [
            {
                "id": h.id,
                "seat": h.seat,
                "square": geo.name(h.square),
                "aboard": h.aboard,
                "stunned": h.stunned,
                "acted": h.acted,
                "character": h.character or None,
            }
            for h in state.hunters
        ],
        "vehicle": {
            "square": geo.name(state.vehicle),
            "moved": state.vehicle_moved,
            "scanned": state.vehicle_scanned,
        },
        "agent": {
            "character": a1["character"],
            "health": a1["health"],
            "revealed_at": a1["revealed_at"],
            "last_seen": a1["last_seen"],
            "objectives_done": sum(state.done),
            "escaped": a1["escaped"],
            "wounds": a1["wounds"],
            "cards_used": a1["cards_used"],
            "possible_characters": a1["possible_characters"],
        },
        "objectives": objectives,
        "smoke": geo.names(state.smoke_bits()),
        "smokes": [{"area": geo.names(s.area), "until": s.until} for s in state.smokes],
        "sensor_jammed": state.jammed_until == state.round,
        "jammed_until": state.jammed_until,
        "possible": geo.names(possible),
        "possible_count": possible.bit_count(),
        "events": [e.to_json() for e in state.events[state.round_events :] if e.visible_to(seat)],
        "outcome": None if outcome is None else outcome.to_json(),
    }
    if state.traitor_game:
        # The public side of the traitor game (SO-T2…T6): whether roles are dealt, who
        # was accused, who was revealed, and the second agent's public traces.
        two = len(state.agents) == 2
        data["traitor"] = {
            "dealt": bool(state.traitor),
            "revealed": state.traitor if state.traitor_revealed else None,
            "accusations": dict(sorted(state.accused.items())),
            "failed": state.failed_accusations,
            "possible": sorted(t for t in a1_map.possible_traitors() if t),
            "resume": None if state._resume is None else state._resume.value,
        }
        data["agent2"] = _public_agent(state, state.agents[1]) if two else None
        data["possible2"] = geo.names(state.agents[1].knowledge.squares) if two else None
    return data


def _secret(state: SpecterOpsState, index: int) -> SecretView:
    """An agent's own secret map (its seat only)."""
    geo = state.geo
    a = state.agents[index]
    focused = state.focus_index == index
    phase = state.phase
    in_turn = focused and phase in (Phase.AGENT, Phase.AGENT_AFTER)
    limit = state.move_limit() if in_turn else 4
    out: SecretView = {
        "square": geo.name(a.path[-1]),
        "path": [geo.name(s) for s in a.path],
        "steps_left": (
            max(0, limit - (len(a.path) - 1)) if focused and phase is Phase.AGENT else None
        ),
        "last_move_steps": a.last_steps,
        "character": a.character or None,
        "health": a.health,
        "cards": dict(a.cards),
        "moment": phase.value if focused and phase in _OWN_MOMENTS else None,
        "move_limit": limit,
        "used_this_turn": a.used if in_turn else [],
    }
    if index == 1:
        # SO-T5: the second agent chose among the character cards not in use, so it saw
        # which one the agent holds; it keeps knowing it.
        out["characters_left"] = [c for c in AGENTS if c != state.agents[0].character]
    elif out["moment"] == Phase.PICK_AGENT:
        out["characters_left"] = list(AGENTS)  # the first agent chooses among them all
    if index == 0:
        out["objective_sites"] = [geo.name(s) for s in state.sites]
        if state.traitor:
            out["traitor"] = state.traitor  # SO-T2: the agent knows the traitor
            # SO-T3: told of each (copies: a sighting is the state's own dict).
            out["concealed"] = fresh_json(state.concealed)
    return out


def _final(state: SpecterOpsState) -> FinalView:
    """After the game every secret is public: the record and every view agree."""
    geo = state.geo
    a1 = state.agents[0]
    final: FinalView = {
        "agent_square": geo.name(a1.square),
        "objective_sites": [geo.name(s) for s in state.sites],
        "character": a1.character or None,
        "cards": dict(a1.cards),
    }
    if state.traitor_game:
        final["traitor"] = state.traitor or None
        final["concealed"] = fresh_json(state.concealed)
        if len(state.agents) == 2:
            a2 = state.agents[1]
            final["agent2"] = {
                "square": geo.name(a2.square),
                "character": a2.character or None,
                "cards": dict(a2.cards),
            }
    return final


def build_view(state: SpecterOpsState, seat: str | None) -> SpecterOpsView:
    """The view of ``seat`` (``None``: a spectator)."""
    data = public_view(state, seat)
    if seat == AGENT:
        data["secret"] = _secret(state, 0)
    elif seat is not None and state.traitor_game and state.traitor:
        # SO-T2: each hunter seat knows its own role; the traitor its concealed
        # sightings (SO-T3) and, once revealed, its own agent's secret map (SO-T5).
        mine = seat == state.traitor_seat
        proves = None
        if not mine and not state.traitor_revealed:
            own = [h.id for h in state.hunters if h.seat == seat]
            proves = state.agents[0].knowledge.proven_traitor(own) or None
        data["role"] = {
            "role": "traitor" if mine else "loyal",
            "concealed": fresh_json(state.concealed) if mine else None,
            "proves": proves,
        }
        if mine and len(state.agents) == 2:
            data["secret"] = _secret(state, 1)
    if state.is_over:
        data["final"] = _final(state)
    return data
