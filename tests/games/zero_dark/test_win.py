"""A mission's win conditions (ZD-C8): all must hold, each reported."""

from __future__ import annotations

import pytest

from fogofwar.core.errors import RulesError
from fogofwar.core.game import get_ruleset

from .helpers import act, board, hero, surgery_game

RS = get_ruleset("zero-dark")
ROWS = ".....\n.....\n....."


def exit_game(win: str, **markers: str):  # type: ignore[no-untyped-def]
    b = board(ROWS, markers={"deployment": "E3", "exit": "A1", **markers})
    return surgery_game(b, [hero("H1", "A1"), hero("H2", "E1")], win=win)


def leave_and_fall(state) -> None:  # type: ignore[no-untyped-def]
    """H1 leaves by the exit; H2 falls (surgery: three wounds); the mission ends."""
    act(state, "activate", "H1")
    act(state, "exit")
    state._wound_character("H2", 3)  # surgery
    state._check_end()


def test_exit_and_survive_succeed_when_a_hero_leaves() -> None:
    # ZD-C8: win "exit, survive": H1 left by the exit, so not every hero is lost.
    state = exit_game("exit,survive")
    leave_and_fall(state)
    report = state.report
    assert report is not None
    assert report["conditions"]["team"] == {"exit": True, "survive": True}
    assert report["result"] == "success" and state.outcome().winners == {"team"}  # type: ignore[union-attr]


def test_objectives_fail_when_one_is_left() -> None:
    # ZD-C8 does not give success: the objective on C2 was never worked.
    state = exit_game("objectives,exit", objective="C2")
    leave_and_fall(state)
    report = state.report
    assert report is not None
    assert report["conditions"]["team"] == {"objectives": False, "exit": True}
    assert report["result"] == "failure" and "red force" in state.outcome().sides  # type: ignore[union-attr]


def test_extract_needs_the_rescued_ally_out() -> None:
    # ZD-C8 "extract": the double agent the Spook persuaded must leave by an exit.
    state = exit_game("extract")
    state.sides["team"].rescued = "A1"  # surgery: the persuaded double agent
    leave_and_fall(state)
    assert state.report is not None and state.report["conditions"]["team"] == {"extract": False}
    state2 = exit_game("extract")
    state2.sides["team"].rescued = "A1"  # surgery
    state2.exited.add("A1")  # surgery: it left by the exit
    leave_and_fall(state2)
    assert state2.report is not None and state2.report["conditions"]["team"] == {"extract": True}


def test_a_task_condition_needs_that_task() -> None:
    # ZD-C8 with a task condition: without the task (none here) it never holds, so the
    # options are refused together; the state is given the condition by surgery.
    with pytest.raises(RulesError, match="needs task=rescue"):
        exit_game("rescue")
    state = exit_game("exit")
    state.win = ("rescue",)  # surgery
    leave_and_fall(state)
    assert state.report is not None and state.report["conditions"]["team"] == {"rescue": False}


def test_unknown_condition_is_refused() -> None:
    with pytest.raises(RulesError, match="win: conditions are"):
        RS.new_game({"win": "glory"}, 0)
