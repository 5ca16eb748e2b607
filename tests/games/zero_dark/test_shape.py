"""The shape of the Zero Dark rule set (docs/architecture.md): its rules as a phase
table — one check per move gives the legal list, ``is_legal`` and the refusal —, every
test rolled with the dice object whose exact law the odds give (ZD-C1), the Red Force's
decisions apart from the state and the bots, a model's posture as an enum."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from fogofwar.core.game import Action
from fogofwar.core.grid import Square
from fogofwar.core.rng import stream
from fogofwar.games.zero_dark import red_force
from fogofwar.games.zero_dark.fear import Model, ModelState
from fogofwar.games.zero_dark.grouping import D12, distribution, successes, successes_dice
from fogofwar.games.zero_dark.state import WORDS, Kind, Phase, ZeroDarkState

from .helpers import RS, sq

CONFIGS: list[dict[str, Any]] = [
    {"mission": "the-spy"},
    {"mission": "the-boss"},
    {"mission": "dead-drop"},
    {"map": "zd-open", "task": "observation", "heroes": 3, "susceptible": "grunt"},
    {"map": "zd-open", "mode": "versus", "heroes": 2},
]


def _junk(state: ZeroDarkState, seat: str, legal: list[Action], n: int) -> list[Action]:
    """``n`` actions near the legal ones: any kind with no arguments, with the legal
    arguments of any kind, with a square around the acting model in either spelling, or
    a legal action with a word too many."""
    words: list[int | str] = ["NE", "ne", "B1", "H1", "A1", "P1", "7H", "rescue", "hand", 3]
    for a in legal:
        words += list(a.args)
    if state.active in state.position.models:
        here = state.position.model(state.active).square
        for r in range(here.row - 2, here.row + 3):
            for c in range(here.col - 2, here.col + 3):
                if r >= 0 and c >= 0:
                    name = Square(r, c).name
                    words += [name, name.lower()]
    out = [Action(seat, str(kind), ()) for kind in Kind]
    out += [Action(seat, str(kind), (w,)) for kind in Kind for w in words]
    out += [Action(seat, a.kind, (*a.args, "x")) for a in legal]
    return stream(len(state.events), "zd-junk").sample(out, min(n, len(out)))


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: str(c.get("mission", c.get("mode"))))
def test_the_phase_table_agrees_with_the_legal_list(config: dict[str, Any]) -> None:
    # The one check per move: an action is legal exactly when the legal list has it, and
    # every refusal of an action of the seat to act names a rule (the check's, the
    # phase's, or the kind's words', WORDS).
    state = RS.new_game(config, 3)
    assert isinstance(state, ZeroDarkState)
    rng = stream(3, "zd-shape")
    phases: set[str] = set()
    for _ in range(150):
        if state.is_over:
            break
        seat = sorted(state.to_act())[0]
        legal = state.legal_actions(seat)
        phases.add(state.phase)
        assert legal and all(state.is_legal(a) for a in legal)
        for action in _junk(state, seat, legal, 40):
            assert state.is_legal(action) == (action in legal), action
            if action not in legal:
                reason, rule = state.explain_illegal(action)
                assert reason and rule, action
        state.apply(rng.choice(legal))
    assert {Phase.CHOOSE, Phase.MOVE, Phase.TESTED} <= phases


def test_every_kind_says_what_its_words_are() -> None:
    # A kind's malformed words are refused under its rule in every phase that has it.
    assert set(WORDS) == set(Kind)
    assert {str(p) for p in Phase} == {
        "prepare", "choose", "move", "tested", "bonus", "cqb", "red", "over",
    }  # fmt: skip


@pytest.mark.parametrize(("n", "tn"), [(1, 5), (2, 12), (3, 10), (4, 16), (5, 20)])
def test_a_test_is_the_dice_object_the_odds_give(n: int, tn: int) -> None:
    # ZD-C1: the dice object the rules roll has the exact law the odds command shows.
    law = successes_dice(n, tn).dist()
    assert {k: law[k] for k in law} == {k: p for k, p in distribution(n, tn).items() if p}


def test_a_roll_draws_the_dice_one_by_one() -> None:
    # The roll's faces are the d12s in the order drawn (as stream.die(12) draws them),
    # and its value is the successes of those dice.
    for seed in range(20):
        roll = successes_dice(6, 14).roll(stream(seed, "zd-roll"))
        plain = stream(seed, "zd-roll")
        assert list(roll.faces) == [plain.die(12) for _ in range(6)]
        assert roll.value == successes(roll.faces, 14)
    assert str(D12) == "d12"


def test_the_game_rolls_its_tests_with_the_dice_objects() -> None:
    # Every test of a mission is the dice object rolled from the test's keyed stream.
    state = RS.new_game({"mission": "the-spy"}, 5)
    assert isinstance(state, ZeroDarkState)
    rng = stream(5, "zd-rolls")
    while not state.is_over:
        seat = sorted(state.to_act())[0]
        state.apply(rng.choice(state.legal_actions(seat)))
    tests = [e.data for e in state.events if e.kind == "test"]
    assert tests
    for n, data in enumerate(tests, 1):
        if not data["dice"]:
            continue
        roll = successes_dice(data["dice"], data["tn"]).roll(state.stream("test", n))
        assert list(roll.faces) == data["rolled"] and roll.value == data["successes"]


def test_the_red_force_reads_the_state_and_imports_neither_it_nor_the_bots() -> None:
    # The Red Force's decisions are the rule-driven opponent's, apart from the state that
    # carries them out and from the team's bot (which sees only a view).
    tree = ast.parse(Path(red_force.__file__).read_text(encoding="utf-8"))
    runtime: list[str] = []
    for node in tree.body:  # module level: TYPE_CHECKING imports are for types only
        if isinstance(node, ast.ImportFrom):
            runtime.append("." * node.level + (node.module or ""))
    assert not any(m.lstrip(".").startswith(("state", "bots")) for m in runtime), runtime


def test_a_models_posture_is_an_enum_with_its_text() -> None:
    down = Model("B1", "bogey", sq("C3"), state="down")  # type: ignore[arg-type]
    assert down.state is ModelState.DOWN and down.state == "down"
    state = RS.new_game({"map": "zd-open"}, 1)
    view = state.view("team")
    assert {type(m["state"]) for m in view.data["models"]} == {str}
    assert type(view.data["phase"]) is str


def test_the_clone_is_derived() -> None:
    # No section of the state lists its fields for copying (core.values.fresh_fields).
    sections = [c for c in ZeroDarkState.__mro__ if c.__module__.startswith("fogofwar.games")]
    assert len(sections) > 5 and all("clone" not in vars(cls) for cls in sections)
