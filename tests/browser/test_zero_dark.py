"""Zero Dark on the web table's map (static/zerodark.js): the seat's models with their
facings, the pings, the sight the API gives when a square is hovered, and a mission
played to its end by clicking the map (its buttons only where no square will do)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .conftest import LiveServer, shot, version_of

# One hero on the open depot: a short mission (a few moves, a shot, a flip, the end).
CONFIG = {"heroes": 1, "map": "zd-open"}


def api(live: LiveServer, link: str, path: str, **params: str) -> Any:
    import httpx2 as httpx

    table = link.split("/t/", 1)[1].split("?", 1)[0]
    token = link.split("token=", 1)[1]
    r = httpx.get(f"{live.url}/api/tables/{table}/{path}", params={"token": token, **params})
    r.raise_for_status()
    return r.json()


def status_changes(page: Page, before: str, timeout: float = 3000) -> bool:
    try:
        page.wait_for_function(
            "v => document.querySelector('#status').dataset.version !== v",
            arg=before,
            timeout=timeout,
        )
    except PlaywrightTimeout:  # nothing was sent (or it was refused)
        return False
    return True


def play_by_clicking_the_map(page: Page, limit: int = 200) -> int:
    """Click the first square the seat may click (a model to activate or shoot, a square
    to step to, the active model's own square to stop); where that square stands for
    several actions the page offers their buttons: click the first. With no square to
    click, the first button (the tested action, the flip). Returns the map's clicks."""
    clicks = 0
    for _ in range(limit):
        if page.locator("#end").is_visible():
            return clicks
        before = version_of(page)
        squares = page.locator("#board-svg rect.square.legal")
        if squares.count():
            squares.first.click()
            clicks += 1
            if status_changes(page, before):
                continue
        button = page.locator("#actions button:visible").first
        if button.count():
            button.click()
            status_changes(page, before, timeout=15000)
        else:
            page.wait_for_timeout(50)
    raise AssertionError("the mission did not end")


def shaded(page: Page, selector: str = "#zd-sight rect.zd-sight") -> set[str]:
    return set(page.eval_on_selector_all(selector, "els => els.map(e => e.dataset.square)"))


def test_zero_dark_on_the_map_with_sight_on_hover(live: LiveServer, page: Page) -> None:
    t = live.table(ruleset="zero-dark", seats={"team": "human"}, config=CONFIG, seed=5)
    link = t["links"]["team"]
    page.goto(link)
    view = api(live, link, "view")["view"]["view"]
    models = {m["id"]: m for m in view["models"]}
    # Every model of the view on the map: the hero with its facing mark, the pings as
    # counters (no facing: a ping faces nothing the seat may know).
    for m in models.values():
        expect(page.locator(f'g.zd-model[data-model="{m["id"]}"]')).to_have_count(1)
    hero = models["H1"]
    facing = page.locator('path.zd-facing[data-model="H1"]')
    expect(facing).to_have_attribute("data-facing", hero["facing"])
    assert page.locator("g.zd-model.zd-hero").count() == 1
    pings = [m for m in models.values() if m["kind"] == "ping"]
    assert pings and page.locator("g.zd-model.zd-ping").count() == len(pings)
    assert page.locator("g.zd-ping path.zd-facing").count() == 0
    expect(page.locator("#zd-legend")).to_be_visible()
    # Beside the map, what the seat knows as sentences, not the view's fields: the
    # Control Deck, the hero with its square and facing, the pings it sees.
    panel = page.locator(".zd-panel")
    expect(panel).to_contain_text(f"Control Deck: {view['deck']['left']} left")
    expect(panel).to_contain_text(f"{hero['squares'][0]} facing {hero['facing']}")
    expect(panel).to_contain_text(f"{len(pings)} pings")

    # Hovering the hero's square shades what the API says it sees (its field of view
    # darker); the info line says so; leaving the map clears it.
    square = hero["squares"][0]
    page.hover(f'rect.square[data-square="{square}"]')
    sight = api(live, link, "sight", square=square)["sight"]
    assert sight["viewer"]["id"] == "H1" and sight["seen"]
    page.wait_for_selector("#zd-sight rect.zd-sight")
    assert shaded(page) == set(sight["seen"])
    field = shaded(page, "#zd-sight rect.zd-field, #zd-sight rect.zd-field-obscured")
    assert field == set(sight["field"])
    expect(page.locator("#zd-sight-info")).to_contain_text(f"From {square} (H1")
    shot(page, "zero-dark-sight")
    # Another square (empty: a stand-in looks all round) replaces the shading.
    other = next(
        s for s in ("F12", "G12", "F13") if s not in {m["squares"][0] for m in models.values()}
    )
    page.hover(f'rect.square[data-square="{other}"]')
    sight = api(live, link, "sight", square=other)["sight"]
    assert sight["viewer"]["id"] is None and sight["seen"]
    page.wait_for_function(
        "sq => document.querySelector('#zd-sight rect.zd-from')?.dataset.square === sq",
        arg=other,
    )
    assert shaded(page) == set(sight["seen"])
    page.mouse.move(2, 2)
    expect(page.locator("#zd-sight rect")).to_have_count(0)

    # The mission, played by clicking the map to its end.
    clicks = play_by_clicking_the_map(page)
    assert clicks >= 5
    expect(page.locator("#verified")).to_contain_text("Verified")
    shot(page, "zero-dark-map-end")


def test_a_spectator_of_versus_sees_two_teams_by_name(live: LiveServer, page: Page) -> None:
    # A spectator of a Versus game was shown team1's heroes as its own ("your heroes")
    # and team2's as "enemy heroes".
    t = live.table(
        ruleset="zero-dark",
        seats={"team1": "human", "team2": "human"},
        config={"mode": "versus", "map": "zd-open"},
        seed=3,
    )
    page.goto(t["spectator"])
    legend = page.locator("#zd-legend")
    expect(legend).to_contain_text("team1's heroes")
    expect(legend).to_contain_text("team2's heroes")
    expect(legend).not_to_contain_text("your heroes")
    facts = page.locator("#summary")
    expect(facts).to_contain_text("team1's heroes")
    expect(facts).not_to_contain_text("enemy heroes")
    # A team's own page keeps its words.
    page.goto(t["links"]["team1"])
    expect(page.locator("#zd-legend")).to_contain_text("your heroes")
