"""The web table over HTTP and websockets (FastAPI): the JSON API that the pages, scripts
and external bots share, and the pages themselves. docs/server.md documents every
message.

* ``GET /api/rulesets`` — the rule sets, their seats, options and bots (the lobby's form);
* ``POST /api/tables`` — create a table: one secret link per human seat, and a
  spectator's link;
* ``GET /api/tables/{id}/view?token=[&since=K]`` — the link's view, legal actions and
  its events from its K-th on;
* ``POST /api/tables/{id}/actions?token=`` — an action (JSON) or a notation, with the
  version it answers; a refusal is a 4xx with the reason and the rule ID, and changes
  nothing (but where it says that an input's first actions were played);
* ``POST /api/tables/{id}/preview?token=`` — try actions of the kinds the rule set
  allows (a path's steps) without sending them: the legal ones that would follow;
* ``GET /api/tables/{id}/sight?token=&square=`` — what the link's seat would see from a
  square, where the game offers it;
* ``GET /api/tables/{id}/record?token=`` — the whole record, once the game is over;
* ``/ws/tables/{id}?token=`` — the same messages pushed after every change to what the
  link shows (never after one it cannot see); actions may be sent on it too.

Every request and frame is at most 64 KiB. Bots at seats think in worker threads and
pause between actions so that people can follow. Every route that touches a table is a
coroutine, so tables are read and changed on the event loop's thread only (a plain
route runs in a worker thread: two replays at once applied one cached record together).
A finished game's replay, which no longer changes, is worked out in a worker thread, one
replay of a table at a time.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import math
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Final

import uvicorn
from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection

from ..bots import available_bots, bot_spec
from ..core.errors import RulesError
from ..core.game import JSON, Action, Ruleset, registered_rulesets
from .hall import (
    MAX_MESSAGE,
    Forbidden,
    Hall,
    Misdirected,
    NotFound,
    Refused,
    Stale,
    Table,
    owner_of,
)
from .pages import error_page, lobby_page, table_page

__all__ = ["MAX_FRAME", "SECURITY_HEADERS", "create_app", "encode", "uvicorn_config"]

MAX_FRAME: Final = 1024 * 1024
"""The largest websocket frame the server reads (1 MiB): a frame over ``MAX_MESSAGE``
but within this is answered with a ``too_large`` error and the connection stays open;
a larger one closes the connection (code 1009) before the application sees it."""

_PAGES: Final = Path(__file__).parent / "static"


def encode(message: Mapping[str, Any]) -> str:
    """A message as the wire carries it: JSON with sorted keys and no spaces, so equal
    messages are equal bytes."""
    return json.dumps(message, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _error(status: int, kind: str, message: str, **more: JSON) -> JSONResponse:
    # A message may quote the request (a notation, a bot's name), and a lone surrogate
    # ("\ud800", valid in JSON text) cannot be encoded as UTF-8: it is written escaped.
    message = message.encode("utf-8", "backslashreplace").decode("utf-8")
    return JSONResponse({"error": kind, "message": message, **more}, status_code=status)


class TooLarge(ValueError):
    """A request past :data:`MAX_MESSAGE` bytes (HTTP 413; nothing more is read)."""


def _json(raw: bytes | str) -> Any:
    """A request's JSON, or a :class:`ValueError` saying what is wrong with it (nested
    past Python's recursion limit included: it answered HTTP 500)."""
    try:
        return json.loads(raw)
    except RecursionError:
        raise ValueError("the request is not JSON we read: nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as exc:
        if "integer string conversion" in str(exc):
            # Python's own words named sys.set_int_max_str_digits: a player's are these.
            raise ValueError("the request holds a number too long to read") from None
        raise ValueError(f"the request is not JSON: {exc}") from exc


def _refusal(exc: Exception) -> JSONResponse:
    """The API's answer to a refused request (see docs/server.md)."""
    if isinstance(exc, NotFound):
        return _error(404, "not_found", str(exc))
    if isinstance(exc, Forbidden):
        return _error(403, "forbidden", str(exc))
    if isinstance(exc, TooLarge):
        return _error(413, "too_large", str(exc))
    if isinstance(exc, Stale):
        return _error(409, "stale", str(exc), version=exc.version)
    if isinstance(exc, Refused):
        return _error(422, "refused", exc.reason, rule=exc.rule)
    return _error(400, "bad_request", str(exc))


def uvicorn_config(app: FastAPI, *, host: str, port: int) -> uvicorn.Config:
    """How the web table is served: the same for ``fogofwar serve`` and the tests."""
    # Messages are a few KiB of JSON: compressing each costs more CPU than it saves.
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=MAX_FRAME,
        ws_per_message_deflate=False,
    )


def _close_reason(text: str) -> str:
    """``text`` cut to what a websocket close frame carries (123 bytes of UTF-8)."""
    raw = text.encode("utf-8")
    return text if len(raw) <= 123 else raw[:120].decode("utf-8", "ignore") + "..."


#: The most websockets one link of a table (a seat's, or the spectators') keeps open at
#: once (a few tabs and reconnections); one more is closed with code 4429. A bound per
#: link, not per table: every change builds a message for each connection, and one
#: player filling the table's room would shut the others out.
MAX_SOCKETS_PER_LINK: Final = 16
#: The same for the spectators' link, which a table hands to its whole audience.
MAX_SOCKETS_SPECTATORS: Final = 64

#: New tables a minute that one client address may create: each is stored for good,
#: and a script could fill the store and the memory of the server.
TABLES_PER_MINUTE: Final = 30


class _Rate:
    """At most ``most`` events per ``window`` seconds for each key (a client's address),
    over a sliding window."""

    def __init__(self, most: int, window: float) -> None:
        self.most = most
        self.window = window
        self.times: dict[str, list[float]] = {}

    def wait(self, key: str) -> float:
        """Count one event for ``key`` now and return 0; or, past the limit, count
        nothing and return the seconds until one more is allowed."""
        if self.most <= 0:  # no limit
            return 0.0
        now = time.monotonic()
        recent = [t for t in self.times.get(key, ()) if now - t < self.window]
        if len(recent) >= self.most:
            self.times[key] = recent
            return recent[0] + self.window - now
        recent.append(now)
        self.times[key] = recent
        # Forget the keys whose events are all past the window (a long-running server).
        if len(self.times) > 4096:
            self.times = {k: v for k, v in self.times.items() if v and now - v[-1] < self.window}
        return 0.0

    def refund(self, key: str) -> None:
        """Take back ``key``'s last event (one that was refused: nothing was made)."""
        recent = self.times.get(key)
        if recent:
            recent.pop()


def client_key(host: str) -> str:
    """Whom a request's address counts as: an IPv4 address as itself, an IPv6 one by
    its /64 network (one home or host is handed a whole /64, so counting single
    addresses would let it make tables without bound), an IPv4 address written as IPv6
    (``::ffff:a.b.c.d``) as the IPv4 one."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host  # a test client's or a Unix socket's name
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


#: Headers on every page and answer. The policy runs only the server's own scripts (no
#: inline script, no handler attribute: a name or message that slipped through as HTML
#: runs nothing), talks only to this server, and lets no other site frame the pages.
#: The links carry their token in the address, so no page sends it on as a referrer.
SECURITY_HEADERS: Final = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
        "frame-ancestors 'none'; form-action 'self'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
}

#: Threads the bots of all tables think in (their own pool: a slow search must not hold
#: up the threads of the rest of the server, such as the sight a hover asks for).
BOT_THREADS: Final = 4


class _Tasks:
    """A task per table, stopped with the server."""

    def __init__(self, hall: Hall, thinkers: ThreadPoolExecutor) -> None:
        self.hall = hall
        self.thinkers = thinkers
        self.tasks: dict[str, asyncio.Task[None]] = {}

    async def think(self, choose: Callable[[], Action]) -> Action:
        """A bot's choice, worked out in the bots' own threads."""
        return await asyncio.get_running_loop().run_in_executor(self.thinkers, choose)

    async def stop(self) -> None:
        for task in self.tasks.values():
            task.cancel()
        for task in self.tasks.values():
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


class _Bots(_Tasks):
    """One task a table plays its bots' turns in, started when a bot is to act."""

    def wake(self, table: Table) -> None:
        task = self.tasks.get(table.id)
        if (task is None or task.done()) and self.hall.bot_to_act(table):
            self.tasks[table.id] = asyncio.get_running_loop().create_task(self._run(table))

    async def _run(self, table: Table) -> None:
        while self.hall.bot_to_act(table):
            turn = self.hall.bot_turn(table)
            if turn is None:
                return
            # The bot thinks in a worker thread: the event loop keeps serving.
            action = await self.think(turn.choose)
            # Then it waits for the pause after the last public change (Hall.pause_until:
            # a hidden move's steps are not paced one by one). A table changed meanwhile
            # refuses the choice, and the bot looks again.
            wait = self.hall.pause_until(table) - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            self.hall.bot_acts(turn, action)


class _Clocks(_Tasks):
    """A table's clocks: a task that wakes when the first running clock runs out and
    has the seat's default bot play its turn; every change sets a new one."""

    def wake(self, table: Table) -> None:
        if table.clock is None:
            return
        task = self.tasks.pop(table.id, None)
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()
        if self.hall.clock_deadline(table) is not None:
            self.tasks[table.id] = asyncio.get_running_loop().create_task(self._run(table))

    async def _run(self, table: Table) -> None:
        while True:
            due = self.hall.clock_deadline(table)
            if due is None:
                return
            wait = due[1] - time.time()
            # A seat already out of time: its bot pauses like any bot, so people follow.
            await asyncio.sleep(wait if wait > 0 else self.hall.pause(table))
            turn = self.hall.clock_turn(table)
            if turn is None:
                continue
            action = await self.think(turn.choose)
            # The change wakes a new task for what follows (any change does).
            self.hall.bot_acts(turn, action)
            return


def create_app(
    hall: Hall,
    *,
    public_url: str = "",
    worker_urls: Sequence[str] = (),
    tables_per_minute: int = TABLES_PER_MINUTE,
) -> FastAPI:
    """The web table's application over ``hall``.

    Args:
        hall: the tables and their store.
        public_url: the address links start with (``http://host:port``); by default
            the address each request came to.
        worker_urls: with several workers (``hall.workers``), each worker's address:
            a table's links go to the worker that holds it, and a request that reaches
            another worker is redirected there.
        tables_per_minute: the new tables one client address may create a minute (HTTP
            429 past it); 0 for no limit.
    """
    if hall.workers > 1 and len(worker_urls) != hall.workers:
        raise ValueError(f"{hall.workers} workers need {hall.workers} worker_urls")
    thinkers = ThreadPoolExecutor(BOT_THREADS, thread_name_prefix="fogofwar-bot")
    sockets: dict[tuple[str, str | None], int] = {}  # the open websockets of each link
    replaying: dict[str, asyncio.Lock] = {}  # a table's replays, one at a time
    # A table brought back from the store, one rebuild at a time: its lock and users.
    rebuilding: dict[str, tuple[asyncio.Lock, list[int]]] = {}
    creations = _Rate(tables_per_minute, 60.0)
    bots = _Bots(hall, thinkers)
    clocks = _Clocks(hall, thinkers)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Every table of the store comes back as it was; bots whose turn it is resume.
        for table in hall.resume():
            _watch(table)
        for table in hall.tables.values():
            bots.wake(table)
            clocks.wake(table)
        yield
        await bots.stop()
        await clocks.stop()
        thinkers.shutdown(wait=False, cancel_futures=True)

    app = FastAPI(title="fogofwar web table", lifespan=lifespan, docs_url="/api/docs")
    app.state.hall = hall

    @app.middleware("http")
    async def headers(request: Request, call_next: Callable[[Request], Any]) -> Response:
        response: Response = await call_next(request)
        # The interactive API docs (/api/docs) load their scripts from a CDN.
        if not request.url.path.startswith(("/api/docs", "/docs/oauth2")):
            response.headers.update(SECURITY_HEADERS)
        return response

    watched: set[str] = set()

    def _watch(table: Table) -> None:
        if table.id not in watched:
            watched.add(table.id)
            table.listeners.add(bots.wake)
            if table.clock is not None:
                table.listeners.add(clocks.wake)
            # A table loaded from the store (after a restart, or made by another
            # worker): its bots and clocks go on.
            bots.wake(table)
            clocks.wake(table)

    def _base(request: HTTPConnection, worker: int | None = None) -> str:
        if worker is not None and worker_urls:
            return worker_urls[worker].rstrip("/")
        return public_url.rstrip("/") or str(request.base_url).rstrip("/")

    @app.exception_handler(RequestValidationError)
    async def bad_parameter(request: Request, exc: RequestValidationError) -> Response:
        # A query parameter FastAPI could not read (``since=abc``): the API's own error,
        # naming the parameter and what it takes, not FastAPI's list of details.
        problems = []
        for error in exc.errors():
            where = ".".join(str(p) for p in error.get("loc", ())[1:]) or "request"
            problems.append(f"{where}: {error.get('msg', 'invalid')}")
        return _error(400, "bad_request", "; ".join(problems) or "a bad request")

    @app.exception_handler(StarletteHTTPException)
    async def no_such_route(request: Request, exc: StarletteHTTPException) -> Response:
        # An address or method the server has no answer for: the API's own error shape
        # (not FastAPI's {"detail": ...}), as every other error.
        kind = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "bad_request")
        what = f"{request.method} {request.url.path}"
        message = {
            404: f"no such address: {what}",
            405: f"{what}: not a method this address takes",
        }.get(exc.status_code, str(exc.detail))
        answer = _error(exc.status_code, kind, message)
        answer.headers.update(exc.headers or {})  # a 405's Allow
        return answer

    @app.exception_handler(Misdirected)
    async def misdirected(request: Request, exc: Misdirected) -> Response:
        # Another worker holds the table: the same request, there.
        target = _base(request, exc.owner) + request.url.path
        if request.url.query:
            target += "?" + request.url.query
        return RedirectResponse(target, status_code=307)

    async def _open(table_id: str, token: str) -> tuple[Table, str | None]:
        table = hall.tables.get(table_id)
        if table is None:
            # A table not in memory (finished, or another worker's until now) is rebuilt
            # by replaying its actions: in a worker thread, one rebuild a table at a
            # time, so a long game's replay keeps no other table waiting.
            # Each id's lock lives while someone holds or awaits it: any id can be asked
            # for, and a lock kept per id asked would grow without bound.
            entry = rebuilding.setdefault(table_id, (asyncio.Lock(), [0]))
            entry[1][0] += 1
            try:
                async with entry[0]:
                    table = hall.tables.get(table_id)
                    if table is None:
                        table = await asyncio.to_thread(hall.table, table_id)
            finally:
                entry[1][0] -= 1
                if not entry[1][0]:
                    rebuilding.pop(table_id, None)
        _watch(table)
        return table, hall.seat_of(table, token)

    async def _body(request: Request) -> Any:
        # Read no further than the limit: a request of hundreds of MiB was read whole
        # before its size was checked.
        too_large = f"the request is over {MAX_MESSAGE} bytes"
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > MAX_MESSAGE:
            raise TooLarge(too_large)
        raw = bytearray()
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_MESSAGE:
                raise TooLarge(too_large)
        return _json(bytes(raw) or b"{}")

    # ------------------------------------------------------------------ the API

    def _options(rs: Ruleset) -> list[dict[str, JSON]]:
        # A file-reading option offers what a request may give it here: the shipped
        # names and the operator's files (the lobby's pick-list).
        offered = hall.guard.offered(rs)
        out = rs.config_schema.to_json()
        for o in out:
            if o["name"] in offered:
                o["offered"] = list(offered[str(o["name"])])
                # The option's own help names a file's path, which only the command
                # line may give: a request picks from what this server offers.
                o["help"] = (
                    f"A shipped {o['name']} or a file this server's operator offers "
                    "(fogofwar serve --data DIR); a web table opens no other file."
                )
        return out

    @app.get("/api/rulesets")
    def rulesets() -> JSONResponse:
        out = []
        for rs in sorted(set(registered_rulesets().values()), key=lambda r: r.id):
            seats = list(rs.metadata.seats)
            out.append(
                {
                    "id": rs.id,
                    "name": rs.metadata.name,
                    "seats": seats,
                    "default_seats": list(rs.seats(rs.resolve_config({}))),
                    "options": _options(rs),
                    "bots": available_bots(rs.id),
                    "default_bots": dict(rs.default_bots),
                    "description": rs.metadata.description,
                }
            )
        return JSONResponse(out)

    @app.post("/api/rulesets/{name}/seats")
    async def seats_for(request: Request, name: str) -> Response:
        # The seats of a config (a player count, a mode), with the bots that play each:
        # the lobby asks again whenever an option changes.
        try:
            rs = hall.guard.ruleset(name)
        except RulesError as exc:
            return _error(404, "not_found", str(exc))
        try:
            body = await _body(request)
            config = body.get("config", {}) if isinstance(body, dict) else None
            if not isinstance(config, dict):
                raise ValueError("expected a JSON object with a 'config' object")
            seats = list(rs.seats(rs.resolve_config(hall.guard.config(rs, config))))
        except (RulesError, ValueError, TypeError) as exc:
            return _refusal(exc)
        names = available_bots(rs.id)
        return JSONResponse(
            {
                "seats": seats,
                "bots": {s: [n for n in names if bot_spec(n, rs.id).plays_seat(s)] for s in seats},
                "default_bots": {s: rs.default_bots.get(s, "random") for s in seats},
            }
        )

    @app.post("/api/tables", status_code=201)
    async def create_table(request: Request) -> Response:
        who = client_key(request.client.host if request.client else "")
        wait = creations.wait(who)
        if wait > 0:
            return _error(
                429,
                "too_many",
                f"at most {creations.most} new tables a minute from one address: try "
                f"again in {math.ceil(wait)} s",
            )
        try:
            body = await _body(request)
            if not isinstance(body, dict):
                raise ValueError("expected a JSON object")
            seed = body.get("seed")
            if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int | str)):
                raise ValueError("seed: an integer or a hex secret")
            config, seats = body.get("config") or {}, body.get("seats") or {}
            options = body.get("options") or {}
            if not all(isinstance(x, dict) for x in (config, seats, options)):
                raise ValueError("config, seats and options are JSON objects")
            # Only what this server offers: no module imported, no file a request names.
            rs = hall.guard.ruleset(body.get("ruleset", ""))
            seats = hall.guard.seats(rs, seats)
            config = hall.guard.config(rs, config)
            table, tokens, spectator = hall.create(rs.id, config, seats, seed=seed, options=options)
        except (RulesError, ValueError, TypeError) as exc:
            creations.refund(who)  # a refused request made nothing: a fixed form may follow
            return _refusal(exc)
        owner = owner_of(table.id, hall.workers)
        if owner == hall.worker:
            _watch(table)
        base = _base(request, owner)
        return JSONResponse(
            {
                "table": table.id,
                "links": {s: f"{base}/t/{table.id}?token={t}" for s, t in tokens.items()},
                "spectator": f"{base}/t/{table.id}?token={spectator}",
                "commitment": table.recorder.commitment,
                "seeded": table.recorder.seeded,
            },
            status_code=201,
        )

    @app.get("/api/tables/{table_id}/view")
    async def view(table_id: str, token: str = "", since: int = 0) -> Response:
        try:
            table, seat = await _open(table_id, token)
        except (NotFound, Forbidden) as exc:
            return _refusal(exc)
        return Response(encode(table.message(seat, since)), media_type="application/json")

    @app.post("/api/tables/{table_id}/actions")
    async def act(request: Request, table_id: str, token: str = "", since: int = 0) -> Response:
        try:
            table, seat = await _open(table_id, token)
            body = await _body(request)
            if not isinstance(body, dict):
                raise ValueError("expected a JSON object")
            _act(table, seat, body)
        except (NotFound, Forbidden, Stale, Refused, ValueError) as exc:
            return _refusal(exc)
        return Response(encode(table.message(seat, since)), media_type="application/json")

    @app.post("/api/tables/{table_id}/preview")
    async def preview(request: Request, table_id: str, token: str = "") -> Response:
        try:
            table, seat = await _open(table_id, token)
            body = await _body(request)
            if not isinstance(body, dict):
                raise ValueError("expected a JSON object")
            version = _version(body)
            after = hall.preview(table, seat, body.get("actions"), version=version)
        except (NotFound, Forbidden, Stale, Refused, ValueError) as exc:
            return _refusal(exc)
        return Response(
            encode(
                {
                    "version": table.seat_version(seat),
                    "legal": [a.to_json() for a in after],
                    "notation": [str(a) for a in after],
                }
            ),
            media_type="application/json",
        )

    def _version(body: Mapping[str, Any]) -> int | None:
        version = body.get("version")
        if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
            raise ValueError("version: the version of what the link shows, a whole number")
        return version

    def _act(table: Table, seat: str | None, body: Mapping[str, Any]) -> None:
        version = _version(body)
        notation = body.get("notation")
        if notation is not None and not isinstance(notation, str):
            raise ValueError("notation: a string")
        hall.act(table, seat, action=body.get("action"), notation=notation, version=version)

    @app.get("/api/tables/{table_id}/board")
    async def board(table_id: str, token: str = "") -> Response:
        try:
            table, _ = await _open(table_id, token)
        except (NotFound, Forbidden) as exc:
            return _refusal(exc)
        return Response(encode({"board": table.board}), media_type="application/json")

    @app.get("/api/tables/{table_id}/sight")
    async def sight(table_id: str, token: str = "", square: str = "") -> Response:
        try:
            table, seat = await _open(table_id, token)
        except (NotFound, Forbidden) as exc:
            return _refusal(exc)
        if len(square) > 16:
            return _error(400, "bad_request", "square: a square's name")
        # The view is taken here, between changes; the sight (tens of milliseconds on a
        # Zero Dark map) is worked out from it in a worker thread.
        view = table.recorder.state.view(seat)
        rules = table.ruleset
        seen = await asyncio.to_thread(rules.sight_json, table.recorder.config, view, square)
        if seen is None:
            return _error(404, "not_found", f"{table.ruleset.id} shows no sight from {square!r}")
        return Response(encode({"sight": seen}), media_type="application/json")

    @app.get("/api/tables/{table_id}/replay")
    async def replay(table_id: str, token: str = "", at: int = 0, seat: str = "") -> Response:
        try:
            table, own = await _open(table_id, token)
            # After the end every secret is public: any seat's view may be replayed
            # (``spectator``: the public one); by default the link's own.
            if seat and seat != "spectator" and seat not in table.players:
                raise ValueError(f"seat: one of {', '.join(table.players)} or spectator")
            whose = own if not seat else None if seat == "spectator" else seat
            # A finished game no longer changes, but its replay keeps one recorder that
            # steps on: one replay of a table at a time, in a worker thread (a long game
            # replayed from its start must not hold up every other table).
            async with replaying.setdefault(table.id, asyncio.Lock()):
                answer = await asyncio.to_thread(table.replay, whose, at)
        except (NotFound, Forbidden, ValueError) as exc:
            return _refusal(exc)
        return Response(encode(answer), media_type="application/json")

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str, token: str = "") -> Response:
        try:
            table, _ = await _open(table_id, token)
        except (NotFound, Forbidden) as exc:
            return _refusal(exc)
        if not table.over:
            return _error(
                403, "forbidden", "the record holds the secret: it is shown after the end"
            )
        return Response(
            json.dumps(table.recorder.record().to_json(), indent=1, ensure_ascii=False),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{table.id}.json"'},
        )

    # ------------------------------------------------------------------ the websocket

    @app.websocket("/ws/tables/{table_id}")
    async def live(ws: WebSocket, table_id: str, token: str = "", since: str = "0") -> None:
        try:
            # Read here, not by FastAPI: a bad query parameter refused at the handshake
            # reaches a client as a bare HTTP 403, with no reason.
            first = int(since) if since.isascii() and since.isdigit() and len(since) <= 18 else None
            if first is None:
                await ws.accept()
                await ws.close(code=4400, reason="since: a whole number (the events seen)")
                return
            table, seat = await _open(table_id, token)
        except (NotFound, Forbidden, Misdirected) as exc:
            # Accepted, then closed at once with the code and the reason: a close before
            # the handshake completes reaches a client as a bare HTTP 403, and a client
            # sent to another worker would not learn where to go.
            if isinstance(exc, Misdirected):
                code, reason = 4421, _base(ws, exc.owner)  # the worker that holds it
            else:
                code, reason = (4403 if isinstance(exc, Forbidden) else 4404), str(exc)
            await ws.accept()
            await ws.close(code=code, reason=_close_reason(reason))
            return
        await ws.accept()
        link = (table.id, seat)
        most = MAX_SOCKETS_SPECTATORS if seat is None else MAX_SOCKETS_PER_LINK
        if sockets.get(link, 0) >= most:
            # Each change builds a message for every connection: thousands of sockets on
            # one table would make every action take seconds.
            who = "the spectators' link" if seat is None else f"{seat}'s link"
            reason = f"{who} has {most} connections open; close one"
            await ws.close(code=4429, reason=_close_reason(reason))
            return
        sockets[link] = sockets.get(link, 0) + 1
        changed = asyncio.Event()
        position = {"next": first}

        def listener(_: Table) -> None:
            changed.set()

        async def push() -> None:
            sent = None
            while True:
                # Only what changes what this link shows is pushed: a push after a
                # change the seat cannot see (an unseen agent's step) would tell it of
                # the change, and how many there were.
                if table.seat_version(seat) != sent:
                    message = table.message(seat, position["next"])
                    position["next"] = int(str(message["next"]))
                    sent = message["version"]
                    await ws.send_text(encode({"type": "state", **message}))
                await changed.wait()
                changed.clear()

        table.listeners.add(listener)
        sender = asyncio.get_running_loop().create_task(push())
        try:
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                text = frame.get("text")
                if text is None:  # a binary frame: answered, and the connection kept
                    reply: dict[str, JSON] | None = {
                        "type": "error",
                        "error": "bad_request",
                        "message": "send text frames of JSON",
                    }
                else:
                    reply = _frame(table, seat, text)
                if reply is not None:
                    await ws.send_text(encode(reply))
        except WebSocketDisconnect:
            pass
        finally:
            table.listeners.discard(listener)
            sockets[link] -= 1
            if not sockets[link]:
                del sockets[link]
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender

    def _frame(table: Table, seat: str | None, text: str) -> dict[str, JSON] | None:
        """One frame from a client: an action or a notation (the new state is pushed to
        every connection); a refusal is answered on this connection only."""
        if len(text.encode("utf-8")) > MAX_MESSAGE:
            return {
                "type": "error",
                "error": "too_large",
                "message": f"at most {MAX_MESSAGE} bytes",
            }
        try:
            body = _json(text)
            if not isinstance(body, dict):
                raise ValueError("expected a JSON object")
            _act(table, seat, body)
        except (Forbidden, Stale, Refused, ValueError) as exc:
            answer = json.loads(bytes(_refusal(exc).body))
            return {"type": "error", **answer}
        return None

    # ------------------------------------------------------------------ pages

    # The pages answer HEAD too (an uptime check's `curl -I` got a 405 in JSON). They are
    # no part of the API's schema (in it, GET and HEAD made one operation id twice).
    @app.api_route(
        "/", methods=["GET", "HEAD"], response_class=HTMLResponse, include_in_schema=False
    )
    def lobby() -> HTMLResponse:
        return HTMLResponse(lobby_page())

    @app.api_route(
        "/t/{table_id}",
        methods=["GET", "HEAD"],
        response_class=HTMLResponse,
        include_in_schema=False,
    )
    async def table_view(table_id: str, token: str = "") -> Response:
        try:
            table, seat = await _open(table_id, token)
        except (NotFound, Forbidden) as exc:
            # The message quotes the address's table id: escaped, or a crafted link
            # runs its script on this server's pages.
            forbidden = isinstance(exc, Forbidden)
            return HTMLResponse(
                error_page("This link opens no seat" if forbidden else "No such table", str(exc)),
                status_code=403 if forbidden else 404,
            )
        return HTMLResponse(table_page(table.ruleset.id, seat, table.ruleset.metadata.name))

    @app.api_route("/static/{name}", methods=["GET", "HEAD"], include_in_schema=False)
    def static(name: str) -> Response:
        path = _PAGES / name
        if "/" in name or name.startswith(".") or not path.is_file():
            return _error(404, "not_found", f"no file {name!r}")
        kind = {"js": "text/javascript", "css": "text/css", "svg": "image/svg+xml"}
        media = kind.get(name.rsplit(".", 1)[-1], "application/octet-stream")
        return Response(path.read_bytes(), media_type=media)

    @app.get("/api/rulesets/{name}")
    def one_ruleset(name: str) -> Response:
        try:
            rs = hall.guard.ruleset(name)
        except RulesError as exc:
            return _error(404, "not_found", str(exc))
        return JSONResponse({"id": rs.id, "metadata": rs.metadata.to_json()})

    return app
