"""The conformance suite: what every rule set owes the protocol, checked the same way for
each registered rule set and the example plug-in (in the style of PettingZoo's
``api_test``). A new rule set is added to ``CASES`` and must pass all of it.

Each test plays random games from fixed seeds (one, the sampled worlds' property, from
seeds and positions Hypothesis draws): clones are independent, the encoding
round-trips and its mask is the legal list, records replay and verify, views are
JSON that never carries the secret, refusals change nothing and name their rule, the
notation reads every legal action back, and the same seed plays the same game.
"""

from __future__ import annotations

import copy
import json
import pickle
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fogofwar.core.errors import IllegalActionError, MalformedActionError, RulesError
from fogofwar.core.game import (
    Action,
    PlayerView,
    Ruleset,
    State,
    get_ruleset,
    registered_rulesets,
)
from fogofwar.core.record import Record, Recorder, verify_record
from fogofwar.core.rng import Stream, stream
from fogofwar.sim.fuzz import fingerprint

# (rule set, config, actions played per game): the configurations people play.
CASES: list[tuple[str, dict[str, Any], int]] = [
    ("specter-ops", {}, 160),
    ("specter-ops", {"players": 5, "characters": True}, 60),
    ("zero-dark", {}, 120),
    ("zero-dark", {"mode": "versus", "map": "zd-open"}, 120),
    ("rock-n-roll", {}, 200),
    ("warfighter", {}, 200),
    ("tests.example_game:HideAndSeek", {}, 200),
]
IDS = [f"{r}-{'-'.join(f'{k}={v}' for k, v in c.items()) or 'defaults'}" for r, c, _ in CASES]


def games(ruleset: str, config: dict[str, Any], length: int, seed: int) -> Iterator[Recorder]:
    """A random game of at most ``length`` actions, yielded after each action."""
    rs = get_ruleset(ruleset)
    rec = Recorder(rs, config, seed)
    pick = stream(seed, "conformance", ruleset)
    yield rec
    while not rec.state.is_over and len(rec.actions) < length:
        seat = pick.choice(sorted(rec.state.to_act()))
        rec.apply(pick.choice(list(rec.state.legal_actions(seat))))
        yield rec


def seats_of(state: State) -> tuple[str, ...]:
    return tuple(state.ruleset.seats(state.config))


def test_every_registered_rule_set_is_in_the_suite() -> None:
    built_in = {
        rs.id
        for rs in registered_rulesets().values()
        if type(rs).__module__.startswith("fogofwar.games")
    }
    assert built_in <= {r for r, _, _ in CASES}


@pytest.mark.parametrize(("ruleset", "config", "length"), CASES, ids=IDS)
def test_metadata_config_and_seats(ruleset: str, config: dict[str, Any], length: int) -> None:
    rs: Ruleset = get_ruleset(ruleset)
    meta = rs.metadata
    cfg = rs.resolve_config(config)
    assert meta.min_players <= meta.max_players and meta.max_length > 0
    assert set(rs.seats(cfg)) <= set(meta.seats) and set(meta.seats) <= set(meta.sides)
    json.dumps(meta.to_json())
    json.dumps(rs.config_schema.to_json())
    assert rs.resolve_config(cfg) == cfg  # a resolved config resolves to itself
    assert rs.cached_encoding(cfg) is not None  # every rule set has an action encoding


@pytest.mark.parametrize(("ruleset", "config", "length"), CASES, ids=IDS)
def test_clones_are_independent_and_share_the_rule_set(
    ruleset: str, config: dict[str, Any], length: int
) -> None:
    for rec in games(ruleset, config, length, seed=1):
        if len(rec.actions) == length // 2 or rec.state.is_over:
            break
    state = rec.state
    twin = state.clone()
    assert twin is not state and twin.ruleset is state.ruleset
    seats = seats_of(state)
    before = fingerprint(state, seats)
    assert fingerprint(twin, seats) == before
    pick = stream(2, "clone")
    moves = []
    while not twin.is_over and len(moves) < 30:
        seat = pick.choice(sorted(twin.to_act()))
        moves.append(pick.choice(list(twin.legal_actions(seat))))
        twin.apply(moves[-1])
    assert fingerprint(state, seats) == before  # the original did not move
    for a in moves:
        state.apply(a)
    assert fingerprint(state, seats) == fingerprint(twin, seats)  # and plays the same


@pytest.mark.parametrize(("ruleset", "config", "length"), CASES, ids=IDS)
@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_a_state_pickles_and_deep_copies_into_the_same_game(
    ruleset: str, config: dict[str, Any], length: int, how: str
) -> None:
    # An RL researcher's lookahead copies an environment, a checkpoint pickles it, a
    # process pool sends it: three of the four rule sets refused (read-only tables,
    # Specter Ops' native step functions, and that only where the kernels are built).
    for rec in games(ruleset, config, length, seed=3):
        if len(rec.actions) == length // 2 or rec.state.is_over:
            break
    state = rec.state
    twin = pickle.loads(pickle.dumps(state)) if how == "pickle" else copy.deepcopy(state)
    assert twin is not state and twin.ruleset is state.ruleset
    seats = seats_of(state)
    assert fingerprint(twin, seats) == fingerprint(state, seats)
    pick = stream(4, "copies")
    for _ in range(30):
        if state.is_over:
            break
        seat = pick.choice(sorted(state.to_act()))
        action = pick.choice(list(state.legal_actions(seat)))
        assert state.apply(action) == twin.apply(action)
        assert fingerprint(twin, seats) == fingerprint(state, seats)


@pytest.mark.parametrize(("ruleset", "config", "length"), CASES, ids=IDS)
def test_the_encoding_round_trips_and_masks_the_legal_actions(
    ruleset: str, config: dict[str, Any], length: int
) -> None:
    rs = get_ruleset(ruleset)
    enc = rs.cached_encoding(rs.resolve_config(config))
    assert enc is not None
    for rec in games(ruleset, config, length, seed=3):
        state = rec.state
        for seat in seats_of(state):
            legal = list(state.legal_actions(seat))
            mask = enc.legal_mask(state, seat)
            assert mask.dtype == np.bool_ and mask.shape == (enc.size,)
            assert sorted(np.flatnonzero(mask).tolist()) == sorted(enc.encode(a) for a in legal)
            for a in legal:
                assert enc.decode(enc.encode(a), seat) == a
            if seat not in state.to_act():
                assert not legal


@pytest.mark.parametrize(("ruleset", "config", "length"), CASES, ids=IDS)
def test_records_replay_and_verify(ruleset: str, config: dict[str, Any], length: int) -> None:
    *_, rec = games(ruleset, config, length, seed=4)
    record = Record.loads(rec.record().dumps())
    replayed = record.replay()
    seats = seats_of(rec.state)
    assert fingerprint(replayed, seats) == fingerprint(rec.state, seats)
    assert verify_record(record).verified
    secret = Recorder(get_ruleset(ruleset), config)  # a secret game records and verifies too
    assert verify_record(Record.loads(secret.record().dumps())).verified


@pytest.mark.parametrize(("ruleset", "config", "length"), CASES, ids=IDS)
def test_views_are_json_for_their_seat_and_never_carry_the_secret(
    ruleset: str, config: dict[str, Any], length: int
) -> None:
    rs = get_ruleset(ruleset)
    rec = Recorder(rs, config)  # a secret game
    secret = str(rec.record().seed)
    pick = stream(5, "views", ruleset)
    for step in range(length):
        state = rec.state
        for seat in (*seats_of(state), None):
            view = state.view(seat)
            assert view.seat == seat and view.ruleset == rs.id
            text = view.canonical()
            assert json.loads(text) == json.loads(json.dumps(view.to_json()))
            assert secret not in text and rec.commitment not in text
        if state.is_over:
            break
        seat = pick.choice(sorted(state.to_act()))
        for event in rec.apply(pick.choice(list(state.legal_actions(seat)))):
            assert secret not in json.dumps(event.to_json())
        assert step < rs.metadata.max_length


def _scribble(value: Any) -> int:
    """Write into every list and dict of a view's data, as a careless bot might: a
    sentinel appended to each list and added to each dict. The containers changed."""
    n = 0
    if isinstance(value, dict):
        for v in list(value.values()):
            n += _scribble(v)
        value["scribbled"] = "by a bot"
        return n + 1
    if isinstance(value, (list, tuple)):
        for v in value:
            n += _scribble(v)
        if isinstance(value, list):
            value.append("scribbled by a bot")
            return n + 1
    return n


@pytest.mark.parametrize(("ruleset", "config", "length"), CASES, ids=IDS)
def test_a_seat_that_writes_into_its_view_changes_nothing_else(
    ruleset: str, config: dict[str, Any], length: int
) -> None:
    # A view is the seat's own value: a bot or a learner that edits it in place (its
    # events' lists, a roll's faces, a map's answers) changes neither the game nor what
    # anyone is told later, its own next view included (an audit found views sharing
    # lists with the state's event log, a Rock-n-Roll goal's points and the last roll).
    for n, rec in enumerate(games(ruleset, config, length, seed=8)):
        if n % 3:
            continue
        state = rec.state
        seats = seats_of(state)
        before = fingerprint(state, seats)
        scribbled = 0
        for seat in (*seats, None):
            scribbled += _scribble(state.view(seat).data)
        assert scribbled
        assert fingerprint(state, seats) == before
    # Played on to its end (a mission's report, the final hands), and written into again.
    pick = stream(8, "scribble", ruleset)
    state = rec.state
    while not state.is_over and len(rec.actions) < 3000:
        seat = pick.choice(sorted(state.to_act()))
        rec.apply(pick.choice(list(state.legal_actions(seat))))
    seats = seats_of(state)
    before = fingerprint(state, seats)
    for seat in (*seats, None):
        _scribble(state.view(seat).data)
    assert fingerprint(state, seats) == before
    # The game went on as its record says: nothing written reached the state.
    assert verify_record(Record.loads(rec.record().dumps())).verified


def _illegal(state: State, pick: Stream) -> list[Action]:
    """Actions the seat to act may not take now: other seats' legal actions, its own
    actions with their arguments changed, kinds it may not use now."""
    seats = seats_of(state)
    acting = sorted(state.to_act())
    out: list[Action] = []
    for seat in seats:
        for a in list(state.legal_actions(seat))[:5]:
            for other in acting:
                if other != seat:
                    out.append(Action(other, a.kind, a.args))
            out.append(Action(a.seat, a.kind, (*a.args, "zz")))
    if acting:
        seat = pick.choice(acting)
        legal = set(state.legal_actions(seat))
        enc = state.ruleset.cached_encoding(state.config)
        if enc is not None:
            for kind in sorted(enc.kinds()):
                for args in enc.forms(kind)[:2]:
                    out.append(Action(seat, kind, args))
        out = [a for a in out if a not in legal]
    return [a for a in out if not state.is_legal(a)]


@pytest.mark.parametrize(("ruleset", "config", "length"), CASES, ids=IDS)
def test_an_action_listed_before_the_last_move_is_checked_again(
    ruleset: str, config: dict[str, Any], length: int
) -> None:
    # A state answers ``is_legal`` for an action it has just listed without asking the
    # rules again (the same object): every apply must forget the list, and a change to
    # the list handed out must not make an action legal.
    every: list[Action] = []  # every action listed so far, by every seat
    state = get_ruleset(ruleset).new_game(config, 7)
    pick = stream(7, "listed", ruleset)
    moves = refused = 0
    while not state.is_over and moves < length:
        # What the rules say now, asked of a copy (a copy carries no list).
        legal_now = {s: set(state.clone().legal_actions(s)) for s in state.to_act()}
        olds = pick.sample(every, min(12, len(every)))
        for old in olds:  # the list of the position before is the one kept, if any
            ok = old in legal_now.get(old.seat, set())
            assert state.is_legal(old) is ok, (old, state.to_act())
            refused += not ok
        seat = pick.choice(sorted(state.to_act()))
        listed = state.legal_actions(seat)
        every += listed
        chosen = pick.choice(listed)
        listed += olds  # the caller's list is the caller's to change
        for old in olds:
            assert state.is_legal(old) is (old in legal_now.get(old.seat, set())), old
        state.apply(chosen)
        moves += 1
    assert refused > 0  # some listed action was later illegal, and was refused


@pytest.mark.parametrize(("ruleset", "config", "length"), CASES, ids=IDS)
def test_refusals_change_nothing_and_name_their_rule(
    ruleset: str, config: dict[str, Any], length: int
) -> None:
    builtin = not ruleset.startswith("tests.")
    pick = stream(6, "refusals", ruleset)
    for n, rec in enumerate(games(ruleset, config, length, seed=6)):
        if n % 7:
            continue
        state = rec.state
        before = fingerprint(state, seats_of(state))
        for action in _illegal(state, pick)[:25]:
            with pytest.raises(IllegalActionError) as info:
                state.apply(action)
            err = info.value
            assert isinstance(err, RulesError) and err.reason.strip()
            well_formed = not isinstance(err, MalformedActionError) or err.rule is not None
            if builtin and well_formed and action.seat in state.to_act() and not state.is_over:
                assert err.rule, (action, err.reason)
        assert fingerprint(state, seats_of(state)) == before


@pytest.mark.parametrize(("ruleset", "config", "length"), CASES, ids=IDS)
def test_the_notation_reads_every_legal_action_back(
    ruleset: str, config: dict[str, Any], length: int
) -> None:
    rs = get_ruleset(ruleset)
    for rec in games(ruleset, config, length, seed=7):
        state = rec.state
        for seat in sorted(state.to_act()):
            for a in state.legal_actions(seat):
                parsed = rs.parse_actions(str(a), seat, state)
                assert parsed[0] == a and all(p.seat == seat for p in parsed), a
                assert Action.from_json(json.loads(json.dumps(a.to_json()))) == a


@pytest.mark.parametrize(("ruleset", "config", "length"), CASES, ids=IDS)
def test_the_same_seed_plays_the_same_game(
    ruleset: str, config: dict[str, Any], length: int
) -> None:
    *_, first = games(ruleset, config, length, seed=8)
    *_, second = games(ruleset, config, length, seed=8)
    assert first.record().digests == second.record().digests
    assert first.record().to_json()["actions"] == second.record().to_json()["actions"]


#: Options that make a game short, for the tests that play to the end.
SHORT: dict[str, dict[str, Any]] = {"specter-ops": {"max_rounds": 3}, "rock-n-roll": {"rounds": 1}}


@pytest.mark.parametrize(("ruleset", "config", "length"), CASES, ids=IDS)
def test_after_the_end_everything_is_refused(
    ruleset: str, config: dict[str, Any], length: int
) -> None:
    rs = get_ruleset(ruleset)
    rec = Recorder(rs, {**config, **SHORT.get(ruleset, {})}, 9)
    pick = stream(9, "to-the-end", ruleset)
    while not rec.state.is_over and len(rec.actions) < rs.metadata.max_length:
        seat = pick.choice(sorted(rec.state.to_act()))
        rec.apply(pick.choice(list(rec.state.legal_actions(seat))))
    state = rec.state
    if not state.is_over:
        pytest.skip("no end within the game's maximum length")
    assert not state.to_act()
    enc = rs.cached_encoding(state.config)
    assert enc is not None
    for seat in seats_of(state):
        assert not state.legal_actions(seat)
        for kind in sorted(enc.kinds())[:6]:
            with pytest.raises(IllegalActionError):
                state.apply(Action(seat, kind, enc.forms(kind)[0]))


@pytest.mark.parametrize(("ruleset", "config", "length"), CASES, ids=IDS)
def test_sampled_worlds_give_the_seat_its_view(
    ruleset: str, config: dict[str, Any], length: int
) -> None:
    # A rule set that offers sample_world gives back the seat's own view and legal list
    # from a world drawn from that view alone; one that does not says so.
    rs = get_ruleset(ruleset)
    if not rs.can_sample_worlds:
        state = rs.new_game(config, 0)
        with pytest.raises(NotImplementedError):
            rs.sample_world(state.view(seats_of(state)[0]), stream(0, "world"))
        return
    draw = stream(1, "conformance-world", ruleset)
    for rec in games(ruleset, config, min(length, 60), 1):
        state = rec.state
        for seat in seats_of(state):
            view = state.view(seat)
            world = rs.sample_world(view, draw)
            assert world.view(seat).canonical() == view.canonical()
            assert list(world.legal_actions(seat)) == list(state.legal_actions(seat))
            assert world.to_act() == state.to_act()


@pytest.mark.parametrize(("ruleset", "config", "length"), CASES, ids=IDS)
def test_the_seats_legal_actions_play_in_its_sampled_world(
    ruleset: str, config: dict[str, Any], length: int
) -> None:
    # Every legal action of the acting seat applies in a world drawn from its view (a
    # copy of the world for each; up to 6 of them, spread over the legal list, at every
    # third position): the world is one the seat could be playing.
    rs = get_ruleset(ruleset)
    if not rs.can_sample_worlds:
        pytest.skip("no sample_world")
    draw = stream(2, "conformance-replay", ruleset)
    tried = 0
    for n, rec in enumerate(games(ruleset, config, min(length, 60), 3)):
        state = rec.state
        if n % 3 or state.is_over:
            continue
        for seat in sorted(state.to_act()):
            world = rs.sample_world(state.view(seat), draw)
            legal = list(world.legal_actions(seat))
            for a in legal[:: max(1, -(-len(legal) // 6))]:
                copy = world.clone()
                copy.apply(a)  # raises IllegalActionError if the world refuses it
                tried += 1
    assert tried > 0


@pytest.mark.parametrize(("ruleset", "config", "length"), CASES, ids=IDS)
@settings(max_examples=15, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 80), key=st.integers(0, 2**32 - 1))
def test_property_a_world_drawn_from_any_view_is_that_seats_game(
    ruleset: str, config: dict[str, Any], length: int, seed: int, steps: int, key: int
) -> None:
    # The property, over games and positions Hypothesis draws: for every seat, a world
    # sampled from its view gives it the same view (byte for byte), the same legal
    # list and the same seats to act, and each of its legal actions (up to 4, spread)
    # applies there.
    rs = get_ruleset(ruleset)
    if not rs.can_sample_worlds:
        return
    state = rs.new_game(config, seed)
    pick = stream(seed, "property-walk", ruleset)
    for _ in range(min(steps, length)):
        if state.is_over:
            break
        seat = pick.choice(sorted(state.to_act()))
        state.apply(pick.choice(list(state.legal_actions(seat))))
    draw = stream(key, "property-world", ruleset)
    for seat in seats_of(state):
        view = state.view(seat)
        world = rs.sample_world(view, draw)
        assert world.view(seat).canonical() == view.canonical()
        legal = list(world.legal_actions(seat))
        assert legal == list(state.legal_actions(seat))
        assert world.to_act() == state.to_act()
        for a in legal[:: max(1, -(-len(legal) // 4))]:
            world.clone().apply(a)


@pytest.mark.parametrize(("ruleset", "config", "length"), CASES, ids=IDS)
def test_a_state_that_skips_views_plays_the_same_game(
    ruleset: str, config: dict[str, Any], length: int
) -> None:
    # A copy made for search (clone(search=True): it skips what only views need) offers
    # the same legal actions, makes the same seats act and reaches the same outcome as
    # the state it was copied from, action after action.
    rs = get_ruleset(ruleset)
    for seed in (1, 2):
        full = rs.new_game(config, seed)
        fast = full.clone(search=True)
        pick = stream(seed, "skip-views", ruleset)
        while not full.is_over:
            assert fast.to_act() == full.to_act()
            actor = min(full.to_act())
            legal = list(full.legal_actions(actor))
            assert list(fast.legal_actions(actor)) == legal
            action = pick.choice(legal)
            full.apply(action)
            fast.apply(action)
        assert fast.outcome() == full.outcome()


def _same_game(a: State, b: State, pick: Stream, actions: int, *, views: bool) -> None:
    """``a`` and ``b`` play ``actions`` random actions alike: the same seats to act, legal
    lists and outcome at every step, and (``views``) every seat's same view."""
    for _ in range(actions):
        assert a.to_act() == b.to_act()
        if views:
            for seat in seats_of(a):
                assert a.view(seat).canonical() == b.view(seat).canonical()
        if a.is_over:
            break
        actor = min(a.to_act())
        legal = list(a.legal_actions(actor))
        assert list(b.legal_actions(actor)) == legal
        action = pick.choice(legal)
        a.apply(action)
        b.apply(action)
    assert a.outcome() == b.outcome()


@pytest.mark.parametrize(("ruleset", "config", "length"), CASES, ids=IDS)
def test_a_world_sampler_draws_the_worlds_of_sample_world(
    ruleset: str, config: dict[str, Any], length: int
) -> None:
    # Ruleset.world_sampler(view)(stream) is the world sample_world(view, stream) draws,
    # draw after draw from one sampler (what a rule set keeps for the view's later draws
    # must not leak from one world into the next): every seat's view the same, and the
    # same game played on; with views=False, the same game played on to its end (the
    # world's own rolls included).
    rs = get_ruleset(ruleset)
    if not rs.can_sample_worlds:
        return
    for rec in games(ruleset, config, min(length, 60), 5):
        if len(rec.actions) % 10:
            continue
        state = rec.state
        for seat in seats_of(state):
            view = state.view(seat)
            sampler = rs.world_sampler(view)
            for i in range(2):
                # The same stream, new for each draw (a draw moves its stream on).
                key = (6, "sampler", len(rec.actions), seat, i)
                drawn = sampler(stream(*key))
                plain = rs.sample_world(view, stream(*key))
                _same_game(drawn, plain, stream(*key).fork("play"), 8, views=True)
                fast = sampler(stream(*key), views=False)
                plain = rs.sample_world(view, stream(*key))
                plain.skip_views()
                _same_game(
                    fast, plain, stream(*key).fork("play"), rs.metadata.max_length, views=False
                )


@pytest.mark.parametrize(("ruleset", "config", "length"), CASES, ids=IDS)
def test_sampled_worlds_come_from_the_views_json_alone(
    ruleset: str, config: dict[str, Any], length: int
) -> None:
    # A view read back from its JSON (what a seat receives on the wire) draws the same
    # world from the same stream as the view object itself: a world is made from what
    # the seat received, never from anything the view object might still reach. The
    # two worlds then play the same random actions alike.
    rs = get_ruleset(ruleset)
    if not rs.can_sample_worlds:
        return
    for rec in games(ruleset, config, min(length, 40), 2):
        if len(rec.actions) % 8:
            continue
        state = rec.state
        for seat in seats_of(state):
            view = state.view(seat)
            wire = PlayerView(view.ruleset, view.seat, json.loads(json.dumps(dict(view.data))))
            a = rs.sample_world(view, stream(3, "twin", len(rec.actions)))
            b = rs.sample_world(wire, stream(3, "twin", len(rec.actions)))
            pick = stream(4, "twin-play")
            for _ in range(12):
                assert a.view(seat).canonical() == b.view(seat).canonical()
                if a.is_over:
                    break
                actor = min(a.to_act())
                action = pick.choice(list(a.legal_actions(actor)))
                a.apply(action)
                b.apply(action)


@pytest.mark.parametrize(("ruleset", "config", "length"), CASES, ids=IDS)
def test_the_evaluation_gives_every_seat_a_chance(
    ruleset: str, config: dict[str, Any], length: int
) -> None:
    # A rule set's evaluation (search's cut-off rollouts): one finite feature per name
    # of its model, a value in (0, 1) for every seat, the side's chance for its seats
    # and the complement for the others; the same features from a copy made for search
    # played beside the state (it skips what only views need: the evaluation reads the
    # state alone); and at the end of the game the side's seats are the winners or the
    # losers together, as the outcome says.
    rs = get_ruleset(ruleset)
    ev = rs.evaluation(rs.resolve_config(config))
    if ev is None:
        return
    for seed in (5, 6):
        state = rs.new_game(config, seed)
        fast = state.clone(search=True)
        pick = stream(seed, "evaluation", ruleset)
        asked = 0
        while not state.is_over:
            if asked < 30 and pick.randbelow(8) == 0:
                features = ev.features(state)
                assert len(features) == len(ev.model.names)
                assert all(isinstance(f, float) and np.isfinite(f) for f in features)
                assert ev.features(fast) == features
                p = ev.chance(state)
                assert 0 < p < 1
                on = [s for s in seats_of(state) if ev.on_side(state, s)]
                assert on, "the model's side has a seat"
                for seat in seats_of(state):
                    assert ev(state, seat) == (p if seat in on else 1 - p)
                asked += 1
            actor = min(state.to_act())
            action = pick.choice(list(state.legal_actions(actor)))
            state.apply(action)
            fast.apply(action)
        assert asked
        outcome = state.outcome()
        assert outcome is not None
        if not outcome.is_draw:
            side = {s for s in seats_of(state) if ev.on_side(state, s)}
            assert outcome.winners in (side, set(seats_of(state)) - side), (outcome, side)
