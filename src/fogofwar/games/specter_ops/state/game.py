"""The true state of a Specter Ops game, and its rules as a phase table.

:class:`SpecterOpsState` is the sections of the rules stacked (``board.py`` …
``traitor.py``, each adding its moves); :data:`SpecterOpsState.rules` lists, phase by
phase, the moves allowed, in the legal list's order. Each move's check is its rule: the
legal list, ``is_legal`` and the refusal's reason and rule ID all come from it.

* **pick_hunter**, **pick_agent**, **pick_cards** — setup with characters (SO-S4):
  ``character H1 gun``, ``character cobra``, ``card flash-bang``.
* **deal** — the agent deals the role cards: ``traitor H3`` (SO-T2).
* **agent** — the agent's move: ``step N2`` (SO-A1…A3), ``stop`` (SO-A3), a card before
  moving ``use CARD [TARGET]`` (SO-A7, SO-A8). The end of the move decides reveal /
  Last Seen / nothing (SO-A5, SO-A6) and the escape (SO-E1).
* **agent_after** — a card after moving, or ``done`` (SO-A7).
* **order** — the hunters choose who acts next: ``next H2`` (SO-R1).
* **hunter** — a hunter figure's movement: ``accuse H2`` / ``reveal`` first (SO-T4),
  then ``step`` (SO-H1, SO-V2), ``drive`` (SO-V1), ``sensor`` (SO-V5), ``stop``. When the
  movement ends the agent answers "Clear" or is placed (SO-H3).
* **attack** — a hunter that sees the agent: ``attack`` (SO-H2, SO-X*), the Beast's
  ``sniff``, or ``end``.

The hunters' knowledge is a :class:`~..knowledge.PossibilityMap` updated from the public
events alone (SO-I2).
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, ClassVar

from ....core.game import Config, Ruleset
from ..geometry import Geometry
from .pieces import Kind, Phase
from .table import (
    SpecterTable,
    TableMove,
    loose_square,
    move,
    plain_move,
    square_move,
    word_param,
)
from .traitor import Traitor

__all__ = ["SpecterOpsState"]


class SpecterOpsState(Traitor):
    """One game of Specter Ops (2–5 players; see the module doc for the phases)."""

    rules: ClassVar[SpecterTable[Any]]  # the phase table, below the class

    def __init__(self, ruleset: Ruleset, config: Config, geo: Geometry, seed: int | str) -> None:
        super().__init__(ruleset, config, geo, seed)
        if self.with_characters:
            self.phase = Phase.PICK_HUNTER  # SO-S4: hunters first, in public
        else:
            self._setup_done()


# --------------------------------------------------------------------------- the table

St = SpecterOpsState
WORD = word_param("figure")


def _always(state: St) -> bool:
    return True


_USE = move(
    Kind.USE,
    "SO-A7",
    St._check_use,
    St._use,
    (word_param("card"), word_param("target", optional=True)),
    St._use_options,
    St._refuse_use,
    exact=True,  # the cards' choices, made from the rule's parts (equipment.py)
)
_ACCUSE = move(
    Kind.ACCUSE,
    "SO-T4",
    St._check_accuse,
    St._accuse,
    (WORD,),
    St._accusations,
    lambda st, action: st._traitor_refusal(action.seat, Kind.ACCUSE, None),
    exact=True,  # the accusations, made from the rule's parts (traitor.py)
)
_REVEAL = move(
    Kind.REVEAL,
    "SO-T4",
    St._check_reveal,
    St._reveal,
    (),
    St._reveals,
    lambda st, action: st._traitor_refusal(action.seat, Kind.REVEAL, None),
    exact=True,
)
_HUNTER_STEP = square_move(
    Kind.STEP, "SO-H1", St._hunter_steps, St._why_not_hunter_step, St._hunter_step
)
_DRIVE = square_move(
    Kind.DRIVE,
    "SO-V1",
    St._drive_targets,
    St._why_not_drive,
    St._drive,
    lambda st, action: st._why_not_drive(loose_square(st, action)),
)
_SENSOR = plain_move(Kind.SENSOR, "SO-V5", St._may_sense, St._why_not_sensor, St._sensor)
_HUNTER_STOP = plain_move(Kind.STOP, "SO-H1", St._may_stop, St._why_not_stop, St._stop)

#: A hunter's movement in the legal list's order: an accusation or a reveal first (the
#: traitor game, at the start of a turn); aboard, it gets out before it drives; the
#: Puppet on foot drives (or senses) before it walks.
_ABOARD: list[TableMove[Any]] = [_HUNTER_STEP, _DRIVE, _SENSOR, _HUNTER_STOP]
_ON_FOOT: list[TableMove[Any]] = [_DRIVE, _SENSOR, _HUNTER_STEP, _HUNTER_STOP]
_ACCUSING = [_ACCUSE, _REVEAL]


def _movement(st: St) -> list[TableMove[Any]]:
    """The hunter phase's moves in the legal list's order, those that may have options
    now (accusations only while one may be made)."""
    moves = _ABOARD if st._active().aboard else _ON_FOOT
    return _ACCUSING + moves if st._accusation_open() else moves


SpecterOpsState.rules = SpecterTable(
    phase=attrgetter("phase"),
    moves={
        Phase.PICK_HUNTER: [
            move(Kind.CHARACTER, "SO-S4", St._check_hunter_pick, St._pick_hunter,
                 (WORD, word_param("character")), St._hunter_picks, St._refuse_hunter_pick),
        ],
        Phase.PICK_AGENT: [
            move(Kind.CHARACTER, "SO-S4", St._check_agent_pick, St._pick_agent,
                 (word_param("character"),), St._agent_picks, St._refuse_agent_pick),
        ],
        Phase.PICK_CARDS: [
            move(Kind.CARD, "SO-S4", St._check_card_pick, St._pick_card, (word_param("card"),),
                 St._card_picks, St._refuse_card_pick),
        ],
        Phase.DEAL: [
            move(Kind.TRAITOR, "SO-T2", St._check_deal, St._deal, (WORD,), St._deal_options,
                 St._refuse_deal),
        ],
        Phase.AGENT: [
            square_move(Kind.STEP, "SO-A1", St._agent_steps, St._why_not_agent_step,
                        St._agent_step),
            plain_move(Kind.STOP, "SO-A3", St._agent_can_stop, St._why_not_agent_stop,
                       St._agent_stop),
            _USE,
        ],
        Phase.AGENT_AFTER: [
            _USE,
            plain_move(Kind.DONE, "SO-A7", _always, St._refuse_after_agent_move, St._done),
        ],
        Phase.ORDER: [
            move(Kind.NEXT, "SO-R1", St._check_next, St._next, (WORD,), St._waiting,
                 St._refuse_next),
        ],
        Phase.HUNTER: _ACCUSING + _ABOARD,
        Phase.ATTACK: [
            move(Kind.ATTACK, "SO-H2", St._check_attack, St._attack,
                 (word_param("agent", optional=True),), St._attack_options, St._refuse_attack),
            plain_move(Kind.SNIFF, "SO-H2", St._may_sniff, St._refuse_after_move, St._sniff),
            plain_move(Kind.END, "SO-R1", _always, St._refuse_after_move, St._end),
        ],
    },
    # A kind the phase does not list: the phase's own refusal (the traitor's kinds are
    # refused under their rules in every phase after the setup).
    phase_rules={
        Phase.PICK_HUNTER: St._refuse_hunter_pick,
        Phase.PICK_AGENT: St._refuse_agent_pick,
        Phase.PICK_CARDS: St._refuse_card_pick,
        Phase.DEAL: St._refuse_before_deal,
        Phase.AGENT: St._refuse_in_agent_move,
        Phase.AGENT_AFTER: St._refuse_after_agent_move,
        Phase.ORDER: St._refuse_in_order,
        Phase.HUNTER: St._refuse_in_movement,
        Phase.ATTACK: St._refuse_after_move,
    },
    sequence={Phase.HUNTER: _movement},
)  # fmt: skip
