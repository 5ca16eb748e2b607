"""The web table under load: many tables at once, each driven by a paced client over its
websocket, bots seated.

Run: ``.venv/bin/python bench/bench_server.py [--tables 200] [--seconds 30] [--rate 2]
[--ruleset specter-ops] [--set KEY=VALUE ...] [--sync normal] [--workers 1]``. It
starts ``fogofwar serve`` (``--workers N``: N processes) on a fresh store, creates the
tables (the first seat human, the others the rule set's bots; ``--set`` gives each
table's options, e.g. ``players=5``), and from this process drives every table's human
seat over a websocket: ``rate`` actions a second per table, each a random legal action
sent when it is the seat's turn. It prints the round trip from sending an action to
receiving the view that includes it (p50, p99, max), the actions a second held, and the
errors (refusals, lost connections), with the store's synchronous setting. Clients
and server share this machine's cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2 as httpx
from websockets.asyncio.client import connect


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Driver:
    """One table's human seat, paced."""

    def __init__(self, url: str, rate: float, rng: random.Random, seconds: float) -> None:
        self.url = url
        self.period = 1.0 / rate
        self.rng = rng
        self.seconds = seconds
        self.latencies: list[float] = []
        self.errors = 0
        self.actions = 0

    async def run(self, ready: asyncio.Barrier) -> None:
        waited = False
        try:
            async with connect(self.url, max_size=2**22) as ws:
                state = json.loads(await ws.recv())
                # Every table is loaded and connected before anyone plays: the figures
                # are the steady state's, not the start's.
                waited = True
                await ready.wait()
                # The run's end, counted from the barrier by each driver itself (set by
                # the caller after the barrier, a driver that resumed first saw none and
                # played nothing: with one table, no action was timed).
                until = time.monotonic() + self.seconds
                next_send = time.monotonic() + self.rng.random() * self.period
                while time.monotonic() < until and not state.get("over"):
                    if (
                        state.get("type") == "state"
                        and state["legal"]
                        and time.monotonic() >= next_send
                    ):
                        action = self.rng.choice(state["legal"])
                        sent_version = state["version"]
                        start = time.perf_counter()
                        await ws.send(json.dumps({"action": action, "version": sent_version}))
                        # Wait for the view that includes the action.
                        while True:
                            reply = json.loads(await ws.recv())
                            if reply.get("type") == "error":
                                self.errors += 1
                                break
                            state = reply
                            if reply["version"] != sent_version:  # what it shows changed
                                self.latencies.append(time.perf_counter() - start)
                                self.actions += 1
                                break
                        next_send = max(next_send + self.period, time.monotonic())
                        continue
                    try:
                        timeout = max(0.01, next_send - time.monotonic()) if state["legal"] else 1.0
                        state = json.loads(await asyncio.wait_for(ws.recv(), timeout))
                    except TimeoutError:
                        pass
        except Exception as exc:  # a lost connection is an error to count
            if os.environ.get("BENCH_DEBUG"):
                print("driver:", repr(exc))
            self.errors += 1
            if not waited:
                await ready.wait()


async def drive(links: list[str], seconds: float, rate: float) -> tuple[list[Driver], float]:
    drivers = [Driver(u, rate, random.Random(i), seconds) for i, u in enumerate(links)]
    ready = asyncio.Barrier(len(drivers) + 1)
    start = time.monotonic()
    runs = asyncio.gather(*(d.run(ready) for d in drivers))
    await ready.wait()
    connected = time.monotonic() - start
    await runs
    return drivers, connected


def _option(text: str) -> tuple[str, object]:
    """``KEY=VALUE`` as a table's config entry: an integer, true/false, or the text."""
    key, sep, value = text.partition("=")
    if not sep:
        raise SystemExit(f"--set {text!r}: expected KEY=VALUE")
    if value.lstrip("-").isdigit():
        return key, int(value)
    if value in ("true", "false"):
        return key, value == "true"
    return key, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--rate", type=float, default=2.0, help="actions a second per table")
    parser.add_argument("--ruleset", default="specter-ops")
    parser.add_argument(
        "--set",
        dest="sets",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a table option, as `fogofwar serve --set` takes it (e.g. players=5)",
    )
    parser.add_argument("--sync", default="normal", choices=("normal", "full"))
    parser.add_argument("--bot-pause", type=float, default=0.2)
    parser.add_argument("--profile", metavar="PATH", help="run the server under cProfile")
    parser.add_argument(
        "--workers", type=int, default=1, help="the server's worker processes (serve --workers)"
    )
    args = parser.parse_args()
    config = dict(_option(o) for o in args.sets)
    port = _port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        server = subprocess.Popen(
            [sys.executable, *(["-m", "cProfile", "-o", args.profile] if args.profile else []),
             "-m", "fogofwar", "serve", "--port", str(port), "--db", str(db),
             "--sync", args.sync, "--bot-pause", str(args.bot_pause),
             "--workers", str(args.workers), "--tables-per-minute", "0"],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            for worker in range(args.workers):  # every worker is up before the tables
                for _ in range(300):
                    try:
                        answer = httpx.get(
                            f"http://127.0.0.1:{port + worker}/api/rulesets", timeout=1
                        )
                        if answer.status_code == 200:
                            break
                    except httpx.TransportError:
                        time.sleep(0.1)
            links: list[str] = []
            with httpx.Client(timeout=60) as client:
                for _ in range(args.tables):
                    r = client.post(
                        url + "/api/tables", json={"ruleset": args.ruleset, "config": config}
                    )
                    r.raise_for_status()
                    made: dict[str, Any] = r.json()
                    # A table's link names the worker that holds it.
                    link = next(iter(made["links"].values()))
                    origin, rest = link.split("/t/")
                    table, token = rest.split("?token=")
                    ws_origin = origin.replace("http://", "ws://")
                    links.append(f"{ws_origin}/ws/tables/{table}?token={token}")
            drivers, connected = asyncio.run(drive(links, args.seconds, args.rate))
            elapsed = args.seconds
        finally:
            os.kill(server.pid, signal.SIGTERM)
            server.wait(30)
    lat = sorted(x for d in drivers for x in d.latencies)
    errors = sum(d.errors for d in drivers)
    actions = sum(d.actions for d in drivers)
    if not lat:
        print("no action completed")
        return
    # Inclusive: with few round trips the 99th percentile stays within what was seen.
    p = statistics.quantiles(lat, n=100, method="inclusive") if len(lat) > 1 else lat * 99
    print(
        f"{args.tables} tables of {args.ruleset}"
        + "".join(f" {k}={v}" for k, v in config.items())
        + f", {args.rate:g} actions/s each asked, "
        f"{args.seconds:g} s, SQLite WAL synchronous={args.sync.upper()}, bots seated "
        f"(pause {args.bot_pause:g} s), {args.workers} server worker(s), "
        f"{os.cpu_count()} cores shared with the clients"
    )
    print(
        f"round trip action -> view: p50 {p[49] * 1000:.1f} ms, p99 {p[98] * 1000:.1f} ms, "
        f"max {lat[-1] * 1000:.1f} ms"
    )
    held = f"{actions / elapsed:.0f}/s ({actions} in {elapsed:.1f} s)"
    print(f"human actions held: {held}; errors: {errors}")
    print(f"every table loaded and connected in {connected:.1f} s before the timed run")


if __name__ == "__main__":
    main()
