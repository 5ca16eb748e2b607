"""``SpecterOpsState.is_legal`` checks steps, stops, drives, the order and the end of a
turn without the legal list; it must say exactly what ``legal_actions`` says (SO-A1…A3,
SO-H1, SO-H2, SO-V1, SO-V2), for every square, in random positions."""

from __future__ import annotations

import pytest

from fogofwar.core.game import Action, get_ruleset
from fogofwar.core.rng import stream
from fogofwar.games.specter_ops.state import SpecterOpsState

RS = get_ruleset("specter-ops")


@pytest.mark.parametrize(
    ("players", "characters"), [(2, False), (3, True), (4, False), (5, False), (5, True)]
)
def test_fast_step_check_equals_the_legal_list(players: int, characters: bool) -> None:
    checked = 0
    for seed in range(3):
        state = RS.new_game({"players": players, "characters": characters, "max_rounds": 6}, seed)
        assert isinstance(state, SpecterOpsState)
        rng = stream(seed, "fast-legal")
        names = [state.geo.name(i) for i in range(state.geo.width * state.geo.height)]
        while not state.is_over:
            (seat,) = state.to_act()
            legal = state.legal_actions(seat)
            if state.phase in ("agent", "hunter"):
                for name in [*names, "n2", "Z99", "K"]:
                    for kind in ("step", "drive"):
                        action = Action(seat, kind, (name,))
                        assert state.is_legal(action) == (action in legal), (state.phase, action)
                        checked += 1
            ids = [h.id for h in state.hunters]
            for action in (
                Action(seat, "stop"),
                Action(seat, "stop", ("K17",)),
                Action(seat, "end"),
                Action(seat, "end", (1,)),
                Action(seat, "drive"),
                Action(seat, "next"),
                *(Action(seat, "next", (x,)) for x in [*ids, "H9", 3]),
                Action(seat, "step", (7,)),
            ):
                assert state.is_legal(action) == (action in legal), (state.phase, action)
                other = next(s for s in state.seats if s != seat)
                assert not state.is_legal(Action(other, "step", (names[0],)))
            state.apply(rng.choice(legal))
    assert checked > 10_000
