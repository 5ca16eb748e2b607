"""Secrets on the wire, measured: two tables with the same seed, whose hidden play
differs while every public fact agrees, send byte-identical websocket frames and API
answers to every seat that cannot tell them apart, and to the spectator."""

from __future__ import annotations

import json
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fogofwar.core.game import Action, get_ruleset
from fogofwar.core.rng import stream
from fogofwar.server.hall import Hall, Table

# (rule set, config, the seats whose play is hidden, the kinds of their hidden actions,
# actions to play)
CASES = [
    ("tests.example_game:HideAndSeek", {}, ("hider",), ("step",), 80),
    ("specter-ops", {"characters": False, "players": 2}, ("agent",), ("step",), 60),
    ("specter-ops", {"characters": False, "players": 4}, ("agent",), ("step",), 60),
]


def _token(url: str) -> str:
    return url.split("token=", 1)[1]


def _observers_see_the_same(a: Table, b: Table, observers: list[str | None]) -> bool:
    return all(
        a.recorder.state.view(s).canonical() == b.recorder.state.view(s).canonical()
        and a.recorder.state.legal_actions(s) == b.recorder.state.legal_actions(s)
        if s is not None
        else a.recorder.state.view(s).canonical() == b.recorder.state.view(s).canonical()
        for s in observers
    )


def _alternative(
    a: Table, b: Table, action: Action, observers: list[str | None], kinds: tuple[str, ...]
) -> Action:
    """Another legal action of the hidden seat at table ``b`` after which the observers
    see at ``b`` what they see at ``a`` after ``action`` (else ``action`` itself)."""
    after_a = a.recorder.state.clone()
    after_a.apply(action)
    if action.kind not in kinds:
        return action
    for other in b.recorder.state.legal_actions(action.seat):
        if other == action or other.kind != action.kind:
            continue
        after_b = b.recorder.state.clone()
        after_b.apply(other)
        if all(after_a.view(s).canonical() == after_b.view(s).canonical() for s in observers):
            return other
    return action


@pytest.mark.parametrize(("ruleset", "config", "hidden", "kinds", "length"), CASES)
def test_same_public_facts_same_bytes(
    client: TestClient,
    ruleset: str,
    config: dict[str, Any],
    hidden: tuple[str, ...],
    kinds: tuple[str, ...],
    length: int,
) -> None:
    hall: Hall = client.app.state.hall  # type: ignore[attr-defined]
    # Every seat human, so that the test chooses every action at both tables.
    seats = {s: "human" for s in _seats(ruleset, config)}
    made = []
    for _ in range(2):
        r = client.post(
            "/api/tables", json={"ruleset": ruleset, "config": config, "seed": 11, "seats": seats}
        )
        assert r.status_code == 201, r.text
        made.append(r.json())
    a, b = (hall.table(m["table"]) for m in made)
    observers: list[str | None] = [s for s in a.players if s not in hidden] + [None]
    differed = 0
    with ExitStack() as stack:
        sockets = []
        for m in made:
            links = {s: _token(u) for s, u in m["links"].items()}
            links_by_seat: dict[str | None, str] = {**links, None: _token(m["spectator"])}
            sockets.append(
                {
                    s: stack.enter_context(
                        client.websocket_connect(
                            f"/ws/tables/{m['table']}?token={links_by_seat[s]}"
                        )
                    )
                    for s in observers
                }
            )
        frames: list[list[str]] = [[], []]
        for side in (0, 1):
            for s in observers:
                frames[side].append(sockets[side][s].receive_text())
        compared = 0
        pick = stream(5, "wire", ruleset)
        for _ in range(length):
            if a.over:
                break
            seat = sorted(a.recorder.state.to_act())[0]
            legal = a.recorder.state.legal_actions(seat)
            action = pick.choice(legal)
            other = _alternative(a, b, action, observers, kinds) if seat in hidden else action
            shown = {s: a.seat_version(s) for s in observers}
            for m, chosen in ((made[0], action), (made[1], other)):
                r = client.post(
                    f"/api/tables/{m['table']}/actions",
                    params={"token": _token(m["links"][seat])},
                    json={"action": chosen.to_json()},
                )
                assert r.status_code == 200, r.text
            if not _observers_see_the_same(a, b, observers):
                # The different hidden play has become public (a search found the hider
                # at one table only): from here the games may differ on the wire.
                break
            differed += other != action
            compared += 1
            for s in observers:
                # A link is pushed a frame when what it shows changed, and only then:
                # at both tables alike, since they show the same.
                assert a.seat_version(s) == b.seat_version(s)
                if a.seat_version(s) != shown[s]:
                    for side in (0, 1):
                        frames[side].append(sockets[side][s].receive_text())
            # Each observer's API answer is the same bytes too.
            for s in observers:
                tokens = [
                    _token(m["spectator"]) if s is None else _token(m["links"][s]) for m in made
                ]
                answers = [
                    client.get(f"/api/tables/{m['table']}/view", params={"token": t}).content
                    for m, t in zip(made, tokens, strict=True)
                ]
                assert answers[0] == answers[1]
        assert frames[0] == frames[1]
    # The hidden play really differed while the public facts agreed: the test compared
    # two different games, over many actions.
    assert differed > 0 and compared >= 10


def _seats(ruleset: str, config: dict[str, Any]) -> list[str]:
    rs = get_ruleset(ruleset)
    return list(rs.seats(rs.resolve_config(config)))


def _so_tables(client: TestClient, n: int = 2) -> list[dict[str, Any]]:
    """``n`` Specter Ops tables (2 players, the base game) with one seed, every seat a
    person's."""
    made = []
    for _ in range(n):
        r = client.post(
            "/api/tables",
            json={
                "ruleset": "specter-ops",
                "config": {"characters": False, "players": 2},
                "seed": 11,
                "seats": {"agent": "human", "hunter1": "human"},
            },
        )
        assert r.status_code == 201, r.text
        made.append(r.json())
    return made


def _send(client: TestClient, m: dict[str, Any], seat: str, notation: str) -> dict[str, Any]:
    r = client.post(
        f"/api/tables/{m['table']}/actions",
        params={"token": _token(m["links"][seat])},
        json={"notation": notation},
    )
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    return answer


def test_an_unseen_moves_length_is_not_on_the_wire(client: TestClient) -> None:
    # SO-A4: movement is secret. One step at one table, three at the other, each step
    # sent on its own: the hunters and the spectator are sent the same bytes, and
    # nothing at all while the agent moves (a version counting actions, or a push a
    # step, told them how many steps the agent took).
    a, b = _so_tables(client)
    hall: Hall = client.app.state.hall  # type: ignore[attr-defined]
    with ExitStack() as stack:
        sockets = [
            {
                who: stack.enter_context(
                    client.websocket_connect(f"/ws/tables/{m['table']}?token={_token(url)}")
                )
                for who, url in (("hunter1", m["links"]["hunter1"]), (None, m["spectator"]))
            }
            for m in (a, b)
        ]
        first = [{who: ws.receive_text() for who, ws in side.items()} for side in sockets]
        assert first[0] == first[1]
        versions = {who: hall.table(b["table"]).seat_version(who) for who in ("hunter1", None)}
        agent_versions = set()
        for notation in ("step N2", "step N3", "step N4"):
            _send(client, b, "agent", notation)
            agent_versions.add(hall.table(b["table"]).seat_version("agent"))
            # The agent's own link changes at every step; the others' do not.
            assert {
                who: hall.table(b["table"]).seat_version(who) for who in ("hunter1", None)
            } == versions
        assert len(agent_versions) == 3
        _send(client, b, "agent", "stop")
        _send(client, a, "agent", "step N2")
        _send(client, a, "agent", "stop")
        for who in ("hunter1", None):
            answers = [
                client.get(
                    f"/api/tables/{m['table']}/view",
                    params={"token": _token(m["spectator"] if who is None else m["links"][who])},
                ).content
                for m in (a, b)
            ]
            assert answers[0] == answers[1]
            # The next frame is the move's end (no frame came for a step): the same.
            frames = [json.loads(side[who].receive_text()) for side in sockets]
            assert frames[0] == frames[1]
            assert [e["kind"] for e in frames[0]["events"]] == ["agent_moved"], frames[0]


def test_a_bots_pause_runs_from_the_last_public_change(db: Any) -> None:
    # A bot agent paced a pause a step took longer for a longer move: the hunters could
    # time it. A bot acts a pause after the last change to the public facts, which an
    # unseen step is not.
    from fogofwar.server.store import Store

    hall = Hall(Store(db), bot_pause=0.5)
    table, _, _ = hall.create(
        "specter-ops",
        {"characters": False, "players": 2},
        {"agent": "human", "hunter1": "human"},
        seed=11,
    )
    start = hall.pause_until(table)
    assert start == table.public_at + 0.5
    for square in ("N2", "N3", "N4"):
        hall.act(table, "agent", notation=f"step {square}")
        assert hall.pause_until(table) == start  # nothing public: the same moment
    hall.act(table, "agent", notation="stop")  # the move's end is public (SO-A5, SO-I2)
    assert hall.pause_until(table) > start
    hall.store.close()


def test_an_action_is_stale_only_when_its_links_view_changed(client: TestClient) -> None:
    (m,) = _so_tables(client, 1)
    hall: Hall = client.app.state.hall  # type: ignore[attr-defined]
    table = hall.table(m["table"])
    hunter = table.seat_version("hunter1")
    agent = _send(client, m, "agent", "step N2")["version"]
    assert agent == table.seat_version("agent")
    # The agent's old version is stale; the hunter's is not: nothing it sees changed.
    r = client.post(
        f"/api/tables/{m['table']}/actions",
        params={"token": _token(m["links"]["agent"])},
        json={"notation": "stop", "version": agent + 1},
    )
    assert r.status_code == 409 and r.json()["version"] == agent
    assert table.seat_version("hunter1") == hunter
    _send(client, m, "agent", "stop")
    assert table.seat_version("hunter1") != hunter
    # A table rebuilt from the store (a restart) gives every link the same version.
    versions = {s: table.seat_version(s) for s in ("agent", "hunter1", None)}
    hall.tables.clear()
    again = hall.table(m["table"])
    assert again is not table
    assert {s: again.seat_version(s) for s in ("agent", "hunter1", None)} == versions
