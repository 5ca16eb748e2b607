"""The traitor game's possibility map (SO-T2…T5, SO-I1, SO-I2) against the brute force.

``tests/games/specter_ops/oracle.py`` keeps every hidden world consistent with the public
events. With 5 players and the traitor on, a world also has a *role*: which hunter figure
is the traitor and whether it has had a concealed sighting yet. In world ``t`` only the
other hunters place the agent (SO-T3); ``t`` alone seeing the hidden agent flags the
world (SO-T4); a failed accusation of ``X`` rules out ``(X, flagged)``; a reveal keeps
traitor ``X`` only, and from then on the oracle follows the first agent A1 among the
three hunters left, and a second oracle the second agent A2 (SO-T5). After every action
of random 5-player games on the small boards the engine must agree with them (not
during an agent's move, when the map is still that of the turn's start): (a) A1's
public map, (b) the possible roles, (c) each loyal hunter seat's map — the worlds in
which another hunter is the traitor — (d) every map holds the agent's true square,
(e) until the reveal, the traitor seat's own map equals an oracle fed that seat's
events too (its role, its concealed sightings), and (f) after it, A2's map and kits and
every seat's ``possible2``, the two agents' characters kept apart.

The hand-played positions at the end pin the cases this comparison first found wrong in
the engine: a "visible" answer proves its only viewer loyal, a proven accusation proves
a concealed sighting, the reveal publishes no sighting record, and the traitor's own map
uses a moment without a sighting after one with.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from fogofwar.bots import make_bot
from fogofwar.core.game import Action, Event, get_ruleset
from fogofwar.core.grid import load_board
from fogofwar.core.rng import stream
from fogofwar.games.specter_ops import bots, render
from fogofwar.games.specter_ops.knowledge import PossibilityMap
from fogofwar.games.specter_ops.observer import view_data
from fogofwar.games.specter_ops.state import AGENT, SpecterOpsState
from tests.games.specter_ops.helpers import PILLARS, SMALL, TIGHT
from tests.games.specter_ops.oracle import (
    NO_ROLE,
    POLICIES,
    Oracle,
    Role,
    choose_with_cards,
    public_events,
    truth_kit,
)

RULES = get_ruleset("specter-ops")
BOARDS = (SMALL, TIGHT, PILLARS)


def new_game(board: str, seed: int, rounds: int, **options: Any) -> SpecterOpsState:
    config = {"characters": False, "players": 5, "board": board, "max_rounds": rounds, **options}
    state = RULES.new_game(config, seed)
    assert isinstance(state, SpecterOpsState)
    assert state.traitor_game  # SO-G1: on by default with 5 players
    return state


def names(state: SpecterOpsState, squares: set[int]) -> list[str]:
    """Square names in the engine's order (as the views list them)."""
    return state.geo.names(sum(1 << i for i in squares))


def truth_role(state: SpecterOpsState) -> Role:
    """The true world's role: the traitor, and whether it has had a concealed sighting."""
    return (state.traitor, bool(state.concealed)) if state.traitor else NO_ROLE


def seat_events(events: Sequence[Event], seat: str) -> list[dict[str, Any]]:
    """The JSON form of the events ``seat`` is told (public, and its own)."""
    return [e.to_json() for e in events if e.to is None or seat in e.to]


def check(
    state: SpecterOpsState,
    oracle: Oracle,
    where: str,
    own: Oracle | None = None,
    second: Oracle | None = None,
) -> None:
    """(a) A1's public map is the oracle's, (b) so are the possible roles (and sites),
    (c) each loyal hunter seat's map is the oracle's worlds where another hunter is the
    traitor, (d) every map holds the true square (SO-I2); (e) the traitor seat's map is
    the one of ``own``, an oracle fed that seat's events (its role, its sightings);
    (f) once the traitor is revealed, the second agent's map is the one of ``second``,
    an oracle that follows A2 (SO-T5), the two agents' characters kept apart."""
    assert state.focus_index == 0 or state.is_over, where
    if second is not None and len(state.agents) == 2:
        check_second(state, second, oracle, where)
    oracle = oracle.apart_from(second)
    a1 = state.agents[0]
    geo = state.geo
    log = "\n".join(oracle.log[-14:])
    truth = a1.square
    # The oracle itself must keep the true world, or it is not a sound reference.
    kit = truth_kit(state, 0)
    assert oracle.holds(truth, a1.last_steps, state.sites, kit, truth_role(state)), (
        f"{where}: oracle lost the truth {geo.name(truth)} {truth_role(state)}\n{log}"
    )
    engine = set(geo.indices(a1.knowledge.squares))
    by_role = oracle.squares_by_role()  # every seat's map below, from one pass
    expected: set[int] = set().union(*by_role.values())
    assert truth in engine, f"{where}: the map lost the agent's square {geo.name(truth)}"
    assert engine == expected, (
        f"{where}: map - oracle = {names(state, engine - expected)}, "
        f"oracle - map = {names(state, expected - engine)}\n{log}"
    )
    roles = set(a1.knowledge.possible_roles())
    assert roles == oracle.roles(), (
        f"{where}: roles: map {sorted(roles)}, oracle {sorted(oracle.roles())}\n{log}"
    )
    assert tuple(a1.knowledge.possible_sites()) == oracle.sites(), f"{where}: sites differ"
    if state.with_characters:
        assert set(a1.knowledge.possible_kits()) == oracle.kits(), f"{where}: kits differ"
    public = state.view(None).to_json()["view"]["possible"]  # type: ignore[index]
    assert public == names(state, expected), f"{where}: the spectator's map"
    for h in state.hunters:
        if h.seat == state.traitor_seat and not state.traitor_revealed:
            continue  # the traitor's own map adds its concealed sightings
        shown = state.view(h.seat).to_json()["view"]["possible"]  # type: ignore[index]
        mine: set[int] = set().union(*(sq for r, sq in by_role.items() if r[0] != h.id))
        assert shown == names(state, mine), (
            f"{where}: {h.seat}'s map {shown}, oracle {names(state, mine)}\n{log}"
        )
        assert geo.name(truth) in shown, f"{where}: {h.seat}'s map lost the truth"
        # SO-T4: the hunter the record proves the traitor to this loyal seat, if any:
        # every world of its map has that traitor with a concealed sighting.
        if state.traitor and not state.traitor_revealed:
            role = state.view(h.seat).to_json()["view"]["role"]  # type: ignore[index]
            left = {r for r, sq in by_role.items() if r[0] != h.id and sq}
            want = next(iter(left))[0] if len(left) == 1 and next(iter(left))[1] else None
            assert role["proves"] == want, (
                f"{where}: {h.seat} proves {role['proves']}, oracle {want}"
            )
    if own is None or state.traitor_revealed:
        return
    role = truth_role(state)
    assert own.holds(truth, a1.last_steps, state.sites, kit, role), where
    shown = state.view(state.traitor_seat).to_json()["view"]["possible"]  # type: ignore[index]
    assert shown == names(state, own.squares()), (
        f"{where}: the traitor's map {shown}, oracle {names(state, own.squares())}\n"
        + "\n".join(own.log[-14:])
    )


def check_second(state: SpecterOpsState, second: Oracle, first: Oracle, where: str) -> None:
    """SO-T5, SO-I2: the second agent's map (A2's worlds, every hunter seat's
    ``possible2`` and the spectator's) is the oracle's, holds its true square, and, with
    characters, has the oracle's kits — the character not the first agent's."""
    a2 = state.agents[1]
    if a2.escaped or second.escaped:
        assert a2.escaped and second.escaped, f"{where}: A2's escape"
        return
    geo = state.geo
    log = "\n".join(second.log[-14:])
    assert second.holds(a2.square, a2.last_steps, (), truth_kit(state, 1), NO_ROLE), (
        f"{where}: the second agent's oracle lost the truth {geo.name(a2.square)}\n{log}"
    )
    apart = second.apart_from(first)
    engine = set(geo.indices(a2.knowledge.squares))
    expected = apart.squares()
    assert a2.square in engine, f"{where}: A2's map lost its square {geo.name(a2.square)}"
    assert engine == expected, (
        f"{where}: A2's map - oracle = {names(state, engine - expected)}, "
        f"oracle - map = {names(state, expected - engine)}\n{log}"
    )
    if state.with_characters:
        kits = set(a2.knowledge.possible_kits())
        assert kits == apart.kits(), f"{where}: A2's kits: {kits ^ apart.kits()}\n{log}"
    for seat in [None, *(h.seat for h in state.hunters)]:
        shown = state.view(seat).to_json()["view"]["possible2"]  # type: ignore[index]
        assert shown == names(state, expected), f"{where}: {seat}'s map of A2"


def tally(counts: Counter[str], state: SpecterOpsState, before: int) -> list[dict[str, Any]]:
    """Count the kinds of the new events (``…@A2``: about the second agent); return the
    public ones."""
    for e in state.events[before:]:
        if e.data.get("agent") == "A2" or (e.kind == "agent_used" and AGENT not in (e.to or ())):
            counts[e.kind + "@A2"] += 1  # (a card use is told to the A2 seat alone)
        kind = e.kind
        if kind == "agent_moved":
            kind += "/" + e.data["result"]
        elif kind == "announcement":
            kind += "/" + e.data["answer"]
        elif kind == "accusation":
            kind += "/proven" if e.data["proven"] else "/failed"
        elif kind == "traitor_revealed":
            kind += "/" + e.data["how"]
        elif kind == "concealed_sighting":  # to the agent and the traitor only
            kind += "/" + e.data["moment"]
        counts[kind] += 1
    return public_events(state.events[before:])


def hunt(state: SpecterOpsState, seat: str, rng: Any) -> Action | None:
    """A hunter gets out of the vehicle, or walks towards a square of the public map
    and stops next to it (so that sightings, concealed ones too, come up)."""
    if state.phase != "hunter" or state.current is None:
        return None
    h = state.hunters[state.current]
    geo = state.geo
    legal = state.legal_actions(seat)
    steps = [a for a in legal if a.kind == "step"]
    if h.aboard:
        return rng.choice(steps) if steps else None
    possible = geo.indices(state.agents[0].knowledge.squares)
    target = geo.square(possible[len(possible) // 2])

    def away(i: int) -> int:
        sq = geo.square(i)
        return max(abs(sq.row - target.row), abs(sq.col - target.col))

    stop = Action(seat, "stop")
    if (away(h.square) <= 1 or not steps) and stop in legal:
        return stop
    if not steps:
        return None
    best = min(away(geo.parse(str(a.args[0]))) for a in steps)
    return rng.choice([a for a in steps if away(geo.parse(str(a.args[0]))) == best])


def sneak(state: SpecterOpsState, seat: str, rng: Any) -> Action | None:
    """The agent steps away from the nearest hunter (4 times in 5), so that it goes
    unseen for long stretches; other actions (cards, stop) are left to the caller."""
    if seat != "agent" or state.phase != "agent" or not rng.randbelow(5) < 4:
        return None
    steps = [a for a in state.legal_actions(seat) if a.kind == "step"]
    if not steps:
        return None
    geo = state.geo

    def room(a: Action) -> int:
        sq = geo.square(geo.parse(str(a.args[0])))
        return min(
            max(abs(sq.row - h.row), abs(sq.col - h.col))
            for h in (geo.square(x.square) for x in state.hunters)
        )

    best = max(room(a) for a in steps)
    return rng.choice([a for a in steps if room(a) == best])


def traitor_action(
    state: SpecterOpsState, seat: str, rng: Any, *, steer: bool, odds: int
) -> Action | None:
    """SO-T2, SO-T4: a random deal; an accusation one time in ``odds`` when one may be
    made (``steer``: a loyal hunter accuses the true traitor once it has had a concealed
    sighting), a voluntary reveal one time in ``3 * odds``; None: neither."""
    legal = state.legal_actions(seat)
    if state.phase == "deal":
        return rng.choice(legal)
    accusations = [a for a in legal if a.kind == "accuse"]
    if not accusations:
        return None
    if steer and state.concealed and seat != state.traitor_seat:
        return Action(seat, "accuse", (state.traitor,))
    if Action(seat, "reveal") in legal and rng.randbelow(3 * odds) == 0:
        return Action(seat, "reveal")
    if rng.randbelow(odds) == 0:
        return rng.choice(accusations)
    return None


def play_traitor_checked(
    board: str,
    seed: int,
    counts: Counter[str],
    *,
    rounds: int = 9,
    policy: str = "kinds",
    steer: bool = False,
    odds: int = 6,
    characters: bool = False,
    prefer: str = "",
    hunting: bool = True,
    agents_bot: bool = False,
    per_turn: int = 1,
    watch: Callable[[SpecterOpsState], None] | None = None,
) -> int:
    """One random 5-player traitor game, the maps checked after every action except
    during an agent's move; hunters walk towards the map half the time (with
    ``hunting``; without, the agent stays unseen for long stretches). With
    ``agents_bot`` both agents' moves are ``so-agent``'s (objectives done, escapes
    made); ``per_turn`` is SO-A7's card limit (``equipment_per_turn``); ``watch`` is
    called with the state after every action. Returns the number of actions."""
    state = new_game(board, seed, rounds, characters=characters, equipment_per_turn=per_turn)
    oracle = Oracle(load_board(board), 5, characters=characters, per_turn=per_turn)
    oracle.feed(public_events(state.events))
    second = Oracle(load_board(board), 5, characters=characters, agent="A2", per_turn=per_turn)
    second.feed(public_events(state.events))
    own: Oracle | None = None  # the traitor seat's oracle, from the deal
    rng = stream(seed, "traitor-map")
    no_traitor_acts = lambda a: a.kind in ("accuse", "reveal")  # noqa: E731
    agent_bot = make_bot("so-agent", "specter-ops") if agents_bot else None
    n = 0
    while not state.is_over:
        seat = next(iter(state.to_act()))
        action = None
        if agent_bot is not None and state.phase in ("agent", "agent_after"):
            action = agent_bot.choose(state.view(seat), state.legal_actions(seat), rng)
        elif state.phase.startswith("pick"):
            action = rng.choice(state.legal_actions(seat))
        else:
            action = traitor_action(state, seat, rng, steer=steer, odds=odds)
            if action is None and hunting and rng.randbelow(2):
                action = hunt(state, seat, rng)
            if action is None and not hunting and rng.randbelow(3):
                action = sneak(state, seat, rng)
            if action is None:
                action = choose_with_cards(
                    state, seat, rng, policy, avoid=no_traitor_acts, prefer=prefer
                )
        before = len(state.events)
        state.apply(action)
        n += 1
        if watch is not None:
            watch(state)
        public = tally(counts, state, before)
        oracle.feed(public)
        second.feed(public)
        if own is not None:
            if not own.traitor:  # (after the reveal the seat gets the public map)
                own.feed(seat_events(state.events[before:], state.traitor_seat))
        elif state.traitor:
            own = Oracle(load_board(board), 5, characters=characters, per_turn=per_turn)
            own.feed(seat_events(state.events, state.traitor_seat))
        if state.phase in ("agent", "agent_after") or state.phase.startswith("pick"):
            continue  # mid-move: the map is still that of the turn's start
        check(state, oracle, f"seed {seed} action {n} {action}", own, second)
        counts["checks"] += 1
        counts["checks_after_reveal"] += state.traitor_revealed
        counts["checks_of_a2"] += len(state.agents) == 2 and not state.agents[1].escaped
        counts["checks_a1_gone"] += oracle.escaped
    counts["games"] += 1
    return n


# --------------------------------------------------------------------------- random games


def test_traitor_map_equals_oracle() -> None:
    """SO-T2…T4, SO-I2: random 5-player traitor games on the three small boards, three
    policies, hunters closing in; accusations now and then (``traitor_action``, not the
    random policies, which leave accusations and reveals out). Everything must agree
    exactly."""
    counts: Counter[str] = Counter()
    for k in range(12):
        board = BOARDS[k % 3]
        play_traitor_checked(board, 400 + k, counts, policy=POLICIES[k // 3 % 3])
    assert counts["checks"] > 700, counts
    for kind in (
        "concealed_sighting/agent_turn",  # SO-T3 at the end of the agent's move
        "concealed_sighting/hunter_turn",  # … and at a hunter's "Clear"
        "accusation/failed",  # SO-T4 (R)
        "agent_moved/hidden",
        "agent_moved/last_seen",
        "agent_moved/revealed",
        "announcement/clear",
        "announcement/visible",
        "drive",
        "sensor",
    ):
        assert counts[kind] > 0, (kind, counts)
    assert counts["traitor_revealed/accused"] + counts["traitor_revealed/voluntary"] > 0, counts


def test_traitor_map_after_reveals() -> None:
    """SO-T4, SO-T5: games steered so that a loyal hunter accuses the traitor once it
    has had a concealed sighting (proven), and voluntary reveals; the first agent's map
    is still checked after the reveal, among the three hunters left."""
    counts: Counter[str] = Counter()
    for k in range(6):
        play_traitor_checked(BOARDS[k % 3], 600 + k, counts, steer=True, odds=4)
    assert counts["accusation/proven"] > 0, counts
    assert counts["traitor_revealed/accused"] > 0, counts
    assert counts["traitor_revealed/voluntary"] > 0, counts
    assert counts["checks_after_reveal"] > 50, counts


def test_traitor_map_with_characters() -> None:
    """SO-S4 with the traitor: hidden kits and card uses on top of the roles — a Stealth
    Field limits the traitor's sight too (SO-T3)."""
    counts: Counter[str] = Counter()
    for k, prefer in enumerate(("stealth-field", "", "stealth-field")):
        play_traitor_checked(BOARDS[k], 800 + k, counts, rounds=6, characters=True, prefer=prefer)
    assert counts["checks"] > 100, counts
    assert counts["agent_used"] > 0, counts
    assert counts["concealed_sighting/hunter_turn"] + counts["concealed_sighting/agent_turn"]


def test_traitor_map_with_characters_unseen_for_long() -> None:
    """SO-I2, SO-T3, SO-S4, SO-A7 in the map's worst case (issue 20's profile): 5
    players, every card, hidden sites, the traitor's role, and hunters that do not close
    in, so the agent goes unseen for many turns and every hidden card use, site and
    traitor stays possible. After every action the first agent's map, its possible
    sites, kits and roles, and each loyal seat's map are the oracle's."""
    counts: Counter[str] = Counter()
    for k, prefer in enumerate(("adrenal-surge", "stealth-field")):
        play_traitor_checked(
            BOARDS[k], 900 + k, counts, rounds=14, characters=True, prefer=prefer, hunting=False
        )
    assert counts["checks"] > 150, counts
    assert counts["agent_used"] > 0, counts
    assert counts["agent_moved/hidden"] > 12, counts


def test_second_agent_map_with_characters() -> None:
    """SO-T5, SO-T6, SO-I2 with characters: after a reveal both agents' maps, kits and
    ``possible2`` are the oracles', their characters kept apart, through the first
    agent's escape (its map is then its escape square) and the second's. Both agents
    move as ``so-agent`` (objectives, escapes); loyal hunters accuse once the traitor has
    had a concealed sighting, and the traitor reveals itself now and then."""
    counts: Counter[str] = Counter()
    for k in range(6):
        play_traitor_checked(
            BOARDS[k % 3],
            1100 + k,
            counts,
            rounds=25,
            characters=True,
            steer=True,
            odds=3,
            agents_bot=True,
        )
    assert counts["checks_of_a2"] > 300, counts
    assert counts["checks_a1_gone"] > 0, counts  # A1 escaped, A2 plays on (SO-T6)
    for kind in (
        "agent_ready@A2",  # its character and 2 cards, in secret
        "agent_moved@A2",
        "announcement@A2",
        "equipment@A2",
        "character_revealed@A2",  # pins its character: A1's map loses it
        "sensor@A2",
        "sniff@A2",
        "attack@A2",
        "escaped@A2",
    ):
        assert counts[kind] > 0, (kind, counts)


def test_second_agent_map_two_cards_a_turn() -> None:
    """SO-T5, SO-A7 with ``equipment_per_turn = 2`` (a card before the move and one
    after): the second agent's hidden card uses, one before and one after, are allowed
    for in its map as in the first agent's. Both agents play cards one time in 3
    (``choose_with_cards``) or move as ``so-agent``, alternately."""
    counts: Counter[str] = Counter()
    for k in (5, 7, 10, 31, 36, 44):
        play_traitor_checked(
            BOARDS[k % 3],
            1300 + k,
            counts,
            rounds=25,
            characters=True,
            steer=True,
            odds=3,
            agents_bot=k % 2 == 0,
            per_turn=2,
            prefer=("", "stealth-field", "holo-decoy", "adrenal-surge")[k % 4],
        )
    assert counts["checks_of_a2"] > 500, counts
    # Cards the second agent used that were never announced: hidden ones (SO-A7).
    assert counts["agent_used@A2"] > counts["equipment@A2"], counts


def test_hunters_leave_an_escaped_agent_alone() -> None:
    """SO-T5, SO-T6: once the first agent has escaped, ``so-hunter`` hunts the second
    agent's map only (the first one's is just the square it left from), and the
    terminal drawing shades that map alone; and the reverse once the second agent has
    escaped first."""
    seen: Counter[str] = Counter()

    def watch(state: SpecterOpsState) -> None:
        if len(state.agents) < 2 or state.is_over:
            return
        a1, a2 = state.agents
        for h in state.hunters:
            data = view_data(state.view(h.seat))
            board = bots._Board(state.geo)
            hunted = bots._hunted(data, board)
            # The terminal drawing shades the same squares (SO-I2's map on the board).
            drawn = render._board(data, state.geo)
            shaded = sum(render.POSSIBLE in str(span.style) for span in drawn.spans)
            assert shaded == hunted.bit_count(), "the drawing shades the hunted maps"
            if a1.escaped:
                assert hunted == a2.knowledge.squares, "A1 escaped: A2's map only"
                seen["a1_gone"] += 1
            elif a2.escaped:
                assert hunted == a1.knowledge.squares_without([h.id]), "A2 escaped"
                seen["a2_gone"] += 1
            else:
                both = a1.knowledge.squares_without([h.id]) | a2.knowledge.squares
                assert hunted == both, "both agents' maps"
                seen["both"] += 1

    for k, characters in ((0, False), (10, False), (0, True)):
        play_traitor_checked(
            BOARDS[k % 3], 1100 + k, Counter(), rounds=25, steer=True, odds=3,
            agents_bot=True, characters=characters, watch=watch,
        )  # fmt: skip
    assert seen["a1_gone"] and seen["a2_gone"] and seen["both"], seen


def test_sampled_worlds_keep_every_view_after_the_reveal() -> None:
    """SO-T5 and ``sample_world``: in the two-agent phase (with and without characters),
    a world sampled from any seat's view gives that seat the same view, byte for byte,
    and the same legal actions — the agent's, the second agent's (the traitor's seat)
    and every loyal hunter's."""
    seen: Counter[str] = Counter()

    def watch(state: SpecterOpsState) -> None:
        if len(state.agents) < 2 or state.is_over:
            return
        seen["positions"] += 1
        if seen["positions"] % 5:
            return
        for seat in state.seats:
            view = state.view(seat)
            world = RULES.sample_world(view, stream(seen["positions"], "world", seat))
            assert world.view(seat).canonical() == view.canonical(), (seat, state.round)
            assert world.legal_actions(seat) == state.legal_actions(seat), seat
            seen["worlds"] += 1

    for k in range(4):
        play_traitor_checked(
            BOARDS[k % 3], 1100 + k, Counter(), rounds=25, characters=k % 2 == 0,
            steer=True, odds=3, agents_bot=True, watch=watch,
        )  # fmt: skip
    assert seen["worlds"] > 300, seen


def test_second_agent_map_base_game() -> None:
    """SO-T5, SO-T6, SO-I2 without characters: the second agent's map, through both
    agents' escapes."""
    counts: Counter[str] = Counter()
    for k in range(6):
        play_traitor_checked(
            BOARDS[k % 3], 1100 + k, counts, rounds=25, steer=True, odds=3, agents_bot=True
        )
    assert counts["checks_of_a2"] > 300, counts
    assert counts["checks_a1_gone"] > 0 and counts["escaped@A2"] > 0, counts
    assert counts["agent_moved@A2"] > 20 and counts["attack@A2"] > 0, counts


@pytest.mark.parametrize("seed", [1100, 1103, 1106])
def test_distinct_characters_has_teeth(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """SO-T5: an engine that no longer keeps the two agents' characters apart fails the
    comparison (its maps keep a character the other agent is known to have)."""
    monkeypatch.setattr(SpecterOpsState, "_distinct_characters", lambda self: None)
    with pytest.raises(AssertionError, match="kits"):
        play_traitor_checked(
            BOARDS[(seed - 1100) % 3],
            seed,
            Counter(),
            rounds=25,
            characters=True,
            steer=True,
            odds=3,
            agents_bot=True,
        )


def test_comparison_has_teeth(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison catches a map that never flags a concealed sighting at a hunter's
    "Clear" (SO-T4): the roles or squares then differ from the oracle's."""
    real = PossibilityMap.split_roles

    def unflagged(self: PossibilityMap, parts_for: Any) -> PossibilityMap:
        def merged(role: Role) -> list[tuple[Role, int]]:
            bits = 0
            for _, part in parts_for(role):
                bits |= part
            return [(role, bits)]

        return real(self, merged)

    monkeypatch.setattr(PossibilityMap, "split_roles", unflagged)
    counts: Counter[str] = Counter()
    with pytest.raises(AssertionError, match="seed") as info:
        for k in range(12):
            play_traitor_checked(BOARDS[k % 3], 400 + k, counts, policy=POLICIES[k // 3 % 3])
    assert "roles: map" in str(info.value) or "map - oracle" in str(info.value)


# --------------------------------------------------------------------------- by hand

# SMALL board, seed 1: the vehicle on F5 (all four hunters aboard). The agent walks from
# A1 to A3, unseen; H1 gets out onto E4, the others stay aboard; the agent stays on A3.
# In round 2 H1 steps to E3, from where it sees row 3 and so A3, alone.
OPENING = (
    *("agent: step A2", "agent: step A3", "agent: stop"),
    *("order: next H1", "hunter1: step E4", "order: next H2", "hunter2: stop"),
    *("order: next H3", "hunter3: stop", "hunter4: stop"),
    *("agent: stop", "order: next H1"),
)


def play_moves(traitor: str, *moves: str) -> SpecterOpsState:
    """Deal ``traitor`` and play ``seat: action args`` moves ("order" is whoever picks
    the next hunter), checking the maps after each against the oracles (the public one,
    and the traitor seat's)."""
    state = new_game(SMALL, 1, 8)
    oracle = Oracle(load_board(SMALL), 5)
    own = Oracle(load_board(SMALL), 5)
    oracle.feed(public_events(state.events))
    own.feed(public_events(state.events))
    for text in (f"agent: traitor {traitor}", *moves):
        seat, _, rest = text.partition(":")
        kind, *args = rest.split()
        if seat == "order":
            seat = next(iter(state.to_act()))
        before = len(state.events)
        state.apply(Action(seat.strip(), kind, tuple(args)))
        oracle.feed(public_events(state.events[before:]))
        if not own.traitor:
            own.feed(seat_events(state.events[before:], state.traitor_seat))
        if state.phase not in ("agent", "agent_after"):
            check(state, oracle, text, own)
    return state


# Round 2 when H1 is the traitor: from E3 it sees the agent on A3, alone, at every
# hunter's "Clear" (4 concealed sightings); the others stay aboard.
SIGHTINGS = (
    *("hunter1: step E3", "hunter1: stop", "order: next H2", "hunter2: stop"),
    *("order: next H3", "hunter3: stop", "hunter4: stop"),
)


def test_hand_positions_agree_with_the_oracle() -> None:
    """The hand-made positions the tests below use (concealed sightings at every
    "Clear", a "visible" answer, a proven accusation, a voluntary reveal) play as
    described."""
    state = play_moves(
        "H1", *OPENING, *SIGHTINGS, "agent: step A2", "agent: step A1", "agent: stop"
    )
    assert len(state.concealed) == 4
    state = play_moves("H2", *OPENING, "hunter1: step E3", "hunter1: stop")
    assert state.events[-1].data["answer"] == "visible"
    state = play_moves(
        "H1",
        *OPENING,
        *("hunter1: step E3", "hunter1: stop", "order: next H2", "hunter2: accuse H1"),
    )
    assert state.concealed == [{"round": 2, "moment": "hunter_turn", "square": "A3"}]
    assert state.traitor_revealed
    state = play_moves("H1", *OPENING, "hunter1: reveal")
    assert state.traitor_revealed and not state.concealed


def test_visible_answer_proves_its_only_viewer_loyal() -> None:
    # SO-T3, SO-H3: H1 alone (on foot, no drive) sees the agent on A3 and the answer is
    # "visible": a traitor's sight places nothing, so H1 is loyal — every world with H1
    # as the traitor must go. The engine keeps ("H1", False) and ("H1", True).
    state = play_moves("H2", *OPENING, "hunter1: step E3", "hunter1: stop")
    assert state.events[-1].data == {"hunter": "H1", "answer": "visible", "square": "A3"}
    assert "H1" not in state.agents[0].knowledge.possible_traitors()


def test_proven_accusation_proves_a_concealed_sighting() -> None:
    # SO-T4 (R): an accusation is proven only if the accused had a concealed sighting, so
    # the worlds (H1, no sighting) must go. The engine keeps ("H1", False), and with it
    # squares H1 never saw (the oracle here ignores the reveal's record, as the engine).
    state = play_moves(
        "H1",
        *OPENING,
        *("hunter1: step E3", "hunter1: stop", "order: next H2", "hunter2: accuse H1"),
    )
    assert state.agents[0].knowledge.possible_roles() == {("H1", True)}


def test_reveal_publishes_no_sighting_record() -> None:
    # SO-T4, SO-T5, SO-I2: the public reveal names the traitor, its square and how it was
    # found — not where it saw the agent (the map keeps no history to use past squares
    # with, and must hold only what the hunters can know exactly). After a voluntary
    # reveal the map keeps the traitor's worlds, with or without a sighting; after a
    # proven accusation, only those with one.
    state = play_moves("H1", *OPENING, "hunter1: reveal")
    (event,) = [e for e in state.events if e.kind == "traitor_revealed"]
    assert set(event.data) == {"hunter", "seat", "square", "how"}
    assert {r[0] for r in state.agents[0].knowledge.possible_roles()} == {"H1"}
    state = play_moves(
        "H1",
        *OPENING,
        *("hunter1: step E3", "hunter1: stop", "order: next H2", "hunter2: accuse H1"),
    )
    assert state.agents[0].knowledge.possible_roles() == {("H1", True)}


def test_traitor_map_uses_no_sighting_after_the_first() -> None:
    # SO-T3, SO-I2: H1, the traitor, has seen the agent on A3 (round 2). In round 3 the
    # agent walks A3-A2-A1 unseen, and H1 gets no concealed sighting: so the agent is on
    # none of the squares H1 sees from E3 (row 3). The traitor seat's map keeps A3, B3,
    # C3 and D3: once its map is flagged, a moment without a sighting is not applied.
    state = play_moves("H1", *OPENING, *SIGHTINGS, "agent: step A2", "agent: step A1")
    state.apply(Action(AGENT, "stop"))
    shown = state.view("hunter1").to_json()["view"]["possible"]  # type: ignore[index]
    assert shown == ["A1", "B1", "C1", "D1", "A2", "D2", "A4", "D4"]


def test_agent_seat_deals_the_traitor() -> None:
    # SO-T2: the roles are dealt by the agent before its first turn; the oracle then
    # allows each of the four figures, none flagged.
    state = new_game(SMALL, 1, 8)
    assert state.phase == "deal" and state.to_act() == frozenset({AGENT})
    oracle = Oracle(load_board(SMALL), 5)
    before = len(state.events)
    state.apply(Action(AGENT, "traitor", ("H3",)))
    oracle.feed(public_events(state.events))
    assert before < len(state.events)
    assert oracle.roles() == {(h, False) for h in ("H1", "H2", "H3", "H4")}
    check(state, oracle, "the deal")


def test_a_role_split_that_changes_nothing_keeps_the_map() -> None:
    """SO-T3: a "Clear" whose sight touches none of the map leaves every role's worlds
    as they were: ``split_roles`` hands back the map itself, and it is the map the full
    join builds (a split it cannot see is a no-op: one role's squares in two halves)."""
    rs = get_ruleset("specter-ops")
    state = rs.new_game({"players": 5, "characters": True}, 3)
    rng = stream(3, "bench")
    checked = 0
    while not state.is_over and checked < 40:
        (seat,) = state.to_act()
        state.apply(rng.choice(state.legal_actions(seat)))
        m = state.agents[0].knowledge
        if len(m.possible_roles()) < 2:
            continue
        assert m.split_roles(lambda r: [(r, -1)]) is m
        assert m.split_roles(lambda r, every=m.squares: [(r, every)]) is m
        low = m.squares & -m.squares
        halves = m.split_roles(lambda r, low=low: [(r, low), (r, ~low)])
        assert halves is not m and halves == m
        # One role losing a square is no longer a no-op.
        role = min(m.possible_roles())
        square = m.squares_where(lambda r, role=role: r == role)
        if square:
            gone = square & -square
            fewer = m.split_roles(lambda r, role=role, gone=gone: [(r, ~gone if r == role else -1)])
            assert fewer is not m
            assert not fewer.squares_where(lambda r, role=role: r == role) & gone
        checked += 1
    assert checked == 40


def test_the_derived_traitor_map_is_the_map_kept_fact_by_fact() -> None:
    """SO-T3, SO-I2 (issue 20): until the traitor sees the agent unseen by the others,
    its map is the public map's worlds of its role, unflagged, worked out from the
    public map when read instead of taking every fact a second time. A copy made at the
    deal keeps its map fact by fact (setting the map makes it the copy's own); after
    every action of the same random games both maps are equal, through concealed
    sightings (from which the traitor's map is its own in both)."""
    counts: Counter[str] = Counter()
    avoid = lambda a: a.kind in ("accuse", "reveal")  # noqa: E731
    for k in range(6):
        seed = 1200 + k
        state = new_game(BOARDS[k % 3], seed, 9, characters=bool(k % 2))
        kept: SpecterOpsState | None = None
        rng = stream(seed, "derived")
        while not state.is_over:
            seat = next(iter(state.to_act()))
            action = None
            if state.phase.startswith("pick"):
                action = rng.choice(state.legal_actions(seat))
            else:
                action = traitor_action(state, seat, rng, steer=False, odds=6)
                if action is None and rng.randbelow(3):
                    action = hunt(state, seat, rng)
                if action is None:
                    action = choose_with_cards(state, seat, rng, "kinds", avoid=avoid)
            state.apply(action)
            if kept is not None:
                kept.apply(action)
                assert state.traitor_map == kept.traitor_map, (seed, action)
                counts["derived"] += state._traitor_derived
                counts["own"] += not state._traitor_derived and state.traitor_map is not None
            elif state.traitor_map is not None:
                assert state._traitor_derived  # from the deal
                kept = state.clone()
                kept.traitor_map = kept.traitor_map
                assert not kept._traitor_derived
    assert counts["derived"] > 150 and counts["own"] > 50, counts
