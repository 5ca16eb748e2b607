"""The mission's fields and the queries every section of the rules reads: the position
(map, doors, models), the character sheets, the umpire's secrets, the Control Deck, the
activation in progress, each team's side — and the ZD-C1 test, rolled here for all.

:class:`Fields` is the base of the state: each section of the rules (``pings.py``,
``end.py``, ``allies.py``, ``combat.py``, ``activation.py``, ``movement.py``,
``tested.py``, ``spook.py``, ``versus.py``, ``bogeys.py``, ``deck.py``) adds its moves to
it in turn, and ``game.py`` assembles them into :class:`~.game.ZeroDarkState` with the
phase table.

Chance: every draw comes from a keyed stream under the game's secret seed (the test's
d12s from ``("test", n)``, the n-th test of the mission), so no hidden draw shifts a
public roll.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ....core.cards import Deck, PlayingCard, playing_cards
from ....core.errors import RulesError
from ....core.game import Config, Event, Outcome, Ruleset, emit
from ....core.grid import Board
from ....core.rng import Stream, Streams
from ....core.rules import TableState
from ..fear import FearRules, Model, ModelState, Position, id_number
from ..grouping import best_split, successes_dice
from ..maps import require_zone
from ..profiles import BOGEYS, HERO, ROSTER, TASKS, BogeyStats, HeroStats
from .options import ALLY_LINE, parse_ally, parse_susceptible, parse_win
from .pieces import TEAM, Cqb, Phase, Report, Resume, Reunite, Side, towards

__all__ = ["Fields"]


def _solo(name: str, doc: str) -> property:
    """A solo-play accessor of the one side's field (tests and tools read them)."""

    def get(state: Fields) -> Any:
        return getattr(state._first_side(), name)

    def put(state: Fields, value: Any) -> None:
        setattr(state._first_side(), name, value)

    return property(get, put, doc=doc)


class Fields(TableState):
    """The fields of one Zero Dark mission and the queries every section reads."""

    def __init__(self, ruleset: Ruleset, config: Config, board: Board, seed: int | str) -> None:
        self.ruleset = ruleset
        self.config = config
        self._streams = Streams(seed)
        self.events: list[Event] = []
        rules = FearRules.from_options(config)
        self.mode = str(config["mode"])
        seats = (TEAM,) if self.mode == "solo" else ("team1", "team2")
        n = int(config["heroes"])
        roster = list(ROSTER) if config["spook"] else [*ROSTER[1:], ROSTER[0]]
        heroes: list[Model] = []
        self.hero_stats: dict[str, HeroStats] = {}
        self.specialism: dict[str, str] = {}
        self.sides: dict[str, Side] = {}
        for k, seat in enumerate(seats):
            zone = "heroes" if k == 0 else "heroes2"
            require_zone(board, zone)
            starts = board.marker(zone)
            if n > len(starts):
                raise RulesError(f"{board.name} deploys at most {len(starts)} heroes, not {n}")
            team = "" if self.mode == "solo" else seat
            side = Side(seat, [])
            for i, sq in enumerate(starts[:n]):
                hid = f"H{k * n + i + 1}"
                kind, profile = roster[i]
                facing = towards(board, sq)
                heroes.append(Model(hid, "hero", sq, cyl=profile.cyl, facing=facing, team=team))
                self.hero_stats[hid] = profile
                self.specialism[hid] = kind if kind != "spook" or config["spook"] else "operator"
                side.heroes.append(hid)
            if config["spook"] and n >= 1:
                side.spook = side.heroes[0]
            self.sides[seat] = side
        self.position = Position.initial(board, heroes, rules)
        # Character sheets: wounds (ZD-C5), upgrades (2 slots, ZD-D0), XP, allies.
        self.wounds: dict[str, int] = {}
        self.dead: set[str] = set()
        self.exited: set[str] = set()
        self.upgrades: dict[str, list[str]] = {h.id: [] for h in heroes}
        self.xp: dict[str, int] = {h.id: 0 for h in heroes}
        self.ally_of: dict[str, str] = {}
        self.allies_made = 0
        # Bogeys: support tokens and the targeted state (ZD-C3, ZD-C4), flags.
        self.support: dict[str, int] = {}
        self.targeted: set[str] = set()
        self.flags: dict[str, frozenset[str]] = {}
        # The umpire's secrets: ping types and flags (FR-P4), the deck's order, the
        # double agent and the Boss to assassinate (ZD-T3, ZD-T4).
        self.ping_types: dict[str, str] = {}
        self.ping_flags: dict[str, frozenset[str]] = {}
        self.revealed: dict[str, str] = {}  # ping id -> the bogey that replaced it
        # Each bogey's tier, kept after it leaves the table: every counter turned over is
        # shown face up (FR-P3), so views list them (and a sampled world needs them).
        self.tiers: dict[str, str] = {}
        self.pings_made = 0
        self.bogeys_made = 0
        self.deck: Deck[PlayingCard] = Deck(playing_cards(jokers=True), name="control")
        self.deck.shuffle(self._streams.stream("control-deck"))
        self.flips = 0
        self.tests = 0
        self.turn = 1
        self.turn_start = 0  # the index of this turn's first event (views show the turn)
        self.acted: set[str] = set()
        self.active: str | None = None
        self.steps = 0
        self.bonus = 0  # bonus actions left (ZD-C2)
        self.in_bonus = False
        self.phase = Phase.CHOOSE
        self.cancel_next = False  # a cautious move's success (ZD-C10)
        self.cqb_queue: list[Cqb] = []
        self.after_cqb = Resume.NOTHING
        self.engaged_at_start: set[str] = set()
        self.reunite: Reunite | None = None  # the pair that must close (ZD-D2)
        self.objectives_done: list[str] = []
        self.deployment_marker = board.marker("deployment")[0]
        self._outcome: Outcome | None = None
        self.report: Report | None = None
        # The Spooks (ZD-C7, ZD-B*, ZD-T*): in solo their choices are options; in Versus
        # each team records them in secret at the start (ZD-B4).
        self.aside_target = 0
        self.second_deck = False
        self.turn_seat = seats[0]  # whose activation comes next (Versus alternates)
        self.red_seat = seats[0]  # the team whose activation the flip follows
        self.objectives_by: dict[str, str] = {}
        self.win = parse_win(str(config["win"]))
        self.susceptible_tiers = parse_susceptible(str(config["susceptible"]))
        # A persuaded ally's stat line (ZD-P5): the stand-in core's, or the mission's.
        self.ally_profile: HeroStats = parse_ally(str(config.get("ally", ALLY_LINE)))
        if self.mode == "solo":
            side = self.sides[TEAM]
            side.task = str(config["task"]) if side.spook else "none"
            if side.task not in TASKS:  # pragma: no cover - the schema checks the choice
                raise RulesError(f"task is one of {', '.join(TASKS)}")
            side.buying_time = bool(config["buy_time"]) and side.spook is not None

    if TYPE_CHECKING:
        # Moves of later sections that earlier ones start (defined where named).

        def _after_automatic(self) -> None:
            """The automatic action is over: the tested action or the next bonus
            (``activation.py``)."""

        def _after_flip(self) -> None:
            """The Red Force's activation of a card is over (``deck.py``)."""

        def _red_force(self) -> None:
            """After an activation: a flip, or the choice to play a card (``deck.py``)."""

        def _roll_off(self) -> None:
            """Versus: the roll-off for the first activation (``versus.py``)."""

        def _deal_from_bottom(self, wants: dict[str, int]) -> dict[str, list[PlayingCard]]:
            """Versus: the Spooks' hands from the bottom of the deck (``versus.py``)."""

    # ------------------------------------------------------------------ the table

    @property
    def board(self) -> Board:
        return self.position.board

    def heroes(self) -> list[Model]:
        return [m for m in self.position.models.values() if m.kind == "hero"]

    def characters(self) -> list[Model]:
        """Characters that can see and engage: heroes and allies not out of action."""
        return [
            m
            for m in self.position.models.values()
            if m.is_character and m.state is not ModelState.OOA
        ]

    def standing_heroes(self) -> list[Model]:
        """Heroes not out of action (the ones the Red Force hunts, ZD-C4)."""
        return [
            m
            for m in self.position.models.values()
            if m.kind == "hero" and m.state is not ModelState.OOA
        ]

    def pings(self) -> list[Model]:
        return [m for m in self.position.models.values() if m.kind == "ping"]

    def bogeys(self) -> list[Model]:
        return [m for m in self.position.models.values() if m.kind == "bogey"]

    def stream(self, purpose: str, *keys: int | str) -> Stream:
        """The keyed stream of one chance point: keyed by what it is, so no other draw
        can shift it (the seed is the umpire's secret)."""
        return self._streams.stream(purpose, *keys)

    def _set(self, model: Model) -> None:
        self.position = self.position.with_model(model)

    def stats(self, model_id: str) -> HeroStats:
        """A character's profile now (task bonuses included)."""
        return self.hero_stats.get(
            model_id, HERO if model_id.startswith("H") else self.ally_profile
        )

    def bogey_stats(self, model: Model) -> BogeyStats:
        return BOGEYS[model.tier or "grunt"]

    def _hero(self) -> Model:
        """The character taking its activation."""
        if self.active is None:  # pragma: no cover - the phases guarantee one
            raise RuntimeError("no hero is activated")
        return self.position.model(self.active)

    def _enemies(self, model: Model) -> list[Model]:
        """Bogeys, and in Versus the other team's characters standing (ZD-C9)."""
        out = sorted(self.bogeys(), key=lambda m: id_number(m.id))
        if self.mode != "solo":
            mine = self.seat_of(model)
            out += sorted(
                (c for c in self.characters() if self.seat_of(c) != mine),
                key=lambda m: (m.kind != "hero", id_number(m.id)),
            )
        return out

    def _engaged_bogeys(self, model: Model) -> set[str]:
        """Enemies ``model`` is engaged with: bogeys, and other teams' characters."""
        return {b.id for b in self._enemies(model) if self.position.engaged(model.id, b.id)}

    def shooting_range(self, a: Model, b: Model) -> int:
        """FR-R1 range; with no route at all, the king-move distance (ruling)."""
        found = self.position.range(a.id, b.id)
        if found is not None:
            return found
        return min(
            max(abs(x.row - y.row), abs(x.col - y.col)) for x in a.squares for y in b.squares
        )

    # ------------------------------------------------------------------ the sides

    def _first_side(self) -> Side:
        return next(iter(self.sides.values()))

    spook = _solo("spook", "The (first) side's Spook.")
    task = _solo("task", "The (first) side's priority task.")
    buying_time = _solo("buying_time", "Whether the (first) side's Spook buys time.")
    hand = _solo("hand", "The (first) side's Spook's hand.")
    double_agent = _solo("double_agent", "The (first) side's double agent (secret).")
    boss_target = _solo("boss_target", "The (first) side's Boss to assassinate (secret).")
    observed = _solo("observed", "Bogeys the (first) side's Spook has targeted.")
    acquired = _solo("acquired", "Whether the (first) side acquired the dead-drop.")
    verified = _solo("verified", "Whether the (first) side verified its Boss.")
    double_agent_result = _solo("rescued", "The ally the (first) side's double agent became.")

    def seat_of(self, model: Model) -> str:
        """The seat that plays ``model`` (its team's; ``team`` in solo)."""
        if self.mode == "solo":
            return TEAM
        if model.team:
            return model.team
        # An ally is its hero's team's (ZD-D0), even once that hero has left the table.
        owner = self.ally_of.get(model.id, "")
        return next((side.seat for side in self.sides.values() if owner in side.heroes), TEAM)

    def side_of(self, model: Model) -> Side:
        return self.sides[self.seat_of(model)]

    # ------------------------------------------------------------------ the test (ZD-C1)

    def _roll(self, dice: int, tn: int, purpose: str, who: str) -> tuple[int, list[int]]:
        """A ZD-C1 test: ``dice`` d12s from the keyed stream of this test, rolled as the
        dice object whose exact law the odds give (:func:`~..grouping.successes_dice`); its
        value is the successes, its faces the dice, split into the most groups reaching
        ``tn``. The roll and the split are public."""
        self.tests += 1
        rolled: list[int] = []
        successes = 0
        if dice > 0:
            roll = successes_dice(dice, tn).roll(self._streams.stream("test", self.tests))
            rolled, successes = list(roll.faces), roll.value
        split = best_split(rolled, tn) if rolled else ()
        emit(
            self.events,
            "test",
            who=who,
            purpose=purpose,
            dice=len(rolled),
            tn=tn,
            rolled=rolled,
            groups=[list(g) for g in split],
            successes=successes,
            rule="ZD-C1",
        )
        return successes, rolled

    # ------------------------------------------------------------------ protocol

    def to_act(self) -> frozenset[str]:
        if self._outcome is not None:
            return frozenset()
        if self.phase is Phase.PREPARE:
            return frozenset(x.seat for x in self.sides.values() if not x.prepared)
        if self.phase is Phase.CQB and self.cqb_queue:
            return frozenset({self.seat_of(self.position.model(self.cqb_queue[0].char))})
        if self.phase is Phase.RED:
            return frozenset({self.red_seat})
        if self.active is not None and self.active in self.position.models:
            return frozenset({self.seat_of(self.position.model(self.active))})
        return frozenset({self.turn_seat})

    def outcome(self) -> Outcome | None:
        return self._outcome
