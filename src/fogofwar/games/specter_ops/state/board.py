"""The fields of a Specter Ops game and the queries every section of the rules reads:
the agent figures and the one in focus, the hunters and the vehicle, the objectives,
sight (smoke included), whose turn it is, the hunters' knowledge and the end.

:class:`Board` is the base of the state: each section of the rules (``setup.py``,
``agent_turn.py``, ``equipment.py``, ``hunter_turn.py``, ``sightings.py``,
``attacks.py``, ``traitor.py``) adds its moves to it in turn, and ``game.py`` assembles
them into :class:`~.game.SpecterOpsState` with the phase table.

Chance: every draw comes from a keyed stream under the game's secret seed (the
objective sites per sector, an attack per round and hunter, the Cobra's ambush), so no
hidden choice shifts a public roll.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from ....core.collector import CollectorPaused
from ....core.game import Action, Config, Event, Outcome, Ruleset, emit
from ....core.rng import Streams
from ....core.rules import Refusal, TableState
from ..characters import HUNTERS
from ..geometry import Geometry
from ..knowledge import NO_KIT, Kit, PossibilityMap
from .pieces import (
    AGENT,
    AGENT_SIDE,
    BASE_HEALTH,
    FIGURES,
    FOUR_PLAYER_HEALTH,
    HUNTER_SEATS,
    MOVE,
    STEALTH_RANGE,
    STUNNED_MOVE,
    SURGE_MOVE,
    Agent,
    Hunter,
    Moment,
    Phase,
    Resume,
    Sighting,
    Smoke,
    hunter_count,
    seats_for,
)

__all__ = ["Board"]


@functools.lru_cache(maxsize=256)
def _only(seat: str) -> frozenset[str]:
    """``frozenset({seat})``, made once per seat (``to_act`` is asked on every action)."""
    return frozenset({seat})


_NOBODY: frozenset[str] = frozenset()
_AGENT, _HUNTER, _ATTACK, _ORDER, _OVER = (
    Phase.AGENT,
    Phase.HUNTER,
    Phase.ATTACK,
    Phase.ORDER,
    Phase.OVER,
)


def _not_character(character: str, other: str) -> bool:
    return other != character


#: A public fact about the agent: a map of its worlds to the worlds that agree with it.
Fact = Callable[[PossibilityMap], PossibilityMap]


class Board(TableState):
    """The fields of one Specter Ops game and the queries every section reads."""

    def __init__(self, ruleset: Ruleset, config: Config, geo: Geometry, seed: int | str) -> None:
        players = int(config["players"])
        self.ruleset = ruleset
        self.config = config
        self.geo = geo
        self._streams = Streams(seed)  # secret: never reaches a view or an event
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
        self.concealed: list[Sighting] = []  # the traitor's concealed sightings
        self.accused: dict[str, str] = {}  # hunter seat -> the figure it accused (public)
        self.failed_accusations = 0
        # The traitor's own map of A1 (``traitor_map``): while the traitor has seen the
        # agent no more than the public record says (no concealed sighting of its own)
        # it is exactly the public map's worlds of its role, unflagged, and is worked
        # out from that map when read (``_traitor_derived``) instead of working every
        # fact into a second map; after a sighting of its own it is kept here.
        self._traitor_own: PossibilityMap | None = None
        self._traitor_derived = False
        # This action's facts so far, from the public map before the first: what the
        # traitor's own map is worked out from if it sees the agent at this action.
        self._traitor_facts: tuple[PossibilityMap, list[Fact]] | None = None
        self._resume: Resume | None = None  # the hunters' round after A2's setup
        # A search's world skips the hunters' maps (skip_views): views only read them.
        self.searching = False
        self.round = 1
        self.phase = Phase.AGENT
        self.events: list[Event] = []
        self.round_events = 0  # index in self.events where this round began
        self._outcome: Outcome | None = None
        self.end_reason = ""
        # -- the agent (secret unless revealed); its start is known (SO-S5)
        health = BASE_HEALTH + (FOUR_PLAYER_HEALTH if players == 4 else 0)
        # The agent in focus: the agent figure whose turn (or setup) it is, else A1.
        # The single-agent rules read and write "the agent" (``self.focus``); with two
        # agents (SO-T5) the same code runs for each by moving the focus.
        self.focus_index = 0
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
        self.smokes: list[Smoke] = []
        self.jammed_until = 0  # the round whose sensor a Signal Jammer blinds
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
        self.focus.knowledge = PossibilityMap.start(geo.agent_start, allowed)
        self._kits: tuple[Kit, ...] = (NO_KIT,)
        sites = [{"sector": j + 1, "site": geo.name(s)} for j, s in enumerate(self.sites)]
        emit(
            self.events,
            "setup",
            players=players,
            vehicle=geo.name(self.vehicle),
            hunters=[h.id for h in self.hunters],
            agent=geo.name(geo.agent_start),
            health=None if self.with_characters else self.focus.health,
            objectives=None if self.hidden_sites else sites,
        )
        if self.hidden_sites:
            emit(self.events, "objective_sites", to=(AGENT,), objectives=sites)

    if TYPE_CHECKING:
        # Moves of later sections that earlier ones start (defined where named).

        def _start_agent_turn(self) -> None:
            """The agent in focus begins its turn (``agent_turn.py``)."""

        def _card_options(self, moment: Moment) -> list[tuple[str, ...]]:
            """The cards the agent may use now (``equipment.py``)."""

        def _next_hunter(self) -> None:
            """The hunters' round goes on (``hunter_turn.py``)."""

        def _may_attack(self) -> bool:
            """Whether the active hunter may attack (``attacks.py``)."""

        def _may_sniff(self) -> bool:
            """Whether the active hunter may sniff (``attacks.py``)."""

        def _concealed_moment(self, moment: str, *, stealth: bool = False) -> None:
            """The traitor's concealed sighting, if any (``traitor.py``)."""

        def _second_agent_ready(self) -> None:
            """The revealed traitor's agent is ready (``traitor.py``)."""

        def _traitor_refusal(self, seat: str, kind: str, accused: str | None) -> Refusal:
            """Why a deal, an accusation or a reveal is refused (``traitor.py``)."""

    # ------------------------------------------------------------------ the agents

    @property
    def focus(self) -> Agent:
        """The agent in focus: the agent figure whose turn (or setup) it is, else A1."""
        return self.agents[self.focus_index]

    def _who(self) -> dict[str, Any]:
        """An event's ``agent`` field: named only once there are two agents (SO-T5)."""
        return {"agent": self.focus.id} if len(self.agents) == 2 else {}

    def _live_agents(self) -> list[int]:
        """Indices of the agents still on the board (not escaped)."""
        return [i for i, a in enumerate(self.agents) if not a.escaped]

    def public_agent_square(self) -> int | None:
        """The agent's square if its figure is on the board (public), else None."""
        return self.focus.shown

    def move_limit(self) -> int:
        """The steps of the agent's move (SO-A1): 4, or 6 after an Adrenal Surge."""
        return SURGE_MOVE if self.focus.used_before == "adrenal-surge" else MOVE

    # ------------------------------------------------------------------ the traitor's map

    @property
    def traitor_map(self) -> PossibilityMap | None:
        """The traitor's own map of A1 (SO-T3), ``None`` outside an unrevealed traitor
        game: the worlds its seat allows, knowing its role and what it saw."""
        if not self._traitor_derived:
            return self._traitor_own
        with CollectorPaused():
            return self.agents[0].knowledge.traitor_worlds(self.traitor)

    @traitor_map.setter
    def traitor_map(self, known: PossibilityMap | None) -> None:
        self._traitor_own = known
        self._traitor_derived = False
        self._traitor_facts = None

    def _derive_traitor_map(self) -> None:
        """From now on the traitor's map is the public map's worlds of its role (the
        deal: it knows its role and nothing more, SO-T2), until it sees the agent
        unseen by the others (:meth:`_own_traitor_map`)."""
        self.traitor_map = None
        self._traitor_derived = True

    def _own_traitor_map(self) -> PossibilityMap:
        """The traitor's map kept as its own from now on (a sighting of its own at this
        action): its derived map before this action's first fact, with every fact of
        the action worked in, as the public map was. Between actions the derived map is
        exact, so the facts of one action are all it needs."""
        if self._traitor_derived:
            before, facts = self._traitor_facts or (self.agents[0].knowledge, [])
            with CollectorPaused():
                known = before.traitor_worlds(self.traitor)
                for fact in facts:
                    known = fact(known)
            self.traitor_map = known
        assert self._traitor_own is not None  # only asked in the traitor game
        return self._traitor_own

    def apply_unchecked(self, action: Action) -> list[Event]:
        try:
            return super().apply_unchecked(action)
        finally:
            # Between actions the traitor's derived map is exact: the facts kept to
            # work out its own map start again with the next action.
            self._traitor_facts = None

    def _learn(self, fact: Fact) -> None:
        """Apply a public fact to the focused agent's map (and, for A1, to the traitor's
        own map of it), then keep two agents' characters distinct (SO-T5)."""
        if self.searching:
            return
        # The cyclic garbage collector paused meanwhile: a fact makes tens of thousands
        # of tuples of integers, which kept starting collections that walk every object
        # of the process and find nothing, since a map holds no cycles (at 5 players
        # they were about a seventh of a game's applies, and 24-57 ms of each of the
        # slowest; docs/specter-ops.md).
        with CollectorPaused():
            me = self.focus
            before = me.knowledge
            me.knowledge = fact(before)
            if self.focus_index == 0:
                if self._traitor_derived:
                    # Not worked in twice: kept should the traitor see the agent at
                    # this action (_own_traitor_map).
                    if self._traitor_facts is None:
                        self._traitor_facts = (before, [fact])
                    else:
                        self._traitor_facts[1].append(fact)
                elif self._traitor_own is not None:
                    self._traitor_own = fact(self._traitor_own)
        if len(self.agents) == 2:
            self._distinct_characters()

    def _distinct_characters(self) -> None:
        """The second agent's character is one not in use (SO-T5): where one map allows a
        single character, the other map cannot have it."""
        if self.searching:
            return
        a1, a2 = self.agents
        for one, other in ((a1, a2), (a2, a1)):
            chars = one.knowledge.possible_characters()
            if len(chars) == 1 and "" not in chars:
                (c,) = chars
                if c in other.knowledge.possible_characters():
                    other.knowledge = other.knowledge.characters_where(partial(_not_character, c))
                    if other is a1 and self.traitor_map is not None:
                        self.traitor_map = self.traitor_map.characters_where(
                            partial(_not_character, c)
                        )

    def skip_views(self) -> None:
        """The possibility maps (what only views read, SO-I2) are no longer kept: a
        search's world plays the same rules without them."""
        self.searching = True

    # ------------------------------------------------------------------ the hunters

    def _loyal(self) -> list[Hunter]:
        """The hunters whose sight places the agent: all but an unrevealed traitor (SO-T3)."""
        return [h for h in self.hunters if h.id != self.traitor or self.traitor_revealed]

    def _next_unpicked(self) -> Hunter:
        """The first hunter figure without a character (SO-S4: they choose in order)."""
        for h in self.hunters:
            if not h.character:
                return h
        raise RuntimeError("every hunter has a character")  # pragma: no cover

    def _foot_bits(self, exclude: int | None = None) -> int:
        """Squares of hunters on foot (the agent may not enter them, SO-A1); ``exclude``:
        the index of a hunter to leave out."""
        bits = 0
        if exclude is None:  # the common case, asked several times an action
            for h in self.hunters:
                if not h.aboard:
                    bits |= 1 << h.square
            return bits
        for k, h in enumerate(self.hunters):
            if not h.aboard and k != exclude:
                bits |= 1 << h.square
        return bits

    def hunter_limit(self, h: Hunter) -> int:
        """The steps of a hunter's movement: 4, or 2 when stunned (SO-H1, SO-H4)."""
        return STUNNED_MOVE if h.stunned else MOVE

    def _remote(self, h: Hunter) -> bool:
        """The Puppet: the sensor or the vehicle from anywhere, instead of moving."""
        return bool(h.character) and HUNTERS[h.character].remote

    # ------------------------------------------------------------------ sight

    def smoke_bits(self) -> int:
        """The squares under smoke now (public)."""
        bits = 0
        for smoke in self.smokes:
            bits |= smoke.area
        return bits

    def sight(self) -> tuple[int, ...]:
        """The sight table now: the board's, with any smoke (public)."""
        return self.geo.sight_with(self.smoke_bits())

    def _seen_by(self, viewers: Sequence[int], *, stealth: bool = False) -> int:
        """Squares seen from ``viewers``; with a Stealth Field only those within 2."""
        table = self.sight()
        out = 0
        for v in viewers:
            out |= table[v] & (self.geo.within(v, STEALTH_RANGE) if stealth else -1)
        return out

    def escape_bits(self) -> int:
        """The escape points (SO-E1): the board's, and the 5-player ones with 5."""
        bits = 0
        for e in self.geo.escape + (self.geo.escape_five if self.players == 5 else ()):
            bits |= 1 << e
        return bits

    # ------------------------------------------------------------------ turns and the end

    def to_act(self) -> frozenset[str]:
        # Asked on every action: the phases as module constants (an enum member looked
        # up on its class costs more than the rest of this method).
        phase = self.phase
        if phase is _AGENT:
            return _only(self.agents[self.focus_index].seat)
        if phase is _HUNTER or phase is _ATTACK:
            if self.current is None:  # pragma: no cover - these phases have a hunter
                raise RuntimeError("no active hunter")
            return _only(self.hunters[self.current].seat)
        if phase is _ORDER:
            # The hunters' choice is entered by the first hunter seat still hunting (a
            # revealed traitor no longer speaks for them, SO-T5).
            return _only(self.hunters[0].seat)
        if phase is _OVER:
            return _NOBODY
        if phase is Phase.DEAL:
            return _only(AGENT)
        if phase is Phase.PICK_HUNTER:
            return _only(self._next_unpicked().seat)
        return _only(self.focus.seat)  # after the move, and the agent's setup

    def outcome(self) -> Outcome | None:
        return self._outcome

    def _finish(self, sides: str, reason: str, rule: str, code: str) -> None:
        agents = {AGENT, self.traitor_seat} - {""}  # SO-T6: the traitor wins with the agent
        winners = frozenset(agents if sides == AGENT_SIDE else set(self.seats) - agents)
        self._outcome = Outcome(winners, frozenset({sides}), reason, rule)
        self.end_reason = code
        self.phase = Phase.OVER
        self.current = None
        emit(self.events, "game_over", winner=sides, reason=reason, rule=rule)
