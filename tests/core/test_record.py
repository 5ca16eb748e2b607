"""Game records: JSON round trips, replay, versions and bad files."""

from __future__ import annotations

import dataclasses
import json
import pickle
from pathlib import Path

import pytest

import fogofwar
from fogofwar.core.errors import BadDataError, IllegalActionError, RulesError
from fogofwar.core.game import Action, Outcome, State
from fogofwar.core.record import (
    FORMAT_VERSION,
    Record,
    Recorder,
    RecordVersionError,
    ReplayError,
    outcome_from_json,
)
from fogofwar.core.rng import stream
from fogofwar.core.secret import commitment
from tests.example_game import EXAMPLE, HIDER, SEEKER, HideAndSeek

SEATS = (HIDER, SEEKER, None)


def views(state: State) -> dict[str | None, str]:
    return {seat: state.view(seat).canonical() for seat in SEATS}


def played(seed: int = 3, *, finish: bool = True, **config: int) -> Recorder:
    """A recorder after a random game (or its first 15 actions)."""
    rec = Recorder(EXAMPLE, config, seed, meta={"note": "test"})
    rng = stream(seed, "record-test")
    while not rec.state.is_over and (finish or len(rec.actions) < 15):
        seat = sorted(rec.state.to_act())[0]
        rec.apply(rng.choice(list(rec.state.legal_actions(seat))))
    return rec


# --------------------------------------------------------------------------- replay


def test_a_record_replays_to_the_same_state() -> None:
    for seed in range(5):
        rec = played(seed, cells=7)
        record = rec.record()
        assert record.outcome is not None and record.outcome == rec.state.outcome()
        final = record.replay()
        assert views(final) == views(rec.state)
        assert final.outcome() == rec.state.outcome()
        for seat in (HIDER, SEEKER):
            assert list(final.legal_actions(seat)) == list(rec.state.legal_actions(seat))


def test_an_unfinished_record_replays_too() -> None:
    rec = played(finish=False)
    record = rec.record()
    assert record.outcome is None and len(record.actions) == 15
    assert views(record.replay()) == views(rec.state)


def test_states_steps_through_the_replay() -> None:
    record = played(4).record()
    snapshots = list(record.states())
    assert len(snapshots) == len(record.actions) + 1
    assert views(snapshots[0]) == views(EXAMPLE.new_game(record.config, record.seed))
    assert views(snapshots[-1]) == views(record.replay())
    assert len({id(s) for s in snapshots}) == len(snapshots)  # independent snapshots
    live = list(record.states(clone=False))
    assert len({id(s) for s in live}) == 1  # one live state, advanced


def test_the_recorder_keeps_only_legal_actions() -> None:
    rec = Recorder(EXAMPLE, {}, 1)
    with pytest.raises(RulesError):
        rec.apply(Action(HIDER, "bid", (7,)))
    rec.apply(Action(HIDER, "bid", (1,)))
    assert rec.actions == (Action(HIDER, "bid", (1,)),)
    assert rec.record().actions == rec.actions
    assert "1 actions" in repr(rec)


def test_record_metadata_fields() -> None:
    record = played(2).record()
    data = record.to_json()
    assert list(data) == [
        "format",
        "version",
        "engine",
        "ruleset",
        "ruleset_version",
        "config",
        "seeded",
        "commitment",
        "seed",
        "actions",
        "digests",
        "outcome",
        "meta",
    ]
    assert data["format"] == "fogofwar-record"
    assert data["version"] == FORMAT_VERSION == 2
    assert data["seeded"] is True and data["commitment"] == commitment(2)
    assert len(data["digests"]) == len(data["actions"])
    assert data["engine"] == fogofwar.__version__
    assert data["ruleset"] == "hide-and-seek"
    assert data["ruleset_version"] == EXAMPLE.version
    assert data["config"] == dict(EXAMPLE.resolve_config())
    assert data["seed"] == 2
    assert data["meta"] == {"note": "test"}
    assert data["actions"] == [a.to_json() for a in record.actions]
    assert data["actions"][0]["kind"] == "bid"


# --------------------------------------------------------------------------- files


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    record = played(6).record()
    path = tmp_path / "game.fwrec.json"
    record.save(path)
    text = path.read_text(encoding="utf-8")
    assert text.count('{"seat": ') == len(record.actions)  # one action a line
    assert json.loads(text) == record.to_json()
    loaded = Record.load(path)
    assert loaded == record
    assert loaded.source == str(path)
    assert views(loaded.replay()) == views(record.replay())


def test_an_empty_record_round_trips() -> None:
    record = Record("hide-and-seek", "1.0.0", dict(EXAMPLE.resolve_config()), "ab" * 16)
    assert Record.loads(record.dumps()) == record
    assert record.replay().view(None).data["round"] == 1


def test_bad_json_names_file_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{\n  "format": "fogofwar-record",\n  "version" 1\n}\n', encoding="utf-8")
    with pytest.raises(BadDataError) as info:
        Record.load(path)
    err = info.value
    assert (err.file, err.line, err.column) == (str(path), 3, 13)
    assert str(err).startswith(f"{path}:3:13: expected valid JSON")


def test_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(BadDataError, match="a record file that can be read"):
        Record.load(tmp_path / "missing.json")
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(BadDataError, match="UTF-8"):
        Record.load(binary)


def good() -> dict[str, object]:
    return played(1, finish=False).record().to_json()


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: [d], "a JSON object"),
        (lambda d: {**d, "format": "chess-pgn"}, '"format": "fogofwar-record"'),
        (lambda d: {**d, "version": "1"}, '"version": a positive integer'),
        (lambda d: {**d, "version": 0}, '"version": a positive integer'),
        (lambda d: {k: v for k, v in d.items() if k != "ruleset"}, '"ruleset": a non-empty'),
        (lambda d: {**d, "config": [1]}, '"config": an object'),
        (lambda d: {**d, "seed": True}, '"seed": an integer from 0'),
        (lambda d: {**d, "actions": {}}, '"actions": a list'),
        (lambda d: {**d, "actions": [*d["actions"][:2], {"seat": 1}]}, r"actions\[2\]"),
        (lambda d: {**d, "outcome": {"winners": "x"}}, '"outcome": null or'),
        (lambda d: {**d, "meta": 3}, '"meta": an object'),
        (lambda d: {**d, "extra": 1}, "only the fields"),
    ],
)
def test_schema_errors_say_what_was_expected(change: object, expected: str) -> None:
    data = change(good())  # type: ignore[operator]
    with pytest.raises(BadDataError, match=expected) as info:
        Record.loads(json.dumps(data), source="r.json")
    assert info.value.file == "r.json"


def test_a_newer_format_version_is_refused_clearly() -> None:
    data = {**good(), "version": FORMAT_VERSION + 1, "engine": "9.0.0"}
    with pytest.raises(RecordVersionError) as info:
        Record.loads(json.dumps(data), source="new.json")
    message = str(info.value)
    assert message.startswith("new.json: recorded with record format version 3 by fogofwar 9.0.0")
    assert f"this fogofwar plays {FORMAT_VERSION}" in message
    assert isinstance(info.value, BadDataError)
    assert str(pickle.loads(pickle.dumps(info.value))) == message


def test_another_major_ruleset_version_is_refused_but_a_minor_one_replays() -> None:
    record = played(2).record()
    newer = dataclasses.replace(record, ruleset_version="2.0.0", source="g.json")
    with pytest.raises(RecordVersionError) as info:
        newer.replay()
    assert str(info.value).startswith(
        "g.json: recorded with hide-and-seek version 2.0.0; this fogofwar plays 1.0.0"
    )
    minor = dataclasses.replace(record, ruleset_version="1.7.3")
    assert views(minor.replay()) == views(record.replay())


def test_an_illegal_recorded_action_names_its_index() -> None:
    record = played(2).record()
    actions = list(record.actions)
    actions[4] = Action(SEEKER, "dodge", (99,))
    broken = dataclasses.replace(record, actions=tuple(actions), source="bad.json")
    with pytest.raises(ReplayError) as info:
        broken.replay()
    err = info.value
    assert err.index == 4 and err.action == actions[4] and err.reason
    assert isinstance(err.__cause__, IllegalActionError)
    copy = pickle.loads(pickle.dumps(err))  # errors travel back from worker processes
    assert (str(copy), copy.index, copy.rule) == (str(err), err.index, err.rule)
    # The text counts from 1, as `replay --step` does ("after action 5 of ..."); the
    # index is the position in the record's actions.
    assert str(err).startswith("bad.json: action 5 (seeker: dodge 99) is illegal: ")
    # Stepping through yields the states before the bad action, then fails.
    steps = broken.states()
    for _ in range(5):
        next(steps)
    with pytest.raises(ReplayError):
        next(steps)


def test_a_wrong_recorded_outcome_is_detected() -> None:
    record = played(2).record()
    fake = Outcome(frozenset(), frozenset(), "a draw that never was")
    with pytest.raises(BadDataError, match="recorded outcome"):
        dataclasses.replace(record, outcome=fake).replay()


def test_replay_problems_with_config_and_ruleset() -> None:
    record = played(2).record()
    with pytest.raises(BadDataError, match="a config for hide-and-seek"):
        dataclasses.replace(record, config={**record.config, "cells": 1000}).replay()
    with pytest.raises(RulesError, match="unknown rule set 'chess'"):
        dataclasses.replace(record, ruleset="chess").replay()

    class Other(HideAndSeek):
        id = "other-game"

    with pytest.raises(BadDataError, match="a record of other-game"):
        record.replay(Other())


def test_outcome_json_round_trip() -> None:
    o = Outcome(frozenset({HIDER}), frozenset({"hiders"}), "hidden", "EX-7")
    assert outcome_from_json(o.to_json()) == o
    with pytest.raises(BadDataError):
        outcome_from_json({"winners": [1], "sides": [], "reason": "x", "rule": None})


def test_a_game_resumed_from_its_stored_secret_is_not_seeded() -> None:
    # The web table rebuilds a game from its stored secret: the chain (and so every
    # digest) must be the one of the game as it was started, unseeded.
    first = Recorder(EXAMPLE, {}, None)
    secret = first.record().seed
    again = Recorder(EXAMPLE, {}, secret, seeded=False)
    assert again.seeded is False and again.commitment == first.commitment
    for rec in (first, again):
        rec.apply(rec.state.legal_actions(HIDER)[0])
        rec.apply(rec.state.legal_actions(SEEKER)[0])
    assert again.record().digests == first.record().digests
    assert Recorder(EXAMPLE, {}, secret).record().seeded is True
