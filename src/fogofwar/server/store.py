"""The web table's store: SQLite, one file, the embedded default.

Three tables hold everything a server needs to rebuild its games after a crash:

* ``tables`` — one row a game: its rule set, resolved config, seed (the umpire's secret:
  it never leaves the server before the end), whether it was seeded, its commitment, the
  seats (``human`` or a bot's name), the options of the table (clocks, bot pause) and
  when it was created and finished;
* ``tokens`` — the SHA-256 of each seat's and the spectator's link token, never the
  token itself: a stolen database gives no one a seat;
* ``actions`` — every accepted action, in order, with its digest (the record's chain)
  and who chose it when not the seat's player (``clock``: its default bot, the seat
  being out of time);

and ``tables.clocks`` holds each timed seat's time left as of its last action.

An action is appended in a transaction that commits *before* any client hears of it,
so an acknowledged action survives a crash of the server process. The journal is WAL
with ``synchronous=NORMAL`` by default: a commit survives the process being killed
(SIGKILL included); ``synchronous=FULL`` (``--sync full``) also survives the machine
losing power, at the price of an fsync a commit.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from ..core.game import JSON, Action

__all__ = ["SCHEMA_VERSION", "Store", "StoredTable", "Sync", "hash_token"]

#: The store's schema version (``PRAGMA user_version``).
SCHEMA_VERSION: Final = 2

Sync = Literal["normal", "full"]

#: What turns a store of each older schema into the next one.
_MIGRATIONS: Final = {
    1: "ALTER TABLE tables ADD COLUMN clocks TEXT; ALTER TABLE actions ADD COLUMN chosen_by TEXT;",
}
_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    ruleset TEXT NOT NULL,
    config TEXT NOT NULL,
    seed TEXT NOT NULL,
    seeded INTEGER NOT NULL,
    commitment TEXT NOT NULL,
    seats TEXT NOT NULL,
    options TEXT NOT NULL,
    created TEXT NOT NULL,
    finished TEXT,
    clocks TEXT
);
CREATE TABLE IF NOT EXISTS tokens (
    hash TEXT PRIMARY KEY,
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    idx INTEGER NOT NULL,
    action TEXT NOT NULL,
    digest TEXT NOT NULL,
    chosen_by TEXT,
    PRIMARY KEY (table_id, idx)
);
"""


def hash_token(token: str) -> str:
    """What the store keeps of a link token: its SHA-256, in hex."""
    return hashlib.sha256(b"fogofwar-token-v1\0" + token.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class StoredTable:
    """A table as the store holds it (see the module documentation)."""

    id: str
    ruleset: str
    config: dict[str, JSON]
    seed: str
    seeded: bool
    commitment: str
    seats: dict[str, str]
    options: dict[str, JSON]
    created: str
    finished: str | None


class Store:
    """The SQLite store of one server.

    Args:
        path: the database file (created with its folder when missing), or
            ``":memory:"`` for tests.
        sync: ``"normal"`` (durable across a crash of the process) or ``"full"``
            (across a power loss too).
    """

    def __init__(self, path: str | Path, *, sync: Sync = "normal") -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.path = str(path)
        self.sync = sync
        # One connection, used from the event loop and from bot threads under a lock.
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={sync.upper()}")
        self._db.execute("PRAGMA foreign_keys=ON")
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise RuntimeError(
                f"{self.path}: a store of schema {version}; this fogofwar reads "
                f"{SCHEMA_VERSION} (use a newer fogofwar, or another --db)"
            )
        if version == 0:
            self._db.executescript(_SCHEMA)
        while 0 < version < SCHEMA_VERSION:
            self._db.executescript("BEGIN;" + _MIGRATIONS[version] + "COMMIT;")
            version += 1
        self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # ------------------------------------------------------------------ writing

    def create_table(self, table: StoredTable, tokens: Iterable[tuple[str, str | None]]) -> None:
        """Add a table and its link tokens (``(token, seat or None for the spectator)``),
        in one transaction."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "INSERT INTO tables VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                    (
                        table.id,
                        table.ruleset,
                        _dump(table.config),
                        table.seed,
                        int(table.seeded),
                        table.commitment,
                        _dump(table.seats),
                        _dump(table.options),
                        table.created,
                        table.finished,
                        None,
                    ),
                )
                self._db.executemany(
                    "INSERT INTO tokens VALUES (?,?,?)",
                    [(hash_token(t), table.id, seat) for t, seat in tokens],
                )
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def append(
        self,
        table_id: str,
        start: int,
        actions: Sequence[Action],
        digests: Sequence[str],
        finished: str | None = None,
        *,
        chosen_by: str | None = None,
        clocks: Mapping[str, float] | None = None,
    ) -> None:
        """Append ``actions`` at indices ``start``, ``start + 1``, … (and mark the table
        finished when the game ended; keep its clocks), committed before this returns.

        Args:
            chosen_by: who chose the actions when not the seat's player (``"clock"``).
            clocks: the timed seats' time left after them.

        Raises:
            sqlite3.IntegrityError: an index is taken (two writers on one table).
        """
        rows = [
            (table_id, start + i, _dump(a.to_json()), d, chosen_by)
            for i, (a, d) in enumerate(zip(actions, digests, strict=True))
        ]
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany("INSERT INTO actions VALUES (?,?,?,?,?)", rows)
                if clocks is not None:
                    self._db.execute(
                        "UPDATE tables SET clocks=? WHERE id=?", (_dump(clocks), table_id)
                    )
                if finished is not None:
                    self._db.execute(
                        "UPDATE tables SET finished=? WHERE id=?", (finished, table_id)
                    )
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    # ------------------------------------------------------------------ reading

    def table(self, table_id: str) -> StoredTable | None:
        with self._lock:
            row = self._db.execute("SELECT * FROM tables WHERE id=?", (table_id,)).fetchone()
        return None if row is None else _table(row)

    def tables(self, *, unfinished: bool = False) -> list[StoredTable]:
        """Every table, oldest first (only the unfinished ones when asked)."""
        query = "SELECT * FROM tables"
        if unfinished:
            query += " WHERE finished IS NULL"
        with self._lock:
            rows = self._db.execute(query + " ORDER BY created, id").fetchall()
        return [_table(r) for r in rows]

    def actions(self, table_id: str) -> list[Action]:
        """A table's accepted actions, in order."""
        return [a for a, _ in self.actions_chosen(table_id)]

    def actions_chosen(self, table_id: str) -> list[tuple[Action, str | None]]:
        """A table's accepted actions, in order, each with who chose it when not the
        seat's player."""
        with self._lock:
            rows = self._db.execute(
                "SELECT action, chosen_by FROM actions WHERE table_id=? ORDER BY idx",
                (table_id,),
            ).fetchall()
        return [(Action.from_json(json.loads(r[0])), r[1]) for r in rows]

    def clocks(self, table_id: str) -> dict[str, float] | None:
        """The timed seats' time left as of the table's last action (``None``: as they
        were set)."""
        with self._lock:
            row = self._db.execute("SELECT clocks FROM tables WHERE id=?", (table_id,)).fetchone()
        return None if row is None or row[0] is None else dict(json.loads(row[0]))

    def seat_of(self, table_id: str, token: str) -> tuple[bool, str | None]:
        """Whether ``token`` is a link of the table, and its seat (``None``: the
        spectator)."""
        with self._lock:
            row = self._db.execute(
                "SELECT seat FROM tokens WHERE hash=? AND table_id=?",
                (hash_token(token), table_id),
            ).fetchone()
        return (False, None) if row is None else (True, row[0])


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _table(row: tuple[Any, ...]) -> StoredTable:
    return StoredTable(
        id=row[0],
        ruleset=row[1],
        config=json.loads(row[2]),
        seed=row[3],
        seeded=bool(row[4]),
        commitment=row[5],
        seats=json.loads(row[6]),
        options=json.loads(row[7]),
        created=row[8],
        finished=row[9],
    )
