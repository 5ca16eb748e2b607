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

import copy
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...core.dice import exploding_check
from ...core.errors import RulesError
from ...core.game import Action, Config, Event, Outcome, PlayerView, Ruleset, State
from ...core.rng import Streams
from .geometry import Geometry, bearing
from .knowledge import PossibilityMap

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
    """

    id: str
    seat: str
    square: int
    aboard: bool = True
    stunned: bool = False
    acted: bool = False


_FACES = re.compile(r"d6\[(\d+)\]")


class SpecterOpsState(State):
    """One game of Specter Ops (2–4 players; see the module doc for the phases)."""

    def __init__(self, ruleset: Ruleset, config: Config, geo: Geometry, seed: int | str) -> None:
        players = int(config["players"])
        if players == 5:
            raise RulesError(
                "the 5-player game (SO-T1…T6) is not available yet: use players=2, 3 or 4"
            )
        self.ruleset = ruleset
        self.config = config
        self.geo = geo
        self._streams = Streams(seed)
        self.players = players
        self.seats = seats_for(players)
        self.max_rounds = int(config["max_rounds"])
        self.round = 1
        self.phase = "agent"
        self.events: list[Event] = []
        self.round_events = 0  # index in self.events where this round began
        self._outcome: Outcome | None = None
        self.end_reason = ""
        # -- the agent (secret unless revealed)
        self.agent_square = geo.agent_start
        self.path: list[int] = [geo.agent_start]
        self.last_steps = 0
        self.health = BASE_HEALTH + (FOUR_PLAYER_HEALTH if players == 4 else 0)
        # The agent's figure on the board (public): its start is known (SO-S5).
        self.shown: int | None = geo.agent_start
        self.last_seen: int | None = None
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
        # -- the hunters' knowledge, from public facts only (SO-I2)
        allowed = [
            frozenset(geo.sites[j]) if self.hidden_sites else frozenset({self.sites[j]})
            for j in range(len(self.sites))
        ]
        self.knowledge = PossibilityMap.start(geo.agent_start, allowed)
        sites = [{"sector": j + 1, "site": geo.name(s)} for j, s in enumerate(self.sites)]
        self._emit(
            "setup",
            players=players,
            vehicle=geo.name(self.vehicle),
            hunters=[h.id for h in self.hunters],
            agent=geo.name(geo.agent_start),
            health=self.health,
            objectives=None if self.hidden_sites else sites,
        )
        if self.hidden_sites:
            self._emit("objective_sites", to=(AGENT,), objectives=sites)
        self._start_agent_turn()

    # ================================================================== helpers

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

    def _finish(self, sides: str, reason: str, rule: str, code: str) -> None:
        winners = frozenset({AGENT} if sides == AGENT_SIDE else set(self.seats[1:]))
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
            return frozenset({AGENT})
        if self.phase == "order":
            return frozenset({HUNTER_SEATS[0]})
        if self.current is None:  # pragma: no cover - phases guarantee a hunter
            raise RuntimeError("no active hunter")
        return frozenset({self.hunters[self.current].seat})

    def legal_actions(self, seat: str) -> list[Action]:
        if seat not in self.to_act():
            return []
        if self.phase == "agent":
            return self._agent_actions()
        if self.phase == "order":
            return [Action(seat, "next", (h.id,)) for h in self.hunters if not h.acted]
        if self.phase == "hunter":
            return self._hunter_actions(seat)
        return [Action(seat, "attack"), Action(seat, "end")]

    def outcome(self) -> Outcome | None:
        return self._outcome

    def clone(self) -> SpecterOpsState:
        new = copy.copy(self)
        new.events = list(self.events)
        new.path = list(self.path)
        new.done = list(self.done)
        new.public_sites = list(self.public_sites)
        new.hunters = [copy.copy(h) for h in self.hunters]
        return new

    # ================================================================== the agent

    def _agent_steps(self) -> int:
        """Squares the agent may step to now (bitboard)."""
        if len(self.path) - 1 >= MOVE:
            return 0
        geo = self.geo
        here = self.path[-1]
        foot = self._foot_bits()
        # SO-A2 looks at blocking terrain only; hunters just may not be entered (SO-A1).
        nxt = geo.graph.step_bits(1 << here) & ~foot
        vbit = 1 << self.vehicle
        if nxt & vbit:
            # The vehicle's square may be crossed, not ended on (SO-A3): step onto it only
            # with a step to spare and a way off it.
            way_off = geo.graph.step_bits(vbit) & ~foot & ~vbit
            if len(self.path) >= MOVE or not way_off:
                nxt &= ~vbit
        return nxt

    def _agent_can_stop(self, steps: int | None = None) -> bool:
        here = self.path[-1]
        if here == self.vehicle or (self._foot_bits() >> here & 1):
            # SO-A3: not an end square — unless the agent cannot move at all.
            return len(self.path) == 1 and not (self._agent_steps() if steps is None else steps)
        return True

    def _agent_actions(self) -> list[Action]:
        steps = self._agent_steps()
        out = [Action(AGENT, "step", (self.geo.name(i),)) for i in self.geo.indices(steps)]
        if self._agent_can_stop(steps):
            out.append(Action(AGENT, "stop"))
        return out

    def _start_agent_turn(self) -> None:
        """Objectives first (SO-O1…O3), then the move."""
        geo = self.geo
        here = self.agent_square
        completed: dict[int, int] = {}
        open_sectors = [j for j, d in enumerate(self.done) if not d]
        for j in open_sectors:
            if geo.adjacent[self.sites[j]] >> here & 1:
                completed[j] = self.sites[j]
        for j in completed:
            self.done[j] = True
            self.public_sites[j] = self.sites[j]  # SO-O2: turned red side up, public
        if completed:
            self._emit(
                "objectives_completed",
                completed=[{"sector": j + 1, "site": geo.name(s)} for j, s in completed.items()],
                done=sum(self.done),
            )
        self.knowledge = self.knowledge.objectives(geo, completed, open_sectors)
        self.path = [here]
        self.phase = "agent"
        self._emit("agent_turn", round=self.round)

    def _end_agent_move(self) -> None:
        geo = self.geo
        path = self.path
        here = path[-1]
        self.agent_square = here
        self.last_steps = len(path) - 1
        seen = geo.seen_by(self._hunter_squares())
        visible = [sq for sq in path if seen >> sq & 1]
        square: int | None
        if seen >> here & 1:
            result, square = "revealed", here  # SO-A5
            self.shown = here
        elif visible:
            result, square = "last_seen", visible[-1]  # SO-A6
            self.last_seen = square
            self.shown = None
        else:
            result, square = "hidden", None
            self.shown = None
        self._emit("agent_path", to=(AGENT,), path=[geo.name(s) for s in path])
        self._emit(
            "agent_moved",
            result=result,
            square=None if square is None else geo.name(square),
        )
        foot = self._foot_bits()
        self.knowledge = self.knowledge.moved(
            geo,
            result=result,
            square=square,
            blocked=foot,
            no_end=foot | 1 << self.vehicle,
            unseen=geo.passable & ~seen,
        )
        escapes = self._escape_bits()
        if sum(self.done) >= OBJECTIVES_TO_ESCAPE:
            blocked = any(h.square == here for h in self.hunters)  # SO-E2
            if escapes >> here & 1 and not blocked:
                self._emit("escaped", square=geo.name(here))
                self._finish(
                    AGENT_SIDE, f"the agent escaped at {geo.name(here)}", "SO-E1", "escaped"
                )
                return
            # The game goes on, so the agent is not on a free escape point (public).
            held = 0
            for h in self.hunters:
                held |= 1 << h.square
            self.knowledge = self.knowledge.keep(~(escapes & ~held))
        for h in self.hunters:
            h.acted = False
        self.vehicle_moved = False
        self.vehicle_scanned = False
        self._next_hunter()

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
        if h.aboard:
            if self.drove == 0:
                # Get out onto a square next to the vehicle; that ends the move (SO-V2).
                exits = geo.graph.step_bits(1 << self.vehicle) & ~self._foot_bits()
                out += [Action(seat, "step", (geo.name(i),)) for i in geo.indices(exits)]
            if self.drove < DRIVE and not self.vehicle_scanned:
                for i in geo.indices(self._drive_bits()):
                    out.append(Action(seat, "drive", (geo.name(i),)))
            if self._may_scan():
                out.append(Action(seat, "sensor"))
        elif self.steps < self._limit(h):
            others = self._foot_bits(exclude=self.current)
            left = self._limit(h) - self.steps - 1
            nxt = [
                i
                for i in geo.indices(geo.graph.step_bits(1 << h.square))
                if self._can_end(i, left, others)  # never walk into a dead end
            ]
            out += [Action(seat, "step", (geo.name(i),)) for i in nxt]
        if h.aboard or not (self._foot_bits(exclude=self.current) >> h.square & 1):
            out.append(Action(seat, "stop"))
        return out

    def _can_end(self, square: int, steps_left: int, others: int) -> bool:
        """Whether a hunter on ``square`` with ``steps_left`` steps can end its move
        legally: on a square without another hunter on foot (SO-H1)."""
        if not others >> square & 1:
            return True
        if steps_left == 0:
            return False
        nxt = self.geo.graph.step_bits(1 << square)
        return any(self._can_end(i, steps_left - 1, others) for i in self.geo.indices(nxt))

    def _drive_bits(self) -> int:
        """Road squares the vehicle may drive to in one step (SO-V1)."""
        geo = self.geo
        return geo.graph.step_bits(1 << self.vehicle) & geo.road & ~self._foot_bits()

    def _may_scan(self) -> bool:
        """SO-V5, SO-V7: aboard since the start of the turn, the vehicle unmoved."""
        return self.started_aboard and self.drove == 0 and not self.vehicle_moved

    def _end_hunter_move(self) -> None:
        if self.current is None:  # pragma: no cover
            return
        h = self.hunters[self.current]
        geo = self.geo
        viewers = [x.square for x in self.hunters if x.aboard] if self.drove else [h.square]
        seen = geo.seen_by(viewers)
        if seen >> self.agent_square & 1:
            self.shown = self.agent_square
            self._emit(
                "announcement", hunter=h.id, answer="visible", square=geo.name(self.agent_square)
            )
            self.knowledge = self.knowledge.revealed(self.agent_square)
        else:
            self._emit("announcement", hunter=h.id, answer="clear", square=None)
            self.knowledge = self.knowledge.keep(~seen)
        if geo.sees(h.square, self.agent_square) and not h.aboard and not h.stunned:
            self.phase = "attack"  # SO-H2 (not aboard: SO-X6; not stunned: SO-H4)
        else:
            self._end_hunter_turn()

    def _end_hunter_turn(self) -> None:
        if self.current is None:  # pragma: no cover
            return
        h = self.hunters[self.current]
        if self.drove:
            self.vehicle_moved = True
        if h.stunned:
            h.stunned = False
            self._emit("stun_removed", hunter=h.id)
        h.acted = True
        self.current = None
        self._next_hunter()

    def _attack(self) -> None:
        if self.current is None:  # pragma: no cover
            return
        h = self.hunters[self.current]
        geo = self.geo
        a, b = geo.square(h.square), geo.square(self.agent_square)
        distance = max(abs(a.row - b.row), abs(a.col - b.col))
        if distance == 0:
            hit, faces = True, []  # SO-X2
        else:
            roll = exploding_check(6, distance).roll(
                self._streams.stream("attack", self.round, h.id)
            )
            hit, faces = bool(roll.value), [int(f) for f in _FACES.findall(roll.text)]
        if hit:
            self.health -= 1  # SO-A9
        self._emit(
            "attack",
            hunter=h.id,
            distance=distance,
            dice=faces,
            hit=hit,
            health=self.health,
        )
        if self.health <= 0:
            self._finish(HUNTER_SIDE, "the agent's health reached 0", "SO-E3", "eliminated")
            return
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
        self._start_agent_turn()

    # ================================================================== apply

    def apply_unchecked(self, action: Action) -> list[Event]:
        before = len(self.events)
        kind = action.kind
        geo = self.geo
        if self.phase == "agent":
            if kind == "step":
                self.path.append(geo.parse(str(action.args[0])))
                if len(self.path) - 1 >= MOVE:
                    self._end_agent_move()
            else:  # stop
                self._end_agent_move()
        elif self.phase == "order":
            k = next(i for i, h in enumerate(self.hunters) if h.id == action.args[0])
            self._emit("order", hunter=self.hunters[k].id)
            self._start_hunter_turn(k)
        elif self.phase == "hunter":
            self._apply_hunter(action)
        elif kind == "attack":
            self._attack()
        else:  # end
            self._end_hunter_turn()
        return self.events[before:]

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
        geo = self.geo
        if self.last_steps >= 3:
            point = bearing(geo.square(self.vehicle), geo.square(self.agent_square))
            self._emit("sensor", hunter=h.id, answer=point)
            self.knowledge = self.knowledge.sensor(True, geo.compass_bits(self.vehicle, point))
        else:
            self._emit("sensor", hunter=h.id, answer="no movement detected")
            self.knowledge = self.knowledge.sensor(False)
        self._end_hunter_move()

    # ================================================================== illegal actions

    def explain_illegal(self, action: Action) -> tuple[str, str | None]:
        if self.is_over or action.seat not in self.to_act():
            return super().explain_illegal(action)
        from .rules_text import explain

        found = explain(self, action)
        return found if found is not None else super().explain_illegal(action)

    # ================================================================== views

    def view(self, seat: str | None) -> PlayerView:
        from .views import build_view

        return build_view(self, seat)

    def public_agent_square(self) -> int | None:
        """The agent's square if its figure is on the board (public), else None."""
        return self.shown
