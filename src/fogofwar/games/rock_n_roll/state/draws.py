"""Draws, hands and discards (PT-C8, PT-P11), and the swap of a card (PT-R2).

A card the rules *give* (a reward) is never lost to an empty order deck — its discard
pile is first shuffled (keyed stream) to re-form it, as PT-P11 says — nor to the hand
limit; a draw the stand-in core's clock or the hand limit's own rule governs stays as it
is (docs/rock-n-roll.md, "Draws").
"""

from __future__ import annotations

from typing import Final

from ....core.cards import Pile
from ....core.game import emit
from ....core.rules import Refusal
from .board import Board
from .pieces import Zone, id_key

__all__ = ["SWAP_RD", "Draws"]

SWAP_RD: Final = 1  # PT-R2


class Draws(Board):
    """Drawing and discarding cards."""

    def _draw_units(self, side: str, n: int, *, limit: bool = True) -> list[str]:
        got = []
        for _ in range(n):
            if not self.unit_deck[side]:
                break
            if limit and len(self.hand[side]) >= self.setup["hand_limit"]:
                break
            c = self.unit_deck[side].draw()
            self.hand[side].append(c)
            self.pieces[c].zone = Zone.HAND
            got.append(c)
        self._drew(side, got)
        return got

    def _draw_orders(self, side: str, n: int, *, burn: bool, limit: bool = True) -> list[str]:
        got, burned = [], []
        for _ in range(n):
            if not self.order_deck[side]:
                break
            c = self.order_deck[side].draw()
            if limit and len(self.hand[side]) >= self.setup["hand_limit"]:
                if burn:
                    self.order_discard[side].append(c)
                    burned.append(c)
                    continue
                self.order_deck[side].put(c)
                break
            self.hand[side].append(c)
            got.append(c)
        self._drew(side, got)
        if burned:
            # Over the hand limit the turn's draw is discarded face up, so the round's
            # clock (the order deck) still runs down.
            emit(self.log, "burned", side=side, cards=burned)
        return got

    def _orders_left(self, side: str) -> int:
        """The orders ``side`` could still draw: its deck and its discard pile (PT-P11)."""
        return len(self.order_deck[side]) + len(self.order_discard[side])

    def _reward_orders(self, side: str, n: int, *, cause: str) -> list[str]:
        """Draw ``n`` orders the rules give ``side`` (torture and its backfire, PT-P6; an
        operation's reward, PT-O1; the Devil's hand, PT-D1), the way PT-P11 says: from
        its order deck; an empty deck is first re-formed from its discard pile, shuffled
        (a keyed stream); only when deck and discard are both empty is nothing drawn,
        and the ``nothing_drawn`` event says so. The hand limit (PT-C8) never cancels
        such a draw."""
        got: list[str] = []
        for _ in range(n):
            if not self.order_deck[side] and not self._reform_orders(side):
                emit(
                    self.log,
                    "nothing_drawn",
                    side=side,
                    cards="orders",
                    missing=n - len(got),
                    cause=cause,
                    reason="its order deck and discard pile are both empty",
                    rule="PT-P11",
                )
                break
            c = self.order_deck[side].draw()
            self.hand[side].append(c)
            got.append(c)
        self._drew(side, got)
        return got

    def _reform_orders(self, side: str) -> bool:
        """PT-P11: shuffle ``side``'s order discard pile to form its empty order deck (a
        stream keyed by side, round and the re-forming's number). False if it is empty."""
        discard = self.order_discard[side]
        if not discard:
            return False
        self.reforms[side] += 1
        deck = Pile(sorted(discard, key=id_key), name=f"{side} orders")
        deck.shuffle(
            self._streams.stream("deck", "orders", side, self.round, "reform", self.reforms[side])
        )
        self.order_deck[side] = deck
        self.order_discard[side] = []
        emit(self.log, "deck_reformed", side=side, cards=len(deck), rule="PT-P11")
        return True

    def _reward_units(self, side: str, n: int, *, cause: str) -> list[str]:
        """Draw ``n`` units the rules give ``side`` (an operation's reward, PT-O1): never
        cancelled by the hand limit (PT-P11's principle); units have no discard pile to
        re-form the deck from (they go to the HQ, PT-C2), so an empty unit deck gives
        nothing more, and the ``nothing_drawn`` event says so."""
        got = self._draw_units(side, n, limit=False)
        if len(got) < n:
            emit(
                self.log,
                "nothing_drawn",
                side=side,
                cards="units",
                missing=n - len(got),
                cause=cause,
                reason="its unit deck is empty",
                rule="PT-O1",
            )
        return got

    def _drew(self, side: str, cards: list[str]) -> None:
        if cards:
            if self.shown[side]:
                # A card drawn in secret is no longer known to be in the hand.
                self.shown[side] = [c for c in self.shown[side] if c not in cards]
            emit(self.log, "drew", to=[side], side=side, cards=cards)
            emit(self.log, "draws", side=side, n=len(cards))

    def _discard_card(self, side: str, card: str) -> None:
        """Discard one of ``side``'s cards from hand or a Point (PT-P2, PT-R2, PT-G1)."""
        if card in self.hand[side]:
            self.hand[side].remove(card)
        if self.cards.is_order(card):
            self.order_discard[side].append(card)
            return
        pc = self.pieces[card]
        if pc.card.is_local:
            pc.zone, pc.holder, pc.owner = Zone.DISCARD, None, None
            self.locals_discard.append(card)
            return
        # Units given up in exchanges go to their side's HQ (PT-C2).
        home = pc.owner or pc.card.side
        pc.zone, pc.holder, pc.pos, pc.hits, pc.dead = Zone.HQ, home, -1, 0, False

    # ------------------------------------------------------------------ swap (PT-R2)

    def _swap_options(self, s: str) -> list[tuple[str]]:
        return [(c,) for c in self.hand[s]]

    def _check_swap(self, s: str, args: tuple[str | None]) -> Refusal | None:
        """PT-R2: a unit or order from hand and 1 RD for a new card of the same kind,
        while that kind's deck holds one (locals are not swapped)."""
        (card,) = args
        if card is not None and self.rd[s] >= SWAP_RD and card in self.hand[s]:
            if self.cards.is_order(card):
                deck = self.order_deck[s]
            elif self.cards.is_unit(card) and not self.cards.unit(card).is_local:
                deck = self.unit_deck[s]
            else:
                deck = None
            if deck:
                return None
        return "a swap costs the card and 1 RD, with a deck to draw from", "PT-R2"

    def _swap(self, s: str, args: tuple[str]) -> None:
        (card,) = args
        self.rd[s] -= SWAP_RD
        self._discard_card(s, card)
        emit(self.log, "swapped", side=s, card=card)
        if self.cards.is_order(card):
            self._draw_orders(s, 1, burn=False, limit=False)
        else:
            self._draw_units(s, 1, limit=False)
