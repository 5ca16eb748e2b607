"""Sampled worlds: a full Specter Ops state consistent with a seat's view (for search).

A view carries the table (hunters, vehicle, smoke, objectives, Last Seen tokens, the
traitor game's public side), the round's events told to the seat, the seat's own
secrets and the possibility map as the seat knows it: its squares, and the marginals
of the rest — the objective sites each sector may still have, the characters the agent
may be, the hunters that may be the traitor — with the agent's public card uses and
wounds. A sampled world rebuilds the table from the view and draws what the seat does
not know:

* **The agent's square** (each hidden agent's): uniformly among the squares of the
  seat's map, unless its figure is on the board. The steps of its last move (what the
  motion sensor reads) uniformly from 0 to 4 — 0 on the vehicle's square, where no move
  ends (SO-A3).
* **Its kit**: the character uniformly among those the map allows, then a hand
  uniformly among the hands of that character that hold every card used in public,
  with those uses spent and any uses left of the hidden cards (Adrenal Surge, Stealth
  Field, Holo Decoy).
* **The hidden objective sites** (4–5 players): each sector's uniformly among the
  candidates the map still allows.
* **The traitor** (5 players): the agent and the traitor know it; a loyal hunter's
  world draws it uniformly among the other hunters the map allows. Concealed sightings
  a seat was not told of are taken to be none.
* **The rolls to come** use a new 128-bit seed drawn from the bot's stream; the game's
  own seed never leaves the umpire.

Why this distribution: the exact posterior over worlds depends on how the agent plays,
which no seat knows, and the exact joint map (squares × sites × kits × roles) is the
umpire's public bookkeeping, far larger than a view should carry at 4–5 players. The
draw is uniform over what the view shows, each unknown from its own marginal; a world
drawn so gives the seat exactly its view and legal actions, though its hidden values
may be a combination the full map would exclude (a site that the agent's path would
already have revealed, say). Its own map (:meth:`PossibilityMap.covering`) is the
product of those marginals, so it always holds the world's truth.

The world's events are this round's events the seat was told, now told to it alone.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Hashable
from typing import Any, TypeVar, cast

from ...core.game import Event, Outcome, PlayerView, Ruleset
from ...core.rng import Stream, Streams
from .characters import AGENTS, CARDS, card_pool
from .geometry import Geometry
from .knowledge import HIDDEN_CARDS, NO_KIT, NO_ROLE, Kit, PossibilityMap, Role
from .observer import SpecterOpsView, view_data
from .state import (
    AGENT,
    Agent,
    Hunter,
    Phase,
    Smoke,
    SpecterOpsState,
    cards_to_take,
    possible_kits,
)
from .state.pieces import BASE_HEALTH, FOUR_PLAYER_HEALTH, Resume, Sighting

__all__ = ["SpecterOpsSampler", "sample_world"]

T = TypeVar("T")


def _kits(chars: list[str], cards: int, used: dict[str, int]) -> tuple[Kit, ...]:
    """Every kit of ``chars`` with ``cards`` cards that holds each card of ``used`` with
    its public uses spent, the hidden cards with any uses left."""
    return _kits_of(tuple(chars), cards, tuple(sorted(used.items())))


@functools.lru_cache(maxsize=64)  # kit lists run to hundreds of kits
def _kits_of(
    chars: tuple[str, ...], cards: int, spent: tuple[tuple[str, int], ...]
) -> tuple[Kit, ...]:
    """:func:`_kits`, cached: a search samples a world per iteration from the same view,
    so the same few kit lists come again and again."""
    used = dict(spent)
    out: list[Kit] = []
    for char in chars:
        for hand in itertools.combinations(card_pool(char), cards):
            if not set(used) <= set(hand):
                continue
            ranges = []
            for c in hand:
                left = CARDS[c].uses - used.get(c, 0)
                if c in HIDDEN_CARDS:
                    ranges.append([(c, n) for n in range(left + 1)])
                else:
                    ranges.append([(c, left)])
            if any(not r or r[0][1] < 0 for r in ranges):
                continue
            out += [(char, tuple(sorted(pick))) for pick in itertools.product(*ranges)]
    return tuple(out)


@functools.lru_cache(maxsize=64)
def _bits(geo: Geometry, names: tuple[str, ...]) -> int:
    """The bitboard of squares ``names``; cached, since a search samples a world per
    iteration from one view (and so from the same lists of squares)."""
    out = 0
    for n in names:
        out |= 1 << geo.parse(n)
    return out


def _max_health(players: int, character: str, second: bool) -> int:
    extra = 0 if second or players != 4 else FOUR_PLAYER_HEALTH
    bonus = AGENTS[character].health_bonus if character else 0
    return BASE_HEALTH + extra + bonus


_BLANK_MAP = PossibilityMap.start(0, ())


class SpecterOpsSampler:
    """Worlds drawn from one view (:meth:`SpecterOps.world_sampler
    <fogofwar.games.specter_ops.ruleset.SpecterOps.world_sampler>`): each the world
    :func:`sample_world` draws from the view and the stream, with the same draws in the
    same order. What the view fixes is worked out for the first world and kept for the
    rest: the table (a copy of it for each world, with the world's own seed), the sites
    each sector allows, the kits of each character, the squares to draw from and the
    maps of the world (the same for every world of one view but for the traitor drawn).
    ``views=False`` leaves the maps out altogether (the world skips views from the start,
    :meth:`~.state.SpecterOpsState.skip_views`): a search's world that no view is read of
    is then little more than a copy of the table."""

    __slots__ = ("_kept", "_ruleset", "_view")

    def __init__(self, ruleset: Ruleset, view: PlayerView) -> None:
        self._ruleset = ruleset
        self._view = view
        self._kept: dict[Hashable, Any] = {}

    def __call__(self, stream: Stream, *, views: bool = True) -> SpecterOpsState:
        return _sample(self._ruleset, self._view, stream, views, self._kept)


class _Builder:
    """One world from one view (the steps of :func:`sample_world`)."""

    def __init__(
        self,
        ruleset: Ruleset,
        view: PlayerView,
        stream: Stream,
        views: bool,
        kept: dict[Hashable, Any] | None,
    ) -> None:
        self.d: SpecterOpsView = view_data(view)
        self.seat = view.seat
        self.stream = stream
        self.views = views
        self.kept = kept
        seed = f"{stream.bits64():016x}{stream.bits64():016x}"  # the world's own rolls
        table = None if kept is None else kept.get("table")
        if table is None:
            cfg = ruleset.resolve_config(self.d["config"])
            self.st = cast(SpecterOpsState, ruleset.new_game(cfg, seed))
            self.geo = self.st.geo
            self.table()
            if kept is not None:
                table = kept["table"] = self.st.clone()
                # Every world sets its own agents and sites' sets: none to copy.
                table.agents, table.site_sets = [], []
        else:
            # A copy of the table worked out for the first world: a new game's seed
            # differs from another's only in its streams and the sites rolled from them,
            # which every world draws anew below.
            self.st = table.clone()
            self.st._streams = Streams(seed)
            self.geo = self.st.geo
        if not views:
            self.st.skip_views()
        # SO-T5: the second agent choosing its character sees which one is in use.
        secret = self.d.get("secret")
        left = None if secret is None else secret.get("characters_left")
        self.taken = "" if left is None else next((c for c in AGENTS if c not in left), "")

    def keep(self, key: Hashable, make: Callable[[], T]) -> T:
        """``make()``, worked out once per sampler (a value the view alone fixes)."""
        if self.kept is None:
            return make()
        if key not in self.kept:
            self.kept[key] = make()
        return cast(T, self.kept[key])

    def bits(self, names: list[str] | None) -> int:
        return _bits(self.geo, tuple(names or ()))

    # ------------------------------------------------------------------ the table

    def table(self) -> None:
        st, d, geo = self.st, self.d, self.geo
        st.round = d["round"]
        st.hunters = [
            Hunter(
                h["id"],
                h["seat"],
                geo.parse(h["square"]),
                aboard=h["aboard"],
                stunned=h["stunned"],
                acted=h["acted"],
                character=h["character"] or "",
            )
            for h in d["hunters"]
        ]
        st.vehicle = geo.parse(d["vehicle"]["square"])
        st.vehicle_moved = d["vehicle"]["moved"]
        st.vehicle_scanned = d["vehicle"]["scanned"]
        cur = d["current"]
        st.current = None
        if cur is not None:
            k = next(i for i, h in enumerate(st.hunters) if h.id == cur["hunter"])
            st.current = k
            st.steps, st.drove = cur["steps"], cur["drove"]
            st.started_aboard, st.sniffed = cur["started_aboard"], cur["sniffed"]
            st.hunters[k].stunned_at_start = cur["stunned_at_start"]
        st.smokes = [Smoke(self.bits(s["area"]), s["until"]) for s in d["smokes"]]
        st.jammed_until = d["jammed_until"]
        st.done = [o["done"] for o in d["objectives"]]
        st.public_sites = [
            None if o["site"] is None else geo.parse(o["site"]) for o in d["objectives"]
        ]
        # This round's events the seat was told, told to it alone in the world.
        told = frozenset({self.seat}) if self.seat is not None else None
        st.events = [
            Event(e["kind"], {k: v for k, v in e.items() if k != "kind"}, told) for e in d["events"]
        ]
        st.round_events = 0
        out = d["outcome"]
        if out is not None:
            st._outcome = Outcome(
                frozenset(out["winners"]), frozenset(out["sides"]), out["reason"], out["rule"]
            )

    # ------------------------------------------------------------------ the traitor

    def traitor(self) -> None:
        st, d = self.st, self.d
        t = d.get("traitor")
        if t is None:
            return
        st.accused = dict(t["accusations"])
        st.failed_accusations = t["failed"]
        st._resume = None if t["resume"] is None else Resume(t["resume"])
        if not t["dealt"]:
            return
        secret = d.get("secret")
        role = d.get("role")
        mine = {h.id for h in st.hunters if h.seat == self.seat}
        if t["revealed"] is not None:
            traitor = t["revealed"]
        elif self.seat == AGENT and secret is not None:
            traitor = secret["traitor"]
        elif role is not None and role["role"] == "traitor":
            (traitor,) = mine
        elif role is not None and role.get("proves"):
            traitor = str(role["proves"])  # the record proves it (SO-T4)
        else:
            traitor = self.stream.choice(sorted(set(t["possible"]) - mine))
        st.traitor = traitor
        seats = {h.id: h.seat for h in st.hunters}
        if traitor in seats:
            st.traitor_seat = seats[traitor]
        else:  # revealed: its seat is the one that no longer moves a hunter
            st.traitor_seat = next(s for s in st.seats[1:] if s not in seats.values())
        st.traitor_revealed = t["revealed"] is not None
        if self.seat == AGENT and secret is not None:
            st.concealed = list(secret.get("concealed", []))
        elif role is not None and role["concealed"] is not None:
            st.concealed = list(role["concealed"])
        elif role is not None and role.get("proves") and not st.traitor_revealed:
            # Every world of the seat's map has the traitor seeing the agent alone: one
            # such sighting (where and when is the agent's and the traitor's secret; an
            # accusation only asks whether there was one).
            square = self.d["possible"][0] if self.d["possible"] else self.geo.name(0)
            st.concealed = [Sighting(round=st.round, moment="hunter_turn", square=square)]

    # ------------------------------------------------------------------ the agents

    def sites(self) -> list[list[int]]:
        """Per sector, the sites the map allows (one when public)."""
        return self.keep("sites", self._sites)

    def _sites(self) -> list[list[int]]:
        geo = self.geo
        return [
            [geo.parse(o["site"])]
            if o["site"] is not None
            else [geo.parse(n) for n in o["possible"] or ()]
            for o in self.d["objectives"]
        ]

    def roles(self) -> list[Role]:
        st, t = self.st, self.d.get("traitor")
        if t is None or not t["dealt"]:
            return [NO_ROLE]
        if st.traitor_revealed:
            return [(st.traitor, False)]
        role = self.d.get("role")
        if role is not None and role.get("proves"):
            # SO-T4: the seat's worlds all have that traitor with a concealed sighting;
            # the others are those where the seat's own figure is the traitor.
            mine = {h.id for h in st.hunters if h.seat == self.seat}
            return [(str(role["proves"]), True), *((h, False) for h in t["possible"] if h in mine)]
        roles: list[Role] = [(h, False) for h in t["possible"]]
        if st.concealed:
            roles.append((st.traitor, True))
        return roles

    def agent(
        self, index: int, pub: dict[str, Any], squares: int, secret: Any, other: str = ""
    ) -> Agent:
        """Agent figure ``index`` from what every seat knows of it (``pub``), the squares
        the seat's map allows and, for its own seat, its secret map; ``other``: the other
        agent's character in this world, which this one cannot have (SO-T5)."""
        st, geo = self.st, self.geo
        second = index == 1
        chars = list(pub["possible_characters"])
        ncards = 2 if second else cards_to_take(st.players)
        used = dict(pub["cards_used"])
        # Before the agent has chosen, its map holds the base game's one kit.
        kits = self.keep(
            ("kit list", index), lambda: _kits(chars, ncards, used) if chars else (NO_KIT,)
        )
        shown = None if pub["revealed_at"] is None else geo.parse(pub["revealed_at"])
        if secret is not None:
            path = [geo.parse(n) for n in secret["path"]]
            character = secret["character"] or ""
            cards = dict(secret["cards"])
            last_steps = secret["last_move_steps"]
        else:
            if shown is not None:
                square = shown
            else:
                options = self.keep(("squares", index), lambda: geo.graph.bit_indices(squares))
                square = self.stream.choice(options) if squares else 0
            path = [square]
            character = pub["character"] or ""
            if not character and self.taken:
                character = self.taken  # the one the other agent saw was in use
            free = [c for c in chars if c != other]
            if st.with_characters and not character and free:
                character = self.stream.choice(free)
            cards = {}
            if character:
                mine = self.keep(
                    ("kits", index, character), lambda: [k for k in kits if k[0] == character]
                )
                if mine:
                    cards = dict(self.stream.choice(mine)[1])
            last_steps = self.stream.randint(0, 4)
            if square == st.vehicle:
                # SO-A3: no move ends on the vehicle's square, so an agent there moved
                # no step (it could not move, or the traitor was revealed aboard) and
                # the motion sensor reads no movement; a long move there would ask for
                # a bearing from the vehicle to itself. (Drawn all the same, so the
                # stream's later draws stay those of every other world.)
                last_steps = 0
        max_health = _max_health(st.players, character, second)
        a = Agent(
            "A2" if second else "A1",
            st.traitor_seat if second else AGENT,
            path[0],
            path,
            max_health - pub["wounds"],
            _BLANK_MAP,  # the map of the view's worlds, below (unless views are skipped)
            last_steps=last_steps,
            max_health=max_health,
            character=character,
            cards=cards,
            character_public=not st.with_characters or pub["character"] is not None,
            turn_start=path[0],
            shown=shown,
            last_seen=None if pub["last_seen"] is None else geo.parse(pub["last_seen"]),
            escaped=pub.get("escaped", False),
            public_uses=used,
        )
        if secret is not None:
            a.health = secret["health"]
        if self.views:
            sites = self.sites() if not second else []
            roles = tuple(self.roles()) if not second else (NO_ROLE,)
            a.knowledge = self.keep(
                ("map", index, roles), lambda: PossibilityMap.covering(squares, sites, kits, roles)
            )
        return a


def sample_world(ruleset: Ruleset, view: PlayerView, stream: Stream) -> SpecterOpsState:
    """A state that gives ``view`` to its seat, its unknowns drawn from ``stream`` (see
    the module doc)."""
    return _sample(ruleset, view, stream, True, None)


def _phase(
    b: _Builder, two: bool, own_moment: str | None, secret_index: int | None
) -> tuple[Phase, int]:
    """The world's phase and the index of the agent in focus, from the view."""
    st, d, seat = b.st, b.d, b.seat
    phase = d["phase"]
    if phase == "setup":
        if any(not h.character for h in st.hunters) and st.with_characters:
            return Phase.PICK_HUNTER, 0
        focus = 1 if two else 0
        if own_moment is not None and secret_index == focus:
            return Phase(own_moment), focus
        events = [e["kind"] for e in d["events"]]
        if focus == 0 and (seat == AGENT or ("agent_ready" in events and st.traitor_game)):
            # The agent's setup is over (its own seat has no moment then, the others saw
            # it ready): it deals the roles (SO-T2).
            return Phase.DEAL, focus
        return Phase.PICK_AGENT, focus
    if phase == "agent":
        turns = [e for e in d["events"] if e["kind"] == "agent_turn"]
        focus = 1 if turns and turns[-1].get("agent") == "A2" else 0
        if own_moment == "agent_after" and secret_index == focus:
            return Phase.AGENT_AFTER, focus
        return Phase.AGENT, focus
    return Phase(phase), 0


def _used_before(d: SpecterOpsView, agent: str) -> list[str]:
    """The card the agent in focus used in public before its move this turn, if any
    (this turn's events)."""
    used: list[str] = []
    for e in d["events"]:
        if (e["kind"], e.get("moment"), e.get("agent", "A1")) == ("equipment", "before", agent):
            used = [e["card"]]
    return used


def _sample(
    ruleset: Ruleset,
    view: PlayerView,
    stream: Stream,
    views: bool,
    kept: dict[Hashable, Any] | None,
) -> SpecterOpsState:
    """:func:`sample_world`; ``views``: whether the world keeps its maps; ``kept``: a
    :class:`SpecterOpsSampler`'s answers worked out once, or ``None``."""
    b = _Builder(ruleset, view, stream, views, kept)
    st, d, geo, seat = b.st, b.d, b.geo, b.seat
    b.traitor()
    secret = d.get("secret")
    two = d.get("agent2") is not None
    own_moment = None if secret is None else secret["moment"]
    secret_index = (1 if seat != AGENT else 0) if secret is not None else None
    # The phase and the agent in focus (what the view alone says: worked out once).
    st.phase, focus = b.keep("phase", lambda: _phase(b, two, own_moment, secret_index))
    st.focus_index = focus
    # The agents.
    final = d.get("final")
    a1_secret = secret if secret_index == 0 else None
    # SO-T5: the two agents' characters differ; the second's, where this seat knows it.
    a2_known = ""
    if secret is not None and secret_index == 1:
        a2_known = secret["character"] or ""
    elif two:
        a2_known = cast(dict[str, Any], d["agent2"])["character"] or ""
    a1 = b.agent(0, cast(dict[str, Any], d["agent"]), b.bits(d["possible"]), a1_secret, a2_known)
    if a1_secret is not None:
        st.sites = tuple(geo.parse(n) for n in a1_secret["objective_sites"])
    elif final is not None:
        st.sites = tuple(geo.parse(n) for n in final["objective_sites"])
    else:
        st.sites = tuple(
            stream.choice(options) if len(options) > 1 else options[0] for options in b.sites()
        )
    # The sites each sector allows, which the agent's map starts from when it sets up
    # (SO-S3): the view's, not those of the new game's own roll (public with 2–3 players).
    st.site_sets = list(b.keep("site_sets", lambda: tuple(frozenset(o) for o in b.sites())))
    st.agents = [a1]
    if two:
        a2_secret = secret if secret_index == 1 else None
        pub2 = cast(dict[str, Any], d["agent2"])
        st.agents.append(b.agent(1, pub2, b.bits(d.get("possible2")), a2_secret, a1.character))
    # The agent in focus mid-turn: its path so far (its own seat), or its start (a
    # hidden agent's steps are not known); a public card used before moving.
    me = st.agents[focus]
    if st.phase in (Phase.AGENT, Phase.AGENT_AFTER):
        turn_secret = secret if secret_index == focus else None
        if turn_secret is not None:
            used = list(turn_secret["used_this_turn"])
        else:
            used = b.keep(("used", me.id), lambda: _used_before(d, me.id))
        if used:
            me.used_before = used[0]
            me.public_before = CARDS[used[0]].public
        me.square = me.path[-1] if st.phase is Phase.AGENT_AFTER else me.path[0]
        me.path_sight = st.sight()
    else:
        me.square = me.path[-1]
    for a in st.agents:
        a.path_sight = a.path_sight or st.sight()
    if st.traitor and not st.traitor_revealed and views:
        # The traitor's own map of A1: the worlds of the traitor's role (the squares its
        # seat sees, or those the world's seat allows).
        # Asked once per map (the map keeps the answer), whatever the draws.
        st.traitor_map = a1.knowledge.traitor_worlds(st.traitor)
    if st.with_characters:
        st._kits = possible_kits(st.players)
    if final is not None:
        # After the game every secret is public.
        a1.square = geo.parse(final["agent_square"])
        a1.character = final["character"] or ""
        a1.cards = dict(final["cards"])
        if "agent2" in final:
            a2 = st.agents[1]
            a2.square = geo.parse(final["agent2"]["square"])
            a2.character = final["agent2"]["character"] or ""
            a2.cards = dict(final["agent2"]["cards"])
        if "traitor" in final:
            st.traitor = final["traitor"] or ""
            st.concealed = list(final.get("concealed", []))
    return st
