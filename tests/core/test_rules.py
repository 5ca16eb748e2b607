"""Rules as phase tables (fogofwar.core.rules), on the example game: one check per rule
gives the legal list, the legality test and the refusal."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

import pytest

from fogofwar.core.game import Action, Event
from fogofwar.core.rules import (
    Move,
    Param,
    PhaseTable,
    Refusal,
    flag_param,
    int_param,
    word_param,
)
from tests.example_game import BID, EXAMPLE, HIDER, SEEKER, HideAndSeekState


def new() -> HideAndSeekState:
    state = EXAMPLE.new_game({}, 3)
    assert isinstance(state, HideAndSeekState)
    return state


def test_the_legal_list_is_the_options_that_pass_the_check() -> None:
    # EX-1: a seat with 1 energy bids 0 or 1 only; the check states it once.
    state = new()
    state.energy[HIDER] = 1
    assert [a.args for a in state.legal_actions(HIDER)] == [(0,), (1,)]
    assert state.is_legal(Action(HIDER, "bid", (1,)))
    assert not state.is_legal(Action(HIDER, "bid", (2,)))
    assert state.explain_illegal(Action(HIDER, "bid", (2,))) == (
        "hider has only 1 energy left",
        "EX-1",
    )


def test_a_kind_the_phase_does_not_allow_names_the_phase_rule() -> None:
    state = new()
    assert state.phase is BID
    assert state.explain_illegal(Action(SEEKER, "step", (1,))) == (
        "each round starts with a secret bid",
        "EX-1",
    )


def test_arguments_that_do_not_parse_say_what_the_move_takes() -> None:
    state = new()
    assert state.explain_illegal(Action(HIDER, "bid", ("two",))) == ("a bid is 0, 1 or 2", "EX-1")
    assert not state.is_legal(Action(HIDER, "bid", ("1",)))  # a word is not a number


def test_an_incomplete_check_is_backed_by_the_options() -> None:
    # Without `complete`, is_legal also asks the options (a check that refuses less).
    table = PhaseTable(
        phase=lambda s: s.phase,
        moves={
            BID: [
                Move(
                    "bid",
                    "EX-1",
                    lambda s, seat, args: None,
                    lambda s, seat, args: None,
                    (int_param("amount"),),
                    lambda s, seat: [(0,), (1,)],
                )
            ]
        },
    )
    state = new()
    assert table.is_legal(state, Action(HIDER, "bid", (1,)))
    assert not table.is_legal(state, Action(HIDER, "bid", (2,)))
    assert table.explain(state, Action(HIDER, "bid", (2,)))[1] == "EX-1"
    word = word_param("card", ["a", "b"])
    assert word.parse(None, "a") == "a" and word.format is None


# ---------------------------------------------------------------- the table's options
# A toy table, apart from any game: the parts a rule set may add to the core's.


class Stage(Enum):
    AIM = "aim"
    WAIT = "wait"


@dataclass
class Toy:
    stage: Stage = Stage.AIM
    done: list[tuple[object, ...]] = field(default_factory=list)
    targets: tuple[str, ...] = ("T1", "T2")


def _target(state: Toy, wire: object) -> str | None:
    # Resolved against the state: an id that names nothing is None, refused by the check.
    return wire if isinstance(wire, str) and wire in state.targets else None


TARGET = Param("target", _target)


def _check_fire(state: Toy, seat: str, args: tuple[object, ...]) -> Refusal | None:
    if args[0] is None:
        return "no such target", "TOY-2"
    return None


def _fire(state: Toy, seat: str, args: tuple[object, ...]) -> None:
    state.done.append(args)


FIRE: Move[Any] = Move(
    "fire",
    "TOY-1",
    _check_fire,
    _fire,
    (TARGET, flag_param("twice")),
    lambda s, seat: [(t, twice) for t in s.targets for twice in (False, True)],
    complete=True,
    takes="fire TARGET [twice]",
)
SHOUT: Move[Any] = Move(
    "shout",
    "TOY-3",
    lambda s, seat, args: None,
    _fire,
    (word_param("word", ["hey", "ho"], optional=True),),
    lambda s, seat: [(), ("hey",)],
)


def toy_table(**options: Any) -> PhaseTable[Any]:
    return PhaseTable(
        phase=lambda s: s.stage,
        moves={Stage.AIM: [FIRE, SHOUT], Stage.WAIT: []},
        **options,
    )


def test_optional_arguments_with_a_default_are_left_out_of_the_wire() -> None:
    table, toy = toy_table(), Toy()
    # TOY-1: the flag's default (False) is left out of the action; True is its word.
    legal = [a.args for a in table.legal_actions(toy, "p")]
    assert legal[:4] == [("T1",), ("T1", "twice"), ("T2",), ("T2", "twice")]
    assert FIRE.parse(toy, Action("p", "fire", ("T2",))) == ("T2", False)
    assert FIRE.parse(toy, Action("p", "fire", ("T2", "twice"))) == ("T2", True)
    assert FIRE.parse(toy, Action("p", "fire", ("T2", "thrice"))) is None
    assert FIRE.parse(toy, Action("p", "fire", ())) is None
    table.apply(toy, Action("p", "fire", ("T1", "twice")))
    assert toy.done == [("T1", True)]


def test_optional_arguments_without_a_default_leave_the_typed_arguments_shorter() -> None:
    table, toy = toy_table(), Toy()
    assert SHOUT.parse(toy, Action("p", "shout", ())) == ()
    assert SHOUT.parse(toy, Action("p", "shout", ("ho",))) == ("ho",)
    # TOY-3: not complete, so the options decide: "ho" parses but is not offered.
    assert table.is_legal(toy, Action("p", "shout", ("hey",)))
    assert not table.is_legal(toy, Action("p", "shout", ("ho",)))
    reason, rule = table.explain(toy, Action("p", "shout", ("ho",)))
    assert reason.endswith("is not among the choices now") and rule == "TOY-3"


def test_a_value_that_names_nothing_is_refused_by_the_check() -> None:
    table, toy = toy_table(), Toy()
    # TOY-2: "T9" parses (to None) and the check names the rule it breaks.
    assert not table.is_legal(toy, Action("p", "fire", ("T9",)))
    assert table.explain(toy, Action("p", "fire", ("T9",))) == ("no such target", "TOY-2")


def test_malformed_arguments_say_what_the_move_takes_or_ask_the_game() -> None:
    toy = Toy()
    bad = Action("p", "fire", ("T1", 3))
    assert toy_table().explain(toy, bad) == ("fire TARGET [twice]", "TOY-1")
    table = toy_table(malformed=lambda s, a: (f"{a.kind}: bad words", "TOY-9"))
    assert table.explain(toy, bad) == ("fire: bad words", "TOY-9")


def test_phase_rules_fixed_or_from_the_state_and_the_notation_first() -> None:
    toy = Toy(stage=Stage.WAIT)
    fire = Action("p", "fire", ("T1",))
    # By default: the kinds the phase allows (none here).
    assert toy_table().explain(toy, fire) == ("fire is not a move now (now: nothing)", None)
    fixed = toy_table(phase_rules={Stage.WAIT: ("wait for the signal", "TOY-4")})
    assert fixed.explain(toy, fire) == ("wait for the signal", "TOY-4")
    made = toy_table(
        phase_rules={Stage.WAIT: lambda s, a: (f"no {a.kind} while {s.stage.value}", "TOY-4")}
    )
    assert made.explain(toy, fire) == ("no fire while wait", "TOY-4")
    # The notation is asked before the arguments are parsed (a phase's own rule first).
    noted = toy_table(
        notation=lambda s, a: ("fire is written fire TARGET", "TOY-1") if not a.args else None
    )
    assert noted.explain(Toy(), Action("p", "fire", ())) == ("fire is written fire TARGET", "TOY-1")


def test_an_order_across_kinds_gives_the_legal_list() -> None:
    def order(state: Toy, seat: str) -> list[tuple[str, tuple[object, ...]]]:
        return [("shout", ()), ("fire", ("T2", False)), ("fire", (None, False))]

    table = toy_table(order={Stage.AIM: order})
    # The candidates in the game's order, those the check refuses left out (TOY-2).
    assert [str(a) for a in table.legal_actions(Toy(), "p")] == [
        str(Action("p", "shout")),
        str(Action("p", "fire", ("T2",))),
    ]


def test_optional_parameters_come_last() -> None:
    with pytest.raises(ValueError, match="optional parameters come last"):
        Move("x", "TOY-1", _check_fire, _fire, (word_param("a", optional=True), TARGET))


def _play_move(options: Any = None) -> Move[Any]:
    """A move whose typed argument is a list (unhashable), written as its one word."""
    return Move(
        "play",
        "TOY-5",
        lambda s, seat, args: None,
        _fire,
        (Param("card", lambda s, w: [w], format=lambda v: v[0]),),
        options,
    )


def test_unhashable_candidates_are_compared_one_by_one() -> None:
    cards = [["a"], ["b"]]
    move = _play_move(lambda s, seat: [(c,) for c in cards])
    table = PhaseTable(phase=lambda s: s.stage, moves={Stage.AIM: [move]})
    assert table.is_legal(Toy(), Action("p", "play", ("a",)))
    assert not table.is_legal(Toy(), Action("p", "play", ("c",)))
    assert [a.args for a in table.legal_actions(Toy(), "p")] == [("a",), ("b",)]


def test_an_action_is_made_once_and_shared_per_seat_and_arguments() -> None:
    table, toy = toy_table(), Toy()
    first = table.legal_actions(toy, "p")
    again = table.legal_actions(toy, "p")
    # Equal actions, and the very same objects: the legal list does not remake them.
    assert first == again
    assert all(a is b for a, b in zip(first, again, strict=True))
    # Another seat gets its own actions, never one made for "p".
    other = table.legal_actions(toy, "q")
    assert [a.args for a in other] == [a.args for a in first]
    assert all(a.seat == "q" for a in other)
    # The wire form is kept: the shared action of ("T1", True) is still "fire T1 twice".
    assert FIRE.action("p", ("T1", True)) == Action("p", "fire", ("T1", "twice"))
    assert FIRE.action("p", ("T1", False)) == Action("p", "fire", ("T1",))


def test_unhashable_arguments_still_make_their_action() -> None:
    move = _play_move()
    made = move.action("p", (["a"],))
    assert made == Action("p", "play", ("a",))
    assert move.action("p", (["a"],)) == made


def test_a_kept_action_never_lets_a_wrong_argument_through() -> None:
    # True, 1.0 and numpy's ints hash and compare equal to 1: a kept "pour 1" must not
    # answer for them; Action refuses them, whatever was made before.
    move: Move[Any] = Move("pour", "TOY-6", lambda s, seat, args: None, _fire, (int_param("n"),))
    assert move.action("p", (1,)) == Action("p", "pour", (1,))
    for wrong in (True, 1.0):
        with pytest.raises(TypeError, match="ints or strings"):
            move.action("p", (wrong,))


def test_a_states_last_legal_list_is_forgotten_and_never_copied() -> None:
    # TableState answers is_legal for an action of the list it last handed out: the list
    # must not outlive the position (an apply of the game's own, a list made during an
    # apply) nor travel with a copy or a pickle.
    import copy
    import pickle

    from tests.example_game import HideAndSeek

    rs = HideAndSeek()
    state = rs.new_game({}, 3)
    listed = state.legal_actions("hider")
    assert state.is_legal(listed[0])
    for other in (state.clone(), copy.copy(state), copy.deepcopy(state)):
        assert getattr(other, "_legal", None) is None
    assert getattr(pickle.loads(pickle.dumps(state)), "_legal", None) is None

    class Listing(type(state)):  # type: ignore[misc]
        def apply_unchecked(self, action: Action) -> list[Event]:
            events: list[Event] = super().apply_unchecked(action)
            for seat in sorted(self.to_act()):
                self.legal_actions(seat)  # a list made at the end of its own apply
            return events

    mine = Listing.__new__(Listing)
    mine.__dict__.update(state.clone().__dict__)
    mine.apply(listed[0])
    assert getattr(mine, "_legal", None) is None
