"""The web table's websocket as a real server answers it (uvicorn, as ``fogofwar
serve`` runs it), where the in-process test client differs: a refused link learns why
from the close code, and a frame over the API's limit is answered, not cut off."""

from __future__ import annotations

import json

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from fogofwar.server.hall import MAX_MESSAGE

from .conftest import LiveServer


def ws_url(live: LiveServer, table: str, token: str) -> str:
    return live.url.replace("http://", "ws://") + f"/ws/tables/{table}?token={token}"


@pytest.mark.parametrize(("which", "code"), [("bad token", 4403), ("no such table", 4404)])
def test_a_refused_link_is_closed_with_its_code_and_reason(
    live: LiveServer, which: str, code: int
) -> None:
    # docs/server.md: a token that is not a link of the table closes the connection
    # with 4403 (4404 for no such table) and the reason: not a bare HTTP 403.
    t = live.table(ruleset="warfighter", seats={"squad": "human"})
    table = t["table"] if which == "bad token" else "0" * 16
    token = "bad" if which == "bad token" else t["links"]["squad"].split("token=")[1]
    with connect(ws_url(live, table, token)) as ws, pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=10)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == code and closed.value.rcvd.reason


def test_a_frame_over_the_limit_is_answered_and_the_connection_stays(live: LiveServer) -> None:
    # docs/server.md: a frame over 64 KiB gets a too_large error and the connection
    # stays open (the server reads frames up to 1 MiB to say so).
    t = live.table(ruleset="warfighter", seats={"squad": "human"})
    token = t["links"]["squad"].split("token=")[1]
    with connect(ws_url(live, t["table"], token)) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
        ws.send(json.dumps({"notation": "x" * (MAX_MESSAGE + 5000)}))
        answer = json.loads(ws.recv(timeout=10))
        assert answer["type"] == "error" and answer["error"] == "too_large"
        ws.send(json.dumps({"notation": "nonsense"}))
        assert json.loads(ws.recv(timeout=10))["type"] == "error"  # still open
