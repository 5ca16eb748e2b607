"""Events as sentences for people (the terminal's log, the drawings): every event of
random games, in every rule set, reads without Python reprs."""

from __future__ import annotations

import re

import pytest

from fogofwar.core.game import get_ruleset, plain_event
from fogofwar.core.rng import stream
from fogofwar.games.rock_n_roll.render import _SENTENCES as RNR_SENTENCES
from fogofwar.games.specter_ops.characters import CARDS
from fogofwar.games.specter_ops.render import _SENTENCES as SO_SENTENCES

REPR = re.compile(r"\[\s*'|\[\d|\{'|=None|\bNone\b|\w=\S|\bTrue\b|\bFalse\b")

CONFIGS = {
    "specter-ops": [{"players": 2}, {"players": 5}, {"players": 3, "characters": False}],
    "rock-n-roll": [{}],
    "zero-dark": [{}, {"mission": "dead-drop"}, {"mission": "the-boss"}, {"task": "rescue"}],
    "warfighter": [{}],
}


def _events(ruleset: str, games: int) -> dict[str, dict[str, object]]:
    rs = get_ruleset(ruleset)
    seen: dict[str, dict[str, object]] = {}
    for config in CONFIGS[ruleset]:
        for g in range(games):
            state = rs.new_game(config, g)
            rng = stream(g, "sentences")
            for _ in range(3000):
                if state.is_over:
                    break
                seat = sorted(state.to_act())[0]
                for e in state.apply(rng.choice(state.legal_actions(seat))):
                    seen.setdefault(e.kind, e.to_json())
    return seen


def test_plain_event_is_no_repr() -> None:
    line = plain_event(
        {"kind": "setup", "hunters": ["H1", "H2"], "square": None, "hit": True, "o": [{"a": 1}]}
    )
    assert line == "setup: hunters H1, H2, hit yes, o 1"


@pytest.mark.parametrize("ruleset", sorted(CONFIGS))
def test_every_event_reads_as_a_sentence(ruleset: str) -> None:
    rs = get_ruleset(ruleset)
    seen = _events(ruleset, 4)
    assert len(seen) > 10
    for kind, e in seen.items():
        line = rs.describe_event(e)
        if line is None:
            # The agent's own note of a public card (the public event tells it).
            assert ruleset == "specter-ops" and kind == "agent_used", kind
            assert CARDS[str(e["card"])].public, e
            continue
        assert line, kind
        assert not REPR.search(line), (kind, line)
        assert "_" not in line.split(":")[0], (kind, line)  # no raw kind names
        # Each kind has its own sentence, not the list of its fields.
        assert line != plain_event(e), (kind, line)
    if ruleset in ("specter-ops", "rock-n-roll"):
        sentences = SO_SENTENCES if ruleset == "specter-ops" else RNR_SENTENCES
        assert set(seen) <= set(sentences), set(seen) - set(sentences)


def test_a_card_use_is_told_once_in_each_seats_log() -> None:
    """The agent receives its own ``agent_used`` note and, for a public card, the
    ``equipment`` event every seat receives: its log says the use once; a hidden card's
    use (which only the agent receives) is said too."""
    rs = get_ruleset("specter-ops")
    told: dict[bool, int] = {True: 0, False: 0}
    for g in range(6):
        state = rs.new_game({"players": 3}, g)
        rng = stream(g, "card-uses")
        while not state.is_over:
            seat = sorted(state.to_act())[0]
            action = rng.choice(state.legal_actions(seat))
            events = state.apply(action)
            used = [e.to_json() for e in events if e.kind == "agent_used"]
            if not used:
                continue
            card = CARDS[str(used[0]["card"])]
            for viewer in ("agent", "hunter1"):
                mine = [e.to_json() for e in events if e.visible_to(viewer)]
                said = [rs.describe_event(e) for e in mine]
                uses = [t for t in said if t and " uses " in t]
                expected = 1 if viewer == "agent" or card.public else 0
                assert len(uses) == expected, (viewer, card, said)
            told[card.public] += 1
    assert told[True] and told[False], told


@pytest.mark.parametrize(
    ("distance", "dice", "wanted"),
    [
        (0, [], "H2 attacks the agent on its own square: a hit, no roll; the agent has 2 health."),
        (1, [4], "H2 attacks the agent at 1 square: rolled 4, hit; the agent has 2 health."),
        (3, [6, 2], "H2 attacks the agent at 3 squares: rolled 6 2, hit; the agent has 2 health."),
    ],
)
def test_an_attack_reads_plainly(distance: int, dice: list[int], wanted: str) -> None:
    # SO-X2: on the agent's own square no die is rolled (the sentence read "rolled , hit");
    # "1 square", not "1 squares".
    event = {"kind": "attack", "hunter": "H2", "distance": distance, "dice": dice}
    line = get_ruleset("specter-ops").describe_event({**event, "hit": True, "health": 2})
    assert line == wanted
