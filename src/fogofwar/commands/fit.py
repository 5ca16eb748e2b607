"""Fitting a seat's screen to the terminal (``fogofwar play``).

A turn's screen is, top to bottom: the rule ("agent to act"), what happened since the
seat's last action, the board, the facts (status, whose turn, the seat's own state), the
legal actions and the prompt. When it all fits, it is shown whole. When it does not, the
facts, the legal line and the prompt stay whole; the news is cut to its latest lines; and
the board is shown through a **window** around the seat's own figure (:attr:`Screen.focus`)
with its column letters and row numbers kept, plus a line saying that ``map`` shows all
of it. A board wider than the terminal is cut the same way, left and right.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text

__all__ = ["Layout", "layout", "strips", "window"]

#: The fewest board lines worth showing (with its header) before the news gives way.
MIN_BOARD = 8


@dataclass(frozen=True, slots=True)
class Layout:
    """How many lines the news and the board get.

    Attributes:
        news: the news lines to show (the latest).
        board: the board's lines (its header included).
        cut: whether the board is windowed (then a hint line follows it).
    """

    news: int
    board: int
    cut: bool


def layout(*, height: int, fixed: int, facts: int, news: int, board: int) -> Layout:
    """Share ``height`` lines: ``fixed`` (rule, legal line, prompt) and ``facts`` always,
    then the board and the news (each news line counted once, its heading too)."""
    room = height - fixed - facts
    heading = 1 if news else 0
    if board + news + heading <= room:
        return Layout(news, board, False)
    # The latest news in up to a third of the room (the heading says how many are
    # left out), the board in the rest, a line saying it is a window under it.
    shown = min(news, max(2, room // 3), max(room - 1 - heading - MIN_BOARD, 0))
    lines = room - 1 - (heading if shown else 0) - shown
    return Layout(shown, max(min(board, lines), 2), board > lines)


def _lines(board: Text) -> list[Text]:
    lines = list(board.split("\n", allow_blank=True))
    while lines and not lines[-1].plain.strip():
        lines.pop()
    return lines


def window(
    board: Text,
    *,
    width: int,
    height: int,
    header: int,
    margin: int,
    focus: tuple[int, int] | None,
) -> Text:
    """The part of ``board`` that fits ``width`` × ``height``, centred on ``focus``
    (a ``(line, character)``), its first ``header`` lines and ``margin`` characters kept."""
    lines = _lines(board)
    line, char = focus if focus is not None else (header, margin)
    body = lines[header:]
    rows = max(height - header, 1)
    if len(body) > rows:
        start = min(max(line - header - rows // 2, 0), len(body) - rows)
        body = body[start : start + rows]
    kept = lines[:header] + body
    widest = max((len(t) for t in kept), default=0)
    if widest > width:
        cols = max(width - margin, 1)
        start = min(max(char - margin - cols // 2, 0), widest - margin - cols)
        kept = [t[:margin] + t[margin + start : margin + start + cols] for t in kept]
    return Text("\n").join(kept)


def strips(board: Text, *, width: int, margin: int) -> list[Text]:
    """The whole board in vertical strips that each fit ``width`` (row numbers on each),
    for ``map``."""
    lines = _lines(board)
    widest = max((len(t) for t in lines), default=0)
    cols = max(width - margin, 1)
    out = []
    start = 0
    while start < max(widest - margin, 1):
        piece = [t[:margin] + t[margin + start : margin + start + cols] for t in lines]
        out.append(Text("\n").join(piece))
        start += cols
    return out
