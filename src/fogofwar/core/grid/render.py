"""Drawing a board: :func:`render_text` (plain text) and :func:`render_rich` (colour)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Final, TypeAlias

from .board import ROAD_EW, ROAD_NS, Board, Terrain
from .coords import Edge, Square, column_name

if TYPE_CHECKING:
    from rich.text import Text


# --------------------------------------------------------------------------- rendering

# Box-drawing glyph of a wall corner, by which of its arms (up, right, down, left) exist.
_CORNERS: Final = {
    (False, False, False, False): " ",
    (True, False, False, False): "╵",
    (False, True, False, False): "╶",
    (False, False, True, False): "╷",
    (False, False, False, True): "╴",
    (True, False, True, False): "│",
    (False, True, False, True): "─",
    (False, True, True, False): "┌",
    (False, False, True, True): "┐",
    (True, True, False, False): "└",
    (True, False, False, True): "┘",
    (True, True, True, False): "├",
    (True, False, True, True): "┤",
    (False, True, True, True): "┬",
    (True, True, False, True): "┴",
    (True, True, True, True): "┼",
}
_H_GLYPH: Final = {"wall": "───", "closed": "═══", "open": "┄┄┄", "": "   "}
_V_GLYPH: Final = {"wall": "│", "closed": "║", "open": "┆", "": " "}
_ROAD_GLYPH: Final = {ROAD_EW: "=", ROAD_NS: "‖", ROAD_EW | ROAD_NS: "+"}
_EDGE_STYLE: Final = {"wall": "bold bright_white", "closed": "bold red", "open": "green", "": ""}

Segment: TypeAlias = tuple[str, str]  # (text, rich style)


def _terrain_style(t: Terrain) -> str:
    if t.opaque and not t.passable:
        return "bold bright_white on grey35"
    if t.opaque:
        return "bold bright_white on grey23"
    if not t.passable:
        return "bold dark_orange"
    if t.cyl > 0:
        return "green"
    return "grey50"


def _compact(squares: Sequence[Square], limit: int = 8) -> str:
    """``A1-C3`` for a full rectangle in row-major order, else a (shortened) list."""
    if len(squares) > 1:
        r0, c0 = squares[0]
        r1, c1 = squares[-1]
        rect = [Square(r, c) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)]
        if list(squares) == rect:
            return f"{squares[0]}-{squares[-1]}"
    names = [str(s) for s in squares[:limit]]
    if len(squares) > limit:
        names.append(f"... ({len(squares)} squares)")
    return " ".join(names)


def _render(
    board: Board,
    marks: Mapping[Square, str] | None,
    open_doors: Collection[Edge] | None,
    highlight: Collection[Square] | Mapping[Square, str] | None,
    highlight_style: str,
    mark_style: str,
    legend: bool,
    mark_styles: Mapping[Square, str] | None = None,
    under_marks: Mapping[Square, tuple[str, str]] | None = None,
) -> list[list[Segment]]:
    h, w = board.height, board.width
    state = board.door_state(open_doors)
    marks = dict(marks or {})
    for sq, text in marks.items():
        if not board.in_bounds(sq):
            raise ValueError(f"mark on {sq!r}: off the board")
        if len(text) > 3:
            raise ValueError(f"mark {text!r} on {sq}: at most 3 characters")
    # A style per square, or the one highlight style for each square given.
    lit: Mapping[Square, str] = (
        highlight
        if isinstance(highlight, Mapping)
        else dict.fromkeys(highlight or (), highlight_style)
    )

    def h_edge(r: int, c: int) -> str:
        if r in (0, h) or board.walls_h[r, c]:
            return "wall"
        e = Edge("h", r, c)
        return ("open" if state[e] else "closed") if e in state else ""

    def v_edge(r: int, c: int) -> str:
        if c in (0, w) or board.walls_v[r, c]:
            return "wall"
        e = Edge("v", r, c)
        return ("open" if state[e] else "closed") if e in state else ""

    label_w = len(str(h))
    pad = " " * (label_w + 1)
    lines: list[list[Segment]] = []
    header = pad + " " + "".join(column_name(c).center(3) + " " for c in range(w))
    lines.append([(header.rstrip(), "bold")])
    for r in range(h + 1):
        seg: list[Segment] = [(pad, "")]
        for c in range(w + 1):
            arms = (
                r > 0 and bool(v_edge(r - 1, c)),
                c < w and bool(h_edge(r, c)),
                r < h and bool(v_edge(r, c)),
                c > 0 and bool(h_edge(r, c - 1)),
            )
            seg.append((_CORNERS[arms], "bold bright_white"))
            if c < w:
                kind = h_edge(r, c)
                under = (under_marks or {}).get(Square(r - 1, c)) if r > 0 and not kind else None
                if under is not None:
                    # A note under a square (a counter's tokens) where no wall is drawn.
                    seg.append((under[0][:3].center(3), under[1]))
                else:
                    seg.append((_H_GLYPH[kind], _EDGE_STYLE[kind]))
        lines.append(seg)
        if r == h:
            break
        seg = [(str(r + 1).rjust(label_w) + " ", "bold")]
        for c in range(w + 1):
            kind = v_edge(r, c)
            seg.append((_V_GLYPH[kind], _EDGE_STYLE[kind]))
            if c == w:
                break
            sq = Square(r, c)
            t = board.legend[board.terrain[r][c]]
            road = int(board.roads[r, c])
            if sq in marks:
                text = marks[sq].center(3)
                style = (mark_styles or {}).get(sq, mark_style)
            elif road:
                text, style = f" {_ROAD_GLYPH[road]} ", "bright_black on grey15"
            else:
                text, style = f" {t.char} ", _terrain_style(t)
            if sq in lit:
                style = f"{style} {lit[sq]}".strip()
            seg.append((text, style))
        lines.append(seg)
    if legend:
        lines.extend([(text, "")] for text in _legend_lines(board))
    return lines


def _legend_lines(board: Board) -> list[str]:
    out = [""]
    if board.name:
        out.append(f"{board.name} ({board.width}x{board.height}, A1-{board.last_square})")
    out.append("Terrain:")
    width = max(len(t.name) for t in board.legend.values())
    for t in board.legend.values():
        props = [
            "passable" if t.passable else "impassable",
            "opaque" if t.opaque else "transparent",
        ]
        if t.cyl:
            props.append(f"cyl {t.cyl}")
        out.append(f"  {t.char}  {t.name.ljust(width)}  {', '.join(props)}")
    out.append("Edges: ─│ wall   ═║ closed door   ┄┆ open door")
    if board.roads.any():
        out.append("Roads: = east-west   ‖ north-south   + both")
    if board.markers:
        out.append("Markers:")
        width = max(len(k) for k in board.markers)
        for key, squares in board.markers.items():
            out.append(f"  {key.ljust(width)}  {_compact(squares)}")
    return out


def render_text(
    board: Board,
    *,
    marks: Mapping[Square, str] | None = None,
    open_doors: Collection[Edge] | None = None,
    legend: bool = False,
) -> str:
    """The board as plain text: column letters on top, row numbers on the left.

    Each square is 3 characters wide between edge columns, and rows alternate with edge
    rows, so walls (``─ │`` with box-drawing corners), closed doors (``═ ║``) and open
    doors (``┄ ┆``) sit between the squares. A square shows its mark, else its road
    (``=`` east-west, ``‖`` north-south, ``+`` both), else its terrain character.

    Args:
        board: the board.
        marks: text of at most 3 characters to show on squares (models, markers).
        open_doors: doors open now; ``None`` = the board's initial door state.
        legend: append the terrain legend, the glyph key and the markers.

    Raises:
        ValueError: a mark longer than 3 characters or off the board.
    """
    lines = _render(board, marks, open_doors, None, "", "", legend)
    return "\n".join("".join(text for text, _ in line).rstrip() for line in lines) + "\n"


def render_rich(
    board: Board,
    *,
    marks: Mapping[Square, str] | None = None,
    open_doors: Collection[Edge] | None = None,
    highlight: Collection[Square] | Mapping[Square, str] | None = None,
    highlight_style: str = "on dark_blue",
    mark_style: str = "bold magenta",
    mark_styles: Mapping[Square, str] | None = None,
    under_marks: Mapping[Square, tuple[str, str]] | None = None,
    legend: bool = False,
) -> Text:
    """The same picture as :func:`render_text`, as a coloured ``rich.text.Text``.

    Args:
        highlight: squares to shade with ``highlight_style`` (e.g. a possibility map),
            or a style per square (e.g. each corner line's squares).
        mark_style: the rich style of marks.
        mark_styles: a style per marked square, overriding ``mark_style`` there (e.g.
            a model's side and state).
        under_marks: ``(text, style)`` drawn in the gap under a square (at most 3
            characters; e.g. a counter's tokens), where no wall or door is drawn there.

    Returns:
        a :class:`rich.text.Text` (rich is imported on first use only).
    """
    from rich.text import Text  # deferred: the search code must not pay for rich

    lines = _render(
        board,
        marks,
        open_doors,
        highlight,
        highlight_style,
        mark_style,
        legend,
        mark_styles,
        under_marks,
    )
    out = Text()
    for n, line in enumerate(lines):
        if n:
            out.append("\n")
        for text, style in line:
            out.append(text, style=style or None)
    out.rstrip()
    return out
