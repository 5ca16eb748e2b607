"""Drawing a Warfighter view in the terminal, from the view alone (its typed structure,
:class:`~.observer.WarfighterView`): the line of Locations with their Hostiles (Doors
included) and checks, the squad, the decks and this turn's events."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.game import PlayerView
from .observer import HostileView, view_data

__all__ = ["event_line", "render_view"]

_LINES: dict[str, str] = {
    "revealed": "{location} revealed: {card}",
    "hostile_placed": "{hostile} {card} placed on {location}",
    "moved": "{soldier} {frm} → {to}",
    "breached": "the Door of {hostile} is Breached by {by} [{rule}]",
    "killed": "{hostile} killed",
    "removed": "{hostile} removed",
    "suppressed": "{hostile} suppressed",
    "suppressed_skips": "{hostile} is suppressed: no attack",
    "wounded": "{soldier} wounded ({wounds})",
    "out": "{soldier} is out",
    "drawn": "Hostile card drawn: {card} on {location}",
    "discarded": "Hostile card discarded: {card}",
    "actions": "{soldier} actions {change:+d} ({left} left)",
    "hostile_turn": "— hostile turn {turn} —",
    "check_not_rolled": "{check}: nobody there to roll it [{rule}]",
    "game_over": "mission over: {reason} [{rule}]",
    "check_placed": "{check} placed on {location} (from {source})",
    "nothing_to_remove": "{card}: nothing to remove on {location}",
    "turn_over": "— turn {turn} is over —",
}


def event_line(e: Mapping[str, Any]) -> str | None:
    """One line of text for an event (None for those not shown)."""
    kind = e["kind"]
    if kind == "check":
        if e["lacks"]:
            rolled = (
                f"lacks the ability: no roll, fails (treated as {e['treated_as']}"
                f"{e['modifier']:+d} = {e['reading']})"
            )
        else:
            up = " upgunned" if e["upgunned"] else ""
            rolled = (
                f"rolled {e['natural']}{e['modifier']:+d} = {e['roll']} vs {e['target']}+{up}: "
                + ("success" if e["success"] else "fail")
            )
        heading = f" → {e['heading']}" if e["heading"] else ""
        return f"{e['soldier']} {e['check']} {e['ability']}: {rolled}{heading} [{e['rule']}]"
    if kind == "pick":
        up = " upgunned" if e["upgunned"] else ""
        result = "success" if e["success"] else "fail"
        return (
            f"{e['soldier']} picks {e['hostile']}'s Door: {e['natural']}{e['modifier']:+d} = "
            f"{e['roll']} vs {e['target']}+{up}: {result}"
        )
    if kind == "attack":
        what = f"{e['hostile']}'s Door" if e["door"] else e["hostile"]
        return (
            f"{e['soldier']} attacks {what} with {e['weapon']} at Cover {e['cover']}: "
            f"{' '.join(str(r) for r in e['rolls'])} → {e['ekias']} EKIA [{e['rule']}]"
        )
    if kind == "hostile_attack":
        hit = "hit" if e["hit"] else "miss"
        return f"{e['hostile']} attacks {e['soldier']}: {e['roll']} vs Cover {e['cover']}: {hit}"
    template = _LINES.get(kind)
    return None if template is None else template.format(**e)


def _hostile_line(h: HostileView) -> str:
    text = (
        f"    {h['id']} {h['name']}: Cover {h['cover']} (in force {h['cover_in_force']}), "
        f"Hits {h['hits']}, EKIAs {h['ekias']}"
    )
    if h["suppressed"]:
        text += ", suppressed"
    door = h["door"]
    if door is not None:
        pick = "" if door["pick"] is None else f", Pick {door['pick']:+d}"
        state = f"Breached by {door['breached']}" if door["breached"] else f"EKIAs {door['ekias']}"
        text += f"\n      Door: Cover {door['cover']}, Hits {door['hits']}{pick}; {state}"
    return text


def render_view(view: PlayerView, config: Mapping[str, Any]) -> object:
    """The view as text: the line of Locations with their Hostiles and checks, the squad,
    this turn's events (``config``, the game's options, adds nothing here)."""
    data = view_data(view)
    lines = [
        f"{data['mission']} — turn {data['turn']} of {data['turns']}, phase {data['phase']}; "
        f"Location deck {data['location_deck']}, Hostile deck {data['hostile_deck']}"
    ]
    where: dict[str, list[str]] = {}
    for s in data["soldiers"]:
        if not s["out"]:
            where.setdefault(s["location"], []).append(s["id"])
    for loc in data["locations"]:
        tag = " (Objective)" if loc["objective"] else ""
        name = loc["card"] if loc["card"] is not None else "face down"
        if not loc["revealed"] and loc["card"] is not None:
            name += ", face down"
        squad = ", ".join(where.get(loc["id"], []))
        lines.append(f"{loc['id']} {name}{tag}" + (f"   [{squad}]" if squad else ""))
        for h in loc.get("hostiles", []):
            lines.append(_hostile_line(h))
        for k in loc.get("checks", []):
            state = "rolled" if k["rolled"] else "spent" if k["spent"] else "open"
            mod = f" {k['modifier']:+d}" if k["modifier"] else ""
            lines.append(
                f"    {k['id']} check {k['ability']}{mod} ({k['kind']}, {state}): "
                + " | ".join(k["headings"])
            )
    lines.append("Squad:")
    for s in data["soldiers"]:
        status = "out" if s["out"] else f"{s['actions']} Action(s)"
        lines.append(
            f"  {s['id']} {s['name']} at {s['location']}: {s['wounds']} wound(s), {status}; "
            f"Cover {s['cover']}; {', '.join(s['abilities']) or 'no abilities'}; "
            f"{s['weapon']['name']} ({s['weapon']['shots']} shot(s))"
        )
    for p in data["pending"]:
        who = p["roller"] or "a Soldier there (you choose)"
        lines.append(f"To roll now: {p['check']} by {who} [{p['rule']}]")
    events = [t for t in (event_line(e) for e in data["events"]) if t]
    if events:
        lines.append("This turn:")
        lines += [f"  {t}" for t in events[-15:]]
    return "\n".join(lines)
