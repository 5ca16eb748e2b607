"""The web table in a browser: the lobby's form, a seat's page, playing to the end by
clicking, a refusal's reason and rule on the page, and what a spectator sees."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .conftest import ONE_ROUND_OF_ROCK_N_ROLL, LiveServer, shot, version_of


def play_by_clicking(page: Page, limit: int = 600) -> None:
    """Click the first legal action until the game is over."""
    for _ in range(limit):
        if page.locator("#end").is_visible():
            return
        button = page.locator("#actions button").first
        if button.count() and button.is_visible():
            version = version_of(page)
            button.click()
            # Wait for the new state (or the end) before the next click.
            page.wait_for_function(
                "v => document.querySelector('#status').dataset.version !== v",
                arg=version,
                timeout=15000,
            )
        else:
            page.wait_for_timeout(50)
    raise AssertionError("the game did not end")


def test_the_lobby_creates_a_table_and_hands_out_links(live: LiveServer, page: Page) -> None:
    page.goto(live.url + "/")
    page.select_option("#ruleset", "warfighter")
    # Each option says what it does beside it, in the rule set's words; one the program
    # fills in (the mission file's digest) is no choice for people and is not shown.
    from fogofwar.core.game import get_ruleset

    for option in get_ruleset("warfighter").config_schema.options:
        if option.filled:
            expect(page.locator(f"[data-option={option.name}]")).to_have_count(0)
        elif option.file_suffix is not None:  # the server's words: no file's path here
            expect(page.locator("#options")).to_contain_text("a file this server's operator")
        elif option.help:
            expect(page.locator("#options")).to_contain_text(option.help)
    assert any(o.filled for o in get_ruleset("warfighter").config_schema.options)
    page.click("#create")
    links = page.locator("#link-list a")
    expect(links.first).to_be_visible()
    assert links.count() == 2  # the squad and the spectator
    assert re.fullmatch(r"[0-9a-f]{64}", page.locator("#commitment").inner_text())
    shot(page, "lobby")


def test_the_lobby_makes_table_after_table_with_the_seats_chosen(
    live: LiveServer, page: Page
) -> None:
    # The links of a table just made carry their seat's name too: a second table made
    # from the same page must still read the form's own seats (it once lost them all,
    # and its bots played the whole game before anyone came).
    page.goto(live.url + "/")
    page.select_option("#ruleset", "specter-ops")
    made: list[str] = []
    first = page.locator("#link-list a").first
    for _ in range(2):
        page.click("#create")
        expect(first).to_be_visible()
        if made:  # the list is made again for the new table
            expect(first).not_to_have_attribute("href", made[0])
        made.append(first.get_attribute("href") or "")
    assert len(live.hall.tables) == 2
    for table in live.hall.tables.values():
        assert table.players["agent"] == "human", table.players


def test_the_lobbys_seats_follow_the_options(live: LiveServer, page: Page) -> None:
    # SO-T2's five players have four hunter seats, two players one; Zero Dark's Versus
    # has two teams: the lobby asks the server for the seats of the options chosen.
    page.goto(live.url + "/")
    page.select_option("#ruleset", "specter-ops")
    seats = page.locator("#seats select[data-seat]")
    expect(seats).to_have_count(3)
    page.fill("[data-option=players]", "5")
    page.dispatch_event("[data-option=players]", "change")
    expect(seats).to_have_count(5)
    page.select_option("[data-seat=hunter4]", "human")
    page.fill("[data-option=players]", "2")
    page.dispatch_event("[data-option=players]", "change")
    expect(seats).to_have_count(2)
    page.fill("[data-option=players]", "5")
    page.dispatch_event("[data-option=players]", "change")
    expect(seats).to_have_count(5)
    page.select_option("[data-seat=hunter4]", "human")
    page.click("#create")
    links = page.locator("#link-list a")
    expect(links.first).to_be_visible()
    assert [a.get_attribute("data-seat") for a in links.all()] == ["agent", "hunter4", "spectator"]
    # A bot is offered only for the seats it plays (so-agent is no hunter).
    options = page.locator("[data-seat=hunter1] option").all_inner_texts()
    assert "so-hunter" in options and "so-agent" not in options
    page.select_option("#ruleset", "zero-dark")
    page.select_option("[data-option=mode]", "versus")
    # The default map has no second team's zone: the lobby says which map has one, and
    # says it beside the seats, whose list (the solo team's) no longer fits.
    expect(page.locator("#error")).to_contain_text("map zd-open")
    expect(page.locator("#seats-error")).to_be_visible()
    expect(page.locator("#seats-error")).to_contain_text("No seats for these options")
    page.select_option("[data-option=map]", "zd-open")
    expect(page.locator("#seats select[data-seat]")).to_have_count(2)
    expect(page.locator("#seats-error")).to_be_hidden()
    assert page.locator("[data-seat=team2]").count() == 1
    # An option out of range says so, as creating the table would.
    page.select_option("#ruleset", "specter-ops")
    page.fill("[data-option=players]", "9")
    page.dispatch_event("[data-option=players]", "change")
    expect(page.locator("#error")).to_contain_text("players")


def test_the_lobby_keeps_a_large_seed_exact(live: LiveServer, page: Page) -> None:
    # A seeded table is reproducible only from its exact seed: one past 2**53 must not
    # be rounded on its way (as a JavaScript number would be).
    page.goto(live.url + "/")
    # A small seed is no secret: any player can find it from what they see (a security
    # review found a Rock-n-Roll seed and the other hand in half a second). The form
    # says so beside the field.
    expect(page.locator("label", has=page.locator("#seed"))).to_contain_text(
        "any player can find a small seed"
    )
    page.select_option("#ruleset", "warfighter")
    page.fill("#seed", "12345678901234567891")
    page.click("#create")
    link = page.locator("#link-list a").first
    expect(link).to_be_visible()
    table = live.hall.tables[(link.get_attribute("href") or "").split("/t/")[1].split("?")[0]]
    assert table.recorder.seeded and table.recorder.record().seed == 12345678901234567891


def test_the_lobby_sets_the_bots_pause(live: LiveServer, page: Page) -> None:
    # How long a bot waits before it acts (a table's bot_pause): the server's own when
    # the field is left empty; one out of range is not sent.
    page.goto(live.url + "/")
    page.select_option("#ruleset", "warfighter")
    made = []
    for pause in ("", "2.5", "11"):
        page.fill("#bot-pause", pause)
        page.click("#create")
        if pause == "11":
            # The browser's own check stops the form (the field's range); nothing made.
            expect(page.locator("#bot-pause:invalid")).to_have_count(1)
            page.wait_for_timeout(300)
            assert len(live.hall.tables) == 2
            break
        link = page.locator("#link-list a").first
        expect(link).not_to_have_attribute("href", made[-1] if made else "")
        href = link.get_attribute("href") or ""
        made.append(href)
        table = live.hall.tables[href.split("/t/")[1].split("?")[0]]
        assert table.options["bot_pause"] == (2.5 if pause else live.hall.bot_pause)
    assert len(made) == 2


def test_a_mission_chosen_in_the_lobby_keeps_its_own_settings(live: LiveServer, page: Page) -> None:
    # The lobby sent every option at its default, and each overrode the mission: the-spy
    # became the default game (no task, Red Force grunt=5...). Only options changed in
    # the form are sent; the mission's Versus brings its two teams' seats.
    page.goto(live.url + "/")
    page.select_option("#ruleset", "zero-dark")
    # The server's missions are a pick-list (it opens no file a request names).
    missions = page.locator("[data-option=mission] option")
    assert missions.all_inner_texts() == ["(none)", "the-spy", "the-boss", "dead-drop"]
    page.select_option("[data-option=mission]", "dead-drop")
    expect(page.locator("#seats select[data-seat]")).to_have_count(2)
    page.select_option("[data-option=mission]", "the-spy")
    expect(page.locator("#seats select[data-seat]")).to_have_count(1)
    page.fill("[data-option=heroes]", "3")  # changed: sent, and it overrides the mission's 4
    page.click("#create")
    link = page.locator("#link-list a").first
    expect(link).to_be_visible()
    table = live.hall.tables[(link.get_attribute("href") or "").split("/t/")[1].split("?")[0]]
    config = table.recorder.config
    assert config["task"] == "rescue" and config["win"] == "rescue,extract,survive"
    assert config["red_force"] == "grunt=3,elite=1,boss=1:named" and config["heroes"] == 3


def test_a_double_click_sends_the_action_once(live: LiveServer, page: Page) -> None:
    # The second click of a double click came before the new view and was refused as
    # stale, which read as if the action had failed: it is not sent at all. Where the new
    # view comes first (a fast server), the second click lands on one of its buttons and
    # must not play that either.
    t = live.table(ruleset="warfighter", seats={"squad": "human"})
    page.goto(t["links"]["squad"])
    button = page.locator("#actions button").first
    expect(button).to_be_visible()
    first = version_of(page)
    button.dblclick()
    expect(page.locator("#status")).not_to_have_attribute("data-version", first)
    page.wait_for_timeout(300)
    expect(page.locator("#refusal")).to_be_empty()
    assert live.hall.tables[t["table"]].version == 1
    # The slow half, as CI's machine played it: the new view is drawn between the two
    # clicks, and the second (the browser's click count 2) falls on its first button.
    box = page.locator("#actions button").first.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    second = version_of(page)
    page.mouse.click(x, y)
    expect(page.locator("#status")).not_to_have_attribute("data-version", second)
    page.mouse.move(x, y)
    page.mouse.down(click_count=2)
    page.mouse.up(click_count=2)
    page.wait_for_timeout(300)
    assert live.hall.tables[t["table"]].version == 2


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
    known = page.locator("#summary pre").last
    at_end = known.text_content()
    page.locator("#replay-back").click()
    expect(page.locator("#replay-text")).to_contain_text(f"After {total - 1} of {total} actions")
    page.locator("#replay-seat").select_option("squad")
    page.locator("#replay-at").evaluate(
        "e => { e.value = 0; e.dispatchEvent(new Event('input')); }"
    )
    expect(page.locator("#replay-text")).to_contain_text(f"After 0 of {total} actions")
    expect(page.locator("#board .card").first).to_be_visible()
    # "What you know" beside the table is the replayed view's too, not the end's.
    assert known.text_content() != at_end
    assert '"turn": 1,' in (known.text_content() or "")  # the first turn, as replayed
    page.locator("#replay-on").click()
    expect(page.locator("#replay-text")).to_contain_text("After 1 of")
    shot(page, "replay-warfighter")
    page.locator("#replay-close").click()
    expect(page.locator("#replay-text")).to_have_text("")
    assert known.text_content() == at_end


def test_the_end_fits_a_phone_screen(live: LiveServer, page: Page) -> None:
    # The verdict's 64 hex digits (one unbroken word) widened the side panel: the page
    # scrolled sideways at a phone's width, and at a desktop's the panel fell below the
    # board at every game's end.
    page.set_viewport_size({"width": 390, "height": 844})
    t = live.table(ruleset="warfighter", seats={"squad": "bot"}, seed=2, options={"bot_pause": 0})
    page.goto(t["spectator"])
    expect(page.locator("#verified")).to_contain_text("Verified", timeout=60000)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_phones_controls_stay_above_the_card_table(live: LiveServer, page: Page) -> None:
    # At a phone's width the side panel fell below Rock-n-Roll's card table, and the
    # move's buttons were 2,000 px from the cards they act on. There they now come first
    # and stay at the top of the screen while the table scrolls under them.
    page.set_viewport_size({"width": 390, "height": 844})
    t = live.table(**ONE_ROUND_OF_ROCK_N_ROLL)
    page.goto(t["links"]["vietnam"])
    turn, board = page.locator("#turn"), page.locator("#board")
    expect(page.locator("#actions button").first).to_be_visible(timeout=20000)
    turn_box, board_box = turn.bounding_box(), board.bounding_box()
    assert turn_box is not None and board_box is not None
    assert turn_box["y"] + turn_box["height"] <= board_box["y"]
    assert turn_box["height"] <= 844 * 0.4 + 1  # it leaves the screen to the table
    page.mouse.wheel(0, 1200)
    # A function, not an expression: Playwright polls an expression with eval, which
    # the page's policy refuses (the test failed whenever the scroll was not at once).
    page.wait_for_function("() => window.scrollY > 1000")
    box = turn.bounding_box()
    assert box is not None and box["y"] == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "phone-rock-n-roll")
    # At a desktop's width the panel stands beside the table.
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.evaluate("window.scrollTo(0, 0)")
    turn_box, board_box = turn.bounding_box(), board.bounding_box()
    assert turn_box is not None and board_box is not None
    assert turn_box["x"] >= board_box["x"] + board_box["width"]


def test_a_phones_points_row_says_it_scrolls_and_keeps_its_place(
    live: LiveServer, page: Page
) -> None:
    # On a phone the points row scrolls sideways, with no scroll bar shown until it is
    # touched: nothing told the player that points D and E were off the screen, and
    # each new view put the row back at its start.
    page.set_viewport_size({"width": 390, "height": 844})
    t = live.table(**ONE_ROUND_OF_ROCK_N_ROLL)
    page.goto(t["links"]["vietnam"])
    points = page.locator(".fc-points")
    label = page.locator('[data-row="points"] .fc-label')
    expect(points).to_have_class(re.compile(r"\bmore-right\b"), timeout=20000)
    expect(points).not_to_have_class(re.compile(r"\bmore-left\b"))
    assert "more to the right" in label.evaluate("e => getComputedStyle(e, '::after').content")
    shot(page, "phone-points-row")
    points.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
    expect(points).to_have_class(re.compile(r"\bmore-left\b"))
    expect(points).not_to_have_class(re.compile(r"\bmore-right\b"))
    assert "more to the left" in label.evaluate("e => getComputedStyle(e, '::after').content")
    # A new view (the player's own action) keeps the row where it was scrolled.
    far = points.evaluate("e => e.scrollLeft")
    assert far > 0
    page.locator("#actions button").first.click()
    page.wait_for_function(
        "(far) => document.querySelector('.fc-points').scrollLeft === far"
        " && !document.querySelector('.fc-points').classList.contains('more-right')",
        arg=far,
    )
    # At a desktop's width the whole row fits: no fade, no note.
    page.set_viewport_size({"width": 1400, "height": 1000})
    expect(points).not_to_have_class(re.compile(r"\bmore-(left|right)\b"))
    # Polled: a bot's move may redraw the table between two reads (a detached label's
    # style reads empty).
    page.wait_for_function(
        "() => getComputedStyle(document.querySelector('[data-row=\"points\"] .fc-label'),"
        " '::after').content === 'none'"
    )


def test_the_pages_run_under_their_security_policy(live: LiveServer, page: Page) -> None:
    # The pages' Content-Security-Policy runs no inline script: the table page reads its
    # boot data from a JSON block. Nothing a page does may be blocked by the policy.
    said: list[str] = []
    page.on("console", lambda m: said.append(m.text))
    page.goto(live.url + "/")
    expect(page.locator("#ruleset option").first).to_be_attached()
    for body in (
        {"ruleset": "specter-ops", "seats": {"agent": "human"}, "seed": 4},
        {"ruleset": "zero-dark", "seats": {"team": "human"}, "seed": 1},
        ONE_ROUND_OF_ROCK_N_ROLL,
    ):
        t = live.table(**body)
        page.goto(next(iter(t["links"].values())))
        expect(page.locator("#actions button").first).to_be_visible(timeout=20000)
        assert page.evaluate("window.FOGOFWAR.ruleset") == body["ruleset"]
    assert not [m for m in said if "Content Security Policy" in m]


def test_the_lobby_keeps_its_links_and_opens_them_apart(live: LiveServer, page: Page) -> None:
    # The server hands a table's links out once, and the lobby lost them at the first
    # link followed in its own tab (then Back) or at a reload: the other seats' links
    # were gone for good.
    page.goto(live.url + "/")
    page.select_option("#ruleset", "warfighter")
    page.click("#create")
    links = page.locator("#link-list a")
    expect(links.first).to_be_visible()
    hrefs = [a.get_attribute("href") for a in links.all()]
    for a in links.all():
        assert a.get_attribute("target") == "_blank" and a.get_attribute("rel") == "noopener"
    expect(page.locator("#link-list button.copy")).to_have_count(len(hrefs))
    page.reload()
    expect(links.first).to_be_visible()
    assert [a.get_attribute("href") for a in links.all()] == hrefs
    # A refused table does not leave the last table's links above its error.
    page.fill("#seed", "-5")
    page.click("#create")
    expect(page.locator("#error")).to_contain_text("an integer from 0 to 2**64 - 1")
    expect(page.locator("#links")).to_be_hidden()


def test_a_lost_connection_is_shown_and_an_action_then_is_not_sent(
    live: LiveServer, page: Page
) -> None:
    # With the server gone the page kept saying "Your turn", and a click did nothing
    # at all (an unhandled failure in the console).
    made = live.table(ruleset="warfighter", seats={"squad": "human"}, seed=1)
    page.goto(made["links"]["squad"])
    button = page.locator("#actions button").first
    expect(button).to_be_visible()
    expect(page.locator("#connection")).to_be_hidden()
    live.server.should_exit = True
    live.thread.join(10)
    expect(page.locator("#connection")).to_be_visible(timeout=10000)
    expect(page.locator("#connection")).to_contain_text("lost")
    button.click()
    expect(page.locator("#refusal")).to_contain_text("not sent", timeout=10000)


def test_the_events_list_begins_with_the_setup(live: LiveServer, page: Page) -> None:
    # The first screen's Events list was empty: what the setup dealt and drew showed only
    # under "What you know". It now begins with the setup's events this seat was told:
    # its own draws, and nothing of the other side's hand.
    t = live.table(
        ruleset="rock-n-roll",
        seats={"vietnam": "human", "vpa": "human"},
        config={"rounds": 1},
        seed=3,
    )
    page.goto(t["links"]["vietnam"])
    log = page.locator("#log li")
    expect(log.first).to_be_visible(timeout=20000)
    kinds = log.evaluate_all("ls => ls.map(l => l.dataset.kind)")
    assert {"drew", "draws", "round", "turn"} <= set(kinds)
    text = page.locator("#log").inner_text()
    table, _ = t["links"]["vietnam"].split("/t/")[1].split("?token=")
    mine = live.client_view(table, t["links"]["vietnam"].split("?token=")[1])["view"]["view"]
    theirs = live.client_view(table, t["links"]["vpa"].split("?token=")[1])["view"]["view"]
    assert any(c["id"] in text for c in mine["hand"])
    words = set(re.findall(r"[A-Z]+\d+", text))
    assert not words & {c["id"] for c in theirs["hand"]}


def test_the_replays_header_names_whose_view_and_which_action(live: LiveServer, page: Page) -> None:
    # The replay showed some seat's view under a header naming the link's own: nothing
    # said whose view the board was, nor where in the game. The header now says both.
    t = live.table(ruleset="warfighter", seats={"squad": "bot"}, seed=2, options={"bot_pause": 0})
    page.goto(t["spectator"])
    expect(page.locator("#end")).to_be_visible(timeout=60000)
    banner = page.locator("header #replay-banner")
    expect(banner).to_be_hidden()
    total = int(str(page.locator("#replay-at").get_attribute("max")))
    page.locator("#replay-back").click()
    expect(banner).to_have_text(
        re.compile(rf"^Replay: the spectator's view .*after action {total - 1} of {total} \(")
    )
    page.locator("#replay-seat").select_option("squad")
    expect(banner).to_contain_text(f"squad's view, after action {total - 1} of {total}")
    page.locator("#replay-at").evaluate(
        "e => { e.value = 0; e.dispatchEvent(new Event('input')); }"
    )
    expect(banner).to_contain_text(f"squad's view, at the start, before action 1 of {total}")
    # The squad is to act at the start, but a replay is the past: the card table's
    # status said "Your move" to whoever read it.
    status = page.locator("#board .fc-status").first
    expect(status).to_contain_text("Waiting for: squad")
    expect(status).not_to_contain_text("Your move")
    shot(page, "replay-header")
    page.locator("#replay-close").click()
    expect(banner).to_be_hidden()


def test_a_phones_pinned_controls_leave_the_points_in_sight(live: LiveServer, page: Page) -> None:
    # At a phone's width Rock-n-Roll's Points sat between the two sides, far down the
    # card table, and went under the pinned controls: scrolled to the table's start
    # they were off the screen, and brought into view they were under the controls.
    # They now come right after the table's status line, clear of the controls.
    page.set_viewport_size({"width": 390, "height": 844})
    t = live.table(**ONE_ROUND_OF_ROCK_N_ROLL)
    page.goto(t["links"]["vietnam"])
    turn, points = page.locator("#turn"), page.locator('#board [data-row="points"]')
    expect(points).to_be_visible(timeout=20000)

    def clear_of_the_controls() -> None:
        a, b = turn.bounding_box(), points.bounding_box()
        assert a is not None and b is not None
        assert b["y"] >= a["y"] + a["height"] or b["y"] + b["height"] <= a["y"], (a, b)
        assert b["y"] >= 0 and b["y"] + b["height"] <= 844, b

    # The card table scrolled up to meet the pinned controls' lower edge.
    page.evaluate(
        """() => {
          const board = document.querySelector('#board').getBoundingClientRect();
          const turn = document.querySelector('#turn').getBoundingClientRect();
          window.scrollTo(0, window.scrollY + board.top - turn.height);
        }"""
    )
    page.wait_for_function("() => window.scrollY > 0")
    clear_of_the_controls()
    # A jump to the Points (an anchor, scrollIntoView) stops below the controls.
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    points.evaluate("e => e.scrollIntoView()")
    clear_of_the_controls()
    shot(page, "phone-points-in-sight")
