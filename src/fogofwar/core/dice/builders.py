"""Builders: the standard die :func:`d`, best or worst of several rolls, and the
exploding check (Specter Ops' attack)."""

from __future__ import annotations

from collections.abc import Callable

from .limits import MAX_DEPTH, MAX_FACES
from .nodes import Bind, Dice, Die, Keep, Pool


def d(sides: int) -> Die:
    """The standard die with faces ``1..sides`` (notation ``d6``)."""
    if isinstance(sides, bool) or not isinstance(sides, int):
        raise TypeError(f"sides must be an int, got {sides!r}")
    if not 1 <= sides <= MAX_FACES:
        raise ValueError(f"a die has 1 to {MAX_FACES} sides, got {sides}")
    return Die(tuple(range(1, sides + 1)))


def best_of(dice: Dice, n: int = 2) -> Keep:
    """Roll ``dice`` ``n`` times and keep the best (highest) result."""
    return Pool(n, dice).highest(1)


def worst_of(dice: Dice, n: int = 2) -> Keep:
    """Roll ``dice`` ``n`` times and keep the worst (lowest) result."""
    return Pool(n, dice).lowest(1)


def exploding_check(
    sides: int,
    target: int,
    *,
    modifier: int = 0,
    natural_miss: int | None = 1,
    depth: int | None = None,
) -> Bind:
    """1 if ``d<sides>`` exploding on its top face, plus ``modifier``, reaches ``target``.

    The natural (first) die decides first: if it shows ``natural_miss`` the check fails
    whatever the total. A top face rolls another die and adds it, and so on (an extra die
    adds its face, a 1 included, and explodes in turn on the top face). Specter Ops'
    attack is ``exploding_check(6, distance)`` (SO-X1, X3, X4, X5).

    Rolling stops as soon as the total reaches the target (more dice only add), so with
    ``depth=None`` the explosion is unlimited, as the rules say, and still exact: at most
    about ``target / sides`` dice can matter. ``depth`` caps the number of extra dice.

    Raises:
        ValueError: the target needs more than :data:`MAX_DEPTH` extra dice.
    """
    die = d(sides)
    if depth is not None and not 0 <= depth <= MAX_DEPTH:
        raise ValueError(f"depth must be 0 to {MAX_DEPTH}, got {depth}")
    if depth is None and (target - modifier) // sides > MAX_DEPTH:
        raise ValueError(f"target {target} needs more than {MAX_DEPTH} exploding dice")
    name = f"check(d{sides}!{'' if depth is None else depth}{modifier:+d}>={target})"

    def step(total: int, extra: int) -> Callable[[int], Dice | int]:
        def next_die(face: int) -> Dice | int:
            if extra == 0 and face == natural_miss:
                return 0
            reached = total + face
            if reached + modifier >= target:
                return 1  # settled: the hunter need not roll again
            if face == sides and (depth is None or extra < depth):
                return die.bind(step(reached, extra + 1), name)
            return 0

        return next_die

    return die.bind(step(0, 0), name)
