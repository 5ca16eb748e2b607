"""The finished game replayed action by action (``GET /api/tables/{id}/replay``): closed
before the end, then any seat's view at any point of the record, the same as the game
showed it at the time."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from fogofwar.core.game import get_ruleset
from fogofwar.core.record import Record, Recorder


def _replay(client: TestClient, table: str, tok: str, **params: Any) -> Any:
    return client.get(f"/api/tables/{table}/replay", params={"token": tok, **params})


def test_the_replay_opens_after_the_end_and_shows_each_seat_its_views(
    client: TestClient,
) -> None:
    made = client.post(
        "/api/tables",
        json={
            "ruleset": "specter-ops",
            "seed": 11,
            "seats": {"agent": "human", "hunter1": "bot", "hunter2": "bot"},
        },
    ).json()
    table = made["table"]
    agent = made["links"]["agent"].split("token=")[1]
    spectator = made["spectator"].split("token=")[1]
    # Before the end the replay would show secrets: closed.
    assert _replay(client, table, spectator).status_code == 403
    # The agent plays its first legal action every time until the game ends.
    for _ in range(3000):
        m = client.get(f"/api/tables/{table}/view", params={"token": agent}).json()
        if m["over"]:
            break
        if m["legal"]:
            client.post(
                f"/api/tables/{table}/actions",
                params={"token": agent},
                json={"action": m["legal"][0], "version": m["version"]},
            )
        else:
            time.sleep(0.005)
    assert m["over"]
    total = m["actions"]  # told after the end, with every secret
    assert total == len(
        Record.from_json(
            client.get(f"/api/tables/{table}/record", params={"token": spectator}).json()
        ).actions
    )
    record = client.get(f"/api/tables/{table}/record", params={"token": spectator}).json()
    # The same game, replayed here, gives the views the replay shows at each point.
    rs = get_ruleset("specter-ops")
    rec = Recorder(rs, record["config"], 11)
    moves = Record.from_json(record).actions
    checks = sorted({0, 1, 2, total // 2, total - 1, total})
    for at in range(total + 1):
        if at in checks:
            for seat in ("agent", "hunter1", "spectator"):
                r = _replay(client, table, spectator, at=at, seat=seat)
                assert r.status_code == 200, r.text
                got = r.json()
                assert got["version"] == at and got["of"] == total
                who = None if seat == "spectator" else seat
                assert got["view"] == rec.state.view(who).to_json()
                assert got["to_act"] == sorted(rec.state.to_act())
                assert got["action"] == (None if at == 0 else str(moves[at - 1]))
                assert got["sentences"] == [rs.describe_event(e) for e in got["events"]]
        if at < total:
            rec.apply(moves[at])
    # By default a link replays its own seat's view; beyond the end is the end.
    mine = _replay(client, table, agent, at=1).json()
    assert mine["seat"] == "agent"
    assert _replay(client, table, agent, at=10**6).json()["version"] == total
    assert _replay(client, table, agent, seat="nobody").status_code == 400
    assert _replay(client, table, "wrong").status_code == 403
