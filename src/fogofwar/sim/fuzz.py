"""A fuzzer for the umpire's public path: actions, notation, JSON, encoding indices.

:func:`fuzz` plays games of any registered rule set (plug-ins included) and, at every
position, throws inputs at it from every seat — legal actions, illegal and malformed ones,
notation strings, JSON actions and action-encoding indices — the way a hostile player or a
buggy client would, including after the end. It goes only through the protocol, so it
knows no game. After each input it checks the umpire's promises:

* **A refusal is a refusal.** An input that is not legal raises a
  :class:`~fogofwar.core.errors.RulesError` subclass; an
  :class:`~fogofwar.core.errors.IllegalActionError` carries a non-empty reason and a rule
  (``None`` only for protocol refusals: an unknown seat or kind, a seat not to act).
  Anything else — ``ValueError``, ``KeyError``, ``RuntimeError``, a hang — is a *crash*.
* **A refusal changes nothing:** the state, every seat's view and every legal list are
  the same after a run of refused inputs as before it.
* **Legal actions are well formed:** every legal action of every seat has an index in the
  action encoding, and round-trips through JSON and through the text notation (whose
  shorthand may add what it implies: a lone ``drive K18`` drives there and stops, so its
  parse starts with the action).
* **Records replay:** at the end of each game (and when the run stops) the record so far,
  written and read back, replays — digest chain checked — to the same views and legal
  lists.

Every input is drawn from one keyed stream of the fuzzer's seed, so a run (and any finding
it reports) is reproducible: a finding names the game's seed and the input.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fogofwar.core.errors import IllegalActionError, RulesError
from fogofwar.core.game import JSON, Action, ActionEncoding, Config, Ruleset, State, canonical_json
from fogofwar.core.record import Record, Recorder
from fogofwar.core.rng import Stream, stream

__all__ = ["Finding", "FuzzReport", "fingerprint", "fuzz"]

#: Inputs thrown at one position before a legal action moves the game on (then the
#: position's fingerprint is compared: a refusal that changed anything is caught there).
BURST = 12
#: Inputs thrown at a finished game before the next one starts.
AFTER_END = 20
#: The most findings of each kind kept in a report (they are counted beyond it).
KEEP = 20

# Text that has broken parsers: digits that are not ASCII, signs, separators, escapes.
_ODD_TOKENS = (
    "²",
    "①",
    "٣",
    "۹",
    "𝟙",
    "Ⅻ",
    "½",
    "-0",
    "+1",
    "0x1f",
    "1e9",
    "99999999999999999999",
    "-1",
    "0",
    "",
    " ",
    "\t",
    "\x00",
    "\x1b[A",
    "'",
    '"',
    "\\",
    "{}",
    "[]",
    "null",
    "None",
    "nan",
    "inf",
    "-inf",
    "é",
    "ß",
    "İ",
    "ﬁ",
    "Ａ１",
    "a" * 300,
    "ю",
    "漢",
    "🙂",
    "\u200b",
    "\u202e",
    ",",
    ";",
    "=",
    ":",
    "…",
)
_JSON_JUNK: tuple[JSON, ...] = (
    None,
    True,
    False,
    0,
    -1,
    1.5,
    10**30,
    float("inf"),
    "",
    "x",
    [],
    {},
    [1, [2]],
    {"a": {"b": {}}},
    "²",
)


@dataclass(frozen=True)
class Finding:
    """One broken promise.

    Attributes:
        kind: ``"crash"`` (an exception that is not a refusal), ``"changed"`` (a refused
            input changed the state or a view), ``"refusal"`` (a refusal without its
            reason or rule), ``"accepted"`` (an input applied after the end),
            ``"encoding"``, ``"json"``, ``"notation"`` (a legal action that does not
            encode or round-trip), ``"replay"`` (the record does not replay the same).
        game_seed: the seed of the game it happened in.
        position: the number of actions applied before it.
        input: the input, as text.
        message: what went wrong (a crash's exception and the place it was raised).
    """

    kind: str
    game_seed: int
    position: int
    input: str
    message: str

    def to_json(self) -> dict[str, JSON]:
        """Return the JSON form."""
        return {
            "kind": self.kind,
            "game_seed": self.game_seed,
            "position": self.position,
            "input": self.input,
            "message": self.message,
        }


@dataclass
class FuzzReport:
    """The figures of a fuzzing run.

    Attributes:
        ruleset: the rule set's id.
        config: the configuration fuzzed.
        seed: the fuzzer's seed.
        inputs: inputs thrown (each action, text, JSON value or index is one).
        applied: inputs that were legal and were applied.
        refused: inputs refused with a proper error.
        games: games started.
        finished: games played to their end.
        checks: invariant checks made (fingerprints, round trips, replays).
        by_source: inputs by generator.
        ruleless: refusals (by a seat to act, of a well-formed action) without a rule ID.
        findings: the broken promises (at most :data:`KEEP` of each kind are kept).
        counts: findings by kind (all of them).
        seconds: the run's wall time.
    """

    ruleset: str
    config: Mapping[str, JSON]
    seed: int
    inputs: int = 0
    applied: int = 0
    refused: int = 0
    games: int = 0
    finished: int = 0
    checks: int = 0
    by_source: dict[str, int] = field(default_factory=dict)
    ruleless: dict[str, int] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """No crash and no broken promise."""
        return not self.counts

    def add(self, finding: Finding) -> None:
        """Count a finding (and keep it, up to :data:`KEEP` of its kind)."""
        n = self.counts.get(finding.kind, 0)
        self.counts[finding.kind] = n + 1
        if n < KEEP:
            self.findings.append(finding)

    def to_json(self) -> dict[str, JSON]:
        """Return the JSON form."""
        return {
            "ruleset": self.ruleset,
            "config": dict(self.config),
            "seed": self.seed,
            "inputs": self.inputs,
            "applied": self.applied,
            "refused": self.refused,
            "games": self.games,
            "finished": self.finished,
            "checks": self.checks,
            "by_source": dict(sorted(self.by_source.items())),
            "ruleless": dict(sorted(self.ruleless.items())),
            "crashes": self.counts.get("crash", 0),
            "violations": sum(n for k, n in self.counts.items() if k != "crash"),
            "counts": dict(sorted(self.counts.items())),
            "findings": [f.to_json() for f in self.findings],
            "seconds": round(self.seconds, 3),
            "inputs_per_second": round(self.inputs / self.seconds) if self.seconds else None,
        }


def fingerprint(state: State, seats: Sequence[str]) -> str:
    """Everything a seat or a spectator receives, in one string: every view, every seat's
    legal actions, who is to act and the outcome."""
    outcome = state.outcome()
    parts = {
        "views": {str(s): state.view(s).canonical() for s in (*seats, None)},
        "legal": {s: [a.to_json() for a in state.legal_actions(s)] for s in seats},
        "to_act": sorted(state.to_act()),
        "outcome": None if outcome is None else outcome.to_json(),
    }
    return canonical_json(parts)


class _Run:
    """One fuzzing run's state: the report, the stream, the rule set's facts."""

    def __init__(self, ruleset: Ruleset, config: Config, seed: int) -> None:
        self.rs = ruleset
        self.config = config
        self.seats = tuple(ruleset.seats(config))
        self.rng = stream(seed, "fuzz", ruleset.id)
        self.report = FuzzReport(ruleset.id, config.to_json(), seed)
        self.encoding: ActionEncoding | None = ruleset.cached_encoding(config)
        kinds = set(self.encoding.kinds()) if self.encoding is not None else set()
        self.kinds = sorted(kinds | {"step", "stop", "pass", "move", "x"})
        self.tokens: list[str] = []  # words seen in legal actions: realistic arguments
        self.game_seed = 0
        self.position = 0
        self.legal: dict[str, list[Action]] = {}

    # ------------------------------------------------------------------ findings

    def find(self, kind: str, what: object, message: str) -> None:
        self.report.add(Finding(kind, self.game_seed, self.position, _text(what), message))

    def crash(self, what: object, exc: BaseException) -> None:
        where = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
        place = f" at {where.filename.rsplit('/', 1)[-1]}:{where.lineno}" if where else ""
        self.find("crash", what, f"{type(exc).__name__}: {exc}{place}")

    # ------------------------------------------------------------------ one input

    def offer(self, rec: Recorder, action: Action, source: str) -> bool:
        """Throw one action at the game through the checked path (the recorder's
        ``apply``, as ``play`` and the server use it): applied and recorded if legal,
        else the refusal is checked. Returns whether the game moved on."""
        try:
            rec.apply(action)
        except RulesError as exc:
            self.check_refusal(action, exc, rec.state)
            return False
        except Exception as exc:
            self.crash(action, exc)
            raise _Abandon from None
        self.report.applied += 1
        self.position += 1
        self.legal.clear()
        return True

    def legal_of(self, state: State, seat: str) -> list[Action]:
        """``seat``'s legal actions at this position (kept until the game moves on)."""
        if seat not in self.legal:
            self.legal[seat] = list(state.legal_actions(seat))
        return self.legal[seat]

    def check_refusal(self, action: Action, exc: RulesError, state: State) -> None:
        self.report.refused += 1
        if not isinstance(exc, IllegalActionError):
            self.find("refusal", action, f"refused with {type(exc).__name__}, not a refusal")
            return
        reason, rule = getattr(exc, "reason", None), getattr(exc, "rule", None)
        if not isinstance(reason, str) or not reason.strip():
            self.find("refusal", action, "a refusal without a reason")
        if rule is not None and (not isinstance(rule, str) or not rule):
            self.find("refusal", action, f"a refusal whose rule is {rule!r}")
        protocol = (
            state.is_over
            or action.seat not in self.seats
            or action.seat not in state.to_act()
            or (self.encoding is not None and action.kind not in self.encoding.kinds())
        )
        if rule is None and not protocol:
            self.report.ruleless[action.kind] = self.report.ruleless.get(action.kind, 0) + 1

    def text(self, rec: Recorder, text: str, seat: str) -> bool:
        """Throw one line of notation at the game (as ``play`` does)."""
        try:
            actions = self.rs.parse_actions(text, seat, rec.state)
        except RulesError as exc:
            self.report.refused += 1
            if not str(exc):
                self.find("refusal", text, "a notation error without a message")
            return False
        except Exception as exc:
            self.crash(f"notation {text!r}", exc)
            return False
        moved = False
        for action in actions[:3]:
            if not self.offer(rec, action, "notation"):
                break
            moved = True
        return moved

    def json_action(self, rec: Recorder, data: JSON) -> bool:
        try:
            action = Action.from_json(data)
        except RulesError:
            self.report.refused += 1
            return False
        except Exception as exc:
            self.crash(f"json {data!r}", exc)
            return False
        return self.offer(rec, action, "json")

    def index(self, rec: Recorder, index: int, seat: str) -> bool:
        if self.encoding is None:
            return False
        try:
            action = self.encoding.decode(index, seat)
        except RulesError:
            self.report.refused += 1
            return False
        except Exception as exc:
            self.crash(f"index {index}", exc)
            return False
        return self.offer(rec, action, "index")

    # ------------------------------------------------------------------ generators

    def draw(self, state: State) -> Callable[[Recorder], bool]:
        """Draw one input from one generator, against ``state``; returns its thrower (which
        can be thrown again at a replay of the same position)."""
        r = self.rng
        seat = r.choice(self.seats) if r.randbelow(20) else r.choice(("nobody", "", "AGENT"))
        legal = self.legal_of(state, seat) if seat in self.seats else []
        source = r.choice(("mutant", "mutant", "other-seat", "notation", "json", "index", "junk"))
        self.report.by_source[source] = self.report.by_source.get(source, 0) + 1
        self.report.inputs += 1
        if source == "notation":
            text = self.notation(r.choice(legal) if legal else None)
            return lambda rec: self.text(rec, text, seat)
        if source == "json":
            data = self.json_value(seat, legal)
            return lambda rec: self.json_action(rec, data)
        if source == "index":
            size = self.encoding.size if self.encoding is not None else 10
            index = r.randint(-3, size + 3) if r.randbelow(4) else r.randbelow(max(size, 1))
            return lambda rec: self.index(rec, index, seat)
        if source == "mutant":
            base = r.choice(legal) if legal else Action(seat, r.choice(self.kinds))
            action = self.mutate(base)
        elif source == "other-seat":
            pool = [a for s in sorted(state.to_act()) for a in self.legal_of(state, s)]
            a = r.choice(pool) if pool else Action(seat, r.choice(self.kinds))
            action = Action(seat, a.kind, a.args)
        else:
            kind = r.choice(self.kinds)
            action = Action(seat, kind, tuple(self.token() for _ in range(r.randbelow(4))))
        return lambda rec: self.offer(rec, action, source)

    def token(self) -> int | str:
        r = self.rng
        pick = r.randbelow(10)
        if pick < 4 and self.tokens:
            return r.choice(self.tokens)
        if pick < 6:
            return r.choice(_ODD_TOKENS)
        if pick < 8:
            return r.choice((0, 1, -1, 2, 7, 99, 10**12, -(10**30)))
        return r.choice(self.kinds)

    def mutate(self, action: Action) -> Action:
        r = self.rng
        args = list(action.args)
        how = r.randbelow(6)
        if how == 0 and args:
            args.pop(r.randbelow(len(args)))
        elif how == 1:
            args.insert(r.randbelow(len(args) + 1), self.token())
        elif how == 2 and args:
            args[r.randbelow(len(args))] = self.token()
        elif how == 3:
            return Action(action.seat, r.choice(self.kinds), tuple(args))
        elif how == 4 and args:
            i = r.randbelow(len(args))
            a = args[i]
            args[i] = str(a) if isinstance(a, int) else (int(a) if a.isdecimal() else a.upper())
        else:
            args = [self.token() for _ in range(r.randbelow(3))]
        return Action(action.seat, action.kind, tuple(args))

    def notation(self, base: Action | None) -> str:
        r = self.rng
        words = str(base).split() if base is not None and r.randbelow(3) else []
        if not words:
            words = [r.choice(self.kinds), *(str(self.token()) for _ in range(r.randbelow(4)))]
        how = r.randbelow(5)
        if how == 0 and words:
            words[r.randbelow(len(words))] = str(self.token())
        elif how == 1:
            words.insert(r.randbelow(len(words) + 1), str(self.token()))
        elif how == 2:
            return "".join(r.choice(_ODD_TOKENS) for _ in range(r.randbelow(6)))
        elif how == 3 and words:
            w = words[-1]
            cut = r.randbelow(len(w) + 1)
            words[-1] = w[:cut] + r.choice(_ODD_TOKENS) + w[cut:]
        return r.choice((" ", "  ", "\t", ",")).join(words)

    def json_value(self, seat: str, legal: list[Action]) -> JSON:
        r = self.rng
        base = (r.choice(legal) if legal else Action(seat, r.choice(self.kinds))).to_json()
        how = r.randbelow(6)
        if how == 0:
            return r.choice(_JSON_JUNK)
        key = r.choice(("seat", "kind", "args"))
        if how == 1:
            base[key] = r.choice(_JSON_JUNK)
        elif how == 2:
            base.pop(key)
        elif how == 3:
            base["args"] = [r.choice(_JSON_JUNK) if r.randbelow(2) else self.token()]
        elif how == 4:
            base["extra"] = {"nested": [[[[]]]]}
        return base

    # ------------------------------------------------------------------ invariants

    def check_legal(self, state: State) -> None:
        """Every legal action encodes and round-trips through JSON and notation."""
        for seat in sorted(state.to_act()):
            for a in self.legal_of(state, seat):
                for w in (str(x) for x in a.args):
                    if len(self.tokens) < 400 and w not in self.tokens:
                        self.tokens.append(w)
                self.report.checks += 1
                if self.encoding is not None and not self.encoding.has(a):
                    self.find("encoding", a, "a legal action without an encoding index")
                try:
                    if Action.from_json(a.to_json()) != a:
                        self.find("json", a, "does not round-trip through JSON")
                except Exception as exc:
                    self.crash(a, exc)
                try:
                    parsed = self.rs.parse_actions(str(a), seat, state)
                except Exception as exc:
                    self.find("notation", a, f"its notation is refused: {exc}")
                    continue
                # The notation may add what its shorthand implies (a lone ``drive K18``
                # drives there and stops): the action itself must come first.
                if not parsed or parsed[0] != a or any(p.seat != seat for p in parsed):
                    self.find("notation", a, f"its notation parses as {list(map(str, parsed))}")

    def check_replay(self, rec: Recorder) -> None:
        """The record so far, written and read back, replays to the same state."""
        self.report.checks += 1
        try:
            record = Record.loads(rec.record().dumps(), source="<fuzz>")
            replayed = record.replay(self.rs)
        except Exception as exc:
            self.find("replay", f"record of {len(rec.actions)} actions", f"{exc}")
            return
        if fingerprint(replayed, self.seats) != fingerprint(rec.state, self.seats):
            self.find("replay", f"record of {len(rec.actions)} actions", "replays differently")

    def locate_change(self, rec: Recorder, inputs: list[Callable[[Recorder], bool]]) -> str:
        """Which refused input changed the state: replay the record and throw them again,
        one at a time, comparing fingerprints."""
        trial = Recorder(self.rs, self.config, self.game_seed)
        for a in rec.actions:
            trial.apply(a)
        for i, throw in enumerate(inputs):
            before = fingerprint(trial.state, self.seats)
            try:
                throw(trial)
            except _Abandon:
                return f"input {i} of the burst, at action {len(rec.actions)}"
            if fingerprint(trial.state, self.seats) != before:
                return f"input {i} of the burst, at action {len(rec.actions)}"
        return "not found again (the change depends on more than the position)"


class _Abandon(Exception):
    """Stop this game: it may be broken (a finding was recorded)."""


def fuzz(
    ruleset: Ruleset,
    config: Mapping[str, Any] | None = None,
    *,
    inputs: int,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
    max_seconds: float | None = None,
) -> FuzzReport:
    """Fuzz a rule set with ``inputs`` inputs (see the module documentation).

    Args:
        ruleset: the rule set (any registered one, plug-ins included).
        config: its options (defaults for the rest).
        inputs: how many inputs to throw.
        seed: the fuzzer's seed: the same seed throws the same inputs.
        progress: called with the number of inputs thrown so far, now and then.
        max_seconds: stop early after this long (the report says how many were thrown).
    """
    cfg = ruleset.resolve_config(config)
    run = _Run(ruleset, cfg, seed)
    report = run.report
    started = time.perf_counter()
    game_seeds = _seeds(stream(seed, "fuzz-games", ruleset.id))
    while report.inputs < inputs:
        if max_seconds is not None and time.perf_counter() - started > max_seconds:
            break
        run.game_seed = next(game_seeds)
        run.position = 0
        run.legal.clear()
        report.games += 1
        try:
            rec = Recorder(ruleset, cfg, run.game_seed)
        except Exception as exc:
            run.crash("new game", exc)
            continue
        try:
            _play(run, rec, inputs, progress)
        except _Abandon:
            continue
        run.check_replay(rec)
        if rec.state.is_over:
            report.finished += 1
            for _ in range(AFTER_END):
                if report.inputs >= inputs:
                    break
                try:
                    if run.draw(rec.state)(rec):
                        run.find("accepted", "after the end", "an input was applied")
                        break
                except _Abandon:
                    break
    report.seconds = time.perf_counter() - started
    return report


def _play(run: _Run, rec: Recorder, inputs: int, progress: Callable[[int], None] | None) -> None:
    report, rng = run.report, run.rng
    limit = run.rs.metadata.max_length
    while not rec.state.is_over and report.inputs < inputs and len(rec.actions) < limit:
        state = rec.state
        run.check_legal(state)
        before = fingerprint(state, run.seats)
        report.checks += 1
        thrown: list[Callable[[Recorder], bool]] = []
        moved = False
        for _ in range(BURST):
            throw = run.draw(state)
            thrown.append(throw)
            moved = throw(rec)
            if moved or report.inputs >= inputs:
                break
        if not moved:
            if fingerprint(rec.state, run.seats) != before:
                where = run.locate_change(rec, thrown)
                run.find("changed", where, "a refused input changed what a seat receives")
                raise _Abandon
            acting = sorted(rec.state.to_act())
            if not acting:
                run.find("crash", "to_act", "the game is not over but no seat may act")
                raise _Abandon
            seat = rng.choice(acting)
            options = run.legal_of(rec.state, seat)
            if not options:
                run.find("crash", seat, "a seat to act has no legal action")
                raise _Abandon
            run.offer(rec, rng.choice(options), "legal")
        if progress is not None and report.inputs % 1000 < BURST:
            progress(report.inputs)


def _seeds(s: Stream) -> Iterator[int]:
    while True:
        yield s.randbelow(1 << 63)


def _text(what: object) -> str:
    text = str(what) if not isinstance(what, str) else what
    return text if len(text) <= 200 else text[:199] + "…"
