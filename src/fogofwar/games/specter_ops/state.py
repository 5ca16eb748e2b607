"""The Specter Ops game state: the umpire's secret map and the public table.

Turn structure (one *phase* at a time, every action carries its seat):

* ``agent`` — the agent's turn: objectives next to it are completed at the start
  (SO-O1…O3), then it moves one ``step`` at a time (0–4 steps, SO-A1) and ``stop``s
  (the 4th step stops by itself). The end of the move decides reveal / Last Seen /
  nothing (SO-A5, SO-A6) and the escape (SO-E1).
* ``order`` — the hunters choose who acts next (SO-R1): the seat ``hunter1`` enters
  the order the hunters agreed, one ``next H2`` at a time; the last one needs no choice.
* ``hunter`` — a hunter figure's movement: ``step`` (0–4, 2 if stunned), ``drive``
  (the vehicle, up to 10 road steps), ``sensor``, ``stop``. When the movement ends the
  agent answers "Clear" or is revealed (SO-H3).
* ``attack`` — a hunter that sees the agent may ``attack`` or ``end`` (SO-H2, SO-X*).

The hunters' knowledge is a :class:`~.knowledge.PossibilityMap` updated from the public
events alone.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Generic, TypeVar, overload

from ...core.dice import Dice, best_of, exploding_check
from ...core.game import Action, Config, Event, Outcome, Ruleset, State
from ...core.rng import Stream, Streams
from .characters import AGENTS, CARDS, HUNTERS, card_pool
from .geometry import Geometry, bearing
from .knowledge import NO_KIT, Kit, MoveSight, PossibilityMap, Role

__all__ = [
    "AGENT",
    "FIGURES",
    "HUNTER_SEATS",
    "Hunter",
    "SpecterOpsState",
    "hunter_count",
    "seats_for",
]

AGENT = "agent"
HUNTER_SEATS = ("hunter1", "hunter2", "hunter3", "hunter4")
FIGURES = ("H1", "H2", "H3", "H4")
AGENT_SIDE = "agent"
HUNTER_SIDE = "hunters"

MOVE = 4  # SO-A1, SO-H1
STUNNED_MOVE = 2  # SO-H4
DRIVE = 10  # SO-V1
OBJECTIVES_TO_ESCAPE = 3  # SO-G2, SO-E1
BASE_HEALTH = 4  # SO-S6
FOUR_PLAYER_HEALTH = 2  # SO-F1
SURGE_MOVE = 6  # Adrenal Surge
STEALTH_RANGE = 2  # Stealth Field
SNIFF_RANGE = 4  # the Beast
SNIFF_MAX_STEPS = 3


def cards_to_take(players: int) -> int:
    """Equipment cards the agent takes (SO-S4): 3, or 5 with 4 players."""
    return 5 if players == 4 else 3


def hunter_count(players: int) -> int:
    """Hunter figures per player count (SO-G4)."""
    return {2: 2, 3: 2, 4: 3, 5: 4}[players]


def seats_for(players: int) -> tuple[str, ...]:
    """The seats of a game: ``agent`` and ``hunter1`` … (SO-S1)."""
    return (AGENT, *HUNTER_SEATS[: players - 1])


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


T = TypeVar("T")


class _Focused(Generic[T]):
    """A field of the agent in focus (``state.agents[state.focus]``).

    The single-agent rules read and write ``self.path``, ``self.health`` … of "the
    agent"; with two agents (SO-T5) the same code runs for each by moving the focus.
    """

    def __init__(self, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type) -> _Focused[T]: ...
    @overload
    def __get__(self, obj: SpecterOpsState, owner: type) -> T: ...
    def __get__(self, obj: SpecterOpsState | None, owner: type) -> _Focused[T] | T:
        if obj is None:
            return self
        value: T = getattr(obj.agents[obj.focus], self.name)
        return value

    def __set__(self, obj: SpecterOpsState, value: T) -> None:
        setattr(obj.agents[obj.focus], self.name, value)


@functools.lru_cache(maxsize=256)
def _only(seat: str) -> frozenset[str]:
    """``frozenset({seat})``, made once per seat (``to_act`` is asked on every action)."""
    return frozenset({seat})


@functools.lru_cache(maxsize=256)
def _plain(seat: str, kind: str) -> Action:
    """An action without arguments, made once (actions are immutable values)."""
    return Action(seat, kind)


_FAST_KINDS = frozenset({"step", "stop", "drive", "next", "end"})
"""Kinds :meth:`SpecterOpsState.is_legal` may check without the legal list."""

_FACES = re.compile(r"d6\[(\d+)\]")


def attack_modifier(hunter: str, agent: str, distance: int) -> int:
    """The attack roll's modifier: the Prophet's +2, the Spider's -2 within 3."""
    modifier = HUNTERS[hunter].attack_bonus if hunter else 0
    if agent and distance <= AGENTS[agent].close_attack_range:
        modifier += AGENTS[agent].close_attack_modifier
    return modifier


def attack_dice(hunter: str, agent: str, distance: int) -> Dice:
    """The attack as a dice object (SO-X1…X5 with the characters): 1 if it hits.

    The Gun rolls two attacks and keeps the better. The same object gives the exact
    odds (``fogofwar odds specter-ops attack``) and the game's roll.
    """
    check = exploding_check(6, distance, modifier=attack_modifier(hunter, agent, distance))
    n = HUNTERS[hunter].attack_dice if hunter else 1
    return best_of(check, n) if n > 1 else check


def roll_attack(hunter: str, agent: str, distance: int, stream: Stream) -> tuple[bool, list[int]]:
    """Roll an attack: (hit, the faces of every die rolled, in order).

    Draws exactly what ``attack_dice(hunter, agent, distance).sample(stream)`` draws (the
    Gun's two attacks one after the other), so the game's roll and the odds agree.
    """
    check = exploding_check(6, distance, modifier=attack_modifier(hunter, agent, distance))
    n = HUNTERS[hunter].attack_dice if hunter else 1
    hit = False
    faces: list[int] = []
    for _ in range(n):
        roll = check.roll(stream)
        hit = hit or bool(roll.value)
        faces += [int(f) for f in _FACES.findall(roll.text)]
    return hit, faces


def _not_character(character: str, kit: Kit) -> bool:
    return kit[0] != character


def possible_kits(players: int) -> list[Kit]:
    """Every kit an agent may choose at setup (SO-S4): a character and its cards."""
    out: list[Kit] = []
    for char in AGENTS:
        for hand in itertools.combinations(card_pool(char), cards_to_take(players)):
            out.append((char, tuple(sorted((c, CARDS[c].uses) for c in hand))))
    return out


class SpecterOpsState(State):
    """One game of Specter Ops (2–5 players; see the module doc for the phases)."""

    # The agent in focus (see _Focused): the agent figure whose turn it is, else A1.
    agent_square: _Focused[int] = _Focused("square")
    path: _Focused[list[int]] = _Focused("path")
    last_steps: _Focused[int] = _Focused("last_steps")
    health: _Focused[int] = _Focused("health")
    max_health: _Focused[int] = _Focused("max_health")
    character: _Focused[str] = _Focused("character")
    cards: _Focused[dict[str, int]] = _Focused("cards")
    character_public: _Focused[bool] = _Focused("character_public")
    turn_start: _Focused[int] = _Focused("turn_start")
    used_before: _Focused[str] = _Focused("used_before")
    used_after: _Focused[str] = _Focused("used_after")
    public_before: _Focused[bool] = _Focused("public_before")
    public_after: _Focused[bool] = _Focused("public_after")
    path_sight: _Focused[tuple[int, ...]] = _Focused("path_sight")
    decoy: _Focused[int | None] = _Focused("decoy")
    _after_constraint: _Focused[int] = _Focused("after_constraint")
    shown: _Focused[int | None] = _Focused("shown")
    last_seen: _Focused[int | None] = _Focused("last_seen")
    knowledge: _Focused[PossibilityMap] = _Focused("knowledge")

    def __init__(self, ruleset: Ruleset, config: Config, geo: Geometry, seed: int | str) -> None:
        players = int(config["players"])
        self.ruleset = ruleset
        self.config = config
        self.geo = geo
        self._streams = Streams(seed)
        self.players = players
        self.seats = seats_for(players)
        self.max_rounds = int(config["max_rounds"])
        self.with_characters = bool(config["characters"])
        self.per_turn = int(config["equipment_per_turn"])
        # -- the traitor (SO-T*): dealt by the agent, secret until revealed
        self.traitor_game = players == 5 and bool(config["traitor"])
        self.traitor = ""  # the traitor's hunter figure ("" before the deal / none)
        self.traitor_seat = ""
        self.traitor_revealed = False
        self.concealed: list[dict[str, Any]] = []  # the traitor's concealed sightings
        self.accused: dict[str, str] = {}  # hunter seat -> the figure it accused (public)
        self.failed_accusations = 0
        self.traitor_map: PossibilityMap | None = None  # the traitor's own map of A1
        self._resume = ""  # where the hunters' round goes on after A2's setup
        self.round = 1
        self.phase = "agent"
        self.events: list[Event] = []
        self.round_events = 0  # index in self.events where this round began
        self._outcome: Outcome | None = None
        self.end_reason = ""
        # -- the agent (secret unless revealed); its start is known (SO-S5)
        health = BASE_HEALTH + (FOUR_PLAYER_HEALTH if players == 4 else 0)
        self.focus = 0
        self.agents = [
            Agent(
                "A1",
                AGENT,
                geo.agent_start,
                [geo.agent_start],
                health,
                PossibilityMap.start(geo.agent_start, ()),
                max_health=health,
                character_public=not self.with_characters,
                turn_start=geo.agent_start,
                path_sight=geo.sight,
                shown=geo.agent_start,
            )
        ]
        self.smokes: list[tuple[int, int]] = []  # (squares, round whose agent turn ends it)
        self.jammed_until = 0
        # -- objectives (SO-S3): a d6 per sector; secret with 4-5 players
        self.hidden_sites = players >= 4
        self.sites = tuple(
            geo.sites[j][self._streams.stream("objective", j + 1).die(6) - 1]
            for j in range(len(geo.sites))
        )
        self.done = [False] * len(self.sites)
        # The sites the hunters know: all with 2-3 players, else each once completed.
        self.public_sites: list[int | None] = [
            None if self.hidden_sites else site for site in self.sites
        ]
        # -- hunters and vehicle (SO-S2)
        self.vehicle = geo.vehicle_start if players <= 3 else geo.vehicle_start_four
        self.hunters = [
            Hunter(fig, HUNTER_SEATS[0] if players == 2 else HUNTER_SEATS[k], self.vehicle)
            for k, fig in enumerate(FIGURES[: hunter_count(players)])
        ]
        self.vehicle_moved = False
        self.vehicle_scanned = False
        # -- the active hunter's turn
        self.current: int | None = None
        self.steps = 0
        self.drove = 0
        self.started_aboard = False
        self.sniffed = False
        # -- the hunters' knowledge, from public facts only (SO-I2)
        allowed = [
            frozenset(geo.sites[j]) if self.hidden_sites else frozenset({self.sites[j]})
            for j in range(len(self.sites))
        ]
        self.site_sets = allowed
        self.knowledge = PossibilityMap.start(geo.agent_start, allowed)
        self._kits: list[Kit] = [NO_KIT]
        sites = [{"sector": j + 1, "site": geo.name(s)} for j, s in enumerate(self.sites)]
        self._emit(
            "setup",
            players=players,
            vehicle=geo.name(self.vehicle),
            hunters=[h.id for h in self.hunters],
            agent=geo.name(geo.agent_start),
            health=None if self.with_characters else self.health,
            objectives=None if self.hidden_sites else sites,
        )
        if self.hidden_sites:
            self._emit("objective_sites", to=(AGENT,), objectives=sites)
        if self.with_characters:
            self.phase = "pick_hunter"  # SO-S4: hunters first, in public
        else:
            self._setup_done()

    # ================================================================== helpers

    def _learn(self, fact: Callable[[PossibilityMap], PossibilityMap]) -> None:
        """Apply a public fact to the focused agent's map (and, for A1, to the traitor's
        own map of it), then keep two agents' characters distinct (SO-T5)."""
        self.knowledge = fact(self.knowledge)
        if self.focus == 0 and self.traitor_map is not None:
            self.traitor_map = fact(self.traitor_map)
        if len(self.agents) == 2:
            self._distinct_characters()

    def _distinct_characters(self) -> None:
        """The second agent's character is one not in use (SO-T5): where one map allows a
        single character, the other map cannot have it."""
        a1, a2 = self.agents
        for one, other in ((a1, a2), (a2, a1)):
            chars = one.knowledge.possible_characters()
            if len(chars) == 1 and "" not in chars:
                (c,) = chars
                if c in other.knowledge.possible_characters():
                    other.knowledge = other.knowledge.kits_where(partial(_not_character, c))
                    if other is a1 and self.traitor_map is not None:
                        self.traitor_map = self.traitor_map.kits_where(partial(_not_character, c))

    def _who(self) -> dict[str, str]:
        """An event's ``agent`` field: named only once there are two agents (SO-T5)."""
        return {"agent": self.agents[self.focus].id} if len(self.agents) == 2 else {}

    def _loyal(self) -> list[Hunter]:
        """The hunters whose sight places the agent: all but an unrevealed traitor (SO-T3)."""
        return [h for h in self.hunters if h.id != self.traitor or self.traitor_revealed]

    def _live_agents(self) -> list[int]:
        """Indices of the agents still on the board (not escaped)."""
        return [i for i, a in enumerate(self.agents) if not a.escaped]

    def _hunter_of(self, seat: str) -> Hunter | None:
        return next((h for h in self.hunters if h.seat == seat), None)

    def _emit(self, kind: str, *, to: Sequence[str] | None = None, **data: Any) -> Event:
        event = Event(kind, data, None if to is None else frozenset(to))
        self.events.append(event)
        return event

    def _foot_bits(self, exclude: int | None = None) -> int:
        """Squares of hunters on foot (the agent may not enter them, SO-A1)."""
        bits = 0
        for k, h in enumerate(self.hunters):
            if not h.aboard and k != exclude:
                bits |= 1 << h.square
        return bits

    def _hunter_squares(self) -> list[int]:
        return [h.square for h in self.hunters]

    def _smoke_bits(self) -> int:
        bits = 0
        for squares, _ in self.smokes:
            bits |= squares
        return bits

    def sight(self) -> tuple[int, ...]:
        """The sight table now: the board's, with any smoke (public)."""
        return self.geo.sight_with(self._smoke_bits())

    def _seen_by(self, viewers: Sequence[int], *, stealth: bool = False) -> int:
        """Squares seen from ``viewers``; with a Stealth Field only those within 2."""
        table = self.sight()
        out = 0
        for v in viewers:
            out |= table[v] & (self.geo.within(v, STEALTH_RANGE) if stealth else -1)
        return out

    def _finish(self, sides: str, reason: str, rule: str, code: str) -> None:
        agents = {AGENT, self.traitor_seat} - {""}  # SO-T6: the traitor wins with the agent
        winners = frozenset(agents if sides == AGENT_SIDE else set(self.seats) - agents)
        self._outcome = Outcome(winners, frozenset({sides}), reason, rule)
        self.end_reason = code
        self.phase = "over"
        self.current = None
        self._emit("game_over", winner=sides, reason=reason, rule=rule)

    # ================================================================== protocol

    def to_act(self) -> frozenset[str]:
        if self.phase == "over":
            return frozenset()
        if self.phase == "agent":
            return _only(self.agents[self.focus].seat)
        if self.phase in ("order",):
            # The hunters' choice is entered by the first hunter seat still hunting (a
            # revealed traitor no longer speaks for them, SO-T5).
            return _only(self.hunters[0].seat)
        if self.phase in ("agent_after", "pick_agent", "pick_cards"):
            return _only(self.agents[self.focus].seat)
        if self.phase == "deal":
            return _only(AGENT)
        if self.phase == "pick_hunter":
            return _only(self._next_unpicked().seat)
        if self.current is None:  # pragma: no cover - phases guarantee a hunter
            raise RuntimeError("no active hunter")
        return _only(self.hunters[self.current].seat)

    def legal_actions(self, seat: str) -> list[Action]:
        if seat not in self.to_act():
            return []
        if self.phase == "agent":
            return self._agent_actions()
        if self.phase == "agent_after":
            return [*self._card_actions("after"), _plain(seat, "done")]
        if self.phase == "deal":
            return [Action(seat, "traitor", (h.id,)) for h in self.hunters]
        if self.phase == "pick_hunter":
            h = self._next_unpicked()
            taken = {x.character for x in self.hunters}
            return [Action(seat, "character", (h.id, c)) for c in HUNTERS if c not in taken]
        if self.phase == "pick_agent":
            used = {a.character for a in self.agents}  # SO-T5: one not in use
            return [Action(seat, "character", (c,)) for c in AGENTS if c not in used]
        if self.phase == "pick_cards":
            return [
                Action(seat, "card", (c,)) for c in card_pool(self.character) if c not in self.cards
            ]
        if self.phase == "order":
            return [Action(seat, "next", (h.id,)) for h in self.hunters if not h.acted]
        if self.phase == "hunter":
            return self._hunter_actions(seat)
        out = [Action(seat, "attack", args) for args in self._attack_targets()]
        if self._may_sniff():
            out.append(Action(seat, "sniff"))
        return [*out, _plain(seat, "end")]

    def is_legal(self, action: Action) -> bool:
        """As :meth:`State.is_legal`, with the commonest actions (steps, stops, drives,
        the hunters' order, ending a turn) checked directly instead of listing every
        legal action (``apply`` asks this for every action). The same conditions as
        :meth:`legal_actions`; a test compares the two on random positions."""
        kind, args, phase = action.kind, action.args, self.phase
        if kind not in _FAST_KINDS or action.seat not in self.to_act():
            return super().is_legal(action)
        if kind == "step" and len(args) == 1:
            target = self.geo._index_of.get(args[0]) if isinstance(args[0], str) else None
            if target is None:
                return False
            if phase == "agent":
                return bool(self._agent_steps() >> target & 1)
            if phase == "hunter" and self.current is not None:
                h = self.hunters[self.current]
                if not h.aboard:
                    if self.drove or self.steps >= self._limit(h):
                        return False
                    if not self.geo.steps[h.square] >> target & 1:
                        return False
                    others = self._foot_bits(exclude=self.current)
                    return self._can_end(target, self._limit(h) - self.steps - 1, others)
        elif kind == "stop" and not args:
            if phase == "agent":
                return self._agent_can_stop()
            if phase == "hunter" and self.current is not None:
                h = self.hunters[self.current]
                return h.aboard or not (self._foot_bits(exclude=self.current) >> h.square & 1)
            return False
        elif kind == "drive" and len(args) == 1 and phase == "hunter" and self.current is not None:
            h = self.hunters[self.current]
            if self.drove >= DRIVE or self.vehicle_scanned:
                return False
            if not (h.aboard or (self._remote(h) and self.steps == 0)):
                return False
            target = self.geo._index_of.get(args[0]) if isinstance(args[0], str) else None
            return target is not None and bool(self._drive_bits() >> target & 1)
        elif kind == "next" and phase == "order":
            return len(args) == 1 and any(h.id == args[0] and not h.acted for h in self.hunters)
        elif kind == "end" and phase == "attack":
            return not args
        return super().is_legal(action)

    def outcome(self) -> Outcome | None:
        return self._outcome

    # ================================================================== setup (SO-S4)

    def _next_unpicked(self) -> Hunter:
        for h in self.hunters:
            if not h.character:
                return h
        raise RuntimeError("every hunter has a character")  # pragma: no cover

    def _apply_setup(self, action: Action) -> None:
        if self.phase == "pick_hunter":
            fig, char = str(action.args[0]), str(action.args[1])
            h = next(x for x in self.hunters if x.id == fig)
            h.character = char
            self._emit("hunter_character", hunter=fig, character=char)
            if all(x.character for x in self.hunters):
                self.phase = "pick_agent"
        elif self.phase == "pick_agent":
            self.character = str(action.args[0])
            self.health = self.max_health = self.max_health + AGENTS[self.character].health_bonus
            me = self.agents[self.focus]
            self._emit("agent_character", to=(me.seat,), **self._who(), character=self.character)
            self.phase = "pick_cards"
            self._take_forced_cards()
        else:
            card = str(action.args[0])
            self.cards[card] = CARDS[card].uses
            me = self.agents[self.focus]
            self._emit("agent_card", to=(me.seat,), **self._who(), card=card)
            self._take_forced_cards()

    def _cards_to_take(self) -> int:
        """3 or 5 cards for the agent (SO-S4), 2 for the second agent (SO-T5)."""
        return 2 if self.focus == 1 else cards_to_take(self.players)

    def _take_forced_cards(self) -> None:
        """Take the rest when there is no choice left, then go on."""
        me = self.agents[self.focus]
        need = self._cards_to_take() - len(self.cards)
        left = [c for c in card_pool(self.character) if c not in self.cards]
        if need == len(left):
            for c in left:
                self.cards[c] = CARDS[c].uses
                self._emit("agent_card", to=(me.seat,), **self._who(), card=c)
            need = 0
        if need:
            return
        self._emit("agent_ready", **self._who(), cards=len(self.cards))
        if self.focus == 1:
            self._second_agent_ready()
            return
        self._kits = possible_kits(self.players)
        self.knowledge = PossibilityMap.start(self.geo.agent_start, self.site_sets, self._kits)
        self._setup_done()

    def _setup_done(self) -> None:
        """The agent deals the roles (SO-T2) or, without a traitor, the game starts."""
        if self.traitor_game:
            self.phase = "deal"
        else:
            self._start_agent_turn()

    def _deal(self, figure: str) -> None:
        """SO-T2: the agent deals the role cards; only it and the traitor know."""
        h = next(x for x in self.hunters if x.id == figure)
        self.traitor, self.traitor_seat = h.id, h.seat
        self._emit("traitor_dealt", to=(AGENT,), hunter=h.id, seat=h.seat)
        self._emit("roles_dealt", hunters=[x.id for x in self.hunters])
        for x in self.hunters:
            role = "traitor" if x is h else "loyal"
            self._emit("role", to=(x.seat,), hunter=x.id, role=role)
        roles = [(x.id, False) for x in self.hunters]
        self.knowledge = PossibilityMap.start(
            self.geo.agent_start, self.site_sets, self._kits, roles
        )
        self.traitor_map = self.knowledge.roles_where(lambda r: r[0] == h.id)
        self._start_agent_turn()

    # ================================================================== the agent

    def _move_limit(self) -> int:
        return SURGE_MOVE if self.used_before == "adrenal-surge" else MOVE

    def _agent_steps(self) -> int:
        """Squares the agent may step to now (bitboard)."""
        limit = self._move_limit()
        if len(self.path) - 1 >= limit:
            return 0
        geo = self.geo
        here = self.path[-1]
        foot = self._foot_bits()
        # SO-A2 looks at blocking terrain only; hunters just may not be entered (SO-A1).
        nxt = geo.steps[here] & ~foot
        vbit = 1 << self.vehicle
        if nxt & vbit:
            # The vehicle's square may be crossed, not ended on (SO-A3): step onto it only
            # with a step to spare and a way off it.
            way_off = geo.steps[self.vehicle] & ~foot & ~vbit
            if len(self.path) >= limit or not way_off:
                nxt &= ~vbit
        return nxt

    def _agent_can_stop(self, steps: int | None = None) -> bool:
        here = self.path[-1]
        if here == self.vehicle or (self._foot_bits() >> here & 1):
            # SO-A3: not an end square — unless the agent cannot move at all.
            return len(self.path) == 1 and not (self._agent_steps() if steps is None else steps)
        return True

    def _agent_actions(self) -> list[Action]:
        me = self.agents[self.focus].seat
        steps = self._agent_steps()
        out = self.geo.square_actions(me, "step", steps)
        if self._agent_can_stop(steps):
            out.append(_plain(me, "stop"))
        if len(self.path) == 1:
            out += self._card_actions("before")
        return out

    # ------------------------------------------------------------------ equipment

    def _card_actions(self, moment: str) -> list[Action]:
        """``use`` actions for the cards usable now (SO-A7, SO-A8)."""
        me = self.agents[self.focus].seat
        used = [c for c in (self.used_before, self.used_after) if c]
        if len(used) >= self.per_turn or (moment == "before" and self.used_before):
            return []
        geo = self.geo
        here = self.path[-1]
        out: list[Action] = []
        for card_id, left in self.cards.items():
            card = CARDS[card_id]
            if left <= 0 or card_id in used or card.when not in (moment, "either"):
                continue
            if card_id == "med-kit" and self.health >= self.max_health:
                continue
            if card.target == "square":
                if card_id == "holo-decoy":
                    targets = self._decoy_squares()
                else:
                    targets = geo.within(here, card.reach)
                out += [Action(me, "use", (card_id, geo.name(i))) for i in geo.indices(targets)]
            elif card.target == "hunter":
                for h in self.hunters:
                    if not h.aboard and geo.within(here, card.reach) >> h.square & 1:
                        out.append(Action(me, "use", (card_id, h.id)))
            else:
                out.append(Action(me, "use", (card_id,)))
        return out

    def _decoy_squares(self) -> int:
        """Holo Decoy: squares the agent could have been seen on this turn — a hunter sees
        them and the agent could have reached them — unless it is seen at the end."""
        if self._end_seen() >> self.path[-1] & 1:
            return 0
        # Squares the agent could have stood on this turn: its legal walks (hunters on foot
        # are not entered, SO-A1) from where it started.
        foot = self._foot_bits()
        step = self.geo.graph.stepper(avoid=foot)
        vbit = 1 << self.vehicle
        limit = self._move_limit()
        layer = reach = 1 << self.turn_start
        for k in range(1, limit + 1):
            layer = step(layer)
            # The vehicle's square is crossed, never ended on (SO-A3): not by the last
            # step, and only with a way off it.
            reach |= layer & ~vbit if k == limit else layer
        if self.turn_start != self.vehicle and not step(vbit) & ~vbit:
            reach &= ~vbit
        return reach & self._path_seen(stealth=False)

    def _use_card(self, action: Action) -> None:
        card_id = str(action.args[0])
        card = CARDS[card_id]
        geo = self.geo
        moment = "before" if self.phase == "agent" else "after"
        if moment == "before":
            self.used_before = card_id
        else:
            self.used_after = card_id
        self.cards[card_id] -= 1
        target = str(action.args[1]) if len(action.args) > 1 else None
        me = self.agents[self.focus]
        self._emit("agent_used", to=(me.seat,), card=card_id, target=target, moment=moment)
        if not card.public:
            if card_id == "holo-decoy" and target is not None:
                self.decoy = geo.parse(target)
            if moment == "before":
                self.path_sight = self.sight()
            return
        if moment == "before":
            self.public_before = True
        else:
            self.public_after = True
        data: dict[str, Any] = {"card": card_id, "moment": moment}
        if len(self.agents) == 2:
            data["agent"] = me.id
        within = 0
        if card_id == "flash-bang" and target is not None:
            t = geo.parse(target)
            table = self.sight()
            stunned = [h.id for h in self.hunters if not h.aboard and table[h.square] >> t & 1]
            for h in self.hunters:
                if h.id in stunned:
                    h.stunned = True
            data.update(square=target, stunned=stunned)
            within = geo.within(t, card.reach)
        elif card_id == "smoke-grenade" and target is not None:
            t = geo.parse(target)
            area = geo.within(t, 1)
            self.smokes.append((area, self.round + 1))
            data.update(square=target, area=geo.names(area))
            within = geo.within(t, card.reach)
        elif card_id == "venom-dart" and target is not None:
            h = next(x for x in self.hunters if x.id == target)
            h.stunned = True
            data.update(hunter=target, stunned=[target])
            within = geo.within(h.square, card.reach)
        elif card_id == "med-kit":
            self.health = min(self.max_health, self.health + 1)
            data.update(health=self.health)
        elif card_id == "signal-jammer":
            self.jammed_until = self.round  # the sensor detects nothing this round
        self._emit("equipment", **data)
        self._learn(lambda k: k.card_used(card_id))
        if moment == "before":
            self.path_sight = self.sight()
            if within:
                self._learn(lambda k: k.keep(within))
        else:
            self._after_constraint = within

    def _start_agent_turn(self) -> None:
        """Objectives first (SO-O1…O3; the first agent's only), then the move."""
        geo = self.geo
        here = self.agent_square
        if self.focus == 0:
            completed: dict[int, int] = {}
            open_sectors = [j for j, d in enumerate(self.done) if not d]
            reach = AGENTS[self.character].objective_range if self.character else 1
            near = geo.adjacent if reach == 1 else geo.near(reach)  # Blue Jay: 2
            for j in open_sectors:
                if near[self.sites[j]] >> here & 1:
                    completed[j] = self.sites[j]
            for j in completed:
                self.done[j] = True
                self.public_sites[j] = self.sites[j]  # SO-O2: turned red side up, public
            if completed:
                self._emit(
                    "objectives_completed",
                    completed=[
                        {"sector": j + 1, "site": geo.name(s)} for j, s in completed.items()
                    ],
                    done=sum(self.done),
                )
            self._learn(lambda k: k.objectives(geo, completed, open_sectors))
        self.path = [here]
        self.turn_start = here
        self.used_before = self.used_after = ""
        self.public_before = self.public_after = False
        self.decoy = None
        self._after_constraint = 0
        self.path_sight = self.sight()
        self.phase = "agent"
        if len(self.agents) == 2:
            self._emit("agent_turn", round=self.round, agent=self.agents[self.focus].id)
        else:
            self._emit("agent_turn", round=self.round)

    def _watchers(self, exclude: str | None = None) -> list[int]:
        """Squares of the hunters whose sight places the agent: the loyal ones (SO-T3);
        ``exclude`` names a hunter to leave out instead of the true traitor."""
        if exclude is None:
            return [h.square for h in self._loyal()]
        return [h.square for h in self.hunters if h.id != exclude]

    def _end_seen(self) -> int:
        """Squares seen at the end of the agent's turn (smoke and Stealth Field in force)."""
        stealth = "stealth-field" in (self.used_before, self.used_after)
        return self._seen_by(self._watchers(), stealth=stealth)

    def _end_agent_move(self) -> None:
        """The steps are over: a card after moving, if one may be used, then the result."""
        self.agent_square = self.path[-1]
        if self._card_actions("after"):
            self.phase = "agent_after"
        else:
            self._resolve_agent_turn()

    def _path_seen(self, *, stealth: bool, exclude: str | None = None) -> int:
        """Squares seen while the agent moved (the sight of that moment)."""
        geo = self.geo
        out = 0
        for v in self._watchers(exclude):
            out |= self.path_sight[v] & (geo.within(v, STEALTH_RANGE) if stealth else -1)
        return out

    def _move_sight(self, exclude: str | None = None) -> MoveSight:
        """What the hunters saw of this move, for the map; ``exclude`` leaves out a
        possible traitor, whose own end-of-move sight is then given apart."""
        watchers = self._watchers(exclude)
        traitor = [h.square for h in self.hunters if h.id == exclude]
        path = self._path_seen(stealth=False, exclude=exclude)
        end = self._seen_by(watchers)
        traitor_end = self._seen_by(traitor)
        if not self.with_characters:
            # No kit holds a Stealth Field: the stealth fields are never read.
            return MoveSight(path, path, end, end, path, traitor_end, traitor_end)
        return MoveSight(
            path=path,
            path_stealth=self._path_seen(stealth=True, exclude=exclude),
            end=end,
            end_stealth=self._seen_by(watchers, stealth=True),
            decoy=path,
            traitor_end=traitor_end,
            traitor_end_stealth=self._seen_by(traitor, stealth=True),
        )

    def _resolve_agent_turn(self) -> None:
        geo = self.geo
        path = self.path
        here = path[-1]
        me = self.agents[self.focus]
        self.agent_square = here
        self.last_steps = len(path) - 1
        stealth = "stealth-field" in (self.used_before, self.used_after)
        path_seen = self._path_seen(stealth=self.used_before == "stealth-field")
        end_seen = self._end_seen()
        visible = [sq for sq in path if path_seen >> sq & 1]
        square: int | None
        if end_seen >> here & 1:
            result, square = "revealed", here  # SO-A5
            self.shown = here
        elif self.decoy is not None:
            result, square = "last_seen", self.decoy  # Holo Decoy: the token, not the truth
            self.last_seen = square
            self.shown = None
        elif visible:
            result, square = "last_seen", visible[-1]  # SO-A6
            self.last_seen = square
            self.shown = None
        else:
            result, square = "hidden", None
            self.shown = None
        self._emit("agent_path", to=(me.seat,), path=[geo.name(s) for s in path])
        moved: dict[str, Any] = {"result": result}
        if len(self.agents) == 2:
            moved["agent"] = me.id
        self._emit("agent_moved", **moved, square=None if square is None else geo.name(square))
        foot = self._foot_bits()
        both = self.per_turn >= 2
        sight: MoveSight | dict[str, MoveSight]
        if self.focus == 0 and self.traitor and not self.traitor_revealed:
            # Each possible traitor's world: the others' sight places the agent (SO-T3).
            sight = {t: self._move_sight(t) for t in self.knowledge.possible_traitors()}
        else:
            sight = self._move_sight()
        hidden_before = not self.public_before and (both or not self.public_after)
        hidden_after = not self.public_after and (both or not self.public_before)
        self._learn(
            lambda k: k.moved(
                geo,
                result=result,
                square=square,
                blocked=foot,
                no_end=foot | 1 << self.vehicle,
                sight=sight,
                hidden_before=hidden_before,
                hidden_after=hidden_after,
                both=both,
            )
        )
        if self._after_constraint:
            within = self._after_constraint
            self._learn(lambda k: k.keep(within))
        if result == "revealed":
            self._reveal_character()
        elif self.focus == 0:
            self._concealed_moment("agent_turn", stealth=stealth)
        # Smoke thrown last round clears at the end of this agent turn.
        if self.focus == len(self.agents) - 1 or self.agents[-1].escaped:
            self.smokes = [(sq, until) for sq, until in self.smokes if until > self.round]
        escapes = self._escape_bits()
        if sum(self.done) >= OBJECTIVES_TO_ESCAPE:
            blocked = any(h.square == here for h in self.hunters)  # SO-E2
            if escapes >> here & 1 and not blocked:
                self._escape(here)
                if self.is_over:
                    return
            else:
                # The game goes on, so the agent is not on a free escape point (public).
                held = 0
                for h in self.hunters:
                    held |= 1 << h.square
                self._learn(lambda k: k.keep(~(escapes & ~held)))
        self._after_agent_turn()

    def _escape(self, here: int) -> None:
        """SO-E1, SO-T6: an agent escapes; the agents win when every agent has — or when
        the first escapes while the traitor is still unrevealed."""
        geo = self.geo
        me = self.agents[self.focus]
        me.escaped = True
        me.shown = None
        if len(self.agents) == 2:
            self._emit("escaped", square=geo.name(here), agent=me.id)
        else:
            self._emit("escaped", square=geo.name(here))
        if all(a.escaped for a in self.agents):
            if len(self.agents) == 2:
                reason, rule = "both agents escaped", "SO-T6"
            elif self.traitor_game:
                reason = f"the agent escaped at {geo.name(here)}, the traitor unrevealed"
                rule = "SO-T6"
            else:
                reason, rule = f"the agent escaped at {geo.name(here)}", "SO-E1"
            self._finish(AGENT_SIDE, reason, rule, "escaped")

    def _after_agent_turn(self) -> None:
        """The second agent moves right after the first (SO-T5); then the hunters."""
        if self.focus == 0 and len(self.agents) == 2 and not self.agents[1].escaped:
            self.focus = 1
            self._start_agent_turn()
            return
        self.focus = 0
        for h in self.hunters:
            h.acted = False
        self.vehicle_moved = False
        self.vehicle_scanned = False
        self._next_hunter()

    def _concealed_moment(self, moment: str, *, stealth: bool = False) -> None:
        """SO-T3, SO-T4: the traitor sees the hidden first agent that no loyal hunter
        sees; its figure is not placed, and the agent and the traitor know it."""
        if not self.traitor or self.traitor_revealed:
            return
        a1 = self.agents[0]
        traitor = next(h for h in self.hunters if h.id == self.traitor)
        seen = self._seen_by([traitor.square], stealth=stealth)
        now = a1.shown is None and bool(seen >> a1.square & 1)
        if now:
            square = self.geo.name(a1.square)
            self.concealed.append({"round": self.round, "moment": moment, "square": square})
            self._emit(
                "concealed_sighting",
                to=(AGENT, self.traitor_seat),
                hunter=self.traitor,
                square=square,
                moment=moment,
            )
        if self.traitor_map is not None:
            # The traitor knows whether it sees the agent at this moment: its own map
            # keeps the worlds that agree. Its map's flag means "seen at the current
            # moment" (the public map's: "ever"), so it is cleared for the next one.
            self.traitor_map = self.traitor_map.roles_where(lambda r: r[1] == now)
            if now:
                self.traitor_map = self.traitor_map.revealed(a1.square)
            self.traitor_map = self.traitor_map.split_roles(lambda r: [((r[0], False), -1)])

    def _reveal_character(self) -> None:
        """SO-S4: the character card is turned face up the first time the agent is seen."""
        if self.character_public:
            return
        self.character_public = True
        me = self.agents[self.focus]
        if len(self.agents) == 2:
            self._emit(
                "character_revealed", agent=me.id, character=self.character, health=self.health
            )
        else:
            self._emit("character_revealed", character=self.character, health=self.health)
        char = self.character
        self._learn(lambda k: k.kits_where(lambda kit: kit[0] == char))

    def _escape_bits(self) -> int:
        bits = 0
        for e in self.geo.escape + (self.geo.escape_five if self.players == 5 else ()):
            bits |= 1 << e
        return bits

    # ================================================================== the hunters

    def _next_hunter(self) -> None:
        waiting = [k for k, h in enumerate(self.hunters) if not h.acted]
        if not waiting:
            self._end_round()
        elif len(waiting) == 1:
            self._start_hunter_turn(waiting[0])
        else:
            self.phase = "order"
            self.current = None

    def _start_hunter_turn(self, k: int) -> None:
        h = self.hunters[k]
        self.current = k
        self.steps = 0
        self.drove = 0
        self.started_aboard = h.aboard
        self.sniffed = False
        h.stunned_at_start = h.stunned
        self.phase = "hunter"
        self._emit("hunter_turn", hunter=h.id, seat=h.seat)

    def _limit(self, h: Hunter) -> int:
        return STUNNED_MOVE if h.stunned else MOVE

    def _hunter_actions(self, seat: str) -> list[Action]:
        if self.current is None:  # pragma: no cover
            return []
        h = self.hunters[self.current]
        geo = self.geo
        out: list[Action] = []
        if self._may_accuse(h):
            out += [Action(seat, "accuse", (x.id,)) for x in self.hunters if x is not h]
            if h.id == self.traitor:
                out.append(Action(seat, "reveal"))  # SO-T4: only the traitor's seat
        if h.aboard:
            if self.drove == 0:
                # Get out onto a square next to the vehicle; that ends the move (SO-V2).
                exits = geo.steps[self.vehicle] & ~self._foot_bits()
                out += geo.square_actions(seat, "step", exits)
            if self.drove < DRIVE and not self.vehicle_scanned:
                out += geo.square_actions(seat, "drive", self._drive_bits())
            if self._may_scan():
                out.append(_plain(seat, "sensor"))
        elif self._remote(h) and self.steps == 0:
            # The Puppet: the sensor or the vehicle from anywhere, instead of moving.
            if self.drove < DRIVE and not self.vehicle_scanned:
                out += geo.square_actions(seat, "drive", self._drive_bits())
            if self.drove == 0 and not self.vehicle_moved:
                out.append(_plain(seat, "sensor"))
        if not h.aboard and self.drove == 0 and self.steps < self._limit(h):
            others = self._foot_bits(exclude=self.current)
            left = self._limit(h) - self.steps - 1
            nxt = geo.steps[h.square]
            if nxt & others:
                # Never walk into a dead end: a square with a hunter on foot only if the
                # move can still end elsewhere.
                for i in geo.indices(nxt & others):
                    if not self._can_end(i, left, others):
                        nxt &= ~(1 << i)
            out += geo.square_actions(seat, "step", nxt)
        if h.aboard or not (self._foot_bits(exclude=self.current) >> h.square & 1):
            out.append(_plain(seat, "stop"))
        return out

    def _remote(self, h: Hunter) -> bool:
        return bool(h.character) and HUNTERS[h.character].remote

    def _attack_targets(self) -> list[tuple[str, ...]]:
        """SO-H2 (sees a placed agent: a concealed one cannot be attacked, SO-T3), SO-X6
        (not aboard), SO-H4 (not stunned). Args of each ``attack``: none with one agent,
        the agent's id with two."""
        if self.current is None:
            return []
        h = self.hunters[self.current]
        if h.aboard or h.stunned:
            return []
        table = self.sight()
        out: list[tuple[str, ...]] = []
        for i in self._live_agents():
            a = self.agents[i]
            if a.shown == a.square and table[h.square] >> a.square & 1:
                out.append((a.id,) if len(self.agents) == 2 else ())
        return out

    def _may_attack(self) -> bool:
        return bool(self._attack_targets())

    def _may_sniff(self) -> bool:
        """The Beast, after moving 3 or fewer steps, once."""
        if self.current is None or self.sniffed:
            return False
        h = self.hunters[self.current]
        moved = self.drove if h.aboard else self.steps
        return bool(h.character) and HUNTERS[h.character].sniff and moved <= SNIFF_MAX_STEPS

    def _can_end(self, square: int, steps_left: int, others: int) -> bool:
        """Whether a hunter on ``square`` with ``steps_left`` steps can end its move
        legally: on a square without another hunter on foot (SO-H1)."""
        if not others >> square & 1:
            return True
        if steps_left == 0:
            return False
        nxt = self.geo.steps[square]
        return any(self._can_end(i, steps_left - 1, others) for i in self.geo.indices(nxt))

    def _drive_bits(self) -> int:
        """Road squares the vehicle may drive to in one step (SO-V1)."""
        geo = self.geo
        return geo.steps[self.vehicle] & geo.road & ~self._foot_bits()

    def _may_scan(self) -> bool:
        """SO-V5, SO-V7: aboard since the start of the turn, the vehicle unmoved."""
        return self.started_aboard and self.drove == 0 and not self.vehicle_moved

    def _end_hunter_move(self) -> None:
        if self.current is None:  # pragma: no cover
            return
        h = self.hunters[self.current]
        viewers = [h]
        if self.drove:
            viewers += [x for x in self.hunters if x.aboard and x is not h]
        for i in self._live_agents():
            self.focus = i
            if self.with_characters and not h.aboard:
                self._ambush(h)
            self._announce(h, viewers)
        self.focus = 0
        if self._may_attack() or self._may_sniff():
            self.phase = "attack"  # SO-H2: attack (or sniff) after moving, or end
        else:
            self._end_hunter_turn()

    def _announce(self, h: Hunter, viewers: list[Hunter]) -> None:
        """SO-H3: the focused agent answers "Clear" or is placed — placed only if a loyal
        viewer sees it (SO-T3); the traitor alone seeing it is a concealed sighting."""
        geo = self.geo
        me = self.agents[self.focus]
        who = {"agent": me.id} if len(self.agents) == 2 else {}
        # A figure on the board is seen by anyone who looks, the traitor too; a hidden
        # agent is placed only by a loyal viewer (SO-T3).
        placed = self.shown is not None
        eyes = [
            x.square for x in viewers if placed or x.id != self.traitor or self.traitor_revealed
        ]
        if self._seen_by(eyes) >> self.agent_square & 1:
            self.shown = self.agent_square
            self._emit(
                "announcement",
                hunter=h.id,
                **who,
                answer="visible",
                square=geo.name(self.agent_square),
            )
            square = self.agent_square
            if not placed and self.focus == 0 and self.traitor and not self.traitor_revealed:
                # In each possible traitor's world, a viewer other than it placed the agent.
                table = self.sight()
                placers = {
                    t: any(table[x.square] >> square & 1 for x in viewers if x.id != t)
                    for t in self.knowledge.possible_traitors()
                }
                self._learn(lambda k: k.roles_where(lambda r: placers[r[0]]))
            self._learn(lambda k: k.revealed(square))
            self._reveal_character()
            return
        self._emit("announcement", hunter=h.id, **who, answer="clear", square=None)
        if self.focus == 1 or not self.traitor or self.traitor_revealed or placed:
            seen = self._seen_by([x.square for x in viewers])
            self._learn(lambda k: k.keep(~seen))
            return
        # Each possible traitor's world: its own sight places nothing, and if the agent
        # is not on the board, the traitor seeing it is a concealed sighting (SO-T4).
        table = self.sight()
        hidden = self.shown is None
        parts: dict[str, tuple[int, int]] = {}
        for t in self.knowledge.possible_traitors():
            others = self._seen_by([x.square for x in viewers if x.id != t])
            sees = table[next(x.square for x in self.hunters if x.id == t)] if hidden else 0
            parts[t] = (~others, sees)

        def split(role: Role) -> list[tuple[Role, int]]:
            clear, sees = parts[role[0]]
            if role[1] or not sees:
                return [(role, clear)]
            return [((role[0], True), clear & sees), (role, clear & ~sees)]

        self._learn(lambda k: k.split_roles(split))
        self._concealed_moment("hunter_turn")

    def _ambush(self, h: Hunter) -> None:
        """The Cobra: a hunter ending its move on the hidden agent is stunned; one ending
        orthogonally next to it is stunned on a d6 of 4+. The roll and the stun are
        public (and so is the lack of one, for a map that allows a Cobra); with two
        agents, so is which agent ambushed."""
        geo = self.geo
        zone = 1 << h.square | geo.orthogonal(h.square)
        if self.shown is not None:
            return  # only the hidden agent ambushes
        if self.character == "cobra" and zone >> self.agent_square & 1:
            roll = None
            if self.agent_square == h.square:
                stun = True
            else:
                roll = self._streams.stream("ambush", self.round, h.id).die(6)
                stun = roll >= 4
            if stun:
                h.stunned = True
            who = {"agent": self.agents[self.focus].id} if len(self.agents) == 2 else {}
            self._emit("ambush", hunter=h.id, **who, roll=roll, stunned=stun)
            place = 1 << h.square if roll is None else geo.orthogonal(h.square)
            self._learn(lambda k: k.kits_where(lambda kit: kit[0] == "cobra").keep(place))
        else:
            self._learn(lambda k: k.split_kits(lambda kit: ~zone if kit[0] == "cobra" else -1))

    def _end_hunter_turn(self) -> None:
        if self.current is None:  # pragma: no cover
            return
        h = self.hunters[self.current]
        if self.drove:
            self.vehicle_moved = True
        if h.stunned and h.stunned_at_start:
            # SO-H4: removed at the end of a turn that began stunned; a stun received
            # during its own turn lasts through its next turn.
            h.stunned = False
            self._emit("stun_removed", hunter=h.id)
        h.acted = True
        self.current = None
        self._next_hunter()

    def _attack(self, target: str = "") -> None:
        if self.current is None:  # pragma: no cover
            return
        if target:
            self.focus = next(i for i, a in enumerate(self.agents) if a.id == target)
        h = self.hunters[self.current]
        geo = self.geo
        a, b = geo.square(h.square), geo.square(self.agent_square)
        distance = max(abs(a.row - b.row), abs(a.col - b.col))
        modifier = 0
        faces: list[int] = []
        if distance == 0:
            hit = True  # SO-X2
        else:
            # The first agent's attack stream is the one-agent game's.
            extra = (target,) if target and target != "A1" else ()
            hit, faces = roll_attack(
                h.character,
                self.character,
                distance,
                self._streams.stream("attack", self.round, h.id, *extra),
            )
            modifier = attack_modifier(h.character, self.character, distance)
        if hit:
            self.health -= 1  # SO-A9
        who = {"agent": target} if target else {}
        self._emit(
            "attack",
            hunter=h.id,
            **who,
            distance=distance,
            dice=faces,
            modifier=modifier,
            hit=hit,
            health=self.health,
        )
        if self.health <= 0:
            if len(self.agents) == 2:
                reason, rule = f"agent {target}'s health reached 0", "SO-T6"
            else:
                reason, rule = "the agent's health reached 0", "SO-E3"
            self.focus = 0
            self._finish(HUNTER_SIDE, reason, rule, "eliminated")
            return
        self.focus = 0
        self._end_hunter_turn()

    def _end_round(self) -> None:
        if self.round >= self.max_rounds:
            self._finish(
                HUNTER_SIDE,
                f"round {self.round} ended and the agent has not escaped",
                "SO-G3",
                "time",
            )
            return
        self.round += 1
        self.round_events = len(self.events)
        self.focus = self._live_agents()[0]
        self._start_agent_turn()

    # ================================================================== the traitor

    def _may_accuse(self, h: Hunter) -> bool:
        """SO-T4 (R): once per game per hunter seat, at the start of its turn, while the
        traitor is unrevealed."""
        return (
            self.traitor_game
            and not self.traitor_revealed
            and h.seat not in self.accused
            and self.steps == 0
            and self.drove == 0
        )

    def _accuse(self, h: Hunter, accused: str) -> None:
        """Proven if the accused had a concealed sighting (SO-T4): it is revealed.
        Otherwise nothing happens and the failure is announced — which tells the map
        that if the accused is the traitor, it has seen nothing concealed yet."""
        self.accused[h.seat] = accused
        proven = accused == self.traitor and bool(self.concealed)
        self._emit("accusation", hunter=h.id, seat=h.seat, accused=accused, proven=proven)
        if proven:
            # Proven: the accused is the traitor and has had a concealed sighting.
            self._learn(lambda k: k.roles_where(lambda r: r == (accused, True)))
            self._reveal_traitor("accused")
            return
        self.failed_accusations += 1
        self._learn(lambda k: k.roles_where(lambda r: not (r[0] == accused and r[1])))

    def _reveal_traitor(self, how: str) -> None:
        """SO-T4, SO-T5: the traitor's figure leaves the hunters and becomes a second,
        hidden agent on its square; it picks an agent character not in use (4 health,
        6 for the Orangutan) and 2 cards, in secret."""
        geo = self.geo
        k = next(i for i, x in enumerate(self.hunters) if x.id == self.traitor)
        h = self.hunters[k]
        self.traitor_revealed = True
        was_current = self.current == k
        current = None if self.current is None else self.hunters[self.current]
        del self.hunters[k]
        self.current = None if current is None or was_current else self.hunters.index(current)
        self._emit(
            "traitor_revealed",
            hunter=h.id,
            seat=h.seat,
            square=geo.name(h.square),
            how=how,
        )
        self._learn(lambda m: m.roles_where(lambda r: r[0] == h.id))
        self.traitor_map = None
        a2 = Agent(
            "A2",
            h.seat,
            h.square,
            [h.square],
            BASE_HEALTH,
            PossibilityMap.start(h.square, ()),
            max_health=BASE_HEALTH,
            character_public=not self.with_characters,
            turn_start=h.square,
            path_sight=self.sight(),
            shown=h.square,
        )
        self.agents.append(a2)
        self._resume = "next" if was_current or self.current is None else "hunter"
        if self.with_characters:
            self.focus = 1
            self.phase = "pick_agent"
            self._emit("second_agent", agent="A2", seat=h.seat, square=geo.name(h.square))
        else:
            self._emit(
                "second_agent",
                agent="A2",
                seat=h.seat,
                square=geo.name(h.square),
                health=a2.health,
            )
            self._second_agent_ready()

    def _second_agent_ready(self) -> None:
        """A2's kit is chosen: its map starts; the hunters' round goes on."""
        a2 = self.agents[1]
        a1_char = self.agents[0].character if self.agents[0].character_public else None
        kits: list[Kit] = [NO_KIT]
        if self.with_characters:
            kits = [
                (char, tuple(sorted((c, CARDS[c].uses) for c in hand)))
                for char in AGENTS
                if char != a1_char
                for hand in itertools.combinations(card_pool(char), 2)
            ]
        a2.knowledge = PossibilityMap.start(a2.square, (), kits)
        self.focus = 0
        self._distinct_characters()
        if self._resume == "hunter":
            self.phase = "hunter"
        else:
            self._next_hunter()

    # ================================================================== apply

    def apply_unchecked(self, action: Action) -> list[Event]:
        before = len(self.events)
        kind = action.kind
        geo = self.geo
        if self.phase in ("pick_hunter", "pick_agent", "pick_cards"):
            self._apply_setup(action)
        elif self.phase == "deal":
            self._deal(str(action.args[0]))
        elif kind == "accuse" and self.current is not None:
            self._accuse(self.hunters[self.current], str(action.args[0]))
        elif kind == "reveal":
            self._reveal_traitor("voluntary")
        elif self.phase == "agent":
            if kind == "step":
                self.path.append(geo.parse(str(action.args[0])))
                if len(self.path) - 1 >= self._move_limit():
                    self._end_agent_move()
            elif kind == "use":
                self._use_card(action)
            else:  # stop
                self._end_agent_move()
        elif self.phase == "agent_after":
            if kind == "use":
                self._use_card(action)
            self._resolve_agent_turn()
        elif self.phase == "order":
            k = next(i for i, h in enumerate(self.hunters) if h.id == action.args[0])
            self._emit("order", hunter=self.hunters[k].id)
            self._start_hunter_turn(k)
        elif self.phase == "hunter":
            self._apply_hunter(action)
        elif kind == "attack":
            self._attack(str(action.args[0]) if action.args else "")
        elif kind == "sniff":
            self._sniff()
        else:  # end
            self._end_hunter_turn()
        return self.events[before:]

    def _sniff(self) -> None:
        """The Beast: the agent says whether it is within 4 squares (public)."""
        if self.current is None:  # pragma: no cover
            return
        h = self.hunters[self.current]
        geo = self.geo
        self.sniffed = True
        zone = geo.within(h.square, SNIFF_RANGE)
        for i in self._live_agents():
            self.focus = i
            near = bool(zone >> self.agent_square & 1)
            who = {"agent": self.agents[i].id} if len(self.agents) == 2 else {}
            self._emit("sniff", hunter=h.id, **who, near=near)
            bits = zone if near else ~zone
            self._learn(partial(PossibilityMap.keep, bits=bits))
        self.focus = 0
        if not self._may_attack():
            self._end_hunter_turn()

    def _apply_hunter(self, action: Action) -> None:
        if self.current is None:  # pragma: no cover
            return
        h = self.hunters[self.current]
        geo = self.geo
        kind = action.kind
        if kind == "step":
            target = geo.parse(str(action.args[0]))
            if h.aboard:
                h.aboard = False
                h.square = target
                self._emit("got_out", hunter=h.id, square=geo.name(target))
                self._end_hunter_move()  # SO-V2
                return
            h.square = target
            self.steps += 1
            self._emit("hunter_step", hunter=h.id, square=geo.name(target))
            if self.steps >= self._limit(h):
                self._stop_hunter(h)
        elif kind == "drive":
            target = geo.parse(str(action.args[0]))
            self.vehicle = target
            self.drove += 1
            for x in self.hunters:
                if x.aboard:
                    x.square = target
            self._emit("drive", hunter=h.id, square=geo.name(target))
            if self.drove >= DRIVE:
                self._end_hunter_move()
        elif kind == "sensor":
            self.vehicle_scanned = True
            self._sensor(h)
        else:  # stop
            self._stop_hunter(h)

    def _stop_hunter(self, h: Hunter) -> None:
        if not h.aboard and h.square == self.vehicle:
            h.aboard = True  # SO-V2: ending the move on the vehicle is getting in
            self._emit("got_in", hunter=h.id, square=self.geo.name(self.vehicle))
        self._end_hunter_move()

    def _sensor(self, h: Hunter) -> None:
        """SO-V5: each agent on the board answers for its own last move."""
        geo = self.geo
        for i in self._live_agents():
            self.focus = i
            who = {"agent": self.agents[i].id} if len(self.agents) == 2 else {}
            if self.jammed_until == self.round:
                self._emit("sensor", hunter=h.id, **who, answer="jammed")  # Signal Jammer
            elif self.last_steps >= 3:
                point = bearing(geo.square(self.vehicle), geo.square(self.agent_square))
                self._emit("sensor", hunter=h.id, **who, answer=point)
                bits = geo.compass_bits(self.vehicle, point)
                self._learn(partial(PossibilityMap.sensor, moved=True, bits=bits))
            else:
                self._emit("sensor", hunter=h.id, **who, answer="no movement detected")
                self._learn(lambda k: k.sensor(False))
        self.focus = 0
        self._end_hunter_move()

    # ================================================================== illegal actions

    # ================================================================== views

    def public_agent_square(self) -> int | None:
        """The agent's square if its figure is on the board (public), else None."""
        return self.shown
