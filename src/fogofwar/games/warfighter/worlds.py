"""Sampled worlds: a full Warfighter state consistent with a view (for search).

The squad sees everything on the table; what it does not know is the order of the
Location deck and of the Hostile deck, and the seed of every roll to come. A sampled
world rebuilds the table from the view and draws those:

* **The Location deck** holds the mission's deck less the Locations revealed in the
  line's middle slots, in an order drawn uniformly (every order is as likely to the
  squad).
* **The Hostile deck** holds the mission's Hostile deck less its discard pile and less
  the cards drawn into play (both public: every draw is announced), in an order drawn
  uniformly.
* **The rolls to come** use a new seed drawn from the bot's stream; the game's own seed
  never leaves the umpire.

Hostiles and checks that have left play are not in the view; they are kept as
placeholders (dead, gone) under their ids, as many as the view says entered play, so
that new ones are numbered as in the real game.
The world gives the squad exactly the view it was drawn from, and the same legal
actions.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Literal, cast

from ...core.cards import Deck, Pile
from ...core.game import Event, Outcome, PlayerView, Ruleset, kept_table
from ...core.rng import Stream, Streams
from .cards import CheckCard
from .observer import CheckView, HostileView, view_data
from .state import (
    Breach,
    Check,
    CheckId,
    Counts,
    Hostile,
    HostileId,
    Pending,
    Phase,
    Soldier,
    SoldierId,
    WarfighterState,
)

__all__ = ["sample_kept", "sample_world"]


def _number(ident: str) -> int:
    return int(ident[1:])


def _check_card(state: WarfighterState, entry: CheckView) -> CheckCard:
    """The printed check a view's check entry stands for (on its Location's or its
    Hostile's card: the first that reads the same)."""
    source = str(entry["source"])
    if source.startswith("H"):
        cards = state.hostiles[HostileId(source)].card.checks
    else:
        name = state.slots[state.slot_index[source]]
        cards = state.library.locations[str(name)].checks
    for card in cards:
        if (
            card.ability == entry["ability"]
            and card.modifier == entry["modifier"]
            and card.upgun == entry["upgun"]
            and [str(h) for h in card.headings] == entry["headings"]
        ):
            return card
    return cards[0]


def sample_world(ruleset: Ruleset, view: PlayerView, stream: Stream) -> WarfighterState:
    """A state that gives ``view`` to its seat, its unknowns drawn from ``stream`` (see
    the module doc)."""
    return sample_kept(ruleset, view, stream, None)


def sample_kept(
    ruleset: Ruleset, view: PlayerView, stream: Stream, kept: list[Any] | None
) -> WarfighterState:
    """:func:`sample_world`; ``kept``: the table kept for the worlds after the
    first (a :class:`~fogofwar.core.game.KeptSampler`'s list), or ``None``."""
    d = view_data(view)
    seed = f"{stream.bits64():016x}{stream.bits64():016x}"  # 128 bits: the world's own rolls

    def lay() -> tuple[WarfighterState, None]:
        cfg = ruleset.resolve_config(d["config"])
        return _table(cast(WarfighterState, ruleset.new_game(cfg, seed)), d), None

    st, _ = kept_table(kept, lay)
    st._streams = Streams(seed)
    _decks(st, d, stream)
    return st


def _table(st: WarfighterState, d: Any) -> WarfighterState:
    """Everything the view shows, laid on a new mission."""
    mission, library = st.mission, st.library
    # The table, as the view shows it.
    st.turn = d["turn"]
    st.turns = d["turns"]
    st.phase = Phase(d["phase"])
    for i, loc in enumerate(d["locations"]):
        st.slots[i] = (
            (mission.objective if loc["objective"] else loc["card"]) if loc["revealed"] else None
        )
    st.soldiers = {}
    for s in d["soldiers"]:
        sid = SoldierId(s["id"])
        card = library.soldiers[s["name"]]
        st.soldiers[sid] = Soldier(
            sid, card, st.slot_index[s["location"]], s["actions"], s["wounds"], s["out"]
        )
    st.hostiles = {}
    st.checks = {}
    shown_hostiles: dict[int, tuple[int, HostileView]] = {}
    shown_checks: dict[int, tuple[int, CheckView]] = {}
    for i, loc in enumerate(d["locations"]):
        for h in loc.get("hostiles", []):
            shown_hostiles[_number(h["id"])] = (i, h)
        for k in loc.get("checks", []):
            shown_checks[_number(k["id"])] = (i, k)
    # Ids in the order they entered play; those that left are placeholders.
    stand_in = next(iter(library.hostiles.values()))
    for n in range(1, d["hostiles_placed"] + 1):
        hid = HostileId(f"H{n}")
        if n not in shown_hostiles:
            st.hostiles[hid] = Hostile(hid, stand_in, 0, alive=False)
            continue
        slot, h = shown_hostiles[n]
        door = h["door"]
        st.hostiles[hid] = Hostile(
            hid,
            library.hostiles[h["name"]],
            slot,
            ekias=h["ekias"],
            door_ekias=0 if door is None else door["ekias"],
            breached_by=None
            if door is None or door["breached"] is None
            else Breach(door["breached"]),
            suppressed=h["suppressed"],
        )
    placeholder: CheckCard | None = None
    for n in range(1, d["checks_placed"] + 1):
        kid = CheckId(f"K{n}")
        if n not in shown_checks:
            if placeholder is None:
                placeholder = next(c for loc in library.locations.values() for c in loc.checks)
            st.checks[kid] = Check(kid, placeholder, 0, "", gone=True)
            continue
        slot, k = shown_checks[n]
        st.checks[kid] = Check(
            kid,
            _check_card(st, k),
            slot,
            k["source"],
            rolled=k["rolled"],
            spent=k["spent"],
            attempts=k["attempts"],
        )
    st.pending = [
        Pending(
            CheckId(p["check"]),
            None if p["roller"] is None else SoldierId(p["roller"]),
            cast(Literal["WF-A9", "WF-A10"], p["rule"]),
        )
        for p in d["pending"]
    ]
    st.counts = Counts(**d["counts"])
    out = d["outcome"]
    st.result = (
        None
        if out is None
        else Outcome(frozenset(out["winners"]), frozenset(out["sides"]), out["reason"], out["rule"])
    )
    st.log = [Event(e["kind"], {k: v for k, v in e.items() if k != "kind"}) for e in d["events"]]
    st.turn_start = 0
    return st


def _decks(st: WarfighterState, d: Any, stream: Stream) -> None:
    """The decks the view does not show, shuffled from ``stream``."""
    mission = st.mission
    # The Location deck: the mission's, less the Locations revealed in the middle slots.
    left = Counter(mission.deck)
    for name in st.slots[1 : st.objective_slot]:
        if name is not None:
            left[name] -= 1
    cards = list(left.elements())
    stream.shuffle(cards)
    st.location_deck = Pile(cards[: d["location_deck"]], name="locations")
    # The Hostile deck: less the discard pile and the cards drawn into play.
    discard = list(d["hostile_discard"])
    taken = list(d["hostile_in_play"])
    rest = list((Counter(mission.hostile_deck) - Counter(discard) - Counter(taken)).elements())
    stream.shuffle(rest)
    # The view lists both piles top first: each is laid down last card first.
    deck: Deck[str] = Deck([*reversed(taken), *reversed(discard), *rest], name="hostiles")
    for _ in taken:
        deck.set_aside(deck.draw(), "in play")
    for _ in discard:
        deck.discard(deck.draw())
    st.hostile_deck = deck
