"""Special operations (PT-O1, PT-O2).

``reveal S`` in the own turn when its condition holds: the reward at once, the card to
the bottom of the operations deck. An ``orders`` reward is drawn as PT-P11 draws, a
``units`` reward ignores the hand limit too (``draws.py``). At the end of the round every
held operation whose condition holds is revealed (``rounds.py``); these wait beside the
deck until the next arrival (PT-O2).
"""

from __future__ import annotations

from ....core.game import emit
from ....core.rules import Refusal
from ..cards import Operation
from .deals import Deals

__all__ = ["Operations"]


class Operations(Deals):
    """Revealing operations."""

    def _reveal_options(self, s: str) -> list[tuple[Operation]]:
        return [(self.cards.operation(o),) for o in self.completed_ops(s)]

    def _check_reveal(self, s: str, args: tuple[Operation | None]) -> Refusal | None:
        """PT-O1: an operation the side holds, whose condition holds now."""
        (op,) = args
        if op is not None and op.id in self.ops[s] and self.op_complete(s, op):
            return None
        return "the operation's conditions are not met", "PT-O1"

    def _revealed(self, s: str, args: tuple[Operation]) -> None:
        (op,) = args
        self._reveal(s, op.id, end_of_round=False)

    def _reveal(self, s: str, op_id: str, *, end_of_round: bool) -> None:
        op = self.cards.operation(op_id)
        self.ops[s].remove(op_id)
        emit(self.log, "revealed", side=s, operation=op_id, name=op.name, reward=op.reward)
        if op.reward == "rd":
            self.rd[s] += op.reward_amount
        elif op.reward == "orders":
            self._reward_orders(s, op.reward_amount, cause="operation")
        else:
            self._reward_units(s, op.reward_amount, cause="operation")
        if end_of_round:
            # Held aside until the next arrival, the loser's own card too (ruling): the
            # loser may take only the winner's card (PT-O2) and must not draw back its own.
            self.just_revealed.append((s, op_id))
        else:
            self.ops_deck.put_bottom(op_id)  # PT-O1: back to the operations deck
            self.ops_returned += 1
