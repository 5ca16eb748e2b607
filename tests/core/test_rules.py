"""Rules as phase tables (fogofwar.core.rules), on the example game: one check per rule
gives the legal list, the legality test and the refusal."""

from __future__ import annotations

from fogofwar.core.game import Action
from fogofwar.core.rules import Move, PhaseTable, int_param, word_param
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
    assert word.parse("a") == "a" and word.format("b") == "b"
