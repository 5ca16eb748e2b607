"""The web table against a hostile or careless client (a security review's findings,
each mended): no refusal tells what an unsent action would decide, no request reads more
than its limit, malformed input gets a clear 4xx and leaves the table as it was, and
what a request names stays inside what the server offers."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from .test_api import act, new_table, token, view


def _warfighter(client: TestClient, seed: int) -> tuple[str, str]:
    t = new_table(client, ruleset="warfighter", seats={"squad": "human"}, seed=seed)
    return t["table"], token(t["links"]["squad"])


def test_a_refusal_never_tells_what_an_unsent_action_decided(client: TestClient) -> None:
    # "check S1 K1; check S1 K1; ..." was tried as a whole on a copy and refused with
    # nothing played: "gained already" when the first check's roll succeeded, "0
    # Action(s) left" when it failed. A seat read the roll and could decline it. Now the
    # actions before the refused one are played for real where one of them decided
    # something, and the seat learns the roll as the game tells it.
    outcomes = set()
    for seed in range(8):
        table, tok = _warfighter(client, seed)
        before = view(client, table, tok)["version"]
        r = act(client, table, tok, notation="check S1 K1; check S1 K1; move S1 L9")
        assert r.status_code == 422, r.text
        played = re.match(r"the first (\d) of 3 actions were played", r.json()["message"])
        assert played, r.text
        after = view(client, table, tok, since=before)
        assert after["version"] == before + int(played[1])
        checks: list[dict[str, Any]] = [e for e in after["events"] if e["kind"] == "check"]
        assert len(checks) == int(played[1])
        outcomes.add(checks[0]["success"])
    assert outcomes == {True, False}  # both kinds of roll met, and both were played


def test_a_quiet_path_stays_all_or_nothing(client: TestClient) -> None:
    # A Specter Ops agent's steps decide nothing until the move ends: a path refused at
    # its third step plays none of it.
    t = new_table(
        client,
        ruleset="specter-ops",
        config={"characters": False},
        seats={"agent": "human"},
        seed=4,
    )
    table, tok = t["table"], token(t["links"]["agent"])
    start = view(client, table, tok)
    steps = [a["args"][0] for a in start["legal"] if a["kind"] == "step"]
    assert steps
    r = act(client, table, tok, notation=f"move {steps[0]} {steps[0]} A1")
    assert r.status_code == 422, r.text
    assert not r.json()["message"].startswith("the first")
    assert view(client, table, tok)["version"] == start["version"]
