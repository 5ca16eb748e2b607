"""The terminal drawing of a Zero Dark view: facings, pings, states and support tokens
on the map and in the key under it, from the view alone."""

from __future__ import annotations

import random
import re

from rich.console import Console
from rich.text import Text

from fogofwar.core.game import Action
from fogofwar.core.grid import parse_board, render_rich
from fogofwar.games.zero_dark.render import (
    draw_view,
    event_line,
    model_mark,
    model_style,
    support_mark,
)

from .helpers import RS, bogey, hero, open_board, ping, surgery_game


def _drawn(state: object, seat: str = "team") -> str:
    console = Console(width=200, record=True)
    console.print(RS.render(state.view(seat), state.config))  # type: ignore[attr-defined]
    return console.export_text()


def _game() -> object:
    b = open_board(9, 9)
    state = surgery_game(
        b,
        [
            hero("H1", "B8", facing="NE"),
            hero("H2", "C8", facing="SW", state="down"),
            bogey("B1", "G2", facing="SW"),
            bogey("B2", "H3", facing="NW", state="down"),
            ping("P1", "A1"),
        ],
    )
    state.support["B1"] = 2
    state.targeted.add("B1")
    return state


def test_marks_show_facing_and_pings() -> None:
    # FR-L5: a model's facing is one of four diagonals, drawn as an arrow after its id;
    # FR-P4: a ping is a counter of unknown type, drawn with "?".
    text = _drawn(_game())
    assert "H1↗" in text and "H2↙" in text and "B1↙" in text and "B2↖" in text
    assert "P1?" in text
    # The key under the map: facings, support tokens (ZD-C4), states.
    assert "H1 B8 ↗NE" in text and "H2 C8 ↙SW (down)" in text
    assert "B1 grunt G2 ↙SW support 2 targeted" in text
    assert "B2 grunt H3 ↖NW (down)" in text


def test_three_character_ids_have_no_arrow() -> None:
    # An id of three characters fills the square; the key still gives the facing.
    assert model_mark({"id": "B12", "kind": "bogey", "facing": "SE"}) == "B12"
    assert model_mark({"id": "B2", "kind": "bogey", "facing": "SE"}) == "B2↘"
    assert model_mark({"id": "P9", "kind": "ping", "facing": "SE"}) == "P9?"


def test_styles_show_side_and_state() -> None:
    hero_ = {"id": "H1", "kind": "hero", "state": "active"}
    assert model_style(hero_) == "bold cyan"
    assert model_style({**hero_, "team": "team2"}, "team2") == "bold yellow"
    assert model_style({"id": "B1", "kind": "bogey", "state": "down"}) == "bold red dim italic"
    assert model_style({"id": "B1", "kind": "bogey", "state": "ooa"}) == "bold red dim strike"
    assert model_style({"id": "B1", "kind": "bogey", "state": "active", "targeted": True}) == (
        "bold red underline"
    )
    assert model_style({"id": "P1", "kind": "ping", "state": "active"}) == "bold magenta"


def test_the_map_styles_each_mark() -> None:
    state = _game()
    view = state.view("team")  # type: ignore[attr-defined]
    drawing = draw_view(view.data, open_board(9, 9))  # type: ignore[arg-type]
    picture = drawing.renderables[0]  # type: ignore[attr-defined]
    assert isinstance(picture, Text)
    styles = {
        picture.plain[span.start : span.end].strip(): str(span.style) for span in picture.spans
    }
    assert styles["B1↙"] == "bold red underline"
    assert styles["H2↙"] == "bold cyan dim italic"
    assert styles["P1?"] == "bold magenta"


def test_drawing_needs_only_the_view() -> None:
    # Secrets stay secret: the drawing of two games that differ only in a ping's hidden
    # type (FR-P4) is the same.
    a, b = _game(), _game()
    b.ping_types["P1"] = "boss"  # type: ignore[attr-defined]
    assert _drawn(a) == _drawn(b)


def test_support_tokens_under_the_bogey() -> None:
    # ZD-C4: a bogey's support tokens, a dot each, in the gap under its square.
    text = _drawn(_game())
    lines = text.splitlines()
    row = next(i for i, line in enumerate(lines) if "B1↙" in line)
    col = lines[row].index("B1↙")
    assert "••" in lines[row + 1][col - 1 : col + 4]
    assert support_mark({"support": 0}) == "" and support_mark({"support": 4}) == "•4"
    assert support_mark({"support": 3}) == "•••"


def test_under_marks_yield_to_walls() -> None:
    # The grid draws a note under a square only where no wall or door runs there.
    b = parse_board(
        "name: gaps\n\n[legend]\n.  floor  passable  transparent\n\n"
        "[terrain]\n...\n...\n\n[walls]\nB1 s\n"
    )
    under = {b.square("A1"): ("ab", "yellow"), b.square("B1"): ("cd", "yellow")}
    text = render_rich(b, under_marks=under).plain
    assert "ab" in text and "cd" not in text


def test_a_cancelled_flip_is_explained() -> None:
    # ZD-C10: the card a cautious move cancels is named, and why nothing happens.
    line = event_line({"kind": "cancelled", "card": "QS", "rule": "ZD-C10"})
    assert line == "QS is cancelled by the cautious move: no bogey acts [ZD-C10]"


def test_every_ping_shows_its_question_mark() -> None:
    # FR-P4: a ping's type is unknown, and the legend's "P3?" says so; from P10 on the
    # id fills the square, so the "?" takes the P's place (it was "P10", with no "?").
    assert model_mark({"id": "P10", "kind": "ping", "facing": "SE"}) == "?10"
    assert model_mark({"id": "P99", "kind": "ping", "facing": "SE"}) == "?99"
    state = RS.new_game({"map": "zd-open", "red_force": "grunt=10"}, 1)
    text = _drawn(state)
    board = text.split("turn 1", 1)[0]  # the map, not the key under it
    marks = re.findall(r"[P?]\d+\??", board)
    assert sorted(marks) == sorted([f"P{n}?" for n in range(1, 10)] + ["?10"]), marks
    legend = dict(RS.screen(state.view("team"), state.config).legend)
    assert "?12 is P12" in legend["P3? ?12"]


def test_after_the_end_each_ping_shows_its_tier_and_the_tasks_pick() -> None:
    # FR-P4 keeps a ping's type the umpire's until the end; then every secret is shown:
    # each face-down ping's mark gives its tier, the screen the task's secret pick.
    assert model_mark({"id": "P3", "kind": "ping", "facing": "SE", "tier": "elite"}) == "P3e"
    assert model_mark({"id": "P12", "kind": "ping", "facing": "SE", "tier": "boss"}) == "b12"
    state = RS.new_game({"mission": "the-spy"}, 3)
    rng = random.Random(3)
    while not state.is_over:
        (seat,) = state.to_act()
        state.apply(rng.choice(state.legal_actions(seat)))
    view = state.view(None).data
    pings = [m for m in view["models"] if m["kind"] == "ping"]
    assert pings, "a game that turned every ping over tests nothing here"
    board = _drawn(state, None).split("turn ", 1)[0]
    for m in pings:
        assert model_mark(m) in board and "?" not in model_mark(m)
    assert f"double agent: {view['sides']['team']['double_agent']}" in _drawn(state, None)


def _to_act_line(state: object, seat: str | None) -> str:
    facts = _drawn(state, seat)  # type: ignore[arg-type]
    found = re.search(r"^(.*) to act · turn", facts, re.MULTILINE)
    return "" if found is None else found[1]


def test_versus_names_the_seat_actually_to_act() -> None:
    # ZD-B4: both teams record their choices at once: each team's screen names itself
    # while it has to choose (team2's said "team1 to act"); a spectator sees both.
    state = RS.new_game({"map": "zd-open", "mode": "versus"}, 2)
    assert _to_act_line(state, "team1") == "team1"
    assert _to_act_line(state, "team2") == "team2"
    assert _to_act_line(state, None) == "team1 and team2"
    state.apply(Action("team1", "prepare", ("rescue", "hand")))
    assert _to_act_line(state, "team1") == _to_act_line(state, "team2") == "team2"
    # ZD-C9 and on: one seat acts at a time (the activating team, the Red Force's answer
    # to a team's activation, a CQB choice), and every screen names it.
    pick = random.Random(5)
    for _ in range(120):
        if state.is_over:
            break
        acting = state.to_act()
        for seat in ("team1", "team2"):
            shown = _to_act_line(state, seat)
            assert shown == (seat if seat in acting else " and ".join(sorted(acting))), (
                seat,
                state.phase,
            )
        state.apply(pick.choice(list(state.legal_actions(sorted(acting)[0]))))
