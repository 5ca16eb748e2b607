"""Drawing a Zero Dark view in the terminal (rich), from the view alone.

Models are drawn by id with an arrow for their facing (``H1↗``, ``B2↙``; a ping as the
counter it is, ``P3?``, from P10 on ``?12``; any other id of three characters has no
room for the arrow, and the key under the map gives every facing), coloured by side
(heroes and allies cyan, the second Versus team yellow, bogeys red, pings magenta) and
styled by state (down: dim italic; out of action: struck through; targeted:
underlined); a bogey's support tokens are dots in the gap under its square (``••``)
where no wall runs. Doors are drawn as the view says they
stand. Under the map: the turn, the hero acting, the Control Deck, the characters and
bogeys with facing, wounds, support tokens and state, the Spook's hand and task, and this
activation's events.

:func:`render_view` is the rule set's drawing (``replay``, ``play``): the view and the
game's options, whose ``map`` it draws on; :func:`draw_view` draws a view's typed data
(:class:`~.observer.ZeroDarkView`) on a given map.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from ...core.game import PlayerView, Screen, plain_event, sentence
from ...core.grid import Board, Edge, Square, render_rich
from .maps import map_for
from .observer import ModelView, ZeroDarkView, view_data

__all__ = [
    "ARROWS",
    "acting_seat",
    "draw_view",
    "model_mark",
    "model_style",
    "render_view",
    "support_mark",
]


_LINES: dict[str, str] = {
    "flip": "flip {card} ({left} left)",
    "activated": "{model} activates",
    "ping_step": "{model} → {square}",
    "bogey_step": "{model} → {square}",
    "step": "{model} → {square}",
    "ping_placed": "{ping} placed on {square}",
    "complication": "complication ({card})",
    "face": "{model} faces {facing}",
    "mission_end": "mission over: {reason} [{rule}]",
    "wounded": "{model} wounded ({wounds})",
    "down": "{model} down",
    "dead": "{model} dead",
    "played": "the Spook plays {card}",
    "persuaded": "{bogey} is persuaded: now {ally} [{rule}]",
    "cancelled": "{card} is cancelled by the cautious move: no bogey acts [{rule}]",
}
"""One line of text per event kind shown under the map (others are not shown)."""


def event_line(e: Mapping[str, Any]) -> str | None:
    kind = e["kind"]
    if kind == "ping_revealed":
        article = "an" if e["tier"][0] in "aeiou" else "a"
        return f"{e['ping']} is {article} {e['tier']} ({e['face']}): now {e['bogey']} [{e['rule']}]"
    if kind == "test":
        n = e["successes"]
        return (
            f"{e['who']} {e['purpose']}: {e['dice']}d12 at TN {e['tn']} rolled "
            f"{' '.join(str(d) for d in e['rolled'])} → {n} success{'' if n == 1 else 'es'}"
        )
    if kind == "activated" and e.get("down"):
        return f"{e['model']} activates but is down: it does nothing [{e['rule']}]"
    if kind == "door":
        return f"{e['model']} {'opens' if e['open'] else 'closes'} the door {e['edge']}"
    template = _LINES.get(kind)
    return None if template is None else template.format(**e)


def _yes(value: object) -> str:
    return "yes" if value else "no"


_SENTENCES: dict[str, Any] = {
    "activation": lambda e: f"Turn {e['turn']}: {e['model']} is activated.",
    "activation_end": lambda e: f"{e['model']}'s activation ends.",
    "bonus_actions": lambda e: (
        f"{e['model']} gains {e['count']} bonus action{'' if e['count'] == 1 else 's'} "
        f"[{e['rule']}]."
    ),
    "boss_target": lambda e: f"{e['bogey']} is the boss to take down [{e['rule']}].",
    "buying_time": lambda e: (
        f"{e['spook']} buys time: {e['cards']} cards from the Control Deck [{e['rule']}]."
    ),
    "buying_time_choices": lambda e: (
        "Buying time: "
        + ", ".join(f"{k} {_yes(v)}" for k, v in e["choices"].items())
        + f" [{e['rule']}]."
    ),
    "cautious": lambda e: f"{e['model']} moves cautiously [{e['rule']}].",
    "cqb": lambda e: (
        f"Close quarters: {e['model']} and {e['bogey']} ({e['moved']} moved"
        + (", persuasion possible)." if e.get("persuade") else ").")
    ),
    "cqb_choice": lambda e: f"{e['model']} may fight or persuade {e['bogey']} [{e['rule']}].",
    "dotlight": lambda e: (
        f"{e['model']} puts a dotlight on {e['target']} at range {e['range']} ({e['status']})."
    ),
    "double_agent": lambda e: f"{e['bogey']} is the double agent [{e['rule']}].",
    "hand_drawn": lambda e: f"{e['spook']} draws a hand of {e['cards']} cards [{e['rule']}].",
    "only_down": lambda e: f"{e['model']} can only be put down, not killed [{e['rule']}].",
    "pass": lambda e: f"{e['model']} passes.",
    "prepared": lambda e: (
        f"{e['seat']} has chosen its task ({e['task']}) and "
        + ("buys time." if e.get("buy") else "does not buy time.")
    ),
    "roll_off": lambda e: (
        "Roll-off: "
        + ", ".join(f"{k} {v}" for k, v in e["rolls"].items())
        + f"; {e['first']} goes first."
    ),
    "shoot": lambda e: (
        f"{e['model']} shoots at {e['target']} at range {e['range']} ({e['status']})."
    ),
    "support_removed": lambda e: (
        f"{e['model']} loses a support token ({e['left']} left) [{e['rule']}]."
    ),
    "targeted": lambda e: f"{e['model']} is targeted by {e['by']} [{e['rule']}].",
    "task": lambda e: f"{e['spook']}'s priority task: {e['task']} [{e['rule']}].",
    "turn": lambda e: f"Turn {e['turn']}.",
    "acquired": lambda e: f"{e['model']} acquires the dead drop on {e['square']} [{e['rule']}].",
    "ally_lost": lambda e: f"{e['hero']} loses its ally {e['ally']} [{e['rule']}].",
    "dependent": lambda e: f"{e['ally']} depends on {e['hero']} [{e['rule']}].",
    "exit": lambda e: f"{e['model']} leaves by the exit on {e['square']} [{e['rule']}].",
    "objective": lambda e: f"{e['model']} completes the objective on {e['square']} [{e['rule']}].",
    "second_deck": lambda e: (
        f"The Control Deck is used up: a second deck of {e['cards']} cards [{e['rule']}]."
    ),
    "verified": lambda e: f"{e['model']} verifies the boss {e['boss']} [{e['rule']}].",
}


def event_sentence(e: Mapping[str, Any]) -> str:
    """One Zero Dark event as a line for people: the line drawn under the map where
    there is one, else its sentence, else its fields."""
    try:
        line = event_line(e)
    except (KeyError, TypeError, ValueError):  # a field the drawn line did not expect
        line = None
    return line or sentence(_SENTENCES, e) or plain_event(e)


TIER_LETTERS: dict[str, str] = {"grunt": "g", "elite": "e", "boss": "b", "special": "s"}
"""A face-down ping's tier, shown in its mark once the game is over (``P3e``, ``b12``)."""

ARROWS: dict[str, str] = {"NE": "↗", "NW": "↖", "SE": "↘", "SW": "↙"}
"""The facing arrows drawn after a model's id (FR-L5: four diagonal facings)."""


def model_mark(m: ModelView) -> str:
    """A model's mark on the map: its id and facing arrow (a ping: ``?``)."""
    mid = str(m["id"])
    if m["kind"] == "ping":
        # FR-P4: a ping's type is unknown, and its "?" says so on every ping. A square
        # holds three characters, so from P10 on the "?" takes the P's place (?12).
        # Once the game is over the view tells every ping's tier: its letter instead.
        mark = TIER_LETTERS.get(str(m.get("tier") or ""), "?")
        return f"{mid}{mark}" if len(mid) < 3 else f"{mark}{mid[1:]}"[:3]
    if len(mid) >= 3:
        return mid[:3]
    return mid + ARROWS.get(str(m.get("facing")), "")


def support_mark(m: ModelView) -> str:
    """A bogey's support tokens under its square (ZD-C4): a dot each, ``•4`` past 3."""
    n = int(m.get("support") or 0)
    if n <= 0:
        return ""
    return "•" * n if n <= 3 else f"•{n}"


def model_style(m: ModelView, second_team: str | None = None) -> str:
    """A model's rich style on the map: its side's colour, then its state."""
    kind = m["kind"]
    if kind == "ping":
        style = "bold magenta"
    elif kind == "bogey":
        style = "bold red"
    elif second_team is not None and m.get("team") == second_team:
        style = "bold yellow"
    else:
        style = "bold cyan"
    state = m.get("state", "active")
    if state == "down":
        style += " dim italic"
    elif state == "ooa":
        style += " dim strike"
    if m.get("targeted"):
        style += " underline"
    return style


LEGEND: tuple[tuple[str, str], ...] = (
    ("H1↗", "a hero and its facing (↗ NE, ↖ NW, ↘ SE, ↙ SW); cyan"),
    ("A1↙", "an ally (cyan); in Versus the second team is yellow"),
    ("B2↙", "a bogey (red); underlined: targeted"),
    ("P3? ?12", "a ping: a counter whose type is not known yet (magenta); ?12 is P12"),
    ("P3e b12", "after the game: a ping's tier (g grunt, e elite, b boss, s special)"),
    ("dim / struck", "a model down / out of action"),
    ("••", "a bogey's support tokens, under its square (•4: four)"),
    ("│ ───", "a wall"),
    ("║ ═══", "a closed door"),
    ("┆ ┄┄┄", "an open door"),
)
"""The map's model and edge symbols, for ``legend`` (each map adds its terrain)."""


def legend_of(board: Board) -> tuple[tuple[str, str], ...]:
    """:data:`LEGEND` and ``board``'s terrain characters."""
    terrain = tuple(
        (t.char, f"{t.name} (Cyl {t.cyl}{', blocks sight' if t.opaque else ''}"
         f"{', impassable' if not t.passable else ''})")
        for t in board.legend.values()
    )  # fmt: skip
    return LEGEND + terrain


def screen_view(view: PlayerView, config: Mapping[str, Any]) -> Screen:
    """The map apart from the facts under it (for a terminal of any size), with the
    active model — else the seat's first hero — in focus."""
    data = view_data(view)
    board = map_for(str(config["map"]))
    drawn = draw_view(data, board, view.seat)
    parts = list(drawn.renderables) if isinstance(drawn, Group) else [drawn]
    focus = None
    mine = [m for m in data["models"] if m["kind"] in ("hero", "ally")]
    active = [m for m in mine if m["id"] == data.get("active")]
    if active or mine:
        sq = board.square((active or mine)[0]["squares"][0])
        # The map's text: letters, the top border, then a line of squares and a line of
        # edges per row; a square is four characters after the row's label.
        focus = (2 + 2 * sq.row, 4 + 4 * sq.col)
    return Screen(
        board=parts[0], facts=Group(*parts[1:]), header=1, margin=4, focus=focus,
        legend=legend_of(board),
    )  # fmt: skip


def render_view(view: PlayerView, config: Mapping[str, Any]) -> RenderableType:
    """The map of ``config`` (the game's options) with the models ``view``'s seat knows
    of, and the facts under it."""
    return draw_view(view_data(view), map_for(str(config["map"])), view.seat)


def _seat_of(view: ZeroDarkView, model_id: str) -> str | None:
    """The Versus team that plays a model, from the view: its own team, else (an ally)
    its hero's; None where the view does not say."""
    models = {m["id"]: m for m in view["models"]}
    m = models.get(model_id)
    if m is None:
        return None
    if m.get("team"):
        return m["team"]
    hero = models.get(str(m.get("hero") or ""))
    return None if hero is None else hero.get("team")


def acting_seat(view: ZeroDarkView, seat: str | None = None) -> str | None:
    """The Versus seat to act now, as the view tells it (None in solo, or once the
    mission is over). ``turn_seat`` is whose activation comes next, not who acts: while
    both teams record their choices (ZD-B4) each acts at once, so the seat looking
    (``seat``) is named when it still has to; the Red Force's answer is the team whose
    activation it follows (ZD-C9); a CQB choice and an activation are the model's team's."""
    turn_seat = view.get("turn_seat")
    if not turn_seat or view["phase"] == "over" or view.get("outcome"):
        return None
    phase = view["phase"]
    if phase == "prepare":
        waiting = [s for s, side in (view.get("sides") or {}).items() if not side["recorded"]]
        if seat in waiting:
            return seat
        return " and ".join(waiting) or None
    if phase == "red":
        return view.get("red_seat") or turn_seat
    queue = view.get("cqb_queue") or []
    if phase == "cqb" and queue:
        return _seat_of(view, queue[0][0]) or turn_seat
    active = view.get("active")
    if active:
        return _seat_of(view, active) or turn_seat
    return turn_seat


def draw_view(view: ZeroDarkView, board: Board, seat: str | None = None) -> RenderableType:
    """The map with the models of ``view`` and the facts under it; ``seat`` is the seat
    looking (named as the one to act while several act at once)."""
    marks: dict[Square, str] = {}
    styles: dict[Square, str] = {}
    under: dict[Square, tuple[str, str]] = {}
    teams = sorted((view.get("sides") or {}).keys())
    second = teams[1] if len(teams) > 1 else None
    for m in view["models"]:
        for name in m["squares"]:
            sq = board.square(name)
            marks[sq] = model_mark(m)
            styles[sq] = model_style(m, second)
        tokens = support_mark(m)
        if tokens:
            under[board.square(m["squares"][0])] = (tokens, "yellow")
    opened = [Edge.parse(name) for name, is_open in view["doors"].items() if is_open]
    picture = render_rich(
        board, marks=marks, mark_styles=styles, under_marks=under, open_doors=opened
    )
    phase = view["phase"]
    doing = {
        "choose": "choose who acts",
        "move": f"{view['active']}: automatic action ({view['steps']} steps)",
        "tested": f"{view['active']}: tested action (shoot, interact, cautious, pass)",
        "bonus": f"{view['active']}: {view['bonus']} bonus action(s)",
        "cqb": "CQB: fight or persuade",
        "red": "flip the Control Deck, or play a card from the hand",
        "over": "the mission is over",
        "prepare": "each team records its task and buying time in secret",
    }.get(phase, phase)
    deck = view["deck"]
    to_act = acting_seat(view, seat)
    facts = Text(
        (f"{to_act} to act · " if to_act else "")
        + f"turn {view['turn']} · "
        # Versus: the deck's count with the hands' cards (a hand's size is secret).
        + ("deck and hands" if view.get("mode") == "versus" else "deck")
        + f" {deck['left']} left"
        + (f" · {deck['set_aside']} set aside" if deck.get("set_aside") else "")
        + f" · {doing}"
        + (f" · acted: {', '.join(view['acted'])}" if view["acted"] else "")
    )
    hand = view.get("hand")
    extra = []
    if hand:
        extra.append(f"hand: {' '.join(hand)}")
    for seat, side in (view.get("sides") or {}).items():
        label = "" if seat == "team" else f"{seat} "
        if side.get("task") and side["task"] != "none":
            extra.append(f"{label}task: {side['task']}")
        if side.get("buying_time"):
            extra.append(f"{label}buying time")
        # The task's secret picks, shown once the game is over (ZD-T3, ZD-T4).
        if side.get("double_agent"):
            extra.append(f"{label}double agent: {side['double_agent']}")
        if side.get("boss_target"):
            extra.append(f"{label}Boss to assassinate: {side['boss_target']}")
    done = [k for k, v in view.get("objectives", {}).items() if v]
    if view.get("objectives"):
        extra.append(f"objectives: {len(done)}/{len(view['objectives'])} done")
    heroes = [
        f"{m['id']} {m['squares'][0]} {ARROWS.get(m['facing'], '')}{m['facing']}"
        + (f" {m['wounds']}w" if m.get("wounds") else "")
        + ("" if m["state"] == "active" else f" ({m['state']})")
        for m in view["models"]
        if m["kind"] in ("hero", "ally")
    ]
    bogeys = [
        f"{m['id']} {m['tier']} {m['squares'][0]} {ARROWS.get(m['facing'], '')}{m['facing']}"
        + (f" support {m['support']}" if m.get("support") else "")
        + (f" {m['wounds']}w" if m.get("wounds") else "")
        + (" targeted" if m.get("targeted") else "")
        + ("" if m["state"] == "active" else f" ({m['state']})")
        for m in view["models"]
        if m["kind"] == "bogey"
    ]
    recent: list[str] = []
    for e in reversed(view["events"]):
        if e["kind"] == "activation":
            break
        line = event_line(e)
        if line is not None:
            recent.append(line)
    parts: list[RenderableType] = [picture, facts, Text("; ".join(heroes))]
    if bogeys:
        parts.append(Text("; ".join(bogeys)))
    if extra:
        parts.append(Text(" · ".join(extra)))
    report = view.get("report")
    if report:
        xp = ", ".join(f"{h} {v['total']} XP" for h, v in report["xp"].items())
        parts.append(Text(f"mission {report['result']}: {report['reason']}; {xp}", style="bold"))
    if recent:
        parts.append(Text("\n".join(reversed(recent[-12:])), style="dim"))
    return Group(*parts)
