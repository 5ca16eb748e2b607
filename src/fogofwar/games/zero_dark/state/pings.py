"""Pings (FR-P1…P4): the Red Force's face-down counters, placed at random on the map's
ping sites, each hiding a tier and flags that only the umpire knows, and turned over —
replaced by a bogey of its tier — the moment a character sees one or is engaged with
it.

The reveal check (FR-P3) runs after every step of every move, every change of facing,
every door and every placement, and whenever a model leaves the table, goes down or
out of action (a line it stood in may open); a ping turned over tells the Spook's
player if it was its task's bogey (ZD-T3, ZD-T4).
"""

from __future__ import annotations

from collections.abc import Sequence

from ....core.errors import RulesError
from ....core.game import emit
from ....core.grid import Square
from ..fear import Model, facing_towards, id_number
from ..profiles import BOGEYS, PING_LABEL
from .fields import Fields
from .options import PingSpec
from .pieces import Side

__all__ = ["Pings"]


class Pings(Fields):
    """The pings: their placement and their reveal (FR-P*)."""

    def _place_pings(self, specs: Sequence[PingSpec]) -> None:
        """FR-P1: the Red Force's counters, mixed face down, on ping sites at random."""
        sites = list(self.board.marker("ping"))
        free = [s for s in sites if self.position.at(s) is None]
        if len(specs) > len(free):
            raise RulesError(
                f"red_force has {len(specs)} pings but {self.board.name} has {len(free)} "
                "free ping sites"
            )
        squares = self._streams.stream("ping-sites").sample(free, len(specs))
        squares.sort()
        mixed = self._streams.stream("ping-mix").shuffled(list(specs))
        for square, (tier, flags) in zip(squares, mixed, strict=True):
            self._new_ping(square, tier, flags)

    def _new_ping(self, square: Square, tier: str, flags: frozenset[str] = frozenset()) -> str:
        self.pings_made += 1
        pid = f"P{self.pings_made}"
        self.ping_types[pid] = tier
        self.ping_flags[pid] = flags
        self._set(Model(pid, "ping", square, cyl=BOGEYS["grunt"].cyl))
        emit(self.events, "ping_placed", ping=pid, square=square.name)
        return pid

    def _reveal_check(self) -> None:
        """FR-P3: every ping a character has LOS to (in its field of view) or is engaged
        with is turned over and replaced by a bogey of its type. Who sees what is
        decided on the position as it stands at the check, for every ping at once: a
        bogey turned over here is not in the way of another ping's line (it was a
        ping, which blocks nothing, when the line was drawn). Then they are turned
        over in ping order."""
        pings = self.pings()
        if not pings:
            return
        characters = self.characters()
        # Models only add obstacles and a reveal changes no door: a ping the bare map
        # hides from a character and not next to it stays face down (the common case,
        # without a trace).
        ask = self.position.pairs_to_check(characters, pings)
        if not any(ask):
            return
        position = self.position
        found: list[tuple[Model, Model, str]] = []
        for j in sorted(range(len(pings)), key=lambda j: id_number(pings[j].id)):
            ping = pings[j]
            for i in ask[j]:
                who = characters[i]
                if position.engaged(who.id, ping.id):
                    found.append((ping, who, "engaged"))
                    break
                if position.sees(who.id, ping.id):
                    found.append((ping, who, "sight"))
                    break
        for ping, who, how in found:
            self._reveal(ping, who, how)

    def _reveal(self, ping: Model, by: Model, how: str) -> None:
        tier = self.ping_types.pop(ping.id)
        flags = self.ping_flags.pop(ping.id, frozenset())
        self.bogeys_made += 1
        bid = f"B{self.bogeys_made}"
        stats = BOGEYS[tier]
        self.position = self.position.without(ping.id)
        facing = facing_towards(ping.square, by.square)
        self._set(Model(bid, "bogey", ping.square, cyl=stats.cyl, facing=facing, tier=tier))
        # A bogey enters play with its tier's support tokens (ZD-C4, ruling).
        self.support[bid] = stats.support
        self.flags[bid] = flags
        self.revealed[ping.id] = bid
        self.tiers[bid] = tier
        secrets: list[tuple[Side, str]] = []
        for side in self.sides.values():
            for attr in ("double_agent", "boss_target"):
                if getattr(side, attr) == ping.id:
                    setattr(side, attr, bid)
                    secrets.append((side, attr))
        emit(
            self.events,
            "ping_revealed",
            ping=ping.id,
            face=PING_LABEL[tier],
            tier=tier,
            bogey=bid,
            square=ping.square.name,
            by=by.id,
            how=how,
            support=stats.support,
            flags=sorted(flags - {"susceptible"}),
            rule="FR-P3",
        )
        for side, secret in secrets:
            # The Spook's player learns which bogey its task is about (ZD-T3, ZD-T4).
            rule = "ZD-T3" if secret == "double_agent" else "ZD-T4"
            emit(self.events, secret, to=(side.seat,), bogey=bid, rule=rule)
