"""A server killed with SIGKILL in the middle of games loses no acknowledged action:
every action a client got a 200 for is in the store, and every table resumes from it
when the server starts again."""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx2 as httpx

from fogofwar.core.rng import stream


def _ports(count: int) -> int:
    """A port ``p`` such that ``p`` … ``p + count - 1`` were all free a moment ago (a
    server of several workers listens on consecutive ports)."""
    for _ in range(100):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port: int = s.getsockname()[1]
        free = True
        for other in range(port + 1, port + count):
            with socket.socket() as s:
                try:
                    s.bind(("127.0.0.1", other))
                except OSError:
                    free = False
                    break
        if free:
            return port
    raise RuntimeError(f"no {count} consecutive free ports")


class Server:
    """``fogofwar serve`` in a process of its own."""

    def __init__(self, db: Path, *, workers: int = 1, args: Sequence[str] = ()) -> None:
        self.db = db
        self.workers = workers
        self.args = tuple(args)
        self.port = _ports(workers)
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "fogofwar", "serve", "--port", str(self.port),
             "--db", str(self.db), "--bot-pause", "0", "--workers", str(self.workers),
             *self.args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )  # fmt: skip
        # Generous: a loaded two-core CI machine imports the server slowly.
        deadline = time.monotonic() + 120
        for i in range(self.workers):
            url = f"http://127.0.0.1:{self.port + i}"
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    _, err = self.proc.communicate()
                    raise RuntimeError(
                        f"the server exited ({self.proc.returncode}) before worker {i} "
                        f"listened: {err.decode(errors='replace')[-2000:]}"
                    )
                try:
                    if httpx.get(url + "/api/rulesets", timeout=1).status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.05)
            else:
                raise RuntimeError(f"worker {i} of the server did not start")

    def kill(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)


def test_no_acknowledged_action_is_lost_to_sigkill(tmp_path: Path) -> None:
    server = Server(tmp_path / "tables.db")
    server.start()
    try:
        tables: list[dict[str, Any]] = []
        for ruleset, seats in (
            ("rock-n-roll", {"vietnam": "human", "vpa": "human"}),
            ("warfighter", {"squad": "human"}),
            ("specter-ops", {"agent": "human", "hunter1": "human"}),
        ):
            r = httpx.post(
                server.url + "/api/tables",
                json={"ruleset": ruleset, "seats": seats, "config": {}},
                timeout=30,
            )
            assert r.status_code == 201, r.text
            tables.append(r.json())
        acknowledged = {t["table"]: 0 for t in tables}
        pick = stream(1, "crash")
        for round_ in range(6):
            # Play for a while, then kill the server at a moment nobody chose. A loaded
            # machine answers slowly: a round goes on past its moment until it has a few
            # acknowledged actions (within a bound), so the games really go on.
            start = time.monotonic()
            deadline = start + 0.4 + pick.random()
            before = sum(acknowledged.values())
            while time.monotonic() < deadline or (
                sum(acknowledged.values()) - before < 4 and time.monotonic() < start + 60
            ):
                t = pick.choice(tables)
                links = {s: u.split("token=")[1] for s, u in t["links"].items()}
                spectator = t["spectator"].split("token=")[1]
                try:
                    public = httpx.get(
                        f"{server.url}/api/tables/{t['table']}/view",
                        params={"token": spectator},
                        timeout=5,
                    ).json()
                    seat = None if public["over"] else public["to_act"][0]
                    if seat not in links:
                        time.sleep(0.01)  # nothing to play at this table: do not spin
                        continue
                    mine = httpx.get(
                        f"{server.url}/api/tables/{t['table']}/view",
                        params={"token": links[seat]},
                        timeout=5,
                    ).json()
                    r = httpx.post(
                        f"{server.url}/api/tables/{t['table']}/actions",
                        params={"token": links[seat]},
                        json={"action": pick.choice(mine["legal"]), "version": mine["version"]},
                        timeout=5,
                    )
                except httpx.TransportError:
                    break
                if r.status_code == 200:
                    acknowledged[t["table"]] += 1
            server.kill()
            server.start()
            # Every acknowledged action is there (a link's version is no count of them:
            # the store is read); each table plays on from its store.
            for t in tables:
                spectator = t["spectator"].split("token=")[1]
                view = httpx.get(
                    f"{server.url}/api/tables/{t['table']}/view",
                    params={"token": spectator},
                    timeout=30,
                )
                assert view.status_code == 200
                people = set(t["links"])
                with sqlite3.connect(f"file:{server.db}?mode=ro", uri=True) as db:
                    rows = db.execute(
                        "SELECT action, chosen_by FROM actions WHERE table_id=?", (t["table"],)
                    ).fetchall()
                kept = sum(1 for a, by in rows if by is None and json.loads(a)["seat"] in people)
                assert kept >= acknowledged[t["table"]], (round_, t["table"])
        assert sum(acknowledged.values()) >= 20  # the games really went on
    finally:
        if server.proc is not None and server.proc.poll() is None:
            server.kill()
