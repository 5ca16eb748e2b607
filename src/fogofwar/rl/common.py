"""What both environments share: the rule set and its encodings for one configuration,
the seeding of episodes, the rewards, the spaces and the text drawing.

Only the protocol is used here (:class:`~fogofwar.core.game.Ruleset` and
:class:`~fogofwar.core.game.State`): this package reaches no game's own modules, so a
plug-in rule set (``package.module:Attribute``) works like a built-in one.
"""

from __future__ import annotations

import hashlib
import io
import operator
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..core.errors import IllegalActionError, RulesError
from ..core.game import (
    Action,
    ActionEncoding,
    Config,
    Outcome,
    PlayerView,
    Ruleset,
    State,
    get_ruleset,
)
from ..core.game.observation import ObservationEncoder
from ..core.rng import encode_key
from ..core.secret import new_secret

__all__ = [
    "Episodes",
    "GameSpec",
    "ObsDict",
    "render_text",
    "seat_reward",
]

ObsDict = dict[str, npt.NDArray[Any]]
"""An observation: ``{"observation": float32 array, "action_mask": int8 array}``."""


def seat_reward(outcome: Outcome, seat: str) -> float:
    """+1 for a seat the rules name among the winners (its side won; a traitor's new
    side counts), 0 when no side won (a draw), -1 otherwise (its side lost)."""
    if seat in outcome.winners:
        return 1.0
    if outcome.is_draw:
        return 0.0
    return -1.0


class Episodes:
    """The game secret of each episode, derived from ``reset(seed=)``.

    A seed starts a sequence: episode ``i`` after ``reset(seed=s)`` plays the game whose
    secret is a one-way hash (BLAKE2b, 256 bits) of ``(s, i)``, so the same seed gives the
    same games, and a reset without a seed goes on to the next game of the sequence. The
    first reset without any seed draws a fresh 256-bit secret (:mod:`fogofwar.core.secret`).
    The bots' streams hang off a second secret of the same episode: they tell a bot
    nothing about the game's secret.
    """

    def __init__(self) -> None:
        self._root: int | str | None = None
        self._episode = 0

    def next(self, seed: int | str | None) -> tuple[str, str]:
        """The ``(game secret, bots' secret)`` of the next episode; ``seed`` restarts the
        sequence."""
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, int | str):
                raise TypeError(f"a seed is an int or a str, not {seed!r}")
            self._root, self._episode = seed, 0
        elif self._root is None:
            self._root = new_secret()
        root, episode = self._root, self._episode
        self._episode += 1
        return _derive(root, episode, "game"), _derive(root, episode, "bots")


def cycle_limit(max_cycles: object, default: int) -> int:
    """``max_cycles`` checked: a whole number of actions, 1 or more (``None``: the rule
    set's ``default``). A float, a bool or a string is refused, not rounded or compared.

    Raises:
        ValueError: any other value, named.
    """
    if max_cycles is None:
        return default
    if isinstance(max_cycles, bool) or not isinstance(max_cycles, int) or max_cycles < 1:
        raise ValueError(f"max_cycles is a whole number of actions, 1 or more, not {max_cycles!r}")
    return max_cycles


def _derive(root: int | str, episode: int, purpose: str) -> str:
    key = encode_key(("fogofwar-rl", root, episode, purpose))
    return hashlib.blake2b(key, digest_size=32, person=b"fogofwar-rl").hexdigest()


class GameSpec:
    """A rule set with one resolved configuration: its seats, action encoding,
    observation encoder and spaces, built once."""

    def __init__(
        self,
        ruleset: str | Ruleset,
        config: Mapping[str, Any] | None,
        encoder: ObservationEncoder | None = None,
    ) -> None:
        self.ruleset: Ruleset = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
        self.config: Config = self.ruleset.resolve_config(config)
        self.seats: tuple[str, ...] = tuple(self.ruleset.seats(self.config))
        encoding = self.ruleset.cached_encoding(self.config)
        if encoding is None:
            raise RulesError(
                f"{self.ruleset.id} has no action encoding (Ruleset.encoding): an "
                "environment needs a fixed index for every action"
            )
        self.encoding: ActionEncoding = encoding
        # A learner's own encoder reads the view as the rule set's does: nothing else
        # reaches it (the leak guarantee holds for any encoder).
        self.encoder: ObservationEncoder = (
            encoder if encoder is not None else self.ruleset.observation_encoder(self.config)
        )
        size = encoding.size
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=np.float32(self.encoder.low),
                    high=np.float32(self.encoder.high),
                    shape=tuple(self.encoder.shape),
                    dtype=np.float32,
                ),
                "action_mask": spaces.Box(0, 1, shape=(size,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(size)

    def new_game(self, secret: str) -> State:
        """A new game under ``secret``."""
        return self.ruleset.new_game(self.config, secret)

    def mask(self, state: State, seat: str) -> npt.NDArray[np.int8]:
        """The legal-action mask of ``seat`` now: 1 at the index of every legal action
        (all 0 when it may not act)."""
        mask = np.zeros(self.encoding.size, dtype=np.int8)
        if seat in state.to_act():
            mask[self.encoding.indices(state.legal_actions(seat))] = 1
        return mask

    def observe(self, state: State, seat: str) -> ObsDict:
        """The observation of ``seat``: its view encoded (the view only), and its mask."""
        return {"observation": self.encode(state.view(seat)), "action_mask": self.mask(state, seat)}

    def encode(self, view: PlayerView) -> npt.NDArray[np.float32]:
        """``view`` encoded as the observation space's float32 array."""
        # An encoder returns a new array (the protocol's word), so it is ours to hand
        # out: copied only when it is not float32 already.
        return np.asarray(self.encoder.encode(view), dtype=np.float32)

    def action_of(self, state: State, seat: str, action: object) -> Action:
        """The action of index ``action`` taken by ``seat``, checked: an index out of
        range or not an integer raises :class:`ValueError`; the game's rules check the
        rest when it is applied."""
        try:
            if isinstance(action, bool | np.bool_):
                raise TypeError  # True is an int to Python, not an index to a learner
            index = operator.index(action)  # type: ignore[arg-type]
        except TypeError:
            raise ValueError(
                f"an action is an integer index from 0 to {self.encoding.size - 1}, not {action!r}"
            ) from None
        if not 0 <= index < self.encoding.size:
            raise ValueError(
                f"action index {index} is out of range 0..{self.encoding.size - 1}; "
                f"legal now for {seat}: {self.legal_indices(state, seat)}"
            )
        return self.encoding.decode(index, seat)

    def legal_indices(self, state: State, seat: str) -> list[int]:
        """The indices of ``seat``'s legal actions now, sorted."""
        return sorted(np.flatnonzero(self.mask(state, seat)).tolist())

    def apply(
        self,
        state: State,
        seat: str,
        action: object,
        *,
        mask: npt.NDArray[np.int8] | None = None,
    ) -> None:
        """Apply ``seat``'s action of index ``action``; an illegal one changes nothing.

        ``mask``, when given, is :meth:`mask` of this very state and seat (the
        observation just handed out): an index it allows is a legal action, applied
        without asking the rules again.

        Raises:
            ValueError: not an index of the encoding.
            IllegalActionError: the rules refuse it (with its reason and rule ID), with a
                note naming the index and the legal ones.
        """
        decoded = self.action_of(state, seat, action)
        if mask is not None and mask[operator.index(action)]:  # type: ignore[arg-type]
            state.apply_unchecked(decoded)
            return
        try:
            state.apply(decoded)
        except IllegalActionError as exc:
            index = self.encoding.encode(decoded)
            exc.add_note(
                f"action index {index} ({decoded}); legal indices now for {seat}: "
                f"{self.legal_indices(state, seat)}"
            )
            raise


#: The drawings the environments make: ``"ansi"`` returns the text, ``"human"`` prints it
#: after each reset and step.
RENDER_MODES = ("ansi", "human")
#: What ``metadata["render_fps"]`` says (Gymnasium's and PettingZoo's checks ask for it);
#: a text drawing is printed as each step comes, not paced.
RENDER_FPS = 4


def render_text(ruleset: Ruleset, view: PlayerView, config: Config) -> str:
    """The rule set's terminal drawing of ``view`` (:meth:`Ruleset.render`) as plain
    text, without colours."""
    from rich.console import Console
    from rich.text import Text

    out = ruleset.render(view, config)
    console = Console(
        file=io.StringIO(), width=110, color_system=None, highlight=False, record=True
    )
    # Plain text is printed as it is: a card game's "V12[V! 2x2]" is not console markup.
    console.print(Text(out) if isinstance(out, str) else out, soft_wrap=True)
    return console.export_text()
