"""Cards as data (WF-C6): the shipped library and the Dagon mission load; bad card
files are refused with the file, the line and what was expected."""

from __future__ import annotations

from pathlib import Path

import pytest

from fogofwar.core.errors import BadDataError, RulesError
from fogofwar.games.warfighter.cardfile import load_library, load_mission, merge, parse_cards
from fogofwar.games.warfighter.cards import FAIL_HEADINGS, Ability, Effect, Heading

from .helpers import BASE, RS


def test_the_dagon_mission_uses_every_heading_a_trap_and_both_doors() -> None:
    # WF-C6, WF-A4, WF-A8, WF-D1: the shipped mission exercises every heading kind, a
    # Trap, a Door with Pick and a Door without.
    mission, lib = load_mission("dagon")
    assert mission.name == "Dagon" and mission.file.endswith("dagon.wf")
    names = {mission.start, *mission.deck, mission.objective}
    cards = [lib.locations[n] for n in names]
    hostiles = {h for c in cards for h in c.hostiles} | set(mission.hostile_deck)
    checks = [k for c in cards for k in c.checks]
    checks += [k for h in hostiles for k in lib.hostiles[h].checks]
    kinds = {h.kind for k in checks for h in k.headings}
    assert kinds == {"success", "fail", "failure", "trap", "text"}
    assert any(k.is_trap for k in checks)
    doors = [lib.hostiles[h].door for h in hostiles if lib.hostiles[h].door is not None]
    assert any(d is not None and d.pick is not None for d in doors)
    assert any(d is not None and d.pick is None for d in doors)
    assert kinds >= FAIL_HEADINGS


def test_the_library_loads_alone() -> None:
    lib = load_library()
    assert "Pvt. Okafor" in lib.soldiers and lib.weapons["BAR"].suppressive
    assert str(lib.hostiles["Barricaded Deep One"].door) == "Door (Cover 5, Hits 3, Pick -1)"


@pytest.mark.parametrize(
    ("text", "line", "column", "expected"),
    [
        ("sodlier X\n", 1, 1, "a card:"),
        ("  cover: 5\n", 1, 3, "a card ('soldier NAME', ...) before"),
        ("weapon W\n  shots: many\n", 2, 10, "shots: a whole number 1 to 10"),
        ("weapon W\n  shots: 1\n  shots: 2\n", 3, 3, "each property once"),
        ("weapon W\n  range: 3\n", 2, 3, "a weapon property"),
        ("weapon W\n  suppressive: maybe\n  shots: 1\n", 2, 16, "yes or no"),
        ("weapon W\n", 1, 1, "a 'shots: ...' line"),
        ("weapon W\n  shots:\n", 2, 9, "a value after 'shots:'"),
        ("hostile H\n  cover: 5\n  hits: 1\n  door: cover 5\n", 4, 9, "a Door with both"),
        (
            "hostile H\n  cover: 5\n  hits: 1\n  door: cover 5, hits 2, lock 3\n",
            4,
            26,
            "a Door's values",
        ),
        ("hostile H\n  cover: 12\n  hits: 1\n", 2, 10, "cover: a whole number 1 to 11"),
        ("location L\n  success: suppress\n", 2, 3, "a 'check:' line before its headings"),
        ("location L\n  check: Search +1\n", 2, 10, "a heading line after the check"),
        ("location L\n  check: Search twice\n  text: suppress\n", 2, 17, "a modifier"),
        (
            "location L\n  check: Search\n  fail: suppress\n  trap: wound 1\n",
            4,
            3,
            "at most one Success heading",
        ),
        (
            "location L\n  check: Search\n  text: suppress\n  success: suppress\n",
            4,
            3,
            "'text:' only where",
        ),
        ("location L\n  check: Search\n  success: suppress; heal 2\n", 3, 22, "an effect"),
        ("location L\n  check: Search\n  trap: wound lots\n", 3, 9, "the effect 'wound N"),
        ("location L\n  check: Search\n  text: move sideways\n", 3, 9, "move forward or"),
        (
            "weapon W\n  shots: 1\nsoldier S\n  abilities: Pick 7+[8+]\n  weapon: W\n",
            4,
            14,
            "an upgunned number below it",
        ),
        ("weapon W\n  shots: 1\nweapon W\n  shots: 2\n", 3, 8, "each weapon name once"),
        (
            "mission M\n  squad: A\n  start: B\n  objective: C\n  turns: 0\n",
            5,
            10,
            "turns: a whole number 1 to 50",
        ),
    ],
)
def test_bad_card_files_name_file_line_and_expected(
    text: str, line: int, column: int, expected: str
) -> None:
    # WF-C6: validated on load; errors name the file, the line and what was expected.
    with pytest.raises(BadDataError) as err:
        parse_cards(text, file="bad.wf")
    e = err.value
    assert (e.file, e.line, e.column) == ("bad.wf", line, column), str(e)
    assert expected in e.expected, str(e)
    assert str(e).startswith(f"bad.wf:{line}:{column}: expected ")


@pytest.mark.parametrize(
    ("text", "line", "found"),
    [
        # The QA case: the hostile's 'cover' lost its indent (it was reported at the
        # header, line 1, as a missing 'cover' line).
        ("hostile Rat\ncover: 5\n  hits: 1\n", 2, "cover: 5"),
        ("hostile Rat\n  hits: 1\ncover: 5\n", 3, "cover: 5"),
        # The mission's last line: reported there, not at the 'mission' line.
        (
            "mission M\n  squad: A\n  start: B\n  objective: C\n\n# the end\nturns: 3\n",
            7,
            "turns: 3",
        ),
    ],
)
def test_an_unindented_property_is_reported_at_its_own_line(
    text: str, line: int, found: str
) -> None:
    # WF-C6: a property that is not indented is named at its own line and column 1, as
    # the property of the card above that it was meant to be, with what was expected.
    with pytest.raises(BadDataError) as err:
        parse_cards(text, file="bad.wf")
    e = err.value
    assert (e.file, e.line, e.column, e.found) == ("bad.wf", line, 1, found), str(e)
    assert "indented under" in e.expected and "'hostile NAME'" in e.expected, str(e)


def test_a_line_that_is_no_card_after_a_card_is_reported_at_its_line() -> None:
    # WF-C6: an unindented line that is no property of the card above is no card either:
    # its own line, not the card above's missing properties.
    with pytest.raises(BadDataError) as err:
        parse_cards("hostile Rat\n  hits: 1\nbogus line\n", file="bad.wf")
    assert (err.value.line, err.value.column, err.value.found) == (3, 1, "bogus")
    assert err.value.expected.startswith("a card: 'soldier NAME'")


@pytest.mark.parametrize(
    ("extra", "line", "expected", "found"),
    [
        ("soldier Dan\n  weapon: Laser\n", 0, "a weapon card's name", "Laser"),
        ("location Pit\n  hostiles: Ghoul\n", 0, "a Hostile card's name", "Ghoul"),
        ("location Pit\n  check: Search\n  fail: add Ghoul\n", 1, "after 'add'", "Ghoul"),
        (
            "mission M\n  squad: Able, Zed\n  start: Camp\n  objective: Goal\n  turns: 3\n",
            1,
            "a Soldier card's name",
            "Zed",
        ),
        (
            "mission M\n  squad: Able\n  start: Camp\n  objective: Moon\n  turns: 3\n",
            3,
            "a Location card's name",
            "Moon",
        ),
        (
            "location Bad Start\n  check: Swim\n  trap: wound 1\nmission M\n  squad: Able\n"
            "  start: Bad Start\n  objective: Goal\n  turns: 3\n",
            5,
            "a start Location",
            "Bad Start",
        ),
    ],
)
def test_names_refer_to_cards(extra: str, line: int, expected: str, found: str) -> None:
    # WF-C6: every name a card or a mission uses must be a card's.
    text = BASE + "\n" + extra
    with pytest.raises(BadDataError) as err:
        merge(parse_cards(text, file="names.wf"))
    e = err.value
    first = BASE.count("\n") + 2  # the extra card's first line
    assert (e.file, e.line, e.found) == ("names.wf", first + line, found), str(e)
    assert expected in e.expected


def test_a_mission_file_is_read_with_the_library(tmp_path: Path) -> None:
    # A mission file of one's own, with its own cards, read with the shipped library.
    path = tmp_path / "short.wf"
    path.write_text(
        "location Quay\nlocation Wharf\n  hostiles: Cultist\nmission Short\n"
        "  squad: Pvt. Okafor\n  start: Quay\n  objective: Wharf\n  turns: 3\n",
        encoding="utf-8",
    )
    state = RS.new_game({"mission": str(path)}, 1)
    assert state.view("squad").data["mission"] == "Short"
    path.write_text("location Flooded Cellar\n", encoding="utf-8")
    with pytest.raises(BadDataError) as err:
        RS.new_game({"mission": str(path)}, 1)
    assert err.value.file == str(path)  # a name the library has already, or no mission
    with pytest.raises(RulesError):
        RS.new_game({"mission": "atlantis"}, 1)


def test_ability_and_heading_texts_are_made_once_and_read_as_printed() -> None:
    # WF-A1, WF-A4, WF-A7: a view names each ability and heading by its printed text;
    # the text is made when the card is, and is no part of the card's value.
    assert str(Ability("Shoot", 6, 4)) == "Shoot 6+[4+]"
    assert str(Ability("Pick", 7)) == "Pick 7+"
    heading = Heading("Fail", (Effect("wound", 3, minus_roll=True), Effect("actions", -1)))
    assert str(heading) == "Fail: wound 3-roll; actions -1"
    assert heading == Heading("Fail", (Effect("wound", 3, minus_roll=True), Effect("actions", -1)))
    assert hash(Ability("Pick", 7)) == hash(Ability("Pick", 7))
    assert Ability("Pick", 7) != Ability("Pick", 8)
    marked = Ability("Pick", 7)
    object.__setattr__(marked, "_text", "something else")
    assert marked == Ability("Pick", 7) and hash(marked) == hash(Ability("Pick", 7))
