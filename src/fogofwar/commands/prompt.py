"""The prompt of ``fogofwar play`` at a real terminal: line editing, history with the
arrow keys and Tab completion of what may be typed now.

prompt_toolkit rather than readline: it is pure Python and behaves the same on every
platform (readline is missing on Windows and is libedit on macOS), it completes from a
callable that can ask the game for its legal actions at each key press, and it keeps
one history object per seat, which the rules need (below).

Secrets. Each seat has its **own** history: in a pass-the-screen game the agent's typed
moves must not come back to a hunter pressing Up. The history lives in memory only, for
the game, never in a file a later player could read.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Sequence
from types import ModuleType

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.history import DummyHistory, InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.input.typeahead import clear_typeahead

from ..core.game import Action

termios: ModuleType | None
try:
    import termios
except ImportError:  # Windows
    termios = None

__all__ = ["ActionCompleter", "SeatPrompts", "candidates", "discard_typeahead"]


def discard_typeahead(source: Input) -> None:
    """Forget every key typed before now: the keys prompt_toolkit read past the last
    line (it keeps them for the next prompt) and those still in the terminal's buffer.

    A hand-over needs it. A player who pressed Enter twice after their action would
    otherwise answer "pass the screen" themselves, and be shown the next seat's
    secrets."""
    clear_typeahead(source)
    if termios is None:
        return  # Windows: no terminal buffer to flush this way
    # Not a terminal (a pipe in tests, a closed input): nothing is queued there.
    with contextlib.suppress(termios.error, OSError, ValueError, NotImplementedError):
        termios.tcflush(source.fileno(), termios.TCIFLUSH)


def candidates(legal: Sequence[Action], words: Sequence[str], commands: Iterable[str]) -> set[str]:
    """What may come as the next word after ``words`` (already typed, complete).

    The first word: the kinds of the legal actions and the prompt's own ``commands``.
    After a kind: the next argument of the legal actions of that kind whose first
    arguments are the ones typed. After a word that is no legal kind (a notation that
    expands to several actions, such as Specter Ops' ``move N1 N2 M3``), every argument
    of a legal action is offered (the squares the seat may step to, ...).
    """
    if not words:
        return {a.kind for a in legal} | set(commands)
    kind, typed = words[0], list(words[1:])
    out: set[str] = set()
    for a in legal:
        args = [str(x) for x in a.args]
        if a.kind == kind and args[: len(typed)] == typed and len(args) > len(typed):
            out.add(args[len(typed)])
    if kind not in commands and all(a.kind != kind for a in legal):
        out = {str(x) for a in legal for x in a.args}
    return out


class ActionCompleter(Completer):
    """Tab completion from the legal actions of the moment (see :func:`candidates`): the
    word under the cursor, and a blank after it."""

    def __init__(self, legal: Callable[[], Sequence[Action]], commands: Iterable[str]) -> None:
        self.legal = legal
        self.commands = tuple(commands)

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterable[Completion]:
        text = document.text_before_cursor
        words = text.split()
        current = "" if not words or text[-1:].isspace() else words.pop()
        for word in sorted(candidates(self.legal(), words, self.commands)):
            if word.startswith(current):
                # With the blank after it, as a shell completes: the next word follows.
                yield Completion(word + " ", start_position=-len(current), display=word)


class SeatPrompts:
    """One prompt session per seat (its own history), completing from ``legal(seat)``."""

    def __init__(self, legal: Callable[[str], Sequence[Action]], commands: Iterable[str]) -> None:
        self.legal = legal
        self.commands = tuple(commands)
        self.sessions: dict[str, PromptSession[str]] = {}
        # "press Enter": no history (prompt_toolkit's default keeps one, which gave a
        # line typed there by one seat back to the next seat's Up).
        self.plain: PromptSession[str] = PromptSession(history=DummyHistory())

    def ask(self, seat: str | None, prompt: str) -> str:
        """Read a line for ``seat`` (``None``: a line that is no action)."""
        if seat is None:
            # A line that is no action is a hand-over's "press Enter": only a key
            # pressed after it is asked counts (discard_typeahead).
            discard_typeahead(self.plain.app.input)
            return self.plain.prompt(prompt)
        session = self.sessions.get(seat)
        if session is None:
            completer = ActionCompleter(lambda: self.legal(seat), self.commands)
            session = self.sessions[seat] = PromptSession(
                history=InMemoryHistory(), completer=completer, complete_while_typing=False
            )
        return session.prompt(prompt)
