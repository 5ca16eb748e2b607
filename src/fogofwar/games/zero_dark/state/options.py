"""The text options a mission sets and their limits: the Red Force (FR-P1, its flags
ZD-C4, ZD-P0), the susceptible tiers (ZD-P0), the win conditions (ZD-C8) and the
persuaded ally's stat line (ZD-P5). Each is
read once, by the rule set when it resolves a configuration and by the state when a
mission starts; a bad value is a one-line :class:`RulesError` saying what is allowed.
"""

from __future__ import annotations

import re
from typing import Final

from ....core.errors import RulesError
from ..profiles import ALLY, BOGEYS, PING_LABEL, HeroStats
from .pieces import short

__all__ = [
    "ALLY_LINE",
    "FLAGS",
    "MAX_ALLIES",
    "MAX_BOGEYS",
    "MAX_COMPLICATIONS",
    "MAX_RED_FORCE",
    "TASK_WINS",
    "WIN_CONDITIONS",
    "OptionConflict",
    "PingSpec",
    "StatLineError",
    "check_consistent",
    "parse_ally",
    "parse_red_force",
    "parse_red_force_specs",
    "parse_susceptible",
    "parse_win",
]

FLAGS: Final = ("nemesis", "named", "synthetic", "susceptible")
"""Bogey flags a Red Force entry may carry (ZD-C4, ZD-P0)."""

WIN_CONDITIONS: Final = (
    "objectives",
    "exit",
    "extract",
    "rescue",
    "assassination",
    "observation",
    "acquisition",
    "survive",
)
"""A mission's win conditions (ZD-C8): all must hold for the mission to succeed."""

TASK_WINS: Final = ("rescue", "assassination", "observation", "acquisition")
"""The win conditions that are a priority task's success (ZD-C8, ZD-T3…T6): each needs
that task."""

_TIER_OF_LABEL: Final = {v: k for k, v in PING_LABEL.items()}

PingSpec = tuple[str, frozenset[str]]
"""A ping of the Red Force: its tier and its flags."""


MAX_RED_FORCE: Final = 60
"""The most pings a Red Force may have (FR-P1): each needs a ping site of the map, and no
Zero Dark map holds more (a 48×48 table, MAX_MAP_SIDE, would be crowded with 60)."""

MAX_COMPLICATIONS: Final = 2 * 54
"""The most complications a mission can have (ZD-C6): each of the Control Deck's 54
cards is resolved at most twice — once from the first deck (flipped or played from a
hand, ZD-C7), once more from the second deck if it was set aside (ZD-B3)."""

MAX_BOGEYS: Final = MAX_RED_FORCE + MAX_COMPLICATIONS
"""Bogey ids a mission can reach (``B1`` …): every bogey was a ping, of the Red Force
(FR-P1) or of a complication (ZD-C6). The action encoding covers them all."""

MAX_ALLIES: Final = MAX_BOGEYS
"""Ally ids a mission can reach (``A1`` …): every ally was a persuaded bogey (ZD-P1)."""

_COUNT_DIGITS: Final = len(str(MAX_RED_FORCE))


def parse_red_force(text: str) -> tuple[str, ...]:
    """The tiers of a Red Force, in order (see :func:`parse_red_force_specs`)."""
    return tuple(tier for tier, _ in parse_red_force_specs(text))


def parse_red_force_specs(text: str) -> tuple[PingSpec, ...]:
    """Read a Red Force: ``"grunt=5,elite=2,boss=1:named:nemesis"`` → its pings (tier,
    flags), in order. A tier may be named or given by its counter's face (``1``, ``2``,
    ``3``, ``S``, FR-P1); a count is a whole number (ASCII digits); flags are ``nemesis``,
    ``named``, ``synthetic`` and ``susceptible`` (ZD-C4, ZD-P0). At most
    :data:`MAX_RED_FORCE` pings in all.

    Raises:
        RulesError: an unknown tier or flag, a bad count, more than
            :data:`MAX_RED_FORCE` pings, or no ping at all.
    """
    out: list[PingSpec] = []
    tiers = ", ".join(BOGEYS)
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        tier, sep, rest = part.partition("=")
        tier = tier.strip()
        # A tier by name or by its counter's face (FR-P1: "1", "2", "3", "S").
        tier = _TIER_OF_LABEL.get(tier.upper(), tier.lower())
        count, *flags = rest.split(":")
        count = count.strip()
        if (
            tier not in BOGEYS
            or not sep
            or not count.isascii()
            or not count.isdigit()
            or len(count) > _COUNT_DIGITS
        ):
            raise RulesError(
                f"red_force: expected tier=count with tiers {tiers} (or the faces 1, 2, 3, "
                f"S) and a count from 0 to {MAX_RED_FORCE} (FR-P1), got {short(part)}"
            )
        bad = [f for f in flags if f.strip().lower() not in FLAGS]
        if bad:
            raise RulesError(f"red_force: flags are {', '.join(FLAGS)}, not {short(bad[0])}")
        n = int(count)
        if len(out) + n > MAX_RED_FORCE:
            raise RulesError(
                f"red_force: at most {MAX_RED_FORCE} pings in all (FR-P1), got more at "
                f"{short(part)}"
            )
        marks = frozenset(f.strip().lower() for f in flags)
        out += [(tier, marks)] * n
    if not out:
        raise RulesError("red_force: at least one ping is needed (FR-P1), e.g. grunt=5,elite=2")
    return tuple(out)


def parse_susceptible(text: str) -> frozenset[str]:
    """The bogey tiers of the ``susceptible`` option (ZD-P0): comma-separated tier names
    in any case, each once; ``""`` or ``none`` for none.

    Raises:
        RulesError: an unknown or repeated tier, saying which tiers there are.
    """
    words = [w.strip().lower() for w in text.split(",")]
    words = [w for w in words if w]
    if words == ["none"]:
        return frozenset()
    seen: set[str] = set()
    for w in words:
        if w not in BOGEYS:
            raise RulesError(
                f"susceptible: expected bogey tiers ({', '.join(BOGEYS)}) or none, comma-"
                f"separated (ZD-P0), not {short(w)}"
            )
        if w in seen:
            raise RulesError(f"susceptible: each tier once (ZD-P0), {short(w)} is repeated")
        seen.add(w)
    return frozenset(seen)


def parse_win(text: str) -> tuple[str, ...]:
    """The ``win`` option's conditions (ZD-C8), comma-separated in any case; at least one.

    Raises:
        RulesError: an unknown condition, or none at all, saying which there are.
    """
    words = [w.strip().lower() for w in text.split(",")]
    out = tuple(dict.fromkeys(w for w in words if w))
    for w in out:
        if w not in WIN_CONDITIONS:
            raise RulesError(
                f"win: conditions are {', '.join(WIN_CONDITIONS)} (ZD-C8), not {short(w)}"
            )
    if not out:
        raise RulesError(f"win: at least one condition (ZD-C8): {', '.join(WIN_CONDITIONS)}")
    return out


def stat_line(stats: HeroStats) -> str:
    """A character's stat line as the docs and mission files write it:
    ``M3 F3 A3 D3 AV0`` (its Cyl too when it is not 3)."""
    text = f"M{stats.m} F{stats.f} A{stats.a} D{stats.d} AV{stats.av}"
    return text if stats.cyl == 3 else f"{text} Cyl{stats.cyl}"


ALLY_LINE: Final = stat_line(ALLY)
"""The stand-in core's ally stat line, as text: the ``ally`` option's default (ZD-P5)."""

#: Each stat of a stat line: (its name, the least and the most it may be). M, F, A and
#: D are dice (at least one, ZD-C1) or squares (M); AV is armour 0–8 (ZD-C2's notes);
#: Cyl 1–5, one square (FR-C1: the ally stands where the bogey stood).
_STATS: Final[dict[str, tuple[str, int, int]]] = {
    "m": ("M", 1, 12),
    "f": ("F", 1, 12),
    "a": ("A", 1, 12),
    "d": ("D", 1, 12),
    "av": ("AV", 0, 8),
    "cyl": ("Cyl", 1, 5),
}
_STAT_RE: Final = re.compile(r"(av|cyl|[mfad])\s*([0-9]+)", re.IGNORECASE)


class StatLineError(RulesError):
    """A bad stat line: ``detail`` says what is wrong, ``offset`` where in the text
    (0-based), ``found`` the offending word (``None`` for something missing)."""

    def __init__(self, detail: str, offset: int, found: str | None) -> None:
        super().__init__(f"ally: expected a stat line such as {ALLY_LINE} (ZD-P5): {detail}")
        self.detail = detail
        self.offset = offset
        self.found = found


def parse_ally(text: str) -> HeroStats:
    """A persuaded ally's stat line (ZD-P5): ``M3 F3 A3 D3 AV0``, the words separated by
    spaces (or commas), each a stat and its value with nothing between (any case, in any
    order): M, F, A and D 1–12, AV 0–8, each once; an optional ``Cyl`` 1–5 (3 if left
    out).

    Raises:
        StatLineError: an unknown or repeated word, a value out of its range, or a stat
            missing.
    """
    values: dict[str, int] = {}
    for word in re.finditer(r"[^\s,]+", text):
        found = word.group()
        m = _STAT_RE.fullmatch(found)
        if m is None or len(m.group(2)) > 2:
            raise StatLineError(
                f"each word a stat (M, F, A, D, AV, Cyl) and its value, not {short(found)}",
                word.start(),
                found,
            )
        key = m.group(1).lower()
        label, least, most = _STATS[key]
        value = int(m.group(2))
        if key in values:
            raise StatLineError(f"{label} is given twice", word.start(), found)
        if not least <= value <= most:
            raise StatLineError(f"{label} from {least} to {most}, not {value}", word.start(), found)
        values[key] = value
    missing = [_STATS[k][0] for k in ("m", "f", "a", "d", "av") if k not in values]
    if missing:
        raise StatLineError(f"{', '.join(missing)} missing", len(text), None)
    return HeroStats(**values)


class OptionConflict(RulesError):
    """Options each valid alone that contradict one another (a task without a Spook, a
    win condition the mission cannot check…). ``str()`` names the options for
    ``--set``; a mission file's loader reports ``expected`` at the line of ``key`` (at
    ``item`` in its value when given), naming the line of ``also`` when the file gives
    that key too."""

    def __init__(
        self,
        message: str,
        key: str,
        expected: str,
        item: str | None = None,
        also: str | None = None,
    ) -> None:
        super().__init__(message)
        self.key = key
        self.expected = expected
        self.item = item
        self.also = also


def check_consistent(
    *,
    mode: str,
    spook: bool,
    task: str,
    buy_time: bool,
    win: tuple[str, ...],
    specs: tuple[PingSpec, ...],
    rescue_excludes_synthetic: bool = True,
) -> None:
    """The checks across options, shared by the rule set's configurations (``--set``,
    a record) and the mission files (``docs/missions.md``), so that neither accepts a
    combination the other refuses: each option's own value is checked by its parser.

    Raises:
        OptionConflict: in Versus a task or buying time (each team chooses them in
            secret at the table, ZD-B4); a task or buying time without a Spook (ZD-T1,
            ZD-B1: it would be dropped silently); a task's win condition without that
            task in solo (ZD-C8: the mission could never succeed); the Rescue task with
            no ping that may be the double agent (ZD-T3); the Assassination task with no
            Boss in the Red Force (ZD-T4).
    """
    versus = mode == "versus"
    table = (
        "each team chooses its Spook's task and whether it buys time in secret at the table, ZD-B4"
    )
    if versus and task != "none":
        raise OptionConflict(
            f"task: Versus takes no task option ({table}), got task={task}",
            "task",
            f"no 'task' in a Versus mission ({table})",
        )
    if versus and buy_time:
        raise OptionConflict(
            f"buy_time: Versus takes no buy_time option ({table}), got buy_time=true",
            "buy_time",
            f"no 'buy_time' in a Versus mission ({table})",
        )
    if not spook and task != "none":
        raise OptionConflict(
            f"task: task={task} needs a Spook (spook=true, ZD-T1): without one there is no task",
            "task",
            "no task without a Spook (ZD-T1)",
        )
    if not spook and buy_time:
        raise OptionConflict(
            "buy_time: buy_time=true needs a Spook (spook=true, ZD-B1): without one "
            "nobody buys time",
            "buy_time",
            "no buying time without a Spook (ZD-B1)",
        )
    for cond in win:
        if cond not in TASK_WINS or (not versus and task == cond):
            continue
        at_table = "in Versus the tasks are chosen at the table"
        why = at_table if versus else f"the task is {task!r}"
        why_file = at_table if versus else f"the mission's task is {task!r}"
        raise OptionConflict(
            f"win: the condition {cond!r} needs task={cond} in solo play ({why}, ZD-C8)",
            "win",
            f"a win condition the mission can check: {cond!r} needs 'task: {cond}' in a "
            f"solo mission ({why_file})",
            item=cond,
        )
    excluded = ["nemesis", "named"] + (["synthetic"] if rescue_excludes_synthetic else [])
    if task == "rescue" and all(flags & set(excluded) for _, flags in specs):
        words = ", ".join(excluded[:-1]) + " or " + excluded[-1]
        raise OptionConflict(
            f"red_force: task=rescue needs a ping that may be the double agent (ZD-T3): "
            f"one without the {words} flag",
            "red_force",
            f"a ping that may be the double agent for the Rescue task (ZD-T3): one without "
            f"the {words} flag",
            also="task",
        )
    if task == "assassination" and not any(tier == "boss" for tier, _ in specs):
        raise OptionConflict(
            "red_force: task=assassination needs a boss in the Red Force (ZD-T4)",
            "red_force",
            "a boss in the Red Force for the Assassination task (ZD-T4)",
            also="task",
        )
