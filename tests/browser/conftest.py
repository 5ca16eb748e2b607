"""Browser tests: a real server (uvicorn, in a thread, on a free port, over a fresh
store) and Playwright driving Debian's chromium (``apt-get install chromium``; never
``playwright install``). A missing browser fails the run: it is not skipped.
Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from playwright.sync_api import Browser, Page, sync_playwright

from fogofwar.server.app import create_app, uvicorn_config
from fogofwar.server.hall import Hall
from fogofwar.server.store import Store

CHROMIUM = os.environ.get("FOGOFWAR_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
# Chromium as root in a closed network: no sandbox, no background connections.
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


class LiveServer:
    """A fogofwar server on a free local port, in a background thread."""

    def __init__(self, db: Path) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.hall = Hall(Store(db), bot_pause=0.05)
        app = create_app(self.hall, public_url=self.url)
        # Served as `fogofwar serve` serves it (frame limits included).
        self.server = uvicorn.Server(uvicorn_config(app, host="127.0.0.1", port=self.port))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.hall.store.close()

    def client_view(self, table: str, token: str) -> dict[str, Any]:
        """A link's message, as the API gives it."""
        import httpx2 as httpx

        r = httpx.get(f"{self.url}/api/tables/{table}/view", params={"token": token}, timeout=30)
        r.raise_for_status()
        data: dict[str, Any] = r.json()
        return data

    def act(self, table: str, token: str, **body: Any) -> dict[str, Any]:
        """Act for a token's seat (``POST /api/tables/{id}/actions``): ``action=`` its
        JSON form, or ``notation=``."""
        import httpx2 as httpx

        r = httpx.post(
            f"{self.url}/api/tables/{table}/actions",
            params={"token": token},
            json=body,
            timeout=30,
        )
        r.raise_for_status()
        data: dict[str, Any] = r.json()
        return data

    def table(self, **body: Any) -> dict[str, Any]:
        import httpx2 as httpx

        r = httpx.post(f"{self.url}/api/tables", json=body, timeout=30)
        r.raise_for_status()
        data: dict[str, Any] = r.json()
        return data


#: A short whole game of Rock-n-Roll: Vietnam at the page, the VPA a bot, one round.
ONE_ROUND_OF_ROCK_N_ROLL: dict[str, Any] = {
    "ruleset": "rock-n-roll",
    "seats": {"vietnam": "human", "vpa": "rnr-heuristic"},
    "config": {"rounds": 1},
    "seed": 1,
}


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    with LiveServer(tmp_path / "tables.db") as server:
        yield server


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"no browser at {CHROMIUM}: apt-get install chromium (.ci/run does)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    yield pg
    context.close()


def shot(page: Page, name: str) -> None:
    """Keep a screenshot of the page for people to look at (test-artifacts/)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def version_of(page: Page) -> str:
    """The version of what the page's link shows (the status line's ``data-version``):
    it changes with every new view the page draws, and only then."""
    return str(page.locator("#status").get_attribute("data-version"))


#: The same, read in the page (for ``wait_for_function``).
SHOWN = "document.querySelector('#status').dataset.version"
