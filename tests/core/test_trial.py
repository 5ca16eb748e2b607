"""``try_actions``: an input of several actions checked as a whole, all or nothing while
it decides nothing; past an action that decides something (a roll), what comes before
the refused action is to be played, so that no refusal tells a result before it counts.
And ``registered_ruleset``: a name from outside resolves to a loaded rule set only."""

from __future__ import annotations

import sys
import uuid
from pathlib import Path

import pytest

from fogofwar.core.errors import IllegalActionError, RulesError
from fogofwar.core.game import (
    Action,
    Ruleset,
    State,
    get_ruleset,
    partly_played,
    registered_ruleset,
    try_actions,
)


def _warfighter(seed: int) -> tuple[Ruleset, State]:
    rs = get_ruleset("warfighter")
    return rs, rs.new_game(rs.resolve_config({}), seed)


def test_a_deciding_action_makes_the_refusal_wait_for_it() -> None:
    # WF-A4: a check rolls. Tried whole, the second check's refusal differed with the
    # first one's roll; try_actions hands back where to stop instead.
    for seed in range(6):
        rs, state = _warfighter(seed)
        before = state.view("squad").canonical()
        parsed = rs.parse_actions("check S1 K1; check S1 K1; move S1 L9", "squad", state)
        tried = try_actions(rs, state, parsed)
        assert tried is not None
        i, error = tried
        assert i >= 1 and isinstance(error, IllegalActionError)
        assert state.view("squad").canonical() == before  # the state is not changed
        said = partly_played(i, parsed, error)
        assert said.startswith(f"the first {i} of 3 actions were played")
        assert said.endswith(f"then {parsed[i]}: {error.reason}")


def test_an_input_refused_at_its_first_action_or_legal_whole() -> None:
    rs, state = _warfighter(1)
    with pytest.raises(IllegalActionError):
        try_actions(rs, state, [Action("squad", "move", ("S1", "L9"))])
    legal = state.legal_actions("squad")[0]
    assert try_actions(rs, state, [legal]) is None


def test_quiet_steps_are_refused_whole() -> None:
    # A Specter Ops agent's steps decide nothing until the move ends (preview_kinds).
    rs = get_ruleset("specter-ops")
    state = rs.new_game(rs.resolve_config({"characters": False}), 4)
    while "agent" not in state.to_act() or not any(
        a.kind == "step" for a in state.legal_actions("agent")
    ):
        seat = sorted(state.to_act())[0]
        state.apply(state.legal_actions(seat)[0])
    step = next(a for a in state.legal_actions("agent") if a.kind == "step")
    with pytest.raises(IllegalActionError):
        try_actions(rs, state, [step, step])  # the second is no step from there


def test_a_name_from_outside_resolves_to_a_loaded_rule_set_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert registered_ruleset("specter-ops").id == "specter-ops"
    name = "fow_trial_" + uuid.uuid4().hex
    marker = tmp_path / "imported"
    (tmp_path / f"{name}.py").write_text(
        f"open({str(marker)!r}, 'w').close()\n"
        "from tests.example_game import HideAndSeek\n"
        "RULES = HideAndSeek()\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(RulesError, match="unknown rule set"):
        registered_ruleset(f"{name}:RULES")
    assert not marker.exists() and name not in sys.modules
    # Once the operator loads it (serve --plugin), the reference it was loaded by names
    # it, an instance attribute included.
    loaded = get_ruleset(f"{name}:RULES")
    assert marker.exists()
    assert registered_ruleset(f"{name}:RULES") is loaded
    assert registered_ruleset(loaded.id) is loaded
