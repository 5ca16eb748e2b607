"""The web table's JSON API and websocket (fogofwar.server), through FastAPI's test
client: every endpoint, every refusal, links that act only for their seat, the secret
kept until the end, bots at seats, and recovery from the store."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fogofwar.server.app import create_app
from fogofwar.server.hall import MAX_MESSAGE, Hall
from fogofwar.server.store import Store

EXAMPLE = "tests.example_game:HideAndSeek"


def token(url: str) -> str:
    return url.split("token=", 1)[1]


def new_table(client: TestClient, **body: Any) -> dict[str, Any]:
    body.setdefault("ruleset", EXAMPLE)
    body.setdefault("seats", {"hider": "human", "seeker": "human"})
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def view(client: TestClient, table: str, tok: str, since: int = 0) -> dict[str, Any]:
    r = client.get(f"/api/tables/{table}/view", params={"token": tok, "since": since})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def act(client: TestClient, table: str, tok: str, **body: Any) -> Any:
    return client.post(f"/api/tables/{table}/actions", params={"token": tok}, json=body)


def test_rulesets_describe_every_option_seat_and_bot(client: TestClient) -> None:
    data = client.get("/api/rulesets").json()
    ids = {r["id"] for r in data}
    assert {"specter-ops", "zero-dark", "rock-n-roll", "warfighter"} <= ids
    so = next(r for r in data if r["id"] == "specter-ops")
    assert "agent" in so["seats"] and "so-hunter" in so["bots"]
    assert any(o["name"] == "characters" for o in so["options"])


def test_a_table_gives_one_secret_link_per_human_seat_and_a_spectator(
    client: TestClient, db: Path
) -> None:
    t = new_table(client)
    assert set(t["links"]) == {"hider", "seeker"} and t["spectator"]
    tokens = [token(u) for u in t["links"].values()] + [token(t["spectator"])]
    # 256-bit tokens (43 url-safe characters), all different.
    assert len(set(tokens)) == 3 and all(len(x) >= 43 for x in tokens)
    assert len(t["commitment"]) == 64 and t["seeded"] is False
    # The store keeps only the tokens' hashes, never a token or anything that shows it.
    raw = db.read_bytes() + b"".join(p.read_bytes() for p in db.parent.glob("*.db-wal"))
    assert not any(x.encode() in raw for x in tokens)


def test_each_link_sees_its_own_view_and_the_spectator_the_public_one(
    client: TestClient,
) -> None:
    t = new_table(client)
    hider = view(client, t["table"], token(t["links"]["hider"]))
    spectator = view(client, t["table"], token(t["spectator"]))
    assert hider["seat"] == "hider" and hider["legal"] and hider["notation"]
    assert spectator["seat"] is None and spectator["legal"] == []
    assert hider["commitment"] == t["commitment"] == spectator["commitment"]
    # Before the end no message carries the secret.
    assert "secret" not in hider and "secret" not in spectator


def test_unknown_tokens_and_tables_are_refused(client: TestClient) -> None:
    t = new_table(client)
    assert client.get(f"/api/tables/{t['table']}/view", params={"token": "x"}).status_code == 403
    assert client.get(f"/api/tables/{t['table']}/view").status_code == 403
    other = new_table(client)
    # A link of another table is no link of this one.
    r = client.get(
        f"/api/tables/{t['table']}/view", params={"token": token(other["links"]["hider"])}
    )
    assert r.status_code == 403
    r = client.get("/api/tables/nope/view", params={"token": token(t["spectator"])})
    assert r.status_code == 404


def test_actions_refusals_and_versions(client: TestClient) -> None:
    t = new_table(client)
    table, hider = t["table"], token(t["links"]["hider"])
    seeker = token(t["links"]["seeker"])
    before = view(client, table, hider)
    # EX-1: a bid above the seat's energy is refused with the reason and the rule ID,
    # and nothing changes.
    r = act(client, table, hider, action={"seat": "hider", "kind": "bid", "args": [99]})
    assert r.status_code == 422
    assert r.json()["error"] == "refused" and r.json()["rule"] == "EX-1"
    assert view(client, table, hider)["version"] == before["version"]
    # A link acts only for its seat; the spectator not at all.
    r = act(client, table, seeker, action={"seat": "hider", "kind": "bid", "args": [1]})
    assert r.status_code == 403
    r = act(client, table, token(t["spectator"]), notation="bid 1")
    assert r.status_code == 403
    # A legal action is accepted; the answer is the seat's new view.
    r = act(client, table, hider, action=before["legal"][0], version=before["version"])
    assert r.status_code == 200 and r.json()["version"] != before["version"]
    # An action against an old version of what the link shows is refused as stale (the
    # hider's bid is public: the seeker's view changed too).
    seen = view(client, table, seeker)["version"]
    r = act(client, table, seeker, notation="bid 0", version=before["version"])
    assert r.status_code == 409 and r.json()["version"] == seen != before["version"]
    # Notation is read as the terminal reads it.
    r = act(client, table, seeker, notation="bid 0")
    assert r.status_code == 200, r.text
    r = act(client, table, seeker, notation="no such thing")
    assert r.status_code == 422


def t_version(client: TestClient, t: dict[str, Any]) -> int:
    """The hider's version of a new table, before any action (a fixed seed's game)."""
    hall: Hall = client.app.state.hall  # type: ignore[attr-defined]
    table = hall.table(t["table"])
    assert table.version == 0  # no action accepted
    return table.seat_version("hider")


def test_malformed_and_oversized_requests_get_a_clear_error(client: TestClient) -> None:
    t = new_table(client)
    table, hider = t["table"], token(t["links"]["hider"])
    url = f"/api/tables/{table}/actions"
    r = client.post(url, params={"token": hider}, content=b"{not json")
    assert r.status_code == 400 and "not JSON" in r.json()["message"]
    r = client.post(url, params={"token": hider}, content=b"[1, 2]")
    assert r.status_code == 400
    big = json.dumps({"notation": "x" * (MAX_MESSAGE + 10)})
    r = client.post(url, params={"token": hider}, content=big.encode())
    assert r.status_code == 413 and r.json()["error"] == "too_large"
    r = act(client, table, hider, notation="bid 1", version="3")
    assert r.status_code == 400
    r = client.post("/api/tables", json={"ruleset": "no-such-game"})
    assert r.status_code == 400
    r = client.post("/api/tables", json={"ruleset": EXAMPLE, "seats": {"nobody": "human"}})
    assert r.status_code == 400 and "nobody" in r.json()["message"]
    r = client.post("/api/tables", json={"ruleset": EXAMPLE, "config": {"cells": 999}})
    assert r.status_code == 400
    # A bot at a seat it does not play: refused before the table exists.
    r = client.post(
        "/api/tables", json={"ruleset": "specter-ops", "seats": {"hunter1": "so-agent"}}
    )
    assert r.status_code == 400 and "plays the agent, not hunter1" in r.json()["message"]
    # The table is as healthy as before: nothing changed.
    assert view(client, table, hider)["version"] == t_version(client, t)


def play_out(client: TestClient, t: dict[str, Any], limit: float = 60.0) -> dict[str, Any]:
    """Play a table to its end: humans take their first legal action, bots their own."""
    table = t["table"]
    tokens = {s: token(u) for s, u in t["links"].items()}
    spectator = token(t["spectator"])
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        public = view(client, table, spectator)
        if public["over"]:
            return public
        for seat in public["to_act"]:
            if seat in tokens:
                mine = view(client, table, tokens[seat])
                if mine["legal"]:
                    act(client, table, tokens[seat], action=mine["legal"][0])
        time.sleep(0.01)
    raise AssertionError("the game did not end")


def test_bots_play_their_seats_and_the_end_reveals_and_verifies(client: TestClient) -> None:
    t = new_table(client, seats={"hider": "human", "seeker": "random"}, options={"bot_pause": 0})
    assert set(t["links"]) == {"hider"}
    end = play_out(client, t)
    assert end["over"] and end["outcome"]["reason"]
    # After the end: the secret, and verify's verdict on the record.
    assert end["verified"]["verified"] is True and len(end["secret"]) == 64
    r = client.get(f"/api/tables/{t['table']}/record", params={"token": token(t["spectator"])})
    assert r.status_code == 200
    record = r.json()
    assert record["seed"] == end["secret"] and record["commitment"] == t["commitment"]


def test_the_record_is_refused_before_the_end(client: TestClient) -> None:
    t = new_table(client)
    r = client.get(f"/api/tables/{t['table']}/record", params={"token": token(t["spectator"])})
    assert r.status_code == 403


def test_a_seeded_table_says_so(client: TestClient) -> None:
    t = new_table(client, seed=7)
    assert t["seeded"] is True
    assert view(client, t["table"], token(t["spectator"]))["seeded"] is True


def test_events_are_numbered_per_seat(client: TestClient) -> None:
    t = new_table(client, seed=3)
    table, hider = t["table"], token(t["links"]["hider"])
    seeker = token(t["links"]["seeker"])
    act(client, table, hider, notation="bid 1")
    act(client, table, seeker, notation="bid 0")
    first = view(client, table, hider)
    again = view(client, table, hider, since=first["next"])
    assert again["events"] == [] and again["next"] == first["next"]
    assert view(client, table, hider, since=0)["events"] == first["events"]


def test_each_event_comes_with_the_rule_sets_sentence_for_it(client: TestClient) -> None:
    # The page's log reads as the terminal's: each event with the rule set's sentence
    # (Ruleset.describe_event), made from the event as this seat receives it.
    from fogofwar.core.game import get_ruleset

    rs = get_ruleset("specter-ops")
    t = new_table(
        client,
        ruleset="specter-ops",
        seed=5,
        seats={"agent": "human", "hunter1": "human", "hunter2": "human"},
    )
    table = t["table"]
    links = {seat: token(url) for seat, url in t["links"].items()}
    for _ in range(12):  # the characters, then the first moves
        for tok in links.values():
            m = view(client, table, tok)
            if m["legal"]:
                act(client, table, tok, action=m["legal"][0], version=m["version"])
                break
    said = []
    for tok in [*links.values(), token(t["spectator"])]:
        m = view(client, table, tok)
        assert m["events"]
        assert m["sentences"] == [rs.describe_event(e) for e in m["events"]]
        later = view(client, table, tok, since=1)
        assert later["sentences"] == m["sentences"][1:]
        said += [x for x in m["sentences"] if x]
    # Sentences for people, not the fields: "H1 is the Puppet." and the like.
    assert said and all("=" not in x and "_" not in x.split(":")[0] for x in said)
    assert any(x.startswith("H1 is ") for x in said)


def test_a_card_games_drawing_is_its_text_whole(client: TestClient) -> None:
    # A game without a board is drawn as the terminal draws it: its text whole, never
    # read as console markup (Rock-n-Roll's "[rock'n'roll]" and "[dealt]" flags).
    import html
    import re

    from fogofwar.core.game import PlayerView, get_ruleset

    rs = get_ruleset("rock-n-roll")
    t = new_table(client, ruleset="rock-n-roll", seed=2, seats={"vietnam": "human", "vpa": "human"})
    table = t["table"]
    links = {seat: token(url) for seat, url in t["links"].items()}
    flags = 0
    for _ in range(30):
        for seat, tok in links.items():
            m = view(client, table, tok)
            data = m["view"]["view"]
            text = rs.render(PlayerView(m["ruleset"], seat, data), m["view"]["view"]["config"])
            assert isinstance(text, str)
            shown = html.unescape(re.sub(r"<[^>]+>", "", m["drawing"]))
            # What console markup would take for a tag: a bracket opening on a letter.
            tagged = re.findall(r"\[[a-z][^\]]*\]", text)
            assert tagged and all(x in shown for x in tagged), (tagged, shown)
            flags += "[rock'n'roll]" in shown
            if m["legal"]:
                act(client, table, tok, action=m["legal"][0], version=m["version"])
    assert flags


def test_the_websocket_pushes_each_change_and_answers_refusals(client: TestClient) -> None:
    t = new_table(client, seed=5)
    table, hider = t["table"], token(t["links"]["hider"])
    seeker = token(t["links"]["seeker"])
    with (
        client.websocket_connect(f"/ws/tables/{table}?token={hider}") as ws,
        client.websocket_connect(f"/ws/tables/{table}?token={token(t['spectator'])}") as spec,
    ):
        first = json.loads(ws.receive_text())
        assert first["type"] == "state" and first["seat"] == "hider"
        assert first["version"] == t_version(client, t)
        assert json.loads(spec.receive_text())["seat"] is None
        ws.send_text(json.dumps({"notation": "bid 99"}))
        refusal = json.loads(ws.receive_text())
        assert refusal["type"] == "error" and refusal["rule"] == "EX-1"
        ws.send_text("x" * (MAX_MESSAGE + 1))
        assert json.loads(ws.receive_text())["error"] == "too_large"
        ws.send_text("{broken")
        assert json.loads(ws.receive_text())["error"] == "bad_request"
        # The connection is still healthy: an action by another link is pushed to both.
        assert act(client, table, seeker, notation="bid 0").status_code == 200
        pushed = json.loads(ws.receive_text())
        assert pushed["version"] != first["version"] and pushed["type"] == "state"
        assert pushed["to_act"] == ["hider"]  # the seeker's bid is in, not its value
        assert json.loads(spec.receive_text())["to_act"] == ["hider"]
        ws.send_text(json.dumps({"notation": "bid 1", "version": pushed["version"]}))
        assert json.loads(ws.receive_text())["version"] != pushed["version"]


def test_the_websocket_refuses_a_wrong_token(client: TestClient) -> None:
    t = new_table(client)
    with (
        pytest.raises(Exception),  # noqa: B017 - the handshake is closed, with code 4403
        client.websocket_connect(f"/ws/tables/{t['table']}?token=bad") as ws,
    ):
        ws.receive_text()


def test_tables_come_back_after_a_restart(db: Path) -> None:
    hall = Hall(Store(db), bot_pause=0.0)
    with TestClient(create_app(hall)) as c:
        t = new_table(c, seats={"hider": "human", "seeker": "human"})
        table, hider = t["table"], token(t["links"]["hider"])
        seeker = token(t["links"]["seeker"])
        act(c, table, hider, notation="bid 1")
        act(c, table, seeker, notation="bid 0")
        before = {tok: view(c, table, tok) for tok in (hider, seeker, token(t["spectator"]))}
    hall.store.close()
    # A new server on the same store: every table replays to where it was.
    again = Hall(Store(db), bot_pause=0.0)
    with TestClient(create_app(again)) as c:
        for tok, seen in before.items():
            assert view(c, table, tok) == seen
        assert act(c, table, hider, action=before[hider]["legal"][0]).status_code == 200
    again.store.close()
    rows = sqlite3.connect(db).execute("SELECT COUNT(*) FROM actions").fetchone()[0]
    assert rows >= 3


def test_an_unseeded_tables_bots_draw_from_a_256_bit_secret(db: Path) -> None:
    # A bot's stream decides its hidden choices, so its root is as strong a secret as
    # the game's (256 bits), sent to no seat, and kept across a restart.
    hall = Hall(Store(db), bot_pause=0.0)
    with TestClient(create_app(hall)) as c:
        t = new_table(c, seats={"hider": "human", "seeker": "random"})
        table = t["table"]
        root = hall.tables[table].bot_root
        assert isinstance(root, str) and len(root) == 64 and int(root, 16) >= 0
        other = new_table(c, seats={"hider": "human", "seeker": "random"})
        assert hall.tables[other["table"]].bot_root != root
        for url in (t["links"]["hider"], t["spectator"]):
            assert root not in json.dumps(view(c, table, token(url)))
        # A seeded table's bots draw from the seed's streams, as `play --seed` does.
        seeded = new_table(c, seed=5, seats={"hider": "human", "seeker": "random"})
        assert seeded["seeded"] and hall.tables[seeded["table"]].bot_root == 5
    hall.store.close()
    again = Hall(Store(db), bot_pause=0.0)
    with TestClient(create_app(again)) as c:
        view(c, table, token(t["links"]["hider"]))  # the table comes back
        assert again.tables[table].bot_root == root
    again.store.close()


def test_the_table_page_keeps_names_out_of_its_markup() -> None:
    # The page's names are escaped in its HTML and in the JSON of its script: a name
    # cannot close the <script> tag (rule set ids and seats are the rule set's own, but
    # a plug-in's are not ours to trust).
    from fogofwar.server.pages import table_page

    page = table_page('x</script><script>alert("id")</script>', "seat<b>")
    assert "<script>alert" not in page and "<b>" not in page
    assert page.count("</script>") == page.count("<script")
    named = table_page("x", "seat", '<img src=x onerror="alert(1)">')
    assert "<img" not in named and "&lt;img" in named


def test_the_table_page_names_the_game_for_people(client: TestClient) -> None:
    # Its heading read "specter-ops — agent": the rule set's id, not its name.
    t = new_table(client, ruleset="specter-ops", seats={"agent": "human"}, seed=1)
    r = client.get(f"/t/{t['table']}?token={token(t['links']['agent'])}")
    assert '<span id="game-name">Specter Ops</span>' in r.text
    assert "<title>agent — Specter Ops — fogofwar</title>" in r.text
    assert 'data-ruleset="specter-ops"' in r.text  # the scripts still read the id


def test_the_seats_of_a_config_with_the_bots_of_each(client: TestClient) -> None:
    # SO-T2: five players seat four hunters; the lobby asks for the seats of the options
    # chosen, and each seat lists only the bots that play it.
    r = client.post("/api/rulesets/specter-ops/seats", json={"config": {"players": 5}})
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["seats"] == ["agent", "hunter1", "hunter2", "hunter3", "hunter4"]
    assert "so-agent" in answer["bots"]["agent"] and "so-agent" not in answer["bots"]["hunter4"]
    assert answer["default_bots"]["hunter4"] == "so-hunter"
    r = client.post("/api/rulesets/specter-ops/seats", json={"config": {"players": 2}})
    assert r.json()["seats"] == ["agent", "hunter1"]
    r = client.post("/api/rulesets/zero-dark/seats", json={"config": {"mode": "versus"}})
    assert r.status_code == 400 and "map zd-open" in r.json()["message"]  # ZD-C9
    versus = {"mode": "versus", "map": "zd-open"}
    r = client.post("/api/rulesets/zero-dark/seats", json={"config": versus})
    assert r.json()["seats"] == ["team1", "team2"]
    r = client.post("/api/rulesets/specter-ops/seats", json={"config": {"players": 9}})
    assert r.status_code == 400 and "players" in r.json()["message"]
    r = client.post("/api/rulesets/specter-ops/seats", json={"config": []})
    assert r.status_code == 400 and r.json()["error"] == "bad_request"
    r = client.post("/api/rulesets/no-such-game/seats", json={})
    assert r.status_code == 404 and r.json()["error"] == "not_found"


@pytest.mark.parametrize(("path", "parameter"), [("view", "since"), ("replay", "at")])
def test_a_bad_query_parameter_is_the_apis_own_error(
    client: TestClient, path: str, parameter: str
) -> None:
    # docs/server.md's error table: a bad field is a 400 bad_request naming it, not
    # FastAPI's 422 list of details.
    t = new_table(client)
    r = client.get(
        f"/api/tables/{t['table']}/{path}",
        params={"token": token(t["links"]["hider"]), parameter: "abc"},
    )
    assert r.status_code == 400
    assert r.json()["error"] == "bad_request" and r.json()["message"].startswith(parameter)


def test_the_seats_of_a_body_that_is_not_an_object_are_refused(client: TestClient) -> None:
    r = client.post("/api/rulesets/specter-ops/seats", json=[1])
    assert r.status_code == 400 and r.json()["error"] == "bad_request"


def test_an_unknown_address_or_method_gets_the_apis_error_shape(client: TestClient) -> None:
    # FastAPI answered {"detail": "Not Found"}: every error is {"error", "message"}.
    t = new_table(client)
    r = client.get(f"/api/tables/{t['table']}")
    assert r.status_code == 404
    assert r.json() == {
        "error": "not_found",
        "message": f"no such address: GET /api/tables/{t['table']}",
    }
    r = client.get("/api/tables")
    assert r.status_code == 405 and r.json()["error"] == "method_not_allowed"
    assert "GET /api/tables" in r.json()["message"]


def test_a_method_not_allowed_says_which_are(client: TestClient) -> None:
    r = client.get("/api/tables")
    assert r.status_code == 405 and "POST" in r.headers.get("allow", "")


def test_a_number_too_long_is_refused_in_a_players_words(client: TestClient) -> None:
    t = new_table(client)
    body = '{"notation": "bid 1", "version": ' + "9" * 5000 + "}"
    r = client.post(
        f"/api/tables/{t['table']}/actions",
        params={"token": token(t["links"]["hider"])},
        content=body.encode(),
    )
    assert r.status_code == 400 and "number too long" in r.json()["message"]
    assert "set_int_max_str_digits" not in r.text


def test_the_schema_is_made_without_a_warning(client: TestClient) -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # FastAPI warned of a duplicate operation id
        assert client.get("/openapi.json").status_code == 200


def test_a_seats_events_begin_with_the_setup_its_view_was_told(client: TestClient) -> None:
    # The page's Events list started empty: what the setup dealt and drew was only in
    # the view. A seat's events now begin with the setup's, each to its own audience:
    # its own draws to it alone, none of the other side's, and what its view carries.
    t = new_table(
        client,
        ruleset="rock-n-roll",
        seats={"vietnam": "human", "vpa": "human"},
        config={"rounds": 1},
        seed=3,
    )
    links = {**t["links"], "spectator": t["spectator"]}
    seen = {}
    for who, url in links.items():
        m = view(client, t["table"], token(url))
        assert m["events"] and m["next"] == len(m["events"])
        carried = m["view"]["view"]["events"]
        assert m["events"][-len(carried) :] == carried
        seen[who] = m["events"]

    def drew(who: str, side: str) -> list[Any]:
        return [e for e in seen[who] if e["kind"] == "drew" and e["side"] == side]

    assert drew("vietnam", "vietnam") and not drew("vietnam", "vpa")
    assert drew("vpa", "vpa") and not drew("vpa", "vietnam")
    assert not drew("spectator", "vietnam") and not drew("spectator", "vpa")
    assert {"round", "turn", "draws"} <= {e["kind"] for e in seen["spectator"]}
