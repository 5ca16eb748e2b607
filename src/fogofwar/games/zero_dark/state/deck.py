"""The Control Deck (ZD-C6, ZD-C7, ZD-B1…B6): after every activation the umpire flips
its top card — or the acting team plays a card from its Spook's hand instead (``flip``
/ ``play 7H``, the phase ``red``) — and the Red Force answers it (``bogeys.py``). With
buying time the first D flips are set aside, and shuffled into a second deck when the
first runs out (ZD-B2, ZD-B3); the mission ends when the deck is exhausted.

When every character has acted the turn ends; in Versus the teams alternate (ZD-C9).
"""

from __future__ import annotations

from collections.abc import Iterator

from ....core.game import emit
from ....core.rules import Refusal
from ..profiles import MAX_TASK_D_BONUS
from .bogeys import RedForce
from .pieces import Phase, Side

__all__ = ["ControlDeck"]


class ControlDeck(RedForce):
    """Flips, cards played from a hand, the second deck, the turn (ZD-C6, ZD-C7, ZD-B*)."""

    def _asks_to_play(self, side: Side) -> bool:
        """Whether the acting team chooses between a flip and a card of its Spook's hand
        (ZD-C7: "its player may play one of them" — the Spook need not stand, ruling).

        In Versus the other team must not learn from the question whether the hand is
        empty before the rules show it (its size is the Spook's D, which a task may raise,
        ZD-T4): a team that drew a hand is asked until it has played as many cards as a
        hand can hold, D + the largest task bonus to D (ruling)."""
        if side.hand:
            return True
        if self.mode == "solo" or side.spook is None or side.buying_time:
            return False
        return side.played < side.base_d + MAX_TASK_D_BONUS

    def cards_to_come(self) -> int:
        """The Control Deck's count as the table sees it (views, ``flip`` events). Solo:
        the cards left to flip. Versus: the cards left to flip and the cards in the
        Spooks' hands together — each hand's size is its team's secret (ZD-C7, ZD-T4), and
        the deck's own count would tell it (ruling)."""
        if self.mode == "solo":
            return len(self.deck)
        return len(self.deck) + sum(len(x.hand) for x in self.sides.values())

    def _red_force(self) -> None:
        """After an activation: a flip, or the acting team's choice to play from its
        Spook's hand instead (ZD-C7)."""
        self._check_end()  # the last hero down ends the mission before another flip
        if self._outcome is not None:
            return
        if self._asks_to_play(self.sides[self.red_seat]):
            self.phase = Phase.RED
            return
        self._flip_card()

    # ------------------------------------------------------------------ flip, play

    def _check_flip(self, seat: str, args: tuple[()]) -> Refusal | None:
        """ZD-C6: the Control Deck may always be flipped."""
        return None

    def _flip(self, seat: str, args: tuple[()]) -> None:
        self._flip_card()

    def _play_options(self, seat: str) -> Iterator[tuple[str]]:
        return ((c.to_json(),) for c in self.sides[seat].hand)

    def _check_play(self, seat: str, args: tuple[str]) -> Refusal | None:
        """ZD-C7: a card of the Spook's hand, played as if flipped."""
        (code,) = args
        if any(c.to_json() == code for c in self.sides[seat].hand):
            return None
        return f"{code} is not in the Spook's hand", "ZD-C7"

    def _play(self, seat: str, args: tuple[str]) -> None:
        """ZD-C7: a card of the hand played as if flipped; ZD-B6: it is not a Control Deck
        flip (never set aside, and a cautious move's cancel waits for the next flip)."""
        (code,) = args
        side = self.sides[self.red_seat]
        card = next(c for c in side.hand if c.to_json() == code)
        side.hand.remove(card)
        side.played += 1
        self.deck.discard(card)  # the hand's cards were drawn: they are out
        emit(self.events, "played", card=code, spook=side.spook, rule="ZD-C7")
        self._resolve_card(card, flipped=False)

    def _flip_card(self) -> None:
        """ZD-C6: flip the Control Deck's top card; with buying time the first D flips
        are set aside instead of discarded (ZD-B2, ZD-B6). An empty deck is refilled or
        ends the mission first (:meth:`_exhausted`): a game never flips one (the flip
        that empties it is followed by that check), but a world sampled for search, whose
        unseen cards are split at random between the deck and the other Spook's hand
        (Versus), may hold none."""
        if not len(self.deck) and self._exhausted():
            return
        card = self.deck.draw()
        self.flips += 1
        aside = len(self.deck.pile("aside")) if "aside" in self.deck.pile_names else 0
        left = self.cards_to_come()
        if not self.second_deck and aside < self.aside_target:
            self.deck.set_aside(card)
            emit(self.events, "flip", card=card.to_json(), left=left, set_aside=True)
        else:
            self.deck.discard(card)
            emit(self.events, "flip", card=card.to_json(), left=left)
        self._resolve_card(card, flipped=True)

    def _exhausted(self) -> bool:
        """The Control Deck is empty: the set-aside cards, shuffled, are the new Control
        Deck (ZD-B3), or the mission ends (ZD-C6). Whether it ended."""
        aside = self.deck.pile("aside") if "aside" in self.deck.pile_names else None
        if self.aside_target and not self.second_deck and aside is not None and len(aside):
            self.second_deck = True
            self.deck.reshuffle(self._streams.stream("second-deck"), "aside")
            emit(self.events, "second_deck", cards=len(self.deck), rule="ZD-B3")
            return False
        self._finish_mission("the Control Deck is exhausted: the mission ends", "ZD-C6")
        return True

    # ------------------------------------------------------------------ after the answer

    def _after_flip(self) -> None:
        self.phase = Phase.CHOOSE
        self._dependent_check()
        if not len(self.deck) and self._exhausted():
            return
        if not self._can_activate():
            self.turn += 1
            self.acted = set()
            self.turn_start = len(self.events)
            emit(self.events, "turn", turn=self.turn)
        if self.mode != "solo":
            self._alternate()
