"""The Red Force's decisions: the umpire's side is no seat but a rule-driven opponent,
and these are its rules of choice (ZD-C4, ZD-C11, FR-P2, FR-P4):

* which bogey or ping a card activates (:func:`candidates`, :func:`pick`: ♠♣ the one
  nearest a hero, ♥♦ the one with the most support tokens, then the seeded RNG);
* where it goes: up to Att squares (:func:`reach`) on a shortest route to engage the
  hero nearest it (:func:`nearest_hero`, :func:`route_step`), stepping off a model it
  may only cross (:func:`step_off`);
* whom it attacks: the nearest character it is engaged with in CQB
  (:func:`cqb_opponent`), else — turned towards the hero it hunts
  (:func:`hunting_facing`) — the nearest hero it sees, shot (:func:`shot`).

The state (``state/bogeys.py``) calls these and carries the decisions out: the steps,
the reveal checks, the CQBs and the rolls. This module only reads the state it is
given; it imports neither the state nor the bots (the team's heuristic player, which
sees only a view).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Final, NamedTuple

from ...core.cards import PlayingCard, Suit
from ...core.grid import Square
from ...core.sight import Facing, SightReport
from .fear import Model, ModelState, around, facing_towards, id_number
from .profiles import BOGEYS

if TYPE_CHECKING:
    from .state.fields import Fields

__all__ = [
    "FAR",
    "Shot",
    "candidates",
    "cqb_opponent",
    "hunting_facing",
    "nearest_hero",
    "pick",
    "reach",
    "route_step",
    "shot",
    "step_off",
]

FAR = 10**6
"""The range to a hero when there is none, or no route to one."""


class Shot(NamedTuple):
    """A bogey's shot (ZD-C4): the range, the character shot, the sight report."""

    range: int
    target: Model
    report: SightReport


ACTIVATES_AS: Final[Mapping[str, str]] = MappingProxyType({"special": "elite"})
"""The tier whose Control Deck cards activate a bogey of a tier ZD-C6 does not name."""


def candidates(st: Fields, tier: str) -> list[Model]:
    """The bogeys a card of ``tier`` may activate; a ping counts as a Grunt (FR-P2).

    ZD-C6 brings a complication only when the tier "has no bogey on the table", and a
    down bogey is on the table until it is killed (ZD-C3). So the tier's standing bogeys
    (and, for a Grunt, pings) are the candidates the suit picks among; only when none
    stands are its down bogeys the candidates, and the one picked does nothing (ruling:
    a down model cannot act, but it keeps the card from being a complication).

    ZD-C6 names three tiers; a special bogey (an "S" ping turned over, FR-P1) answers
    the Elite's cards, whose profile it uses (ruling: else it would never act)."""
    tiered = [b for b in st.bogeys() if ACTIVATES_AS.get(b.tier, b.tier) == tier]
    out = [b for b in tiered if b.state is ModelState.ACTIVE]
    if tier == "grunt":
        out += st.pings()
    return out or tiered


def pick(st: Fields, options: list[Model], card: PlayingCard) -> Model:
    """ZD-C11: ♠♣ the one nearest a hero, ♥♦ the most support tokens; then the
    seeded RNG."""
    if len(options) == 1:
        return options[0]
    if card.suit in (Suit.SPADES, Suit.CLUBS):
        score = {m.id: -(nearest_hero(st, m)[1]) for m in options}
    else:
        score = {m.id: st.support.get(m.id, 0) for m in options}
    best = max(score.values())
    tied = sorted((m for m in options if score[m.id] == best), key=lambda m: m.id)
    if len(tied) == 1:
        return tied[0]
    return st.stream("flip-tie", st.flips).choice(tied)


def nearest_hero(st: Fields, model: Model) -> tuple[Model | None, int]:
    """The hero nearest by range (FR-R1), ties by number; (None, :data:`FAR`) if none
    (ZD-C4, ZD-C11 and FR-P4 speak of heroes: allies are not hunted)."""
    best: tuple[Model | None, int] = (None, FAR)
    for h in sorted(st.standing_heroes(), key=lambda m: id_number(m.id)):
        r = st.position.range(model.id, h.id)
        if r is not None and r < best[1]:
            best = (h, r)
    return best


def reach(model: Model) -> int:
    """How many squares an activated bogey moves: its Att (a ping, a Grunt's; ZD-C4,
    FR-P4)."""
    return BOGEYS["grunt" if model.kind == "ping" else (model.tier or "grunt")].att


def route_step(st: Fields, mover: Model, left: int) -> Square | None:
    """The next step of ``mover`` on a shortest route to engage the nearest hero
    (FR-S1: not across a wall), or ``None`` when it is engaged or cannot get nearer;
    it never ends a move on another model (FR-M3): a step onto one is taken only if
    the route goes on. With no route to an engaging square (a closed door, models in
    the way), it steps to bring its range (FR-R1) down if it can (ruling)."""
    target, _ = nearest_hero(st, mover)
    if target is None or st.position.engaged(mover.id, target.id):
        return None
    pos = st.position
    board = pos.board
    blocked = pos.impassable_to(mover) - set(mover.squares)
    goals = [
        sq
        for t in target.squares
        for sq in around(t)
        if board.in_bounds(sq)
        and board.terrain_at(sq).passable
        and sq not in blocked
        and (pos.rules.engage_through_walls or not pos.walled(sq, t))
    ]
    here = mover.square
    options = pos.steps(mover.id, left)
    if goals:
        # Breadth-first from the engaging squares, stopped at the layer that reaches the
        # mover: its index is the mover's distance, and a step onto the layer before it
        # is a step along a shortest route (no whole distance map at every step).
        graph = pos.graph
        at = graph.bits(here)
        layers = graph.layers_bits(graph.bits(goals), blocked=graph.bits(blocked), stop=at)
        if len(layers) > 1 and layers[-1] & at:
            nearer = layers[-2]
            for sq in options:
                if nearer & graph.bits(sq):
                    return sq
    # No way to an engaging square now: close the range instead, if a step does.
    r0 = pos.range_between(mover.squares, target.squares)
    best: tuple[int, Square] | None = None
    for sq in options:
        r = pos.range_between(mover.at(sq).squares, target.squares)
        if r is not None and r0 is not None and r < r0 and (best is None or r < best[0]):
            best = (r, sq)
    return None if best is None else best[1]


def step_off(st: Fields, mover: Model, left: int) -> Square:
    """A step from a square ``mover`` may only cross, towards where it may stop (the
    move's lookahead guarantees one), nearest the hero it hunts first."""
    target, _ = nearest_hero(st, mover)
    pos = st.position
    options = pos.steps(mover.id, left)
    if not options:  # pragma: no cover - FR-M3's lookahead rules this out
        raise RuntimeError(f"{mover.id} is stranded on {mover.square.name}")

    def key(sq: Square) -> tuple[bool, int, Square]:
        stops = pos.can_stop(mover.id, sq)
        r = None if target is None else pos.range_between([sq], target.squares)
        return (not stops, FAR if r is None else r, sq)

    return min(options, key=key)


def cqb_opponent(st: Fields, bogey: Model) -> Model | None:
    """ZD-C4: the character an activated bogey fights in CQB — of those it is engaged
    with, heroes first, then by number — or ``None`` when it is engaged with none."""
    engaged = [c for c in st.characters() if st.position.engaged(c.id, bogey.id)]
    if not engaged:
        return None
    return min(engaged, key=lambda c: (c.kind != "hero", id_number(c.id)))


def hunting_facing(st: Fields, bogey: Model) -> Facing | None:
    """ZD-C4: the facing towards the hero ``bogey`` hunts, or ``None`` with no hero."""
    hunted, _ = nearest_hero(st, bogey)
    return None if hunted is None else facing_towards(bogey.square, hunted.square)


def shot(st: Fields, bogey: Model) -> Shot | None:
    """ZD-C4: the nearest standing hero ``bogey`` sees (in its field of view and not
    entirely obscured, ZD-C3, FR-S6: a hero whose cylinder alone is seen is obscured;
    ties by number), or ``None``."""
    seen: list[Shot] = []
    for c in sorted(st.standing_heroes(), key=lambda m: id_number(m.id)):
        report = st.position.report_if_not_hidden(bogey.id, c.id)
        if report is not None and not report.entirely_obscured:
            seen.append(Shot(st.shooting_range(bogey, c), c, report))
    if not seen:
        return None
    return min(seen, key=lambda x: x.range)
