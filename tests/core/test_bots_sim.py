"""Bots, the batch runner, its statistics, and the ``sim`` command."""

from __future__ import annotations

import dataclasses
import json
import pickle
from collections.abc import Sequence
from pathlib import Path

import pytest
import typer
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from fogofwar.bots import Bot, RandomBot, available_bots, base, make_bot, register_bot
from fogofwar.core.errors import IllegalActionError, RulesError
from fogofwar.core.game import Action, Config, Outcome, PlayerView
from fogofwar.core.rng import Stream
from fogofwar.sim import (
    GameLengthError,
    bot_seed,
    bot_stream,
    difference,
    game_seed,
    play_game,
    proportion,
    run_batch,
    summarize,
    wilson_interval,
)
from fogofwar.sim.command import parse_seats, sim_command
from tests.example_game import EXAMPLE, HIDER, SEEKER, HideAndSeek

# --------------------------------------------------------------------------- bot registry


@pytest.fixture
def isolated_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bots registered by a test vanish after it."""
    monkeypatch.setattr(base, "_BOTS", dict(base._BOTS))


def test_the_random_bot_is_registered_for_any_ruleset() -> None:
    assert "random" in available_bots()
    assert "random" in available_bots("anything")
    bot = make_bot("random", "hide-and-seek")
    assert isinstance(bot, RandomBot) and bot.name == "random"
    assert make_bot("random", "x") is not bot  # a fresh bot each time


@pytest.mark.usefixtures("isolated_bots")
def test_bot_registry_errors_list_the_known_bots() -> None:
    register_bot("so-only", RandomBot, rulesets={"specter-ops"})
    # hide-and-seek samples worlds, so the searching bot plays it too.
    assert available_bots("hide-and-seek") == ["ismcts", "random"]
    assert "so-only" in available_bots("specter-ops")
    with pytest.raises(
        RulesError, match=r"unknown bot 'nope' for hide-and-seek \(bots: ismcts, random\)"
    ):
        make_bot("nope", "hide-and-seek")
    with pytest.raises(RulesError, match="'so-only' plays only specter-ops, not hide-and-seek"):
        make_bot("so-only", "hide-and-seek")
    assert isinstance(make_bot("so-only", "specter-ops"), RandomBot)
    with pytest.raises(TypeError):
        register_bot("a:b", RandomBot)


def test_bots_by_module_reference() -> None:
    assert isinstance(make_bot("fogofwar.bots.random_bot:RandomBot", "x"), RandomBot)
    with pytest.raises(RulesError, match="cannot load bot"):
        make_bot("fogofwar.bots:NoSuchBot", "x")
    with pytest.raises(RulesError, match="not a Bot"):
        make_bot("builtins:dict", "x")


def test_random_bot_is_uniform_over_legal_actions_from_its_stream() -> None:
    legal = tuple(Action(HIDER, "bid", (n,)) for n in range(3))
    view = PlayerView("x", HIDER, {})
    picks = [RandomBot().choose(view, legal, bot_stream(1, HIDER)) for _ in range(3)]
    assert len(set(picks)) == 1  # the same stream state gives the same choice
    s = bot_stream(2, HIDER)
    counts = {a: 0 for a in legal}
    for _ in range(600):
        counts[RandomBot().choose(view, legal, s)] += 1
    assert all(150 < c < 250 for c in counts.values())


# --------------------------------------------------------------------------- what bots see


class SpyBot(Bot):
    """Plays randomly and keeps everything it was given."""

    name = "spy"

    def __init__(self) -> None:
        self.calls: list[tuple[PlayerView, Sequence[Action], Stream]] = []
        self.resets: list[tuple[str, str, Config]] = []

    def reset(self, seat: str, ruleset_id: str, config: Config) -> None:
        self.resets.append((seat, ruleset_id, config))

    def choose(self, view: PlayerView, legal: Sequence[Action], stream: Stream) -> Action:
        self.calls.append((view, legal, stream))
        return stream.choice(legal)


def test_bots_receive_only_their_view_legal_actions_and_stream() -> None:
    seed = 8675309123
    spies = {HIDER: SpyBot(), SEEKER: SpyBot()}
    result = play_game(EXAMPLE, {}, seed, spies, bot_seed=4242)
    for seat, spy in spies.items():
        assert spy.resets == [(seat, "hide-and-seek", EXAMPLE.resolve_config())]
        assert spy.calls
        streams = {id(stream) for _, _, stream in spy.calls}
        assert len(streams) == 1  # one stream of its own, for the whole game
        expected = bot_stream(4242, seat)
        for view, legal, stream in spy.calls:
            assert type(view) is PlayerView and view.seat == seat
            assert type(legal) is tuple and legal
            assert all(type(a) is Action and a.seat == seat for a in legal)
            assert type(stream) is Stream
            # Nothing a bot receives carries the game's seed.
            assert str(seed).encode() not in pickle.dumps((view, legal))
            assert str(seed) not in view.canonical()
        assert spy.calls[0][2].key == expected.key  # derived from the bot seed only
    assert result.length == sum(len(s.calls) for s in spies.values())


def test_bot_seeds_are_one_way_and_separate_from_game_seeds() -> None:
    assert game_seed(0, 0) != bot_seed(0, 0)
    assert game_seed(0, 0) != game_seed(0, 1) != game_seed(1, 0)
    assert game_seed(5, 3) == game_seed(5, 3)
    assert all(0 <= game_seed(s, i) < 2**53 for s in range(3) for i in range(5))
    assert game_seed("seed", 0) != game_seed(0, 0)
    # The bot's stream is keyed by the bot seed, never by the game seed.
    assert bot_stream(bot_seed(0, 0), HIDER).key != bot_stream(game_seed(0, 0), HIDER).key


# --------------------------------------------------------------------------- play_game


def test_play_game_is_deterministic_and_records_the_game() -> None:
    def bots() -> dict[str, Bot]:
        return {HIDER: RandomBot(), SEEKER: RandomBot()}

    a = play_game(EXAMPLE, {"cells": 7}, 12, bots(), bot_seed=34)
    b = play_game(EXAMPLE, {"cells": 7}, 12, bots(), bot_seed=34)
    assert a == b
    assert a.record is not None and len(a.record.actions) == a.length
    assert a.record.meta == {"bots": {HIDER: "random", SEEKER: "random"}}
    assert a.record.replay().outcome() == a.outcome
    assert set(a.metrics) >= {"rounds", "found"}
    assert play_game(EXAMPLE, None, 12, bots(), bot_seed=34, record=False).record is None


def test_play_game_needs_a_bot_per_seat() -> None:
    with pytest.raises(RulesError, match="missing: seeker"):
        play_game(EXAMPLE, {}, 1, {HIDER: RandomBot()}, bot_seed=1)
    with pytest.raises(RulesError, match="unknown seats: umpire"):
        play_game(
            EXAMPLE,
            {},
            1,
            {HIDER: RandomBot(), SEEKER: RandomBot(), "umpire": RandomBot()},
            bot_seed=1,
        )


class CheatBot(Bot):
    name = "cheat"

    def choose(self, view: PlayerView, legal: Sequence[Action], stream: Stream) -> Action:
        return Action(view.seat or "", "bid", (9,))


def test_an_illegal_bot_choice_raises_with_a_note() -> None:
    with pytest.raises(IllegalActionError) as info:
        play_game(EXAMPLE, {}, 1, {HIDER: CheatBot(), SEEKER: RandomBot()}, bot_seed=1)
    assert info.value.rule == "EX-1"
    assert any("bot 'cheat'" in note for note in info.value.__notes__)


def test_an_error_in_a_worker_comes_back_with_its_message() -> None:
    # The cheat is found by module reference in the worker processes.
    with pytest.raises(IllegalActionError, match=r"illegal action bid 9") as info:
        run_batch(EXAMPLE, games=4, workers=2, seats={HIDER: f"{__name__}:CheatBot"})
    notes = "\n".join(info.value.__notes__)
    assert "bot 'cheat'" in notes and "in game " in notes


class ShortGame(HideAndSeek):
    metadata = dataclasses.replace(HideAndSeek.metadata, max_length=5)


def test_a_game_longer_than_max_length_is_stopped() -> None:
    with pytest.raises(GameLengthError, match="maximum length of 5 actions"):
        play_game(ShortGame(), {}, 1, {HIDER: RandomBot(), SEEKER: RandomBot()}, bot_seed=1)


# --------------------------------------------------------------------------- batches


def test_same_seed_same_results_and_results_by_index() -> None:
    a = run_batch(EXAMPLE, games=12, seed=7, config_overrides={"cells": 7}, records=True)
    b = run_batch("hide-and-seek", games=12, seed=7, config_overrides={"cells": 7}, records=True)
    assert a == b
    c = run_batch(EXAMPLE, games=12, seed=8, config_overrides={"cells": 7})
    assert [g.outcome for g in c.games] != [g.outcome for g in a.games] or [
        g.length for g in c.games
    ] != [g.length for g in a.games]
    # Game i depends on its index alone: replaying it by hand gives the same result.
    i = 5
    alone = play_game(
        EXAMPLE,
        {"cells": 7},
        game_seed(7, i),
        {HIDER: RandomBot(), SEEKER: RandomBot()},
        bot_seed=bot_seed(7, i),
    )
    assert alone == a.games[i]
    assert a.games[i].record is not None and a.games[i].record.seed == game_seed(7, i)


def test_worker_count_does_not_change_the_results() -> None:
    # Workers find the example rule set by "tests.example_game:HideAndSeek".
    seen: list[tuple[int, int]] = []
    one = run_batch(EXAMPLE, games=24, seed=3, records=True)
    two = run_batch(
        EXAMPLE, games=24, seed=3, records=True, workers=2, progress=lambda *p: seen.append(p)
    )
    assert one.games == two.games
    assert one == two
    assert seen[-1] == (24, 24)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)


def test_batch_settings_and_statistics() -> None:
    seen: list[tuple[int, int]] = []
    result = run_batch(
        EXAMPLE, games=20, seed=1, seats={SEEKER: "random"}, progress=lambda *p: seen.append(p)
    )
    assert result.seats == {HIDER: "random", SEEKER: "random"}
    assert result.sides == {HIDER: "hiders", SEEKER: "seekers"}
    assert seen[-1] == (20, 20)
    stats = result.stats()
    wins = {side: p.successes for side, p in stats.wins.items()}
    assert list(wins) == ["hiders", "seekers"]
    assert sum(wins.values()) + stats.draws.successes == 20
    for p in stats.wins.values():
        assert p.interval == wilson_interval(p.successes, 20)
    assert stats.mean_length == sum(g.length for g in result.games) / 20
    assert stats.metrics["found"] == wins["seekers"] / 20
    data = result.to_json()
    assert data["wins"]["hiders"]["count"] == wins["hiders"]
    assert json.loads(json.dumps(data)) == data


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"seats": {"umpire": "random"}}, r"no seat 'umpire' \(seats: hider, seeker\)"),
        ({"seats": {HIDER: "nope"}}, "unknown bot 'nope'"),
        ({"config_overrides": {"cells": 2}}, "below 5"),
        ({"config_overrides": {"colour": 2}}, "unknown option"),
        ({"games": -1}, "games must be"),
        ({"workers": 0}, "workers must be"),
    ],
)
def test_batch_input_errors(kwargs: dict[str, object], match: str) -> None:
    args: dict[str, object] = {"games": 2, **kwargs}
    with pytest.raises(RulesError, match=match):
        run_batch(EXAMPLE, **args)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- statistics


def test_wilson_interval_against_hand_computed_values() -> None:
    # 7/10 by hand: p = .7, z² = 3.841459, denominator 1 + z²/n = 1.3841459,
    # centre = (.7 + .1920729) / 1.3841459 = .6444907,
    # half = 1.959964 / 1.3841459 * sqrt(.021 + .0096036) = .2477125.
    i = wilson_interval(7, 10)
    assert i.low == pytest.approx(0.3967781, abs=1e-6)
    assert i.high == pytest.approx(0.8922087, abs=1e-6)
    # Newcombe (1998), "Two-sided confidence intervals for the single proportion",
    # Table I, method 3 (score interval without continuity correction).
    for k, n, low, high in [
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ]:
        i = wilson_interval(k, n)
        assert (round(i.low, 4), round(i.high, 4)) == (low, high)


def test_wilson_interval_edges() -> None:
    assert wilson_interval(0, 0).to_json() == [0.0, 1.0]
    assert wilson_interval(0, 10).low == 0.0
    assert wilson_interval(10, 10).high == 1.0
    assert 0.5 in wilson_interval(5, 10)
    for bad in ((-1, 3), (4, 3), (0, -1)):
        with pytest.raises(ValueError):
            wilson_interval(*bad)


def test_difference_of_proportions_newcombe() -> None:
    # Newcombe (1998), "Interval estimation for the difference between independent
    # proportions", Table II, method 10 (hybrid score).
    for args, est, low, high in [
        ((56, 70, 48, 80), 0.2, 0.0524, 0.3339),
        ((9, 10, 3, 10), 0.6, 0.1705, 0.8090),
        ((5, 56, 0, 29), 0.0893, -0.0381, 0.1926),
    ]:
        d = difference(*args)
        assert d.estimate == pytest.approx(est, abs=5e-5)
        assert (round(d.interval.low, 4), round(d.interval.high, 4)) == (low, high)
        assert d.significant is (low > 0)


def test_summarize() -> None:
    win_a = Outcome(frozenset({"x"}), frozenset({"a"}), "a won")
    draw = Outcome(frozenset(), frozenset(), "draw")
    stats = summarize(
        [win_a, win_a, draw, win_a],
        [10, 20, 30, 40],
        [{"m": 1.0}, {"m": 3.0, "n": 5.0}, {}, {"m": 2.0}],
        ["a", "b"],
    )
    assert stats.games == 4
    assert stats.wins["a"] == proportion(3, 4)
    assert stats.wins["b"].successes == 0
    assert stats.draws.successes == 1
    assert stats.mean_length == 25.0
    assert stats.metrics == {"m": 2.0, "n": 5.0}  # each metric over the games that have it
    assert stats.to_json()["wins"]["a"]["ci95"] == wilson_interval(3, 4).to_json()
    with pytest.raises(ValueError):
        summarize([win_a], [], [], ["a"])


# --------------------------------------------------------------------------- the command


@pytest.fixture
def cli() -> typer.Typer:
    app = typer.Typer()
    app.command("sim")(sim_command)

    @app.command("other")
    def other() -> None:  # a second command, so "sim" is a subcommand as in fogofwar
        """Nothing."""

    return app


def test_sim_prints_a_table(cli: typer.Typer) -> None:
    res = CliRunner().invoke(cli, ["sim", "hide-and-seek", "-n", "10", "--set", "cells=7"])
    assert res.exit_code == 0, res.output
    for text in ("hiders", "seekers", "hider (random)", "95% CI", "10 games", "metrics"):
        assert text in res.stdout


def test_sim_json_has_exact_counts_and_intervals(cli: typer.Typer) -> None:
    args = ["sim", "hns", "-n", "12", "--seed", "4", "--json", "--seat", "seeker=random"]
    res = CliRunner().invoke(cli, [*args, "--set", "rounds=3"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["games"] == 12 and data["seed"] == 4 and data["config"]["rounds"] == 3
    counts = [w["count"] for w in data["wins"].values()]
    assert sum(counts) + data["draws"]["count"] == 12
    for w in data["wins"].values():
        assert w["ci95"] == wilson_interval(w["count"], 12).to_json()
    again = CliRunner().invoke(cli, [*args, "--set", "rounds=3"])
    assert again.stdout == res.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["no-such-game"], "unknown rule set 'no-such-game'"),
        (["hns", "--seat", "hider"], "--seat expects SEAT=BOT"),
        (["hns", "--seat", "umpire=random"], "no seat 'umpire'"),
        (["hns", "--seat", "hider=nope"], "unknown bot 'nope'"),
        (["hns", "--seat", "hider=random", "--seat", "hider=random"], "given twice"),
        (["hns", "--set", "cells=lots"], "expected an integer"),
        (["hns", "--set", "colour=red"], "unknown option 'colour'"),
    ],
)
def test_sim_bad_input_is_one_line_and_exit_2(
    cli: typer.Typer, args: list[str], message: str
) -> None:
    res = CliRunner().invoke(cli, ["sim", *args, "-n", "2"])
    assert res.exit_code == 2
    assert res.stderr.count("\n") == 1 and message in res.stderr
    assert res.stderr.startswith("error: ")
    assert "Traceback" not in res.output
    assert res.stdout == ""


def test_parse_seats() -> None:
    assert parse_seats(["hider=random", " seeker = x "]) == {"hider": "random", "seeker": "x"}
    with pytest.raises(RulesError):
        parse_seats(["=random"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(min_value=-1e6, max_value=1e6), min_size=1, max_size=40))
def test_spread_is_the_mean_sd_and_t_interval(values: list[float]) -> None:
    import math
    import statistics

    from fogofwar.sim.stats import Z95, spread, t_quantile, wilson_interval

    got = spread(values)
    n = len(values)
    assert got.games == n
    assert math.isclose(got.mean, statistics.fmean(values), rel_tol=1e-9, abs_tol=1e-6)
    sd = statistics.stdev(values) if n > 1 else 0.0
    assert math.isclose(got.sd, sd, rel_tol=1e-9, abs_tol=1e-6)
    if n == 1:
        assert math.isnan(got.interval.low) and math.isnan(got.interval.high)
        return
    if all(v in (0, 1) for v in values):
        # A proportion: Wilson's interval, inside [0, 1].
        assert got.interval == wilson_interval(int(sum(values)), n, Z95) and got.proportion
        return
    assert not got.proportion
    if got.sd == 0:
        # Every game the same value: no spread to estimate from, no interval.
        assert math.isnan(got.interval.low) and math.isnan(got.interval.high)
        return
    half = t_quantile(0.975, n - 1) * sd / math.sqrt(n)
    mean = statistics.fmean(values)
    assert math.isclose(got.interval.high, mean + half, rel_tol=1e-6, abs_tol=1e-6)
    if min(values) >= 0 and mean - half < 0:
        # A metric no game makes negative (a count): no negative mean in its interval.
        assert got.interval.low == 0.0
    else:
        assert math.isclose(got.interval.low, mean - half, rel_tol=1e-6, abs_tol=1e-6)
    assert got.interval.low <= got.mean <= got.interval.high


def test_a_counts_interval_stops_at_zero() -> None:
    # A table of a few games read "objectives ... -0.773 – 2.273".
    from fogofwar.sim.stats import spread

    got = spread([0, 0, 4])
    assert got.interval.low == 0.0 and got.interval.high > 4
    assert spread([-1, 0, 4]).interval.low < 0  # a metric that can be negative is not cut


def test_a_metric_declared_yes_no_or_not_takes_its_own_interval() -> None:
    # A count that happened to be 0 or 1 in every game took a proportion's interval,
    # and one that no game made took "0.000 – 0.000"; the rule set now says which
    # metrics are yes/no (Ruleset.yes_no_metrics).
    import math

    from fogofwar.sim.stats import Z95, spread, summarize, wilson_interval

    count = spread([0, 1, 1, 0], yes_no=False)
    assert not count.proportion and count.interval != wilson_interval(2, 4, Z95)
    assert count.interval.high > 1  # a count of 0 or 1 here may be 2 in another game
    nothing = spread([0, 0, 0], yes_no=False)
    assert math.isnan(nothing.interval.low) and math.isnan(nothing.interval.high)
    never = spread([0, 0, 0], yes_no=True)
    assert never.proportion and never.interval == wilson_interval(0, 3, Z95)
    assert never.interval.high > 0
    with pytest.raises(ValueError, match="0 or 1 in every game, got 2"):
        spread([0, 2], yes_no=True)
    done = Outcome(frozenset(), frozenset(), "over")
    with pytest.raises(ValueError, match="metric 'won': a yes/no metric"):
        summarize([done, done], [1, 1], [{"won": 1.0}, {"won": 3.0}], [], yes_no={"won"})


def test_a_batch_reads_its_rule_sets_yes_no_metrics() -> None:
    # Warfighter's "won" is yes/no; its counts are not, whatever values a batch gives.
    from fogofwar.core.game import get_ruleset

    assert get_ruleset("warfighter").yes_no_metrics() == frozenset({"won"})
    result = run_batch("warfighter", games=3, seed=1, seats={"squad": "wf-heuristic"})
    spreads = result.stats().spreads
    assert spreads["won"].proportion
    assert not any(sp.proportion for key, sp in spreads.items() if key != "won")
    assert json.loads(json.dumps(result.to_json()))["metric_spreads"]["won"]["proportion"]
    # Every built-in rule set's yes/no metrics are metrics its games give, yes or no.
    for name, config in (
        ("specter-ops", {"players": 5}),
        ("zero-dark", {"mission": "the-spy"}),
        ("rock-n-roll", {"rounds": 1}),
    ):
        declared = get_ruleset(name).yes_no_metrics(config)
        games = run_batch(name, games=2, seed=3, config_overrides=config).games
        assert declared and all(
            key in g.metrics and g.metrics[key] in (0, 1) for g in games for key in declared
        ), name


def test_t_quantiles_match_the_published_table() -> None:
    # Student's t, two-sided 95% (p = 0.975) and 99% (p = 0.995), from the standard
    # tables (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.2), to their 3 decimals.
    from fogofwar.sim.stats import t_quantile

    table = {
        1: (12.706, 63.657),
        2: (4.303, 9.925),
        3: (3.182, 5.841),
        4: (2.776, 4.604),
        5: (2.571, 4.032),
        7: (2.365, 3.499),
        10: (2.228, 3.169),
        20: (2.086, 2.845),
        30: (2.042, 2.750),
        60: (2.000, 2.660),
        100: (1.984, 2.626),
    }
    for df, (t975, t995) in table.items():
        assert round(t_quantile(0.975, df), 3) == t975, df
        assert round(t_quantile(0.995, df), 3) == t995, df
    # Both methods agree where they meet (the series past 300 degrees of freedom).
    assert abs(t_quantile(0.975, 300) - t_quantile(0.975, 301)) < 1e-4
    assert abs(t_quantile(0.975, 10**6) - 1.959964) < 1e-5
    with pytest.raises(ValueError):
        t_quantile(0.975, 0)


def test_sim_metrics_say_there_is_no_interval_from_one_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from fogofwar.cli import main

    assert main(["sim", "warfighter", "-n", "1", "--seat", "squad=wf-heuristic"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith(("│ won", "│ turns"))]
    assert len(rows) == 2 and all(row.rstrip(" │").endswith("—") for row in rows)
    # ... and the JSON says null, which every parser reads: Python wrote NaN, which
    # JSON has not (a browser's JSON.parse stopped at the first one).
    assert main(["sim", "warfighter", "-n", "1", "--seat", "squad=wf-heuristic", "--json"]) == 0
    text = capsys.readouterr().out

    def refuse(constant: str) -> None:
        raise ValueError(constant)

    data = json.loads(text, parse_constant=refuse)
    assert data["metric_spreads"]["turns"]["interval"] == [None, None]


def test_a_metric_left_out_is_not_averaged_in() -> None:
    # Zero Dark without a task reports no task_success (it used to report -1, which a
    # mean would have averaged in); the spread counts only the games that report it.
    result = run_batch("zero-dark", games=3, seed=2, seats={"team": "zd-team"})
    assert all("task_success" not in g.metrics for g in result.games)
    stats = result.stats()
    assert "task_success" not in stats.spreads and stats.spreads["xp"].games == 3
    tasked = run_batch(
        "zero-dark", games=2, seed=2, seats={"team": "zd-team"},
        config_overrides={"mission": "the-spy"},
    )  # fmt: skip
    assert tasked.stats().spreads["task_success"].games == 2


def test_sim_out_writes_a_line_per_game(tmp_path: Path) -> None:
    from fogofwar.cli import main
    from fogofwar.sim.runner import game_seed

    out = tmp_path / "games.jsonl"
    code = main(["sim", "specter-ops", "-n", "4", "--seed", "9", "--workers", "1",
                 "--set", "max_rounds=2", "--out", str(out), "--json"])  # fmt: skip
    assert code == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [g["game"] for g in lines] == [0, 1, 2, 3]
    assert [g["seed"] for g in lines] == [game_seed(9, i) for i in range(4)]
    assert all(g["sides"] and g["length"] > 0 and "rounds" in g["metrics"] for g in lines)
