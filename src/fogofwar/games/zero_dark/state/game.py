"""The state of a Zero Dark mission, and its rules as a phase table.

:class:`ZeroDarkState` is the sections of the rules stacked (``fields.py`` …
``deck.py``, each adding its moves); :data:`ZeroDarkState.rules` lists, phase by phase,
the moves allowed, each with its check — the rule: the legal list, ``is_legal`` and a
refusal's reason and rule ID all come from it.

* **prepare** — Versus only: ``prepare TASK hand|buy`` (ZD-B4, ZD-T1).
* **choose** — ``activate H2`` (ZD-C9, ZD-D2).
* **move** — the automatic action: ``step``, ``face``, ``stop``, ``door``, ``exit``,
  ``verify`` (ZD-C2, FR-M*, FR-L5, ZD-C8, ZD-T4).
* **tested** — ``shoot``, ``dotlight``, ``interact``, ``cautious``, ``pass`` (ZD-C2,
  ZD-C3, ZD-L*, ZD-C10).
* **bonus** — a bonus action: the automatic action's moves and ``done`` (ZD-C2).
* **cqb** — ``fight`` or ``persuade`` a susceptible bogey (ZD-P1).
* **red** — ``flip`` the Control Deck or ``play`` a card from the hand (ZD-C6, ZD-C7).
* **over** — nothing.

A kind the phase does not allow is refused with what the phase waits for; words that do
not fit a kind (the wrong number of arguments, a square off the map) are refused under
the rule of the kind (:data:`WORDS`). After every move the mission may end: no hero left
on the table (ZD-C8).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Final

from ....core.game import Action, ArgValue, Config, Event, Ruleset
from ....core.grid import Board
from ....core.rules import Move, Param, PhaseTable, Refusal, text_param, word_param
from ..profiles import TASKS
from .activation import DONE_WHEN
from .deck import ControlDeck
from .movement import Misspelt
from .options import parse_red_force_specs
from .pieces import TESTED_KINDS, Kind, Phase
from .versus import PREPARE_FORM

__all__ = ["WORDS", "ZeroDarkState"]


class ZeroDarkState(ControlDeck):
    """One Zero Dark mission in progress (the umpire's secret)."""

    rules: ClassVar[PhaseTable[Any]]  # the phase table, below the class

    def __init__(self, ruleset: Ruleset, config: Config, board: Board, seed: int | str) -> None:
        super().__init__(ruleset, config, board, seed)
        self._place_pings(parse_red_force_specs(str(config["red_force"])))
        if self.mode == "solo":
            self._setup_sides()
        else:
            self.phase = Phase.PREPARE  # both teams choose in secret first (ZD-B4)

    def apply_unchecked(self, action: Action) -> list[Event]:
        start = len(self.events)
        self.rules.apply(self, action)
        self._check_end()
        return self.events[start:]

    # ------------------------------------------------------------------ refusals

    def explain_illegal(self, action: Action) -> Refusal:
        """Why ``action`` is refused, with the rule that refuses it, in every phase and
        for any action at all (an unknown kind, the wrong arguments, another seat's)."""
        if self._outcome is not None:
            return f"the mission is over ({self._outcome.reason})", self._outcome.rule
        if action.seat not in self.sides:
            seats = ", ".join(self.sides)
            return f"{action.seat!r} is not a seat of this mission (seats: {seats})", "ZD-C9"
        if action.seat not in self.to_act():
            return self.explain_not_to_act(action)
        return self.rules.explain(self, action)

    def explain_not_to_act(self, action: Action) -> Refusal:
        """ZD-B4: a Versus team that has recorded its choices waits for the other; else
        ZD-C9: the seat whose activation (or choice) it is acts."""
        others = ", ".join(sorted(self.to_act()))
        if self.phase is Phase.PREPARE:
            return f"{action.seat} has recorded its choices; waiting for {others}", "ZD-B4"
        return f"{action.seat} may not act now: waiting for {others}", "ZD-C9"

    def _not_automatic(self, action: Action) -> Refusal:
        """A kind the automatic action (or a bonus action) does not allow (ZD-C2)."""
        if action.kind == Kind.DONE:
            return DONE_WHEN
        if action.kind in TESTED_KINDS:
            return "first the automatic action (a move, a facing, a door), then this", "ZD-C2"
        legal = ", ".join(sorted({a.kind for a in self.legal_actions(action.seat)}))
        return f"the automatic action now: {legal}", "ZD-C2"

    def _choose_first(self, action: Action) -> Refusal:
        """ZD-C9: another kind while the seat chooses who acts. The example names a
        model the seat may activate now, never one that has acted or is out of action."""
        ready = self._can_activate(action.seat)
        if not ready:  # not expected (the turn passes on), but never a wrong example
            return "choose a hero or ally to activate first (none may be activated now)", "ZD-C9"
        return f"choose a hero or ally to activate first (activate {ready[0].id})", "ZD-C9"


# --------------------------------------------------------------------------- the table

St = ZeroDarkState


def _square(state: St, wire: ArgValue) -> Any:
    """A square of the map: its :class:`~fogofwar.core.grid.Square`, or a
    :class:`~.movement.Misspelt` one (``d7``), which no step takes."""
    if not isinstance(wire, str):
        raise ValueError(f"a square is a word, not {wire!r}")
    square = state.board.square(wire)
    return square if square.name == wire else Misspelt(square)


SQUARE: Final = Param("square", _square, lambda square: square.name)
MODEL, TARGET, CARD = text_param("model"), text_param("target"), text_param("card")

_TESTED_NOW: Final = ("the tested action now: shoot, dotlight, interact, cautious or pass", "ZD-C2")
_CQB_CHOICE: Final = ("choose fight or persuade for this CQB", "ZD-P1")
_FLIP_OR_PLAY: Final = ("flip the Control Deck or play a card from the hand (play 7H)", "ZD-C7")

#: The refusal of words that do not fit an action kind (the wrong number of arguments,
#: an argument it never takes), under the kind's rule: fixed, or from the state and the
#: arguments (``step`` names the word that is no square; ``stop`` first says where the
#: move may not end).
WORDS: Final[dict[str, Refusal | Callable[[St, tuple[ArgValue, ...]], Refusal]]] = {
    Kind.PREPARE: (f"a team records its choices as {PREPARE_FORM}", "ZD-B4"),
    Kind.ACTIVATE: lambda st, args: (
        f"no hero or ally {' '.join(map(str, args))!r} to activate",
        "ZD-C9",
    ),
    Kind.STEP: St._step_words,
    Kind.STOP: St._stop_words,
    Kind.FACE: St._face_words,
    Kind.DOOR: St._door_words,
    Kind.EXIT: St._exit_words,
    Kind.VERIFY: St._verify_words,
    Kind.DONE: DONE_WHEN,
    Kind.SHOOT: St._shoot_words,
    Kind.DOTLIGHT: St._dotlight_words,
    Kind.INTERACT: St._interact_words,
    Kind.CAUTIOUS: _TESTED_NOW,
    Kind.PASS: _TESTED_NOW,
    Kind.FIGHT: _CQB_CHOICE,
    Kind.PERSUADE: _CQB_CHOICE,
    Kind.FLIP: _FLIP_OR_PLAY,
    Kind.PLAY: _FLIP_OR_PLAY,
}


def _words(st: St, action: Action) -> Refusal:
    found = WORDS[action.kind]
    return found if isinstance(found, tuple) else found(st, action.args)


def _move(
    kind: Kind,
    rule: str,
    check: Callable[[St, str, Any], Refusal | None],
    effect: Callable[[St, str, Any], None],
    params: tuple[Param, ...] = (),
    options: Callable[[St, str], Any] | None = None,
) -> Move[St]:
    """A move whose check decides legality alone (the options and the phases' orders
    offer only what it allows). ``kind`` becomes a plain string, as actions carry it."""
    return Move(str(kind), rule, check, effect, params, options, complete=True)


_AUTOMATIC = (
    _move(Kind.STEP, "FR-M1", St._check_step, St._step, (SQUARE,)),
    _move(Kind.FACE, "FR-L5", St._check_face, St._face, (text_param("facing"),)),
    _move(Kind.STOP, "ZD-C2", St._check_stop, St._stop),
    _move(Kind.DOOR, "ZD-C2", St._check_door, St._door,
          (text_param("square"), text_param("side"))),
    _move(Kind.EXIT, "ZD-C8", St._check_exit, St._exit),
    _move(Kind.VERIFY, "ZD-T4", St._check_verify, St._verify, (MODEL,)),
)  # fmt: skip

ZeroDarkState.rules = PhaseTable(
    phase=lambda st: st.phase,
    moves={
        Phase.PREPARE: (
            _move(Kind.PREPARE, "ZD-B4", St._check_prepare, St._prepare,
                  (word_param("task", TASKS), word_param("choice", ("hand", "buy"))),
                  St._prepare_options),
        ),
        Phase.CHOOSE: (
            _move(Kind.ACTIVATE, "ZD-C9", St._check_activate, St._activate, (MODEL,),
                  St._activate_options),
        ),
        Phase.MOVE: _AUTOMATIC,
        Phase.BONUS: (*_AUTOMATIC, _move(Kind.DONE, "ZD-C2", St._check_done, St._done)),
        Phase.TESTED: (
            _move(Kind.SHOOT, "ZD-C3", St._check_shoot, St._shoot_at, (TARGET,)),
            _move(Kind.DOTLIGHT, "ZD-L1", St._check_dotlight, St._dotlight_at, (TARGET,)),
            _move(Kind.INTERACT, "ZD-C10", St._check_interact, St._interact),
            _move(Kind.CAUTIOUS, "ZD-C10", St._check_anyway, St._cautious),
            _move(Kind.PASS, "ZD-C2", St._check_anyway, St._pass),
        ),
        Phase.CQB: (
            _move(Kind.FIGHT, "ZD-C5", St._check_cqb_choice, St._fight),
            _move(Kind.PERSUADE, "ZD-P1", St._check_cqb_choice, St._persuade),
        ),
        Phase.RED: (
            _move(Kind.FLIP, "ZD-C6", St._check_flip, St._flip),
            _move(Kind.PLAY, "ZD-C7", St._check_play, St._play, (CARD,), St._play_options),
        ),
    },
    phase_rules={
        Phase.PREPARE: (
            f"first record the Spook's task and whether it buys time: {PREPARE_FORM}",
            "ZD-B4",
        ),
        Phase.CHOOSE: lambda st, action: st._choose_first(action),
        Phase.MOVE: lambda st, action: st._not_automatic(action),
        Phase.BONUS: lambda st, action: st._not_automatic(action),
        Phase.TESTED: _TESTED_NOW,
        Phase.CQB: _CQB_CHOICE,
        Phase.RED: _FLIP_OR_PLAY,
    },
    order={
        Phase.MOVE: St._automatic_order,
        Phase.BONUS: St._bonus_order,
        Phase.TESTED: St._tested_order,
    },
    malformed=_words,
)  # fmt: skip
