"""Rolls, hits and losses (PT-C4, PT-C5, PT-R4, PT-P9): the pour of RD dice, the
ROCK'N'ROLL re-roll, an attack's hits, deaths and combat losses, and the features'
attacks (blocking units, sentinels, avengers), which roll with no RD and no re-roll.

An attack or capture roll is a chain of steps of the same seat: declared, then RD dice
poured (``pour N``), rolled, then ``rnr`` or ``keep`` while ROCK'N'ROLL is available.
"""

from __future__ import annotations

from ....core.game import emit
from ....core.rules import Refusal
from ..odds import is_hit
from .decisions import Kind, Pour, Reroll, RollKind, Withdraw
from .draws import Draws
from .pieces import Piece, Zone

__all__ = ["Combat"]


class Combat(Draws):
    """Rolling dice and taking hits."""

    # ------------------------------------------------------------------ the roll

    def _ask_pour(self, s: str) -> None:
        if self.rd[s] > 0 and self.rd_dice_allowed(s) and int(self.config["max_rd_per_roll"]) > 0:
            self.pending = Pour(s)
        else:
            self._roll(0)

    def _pour_top(self, s: str) -> int:
        """The most RD dice ``s`` may pour now (PT-C4)."""
        return min(self.rd[s], int(self.config["max_rd_per_roll"]))

    def _pour_options(self, s: str) -> list[tuple[int]]:
        return [(n,) for n in range(self._pour_top(s) + 1)]

    def _check_pour(self, s: str, args: tuple[int | None]) -> Refusal | None:
        """PT-C4: RD dice are declared before the roll, at most the RD held and the
        ``max_rd_per_roll`` option; none after the Devil's hand when
        ``devils_hand_blocks_rd`` is on (PT-D2)."""
        (n,) = args
        if isinstance(self.pending, Pour) and n is not None and 0 <= n <= self._pour_top(s):
            return None
        if not self.rd_dice_allowed(s):
            return "no RD dice after the Devil's hand (devils_hand_blocks_rd)", "PT-D2"
        return "RD dice: at most the RD held and max_rd_per_roll", "PT-C4"

    def _pour(self, s: str, args: tuple[int]) -> None:
        self._answer(Pour)
        (n,) = args
        self._roll(n)

    def _roll(self, extra: int, *, reroll: bool = False) -> None:
        ctx = self.roll
        assert ctx is not None
        s = ctx.side
        if not reroll:
            self.rd[s] -= extra
            ctx.extra = extra
        dice = self._dice(s, ctx.dice + extra)
        ctx.rolled = dice
        self.last_roll = {"side": s, "kind": ctx.kind.value, "dice": dice, "reroll": reroll}
        emit(self.log, "rolled", side=s, roll=ctx.kind.value, dice=dice, rd=extra, reroll=reroll)
        if not reroll and self.rnr_available(s):
            self.pending = Reroll(s)
            return
        self._finish_roll()

    def _check_rnr(self, s: str, args: tuple[()]) -> Refusal | None:
        """PT-R4: once per round, after one of its attack or capture rolls, a side may
        re-roll all the dice; never after the Devil's hand (PT-D2)."""
        if isinstance(self.pending, Reroll):
            return None
        if self.dealt[s]:
            return "no rerolls after the Devil's hand", "PT-D2"
        return "ROCK'N'ROLL is once per round, after a roll", "PT-R4"

    def _rnr(self, s: str, args: tuple[()]) -> None:
        self._answer(Reroll)
        assert self.roll is not None
        self.rnr_round[s] = self.round
        self.stats[s]["rnr"] += 1
        emit(self.log, "rock_n_roll", side=s)
        self._roll(self.roll.extra, reroll=True)

    def _check_keep(self, s: str, args: tuple[()]) -> Refusal | None:
        """PT-R4: the dice rolled are kept."""
        return None if isinstance(self.pending, Reroll) else self._not_now(s, Kind.KEEP)

    def _keep(self, s: str, args: tuple[()]) -> None:
        self._answer(Reroll)
        self._finish_roll()

    def _finish_roll(self) -> None:
        ctx = self.roll
        assert ctx is not None
        if ctx.kind == RollKind.CAPTURE:
            self._capture_rolled(ctx.rolled)
            return
        s = ctx.side
        target = self.pieces[ctx.target]
        assert ctx.attacker is not None
        attacker = self.pieces[ctx.attacker]
        hits = sum(1 for d in ctx.rolled if is_hit(d, self.twos(s)))
        emit(self.log, "hits", side=s, target=target.card.id, hits=hits)
        if target.zone != Zone.POINT:
            self._chain_done()
            return
        self._hit(target, hits, by=s)
        feat = self._feature(target)
        if target.zone == Zone.POINT and target.card.is_local and feat is not None:
            if feat.avenger and attacker.zone == Zone.POINT:
                self._strike(target, attacker, len_dice=target.card.strength, why="avenger")
            if feat.drifter:
                options = self.neighbours(target.pos)
                if len(options) > 1:
                    # PT-L11: the side on turn says where (``withdraw X``).
                    self.pending = Withdraw(self.turn, target.card.id, options)
                    return
                target.pos = options[0]
                emit(self.log, "withdrew", local=target.card.id, point=self.letter(options[0]))
        self._chain_done()

    # ------------------------------------------------------------------ hits and losses

    def _strike(self, a: Piece, victim: Piece, *, len_dice: int, why: str) -> list[int]:
        """A feature's attack: no RD dice, no reroll (PT-L9 for locals)."""
        side = a.owner
        dice = self._dice(side, len_dice)
        hits = sum(1 for d in dice if is_hit(d, self.twos(side)))
        emit(
            self.log,
            "attacked",
            attacker=a.card.id,
            target=victim.card.id,
            dice=dice,
            hits=hits,
            cause=why,
        )
        self._hit(victim, hits, by=side)
        return dice

    def _hit(self, victim: Piece, hits: int, *, by: str | None) -> None:
        victim.hits += hits
        if victim.hits >= victim.card.toughness:
            self._kill(victim, by=by)

    def _kill(self, victim: Piece, *, by: str | None) -> None:
        pos = victim.pos
        lost = victim.owner
        emit(self.log, "died", unit=victim.card.id, point=self.letter(pos))
        if victim.card.is_local:
            # PT-L5: dead locals leave for the rest of the match.
            victim.zone, victim.pos, victim.hits = Zone.DISCARD, -1, 0
            self.locals_discard.append(victim.card.id)
            return
        # A dead unit goes to its own side's HQ; a recruited one's service ends (ruling).
        home = victim.card.side
        victim.zone, victim.holder, victim.owner = Zone.HQ, home, home
        victim.pos, victim.hits, victim.dead = -1, 0, True
        if by is not None and lost is not None and by != lost:
            self.stats[by]["kills"] += 1
            self.round_stats[by]["kills"] += 1
        if lost is not None:
            self._combat_loss(lost, victim, pos)

    def _combat_loss(self, side: str, lost: Piece, pos: int) -> None:
        """Death or capture (PT-C5, PT-P3): statistics and the features that react."""
        self.stats[side]["losses"] += 1
        for pc in self.at(pos):
            feat = self._feature(pc)
            if pc is not lost and pc.owner == side and feat is not None and feat.ally_lost_rd:
                self.rd[side] += feat.ally_lost_rd
                emit(self.log, "feature", unit=pc.card.id, feature=feat.name, rd=feat.ally_lost_rd)
