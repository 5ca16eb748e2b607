"""Helpers shared by the Zero Dark (FEAR) rule tests: small boards from text, models,
positions, and the "surgery" that puts a game into a chosen position (each caller says
so).

Test boards use one tiny legend:

====  ============  ==========  ===========  ===
char  name          passable    sight        Cyl
====  ============  ==========  ===========  ===
``.`` floor         passable    transparent  0
``c`` crates        impassable  transparent  2
``w`` low wall      impassable  transparent  3
``t`` tall          passable    transparent  5
``X`` block         impassable  opaque       9
====  ============  ==========  ===========  ===
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

from fogofwar.core.cards import Deck, PlayingCard, playing_cards
from fogofwar.core.errors import IllegalActionError
from fogofwar.core.game import Action, Event, get_ruleset
from fogofwar.core.grid import Board, Square, parse_board
from fogofwar.games.zero_dark.fear import FearRules, Model, Position
from fogofwar.games.zero_dark.state import HERO, TEAM, ZeroDarkState

RS = get_ruleset("zero-dark")

LEGEND = """\
[legend]
.  floor     passable    transparent
c  crates    impassable  transparent  cyl=2
w  low_wall  impassable  transparent  cyl=3
t  tall      passable    transparent  cyl=5
X  block     impassable  opaque       cyl=9
"""


def board_text(
    rows: str,
    *,
    walls: Iterable[str] = (),
    doors: Iterable[str] = (),
    markers: Mapping[str, str] | None = None,
    name: str = "Test",
) -> str:
    """The text of a board file: terrain rows (one text, one row a line, indentation
    ignored), ``walls`` as ``[walls]`` lines (``"C3 e"``, ``"B2-D4 box"``), ``doors`` as
    ``[doors]`` lines (``"C3 e closed"``), ``markers`` mapping names to square lists."""
    lines = [f"name: {name}", LEGEND, "[terrain]"]
    lines += [row.strip() for row in rows.strip().splitlines() if row.strip()]
    walls, doors = list(walls), list(doors)
    if walls:
        lines += ["[walls]", *walls]
    if doors:
        lines += ["[doors]", *doors]
    if markers:
        lines += ["[markers]", *(f"{k}: {v}" for k, v in markers.items())]
    return "\n".join(lines) + "\n"


def board(
    rows: str,
    *,
    walls: Iterable[str] = (),
    doors: Iterable[str] = (),
    markers: Mapping[str, str] | None = None,
    name: str = "Test",
) -> Board:
    """A board parsed from :func:`board_text`'s text."""
    text = board_text(rows, walls=walls, doors=doors, markers=markers, name=name)
    return parse_board(text, file=f"{name}.board")


def open_board(width: int = 9, height: int = 9) -> Board:
    """An empty floor of ``width`` x ``height`` squares."""
    return board("\n".join(["." * width] * height))


def sq(name: str) -> Square:
    """A square from board notation (``"C3"``)."""
    return Square.parse(name)


def names(squares: Iterable[Square]) -> list[str]:
    """Square names, sorted by row then column."""
    return [s.name for s in sorted(squares)]


def hero(mid: str, square: str, **kw: Any) -> Model:
    """A hero (a character), Cyl 3 facing NE unless told."""
    return Model(mid, "hero", sq(square), **kw)


def ally(mid: str, square: str, **kw: Any) -> Model:
    """An ally (a character)."""
    return Model(mid, "ally", sq(square), **kw)


def bogey(mid: str, square: str, tier: str = "grunt", **kw: Any) -> Model:
    """A revealed bogey (Cyl 3 unless told)."""
    return Model(mid, "bogey", sq(square), tier=tier, **kw)


def ping(mid: str, square: str, **kw: Any) -> Model:
    """A face-down ping counter."""
    return Model(mid, "ping", sq(square), **kw)


def position(b: Board, *models: Model, **rules: Any) -> Position:
    """A position on ``b`` with the doors as the board sets them; ``rules`` are the
    :class:`FearRules` switches."""
    return Position.initial(b, models, FearRules(**rules))


def deck_of(*codes: str, fill: bool = True) -> Deck[PlayingCard]:
    """A Control Deck whose top cards are ``codes`` (``"5S"``, ``"QH"``, ``"BJ"``), in
    that order, followed (``fill``) by the rest of the 54 cards in their fixed order."""
    top = [PlayingCard.parse(c) for c in codes]
    cards = list(top)
    if fill:
        rest = playing_cards(jokers=True)
        for card in top:
            rest.remove(card)
        cards += rest
    return Deck(cards, name="control")


def surgery_game(
    b: Board,
    models: Sequence[Model],
    *,
    ping_types: Mapping[str, str] | None = None,
    deck: Deck[PlayingCard] | None = None,
    seed: int = 0,
    **config: Any,
) -> ZeroDarkState:
    """A ``zero-dark`` game put into a chosen position.

    Surgery: a game is made on ``zd-open`` (one grunt ping), then its position is
    replaced by ``models`` on ``b`` (with the game's ruling switches), the secret ping
    types by ``ping_types`` (every ping a grunt unless told), the hero profiles by the
    default hero's, the event list emptied, and the Control Deck replaced by ``deck``
    when given. No reveal check runs: the position is taken as it is.
    """
    heroes = [m for m in models if m.kind == "hero"]
    config.setdefault("spook", False)  # no hand: every activation ends with a flip
    state = RS.new_game(
        {"map": "zd-open", "heroes": max(1, len(heroes)), "red_force": "grunt=1", **config},
        seed,
    )
    assert isinstance(state, ZeroDarkState)
    state.position = Position.initial(b, models, state.position.rules)
    pings = [m.id for m in models if m.kind == "ping"]
    types = {p: "grunt" for p in pings}
    types.update(ping_types or {})
    state.ping_types = types
    state.pings_made = max((int(p[1:]) for p in pings), default=0)
    bogeys = [m for m in models if m.kind == "bogey"]
    state.bogeys_made = max((int(m.id[1:]) for m in bogeys), default=0)
    state.support = {m.id: 0 for m in bogeys}
    state.ping_flags = {p: frozenset() for p in pings}
    state.hero_stats = {h.id: HERO for h in heroes}
    state.xp = {h.id: 0 for h in heroes}
    state.upgrades = {h.id: [] for h in heroes}
    state.events.clear()
    if deck is not None:
        state.deck = deck
    return state


def act(state: ZeroDarkState, kind: str, *args: str) -> list[Event]:
    """Apply the team's action ``kind args`` (checked)."""
    return state.apply(Action(TEAM, kind, tuple(args)))


def finish(state: ZeroDarkState) -> list[Event]:
    """After the automatic action: no tested action (``pass``), so the flip comes."""
    return act(state, "pass") if state.phase == "tested" else []


def of_kind(events: Iterable[Event], kind: str) -> list[dict[str, Any]]:
    """The data of the events of ``kind``."""
    return [dict(e.data) for e in events if e.kind == kind]


def legal(state: ZeroDarkState) -> list[tuple[str, tuple[Any, ...]]]:
    """The team's legal actions as (kind, args) pairs."""
    return [(a.kind, a.args) for a in state.legal_actions(TEAM)]


def dist(state: ZeroDarkState, a: str, b: str) -> int:
    """The FR-R1 range between two models (there is a route)."""
    found = state.position.range(a, b)
    assert found is not None
    return found


def kinds(state: ZeroDarkState) -> set[str]:
    """The kinds of the team's legal actions."""
    return {a.kind for a in state.legal_actions(TEAM)}


def illegal_rule(state: ZeroDarkState, kind: str, *args: str) -> str | None:
    """The rule ID an illegal action of the team is refused with."""
    with pytest.raises(IllegalActionError) as info:
        act(state, kind, *args)
    return info.value.rule
