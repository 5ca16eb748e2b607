"""The pieces of a Specter Ops game and the typed values of its rules: the seats, the
numbers of the rules, the phases and action kinds, the hunter figures (SO-G4), the agent
figures (one, or two once the traitor is revealed, SO-T5), smoke on the board and the
traitor's concealed sightings (SO-T3)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final, NamedTuple, TypedDict

from ..knowledge import PossibilityMap

__all__ = [
    "AGENT",
    "AGENT_SIDE",
    "BASE_HEALTH",
    "DRIVE",
    "FIGURES",
    "FOUR_PLAYER_HEALTH",
    "HUNTER_SEATS",
    "HUNTER_SIDE",
    "MOVE",
    "OBJECTIVES_TO_ESCAPE",
    "SNIFF_MAX_STEPS",
    "SNIFF_RANGE",
    "STEALTH_RANGE",
    "STUNNED_MOVE",
    "SURGE_MOVE",
    "TRAITOR_KINDS",
    "Agent",
    "Hunter",
    "Kind",
    "Moment",
    "Phase",
    "Resume",
    "Sighting",
    "Smoke",
    "cards_to_take",
    "hunter_count",
    "seats_for",
]

AGENT: Final = "agent"
HUNTER_SEATS: Final = ("hunter1", "hunter2", "hunter3", "hunter4")
FIGURES: Final = ("H1", "H2", "H3", "H4")
#: The sides an outcome names.
AGENT_SIDE: Final = "agent"
HUNTER_SIDE: Final = "hunters"

MOVE: Final = 4  # SO-A1, SO-H1
STUNNED_MOVE: Final = 2  # SO-H4
DRIVE: Final = 10  # SO-V1
OBJECTIVES_TO_ESCAPE: Final = 3  # SO-G2, SO-E1
BASE_HEALTH: Final = 4  # SO-S6
FOUR_PLAYER_HEALTH: Final = 2  # SO-F1
SURGE_MOVE: Final = 6  # Adrenal Surge
STEALTH_RANGE: Final = 2  # Stealth Field
SNIFF_RANGE: Final = 4  # the Beast
SNIFF_MAX_STEPS: Final = 3


def cards_to_take(players: int) -> int:
    """Equipment cards the agent takes (SO-S4): 3, or 5 with 4 players."""
    return 5 if players == 4 else 3


def hunter_count(players: int) -> int:
    """Hunter figures per player count (SO-G4)."""
    return {2: 2, 3: 2, 4: 3, 5: 4}[players]


def seats_for(players: int) -> tuple[str, ...]:
    """The seats of a game: ``agent`` and ``hunter1`` … (SO-S1)."""
    return (AGENT, *HUNTER_SEATS[: players - 1])


class Phase(StrEnum):
    """Where the game is: who acts and which kinds of action the rules allow (the
    values are what the state and the views show)."""

    #: SO-S4: each hunter figure chooses its character, in figure order, in public.
    PICK_HUNTER = "pick_hunter"
    #: SO-S4, SO-T5: the agent in focus chooses its character, in secret.
    PICK_AGENT = "pick_agent"
    #: SO-S4, SO-T5: then its equipment cards, one at a time.
    PICK_CARDS = "pick_cards"
    #: SO-T2: the agent deals the role cards (the traitor game).
    DEAL = "deal"
    #: SO-A1…A8: the agent in focus moves (steps, then ``stop``), a card before.
    AGENT = "agent"
    #: SO-A7: after its move the agent may use a card, or say ``done``.
    AGENT_AFTER = "agent_after"
    #: SO-R1: the hunters choose who acts next.
    ORDER = "order"
    #: SO-H1, SO-V*: a hunter figure's movement.
    HUNTER = "hunter"
    #: SO-H2: after its movement a hunter may attack (or sniff), or end its turn.
    ATTACK = "attack"
    #: The game is won.
    OVER = "over"


class Kind(StrEnum):
    """The action kinds (their values are the wire's)."""

    STEP = "step"
    STOP = "stop"
    DRIVE = "drive"
    NEXT = "next"
    SENSOR = "sensor"
    SNIFF = "sniff"
    ATTACK = "attack"
    END = "end"
    DONE = "done"
    TRAITOR = "traitor"
    ACCUSE = "accuse"
    REVEAL = "reveal"
    CHARACTER = "character"
    CARD = "card"
    USE = "use"


#: The traitor game's kinds (SO-T2, SO-T4): refused under its rules in any phase after
#: the setup.
TRAITOR_KINDS: Final = frozenset({Kind.TRAITOR, Kind.ACCUSE, Kind.REVEAL})


class Moment(StrEnum):
    """When the agent uses an equipment card (SO-A7): a card's ``when`` is one of these
    or ``either``."""

    BEFORE = "before"
    AFTER = "after"


class Resume(StrEnum):
    """Where the hunters' round goes on once the revealed traitor's second agent is
    ready (SO-T5)."""

    #: The hunters choose who acts next (the traitor was the hunter acting, or none was).
    NEXT = "next"
    #: The hunter whose turn it is goes on with its movement.
    HUNTER = "hunter"


class Smoke(NamedTuple):
    """A Smoke Grenade's cloud: the squares it blocks sight through, until the end of
    the agent's turn of round ``until``."""

    area: int
    until: int


class Sighting(TypedDict):
    """A concealed sighting (SO-T3, SO-T4): the traitor saw the hidden agent that no
    loyal hunter saw. The agent and the traitor are told; it proves an accusation."""

    round: int
    moment: str  # "agent_turn" or "hunter_turn"
    square: str


@dataclass(slots=True)
class Hunter:
    """One hunter figure (public).

    Attributes:
        id: ``H1`` … ``H4``.
        seat: the seat that moves it (with 2 players ``hunter1`` moves both, SO-G4).
        square: its square (the vehicle's while aboard).
        aboard: whether it is in the vehicle.
        stunned: whether it carries a stun token (SO-H4).
        acted: whether it has had its turn this round.
        character: its hunter character's id ("" in the base game).
        stunned_at_start: whether it was stunned when its turn began (the token is
            removed at the end of a turn that began stunned).
    """

    id: str
    seat: str
    square: int
    aboard: bool = True
    stunned: bool = False
    acted: bool = False
    character: str = ""
    stunned_at_start: bool = False


@dataclass(slots=True)
class Agent:
    """One agent figure: the umpire's secret map of it and its public traces.

    The 5-player game can have two (SO-T5); ``A1`` is the agent's, ``A2`` the revealed
    traitor's. Fields marked public are known to every seat.

    Attributes:
        id: ``A1`` or ``A2`` (public).
        seat: the seat that moves it (public).
        square: its square (secret while hidden).
        path: this turn's path so far, from its start square (secret).
        last_steps: steps of its last move (secret; the sensor's fact).
        health: health left (secret until the character is revealed).
        max_health: its starting health.
        character: its agent character ("" in the base game; secret until revealed).
        cards: its equipment cards and their uses left (secret).
        character_public: whether its character card is face up (public).
        turn_start: the square its turn began on.
        used_before: the card used before moving this turn ("" if none).
        used_after: the card used after moving this turn.
        public_before: whether the card used before moving was a public one.
        public_after: the same after moving.
        path_sight: the sight table while it moved (a card before moving may change it).
        decoy: Holo Decoy's square this turn, if used.
        after_constraint: squares a public card used after moving puts it within.
        shown: its square if its figure is on the board (public), else None.
        last_seen: its Last Seen token's square (public).
        knowledge: the hunters' possibility map of it (public facts only).
        escaped: whether it has escaped (public).
        public_uses: its public card uses so far, by card (public: each is announced).
    """

    id: str
    seat: str
    square: int
    path: list[int]
    health: int
    knowledge: PossibilityMap
    last_steps: int = 0
    max_health: int = 0
    character: str = ""
    cards: dict[str, int] = field(default_factory=dict)
    character_public: bool = True
    turn_start: int = 0
    used_before: str = ""
    used_after: str = ""
    public_before: bool = False
    public_after: bool = False
    path_sight: tuple[int, ...] = ()
    decoy: int | None = None
    after_constraint: int = 0
    shown: int | None = None
    last_seen: int | None = None
    escaped: bool = False
    public_uses: dict[str, int] = field(default_factory=dict)

    @property
    def used(self) -> list[str]:
        """The cards used this turn, before moving first (SO-A7)."""
        return [c for c in (self.used_before, self.used_after) if c]
