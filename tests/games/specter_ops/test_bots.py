"""The heuristic Specter Ops bots: legal, deterministic, blind to secrets, and better
than random (small fixed batches here; ``studies/specter-ops-bots.toml`` measures 100
games per pairing and player count)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from fogofwar.bots import available_bots, make_bot
from fogofwar.core.errors import RulesError
from fogofwar.core.game import Action, PlayerView, get_ruleset
from fogofwar.core.rng import Stream, stream
from fogofwar.games.specter_ops.bots import HunterBot
from fogofwar.games.specter_ops.characters import CARDS
from fogofwar.sim.runner import play_game, run_batch
from tests.games.specter_ops.helpers import games_apart_hidden

RS = get_ruleset("specter-ops")


def bots_for(players: int, agent: str, hunters: str) -> dict[str, object]:
    return {
        s: make_bot(agent if s == "agent" else hunters, RS.id)
        for s in RS.seats({"characters": False, "players": players})
    }


def test_registered_for_specter_ops_only() -> None:
    assert {"so-agent", "so-hunter"} <= set(available_bots("specter-ops"))
    with pytest.raises(RulesError, match="plays only specter-ops"):
        make_bot("so-agent", "hide-and-seek")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_whole_games_are_legal_and_repeat(players: int) -> None:
    # SO-G2, SO-G3: every choice is legal (play_game checks each action) to the end, and
    # the same seeds give the same game. With 5 players: the traitor game (SO-T2).
    config = {"characters": False, "players": players, "max_rounds": 8}
    a = play_game(RS, config, 11, bots_for(players, "so-agent", "so-hunter"), bot_seed=3)  # type: ignore[arg-type]
    b = play_game(RS, config, 11, bots_for(players, "so-agent", "so-hunter"), bot_seed=3)  # type: ignore[arg-type]
    assert a.record is not None and b.record is not None
    assert a.record.actions == b.record.actions and a.outcome == b.outcome


def test_hunter_choice_depends_on_its_view_only() -> None:
    # SO-I1: two games whose agents stand on different hidden squares give the hunter the
    # same view, so the hunter bot makes the same choice.
    a, b = games_apart_hidden()
    assert a.view("hunter1") == b.view("hunter1")
    bot = make_bot("so-hunter", RS.id)
    bot.reset("hunter1", RS.id, a.config)
    while a.to_act() == {"hunter1"} and not a.is_over:
        legal_a, legal_b = a.legal_actions("hunter1"), b.legal_actions("hunter1")
        assert legal_a == legal_b
        pick_a = bot.choose(a.view("hunter1"), legal_a, stream(5, "hunter"))
        pick_b = bot.choose(b.view("hunter1"), legal_b, stream(5, "hunter"))
        assert pick_a == pick_b
        a.apply(pick_a)
        b.apply(pick_b)
        if a.view("hunter1") != b.view("hunter1"):
            break  # the hunter found out something (a sighting): the games may part


class _Forgetful:
    """A bot whose board forgets every kept answer (balls, distance fields, step
    scores) before each choice: what it chooses is the bot's answer worked out afresh."""

    def __init__(self, name: str) -> None:
        self.bot = make_bot(name, RS.id)
        self.name = name

    def reset(self, seat: str, ruleset_id: str, config: object) -> None:
        self.bot.reset(seat, ruleset_id, config)  # type: ignore[arg-type]

    def choose(self, view: PlayerView, legal: Sequence[Action], s: Stream) -> Action:
        boards = [getattr(self.bot, "board", None), getattr(self.bot, "agent", None)]
        for board in boards:
            board = getattr(board, "board", board)
            if board is not None:
                for kept in (board._balls, board._scores, board._fields, board._parsed):
                    kept.clear()
        return self.bot.choose(view, legal, s)


@pytest.mark.parametrize("players", [3, 5])
def test_kept_answers_change_no_choice(players: int) -> None:
    # The boards keep balls, distance fields and both bots' step scores by everything
    # they read: bots that keep them and bots that work every answer out afresh make
    # the same choices in whole games (characters on, every card in play).
    config = {"players": players, "max_rounds": 10}
    seats = RS.seats(RS.resolve_config(config))
    for seed in (1, 2):
        kept = {s: make_bot("so-agent" if s == "agent" else "so-hunter", RS.id) for s in seats}
        fresh = {s: _Forgetful("so-agent" if s == "agent" else "so-hunter") for s in seats}
        a = play_game(RS, config, seed, kept, bot_seed=seed)  # type: ignore[arg-type]
        b = play_game(RS, config, seed, fresh, bot_seed=seed)  # type: ignore[arg-type]
        assert a.record is not None and b.record is not None
        assert len(a.record.actions) > 50
        assert a.record.actions == b.record.actions


def test_heuristic_agent_beats_the_random_agent() -> None:
    # SO-G2: against random hunters the heuristic agent completes objectives and escapes.
    seats = {"agent": "so-agent", "hunter1": "random"}
    smart = run_batch(
        RS, games=12, seed=21, seats=seats, config_overrides={"characters": False, "players": 2}
    )
    seats = {"agent": "random", "hunter1": "random"}
    plain = run_batch(
        RS, games=12, seed=21, seats=seats, config_overrides={"characters": False, "players": 2}
    )
    assert smart.stats().wins["agent"].successes > plain.stats().wins["agent"].successes + 3


def test_heuristic_hunters_beat_random_hunters() -> None:
    # SO-E3, SO-X*: against the heuristic agent, hunters that search the possibility map
    # win far more often than random ones.
    seats = {"agent": "so-agent", "hunter1": "so-hunter", "hunter2": "so-hunter"}
    smart = run_batch(
        RS, games=12, seed=22, seats=seats, config_overrides={"characters": False, "players": 3}
    )
    seats = {"agent": "so-agent", "hunter1": "random", "hunter2": "random"}
    plain = run_batch(
        RS, games=12, seed=22, seats=seats, config_overrides={"characters": False, "players": 3}
    )
    assert smart.stats().wins["hunters"].successes > plain.stats().wins["hunters"].successes + 3


def test_agent_uses_its_equipment_with_characters() -> None:
    # SO-A7, SO-A8: with characters the heuristic agent plays cards (a longer move, a
    # stun), legally, and the hunters pick characters too.
    seats = {"agent": "so-agent", "hunter1": "so-hunter", "hunter2": "so-hunter"}
    batch = run_batch(
        RS,
        games=4,
        seed=23,
        seats=seats,
        config_overrides={"players": 3, "characters": True, "max_rounds": 12},
    )
    assert sum(g.metrics["card_uses"] for g in batch.games) > 0


def test_agent_plays_every_card() -> None:
    # SO-A7, SO-A8: the heuristic agent plays every card the rules give it — over a few
    # games with characters each card is played at least once, and each use was legal
    # (the umpire applied it). Med Kit heals only a wounded agent, so it is not required.
    played: set[str] = set()
    for seed in range(8):
        for players in (2, 3, 4, 5):
            config = RS.resolve_config({"players": players})
            bots = {s: make_bot(RS.default_bots.get(s, "random"), RS.id) for s in RS.seats(config)}
            result = play_game(RS, config, seed, bots, bot_seed=seed)
            assert result.record is not None
            *_, last = result.record.states(RS, clone=False)
            for e in last.events:
                if e.kind in ("agent_used", "equipment"):
                    played.add(str(e.data["card"]))
    wanted = {c for c in CARDS if c != "med-kit"}
    assert wanted <= played, wanted - played


class _PuppetPicker(HunterBot):
    """``so-hunter`` that takes the Puppet when its figure picks a character."""

    def choose(self, view: PlayerView, legal: Sequence[Action], stream: Stream) -> Action:
        for a in legal:
            if a.kind == "character" and a.args[1] == "puppet":
                return a
        return super().choose(view, legal, stream)


def test_the_puppet_drives_the_vehicle_from_afar() -> None:
    # Puppet (docs/specter-ops.md, characters): instead of moving it may drive the
    # vehicle from anywhere (SO-V1's other limits hold), and so-hunter does so when the
    # vehicle carries hunters far from the possibility map. Each such drive is legal (the
    # umpire applies every action) and made by the Puppet standing on foot.
    remote = 0
    for seed in range(6):
        config = RS.resolve_config({"players": 4, "max_rounds": 20})
        bots = {s: make_bot(RS.default_bots.get(s, "random"), RS.id) for s in RS.seats(config)}
        bots["hunter1"] = _PuppetPicker()
        result = play_game(RS, config, seed, bots, bot_seed=seed)
        assert result.record is not None
        actions = result.record.actions
        for state, action in zip(result.record.states(RS, clone=False), actions, strict=False):
            if action.kind == "drive":
                h = state.hunters[state.current]  # type: ignore[attr-defined]
                if h.character == "puppet" and not h.aboard:
                    remote += 1
    assert remote > 0


def test_loyal_hunters_accuse_when_the_record_proves_it() -> None:
    # SO-T4 (R): a loyal so-hunter accuses once the public map proves the accused the
    # traitor with a concealed sighting (SO-T3), so every accusation the bots make is
    # proven, and bot-only games reach the second agent (SO-T5). The traitor never
    # accuses nor reveals itself.
    proven = second = 0
    for seed in range(8):
        config = RS.resolve_config({"players": 5})
        bots = {s: make_bot(RS.default_bots.get(s, "random"), RS.id) for s in RS.seats(config)}
        result = play_game(RS, config, seed, bots, bot_seed=seed)
        assert result.record is not None
        *_, last = result.record.states(RS, clone=False)
        for e in last.events:
            if e.kind == "accusation":
                assert e.data["proven"], e.data
                assert e.data["seat"] != last.traitor_seat  # type: ignore[attr-defined]
                proven += 1
            assert e.kind != "traitor_revealed" or e.data.get("how") != "voluntary"
        second += len(last.agents) == 2  # type: ignore[attr-defined]
    assert proven > 0 and second > 0
