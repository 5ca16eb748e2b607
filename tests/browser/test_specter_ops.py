"""Specter Ops at the web table, in the browser: the agent against bot hunters played to
the end by clicking the board, two humans at one table each seeing only their own, a
reload that resumes the seat, and an illegal path refused with its rule."""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterator
from typing import Any

from playwright.sync_api import Browser, Page, expect

from .conftest import LiveServer, shot, version_of

#: The base game (no characters): the tests that script a move from the first prompt.
BASE = {"characters": False}


def _wait_change(page: Page, before: str) -> None:
    page.wait_for_function(
        "v => document.querySelector('#status').dataset.version !== v", arg=before, timeout=20000
    )


def _wait_either(page: Page, status: str, path: str) -> None:
    page.wait_for_function(
        "([s, p]) => document.querySelector('#status').dataset.version !== s"
        " || document.querySelector('#path-text').innerText !== p",
        arg=[status, path],
        timeout=20000,
    )


def test_the_agent_plays_a_whole_game_by_clicking_the_board(live: LiveServer, page: Page) -> None:
    # SO-A1: the agent's path is entered square by square on the board (the steps legal
    # after it highlighted) and sent whole; setup and the other choices are clicks too.
    # A short game (12 rounds): a whole one all the same, played to its end.
    config = {**BASE, "max_rounds": 12}
    t = live.table(ruleset="specter-ops", config=config, seats={"agent": "human"}, seed=4)
    page.goto(t["links"]["agent"])
    expect(page.locator("#board svg")).to_be_visible()
    shot(page, "specter-ops-agent-start")
    paths = 0
    for _ in range(3000):
        if page.locator("#end").is_visible():
            break
        status = version_of(page)
        turn = page.locator("#status").inner_text()
        path = page.locator("#path-text").inner_text()
        squares = page.locator("#board rect.legal:not(.path)")
        entered = len(path.split())
        if (
            "Your turn" in turn
            and page.locator("#path-bar").is_visible()
            and (entered >= 3 or not squares.count())
        ):
            if paths == 0:
                shot(page, "specter-ops-agent-path")
            page.locator("#path-send").click()  # the whole path, checked as a whole
            paths += 1
            _wait_change(page, status)
        elif "Your turn" in turn and squares.count():
            squares.first.click()  # a setup choice, or a step added to the path
            _wait_either(page, status, path)
        elif "Your turn" in turn:
            page.locator("#actions button").first.click()  # stop, and the like
            _wait_change(page, status)
        else:
            page.wait_for_timeout(30)
    expect(page.locator("#end")).to_be_visible()
    expect(page.locator("#verified")).to_contain_text("Verified")
    assert paths >= 3
    shot(page, "specter-ops-agent-end")


def test_a_path_is_entered_by_clicks_and_shows_the_next_steps(live: LiveServer, page: Page) -> None:
    # SO-A1: each click adds a step; the board then highlights the steps legal after the
    # path (the server tries it, nothing is sent); a click on the path's end takes the
    # step back; "Send path" sends it whole.
    t = live.table(ruleset="specter-ops", config=BASE, seats={"agent": "human"}, seed=4)
    page.goto(t["links"]["agent"])
    for _ in range(40):
        expect(page.locator("#status")).to_contain_text("Your turn")
        status = version_of(page)
        if "step" in " ".join(page.locator("#actions button").all_inner_texts()):
            break
        page.locator("#board rect.legal").first.click()
        _wait_change(page, status)
    version = version_of(page)
    first = page.locator("#board rect.legal").first
    square = first.get_attribute("data-square")
    first.click()
    expect(page.locator("#path-text")).to_have_text(str(square))
    expect(page.locator(f'#board rect.path[data-square="{square}"]')).to_have_count(1)
    expect(page.locator("#board rect.legal:not(.path)").first).to_be_visible()
    second = page.locator("#board rect.legal:not(.path)").first.get_attribute("data-square")
    page.locator(f'#board rect[data-square="{second}"]').click()
    expect(page.locator("#path-text")).to_have_text(f"{square} {second}")
    page.locator(f'#board rect[data-square="{second}"]').click()  # a step back
    expect(page.locator("#path-text")).to_have_text(str(square))
    expect(page.locator("#status")).to_have_attribute("data-version", version)  # nothing sent
    page.locator("#path-send").click()
    expect(page.locator("#status")).not_to_have_attribute("data-version", version)
    expect(page.locator("#path-bar")).to_be_hidden()
    # The log reads as the terminal's: the rule set's sentence, the fields on hover.
    line = page.locator('#log li[data-kind="agent_path"]').last
    expect(line).to_contain_text("The agent's path: ")
    expect(line).to_have_attribute("title", re.compile(r"^agent_path "))


def _agent_acts(page: Page) -> None:
    """One action of the agent by the board: a click, and a path sent if it began one."""
    page.locator("#board rect.legal").first.click()
    page.wait_for_timeout(300)
    if page.locator("#path-bar").is_visible():
        page.locator("#path-send").click()


@contextlib.contextmanager
def _agent_and_hunter(
    live: LiveServer, browser: Browser
) -> Iterator[tuple[dict[str, Any], Page, Page]]:
    """A base game with a human agent and hunter1, each page in a browser of its own:
    (the table, the agent's page, the hunter's page)."""
    t = live.table(
        ruleset="specter-ops", config=BASE, seats={"agent": "human", "hunter1": "human"}, seed=9
    )
    agent_ctx, hunter_ctx = browser.new_context(), browser.new_context()
    agent, hunter = agent_ctx.new_page(), hunter_ctx.new_page()
    try:
        agent.goto(t["links"]["agent"])
        hunter.goto(t["links"]["hunter1"])
        yield t, agent, hunter
    finally:
        agent_ctx.close()
        hunter_ctx.close()


def test_two_humans_at_one_table_each_see_only_their_own(
    live: LiveServer, browser: Browser
) -> None:
    with _agent_and_hunter(live, browser) as (t, agent, hunter):
        expect(agent.locator("#status")).to_contain_text("Your turn")
        expect(hunter.locator("#status")).to_contain_text("Waiting for: agent")
        assert hunter.locator("#actions button").count() == 0
        # The agent's square is marked on its own board; on the hunter's only where its
        # figure stands in public (SO-S5: it starts on N1, shown), and not once it has
        # moved unseen.
        table = live.hall.tables[t["table"]]

        def shown() -> int:
            agent_view = table.recorder.state.view("hunter1").to_json()["view"]["agent"]  # type: ignore[attr-defined]
            return 1 if agent_view["revealed_at"] else 0

        label = re.compile(r"\bA\b")
        expect(agent.locator("#board text:not(.coord)", has_text=label)).to_have_count(1)
        expect(hunter.locator("#board text:not(.coord)", has_text=label)).to_have_count(shown())
        status = version_of(hunter)
        _agent_acts(agent)
        _wait_change(hunter, status)  # the hunter hears that something happened
        expect(hunter.locator("#board text:not(.coord)", has_text=label)).to_have_count(shown())
        shot(agent, "specter-ops-two-humans-agent")
        shot(hunter, "specter-ops-two-humans-hunter")


def test_a_reload_resumes_the_seat(live: LiveServer, page: Page) -> None:
    t = live.table(
        ruleset="specter-ops", config=BASE, seats={"agent": "human", "hunter1": "human"}, seed=2
    )
    page.goto(t["links"]["agent"])
    status = version_of(page)
    _agent_acts(page)
    _wait_change(page, status)
    before = version_of(page)
    page.reload()
    expect(page.locator("#status")).to_have_attribute("data-version", before)
    # The seat resumes from its current view: its own figure is where it moved.
    expect(page.locator("#board text:not(.coord)", has_text=re.compile(r"\bA\b"))).to_have_count(1)
    expect(page.locator("#log li").first).to_be_visible()


def test_an_illegal_path_is_refused_with_its_rule(live: LiveServer, page: Page) -> None:
    t = live.table(ruleset="specter-ops", config=BASE, seats={"agent": "human"}, seed=3)
    page.goto(t["links"]["agent"])
    expect(page.locator("#board svg")).to_be_visible()
    page.fill("#notation", "move A1 A2 A3")
    page.press("#notation", "Enter")
    expect(page.locator("#refusal")).to_contain_text(re.compile(r"\[SO-[A-Z][0-9]+\]"))
    # Nothing changed: the agent is still to move from where it was.
    table = live.hall.tables[t["table"]]
    assert table.version == 0
    expect(page.locator("#status")).to_have_attribute(
        "data-version", str(table.seat_version("agent"))
    )


def test_the_agent_sees_its_equipment_and_the_boards_marks(live: LiveServer, page: Page) -> None:
    # SO-S4: the agent's equipment cards with their uses, listed beside the board from
    # its own view; the board file's escape points (SO-E1) and objective sites drawn.
    t = live.table(
        ruleset="specter-ops", config={"characters": True}, seats={"agent": "human"}, seed=6
    )
    page.goto(t["links"]["agent"])
    table, token = t["links"]["agent"].split("/t/")[1].split("?token=")
    for _ in range(40):
        view = live.client_view(table, token)
        cards = (view["view"]["view"].get("secret") or {}).get("cards") or {}
        if cards and page.locator(".so-cards li").count() == len(cards):
            break
        page.wait_for_timeout(200)
        if "Your turn" in page.locator("#status").inner_text():
            status = version_of(page)
            page.locator("#actions button").first.click()
            _wait_change(page, status)
    shown = {li.get_attribute("data-card") for li in page.locator(".so-cards li").all()}
    assert shown == set(cards)
    expect(page.locator("#board rect.escape")).to_have_count(3)
    assert page.locator("#board rect.site").count() >= 8
    # Every label is whole: one wider than its square (the vehicle with hunters aboard,
    # "H1,H2,V") is squeezed into it, and each labelled square's tooltip is its label.
    labels = page.evaluate(
        """() => [...document.querySelectorAll('#board text:not(.coord)')].map((t) => [
          t.textContent, t.getAttribute('textLength'),
          t.textContent.length * parseFloat(t.style.fontSize) * 0.6 > 14])"""
    )
    titles = page.evaluate(
        "() => [...document.querySelectorAll('#board rect title')].map((t) => t.textContent)"
    )
    assert labels and sorted(text for text, _, _ in labels) == sorted(titles)
    assert all(fit == ("14" if wide else None) for _, fit, wide in labels)
    assert any(wide for _, _, wide in labels), labels
    shot(page, "specter-ops-agent-equipment")


def test_a_hunter_sees_the_sensors_bearing(live: LiveServer, page: Page) -> None:
    # SO-V5/SO-V6: the motion sensor's answer is drawn as a bearing from the vehicle.
    t = live.table(
        ruleset="specter-ops",
        config={"characters": False, "players": 2},
        seats={"hunter1": "human"},
        seed=5,
    )
    page.goto(t["links"]["hunter1"])
    for _ in range(200):
        if page.locator("#board polygon.bearing").count():
            break
        status = version_of(page)
        if "Your turn" not in page.locator("#status").inner_text():
            page.wait_for_timeout(50)
            continue
        buttons = page.locator("#actions button")
        sensor = page.locator('#actions button[data-action="sensor"]')
        (sensor if sensor.count() else buttons.last).click()
        _wait_change(page, status)
    expect(page.locator("#board polygon.bearing").first).to_be_attached()
    expect(page.locator(".so-panel")).to_contain_text("Sensor this round")
    # The hunter's board never shows the agent's figure.
    expect(page.locator("#board text:not(.coord)", has_text=re.compile(r"\bA\b"))).to_have_count(0)
    shot(page, "specter-ops-hunter-sensor")


def test_the_traitor_game_is_played_from_the_page(live: LiveServer, page: Page) -> None:
    # SO-T1/SO-T4: in the 5-player game a hunter's page shows its role, and the
    # accusation is a button at the start of its turn, announced to the table.
    t = live.table(
        ruleset="specter-ops",
        config={"players": 5, "characters": True},
        seats={"hunter1": "human"},
        seed=8,
    )
    page.goto(t["links"]["hunter1"])
    accuse = page.locator('#actions button[data-action^="accuse "]')
    for _ in range(300):
        if accuse.count():
            break
        status = version_of(page)
        if "Your turn" in page.locator("#status").inner_text():
            page.locator("#actions button").last.click()  # stop, end, pass ...
            _wait_change(page, status)
        else:
            page.wait_for_timeout(50)
    expect(page.locator(".so-panel")).to_contain_text("Your role")
    target = str(accuse.first.get_attribute("data-action"))
    accuse.first.click()
    expect(page.locator("#log")).to_contain_text("accus")
    expect(page.locator(".so-panel")).to_contain_text(target.split()[1])
    shot(page, "specter-ops-traitor-accusation")


def test_hunters_see_the_second_agent(live: LiveServer, page: Page) -> None:
    # SO-T5: once the traitor reveals itself, every hunter's page shades the second
    # agent's map (blue) and lists the second agent beside the board. The four hunters
    # are played through the API (stopping at once), the agent by its bot.
    hunters = [f"hunter{k}" for k in range(1, 5)]
    t = live.table(
        ruleset="specter-ops",
        config={"players": 5, "characters": False},
        seats=dict.fromkeys(hunters, "human"),
        seed=3,
    )
    table = t["links"]["hunter1"].split("/t/")[1].split("?token=")[0]
    tokens = {h: t["links"][h].split("?token=")[1] for h in hunters}
    traitor = ""
    for _ in range(2000):
        messages = {h: live.client_view(table, tokens[h]) for h in hunters}
        roles = {h: (m["view"]["view"].get("role") or {}).get("role") for h, m in messages.items()}
        traitor = next((h for h, r in roles.items() if r == "traitor"), traitor)
        if traitor and any(a["kind"] == "reveal" for a in messages[traitor]["legal"]):
            live.act(table, tokens[traitor], action={"seat": traitor, "kind": "reveal", "args": []})
            break
        for h, m in messages.items():
            legal = [a for a in m["legal"] if a["kind"] not in ("accuse", "reveal")]
            if legal:
                pick = next((a for a in legal if a["kind"] in ("stop", "end")), legal[0])
                live.act(table, tokens[h], action=pick)
        time.sleep(0.02)
    else:
        raise AssertionError("the traitor never could reveal itself")
    loyal = next(h for h in hunters if h != traitor)
    page.goto(t["links"][loyal])
    expect(page.locator(".so-panel")).to_contain_text("The second agent (A2)")
    expect(page.locator(".so-panel")).to_contain_text("Squares the second agent may be on")
    blue = page.locator('#board rect[fill="#c4d4f2"], #board rect[fill="#dcc4f2"]')
    expect(blue.first).to_be_visible()
    shot(page, "specter-ops-second-agent")


def test_a_hunter_is_chosen_on_its_own_square(live: LiveServer, page: Page) -> None:
    # "next H2" names a hunter, not the board's square H2: the page highlighted H1 and H2
    # (column H, top left) and a click on the empty H2 sent the choice. The figure's own
    # square is the one to click; with both hunters there, both choices are offered.
    t = live.table(ruleset="specter-ops", config=BASE, seats={"hunter1": "human"}, seed=4)
    page.goto(t["links"]["hunter1"])
    expect(page.locator('#actions button[data-action="next H2"]')).to_be_visible(timeout=20000)
    for name in ("H1", "H2"):
        expect(page.locator(f'#board rect.legal[data-square="{name}"]')).to_have_count(0)
    hunters = live.hall.tables[t["table"]].recorder.state.hunters  # type: ignore[attr-defined]
    square = live.hall.tables[t["table"]].recorder.state.geo.name(hunters[1].square)  # type: ignore[attr-defined]
    page.locator(f'#board rect.legal[data-square="{square}"]').click()
    shown = [b for b in page.locator("#actions button").all() if b.is_visible()]
    assert {b.get_attribute("data-action") for b in shown} <= {"next H1", "next H2"}
    assert any(b.get_attribute("data-action") == "next H2" for b in shown)


def _pick_kit(page: Page) -> None:
    """The agent's character and cards at a seed-4 table (one card, the Smoke Grenade,
    names squares), each click waited on until the table took it (its button goes):
    on a loaded machine a click could land while the page was still drawing the last
    answer and be lost (a CI run's failure), so a button still there is clicked again."""
    for choice in (
        "character cobra",
        "card adrenal-surge",
        "card smoke-grenade",
        "card venom-dart",
    ):
        button = page.locator(f'#actions button[data-action="{choice}"]')
        for _ in range(3):
            expect(button).to_be_visible(timeout=20000)
            button.click()
            try:
                expect(button).to_have_count(0, timeout=5000)
                break
            except AssertionError:
                continue
        else:
            raise AssertionError(f"the table never took {choice!r}")


def test_a_card_is_used_by_its_button_not_by_a_stray_click(live: LiveServer, page: Page) -> None:
    # SO-A7: a click on a square that only a card may name (a Smoke Grenade's target, not
    # a step) used to throw the card at once; it now only offers that card's buttons.
    t = live.table(ruleset="specter-ops", seats={"agent": "human"}, seed=4)
    page.goto(t["links"]["agent"])
    # One card (the Smoke Grenade) names squares: a Flash Bang would share its targets.
    _pick_kit(page)
    expect(page.locator('#actions button[data-action^="use smoke-grenade "]').first).to_be_visible()
    table = live.hall.tables[t["table"]]
    version = table.version
    steps = {
        str(a.args[0]) for a in table.recorder.state.legal_actions("agent") if a.kind == "step"
    }  # type: ignore[attr-defined]
    target = next(
        str(b.get_attribute("data-action")).split()[-1]
        for b in page.locator('#actions button[data-action^="use smoke-grenade "]').all()
        if str(b.get_attribute("data-action")).split()[-1] not in steps
    )
    page.locator(f'#board rect.legal[data-square="{target}"]').click()
    page.wait_for_timeout(300)
    assert table.version == version  # nothing sent
    shown = {
        b.get_attribute("data-action")
        for b in page.locator("#actions button").all()
        if b.is_visible()
    }
    assert shown and all(str(a).startswith("use ") and str(a).endswith(" " + target) for a in shown)
    # A card's square is drawn apart from a step's: a player can tell where to walk.
    assert "offer" in str(
        page.locator(f'#board rect[data-square="{target}"]').get_attribute("class")
    )
    step = sorted(steps)[0]
    assert "offer" not in str(
        page.locator(f'#board rect[data-square="{step}"]').get_attribute("class")
    )
    # The narrowed buttons say so, and every one comes back (a hidden "stop" or card
    # used to stay hidden until a reload): by the bar's button, by Escape, and by a path.
    every = page.locator("#actions button").count()
    expect(page.locator("#narrowed")).to_contain_text(f"The actions on {target}")
    page.locator("#narrowed-all").click()
    expect(page.locator("#narrowed")).to_be_hidden()
    expect(page.locator("#actions button:visible")).to_have_count(every)
    page.locator(f'#board rect.legal[data-square="{target}"]').click()
    expect(page.locator("#narrowed")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#actions button:visible")).to_have_count(every)
    page.locator(f'#board rect.legal[data-square="{target}"]').click()
    page.locator(f'#board rect.legal[data-square="{step}"]').click()  # a path begins
    expect(page.locator("#path-bar")).to_be_visible(timeout=20000)
    expect(page.locator("#narrowed")).to_be_hidden()
    steps_shown = page.locator('#actions button[data-action^="step "]').count()
    expect(page.locator("#actions button:visible")).to_have_count(every - steps_shown)
    assert table.version == version  # nothing was sent meanwhile


def test_a_refusal_goes_once_what_it_answered_has_changed(
    live: LiveServer, browser: Browser
) -> None:
    # A refusal stayed under "Your move" after the other side had moved, answering a
    # position that was gone.
    with _agent_and_hunter(live, browser) as (_, agent, hunter):
        expect(hunter.locator("#status")).to_contain_text("Waiting for: agent")
        # The seat to act is not told it waits for itself ("Your turn. Waiting for: agent").
        expect(agent.locator("#status")).to_have_text("Your turn.")
        hunter.locator("#notation").fill("drive A1")
        hunter.locator("#notation-form button").click()
        expect(hunter.locator("#refusal")).to_contain_text("Refused")
        status = version_of(hunter)
        _agent_acts(agent)
        _wait_change(hunter, status)
        expect(hunter.locator("#refusal")).to_have_text("")


def test_a_revealed_agent_is_marked_for_the_hunters(live: LiveServer, page: Page) -> None:
    # SO-A5: a revealed agent's figure stands on the board for every seat: a hunter's
    # board labels it and the panel says where it was seen and its wounds (public).
    t = live.table(ruleset="specter-ops", config=BASE, seats={"hunter1": "human"}, seed=4)
    page.goto(t["links"]["hunter1"])
    expect(page.locator("#board svg")).to_be_visible()
    got = page.evaluate(
        """() => {
          const agent = {objectives_done: 1, health: 4, wounds: 2, revealed_at: "E15",
                         last_seen: null, escaped: false, character: "cobra"};
          const m = {ruleset: "specter-ops", legal: [], notation: [], seat: "hunter1",
                     view: {view: {round: 3, max_rounds: 40, phase: "hunters", agent,
                                   possible: ["E15"], possible_count: 1, hunters: []}}};
          const ui = {path: [], setPath() {}, pathLegal: null};
          const marks = window.FogMarks["specter-ops"](m, ui);
          const panel = window.FogMarks.panel["specter-ops"](m).textContent;
          return [marks.labels["E15"] || "", panel];
        }"""
    )
    label, panel = got
    assert label == "A"
    assert "seen at E15" in panel and "wounds 2" in panel


def test_a_hunter_aboard_drives_by_clicking_the_road(live: LiveServer, page: Page) -> None:
    # SO-V1, SO-V2: aboard, a road square next to the vehicle is both a drive and a step
    # out. A click there started a path out of the vehicle; it now drives, and getting
    # out there is the "step" button (before it has driven).
    t = live.table(ruleset="specter-ops", config={"players": 2}, seats={"hunter1": "human"}, seed=4)
    page.goto(t["links"]["hunter1"])
    for choice in ("character H1 beast", "character H2 puppet", "next H1"):
        button = page.locator(f'#actions button[data-action="{choice}"]')
        expect(button).to_be_visible(timeout=20000)
        button.click()
    expect(page.locator('#actions button[data-action^="drive "]').first).to_be_visible()
    table = live.hall.tables[t["table"]]
    state = table.recorder.state
    legal = list(state.legal_actions("hunter1"))
    squares = {
        kind: {str(a.args[0]) for a in legal if a.kind == kind} for kind in ("drive", "step")
    }
    both = sorted(squares["drive"] & squares["step"])
    assert both, squares
    version = table.version
    page.locator(f'#board rect.legal[data-square="{both[0]}"]').click()
    deadline = time.monotonic() + 20
    while table.version == version and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert table.recorder.record().actions[-1].kind == "drive"
    assert state.geo.name(state.vehicle) == both[0]  # type: ignore[attr-defined]
    expect(page.locator("#path-bar")).to_be_hidden()
    # It drives on from there (after driving it may not get out: SO-V2).
    expect(page.locator('#actions button[data-action^="drive "]').first).to_be_visible()


def test_the_puppet_on_foot_is_offered_a_drive_or_a_step(live: LiveServer, page: Page) -> None:
    # The Puppet drives from afar instead of walking: on a square that both a drive and
    # its step name, a click offers both buttons and sends nothing (its view, drawn as
    # the page draws it: FogMarks on a message).
    t = live.table(ruleset="specter-ops", config=BASE, seats={"hunter1": "human"}, seed=4)
    page.goto(t["links"]["hunter1"])
    expect(page.locator("#board svg")).to_be_visible()
    sent = page.evaluate(
        """() => {
          const sent = [];
          window.FOGOFWAR.send = (body) => sent.push(body.action);
          const act = (kind, sq) => ({seat: "hunter1", kind, args: [sq]});
          const legal = [act("step", "K16"), act("drive", "K16"), act("drive", "L17")];
          const message = (aboard) => ({
            ruleset: "specter-ops", legal, notation: legal.map((a) => a.kind + " " + a.args[0]),
            seat: "hunter1",
            view: {view: {round: 2, max_rounds: 40, phase: "hunter",
                          current: {hunter: "H2", steps: 0, limit: 4},
                          hunters: [{id: "H2", seat: "hunter1", square: "K15", aboard}],
                          vehicle: {square: "K17"}, agent: {}, possible: []}}});
          const ui = {path: [], setPath(p) { sent.push("path " + p.join(" ")); }, pathLegal: null};
          for (const aboard of [false, true]) {
            const marks = window.FogMarks["specter-ops"](message(aboard), ui);
            marks.click("K16");
            marks.click("L17");
          }
          return sent;
        }"""
    )
    drive = [{"seat": "hunter1", "kind": "drive", "args": [sq]} for sq in ("K16", "L17")]
    # On foot, K16 (both) sends nothing and starts no path; L17 (a drive only) drives.
    # Aboard, both drive.
    assert sent == [drive[1], drive[0], drive[1]]


def test_the_board_names_its_columns_and_rows(live: LiveServer, page: Page) -> None:
    # The log and the notation name squares ("last seen at K14"), but the board had no
    # coordinates to find them by.
    t = live.table(ruleset="specter-ops", seats={"agent": "human"}, config={"players": 2})
    page.goto(t["links"]["agent"])
    coords = page.locator("#board-svg text.coord")
    expect(coords.first).to_be_attached()
    texts = coords.evaluate_all("els => els.map(e => e.textContent)")
    assert texts.count("A") == 1 and texts.count("W") == 1 and "X" not in texts  # 23 columns
    assert "1" in texts and "32" in texts and "33" not in texts  # 32 rows
    assert len(texts) == 23 + 32
    # K14's label sits above its column and left of its row.
    square = page.locator('#board-svg rect[data-square="K14"]').bounding_box()
    column = page.locator("#board-svg text.coord", has_text=re.compile("^K$")).bounding_box()
    row = page.locator("#board-svg text.coord", has_text=re.compile("^14$")).bounding_box()
    assert square is not None and column is not None and row is not None
    assert abs(column["x"] + column["width"] / 2 - (square["x"] + square["width"] / 2)) < 3
    assert column["y"] < square["y"]
    assert abs(row["y"] + row["height"] / 2 - (square["y"] + square["height"] / 2)) < 3
    assert row["x"] < square["x"]
    shot(page, "specter-ops-coordinates")


def test_a_phones_notation_box_is_in_reach_of_many_buttons(live: LiveServer, page: Page) -> None:
    # An agent with its cards has about 150 buttons; at a phone's width they pushed the
    # notation box some 4,000 px down the move's panel. They now scroll in a box of
    # their own, and the notation box shows under it.
    page.set_viewport_size({"width": 390, "height": 844})
    t = live.table(ruleset="specter-ops", seats={"agent": "human"}, seed=4)
    page.goto(t["links"]["agent"])
    _pick_kit(page)
    expect(
        page.locator('#actions button[data-action^="use smoke-grenade "]').first
    ).to_be_attached()
    assert page.locator("#actions button").count() > 40
    turn, box = page.locator("#turn").bounding_box(), page.locator("#notation").bounding_box()
    assert turn is not None and box is not None
    assert box["y"] + box["height"] <= turn["y"] + turn["height"]
    expect(page.locator("#notation")).to_be_in_viewport()


def _computed(page: Page, selector: str, prop: str) -> str:
    value: str = page.locator(selector).first.evaluate(
        "(e, p) => getComputedStyle(e).getPropertyValue(p)", prop
    )
    return value


def test_the_boards_legend_draws_its_marks_as_the_board_does(live: LiveServer, page: Page) -> None:
    # Nothing on the page said what the board's colours and marks meant. A legend under
    # the board now does, each sample drawn with the board's own classes and colours:
    # here the agent's square, a card's target squares, a smoke cloud, a step, an escape
    # point and the terrain, compared with the board's own.
    t = live.table(ruleset="specter-ops", seats={"agent": "human"}, seed=4)
    page.goto(t["links"]["agent"])
    _pick_kit(page)
    legend = page.locator("#so-legend")
    expect(legend).to_be_visible()
    assert legend.get_attribute("open") is not None  # open at a desktop's width
    for key in (
        "structure",
        "road",
        "site",
        "escape",
        "possible",
        "last-seen",
        "agent",
        "hunter",
        "vehicle",
        "smoke",
        "step",
        "offer",
        "path",
        "own-square",
    ):
        expect(legend.locator(f'[data-legend="{key}"]')).to_be_visible()
    assert page.locator("#board rect.offer").count()  # the Smoke Grenade's targets
    pairs = [
        ('[data-legend="offer"] rect.square', "#board rect.offer", "fill"),
        ('[data-legend="offer"] rect.square', "#board rect.offer", "stroke-dasharray"),
        ('[data-legend="step"] rect.square', "#board rect.legal:not(.offer)", "fill"),
        ('[data-legend="escape"] rect.escape', "#board rect.escape", "stroke"),
        ('[data-legend="site"] rect.site', "#board rect.site", "stroke"),
    ]
    for sample, board, prop in pairs:
        assert _computed(page, "#so-legend " + sample, prop) == _computed(page, board, prop), sample
    table, token = t["links"]["agent"].split("/t/")[1].split("?token=")
    secret = live.client_view(table, token)["view"]["view"]["secret"]
    own = page.locator(f'#board rect[data-square="{secret["square"]}"]').get_attribute("fill")
    assert legend.locator('[data-legend="own-square"] rect').get_attribute("fill") == own
    fills = set(
        page.locator("#board rect.square").evaluate_all("rs => rs.map(r => r.getAttribute('fill'))")
    )
    for key in ("structure", "road", "open"):
        assert legend.locator(f'[data-legend="{key}"] rect').first.get_attribute("fill") in fills
    # A smoke cloud on the board (the grenade thrown) is drawn as its sample is.
    status = version_of(page)
    page.locator('#actions button[data-action^="use smoke-grenade "]').first.click()
    expect(page.locator("#status")).not_to_have_attribute("data-version", status)
    expect(page.locator("#board rect.smoke").first).to_be_attached()
    assert _computed(page, '#so-legend [data-legend="smoke"] rect.smoke', "fill") == _computed(
        page, "#board rect.smoke", "fill"
    )
    shot(page, "specter-ops-legend")


def test_a_phones_legend_starts_folded_and_never_covers_the_board(
    live: LiveServer, page: Page
) -> None:
    # At a phone's width the legend is under the board and starts folded; opened, it
    # still takes room of its own. A hunter's possibility map is shaded as its sample.
    page.set_viewport_size({"width": 390, "height": 844})
    t = live.table(ruleset="specter-ops", config=BASE, seats={"hunter1": "human"}, seed=4)
    page.goto(t["links"]["hunter1"])
    legend = page.locator("#so-legend")
    expect(legend).to_be_visible(timeout=20000)
    assert legend.get_attribute("open") is None
    legend.locator("summary").click()
    expect(legend.locator('[data-legend="possible"]')).to_be_visible()
    table, token = t["links"]["hunter1"].split("/t/")[1].split("?token=")
    view = live.client_view(table, token)["view"]["view"]
    sq = view["possible"][0]
    fill = page.locator(f'#board rect[data-square="{sq}"]').get_attribute("fill")
    assert legend.locator('[data-legend="possible"] rect').get_attribute("fill") == fill
    board, box = page.locator("#board-svg").bounding_box(), legend.bounding_box()
    assert board is not None and box is not None
    assert box["y"] >= board["y"] + board["height"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
