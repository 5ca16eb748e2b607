"""Cards as data (PT-C7, PT-C8): the shipped files, the format, one test per error kind."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from fogofwar.core.errors import BadDataError
from fogofwar.core.files import DATA_FILE_LIMIT
from fogofwar.games.rock_n_roll.cards import (
    FILES,
    load_cards,
    parse_card_files,
    parse_locals,
    parse_operations,
    parse_orders,
    parse_points,
    parse_setup,
    parse_units,
    read_card_files,
)
from fogofwar.games.rock_n_roll.features import FEATURES


def shipped_texts() -> dict[str, str]:
    folder = resources.files("fogofwar").joinpath("data", "rock-n-roll")
    return {n: folder.joinpath(n).read_text(encoding="utf-8") for n in FILES}


def test_shipped_decks_have_the_default_sizes() -> None:
    # PT-C8: unit decks of 20 a side, order decks of 24, locals 8, operations 8.
    cards = load_cards()
    for side in ("vietnam", "vpa"):
        assert sum(1 for u in cards.units if u.side == side) == 20
        assert sum(1 for o in cards.orders if o.side == side) == 24
        kinds = {o.kind for o in cards.orders if o.side == side}
        assert kinds == {"attack", "manoeuvre", "reinforce", "ambush", "supply"}
    assert len(cards.locals) == 8 and len(cards.operations) == 8
    assert [p.letter for p in cards.points] == ["A", "B", "C", "D", "E"]
    assert cards.setup["start_units"] == 4 and cards.setup["hand_limit"] == 10


def test_named_cards_and_features_are_in_the_data() -> None:
    # PT-C7: features are attached by name from the one registry.
    cards = load_cards()
    names = {u.name: u for u in (*cards.units, *cards.locals)}
    assert names["Zulu"].blocking and names["Zulu"].side == "vpa"
    assert names["Shi Ho"].side == "vietnam" and names["Shi Ho"].feature == "shi-ho"
    assert names["Rong"].is_local and names["Rong"].feature == "sentinel"
    assert FEATURES["shi-ho"].incites_locals and FEATURES["sentinel"].sentinel
    for u in (*cards.units, *cards.locals):
        assert u.feature is None or u.feature in FEATURES
    # Not a feature: a plain line unit.
    assert names["Rifle squad"].feature is None and not names["Rifle squad"].blocking


def test_ids_follow_file_order() -> None:
    cards = load_cards()
    assert cards.units[0].id == "V1" and cards.unit("P1").side == "vpa"
    assert cards.order("VO1").side == "vietnam" and cards.order("PO24").side == "vpa"
    assert cards.unit("L8").is_local and cards.operation("S8").name


def err(fn: object, text: str) -> BadDataError:
    with pytest.raises(BadDataError) as info:
        fn(text, "x.cards")  # type: ignore[operator]
    return info.value


def test_error_wrong_field_count() -> None:
    e = err(parse_units, "# c\nvietnam | Rifle | line | 2 | 1 | -\n")
    assert e.file == "x.cards" and e.line == 2 and "7 fields" in e.expected


def test_error_empty_field() -> None:
    e = err(parse_points, "A |  | 1\n")
    assert e.line == 1 and "no empty field" in e.expected


def test_error_bad_integer() -> None:
    e = err(parse_units, "vietnam | Rifle | line | two | 1 | - | 1\n")
    assert e.line == 1 and "strength (dice): a whole number" in e.expected and e.found == "two"


def test_error_integer_below_minimum() -> None:
    e = err(parse_locals, "\n\nRong | 0 | 1 | sentinel | 1\n")
    assert e.line == 3 and "from 1 to 10" in e.expected


def test_error_unknown_side() -> None:
    e = err(parse_orders, "arvn | Fire | attack | 0 | 1\n")
    assert "a side: one of vietnam, vpa" in e.expected and e.found == "arvn"


def test_error_unknown_unit_kind() -> None:
    e = err(parse_units, "vpa | Zulu | tank | 3 | 2 | - | 1\n")
    assert "a unit kind" in e.expected


def test_error_unknown_order_kind() -> None:
    e = err(parse_orders, "vpa | Fire | bombard | 0 | 1\n")
    assert "an order kind" in e.expected and e.found == "bombard"


def test_error_unknown_feature() -> None:
    e = err(parse_units, "vpa | Zulu | blocking | 3 | 2 | flying | 1\n")
    assert "a unit feature" in e.expected and e.found == "flying"
    # A local's feature is not a unit's.
    e = err(parse_units, "vpa | Zulu | blocking | 3 | 2 | sentinel | 1\n")
    assert "a unit feature" in e.expected


def test_error_supply_without_rd() -> None:
    e = err(parse_orders, "vpa | Porters | supply | 0 | 1\n")
    assert "supply card grants" in e.expected


def test_error_unknown_condition_and_reward() -> None:
    e = err(parse_operations, "Snatch | rescue 1 | rd 2 | 1\n")
    assert "a condition" in e.expected
    e = err(parse_operations, "Snatch | captures 1 | gold 2 | 1\n")
    assert "a reward" in e.expected
    e = err(parse_operations, "Snatch | captures x | rd 2 | 1\n")
    assert "the number after captures" in e.expected


def test_error_point_letter() -> None:
    e = err(parse_points, "A | 1 | 1\nA | 2 | 0\nB | 1 | 1\n")
    assert e.line == 2 and "new Point letter" in e.expected
    e = err(parse_points, "ab | 1 | 1\n")
    assert "one capital letter" in e.expected
    e = err(parse_points, "A | 1 | 1\nB | 1 | 1\n")
    assert "at least 3 Points" in e.expected


def test_error_setup_keys() -> None:
    e = err(parse_setup, "start_units | 4\nstart_units | 5\n")
    assert e.line == 2 and "once" in e.expected
    e = err(parse_setup, "colour | 4\n")
    assert "a setup key" in e.expected
    e = err(parse_setup, "start_units | 4\n")
    assert "the setup keys" in e.expected and "hand_limit" in e.expected


def test_error_deck_size() -> None:
    texts = shipped_texts()
    texts["units.cards"] = texts["units.cards"].replace("| 7\n", "| 6\n", 1)
    with pytest.raises(BadDataError) as info:
        parse_card_files(texts)
    assert info.value.file == "units.cards" and "20 vietnam units" in info.value.expected


def test_error_missing_file() -> None:
    texts = shipped_texts()
    del texts["locals.cards"]
    with pytest.raises(BadDataError) as info:
        parse_card_files(texts)
    assert info.value.file == "locals.cards" and "missing" in info.value.expected


def test_shipped_texts_parse_to_the_loaded_set() -> None:
    assert parse_card_files(shipped_texts()) == load_cards()


# ----------------------------------------------------------------- bounds (PT-C7, PT-C8)


def test_copies_are_bounded_by_the_deck_size() -> None:
    # PT-C8: `copies 99999999` is refused at its line, before any card is made; copies
    # within the setup's deck size load.
    texts = shipped_texts()
    texts["units.cards"] = texts["units.cards"].replace("| -        | 7", "| - | 99999999", 1)
    with pytest.raises(BadDataError) as info:
        parse_card_files(texts)
    assert info.value.file == "units.cards" and info.value.line is not None
    assert "copies: a whole number from 1 to 60" in info.value.expected
    texts = shipped_texts()
    texts["units.cards"] = texts["units.cards"].replace("| -        | 7", "| - | 8", 1)
    with pytest.raises(BadDataError) as info:
        parse_card_files(texts)
    assert "at most 20 vietnam units in all" in info.value.expected
    assert info.value.line is not None and info.value.found == "21"
    e = err(parse_locals, "Rong | 1 | 1 | - | 61\n")
    assert "copies" in e.expected
    assert len(parse_locals("Rong | 1 | 1 | - | 60\n", "x.cards")) == 60


@pytest.mark.parametrize(
    ("fn", "text", "what"),
    [
        (parse_units, "vpa | Zulu | blocking | 11 | 2 | - | 1\n", "strength (dice)"),
        (parse_units, "vpa | Zulu | blocking | 3 | 99999999999 | - | 1\n", "toughness"),
        (parse_units, "vpa | Zulu | blocking | 3 | " + "9" * 300 + " | - | 1\n", "toughness"),
        (parse_orders, "vpa | Ambush | ambush | 11 | 1\n", "value"),
        (parse_points, "A | 100 | 1\nB | 1 | 1\nC | 1 | 1\n", "victory value"),
        (parse_points, "A | 1 | -1\nB | 1 | 1\nC | 1 | 1\n", "RD income"),
        (parse_operations, "Snatch | captures 100 | rd 2 | 1\n", "captures"),
        (parse_operations, "Snatch | captures 1 | orders 61 | 1\n", "orders"),
        (parse_units, "vpa | Zulu | blocking | \u0663 | 2 | - | 1\n", "strength"),  # ٣
        (parse_units, "vpa | Zulu | blocking | \u00b2 | 2 | - | 1\n", "strength"),  # ²
        (parse_units, "vpa | Zulu | blocking | 1_0 | 2 | - | 1\n", "strength"),
        (parse_units, "vpa | Zulu | blocking | +3 | 2 | - | 1\n", "strength"),
    ],
)  # fmt: skip
def test_every_number_has_a_bound_and_ascii_digits(fn: object, text: str, what: str) -> None:
    # PT-C7: each number of a card file is ASCII digits within the game's bound.
    e = err(fn, text)
    assert e.line is not None and what in e.expected and "whole number" in e.expected
    assert e.found is not None and len(e.found) <= 60


def test_setup_bounds() -> None:
    # PT-C8: deck sizes at most 60; draws at most their deck; the starting hand within the
    # hand limit; a turn draws at least 1 order (the round's clock, PT-C3).
    base = shipped_texts()["setup.cards"]
    for old, new, words in [
        ("unit_deck      | 20", "unit_deck | 61", "unit_deck: a whole number from 1 to 60"),
        ("turn_orders    | 2", "turn_orders | 0", "turn_orders (at most order_deck)"),
        ("start_units    | 4", "start_units | 21", "start_units (at most unit_deck)"),
        ("start_orders   | 4", "start_orders | 7", "a starting hand within the hand limit"),
        ("round_wins     | 3", "round_wins | 10", "round_wins: a whole number from 1 to 9"),
        ("hand_limit     | 10", "hand_limit | 0", "hand_limit"),
    ]:
        assert old in base
        e = err(parse_setup, base.replace(old, new))
        assert words in e.expected and e.line is not None
    assert parse_setup(base)["hand_limit"] == 10


def test_long_lines_names_and_letters() -> None:
    # PT-C7: a line of at most 400 characters; names of at most 40 printable characters,
    # each once a side (copies repeat a card); Point letters A to Z.
    e = err(parse_locals, "# " + "x" * 500 + "\n")
    assert "at most 400 characters" in e.expected and e.line == 1
    e = err(parse_locals, "R" * 41 + " | 1 | 1 | - | 1\n")
    assert "at most 40 printable" in e.expected
    e = err(parse_locals, "Rong\tbis | 1 | 1 | - | 1\n")
    assert "printable" in e.expected
    e = err(
        parse_units, "vpa | Zulu | blocking | 3 | 2 | - | 1\nvpa | zulu | line | 1 | 1 | - | 1\n"
    )
    assert e.line == 2 and "each card name once (line 1" in e.expected
    # Not a collision: the same name on the other side.
    assert (
        len(
            parse_units(
                "vpa | Zulu | line | 1 | 1 | - | 1\nvietnam | Zulu | line | 1 | 1 | - | 1\n"
            )
        )
        == 2
    )
    e = err(parse_points, "\u00c4 | 1 | 1\nB | 1 | 1\nC | 1 | 1\n")  # Ä
    assert "A to Z" in e.expected


def test_card_files_are_read_through_the_bounded_reader(tmp_path: Path) -> None:
    # PT-C7: a card file that is binary, not UTF-8 or too large is one BadDataError
    # naming the file; the shipped folder reads as load_cards() does.
    folder = resources.files("fogofwar").joinpath("data", "rock-n-roll")
    assert parse_card_files(read_card_files(folder)) == load_cards()
    for name in FILES:
        (tmp_path / name).write_bytes(folder.joinpath(name).read_bytes())
    assert parse_card_files(read_card_files(tmp_path)) == load_cards()
    (tmp_path / "units.cards").write_bytes(b"vpa | Zulu\x00 | line | 1 | 1 | - | 1\n")
    with pytest.raises(BadDataError) as info:
        read_card_files(tmp_path)
    assert info.value.file == "units.cards" and info.value.line == 1
    (tmp_path / "units.cards").write_bytes(b"\xff\xfe")
    with pytest.raises(BadDataError) as info:
        read_card_files(tmp_path)
    assert "UTF-8" in info.value.expected
    (tmp_path / "units.cards").write_bytes(b"#" * (DATA_FILE_LIMIT + 1))
    with pytest.raises(BadDataError) as info:
        read_card_files(tmp_path)
    assert "at most 1 MiB" in info.value.expected
    (tmp_path / "units.cards").unlink()
    with pytest.raises(BadDataError) as info:
        read_card_files(tmp_path)
    assert info.value.file == "units.cards"
