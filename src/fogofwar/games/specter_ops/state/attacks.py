"""Attacks (SO-H2, SO-X1…X6, SO-A9, SO-E3) and the Beast's sniff, after a hunter's
movement.

* ``attack`` (``attack A2`` with two agents) — a hunter on foot, not stunned, that sees
  an agent placed on the board attacks it (SO-H2, SO-X6, SO-H4; a concealed agent
  cannot be attacked, SO-T3). On its own square the agent is hit (SO-X2); else a d6
  that explodes on 6s must reach the distance, a natural 1 misses (SO-X1, X3…X5), with
  the characters' modifiers: the Gun rolls two and keeps the better, the Prophet adds 2,
  the Spider takes 2 from attackers within 3. A hit costs 1 health (SO-A9); at 0 the
  hunters win (SO-E3, SO-T6).
* ``sniff`` — the Beast, after moving 3 or fewer steps, once: each agent says whether it
  is within 4 squares (public).
* ``end`` — the hunter's turn ends.

The roll is :func:`attack_dice`'s, the dice object whose exact odds ``fogofwar odds
specter-ops attack`` gives: the game rolls what the odds describe.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ....core.dice import Dice, best_of, exploding_check
from ....core.game import Action, emit
from ....core.rng import Stream
from ....core.rules import Refusal
from ..characters import AGENTS, HUNTERS
from ..knowledge import PossibilityMap
from .hunter_turn import HunterTurn
from .pieces import HUNTER_SIDE, SNIFF_MAX_STEPS, SNIFF_RANGE, TRAITOR_KINDS

__all__ = ["Attacks", "attack_dice", "attack_modifier", "roll_attack"]


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
    """Roll an attack: (hit, the faces of every die rolled, in order) — a roll of
    :func:`attack_dice`, the object the odds are computed from."""
    roll = attack_dice(hunter, agent, distance).roll(stream)
    return bool(roll.value), list(roll.faces)


class Attacks(HunterTurn):
    """SO-H2, SO-X*: attacks and the sniff, after a hunter's movement."""

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

    def _attack_options(self, seat: str) -> list[tuple[str, ...]]:
        return self._attack_targets()

    def _check_attack(self, seat: str, args: tuple[str, ...]) -> Refusal | None:
        """SO-H2: an agent this hunter may attack (see :meth:`_attack_targets`)."""
        if args in self._attack_targets():
            return None
        return self._refuse_attack()

    def _refuse_attack(self, action: Action | None = None) -> Refusal:
        if len(self.agents) == 2:
            return "attack names an agent this hunter sees on the board: A1 or A2", "SO-H2"
        return self._refuse_after_move()

    def _refuse_after_move(self, action: Action | None = None) -> Refusal:
        """After its movement a hunter attacks (or sniffs), or ends its turn (SO-H2); the
        traitor's actions have their rules."""
        if action is not None and action.kind in TRAITOR_KINDS:
            return self._traitor_refusal(action.seat, action.kind, None)
        return "the hunter may now attack or end its turn", "SO-H2"

    # ------------------------------------------------------------------ effects

    def _attack(self, seat: str, args: tuple[str, ...]) -> None:
        if self.current is None:  # pragma: no cover
            return
        target = args[0] if args else ""
        if target:
            self.focus_index = next(i for i, a in enumerate(self.agents) if a.id == target)
        h = self.hunters[self.current]
        me = self.focus
        geo = self.geo
        a, b = geo.square(h.square), geo.square(me.square)
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
                me.character,
                distance,
                self._streams.stream("attack", self.round, h.id, *extra),
            )
            modifier = attack_modifier(h.character, me.character, distance)
        if hit:
            me.health -= 1  # SO-A9
        who: dict[str, Any] = {"agent": target} if target else {}
        emit(
            self.events,
            "attack",
            hunter=h.id,
            **who,
            distance=distance,
            dice=faces,
            modifier=modifier,
            hit=hit,
            health=me.health,
        )
        if me.health <= 0:
            if len(self.agents) == 2:
                reason, rule = f"agent {target}'s health reached 0", "SO-T6"
            else:
                reason, rule = "the agent's health reached 0", "SO-E3"
            self.focus_index = 0
            self._finish(HUNTER_SIDE, reason, rule, "eliminated")
            return
        self.focus_index = 0
        self._end_hunter_turn()

    def _sniff(self, seat: str, args: tuple[()]) -> None:
        """The Beast: the agent says whether it is within 4 squares (public)."""
        if self.current is None:  # pragma: no cover
            return
        h = self.hunters[self.current]
        geo = self.geo
        self.sniffed = True
        zone = geo.within(h.square, SNIFF_RANGE)
        for i in self._live_agents():
            self.focus_index = i
            near = bool(zone >> self.focus.square & 1)
            who = self._who()
            emit(self.events, "sniff", hunter=h.id, **who, near=near)
            bits = zone if near else ~zone
            self._learn(partial(PossibilityMap.keep, bits=bits))
        self.focus_index = 0
        if not self._may_attack():
            self._end_hunter_turn()

    def _end(self, seat: str, args: tuple[()]) -> None:
        self._end_hunter_turn()
