"""Draw the documentation's pictures with fogofwar's own renderers (``make docs``).

Every picture is what a command prints, recorded by rich and saved as SVG, so the docs
show the real screens and stay true when the renderers change: the corner lines of
``fogofwar los``, a board's walls and doors (``fogofwar board show``), and a play screen
of each rule set at 80×24 (``fogofwar play``, seeded, the first human turn).

Run: ``.venv/bin/python docs/pictures/generate.py [FOLDER]`` (default: this folder).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from rich.console import Console

from fogofwar.commands.board import board_show
from fogofwar.commands.los import los
from fogofwar.commands.play import TerminalGame
from fogofwar.core.game import get_ruleset

HERE = Path(__file__).resolve().parent

#: The play screens: file name -> (rule set, options, seed).
PLAY = {
    "play-specter-ops": ("specter-ops", {"players": 3, "characters": False}, 4),
    "play-zero-dark": ("zero-dark", {}, 3),
    "play-rock-n-roll": ("rock-n-roll", {}, 3),
    "play-warfighter": ("warfighter", {}, 3),
}


class _Stop(Exception):
    """Raised at the first prompt: the screen is drawn, the picture is taken."""


def _play(ruleset: str, config: dict[str, object], seed: int) -> Callable[[Console], None]:
    def draw(console: Console) -> None:
        rs = get_ruleset(ruleset)
        seat = rs.seats(rs.resolve_config(config))[0]

        def read(prompt: str) -> str:
            console.print(prompt, end="")
            raise _Stop

        game = TerminalGame(
            rs, config, seed, {seat: "human"}, console=console,
            record_path=Path("/nonexistent/unused.json"), read=read,
        )  # fmt: skip
        try:
            game.run()  # the bots act, then the first human turn is drawn
        except _Stop:
            return

    return draw


def pictures() -> dict[str, tuple[str, int, int | None, Callable[[Console], None]]]:
    """Each picture: (title, width, height or None for as tall as it is, drawing)."""
    out: dict[str, tuple[str, int, int | None, Callable[[Console], None]]] = {
        "los-corner-lines": (
            "fogofwar los demo C10 F8",
            100,
            None,
            lambda c: los(
                "demo",
                "C10",
                "F8",
                model="corner",
                viewer_cyl=3,
                target_cyl=3,
                facing=None,
                origin="centre",
                character=False,
                road_rule=True,
                open_doors=[],
                json_out=False,
                console=c,
            ),
        ),
        "board-walls-doors": (
            "fogofwar board show zd-corridor",
            100,
            None,
            lambda c: board_show("zd-corridor", plain=False, json_out=False, console=c),
        ),
    }
    for name, (ruleset, config, seed) in PLAY.items():
        out[name] = (f"fogofwar play {ruleset} (80×24)", 80, 24, _play(ruleset, config, seed))
    return out


def generate(folder: Path) -> list[Path]:
    """Write every picture into ``folder``; returns the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (title, width, height, draw) in pictures().items():
        console = Console(
            record=True, width=width, height=height or 200, force_terminal=True,
            color_system="truecolor", file=open("/dev/null", "w"),  # noqa: SIM115
        )  # fmt: skip
        draw(console)
        path = folder / f"{name}.svg"
        path.write_text(console.export_svg(title=title), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE
    for path in generate(target):
        print(path)
