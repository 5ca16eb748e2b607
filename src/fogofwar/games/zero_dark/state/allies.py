"""Persuasion and dependents (the Spook supplement, ZD-P*, ZD-D*): which bogeys a hero
may persuade in CQB instead of fighting, what a persuaded bogey becomes — an Ally of
the persuading hero, with the ally stat line and the Dependent upgrade —, and the
Dependent's leash: an ally more than 4 from its hero makes the next activation its own
or its hero's (ZD-D2), and is treated as dead if it does not close (ZD-D3, in
``activation.py``).
"""

from __future__ import annotations

from ....core.game import emit
from ..fear import Model, ModelState, id_number
from ..profiles import DEPENDENT_RANGE
from .end import MissionEnd
from .pieces import Reunite

__all__ = ["Allies"]


class Allies(MissionEnd):
    """Persuasion (ZD-P*) and the Dependent upgrade (ZD-D*)."""

    def _susceptible(self, bogey: Model, char: Model) -> bool:
        """ZD-P0: a rule (the Rescue task's double agent) or the mission's data makes a
        bogey susceptible; Synthetic bogeys never are (ZD-P4). The double agent is one
        side's secret (ZD-T3): only its own side may persuade it (in Versus the other
        team fights it as any bogey, and so learns nothing of it, ruling)."""
        seat = self.seat_of(char)
        flags = self.flags.get(bogey.id, frozenset())
        if "synthetic" in flags:
            return False
        return (
            any(bogey.id == x.double_agent for x in self.sides.values() if x.seat == seat)
            or "susceptible" in flags
            or bogey.tier in self.susceptible_tiers
        )

    def _persuaded(self, bogey: Model, by: Model) -> None:
        """ZD-P1, ZD-P3, ZD-P5, ZD-D0: the bogey becomes an Ally of the persuading hero
        (of the nearest hero not dead if that hero was killed — in Versus, of the
        persuading team; ties by the seeded RNG; it leaves play if none is left), with the
        ally stat line (the mission's, if it sets one) and the Dependent upgrade. It is of
        its hero's team: a friendly character to that team's characters (FR-M2), played
        by its seat (ZD-D0, ZD-C9). Its placement is followed by the reveal check
        (FR-P3)."""
        owner: Model | None = by if by.id not in self.dead else None
        if owner is not None and owner.kind != "hero":
            owner = self.position.models.get(self.ally_of.get(owner.id, ""))
        if owner is None:
            # In Versus the persuasion was one team's: the ally attaches to the nearest
            # living hero of that team, never to the other team's (ruling).
            team = by.team
            living = [
                h for h in self.heroes() if h.id not in self.dead and (not team or h.team == team)
            ]
            if living:
                dist = {h.id: self.position.range_between(bogey.squares, h.squares) for h in living}
                best = min((d for d in dist.values() if d is not None), default=None)
                tied = sorted(
                    (h for h in living if dist[h.id] == best), key=lambda m: id_number(m.id)
                )
                if len(tied) > 1:
                    owner = self._streams.stream("persuaded-owner", bogey.id).choice(tied)
                elif tied:
                    owner = tied[0]
        self.position = self.position.without(bogey.id)
        self.targeted.discard(bogey.id)
        rescuer = next(
            (x for x in self.sides.values() if bogey.id == x.double_agent and by.id == x.spook),
            None,
        )
        if owner is None:
            emit(self.events, "persuaded", bogey=bogey.id, by=by.id, ally=None, rule="ZD-P3")
            if rescuer is not None:
                rescuer.rescued = "left"
            self._reveal_check()  # FR-P3: it left the table; a line it stood in may open
            return
        self.allies_made += 1
        aid = f"A{self.allies_made}"
        profile = self.ally_profile
        self._set(
            Model(
                aid,
                "ally",
                bogey.square,
                cyl=profile.cyl,
                facing=bogey.facing,
                team=owner.team,
            )
        )
        self.hero_stats[aid] = profile
        self.upgrades[aid] = ["dependent"]  # ZD-P5, ZD-D1: at no cost
        self.ally_of[aid] = owner.id
        self.upgrades.setdefault(owner.id, []).append(f"ally {aid}")
        emit(
            self.events,
            "persuaded",
            bogey=bogey.id,
            by=by.id,
            ally=aid,
            hero=owner.id,
            rule="ZD-P1",
        )
        if rescuer is not None:
            rescuer.rescued = aid
        self._reveal_check()  # FR-P3: "after every placement"

    def _too_far(self, ally: str, hero: str) -> bool:
        a, h = self.position.models.get(ally), self.position.models.get(hero)
        if a is None or h is None:
            return False
        r = self.position.range(ally, hero)
        return r is None or r > DEPENDENT_RANGE

    def _dependent_check(self) -> None:
        """ZD-D2 (checked after every activation and every flip, ZD-D3): an ally more
        than 4 from its hero makes the next activation its own or its hero's."""
        if self.reunite is not None:
            return
        for ally, hero in sorted(self.ally_of.items()):
            a = self.position.models.get(ally)
            if a is None or a.state is ModelState.OOA or hero in self.dead:
                continue
            if self._too_far(ally, hero):
                self.reunite = Reunite(ally, hero)
                emit(self.events, "dependent", ally=ally, hero=hero, rule="ZD-D2")
                return
