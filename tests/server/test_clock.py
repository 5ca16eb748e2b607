"""Clocks at the web table: a time bank per human seat, spent while the seat is to act;
a seat out of time has its turn played by its default bot, announced to everyone; the
clocks survive a restart; bad clock options are refused."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fogofwar.server.app import create_app
from fogofwar.server.hall import Hall
from fogofwar.server.store import SCHEMA_VERSION, Store

EXAMPLE = "tests.example_game:HideAndSeek"


def _client(db: Path) -> tuple[Hall, TestClient]:
    hall = Hall(Store(db), bot_pause=0.0)
    return hall, TestClient(create_app(hall))


def _new(client: TestClient, **options: Any) -> tuple[str, dict[str, str], str]:
    r = client.post(
        "/api/tables",
        json={
            "ruleset": EXAMPLE,
            "seats": {"hider": "human", "seeker": "human"},
            "seed": 5,
            "options": options,
        },
    )
    assert r.status_code == 201, r.text
    made = r.json()
    tokens = {s: u.split("token=")[1] for s, u in made["links"].items()}
    return made["table"], tokens, made["spectator"].split("token=")[1]


def _view(client: TestClient, table: str, tok: str) -> dict[str, Any]:
    r = client.get(f"/api/tables/{table}/view", params={"token": tok})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def _wait(client: TestClient, table: str, tok: str, actions: int) -> dict[str, Any]:
    """The link's message once the table has accepted ``actions`` actions (a count no
    link is told: a link's version changes only with what it shows)."""
    hall: Hall = client.app.state.hall  # type: ignore[attr-defined]
    for _ in range(200):
        if hall.table(table).version >= actions:
            return _view(client, table, tok)
        time.sleep(0.02)
    raise AssertionError(f"the table never reached {actions} actions")


@pytest.fixture
def live(db: Path) -> Iterator[TestClient]:
    hall, client = _client(db)
    with client:
        yield client
    hall.store.close()


def test_a_table_without_clocks_says_so(live: TestClient) -> None:
    table, tokens, _ = _new(live)
    assert _view(live, table, tokens["hider"])["clocks"] is None


def test_the_clocks_of_the_seats_to_act_run_and_only_theirs(live: TestClient) -> None:
    table, tokens, spectator = _new(live, clock=600, clock_increment=5)
    # EX-1: both seats bid at once, so both clocks run.
    m = _view(live, table, tokens["hider"])
    assert m["to_act"] == ["hider", "seeker"]
    time.sleep(0.2)
    clocks = _view(live, table, spectator)["clocks"]
    assert clocks["hider"]["running"] and clocks["seeker"]["running"]
    assert 599 < clocks["hider"]["left"] < 599.9
    # The hider bids: its time is spent, the increment added, and its clock stops;
    # the seeker's runs on.
    r = live.post(
        f"/api/tables/{table}/actions",
        params={"token": tokens["hider"]},
        json={"action": m["legal"][0], "version": m["version"]},
    )
    assert r.status_code == 200, r.text
    clocks = r.json()["clocks"]
    assert 604 < clocks["hider"]["left"] < 605
    assert not clocks["hider"]["running"] and clocks["seeker"]["running"]
    time.sleep(0.1)
    later = _view(live, table, spectator)["clocks"]
    assert later["hider"] == clocks["hider"]
    assert later["seeker"]["left"] < clocks["seeker"]["left"]


def test_a_seat_out_of_time_has_its_turn_played_by_its_bot(live: TestClient) -> None:
    table, tokens, spectator = _new(live, clock=0.3)
    # Nobody acts: the first seat's bank runs out and its default bot plays for it,
    # announced to every link, the spectator's included.
    after = _wait(live, table, spectator, 1)
    assert min(c["left"] for c in after["clocks"].values()) == 0
    for tok in (spectator, *tokens.values()):
        events = _view(live, table, tok)["events"]
        notices = [e for e in events if e["kind"] == "out_of_time"]
        assert notices[0]["seat"] in tokens and notices[0]["bot"]
    # The other seat's clock runs out too, and the game goes on to its end by bots.
    for _ in range(500):
        if _view(live, table, spectator)["over"]:
            break
        time.sleep(0.02)
    final = _view(live, table, spectator)
    assert final["over"]
    assert {e["seat"] for e in final["events"] if e["kind"] == "out_of_time"} == set(tokens)


def test_without_an_increment_each_seat_is_told_once(live: TestClient) -> None:
    # Out of time for good, a seat's bot plays every later turn of it: the news is told
    # once a seat (docs/server.md, Clocks), not at each of its turns.
    table, tokens, spectator = _new(live, clock=0.2)
    for _ in range(500):
        if _view(live, table, spectator)["over"]:
            break
        time.sleep(0.02)
    final = _view(live, table, spectator)
    assert final["over"] and final["version"] > 2 * len(tokens)
    told = [e["seat"] for e in final["events"] if e["kind"] == "out_of_time"]
    assert sorted(told) == sorted(tokens)


def test_clocks_and_their_notices_survive_a_restart(db: Path) -> None:
    hall, client = _client(db)
    with client:
        table, tokens, spectator = _new(client, clock=0.3)
        _wait(client, table, spectator, 2)
    before = hall.tables[table]
    version = before.version
    events = [e.to_json() for e in before.seat_events(None)]
    left = {s: before.clock.left[s] for s in tokens} if before.clock else {}
    hall.store.close()
    hall2 = Hall(Store(db), bot_pause=0.0)
    again = hall2.table(table)
    assert again.version >= version
    assert [e.to_json() for e in again.seat_events(None)][: len(events)] == events
    assert again.timed_out == set(range(again.version)) or again.timed_out
    assert again.clock is not None
    for seat, value in left.items():
        assert again.clock.left[seat] <= value
    hall2.store.close()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"clock": 0}, "clock"),
        ({"clock": -5}, "clock"),
        ({"clock": "ten"}, "clock"),
        ({"clock": True}, "clock"),
        ({"clock": 10**9}, "clock"),
        ({"clock_increment": 5}, "only with a clock"),
        ({"clock": 60, "clock_increment": -1}, "clock_increment"),
    ],
)
def test_bad_clock_options_are_refused(
    live: TestClient, options: dict[str, Any], message: str
) -> None:
    r = live.post(
        "/api/tables",
        json={"ruleset": EXAMPLE, "seats": {"hider": "human"}, "options": options},
    )
    assert r.status_code == 400
    assert message in r.json()["message"]


def test_a_store_of_the_first_schema_is_migrated(db: Path) -> None:
    # A store written by the first schema (no clocks, no chosen_by) opens and gains
    # the columns, its tables intact.
    con = sqlite3.connect(db)
    con.executescript(
        """
        CREATE TABLE tables (id TEXT PRIMARY KEY, ruleset TEXT NOT NULL, config TEXT NOT NULL,
          seed TEXT NOT NULL, seeded INTEGER NOT NULL, commitment TEXT NOT NULL,
          seats TEXT NOT NULL, options TEXT NOT NULL, created TEXT NOT NULL, finished TEXT);
        CREATE TABLE tokens (hash TEXT PRIMARY KEY, table_id TEXT NOT NULL, seat TEXT);
        CREATE TABLE actions (table_id TEXT NOT NULL, idx INTEGER NOT NULL,
          action TEXT NOT NULL, digest TEXT NOT NULL, PRIMARY KEY (table_id, idx));
        PRAGMA user_version=1;
        """
    )
    con.close()
    store = Store(db)
    assert store._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    hall = Hall(store, bot_pause=0.0)
    table, _, _ = hall.create(EXAMPLE, {}, {"hider": "human"}, seed=1)
    assert store.actions_chosen(table.id) == []
    store.close()
