"""The true state of a Rock-n-Roll match, and its rules as a phase table.

:class:`RockNRollState` is the sections of the rules stacked (``board.py`` …
``rounds.py``, each adding its moves); :data:`RockNRollState.rules` lists, for each row
— the turn's phase, the interrupt's offer to the side off turn, or the pending decision
— the moves allowed, in the legal list's order. Each move's check is its rule: the
legal list, ``is_legal`` and the refusal's reason and rule ID all come from it.

Multi-step actions are steps of the same seat (docs/protocol.md, "Seats and turns"): an
attack is declared, then RD dice are poured (``pour N``), the dice rolled, and a
ROCK'N'ROLL offered (``rnr`` / ``keep``); a capture or a goal change is declared, then
paid (``pay CARD`` / ``pay rd``). Decisions that belong to a player (the prisoner to
free, each interaction, the order of the locals' attacks, a drifter's disputed move) are
actions of that seat.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from ....core.game import Action, Config, Event, Ruleset
from ....core.rules import Move, PhaseTable, Refusal
from ..cards import CardSet
from .deals import OFF_TURN
from .decisions import RULE_OF, Decision, Kind, Phase
from .pieces import SIDES
from .rounds import Rounds
from .table import (
    count_arg,
    operation_arg,
    piece_arg,
    piece_or_word_arg,
    play,
    point_arg,
    word_arg,
)

__all__ = ["RockNRollState"]


class RockNRollState(Rounds):
    """One Rock-n-Roll match (seats ``vietnam`` and ``vpa``)."""

    rules: ClassVar[PhaseTable[Any]]  # the phase table, below the class

    def __init__(self, ruleset: Ruleset, config: Config, cards: CardSet, seed: int | str) -> None:
        super().__init__(ruleset, config, cards, seed)
        for side in SIDES:
            # PT-C8: the starting hand (within the hand limit: the card files check it).
            self._draw_units(side, int(self.setup["start_units"]), limit=False)
            self._draw_orders(side, int(self.setup["start_orders"]), burn=False, limit=False)
        self._arrival()

    @classmethod
    def undealt(
        cls, ruleset: Ruleset, config: Config, cards: CardSet, seed: int | str
    ) -> RockNRollState:
        """A match before its starting hands and first arrival: every card in its deck
        (shuffled from ``seed``), nothing logged. A sampled world (``worlds.py``) sets
        every field from a view; dealing first would be work thrown away."""
        state = cls.__new__(cls)
        Rounds.__init__(state, ruleset, config, cards, seed)
        return state

    def apply_unchecked(self, action: Action) -> list[Event]:
        self.actions_taken += 1
        on_turn = self.pending is None and action.seat == self.turn
        events = super().apply_unchecked(action)
        if on_turn:
            # PT-D3: the side on turn acted; the offer comes again before its next action.
            self.window_passed = False
        return events

    # ------------------------------------------------------------------ refusals

    def explain_not_to_act(self, action: Action) -> Refusal:
        """A seat that may not act now: the turn rule that says whose move it is."""
        reason, _ = self.protocol_refusal(action)
        if action.kind not in RULE_OF:
            return reason, None  # not an action of this game at all
        s = action.seat
        if self.phase == Phase.END:
            # PT-C3: the end of the round's decisions belong to the winner and the captors.
            return f"{reason}: the end of the round's decisions are the other side's", "PT-C3"
        if self.phase == Phase.ARRIVAL:
            # PT-C2: the side taking its arrival's units from the deck or the HQ.
            return f"{reason}: the other side takes its arrival's units first", "PT-C2"
        if s != self.turn:
            # PT-D3: off turn, a side acts only on its interrupt's offer.
            return f"{reason}: off turn a side acts only when offered its interrupt", "PT-D3"
        if self.interrupting is not None:
            return f"{reason}: the opponent is playing its interrupt", "PT-D3"
        if self._window_open():
            return (
                f"{reason}: the opponent answers the offer of its interrupt first "
                "(deal interrupt, pass, pass turn or pass round)",
                "PT-D3",
            )
        return f"{reason}: the other side's decision comes first", "PT-C3"

    def _refuse(self, action: Action) -> Refusal:
        """A kind the row of the table does not list: the decision awaited; the side off
        turn's offer (PT-D3); for the side on turn, the rule of the kind it tried."""
        kind, s = action.kind, action.seat
        if self.pending is not None:
            return self._waiting(kind)
        if s != self.turn:
            return OFF_TURN
        move = _ANY_ROW.get(kind)
        args = None if move is None else move.parse(self, action)
        if move is None or args is None:
            return self._not_now(s, kind)
        return move.check(self, s, args) or self._not_now(s, kind)


# --------------------------------------------------------------------------- the table

St = RockNRollState
UNIT, TARGET, POINT = piece_arg("unit"), piece_arg("target"), point_arg("point")
PRISONER = piece_arg("prisoner")


def _prompt(kind: Kind, effect: Callable[[St, str, Any], None]) -> Move[St]:
    """A captor's interaction with the prisoner awaiting it (PT-P6)."""

    def check(st: St, s: str, args: Any) -> Refusal | None:
        return st._check_prompt(s, kind, args)

    return play(kind, "PT-P6", check, effect, (PRISONER,), St._prompt_options)


_ORDERS = [
    play(Kind.ATTACK, "PT-C5", St._check_attack, St._attack, (UNIT, TARGET), St._attack_options),
    play(Kind.AMBUSH, "PT-C5", St._check_ambush, St._ambush, (UNIT, TARGET), St._ambush_options),
    play(Kind.MANOEUVRE, "PT-C2", St._check_manoeuvre, St._manoeuvre, (UNIT, POINT),
         St._manoeuvre_options),
    play(Kind.REINFORCE, "PT-C3", St._check_reinforce, St._reinforce, (UNIT, POINT),
         St._reinforce_options),
    play(Kind.SUPPLY, "PT-C8", St._check_supply, St._supply, (), St._supply_options),
]  # fmt: skip
_DEAL = play(Kind.DEAL, "PT-D1", St._check_deal, St._deal,
             (word_arg("option", ("take", "return", "interrupt")), UNIT), St._deal_options,
             optional=1)  # fmt: skip
_SWAP = play(Kind.SWAP, "PT-R2", St._check_swap, St._swap, (word_arg("card"),), St._swap_options)
_REVEAL = play(Kind.REVEAL, "PT-O1", St._check_reveal, St._revealed,
               (operation_arg("operation"),), St._reveal_options)  # fmt: skip
_END = play(Kind.END, "PT-C3", St._check_end, St._end)

RockNRollState.rules = PhaseTable(
    phase=lambda st: st.stage(),
    moves={
        Phase.DEPLOY: [
            play(Kind.DEPLOY, "PT-C2", St._check_deploy, St._deploy, (UNIT, POINT),
                 St._deploy_options),
            _DEAL,
            _SWAP,
            _REVEAL,
            play(Kind.ORDERS, "PT-C3", St._check_orders, St._orders),
            _END,
        ],
        Phase.ORDERS: [
            *_ORDERS,
            play(Kind.CAPTURE, "PT-P1", St._check_capture, St._capture_declared, (TARGET,),
                 St._capture_options),
            play(Kind.GOAL, "PT-G1", St._check_goal, St._goal_declared, (POINT, POINT),
                 St._goal_options),
            play(Kind.ACT, "PT-R3", St._check_act, St._act),
            _DEAL,
            _SWAP,
            _REVEAL,
            _END,
        ],
        Decision.OFFER: [
            play(Kind.DEAL, "PT-D3", St._check_interrupt, St._interrupt,
                 (word_arg("option", ("take", "return", "interrupt")), UNIT),
                 St._interrupt_options, optional=1),
            play(Kind.PASS, "PT-D3", St._check_pass, St._pass,
                 (word_arg("for", ("turn", "round")),), St._pass_options, optional=1),
        ],
        Decision.INTERRUPT: _ORDERS,
        Decision.FORCED: _ORDERS,
        Decision.POUR: [
            play(Kind.POUR, "PT-C4", St._check_pour, St._pour, (count_arg("n"),),
                 St._pour_options),
        ],
        Decision.RNR: [
            play(Kind.RNR, "PT-R4", St._check_rnr, St._rnr),
            play(Kind.KEEP, "PT-R4", St._check_keep, St._keep),
        ],
        Decision.PAY: [
            play(Kind.PAY, "PT-R1", St._check_pay, St._pay, (word_arg("card"),), St._pay_options),
        ],
        Decision.TAKE: [
            play(Kind.TAKE, "PT-D1", St._check_take, St._take,
                 (piece_or_word_arg("unit", "deck"),), St._take_options),
        ],
        Decision.FIRST: [
            play(Kind.FIRST, "PT-L11", St._check_first, St._first, (piece_arg("local"),),
                 St._first_options),
        ],
        Decision.WITHDRAW: [
            play(Kind.WITHDRAW, "PT-L11", St._check_withdraw, St._withdraw, (POINT,),
                 St._withdraw_options),
        ],
        Decision.NAME: [
            play(Kind.FREE, "PT-P7", St._check_free, St._free, (PRISONER,), St._free_options),
        ],
        Decision.INTERACT: [
            _prompt(Kind.TORTURE, St._torture),
            _prompt(Kind.EXECUTE, St._execute),
            _prompt(Kind.RECRUIT, St._recruit),
            _prompt(Kind.SPARE, St._spare),
        ],
    },
    # A kind the row does not list, or arguments of the wrong number: the decision
    # awaited, the offer (PT-D3), or the rule of the kind tried (RockNRollState._refuse).
    phase_rules=dict.fromkeys((*Phase, *Decision), lambda st, action: st._refuse(action)),
    malformed=lambda st, action: st._refuse(action),
)  # fmt: skip

#: Every kind's move, for the refusal of a kind the row does not list: the turn's
#: version first (its check names the phase's rule), then the decisions'.
_ANY_ROW: dict[str, Move[St]] = {}
for _row in (Phase.ORDERS, Phase.DEPLOY, *Decision):
    for _move in RockNRollState.rules.moves.get(_row, ()):
        _ANY_ROW.setdefault(_move.kind, _move)
