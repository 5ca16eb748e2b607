"""Verifying a record against its commitment and digest chain, and the recorder that
plays a game and keeps its record."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import BadDataError
from ..game import JSON, Action, Event, Ruleset
from ..rng import check_seed
from ..secret import SECRET_BITS, commitment, matches, new_secret
from .chain import DIGEST_CHARS, chain_start, chain_step
from .file import Record

__all__ = ["SEEDED", "WARNINGS", "WEAK", "Recorder", "Verdict", "verify_record"]

#: The fewest bits a game's secret may have (the project's rule: at least 128).
MIN_SECRET_BITS = 128


#: How the check that warns of a chosen seed begins: a warning among the checks, which
#: ``fogofwar verify`` marks as one rather than with a tick.
SEEDED = "the game was seeded"

#: How the check that warns of a weak secret begins (a warning too): a record that
#: calls its seed a secret, of fewer bits than the umpire's secrets have.
WEAK = "the game's secret is weak"

#: The checks that are warnings, by how they begin.
WARNINGS = (SEEDED, WEAK)


def _secret_bits(seed: int | str) -> int:
    """How many bits a seed holds at most: a number's length (at most 64), 4 a hex digit
    of a text seed (32 to 128 of them, :func:`~fogofwar.core.rng.check_seed`)."""
    return seed.bit_length() if isinstance(seed, int) else 4 * len(seed)


@dataclass(frozen=True)
class Verdict:
    """What :func:`verify_record` found.

    Attributes:
        verified: every check passed.
        checks: one sentence per check, in order.
        problem: why it failed (``None`` when verified).
        actions: the record's number of actions.
        finished: whether the game is over.
    """

    verified: bool
    checks: tuple[str, ...]
    problem: str | None
    actions: int
    finished: bool


def verify_record(record: Record) -> Verdict:
    """Check that a game was played fairly from its secret: the seed matches the
    commitment every seat was shown, every action replays from it to its recorded digest
    (so every roll, draw and shuffle came from the seed), and the outcome is the recorded
    one. A format 1 record cannot be verified.

    Raises:
        BadDataError: the record's rule set is not installed, or
            (:class:`RecordVersionError`) it needs another version of it.
    """
    n, finished = len(record.actions), record.outcome is not None
    checks: list[str] = []

    def failed(problem: str) -> Verdict:
        return Verdict(False, tuple(checks), problem, n, finished)

    committed = record.commitment
    if committed is None or not record.verifiable:
        return failed(
            f"a format {record.version} record has no commitment and no digest chain: "
            "it replays, but it cannot be verified"
        )
    if record.seeded:
        checks.append(SEEDED + ": its seed was chosen, not secret, so whoever knew it could "
                      "know every hidden fact")  # fmt: skip
    elif (bits := _secret_bits(record.seed)) < MIN_SECRET_BITS:
        # Not the umpire's (it draws 256 bits): a small "secret" may be found from the
        # commitment every seat was shown by trying seeds.
        checks.append(
            f"{WEAK}: the record says it is secret, but it holds at most {bits} bits (the "
            f"umpire's have {SECRET_BITS}), so it could be found from the commitment by "
            "trying seeds"
        )
    if not matches(record.seed, committed):
        return failed(f"the seed does not match the commitment {committed}")
    checks.append(f"the seed matches the commitment {committed}")
    record.check_ruleset()  # another fogofwar is needed: the record cannot be judged here
    try:
        record.replay()
    except BadDataError as exc:
        return failed(str(exc))
    checks.append(
        f"all {n} actions replay from the seed to their recorded digests: every roll, draw "
        "and shuffle came from it"
    )
    if record.outcome is not None:
        checks.append(f"the outcome is the recorded one: {record.outcome.reason}")
    else:
        checks.append("the game is not over: it is verified as far as it was played")
    return Verdict(True, tuple(checks), None, n, finished)


class Recorder:
    """Play a game and keep its record.

    Every action goes through :meth:`apply`, which checks it and records it once it is
    legal (an illegal action raises and is not recorded), with its link of the digest
    chain. Acting on :attr:`state` directly bypasses the record.

    Without a ``seed`` the game gets a fresh secret (:func:`~fogofwar.core.secret.new_secret`)
    and is not *seeded*; :attr:`commitment` is what to show every seat at the start.

    Example:
        >>> rec = Recorder(ruleset, {"cells": 7}, seed=5)        # doctest: +SKIP
        >>> rec.apply(Action("hider", "bid", (1,)))               # doctest: +SKIP
        >>> rec.record().save("game.json")                        # doctest: +SKIP
    """

    def __init__(
        self,
        ruleset: Ruleset,
        config: Mapping[str, Any] | None = None,
        seed: int | str | None = None,
        *,
        meta: Mapping[str, JSON] | None = None,
        seeded: bool | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.config = ruleset.resolve_config(config)
        # A game resumed from its stored secret is not seeded: say so (``seeded=False``).
        self.seeded = seed is not None if seeded is None else seeded
        # The umpire's secret, like the record itself.
        self._seed = check_seed(new_secret() if seed is None else seed)
        self.commitment = commitment(self._seed)
        self.state = ruleset.new_game(self.config, self._seed)
        self.meta: dict[str, JSON] = dict(meta or {})
        self._actions: list[Action] = []
        self._digests: list[str] = []
        self._chain = chain_start(ruleset, self.config, self.commitment, self.seeded, self.state)

    @property
    def actions(self) -> tuple[Action, ...]:
        """The actions applied so far."""
        return tuple(self._actions)

    def __len__(self) -> int:
        """How many actions have been applied (without copying them)."""
        return len(self._actions)

    def digests_since(self, start: int) -> tuple[str, ...]:
        """The digest chain's links of the actions from the ``start``-th on."""
        return tuple(self._digests[start:])

    def apply(self, action: Action) -> list[Event]:
        """Apply ``action`` (checked) and record it.

        Raises:
            IllegalActionError: as :meth:`State.apply`; nothing is recorded.
        """
        events = self.state.apply(action)
        self._actions.append(action)
        self._chain = chain_step(self._chain, action, events, self.state)
        self._digests.append(self._chain.hex()[:DIGEST_CHARS])
        return events

    def record(self) -> Record:
        """Return the record of the game so far (with the outcome once it is over)."""
        return Record(
            ruleset=self.ruleset.id,
            ruleset_version=self.ruleset.version,
            config=self.config.to_json(),
            seed=self._seed,
            actions=tuple(self._actions),
            outcome=self.state.outcome(),
            digests=tuple(self._digests),
            seeded=self.seeded,
            commitment=self.commitment,
            meta=dict(self.meta),
        )

    def __repr__(self) -> str:
        return f"Recorder({self.ruleset.id}, {len(self._actions)} actions)"
