"""The example rule set: hide and seek on a line.

A deliberately small game that exercises every part of the protocol end to end:

* a **hidden piece** (the hider, whose cell only the hider knows),
* a **simultaneous secret choice** (both seats bid energy at once, then reveal),
* a **multi-step move** (``step`` actions closed by ``stop``; ``move 3 4 5`` is shorthand),
* **chance** from a keyed stream (the search roll of round *r* is
  ``streams.stream("search", r)``, so it cannot depend on any hidden choice),
* an **interrupt** the hider may take or pass (the dodge),
* a config schema, an action encoding with a legal mask, metrics, ``parse_actions``,
  ``explain_illegal`` with rule IDs, and ``sample_world``.

It is registered as ``hide-and-seek`` when this module is imported (it is not one of
fogofwar's built-in rule sets); worker processes reach it as
``tests.example_game:HideAndSeek``. ``docs/protocol.md`` walks through it.

Rules (the IDs are used by :meth:`HideAndSeekState.explain_illegal` and the outcome):

- EX-0 Setup. The line has ``cells`` cells, numbered 0 up. The seeker starts on cell 0,
  in the open. The hider starts on a cell drawn at random from the far half of the line
  (cells ``cells // 2 + 1`` and up); only the hider learns which.
- EX-1 Bids. Each round starts with both seats secretly and simultaneously bidding 0, 1
  or 2 energy, no more than they have left (each starts with ``energy``). When both have
  bid, the bids are revealed and spent. A seat may take 1 + its bid steps this round.
- EX-2 Moves. A move is a sequence of steps, each to an adjacent cell of the line, at
  most the seat's allowance, ended by ``stop`` (a move of no steps is allowed).
- EX-3 The hider moves first, in secret: nobody else learns its steps, only that it has
  finished. It may not enter the seeker's cell. The seeker then moves in the open and may
  enter any cell.
- EX-4 Search. After moving, the seeker may ``search`` or ``pass``. A search rolls one d6
  in the open: the hider is found if it is within 1 cell of the seeker and the roll is at
  least ``search_target``.
- EX-5 Dodge. When the seeker searches, a hider with a dodge left (it starts with
  ``dodges``) is offered an interrupt before the roll: ``dodge`` one step to an adjacent
  cell that is not the seeker's, or ``pass``. Everyone learns whether it dodged; only the
  hider learns where to.
- EX-6 The seeker wins when it finds the hider; the hider's cell is then revealed.
- EX-7 The hider wins when ``rounds`` rounds end without it being found.

Rulings (R): every seat sees who is still to act (a table sees who is still thinking);
the deduction ``hider_may_be`` (the cells the public facts leave possible for the hider)
is part of every view, since every player could work it out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum
from typing import Any

from fogofwar.core.dice import parse as parse_dice
from fogofwar.core.errors import InvalidNotationError, RulesError
from fogofwar.core.game import (
    JSON,
    Action,
    ActionEncoding,
    Config,
    ConfigSchema,
    Evaluation,
    Event,
    GameMetadata,
    LogisticModel,
    Option,
    Outcome,
    PlayerView,
    Ruleset,
    State,
    register,
)
from fogofwar.core.odds import OddsAnswer, OddsParam, OddsQuery, fraction_text
from fogofwar.core.record import outcome_from_json
from fogofwar.core.rng import Stream, Streams
from fogofwar.core.rules import Move, PhaseTable, Refusal, TableState, int_param

__all__ = ["HIDER", "SEEKER", "HideAndSeek", "HideAndSeekState"]

HIDER = "hider"
SEEKER = "seeker"
MAX_BID = 2
SEARCH_RANGE = 1


class Phase(StrEnum):
    """The phases, in the order of a round (their values are what views show)."""

    BID = "bid"
    HIDE = "hide"
    SEEK = "seek"
    SEARCH = "search"
    DODGE = "dodge"
    OVER = "over"


BID, HIDE, SEEK, SEARCH, DODGE, OVER = Phase

# Event kinds that only one seat receives. Every other kind is public, except "bid",
# which goes to the seat that made it. One table decides the audience, both when the
# game makes an event and when sample_world rebuilds events from a view's log.
_PRIVATE_TO: dict[str, str] = {"placed": HIDER, "hider_step": HIDER, "dodged_to": HIDER}


def _audience(kind: str, data: Mapping[str, JSON]) -> frozenset[str] | None:
    if kind == "bid":
        return frozenset({str(data["seat"])})
    seat = _PRIVATE_TO.get(kind)
    return frozenset({seat}) if seat is not None else None


def _event(kind: str, **data: JSON) -> Event:
    return Event(kind, data, _audience(kind, data))


def _reach(cells: Iterable[int], steps: int, blocked: int, size: int) -> frozenset[int]:
    """Cells reachable in up to ``steps`` steps along the line without entering ``blocked``.

    On a line, a path from ``c`` to ``d`` enters every cell after ``c`` up to ``d``, so
    the blocked cell cuts the line (a piece already on it may leave either way).
    """
    out: set[int] = set()
    for c in cells:
        for d in range(max(0, c - steps), min(size - 1, c + steps) + 1):
            entered = range(c + 1, d + 1) if d > c else range(d, c)
            if blocked not in entered:
                out.add(d)
    return frozenset(out)


def _one_step(cells: Iterable[int], blocked: int, size: int) -> frozenset[int]:
    """Cells exactly one step from some cell in ``cells``, never the blocked one (EX-5)."""
    return frozenset(d for c in cells for d in (c - 1, c + 1) if 0 <= d < size and d != blocked)


def _legal_bids(energy: int) -> range:
    """The bids a seat with ``energy`` left may make (EX-1)."""
    return range(min(MAX_BID, energy) + 1)


#: The search roll (EX-4): the game rolls it and the odds query reads it.
SEARCH_DIE = parse_dice("d6")


def _search_odds(target: int) -> OddsAnswer:
    success = sum((p for face, p in SEARCH_DIE.dist().items() if face >= target), start=0)
    data = {"target": target, "success": fraction_text(success), "rules": ["EX-4"]}
    return OddsAnswer(data, f"search: d6 ≥ {target} succeeds with {success}")


class HideAndSeek(Ruleset):
    """Hide and seek on a line: the example rule set of the protocol documentation."""

    id = "hide-and-seek"
    aliases = ("hns",)
    version = "1.0.0"
    metadata = GameMetadata(
        name="Hide and seek",
        seats=(HIDER, SEEKER),
        sides={HIDER: "hiders", SEEKER: "seekers"},
        min_players=2,
        max_players=2,
        information="imperfect",
        simultaneous=True,
        # 12 rounds at most, each: 2 bids, two moves of up to 3 steps and a stop,
        # a search and a dodge.
        max_length=12 * (2 + 4 + 4 + 1 + 1),
        description="A hidden hider and a seeker on a line of cells; the example game.",
    )
    config_schema = ConfigSchema(
        (
            Option("cells", int, 9, "Cells on the line.", minimum=5, maximum=15, rule="EX-0"),
            Option(
                "rounds", int, 6, "Rounds the hider must survive.", minimum=1, maximum=12,
                rule="EX-7",
            ),
            Option("energy", int, 4, "Energy each seat starts with.", minimum=0, maximum=8,
                   rule="EX-1"),
            Option(
                "search_target", int, 4, "Least d6 roll that finds a hider in range.",
                minimum=1, maximum=6, rule="EX-4",
            ),
            Option("dodges", int, 1, "Dodges the hider starts with.", minimum=0, maximum=3,
                   rule="EX-5"),
        )
    )  # fmt: skip

    def new_game(
        self, config: Mapping[str, Any] | None = None, seed: int | str = 0
    ) -> HideAndSeekState:
        cfg = self.resolve_config(config)
        streams = Streams(seed)
        size = cfg["cells"]
        start = range(size // 2 + 1, size)
        hider_at = streams.stream("start").choice(start)  # EX-0: a chance point
        state = HideAndSeekState(
            self,
            cfg,
            streams,
            hider_at=hider_at,
            may_be=frozenset(start),
            energy={HIDER: cfg["energy"], SEEKER: cfg["energy"]},
            dodges_left=cfg["dodges"],
        )
        state.log.append(_event("start", seeker_at=0))
        state.log.append(_event("placed", cell=hider_at))
        return state

    def odds_queries(self) -> Sequence[OddsQuery]:
        """``fogofwar odds tests.example_game:HideAndSeek search --target 4``: the chance
        that a search roll succeeds (EX-4), from the die the search rolls."""
        return (
            OddsQuery(
                "search",
                "The chance that a search roll succeeds (EX-4).",
                (
                    OddsParam(
                        "target", int, "The least roll that finds.", default=4, minimum=1, maximum=6
                    ),
                ),
                _search_odds,
                ("EX-4",),
            ),
        )

    def encoding(self, config: Mapping[str, Any] | None = None) -> ActionEncoding:
        size = self.resolve_config(config)["cells"]
        return ActionEncoding(
            [
                *(("bid", (n,)) for n in range(MAX_BID + 1)),
                *(("step", (c,)) for c in range(size)),
                ("stop", ()),
                ("search", ()),
                ("pass", ()),
                *(("dodge", (c,)) for c in range(size)),
            ]
        )

    def metrics(self, state: State) -> dict[str, float]:
        if not isinstance(state, HideAndSeekState):
            raise RulesError(f"{self.id} cannot measure a {type(state).__name__}")
        outcome = state.outcome()
        return {
            "rounds": float(state.round),
            "searches": float(sum(e.kind == "searched" for e in state.log)),
            "found": float(outcome is not None and SEEKER in outcome.winners),
            "hider_energy_left": float(state.energy[HIDER]),
            "seeker_energy_left": float(state.energy[SEEKER]),
        }

    def parse_actions(self, text: str, seat: str, state: State) -> list[Action]:
        """Parse notation, expanding ``move 3 4 5`` into three steps and a stop."""
        words = text.split()
        if not words or words[0] != "move":
            return super().parse_actions(text, seat, state)
        if len(words) == 1:
            raise InvalidNotationError(text, "expected cells after move, e.g. 'move 3 4'")
        actions: list[Action] = []
        pos = text.index("move") + len("move")
        for word in words[1:]:
            pos = text.index(word, pos)
            if not (word.isascii() and word.isdigit()):  # not '²': int() refuses it
                raise InvalidNotationError(text, f"expected a cell number, not {word!r}",
                                           position=pos)  # fmt: skip
            actions.append(Action(seat, "step", (int(word),)))
            pos += len(word)
        actions.append(Action(seat, "stop"))
        return actions

    def evaluation(self, config: Mapping[str, Any]) -> Evaluation:
        """The hider's chance to survive (for ``ismcts``'s ``depth``)."""
        return HIDER_CHANCE

    def sample_world(self, view: PlayerView, stream: Stream) -> HideAndSeekState:
        """A full state that gives ``view`` to its seat: the unknowns drawn from ``stream``.

        The hider's cell is drawn from ``hider_may_be`` (for a hider's view it is known);
        a bid the viewer has not seen is drawn from the legal bids. The world's future
        rolls come from a new seed drawn from ``stream``: the true seed is a secret.
        """
        d = view.data
        cfg = self.resolve_config(d["config"])
        phase: str = d["phase"]
        waiting = set(d["waiting_for"])
        you: Mapping[str, JSON] = d["you"]
        energy = {HIDER: int(d["energy"][HIDER]), SEEKER: int(d["energy"][SEEKER])}
        if view.seat == HIDER:
            hider_at = int(you["at"])
        else:
            hider_at = stream.choice(sorted(d["hider_may_be"]))
        bids: dict[str, int] = {}
        if phase == BID:
            for seat in (HIDER, SEEKER):
                if seat in waiting:
                    continue
                if seat == view.seat:
                    bids[seat] = int(you["bid"])
                else:
                    bids[seat] = stream.choice(_legal_bids(energy[seat]))
        allowance = d["allowance"]
        steps_left = 0
        if phase == HIDE:
            steps_left = int(you["steps_left"]) if view.seat == HIDER else int(allowance[HIDER])
        elif phase == SEEK:
            steps_left = int(d["seeker_steps_left"])
        outcome = d["outcome"]
        state = HideAndSeekState(
            self,
            cfg,
            Streams(stream.randbelow(1 << 53)),
            hider_at=hider_at,
            may_be=frozenset(d["hider_may_be"]),
            energy=energy,
            dodges_left=int(d["dodges_left"]),
            seeker_at=int(d["seeker_at"]),
            round_=int(d["round"]),
            phase=phase,
            bids=bids,
            allowance=None if allowance is None else dict(allowance),
            steps_left=steps_left,
            result=None if outcome is None else outcome_from_json(outcome),
        )
        for entry in d["log"]:
            data = {k: v for k, v in entry.items() if k != "kind"}
            state.log.append(Event(entry["kind"], data, _audience(entry["kind"], data)))
        for seat, amount in bids.items():
            if seat != view.seat:  # the viewer never saw this bid: invent its private event
                state.log.append(_event("bid", seat=seat, amount=amount))
        return state


class HideAndSeekState(TableState):
    """The true state of a game of hide and seek (the umpire's secret)."""

    def __init__(
        self,
        ruleset: HideAndSeek,
        config: Config,
        streams: Streams,
        *,
        hider_at: int,
        may_be: frozenset[int],
        energy: dict[str, int],
        dodges_left: int,
        seeker_at: int = 0,
        round_: int = 1,
        phase: str = BID,
        bids: dict[str, int] | None = None,
        allowance: dict[str, int] | None = None,
        steps_left: int = 0,
        result: Outcome | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.config = config
        self._streams = streams  # secret: never reaches a view or an event
        self.size: int = config["cells"]
        self.hider_at = hider_at  # secret: only the hider's view shows it
        self.seeker_at = seeker_at
        # The public deduction of the hider's cell; holds hider_at except in the middle
        # of the hider's move (it is brought up to date when the hider stops).
        self.may_be = may_be
        self.energy = energy
        self.dodges_left = dodges_left
        self.round = round_
        self.phase = phase
        self.bids: dict[str, int] = bids or {}  # secret until both have bid
        self.allowance: dict[str, int] = allowance or {}  # public; empty until bids revealed
        self.steps_left = steps_left  # the mover's; the hider's is secret
        self.result = result
        self.log: list[Event] = []

    # ------------------------------------------------------------------ queries

    def to_act(self) -> frozenset[str]:
        if self.phase == BID:
            return frozenset({HIDER, SEEKER} - self.bids.keys())
        if self.phase in (HIDE, DODGE):
            return frozenset({HIDER})
        if self.phase in (SEEK, SEARCH):
            return frozenset({SEEKER})
        return frozenset()

    def _mover_at(self, seat: str) -> int:
        return self.hider_at if seat == HIDER else self.seeker_at

    def _step_targets(self, seat: str) -> list[int]:
        here = self._mover_at(seat)
        cells = [c for c in (here - 1, here + 1) if 0 <= c < self.size]
        if seat == HIDER:  # EX-3 (moves), EX-5 (dodges): never into the seeker's cell
            cells = [c for c in cells if c != self.seeker_at]
        return cells

    def outcome(self) -> Outcome | None:
        return self.result

    def event_log(self) -> list[Event]:
        return self.log

    # ------------------------------------------------------------------ the rules
    # Each rule once: a move's check is its legality, its refusal and its rule ID
    # (the table, HideAndSeekState.rules, is below the class).

    def _check_bid(self, seat: str, args: tuple[int]) -> Refusal | None:
        (amount,) = args
        if not 0 <= amount <= MAX_BID:
            return f"a bid is 0, 1 or {MAX_BID}", "EX-1"
        if amount > self.energy[seat]:
            return f"{seat} has only {self.energy[seat]} energy left", "EX-1"
        return None

    def _check_step(self, seat: str, args: tuple[int]) -> Refusal | None:
        (cell,) = args
        if self.steps_left == 0:
            return "no steps left this round; stop", "EX-2"
        here = self._mover_at(seat)
        if abs(cell - here) != 1:
            return f"a step goes to a cell next to {here}", "EX-2"
        if not 0 <= cell < self.size:
            return f"the line has cells 0 to {self.size - 1}", "EX-2"
        if seat == HIDER and cell == self.seeker_at:
            return "the hider may not enter the seeker's cell", "EX-3"
        return None

    def _check_dodge(self, seat: str, args: tuple[int]) -> Refusal | None:
        if args[0] not in self._step_targets(seat):
            return "a dodge goes to an adjacent cell of the line that is not the seeker's", "EX-5"
        return None

    def _search(self, seat: str, args: tuple[()]) -> None:
        if self.dodges_left > 0:  # EX-5: the interrupt is offered before the roll
            self.log.append(_event("search_declared"))
            self.phase = DODGE
        else:
            self._resolve_search()

    def _no_search(self, seat: str, args: tuple[()]) -> None:
        self.log.append(_event("no_search"))
        self._end_round()

    def _dodge(self, seat: str, args: tuple[int]) -> None:
        self.dodges_left -= 1
        self.hider_at = args[0]
        self.log.append(_event("dodge", used=True))
        self.log.append(_event("dodged_to", cell=self.hider_at))
        self.may_be = _one_step(self.may_be, self.seeker_at, self.size)
        self._resolve_search()

    def _no_dodge(self, seat: str, args: tuple[()]) -> None:
        self.log.append(_event("dodge", used=False))
        self._resolve_search()

    def _bid(self, seat: str, args: tuple[int]) -> None:
        (amount,) = args
        self.bids[seat] = amount
        self.log.append(_event("bid", seat=seat, amount=amount))
        if len(self.bids) < 2:
            return
        for s, n in self.bids.items():
            self.energy[s] -= n
        self.allowance = {s: 1 + self.bids[s] for s in (HIDER, SEEKER)}
        self.log.append(_event("bids", hider=self.bids[HIDER], seeker=self.bids[SEEKER]))
        self.bids = {}
        self.phase = HIDE
        self.steps_left = self.allowance[HIDER]

    def _step(self, seat: str, args: tuple[int]) -> None:
        (cell,) = args
        self.steps_left -= 1
        if seat == HIDER:
            self.hider_at = cell
            self.log.append(_event("hider_step", cell=cell))
        else:
            self.seeker_at = cell
            self.log.append(_event("seeker_step", cell=cell))

    def _stop(self, seat: str, args: tuple[()]) -> None:
        if seat == HIDER:
            self.log.append(_event("hider_moved"))
            self.may_be = _reach(self.may_be, self.allowance[HIDER], self.seeker_at, self.size)
            self.phase = SEEK
            self.steps_left = self.allowance[SEEKER]
        else:
            self.log.append(_event("seeker_moved", cell=self.seeker_at))
            self.phase = SEARCH
            self.steps_left = 0

    def _resolve_search(self) -> None:
        # EX-4: a keyed stream per round, so no hidden choice can shift the roll.
        roll = SEARCH_DIE.sample(self._streams.stream("search", self.round))
        in_range = abs(self.hider_at - self.seeker_at) <= SEARCH_RANGE
        success = roll >= self.config["search_target"]
        found = in_range and success
        self.log.append(_event("searched", roll=roll, found=found))
        if found:
            self.log.append(_event("found", cell=self.hider_at))
            self._finish(
                Outcome(frozenset({SEEKER}), frozenset({"seekers"}),
                        f"the seeker found the hider in round {self.round}", "EX-6")
            )  # fmt: skip
            return
        if success:  # a good roll that missed: the hider is out of range
            self.may_be = frozenset(
                c for c in self.may_be if abs(c - self.seeker_at) > SEARCH_RANGE
            )
        self._end_round()

    def _end_round(self) -> None:
        self.log.append(_event("round_over", round=self.round))
        if self.round >= self.config["rounds"]:
            self._finish(
                Outcome(frozenset({HIDER}), frozenset({"hiders"}),
                        f"the hider stayed hidden for {self.round} rounds", "EX-7")
            )  # fmt: skip
            return
        self.round += 1
        self.phase = BID
        self.allowance = {}

    def _finish(self, outcome: Outcome) -> None:
        self.result = outcome
        self.phase = OVER
        self.log.append(_event("game_over", **outcome.to_json()))

    # ------------------------------------------------------------------ views

    def view(self, seat: str | None) -> PlayerView:
        # Built from knowledge: the public facts, plus what this seat alone knows,
        # plus the events addressed to it. The hider's cell enters only via "you".
        you: dict[str, JSON] = {}
        if seat in (HIDER, SEEKER):
            you["bid"] = self.bids.get(seat)
        if seat == HIDER:
            you["at"] = self.hider_at
            you["steps_left"] = self.steps_left if self.phase == HIDE else None
        data: dict[str, JSON] = {
            "config": self.config.to_json(),
            "round": self.round,
            "phase": self.phase,
            "waiting_for": sorted(self.to_act()),
            "seeker_at": self.seeker_at,
            "seeker_steps_left": self.steps_left if self.phase == SEEK else None,
            "energy": dict(self.energy),
            "allowance": dict(self.allowance) or None,
            "dodges_left": self.dodges_left,
            "hider_may_be": sorted(self.may_be),
            "outcome": None if self.result is None else self.result.to_json(),
            "log": [e.to_json() for e in self.log if e.visible_to(seat)],
            "you": you,
        }
        return PlayerView(self.ruleset.id, seat, data)


def _allowed(state: HideAndSeekState, seat: str, args: tuple[()]) -> Refusal | None:
    return None


_CELL = int_param("cell")
_MOVE = [
    Move("step", "EX-2", HideAndSeekState._check_step, HideAndSeekState._step, (_CELL,),
         lambda s, seat: [(c,) for c in s._step_targets(seat)], complete=True),
    Move("stop", "EX-2", _allowed, HideAndSeekState._stop),
]  # fmt: skip
HideAndSeekState.rules = PhaseTable(
    phase=lambda state: state.phase,
    moves={
        BID: [
            Move("bid", "EX-1", HideAndSeekState._check_bid, HideAndSeekState._bid,
                 (int_param("amount"),), lambda s, seat: [(n,) for n in range(MAX_BID + 1)],
                 complete=True, takes=f"a bid is 0, 1 or {MAX_BID}"),
        ],
        HIDE: _MOVE,
        SEEK: _MOVE,
        SEARCH: [
            Move("search", "EX-4", _allowed, HideAndSeekState._search),
            Move("pass", "EX-4", _allowed, HideAndSeekState._no_search),
        ],
        DODGE: [
            Move("dodge", "EX-5", HideAndSeekState._check_dodge, HideAndSeekState._dodge,
                 (_CELL,), lambda s, seat: [(c,) for c in s._step_targets(seat)],
                 complete=True),
            Move("pass", "EX-5", _allowed, HideAndSeekState._no_dodge),
        ],
    },
    phase_rules={
        BID: ("each round starts with a secret bid", "EX-1"),
        HIDE: ("during a move the mover may only step or stop", "EX-2"),
        SEEK: ("during a move the mover may only step or stop", "EX-2"),
        SEARCH: ("after moving the seeker may search or pass", "EX-4"),
        DODGE: ("the hider may dodge or pass", "EX-5"),
    },
)  # fmt: skip


EXAMPLE = register(HideAndSeek())


class HiderChance(Evaluation):
    """The hider's chance to survive: the rounds behind it, its distance from the seeker
    and its energy lead (weights fitted by ``bench/fit_evaluation.py
    tests.example_game:HideAndSeek 400`` to random play)."""

    side = "hiders"
    model = LogisticModel(
        ("rounds survived", "distance", "energy lead"),
        (1.9881, 4.2309, 0.2735),
        -0.7169,
    )

    def features(self, state: State) -> tuple[float, ...]:
        if not isinstance(state, HideAndSeekState):
            raise TypeError(f"a hide-and-seek state, not {type(state).__name__}")
        rounds = state.config["rounds"]
        return (
            (state.round - 1) / rounds,
            abs(state.hider_at - state.seeker_at) / state.size,
            (state.energy[HIDER] - state.energy[SEEKER]) / (2 * MAX_BID),
        )

    def on_side(self, state: State, seat: str) -> bool:
        return seat == HIDER


HIDER_CHANCE = HiderChance()


class HideAndSeekUnevaluated(HideAndSeek):
    """The example game without an evaluation: ``ismcts`` refuses a ``depth`` on it."""

    id = "hide-and-seek-unevaluated"
    aliases = ()
    evaluation = Ruleset.evaluation  # type: ignore[assignment]


class HideAndSeekUnsampled(HideAndSeek):
    """The example game without ``sample_world``: what a plug-in that cannot sample
    worlds looks like to ``ismcts`` and ``play --level`` (every built-in rule set can)."""

    id = "hide-and-seek-unsampled"
    aliases = ()
    sample_world = Ruleset.sample_world  # type: ignore[assignment]
