"""The Red Force in the dark: pings (FR-P1…P4) in whole ``zero-dark`` games.

Rule tests put a game into a chosen position by surgery (``helpers.surgery_game``): a
small board, the models, the secret ping types and a Control Deck whose order the test
chooses. The non-interference test plays the same random actions in two games whose
secret ping types differ and compares every view.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from fogofwar.core.errors import RulesError
from fogofwar.core.rng import stream
from fogofwar.games.zero_dark.fear import Position
from fogofwar.games.zero_dark.state import TEAM, ZeroDarkState, parse_red_force

from .helpers import (
    RS,
    act,
    board,
    board_text,
    bogey,
    deck_of,
    finish,
    hero,
    of_kind,
    ping,
    sq,
    surgery_game,
)


def new_game(seed: int = 0, **config: Any) -> ZeroDarkState:
    state = RS.new_game(config, seed)
    assert isinstance(state, ZeroDarkState)
    return state


def ping_places(state: ZeroDarkState) -> dict[str, str]:
    return {m.id: m.square.name for m in state.pings()}


# =============================================================== FR-P1 placement


@pytest.mark.parametrize(
    ("game_map", "red_force", "tiers"),
    [
        ("zd-open", "grunt=5,elite=2,boss=1", {"grunt": 5, "elite": 2, "boss": 1}),
        ("zd-corridor", "grunt=2,elite=2,boss=2,special=2", None),
        ("zd-open", "grunt=1", {"grunt": 1}),
        ("zd-corridor", "grunt=10", {"grunt": 10}),  # every ping site
    ],
)
def test_one_ping_per_red_force_member_on_ping_sites(
    game_map: str, red_force: str, tiers: dict[str, int] | None
) -> None:
    # FR-P1: a face-down counter for each bogey of the Red Force, on the map's ping sites.
    state = new_game(7, map=game_map, red_force=red_force)
    pings = state.pings()
    want = Counter(parse_red_force(red_force))
    assert len(pings) == sum(want.values())
    assert tiers is None or want == Counter(tiers)
    sites = set(state.board.marker("ping"))
    assert all(p.square in sites for p in pings)
    assert len({p.square for p in pings}) == len(pings)
    # The umpire's secret holds one type per ping, the Red Force mixed.
    assert set(state.ping_types) == {p.id for p in pings}
    assert Counter(state.ping_types.values()) == want
    placed = [e.kind for e in state.events if e.kind.startswith("ping")]
    assert placed == ["ping_placed"] * len(pings)
    assert state.revealed == {} and state.bogeys() == []


def test_placement_is_deterministic_for_a_seed() -> None:
    # FR-P1 (R): at random from the seeded RNG: the same seed places the same way.
    a, b = new_game(11, map="zd-open"), new_game(11, map="zd-open")
    assert ping_places(a) == ping_places(b)
    assert a.ping_types == b.ping_types
    assert a.view(TEAM).canonical() == b.view(TEAM).canonical()


def test_a_different_seed_places_differently() -> None:
    # FR-P1 (R): other seeds give other sites (8 of 10 sites: C(10, 8) = 45 ways) and
    # other mixes of the types.
    base = new_game(11, map="zd-open")
    others = [new_game(seed, map="zd-open") for seed in range(12, 18)]
    assert any(ping_places(o) != ping_places(base) for o in others)
    assert any(o.ping_types != base.ping_types for o in others)


@pytest.mark.parametrize(
    ("text", "tiers"),
    [
        ("grunt=2,boss=1", ("grunt", "grunt", "boss")),
        (" Grunt = 1 , elite=1 ", ("grunt", "elite")),
        ("1=1,2=1,3=1", ("grunt", "elite", "boss")),  # counter faces
        ("grunt=0,elite=1", ("elite",)),
        ("grunt=1,,", ("grunt",)),
    ],
)
def test_red_force_parses(text: str, tiers: tuple[str, ...]) -> None:
    # FR-P1: the Red Force as tier=count, tiers by name or by counter face.
    assert parse_red_force(text) == tiers


def test_red_force_takes_the_special_counter_face() -> None:
    # FR-P1: the counters are "1", "2", "3" and "S"; the faces 1-3 are accepted as tiers,
    # so "S" should be too.
    assert parse_red_force("S=1,grunt=1") == ("special", "grunt")


@pytest.mark.parametrize(
    "text", ["", "grunt", "grunt=", "grunt=x", "grunt=-1", "dragon=1", "grunt=0", "4=1", "=3"]
)
def test_red_force_errors(text: str) -> None:
    # FR-P1: an unknown tier, a bad count or no ping at all is refused, before play.
    with pytest.raises(RulesError, match="red_force"):
        parse_red_force(text)
    with pytest.raises(RulesError, match="red_force"):
        RS.new_game({"red_force": text}, 0)


def test_more_pings_than_sites_is_refused() -> None:
    # FR-P1: zd-open has 10 ping sites.
    with pytest.raises(RulesError, match="ping sites"):
        RS.new_game({"map": "zd-open", "red_force": "grunt=11"}, 0)


# =============================================================== FR-P2 pings count as Grunts

# A 9x5 board, a column of blocks (F) hiding the ping on H4 from the hero on A1; the
# deployment site (complications) behind the blocks too.
HIDDEN = """
.....X...
.....X...
.....X...
.....X...
.....X...
"""


def only_pings(deck: str, **extra: Any) -> ZeroDarkState:
    b = board(HIDDEN, markers={"deployment": "I1"})
    models = [hero("H1", "A1", facing="SE"), ping("P1", "H4"), *extra.values()]
    return surgery_game(b, models, deck=deck_of(deck))


def end_activation(state: ZeroDarkState) -> list[Any]:
    return act(state, "activate", "H1") + act(state, "stop") + finish(state)


@pytest.mark.parametrize("card", ["2S", "7H", "10D", "5C"])
def test_a_pip_card_activates_a_ping(card: str) -> None:
    # FR-P2: for choosing which bogey activates, a ping counts as a Grunt (2-10).
    state = only_pings(card)
    events = end_activation(state)
    assert of_kind(events, "flip") == [{"card": card, "left": 53}]
    assert of_kind(events, "activated") == [{"model": "P1"}]
    assert of_kind(events, "complication") == []
    assert state.pings_made == 1


@pytest.mark.parametrize("card", ["JS", "QH", "KD", "AC", "AS", "BJ", "RJ"])
def test_a_face_card_or_ace_with_only_pings_is_a_complication(card: str) -> None:
    # FR-P2: while only pings are on the table, every face card or Ace generates a
    # complication (ZD-C6's default: a new Grunt ping at a deployment site); so does a
    # joker.
    state = only_pings(card)
    events = end_activation(state)
    assert of_kind(events, "activated") == []
    (comp,) = of_kind(events, "complication")
    assert comp == {"card": card, "ping": "P2"}
    assert state.position.model("P2").square == sq("I1")
    assert state.ping_types["P2"] == "grunt"


@pytest.mark.parametrize(
    ("card", "activated"), [("QH", "B1"), ("KS", "B1"), ("AS", None), ("7S", "P1")]
)
def test_with_a_bogey_of_the_tier_a_face_card_activates_it(
    card: str, activated: str | None
) -> None:
    # FR-P2 does not apply once a bogey of the card's tier is on the table (ZD-C6): a
    # Queen or King activates the elite; an Ace (no boss) is still a complication; a 7
    # goes to the ping (the only "Grunt"; the elite is not one).
    state = only_pings(card, elite=bogey("B1", "I5", tier="elite"))
    events = end_activation(state)
    if activated is None:
        assert of_kind(events, "activated") == []
        assert len(of_kind(events, "complication")) == 1
    else:
        assert of_kind(events, "activated") == [{"model": activated}]
        assert of_kind(events, "complication") == []


# =============================================================== FR-P3 reveal


def reveals(events: list[Any]) -> list[dict[str, Any]]:
    return of_kind(events, "ping_revealed")


def kinds(events: list[Any]) -> list[str]:
    return [e.kind for e in events]


def test_revealed_when_a_step_brings_it_into_sight() -> None:
    # FR-P3: as soon as a character has LOS to a ping it is turned over: checked after
    # every step. From A1 the block on B2 hides C3; one step east (B1) sees past it.
    b = board(".....\n.X...\n.....\n.....", markers={"deployment": "E4"})
    state = surgery_game(
        b, [hero("H1", "A1", facing="SE"), ping("P1", "C3")], ping_types={"P1": "elite"}
    )
    assert not state.position.sees("H1", "P1")
    act(state, "activate", "H1")
    events = act(state, "step", "B1")
    assert kinds(events) == ["step", "ping_revealed"]
    assert reveals(events) == [
        {
            "ping": "P1",
            "face": "2",
            "tier": "elite",
            "bogey": "B1",
            "square": "C3",
            "by": "H1",
            "how": "sight",
            "support": 2,  # an elite enters play with its 2 support tokens (ZD-C4)
            "flags": [],
            "rule": "FR-P3",
        }
    ]
    bogey_b1 = state.position.model("B1")
    assert (bogey_b1.kind, bogey_b1.tier, bogey_b1.square) == ("bogey", "elite", sq("C3"))
    assert "P1" not in state.position.models and state.revealed == {"P1": "B1"}
    assert state.ping_types == {}


def test_not_revealed_out_of_sight_and_not_engaged() -> None:
    # FR-P3 does not apply: the hero's steps leave the ping behind the blocks, out of
    # reach.
    state = only_pings("5S")
    act(state, "activate", "H1")
    for to in ("B2", "C3", "D4"):
        assert reveals(act(state, "step", to)) == []
    assert [m.id for m in state.pings()] == ["P1"]
    view = state.view(TEAM).data
    assert [m["kind"] for m in view["models"]] == ["hero", "ping"]


def test_revealed_after_a_facing_change() -> None:
    # FR-P3: checked after a change of facing. Facing NE from C3, the ping on A5 is
    # behind the hero (and two squares off: not engaged); turning SW sees it.
    b = board(".....\n.....\n.....\n.....\n.....", markers={"deployment": "E1"})
    state = surgery_game(b, [hero("H1", "C3", facing="NE"), ping("P1", "A5")], deck=deck_of("BJ"))
    act(state, "activate", "H1")
    events = act(state, "face", "SW") + finish(state)
    assert kinds(events)[:2] == ["face", "ping_revealed"]
    assert "activation_end" in kinds(events)
    assert reveals(events)[0]["how"] == "sight"
    assert state.position.model("H1").facing == "SW"


def test_revealed_when_engaged_without_sight() -> None:
    # FR-P3: engaged is enough. The hero keeps facing NE while stepping SW to B4, next
    # to the ping on A5, which stays behind its back.
    b = board(".....\n.....\n.....\n.....\n.....", markers={"deployment": "E1"})
    state = surgery_game(b, [hero("H1", "C3", facing="NE"), ping("P1", "A5")])
    act(state, "activate", "H1")
    after = state.position.with_model(state.position.model("H1").at(sq("B4")))
    assert not after.sees("H1", "P1") and after.engaged("H1", "P1")
    events = act(state, "step", "B4")
    assert [(r["ping"], r["how"]) for r in reveals(events)] == [("P1", "engaged")]


@pytest.mark.parametrize(("through_walls", "revealed"), [(False, False), (True, True)])
def test_not_engaged_through_a_wall(through_walls: bool, revealed: bool) -> None:
    # FR-P3 with FR-S1: a ping next to the hero across a wall (and behind its back) is
    # not engaged, unless engage_through_walls.
    b = board(".....\n.....\n.....", walls=["B1-B3 e"], markers={"deployment": "E1"})
    state = surgery_game(
        b,
        [hero("H1", "A2", facing="NW"), ping("P1", "C3")],
        engage_through_walls=through_walls,
    )
    act(state, "activate", "H1")
    events = act(state, "step", "B2")
    assert bool(reveals(events)) is revealed


def test_revealed_after_a_complication_placement() -> None:
    # FR-P3: checked after every placement: a complication's ping on a deployment site
    # the hero sees is turned over at once.
    b = board(HIDDEN, markers={"deployment": "D3"})
    state = surgery_game(b, [hero("H1", "A1", facing="SE"), ping("P1", "H4")], deck=deck_of("QH"))
    events = end_activation(state)
    tail = kinds(events)[kinds(events).index("flip") :]
    assert tail == ["flip", "complication", "ping_placed", "ping_revealed", "turn"]
    assert reveals(events)[0]["ping"] == "P2" and reveals(events)[0]["square"] == "D3"
    assert [m.id for m in state.pings()] == ["P1"]


def test_complication_out_of_sight_stays_a_ping() -> None:
    # FR-P3 does not apply: the complication's site is behind the blocks.
    state = only_pings("QH")
    events = end_activation(state)
    assert reveals(events) == []
    assert sorted(m.id for m in state.pings()) == ["P1", "P2"]


def test_revealed_after_a_door_is_opened() -> None:
    # FR-P3: checked after a door. The closed door on C2 e hides the ping on E2; the
    # hero opens it (its automatic action) and sees.
    b = board(
        ".......\n.......\n.......",
        walls=["C1 e", "C3 e"],
        doors=["C2 e closed"],
        markers={"deployment": "A3"},
    )
    state = surgery_game(b, [hero("H1", "C2", facing="NE"), ping("P1", "E2")], deck=deck_of("BJ"))
    assert not state.position.sees("H1", "P1")
    act(state, "activate", "H1")
    (door,) = [a for a in state.legal_actions(TEAM) if a.kind == "door"]
    assert " ".join(map(str, door.args)) == "C2 e"
    events = state.apply(door)
    assert kinds(events)[:2] == ["door", "ping_revealed"]
    assert of_kind(events, "door") == [{"model": "H1", "edge": "C2 e", "open": True}]


@pytest.mark.parametrize(("near", "far"), [("P1", "P2"), ("P2", "P1")])
def test_every_ping_in_sight_is_turned_over_whatever_its_number(near: str, far: str) -> None:
    # FR-P3: every ping a character has LOS to at the check is turned over. Pings block
    # nothing (ruling), so facing NE from A1 the hero sees both C1 and E1: the near one
    # turned over first must not hide the far one, whichever number each has.
    b = board(".........\n.........", markers={"deployment": "I2"})
    state = surgery_game(b, [hero("H1", "A1", facing="SW"), ping(near, "C1"), ping(far, "E1")])
    act(state, "activate", "H1")
    events = act(state, "face", "NE")
    assert sorted(r["ping"] for r in reveals(events)) == ["P1", "P2"]
    assert [r["ping"] for r in reveals(events)] == ["P1", "P2"]  # in ping order
    assert state.pings() == []


def test_revealed_when_a_shot_brings_the_bogey_in_the_way_down() -> None:
    # FR-P3 with FR-L4: a grunt on C1 hides the ping on E1 from the hero on A1; shot
    # down it is Cyl 1, the line opens and the ping is turned over at once, before
    # the shot's next hit kills the grunt.
    b = board(".........\n.........", markers={"deployment": "I2"})
    models = [hero("H1", "A1", facing="NE"), bogey("B1", "C1"), ping("P1", "E1")]
    state = surgery_game(b, models, deck=deck_of("AS", "AH"))
    state.support["B1"] = 0
    assert not state.position.sees("H1", "P1")
    act(state, "activate", "H1")
    act(state, "stop")
    events = act(state, "shoot", "B1")
    assert "down" in kinds(events)
    after = kinds(events)[kinds(events).index("down") :]
    assert after[:2] == ["down", "ping_revealed"]
    assert reveals(events)[0]["ping"] == "P1" and state.pings() == []


def test_a_hero_crossing_a_down_bogey_keeps_its_height() -> None:
    # FR-L1 with FR-M2: H1 steps onto the down bogey's square (Cyl 1) on its way and
    # stands there, Cyl 3, in H2's line to the ping on H1: the square's height is the
    # taller model's, so H2 does not see the ping (H1 faces away from it).
    b = board(".........\n.........", markers={"deployment": "I2"})
    models = [
        hero("H1", "C1", facing="SW"),
        hero("H2", "A1", facing="NE"),
        bogey("B1", "D1", state="down"),
        ping("P1", "H1"),
    ]
    state = surgery_game(b, models)
    assert not state.position.sees("H2", "P1")
    act(state, "activate", "H1")
    events = act(state, "step", "D1")
    assert kinds(events) == ["step"] and [m.id for m in state.pings()] == ["P1"]
    # Either model listed first, the same answer.
    for order in (("H1", "B1"), ("B1", "H1")):
        moved = {m.id: m for m in models}
        moved["H1"] = moved["H1"].at(sq("D1"))
        ordered = [moved[i] for i in order] + [moved["H2"], moved["P1"]]
        pos = Position.initial(b, ordered, state.position.rules)
        assert not pos.report("H2", "P1").los


def test_revealed_when_a_hero_in_the_way_leaves_by_the_exit() -> None:
    # FR-P3: H1 on the exit (C1) stands in H2's line to the ping on E1; it leaves the
    # table (ZD-C8), the line opens, and the ping is turned over at once.
    b = board(".........\n.........", markers={"deployment": "I2", "exit": "C1"})
    models = [hero("H1", "C1", facing="SW"), hero("H2", "A1", facing="NE"), ping("P1", "E1")]
    state = surgery_game(b, models, deck=deck_of("BJ"))
    assert not state.position.sees("H2", "P1")
    act(state, "activate", "H1")
    events = act(state, "exit")
    assert kinds(events)[:2] == ["exit", "ping_revealed"]
    assert reveals(events)[0]["by"] == "H2"


# A 12x12 map for a whole game: a line of blocks (row 3) hides seven ping sites on row
# 1 from the heroes' zone (row 12); the eighth site, B9, is in the open.
SETUP_ROWS = "\n".join(["." * 12] * 2 + ["XXXXXXXXXXX."] + ["." * 12] * 9)
SETUP_MARKERS = {
    "heroes": "A12-F12",
    "ping": "A1-G1 B9",
    "deployment": "J1-L1",
    "exit": "K2",
    "objective": "G6",
}


def test_revealed_at_setup_placement(tmp_path: Path) -> None:
    # FR-P3: checked after the setup placement too: the ping placed on B9, in sight of
    # the hero on A12 (facing NE, towards the centre), is turned over at once; the ones
    # behind the blocks stay face down.
    path = tmp_path / "setup.board"
    path.write_text(board_text(SETUP_ROWS, markers=SETUP_MARKERS))
    state = new_game(0, map=str(path), heroes=1, red_force="grunt=8")
    assert state.position.model("H1").facing == "NE"
    assert state.revealed == {"P8": "B1"}
    assert state.position.model("B1").square == sq("B9")
    assert len(state.pings()) == 7
    placed = [e.kind for e in state.events if e.kind in ("ping_placed", "ping_revealed")]
    assert placed[-2:] == ["ping_placed", "ping_revealed"]
    # FR-P3 does not apply on the shipped maps: no site is in sight of the heroes.
    for game_map in ("zd-open", "zd-corridor"):
        assert new_game(1, map=game_map, heroes=6).revealed == {}


def test_revealed_after_a_bogey_step() -> None:
    # FR-P3: checked after every step of every move: the elite on C2 hides the ping on
    # E2 from the hero on A2; a Queen activates it, its first step (to B1, engaging the
    # hero) clears the line, and the ping is turned over at once.
    b = board(".......\n.......\n.......", markers={"deployment": "G3"})
    models = [hero("H1", "A2"), bogey("B2", "C2", tier="elite"), ping("P1", "E2")]
    state = surgery_game(b, models, deck=deck_of("QH"))
    assert not state.position.sees("H1", "P1")
    events = end_activation(state)
    start = kinds(events).index("flip")
    assert kinds(events)[start : start + 4] == ["flip", "activated", "bogey_step", "ping_revealed"]
    assert of_kind(events, "bogey_step") == [{"model": "B2", "square": "B1"}]
    assert reveals(events)[0]["bogey"] == "B3"


# =============================================================== FR-P4 hidden types, moves

TIER_WORDS = ("tier", "grunt", "elite", "boss", "special", '"face":')


def test_views_never_show_a_pings_type() -> None:
    # FR-P4: a ping's type is hidden from every player until revealed: no Cyl, no tier
    # in a view's ping entries, and no tier word anywhere in the views' text but the
    # options before the first reveal (events included). Two seeds, random legal
    # actions.
    for seed in (2, 5):
        state = new_game(seed, map="zd-corridor", red_force="grunt=2,elite=2,boss=2,special=2")
        rng = stream(seed, "test")
        checked = 0
        while not state.is_over and not state.revealed:
            for seat in (TEAM, None):
                view = state.view(seat)
                pings = [m for m in view.data["models"] if m["kind"] == "ping"]
                assert pings and all("cyl" not in m and "tier" not in m for m in pings)
                # The options name the Red Force's tiers (public, FR-P1): not which ping
                # is which.
                shown = {k: v for k, v in view.data.items() if k != "config"}
                text = json.dumps(shown, sort_keys=True)
                assert not any(word in text for word in TIER_WORDS), seat
            checked += 1
            state.apply(rng.choice(state.legal_actions(TEAM)))
        assert checked > 5
        # After a reveal the bogey's tier is public.
        if state.revealed:
            assert "tier" in state.view(TEAM).canonical()


def test_ping_entries_never_show_cyl_or_tier_after_reveals_too() -> None:
    # FR-P4: the remaining pings stay blank after others are revealed.
    state = new_game(3, map="zd-open")
    rng = stream(3, "test")
    while not state.is_over and len(state.revealed) < 2:
        state.apply(rng.choice(state.legal_actions(TEAM)))
    for m in state.view(None).data["models"]:
        if m["kind"] == "ping":
            assert set(m) == {"id", "kind", "squares", "facing", "state"}


def ping_steps(events: list[Any]) -> list[str]:
    return [str(e.data["square"]) for e in events if e.kind == "ping_step"]


def test_activated_ping_moves_three_squares_towards_the_nearest_hero() -> None:
    # FR-P4: an activated ping moves like a Grunt (Att 3) towards the nearest hero by
    # the shortest route. Facing NW from A1 the hero sees nothing of the board.
    b = board("\n".join(["........."] * 9), markers={"deployment": "I1"})
    state = surgery_game(
        b,
        [hero("H1", "A1", facing="NW"), ping("P1", "I9")],
        ping_types={"P1": "boss"},  # a boss ping still moves 3, like a Grunt
        deck=deck_of("5S"),
    )
    before = state.position.range("P1", "H1")
    assert before == 8
    events = end_activation(state)
    path = ping_steps(events)
    assert len(path) == 3
    assert path == ["H8", "G7", "F6"]
    # Every step shortens the range by one (FR-R1).
    pos = state.position
    ranges = [pos.range_between([sq(name)], pos.model("H1").squares) for name in path]
    assert ranges == [7, 6, 5]
    assert state.position.model("P1").kind == "ping"


def test_activated_ping_goes_round_walls_by_a_shortest_route() -> None:
    # FR-P4 with FR-R1: the way to the hero round a line of blocks.
    b = board(".........\n.........\nXXXXXXX..\n.........\n.........", markers={"deployment": "I5"})
    state = surgery_game(b, [hero("H1", "A1", facing="NW"), ping("P1", "A5")], deck=deck_of("5S"))
    start = state.position.range("P1", "H1")
    assert start is not None
    events = end_activation(state)
    path = ping_steps(events)
    assert len(path) == 3
    pos = state.position
    ranges = [pos.range_between([sq(name)], pos.model("H1").squares) for name in path]
    assert ranges == [start - 1, start - 2, start - 3]


def test_activated_ping_stops_when_revealed() -> None:
    # FR-P4, FR-P3: checked after every ping step; a ping revealed mid-move stops there.
    # From G5 the ping goes round the blocks (H5) and is seen from A1 on H4.
    b = board(".........\n.........\n.........\nXXXXXXX..\n.........", markers={"deployment": "A5"})
    state = surgery_game(b, [hero("H1", "A1", facing="SE"), ping("P1", "G5")], deck=deck_of("5S"))
    events = end_activation(state)
    assert ping_steps(events) == ["H5", "H4"]
    assert kinds(events)[-3:] == ["ping_step", "ping_revealed", "turn"]
    assert reveals(events)[0]["how"] == "sight" and reveals(events)[0]["square"] == "H4"
    assert state.position.model("B1").square == sq("H4")


# A corridor (row 2) between blocks: the hero on A2 looks down it; the elite on C2 hides
# the ping on D2 from it.
CORRIDOR = """
XXXXXXXX
........
XXXXXXXX
"""


def test_a_ping_revealed_while_crossing_a_bogey_does_not_stop_on_it() -> None:
    # FR-M3: bogeys may move through other bogeys but may not stop on them. The ping's
    # way to the hero crosses the elite's square C2 (FR-M3 lets it, for the move can
    # end on B2); there the hero sees it (FR-P3) and it is turned over. The bogey that
    # replaces it may not end on C2: it goes on to the first square it may stop on,
    # nearest the hero (B2), with the ping's steps left, and does nothing else (ruling).
    b = board(CORRIDOR, markers={"deployment": "H2"})
    models = [hero("H1", "A2", facing="NE"), bogey("B5", "C2", tier="elite"), ping("P1", "D2")]
    state = surgery_game(b, models, deck=deck_of("5S"))
    assert not state.position.sees("H1", "P1")
    events = end_activation(state)
    assert ping_steps(events) == ["C2"]
    (revealed,) = reveals(events)
    assert (revealed["bogey"], revealed["square"]) == ("B6", "C2")
    assert of_kind(events, "bogey_step") == [{"model": "B6", "square": "B2", "rule": "FR-M3"}]
    squares = [sq for m in state.position.models.values() for sq in m.squares]
    assert len(squares) == len(set(squares))  # one model a square
    assert state.position.model("B6").square == sq("B2")
    assert state.position.model("B5").square == sq("C2")
    assert of_kind(events, "cqb") == [] and of_kind(events, "shoot") == []  # nothing else


def test_a_ping_revealed_on_a_free_square_stays_there() -> None:
    # FR-M3 does not apply: the ping is turned over on a square no one else holds (H4):
    # the bogey stays there, with no step more (ruling: a ping revealed in its move stops).
    b = board(".........\n.........\n.........\nXXXXXXX..\n.........", markers={"deployment": "A5"})
    state = surgery_game(b, [hero("H1", "A1", facing="SE"), ping("P1", "G5")], deck=deck_of("5S"))
    events = end_activation(state)
    assert reveals(events)[0]["square"] == "H4"
    assert of_kind(events, "bogey_step") == []
    assert state.position.model("B1").square == sq("H4")


def test_activated_ping_heads_for_the_hero_not_for_a_square_across_a_wall() -> None:
    # FR-P4 (ZD-C4): the ping moves towards the nearest hero by the shortest route: each
    # step shortens its FR-R1 range to the hero. The wall A1-A2 e stands between the
    # hero on A1 and the squares B1 and B2; only A2 engages it (FR-S1). From D1 (range
    # 5) a shortest route goes D1 C2 B3 A3 A2: three steps end at range 2.
    b = board("....\n....\n....\n....", walls=["A1-A2 e"], markers={"deployment": "D4"})
    state = surgery_game(b, [hero("H1", "A1", facing="NW"), ping("P1", "D1")], deck=deck_of("5S"))
    pos = state.position
    assert pos.range("P1", "H1") == 5
    path = ping_steps(end_activation(state))
    ranges = [pos.range_between([sq(name)], [sq("A1")]) for name in path]
    assert ranges == [4, 3, 2]


# =============================================================== FR-P4 non-interference


def permuted(types: dict[str, str]) -> dict[str, str]:
    """The same pings with their types rotated among them."""
    ids = sorted(types, key=lambda p: int(p[1:]))
    values = [types[p] for p in ids]
    return dict(zip(ids, values[1:] + values[:1], strict=True))


@pytest.mark.parametrize(
    ("game_map", "seed"), [("zd-open", 3), ("zd-open", 8), ("zd-corridor", 0), ("zd-corridor", 4)]
)
def test_ping_types_do_not_change_what_anyone_sees(game_map: str, seed: int) -> None:
    # FR-P4: the types of unrevealed pings interfere with nothing public: two games from
    # one seed whose secret types are permuted give byte-identical views (team and
    # spectator) after every action of one action sequence, until the first reveal.
    config = {"map": game_map, "red_force": "grunt=3,elite=2,boss=2,special=1"}
    a, b = new_game(seed, **config), new_game(seed, **config)
    b.ping_types = permuted(a.ping_types)  # surgery: the umpire's secret only
    assert b.ping_types != a.ping_types
    rng = stream(seed, "test")
    actions = 0
    while not a.is_over:
        for seat in (TEAM, None):
            assert a.view(seat).canonical() == b.view(seat).canonical(), (actions, seat)
        legal = a.legal_actions(TEAM)
        assert legal == b.legal_actions(TEAM)
        action = rng.choice(legal)
        ea, eb = a.apply(action), b.apply(action)
        actions += 1
        if any(e.kind == "ping_revealed" for e in [*ea, *eb]):
            # Up to the reveal the public events agree; the reveal itself, but for the
            # type (after it, a revealed bogey of another tier may act otherwise).
            cut = [e.kind for e in ea].index("ping_revealed")
            assert [e.to_json() for e in ea[:cut]] == [e.to_json() for e in eb[:cut]]
            secret = {"tier", "face", "support"}  # a tier's support tokens show it
            ra = {k: v for k, v in ea[cut].data.items() if k not in secret}
            rb = {k: v for k, v in eb[cut].data.items() if k not in secret}
            assert eb[cut].kind == "ping_revealed" and ra == rb
            break
        assert [e.to_json() for e in ea] == [e.to_json() for e in eb]
    assert actions >= 2
    json.dumps(a.view(TEAM).to_json())  # the views stay JSON


@pytest.mark.parametrize(("mission", "seed"), [("the-spy", 3), ("the-boss", 3), ("dead-drop", 3)])
def test_the_end_views_show_the_pings_and_the_tasks_picks(mission: str, seed: int) -> None:
    # FR-P4, ZD-T3, ZD-T4: what a ping hides and a task's secret pick reach no view
    # while the mission runs; once it is over nothing is secret, and every view (the
    # spectator's too) shows each ping still face down as turning it over would have
    # (its tier and public flags) and each side's pick.
    from fogofwar.core.game import get_ruleset

    rs = get_ruleset("zero-dark")
    state = rs.new_game({"mission": mission}, seed)
    assert isinstance(state, ZeroDarkState)
    seats = (*rs.seats(state.config), None)
    pick = stream(1, "end-views")
    while not state.is_over:
        for seat in seats:
            data = state.view(seat).data
            assert all("tier" not in m for m in data["models"] if m["kind"] == "ping")
            for side in data["sides"].values():
                assert "double_agent" not in side and "boss_target" not in side
        actor = sorted(state.to_act())[0]
        state.apply(pick.choice(list(state.legal_actions(actor))))
    picks = 0
    for seat in seats:
        data = state.view(seat).data
        pings = [m for m in data["models"] if m["kind"] == "ping"]
        assert pings, "some pings were never turned over"
        for m in pings:
            assert m["tier"] == state.ping_types[m["id"]]
            assert m["flags"] == sorted(state.ping_flags[m["id"]] - {"susceptible"})
        for name, side in state.sides.items():
            for secret in ("double_agent", "boss_target"):
                assert data["sides"][name].get(secret) == getattr(side, secret)
                picks += getattr(side, secret) is not None
            assert data["sides"][name]["rescued"] == side.rescued
    assert picks >= len(seats)
