"""Exact odds of Warfighter's ability checks and Doors (WF-A2, A3, A7, A8, A11, WF-C4,
WF-D4, D5).

The rules roll with the same objects: the d10 is :data:`~.rolls.D10`, and what a roll
decides is :func:`~.rolls.check_result` (a check) or :func:`~.rolls.reaches` (a shot's
EKIA); the rules (``state/``) call them on the face rolled, and the odds here on every
face of ``D10``'s exact distribution.

* :func:`check_odds` — the exact chance that an ability check succeeds.
* :func:`hostile_odds` — the wounds a Soldier takes in a hostile turn (WF-C7): each
  Hostile that attacks it rolls a d10 that wounds on reaching its Cover, until it is
  out.
* :func:`door_odds` — the distribution of the number of Actions needed to Breach a Door
  by attacking it (a d10 per shot, an EKIA on each roll at least its Cover, Breached at
  its Hits) and by picking it (one Pick check per Action), up to a bound, with the
  chance of needing more than the bound as one figure (the tail).
"""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Final, cast

from rich.table import Table

from fogofwar.core.errors import RulesError
from fogofwar.core.odds import OddsAnswer, OddsParam, OddsQuery, percent

from .cardfile import MAX_MODIFIER, MAX_NUMBER
from .rolls import DIE, FACES, LACKING_NATURAL, check_result, reaches
from .state.pieces import OUT_AT

__all__ = [
    "DEFAULT_BOUND",
    "DIE",
    "LACKING_NATURAL",
    "QUERIES",
    "check_json",
    "check_odds",
    "check_result",
    "door_json",
    "door_odds",
    "ekia_chance",
    "hostile_json",
    "hostile_odds",
]

#: The default number of Actions shown before the tail.
DEFAULT_BOUND: Final = 20


def check_odds(
    need: int, *, modifier: int = 0, upgunned: int | None = None, lacks_ability: bool = False
) -> Fraction:
    """The exact chance that an ability check succeeds (WF-A11).

    Args:
        need: the Soldier's number (``7`` for ``Pick 7+``).
        modifier: the check's modifier (WF-A3).
        upgunned: the bracketed number, when the check is upgunned (WF-A7).
        lacks_ability: the Soldier lacks the ability: the check never succeeds (WF-A8).
    """
    if need < 1 or (upgunned is not None and upgunned < 1):
        raise RulesError(f"an ability's number is 1 or more, not {need if need < 1 else upgunned}")
    if lacks_ability:
        return Fraction(0)
    target = need if upgunned is None else upgunned
    return sum((p for face, p in FACES if check_result(face, target, modifier)[0]), Fraction(0))


def ekia_chance(cover: int) -> Fraction:
    """The chance that one shot's d10 reaches ``cover`` (WF-C4)."""
    return sum((p for face, p in FACES if reaches(face, cover)), Fraction(0))


def hostile_odds(cover: int, *, hostiles: int = 1, wounds: int = 0) -> dict[int, Fraction]:
    """The wounds ``hostiles`` attacks give one Soldier of Cover ``cover`` that has
    ``wounds`` already, in a hostile turn (WF-C7): each attack a d10 that wounds on
    reaching the Cover (:func:`~.rolls.reaches`, as the rules decide it). The Soldier
    is out at :data:`~.state.pieces.OUT_AT` wounds and an out Soldier is attacked no
    more, so the count stops there: ``{wounds taken: P}`` from 0 to the fewer of
    ``hostiles`` and the wounds that put it out; where the attacks can put it out, that
    last entry is the chance of being out (below it, the binomial's)."""
    if not 1 <= cover <= MAX_NUMBER or hostiles < 0:
        raise RulesError(f"a Soldier's Cover is 1-{MAX_NUMBER} and hostiles 0 or more")
    if not 0 <= wounds < OUT_AT:
        raise RulesError(f"a standing Soldier has 0-{OUT_AT - 1} wounds, not {wounds}")
    binomial = _reaching(cover, hostiles)
    most = min(hostiles, OUT_AT - wounds)
    dist = dict(enumerate(binomial[:most]))
    dist[most] = sum(binomial[most:], Fraction(0))
    return dist


def _reaching(cover: int, rolls: int) -> list[Fraction]:
    """P(k of ``rolls`` d10s reach ``cover``), k = 0…rolls: a binomial (a weapon's shots
    in one Action, WF-C4; the Hostiles' attacks on a Soldier, WF-C7)."""
    p = ekia_chance(cover)
    return [comb(rolls, k) * p**k * (1 - p) ** (rolls - k) for k in range(rolls + 1)]


def _attack_distribution(
    cover: int, hits: int, shots: int, bound: int
) -> tuple[dict[int, Fraction], Fraction]:
    per_action = _reaching(cover, shots)
    # EKIAs gained so far (below ``hits``) -> probability, among games not yet breached.
    alive: dict[int, Fraction] = {0: Fraction(1)}
    out: dict[int, Fraction] = {}
    for n in range(1, bound + 1):
        nxt: dict[int, Fraction] = {}
        done = Fraction(0)
        for have, prob in alive.items():
            for k, q in enumerate(per_action):
                if not q:
                    continue
                if have + k >= hits:
                    done += prob * q
                else:
                    nxt[have + k] = nxt.get(have + k, Fraction(0)) + prob * q
        if done:
            out[n] = done
        alive = nxt
    return out, sum(alive.values(), Fraction(0))


def _pick_distribution(success: Fraction, bound: int) -> tuple[dict[int, Fraction], Fraction]:
    out: dict[int, Fraction] = {}
    for n in range(1, bound + 1):
        prob = (1 - success) ** (n - 1) * success
        if prob:
            out[n] = prob
    return out, (1 - success) ** bound


def door_odds(
    cover: int,
    hits: int,
    *,
    shots: int = 1,
    pick: int | None = None,
    pick_modifier: int = 0,
    upgunned: int | None = None,
    bound: int = DEFAULT_BOUND,
) -> dict[str, object]:
    """The Actions needed to Breach a Door (WF-D2, WF-D4, WF-D5).

    Args:
        cover: the Door's Cover (WF-D2).
        hits: the Door's Hits (WF-D4).
        shots: the weapon's shots: a d10 each per Action of attack (WF-C4).
        pick: the picking Soldier's Pick number (``5`` for ``Pick 5+``); ``None``: no pick.
        pick_modifier: the Door's Pick value, a modifier to the check (WF-D1).
        upgunned: the Soldier's upgunned Pick number (each try then costs two Actions,
            WF-A7), if the pick is upgunned.
        bound: how many Actions to list; the rest is the tail.

    Returns:
        ``{"attack": {"actions": {n: P(breached on Action n)}, "tail": P(> bound),
        "per_shot": P(EKIA)}, "pick": same with "per_try", or None, "bound": bound}``,
        probabilities as Fractions.
    """
    if not 1 <= cover <= 11 or hits < 1 or shots < 1 or bound < 1:
        raise RulesError("a Door has cover 1-11, hits 1 or more; shots and the bound are 1 or more")
    dist, tail = _attack_distribution(cover, hits, shots, bound)
    result: dict[str, object] = {
        "bound": bound,
        "attack": {"actions": dist, "tail": tail, "per_shot": ekia_chance(cover)},
        "pick": None,
    }
    if pick is not None:
        per_try = check_odds(pick, modifier=pick_modifier, upgunned=upgunned)
        cost = 1 if upgunned is None else 2
        tries, tail_p = _pick_distribution(per_try, bound // cost)
        actions = {n * cost: p for n, p in tries.items()}
        # An upgunned pick with an odd bound: the last try would end past the bound.
        result["pick"] = {"actions": actions, "tail": tail_p, "per_try": per_try, "cost": cost}
    return result


def _text(p: Fraction) -> str:
    return str(p)


def check_json(
    need: int, *, modifier: int = 0, upgunned: int | None = None, lacks_ability: bool = False
) -> dict[str, object]:
    """The JSON form of :func:`check_odds` for ``fogofwar odds warfighter check``
    (fractions as ``"p/q"`` text)."""
    p = check_odds(need, modifier=modifier, upgunned=upgunned, lacks_ability=lacks_ability)
    return {
        "game": "warfighter",
        "roll": "check",
        "need": need,
        "modifier": modifier,
        "upgunned": upgunned,
        "lacks_ability": lacks_ability,
        "success": _text(p),
        "failure": _text(1 - p),
        "rules": ["WF-A2", "WF-A3", "WF-A7", "WF-A8", "WF-A11"],
    }


def hostile_json(cover: int, *, hostiles: int = 1, wounds: int = 0) -> dict[str, object]:
    """The JSON form of :func:`hostile_odds` for ``fogofwar odds warfighter hostile``:
    each attack's chance to wound, the distribution of the wounds taken, and the chance
    that the Soldier, with ``wounds`` already, is out after the turn (:data:`~.state.
    pieces.OUT_AT` wounds)."""
    dist = hostile_odds(cover, hostiles=hostiles, wounds=wounds)
    out = sum((p for k, p in dist.items() if wounds + k >= OUT_AT), Fraction(0))
    return {
        "game": "warfighter",
        "roll": "hostile",
        "cover": cover,
        "hostiles": hostiles,
        "wounds": wounds,
        "per_attack": _text(ekia_chance(cover)),
        "wounds_taken": {str(k): _text(p) for k, p in dist.items()},
        "out": _text(out),
        "rules": ["WF-C7"],
    }


def door_json(
    cover: int,
    hits: int,
    *,
    shots: int = 1,
    pick: int | None = None,
    pick_modifier: int = 0,
    upgunned: int | None = None,
    bound: int = DEFAULT_BOUND,
) -> dict[str, object]:
    """The JSON form of :func:`door_odds` for ``fogofwar odds warfighter door``: for the
    attack and the pick, ``{"actions": {"n": "p/q"}, "at_most": {"n": "p/q"},
    "tail": "p/q"}`` (the chance of needing more than ``bound`` Actions)."""
    raw = door_odds(
        cover,
        hits,
        shots=shots,
        pick=pick,
        pick_modifier=pick_modifier,
        upgunned=upgunned,
        bound=bound,
    )

    def side(part: object, per: str) -> dict[str, object] | None:
        if not isinstance(part, dict):
            return None
        acc = Fraction(0)
        at_most: dict[str, str] = {}
        for n, p in sorted(part["actions"].items()):
            acc += p
            at_most[str(n)] = _text(acc)
        out: dict[str, object] = {
            "actions": {str(n): _text(p) for n, p in sorted(part["actions"].items())},
            "at_most": at_most,
            "tail": _text(part["tail"]),
            per: _text(part[per]),
        }
        if "cost" in part:
            out["cost"] = part["cost"]
        return out

    return {
        "game": "warfighter",
        "roll": "door",
        "cover": cover,
        "hits": hits,
        "shots": shots,
        "pick": pick,
        "pick_modifier": pick_modifier,
        "upgunned": upgunned,
        "bound": bound,
        "attack": side(raw["attack"], "per_shot"),
        "picking": side(raw["pick"], "per_try"),
        "rules": ["WF-C4", "WF-D1", "WF-D2", "WF-D4", "WF-D5", "WF-A7"],
    }


# --------------------------------------------------------------------------- the odds queries


def _check(need: int, modifier: int, upgunned: int | None, lacks_ability: bool) -> OddsAnswer:
    _below("--upgunned", upgunned, "--need", need)
    data = check_json(need, modifier=modifier, upgunned=upgunned, lacks_ability=lacks_ability)
    label = f"{upgunned}+ upgunned" if upgunned is not None else f"{need}+"
    if modifier:
        label += f", modifier {modifier:+d}"
    if lacks_ability:
        label += ", lacking the ability"
    out = Table(title=f"Warfighter check: d10, {label}", title_justify="left")
    for col in ("outcome", "probability", "%"):
        out.add_column(col, justify="right")
    for key in ("success", "failure"):
        p = Fraction(str(data[key]))
        out.add_row(key, str(p), percent(p))
    return OddsAnswer(data, out)


def _hostile(cover: int, hostiles: int, wounds: int) -> OddsAnswer:
    data = hostile_json(cover, hostiles=hostiles, wounds=wounds)
    title = f"Warfighter hostile turn: {hostiles} attack{'s' if hostiles != 1 else ''}"
    title += f" on a Soldier of Cover {cover}+ with {wounds} wound{'s' if wounds != 1 else ''}"
    out = Table(title=title, title_justify="left")
    for col in ("wounds taken", "probability", "%"):
        out.add_column(col, justify="right")
    for k, p in cast(dict[str, str], data["wounds_taken"]).items():
        out.add_row(k, p, percent(p))
    out.caption = (
        f"each attack a d10 ≥ {cover} ({percent(str(data['per_attack']))}%); out at {OUT_AT} "
        f"wounds: {data['out']} ({percent(str(data['out']))}%). Every Hostile on a Location "
        "attacks its least wounded Soldier (WF-C7): these are one Soldier's odds when it is "
        "the one attacked, as when it stands alone; once out it is attacked no more, so "
        "where the attacks can put it out, the last row is being out."
    )
    return OddsAnswer(data, out)


def _door(
    cover: int,
    hits: int,
    shots: int,
    pick: int | None,
    pick_modifier: int,
    upgunned: int | None,
    bound: int,
) -> OddsAnswer:
    if upgunned is not None and pick is None:
        raise RulesError("--upgunned is the picker's upgunned Pick: give --pick too")
    if pick_modifier and pick is None:
        raise RulesError("--pick-modifier is the pick's modifier: give --pick too")
    if pick is not None:
        _below("--upgunned", upgunned, "--pick", pick)
    data = door_json(
        cover,
        hits,
        shots=shots,
        pick=pick,
        pick_modifier=pick_modifier,
        upgunned=upgunned,
        bound=bound,
    )
    title = (
        f"Warfighter door: Cover {cover}, Hits {hits}, {shots} shot{'s' * (shots != 1)} an Action"
    )
    if pick is not None:
        title += f"; Pick {pick}+" + (f" {pick_modifier:+d}" if pick_modifier else "")
        if upgunned is not None:
            title += f", upgunned {upgunned}+ (2 Actions a try)"
    out = Table(title=title, title_justify="left")
    out.add_column("Actions", justify="right")
    ways = [("attack", "attack")] + ([("picking", "pick")] if data["picking"] else [])
    for _, label in ways:
        out.add_column(f"{label}: P(=)", justify="right")
        out.add_column(f"{label}: P(≤) %", justify="right")
    for n in range(1, bound + 1):
        row = [str(n)]
        for key, _ in ways:
            part = cast(dict[str, dict[str, str]], data[key])
            p = part["actions"].get(str(n), "0")
            at_most = part["at_most"].get(str(n))
            if at_most is None:  # no breach can end on this Action (an upgunned pick)
                done = [Fraction(v) for k, v in part["at_most"].items() if int(k) <= n]
                at_most = str(max(done, default=Fraction(0)))
            row += [p, percent(at_most)]
        out.add_row(*row)
    tail = [f"{label}: {cast(dict[str, str], data[key])['tail']}" for key, label in ways]
    out.caption = f"more than {bound} Actions — " + "; ".join(tail)
    return OddsAnswer(data, out)


def _below(name: str, upgunned: int | None, base: str, value: int) -> None:
    """An upgunned number is below the number it upguns (WF-A7; the data files' range)."""
    if upgunned is not None and upgunned >= value:
        raise RulesError(
            f"{name} {upgunned}: an upgunned number is below the number it upguns "
            f"({base} {value}) (WF-A7)"
        )


def _number(name: str, help: str, *, required: bool = False) -> OddsParam:
    """A d10's N+ or a Cover, in the data files' range (1-11)."""
    return OddsParam(name, int, help, required=required, minimum=1, maximum=MAX_NUMBER)


def _modifier(name: str, help: str) -> OddsParam:
    """A modifier, in the data files' range (-10 to 10): past it every roll passes or
    fails alike."""
    return OddsParam(name, int, help, default=0, minimum=-MAX_MODIFIER, maximum=MAX_MODIFIER)


#: ``fogofwar odds warfighter check …`` and ``fogofwar odds warfighter door …``.
QUERIES: Final[tuple[OddsQuery, ...]] = (
    OddsQuery(
        "check",
        "Exact chance that an ability check succeeds.",
        (
            _number("need", "The ability's N of N+ (d10; 1-11).", required=True),
            _modifier("modifier", "The check's modifier (WF-A3; -10 to 10)."),
            _number(
                "upgunned", "The ability's upgunned value, below N, spent on this check (WF-A7)."
            ),
            OddsParam("lacks_ability", bool, "The Soldier lacks the ability: it never succeeds."),
        ),
        _check,
        ("WF-A2", "WF-A3", "WF-A7", "WF-A8", "WF-A11"),
    ),
    OddsQuery(
        "hostile",
        "Exact wounds a Soldier takes from the Hostiles' attacks in a hostile turn.",
        (
            _number("cover", "The Soldier's Cover (1-11).", required=True),
            OddsParam(
                "hostiles",
                int,
                "Hostiles that attack it this turn (1-20).",
                default=1,
                minimum=1,
                maximum=20,
            ),
            OddsParam(
                "wounds",
                int,
                f"Wounds it has already (0-{OUT_AT - 1}).",
                default=0,
                minimum=0,
                maximum=OUT_AT - 1,
            ),
        ),
        _hostile,
        ("WF-C7",),
    ),
    OddsQuery(
        "door",
        "Exact distribution of the Actions needed to breach a Door, by attacking and by picking.",
        (
            _number("cover", "The Hostile's (or Door's) Cover (1-11).", required=True),
            OddsParam("hits", int, "The Hits that breach it (1-50).", required=True, maximum=50),
            OddsParam(
                "shots", int, "Shots per attack Action (1-20).", default=1, minimum=1, maximum=20
            ),
            _number("pick", "The picker's Pick N+ (d10; 1-11)."),
            _modifier("pick_modifier", "The pick's modifier (-10 to 10)."),
            _number(
                "upgunned", "The picker's upgunned Pick N+, below N: each try costs 2 Actions."
            ),
            OddsParam(
                "bound",
                int,
                "Actions listed one by one (1-200); beyond them one tail figure.",
                default=20,
                minimum=1,
                maximum=200,
            ),
        ),
        _door,
        ("WF-C4", "WF-D1", "WF-D2", "WF-D4", "WF-D5", "WF-A7"),
    ),
)
