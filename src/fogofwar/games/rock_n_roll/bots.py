"""``rnr-heuristic``: a Rock-n-Roll bot that plays from its seat's view alone.

It scores every legal action and plays the best (ties broken by its own stream):

* never interrupts (``pass``) and strikes its Devil's hand only as option 1 (two
  units) in a deployment phase from round 2, when its hand holds no unit;
* deploys every unit, onto the outermost Point where it adds most held value;
* plays supply first, then attacks that can kill (strong attacker, weak target),
  captures where it has superiority (paying RD, else its least useful card),
  manoeuvres that win a Point's value, reinforcements onto contested Points;
* pours 1 RD into a roll while it keeps 2, re-rolls (ROCK'N'ROLL) a roll that did
  nothing, reveals completed operations, frees its strongest prisoner, executes the
  prisoner the opponent named to free and tortures the others.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...bots.base import Bot, register_bot
from ...core.game import Action, Config, PlayerView
from ...core.rng import Stream
from .observer import CardJSON, UnitJSON, ViewData, unit_face, view_data

__all__ = ["HeuristicBot"]


def _other(side: str) -> str:
    return "vpa" if side == "vietnam" else "vietnam"


class HeuristicBot(Bot):
    """The heuristic player of either side."""

    name = "rnr-heuristic"

    def reset(self, seat: str, ruleset_id: str, config: Config) -> None:
        self.seat = seat

    def choose(self, view: PlayerView, legal: Sequence[Action], stream: Stream) -> Action:
        seat = view.seat or legal[0].seat
        self.seat = seat
        d = view_data(view)
        # What every option's score reads of the view, gathered once per choice (a
        # legal list runs to dozens of options, and a search asks at every step).
        units = self._units(d)
        hand = {c["id"]: c for c in d.get("hand", [])}
        best: list[Action] = []
        top = -1e9
        for a in legal:
            score = self._score(d, a, units, hand)
            if score > top + 1e-9:
                best, top = [a], score
            elif abs(score - top) <= 1e-9:
                best.append(a)
        return stream.choice(best)

    # ------------------------------------------------------------------ scoring

    def _units(self, d: ViewData) -> dict[str, tuple[int, UnitJSON]]:
        return {u["id"]: (p["pos"], u) for p in d["points"] for u in p["units"]}

    def _count(self, d: ViewData, pos: int, side: str) -> int:
        return sum(1 for u in d["points"][pos]["units"] if u["owner"] == side)

    def _gain(self, d: ViewData, pos: int, delta_me: int, delta_them: int) -> float:
        """The change in held value at ``pos`` for this side."""
        me, them = self.seat, _other(self.seat)
        value = d["points"][pos]["value"]

        def held(a: int, b: int) -> int:
            return 1 if a > b else -1 if b > a else 0

        a, b = self._count(d, pos, me), self._count(d, pos, them)
        return float(value) * (held(a + delta_me, b + delta_them) - held(a, b))

    def _pos(self, d: ViewData, letter: str) -> int:
        return int(next(p["pos"] for p in d["points"] if p["letter"] == letter))

    def _score(
        self,
        d: ViewData,
        a: Action,
        units: Mapping[str, tuple[int, UnitJSON]],
        hand: Mapping[str, CardJSON],
    ) -> float:
        """The option's worth to this side (``units``: :meth:`_units` of ``d``; ``hand``:
        its hand's cards by id)."""
        me = self.seat
        mine = d["sides"][me]
        k, args = a.kind, a.args
        if k == "pass":
            # "pass round" a shade lower: the bot answers each turn as it always did.
            return 0.9 if args == ("round",) else 1.0
        if k == "deal":
            if args[0] == "take" and d["phase"] == "deploy" and d["round"] >= 2:
                has_unit = any(
                    (u := unit_face(c)) is not None and u["side"] != "locals" for c in hand.values()
                )
                return 5.0 if not has_unit else -1.0
            return -5.0
        if k == "take":
            # A unit from the HQ is a known card; the deck's top is an average one
            # (strength + toughness about 3.5 in the shipped decks): the stronger.
            if args[0] == "deck":
                return 1.0
            face = next((u for u in mine["hq"] if u["id"] == args[0]), None)
            if face is None:
                return 0.0
            return 1.0 + 0.1 * (float(face["strength"]) + float(face["toughness"]) - 3.5)
        if k == "reveal":
            return 100.0
        if k == "supply":
            return 60.0
        if k == "deploy":
            card = hand.get(str(args[0]))
            unit = None if card is None else unit_face(card)
            if unit is not None and unit["side"] == "locals":
                return -2.0
            pos = self._pos(d, str(args[1]))
            return 30.0 + 3 * self._gain(d, pos, 1, 0) + self._enemy_near(d, pos)
        if k in ("attack", "ambush"):
            att = units.get(str(args[0]))
            tgt = units.get(str(args[1]))
            if att is None or tgt is None:
                return 0.0
            a_u, (tpos, t_u) = att[1], tgt
            if a_u["owner"] is None:
                return 5.0
            left = t_u["toughness"] - t_u["hits"]
            p_hit = 1 / 3
            kill = float(a_u["strength"]) * p_hit / float(left)
            worth = 3.0 if t_u["owner"] is None else 10.0 + float(t_u["strength"]) * 2
            if t_u["owner"] is not None:
                worth += 4 * max(0.0, self._gain(d, tpos, 0, -1))
            return 20.0 + worth * kill
        if k == "capture":
            tgt = units.get(str(args[0]))
            if tgt is None:
                return 0.0
            return 25.0 + float(tgt[1]["strength"]) * 2 if mine["rd"] >= 2 else 12.0
        if k == "pay":
            if args[0] == "rd":
                return 10.0
            c = hand.get(str(args[0]))
            if c is None:
                return -10.0  # a unit from a Point: the last resort
            unit = unit_face(c)
            if unit is not None:
                return 2.0 - float(unit["strength"])
            return {"supply": -5.0, "attack": 0.0}.get(c["kind"], 1.0)
        if k == "manoeuvre":
            src = units[str(args[0])][0]
            dst = self._pos(d, str(args[1]))
            return 15.0 + 3 * (self._gain(d, dst, 1, 0) + self._gain(d, src, -1, 0))
        if k == "reinforce":
            dst = self._pos(d, str(args[1]))
            return 18.0 + 3 * self._gain(d, dst, 1, 0)
        if k == "pour":
            n = int(args[0])
            return 1.0 if n == (1 if mine["rd"] >= 3 else 0) else 0.0
        if k == "rnr":
            last = d["last_roll"]
            dice = [] if last is None else last["dice"]
            attack = last is not None and last["kind"] == "attack"
            useful = any(x >= 5 for x in dice) if attack else 6 in dice
            return 0.0 if useful else 2.0
        if k == "keep":
            return 1.0
        if k == "free":
            u = next(x for x in d["sides"][_other(me)]["prisoners"] if x["id"] == args[0])
            return float(u["strength"] + u["toughness"])
        if k in ("torture", "execute", "recruit", "spare"):
            named = d.get("named")
            if named == args[0]:
                return {"execute": 3.0, "recruit": 2.0, "torture": 1.0}.get(k, 0.0)
            return {"torture": 3.0, "execute": 1.0, "recruit": 2.0}.get(k, 0.0)
        if k == "orders":
            return 5.0
        if k == "end":
            return 4.0 if d["phase"] == "orders" else 0.0
        if k in ("goal", "act", "swap"):
            return -1.0
        return 0.0

    def _enemy_near(self, d: ViewData, pos: int) -> float:
        them = _other(self.seat)
        return 0.5 * sum(
            1
            for q in (pos - 1, pos, pos + 1)
            if 0 <= q < len(d["points"]) and self._count(d, q, them)
        )


register_bot(
    "rnr-heuristic",
    HeuristicBot,
    rulesets={"rock-n-roll"},
    help="Rock-n-Roll: holds valuable Points, attacks to kill, captures, tortures",
)
