"""Helpers shared by the Specter Ops rule tests: squares, figures, actions, and the
"surgery" that sets public fields of a position directly (each caller says so)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from fogofwar.core.game import Action, Event
from fogofwar.games.specter_ops.state import Hunter, SpecterOpsState

# The small test boards (markers repeat sites, so hidden-site worlds stay few).
BOARDS = Path(__file__).parent / "boards"
SMALL = str(BOARDS / "small.board")
TIGHT = str(BOARDS / "tight.board")
PILLARS = str(BOARDS / "pillars.board")


def at(state: SpecterOpsState, name: str) -> int:
    return state.geo.parse(name)


def name_of(state: SpecterOpsState, index: int) -> str:
    return state.geo.name(index)


def hunter(state: SpecterOpsState, hid: str) -> Hunter:
    return next(h for h in state.hunters if h.id == hid)


def play(state: SpecterOpsState, seat: str, kind: str, *args: str) -> list[Event]:
    return state.apply(Action(seat, kind, tuple(args)))


def of_kind(events: Iterable[Event], kind: str) -> list[dict[str, Any]]:
    return [dict(e.data) for e in events if e.kind == kind]


def place_hunter(state: SpecterOpsState, hid: str, square: str, *, aboard: bool = False) -> None:
    # Surgery: a hunter figure's square (public); aboard only on the vehicle's square.
    h = hunter(state, hid)
    h.square = at(state, square)
    h.aboard = aboard
    assert not aboard or h.square == state.vehicle


def place_vehicle(state: SpecterOpsState, square: str) -> None:
    # Surgery: the vehicle and every hunter aboard it move together.
    state.vehicle = at(state, square)
    for h in state.hunters:
        if h.aboard:
            h.square = state.vehicle


def start_turn(state: SpecterOpsState, hid: str) -> str:
    """Choose ``hid`` to act next (if a choice is needed); return its seat."""
    if state.phase == "order":
        play(state, "hunter1", "next", hid)
    assert state.phase == "hunter" and state.current is not None
    assert state.hunters[state.current].id == hid
    return hunter(state, hid).seat


def finish_round(state: SpecterOpsState) -> list[Event]:
    """Every remaining hunter stops where it is (no attack) until the agent's turn."""
    events: list[Event] = []
    while state.phase not in ("agent", "over"):
        seat = next(iter(state.to_act()))
        if state.phase == "order":
            events += play(state, seat, "next", str(state.legal_actions(seat)[0].args[0]))
        elif state.phase == "hunter":
            events += play(state, seat, "stop")
        else:
            events += play(state, seat, "end")
    return events


def games_apart_hidden() -> tuple[SpecterOpsState, SpecterOpsState]:
    """Two 2-player games alike but for the agent's hidden first move (to M2 or to O2,
    both unseen): every hunter's view is the same in both (SO-I1)."""
    from fogofwar.core.game import get_ruleset

    a = get_ruleset("specter-ops").new_game({"characters": False, "players": 2}, 1)
    assert isinstance(a, SpecterOpsState)
    b = a.clone()
    for state, square in ((a, "M2"), (b, "O2")):
        state.apply(Action("agent", "step", (square,)))
        state.apply(Action("agent", "stop"))
    return a, b
