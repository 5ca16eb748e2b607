"""The hunters' possibility map (SO-I2): where the agent may be, from public facts only.

:class:`PossibilityMap` is updated **only** from what the hunters are told — the
public events of the game (hunters' squares, the vehicle, "Clear" answers, reveals,
Last Seen tokens, sensor answers, completed objectives, the escape rule) — and never
reads the agent's true square. That makes SO-I1 structural: nothing secret can leak
into a hunter's view through the map, and the map is exactly the set of squares an
agent could be on given those facts.

Representation. The hunters do not know the hidden objective sites of a 4–5 player
game, and "no objective was completed at the start of the agent's turn" says the
agent was not next to *its* site: the map must be kept jointly with the possible
sites. A :class:`Group` is ``(short, long, allowed)``: for **every** assignment of
sites drawn from ``allowed`` (one candidate set per sector), the agent may be on the
squares of ``short`` (if its last move had ≤ 2 steps) or ``long`` (3–4 steps — the
motion sensor's threshold, SO-V5). Groups are split only where a fact treats site
candidates differently, which is rare, so there are usually one or a few.

The agent's character and equipment are hidden too (until the first reveal, and for
hidden card uses for ever), and they change what a move can do: Adrenal Surge allows 6
steps, Stealth Field hides the agent from hunters more than 2 squares away, Holo Decoy
places a false Last Seen token, Blue Jay completes objectives from 2 squares, Cobra
ambushes. So each group also carries the set of possible **kits** — (character, cards
with their uses left) — as one more dimension of its product; a fact that treats kits
differently splits the group, and groups that end up with the same squares merge again.

Moves are *walks* (a square may be revisited), so the squares after exactly ``k``
steps are computed by ``k`` applications of :meth:`MoveGraph.step_bits`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from .characters import AGENTS
from .geometry import Geometry

__all__ = [
    "NO_KIT",
    "NO_ROLE",
    "Group",
    "Kit",
    "MoveSight",
    "PossibilityMap",
    "Role",
    "kit_use",
    "kit_uses",
]

MAX_STEPS = 4
SURGE_STEPS = 6  # Adrenal Surge
SHORT_MOVE = 2  # "2 or fewer steps" gives "no movement detected" (SO-V5)

Kit = tuple[str, tuple[tuple[str, int], ...]]
"""An agent's hidden kit: its character id and its cards with their uses left (sorted).
The base game without characters has the one kit :data:`NO_KIT`."""

NO_KIT: Kit = ("", ())

Role = tuple[str, bool]
"""Who the hidden traitor is (a hunter figure's id; "" without a traitor) and whether it
has yet seen the agent while no loyal hunter did (a concealed sighting, SO-T3, SO-T4)."""

NO_ROLE: Role = ("", False)

# The hidden-use cards the map must allow for (their uses are never announced).
ADRENAL, STEALTH, DECOY = "adrenal-surge", "stealth-field", "holo-decoy"


def kit_uses(kit: Kit, card: str) -> int:
    """Uses left of ``card`` in ``kit`` (0 if the kit has no such card)."""
    for c, n in kit[1]:
        if c == card:
            return n
    return 0


def kit_use(kit: Kit, card: str) -> Kit:
    """``kit`` after one use of ``card``."""
    return (kit[0], tuple((c, n - 1 if c == card else n) for c, n in kit[1]))


def _range(kit: Kit) -> int:
    return AGENTS[kit[0]].objective_range if kit[0] else 1


@dataclass(frozen=True, slots=True)
class MoveSight:
    """What the hunters saw during the agent's turn, for :meth:`PossibilityMap.moved`.

    Attributes:
        path: squares seen while the agent moved (smoke included).
        path_stealth: the same with a Stealth Field used before the move (only hunters
            within 2 squares see).
        end: squares seen when the turn ended (the end-of-move check, SO-A5).
        end_stealth: the same with a Stealth Field on.
        decoy: squares on which the agent "could have been seen" (any hunter sees them).
        traitor_end: squares the traitor sees when the turn ends (0 without a traitor).
        traitor_end_stealth: the same with a Stealth Field on.

    In the traitor game there is one ``MoveSight`` per possible traitor, built from the
    loyal hunters' sight only (SO-T3).
    """

    path: int
    path_stealth: int
    end: int
    end_stealth: int
    decoy: int
    traitor_end: int = 0
    traitor_end_stealth: int = 0


def _merge_products(
    products: list[tuple[frozenset[int], ...]],
) -> list[tuple[frozenset[int], ...]]:
    """Merge products of site sets that differ in one sector only (their union is then
    again a product), until no two do. Same squares for both means one group will do.
    """
    if len(products) == 1:
        return products
    items = list(dict.fromkeys(products))
    changed = True
    while changed and len(items) > 1:
        changed = False
        n = len(items[0])
        for j in range(n):
            # Products equal outside sector j merge into one: union of their sector j.
            buckets: dict[tuple[frozenset[int], ...], frozenset[int]] = {}
            for p in items:
                key = p[:j] + p[j + 1 :]
                buckets[key] = buckets.get(key, frozenset()) | p[j]
            if len(buckets) < len(items):
                items = [(*k[:j], v, *k[j:]) for k, v in buckets.items()]
                changed = True
    return items


@dataclass(frozen=True, slots=True)
class Group:
    """Squares where the agent may be, for every hidden combination drawn from ``allowed``.

    Attributes:
        short: bitboard, if the agent's last move had at most 2 steps.
        long: bitboard, if it had 3 or more.
        allowed: per sector, the candidate site indices still possible (a completed
            sector holds its one known site), then the possible roles (who the traitor
            is, SO-T2), and last, the possible kits.
    """

    short: int
    long: int
    allowed: tuple[frozenset, ...]  # type: ignore[type-arg]

    @property
    def squares(self) -> int:
        """Every square of the group."""
        return self.short | self.long

    @property
    def kits(self) -> frozenset[Kit]:
        """The kits of the group."""
        out: frozenset[Kit] = self.allowed[-1]
        return out

    @property
    def roles(self) -> frozenset[Role]:
        """The roles of the group."""
        out: frozenset[Role] = self.allowed[-2]
        return out


@dataclass(frozen=True, slots=True)
class PossibilityMap:
    """The exact set of squares where the agent may be, as the hunters know it.

    Immutable: every update returns a new map.
    """

    groups: tuple[Group, ...]

    # ------------------------------------------------------------------ queries

    @property
    def squares(self) -> int:
        """Bitboard of every square the agent may be on."""
        out = 0
        for g in self.groups:
            out |= g.squares
        return out

    def possible_sites(self) -> tuple[frozenset[int], ...]:
        """Per sector, the objective sites that are still possible."""
        n = len(self.groups[0].allowed) - 2 if self.groups else 0
        return tuple(frozenset().union(*(g.allowed[j] for g in self.groups)) for j in range(n))

    def possible_kits(self) -> frozenset[Kit]:
        """Every kit the agent may have."""
        return frozenset().union(*(g.kits for g in self.groups))

    def possible_roles(self) -> frozenset[Role]:
        """Every role the hidden traitor may have."""
        return frozenset().union(*(g.roles for g in self.groups))

    def possible_traitors(self) -> frozenset[str]:
        """Every hunter that may be the traitor ("" without one)."""
        return frozenset(r[0] for r in self.possible_roles())

    def squares_where(self, keep: Callable[[Role], bool]) -> int:
        """Squares of the worlds whose role passes ``keep`` (a loyal hunter's map: the
        worlds in which some other hunter is the traitor)."""
        out = 0
        for g in self.groups:
            if any(keep(r) for r in g.roles):
                out |= g.squares
        return out

    def possible_characters(self) -> frozenset[str]:
        """Every character the agent may be."""
        return frozenset(k[0] for k in self.possible_kits())

    # ------------------------------------------------------------------ start

    @classmethod
    def start(
        cls,
        square: int,
        sites: Sequence[frozenset[int]],
        kits: Iterable[Kit] = (NO_KIT,),
        roles: Iterable[Role] = (NO_ROLE,),
    ) -> PossibilityMap:
        """The map at setup: the agent is on its start square (public, SO-S5).

        Args:
            square: the agent's start square.
            sites: per sector, the candidate sites the hunters allow: the one public
                site with 2–3 players, all six with 4–5 (SO-S3).
            kits: the kits the agent may have chosen (SO-S4).
            roles: who the traitor may be (SO-T2).
        """
        allowed = (*(frozenset(s) for s in sites), frozenset(roles), frozenset(kits))
        return cls((Group(1 << square, 0, allowed),))

    # ------------------------------------------------------------------ facts

    def _normalise(self, groups: Iterable[Group], *, prune: bool = True) -> PossibilityMap:
        """Drop empty groups, join groups with the same hidden combinations (their squares
        unite), prune what a wider group already allows, then merge groups with the same
        squares where their hidden combinations form one product again.

        ``prune=False`` is for facts that only narrow squares (they cannot make one
        group's squares overlap a wider group's where they did not before).
        """
        if not isinstance(groups, list | tuple):
            groups = list(groups)
        if len(groups) == 1:
            # One group (the usual map with public sites and no characters): nothing to
            # join, prune or merge.
            (g,) = groups
            keep = (g.short or g.long) and all(g.allowed)
            return PossibilityMap((g,) if keep else ())
        by_allowed: dict[tuple[frozenset, ...], list[int]] = {}  # type: ignore[type-arg]
        for g in groups:
            if (g.short or g.long) and all(g.allowed):
                cur = by_allowed.get(g.allowed)
                if cur is None:
                    by_allowed[g.allowed] = [g.short, g.long]
                else:
                    cur[0] |= g.short
                    cur[1] |= g.long
        items = _prune(by_allowed) if prune else by_allowed.items()
        by_squares: dict[tuple[int, int], list[tuple[frozenset, ...]]] = {}  # type: ignore[type-arg]
        for allowed, (short, long) in items:
            if short or long:
                by_squares.setdefault((short, long), []).append(allowed)
        out: list[Group] = []
        for (short, long), products in by_squares.items():
            for allowed in _merge_products(products):
                out.append(Group(short, long, allowed))
        return PossibilityMap(tuple(out))

    def keep(self, bits: int) -> PossibilityMap:
        """Keep only squares in ``bits`` (a "Clear" answer keeps the unseen squares)."""
        return self._normalise(
            [Group(g.short & bits, g.long & bits, g.allowed) for g in self.groups],
            prune=False,
        )

    def revealed(self, square: int) -> PossibilityMap:
        """The agent is seen on ``square`` (SO-A5, SO-H3)."""
        return self.keep(1 << square)

    def kits_where(self, keep: Callable[[Kit], bool]) -> PossibilityMap:
        """Keep only the kits for which ``keep`` holds (a character revealed, a card seen)."""
        return self._normalise(
            replace(g, allowed=(*g.allowed[:-1], frozenset(k for k in g.kits if keep(k))))
            for g in self.groups
        )

    def card_used(self, card: str) -> PossibilityMap:
        """A public use of ``card``: the agent has it with a use left, now one fewer."""
        return self._normalise(
            replace(
                g,
                allowed=(
                    *g.allowed[:-1],
                    frozenset(kit_use(k, card) for k in g.kits if kit_uses(k, card) > 0),
                ),
            )
            for g in self.groups
        )

    def split_kits(self, bits_for: Callable[[Kit], int]) -> PossibilityMap:
        """Keep, for each kit, only the squares ``bits_for(kit)`` (a fact whose meaning
        depends on the kit, e.g. the Cobra's ambush that did not happen)."""
        out: list[Group] = []
        for g in self.groups:
            classes: dict[int, set[Kit]] = {}
            for k in g.kits:
                classes.setdefault(bits_for(k), set()).add(k)
            for bits, kits in classes.items():
                out.append(Group(g.short & bits, g.long & bits, (*g.allowed[:-1], frozenset(kits))))
        return self._normalise(out)

    def roles_where(self, keep: Callable[[Role], bool]) -> PossibilityMap:
        """Keep only the roles for which ``keep`` holds (a traitor revealed, SO-T4)."""
        return self._normalise(
            replace(
                g,
                allowed=(
                    *g.allowed[:-2],
                    frozenset(r for r in g.roles if keep(r)),
                    g.allowed[-1],
                ),
            )
            for g in self.groups
        )

    def split_roles(
        self, parts_for: Callable[[Role], Sequence[tuple[Role, int]]]
    ) -> PossibilityMap:
        """Replace each role by the (role, squares) parts ``parts_for(role)`` gives: a fact
        whose meaning depends on who the traitor is (its "Clear" says nothing, a sighting
        of its own is concealed, SO-T3)."""
        out: list[Group] = []
        for g in self.groups:
            for role in g.roles:
                for new_role, bits in parts_for(role):
                    out.append(
                        Group(
                            g.short & bits,
                            g.long & bits,
                            (*g.allowed[:-2], frozenset({new_role}), g.allowed[-1]),
                        )
                    )
        return self._normalise(out)

    def sensor(self, moved: bool, bits: int = 0) -> PossibilityMap:
        """The motion sensor's answer (SO-V5).

        Args:
            moved: True if the last move had 3+ steps (a bearing was given).
            bits: with ``moved``, the squares in the bearing's compass sector.
        """
        if moved:
            return self._normalise(
                [Group(0, g.long & bits, g.allowed) for g in self.groups], prune=False
            )
        return self._normalise([Group(g.short, 0, g.allowed) for g in self.groups], prune=False)

    def objectives(
        self, geo: Geometry, completed: dict[int, int], open_sectors: Iterable[int]
    ) -> PossibilityMap:
        """The start of the agent's turn (SO-O1, SO-O3): ``completed`` maps each sector
        whose objective was completed now to its site; every other sector of
        ``open_sectors`` (not yet completed) was *not* within reach of the agent (next
        to it; within 2 for Blue Jay).

        After the start, the steps of "the last move" are those of the new move, so the
        short/long split is merged here too.
        """
        open_list = [j for j in open_sectors if j not in completed]
        out: list[Group] = []
        for g0 in self.groups:
            by_range: dict[int, set[Kit]] = {}
            for k in g0.kits:
                by_range.setdefault(_range(k), set()).add(k)
            for reach, kits in by_range.items():
                near = geo.adjacent if reach == 1 else geo.near(reach)
                g = Group(g0.short, g0.long, (*g0.allowed[:-1], frozenset(kits)))
                out += _objective_split(g, near, completed, open_list)
        return self._normalise(out)

    def moved(
        self,
        geo: Geometry,
        *,
        result: str,
        square: int | None,
        blocked: int,
        no_end: int,
        sight: MoveSight | Mapping[str, MoveSight],
        hidden_before: bool = True,
        hidden_after: bool = True,
        both: bool = False,
    ) -> PossibilityMap:
        """The agent's secret move and its public result (SO-A1…A6), allowing for every
        hidden card use a kit could have made.

        Args:
            result: ``"revealed"`` (seen at the end, on ``square``), ``"last_seen"``
                (the Last Seen token placed on ``square``) or ``"hidden"``.
            square: the announced square for the first two results.
            blocked: squares the agent may not enter (hunters on foot, SO-A1); they do
                not count for the squeeze rule (SO-A2).
            no_end: squares it may cross but not end on (the vehicle, SO-A3) — and the
                hunters' squares, which it cannot end on either.
            sight: what the hunters saw, with and without a Stealth Field; in the traitor
                game, one per possible traitor (its id as the key), from the others'
                sight, and an agent the traitor alone sees at the end is seen
                concealed (the role's flag, SO-T3, SO-T4).
            hidden_before: whether a hidden card could have been used before the move
                (no public card used then, and the per-turn limit allows it, SO-A7).
            hidden_after: the same for after the move.
            both: whether one card before and one after are allowed (SO-A7's switch).
        """
        # SO-A2: the squeeze looks at terrain only; hunters are just not entered.
        step = geo.graph.stepper(avoid=blocked)
        raw_step = geo.graph.stepper()
        out: list[Group] = []
        # Many groups share their squares (they differ in sites or kits): one walk each.
        cache: dict[tuple[int, str, str, str], tuple[int, int]] = {}
        for g in self.groups:
            # Kits with the same hidden cards available behave alike: one class each.
            classes: dict[tuple[bool, bool, bool], list[Kit]] = {}
            for kit in g.kits:
                classes.setdefault(_signature(kit), []).append(kit)
            for role in g.roles:
                seen = sight if isinstance(sight, MoveSight) else sight[role[0]]
                for sig, kits in classes.items():
                    for before, after in _options(sig, hidden_before, hidden_after, both):
                        key = (g.squares, before, after, role[0])
                        if key not in cache:
                            cache[key] = _move(
                                g.squares,
                                step,
                                raw_step,
                                result,
                                square,
                                no_end,
                                seen,
                                before,
                                after,
                            )
                        short, long = cache[key]
                        if not (short or long):
                            continue
                        new_kits = frozenset(_spend(k, before, after) for k in kits)
                        rest = g.allowed[:-2]
                        if role[0] and not role[1] and result != "revealed":
                            # The traitor alone sees the agent: a concealed sighting.
                            stealth = STEALTH in (before, after)
                            bits = seen.traitor_end_stealth if stealth else seen.traitor_end
                            flagged = frozenset({(role[0], True)})
                            if (short | long) & bits:
                                out.append(
                                    Group(short & bits, long & bits, (*rest, flagged, new_kits))
                                )
                            short &= ~bits
                            long &= ~bits
                        out.append(Group(short, long, (*rest, frozenset({role}), new_kits)))
        return self._normalise(out)


def _prune(
    by_allowed: dict[tuple[frozenset, ...], list[int]],  # type: ignore[type-arg]
) -> list[tuple[tuple[frozenset, ...], list[int]]]:  # type: ignore[type-arg]
    """Remove from each group the squares of every group whose product contains its own.

    The map is a set of (hidden combination, square) pairs; a pair covered by a wider
    group is redundant in a narrower one. Group ``k`` is wider than group ``i`` when in
    every dimension its set contains ``i``'s. A dimension usually holds a few distinct
    sets shared by many groups, so the test is made once per distinct set, giving a
    bitset of the groups whose set contains it (by subset tests between the distinct
    sets when they are few, else by intersecting one bitset of groups per value).
    """
    items = list(by_allowed.items())
    n = len(items)
    if n < 2:
        return items
    full = (1 << n) - 1
    wider = [full & ~(1 << i) for i in range(n)]
    for j in range(len(items[0][0])):
        by_value: dict[frozenset, int] = {}  # type: ignore[type-arg]
        for i, (allowed, _) in enumerate(items):
            v = allowed[j]
            by_value[v] = by_value.get(v, 0) | 1 << i
        if len(by_value) == 1:
            continue  # the same set everywhere: no group is narrower here
        containing: dict[frozenset, int] = {}  # type: ignore[type-arg]
        if len(by_value) <= _FEW_SETS:
            for d in by_value:
                bits = 0
                for e, members in by_value.items():
                    if d <= e:
                        bits |= members
                containing[d] = bits
        else:
            posting: dict[object, int] = {}
            for e, members in by_value.items():
                for x in e:
                    posting[x] = posting.get(x, 0) | members
            for d in by_value:
                bits = full
                for x in d:
                    bits &= posting[x]
                containing[d] = bits
        for i, (allowed, _) in enumerate(items):
            wider[i] &= containing[allowed[j]]
    out: list[tuple[tuple[frozenset, ...], list[int]]] = []  # type: ignore[type-arg]
    for i, (allowed, (short, long)) in enumerate(items):
        w = wider[i]
        while w and (short or long):
            low = w & -w
            s2, l2 = items[low.bit_length() - 1][1]
            short &= ~s2
            long &= ~l2
            w ^= low
        out.append((allowed, [short, long]))
    return out


_FEW_SETS = 48
"""Up to this many distinct sets in a dimension, compare them pairwise (C-level subset
tests); beyond, intersect per-value bitsets (thousands of kit sets in a 5-player game
with characters)."""


@functools.lru_cache(maxsize=65536)
def _signature(kit: Kit) -> tuple[bool, bool, bool]:
    return (kit_uses(kit, ADRENAL) > 0, kit_uses(kit, STEALTH) > 0, kit_uses(kit, DECOY) > 0)


@functools.lru_cache(maxsize=65536)
def _spend(kit: Kit, before: str, after: str) -> Kit:
    for card in (before, after):
        if card:
            kit = kit_use(kit, card)
    return kit


def _objective_split(
    g: Group, near: Sequence[int], completed: dict[int, int], open_list: list[int]
) -> list[Group]:
    squares = g.squares
    allowed = list(g.allowed)
    for j, site in completed.items():
        if site not in allowed[j]:
            return []
        allowed[j] = frozenset({site})
        squares &= near[site]
    if not squares:
        return []
    # An open sector's candidate within reach of a square is ruled out for that square
    # only. So split the squares by which candidates they are within reach of: each part
    # keeps the product of the candidates not in reach of it. Sites lie far apart, so a
    # square is within reach of few candidates and the parts are few.
    parts: dict[frozenset[tuple[int, int]], int] = {frozenset(): squares}
    for j in open_list:
        for s in allowed[j]:
            zone = near[s]
            if not zone & squares:
                continue
            nxt: dict[frozenset[tuple[int, int]], int] = {}
            for key, bits in parts.items():
                inside = bits & zone
                if inside:
                    nxt[key | {(j, s)}] = inside
                if bits & ~zone:
                    nxt[key] = bits & ~zone
            parts = nxt
    out: list[Group] = []
    for key, bits in parts.items():
        new_allowed = list(allowed)
        for j, s in key:
            new_allowed[j] = new_allowed[j] - {s}
        out.append(Group(bits, 0, tuple(new_allowed)))
    return out


def _options(
    sig: tuple[bool, bool, bool], hidden_before: bool, hidden_after: bool, both: bool
) -> list[tuple[str, str]]:
    """The hidden card uses (before, after) a kit could have made this turn, given which
    hidden cards it has uses of: (Adrenal Surge, Stealth Field, Holo Decoy)."""
    adrenal, stealth, decoy = sig
    befores = [""]
    afters = [""]
    if hidden_before:
        befores += [c for c, ok in ((ADRENAL, adrenal), (STEALTH, stealth)) if ok]
    if hidden_after:
        afters += [c for c, ok in ((STEALTH, stealth), (DECOY, decoy)) if ok]
    out = [(b, "") for b in befores]
    if both:
        out += [(b, a) for b in befores for a in afters[1:] if a != b]
    else:
        out += [("", a) for a in afters[1:]]
    return out


def _move(
    start: int,
    step: Callable[[int], int],
    raw_step: Callable[[int], int],
    result: str,
    square: int | None,
    no_end: int,
    sight: MoveSight,
    before: str,
    after: str,
) -> tuple[int, int]:
    """(short, long) end squares of one way of playing the turn, given its public result."""
    limit = SURGE_STEPS if before == ADRENAL else MAX_STEPS
    path_seen = sight.path_stealth if before == STEALTH else sight.path
    end_seen = sight.end_stealth if STEALTH in (before, after) else sight.end
    ok_end = ~end_seen & ~no_end
    short = long = 0
    if after == DECOY:
        # A false Last Seen token on `square`, a square the agent could have been seen on
        # this turn; its true move went unseen at the end.
        if result != "last_seen" or square is None or not sight.decoy >> square & 1:
            return 0, 0
        mark = 1 << square
        # Only starts from which the token's square is within the move: walk back from
        # it (steps are symmetric on terrain) through squares the agent may enter; the
        # start itself may be a hunter's square (one that ended on the agent, SO-H5).
        within = limit
        if no_end & mark:
            # On the vehicle's square only mid-move (SO-A3): with a step to spare and a
            # way off it — or from the start, if the agent began its turn there.
            within = limit - 1 if step(mark) & ~mark else 0
        back = reach = mark
        for _ in range(within - 1):
            back = step(back)
            reach |= back
        if within:
            reach |= raw_step(reach)
        starts = start & reach
        layer = starts
        for k in range(limit + 1):
            if k:
                layer = step(layer)
            if k <= SHORT_MOVE:
                short |= layer
            else:
                long |= layer
        return short & ok_end, long & ok_end
    if result == "hidden":
        layer = start & ~path_seen
        for k in range(limit + 1):
            if k:
                layer = step(layer) & ~path_seen
            if k <= SHORT_MOVE:
                short |= layer
            else:
                long |= layer
        return short & ok_end, long & ok_end
    if square is None:
        raise ValueError(f"a {result} result needs its square")
    mark = 1 << square
    layer = start
    at: list[int] = [0] if start & mark else []
    for k in range(1, limit + 1):
        layer = step(layer)
        if layer & mark:
            at.append(k)
    if not at:
        return 0, 0
    if result == "revealed":
        if not end_seen & mark:
            return 0, 0
        short = mark if min(at) <= SHORT_MOVE else 0
        long = mark if any(k > SHORT_MOVE for k in at) else 0
        return short, long
    # Last seen on `square` (seen during the move), then only unseen squares.
    if not path_seen & mark:
        return 0, 0
    suffix = [mark]
    layer = mark
    for _ in range(limit):
        layer = step(layer) & ~path_seen
        suffix.append(layer)
    for i in at:
        for j in range(0, limit - i + 1):
            if i + j <= SHORT_MOVE:
                short |= suffix[j]
            else:
                long |= suffix[j]
    return short & ok_end, long & ok_end
