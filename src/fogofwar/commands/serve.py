"""``fogofwar serve``: the web table. Starts the server on its SQLite store, brings back
every table the store holds, and (``--new RULESET``) creates a table at once and prints
its links, so that ``make demo`` gives a newcomer a game to open in the browser."""

from __future__ import annotations

import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import uvicorn
from rich.console import Console

from ..core.collector import freeze_loaded
from ..core.errors import RulesError
from ..core.game import get_ruleset, registered_rulesets
from ..server.app import TABLES_PER_MINUTE, create_app, uvicorn_config
from ..server.hall import HUMAN, Hall
from ..server.store import Store, Sync

__all__ = ["DEFAULT_DB", "serve"]

#: The store when ``--db`` is not given: under the working directory.
DEFAULT_DB = Path(".fogofwar") / "tables.db"


def serve(
    *,
    host: str,
    port: int,
    db: Path,
    sync: Sync,
    bot_pause: float,
    new: str | None,
    seats: Sequence[str],
    sets: Sequence[str],
    seed: int | None,
    console: Console,
    workers: int = 1,
    worker: int = 0,
    data_dirs: Sequence[Path] = (),
    plugins: Sequence[str] = (),
    tables_per_minute: int = TABLES_PER_MINUTE,
) -> int:
    """Serve until Ctrl-C (or SIGTERM); every accepted action is already in the store.

    With ``workers`` > 1 this process is worker 0 (the lobby, on ``port``) and starts
    workers 1, 2, ... on the next ports, all on one store; each table lives in one
    worker (its id says which) and its links go there. ``worker`` > 0: this process is
    that worker, started so by worker 0.

    ``data_dirs`` are the folders whose files a request may name (by file name), and
    ``plugins`` the plug-in rule sets loaded here, which requests may then name: a
    request itself imports nothing and opens no other file (:mod:`..server.guard`).
    """
    # A plug-in named by --new is one too: every worker must know it, since the lobby's
    # tables of it go to the workers in turn.
    plugins = [*plugins, *([new] if new is not None and ":" in new else [])]
    for ref in plugins:
        get_ruleset(ref)  # the operator's choice: its module is imported here
    # The port first: it was found taken only after the lobby's address was printed.
    _check_port(host, port)
    if worker == 0:
        # Every worker's port too, before any starts: a worker that cannot listen dies,
        # and another server already there (another fogofwar's worker answers as ours
        # would) would be handed this lobby's tables and their secret links.
        for i in range(1, workers):
            _check_port(host, port + i, why=f"--workers {workers} listens on ports "
                        f"{port}-{port + workers - 1}: ")  # fmt: skip
    try:
        store = Store(db, sync=sync)
    except sqlite3.Error as exc:  # a folder, a file that is no database, no permission
        raise RulesError(f"--db {db}: a SQLite store that can be opened ({exc})") from None
    except RuntimeError as exc:  # a store of a newer schema: its message says so
        raise RulesError(str(exc)) from None
    hall = Hall(store, bot_pause=bot_pause, worker=worker, workers=workers, data_dirs=data_dirs)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    base = port - worker
    urls = [f"http://{shown}:{base + i}" for i in range(workers)]
    url = urls[worker]
    children: list[subprocess.Popen[bytes]] = []
    try:
        if worker == 0:
            for i in range(1, workers):
                children.append(
                    _start_worker(
                        i,
                        workers,
                        host,
                        base + i,
                        db,
                        sync,
                        bot_pause,
                        data_dirs,
                        plugins,
                        tables_per_minute,
                    )
                )
            for i, child in enumerate(children, start=1):
                _wait_for_worker(child, i, shown, base + i)
        if new is not None:
            _new_table(hall, new, seats, sets, seed, url, console)
        if worker == 0:
            more = f"; workers on ports {base}-{base + workers - 1}" if workers > 1 else ""
            console.print(
                f"Lobby: {url}/   (store: {db}, synchronous={sync.upper()}{more}; Ctrl-C stops)"
            )
        app = create_app(
            hall,
            public_url=url,
            worker_urls=urls if workers > 1 else (),
            tables_per_minute=tables_per_minute,
        )
        server = uvicorn.Server(uvicorn_config(app, host=host, port=port))
        # Every rule set loaded, then what is loaded set aside from full collections: a
        # collection inside a player's action then walks only what the games made.
        registered_rulesets()
        freeze_loaded()
        # SIGTERM stops the server as Ctrl-C does: uvicorn finishes the requests in hand.
        signal.signal(signal.SIGTERM, lambda *_: setattr(server, "should_exit", True))
        lost: list[str] = []
        if children:
            threading.Thread(
                target=_watch_workers, args=(children, base, server, lost), daemon=True
            ).start()
        server.run()
        if lost:
            raise RulesError(lost[0])
    finally:
        for child in children:
            child.terminate()
        for child in children:
            try:
                child.wait(30)
            except subprocess.TimeoutExpired:
                child.kill()
        store.close()
    if worker == 0:
        console.print("Stopped; every table is in the store and comes back at the next start.")
    return 0


def _check_port(host: str, port: int, *, why: str = "") -> None:
    """That ``host:port`` can be listened on (uvicorn would say so only after the
    lobby's address was printed, with a log line rather than an error); ``why`` begins
    the message.

    Raises:
        RulesError: the address is taken or cannot be used.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        # As uvicorn binds it: a port in TIME_WAIT from a server just stopped is free.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            reason = exc.strerror or str(exc)
            raise RulesError(
                f"{why}--host {host} --port {port}: cannot listen there ({reason})"
            ) from None


def _watch_workers(
    children: Sequence[subprocess.Popen[bytes]],
    base: int,
    server: uvicorn.Server,
    lost: list[str],
) -> None:
    """Stop the lobby when a worker stops under it (killed, out of memory): the tables
    the lobby hands it would have links nobody answers. The reason goes to ``lost``."""

    def stopping() -> bool:  # set by another thread (uvicorn's signal handler)
        return bool(server.should_exit)

    while not stopping():
        for i, child in enumerate(children, start=1):
            code = child.poll()
            if code is not None:
                # Ctrl-C at the terminal reaches every worker as well as this process:
                # give this one's own stop a moment to be seen first.
                time.sleep(0.5)
                if stopping():
                    return
                lost.append(
                    f"worker {i} (port {base + i}) stopped (exit {code}): its tables could "
                    "not be reached, so the server stopped; start it again"
                )
                server.should_exit = True
                return
        time.sleep(0.5)


def _wait_for_worker(child: subprocess.Popen[bytes], index: int, host: str, port: int) -> None:
    """Wait until worker ``index`` listens (its tables' links point at it).

    Raises:
        RulesError: it stopped first (its port taken, say) or did not listen in time.
    """
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if child.poll() is not None:
            raise RulesError(
                f"worker {index} stopped at the start (exit {child.returncode}): is port "
                f"{port} free?"
            )
        try:
            # Asked as the lobby would: another program on that port does not answer so.
            with urllib.request.urlopen(f"http://{host}:{port}/api/rulesets", timeout=1) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    raise RulesError(f"worker {index} did not listen on port {port} within 60 s")


def _start_worker(
    index: int,
    workers: int,
    host: str,
    port: int,
    db: Path,
    sync: Sync,
    bot_pause: float,
    data_dirs: Sequence[Path] = (),
    plugins: Sequence[str] = (),
    tables_per_minute: int = TABLES_PER_MINUTE,
) -> subprocess.Popen[bytes]:
    """Worker ``index``: ``fogofwar serve`` in a process of its own, on its own port, with
    the same data folders, plug-ins and limits as worker 0."""
    more = [x for d in data_dirs for x in ("--data", str(d))]
    more += [x for ref in plugins for x in ("--plugin", ref)]
    more += ["--tables-per-minute", str(tables_per_minute)]
    return subprocess.Popen(
        [sys.executable, "-m", "fogofwar", "serve", "--host", host, "--port", str(port),
         "--db", str(db), "--sync", sync, "--bot-pause", str(bot_pause),
         "--workers", str(workers), "--worker", str(index), *more],
        stdout=subprocess.DEVNULL,
    )  # fmt: skip


def _new_table(
    hall: Hall,
    ruleset: str,
    seats: Sequence[str],
    sets: Sequence[str],
    seed: int | None,
    url: str,
    console: Console,
) -> None:
    rs = get_ruleset(ruleset)
    config: dict[str, Any] = rs.config_schema.parse_sets(sets)
    chosen: dict[str, str] = {}
    for item in seats:
        seat, sep, who = item.partition("=")
        if not sep or not seat or not who:
            raise RulesError(f"--seat {item!r}: expected SEAT=human or SEAT=bot (or a bot name)")
        chosen[seat] = who
    table, tokens, spectator = hall.create(rs.id, config, chosen or None, seed=seed)
    console.print(f"[bold]{rs.metadata.name}[/]: table {table.id}")
    for seat, who in table.players.items():
        if who == HUMAN:
            console.print(f"  {seat}: {url}/t/{table.id}?token={tokens[seat]}", soft_wrap=True)
        else:
            console.print(f"  {seat}: bot {who}")
    console.print(f"  spectator: {url}/t/{table.id}?token={spectator}", soft_wrap=True)
    console.print(
        f"  commitment to the table's secret: {table.recorder.commitment}", soft_wrap=True
    )
