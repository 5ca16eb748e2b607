"""Trying a path before sending it (``POST /api/tables/{id}/preview``): the steps legal
after a partial path, the trial's end at the step that decides something, refusals —
and that trying tells a seat nothing it could not know (the hidden agent moved to any
other square its hunters' views allow gives every hunter the same answers)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from fogofwar.core.game import Action, get_ruleset
from fogofwar.core.record import Recorder
from fogofwar.core.rng import stream
from fogofwar.games.specter_ops.state import SpecterOpsState
from fogofwar.server.hall import Refused, preview_actions

SO = get_ruleset("specter-ops")


def _agent_table(client: TestClient) -> tuple[str, str, str]:
    r = client.post(
        "/api/tables",
        json={
            "ruleset": "specter-ops",
            "seed": 7,
            "seats": {"agent": "human"},
            "config": {"characters": False},
        },
    )
    made = r.json()
    table = made["table"]
    tok = made["links"]["agent"].split("token=")[1]
    spectator = made["spectator"].split("token=")[1]
    return table, tok, spectator


def _message(client: TestClient, table: str, tok: str) -> dict[str, Any]:
    r = client.get(f"/api/tables/{table}/view", params={"token": tok})
    data: dict[str, Any] = r.json()
    return data


def _preview(client: TestClient, table: str, tok: str, **body: Any) -> Any:
    return client.post(f"/api/tables/{table}/preview", params={"token": tok}, json=body)


def _to_steps(client: TestClient, table: str, tok: str) -> dict[str, Any]:
    """Play the agent's setup choices (start square, cards) until it may step."""
    for _ in range(40):
        m = _message(client, table, tok)
        if any(a["kind"] == "step" for a in m["legal"]):
            return m
        a = m["legal"][0]
        client.post(
            f"/api/tables/{table}/actions",
            params={"token": tok},
            json={"action": a, "version": m["version"]},
        )
    raise AssertionError("the agent never came to step")


def test_a_path_is_tried_step_by_step_and_sent_whole(client: TestClient) -> None:
    # SO-A1: the agent steps 0-4 squares; each tried step shows the steps legal after
    # it, and the page sends the whole path at once as `move ...` (all or nothing).
    table, tok, _ = _agent_table(client)
    m = _to_steps(client, table, tok)
    path: list[dict[str, Any]] = []
    legal = [a for a in m["legal"] if a["kind"] == "step"]
    for _ in range(3):
        path.append(legal[0])
        r = _preview(client, table, tok, actions=path, version=m["version"])
        assert r.status_code == 200, r.text
        answer = r.json()
        assert answer["version"] == m["version"]
        assert all(a["kind"] == "step" for a in answer["legal"])
        assert answer["notation"] == [f"step {a['args'][0]}" for a in answer["legal"]]
        legal = answer["legal"]
        assert legal
    # Nothing changed by trying.
    assert _message(client, table, tok)["version"] == m["version"]
    squares = " ".join(a["args"][0] for a in path)
    r = client.post(
        f"/api/tables/{table}/actions",
        params={"token": tok},
        json={"notation": f"move {squares}", "version": m["version"]},
    )
    assert r.status_code == 200, r.text
    assert r.json()["version"] != m["version"]


def test_the_trial_ends_where_the_move_is_decided(client: TestClient) -> None:
    # SO-A1: the 4th step ends the agent's movement (SO-E2's answer follows): the trial
    # ends there, and a 5th step is refused as such.
    table, tok, _ = _agent_table(client)
    m = _to_steps(client, table, tok)
    path: list[dict[str, Any]] = []
    legal = [a for a in m["legal"] if a["kind"] == "step"]
    while legal:
        path.append(legal[-1])
        r = _preview(client, table, tok, actions=path, version=m["version"])
        assert r.status_code == 200, r.text
        legal = r.json()["legal"]
    assert len(path) == 4
    r = _preview(client, table, tok, actions=[*path, path[-1]], version=m["version"])
    assert r.status_code == 422
    assert "decided at action 4" in r.json()["message"]


def test_preview_refusals(client: TestClient) -> None:
    table, tok, spectator = _agent_table(client)
    m = _to_steps(client, table, tok)
    step = next(a for a in m["legal"] if a["kind"] == "step")
    stop = {"seat": "agent", "kind": "stop", "args": []}
    # A kind that decides something cannot be tried.
    r = _preview(client, table, tok, actions=[stop])
    assert r.status_code == 422 and "cannot be tried" in r.json()["message"]
    # SO-A1: an illegal step is refused with its rule, as sending it would be.
    bad = {"seat": "agent", "kind": "step", "args": ["A1"]}
    r = _preview(client, table, tok, actions=[bad])
    assert r.status_code == 422 and r.json()["rule"] == "SO-A1"
    # Another seat's action, the spectator, a stale version, a bad token, junk.
    hunter_step = {**step, "seat": "hunter1"}
    assert _preview(client, table, tok, actions=[hunter_step]).status_code == 403
    assert _preview(client, table, spectator, actions=[step]).status_code == 403
    r = _preview(client, table, tok, actions=[step], version=m["version"] - 1)
    assert r.status_code == 409
    assert _preview(client, table, "nope", actions=[step]).status_code == 403
    assert _preview(client, table, tok, actions=[]).status_code == 422
    assert _preview(client, table, tok, actions=[step] * 17).status_code == 422
    assert _preview(client, table, tok, actions="step N1").status_code == 422
    assert _preview(client, table, tok, actions=[{"kind": 3}]).status_code == 422
    assert _message(client, table, tok)["version"] == m["version"]


def _answers(state: SpecterOpsState, seat: str, paths: list[list[Action]]) -> list[Any]:
    out: list[Any] = []
    for path in paths:
        try:
            out.append(sorted(str(a) for a in preview_actions(SO, state, seat, path)))
        except Refused as exc:
            out.append(("refused", exc.reason, exc.rule))
    return out


def _paths(state: SpecterOpsState, seat: str, pick: Any, count: int) -> list[list[Action]]:
    paths = []
    for _ in range(count):
        trial, path = state.clone(), []
        for _ in range(5):
            steps = [a for a in trial.legal_actions(seat) if a.kind == "step"]
            if not steps:
                break
            path.append(pick.choice(steps))
            trial.apply(path[-1])
        if path:
            paths.append(path)
    return paths


@pytest.mark.parametrize(
    ("config", "games"),
    [
        ({"characters": False, "players": 2}, 4),
        ({}, 4),  # the default: 3 players with characters
        ({"players": 4, "characters": True}, 2),
        # The traitor's hidden role is the dimension this case is for.
        ({"characters": False, "players": 5}, 3),
    ],
    ids=["2p", "3p-characters", "4p-characters", "5p-traitor"],
)
def test_trying_steps_reveals_nothing_hidden(config: dict[str, Any], games: int) -> None:
    # SO-I1/SO-I2: a hunter knows only the possibility map of the hidden agent. Put the
    # agent on any other square of that map (every hunter's view stays the same) and
    # every tried path of every hunter gets the same answer, at its end (SO-E2's answer,
    # the Cobra's ambush) too.
    checked = 0
    for seed in range(games):
        rec = Recorder(SO, config, seed)
        pick = stream(seed, "preview-secrecy")
        while not rec.state.is_over and len(rec.actions) < 160:
            state = rec.state
            assert isinstance(state, SpecterOpsState)
            movers = [
                s
                for s in sorted(state.to_act())
                if s != "agent" and any(a.kind == "step" for a in state.legal_actions(s))
            ]
            agent = state.agents[0]
            if movers and agent.shown is None and len(rec.actions) % 3 == 0:
                seat = movers[0]
                paths = _paths(state, seat, pick, 6)
                truth = _answers(state, seat, paths)
                view = state.view(seat).canonical()
                bits = agent.knowledge.squares
                squares = [i for i in range(bits.bit_length()) if bits >> i & 1]
                for other in pick.sample(squares, min(4, len(squares))):
                    world = state.clone()
                    world.agents[0].square = other
                    if world.view(seat).canonical() != view:
                        continue
                    assert _answers(world, seat, paths) == truth
                    checked += 1
            seat = pick.choice(sorted(state.to_act()))
            rec.apply(pick.choice(list(state.legal_actions(seat))))
    assert checked >= 10
