"""Setup with characters (SO-S4): the hunters choose their characters in public, figure
by figure; then the agent chooses its character and its equipment cards in secret (the
second agent too, once the traitor is revealed, SO-T5). Without characters the game
starts at once.

* ``character H1 gun`` — the next hunter figure's character, one not taken;
* ``character cobra`` — the agent's character, one not in use;
* ``card flash-bang`` — one of its equipment cards, from its character's pool; the
  last ones are taken by themselves when there is no choice left.
"""

from __future__ import annotations

import functools
import itertools

from ....core.game import Action, emit
from ....core.rules import Refusal
from ..characters import AGENTS, CARDS, HUNTERS, card_pool
from ..knowledge import Kit, PossibilityMap
from .board import Board
from .pieces import Phase, cards_to_take

__all__ = ["Setup", "possible_kits"]


@functools.lru_cache(maxsize=8)
def possible_kits(players: int) -> tuple[Kit, ...]:
    """Every kit an agent may choose at setup (SO-S4): a character and its cards.
    Cached: every sampled world of a search asks for it."""
    out: list[Kit] = []
    for char in AGENTS:
        for hand in itertools.combinations(card_pool(char), cards_to_take(players)):
            out.append((char, tuple(sorted((c, CARDS[c].uses) for c in hand))))
    return tuple(out)


class Setup(Board):
    """SO-S4: the characters and the agent's equipment."""

    # ------------------------------------------------------------------ the hunters

    def _hunter_picks(self, seat: str) -> list[tuple[str, str]]:
        h = self._next_unpicked()
        taken = {x.character for x in self.hunters}
        return [(h.id, c) for c in HUNTERS if c not in taken]

    def _check_hunter_pick(self, seat: str, args: tuple[str, str]) -> Refusal | None:
        """SO-S4: the next figure without a character chooses one not taken."""
        figure, char = args
        if char not in HUNTERS:
            return f"{char!r} is not a hunter character ({', '.join(HUNTERS)})", "SO-S4"
        if any(h.character == char for h in self.hunters):
            return f"{char} is already taken", "SO-S4"
        if figure != self._next_unpicked().id:
            return "the hunters choose in figure order, one figure at a time", "SO-S4"
        return None

    def _refuse_hunter_pick(self, action: Action) -> Refusal:
        return "each hunter figure first chooses a character: character H1 gun", "SO-S4"

    def _pick_hunter(self, seat: str, args: tuple[str, str]) -> None:
        figure, char = args
        h = next(x for x in self.hunters if x.id == figure)
        h.character = char
        emit(self.events, "hunter_character", hunter=figure, character=char)
        if all(x.character for x in self.hunters):
            self.phase = Phase.PICK_AGENT

    # ------------------------------------------------------------------ the agent

    def _agent_picks(self, seat: str) -> list[tuple[str]]:
        used = {a.character for a in self.agents}  # SO-T5: one not in use
        return [(c,) for c in AGENTS if c not in used]

    def _check_agent_pick(self, seat: str, args: tuple[str]) -> Refusal | None:
        """SO-S4, SO-T5: an agent character, one not in use."""
        (char,) = args
        if char not in AGENTS:
            return self._refuse_agent_pick()
        if any(a.character == char for a in self.agents):
            return "the agent has already chosen its character", "SO-S4"
        return None

    def _refuse_agent_pick(self, action: Action | None = None) -> Refusal:
        return f"the agent chooses a character: {', '.join(AGENTS)}", "SO-S4"

    def _pick_agent(self, seat: str, args: tuple[str]) -> None:
        me = self.focus
        me.character = args[0]
        me.health = me.max_health = me.max_health + AGENTS[me.character].health_bonus
        emit(self.events, "agent_character", to=(me.seat,), **self._who(), character=me.character)
        self.phase = Phase.PICK_CARDS
        self._take_forced_cards()

    def _card_picks(self, seat: str) -> list[tuple[str]]:
        me = self.focus
        return [(c,) for c in card_pool(me.character) if c not in me.cards]

    def _check_card_pick(self, seat: str, args: tuple[str]) -> Refusal | None:
        """SO-S4: a card of the character's pool, not taken yet."""
        (card,) = args
        me = self.focus
        if card in me.cards:
            return f"{card} is already taken", "SO-S4"
        pool = card_pool(me.character)
        if card not in pool:
            return f"{card!r} is not a card this agent may take ({', '.join(pool)})", "SO-S4"
        return None

    def _refuse_card_pick(self, action: Action) -> Refusal:
        return "the agent now chooses its equipment cards: card flash-bang", "SO-S4"

    def _pick_card(self, seat: str, args: tuple[str]) -> None:
        (card,) = args
        me = self.focus
        me.cards[card] = CARDS[card].uses
        emit(self.events, "agent_card", to=(me.seat,), **self._who(), card=card)
        self._take_forced_cards()

    def _cards_to_take(self) -> int:
        """3 or 5 cards for the agent (SO-S4), 2 for the second agent (SO-T5)."""
        return 2 if self.focus_index == 1 else cards_to_take(self.players)

    def _take_forced_cards(self) -> None:
        """Take the rest when there is no choice left, then go on."""
        me = self.focus
        need = self._cards_to_take() - len(me.cards)
        left = [c for c in card_pool(me.character) if c not in me.cards]
        if need == len(left):
            for c in left:
                me.cards[c] = CARDS[c].uses
                emit(self.events, "agent_card", to=(me.seat,), **self._who(), card=c)
            need = 0
        if need:
            return
        emit(self.events, "agent_ready", **self._who(), cards=len(me.cards))
        if self.focus_index == 1:
            self._second_agent_ready()
            return
        self._kits = possible_kits(self.players)
        me.knowledge = PossibilityMap.start(self.geo.agent_start, self.site_sets, self._kits)
        self._setup_done()

    def _setup_done(self) -> None:
        """The agent deals the roles (SO-T2) or, without a traitor, the game starts."""
        if self.traitor_game:
            self.phase = Phase.DEAL
        else:
            self._start_agent_turn()
