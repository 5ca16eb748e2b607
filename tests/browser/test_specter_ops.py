"""Specter Ops at the web table, in the browser: the agent against bot hunters played to
the end by clicking the board, two humans at one table each seeing only their own, a
reload that resumes the seat, and an illegal path refused with its rule."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from .conftest import LiveServer, shot


def _wait_change(page: Page, before: str) -> None:
    page.wait_for_function(
        "v => document.querySelector('#status').innerText !== v", arg=before, timeout=20000
    )


def test_the_agent_plays_a_whole_game_by_clicking_the_board(live: LiveServer, page: Page) -> None:
    t = live.table(ruleset="specter-ops", seats={"agent": "human"}, seed=4)
    page.goto(t["links"]["agent"])
    expect(page.locator("#board svg")).to_be_visible()
    shot(page, "specter-ops-agent-start")
    for _ in range(2000):
        if page.locator("#end").is_visible():
            break
        status = page.locator("#status").inner_text()
        squares = page.locator("#board rect.legal")
        if "Your turn" in status and squares.count():
            squares.first.click()  # a legal next step, highlighted on the board
            _wait_change(page, status)
        elif "Your turn" in status:
            page.locator("#actions button").first.click()  # stop, and the like
            _wait_change(page, status)
        else:
            page.wait_for_timeout(30)
    expect(page.locator("#end")).to_be_visible()
    expect(page.locator("#verified")).to_contain_text("Verified")
    shot(page, "specter-ops-agent-end")


def test_two_humans_at_one_table_each_see_only_their_own(
    live: LiveServer, browser: Browser
) -> None:
    t = live.table(ruleset="specter-ops", seats={"agent": "human", "hunter1": "human"}, seed=9)
    agent_ctx, hunter_ctx = browser.new_context(), browser.new_context()
    agent, hunter = agent_ctx.new_page(), hunter_ctx.new_page()
    try:
        agent.goto(t["links"]["agent"])
        hunter.goto(t["links"]["hunter1"])
        expect(agent.locator("#status")).to_contain_text("Your turn")
        expect(hunter.locator("#status")).to_contain_text("Waiting for: agent")
        assert hunter.locator("#actions button").count() == 0
        # The agent's square is marked on its own board only.
        expect(agent.locator("#board text", has_text=re.compile(r"\bA\b"))).to_have_count(1)
        expect(hunter.locator("#board text", has_text=re.compile(r"\bA\b"))).to_have_count(0)
        status = hunter.locator("#status").inner_text()
        agent.locator("#board rect.legal").first.click()
        _wait_change(hunter, status)  # the hunter hears that something happened
        expect(hunter.locator("#board text", has_text=re.compile(r"\bA\b"))).to_have_count(0)
        shot(agent, "specter-ops-two-humans-agent")
        shot(hunter, "specter-ops-two-humans-hunter")
    finally:
        agent_ctx.close()
        hunter_ctx.close()


def test_a_reload_resumes_the_seat(live: LiveServer, page: Page) -> None:
    t = live.table(ruleset="specter-ops", seats={"agent": "human", "hunter1": "human"}, seed=2)
    page.goto(t["links"]["agent"])
    status = page.locator("#status").inner_text()
    page.locator("#board rect.legal").first.click()
    _wait_change(page, status)
    before = page.locator("#status").inner_text()
    page.reload()
    expect(page.locator("#status")).to_have_text(before)
    expect(page.locator("#board rect.legal").first).to_be_visible()


def test_an_illegal_path_is_refused_with_its_rule(live: LiveServer, page: Page) -> None:
    t = live.table(ruleset="specter-ops", seats={"agent": "human"}, seed=3)
    page.goto(t["links"]["agent"])
    expect(page.locator("#board svg")).to_be_visible()
    page.fill("#notation", "move A1 A2 A3")
    page.press("#notation", "Enter")
    expect(page.locator("#refusal")).to_contain_text(re.compile(r"\[SO-[A-Z][0-9]+\]"))
    # Nothing changed: the agent is still to move from where it was.
    expect(page.locator("#status")).to_contain_text("version 0")
