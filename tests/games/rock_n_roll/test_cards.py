"""Cards as data (PT-C7, PT-C8): the shipped files, the format, one test per error kind."""

from __future__ import annotations

from importlib import resources

import pytest

from fogofwar.core.errors import BadDataError
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
    assert e.line == 1 and "strength: an integer" in e.expected and e.found == "two"


def test_error_integer_below_minimum() -> None:
    e = err(parse_locals, "\n\nRong | 0 | 1 | sentinel | 1\n")
    assert e.line == 3 and "at least 1" in e.expected


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
    assert "an integer after captures" in e.expected


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
