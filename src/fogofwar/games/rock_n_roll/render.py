"""A terminal drawing of a Rock-n-Roll view: the Points row with its units, the sides'
RD, prisoners and HQs, the seat's hand, and the latest events (plain text)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, cast

from ...core.game import PlayerView
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
            " match), pass (let this action go) or pass turn (let the rest of its turn go)"
            " [PT-D3]."
        )
    pending = data["pending"]
    if pending:
        out.append(f"  waiting: {pending['kind']} by {pending['seat']}")
    for e in data["events"][-6:]:
        rest = ", ".join(f"{k}={v}" for k, v in e.items() if k != "kind")
        out.append(f"  . {e['kind']} {rest}")
    return "\n".join(out)
