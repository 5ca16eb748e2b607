"""The Soldier Turn (WF-C1, WF-C2, WF-C7): who may act, the order of the squad's choices,
moving between Locations, and ``end``.

* A Soldier acts while it is not out and has the Actions the action costs: 1, or 2
  upgunned (WF-C1, WF-A7) — :func:`acting`, the first part of every Soldier's move.
* ``move S L`` — to a Location next to the Soldier's, 1 Action (WF-C2); entering runs
  WF-A9 (:func:`~.line.enter`).
* ``end`` — the Soldier Turn ends; the hostile turn follows (WF-C7,
  :func:`~.hostile_turn.hostile_turn`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ....core.rules import Refusal
from .hostile_turn import hostile_turn
from .line import move_soldier
from .pieces import OUT_AT, LocationId, Soldier, SoldierId

if TYPE_CHECKING:
    from .game import WarfighterState

__all__ = [
    "acting",
    "check_end",
    "check_move",
    "end",
    "move",
    "neighbours",
    "soldier_turn",
]


def acting(
    st: WarfighterState, kind: str, sid: SoldierId, *, up: bool = False
) -> Soldier | Refusal:
    """The Soldier ``sid`` who takes an action of ``kind`` (upgunned: ``up``), or why it
    may not: it is not in the squad (WF-C1), it is out (WF-C7), or it has not the
    Actions the action costs (WF-C1; upgunning costs one more, WF-A7)."""
    s = st.soldiers.get(sid)
    if s is None:
        return f"{kind} names a Soldier: {', '.join(st.soldiers)}", "WF-C1"
    if s.out:
        return f"{s.id} is out ({OUT_AT} wounds)", "WF-C7"
    cost = 2 if up else 1
    if s.actions < cost:
        why = "upgunning costs one more Action" if up else "every action costs one"
        return f"{s.id} has {s.actions} Action(s) left: {why}", "WF-A7" if up else "WF-C1"
    return s


def neighbours(st: WarfighterState, s: Soldier) -> list[int]:
    """The Locations next to the Soldier's: the previous and the next (WF-C2)."""
    return [i for i in (s.slot - 1, s.slot + 1) if 0 <= i < st.slot_count]


def soldier_turn(st: WarfighterState, seat: str) -> Iterator[tuple[str, tuple[Any, ...]]]:
    """The candidates of the Soldier Turn in the legal list's order: Soldier by Soldier
    (those standing with an Action left, in id order), its moves, then per Hostile on
    its Location the attacks (its Door too, when its card has one) and the picks (of a
    Door with a Pick value), then per Success check there the attempts; ``end`` last.
    The moves' checks decide which are legal."""
    for s in st.standing():
        if s.actions < 1:
            continue  # acting() refuses all of them: no need to list them
        for i in neighbours(st, s):
            yield "move", (s.id, st.slot_names[i])
        for h in st.hostiles_at(s.slot):
            yield "attack", (s.id, h.id, False)
            door = h.card.door
            if door is not None:
                yield "attack", (s.id, h.id, True)
                if door.pick is not None:
                    yield "pick", (s.id, h.id, False)
                    yield "pick", (s.id, h.id, True)
        for k in st.checks_at(s.slot):
            if not k.card.is_fail_check:
                yield "check", (s.id, k.id, False)
                yield "check", (s.id, k.id, True)
    yield "end", ()


def check_move(
    st: WarfighterState, seat: str, args: tuple[SoldierId, LocationId]
) -> Refusal | None:
    """WF-C2: a Soldier moves to a Location next to its own, for 1 Action."""
    sid, to = args
    s = acting(st, "move", sid)
    if isinstance(s, tuple):
        return s
    slot = st.slot_index.get(to)
    if slot is None or abs(slot - s.slot) != 1:
        return f"{s.id} may move to a Location next to {st.slot_name(s.slot)}", "WF-C2"
    return None


def move(st: WarfighterState, seat: str, args: tuple[SoldierId, LocationId]) -> None:
    sid, to = args
    s = st.soldiers[sid]
    s.actions -= 1
    move_soldier(st, s, st.slot_index[to], by_action=True)


def check_end(st: WarfighterState, seat: str, args: tuple[()]) -> Refusal | None:
    """WF-C7: the squad may end its Soldier Turn at any time."""
    return None


def end(st: WarfighterState, seat: str, args: tuple[()]) -> None:
    """WF-C7: the Soldier Turn ends; the hostile turn follows."""
    hostile_turn(st)
