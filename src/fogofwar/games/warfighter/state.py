"""The true state of a Warfighter mission and its rules (WF-C*, WF-A*, WF-D*).

One seat, ``squad``, plays the Soldiers; the hostile turn is the umpire's, its dice from
keyed streams. A mission's Locations lie in a line: the start (face up), face-down
Locations drawn from the shuffled Location deck when a Soldier first enters them, then
the Objective. The hidden facts are the order of the Location deck and of the Hostile
deck; every event is public.

Actions (the notation of :attr:`~.ruleset.Warfighter.notation_help`):

* ``move S L`` — a Soldier moves to a connected Location (1 Action, WF-C2);
* ``attack S H`` / ``attack S H door`` — attack a Hostile or its Door (1 Action,
  WF-C4, WF-D2, WF-D6, WF-D7);
* ``pick S H`` / ``pick S H up`` — a Pick check on a Hostile's Door (WF-D5, WF-A7);
* ``check S K`` / ``check S K up`` — attempt a Success check on the Location (WF-A5);
* ``roll S K`` / ``roll S K up`` — the Soldier who rolls a pending Fail check (WF-A9,
  WF-A10); offered only when there is a choice;
* ``end`` — end the Soldier Turn; the hostile turn follows (WF-C7).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from ...core.cards import Deck, Pile
from ...core.game import Action, Config, Event, Outcome, Ruleset, State
from ...core.rng import Streams
from .cards import CardLibrary, CheckCard, Effect, HostileCard, MissionCard, SoldierCard
from .odds import DIE, LACKING_NATURAL, check_result

__all__ = [
    "OUT_AT",
    "SEAT",
    "SHAPES",
    "Check",
    "Hostile",
    "Pending",
    "Soldier",
    "WarfighterState",
    "shape_error",
]

SEAT: Final = "squad"
SIDE: Final = "squad"
#: The side that wins a lost mission (the umpire's, with no seat).
HOSTILES: Final = "hostiles"
#: A Soldier with this many wounds is out (WF-C7).
OUT_AT: Final = 3
SOLDIERS: Final = "soldiers"
ROLL: Final = "roll"
OVER: Final = "over"


@dataclass
class Soldier:
    """A Soldier in play (WF-C1)."""

    id: str
    card: SoldierCard
    slot: int
    actions: int
    wounds: int = 0
    out: bool = False
    attacks: int = 0  # attacks this turn: a key of the attack's dice stream


@dataclass
class Hostile:
    """A Hostile in play (WF-C3) and its Door (WF-D1…D7)."""

    id: str
    card: HostileCard
    slot: int
    ekias: int = 0
    door_ekias: int = 0  # kept apart from the Hostile's (WF-D2)
    breached_by: str | None = None  # "attack" or "pick" (WF-D4, WF-D5)
    suppressed: bool = False
    alive: bool = True
    picks: int = 0  # Pick checks tried: a key of the check's dice stream

    @property
    def breached(self) -> bool:
        """Whether its Door is Breached."""
        return self.breached_by is not None

    def cover_in_force(self) -> int:
        """The Cover an attack on the Hostile itself rolls against: printed, or the
        Door's once it is Breached (WF-D6, WF-D7); the attacker takes the better."""
        door = self.card.door
        if door is not None and self.breached:
            return min(door.cover, self.card.cover)
        return self.card.cover


@dataclass
class Check:
    """An ability check on the table: on a Location card or a Hostile card there."""

    id: str
    card: CheckCard
    slot: int
    source: str  # "L2" (a Location) or "H3" (a Hostile)
    rolled: bool = False  # a Fail check, once rolled (WF-A6)
    spent: bool = False  # a Success check, once succeeded (WF-A6)
    attempts: int = 0
    gone: bool = False  # its Hostile died or left


@dataclass(frozen=True)
class Pending:
    """A Fail check to be rolled now (WF-A9, WF-A10).

    Attributes:
        check: the check's id.
        roller: the Soldier who entered (WF-A9), or None: any Soldier on the Location,
            the player picks (WF-A10).
        rule: ``WF-A9`` or ``WF-A10``.
    """

    check: str
    roller: str | None
    rule: str


#: Each action's words after its name: (notation, its rule, the optional last word).
SHAPES: Final[dict[str, tuple[str, str, str | None]]] = {
    "move": ("move S L", "WF-C2", None),
    "attack": ("attack S H [door]", "WF-C4", "door"),
    "pick": ("pick S H [up]", "WF-D5", "up"),
    "check": ("check S K [up]", "WF-A5", "up"),
    "roll": ("roll S K [up]", "WF-A9", "up"),
    "end": ("end", "WF-C7", None),
}


def shape_error(kind: str, args: tuple[int | str, ...]) -> tuple[str, str] | None:
    """Why ``args`` do not fit the action's notation, with the rule, or None if they do."""
    notation, rule, last = SHAPES[kind]
    if kind == "end":
        if args:
            return "end takes no arguments: it ends the whole Soldier Turn", rule
        return None
    if len(args) == 3 and args[2] == "up" and last != "up":
        # Only ability checks may be upgunned (a move or an attack has no number).
        return f"{kind} cannot be upgunned: only ability checks and picks can", "WF-A7"
    if len(args) < 2 or len(args) > 3 or (len(args) == 3 and args[2] != last):
        return f"{kind} is written {notation}", rule
    return None


def _event(kind: str, **data: Any) -> Event:
    return Event(kind, data)


class WarfighterState(State):
    """The true state of one Warfighter mission (the umpire's secret)."""

    def __init__(
        self,
        ruleset: Ruleset,
        config: Config,
        seed: int | str,
        mission: MissionCard,
        library: CardLibrary,
    ) -> None:
        self.ruleset = ruleset
        self.config = config
        self._streams = Streams(seed)  # secret: never reaches a view or an event
        self.mission = mission
        self.library = library
        self.turns: int = int(config["turns"]) or mission.turns
        # The line of Locations: the start, the face-down slots, the Objective.
        self.slot_count = mission.slots + 2
        self.slots: list[str | None] = [None] * self.slot_count
        self.location_deck: Pile[str] = Pile(mission.deck, name="locations")
        self.location_deck.shuffle(self._streams.stream("location-deck"))
        self.hostile_deck: Deck[str] = Deck(mission.hostile_deck, name="hostiles")
        self.hostile_deck.shuffle(self._streams.stream("hostile-deck"))
        self.soldiers: dict[str, Soldier] = {}
        self.hostiles: dict[str, Hostile] = {}
        self.checks: dict[str, Check] = {}
        self.pending: list[Pending] = []
        self.turn = 1
        self.phase = SOLDIERS
        self.result: Outcome | None = None
        self.log: list[Event] = []
        self.turn_start = 0
        self.counts: dict[str, int] = {
            "breaches_attack": 0,
            "breaches_pick": 0,
            "checks_rolled": 0,
            "checks_failed": 0,
            "checks_lacking": 0,
            "hostiles_killed": 0,
        }
        for i, name in enumerate(mission.squad, 1):
            card = library.soldiers[name]
            self.soldiers[f"S{i}"] = Soldier(f"S{i}", card, 0, card.actions)
        self.log.append(
            _event(
                "mission",
                name=mission.name,
                turns=self.turns,
                locations=self.slot_count,
                objective=mission.objective,
            )
        )
        self._reveal(0, mission.start)

    # ------------------------------------------------------------------ helpers

    @property
    def objective_slot(self) -> int:
        """The Objective's slot (the last of the line)."""
        return self.slot_count - 1

    def slot_name(self, slot: int) -> str:
        """``L1`` for the start, and so on."""
        return f"L{slot + 1}"

    def slot_of(self, name: str) -> int | None:
        """The slot of ``L3``, or None."""
        if 1 < len(name) <= 4 and name[0] == "L" and name[1:].isascii() and name[1:].isdigit():
            i = int(name[1:]) - 1
            if 0 <= i < self.slot_count:
                return i
        return None

    def standing(self, slot: int | None = None) -> list[Soldier]:
        """Soldiers not out (on ``slot``, if given), in id order."""
        return [s for s in self.soldiers.values() if not s.out and (slot is None or s.slot == slot)]

    def hostiles_at(self, slot: int) -> list[Hostile]:
        """The living Hostiles on a Location, in id order."""
        return [h for h in self.hostiles.values() if h.alive and h.slot == slot]

    def checks_at(self, slot: int) -> list[Check]:
        """The checks on a Location (its card's and its Hostiles'), in id order."""
        return [k for k in self.checks.values() if k.slot == slot and not k.gone]

    def _weapon(self, s: Soldier) -> Any:
        return self.library.weapons[s.card.weapon]

    # ------------------------------------------------------------------ protocol

    def to_act(self) -> frozenset[str]:
        return frozenset() if self.phase == OVER else frozenset({SEAT})

    def outcome(self) -> Outcome | None:
        return self.result

    def legal_actions(self, seat: str) -> list[Action]:
        if seat != SEAT or self.phase == OVER:
            return []
        if self.phase == ROLL:
            return [Action(SEAT, "roll", args) for args in self._roll_options(self.pending[0])]
        out: list[Action] = []
        for s in self.standing():
            if s.actions < 1:
                continue
            for to in (s.slot - 1, s.slot + 1):
                if 0 <= to < self.slot_count:
                    out.append(Action(SEAT, "move", (s.id, self.slot_name(to))))
            for h in self.hostiles_at(s.slot):
                out.append(Action(SEAT, "attack", (s.id, h.id)))
                if h.card.door is not None and not h.breached:
                    out.append(Action(SEAT, "attack", (s.id, h.id, "door")))
                    if h.card.door.pick is not None:
                        ab = s.card.ability("Pick")
                        if ab is not None:
                            out.append(Action(SEAT, "pick", (s.id, h.id)))
                            if ab.upgunned is not None and s.actions >= 2:
                                out.append(Action(SEAT, "pick", (s.id, h.id, "up")))
            for k in self.checks_at(s.slot):
                if k.card.is_fail_check or k.spent:
                    continue
                ab = s.card.ability(k.card.ability)
                if ab is None:
                    continue
                out.append(Action(SEAT, "check", (s.id, k.id)))
                if ab.upgunned is not None and k.card.upgun and s.actions >= 2:
                    out.append(Action(SEAT, "check", (s.id, k.id, "up")))
        out.append(Action(SEAT, "end"))
        return out

    def _roll_options(self, p: Pending) -> list[tuple[str, ...]]:
        k = self.checks[p.check]
        if p.roller is not None:
            r = self.soldiers[p.roller]
            who = [r] if not r.out and r.slot == k.slot else []
        else:
            who = self.standing(k.slot)
        out: list[tuple[str, ...]] = []
        for s in who:
            out.append((s.id, k.id))
            ab = s.card.ability(k.card.ability)
            if ab is not None and ab.upgunned is not None and k.card.upgun and s.actions >= 1:
                out.append((s.id, k.id, "up"))
        return out

    def explain_illegal(self, action: Action) -> tuple[str, str | None]:
        if self.is_over or action.seat not in self.to_act():
            return super().explain_illegal(action)
        kind, args = action.kind, action.args
        if self.phase == ROLL:
            p = self.pending[0]
            if kind == "roll" and (shape := shape_error(kind, args)) is not None:
                return shape
            if kind != "roll":
                return (
                    f"the Fail check {p.check} must be rolled first, before play continues",
                    p.rule,
                )
            if len(args) >= 2 and args[1] != p.check:
                return f"the check to roll now is {p.check}", p.rule
            if len(args) == 3:
                return (
                    "upgunning needs the bracketed number, a card that allows it and "
                    "an Action to spend",
                    "WF-A7",
                )
            if p.roller is not None:
                return f"{p.roller} entered the Location: {p.roller} rolls", "WF-A9"
            return "the Soldier who rolls must be on the check's Location", "WF-A10"
        if kind not in SHAPES:
            return super().explain_illegal(action)
        shape = shape_error(kind, args)
        if shape is not None:
            return shape
        if kind == "roll":
            return "there is no Fail check to roll now", "WF-A9"
        s = self.soldiers.get(str(args[0])) if args else None
        if s is None:
            return f"{kind} names a Soldier: {', '.join(self.soldiers)}", "WF-C1"
        if s.out:
            return f"{s.id} is out ({OUT_AT} wounds)", "WF-C7"
        cost = 2 if args[-1:] == ("up",) else 1
        if s.actions < cost:
            why = "upgunning costs one more Action" if cost == 2 else "every action costs one"
            return (
                f"{s.id} has {s.actions} Action(s) left: {why}",
                "WF-A7" if cost == 2 else "WF-C1",
            )
        target = str(args[1]) if len(args) > 1 else ""
        if kind == "move":
            return f"{s.id} may move to a Location next to {self.slot_name(s.slot)}", "WF-C2"
        if kind in ("attack", "pick"):
            h = self.hostiles.get(target)
            if h is None or not h.alive:
                return f"{target or 'a target'} is not a Hostile in play", "WF-C3"
            if h.slot != s.slot:
                return f"{h.id} is not in Striking Range of {s.id} (another Location)", "WF-C3"
            door = h.card.door
            if kind == "attack":
                if len(args) == 3 and args[2] == "door":
                    if door is None:
                        return f"{h.id} has no Door", "WF-D1"
                    return f"the Door of {h.id} is already Breached", "WF-D4"
                return "attack S H, or attack S H door", "WF-C4"
            if door is None or door.pick is None:
                return f"{h.id} has no Door with a Pick value to pick", "WF-D5"
            if h.breached:
                return f"the Door of {h.id} is already Breached", "WF-D5"
            if s.card.ability("Pick") is None:
                return f"{s.id} lacks the Pick ability: only Soldiers with it may pick", "WF-A8"
            return f"{s.id}'s Pick has no upgunned number", "WF-A7"
        # check
        k = self.checks.get(target)
        if k is None or k.gone:
            return f"{target or 'a check'} is not a check in play", "WF-A5"
        if k.slot != s.slot:
            return f"{k.id} is on another Location than {s.id}", "WF-A5"
        if k.card.is_fail_check:
            return (
                f"{k.id} is a Fail check: it is rolled when a Soldier enters, once only",
                "WF-A6",
            )
        if k.spent:
            return f"the benefit of {k.id} was gained already (only once)", "WF-A6"
        ab = s.card.ability(k.card.ability)
        if ab is None:
            return f"{s.id} lacks the {k.card.ability} ability", "WF-A8"
        if not k.card.upgun:
            return f"{k.id}'s card does not allow upgunning", "WF-A7"
        return f"{s.id}'s {ab.keyword} has no upgunned number", "WF-A7"

    # ------------------------------------------------------------------ applying

    def apply_unchecked(self, action: Action) -> list[Event]:
        start = len(self.log)
        kind, args = action.kind, action.args
        if kind == "end":
            self._hostile_turn()
            return self.log[start:]
        if kind == "roll":
            p = self.pending.pop(0)
            self._resolve_check(str(args[1]), str(args[0]), len(args) == 3, rule=p.rule)
        else:
            s = self.soldiers[str(args[0])]
            up = args[-1:] == ("up",)
            s.actions -= 2 if up else 1
            if kind == "move":
                slot = self.slot_of(str(args[1]))
                if slot is not None:  # legal actions name existing Locations
                    self._move(s, slot, by_action=True)
            elif kind == "attack":
                self._attack(s, self.hostiles[str(args[1])], door=len(args) == 3)
            elif kind == "pick":
                self._pick(s, self.hostiles[str(args[1])], up)
            else:
                self._resolve_check(str(args[1]), s.id, up, rule="WF-A5")
        self._settle()
        return self.log[start:]

    def _settle(self) -> None:
        """Roll the pending Fail checks that offer no choice; stop at one that does
        (WF-A10); then see whether the mission is won (WF-C7)."""
        while self.pending and self.result is None:
            p = self.pending[0]
            options = self._roll_options(p)
            if len(options) > 1:
                self.phase = ROLL
                return
            self.pending.pop(0)
            if not options:
                # Nobody there to roll it: the check stays unrolled (WF-A6).
                self.log.append(_event("check_not_rolled", check=p.check, rule=p.rule))
                continue
            self._resolve_check(p.check, options[0][0], False, rule=p.rule)
        if self.result is not None:
            return
        self.phase = SOLDIERS
        obj = self.objective_slot
        if self.slots[obj] is not None and self.standing(obj) and not self.hostiles_at(obj):
            self._finish(True, "the Objective Location is cleared", "WF-C7")

    # -- moving and entering

    def _move(self, s: Soldier, slot: int, *, by_action: bool) -> None:
        frm = s.slot
        s.slot = slot
        self.log.append(
            _event(
                "moved",
                soldier=s.id,
                frm=self.slot_name(frm),
                to=self.slot_name(slot),
                by="action" if by_action else "effect",
            )
        )
        self._enter(s, slot)

    def _enter(self, s: Soldier, slot: int) -> None:
        if self.slots[slot] is None:
            if slot == self.objective_slot:
                name = self.mission.objective
            else:
                name = self.location_deck.draw()
            self._reveal(slot, name)
        # WF-A9: every Fail check on the Location, not yet rolled, is rolled by the
        # Soldier who entered, in the order printed.
        queued = {p.check for p in self.pending}
        for k in self.checks_at(slot):
            if k.card.is_fail_check and not k.rolled and k.id not in queued:
                self.pending.append(Pending(k.id, s.id, "WF-A9"))

    def _reveal(self, slot: int, name: str) -> None:
        self.slots[slot] = name
        card = self.library.locations[name]
        self.log.append(_event("revealed", location=self.slot_name(slot), card=name))
        self._add_checks(card.checks, slot, self.slot_name(slot))
        for h in card.hostiles:
            self._place(h, slot, added=False)

    def _add_checks(self, checks: Iterable[CheckCard], slot: int, source: str) -> list[Check]:
        out = []
        for card in checks:
            k = Check(f"K{len(self.checks) + 1}", card, slot, source)
            self.checks[k.id] = k
            out.append(k)
            self.log.append(
                _event("check_placed", check=k.id, location=self.slot_name(slot), source=source)
            )
        return out

    def _place(self, name: str, slot: int, *, added: bool) -> Hostile:
        card = self.library.hostiles[name]
        h = Hostile(f"H{len(self.hostiles) + 1}", card, slot)
        self.hostiles[h.id] = h
        self.log.append(
            _event("hostile_placed", hostile=h.id, card=name, location=self.slot_name(slot))
        )
        new = self._add_checks(card.checks, slot, h.id)
        if added and self.standing(slot):
            # WF-A10: a Fail check added to a Soldier's Location is attempted now.
            for k in new:
                if k.card.is_fail_check:
                    self.pending.append(Pending(k.id, None, "WF-A10"))
        return h

    # -- ability checks

    def _resolve_check(self, check_id: str, soldier_id: str, up: bool, *, rule: str) -> None:
        k = self.checks[check_id]
        s = self.soldiers[soldier_id]
        card = k.card
        ab = s.card.ability(card.ability)
        if up and rule != "WF-A5":  # a voluntary check paid its extra Action already
            s.actions -= 1
        natural: int | None = None
        target = 0
        if ab is not None:
            # Keyed by the check and the attempt: no other draw can shift it.
            natural = self._streams.stream("check", k.id, k.attempts).die(DIE)
            target = ab.upgunned if up and ab.upgunned is not None else ab.need
        success, roll = check_result(natural, target, card.modifier)
        k.attempts += 1
        if natural is not None:
            self.counts["checks_rolled"] += 1
        else:
            # WF-A8: no roll is made; the metrics count it apart from rolled checks.
            self.counts["checks_lacking"] += 1
        if card.is_fail_check:
            k.rolled = True  # WF-A6: rolled only once
        if success and not card.is_fail_check:
            k.spent = True  # WF-A6: the benefit only once
        heading = None
        if success:
            effects = card.on_success
            if effects:
                heading = "success" if card.heading("success") else "text"
        else:
            if natural is not None:
                self.counts["checks_failed"] += 1
            fail = card.fail_heading
            effects = () if fail is None else fail.effects
            heading = None if fail is None else fail.kind
        self.log.append(
            _event(
                "check",
                check=k.id,
                soldier=s.id,
                ability=card.ability,
                lacks=ab is None,
                natural=natural,
                # WF-A8: no roll for a lacking Soldier: ``roll`` is None and ``treated_as``
                # the reading its effects use (a natural 1 only a decrease can lower).
                treated_as=LACKING_NATURAL if natural is None else None,
                modifier=min(card.modifier, 0) if natural is None else card.modifier,
                roll=roll if natural is not None else None,
                reading=roll,
                target=target if ab is not None else None,
                upgunned=up,
                success=success,
                heading=heading,
                rule="WF-A8" if ab is None else rule,
            )
        )
        self._effects(effects, s, k.slot, roll)

    def _effects(self, effects: Iterable[Effect], s: Soldier, slot: int, roll: int) -> None:
        for e in effects:
            if self.result is not None:
                return
            self._effect(e, s, slot, roll)

    def _effect(self, e: Effect, s: Soldier, slot: int, roll: int) -> None:
        """One effect of WF-C6, for the Soldier who rolled, on the check's Location."""
        verb = e.verb
        where = self.slot_name(slot)
        if verb == "wound":
            self._wound(s, e.value(roll), cause="check")
        elif verb == "suppress":
            # WF-D3: Hostiles gain Suppresses, their Doors never do.
            for h in self.hostiles_at(slot):
                h.suppressed = True
                self.log.append(_event("suppressed", hostile=h.id))
        elif verb == "add":
            self._place(e.target, slot, added=True)
        elif verb == "remove":
            gone = next((h for h in self.hostiles_at(slot) if h.card.name == e.target), None)
            if gone is None:
                self.log.append(_event("nothing_to_remove", card=e.target, location=where))
            else:
                self._remove(gone, "removed")
        elif verb == "actions":
            if not s.out:
                s.actions = max(0, s.actions + e.amount)
                self.log.append(_event("actions", soldier=s.id, change=e.amount, left=s.actions))
        elif verb == "draw":
            for _ in range(e.amount):
                if not len(self.hostile_deck):
                    self.log.append(_event("hostile_deck_empty"))
                    break
                name = self.hostile_deck.draw()
                self.hostile_deck.set_aside(name, "in play")
                self.log.append(_event("drawn", card=name, location=where))
                self._place(name, slot, added=True)
        elif verb == "discard":
            for _ in range(e.amount):
                if not len(self.hostile_deck):
                    self.log.append(_event("hostile_deck_empty"))
                    break
                name = self.hostile_deck.draw()
                self.hostile_deck.discard(name)
                self.log.append(_event("discarded", card=name))
        elif verb == "move":
            to = s.slot + (1 if e.target == "forward" else -1)
            if not s.out and 0 <= to < self.slot_count:
                self._move(s, to, by_action=False)
        elif verb == "end":
            won = e.target == "win"
            self._finish(won, f"a card ends the mission ({e.target})", "WF-C6")

    # -- attacks, doors, wounds

    def _attack(self, s: Soldier, h: Hostile, *, door: bool) -> None:
        weapon = self._weapon(s)
        d = h.card.door
        cover = d.cover if door and d is not None else h.cover_in_force()
        stream = self._streams.stream("attack", self.turn, s.id, s.attacks)
        s.attacks += 1
        rolls = [stream.die(DIE) for _ in range(weapon.shots)]
        ekias = sum(r >= cover for r in rolls)
        self.log.append(
            _event(
                "attack",
                soldier=s.id,
                hostile=h.id,
                door=door,
                weapon=weapon.name,
                cover=cover,
                rolls=rolls,
                ekias=ekias,
                rule="WF-D2" if door else ("WF-D6" if h.breached else "WF-C4"),
            )
        )
        if door and d is not None:
            h.door_ekias += ekias  # WF-D2: apart from the Hostile's
            if h.door_ekias >= d.hits:
                self._breach(h, "attack", "WF-D4")
            return  # WF-D3: a Door never gains a Suppress
        h.ekias += ekias
        if h.ekias >= h.card.hits:
            self._remove(h, "killed")
        elif weapon.suppressive:
            h.suppressed = True
            self.log.append(_event("suppressed", hostile=h.id))

    def _pick(self, s: Soldier, h: Hostile, up: bool) -> None:
        d = h.card.door
        ab = s.card.ability("Pick")
        if d is None or d.pick is None or ab is None:  # not offered by legal_actions
            return
        natural = self._streams.stream("pick", h.id, h.picks).die(DIE)
        h.picks += 1
        target = ab.upgunned if up and ab.upgunned is not None else ab.need
        success, roll = check_result(natural, target, d.pick)
        self.counts["checks_rolled"] += 1
        if not success:
            self.counts["checks_failed"] += 1
        self.log.append(
            _event(
                "pick",
                soldier=s.id,
                hostile=h.id,
                natural=natural,
                modifier=d.pick,
                roll=roll,
                target=target,
                upgunned=up,
                success=success,
                rule="WF-D5",
            )
        )
        if success:
            self._breach(h, "pick", "WF-D5")

    def _breach(self, h: Hostile, by: str, rule: str) -> None:
        h.breached_by = by
        self.counts["breaches_attack" if by == "attack" else "breaches_pick"] += 1
        self.log.append(_event("breached", hostile=h.id, by=by, rule=rule))

    def _remove(self, h: Hostile, how: str) -> None:
        h.alive = False
        if how == "killed":
            self.counts["hostiles_killed"] += 1
        for k in self.checks.values():
            if k.source == h.id:
                k.gone = True  # its checks leave with it
        self.pending = [p for p in self.pending if self.checks[p.check].source != h.id]
        self.log.append(_event(how, hostile=h.id))

    def _wound(self, s: Soldier, n: int, *, cause: str) -> None:
        if s.out or n <= 0:
            return
        s.wounds = min(OUT_AT, s.wounds + n)
        self.log.append(_event("wounded", soldier=s.id, wounds=s.wounds, cause=cause))
        if s.wounds >= OUT_AT:
            s.out = True
            s.actions = 0
            self.log.append(_event("out", soldier=s.id))
            if not self.standing():
                self._finish(False, "every Soldier is out", "WF-C7")

    # -- the hostile turn and the end

    def _hostile_turn(self) -> None:
        """WF-C7: each Hostile attacks the Soldier on its Location with the fewest
        wounds (ties by the seeded RNG); a d10 at least that Soldier's Cover wounds."""
        self.log.append(_event("hostile_turn", turn=self.turn))
        for h in list(self.hostiles.values()):
            if not h.alive or self.result is not None:
                continue
            there = self.standing(h.slot)
            if not there:
                continue
            if h.suppressed:
                h.suppressed = False
                self.log.append(_event("suppressed_skips", hostile=h.id))
                continue
            least = min(s.wounds for s in there)
            tied = [s for s in there if s.wounds == least]
            target = tied[0]
            if len(tied) > 1:
                target = self._streams.stream("hostile-target", self.turn, h.id).choice(tied)
            roll = self._streams.stream("hostile-attack", self.turn, h.id).die(DIE)
            hit = roll >= target.card.cover
            self.log.append(
                _event(
                    "hostile_attack",
                    hostile=h.id,
                    soldier=target.id,
                    roll=roll,
                    cover=target.card.cover,
                    hit=hit,
                )
            )
            if hit:
                self._wound(target, 1, cause=h.id)
        if self.result is not None:
            return
        self.log.append(_event("turn_over", turn=self.turn))
        if self.turn >= self.turns:
            self._finish(False, f"the turn limit ({self.turns}) passed", "WF-C7")
            return
        self.turn += 1
        self.turn_start = len(self.log)
        for s in self.standing():
            s.actions = s.card.actions
            s.attacks = 0
        self.phase = SOLDIERS

    def _finish(self, won: bool, reason: str, rule: str) -> None:
        # A lost mission is the hostiles' win: the umpire's side, with no seat.
        self.result = Outcome(
            frozenset({SEAT}) if won else frozenset(),
            frozenset({SIDE}) if won else frozenset({HOSTILES}),
            reason,
            rule,
        )
        self.phase = OVER
        self.pending = []
        self.log.append(_event("game_over", won=won, reason=reason, rule=rule))

    # ------------------------------------------------------------------ views
