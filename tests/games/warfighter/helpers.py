"""Helpers for the Warfighter tests: small card sets, games built from them, and
scripted dice (a test names each roll instead of searching for a seed)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

import fogofwar.games.warfighter as wf
from fogofwar.core.game import Action, Event
from fogofwar.games.warfighter.cardfile import merge, parse_cards
from fogofwar.games.warfighter.state import SEAT, WarfighterState

T = TypeVar("T")
RS = wf.RULESET

BASE = """\
weapon Rifle
  shots: 1

weapon Burst
  shots: 3

weapon Hose
  shots: 2
  suppressive: yes

soldier Able
  cover: 6
  abilities: Pick 5+[3+], Search 6+
  weapon: Rifle

soldier Baker
  cover: 7
  abilities: Swim 6+
  weapon: Burst

soldier Charlie
  actions: 3
  cover: 8
  weapon: Hose

hostile Grunt
  cover: 6
  hits: 1

hostile Brute
  cover: 8
  hits: 2

hostile Bunker
  cover: 9
  hits: 2
  door: cover 5, hits 2, pick -1

hostile Vault
  cover: 9
  hits: 1
  door: cover 4, hits 1

hostile Siren
  cover: 6
  hits: 1
  check: Swim
  fail: wound 1

location Camp

location Goal
  hostiles: Grunt
"""


def game(
    extra: str = "",
    *,
    squad: str = "Able, Baker",
    deck: str = "",
    slots: int | None = None,
    objective: str = "Goal",
    turns: int = 5,
    hostile_deck: str = "",
    seed: int = 0,
) -> WarfighterState:
    """A game of a mission built from :data:`BASE`, ``extra`` cards and the settings:
    Camp (start), the deck's Locations, then the Objective."""
    lines = ["mission Test", f"  squad: {squad}", "  start: Camp", f"  objective: {objective}"]
    lines.append(f"  turns: {turns}")
    if deck:
        lines.append(f"  deck: {deck}")
        lines.append(f"  slots: {slots if slots is not None else len(deck.split(','))}")
    if hostile_deck:
        lines.append(f"  hostile_deck: {hostile_deck}")
    text = BASE + "\n" + extra + "\n" + "\n".join(lines) + "\n"
    library = merge(parse_cards(text, file="test.wf"))
    mission = next(iter(library.missions.values()))
    config = RS.config_schema.resolve({})
    return WarfighterState(RS, config, seed, mission, library)


class _Dice:
    def __init__(self, script: dict[str, list[int]], purpose: str) -> None:
        self.script = script
        self.purpose = purpose

    def _next(self) -> int:
        queue = self.script.get(self.purpose)
        if not queue:
            raise LookupError(f"no scripted {self.purpose!r} roll left")
        return queue.pop(0)

    def die(self, sides: int) -> int:
        value = self._next()
        if not 1 <= value <= sides:
            raise ValueError(f"a scripted d{sides} shows {value}")
        return value

    def randbelow(self, n: int) -> int:
        # A die object (the rules roll ``D10.sample(stream)``) draws its face's index:
        # the script names the face shown.
        return self.die(n) - 1

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self._next()]


class ScriptedStreams:
    """Stands in for a game's streams: each purpose pops its scripted values in order."""

    def __init__(self, script: Mapping[str, Iterable[int]]) -> None:
        self.script = {k: list(v) for k, v in script.items()}

    def stream(self, purpose: str, *indices: int | str) -> _Dice:
        return _Dice(self.script, purpose)

    def left(self) -> dict[str, list[int]]:
        return {k: v for k, v in self.script.items() if v}


def rig(state: WarfighterState, **script: Iterable[int]) -> ScriptedStreams:
    """Script the dice of ``state`` from now on, by purpose: ``check``, ``pick``,
    ``attack``, ``hostile-attack``, ``hostile-target`` (an index into the tied)."""
    fake = ScriptedStreams({k.replace("_", "-"): v for k, v in script.items()})
    state._streams = fake  # type: ignore[assignment]
    return fake


def act(state: WarfighterState, text: str) -> list[Event]:
    """Apply actions in notation (checked)."""
    events: list[Event] = []
    for a in RS.parse_actions(text, SEAT, state):
        events += state.apply(a)
    return events


def legal(state: WarfighterState) -> set[str]:
    return {str(a) for a in state.legal_actions(SEAT)}


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events]


def only(events: Iterable[Event], kind: str) -> list[dict[str, Any]]:
    return [dict(e.data) for e in events if e.kind == kind]


def action(text: str) -> Action:
    words = text.split()
    return Action(SEAT, words[0], tuple(words[1:]))
