"""Golden files for Specter Ops: whole games and legal-move counts, compared to stored data.

* ``golden/game-{2,3,4}p.json`` — a whole game (``max_rounds=8``) for a fixed seed, played
  by a fixed policy: per action the acting seat, the action, the number of legal actions
  of that seat and a digest of every seat's view (and the spectator's); the views in
  full at the start of each round and after each completed move, announcement or
  attack; the outcome and the metrics.
* ``golden/perft.json`` — from fixed positions, the agent's legal destinations (moves of
  0-4 steps under SO-A1…A3) and the number of legal step/stop sequences, found by
  playing every sequence through ``legal_actions``/``apply`` on clones; and the legal
  first actions of a hunter, by kind. The agent's counts are also checked against an
  independent implementation of SO-A1…A3 written here from the board arrays.

The files are regenerated only on purpose: ``FOGOFWAR_REGEN=1`` (``make golden``) writes
them; otherwise any difference fails the test.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from fogofwar.core.game import Action, canonical_json, get_ruleset
from fogofwar.core.grid import Square
from fogofwar.core.rng import Stream, stream
from fogofwar.games.specter_ops.geometry import geometry_for
from fogofwar.games.specter_ops.knowledge import PossibilityMap
from fogofwar.games.specter_ops.state import SpecterOpsState
from tests import golden

RS = get_ruleset("specter-ops")
GOLDEN = Path(__file__).parent / "golden"

SNAPSHOT_EVENTS = {"agent_turn", "agent_moved", "announcement", "attack", "sensor", "game_over"}


def check_golden(name: str, data: dict[str, Any]) -> None:
    """Compare ``data`` with ``golden/name`` (or write it with FOGOFWAR_REGEN=1)."""
    golden.check_golden(GOLDEN, name, data)


# ====================================================================== whole games


def seats_of(state: SpecterOpsState) -> tuple[str | None, ...]:
    return (*state.seats, None)


def view_of(state: SpecterOpsState, seat: str | None) -> Any:
    return state.view(seat).data


def view_digest(state: SpecterOpsState) -> str:
    """A short digest of every seat's canonical view (and the spectator's)."""
    h = hashlib.sha256()
    for seat in seats_of(state):
        h.update(state.view(seat).canonical().encode())
        h.update(b"\n")
    return h.hexdigest()[:16]


def snapshot(state: SpecterOpsState) -> dict[str, Any]:
    """Every seat's view: the spectator's in full, each seat as its difference from it.

    A seat's entry maps each key whose value differs to that value, and lists in
    ``"-"`` the spectator's keys the seat lacks, so every view is recoverable exactly.
    """
    public = dict(view_of(state, None))
    out: dict[str, Any] = {"spectator": public}
    for seat in state.seats:
        data = dict(view_of(state, seat))
        diff: dict[str, Any] = {k: v for k, v in data.items() if public.get(k) != v}
        missing = sorted(set(public) - set(data))
        if missing:
            diff["-"] = missing
        out[seat] = diff
    return out


def policy_choice(legal: list[Action], rng: Stream) -> Action:
    """Uniform over the legal actions, except that a hunter always attacks when it can."""
    for action in legal:
        if action.kind == "attack":
            return action
    return rng.choice(legal)


# Seeds picked (from the first 60) for games that show attacks, drives, the sensor and
# getting in or out within 8 rounds.
GAMES = {2: 53, 3: 44, 4: 36}


def traitor_policy(state: SpecterOpsState, legal: list[Action], rng: Stream, reveal: int) -> Action:
    """The 5-player golden games: the traitor reveals itself at its first turn from round
    ``reveal`` on (0: never); accusations one time in 4 when offered; otherwise
    :func:`policy_choice` without reveals."""
    kinds = {a.kind for a in legal}
    if "reveal" in kinds and reveal and state.round >= reveal:
        return Action(legal[0].seat, "reveal")
    rest = [a for a in legal if a.kind not in ("reveal", "accuse")]
    if "accuse" in kinds and not rng.randbelow(4):
        return rng.choice([a for a in legal if a.kind == "accuse"])
    return policy_choice(rest, rng)


def play_golden(players: int, seed: int, *, reveal: int | None = None) -> dict[str, Any]:
    config = {"characters": False, "players": players, "max_rounds": 8}
    state = RS.new_game(config, seed)
    assert isinstance(state, SpecterOpsState)
    rng = stream(seed, "golden-policy", players)
    steps: list[list[Any]] = []
    snapshots: dict[str, Any] = {"start": snapshot(state)}
    while not state.is_over:
        (seat,) = sorted(state.to_act())
        legal = list(state.legal_actions(seat))
        # Only the acting seat has legal actions.
        assert all(not state.legal_actions(s) for s in state.seats if s != seat)
        if reveal is None:
            action = policy_choice(legal, rng)
        else:
            action = traitor_policy(state, legal, rng, reveal)
        events = state.apply(action)
        steps.append([seat, str(action), len(legal), view_digest(state)])
        if SNAPSHOT_EVENTS & {e.kind for e in events}:
            snapshots[str(len(steps) - 1)] = snapshot(state)
    outcome = state.outcome()
    assert outcome is not None
    return {
        "config": dict(RS.resolve_config(config).to_json()),
        "seed": seed,
        "policy": "uniform over legal actions from stream(seed, 'golden-policy', players); "
        "a hunter always attacks when it can"
        + (
            ""
            if reveal is None
            else f"; accusations 1 in 4 when offered; the traitor reveals from round {reveal}"
            if reveal
            else "; accusations 1 in 4 when offered; the traitor never reveals itself"
        ),
        "steps": steps,
        "snapshots": snapshots,
        "outcome": outcome.to_json(),
        "metrics": RS.metrics(state),
        "events": sorted({e.kind for e in state.events}),
    }


@pytest.mark.parametrize("players", sorted(GAMES))
def test_golden_game(players: int) -> None:
    # SO-R1, SO-A1…A6, SO-H1…H5, SO-V1…V7, SO-X1…X6, SO-G3: a whole game, every view.
    data = play_golden(players, GAMES[players])
    check_golden(f"game-{players}p.json", data)


# The 5-player game with the traitor (seeds picked from the first 30: failed accusations
# and the sensor; in the second, the traitor's reveal in round 3, the second agent's
# turns, attacks, and the hunters' win when the second agent is eliminated, SO-T6).
TRAITOR_GAMES = {"game-5p.json": (6, 0), "game-5p-reveal.json": (7, 3)}


@pytest.mark.parametrize("name", sorted(TRAITOR_GAMES))
def test_golden_traitor_game(name: str) -> None:
    # SO-T1…T6: the deal, concealed sightings, accusations, (the reveal and A2), every view.
    seed, reveal = TRAITOR_GAMES[name]
    data = play_golden(5, seed, reveal=reveal)
    kinds = set(data["events"])
    assert {"roles_dealt", "accusation"} <= kinds
    if reveal:
        assert {"traitor_revealed", "second_agent"} <= kinds
    else:
        assert "traitor_revealed" not in kinds
    check_golden(name, data)


def test_golden_game_is_deterministic() -> None:
    # The same seed and policy give the same game: the golden files are meaningful.
    a, b = play_golden(2, GAMES[2]), play_golden(2, GAMES[2])
    assert canonical_json(a) == canonical_json(b)


# ====================================================================== agent perft


# (name, players, agent square, hunters on foot {figure: square}, vehicle square).
# Hunters not listed ride in the vehicle.
AGENT_POSITIONS: list[tuple[str, int, str, dict[str, str], str]] = [
    ("start", 3, "N1", {}, "K17"),
    ("yard", 3, "E12", {}, "K17"),
    ("squeeze-K3", 3, "K3", {}, "K17"),
    ("dead-end-blocked", 3, "A1", {"H1": "A2"}, "K17"),
    ("on-hunter-must-move", 3, "A1", {"H1": "A1"}, "K17"),
    ("vehicle-ahead", 3, "N2", {}, "N3"),
    ("hunters-around", 4, "N5", {"H1": "N3", "H2": "O6"}, "N8"),
    ("on-the-vehicle", 3, "K20", {}, "K20"),
    ("vehicle-and-hunter", 4, "L19", {"H1": "L18", "H2": "K20"}, "K19"),
    ("east-gate", 3, "W3", {"H1": "V3"}, "K17"),
    ("narrow-G20", 3, "G20", {}, "K17"),
    ("lab-corner", 4, "T26", {"H1": "S26"}, "O22"),
]


def seat_hunters(state: SpecterOpsState, foot: dict[str, str], vehicle: str) -> None:
    # Surgery: the vehicle, the hunters on foot, and the others riding in it.
    geo = state.geo
    state.vehicle = geo.parse(vehicle)
    for h in state.hunters:
        if h.id in foot:
            h.square, h.aboard = geo.parse(foot[h.id]), False
        else:
            h.square, h.aboard = state.vehicle, True


def agent_position(players: int, agent: str, foot: dict[str, str], vehicle: str) -> SpecterOpsState:
    state = RS.new_game({"characters": False, "players": players}, 1)
    assert isinstance(state, SpecterOpsState)
    geo = state.geo
    # Surgery: the vehicle, the hunters on foot and the agent (at the start of its turn);
    # the possibility map is reset to the agent's square.
    seat_hunters(state, foot, vehicle)
    state.focus.square = geo.parse(agent)
    state.focus.path = [state.focus.square]
    state.focus.knowledge = PossibilityMap.start(
        state.focus.square, state.focus.knowledge.possible_sites()
    )
    return state


def agent_perft(state: SpecterOpsState) -> tuple[set[str], int]:
    """Destinations and the number of legal step/stop sequences, by playing them all."""
    dests: set[str] = set()
    count = 0

    def walk(node: SpecterOpsState) -> None:
        nonlocal count
        for action in node.legal_actions("agent"):
            if action.kind == "stop":
                dests.add(node.geo.name(node.focus.path[-1]))
                count += 1
            elif len(node.focus.path) == 4:  # the 4th step ends the move where it lands
                dests.add(str(action.args[0]))
                count += 1
            else:
                child = node.clone()
                child.apply(action)
                walk(child)

    walk(state)
    return dests, count


def oracle(players: int, agent: str, foot: dict[str, str], vehicle: str) -> tuple[set[str], int]:
    """SO-A1…A3 written out on the board arrays, independently of the engine.

    A step goes to one of the 8 neighbours, passable and without a hunter on foot (SO-A1);
    a diagonal step is refused when both side squares are blocking terrain (SO-A2;
    hunters are figures, not terrain, and never shut a side). The vehicle's
    square may be crossed but not ended on, so it is entered only with a step to spare
    and a way off it (SO-A3, SO-V3). A move ends on a square that is neither the
    vehicle's nor a hunter's — or, if no step at all is possible, where the agent stands.
    """
    board = geometry_for(
        str(RS.resolve_config({"characters": False, "players": players})["board"])
    ).board
    pos = {n: board.square(n) for n in {agent, vehicle, *foot.values()}}
    hunters = {pos[s] for s in foot.values()}
    car = pos[vehicle]

    def terrain(sq: Square) -> bool:
        return (
            0 <= sq.row < board.height
            and 0 <= sq.col < board.width
            and bool(board.passable[sq.row, sq.col])
        )

    def free(sq: Square) -> bool:
        return terrain(sq) and sq not in hunters

    def steps(a: Square) -> list[Square]:
        out = []
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                b = Square(a.row + dr, a.col + dc)
                if not (dr or dc) or not free(b):
                    continue
                sides = (Square(a.row, b.col), Square(b.row, a.col))
                if dr and dc and not any(terrain(side) for side in sides):
                    continue  # SO-A2: both sides blocking terrain
                out.append(b)
        return out

    def can_end(sq: Square) -> bool:
        return sq != car and sq not in hunters

    way_off = any(b != car for b in steps(car))
    dests: set[Square] = set()
    count = 0

    def walk(here: Square, taken: int) -> None:
        nonlocal count
        if can_end(here):
            dests.add(here)
            if taken < 4:
                count += 1  # `stop` (after 4 steps the move ends by itself)
        if taken == 4:
            if can_end(here):
                count += 1
            return
        for b in steps(here):
            if b == car and (taken + 1 == 4 or not way_off):
                continue
            walk(b, taken + 1)

    start = pos[agent]
    first = [b for b in steps(start) if not (b == car and not way_off)]
    if not can_end(start) and not first:
        return {agent}, 1
    walk(start, 0)
    return {s.name for s in dests}, count


def test_golden_agent_perft() -> None:
    # SO-A1, SO-A2, SO-A3, SO-V3: the agent's legal destinations from fixed positions.
    results: dict[str, Any] = {}
    for name, players, agent, foot, vehicle in AGENT_POSITIONS:
        state = agent_position(players, agent, foot, vehicle)
        dests, count = agent_perft(state)
        want_dests, want_count = oracle(players, agent, foot, vehicle)
        assert dests == want_dests, name
        assert count == want_count, name
        assert vehicle not in dests or (vehicle == agent and len(dests) == 1), name
        results[name] = {
            "position": {"agent": agent, "hunters_on_foot": foot, "vehicle": vehicle},
            "destinations": len(dests),
            "sequences": count,
            "squares": sorted(dests, key=lambda n: (int(n[1:]), n[0])),
        }
    assert results["dead-end-blocked"]["squares"] == ["A1"]
    assert results["on-hunter-must-move"]["squares"] != ["A1"]
    check_golden("perft-agent.json", results)


# ====================================================================== hunters' first actions


# (name, players, hunters on foot, vehicle square, the hunter to act, scanned first)
HUNTER_POSITIONS: list[tuple[str, int, dict[str, str], str, str, bool]] = [
    ("aboard-K17", 3, {}, "K17", "H1", False),
    ("aboard-K23-four", 4, {}, "K23", "H2", False),
    ("aboard-N1-hunter-beside", 3, {"H2": "N2"}, "N1", "H1", False),
    ("aboard-crossing", 4, {"H1": "J22"}, "K21", "H2", False),
    ("aboard-after-scan", 3, {}, "K17", "H2", True),
    ("foot-yard", 3, {"H1": "E12"}, "K17", "H1", False),
    ("foot-dead-end", 3, {"H1": "A1", "H2": "A2"}, "K17", "H1", False),
    ("foot-beside-vehicle", 3, {"H1": "L18"}, "K17", "H1", False),
    ("foot-road", 4, {"H1": "N5", "H2": "O5", "H3": "N6"}, "K23", "H1", False),
]


def hunter_position(
    players: int, foot: dict[str, str], vehicle: str, hid: str, scanned: bool
) -> tuple[SpecterOpsState, str]:
    state = RS.new_game({"characters": False, "players": players}, 1)
    assert isinstance(state, SpecterOpsState)
    state.apply(Action("agent", "stop"))  # the agent stays hidden on N1
    # Surgery: the vehicle and the hunters on foot (hunters not listed ride in it).
    seat_hunters(state, foot, vehicle)
    if scanned:
        first = next(h.id for h in state.hunters if h.aboard and h.id != hid)
        state.apply(Action("hunter1", "next", (first,)))
        state.apply(Action(state.hunters[state.current or 0].seat, "sensor"))
    if state.phase == "order":
        state.apply(Action("hunter1", "next", (hid,)))
    assert state.current is not None and state.hunters[state.current].id == hid
    return state, state.hunters[state.current].seat


def test_golden_hunter_first_actions() -> None:
    # SO-H1, SO-V1, SO-V2, SO-V5, SO-V7: a hunter's legal first actions by kind.
    results: dict[str, Any] = {}
    for name, players, foot, vehicle, hid, scanned in HUNTER_POSITIONS:
        state, seat = hunter_position(players, foot, vehicle, hid, scanned)
        legal = state.legal_actions(seat)
        by_kind: dict[str, int] = {}
        for action in legal:
            by_kind[action.kind] = by_kind.get(action.kind, 0) + 1
        assert len(set(legal)) == len(legal), name
        results[name] = {
            "position": {"hunters_on_foot": foot, "vehicle": vehicle, "hunter": hid},
            "scanned": scanned,
            "total": len(legal),
            "by_kind": by_kind,
        }
    aboard = results["aboard-K17"]["by_kind"]
    assert aboard == {"step": 8, "drive": 6, "sensor": 1, "stop": 1}
    assert "drive" not in results["aboard-after-scan"]["by_kind"]
    assert "sensor" not in results["foot-yard"]["by_kind"]
    check_golden("perft-hunters.json", results)
