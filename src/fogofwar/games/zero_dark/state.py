"""The state of a Zero Dark game on the FEAR grid.

This module holds the umpire's whole truth: the position (map, doors, models), the
secret types of the pings (FR-P4), the Control Deck's order, and the activation in
progress. What a seat receives is built in :mod:`.views` from public fields and the
events addressed to it.

The order of play (solo, ZD-C9): the team chooses a hero to activate (``activate H2``);
the hero takes its automatic action (ZD-C2) — a move of up to M single steps
(``step D7`` …, closed by ``stop`` or by ``face NE``), a turn to a new facing
(``face SW``), or an interaction without a test (``door D7 e`` opens or closes a door on
an edge of its square) — and the umpire then flips one Control Deck card (ZD-C6), which
activates a ping or a bogey (FR-P2, ZD-C11) or brings a complication. A turn ends when
every hero has acted. The mission ends when the deck is exhausted.

Pings are revealed the moment a character has LOS to one or is engaged with it
(FR-P3), checked after every step of every move, every change of facing, every door
and every placement.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from ...core.cards import Deck, PlayingCard, Suit, playing_cards
from ...core.errors import RulesError
from ...core.game import Action, Config, Event, Outcome, PlayerView, Ruleset, State
from ...core.grid import Board, Edge, Square
from ...core.rng import Streams
from .fear import FACINGS, FearRules, Model, Position

__all__ = [
    "BOGEYS",
    "HERO",
    "PING_LABEL",
    "TEAM",
    "BogeyStats",
    "HeroStats",
    "ZeroDarkState",
    "parse_red_force",
]

TEAM: Final = "team"
"""The seat of the heroes' player in solo and co-op play (ZD-C9)."""


@dataclass(frozen=True, slots=True)
class HeroStats:
    """A hero's profile (ZD-C2): Mobility, Fight, Acuity, Discipline, armour, Cyl."""

    m: int
    f: int
    a: int
    d: int
    av: int
    cyl: int


HERO: Final = HeroStats(m=4, f=4, a=4, d=3, av=1, cyl=3)
"""The stand-in core's default hero: a 15-point spread, AV 1, Cyl 3 (ZD-C2, ruling)."""


@dataclass(frozen=True, slots=True)
class BogeyStats:
    """A bogey tier's profile (ZD-C4, stand-in values): attack dice, defence, wounds,
    most support tokens, Cyl."""

    att: int
    defence: int
    wnd: int
    support: int
    cyl: int


BOGEYS: Final[Mapping[str, BogeyStats]] = {
    "grunt": BogeyStats(att=3, defence=1, wnd=1, support=1, cyl=3),
    "elite": BogeyStats(att=4, defence=2, wnd=2, support=2, cyl=3),
    "boss": BogeyStats(att=5, defence=3, wnd=3, support=3, cyl=4),
    "special": BogeyStats(att=4, defence=2, wnd=2, support=2, cyl=3),
}

PING_LABEL: Final[Mapping[str, str]] = {"grunt": "1", "elite": "2", "boss": "3", "special": "S"}
"""The face of a ping counter (FR-P1), seen only when it is turned over."""

_TIER_OF_LABEL: Final = {v: k for k, v in PING_LABEL.items()}


def parse_red_force(text: str) -> tuple[str, ...]:
    """Read a Red Force: ``"grunt=5,elite=2,boss=1"`` → the tiers of its pings, in order.

    Raises:
        RulesError: an unknown tier, a bad count, or no ping at all.
    """
    out: list[str] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        tier, sep, count = part.partition("=")
        tier = tier.strip()
        # A tier by name or by its counter's face (FR-P1: "1", "2", "3", "S").
        tier = _TIER_OF_LABEL.get(tier.upper(), tier.lower())
        if tier not in BOGEYS or not sep or not count.strip().isdigit():
            raise RulesError(
                f"red_force: expected tier=count with tiers {', '.join(BOGEYS)}, got {part!r}"
            )
        out += [tier] * int(count)
    if not out:
        raise RulesError("red_force: at least one ping is needed")
    return tuple(out)


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


class ZeroDarkState(State):
    """One Zero Dark mission in progress (the umpire's secret)."""

    def __init__(self, ruleset: Ruleset, config: Config, board: Board, seed: int | str) -> None:
        self.ruleset = ruleset
        self.config = config
        self._streams = Streams(seed)
        self.events: list[Event] = []
        rules = FearRules(
            los_origin=config["los_origin"],
            diagonal_block=config["diagonal_block"],
            engage_through_walls=bool(config["engage_through_walls"]),
        )
        starts = board.marker("heroes")
        n = int(config["heroes"])
        if n > len(starts):
            raise RulesError(f"{board.name} deploys at most {len(starts)} heroes, not {n}")
        heroes = [
            Model(f"H{i + 1}", "hero", sq, cyl=HERO.cyl, facing=_towards(board, sq))  # type: ignore[arg-type]
            for i, sq in enumerate(starts[:n])
        ]
        self.position = Position.initial(board, heroes, rules)
        self.hero_stats: dict[str, HeroStats] = {h.id: HERO for h in heroes}
        # The umpire's secrets: ping types (FR-P4) and the deck's order.
        self.ping_types: dict[str, str] = {}
        self.revealed: dict[str, str] = {}  # ping id -> the bogey that replaced it
        self.pings_made = 0
        self.bogeys_made = 0
        self.support: dict[str, int] = {}  # bogey id -> support tokens (ZD-C4)
        self.deck: Deck[PlayingCard] = Deck(playing_cards(jokers=True), name="control")
        self.deck.shuffle(self._streams.stream("control-deck"))
        self.flips = 0
        self.turn = 1
        self.turn_start = 0  # the index of this turn's first event (views show the turn)
        self.acted: set[str] = set()
        self.active: str | None = None
        self.steps = 0
        self.phase = "choose"
        self._outcome: Outcome | None = None
        self._place_pings(parse_red_force(str(config["red_force"])))

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

    # ================================================================== pings (FR-P*)

    def _place_pings(self, tiers: Sequence[str]) -> None:
        """FR-P1: the Red Force's counters, mixed face down, on ping sites at random."""
        sites = list(self.board.marker("ping"))
        free = [s for s in sites if self.position.at(s) is None]
        if len(tiers) > len(free):
            raise RulesError(
                f"red_force has {len(tiers)} pings but {self.board.name} has {len(free)} "
                "free ping sites"
            )
        squares = self._streams.stream("ping-sites").sample(free, len(tiers))
        squares.sort()
        mixed = self._streams.stream("ping-mix").shuffled(list(tiers))
        for square, tier in zip(squares, mixed, strict=True):
            self._new_ping(square, tier)
        self._reveal_check()

    def _new_ping(self, square: Square, tier: str) -> str:
        self.pings_made += 1
        pid = f"P{self.pings_made}"
        self.ping_types[pid] = tier
        self._set(Model(pid, "ping", square, cyl=BOGEYS["grunt"].cyl))
        self._emit("ping_placed", ping=pid, square=square.name)
        return pid

    def _reveal_check(self) -> None:
        """FR-P3: every ping a character has LOS to (in its field of view) or is engaged
        with is turned over and replaced by a bogey of its type (in ping order)."""
        for ping in sorted(self.pings(), key=lambda m: int(m.id[1:])):
            for who in self.characters():
                if self.position.engaged(who.id, ping.id):
                    self._reveal(ping, who, "engaged")
                    break
                if self.position.sees(who.id, ping.id):
                    self._reveal(ping, who, "sight")
                    break

    def _reveal(self, ping: Model, by: Model, how: str) -> None:
        tier = self.ping_types.pop(ping.id)
        self.bogeys_made += 1
        bid = f"B{self.bogeys_made}"
        stats = BOGEYS[tier]
        self.position = self.position.without(ping.id)
        facing = _facing_to(ping.square, by.square)
        self._set(Model(bid, "bogey", ping.square, cyl=stats.cyl, facing=facing, tier=tier))  # type: ignore[arg-type]
        self.support[bid] = 0
        self.revealed[ping.id] = bid
        self._emit(
            "ping_revealed",
            ping=ping.id,
            face=PING_LABEL[tier],
            tier=tier,
            bogey=bid,
            square=ping.square.name,
            by=by.id,
            how=how,
            rule="FR-P3",
        )

    # ================================================================== protocol

    def to_act(self) -> frozenset[str]:
        return frozenset() if self._outcome is not None else frozenset({TEAM})

    def legal_actions(self, seat: str) -> list[Action]:
        if seat not in self.to_act():
            return []
        if self.phase == "choose":
            return [
                Action(seat, "activate", (h.id,))
                for h in sorted(self.heroes(), key=lambda m: int(m.id[1:]))
                if h.id not in self.acted and h.state != "ooa"
            ]
        hero = self._hero()
        out: list[Action] = []
        left = self.hero_stats[hero.id].m - self.steps
        out += [Action(seat, "step", (sq.name,)) for sq in self.position.steps(hero.id, left)]
        if self.position.can_stop(hero.id, hero.square):
            # A new facing is the automatic action, or the end of a move (FR-L5).
            out += [Action(seat, "face", (f,)) for f in FACINGS if f != hero.facing]
            out.append(Action(seat, "stop"))
        if self.steps == 0:
            out += [Action(seat, "door", tuple(e.name.split())) for e in self._doors_at(hero)]
        return out

    def _hero(self) -> Model:
        """The hero taking its activation (the ``move`` phase has one)."""
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

    def apply_unchecked(self, action: Action) -> list[Event]:
        before = len(self.events)
        kind = action.kind
        if kind == "activate":
            self.active = str(action.args[0])
            self.steps = 0
            self.phase = "move"
            self._emit("activation", hero=self.active, turn=self.turn)
        elif kind == "step":
            self._step(self.board.square(str(action.args[0])))
        elif kind == "face":
            self._face(str(action.args[0]))
            self._end_activation()
        elif kind == "door":
            self._door(Edge.parse(" ".join(str(a) for a in action.args)))
            self._end_activation()
        else:  # stop
            self._end_activation()
        return self.events[before:]

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

    def _end_activation(self) -> None:
        self.acted.add(self._hero().id)
        self._emit("activation_end", hero=self.active)
        self.active = None
        self.steps = 0
        self.phase = "choose"
        self._flip()
        if self._outcome is None and not self.legal_actions(TEAM):
            self.turn += 1
            self.acted = set()
            self.turn_start = len(self.events)
            self._emit("turn", turn=self.turn)

    # ================================================================== the Red Force

    def _flip(self) -> None:
        """ZD-C6: flip the Control Deck's top card and resolve it."""
        card = self.deck.draw()
        self.flips += 1
        self.deck.discard(card)
        tier = _tier_of(card)
        self._emit("flip", card=card.to_json(), left=len(self.deck))
        candidates = self._candidates(tier) if tier is not None else []
        if not candidates:
            self._complication(card)
        else:
            self._activate(self._pick(candidates, card))
        if not len(self.deck):
            self._finish("the Control Deck is exhausted: the mission ends", "ZD-C6")

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

    def _nearest_hero(self, model: Model) -> tuple[Model | None, int]:
        """The hero nearest by range (FR-R1), ties by hero number; (None, big) if none."""
        best: tuple[Model | None, int] = (None, 10**6)
        for h in sorted(self.characters(), key=lambda m: m.id):
            r = self.position.range(model.id, h.id)
            if r is not None and r < best[1]:
                best = (h, r)
        return best

    def _complication(self, card: PlayingCard) -> None:
        """ZD-C6's default complication: a new Grunt ping at a random deployment site."""
        free = [s for s in self.board.marker("deployment") if self.position.at(s) is None]
        if not free:
            self._emit("complication", card=card.to_json(), ping=None)
            return
        square = self._streams.stream("complication", self.flips).choice(free)
        self._emit("complication", card=card.to_json(), ping=f"P{self.pings_made + 1}")
        self._new_ping(square, "grunt")
        self._reveal_check()

    def _activate(self, model: Model) -> None:
        """An activated ping (FR-P4) or bogey (ZD-C4) moves up to Att squares by the
        shortest route towards the nearest hero, a step at a time, checking for reveals
        after every step; a ping revealed on the way stops there."""
        self._emit("activated", model=model.id)
        att = self._att(model)
        for taken in range(att):
            current = self.position.models.get(model.id)
            if current is None:  # revealed: the ping's activation ends (ruling)
                return
            nxt = self._route_step(current, att - taken)
            if nxt is None:
                if self.position.can_stop(current.id, current.square):
                    return
                # Mid-crossing with nowhere better to go: step off the other model.
                nxt = self._step_off(current, att - taken)
            self._set(current.at(nxt))
            kind = "bogey_step" if current.kind == "bogey" else "ping_step"
            self._emit(kind, model=model.id, square=nxt.name)
            self._reveal_check()

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

    # ================================================================== illegal actions

    def explain_illegal(self, action: Action) -> tuple[str, str | None]:
        if self.is_over or action.seat not in self.to_act():
            return super().explain_illegal(action)
        kind, args = action.kind, action.args
        if self.phase == "choose":
            if kind != "activate":
                return "choose a hero to activate first (activate H1)", "ZD-C9"
            hero = self.position.models.get(str(args[0])) if len(args) == 1 else None
            if hero is None or hero.kind != "hero":
                return f"no hero {' '.join(map(str, args))!r} to activate", "ZD-C9"
            if hero.id in self.acted:
                return f"{hero.id} has already acted this turn", "ZD-C9"
            return f"{hero.id} is out of action", "ZD-C5"
        hero = self._hero()
        if kind == "step" and len(args) == 1:
            return self._explain_step(hero, str(args[0]))
        if kind in ("face", "stop") and not self.position.can_stop(hero.id, hero.square):
            return f"{hero.id} may not end its move on {hero.square.name}: another model", "FR-M2"
        if kind == "face":
            if len(args) == 1 and str(args[0]).upper() == hero.facing:
                return f"{hero.id} already faces {hero.facing}", "FR-L5"
            return f"a facing is one of {', '.join(FACINGS)}", "FR-L5"
        if kind == "door":
            if self.steps:
                return "a door is opened or closed instead of moving, not after steps", "ZD-C2"
            return f"no door on an edge of {hero.id}'s square there", "ZD-C2"
        return super().explain_illegal(action)

    def _explain_step(self, hero: Model, text: str) -> tuple[str, str | None]:
        try:
            to = self.board.square(text)
        except RulesError:
            return f"{text!r} is not a square of {self.board.name}", "FR-G1"
        if self.steps >= self.hero_stats[hero.id].m:
            return f"{hero.id} has used its {self.hero_stats[hero.id].m} steps", "ZD-C2"
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

    # ================================================================== end

    def _finish(self, reason: str, rule: str) -> None:
        self._outcome = Outcome(frozenset(), frozenset(), reason, rule)
        self.phase = "over"
        self._emit("mission_end", reason=reason, rule=rule)

    def outcome(self) -> Outcome | None:
        return self._outcome

    def clone(self) -> ZeroDarkState:
        new = copy.copy(self)
        new.events = list(self.events)
        new.ping_types = dict(self.ping_types)
        new.revealed = dict(self.revealed)
        new.support = dict(self.support)
        new.deck = self.deck.clone()
        new.acted = set(self.acted)
        new.hero_stats = dict(self.hero_stats)
        return new

    def view(self, seat: str | None) -> PlayerView:
        from .views import build_view

        return build_view(self, seat)


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
