"""Heuristic Specter Ops bots. Like every bot they see only their seat's view, the
seat's legal actions and their own random stream; the board is public.

* ``so-agent`` heads for the nearest open objective (a square next to its site), then
  for a free escape point, choosing each step by looking ahead over the rest of its move:
  it avoids ending where a hunter sees it, avoids being seen on the way (a Last Seen
  token), and keeps away from hunters on foot. With characters it plays every card it
  may hold: it stuns a hunter on foot within 3 (Venom Dart, Flash Bang), hides when a
  hunter sees it or stands within 4 (Smoke Grenade on its own square, else a Stealth
  Field), jams the motion sensor before a long move while a hunter is aboard the
  vehicle (Signal Jammer), takes a longer move when its goal is far (Adrenal Surge),
  and after moving hides a move that hunters saw only from 3 or more squares away
  (Stealth Field: it lasts the whole turn), heals (Med Kit) or lays a false Last Seen
  token as far from itself as it may (Holo Decoy).
* ``so-hunter`` searches with the possibility map of its view: it moves where its end
  square sees the most squares the agent may be on, drives towards the map when it is
  far (the Puppet on foot from afar, when it is near the map itself), uses the motion
  sensor while the map is wide (the Puppet from anywhere), sniffs whenever it may (the
  Beast), and attacks whenever it may. As the secret traitor it searches the same way
  but never attacks; revealed, it plays the second agent like ``so-agent`` (which heads
  for an escape point).

A loyal ``so-hunter`` accuses (SO-T4) at the start of its turn a hunter once the public
record proves it the traitor with a concealed sighting (``role.proves`` in the view:
every world of its map says so); the traitor never accuses nor reveals itself
(unrevealed, the agent wins by escaping alone). For the other choices (setup picks, the
deal) they pick at random from their stream.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ...bots.base import Bot, register_bot
from ...core.errors import RulesError
from ...core.game import Action, Config, PlayerView
from ...core.rng import Stream
from .geometry import Geometry, geometry_for
from .observer import SpecterOpsView, maps_on_board, view_data
from .state.pieces import STEALTH_RANGE

__all__ = ["AgentBot", "HunterBot"]

FAR = 10_000
# The vehicle counts as far from the possibility map past 8 steps (then hunters aboard
# drive towards it); the Puppet drives it from afar only from within 4 of the map.
_FAR_VEHICLE = 8
_NEAR_PUPPET = 4


_PARSED_KEPT = 256
"""The most lists of square names a bot keeps parsed."""
_FIELDS_KEPT = 1024
"""The most distance fields a bot keeps (one per set of target squares)."""
_BALLS_KEPT = 8192
"""The most balls a bot keeps (one per start, steps and squares avoided)."""


class _Board:
    """The public board and distance fields over it (cached per target set)."""

    def __init__(self, geo: Geometry) -> None:
        self.geo = geo
        self._fields: dict[int, list[int]] = {}
        self._parsed: dict[tuple[str, ...], int] = {}
        self._balls: dict[tuple[int, int, int], int] = {}
        # Both bots' step scores (hunter_scores, agent_scores), by everything they read.
        self._scores: dict[tuple[object, ...], tuple[float, tuple[float, ...]]] = {}
        self._step = geo.graph.stepper()  # one step on the terrain (figures aside)

    def bits(self, names: Sequence[str]) -> int:
        # The possibility map rarely changes between a seat's choices (a hunter's steps
        # leave it alone), and a search's worlds share it: looking the names up is
        # cheaper than parsing them again (a bounded cache).
        key = tuple(names)  # a copy: the view's list is not ours to keep
        found = self._parsed.get(key)
        if found is None:
            found = 0
            parse = self.geo.parse
            for n in key:
                found |= 1 << parse(n)
            if len(self._parsed) >= _PARSED_KEPT:
                self._parsed.clear()
            self._parsed[key] = found
        return found

    def distances(self, targets: int) -> list[int]:
        """Steps (8 directions, terrain only) from every square to the nearest target."""
        found = self._fields.get(targets)
        if found is not None:
            return found
        dist = self.geo.graph.distance_list(targets, unreachable=FAR)
        if len(self._fields) >= _FIELDS_KEPT:
            self._fields.clear()  # a long search's worlds ask for many target sets
        self._fields[targets] = dist
        return dist

    def ball(self, start: int, steps: int, avoid: int) -> int:
        """The squares reachable from ``start`` in up to ``steps`` steps without entering
        ``avoid`` (``start`` included), as a bitboard. Kept: a move's every step asks
        for the balls around its neighbours again, and a search's worlds ask alike."""
        key = (start, steps, avoid)
        found = self._balls.get(key)
        if found is not None:
            return found
        step_bits = self._step
        layer = seen = 1 << start
        keep = ~avoid
        for _ in range(steps):
            layer = step_bits(layer) & keep & ~seen
            if not layer:
                break
            seen |= layer
        if len(self._balls) >= _BALLS_KEPT:
            self._balls.clear()
        self._balls[key] = seen
        return seen

    def hunter_scores(
        self,
        possible: int,
        aggression: float,
        here: int,
        starts: tuple[int, ...],
        left: int,
        others: int,
    ) -> tuple[float, tuple[float, ...]]:
        """``so-hunter``'s scores of stopping on ``here`` and of each step to one of
        ``starts``: a square's score is how many squares of ``possible`` it sees, less
        ``aggression`` times its distance to them; a step's is the best score of an
        end square within the rest of the move (``left`` steps with this one; not one
        of ``others``, hunters on foot), less 0.01. Kept: a hunter's every step of a
        move asks again, as do the worlds of a search."""
        key = ("hunter", possible, aggression, here, starts, left, others)
        found = self._scores.get(key)
        if found is not None:
            return found
        coverage = self.coverage(possible, aggression)
        keep = ~others
        balls = [self.ball(sq, left - 1, 0) & keep for sq in starts]
        return self._keep(key, _score_steps(self.geo, coverage, here, balls, (0.0,) * len(balls)))

    def field(self, possible: int) -> list[int]:
        """Steps from every square to the nearest of ``possible`` (all 0 when empty)."""
        if possible:
            return self.distances(possible)
        return [0] * (self.geo.width * self.geo.height)

    def coverage(self, possible: int, aggression: float) -> Callable[[int], float]:
        """``so-hunter``'s score of a square: how many squares of ``possible`` it sees,
        less ``aggression`` times its distance to them."""
        sight = self.geo.sight
        dist = self.field(possible)

        def score(square: int) -> float:
            return float((sight[square] & possible).bit_count()) - aggression * dist[square]

        return score

    def agent_scores(
        self,
        targets: int,
        seen: int,
        foot: int,
        here: int,
        starts: tuple[int, ...],
        left: int,
    ) -> tuple[float, tuple[float, ...]]:
        """``so-agent``'s scores of stopping on ``here`` and of each step to one of
        ``starts``: a square's score is minus its distance to ``targets``, less 40 where
        a hunter sees it (``seen``) and 4 within 4 of a hunter on foot (``foot``, which
        it may not enter); a step's is the best score of an end square within the rest
        of the move (``left`` steps with this one), less 10 for a step into sight (a
        Last Seen token on the way) and 0.01. Kept, as :meth:`hunter_scores`."""
        key = ("agent", targets, seen, foot, here, starts, left)
        found = self._scores.get(key)
        if found is not None:
            return found
        geo = self.geo
        near_hunters = 0
        for i in geo.indices(foot):
            near_hunters |= geo.within(i, 4)
        dist = self.distances(targets)

        def value(square: int) -> float:
            score = -float(dist[square])
            if seen >> square & 1:
                score -= 40.0
            if near_hunters >> square & 1:
                score -= 4.0
            return score

        balls = [self.ball(sq, left - 1, foot) for sq in starts]
        penalties = tuple(10.0 if seen >> sq & 1 else 0.0 for sq in starts)
        return self._keep(key, _score_steps(geo, value, here, balls, penalties))

    def _keep(
        self, key: tuple[object, ...], scores: tuple[float, tuple[float, ...]]
    ) -> tuple[float, tuple[float, ...]]:
        if len(self._scores) >= _BALLS_KEPT:
            self._scores.clear()
        self._scores[key] = scores
        return scores


def _score_steps(
    geo: Geometry,
    value: Callable[[int], float],
    here: int,
    balls: Sequence[int],
    penalties: Sequence[float],
) -> tuple[float, tuple[float, ...]]:
    """(the score of ``here``, each step's score): a step's is the best ``value`` of a
    square of its ball (the rest of the move from it), less its penalty and 0.01.
    Every square any step may reach is scored once, and grouped by score."""
    reached = 0
    for b in balls:
        reached |= b
    levels = _levels({i: value(i) for i in geo.indices(reached)})
    return value(here), tuple(
        _best(levels, b, -float(FAR)) - p - 0.01 for b, p in zip(balls, penalties, strict=True)
    )


def _levels(scores: Mapping[int, float]) -> list[tuple[float, int]]:
    """Squares grouped by score, best first: ``(score, bitboard of its squares)``."""
    groups: dict[float, int] = {}
    for i, score in scores.items():
        groups[score] = groups.get(score, 0) | 1 << i
    return sorted(groups.items(), reverse=True)


def _best(levels: Sequence[tuple[float, int]], squares: int, default: float) -> float:
    """The best score of any of ``squares`` (``default`` if none is scored)."""
    for score, bits in levels:
        if bits & squares:
            return score
    return default


def _nearest_drive(
    drives: Sequence[Action], board: _Board, dist: Sequence[int]
) -> tuple[Action, int]:
    """The drive that ends nearest the possibility map (the first of equals), and how
    near: ``dist`` is each square's distance to the map."""
    geo = board.geo
    best = min(drives, key=lambda a: dist[geo.parse(str(a.args[0]))])
    return best, dist[geo.parse(str(best.args[0]))]


def _hunted(data: SpecterOpsView, board: _Board) -> int:
    """The squares the hunters hunt: the possibility maps of the agents still on the
    board (:func:`.observer.maps_on_board`)."""
    out = 0
    for names in maps_on_board(data):
        out |= board.bits(names)
    return out


def _seen_only_from_afar(data: SpecterOpsView, board: _Board) -> bool:
    """Whether a hunter sees some square of the agent's path this turn (smoke left out)
    and none within 2 squares does: a Stealth Field used now would hide the whole move."""
    geo = board.geo
    path = 0
    for name in data["secret"]["path"]:
        path |= 1 << geo.parse(name)
    seen = near = 0
    for h in data["hunters"]:
        i = geo.parse(h["square"])
        seen |= geo.sight[i]
        near |= geo.sight[i] & geo.within(i, STEALTH_RANGE)
    return bool(path & seen) and not path & near


def _by_kind(legal: Sequence[Action]) -> dict[str, list[Action]]:
    out: dict[str, list[Action]] = {}
    for a in legal:
        out.setdefault(a.kind, []).append(a)
    return out


class _SpecterBot(Bot):
    def __init__(self) -> None:
        self.board: _Board | None = None
        self.seat = ""

    def reset(self, seat: str, ruleset_id: str, config: Config) -> None:
        self.seat = seat
        self.board = _Board(geometry_for(str(config["board"])))

    def _board(self, view: PlayerView) -> _Board:
        if self.board is None:  # used without reset: the default board
            self.board = _Board(geometry_for("specter-ops"))
        return self.board

    @staticmethod
    def _setup(kinds: Mapping[str, list[Action]], stream: Stream) -> Action | None:
        """Setup and traitor-game choices: at random (no accusations, no reveal)."""
        for kind in ("character", "card", "traitor", "next"):
            if kind in kinds:
                return stream.choice(kinds[kind])
        return None

    @staticmethod
    def _hunter_squares(data: SpecterOpsView, board: _Board) -> tuple[int, int]:
        """(squares of all hunters, squares of hunters on foot)."""
        every = foot = 0
        for h in data["hunters"]:
            bit = 1 << board.geo.parse(h["square"])
            every |= bit
            if not h["aboard"]:
                foot |= bit
        return every, foot


class AgentBot(_SpecterBot):
    """The heuristic agent (see the module doc)."""

    name = "so-agent"

    def choose(self, view: PlayerView, legal: Sequence[Action], stream: Stream) -> Action:
        kinds = _by_kind(legal)
        board = self._board(view)
        data = view_data(view)
        if "step" not in kinds and "stop" not in kinds:
            if "done" in kinds:
                return self._after(data, kinds, board)  # after moving
            found = self._setup(kinds, stream)
            return found if found is not None else stream.choice(legal)
        geo = board.geo
        secret = data["secret"]
        here = geo.parse(secret["square"])
        left = int(secret["steps_left"] or 0)
        everyone, foot = self._hunter_squares(data, board)
        seen = 0
        for i in geo.indices(everyone):
            seen |= geo.sight[i]
        card = self._card(data, kinds.get("use", []), board, here, foot, seen)
        if card is not None:
            return card
        steps = kinds.get("step", [])
        stop_score, scores = board.agent_scores(
            self._targets(data, board, everyone),
            seen,
            foot,
            here,
            tuple(geo.parse(str(a.args[0])) for a in steps),
            left,
        )
        options: list[tuple[float, Action]] = []
        if "stop" in kinds:
            options.append((stop_score, kinds["stop"][0]))
        options += zip(scores, steps, strict=True)
        top = max(score for score, _ in options)
        return stream.choice([a for score, a in options if score >= top - 1e-9])

    def _card(
        self,
        data: SpecterOpsView,
        uses: Sequence[Action],
        board: _Board,
        here: int,
        foot: int,
        seen: int,
    ) -> Action | None:
        """A card before moving: stun a hunter on foot within 3 (Venom Dart, Flash Bang on
        its square); hide when seen or a hunter is within 4 (Smoke Grenade on its own
        square, else a Stealth Field); jam the sensor before a long move while a hunter
        is aboard (Signal Jammer); a longer move when the goal is far (Adrenal Surge)."""
        if not uses:
            return None
        geo = board.geo
        close = [i for i in geo.indices(foot) if geo.within(here, 3) >> i & 1]
        names = {geo.name(i) for i in close}
        ids = {h["id"] for h in data["hunters"] if h["square"] in names}
        by_card: dict[str, list[Action]] = {}
        for a in uses:
            by_card.setdefault(str(a.args[0]), []).append(a)
        for a in by_card.get("venom-dart", []):
            if a.args[1] in ids:
                return a
        for a in by_card.get("flash-bang", []):
            if a.args[1] in names:
                return a
        exposed = bool(seen >> here & 1) or bool(foot & geo.within(here, 4))
        if exposed:
            own = geo.name(here)
            for a in by_card.get("smoke-grenade", []):
                if a.args[1] == own:
                    return a
            if "stealth-field" in by_card:
                return by_card["stealth-field"][0]
        far = board.distances(self._targets(data, board, 0))[here] > 4
        aboard = any(h["aboard"] for h in data["hunters"])
        if far and aboard and "signal-jammer" in by_card:
            return by_card["signal-jammer"][0]
        if far and "adrenal-surge" in by_card:
            return by_card["adrenal-surge"][0]
        return None

    @staticmethod
    def _after(data: SpecterOpsView, kinds: Mapping[str, list[Action]], board: _Board) -> Action:
        """After moving: hide a move seen only from afar (Stealth Field), else heal (Med
        Kit), else a false Last Seen token as far from the agent as it may lay one (Holo
        Decoy), else done."""
        uses = kinds.get("use", [])
        field = [a for a in uses if a.args[0] == "stealth-field"]
        if field and _seen_only_from_afar(data, board):
            return field[0]
        heal = [a for a in uses if a.args[0] == "med-kit"]
        if heal:
            return heal[0]
        decoys = [a for a in uses if a.args[0] == "holo-decoy"]
        if decoys:
            geo = board.geo
            here = geo.square(geo.parse(data["secret"]["square"]))

            def away(a: Action) -> int:
                sq = geo.square(geo.parse(str(a.args[1])))
                return max(abs(sq.row - here.row), abs(sq.col - here.col))

            best = max(decoys, key=away)
            if away(best) >= 3:
                return best
        return kinds["done"][0]

    @staticmethod
    def _targets(data: SpecterOpsView, board: _Board, hunters: int) -> int:
        geo = board.geo
        secret = data["secret"]
        done = [o["done"] for o in data["objectives"]]
        if sum(done) >= 3 or "objective_sites" not in secret:
            # Escape — or, for the second agent (SO-T5), which completes no objectives,
            # wait near an escape point until the objectives are done.
            escapes = list(geo.escape) + (list(geo.escape_five) if data["players"] == 5 else [])
            out = 0
            for e in escapes:
                if not hunters >> e & 1:
                    out |= 1 << e
            return out or 1 << escapes[0]
        out = 0
        for j, site in enumerate(secret["objective_sites"]):
            if not done[j]:
                out |= geo.adjacent[geo.parse(site)] & geo.passable
        return out


class HunterBot(_SpecterBot):
    """The heuristic hunter (see the module doc)."""

    name = "so-hunter"

    def __init__(self, *, aggression: float = 0.5, sensor: float = 1 / 3) -> None:
        """Args:
        aggression: how much closing in on the possibility map counts against seeing
            more of it (0: only sight; 1: a square nearer weighs as much as one more
            square seen); 0.5 by default.
        sensor: the chance of using the motion sensor when the map is wide (over 30
            squares), 1/3 by default.
        """
        super().__init__()
        for label, value in (("aggression", aggression), ("sensor", sensor)):
            if not isinstance(value, int | float) or not 0 <= value <= 1:
                raise RulesError(f"so-hunter: {label} is a number from 0 to 1, not {value!r}")
        self.aggression = float(aggression)
        self.sensor = float(sensor)
        self.agent = AgentBot()  # for a revealed traitor's second agent (SO-T5)

    def reset(self, seat: str, ruleset_id: str, config: Config) -> None:
        super().reset(seat, ruleset_id, config)
        self.agent.reset(seat, ruleset_id, config)

    def choose(self, view: PlayerView, legal: Sequence[Action], stream: Stream) -> Action:
        kinds = _by_kind(legal)
        board = self._board(view)
        data = view_data(view)
        if data.get("secret"):
            return self.agent.choose(view, legal, stream)  # the seat now plays agent A2
        role = data.get("role")
        traitor = role is not None and role["role"] == "traitor"
        for kind in ("attack", "sniff"):
            if kind in kinds and not traitor:  # the traitor spares the agent (SO-T3)
                return kinds[kind][0]
        if "accuse" in kinds and not traitor:
            accusation = self._accusation(data, kinds["accuse"])
            if accusation is not None:
                return accusation
        if "end" in kinds:
            return kinds["end"][0]
        geo = board.geo
        possible = _hunted(data, board)
        if "next" in kinds:
            return self._order(data, kinds["next"], board, possible, stream)
        current = data.get("current")
        if current is None or not ("step" in kinds or "stop" in kinds or "drive" in kinds):
            found = self._setup(kinds, stream)
            return found if found is not None else stream.choice(legal)
        me = next(h for h in data["hunters"] if h["id"] == current["hunter"])
        here = geo.parse(me["square"])
        dist = board.field(possible)
        coverage = board.coverage(possible, self.aggression)
        if "sensor" in kinds and possible.bit_count() > 30 and self._sense(stream):
            return kinds["sensor"][0]  # aboard, or the Puppet from anywhere
        if me["aboard"]:
            drives = kinds.get("drive", [])
            if drives and dist[here] > _FAR_VEHICLE:
                best, reach = _nearest_drive(drives, board, dist)
                if reach < dist[here]:
                    return best
            exits = kinds.get("step", [])
            if exits and (not drives or dist[here] <= _FAR_VEHICLE or current["drove"] == 0):
                return max(exits, key=lambda a: coverage(geo.parse(str(a.args[0]))))
            return kinds["stop"][0] if "stop" in kinds else stream.choice(legal)
        drive = self._remote_drive(data, kinds, board, dist, here, int(current["drove"]))
        if drive is not None:
            return drive
        left = int(current["limit"]) - int(current["steps"])
        _, foot = self._hunter_squares(data, board)
        others = foot & ~(1 << here)

        steps = kinds.get("step", [])
        stop_score, scores = board.hunter_scores(
            possible,
            self.aggression,
            here,
            tuple(geo.parse(str(a.args[0])) for a in steps),
            left,
            others,
        )
        options: list[tuple[float, Action]] = []
        if "stop" in kinds:
            options.append((stop_score, kinds["stop"][0]))
        options += zip(scores, steps, strict=True)
        if not options:
            return stream.choice(legal)
        top = max(score for score, _ in options)
        return stream.choice([a for score, a in options if score >= top - 1e-9])

    @staticmethod
    def _accusation(data: SpecterOpsView, accusations: list[Action]) -> Action | None:
        """A loyal hunter accuses (SO-T4) the hunter the public record proves the
        traitor (``role.proves`` in its view: every world of its map has that hunter
        as the traitor with a concealed sighting, SO-T3), and no other: such an
        accusation is sure to be proven, which is what the rule's "obvious" asks."""
        role = data.get("role")
        proves = role.get("proves") if role is not None else None
        return next((a for a in accusations if a.args[0] == proves), None)

    @staticmethod
    def _remote_drive(
        data: SpecterOpsView,
        kinds: dict[str, list[Action]],
        board: _Board,
        dist: list[int],
        here: int,
        drove: int,
    ) -> Action | None:
        """The Puppet on foot drives the vehicle from afar (instead of moving) when the
        vehicle stands far from the possibility map and the Puppet is near it already:
        its own steps would add little, and the motion sensor's bearing (SO-V5, taken
        from the vehicle, by the Puppet from anywhere) splits the map better from
        nearby, as hunters aboard would be carried there. Once driving, it drives on
        while a step brings the vehicle nearer."""
        drives = kinds.get("drive", [])
        if not drives:
            return None
        vehicle = board.geo.parse(data["vehicle"]["square"])
        best, reach = _nearest_drive(drives, board, dist)
        nearer = reach < dist[vehicle]
        if drove:
            return best if nearer else None  # None: the move ends with "stop"
        if nearer and dist[vehicle] > _FAR_VEHICLE and dist[here] <= _NEAR_PUPPET:
            return best
        return None

    def _sense(self, stream: Stream) -> bool:
        """Use the sensor now? The default 1/3 draws as it always did (randbelow(3))."""
        if self.sensor == 1 / 3:
            return stream.randbelow(3) == 0
        return stream.randbelow(1_000_000) < self.sensor * 1_000_000

    @staticmethod
    def _order(
        data: SpecterOpsView,
        nexts: list[Action],
        board: _Board,
        possible: int,
        stream: Stream,
    ) -> Action:
        """The hunter nearest the possibility map acts first."""
        if not possible:
            return stream.choice(nexts)
        dist = board.distances(possible)
        squares = {h["id"]: board.geo.parse(h["square"]) for h in data["hunters"]}
        return min(nexts, key=lambda a: dist[squares[str(a.args[0])]])


register_bot(
    "so-agent",
    AgentBot,
    rulesets={"specter-ops"},
    help="heuristic Specter Ops agent",
    seats=(lambda seat: seat == "agent", "the agent"),
)
register_bot(
    "so-hunter",
    HunterBot,
    rulesets={"specter-ops"},
    help="heuristic Specter Ops hunters (and a revealed traitor's second agent)",
    seats=(lambda seat: seat.startswith("hunter"), "the hunters"),
)
