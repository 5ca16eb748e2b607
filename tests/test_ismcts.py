"""``ismcts``: information-set MCTS over ``sample_world``, for any rule set that samples
worlds (here the example rule set, hide and seek, and the built-in ones that do)."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest

import tests.example_game  # noqa: F401  (registers hide-and-seek)
from fogofwar.bots import IsmctsBot, available_bots, ismcts, make_bot
from fogofwar.core.errors import RulesError
from fogofwar.core.game import Action, Evaluation, PlayerView, State, get_ruleset
from fogofwar.core.rng import Stream, stream
from fogofwar.sim.runner import run_batch
from fogofwar.sim.stats import difference
from tests.example_game import HIDER, HIDER_CHANCE, SEEKER

EXAMPLE = "tests.example_game:HideAndSeek"
UNSAMPLED = "tests.example_game:HideAndSeekUnsampled"  # a plug-in without sample_world
UNEVALUATED = "tests.example_game:HideAndSeekUnevaluated"  # one without an evaluation


def test_ismcts_plays_the_rule_sets_that_sample_worlds() -> None:
    for rid in ("specter-ops", "zero-dark", "rock-n-roll", "warfighter"):
        rs = get_ruleset(rid)
        assert ("ismcts" in available_bots(rid)) == rs.can_sample_worlds, rid
    assert isinstance(make_bot("ismcts", EXAMPLE), IsmctsBot)
    with pytest.raises(RulesError, match=r"'ismcts' does not play .*Unsampled: .*sample worlds"):
        make_bot("ismcts", UNSAMPLED)


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ("iterations=0", "iterations is a whole number"),
        ("iterations=1.5", "iterations is a whole number"),
        ("seconds=-1", "seconds is a number"),
        ("c=-0.1", "c is a number"),
        ("rollout=clever", "rollout is one of random, heuristic"),
        ("depth=-1", "depth is a whole number"),
        ("depth=2.5", "depth is a whole number"),
        ("steps=all", "steps is one of heuristic, search"),
        ("widen=1", "widen is a number from 0 to below 1"),
        ("widen=-0.5", "widen is a number from 0 to below 1"),
        ("root=deep", "root is one of tree, paired"),
        ("root=paired,widen=0.5", "widen shapes a tree; root=paired grows none"),
        ("cutoff=3", "no parameter cutoff"),
        # nan passed every "x < 0" check, and c=nan stopped games far from the cause.
        ("c=nan", "c=nan is not a finite number"),
        ("prior=inf", "prior=inf is not a finite number"),
        ("seconds=nan", "seconds=nan is not a finite number"),
        ("iterations=3,iterations=700000", "iterations is given twice"),
    ],
)
def test_bad_parameters_are_refused_by_name(params: str, words: str) -> None:
    with pytest.raises(RulesError, match=words):
        make_bot(f"ismcts:{params}", EXAMPLE)


@pytest.mark.parametrize("name", ["c", "prior", "seconds"])
@pytest.mark.parametrize("value", [math.nan, math.inf])
def test_a_search_made_in_python_refuses_numbers_that_are_not_finite(
    name: str, value: float
) -> None:
    with pytest.raises(RulesError, match=f"{name} is a number"):
        IsmctsBot(**{name: value})


@pytest.mark.parametrize(
    "params",
    ["iterations=60", "iterations=60,depth=3", "iterations=60,root=paired", "depth=3,root=paired"],
)
def test_the_same_stream_gives_the_same_move(params: str) -> None:
    rs = get_ruleset(EXAMPLE)
    state = rs.new_game({}, 3)
    seat = sorted(state.to_act())[0]
    moves = set()
    for _ in range(2):
        bot = make_bot(f"ismcts:{params}", EXAMPLE)
        bot.reset(seat, rs.id, state.config)
        legal = tuple(state.legal_actions(seat))
        moves.add(bot.choose(state.view(seat), legal, stream(5, "bot")))
    assert len(moves) == 1


def test_the_search_sees_only_the_view() -> None:
    # Two real states that give the seeker the same view (the hider elsewhere) get the
    # same move from the same stream: the search reads the view, never the state.
    rs = get_ruleset(EXAMPLE)
    seen: dict[str, list[object]] = {}
    for seed in range(40):
        state = rs.new_game({}, seed)
        view = state.view("seeker")
        seen.setdefault(view.canonical(), []).append(state)
    twins = next(states for states in seen.values() if len(states) >= 2)
    moves = set()
    for state in twins[:2]:
        bot = make_bot("ismcts:iterations=40", EXAMPLE)
        bot.reset("seeker", rs.id, state.config)  # type: ignore[attr-defined]
        view = state.view("seeker")  # type: ignore[attr-defined]
        legal = tuple(state.legal_actions("seeker"))  # type: ignore[attr-defined]
        moves.add(bot.choose(view, legal, stream(9, "bot")))
    assert len(moves) == 1


def test_ismcts_beats_random_at_hide_and_seek() -> None:
    # The seeker's win rate with ismcts against a random hider, over a random seeker's:
    # the Newcombe 95% interval of the difference lies above 0.
    rs = get_ruleset(EXAMPLE)
    games = 60
    base = run_batch(rs, games=games, seed="ismcts", seats={}, workers=1).stats()
    search = run_batch(
        rs, games=games, seed="ismcts", seats={"seeker": "ismcts:iterations=40"}, workers=1
    ).stats()
    won, was = search.wins["seekers"].successes, base.wins["seekers"].successes
    d = difference(won, games, was, games)
    assert d.interval.low > 0, (won, was, d)


def _searched_first_decision(spec: str, game_seed: int) -> IsmctsBot:
    """``ismcts:SPEC`` after choosing the first decision of a hide-and-seek game."""
    rs = get_ruleset(EXAMPLE)
    state = rs.new_game({}, game_seed)
    seat = sorted(state.to_act())[0]
    bot = make_bot(f"ismcts:{spec}", EXAMPLE)
    assert isinstance(bot, IsmctsBot)
    bot.reset(seat, rs.id, state.config)
    bot.choose(state.view(seat), tuple(state.legal_actions(seat)), stream(1, "bot"))
    return bot


def test_a_time_budget_stops_the_search() -> None:
    bot = _searched_first_decision("iterations=1000000,seconds=0.05", 1)
    assert 1 <= bot.last_iterations < 1000000


def test_play_levels_choose_the_bots() -> None:
    # play --level: easy is the heuristic bots; normal and hard search where the rule set
    # samples worlds, and are refused with the levels it has where it does not.
    from fogofwar.commands.play import level_bots

    wf = get_ruleset("warfighter")
    cfg = wf.resolve_config({})
    assert level_bots(wf, cfg, "easy") == dict(wf.default_bots)
    assert level_bots(wf, cfg, "hard")["squad"].startswith("ismcts:")
    assert level_bots(wf, cfg, "hard")["squad"].endswith(",depth=20")  # it evaluates
    plugin = get_ruleset(UNEVALUATED)  # searches, but with whole rollouts
    assert "depth" not in level_bots(plugin, plugin.resolve_config({}), "hard")["seeker"]
    assert level_bots(wf, cfg, "normal") != level_bots(wf, cfg, "hard")
    # A rule set's own way of searching some seats (Specter Ops' hunters compare
    # their steps on common worlds) is added to the level's; the other seats keep it.
    so = get_ruleset("specter-ops")
    bots = level_bots(so, so.resolve_config({"players": 3}), "normal")
    assert bots["hunter1"] == bots["hunter2"] == bots["agent"] + ",root=paired"
    for seat, spec in bots.items():
        assert isinstance(make_bot(spec, so.id), IsmctsBot), seat
    plain = get_ruleset(UNSAMPLED)
    with pytest.raises(RulesError, match="only --level easy"):
        level_bots(plain, plain.resolve_config({}), "hard")
    with pytest.raises(RulesError, match="expected one of easy, normal, hard"):
        level_bots(wf, cfg, "brutal")


def test_play_refuses_a_level_a_rule_set_lacks(capsys: pytest.CaptureFixture[str]) -> None:
    from fogofwar.cli import main

    assert main(["play", UNSAMPLED, "--level", "hard"]) == 2
    assert "only --level easy" in capsys.readouterr().err


def test_a_level_with_no_bot_seat_says_so(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Warfighter's one seat is the player's: --level hard is accepted and says it sets
    # no bot. (The game itself is not played here: the terminal game is stubbed.)
    import fogofwar.commands.play as play_module

    class Stub:
        def __init__(self, *args: object, **kwargs: object) -> None:
            self.who = args[3]

        def announce(self) -> None:
            pass

        def run(self) -> int:
            return 0

    monkeypatch.setattr(play_module, "TerminalGame", Stub)
    from fogofwar.cli import main

    assert main(["play", "warfighter", "--level", "hard", "--record", "/dev/null"]) == 0
    assert "no bot plays at it" in capsys.readouterr().out


def test_the_heuristic_prior_plays_the_heuristic_move_on_a_tiny_budget() -> None:
    # With one iteration the only node tried at the root is the heuristic's choice.
    rs = get_ruleset("warfighter")
    state = rs.new_game({}, 2)
    legal = tuple(state.legal_actions("squad"))
    heuristic = make_bot("wf-heuristic", rs.id)
    heuristic.reset("squad", rs.id, state.config)
    search = make_bot("ismcts:iterations=1", rs.id)
    search.reset("squad", rs.id, state.config)
    want = heuristic.choose(state.view("squad"), legal, stream(1, "h"))
    assert search.choose(state.view("squad"), legal, stream(1, "h")) == want


def test_a_loss_to_a_side_without_a_seat_scores_nothing() -> None:
    # Warfighter's lost missions are won by the Hostiles, a side with no seat: the
    # search scores them 0, not as draws. A random squad loses every rollout here.
    rs = get_ruleset("warfighter")
    state = rs.new_game({}, 3)
    bot = make_bot("ismcts:iterations=20,prior=0", rs.id)
    assert isinstance(bot, IsmctsBot)
    bot.reset("squad", rs.id, state.config)
    bot.choose(state.view("squad"), tuple(state.legal_actions("squad")), stream(2, "b"))
    children = bot.last_root.children.values()
    assert sum(c.visits for c in children) == 20
    assert all(c.reward == 0.0 for c in children)


# ----------------------------------------------------------------- rollouts cut short


def test_a_depth_needs_a_rule_set_that_evaluates() -> None:
    rs = get_ruleset(UNEVALUATED)
    bot = make_bot("ismcts:depth=4", UNEVALUATED)
    with pytest.raises(RulesError, match="depth needs a rule set that evaluates positions"):
        bot.reset("seeker", rs.id, rs.resolve_config({}))
    make_bot("ismcts", UNEVALUATED).reset("seeker", rs.id, rs.resolve_config({}))  # no depth


class _Counting(Evaluation):
    """The example's evaluation, recording for each world it is asked about how many
    actions the world had taken since it was sampled, whether its game was over, the
    hider's modelled chance and the value it gave the seat."""

    side = "hiders"
    model = HIDER_CHANCE.model

    def __init__(self, applied: list[int]) -> None:
        self.applied = applied
        self.asked: list[tuple[int, bool, float, float]] = []

    def features(self, state: State) -> tuple[float, ...]:
        return HIDER_CHANCE.features(state)

    def on_side(self, state: State, seat: str) -> bool:
        return HIDER_CHANCE.on_side(state, seat)

    def __call__(self, state: State, seat: str) -> float:
        value = HIDER_CHANCE(state, seat)
        chance = HIDER_CHANCE.chance(state)
        self.asked.append((self.applied[-1], state.outcome() is not None, chance, value))
        return value


def _counted_search(
    params: str, seat: str, config: dict[str, int] | None = None
) -> tuple[IsmctsBot, _Counting]:
    """An ``ismcts`` search of hide and seek's first decision by ``seat``, its worlds'
    actions counted and its evaluation recorded."""
    rs = get_ruleset(EXAMPLE)
    state = rs.new_game(config or {}, 4)
    bot = make_bot(f"ismcts:{params}", EXAMPLE)
    assert isinstance(bot, IsmctsBot)
    bot.reset(seat, rs.id, state.config)
    applied: list[int] = []
    sample = rs.sample_world

    def counted(view: PlayerView, stream: Stream) -> State:
        world = sample(view, stream)
        apply = world.apply_unchecked
        applied.append(0)

        def counting(action: Action) -> None:
            applied[-1] += 1
            apply(action)

        world.apply_unchecked = counting  # type: ignore[method-assign]
        return world

    recorder = _Counting(applied)
    bot.evaluation = recorder
    rs.sample_world = counted  # type: ignore[method-assign]
    try:
        bot.choose(state.view(seat), tuple(state.legal_actions(seat)), stream(3, "b"))
    finally:
        del rs.sample_world
    return bot, recorder


@pytest.mark.parametrize("seat", [HIDER, SEEKER])
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_a_rollout_stops_after_depth_actions_past_the_tree(depth: int, seat: str) -> None:
    # One iteration: the seat's own first action expands the root (both seats bid
    # first; the hider's bid comes first), then `depth` more actions, then the
    # evaluation of a world whose game is not over gives the reward: the hider's
    # modelled chance to the hider, its complement to the seeker.
    bot, recorder = _counted_search(f"iterations=1,depth={depth},prior=0", seat)
    (child,) = bot.last_root.children.values()
    assert child.visits == 1
    ((applied, over, chance, value),) = recorder.asked
    assert (applied, over) == (depth + (2 if seat == SEEKER else 1), False)
    assert 0 < chance < 1
    assert value == child.reward == (chance if seat == HIDER else 1 - chance)


def test_a_game_that_ends_within_the_depth_scores_its_result() -> None:
    # One round, rollouts of up to 200 actions: every world ends first, so the
    # evaluation is never asked and every reward is a real result (a win or a loss).
    bot, recorder = _counted_search("iterations=20,depth=200", SEEKER, {"rounds": 1})
    assert recorder.asked == []
    assert bot.last_iterations == 20
    for child in bot.last_root.children.values():
        assert child.reward == int(child.reward)


@pytest.mark.parametrize("spec", ["iterations=40,depth=4", "iterations=40,depth=4,root=paired"])
def test_ismcts_with_a_cut_rollout_beats_random_at_hide_and_seek(spec: str) -> None:
    # As above, with rollouts of 4 actions and the fitted evaluation after them; with
    # the tree and with paired worlds at the root.
    rs = get_ruleset(EXAMPLE)
    games = 60
    base = run_batch(rs, games=games, seed="ismcts", seats={}, workers=1).stats()
    search = run_batch(
        rs, games=games, seed="ismcts", seats={"seeker": f"ismcts:{spec}"}, workers=1
    ).stats()
    won, was = search.wins["seekers"].successes, base.wins["seekers"].successes
    d = difference(won, games, was, games)
    assert d.interval.low > 0, (won, was, d)


@pytest.mark.parametrize("rid", ["specter-ops", "zero-dark", "rock-n-roll", "warfighter"])
def test_every_built_in_rule_set_searches_with_cut_rollouts(rid: str) -> None:
    # Each offers an evaluation, and a short search with a depth picks a legal action
    # from a new game's first decision and from one some random actions in.
    rs = get_ruleset(rid)
    assert rs.evaluation(rs.resolve_config({})) is not None
    for state, seat, legal in _two_decisions(rid):
        bot = make_bot("ismcts:iterations=8,depth=6", rid)
        bot.reset(seat, rid, state.config)
        assert bot.choose(state.view(seat), legal, stream(3, "b")) in legal


def _two_decisions(rid: str) -> Iterator[tuple[State, str, tuple[Action, ...]]]:
    """A new game's first decision of ``rid`` and one 25 random actions in: the state,
    the seat to act and its legal actions."""
    state = get_ruleset(rid).new_game({}, 2)
    pick = stream(2, "walk", rid)
    for _ in range(2):
        seat = min(state.to_act())
        yield state, seat, tuple(state.legal_actions(seat))
        for _ in range(25):
            if state.is_over:
                break
            actor = min(state.to_act())
            state.apply(pick.choice(list(state.legal_actions(actor))))


@pytest.mark.parametrize("rid", ["specter-ops", "zero-dark", "rock-n-roll", "warfighter"])
@pytest.mark.parametrize("rollout", ["random", "heuristic"])
def test_the_same_stream_gives_the_same_search_in_every_rule_set(rid: str, rollout: str) -> None:
    # The same view, legal list and stream give the same move and the same tree (every
    # root child's visits and reward) in each built-in rule set, at a decision some
    # actions into a game (sampled worlds, rollouts and the heuristic all from the
    # stream); another stream is another search.
    rs = get_ruleset(rid)
    state = rs.new_game({}, 6)
    pick = stream(6, "walk", rid)
    walked = 0
    while True:  # random play to a searched decision some actions in (not a route step)
        assert not state.is_over, "the walk ended the game"
        seat = min(state.to_act())
        legal = tuple(state.legal_actions(seat))
        searched = len(legal) > 1 and not all(a.kind in rs.route_kinds for a in legal)
        if walked >= 12 and searched:
            break
        state.apply(pick.choice(list(legal)))
        walked += 1

    def search(key: int) -> tuple[Action, list[tuple[Action, int, float]]]:
        bot = make_bot(f"ismcts:iterations=12,rollout={rollout},depth=8", rid)
        assert isinstance(bot, IsmctsBot)
        bot.reset(seat, rid, state.config)
        move = bot.choose(state.view(seat), legal, stream(key, "bot"))
        tree = [(a, n.visits, n.reward) for a, n in bot.last_root.children.items()]
        return move, tree

    first, again = search(1), search(1)
    assert first == again and first[0] in legal and first[1]
    assert search(2)[1] != first[1] or len(legal) == 1


def _tree(node: object) -> tuple[object, ...]:
    """A node and everything below it, as comparable values."""
    n = node
    assert isinstance(n, ismcts._Node)
    below = tuple((a, _tree(c)) for a, c in n.children.items())
    return (n.visits, n.reward, n.available, n.hint, n.hinted, n.bonus, below)


_CUT = ["depth=2", "depth=1,prior=0", "depth=6,widen=0.5"]


@pytest.mark.parametrize(
    ("rid", "config", "after", "params"),
    [
        *(("specter-ops", {}, 40, p) for p in _CUT),
        *(("specter-ops", {"players": 5}, 30, p) for p in _CUT),
        *(("specter-ops", {"players": 2}, 0, p) for p in _CUT),
        # Searching every step: with the route steps left to the heuristic (the default)
        # the tree reads views and the fast path is off.
        *(("zero-dark", {}, 20, f"{p},steps=search") for p in _CUT),
        *(("rock-n-roll", {}, 20, p) for p in _CUT),
        *(("warfighter", {}, 5, p) for p in [*_CUT, "depth=0", "depth=0,prior=2"]),
        *((EXAMPLE, {}, 3, p) for p in [*_CUT, "depth=0"]),
    ],
)
def test_worlds_without_views_search_exactly_as_worlds_with_them(
    rid: str, config: dict[str, object], after: int, params: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With random rollouts each iteration first plays a world that keeps no views, and
    # plays again in one that does only where a node asks the heuristic for its hint:
    # the whole tree (every node's visits, reward, availability and hint) is the one of
    # a search whose every world keeps its views.
    rs = get_ruleset(rid)
    state = rs.new_game(config, 4)
    pick = stream(4, "walk", rid)
    done = 0
    while True:
        seat = min(state.to_act())
        legal = tuple(state.legal_actions(seat))
        if done >= after and len(legal) > 1 and not all(a.kind in rs.route_kinds for a in legal):
            break
        state.apply(pick.choice(list(legal)))
        done += 1
    spec = f"ismcts:iterations=120,rollout=random,{params}"

    probes = {True: 0, False: 0}
    iterate = ismcts.IsmctsBot._iterate

    def counted(self: IsmctsBot, *args: object, **kw: object) -> bool:
        probes[ismcts._FAST] += "probe" in kw  # an iteration in a world without views
        return iterate(self, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(ismcts.IsmctsBot, "_iterate", counted)

    def search(fast: bool) -> tuple[Action, tuple[object, ...]]:
        monkeypatch.setattr(ismcts, "_FAST", fast)
        bot = make_bot(spec, rid)
        assert isinstance(bot, IsmctsBot)
        bot.reset(seat, rid, state.config)
        move = bot.choose(state.view(seat), legal, stream(9, "bot"))
        return move, _tree(bot.last_root)

    fast, full = search(True), search(False)
    assert fast == full
    assert len(fast[1][-1]) > 1  # a tree that grew
    assert probes[True] > probes[False] == 0  # the fast path ran (and only with _FAST)


def _specter_ops_decision(n: int) -> tuple[State, str, tuple[Action, ...]]:
    """A Specter Ops game ``n`` random actions in, at a decision with at least 4 legal
    actions."""
    rs = get_ruleset("specter-ops")
    state = rs.new_game({}, 5)
    pick = stream(1, "walk")
    done = 0
    while True:
        seat = min(state.to_act())
        legal = tuple(state.legal_actions(seat))
        if done >= n and len(legal) >= 4:
            return state, seat, legal
        state.apply(pick.choice(list(legal)))
        done += 1


@pytest.mark.parametrize("widen", [0.3, 0.5])
def test_progressive_widening_keeps_a_node_to_its_first_actions(widen: float) -> None:
    # widen=α: a node visited n times tries at most ceil((n + 1)^α) actions while one of
    # them is legal, the heuristic's first; without it, every legal action is tried.
    state, seat, legal = _specter_ops_decision(30)
    budget = 24

    def root(params: str) -> IsmctsBot:
        bot = make_bot(f"ismcts:iterations={budget},rollout=random,depth=4{params}", "specter-ops")
        assert isinstance(bot, IsmctsBot)
        bot.reset(seat, "specter-ops", state.config)
        assert bot.choose(state.view(seat), legal, stream(2, "b")) in legal
        return bot

    wide = root("")
    assert len(wide.last_root.children) == min(budget, len(legal))
    narrow = root(f",widen={widen}")
    assert len(narrow.last_root.children) <= math.ceil(budget**widen)
    assert narrow.last_root.visits == budget
    hint = narrow.last_root.hint
    assert hint is None or hint in narrow.last_root.children  # the heuristic's, first


def _zero_dark_until(want_route: bool) -> tuple[State, str, tuple[Action, ...]]:
    """A Zero Dark game played by its heuristic team until the team's decision is (or is
    not) one of a move's steps."""
    rs = get_ruleset("zero-dark")
    route = rs.route_kinds
    state = rs.new_game({}, 4)
    team = make_bot("zd-team", rs.id)
    seat = rs.seats(state.config)[0]
    team.reset(seat, rs.id, state.config)
    for n in range(400):
        actor = min(state.to_act())
        legal = tuple(state.legal_actions(actor))
        routine = all(a.kind in route for a in legal)
        if actor == seat and len(legal) > 1 and routine == want_route:
            return state, seat, legal
        state.apply(team.choose(state.view(actor), legal, stream(n, "team")))
    raise AssertionError("no such decision in 400 actions")


def test_a_move_s_steps_are_the_heuristic_s_and_not_searched() -> None:
    # Zero Dark names its route kinds; with steps=heuristic (the default) a decision of
    # a move's steps is answered by the heuristic at once, the same action from the same
    # stream, and steps=search searches it.
    rs = get_ruleset("zero-dark")
    assert rs.route_kinds == {"step", "face", "stop", "door"}
    state, seat, legal = _zero_dark_until(want_route=True)
    view = state.view(seat)
    team = make_bot("zd-team", rs.id)
    team.reset(seat, rs.id, state.config)
    want = team.choose(view, legal, stream(7, "bot"))
    bot = make_bot("ismcts:iterations=6,depth=8", rs.id)
    assert isinstance(bot, IsmctsBot)
    bot.reset(seat, rs.id, state.config)
    assert bot.choose(view, legal, stream(7, "bot")) == want
    assert bot.last_iterations == 0
    searching = make_bot("ismcts:iterations=6,depth=8,steps=search", rs.id)
    assert isinstance(searching, IsmctsBot)
    searching.reset(seat, rs.id, state.config)
    assert searching.choose(view, legal, stream(7, "bot")) in legal
    assert searching.last_iterations == 6


@pytest.mark.parametrize("rollout", ["random", "heuristic"])
def test_the_tree_holds_choices_only_where_routes_are_the_heuristic_s(
    rollout: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A choice (which hero acts, what it fires at) is searched; inside the tree the
    # search then never selects among a move's steps: every decision it branched on
    # offered something besides them.
    rs = get_ruleset("zero-dark")
    state, seat, legal = _zero_dark_until(want_route=False)
    assert not all(a.kind in rs.route_kinds for a in legal)
    branched: list[frozenset[str]] = []
    select = IsmctsBot._select

    def spy(self: IsmctsBot, node: object, options: tuple[Action, ...], play: Stream) -> Action:
        branched.append(frozenset(a.kind for a in options))
        return select(self, node, options, play)  # type: ignore[arg-type]

    monkeypatch.setattr(IsmctsBot, "_select", spy)
    bot = make_bot(f"ismcts:iterations=20,depth=30,rollout={rollout}", rs.id)
    assert isinstance(bot, IsmctsBot)
    bot.reset(seat, rs.id, state.config)
    assert bot.choose(state.view(seat), legal, stream(8, "bot")) in legal
    assert bot.last_iterations == 20
    assert len(branched) > 20  # the tree went below the root
    assert not [kinds for kinds in branched if kinds <= rs.route_kinds]
    # Without the route rule the same search does branch on steps.
    branched.clear()
    bot = make_bot(f"ismcts:iterations=20,depth=30,rollout={rollout},steps=search", rs.id)
    bot.reset(seat, rs.id, state.config)
    bot.choose(state.view(seat), legal, stream(8, "bot"))
    assert [kinds for kinds in branched if kinds <= rs.route_kinds]


def test_a_rule_set_without_route_kinds_searches_every_decision() -> None:
    # The default: every decision is a choice (Specter Ops moves are whole actions).
    assert get_ruleset("specter-ops").route_kinds == frozenset()
    assert get_ruleset(EXAMPLE).route_kinds == frozenset()
    assert _searched_first_decision("iterations=10", 3).last_iterations == 10


# ----------------------------------------------------------------- paired worlds


def _recorded_paired(params: str, seat: str) -> tuple[IsmctsBot, list[bytes], tuple[Action, ...]]:
    """A ``root=paired`` search of hide and seek's first decision by ``seat``: the bot,
    the key of the stream of every world it sampled, in order, and the legal actions."""
    rs = get_ruleset(EXAMPLE)
    state = rs.new_game({}, 4)
    bot = make_bot(f"ismcts:{params},root=paired", EXAMPLE)
    assert isinstance(bot, IsmctsBot)
    bot.reset(seat, rs.id, state.config)
    keys: list[bytes] = []
    sample = rs.sample_world

    def recorded(view: PlayerView, stream: Stream) -> State:
        keys.append(stream.key)
        return sample(view, stream)

    rs.sample_world = recorded  # type: ignore[method-assign]
    legal = tuple(state.legal_actions(seat))
    try:
        bot.choose(state.view(seat), legal, stream(3, "b"))
    finally:
        del rs.sample_world
    return bot, keys, legal


@pytest.mark.parametrize("seat", [HIDER, SEEKER])
def test_a_paired_search_plays_every_root_action_in_the_same_worlds(seat: str) -> None:
    # ceil(iterations / actions) worlds, each drawn once per legal action from the same
    # stream (so the same world): the actions are compared on common worlds, and each
    # has as many as the others.
    bot, keys, legal = _recorded_paired("iterations=10", seat)
    worlds = math.ceil(10 / len(legal))
    assert len(keys) == worlds * len(legal)
    for w in range(worlds):
        block = keys[w * len(legal) : (w + 1) * len(legal)]
        assert len(set(block)) == 1
    assert len(set(keys)) == worlds
    assert bot.last_iterations == worlds * len(legal)
    assert set(bot.last_root.children) == set(legal)
    assert all(c.visits == worlds for c in bot.last_root.children.values())


@pytest.mark.parametrize("seat", [HIDER, SEEKER])
@pytest.mark.parametrize("depth", [1, 3])
def test_a_paired_rollout_stops_after_depth_actions_past_the_root(depth: int, seat: str) -> None:
    # As in the tree: the seats before this one in the runner's order act first (the
    # hider's bid before the seeker's), then the seat's action from the root, then
    # `depth` more, then the evaluation.
    bot, recorder = _counted_search(f"iterations=1,depth={depth},root=paired", seat)
    legal = bot.last_root.children
    assert len(recorder.asked) == len(legal)
    for applied, over, _, _ in recorder.asked:
        assert (applied, over) == (depth + (2 if seat == SEEKER else 1), False)
    values = sorted(v for *_, v in recorder.asked)
    assert values == sorted(c.reward for c in legal.values())


def test_a_paired_search_plays_the_best_mean_and_breaks_ties_with_the_heuristic() -> None:
    # The move is an action of the highest total over the common worlds; where the
    # worlds cannot tell several apart, the heuristic's choice among them.
    rs = get_ruleset("warfighter")
    state = rs.new_game({}, 2)
    legal = tuple(state.legal_actions("squad"))
    bot = make_bot("ismcts:iterations=40,depth=4,root=paired", rs.id)
    assert isinstance(bot, IsmctsBot)
    bot.reset("squad", rs.id, state.config)
    move = bot.choose(state.view("squad"), legal, stream(4, "b"))
    totals = {a: c.reward for a, c in bot.last_root.children.items()}
    assert totals[move] == max(totals.values())
    # A budget of one world per action, random rollouts to the end: a random squad
    # loses every mission, so every action ties at 0 and the heuristic's move is played.
    tie = make_bot("ismcts:iterations=1,rollout=random,root=paired", rs.id)
    tie.reset("squad", rs.id, state.config)
    heuristic = make_bot("wf-heuristic", rs.id)
    heuristic.reset("squad", rs.id, state.config)
    got = tie.choose(state.view("squad"), legal, stream(5, "b"))
    assert isinstance(tie, IsmctsBot)
    assert {c.reward for c in tie.last_root.children.values()} == {0.0}
    salt = stream(5, "b").bits64()
    assert got == heuristic.choose(state.view("squad"), legal, stream(5, "b").fork("hint", salt))


@pytest.mark.parametrize("rid", ["specter-ops", "zero-dark", "rock-n-roll", "warfighter"])
def test_every_built_in_rule_set_searches_paired(rid: str) -> None:
    # A new game's first decision and one some random actions in, with heuristic
    # rollouts cut short: a legal move, the same from the same stream.
    for state, seat, legal in _two_decisions(rid):
        moves = set()
        for _ in range(2):
            bot = make_bot("ismcts:iterations=6,depth=4,rollout=heuristic,root=paired", rid)
            bot.reset(seat, rid, state.config)
            moves.add(bot.choose(state.view(seat), legal, stream(3, "b")))
        assert len(moves) == 1 and moves <= set(legal)
