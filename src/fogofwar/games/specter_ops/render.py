"""Drawing a Specter Ops view in the terminal (rich).

Built from a seat's **view** alone (its typed structure,
:class:`~.observer.SpecterOpsView`) and the public board, never from the game state:
what is drawn is exactly what that seat may know. The hunters' possibility map is
shaded; the agent's own seat also sees its square, this turn's path and its objective
sites.

Cells are two characters wide. Priority of what a cell shows, highest first: a hunter on
foot, the vehicle (with the number of hunters aboard), a placed agent (``A!``, ``B!`` for
the second agent), the agent's own square in its seat's view (``A@``; ``A*`` after the
game, in every view), a Last Seen token (``?1``/``?2``), an objective site (``O1``…,
``X1``… once completed), an escape point (``E``), smoke (``~~``), then the terrain
(``██`` blocking, ``··`` road).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ...core.game import PlayerView, Screen, plain_event, sentence
from .characters import AGENTS, CARDS, HUNTERS
from .geometry import Geometry, geometry_for
from .observer import SpecterOpsView, maps_on_board, view_data

__all__ = ["render_view"]

POSSIBLE = "on grey23"
PATH = "on dark_red"
#: An empty square or a road, drawn possible or on the path: (possible, path); a
#: square with a figure or a mark keeps it (the colour still shades it).
_SHADES: dict[str, tuple[str, str]] = {"  ": ("░░", "▒▒"), "··": ("░·", "▒·")}


def _cells(view: SpecterOpsView, geo: Geometry) -> dict[int, tuple[str, str]]:
    """What each marked square shows: ``index -> (two characters, style)``."""
    out: dict[int, tuple[str, str]] = {}

    def mark(name: str | None, text: str, style: str) -> None:
        if name is not None:
            out.setdefault(geo.parse(name), (text[:2].ljust(2), style))

    for h in view["hunters"]:
        if not h["aboard"]:
            mark(h["square"], h["id"], "bold magenta" if h["stunned"] else "bold cyan")
    aboard = sum(1 for h in view["hunters"] if h["aboard"])
    mark(view["vehicle"]["square"], f"V{aboard}" if aboard else "V", "bold blue")
    agent2 = view.get("agent2")
    placed = [view["agent"]["revealed_at"], None if agent2 is None else agent2["revealed_at"]]
    for k, square in enumerate(placed):
        mark(square, "A!" if k == 0 else "B!", "bold red")
    secret = view.get("secret")
    mark(None if secret is None else secret["square"], "A@", "bold red")
    final = view.get("final")
    if final is not None:  # after the game: every secret
        mark(final["agent_square"], "A*", "bold red")
        second = final.get("agent2")
        mark(None if second is None else second["square"], "B*", "bold red")
    tokens = [view["agent"]["last_seen"], None if agent2 is None else agent2["last_seen"]]
    for k, square in enumerate(tokens):
        mark(square, f"?{k + 1}", "bold yellow")
    sites = {o["sector"]: (o["site"], o["done"]) for o in view["objectives"]}
    own = (None if secret is None else secret.get("objective_sites")) or []
    for sector, (site, done) in sites.items():
        if site is None and sector - 1 < len(own):
            site = own[sector - 1]  # the agent's own map knows the hidden sites
        mark(site, f"{'X' if done else 'O'}{sector}", "bold green" if done else "green")
    for e in (*geo.escape, *(geo.escape_five if view["players"] == 5 else ())):
        out.setdefault(e, ("E ", "bold white"))
    for name in view["smoke"]:
        mark(name, "~~", "white")
    return out


def _board(view: SpecterOpsView, geo: Geometry) -> Text:
    cells = _cells(view, geo)
    possible = {geo.parse(n) for names in maps_on_board(view) for n in names}
    secret = view.get("secret")
    path = {geo.parse(n) for n in ([] if secret is None else secret["path"])}
    text = Text()
    header = "   " + "".join(geo.name(c)[:-1].ljust(2) for c in range(geo.width))
    text.append(header.rstrip() + "\n", style="dim")
    for row in range(geo.height):
        text.append(f"{row + 1:>2} ", style="dim")
        for col in range(geo.width):
            i = row * geo.width + col
            if i in cells:
                chars, style = cells[i]
            elif not geo.passable >> i & 1:
                chars, style = "██", "grey35"
            elif geo.road >> i & 1:
                chars, style = "··", "grey50"
            else:
                chars, style = "  ", ""
            # Shaded squares carry a glyph as well as a colour: a drawing without colours
            # (NO_COLOR, an RL environment's "ansi" text, a log) keeps the map.
            shade = _SHADES.get(chars)
            if i in path:
                style += " " + PATH
                if shade is not None:
                    chars, style = shade[1], f"grey50 {PATH}"
            elif i in possible:
                style += " " + POSSIBLE
                if shade is not None:
                    chars, style = shade[0], f"grey50 {POSSIBLE}"
            text.append(chars, style=style.strip())
        text.append("\n")
    return text


def _accusations(made: object) -> str:
    """Who accused whom (``H1 → H3``), or ``none``."""
    if isinstance(made, Mapping):
        return ", ".join(f"{k} → {v}" for k, v in made.items()) or "none"
    if isinstance(made, list | tuple):
        return ", ".join(str(x) for x in made) or "none"
    return str(made)


def _named(thing: object) -> str:
    """A character's name, or "?" while the seat does not know it."""
    return "?" if not thing else _name(thing).removeprefix("the ")


def _cards_left(cards: Mapping[str, int] | None) -> str:
    """``Smoke Grenade 1, Med Kit 2`` (uses left), or ``-``."""
    return ", ".join(f"{_name(c)} {n}" for c, n in (cards or {}).items()) or "-"


def _final_line(final: Mapping[str, Any]) -> str:
    """Every secret after the game, in words."""
    parts = [
        f"the agent on {final['agent_square']}",
        f"objective sites {', '.join(final['objective_sites'])}",
    ]
    if final.get("character"):
        parts.append(f"character {_named(final['character'])}")
    if final.get("cards") is not None:
        parts.append(f"cards {_cards_left(final['cards'])}")
    if "traitor" in final:
        parts.append(f"traitor {final['traitor'] or 'none'}")
    if final.get("concealed"):
        parts.append(f"{len(final['concealed'])} concealed sightings")
    second = final.get("agent2")
    if second:
        parts.append(
            f"A2 on {second['square']} ({_named(second['character'])}, cards "
            f"{_cards_left(second['cards'])})"
        )
    return "; ".join(parts)


def _known(value: object) -> object:
    """A value the seat may not know yet: ``?``."""
    return "?" if value is None else value


def _facts(view: SpecterOpsView, seat: str | None) -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    table.add_row("seat", seat or "spectator")
    table.add_row("round", f"{view['round']} of {view['max_rounds']}")
    to_act = ", ".join(view["to_act"])
    table.add_row("phase", f"{view['phase']} — to act: {to_act}" if to_act else view["phase"])
    agent = view["agent"]
    secret = view.get("secret")
    # The agent's own seat knows its character; the others see "?" until it is public.
    own = secret.get("character") if secret else None
    table.add_row(
        "agent",
        f"objectives {agent['objectives_done']}/4, health {_known(agent['health'])}, "
        f"character {_named(agent['character'] or own)}",
    )
    a2 = view.get("agent2")
    if a2:
        table.add_row(
            "agent A2",
            f"health {_known(a2['health'])}, character {_named(a2['character'])}, "
            f"escaped {'yes' if a2['escaped'] else 'no'}",
        )
    hunters = ", ".join(
        f"{h['id']} {h['square']}{' (aboard)' if h['aboard'] else ''}"
        f"{' stunned' if h['stunned'] else ''}"
        f"{' ' + _named(h['character']) if h['character'] else ''}"
        for h in view["hunters"]
    )
    table.add_row("hunters", hunters)
    role = view.get("role")
    if role:
        proves = role.get("proves")
        table.add_row(
            "your role",
            str(role["role"]) + (f"; the record proves {proves} the traitor" if proves else ""),
        )
    traitor = view.get("traitor")
    if traitor:
        table.add_row(
            "traitor",
            f"revealed: {traitor['revealed'] or 'no'}, accusations "
            f"{_accusations(traitor['accusations'])}",
        )
    if secret:
        table.add_row(
            "secret",
            f"on {secret['square']}, path {'-'.join(secret['path'])}, health "
            f"{secret['health']}, cards {_cards_left(secret['cards'])}",
        )
    n = view["possible_count"]
    table.add_row("possible", f"{n} square{'' if n == 1 else 's'} (shaded)")
    outcome = view["outcome"]
    if outcome:
        table.add_row("result", f"{', '.join(outcome['sides'])} won: {outcome['reason']}")
    final = view.get("final")
    if final:
        table.add_row("final", _final_line(final))
    return table


def _name(thing: Any) -> str:
    """A character's or card's name (``the Cobra``, ``Smoke Grenade``) from its id."""
    key = str(thing)
    for table in (AGENTS, HUNTERS):
        if key in table:
            return f"the {table[key].name}"
    if key in CARDS:
        return CARDS[key].name
    return key.replace("-", " ")


_COMPASS = {
    "N": "north", "NE": "north-east", "E": "east", "SE": "south-east",
    "S": "south", "SW": "south-west", "W": "west", "NW": "north-west",
}  # fmt: skip


def _sites(objectives: Any) -> str:
    return ", ".join(f"sector {o['sector']} {o['site']}" for o in objectives or ())


def _agent(e: Mapping[str, Any]) -> str:
    return str(e.get("agent") or "the agent")


def _moved(e: Mapping[str, Any]) -> str:
    who = _agent(e).capitalize() if not e.get("agent") else str(e["agent"])
    if e["result"] == "revealed":
        return f"{who} is seen on {e['square']} at the end of its move."
    if e["result"] == "last_seen":
        return f"{who} moved; last seen on {e['square']} (a Last Seen token)."
    return f"{who} moved unseen."


def _attack(e: Mapping[str, Any]) -> str:
    distance = int(e["distance"])
    health = f"{_agent(e)} has {e['health']} health."
    if distance == 0:
        # On the agent's own square no die is rolled: the attack hits (SO-X2).
        return f"{e['hunter']} attacks {_agent(e)} on its own square: a hit, no roll; {health}"
    dice = " ".join(str(d) for d in e.get("dice") or ())
    mod = f" {e['modifier']:+d}" if e.get("modifier") else ""
    result = "hit" if e["hit"] else "miss"
    squares = "square" if distance == 1 else "squares"
    return (
        f"{e['hunter']} attacks {_agent(e)} at {distance} {squares}: rolled {dice}{mod}, "
        f"{result}; {health}"
    )


def _equipment(e: Mapping[str, Any]) -> str:
    where = f" on {e['square']}" if e.get("square") else ""
    target = f" at {e['target']}" if e.get("target") else ""
    moment = f" {e['moment']} its move" if e.get("moment") else ""
    return f"{_agent(e).capitalize()} uses {_name(e['card'])}{where}{target}{moment}."


def _sensor(e: Mapping[str, Any]) -> str:
    answer = e["answer"]
    if answer == "jammed":
        said = "jammed (Signal Jammer)"
    elif answer == "no movement detected":
        said = "no movement detected"
    else:
        said = f"movement to the {_COMPASS.get(answer, answer)} ({answer})"
    return f"{e['hunter']}'s motion sensor: {said}."


_SENTENCES: dict[str, Any] = {
    "setup": lambda e: (
        f"{e['players']} players. The vehicle is on {e['vehicle']}, the hunters "
        f"{', '.join(e['hunters'])} aboard; the agent starts on {e['agent']}"
        + (f" with {e['health']} health." if e.get("health") is not None else ".")
        + (f" Objective sites: {_sites(e['objectives'])}." if e.get("objectives") else "")
    ),
    "objective_sites": lambda e: f"The objective sites: {_sites(e['objectives'])}.",
    "agent_turn": lambda e: f"Round {e['round']}: {_agent(e)}'s turn.",
    "hunter_turn": lambda e: f"{e['hunter']}'s turn.",
    "order": lambda e: f"The hunters send {e['hunter']} next.",
    "agent_moved": _moved,
    "agent_path": lambda e: f"{_agent(e).capitalize()}'s path: {' → '.join(e['path'])}.",
    "agent_character": lambda e: f"{_agent(e).capitalize()} is {_name(e['character'])}.",
    "agent_card": lambda e: f"{_agent(e).capitalize()} takes {_name(e['card'])}.",
    "agent_ready": lambda e: f"The agent has chosen its character and {e['cards']} cards.",
    "agent_used": _equipment,
    "equipment": _equipment,
    "announcement": lambda e: (
        f"{e['hunter']}: the agent is visible on {e['square']}."
        if e["answer"] == "visible"
        else f"{e['hunter']}: clear."
    ),
    "attack": _attack,
    "character_revealed": lambda e: (
        f"{_agent(e).capitalize()} is {_name(e['character'])} ({e['health']} health)."
    ),
    "drive": lambda e: f"{e['hunter']} drives the vehicle to {e['square']}.",
    "got_in": lambda e: f"{e['hunter']} gets into the vehicle on {e['square']}.",
    "got_out": lambda e: f"{e['hunter']} gets out of the vehicle onto {e['square']}.",
    "hunter_step": lambda e: f"{e['hunter']} steps to {e['square']}.",
    "hunter_character": lambda e: f"{e['hunter']} is {_name(e['character'])}.",
    "objectives_completed": lambda e: (
        f"Objective completed: {_sites(e['completed'])} ({e['done']} of 4 done)."
    ),
    "role": lambda e: f"{e['hunter']} is {e['role']}.",
    "roles_dealt": lambda e: f"Roles are dealt to {', '.join(e['hunters'])}.",
    "traitor_dealt": lambda e: f"{e['hunter']} ({e['seat']}) is the traitor.",
    "accusation": lambda e: (
        f"{e['hunter']} accuses {e['accused']}: "
        + ("proven, the traitor is revealed." if e["proven"] else "not proven.")
    ),
    "traitor_revealed": lambda e: f"{e['hunter']} is the traitor ({e['how']}), on {e['square']}.",
    "second_agent": lambda e: f"{e['agent']} enters on {e['square']}, played by {e['seat']}.",
    "concealed_sighting": lambda e: (
        f"{e['hunter']} alone sees the agent on {e['square']} ({e['moment'].replace('_', ' ')})."
    ),
    "sensor": _sensor,
    "sniff": lambda e: (
        f"{e['hunter']} sniffs: the agent is "
        + ("within 4 squares." if e["near"] else "not within 4 squares.")
    ),
    "ambush": lambda e: (
        f"{_agent(e).capitalize()} ambushes {e['hunter']}"
        + (f": rolled {e['roll']}" if e.get("roll") is not None else "")
        + (", stunned." if e["stunned"] else ", not stunned.")
    ),
    "stun_removed": lambda e: f"{e['hunter']} is no longer stunned.",
    "escaped": lambda e: f"{_agent(e).capitalize()} escapes at {e['square']}.",
    "game_over": lambda e: f"Game over: the {e['winner']} win — {e['reason']} [{e['rule']}].",
}


def event_sentence(e: Mapping[str, Any]) -> str | None:
    """One Specter Ops event (its JSON form) as a sentence for people; ``None`` for the
    agent's own note of a public card's use, which the public event that follows tells."""
    if e.get("kind") == "agent_used":
        card = CARDS.get(str(e.get("card")))
        if card is not None and card.public:
            # Every seat is told this use by the ``equipment`` event that follows.
            return None
    return sentence(_SENTENCES, e) or plain_event(e)


def _events(view: SpecterOpsView) -> Text:
    text = Text()
    for e in view["events"][-12:]:
        said = event_sentence(e)
        if said is not None:
            text.append(f"· {said}\n")
    return text


LEGEND: tuple[tuple[str, str], ...] = (
    ("H1…H4", "a hunter on foot (magenta: stunned)"),
    ("V, V2", "the vehicle, with the number of hunters aboard"),
    ("A!", "the agent, placed where the hunters saw it (B!: the second agent)"),
    ("A@", "the agent's own square (only its seat sees it; A* after the game)"),
    ("?1, ?2", "a Last Seen token of the agent (of the second agent)"),
    ("O1…O4", "an objective site by sector (X1…: completed)"),
    ("E", "an escape point"),
    ("~~", "smoke: blocks sight this round"),
    ("██", "blocking terrain: no sight, no steps"),
    ("··", "road: the vehicle drives here"),
    ("░░, ░·", "shaded grey: every square the agent may be on, from what the hunters know"),
    ("▒▒, ▒·", "shaded dark red: the agent's path this turn (its own seat only)"),
)
"""Every symbol of the board, for ``legend`` in the terminal."""


def _focus(view: SpecterOpsView, geo: Geometry, seat: str | None) -> tuple[int, int] | None:
    """The (line, character) of the seat's own figure on :func:`_board`'s text."""
    square: str | None = None
    secret = view.get("secret")
    if seat == "agent" and secret is not None:
        square = secret["square"]
    elif seat is not None and view["hunters"]:
        mine = [h for h in view["hunters"] if seat == f"hunter{h['id'][1:]}"]
        h = (mine or view["hunters"])[0]
        square = view["vehicle"]["square"] if h["aboard"] else h["square"]
    if square is None:
        return None
    i = geo.parse(square)
    return 1 + i // geo.width, 3 + 2 * (i % geo.width)


def screen_view(view: PlayerView, config: Mapping[str, Any]) -> Screen:
    """The board apart from the facts and the events (for a terminal of any size)."""
    data = view_data(view)
    geo = geometry_for(str(config["board"]))
    facts = Group(_facts(data, view.seat), *([_events(data)] if data["events"] else []))
    return Screen(
        board=_board(data, geo),
        facts=facts,
        header=1,
        margin=3,
        focus=_focus(data, geo, view.seat),
        legend=LEGEND,
    )


def render_view(view: PlayerView, config: Mapping[str, Any]) -> object:
    """The board and the facts of one seat's view, as a rich renderable (``config``, the
    game's options, names the board)."""
    data = view_data(view)
    geo = geometry_for(str(config["board"]))
    return Group(_board(data, geo), _facts(data, view.seat), _events(data))
