"""The Red Force's activations (ZD-C4, ZD-C6, FR-P2, FR-P4): a card flipped (or played
from a Spook's hand) activates a bogey of its tier — a ping counts as a Grunt —, or,
with none to activate (and for a Joker), brings a complication: a new Grunt ping.

The activated model moves up to Att squares a step at a time, checking for reveals after
every step (a ping turned over on the way stops there); a bogey then fights CQB if
engaged, else turns to the hero it hunts and shoots the nearest character it sees. What
it chooses is the Red Force's rules of choice (:mod:`..red_force`); this module carries
the choices out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ....core.cards import PlayingCard
from ....core.game import emit
from ....core.grid import Square
from .. import red_force
from ..fear import Model, ModelState
from .pieces import Cqb, Phase, Resume, tier_of
from .versus import Versus

__all__ = ["RedForce"]


class RedForce(Versus):
    """The Red Force's answer to a card: an activation or a complication."""

    def _resolve_card(self, card: PlayingCard, *, flipped: bool) -> None:
        self.phase = Phase.CHOOSE
        if self.cancel_next and flipped:
            # ZD-C10: a cautious move's success cancels the next flip's primary action
            # (a card played from a hand is no flip, ZD-B6: the cancel waits for one).
            self.cancel_next = False
            emit(self.events, "cancelled", card=card.to_json(), rule="ZD-C10")
        else:
            tier = tier_of(card)
            candidates = red_force.candidates(self, tier) if tier is not None else []
            if not candidates:
                self._complication(card)
            else:
                chosen = red_force.pick(self, candidates, card)
                if chosen.state is ModelState.DOWN:
                    # A down bogey is out of the fight: activated, it does nothing (ruling).
                    emit(self.events, "activated", model=chosen.id, down=True, rule="ZD-C6")
                else:
                    self._red_activation(chosen)
        self.after_cqb = Resume.FLIP
        self._run_cqb()

    # ------------------------------------------------------------------ complications

    def _complication(self, card: PlayingCard) -> None:
        """ZD-C6's default complication: a new Grunt ping at a random deployment site.
        With every site taken (FR-M3: it may not share a square), the ping is not lost: it
        goes on a free square nearest a site by range (FR-R1), at random among the nearest
        (ruling); only a map with no free square left loses it."""
        sites = self.board.marker("deployment")
        free = [s for s in sites if self.position.at(s) is None]
        if not free:
            free = self._nearest_free(sites)
        if not free:
            emit(self.events, "complication", card=card.to_json(), ping=None)
            return
        square = self._streams.stream("complication", self.flips).choice(free)
        emit(self.events, "complication", card=card.to_json(), ping=f"P{self.pings_made + 1}")
        self._new_ping(square, "grunt")
        self._reveal_check()

    def _nearest_free(self, sites: Sequence[Square]) -> list[Square]:
        """The free squares (no model, passable) nearest ``sites`` by FR-R1 range."""
        dist = self.position.graph.distance_map(list(sites))
        best: list[Square] = []
        least = None
        for sq in self.board.squares():
            d = int(dist[sq.row, sq.col])
            if d < 0 or self.position.at(sq) is not None or not self.board.passable[sq]:
                continue
            if least is None or d < least:
                least, best = d, [sq]
            elif d == least:
                best.append(sq)
        return best

    # ------------------------------------------------------------------ activations

    def _red_activation(self, model: Model) -> None:
        """An activated ping (FR-P4) or bogey (ZD-C4) moves up to Att squares by the
        shortest route towards the nearest hero, a step at a time, checking for reveals
        after every step; a ping revealed on the way stops there. A bogey then fights
        CQB if engaged, else shoots a character it sees."""
        emit(self.events, "activated", model=model.id)
        att = red_force.reach(model)
        for taken in range(att):
            current = self.position.models.get(model.id)
            if current is None:  # revealed: the ping's activation ends (ruling) …
                self._end_crossing(self.revealed.get(model.id), att - taken)
                return
            nxt = red_force.route_step(self, current, att - taken)
            if nxt is None:
                if self.position.can_stop(current.id, current.square):
                    break
                # Mid-crossing with nowhere better to go: step off the other model.
                nxt = red_force.step_off(self, current, att - taken)
            self._set(current.at(nxt))
            kind = "bogey_step" if current.kind == "bogey" else "ping_step"
            emit(self.events, kind, model=model.id, square=nxt.name)
            self._reveal_check()
        current = self.position.models.get(model.id)
        if current is None:
            self._end_crossing(self.revealed.get(model.id), 0)
        elif current.kind == "bogey":
            self._bogey_attack(current)

    def _end_crossing(self, bogey_id: str | None, left: int) -> None:
        """FR-M3: a ping turned over in its move while crossing another model's square
        (a bogey, a ping, a character out of action) may not stop there: the bogey that
        replaced it goes on, with the steps left, to the first square it may stop on,
        nearest the hero it hunts — the ping's move was sure to allow one — and does
        nothing else (ruling)."""
        bogey = self.position.models.get(bogey_id or "")
        while bogey is not None and not self.position.can_stop(bogey.id, bogey.square):
            if left <= 0:  # pragma: no cover - the ping's lookahead rules this out
                raise RuntimeError(f"{bogey.id} is stranded on {bogey.square.name}")
            nxt = red_force.step_off(self, bogey, left)
            left -= 1
            self._set(bogey.at(nxt))
            emit(self.events, "bogey_step", model=bogey.id, square=nxt.name, rule="FR-M3")
            self._reveal_check()
            bogey = self.position.models.get(bogey.id)

    def _bogey_attack(self, bogey: Model) -> None:
        """ZD-C4: engaged with a character → CQB with the nearest of them; else face the
        hunted character and shoot the nearest character it sees: Att + support dice at
        TN = range + AV + 2 if obscured (cover)."""
        opponent = red_force.cqb_opponent(self, bogey)
        if opponent is not None:
            self.cqb_queue.append(Cqb(opponent.id, bogey.id, "bogey"))
            return
        facing = red_force.hunting_facing(self, bogey)
        if facing is not None and facing != bogey.facing:
            bogey = replace(bogey, facing=facing)
            self._set(bogey)
            emit(self.events, "face", model=bogey.id, facing=facing)
        aim = red_force.shot(self, bogey)
        if aim is None:
            return
        rng, target, report = aim
        tn = rng + self.stats(target.id).av + (2 if report.obscured else 0)
        dice = self.bogey_stats(bogey).att + self.support.get(bogey.id, 0)
        emit(
            self.events, "shoot", model=bogey.id, target=target.id, range=rng, status=report.status
        )
        hits, _ = self._roll(dice, tn, f"shoot {target.id}", bogey.id)
        self._wound_character(target.id, hits)
