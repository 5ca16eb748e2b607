"""What a request may name (server.guard): no module a request names is imported, no
bot class it names is called, and no file it names is opened — only what the server
offers (its rule sets and bots, the shipped boards and missions, its operator's
``--data`` files). The command line may still name anything (its user runs it)."""

from __future__ import annotations

import json
import shutil
import sys
import uuid
from importlib import resources
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from fogofwar.core.errors import RulesError
from fogofwar.core.game import get_ruleset, registered_rulesets
from fogofwar.server.app import create_app
from fogofwar.server.guard import Guard
from fogofwar.server.hall import Hall
from fogofwar.server.store import Store

SECRET_LINE = "zebra:x:0:0:the first line of a file"

#: Every option that reads a file, by rule set (each must be guarded).
FILE_OPTIONS = [
    (rs.id, o.name)
    for rs in sorted(set(registered_rulesets().values()), key=lambda r: r.id)
    for o in rs.config_schema.options
    if o.file_suffix is not None
]


def test_every_built_in_data_file_option_is_marked() -> None:
    assert FILE_OPTIONS == [
        ("specter-ops", "board"),
        ("warfighter", "mission"),
        ("zero-dark", "map"),
        ("zero-dark", "mission"),
    ]


@pytest.mark.parametrize(("ruleset", "option"), FILE_OPTIONS)
@pytest.mark.parametrize("endpoint", ["tables", "seats"])
def test_a_request_naming_a_file_is_refused_before_it_is_read(
    client: TestClient, tmp_path: Path, ruleset: str, option: str, endpoint: str
) -> None:
    # Before, the file was opened and its first line came back in the error: any file
    # the server could read, a line at a time, to whoever reached the lobby.
    suffix = get_ruleset(ruleset).config_schema.option(option).file_suffix or ""
    for name in ("passwd", "x" + suffix):
        secret = tmp_path / name
        secret.write_text(SECRET_LINE + "\nmore\n", encoding="utf-8")
        for value in (str(secret), f"../../{tmp_path.name}/{name}", name):
            config = {option: value}
            if endpoint == "tables":
                r = client.post("/api/tables", json={"ruleset": ruleset, "config": config})
            else:
                r = client.post(f"/api/rulesets/{ruleset}/seats", json={"config": config})
            assert r.status_code == 400, (value, r.text)
            message = r.json()["message"]
            assert "zebra" not in message
            assert f"option {option}" in message and "serve --data" in message


def _marker_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, Path]:
    """A module that leaves a file behind when it is imported, on the import path."""
    name = "fow_marker_" + uuid.uuid4().hex
    marker = tmp_path / "imported"
    (tmp_path / f"{name}.py").write_text(
        f"open({str(marker)!r}, 'w').close()\ndef make():\n    return 1\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    return name, marker


def test_a_request_imports_no_module(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before, "module:attr" as a rule set or a bot imported the module (running its
    # code), and a bot's attribute was called: any installed function of no arguments.
    name, marker = _marker_module(tmp_path, monkeypatch)
    requests = [
        ("post", "/api/tables", {"ruleset": f"{name}:Game"}),
        ("post", "/api/tables", {"ruleset": "warfighter", "seats": {"squad": f"{name}:make"}}),
        ("post", "/api/tables", {"ruleset": "warfighter", "seats": {"squad": "os:getpid"}}),
        ("post", f"/api/rulesets/{name}:Game/seats", {"config": {}}),
        ("get", f"/api/rulesets/{name}:Game", None),
    ]
    for method, url, body in requests:
        r = client.post(url, json=body) if method == "post" else client.get(url)
        assert r.status_code in (400, 404), (url, r.text)
        assert "unknown rule set" in r.text or "no bot" in r.text
    assert not marker.exists() and name not in sys.modules


def test_registered_bots_with_parameters_and_loaded_plug_ins_are_named_as_before(
    client: TestClient,
) -> None:
    r = client.post(
        "/api/tables",
        json={
            "ruleset": "specter-ops",
            "seats": {"agent": "human", "hunter1": "so-hunter:aggression=0.5", "hunter2": "bot"},
        },
    )
    assert r.status_code == 201, r.text
    # A plug-in the operator loaded (serve --plugin; conftest loads the example) is
    # named by its id or by the reference it was loaded by; nothing is imported.
    for name in ("hide-and-seek", "tests.example_game:HideAndSeek"):
        r = client.post("/api/tables", json={"ruleset": name, "seats": {"hider": "human"}})
        assert r.status_code == 201, (name, r.text)


def _shipped(name: str) -> str:
    entry = resources.files("fogofwar").joinpath("data", "warfighter", name)
    return entry.read_text(encoding="utf-8")


def test_the_operators_data_files_are_offered_by_name(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "mine.wf").write_text(_shipped("dagon.wf"), encoding="utf-8")
    (data / ".hidden.wf").write_text(_shipped("dagon.wf"), encoding="utf-8")
    (data / "notes.txt").write_text("not a mission", encoding="utf-8")
    (data / "folder.wf").mkdir()
    hall = Hall(Store(tmp_path / "t.db"), bot_pause=0.0, data_dirs=[data])
    with TestClient(create_app(hall)) as client:
        rulesets = {r["id"]: r for r in client.get("/api/rulesets").json()}
        options = {o["name"]: o for o in rulesets["warfighter"]["options"]}
        assert options["mission"]["offered"] == ["dagon", "mine.wf"]
        assert options["mission"]["file_suffix"] == ".wf"
        assert options["turns"]["file_suffix"] is None
        # Specter Ops offers only its own board (a Zero Dark map is no Specter Ops board).
        so = {o["name"]: o for o in rulesets["specter-ops"]["options"]}
        assert so["board"]["offered"] == ["specter-ops"]
        # The lobby's help does not offer a file's path, which only the CLI may give.
        for o in (options["mission"], so["board"]):
            assert "path" not in o["help"] and "--data DIR" in o["help"]
        r = client.post(
            "/api/tables",
            json={"ruleset": "warfighter", "config": {"mission": "mine.wf"}, "seats": {}},
        )
        assert r.status_code == 201, r.text
        config = hall.tables[r.json()["table"]].recorder.config
        # Kept by its file name (the views and the record never show the server's
        # paths), which the rule set finds in the folder; the record keeps its digest.
        assert config["mission"] == "mine.wf"
        assert config["mission_digest"]
        record = json.dumps(hall.tables[r.json()["table"]].recorder.record().to_json())
        assert str(data) not in record
        for refused in (".hidden.wf", "notes.txt", "folder.wf", "../data/mine.wf", "MINE.wf"):
            r = client.post(
                "/api/tables",
                json={"ruleset": "warfighter", "config": {"mission": refused}, "seats": {}},
            )
            assert r.status_code == 400, (refused, r.text)
            assert "(dagon, mine.wf)" in r.json()["message"]
    hall.store.close()


def test_a_file_put_in_the_folder_is_offered_at_once(tmp_path: Path) -> None:
    guard = Guard([tmp_path])
    wf = get_ruleset("warfighter")
    assert guard.offered(wf) == {"mission": ["dagon"]}
    shutil.copy(
        resources.files("fogofwar").joinpath("data", "warfighter", "dagon.wf"), tmp_path / "b.wf"
    )  # type: ignore[arg-type]
    assert guard.offered(wf) == {"mission": ["dagon", "b.wf"]}
    assert guard.config(wf, {"mission": "b.wf"}) == {"mission": "b.wf"}


def test_a_data_folder_must_be_a_folder(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match="expected a folder"):
        Guard([tmp_path / "missing"])


def test_an_operators_files_are_named_by_file_name_never_by_the_servers_path(
    tmp_path: Path,
) -> None:
    # The options held the server's own path to an operator's file: every Zero Dark
    # view showed it to every player (its config), and a record kept it, so moving the
    # folder lost every table made from it.
    shipped = resources.files("fogofwar").joinpath("data", "zero-dark")
    data = tmp_path / "data"
    data.mkdir()
    (data / "mine.board").write_text(
        shipped.joinpath("zd-corridor.board").read_text("utf-8"), "utf-8"
    )
    mission = shipped.joinpath("the-spy.mission").read_text("utf-8")
    (data / "mine.mission").write_text(
        mission.replace("map: zd-corridor", "map: mine.board"), "utf-8"
    )
    db = tmp_path / "t.db"
    hall = Hall(Store(db), bot_pause=0.0, data_dirs=[data])
    with TestClient(create_app(hall)) as client:
        r = client.post(
            "/api/tables",
            json={
                "ruleset": "zero-dark",
                "config": {"mission": "mine.mission"},
                "seats": {"team": "human"},
                "seed": 4,
            },
        )
        assert r.status_code == 201, r.text
        made = r.json()
        table = hall.tables[made["table"]]
        assert table.recorder.config["mission"] == "mine.mission"
        assert table.recorder.config["map"] == "mine.board"  # beside the mission: by name
        for link in (made["links"]["team"], made["spectator"]):
            token = link.split("token=")[1]
            seen = client.get(f"/api/tables/{made['table']}/view", params={"token": token}).text
            assert str(tmp_path) not in seen and "mine.board" in seen
        assert str(tmp_path) not in json.dumps(table.recorder.record().to_json())
        version = client.get(
            f"/api/tables/{made['table']}/view",
            params={"token": made["spectator"].split("token=")[1]},
        ).json()["version"]
    hall.store.close()
    # The operator moves the folder: the table comes back from the new one.
    moved = tmp_path / "moved"
    data.rename(moved)
    again = Hall(Store(db), bot_pause=0.0, data_dirs=[moved])
    assert [t.id for t in again.resume()] == [made["table"]]
    assert again.tables[made["table"]].seat_version(None) == version  # the same position
    again.store.close()
