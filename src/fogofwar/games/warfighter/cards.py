"""Warfighter cards as values (WF-C6): Soldiers, weapons, Hostiles (with Doors),
Locations (with ability checks under their headings) and missions, and the library that
holds them. The card files they are read from, and their parser, are in
:mod:`~fogofwar.games.warfighter.cardfile`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

__all__ = [
    "EFFECT_VERBS",
    "FAIL_HEADINGS",
    "HEADINGS",
    "Ability",
    "CardLibrary",
    "CheckCard",
    "Door",
    "Effect",
    "Heading",
    "HostileCard",
    "LocationCard",
    "MissionCard",
    "SoldierCard",
    "WeaponCard",
    "name_key",
]

#: The headings of a check (WF-A4, WF-A8); ``text`` is text under no heading.
HEADINGS: Final = ("success", "fail", "failure", "trap", "text")
#: The headings that make a check a Fail check (WF-A6, WF-A9).
FAIL_HEADINGS: Final = frozenset({"fail", "failure", "trap"})
#: The effect vocabulary of WF-C6.
EFFECT_VERBS: Final = (
    "wound",
    "suppress",
    "add",
    "remove",
    "actions",
    "draw",
    "discard",
    "move",
    "end",
)


def name_key(name: str) -> str:
    """The key two names collide on: case and runs of spaces do not tell cards apart."""
    return " ".join(name.split()).casefold()


# --------------------------------------------------------------------------- values


@dataclass(frozen=True, slots=True)
class Ability:
    """A Soldier's ability (WF-A1, WF-A7): ``Pick 7+`` or ``Medic 6+[4+]``.

    Attributes:
        keyword: the ability's keyword (``Pick``).
        need: the number the check's result must reach (WF-A2).
        upgunned: the bracketed number, if any (WF-A7).
    """

    keyword: str
    need: int
    upgunned: int | None = None
    # Its text, made once: every view names every Soldier's abilities.
    _text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        up = f"[{self.upgunned}+]" if self.upgunned is not None else ""
        object.__setattr__(self, "_text", f"{self.keyword} {self.need}+{up}")

    def __str__(self) -> str:
        return self._text


@dataclass(frozen=True, slots=True)
class Effect:
    """One effect of a card's text (WF-C6).

    Attributes:
        verb: one of :data:`EFFECT_VERBS`.
        amount: wounds, Actions (signed), cards; 0 where the verb takes none.
        minus_roll: ``wound N-roll``: the amount is N minus the check's roll (WF-A8).
        target: a Hostile's name (``add``, ``remove``), ``forward``/``back`` (``move``),
            ``win``/``lose`` (``end``); "" otherwise.
    """

    verb: str
    amount: int = 0
    minus_roll: bool = False
    target: str = ""

    def value(self, roll: int | None) -> int:
        """The amount for a check that rolled ``roll`` (never below 0 for wounds)."""
        if self.minus_roll:
            return max(0, self.amount - (roll if roll is not None else 0))
        return self.amount

    def __str__(self) -> str:
        if self.verb == "wound":
            return f"wound {self.amount}{'-roll' if self.minus_roll else ''}"
        if self.verb == "actions":
            return f"actions {self.amount:+d}"
        if self.verb in ("draw", "discard"):
            return f"{self.verb} {self.amount}"
        if self.verb == "suppress":
            return "suppress"
        return f"{self.verb} {self.target}"


@dataclass(frozen=True, slots=True)
class Heading:
    """A heading of a check with its effects (WF-A4)."""

    kind: str
    effects: tuple[Effect, ...]
    # Its text, made once: every view names every check's headings.
    _text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        text = f"{self.kind}: " + "; ".join(str(e) for e in self.effects)
        object.__setattr__(self, "_text", text)

    def __str__(self) -> str:
        return self._text


@dataclass(frozen=True, slots=True)
class CheckCard:
    """An ability check printed on a card (WF-A1…A10).

    Attributes:
        ability: the keyword of the ability it asks for.
        modifier: added to the roll (WF-A3).
        upgun: whether the card allows upgunning (WF-A7; the default).
        headings: its headings in the order printed.
        line: the line of its ``check:`` in the file.
        is_fail_check: whether it has a Fail, Failure or Trap heading (WF-A6, WF-A9,
            WF-A10), found once from the headings (the rules ask it often).
    """

    ability: str
    modifier: int
    upgun: bool
    headings: tuple[Heading, ...]
    line: int = field(default=0, compare=False)
    is_fail_check: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        fail = any(h.kind in FAIL_HEADINGS for h in self.headings)
        object.__setattr__(self, "is_fail_check", fail)

    def heading(self, kind: str) -> Heading | None:
        """The heading of that kind, if printed."""
        return next((h for h in self.headings if h.kind == kind), None)

    @property
    def fail_heading(self) -> Heading | None:
        """The Fail, Failure or Trap heading, if any."""
        return next((h for h in self.headings if h.kind in FAIL_HEADINGS), None)

    @property
    def is_trap(self) -> bool:
        """Whether the Fail heading is a Trap (WF-A8)."""
        return self.heading("trap") is not None

    @property
    def on_success(self) -> tuple[Effect, ...]:
        """The effects of a success: the Success heading, or text under no heading (WF-A4)."""
        out: tuple[Effect, ...] = ()
        for h in self.headings:
            if h.kind in ("success", "text"):
                out += h.effects
        return out

    @property
    def on_failure(self) -> tuple[Effect, ...]:
        """The effects of a failure: the Fail, Failure or Trap heading (WF-A4)."""
        h = self.fail_heading
        return () if h is None else h.effects


@dataclass(frozen=True, slots=True)
class WeaponCard:
    """A weapon (WF-C4): a d10 per shot; a suppressive one suppresses a Hostile it hits at."""

    name: str
    shots: int
    suppressive: bool = False
    line: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class SoldierCard:
    """A Soldier (WF-C1).

    Attributes:
        name: the card's name.
        actions: Actions per Soldier Turn.
        cover: a Hostile's d10 must reach this to wound the Soldier (WF-C7).
        abilities: the Soldier's abilities (WF-A1).
        weapon: the name of its weapon card.
    """

    name: str
    actions: int
    cover: int
    abilities: tuple[Ability, ...]
    weapon: str
    line: int = field(default=0, compare=False)
    _by_keyword: Mapping[str, Ability] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_keyword: dict[str, Ability] = {}
        for a in self.abilities:
            by_keyword.setdefault(a.keyword.lower(), a)  # the first of a keyword
        object.__setattr__(self, "_by_keyword", by_keyword)

    def ability(self, keyword: str) -> Ability | None:
        """The ability with that keyword (any case), or None (WF-A8)."""
        return self._by_keyword.get(keyword.lower())


@dataclass(frozen=True, slots=True)
class Door:
    """A Door keyword (WF-D1): its Cover, Hits and optional Pick modifier."""

    cover: int
    hits: int
    pick: int | None = None

    def __str__(self) -> str:
        pick = "" if self.pick is None else f", Pick {self.pick:+d}"
        return f"Door (Cover {self.cover}, Hits {self.hits}{pick})"


@dataclass(frozen=True, slots=True)
class HostileCard:
    """A Hostile (WF-C3): Cover, Hits, an optional Door and checks."""

    name: str
    cover: int
    hits: int
    door: Door | None = None
    checks: tuple[CheckCard, ...] = ()
    line: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class LocationCard:
    """A Location (WF-C2): the Hostiles placed on it and its checks."""

    name: str
    hostiles: tuple[str, ...] = ()
    checks: tuple[CheckCard, ...] = ()
    line: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class MissionCard:
    """A mission (WF-C7): the squad, the Locations and the Hostile deck.

    The Locations lie in a line: the start (face up, where the squad begins), then
    ``slots`` face-down Locations drawn from the shuffled ``deck``, then the Objective
    (face down until entered, its name known).
    """

    name: str
    description: str
    squad: tuple[str, ...]
    start: str
    deck: tuple[str, ...]
    slots: int
    objective: str
    hostile_deck: tuple[str, ...]
    turns: int
    file: str = field(default="", compare=False)
    line: int = field(default=0, compare=False)
    lines: tuple[tuple[str, int], ...] = field(default=(), compare=False)
    """Each property given -> its line (for errors found later)."""

    def line_of(self, key: str) -> int:
        """The line of a property (the block's line if it was not given)."""
        return dict(self.lines).get(key, self.line)


@dataclass(frozen=True)
class CardLibrary:
    """Every card read, by name, and the missions."""

    soldiers: Mapping[str, SoldierCard]
    weapons: Mapping[str, WeaponCard]
    hostiles: Mapping[str, HostileCard]
    locations: Mapping[str, LocationCard]
    missions: Mapping[str, MissionCard]
    files: Mapping[str, str] = field(default_factory=dict, compare=False)
    """Each card, as ``"KIND NAME"`` (``"hostile Deep One"``) -> the file it came from
    (for errors; keyed by kind too, since a Hostile and a Location may share a name)."""
