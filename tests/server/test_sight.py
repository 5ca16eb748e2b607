"""The web table's sight on hover: ``GET /api/tables/{id}/sight?token=...&square=K7``
(the rule set's ``sight_json`` from the link's view), through FastAPI's test client."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fogofwar.core.game import get_ruleset
from fogofwar.server.app import create_app
from fogofwar.server.hall import Hall
from fogofwar.server.store import Store

ZD = get_ruleset("zero-dark")


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[Hall]:
    h = Hall(Store(tmp_path / "tables.db"), bot_pause=0.0)
    yield h
    h.store.close()


@pytest.fixture
def client(hall: Hall) -> Iterator[TestClient]:
    with TestClient(create_app(hall)) as c:
        yield c


def token(url: str) -> str:
    return url.split("token=", 1)[1]


def new_table(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def sight(client: TestClient, table: str, tok: str, square: str) -> Any:
    return client.get(f"/api/tables/{table}/sight", params={"token": tok, "square": square})


def test_a_seat_gets_its_sight_and_the_spectator_the_public_one(
    client: TestClient, hall: Hall
) -> None:
    t = new_table(client, ruleset="zero-dark", seats={"team": "human"}, seed=2)
    state = hall.table(t["table"]).recorder.state
    config = hall.table(t["table"]).recorder.config
    h1 = state.position.model("H1")  # type: ignore[attr-defined]
    for tok, seat in ((token(t["links"]["team"]), "team"), (token(t["spectator"]), None)):
        r = sight(client, t["table"], tok, h1.square.name)
        assert r.status_code == 200, r.text
        got = r.json()["sight"]
        # The rule set's answer on that link's view (FR-L1…L5): H1 looks with its facing.
        assert got == ZD.sight_json(config, state.view(seat), h1.square.name)
        assert got["viewer"]["id"] == "H1" and got["seen"] and "field" in got
    # An empty square: a stand-in looks all round; off the map: an error, no squares.
    got = sight(client, t["table"], token(t["links"]["team"]), "L12").json()["sight"]
    assert got["viewer"]["id"] is None and "field" not in got
    got = sight(client, t["table"], token(t["spectator"]), "Z99").json()["sight"]
    assert got["error"] and got["seen"] == []


def test_versus_each_team_and_the_spectator_get_their_own_views_sight(
    client: TestClient, hall: Hall
) -> None:
    t = new_table(
        client,
        ruleset="zero-dark",
        config={"mode": "versus", "map": "zd-open"},
        seats={"team1": "human", "team2": "human"},
        seed=5,
    )
    table = hall.table(t["table"])
    links = {seat: token(url) for seat, url in t["links"].items()}
    links["spectator"] = token(t["spectator"])
    for seat, tok in links.items():
        view = table.recorder.state.view(None if seat == "spectator" else seat)
        square = view.data["models"][0]["squares"][0]
        got = sight(client, t["table"], tok, square).json()["sight"]
        assert got == ZD.sight_json(table.recorder.config, view, square)


def test_refusals(client: TestClient) -> None:
    t = new_table(client, ruleset="zero-dark", seats={"team": "human"}, seed=2)
    tok = token(t["links"]["team"])
    # A token that is no link of the table: 403; no token at all: 403.
    assert sight(client, t["table"], "nope", "A1").status_code == 403
    assert client.get(f"/api/tables/{t['table']}/sight", params={"square": "A1"}).status_code == 403
    # No such table: 404.
    assert sight(client, "no-such-table", tok, "A1").status_code == 404
    # A square's name is short: a long one is a bad request.
    r = sight(client, t["table"], tok, "A" * 17)
    assert r.status_code == 400 and r.json()["error"] == "bad_request"
    # A game that shows no sight (Warfighter): 404.
    wf = new_table(client, ruleset="warfighter", seats={"squad": "human"}, seed=1)
    r = sight(client, wf["table"], token(wf["links"]["squad"]), "A1")
    assert r.status_code == 404 and r.json()["error"] == "not_found"
