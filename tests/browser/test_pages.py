"""The web table in a browser: the lobby's form, a seat's page, playing to the end by
clicking, a refusal's reason and rule on the page, and what a spectator sees."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .conftest import ONE_ROUND_OF_ROCK_N_ROLL, LiveServer, shot


def play_by_clicking(page: Page, limit: int = 600) -> None:
    """Click the first legal action until the game is over."""
    for _ in range(limit):
        if page.locator("#end").is_visible():
            return
        button = page.locator("#actions button").first
        if button.count() and button.is_visible():
            version = page.locator("#status").inner_text()
            button.click()
            # Wait for the new state (or the end) before the next click.
            page.wait_for_function(
                "v => document.querySelector('#status').innerText !== v",
                arg=version,
                timeout=15000,
            )
        else:
            page.wait_for_timeout(50)
    raise AssertionError("the game did not end")


def test_the_lobby_creates_a_table_and_hands_out_links(live: LiveServer, page: Page) -> None:
    page.goto(live.url + "/")
    page.select_option("#ruleset", "warfighter")
    # Each option says what it does beside it, in the rule set's words.
    from fogofwar.core.game import get_ruleset

    for option in get_ruleset("warfighter").config_schema.options:
        if option.help:
            expect(page.locator("#options")).to_contain_text(option.help)
    page.click("#create")
    links = page.locator("#link-list a")
    expect(links.first).to_be_visible()
    assert links.count() == 2  # the squad and the spectator
    assert re.fullmatch(r"[0-9a-f]{64}", page.locator("#commitment").inner_text())
    shot(page, "lobby")


def test_a_warfighter_game_played_to_its_end_in_the_page(live: LiveServer, page: Page) -> None:
    t = live.table(ruleset="warfighter", seats={"squad": "human"})
    page.goto(t["links"]["squad"])
    expect(page.locator("#commitment")).to_have_text(t["commitment"])
    expect(page.locator("#actions button").first).to_be_visible()
    shot(page, "warfighter-start")
    play_by_clicking(page)
    expect(page.locator("#outcome")).not_to_be_empty()
    expect(page.locator("#verified")).to_contain_text("Verified")
    assert re.fullmatch(r"[0-9a-f]{64}", page.locator("#secret").inner_text())
    shot(page, "warfighter-end")


def test_a_refusal_shows_its_reason_and_rule(live: LiveServer, page: Page) -> None:
    t = live.table(ruleset="warfighter", seats={"squad": "human"})
    page.goto(t["links"]["squad"])
    expect(page.locator("#actions button").first).to_be_visible()
    page.fill("#notation", "attack S1 H9")
    page.press("#notation", "Enter")
    expect(page.locator("#refusal")).to_contain_text(re.compile(r"\[WF-[A-Z][0-9]+\]"))


def test_a_spectator_sees_no_actions(live: LiveServer, page: Page) -> None:
    t = live.table(ruleset="rock-n-roll", seats={"vietnam": "human", "vpa": "human"})
    page.goto(t["spectator"])
    expect(page.locator("#who")).to_have_text("spectator")
    expect(page.locator("#status")).to_contain_text("Waiting for")
    assert page.locator("#actions button").count() == 0
    assert not page.locator("#turn").is_visible()


def test_a_rock_n_roll_game_played_to_its_end_in_the_page(live: LiveServer, page: Page) -> None:
    t = live.table(**ONE_ROUND_OF_ROCK_N_ROLL)
    page.goto(t["links"]["vietnam"])
    play_by_clicking(page, limit=1500)
    expect(page.locator("#verified")).to_contain_text("Verified")
    shot(page, "rock-n-roll-end")


def test_a_clock_counts_down_and_its_bot_plays_when_time_is_out(
    live: LiveServer, page: Page
) -> None:
    # A table with clocks: the seat's clock counts down on the page, and when it runs
    # out the seat's default bot plays for it, told to every seat.
    t = live.table(
        ruleset="warfighter",
        seats={"squad": "human"},
        seed=1,
        options={"clock": 2, "bot_pause": 0},
    )
    page.goto(t["links"]["squad"])
    clock = page.locator('#clocks .clock[data-seat="squad"]')
    expect(clock).to_have_class(re.compile("running"))
    expect(clock).to_contain_text("0:0")
    expect(page.locator("#log li.notice")).to_contain_text("squad is out of time")
    expect(clock).to_contain_text("0:00")
    shot(page, "clock-out-of-time")


def test_after_the_end_the_game_is_replayed_step_by_step(live: LiveServer, page: Page) -> None:
    # After the end every secret is public: the page replays the record action by
    # action, as any seat saw it.
    t = live.table(ruleset="warfighter", seats={"squad": "bot"}, seed=2, options={"bot_pause": 0})
    page.goto(t["spectator"])
    expect(page.locator("#end")).to_be_visible(timeout=60000)
    total = int(str(page.locator("#replay-at").get_attribute("max")))
    assert total > 3
    page.locator("#replay-back").click()
    expect(page.locator("#replay-text")).to_contain_text(f"After {total - 1} of {total} actions")
    page.locator("#replay-seat").select_option("squad")
    page.locator("#replay-at").evaluate(
        "e => { e.value = 0; e.dispatchEvent(new Event('input')); }"
    )
    expect(page.locator("#replay-text")).to_contain_text(f"After 0 of {total} actions")
    expect(page.locator("#board .card").first).to_be_visible()
    page.locator("#replay-on").click()
    expect(page.locator("#replay-text")).to_contain_text("After 1 of")
    shot(page, "replay-warfighter")
    page.locator("#replay-close").click()
    expect(page.locator("#replay-text")).to_have_text("")
