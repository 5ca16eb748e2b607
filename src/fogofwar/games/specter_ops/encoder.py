"""The observation encoder of Specter Ops: a seat's view as board planes (for learning).

:class:`SpecterOpsEncoder` turns a :class:`~fogofwar.core.game.PlayerView` into one
float32 array of shape ``(channels, rows, cols)`` — the board's rows and columns — built
from the view's data alone (``PlayerView.data``, :class:`.observer.SpecterOpsView`),
never from the state: what a seat may not know cannot reach the array, and two states
that give a seat the same view give it the same array.

The channels are, in order (:meth:`SpecterOpsEncoder.describe` names each):

* the board (public, the same in every view): ``blocking``, ``passable``, ``road``,
  ``escape`` (the escape points of this player count);
* the objectives: ``objective_site`` (a site the seat knows, not completed — every site
  with 2–3 players, the agent's own with 4–5), ``objective_candidate`` (the sites the
  possibility map still allows while they are hidden), ``objective_done``;
* the figures: ``own_hunter`` (the seat's hunter figures), ``other_hunter``,
  ``current_hunter`` (whose turn it is), ``stunned_hunter``, ``vehicle``, ``own_agent``
  and ``own_agent_path`` (the seat's agent figure and this turn's path, from its secret
  map: the agent's seat, or the revealed traitor's second agent);
* the agents' traces: ``agent_revealed``, ``agent_last_seen``, ``possible`` (the
  possibility map as the seat knows it), ``agent2_revealed``, ``agent2_last_seen``,
  ``possible2``, ``concealed_sighting`` (the traitor's concealed sightings, told to the
  traitor and the agent), ``smoke``;
* scalar features, each broadcast as a constant plane (or, with
  ``scalars="folded"``, written in row-major order into as few extra channels as they
  fit in): the round, the phase, the seat's role, the agent's public health and wounds,
  its objectives, the seat's own agent's health, steps and cards, the cards used, the
  characters, the traitor game's public facts and the hunter the record proves the
  traitor to a loyal seat (:attr:`SpecterOpsEncoder.scalar_names`).

Every entry lies in ``[0, 1]``: counts are divided by their greatest possible value
(named with each constant below) and clipped there.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, Literal

import numpy as np
import numpy.typing as npt

from ...core.game import Observation, PlayerView
from ...core.game.features import PlaneEncoder
from ...core.game.features import frac as _frac
from .characters import AGENTS, CARDS, HUNTERS
from .geometry import Geometry
from .observer import PUBLIC_PHASE
from .state import AGENT, BASE_HEALTH, DRIVE, FIGURES, SURGE_MOVE, Phase
from .state.pieces import FOUR_PLAYER_HEALTH

__all__ = ["PLANES", "SpecterOpsEncoder"]

#: The board planes, in channel order (the scalar planes follow them).
PLANES: Final[tuple[str, ...]] = (
    "blocking",
    "passable",
    "road",
    "escape",
    "objective_site",
    "objective_candidate",
    "objective_done",
    "own_hunter",
    "other_hunter",
    "current_hunter",
    "stunned_hunter",
    "vehicle",
    "own_agent",
    "own_agent_path",
    "agent_revealed",
    "agent_last_seen",
    "possible",
    "agent2_revealed",
    "agent2_last_seen",
    "possible2",
    "concealed_sighting",
    "smoke",
)

#: The phases as a view shows them (:data:`.observer.PUBLIC_PHASE`), in play order.
PHASES: Final[tuple[str, ...]] = tuple(dict.fromkeys(PUBLIC_PHASE.get(p, p.value) for p in Phase))

#: The most health an agent can have: the base, the 4-player bonus (SO-F1) and the
#: Orangutan's +2 (its Med Kit heals only up to its start).
MAX_HEALTH: Final = BASE_HEALTH + FOUR_PLAYER_HEALTH + max(a.health_bonus for a in AGENTS.values())
#: The most rounds a game can last (the ``max_rounds`` option's maximum, SO-R2).
MAX_ROUNDS: Final = 200
#: Objectives the agent can complete: one per sector (SO-O1).
MAX_OBJECTIVES: Final = 4
#: The most equipment cards an agent uses in a turn (``equipment_per_turn``, SO-A7).
MAX_CARDS_PER_TURN: Final = 2

_ROLES: Final = ("agent", "hunter", "traitor")
#: How many possibility maps' cells an encoder keeps (each a tuple of names sharing the
#: view's strings and an index array: a few kilobytes).
_KEPT: Final = 1024


def _scalar_names() -> tuple[str, ...]:
    names = ["round", "max_rounds"]
    names += [f"phase_{p}" for p in PHASES]
    names += [f"role_{r}" for r in _ROLES]
    names += ["to_act", "current_steps", "current_limit", "current_drove", "current_aboard"]
    names += ["vehicle_moved", "vehicle_scanned", "sensor_jammed"]
    names += ["agent_health", "agent_health_known", "agent_wounds", "agent_escaped"]
    names += ["objectives_done", "possible_count"]
    names += ["agent2_present", "agent2_wounds", "agent2_escaped", "possible2_count"]
    names += ["own_health", "own_steps_left", "own_move_limit", "own_last_move_steps"]
    names += ["own_moment", "own_cards_used_this_turn"]
    names += [f"own_card_{c}" for c in CARDS]
    names += [f"agent_used_{c}" for c in CARDS]
    names += [f"agent_character_{c}" for c in AGENTS]
    names += [f"agent_possible_{c}" for c in AGENTS]
    names += [f"own_hunter_{c}" for c in HUNTERS]
    names += ["traitor_game", "traitor_dealt", "traitor_revealed", "accusations_failed"]
    names += [f"traitor_possible_{f}" for f in FIGURES]
    names += [f"traitor_proven_{f}" for f in FIGURES]  # a loyal seat's role.proves
    return tuple(names)


#: The scalar features, in order.
SCALARS: Final[tuple[str, ...]] = _scalar_names()
_SCALAR_INDEX: Final[Mapping[str, int]] = {n: i for i, n in enumerate(SCALARS)}


def _at(prefix: str, names: Iterable[str]) -> dict[str, int]:
    """The scalar index of ``prefix + name`` for each name (a one-hot block)."""
    return {n: _SCALAR_INDEX[prefix + n] for n in names}


_PHASE_AT: Final = _at("phase_", PHASES)
_USED_AT: Final = _at("agent_used_", CARDS)
_OWN_CARD_AT: Final = _at("own_card_", CARDS)
_CHARACTER_AT: Final = _at("agent_character_", AGENTS)
_POSSIBLE_CHARACTER_AT: Final = _at("agent_possible_", AGENTS)
_OWN_HUNTER_AT: Final = _at("own_hunter_", HUNTERS)
_TRAITOR_AT: Final = _at("traitor_possible_", FIGURES)
_PROVEN_AT: Final = _at("traitor_proven_", FIGURES)
_USES: Final = {c: card.uses for c, card in CARDS.items()}
_PLANE_INDEX: Final[Mapping[str, int]] = {n: i for i, n in enumerate(PLANES)}


class SpecterOpsEncoder(PlaneEncoder):
    """A Specter Ops seat's view as ``(channel, row, col)`` planes (see the module doc).

    Args:
        geo: the board of the configuration (:func:`.geometry.geometry_for`).
        players: the number of players (it sets the escape points, SO-E1).
        scalars: ``"planes"`` (each scalar feature a constant plane, the default) or
            ``"folded"`` (the scalar vector written row-major into as few extra
            channels as it needs: a smaller array for a learner that reads it flat).
    """

    def __init__(
        self, geo: Geometry, players: int, *, scalars: Literal["planes", "folded"] = "planes"
    ) -> None:
        super().__init__(PLANES, SCALARS, geo.height, geo.width, scalars=scalars)
        self.geo = geo
        self.players = players
        # Square names -> flat indices, made once: a view names squares, and each plane
        # is filled by one fancy-indexed assignment per list of names.
        self._index: dict[str, int] = {geo.name(i): i for i in range(self._cells)}
        static = np.zeros((4, self._cells), dtype=np.float32)
        passable = np.unpackbits(
            np.frombuffer(geo.passable.to_bytes(-(-self._cells // 8), "little"), np.uint8),
            bitorder="little",
        )[: self._cells]
        static[0] = 1 - passable
        static[1] = passable
        static[2] = geo.board.roads.ravel() != 0
        escape = geo.escape + (geo.escape_five if players == 5 else ())
        static[3, list(escape)] = 1
        self._static = static
        self._kept: dict[tuple[str, ...], npt.NDArray[np.intp]] = {}

    def encode(self, view: PlayerView) -> Observation:
        d: Mapping[str, Any] = view.data
        seat = view.seat
        out = self.blank(self._static)
        # Every (plane, square) but the possibility maps' is gathered as a flat index
        # first and written in one fancy-indexed assignment; a map's hundreds of squares
        # go in as one array of their own (_cells_of).
        flat: list[int] = []
        index = self._index
        cells = self._cells

        def mark(plane: str, names: Iterable[str | None]) -> None:
            base = _PLANE_INDEX[plane] * cells
            for n in names:
                i = index.get(n) if n is not None else None
                if i is not None:
                    flat.append(base + i)

        secret: Mapping[str, Any] | None = d.get("secret")
        known_sites: list[str | None] = []
        for obj in d["objectives"]:
            if obj["done"]:
                mark("objective_done", [obj["site"]])
            elif obj["site"] is not None:
                known_sites.append(obj["site"])
            elif obj["possible"]:
                mark("objective_candidate", obj["possible"])
        if secret is not None and "objective_sites" in secret:
            done = {o["site"] for o in d["objectives"] if o["done"]}
            known_sites += [s for s in secret["objective_sites"] if s not in done]
        mark("objective_site", known_sites)

        hunters = d["hunters"]
        own = [h for h in hunters if h["seat"] == seat]
        mark("own_hunter", [h["square"] for h in own])
        mark("other_hunter", [h["square"] for h in hunters if h["seat"] != seat])
        mark("stunned_hunter", [h["square"] for h in hunters if h["stunned"]])
        current = d.get("current")
        if current is not None:
            mark("current_hunter", [h["square"] for h in hunters if h["id"] == current["hunter"]])
        mark("vehicle", [d["vehicle"]["square"]])
        if secret is not None:
            mark("own_agent", [secret["square"]])
            mark("own_agent_path", secret["path"])

        agent = d["agent"]
        mark("agent_revealed", [agent["revealed_at"]])
        mark("agent_last_seen", [agent["last_seen"]])
        agent2 = d.get("agent2")
        if agent2 is not None:
            mark("agent2_revealed", [agent2["revealed_at"]])
            mark("agent2_last_seen", [agent2["last_seen"]])
        role = d.get("role")
        concealed = list((role or {}).get("concealed") or ())
        if secret is not None:
            concealed += secret.get("concealed") or ()
        mark("concealed_sighting", [x["square"] for x in concealed])
        mark("smoke", d["smoke"])
        out.reshape(-1)[flat] = 1
        out[_PLANE_INDEX["possible"], self._cells_of(d["possible"])] = 1
        possible2 = d.get("possible2")
        if possible2:
            out[_PLANE_INDEX["possible2"], self._cells_of(possible2)] = 1

        return self.finish(out, self._scalars(d, seat, own, secret, role))

    def _cells_of(self, names: Sequence[str]) -> npt.NDArray[np.intp]:
        """The cells of a list of square names (a possibility map's), kept by the list's
        value: a map stays the same over many views, and its list is hundreds long."""
        key = tuple(names)
        got = self._kept.get(key)
        if got is None:
            index = self._index
            got = np.array([index[n] for n in key if n in index], dtype=np.intp)
            if len(self._kept) >= _KEPT:
                self._kept.clear()
            self._kept[key] = got
        return got

    def _scalars(
        self,
        d: Mapping[str, Any],
        seat: str | None,
        own: Sequence[Mapping[str, Any]],
        secret: Mapping[str, Any] | None,
        role: Mapping[str, Any] | None,
    ) -> npt.NDArray[np.float32]:
        """The scalar features of a view, each in ``[0, 1]`` (see :data:`SCALARS`)."""
        # Filled as a list: a numpy element write costs more than the work.
        v = [0.0] * len(SCALARS)
        s = _SCALAR_INDEX

        def put(name: str, value: float) -> None:
            v[s[name]] = value

        put("round", _frac(d["round"], d["max_rounds"]))
        put("max_rounds", _frac(d["max_rounds"], MAX_ROUNDS))
        if d["phase"] in _PHASE_AT:
            v[_PHASE_AT[d["phase"]]] = 1.0
        if seat == AGENT:
            put("role_agent", 1.0)
        elif role is not None and role.get("role") == "traitor":
            put("role_traitor", 1.0)
        elif own:
            put("role_hunter", 1.0)
        put("to_act", float(seat is not None and seat in d["to_act"]))
        current = d.get("current")
        if current is not None:
            put("current_steps", _frac(current["steps"], max(1, current["limit"])))
            put("current_limit", _frac(current["limit"], DRIVE))
            put("current_drove", _frac(current["drove"], DRIVE))
            put("current_aboard", float(current["started_aboard"]))
        vehicle = d["vehicle"]
        put("vehicle_moved", float(vehicle["moved"]))
        put("vehicle_scanned", float(vehicle["scanned"]))
        put("sensor_jammed", float(d["sensor_jammed"]))

        agent = d["agent"]
        put("agent_health", _frac(agent["health"], MAX_HEALTH))
        put("agent_health_known", float(agent["health"] is not None))
        put("agent_wounds", _frac(agent["wounds"], MAX_HEALTH))
        put("agent_escaped", float(agent["escaped"]))
        put("objectives_done", _frac(agent["objectives_done"], MAX_OBJECTIVES))
        put("possible_count", _frac(d["possible_count"], self._cells))
        agent2 = d.get("agent2")
        if agent2 is not None:
            put("agent2_present", 1.0)
            put("agent2_wounds", _frac(agent2["wounds"], MAX_HEALTH))
            put("agent2_escaped", float(agent2["escaped"]))
            put("possible2_count", _frac(len(d.get("possible2") or ()), self._cells))
        for card, used in agent["cards_used"].items():
            if card in _USED_AT:
                v[_USED_AT[card]] = _frac(used, _USES[card])
        for char in agent["possible_characters"]:
            if char in _POSSIBLE_CHARACTER_AT:
                v[_POSSIBLE_CHARACTER_AT[char]] = 1.0

        character = agent["character"]
        if secret is not None:
            put("own_health", _frac(secret["health"], MAX_HEALTH))
            put("own_steps_left", _frac(secret["steps_left"], SURGE_MOVE))
            put("own_move_limit", _frac(secret["move_limit"], SURGE_MOVE))
            put("own_last_move_steps", _frac(secret["last_move_steps"], SURGE_MOVE))
            put("own_moment", float(secret["moment"] is not None))
            put(
                "own_cards_used_this_turn", _frac(len(secret["used_this_turn"]), MAX_CARDS_PER_TURN)
            )
            for card, left in secret["cards"].items():
                if card in _OWN_CARD_AT:
                    v[_OWN_CARD_AT[card]] = _frac(left, _USES[card])
            if seat == AGENT:
                character = character or secret["character"]  # its own, known at once
        if character in _CHARACTER_AT:
            v[_CHARACTER_AT[character]] = 1.0
        for h in own:
            if h["character"] in _OWN_HUNTER_AT:
                v[_OWN_HUNTER_AT[h["character"]]] = 1.0

        traitor = d.get("traitor")
        if traitor is not None:
            put("traitor_game", 1.0)
            put("traitor_dealt", float(traitor["dealt"]))
            put("traitor_revealed", float(traitor["revealed"] is not None))
            put("accusations_failed", _frac(traitor["failed"], len(FIGURES)))
            for fig in traitor["possible"]:
                if fig in _TRAITOR_AT:
                    v[_TRAITOR_AT[fig]] = 1.0
        proves = role.get("proves") if role is not None else None
        if proves in _PROVEN_AT:
            v[_PROVEN_AT[proves]] = 1.0  # SO-T4: the record proves it the traitor
        return np.array(v, dtype=np.float32)
