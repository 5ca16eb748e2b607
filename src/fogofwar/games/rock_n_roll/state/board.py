"""The match's fields and what they say: the Points row, holding, the sides' piles and
HQs, whose decision it is now, and the dice.

:class:`Board` is the base of the state: each section of the rules (``draws.py``,
``combat.py``, ``neutrals.py``, ``orders.py``, ``prisoners.py``, ``exchange.py``,
``deals.py``, ``operations.py``, ``rounds.py``) adds its moves to it in turn, and
``match.py`` assembles them into :class:`~.match.RockNRollState` with the phase table.

Chance: every roll is drawn from a keyed stream ``("roll", side, n)`` (the side's n-th
roll; ``("roll", "locals", n)`` for locals), and decks are shuffled from keys per deck,
side and round, so hidden draws never shift a public roll.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Final, TypeVar

from ....core.cards import Pile
from ....core.game import Action, Config, Event, Outcome, PlayerView, Ruleset
from ....core.rng import Streams
from ....core.rules import Refusal, TableState
from ..cards import CardSet, Operation
from ..features import FEATURES, Feature, condition_met
from ..odds import roll_dice
from .decisions import RULE_OF, Decision, Entry, LastRoll, Pending, Phase, RollContext, RoundResult
from .pieces import SIDES, Piece, Zone, id_key, other

__all__ = ["FATES", "Board"]

P = TypeVar("P", bound=Pending)
T = TypeVar("T")

#: What is done to prisoners, counted per side (PT-P6, PT-P7).
FATES: Final = ("tortured", "executed", "recruited", "backfired", "freed")


class Board(TableState):
    """The fields of one Rock-n-Roll match and the queries every section reads."""

    #: The pieces on each Point, counted once while a legal list or a view is made
    #: (neither changes the state): ``(units per side per position, the pieces at
    #: each position by id)``. ``None`` otherwise, when every query scans the pieces.
    _tally: tuple[dict[str, list[int]], list[list[Piece]]] | None = None

    def __init__(self, ruleset: Ruleset, config: Config, cards: CardSet, seed: int | str) -> None:
        self.ruleset = ruleset
        self.config = config
        self.cards = cards
        self._streams = Streams(seed)
        setup = cards.setup
        self.setup = dict(setup)
        self.points = list(cards.points)
        self.pieces: dict[str, Piece] = {}
        self.unit_deck: dict[str, Pile[str]] = {}
        self.order_deck: dict[str, Pile[str]] = {}
        self.order_discard: dict[str, list[str]] = {s: [] for s in SIDES}
        # PT-P11: how often each side's order deck was re-formed from its discard pile
        # (a key of the shuffle's stream).
        self.reforms = dict.fromkeys(SIDES, 0)
        self.hand: dict[str, list[str]] = {s: [] for s in SIDES}
        # Cards put into a hand in the open (a unit taken from the HQ or returned by the
        # Devil's hand, PT-D1; an order taken in a backfire, PT-P11): both seats know the
        # hand holds them while they stay there. A private draw of the same card into
        # that hand later (it left in the open meanwhile) makes it secret again.
        self.shown: dict[str, list[str]] = {s: [] for s in SIDES}
        self.ops: dict[str, list[str]] = {s: [] for s in SIDES}
        for side in SIDES:
            ids = [u.id for u in cards.units if u.side == side]
            for u in cards.units:
                if u.side == side:
                    self.pieces[u.id] = Piece(u, side, Zone.DECK, side)
            self.unit_deck[side] = Pile(ids, name=f"{side} units")
            self.unit_deck[side].shuffle(self._streams.stream("deck", "units", side))
            orders = [o.id for o in cards.orders if o.side == side]
            self.order_deck[side] = Pile(orders, name=f"{side} orders")
            self.order_deck[side].shuffle(self._streams.stream("deck", "orders", side, 1))
        for loc in cards.locals:
            self.pieces[loc.id] = Piece(loc, None, Zone.DECK, None)
        self.locals_deck: Pile[str] = Pile([c.id for c in cards.locals], name="locals")
        self.locals_deck.shuffle(self._streams.stream("deck", "locals"))
        self.locals_discard: list[str] = []
        self.ops_deck: Pile[str] = Pile([c.id for c in cards.operations], name="operations")
        self.ops_deck.shuffle(self._streams.stream("deck", "operations"))
        # How many cards at the bottom of the operations deck were put there in the open
        # (revealed, PT-O1, PT-O2): their order is public, the rest of the deck is not.
        self.ops_returned = 0
        # Operations revealed at the end of a round, held aside until the arrival (PT-O2).
        self.just_revealed: list[tuple[str, str]] = []
        self.rd = dict.fromkeys(SIDES, int(setup["start_rd"]))
        self.rounds_won = dict.fromkeys(SIDES, 0)
        self.round = 1
        self.turn = SIDES[0]
        self.starter = SIDES[0]
        self.phase = Phase.DEPLOY
        self.hq_deploys = 0
        self.dealt = dict.fromkeys(SIDES, False)
        self.rnr_round = dict.fromkeys(SIDES, 0)
        # PT-P9: the rounds in which each side's 2s are effective. A set, not one round:
        # an execution at the end of round r must not cancel the 2s still due in r.
        self.twos_rounds: dict[str, set[int]] = {s: set() for s in SIDES}
        self.rolls = {**dict.fromkeys(SIDES, 0), "locals": 0}
        self.round_stats = {s: {"kills": 0, "captures": 0} for s in SIDES}
        self.stats: dict[str, dict[str, int]] = {
            s: {
                "kills": 0,
                "losses": 0,
                "captures": 0,
                "deals": 0,
                "rnr": 0,
                **dict.fromkeys(FATES, 0),
            }
            for s in SIDES
        }
        self.pending: Pending | None = None
        self.roll: RollContext | None = None
        # A multi-step action is under way (an order's roll, a capture, an entry): the
        # interrupt's offer waits until it is done (PT-D3).
        self.chain_open = False
        self.interrupting: str | None = None
        self.window_passed = False
        # The side that declined its interrupt for the rest of the opponent's turn
        # (``pass turn``): a convenience, the offer of PT-D3 taken as refused in advance.
        self.declined: str | None = None
        # The same for the rest of the round (``pass round``): "don't ask again".
        self.declined_round: str | None = None
        # The Current Act's card, out of every pile while it is played (PT-R3).
        self.forced: str | None = None
        self.named: str | None = None
        self.interact_queue: list[tuple[str, str]] = []
        self.entry: Entry | None = None
        self.results: list[RoundResult] = []
        self.last_loser: str | None = None
        self._outcome: Outcome | None = None
        self.log: list[Event] = []
        self.last_roll: LastRoll | None = None
        self.actions_taken = 0

    if TYPE_CHECKING:
        # Moves of later sections that earlier ones start (defined where named).

        def _capture_rolled(self, dice: list[int]) -> None:
            """The capture roll is kept (``prisoners.py``)."""

        def _finish_round(self) -> None:
            """The end of the round after its interactions (``rounds.py``)."""

        def _arrival_after_take(self, side: str) -> None:
            """The arrival goes on after ``side``'s units are taken (``rounds.py``)."""

    # ------------------------------------------------------------------ the board

    @property
    def streams(self) -> Streams:
        """The game's keyed streams (the umpire's secret)."""
        return self._streams

    def letter(self, pos: int) -> str:
        """The letter of the Point now at position ``pos``."""
        return self.points[pos].letter

    def pos_of(self, letter: str) -> int:
        """The position of the Point with this letter."""
        for i, p in enumerate(self.points):
            if p.letter == letter:
                return i
        raise KeyError(letter)

    def legal_actions(self, seat: str) -> list[Action]:
        # The legal list asks who is superior where for every option: count once.
        return self._counted(partial(super().legal_actions, seat))

    def view(self, seat: str | None) -> PlayerView:
        return self._counted(partial(super().view, seat))

    def _counted(self, make: Callable[[], T]) -> T:
        """``make()`` with the Points counted once for it (it must not change the
        state)."""
        if self._tally is not None:
            return make()
        self._tally = self._count_points()
        try:
            return make()
        finally:
            self._tally = None

    def _count_points(self) -> tuple[dict[str, list[int]], list[list[Piece]]]:
        """The units of each side at each position, and the pieces there by id: one
        pass over the pieces."""
        n = len(self.points)
        counts = {side: [0] * n for side in SIDES}
        at: list[list[Piece]] = [[] for _ in self.points]
        point = Zone.POINT
        for p in self.pieces.values():
            if p.zone == point and 0 <= p.pos < n:
                at[p.pos].append(p)
                side = counts.get(p.owner)  # type: ignore[arg-type]
                if side is not None:
                    side[p.pos] += 1
        for here in at:
            here.sort(key=lambda p: id_key(p.card.id))
        return counts, at

    def at(self, pos: int) -> list[Piece]:
        """The pieces on the Point at ``pos``, by id."""
        tally = self._tally
        if tally is not None and 0 <= pos < len(tally[1]):
            return list(tally[1][pos])
        point = Zone.POINT  # a local: the loops over the pieces are the hot path of play
        return sorted(
            (p for p in self.pieces.values() if p.zone == point and p.pos == pos),
            key=lambda p: id_key(p.card.id),
        )

    def count(self, pos: int, side: str) -> int:
        """The units fighting for ``side`` at ``pos`` (locals never count, PT-L2)."""
        # Counted without the sorted listing of ``at``: this runs for every Point on
        # every legal-action listing and view (holding, superiority), the hot path of
        # play; so is the zone's name, a local.
        tally = self._tally
        if tally is not None and 0 <= pos < len(self.points):
            counts = tally[0].get(side)
            if counts is not None:  # a side's units (locals fight for neither)
                return counts[pos]
        point = Zone.POINT
        return sum(
            1 for p in self.pieces.values() if p.zone == point and p.pos == pos and p.owner == side
        )

    def holders(self) -> list[str | None]:
        """The side holding each Point, by position: more units there (PT-C6); ``None``
        where they are level. One pass over the pieces (views and operations ask for
        every Point)."""
        first, second = SIDES
        tally = self._tally
        if tally is not None:
            a, b = tally[0][first], tally[0][second]
            return [
                None if x == y else first if x > y else second for x, y in zip(a, b, strict=True)
            ]
        a = [0] * len(self.points)
        b = [0] * len(self.points)
        point = Zone.POINT
        for p in self.pieces.values():
            if p.zone == point:
                if p.owner == first:
                    a[p.pos] += 1
                elif p.owner == second:
                    b[p.pos] += 1
        return [None if x == y else first if x > y else second for x, y in zip(a, b, strict=True)]

    def held_by(self, pos: int) -> str | None:
        """The side holding the Point at ``pos`` (PT-C6)."""
        return self.holders()[pos]

    def held_value(self, side: str) -> int:
        """The total victory value of the Points ``side`` holds."""
        return sum(p.value for p, h in zip(self.points, self.holders(), strict=True) if h == side)

    def held_count(self, side: str) -> int:
        """How many Points ``side`` holds."""
        return self.holders().count(side)

    def superior(self, pos: int, side: str, *, less: int = 0) -> bool:
        """Whether ``side`` has more units than the enemy at ``pos`` (PT-P1), with
        ``less`` of its own units fewer."""
        return self.count(pos, side) - less > self.count(pos, other(side))

    def neighbours(self, pos: int) -> list[int]:
        """The positions next to ``pos`` in the row."""
        return [q for q in (pos - 1, pos + 1) if 0 <= q < len(self.points)]

    def outer(self) -> tuple[int, int]:
        """The two outermost positions, where units are deployed (PT-C2)."""
        return (0, len(self.points) - 1)

    def on_points(self, side: str) -> list[Piece]:
        """The units fighting for ``side`` on the Points, by id."""
        point = Zone.POINT
        mine = [p for p in self.pieces.values() if p.zone == point and p.owner == side]
        mine.sort(key=lambda p: id_key(p.card.id))
        return mine

    def prisoners(self, captor: str) -> list[str]:
        """The ids of the prisoners ``captor`` holds, sorted."""
        prison = Zone.PRISON
        return sorted(
            (p.card.id for p in self.pieces.values() if p.zone == prison and p.holder == captor),
            key=id_key,
        )

    def hq(self, side: str) -> list[str]:
        """The ids of the units in ``side``'s HQ, sorted."""
        hq = Zone.HQ
        return sorted(
            (p.card.id for p in self.pieces.values() if p.zone == hq and p.holder == side),
            key=id_key,
        )

    def in_hq(self, side: str, piece: Piece | None) -> bool:
        """Whether ``piece`` is in ``side``'s HQ."""
        return piece is not None and piece.zone == Zone.HQ and piece.holder == side

    def _feature(self, piece: Piece) -> Feature | None:
        return FEATURES.get(piece.card.feature or "")

    def _show(self, side: str, card: str) -> None:
        """``card`` enters ``side``'s hand in the open: both seats know it is there."""
        hand = self.hand[side]
        self.shown[side] = [c for c in self.shown[side] if c in hand and c != card] + [card]

    def known_hand(self, side: str) -> list[str]:
        """The cards of ``side``'s hand that every seat saw enter it (public)."""
        hand = self.hand[side]
        return [c for c in self.shown[side] if c in hand]

    # ------------------------------------------------------------------ the sides

    def twos(self, side: str | None) -> bool:
        """Whether ``side``'s 2s are effective this round (PT-P6, PT-P9)."""
        return side is not None and self.round in self.twos_rounds[side]

    def rnr_available(self, side: str) -> bool:
        """ROCK'N'ROLL: once per round (PT-R4), never after a deal (PT-D2)."""
        return not self.dealt[side] and self.rnr_round[side] != self.round

    def rd_dice_allowed(self, side: str) -> bool:
        """Whether ``side`` may pour RD into rolls (PT-C4; PT-D2's switch)."""
        return not (self.dealt[side] and bool(self.config["devils_hand_blocks_rd"]))

    def figures(self, side: str) -> dict[str, int]:
        """What operation conditions count for ``side`` (see features.CONDITIONS)."""
        return {
            "kills": self.round_stats[side]["kills"],
            "captures": self.round_stats[side]["captures"],
            "hold": self.held_count(side),
            "value": self.held_value(side),
        }

    def op_complete(self, side: str, op: Operation) -> bool:
        """Whether the condition of ``op`` holds for ``side`` now (PT-O1)."""
        return condition_met(op.condition, op.amount, self.figures(side))

    def completed_ops(self, side: str) -> list[str]:
        """The operations ``side`` holds whose conditions are met now (PT-O1)."""
        return [o for o in self.ops[side] if self.op_complete(side, self.cards.operation(o))]

    def _hand_orders(self, side: str, kind: str) -> list[str]:
        """The order cards of ``kind`` in ``side``'s hand."""
        kinds = self.cards.order_kinds
        return [c for c in self.hand[side] if kinds.get(c) == kind]

    def _order_kinds(self, side: str) -> set[str]:
        """The kinds of the order cards in ``side``'s hand."""
        kinds = self.cards.order_kinds
        return {kinds[c] for c in self.hand[side] if c in kinds}

    # ------------------------------------------------------------------ whose decision

    def outcome(self) -> Outcome | None:
        return self._outcome

    def event_log(self) -> list[Event]:
        return self.log

    def to_act(self) -> frozenset[str]:
        if self._outcome is not None:
            return frozenset()
        if self.pending is not None:
            return frozenset({self.pending.seat})
        # PT-D3: before each of its opponent's actions the side not on turn answers the
        # offer of its interrupt first (deal interrupt, pass, pass turn or pass round); then the
        # side on turn acts. One seat at a time, so a table (or a batch) asks the off-turn
        # side before every action of either side alike.
        if self._window_open():
            return frozenset({other(self.turn)})
        return frozenset({self.turn})

    def _window_open(self) -> bool:
        """Whether the side off turn is to answer the offer of its interrupt (PT-D3):
        nothing under way, its deal not struck, and not declined (``pass``, ``pass
        turn``)."""
        return (
            self.pending is None
            and not self.chain_open
            and not self.dealt[other(self.turn)]
            and not self.window_passed
            and self.declined != other(self.turn)
            and self.declined_round != other(self.turn)
        )

    def stage(self) -> Phase | Decision:
        """The row of the phase table that applies now: the pending decision, the
        interrupt's offer to the side off turn, or the turn's phase."""
        if self.pending is not None:
            return self.pending.kind
        if self._window_open():
            return Decision.OFFER
        return self.phase

    def _answer(self, kind: type[P]) -> P:
        """The pending decision, now answered: no longer pending."""
        p = self.pending
        assert isinstance(p, kind), (p, kind)
        self.pending = None
        return p

    def _chain_done(self) -> None:
        """A multi-step action is over: the interrupt's offer comes again (PT-D3)."""
        self.chain_open = False
        self.forced = None
        self.interrupting = None
        self.roll = None

    # ------------------------------------------------------------------ refusals

    def _waiting(self, kind: str) -> Refusal:
        """A decision is awaited and ``kind`` does not answer it."""
        assert self.pending is not None
        want = sorted({a.kind for a in self.legal_actions(self.pending.seat)})
        return f"waiting for {self.pending.kind} ({', '.join(want)})", RULE_OF.get(kind)

    def _not_now(self, seat: str, kind: str) -> Refusal:
        """The protocol's answer (the legal kinds of ``seat`` now), under the rule of
        ``kind``."""
        reason, _ = self.protocol_refusal(Action(seat, kind))
        return reason, RULE_OF.get(kind)

    # ------------------------------------------------------------------ dice

    def _dice(self, side: str | None, n: int, *, key: str = "roll") -> list[int]:
        """``n`` dice (PT-C4) from the stream of ``side``'s next roll (``None``: the
        locals')."""
        who = side or "locals"
        self.rolls[who] += 1
        return roll_dice(self._streams.stream(key, who, self.rolls[who]), n)
