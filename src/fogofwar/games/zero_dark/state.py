"""The state of a Zero Dark mission on the FEAR grid, with the stand-in core and the
Spook supplement.

This module holds the umpire's whole truth: the position (map, doors, models), the
secret types and flags of the pings (FR-P4), the Control Deck's order, the secret
picks of the priority tasks (the double agent, the Boss to assassinate), and the
activation in progress. What a seat receives is built in :mod:`.views` from public
fields and the events addressed to it.

The order of play (solo, ZD-C9). The team chooses a hero or an ally to activate
(``activate H2``). Its activation (ZD-C2) is

1. one **automatic action**: a move of up to M single steps (``step D7`` …, closed by
   ``stop`` or by ``face NE``), a turn to a new facing (``face SW``), an interaction
   without a test (``door D7 e``), leaving by the exit (``exit``), or verifying a down
   Boss (``verify B3``, ZD-T4);
2. then one **tested action** (ZD-C1 tests): ``shoot B2`` (ZD-C3), ``dotlight B2``
   (ZD-L*), ``interact`` (an objective A(12), the dead-drop A(16)), ``cautious``
   (A(10), ZD-C10) or ``pass``; each success beyond the first is a **bonus action**:
   another automatic action (``done`` forgoes the rest).

A model that moves into engagement fights CQB at once (ZD-C5); against a bogey that is
susceptible (ZD-P0) the team chooses ``fight`` or ``persuade`` (ZD-P1). After the
activation the umpire flips the Control Deck — or the team plays a card from the
Spook's hand instead (``flip`` / ``play 7H``, ZD-C7) — and the bogey or ping it
activates moves, then fights CQB or shoots (ZD-C4). The mission ends when the deck is
exhausted (with buying time, the set-aside cards are a second deck, ZD-B3), or when no
hero is left on the table; the report lists the XP (ZD-C8, ZD-T2, ZD-T7).

Pings are revealed the moment a character has LOS to one or is engaged with it
(FR-P3), checked after every step of every move, every change of facing, every door
and every placement.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from ...core.cards import Deck, PlayingCard, Suit, playing_cards
from ...core.errors import RulesError
from ...core.game import Action, Config, Event, Outcome, Ruleset, State
from ...core.grid import Board, Edge, Square
from ...core.rng import Streams
from .fear import FACINGS, FearRules, Model, Position
from .grouping import best_split
from .profiles import (
    ACQUISITION_TN,
    ALLY,
    BOGEY_CQB_TN,
    BOGEYS,
    CAUTIOUS_TN,
    DEPENDENT_RANGE,
    HERO,
    HERO_DEAD,
    HERO_DOWN,
    INTERACT_TN,
    MAX_TASK_D_BONUS,
    PING_LABEL,
    ROSTER,
    TASK_BONUS,
    TASKS,
    BogeyStats,
    HeroStats,
)

__all__ = [
    "BOGEYS",
    "HERO",
    "MAX_ALLIES",
    "MAX_BOGEYS",
    "MAX_COMPLICATIONS",
    "MAX_RED_FORCE",
    "PING_LABEL",
    "TEAM",
    "BogeyStats",
    "HeroStats",
    "ZeroDarkState",
    "parse_red_force",
    "parse_red_force_specs",
    "parse_susceptible",
    "parse_win",
]

TEAM: Final = "team"
"""The seat of the heroes' player in solo and co-op play (ZD-C9)."""

FLAGS: Final = ("nemesis", "named", "synthetic", "susceptible")
"""Bogey flags a Red Force entry may carry (ZD-C4, ZD-P0)."""

WIN_CONDITIONS: Final = (
    "objectives",
    "exit",
    "extract",
    "rescue",
    "assassination",
    "observation",
    "acquisition",
    "survive",
)
"""A mission's win conditions (ZD-C8): all must hold for the mission to succeed."""

_TIER_OF_LABEL: Final = {v: k for k, v in PING_LABEL.items()}

PingSpec = tuple[str, frozenset[str]]
"""A ping of the Red Force: its tier and its flags."""


MAX_RED_FORCE: Final = 60
"""The most pings a Red Force may have (FR-P1): each needs a ping site of the map, and no
Zero Dark map holds more (a 48×48 table, MAX_MAP_SIDE, would be crowded with 60)."""

MAX_COMPLICATIONS: Final = 2 * 54
"""The most complications a mission can have (ZD-C6): each of the Control Deck's 54
cards is resolved at most twice — once from the first deck (flipped or played from a
hand, ZD-C7), once more from the second deck if it was set aside (ZD-B3)."""

MAX_BOGEYS: Final = MAX_RED_FORCE + MAX_COMPLICATIONS
"""Bogey ids a mission can reach (``B1`` …): every bogey was a ping, of the Red Force
(FR-P1) or of a complication (ZD-C6). The action encoding covers them all."""

MAX_ALLIES: Final = MAX_BOGEYS
"""Ally ids a mission can reach (``A1`` …): every ally was a persuaded bogey (ZD-P1)."""

_COUNT_DIGITS: Final = len(str(MAX_RED_FORCE))


def _short(text: str, limit: int = 40) -> str:
    """``text`` for an error message: at most ``limit`` characters, as ``repr`` shows it."""
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def parse_red_force(text: str) -> tuple[str, ...]:
    """The tiers of a Red Force, in order (see :func:`parse_red_force_specs`)."""
    return tuple(tier for tier, _ in parse_red_force_specs(text))


def parse_red_force_specs(text: str) -> tuple[PingSpec, ...]:
    """Read a Red Force: ``"grunt=5,elite=2,boss=1:named:nemesis"`` → its pings (tier,
    flags), in order. A tier may be named or given by its counter's face (``1``, ``2``,
    ``3``, ``S``, FR-P1); a count is a whole number (ASCII digits); flags are ``nemesis``,
    ``named``, ``synthetic`` and ``susceptible`` (ZD-C4, ZD-P0). At most
    :data:`MAX_RED_FORCE` pings in all.

    Raises:
        RulesError: an unknown tier or flag, a bad count, more than
            :data:`MAX_RED_FORCE` pings, or no ping at all.
    """
    out: list[PingSpec] = []
    tiers = ", ".join(BOGEYS)
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        tier, sep, rest = part.partition("=")
        tier = tier.strip()
        # A tier by name or by its counter's face (FR-P1: "1", "2", "3", "S").
        tier = _TIER_OF_LABEL.get(tier.upper(), tier.lower())
        count, *flags = rest.split(":")
        count = count.strip()
        if (
            tier not in BOGEYS
            or not sep
            or not count.isascii()
            or not count.isdigit()
            or len(count) > _COUNT_DIGITS
        ):
            raise RulesError(
                f"red_force: expected tier=count with tiers {tiers} (or the faces 1, 2, 3, "
                f"S) and a count from 0 to {MAX_RED_FORCE} (FR-P1), got {_short(part)}"
            )
        bad = [f for f in flags if f.strip().lower() not in FLAGS]
        if bad:
            raise RulesError(f"red_force: flags are {', '.join(FLAGS)}, not {_short(bad[0])}")
        n = int(count)
        if len(out) + n > MAX_RED_FORCE:
            raise RulesError(
                f"red_force: at most {MAX_RED_FORCE} pings in all (FR-P1), got more at "
                f"{_short(part)}"
            )
        marks = frozenset(f.strip().lower() for f in flags)
        out += [(tier, marks)] * n
    if not out:
        raise RulesError("red_force: at least one ping is needed (FR-P1), e.g. grunt=5,elite=2")
    return tuple(out)


def parse_susceptible(text: str) -> frozenset[str]:
    """The bogey tiers of the ``susceptible`` option (ZD-P0): comma-separated tier names
    in any case, each once; ``""`` or ``none`` for none.

    Raises:
        RulesError: an unknown or repeated tier, saying which tiers there are.
    """
    words = [w.strip().lower() for w in text.split(",")]
    words = [w for w in words if w]
    if words == ["none"]:
        return frozenset()
    seen: set[str] = set()
    for w in words:
        if w not in BOGEYS:
            raise RulesError(
                f"susceptible: expected bogey tiers ({', '.join(BOGEYS)}) or none, comma-"
                f"separated (ZD-P0), not {_short(w)}"
            )
        if w in seen:
            raise RulesError(f"susceptible: each tier once (ZD-P0), {_short(w)} is repeated")
        seen.add(w)
    return frozenset(seen)


def parse_win(text: str) -> tuple[str, ...]:
    """The ``win`` option's conditions (ZD-C8), comma-separated in any case; at least one.

    Raises:
        RulesError: an unknown condition, or none at all, saying which there are.
    """
    words = [w.strip().lower() for w in text.split(",")]
    out = tuple(dict.fromkeys(w for w in words if w))
    for w in out:
        if w not in WIN_CONDITIONS:
            raise RulesError(
                f"win: conditions are {', '.join(WIN_CONDITIONS)} (ZD-C8), not {_short(w)}"
            )
    if not out:
        raise RulesError(f"win: at least one condition (ZD-C8): {', '.join(WIN_CONDITIONS)}")
    return out


def _towards(board: Board, square: Square) -> str:
    """The facing towards the map's centre (the heroes' deployment facing, ruling)."""
    north = square.row * 2 + 1 > board.height
    east = square.col * 2 + 1 < board.width
    return ("N" if north else "S") + ("E" if east else "W")


def _tier_of(card: PlayingCard) -> str | None:
    """ZD-C6: 2–10 a Grunt, J/Q/K an Elite, an Ace a Boss; a Joker none."""
    if card.is_joker:
        return None
    if card.is_pip:
        return "grunt"
    return "boss" if card.is_ace else "elite"


def _num(model_id: str) -> int:
    digits = model_id[1:]
    return int(digits) if digits.isascii() and digits.isdigit() and len(digits) < 6 else 0


@dataclass(slots=True)
class Side:
    """One team's seat and its Spook: the hand, buying time, the priority task and what
    the task has come to (ZD-C7, ZD-B*, ZD-T*). Solo play has one side, ``team``;
    Versus two, ``team1`` and ``team2`` (ZD-C9)."""

    seat: str
    heroes: list[str]
    spook: str | None = None
    task: str = "none"
    buying_time: bool = False
    hand: list[PlayingCard] = field(default_factory=list)
    double_agent: str | None = None  # a ping id, then its bogey id (ZD-T3)
    boss_target: str | None = None  # a ping id, then its bogey id (ZD-T4)
    observed: set[str] = field(default_factory=set)  # ZD-T5
    acquired: bool = False  # ZD-T6
    verified: bool = False  # ZD-T4
    rescued: str | None = None  # the ally the double agent became ("left": gone at once)
    prepared: bool = False  # Versus: its secret setup choice is in (ZD-B4)
    base_d: int = 0  # the Spook's D before the task's bonus (public: the roster's)
    played: int = 0  # the cards it has played from its hand (ZD-C7)


def _solo(name: str, doc: str) -> property:
    """A solo-play accessor of the one side's field (tests and tools read them)."""

    def get(state: ZeroDarkState) -> Any:
        return getattr(state._first_side(), name)

    def put(state: ZeroDarkState, value: Any) -> None:
        setattr(state._first_side(), name, value)

    return property(get, put, doc=doc)


class ZeroDarkState(State):
    """One Zero Dark mission in progress (the umpire's secret)."""

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
            if zone not in board.markers:
                raise RulesError(f"{board.name} has no {zone!r} deployment zone for Versus")
            starts = board.marker(zone)
            if n > len(starts):
                raise RulesError(f"{board.name} deploys at most {len(starts)} heroes, not {n}")
            team = "" if self.mode == "solo" else seat
            side = Side(seat, [])
            for i, sq in enumerate(starts[:n]):
                hid = f"H{k * n + i + 1}"
                kind, profile = roster[i]
                facing = _towards(board, sq)
                heroes.append(Model(hid, "hero", sq, cyl=profile.cyl, facing=facing, team=team))  # type: ignore[arg-type]
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
        self.phase = "choose"
        self.cancel_next = False  # a cautious move's success (ZD-C10)
        self.cqb_queue: list[tuple[str, str, str]] = []  # (hero, bogey, who moved)
        self.after_cqb = ""
        self.engaged_at_start: set[str] = set()
        self.reunite: tuple[str, str] | None = None  # (ally, hero) that must close (ZD-D2)
        self.objectives_done: list[str] = []
        self.deployment_marker = board.marker("deployment")[0]
        self._outcome: Outcome | None = None
        self.report: dict[str, Any] | None = None
        # The Spooks (ZD-C7, ZD-B*, ZD-T*): in solo their choices are options; in Versus
        # each team records them in secret at the start (ZD-B4).
        self.aside_target = 0
        self.second_deck = False
        self.turn_seat = seats[0]  # whose activation comes next (Versus alternates)
        self.red_seat = seats[0]  # the team whose activation the flip follows
        self.objectives_by: dict[str, str] = {}
        self.win = parse_win(str(config["win"]))
        self.susceptible_tiers = parse_susceptible(str(config["susceptible"]))
        if self.mode == "solo":
            side = self.sides[TEAM]
            side.task = str(config["task"]) if side.spook else "none"
            if side.task not in TASKS:  # pragma: no cover - the schema checks the choice
                raise RulesError(f"task is one of {', '.join(TASKS)}")
            side.buying_time = bool(config["buy_time"]) and side.spook is not None
        self._place_pings(parse_red_force_specs(str(config["red_force"])))
        if self.mode == "solo":
            self._setup_sides()
        else:
            self.phase = "prepare"  # both teams choose in secret first (ZD-B4)

    # ================================================================== helpers

    def _emit(self, kind: str, *, to: Sequence[str] | None = None, **data: Any) -> Event:
        event = Event(kind, data, None if to is None else frozenset(to))
        self.events.append(event)
        return event

    @property
    def board(self) -> Board:
        return self.position.board

    def heroes(self) -> list[Model]:
        return [m for m in self.position.models.values() if m.kind == "hero"]

    def characters(self) -> list[Model]:
        """Characters that can see and engage: heroes and allies not out of action."""
        return [m for m in self.position.models.values() if m.is_character and m.state != "ooa"]

    def pings(self) -> list[Model]:
        return [m for m in self.position.models.values() if m.kind == "ping"]

    def bogeys(self) -> list[Model]:
        return [m for m in self.position.models.values() if m.kind == "bogey"]

    def _set(self, model: Model) -> None:
        self.position = self.position.with_model(model)

    def stats(self, model_id: str) -> HeroStats:
        """A character's profile now (task bonuses included)."""
        return self.hero_stats.get(model_id, HERO if model_id.startswith("H") else ALLY)

    def bogey_stats(self, model: Model) -> BogeyStats:
        return BOGEYS[model.tier or "grunt"]

    def _roll(self, dice: int, tn: int, purpose: str, who: str) -> tuple[int, list[int]]:
        """A ZD-C1 test: ``dice`` d12s from the keyed stream of this test, split into the
        most groups reaching ``tn``; the roll and the split are public."""
        self.tests += 1
        rng = self._streams.stream("test", self.tests)
        rolled = [rng.die(12) for _ in range(max(0, dice))]
        split = best_split(rolled, tn) if rolled else ()
        self._emit(
            "test",
            who=who,
            purpose=purpose,
            dice=len(rolled),
            tn=tn,
            rolled=rolled,
            groups=[list(g) for g in split],
            successes=len(split),
            rule="ZD-C1",
        )
        return len(split), rolled

    # ================================================================== pings (FR-P*)

    def _place_pings(self, specs: Sequence[PingSpec]) -> None:
        """FR-P1: the Red Force's counters, mixed face down, on ping sites at random."""
        sites = list(self.board.marker("ping"))
        free = [s for s in sites if self.position.at(s) is None]
        if len(specs) > len(free):
            raise RulesError(
                f"red_force has {len(specs)} pings but {self.board.name} has {len(free)} "
                "free ping sites"
            )
        squares = self._streams.stream("ping-sites").sample(free, len(specs))
        squares.sort()
        mixed = self._streams.stream("ping-mix").shuffled(list(specs))
        for square, (tier, flags) in zip(squares, mixed, strict=True):
            self._new_ping(square, tier, flags)

    def _new_ping(self, square: Square, tier: str, flags: frozenset[str] = frozenset()) -> str:
        self.pings_made += 1
        pid = f"P{self.pings_made}"
        self.ping_types[pid] = tier
        self.ping_flags[pid] = flags
        self._set(Model(pid, "ping", square, cyl=BOGEYS["grunt"].cyl))
        self._emit("ping_placed", ping=pid, square=square.name)
        return pid

    def _reveal_check(self) -> None:
        """FR-P3: every ping a character has LOS to (in its field of view) or is engaged
        with is turned over and replaced by a bogey of its type (in ping order)."""
        for ping in sorted(self.pings(), key=lambda m: _num(m.id)):
            for who in self.characters():
                if self.position.engaged(who.id, ping.id):
                    self._reveal(ping, who, "engaged")
                    break
                if self.position.sees(who.id, ping.id):
                    self._reveal(ping, who, "sight")
                    break

    def _reveal(self, ping: Model, by: Model, how: str) -> None:
        tier = self.ping_types.pop(ping.id)
        flags = self.ping_flags.pop(ping.id, frozenset())
        self.bogeys_made += 1
        bid = f"B{self.bogeys_made}"
        stats = BOGEYS[tier]
        self.position = self.position.without(ping.id)
        facing = _facing_to(ping.square, by.square)
        self._set(Model(bid, "bogey", ping.square, cyl=stats.cyl, facing=facing, tier=tier))  # type: ignore[arg-type]
        # A bogey enters play with its tier's support tokens (ZD-C4, ruling).
        self.support[bid] = stats.support
        self.flags[bid] = flags
        self.revealed[ping.id] = bid
        secrets: list[tuple[Side, str]] = []
        for side in self.sides.values():
            for attr in ("double_agent", "boss_target"):
                if getattr(side, attr) == ping.id:
                    setattr(side, attr, bid)
                    secrets.append((side, attr))
        self._emit(
            "ping_revealed",
            ping=ping.id,
            face=PING_LABEL[tier],
            tier=tier,
            bogey=bid,
            square=ping.square.name,
            by=by.id,
            how=how,
            support=stats.support,
            flags=sorted(flags - {"susceptible"}),
            rule="FR-P3",
        )
        for side, secret in secrets:
            # The Spook's player learns which bogey its task is about (ZD-T3, ZD-T4).
            rule = "ZD-T3" if secret == "double_agent" else "ZD-T4"
            self._emit(secret, to=(side.seat,), bogey=bid, rule=rule)

    # ================================================================== the Spook (setup)

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
        owner = self.position.models.get(self.ally_of.get(model.id, ""))
        return owner.team if owner is not None else TEAM

    def side_of(self, model: Model) -> Side:
        return self.sides[self.seat_of(model)]

    def _setup_sides(self) -> None:
        """Each side's Spook: the task with its equipment (ZD-T1), the umpire's secret
        picks (ZD-T3, ZD-T4), then the hand or buying time (ZD-C7, ZD-B1; with both Versus
        Spooks buying, the set-aside count is the sum of their D, ZD-B4, ZD-B5); then the
        reveal check of the placement and, in Versus, the roll-off (ZD-C9)."""
        for side in self.sides.values():
            self._equip(side)
        hands = self._deal()
        for side in self.sides.values():
            self._announce(side, hands.get(side.seat, []))
        self._reveal_check()
        if self.mode != "solo":
            self._roll_off()

    def _equip(self, side: Side) -> None:
        """ZD-T1: the task's bonus or equipment; ZD-T3, ZD-T4: the umpire's secret picks,
        each from a stream keyed by its purpose and the side (so that one side's secret
        choice shifts no draw of the other's)."""
        spook = side.spook
        if spook is None:
            return
        side.base_d = self.stats(spook).d
        if side.task in TASK_BONUS:
            stat, amount = TASK_BONUS[side.task]
            self.hero_stats[spook] = self.stats(spook).with_bonus(stat, amount)
        if side.task == "observation":
            self.upgrades[spook].append("dotlight")  # ZD-T5: the task's equipment
        if side.task == "rescue":
            exclude = {"nemesis", "named"}
            if self.config["rescue_excludes_synthetic"]:
                exclude.add("synthetic")
            pool = sorted((p for p, f in self.ping_flags.items() if not f & exclude), key=_num)
            if not pool:
                raise RulesError("the Rescue task needs a ping that may be a double agent (ZD-T3)")
            side.double_agent = self._streams.stream("double-agent", side.seat).choice(pool)
        if side.task == "assassination":
            bosses = sorted((p for p, t in self.ping_types.items() if t == "boss"), key=_num)
            if not bosses:
                raise RulesError("the Assassination task needs a Boss ping (ZD-T4)")
            side.boss_target = self._streams.stream("boss-target", side.seat).choice(bosses)

    def _deal(self) -> dict[str, list[PlayingCard]]:
        """ZD-C7: each Spook that does not buy time draws D cards (its D in force at the
        start, task bonuses included, ZD-B6); ZD-B2, ZD-B4, ZD-B5: the Spooks that buy
        time set aside the first flips, the sum of their D.

        Solo: the hand is the top D cards. Versus: a Spook's D is its team's secret (a
        task's bonus would tell the task), so the hands are dealt from the bottom of the
        Control Deck, one card to each Spook in turn (team1's from the bottom card up,
        team2's from the one above it): neither hand, nor the cards flipped from the top,
        depend on the other Spook's D (ruling)."""
        wants: dict[str, int] = {}
        for side in self.sides.values():
            if side.spook is None:
                continue
            d = self.stats(side.spook).d
            if side.buying_time:
                self.aside_target += d
            else:
                wants[side.seat] = d
        if self.mode == "solo":
            return {
                seat: [self.deck.draw() for _ in range(min(d, len(self.deck)))]
                for seat, d in wants.items()
            }
        order = list(self.deck)  # top first
        n = len(order)
        picks: dict[str, list[int]] = {}
        for k, seat in enumerate(self.sides):
            if seat in wants:
                picks[seat] = [n - 1 - (k + 2 * j) for j in range(wants[seat]) if k + 2 * j < n]
        taken = {i for positions in picks.values() for i in positions}
        dealt = [order[i] for seat in picks for i in picks[seat]]
        rest = [card for i, card in enumerate(order) if i not in taken]
        self.deck = Deck(dealt + rest, name="control")
        return {seat: [self.deck.draw() for _ in picks[seat]] for seat in picks}

    def _announce(self, side: Side, hand: list[PlayingCard]) -> None:
        """The private events of a side's setup: its hand or buying time, and its task."""
        spook = side.spook
        if spook is None:
            return
        private = None if self.mode == "solo" else (side.seat,)
        if side.buying_time:
            d = self.stats(spook).d
            self._emit("buying_time", to=private, spook=spook, cards=d, rule="ZD-B1")
        else:
            side.hand = hand
            self._emit("hand_drawn", to=private, spook=spook, cards=len(hand), rule="ZD-C7")
        self._emit("task", to=private, spook=spook, task=side.task, rule="ZD-T1")

    def _prepare(self, seat: str, task: str, buy: str) -> None:
        """ZD-B4: a Versus team's secret record of its Spook's task and whether it buys
        time; once both are in, the buying-time choices are revealed together (ZD-B5)."""
        side = self.sides[seat]
        side.task = task if side.spook else "none"
        side.buying_time = buy == "buy" and side.spook is not None
        side.prepared = True
        self._emit("prepared", to=(seat,), seat=seat, task=side.task, buy=side.buying_time)
        if all(x.prepared for x in self.sides.values()):
            self._emit(
                "buying_time_choices",
                choices={x.seat: x.buying_time for x in self.sides.values()},
                rule="ZD-B5",
            )
            self.phase = "choose"
            self._setup_sides()

    def _roll_off(self) -> None:
        """ZD-C9: a roll-off (a d6 each, again on a tie) picks the team that starts."""
        seats = list(self.sides)
        for k in range(100):
            rng = self._streams.stream("roll-off", k)
            rolls = [rng.die(6) for _ in seats]
            if rolls[0] != rolls[1]:
                first = seats[0] if rolls[0] > rolls[1] else seats[1]
                self.turn_seat = self.red_seat = first
                self._emit("roll_off", rolls=dict(zip(seats, rolls, strict=True)), first=first)
                return
        self.turn_seat = seats[0]  # pragma: no cover - 100 ties in a row

    # ================================================================== protocol

    def to_act(self) -> frozenset[str]:
        if self._outcome is not None:
            return frozenset()
        if self.phase == "prepare":
            return frozenset(x.seat for x in self.sides.values() if not x.prepared)
        if self.phase == "cqb" and self.cqb_queue:
            return frozenset({self.seat_of(self.position.model(self.cqb_queue[0][0]))})
        if self.phase == "red":
            return frozenset({self.red_seat})
        if self.active is not None and self.active in self.position.models:
            return frozenset({self.seat_of(self.position.model(self.active))})
        return frozenset({self.turn_seat})

    def _can_activate(self, seat: str | None = None) -> list[Model]:
        """Heroes and allies that may be activated now (ZD-C9, ZD-D0) — of ``seat``'s team
        when given — with the ZD-D2 restriction: an ally too far from its hero, or that
        hero, goes next."""
        out = [
            m
            for m in self.position.models.values()
            if m.is_character
            and m.state != "ooa"
            and m.id not in self.acted
            and (seat is None or self.seat_of(m) == seat)
        ]
        if self.reunite is not None:
            pair = [m for m in out if m.id in self.reunite]
            if pair:
                out = pair
        return sorted(out, key=lambda m: (m.kind != "hero", _num(m.id)))

    def legal_actions(self, seat: str) -> list[Action]:
        if seat not in self.to_act():
            return []
        phase = self.phase
        if phase == "prepare":
            if self.sides[seat].spook is None:
                return [Action(seat, "prepare", ("none", "hand"))]
            tasks = [t for t in TASKS if self._task_refused(t) is None]
            return [Action(seat, "prepare", (t, b)) for t in tasks for b in ("hand", "buy")]
        if phase == "choose":
            return [Action(seat, "activate", (m.id,)) for m in self._can_activate(seat)]
        if phase == "red":
            out = [Action(seat, "flip")]
            out += [Action(seat, "play", (c.to_json(),)) for c in self.sides[seat].hand]
            return out
        if phase == "cqb":
            return [Action(seat, "fight"), Action(seat, "persuade")]
        hero = self._hero()
        if phase == "tested":
            return self._tested_actions(seat, hero)
        out = self._automatic_actions(seat, hero)
        if phase == "bonus" and self.steps == 0:
            out.append(Action(seat, "done"))
        return out

    def _automatic_actions(self, seat: str, hero: Model) -> list[Action]:
        out: list[Action] = []
        left = self.stats(hero.id).m - self.steps
        out += [Action(seat, "step", (sq.name,)) for sq in self.position.steps(hero.id, left)]
        if self.position.can_stop(hero.id, hero.square):
            # A new facing is the automatic action, or the end of a move (FR-L5).
            out += [Action(seat, "face", (f,)) for f in FACINGS if f != hero.facing]
            out.append(Action(seat, "stop"))
        if self.steps == 0:
            out += [Action(seat, "door", tuple(e.name.split())) for e in self._doors_at(hero)]
            if hero.square in self.board.markers.get("exit", ()):
                out.append(Action(seat, "exit"))
            target = self._verifiable(hero)
            if target is not None:
                out.append(Action(seat, "verify", (target,)))
        return out

    def _tested_actions(self, seat: str, hero: Model) -> list[Action]:
        out: list[Action] = []
        for b in self._shootable(hero):
            out.append(Action(seat, "shoot", (b.id,)))
            if "dotlight" in self.upgrades.get(hero.id, []):
                out.append(Action(seat, "dotlight", (b.id,)))
        if self._interaction(hero) is not None:
            out.append(Action(seat, "interact"))
        out += [Action(seat, "cautious"), Action(seat, "pass")]
        return out

    def _hero(self) -> Model:
        """The character taking its activation."""
        if self.active is None:  # pragma: no cover - the phases guarantee one
            raise RuntimeError("no hero is activated")
        return self.position.model(self.active)

    def _doors_at(self, hero: Model) -> list[Edge]:
        """Doors on the edges of the hero's squares (it opens or closes one, ZD-C2)."""
        out: set[Edge] = set()
        for sq in hero.squares:
            for side in "nesw":
                e = Edge.of(sq, side)
                if e in self.board.doors:
                    out.add(e)
        return sorted(out)

    def _shootable(self, hero: Model) -> list[Model]:
        """Enemies the character has LOS to in its field of view, not entirely obscured
        (ZD-C3, FR-L5, FR-S2): bogeys, and in Versus the other team's characters."""
        out = []
        for b in self._enemies(hero):
            report = self.position.report_if_seen(hero.id, b.id)
            if report is not None and report.los and not report.entirely_obscured:
                out.append(b)
        return out

    def _enemies(self, model: Model) -> list[Model]:
        """Bogeys, and in Versus the other team's characters standing (ZD-C9)."""
        out = sorted(self.bogeys(), key=lambda m: _num(m.id))
        if self.mode != "solo":
            mine = self.seat_of(model)
            out += sorted(
                (c for c in self.characters() if self.seat_of(c) != mine),
                key=lambda m: (m.kind != "hero", _num(m.id)),
            )
        return out

    def _near_square(self, model: Model, square: Square) -> bool:
        """On ``square`` or engaged with it: one of its 8 neighbours, not across a wall
        (FR-S1 for a marker, ruling)."""
        for sq in model.squares:
            if sq == square:
                return True
            if max(abs(sq.row - square.row), abs(sq.col - square.col)) == 1 and (
                self.position.rules.engage_through_walls or not self.position.walled(sq, square)
            ):
                return True
        return False

    def _interaction(self, hero: Model) -> tuple[str, Square] | None:
        """What ``interact`` would work on: an objective not yet done (A(12)), or the
        dead-drop for the Spook on the Acquisition task (A(16), ZD-T6, ZD-C10)."""
        side = self.side_of(hero)
        if (
            side.task == "acquisition"
            and hero.id == side.spook
            and not side.acquired
            and self._near_square(hero, self.deployment_marker)
        ):
            return ("dead-drop", self.deployment_marker)
        for sq in self.board.markers.get("objective", ()):
            if sq.name not in self.objectives_done and self._near_square(hero, sq):
                return ("objective", sq)
        return None

    def _verifiable(self, hero: Model) -> str | None:
        """ZD-T4: the Spook engaged with the down Boss it must verify."""
        side = self.side_of(hero)
        target = side.boss_target
        if hero.id != side.spook or target is None or side.verified:
            return None
        boss = self.position.models.get(target)
        if boss is None or boss.state != "down" or not self.position.engaged(hero.id, boss.id):
            return None
        return boss.id

    # ================================================================== apply

    def apply_unchecked(self, action: Action) -> list[Event]:
        before = len(self.events)
        kind, args = action.kind, action.args
        if kind == "prepare":
            self._prepare(action.seat, str(args[0]), str(args[1]))
        elif kind == "activate":
            self._start_activation(str(args[0]))
        elif kind == "step":
            self._step(self.board.square(str(args[0])))
        elif kind == "face":
            moved = self.steps > 0
            self._face(str(args[0]))
            self._end_automatic(moved=moved)
        elif kind == "stop":
            self._end_automatic(moved=self.steps > 0)
        elif kind == "door":
            self._door(Edge.parse(" ".join(str(a) for a in args)))
            self._end_automatic(moved=False)
        elif kind == "exit":
            self._exit()
        elif kind == "verify":
            self._verify(str(args[0]))
            self._end_automatic(moved=False)
        elif kind == "done":
            self._finish_activation()
        elif kind in ("shoot", "dotlight"):
            self._shoot(str(args[0]), dotlight=kind == "dotlight")
        elif kind == "interact":
            self._interact()
        elif kind == "cautious":
            self._cautious()
        elif kind == "pass":
            self._emit("pass", model=self.active)
            self._finish_activation()
        elif kind in ("fight", "persuade"):
            self._resolve_cqb(persuade=kind == "persuade")
            self._run_cqb()  # the rest of the queue, then where it was started from
        elif kind == "flip":
            self._flip(None)
        elif kind == "play":
            self._play(str(args[0]))
        self._check_end()
        return self.events[before:]

    # ------------------------------------------------------------------ activations

    def _start_activation(self, model_id: str) -> None:
        self.active = model_id
        self.steps = 0
        self.bonus = 0
        self.in_bonus = False
        self.phase = "move"
        self.engaged_at_start = self._engaged_bogeys(self.position.model(model_id))
        self._emit("activation", model=model_id, turn=self.turn)

    def _engaged_bogeys(self, model: Model) -> set[str]:
        """Enemies ``model`` is engaged with: bogeys, and other teams' characters."""
        return {b.id for b in self._enemies(model) if self.position.engaged(model.id, b.id)}

    def _step(self, to: Square) -> None:
        hero = self._hero()
        self._set(hero.at(to))
        self.steps += 1
        self._emit("step", model=hero.id, square=to.name)
        self._reveal_check()

    def _face(self, facing: str) -> None:
        hero = self._hero()
        self._set(replace(hero, facing=facing))  # type: ignore[arg-type]
        self._emit("face", model=hero.id, facing=facing)
        self._reveal_check()

    def _door(self, edge: Edge) -> None:
        self._hero()
        now_open = edge not in self.position.open_doors
        self.position = self.position.with_door(edge, now_open)
        self._emit("door", model=self.active, edge=edge.name, open=now_open)
        self._reveal_check()

    def _exit(self) -> None:
        """Leaving the table by the exit (an automatic action; the activation ends)."""
        hero = self._hero()
        self.red_seat = self.seat_of(hero)
        self.exited.add(hero.id)
        self.position = self.position.without(hero.id)
        self._emit("exit", model=hero.id, square=hero.square.name, rule="ZD-C8")
        self._finish_activation()

    def _end_automatic(self, *, moved: bool) -> None:
        """The automatic action (or a bonus action) is over: CQB for each bogey the
        move brought into engagement (ZD-C5), then the tested action or the next bonus."""
        hero = self._hero()
        self.steps = 0
        if moved:
            for b in sorted(self._engaged_bogeys(hero) - self.engaged_at_start, key=_num):
                self.cqb_queue.append((hero.id, b, "hero"))
            self.engaged_at_start = self._engaged_bogeys(hero)
        self.after_cqb = "automatic"
        self._run_cqb()

    def _after_automatic(self) -> None:
        if self.active is None or self.active not in self.position.models:
            self._finish_activation()
            return
        if self.position.model(self.active).state == "ooa":
            self._finish_activation()  # down or dead in the CQB
            return
        if self.in_bonus:
            self.bonus -= 1
            if self.bonus <= 0:
                self._finish_activation()
            else:
                self.phase = "bonus"
            return
        self.phase = "tested"

    def _begin_bonus(self, successes: int) -> None:
        """Successes beyond the first of a tested action are bonus actions (ZD-C2)."""
        self.bonus = max(0, successes - 1)
        if self.bonus and self.active in self.position.models:
            self.in_bonus = True
            self.phase = "bonus"
            self.engaged_at_start = self._engaged_bogeys(self._hero())
            self._emit("bonus_actions", model=self.active, count=self.bonus, rule="ZD-C2")
        else:
            self._finish_activation()

    def _finish_activation(self) -> None:
        who = self.active
        if who is not None and who in self.position.models:
            self.red_seat = self.seat_of(self.position.model(who))
        if who is not None:
            self.acted.add(who)
            self._emit("activation_end", model=who)
        self.active = None
        self.steps = 0
        self.bonus = 0
        self.in_bonus = False
        if who is not None:
            self._end_of_activation_checks(who)
        self._red_force()

    def _end_of_activation_checks(self, who: str) -> None:
        """ZD-D3: the ally that had to close on its hero and did not is treated as dead."""
        if self.reunite is not None and who in self.reunite:
            ally, hero = self.reunite
            self.reunite = None
            if self._too_far(ally, hero):
                self._emit("ally_lost", ally=ally, hero=hero, rule="ZD-D3")
                self._kill_character(ally)
        self._dependent_check()

    # ------------------------------------------------------------------ tested actions

    def _target_armour(self, target: Model) -> int:
        if target.kind == "bogey":
            return self.bogey_stats(target).defence
        return self.stats(target.id).av

    def _range(self, a: Model, b: Model) -> int:
        """FR-R1 range; with no route at all, the king-move distance (ruling)."""
        found = self.position.range(a.id, b.id)
        if found is not None:
            return found
        return min(
            max(abs(x.row - y.row), abs(x.col - y.col)) for x in a.squares for y in b.squares
        )

    def _shoot(self, target_id: str, *, dotlight: bool) -> None:
        """ZD-C3 (and ZD-L* with a dotlight): F dice (+1 on a targeted bogey) at TN =
        range + armour + 2 if obscured (a dotlight ignores the armour)."""
        hero = self._hero()
        target = self.position.model(target_id)
        report = self.position.report(hero.id, target.id)
        rng = self._range(hero, target)
        armour = 0 if dotlight else self._target_armour(target)
        tn = rng + armour + (2 if report.obscured else 0)
        dice = self.stats(hero.id).f + (1 if target.id in self.targeted else 0)
        purpose = "dotlight" if dotlight else "shoot"
        self._emit(purpose, model=hero.id, target=target.id, range=rng, status=report.status)
        hits, _ = self._roll(dice, tn, f"{purpose} {target.id}", hero.id)
        if dotlight:
            spent = self._dotlight_hits(hero, target, hits)
            # ZD-L4: the successes left are bonus actions "as normal": never the first.
            self._begin_bonus(1 + max(0, hits - max(spent, 1)) if hits else 0)
            return
        if target.kind == "bogey":
            self._hits_on_bogey(target, hits, shot=True)
        else:
            self._wound_character(target.id, hits)  # Versus: a hero shot (ZD-C9)
        self._begin_bonus(hits)

    def _dotlight_hits(self, hero: Model, target: Model, hits: int) -> int:
        """ZD-L1…L4: never wounds; one success targets; a second removes a support token
        (two if already targeted), at most one token per shot; the rest are bonus
        actions. Returns the successes spent."""
        spent = 0
        if hits and target.id not in self.targeted:
            self.targeted.add(target.id)
            spent = 1
            side = self.side_of(hero)
            if hero.id == side.spook and target.kind == "bogey":
                side.observed.add(target.id)  # ZD-T5: the Spook's targetings of bogeys
            self._emit("targeted", model=target.id, by=hero.id, rule="ZD-L2")
        need = 1 if spent else 2
        if hits - spent >= need and self.support.get(target.id, 0) > 0:
            self.support[target.id] -= 1
            spent += need
            rule = "ZD-L2" if need == 1 else "ZD-L3"
            self._emit("support_removed", model=target.id, left=self.support[target.id], rule=rule)
        return spent

    def _interact(self) -> None:
        hero = self._hero()
        found = self._interaction(hero)
        if found is None:  # pragma: no cover - legal only with something to work on
            raise RuntimeError("nothing to interact with")
        what, square = found
        tn = ACQUISITION_TN if what == "dead-drop" else INTERACT_TN
        hits, _ = self._roll(self.stats(hero.id).a, tn, f"interact {what}", hero.id)
        if hits:
            if what == "dead-drop":
                self.side_of(hero).acquired = True
                self._emit("acquired", model=hero.id, square=square.name, rule="ZD-T6")
            else:
                self.objectives_done.append(square.name)
                self.objectives_by[square.name] = self.seat_of(hero)
                self._emit("objective", model=hero.id, square=square.name, rule="ZD-C8")
        self._begin_bonus(hits)

    def _cautious(self) -> None:
        """ZD-C10: an A(10) test; a success cancels the primary action of the next flip."""
        hero = self._hero()
        hits, _ = self._roll(self.stats(hero.id).a, CAUTIOUS_TN, "cautious", hero.id)
        if hits:
            self.cancel_next = True
            self._emit("cautious", model=hero.id, rule="ZD-C10")
        self._begin_bonus(hits)

    def _verify(self, boss_id: str) -> None:
        """ZD-T4: the Spook puts the down Boss into the dead state."""
        self.side_of(self._hero()).verified = True
        self._emit("verified", model=self.active, boss=boss_id, rule="ZD-T4")
        self._kill_bogey(self.position.model(boss_id))

    # ------------------------------------------------------------------ wounds

    def _hits_on_bogey(self, bogey: Model, hits: int, *, shot: bool) -> None:
        """ZD-C3: each hit of a shot removes a support token if the bogey has one, else
        wounds it; at Wnd wounds it is down; a down bogey hit again is dead. CQB hits
        wound (ZD-C5)."""
        for _ in range(hits):
            current = self.position.models.get(bogey.id)
            if current is None:
                return
            if shot and self.support.get(bogey.id, 0) > 0:
                self.support[bogey.id] -= 1
                self._emit(
                    "support_removed", model=bogey.id, left=self.support[bogey.id], rule="ZD-C3"
                )
                continue
            if current.state == "down":
                if any(bogey.id == x.boss_target for x in self.sides.values()):
                    # ZD-T4: the Boss to assassinate is only down until verified.
                    self._emit("only_down", model=bogey.id, rule="ZD-T4")
                    continue
                self._kill_bogey(current)
                return
            self.wounds[bogey.id] = self.wounds.get(bogey.id, 0) + 1
            self._emit("wounded", model=bogey.id, wounds=self.wounds[bogey.id])
            if self.wounds[bogey.id] >= self.bogey_stats(current).wnd:
                self._set(replace(current, state="down"))
                self._emit("down", model=bogey.id, rule="ZD-C3")

    def _kill_bogey(self, bogey: Model) -> None:
        self.position = self.position.without(bogey.id)
        self.targeted.discard(bogey.id)
        self._emit("dead", model=bogey.id, rule="ZD-C3")

    def _wound_character(self, model_id: str, hits: int) -> None:
        """ZD-C5: a character with 2 wounds is down, with 3 dead; both are out of action."""
        current = self.position.models.get(model_id)
        if current is None or not hits:
            return
        self.wounds[model_id] = self.wounds.get(model_id, 0) + hits
        w = self.wounds[model_id]
        self._emit("wounded", model=model_id, wounds=w)
        if w >= HERO_DEAD:
            self._kill_character(model_id)
        elif w >= HERO_DOWN and current.state != "ooa":
            self._set(replace(current, state="ooa"))
            self._emit("down", model=model_id, rule="ZD-C5")

    def _kill_character(self, model_id: str) -> None:
        current = self.position.models.get(model_id)
        if current is None:
            return
        self.dead.add(model_id)
        if self.reunite is not None and model_id in self.reunite:
            self.reunite = None  # ZD-D2 binds a living pair only
        self._set(replace(current, state="ooa"))
        self._emit("dead", model=model_id, rule="ZD-C5")
        if current.kind == "ally":
            # An ally treated as dead leaves the table (ZD-D3).
            self.position = self.position.without(model_id)

    # ------------------------------------------------------------------ CQB (ZD-C5)

    def _run_cqb(self) -> None:
        """Resolve the queued CQBs in order; stop for the team's choice where a hero may
        persuade (ZD-P1); then go on where the queue was started from."""
        while self.cqb_queue:
            char_id, bogey_id, _ = self.cqb_queue[0]
            char = self.position.models.get(char_id)
            bogey = self.position.models.get(bogey_id)
            if (
                char is None
                or bogey is None
                or char.state == "ooa"
                or bogey.state in ("down", "ooa")
                or not self.position.engaged(char_id, bogey_id)
            ):
                self.cqb_queue.pop(0)
                continue
            if bogey.kind == "bogey" and char.kind == "hero" and self._susceptible(bogey, char):
                self.phase = "cqb"
                self._emit("cqb_choice", model=char_id, bogey=bogey_id, rule="ZD-P1")
                return
            self._resolve_cqb(persuade=False)
            if self._outcome is not None:
                return
        self._continue_after_cqb()

    def _susceptible(self, bogey: Model, char: Model) -> bool:
        """ZD-P0: a rule (the Rescue task's double agent) or the mission's data makes a
        bogey susceptible; Synthetic bogeys never are (ZD-P4). The double agent is one
        side's secret (ZD-T3): only its own side may persuade it (in Versus the other
        team fights it as any bogey, and so learns nothing of it, ruling)."""
        seat = self.seat_of(char)
        flags = self.flags.get(bogey.id, frozenset())
        if "synthetic" in flags:
            return False
        return (
            any(bogey.id == x.double_agent for x in self.sides.values() if x.seat == seat)
            or "susceptible" in flags
            or bogey.tier in self.susceptible_tiers
        )

    def _resolve_cqb(self, *, persuade: bool) -> None:
        """Both sides roll at once (ZD-C5): the character D (A when persuading) at TN 5/6/7
        by the bogey's tier, the bogey Att + support at TN 6; each success wounds the
        other side, except the persuading test, which never wounds (ZD-P2); more
        successes than the bogey persuade it (ZD-P1)."""
        char_id, bogey_id, who = self.cqb_queue.pop(0)
        char = self.position.model(char_id)
        bogey = self.position.model(bogey_id)
        self._emit("cqb", model=char_id, bogey=bogey_id, moved=who, persuade=persuade)
        if bogey.is_character:
            # Versus: two characters fight with D at TN 6 each (ZD-C9, ruling).
            ours, _ = self._roll(self.stats(char_id).d, BOGEY_CQB_TN, "cqb", char_id)
            theirs, _ = self._roll(self.stats(bogey_id).d, BOGEY_CQB_TN, "cqb", bogey_id)
            self._wound_character(bogey_id, ours)
            self._wound_character(char_id, theirs)
            return
        stats = self.bogey_stats(bogey)
        mine = self.stats(char_id).a if persuade else self.stats(char_id).d
        ours, _ = self._roll(mine, stats.cqb_tn, "persuade" if persuade else "cqb", char_id)
        theirs, _ = self._roll(
            stats.att + self.support.get(bogey_id, 0), BOGEY_CQB_TN, "cqb", bogey_id
        )
        if not persuade:
            self._hits_on_bogey(bogey, ours, shot=False)
        self._wound_character(char_id, theirs)
        if persuade and ours > theirs:
            self._persuaded(bogey, char)

    def _persuaded(self, bogey: Model, by: Model) -> None:
        """ZD-P1, ZD-P3, ZD-P5, ZD-D0: the bogey becomes an Ally of the persuading hero
        (of the nearest hero not dead if that hero was killed; ties by the seeded RNG; it
        leaves play if none is left), with the ally stat line and the Dependent upgrade."""
        owner: Model | None = by if by.id not in self.dead else None
        if owner is not None and owner.kind != "hero":
            owner = self.position.models.get(self.ally_of.get(owner.id, ""))
        if owner is None:
            living = [h for h in self.heroes() if h.id not in self.dead]
            if living:
                dist = {h.id: self.position.range_between(bogey.squares, h.squares) for h in living}
                best = min((d for d in dist.values() if d is not None), default=None)
                tied = sorted((h for h in living if dist[h.id] == best), key=lambda m: _num(m.id))
                if len(tied) > 1:
                    owner = self._streams.stream("persuaded-owner", bogey.id).choice(tied)
                elif tied:
                    owner = tied[0]
        self.position = self.position.without(bogey.id)
        self.targeted.discard(bogey.id)
        rescuer = next(
            (x for x in self.sides.values() if bogey.id == x.double_agent and by.id == x.spook),
            None,
        )
        if owner is None:
            self._emit("persuaded", bogey=bogey.id, by=by.id, ally=None, rule="ZD-P3")
            if rescuer is not None:
                rescuer.rescued = "left"
            return
        self.allies_made += 1
        aid = f"A{self.allies_made}"
        self._set(Model(aid, "ally", bogey.square, cyl=ALLY.cyl, facing=bogey.facing))
        self.hero_stats[aid] = ALLY
        self.upgrades[aid] = ["dependent"]  # ZD-P5, ZD-D1: at no cost
        self.ally_of[aid] = owner.id
        self.upgrades.setdefault(owner.id, []).append(f"ally {aid}")
        self._emit("persuaded", bogey=bogey.id, by=by.id, ally=aid, hero=owner.id, rule="ZD-P1")
        if rescuer is not None:
            rescuer.rescued = aid

    def _continue_after_cqb(self) -> None:
        step, self.after_cqb = self.after_cqb, ""
        if step == "automatic":
            self._after_automatic()
        elif step == "flip":
            self._after_flip()

    # ------------------------------------------------------------------ the Red Force

    def _asks_to_play(self, side: Side) -> bool:
        """Whether the acting team chooses between a flip and a card of its Spook's hand
        (ZD-C7: "its player may play one of them" — the Spook need not stand, ruling).

        In Versus the other team must not learn from the question whether the hand is
        empty before the rules show it (its size is the Spook's D, which a task may raise,
        ZD-T4): a team that drew a hand is asked until it has played as many cards as a
        hand can hold, D + the largest task bonus to D (ruling)."""
        if side.hand:
            return True
        if self.mode == "solo" or side.spook is None or side.buying_time:
            return False
        return side.played < side.base_d + MAX_TASK_D_BONUS

    def cards_to_come(self) -> int:
        """The Control Deck's count as the table sees it (views, ``flip`` events). Solo:
        the cards left to flip. Versus: the cards left to flip and the cards in the
        Spooks' hands together — each hand's size is its team's secret (ZD-C7, ZD-T4), and
        the deck's own count would tell it (ruling)."""
        if self.mode == "solo":
            return len(self.deck)
        return len(self.deck) + sum(len(x.hand) for x in self.sides.values())

    def _red_force(self) -> None:
        """After an activation: a flip, or the acting team's choice to play from its
        Spook's hand instead (ZD-C7)."""
        self._check_end()  # the last hero down ends the mission before another flip
        if self._outcome is not None:
            return
        if self._asks_to_play(self.sides[self.red_seat]):
            self.phase = "red"
            return
        self._flip(None)

    def _play(self, code: str) -> None:
        """ZD-C7: a card of the hand played as if flipped; ZD-B6: it is not a Control Deck
        flip (never set aside, and a cautious move's cancel waits for the next flip)."""
        side = self.sides[self.red_seat]
        card = next(c for c in side.hand if c.to_json() == code)
        side.hand.remove(card)
        side.played += 1
        self.deck.discard(card)  # the hand's cards were drawn: they are out
        self._emit("played", card=code, spook=side.spook, rule="ZD-C7")
        self._resolve_card(card, flipped=False)

    def _flip(self, _: None) -> None:
        """ZD-C6: flip the Control Deck's top card; with buying time the first D flips
        are set aside instead of discarded (ZD-B2, ZD-B6)."""
        card = self.deck.draw()
        self.flips += 1
        aside = len(self.deck.pile("aside")) if "aside" in self.deck.pile_names else 0
        left = self.cards_to_come()
        if not self.second_deck and aside < self.aside_target:
            self.deck.set_aside(card)
            self._emit("flip", card=card.to_json(), left=left, set_aside=True)
        else:
            self.deck.discard(card)
            self._emit("flip", card=card.to_json(), left=left)
        self._resolve_card(card, flipped=True)

    def _resolve_card(self, card: PlayingCard, *, flipped: bool) -> None:
        self.phase = "choose"
        if self.cancel_next and flipped:
            # ZD-C10: a cautious move's success cancels the next flip's primary action
            # (a card played from a hand is no flip, ZD-B6: the cancel waits for one).
            self.cancel_next = False
            self._emit("cancelled", card=card.to_json(), rule="ZD-C10")
        else:
            tier = _tier_of(card)
            candidates = self._candidates(tier) if tier is not None else []
            if not candidates:
                self._complication(card)
            else:
                self._activate(self._pick(candidates, card))
        self.after_cqb = "flip"
        self._run_cqb()

    def _after_flip(self) -> None:
        self.phase = "choose"
        self._dependent_check()
        if not len(self.deck):
            aside = self.deck.pile("aside") if "aside" in self.deck.pile_names else None
            if self.aside_target and not self.second_deck and aside is not None and len(aside):
                # ZD-B3: the set-aside cards, shuffled, are the new Control Deck.
                self.second_deck = True
                self.deck.reshuffle(self._streams.stream("second-deck"), "aside")
                self._emit("second_deck", cards=len(self.deck), rule="ZD-B3")
            else:
                self._finish_mission("the Control Deck is exhausted: the mission ends", "ZD-C6")
                return
        if not self._can_activate():
            self.turn += 1
            self.acted = set()
            self.turn_start = len(self.events)
            self._emit("turn", turn=self.turn)
        if self.mode != "solo":
            # ZD-C9: the teams alternate; a team with nobody left to act passes.
            other = next(x for x in self.sides if x != self.red_seat)
            self.turn_seat = other if self._can_activate(other) else self.red_seat

    def _candidates(self, tier: str) -> list[Model]:
        """The bogeys a flip of ``tier`` may activate; a ping counts as a Grunt (FR-P2)."""
        out = [b for b in self.bogeys() if b.tier == tier and b.state == "active"]
        if tier == "grunt":
            out += self.pings()
        return out

    def _pick(self, candidates: list[Model], card: PlayingCard) -> Model:
        """ZD-C11: ♠♣ the one nearest a hero, ♥♦ the most support tokens; then the
        seeded RNG."""
        if len(candidates) == 1:
            return candidates[0]
        if card.suit in (Suit.SPADES, Suit.CLUBS):
            score = {m.id: -(self._nearest_hero(m)[1]) for m in candidates}
        else:
            score = {m.id: self.support.get(m.id, 0) for m in candidates}
        best = max(score.values())
        tied = sorted((m for m in candidates if score[m.id] == best), key=lambda m: m.id)
        if len(tied) == 1:
            return tied[0]
        return self._streams.stream("flip-tie", self.flips).choice(tied)

    def _standing_heroes(self) -> list[Model]:
        return [m for m in self.position.models.values() if m.kind == "hero" and m.state != "ooa"]

    def _nearest_hero(self, model: Model) -> tuple[Model | None, int]:
        """The hero nearest by range (FR-R1), ties by number; (None, big) if none (ZD-C4,
        ZD-C11 and FR-P4 speak of heroes: allies are not hunted)."""
        best: tuple[Model | None, int] = (None, 10**6)
        for h in sorted(self._standing_heroes(), key=lambda m: _num(m.id)):
            r = self.position.range(model.id, h.id)
            if r is not None and r < best[1]:
                best = (h, r)
        return best

    def _complication(self, card: PlayingCard) -> None:
        """ZD-C6's default complication: a new Grunt ping at a random deployment site.
        With every site taken (FR-M3: it may not share a square), the ping is not lost: it
        goes on a free square nearest a site by range (FR-R1), at random among the nearest
        (ruling); only a map with no free square left loses it."""
        sites = self.board.marker("deployment")
        free = [s for s in sites if self.position.at(s) is None]
        if not free:
            free = self._nearest_free(sites)
        if not free:
            self._emit("complication", card=card.to_json(), ping=None)
            return
        square = self._streams.stream("complication", self.flips).choice(free)
        self._emit("complication", card=card.to_json(), ping=f"P{self.pings_made + 1}")
        self._new_ping(square, "grunt")
        self._reveal_check()

    def _nearest_free(self, sites: Sequence[Square]) -> list[Square]:
        """The free squares (no model, passable) nearest ``sites`` by FR-R1 range."""
        dist = self.position.graph.distance_map(list(sites))
        best: list[Square] = []
        least = None
        for sq in self.board.squares():
            d = int(dist[sq.row, sq.col])
            if d < 0 or self.position.at(sq) is not None or not self.board.passable[sq]:
                continue
            if least is None or d < least:
                least, best = d, [sq]
            elif d == least:
                best.append(sq)
        return best

    def _activate(self, model: Model) -> None:
        """An activated ping (FR-P4) or bogey (ZD-C4) moves up to Att squares by the
        shortest route towards the nearest hero, a step at a time, checking for reveals
        after every step; a ping revealed on the way stops there. A bogey then fights
        CQB if engaged, else shoots a character it sees."""
        self._emit("activated", model=model.id)
        att = self._att(model)
        for taken in range(att):
            current = self.position.models.get(model.id)
            if current is None:  # revealed: the ping's activation ends (ruling) …
                self._end_crossing(self.revealed.get(model.id), att - taken)
                return
            nxt = self._route_step(current, att - taken)
            if nxt is None:
                if self.position.can_stop(current.id, current.square):
                    break
                # Mid-crossing with nowhere better to go: step off the other model.
                nxt = self._step_off(current, att - taken)
            self._set(current.at(nxt))
            kind = "bogey_step" if current.kind == "bogey" else "ping_step"
            self._emit(kind, model=model.id, square=nxt.name)
            self._reveal_check()
        current = self.position.models.get(model.id)
        if current is None:
            self._end_crossing(self.revealed.get(model.id), 0)
        elif current.kind == "bogey":
            self._bogey_attack(current)

    def _end_crossing(self, bogey_id: str | None, left: int) -> None:
        """FR-M3: a ping turned over in its move while crossing another model's square
        (a bogey, a ping, a character out of action) may not stop there: the bogey that
        replaced it goes on, with the steps left, to the first square it may stop on,
        nearest the hero it hunts — the ping's move was sure to allow one — and does
        nothing else (ruling)."""
        bogey = self.position.models.get(bogey_id or "")
        while bogey is not None and not self.position.can_stop(bogey.id, bogey.square):
            if left <= 0:  # pragma: no cover - the ping's lookahead rules this out
                raise RuntimeError(f"{bogey.id} is stranded on {bogey.square.name}")
            nxt = self._step_off(bogey, left)
            left -= 1
            self._set(bogey.at(nxt))
            self._emit("bogey_step", model=bogey.id, square=nxt.name, rule="FR-M3")
            self._reveal_check()
            bogey = self.position.models.get(bogey.id)

    def _bogey_attack(self, bogey: Model) -> None:
        """ZD-C4: engaged with a character → CQB with the nearest of them; else face the
        hunted character and shoot the nearest character it sees: Att + support dice at
        TN = range + AV + 2 if obscured (cover)."""
        engaged = [c for c in self.characters() if self.position.engaged(c.id, bogey.id)]
        if engaged:
            first = min(engaged, key=lambda c: (c.kind != "hero", _num(c.id)))
            self.cqb_queue.append((first.id, bogey.id, "bogey"))
            return
        hunted, _ = self._nearest_hero(bogey)
        if hunted is not None:
            facing = _facing_to(bogey.square, hunted.square)
            if facing != bogey.facing:
                bogey = replace(bogey, facing=facing)  # type: ignore[arg-type]
                self._set(bogey)
                self._emit("face", model=bogey.id, facing=facing)
        seen = []
        for c in sorted(self._standing_heroes(), key=lambda m: _num(m.id)):
            report = self.position.report_if_seen(bogey.id, c.id)
            if report is not None and report.los and not report.entirely_obscured:
                seen.append((self._range(bogey, c), c, report))
        if not seen:
            return
        rng, target, report = min(seen, key=lambda x: x[0])
        tn = rng + self.stats(target.id).av + (2 if report.obscured else 0)
        dice = self.bogey_stats(bogey).att + self.support.get(bogey.id, 0)
        self._emit("shoot", model=bogey.id, target=target.id, range=rng, status=report.status)
        hits, _ = self._roll(dice, tn, f"shoot {target.id}", bogey.id)
        self._wound_character(target.id, hits)

    def _step_off(self, mover: Model, left: int) -> Square:
        """A step from a square ``mover`` may only cross, towards where it may stop (the
        move's lookahead guarantees one), nearest the hero it hunts first."""
        target, _ = self._nearest_hero(mover)
        options = self.position.steps(mover.id, left)
        if not options:  # pragma: no cover - FR-M3's lookahead rules this out
            raise RuntimeError(f"{mover.id} is stranded on {mover.square.name}")

        def key(sq: Square) -> tuple[bool, int, Square]:
            stops = self.position.can_stop(mover.id, sq)
            r = None if target is None else self.position.range_between([sq], target.squares)
            return (not stops, 10**6 if r is None else r, sq)

        return min(options, key=key)

    def _route_step(self, mover: Model, left: int) -> Square | None:
        """The next step of ``mover`` on a shortest route to engage the nearest hero
        (FR-S1: not across a wall), or ``None`` when it is engaged or cannot get nearer;
        it never ends a move on another model (FR-M3): a step onto one is taken only if
        the route goes on. With no route to an engaging square (a closed door, models in
        the way), it steps to bring its range (FR-R1) down if it can (ruling)."""
        target, _ = self._nearest_hero(mover)
        if target is None or self.position.engaged(mover.id, target.id):
            return None
        pos = self.position
        blocked = pos.impassable_to(mover) - set(mover.squares)
        goals = [
            sq
            for t in target.squares
            for sq in _around(t)
            if self.board.in_bounds(sq)
            and self.board.terrain_at(sq).passable
            and sq not in blocked
            and (pos.rules.engage_through_walls or not pos.walled(sq, t))
        ]
        here = mover.square
        options = pos.steps(mover.id, left)
        if goals:
            dist = pos.graph.distance_map(goals, blocked=blocked)
            d0 = int(dist[here.row, here.col])
            if d0 > 0:
                for sq in options:
                    if int(dist[sq.row, sq.col]) == d0 - 1:
                        return sq
        # No way to an engaging square now: close the range instead, if a step does.
        r0 = pos.range_between(mover.squares, target.squares)
        best: tuple[int, Square] | None = None
        for sq in options:
            r = pos.range_between(mover.at(sq).squares, target.squares)
            if r is not None and r0 is not None and r < r0 and (best is None or r < best[0]):
                best = (r, sq)
        return None if best is None else best[1]

    def _att(self, model: Model) -> int:
        return BOGEYS["grunt" if model.kind == "ping" else (model.tier or "grunt")].att

    # ------------------------------------------------------------------ Dependent (ZD-D*)

    def _too_far(self, ally: str, hero: str) -> bool:
        a, h = self.position.models.get(ally), self.position.models.get(hero)
        if a is None or h is None:
            return False
        r = self.position.range(ally, hero)
        return r is None or r > DEPENDENT_RANGE

    def _dependent_check(self) -> None:
        """ZD-D2 (checked after every activation and every flip, ZD-D3): an ally more
        than 4 from its hero makes the next activation its own or its hero's."""
        if self.reunite is not None:
            return
        for ally, hero in sorted(self.ally_of.items()):
            a = self.position.models.get(ally)
            if a is None or a.state == "ooa" or hero in self.dead:
                continue
            if self._too_far(ally, hero):
                self.reunite = (ally, hero)
                self._emit("dependent", ally=ally, hero=hero, rule="ZD-D2")
                return

    # ================================================================== the end

    def _check_end(self) -> None:
        """The mission also ends when no hero is left on the table to act."""
        if self._outcome is not None:
            return
        standing = [h for h in self.heroes() if h.state != "ooa"]
        if not standing:
            self._finish_mission("no hero is left on the table", "ZD-C8")

    def _finish_mission(self, reason: str, rule: str) -> None:
        """ZD-C5 (lost heroes), ZD-C8 (the objectives and the XP), ZD-T2/T7 (each task
        settled from the record), with the mission report; in Versus the team with more
        objectives wins, then the one that lost fewer heroes (ruling)."""
        heroes = sorted(set(self.xp), key=_num)
        lost = [h for h in heroes if self._is_lost(h)]
        objectives = [sq.name for sq in self.board.markers.get("objective", ())]
        all_done = set(objectives) <= set(self.objectives_done)
        gained: dict[str, list[tuple[str, int]]] = {h: [] for h in heroes}
        results: dict[str, bool | None] = {}
        scores: dict[str, tuple[int, int, int]] = {}
        conditions: dict[str, dict[str, bool]] = {}
        for side in self.sides.values():
            mine = [h for h in side.heroes if h in gained]
            mine_lost = [h for h in mine if h in lost]
            done = sum(1 for seat in self.objectives_by.values() if seat == side.seat)
            task = self._task_result(side, lost)
            met = {
                c: self._condition(c, side, task, all_done if self.mode == "solo" else done > 0)
                for c in self.win
            }
            met["survive"] = met.get("survive", True) and len(mine_lost) < len(mine)
            if "survive" not in self.win:
                del met["survive"]
            conditions[side.seat] = met
            success = all(met.values())
            scores[side.seat] = (sum(met.values()), done, -len(mine_lost))
            for h in mine:
                if h not in lost:
                    gained[h].append(("survived", 1))
                    if success:
                        gained[h].append(("mission success", 2))
            result = task
            results[side.seat] = None if result is None else result[0]
            if side.spook is None or result is None:
                continue
            ok, extra = result
            if ok:
                gained[side.spook].append((f"task {side.task}", 5))
                if extra:
                    gained[side.spook].append(("rescue: the ally kept", 2))
                continue
            if self.xp.get(side.spook, 0) + sum(x for _, x in gained[side.spook]) > 0:
                gained[side.spook].append((f"task {side.task} failed", -1))
                continue

            # ZD-T2: the Spook has no XP to lose; the team loses it.
            def total(h: str) -> int:
                return self.xp[h] + sum(x for _, x in gained[h])

            others = sorted(
                (h for h in mine if h != side.spook), key=lambda h: (-total(h), _num(h))
            )
            if others and total(others[0]) > 0:
                gained[others[0]].append((f"task {side.task} failed (team)", -1))
        for h, items in gained.items():
            self.xp[h] += sum(x for _, x in items)
        if self.mode == "solo":
            success = all(conditions[TEAM].values())
            winners = frozenset({TEAM}) if success else frozenset()
            # A failed mission is the Red Force's win (the umpire's side, no seat).
            sides = frozenset({"heroes"}) if success else frozenset({"red force"})
            result_text = "success" if success else "failure"
        else:
            best = max(scores.values())
            top = [seat for seat, score in scores.items() if score == best]
            winners = frozenset(top) if len(top) == 1 else frozenset()
            sides = winners
            result_text = f"{top[0]} wins" if len(top) == 1 else "a draw"
        self.report = {
            "result": result_text,
            "reason": reason,
            "objectives": {o: o in self.objectives_done for o in objectives},
            "objectives_by": dict(self.objectives_by),
            "win": list(self.win),
            "conditions": conditions,
            "lost": lost,
            "exited": sorted(self.exited, key=_num),
            "task": self.task if self.mode == "solo" else None,
            "task_success": results.get(TEAM) if self.mode == "solo" else None,
            "tasks": {
                x.seat: {"task": x.task, "success": results[x.seat]} for x in self.sides.values()
            },
            "xp": {h: {"gained": gained[h], "total": self.xp[h]} for h in heroes},
            "flips": self.flips,
            "cards_left": len(self.deck),
        }
        self._outcome = Outcome(winners, sides, reason, rule)
        self.phase = "over"
        self._emit("mission_end", reason=reason, rule=rule, report=self.report)

    def _condition(
        self, name: str, side: Side, task: tuple[bool, bool] | None, objectives: bool
    ) -> bool:
        """A mission's win condition for ``side`` (ZD-C8; see docs/missions.md):
        ``objectives`` (solo: every objective worked; Versus: one at least), ``exit`` (a
        hero left by an exit), ``extract`` (the rescued double agent left by an exit),
        the tasks by name (that task succeeded), ``survive`` (not every hero lost)."""
        if name == "objectives":
            return objectives
        if name == "exit":
            return any(h in self.exited for h in side.heroes)
        if name == "extract":
            return side.rescued is not None and side.rescued in self.exited
        if name == "survive":
            return True  # settled by the caller, from the lost heroes
        return side.task == name and task is not None and task[0]

    def _is_lost(self, hero: str) -> bool:
        """ZD-C5: dead, or out of action at the end (a hero that left is not lost)."""
        if hero in self.dead:
            return True
        model = self.position.models.get(hero)
        return hero not in self.exited and model is not None and model.state == "ooa"

    def _task_result(self, side: Side, lost: list[str]) -> tuple[bool, bool] | None:
        """ZD-T3…T7: (success, Rescue's extra +2) of a side's task, from the record."""
        task, spook = side.task, side.spook
        if spook is None or task == "none":
            return None
        if task == "rescue":
            ally = side.rescued
            if ally is None:
                return (False, False)
            if ally == "left":
                return (True, True)
            a = self.position.models.get(ally)
            s = self.position.models.get(spook)
            kept = ally in self.exited and ally not in self.dead
            if a is not None and s is not None:
                r = self.position.range(ally, spook)
                kept = kept or (r is not None and r <= DEPENDENT_RANGE)
            return (True, kept)
        if task == "assassination":
            return (side.verified, False)
        if task == "observation":
            return (len(side.observed) >= 5, False)
        return (side.acquired and spook not in lost, False)  # acquisition

    # ================================================================== illegal actions

    def explain_illegal(self, action: Action) -> tuple[str, str | None]:
        """Why ``action`` is refused, with the rule that refuses it, in every phase and
        for any action at all (an unknown kind, the wrong arguments, another seat's)."""
        kind, args, seat = action.kind, action.args, action.seat
        if self._outcome is not None:
            return f"the mission is over ({self._outcome.reason})", self._outcome.rule
        if seat not in self.sides:
            seats = ", ".join(self.sides)
            return f"{seat!r} is not a seat of this mission (seats: {seats})", "ZD-C9"
        waiting = self.to_act()
        if seat not in waiting:
            others = ", ".join(sorted(waiting))
            if self.phase == "prepare":
                return f"{seat} has recorded its choices; waiting for {others}", "ZD-B4"
            return f"{seat} may not act now: waiting for {others}", "ZD-C9"
        phase = self.phase
        if phase == "prepare":
            return self._explain_prepare(action)
        if phase == "choose":
            return self._explain_activate(action)
        if phase == "red":
            if kind == "play" and len(args) == 1:
                return f"{args[0]!s} is not in the Spook's hand", "ZD-C7"
            return "flip the Control Deck or play a card from the hand (play 7H)", "ZD-C7"
        if phase == "cqb":
            return "choose fight or persuade for this CQB", "ZD-P1"
        hero = self.position.models.get(self.active or "")
        if hero is None:  # pragma: no cover - the move, bonus and tested phases have one
            return "no hero or ally is taking its activation", "ZD-C2"
        if phase == "tested":
            return self._explain_tested(hero, kind)
        return self._explain_automatic(hero, kind, args)

    def _explain_prepare(self, action: Action) -> tuple[str, str | None]:
        """ZD-B4, ZD-T1: a Versus team records its Spook's task and whether it buys time."""
        kind, args = action.kind, action.args
        form = f"prepare TASK hand|buy, TASK one of {', '.join(TASKS)}"
        if kind != "prepare":
            return f"first record the Spook's task and whether it buys time: {form}", "ZD-B4"
        if len(args) != 2 or str(args[0]) not in TASKS or str(args[1]) not in ("hand", "buy"):
            return f"a team records its choices as {form}", "ZD-B4"
        if self.sides[action.seat].spook is None:
            return "without a Spook a team has no task and no hand: prepare none hand", "ZD-T1"
        refused = self._task_refused(str(args[0]))
        if refused is not None:
            return refused
        return f"a team records its choices as {form}", "ZD-B4"  # pragma: no cover

    def _task_refused(self, task: str) -> tuple[str, str] | None:
        """Why ``task`` cannot be chosen with this Red Force (ZD-T3: no ping may be the
        double agent; ZD-T4: no Boss ping), or ``None``."""
        if task == "rescue":
            exclude = {"nemesis", "named"}
            if self.config["rescue_excludes_synthetic"]:
                exclude.add("synthetic")
            if all(f & exclude for f in self.ping_flags.values()):
                return "no ping may be the double agent: the Rescue task cannot be chosen", "ZD-T3"
        if task == "assassination" and "boss" not in self.ping_types.values():
            return "no Boss ping: the Assassination task cannot be chosen", "ZD-T4"
        return None

    def _explain_activate(self, action: Action) -> tuple[str, str | None]:
        """ZD-C9, ZD-D2: which hero or ally may be activated now."""
        kind, args = action.kind, action.args
        if kind != "activate":
            return "choose a hero or ally to activate first (activate H1)", "ZD-C9"
        model = self.position.models.get(str(args[0])) if len(args) == 1 else None
        if model is None or not model.is_character:
            return f"no hero or ally {' '.join(map(str, args))!r} to activate", "ZD-C9"
        if self.seat_of(model) != action.seat:
            return f"{model.id} is {self.seat_of(model)}'s to activate", "ZD-C9"
        if model.id in self.acted:
            return f"{model.id} has already acted this turn", "ZD-C9"
        if model.state == "ooa":
            return f"{model.id} is out of action", "ZD-C5"
        if self.reunite is not None:
            ally_id, hero_id = self.reunite
            return f"{ally_id} is more than 4 from {hero_id}: one of them acts next", "ZD-D2"
        return f"{model.id} may not be activated now", "ZD-C9"  # pragma: no cover

    def _explain_tested(self, hero: Model, kind: str) -> tuple[str, str | None]:
        """ZD-C2: the tested action after the automatic action."""
        if kind in ("shoot", "dotlight"):
            if kind == "dotlight" and "dotlight" not in self.upgrades.get(hero.id, []):
                return f"{hero.id} has no dotlight", "ZD-L1"
            return f"{hero.id} has no line of sight to that target in its view", "ZD-C3"
        if kind == "interact":
            return f"{hero.id} is not engaged with an objective it can work on", "ZD-C10"
        return "the tested action now: shoot, dotlight, interact, cautious or pass", "ZD-C2"

    def _explain_automatic(
        self, hero: Model, kind: str, args: tuple[int | str, ...]
    ) -> tuple[str, str | None]:
        """ZD-C2 and the FEAR rules: the automatic action (or a bonus action)."""
        if kind == "step":
            if len(args) != 1:
                return "a step goes to one square: step D7", "FR-M1"
            return self._explain_step(hero, str(args[0]))
        if kind in ("face", "stop") and not self.position.can_stop(hero.id, hero.square):
            return f"{hero.id} may not end its move on {hero.square.name}: another model", "FR-M2"
        if kind == "face":
            if len(args) == 1 and str(args[0]).upper() == hero.facing:
                return f"{hero.id} already faces {hero.facing}", "FR-L5"
            return f"a facing is one of {', '.join(FACINGS)}: face NE", "FR-L5"
        if kind == "stop":
            return "stop takes nothing: it ends the move where the hero stands", "ZD-C2"
        if kind == "door":
            if self.steps:
                return "a door is opened or closed instead of moving, not after steps", "ZD-C2"
            return f"no door on an edge of {hero.id}'s square there (door F3 e)", "ZD-C2"
        if kind == "exit":
            if self.steps:
                return "the exit is taken instead of moving, not after steps", "ZD-C8"
            return f"{hero.id} is not on an exit square", "ZD-C8"
        if kind == "verify":
            return f"{hero.id} is not the Spook engaged with the down Boss to verify", "ZD-T4"
        if kind == "done":
            return "done forgoes bonus actions, before a bonus action's move", "ZD-C2"
        if kind in ("shoot", "dotlight", "interact", "cautious", "pass"):
            return "first the automatic action (a move, a facing, a door), then this", "ZD-C2"
        legal = ", ".join(sorted({a.kind for a in self.legal_actions(self.seat_of(hero))}))
        return f"the automatic action now: {legal}", "ZD-C2"

    def _explain_step(self, hero: Model, text: str) -> tuple[str, str | None]:
        try:
            to = self.board.square(text)
        except ValueError:  # a RulesError, or digits beyond any board's
            return f"{_short(text)} is not a square of {self.board.name}", "FR-G1"
        m = self.stats(hero.id).m
        if self.steps >= m:
            return f"{hero.id} has used its {m} steps", "ZD-C2"
        dr, dc = to.row - hero.square.row, to.col - hero.square.col
        if max(abs(dr), abs(dc)) != 1:
            return f"{to.name} is not one step from {hero.square.name}", "FR-M1"
        other = self.position.at(to)
        if other is not None and other.id != hero.id and not self.position._may_cross(hero, other):
            return f"{other.id} blocks {to.name}", "FR-M2"
        if not self.board.terrain_at(to).passable:
            return f"{to.name} is impassable ({self.board.terrain_at(to).name})", "FR-M1"
        if dr and dc and not self.position.can_step(hero.id, to):
            return (
                f"no diagonal step from {hero.square.name} to {to.name}: something impassable "
                "beside it, or a wall at the corner",
                "FR-M4",
            )
        if not self.position.can_step(hero.id, to):
            return f"a wall or closed door stands between {hero.square.name} and {to.name}", "FR-M1"
        return f"{hero.id} could not end its move after stepping onto {to.name}", "FR-M2"

    # ================================================================== protocol, rest

    def outcome(self) -> Outcome | None:
        return self._outcome


def _around(square: Square) -> list[Square]:
    """The 8 squares around ``square`` (some may be off the map)."""
    return [
        Square(square.row + dr, square.col + dc)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if dr or dc
    ]


def _facing_to(frm: Square, to: Square) -> str:
    """The facing from ``frm`` most towards ``to`` (a revealed bogey faces its finder)."""
    north = to.row < frm.row
    east = to.col >= frm.col
    return ("N" if north else "S") + ("E" if east else "W")
