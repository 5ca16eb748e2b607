"""The web table against a hostile or careless client (a security review's findings,
each mended): no refusal tells what an unsent action would decide, no request reads more
than its limit, malformed input gets a clear 4xx and leaves the table as it was, and
what a request names stays inside what the server offers."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import socket
import sqlite3
import threading
import time
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from fogofwar.server import app as app_module
from fogofwar.server.app import SECURITY_HEADERS, create_app, uvicorn_config
from fogofwar.server.guard import MAX_BOT_SECONDS
from fogofwar.server.hall import Hall, NotFound
from fogofwar.server.store import Store

from .test_api import act, new_table, token, view


def _warfighter(client: TestClient, seed: int) -> tuple[str, str]:
    t = new_table(client, ruleset="warfighter", seats={"squad": "human"}, seed=seed)
    return t["table"], token(t["links"]["squad"])


def test_a_refusal_never_tells_what_an_unsent_action_decided(client: TestClient) -> None:
    # "check S1 K1; check S1 K1; ..." was tried as a whole on a copy and refused with
    # nothing played: "gained already" when the first check's roll succeeded, "0
    # Action(s) left" when it failed. A seat read the roll and could decline it. Now the
    # actions before the refused one are played for real where one of them decided
    # something, and the seat learns the roll as the game tells it.
    outcomes = set()
    for seed in range(8):
        table, tok = _warfighter(client, seed)
        hall: Hall = client.app.state.hall  # type: ignore[attr-defined]
        before = hall.table(table).version
        told = view(client, table, tok)["next"]
        r = act(client, table, tok, notation="check S1 K1; check S1 K1; move S1 L9")
        assert r.status_code == 422, r.text
        played = re.match(r"the first (\d) of 3 actions were played", r.json()["message"])
        assert played, r.text
        after = view(client, table, tok, since=told)
        assert hall.table(table).version == before + int(played[1])
        checks: list[dict[str, Any]] = [e for e in after["events"] if e["kind"] == "check"]
        assert len(checks) == int(played[1])
        outcomes.add(checks[0]["success"])
    assert outcomes == {True, False}  # both kinds of roll met, and both were played


def test_a_quiet_path_stays_all_or_nothing(client: TestClient) -> None:
    # A Specter Ops agent's steps decide nothing until the move ends: a path refused at
    # its third step plays none of it.
    t = new_table(
        client,
        ruleset="specter-ops",
        config={"characters": False},
        seats={"agent": "human"},
        seed=4,
    )
    table, tok = t["table"], token(t["links"]["agent"])
    start = view(client, table, tok)
    steps = [a["args"][0] for a in start["legal"] if a["kind"] == "step"]
    assert steps
    # Single steps (the "move" shorthand is checked whole by the rule set's parser).
    r = act(client, table, tok, notation=f"step {steps[0]}; step {steps[0]}")
    assert r.status_code == 422, r.text
    assert not r.json()["message"].startswith("the first")
    assert view(client, table, tok)["version"] == start["version"]


def test_a_page_for_a_crafted_table_address_runs_no_script(client: TestClient) -> None:
    # The 404 page quoted the address's table id as HTML.
    r = client.get("/t/%3Cimg%20src=x%20onerror=alert(1)%3E")
    assert r.status_code == 404
    assert "<img" not in r.text and "&lt;img src=x onerror=alert(1)&gt;" in r.text


def test_a_link_that_opens_no_table_says_so_in_words(client: TestClient) -> None:
    # The pages were a bare "<h1>NotFound</h1>" (a class name), with no way back.
    t = new_table(client, ruleset="warfighter", seats={"squad": "human"}, seed=1)
    cases = [
        (f"/t/{t['table']}?token=abc", 403, "This link opens no seat"),
        (f"/t/{t['table']}", 403, "This link opens no seat"),
        ("/t/NOPE1234", 404, "No such table"),
    ]
    for url, code, title in cases:
        r = client.get(url)
        assert r.status_code == code and title in r.text, url
        assert "NotFound" not in r.text and "Forbidden" not in r.text
        assert 'href="/"' in r.text and "/static/style.css" in r.text


def test_a_body_past_the_limit_is_not_read_whole(tmp_path: Path) -> None:
    # A body of hundreds of MiB was read into memory before its size was checked. Now
    # a declared length past the limit is refused unread, and a streamed body once the
    # limit is passed (a served app on a socket: the test client buffers bodies).
    hall = Hall(Store(tmp_path / "t.db"), bot_pause=0.0)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn_config(create_app(hall), host="127.0.0.1", port=port))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        head = b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        with socket.create_connection(("127.0.0.1", port), timeout=10) as c:
            c.sendall(head + b"Content-Length: 1000000000\r\n\r\n{")
            assert c.recv(4096).startswith(b"HTTP/1.1 413")  # nothing more was sent
        with socket.create_connection(("127.0.0.1", port), timeout=10) as c:
            c.sendall(head + b"Transfer-Encoding: chunked\r\n\r\n")
            c.setblocking(False)
            sent, answer = 0, b""
            while sent < 64 * 2**20 and not answer:
                chunk = b" " * 65536
                with contextlib.suppress(BlockingIOError):
                    c.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    sent += len(chunk)
                time.sleep(0.005)
                with contextlib.suppress(BlockingIOError):
                    answer = c.recv(4096)
            assert answer.startswith(b"HTTP/1.1 413"), answer[:80]
            assert sent <= 16 * 65536  # answered once past 64 KiB, not at the end
    finally:
        server.should_exit = True
        thread.join(10)
        hall.store.close()


def test_malformed_input_is_a_clear_error_and_the_table_plays_on(client: TestClient) -> None:
    t = new_table(client, ruleset="warfighter", seats={"squad": "human"}, seed=1)
    table, tok = t["table"], token(t["links"]["squad"])
    deep = b"[" * 60_000 + b"]" * 60_000
    for url in ("/api/tables", f"/api/tables/{table}/actions?token={tok}"):
        r = client.post(url, content=deep[:65_000])
        assert r.status_code in (400, 413), r.text
    r = client.post("/api/tables", content=b"[" * 30_000 + b"]" * 30_000)
    assert r.status_code == 400 and "nested too deeply" in r.json()["message"]
    # A lone surrogate (valid in JSON text) quoted back in a refusal answered HTTP 500.
    r = client.post(
        "/api/tables", content=b'{"ruleset": "warfighter", "seats": {"squad": "random:\\ud800=1"}}'
    )
    assert r.status_code == 400 and "\\ud800" in r.json()["message"]
    r = client.post(f"/api/tables/{table}/actions?token={tok}", content=b'{"notation": "\\ud800"}')
    assert r.status_code in (400, 422), r.text
    with client.websocket_connect(f"/ws/tables/{table}?token={tok}") as ws:
        first = json.loads(ws.receive_text())
        assert first["type"] == "state"
        ws.send_bytes(b"\x00\x01")  # killed the connection's loop
        assert json.loads(ws.receive_text())["message"] == "send text frames of JSON"
        ws.send_text("[" * 30_000 + "]" * 30_000)
        assert "nested too deeply" in json.loads(ws.receive_text())["message"]
        ws.send_text('{"notation": "\\ud800"}')
        assert json.loads(ws.receive_text())["type"] == "error"
        # The same connection still plays.
        ws.send_text(json.dumps({"action": first["legal"][0], "version": first["version"]}))
        assert json.loads(ws.receive_text())["version"] != first["version"]


def test_a_searching_bot_thinks_at_most_the_servers_limit(client: TestClient) -> None:
    # "ismcts:iterations=100000000" was taken as given: one decision of days, holding a
    # thread and every table waiting on it. A bot with a time budget gets one here.
    asked = {
        "ismcts:iterations=100000000": "ismcts:iterations=100000000,seconds=5.0",
        "ismcts:seconds=0": "ismcts:seconds=5.0",
        "ismcts:seconds=60,c=0.5": "ismcts:seconds=5.0,c=0.5",
        "ismcts": "ismcts:seconds=5.0",
        "ismcts:iterations=10,seconds=2": "ismcts:iterations=10,seconds=2",
        "wf-heuristic": "wf-heuristic",
    }
    hall = client.app.state.hall  # type: ignore[attr-defined]
    for given, kept in asked.items():
        t = new_table(client, ruleset="warfighter", seats={"squad": given})
        assert hall.tables[t["table"]].players["squad"] == kept, given
    assert MAX_BOT_SECONDS == 5.0


def test_only_the_known_table_options_are_taken(client: TestClient) -> None:
    r = client.post("/api/tables", json={"ruleset": "warfighter", "options": {"x" * 60_000: 1}})
    assert r.status_code in (400, 413)
    r = client.post("/api/tables", json={"ruleset": "warfighter", "options": {"colour": 1}})
    assert r.status_code == 400
    assert r.json()["message"] == (
        "no table option 'colour' (options: bot_pause, clock, clock_increment)"
    )


def test_a_table_that_cannot_come_back_keeps_no_other_down(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # One stored table whose rebuild failed (its mission file edited since) stopped the
    # server's start, and every other table with it.
    data = tmp_path / "data"
    data.mkdir()
    mission = data / "mine.wf"
    shipped = resources.files("fogofwar").joinpath("data", "warfighter", "dagon.wf")
    mission.write_text(shipped.read_text(encoding="utf-8"), encoding="utf-8")
    db = tmp_path / "t.db"
    first = Hall(Store(db), bot_pause=0.0, data_dirs=[data])
    kept, _, _ = first.create("warfighter", {}, {"squad": "human"}, seed=1)
    lost, _, _ = first.create("warfighter", {"mission": str(mission)}, {"squad": "human"}, seed=2)
    first.store.close()
    mission.write_text(mission.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    again = Hall(Store(db), bot_pause=0.0, data_dirs=[data])
    with TestClient(create_app(again)) as c:
        assert kept.id in again.tables and lost.id not in again.tables
        assert "WF-C7" in again.unresumed[lost.id] or "digest" in again.unresumed[lost.id]
        r = c.get(f"/t/{lost.id}")
        assert r.status_code == 404 and "could not be brought back" in r.text
    assert f"table {lost.id} not brought back" in capsys.readouterr().err
    again.store.close()


def test_replays_asked_at_once_each_get_their_own_answer(client: TestClient) -> None:
    # The plain routes ran in worker threads, and two replays at once applied one cached
    # record together: wrong answers, refusals and HTTP 500. Every route that touches a
    # table now runs on the event loop.
    t = new_table(
        client,
        ruleset="specter-ops",
        config={"players": 2},
        seats={"agent": "so-agent", "hunter1": "so-hunter"},
        options={"bot_pause": 0},
        seed=3,
    )
    table, tok = t["table"], token(t["spectator"])
    deadline = time.monotonic() + 120
    while not view(client, table, tok)["over"] and time.monotonic() < deadline:
        time.sleep(0.2)
    total = view(client, table, tok)["actions"]  # after the end: the replay's length
    points = [0, total // 3, total // 2, total]
    url = f"/api/tables/{table}/replay"
    ref = {at: client.get(url, params={"token": tok, "at": at}).json() for at in points}
    wrong: list[str] = []

    def hammer(k: int) -> None:
        for i in range(12):
            at = points[(k + i) % len(points)]
            r = client.get(url, params={"token": tok, "at": at})
            if r.status_code != 200 or r.json() != ref[at]:
                wrong.append(f"at {at}: {r.status_code} {r.text[:80]}")

    threads = [threading.Thread(target=hammer, args=(k,)) for k in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wrong == []


def test_a_finished_table_comes_back_when_its_link_is_used(tmp_path: Path) -> None:
    # Every finished game was replayed at each start: a store that keeps every game ever
    # played made the start slower and the process larger with each one.
    db = tmp_path / "t.db"
    hall = Hall(Store(db), bot_pause=0.0)
    with TestClient(create_app(hall)) as c:
        done = new_table(c, ruleset="warfighter", seats={"squad": "bot"}, seed=2)
        going = new_table(c, ruleset="warfighter", seats={"squad": "human"}, seed=3)
        tok = token(done["spectator"])
        deadline = time.monotonic() + 60
        while not view(c, done["table"], tok)["over"] and time.monotonic() < deadline:
            time.sleep(0.1)
        at_end = view(c, done["table"], tok)
        assert at_end["over"]
    hall.store.close()
    again = Hall(Store(db), bot_pause=0.0)
    assert [t.id for t in again.resume()] == [going["table"]]
    # The rebuild runs off the event loop (a long game's replay kept every table
    # waiting), and the table is live only once whole.
    seen: list[tuple[bool, bool]] = []
    replayed = again.store.actions_chosen

    def actions_chosen(table_id: str) -> Any:
        try:
            asyncio.get_running_loop()
            on_loop = True
        except RuntimeError:
            on_loop = False
        seen.append((on_loop, table_id in again.tables))
        time.sleep(0.3)  # a long game's replay: other requests for the table meanwhile
        return replayed(table_id)

    again.store.actions_chosen = actions_chosen  # type: ignore[method-assign]
    with TestClient(create_app(again)) as c:
        assert done["table"] not in again.tables
        # Three requests at once: rebuilt from the store once, on first use.
        answers: list[dict[str, Any]] = []
        asking = [
            threading.Thread(target=lambda: answers.append(view(c, done["table"], tok)))
            for _ in range(3)
        ]
        for thread in asking:
            thread.start()
        for thread in asking:
            thread.join()
        assert seen == [(False, False)]
        back = answers[0]
        assert all(a == back for a in answers) and len(answers) == 3
        assert back["over"] and back["secret"] == at_end["secret"]
        assert back["version"] == at_end["version"]
    again.store.close()


def test_a_table_keeps_a_bounded_number_of_websockets(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every change builds a message for each open connection: with no bound, thousands
    # of spectators' sockets would make each action take seconds.
    # The bound is a link's: one player (or the spectators' link) filling it leaves
    # every other link room (a bound per table let one player shut the others out).
    monkeypatch.setattr(app_module, "MAX_SOCKETS_PER_LINK", 2)
    monkeypatch.setattr(app_module, "MAX_SOCKETS_SPECTATORS", 2)
    t = new_table(client, ruleset="warfighter", seats={"squad": "human"}, seed=1)
    url = f"/ws/tables/{t['table']}?token={token(t['spectator'])}"
    squad = f"/ws/tables/{t['table']}?token={token(t['links']['squad'])}"
    with client.websocket_connect(url) as one, client.websocket_connect(url) as two:
        for ws in (one, two):
            assert json.loads(ws.receive_text())["type"] == "state"
        with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(url) as ws:
            ws.receive_text()
        assert closed.value.code == 4429
        assert "spectators' link has 2 connections" in closed.value.reason
        with client.websocket_connect(squad) as mine:
            assert json.loads(mine.receive_text())["seat"] == "squad"
    # Closed ones make room again.
    with client.websocket_connect(url) as again:
        assert json.loads(again.receive_text())["type"] == "state"


def test_one_address_creates_a_bounded_number_of_tables(tmp_path: Path) -> None:
    # Each table is stored for good: 300 were made in 1.8 s, and a script could fill
    # the store and the server's memory. `serve --tables-per-minute N` (default 30).
    hall = Hall(Store(tmp_path / "t.db"), bot_pause=0.0)
    with TestClient(create_app(hall, tables_per_minute=3)) as c:
        made = [c.post("/api/tables", json={"ruleset": "warfighter"}) for _ in range(4)]
        assert [r.status_code for r in made] == [201, 201, 201, 429]
        assert made[3].json()["error"] == "too_many"
        assert "at most 3 new tables a minute" in made[3].json()["message"]
        assert len(hall.tables) == 3
    hall.store.close()
    assert app_module.TABLES_PER_MINUTE == 30


def test_refused_requests_do_not_count_toward_the_limit(tmp_path: Path) -> None:
    # A player who mistyped a form three times was then refused the table it fixed:
    # only tables made count.
    hall = Hall(Store(tmp_path / "t.db"), bot_pause=0.0)
    with TestClient(create_app(hall, tables_per_minute=2)) as c:
        bad = [c.post("/api/tables", json={"ruleset": "no-such-game"}) for _ in range(3)]
        assert [r.status_code for r in bad] == [400, 400, 400]
        made = [c.post("/api/tables", json={"ruleset": "warfighter"}) for _ in range(3)]
        assert [r.status_code for r in made] == [201, 201, 429]
    hall.store.close()


def test_an_ipv6_client_counts_by_its_network() -> None:
    # A host is handed a whole /64: counted address by address, one home could make
    # tables without bound by changing the last 64 bits.
    key = app_module.client_key
    assert key("2001:db8:1:2::1") == key("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert key("2001:db8:1:3::1") != key("2001:db8:1:2::1")
    assert key("192.0.2.7") == key("::ffff:192.0.2.7") == "192.0.2.7"
    assert key("192.0.2.7") != key("192.0.2.8")
    assert key("testclient") == "testclient"


def test_the_limit_holds_across_a_clients_ipv6_network(tmp_path: Path) -> None:
    hall = Hall(Store(tmp_path / "t.db"), bot_pause=0.0)
    app = create_app(hall, tables_per_minute=2)
    codes = []
    for host in ("2001:db8::1", "2001:db8::2", "2001:db8::3", "2001:db8:0:1::1"):
        with TestClient(app, client=(host, 50000)) as c:
            codes.append(c.post("/api/tables", json={"ruleset": "warfighter"}).status_code)
    assert codes == [201, 201, 429, 201]  # the last is another /64
    hall.store.close()


def test_a_table_half_rebuilt_is_never_left_live(tmp_path: Path) -> None:
    # A stored action the rules now refuse stopped the rebuild half way, and the table
    # stayed in memory at that point: served, its bots woken, and the next action
    # failed against the store (HTTP 500).
    db = tmp_path / "t.db"
    hall = Hall(Store(db), bot_pause=0.0)
    t, _, _ = hall.create("warfighter", {}, {"squad": "human"}, seed=1)
    for _ in range(3):
        hall.act(t, "squad", action=t.recorder.state.legal_actions("squad")[0].to_json())
    hall.store.close()
    with sqlite3.connect(db) as con:
        row = con.execute(
            "SELECT action FROM actions WHERE table_id = ? AND idx = 1", (t.id,)
        ).fetchone()
        bad = json.loads(row[0]) | {"args": ["ZZ9"]}
        con.execute(
            "UPDATE actions SET action = ? WHERE table_id = ? AND idx = 1",
            (json.dumps(bad), t.id),
        )
    again = Hall(Store(db), bot_pause=0.0)
    assert again.resume() == [] and t.id not in again.tables
    assert t.id in again.unresumed  # the rules refuse it: not tried at every request
    with pytest.raises(NotFound, match="could not be brought back"):
        again.table(t.id)
    assert t.id not in again.tables
    again.store.close()


def test_every_page_and_answer_carries_the_security_headers(client: TestClient) -> None:
    # Defence in depth behind the escaping: the pages run only the server's own scripts,
    # no other site may frame them, and a link's token is never sent on as a referrer.
    t = new_table(client, ruleset="warfighter", seats={"squad": "human"}, seed=1)
    link = t["links"]["squad"].split("/t/", 1)[1]
    for url in ("/", f"/t/{link}", "/t/nope", "/api/rulesets", "/static/table.js"):
        r = client.get(url)
        for name, value in SECURITY_HEADERS.items():
            assert r.headers.get(name) == value, (url, name)
    assert "script-src 'self';" in SECURITY_HEADERS["Content-Security-Policy"]
    # The table page's boot data is JSON the page reads, not an inline script to run.
    page = client.get(f"/t/{link}").text
    scripts = re.findall(r"<script([^>]*)>", page)
    assert scripts and all("src=" in s or 'type="application/json"' in s for s in scripts)
    assert client.get("/api/docs").status_code == 200  # its CDN scripts stay allowed


def test_the_pages_answer_head(client: TestClient) -> None:
    # `curl -I` (an uptime check) got 405 in JSON from the lobby.
    for path in ("/", "/static/table.js"):
        r = client.head(path)
        assert r.status_code == 200 and r.content == b"", path
        assert r.headers["content-type"].startswith(("text/html", "text/javascript")), path
    assert client.head("/t/NOPE1234").status_code == 404


def test_a_bad_since_on_the_websocket_is_refused_with_a_reason(client: TestClient) -> None:
    # FastAPI refused it at the handshake: a bare HTTP 403, no reason a client could read.
    t = new_table(client, ruleset="warfighter", seats={"squad": "human"}, seed=1)
    url = f"/ws/tables/{t['table']}?token={token(t['links']['squad'])}"
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        client.websocket_connect(url + "&since=abc") as ws,
    ):
        ws.receive_text()
    assert closed.value.code == 4400 and "since" in closed.value.reason
    with client.websocket_connect(url + "&since=0") as ws:
        assert json.loads(ws.receive_text())["type"] == "state"


def test_a_since_of_other_digits_is_refused_not_a_crash(client: TestClient) -> None:
    # "²" and 5,000 digits pass str.isdigit and failed int() outside the handler.
    t = new_table(client, ruleset="warfighter", seats={"squad": "human"}, seed=1)
    url = f"/ws/tables/{t['table']}?token={token(t['links']['squad'])}"
    for since in ("%C2%B2", "9" * 5000):
        with (
            pytest.raises(WebSocketDisconnect) as closed,
            client.websocket_connect(url + "&since=" + since) as ws,
        ):
            ws.receive_text()
        assert closed.value.code == 4400
