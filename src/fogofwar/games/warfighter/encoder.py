"""The observation encoder of Warfighter: the squad's view as a flat vector of counts
and one-hot cards, for learning (:mod:`fogofwar.rl`).

The layout depends on the configuration only (the mission and its card library, which
every player knows): one block for the mission's state, then one per Location slot,
per Soldier (S1…S6), per Hostile id (H1… up to the most the mission can put in play)
and per check id (K1…). Every entry is scaled into ``[0, 1]`` (counts by the most they
can be, a card by a one-hot over the library's names) and named by :meth:`describe`.
It reads the view alone (:func:`~.observer.view_data`): the decks' order never enters.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any, cast

from ...core.game import PlayerView
from ...core.game.features import FeatureLayout, FlatEncoder, index_of
from ...core.game.observation import Observation
from .cardfile import MAX_MODIFIER
from .cards import EFFECT_VERBS, HEADINGS, CardLibrary, MissionCard
from .observer import view_data
from .state.pieces import OUT_AT

__all__ = ["WarfighterEncoder"]

#: The most Soldiers of a squad (the action encoding's S1…S6).
SOLDIERS = 6
#: Scales: a 2d6 target or a Cover (2 to 12), Hits and hits taken, Actions, shots.
_D12 = 12.0
_HITS = 6.0
_ACTIONS = 12.0
_SHOTS = 6.0
_ATTEMPTS = 3.0
_PHASES = ("soldiers", "roll", "over")
_COUNTS = (
    "breaches_attack",
    "breaches_pick",
    "checks_rolled",
    "checks_failed",
    "checks_lacking",
    "hostiles_killed",
)
_ABILITY_RE = re.compile(r"(?P<key>.+?) (?P<need>\d+)\+(?:\[(?P<up>\d+)\+\])?")
_ID_RE = re.compile(r"[A-Z](\d+)")


@functools.lru_cache(maxsize=4096)
def _number(ident: str) -> int:
    """The number of an id (``"H12"`` -> 12; 0 for anything else)."""
    m = _ID_RE.fullmatch(ident)
    return int(m.group(1)) if m else 0


@functools.lru_cache(maxsize=4096)
def _ability(text: str) -> tuple[str, int, int | None] | None:
    """An ability's text parsed: (keyword, target, upgunned target or ``None``), or
    ``None`` when it does not read as one (``"Shoot 6+[4+]"`` -> ``("Shoot", 6, 4)``).
    Cached: a card's abilities come in every view."""
    m = _ABILITY_RE.fullmatch(text)
    if m is None:
        return None
    up = m.group("up")
    return m.group("key"), int(m.group("need")), int(up) if up else None


@functools.lru_cache(maxsize=4096)
def _heading_effects(heading: str) -> tuple[str, ...]:
    """The ``kind:verb`` of each effect of a check's heading (``"Pass: draw 1; ..."``)."""
    kind, _, effects = heading.partition(":")
    out = []
    for effect in effects.split(";"):
        words = effect.split()
        out.append(f"{kind.strip()}:{words[0] if words else ''}")
    return tuple(out)


def _modifier(m: int) -> float:
    return (m + MAX_MODIFIER) / (2 * MAX_MODIFIER)


class WarfighterEncoder(FlatEncoder):
    """The squad's view of a Warfighter mission as ``(feature,)`` floats in ``[0, 1]``.

    Blocks (see :meth:`describe` for every entry's name):

    * ``game``: turn and turns left, the phase, the decks' sizes, the Hostiles and checks
      placed, the Fail checks waiting, the mission's counts, won or lost; ``discard`` and
      ``in_play``: the Hostile cards discarded and drawn, by name (a count over the
      number of that card in the Hostile deck).
    * ``L<i>``: the slot revealed, the Objective, its card one-hot, Soldiers and
      Hostiles there.
    * ``S<j>``: present, out, wounds, Actions, Cover, where (one-hot slot), its card
      one-hot, each ability's target and upgunned target, its weapon's shots.
    * ``H<k>``: in play, where, its card one-hot, Cover, Hits, EKIAs, Cover in force,
      suppressed, and its Door (Cover, Hits, Pick, EKIAs, breached how).
    * ``K<m>``: in play, where, from a Hostile, ability one-hot, modifier, upgun, Fail
      check, rolled, spent, attempts, waiting to be rolled, and its headings' effects
      (heading x verb).
    """

    def __init__(
        self, mission: MissionCard, library: CardLibrary, *, most_hostiles: int, most_checks: int
    ) -> None:
        most_h, most_k = most_hostiles, most_checks
        self.slots = [f"L{i}" for i in range(1, mission.slots + 3)]
        self.hostile_ids = [f"H{i}" for i in range(1, max(1, most_h) + 1)]
        self.check_ids = [f"K{i}" for i in range(1, max(1, most_k) + 1)]
        self.soldier_ids = [f"S{i}" for i in range(1, SOLDIERS + 1)]
        self._deck = max(1, len(mission.deck))
        self._hostile_deck = max(1, len(mission.hostile_deck))
        self._in_deck = {n: mission.hostile_deck.count(n) for n in set(mission.hostile_deck)}
        location_names = sorted(library.locations)
        hostile_names = sorted(library.hostiles)
        soldier_names = sorted(library.soldiers)
        abilities = sorted(
            {a.keyword for s in library.soldiers.values() for a in s.abilities}
            | {k.ability for card in library.locations.values() for k in card.checks}
            | {k.ability for card in library.hostiles.values() for k in card.checks}
        )
        effects = [f"{h}:{v}" for h in HEADINGS for v in EFFECT_VERBS]
        self._loc = index_of(location_names)
        self._hostile = index_of(hostile_names)
        self._soldier = index_of(soldier_names)
        self._ability = index_of(abilities)
        self._effect = index_of(effects)
        self._slot = index_of(self.slots)
        lay = FeatureLayout()
        self._g = lay.block(
            "game",
            [
                "turn",
                "turns_left",
                *(f"phase_{p}" for p in _PHASES),
                "location_deck",
                "hostile_deck",
                "hostiles_placed",
                "checks_placed",
                "pending",
                *_COUNTS,
                "won",
                "lost",
            ],
        )
        self._discard = lay.block("discard", hostile_names)
        self._in_play = lay.block("in_play", hostile_names)
        loc_labels = ["revealed", "objective", "soldiers", "hostiles"]
        loc_labels += [f"card={n}" for n in location_names]
        self._l = [lay.block(s, loc_labels) for s in self.slots]
        self._l_width = len(loc_labels)
        s_labels = ["present", "out", "wounds", "actions", "cover", "shots", "suppressive"]
        s_labels += [f"at={s}" for s in self.slots]
        s_labels += [f"card={n}" for n in soldier_names]
        s_labels += [f"need={a}" for a in abilities] + [f"upgunned={a}" for a in abilities]
        self._s = [lay.block(s, s_labels) for s in self.soldier_ids]
        self._s_at = s_labels.index(f"at={self.slots[0]}")
        self._s_card = self._s_at + len(self.slots)
        self._s_need = self._s_card + len(soldier_names)
        self._s_up = self._s_need + len(abilities)
        h_labels = ["present", "cover", "hits", "ekias", "cover_in_force", "suppressed"]
        h_labels += ["door", "door_cover", "door_hits", "door_pick", "door_has_pick"]
        h_labels += ["door_ekias", "breached_attack", "breached_pick"]
        h_labels += [f"at={s}" for s in self.slots] + [f"card={n}" for n in hostile_names]
        self._h = [lay.block(h, h_labels) for h in self.hostile_ids]
        self._h_at = h_labels.index(f"at={self.slots[0]}")
        self._h_card = self._h_at + len(self.slots)
        k_labels = ["present", "from_hostile", "modifier", "upgun", "fail", "rolled", "spent"]
        k_labels += ["attempts", "pending"]
        k_labels += [f"at={s}" for s in self.slots] + [f"ability={a}" for a in abilities]
        k_labels += [f"effect={e}" for e in effects]
        self._k = [lay.block(k, k_labels) for k in self.check_ids]
        self._k_at = k_labels.index(f"at={self.slots[0]}")
        self._k_ability = self._k_at + len(self.slots)
        self._k_effect = self._k_ability + len(abilities)
        self.layout = lay

    def fill(self, x: Observation, view: PlayerView) -> None:
        d = view_data(view)
        g = self._g
        turns = max(1, d["turns"])
        x[g + 0] = d["turn"] / turns
        x[g + 1] = (turns - d["turn"]) / turns
        if d["phase"] in _PHASES:
            x[g + 2 + _PHASES.index(d["phase"])] = 1.0
        x[g + 5] = d["location_deck"] / self._deck
        x[g + 6] = d["hostile_deck"] / self._hostile_deck
        x[g + 7] = d["hostiles_placed"] / len(self.hostile_ids)
        x[g + 8] = d["checks_placed"] / len(self.check_ids)
        x[g + 9] = len(d["pending"]) / len(self.check_ids)
        counts = d["counts"]
        for i, name in enumerate(_COUNTS):
            scale = len(self.hostile_ids) if name == "hostiles_killed" else len(self.check_ids)
            x[g + 10 + i] = cast(Mapping[str, int], counts).get(name, 0) / scale
        outcome = d["outcome"]
        if outcome is not None:
            x[g + 10 + len(_COUNTS) + (0 if outcome["winners"] else 1)] = 1.0
        self._piles(x, self._discard, d["hostile_discard"])
        self._piles(x, self._in_play, d["hostile_in_play"])

        soldiers_at: dict[str, int] = {}
        for s in d["soldiers"]:
            if not s["out"]:
                soldiers_at[s["location"]] = soldiers_at.get(s["location"], 0) + 1
        pending = {p["check"] for p in d["pending"]}
        for loc in d["locations"]:
            slot = self._slot.get(loc["id"])
            if slot is None:
                continue
            o = self._l[slot]
            x[o] = float(loc["revealed"])
            x[o + 1] = float(loc["objective"])
            x[o + 2] = soldiers_at.get(loc["id"], 0) / SOLDIERS
            hostiles = loc.get("hostiles", [])
            x[o + 3] = len(hostiles) / len(self.hostile_ids)
            card = self._loc.get(loc["card"] or "")
            if card is not None:
                x[o + 4 + card] = 1.0
            for h in hostiles:
                self._hostile_features(x, h, slot)
            for k in loc.get("checks", []):
                self._check_features(x, k, slot, k["id"] in pending)
        for s in d["soldiers"]:
            self._soldier_features(x, s)

    def _piles(self, x: Observation, offset: int, cards: list[str]) -> None:
        for name in cards:
            i = self._hostile.get(name)
            if i is not None:
                x[offset + i] += 1.0 / self._in_deck.get(name, 1)

    def _soldier_features(self, x: Observation, s: Any) -> None:
        j = _number(s["id"]) - 1
        if not 0 <= j < SOLDIERS:
            return
        o = self._s[j]
        x[o] = 1.0
        x[o + 1] = float(s["out"])
        x[o + 2] = s["wounds"] / OUT_AT
        x[o + 3] = s["actions"] / _ACTIONS
        x[o + 4] = s["cover"] / _D12
        x[o + 5] = s["weapon"]["shots"] / _SHOTS
        x[o + 6] = float(s["weapon"]["suppressive"])
        slot = self._slot.get(s["location"])
        if slot is not None:
            x[o + self._s_at + slot] = 1.0
        card = self._soldier.get(s["name"])
        if card is not None:
            x[o + self._s_card + card] = 1.0
        for text in s["abilities"]:
            parsed = _ability(text)
            a = self._ability.get(parsed[0]) if parsed else None
            if parsed is None or a is None:
                continue
            # A lower target is a better Soldier: 2+ maps to 1, 12+ to about 0.
            x[o + self._s_need + a] = (13 - parsed[1]) / 11
            if parsed[2] is not None:
                x[o + self._s_up + a] = (13 - parsed[2]) / 11

    def _hostile_features(self, x: Observation, h: Any, slot: int) -> None:
        k = _number(h["id"]) - 1
        if not 0 <= k < len(self._h):
            return
        o = self._h[k]
        x[o] = 1.0
        x[o + 1] = h["cover"] / _D12
        x[o + 2] = h["hits"] / _HITS
        x[o + 3] = h["ekias"] / _HITS
        x[o + 4] = h["cover_in_force"] / _D12
        x[o + 5] = float(h["suppressed"])
        door = h["door"]
        if door is not None:
            x[o + 6] = 1.0
            x[o + 7] = door["cover"] / _D12
            x[o + 8] = door["hits"] / _HITS
            if door["pick"] is not None:
                x[o + 9] = _modifier(door["pick"])
                x[o + 10] = 1.0
            x[o + 11] = door["ekias"] / _HITS
            x[o + 12] = float(door["breached"] == "attack")
            x[o + 13] = float(door["breached"] == "pick")
        x[o + self._h_at + slot] = 1.0
        card = self._hostile.get(h["name"])
        if card is not None:
            x[o + self._h_card + card] = 1.0

    def _check_features(self, x: Observation, k: Any, slot: int, pending: bool) -> None:
        m = _number(k["id"]) - 1
        if not 0 <= m < len(self._k):
            return
        o = self._k[m]
        x[o] = 1.0
        x[o + 1] = float(k["source"].startswith("H"))
        x[o + 2] = _modifier(k["modifier"])
        x[o + 3] = float(k["upgun"])
        x[o + 4] = float(k["kind"] == "fail")
        x[o + 5] = float(k["rolled"])
        x[o + 6] = float(k["spent"])
        x[o + 7] = k["attempts"] / _ATTEMPTS
        x[o + 8] = float(pending)
        x[o + self._k_at + slot] = 1.0
        a = self._ability.get(k["ability"])
        if a is not None:
            x[o + self._k_ability + a] = 1.0
        for heading in k["headings"]:
            for effect in _heading_effects(heading):
                e = self._effect.get(effect)
                if e is not None:
                    x[o + self._k_effect + e] = 1.0
