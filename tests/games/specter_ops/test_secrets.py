"""The agent's secrets (SO-I1): what the hunters and spectators may learn.

Non-interference: two games that differ only in the agent's hidden moves, chosen so
that every public fact is the same (the result of each move, the "Clear" answers, the
sensor's answers, objectives, attacks), must give every hunter seat and a spectator
byte-identical views, and the hunters identical legal actions (and reasons for
refusing illegal ones), at every step. The
views are built from public facts (DESIGN.md, "Views are built, never redacted"), and
the dice come from keyed streams (DESIGN.md, "Chance"), so a hidden choice cannot
shift a later public roll.

Plus direct checks of the JSON: the agent's secret part and private events only in the
agent's view; with hidden sites (4 players, SO-S3) no uncompleted site in a hunter's
view; the agent's square in a hunter's view only when revealed (SO-A5) or as a public
token square (SO-A6).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from fogofwar.core.game import Action, canonical_json, get_ruleset
from fogofwar.core.rng import stream
from fogofwar.games.specter_ops.state import AGENT, SpecterOpsState
from tests.games.specter_ops.oracle import POLICIES, choose, engine_moves, public_events

BOARDS = Path(__file__).parent / "boards"
SMALL = str(BOARDS / "small.board")
TIGHT = str(BOARDS / "tight.board")
PILLARS = str(BOARDS / "pillars.board")
RULES = get_ruleset("specter-ops")


def new_game(board: str, players: int, seed: int, rounds: int) -> SpecterOpsState:
    state = RULES.new_game({"players": players, "board": board, "max_rounds": rounds}, seed)
    assert isinstance(state, SpecterOpsState)
    return state


def outsiders(state: SpecterOpsState) -> list[str | None]:
    """Every seat but the agent's, and a spectator (None)."""
    return [*state.seats[1:], None]


def snapshot(state: SpecterOpsState) -> tuple[Any, ...]:
    """What the hunters and a spectator have: whose turn it is, every outsider's view
    (``PlayerView.canonical()``), the hunters' legal actions and refusals."""
    views = []
    for seat in outsiders(state):
        view = state.view(seat)
        assert ("final" in view.data) == state.is_over
        if state.is_over:
            # After the game every secret is public by design (views.py, "final").
            data = {k: v for k, v in view.data.items() if k != "final"}
            views.append(canonical_json({"seat": seat, "view": data}))
        else:
            views.append(view.canonical())
    actions = tuple(tuple(state.legal_actions(s)) for s in state.seats[1:])
    return (tuple(sorted(state.to_act())), tuple(views), actions, refusals(state))


def refusals(state: SpecterOpsState) -> tuple[tuple[str, str, str | None], ...]:
    """Why each of a set of probe actions by the hunters is refused (the reasons a
    hunter reads when it tries them): they must not depend on the secret either."""
    geo = state.geo
    around: set[int] = set()
    for h in state.hunters:
        around |= {h.square, *geo.indices(geo.adjacent[h.square])}
    squares = [geo.name(i) for i in sorted(around)]
    out = []
    for seat in sorted(state.to_act() - {AGENT}):  # others are told only "not your turn"
        legal = set(state.legal_actions(seat))
        probes = [Action(seat, k) for k in ("stop", "sensor", "attack", "end")]
        probes += [Action(seat, "next", (h.id,)) for h in state.hunters]
        probes += [Action(seat, k, (sq,)) for k in ("step", "drive") for sq in squares]
        for action in probes:
            if action not in legal:
                reason, rule = state.explain_illegal(action)
                out.append((str(action), reason, rule))
    return tuple(out)


@dataclass
class Twins:
    """What one pair of games compared."""

    points: int = 0  # moments at which A and B were compared
    rounds: int = 0  # agent moves replaced
    moved_apart: int = 0  # ... by a move that ended on another square than A's
    stopped: bool = False  # B found no move matching A's round (comparison stopped)


def round_facts(state: SpecterOpsState, marks: list[int]) -> list[list[tuple[Any, ...]]]:
    return [facts(public_events(state.events[i:j])) for i, j in itertools.pairwise(marks)]


def facts(events: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """The public facts about the agent that SO-I1 lets the hunters learn: move results
    (SO-A5, SO-A6), escape, completed objectives (SO-O2), "Clear"/visible answers
    (SO-H3), the sensor's answers (SO-V5) and attack results — and nothing else, so
    that a secret leaking into any other event or field shows up as a difference."""
    out: list[tuple[Any, ...]] = []
    for e in events:
        kind = e["kind"]
        if kind == "agent_moved":
            out.append((kind, e["result"], e["square"]))
        elif kind == "escaped":
            out.append((kind, e["square"]))
        elif kind == "objectives_completed":
            out.append((kind, tuple((c["sector"], c["site"]) for c in e["completed"])))
        elif kind == "announcement":
            out.append((kind, e["hunter"], e["answer"], e["square"]))
        elif kind == "sensor":
            out.append((kind, e["hunter"], e["answer"]))
        elif kind == "attack":
            # Not the dice: with keyed streams (DESIGN.md, "Chance") the same attack in
            # the same round rolls the same dice, which the views then compare.
            out.append((kind, e["hunter"], e["distance"]))
        elif kind == "game_over":
            out.append((kind, e["winner"], e["rule"]))
    return out


def follows(
    b: SpecterOpsState,
    moved: SpecterOpsState,
    a_facts: list[list[tuple[Any, ...]]],
    hunters: list[Action],
) -> bool:
    """Whether game B, after the agent move that gave ``moved``, gives the facts of game
    A's round: the move's, then each hunter action's."""
    if facts(public_events(moved.events[len(b.events) :])) != a_facts[0]:
        return False
    trial = moved.clone()
    for action, expected in zip(hunters, a_facts[1:], strict=True):
        if not trial.is_legal(action):
            return False
        before = len(trial.events)
        trial.apply(action)
        if facts(public_events(trial.events[before:])) != expected:
            return False
    return True


def play_twins(board: str, players: int, seed: int, rounds: int, policy: str) -> Twins:
    """SO-I1 non-interference on one pair of games.

    Game A is played at random. Game B has the same seed and the same hunter actions,
    but at each agent turn the agent makes another move (from its own square, which may
    differ from A's), chosen so that the facts SO-I1 allows (:func:`facts`) stay the
    same through the round.
    After every agent move and hunter action the outsiders' views and the hunters'
    legal actions must be identical in A and B; during the agent's steps they must
    not change at all.
    """
    a = new_game(board, players, seed, rounds)
    b = new_game(board, players, seed, rounds)
    rng = stream(seed, "test")
    alt = stream(seed, "alternative")
    out = Twins()
    assert snapshot(a) == snapshot(b)
    while not a.is_over:
        assert a.phase == b.phase == "agent"
        frozen = snapshot(a)
        for _attempt in range(4):
            # Game A's round, at random, on a copy: the agent's move, then the hunters.
            trial = a.clone()
            marks = [len(trial.events)]
            points: list[tuple[Any, ...]] = []
            while trial.phase == "agent" and not trial.is_over:
                trial.apply(choose(trial, AGENT, rng, policy))
                if trial.phase == "agent":
                    assert snapshot(trial) == frozen, "a hidden step changed an outsider's view"
            marks.append(len(trial.events))
            points.append(snapshot(trial))
            hunters: list[Action] = []
            while not trial.is_over and trial.phase != "agent":
                action = choose(trial, next(iter(trial.to_act())), rng, policy)
                trial.apply(action)
                hunters.append(action)
                marks.append(len(trial.events))
                points.append(snapshot(trial))
            a_facts = round_facts(trial, marks)
            # Game B: another move with the same public consequences, preferring one
            # that ends elsewhere or with another number of steps (SO-V5) than A's.
            a_end = (trial.agent_square, trial.last_steps)
            candidates = engine_moves(b)
            alt.shuffle(candidates)
            candidates.sort(key=lambda c: (c[1].agent_square, c[1].last_steps) == a_end)
            chosen = next((c for c in candidates if follows(b, c[1], a_facts, hunters)), None)
            if chosen is not None:
                break
        else:
            out.stopped = True
            return out
        out.rounds += 1
        out.moved_apart += chosen[1].agent_square != trial.agent_square
        # Play B for real and compare it with A at every point.
        for action in chosen[0]:
            b.apply(action)
            if b.phase == "agent":
                assert snapshot(b) == frozen, "a hidden step changed an outsider's view"
        assert snapshot(b) == points[0], f"seed {seed} round {a.round}: after the agent's move"
        for k, action in enumerate(hunters, 1):
            b.apply(action)
            assert snapshot(b) == points[k], f"seed {seed} round {a.round}: after {action}"
            out.points += 1
        a = trial
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("board", [SMALL, PILLARS], ids=["small", "pillars"])
def test_hidden_moves_do_not_interfere(board: str, players: int) -> None:
    """SO-I1: the hunters learn nothing from the agent's moves beyond the public facts
    (reveals SO-A5, Last Seen SO-A6, objectives SO-O2, the sensor SO-V5, "Clear"
    SO-H3, attacks SO-X1)."""
    total = Twins()
    for seed in range(8):
        got = play_twins(board, players, 40 * players + seed, 8, POLICIES[seed % 3])
        total.points += got.points
        total.rounds += got.rounds
        total.moved_apart += got.moved_apart
    assert total.rounds >= 30, total
    assert total.moved_apart >= 10, total  # the agents really went different ways
    assert total.points >= 300, total


def test_non_interference_check_has_teeth(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison above catches a leak: an extra public event giving away the
    steps of the agent's last move (which only the sensor may tell, SO-V5)."""
    end_turn = SpecterOpsState._end_hunter_turn

    def leaky(self: SpecterOpsState) -> None:
        self._emit("debug", steps=self.last_steps)
        end_turn(self)

    monkeypatch.setattr(SpecterOpsState, "_end_hunter_turn", leaky)
    with pytest.raises(AssertionError, match="seed"):
        for seed in range(4):
            play_twins(SMALL, 3, seed, 6, "kinds")


def test_hidden_sites_do_not_interfere() -> None:
    """SO-S3, SO-I1: with 4 players, games whose secret objective sites differ give the
    outsiders identical views as long as the public facts agree (the same actions; no
    attacks, whose dice come from the different seeds)."""
    compared = differing = 0
    for k in range(10):
        seeds = (500 + 2 * k, 501 + 2 * k)
        a, b = (new_game(PILLARS if k % 2 else SMALL, 4, s, 8) for s in seeds)
        if facts(public_events(a.events)) != facts(public_events(b.events)):
            continue  # an objective next to the start square completed in one game only
        differing += a.sites != b.sites
        assert snapshot(a) == snapshot(b), f"seeds {seeds}: at the start"
        rng = stream(seeds[0], "test")
        while not a.is_over:
            seat = next(iter(a.to_act()))
            action = choose(a, seat, rng, "kinds")
            if action.kind == "attack":
                action = Action(seat, "end")
            marks = len(a.events), len(b.events)
            a.apply(action)
            b.apply(action)
            if facts(public_events(a.events[marks[0] :])) != facts(
                public_events(b.events[marks[1] :])
            ):
                break  # an objective completed in one game only: the sites now differ
            assert snapshot(a) == snapshot(b), f"seeds {seeds}: after {action}"
            compared += 1
    assert differing >= 5
    assert compared >= 300


# --------------------------------------------------------------------------- the views' JSON


def strings(value: Any, skip: frozenset[str] = frozenset()) -> Iterator[str]:
    """Every string in a JSON value, leaving out the values of keys in ``skip``."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            if k not in skip:
                yield from strings(v, skip)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v, skip)


def keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from keys(v)
    elif isinstance(value, list):
        for v in value:
            yield from keys(v)


# Keys whose values are hunter figures or seats ("H3" is a figure and a square name).
FIGURE_KEYS = frozenset({"hunter", "hunters", "seat", "to_act", "winners"})
# Events that name hunters' or the vehicle's squares, never the agent's.
TABLE_EVENTS = frozenset({"hunter_step", "got_out", "got_in", "drive", "order", "hunter_turn"})


def agent_mentions(view: dict[str, Any]) -> list[str]:
    """The strings of an outsider's view outside the table (hunters, vehicle, their
    moves), the possibility map (SO-I2: it holds the true square by design) and the
    objectives (structures, SO-B3)."""
    skip = FIGURE_KEYS | {"possible", "vehicle", "objectives", "events", "final"}
    out = list(strings(view, skip))
    for e in view["events"]:
        if e["kind"] in TABLE_EVENTS or e["kind"] == "objectives_completed":
            continue
        out += strings(e, FIGURE_KEYS)
    return out


def check_views(state: SpecterOpsState, where: str) -> None:
    geo = state.geo
    spectator = state.view(None)
    agent = state.view(AGENT).to_json()["view"]
    assert isinstance(agent, dict)
    # SO-A4: the agent's map is in its own view only.
    assert agent["secret"]["square"] == geo.name(state.path[-1])
    assert agent["secret"]["objective_sites"] == [geo.name(s) for s in state.sites]
    for seat in state.seats[1:]:
        # Hunters are told exactly what a spectator is told (no event is addressed to
        # a hunter seat in this game): built from the public projection alone.
        assert state.view(seat).data == spectator.data, where
    view = spectator.to_json()["view"]
    assert isinstance(view, dict)
    assert "secret" not in set(keys(view)), where
    kinds = {e["kind"] for e in view["events"]}
    assert not kinds & {"agent_path", "objective_sites"}, where
    if state.is_over:
        return  # "final": every secret is public after the game
    # SO-S3: with hidden sites no uncompleted objective's site is named.
    if state.hidden_sites:
        hidden = {geo.name(s) for j, s in enumerate(state.sites) if not state.done[j]}
        named = set(strings(view, FIGURE_KEYS))
        assert not hidden & named, f"{where}: an uncompleted site is shown"
        done = [o["site"] for o in view["objectives"] if o["site"] is not None]
        assert done == [geo.name(s) for j, s in enumerate(state.sites) if state.done[j]]
    # SO-I1: the agent's square shows only when it is revealed (SO-A5), as the Last
    # Seen token's square (SO-A6) or as the public start square (SO-S5).
    here = geo.name(state.agent_square)
    if here in agent_mentions(view):
        shown = view["agent"]
        start = [e["agent"] for e in view["events"] if e["kind"] == "setup"]
        assert here in (shown["revealed_at"], shown["last_seen"], *start), (
            f"{where}: the hidden agent's square {here} is named"
        )
    if state.shown is not None:
        assert view["agent"]["revealed_at"] == here
    else:
        assert view["agent"]["revealed_at"] is None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_views_keep_the_agents_secrets(players: int) -> None:
    """SO-I1, SO-S3, SO-A4: the JSON of every outsider's view after every action."""
    hidden_seen = 0
    for seed in range(9):
        board = (SMALL, TIGHT, PILLARS)[seed % 3]
        state = new_game(board, players, 700 + seed, 8)
        rng = stream(state.players * 1000 + seed, "test")
        check_views(state, f"seed {seed} setup")
        n = 0
        while not state.is_over:
            state.apply(choose(state, next(iter(state.to_act())), rng, POLICIES[seed % 3]))
            n += 1
            check_views(state, f"seed {seed} action {n}")
            hidden_seen += state.shown is None
    assert hidden_seen > 200
