"""The ``fogofwar`` command (Typer + rich).

Every sub-command turns bad input into a one-line error on stderr and exit status 2,
never a traceback: :func:`main` catches the project's :class:`RulesError` family (and
missing or unreadable files) around the whole Typer application.
"""

from __future__ import annotations

import os
import sys

import typer
from rich.console import Console
from rich.markup import escape

from . import __version__
from .commands.readable import HELP_OPTIONS, ReadableGroup
from .core.errors import RulesError
from .sim.command import sim_command

__all__ = ["app", "main"]


app = typer.Typer(
    name="fogofwar",
    cls=ReadableGroup,
    help="A digital umpire for tabletop wargames: rules, secrets, dice, odds and bots.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
    context_settings=HELP_OPTIONS,
)
odds_app = typer.Typer(
    cls=ReadableGroup,
    help="Exact odds of rolls.",
    no_args_is_help=True,
    context_settings=HELP_OPTIONS,
)
board_app = typer.Typer(
    cls=ReadableGroup, help="Boards and maps.", no_args_is_help=True, context_settings=HELP_OPTIONS
)
app.add_typer(odds_app, name="odds")
app.add_typer(board_app, name="board")
app.command("sim")(sim_command)


def _out() -> Console:
    # Made per call, not at import: tests swap sys.stdout, and a console bound at import
    # time would keep writing to the old stream.
    return Console(highlight=False)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"fogofwar {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Show the version and exit."
    ),
) -> None:
    """A digital umpire for tabletop wargames."""


@app.command("rulesets")
def rulesets_command(
    ruleset: str | None = typer.Argument(
        None, metavar="RULESET", help="Only this rule set (an id, an alias or a plug-in)."
    ),
    json_out: bool = typer.Option(False, "--json", help="Print JSON instead of tables."),
) -> None:
    """List the rule sets this fogofwar plays, with their options."""
    from .commands.info import rulesets

    rulesets(json_out=json_out, console=_out(), ruleset=ruleset)


@app.command("study")
def study_command(
    file: str = typer.Argument(..., metavar="FILE.toml", help="A study file (docs/studies.md)."),
    out: str | None = typer.Option(
        None, "--out", metavar="DIR", help="Where results.json and games.jsonl go (default: FILE/)."
    ),
    workers: int | None = typer.Option(
        None, "--workers", metavar="N", min=1, help="Worker processes (default: the cores)."
    ),
    resume: bool = typer.Option(
        False, "--resume", help="Go on with a stopped study: its games.jsonl is kept."
    ),
    fresh: bool = typer.Option(
        False, "--fresh", help="Throw away the games a folder holds and play them all again."
    ),
    backend: str = typer.Option(
        "local", "--backend", metavar="local|ray", help="Where the games run."
    ),
    address: str | None = typer.Option(
        None, "--address", metavar="ADDR", help="With --backend ray: join this Ray cluster."
    ),
    json_out: bool = typer.Option(False, "--json", help="Print results.json instead of tables."),
) -> None:
    """Run a balance study: every cell of a study file, compared side by side."""
    from .commands.study import study

    code = study(
        file, out=out, workers=workers, resume=resume, json_out=json_out, console=_out(),
        backend=backend, address=address, fresh=fresh,
    )  # fmt: skip
    raise typer.Exit(code)


@app.command("bots")
def bots_command(
    ruleset: str | None = typer.Argument(
        None, metavar="RULESET", help="Only the bots that play this rule set."
    ),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """List the bots: their names for --seat SEAT=BOT, what they play and do."""
    from .commands.info import bots

    bots(ruleset, json_out=json_out, console=_out())


@app.command("boards")
def boards_command(
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """List the shipped boards (fogofwar board show NAME draws one)."""
    from .commands.info import boards

    boards(json_out=json_out, console=_out())


@app.command("missions")
def missions_command(
    ruleset: str | None = typer.Argument(
        None, metavar="RULESET", help="Only this rule set's missions."
    ),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """List the shipped missions (play one with --set mission=NAME)."""
    from .commands.info import missions

    missions(ruleset, json_out=json_out, console=_out())


# An expression may start with "-" ("-d6+3"): it is the argument, not an unknown option.
@odds_app.command("dice", context_settings={"ignore_unknown_options": True})
def odds_dice_command(
    expression: str = typer.Argument(
        ..., metavar="DICE", help="Dice notation, e.g. '3d6+2', '10d6kh3', 'd6!4>=8', '5d6#>=4'."
    ),
    json_out: bool = typer.Option(False, "--json", help="Print JSON with exact fractions."),
) -> None:
    """Exact distribution of a dice expression: fractions, percentages, P(≥), mean."""
    from .commands.odds import odds_dice

    odds_dice(expression, json_out=json_out, console=_out())


@app.command("play")
def play_command(
    ruleset: str | None = typer.Argument(
        None, metavar="RULESET", help="The rule set, e.g. specter-ops (not needed with --resume)."
    ),
    players: int | None = typer.Option(
        None, "--players", metavar="N", help="Number of players (Zero Dark: 2 plays Versus)."
    ),
    seat: list[str] | None = typer.Option(
        None,
        "--seat",
        metavar="SEAT=WHO",
        help="SEAT=human|bot (or a bot's name); repeatable. Default: the first seat "
        "(Specter Ops: the agent) is human, the others bots.",
    ),
    seed: int | None = typer.Option(
        None,
        "--seed",
        metavar="N",
        help="A chosen seed, 0 to 2**64-1: reproducible, but whoever knows it knows every "
        "secret (default: a fresh 256-bit secret, revealed at the end).",
    ),
    set_: list[str] | None = typer.Option(
        None, "--set", metavar="OPTION=VALUE", help="OPTION=VALUE rule set option; repeatable."
    ),
    record: str | None = typer.Option(
        None,
        "--record",
        metavar="FILE",
        help="Where to save the record (default: records/RULESET-DATE-TIME.json).",
    ),
    mission: str | None = typer.Option(
        None,
        "--mission",
        metavar="NAME",
        help="A mission (Zero Dark, Warfighter): its name or file; same as --set mission=.",
    ),
    resume: str | None = typer.Option(
        None,
        "--resume",
        metavar="RECORD",
        help="Go on with an unfinished game from its record (saved on quit or Ctrl-C), "
        "with its seats; --seat may change some.",
    ),
    level: str = typer.Option(
        "easy",
        "--level",
        metavar="easy|normal|hard",
        help="The strength of the bot seats: easy (the heuristic bots), normal or hard "
        "(ismcts at two budgets, where the rule set samples worlds; it changes nothing "
        "where every seat is a person's).",
    ),
) -> None:
    """Play a game at the terminal: each human seat sees only what it may know."""
    from .commands.play import play

    code = play(
        ruleset,
        seats=seat or [],
        sets=[*(set_ or []), *([f"mission={mission}"] if mission else [])],
        players=players,
        seed=seed,
        record=record,
        console=_out(),
        resume=resume,
        level=level,
    )
    raise typer.Exit(code)


@app.command("replay")
def replay_command(
    file: str = typer.Argument(
        ..., metavar="RECORD", help="A game record (JSON), e.g. from 'sim --records'."
    ),
    seat: str | None = typer.Option(
        None,
        "--seat",
        metavar="SEAT",
        help="Show this seat's view (default: all of it, once the game is over).",
    ),
    step: bool = typer.Option(False, "--step", help="Show the view after every action."),
    game: int | None = typer.Option(
        None,
        "--game",
        metavar="LINE",
        help="RECORD is a study's games.jsonl: replay the game on this line (1 up), played "
        "again as the study played it.",
    ),
) -> None:
    """Replay a recorded game from one seat's view, or whole once it is over."""
    from .commands.replay import replay

    replay(file, seat=seat, step=step, console=_out(), game=game)


@app.command("fuzz")
def fuzz_command(
    ruleset: str = typer.Argument(
        ..., metavar="RULESET", help="Rule set id, alias or module:attr."
    ),
    inputs: int = typer.Option(
        10_000, "--inputs", "-n", metavar="N", min=1, max=100_000_000, help="Inputs to throw."
    ),
    seed: int = typer.Option(
        0,
        "--seed",
        metavar="N",
        min=0,
        max=2**64 - 1,
        help="0 to 2**64 - 1: the same seed throws the same inputs.",
    ),
    set_: list[str] | None = typer.Option(
        None, "--set", metavar="OPTION=VALUE", help="OPTION=VALUE rule set option; repeatable."
    ),
    records: int = typer.Option(
        0,
        "--records",
        metavar="N",
        min=0,
        max=1_000_000,
        help="Also tamper with records this many times.",
    ),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Throw hostile input at a rule set and report every crash and broken promise.

    The input: legal, illegal and malformed actions, notation, JSON, encoding indices,
    and tampered records. Exit 0 when nothing broke, 1 when something did.
    """
    from .commands.fuzz import fuzz_command as run

    code = run(
        ruleset,
        inputs=inputs,
        seed=seed,
        sets=set_ or [],
        records=records,
        json_out=json_out,
        console=_out(),
    )
    raise typer.Exit(code)


@app.command("verify")
def verify_command(
    file: str = typer.Argument(
        ..., metavar="RECORD", help="A game record (JSON), e.g. saved by 'play'."
    ),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Check a finished game: its secret, and every roll, draw and shuffle from it.

    The secret must match the commitment shown at the start, and every roll, draw and
    shuffle must have come from it. Exit 0 verified, 1 not verified.
    """
    from .commands.verify import verify

    raise typer.Exit(verify(file, json_out=json_out, console=_out()))


@board_app.command("show")
def board_show_command(
    file: str = typer.Argument(
        ..., metavar="BOARD", help="A board file, or the name of a built-in board."
    ),
    plain: bool = typer.Option(False, "--plain", help="Plain text, no colour."),
    json_out: bool = typer.Option(False, "--json", help="Print the board's data as JSON."),
) -> None:
    """Draw a board: terrain, walls, doors, roads and markers."""
    from .commands.board import board_show

    board_show(file, plain=plain, json_out=json_out, console=_out())


@app.command("los")
def los_command(
    file: str = typer.Argument(
        ..., metavar="BOARD", help="A board file, or the name of a built-in board."
    ),
    viewer: str = typer.Argument(
        ..., metavar="VIEWER", help="The viewer's square (or model, with --ruleset)."
    ),
    target: str = typer.Argument(
        ..., metavar="TARGET", help="The target's square (or model, with --ruleset)."
    ),
    model: str = typer.Option(
        "corner",
        "--model",
        metavar="MODEL",
        help="Sight model: orthogonal (Specter Ops) or corner (Zero Dark).",
    ),
    viewer_cyl: int = typer.Option(
        3, "--viewer-cyl", metavar="CYL", help="The viewer's Cyl (corner model)."
    ),
    target_cyl: int = typer.Option(
        3, "--target-cyl", metavar="CYL", help="The target's Cyl (corner model)."
    ),
    facing: str | None = typer.Option(
        None,
        "--facing",
        metavar="FACING",
        help="The viewer's facing: NE, SE, SW or NW (corner model).",
    ),
    origin: str = typer.Option(
        "centre",
        "--origin",
        metavar="ORIGIN",
        help="Where lines start: centre or any_corner (corner model).",
    ),
    character: bool = typer.Option(
        False, "--character", help="The target is a character (FR-S4: only adjacent obstacles)."
    ),
    road_rule: bool = typer.Option(
        True, "--road-rule/--no-road-rule", help="The road rule (orthogonal model)."
    ),
    open_door: list[str] | None = typer.Option(
        None, "--open", metavar="EDGE", help="Open this door (an edge like 'K3 w'); repeatable."
    ),
    ruleset: str | None = typer.Option(
        None,
        "--ruleset",
        metavar="RULESET",
        help="Explain under a rule set's sight rules (zero-dark: the map's models with "
        "their Cyl, facing and states; VIEWER and TARGET may name models).",
    ),
    set_: list[str] | None = typer.Option(
        None,
        "--set",
        metavar="OPTION=VALUE",
        help="A rule set option as key=value (with --ruleset); repeatable.",
    ),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Explain line of sight between two squares: the verdict, each line, what blocks."""
    from .commands.los import los, ruleset_los

    if ruleset is None and set_:
        # Ignored, it gave another verdict: without a rule set, H1 and E1 are squares.
        raise RulesError("--set sets a rule set's option: give --ruleset too")
    if ruleset is not None:
        ruleset_los(
            file,
            viewer,
            target,
            ruleset=ruleset,
            sets=set_ or [],
            viewer_cyl=viewer_cyl,
            target_cyl=target_cyl,
            facing=facing,
            origin=origin,
            character=character,
            open_doors=open_door,
            json_out=json_out,
            console=_out(),
        )
        return
    los(
        file,
        viewer,
        target,
        model=model,
        viewer_cyl=viewer_cyl,
        target_cyl=target_cyl,
        facing=facing,
        origin=origin,
        character=character,
        road_rule=road_rule,
        open_doors=open_door or [],
        json_out=json_out,
        console=_out(),
    )


@app.command("serve")
def serve_command(
    host: str = typer.Option(
        "127.0.0.1", "--host", metavar="HOST", help="The address to listen on."
    ),
    port: int = typer.Option(
        8000, "--port", metavar="PORT", min=0, max=65535, help="The port to listen on."
    ),
    db: str | None = typer.Option(
        None, "--db", metavar="FILE", help="The SQLite store (default: .fogofwar/tables.db here)."
    ),
    sync: str = typer.Option(
        "normal",
        "--sync",
        metavar="MODE",
        help="SQLite synchronous: normal (an accepted action survives the server being "
        "killed) or full (a power loss too, an fsync per action).",
    ),
    bot_pause: float = typer.Option(
        0.6, "--bot-pause", metavar="SECONDS", help="Seconds a bot waits before acting."
    ),
    new: str | None = typer.Option(
        None,
        "--new",
        metavar="RULESET",
        help="Create a table of this rule set at the start and print its links.",
    ),
    seat: list[str] | None = typer.Option(
        None,
        "--seat",
        metavar="SEAT=WHO",
        help="With --new: SEAT=human|bot (or a bot's name); repeatable.",
    ),
    set_: list[str] | None = typer.Option(
        None,
        "--set",
        metavar="OPTION=VALUE",
        help="With --new: OPTION=VALUE rule set option; repeatable.",
    ),
    seed: int | None = typer.Option(
        None,
        "--seed",
        metavar="N",
        help="With --new: a chosen seed (the table is then marked seeded).",
    ),
    workers: int = typer.Option(
        1,
        "--workers",
        metavar="N",
        min=1,
        max=64,
        help="Processes that hold the tables, on ports PORT, PORT+1, ... (the lobby on "
        "PORT); each table lives in one of them and its links go there.",
    ),
    data: list[str] | None = typer.Option(
        None,
        "--data",
        metavar="DIR",
        help="A folder of your own boards, maps and missions that the lobby offers by file "
        "name (a request names no other file); repeatable.",
    ),
    plugin: list[str] | None = typer.Option(
        None,
        "--plugin",
        metavar="MODULE:ATTR",
        help="Load a plug-in rule set, which the lobby then offers (a request imports "
        "nothing); repeatable.",
    ),
    tables_per_minute: int | None = typer.Option(
        None,
        "--tables-per-minute",
        metavar="N",
        min=0,
        help="New tables one client address may create a minute (0: no limit; default 30).",
    ),
    worker: int = typer.Option(0, "--worker", hidden=True, help="This process's worker index."),
) -> None:
    """The web table: each player at their own browser, with a secret link to their seat."""
    from pathlib import Path

    from .commands.serve import DEFAULT_DB, serve

    if sync not in ("normal", "full"):
        raise RulesError(f"--sync: normal or full, not {sync!r}")
    if new is None:
        # They describe the table --new makes: without it they would be dropped unsaid.
        used = (("--seat", bool(seat)), ("--set", bool(set_)), ("--seed", seed is not None))
        given = [option for option, is_used in used if is_used]
        if given:
            verb = "describes" if len(given) == 1 else "describe"
            raise RulesError(
                f"{', '.join(given)} {verb} the table that --new RULESET makes at the "
                "start; without --new, make tables in the lobby (or name --new)"
            )
    code = serve(
        host=host,
        port=port,
        db=Path(db) if db else DEFAULT_DB,
        sync="full" if sync == "full" else "normal",
        bot_pause=bot_pause,
        new=new,
        seats=seat or [],
        sets=set_ or [],
        seed=seed,
        console=_out(),
        workers=workers,
        worker=worker,
        data_dirs=[Path(d) for d in data or []],
        plugins=plugin or [],
        **({} if tables_per_minute is None else {"tables_per_minute": tables_per_minute}),
    )
    raise typer.Exit(code)


@app.command("demo")
def demo_command(
    board: str = typer.Option("demo", "--board", metavar="BOARD", help="The board to show."),
) -> None:
    """A short tour: a board, a sight explanation and an odds table."""
    from .commands.demo import demo

    demo(board, console=_out())


def _err(message: str) -> None:
    # soft_wrap: the error stays on one line whatever the terminal width.
    Console(stderr=True, highlight=False, soft_wrap=True).print(
        f"[bold red]error:[/] {escape(message)}"
    )


def main(argv: list[str] | None = None) -> int:
    """Run the command line and return its exit status (what the console script exits with)."""
    # A rule set named as module:attr is found from the current folder too, as with
    # `python -m` or `uvicorn main:app` (appended: it never shadows an installed module).
    here = os.getcwd()
    if here not in sys.path and "" not in sys.path:
        sys.path.append(here)
    try:
        args = sys.argv[1:] if argv is None else list(argv)
        if args[:1] == ["odds"]:
            # The rule sets' odds queries (and a plug-in's) become commands here.
            from .commands.odds import add_ruleset_odds

            add_ruleset_odds(odds_app, args)
        app(args=args, prog_name="fogofwar", standalone_mode=True)
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except RulesError as exc:
        _err(str(exc))
        return 2
    except OSError as exc:
        name = exc.filename if exc.filename is not None else ""
        reason = exc.strerror or str(exc)
        msg = f"{name}: {reason}" if name else reason
        _err(msg)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
