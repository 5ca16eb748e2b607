"""A brute-force oracle for the Specter Ops possibility map (SO-I2).

Independent of ``fogofwar.games.specter_ops.knowledge`` and of the engine's state: it
shares no code with the engine's map, only the public board (terrain, roads, markers),
the sight model of ``fogofwar.core.sight``, the compass of ``geometry.bearing`` and the
card *data* of ``characters`` (ids, uses, owners, public or hidden, before / after).
It is fed the *public* events of a game (``Event.to is None``: what a spectator and
every hunter are told) and keeps the set of hidden **worlds** consistent with them:

    world = (agent square, steps of its last move, one objective site per sector, kit,
             role)

where a **kit** is the agent's character and its cards with the uses left (SO-S4,
SO-A8), written as the engine writes it: ``(character, ((card, uses), ...))`` sorted by
card. In the base game (switch ``characters`` off) every world has the empty kit
``("", ())``. With 2–3 players the sites are public (the setup event names them), so
every world has the same sites; with 4 players they are secret (SO-S3) and each
sector's site is one of the distinct squares of its six ``objective.J.K`` markers.
The **role** is ``(traitor figure, whether it has had a concealed sighting yet)``; every
world has ``("", False)`` except in the 5-player traitor game (below).

Facts applied (rule IDs as in ``rules/specter-ops.md``):

* setup (SO-S4): once the agent is ready, every character and every hand of the right
  size (3 cards with 2–3 players, 5 with 4) from the character's pool (the generic cards
  and its own unique card), each card with its full uses;
* the agent's move (SO-A1…A6): every legal path from the world's square is enumerated
  (one step at a time to one of the 8 neighbours; no blocking terrain, no hunter on
  foot, no squeezing between two blocking-terrain squares that touch corner to corner
  (hunters are not terrain); the vehicle's square may be crossed but not ended on, nor
  may a hunter's square — unless the agent has no legal step at all), and for each path
  the announcement the rules would make is worked out from the hunters' public squares:
  ``revealed`` at the end square if seen there, else ``last_seen`` at the last seen
  square of the path (the start included), else nothing. Worlds whose announcement
  differs are dropped;
* the agent's equipment (SO-A7, SO-A8), for each world every use its kit allows:
  a *hidden* card (never announced) may have been used — Adrenal Surge before the move
  (up to 6 steps), Stealth Field before or after (it lasts the turn: the path and the
  end are seen only by hunters within 2 squares), Holo Decoy after (Blue Jay: the Last Seen
  token on any square a hunter saw during the move and that the agent could have been
  on in a legal move this turn, its real end unseen) — within the per-turn limit
  (``equipment_per_turn`` 1: one card a turn, so none hidden when a public one was used;
  2: one before and one after, not the same card twice); a *public* use (the
  ``equipment`` event: Flash Bang, Smoke Grenade, Venom Dart, Med Kit, Signal Jammer)
  keeps the kits that hold the card with a use left (one fewer now) and, for a target,
  the squares within 4 of it at the moment of use (before the move: the start square;
  after: the end square). Smoke: the 3×3 area around the target blocks sight (not
  movement) until the end of the agent's next turn;
* "Clear" / visible answers (SO-H3; after a drive: every hunter aboard too, SO-L3) and
  attack distances (SO-X1);
* the Cobra's ambush: a hunter on foot that ends its move on or orthogonally next to
  the hidden agent (its figure not on the board) is ambushed by a Cobra — an ``ambush``
  event places a Cobra there (on the hunter's square without a roll, next to it with
  one); its absence rules that out for every Cobra kit;
* the Beast's sniff: within 4 squares (king distance) of the Beast, or not;
* the motion sensor (SO-V5, SO-V6): "no movement detected" = at most 2 steps, otherwise
  at least 3 steps and the compass point from the vehicle; "jammed" (the Spider's Signal
  Jammer) tells nothing;
* objectives at the start of the agent's turn (SO-O1…O3): each completed site was within
  the kit's range of the agent (next to it; within 2 for Blue Jay); every other
  uncompleted sector's site was not;
* the character card turned face up at the first reveal (SO-S4, SO-A5): the oracle
  also checks that it comes exactly then, with the character's starting health;
* the escape rule (SO-E1): with 3 objectives done, a game that goes on after the
  agent's move means the agent is not on an escape point that no hunter holds (SO-E2).

The traitor game (5 players, SO-T2…T5): the public ``roles_dealt`` event makes one
world per hunter figure ``t`` as the traitor, with the flag off. In world ``t`` only the
*other* hunters place the hidden agent (SO-T3): a move's result (revealed / Last Seen /
hidden) is worked out from their sight, on the path and at the end (the traitor's
figure still blocks the agent's steps and ends like any hunter's); when a move ends not
revealed, a world ``(t, False)`` whose end square ``t`` sees (with a Stealth Field:
within 2) becomes ``(t, True)`` — a concealed sighting. At a hunter's "Clear" the
viewers other than ``t`` saw nothing, and if the agent's figure is not on the board a
world ``(t, False)`` on a square ``t`` sees becomes ``(t, True)``; a "visible" answer
about a hidden agent needs a viewer other than ``t`` that sees the square (a loyal one
placed it). A figure already on the board is seen by every viewer, ``t`` too. A failed
accusation of ``X`` (the public ``accusation`` event) drops the worlds ``(X, True)``: X
had no concealed sighting; a proven one keeps only them. ``traitor_revealed`` of ``X``
keeps the worlds with traitor ``X`` (the reveal publishes no record of its sightings).
X's figure then leaves the hunters (sight, blocking, escape points). An oracle follows
one agent figure (``agent``, A1 by default): the events about the other one (``agent``:
``"A2"``) tell nothing about it and are passed over, except their round and a Smoke
Grenade (which blocks every hunter's sight). An oracle made with ``agent="A2"`` keeps the
second agent's worlds from its ``second_agent`` event on (its square public; with
characters, any character and 2 cards of its pool; no objectives of its own, SO-T5).
The two agents' worlds are tied by one fact only, SO-T5's "a character not in use": a
comparison takes :meth:`Oracle.apart_from` the other agent's oracle. An escape names the
agent's square (SO-E1), which keeps the worlds on it.

A *hunter seat's* oracle is fed the events that seat is told too (``role``,
``concealed_sighting``): a loyal hunter keeps the worlds where another figure is the
traitor; the traitor (``me``) keeps its own, and at each concealed moment knows whether
it had a sighting — if so the agent is on that square, if not on none it sees.


Path enumeration is exhaustive but memoised on (square, steps so far, last seen square
so far), which is all a path's announcement and end depend on; ``naive_outcomes``
enumerates the explicit paths without the memo (for cross-checking on a few starts).
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from fogofwar.core.grid import Board, Square
from fogofwar.core.sight import orthogonal_visible
from fogofwar.games.specter_ops.characters import AGENTS, CARDS
from fogofwar.games.specter_ops.geometry import bearing

__all__ = [
    "MAX_STEPS",
    "NO_KIT",
    "NO_ROLE",
    "POLICIES",
    "Kit",
    "Oracle",
    "Outcome",
    "PathWorld",
    "Role",
    "TurnPlan",
    "choose",
    "choose_with_cards",
    "engine_moves",
    "engine_turns",
    "public_events",
    "truth_kit",
]

MAX_STEPS = 4  # SO-A1
SURGE_STEPS = 6  # Adrenal Surge
LONG_MOVE = 3  # SO-V5: 3 or more steps are detected by the sensor
OBJECTIVES_TO_ESCAPE = 3  # SO-E1
STEALTH_RANGE = 2  # Stealth Field
SNIFF_RANGE = 4  # the Beast
BASE_HEALTH = 4  # SO-S6

ADRENAL, STEALTH, DECOY = "adrenal-surge", "stealth-field", "holo-decoy"

#: One way a move can end: (result, announced square or None, end square, steps).
Outcome = tuple[str, int | None, int, int]
#: A raw walk: (end square, steps, last square of the path some hunter saw, or None).
Walk = tuple[int, int, int | None]
#: The agent's character and cards with their uses left, sorted by card.
Kit = tuple[str, tuple[tuple[str, int], ...]]
NO_KIT: Kit = ("", ())
#: The traitor game's hidden role: (traitor figure, had a concealed sighting yet).
Role = tuple[str, bool]
NO_ROLE: Role = ("", False)
#: The events that name their agent (``agent``: "A1" or "A2") once there are two (SO-T5).
PER_AGENT = frozenset(
    {
        "agent_ready",
        "agent_turn",
        "agent_moved",
        "announcement",
        "sniff",
        "sensor",
        "attack",
        "ambush",
        "escaped",
        "equipment",
        "character_revealed",
    }
)
#: The hidden combination a set of (square, steps) worlds shares.
Key = tuple[tuple[int, ...], Kit, Role]


def public_events(events: Iterable[Any]) -> list[dict[str, Any]]:
    """The JSON form of the events everyone is told (``to is None``)."""
    return [e.to_json() for e in events if e.to is None]


def truth_kit(state: Any, index: int | None = None) -> Kit:
    """The true kit of the agent in focus (or of ``state.agents[index]``) as the oracle
    writes it (the empty kit until it is ready).

    During the agent's turn, a hidden card it has used already is counted as unused:
    the hunters learn of (allow for) hidden uses only when the move is over."""
    agent = state.focus if index is None else state.agents[index]
    picking = state.phase.startswith("pick") and agent is state.focus
    if not state.with_characters or picking:
        return NO_KIT
    cards = dict(agent.cards)
    if state.phase in ("agent", "agent_after") and agent is state.focus:
        for card in (agent.used_before, agent.used_after):
            if card and not CARDS[card].public:
                cards[card] += 1
    return (agent.character, tuple(sorted(cards.items())))


def _uses(kit: Kit, card: str) -> int:
    return dict(kit[1]).get(card, 0)


def _spend(kit: Kit, card: str) -> Kit:
    return (kit[0], tuple((c, n - 1 if c == card else n) for c, n in kit[1]))


@dataclass
class PathWorld:
    """The positions the rules need to judge an agent's path: all public.

    ``seen`` is what the hunters see while the agent moves (SO-A6), ``end_seen`` what
    they see when the move ends (SO-A5; ``None``: the same). They differ with a Stealth
    Field used after the move or a smoke grenade thrown after it.
    """

    foot: frozenset[int]  # hunters on foot: not enterable (SO-A1), not an end (SO-A3)
    vehicle: int  # crossable, not an end (SO-A3, SO-V3)
    seen: frozenset[int]  # squares some hunter sees (SO-L*)
    end_seen: frozenset[int] | None = None
    limit: int = MAX_STEPS
    memo: dict[tuple[int, int, int | None], frozenset[Walk]] = field(default_factory=dict)

    @property
    def at_end(self) -> frozenset[int]:
        return self.seen if self.end_seen is None else self.end_seen


class Oracle:
    """The set of hidden worlds consistent with the public events fed so far."""

    def __init__(
        self,
        board: Board,
        players: int,
        *,
        characters: bool = False,
        per_turn: int = 1,
        agent: str = "A1",
    ) -> None:
        if agent not in ("A1", "A2"):
            raise ValueError(f"the oracle follows agent A1 or A2, not {agent!r}")
        wh, wv = board.walls()
        if wh[1:-1].any() or wv[:, 1:-1].any() or board.doors:
            raise ValueError("the oracle's step rule knows no walls or doors")
        self.board = board
        self.agent = agent  # the agent figure whose worlds are kept (A2: SO-T5)
        self.width = board.width
        self.height = board.height
        self.players = players
        self.characters = characters
        self.per_turn = per_turn
        self.passable = frozenset(int(i) for i in np.flatnonzero(board.passable.ravel()))
        self._rc = [divmod(i, self.width) for i in range(self.width * self.height)]
        self._terrain_steps: dict[int, tuple[int, ...]] = {}
        self._sight: dict[tuple[int, frozenset[int]], frozenset[int]] = {}
        escapes = list(board.marker("escape"))
        if players >= 5 and "escape.five" in board.markers:
            escapes += list(board.marker("escape.five"))
        self.escape = frozenset(self.idx(s) for s in escapes)
        self.candidates: list[tuple[int, ...]] = []
        j = 1
        while f"objective.{j}.1" in board.markers:
            sites = [self.idx(board.marker(f"objective.{j}.{k}", count=1)[0]) for k in range(1, 7)]
            self.candidates.append(tuple(sorted(set(sites))))
            j += 1
        # -- public table, tracked from the events alone
        self.hunters: dict[str, list[Any]] = {}  # id -> [square, aboard]
        self.vehicle = -1
        self.current: str | None = None
        self.drove = False
        self.done: dict[int, int] = {}  # sector (0-based) -> its completed site
        self.pending: list[tuple[int, int]] = []  # completions announced this turn start
        self.over = False
        self.round = 0
        self.shown = True  # the agent's figure is on the board (public); at the start too
        self.character_public = not characters
        self.smokes: list[tuple[frozenset[int], int]] = []  # (area, round it lasts through)
        self.path_smoke: frozenset[int] = frozenset()  # the smoke while the agent moved
        self.public_before = ""  # public cards used this agent turn (SO-A7)
        self.public_after = ""
        self.after_near: frozenset[int] | None = None  # an after-card's target zone
        self.ambushed = False  # an ambush event came with this hunter's move
        self.revealed_now = False  # a reveal in the batch being fed
        self.traitor = ""  # the revealed traitor's figure (SO-T5)
        self.me = ""  # a traitor seat's oracle: its own figure (SO-T2)
        self.sighting: int | None = None  # its concealed sighting in this batch
        self.escaped = False  # the agent followed left the board (SO-E1, SO-T6)
        # -- the worlds: (sites, kit, role) -> frozenset of (square, steps of the last move)
        self.worlds: dict[Key, frozenset[tuple[int, int]]] = {}
        self.log: list[str] = []  # what was applied, for failure messages
        self.hidden_uses = 0  # worlds' hidden card options that stayed consistent

    # ------------------------------------------------------------------ squares

    def idx(self, square: Square) -> int:
        return square.row * self.width + square.col

    def parse(self, name: str) -> int:
        return self.idx(self.board.square(name))

    def name(self, i: int) -> str:
        return Square(*divmod(i, self.width)).name

    def smoke(self) -> frozenset[int]:
        out: frozenset[int] = frozenset()
        for area, _ in self.smokes:
            out |= area
        return out

    def sight(self, viewer: int, smoke: frozenset[int] = frozenset()) -> frozenset[int]:
        """Squares a hunter on ``viewer`` sees (SO-L1, SO-L2, SO-L5), smoke blocking."""
        key = (viewer, smoke)
        got = self._sight.get(key)
        if got is None:
            extra = None
            if smoke:
                extra = np.zeros((self.height, self.width), dtype=np.bool_)
                for i in smoke:
                    extra[divmod(i, self.width)] = True
            mask = orthogonal_visible(
                self.board.opaque,
                divmod(viewer, self.width),
                roads=self.board.roads,
                road_rule=True,
                extra_opaque=extra,
            )
            got = frozenset(int(i) for i in np.flatnonzero(mask.ravel()))
            self._sight[key] = got
        return got

    def neighbours(self, i: int) -> list[int]:
        r, c = divmod(i, self.width)
        out = []
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if (dr or dc) and 0 <= r + dr < self.height and 0 <= c + dc < self.width:
                    out.append((r + dr) * self.width + c + dc)
        return out

    def king(self, a: int, b: int) -> int:
        ar, ac = self._rc[a]
        br, bc = self._rc[b]
        return max(abs(ar - br), abs(ac - bc))

    def adjacent(self, a: int, b: int) -> bool:
        return self.king(a, b) == 1

    def within(self, origin: int, distance: int) -> frozenset[int]:
        return frozenset(
            i for i in range(self.width * self.height) if self.king(i, origin) <= distance
        )

    def can_step(self, a: int, b: int, foot: frozenset[int]) -> bool:
        """One step ``a`` → ``b`` for the agent (SO-A1, SO-A2)."""
        return b not in foot and b in self.steps_from(a)

    def steps_from(self, a: int) -> tuple[int, ...]:
        """The squares one step from ``a`` on the terrain (SO-A1, SO-A2), hunters aside."""
        got = self._terrain_steps.get(a)
        if got is None:
            got = self._terrain_steps[a] = tuple(
                t for t in self.neighbours(a) if self._terrain_step(a, t)
            )
        return got

    def _terrain_step(self, a: int, b: int) -> bool:
        if not self.adjacent(a, b) or b not in self.passable:
            return False
        ar, ac = divmod(a, self.width)
        br, bc = divmod(b, self.width)
        if ar != br and ac != bc:
            side_a, side_b = ar * self.width + bc, br * self.width + ac
            # Hunters are not terrain: they never shut a side (SO-A2).
            shut_a = side_a not in self.passable
            shut_b = side_b not in self.passable
            if shut_a and shut_b:
                return False  # SO-A2: no squeezing through a touching corner
        return True

    # ------------------------------------------------------------------ paths

    def seen_by_hunters(
        self, smoke: frozenset[int], *, stealth: bool = False, exclude: str = ""
    ) -> frozenset[int]:
        """Squares some hunter sees (aboard: from the vehicle, SO-L3); with a Stealth
        Field only those within 2 squares of the hunter. ``exclude``: a hunter whose
        sight places nothing (the traitor of a world, SO-T3)."""
        seen: set[int] = set()
        for hid, (sq, _) in self.hunters.items():
            if hid == exclude:
                continue
            got = self.sight(sq, smoke)
            if stealth:
                got = frozenset(i for i in got if self.king(i, sq) <= STEALTH_RANGE)
            seen |= got
        return frozenset(seen)

    def path_world(self, *, limit: int = MAX_STEPS) -> PathWorld:
        foot = frozenset(sq for sq, aboard in self.hunters.values() if not aboard)
        return PathWorld(foot, self.vehicle, self.seen_by_hunters(self.smoke()), limit=limit)

    def _end_ok(self, sq: int, pw: PathWorld) -> bool:
        return sq != pw.vehicle and sq not in pw.foot  # SO-A3

    @staticmethod
    def _judge(end: int, last_seen: int | None, end_seen: frozenset[int]) -> tuple[str, int | None]:
        if end in end_seen:
            return ("revealed", end)  # SO-A5
        if last_seen is not None:
            return ("last_seen", last_seen)  # SO-A6
        return ("hidden", None)

    def _trapped(self, start: int, pw: PathWorld) -> bool:
        """No legal step at all (the agent may then stay even where it may not end)."""
        for t in self.neighbours(start):
            if not self.can_step(start, t, pw.foot):
                continue
            if t != pw.vehicle:
                return False
            if any(u != t and self.can_step(t, u, pw.foot) for u in self.neighbours(t)):
                return False
        return True

    def _walk(self, sq: int, steps: int, last_seen: int | None, pw: PathWorld) -> frozenset[Walk]:
        key = (sq, steps, last_seen)
        got = pw.memo.get(key)
        if got is not None:
            return got
        out: set[Walk] = set()
        if self._end_ok(sq, pw):
            out.add((sq, steps, last_seen))
        if steps < pw.limit:
            for t in self.steps_from(sq):
                if t not in pw.foot:
                    out |= self._walk(t, steps + 1, t if t in pw.seen else last_seen, pw)
        result = frozenset(out)
        pw.memo[key] = result
        return result

    def walks(self, start: int, pw: PathWorld) -> frozenset[Walk]:
        """Every (end, steps, last seen square) of a legal move from ``start``."""
        first_seen = start if start in pw.seen else None
        out = self._walk(start, 0, first_seen, pw)
        if not self._end_ok(start, pw) and self._trapped(start, pw):
            out = out | {(start, 0, first_seen)}
        return out

    def outcomes(self, start: int, pw: PathWorld) -> frozenset[Outcome]:
        """Every (result, announced square, end, steps) of a legal move from ``start``."""
        return frozenset(
            (*self._judge(end, seen, pw.at_end), end, steps)
            for end, steps, seen in self.walks(start, pw)
        )

    def naive_outcomes(self, start: int, pw: PathWorld) -> set[Outcome]:
        """:meth:`outcomes` by listing every explicit path (slow; for cross-checks)."""
        out: set[Outcome] = set()
        paths: list[list[int]] = [[start]]
        while paths:
            path = paths.pop()
            end = path[-1]
            if self._end_ok(end, pw) or (len(path) == 1 and self._trapped(start, pw)):
                visible = [s for s in path if s in pw.seen]
                last = visible[-1] if visible else None
                out.add((*self._judge(end, last, pw.at_end), end, len(path) - 1))
            if len(path) - 1 < pw.limit:
                for t in self.neighbours(end):
                    if self.can_step(end, t, pw.foot):
                        paths.append([*path, t])
        return out

    def move_squares(self, start: int, pw: PathWorld) -> frozenset[int]:
        """Every square the agent could stand on during a legal move from ``start``
        (its start, and each square of a walk that can still end legally in time)."""
        out = {start}
        layer = {start}
        for k in range(1, pw.limit + 1):
            layer = {t for s in layer for t in self.neighbours(s) if self.can_step(s, t, pw.foot)}
            for x in layer:
                if x != pw.vehicle:
                    out.add(x)  # a legal end itself
                elif k < pw.limit and any(
                    u != x and self.can_step(x, u, pw.foot) for u in self.neighbours(x)
                ):
                    out.add(x)  # crossed, with a step to spare and a way off (SO-A3)
        return frozenset(out)

    def decoy_squares(self, start: int, limit: int) -> frozenset[int]:
        """Where a Holo Decoy from ``start`` may go: a square some hunter saw during the
        move that the agent could have been on in a legal move of ``limit`` steps."""
        foot = frozenset(sq for sq, aboard in self.hunters.values() if not aboard)
        pw = PathWorld(foot, self.vehicle, frozenset(), limit=limit)
        return self.move_squares(start, pw) & self.seen_by_hunters(self.path_smoke)

    def turns(self, start: int, kit: Kit) -> set[tuple[Any, ...]]:
        """Every way the agent on ``start`` with ``kit`` may play its turn now, with no
        public card: ``(result, announced square, end, steps, card before, card after)``
        (cards: hidden ones, or "")."""
        out: set[tuple[Any, ...]] = set()
        foot = frozenset(sq for sq, aboard in self.hunters.values() if not aboard)
        path_seen = {s: self.seen_by_hunters(self.path_smoke, stealth=s) for s in (False, True)}
        end_seen = {s: self.seen_by_hunters(self.smoke(), stealth=s) for s in (False, True)}
        for before, after in self._options(kit):
            limit = SURGE_STEPS if before == ADRENAL else MAX_STEPS
            stealth = STEALTH in (before, after)  # the whole turn, whenever used
            pw = PathWorld(foot, self.vehicle, path_seen[stealth], limit=limit)
            at_end = end_seen[stealth]
            decoys = path_seen[False] & self.move_squares(start, pw)
            for end, steps, seen in self.walks(start, pw):
                if after != DECOY:
                    out.add((*self._judge(end, seen, at_end), end, steps, before, after))
                elif end not in at_end:
                    out |= {("last_seen", d, end, steps, before, after) for d in decoys}
        return out

    # ------------------------------------------------------------------ results

    def squares(self, keep: Callable[[Role], bool] | None = None) -> set[int]:
        """The possibility map: every square of some consistent world (whose role passes
        ``keep``, if given: a loyal hunter's map, SO-T3)."""
        out: set[int] = set()
        for role, squares in self.squares_by_role().items():
            if keep is None or keep(role):
                out |= squares
        return out

    def squares_by_role(self) -> dict[Role, set[int]]:
        """Per role, every square of some consistent world with that role: every seat's
        map (:meth:`squares`) from one pass over the worlds."""
        out: dict[Role, set[int]] = {}
        for (_, _, role), ws in self.worlds.items():
            got = out.get(role)
            if got is None:
                got = out[role] = set()
            got |= {sq for sq, _ in ws}
        return out

    def sites(self) -> tuple[frozenset[int], ...]:
        """Per sector, the sites of some consistent world."""
        alive = [key[0] for key, ws in self.worlds.items() if ws]
        return tuple(frozenset(s[j] for s in alive) for j in range(len(self.candidates)))

    def kits(self) -> set[Kit]:
        """Every kit of some consistent world."""
        return {key[1] for key, ws in self.worlds.items() if ws}

    def roles(self) -> set[Role]:
        """Every role of some consistent world (SO-T2…T4)."""
        return {key[2] for key, ws in self.worlds.items() if ws}

    def pinned(self) -> str | None:
        """The character every consistent world gives the agent, if there is one (none
        in the base game, or before the second agent has chosen)."""
        chars = {key[1][0] for key, ws in self.worlds.items() if ws}
        return next(iter(chars)) if len(chars) == 1 and "" not in chars else None

    def apart_from(self, other: Oracle | None) -> Oracle:
        """This agent's worlds that some world of the ``other`` agent's oracle allows.

        SO-T5: the second agent's character is one not in use, so the two agents'
        characters differ. Every other public fact is about one agent alone, so the
        worlds of both together are the pairs of a world of each with two different
        characters, and a world of this agent belongs to such a pair unless every world
        of the other has its character. Returns this oracle, or a copy holding only
        those worlds (for comparisons: it is not fed)."""
        c = None if other is None else other.pinned()
        if c is None:
            return self
        twin = copy.copy(self)
        twin.worlds = {k: ws for k, ws in self.worlds.items() if k[1][0] != c}
        return twin

    def kit_squares(self) -> dict[Kit, tuple[int, int]]:
        """The worlds jointly, per kit: bitboards of the squares after a short move (at
        most 2 steps) and after a long one (3 or more, SO-V5)."""
        memo: dict[frozenset[tuple[int, int]], tuple[int, int]] = {}
        out: dict[Kit, tuple[int, int]] = {}
        for (_, kit, _), ws in self.worlds.items():
            got = memo.get(ws)
            if got is None:
                short = long = 0
                for sq, n in ws:
                    if n >= LONG_MOVE:
                        long |= 1 << sq
                    else:
                        short |= 1 << sq
                got = memo[ws] = (short, long)
            old = out.get(kit, (0, 0))
            out[kit] = (old[0] | got[0], old[1] | got[1])
        return out

    def holds(
        self, square: int, steps: int, sites: Sequence[int], kit: Kit = NO_KIT, role: Role = NO_ROLE
    ) -> bool:
        """Whether the world (square, steps, sites, kit, role) is still consistent."""
        return (square, steps) in self.worlds.get((tuple(sites), kit, role), frozenset())

    # ------------------------------------------------------------------ updates

    def _map(self, fn: Callable[..., Iterable[tuple[int, int]]], *, per_key: bool = False) -> None:
        """Replace each world set by ``fn(worlds)`` (or ``fn(sites, kit, worlds)`` with
        ``per_key``); drop the keys left with no world."""
        memo: dict[frozenset[tuple[int, int]], frozenset[tuple[int, int]]] = {}
        out = {}
        for key, ws in self.worlds.items():
            if per_key:
                got = frozenset(fn(key[0], key[1], ws))
            else:
                got = memo.get(ws)  # many keys share one world set
                if got is None:
                    got = memo[ws] = frozenset(fn(ws))
            if got:
                out[key] = got
        self.worlds = out

    def _filter(self, keep: Callable[[tuple[int, int]], bool]) -> None:
        self._map(lambda ws: {w for w in ws if keep(w)})

    def _filter_kits(self, keep: Callable[[Kit], bool]) -> None:
        self.worlds = {k: ws for k, ws in self.worlds.items() if keep(k[1])}

    def feed(self, events: Sequence[Mapping[str, Any]]) -> None:
        """Apply a batch of public events (all those of one action, in order).

        With two agents (SO-T5) an event about the other one tells nothing of the agent
        followed, but its round and its Smoke Grenade (which blocks every hunter's sight)
        are kept."""
        ours: list[Mapping[str, Any]] = []
        for e in events:
            if e["kind"] in PER_AGENT and e.get("agent", "A1") != self.agent:
                ours.append({**e, "kind": "other_" + e["kind"]})
            else:
                ours.append(e)
        events = ours
        # A hunter seat's oracle: the traitor is told of its concealed sighting (at most
        # one concealed moment per action), in the same batch.
        sightings = [self.parse(e["square"]) for e in events if e["kind"] == "concealed_sighting"]
        assert len(sightings) <= 1 and (not sightings or self.me), "a sighting to whom?"
        self.sighting = sightings[0] if sightings else None
        kinds = [e["kind"] for e in events]
        self.revealed_now = False
        had_character = self.character_public
        for e in events:
            self._event(e, escaped="escaped" in kinds)
        if self.characters and self.revealed_now and not had_character:
            # SO-S4: the character card is turned face up the first time it is seen.
            assert "character_revealed" in kinds, "revealed without its character card"
        if "character_revealed" in kinds:
            assert self.revealed_now and not had_character, "character card out of turn"

    def _event(self, e: Mapping[str, Any], *, escaped: bool) -> None:
        kind = e["kind"]
        self.log.append(f"{kind} {dict(e)}")
        if kind == "setup":
            self._setup(e)
        elif kind == "hunter_character":
            pass  # public, and nothing about the agent
        elif kind == "agent_ready":
            self._kits(int(e["cards"]))
        elif kind == "objectives_completed":
            completed = [(c["sector"] - 1, self.parse(c["site"])) for c in e["completed"]]
            if self.agent == "A1":
                self.pending = completed
            else:  # the second agent completes none (SO-T5): only the count matters
                self.done.update(completed)
        elif kind == "agent_turn":
            self.round = int(e["round"])
            if self.agent == "A1":
                self._objectives()  # SO-O1…O3: the first agent's only
            self.public_before = self.public_after = ""
            self.after_near = None
            self.path_smoke = self.smoke()
        elif kind == "equipment":
            self._equipment(e)
        elif kind == "agent_moved":
            self._moved(e["result"], None if e["square"] is None else self.parse(e["square"]))
            self.shown = e["result"] == "revealed"
            self.revealed_now |= self.shown
            if not escaped and len(self.done) >= OBJECTIVES_TO_ESCAPE:
                # SO-E1: the game goes on, so the agent is not on an escape point —
                # unless a hunter stands on it, which blocks it (SO-E2).
                held = {sq for sq, _ in self.hunters.values()}
                free = self.escape - held
                self._filter(lambda w: w[0] not in free)
            # Smoke lasts until the end of the agent's next turn (Smoke Grenade).
            self.smokes = [(a, until) for a, until in self.smokes if until > self.round]
        elif kind == "character_revealed":
            char = e["character"]
            self.character_public = True
            self._filter_kits(lambda k: k[0] == char)
            start = BASE_HEALTH + AGENTS[char].health_bonus + (2 if self.players == 4 else 0)
            assert e["health"] == start, "the agent is first seen with its starting health"
        elif kind == "escaped":
            # SO-E1: the agent left the board from that square, now public.
            here = self.parse(e["square"])
            self._filter(lambda w: w[0] == here)
            self.over = True
            self.escaped = True
        elif kind == "game_over":
            self.over = True
        elif kind in ("roles_dealt", "accusation", "role") and self.agent == "A2":
            pass  # about the first agent's worlds: the second does not exist yet
        elif kind == "roles_dealt":
            self._roles(e["hunters"])
        elif kind == "accusation":
            self._accusation(e["accused"], bool(e["proven"]))
        elif kind == "traitor_revealed":
            assert "concealed" not in e, "the reveal publishes no sighting record"
            self._traitor_revealed(e["hunter"], e["square"])
        elif kind == "second_agent":
            if self.agent == "A2":
                self._second_agent(e)
            # nothing about A1: the second agent's start is public
        elif kind == "role":
            self._own_role(e["hunter"], e["role"])
        elif kind == "other_agent_turn":
            self.round = int(e["round"])  # the round goes on for both agents
        elif kind == "other_equipment":
            if e["card"] == "smoke-grenade":  # it blocks sight for every hunter
                area = self.within(self.parse(e["square"]), 1)
                self.smokes.append((area, self.round + 1))
        elif kind == "other_agent_moved" and (not self.worlds or self.escaped):
            # Smoke lasts until the end of the round's last agent turn: the first
            # agent's, before the second agent is in the game or once it has escaped.
            self.smokes = [(a, until) for a, until in self.smokes if until > self.round]
        elif kind.startswith("other_"):
            pass  # the other agent's doings tell nothing of this one
        elif kind == "concealed_sighting":
            pass  # applied at its moment (``sighting``)
        elif kind in ("order", "stun_removed"):
            pass
        elif kind == "hunter_turn":
            self.current, self.drove, self.ambushed = e["hunter"], False, False
        elif kind in ("got_out", "hunter_step"):
            self.hunters[e["hunter"]] = [self.parse(e["square"]), False]
        elif kind == "got_in":
            self.hunters[e["hunter"]] = [self.parse(e["square"]), True]
        elif kind == "drive":
            self.vehicle = self.parse(e["square"])
            self.drove = True
            for h in self.hunters.values():
                if h[1]:
                    h[0] = self.vehicle
        elif kind == "ambush":
            self._ambush(e)
            self.ambushed = True
        elif kind == "announcement":
            if not self.ambushed:
                self._no_ambush(e["hunter"])
            self.ambushed = False
            self._announcement(e)
        elif kind == "sniff":
            here = self.hunters[e["hunter"]][0]
            near = bool(e["near"])
            self._filter(lambda w: (self.king(w[0], here) <= SNIFF_RANGE) == near)
        elif kind == "sensor":
            self._sensor(e["answer"])
        elif kind == "attack":
            here = self.hunters[e["hunter"]][0]
            dist = e["distance"]
            self._filter(lambda w: self.king(w[0], here) == dist)  # SO-X1
        else:
            raise AssertionError(f"the oracle does not know the public event {kind!r}")

    def _roles(self, hunters: Sequence[str]) -> None:
        """SO-T2: any hunter figure may be the traitor, with no concealed sighting yet."""
        assert self.players == 5, "a traitor only with 5 players (SO-G1)"
        assert {key[2] for key in self.worlds} == {NO_ROLE}, "roles dealt twice"
        self.worlds = {
            (sites, kit, (t, False)): ws
            for (sites, kit, _), ws in self.worlds.items()
            for t in hunters
        }

    def _own_role(self, hunter: str, role: str) -> None:
        """SO-T2: a hunter seat's oracle (fed that seat's events too) learns its role:
        the traitor knows the worlds with itself as traitor, a loyal hunter those with
        another."""
        if role == "traitor":
            self.me = hunter
            self.worlds = {k: ws for k, ws in self.worlds.items() if k[2][0] == hunter}
        else:
            self.worlds = {k: ws for k, ws in self.worlds.items() if k[2][0] != hunter}

    def _accusation(self, accused: str, proven: bool) -> None:
        """SO-T4 (R): an accusation is proven iff the accused is the traitor and has had a
        concealed sighting: a failed one rules out that world, a proven one keeps only it."""
        assert not self.traitor, "an accusation after the reveal"
        if proven:
            self.worlds = {k: ws for k, ws in self.worlds.items() if k[2] == (accused, True)}
        else:
            self.worlds = {k: ws for k, ws in self.worlds.items() if k[2] != (accused, True)}

    def _traitor_revealed(self, hunter: str, square: str) -> None:
        """SO-T4, SO-T5: the traitor is ``hunter``; its figure leaves the hunters (a second
        agent starts on its square). The reveal says nothing of its concealed sightings
        (a proven accusation already said there was one). With characters it stops."""
        assert self.hunters[hunter][0] == self.parse(square), "the traitor's square"
        self.worlds = {k: ws for k, ws in self.worlds.items() if k[2][0] == hunter}
        del self.hunters[hunter]
        self.traitor = hunter

    def _second_agent(self, e: Mapping[str, Any]) -> None:
        """SO-T5: the second agent starts on the revealed traitor's square, its figure on
        the board; with characters its character and 2 cards come next (``agent_ready``).
        Its character differs from the first agent's: the comparison reads that off
        both oracles (:meth:`apart_from`), since it ties the two agents' worlds."""
        assert self.traitor, "a second agent without a revealed traitor"
        start = self.parse(e["square"])
        self.worlds = {((), NO_KIT, NO_ROLE): frozenset({(start, 0)})}
        self.shown = True
        self.character_public = not self.characters
        if not self.characters:
            assert e["health"] == BASE_HEALTH, "the second agent's health (SO-T5)"

    def _setup(self, e: Mapping[str, Any]) -> None:
        self.vehicle = self.parse(e["vehicle"])
        self.hunters = {h: [self.vehicle, True] for h in e["hunters"]}  # SO-S2
        if self.agent == "A2":
            return  # no second agent until a reveal (SO-T5)
        start = self.parse(e["agent"])  # SO-S5: public
        if e["objectives"] is not None:  # SO-S3: 2-3 players, public sites
            combos: Iterable[tuple[int, ...]] = [
                tuple(self.parse(o["site"]) for o in e["objectives"])
            ]
        else:  # hidden: any candidate per sector
            combos = itertools.product(*self.candidates)
        self.worlds = {(tuple(c), NO_KIT, NO_ROLE): frozenset({(start, 0)}) for c in combos}

    def _kits(self, n: int) -> None:
        """SO-S4: any character, any ``n`` cards of its pool, every card unused (SO-T5:
        the second agent's 2 cards; its character is any but the first agent's, which
        :meth:`apart_from` applies)."""
        if self.agent == "A2":
            assert n == 2, "the second agent takes 2 cards (SO-T5)"
        else:
            assert n == (5 if self.players == 4 else 3), "cards per player count (SO-S4, SO-F1)"
        kits: list[Kit] = []
        for char in AGENTS:
            pool = sorted(c for c, card in CARDS.items() if card.owner in ("", char))
            for hand in itertools.combinations(pool, n):
                kits.append((char, tuple((c, CARDS[c].uses) for c in hand)))
        self.worlds = {
            (sites, kit, role): ws for (sites, _, role), ws in self.worlds.items() for kit in kits
        }

    def _reach(self, kit: Kit) -> int:
        """How far from its site the agent completes an objective (Blue Jay: 2)."""
        return AGENTS[kit[0]].objective_range if kit[0] else 1

    def _objectives(self) -> None:
        """SO-O1…O3 at the start of the agent's turn."""
        completed = dict(self.pending)
        self.pending = []
        open_sectors = [j for j in range(len(self.candidates)) if j not in self.done]
        for j in completed:
            if j in self.done:
                raise AssertionError(f"sector {j + 1} completed twice")

        memo: dict[Any, set[tuple[int, int]]] = {}

        def fn(sites: tuple[int, ...], kit: Kit, ws: frozenset[tuple[int, int]]) -> set[Any]:
            if any(sites[j] != s for j, s in completed.items()):
                return set()
            reach = self._reach(kit)
            got = memo.get((sites, reach, ws))
            if got is not None:
                return got
            ok: dict[int, bool] = {}
            for sq, _ in ws:
                if sq not in ok:
                    ok[sq] = all(self.king(sq, s) <= reach for s in completed.values()) and not any(
                        self.king(sq, sites[j]) <= reach for j in open_sectors if j not in completed
                    )
            got = memo[(sites, reach, ws)] = {w for w in ws if ok[w[0]]}
            return got

        self._map(fn, per_key=True)
        self.done.update(completed)

    def _equipment(self, e: Mapping[str, Any]) -> None:
        """A public card use (SO-A7, SO-A8): who may have had it, and where it was used."""
        card, moment = e["card"], e["moment"]
        assert CARDS[card].public, f"a hidden card announced: {card}"
        if moment == "before":
            assert not self.public_before, "two cards before the move"
            self.public_before = card
        else:
            assert not self.public_after, "two cards after the move"
            self.public_after = card
        used = sum(bool(c) for c in (self.public_before, self.public_after))
        assert used <= self.per_turn, "more cards than the turn allows (SO-A7)"
        new = {}
        for (sites, kit, role), ws in self.worlds.items():
            if _uses(kit, card) > 0:
                new[(sites, _spend(kit, card), role)] = ws  # SO-A8: one use fewer
        self.worlds = new
        near: frozenset[int] | None = None
        if card in ("flash-bang", "smoke-grenade"):
            target = self.parse(e["square"])
            near = self.within(target, CARDS[card].reach)
        elif card == "venom-dart":
            here, aboard = self.hunters[e["hunter"]]
            assert not aboard, "venom dart on a hunter aboard"
            near = self.within(here, CARDS[card].reach)
        if card == "smoke-grenade":
            area = self.within(self.parse(e["square"]), 1)
            assert sorted(e["area"]) == sorted(self.name(i) for i in area), "smoke area"
            self.smokes.append((area, self.round + 1))
        if moment == "before":
            self.path_smoke = self.smoke()
            if near is not None:
                zone = near
                self._filter(lambda w: w[0] in zone)
        else:
            self.after_near = near

    def _options(self, kit: Kit) -> list[tuple[str, str]]:
        """The (before, after) cards a kit could have played this turn (SO-A7): the public
        ones announced, or else any hidden card with a use left, within the limit."""
        both = self.per_turn >= 2

        def moment(public: str, other_public: str, cards: tuple[str, str], when: str) -> list[str]:
            if public:
                return [public]
            if not (both or not other_public):
                return [""]
            return [""] + [
                c
                for c in cards
                if not CARDS[c].public and CARDS[c].when in (when, "either")
                if _uses(kit, c) > 0
            ]

        befores = moment(self.public_before, self.public_after, (ADRENAL, STEALTH), "before")
        afters = moment(self.public_after, self.public_before, (STEALTH, DECOY), "after")
        out = []
        for b, a in itertools.product(befores, afters):
            if b and a and (b == a or not both):
                continue  # one card a turn, or one before and one after (not the same)
            out.append((b, a))
        return out

    def _moved(self, result: str, square: int | None) -> None:
        """SO-A1…A6, SO-A7: the agent's secret move, any hidden card a kit could have
        used, and the public result; in world ``t`` of the traitor game only the other
        hunters' sight places the agent, and ``t`` alone seeing it at the end of a move
        that was not revealed is a concealed sighting (SO-T3, SO-T4)."""
        foot = frozenset(sq for sq, aboard in self.hunters.values() if not aboard)
        path_smoke, end_smoke = self.path_smoke, self.smoke()
        pws: dict[tuple[str, int, bool], PathWorld] = {}
        cache: dict[tuple[str, int, str, str], frozenset[tuple[int, int]]] = {}
        after_near = self.after_near
        path_seen: dict[tuple[str, bool], frozenset[int]] = {}
        end_seen: dict[tuple[str, bool], frozenset[int]] = {}
        for t in {key[2][0] for key in self.worlds}:
            for s in (False, True):
                path_seen[(t, s)] = self.seen_by_hunters(path_smoke, stealth=s, exclude=t)
                end_seen[(t, s)] = self.seen_by_hunters(end_smoke, stealth=s, exclude=t)

        def ends(t: str, start: int, before: str, after: str) -> frozenset[tuple[int, int]]:
            key = (t, start, before, after)
            got = cache.get(key)
            if got is not None:
                return got
            limit = SURGE_STEPS if before == ADRENAL else MAX_STEPS
            stealth_path = STEALTH in (before, after)  # the whole turn, whenever used
            pw = pws.get((t, limit, stealth_path))
            if pw is None:
                pw = pws[(t, limit, stealth_path)] = PathWorld(
                    foot, self.vehicle, path_seen[(t, stealth_path)], limit=limit
                )
            at_end = end_seen[(t, STEALTH in (before, after))]
            out: set[tuple[int, int]] = set()
            if after == DECOY:
                # A false Last Seen token on a square a hunter saw and the agent could
                # have been on this turn; the real end is unseen.
                if (
                    result == "last_seen"
                    and square in path_seen[(t, False)]
                    and square in self.move_squares(start, pw)
                ):
                    out = {(e, n) for e, n, _ in self.walks(start, pw) if e not in at_end}
            else:
                for e, n, seen in self.walks(start, pw):
                    if self._judge(e, seen, at_end) == (result, square):
                        out.add((e, n))
            if after_near is not None:
                out = {w for w in out if w[0] in after_near}
            got = cache[key] = frozenset(out)
            return got

        unions: dict[tuple[str, frozenset[int], str, str], frozenset[tuple[int, int]]] = {}
        new: dict[Key, set[tuple[int, int]]] = {}
        for (sites, kit, role), ws in self.worlds.items():
            t = role[0]
            starts = frozenset(sq for sq, _ in ws)
            for before, after in self._options(kit):
                got = unions.get((t, starts, before, after))
                if got is None:
                    acc: set[tuple[int, int]] = set()
                    for s in starts:
                        acc |= ends(t, s, before, after)
                    got = unions[(t, starts, before, after)] = frozenset(acc)
                if not got:
                    continue
                new_kit = kit
                for card, public in ((before, self.public_before), (after, self.public_after)):
                    if card and card != public:
                        new_kit = _spend(new_kit, card)  # a hidden use (SO-A8)
                        self.hidden_uses += 1
                if t and not self.traitor and result != "revealed":
                    # SO-T3, SO-T4: the traitor alone sees the end: a concealed sighting.
                    mine = self.traitor_sight(t, end_smoke, stealth=STEALTH in (before, after))
                    got, role = self._concealed(sites, new_kit, role, got, mine, new)
                new.setdefault((sites, new_kit, role), set()).update(got)
        self.worlds = {k: frozenset(v) for k, v in new.items() if v}

    def _concealed(
        self,
        sites: tuple[int, ...],
        kit: Kit,
        role: Role,
        ws: Iterable[tuple[int, int]],
        mine: frozenset[int],
        new: dict[Key, set[tuple[int, int]]],
    ) -> tuple[set[tuple[int, int]], Role]:
        """A concealed moment (SO-T3, SO-T4) in world ``role`` whose traitor sees
        ``mine``: the worlds ``ws`` on those squares had a sighting. To the public a
        world (t, False) there becomes (t, True) (added to ``new``); the traitor's own
        oracle knows whether it had one (``sighting``): if so, the agent is on its square,
        if not, on none it sees. Returns the worlds left under the (new) role."""
        t = role[0]
        ws = set(ws)
        if t == self.me:
            if self.sighting is None:
                return {w for w in ws if w[0] not in mine}, role
            return {w for w in ws if w[0] == self.sighting}, (t, True)
        if role[1]:
            return ws, role
        seen = {w for w in ws if w[0] in mine}
        if seen:
            new.setdefault((sites, kit, (t, True)), set()).update(seen)
        return ws - seen, role

    def traitor_sight(
        self, t: str, smoke: frozenset[int], *, stealth: bool = False
    ) -> frozenset[int]:
        """What the hunter figure ``t`` sees (with a Stealth Field: within 2 squares)."""
        sq = self.hunters[t][0]
        got = self.sight(sq, smoke)
        if stealth:
            got = frozenset(i for i in got if self.king(i, sq) <= STEALTH_RANGE)
        return got

    def orthogonal(self, i: int) -> set[int]:
        """The up to 4 squares orthogonally next to ``i``."""
        r, c = divmod(i, self.width)
        return {
            (r + dr) * self.width + c + dc
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if 0 <= r + dr < self.height and 0 <= c + dc < self.width
        }

    def _ambush(self, e: Mapping[str, Any]) -> None:
        """The Cobra stuns a hunter that ends on it (no roll) or orthogonally next to it
        (on a d6 of 4+)."""
        assert self.characters and not self.shown, "an ambush by a figure on the board"
        here, aboard = self.hunters[e["hunter"]]
        assert not aboard and e["hunter"] == self.current, "an ambush of a hunter aboard"
        if e["roll"] is None:
            assert e["stunned"], "an ambush on the hunter's own square always stuns"
            place = {here}
        else:
            assert e["stunned"] == (e["roll"] >= 4), "an ambush next to it stuns on 4+"
            place = self.orthogonal(here)
        self._filter_kits(lambda k: k[0] == "cobra")
        self._filter(lambda w: w[0] in place)

    def _no_ambush(self, hunter: str) -> None:
        """No ambush event when a hunter on foot ended its move while the agent's figure
        was off the board: no Cobra on or orthogonally next to it."""
        here, aboard = self.hunters[hunter]
        if not self.characters or self.shown or aboard:
            return
        zone = self.orthogonal(here) | {here}

        def fn(sites: tuple[int, ...], kit: Kit, ws: frozenset[tuple[int, int]]) -> set[Any]:
            if kit[0] != "cobra":
                return set(ws)
            return {w for w in ws if w[0] not in zone}

        self._map(fn, per_key=True)

    def _announcement(self, e: Mapping[str, Any]) -> None:
        """SO-H3: "Clear" or visible, to this hunter (after a drive: all aboard too). In
        world ``t`` of the traitor game, ``t``'s own sight places nothing, and ``t``
        seeing the hidden agent at a "Clear" is a concealed sighting (SO-T3, SO-T4)."""
        viewers = {e["hunter"]}
        if self.drove:
            viewers |= {h for h, (_, aboard) in self.hunters.items() if aboard}
        smoke = self.smoke()
        seen: dict[str, frozenset[int]] = {}
        for t in {key[2][0] for key in self.worlds}:
            got: frozenset[int] = frozenset()
            # A figure on the board is seen by whoever looks, the traitor too; a hidden
            # agent only by a loyal viewer (SO-T3).
            for v in viewers if self.shown else viewers - {t}:
                got |= self.sight(self.hunters[v][0], smoke)
            seen[t] = got
        answer = e["answer"]
        if answer == "visible":
            at = self.parse(e["square"])
            if not any(at in got for got in seen.values()):
                raise AssertionError(f"visible at {e['square']}, which no viewer sees")
            # A viewer that places the agent is loyal: world t needs another one.
            self.worlds = {
                key: frozenset(w for w in ws if w[0] == at)
                for key, ws in self.worlds.items()
                if at in seen[key[2][0]] and any(w[0] == at for w in ws)
            }
            self.shown = True
            self.revealed_now = True
            return
        if answer != "clear":
            raise AssertionError(f"unknown answer {answer!r}")
        new: dict[Key, set[tuple[int, int]]] = {}
        for key, ws in self.worlds.items():
            sites, kit, role = key
            t = role[0]
            unseen = {w for w in ws if w[0] not in seen[t]}
            if t and not self.traitor and not self.shown:
                mine = self.traitor_sight(t, smoke)
                unseen, role = self._concealed(sites, kit, role, unseen, mine, new)
            if unseen:
                new.setdefault((sites, kit, role), set()).update(unseen)
        self.worlds = {k: frozenset(v) for k, v in new.items()}

    def _sensor(self, answer: str) -> None:
        """SO-V5, SO-V6 (and the Spider's Signal Jammer: nothing detected, nothing told)."""
        v = self.vehicle
        vs = Square(*divmod(v, self.width))
        if answer == "jammed":
            assert self.characters
        elif answer == "no movement detected":
            self._filter(lambda w: w[1] < LONG_MOVE)
        else:
            self._filter(
                lambda w: (
                    w[1] >= LONG_MOVE
                    and w[0] != v
                    and bearing(vs, Square(*divmod(w[0], self.width))) == answer
                )
            )


# ---------------------------------------------------------------------- engine-side helpers
# Used by the tests to *drive* games (choose actions, list the agent's possible moves);
# the oracle above never calls them.

POLICIES = ("uniform", "kinds", "roaming")


def choose(state: Any, seat: str, rng: Any, policy: str) -> Any:
    """A random legal action of ``seat`` from the stream ``rng``.

    ``uniform``: any legal action alike. ``kinds``: first a kind of action (step, stop,
    drive, sensor, attack, …) alike, then an action of it, so that rare kinds (the
    sensor, driving, attacking) come up often. ``roaming``: as ``kinds``, but the agent
    steps rather than stops 4 times in 5 (long moves, for the sensor's threshold).
    """
    legal = list(state.legal_actions(seat))
    if policy == "uniform":
        return rng.choice(legal)
    steps = [a for a in legal if a.kind == "step"]
    if policy == "roaming" and seat == "agent" and steps and rng.randbelow(5):
        return rng.choice(steps)
    kind = rng.choice(sorted({a.kind for a in legal}))
    return rng.choice([a for a in legal if a.kind == kind])


def choose_with_cards(
    state: Any,
    seat: str,
    rng: Any,
    policy: str,
    *,
    avoid: Callable[[Any], bool] | None = None,
    prefer: str = "",
) -> Any:
    """As :func:`choose`, but an agent (the first, or the revealed traitor's second)
    plays a card one time in 3 when it may (a card first, then its target), so that
    equipment comes up often — the card ``prefer`` 2 times in 3; ``avoid`` leaves out
    actions (accusations and reveals, which the tests make on purpose)."""
    legal = list(state.legal_actions(seat))
    if avoid is not None:
        legal = [a for a in legal if not avoid(a)] or legal
    uses = [a for a in legal if a.kind == "use"]
    preferred = [a for a in uses if a.args[0] == prefer]
    agent = seat == "agent" or bool(uses)
    if agent and preferred and rng.randbelow(3):
        return rng.choice(preferred)
    if agent and uses and rng.randbelow(3) == 0:
        card = rng.choice(sorted({str(a.args[0]) for a in uses}))
        return rng.choice([a for a in uses if a.args[0] == card])
    rest = [a for a in legal if a.kind != "use"] or legal
    if policy == "uniform":
        return rng.choice(rest)
    steps = [a for a in rest if a.kind == "step"]
    if policy == "roaming" and seat == "agent" and steps and rng.randbelow(5):
        return rng.choice(steps)
    kind = rng.choice(sorted({a.kind for a in rest}))
    return rng.choice([a for a in rest if a.kind == kind])


def engine_moves(state: Any) -> list[tuple[list[Any], Any]]:
    """Every distinct agent move the engine allows now, by (end, steps, last seen square).

    ``state`` must be at the start of the agent's move. Returns ``(actions, after)``
    pairs: the actions of one representative move (its steps, then ``stop`` unless the
    4th step ended it) and a clone of the game after them. Moves are explored through
    the engine's own legal actions (no cards: see :func:`engine_turns`).
    """
    geo = state.geo
    seen = geo.seen_by([h.square for h in state.hunters])
    out: list[tuple[list[Any], Any]] = []
    visited: set[tuple[int, int, int | None]] = set()
    start = state.focus.path[-1]
    stack = [(state.clone(), [], start if seen >> start & 1 else None)]
    while stack:
        node, actions, last = stack.pop()
        key = (node.focus.path[-1], len(node.focus.path) - 1, last)
        if key in visited:
            continue
        visited.add(key)
        for a in node.legal_actions("agent"):
            if a.kind == "use":
                continue
            nxt = node.clone()
            nxt.apply(a)
            if a.kind == "stop" or nxt.phase != "agent":
                out.append(([*actions, a], nxt))
            else:
                sq = nxt.focus.path[-1]
                stack.append((nxt, [*actions, a], sq if seen >> sq & 1 else last))
    return out


@dataclass
class TurnPlan:
    """One way the agent's move may go, up to (not including) the action that ends it:
    the game ``node`` before that action, the ``actions`` so far (a card before the move,
    steps), the ``last`` action (a ``stop``, or the step that uses the last one), and
    the move's ``end`` square and ``steps``. :meth:`turns` plays it out."""

    node: Any
    actions: list[Any]
    last: Any
    end: int
    steps: int

    def turns(self, allow: Callable[[Any, str], bool] | None = None) -> Iterator[Any]:
        """Each ``(actions, after)`` way to end the turn: the move, then each card use
        ``allow`` lets through (or none) after it."""
        nxt = self.node.clone()
        nxt.apply_unchecked(self.last)
        if nxt.phase != "agent_after":
            yield [*self.actions, self.last], nxt
            return
        for b in nxt.legal_actions("agent"):
            if b.kind == "use" and allow is not None and not allow(b, "after"):
                continue
            fin = nxt.clone()
            fin.apply_unchecked(b)
            yield [*self.actions, self.last, b], fin


def engine_turns(
    state: Any,
    allow: Callable[[Any, str], bool] | None = None,
    want: tuple[str, str | None] | None = None,
) -> list[TurnPlan]:
    """Every distinct agent turn the engine allows now, equipment included — a card (or
    none) before the move, the steps, a card (or none) after — as :class:`TurnPlan`
    moves to be played out (lazily: resolving a move costs the engine its map update).

    ``allow(action, moment)`` may leave out card uses (``moment``: "before" or "after").
    ``want``, a move result ``(result, square name)``, leaves out moves that cannot give
    it, judged before the engine resolves them (only as a short cut: the caller checks
    the real result): a reveal ends on its square; with no Holo Decoy left to play, a
    hidden move was never seen on its path and a Last Seen token lies on the last square
    of the path that was. Moves are told apart by the card used before, the end, the
    steps and the last square of the path that the hunters saw, both in plain sight and
    within 2 squares of them (a Stealth Field, used before the move or after it, lasts
    the turn). The actions come from the engine's legal
    actions, so they are applied unchecked.
    """
    geo = state.geo
    out: list[TurnPlan] = []
    starts: list[tuple[list[Any], Any]] = [([], state.clone())]
    for a in state.legal_actions("agent"):
        if a.kind == "use" and (allow is None or allow(a, "before")):
            nxt = state.clone()
            nxt.apply_unchecked(a)
            starts.append(([a], nxt))
    for prefix, node0 in starts:
        table = node0.sight()
        plain = stealthy = 0
        for h in node0.hunters:
            plain |= table[h.square]
            stealthy |= table[h.square] & geo.within(h.square, STEALTH_RANGE)
        seen = (plain, stealthy)
        # The path sights this turn may have: plain and stealthy, or stealthy only once
        # a Stealth Field is used before the move.
        sights = (stealthy, stealthy) if node0.focus.used_before == STEALTH else seen
        decoy = node0.focus.cards.get(DECOY, 0) > 0
        limit = node0.move_limit()
        Marks = tuple[int | None, int | None]

        def plausible(end: int, marks: Marks, decoy: bool = decoy) -> bool:
            if want is None:
                return True
            result, name = want
            if result == "revealed":
                return geo.name(end) == name
            if decoy and result == "last_seen":
                return True
            return name in {None if m is None else geo.name(m) for m in marks}

        def marked(sq: int, last: Marks, sights: tuple[int, int] = sights) -> Marks:
            return (
                sq if sights[0] >> sq & 1 else last[0],
                sq if sights[1] >> sq & 1 else last[1],
            )

        start = node0.focus.path[-1]
        visited: set[Any] = set()
        stack = [(node0, list(prefix), marked(start, (None, None)))]
        while stack:
            node, actions, last = stack.pop()
            key = (node.focus.path[-1], len(node.focus.path) - 1, last)
            if key in visited:
                continue
            visited.add(key)
            for a in node.legal_actions("agent"):
                if a.kind == "use":
                    continue
                steps = len(node.focus.path) - 1
                if a.kind == "step":
                    sq = geo.parse(str(a.args[0]))
                    mark = marked(sq, last)
                    if steps + 1 < limit:
                        nxt = node.clone()
                        nxt.apply_unchecked(a)
                        stack.append((nxt, [*actions, a], mark))
                        continue
                    end, steps = sq, steps + 1  # the last step: it ends the move
                else:
                    end, mark = node.focus.path[-1], last
                if plausible(end, mark):
                    out.append(TurnPlan(node, actions, a, end, steps))
    return out
