"""The game protocol end to end, on the example rule set (tests/example_game.py).

The example's rule IDs (EX-n) are real rules of that game; see its module docstring.
"""

from __future__ import annotations

import copy
import dataclasses
import os
import pickle
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest

from fogofwar.core.errors import IllegalActionError, InvalidNotationError, RulesError
from fogofwar.core.game import (
    Action,
    ConfigSchema,
    Event,
    Option,
    Outcome,
    PlayerView,
    State,
    get_ruleset,
    register,
    registered_rulesets,
    ruleset_ref,
)
from fogofwar.core.rng import Stream, Streams, stream
from tests.example_game import (
    EXAMPLE,
    HIDER,
    SEEKER,
    HideAndSeek,
    HideAndSeekState,
)

SEATS: tuple[str | None, ...] = (HIDER, SEEKER, None)

Policy = Callable[[State, str], Action]


def views(state: State) -> dict[str | None, str]:
    """Every seat's view (and the spectator's), canonically."""
    return {seat: state.view(seat).canonical() for seat in SEATS}


def fingerprint(state: HideAndSeekState) -> tuple[Any, ...]:
    """Everything observable about a state, plus its fields (the seed compared by value)."""
    fields = {k: v for k, v in vars(state).items() if k != "_streams"}
    legal = {seat: list(state.legal_actions(seat)) for seat in (HIDER, SEEKER)}
    return views(state), legal, sorted(state.to_act()), fields, state._streams.seed


def random_policy(rng: Stream) -> Policy:
    return lambda state, seat: rng.choice(list(state.legal_actions(seat)))


def play(state: State, policy: Policy, *, order: Callable[[list[str]], list[str]] = sorted) -> int:
    """Play to the end; return the number of actions."""
    n = 0
    while not state.is_over:
        for seat in order(sorted(state.to_act())):
            if seat in state.to_act():
                state.apply(policy(state, seat))
                n += 1
    return n


def new(seed: int = 1, **config: Any) -> HideAndSeekState:
    return EXAMPLE.new_game(config, seed)


def bid_both(state: HideAndSeekState, hider: int, seeker: int) -> None:
    state.apply(Action(HIDER, "bid", (hider,)))
    state.apply(Action(SEEKER, "bid", (seeker,)))


# --------------------------------------------------------------------------- registry


def test_registry_finds_the_example_by_id_alias_and_reference() -> None:
    assert get_ruleset("hide-and-seek") is EXAMPLE
    assert get_ruleset("hns") is EXAMPLE
    assert get_ruleset("tests.example_game:HideAndSeek") is EXAMPLE
    assert ruleset_ref(EXAMPLE) == "tests.example_game:HideAndSeek"
    assert "hide-and-seek" in registered_rulesets()


def test_unknown_ruleset_lists_the_known_ones() -> None:
    with pytest.raises(RulesError, match=r"unknown rule set 'nope' \(known: .*hide-and-seek"):
        get_ruleset("nope")
    with pytest.raises(RulesError, match="cannot load"):
        get_ruleset("tests.no_such_module:Game")
    with pytest.raises(RulesError, match="is not a rule set"):
        get_ruleset("tests.example_game:HIDER")


# --------------------------------------------------------------------------- JSON forms


def test_action_json_round_trip_and_errors() -> None:
    a = Action(HIDER, "step", (3,))
    assert a.to_json() == {"seat": "hider", "kind": "step", "args": [3]}
    assert Action.from_json(a.to_json()) == a
    assert str(a) == "step 3"
    for bad in ([1], {"seat": 1, "kind": "x"}, {"seat": "s", "kind": "x", "args": [True]}):
        with pytest.raises(InvalidNotationError):
            Action.from_json(bad)
    with pytest.raises(TypeError):
        Action(HIDER, "bid", (True,))


def test_an_action_keeps_its_hash_and_a_pickle_makes_it_anew() -> None:
    # The hash is worked out once (dicts of actions look each up many times) and is
    # no part of the value; a pickle carries the fields only, since a string's hash
    # differs between processes (PYTHONHASHSEED), where a Ray worker unpickles it.
    a = Action(HIDER, "step", (3,))
    assert hash(a) == hash((HIDER, "step", (3,))) == hash(Action(HIDER, "step", (3,)))
    assert repr(a) == "Action(seat='hider', kind='step', args=(3,))"
    assert a < Action(HIDER, "stop") and {a: 1}[Action(HIDER, "step", (3,))] == 1
    assert a.__reduce__() == (Action, (HIDER, "step", (3,)))
    back = pickle.loads(pickle.dumps(a))
    assert back == a and hash(back) == hash(a)

    class Step(Action):
        pass

    step = copy.deepcopy(Step(HIDER, "step", (3,)))  # through __reduce__, as a pickle
    assert type(step) is Step and hash(step) == hash(a)
    code = (
        "import pickle, sys; a = pickle.load(sys.stdin.buffer); "
        "print(hash(a) == hash((a.seat, a.kind, a.args)))"
    )
    for seed in ("1", "2"):
        out = subprocess.run(
            [sys.executable, "-c", code],
            input=pickle.dumps(a),
            capture_output=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
            check=True,
        )
        assert out.stdout.strip() == b"True"


def test_event_audience_and_json() -> None:
    secret = Event("hider_step", {"cell": 4}, frozenset({HIDER}))
    public = Event("hider_moved")
    assert secret.visible_to(HIDER)
    assert not secret.visible_to(SEEKER)
    assert not secret.visible_to(None)
    assert public.visible_to(None)
    assert secret.to_json() == {"kind": "hider_step", "cell": 4}


def test_view_json_is_canonical() -> None:
    v = PlayerView("x", "s", {"b": 1, "a": [2]})
    assert v.to_json() == {"ruleset": "x", "seat": "s", "view": {"b": 1, "a": [2]}}
    assert v.canonical() == '{"ruleset":"x","seat":"s","view":{"a":[2],"b":1}}'
    assert PlayerView("x", "s", {"a": [2], "b": 1}).canonical() == v.canonical()


# --------------------------------------------------------------------------- config


def test_config_defaults_and_overrides() -> None:
    defaults = EXAMPLE.resolve_config()
    assert dict(defaults) == {"cells": 9, "rounds": 6, "energy": 4, "search_target": 4, "dodges": 1}
    cfg = EXAMPLE.resolve_config({"cells": 7})
    assert cfg["cells"] == 7 and cfg["rounds"] == 6
    assert new(cells=7).size == 7


def test_set_parsing() -> None:
    schema = EXAMPLE.config_schema
    assert schema.parse_sets(["cells=7", " rounds = 3 "]) == {"cells": 7, "rounds": 3}
    with pytest.raises(RulesError, match=r"unknown option 'colour' \(options: cells, rounds"):
        schema.parse_sets(["colour=red"])
    with pytest.raises(RulesError, match="expected an integer, got 'many'"):
        schema.parse_sets(["cells=many"])
    with pytest.raises(RulesError, match="cells: 99 is above 15"):
        schema.parse_sets(["cells=99"])
    with pytest.raises(RulesError, match="expected key=value"):
        schema.parse_sets(["cells"])
    with pytest.raises(RulesError, match="expected int"):
        EXAMPLE.resolve_config({"cells": "7"})


def test_option_types_parse_and_validate() -> None:
    schema = ConfigSchema(
        (
            Option("fog", bool, True, "Fog of war."),
            Option("ratio", float, 0.5, "A ratio.", minimum=0, maximum=1),
            Option("mode", str, "a", "A mode.", choices=("a", "b")),
        )
    )
    assert schema.parse_sets(["fog=off", "ratio=1", "mode=b"]) == {
        "fog": False,
        "ratio": 1.0,
        "mode": "b",
    }
    with pytest.raises(RulesError, match="true/false"):
        schema.parse_sets(["fog=maybe"])
    with pytest.raises(RulesError, match="not one of a, b"):
        schema.parse_sets(["mode=c"])
    with pytest.raises(RulesError, match="expected bool"):
        schema.resolve({"fog": 1})
    with pytest.raises(RulesError):
        Option("bad", int, "x", "A default of the wrong type fails at once.")
    assert [o["name"] for o in schema.to_json()] == ["fog", "ratio", "mode"]


# --------------------------------------------------------------------------- illegal actions


def assert_illegal(state: HideAndSeekState, action: Action, rule: str | None, match: str) -> None:
    before = fingerprint(state)
    with pytest.raises(IllegalActionError, match=match) as info:
        state.apply(action)
    err = info.value
    assert err.action == action
    assert err.seat == action.seat
    assert err.rule == rule
    assert err.reason
    assert fingerprint(state) == before  # an illegal action changes nothing


def test_not_your_turn_is_a_protocol_error() -> None:
    state = new()
    bid_both(state, 0, 0)
    assert_illegal(state, Action(SEEKER, "step", (1,)), None, "seeker may not act now")


def test_ex1_bids_are_0_to_2_and_within_energy() -> None:
    state = new(energy=1)
    assert_illegal(state, Action(HIDER, "bid", (3,)), "EX-1", "a bid is 0, 1 or 2")
    assert_illegal(state, Action(HIDER, "bid", (2,)), "EX-1", "only 1 energy")
    assert_illegal(state, Action(HIDER, "step", (5,)), "EX-1", "secret bid")
    state.apply(Action(HIDER, "bid", (1,)))  # within energy: legal
    assert_illegal(state, Action(HIDER, "bid", (0,)), None, "may not act now")  # bid once


def test_ex2_steps_are_adjacent_and_limited() -> None:
    state = new(seed=3)
    bid_both(state, 0, 1)  # hider may take 1 step, the seeker 2
    at = state.hider_at
    assert_illegal(state, Action(HIDER, "step", (at + 2,)), "EX-2", "next to")
    assert_illegal(state, Action(HIDER, "search"), "EX-2", "step or stop")
    state.apply(Action(HIDER, "step", (at - 1,)))
    assert_illegal(state, Action(HIDER, "step", (at,)), "EX-2", "no steps left")
    state.apply(Action(HIDER, "stop"))
    state.apply(Action(SEEKER, "step", (1,)))
    assert_illegal(state, Action(SEEKER, "step", (-1,)), "EX-2", "next to 1")
    state.apply(Action(SEEKER, "step", (2,)))  # the second step of a 2-step allowance
    assert_illegal(state, Action(SEEKER, "step", (3,)), "EX-2", "no steps left")


def test_ex2_steps_stay_on_the_line() -> None:
    state = new(seed=3)
    state.hider_at = 8  # the last cell
    bid_both(state, 0, 0)
    assert_illegal(state, Action(HIDER, "step", (9,)), "EX-2", "cells 0 to 8")
    assert Action(HIDER, "step", (7,)) in state.legal_actions(HIDER)


def test_ex3_the_hider_may_not_enter_the_seekers_cell() -> None:
    state = new(seed=3)
    state.hider_at, state.seeker_at = 2, 1
    bid_both(state, 0, 0)
    assert_illegal(state, Action(HIDER, "step", (1,)), "EX-3", "seeker's cell")
    assert Action(HIDER, "step", (3,)) in state.legal_actions(HIDER)  # away is fine
    state.apply(Action(HIDER, "stop"))
    # EX-3: the seeker may enter the hider's cell.
    assert Action(SEEKER, "step", (2,)) in state.legal_actions(SEEKER)


def test_ex4_search_or_pass_after_moving() -> None:
    state = new(seed=3, dodges=0)
    bid_both(state, 0, 0)
    state.apply(Action(HIDER, "stop"))
    state.apply(Action(SEEKER, "stop"))
    assert state.legal_actions(SEEKER) == [Action(SEEKER, "search"), Action(SEEKER, "pass")]
    assert_illegal(state, Action(SEEKER, "step", (1,)), "EX-4", "search or pass")


def test_ex4_the_search_roll_comes_from_the_rounds_keyed_stream() -> None:
    seed = 11
    state = new(seed=seed, dodges=0)
    bid_both(state, 0, 0)
    state.apply(Action(HIDER, "stop"))
    state.apply(Action(SEEKER, "stop"))
    events = state.apply(Action(SEEKER, "search"))
    rolled = [e for e in events if e.kind == "searched"]
    assert rolled[0].data["roll"] == Streams(seed).stream("search", 1).die(6)
    assert rolled[0].to is None  # a public roll


def test_ex4_found_only_in_range_with_a_good_roll() -> None:
    # Round 1's roll under seed 11 is fixed (keyed stream): use it on both sides of range.
    roll = Streams(11).stream("search", 1).die(6)
    for hider_at, expect_found in ((1, True), (2, False)):
        state = new(seed=11, dodges=0, search_target=roll)
        state.hider_at = hider_at
        bid_both(state, 0, 0)
        state.apply(Action(HIDER, "stop"))
        state.apply(Action(SEEKER, "stop"))
        state.apply(Action(SEEKER, "search"))
        outcome = state.outcome()
        assert (outcome is not None) is expect_found
        if outcome is not None:
            assert outcome.rule == "EX-6" and outcome.sides == {"seekers"}
        else:
            assert 0 not in state.may_be and 1 not in state.may_be  # a good roll that missed


def test_ex5_the_dodge_is_an_interrupt_the_hider_may_pass() -> None:
    state = new(seed=3)
    state.hider_at = 5
    bid_both(state, 0, 0)
    state.apply(Action(HIDER, "stop"))
    state.apply(Action(SEEKER, "stop"))
    state.apply(Action(SEEKER, "search"))
    assert state.to_act() == {HIDER}
    assert state.legal_actions(HIDER) == [
        Action(HIDER, "dodge", (4,)),
        Action(HIDER, "dodge", (6,)),
        Action(HIDER, "pass"),
    ]
    assert_illegal(state, Action(HIDER, "dodge", (7,)), "EX-5", "adjacent")
    assert_illegal(state, Action(HIDER, "stop"), "EX-5", "dodge or pass")
    seeker_before = state.view(SEEKER).canonical()
    state.apply(Action(HIDER, "dodge", (6,)))
    assert state.hider_at == 6 and state.dodges_left == 0
    seeker_log = state.view(SEEKER).data["log"]
    assert {"kind": "dodge", "used": True} in seeker_log  # that it dodged is public
    assert all(e["kind"] != "dodged_to" for e in seeker_log)  # where to is not
    assert state.view(SEEKER).canonical() != seeker_before
    # With no dodges left the search resolves at once: no interrupt.
    bid_both(state, 0, 0)
    state.apply(Action(HIDER, "stop"))
    state.apply(Action(SEEKER, "stop"))
    events = state.apply(Action(SEEKER, "search"))
    assert [e.kind for e in events][:1] == ["searched"]
    assert state.phase != "dodge"


def test_ex7_the_hider_wins_after_the_last_round() -> None:
    state = new(seed=3, rounds=1)
    bid_both(state, 0, 0)
    state.apply(Action(HIDER, "stop"))
    state.apply(Action(SEEKER, "stop"))
    state.apply(Action(SEEKER, "pass"))
    outcome = state.outcome()
    assert outcome == Outcome(
        frozenset({HIDER}), frozenset({"hiders"}), "the hider stayed hidden for 1 rounds", "EX-7"
    )
    assert not outcome.is_draw
    assert state.to_act() == frozenset()
    # The refusal names the rule that ended the game, and its reason.
    assert_illegal(state, Action(HIDER, "bid", (0,)), "EX-7", "the game is over .the hider")


# --------------------------------------------------------------------------- moves & notation


def test_multi_step_move_notation() -> None:
    state = new(seed=3)
    state.hider_at = 6
    bid_both(state, 2, 0)
    actions = EXAMPLE.parse_actions("move 5 4 3", HIDER, state)
    assert actions == [
        Action(HIDER, "step", (5,)),
        Action(HIDER, "step", (4,)),
        Action(HIDER, "step", (3,)),
        Action(HIDER, "stop"),
    ]
    for a in actions:
        state.apply(a)
    assert state.hider_at == 3 and state.phase == "seek"
    assert EXAMPLE.parse_actions("bid 2", HIDER, state) == [Action(HIDER, "bid", (2,))]
    assert EXAMPLE.parse_actions("search", SEEKER, state) == [Action(SEEKER, "search")]


def test_bad_notation_says_where() -> None:
    state = new()
    with pytest.raises(InvalidNotationError, match="expected cells") as info:
        EXAMPLE.parse_actions("move", HIDER, state)
    with pytest.raises(InvalidNotationError, match="column 8") as info:
        EXAMPLE.parse_actions("move 3 x4", HIDER, state)
    assert info.value.position == 7
    with pytest.raises(InvalidNotationError):
        EXAMPLE.parse_actions("   ", HIDER, state)


# --------------------------------------------------------------------------- secrets


def test_views_hold_no_seed_and_the_hiders_cell_only_for_the_hider() -> None:
    seed = 8675309123
    state = new(seed=seed)
    play(state, random_policy(stream(1, "policy")))
    for seat in SEATS:
        assert str(seed) not in state.view(seat).canonical()
    start = new(seed=seed)
    assert start.view(HIDER).data["you"]["at"] == start.hider_at
    assert "at" not in start.view(SEEKER).data["you"]
    assert start.view(None).data["you"] == {}
    placed = [e for e in start.view(SEEKER).data["log"] if e["kind"] == "placed"]
    assert placed == []


def hider_far(state: State, seat: str) -> Action:
    """A hider that steps as far right as it can, bids 1 when it can; dodges never."""
    legal = list(state.legal_actions(seat))
    if legal[0].kind == "bid":
        return legal[min(1, len(legal) - 1)]
    steps = [a for a in legal if a.kind == "step"]
    if steps and isinstance(state, HideAndSeekState) and state.steps_left > 0:
        return max(steps)
    return legal[-1]  # stop / pass


def hider_wander(rng: Stream) -> Policy:
    """The same bids and dodges as hider_far, but random hidden steps."""

    def choose(state: State, seat: str) -> Action:
        legal = list(state.legal_actions(seat))
        if legal[0].kind in ("step", "stop"):
            return rng.choice(legal)
        return hider_far(state, seat)

    return choose


def seeker_from_view(rng: Stream) -> Policy:
    """A seeker that decides from its view alone (as every bot does)."""

    def choose(state: State, seat: str) -> Action:
        view = state.view(seat)
        legal = list(state.legal_actions(seat))
        if view.data["phase"] == "seek" and view.data["seeker_steps_left"]:
            return max(legal)  # step right while it can
        return rng.choice(legal)

    return choose


def observations(seed: int, hider: Policy) -> tuple[list[str], Outcome | None]:
    """The seeker's distinct successive views through a game, and the outcome."""
    state = new(seed=seed)
    seeker = seeker_from_view(stream(seed, "seeker-bot"))
    seen = [state.view(SEEKER).canonical()]
    while not state.is_over:
        for seat in sorted(state.to_act()):
            if seat in state.to_act():
                state.apply((hider if seat == HIDER else seeker)(state, seat))
                v = state.view(SEEKER).canonical()
                if v != seen[-1]:
                    seen.append(v)
    return seen, state.outcome()


def test_non_interference_hidden_moves_do_not_change_the_seekers_view() -> None:
    compared = 0
    for seed in range(40):
        a, out_a = observations(seed, hider_far)
        b, out_b = observations(seed, hider_wander(stream(seed, "wander")))
        if out_a is None or out_b is None or "EX-6" in (out_a.rule, out_b.rule):
            continue  # a found hider is revealed: only games never found compare
        compared += 1
        assert a == b
        assert out_a == out_b
    assert compared >= 10


def test_a_pending_secret_choice_is_invisible_to_the_other_seat() -> None:
    low, high = new(seed=5), new(seed=5)
    low.apply(Action(HIDER, "bid", (0,)))
    high.apply(Action(HIDER, "bid", (2,)))
    for seat in (SEEKER, None):
        assert low.view(seat).canonical() == high.view(seat).canonical()
    assert low.legal_actions(SEEKER) == high.legal_actions(SEEKER)
    assert low.view(HIDER).data["you"]["bid"] == 0  # the bidder knows its own bid
    assert low.view(SEEKER).data["waiting_for"] == [SEEKER]


def test_the_order_of_simultaneous_choices_does_not_matter() -> None:
    for seed in range(6):
        finals = []
        for order in (sorted, lambda seats: sorted(seats, reverse=True)):
            state = new(seed=seed)
            # Each seat's choices come from its own stream, so both games make the same ones.
            rngs = {s: stream(seed, "order", s) for s in (HIDER, SEEKER)}
            play(state, lambda st, seat, rngs=rngs: rngs[seat].choice(list(st.legal_actions(seat))),
                 order=order)  # fmt: skip
            finals.append((views(state), state.outcome()))
        assert finals[0] == finals[1]


# --------------------------------------------------------------------------- encoding


def test_encoding_size_and_errors() -> None:
    enc = EXAMPLE.encoding({"cells": 7})
    assert enc.size == 3 + 7 + 3 + 7
    assert enc.decode(0, SEEKER) == Action(SEEKER, "bid", (0,))
    with pytest.raises(RulesError, match="out of range"):
        enc.decode(enc.size, HIDER)
    with pytest.raises(RulesError, match="no index"):
        enc.encode(Action(HIDER, "step", (7,)))
    # Many at once, in order, as the legal mask takes them; one without an index is
    # named, from a list or a generator alike.
    bids = [enc.decode(i, SEEKER) for i in (2, 0, 1)]
    assert enc.indices(bids) == [2, 0, 1]
    assert enc.mask(bids).tolist() == [True] * 3 + [False] * (enc.size - 3)
    stray = Action(HIDER, "step", (7,))
    for actions in ([*bids, stray], (a for a in [*bids, stray])):
        with pytest.raises(RulesError, match=r"action .*step 7.* has no index"):
            enc.indices(actions)


# --------------------------------------------------------------------------- state helpers


def test_metrics_of_a_finished_game() -> None:
    state = new(seed=4)
    play(state, random_policy(stream(4, "m")))
    m = EXAMPLE.metrics(state)
    assert set(m) == {"rounds", "searches", "found", "hider_energy_left", "seeker_energy_left"}
    assert all(isinstance(v, float) for v in m.values())
    assert m["found"] == float(state.outcome() is not None and SEEKER in state.outcome().winners)


def test_metadata() -> None:
    meta = EXAMPLE.metadata
    assert meta.seats == (HIDER, SEEKER)
    assert meta.sides == {HIDER: "hiders", SEEKER: "seekers"}
    assert meta.simultaneous and meta.information == "imperfect"
    assert meta.to_json()["max_length"] == meta.max_length
    assert EXAMPLE.seats() == (HIDER, SEEKER)


# --------------------------------------------------------------------------- sample_world


def checkpoints(seed: int, every: int = 3) -> list[HideAndSeekState]:
    """Clones of a random game's state at every few actions."""
    state = new(seed=seed)
    rng = stream(seed, "sample-play")
    out = [state.clone()]
    n = 0
    while not state.is_over:
        for seat in sorted(state.to_act()):
            if seat in state.to_act():
                state.apply(rng.choice(list(state.legal_actions(seat))))
                n += 1
                if n % every == 0 or state.is_over:
                    out.append(state.clone())
    return out


def test_sample_world_is_consistent_with_the_view() -> None:
    rng = stream(0, "sample-world")
    for seed in range(6):
        for state in checkpoints(seed):
            for seat in SEATS:
                view = state.view(seat)
                world = EXAMPLE.sample_world(view, rng)
                assert world.view(seat).canonical() == view.canonical()
                if seat is not None:
                    assert list(world.legal_actions(seat)) == list(state.legal_actions(seat))
                assert world.to_act() == state.to_act()
                if state.phase != "hide":
                    assert world.hider_at in state.may_be
                # The sampled world is a real game: it plays on to the end.
                play(world, random_policy(rng))
                assert world.is_over


def test_sample_world_draws_different_hidden_cells() -> None:
    state = new(seed=1)
    cells = {EXAMPLE.sample_world(state.view(SEEKER), stream(i, "w")).hider_at for i in range(40)}
    assert cells == set(state.may_be)


class _Sized(HideAndSeek):
    """A plug-in made with an argument of its own (registered by its own code)."""

    id = "sized-hide-and-seek"
    aliases = ()

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size


def test_a_rule_set_copies_as_itself_and_pickles_as_the_registrys_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A state's clone shares its rule set; copy.deepcopy and pickle now do the same
    # where they can: a built-in or a plug-in loaded by reference comes back as the
    # registry's own instance (states compare rule sets by identity).
    from fogofwar.core.game import registry

    builtin = get_ruleset("specter-ops")
    plug_in = get_ruleset("tests.example_game:HideAndSeek")
    for rs in (builtin, plug_in):
        assert copy.deepcopy(rs) is rs and pickle.loads(pickle.dumps(rs)) is rs
    # The registrations below are this test's own: gone after it.
    for table in ("_REGISTRY", "_ALIASES", "_REFS"):
        monkeypatch.setattr(registry, table, dict(getattr(registry, table)))
    # A plug-in registered by its own code with an argument pickles as its object (a
    # reference would make it again without the argument), and copies as itself.
    sized = register(_Sized(size=12))
    again = pickle.loads(pickle.dumps(sized))
    assert type(again) is _Sized and again.size == 12
    assert copy.deepcopy({"rs": sized})["rs"] is sized
    # Registering writes nothing on the rule set: a frozen one registers too.
    frozen_class = dataclasses.dataclass(frozen=True)(
        type("Frozen", (HideAndSeek,), {"id": "frozen-hide-and-seek", "aliases": ()})
    )
    frozen = register(frozen_class())
    assert copy.deepcopy(frozen) is frozen
