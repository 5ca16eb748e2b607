"""Input that must never crash: the notation (any text gives actions or one
InvalidNotationError saying what was expected) and the card files (PT-C7: any mutation
of the shipped files loads or is one BadDataError, quickly — never another exception,
a MemoryError or a hang)."""

from __future__ import annotations

import contextlib
import re
import tempfile
import time
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fogofwar.core.errors import BadDataError, InvalidNotationError, RulesError
from fogofwar.core.game import Action
from fogofwar.core.rng import stream
from fogofwar.games.rock_n_roll.cards import FILES, parse_card_files, read_card_files
from fogofwar.games.rock_n_roll.ruleset import NOTATION
from fogofwar.games.rock_n_roll.state import RockNRollState

from .helpers import RS, V, fresh

FUZZ = settings(
    deadline=None,
    max_examples=150,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
STATE = fresh(3)
FOLDER = resources.files("fogofwar").joinpath("data", "rock-n-roll")
SHIPPED = {name: FOLDER.joinpath(name).read_bytes() for name in FILES}

#: Text that looks like notation and text that does not: digits of other scripts,
#: superscripts, circled numbers, control characters, very long words.
WEIRD = st.sampled_from(
    ["\u2460", "\u00b2", "\u0663", "\x00", "\x1b", "\u212a", "\ufeff", "\u2028", "9" * 5000]
)
WORDS = st.sampled_from(
    [*NOTATION, "V3", "p7", "VO12", "a", "C", "rd", "turn", "deck", "2", "99999", "-1"]
)
NOTATION_TEXT = st.one_of(
    st.text(),
    st.text(max_size=3000),
    st.lists(st.one_of(WORDS, WEIRD, st.text(max_size=4)), max_size=6).map(" ".join),
)


@FUZZ
@given(text=NOTATION_TEXT)
def test_notation_is_total(text: str) -> None:
    # PT-C3's actions in notation: any text gives actions, or one InvalidNotationError
    # that says what was expected; the actions it gives are then legal or refused by
    # the rules (a RulesError), never anything else.
    try:
        actions = RS.parse_actions(text, V, STATE)
    except InvalidNotationError as exc:
        assert exc.reason.startswith("expected")
        return
    assert len(actions) == 1 and isinstance(actions[0], Action)
    assert actions[0].kind in NOTATION
    for arg in actions[0].args:
        assert isinstance(arg, int) or (arg.isascii() and arg.isalnum())
    trial = STATE.clone()
    with contextlib.suppress(RulesError):
        trial.apply(actions[0])


@pytest.mark.parametrize("text", ["pour \u2460", "pour \u00b2", "pour \u0663", "pour 2\x00"])
def test_non_ascii_digits_are_refused_not_crashed(text: str) -> None:
    # The reported crash: '①'.isdigit() is true but int('①') fails.
    with pytest.raises(InvalidNotationError) as info:
        RS.parse_actions(text, V, STATE)
    assert "pour N" in info.value.reason and info.value.position == 5


def test_notation_forms() -> None:
    # Each kind's forms parse; a wrong word is pointed at, with what was expected.
    assert RS.parse_actions("deal return v3", V, STATE) == [Action(V, "deal", ("return", "V3"))]
    assert RS.parse_actions("take DECK", V, STATE) == [Action(V, "take", ("deck",))]
    assert RS.parse_actions("goal a c", V, STATE) == [Action(V, "goal", ("A", "C"))]
    with pytest.raises(InvalidNotationError) as info:
        RS.parse_actions("deploy V3 AB", V, STATE)
    assert info.value.position == 10 and "deploy UNIT POINT" in info.value.reason
    with pytest.raises(InvalidNotationError) as info:
        RS.parse_actions("dance V3", V, STATE)
    assert info.value.position == 0 and "deploy" in info.value.reason
    with pytest.raises(InvalidNotationError) as info:
        RS.parse_actions("end now", V, STATE)
    assert "'end'" in info.value.reason


# ------------------------------------------------------------------ card files (PT-C7)


def _splice(lines: list[bytes], i: int, new: list[bytes], drop: int = 1) -> bytes:
    """The text of ``lines`` with ``drop`` lines at ``i`` replaced by ``new``."""
    return b"\n".join([*lines[:i], *new, *lines[i + drop :]])


@st.composite
def mutated(draw: st.DrawFn) -> dict[str, bytes]:
    """The shipped card files with one to three mutations: a number made huge, negative,
    another script's digit or text; a line repeated, dropped, cut, swapped or made very
    long; a field added; a name changed; random bytes inserted."""
    files = dict(SHIPPED)
    kinds = ["number", "repeat", "drop", "cut", "long", "bytes", "field", "swap", "name"]
    for _ in range(draw(st.integers(1, 3))):
        name = draw(st.sampled_from(FILES))
        data = files[name]
        kind = draw(st.sampled_from(kinds))
        lines = data.split(b"\n")
        i = draw(st.integers(0, len(lines) - 1))
        line = lines[i]
        if kind == "number":
            numbers = list(re.finditer(rb"[0-9]+", data))
            if numbers:
                m = draw(st.sampled_from(numbers))
                new = draw(
                    st.sampled_from(
                        [b"99999999", b"0", b"-1", b"9" * 400, "\u0663".encode(), b"1_0", b"x"]
                    )
                    | st.integers(-5, 200).map(lambda n: str(n).encode())
                )
                data = data[: m.start()] + new + data[m.end() :]
        elif kind == "repeat":
            data = _splice(lines, i, [line] * draw(st.integers(2, 80)))
        elif kind == "drop":
            data = _splice(lines, i, [])
        elif kind == "cut":
            data = _splice(lines, i, [line[: draw(st.integers(0, len(line)))]])
        elif kind == "long":
            data = _splice(lines, i, [line + b"x" * draw(st.integers(1, 5000))])
        elif kind == "bytes":
            at = draw(st.integers(0, len(data)))
            data = data[:at] + draw(st.binary(min_size=1, max_size=8)) + data[at:]
        elif kind == "field":
            data = _splice(lines, i, [line + draw(st.sampled_from([b" | 1", b"|", b" | -"]))])
        elif kind == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
            data = b"\n".join(lines)
        else:
            word = draw(st.sampled_from([b"Zulu", b"zulu", "\u00c4".encode(), b"R" * 60, b"\t"]))
            data = _splice(lines, i, [re.sub(rb"[A-Za-z]+", word, line, count=1)])
        files[name] = data
    return files


@settings(FUZZ, max_examples=120)
@given(files=mutated(), seed=st.integers(0, 50))
def test_mutated_card_files_load_or_fail_cleanly(files: dict[str, bytes], seed: int) -> None:
    # PT-C7: either the cards load (and a match runs on them), or one BadDataError names
    # the file (and the line, for a bad field) — quickly.
    with tempfile.TemporaryDirectory() as tmp:
        for name, data in files.items():
            (Path(tmp) / name).write_bytes(data)
        start = time.perf_counter()
        try:
            cards = parse_card_files(read_card_files(tmp))
        except BadDataError as exc:
            assert exc.file in FILES
            assert time.perf_counter() - start < 5.0
            return
        assert time.perf_counter() - start < 5.0
    state = RockNRollState(RS, RS.resolve_config({"rounds": 2}), cards, seed)
    pick = stream(seed, "fuzz-cards")
    for _ in range(60):
        if state.is_over:
            break
        seat = sorted(state.to_act())[0]
        state.apply(pick.choice(state.legal_actions(seat)))
