"""The phase table states each rule once: its moves' checks decide ``is_legal``, the
legal list and the refusals. ``is_legal`` (a square move's bitboard, a plain move's rule,
any other move's parsed arguments and check) must say exactly what ``legal_actions``
says (SO-A1…A3, SO-A7, SO-H1, SO-H2, SO-V1, SO-V2, SO-R1, SO-T4), for every square, in
random positions; every refused probe gets a reason."""

from __future__ import annotations

import pytest

from fogofwar.core.game import Action, get_ruleset
from fogofwar.core.rng import stream
from fogofwar.games.specter_ops.characters import CARDS
from fogofwar.games.specter_ops.state import SpecterOpsState

RS = get_ruleset("specter-ops")


@pytest.mark.parametrize(
    ("players", "characters"), [(2, False), (3, True), (4, False), (5, False), (5, True)]
)
def test_the_table_agrees_with_the_legal_list(players: int, characters: bool) -> None:
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
            probes = [
                Action(seat, "stop"),
                Action(seat, "stop", ("K17",)),
                Action(seat, "end"),
                Action(seat, "end", (1,)),
                Action(seat, "drive"),
                Action(seat, "next"),
                *(Action(seat, "next", (x,)) for x in [*ids, "H9", 3]),
                Action(seat, "step", (7,)),
                *(Action(seat, k) for k in ("sensor", "sniff", "attack", "done", "reveal")),
                *(Action(seat, k, (x,)) for k in ("accuse", "attack") for x in [*ids, "A1"]),
            ]
            if state.phase in ("agent", "agent_after"):
                here = state.focus.path[-1]
                near = [state.geo.name(i) for i in state.geo.indices(state.geo.within(here, 5))]
                for card in CARDS:
                    probes.append(Action(seat, "use", (card,)))
                    probes += [Action(seat, "use", (card, x)) for x in [*near, *ids]]
            for action in probes:
                assert state.is_legal(action) == (action in legal), (state.phase, action)
                if action not in legal:
                    reason, _ = state.explain_illegal(action)
                    assert reason, action
                other = next(s for s in state.seats if s != seat)
                assert not state.is_legal(Action(other, "step", (names[0],)))
            state.apply(rng.choice(legal))
    assert checked > 10_000
