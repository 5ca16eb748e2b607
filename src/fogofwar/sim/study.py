"""Balance studies: a study file, its cells, and their results (``fogofwar study``).

A study file (TOML) names a rule set, a base configuration, the bots at the seats, the
options to vary and the games per cell::

    [study]
    ruleset = "specter-ops"
    games = 200                 # per cell
    seed = 1
    metrics = ["rounds"]        # optional: the metrics to report (default: all)

    [config]                    # the base configuration (defaults for the rest)
    players = 3

    [seats]                     # bots by seat (the rest play "random")
    agent = "so-agent"
    hunter1 = "so-hunter"

    [vary]                      # every combination of these values is a cell
    characters = [true, false]

or named variants, which may also change the bots::

    [[variant]]
    name = "no cards"
    config = { characters = false }
    seats = { agent = "random" }

With both, every variant is played at every combination of ``[vary]``.

Each cell's games are seeded from the study's seed, the cell's name and the game's
index only (:func:`cell_seed`), so a study gives the same results on any number of
workers. Every cell reports its wins per side with Wilson 95% intervals and each
metric's spread; every pair of cells whose settings (the options either sets, as the
rule set resolves them, and every seat's bot) differ in one is compared side by side
with Newcombe's interval and a sentence saying whether the difference is real at 95%.

Errors name the file, the line and what was expected.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from ..bots import available_bots, make_bot
from ..core.errors import BadDataError, RulesError
from ..core.files import decode_text, read_text
from ..core.game import JSON, Ruleset, get_ruleset, registered_rulesets
from .runner import (
    MAX_GAMES,
    BatchResult,
    GameResult,
    ProgressCallback,
    bot_seed,
    check_backend,
    game_from_line,
    game_line,
    game_seed,
    play_game,
    ray_start,
    resolve_seats,
    run_batch,
    seat_hint,
)
from .stats import Proportion, difference

__all__ = [
    "MAX_CELLS",
    "MAX_GAMES",
    "Cell",
    "Study",
    "build_study",
    "cell_seed",
    "compare",
    "load_study",
    "read_games",
    "run_study",
    "seats_in",
    "study_game",
]

#: ``MAX_GAMES`` (the runner's, ``fogofwar sim -n``'s too) is the most games a study file
#: plays, all its cells together (and so per cell): about 7.5 hours of Specter Ops'
#: heuristic bots on two cores, some 2.6 GB of results held in memory, and 95% intervals
#: of ±0.1% — more than any balance question needs.
#: The most cells a study has (every combination of ``[vary]`` times the variants).
MAX_CELLS: Final = 1_000

#: Where a problem is in a study file: its keys from the top, a variant by its index
#: (``("variant", 2, "config", "turns")``).
At = tuple[str | int, ...]
#: Makes the error for a problem at a place (:func:`build_study`'s ``bad``).
Bad = Callable[[At, str, "object | None"], Exception]

_TABLES: Final = ("study", "config", "seats", "vary", "variant")
_STUDY_KEYS: Final = ("ruleset", "games", "seed", "metrics")
_VARIANT_KEYS: Final = ("name", "config", "seats")


@dataclass(frozen=True, slots=True)
class Cell:
    """One configuration of a study.

    Attributes:
        name: ``"characters=true, players=2"`` for a combination, the variant's name,
            or both (``"random hunters, players=3"``).
        options: the options this cell sets over the base configuration.
        seats: the bots this cell sets over the study's seats (a variant's ``seats``,
            those its game has).
        variant: the variant's name, if the cell is one's.
        bots: the bot of every seat its game has, the study's and the variant's
            together (set by :func:`build_study`; what comparisons compare).
        config: the cell's whole configuration as the rule set resolves it (set by
            :func:`build_study`; what comparisons compare).
    """

    name: str
    options: Mapping[str, JSON]
    seats: Mapping[str, str] = field(default_factory=dict)
    variant: str | None = None
    bots: Mapping[str, str] = field(default_factory=dict)
    config: Mapping[str, JSON] = field(default_factory=dict)

    def factors(self) -> dict[str, JSON]:
        """What sets this cell apart, for comparisons: its options (as the rule set
        resolves them) and the bot of every seat of its game (as ``"agent bot"``)."""
        options = {k: self.config.get(k, v) for k, v in self.options.items()}
        return {**options, **{f"{s} bot": b for s, b in self.bots.items()}}


@dataclass(frozen=True)
class Study:
    """A study file, checked (see the module doc)."""

    file: str
    ruleset: Ruleset
    config: Mapping[str, JSON]
    seats: Mapping[str, str]
    games: int
    seed: int | str
    metrics: tuple[str, ...]
    cells: tuple[Cell, ...]
    varied: tuple[str, ...] = field(default=())


def _value(v: JSON) -> str:
    return json.dumps(v) if isinstance(v, bool) or v is None else str(v)


def _shown(v: object) -> str:
    """A value as a study file writes it (``"so-agent"``, ``true``, ``{ turns = 5 }``),
    never as Python's repr."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, int):
        try:
            return str(v)
        except ValueError:  # more digits than Python converts
            return "a number of thousands of digits"
    if isinstance(v, Mapping):
        items = ", ".join(f"{_key(k)} = {_shown(x)}" for k, x in v.items())
        return f"{{ {items} }}" if items else "{}"
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_shown(x) for x in v) + "]"
    return str(v)


def _key(k: object) -> str:
    text = str(k)
    return text if re.fullmatch(r"[A-Za-z0-9_-]+", text) else json.dumps(text, ensure_ascii=False)


def _entry(key: object, value: object, *, top: bool = False) -> str:
    """``key = value`` as the file has it; at the ``top``, ``[key]`` for a table and
    ``[[key]]`` for an array of tables."""
    if top and isinstance(value, Mapping):
        return f"[{_key(key)}]"
    if top and isinstance(value, list) and value and all(isinstance(x, Mapping) for x in value):
        return f"[[{_key(key)}]]"
    return f"{_key(key)} = {_shown(value)}"


def _wins(side: str) -> str:
    """The verb for a side: "the agent wins", "hunters win"."""
    return "win" if side.endswith("s") and not side.endswith("ss") else "wins"


def seats_in(seats: Mapping[str, str], here: Sequence[str]) -> dict[str, str]:
    """The bots of the seats a cell's game has (a study may name ``hunter4`` for its
    5-player cells only)."""
    return {s: b for s, b in seats.items() if s in here}


def cell_seed(study_seed: int | str, cell: Cell) -> str:
    """The batch seed of a cell: the study's seed and the cell's name only."""
    return f"{study_seed}/{cell.name}"


# A table header, ``[study]``, ``[[variant]]`` or ``[variant.config]`` (keys bare or
# quoted; no commas, so a line of a multi-line array is never taken for one).
_PART = r"""(?:[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*')"""
_HEADER = re.compile(rf"^\s*(\[\[?)\s*({_PART}(?:\s*\.\s*{_PART})*)\s*\]\]?\s*(?:#.*)?$")


class _Where:
    """Where the parts of a study file are: tomllib gives no positions, so the lines are
    read again for the table headers and the keys set under each."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        # (line, the header's keys, whether it is an array of tables' [[...]])
        self.headers: list[tuple[int, tuple[str, ...], bool]] = []
        for n, line in enumerate(self.lines, start=1):
            m = _HEADER.match(line)
            if m:
                parts = tuple(p.strip().strip("\"'") for p in re.findall(_PART, m[2]))
                self.headers.append((n, parts, m[1] == "[["))

    def line(self, at: At) -> int | None:
        """The line of ``at`` (its nearest part that can be found), or None."""
        top, rest = str(at[0]), list(at[1:])
        index = rest.pop(0) if rest and isinstance(rest[0], int) else None
        assert index is None or isinstance(index, int)
        span = self._table(top, index)
        if span is None:
            # No header: a key at the top (``study = {...}``, ``study.games = 5``).
            first = self.headers[0][0] if self.headers else len(self.lines) + 1
            found = self._key(top, 1, first - 1)
            if found is None:
                return None
            span = (found, found, first - 1)
        best, start, stop = span
        keys = [str(k) for k in rest if isinstance(k, str)]
        for depth, key in enumerate(keys):
            sub = next(
                (n for n, parts, _ in self.headers
                 if start <= n <= stop + 1 and parts == (top, *keys[: depth + 1])),
                None,
            )  # fmt: skip
            found = sub if sub is not None else self._key(key, start, stop)
            if found is None:
                break
            best = start = found
        return best

    def _table(self, top: str, index: int | None) -> tuple[int, int, int] | None:
        """(header line, first line, last line) of table ``top`` (the ``index``-th of an
        array of tables), its sub-tables included."""
        matches = [
            (k, n)
            for k, (n, parts, array) in enumerate(self.headers)
            if parts == (top,) and (array if index is not None else not array)
        ]
        if index is not None and index < len(matches):
            k, n = matches[index]
        elif index is None and matches:
            k, n = matches[0]
        else:
            return None
        stop = len(self.lines)
        for m, parts, _ in self.headers[k + 1 :]:
            if parts[:1] != (top,) or len(parts) == 1:
                stop = m - 1
                break
        return n, n, stop

    def _key(self, key: str, start: int, stop: int) -> int | None:
        """The first line from ``start`` to ``stop`` that sets ``key``: at the line's
        start (``key = ``, ``key.sub = ``, ``top.key = ``), else in an inline table
        (``{ key = ``)."""
        name = rf"""(?:{re.escape(key)}|"{re.escape(key)}"|'{re.escape(key)}')"""
        dotted = rf"(?:{_PART}\s*\.\s*)*"  # study.games = 5
        for pattern in (rf"^\s*{dotted}{name}\s*[=.]", rf"[{{,]\s*{dotted}{name}\s*="):
            for n in range(max(start, 1), min(stop, len(self.lines)) + 1):
                if re.search(pattern, self.lines[n - 1]):
                    return n
        return None


def _toml_error(name: str, text: str, exc: Exception) -> BadDataError:
    """A study file that TOML does not read, with its line where TOML says it."""
    message = str(exc)
    m = re.search(r"\s*\(at line (\d+), column (\d+)\)$", message)
    if m:
        found = message[: m.start()]
        return BadDataError(
            name, "a TOML study file", line=int(m[1]), column=int(m[2]), found=found
        )
    huge = re.search(r"\d{4301,}", text)  # tomllib's ValueError: too many digits
    if huge:
        line = text.count("\n", 0, huge.start()) + 1
        return BadDataError(
            name, "a TOML study file", line=line, found="a number of thousands of digits"
        )
    return BadDataError(name, "a TOML study file", found=message)


def load_study(path: str | Path) -> Study:
    """Read and check a study file.

    Raises:
        BadDataError: not a UTF-8 TOML file, an unknown table or key, an unknown rule
            set, option, value, seat, bot or metric, or a count out of range (naming
            the file, the line and what was expected).
    """
    name = str(path)
    text = read_text(path, file=name, what="a study file")
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError) as exc:
        raise _toml_error(name, text, exc) from None
    where = _Where(text)

    def bad(at: At, expected: str, found: object | None = None) -> BadDataError:
        shown = None if found is None else str(found)
        return BadDataError(name, expected, line=where.line(at), found=shown)

    for key, value in data.items():
        if key not in _TABLES:
            raise bad(
                (key,), "a [study], [config], [seats] or [vary] table, or [[variant]] tables",
                _entry(key, value, top=True),
            )  # fmt: skip
    head = data.get("study")
    if not isinstance(head, dict):
        found = None if head is None else _entry("study", head, top=True)
        raise bad(("study",), 'a [study] table with ruleset = "...", games and seed', found)
    for key, value in head.items():
        if key not in _STUDY_KEYS:
            aside = f" ([{key}] is a table of its own)" if key in _TABLES else ""
            raise bad(
                ("study", key), f"a key of [study]: {', '.join(_STUDY_KEYS)}{aside}",
                _entry(key, value),
            )  # fmt: skip
    plays = ", ".join(sorted(registered_rulesets()))
    ruleset = head.get("ruleset")
    if not isinstance(ruleset, str) or not ruleset.strip():
        raise bad(
            ("study", "ruleset") if "ruleset" in head else ("study",),
            f'ruleset = "..." in the [study] table: the rule set to study ({plays})',
            None if ruleset is None else _entry("ruleset", ruleset),
        )
    try:
        rs = get_ruleset(ruleset)
    except RulesError as exc:
        raise bad(("study", "ruleset"), "a rule set this fogofwar plays", exc) from None
    games = head.get("games", 100)
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise bad(
            ("study", "games"),
            f"games = a whole number of games per cell, 1 or more and at most {MAX_GAMES:,}",
            _entry("games", games),
        )
    seed = head.get("seed", 0)
    if (
        isinstance(seed, bool)
        or not isinstance(seed, int | str)
        or (isinstance(seed, int) and not 0 <= seed < 2**64)
    ):
        # sim --seed's range: a study's cells are sim --vary's (the same seeds).
        raise bad(
            ("study", "seed"),
            "seed = a whole number from 0 to 2**64 - 1, or a string",
            _entry("seed", seed),
        )
    metrics = head.get("metrics", [])
    if not isinstance(metrics, list) or not all(isinstance(m, str) for m in metrics):
        raise bad(("study", "metrics"), 'metrics = ["name", ...]', _entry("metrics", metrics))
    base = data.get("config", {})
    if not isinstance(base, dict):
        raise bad(("config",), "a [config] table of options", _entry("config", base, top=True))
    vary = data.get("vary", {})
    if not isinstance(vary, dict):
        raise bad(("vary",), "a [vary] table: option = [values]", _entry("vary", vary, top=True))
    variants = data.get("variant", [])
    if not isinstance(variants, list):
        found = _entry("variant", variants, top=True)
        raise bad(("variant",), '[[variant]] tables, each with a name = "..."', found)
    seats = data.get("seats", {})
    if not isinstance(seats, dict):
        raise bad(("seats",), 'a [seats] table: seat = "bot"', _entry("seats", seats, top=True))
    study = build_study(
        name, rs, config=base, seats=seats, games=games, seed=seed, metrics=metrics,
        vary=vary, variants=variants, bad=bad,
    )  # fmt: skip
    total = games * len(study.cells)
    if total > MAX_GAMES:
        raise bad(
            ("study", "games"),
            f"at most {MAX_GAMES:,} games in all, every cell's together",
            f"games = {games:,} in each of {len(study.cells):,} cells: {total:,} games",
        )
    return study


def _plain_bad(at: At, expected: str, found: object | None = None) -> Exception:
    """A study's problem as ``sim --vary`` says it (no file): ``turns: expected ...``."""
    key = next((str(k) for k in reversed(at) if isinstance(k, str)), "study")
    return RulesError(
        f"{key}: expected {expected}" + (f", found {found}" if found is not None else "")
    )


def _bot_params(bot: str) -> str | None:
    """What is wrong with a bot's parameters the bots would misread: ``so-hunter:x``
    (no ``=``) reads as a module ``so-hunter`` to import."""
    base, sep, rest = bot.partition(":")
    if sep and "=" not in rest and base in available_bots():
        return (
            f"a bot's parameters as key=value after the ':' "
            f"({base}:{rest.split(',')[0].strip() or 'key'}=VALUE)"
        )
    return None


def build_study(
    name: str,
    rs: Ruleset,
    *,
    config: Mapping[str, Any],
    seats: Mapping[str, Any],
    games: int,
    seed: int | str,
    metrics: Sequence[str] = (),
    vary: Mapping[str, Any] | None = None,
    variants: Sequence[Any] = (),
    bad: Bad | None = None,
) -> Study:
    """A checked :class:`Study` (a file's, or ``sim --vary``'s).

    Raises:
        RulesError: an unknown option, value, seat, bot or metric, a malformed variant,
            or more than :data:`MAX_CELLS` cells (``bad`` makes the error from where the
            problem is, :data:`At`: a study file's names its file and line).
    """
    say: Bad = _plain_bad if bad is None else bad
    base = dict(config)
    vary = dict(vary or {})
    known = {o.name for o in rs.config_schema.options}
    options_of = f"an option of {rs.id} ({', '.join(sorted(known))})"
    for key in base:
        if key not in known:
            raise say(("config", key), options_of, key)
    for key, values in vary.items():
        if key not in known:
            raise say(("vary", key), options_of, key)
        if not isinstance(values, list | tuple) or not values:
            raise say(("vary", key), f"{key} = [a list of values]", _entry(key, values))
        shown = [_shown(v) for v in values]
        twice = next((s for i, s in enumerate(shown) if s in shown[:i]), None)
        if twice is not None:
            raise say(("vary", key), f"values of {key} that differ (each once)", twice)
    for seat, bot in seats.items():
        if not isinstance(bot, str):
            raise say(("seats", seat), f'a bot\'s name: {seat} = "bot"', _entry(seat, bot))
        if _bot_params(bot):
            raise say(("seats", seat), str(_bot_params(bot)), bot)
    count = math.prod(len(v) for v in vary.values()) * max(1, len(variants))
    if count > MAX_CELLS:
        raise say(
            ("vary",) if vary else ("variant",),
            f"at most {MAX_CELLS:,} cells (every combination of [vary], times the variants)",
            f"{count:,} cells",
        )
    keys = list(vary)
    combos: list[Cell] = []
    for combo in itertools.product(*(vary[k] for k in keys)) if keys else ():
        options = dict(zip(keys, combo, strict=True))
        combos.append(Cell(", ".join(f"{k}={_value(v)}" for k, v in options.items()), options))
    kinds: list[Cell] = []
    named: dict[str, At] = {}  # each seat a variant names, where it is first named
    for i, v in enumerate(variants):
        at: At = ("variant", i)
        if not isinstance(v, Mapping):
            raise say(at, 'a [[variant]] table with name = "..."', _shown(v))
        for key, value in v.items():
            if key not in _VARIANT_KEYS:
                expected = f"a key of a [[variant]]: {', '.join(_VARIANT_KEYS)}"
                raise say((*at, key), expected, _entry(key, value))
        label = v.get("name")
        if not isinstance(label, str) or not label.strip():
            found = None if label is None else _entry("name", label)
            where: At = (*at, "name") if "name" in v else at
            raise say(where, 'a name = "..." for this [[variant]]', found)
        if any(k.name == label for k in kinds):
            expected = "a name of its own for this [[variant]] (another one has it)"
            raise say((*at, "name"), expected, _entry("name", label))
        options = v.get("config", {})
        if not isinstance(options, Mapping):
            expected = "a variant's config = { option = value, ... }"
            raise say((*at, "config"), expected, _entry("config", options))
        for key in options:
            if key not in known:
                raise say((*at, "config", key), options_of, key)
            if key in vary:
                expected = f"a variant's option that [vary] does not vary ({key} is)"
                raise say((*at, "config", key), expected, key)
        bots = v.get("seats", {})
        if not isinstance(bots, Mapping):
            expected = 'a variant\'s seats = { seat = "bot", ... }'
            raise say((*at, "seats"), expected, _entry("seats", bots))
        for seat, bot in bots.items():
            if not isinstance(bot, str):
                expected = f'a bot\'s name: {seat} = "bot"'
                raise say((*at, "seats", seat), expected, _entry(seat, bot))
            if _bot_params(bot):
                raise say((*at, "seats", seat), str(_bot_params(bot)), bot)
            named.setdefault(seat, (*at, "seats", seat))
        kinds.append(Cell(label, dict(options), dict(bots), variant=label))
    where_variant = {k.name: i for i, k in enumerate(kinds)}
    if combos and kinds:
        # Every variant at every combination, the combinations outermost (the table
        # then reads by combination).
        cells = [
            Cell(f"{k.name}, {c.name}", {**c.options, **k.options}, k.seats, k.variant)
            for c in combos
            for k in kinds
        ]
    else:
        cells = combos or kinds or [Cell("base", {})]
    names = [c.name for c in cells]
    twice = next((n for i, n in enumerate(names) if n in names[:i]), None)
    if twice is not None:
        raise say(("variant",), "cells with names of their own", json.dumps(twice))

    def option_at(cell: Cell, key: str) -> At:
        if key in vary or cell.variant is None:
            return ("vary", key)
        return ("variant", where_variant[cell.variant], "config", key)

    def seat_at(cell: Cell, seat: str) -> At:
        if seat in cell.seats and cell.variant is not None:
            return ("variant", where_variant[cell.variant], "seats", seat)
        return ("seats", seat)

    try:
        rs.resolve_config(base)
    except RulesError as exc:
        culprit = next((k for k in base if not _resolves(rs, {k: base[k]})), None)
        raise say(("config",) if culprit is None else ("config", culprit),
                  "a valid configuration", exc) from None  # fmt: skip
    probes: dict[str, float] = {}
    every_seat: set[str] = set()
    for i, cell in enumerate(cells):
        try:
            resolved = rs.resolve_config({**base, **cell.options})
        except RulesError as exc:
            culprit = next(
                (k for k in cell.options if not _resolves(rs, {**base, k: cell.options[k]})),
                next(iter(cell.options), None),
            )
            at = ("config",) if culprit is None else option_at(cell, culprit)
            expected = f"a valid configuration for cell {json.dumps(cell.name, ensure_ascii=False)}"
            raise say(at, expected, exc) from None
        here = rs.seats(resolved)
        every_seat.update(here)
        chosen = seats_in({**seats, **cell.seats}, here)
        try:
            every = resolve_seats(rs, resolved, chosen)
        except RulesError as exc:
            culprit = next((s for s, b in chosen.items() if not _plays(rs, resolved, s, b)), None)
            at = ("seats",) if culprit is None else seat_at(cell, culprit)
            # A bot of another game and a parameter out of range are both refused here:
            # the words name the seat, and the found part the reason.
            expected = (
                "bots that play this game, with valid parameters (fogofwar bots)"
                if culprit is None
                else f"a bot that plays {culprit} in this game, with valid parameters "
                "(fogofwar bots)"
            )
            raise say(at, expected, exc) from None
        probes.update(rs.metrics(rs.new_game(resolved, 0)))
        # A cell's bots are those of the seats its game has: a variant naming hunter4
        # compares its 3-player cells by the seats they play.
        cells[i] = Cell(
            cell.name, cell.options, seats_in(cell.seats, here), cell.variant, every,
            resolved.to_json(),
        )  # fmt: skip
    for seat in [*seats, *named]:
        if seat not in every_seat:
            at = ("seats", seat) if seat in seats else named[seat]
            hint = seat_hint(rs, seat)
            seats_here = ", ".join(sorted(every_seat)) + (f"; {hint}" if hint else "")
            raise say(at, f"a seat of {rs.id} ({seats_here})", seat)
    for m in metrics:
        if m not in probes:
            expected = f"a metric of {rs.id} ({', '.join(sorted(probes))})"
            raise say(("study", "metrics"), expected, m)
    return Study(
        name, rs, base, dict(seats), games, seed, tuple(metrics), tuple(cells), tuple(keys)
    )


def _resolves(rs: Ruleset, config: Mapping[str, Any]) -> bool:
    try:
        rs.resolve_config(config)
    except RulesError:
        return False
    return True


def _plays(rs: Ruleset, config: Any, seat: str, bot: str) -> bool:
    try:
        resolve_seats(rs, config, {seat: bot})
    except RulesError:
        return False
    return True


def _settings(a: Cell, b: Cell) -> tuple[dict[str, JSON], dict[str, JSON]]:
    """What two cells are compared by: every option either sets, as the rule set
    resolves it in each (an option neither sets is the base's, or follows from those
    set: Zero Dark's map from its mission), and the bot of every seat both games have."""
    keys = list(dict.fromkeys([*a.options, *b.options]))
    fa = {k: a.config.get(k, a.options.get(k)) for k in keys}
    fb = {k: b.config.get(k, b.options.get(k)) for k in keys}
    for s in a.bots:
        if s in b.bots:
            fa[f"{s} bot"], fb[f"{s} bot"] = a.bots[s], b.bots[s]
    return fa, fb


def _context(
    study: Study, a: Cell, b: Cell, fa: Mapping[str, JSON], differ: Sequence[str]
) -> tuple[str, dict[str, JSON]]:
    """What two compared cells share, said before the sentence (``with characters=true``,
    ``in "random hunters", with players=2``), and the shared options."""
    same = a.variant is not None and a.variant == b.variant
    shared = {
        k: v
        for k, v in fa.items()
        if k not in differ and not k.endswith(" bot") and (not same or k in study.varied)
    }
    parts = [f"in {json.dumps(a.variant, ensure_ascii=False)}"] if same else []
    if shared:
        parts.append("with " + ", ".join(f"{k}={_value(v)}" for k, v in shared.items()))
    return ", ".join(parts), shared


def _sentence(side: str, pa: Proportion, pb: Proportion, left: str, right: str) -> str:
    """How ``side``'s win rates in two cells compare (``left`` and ``right``: "with
    turns=4"), said right when a rate is 0, both are 1, or the two are the same."""
    d = difference(pa.successes, pa.trials, pb.successes, pb.trials)
    verb = _wins(side)
    verdict = (
        "a real difference at 95%"
        if d.significant
        else "not a clear difference at 95% (the interval holds 0)"
    )
    low, high = d.interval.low * 100, d.interval.high * 100
    # Said as "more" or "less" often, the interval in the same direction. A difference
    # of two rates is in percentage points: "74.5% less often" read as a relative
    # change (3.5% against 78.0%).
    more = "more" if d.estimate > 0 else "less"
    size = f"{abs(d.estimate) * 100:.1f} percentage points [{low:.1f}, {high:.1f}]"
    if d.estimate < 0:
        size = f"{abs(d.estimate) * 100:.1f} percentage points [{0.0 - high:.1f}, {0.0 - low:.1f}]"
    if pa.successes == 0 and pb.successes == 0:
        return f"{side} {verb} no game {left} and none {right} — {verdict}"
    if pa.successes == pa.trials and pb.successes == pb.trials:
        return f"{side} {verb} every game {left} and every one {right} — {verdict}"
    if round(abs(d.estimate) * 100, 1) == 0:
        return (
            f"{side} {verb} as often {left} as {right} (a difference of 0.0 percentage "
            f"points [{low:.1f}, {high:.1f}]) — {verdict}"
        )
    if pa.successes == 0 or pb.successes == 0:
        # "wins 0.0% of its games", "100.0% less often than ..." read oddly: say "no game".
        first = "no game" if pa.successes == 0 else f"{pa.rate * 100:.1f}% of the games"
        second = "none" if pb.successes == 0 else f"{pb.rate * 100:.1f}% of the games"
        return f"{side} {verb} {first} {left} and {second} {right}: {size} {more} often — {verdict}"
    return f"{side} {verb} {size} {more} often {left} than {right} — {verdict}"


def _inert(rs: Ruleset, key: str, a: Cell, b: Cell) -> str | None:
    """Why the option ``key`` changes nothing in either cell's game
    (:meth:`Ruleset.inert_options`), or ``None`` where it counts in one of them (or is a
    bot)."""
    if key.endswith(" bot"):
        return None
    why_a = rs.inert_options(a.config).get(key)
    why_b = rs.inert_options(b.config).get(key)
    if why_a is None or why_b is None:
        return None
    return why_a if why_a == why_b else f"{why_a}; {why_b}"


def compare(study: Study, results: Sequence[BatchResult]) -> list[dict[str, JSON]]:
    """Every pair of cells whose settings (:func:`_settings`) differ in exactly one
    option or one bot (or several seats' bots changed alike), side by side: the
    difference of each side's win rate with Newcombe's 95% interval, and a sentence
    that names what the two cells share."""
    out: list[dict[str, JSON]] = []
    by_cell = list(zip(study.cells, results, strict=True))
    for (a, ra), (b, rb) in itertools.combinations(by_cell, 2):
        # Every seat's bot counts, the study's as much as a variant's; a seat only one
        # of the two games has (hunter2 at 3 players, not at 2) is part of the option
        # that sets the players, not a difference of its own.
        fa, fb = _settings(a, b)
        differ = [k for k in fa if fa[k] != fb[k]]
        if not differ:
            continue
        key, va, vb = differ[0], fa[differ[0]], fb[differ[0]]
        if len(differ) > 1:
            # Several seats whose bots change alike (every hunter random, then every
            # hunter so-hunter) are one difference: "hunter1, hunter2 bot".
            alike = all(k.endswith(" bot") and (fa[k], fb[k]) == (va, vb) for k in differ)
            if not alike:
                continue
            key = ", ".join(k.removesuffix(" bot") for k in differ) + " bot"
        context, shared = _context(study, a, b, fa, differ)
        inert = _inert(study.ruleset, key, a, b)
        sa, sb = ra.stats(), rb.stats()
        for side in sa.wins:
            pa, pb = sa.wins[side], sb.wins.get(side)
            if pb is None:
                continue
            d = difference(pa.successes, pa.trials, pb.successes, pb.trials)
            left, right = f"with {key}={_value(va)}", f"with {key}={_value(vb)}"
            sentence = _sentence(side, pa, pb, left, right)
            if inert is not None:
                sentence += (
                    f"; but {key} changes nothing here ({inert}): both cells play the same "
                    "game, so any difference is chance"
                )
            out.append(
                {
                    "cells": [a.name, b.name],
                    "option": key,
                    "values": [va, vb],
                    "shared": shared,
                    "side": side,
                    "difference": d.estimate,
                    "interval": [d.interval.low, d.interval.high],
                    "significant": d.significant,
                    "inert": inert,
                    "sentence": f"{context}: {sentence}" if context else sentence,
                }
            )
    return out


def settings_json(study: Study) -> dict[str, JSON]:
    """What a study plays, without its results: the part of ``results.json`` that
    ``--resume`` compares (:func:`check_settings_kept`) and that playing a game of it
    again needs (:func:`study_game`). ``fogofwar study`` writes it before the first game,
    so that a study stopped before its end keeps it."""
    return {
        "study": Path(study.file).name,
        "ruleset": study.ruleset.id,
        "ruleset_version": study.ruleset.version,
        "seed": study.seed,
        "games_per_cell": study.games,
        "seats": dict(study.seats),
        "base_config": dict(study.config),
        "varied": list(study.varied),
        "variants": list(dict.fromkeys(c.variant for c in study.cells if c.variant)),
        "cells": [_cell_settings(study, c) for c in study.cells],
    }


def _cell_settings(study: Study, cell: Cell) -> dict[str, JSON]:
    return {
        "name": cell.name,
        "variant": cell.variant,
        "options": dict(cell.options),
        "bots": dict(cell.seats),
        "all_bots": dict(cell.bots),
        "config": dict(cell.config),
        "seed": cell_seed(study.seed, cell),
    }


def _cell_json(study: Study, cell: Cell, result: BatchResult) -> dict[str, JSON]:
    stats = result.stats()
    spreads = {
        k: v.to_json() for k, v in stats.spreads.items() if not study.metrics or k in study.metrics
    }
    return {
        **_cell_settings(study, cell),
        "config": result.config.to_json(),
        "games": stats.games,
        "wins": {side: p.to_json() for side, p in stats.wins.items()},
        "draws": stats.draws.to_json(),
        "mean_length": stats.mean_length,
        "metrics": spreads,
    }


def study_game(games: str | Path, line: int) -> GameResult:
    """Play again the game on line ``line`` (1 up) of a study's ``games.jsonl``, with its
    record: the cell's configuration and bots come from the ``results.json`` beside it,
    the game's seed from the line, the bots' streams from the cell's seed and the game's
    index — exactly as the study played it (``fogofwar replay games.jsonl --game N``).

    Raises:
        BadDataError: no such line, a line that is not a study's game, no
            ``results.json`` beside the file, or a game that does not end as the line
            says (the file was made by another version of the rule set or its bots).
    """
    name = str(games)
    try:
        lines = Path(games).read_bytes().splitlines()
    except OSError as exc:
        raise BadDataError(name, "a study's games.jsonl", found=exc.strerror) from None
    if not 1 <= line <= len(lines):
        raise BadDataError(name, f"a game on line {line} (the file has {len(lines)} lines)")
    try:
        text = decode_text(lines[line - 1], file=name, what="a study's games.jsonl")
    except BadDataError as exc:
        raise BadDataError(name, exc.expected, line=line, found=exc.found) from None
    try:
        entry = json.loads(text)
        cell_name, index, seed = entry["cell"], int(entry["game"]), entry["seed"]
    except (ValueError, KeyError, TypeError):
        raise BadDataError(name, "a study's game: cell, game, seed, ...", line=line) from None
    beside = Path(games).with_name("results.json")
    try:
        results = json.loads(beside.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise BadDataError(
            str(beside), "the study's results.json beside its games.jsonl (a study ended or "
            "stopped writes it; finish a killed one with --resume)",
        ) from None  # fmt: skip
    cell = next((c for c in results.get("cells", []) if c.get("name") == cell_name), None)
    if cell is None:
        raise BadDataError(name, f"a cell of {beside.name}", line=line, found=str(cell_name))
    rs = get_ruleset(str(results["ruleset"]))
    config = rs.resolve_config(cell["config"])
    bots = resolve_seats(
        rs, config, seats_in({**results["seats"], **cell["bots"]}, rs.seats(config))
    )
    game = play_game(
        rs, config, seed, {s: make_bot(b, rs.id) for s, b in bots.items()},
        bot_seed=bot_seed(cell["seed"], index), record=True,
    )  # fmt: skip
    winners = sorted(game.outcome.winners)
    if winners != entry.get("winners") or game.length != entry.get("length"):
        raise BadDataError(
            name, "a game that ends as its line says", line=line,
            found=f"{game.length} actions won by {', '.join(winners) or 'nobody'}"
            " (made by another version of the rule set or its bots?)",
        )  # fmt: skip
    return game


def check_settings_kept(path: str | Path, study: Study) -> None:
    """Refuse to resume a study whose games were played under other settings than its
    file gives now: the ``results.json`` a study writes when it ends or stops keeps the
    rule set and its version and each cell's whole configuration and bots. A data file
    edited since (a Zero Dark map, a Warfighter mission: its digest in the
    configuration), another version of the rule set or a cell's bots changed would put
    games of two settings in one cell. Options the kept configuration lacks (added to
    the rule set since) are not compared. Without a readable ``results.json`` (a study
    killed before its first game) there is nothing to compare.

    Raises:
        BadDataError: naming ``results.json``, the cell and the first setting that
            differs, and how to start afresh.
    """
    name = str(path)
    try:
        kept = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    if not isinstance(kept, dict):
        return
    afresh = (
        " (a data file or the rule set changed since? --fresh instead of --resume plays the"
        " study again from the start)"
    )
    rs = study.ruleset
    for key, value in (("ruleset", rs.id), ("ruleset_version", rs.version)):
        if key in kept and kept[key] != value:
            raise BadDataError(
                name, f"games played with {key} = {json.dumps(value)}, as now{afresh}",
                found=f"{key} = {json.dumps(kept[key])}",
            )  # fmt: skip
    cells = {c.name: c for c in study.cells}
    seats: dict[str, Any] = _mapping(kept.get("seats"))
    for entry in kept.get("cells") or []:
        entry = _mapping(entry)
        cell = cells.get(str(entry.get("name")))
        if cell is None:
            continue
        # Every seat's bot, a default one too (a file without [seats] plays random
        # bots; kept before all_bots was, the seats the file named).
        bots = _mapping(entry.get("all_bots")) or {**seats, **_mapping(entry.get("bots"))}
        then = {**_mapping(entry.get("config")), **{f"{s} bot": b for s, b in bots.items()}}
        now = {**dict(cell.config), **{f"{s} bot": b for s, b in cell.bots.items()}}
        for key in sorted(then.keys() & now.keys()):
            if then[key] != now[key]:
                # A bot is the study file's (or its default's) choice; an option may also
                # have changed under the file, through a data file or the rule set.
                why = (
                    " (the study file or a default bot changed since? --fresh instead of"
                    " --resume plays the study again from the start)"
                    if key.endswith(" bot")
                    else afresh
                )
                raise BadDataError(
                    name,
                    f"games of cell {json.dumps(cell.name)} played with {key} = "
                    f"{json.dumps(now[key])}, as the study gives it now{why}",
                    found=f"{key} = {json.dumps(then[key])}",
                )


def _mapping(value: object) -> dict[str, Any]:
    """``value`` as a dict of text keys (a file's JSON object), or empty."""
    return {str(k): v for k, v in value.items()} if isinstance(value, dict) else {}


def read_games(path: str | Path, study: Study) -> dict[str, dict[int, GameResult]]:
    """The games a study's ``games.jsonl`` already holds, by cell and index, to resume
    it. A last line cut short (the study was killed while writing it) is left out: that
    game is played again.

    Every other line is checked against what it claims before it is kept: a cell of
    the study, an index the study plays, the seed the study gives that game, the only
    line of that game, and a result its game can have (:func:`_result_problem`).

    Raises:
        BadDataError: a line that does not check (naming the line and what was
            expected): another study's, a game twice, or a result that is not one.
    """
    name = str(path)
    cells = {c.name: c for c in study.cells}
    study_name = Path(study.file).name
    try:
        data = Path(path).read_bytes() if Path(path).exists() else b""
    except OSError as exc:
        raise BadDataError(name, "a study's games.jsonl", found=exc.strerror) from None
    lines = data.split(b"\n")
    if lines and not lines[-1]:
        lines.pop()  # the file ends with a line break
    out: dict[str, dict[int, GameResult]] = {}
    seen: dict[tuple[str, int], int] = {}
    for n, raw in enumerate(lines, start=1):
        last = n == len(lines)
        try:
            line = json.loads(decode_text(raw, file=name, what="a study's games.jsonl"))
        except BadDataError as exc:
            if last and not data.endswith(b"\n"):
                break  # cut short by the kill, inside a character
            raise BadDataError(name, exc.expected, line=n, found=exc.found) from None
        except json.JSONDecodeError:
            if last:
                break  # cut short by the kill
            raise BadDataError(name, "one JSON object per line", line=n) from None
        if not isinstance(line, dict):
            raise BadDataError(name, "one JSON object per line", line=n, found=_shown(line))
        label = line.get("cell")
        cell = cells.get(label) if isinstance(label, str) else None
        if cell is None:
            found = _entry("cell", line.get("cell"))
            raise BadDataError(name, f"a game of a cell of {study_name}", line=n, found=found)
        index = line.get("game")
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < study.games:
            raise BadDataError(
                name, f"a game of {study_name}: game = 0 to {study.games - 1}", line=n,
                found=_entry("game", index),
            )  # fmt: skip
        if line.get("seed") != game_seed(cell_seed(study.seed, cell), index):
            raise BadDataError(
                name, f"the seed {study_name} gives this game", line=n,
                found=_entry("seed", line.get("seed")),
            )  # fmt: skip
        if (cell.name, index) in seen:
            raise BadDataError(
                name, f"one line per game (game {index} of {json.dumps(cell.name)} is on "
                f"line {seen[cell.name, index]} too)", line=n,
            )  # fmt: skip
        problem = _result_problem(study, cell, line)
        if problem is not None:
            expected, found = problem
            raise BadDataError(
                name, f"a result its game can have: {expected} (an edited line? delete it "
                "and --resume plays its game again)", line=n, found=found,
            )  # fmt: skip
        seen[cell.name, index] = n
        out.setdefault(cell.name, {})[index] = game_from_line(line)
    return out


def _result_problem(study: Study, cell: Cell, line: Mapping[str, Any]) -> tuple[str, str] | None:
    """What is wrong with a game line's result (what was expected, what was found), or
    None: its fields of the right kinds, winners that are seats of the cell's game and
    agree with the sides that won, a length the rule set's games can have, and a finite
    number for every metric."""
    winners, sides = line.get("winners"), line.get("sides")
    for key, value in (("winners", winners), ("sides", sides)):
        if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
            return f'{key} = ["...", ...]', _entry(key, value)
        if len(set(value)) != len(value):
            return f"{key} each once", _entry(key, value)
    assert isinstance(winners, list) and isinstance(sides, list)
    result = f"{_entry('winners', winners)}, {_entry('sides', sides)}"
    seats = set(cell.bots)
    if seats and not set(winners) <= seats:
        return f"winners among the seats of its game ({', '.join(cell.bots)})", result
    # A side wins with its seats: some seat that won starts on a side that won (a
    # traitor wins beside the side it joined), and a side that a seat of the game starts
    # on wins with such a seat (a side with no seat, a rule set's own, wins alone).
    start = {s: side for s, side in study.ruleset.metadata.sides.items() if s in seats}
    if winners and set(winners) <= set(start) and not any(start[w] in sides for w in winners):
        return "winners of whom one starts on a side that won", result
    for side in sides:
        if side in start.values() and not any(start.get(w) == side for w in winners):
            return f"a seat of side {side} among the winners, since {side} won", result
    if not isinstance(line.get("reason"), str):
        return 'reason = "..."', _entry("reason", line.get("reason"))
    if line.get("rule") is not None and not isinstance(line.get("rule"), str):
        return 'rule = "..." or null', _entry("rule", line.get("rule"))
    length, most = line.get("length"), study.ruleset.metadata.max_length
    if isinstance(length, bool) or not isinstance(length, int) or not 0 <= length <= most:
        return f"length = 0 to {most:,} actions", _entry("length", length)
    metrics = line.get("metrics")
    if not isinstance(metrics, dict) or not all(
        isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
        for v in metrics.values()
    ):
        return "metrics = { name = a number, ... }", _entry("metrics", metrics)
    return None


def run_study(
    study: Study,
    *,
    workers: int = 1,
    progress: ProgressCallback | None = None,
    on_game: Callable[[dict[str, JSON]], None] | None = None,
    known: Mapping[str, Mapping[int, GameResult]] | None = None,
    backend: str = "local",
    address: str | None = None,
) -> dict[str, JSON]:
    """Play every cell of ``study`` and return its results (``results.json``).

    Args:
        workers: local processes per cell (the results do not depend on it).
        progress: called with (games done, games in the study) over all its cells.
        on_game: called with each game's line (``games.jsonl``) as soon as it is
            played (with workers, a cell's games may come out of order).
        known: games already played, by cell and index (:func:`read_games`): they are
            not played again.
        backend: ``"local"`` or ``"ray"`` (Ray started once for the whole study, or the
            cluster at ``address`` joined); the results are the same.
    """
    check_backend(backend, address)
    started = ray_start(address, workers) if backend == "ray" else False
    try:
        results = _play_cells(study, workers, progress, on_game, known, backend, address)
    finally:
        if started:
            import ray

            ray.shutdown()
    return {
        **settings_json(study),
        "cells": [_cell_json(study, c, r) for c, r in zip(study.cells, results, strict=True)],
        "comparisons": compare(study, results),
    }


def _play_cells(
    study: Study,
    workers: int,
    progress: ProgressCallback | None,
    on_game: Callable[[dict[str, JSON]], None] | None,
    known: Mapping[str, Mapping[int, GameResult]] | None,
    backend: str,
    address: str | None,
) -> list[BatchResult]:
    results: list[BatchResult] = []
    for cell in study.cells:
        report: ProgressCallback | None = None
        if progress is not None:
            before = study.games * len(results)  # the cells already played

            def report(done: int, _games: int, before: int = before) -> None:
                progress(before + done, study.games * len(study.cells))

        config = {**study.config, **cell.options}
        seed = cell_seed(study.seed, cell)

        def save(
            start: int, played: list[GameResult], name: str = cell.name, s: str = seed
        ) -> None:
            if on_game is not None:
                for k, game in enumerate(played):
                    on_game({"cell": name, **game_line(s, start + k, game)})

        result = run_batch(
            study.ruleset,
            games=study.games,
            seed=seed,
            seats=dict(cell.bots),  # every seat's bot, resolved once by build_study
            config_overrides=config,
            workers=workers,
            progress=report,
            known=(known or {}).get(cell.name),
            on_games=save,
            backend=backend,
            address=address,
        )
        results.append(result)
    return results
