"""Attacks and Doors (WF-C4, WF-D1…D7).

* ``attack S H`` — 1 Action, a d10 per shot of the Soldier's weapon, an EKIA on each
  roll reaching the Cover in force; the Hostile dies when its EKIAs reach its Hits. A
  suppressive weapon puts a Suppress on a Hostile it attacks and does not kill (WF-C4).
  Once the Door is Breached the Cover in force is the Door's, when lower (WF-D6, WF-D7).
* ``attack S H door`` — the Door, a separate target with its own Cover and EKIAs
  (WF-D1, WF-D2), never Suppressed (WF-D3), Breached at its Hits (WF-D4).
* ``pick S H [up]`` — a Pick check on a Door with a Pick value, the value a modifier;
  a success Breaches it; picks may be tried again (WF-D5, WF-A7).

Striking Range is the Soldier's Location (WF-C3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....core.game import emit
from ....core.rules import Refusal
from ..rolls import D10, check_result, reaches
from .losses import remove
from .pieces import Breach, Hostile, HostileId, Soldier, SoldierId
from .turn import acting

if TYPE_CHECKING:
    from .game import WarfighterState

__all__ = ["attack", "check_attack", "check_pick", "pick"]


def _in_range(st: WarfighterState, s: Soldier, hid: HostileId) -> Hostile | Refusal:
    """WF-C3: the Hostile ``hid``, in play and in Striking Range of ``s``, or why not."""
    h = st.hostiles.get(hid)
    if h is None or not h.alive:
        return f"{hid or 'a target'} is not a Hostile in play", "WF-C3"
    if h.slot != s.slot:
        return f"{h.id} is not in Striking Range of {s.id} (another Location)", "WF-C3"
    return h


# --------------------------------------------------------------------------- attack


def check_attack(
    st: WarfighterState, seat: str, args: tuple[SoldierId, HostileId, bool]
) -> Refusal | None:
    """WF-C4: a Soldier attacks a Hostile in Striking Range; WF-D1, WF-D4: or its Door,
    while it has one not yet Breached."""
    sid, hid, door = args
    s = acting(st, "attack", sid)
    if isinstance(s, tuple):
        return s
    h = _in_range(st, s, hid)
    if isinstance(h, tuple):
        return h
    if door:
        if h.card.door is None:
            return f"{h.id} has no Door", "WF-D1"
        if h.breached:
            return f"the Door of {h.id} is already Breached", "WF-D4"
    return None


def attack(st: WarfighterState, seat: str, args: tuple[SoldierId, HostileId, bool]) -> None:
    sid, hid, door = args
    s, h = st.soldiers[sid], st.hostiles[hid]
    s.actions -= 1
    weapon = st.weapon(s)
    d = h.card.door
    cover = d.cover if door and d is not None else h.cover_in_force()
    # Keyed by the turn, the Soldier and its n-th attack this turn (WF-C5).
    stream = st.stream("attack", st.turn, s.id, s.attacks)
    s.attacks += 1
    rolls = [D10.sample(stream) for _ in range(weapon.shots)]
    ekias = sum(reaches(r, cover) for r in rolls)
    emit(
        st.log,
        "attack",
        soldier=s.id,
        hostile=h.id,
        door=door,
        weapon=weapon.name,
        cover=cover,
        rolls=rolls,
        ekias=ekias,
        rule="WF-D2" if door else ("WF-D6" if h.breached else "WF-C4"),
    )
    if door and d is not None:
        h.door_ekias += ekias  # WF-D2: apart from the Hostile's
        if h.door_ekias >= d.hits:
            _breach(st, h, Breach.ATTACK, "WF-D4")
        return  # WF-D3: a Door never gains a Suppress
    h.ekias += ekias
    if h.ekias >= h.card.hits:
        remove(st, h, "killed")
    elif weapon.suppressive:
        h.suppressed = True
        emit(st.log, "suppressed", hostile=h.id)


# --------------------------------------------------------------------------- pick


def check_pick(
    st: WarfighterState, seat: str, args: tuple[SoldierId, HostileId, bool]
) -> Refusal | None:
    """WF-D5: a Soldier with the Pick ability picks the Door of a Hostile in Striking
    Range, a Door with a Pick value not yet Breached (WF-A8: a Soldier without it may
    not); upgunned, with its bracketed number and one more Action (WF-A7)."""
    sid, hid, up = args
    s = acting(st, "pick", sid, up=up)
    if isinstance(s, tuple):
        return s
    h = _in_range(st, s, hid)
    if isinstance(h, tuple):
        return h
    door = h.card.door
    if door is None or door.pick is None:
        return f"{h.id} has no Door with a Pick value to pick", "WF-D5"
    if h.breached:
        return f"the Door of {h.id} is already Breached", "WF-D5"
    ab = s.card.ability("Pick")
    if ab is None:
        return f"{s.id} lacks the Pick ability: only Soldiers with it may pick", "WF-A8"
    if up and ab.upgunned is None:
        return f"{s.id}'s Pick has no upgunned number", "WF-A7"
    return None


def pick(st: WarfighterState, seat: str, args: tuple[SoldierId, HostileId, bool]) -> None:
    sid, hid, up = args
    s, h = st.soldiers[sid], st.hostiles[hid]
    s.actions -= 2 if up else 1
    d = h.card.door
    ab = s.card.ability("Pick")
    if d is None or d.pick is None or ab is None:  # the check allows none of these
        return
    # Keyed by the Hostile and the attempt (WF-C5).
    natural = D10.sample(st.stream("pick", h.id, h.picks))
    h.picks += 1
    target = ab.upgunned if up and ab.upgunned is not None else ab.need
    success, roll = check_result(natural, target, d.pick)
    st.counts.checks_rolled += 1
    if not success:
        st.counts.checks_failed += 1
    emit(
        st.log,
        "pick",
        soldier=s.id,
        hostile=h.id,
        natural=natural,
        modifier=d.pick,
        roll=roll,
        target=target,
        upgunned=up,
        success=success,
        rule="WF-D5",
    )
    if success:
        _breach(st, h, Breach.PICK, "WF-D5")


def _breach(st: WarfighterState, h: Hostile, by: Breach, rule: str) -> None:
    h.breached_by = by
    if by is Breach.ATTACK:
        st.counts.breaches_attack += 1
    else:
        st.counts.breaches_pick += 1
    emit(st.log, "breached", hostile=h.id, by=by.value, rule=rule)
