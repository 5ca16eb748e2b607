"""The agent's equipment cards (SO-A7, SO-A8): one card a turn (two with the
``equipment_per_turn`` option: one before moving, one after), each with its uses.

* ``use CARD [TARGET]`` — before the first step (phase ``agent``) or after the last
  (phase ``agent_after``), as the card allows; a square or a hunter within the card's
  reach when it names one (Holo Decoy: a square where the agent could have been seen
  this turn). A public use is announced with its effect; a hidden one is not, and the
  hunters' map allows for it while uses may remain.
* ``done`` — after moving, no card: the turn's result is decided.

The cards' effects: Flash Bang stuns the hunters on foot who see its square, Smoke
Grenade blocks sight around its square until the end of next round's agent turn, Venom
Dart stuns a hunter, Med Kit heals 1, Signal Jammer blinds the motion sensor this round,
Adrenal Surge allows 6 steps, Stealth Field hides the agent from hunters more than 2
squares away, Holo Decoy puts the Last Seen token on its square.
"""

from __future__ import annotations

from typing import Any

from ....core.game import Action, emit
from ....core.rules import Refusal
from ..characters import CARDS, Card
from .agent_turn import AgentTurn
from .pieces import TRAITOR_KINDS, Moment, Phase, Smoke

__all__ = ["Equipment"]

#: A card's target that no card takes: the refusal of a ``use`` with too many words.
_NO_TARGET = ""
_AGENT = Phase.AGENT  # asked for every card's check: an enum member, looked up once


class Equipment(AgentTurn):
    """SO-A7, SO-A8: the agent's equipment cards."""

    def _moment(self) -> Moment:
        """Before moving (phase ``agent``) or after (``agent_after``)."""
        return Moment.BEFORE if self.phase is _AGENT else Moment.AFTER

    # ------------------------------------------------------------------ the rule

    def _card_refusal(self, card_id: str, moment: Moment) -> Refusal | None:
        """SO-A7 (one card a turn, before or after moving, as the card says) and SO-A8
        (its uses): why the agent may not use the card ``card_id`` at ``moment``,
        whatever it names."""
        if card_id not in CARDS:
            return f"{card_id!r} is not an equipment card", "SO-A7"
        me = self.focus
        if card_id not in me.cards:
            return f"the agent has no {card_id} card", "SO-A7"
        if me.cards[card_id] <= 0:
            return f"{card_id} is spent: its uses are gone", "SO-A8"
        used = me.used
        if len(used) >= self.per_turn or card_id in used:
            return f"the agent may use {self.per_turn} card(s) per turn", "SO-A7"
        card = CARDS[card_id]
        if moment is Moment.BEFORE and len(me.path) > 1:
            return "a card is used before the first step or after the last", "SO-A7"
        if card.when not in (moment, "either"):
            return f"{card.name} is used {card.when} moving", "SO-A7"
        if moment is Moment.BEFORE and me.used_before:
            return self._no_target(card)  # one card before moving, even with two a turn
        if card_id == "med-kit" and me.health >= me.max_health:
            return self._no_target(card)  # nothing to heal
        return None

    def _no_target(self, card: Card) -> Refusal:
        """The refusal of a card allowed now that names nothing it may name."""
        if card.target:
            return f"{card.name} needs a {card.target} within {card.reach} squares", "SO-A7"
        return f"{card.name} cannot be used now", "SO-A7"

    def _square_targets(self, card: Card) -> int:
        """The squares a card that names one may name now (bitboard): within its reach
        of the agent; Holo Decoy's, where it could have been seen this turn."""
        if card.id == "holo-decoy":
            return self._decoy_squares()
        return self.geo.within(self.focus.path[-1], card.reach)

    def _hunter_targets(self, card: Card) -> list[str]:
        """The hunters a card that names one may name now: on foot, within its reach."""
        within = self.geo.within(self.focus.path[-1], card.reach)
        return [h.id for h in self.hunters if not h.aboard and within >> h.square & 1]

    def _decoy_squares(self) -> int:
        """Holo Decoy: squares the agent could have been seen on this turn — a hunter sees
        them and the agent could have reached them — unless it is seen at the end."""
        me = self.focus
        if self._end_seen() >> me.path[-1] & 1:
            return 0
        # Squares the agent could have stood on this turn: its legal walks (hunters on foot
        # are not entered, SO-A1) from where it started.
        foot = self._foot_bits()
        step = self.geo.graph.stepper(avoid=foot)
        vbit = 1 << self.vehicle
        limit = self.move_limit()
        layer = reach = 1 << me.turn_start
        for k in range(1, limit + 1):
            layer = step(layer)
            # The vehicle's square is crossed, never ended on (SO-A3): not by the last
            # step, and only with a way off it.
            reach |= layer & ~vbit if k == limit else layer
        if me.turn_start != self.vehicle and not step(vbit) & ~vbit:
            reach &= ~vbit
        return reach & self._path_seen(stealth=False)

    def _use_refusal(self, args: tuple[str, ...], moment: Moment) -> Refusal | None:
        """SO-A7, SO-A8: why the agent may not use a card now (``args``: the card and
        what it names): the card's rule, then its target."""
        card_id = args[0]
        found = self._card_refusal(card_id, moment)
        if found is not None:
            return found
        card = CARDS[card_id]
        target = args[1] if len(args) > 1 else None
        if card.target == "square":
            square = self.geo.index_of(target)
            named = square is not None and bool(self._square_targets(card) >> square & 1)
        elif card.target == "hunter":
            named = target in self._hunter_targets(card)
        else:
            named = target is None
        return None if named else self._no_target(card)

    def _card_options(self, moment: Moment) -> list[tuple[str, ...]]:
        """The uses the agent may make at ``moment``, card by card (SO-A7, SO-A8): each
        square or hunter a card may name, or the card alone — the choices
        :meth:`_use_refusal` allows, made from the same rule."""
        out: list[tuple[str, ...]] = []
        for card_id in self.focus.cards:
            if self._card_refusal(card_id, moment) is not None:
                continue
            card = CARDS[card_id]
            if card.target == "square":
                out += [(card_id, n) for n in self.geo.names(self._square_targets(card))]
            elif card.target == "hunter":
                out += [(card_id, h) for h in self._hunter_targets(card)]
            else:
                out.append((card_id,))
        return out

    def _use_options(self, seat: str) -> list[tuple[str, ...]]:
        return self._card_options(self._moment())

    def _check_use(self, seat: str, args: tuple[str, ...]) -> Refusal | None:
        return self._use_refusal(args, self._moment())

    def _refuse_use(self, action: Action) -> Refusal:
        """A ``use`` without a card, or with more than a card and its target."""
        card = str(action.args[0]) if action.args else ""
        found = self._use_refusal((card, _NO_TARGET), self._moment())
        assert found is not None  # no card takes the empty target
        return found

    # ------------------------------------------------------------------ effects

    def _use(self, seat: str, args: tuple[str, ...]) -> None:
        """A card's use; after moving, the turn's result follows."""
        after = self.phase is Phase.AGENT_AFTER
        self._use_card(args)
        if after:
            self._resolve_agent_turn()

    def _done(self, seat: str, args: tuple[()]) -> None:
        self._resolve_agent_turn()

    def _refuse_after_agent_move(self, action: Action | None = None) -> Refusal:
        """A kind the end of the agent's move does not allow (the traitor's have their
        rules)."""
        if action is not None and action.kind in TRAITOR_KINDS:
            return self._traitor_refusal(action.seat, action.kind, None)
        return "after moving the agent may use a card or say done", "SO-A7"

    def _use_card(self, args: tuple[str, ...]) -> None:
        card_id = args[0]
        card = CARDS[card_id]
        geo = self.geo
        me = self.focus
        moment = self._moment()
        if moment is Moment.BEFORE:
            me.used_before = card_id
        else:
            me.used_after = card_id
        me.cards[card_id] -= 1
        target = args[1] if len(args) > 1 else None
        emit(
            self.events,
            "agent_used",
            to=(me.seat,),
            card=card_id,
            target=target,
            moment=moment.value,
        )
        if not card.public:
            if card_id == "holo-decoy" and target is not None:
                me.decoy = geo.parse(target)
            if moment is Moment.BEFORE:
                me.path_sight = self.sight()
            return
        me.public_uses[card_id] = me.public_uses.get(card_id, 0) + 1
        if moment is Moment.BEFORE:
            me.public_before = True
        else:
            me.public_after = True
        data: dict[str, Any] = {"card": card_id, "moment": moment.value}
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
            self.smokes.append(Smoke(area, self.round + 1))
            data.update(square=target, area=geo.names(area))
            within = geo.within(t, card.reach)
        elif card_id == "venom-dart" and target is not None:
            h = next(x for x in self.hunters if x.id == target)
            h.stunned = True
            data.update(hunter=target, stunned=[target])
            within = geo.within(h.square, card.reach)
        elif card_id == "med-kit":
            me.health = min(me.max_health, me.health + 1)
            data.update(health=me.health)
        elif card_id == "signal-jammer":
            self.jammed_until = self.round  # the sensor detects nothing this round
        emit(self.events, "equipment", **data)
        self._learn(lambda k: k.card_used(card_id))
        if moment is Moment.BEFORE:
            me.path_sight = self.sight()
            if within:
                self._learn(lambda k: k.keep(within))
        else:
            me.after_constraint = within
