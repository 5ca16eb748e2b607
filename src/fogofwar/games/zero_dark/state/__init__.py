"""The true state of a Zero Dark mission on the FEAR grid, with the stand-in core and the
Spook supplement, and its rules — one module per section of the rules:

* :mod:`.pieces` — the phases and action kinds, the decisions a mission waits on (the
  CQB to fight or persuade, the ally that must close), each team's side, the report;
* :mod:`.options` — the Red Force, the susceptible tiers and the win conditions as
  options (FR-P1, ZD-P0, ZD-C8);
* :mod:`.fields` — the mission's fields, the queries every section reads, the ZD-C1
  test;
* :mod:`.pings` — the pings and their reveal (FR-P1…P4);
* :mod:`.end` — the mission's end and its report (ZD-C5, ZD-C8, ZD-T2, ZD-T7);
* :mod:`.allies` — persuasion and dependents (ZD-P*, ZD-D*);
* :mod:`.combat` — wounds and CQB (ZD-C3, ZD-C5, ZD-P1);
* :mod:`.activation` — who acts and an activation's course (ZD-C2, ZD-C9);
* :mod:`.movement` — the automatic action: steps, facing, doors, the exit (ZD-C2,
  FR-M*, FR-L5, ZD-C8);
* :mod:`.tested` — the tested action: shoot, dotlight, interact, cautious, pass (ZD-C2,
  ZD-C3, ZD-L*, ZD-C10);
* :mod:`.spook` — the Spooks' tasks and hands, ``verify`` (ZD-C7, ZD-B1, ZD-T*);
* :mod:`.versus` — two teams: the secret setup, the roll-off, the alternation (ZD-C9,
  ZD-B4);
* :mod:`.bogeys` — the Red Force's activations and complications (ZD-C4, ZD-C6, FR-P4),
  carrying out the choices of :mod:`..red_force`;
* :mod:`.deck` — the Control Deck: flips, cards played, the second deck, the turn
  (ZD-C6, ZD-C7, ZD-B*);
* :mod:`.game` — :class:`ZeroDarkState` and the phase table that assembles the rest.

This package holds the umpire's whole truth: the position (map, doors, models), the
secret types and flags of the pings (FR-P4), the Control Deck's order, the secret picks
of the priority tasks (the double agent, the Boss to assassinate), and the activation
in progress. What a seat receives is built in :mod:`..observer` from public fields and
the events addressed to it; the state imports neither it nor the bots.

The order of play (solo, ZD-C9). The team chooses a hero or an ally to activate
(``activate H2``). Its activation (ZD-C2) is

1. one **automatic action**: a move of up to M single steps (``step D7`` …, closed by
   ``stop`` or by ``face NE``), a turn to a new facing (``face SW``), an interaction
   without a test (``door D7 e``), leaving by the exit (``exit``), or verifying a down
   Boss (``verify B3``, ZD-T4);
2. then one **tested action** (ZD-C1 tests): ``shoot B2`` (ZD-C3), ``dotlight B2``
   (ZD-L*), ``interact`` (an objective A(12), the dead-drop A(16)), ``cautious``
   (A(10), ZD-C10) or ``pass``; each success beyond the first is a **bonus action**:
   another automatic action (``done`` forgoes the rest).

A model that moves into engagement fights CQB at once (ZD-C5); against a bogey that is
susceptible (ZD-P0) the team chooses ``fight`` or ``persuade`` (ZD-P1). After the
activation the umpire flips the Control Deck — or the team plays a card from the
Spook's hand instead (``flip`` / ``play 7H``, ZD-C7) — and the bogey or ping it
activates moves, then fights CQB or shoots (ZD-C4). The mission ends when the deck is
exhausted (with buying time, the set-aside cards are a second deck, ZD-B3), or when no
hero is left on the table; the report lists the XP (ZD-C8, ZD-T2, ZD-T7).
"""

from ..profiles import BOGEYS, HERO, PING_LABEL, BogeyStats, HeroStats
from .game import WORDS, ZeroDarkState
from .options import (
    ALLY_LINE,
    FLAGS,
    MAX_ALLIES,
    MAX_BOGEYS,
    MAX_COMPLICATIONS,
    MAX_RED_FORCE,
    WIN_CONDITIONS,
    PingSpec,
    StatLineError,
    parse_ally,
    parse_red_force,
    parse_red_force_specs,
    parse_susceptible,
    parse_win,
)
from .pieces import (
    TEAM,
    Cqb,
    Kind,
    Phase,
    Report,
    Resume,
    Reunite,
    Side,
    TaskReport,
    XpReport,
)

__all__ = [
    "ALLY_LINE",
    "BOGEYS",
    "FLAGS",
    "HERO",
    "MAX_ALLIES",
    "MAX_BOGEYS",
    "MAX_COMPLICATIONS",
    "MAX_RED_FORCE",
    "PING_LABEL",
    "TEAM",
    "WIN_CONDITIONS",
    "WORDS",
    "BogeyStats",
    "Cqb",
    "HeroStats",
    "Kind",
    "Phase",
    "PingSpec",
    "Report",
    "Resume",
    "Reunite",
    "Side",
    "StatLineError",
    "TaskReport",
    "XpReport",
    "ZeroDarkState",
    "parse_ally",
    "parse_red_force",
    "parse_red_force_specs",
    "parse_susceptible",
    "parse_win",
]
