"""A server of several workers (``fogofwar serve --workers N``): each table lives in the
worker its id names, its links go there, a request that reaches another worker is
redirected, every worker resumes its own tables from the one store, and stopping the
first worker stops them all."""

from __future__ import annotations

import http.server
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from importlib import resources
from pathlib import Path

import httpx2 as httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from fogofwar.server.app import create_app
from fogofwar.server.hall import Hall, Misdirected, owner_of
from fogofwar.server.store import Store

from .test_crash import Server

EXAMPLE = "tests.example_game:HideAndSeek"
URLS = ("http://w0.test", "http://w1.test")


def test_tables_go_to_the_workers_in_turn_and_live_where_their_id_says(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    first = Hall(Store(db), bot_pause=0, worker=0, workers=2)
    second = Hall(Store(db), bot_pause=0, worker=1, workers=2)
    made = [first.create(EXAMPLE, {}, {"hider": "human"}, seed=i)[0] for i in range(4)]
    owners = [owner_of(t.id, 2) for t in made]
    assert owners == [0, 1, 0, 1]
    # The first worker keeps only its own; the second loads its own from the store.
    assert set(first.tables) == {made[0].id, made[2].id}
    assert second.table(made[1].id).recorder.commitment == made[1].recorder.commitment
    with pytest.raises(Misdirected) as caught:
        first.table(made[3].id)
    assert caught.value.owner == 1
    with pytest.raises(Misdirected):
        second.table(made[0].id)
    # After a restart each worker resumes its own tables only.
    again = Hall(Store(db), bot_pause=0, worker=1, workers=2)
    assert {t.id for t in again.resume()} == {made[1].id, made[3].id}
    for hall in (first, second, again):
        hall.store.close()


def test_links_name_the_owner_and_other_workers_redirect(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    hall = Hall(Store(db), bot_pause=0, worker=0, workers=2)
    with TestClient(create_app(hall, worker_urls=URLS)) as client:
        made = [
            client.post(
                "/api/tables", json={"ruleset": EXAMPLE, "seats": {"hider": "human"}}
            ).json()
            for _ in range(2)
        ]
        assert made[0]["links"]["hider"].startswith(URLS[0] + "/t/")
        assert made[1]["links"]["hider"].startswith(URLS[1] + "/t/")
        assert made[1]["spectator"].startswith(URLS[1] + "/t/")
        mine, theirs = made[0]["table"], made[1]["table"]
        token = made[1]["links"]["hider"].split("token=")[1]
        r = client.get(f"/api/tables/{mine}/view", params={"token": token})
        assert r.status_code == 403  # a link of another table
        r = client.get(
            f"/api/tables/{theirs}/view", params={"token": token}, follow_redirects=False
        )
        assert r.status_code == 307
        assert r.headers["location"] == f"{URLS[1]}/api/tables/{theirs}/view?token={token}"
        r = client.get(f"/t/{theirs}", params={"token": token}, follow_redirects=False)
        assert r.status_code == 307
        url = f"/ws/tables/{theirs}?token={token}"
        with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(url) as ws:
            ws.receive_text()
        assert closed.value.code == 4421
        assert closed.value.reason == URLS[1]
    hall.store.close()


def test_a_server_of_two_workers_plays_and_stops_as_one(tmp_path: Path) -> None:
    server = Server(tmp_path / "t.db", workers=2)
    server.start()
    assert server.proc is not None
    try:
        links = []
        for _ in range(2):
            r = httpx.post(
                server.url + "/api/tables",
                json={"ruleset": "warfighter", "seats": {"squad": "human"}, "seed": 3},
                timeout=30,
            )
            assert r.status_code == 201, r.text
            links.append(r.json()["links"]["squad"])
        ports = {int(link.split(":")[2].split("/")[0]) for link in links}
        assert ports == {server.port, server.port + 1}
        for link in links:
            origin, rest = link.split("/t/")
            table, token = rest.split("?token=")
            api = f"{origin}/api/tables/{table}"
            view = httpx.get(f"{api}/view", params={"token": token}, timeout=30).json()
            r = httpx.post(
                f"{api}/actions",
                params={"token": token},
                json={"action": view["legal"][0], "version": view["version"]},
                timeout=30,
            )
            assert r.status_code == 200, r.text
            # The page is served where the table lives.
            assert httpx.get(link, timeout=30).status_code == 200
    finally:
        server.proc.send_signal(signal.SIGTERM)
        server.proc.wait(30)
    # The first worker stopped the second.
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{server.port + 1}/api/rulesets", timeout=1)
        except httpx.TransportError:
            break
        time.sleep(0.1)
    else:
        raise AssertionError("the second worker outlived the first")


def test_a_worker_that_cannot_listen_stops_the_server_with_a_clear_error(
    tmp_path: Path,
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        second = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "fogofwar", "serve", "--port", str(second - 1),
             "--db", str(tmp_path / "t.db"), "--workers", "2"],
            capture_output=True,
            text=True,
            timeout=120,
        )  # fmt: skip
    assert done.returncode != 0
    said = " ".join((done.stdout + done.stderr).split())
    assert f"--workers 2 listens on ports {second - 1}-{second}" in said
    assert f"--port {second}: cannot listen there" in said


def test_each_worker_offers_the_operators_data_files_and_plug_ins(tmp_path: Path) -> None:
    # `serve --data DIR --plugin REF`: what a request may name is the same on every
    # worker (worker 0 starts the others with the same folders and plug-ins).
    data = tmp_path / "data"
    data.mkdir()
    shipped = resources.files("fogofwar").joinpath("data", "warfighter", "dagon.wf")
    (data / "mine.wf").write_text(shipped.read_text(encoding="utf-8"), encoding="utf-8")
    server = Server(tmp_path / "t.db", workers=2, args=("--data", str(data), "--plugin", EXAMPLE))
    server.start()
    assert server.proc is not None
    try:
        for port in (server.port, server.port + 1):
            answer = httpx.get(f"http://127.0.0.1:{port}/api/rulesets", timeout=30).json()
            by_id = {r["id"]: r for r in answer}
            assert "hide-and-seek" in by_id
            mission = next(o for o in by_id["warfighter"]["options"] if o["name"] == "mission")
            assert mission["offered"] == ["dagon", "mine.wf"]
        made = []
        for body in (
            {"ruleset": "warfighter", "config": {"mission": "mine.wf"}},
            {"ruleset": "hide-and-seek"},
            {"ruleset": "warfighter", "config": {"mission": "/etc/hostname"}},
        ):
            made.append(httpx.post(server.url + "/api/tables", json=body, timeout=30))
        assert [r.status_code for r in made] == [201, 201, 400]
        assert "not one this server offers (dagon, mine.wf)" in made[2].json()["message"]
    finally:
        server.proc.send_signal(signal.SIGTERM)
        server.proc.wait(30)


class _Answers(http.server.BaseHTTPRequestHandler):
    """Another server on a port: it answers every request, as another fogofwar would."""

    def do_GET(self) -> None:
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"[]")

    def log_message(self, format: str, *args: object) -> None:
        pass


def _answering_after_a_free_port() -> http.server.HTTPServer:
    """Another server on a port whose predecessor is free, for the lobby to take.

    A port the system hands out can follow one that is in use (CI once found the
    lobby's own port taken, not the worker's), so look for a pair.
    """
    for _ in range(50):
        other = http.server.HTTPServer(("127.0.0.1", 0), _Answers)
        lobby = socket.socket()
        try:
            lobby.bind(("127.0.0.1", other.server_address[1] - 1))
        except OSError:
            other.server_close()
            continue
        finally:
            lobby.close()
        return other
    raise AssertionError("no free port before an answering one in 50 tries")


def test_a_worker_port_held_by_another_server_is_refused_before_any_starts(
    tmp_path: Path,
) -> None:
    # The lobby waited for its worker by asking the worker's port; another server
    # there answered, the worker itself died unable to listen, and the lobby went on
    # handing every second table, with its secret links, to the other server's port.
    other = _answering_after_a_free_port()
    threading.Thread(target=other.serve_forever, daemon=True).start()
    try:
        second = other.server_address[1]
        proc = subprocess.Popen(
            [sys.executable, "-m", "fogofwar", "serve", "--port", str(second - 1),
             "--db", str(tmp_path / "t.db"), "--workers", "2"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )  # fmt: skip
        try:
            out, _ = proc.communicate(timeout=90)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, _ = proc.communicate()
            raise AssertionError(f"the lobby served with its worker's port taken:\n{out}") from None
    finally:
        other.shutdown()
        other.server_close()
    assert proc.returncode != 0
    said = " ".join(out.split())
    assert f"--workers 2 listens on ports {second - 1}-{second}" in said
    assert f"--port {second}: cannot listen there" in said
    assert "Lobby:" not in said and not (tmp_path / "t.db").exists()


def test_the_lobby_stops_when_a_worker_dies_under_it(tmp_path: Path) -> None:
    # A worker killed (out of memory, say) left the lobby sending tables to a dead port.
    server = Server(tmp_path / "t.db", workers=2)
    server.start()
    assert server.proc is not None
    try:
        children = Path(f"/proc/{server.proc.pid}/task/{server.proc.pid}/children")
        (worker,) = map(int, children.read_text().split())
        os.kill(worker, signal.SIGKILL)
        _, err = server.proc.communicate(timeout=30)
    finally:
        if server.proc.poll() is None:
            server.proc.kill()
            server.proc.wait(10)
    assert server.proc.returncode == 2
    said = " ".join(err.decode().split())
    assert f"worker 1 (port {server.port + 1}) stopped (exit -9)" in said
