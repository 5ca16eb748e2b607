"""The ``zd-team`` bot: legal moves from its seat's view alone, to a mission's end."""

from __future__ import annotations

import pytest

from fogofwar.bots.base import make_bot
from fogofwar.core.game import get_ruleset
from fogofwar.core.rng import stream
from fogofwar.games.zero_dark.missions import SHIPPED_MISSIONS

RS = get_ruleset("zero-dark")


@pytest.mark.parametrize("mission", SHIPPED_MISSIONS)
def test_team_bot_plays_missions_to_the_end(mission: str) -> None:
    # Every seat a zd-team bot: each choice is among the legal actions, made from the
    # seat's view only; the mission reaches its end and its report.
    config = RS.resolve_config({"mission": mission})
    state = RS.new_game(config, 5)
    bots = {}
    for seat in RS.seats(config):
        bot = make_bot("zd-team", RS.id)
        bot.reset(seat, RS.id, config)
        bots[seat] = bot
    moves = 0
    while not state.is_over and moves < 5000:
        seat = sorted(state.to_act())[0]
        legal = state.legal_actions(seat)
        action = bots[seat].choose(state.view(seat), legal, stream(5, "bot", moves))
        assert action in legal
        state.apply(action)
        moves += 1
    assert state.is_over and state.report is not None  # type: ignore[attr-defined]


def test_team_bot_decides_from_the_view_alone() -> None:
    # Bots see what a player sees: two games whose hidden ping types differ give the
    # same view, so the bot makes the same choice (FR-P4).
    a, b = RS.new_game({}, 8), RS.new_game({}, 8)
    types = list(b.ping_types.items())  # type: ignore[attr-defined]
    b.ping_types = {p: t for (p, _), (_, t) in zip(types, reversed(types), strict=True)}  # type: ignore[attr-defined]
    bot = make_bot("zd-team", RS.id)
    bot.reset("team", RS.id, a.config)
    for i in range(12):
        legal = a.legal_actions("team")
        assert legal == b.legal_actions("team")
        assert a.view("team").canonical() == b.view("team").canonical()
        choice = bot.choose(a.view("team"), legal, stream(8, "bot", i))
        assert choice == bot.choose(b.view("team"), legal, stream(8, "bot", i))
        ea, eb = a.apply(choice), b.apply(choice)
        if any(e.kind == "ping_revealed" for e in [*ea, *eb]):
            break
