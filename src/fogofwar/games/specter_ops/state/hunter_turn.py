"""The hunters' turn (SO-R1, SO-H1, SO-H4, SO-V1…V7): who acts next, a hunter figure's
movement, the end of its turn and of the round.

* ``next H2`` — the hunters choose who acts next among those that have not (SO-R1);
  the last one needs no choice.
* ``step N2`` — a hunter on foot steps to a square next to it (SO-A2's squeeze rule
  applies), 4 steps, 2 when stunned (SO-H1, SO-H4); it may cross another hunter on foot
  but not end on one, so it never walks into a square it could not leave. A hunter
  aboard gets out onto a free square next to the vehicle, which ends its movement
  (SO-V2).
* ``drive K18`` — a hunter aboard drives the vehicle (with every hunter aboard) one road
  square a step, up to 10, not onto a hunter on foot (SO-V1); the Puppet drives it from
  anywhere instead of moving.
* ``sensor`` — the motion sensor, from a hunter aboard since the start of its turn,
  the vehicle unmoved this round (SO-V5, SO-V7); the Puppet from anywhere.
* ``stop`` — the movement ends (on the vehicle's square a hunter gets in, SO-V2), then
  the agents answer (``sightings.py``).
"""

from __future__ import annotations

from ....core.game import Action, emit
from ....core.rules import Refusal
from .pieces import DRIVE, HUNTER_SIDE, TRAITOR_KINDS, Hunter, Kind, Phase
from .sightings import Sightings
from .table import SquareName

__all__ = ["HunterTurn"]


#: The Puppet's refusal once it has stepped: its remote use replaces its move.
_PUPPET_LATE = (
    "the Puppet drives or uses the sensor from afar instead of moving: before its first step"
)


class HunterTurn(Sightings):
    """SO-R1, SO-H1, SO-H4, SO-V1…V7: the hunters' round and their movement."""

    def _active(self) -> Hunter:
        """The hunter whose turn it is."""
        assert self.current is not None  # the hunter and attack phases have one
        return self.hunters[self.current]

    # ------------------------------------------------------------------ the order (SO-R1)

    def _next_hunter(self) -> None:
        waiting = [k for k, h in enumerate(self.hunters) if not h.acted]
        if not waiting:
            self._end_round()
        elif len(waiting) == 1:
            self._start_hunter_turn(waiting[0])
        else:
            self.phase = Phase.ORDER
            self.current = None

    def _waiting(self, seat: str) -> list[tuple[str]]:
        return [(h.id,) for h in self.hunters if not h.acted]

    def _check_next(self, seat: str, args: tuple[str]) -> Refusal | None:
        """SO-R1: a hunter that has not acted this round."""
        if any(h.id == args[0] and not h.acted for h in self.hunters):
            return None
        return self._refuse_next()

    def _refuse_next(self, action: Action | None = None) -> Refusal:
        return "that hunter has already acted this round, or is not in the game", "SO-R1"

    def _refuse_in_order(self, action: Action) -> Refusal:
        if action.kind in TRAITOR_KINDS:
            return self._traitor_refusal(action.seat, action.kind, None)
        return "the hunters must first choose who acts next (next H1 …)", "SO-R1"

    def _next(self, seat: str, args: tuple[str]) -> None:
        k = next(i for i, h in enumerate(self.hunters) if h.id == args[0])
        emit(self.events, "order", hunter=self.hunters[k].id)
        self._start_hunter_turn(k)

    def _start_hunter_turn(self, k: int) -> None:
        h = self.hunters[k]
        self.current = k
        self.steps = 0
        self.drove = 0
        self.started_aboard = h.aboard
        self.sniffed = False
        h.stunned_at_start = h.stunned
        self.phase = Phase.HUNTER
        emit(self.events, "hunter_turn", hunter=h.id, seat=h.seat)

    # ------------------------------------------------------------------ steps (SO-H1, SO-V2)

    def _hunter_steps(self) -> int:
        """The squares the active hunter may step to now (bitboard): out of the vehicle,
        or on foot, never into a dead end (SO-H1, SO-H4, SO-V2)."""
        # Asked for every legal list (as are the drives, the sensor and the stop): the
        # active hunter without the call of _active().
        current = self.current
        assert current is not None  # the hunter phase has one
        h = self.hunters[current]
        geo = self.geo
        if h.aboard:
            # Get out onto a square next to the vehicle; that ends the move (SO-V2).
            return geo.steps[self.vehicle] & ~self._foot_bits() if self.drove == 0 else 0
        limit = self.hunter_limit(h)
        if self.drove or self.steps >= limit:
            return 0
        others = self._foot_bits(exclude=self.current)
        nxt = geo.steps[h.square]
        if nxt & others:
            # Never walk into a dead end: a square with a hunter on foot only if the
            # move can still end elsewhere.
            left = limit - self.steps - 1
            for i in geo.indices(nxt & others):
                if not self._can_end(i, left, others):
                    nxt &= ~(1 << i)
        return nxt

    def _can_end(self, square: int, steps_left: int, others: int) -> bool:
        """Whether a hunter on ``square`` with ``steps_left`` steps can end its move
        legally: on a square without another hunter on foot (SO-H1)."""
        if not others >> square & 1:
            return True
        if steps_left == 0:
            return False
        nxt = self.geo.steps[square]
        return any(self._can_end(i, steps_left - 1, others) for i in self.geo.indices(nxt))

    def _why_not_hunter_step(self, t: int) -> Refusal:
        """Which of SO-H1, SO-H4, SO-A2, SO-V2 a step to ``t`` breaks."""
        h = self._active()
        geo = self.geo
        if h.aboard:
            if self.drove:
                return "getting out ends the movement; this hunter has driven", "SO-V2"
            return (
                f"getting out goes to a free square next to the vehicle, not {geo.name(t)}",
                "SO-V2",
            )
        limit = self.hunter_limit(h)
        if self.steps >= limit:
            if h.stunned:
                return f"a stunned hunter moves at most {limit} steps", "SO-H4"
            return f"a hunter moves at most {limit} steps", "SO-H1"
        if not geo.adjacent[h.square] >> t & 1:
            return f"{geo.name(t)} is not next to {geo.name(h.square)}", "SO-H1"
        if not geo.passable >> t & 1:
            return f"{geo.name(t)} is blocking terrain", "SO-H1"
        if not geo.steps[h.square] >> t & 1:
            return "the diagonal step squeezes between two blocking squares", "SO-A2"
        return (
            "a hunter may not end its move on another hunter, and from there it could not "
            "move on to a free square",
            "SO-H1",
        )

    def _hunter_step(self, seat: str, args: tuple[SquareName]) -> None:
        h = self._active()
        geo = self.geo
        target = geo.parse(args[0])
        if h.aboard:
            h.aboard = False
            h.square = target
            emit(self.events, "got_out", hunter=h.id, square=geo.name(target))
            self._end_hunter_move()  # SO-V2
            return
        h.square = target
        self.steps += 1
        emit(self.events, "hunter_step", hunter=h.id, square=geo.name(target))
        if self.steps >= self.hunter_limit(h):
            self._stop_hunter(h)

    # ------------------------------------------------------------------ the vehicle (SO-V*)

    def _drive_targets(self) -> int:
        """SO-V1, SO-V7: the road squares the vehicle may drive to now (bitboard): by a
        hunter aboard (the Puppet: from anywhere, before moving), up to 10 steps, not
        once it was scanned from."""
        current = self.current
        assert current is not None  # the hunter phase has one
        h = self.hunters[current]
        if not (h.aboard or (self._remote(h) and self.steps == 0)):
            return 0
        if self.drove >= DRIVE or self.vehicle_scanned:
            return 0
        geo = self.geo
        return geo.steps[self.vehicle] & geo.road & ~self._foot_bits()

    def _why_not_drive(self, t: int | None) -> Refusal:
        """Which of SO-V1, SO-V7 a drive to ``t`` breaks (None: no square)."""
        geo = self.geo
        h = self._active()
        if not h.aboard:
            if not self._remote(h):
                return "only a hunter aboard the vehicle may drive it", "SO-V1"
            if self.steps:
                return _PUPPET_LATE, "SO-V1"
        if self.vehicle_scanned:
            return "a vehicle that was scanned from does not move this round", "SO-V7"
        if self.drove >= DRIVE:
            return f"the vehicle drives at most {DRIVE} steps", "SO-V1"
        if t is None or not geo.road >> t & 1:
            return "the vehicle drives only along the road", "SO-V1"
        if not geo.adjacent[self.vehicle] >> t & 1:
            return "the vehicle drives one square per step", "SO-V1"
        return "a hunter on foot stands there", "SO-V1"

    def _drive(self, seat: str, args: tuple[SquareName]) -> None:
        h = self._active()
        target = self.geo.parse(args[0])
        self.vehicle = target
        self.drove += 1
        for x in self.hunters:
            if x.aboard:
                x.square = target
        emit(self.events, "drive", hunter=h.id, square=self.geo.name(target))
        if self.drove >= DRIVE:
            self._end_hunter_move()

    def _may_sense(self) -> bool:
        """SO-V5, SO-V7: aboard since the start of the turn, the vehicle unmoved (the
        Puppet: from anywhere, before moving)."""
        current = self.current
        assert current is not None  # the hunter phase has one
        h = self.hunters[current]
        if h.aboard:
            return self.started_aboard and self.drove == 0 and not self.vehicle_moved
        if self._remote(h) and self.steps == 0:
            return self.drove == 0 and not self.vehicle_moved
        return False

    def _why_not_sensor(self) -> Refusal:
        h = self._active()
        if self._remote(h) and not h.aboard:
            if self.steps:
                return _PUPPET_LATE, "SO-V7"
        elif not h.aboard or not self.started_aboard:
            return "only a hunter that started its turn aboard may use the sensor", "SO-V7"
        return "the sensor may not be used in a round in which the vehicle moved", "SO-V7"

    def _sensor(self, seat: str, args: tuple[()]) -> None:
        self.vehicle_scanned = True
        self._sensor_answers(self._active())

    # ------------------------------------------------------------------ the end of the move

    def _may_stop(self) -> bool:
        """SO-H1: not on another hunter on foot (aboard, always)."""
        current = self.current
        assert current is not None  # the hunter phase has one
        h = self.hunters[current]
        return h.aboard or not (self._foot_bits(exclude=self.current) >> h.square & 1)

    def _why_not_stop(self) -> Refusal:
        return "a hunter may not end its move on another hunter", "SO-H1"

    def _stop(self, seat: str, args: tuple[()]) -> None:
        self._stop_hunter(self._active())

    def _stop_hunter(self, h: Hunter) -> None:
        if not h.aboard and h.square == self.vehicle:
            h.aboard = True  # SO-V2: ending the move on the vehicle is getting in
            emit(self.events, "got_in", hunter=h.id, square=self.geo.name(self.vehicle))
        self._end_hunter_move()

    def _refuse_in_movement(self, action: Action) -> Refusal:
        """A kind the hunter's movement does not allow: an attack or a sniff comes after
        it (SO-H2, SO-X6, SO-H4); the traitor's actions have their rules."""
        kind = action.kind
        if kind in TRAITOR_KINDS:
            return self._traitor_refusal(action.seat, kind, None)
        h = self._active()
        if kind == Kind.ATTACK:
            if h.aboard:
                return "a hunter aboard the vehicle may not attack", "SO-X6"
            if h.stunned:
                return "a stunned hunter may not attack", "SO-H4"
            return "a hunter attacks after its movement, when it sees the agent", "SO-H2"
        if kind == Kind.SNIFF:
            return "the Beast sniffs after its movement: stop first", "SO-H2"
        kinds = ", ".join(sorted({a.kind for a in self.legal_actions(action.seat)}))
        return f"a moving hunter may {kinds} now, not {kind}", "SO-H1"

    # ------------------------------------------------------------------ the end of the turn

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
            emit(self.events, "stun_removed", hunter=h.id)
        h.acted = True
        self.current = None
        self._next_hunter()

    def _end_round(self) -> None:
        """SO-G3: the last round ends the game; else the next round's agent turn."""
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
        self.focus_index = self._live_agents()[0]
        self._start_agent_turn()
