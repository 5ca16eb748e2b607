"""The observation encoder of Zero Dark: a seat's view as board planes (for learning).

:class:`ZeroDarkEncoder` turns a :class:`~fogofwar.core.game.PlayerView` into one float32
array of shape ``(channels, rows, cols)`` — the map's rows and columns — built from the
view's data alone (``PlayerView.data``, :class:`.observer.ZeroDarkView`) and the map,
which is public: never from the state, so what a ping hides, the deck's order, the other
team's hand and task cannot reach the array, and two states that give a seat the same
view give it the same array.

The channels are, in order (:meth:`ZeroDarkEncoder.describe` names each):

* the map (public, the same in every view): ``impassable``, ``opaque``,
  ``terrain_cyl`` (the terrain item's height), ``wall_n``, ``wall_e``, ``wall_s``,
  ``wall_w`` (a wall on that edge of the square), the markers ``heroes_zone``,
  ``heroes2_zone``, ``ping_site``, ``deployment``, ``exit``;
* the doors and objectives as the view shows them: ``door_open``, ``door_closed`` (both
  squares beside the door's edge), ``objective_open``, ``objective_done``;
* the models: ``own_hero``, ``own_ally`` (the seat's team; a spectator sees from the
  first team's side), ``enemy_hero``, ``enemy_ally`` (the other team in Versus),
  ``bogey``, ``ping`` (a face-down counter: where it is, nothing of what it hides),
  ``active_model``, ``acted``, then what the view says of each model on its squares:
  ``model_cyl``, ``facing_NE`` … ``facing_NW``, ``prone``, ``down``, ``out_of_action``,
  ``wounds``, ``support``, ``targeted``, ``tier_grunt`` … ``tier_special``,
  ``flag_nemesis``, ``flag_named``, ``flag_synthetic``, ``in_cqb`` (a CQB waiting),
  ``dependent`` (ZD-D2), ``task_bogey`` (the seat's task's bogeys once turned over),
  ``observed`` (the bogeys its Spook has targeted);
* scalar features, each broadcast as a constant plane (or, with
  ``scalars="folded"``, written in row-major order into as few extra channels as they
  fit in): the turn, the phase, whose turn it is, the Control Deck's piles, the seat's
  hand by tier, its task and side, the other side's public facts, objectives, losses and
  XP (:attr:`ZeroDarkEncoder.scalar_names`).

Every entry lies in ``[0, 1]``: counts are divided by their greatest possible (or, named
below, a generous) value and clipped there.

The view carries no sight table, so no plane says what a model sees: a learner that
needs it can work it out from the map and these planes, as :mod:`.seat_sight` does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final, Literal

import numpy as np
import numpy.typing as npt

from ...core.cards import PlayingCard
from ...core.game import Observation, PlayerView
from ...core.game.features import PlaneEncoder
from ...core.game.features import frac as _frac
from ...core.grid import Board, Square
from .fear import FACINGS, TIERS
from .profiles import HERO_DEAD, TASKS
from .state import FLAGS, Phase
from .state.pieces import tier_of

__all__ = ["PLANES", "SCALARS", "ZeroDarkEncoder"]

_MARKERS: Final = ("heroes", "heroes2", "ping", "deployment", "exit")
_MARKER_PLANES: Final = ("heroes_zone", "heroes2_zone", "ping_site", "deployment", "exit")
#: Flags the view shows (``susceptible`` is the umpire's until persuaded, ZD-T3).
_FLAGS: Final = tuple(f for f in FLAGS if f != "susceptible")

#: The board planes, in channel order (the scalar planes follow them).
PLANES: Final[tuple[str, ...]] = (
    "impassable",
    "opaque",
    "terrain_cyl",
    "wall_n",
    "wall_e",
    "wall_s",
    "wall_w",
    *_MARKER_PLANES,
    "door_open",
    "door_closed",
    "objective_open",
    "objective_done",
    "own_hero",
    "own_ally",
    "enemy_hero",
    "enemy_ally",
    "bogey",
    "ping",
    "active_model",
    "acted",
    "model_cyl",
    *(f"facing_{f}" for f in FACINGS),
    "prone",
    "down",
    "out_of_action",
    "wounds",
    "support",
    "targeted",
    *(f"tier_{t}" for t in TIERS),
    *(f"flag_{f}" for f in _FLAGS),
    "in_cqb",
    "dependent",
    "task_bogey",
    "observed",
)

#: The greatest terrain height the sight rules tell apart (an opaque building's Cyl).
MAX_TERRAIN_CYL: Final = 9
#: The greatest model height (FR-C1: Cyl 6–7 models stand on 2×2 squares).
MAX_MODEL_CYL: Final = 7
#: Wounds: a character is down at 2 and dead at 3 (ZD-C5); a Boss has Wnd 3.
MAX_WOUNDS: Final = HERO_DEAD
#: Support tokens: a Boss's 3.
MAX_SUPPORT: Final = 3
#: Cards in the Control Deck: 52 and two Jokers.
DECK: Final = 54
#: Flips in a mission: the deck, then at most as many set aside (buying time, ZD-B3).
MAX_FLIPS: Final = 2 * DECK
#: Turns: at most one a flip, and the hands' cards played (a generous bound).
MAX_TURNS: Final = 128
#: Steps in one move: a Mobility of 6 and its upgrades (generous).
MAX_STEPS: Final = 8
#: Bonus actions left (generous).
MAX_BONUS: Final = 4
#: Cards in a Spook's hand: its Discipline and a task's bonus (generous).
MAX_HAND: Final = 10
#: Models counted in ``exited``, ``dead`` and CQBs: two teams of six and their allies
#: (generous).
MAX_MODELS: Final = 16
#: XP of a side: up to 10 a hero of six (generous).
MAX_XP: Final = 60

_HAND_TIERS: Final = ("grunt", "elite", "boss", "joker")


def _scalar_names() -> tuple[str, ...]:
    names = ["turn"]
    names += [f"phase_{p.value}" for p in Phase]
    names += ["versus", "my_turn", "red_answers_me", "steps", "bonus", "cautious"]
    names += ["deck_left", "discard", "set_aside", "second_deck", "to_flip", "flips"]
    names += ["cqb_waiting", "dependent_waiting", "objectives_done", "exited", "dead"]
    names += ["own_xp", "enemy_xp", "hand_size", *(f"hand_{t}" for t in _HAND_TIERS)]
    names += [f"task_{t}" for t in TASKS]
    names += ["own_buying_time", "own_acquired", "own_verified", "own_recorded", "own_played"]
    names += ["other_buying_time", "other_acquired", "other_verified", "other_recorded"]
    names += ["other_played"]
    return tuple(names)


#: The scalar features, in order.
SCALARS: Final[tuple[str, ...]] = _scalar_names()
_SCALAR_INDEX: Final[Mapping[str, int]] = {n: i for i, n in enumerate(SCALARS)}
_PLANE_INDEX: Final[Mapping[str, int]] = {n: i for i, n in enumerate(PLANES)}
_STATE_PLANES: Final = {"prone": "prone", "down": "down", "ooa": "out_of_action"}
#: The model attributes whose plane takes a scaled number.
_NUMBERS: Final = (("wounds", MAX_WOUNDS), ("support", MAX_SUPPORT))


def _hand_tier(card: str) -> str:
    try:
        return tier_of(PlayingCard.from_json(card)) or "joker"
    except (TypeError, ValueError):
        return "joker"


class ZeroDarkEncoder(PlaneEncoder):
    """A Zero Dark seat's view as ``(channel, row, col)`` planes (see the module doc).

    Args:
        board: the mission's map (public).
        scalars: ``"planes"`` (each scalar feature a constant plane, the default) or
            ``"folded"`` (the scalar vector written row-major into as few extra
            channels as it needs: a smaller array for a learner that reads it flat).
    """

    def __init__(self, board: Board, *, scalars: Literal["planes", "folded"] = "planes") -> None:
        h, w = board.height, board.width
        super().__init__(PLANES, SCALARS, h, w, scalars=scalars)
        self.board = board
        # Each plane's first index in the flat (channel, cell) array.
        self._offset: dict[str, int] = {n: i * h * w for n, i in _PLANE_INDEX.items()}
        # Square names -> flat indices, made once: each plane is filled by one
        # fancy-indexed assignment per list of names.
        self._index: dict[str, int] = {
            Square(r, c).name: r * w + c for r in range(h) for c in range(w)
        }
        static = np.zeros((7 + len(_MARKERS), h, w), dtype=np.float32)
        static[0] = ~board.passable
        static[1] = board.opaque
        static[2] = np.clip(board.cyl / MAX_TERRAIN_CYL, 0, 1)
        static[3] = board.walls_h[:-1]
        static[4] = board.walls_v[:, 1:]
        static[5] = board.walls_h[1:]
        static[6] = board.walls_v[:, :-1]
        for k, marker in enumerate(_MARKERS):
            for sq in board.markers.get(marker, ()):
                static[7 + k, sq.row, sq.col] = 1
        self._static = static.reshape(len(static), self._cells)
        # The planes a model may mark, by what decides it (a kind is "own" or "enemy"
        # for heroes and allies, by whether the model is on the seat's team).
        off = self._offset
        self._by_kind: dict[tuple[str, bool], int] = {}
        for kind in ("hero", "ally"):
            self._by_kind[kind, True] = off[f"own_{kind}"]
            self._by_kind[kind, False] = off[f"enemy_{kind}"]
        for kind in ("bogey", "ping"):
            self._by_kind[kind, True] = self._by_kind[kind, False] = off[kind]
        self._by_facing = {f: off[f"facing_{f}"] for f in FACINGS}
        self._by_state = {k: off[p] for k, p in _STATE_PLANES.items()}
        self._by_tier: dict[object, int] = {t: off[f"tier_{t}"] for t in TIERS}
        self._by_flag = {f: off[f"flag_{f}"] for f in _FLAGS}
        self._numbers = [(key, off[key], scale) for key, scale in _NUMBERS]
        # A door's edge -> the squares on both sides of it (those on the map).
        self._door_squares: dict[str, list[int]] = {}
        for edge in board.doors:
            r, c = edge.row, edge.col
            sides = [(r, c), (r - 1, c) if edge.kind == "h" else (r, c - 1)]
            self._door_squares[edge.name] = [
                rr * w + cc for rr, cc in sides if 0 <= rr < h and 0 <= cc < w
            ]

    def _idx(self, names: Iterable[str | None]) -> list[int]:
        index = self._index
        return [index[n] for n in names if n is not None and n in index]

    def _own_team(self, d: Mapping[str, Any], seat: str | None) -> str | None:
        """The team whose characters are "own": the seat's (a spectator: the first)."""
        sides = list(d["sides"])
        if seat in d["sides"]:
            return seat
        return sides[0] if sides else None

    def encode(self, view: PlayerView) -> Observation:
        d: Mapping[str, Any] = view.data
        seat = view.seat
        planes = self.blank(self._static)

        # Every (plane, square, value) is gathered first, as an index into the flat
        # array, and written in one fancy-indexed assignment: a view has a few dozen
        # models, each on a few planes (most on one square).
        at: list[int] = []
        values: list[float] = []
        offset = self._offset

        def mark(plane: str, squares: list[int], value: float = 1.0) -> None:
            o = offset[plane]
            for sq in squares:
                at.append(o + sq)
                values.append(value)

        for name, is_open in d["doors"].items():
            mark("door_open" if is_open else "door_closed", self._door_squares.get(name, []))
        for name, done in d["objectives"].items():
            mark("objective_done" if done else "objective_open", self._idx([name]))

        own_team = self._own_team(d, seat)
        solo = d["mode"] == "solo"
        acted = set(d["acted"])
        cqb = {x for entry in d["cqb_queue"] for x in entry[:2]}
        dependent = set(d["dependent"] or ())
        task = set((d.get("task_bogeys") or {}).values())
        mine = d["sides"].get(own_team) if own_team is not None else None
        observed = set(mine["observed"]) if mine is not None else set()
        active = d["active"]
        index = self._index
        o_active, o_acted, o_cyl = offset["active_model"], offset["acted"], offset["model_cyl"]
        cyl_scale = float(MAX_MODEL_CYL)
        o_targeted, o_cqb = offset["targeted"], offset["in_cqb"]
        o_dependent, o_task, o_observed = (
            offset["dependent"],
            offset["task_bogey"],
            offset["observed"],
        )
        by_kind, by_facing, by_state = self._by_kind, self._by_facing, self._by_state
        by_tier, by_flag = self._by_tier, self._by_flag
        numbers = self._numbers
        for m in d["models"]:
            squares = [index[n] for n in m["squares"] if n in index]
            if not squares:
                continue
            kind, mid = m["kind"], m["id"]
            # The planes this model marks with 1, then those with a number.
            ones: list[int] = []
            o = by_kind.get((kind, solo or m.get("team") == own_team))
            if o is not None:
                ones.append(o)
            if mid == active:
                ones.append(o_active)
            if mid in acted:
                ones.append(o_acted)
            if kind != "ping":  # a ping's facing means nothing
                o = by_facing.get(m["facing"])
                if o is not None:
                    ones.append(o)
            o = by_state.get(m["state"])
            if o is not None:
                ones.append(o)
            if m.get("targeted"):
                ones.append(o_targeted)
            o = by_tier.get(m.get("tier"))
            if o is not None:
                ones.append(o)
            for flag in m.get("flags", ()):
                o = by_flag.get(flag)
                if o is not None:
                    ones.append(o)
            if mid in cqb:
                ones.append(o_cqb)
            if mid in dependent:
                ones.append(o_dependent)
            if mid in task:
                ones.append(o_task)
            if mid in observed:
                ones.append(o_observed)
            for o in ones:
                for sq in squares:
                    at.append(o + sq)
            values += [1.0] * (len(ones) * len(squares))
            if "cyl" in m:
                value = _frac(m["cyl"], cyl_scale)
                for sq in squares:
                    at.append(o_cyl + sq)
                    values.append(value)
            for key, o, scale in numbers:
                if m.get(key):
                    value = _frac(m[key], scale)
                    for sq in squares:
                        at.append(o + sq)
                        values.append(value)
        planes.reshape(-1)[at] = values

        return self.finish(planes, self._scalars(d, seat, own_team))

    def _scalars(
        self, d: Mapping[str, Any], seat: str | None, own_team: str | None
    ) -> npt.NDArray[np.float32]:
        """The scalar features of a view, each in ``[0, 1]`` (see :data:`SCALARS`)."""
        # A list, made an array once: numpy's item assignment costs more than the work.
        v = [0.0] * len(SCALARS)
        s = _SCALAR_INDEX

        def put(name: str, value: float) -> None:
            v[s[name]] = value

        put("turn", _frac(d["turn"], MAX_TURNS))
        if f"phase_{d['phase']}" in s:
            put(f"phase_{d['phase']}", 1.0)
        versus = d["mode"] != "solo"
        put("versus", float(versus))
        if seat is not None and seat in d["sides"]:
            over = d["phase"] == Phase.OVER
            put("my_turn", float(not over and (not versus or d["turn_seat"] == seat)))
            put("red_answers_me", float(not versus or d["red_seat"] == seat))
        put("steps", _frac(d["steps"], MAX_STEPS))
        put("bonus", _frac(d["bonus"], MAX_BONUS))
        put("cautious", float(d["cautious"]))
        deck = d["deck"]
        put("deck_left", _frac(deck["left"], DECK))
        put("discard", _frac(len(deck["discard"]), DECK))
        put("set_aside", _frac(deck["set_aside"], DECK))
        put("second_deck", float(deck["second_deck"]))
        put("to_flip", _frac(len(deck["to_flip"] or ()), DECK))
        put("flips", _frac(d["flips"], MAX_FLIPS))
        put("cqb_waiting", _frac(len(d["cqb_queue"]), MAX_MODELS))
        put("dependent_waiting", float(bool(d["dependent"])))
        objectives = d["objectives"]
        put("objectives_done", _frac(sum(objectives.values()), len(objectives)))
        put("exited", _frac(len(d["exited"]), MAX_MODELS))
        put("dead", _frac(len(d["dead"]), MAX_MODELS))

        # XP by side: a character's side is the team its model shows (solo: the team).
        teams = {m["id"]: m.get("team", own_team) for m in d["models"]}
        own_xp = enemy_xp = 0
        for char, xp in d["xp"].items():
            team = teams.get(char, own_team)
            if team == own_team or not versus:
                own_xp += xp
            else:
                enemy_xp += xp
        put("own_xp", _frac(own_xp, MAX_XP))
        put("enemy_xp", _frac(enemy_xp, MAX_XP))

        mine = d["sides"].get(own_team) if own_team is not None else None
        if mine is not None and mine["hand_size"] is not None:
            put("hand_size", _frac(mine["hand_size"], MAX_HAND))  # solo: public
        hand = d.get("hand")
        if hand is not None:
            counts = dict.fromkeys(_HAND_TIERS, 0)
            for card in hand:
                counts[_hand_tier(card)] += 1
            for tier, n in counts.items():
                put(f"hand_{tier}", _frac(n, MAX_HAND))
        for team, side in d["sides"].items():
            who = "own" if team == own_team else "other"
            if who == "own" and side["task"] in TASKS:
                put(f"task_{side['task']}", 1.0)
            put(f"{who}_buying_time", float(bool(side["buying_time"])))
            put(f"{who}_acquired", float(bool(side["acquired"])))
            put(f"{who}_verified", float(bool(side["verified"])))
            put(f"{who}_recorded", float(side["recorded"]))
            put(f"{who}_played", _frac(side["played"], DECK))
        return np.array(v, dtype=np.float32)
