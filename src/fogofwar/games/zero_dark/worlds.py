"""Sampled worlds: a full Zero Dark state consistent with a seat's view (for search).

A seat sees the map, every model on it (the pings as face-down counters), the Control
Deck's discard pile and set-aside cards, its own Spook's hand, task and task bogeys, and
the public record (:mod:`.observer`). A sampled world rebuilds the table from the view
alone and draws what the seat does not know, from the rules' own chances conditioned on
the view (every arrangement consistent with it as likely as the rules make it):

* **What the pings hide.** The Red Force's pings (FR-P1, ``P1`` … ``Pn`` for the n
  pings of ``red_force``) were mixed face down uniformly, so the world deals the Red
  Force's tiers and flags uniformly over the pings, conditioned on the counters already
  turned over (their tier and public flags were shown, FR-P3). Only the ``susceptible``
  flag stays hidden after a counter is turned over (ZD-P0): a bogey of a class (tier and
  public flags) gets a uniformly drawn one of that class's Red Force entries. A
  complication's ping (a number past n) is always a plain Grunt (ZD-C6).
* **The secret picks of a task** (ZD-T3, ZD-T4). The umpire picks the double agent
  uniformly among the pings that may be one, the Boss to assassinate among the Boss
  pings. The seat is told its own side's pick when it is turned over, so while the view
  names none, its pick is a face-down ping: the world draws the pair (arrangement, pick)
  uniformly among those that give the view. Any other pick — the other team's, or a
  spectator's guess — is uniform over all the pings that may be it, turned over or not.
* **The other team's secret choices** (Versus, ZD-B4): its task uniformly among the
  tasks the Red Force allows (ZD-T3, ZD-T4: those offered), and, while only recorded,
  whether it buys time (evenly) — the rules give no chance for a player's choice, so
  every choice the table allows is taken as equally likely. Its Spook's profile, Dotlight
  and hand size (D, ZD-C7, ZD-T4) follow from it.
* **The Control Deck's order and the unknown hands.** The cards not seen — the 54 less
  the discard pile, the cards set aside and the seat's own hand — are shuffled
  uniformly; the other Spooks' hands (D less the cards played) are dealt from them and
  the rest is the deck (ZD-C6, ZD-C7). In the second deck its cards are known (the
  set-aside cards, each flipped face up; ZD-B3), in an order drawn uniformly.
* **The rolls to come** use a new 128-bit seed drawn from the stream; the game's own
  seed never leaves the umpire.

Conditioning on what the view shows: the draw is repeated (up to :data:`TRIES` times,
rejection sampling, so the result is exactly the conditional law) until it agrees with
the view — the CQB waiting on a choice is against a bogey its hero may persuade (ZD-P1),
the cards played and set aside fit the Spooks' D (ZD-C7, ZD-B2), the second deck has
the size the Spooks' D gave it (ZD-B3), and this turn's events that show a team's task
(a test of its Spook with a stat a task raises, a dotlight, a verify, the dead-drop, a
Boss only down, its Spook's steps beyond M; see docs/zero-dark.md, "Versus") fit the
task drawn. Such tells in earlier turns are not in the view, and are not used; nor are
earlier fights that were not offered the choice to persuade (a hidden ``susceptible``
flag). Whether an ally of a side not the seat's is that side's double agent is not
drawn: its Rescue is taken as not yet done (ZD-T3).

Once the mission is over the view shows every ping's tier and public flags and every
task's pick (:mod:`.observer`): the world deals those pings like the counters turned
over and keeps the picks shown.

The world gives the seat exactly the view it was drawn from, the same legal actions and
the same seats to act. Events of earlier turns are not in the view: the world's log is
this turn's events.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, Final

from ...core.cards import Deck, PlayingCard, playing_cards
from ...core.game import Event, Outcome, PlayerView, Ruleset, kept_table
from ...core.grid import Edge
from ...core.rng import Stream, Streams
from .fear import FearRules, Model, ModelState, Position, id_number
from .maps import map_for
from .observer import ModelView, SideView, ZeroDarkView, view_data
from .profiles import TASK_BONUS, TASKS, HeroStats
from .seat_sight import PING_CYL
from .state import Cqb, Phase, PingSpec, Resume, Reunite, ZeroDarkState
from .state import parse_red_force_specs as red_force_specs
from .state.fields import Fields

__all__ = ["TRIES", "sample_kept", "sample_world"]

TRIES: Final = 2000
"""How many draws the rejection sampling tries before it keeps the last one (a view no
draw fits would be one no game gives)."""

_CARDS: Final = tuple(playing_cards(jokers=True))
"""The Control Deck's 54 cards, all different (ZD-C6)."""

_ALWAYS_PRIVATE: Final = frozenset({"double_agent", "boss_target"})
"""Events told only to their side (ZD-T3, ZD-T4)."""

_VERSUS_PRIVATE: Final = frozenset({"prepared", "hand_drawn", "buying_time", "task"})
"""Events told only to their side in Versus (ZD-B4)."""

_TASK_OF: Final = {
    "dotlight": "observation",
    "verified": "assassination",
    "acquired": "acquisition",
}
"""Events of a Spook's that only its task allows (ZD-T5, ZD-T4, ZD-T6)."""

_STAT_OF: Final = {"cqb": "d", "persuade": "a", "cautious": "a", "interact": "a"}
"""The stat a test of this purpose rolls (ZD-C5, ZD-P1, ZD-C10): a task may raise it."""


def _public(flags: frozenset[str]) -> frozenset[str]:
    """The flags a turned-over bogey shows (ZD-P0: not ``susceptible``)."""
    return flags - {"susceptible"}


def _eligible(cfg: Mapping[str, Any]) -> Callable[[PingSpec], bool]:
    """Whether a ping may be the double agent (ZD-T3: never a Nemesis or named one, nor
    a Synthetic one unless the option allows it)."""
    exclude = {"nemesis", "named"}
    if cfg["rescue_excludes_synthetic"]:
        exclude.add("synthetic")
    return lambda spec: not spec[1] & exclude


def _is_boss(spec: PingSpec) -> bool:
    return spec[0] == "boss"


class _Table:
    """What the view says, read once: the parts of the draw that do not change between
    tries."""

    def __init__(self, st: ZeroDarkState, d: ZeroDarkView, seat: str | None) -> None:
        self.d = d
        self.seat = seat
        self.specs = red_force_specs(str(st.config["red_force"]))
        n = len(self.specs)
        self.models: dict[str, ModelView] = {m["id"]: m for m in d["models"]}
        pings = sorted((m for m in d["models"] if m["kind"] == "ping"), key=_num)
        # Once the mission is over the view shows what each ping hides (its tier and
        # public flags): those are dealt like the counters turned over.
        self.shown = [m for m in pings if _num(m) <= n and "tier" in m]
        self.face_down = [m["id"] for m in pings if _num(m) <= n and "tier" not in m]
        self.turned = [t for t in d["turned_over"] if id_number(t["ping"]) <= n]
        self.setup = d["phase"] != Phase.PREPARE  # the sides equipped and dealt (ZD-B4)
        self.eligible = _eligible(st.config)
        # The tasks a team may record (ZD-B4): those the Red Force allows (ZD-T3, ZD-T4).
        allowed = ["none"]
        for task in TASKS[1:]:
            if task == "rescue" and not any(self.eligible(s) for s in self.specs):
                continue
            if task == "assassination" and not any(_is_boss(s) for s in self.specs):
                continue
            allowed.append(task)
        self.allowed = tuple(allowed)
        self.own_buy: bool | None = None
        for e in d["events"]:
            if e["kind"] == "prepared" and e.get("seat") == seat:
                self.own_buy = bool(e["buy"])
        # The cards the seat has not seen (ZD-C6, ZD-C7, ZD-B2).
        deck = d["deck"]
        self.discard = [PlayingCard.from_json(c) for c in deck["discard"]]
        self.aside = [PlayingCard.from_json(c) for c in deck["aside"]]
        self.hand = [PlayingCard.from_json(c) for c in d.get("hand", [])]
        seen = {*self.discard, *self.aside, *self.hand}
        self.unseen = [c for c in _CARDS if c not in seen]
        flip = deck["to_flip"]
        self.to_flip = None if flip is None else [PlayingCard.from_json(c) for c in flip]


def _num(m: Mapping[str, Any]) -> int:
    return id_number(str(m["id"]))


class _Draw:
    """One draw of the unknowns (see the module doc)."""

    def __init__(self) -> None:
        self.specs: dict[str, PingSpec] = {}  # face-down Red Force ping -> tier, flags
        self.flags: dict[str, frozenset[str]] = {}  # turned-over bogey -> all its flags
        self.tasks: dict[str, str] = {}
        self.buys: dict[str, bool] = {}
        self.picks: dict[str, str | None] = {}  # side -> its task's ping or bogey
        self.hand_sizes: dict[str, int] = {}  # the hands the seat does not see


def sample_world(ruleset: Ruleset, view: PlayerView, stream: Stream) -> ZeroDarkState:
    """A state that gives ``view`` to its seat, its unknowns drawn from ``stream`` (see
    the module doc)."""
    return sample_kept(ruleset, view, stream, None)


def sample_kept(
    ruleset: Ruleset, view: PlayerView, stream: Stream, kept: list[Any] | None
) -> ZeroDarkState:
    """:func:`sample_world`; ``kept``: the table and what the view says of the unknowns,
    kept for the worlds after the first (a :class:`~fogofwar.core.game.KeptSampler`'s
    list), or ``None``."""
    d = view_data(view)
    seat = view.seat
    seed = f"{stream.bits64():016x}{stream.bits64():016x}"  # 128 bits: the world's own rolls

    def lay() -> tuple[ZeroDarkState, _Table]:
        cfg = ruleset.resolve_config(d["config"])
        # A blank mission (the heroes deployed, the sides seated, nothing placed or
        # dealt), on the map loaded once for all worlds: its sight tables are kept with it.
        st = ZeroDarkState.__new__(ZeroDarkState)
        Fields.__init__(st, ruleset, cfg, map_for(str(cfg["map"])), seed)
        _lay_table(st, d, seat)
        return st, _Table(st, d, seat)

    st, table = kept_table(kept, lay)
    st._streams = Streams(seed)
    draw = _draw(st, table, stream)
    for _ in range(TRIES - 1):
        if _fits(st, table, draw):
            break
        draw = _draw(st, table, stream)
    _keep(st, table, draw)
    _deal(st, table, draw, stream)
    return st


# --------------------------------------------------------------------------- the table


def _lay_table(st: ZeroDarkState, d: ZeroDarkView, seat: str | None) -> None:
    """Everything public: the position, the sheets, the activation, the record."""
    board = st.board
    solo = st.mode == "solo"
    first = next(iter(st.sides))
    n = len(red_force_specs(str(st.config["red_force"])))

    def order(m: ModelView) -> tuple[int, int]:
        # Heroes were deployed first, then the Red Force's pings; later models in the
        # order they came (a model's place in the position only orders ties).
        rank = {"hero": 0, "bogey": 2, "ally": 4}.get(m["kind"], 1 if _num(m) <= n else 3)
        return rank, _num(m)

    models: dict[str, Model] = {}
    for m in sorted(d["models"], key=order):
        models[m["id"]] = Model(
            m["id"],
            m["kind"],  # type: ignore[arg-type]
            board.square(m["squares"][0]),
            cyl=m.get("cyl", PING_CYL),
            facing=m["facing"],  # type: ignore[arg-type]
            state=ModelState(m["state"]),
            team=m.get("team", ""),
            # A ping's tier is the umpire's (the end view shows it, not the model's).
            tier=m.get("tier", "") if m["kind"] != "ping" else "",
        )
    opened = frozenset(Edge.parse(e) for e, is_open in d["doors"].items() if is_open)
    st.position = Position(board, models, opened, FearRules.from_options(st.config))
    st.wounds = {m["id"]: m["wounds"] for m in d["models"] if m.get("wounds")}
    st.support = {m["id"]: m["support"] for m in d["models"] if m["kind"] == "bogey"}
    st.targeted = {m["id"] for m in d["models"] if m.get("targeted")}
    st.ally_of = {m["id"]: str(m["hero"]) for m in d["models"] if m["kind"] == "ally"}
    st.allies_made = d["allies_made"]
    st.dead = set(d["dead"])
    st.exited = set(d["exited"])
    st.xp = dict(d["xp"])
    # The counters turned over (FR-P3) and the pings made (every ping is on the table
    # or turned over).
    st.revealed = {t["ping"]: t["bogey"] for t in d["turned_over"]}
    st.tiers = {t["bogey"]: t["tier"] for t in d["turned_over"]}
    st.bogeys_made = len(d["turned_over"])
    numbers = [id_number(p) for p in st.revealed]
    numbers += [_num(m) for m in d["models"] if m["kind"] == "ping"]
    st.pings_made = max([n, *numbers])
    # The activation in progress and the turn (ZD-C2, ZD-C9).
    st.turn = d["turn"]
    st.phase = Phase(d["phase"])
    st.active = d["active"]
    st.steps = d["steps"]
    st.acted = set(d["acted"])
    st.bonus = d["bonus"]
    st.in_bonus = st.active is not None and st.bonus > 0  # bonus actions left: in them
    st.cancel_next = d["cautious"]
    st.cqb_queue = [Cqb(c, b, moved) for c, b, moved in d["cqb_queue"]]  # type: ignore[arg-type]
    st.after_cqb = Resume.NOTHING
    if st.phase is Phase.CQB and st.cqb_queue:
        # A character's move queues its CQBs, a bogey's activation its own (ZD-C5).
        st.after_cqb = Resume.AUTOMATIC if st.cqb_queue[0].moved == "hero" else Resume.FLIP
    st.engaged_at_start = set(d["engaged_at_start"])
    st.reunite = None if d["dependent"] is None else Reunite(*d["dependent"])
    st.objectives_done = [sq for sq, done in d["objectives"].items() if done]
    st.objectives_by = dict(d["objectives_by"])
    st.flips = d["flips"]
    st.second_deck = d["deck"]["second_deck"]
    st.turn_seat = first if solo or d["turn_seat"] is None else d["turn_seat"]
    st.red_seat = first if solo or d["red_seat"] is None else d["red_seat"]
    # The mission's end (ZD-C8): a copy, so that nothing is shared with the view.
    st.report = None if d["report"] is None else json.loads(json.dumps(d["report"]))
    out = d["outcome"]
    st._outcome = (
        None
        if out is None
        else Outcome(frozenset(out["winners"]), frozenset(out["sides"]), out["reason"], out["rule"])
    )
    # This turn's events as they were told: a side's own secrets to it alone (the view
    # holds only the events told to its seat).
    private = _ALWAYS_PRIVATE | (frozenset() if solo else _VERSUS_PRIVATE)
    st.events = [
        Event(
            str(e["kind"]),
            {k: v for k, v in e.items() if k != "kind"},
            frozenset({seat}) if seat is not None and e["kind"] in private else None,
        )
        for e in d["events"]
    ]
    st.turn_start = 0


# --------------------------------------------------------------------------- the draw


def _draw(st: ZeroDarkState, t: _Table, stream: Stream) -> _Draw:
    """One draw from the rules' chances: the pings, the unknown choices, the picks."""
    out = _Draw()
    d = t.d
    # Each side's task and buying time: known, or drawn.
    for seat, side in st.sides.items():
        sv = d["sides"][seat]
        known_task = sv["task"]
        buy = sv["buying_time"]
        if seat == t.seat and buy is None:
            buy = t.own_buy  # its own record, told to it (ZD-B4)
        if side.spook is None:
            out.tasks[seat], out.buys[seat] = "none", False
            continue
        if not sv["recorded"] and st.mode != "solo":
            out.tasks[seat], out.buys[seat] = "none", False  # nothing recorded yet
            continue
        out.tasks[seat] = known_task if known_task is not None else stream.choice(t.allowed)
        out.buys[seat] = bool(buy) if buy is not None else stream.choice((False, True))
    # What the turned-over counters were: each class's Red Force entries shuffled, the
    # first ones for the counters of that class turned over, the rest face down.
    classes: dict[tuple[str, frozenset[str]], list[frozenset[str]]] = {}
    for tier, flags in t.specs:
        classes.setdefault((tier, _public(flags)), []).append(flags)
    pool: list[PingSpec] = []
    for (tier, public), members in classes.items():
        turned = [x for x in t.turned if x["tier"] == tier and frozenset(x["flags"]) == public]
        if len(set(members)) > 1:
            members = list(members)
            stream.shuffle(members)
        for x, flags in zip(turned, members, strict=False):
            out.flags[x["bogey"]] = flags
        members = members[len(turned) :]
        shown = [m["id"] for m in t.shown if m["tier"] == tier and frozenset(m["flags"]) == public]
        for ping, flags in zip(shown, members, strict=False):
            out.specs[ping] = (tier, flags)
        pool += [(tier, flags) for flags in members[len(shown) :]]
    for x in d["turned_over"]:
        out.flags.setdefault(x["bogey"], frozenset(x["flags"]))  # a complication's
    face_down = list(t.face_down)
    # The seat's own pick not yet turned over is a face-down ping (it would have been
    # told, ZD-T3, ZD-T4): the pair (pick, arrangement) is drawn uniformly.
    told = d.get("task_bogeys", {})
    for seat in st.sides:
        task = out.tasks[seat]
        out.picks[seat] = None
        if not t.setup or task not in ("rescue", "assassination"):
            continue
        name = "double_agent" if task == "rescue" else "boss_target"
        sv = d["sides"][seat]  # every pick is shown once the mission is over
        shown_pick = sv.get("double_agent") if task == "rescue" else sv.get("boss_target")
        if shown_pick is not None:
            out.picks[seat] = shown_pick
        elif seat == t.seat and name in told:
            out.picks[seat] = told[name]
        elif seat == t.seat and face_down:
            fits = t.eligible if task == "rescue" else _is_boss
            choices = [i for i, spec in enumerate(pool) if fits(spec)]
            if choices:
                ping = stream.choice(face_down)
                face_down.remove(ping)
                out.specs[ping] = pool.pop(stream.choice(choices))
                out.picks[seat] = ping
    stream.shuffle(pool)
    for ping, spec in zip(face_down, pool, strict=False):
        out.specs[ping] = spec
    for ping in face_down[len(pool) :]:  # pragma: no cover - a view no game gives
        out.specs[ping] = ("grunt", frozenset())
    # Any other pick: uniform over the Red Force's pings that may be it, face down or
    # turned over (the bogey it became).
    every = [(p, out.specs[p]) for p in t.face_down]
    every += [(x["bogey"], (x["tier"], out.flags[x["bogey"]])) for x in t.turned]
    for seat in st.sides:
        task = out.tasks[seat]
        if seat == t.seat or not t.setup or task not in ("rescue", "assassination"):
            continue
        if out.picks.get(seat) is not None:
            continue  # shown at the end
        fits = t.eligible if task == "rescue" else _is_boss
        options = [m for m, spec in every if fits(spec)]
        out.picks[seat] = stream.choice(options) if options else None
    # The hands the seat does not see: D less the cards played (ZD-C7); in solo its
    # size is shown.
    for seat, side in st.sides.items():
        if seat == t.seat or not t.setup or side.spook is None:
            continue
        hand = d["sides"][seat]["hand_size"]
        if hand is None:
            hand = 0 if out.buys[seat] else _d(st, seat, out.tasks[seat]) - _played(d, seat)
        out.hand_sizes[seat] = hand
    return out


def _played(d: ZeroDarkView, seat: str) -> int:
    return d["sides"][seat]["played"]


def _d(st: ZeroDarkState, seat: str, task: str) -> int:
    """The Spook's D with its task's bonus (ZD-C7, ZD-T4)."""
    spook = st.sides[seat].spook
    base = st.hero_stats[spook].d if spook is not None else 0
    bonus = TASK_BONUS.get(task)
    return base + (bonus[1] if bonus is not None and bonus[0] == "d" else 0)


def _stat(st: ZeroDarkState, seat: str, task: str, stat: str) -> int:
    """A side's Spook's ``stat`` with its task's bonus (ZD-T3, ZD-T4, ZD-T6)."""
    spook = st.sides[seat].spook
    if spook is None:
        return 0
    value = int(getattr(st.hero_stats[spook], stat))
    bonus = TASK_BONUS.get(task)
    return value + (bonus[1] if bonus is not None and bonus[0] == stat else 0)


# --------------------------------------------------------------------------- fitting


def _fits(st: ZeroDarkState, t: _Table, draw: _Draw) -> bool:
    """Whether a draw gives what the view shows (the module doc's list)."""
    d = t.d
    if not t.setup:
        return True
    # The CQB waiting on a choice is against a bogey its hero may persuade (ZD-P1).
    if st.phase is Phase.CQB and st.cqb_queue:
        head = st.cqb_queue[0]
        bogey = t.models.get(head.bogey)
        char = st.position.models.get(head.char)
        if bogey is not None and char is not None and bogey["kind"] == "bogey":
            flags = draw.flags.get(head.bogey, frozenset())
            seat = st.seat_of(char)
            persuadable = "synthetic" not in flags and (
                (draw.picks.get(seat) == head.bogey and draw.tasks[seat] == "rescue")
                or "susceptible" in flags
                or bogey.get("tier") in st.susceptible_tiers
            )
            if not persuadable:
                return False
    # The Spooks' D: the cards played (ZD-C7) and set aside (ZD-B2), the second deck.
    for seat, side in st.sides.items():
        if side.spook is None:
            continue
        if not draw.buys[seat] and _played(d, seat) > _d(st, seat, draw.tasks[seat]):
            return False
    target = sum(_d(st, s, draw.tasks[s]) for s, x in st.sides.items() if x.spook and draw.buys[s])
    aside = len(t.aside)
    if not st.second_deck and (aside > target or (st.flips > aside and aside != target)):
        return False
    # The unseen hands come from the unseen cards: all of those not in the second deck
    # (ZD-B3), or some of them, the rest being the deck.
    hands = sum(draw.hand_sizes.values())
    if any(h < 0 for h in draw.hand_sizes.values()) or hands > len(t.unseen):
        return False
    if t.to_flip is not None and hands != len(t.unseen) - len(t.to_flip):
        return False
    # What a side's own events this turn show of its task (docs/zero-dark.md, Versus).
    return all(_tells_fit(st, t, draw, seat) for seat in st.sides) and _only_down_fits(d, draw)


def _tells_fit(st: ZeroDarkState, t: _Table, draw: _Draw, seat: str) -> bool:
    """Whether a side's task drawn fits what the table has seen of it: its Spook's
    targetings, dead-drop and verify, its steps now, and this turn's tests and events
    (a task's bonus to a stat, its equipment; docs/zero-dark.md, Versus)."""
    side = st.sides[seat]
    spook, task = side.spook, draw.tasks[seat]
    sv: SideView = t.d["sides"][seat]
    if spook is None:
        return True
    if sv["observed"] and task != "observation":
        return False
    if sv["acquired"] and task != "acquisition":
        return False
    if sv["verified"] and (task != "assassination" or draw.picks.get(seat) in t.models):
        return False  # ZD-T4: a verified Boss is dead
    if t.d["active"] == spook and t.d["steps"] > _stat(st, seat, task, "m"):
        return False
    for e in t.d["events"]:
        kind = e["kind"]
        if kind == "test" and e.get("who") == spook:
            stat = _STAT_OF.get(str(e.get("purpose", "")).split(" ")[0])
            if stat is not None and e["dice"] != _stat(st, seat, task, stat):
                return False
        elif kind in _TASK_OF and e.get("model") == spook and task != _TASK_OF[kind]:
            return False
    return True


def _only_down_fits(d: ZeroDarkView, draw: _Draw) -> bool:
    """ZD-T4: a Boss only down is some side's Boss to assassinate."""
    for e in d["events"]:
        if e["kind"] == "only_down":
            boss = e["model"]
            if not any(
                draw.tasks[s] == "assassination" and draw.picks.get(s) == boss for s in draw.tasks
            ):
                return False
    return True


# --------------------------------------------------------------------------- the world


def _keep(st: ZeroDarkState, t: _Table, draw: _Draw) -> None:
    """The draw into the world: pings, flags, sides, sheets."""
    d = t.d
    st.ping_types, st.ping_flags = {}, {}
    for m in sorted((m for m in d["models"] if m["kind"] == "ping"), key=_num):
        # A complication's ping is a plain Grunt (ZD-C6).
        tier, flags = draw.specs.get(m["id"], ("grunt", frozenset()))
        st.ping_types[m["id"]] = tier
        st.ping_flags[m["id"]] = flags
    st.flags = {b: draw.flags[b] for b in st.tiers}
    st.aside_target = 0
    for seat, side in st.sides.items():
        sv = d["sides"][seat]
        side.task = draw.tasks[seat]
        side.buying_time = draw.buys[seat]
        side.prepared = sv["recorded"]
        side.played = sv["played"]
        side.observed = set(sv["observed"])
        side.acquired = bool(sv["acquired"])
        side.verified = bool(sv["verified"])
        side.rescued = sv["rescued"]
        if side.spook is None or not t.setup:
            continue
        spook = side.spook
        side.base_d = st.hero_stats[spook].d  # the roster's, before the task (ZD-C7)
        name = "double_agent" if side.task == "rescue" else "boss_target"
        if side.task in ("rescue", "assassination"):
            setattr(side, name, draw.picks.get(seat))
        if side.task in TASK_BONUS:
            stat, amount = TASK_BONUS[side.task]
            st.hero_stats[spook] = st.hero_stats[spook].with_bonus(stat, amount)
        if side.task == "observation":
            st.upgrades[spook].append("dotlight")  # ZD-T5: the task's equipment
        if side.buying_time:
            st.aside_target += st.hero_stats[spook].d
    # The sheets the view shows, as shown; an ally's otherwise (ZD-P5, ZD-D1), with its
    # place in its hero's upgrades.
    for m in sorted(d["models"], key=_num):
        if m["kind"] == "ally":
            st.hero_stats[m["id"]] = st.ally_profile
            st.upgrades[m["id"]] = ["dependent"]
            hero = str(m["hero"])
            if "profile" not in t.models.get(hero, {}):
                st.upgrades.setdefault(hero, []).append(f"ally {m['id']}")
        profile = m.get("profile")
        if profile is not None:
            st.hero_stats[m["id"]] = HeroStats(cyl=m["cyl"], **profile)
            st.upgrades[m["id"]] = list(m.get("upgrades", []))


def _deal(st: ZeroDarkState, t: _Table, draw: _Draw, stream: Stream) -> None:
    """The Control Deck: the unseen cards shuffled, the unknown hands dealt from them,
    the piles laid down as the view lists them (top first)."""
    unseen = list(t.unseen)
    stream.shuffle(unseen)
    if t.to_flip is not None:
        # The second deck's cards are known (ZD-B3); the others are in the hands.
        deck_cards = list(t.to_flip)
        stream.shuffle(deck_cards)
        known = set(deck_cards)  # the 54 cards are all different
        others = [c for c in unseen if c not in known]
    else:
        others, deck_cards = unseen, []
    hands: dict[str, list[PlayingCard]] = {}
    for seat, side in st.sides.items():
        if seat == t.seat:
            hands[seat] = list(t.hand)
        elif seat in draw.hand_sizes:
            k = draw.hand_sizes[seat]
            hands[seat], others = others[:k], others[k:]
        else:
            hands[seat] = []
        side.hand = []
    if t.to_flip is None:
        deck_cards = others
    order = [c for seat in st.sides for c in hands[seat]]
    order += [*reversed(t.discard), *reversed(t.aside), *deck_cards]
    deck: Deck[PlayingCard] = Deck(order, name="control")
    for seat, side in st.sides.items():
        side.hand = [deck.draw() for _ in hands[seat]]
    for _ in t.discard:
        deck.discard(deck.draw())
    for _ in t.aside:
        deck.set_aside(deck.draw())
    st.deck = deck
