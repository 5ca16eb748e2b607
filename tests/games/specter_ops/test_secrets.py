"""The agent's secrets (SO-I1): what the hunters and spectators may learn.

Non-interference: two games that differ only in the agent's hidden moves, chosen so
that every public fact is the same (the result of each move, the "Clear" answers, the
sensor's answers, objectives, attacks), must give every hunter seat and a spectator
byte-identical views, and the hunters identical legal actions (and reasons for
refusing illegal ones), at every step. The
views are built from public facts (docs/protocol.md, "Views are built, never redacted"), and
the dice come from keyed streams (docs/protocol.md, "Chance"), so a hidden choice cannot
shift a later public roll.

With characters and equipment (SO-S4, SO-A7, SO-A8) the twins differ in the agent's
hidden choices too: its character and cards while the character card is face down, and
the hidden card uses (Adrenal Surge, Stealth Field, Holo Decoy) of moves that give the
same public facts (public card uses, ambushes, sniffs, reveals included).

Plus direct checks of the JSON: the agent's secret part and private events only in the
agent's view; with hidden sites (4 players, SO-S3) no uncompleted site in a hunter's
view; the agent's square in a hunter's view only when revealed (SO-A5) or as a public
token square (SO-A6).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from fogofwar.core.game import Action, canonical_json, emit, get_ruleset
from fogofwar.core.rng import stream
from fogofwar.games.specter_ops.characters import AGENTS, CARDS
from fogofwar.games.specter_ops.state import AGENT, SpecterOpsState
from tests.games.specter_ops.helpers import PILLARS, SMALL, TIGHT
from tests.games.specter_ops.oracle import (
    POLICIES,
    choose,
    choose_with_cards,
    engine_moves,
    engine_turns,
    public_events,
    truth_kit,
)

RULES = get_ruleset("specter-ops")


def new_game(board: str, players: int, seed: int, rounds: int, **options: Any) -> SpecterOpsState:
    config = {
        "characters": False,
        "players": players,
        "board": board,
        "max_rounds": rounds,
        **options,
    }
    state = RULES.new_game(config, seed)
    assert isinstance(state, SpecterOpsState)
    return state


def outsiders(state: SpecterOpsState) -> list[str | None]:
    """Every seat but the agent's, and a spectator (None)."""
    return [*state.seats[1:], None]


def snapshot(state: SpecterOpsState) -> tuple[Any, ...]:
    """What the hunters and a spectator have: whose turn it is, every outsider's view
    (``PlayerView.canonical()``), the hunters' legal actions and refusals."""
    views = []
    for seat in outsiders(state):
        view = state.view(seat)
        assert ("final" in view.data) == state.is_over
        if state.is_over:
            # After the game every secret is public by design (views.py: "final", and the
            # agent's character and health).
            data = {k: v for k, v in view.data.items() if k != "final"}
            data["agent"] = {**data["agent"], "character": None, "health": None}
            views.append(canonical_json({"seat": seat, "view": data}))
        else:
            views.append(view.canonical())
    actions = tuple(tuple(state.legal_actions(s)) for s in state.seats[1:])
    return (tuple(sorted(state.to_act())), tuple(views), actions, refusals(state))


def refusals(state: SpecterOpsState) -> tuple[tuple[str, str, str | None], ...]:
    """Why each of a set of probe actions by the hunters is refused (the reasons a
    hunter reads when it tries them): they must not depend on the secret either."""
    geo = state.geo
    around: set[int] = set()
    for h in state.hunters:
        around |= {h.square, *geo.indices(geo.adjacent[h.square])}
    squares = [geo.name(i) for i in sorted(around)]
    out = []
    for seat in sorted(state.to_act() - {AGENT}):  # others are told only "not your turn"
        legal = set(state.legal_actions(seat))
        probes = [Action(seat, k) for k in ("stop", "sensor", "attack", "sniff", "end")]
        probes += [Action(seat, "next", (h.id,)) for h in state.hunters]
        probes += [Action(seat, k, (sq,)) for k in ("step", "drive") for sq in squares]
        for action in probes:
            if action not in legal:
                reason, rule = state.explain_illegal(action)
                out.append((str(action), reason, rule))
    return tuple(out)


@dataclass
class Twins:
    """What one pair of games compared."""

    points: int = 0  # moments at which A and B were compared
    rounds: int = 0  # agent moves replaced
    moved_apart: int = 0  # ... by a move that ended on another square than A's
    stopped: bool = False  # B found no move matching A's round (comparison stopped)


def round_facts(state: SpecterOpsState, marks: list[int]) -> list[list[tuple[Any, ...]]]:
    return [facts(public_events(state.events[i:j])) for i, j in itertools.pairwise(marks)]


def facts(events: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """The public facts about the agent that SO-I1 lets the hunters learn: move results
    (SO-A5, SO-A6), escape, completed objectives (SO-O2), "Clear"/visible answers
    (SO-H3), the sensor's answers (SO-V5) and attack results — and nothing else, so
    that a secret leaking into any other event or field shows up as a difference."""
    out: list[tuple[Any, ...]] = []
    for e in events:
        kind = e["kind"]
        if kind == "agent_moved":
            out.append((kind, e["result"], e["square"]))
        elif kind == "escaped":
            out.append((kind, e["square"]))
        elif kind == "objectives_completed":
            out.append((kind, tuple((c["sector"], c["site"]) for c in e["completed"])))
        elif kind == "announcement":
            out.append((kind, e["hunter"], e["answer"], e["square"]))
        elif kind == "sensor":
            out.append((kind, e["hunter"], e["answer"]))
        elif kind == "attack":
            # Not the dice: with keyed streams (docs/protocol.md, "Chance") the same attack in
            # the same round rolls the same dice, which the views then compare.
            out.append((kind, e["hunter"], e["distance"]))
        elif kind == "game_over":
            out.append((kind, e["winner"], e["rule"]))
        elif kind == "equipment":  # a public card use (SO-A7): all it says
            out.append((kind, *sorted((k, str(v)) for k, v in e.items() if k != "kind")))
        elif kind == "ambush":  # the Cobra's ambush: public roll and stun
            out.append((kind, e["hunter"], e["roll"], e["stunned"]))
        elif kind == "sniff":  # the Beast's question: within 4 or not
            out.append((kind, e["hunter"], e["near"]))
        elif kind == "character_revealed":  # SO-S4: at the first reveal
            out.append((kind, e["character"], e["health"]))
    return out


def follows(
    b: SpecterOpsState,
    moved: SpecterOpsState,
    a_facts: list[list[tuple[Any, ...]]],
    hunters: list[Action],
) -> bool:
    """Whether game B, after the agent move that gave ``moved``, gives the facts of game
    A's round: the move's, then each hunter action's."""
    if facts(public_events(moved.events[len(b.events) :])) != a_facts[0]:
        return False
    trial = moved.clone()
    for action, expected in zip(hunters, a_facts[1:], strict=True):
        if not trial.is_legal(action):
            return False
        before = len(trial.events)
        trial.apply(action)
        if facts(public_events(trial.events[before:])) != expected:
            return False
    return True


def play_twins(board: str, players: int, seed: int, rounds: int, policy: str) -> Twins:
    """SO-I1 non-interference on one pair of games.

    Game A is played at random. Game B has the same seed and the same hunter actions,
    but at each agent turn the agent makes another move (from its own square, which may
    differ from A's), chosen so that the facts SO-I1 allows (:func:`facts`) stay the
    same through the round.
    After every agent move and hunter action the outsiders' views and the hunters'
    legal actions must be identical in A and B; during the agent's steps they must
    not change at all.
    """
    a = new_game(board, players, seed, rounds)
    b = new_game(board, players, seed, rounds)
    rng = stream(seed, "test")
    alt = stream(seed, "alternative")
    out = Twins()
    assert snapshot(a) == snapshot(b)
    while not a.is_over:
        assert a.phase == b.phase == "agent"
        frozen = snapshot(a)
        for _attempt in range(4):
            # Game A's round, at random, on a copy: the agent's move, then the hunters.
            trial = a.clone()
            marks = [len(trial.events)]
            points: list[tuple[Any, ...]] = []
            while trial.phase == "agent" and not trial.is_over:
                trial.apply(choose(trial, AGENT, rng, policy))
                if trial.phase == "agent":
                    assert snapshot(trial) == frozen, "a hidden step changed an outsider's view"
            marks.append(len(trial.events))
            points.append(snapshot(trial))
            hunters: list[Action] = []
            while not trial.is_over and trial.phase != "agent":
                action = choose(trial, next(iter(trial.to_act())), rng, policy)
                trial.apply(action)
                hunters.append(action)
                marks.append(len(trial.events))
                points.append(snapshot(trial))
            a_facts = round_facts(trial, marks)
            # Game B: another move with the same public consequences, preferring one
            # that ends elsewhere or with another number of steps (SO-V5) than A's.
            a_end = (trial.focus.square, trial.focus.last_steps)
            candidates = engine_moves(b)
            alt.shuffle(candidates)
            candidates.sort(key=lambda c: (c[1].focus.square, c[1].focus.last_steps) == a_end)
            chosen = next((c for c in candidates if follows(b, c[1], a_facts, hunters)), None)
            if chosen is not None:
                break
        else:
            out.stopped = True
            return out
        out.rounds += 1
        out.moved_apart += chosen[1].focus.square != trial.focus.square
        # Play B for real and compare it with A at every point.
        for action in chosen[0]:
            b.apply(action)
            if b.phase == "agent":
                assert snapshot(b) == frozen, "a hidden step changed an outsider's view"
        assert snapshot(b) == points[0], f"seed {seed} round {a.round}: after the agent's move"
        for k, action in enumerate(hunters, 1):
            b.apply(action)
            assert snapshot(b) == points[k], f"seed {seed} round {a.round}: after {action}"
            out.points += 1
        a = trial
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("board", [SMALL, PILLARS], ids=["small", "pillars"])
def test_hidden_moves_do_not_interfere(board: str, players: int) -> None:
    """SO-I1: the hunters learn nothing from the agent's moves beyond the public facts
    (reveals SO-A5, Last Seen SO-A6, objectives SO-O2, the sensor SO-V5, "Clear"
    SO-H3, attacks SO-X1)."""
    total = Twins()
    for seed in range(8):
        got = play_twins(board, players, 40 * players + seed, 8, POLICIES[seed % 3])
        total.points += got.points
        total.rounds += got.rounds
        total.moved_apart += got.moved_apart
    assert total.rounds >= 30, total
    assert total.moved_apart >= 10, total  # the agents really went different ways
    assert total.points >= 300, total


def test_non_interference_check_has_teeth(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison above catches a leak: an extra public event giving away the
    steps of the agent's last move (which only the sensor may tell, SO-V5)."""
    end_turn = SpecterOpsState._end_hunter_turn

    def leaky(self: SpecterOpsState) -> None:
        emit(self.events, "debug", steps=self.focus.last_steps)
        end_turn(self)

    monkeypatch.setattr(SpecterOpsState, "_end_hunter_turn", leaky)
    with pytest.raises(AssertionError, match="seed"):
        for seed in range(4):
            play_twins(SMALL, 3, seed, 6, "kinds")


def test_hidden_sites_do_not_interfere() -> None:
    """SO-S3, SO-I1: with 4 players, games whose secret objective sites differ give the
    outsiders identical views as long as the public facts agree (the same actions; no
    attacks, whose dice come from the different seeds)."""
    compared = differing = 0
    for k in range(10):
        seeds = (500 + 2 * k, 501 + 2 * k)
        a, b = (new_game(PILLARS if k % 2 else SMALL, 4, s, 8) for s in seeds)
        if facts(public_events(a.events)) != facts(public_events(b.events)):
            continue  # an objective next to the start square completed in one game only
        differing += a.sites != b.sites
        assert snapshot(a) == snapshot(b), f"seeds {seeds}: at the start"
        rng = stream(seeds[0], "test")
        while not a.is_over:
            seat = next(iter(a.to_act()))
            action = choose(a, seat, rng, "kinds")
            if action.kind == "attack":
                action = Action(seat, "end")
            marks = len(a.events), len(b.events)
            a.apply(action)
            b.apply(action)
            if facts(public_events(a.events[marks[0] :])) != facts(
                public_events(b.events[marks[1] :])
            ):
                break  # an objective completed in one game only: the sites now differ
            assert snapshot(a) == snapshot(b), f"seeds {seeds}: after {action}"
            compared += 1
    assert differing >= 5
    assert compared >= 300


# --------------------------------------------------------------------------- characters


def pool(character: str) -> list[str]:
    """The cards a character may take (SO-S4): the generic ones and its own."""
    return sorted(c for c, card in CARDS.items() if card.owner in ("", character))


def kit_pair(rng: Any, cards: int, mode: str) -> tuple[tuple[str, list[str]], ...]:
    """The agent's secret picks (SO-S4) in twins A and B: ``same`` kit; ``swap``: the
    same character, B's hidden cards other than A's where it can; ``other``: another
    character, A without a public unique card (its use would name the character), B
    with A's public cards. B keeps A's public cards so that it can make A's public uses.
    """
    chars = list(AGENTS)
    a_char = rng.choice(chars)
    a_pool = pool(a_char)
    if mode == "other":
        a_pool = [c for c in a_pool if not (CARDS[c].owner and CARDS[c].public)]
    a_hand = rng.shuffled(a_pool)[:cards]
    if mode == "same":
        return (a_char, a_hand), (a_char, list(a_hand))
    b_char = rng.choice([c for c in chars if c != a_char]) if mode == "other" else a_char
    keep = [c for c in a_hand if CARDS[c].public]
    rest = sorted(
        (c for c in rng.shuffled(pool(b_char)) if c not in keep),
        key=lambda c: (c in a_hand, CARDS[c].public),
    )
    return (a_char, a_hand), (b_char, keep + rest[: cards - len(keep)])


def kit_setup(state: SpecterOpsState, rng: Any, kit: tuple[str, list[str]]) -> list[Action]:
    """The setup actions: the hunters' picks from ``rng``, then the agent's ``kit``."""
    out = []
    trial = state.clone()
    while trial.phase == "pick_hunter":
        action = rng.choice(trial.legal_actions(next(iter(trial.to_act()))))
        trial.apply(action)
        out.append(action)
    out.append(Action(AGENT, "character", (kit[0],)))
    trial.apply(out[-1])
    for card in kit[1]:
        if trial.phase != "pick_cards":
            break  # the last cards were taken for it (no choice left)
        out.append(Action(AGENT, "card", (card,)))
        trial.apply(out[-1])
    return out


def agent_turn_points(state: SpecterOpsState, actions: list[Action]) -> list[tuple[Any, ...]]:
    """Play an agent turn's ``actions``; an action that tells the outsiders nothing (no
    public event) must leave their snapshot as it was (SO-I1, SO-A4). Returns the
    snapshots after the actions that did tell them something (a public card use, the
    move's result)."""
    points = []
    last = snapshot(state)
    for action in actions:
        before = len(state.events)
        state.apply(action)
        now = snapshot(state)
        if public_events(state.events[before:]):
            points.append(now)
        else:
            assert now == last, f"the hidden {action} changed an outsider's view"
        last = now
    return points


def same_public_uses(turn: list[Action], events: list[dict[str, Any]]) -> Any:
    """The card uses B may make to give A's public facts: A's public uses (the same
    card, target and moment), any hidden card, and a Holo Decoy only on A's Last Seen
    square (the token is public)."""
    public = {x for x in turn if x.kind == "use" and CARDS[str(x.args[0])].public}
    moved = next(e for e in events if e["kind"] == "agent_moved")

    def allow(action: Action, moment: str) -> bool:
        card = str(action.args[0])
        if CARDS[card].public:
            return action in public
        if card == "holo-decoy":
            return moved["result"] == "last_seen" and action.args[1] == moved["square"]
        return True

    return allow


@dataclass
class KitTwins(Twins):
    """What one pair of games with characters compared."""

    kit_apart: int = 0  # rounds after which B's kit (character, cards, uses) was not A's
    character_apart: int = 0  # ... B's character was not A's
    cards_apart: int = 0  # rounds in which B used other hidden cards than A


def hidden_used(state: SpecterOpsState) -> tuple[str, ...]:
    return tuple(
        c for c in (state.focus.used_before, state.focus.used_after) if c and not CARDS[c].public
    )


def play_kit_twins(
    board: str, players: int, seed: int, rounds: int, per_turn: int, mode: str
) -> KitTwins:
    """SO-I1 non-interference with characters and equipment (SO-S4, SO-A7, SO-A8).

    Game A is played at random, the agent playing a card one time in 3 when it may.
    Game B has the same seed and hunter actions, the agent's secret kit from
    :func:`kit_pair`, and at each agent turn another turn — other hidden cards, other
    steps — with the same public facts (:func:`facts`) through the round. After every
    public moment the outsiders' views and the hunters' legal actions and refusals must
    be identical in A and B, and a hidden action must change nothing they see.
    """
    options = {"characters": True, "equipment_per_turn": per_turn}
    a = new_game(board, players, seed, rounds, **options)
    b = new_game(board, players, seed, rounds, **options)
    rng = stream(seed, "test")
    alt = stream(seed, "alternative")
    kit_a, kit_b = kit_pair(alt, 5 if players == 4 else 3, mode)
    # The same hunters' picks in both (the same stream on the same table).
    a_setup = kit_setup(a, stream(seed, "hunters"), kit_a)
    b_setup = kit_setup(b, stream(seed, "hunters"), kit_b)
    for x in a_setup:
        a.apply(x)
    for x in b_setup:
        b.apply(x)
    out = KitTwins()
    assert snapshot(a) == snapshot(b), f"seed {seed}: after the secret picks (SO-S4)"
    while not a.is_over:
        assert a.phase == b.phase == "agent"
        for _attempt in range(6):
            # Game A's round, at random, on a copy: the agent's turn, then the hunters.
            trial = a.clone()
            start = len(trial.events)
            turn: list[Action] = []
            while trial.phase in ("agent", "agent_after") and not trial.is_over:
                action = choose_with_cards(trial, AGENT, rng, POLICIES[seed % 3])
                trial.apply(action)
                turn.append(action)
            used_a = hidden_used(trial)
            marks = [start, len(trial.events)]
            hunters: list[Action] = []
            while not trial.is_over and trial.phase != "agent":
                action = choose(trial, next(iter(trial.to_act())), rng, "kinds")
                trial.apply(action)
                hunters.append(action)
                marks.append(len(trial.events))
            a_facts = round_facts(trial, marks)
            allow = same_public_uses(turn, public_events(trial.events[start:]))
            moved = next(
                e for e in public_events(trial.events[start:]) if e["kind"] == "agent_moved"
            )
            # Moves that end elsewhere, or with another number of steps (SO-V5), first.
            plans = engine_turns(b, allow, (moved["result"], moved["square"]))
            alt.shuffle(plans)
            plans.sort(
                key=lambda p: (p.end, p.steps) == (trial.focus.square, trial.focus.last_steps)
            )
            chosen = next(
                (
                    turn_b
                    for plan in plans
                    for turn_b in plan.turns(allow)
                    if follows(b, turn_b[1], a_facts, hunters)
                ),
                None,
            )
            if chosen is not None:
                break
        else:
            out.stopped = True
            return out
        # Replay A's round for real, and B's, comparing every public moment.
        points_a = agent_turn_points(a, turn)
        points_b = agent_turn_points(b, chosen[0])
        assert points_a == points_b, f"seed {seed} round {a.round}: the agent's turn"
        out.rounds += 1
        out.moved_apart += a.focus.square != b.focus.square
        out.cards_apart += hidden_used(b) != used_a
        for action in hunters:
            a.apply(action)
            b.apply(action)
            assert snapshot(b) == snapshot(a), f"seed {seed} round {a.round}: after {action}"
            out.points += 1
        out.kit_apart += truth_kit(a) != truth_kit(b)
        out.character_apart += a.focus.character != b.focus.character
    return out


@pytest.mark.parametrize("per_turn", [1, 2])
def test_hidden_kits_and_cards_do_not_interfere(per_turn: int) -> None:
    """SO-I1, SO-S4, SO-A7: the hunters learn nothing of the agent's character while its
    card is face down, of its cards beyond the public uses, nor of hidden uses (Adrenal
    Surge, Stealth Field, Holo Decoy) beyond the public facts they lead to."""
    total = KitTwins()
    for k in range(9):
        board = (SMALL, PILLARS, TIGHT)[k % 3]
        mode = ("other", "swap", "same")[k % 3]
        got = play_kit_twins(board, 2 + k % 2, 7000 + 100 * per_turn + k, 7, per_turn, mode)
        for name in ("points", "rounds", "moved_apart", "kit_apart", "character_apart"):
            setattr(total, name, getattr(total, name) + getattr(got, name))
        total.cards_apart += got.cards_apart
    assert total.rounds >= 20, total
    assert total.points >= 150, total
    assert total.moved_apart >= 5, total  # the agents really went different ways
    assert total.kit_apart >= 10, total  # ... with other kits
    assert total.character_apart >= 3, total  # ... and other characters, unrevealed
    assert total.cards_apart >= 3, total  # ... and other hidden card uses


@pytest.mark.parametrize("leak", ["character", "hidden_card"])
def test_kit_non_interference_has_teeth(monkeypatch: pytest.MonkeyPatch, leak: str) -> None:
    """The comparison above catches a leak of the agent's character while its card is
    face down (SO-S4), or of a hidden card use (SO-A7): an extra public event."""
    end_turn = SpecterOpsState._end_hunter_turn

    def leaky(self: SpecterOpsState) -> None:
        if leak == "character":
            emit(self.events, "debug", character=self.focus.character)
        else:
            emit(self.events, "debug", stealth=self.focus.cards.get("stealth-field", 0))
        end_turn(self)

    monkeypatch.setattr(SpecterOpsState, "_end_hunter_turn", leaky)
    mode = "other" if leak == "character" else "swap"
    with pytest.raises(AssertionError, match="seed"):
        for seed in range(4):
            play_kit_twins(SMALL, 2, 7100 + seed, 4, 1, mode)


# --------------------------------------------------------------------------- the views' JSON


def strings(value: Any, skip: frozenset[str] = frozenset()) -> Iterator[str]:
    """Every string in a JSON value, leaving out the values of keys in ``skip``."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            if k not in skip:
                yield from strings(v, skip)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v, skip)


def keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from keys(v)
    elif isinstance(value, list):
        for v in value:
            yield from keys(v)


# Keys whose values are hunter figures or seats ("H3" is a figure and a square name).
FIGURE_KEYS = frozenset({"hunter", "hunters", "seat", "to_act", "winners"})
# Events that name hunters' or the vehicle's squares, never the agent's.
TABLE_EVENTS = frozenset({"hunter_step", "got_out", "got_in", "drive", "order", "hunter_turn"})


def agent_mentions(view: dict[str, Any]) -> list[str]:
    """The strings of an outsider's view outside the table (hunters, vehicle, their
    moves), the possibility map (SO-I2: it holds the true square by design), the
    objectives (structures, SO-B3) and public card uses (a Flash Bang's or Smoke
    Grenade's square and the smoke: the agent chose them, in public, SO-A7)."""
    skip = FIGURE_KEYS | {"possible", "vehicle", "objectives", "events", "final", "smoke", "smokes"}
    out = list(strings(view, skip))
    for e in view["events"]:
        if e["kind"] in TABLE_EVENTS or e["kind"] == "objectives_completed":
            continue
        if e["kind"] == "equipment":
            continue  # a public card's target square and smoke area: the agent's choice
        out += strings(e, FIGURE_KEYS)
    return out


def check_views(state: SpecterOpsState, where: str) -> None:
    geo = state.geo
    spectator = state.view(None)
    agent = state.view(AGENT).to_json()["view"]
    assert isinstance(agent, dict)
    # SO-A4: the agent's map is in its own view only.
    assert agent["secret"]["square"] == geo.name(state.focus.path[-1])
    assert agent["secret"]["objective_sites"] == [geo.name(s) for s in state.sites]
    for seat in state.seats[1:]:
        # Hunters are told exactly what a spectator is told (no event is addressed to
        # a hunter seat in this game): built from the public projection alone.
        assert state.view(seat).data == spectator.data, where
    view = spectator.to_json()["view"]
    assert isinstance(view, dict)
    assert "secret" not in set(keys(view)), where
    kinds = {e["kind"] for e in view["events"]}
    assert not kinds & {"agent_path", "objective_sites"}, where
    if state.is_over:
        return  # "final": every secret is public after the game
    # SO-S3: with hidden sites no uncompleted objective's site is named.
    if state.hidden_sites:
        hidden = {geo.name(s) for j, s in enumerate(state.sites) if not state.done[j]}
        # The map's candidates ("possible", SO-I2) name every site the public facts
        # still allow, the true one among them by design.
        named = set(strings(view, FIGURE_KEYS | {"possible"}))
        assert not hidden & named, f"{where}: an uncompleted site is shown"
        candidates = [o["possible"] for o in view["objectives"] if o["site"] is None]
        assert all(len(c or ()) >= 1 for c in candidates), where
        done = [o["site"] for o in view["objectives"] if o["site"] is not None]
        assert done == [geo.name(s) for j, s in enumerate(state.sites) if state.done[j]]
    # SO-I1: the agent's square shows only when it is revealed (SO-A5), as the Last
    # Seen token's square (SO-A6) or as the public start square (SO-S5).
    # During the agent's turn its square is the turn's start until the move is resolved.
    moving = state.phase in ("agent", "agent_after")
    here = geo.name(state.focus.path[0] if moving else state.focus.square)
    if here in agent_mentions(view):
        shown = view["agent"]
        start = [e["agent"] for e in view["events"] if e["kind"] == "setup"]
        assert here in (shown["revealed_at"], shown["last_seen"], *start), (
            f"{where}: the hidden agent's square {here} is named"
        )
    if state.focus.shown is not None:
        assert view["agent"]["revealed_at"] == here
    else:
        assert view["agent"]["revealed_at"] is None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_views_keep_the_agents_secrets(players: int) -> None:
    """SO-I1, SO-S3, SO-A4: the JSON of every outsider's view after every action."""
    hidden_seen = 0
    for seed in range(9):
        board = (SMALL, TIGHT, PILLARS)[seed % 3]
        state = new_game(board, players, 700 + seed, 8)
        rng = stream(state.players * 1000 + seed, "test")
        check_views(state, f"seed {seed} setup")
        n = 0
        while not state.is_over:
            state.apply(choose(state, next(iter(state.to_act())), rng, POLICIES[seed % 3]))
            n += 1
            check_views(state, f"seed {seed} action {n}")
            hidden_seen += state.focus.shown is None
    assert hidden_seen > 200


HIDDEN_CARDS = frozenset(c for c, card in CARDS.items() if not card.public)


@pytest.mark.parametrize("per_turn", [1, 2])
def test_views_keep_the_kit_secret(per_turn: int) -> None:
    """SO-S4, SO-A7, SO-I1: no outsider's view names a hidden card (Adrenal Surge,
    Stealth Field, Holo Decoy) before the game is over, nor the agent's character while
    its card is face down (its health neither); the agent's own view has its kit."""
    checked = hidden_character = 0
    for seed in range(6):
        board = (SMALL, TIGHT, PILLARS)[seed % 3]
        state = new_game(
            board, 2 + seed % 2, 800 + seed, 7, characters=True, equipment_per_turn=per_turn
        )
        rng = stream(800 + seed, "test")
        while not state.is_over:
            seat = next(iter(state.to_act()))
            state.apply(choose_with_cards(state, seat, rng, POLICIES[seed % 3]))
            check_views(state, f"seed {seed}")
            if state.is_over or state.phase.startswith("pick"):
                continue
            secret = state.view(AGENT).to_json()["view"]["secret"]  # type: ignore[index]
            assert secret["character"] == state.focus.character
            assert secret["cards"] == state.focus.cards
            for seat in outsiders(state):
                view = state.view(seat).to_json()["view"]
                # The map's characters (SO-I2) name every character the public facts
                # allow, the true one among them by design.
                allowed = view["agent"]["possible_characters"]  # type: ignore[index]
                assert state.focus.character in allowed
                named = set(strings(view, FIGURE_KEYS | {"possible_characters"}))
                assert not named & HIDDEN_CARDS, f"seed {seed}: a hidden card is named"
                if not state.focus.character_public:
                    assert state.focus.character not in named, f"seed {seed}: the character"
                    assert view["agent"]["health"] is None  # type: ignore[index]
                    hidden_character += 1
                checked += 1
    assert checked > 500
    assert hidden_character > 200
