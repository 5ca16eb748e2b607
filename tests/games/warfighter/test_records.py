"""Records of mission files and the action encoding's reach (the mission option, WF-C7;
cards that add Hostiles, WF-C6)."""

from __future__ import annotations

import random
from importlib import resources
from pathlib import Path

import pytest

from fogofwar.core.errors import BadDataError
from fogofwar.core.record import Record, Recorder
from fogofwar.games.warfighter.ruleset import ENCODING_LIMIT, MAX_HOSTILES, capacity, mission_of

from .helpers import RS

DAGON = (
    resources.files("fogofwar")
    .joinpath("data", "warfighter", "dagon.wf")
    .read_text(encoding="utf-8")
    .replace("mission Dagon", "mission MyDagon")
)


def record_of(path: Path, seed: int) -> str:
    cfg = {"mission": str(path)}
    rec = Recorder(RS, cfg, seed)
    rnd = random.Random(seed)
    while rec.state.outcome() is None:
        rec.apply(rnd.choice(rec.state.legal_actions("squad")))
    return rec.record().dumps()


def test_c7_a_record_keeps_the_mission_files_digest(tmp_path: Path) -> None:
    # WF-C7: the mission option names a file; the resolved config records its digest,
    # and an unchanged file replays exactly.
    path = tmp_path / "my.wf"
    path.write_text(DAGON, encoding="utf-8")
    cfg = RS.resolve_config({"mission": str(path)})
    assert len(cfg["mission_digest"]) == 16
    text = record_of(path, 3)
    again = Record.loads(text).replay()
    assert again.outcome() is not None
    # A shipped mission gets a digest too (of its file in the package).
    assert RS.resolve_config({})["mission_digest"] != cfg["mission_digest"]


@pytest.mark.parametrize(
    ("old", "new"),
    [("trap: wound 3-roll", "trap: wound 4-roll"), ("turns: 6", "turns: 7")],
)
def test_c7_a_changed_mission_file_is_refused_on_replay(tmp_path: Path, old: str, new: str) -> None:
    # WF-C7: a record of a file that changed since is refused, naming the file, rather
    # than replayed differently.
    path = tmp_path / "my.wf"
    path.write_text(DAGON, encoding="utf-8")
    text = record_of(path, 5)
    assert old in DAGON
    path.write_text(DAGON.replace(old, new), encoding="utf-8")
    with pytest.raises(BadDataError) as err:
        Record.loads(text).replay()
    assert "my.wf" in str(err.value) and "changed since the record was made" in str(err.value)
    digest = RS.resolve_config({"mission": str(path)})["mission_digest"]
    with pytest.raises(BadDataError) as err2:
        RS.new_game({"mission": str(path), "mission_digest": "0" * 16}, 1)
    assert err2.value.file == str(path)
    # The digest it has now is accepted.
    assert RS.new_game({"mission": str(path), "mission_digest": digest}, 1) is not None


def horde(n: int, extra: str = "", who: str = "Cultist") -> str:
    hostiles = ", ".join([who] * n)
    return (
        "location Quay\nlocation Goal\n  hostiles: Cultist\n"
        f"location Horde\n  hostiles: {hostiles}\n{extra}"
        "mission Horde\n  squad: Pvt. Okafor\n  start: Quay\n  deck: Horde\n"
        "  objective: Goal\n  turns: 3\n"
    )


@pytest.mark.parametrize("n", [3, MAX_HOSTILES + 1])
def test_c7_the_encoding_covers_every_hostile_a_mission_can_place(tmp_path: Path, n: int) -> None:
    # WF-C7: the encoding is sized from the mission: a Location of 41 Hostiles gets
    # H41 and beyond; a small mission keeps the least size (40).
    path = tmp_path / "horde.wf"
    path.write_text(horde(n), encoding="utf-8")
    cfg = {"mission": str(path)}
    most_h, _ = capacity(*mission_of(RS.resolve_config(cfg)))
    assert most_h == n + 1
    g = RS.new_game(cfg, 1)
    enc = RS.encoding(cfg)
    move = next(a for a in g.legal_actions("squad") if a.kind == "move")
    g.apply(move)
    mask = enc.legal_mask(g, "squad")
    assert sum(mask) == len(g.legal_actions("squad"))
    names = {str(a) for a in g.legal_actions("squad")}
    assert f"attack S1 H{n}" in names  # the Horde is revealed first: H1…Hn
    size_h = max(MAX_HOSTILES, n + 1)
    assert enc.size == 1 + 6 * (3 + 4 * size_h + 4 * 40)


def test_c6_cards_that_add_one_another_without_end_are_refused(tmp_path: Path) -> None:
    # WF-C6: `add` places a Hostile whose own check may add again: a cycle could put
    # Hostiles in play without end, beyond any encoding: the file is refused at the
    # mission's line. Without the cycle it loads.
    looped = "hostile Spawner\n  cover: 6\n  hits: 1\n  check: Search\n  fail: add Spawner\n\n"
    path = tmp_path / "loop.wf"
    path.write_text(horde(1, looped, who="Spawner"), encoding="utf-8")
    with pytest.raises(BadDataError) as err:
        RS.new_game({"mission": str(path)}, 1)
    assert err.value.file == str(path) and err.value.line is not None
    assert "Spawner -> Spawner" in str(err.value)
    path.write_text(horde(1, looped.replace("add Spawner", "add Cultist")), encoding="utf-8")
    assert RS.new_game({"mission": str(path)}, 1) is not None


def test_c7_a_mission_past_the_encoding_limit_is_refused(tmp_path: Path) -> None:
    # WF-C7: a mission that can put more than ENCODING_LIMIT Hostiles in play is
    # refused on load, naming the file and the mission's line.
    path = tmp_path / "huge.wf"
    path.write_text(horde(ENCODING_LIMIT), encoding="utf-8")
    with pytest.raises(BadDataError) as err:
        RS.resolve_config({"mission": str(path)})
    assert err.value.file == str(path) and err.value.line is not None
    assert "encoding" in str(err.value)
    path.write_text(horde(ENCODING_LIMIT - 1), encoding="utf-8")
    assert RS.resolve_config({"mission": str(path)})["mission"] == str(path)
