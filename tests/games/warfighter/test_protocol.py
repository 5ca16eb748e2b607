"""The protocol for Warfighter: illegal actions change nothing, views are built from
what the squad may know (non-interference), the encoding, the notation, rendering,
metrics, the bots."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fogofwar.bots import make_bot
from fogofwar.core.errors import IllegalActionError, InvalidNotationError
from fogofwar.core.game import Action, get_ruleset
from fogofwar.core.rng import stream
from fogofwar.games.warfighter.state import SEAT, WarfighterState
from fogofwar.sim.runner import run_batch

from .helpers import RS, act, game, legal


def snapshot(g: WarfighterState) -> tuple[str, str, list[str], int]:
    return (
        g.view(SEAT).canonical(),
        g.view(None).canonical(),
        sorted(legal(g)),
        len(g.log),
    )


@pytest.mark.parametrize(
    "text",
    ["move S1 L3", "attack S1 H1", "pick S2 H1", "check S2 K1", "roll S1 K1", "move S9 L2",
     "attack S1 H99 door", "fly S1"],
)  # fmt: skip
def test_illegal_actions_change_nothing(text: str) -> None:
    g = RS.new_game({}, 4)
    assert isinstance(g, WarfighterState)
    before = snapshot(g)
    words = text.split()
    with pytest.raises(IllegalActionError) as err:
        g.apply(Action(SEAT, words[0], tuple(words[1:])))
    assert err.value.reason
    assert snapshot(g) == before


def test_the_registry_and_the_mission_option() -> None:
    assert get_ruleset("warfighter") is RS and get_ruleset("wf") is RS
    assert RS.resolve_config({"mission": "dagon"})["mission"] == "dagon"
    assert RS.config_schema.parse_sets(["mission=dagon", "turns=9"]) == {
        "mission": "dagon",
        "turns": 9,
    }
    g = RS.new_game({"turns": 9}, 1)
    assert isinstance(g, WarfighterState) and g.turns == 9


def test_views_hold_no_deck_order_or_seed() -> None:
    # The order of the two decks is hidden: reordering the cards not yet drawn changes
    # nothing the squad or a spectator receives, until a card is revealed.
    a = RS.new_game({}, 11)
    b = RS.new_game({}, 11)
    assert isinstance(a, WarfighterState) and isinstance(b, WarfighterState)
    b.location_deck._cards.reverse()
    b.hostile_deck.draw_pile._cards.reverse()
    assert a.location_deck.cards != b.location_deck.cards
    for seat in (SEAT, None):
        assert a.view(seat).canonical() == b.view(seat).canonical()
    assert a.legal_actions(SEAT) == b.legal_actions(SEAT)
    text = a.view(SEAT).canonical()
    for hidden in a.location_deck.cards:
        assert hidden not in text  # the face-down Locations are not named
    act(a, "move S1 L2")
    act(b, "move S1 L2")
    assert a.view(SEAT).canonical() != b.view(SEAT).canonical()  # now revealed


def test_the_spectator_sees_what_the_squad_sees() -> None:
    g = RS.new_game({}, 2)
    assert g.view(None).data == g.view(SEAT).data


def test_notation() -> None:
    g = RS.new_game({}, 1)
    assert RS.parse_actions("move s1 l2", SEAT, g) == [Action(SEAT, "move", ("S1", "L2"))]
    assert RS.parse_actions("attack S1 h3 DOOR; end", SEAT, g) == [
        Action(SEAT, "attack", ("S1", "H3", "door")),
        Action(SEAT, "end"),
    ]
    with pytest.raises(InvalidNotationError):
        RS.parse_actions("dance S1", SEAT, g)
    with pytest.raises(InvalidNotationError):
        RS.parse_actions("end;", SEAT, g)


def test_render_draws_the_view() -> None:
    g = game("location Yard\n  hostiles: Bunker\n  check: Search\n  success: suppress\n",
             deck="Yard")  # fmt: skip
    act(g, "move S1 L2")
    text = RS.render(g.view(SEAT), g.config)
    assert isinstance(text, str)
    assert "L2 Yard" in text and "Door: Cover 5, Hits 2, Pick -1" in text
    assert "K1 check Search" in text and "S1 Able at L2" in text


def test_metrics_count_breaches_checks_and_losses() -> None:
    g = game("location Yard\n  hostiles: Bunker, Vault\n", squad="Able, Charlie", deck="Yard")
    from .helpers import rig

    act(g, "move S1 L2; move S2 L2")
    g.soldiers["S1"].actions = 2
    rig(g, pick=[1, 9], attack=[10, 1])
    act(g, "pick S1 H1; pick S1 H1; attack S2 H2 door")
    g.soldiers["S2"].wounds = 3
    g.soldiers["S2"].out = True
    m = RS.metrics(g)
    assert (m["breaches_pick"], m["breaches_attack"], m["checks_failed"]) == (1.0, 1.0, 1.0)
    assert m["soldiers_lost"] == 1.0 and m["won"] == 0.0


@pytest.mark.parametrize("bot", ["wf-heuristic", "random"])
def test_bots_play_whole_missions(bot: str) -> None:
    result = run_batch(RS, games=4, seed="wf-test", seats={SEAT: bot}, records=True)
    assert len(result.games) == 4
    for r in result.games:
        assert r.outcome is not None and r.record.replay().outcome() == r.outcome


def test_the_heuristic_bot_uses_only_its_view() -> None:
    # The same view and legal actions give the same choice, whatever the hidden decks.
    a = RS.new_game({}, 21)
    b = RS.new_game({}, 21)
    assert isinstance(b, WarfighterState)
    b.location_deck._cards.reverse()
    bot = make_bot("wf-heuristic", RS.id)
    bot.reset(SEAT, RS.id, a.config)
    for _ in range(3):
        va, vb = a.view(SEAT), b.view(SEAT)
        assert va.canonical() == vb.canonical()
        choice = bot.choose(va, tuple(a.legal_actions(SEAT)), stream(1, "x"))
        assert choice == bot.choose(vb, tuple(b.legal_actions(SEAT)), stream(1, "x"))
        if choice.kind == "move":
            break
        a.apply(choice)
        b.apply(choice)


def test_the_heuristic_bot_picks_the_likeliest_roller() -> None:
    # A Fail check to roll goes to the Soldier most likely to pass it.
    g = game("location Lab\n  check: Search\n  success: add Siren\n", squad="Able, Baker",
             deck="Lab")  # fmt: skip
    from .helpers import rig

    act(g, "move S1 L2; move S2 L2")
    rig(g, check=[9])
    act(g, "check S1 K1")
    assert g.phase == "roll"
    bot = make_bot("wf-heuristic", RS.id)
    choice = bot.choose(g.view(SEAT), tuple(g.legal_actions(SEAT)), stream(0, "b"))
    assert choice == Action(SEAT, "roll", ("S2", "K2"))  # Baker has Swim, Able lacks it


def test_play_at_the_terminal(tmp_path: Path) -> None:
    # `fogofwar play warfighter --mission dagon`: a human squad types the notation; a
    # refused action prints its rule; the record is saved on quit (exit 0) and replays.
    from rich.console import Console

    from fogofwar.commands.play import TerminalGame
    from fogofwar.core.record import Record

    lines = iter(["help", "legal", "move S1 L3", "move S1 L2", "quit"])
    console = Console(record=True, width=120)
    path = tmp_path / "wf.json"
    game_ = TerminalGame(
        RS, {"mission": "dagon"}, 5, {SEAT: "human"}, console=console, record_path=path,
        read=lambda prompt: next(lines),
    )  # fmt: skip
    assert game_.run() == 0  # quit: saved, a clean stop
    out = console.export_text()
    assert "move S1 L2" in out and "refused" in out and "WF-C2" in out
    record = Record.load(path)
    assert [str(Action.from_json(a.to_json())) for a in record.actions] == ["move S1 L2"]
    assert record.replay().view(SEAT).data["soldiers"][0]["location"] == "L2"


def test_the_bot_plays_at_the_terminal(tmp_path: Path) -> None:
    from rich.console import Console

    from fogofwar.commands.play import TerminalGame

    console = Console(record=True, width=120)
    game_ = TerminalGame(
        RS, {"mission": "dagon"}, 6, {SEAT: RS.default_bots[SEAT]}, console=console,
        record_path=tmp_path / "bot.json",
    )  # fmt: skip
    assert game_.run() == 0
    assert "Result:" in console.export_text()


@settings(max_examples=25)
@given(seed=st.integers(0, 10_000), policy=st.integers(0, 10_000))
def test_random_play_keeps_the_invariants(seed: int, policy: int) -> None:
    # Any legal play: Actions never negative, wounds at most 3 (out at 3), Door EKIAs apart
    # from the Hostile's, the game ends within its bound, and the view is JSON.
    import json

    g = RS.new_game({}, seed)
    assert isinstance(g, WarfighterState)
    pick = stream(policy, "property")
    steps = 0
    while not g.is_over:
        acts = g.legal_actions(SEAT)
        assert acts and len(set(acts)) == len(acts)
        g.apply(pick.choice(acts))
        steps += 1
        for s in g.soldiers.values():
            assert s.actions >= 0 and 0 <= s.wounds <= 3 and s.out == (s.wounds == 3)
        for h in g.hostiles.values():
            assert h.card.door is not None or h.door_ekias == 0
            assert (
                h.alive
                or h.ekias >= h.card.hits
                or any(e.kind == "removed" and e.data["hostile"] == h.id for e in g.log)
            )
        json.dumps(g.view(SEAT).to_json())
    assert steps <= RS.metadata.max_length and g.to_act() == frozenset()
    assert g.legal_actions(SEAT) == []


@pytest.mark.parametrize(
    ("kind", "args", "rule", "words"),
    [
        ("end", ("S1",), "WF-C7", "no arguments"),  # WF-C7: end takes no arguments
        ("move", ("S1", "L2", "up"), "WF-A7", "cannot be upgunned"),  # WF-A7
        ("attack", ("S1", "H1", "up"), "WF-A7", "cannot be upgunned"),  # WF-A7
        ("move", ("S1",), "WF-C2", "move S L"),  # WF-C2: the notation
        ("move", ("S1", "L3"), "WF-C2", "next to"),  # WF-C2: not adjacent
        ("pick", ("S1", "H1", "door"), "WF-D5", "pick S H [up]"),  # WF-D5
        ("check", ("S1", "K1", "door"), "WF-A5", "check S K [up]"),  # WF-A5
        ("roll", ("S1", "K1", "x"), "WF-A9", "roll S K [up]"),  # WF-A9
        ("roll", ("S1", "K1"), "WF-A9", "no Fail check"),  # WF-A9
    ],
)  # fmt: skip
def test_refusals_give_the_right_reason_and_rule(
    kind: str, args: tuple[str, ...], rule: str, words: str
) -> None:
    # Each refusal names its own rule (WF-C7 end, WF-C2 move, WF-A7 upgunning, ...),
    # never the check branch's or the adjacency message for a malformed action.
    g = RS.new_game({}, 1)
    with pytest.raises(IllegalActionError) as err:
        g.apply(Action(SEAT, kind, args))
    assert err.value.rule == rule and words in str(err.value)
    assert "not a check in play" not in str(err.value)


def test_end_and_move_with_their_own_words_are_accepted() -> None:
    # WF-C7, WF-C2: the same actions, well formed, are legal (the refusals above are
    # about their words, not the actions).
    g = RS.new_game({}, 1)
    assert Action(SEAT, "move", ("S1", "L2")) in g.legal_actions(SEAT)
    assert Action(SEAT, "end", ()) in g.legal_actions(SEAT)
    g.apply(Action(SEAT, "end", ()))


@pytest.mark.parametrize("seed", [3, 8])
def test_each_rule_once_legal_list_is_legal_and_refusals_agree(seed: int) -> None:
    # The phase table states each rule once: an action of the encoding is legal exactly
    # when the legal list holds it, and every refused one names its rule (WF-*).
    enc = RS.encoding({})
    templates = [enc.decode(i, SEAT) for i in range(enc.size)]
    g = RS.new_game({}, seed)
    assert isinstance(g, WarfighterState)
    pick = stream(seed, "each-rule-once")
    while not g.is_over:
        legal = g.legal_actions(SEAT)
        held = set(legal)
        for action in [*legal, *pick.sample(templates, 150)]:
            assert g.is_legal(action) is (action in held), action
            if action not in held:
                reason, rule = g.explain_illegal(action)
                assert reason and rule and rule.startswith("WF-"), (action, reason)
        g.apply(pick.choice(legal))
