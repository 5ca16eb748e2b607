"""The ``rock-n-roll`` rule set: metadata, options, notation, rendering, metrics."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar

from ...core.errors import InvalidNotationError
from ...core.game import (
    Action,
    ActionEncoding,
    ConfigSchema,
    GameMetadata,
    Option,
    PlayerView,
    Ruleset,
    State,
)
from .cards import SIDES, load_cards
from .state import FATES, RockNRollState

__all__ = ["RockNRoll"]

#: Words of the notation that stay lower case (the rest are card ids and letters).
_WORDS = frozenset({"rd", "deck", "take", "return", "interrupt", "turn"})


class RockNRoll(Ruleset):
    """Rock-n-Roll: Vietnam against the VPA, with prisoners, deals and locals."""

    id = "rock-n-roll"
    aliases = ("rocknroll", "rnr")
    version = "0.1.0"
    metadata = GameMetadata(
        name="Rock-n-Roll (prisoners, deals, locals)",
        seats=SIDES,
        sides={s: s for s in SIDES},
        min_players=2,
        max_players=2,
        information="imperfect",
        chance="explicit",
        simultaneous=False,
        # Up to 7 rounds of at most ~12 turns a side; each action of a turn may be
        # preceded by the other side's interrupt offer (PT-D3).
        max_length=40_000,
        description=(
            "A two-sided card wargame: units on a row of strategic Points, orders, RD "
            "poured into rolls, prisoners taken and interrogated, the Devil's hand and "
            "neutral locals."
        ),
    )
    default_bots: ClassVar[Mapping[str, str]] = MappingProxyType(
        {s: "rnr-heuristic" for s in SIDES}
    )
    notation_help = """\
  deploy V3 A          a unit (or local) from hand or HQ onto a Point
  orders / end         to the orders phase / end the turn
  attack V3 P7         also ambush V3 P7, manoeuvre V3 B, reinforce V5 A, supply
  pour 2 / rnr / keep  RD dice into the roll / ROCK'N'ROLL re-roll / keep the dice
  capture P7           then pay V9 (a card) or pay rd (2 RD)
  goal A C / act       swap two Points (pay twice, or pay rd) / Current Act (4 RD)
  swap VO4             a card for a new one of its kind (1 RD)
  deal take | deal return V3 | deal interrupt | pass     the Devil's hand
  pass turn            decline the interrupt until the opponent's turn ends
  free V3 / torture P7 / execute P7 / recruit P7 / spare P7   prisoners
  reveal S2 / first L3 / withdraw B / take deck | take V4"""
    config_schema = ConfigSchema(
        (
            Option(
                "rounds",
                int,
                5,
                "Rounds at most; then the side with more rounds won wins (PT-C6).",
                minimum=1,
                maximum=9,
                rule="PT-C6",
            ),
            Option(
                "devils_hand_blocks_rd",
                bool,
                False,
                "After its Devil's hand a side may no longer pour RD into rolls.",
                rule="PT-D2",
            ),
            Option(
                "max_rd_per_roll",
                int,
                3,
                "The most RD dice poured into one roll.",
                minimum=0,
                maximum=8,
                rule="PT-C4",
            ),
        )
    )

    def new_game(self, config: Mapping[str, Any] | None = None, seed: int | str = 0) -> State:
        return RockNRollState(self, self.resolve_config(config), load_cards(), seed)

    def encoding(self, config: Mapping[str, Any] | None = None) -> ActionEncoding:
        """A fixed index per action kind and arguments, from the shipped cards."""
        cards = load_cards()
        pieces = [c.id for c in (*cards.units, *cards.locals)]
        units = [c.id for c in cards.units]
        orders = [c.id for c in cards.orders]
        letters = sorted(p.letter for p in cards.points)
        t: list[tuple[str, tuple[int | str, ...]]] = []
        t += [("deploy", (u, x)) for u in pieces for x in letters]
        t += [(k, (a, b)) for k in ("attack", "ambush") for a in pieces for b in pieces if a != b]
        t += [(k, (u, x)) for k in ("manoeuvre", "reinforce") for u in pieces for x in letters]
        t += [("goal", (a, b)) for i, a in enumerate(letters) for b in letters[i + 1 :]]
        t += [("pay", ("rd",))] + [("pay", (c,)) for c in (*pieces, *orders)]
        t += [("swap", (c,)) for c in (*units, *orders)]
        t += [("capture", (u,)) for u in units]
        t += [("pour", (n,)) for n in range(9)]
        t += [("take", ("deck",))] + [("take", (u,)) for u in units]
        t += [("deal", ("take",)), ("deal", ("interrupt",)), ("pass", ("turn",))]
        t += [("deal", ("return", u)) for u in units]
        t += [(k, (u,)) for k in ("free", "torture", "execute", "recruit", "spare") for u in units]
        t += [("reveal", (o.id,)) for o in cards.operations]
        t += [("first", (c.id,)) for c in cards.locals]
        t += [("withdraw", (x,)) for x in letters]
        t += [(k, ()) for k in ("supply", "act", "rnr", "keep", "pass", "orders", "end")]
        return ActionEncoding(t)

    def render(self, view: PlayerView, config: Mapping[str, Any]) -> object:
        """The Points row, the sides, the seat's hand and the last events."""
        from .render import render_view

        return render_view(view.data, view.seat)

    def parse_actions(self, text: str, seat: str, state: State) -> list[Action]:
        """Notation: ``kind arg ...``; ids and letters are read in capitals, numbers as
        integers (``pour 2``), and ``rd``, ``deck``, ``take``... as words."""
        words = text.split()
        if not words:
            raise InvalidNotationError(text, "expected an action (see help)")
        args: list[int | str] = []
        for w in words[1:]:
            if w.isdigit():
                args.append(int(w))
            elif w.lower() in _WORDS:
                args.append(w.lower())
            else:
                args.append(w.upper())
        return [Action(seat, words[0].lower(), tuple(args))]

    def metrics(self, state: State) -> dict[str, float]:
        """Rounds won per side, prisoners taken, their fates, deals struck, the winner
        (1 Vietnam, -1 VPA, 0 nobody), rounds played and actions."""
        if not isinstance(state, RockNRollState):
            return {}
        out: dict[str, float] = {}
        for s in SIDES:
            st = state.stats[s]
            out[f"rounds_{s}"] = float(state.rounds_won[s])
            out[f"prisoners_{s}"] = float(st["captures"])
            out[f"kills_{s}"] = float(st["kills"])
            out[f"deals_{s}"] = float(st["deals"])
        for fate in FATES:
            out[fate] = float(sum(state.stats[s][fate] for s in SIDES))
        out["deals"] = float(sum(state.stats[s]["deals"] for s in SIDES))
        outcome = state.outcome()
        winner = next(iter(outcome.sides), None) if outcome is not None else None
        out["winner"] = 1.0 if winner == SIDES[0] else -1.0 if winner == SIDES[1] else 0.0
        out["rounds"] = float(len(state.results))
        out["actions"] = float(state.actions_taken)
        return out
