"""The card tables (static/cards.js) in a browser: Rock-n-Roll and Warfighter drawn as
rows of cards from the seat's view alone — the seat's hand face up, what it may not know
as backs and counts — and whole games played to the end by clicking cards."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs, urlparse

import httpx2 as httpx
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from .conftest import ONE_ROUND_OF_ROCK_N_ROLL, LiveServer, shot


def api_view(live: LiveServer, link: str) -> dict[str, Any]:
    """The message of a link, from the API (``GET /api/tables/{id}/view``)."""
    url = urlparse(link)
    table = url.path.rsplit("/", 1)[-1]
    token = parse_qs(url.query)["token"][0]
    r = httpx.get(f"{live.url}/api/tables/{table}/view", params={"token": token}, timeout=30)
    r.raise_for_status()
    data: dict[str, Any] = r.json()
    return data


def act(live: LiveServer, link: str, notation: str) -> dict[str, Any]:
    """Act for a link's seat through the API (``POST /api/tables/{id}/actions``)."""
    url = urlparse(link)
    table = url.path.rsplit("/", 1)[-1]
    return live.act(table, parse_qs(url.query)["token"][0], notation=notation)


def rnr_table(live: LiveServer) -> dict[str, Any]:
    """A Rock-n-Roll table of two people, Vietnam on turn (the VPA lets its first
    action go without a Devil's hand interrupt)."""
    t = live.table(
        ruleset="rock-n-roll",
        seats={"vietnam": "human", "vpa": "human"},
        config={"rounds": 1},
        seed=3,
    )
    act(live, t["links"]["vpa"], "pass")
    return t


def card_ids(page: Page, selector: str) -> list[str]:
    ids: list[str] = page.eval_on_selector_all(selector, "cs => cs.map(c => c.dataset.card)")
    return ids


def wait_for_version(page: Page, version: int) -> None:
    """Until the page shows the link's message of ``version``."""
    expect(page.locator("#status")).to_have_attribute("data-version", str(version))


def wait_for_change(page: Page, version: int) -> None:
    """Until the page shows a message after the one of ``version``."""
    expect(page.locator("#status")).not_to_have_attribute("data-version", str(version))


# What the page shows now, read at once (the websocket may redraw it at any moment).
STATE = """() => ({
    end: !document.querySelector('#end').hidden,
    status: document.querySelector('#status').dataset.version,
    selection: (document.querySelector('#board .fc-selection') || {}).textContent || '',
    targets: document.querySelectorAll('#board .card.target').length,
    playable: document.querySelectorAll('#board .card.playable').length,
    buttons: [...document.querySelectorAll('#actions button')].filter(b => !b.hidden).length,
})"""
# A click has had its effect: a new state came, or the selection changed.
CHANGED = """([status, selection]) =>
    document.querySelector('#status').dataset.version !== status
    || ((document.querySelector('#board .fc-selection') || {}).textContent || '') !== selection"""


def play_by_cards(page: Page, limit: int) -> int:
    """Play to the end: while a card is selected, click a highlighted target card (or
    else the first action button left); otherwise click the first playable card
    whenever one exists, else the first action button. Returns how many clicks were
    on cards."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    on_cards = 0
    for _ in range(limit):
        now = page.evaluate(STATE)
        assert not errors, errors
        if now["end"]:
            return on_cards
        if now["selection"] and now["targets"]:
            click, on_cards = page.locator("#board .card.target").first, on_cards + 1
        elif now["selection"]:
            click = page.locator("#actions button:visible").first
        elif now["playable"]:
            click, on_cards = page.locator("#board .card.playable").first, on_cards + 1
        elif now["buttons"]:
            click = page.locator("#actions button").first
        else:
            page.wait_for_timeout(50)
            continue
        try:
            click.click(timeout=5000)
            page.wait_for_function(CHANGED, arg=[now["status"], now["selection"]], timeout=15000)
        except PlaywrightTimeoutError as exc:
            if page.evaluate(CHANGED, [now["status"], now["selection"]]):
                continue  # a new state came between the reading and the click: read again
            shot(page, "cards-stalled")
            after = page.evaluate(STATE)
            refusal = page.locator("#refusal").inner_text()
            raise AssertionError(f"stalled: {now} -> {after}; refusal {refusal!r}") from exc
    raise AssertionError("the game did not end")


def test_rock_n_roll_shows_the_own_hand_face_up_and_the_other_as_backs(
    live: LiveServer, page: Page
) -> None:
    t = rnr_table(live)
    mine = api_view(live, t["links"]["vietnam"])
    theirs = api_view(live, t["links"]["vpa"])
    view = mine["view"]["view"]
    page.goto(t["links"]["vietnam"])
    wait_for_version(page, mine["version"])
    hand = '#board [data-row="hand"][data-side="vietnam"] .card'
    expect(page.locator(hand).first).to_be_visible()
    assert sorted(card_ids(page, hand)) == sorted(c["id"] for c in view["hand"])
    # The Points are cards too, named by their letters.
    assert card_ids(page, '#board [data-row="points"] .card.point') == [
        p["letter"] for p in view["points"]
    ]
    # The VPA's hand: as many backs as the view counts, none with a face or an id.
    other = page.locator('#board [data-row="hand"][data-side="vpa"] .card')
    assert other.count() == view["sides"]["vpa"]["hand"] > 0
    assert (
        other.count()
        == page.locator('#board [data-row="hand"][data-side="vpa"] .card.back').count()
    )
    assert card_ids(page, '#board [data-row="hand"][data-side="vpa"] .card[data-card]') == []
    # Nothing of the VPA's hand (the truth, from the VPA's own link) is on Vietnam's table.
    board_text = page.locator("#board").inner_text()
    drawn = set(card_ids(page, "#board .card[data-card]"))
    for c in theirs["view"]["view"]["hand"]:
        assert c["id"] not in drawn
        assert c["id"] not in board_text.split()
    # Decks and counts are drawn as piles.
    assert page.locator('#board [data-row="decks"] .pile').count() == 4
    shot(page, "cards-rock-n-roll-start")


def test_a_rock_n_roll_spectator_sees_every_hand_as_backs(live: LiveServer, page: Page) -> None:
    t = rnr_table(live)
    msg = api_view(live, t["spectator"])
    view = msg["view"]["view"]
    page.goto(t["spectator"])
    wait_for_version(page, msg["version"])
    for side in ("vietnam", "vpa"):
        row = f'#board [data-row="hand"][data-side="{side}"] .card'
        expect(page.locator(row).first).to_be_visible()
        assert page.locator(row).count() == view["sides"][side]["hand"]
        assert card_ids(page, row + "[data-card]") == []
    assert page.locator("#board .card.playable").count() == 0


def test_a_rock_n_roll_card_click_selects_then_sends(live: LiveServer, page: Page) -> None:
    t = rnr_table(live)
    msg = api_view(live, t["links"]["vietnam"])
    page.goto(t["links"]["vietnam"])
    wait_for_version(page, msg["version"])
    # A unit in hand names several deployments: the click narrows the buttons to them.
    deploys = [a for a in msg["legal"] if a["kind"] == "deploy"]
    assert deploys
    unit, point = deploys[0]["args"]
    options = [a for a in msg["legal"] if unit in a["args"]]
    assert len(options) > 1
    page.locator(f'#board [data-row="hand"] .card[data-card="{unit}"]').click()
    expect(page.locator("#board .fc-selection")).to_be_visible()
    expect(page.locator("#actions button:visible")).to_have_count(len(options))
    shot(page, "cards-rock-n-roll-selected")
    # The Point completes the choice: one action left, sent.
    page.locator(f'#board .card.point.target[data-card="{point}"]').click()
    wait_for_change(page, msg["version"])
    after = api_view(live, t["links"]["vietnam"])["view"]["view"]
    on_point = next(p for p in after["points"] if p["letter"] == point)
    assert unit in [u["id"] for u in on_point["units"]]
    expect(
        page.locator(f'#board [data-row="points"] .card.unit[data-card="{unit}"]')
    ).to_be_visible()


#: The order of kinds that plays a Rock-n-Roll match through the API into an arrival
#: whose units Vietnam may take from its HQ (seed 3: after about 190 actions).
FIGHT_FIRST = ("attack", "ambush", "deploy", "orders", "pour", "keep", "pass", "free", "spare")


def test_the_arrivals_units_are_taken_from_the_hq_by_a_click(live: LiveServer, page: Page) -> None:
    # PT-C2: a side whose HQ holds units takes the arrival's units from the deck or the
    # HQ. Both seats are played through the API until Vietnam is asked; the page says
    # what is asked, and a click on the HQ's card takes it into the hand.
    t = live.table(
        ruleset="rock-n-roll",
        seats={"vietnam": "human", "vpa": "human"},
        config={"rounds": 3},
        seed=3,
    )
    for _ in range(400):
        msgs = {s: api_view(live, t["links"][s]) for s in ("vietnam", "vpa")}
        pending = msgs["vietnam"]["view"]["view"]["pending"]
        if pending and pending.get("arrival") and pending["seat"] == "vietnam":
            break
        seat = next(s for s in msgs if msgs[s]["legal"])
        legal = msgs[seat]["legal"]
        pick = next(
            (
                i
                for k in FIGHT_FIRST
                for i, a in enumerate(legal)
                if a["kind"] == k and not (k == "pass" and a["args"])
            ),
            len(legal) - 1,
        )
        act(live, t["links"][seat], msgs[seat]["notation"][pick])
    else:
        raise AssertionError("no arrival with units in Vietnam's HQ")
    msg = msgs["vietnam"]
    view = msg["view"]["view"]
    assert view["phase"] == "arrival"
    hq = [u["id"] for u in view["sides"]["vietnam"]["hq"]]
    assert sorted(msg["notation"]) == sorted(["take deck", *(f"take {u}" for u in hq)])
    page.goto(t["links"]["vietnam"])
    wait_for_version(page, msg["version"])
    expect(page.locator("#board .fc-status")).to_contain_text(
        "take (the arrival's units: from the deck or the HQ)"
    )
    shot(page, "cards-rock-n-roll-arrival")
    page.locator(f'#board [data-row="hq"] .card[data-card="{hq[0]}"]').click()
    wait_for_change(page, msg["version"])
    after = api_view(live, t["links"]["vietnam"])["view"]["view"]
    assert hq[0] in [c["id"] for c in after["hand"]]
    assert hq[0] not in [u["id"] for u in after["sides"]["vietnam"]["hq"]]


def test_a_rock_n_roll_game_played_to_its_end_by_clicking_cards(
    live: LiveServer, page: Page
) -> None:
    t = live.table(**ONE_ROUND_OF_ROCK_N_ROLL)
    page.goto(t["links"]["vietnam"])
    expect(page.locator("#board .card").first).to_be_visible()
    assert play_by_cards(page, limit=1500) > 0
    expect(page.locator("#verified")).to_contain_text("Verified")
    # Once the match is over every hand is open: the VPA's too.
    end = api_view(live, t["links"]["vietnam"])["view"]["view"]
    vpa = '#board [data-row="hand"][data-side="vpa"] .card'
    assert sorted(card_ids(page, vpa)) == sorted(c["id"] for c in end["hands"]["vpa"])
    shot(page, "cards-rock-n-roll-end")


def test_warfighter_shows_the_squad_and_face_down_locations_as_backs(
    live: LiveServer, page: Page
) -> None:
    t = live.table(ruleset="warfighter", seats={"squad": "human"}, seed=2)
    msg = api_view(live, t["links"]["squad"])
    view = msg["view"]["view"]
    page.goto(t["links"]["squad"])
    wait_for_version(page, msg["version"])
    squad = '#board [data-row="squad"] .card'
    assert sorted(card_ids(page, squad)) == sorted(s["id"] for s in view["soldiers"])
    locations = card_ids(page, '#board [data-row="locations"] .fc-loc-col > .card')
    assert locations == [loc["id"] for loc in view["locations"]]
    for loc in view["locations"]:
        c = page.locator(f'#board [data-row="locations"] .card[data-card="{loc["id"]}"]')
        if loc["revealed"]:
            expect(c).to_contain_text(loc["card"])
        else:
            # Face down: a back, without a face (the Objective is named by the briefing).
            expect(c).to_have_class(re.compile(r"\bback\b"))
            assert c.locator(".card-name").count() == 0
    piles = page.locator('#board [data-row="decks"] .pile-count').all_inner_texts()
    assert piles == [str(view["location_deck"]), str(view["hostile_deck"])]
    shot(page, "cards-warfighter-start")


def test_a_warfighter_game_played_to_its_end_by_clicking_cards(
    live: LiveServer, page: Page
) -> None:
    t = live.table(ruleset="warfighter", seats={"squad": "human"}, seed=1)
    page.goto(t["links"]["squad"])
    expect(page.locator("#board .card.playable").first).to_be_visible()
    assert play_by_cards(page, limit=600) > 0
    expect(page.locator("#outcome")).not_to_be_empty()
    expect(page.locator("#verified")).to_contain_text("Verified")
    shot(page, "cards-warfighter-end")


def test_the_interrupts_offer_says_what_it_is_and_what_each_choice_does(
    live: LiveServer, browser: Browser
) -> None:
    # PT-D3: the side off turn is offered an interrupt before each action of the side on
    # turn. Its buttons came with no word of what was happening; the move's panel now
    # says it, and what each button does, from the seat's own view (the orders named
    # are its own), and the side on turn is told whom it waits for.
    t = live.table(
        ruleset="rock-n-roll",
        seats={"vietnam": "human", "vpa": "human"},
        config={"rounds": 1},
        seed=3,
    )
    vpa_view = api_view(live, t["links"]["vpa"])
    assert "deal interrupt" in vpa_view["notation"]
    hand = vpa_view["view"]["view"]["hand"]
    orders = [c["id"] for c in hand if "strength" not in c]
    assert orders
    contexts = [browser.new_context(), browser.new_context()]
    try:
        vpa, vietnam = (c.new_page() for c in contexts)
        vpa.goto(t["links"]["vpa"])
        vietnam.goto(t["links"]["vietnam"])
        prompt = vpa.locator("#prompt")
        expect(prompt).to_be_visible(timeout=20000)
        expect(prompt).to_contain_text("Vietnam is on turn (deploy phase) and about to act")
        text = prompt.inner_text()
        for said in (
            "deal interrupt: strike your Devil's hand",
            "pass: let this action go",
            "pass turn: let the rest of Vietnam's turn go",
            "pass round: ",
        ):
            assert said in text, text
        assert all(o in text for o in orders)
        # Each choice explained is a button there.
        buttons = vpa.locator("#actions button").all_inner_texts()
        assert sorted(buttons) == sorted(["deal interrupt", "pass", "pass turn", "pass round"])
        # Vietnam is told whom it waits for, and nothing of the VPA's hand.
        other = vietnam.locator("#prompt")
        expect(other).to_contain_text("VPA answers the offer of its interrupt first")
        assert not any(c["id"] in other.inner_text().split() for c in hand)
        shot(vpa, "cards-interrupt-offer")
        vpa.locator('#actions button[data-action="pass"]').click()
        expect(prompt).to_be_hidden()
        expect(other).to_be_hidden()
    finally:
        for c in contexts:
            c.close()
