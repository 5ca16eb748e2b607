"""Warfighter card files (WF-C6): the text format the cards of
:mod:`~fogofwar.games.warfighter.cards` are read from, its parser, and the loading of
the shipped library and missions.

A card file (by convention ``*.wf``, documented in ``docs/warfighter.md``) is a list of
blocks. A block opens at the start of a line with its kind and the card's name; its
properties follow, indented, one ``key: value`` a line; ``#`` starts a comment::

    weapon BAR
      shots: 3
      suppressive: yes

    soldier Pvt. Okafor
      cover: 6
      abilities: Swim 5+, Medic 6+[4+]
      weapon: BAR

    hostile Barricaded Deep One
      cover: 9
      hits: 2
      door: cover 5, hits 2, pick -1

    location Flooded Cellar
      hostiles: Deep One
      check: Swim -1
      trap: wound 3-roll

A ``check:`` line names the ability and an optional modifier (``Search +1``), and
``no-upgun`` where the card forbids upgunning (WF-A7). The heading lines after it
(``success:``, ``fail:``, ``failure:``, ``trap:``, or ``text:`` for text under no
heading, WF-A4) belong to that check. Their text is effects separated by ``;`` in the
vocabulary of WF-C6: ``wound N`` (or ``wound N-roll``, a function of the roll, WF-A8),
``suppress``, ``add HOSTILE``, ``remove HOSTILE``, ``actions +N`` / ``actions -N``,
``draw N``, ``discard N``, ``move forward`` / ``move back``, ``end win`` / ``end lose``.

:func:`parse_cards` checks one file and reports the first problem as a
:class:`~fogofwar.core.errors.BadDataError` naming the file, line and column and what was
expected; :func:`load_mission` loads the shipped card library with a mission file and
checks every name a card or the mission refers to.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Final, TypeVar

from fogofwar.core.errors import BadDataError
from fogofwar.core.files import DATA_FILE_LIMIT, data_file, read_text, text_digest

from .cards import (
    FAIL_HEADINGS,
    HEADINGS,
    Ability,
    CardLibrary,
    CheckCard,
    Door,
    Effect,
    Heading,
    HostileCard,
    LocationCard,
    MissionCard,
    SoldierCard,
    WeaponCard,
    name_key,
)

__all__ = [
    "LIBRARY_FILE",
    "MAX_LINE",
    "MAX_LIST",
    "MAX_NAME",
    "MAX_PATH",
    "SHIPPED_MISSIONS",
    "check_mission_name",
    "load_library",
    "load_mission",
    "merge",
    "parse_cards",
    "read_mission",
]

#: The missions shipped in ``fogofwar/data/warfighter`` (the file ``NAME.wf``).
SHIPPED_MISSIONS: Final = ("dagon",)
#: The shipped card library every mission is read with.
LIBRARY_FILE: Final = "cards.wf"

_KINDS: Final = ("soldier", "weapon", "hostile", "location", "mission")
_KEYS: Final[Mapping[str, tuple[str, ...]]] = {
    "soldier": ("actions", "cover", "abilities", "weapon"),
    "weapon": ("shots", "suppressive"),
    "hostile": ("cover", "hits", "door", "check", *HEADINGS),
    "location": ("hostiles", "check", *HEADINGS),
    "mission": (
        "description",
        "squad",
        "start",
        "deck",
        "slots",
        "objective",
        "hostile_deck",
        "turns",
    ),
}
_REQUIRED: Final[Mapping[str, tuple[str, ...]]] = {
    "soldier": ("weapon",),
    "weapon": ("shots",),
    "hostile": ("cover", "hits"),
    "location": (),
    "mission": ("squad", "start", "objective", "turns"),
}
_REPEATABLE: Final = frozenset({"check", *HEADINGS})
#: The longest card name. Names are how cards and missions refer to one another.
MAX_NAME: Final = 48
#: The most names one list property holds (``hostiles``, ``deck``, ``hostile_deck``): a
#: mission may put at most 400 Hostiles in play (the action encoding's limit,
#: ``ruleset.ENCODING_LIMIT``), so a longer list could never load. A squad holds at
#: most 6 Soldiers.
MAX_LIST: Final = 400
#: The longest line of a card file, comments included: room for the longest list of
#: the longest names.
MAX_LINE: Final = MAX_LIST * (MAX_NAME + 2) + 100
#: The most checks one card prints, effects one heading holds, abilities one Soldier has.
MAX_PER_CARD: Final = 12
#: The largest number of a d10's N+ (an ability, an upgunned one, a Cover): 11 is never
#: reached.
MAX_NUMBER: Final = 11
#: The largest modifier of a check or a Door's Pick value (WF-A3, WF-D1): with a d10,
#: beyond 10 every roll passes or every roll fails alike.
MAX_MODIFIER: Final = 10
#: The most wounds an effect deals (``wound N`` and ``wound N-roll``, read against a d10
#: plus a modifier: at most 20).
MAX_WOUNDS: Final = 20
#: The most Actions an ``actions +N`` / ``actions -N`` effect adds or takes: a Soldier
#: has at most 6 Actions a turn (WF-C1).
MAX_ACTIONS: Final = 6
_ABILITY_RE: Final = re.compile(
    r"([A-Za-z][A-Za-z-]{0,30})\s+([0-9]{1,2})\+(?:\s*\[([0-9]{1,2})\+\])?", re.ASCII
)
_NAME_RE: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9 .'-]*", re.ASCII)
_SIGNED_RE: Final = re.compile(r"[+-][0-9]{1,2}", re.ASCII)
_DIGITS_RE: Final = re.compile(r"[0-9]{1,4}", re.ASCII)


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --------------------------------------------------------------------------- the parser

_C = TypeVar("_C", SoldierCard, WeaponCard, HostileCard, LocationCard, MissionCard)


@dataclass
class _Prop:
    key: str
    value: str
    line: int
    column: int  # of the value


@dataclass
class _Block:
    kind: str
    name: str
    line: int
    name_column: int
    props: list[_Prop] = field(default_factory=list)


class _Parser:
    def __init__(self, text: str, file: str) -> None:
        self.text = text[1:] if text.startswith("\ufeff") else text
        self.file = file

    def fail(
        self, expected: str, line: int, column: int | None = None, found: str | None = None
    ) -> BadDataError:
        shown = None if found is None else _short(found)
        return BadDataError(self.file, expected, line=line, column=column, found=shown)

    def blocks(self) -> Iterator[_Block]:
        block: _Block | None = None
        for number, raw in enumerate(self.text.splitlines(), 1):
            if len(raw) > MAX_LINE:
                raise self.fail(
                    f"a line of at most {MAX_LINE} characters",
                    number,
                    found=f"{len(raw)} characters",
                )
            cut = raw.find("#")
            body = (raw if cut < 0 else raw[:cut]).rstrip()
            if not body.strip():
                continue
            indent = len(body) - len(body.lstrip())
            if indent == 0:
                # The new card's line is checked before the card above it is handed on:
                # a property that lost its indent is reported at its own line, not as
                # one missing from the card above.
                kind, _, name = body.partition(" ")
                if kind not in _KINDS:
                    raise self.unindented(block, body, number, kind)
                name = name.strip()
                col = body.index(name, len(kind)) + 1 if name else len(kind) + 2
                if not _NAME_RE.fullmatch(name) or len(name) > MAX_NAME:
                    raise self.fail(
                        f"a {kind}'s name (letters, digits, spaces, . ' -; at most "
                        f"{MAX_NAME} characters)",
                        number,
                        col,
                        name,
                    )
                if block is not None:
                    yield block
                block = _Block(kind, name, number, col)
                continue
            if block is None:
                raise self.fail(
                    "a card ('soldier NAME', ...) before its properties",
                    number,
                    indent + 1,
                    body.strip(),
                )
            key, sep, value = body.strip().partition(":")
            key = key.strip().lower()
            allowed = _KEYS[block.kind]
            if not sep or key not in allowed:
                raise self.fail(
                    f"a {block.kind} property 'key: value' ({', '.join(allowed)})",
                    number,
                    indent + 1,
                    body.strip(),
                )
            value_col = body.index(":") + 2 + (len(value) - len(value.lstrip()))
            value = value.strip()
            if not value:
                raise self.fail(f"a value after '{key}:'", number, value_col)
            if key not in _REPEATABLE and any(p.key == key for p in block.props):
                first = next(p.line for p in block.props if p.key == key)
                raise self.fail(
                    f"each property once ('{key}' was given on line {first})",
                    number,
                    indent + 1,
                    key,
                )
            block.props.append(_Prop(key, value, number, value_col))
        if block is not None:
            yield block

    def unindented(self, block: _Block | None, body: str, number: int, kind: str) -> BadDataError:
        """The error for a line at the start of a line that opens no card: a property of
        the card above that lost its indent is named as such."""
        cards = ", ".join(f"'{k} NAME'" for k in _KINDS)
        key, sep, _ = body.partition(":")
        key = key.strip().lower()
        if block is not None and sep and key in _KEYS[block.kind]:
            return self.fail(
                f"the property indented under {block.kind} '{block.name}' (line "
                f"{block.line}), or a card at the start of the line: {cards}",
                number,
                1,
                body.strip(),
            )
        return self.fail("a card: " + cards, number, 1, kind)

    # -- values

    def integer(self, p: _Prop, what: str, low: int, high: int) -> int:
        if not _DIGITS_RE.fullmatch(p.value) or not low <= int(p.value) <= high:
            raise self.fail(f"{what}: a whole number {low} to {high}", p.line, p.column, p.value)
        return int(p.value)

    def boolean(self, p: _Prop) -> bool:
        low = p.value.lower()
        if low not in ("yes", "no", "true", "false"):
            raise self.fail("yes or no", p.line, p.column, p.value)
        return low in ("yes", "true")

    def names(self, p: _Prop, most: int = MAX_LIST) -> tuple[str, ...]:
        out: list[str] = []
        col = p.column
        for part in p.value.split(","):
            name = part.strip()
            at = col + len(part) - len(part.lstrip())
            if not _NAME_RE.fullmatch(name) or len(name) > MAX_NAME:
                raise self.fail(
                    f"a comma-separated list of card names (each at most {MAX_NAME} characters)",
                    p.line,
                    at,
                    name,
                )
            if len(out) == most:
                raise self.fail(f"at most {most} names in '{p.key}'", p.line, at, name)
            out.append(name)
            col += len(part) + 1
        return tuple(out)

    def abilities(self, p: _Prop) -> tuple[Ability, ...]:
        out: list[Ability] = []
        col = p.column
        for part in p.value.split(","):
            text = part.strip()
            at = col + len(part) - len(part.lstrip())
            col += len(part) + 1
            m = _ABILITY_RE.fullmatch(text)
            if m is None:
                raise self.fail(
                    "an ability like 'Pick 7+' or 'Medic 6+[4+]' (WF-A1, WF-A7)", p.line, at, text
                )
            need = int(m.group(2))
            up = None if m.group(3) is None else int(m.group(3))
            if not 1 <= need <= MAX_NUMBER or (up is not None and not 1 <= up < need):
                raise self.fail(
                    "an ability's number 1 to 11, an upgunned number below it (WF-A7)",
                    p.line,
                    at,
                    text,
                )
            if any(a.keyword.lower() == m.group(1).lower() for a in out):
                raise self.fail("each ability once", p.line, at, text)
            if len(out) == MAX_PER_CARD:
                raise self.fail(f"at most {MAX_PER_CARD} abilities", p.line, at, text)
            out.append(Ability(m.group(1), need, up))
        return tuple(out)

    def door(self, p: _Prop) -> Door:
        values: dict[str, int] = {}
        col = p.column
        for part in p.value.split(","):
            text = part.strip()
            at = col + len(part) - len(part.lstrip())
            col += len(part) + 1
            words = text.split()
            key = words[0].lower() if words else ""
            ok = len(words) == 2 and key in ("cover", "hits", "pick") and key not in values
            if ok and key == "pick":
                ok = bool(_SIGNED_RE.fullmatch(words[1]) or words[1] == "0")
                ok = ok and abs(int(words[1])) <= MAX_MODIFIER
            elif ok:
                ok = bool(_DIGITS_RE.fullmatch(words[1])) and 1 <= int(words[1]) <= (
                    11 if key == "cover" else 20
                )
            if not ok:
                raise self.fail(
                    "a Door's values 'cover C, hits H[, pick -M]' (cover 1-11, hits 1-20, "
                    f"pick a signed modifier -{MAX_MODIFIER} to +{MAX_MODIFIER}), each once "
                    "(WF-D1)",
                    p.line,
                    at,
                    text,
                )
            values[key] = int(words[1])
        if "cover" not in values or "hits" not in values:
            raise self.fail("a Door with both cover and hits (WF-D1)", p.line, p.column, p.value)
        return Door(values["cover"], values["hits"], values.get("pick"))

    def check(self, p: _Prop) -> tuple[str, int, bool]:
        words = p.value.split()
        ability = words[0] if words else ""
        if not re.fullmatch(r"[A-Za-z][A-Za-z-]{0,30}", ability, re.ASCII):
            raise self.fail(
                "an ability keyword to check, e.g. 'Search +1' (WF-A1)", p.line, p.column, p.value
            )
        modifier: int | None = None
        upgun = True
        for w in words[1:]:
            at = p.column + p.value.index(w, len(ability))
            if _SIGNED_RE.fullmatch(w) and modifier is None and abs(int(w)) <= MAX_MODIFIER:
                modifier = int(w)
            elif w.lower() == "no-upgun" and upgun:
                upgun = False
            else:
                raise self.fail(
                    f"a modifier -{MAX_MODIFIER} to +{MAX_MODIFIER} like +1 or -2 (WF-A3), "
                    "once, or 'no-upgun' (WF-A7)",
                    p.line,
                    at,
                    w,
                )
        return ability, modifier or 0, upgun

    def effects(self, p: _Prop) -> tuple[Effect, ...]:
        out: list[Effect] = []
        col = p.column
        for part in p.value.split(";"):
            text = part.strip()
            at = col + len(part) - len(part.lstrip())
            col += len(part) + 1
            if len(out) == MAX_PER_CARD:
                raise self.fail(f"at most {MAX_PER_CARD} effects a heading", p.line, at, text)
            out.append(self.effect(text, p.line, at))
        return tuple(out)

    def effect(self, text: str, line: int, column: int) -> Effect:
        verb, _, rest = text.partition(" ")
        verb = verb.lower()
        rest = rest.strip()
        expected = {
            "wound": f"wound N or wound N-roll, N 0 to {MAX_WOUNDS}",
            "suppress": "suppress",
            "add": "add HOSTILE",
            "remove": "remove HOSTILE",
            "actions": f"actions +N or actions -N, N at most {MAX_ACTIONS}",
            "draw": "draw N, N 1 to 99",
            "discard": "discard N, N 1 to 99",
            "move": "move forward or move back",
            "end": "end win or end lose",
        }
        if verb not in expected:
            raise self.fail(
                "an effect (WF-C6): " + ", ".join(expected.values()), line, column, text
            )
        m: re.Match[str] | None
        m = re.fullmatch(r"([0-9]{1,2})(-roll)?", rest, re.ASCII)
        if verb == "wound" and m and int(m.group(1)) <= MAX_WOUNDS:
            return Effect("wound", int(m.group(1)), minus_roll=m.group(2) is not None)
        if verb == "suppress" and not rest:
            return Effect("suppress")
        if verb in ("add", "remove") and _NAME_RE.fullmatch(rest) and len(rest) <= MAX_NAME:
            return Effect(verb, target=rest)
        if verb == "actions" and _SIGNED_RE.fullmatch(rest) and abs(int(rest)) <= MAX_ACTIONS:
            return Effect("actions", int(rest))
        if verb in ("draw", "discard") and re.fullmatch(r"[1-9][0-9]?", rest, re.ASCII):
            return Effect(verb, int(rest))
        if verb == "move" and rest.lower() in ("forward", "back"):
            return Effect("move", target=rest.lower())
        if verb == "end" and rest.lower() in ("win", "lose"):
            return Effect("end", target=rest.lower())
        raise self.fail(f"the effect '{expected[verb]}' (WF-C6)", line, column, text)

    def checks(self, block: _Block) -> tuple[CheckCard, ...]:
        out: list[CheckCard] = []
        current: tuple[_Prop, tuple[str, int, bool], list[Heading]] | None = None

        def close() -> None:
            if current is None:
                return
            prop, (ability, modifier, upgun), headings = current
            if not headings:
                raise self.fail(
                    "a heading line after the check (success:, fail:, failure:, "
                    "trap: or text:, WF-A4)",
                    prop.line,
                    prop.column,
                    prop.value,
                )
            out.append(CheckCard(ability, modifier, upgun, tuple(headings), prop.line))

        for p in block.props:
            if p.key == "check":
                close()
                if len(out) == MAX_PER_CARD:
                    raise self.fail(
                        f"at most {MAX_PER_CARD} checks a card", p.line, p.column, p.value
                    )
                current = (p, self.check(p), [])
            elif p.key in HEADINGS:
                if current is None:
                    raise self.fail(
                        "a 'check:' line before its headings (WF-A4)",
                        p.line,
                        p.column - len(p.key) - 2,
                        p.key,
                    )
                headings = current[2]
                kinds = {h.kind for h in headings}
                clash = (
                    p.key in kinds
                    or (p.key in FAIL_HEADINGS and kinds & FAIL_HEADINGS)
                    or (p.key == "text" and kinds)
                    or (p.key != "text" and "text" in kinds)
                )
                if clash:
                    raise self.fail(
                        "at most one Success heading and one Fail, Failure or Trap heading "
                        "per check; 'text:' only where the check has no heading (WF-A4)",
                        p.line,
                        p.column - len(p.key) - 2,
                        p.key,
                    )
                headings.append(Heading(p.key, self.effects(p)))
        close()
        return tuple(out)

    def parse(self) -> CardLibrary:
        soldiers: dict[str, SoldierCard] = {}
        weapons: dict[str, WeaponCard] = {}
        hostiles: dict[str, HostileCard] = {}
        locations: dict[str, LocationCard] = {}
        missions: dict[str, MissionCard] = {}
        seen: dict[str, int] = {}
        for b in self.blocks():
            key = f"{b.kind} {name_key(b.name)}"
            if key in seen:
                raise self.fail(
                    f"each {b.kind} name once ('{b.name}' is on line {seen[key]})",
                    b.line,
                    b.name_column,
                    b.name,
                )
            seen[key] = b.line
            props = {p.key: p for p in b.props if p.key not in _REPEATABLE}
            for req in _REQUIRED[b.kind]:
                if req not in props:
                    raise self.fail(
                        f"a '{req}: ...' line in {b.kind} '{b.name}'", b.line, 1, b.kind
                    )
            if b.kind == "weapon":
                sup = props.get("suppressive")
                weapons[b.name] = WeaponCard(
                    b.name,
                    self.integer(props["shots"], "shots", 1, 10),
                    False if sup is None else self.boolean(sup),
                    b.line,
                )
            elif b.kind == "soldier":
                acts = props.get("actions")
                cover = props.get("cover")
                abil = props.get("abilities")
                soldiers[b.name] = SoldierCard(
                    b.name,
                    2 if acts is None else self.integer(acts, "actions", 1, 6),
                    6 if cover is None else self.integer(cover, "cover", 1, 11),
                    () if abil is None else self.abilities(abil),
                    props["weapon"].value,
                    b.line,
                )
            elif b.kind == "hostile":
                door = props.get("door")
                hostiles[b.name] = HostileCard(
                    b.name,
                    self.integer(props["cover"], "cover", 1, 11),
                    self.integer(props["hits"], "hits", 1, 20),
                    None if door is None else self.door(door),
                    self.checks(b),
                    b.line,
                )
            elif b.kind == "location":
                hp = props.get("hostiles")
                locations[b.name] = LocationCard(
                    b.name, () if hp is None else self.names(hp), self.checks(b), b.line
                )
            else:
                missions[b.name.lower()] = self.mission(b, props)
        return CardLibrary(soldiers, weapons, hostiles, locations, missions)

    def mission(self, b: _Block, props: Mapping[str, _Prop]) -> MissionCard:
        deck = props.get("deck")
        hdeck = props.get("hostile_deck")
        slots_p = props.get("slots")
        desc = props.get("description")
        squad = self.names(props["squad"])
        if len(squad) > 6 or len({name_key(n) for n in squad}) < len(squad):
            raise self.fail(
                "a squad of 1 to 6 Soldiers, each card once",
                props["squad"].line,
                props["squad"].column,
                props["squad"].value,
            )
        deck_names = () if deck is None else self.names(deck)
        slots = len(deck_names)
        if slots_p is not None:
            slots = self.integer(slots_p, "slots", 0, 12)
            if slots > len(deck_names):
                raise self.fail(
                    f"at most as many slots as deck cards ({len(deck_names)})",
                    slots_p.line,
                    slots_p.column,
                    slots_p.value,
                )
        return MissionCard(
            name=b.name,
            description="" if desc is None else desc.value,
            squad=squad,
            start=props["start"].value,
            deck=deck_names,
            slots=slots,
            objective=props["objective"].value,
            hostile_deck=() if hdeck is None else self.names(hdeck),
            turns=self.integer(props["turns"], "turns", 1, 50),
            file=self.file,
            line=b.line,
            lines=tuple((p.key, p.line) for p in b.props),
        )


def parse_cards(text: str, *, file: str = "<string>") -> CardLibrary:
    """Read one card file (see the module doc); names are checked by :func:`merge`.

    Raises:
        BadDataError: naming ``file``, the line and column and what was expected: a line
            that is not a card or a property of its card, a property given twice or
            missing, a bad number, ability, Door, check, heading or effect.
    """
    lib = _Parser(text, file).parse()
    groups = {
        "soldier": lib.soldiers,
        "weapon": lib.weapons,
        "hostile": lib.hostiles,
        "location": lib.locations,
    }
    files = {f"{kind} {n}": file for kind, group in groups.items() for n in group}
    return CardLibrary(lib.soldiers, lib.weapons, lib.hostiles, lib.locations, lib.missions, files)


def merge(*libraries: CardLibrary) -> CardLibrary:
    """One library from several files; a name given twice, or a name a card or mission
    refers to that no card has, raises :class:`BadDataError` at the line of the second
    card or of the reference."""
    files: dict[str, str] = {}
    soldiers: dict[str, SoldierCard] = {}
    weapons: dict[str, WeaponCard] = {}
    hostiles: dict[str, HostileCard] = {}
    locations: dict[str, LocationCard] = {}
    missions: dict[str, MissionCard] = {}
    # Names that differ only in case or spacing collide: one would shadow the other.
    folded: dict[tuple[str, str], str] = {}

    def add(kind: str, into: dict[str, _C], group: Mapping[str, _C], lib: CardLibrary) -> None:
        for name, card in group.items():
            key = (kind, name_key(name))
            if key in folded:
                first = folded[key]
                here = (
                    card.file
                    if isinstance(card, MissionCard)
                    else lib.files.get(f"{kind} {name}", "")
                )
                there = into[first]
                where = (
                    there.file
                    if isinstance(there, MissionCard)
                    else files.get(f"{kind} {first}", "")
                )
                raise BadDataError(
                    here or "<string>",
                    f"each {kind} name once, whatever its case and spacing ('{first}' is "
                    f"also in {where or '<string>'})",
                    line=card.line,
                    found=name,
                )
            folded[key] = name
            into[name] = card

    for lib in libraries:
        add("soldier", soldiers, lib.soldiers, lib)
        add("weapon", weapons, lib.weapons, lib)
        add("hostile", hostiles, lib.hostiles, lib)
        add("location", locations, lib.locations, lib)
        add("mission", missions, lib.missions, lib)
        files.update(lib.files)
    out = CardLibrary(soldiers, weapons, hostiles, locations, missions, files)
    _check_names(out)
    return out


def _check_names(lib: CardLibrary) -> None:
    def missing(file: str, line: int, what: str, name: str) -> BadDataError:
        return BadDataError(file, what, line=line, found=name)

    for s in lib.soldiers.values():
        if s.weapon not in lib.weapons:
            raise missing(lib.files[f"soldier {s.name}"], s.line, "a weapon card's name", s.weapon)
    cards: list[tuple[str, int, tuple[CheckCard, ...]]] = [
        (f"hostile {h.name}", h.line, h.checks) for h in lib.hostiles.values()
    ] + [(f"location {c.name}", c.line, c.checks) for c in lib.locations.values()]
    for name, _, checks in cards:
        for check in checks:
            for heading in check.headings:
                for e in heading.effects:
                    if e.verb in ("add", "remove") and e.target not in lib.hostiles:
                        raise missing(
                            lib.files[name],
                            check.line,
                            f"a Hostile card's name after '{e.verb}' (WF-C6)",
                            e.target,
                        )
    for loc in lib.locations.values():
        for h in loc.hostiles:
            if h not in lib.hostiles:
                raise missing(
                    lib.files[f"location {loc.name}"], loc.line, "a Hostile card's name", h
                )
    for m in lib.missions.values():
        for who in m.squad:
            if who not in lib.soldiers:
                raise missing(m.file, m.line_of("squad"), "a Soldier card's name in the squad", who)
        places = [("start", m.start)] + [("deck", d) for d in m.deck]
        for key, place in [*places, ("objective", m.objective)]:
            if place not in lib.locations:
                raise missing(m.file, m.line_of(key), "a Location card's name", place)
        for h in m.hostile_deck:
            if h not in lib.hostiles:
                raise missing(
                    m.file,
                    m.line_of("hostile_deck"),
                    "a Hostile card's name in the hostile deck",
                    h,
                )
        start = lib.locations[m.start]
        fail_checks = [c for c in start.checks if c.is_fail_check] + [
            c for h in start.hostiles for c in lib.hostiles[h].checks if c.is_fail_check
        ]
        if fail_checks:
            raise BadDataError(
                m.file,
                "a start Location without Fail checks (the squad begins there, WF-A9)",
                line=m.line_of("start"),
                found=m.start,
            )


# --------------------------------------------------------------------------- loading


#: The longest mission path (``--set mission=PATH``): Linux's PATH_MAX.
MAX_PATH: Final = 4096


def _shipped(name: str) -> tuple[str, str]:
    entry = resources.files("fogofwar").joinpath("data", "warfighter", name)
    file = f"fogofwar/data/warfighter/{name}"
    return read_text(entry, file=file, limit=DATA_FILE_LIMIT, what="a card file"), file


def _mission_file(name: str) -> tuple[str, str]:
    """Read a mission file the user names through :func:`fogofwar.core.files.read_text`
    (a regular file: not a directory, a device or a pipe that could block)."""
    # A web table's mission by name, from the operator's folders (errors name it so).
    return read_text(data_file(name), file=name, limit=DATA_FILE_LIMIT, what="a mission file"), name


def check_mission_name(name: str) -> None:
    """Refuse a ``mission`` option that no file or shipped mission could be: longer than
    :data:`MAX_PATH`, or holding control characters (a NUL cannot be in a path).

    Raises:
        BadDataError: naming the option and what was expected.
    """
    if not name or len(name) > MAX_PATH or not name.isprintable():
        raise BadDataError(
            "option mission",
            f"a shipped mission ({', '.join(SHIPPED_MISSIONS)}) or a .wf file's path of "
            f"1 to {MAX_PATH} printable characters",
            found=_short(repr(name)),
        )


def load_library() -> CardLibrary:
    """The shipped card library alone (``fogofwar/data/warfighter/cards.wf``)."""
    text, file = _shipped(LIBRARY_FILE)
    return merge(parse_cards(text, file=file))


def load_mission(name: str) -> tuple[MissionCard, CardLibrary]:
    """A shipped mission (``"dagon"``) or a mission file, with the library it is read with.

    A mission file may add its own cards; it is read together with the shipped library.

    Raises:
        BadDataError: a file cannot be read or does not validate (:func:`read_text`'s
            bounds: at most 1 MiB of UTF-8 text), the name is no possible mission, or
            the mission file holds no mission.
        LookupError: no shipped mission of that name.
    """
    mission, lib, _ = read_mission(name)
    return mission, lib


def read_mission(name: str) -> tuple[MissionCard, CardLibrary, str]:
    """:func:`load_mission`, with a digest of the mission file's text as read (a record
    keeps it so that a changed file is refused on replay rather than replayed
    differently). Raises as :func:`load_mission` does."""
    check_mission_name(name)
    base_text, base_file = _shipped(LIBRARY_FILE)
    if name.endswith(".wf") or "/" in name or "\\" in name:
        text, file = _mission_file(name)
    elif name.lower() in SHIPPED_MISSIONS:
        text, file = _shipped(name.lower() + ".wf")
    else:
        raise LookupError(f"no shipped mission {name!r}; available: {', '.join(SHIPPED_MISSIONS)}")
    digest = text_digest(text)
    own = parse_cards(text, file=file)
    if len(own.missions) != 1:
        raise BadDataError(
            file, "exactly one 'mission NAME' block", line=1, found=f"{len(own.missions)} missions"
        )
    lib = merge(parse_cards(base_text, file=base_file), own)
    return next(iter(own.missions.values())), lib, digest
