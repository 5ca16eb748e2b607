"""A heuristic squad bot for Warfighter, ``wf-heuristic``. Like every bot it sees only
its seat's view, its legal actions and its own random stream.

* A Fail check waiting to be rolled goes to the Soldier most likely to pass it (exact
  odds from :mod:`.odds`), upgunned when that is better.
* A Soldier on a Location with Hostiles fights the Hostile it can kill in the fewest
  expected Actions: straight at its Cover in force, or first through its Door — picked
  (when the Soldier can) or attacked, whichever breaks it sooner — then at the Door's
  Cover (WF-D5, WF-D6, WF-D7).
* Otherwise a Soldier attempts the open Success checks whose text helps the squad
  (Actions, removing a Hostile there, Suppresses, winning), then moves towards the
  nearest Location with Hostiles, else towards the Objective; a badly wounded Soldier
  waits for the squad to clear the way.
* When no Soldier has anything useful left to do, it ends the Soldier Turn.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from ...bots.base import Bot, register_bot
from ...core.game import Action, PlayerView
from ...core.rng import Stream
from .observer import HostileView, LocationView, SoldierView, WarfighterView, view_data
from .odds import check_odds, ekia_chance

__all__ = ["HeuristicBot"]

_ABILITY = re.compile(r"([A-Za-z][A-Za-z-]*) (\d+)\+(?:\[(\d+)\+\])?")
_FAR = 1e9
_EFFECT_VALUE = {
    "actions": 1.0,
    "suppress": 1.0,
    "discard": 0.3,
    "wound": -1.5,
    "add": -2.0,
    "draw": -2.0,
}


def _abilities(soldier: SoldierView) -> dict[str, tuple[int, int | None]]:
    out: dict[str, tuple[int, int | None]] = {}
    for text in soldier["abilities"]:
        m = _ABILITY.fullmatch(text)
        if m is not None:
            out[m.group(1).lower()] = (
                int(m.group(2)),
                None if m.group(3) is None else int(m.group(3)),
            )
    return out


def _odds(soldier: SoldierView, ability: str, modifier: int, up: bool) -> float:
    have = _abilities(soldier).get(ability.lower())
    if have is None:
        return 0.0
    need, upgunned = have
    return float(check_odds(need, modifier=modifier, upgunned=upgunned if up else None))


def _heading_value(text: str, hostiles: Sequence[HostileView]) -> float:
    """How much a heading's effects help (``"success: actions +2; suppress"``)."""
    _, _, body = text.partition(": ")
    value = 0.0
    for part in body.split("; "):
        verb, _, rest = part.partition(" ")
        if verb == "end":
            value += 100.0 if rest == "win" else -100.0
        elif verb == "remove":
            value += 2.0 if any(h["name"] == rest for h in hostiles) else 0.0
        elif verb == "suppress":
            value += 1.0 if hostiles else 0.0
        elif verb == "actions":
            value += float(rest)
        else:
            value += _EFFECT_VALUE.get(verb, 0.0)
    return value


class HeuristicBot(Bot):
    """The heuristic squad (see the module doc)."""

    name = "wf-heuristic"

    def choose(self, view: PlayerView, legal: Sequence[Action], stream: Stream) -> Action:
        data = view_data(view)
        if data["phase"] == "roll":
            return self._roll(data, legal)
        index = {(a.kind, a.args): a for a in legal}
        locations = {loc["id"]: loc for loc in data["locations"]}
        order = [loc["id"] for loc in data["locations"]]
        for s in data["soldiers"]:
            if s["out"] or s["actions"] < 1:
                continue
            here = locations[s["location"]]
            choice = self._fight(s, here, index) or self._check(s, here, index)
            if choice is None:
                choice = self._move(s, data, order, locations, index)
            if choice is not None:
                return choice
        return index[("end", ())]

    # ------------------------------------------------------------------ rolls

    def _roll(self, data: WarfighterView, legal: Sequence[Action]) -> Action:
        soldiers = {s["id"]: s for s in data["soldiers"]}
        checks = {k["id"]: k for loc in data["locations"] for k in loc.get("checks", [])}

        def score(a: Action) -> tuple[float, int, int]:
            s = soldiers[str(a.args[0])]
            k = checks[str(a.args[1])]
            up = len(a.args) == 3
            p = _odds(s, k["ability"], k["modifier"], up)
            # Better odds first; then keep the Action; then the least wounded.
            return (-p, 1 if up else 0, s["wounds"])

        return min(legal, key=score)

    # ------------------------------------------------------------------ fighting

    def _fight(
        self,
        s: SoldierView,
        here: LocationView,
        index: Mapping[tuple[str, tuple[int | str, ...]], Action],
    ) -> Action | None:
        shots = int(s["weapon"]["shots"])
        best: tuple[float, Action] | None = None
        for h in here.get("hostiles", []):
            left = h["hits"] - h["ekias"]
            direct = _expected(left, shots, h["cover_in_force"])
            plans: list[tuple[float, tuple[str, tuple[int | str, ...]]]] = [
                (direct, ("attack", (s["id"], h["id"])))
            ]
            door = h["door"]
            if door is not None and not door["breached"]:
                after = _expected(left, shots, min(door["cover"], h["cover"]))
                by_attack = _expected(door["hits"] - door["ekias"], shots, door["cover"])
                plans.append((by_attack + after, ("attack", (s["id"], h["id"], "door"))))
                if door["pick"] is not None:
                    for up in (False, True):
                        p = _odds(s, "Pick", door["pick"], up)
                        args: tuple[int | str, ...] = (s["id"], h["id"])
                        key = ("pick", (*args, "up") if up else args)
                        if p > 0 and key in index:
                            plans.append(((2 if up else 1) / p + after, key))
            for cost, key in plans:
                if key in index and (best is None or cost < best[0]):
                    best = (cost, index[key])
        return None if best is None else best[1]

    # ------------------------------------------------------------------ checks

    def _check(
        self,
        s: SoldierView,
        here: LocationView,
        index: Mapping[tuple[str, tuple[int | str, ...]], Action],
    ) -> Action | None:
        hostiles = here.get("hostiles", [])
        for k in here.get("checks", []):
            if k["kind"] != "success" or k["spent"]:
                continue
            value = sum(_heading_value(h, hostiles) for h in k["headings"])
            if value <= 0:
                continue
            plain = ("check", (s["id"], k["id"]))
            up = ("check", (s["id"], k["id"], "up"))
            p = _odds(s, k["ability"], k["modifier"], False)
            p_up = _odds(s, k["ability"], k["modifier"], True)
            if up in index and p_up - p >= 0.3:
                return index[up]
            if plain in index and p > 0:
                return index[plain]
        return None

    # ------------------------------------------------------------------ moving

    def _move(
        self,
        s: SoldierView,
        data: WarfighterView,
        order: Sequence[str],
        locations: Mapping[str, LocationView],
        index: Mapping[tuple[str, tuple[int | str, ...]], Action],
    ) -> Action | None:
        at = order.index(s["location"])
        fights = [i for i, name in enumerate(order) if locations[name].get("hostiles")]
        goal = min(fights, key=lambda i: (abs(i - at), -i)) if fights else len(order) - 1
        if goal == at:
            return None
        # Badly wounded: do not lead the squad into the unknown.
        ahead = order[at + 1] if at + 1 < len(order) else None
        if (
            goal > at
            and s["wounds"] >= 2
            and ahead is not None
            and not locations[ahead]["revealed"]
            and any(
                o["location"] == s["location"] and not o["out"] and o["wounds"] < 2
                for o in data["soldiers"]
                if o["id"] != s["id"]
            )
        ):
            return None
        step = order[at + 1] if goal > at else order[at - 1]
        return index.get(("move", (s["id"], step)))


def _expected(left: int, shots: int, cover: int) -> float:
    """Expected Actions to deal ``left`` EKIAs at ``cover`` with ``shots`` dice."""
    if left <= 0:
        return 0.0
    per = shots * float(ekia_chance(cover))
    return _FAR if per == 0 else left / per


register_bot(
    "wf-heuristic", HeuristicBot, rulesets={"warfighter"}, help="heuristic Warfighter squad"
)
