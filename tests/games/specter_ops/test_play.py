"""Whole games of Specter Ops: random play with invariants, records, notation, options, CLI.

Random play checks, after every action, what must hold in every reachable state (the
possibility map holds the true square, SO-I2; nobody stands where it may not; health
never rises; the round limit; the protocol's to-act and legal-action agreement; the
action encoding). Finished games are recorded and replayed exactly.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from fogofwar.bots import Bot
from fogofwar.cli import main
from fogofwar.core.errors import IllegalActionError, InvalidNotationError, RulesError
from fogofwar.core.game import Action, PlayerView, State, get_ruleset
from fogofwar.core.record import Record, Recorder
from fogofwar.core.rng import Stream, stream
from fogofwar.games.specter_ops.state import DRIVE, MOVE, SpecterOpsState
from fogofwar.sim.runner import play_game

RS = get_ruleset("specter-ops")
SIDES = {"agent", "hunters"}


def new(players: int = 3, seed: int = 0, **options: Any) -> SpecterOpsState:
    state = RS.new_game({"characters": False, "players": players, **options}, seed)
    assert isinstance(state, SpecterOpsState)
    return state


# ====================================================================== invariants


class Checker:
    """Invariants of every reachable state, with what must not change between states."""

    def __init__(self, state: SpecterOpsState) -> None:
        self.encoding = RS.encoding(state.config)
        self.health = state.focus.health
        self.round = state.round
        self.done = sum(state.done)

    def check(self, state: SpecterOpsState, events: Sequence[Any] = ()) -> None:
        geo = state.geo
        # SO-I2: the possibility map always holds the true square.
        assert state.focus.knowledge.squares >> state.focus.square & 1, "SO-I2: true square lost"
        # SO-A1: the agent never stands on blocking terrain (nor does its path).
        assert all(geo.passable >> s & 1 for s in state.focus.path)
        assert len(state.focus.path) - 1 <= MOVE
        # SO-A3: a finished move never ends on the vehicle or a hunter, unless the agent
        # could not move at all (0 steps).
        foot = {h.square for h in state.hunters if not h.aboard}
        if any(e.kind == "agent_moved" for e in events) and not state.is_over:
            here = state.focus.square
            assert state.focus.last_steps == 0 or (here != state.vehicle and here not in foot)
        # SO-H1: hunters never end a move on each other (the one moving may pass over).
        settled = [
            h.square
            for k, h in enumerate(state.hunters)
            if not h.aboard and (k != state.current or state.phase == "attack")
        ]
        assert len(settled) == len(set(settled)), "hunters share a square"
        # SO-S2, SO-V1: the vehicle is on the road; everyone aboard is on its square.
        assert geo.road >> state.vehicle & 1
        assert all(h.square == state.vehicle for h in state.hunters if h.aboard)
        assert all(geo.passable >> h.square & 1 for h in state.hunters)
        assert state.drove <= DRIVE
        # SO-A9, SO-E3: health never rises; objectives are never undone.
        assert 0 <= state.focus.health <= self.health
        assert sum(state.done) >= self.done
        self.health, self.done = state.focus.health, sum(state.done)
        # SO-G3, SO-R2: rounds only go up, to the limit.
        assert self.round <= state.round <= state.max_rounds
        self.round = state.round
        # Protocol: exactly the seats in to_act have legal actions.
        to_act = state.to_act()
        assert bool(to_act) != state.is_over
        for seat in state.seats:
            legal = state.legal_actions(seat)
            assert bool(legal) == (seat in to_act), (seat, to_act, state.phase)
            # The encoding round-trips every legal action and the mask matches.
            mask = self.encoding.legal_mask(state, seat)
            assert int(mask.sum()) == len(legal) == len(set(legal))
            for action in legal:
                index = self.encoding.encode(action)
                assert mask[index]
                assert self.encoding.decode(index, seat) == action
        if state.is_over:
            outcome = state.outcome()
            assert outcome is not None and outcome.sides <= SIDES and len(outcome.sides) == 1
            assert outcome.rule in ("SO-E1", "SO-E3", "SO-G3")


def random_game(
    players: int,
    seed: int,
    *,
    max_rounds: int = 40,
    check: bool = True,
    aggressive: bool = True,
) -> tuple[SpecterOpsState, Recorder]:
    recorder = Recorder(
        RS, {"characters": False, "players": players, "max_rounds": max_rounds}, seed
    )
    state = recorder.state
    assert isinstance(state, SpecterOpsState)
    rng = stream(seed, "test-play", players)
    checker = Checker(state)
    if check:
        checker.check(state)
    while not state.is_over:
        (seat,) = state.to_act()
        legal = state.legal_actions(seat)
        # Aggressive hunters attack whenever they can, so games also end by elimination.
        attack = [a for a in legal if a.kind == "attack" and aggressive]
        events = recorder.apply(attack[0] if attack else rng.choice(legal))
        if check:
            checker.check(state, events)
    return state, recorder


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_play_invariants(players: int) -> None:
    # SO-I2, SO-A1, SO-A3, SO-H1, SO-V1, SO-A9, SO-G3, SO-R2 in every reachable state.
    # As many seeds as fit in a few seconds; half the games with aggressive hunters.
    seeds = {2: range(40), 3: range(40), 4: range(16)}[players]
    endings: set[str] = set()
    for seed in seeds:
        state, _ = random_game(players, seed, aggressive=seed % 2 == 0)
        endings.add(state.end_reason)
        metrics = RS.metrics(state)
        assert metrics["rounds"] == state.round
    assert endings <= {"escaped", "eliminated", "time"}
    if players < 4:  # (6 health against random hunters: rarely eliminated in 4p)
        assert {"eliminated", "time"} <= endings


def test_random_play_many_short_games() -> None:
    # SO-I2 and the protocol over many short games (every player count, 6 rounds).
    for seed in range(30):
        players = 2 + seed % 3
        random_game(players, 1000 + seed, max_rounds=6)


# ====================================================================== records


def views(state: State) -> list[str]:
    seats = (*RS.seats(state.config), None)
    return [state.view(seat).canonical() for seat in seats]


@pytest.mark.parametrize(("players", "seed"), [(2, 7), (3, 8), (4, 9)])
def test_records_replay_exactly(players: int, seed: int) -> None:
    # A finished game's record replays to the same views, step by step, and outcome.
    state, recorder = random_game(players, seed, max_rounds=10, check=False)
    record = recorder.record()
    assert record.outcome == state.outcome() and record.outcome is not None
    # The record survives its text form.
    again = Record.loads(record.dumps())
    assert again == record
    # Replaying yields the same view for every seat after every action.
    originals: list[list[str]] = []
    live = RS.new_game(record.config, record.seed)
    assert isinstance(live, SpecterOpsState)
    originals.append(views(live))
    for action in record.actions:
        live.apply(action)
        originals.append(views(live))
    replayed = [views(s) for s in again.states(clone=False)]
    assert replayed == originals
    final = again.replay()
    assert final.outcome() == state.outcome()
    assert views(final) == views(state)
    assert RS.metrics(final) == RS.metrics(state)


def test_record_with_a_wrong_outcome_is_refused() -> None:
    # Records: a replay that does not reach the recorded outcome is an error.
    _, recorder = random_game(2, 3, max_rounds=2, check=False)
    record = recorder.record()
    data = record.to_json()
    data["outcome"] = {
        "winners": ["agent"],
        "sides": ["agent"],
        "reason": "made up",
        "rule": "SO-E1",
    }
    forged = Record.from_json(data)
    with pytest.raises(RulesError, match="made up"):
        forged.replay()


# ====================================================================== notation


def test_notation_move_expands_to_steps_and_stop() -> None:
    # Notation: `move N1 N2 N3` names the start square too and adds the stop.
    state = new()
    actions = RS.parse_actions("move N1 N2 N3", "agent", state)
    assert actions == [
        Action("agent", "step", ("N2",)),
        Action("agent", "step", ("N3",)),
        Action("agent", "stop"),
    ]
    assert RS.parse_actions("move N2 N3", "agent", state) == actions  # start optional
    assert RS.parse_actions("MOVE n2 n3", "agent", state) == actions
    # A 4-step move ends by itself: no stop.
    four = RS.parse_actions("move N2 N3 N4 N5", "agent", state)
    assert [a.kind for a in four] == ["step"] * 4
    # Parsing changes nothing; the expansion plays.
    before = views(state)
    for action in actions:
        state.apply(action)
    assert views(state) != before and state.phase == "order"


def test_notation_other_forms() -> None:
    # Notation: step, stop, sensor, attack, end (and `pass`), next, order, drive.
    state = new()
    assert RS.parse_actions("step N2", "agent", state) == [Action("agent", "step", ("N2",))]
    assert RS.parse_actions("stop", "agent", state) == [Action("agent", "stop")]
    assert RS.parse_actions("pass", "hunter1", state) == [Action("hunter1", "end")]
    assert RS.parse_actions("sensor", "hunter1", state) == [Action("hunter1", "sensor")]
    assert RS.parse_actions("attack", "hunter1", state) == [Action("hunter1", "attack")]
    state.apply(Action("agent", "stop"))
    # `order H2` is the hunters' choice of the next figure.
    assert RS.parse_actions("order H2", "hunter1", state) == [Action("hunter1", "next", ("H2",))]
    assert RS.parse_actions("next h2", "hunter1", state) == [Action("hunter1", "next", ("H2",))]
    state.apply(Action("hunter1", "next", ("H1",)))
    drive = RS.parse_actions("drive K18 K19", "hunter1", state)
    assert drive == [
        Action("hunter1", "drive", ("K18",)),
        Action("hunter1", "drive", ("K19",)),
        Action("hunter1", "stop"),
    ]
    for action in drive:
        state.apply(action)
    assert state.vehicle == state.geo.parse("K19")


@pytest.mark.parametrize(
    "text",
    ["", "fly N2", "step", "move", "stop now", "attack K3", "next", "step Z99", "move N1 N33"],
)
def test_bad_notation_raises(text: str) -> None:
    # Notation: bad text is an InvalidNotationError and changes nothing.
    state = new()
    before = views(state)
    with pytest.raises(InvalidNotationError):
        RS.parse_actions(text, "agent", state)
    assert views(state) == before


@pytest.mark.parametrize(
    ("text", "column", "says"),
    [
        ("step A1 Z99", 9, "off the board"),  # it said 'Z99' at column 1
        ("move  N1 q", 11, "expected a row number"),  # just after the "q"
        ("fly N2", 1, "expected step, move"),
        ("fly N2", 1, "attack, use, end"),  # every verb the buttons write, cards too
        ("stop now", 6, "takes no squares"),
    ],
)
def test_notation_errors_quote_the_line_and_its_column(text: str, column: int, says: str) -> None:
    # Notation: as in every rule set, the whole line is quoted and the column points
    # into it, not into the one word that failed.
    with pytest.raises(InvalidNotationError) as info:
        RS.parse_actions(text, "agent", new())
    assert info.value.text == text and says in info.value.reason
    assert str(info.value).startswith(f"invalid notation {text!r} at column {column}: ")


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("move N1 N3", "SO-A1"),  # not a neighbour
        ("move N1 M1 L1", "SO-A1"),  # a structure
        ("move M2 L2 K3 L4", "SO-A2"),  # squeezing between L3 and K4
    ],
)
def test_illegal_move_in_notation(text: str, rule: str) -> None:
    # Notation: an illegal step in a move raises IllegalActionError with its rule and
    # changes nothing.
    state = new()
    before = views(state)
    with pytest.raises(IllegalActionError) as info:
        RS.parse_actions(text, "agent", state)
    assert info.value.rule == rule
    assert views(state) == before


def test_illegal_stop_in_notation() -> None:
    # Notation, SO-A3: a move ending on the vehicle fails on its stop.
    state = new()
    state.vehicle = state.geo.parse("N3")  # surgery: the vehicle (both hunters) on N3
    for h in state.hunters:
        h.square = state.vehicle
    with pytest.raises(IllegalActionError) as info:
        RS.parse_actions("move N1 N2 N3", "agent", state)
    assert info.value.rule == "SO-A3"


def test_notation_move_longer_than_allowed_is_refused() -> None:
    # SO-A1, notation: `move` with 5 steps is refused when parsed.
    state = new()
    with pytest.raises((IllegalActionError, InvalidNotationError)):
        RS.parse_actions("move N1 N2 N3 N4 N5 N6", "agent", state)


def test_notation_order_is_one_figure_at_a_time() -> None:
    # SO-R1, notation: `order H2` is `next H2`; a whole order is refused with the reason
    # (the hunters choose the next figure after seeing what the last one did).
    state = new()
    state.apply(Action("agent", "stop"))
    assert RS.parse_actions("order H2", "hunter1", state) == [Action("hunter1", "next", ("H2",))]
    state.apply(RS.parse_actions("order h2", "hunter1", state)[0])
    assert state.hunters[state.current].id == "H2"
    with pytest.raises(InvalidNotationError, match="one figure at a time"):
        RS.parse_actions("order H2 H1", "hunter1", new())


# ====================================================================== options


def test_config_players() -> None:
    # SO-G4: 2-5 players, 5 with or without the traitor (SO-G1); others refused.
    assert RS.config_schema.option("players").default == 3
    for players in (2, 3, 4):
        assert len(new(players).seats) == players
    assert len(RS.new_game({"characters": False, "players": 5, "traitor": False}, 0).seats) == 5
    five = RS.new_game({"characters": False, "players": 5}, 0)
    assert len(five.seats) == 5
    assert five.phase == "deal"  # type: ignore[attr-defined]  # SO-T2: the agent deals
    for bad in (1, 6):
        with pytest.raises(RulesError):
            RS.new_game({"characters": False, "players": bad}, 0)


def test_config_unknown_and_bad_options() -> None:
    # Options: unknown names and bad values are refused, naming the option.
    with pytest.raises(RulesError, match="colour"):
        RS.new_game({"colour": "red"}, 0)
    with pytest.raises(RulesError, match="max_rounds"):
        RS.resolve_config({"max_rounds": 201})
    with pytest.raises(RulesError):
        RS.resolve_config({"equipment_per_turn": 3})
    with pytest.raises(RulesError):
        RS.config_schema.parse_sets(["nonsense=1"])
    sets = RS.config_schema.parse_sets(["players=4", "traitor=off", "max_rounds=12"])
    assert sets == {"players": 4, "traitor": False, "max_rounds": 12}
    assert new(**{k: v for k, v in sets.items() if k != "players"}).max_rounds == 12


def test_metadata_and_seats() -> None:
    # SO-G1, SO-S1: seats and sides as the protocol publishes them.
    meta = RS.metadata
    assert meta.min_players == 2 and meta.max_players == 5
    assert meta.information == "imperfect" and meta.chance == "sampled"
    assert RS.seats({"characters": False, "players": 4}) == (
        "agent",
        "hunter1",
        "hunter2",
        "hunter3",
    )
    assert get_ruleset("so") is RS and get_ruleset("specterops") is RS


# ====================================================================== metrics, sim, CLI


def test_metrics() -> None:
    # Metrics: winner, rounds, objectives, how it ended and where.
    state, _ = random_game(3, 5, max_rounds=3, check=False)
    metrics = RS.metrics(state)
    assert set(metrics) >= {
        "agent_won",
        "rounds",
        "objectives",
        "escaped",
        "eliminated",
        "time_out",
        "agent_health",
        "end_row",
        "end_col",
    }
    assert metrics["rounds"] == state.round
    assert metrics["objectives"] == sum(state.done)
    assert metrics["escaped"] + metrics["eliminated"] + metrics["time_out"] == 1.0
    where = state.geo.square(state.focus.square)
    assert (metrics["end_row"], metrics["end_col"]) == (where.row + 1, where.col + 1)
    assert metrics["agent_won"] == metrics["escaped"]
    assert RS.metrics(new())["time_out"] == 0.0


def test_sim_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    # `fogofwar sim specter-ops --set players=3 -n 4 --json` reports the two sides.
    code = main(["sim", "specter-ops", "--set", "players=3", "-n", "4", "--json"])
    out = capsys.readouterr().out
    assert code == 0
    data = json.loads(out)
    assert data["ruleset"] == "specter-ops" and data["games"] == 4
    assert data["config"]["players"] == 3
    assert {s["side"] for s in data["seats"].values()} == SIDES
    assert set(data["wins"]) == SIDES
    assert sum(w["count"] for w in data["wins"].values()) + data["draws"]["count"] == 4
    assert "rounds" in data["metrics"]


def test_sim_cli_bad_option(capsys: pytest.CaptureFixture[str]) -> None:
    # Bad input to `sim` is one error line and exit status 2.
    code = main(["sim", "specter-ops", "--set", "players=9", "-n", "1", "--json"])
    err = capsys.readouterr().err
    assert code == 2 and "players" in err


class Driver(Bot):
    """The agent never moves; every hunter drives the vehicle 10 squares when it can."""

    name = "driver"

    def choose(self, view: PlayerView, legal: Sequence[Action], stream: Stream) -> Action:
        for kind in ("drive", "stop", "end", "next"):
            for action in legal:
                if action.kind == kind:
                    return action
        return legal[0]


def test_play_game_with_bots() -> None:
    # The runner plays whole games through the protocol (default round limit).
    cfg = {"characters": False, "players": 2}
    bots = {seat: Driver() for seat in RS.seats(cfg)}
    result = play_game(RS, cfg, 5, bots, bot_seed=1)
    assert result.outcome.rule == "SO-G3" and result.metrics["rounds"] == 40
    assert result.record is not None and result.record.replay().outcome() == result.outcome


def test_max_length_covers_the_round_limit() -> None:
    # SO-R2: every legal game fits in metadata.max_length, whatever max_rounds.
    cfg = {"characters": False, "players": 2, "max_rounds": 200}
    bots = {seat: Driver() for seat in RS.seats(cfg)}
    result = play_game(RS, cfg, 5, bots, bot_seed=1)
    assert result.outcome.rule == "SO-G3"


def test_encoding_is_fixed_per_board() -> None:
    # Encoding: one index per (kind, square) etc., the same size for every player count.
    sizes = {RS.encoding({"characters": False, "players": p}).size for p in (2, 3, 4, 5)}
    geo = new().geo
    squares = geo.width * geo.height
    # step and drive per square; next per figure; stop, sensor, attack, end, sniff, done;
    # character per (figure, hunter character) and per agent character; card per card;
    # use: flash bang, smoke grenade and holo decoy per square, venom dart per figure,
    # and the four cards without a target; the traitor game's deal and accusation per
    # figure, reveal, and an attack on each of two agents (SO-T2, SO-T4, SO-T5).
    traitor = 4 + 4 + 1 + 2
    assert sizes == {2 * squares + 4 + 6 + 16 + 4 + 8 + 3 * squares + 4 + 4 + traitor}
    state = new(4)
    mask = RS.encoding(state.config).legal_mask(state, "hunter2")
    assert isinstance(mask, np.ndarray) and not mask.any()
