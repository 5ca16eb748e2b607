"""The Zero Dark stand-in core (ZD-C2…ZD-C11) in whole ``zero-dark`` games.

Every rule test puts a game into a chosen position by surgery (``helpers.surgery_game``:
a small board, the models, a Control Deck whose top cards the test chooses) and scripts
the dice: ``scripted.Dice`` monkeypatches ``state._roll`` to return chosen successes in
order and records the dice and TN of every test (the ZD-C1 grouping is tested in
test_grouping.py). Each test names the rule it checks; each rule has a case where it
applies and one where it does not.
"""

from __future__ import annotations

from typing import Any

import pytest

from fogofwar.core.cards import Deck, PlayingCard, playing_cards
from fogofwar.core.errors import IllegalActionError
from fogofwar.core.game import Action
from fogofwar.core.grid import Board
from fogofwar.games.zero_dark.fear import Model
from fogofwar.games.zero_dark.profiles import BOGEYS, HERO
from fogofwar.games.zero_dark.state import TEAM, ZeroDarkState

from .helpers import (
    RS,
    act,
    board,
    bogey,
    deck_of,
    dist,
    finish,
    hero,
    illegal_rule,
    kinds,
    legal,
    of_kind,
    ping,
    sq,
    surgery_game,
)
from .scripted import Dice, Roll

# A 7x7 floor whose deployment site (complications) G7 is sealed off by blocks: a
# complication's ping there is never seen and never gets out, so a Joker (or a face card
# with no Elite or Boss on the table) is a quiet flip.
ARENA = """
.......
.......
.......
.......
.......
.....XX
.....X.
"""

# A 9x9 floor, the deployment site I9 sealed off the same way.
BIG = """
.........
.........
.........
.........
.........
.........
.........
.......XX
.......X.
"""


def arena(**markers: str) -> Board:
    return board(ARENA, markers={"deployment": "G7", **markers})


def big(rows: str = BIG) -> Board:
    return board(rows, markers={"deployment": "I9"})


def game(
    models: list[Model],
    *cards: str,
    b: Board | None = None,
    fill: bool = True,
    **config: Any,
) -> ZeroDarkState:
    """Surgery: ``models`` on ``b`` (the arena unless told), the Control Deck's top cards
    ``cards`` (a quiet Joker unless told)."""
    return surgery_game(
        b if b is not None else arena(),
        models,
        deck=deck_of(*(cards or ("BJ",)), fill=fill),
        **config,
    )


def activations(events: list[Any]) -> list[str]:
    return [d["model"] for d in of_kind(events, "activated")]


def turn_of(state: ZeroDarkState, model: str = "H1") -> list[Any]:
    """``model``'s activation: no move (``stop``), no tested action (``pass``)."""
    return act(state, "activate", model) + act(state, "stop") + finish(state)


# ======================================================================= ZD-C2 activation


def test_an_activation_is_an_automatic_then_a_tested_action() -> None:
    # ZD-C2: one automatic action (a move of up to M squares) then one tested action;
    # then the activation ends and the Control Deck is flipped.
    state = game([hero("H1", "A7")])
    act(state, "activate", "H1")
    assert state.phase == "move"
    assert {"step", "face", "stop"} <= kinds(state)
    assert not kinds(state) & {"shoot", "interact", "cautious", "pass"}
    act(state, "step", "B6")
    act(state, "step", "C5")
    assert state.phase == "move"
    act(state, "stop")
    assert state.phase == "tested"
    assert {"cautious", "pass"} <= kinds(state)
    assert not kinds(state) & {"step", "stop", "face"}
    events = act(state, "pass")
    assert [e.kind for e in events][:3] == ["pass", "activation_end", "flip"]
    assert state.phase == "choose" and state.position.model("H1").square == sq("C5")


def test_a_move_is_at_most_m_squares() -> None:
    # ZD-C2: the automatic move is up to M squares (the hero's M is 4): after four steps
    # no fifth is legal, only the end of the move.
    state = game([hero("H1", "A7")])
    assert HERO.m == 4
    act(state, "activate", "H1")
    for to in ("A6", "A5", "A4"):
        act(state, "step", to)
    assert "step" in kinds(state)  # ZD-C2 does not stop a third or fourth step
    act(state, "step", "A3")
    assert "step" not in kinds(state)
    assert illegal_rule(state, "step", "A2") == "ZD-C2"
    act(state, "stop")
    assert state.phase == "tested"


def test_a_new_facing_alone_is_the_automatic_action() -> None:
    # ZD-C2: turning to a new facing is an automatic action by itself.
    state = game([hero("H1", "A7", facing="NE")])
    act(state, "activate", "H1")
    act(state, "face", "SE")
    assert state.phase == "tested"
    assert state.position.model("H1").facing == "SE"
    assert state.position.model("H1").square == sq("A7")


def test_a_door_is_an_automatic_action_without_a_test() -> None:
    # ZD-C2: interacting with no test (a door) is the automatic action; no test is rolled.
    b = board("...\n...", walls=["B1 e"], doors=["B2 e closed"], markers={"deployment": "A1"})
    state = game([hero("H1", "B2")], b=b)
    act(state, "activate", "H1")
    events = act(state, "door", "B2", "e")
    assert of_kind(events, "door") == [{"model": "H1", "edge": "B2 e", "open": True}]
    assert of_kind(events, "test") == []
    assert state.phase == "tested"


def test_the_tested_action_comes_after_the_automatic_action() -> None:
    # ZD-C2 does not allow a tested action first.
    state = game([hero("H1", "A7"), bogey("B1", "A3")])
    act(state, "activate", "H1")
    assert illegal_rule(state, "shoot", "B1") == "ZD-C2"
    assert illegal_rule(state, "pass") == "ZD-C2"


def test_successes_beyond_the_first_are_bonus_automatic_actions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # ZD-C2: a tested action with 3 successes gives 2 bonus actions, each another
    # automatic action (a move, a facing...), never another tested action. Dice
    # scripted: the cautious move scores 3.
    state = game([hero("H1", "A7")])
    Dice(monkeypatch, state, ("H1", 3))
    act(state, "activate", "H1")
    act(state, "stop")
    events = act(state, "cautious")
    assert of_kind(events, "bonus_actions") == [{"model": "H1", "count": 2, "rule": "ZD-C2"}]
    assert state.phase == "bonus" and state.bonus == 2
    assert {"step", "face", "stop", "done"} <= kinds(state)
    assert not kinds(state) & {"shoot", "cautious", "interact", "pass"}
    act(state, "step", "A6")
    act(state, "step", "A5")
    events = act(state, "stop")  # the first bonus action: a move
    assert state.phase == "bonus" and state.bonus == 1
    assert not of_kind(events, "flip")
    events = act(state, "face", "SE")  # the second: a new facing; the activation ends
    assert [e.kind for e in events][:3] == ["face", "activation_end", "flip"]
    assert state.phase == "choose"
    assert state.position.model("H1").square == sq("A5")


@pytest.mark.parametrize("successes", [0, 1])
def test_no_bonus_action_without_a_second_success(
    monkeypatch: pytest.MonkeyPatch, successes: int
) -> None:
    # ZD-C2 does not apply: with 0 or 1 success there is no bonus action; the
    # activation ends and the flip comes. Dice scripted.
    state = game([hero("H1", "A7")])
    Dice(monkeypatch, state, ("H1", successes))
    act(state, "activate", "H1")
    act(state, "stop")
    events = act(state, "cautious")
    assert of_kind(events, "bonus_actions") == []
    assert len(of_kind(events, "flip")) == 1
    assert state.phase == "choose" and state.bonus == 0


def test_done_forgoes_the_bonus_actions_left(monkeypatch: pytest.MonkeyPatch) -> None:
    # ZD-C2: bonus actions may be forgone. Dice scripted: 3 successes.
    state = game([hero("H1", "A7")])
    Dice(monkeypatch, state, ("H1", 3))
    act(state, "activate", "H1")
    act(state, "stop")
    act(state, "cautious")
    events = act(state, "done")
    assert [e.kind for e in events][:2] == ["activation_end", "flip"]
    assert state.position.model("H1").square == sq("A7")


# ======================================================================= ZD-C3 shooting


@pytest.mark.parametrize("tier", ["grunt", "elite", "boss"])
def test_shot_is_f_dice_at_range_plus_def(monkeypatch: pytest.MonkeyPatch, tier: str) -> None:
    # ZD-C3: F dice at TN = range + the bogey's Def (clear target: no +2). Dice
    # scripted: a miss.
    state = game([hero("H1", "A7"), bogey("B1", "A3", tier=tier)])
    state.support["B1"] = BOGEYS[tier].support  # surgery: a tier's full support tokens
    dice = Dice(monkeypatch, state, ("H1", 0))
    assert state.position.report("H1", "B1").status == "clear"
    assert state.position.range("H1", "B1") == 4
    act(state, "activate", "H1")
    act(state, "stop")
    act(state, "shoot", "B1")
    assert dice.calls == [Roll("H1", "shoot B1", HERO.f, 4 + BOGEYS[tier].defence)]
    # ZD-C3: a miss does nothing.
    assert state.wounds.get("B1", 0) == 0
    assert state.support["B1"] == BOGEYS[tier].support


def test_obscured_target_adds_two(monkeypatch: pytest.MonkeyPatch) -> None:
    # ZD-C3: +2 to the TN when the target is obscured (the crates on A5 interrupt a
    # corner line to B3, FR-S3).
    b = board(ARENA.replace(".......\n.....XX", "c......\n.....XX"), markers={"deployment": "G7"})
    state = game([hero("H1", "A7"), bogey("B1", "B3")], b=b)
    dice = Dice(monkeypatch, state, ("H1", 0))
    assert state.board.terrain_at(sq("A5")).name == "crates"
    assert state.position.report("H1", "B1").status == "obscured"
    act(state, "activate", "H1")
    act(state, "stop")
    events = act(state, "shoot", "B1")
    assert of_kind(events, "shoot")[0]["status"] == "obscured"
    assert dice.calls == [Roll("H1", "shoot B1", 4, 4 + 1 + 2)]


def test_an_entirely_obscured_target_cannot_be_shot() -> None:
    # ZD-C3: a block between hides the bogey on D1 entirely; the one on E1 is in sight.
    b = board(
        ".......\n.......\n.......\n...X...\n.......\n.......\n.......",
        markers={"deployment": "A1"},
    )
    state = game([hero("H1", "D7"), bogey("B1", "D1"), bogey("B2", "E1")], b=b)
    assert state.position.report("H1", "B1").entirely_obscured
    act(state, "activate", "H1")
    act(state, "stop")
    assert ("shoot", ("B2",)) in legal(state)
    assert ("shoot", ("B1",)) not in legal(state)
    assert illegal_rule(state, "shoot", "B1") == "ZD-C3"


# A low wall (Cyl 3, impassable, transparent) across the middle row: it stops every
# corner line of a Cyl 3 model (FR-L1) but not the sight of a taller model's cylinder
# (FR-S6).
LOW_WALL = """
.....
wwwww
.....
"""


@pytest.mark.parametrize(("tier", "cyl", "shot"), [("boss", 4, True), ("grunt", 3, False)])
def test_a_target_whose_cylinder_alone_is_seen_is_shot_as_obscured(
    monkeypatch: pytest.MonkeyPatch, tier: str, cyl: int, shot: bool
) -> None:
    # ZD-C3, FR-S6: the low walls stop every corner line of the Cyl 3 hero, but they are
    # lower than a Cyl 4 Boss: the hero sees its cylinder, so the Boss is obscured, not
    # entirely obscured: it may be shot (and dotlit, ZD-L1), at +2 to the TN. A Cyl 3
    # Grunt there is entirely obscured and cannot be. Dice scripted: a miss.
    b = board(LOW_WALL, markers={"deployment": "E3"})
    state = game([hero("H1", "C1", facing="SE"), bogey("B1", "C3", tier=tier, cyl=cyl)], b=b)
    state.upgrades["H1"] = ["dotlight"]  # surgery
    report = state.position.report("H1", "B1")
    assert not report.los
    assert report.status == ("obscured" if shot else "entirely obscured")
    dice = Dice(monkeypatch, state, ("H1", 0))
    act(state, "activate", "H1")
    act(state, "stop")
    assert (("shoot", ("B1",)) in legal(state)) is shot
    assert (("dotlight", ("B1",)) in legal(state)) is shot
    if not shot:
        assert illegal_rule(state, "shoot", "B1") == "ZD-C3"
        return
    events = act(state, "shoot", "B1")
    assert of_kind(events, "shoot")[0]["status"] == "obscured"
    h1, b1 = state.position.model("H1"), state.position.model("B1")
    rng = state.shooting_range(h1, b1)
    assert dice.calls == [Roll("H1", "shoot B1", HERO.f, rng + BOGEYS[tier].defence + 2)]


@pytest.mark.parametrize(("cyl", "shot"), [(4, True), (3, False)])
def test_a_bogey_shoots_a_hero_whose_cylinder_alone_it_sees(
    monkeypatch: pytest.MonkeyPatch, cyl: int, shot: bool
) -> None:
    # ZD-C4 with ZD-C3, FR-S6: a Grunt (Cyl 3) behind the low walls sees the cylinder of
    # a Cyl 4 hero across them, though no corner line: the hero is obscured and is shot,
    # at TN = range + AV + 2. A Cyl 3 hero is entirely obscured: no shot. Dice
    # scripted: a miss.
    b = board(LOW_WALL, markers={"deployment": "E3"})
    state = game([hero("H1", "C1", cyl=cyl), bogey("B1", "C3", facing="NE")], "5S", b=b)
    dice = Dice(monkeypatch, state, ("B1", 0))
    events = turn_of(state)
    assert activations(events) == ["B1"]
    if not shot:
        assert of_kind(events, "shoot") == [] and dice.calls == []
        return
    (fired,) = of_kind(events, "shoot")
    assert (fired["target"], fired["status"]) == ("H1", "obscured")
    assert dice.calls == [Roll("B1", "shoot H1", BOGEYS["grunt"].att, fired["range"] + HERO.av + 2)]


@pytest.mark.parametrize(
    ("tier", "hits", "support", "wounds", "after"),
    [
        ("grunt", 1, 0, 0, "active"),  # the token goes, no wound
        ("grunt", 2, 0, 1, "down"),  # token, then a wound: Wnd 1, down
        ("grunt", 3, 0, 1, "dead"),  # down, then hit again: dead
        ("elite", 2, 0, 0, "active"),  # both tokens
        ("elite", 3, 0, 1, "active"),  # both tokens, one wound of 2
        ("elite", 4, 0, 2, "down"),
        ("boss", 4, 0, 1, "active"),
    ],
)
def test_hits_remove_support_tokens_first_then_wound(
    monkeypatch: pytest.MonkeyPatch, tier: str, hits: int, support: int, wounds: int, after: str
) -> None:
    # ZD-C3: each success removes a support token if the target has one, else wounds;
    # wounds equal to Wnd: down; a down bogey hit again: dead (removed). Dice scripted.
    state = game([hero("H1", "A7"), bogey("B1", "A4", tier=tier)])
    state.support["B1"] = BOGEYS[tier].support  # surgery: a tier's full support tokens
    Dice(monkeypatch, state, ("H1", hits))
    act(state, "activate", "H1")
    act(state, "stop")
    events = act(state, "shoot", "B1")
    removed = len(of_kind(events, "support_removed"))
    assert removed == min(hits, BOGEYS[tier].support)
    if after == "dead":
        assert "B1" not in state.position.models
        assert of_kind(events, "dead") == [{"model": "B1", "rule": "ZD-C3"}]
        return
    assert state.support["B1"] == support
    assert state.wounds.get("B1", 0) == wounds
    assert state.position.model("B1").state == after
    assert bool(of_kind(events, "down")) is (after == "down")


@pytest.mark.parametrize("down", [True, False])
def test_a_down_bogey_hit_again_is_dead(monkeypatch: pytest.MonkeyPatch, down: bool) -> None:
    # ZD-C3: a down bogey hit again is dead; an elite with one wound (not down, no
    # tokens) hit once is only down. Dice scripted: one hit.
    target = bogey("B1", "A4", tier="elite", state="down" if down else "active")
    state = game([hero("H1", "A7"), target])
    state.wounds["B1"] = 2 if down else 1  # surgery
    Dice(monkeypatch, state, ("H1", 1))
    act(state, "activate", "H1")
    act(state, "stop")
    act(state, "shoot", "B1")
    if down:
        assert "B1" not in state.position.models
    else:
        assert state.position.model("B1").state == "down"


@pytest.mark.parametrize("targeted", [True, False])
def test_a_targeted_bogey_gives_one_more_die(
    monkeypatch: pytest.MonkeyPatch, targeted: bool
) -> None:
    # ZD-C3: +1 die to every shot at a targeted bogey. Dice scripted.
    state = game([hero("H1", "A7"), bogey("B1", "A4")])
    if targeted:
        state.targeted.add("B1")  # surgery
    dice = Dice(monkeypatch, state, ("H1", 0))
    act(state, "activate", "H1")
    act(state, "stop")
    act(state, "shoot", "B1")
    assert dice.calls[0].dice == HERO.f + (1 if targeted else 0)
    assert dice.calls[0].tn == 3 + 1


# ======================================================================= ZD-C4 bogeys


@pytest.mark.parametrize(("tier", "card"), [("grunt", "5S"), ("elite", "KD"), ("boss", "AH")])
def test_an_activated_bogey_moves_att_squares_then_shoots(
    monkeypatch: pytest.MonkeyPatch, tier: str, card: str
) -> None:
    # ZD-C4: the bogey moves up to Att squares by the shortest route towards the hero,
    # turns to it and shoots: Att + support dice at TN = range + the hero's AV (clear:
    # no cover); each hit wounds. Dice scripted: one hit.
    state = game([hero("H1", "A9"), bogey("B1", "A1", tier=tier)], card, b=big())
    state.support["B1"] = BOGEYS[tier].support  # surgery
    stats = BOGEYS[tier]
    dice = Dice(monkeypatch, state, ("B1", 1))
    assert state.position.range("B1", "H1") == 8
    events = turn_of(state)
    assert activations(events) == ["B1"]
    assert len(of_kind(events, "bogey_step")) == stats.att
    rng = 8 - stats.att
    assert state.position.range("B1", "H1") == rng
    assert of_kind(events, "shoot") == [
        {"model": "B1", "target": "H1", "range": rng, "status": "clear"}
    ]
    assert dice.calls == [Roll("B1", "shoot H1", stats.att + stats.support, rng + HERO.av)]
    assert state.wounds["H1"] == 1
    assert state.position.model("H1").state == "active"


def test_an_engaged_bogey_fights_cqb_instead_of_shooting(monkeypatch: pytest.MonkeyPatch) -> None:
    # ZD-C4: a bogey that ends its move engaged fights CQB (ZD-C5), it does not shoot.
    # Dice scripted: nobody scores.
    state = game([hero("H1", "A9"), bogey("B1", "A5")], "5S", b=big())
    dice = Dice(monkeypatch, state, ("H1", 0), ("B1", 0))
    events = turn_of(state)
    assert state.position.engaged("B1", "H1")
    assert of_kind(events, "shoot") == []
    assert of_kind(events, "cqb") == [
        {"model": "H1", "bogey": "B1", "moved": "bogey", "persuade": False}
    ]
    assert [c.purpose for c in dice.calls] == ["cqb", "cqb"]


def test_a_bogey_that_sees_no_hero_does_not_shoot(monkeypatch: pytest.MonkeyPatch) -> None:
    # ZD-C4 does not apply: the bogey moves towards the hero round a line of blocks
    # (the way is through I5) and still sees no one: no shot (no test is rolled).
    rows = BIG.strip().splitlines()
    rows[4] = "XXXXXXXX."
    state = game([hero("H1", "A9"), bogey("B1", "A1")], "5S", b=big("\n".join(rows)))
    Dice(monkeypatch, state)  # any test fails this one
    before = dist(state, "B1", "H1")
    events = turn_of(state)
    assert len(of_kind(events, "bogey_step")) == 3
    assert state.position.range("B1", "H1") == before - 3
    assert of_kind(events, "shoot") == []


def test_a_bogey_moves_towards_the_nearest_hero(monkeypatch: pytest.MonkeyPatch) -> None:
    # ZD-C4: towards the nearest hero (H1 at range 6, not H2 at range 8).
    state = game([hero("H1", "A9"), hero("H2", "I1"), bogey("B1", "A3")], "5S", b=big())
    Dice(monkeypatch, state, default=0)
    assert (state.position.range("B1", "H1"), state.position.range("B1", "H2")) == (6, 8)
    turn_of(state)
    assert state.position.range("B1", "H1") == 3
    assert dist(state, "B1", "H2") > 5


# ======================================================================= ZD-C5 CQB


@pytest.mark.parametrize(("tier", "tn"), [("grunt", 5), ("elite", 6), ("boss", 7)])
def test_cqb_tns_by_tier(monkeypatch: pytest.MonkeyPatch, tier: str, tn: int) -> None:
    # ZD-C5: the hero that moves into engagement rolls D dice at TN 5/6/7 for a
    # Grunt/Elite/Boss; the bogey rolls Att + support dice at TN 6, at once. Dice
    # scripted: nobody scores.
    state = game([hero("H1", "A7"), bogey("B1", "A5", tier=tier)])
    state.support["B1"] = BOGEYS[tier].support  # surgery
    dice = Dice(monkeypatch, state, ("H1", 0), ("B1", 0))
    act(state, "activate", "H1")
    act(state, "step", "A6")
    assert dice.calls == []  # the CQB comes when the move ends
    events = act(state, "stop")
    assert of_kind(events, "cqb") == [
        {"model": "H1", "bogey": "B1", "moved": "hero", "persuade": False}
    ]
    stats = BOGEYS[tier]
    assert dice.calls == [
        Roll("H1", "cqb", HERO.d, tn),
        Roll("B1", "cqb", stats.att + stats.support, 6),
    ]
    assert state.phase == "tested"


@pytest.mark.parametrize(
    ("tier", "hits", "wounds", "after"),
    [("grunt", 1, 1, "down"), ("elite", 1, 1, "active"), ("elite", 2, 2, "down")],
)
def test_cqb_hits_wound_and_ignore_support_tokens(
    monkeypatch: pytest.MonkeyPatch, tier: str, hits: int, wounds: int, after: str
) -> None:
    # ZD-C5: each CQB success wounds the bogey; support tokens are not removed. Dice
    # scripted.
    state = game([hero("H1", "A7"), bogey("B1", "A5", tier=tier)])
    state.support["B1"] = BOGEYS[tier].support  # surgery
    Dice(monkeypatch, state, ("H1", hits), ("B1", 0))
    act(state, "activate", "H1")
    act(state, "step", "A6")
    events = act(state, "stop")
    assert of_kind(events, "support_removed") == []
    assert state.support["B1"] == BOGEYS[tier].support
    assert state.wounds["B1"] == wounds
    assert state.position.model("B1").state == after
    assert state.wounds.get("H1", 0) == 0


def test_no_cqb_without_moving_into_engagement(monkeypatch: pytest.MonkeyPatch) -> None:
    # ZD-C5 does not apply: the hero starts engaged and does not move (a new facing):
    # no CQB is fought (no test is rolled).
    state = game([hero("H1", "A7"), bogey("B1", "A6")])
    Dice(monkeypatch, state)  # any test fails this one
    act(state, "activate", "H1")
    events = act(state, "face", "SE")
    assert of_kind(events, "cqb") == []
    assert state.phase == "tested"


@pytest.mark.parametrize(
    ("hits", "state_after", "dead", "lost"),
    [(1, "active", False, False), (2, "ooa", False, True), (3, "ooa", True, True)],
)
def test_hero_down_at_two_wounds_dead_at_three_lost_at_the_end(
    monkeypatch: pytest.MonkeyPatch, hits: int, state_after: str, dead: bool, lost: bool
) -> None:
    # ZD-C5: each bogey success wounds the hero; 2 wounds: down, 3: dead; both out of
    # action; a hero dead or OOA at the end of the mission is lost (one wound: neither).
    # A one-card deck ends the mission after this activation. Dice scripted.
    state = game([hero("H1", "A7"), hero("H2", "E1"), bogey("B1", "A5")], "BJ", fill=False)
    Dice(monkeypatch, state, ("H1", 0), ("B1", hits))
    act(state, "activate", "H1")
    act(state, "step", "A6")
    events = act(state, "stop") + finish(state)
    assert state.wounds["H1"] == hits
    assert state.position.model("H1").state == state_after
    assert ("H1" in state.dead) is dead
    if hits == 2:
        assert of_kind(events, "down") == [{"model": "H1", "rule": "ZD-C5"}]
    assert state.is_over and state.report is not None
    assert state.report["lost"] == (["H1"] if lost else [])


def test_out_of_action_hero_cannot_be_activated() -> None:
    # ZD-C5 (and ZD-C9): a hero down is out of action: it is not activated.
    state = game([hero("H1", "A7"), hero("H2", "E1", state="ooa")])
    state.wounds["H2"] = 2  # surgery
    assert legal(state) == [("activate", ("H1",))]
    assert illegal_rule(state, "activate", "H2") == "ZD-C5"


# ======================================================================= ZD-C6 the deck


@pytest.mark.parametrize(
    ("card", "activated"),
    [
        ("2S", "B1"),
        ("10H", "B1"),
        ("JD", "B2"),
        ("QC", "B2"),
        ("KS", "B2"),
        ("AH", "B3"),
        ("BJ", None),
        ("RJ", None),
    ],
)
def test_a_flip_activates_a_bogey_of_its_tier(
    monkeypatch: pytest.MonkeyPatch, card: str, activated: str | None
) -> None:
    # ZD-C6: 2-10 a Grunt, J/Q/K an Elite, an Ace a Boss; a Joker is a complication (a
    # new Grunt ping on the deployment site) even with every tier on the table.
    models = [
        hero("H1", "A7"),
        bogey("B1", "C1"),
        bogey("B2", "E1", tier="elite"),
        bogey("B3", "G1", tier="boss"),
    ]
    state = game(models, card)
    Dice(monkeypatch, state, default=0)
    events = turn_of(state)
    assert of_kind(events, "flip")[0]["card"] == card
    if activated is None:
        assert activations(events) == []
        assert of_kind(events, "complication") == [{"card": card, "ping": "P1"}]
        assert state.position.model("P1").square == sq("G7")
        assert state.ping_types["P1"] == "grunt"
    else:
        assert activations(events) == [activated]
        assert of_kind(events, "complication") == []


@pytest.mark.parametrize("card", ["JH", "QS", "KC", "AD"])
def test_a_card_whose_tier_is_not_on_the_table_is_a_complication(
    monkeypatch: pytest.MonkeyPatch, card: str
) -> None:
    # ZD-C6: only a Grunt on the table: a face card or an Ace is a complication.
    state = game([hero("H1", "A7"), bogey("B1", "C1")], card)
    Dice(monkeypatch, state, default=0)
    events = turn_of(state)
    assert activations(events) == []
    assert len(of_kind(events, "complication")) == 1


@pytest.mark.parametrize(("card", "activated"), [("JH", "B2"), ("KS", "B2"), ("5D", "B1")])
def test_a_special_bogey_answers_the_elites_cards(
    monkeypatch: pytest.MonkeyPatch, card: str, activated: str
) -> None:
    # ZD-C6 names Grunt, Elite and Boss cards only; a special bogey (FR-P1's "S") uses
    # the Elite's profile and answers J/Q/K (ruling), so a face card with only a special
    # bogey of the higher tiers on the table activates it and brings no complication.
    state = game([hero("H1", "A7"), bogey("B1", "C1"), bogey("B2", "E1", tier="special")], card)
    Dice(monkeypatch, state, default=0)
    events = turn_of(state)
    assert activations(events) == [activated]
    assert of_kind(events, "complication") == []


def test_an_ace_with_only_a_special_bogey_is_a_complication(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # ZD-C6: a special bogey is not a Boss: an Ace finds no Boss on the table.
    state = game([hero("H1", "A7"), bogey("B2", "E1", tier="special")], "AS")
    Dice(monkeypatch, state, default=0)
    events = turn_of(state)
    assert activations(events) == []
    assert len(of_kind(events, "complication")) == 1


@pytest.mark.parametrize("others", [[], [bogey("B2", "E1", tier="elite")]])
def test_a_down_bogey_keeps_its_tier_on_the_table(
    monkeypatch: pytest.MonkeyPatch, others: list[Model]
) -> None:
    # ZD-C6: a complication only for a card "whose tier has no bogey on the table"; a
    # down Elite is on the table until it is killed (ZD-C3), so a Jack brings none. The
    # suit picks among the tier's standing bogeys (ZD-C11, spades: the nearest a hero):
    # a standing Elite is activated before the down one, nearer as it is (ruling). With
    # none standing the down Elite on B5 is picked, and does nothing (ruling): no step,
    # no shot, no CQB. Dice scripted: none may be rolled without a standing Elite.
    down = bogey("B1", "B5", tier="elite", state="down")
    state = game([hero("H1", "A7"), down, *others], "JS")
    Dice(monkeypatch, state, **({"default": 0} if others else {}))
    events = turn_of(state)
    assert of_kind(events, "complication") == []
    assert state.position.model("B1").square == sq("B5")
    assert state.pings() == []
    if others:
        assert all(e.get("model") != "B1" for e in of_kind(events, "activated"))
        assert activations(events) == ["B2"]
        return
    assert of_kind(events, "activated") == [{"model": "B1", "down": True, "rule": "ZD-C6"}]
    assert of_kind(events, "bogey_step") == [] and of_kind(events, "shoot") == []


def test_a_killed_bogey_leaves_its_tier_empty(monkeypatch: pytest.MonkeyPatch) -> None:
    # ZD-C6 applies once the down Elite is dead (off the table): a Jack is a complication.
    state = game([hero("H1", "A7"), bogey("B1", "B5", tier="elite", state="down")], "JS")
    state._hits_on_bogey(state.position.model("B1"), 1, shot=True)  # surgery: killed
    assert "B1" not in state.position.models
    Dice(monkeypatch, state, default=0)
    events = turn_of(state)
    assert len(of_kind(events, "complication")) == 1


def test_the_deck_is_54_cards_and_flips_are_discarded() -> None:
    # ZD-C6: 52 cards and 2 jokers shuffled from the seeded RNG; a flipped card goes to
    # the discard pile.
    a = RS.new_game({"map": "zd-open", "spook": False, "heroes": 1}, 4)
    b = RS.new_game({"map": "zd-open", "spook": False, "heroes": 1}, 4)
    c = RS.new_game({"map": "zd-open", "spook": False, "heroes": 1}, 5)
    assert isinstance(a, ZeroDarkState) and isinstance(b, ZeroDarkState)
    assert isinstance(c, ZeroDarkState)
    assert sorted(map(str, a.deck.draw_pile)) == sorted(map(str, playing_cards(jokers=True)))
    assert len(a.deck) == 54
    assert list(a.deck.draw_pile) == list(b.deck.draw_pile)
    assert list(a.deck.draw_pile) != list(c.deck.draw_pile)
    top = a.deck.draw_pile.top
    events = turn_of(a)
    assert of_kind(events, "flip")[0]["card"] == top.to_json()  # type: ignore[union-attr]
    assert list(a.deck.discard_pile) == [top]
    assert len(a.deck) == 53


def test_the_mission_ends_when_the_deck_is_exhausted() -> None:
    # ZD-C6: the last card flipped ends the mission; with a card left it goes on.
    state = game([hero("H1", "A7")], "BJ", "RJ", fill=False)
    turn_of(state)
    assert not state.is_over and len(state.deck) == 1
    events = turn_of(state)
    assert state.outcome() is not None
    (end,) = of_kind(events, "mission_end")
    assert end["rule"] == "ZD-C6" and "exhausted" in end["reason"]
    assert state.report is not None
    assert (state.report["flips"], state.report["cards_left"]) == (2, 0)


# ======================================================================= ZD-C7 the hand


def control(*top: str, hand: tuple[str, ...] = ()) -> Deck[PlayingCard]:
    """A Control Deck with the ``hand`` drawn from it (out, as a real hand is), then
    ``top`` first, then the rest of the 54."""
    rest = [c for c in deck_of(*top).draw_pile if c.to_json() not in hand]
    deck = Deck([*map(PlayingCard.parse, hand), *rest], name="control")
    for _ in hand:
        deck.draw()
    return deck


def test_the_spook_draws_d_cards_at_the_start() -> None:
    # ZD-C7: the Spook (D 3) draws 3 cards from the Control Deck at the start.
    state = RS.new_game({"map": "zd-open", "heroes": 2, "spook": True}, 3)
    assert isinstance(state, ZeroDarkState)
    assert state.spook == "H1" and state.stats("H1").d == 3
    assert len(state.hand) == 3
    assert len(state.deck) == 51
    assert not set(state.hand) & set(state.deck.draw_pile)
    assert of_kind(state.events, "hand_drawn") == [{"spook": "H1", "cards": 3, "rule": "ZD-C7"}]
    # ZD-C7 does not apply without a Spook: no hand, 54 cards to flip.
    plain = RS.new_game({"map": "zd-open", "heroes": 2, "spook": False}, 3)
    assert isinstance(plain, ZeroDarkState)
    assert plain.spook is None and plain.hand == [] and len(plain.deck) == 54


def spook_game(models: list[Model], *top: str, hand: tuple[str, ...]) -> ZeroDarkState:
    state = game(models, spook=True)
    # Surgery: the Spook's hand, drawn from a deck of our own.
    state.hand = [PlayingCard.parse(c) for c in hand]
    state.deck = control(*top, hand=hand)
    return state


def test_the_spook_plays_a_card_instead_of_a_flip(monkeypatch: pytest.MonkeyPatch) -> None:
    # ZD-C7: instead of the flip, the team may play a card of the Spook's hand as if
    # flipped: it takes effect (7H activates the Grunt), goes to the discard pile, and
    # no card is flipped from the Control Deck.
    state = spook_game([hero("H1", "A7"), bogey("B1", "C1")], "BJ", hand=("7H", "KS"))
    Dice(monkeypatch, state, default=0)
    assert state.spook == "H1"
    act(state, "activate", "H1")
    act(state, "stop")
    act(state, "pass")
    assert state.phase == "red"
    assert legal(state) == [("flip", ()), ("play", ("7H",)), ("play", ("KS",))]
    size = len(state.deck)
    events = act(state, "play", "7H")
    assert of_kind(events, "played") == [{"card": "7H", "spook": "H1", "rule": "ZD-C7"}]
    assert of_kind(events, "flip") == []
    assert activations(events) == ["B1"]
    assert [c.to_json() for c in state.hand] == ["KS"]
    assert [c.to_json() for c in state.deck.discard_pile] == ["7H"]
    assert len(state.deck) == size and state.flips == 0
    # The other choice: a flip (the hand is kept).
    turn = act(state, "activate", "H1") + act(state, "stop") + act(state, "pass")
    assert state.phase == "red"
    events = act(state, "flip")
    assert of_kind(turn + events, "flip")[0]["card"] == "BJ"
    assert [c.to_json() for c in state.hand] == ["KS"] and state.flips == 1


def test_the_hand_is_seen_by_the_team_only() -> None:
    # ZD-C7: the hand is the Spook's player's; a spectator sees only its size.
    state = spook_game([hero("H1", "A7")], "BJ", hand=("7H", "KS"))
    assert state.view(TEAM).data["hand"] == ["7H", "KS"]
    spectator = state.view(None).data
    assert "hand" not in spectator and spectator["sides"][TEAM]["hand_size"] == 2
    assert state.view(TEAM).data["sides"][TEAM]["hand_size"] == 2


@pytest.mark.parametrize("why", ["no spook", "empty hand"])
def test_without_a_playable_hand_the_flip_comes_at_once(why: str) -> None:
    # ZD-C7 does not apply: no Spook, or an empty hand: the Control Deck is flipped at
    # once after the activation.
    models = [hero("H1", "A7"), hero("H2", "E1")]
    state = game(models) if why == "no spook" else spook_game(models, "BJ", hand=())
    events = turn_of(state, "H1")
    assert state.phase == "choose"
    assert of_kind(events, "flip")[0]["card"] == "BJ"


@pytest.mark.parametrize("why", ["spook down", "spook dead", "spook left"])
def test_the_hand_is_its_players_whatever_became_of_the_spook(why: str) -> None:
    # ZD-C7: "its player may play one of them" — the hand is not lost with the Spook:
    # out of action, dead or gone by the exit, its cards may still be played instead of
    # a flip (ruling; the rules impose no such limit).
    models = [hero("H1", "A7", state="active" if why == "spook left" else "ooa"), hero("H2", "E1")]
    state = spook_game(models, "BJ", hand=("7H",))
    if why == "spook left":  # surgery: H1 has left by the exit
        state.exited.add("H1")
        state.position = state.position.without("H1")
    else:
        state.wounds["H1"] = 2 if why == "spook down" else 3  # surgery
        if why == "spook dead":
            state.dead.add("H1")
    act(state, "activate", "H2")
    act(state, "stop")
    act(state, "pass")
    assert state.phase == "red"
    assert legal(state) == [("flip", ()), ("play", ("7H",))]
    events = act(state, "play", "7H")
    assert of_kind(events, "played") == [{"card": "7H", "spook": "H1", "rule": "ZD-C7"}]
    assert state.hand == [] and of_kind(events, "flip") == []


# ======================================================================= ZD-C8 the mission


def mission(models: list[Model], **markers: str) -> ZeroDarkState:
    """One card to flip: the mission ends after the first activation."""
    return game(models, "BJ", b=arena(**markers), fill=False)


@pytest.mark.parametrize("done", [True, False])
def test_mission_report_and_xp(monkeypatch: pytest.MonkeyPatch, done: bool) -> None:
    # ZD-C8: the mission succeeds when every objective is done (and not every hero is
    # lost): +1 XP for surviving, +2 for the mission's success, in the mission report.
    # Dice scripted: the interact test.
    state = mission([hero("H1", "B4")], objective="C4")
    Dice(monkeypatch, state, ("H1", 1 if done else 0))
    act(state, "activate", "H1")
    act(state, "stop")
    act(state, "interact")
    assert state.is_over
    report = state.report
    assert report is not None
    assert report["result"] == ("success" if done else "failure")
    assert report["objectives"] == {"C4": done}
    assert report["lost"] == [] and report["task"] == "none" and report["task_success"] is None
    gained = [("survived", 1), ("mission success", 2)] if done else [("survived", 1)]
    assert report["xp"] == {"H1": {"gained": gained, "total": 3 if done else 1}}
    assert state.xp == {"H1": 3 if done else 1}
    assert state.outcome() is not None
    assert state.outcome().winners == (frozenset({TEAM}) if done else frozenset())  # type: ignore[union-attr]


def test_a_lost_hero_gains_no_xp() -> None:
    # ZD-C8 (ZD-C5): the objective is done and one hero is left: a success; the hero
    # down at the end is lost and gains nothing.
    state = mission([hero("H1", "A7"), hero("H2", "E1", state="ooa")], objective="C4")
    state.wounds["H2"] = 2  # surgery
    state.objectives_done = ["C4"]  # surgery
    turn_of(state)
    report = state.report
    assert report is not None
    assert report["result"] == "success" and report["lost"] == ["H2"]
    assert report["xp"]["H2"] == {"gained": [], "total": 0}
    assert report["xp"]["H1"]["total"] == 3


def test_the_mission_ends_when_no_hero_is_left(monkeypatch: pytest.MonkeyPatch) -> None:
    # ZD-C8: with no hero standing the mission ends (cards left or not); every hero
    # lost: a failure, objectives done or not. Dice scripted: the Grunt's shot hits 3.
    state = game([hero("H1", "A7"), bogey("B1", "A1")], "5S")
    state.objectives_done = []  # no objective on the arena: all done
    Dice(monkeypatch, state, ("B1", 3))
    events = turn_of(state)
    assert "H1" in state.dead
    (end,) = of_kind(events, "mission_end")
    assert end["rule"] == "ZD-C8"
    report = state.report
    assert report is not None
    assert report["result"] == "failure" and report["lost"] == ["H1"]
    assert report["xp"] == {"H1": {"gained": [], "total": 0}}
    assert report["cards_left"] == 53


def test_a_hero_who_left_by_the_exit_is_not_lost() -> None:
    # ZD-C8: a hero who leaves the table by the exit is not lost (and not standing:
    # with no hero left, the mission ends).
    state = game([hero("H1", "A1")], b=arena(exit="A1"))
    act(state, "activate", "H1")
    assert ("exit", ()) in legal(state)
    events = act(state, "exit")
    assert of_kind(events, "exit") == [{"model": "H1", "square": "A1", "rule": "ZD-C8"}]
    assert state.is_over
    report = state.report
    assert report is not None
    assert report["exited"] == ["H1"] and report["lost"] == []
    assert report["result"] == "success"
    assert report["xp"]["H1"]["gained"][0] == ("survived", 1)


def test_no_exit_off_the_exit_squares() -> None:
    # ZD-C8 does not apply off the exit: no exit action.
    state = game([hero("H1", "B1")], b=arena(exit="A1"))
    act(state, "activate", "H1")
    assert ("exit", ()) not in legal(state)
    assert illegal_rule(state, "exit") == "ZD-C8"


# ======================================================================= ZD-C9 order of play


def test_each_hero_acts_once_per_turn() -> None:
    # ZD-C9: the team chooses whom to activate; each once per turn; a turn ends when all
    # have acted, then a new turn starts.
    state = game([hero("H1", "A7"), hero("H2", "E1")], "BJ", "RJ", "QH")
    assert legal(state) == [("activate", ("H1",)), ("activate", ("H2",))]
    events = turn_of(state, "H2")
    assert of_kind(events, "turn") == []  # ZD-C9 does not end the turn yet
    assert legal(state) == [("activate", ("H1",))]
    assert illegal_rule(state, "activate", "H2") == "ZD-C9"
    events = turn_of(state, "H1")
    assert of_kind(events, "turn") == [{"turn": 2}]
    assert state.turn == 2
    assert legal(state) == [("activate", ("H1",)), ("activate", ("H2",))]


def test_a_turn_with_a_hero_out_of_action_ends_when_the_others_have_acted() -> None:
    # ZD-C9: the hero out of action does not hold the turn up.
    state = game([hero("H1", "A7"), hero("H2", "E1", state="ooa")])
    state.wounds["H2"] = 2  # surgery
    events = turn_of(state)
    assert of_kind(events, "turn") == [{"turn": 2}]


def test_only_the_team_acts() -> None:
    # ZD-C9: solo/co-op: one seat, "team".
    state = game([hero("H1", "A7")])
    assert state.to_act() == frozenset({TEAM})
    assert state.legal_actions("team2") == []
    with pytest.raises(IllegalActionError):
        state.apply(Action("team2", "activate", ("H1",)))


# ======================================================================= ZD-C10 interact, cautious


@pytest.mark.parametrize("square", ["C4", "B3", "D5"])
@pytest.mark.parametrize("successes", [1, 0])
def test_interact_is_an_a12_test(
    monkeypatch: pytest.MonkeyPatch, square: str, successes: int
) -> None:
    # ZD-C10: interacting with an objective (on it or engaged with it) is an A(12)
    # test; a success does it, a failure does not. Dice scripted.
    state = game([hero("H1", square)], "BJ", "RJ", b=arena(objective="C4"))
    dice = Dice(monkeypatch, state, ("H1", successes))
    act(state, "activate", "H1")
    act(state, "stop")
    assert ("interact", ()) in legal(state)
    events = act(state, "interact")
    assert dice.calls == [Roll("H1", "interact objective", HERO.a, 12)]
    assert state.objectives_done == (["C4"] if successes else [])
    assert len(of_kind(events, "objective")) == successes


def test_no_interact_away_from_an_objective() -> None:
    # ZD-C10 does not apply two squares from the objective: no interact.
    state = game([hero("H1", "A4")], b=arena(objective="C4"))
    act(state, "activate", "H1")
    act(state, "stop")
    assert ("interact", ()) not in legal(state)
    assert illegal_rule(state, "interact") == "ZD-C10"


def test_a_cautious_success_cancels_the_next_flip(monkeypatch: pytest.MonkeyPatch) -> None:
    # ZD-C10: a cautious move is an A(10) test whose success cancels the primary action
    # of the next flip (the Grunt does not act); the flip after is normal. Dice
    # scripted.
    state = game([hero("H1", "A7"), hero("H2", "E1"), bogey("B1", "C1")], "5S", "6S")
    dice = Dice(monkeypatch, state, ("H1", 1))
    act(state, "activate", "H1")
    act(state, "stop")
    events = act(state, "cautious")
    assert dice.calls == [Roll("H1", "cautious", HERO.a, 10)]
    assert of_kind(events, "cautious") == [{"model": "H1", "rule": "ZD-C10"}]
    assert of_kind(events, "cancelled") == [{"card": "5S", "rule": "ZD-C10"}]
    assert activations(events) == []
    assert state.cancel_next is False
    dice.default = 0
    events = turn_of(state, "H2")
    assert activations(events) == ["B1"]
    assert of_kind(events, "cancelled") == []


def test_a_played_card_is_no_flip_for_a_cautious_move(monkeypatch: pytest.MonkeyPatch) -> None:
    # ZD-C10, ZD-B6: a cautious move cancels the next *flip*; a card played from the
    # Spook's hand is not a Control Deck flip, so it takes effect (7H activates the
    # Grunt) and the cancel waits for the next flip (5S: the Grunt does not act). Dice
    # scripted.
    models = [hero("H1", "A7"), hero("H2", "E1"), bogey("B1", "C1")]
    state = spook_game(models, "5S", hand=("7H",))
    dice = Dice(monkeypatch, state, ("H1", 1), default=0)
    act(state, "activate", "H1")
    act(state, "stop")
    act(state, "cautious")
    assert state.phase == "red" and state.cancel_next
    events = act(state, "play", "7H")
    assert of_kind(events, "cancelled") == [] and activations(events) == ["B1"]
    assert state.cancel_next
    dice.default = 0
    events = turn_of(state, "H2")
    assert of_kind(events, "flip")[0]["card"] == "5S"
    assert of_kind(events, "cancelled") == [{"card": "5S", "rule": "ZD-C10"}]
    assert activations(events) == [] and not state.cancel_next


def test_a_complication_is_not_lost_when_every_site_is_taken() -> None:
    # ZD-C6: a complication is a new Grunt ping at a random deployment site; with every
    # site taken (FR-M3: no two models on a square) it goes on the free square nearest a
    # site (FR-R1 range), at random among the nearest (ruling) — it is not lost.
    b = board(BIG, markers={"deployment": "A1 B1"})
    models = [hero("H1", "I5"), hero("H2", "A1"), ping("P1", "B1")]
    state = game(models, "BJ", b=b)  # the hero H2 and the ping P1 hold both sites
    events = turn_of(state, "H1")
    assert of_kind(events, "complication") == [{"card": "BJ", "ping": "P2"}]
    (placed,) = of_kind(events, "ping_placed")
    assert placed["ping"] == "P2"
    assert placed["square"] in ("A2", "B2", "C1", "C2")  # one step from a site, free
    # ZD-C6 as before when a site is free: the ping goes there.
    state = game([hero("H1", "I5"), ping("P1", "B1")], "BJ", b=b)
    events = turn_of(state, "H1")
    assert [d["square"] for d in of_kind(events, "ping_placed")] == ["A1"]


def test_a_complication_on_a_full_map_is_lost() -> None:
    # ZD-C6 with no free square at all near the sites (the arena's sealed site G7 held
    # by a ping): nothing can be placed, and the flip is quiet.
    state = game([hero("H1", "A7"), ping("P1", "G7")], "BJ")
    events = turn_of(state)
    assert of_kind(events, "complication") == [{"card": "BJ", "ping": None}]


def test_a_cautious_failure_cancels_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    # ZD-C10 does not apply: a failed cautious move; the Grunt acts. Dice scripted.
    state = game([hero("H1", "A7"), bogey("B1", "C1")], "5S")
    Dice(monkeypatch, state, ("H1", 0), default=0)
    act(state, "activate", "H1")
    act(state, "stop")
    events = act(state, "cautious")
    assert of_kind(events, "cancelled") == []
    assert activations(events) == ["B1"]


# ======================================================================= ZD-C11 which bogey


def two_grunts(card: str) -> ZeroDarkState:
    # B1 is nearer the hero (range 3) with no token; B2 farther (range 6) with one.
    state = game([hero("H1", "A7"), bogey("B1", "A4"), bogey("B2", "A1")], card)
    state.support.update({"B1": 0, "B2": 1})  # surgery
    return state


@pytest.mark.parametrize(
    ("card", "picked"), [("5S", "B1"), ("9C", "B1"), ("5H", "B2"), ("9D", "B2")]
)
def test_the_suit_picks_the_bogey(monkeypatch: pytest.MonkeyPatch, card: str, picked: str) -> None:
    # ZD-C11: spades and clubs the one nearest to a hero; hearts and diamonds the one
    # with the most support tokens.
    state = two_grunts(card)
    Dice(monkeypatch, state, default=0)
    assert activations(turn_of(state)) == [picked]


def test_a_single_candidate_is_taken_whatever_the_suit(monkeypatch: pytest.MonkeyPatch) -> None:
    # ZD-C11 does not apply with one candidate: the hearts card takes the only Grunt,
    # though it has no token.
    state = game([hero("H1", "A7"), bogey("B1", "A4"), bogey("B2", "A1", tier="elite")], "5H")
    state.support.update({"B1": 0, "B2": 2})  # surgery
    Dice(monkeypatch, state, default=0)
    assert activations(turn_of(state)) == ["B1"]


def test_remaining_ties_go_by_the_seeded_rng(monkeypatch: pytest.MonkeyPatch) -> None:
    # ZD-C11: two Grunts at the same range with the same tokens: the seeded RNG picks,
    # the same for a seed, not always the same over seeds.
    def pick(seed: int) -> list[str]:
        models = [hero("H1", "D5"), bogey("B1", "A2"), bogey("B2", "G2")]
        state = game(models, "5S", seed=seed)
        assert state.position.range("B1", "H1") == state.position.range("B2", "H1")
        Dice(monkeypatch, state, default=0)
        return activations(turn_of(state))

    picks = [pick(seed) for seed in range(8)]
    assert picks == [pick(seed) for seed in range(8)]
    assert {p[0] for p in picks} == {"B1", "B2"}


def test_moving_into_engagement_with_two_bogeys_fights_both(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # ZD-C5: a CQB with each bogey the move brings into engagement, in turn. Dice
    # scripted: nobody scores.
    state = game([hero("H1", "B7"), bogey("B1", "A5"), bogey("B2", "C5")])
    dice = Dice(monkeypatch, state, ("H1", 0), ("B1", 0), ("H1", 0), ("B2", 0))
    act(state, "activate", "H1")
    act(state, "step", "B6")
    events = act(state, "stop")
    assert [c["bogey"] for c in of_kind(events, "cqb")] == ["B1", "B2"]
    assert dice.left == 0


def test_the_suit_picks_the_bogey_nearest_a_hero_not_an_ally(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # ZD-C11: spades: the Grunt nearest to a hero: B2 (3 from H1), not B1 (5 from H1,
    # but 1 from H1's ally A1).
    state = game(
        [hero("H1", "A7"), Model("A1", "ally", sq("E3")), bogey("B1", "F2"), bogey("B2", "A4")],
        "5S",
    )
    # Surgery: A1 is H1's ally.
    state.ally_of["A1"] = "H1"
    state.upgrades["A1"] = ["dependent"]
    Dice(monkeypatch, state, default=0)
    assert state.position.range("B1", "A1") == 1
    assert (state.position.range("B1", "H1"), state.position.range("B2", "H1")) == (5, 3)
    assert activations(turn_of(state)) == ["B2"]
