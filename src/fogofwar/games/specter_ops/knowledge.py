"""The hunters' possibility map (SO-I2): where the agent may be, from public facts only.

:class:`PossibilityMap` is updated **only** from what the hunters are told — the
public events of the game (hunters' squares, the vehicle, "Clear" answers, reveals,
Last Seen tokens, sensor answers, completed objectives, the escape rule) — and never
reads the agent's true square. That makes SO-I1 structural: nothing secret can leak
into a hunter's view through the map, and the map is exactly the set of squares an
agent could be on given those facts.

What is hidden besides the square. The map is the set of hidden *worlds* consistent
with the public facts, a world being (square, steps of the last move, one objective
site per sector, the traitor's role, the agent's kit):

* the objective sites of a 4–5 player game (SO-S3): "no objective was completed at the
  start of the agent's turn" says the agent was not next to *its* site, so squares and
  sites are kept jointly;
* who the traitor is, and whether it has seen the agent unseen by the others (SO-T3);
* the agent's character and cards with their uses left (SO-S4, SO-A8). A hidden card
  use (Adrenal Surge, Stealth Field, Holo Decoy, SO-A7) changes where the agent may be,
  and its uses left change with it; Blue Jay's range and the Cobra's ambush change what
  an objective or a hunter's move tells.

Representation — chosen so that the cost does not multiply by the hidden dimensions:

* **Kits split in two.** What moves the agent — the character's objective range and
  ambush, and the uses left of the three hidden cards — and the rest, the *base*: the
  exact character and its public cards with their uses (Flash Bang, Med Kit, ...). No
  fact ties a base to a square: a public card use or a character's reveal is told to
  everyone and narrows the bases only, while moves, sightings, objectives and the
  sensor depend on the mover only. So the map keeps ``classes`` of kits that start
  alike (same range, ambush and hidden cards), each with its set of bases, and the
  squares per *key* ``(role, class, hidden uses left)``; a world's kit is any base of
  its class with its key's uses — the join is exact.
* **Sites as bitsets, by square.** The site assignments (one candidate per sector:
  6⁴ = 1,296 with hidden sites, 1 when they are public) are numbered, and a set of them
  is a Python int. A key's worlds are its *parts* ``(short, long, assignments)``: the
  squares after a short (≤ 2 steps) and after a long (3+) last move (the motion
  sensor's threshold, SO-V5) on which exactly those assignments are possible. Each
  square is in one part, so the form is canonical (equal worlds compare equal), and it
  is small: a map's squares carry few distinct sets of assignments, where the squares
  of each assignment may all differ. A fact about sites (an objective completed or
  not) is a mask.
* **Shared walks.** Keys with the same parts share one tuple (``groups``), and a move
  walks once per distinct set of squares and way of playing the turn; an unseen move's
  layers are walked once for every length (Adrenal Surge) and end (Stealth Field), and
  each walk's rectangles are made canonical once per resulting key (in ``_join``).

With public sites and no characters there is one key and one part: a bitboard. With
public sites and no traitor (2–3 players) each group is one part, and an agent's move
and the objective check take shortcuts: a key's squares after a move are the OR of its
ways' walks, the check one mask of allowed squares (tests compare them with the general
paths fact by fact).

Moves are *walks* (a square may be revisited), so the squares after exactly ``k``
steps are computed by ``k`` applications of :meth:`MoveGraph.step_bits`.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from ...core import bitsets
from ...core.bitsets import SplitFn, StepFn, WalksFn
from ...core.collector import settled_cache
from .characters import AGENTS
from .geometry import Geometry

__all__ = [
    "HIDDEN_CARDS",
    "NO_KIT",
    "NO_ROLE",
    "Kit",
    "KitClass",
    "MoveSight",
    "PossibilityMap",
    "Role",
    "SiteSpace",
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
HIDDEN_CARDS = (ADRENAL, STEALTH, DECOY)

Uses = tuple[int, int, int]
"""Uses left of (Adrenal Surge, Stealth Field, Holo Decoy); -1 for a card not held."""

Base = tuple[str, tuple[tuple[str, int], ...]]
"""A kit without its hidden cards: the character and its public cards with uses left."""

Key = tuple[Role, int, Uses]
"""A world's hidden values besides square and sites: (role, kit class id, hidden uses)."""

Part = tuple[int, int, int]
"""(short, long, assignments): squares after a short and after a long last move, on
each of which the site assignments possible are those of the bitset ``assignments``."""

Parts = tuple[Part, ...]
"""A key's worlds: parts with disjoint squares and distinct assignments, in order."""


def kit_uses(kit: Kit, card: str) -> int:
    """Uses left of ``card`` in ``kit`` (0 if the kit has no such card)."""
    for c, n in kit[1]:
        if c == card:
            return n
    return 0


def kit_use(kit: Kit, card: str) -> Kit:
    """``kit`` after one use of ``card``."""
    return (kit[0], tuple((c, n - 1 if c == card else n) for c, n in kit[1]))


def _reach(character: str) -> int:
    return AGENTS[character].objective_range if character else 1


def _ambush(character: str) -> bool:
    return bool(character) and AGENTS[character].ambush


@dataclass(frozen=True, slots=True)
class KitClass:
    """Kits the map keeps together: the same objective range, ambush and hidden cards.

    Attributes:
        reach: king distance from which the agent completes objectives (Blue Jay 2).
        ambush: whether the character ambushes (the Cobra).
        bases: the possible bases — character and public cards with their uses left.
    """

    reach: int
    ambush: bool
    bases: frozenset[Base]


def _kit(base: Base, uses: Uses) -> Kit:
    hidden = [(c, n) for c, n in zip(HIDDEN_CARDS, uses, strict=True) if n >= 0]
    return (base[0], tuple(sorted((*base[1], *hidden))))


@functools.lru_cache(maxsize=64)  # kit lists run to hundreds of kits
def _kit_classes(
    kits: tuple[Kit, ...],
) -> tuple[Mapping[int, KitClass], tuple[tuple[int, frozenset[Uses]], ...]]:
    """The kit classes of ``kits`` by id, and each class's hidden uses: kits alike in
    what moves them, grouped by base. Cached: every sampled world of a search starts a
    map from one of a few kit lists, and working the classes out again was most of
    sampling a world."""
    alike: dict[tuple[int, bool, tuple[bool, ...]], dict[Base, set[Uses]]] = {}
    for kit in kits:
        char, cards = kit
        held = {c for c, _ in cards}
        uses: Uses = tuple(kit_uses(kit, c) if c in held else -1 for c in HIDDEN_CARDS)  # type: ignore[assignment]
        base: Base = (char, tuple((c, n) for c, n in cards if c not in HIDDEN_CARDS))
        mover = (_reach(char), _ambush(char), tuple(n >= 0 for n in uses))
        alike.setdefault(mover, {}).setdefault(base, set()).add(uses)
    # One class per set of hidden uses shared by its bases: the join is then exact
    # whatever kits the caller gives (one class per mover when no uses are spent).
    classes: dict[int, KitClass] = {}
    movers: list[tuple[int, frozenset[Uses]]] = []
    for (reach, ambush, _), bases in alike.items():
        by_uses: dict[frozenset[Uses], set[Base]] = {}
        for base, spent in bases.items():
            by_uses.setdefault(frozenset(spent), set()).add(base)
        for shared, group in by_uses.items():
            cid = len(classes)
            classes[cid] = KitClass(reach, ambush, frozenset(group))
            movers.append((cid, shared))
    return MappingProxyType(classes), tuple(movers)


@dataclass(frozen=True, slots=True)
class SiteSpace:
    """The site assignments a map numbers: one candidate per sector, mixed radix.

    Attributes:
        candidates: per sector, its candidate sites (sorted square indices).
        full: the bitset of every assignment.
        masks: per sector, each candidate's bitset of the assignments that choose it.
    """

    candidates: tuple[tuple[int, ...], ...]
    full: int
    masks: tuple[Mapping[int, int], ...]

    def sites(self, assignments: int) -> tuple[frozenset[int], ...]:
        """Per sector, the candidates chosen by some assignment in ``assignments``."""
        return tuple(
            frozenset(s for s, m in masks.items() if m & assignments) for masks in self.masks
        )


@functools.lru_cache(maxsize=64)
def site_space(candidates: tuple[tuple[int, ...], ...]) -> SiteSpace:
    """The :class:`SiteSpace` of ``candidates`` (shared by every map that uses it)."""
    masks: list[dict[int, int]] = [{s: 0 for s in sector} for sector in candidates]
    for i, pick in enumerate(itertools.product(*candidates)):
        bit = 1 << i
        for j, s in enumerate(pick):
            masks[j][s] |= bit
    total = 1
    for sector in candidates:
        total *= len(sector)
    return SiteSpace(candidates, (1 << total) - 1, tuple(masks))


@dataclass(frozen=True, slots=True)
class MoveSight:
    """What the hunters saw during the agent's turn, for :meth:`PossibilityMap.moved`.

    Attributes:
        path: squares seen while the agent moved (smoke included).
        path_stealth: the same with a Stealth Field used this turn, before the move or
            after it (only hunters within 2 squares see).
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


# --------------------------------------------------------------------------- parts


_canon: Callable[[Iterable[Part]], Parts] = bitsets.canon
"""The canonical parts of a union of rectangles (cells × assignments):
:func:`fogofwar.core.bitsets.canon_py` (each cell with the assignments of every
rectangle that holds it, cells with the same assignments in one part, parts in order of
their assignments), in C where built."""


_narrow: Callable[[Parts, int, int], Parts] = bitsets.narrow
"""``parts`` with their squares narrowed (a fact that only removes squares; the cells
stay disjoint and the assignments distinct, only empty parts go):
:func:`fogofwar.core.bitsets.narrow_py`, in C where built."""

_played: Callable[
    [Parts, Sequence[bitsets.Way], Sequence[tuple[int, ...]]], tuple[tuple[Parts, Parts], ...]
] = bitsets.played
"""A move's ways joined per target: :func:`fogofwar.core.bitsets.played_py`, in C where
built."""

_narrowed_groups: Callable[
    [dict[Parts, frozenset[Key]], int, int], tuple[dict[Parts, frozenset[Key]], int, bool]
] = bitsets.narrowed
"""Every group's parts narrowed alike, groups whose parts come out equal joined:
:func:`fogofwar.core.bitsets.narrowed_py`, in C where built."""

_merged: Callable[
    [Iterable[tuple[Parts, frozenset[Key], int]]], tuple[dict[Parts, frozenset[Key]], int, bool]
] = bitsets.merged
"""The objective check where the sites are public, every group in one call:
:func:`fogofwar.core.bitsets.merged_py`, in C where built."""

_grouped: Callable[
    [Iterable[tuple[Parts, frozenset[Key]]], Mapping[Parts, Any] | None],
    dict[Parts, frozenset[Key]],
] = bitsets.grouped
"""Groups of (parts, keys) pairs, the keys of equal parts joined; the map's old groups
give the hashes of the parts they share: :func:`fogofwar.core.bitsets.grouped_py`, in C
where built."""

_squares: Callable[[Parts], int] = bitsets.squares
"""Every square of ``parts``: :func:`fogofwar.core.bitsets.squares_py`, in C where built."""


Zones = SplitFn
"""The open candidates' zones on a board, ready to split parts by: every square within
reach of one, and the squares split by which assignments they rule out ((ruled out,
squares) pairs), in a :data:`fogofwar.core.bitsets.Splitter`."""


_Splitter: Callable[[int, Sequence[tuple[int, int]]], SplitFn] = bitsets.Splitter
"""The objective check's splitter: :class:`fogofwar.core.bitsets.PySplitter`, in C where
built."""

_ZONES: dict[tuple[object, ...], tuple[SiteSpace, Sequence[int], Zones]] = {}
""":func:`_zones` by (site space, squares near each square, open sectors, splitter), the
first two by identity (both live as long as the process: cached spaces and
geometries)."""


def _zones(space: SiteSpace, near: Sequence[int], open_list: Sequence[int]) -> Zones:
    """The arrangement of the open sectors' candidate zones (SO-O3): a square within
    reach of candidates rules out the assignments that choose any of them. Worked out
    once for every key of a map, not once per key and candidate, and kept: the open
    sectors change only when an objective is completed, and working the zones out
    again at every turn's start was a quarter of the objective check at 4 players."""
    key = (id(space), id(near), tuple(open_list), _Splitter)
    got = _ZONES.get(key)
    # Identity is checked, since an id may be reused once its object is gone.
    if got is not None and got[0] is space and got[1] is near:
        return got[2]
    if len(_ZONES) >= 256:
        _ZONES.clear()
    zones = _make_zones(space, near, open_list)
    _ZONES[key] = (space, near, zones)
    return zones


def _make_zones(space: SiteSpace, near: Sequence[int], open_list: Sequence[int]) -> Zones:
    """:func:`_zones`, worked out."""
    union = 0
    zones = [(near[s], mask) for j in open_list for s, mask in space.masks[j].items()]
    for zone, _ in zones:
        union |= zone
    pieces: list[tuple[int, int]] = [(union, 0)] if union else []
    for zone, mask in zones:
        nxt: list[tuple[int, int]] = []
        for squares, out in pieces:
            inside = squares & zone
            if inside:
                nxt.append((inside, out | mask))
                if squares & ~zone:
                    nxt.append((squares & ~zone, out))
            else:
                nxt.append((squares, out))
        pieces = nxt
    by_out: dict[int, int] = {}
    for squares, out in pieces:
        by_out[out] = by_out.get(out, 0) | squares
    return _Splitter(union, tuple(by_out.items()))


def _allowed(
    space: SiteSpace, near: Sequence[int], completed: dict[int, int], open_list: Sequence[int]
) -> int:
    """SO-O1, SO-O3 where every sector has one candidate (public sites): the squares the
    agent may have started its turn on — within reach of each completed site and of no
    open one."""
    bits = -1
    for j, site in completed.items():
        if not space.masks[j].get(site, 0):
            return 0  # not the sector's site: no world completes it
        bits &= near[site]
    for j in open_list:
        for site in space.candidates[j]:
            bits &= ~near[site]
    return bits


def _completed_masks(
    space: SiteSpace, near: Sequence[int], completed: dict[int, int]
) -> tuple[int, int]:
    """SO-O1: (squares, assignments) that every completed sector's site allows — the
    squares within reach of it, the assignments that choose it (-1: no sector
    completed)."""
    squares = assignments = -1
    for j, site in completed.items():
        assignments &= space.masks[j].get(site, 0)
        squares &= near[site]
    return squares, assignments


def _stuck(squares: int, step: StepFn, blocked: int, no_end: int) -> int:
    """Of ``squares`` (each one the agent may not end on), those from which it cannot
    step at all (SO-A1…A3): every step blocked, or only a step onto the vehicle's
    square with no way off it (``no_end`` less ``blocked`` is the vehicle's square)."""
    if not squares:
        return 0  # the usual case: no world stands where a move may not end
    vehicle = no_end & ~blocked
    way_off = step(vehicle) & ~vehicle if vehicle else 0
    out = 0
    while squares:
        low = squares & -squares
        squares ^= low
        nxt = step(low)
        if not nxt & ~vehicle and not (nxt & vehicle and way_off):
            out |= low
    return out


# --------------------------------------------------------------------------- the map


@dataclass(frozen=True, slots=True)
class PossibilityMap:
    """The exact set of hidden worlds (the agent's square first) the hunters allow.

    Immutable: every update returns a new map.

    Attributes:
        groups: the keys (role, kit class id, hidden uses left) by their parts; a key is
            in one group, keys with the same worlds share theirs (one walk for all).
        classes: the kit classes by id, each with its possible bases.
        space: the numbering of the site assignments.
        squares: bitboard of every square the agent may be on.
    """

    groups: Mapping[Parts, frozenset[Key]]
    classes: Mapping[int, KitClass]
    space: SiteSpace
    squares: int
    # The queries' answers, kept once asked: a map never changes, and every view of
    # every seat asks the same ones until the next fact makes a new map.
    _memo: dict[object, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def _of(
        self,
        groups: Mapping[Parts, frozenset[Key]],
        classes: Mapping[int, KitClass] | None = None,
        *,
        every_key: bool = False,
    ) -> PossibilityMap:
        """A map of ``groups`` in this one's site space; only the classes some key uses
        are kept. ``every_key``: ``groups`` hold every key of this map and the classes
        are this map's, so the classes used are this map's own (not counted again)."""
        out = 0
        for parts in groups:
            out |= _squares(parts)
        if every_key:
            return PossibilityMap(groups, self.classes, self.space, out)
        if classes is None:
            classes = self.classes
        used = {key[1] for keys in groups.values() for key in keys}
        return PossibilityMap(
            groups, {c: k for c, k in classes.items() if c in used}, self.space, out
        )

    # ------------------------------------------------------------------ queries

    @property
    def parts(self) -> dict[Key, Parts]:
        """Each key's parts."""
        return {key: parts for parts, keys in self.groups.items() for key in keys}

    @property
    def size(self) -> int:
        """How many parts the map walks (its cost; for benchmarks)."""
        return sum(len(p) for p in self.groups)

    def possible_sites(self) -> tuple[frozenset[int], ...]:
        """Per sector, the objective sites that are still possible."""
        got: tuple[frozenset[int], ...] | None = self._memo.get("sites")
        if got is None:
            every = 0
            for parts in self.groups:
                for _, _, a in parts:
                    every |= a
            got = self._memo["sites"] = self.space.sites(every)
        return got

    def possible_kits(self) -> frozenset[Kit]:
        """Every kit the agent may have."""
        return frozenset(self.kit_squares())

    def kit_squares(self) -> dict[Kit, tuple[int, int]]:
        """Per possible kit, its (short, long) squares over every role and site."""
        by_mover: dict[tuple[int, Uses], list[int]] = {}
        for parts, keys in self.groups.items():
            short = long = 0
            for s, lg, _ in parts:
                short |= s
                long |= lg
            for _, cid, uses in keys:
                cur = by_mover.setdefault((cid, uses), [0, 0])
                cur[0] |= short
                cur[1] |= long
        out: dict[Kit, tuple[int, int]] = {}
        for (cid, uses), (short, long) in by_mover.items():
            for base in self.classes[cid].bases:
                out[_kit(base, uses)] = (short, long)
        return out

    def possible_roles(self) -> frozenset[Role]:
        """Every role the hidden traitor may have."""
        got: frozenset[Role] | None = self._memo.get("roles")
        if got is None:
            got = frozenset(key[0] for keys in self.groups.values() for key in keys)
            self._memo["roles"] = got
        return got

    def possible_traitors(self) -> frozenset[str]:
        """Every hunter that may be the traitor ("" without one)."""
        got: frozenset[str] | None = self._memo.get("traitors")
        if got is None:
            got = self._memo["traitors"] = frozenset(r[0] for r in self.possible_roles())
        return got

    def squares_where(self, keep: Callable[[Role], bool]) -> int:
        """Squares of the worlds whose role passes ``keep`` (a loyal hunter's map: the
        worlds in which some other hunter is the traitor)."""
        out = 0
        for parts, keys in self.groups.items():
            if any(keep(key[0]) for key in keys):
                out |= _squares(parts)
        return out

    def squares_without(self, hunters: Iterable[str]) -> int:
        """Squares of the worlds in which none of ``hunters`` is the traitor (a loyal
        hunter seat's map: it knows its own figures loyal)."""
        key = ("without", frozenset(hunters))
        got: int | None = self._memo.get(key)
        if got is None:
            mine = key[1]
            got = self._memo[key] = self.squares_where(lambda r: r[0] not in mine)
        return got

    def traitor_worlds(self, traitor: str) -> PossibilityMap:
        """The worlds in which ``traitor`` is the traitor and no concealed sighting flags
        (SO-T3): the traitor's own map while it has seen the agent no more than the
        public record says (every fact is about each world alone, and the flag means
        "ever seen"); asked once per map."""
        key = ("traitor_worlds", traitor)
        got: PossibilityMap | None = self._memo.get(key)
        if got is None:
            role = (traitor, False)
            got = self._memo[key] = self.roles_where(lambda r: r == role)
        return got

    def proven_traitor(self, loyal: Iterable[str]) -> str:
        """The hunter the public record proves the traitor (SO-T4) to a seat that knows
        the hunters ``loyal`` (its own figures) loyal: every world of its map has that
        hunter as the traitor with a concealed sighting (SO-T3), so an accusation of it
        is proven; "" when the record proves none."""
        key = ("proven", frozenset(loyal))
        got: str | None = self._memo.get(key)
        if got is None:
            roles = {r for r in self.possible_roles() if r[0] not in key[1]}
            (traitor, concealed) = roles.pop() if len(roles) == 1 else NO_ROLE
            got = self._memo[key] = traitor if concealed else ""
        return got

    def possible_characters(self) -> frozenset[str]:
        """Every character the agent may be."""
        got: frozenset[str] | None = self._memo.get("characters")
        if got is None:
            got = frozenset(b[0] for c in self.classes.values() for b in c.bases)
            self._memo["characters"] = got
        return got

    # ------------------------------------------------------------------ start

    @classmethod
    def start(
        cls,
        square: int,
        sites: Sequence[Iterable[int]],
        kits: Iterable[Kit] = (NO_KIT,),
        roles: Iterable[Role] = (NO_ROLE,),
    ) -> PossibilityMap:
        """The map at setup: the agent is on its start square (public, SO-S5).

        Args:
            square: the agent's start square.
            sites: per sector, the candidate sites the hunters allow: the one public
                site with 2–3 players, all six with 4–5 (SO-S3).
            kits: the kits the agent may have chosen (SO-S4); any set of kits, uses
                spent or not.
            roles: who the traitor may be (SO-T2).
        """
        return _start(square, tuple(tuple(sorted(s)) for s in sites), tuple(kits), tuple(roles))

    @classmethod
    def covering(
        cls,
        squares: int,
        sites: Sequence[Iterable[int]],
        kits: Iterable[Kit] = (NO_KIT,),
        roles: Iterable[Role] = (NO_ROLE,),
    ) -> PossibilityMap:
        """A map in which every world of ``kits`` × ``sites`` × ``roles`` may have the
        agent on any of ``squares``, after a short or a long last move: the product of
        what a seat's view shows of a map (a sampled world's own map, :mod:`.worlds`)."""
        begun = cls.start(0, sites, kits, roles)
        if not squares:
            return begun._of({})
        parts: Parts = ((squares, squares, begun.space.full),)
        return begun._regroup((parts, keys) for keys in begun.groups.values())

    # ------------------------------------------------------------------ rebuilding

    def _regroup(
        self,
        pairs: Iterable[tuple[Parts, Iterable[Key]]],
        classes: Mapping[int, KitClass] | None = None,
        *,
        every_key: bool = False,
    ) -> PossibilityMap:
        """The map of (parts, keys) pairs in which each key comes once: keys whose parts
        turned out equal join one group; empty parts and keys of a dropped class go.

        ``every_key``: the pairs' keys are every key of this map (a fact that narrows
        squares only); while no parts come out empty, the classes stay as they are."""
        same = classes is None
        if classes is None:
            classes = self.classes
        kept = every_key and same
        out: list[tuple[Parts, frozenset[Key]]] = []
        for parts, keys in pairs:
            if not parts:
                kept = False
                continue
            # With the classes unchanged every key's class is still there (a map keeps
            # the classes its keys use), so only a changed set of classes filters.
            got = (
                keys
                if same and isinstance(keys, frozenset)
                else frozenset(k for k in keys if k[1] in classes)
            )
            if got:
                out.append((parts, got))
        # Joined in one kernel call: hashing parts (dozens of 700- to 1,300-bit
        # integers, hashes not kept) was most of the cost here, and most parts are
        # this map's own, whose hashes its groups dict keeps.
        return self._of(_grouped(out, self.groups), classes, every_key=kept)

    def _join(self, sources: Sequence[tuple[frozenset[Key], Sequence[Parts]]]) -> PossibilityMap:
        """The map of (keys, parts) sources in which a key may come more than once (a
        move played several ways, roles merged): each key's worlds are the union of
        every parts its sources give (each canonical).

        Sources carry sets of keys: the keys of a group that a fact treats alike (a
        move's keys played the same ways, a role's keys narrowed alike) come as one,
        and are worked as one where no key comes in two sources (the usual case)."""
        twice = _made_twice(keys for keys, _ in sources)
        if twice:
            # Some keys come in two sources (a use spent in one group, none in
            # another): those gather their parts key by key, then the keys with the
            # same parts join; the other keys of their sources stay together.
            per_key: dict[Key, list[Parts]] = {}
            kept: list[tuple[frozenset[Key], Sequence[Parts]]] = []
            for keys, got in sources:
                if twice.isdisjoint(keys):
                    kept.append((keys, got))
                    continue
                rest = keys - twice
                if rest:
                    kept.append((rest, got))
                for key in keys & twice:
                    some = per_key.get(key)
                    if some is None:
                        per_key[key] = list(got)
                    else:
                        some.extend(got)
            by_parts: dict[tuple[int, ...], tuple[list[Parts], list[Key]]] = {}
            for key, lists in per_key.items():
                ids = tuple(sorted(map(id, lists)))
                alike = by_parts.get(ids)
                if alike is None:
                    by_parts[ids] = (lists, [key])
                else:
                    alike[1].append(key)
            kept.extend((frozenset(ks), lists) for lists, ks in by_parts.values())
            sources = kept
        memo: dict[tuple[int, ...], Parts] = {}
        # Sources are gathered by the parts *object* first and only then by value:
        # most share an object (one walk or narrowing), and hashing a tuple of parts
        # (dozens of 700-bit integers, not cached) once per source cost more than the
        # rest of a "Clear" fact. The objects live in sources and memo meanwhile.
        by_object: dict[int, tuple[Parts, list[frozenset[Key]]]] = {}
        for keys, got in sources:
            if not keys:
                continue
            if len(got) == 1:
                parts = got[0]
            else:
                ids = tuple(sorted(map(id, got)))
                found = memo.get(ids)
                if found is None:
                    found = memo[ids] = _canon(list(itertools.chain.from_iterable(got)))
                parts = found
            if not parts:
                continue
            entry = by_object.get(id(parts))
            if entry is None:
                by_object[id(parts)] = (parts, [keys])
            else:
                entry[1].append(keys)
        return self._of(
            _grouped(
                [
                    (parts, sets[0] if len(sets) == 1 else frozenset().union(*sets))
                    for parts, sets in by_object.values()
                ],
                self.groups,
            )
        )

    def joined(self, other: PossibilityMap) -> PossibilityMap:
        """The worlds of this map and of ``other`` (a map made from this one's, in its
        site space): each key's worlds the union of its worlds in both."""
        sources = [(keys, (parts,)) for m in (self, other) for parts, keys in m.groups.items()]
        # Each map keeps the classes its own keys use: the join may use either's.
        return replace(self, classes={**self.classes, **other.classes})._join(sources)

    # ------------------------------------------------------------------ facts

    def keep(self, bits: int) -> PossibilityMap:
        """Keep only squares in ``bits`` (a "Clear" answer keeps the unseen squares)."""
        if not self.squares & ~bits:
            return self
        return self._narrowed(bits, bits)

    def _narrowed(self, short_bits: int, long_bits: int) -> PossibilityMap:
        """Every group's parts narrowed alike (a fact that only removes squares, for
        every key): one kernel call (``_narrowed_groups``) for what :meth:`_regroup`
        does over :func:`_narrow` of each group; while no group comes out empty, the
        classes stay this map's."""
        groups = self.groups if isinstance(self.groups, dict) else dict(self.groups)
        return self._after(*_narrowed_groups(groups, short_bits, long_bits))

    def _after(
        self, groups: dict[Parts, frozenset[Key]], squares: int, kept: bool
    ) -> PossibilityMap:
        """The map of a kernel's ``groups`` and ``squares`` (every square of them): while
        every key was ``kept``, the classes are this map's; else the classes some key
        still uses (:meth:`_of`)."""
        if kept:
            return PossibilityMap(groups, self.classes, self.space, squares)
        return self._of(groups)

    def revealed(self, square: int) -> PossibilityMap:
        """The agent is seen on ``square`` (SO-A5, SO-H3)."""
        return self.keep(1 << square)

    def characters_where(self, keep: Callable[[str], bool]) -> PossibilityMap:
        """Keep only the kits whose character passes ``keep`` (a character revealed, or
        in use by the other agent, SO-T5)."""
        classes = {}
        for cid, c in self.classes.items():
            bases = frozenset(b for b in c.bases if keep(b[0]))
            if bases:
                classes[cid] = c if len(bases) == len(c.bases) else replace(c, bases=bases)
        if all(classes.get(cid) is c for cid, c in self.classes.items()):
            return self
        return self._regroup(self.groups.items(), classes)

    def card_used(self, card: str) -> PossibilityMap:
        """A public use of ``card``: the agent has it with a use left, now one fewer."""
        if card in HIDDEN_CARDS:
            i = HIDDEN_CARDS.index(card)
            return self._regroup(
                (
                    parts,
                    [
                        (role, cid, (*uses[:i], uses[i] - 1, *uses[i + 1 :]))  # type: ignore[misc]
                        for role, cid, uses in keys
                        if uses[i] > 0
                    ],
                )
                for parts, keys in self.groups.items()
            )
        classes = {}
        for cid, c in self.classes.items():
            bases = frozenset(
                (char, tuple((k, n - 1 if k == card else n) for k, n in cards))
                for char, cards in c.bases
                if any(k == card and n > 0 for k, n in cards)
            )
            if bases:
                classes[cid] = replace(c, bases=bases)
        return self._regroup(self.groups.items(), classes)

    def ambush_absent(self, zone: int) -> PossibilityMap:
        """No ambush when a hunter ended its move: an ambushing character (the Cobra)
        is not on ``zone`` (the hunter's square and its orthogonal neighbours)."""
        if not self.squares & zone:
            return self
        ambushers = frozenset(cid for cid, c in self.classes.items() if c.ambush)
        if not ambushers:
            return self
        pairs: list[tuple[Parts, Iterable[Key]]] = []
        for parts, keys in self.groups.items():
            hit, rest = _split_classes(keys, ambushers)
            if not hit or not _squares(parts) & zone:
                pairs.append((parts, keys))
                continue
            pairs.append((_narrow(parts, ~zone, ~zone), hit))
            pairs.append((parts, rest))
        return self._regroup(pairs, every_key=True)

    def roles_where(self, keep: Callable[[Role], bool]) -> PossibilityMap:
        """Keep only the roles for which ``keep`` holds (a traitor revealed, SO-T4)."""
        return self._regroup(
            (parts, [k for k in keys if keep(k[0])]) for parts, keys in self.groups.items()
        )

    def split_roles(
        self, parts_for: Callable[[Role], Sequence[tuple[Role, int]]]
    ) -> PossibilityMap:
        """Replace each role by the (role, squares) parts ``parts_for(role)`` gives: a fact
        whose meaning depends on who the traitor is (its "Clear" says nothing, a sighting
        of its own is concealed, SO-T3)."""
        split = {role: parts_for(role) for role in self.possible_roles()}
        squares = self.squares
        if all(
            len(got) == 1 and got[0][0] == role and not squares & ~got[0][1]
            for role, got in split.items()
        ):
            # Every role keeps itself and every square: the map stands (a "Clear" whose
            # sight touches none of it, at 5 players about 2 in 5), where the join
            # below would build it again.
            return self
        narrowed: dict[tuple[int, int], Parts] = {}
        sources: list[tuple[frozenset[Key], Sequence[Parts]]] = []
        for parts, keys in self.groups.items():
            for role, some in _by_role(keys):
                for new_role, bits in split[role]:
                    got = narrowed.get((id(parts), bits))
                    if got is None:
                        got = narrowed[id(parts), bits] = _narrow(parts, bits, bits)
                    if got:
                        sources.append((_with_role(some, new_role), (got,)))
        return self._join(sources)

    def sensor(self, moved: bool, bits: int = 0) -> PossibilityMap:
        """The motion sensor's answer (SO-V5).

        Args:
            moved: True if the last move had 3+ steps (a bearing was given).
            bits: with ``moved``, the squares in the bearing's compass sector.
        """
        if moved:
            return self._narrowed(0, bits)
        return self._narrowed(-1, 0)

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
        pairs: list[tuple[Parts, Iterable[Key]]] = []
        zones: dict[int, tuple[Zones, int, int]] = {}  # by reach, with the completed masks
        allowed: dict[int, int] = {}  # by reach, with public sites
        # The classes whose reach is not 1 (Blue Jay's 2): while none is possible, a
        # group's keys are one reach and are not looked at one by one.
        longer = tuple(sorted((cid, c.reach) for cid, c in self.classes.items() if c.reach != 1))
        if _SHORTCUTS and self.space.full == 1:
            # One site a sector, known: the squares allowed are one mask a reach (next to
            # each completed site, away from every open one), a group's one part keeps
            # them (the short/long split merged), all in one kernel call.
            triples: list[tuple[Parts, frozenset[Key], int]] = []
            for parts, keys in self.groups.items():
                for reach, some in _by_reach(keys, longer) if longer else ((1, keys),):
                    bits = allowed.get(reach)
                    if bits is None:
                        near = geo.adjacent if reach == 1 else geo.near(reach)
                        bits = allowed[reach] = _allowed(self.space, near, completed, open_list)
                    triples.append((parts, some, bits))
            return self._after(*_merged(triples))
        for parts, keys in self.groups.items():
            for reach, some in _by_reach(keys, longer) if longer else ((1, keys),):
                near = geo.adjacent if reach == 1 else geo.near(reach)
                # SO-O1, SO-O3: next to each completed sector's site, and a square
                # keeps only the assignments whose open sites are not within reach of
                # it (the short/long split merges: a new move starts).
                got = zones.get(reach)
                if got is None:
                    got = zones[reach] = (
                        _zones(self.space, near, open_list),
                        *_completed_masks(self.space, near, completed),
                    )
                split, squares, assignments = got
                pairs.append((split(parts, squares, assignments) if assignments else (), some))
        return self._regroup(pairs, every_key=True)

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
        stuck = _stuck(self.squares & no_end, step, blocked, no_end)
        if stuck:
            # SO-A3 (R): an agent that cannot move at all stays, even on a square it may
            # not end on (under a hunter, on the vehicle). Such worlds' only move is
            # to stay, so they are moved as a map of their own in which their square
            # may be ended on, and the two maps joined.
            def move(part: PossibilityMap, ends: int) -> PossibilityMap:
                return part.moved(
                    geo, result=result, square=square, blocked=blocked, no_end=ends,
                    sight=sight, hidden_before=hidden_before, hidden_after=hidden_after,
                    both=both,
                )  # fmt: skip

            stayed = move(self.keep(stuck), no_end & ~stuck)
            rest = self.squares & ~stuck
            return stayed.joined(move(self.keep(rest), no_end)) if rest else stayed
        raw_step = geo.graph.stepper()
        # One walk per distinct squares and way of playing the turn, whatever the
        # sites, roles and kits that share them; in the traitor game the sight differs
        # by traitor, but only what is seen within a move's reach matters: traitors
        # whose exclusion changes nothing there share their walks.
        walks: dict[tuple[int, str, str, tuple[int, ...]], tuple[int, int]] = {}
        # An unseen move's layers, by the path seen: each walker keeps its starts' walks
        # for every way of playing the move that differs only in its length (Adrenal
        # Surge) or in what is seen at the end (Stealth Field), and for every group.
        unseen: dict[tuple[bool, int], WalksFn] = {}
        sources: list[tuple[frozenset[Key], Sequence[Parts]]] = []
        one = isinstance(sight, MoveSight)
        allowed = (hidden_before, hidden_after, both)
        # A Holo Decoy places a false Last Seen token: with any other result none was
        # played, and its ways of playing the turn are not walked at all.
        decoy = result == "last_seen"
        if (
            _SHORTCUTS
            and isinstance(sight, MoveSight)
            and self.space.full == 1
            and self.possible_traitors() == _NO_TRAITOR
        ):
            return self._moved_plain(
                step, raw_step, result, square, no_end, sight, (hidden_before, hidden_after, both)
            )
        for parts, keys in self.groups.items():
            views: dict[str, tuple[int, ...]] = {}
            if not one:
                reach = _squares(parts)
                for _ in range(SURGE_STEPS):
                    reach |= raw_step(reach)
            # Roles whose moves look alike (the same sight within the move's reach, and
            # no concealed sighting to split off) are played as one.
            alike: dict[tuple[int, ...], tuple[MoveSight, list[frozenset[Key]]]] = {}
            for role, some in _by_role(keys):
                traitor = role[0]
                seen = sight if isinstance(sight, MoveSight) else sight[traitor]
                view = views.get(traitor)
                if view is None:
                    view = views[traitor] = (
                        ()
                        if one
                        else (
                            seen.path & reach,
                            seen.path_stealth & reach,
                            seen.end & reach,
                            seen.end_stealth & reach,
                            seen.decoy & reach,
                        )
                    )
                if traitor and not role[1] and result != "revealed":
                    ctx = (parts, walks, unseen, view, step, raw_step, result, square, no_end, seen)
                    _play_keys(ctx, some, allowed, decoy, traitor, sources)
                    continue
                entry = alike.get(view)
                if entry is None:
                    alike[view] = (seen, [some])
                else:
                    entry[1].append(some)
            for view, (seen, sets) in alike.items():
                some = sets[0] if len(sets) == 1 else frozenset().union(*sets)
                ctx = (parts, walks, unseen, view, step, raw_step, result, square, no_end, seen)
                _play_keys(ctx, some, allowed, decoy, "", sources)
        return self._join(sources)

    def _moved_plain(
        self,
        step: StepFn,
        raw_step: StepFn,
        result: str,
        square: int | None,
        no_end: int,
        seen: MoveSight,
        allowed: tuple[bool, bool, bool],
    ) -> PossibilityMap:
        """:meth:`moved` where only kits are hidden (2–3 players, or public sites, and no
        traitor): each group is one rectangle of squares, so a key's worlds after the
        move are the union (OR) of its ways' squares and no canonical form is needed;
        each way is walked once per group, whatever the keys that played it."""
        unseen: dict[tuple[bool, int], WalksFn] = {}
        if result == "hidden":
            # An unseen move (the common result): one walker call a way, the walker,
            # the squares it may not end on and the length worked out once per way for
            # all the groups (as :func:`_play` would for each), and every group's
            # walks, ORs and keys joined in one kernel call (``_ored``).
            index: dict[tuple[str, str], int] = {}
            specs: list[tuple[WalksFn, int, bool]] = []
            plan: list[bitsets.PlainGroup[Key]] = []
            for parts, keys in self.groups.items():
                ways, targets = _way_targets(keys, allowed, False)
                ids = []
                for way in ways:
                    i = index.get(way)
                    if i is None:
                        i = index[way] = len(specs)
                        specs.append(_unseen_way(unseen, step, seen, no_end, *way))
                    ids.append(i)
                plan.append((parts[0], tuple(ids), targets))
            groups, squares, lost = _ored(plan, specs, 1)
            return self._after(groups, squares, not lost)
        walks: dict[tuple[int, str, str, tuple[int, ...]], tuple[int, int]] = {}
        decoy = result == "last_seen"
        made: list[tuple[int, int, frozenset[Key]]] = []
        lost = False
        for parts, keys in self.groups.items():
            ways, targets = _way_targets(keys, allowed, decoy)
            done: list[tuple[int, int]] = []
            for before, after in ways:
                got = _play(
                    parts, walks, unseen, (), step, raw_step, result, square, no_end, seen,
                    before, after,
                )  # fmt: skip
                done.append((got[0][0], got[0][1]) if got else (0, 0))
            # Each key after the move is the OR of the ways that make it: worked out per
            # set of ways (a few), not per key and way (hundreds).
            lost |= bitsets.ored_targets(done, targets, made)
        out = _keys_after(made)
        # A key after the move keeps its kit class (only hidden uses are spent): while
        # no key's walk came to nothing, the classes used are this map's.
        return self._of({((s, lg, 1),): ks for (s, lg), ks in out.items()}, every_key=not lost)


_made_twice: Callable[[Iterable[frozenset[Key]]], set[Key]] = bitsets.made_twice
"""The keys in more than one of some sets of keys (:func:`fogofwar.core.bitsets.made_twice`)."""

_keys_after: Callable[
    [Sequence[tuple[int, int, frozenset[Key]]]], dict[tuple[int, int], frozenset[Key]]
] = bitsets.keys_after
"""The keys after a move by their (short, long) squares, from ``(short, long, keys)``
triples (each set of ways' OR, with the keys it makes): a key made more than once (in
two groups: a use spent in one, none in the other) gets the OR of its squares
(:func:`fogofwar.core.bitsets.keys_after_py`, in C where built)."""

_ored: Callable[
    [Sequence[bitsets.PlainGroup[Key]], Sequence[tuple[WalksFn, int, bool]], int],
    tuple[dict[Parts, frozenset[Key]], int, bool],
] = bitsets.ored
"""A plain unseen move, every group's ways walked and joined in one call
(:func:`fogofwar.core.bitsets.ored_py`, in C where built)."""


_NO_TRAITOR = frozenset({""})
_SHORTCUTS = True  # tests turn it off to compare the general paths' maps


@functools.lru_cache(maxsize=64)  # kit lists run to hundreds of kits
def _start(
    square: int,
    sites: tuple[tuple[int, ...], ...],
    kits: tuple[Kit, ...],
    roles: tuple[Role, ...],
) -> PossibilityMap:
    """:meth:`PossibilityMap.start`, cached (maps are immutable values): every world a
    search samples starts its maps from the same few arguments."""
    classes, movers = _kit_classes(kits)
    keys = frozenset(
        (role, cid, uses) for role in roles for cid, shared in movers for uses in shared
    )
    space = site_space(sites)
    parts: Parts = ((1 << square, 0, space.full),)
    empty = PossibilityMap({}, {}, space, 0)
    return empty._of({parts: keys} if space.full and keys else {}, classes)


_Context = tuple[
    Parts,
    dict[tuple[int, str, str, tuple[int, ...]], tuple[int, int]],
    dict[tuple[bool, int], WalksFn],
    tuple[int, ...],
    StepFn,
    StepFn,
    str,
    int | None,
    int,
    MoveSight,
]
"""What :meth:`PossibilityMap.moved` plays a group's keys in: (parts, walks, unseen
walkers, view, step, raw step, result, square, no end, sight), as :func:`_play` takes
them."""


def _play_keys(
    ctx: _Context,
    keys: frozenset[Key],
    allowed: tuple[bool, bool, bool],
    decoy: bool,
    traitor: str,
    sources: list[tuple[frozenset[Key], Sequence[Parts]]],
) -> None:
    """Add to ``sources`` the keys after the move of ``keys`` (one group's, alike in how
    they are seen), each set of new keys with its canonical parts: every way some key
    could have played the turn is played once, and each new key's worlds are the union
    of the ways that make it, joined in one kernel call for the whole set
    (:func:`fogofwar.core.bitsets.played_py`). With ``traitor`` (the keys' role not yet
    flagged), the worlds in which the traitor alone saw the agent end go to the same
    keys with the role flagged: a concealed sighting (SO-T3)."""
    parts, walks, unseen, view, step, raw_step, result, square, no_end, seen = ctx
    ways, targets = _way_targets(keys, allowed, decoy)
    specs: list[bitsets.Way] = []
    for before, after in ways:
        stealth_end = STEALTH in (before, after)
        conceal = None
        if traitor:
            conceal = seen.traitor_end_stealth if stealth_end else seen.traitor_end
        if result == "hidden" and after != DECOY:
            # The common case, walked once for every length and end.
            specs.append((*_unseen_way(unseen, step, seen, no_end, before, after), conceal))
        else:
            rects = _play(
                parts, walks, unseen, view, step, raw_step, result, square, no_end, seen,
                before, after,
            )  # fmt: skip
            specs.append((rects, 0, False, conceal))
    made = _played(parts, specs, [made_by for made_by, _ in targets])
    for (_, new_keys), (opened, hidden) in zip(targets, made, strict=True):
        if opened:
            sources.append((new_keys, (opened,)))
        if hidden:
            sources.append((_with_role(new_keys, (traitor, True)), (hidden,)))


def _walker(
    unseen: dict[tuple[bool, int], WalksFn],
    step: StepFn,
    seen: MoveSight,
    before: str,
    after: str,
) -> WalksFn:
    """The unseen walks of a move played with ``before`` and ``after`` (a Stealth Field
    used at either moment changes the path seen: it lasts the whole turn): one walker
    per path seen, kept in ``unseen``, keeps each start's walk for every length
    (Adrenal Surge) and end (the groups share starts)."""
    stealth = STEALTH in (before, after)
    path_seen = seen.path_stealth if stealth else seen.path
    uk = (stealth, path_seen)
    walker = unseen.get(uk)
    if walker is None:
        walker = unseen[uk] = step.walks(path_seen, SHORT_MOVE, MAX_STEPS, SURGE_STEPS)
    return walker


def _unseen_way(
    unseen: dict[tuple[bool, int], WalksFn],
    step: StepFn,
    seen: MoveSight,
    no_end: int,
    before: str,
    after: str,
) -> tuple[WalksFn, int, bool]:
    """An unseen move played with ``before`` and ``after``, as its walker's arguments:
    the walker (:func:`_walker`), the squares the move may not end on (seen at the end,
    or ``no_end``) and whether it runs to Adrenal Surge's length."""
    end_seen = seen.end_stealth if STEALTH in (before, after) else seen.end
    return _walker(unseen, step, seen, before, after), end_seen | no_end, before == ADRENAL


def _play(
    parts: Parts,
    walks: dict[tuple[int, str, str, tuple[int, ...]], tuple[int, int]],
    unseen: dict[tuple[bool, int], WalksFn],
    view: tuple[int, ...],
    step: StepFn,
    raw_step: StepFn,
    result: str,
    square: int | None,
    no_end: int,
    seen: MoveSight,
    before: str,
    after: str,
) -> Parts:
    """The parts after one way of playing the turn, seen as ``seen`` (whose part within
    the move's reach is ``view``)."""
    if result == "hidden" and after != DECOY:
        # The common case, walked once for every length and end: the layers of the
        # unseen walk, cut at 4 steps or 6 (Adrenal Surge), then the end's check. A
        # walker per path seen keeps each start's walk (the groups share starts).
        walker, ends, longer = _unseen_way(unseen, step, seen, no_end, before, after)
        return walker.parts(parts, ends, longer)
    rects: list[Part] = []
    for short0, long0, a in parts:
        start = short0 | long0
        wk = (start, before, after, view)
        got = walks.get(wk)
        if got is None:
            got = walks[wk] = _move(
                start, step, raw_step, result, square, no_end, seen, before, after
            )
        if got[0] or got[1]:
            rects.append((got[0], got[1], a))
    return tuple(rects)


_KEYS: dict[Key, Key] = {}
"""One tuple for every key made (:func:`_key`)."""


def _key(role: Role, cid: int, uses: Uses) -> Key:
    """The key ``(role, cid, uses)``, one tuple for equal keys: the sets of keys a move
    joins then meet equal keys as the same object, which a set or dict lookup takes
    without comparing the tuples (a quarter of a 3-player move's join compared keys
    that were equal but made apart). Bounded: past 65,536 keys it starts again (an
    equal tuple made apart is only slower to compare)."""
    key = (role, cid, uses)
    got = _KEYS.get(key)
    if got is None:
        if len(_KEYS) >= 1 << 16:
            _KEYS.clear()
        got = _KEYS[key] = key
    return got


@settled_cache(1024)
def _way_targets(
    keys: frozenset[Key], allowed: tuple[bool, bool, bool], decoy: bool
) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[tuple[int, ...], frozenset[Key]], ...]]:
    """The ways (before, after) some key of ``keys`` could have played its turn, and the
    keys after it (their hidden uses spent) grouped by the ways that make them: each
    group's squares are the OR of its ways' walks. Cached: a group's keys are the same
    set from fact to fact (nine times in ten, measured at 3 players); working it out key
    by key was an eighth of the map's instructions at 3 players. The entries are
    settled (:func:`fogofwar.core.collector.settled_cache`): sets of keys would
    otherwise be walked key by key at every full collection, which with this cache and
    the four below (``_by_role`` ...) made a full collection about twice as long."""
    ways: dict[tuple[str, str], int] = {}
    made: dict[Key, list[int]] = {}
    for role, cid, uses in sorted(keys):
        for way in _options(uses, *allowed, decoy):
            i = ways.setdefault(way, len(ways))
            made.setdefault(_key(role, cid, _spend(uses, *way)), []).append(i)
    by_ways: dict[tuple[int, ...], list[Key]] = {}
    for key, played in made.items():
        by_ways.setdefault(tuple(sorted(set(played))), []).append(key)
    return tuple(ways), tuple((played, frozenset(ks)) for played, ks in by_ways.items())


@settled_cache(1024)
def _by_role(keys: frozenset[Key]) -> tuple[tuple[Role, frozenset[Key]], ...]:
    """``keys`` split by role (the traitor's sight and its concealed sightings differ by
    role); one role gives ``keys`` itself. Cached, as :func:`_way_targets`."""
    roles: dict[Role, list[Key]] = {}
    for key in keys:
        roles.setdefault(key[0], []).append(key)
    if len(roles) == 1:
        return ((next(iter(roles)), keys),)
    return tuple((role, frozenset(some)) for role, some in sorted(roles.items()))


@settled_cache(1024)
def _split_classes(
    keys: frozenset[Key], classes: frozenset[int]
) -> tuple[frozenset[Key], frozenset[Key]]:
    """``keys`` of ``classes``, and the others. Cached, as :func:`_way_targets`."""
    hit = frozenset(k for k in keys if k[1] in classes)
    return hit, keys - hit


@settled_cache(1024)
def _by_reach(
    keys: frozenset[Key], longer: tuple[tuple[int, int], ...]
) -> tuple[tuple[int, frozenset[Key]], ...]:
    """``keys`` split by their class's objective reach: 1, or the reach ``longer`` gives
    the class (its classes whose reach is not 1). Cached, as :func:`_way_targets`."""
    reach_of = dict(longer)
    by_reach: dict[int, list[Key]] = {}
    for key in keys:
        by_reach.setdefault(reach_of.get(key[1], 1), []).append(key)
    if len(by_reach) == 1:
        return ((next(iter(by_reach)), keys),)
    return tuple((reach, frozenset(some)) for reach, some in sorted(by_reach.items()))


@settled_cache(1024)
def _with_role(keys: frozenset[Key], role: Role) -> frozenset[Key]:
    """``keys`` with their role replaced by ``role``."""
    return frozenset(_key(role, cid, uses) for _, cid, uses in keys)


@functools.lru_cache(maxsize=4096)
def _spend(uses: Uses, before: str, after: str) -> Uses:
    """Hidden uses left after playing ``before`` and ``after`` ("" for none)."""
    out = list(uses)
    for card in (before, after):
        if card:
            out[HIDDEN_CARDS.index(card)] -= 1
    return (out[0], out[1], out[2])


@functools.lru_cache(maxsize=4096)
def _options(
    uses: Uses, hidden_before: bool, hidden_after: bool, both: bool, decoy_after: bool = True
) -> tuple[tuple[str, str], ...]:
    """The hidden card uses (before, after) a kit could have made this turn, given the
    uses it has left of (Adrenal Surge, Stealth Field, Holo Decoy); ``decoy_after``
    False leaves out a Holo Decoy (the turn's result was not a Last Seen token)."""
    adrenal, stealth, decoy = (n > 0 for n in uses)
    decoy = decoy and decoy_after
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
    return tuple(out)


def _move(
    start: int,
    step: StepFn,
    raw_step: StepFn,
    result: str,
    square: int | None,
    no_end: int,
    sight: MoveSight,
    before: str,
    after: str,
) -> tuple[int, int]:
    """(short, long) end squares of one way of playing the turn, given its public result."""
    limit = SURGE_STEPS if before == ADRENAL else MAX_STEPS
    stealth = STEALTH in (before, after)  # the whole turn, whenever used
    path_seen = sight.path_stealth if stealth else sight.path
    end_seen = sight.end_stealth if stealth else sight.end
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
