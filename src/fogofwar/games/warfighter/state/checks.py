"""Ability checks (WF-A1…A11): attempting a Success check, rolling the Fail checks that
entering or adding puts in the queue, and what a check's result runs.

* ``check S K [up]`` — a Success check attempted by choice, 1 Action (2 upgunned), by a
  Soldier on its Location who has the ability (WF-A5, WF-A8); a failed one may be tried
  again; once it succeeds it is spent (WF-A6).
* Fail checks are rolled at once, before play continues (:func:`settle`): on entering,
  by the Soldier who entered (WF-A9); added where Soldiers are, by the one the player
  picks (WF-A10) — ``roll S K [up]``, asked only when there is a choice (several
  Soldiers, or the upgun option; the Roll phase). Each is rolled once only (WF-A6).
* The roll (:func:`resolve_check`): a d10 plus the modifier against the Soldier's
  number, or its upgunned number (WF-A2, WF-A3, WF-A7); a Soldier lacking the ability
  makes no roll and fails (WF-A8). The heading of the result runs (WF-A4, WF-C6).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....core.game import emit
from ....core.rules import Refusal
from ..rolls import D10, LACKING_NATURAL, check_result
from .effects import apply_effects
from .losses import objective_cleared
from .pieces import OUT_AT, SEAT, Check, CheckId, Phase, Soldier, SoldierId
from .turn import acting

if TYPE_CHECKING:
    from .game import WarfighterState

__all__ = [
    "attempt",
    "check_attempt",
    "check_roll",
    "roll",
    "roll_first",
    "roll_options",
    "settle",
]


# --------------------------------------------------------------------------- attempts


def check_attempt(
    st: WarfighterState, seat: str, args: tuple[SoldierId, CheckId, bool]
) -> Refusal | None:
    """WF-A5: a Soldier on the check's Location with the ability attempts a Success check
    (WF-A8: without it, not); WF-A6: a Fail check is never attempted by choice, a
    Success check once succeeded is spent; WF-A7: upgunned, when the card allows it and
    the ability has a bracketed number, for one more Action."""
    sid, kid, up = args
    s = acting(st, "check", sid, up=up)
    if isinstance(s, tuple):
        return s
    k = st.checks.get(kid)
    if k is None or k.gone:
        return f"{kid or 'a check'} is not a check in play", "WF-A5"
    if k.slot != s.slot:
        return f"{k.id} is on another Location than {s.id}", "WF-A5"
    if k.card.is_fail_check:
        return f"{k.id} is a Fail check: it is rolled when a Soldier enters, once only", "WF-A6"
    if k.spent:
        return f"the benefit of {k.id} was gained already (only once)", "WF-A6"
    if s.card.ability(k.card.ability) is None:
        return f"{s.id} lacks the {k.card.ability} ability", "WF-A8"
    return _upgun_refusal(s, k) if up else None


def attempt(st: WarfighterState, seat: str, args: tuple[SoldierId, CheckId, bool]) -> None:
    sid, kid, up = args
    st.soldiers[sid].actions -= 2 if up else 1
    resolve_check(st, kid, sid, up, rule="WF-A5")


# --------------------------------------------------------------------------- Fail checks


def roll_options(st: WarfighterState, seat: str) -> list[tuple[SoldierId, CheckId, bool]]:
    """The candidates for the Fail check waiting: every Soldier, plainly and upgunned
    (:func:`check_roll` keeps the ones that may roll it)."""
    kid = st.pending[0].check
    return [(s.id, kid, up) for s in st.soldiers.values() for up in (False, True)]


def _upgun_refusal(s: Soldier, k: Check) -> Refusal | None:
    """Why ``s`` may not roll ``k`` upgunned, or ``None`` when it may (WF-A7): the
    ability with a bracketed number, a card that allows it, and an Action to spend;
    a Soldier without the ability makes no roll to upgun (WF-A8). An attempt's extra
    Action is checked before, with its cost (:func:`~.turn.acting`)."""
    ab = s.card.ability(k.card.ability)
    if ab is None:
        return f"{s.id} lacks the {k.card.ability} ability: no roll is made to upgun", "WF-A8"
    if not k.card.upgun:
        return f"{k.id}'s card does not allow upgunning", "WF-A7"
    if ab.upgunned is None:
        return f"{s.id}'s {ab.keyword} has no upgunned number", "WF-A7"
    if s.actions < 1:
        return f"{s.id} has no Action left to spend on upgunning", "WF-A7"
    return None


def check_roll(
    st: WarfighterState, seat: str, args: tuple[SoldierId, CheckId, bool]
) -> Refusal | None:
    """WF-A9: the Fail check on entering is rolled by the Soldier who entered; WF-A10:
    one added where Soldiers are, by a Soldier standing there; WF-A7: upgunned, when the
    ability has a bracketed number, the card allows it and the Soldier has an Action to
    spend. Who may roll is checked before the upgunning, so a refusal names the rule
    that refuses the Soldier itself."""
    sid, kid, up = args
    p = st.pending[0]
    if kid != p.check:
        return f"the check to roll now is {p.check}", p.rule
    k = st.checks[kid]
    s = st.soldiers.get(sid)
    if s is None:
        return f"roll names a Soldier: {', '.join(st.soldiers)}", "WF-C1"
    if s.out:
        return f"{s.id} is out ({OUT_AT} wounds)", "WF-C7"
    if p.roller is not None and s.id != p.roller:
        return f"{p.roller} entered the Location: {p.roller} rolls", "WF-A9"
    if s.slot != k.slot:
        return "the Soldier who rolls must be on the check's Location", "WF-A10"
    return _upgun_refusal(s, k) if up else None


def roll(st: WarfighterState, seat: str, args: tuple[SoldierId, CheckId, bool]) -> None:
    sid, kid, up = args
    p = st.pending.pop(0)
    resolve_check(st, kid, sid, up, rule=p.rule)


def roll_first(st: WarfighterState) -> Refusal:
    """WF-A9, WF-A10: while a Fail check waits for its roller, nothing else is done."""
    p = st.pending[0]
    return f"the Fail check {p.check} must be rolled first, before play continues", p.rule


def settle(st: WarfighterState) -> None:
    """After an action: roll the waiting Fail checks that offer no choice, and stop at
    one that does (the Roll phase, WF-A10); then see whether the mission is won
    (WF-C7)."""
    while st.pending and st.result is None:
        p = st.pending[0]
        options = [a for a in roll_options(st, SEAT) if check_roll(st, SEAT, a) is None]
        if len(options) > 1:
            st.phase = Phase.ROLL
            return
        st.pending.pop(0)
        if not options:
            # Nobody there to roll it: the check stays unrolled (WF-A6).
            emit(st.log, "check_not_rolled", check=p.check, rule=p.rule)
            continue
        resolve_check(st, p.check, options[0][0], False, rule=p.rule)
    if st.result is not None:
        return
    st.phase = Phase.SOLDIERS
    objective_cleared(st)


# --------------------------------------------------------------------------- the roll


def resolve_check(
    st: WarfighterState, check_id: CheckId, soldier_id: SoldierId, up: bool, *, rule: str
) -> None:
    """``soldier_id`` rolls the check (WF-A2, A3, A7, A8) and its heading runs (WF-A4)."""
    k = st.checks[check_id]
    s = st.soldiers[soldier_id]
    card = k.card
    ab = s.card.ability(card.ability)
    if up and rule != "WF-A5":  # a voluntary check paid its extra Action already
        s.actions -= 1
    natural: int | None = None
    target = 0
    if ab is not None:
        # Keyed by the check and the attempt: no other draw can shift it (WF-C5).
        natural = D10.sample(st.stream("check", k.id, k.attempts))
        target = ab.upgunned if up and ab.upgunned is not None else ab.need
    success, result = check_result(natural, target, card.modifier)
    k.attempts += 1
    if natural is not None:
        st.counts.checks_rolled += 1
    else:
        # WF-A8: no roll is made; the metrics count it apart from rolled checks.
        st.counts.checks_lacking += 1
    if card.is_fail_check:
        k.rolled = True  # WF-A6: rolled only once
    if success and not card.is_fail_check:
        k.spent = True  # WF-A6: the benefit only once
    heading = None
    if success:
        effects = card.on_success
        if effects:
            heading = "success" if card.heading("success") else "text"
    else:
        if natural is not None:
            st.counts.checks_failed += 1
        fail = card.fail_heading
        effects = () if fail is None else fail.effects
        heading = None if fail is None else fail.kind
    emit(
        st.log,
        "check",
        check=k.id,
        soldier=s.id,
        ability=card.ability,
        lacks=ab is None,
        natural=natural,
        # WF-A8: no roll for a lacking Soldier: ``roll`` is None and ``treated_as`` the
        # reading its effects use (a natural 1 only a decrease can lower).
        treated_as=LACKING_NATURAL if natural is None else None,
        modifier=min(card.modifier, 0) if natural is None else card.modifier,
        roll=result if natural is not None else None,
        reading=result,
        target=target if ab is not None else None,
        upgunned=up,
        success=success,
        heading=heading,
        rule="WF-A8" if ab is None else rule,
    )
    apply_effects(st, effects, s, k.slot, result)
