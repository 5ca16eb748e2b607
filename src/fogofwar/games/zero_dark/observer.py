"""The observer: seat views of Zero Dark, built from what a seat may know (FR-P4), and
their typed structure (:class:`ZeroDarkView`, read by the bots and the renderer).

In solo and co-op play the team's seat knows the map and its doors, every model on it
with its public state (wounds, support tokens, the targeted state, flags), the pings as
face-down counters (where they are, never what they are), the Control Deck's size, its
discard pile and the set-aside cards' number, the Spook's hand, the task, the
objectives, the XP and this turn's public events; a spectator knows the same but the
hand. The umpire's secrets — ping types and flags, the deck's order, the double agent
and the Boss to assassinate, the seed — are never read here.

In Versus a team's task, profiles, upgrades and hand are its own: the other team and
spectators see neither the size of a hand nor the deck's own count, only the two
together (a task's bonus to D would show in either).

Besides what the table shows now, a view carries the public record a seat has watched
(every item was announced to it, so a seat at the table knows it): the options, the
counters turned over with the bogeys they became (``turned_over``), the flips and the
allies made so far, the cards set aside (each was flipped face up), each side's cards
played, its Spook's targetings, whether it has recorded its choices (Versus), the CQBs
waiting, the enemies the active model was engaged with when its action began, the seat
the Red Force's answer follows and who worked each objective. A sampled world
(:mod:`.worlds`) is built from a view alone, so it reads these.

Once the mission is over nothing is secret any more, and every view (a spectator's
too) shows what the umpire kept: each ping still face down with its tier and its public
flags (as turning it over would have shown them, FR-P3), each side's task, and its
task's secret pick — the double agent or the Boss to assassinate, a ping or the bogey it
became (ZD-T3, ZD-T4) — with the ally a persuaded double agent became. Before the end
nothing of this reaches a view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NotRequired, TypedDict, cast

from ...core.game import PlayerView, fresh_json
from .fear import id_number

if TYPE_CHECKING:
    from .fear import Model
    from .state import Report, ZeroDarkState

__all__ = [
    "DeckView",
    "ModelView",
    "ProfileView",
    "SideView",
    "TurnedOver",
    "ZeroDarkView",
    "build_view",
    "view_data",
]


class ProfileView(TypedDict):
    """A character's profile (ZD-C2): Mobility, Fight, Acuity, Discipline, armour."""

    m: int
    f: int
    a: int
    d: int
    av: int


class ModelView(TypedDict):
    """A model on the map. A ping shows where it is and nothing of what it hides (FR-P4);
    a bogey its tier, support tokens, wounds, the targeted state and its public flags; a
    character its wounds and (when the seat may know them) its profile and upgrades."""

    id: str
    kind: str  # hero, ally, bogey, ping
    squares: list[str]
    facing: str
    state: str  # active, prone, down, ooa
    cyl: NotRequired[int]  # not a ping's: that of what it hides
    tier: NotRequired[str]
    support: NotRequired[int]
    wounds: NotRequired[int]
    targeted: NotRequired[bool]
    flags: NotRequired[list[str]]
    profile: NotRequired[ProfileView]
    upgrades: NotRequired[list[str]]
    role: NotRequired[str]  # a hero's specialism
    hero: NotRequired[str | None]  # an ally's hero
    team: NotRequired[str]  # Versus


class DeckView(TypedDict):
    """The Control Deck as the table sees it (ZD-C6, ZD-B2, ZD-B3)."""

    left: int  # Versus: the deck and the Spooks' hands together
    discard: list[str]
    set_aside: int
    second_deck: bool
    aside: list[str]  # the cards set aside, top first (each was flipped face up, ZD-B2)
    # The second deck: the set-aside cards not flipped again yet, sorted (its order is
    # secret; which cards it holds is not, ZD-B3); None before it.
    to_flip: list[str] | None


class SideView(TypedDict):
    """A team's side: its Spook, and what the seat may know of its choices."""

    spook: str | None
    buying_time: bool | None  # public once recorded (ZD-B5)
    hand_size: int | None
    task: str | None
    acquired: bool | None  # the other team's: shown once it happens (a public event)
    recorded: bool  # Versus: it has recorded its choices (the table waits for the other)
    played: int  # the cards it has played from its Spook's hand (each announced, ZD-C7)
    observed: list[str]  # the bogeys its Spook has targeted (each announced, ZD-T5)
    verified: bool | None  # its Boss verified (ZD-T4); the other team's: once it happens
    rescued: str | None  # its own: the ally its double agent became ("left": gone, ZD-T3)
    # Once the mission is over (every view): its task's secret pick, a ping or the bogey
    # it became (ZD-T3, ZD-T4); left out without one.
    double_agent: NotRequired[str]
    boss_target: NotRequired[str]


class TurnedOver(TypedDict):
    """A ping turned over (FR-P3): the counter, the bogey that replaced it, its tier and
    its public flags (as the ``ping_revealed`` event showed them)."""

    ping: str
    bogey: str
    tier: str
    flags: list[str]


class ZeroDarkView(TypedDict):
    """A seat's view of a Zero Dark mission (``PlayerView.data``)."""

    map: str
    turn: int
    phase: str
    active: str | None
    steps: int
    acted: list[str]
    doors: dict[str, bool]
    models: list[ModelView]
    deck: DeckView
    bonus: int
    cqb: list[list[str]]  # the CQB waiting: [character, bogey, who moved]
    mode: str
    turn_seat: str | None
    sides: dict[str, SideView]
    cautious: bool
    dependent: list[str] | None  # the ally and hero that must close (ZD-D2)
    objectives: dict[str, bool]
    exited: list[str]
    dead: list[str]
    xp: dict[str, int]
    report: Report | None
    events: list[dict[str, Any]]  # this turn's events: {"kind": ..., data}
    outcome: dict[str, Any] | None
    # The public record (module doc): what the seat has watched happen.
    config: dict[str, Any]  # the mission's options
    turned_over: list[TurnedOver]  # in the order turned over (B1, B2, ...)
    flips: int  # the Control Deck's flips so far (ZD-C6)
    allies_made: int  # the allies made so far (A1, A2, ..., ZD-P1)
    cqb_queue: list[list[str]]  # every CQB waiting, in order (``cqb`` is its first)
    engaged_at_start: list[str]  # the enemies the active model was engaged with (ZD-C5)
    red_seat: str | None  # Versus: the team whose activation the Red Force answers
    objectives_by: dict[str, str]  # objective -> the seat that worked it (ZD-C8)
    hand: NotRequired[list[str]]  # the seat's Spook's hand (ZD-C7)
    task_bogeys: NotRequired[dict[str, str]]  # its task's bogeys once turned over


def view_data(view: PlayerView) -> ZeroDarkView:
    """A Zero Dark view's data, typed (for the bots and the renderer)."""
    return cast("ZeroDarkView", view.data)


def _model(state: ZeroDarkState, m: Model, seat: str | None) -> ModelView:
    out: ModelView = {
        "id": m.id,
        "kind": m.kind,
        "squares": [s.name for s in m.squares],
        "facing": m.facing,
        "state": str(m.state),
    }
    if m.kind != "ping":
        # A ping's Cyl and tier are those of what it hides: not shown (FR-P4).
        out["cyl"] = m.cyl
    elif state.is_over:
        # The mission is over: nothing is secret. A ping still face down shows what it
        # hid, as turning it over would have (its tier and public flags, FR-P3, ZD-P0).
        out["tier"] = state.ping_types[m.id]
        out["flags"] = sorted(state.ping_flags.get(m.id, frozenset()) - {"susceptible"})
    if m.kind == "bogey":
        out["tier"] = m.tier
        out["support"] = state.support.get(m.id, 0)
        out["wounds"] = state.wounds.get(m.id, 0)
        out["targeted"] = m.id in state.targeted
        # Flags are public once the bogey is on the table (not whether it is the
        # double agent: that is the umpire's secret until persuaded, ZD-T3).
        out["flags"] = sorted(state.flags.get(m.id, frozenset()) - {"susceptible"})
    if m.is_character:
        out["wounds"] = state.wounds.get(m.id, 0)
        # In Versus a team's sheets are its own: a task's bonus or equipment would tell
        # the other team the task (ZD-B4, ZD-T1); in solo everything but the hand is open.
        if state.mode == "solo" or seat == state.seat_of(m) or state.is_over:
            s = state.stats(m.id)
            out["profile"] = {"m": s.m, "f": s.f, "a": s.a, "d": s.d, "av": s.av}
            out["upgrades"] = list(state.upgrades.get(m.id, []))
        if m.kind == "hero":
            out["role"] = state.specialism.get(m.id, "")  # the hero's specialism
        else:
            out["hero"] = state.ally_of.get(m.id)
        if state.mode != "solo":
            # Versus: a character the other team's dotlight targeted (announced, ZD-L2).
            out["targeted"] = m.id in state.targeted
    if m.team:
        out["team"] = m.team
    return out


def build_view(state: ZeroDarkState, seat: str | None) -> PlayerView:
    """The view of ``seat`` (``None``: a spectator)."""
    pos = state.position
    aside = list(state.deck.pile("aside")) if "aside" in state.deck.pile_names else []
    models = sorted(pos.models.values(), key=lambda m: (m.kind, m.id))
    solo = state.mode == "solo"
    outcome = state.outcome()
    data: ZeroDarkView = {
        "map": pos.board.name,
        "turn": state.turn,
        "phase": str(state.phase),
        "active": state.active,
        "steps": state.steps,
        "acted": sorted(state.acted),
        "doors": {e.name: (e in pos.open_doors) for e in sorted(pos.board.doors)},
        "models": [_model(state, m, seat) for m in models],
        "deck": {
            # Versus: the deck and the Spooks' hands together (a hand's size is its
            # team's secret, ruling); solo: the deck.
            "left": state.cards_to_come(),
            "discard": [c.to_json() for c in state.deck.discard_pile],
            "set_aside": len(aside),
            "second_deck": state.second_deck,
            "aside": [c.to_json() for c in aside],
            "to_flip": sorted(c.to_json() for c in state.deck) if state.second_deck else None,
        },
        "bonus": state.bonus,
        "cqb": [[c.char, c.bogey, c.moved] for c in state.cqb_queue[:1]],
        "mode": state.mode,
        "turn_seat": state.turn_seat if not solo else None,
        # Each side's Spook, whether it buys time (public once recorded, ZD-B5) and the
        # size of its hand; a side's task is its own until the mission's report.
        "sides": {
            x.seat: {
                "spook": x.spook,
                "buying_time": x.buying_time if state.phase != "prepare" else None,
                "hand_size": len(x.hand) if solo or seat == x.seat else None,
                "task": x.task if solo or seat == x.seat or state.is_over else None,
                "acquired": x.acquired if solo or seat == x.seat or x.acquired else None,
                "recorded": x.prepared,
                "played": x.played,
                "observed": sorted(x.observed, key=id_number),
                "verified": x.verified if solo or seat == x.seat or x.verified else None,
                # Which ally was the double agent is told to its side alone (ZD-T3),
                # and to everyone once the mission is over.
                "rescued": x.rescued if seat == x.seat or state.is_over else None,
            }
            for x in state.sides.values()
        },
        "cautious": state.cancel_next,
        "dependent": None if state.reunite is None else list(state.reunite),
        "objectives": {
            sq.name: sq.name in state.objectives_done
            for sq in pos.board.markers.get("objective", ())
        },
        "exited": sorted(state.exited),
        "dead": sorted(state.dead),
        "xp": dict(state.xp),
        "report": fresh_json(state.report),  # the state's own dict, copied
        # This turn's events (every event stays in the record).
        "events": [e.to_json() for e in state.events[state.turn_start :] if e.visible_to(seat)],
        "outcome": None if outcome is None else outcome.to_json(),
        "config": state.config.to_json(),
        "turned_over": [
            {
                "ping": ping,
                "bogey": bogey,
                "tier": state.tiers[bogey],
                "flags": sorted(state.flags.get(bogey, frozenset()) - {"susceptible"}),
            }
            for ping, bogey in sorted(state.revealed.items(), key=lambda pb: id_number(pb[1]))
        ],
        "flips": state.flips,
        "allies_made": state.allies_made,
        "cqb_queue": [[c.char, c.bogey, c.moved] for c in state.cqb_queue],
        "engaged_at_start": sorted(state.engaged_at_start, key=id_number),
        "red_seat": state.red_seat if not solo else None,
        "objectives_by": dict(state.objectives_by),
    }
    if state.is_over:
        # The task's secret picks, once the mission is over (ZD-T3, ZD-T4).
        for x in state.sides.values():
            side = data["sides"][x.seat]
            if x.double_agent is not None:
                side["double_agent"] = x.double_agent
            if x.boss_target is not None:
                side["boss_target"] = x.boss_target
    mine = state.sides.get(seat) if seat is not None else None
    if mine is not None:
        # The Spook's hand is its player's (ZD-C7); others see only its size. The task's
        # bogeys are the player's to know once turned over (ZD-T3, ZD-T4).
        data["hand"] = [c.to_json() for c in mine.hand]
        data["task_bogeys"] = {
            name: value
            for name, value in (
                ("double_agent", mine.double_agent),
                ("boss_target", mine.boss_target),
            )
            if value is not None and value.startswith("B")
        }
    return PlayerView(state.ruleset.id, seat, data)
