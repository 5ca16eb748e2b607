"""Ruleset niceties: metadata, options, notation, rendering, metrics, illegal actions,
the heuristic bot (default) and invariants over random matches."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from fogofwar.bots import make_bot
from fogofwar.core.errors import IllegalActionError, InvalidNotationError, RulesError
from fogofwar.core.game import Action, get_ruleset
from fogofwar.core.rng import stream
from fogofwar.games.rock_n_roll.state import PayCapture, Phase, RockNRollState
from fogofwar.sim.runner import run_batch

from .helpers import RS, P, V, act, answer_offer, empty_hands, end_round_now, fresh, imprison, place


def test_metadata_and_registry() -> None:
    assert get_ruleset("rnr") is RS and RS.id == "rock-n-roll"
    assert RS.metadata.seats == (V, P) and RS.metadata.information == "imperfect"
    assert RS.default_bots == {V: "rnr-heuristic", P: "rnr-heuristic"}


def test_config_options() -> None:
    cfg = RS.resolve_config({})
    assert cfg["devils_hand_blocks_rd"] is False and cfg["rounds"] == 5
    assert RS.config_schema.option("devils_hand_blocks_rd").rule == "PT-D2"
    with pytest.raises(RulesError):
        RS.resolve_config({"rounds": 0})
    assert fresh(max_rd_per_roll=0).config["max_rd_per_roll"] == 0


def test_parse_actions() -> None:
    st = fresh()
    assert RS.parse_actions("deploy v3 a", V, st) == [Action(V, "deploy", ("V3", "A"))]
    assert RS.parse_actions("pour 2", V, st) == [Action(V, "pour", (2,))]
    assert RS.parse_actions("pay RD", V, st) == [Action(V, "pay", ("rd",))]
    assert RS.parse_actions("deal interrupt", P, st) == [Action(P, "deal", ("interrupt",))]
    with pytest.raises(InvalidNotationError):
        RS.parse_actions("  ", V, st)
    assert "capture" in RS.notation_help


def test_render_text() -> None:
    st = fresh()
    text = str(RS.render(st.view(V), st.config))
    assert "Round 1/5" in text and "hand:" in text and "A (value 1" in text
    assert "hand:" not in str(RS.render(st.view(None), st.config))
    # The cards' names (PT-C7: the names are data), the notation's key.
    hand = [c for c in st.view(V).data["hand"] if c.get("name")]
    assert hand and f"{hand[0]['id']} {hand[0]['name']}" in text and "key: ID[side" in text


def test_render_names_the_units_on_the_points() -> None:
    # Zulu (PT-C2's blocking unit) is named where it stands, for both seats.
    st = fresh()
    zulu = next(c.id for c in st.cards.units if c.name == "Zulu")
    place(st, zulu, "A")
    for seat in (V, P, None):
        assert f"{zulu} Zulu" in str(RS.render(st.view(seat), st.config))


def test_illegal_actions_change_nothing() -> None:
    st = fresh()
    before = st.view(None).canonical()
    with pytest.raises(IllegalActionError) as info:
        act(st, P, "end")  # not on turn: only the interrupt offer
    assert info.value.rule == "PT-D3" and info.value.seat == P
    with pytest.raises(IllegalActionError) as info:
        st.apply(Action(V, "attack", ("V1", "P1")))  # the VPA answers its offer first
    assert info.value.rule == "PT-D3" and "answers the offer" in info.value.reason
    assert st.view(None).canonical() == before
    act(st, P, "pass")
    with pytest.raises(IllegalActionError) as info:
        act(st, V, "attack", "V1", "P1")  # the deployment phase: no attacks
    assert info.value.rule == "PT-C3"


def refusal(st: RockNRollState, seat: str, kind: str, *args: str) -> IllegalActionError:
    before = st.view(None).canonical()
    with pytest.raises(IllegalActionError) as info:
        act(st, seat, kind, *args)
    assert st.view(None).canonical() == before
    return info.value


def test_seat_that_may_not_act_is_refused_by_the_turn_rule() -> None:
    # PT-D3: the side off turn, its interrupt's offer closed by a pass, may not act.
    st = fresh()
    act(st, P, "pass")
    err = refusal(st, P, "deploy", "P1", "A")
    assert err.rule == "PT-D3" and "may not act now" in err.reason
    assert refusal(st, P, "deal", "interrupt").rule == "PT-D3"
    # PT-D3: the side on turn waits while the opponent plays its interrupt.
    st = fresh()
    act(st, P, "deal", "interrupt")
    assert st.to_act() == {P}
    assert refusal(st, V, "end").rule == "PT-D3"
    # PT-C3: at the end of the round the captor's interaction is its own decision.
    st = fresh()
    empty_hands(st)
    imprison(st, "P1", V)
    place(st, "V5", "A")
    place(st, "P5", "E")
    end_round_now(st)
    assert st.to_act() == {V}
    assert refusal(st, P, "spare", "P1").rule == "PT-C3"
    # Not applying: an action of no kind of this game names no rule, and a seat that
    # may act is answered by the rule of what it tried.
    assert refusal(st, P, "foo").rule is None
    assert refusal(st, V, "free", "P1").rule == "PT-P7"


ENCODING = RS.encoding()


def play_random(seed: int) -> RockNRollState:
    st = fresh(seed)
    rng = stream(seed, "random-play")
    while not st.is_over:
        seat = sorted(st.to_act())[0]
        legal = st.legal_actions(seat)
        assert ENCODING.mask(legal).sum() == len(legal)  # every legal action has an index
        st.apply(rng.choice(legal))
        check_conservation(st)
    return st


def check_conservation(st: RockNRollState) -> None:
    """Every card is in exactly one place."""
    seen: dict[str, str] = {}

    def note(card: str, where: str) -> None:
        assert card not in seen, f"{card} in {seen[card]} and {where}"
        seen[card] = where

    for side in (V, P):
        for c in st.hand[side]:
            note(c, f"hand {side}")
        for c in st.unit_deck[side]:
            note(c, f"units {side}")
        for c in st.order_deck[side]:
            note(c, f"orders {side}")
        for c in st.order_discard[side]:
            note(c, f"discard {side}")
    for c in st.locals_deck:
        note(c, "locals")
    for uid, pc in st.pieces.items():
        if pc.zone == "hand":
            assert uid in st.hand[pc.holder or ""], uid
        elif pc.zone != "deck" and uid not in seen:
            note(uid, pc.zone)
    total_orders = sum(1 for c in seen if st.cards.is_order(c))
    assert total_orders + (1 if st.forced and st.forced not in seen else 0) == 48
    assert (
        len([c for c in seen if st.cards.is_unit(c)])
        + sum(1 for pc in st.pieces.values() if pc.zone == "deck" and pc.card.id not in seen)
        == 48
    )


@settings(max_examples=8, deadline=None)
@given(st_.integers(min_value=0, max_value=10_000))
def test_random_matches_keep_every_card_and_end(seed: int) -> None:
    st = play_random(seed)
    out = st.outcome()
    assert out is not None and out.rule == "PT-C6"
    json.dumps(st.view(V).to_json())
    m = RS.metrics(st)
    assert m["rounds_vietnam"] + m["rounds_vpa"] <= m["rounds"]


def test_metrics() -> None:
    st = play_random(3)
    m = RS.metrics(st)
    keys = {"rounds_vietnam", "rounds_vpa", "prisoners_vietnam", "prisoners_vpa", "winner"}
    assert keys <= set(m) and {"tortured", "executed", "recruited", "backfired", "freed"} <= set(m)
    assert m["deals"] == m["deals_vietnam"] + m["deals_vpa"]
    out = st.outcome()
    assert out is not None
    assert m["winner"] == (1.0 if out.winners == {V} else -1.0 if out.winners == {P} else 0.0)


def test_heuristic_bot_plays_from_views_and_beats_random() -> None:
    bot = make_bot("rnr-heuristic", "rock-n-roll")
    st = fresh()
    bot.reset(V, RS.id, st.config)
    act(st, P, "pass")  # the VPA answers its interrupt's offer: Vietnam's turn
    a = bot.choose(st.view(V), st.legal_actions(V), stream(1, "b"))
    assert a in st.legal_actions(V)
    result = run_batch(RS, games=6, seed="t", seats={V: "rnr-heuristic"})
    assert result.stats().wins[V].successes >= 4


def test_the_end_of_the_match_shows_every_secret() -> None:
    # PT-C6: once the match is over nothing is secret — both hands and held operations
    # are in every view (before it, a seat sees only its own: test_secrets).
    st = fresh()
    assert "hands" not in st.view(None).data
    result = run_batch(RS, games=1, seed="end", seats={V: "rnr-heuristic"}, records=True)
    record = result.games[0].record
    assert record is not None
    final = record.replay()
    data = final.view(None).data
    assert set(data["hands"]) == {V, P} and set(data["held_operations"]) == {V, P}
    assert data["hands"][V] == final.view(V).data["hand"]
    assert "vpa's hand:" in str(RS.render(final.view(None), final.config))


def test_the_screen_explains_the_interrupt_offer() -> None:
    # PT-D3: the side off turn, asked before each of its opponent's actions, is told
    # what the offer is; the side on turn is not.
    st = fresh()
    offered = str(RS.render(st.view(P), st.config))
    assert "deal interrupt" in offered and "pass turn" in offered and "[PT-D3]" in offered
    assert "Before each of its actions" not in str(RS.render(st.view(V), st.config))


def test_refusals_say_what_to_do() -> None:
    # PT-C2: a unit not in the side's hand or HQ, one HQ deployment a phase; PT-C3: a
    # reinforcement from the hand; PT-G1: what a goal change costs.
    st = fresh()
    answer_offer(st, V)
    theirs = next(c for c in st.hand[P] if c.startswith("P") and not c.startswith("PO"))
    assert (
        refusal(st, V, "deploy", theirs, "A").reason == f"{theirs} is not in vietnam's hand or HQ"
    )
    mine = next(c for c in st.hand[V] if c.startswith("V") and not c.startswith("VO"))
    assert refusal(st, V, "deploy", mine, "C").rule == "PT-C2"
    deck_unit = next(p.card.id for p in st.pieces.values() if p.zone == "deck" and p.holder == V)
    answer_offer(st, V)
    assert "reinforcement comes from the hand" in refusal(st, V, "reinforce", deck_unit, "A").reason


def test_the_rules_are_one_phase_table() -> None:
    # Every action kind of the encoding is a move of some row of the phase table; the
    # legal list is what the moves' checks allow (each rule stated once).
    kinds = {m.kind for moves in RockNRollState.rules.moves.values() for m in moves}
    assert kinds == set(ENCODING.kinds())
    st = fresh()
    act(st, P, "pass")
    assert all(st.rules.is_legal(st, a) for a in st.legal_actions(V))


def test_names_of_nothing_get_the_rules_reason() -> None:
    # PT-C2: a card id no card of the match has, or a letter no Point has, is refused
    # under the rule of the kind, like a card that may not be deployed there.
    st = fresh()
    answer_offer(st, V)
    mine = next(c for c in st.hand[V] if st.cards.is_unit(c) and not st.cards.unit(c).is_local)
    for args in (("X99", "A"), (mine, "Z"), (mine, "C")):
        err = refusal(st, V, "deploy", *args)
        assert err.rule == "PT-C2" and "outermost Points" in err.reason, args


def test_pending_decisions_are_typed() -> None:
    # PT-P1, PT-P2: a declared capture awaits its price; the view shows the decision.
    st = fresh()
    empty_hands(st)
    place(st, "V1", "C")
    place(st, "V2", "C")
    place(st, "P1", "C")
    st.phase = Phase.ORDERS
    st.rd[V] = 2
    act(st, V, "capture", "P1")
    assert isinstance(st.pending, PayCapture) and st.pending.target == "P1"
    pending = st.view(P).data["pending"]
    assert pending == {"kind": "pay", "seat": V, "purpose": "capture", "target": "P1", "paid": []}
