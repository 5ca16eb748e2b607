"""What the hunters learn when a hunter's movement ends (SO-H3, SO-V5, the Cobra).

* SO-H3: the agent answers "Clear", or is placed on the board when a loyal hunter that
  moved (with the hunters driven along) sees it; the traitor alone seeing a hidden agent
  is a concealed sighting (SO-T3). With two agents each answers for itself.
* The Cobra's ambush: a hunter ending its move on the hidden Cobra is stunned; one
  ending orthogonally next to it on a d6 of 4+ (public).
* SO-V5: the motion sensor — each agent on the board answers for its own last move:
  the compass point from the vehicle after 3 or more steps, else "no movement
  detected" (Signal Jammer: "jammed").

Every answer goes to the possibility map, which learns from it exactly what the hunters
do; with an unrevealed traitor, in each possible traitor's world.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Final

from ....core.dice import Dice, parse
from ....core.game import emit
from ..geometry import bearing
from ..knowledge import PossibilityMap, Role
from .equipment import Equipment
from .pieces import Hunter, Phase

__all__ = ["AMBUSH_DIE", "AMBUSH_STUN", "Sightings", "ambush_stuns"]


#: The Cobra's ambush die, for a hunter ending its move orthogonally next to it: the
#: game rolls this object and ``fogofwar odds specter-ops ambush`` reads its odds.
AMBUSH_DIE: Final[Dice] = parse("d6")
#: The face of :data:`AMBUSH_DIE` that stuns, and every face above it.
AMBUSH_STUN: Final = 4


def ambush_stuns(face: int) -> bool:
    """Whether the ambush die's ``face`` stuns the hunter next to the Cobra (4+)."""
    return face >= AMBUSH_STUN


class Sightings(Equipment):
    """SO-H3, SO-V5 and the Cobra: the answers at the end of a hunter's movement."""

    if TYPE_CHECKING:

        def _end_hunter_turn(self) -> None:
            """The active hunter's turn ends (``hunter_turn.py``)."""

    def _end_hunter_move(self) -> None:
        """The movement is over: each agent answers (and the Cobra may ambush); then an
        attack (or a sniff) if one may be made, else the turn ends (SO-H2)."""
        if self.current is None:  # pragma: no cover
            return
        h = self.hunters[self.current]
        viewers = [h]
        if self.drove:
            viewers += [x for x in self.hunters if x.aboard and x is not h]
        for i in self._live_agents():
            self.focus_index = i
            if self.with_characters and not h.aboard:
                self._ambush(h)
            self._announce(h, viewers)
        self.focus_index = 0
        if self._may_attack() or self._may_sniff():
            self.phase = Phase.ATTACK  # SO-H2: attack (or sniff) after moving, or end
        else:
            self._end_hunter_turn()

    def _announce(self, h: Hunter, viewers: list[Hunter]) -> None:
        """SO-H3: the focused agent answers "Clear" or is placed — placed only if a loyal
        viewer sees it (SO-T3); the traitor alone seeing it is a concealed sighting."""
        geo = self.geo
        me = self.focus
        who = self._who()
        # A figure on the board is seen by anyone who looks, the traitor too; a hidden
        # agent is placed only by a loyal viewer (SO-T3).
        placed = me.shown is not None
        eyes = [
            x.square for x in viewers if placed or x.id != self.traitor or self.traitor_revealed
        ]
        if self._seen_by(eyes) >> me.square & 1:
            me.shown = me.square
            emit(
                self.events,
                "announcement",
                hunter=h.id,
                **who,
                answer="visible",
                square=geo.name(me.square),
            )
            square = me.square
            if (
                not placed
                and not self.searching
                and self.focus_index == 0
                and self.traitor
                and not self.traitor_revealed
            ):
                # In each possible traitor's world, a viewer other than it placed the agent.
                table = self.sight()
                placers = {
                    t: any(table[x.square] >> square & 1 for x in viewers if x.id != t)
                    for t in me.knowledge.possible_traitors()
                }
                self._learn(lambda k: k.roles_where(lambda r: placers[r[0]]))
            self._learn(lambda k: k.revealed(square))
            self._reveal_character()
            return
        emit(self.events, "announcement", hunter=h.id, **who, answer="clear", square=None)
        if self.focus_index == 1 or not self.traitor or self.traitor_revealed or placed:
            if not self.searching:
                seen = self._seen_by([x.square for x in viewers])
                self._learn(lambda k: k.keep(~seen))
            return
        if not self.searching:
            self._learn_unplaced(viewers)
        self._concealed_moment("hunter_turn")

    def _learn_unplaced(self, viewers: list[Hunter]) -> None:
        """A "Clear" in the traitor game, in each possible traitor's world: its own sight
        places nothing, and if the agent is not on the board, the traitor seeing it is a
        concealed sighting (SO-T4)."""
        me = self.focus
        table = self.sight()
        hidden = me.shown is None
        parts: dict[str, tuple[int, int]] = {}
        for t in me.knowledge.possible_traitors():
            others = self._seen_by([x.square for x in viewers if x.id != t])
            sees = table[next(x.square for x in self.hunters if x.id == t)] if hidden else 0
            parts[t] = (~others, sees)

        def split(role: Role) -> list[tuple[Role, int]]:
            clear, sees = parts[role[0]]
            if role[1] or not sees:
                return [(role, clear)]
            return [((role[0], True), clear & sees), (role, clear & ~sees)]

        self._learn(lambda k: k.split_roles(split))

    def _ambush(self, h: Hunter) -> None:
        """The Cobra: a hunter ending its move on the hidden agent is stunned; one ending
        orthogonally next to it is stunned on a d6 of 4+. The roll and the stun are
        public (and so is the lack of one, for a map that allows a Cobra); with two
        agents, so is which agent ambushed."""
        geo = self.geo
        me = self.focus
        zone = 1 << h.square | geo.orthogonal(h.square)
        if me.shown is not None:
            return  # only the hidden agent ambushes
        if me.character == "cobra" and zone >> me.square & 1:
            roll = None
            if me.square == h.square:
                stun = True
            else:
                roll = AMBUSH_DIE.sample(self._streams.stream("ambush", self.round, h.id))
                stun = ambush_stuns(roll)
            if stun:
                h.stunned = True
            who = self._who()
            emit(self.events, "ambush", hunter=h.id, **who, roll=roll, stunned=stun)
            place = 1 << h.square if roll is None else geo.orthogonal(h.square)
            self._learn(lambda k: k.characters_where(lambda c: c == "cobra").keep(place))
        else:
            self._learn(lambda k: k.ambush_absent(zone))

    def _sensor_answers(self, h: Hunter) -> None:
        """SO-V5: each agent on the board answers for its own last move."""
        geo = self.geo
        for i in self._live_agents():
            self.focus_index = i
            me = self.focus
            who = self._who()
            if self.jammed_until == self.round:
                emit(self.events, "sensor", hunter=h.id, **who, answer="jammed")  # Signal Jammer
            elif me.last_steps >= 3:
                point = bearing(geo.square(self.vehicle), geo.square(me.square))
                emit(self.events, "sensor", hunter=h.id, **who, answer=point)
                bits = geo.compass_bits(self.vehicle, point)
                self._learn(partial(PossibilityMap.sensor, moved=True, bits=bits))
            else:
                emit(self.events, "sensor", hunter=h.id, **who, answer="no movement detected")
                self._learn(lambda k: k.sensor(False))
        self.focus_index = 0
        self._end_hunter_move()
