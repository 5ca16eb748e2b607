"""The error family: types, attributes, messages, and pickling across processes."""

from __future__ import annotations

import pickle

import pytest

from fogofwar.core.errors import (
    BadDataError,
    IllegalActionError,
    InvalidNotationError,
    RulesError,
)


def test_family_is_value_error() -> None:
    for cls in (IllegalActionError, InvalidNotationError, BadDataError):
        assert issubclass(cls, RulesError)
    assert issubclass(RulesError, ValueError)


def test_illegal_action_carries_action_seat_reason_rule() -> None:
    e = IllegalActionError("step N3", "N3 is a building", seat="agent", rule="SO-A1")
    assert (e.action, e.seat, e.reason, e.rule) == ("step N3", "agent", "N3 is a building", "SO-A1")
    assert str(e) == "illegal action step N3 by agent: N3 is a building [SO-A1]"
    bare = IllegalActionError("x", "why")
    assert bare.seat is None and bare.rule is None and str(bare) == "illegal action x: why"


def test_invalid_notation_position() -> None:
    e = InvalidNotationError("3d", "expected faces", position=2)
    assert e.position == 2 and "column 3" in str(e)


def test_a_long_input_is_quoted_around_the_problem_not_whole() -> None:
    # A pasted page is refused in one readable line: the 80 characters around the
    # problem, its column in the whole input, and the input's length; `text` keeps it all.
    text = "step " + "Q" * 2000 + " stop " + "x" * 3000
    e = InvalidNotationError(text, "expected a row number", position=2005)
    message = str(e)
    assert len(message) < 200 and e.text == text
    assert "column 2006" in message and "(5,011 characters)" in message
    assert message.count("…") == 2 and "Q stop xx" in message
    head = str(InvalidNotationError("y" * 500, "expected an action"))
    assert head.startswith("invalid notation '" + "y" * 80 + "'… (500 characters):")
    short = "3d"
    assert str(InvalidNotationError(short, "expected faces")) == (
        "invalid notation '3d': expected faces"
    )


def test_bad_data_names_file_line_column() -> None:
    e = BadDataError("b.board", "a legend character", line=4, column=7, found="x")
    assert (e.file, e.line, e.column, e.expected, e.found) == (
        "b.board",
        4,
        7,
        "a legend character",
        "x",
    )
    assert str(e) == "b.board:4:7: expected a legend character, found 'x'"
    assert str(BadDataError("f", "json")) == "f: expected json"


@pytest.mark.parametrize(
    "error",
    [
        IllegalActionError("a", "r", seat="s", rule="SO-X1"),
        InvalidNotationError("t", "r", position=1),
        BadDataError("f", "e", line=2, column=3, found="z"),
    ],
)
def test_errors_pickle_with_their_notes(error: RulesError) -> None:
    # Batch workers send errors back pickled; attributes and notes must survive.
    error.add_note("in game 7")
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is type(error)
    assert str(back) == str(error)
    assert vars(back) == vars(error)
    assert back.__notes__ == ["in game 7"]
