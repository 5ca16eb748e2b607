"""The ``rock-n-roll`` rule set: metadata, options, notation, rendering, metrics."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar, Final

from ...core.errors import InvalidNotationError
from ...core.game import (
    Action,
    ActionEncoding,
    ConfigSchema,
    DataFormat,
    Evaluation,
    GameMetadata,
    KeptSampler,
    ObservationEncoder,
    Option,
    PlayerView,
    Ruleset,
    State,
    WorldSampler,
)
from ...core.odds import OddsQuery
from ...core.rng import Stream
from .cards import SIDES, load_cards, parse_card_files, read_card_files
from .encoder import RockNRollEncoder
from .evaluation import EVALUATION
from .observer import build_view
from .odds import QUERIES
from .render import event_sentence, render_view
from .state import FATES, RULE_OF, RockNRollState

__all__ = ["NOTATION", "RockNRoll"]

#: The notation of every action: kind -> its forms, each a sequence of words. A word in
#: capitals is a placeholder — a card id (``CARD`` and the like: letters then digits,
#: ``V3``, ``VO12``, ``L2``), a Point's letter (``POINT``) or a number (``N``); a word in
#: lower case is written as it is.
NOTATION: Final[dict[str, tuple[str, ...]]] = {
    "deploy": ("deploy UNIT POINT",),
    "orders": ("orders",),
    "end": ("end",),
    "attack": ("attack UNIT TARGET",),
    "ambush": ("ambush UNIT TARGET",),
    "manoeuvre": ("manoeuvre UNIT POINT",),
    "reinforce": ("reinforce UNIT POINT",),
    "supply": ("supply",),
    "pour": ("pour N",),
    "rnr": ("rnr",),
    "keep": ("keep",),
    "capture": ("capture TARGET",),
    "pay": ("pay CARD", "pay rd"),
    "goal": ("goal POINT POINT",),
    "act": ("act",),
    "swap": ("swap CARD",),
    "deal": ("deal take", "deal return UNIT", "deal interrupt"),
    "pass": ("pass", "pass turn", "pass round"),
    "take": ("take deck", "take UNIT"),
    "free": ("free PRISONER",),
    "torture": ("torture PRISONER",),
    "execute": ("execute PRISONER",),
    "recruit": ("recruit PRISONER",),
    "spare": ("spare PRISONER",),
    "reveal": ("reveal OPERATION",),
    "first": ("first LOCAL",),
    "withdraw": ("withdraw POINT",),
}
_CARD_ID: Final = re.compile(r"[A-Za-z]{1,3}[0-9]{1,4}", re.ASCII)
_POINT: Final = re.compile(r"[A-Za-z]", re.ASCII)
_NUMBER: Final = re.compile(r"[0-9]{1,3}", re.ASCII)


def _arg(placeholder: str, word: str) -> int | str | None:
    """The argument ``word`` gives for one word of a form, or None if it does not fit."""
    if placeholder == "N":
        return int(word) if _NUMBER.fullmatch(word) else None
    if placeholder == "POINT":
        return word.upper() if _POINT.fullmatch(word) else None
    if placeholder.isupper():
        return word.upper() if _CARD_ID.fullmatch(word) else None
    return placeholder if word.isascii() and word.lower() == placeholder else None


def _fit(form: str, words: list[str]) -> tuple[int | str, ...] | None:
    """The arguments if ``words`` (after the kind) are written as ``form``, else None."""
    places = form.split()[1:]
    if len(places) != len(words):
        return None
    args = tuple(_arg(p, w) for p, w in zip(places, words, strict=True))
    return None if any(a is None for a in args) else tuple(a for a in args if a is not None)


def _legend(forms: tuple[str, ...]) -> str:
    """What the placeholders of ``forms`` stand for."""
    places = [w for f in forms for w in f.split()[1:] if w.isupper()]
    parts = []
    ids = list(dict.fromkeys(p for p in places if p not in ("N", "POINT")))
    if ids:
        parts.append(f"{'/'.join(ids)} a card id such as V3 or VO12")
    if "POINT" in places:
        parts.append("POINT a Point's letter")
    if "N" in places:
        parts.append("N a number 0-999")
    return f" ({'; '.join(parts)})" if parts else ""


def _misfit(text: str, words: list[str], forms: tuple[str, ...]) -> int | None:
    """Where the first word that fits none of ``forms`` starts in ``text``, when some form
    has as many words; else None (the count is wrong, not one word)."""
    same = [f.split() for f in forms if len(f.split()) == len(words)]
    at = 0
    for i, word in enumerate(words):
        at = text.index(word, at)
        if i and same and all(_arg(f[i], word) is None for f in same):
            return at
        at += len(word)
    return None


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
  pass round           decline it for the rest of the round (don't ask again)
  free V3 / torture P7 / execute P7 / recruit P7 / spare P7   prisoners
  take deck | take V4   a unit the arrival (or the deal) gives: deck or HQ
  reveal S2 / first L3 / withdraw B"""
    action_rules = RULE_OF
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

    def view(self, state: State, seat: str | None) -> PlayerView:
        """The observer: ``seat``'s view of ``state``, built from what it may know
        (:mod:`.observer`)."""
        return build_view(state, seat)  # type: ignore[arg-type]

    def sample_world(self, view: PlayerView, stream: Stream) -> State:
        """A full state consistent with ``view``: the other hand, the decks' order, the
        other side's operations and the rolls to come drawn from ``stream``
        (:mod:`.worlds`)."""
        from .worlds import sample_world

        return sample_world(self, view, stream)

    def world_sampler(self, view: PlayerView) -> WorldSampler:
        """Worlds from ``view`` as :meth:`sample_world` draws them, the table the view
        shows laid out once for them all (:func:`.worlds.sample_kept`)."""
        from .worlds import sample_kept

        return KeptSampler(sample_kept, self, view)

    def odds_queries(self) -> Sequence[OddsQuery]:
        """The rolls whose exact odds ``fogofwar odds`` gives (see :mod:`.odds`)."""
        return QUERIES

    def evaluation(self, config: Mapping[str, Any]) -> Evaluation:
        """Vietnam's chance (the VPA's is its complement) from the rounds won, the value
        held as the round goes on, the strength on the Points and in reserve, and the RD
        (:mod:`.evaluation`): one model for every configuration, its features scaled by
        the rounds a match needs."""
        return EVALUATION

    def data_formats(self) -> Sequence[DataFormat]:
        """The six card files, each read with the other five shipped ones."""
        from importlib import resources

        shipped = read_card_files(resources.files("fogofwar").joinpath("data", "rock-n-roll"))

        def load(text: str, file: str) -> object:
            name = file if file in shipped else "units.cards"
            return parse_card_files({**shipped, name: text})

        return (DataFormat("a Rock-n-Roll card file", shipped, load),)

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
        t += [("pass", ("round",))]  # appended: the indices before it stay as they were
        return ActionEncoding(t)

    def observation_encoder(self, config: Mapping[str, Any] | None = None) -> ObservationEncoder:
        """A seat's view as counts and one-hot cards (:class:`.encoder.RockNRollEncoder`):
        where the seat knows each card to be, the sides' counts, the Points."""
        return RockNRollEncoder(load_cards(), self.resolve_config(config))

    def describe_event(self, event: Mapping[str, Any]) -> str | None:
        return event_sentence(event)

    def render(self, view: PlayerView, config: Mapping[str, Any]) -> object:
        """The Points row, the sides, the seat's hand and the last events."""
        return render_view(view, config)

    def parse_actions(self, text: str, seat: str, state: State) -> list[Action]:
        """Notation: ``kind arg ...`` in the forms of :data:`NOTATION` (``help`` lists
        them); card ids and Point letters may be typed in lower case, numbers are ASCII
        digits (``pour 2``). Any other text raises :class:`InvalidNotationError` saying
        what was expected: the action kinds, or the forms of the kind given."""
        words = text.split()
        if not words:
            raise InvalidNotationError(
                text, "expected an action (write an action as the legal actions are listed)"
            )
        kind = words[0].lower() if words[0].isascii() else ""
        forms = NOTATION.get(kind)
        if forms is None:
            raise InvalidNotationError(
                text,
                f"expected an action: {', '.join(NOTATION)} (write an action as the legal "
                "actions are listed)",
                position=text.index(words[0]),
            )
        for form in forms:
            args = _fit(form, words[1:])
            if args is not None:
                return [Action(seat, kind, args)]
        raise InvalidNotationError(
            text,
            f"expected {' or '.join(repr(f) for f in forms)}{_legend(forms)}",
            position=_misfit(text, words, forms),
        )

    def yes_no_metrics(self, config: Mapping[str, Any] | None = None) -> frozenset[str] | None:
        """A side's deal, once per match (PT-D1); every other metric is a count (the
        winner is 1, 0 or -1)."""
        return frozenset(f"deals_{s}" for s in SIDES)

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
