"""The agent's turn (SO-O1…O3, SO-A1…A6, SO-E1): objectives, the move, and what the
hunters learn of it.

* At the start of its turn the agent completes the objectives next to it (the first
  agent only; the Blue Jay from 2 squares), in public (SO-O1…O3).
* ``step N2`` — one step of its move, 0 to 4 steps (6 after an Adrenal Surge): to a
  square next to it that is not blocking terrain, does not squeeze between two blocking
  squares diagonally (SO-A2) and holds no hunter on foot (SO-A1); the vehicle's square
  may be crossed with a step to spare, never ended on (SO-A3). The last step ends the
  move by itself.
* ``stop`` — the move ends here (not on the vehicle's or a hunter's square, unless the
  agent cannot move at all, SO-A3).

The end of the move decides what the hunters learn (SO-A5, SO-A6): the agent is revealed
if a loyal hunter sees it at the end, else a Last Seen token marks the last square where
one saw it on the way, else nothing; the map learns it all. Then the escape (SO-E1).
"""

from __future__ import annotations

from typing import Any

from ....core.game import Action, emit
from ....core.rules import Refusal
from ..characters import AGENTS
from ..knowledge import MoveSight
from .pieces import (
    AGENT_SIDE,
    MOVE,
    OBJECTIVES_TO_ESCAPE,
    STEALTH_RANGE,
    TRAITOR_KINDS,
    Moment,
    Phase,
)
from .setup import Setup
from .table import SquareName

__all__ = ["AgentTurn"]


class AgentTurn(Setup):
    """SO-O1…O3, SO-A1…A6, SO-E1: the agent's turn."""

    def _start_agent_turn(self) -> None:
        """Objectives first (SO-O1…O3; the first agent's only), then the move."""
        geo = self.geo
        me = self.focus
        here = me.square
        if self.focus_index == 0:
            completed: dict[int, int] = {}
            open_sectors = [j for j, d in enumerate(self.done) if not d]
            reach = AGENTS[me.character].objective_range if me.character else 1
            near = geo.adjacent if reach == 1 else geo.near(reach)  # Blue Jay: 2
            for j in open_sectors:
                if near[self.sites[j]] >> here & 1:
                    completed[j] = self.sites[j]
            for j in completed:
                self.done[j] = True
                self.public_sites[j] = self.sites[j]  # SO-O2: turned red side up, public
            if completed:
                emit(
                    self.events,
                    "objectives_completed",
                    completed=[
                        {"sector": j + 1, "site": geo.name(s)} for j, s in completed.items()
                    ],
                    done=sum(self.done),
                )
            self._learn(lambda k: k.objectives(geo, completed, open_sectors))
        me.path = [here]
        me.turn_start = here
        me.used_before = me.used_after = ""
        me.public_before = me.public_after = False
        me.decoy = None
        me.after_constraint = 0
        me.path_sight = self.sight()
        self.phase = Phase.AGENT
        if len(self.agents) == 2:
            emit(self.events, "agent_turn", round=self.round, agent=me.id)
        else:
            emit(self.events, "agent_turn", round=self.round)

    # ------------------------------------------------------------------ the move

    def _agent_steps(self) -> int:
        """SO-A1…A3: the squares the agent may step to now (bitboard)."""
        me = self.focus
        path = me.path
        limit = self.move_limit()
        if len(path) - 1 >= limit:
            return 0
        geo = self.geo
        foot = self._foot_bits()
        # SO-A2 looks at blocking terrain only; hunters just may not be entered (SO-A1).
        nxt = geo.steps[path[-1]] & ~foot
        vbit = 1 << self.vehicle
        if nxt & vbit:
            # The vehicle's square may be crossed, not ended on (SO-A3): step onto it only
            # with a step to spare and a way off it.
            way_off = geo.steps[self.vehicle] & ~foot & ~vbit
            if len(path) >= limit or not way_off:
                nxt &= ~vbit
        return nxt

    def _why_not_agent_step(self, t: int) -> Refusal:
        """Which of SO-A1…A3 a step to ``t`` breaks (it is not one of
        :meth:`_agent_steps`)."""
        geo = self.geo
        here = self.focus.path[-1]
        # MOVE, not the move's limit: past the 4th step of an Adrenal Surge a refused
        # step is refused as the base move's, as it has always been.
        if len(self.focus.path) - 1 >= MOVE:
            return f"the agent moves at most {MOVE} steps", "SO-A1"
        if not geo.adjacent[here] >> t & 1:
            return f"{geo.name(t)} is not next to {geo.name(here)}", "SO-A1"
        if not geo.passable >> t & 1:
            return f"{geo.name(t)} is blocking terrain", "SO-A1"
        if any(h.square == t and not h.aboard for h in self.hunters):
            return f"a hunter stands on {geo.name(t)}", "SO-A1"
        if t == self.vehicle:
            return (
                f"the vehicle's square {geo.name(t)} may be crossed but not ended on, "
                "and this step could not go on",
                "SO-A3",
            )
        return (
            f"the diagonal step {geo.name(here)}-{geo.name(t)} squeezes between two "
            "blocking squares",
            "SO-A2",
        )

    def _agent_step(self, seat: str, args: tuple[SquareName]) -> None:
        path = self.focus.path
        path.append(self.geo.parse(args[0]))
        if len(path) - 1 >= self.move_limit():
            self._end_agent_move()  # the last step ends the move

    def _agent_can_stop(self) -> bool:
        """SO-A3: the move may end here — not on the vehicle's or a hunter's square,
        unless the agent cannot move at all."""
        path = self.focus.path
        here = path[-1]
        if here == self.vehicle or (self._foot_bits() >> here & 1):
            return len(path) == 1 and not self._agent_steps()
        return True

    def _why_not_agent_stop(self) -> Refusal:
        if self.focus.path[-1] == self.vehicle:
            return "the agent may not end its move on the vehicle's square", "SO-A3"
        return "the agent may not end its move on a hunter's square", "SO-A3"

    def _agent_stop(self, seat: str, args: tuple[()]) -> None:
        self._end_agent_move()

    def _refuse_in_agent_move(self, action: Action) -> Refusal:
        """A kind the agent's move does not allow (the traitor's have their rules)."""
        if action.kind in TRAITOR_KINDS:
            return self._traitor_refusal(action.seat, action.kind, None)
        return f"the agent may only step or stop now, not {action.kind}", "SO-A1"

    def _end_agent_move(self) -> None:
        """The steps are over: a card after moving, if one may be used, then the result."""
        me = self.focus
        me.square = me.path[-1]
        if self._card_options(Moment.AFTER):
            self.phase = Phase.AGENT_AFTER
        else:
            self._resolve_agent_turn()

    # ------------------------------------------------------------------ what the hunters see

    def _watchers(self, exclude: str | None = None) -> list[int]:
        """Squares of the hunters whose sight places the agent: the loyal ones (SO-T3);
        ``exclude`` names a hunter to leave out instead of the true traitor."""
        if exclude is None:
            return [h.square for h in self._loyal()]
        return [h.square for h in self.hunters if h.id != exclude]

    def _end_seen(self) -> int:
        """Squares seen at the end of the agent's turn (smoke and Stealth Field in force)."""
        me = self.focus
        stealth = "stealth-field" in (me.used_before, me.used_after)
        return self._seen_by(self._watchers(), stealth=stealth)

    def _path_seen(self, *, stealth: bool, exclude: str | None = None) -> int:
        """Squares seen while the agent moved (the sight of that moment)."""
        geo = self.geo
        sight = self.focus.path_sight
        out = 0
        for v in self._watchers(exclude):
            out |= sight[v] & (geo.within(v, STEALTH_RANGE) if stealth else -1)
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
        """SO-A5, SO-A6: revealed, a Last Seen token or nothing; the map learns it; then
        the escape (SO-E1, SO-E2)."""
        geo = self.geo
        me = self.focus
        path = me.path
        here = path[-1]
        me.square = here
        me.last_steps = len(path) - 1
        stealth = "stealth-field" in (me.used_before, me.used_after)
        # A Stealth Field lasts the whole turn, used before the move or after it.
        path_seen = self._path_seen(stealth=stealth)
        end_seen = self._end_seen()
        visible = [sq for sq in path if path_seen >> sq & 1]
        square: int | None
        if end_seen >> here & 1:
            result, square = "revealed", here  # SO-A5
            me.shown = here
        elif me.decoy is not None:
            result, square = "last_seen", me.decoy  # Holo Decoy: the token, not the truth
            me.last_seen = square
            me.shown = None
        elif visible:
            result, square = "last_seen", visible[-1]  # SO-A6
            me.last_seen = square
            me.shown = None
        else:
            result, square = "hidden", None
            me.shown = None
        emit(self.events, "agent_path", to=(me.seat,), path=[geo.name(s) for s in path])
        moved: dict[str, Any] = {"result": result}
        if len(self.agents) == 2:
            moved["agent"] = me.id
        emit(
            self.events,
            "agent_moved",
            **moved,
            square=None if square is None else geo.name(square),
        )
        foot = self._foot_bits()
        both = self.per_turn >= 2
        sight: MoveSight | dict[str, MoveSight]
        if self.searching:
            sight = {}  # unread: no map is kept
        elif self.focus_index == 0 and self.traitor and not self.traitor_revealed:
            # Each possible traitor's world: the others' sight places the agent (SO-T3).
            sight = {t: self._move_sight(t) for t in me.knowledge.possible_traitors()}
        else:
            sight = self._move_sight()
        hidden_before = not me.public_before and (both or not me.public_after)
        hidden_after = not me.public_after and (both or not me.public_before)
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
        if me.after_constraint:
            within = me.after_constraint
            self._learn(lambda k: k.keep(within))
        if result == "revealed":
            self._reveal_character()
        elif self.focus_index == 0:
            self._concealed_moment("agent_turn", stealth=stealth)
        # Smoke thrown last round clears at the end of this agent turn.
        if self.focus_index == len(self.agents) - 1 or self.agents[-1].escaped:
            self.smokes = [s for s in self.smokes if s.until > self.round]
        escapes = self.escape_bits()
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

    def _reveal_character(self) -> None:
        """SO-S4: the character card is turned face up the first time the agent is seen."""
        me = self.focus
        if me.character_public:
            return
        me.character_public = True
        if len(self.agents) == 2:
            emit(
                self.events,
                "character_revealed",
                agent=me.id,
                character=me.character,
                health=me.health,
            )
        else:
            emit(self.events, "character_revealed", character=me.character, health=me.health)
        char = me.character
        self._learn(lambda k: k.characters_where(lambda c: c == char))

    # ------------------------------------------------------------------ the escape

    def _escape(self, here: int) -> None:
        """SO-E1, SO-T6: an agent escapes; the agents win when every agent has — or when
        the first escapes while the traitor is still unrevealed."""
        geo = self.geo
        me = self.focus
        me.escaped = True
        me.shown = None
        # The escape names its square: the agent left from there, which settles its map
        # (and so, with two agents, which characters the other may still have, SO-T5).
        self._learn(lambda k: k.revealed(here))
        if len(self.agents) == 2:
            emit(self.events, "escaped", square=geo.name(here), agent=me.id)
        else:
            emit(self.events, "escaped", square=geo.name(here))
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
        if self.focus_index == 0 and len(self.agents) == 2 and not self.agents[1].escaped:
            self.focus_index = 1
            self._start_agent_turn()
            return
        self.focus_index = 0
        for h in self.hunters:
            h.acted = False
        self.vehicle_moved = False
        self.vehicle_scanned = False
        self._next_hunter()
