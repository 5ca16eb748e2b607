"""What the web table's tests share: a server (its hall on a fresh SQLite store, bots
without a pause) behind FastAPI's test client."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from fogofwar.core.game import get_ruleset
from fogofwar.server.app import create_app
from fogofwar.server.hall import Hall
from fogofwar.server.store import Store

#: The example plug-in the tests' tables play. A request imports nothing, so it is loaded
#: here, as `fogofwar serve --plugin REF` loads one (server.guard).
EXAMPLE = "tests.example_game:HideAndSeek"


@pytest.fixture(autouse=True)
def _example_loaded() -> None:
    get_ruleset(EXAMPLE)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "tables.db"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    hall = Hall(Store(db), bot_pause=0.0)
    with TestClient(create_app(hall)) as c:
        yield c
    hall.store.close()
