"""A terminal drawing of a Rock-n-Roll view: the Points row with its units, the sides'
RD, prisoners and HQs, the seat's hand, and the latest events (plain text)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final, cast

from ...core.game import PlayerView, plain_event, sentence
from .observer import CardJSON, OrderJSON, UnitJSON, unit_face, view_data
from .state import id_key

__all__ = ["render_view"]

_TAG = {"vietnam": "V", "vpa": "P", None: "L"}


def _card(card: CardJSON, *, value: bool = True) -> str:
    """A card in hand: a unit's face, or an order's id and kind (and its value)."""
    unit = unit_face(card)
    if unit is not None:
        return _unit(unit)
    order = cast(OrderJSON, card)
    extra = f"+{order['value']}" if value and order["value"] else ""
    return f"{order['id']}:{order['kind']}{extra}"


def _unit(u: UnitJSON) -> str:
    tag = _TAG.get(u["owner"], "?")
    hurt = f"-{u['hits']}" if u["hits"] else ""
    feat = f"/{u['feature']}" if u["feature"] else ""
    block = "!" if u["kind"] == "blocking" else ""
    return f"{u['id']}[{tag}{block} {u['strength']}x{u['toughness']}{hurt}{feat}]"


def _names(cards: Iterable[CardJSON]) -> list[str]:
    """A line of the cards' names, each card once (the notation is by id), or none."""
    named = {c["id"]: c["name"] for c in cards if c.get("name")}
    if not named:
        return []
    return ["    names: " + ", ".join(f"{i} {named[i]}" for i in sorted(named, key=id_key))]


KEY = (
    "  key: ID[side(V Vietnam, P VPA, L local), ! blocking, dice x toughness, -hits, "
    "/feature]; orders ID:kind+value"
)
"""The unit notation, under the sides."""


def render_view(view: PlayerView, config: Mapping[str, Any]) -> object:
    """Text for people, built from the view alone."""
    data = view_data(view)
    seat = view.seat
    out: list[str] = []
    out.append(
        f"Round {data['round']}/{data['rounds_limit']} (first to {data['round_wins']})  "
        f"turn: {data['turn']}  phase: {data['phase']}  to act: {', '.join(data['to_act'])}"
    )
    for p in data["points"]:
        held = p["held_by"] or "-"
        units = " ".join(_unit(u) for u in p["units"]) or "."
        out.append(
            f"  {p['letter']} (value {p['value']}, RD +{p['income']}, held: {held}): {units}"
        )
    out += _names(u for p in data["points"] for u in p["units"])
    for side, s in data["sides"].items():
        flags = []
        if s["deal_used"]:
            flags.append("dealt")
        if s["rnr_available"]:
            flags.append("rock'n'roll")
        if s["effective_twos"]:
            flags.append("2s effective")
        out.append(
            f"  {side}: RD {s['rd']}, rounds {s['rounds_won']}, hand {s['hand']}, "
            f"decks {s['unit_deck']}u/{s['order_deck']}o, operations {s['operations']}"
            + (f" [{', '.join(flags)}]" if flags else "")
        )
        if s["prisoners"]:
            out.append("    prisoners: " + " ".join(_unit(u) for u in s["prisoners"]))
        if s["hq"]:
            out.append("    HQ: " + " ".join(_unit(u) for u in s["hq"]))
    if "hand" in data:
        out.append("  hand: " + (" ".join(_card(c) for c in data["hand"]) or "-"))
        out += _names(data["hand"])
        for o in data.get("operations", []):
            out.append(
                f"  operation {o['id']} {o['name']}: {o['condition']} {o['amount']} -> "
                f"{o['reward']} {o['reward_amount']}"
            )
    out.append(KEY)
    for side, cards in (data.get("hands") or {}).items():
        # The match is over: every hand and held operation is shown.
        shown = " ".join(_card(c, value=False) for c in cards)
        out.append(f"  {side}'s hand: {shown or '-'}")
        for o in (data.get("held_operations") or {}).get(side, []):
            out.append(f"    operation {o['id']} {o['name']}")
    turn = data["turn"]
    if seat is not None and seat != turn and seat in data["to_act"] and not data["pending"]:
        out.append(
            f"  {turn} is on turn and about to act. Before each of its actions you may strike"
            " your Devil's hand to interrupt: deal interrupt (play one order now; once a"
            " match), pass (let this action go), pass turn (let the rest of its turn go) or"
            " pass round (don't ask again this round)"
            " [PT-D3]."
        )
    pending = data["pending"]
    if pending:
        what = " (the arrival's units: deck or HQ)" if pending.get("arrival") else ""
        out.append(f"  waiting: {pending['kind']}{what} by {pending['seat']}")
    for e in data["events"][-6:]:
        out.append(f"  · {event_sentence(cast(Mapping[str, Any], e))}")
    return "\n".join(out)


_SIDES = {"vietnam": "Vietnam", "vpa": "the VPA"}


def _side(e: Mapping[str, Any], key: str = "side") -> str:
    return _SIDES.get(str(e.get(key)), str(e.get(key)))


def _cards(cards: Any) -> str:
    return ", ".join(str(c) for c in cards or ()) or "nothing"


def _rule(e: Mapping[str, Any]) -> str:
    return f" [{e['rule']}]" if e.get("rule") else ""


_NOT_FREED: Final = {
    "executed": ": it was executed.",
    "recruited": ": it fights for its captor now.",
    "returned": ": it went home already.",
}

_SENTENCES: dict[str, Any] = {
    "round": lambda e: f"Round {e['round']} begins.",
    "turn": lambda e: f"{_side(e)}'s turn (round {e['round']}).",
    "phase": lambda e: f"{_side(e)}: {str(e['phase']).replace('_', ' ')} phase.",
    "turn_ended": lambda e: f"{_side(e)} ends its turn.",
    "draws": lambda e: f"{_side(e)} draws {e['n']} card{'' if e['n'] == 1 else 's'}.",
    "drew": lambda e: f"{_side(e)} draws {_cards(e['cards'])}.",
    "burned": lambda e: f"{_side(e)} burns {_cards(e['cards'])}.",
    "deployed": lambda e: (
        f"{_side(e)} deploys {e['unit']} to Point {e['point']}"
        + (" as its HQ." if e.get("hq") else ".")
    ),
    "attacked": lambda e: (
        f"{e['attacker']} attacks {e['target']}: rolled {_cards(e['dice'])}, "
        f"{e['hits']} hit{'' if e['hits'] == 1 else 's'}"
        + (f" ({str(e['cause']).replace('_', ' ')})." if e.get("cause") else ".")
    ),
    "hits": lambda e: (
        f"{_side(e)} scores {e['hits']} hit{'' if e['hits'] == 1 else 's'} on {e['target']}."
    ),
    "died": lambda e: f"{e['unit']} dies at Point {e['point']}.",
    "capture_declared": lambda e: f"{_side(e)} tries to capture {e['target']}.",
    "capture_failed": lambda e: f"{_side(e)} fails to capture {e['target']}.",
    "captured": lambda e: f"{_side(e)} captures {e['unit']} at Point {e['point']}.",
    "named": lambda e: f"{_side(e)} names its prisoner {e['prisoner']}.",
    "interaction": lambda e: (
        f"{_side(e)} chooses to {e['interaction']} {e['prisoner']}"
        + (f": rolled {e['die']}" if e.get("die") is not None else "")
        + f", {str(e['result']).replace('_', ' ')}."
    ),
    "spared": lambda e: f"{_side(e)} spares {e['prisoner']}.",
    "freed": lambda e: f"{e['unit']} is freed and goes back to {_side(e)}.",
    "not_freed": lambda e: f"{e['unit']} is not freed" + _NOT_FREED.get(str(e.get("why")), "."),
    "returned": lambda e: f"{e['unit']} returns to {_side(e)}'s hand.",
    "returned_home": lambda e: f"{e['unit']} goes home to {_side(e)}{_rule(e)}.",
    "goal_declared": lambda e: f"{_side(e)} declares its goal: Points {_cards(e['points'])}.",
    "goal_changed": lambda e: f"{_side(e)} changes its goal to Points {_cards(e['points'])}.",
    "income": lambda e: f"{_side(e)} gains {e['rd']} RD (income).",
    "rd_gained": lambda e: f"{_side(e)} gains {e['rd']} RD.",
    "rolled": lambda e: (
        f"{_side(e)} rolls for {str(e['roll']).replace('_', ' ')}: {_cards(e['dice'])}"
        + (f" ({e['rd']} RD spent)" if e.get("rd") else "")
        + (", a reroll." if e.get("reroll") else ".")
    ),
    "feature": lambda e: (
        f"{e['unit']} is {e['feature']}" + (f" ({e['rd']} RD)." if e.get("rd") else ".")
    ),
    "order": lambda e: (
        f"{_side(e)} plays {e['card']}: {str(e['order']).replace('_', ' ')}"
        + (f" {_cards(e['args'])}." if e.get("args") else ".")
    ),
    "current_act": lambda e: f"{_side(e)} acts with {e['card']}.",
    "order_taken": lambda e: (
        f"{_SIDES.get(str(e['to']), e['to'])} takes {e['card']} from "
        f"{_SIDES.get(str(e['from']), e['from'])}."
    ),
    "nothing_taken": lambda e: (
        f"{_side(e)} takes nothing from {_side(e, 'to_side')}: {e['reason']}{_rule(e)}."
    ),
    "paid": lambda e: f"{_side(e)} pays {e['card']}.",
    "swapped": lambda e: f"{_side(e)} swaps {e['card']}.",
    "took": lambda e: f"{_side(e)} takes {e['unit']} from its HQ.",
    "withdrew": lambda e: f"{e['local']} withdraws from Point {e['point']}.",
    "deck_reformed": lambda e: (
        f"{_side(e)}'s deck is formed again from {e['cards']} cards{_rule(e)}."
    ),
    "deal": lambda e: f"{_side(e)} strikes the Devil's hand: {str(e['option']).replace('_', ' ')}.",
    "operation_dealt": lambda e: f"{_side(e)} is dealt special operation {e['operation']}.",
    "operation_drawn": lambda e: f"{_side(e)} draws a special operation.",
    "revealed": lambda e: (
        f"{_side(e)} reveals {e['operation']} ({e['name']}): reward {e['reward']}."
    ),
    "rock_n_roll": lambda e: f"{_side(e)} calls Rock-n-Roll!",
    "round_over": lambda e: (
        f"Round {e['round']} is over: "
        + ", ".join(f"{_SIDES.get(k, k)} {v}" for k, v in e["values"].items())
        + f"; {_SIDES.get(str(e['winner']), e['winner'])} wins it."
    ),
    "match_over": lambda e: (
        f"The match is over: {_SIDES.get(str(e['winner']), e['winner'])} wins ("
        + ", ".join(f"{_SIDES.get(k, k)} {v}" for k, v in e["rounds_won"].items())
        + " rounds)."
    ),
}


def event_sentence(e: Mapping[str, Any]) -> str:
    """One Rock-n-Roll event (its JSON form) as a sentence for people."""
    text = sentence(_SENTENCES, e)
    return plain_event(e) if not text else text[0].upper() + text[1:]
