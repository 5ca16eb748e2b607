"""Input that must never crash: the notation (any text gives actions or one
InvalidNotationError saying what was expected), the card and mission files (WF-C6,
WF-C7: any mutation of the shipped files loads or is one BadDataError, quickly — never
another exception, a MemoryError, a RecursionError or a hang), and the options."""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
import time
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fogofwar.core.errors import BadDataError, InvalidNotationError, RulesError
from fogofwar.core.files import DATA_FILE_LIMIT
from fogofwar.core.game import Action
from fogofwar.core.rng import stream
from fogofwar.games.warfighter.cardfile import (
    MAX_LIST,
    MAX_NAME,
    MAX_PATH,
    merge,
    parse_cards,
)
from fogofwar.games.warfighter.ruleset import ENCODING_LIMIT, MAX_LINE_ACTIONS, capacity
from fogofwar.games.warfighter.state import SEAT

from .helpers import BASE, RS

FUZZ = settings(
    deadline=None,
    max_examples=150,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
STATE = RS.new_game({}, 3)
FOLDER = resources.files("fogofwar").joinpath("data", "warfighter")
DAGON = FOLDER.joinpath("dagon.wf").read_bytes()
LIBRARY = FOLDER.joinpath("cards.wf").read_bytes()

WEIRD = st.sampled_from(
    ["\u2460", "\u00b2", "\u0663", "\x00", "\x1b", "\u212a", "\ufeff", "\u2028", "9" * 5000, ";"]
)
WORDS = st.sampled_from(
    ["move", "attack", "pick", "check", "roll", "end", "S1", "s2", "L2", "H1", "K1", "door"]
)
ODD_WORDS = st.sampled_from(["up", "L\u2460", "S\u00b2", "12", "-1"])
NOTATION_TEXT = st.one_of(
    st.text(),
    st.text(max_size=3000),
    st.lists(st.one_of(WORDS, ODD_WORDS, WEIRD, st.text(max_size=4)), max_size=8).map(" ".join),
)


@FUZZ
@given(text=NOTATION_TEXT)
def test_notation_is_total(text: str) -> None:
    # WF-C1..C7's actions in notation: any text gives actions or one
    # InvalidNotationError that says what was expected; each action is then legal or
    # refused by the rules (a RulesError), never anything else.
    try:
        actions = RS.parse_actions(text, SEAT, STATE)
    except InvalidNotationError as exc:
        assert exc.reason.startswith(("expected", "unknown action"))
        assert "expected" in exc.reason
        return
    assert actions and all(isinstance(a, Action) for a in actions)
    trial = STATE.clone()
    for a in actions:
        assert all(isinstance(x, str) and x.isascii() and x.isalnum() for x in a.args)
        with contextlib.suppress(RulesError):
            trial.apply(a)


@pytest.mark.parametrize(
    ("text", "position"),
    [
        ("move S1 L\u2460", 8),
        ("move S1 L\u00b2", 8),
        ("attack S1 H1 d\u00f6or", 13),
        ("m\u00f6ve", 0),
    ],
)
def test_non_ascii_words_are_refused_not_crashed(text: str, position: int) -> None:
    # 'L①'.isdigit() is true but int('①') fails: such words are refused by the parser.
    with pytest.raises(InvalidNotationError) as info:
        RS.parse_actions(text, SEAT, STATE)
    assert info.value.position == position and "expected" in info.value.reason


def test_notation_bounds() -> None:
    # At most MAX_LINE_ACTIONS actions on one line; every part must hold an action.
    assert len(RS.parse_actions("; ".join(["end"] * MAX_LINE_ACTIONS), SEAT, STATE)) == 100
    with pytest.raises(InvalidNotationError) as info:
        RS.parse_actions("; ".join(["end"] * (MAX_LINE_ACTIONS + 1)), SEAT, STATE)
    assert f"at most {MAX_LINE_ACTIONS} actions" in info.value.reason
    with pytest.raises(InvalidNotationError) as info:
        RS.parse_actions("move S1 L2;; end", SEAT, STATE)
    assert info.value.position == 11


# ------------------------------------------------------------- card files (WF-C6, C7)


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    """The Dagon mission file with one to three mutations: a number made huge, negative
    or another script's digit; a line repeated, dropped, cut or made very long; a name
    changed or its case; random bytes."""
    data = DAGON
    kinds = ["number", "repeat", "drop", "cut", "long", "bytes", "name", "swap", "add"]
    for _ in range(draw(st.integers(1, 3))):
        lines = data.split(b"\n")
        i = draw(st.integers(0, len(lines) - 1))
        line = lines[i]
        kind = draw(st.sampled_from(kinds))
        if kind == "number":
            numbers = list(re.finditer(rb"[0-9]+", data))
            m = draw(st.sampled_from(numbers))
            new = draw(
                st.sampled_from(
                    [b"99999999", b"0", b"9" * 5000, "\u0663".encode(), "\u00b2".encode()]
                )
                | st.integers(-3, 120).map(lambda n: str(n).encode())
            )
            data = data[: m.start()] + new + data[m.end() :]
        elif kind == "repeat":
            data = b"\n".join([*lines[:i], *[line] * draw(st.integers(2, 60)), *lines[i + 1 :]])
        elif kind == "drop":
            data = b"\n".join([*lines[:i], *lines[i + 1 :]])
        elif kind == "cut":
            data = b"\n".join(
                [*lines[:i], line[: draw(st.integers(0, len(line)))], *lines[i + 1 :]]
            )
        elif kind == "long":
            tail = draw(st.sampled_from([b"x", b", Cultist", b"; suppress"])) * draw(
                st.integers(1, 3000)
            )
            data = b"\n".join([*lines[:i], line + tail, *lines[i + 1 :]])
        elif kind == "bytes":
            at = draw(st.integers(0, len(data)))
            data = data[:at] + draw(st.binary(min_size=1, max_size=8)) + data[at:]
        elif kind == "name":
            word = draw(
                st.sampled_from([b"deep one", b"DAGON", b"Cultist", b"X" * 80, "\u00c4".encode()])
            )
            data = b"\n".join(
                [*lines[:i], re.sub(rb"[A-Z][a-z]+", word, line, count=1), *lines[i + 1 :]]
            )
        elif kind == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
            data = b"\n".join(lines)
        else:
            extra = draw(
                st.sampled_from(
                    [
                        b"  check: Swim\n  fail: add Drowned Priest; add Drowned Priest",
                        b"  check: Swim +99",
                        b"  check: Swim\n  text: actions +999",
                        b"  check: Swim\n  trap: wound 99999-roll",
                        b"hostile deep one\n  cover: 5\n  hits: 1",
                        b"  door: cover 5, hits \xc2\xb2",
                    ]
                )
            )
            data = b"\n".join([*lines[: i + 1], extra, *lines[i + 1 :]])
    return data


@settings(FUZZ, max_examples=120)
@given(data=mutated(), seed=st.integers(0, 50))
def test_mutated_mission_files_load_or_fail_cleanly(data: bytes, seed: int) -> None:
    # WF-C6, WF-C7: a mission file either loads (and a mission runs on it) or is one
    # BadDataError naming a file — quickly.
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fuzz.wf"
        path.write_bytes(data)
        start = time.perf_counter()
        try:
            config = RS.resolve_config({"mission": str(path)})
            state = RS.new_game(config, seed)
        except BadDataError as exc:
            assert exc.file in (str(path), "fogofwar/data/warfighter/cards.wf")
            assert time.perf_counter() - start < 5.0
            return
        assert time.perf_counter() - start < 5.0
    pick = stream(seed, "fuzz-missions")
    for _ in range(80):
        if state.is_over:
            break
        state.apply(pick.choice(state.legal_actions(SEAT)))


@settings(FUZZ, max_examples=60)
@given(at=st.integers(0, len(LIBRARY)), junk=st.binary(min_size=1, max_size=6))
def test_mutated_library_text_parses_or_fails_cleanly(at: int, junk: bytes) -> None:
    # WF-C6: the card library's parser, given any text near the shipped one.
    text = (LIBRARY[:at] + junk + LIBRARY[at:]).decode("utf-8", "replace")
    try:
        merge(parse_cards(text, file="lib.wf"))
    except BadDataError as exc:
        assert exc.file == "lib.wf"


# ---------------------------------------------------------------- bounds (WF-C6, C7)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("weapon W\n  shots: " + "9" * 5000 + "\n", "shots: a whole number 1 to 10"),
        ("weapon W\n  shots: \u0663\n", "shots: a whole number"),  # ٣
        ("hostile H\n  cover: \u00b2\n  hits: 1\n", "cover: a whole number"),  # ²
        ("hostile H\n  cover: 5\n  hits: 1\n  door: cover \u00b2, hits 1\n", "a Door's values"),
        ("hostile H\n  cover: 5\n  hits: 1\n  door: cover 5, hits 1, pick -11\n", "a Door's"),
        ("location L\n  check: Search +11\n  text: suppress\n", "a modifier -10 to +10"),
        ("location L\n  check: Search +0 +2\n  text: suppress\n", "once"),
        ("location L\n  check: Search\n  text: actions +7\n", "actions +N or actions -N"),
        ("location L\n  check: Search\n  trap: wound 21-roll\n", "wound N or wound N-roll"),
        ("location L\n  check: Search\n  trap: wound \u0663\n", "wound N"),
        ("location L\n  check: Search\n  fail: draw \u0661\u0662\n", "draw N"),
        ("location " + "L" * (MAX_NAME + 1) + "\n", f"at most {MAX_NAME} characters"),
        ("location L\n  hostiles: " + ", ".join(["Grunt"] * (MAX_LIST + 1)) + "\n", "at most"),
        ("location L\n" + "  check: Search\n  text: suppress\n" * 13, "at most 12 checks"),
        ("location L\n  check: Search\n  text: " + "; ".join(["suppress"] * 13) + "\n", "12"),
        (
            "soldier S\n  abilities: "
            + ", ".join(f"A{c} 5+" for c in "abcdefghijklm")
            + "\n  weapon: W\n",
            "at most 12 abilities",
        ),
        ("# " + "x" * 30000 + "\n", "a line of at most"),
    ],
)
def test_every_count_has_a_bound(text: str, expected: str) -> None:
    # WF-C6: each number is ASCII digits within the game's bound, each list and name is
    # bounded; the error names the file and the line.
    with pytest.raises(BadDataError) as err:
        parse_cards(text, file="bad.wf")
    assert err.value.file == "bad.wf" and err.value.line is not None
    assert expected in err.value.expected or expected in str(err.value), str(err.value)
    assert err.value.found is None or len(err.value.found) <= 60


def test_names_that_differ_in_case_or_spacing_collide() -> None:
    # WF-C6: one name per card kind, whatever its case and spacing, in a file and
    # across the library and a mission file; a Hostile and a Location may share one.
    with pytest.raises(BadDataError) as err:
        parse_cards(
            "hostile Deep One\n  cover: 5\n  hits: 1\nhostile deep  one\n  cover: 5\n  hits: 1\n"
        )
    assert err.value.line == 4 and "each hostile name once" in err.value.expected
    lib = parse_cards(BASE, file="base.wf")
    own = parse_cards("hostile GRUNT\n  cover: 5\n  hits: 1\n", file="own.wf")
    with pytest.raises(BadDataError) as err:
        merge(lib, own)
    assert (err.value.file, err.value.line) == ("own.wf", 1)
    assert "also in base.wf" in err.value.expected
    both = merge(lib, parse_cards("location Grunt\n", file="own.wf"))
    assert "Grunt" in both.hostiles and "Grunt" in both.locations
    assert both.files["hostile Grunt"] == "base.wf" and both.files["location Grunt"] == "own.wf"


def test_a_squad_holds_each_soldier_card_once() -> None:
    # WF-C1, WF-C7: a squad of 1 to 6 Soldiers, each card once (whatever its case): two
    # figures of one card would be two Soldiers of one name.
    text = "mission M\n  squad: Able, able\n  start: Camp\n  objective: Goal\n  turns: 3\n"
    with pytest.raises(BadDataError) as err:
        parse_cards(text, file="bad.wf")
    assert err.value.line == 2 and "each card once" in err.value.expected
    assert parse_cards(text.replace("Able, able", "Able, Baker")).missions["m"].squad == (
        "Able",
        "Baker",
    )


def test_a_long_chain_of_adds_is_refused_without_recursion(tmp_path: Path) -> None:
    # WF-C6, WF-C7: Hostiles that add one another in a chain longer than the stack is
    # deep are counted without recursion, and refused past the encoding's limit; a
    # chain within it loads.
    def chain(n: int) -> str:
        cards = "".join(
            f"hostile Link{i}\n  cover: 5\n  hits: 1\n  check: Swim\n  fail: add Link{i + 1}\n"
            for i in range(n)
        )
        cards += f"hostile Link{n}\n  cover: 5\n  hits: 1\n"
        return (
            cards + "location Quay\nlocation Goal\n  hostiles: Link0\n"
            "mission Chain\n  squad: Pvt. Okafor\n  start: Quay\n  objective: Goal\n  turns: 3\n"
        )

    path = tmp_path / "chain.wf"
    path.write_text(chain(5000), encoding="utf-8")
    with pytest.raises(BadDataError) as err:
        RS.resolve_config({"mission": str(path)})
    assert "more than 400 Hostiles" in str(err.value) and err.value.line is not None
    path.write_text(chain(50), encoding="utf-8")
    config = RS.resolve_config({"mission": str(path)})
    assert capacity(*_mission(config))[0] == 51 <= ENCODING_LIMIT


def _mission(config: object) -> tuple[object, object]:
    from fogofwar.games.warfighter.ruleset import mission_of

    mission, library = mission_of(config)  # type: ignore[arg-type]
    return mission, library


# ---------------------------------------------------------------- options (WF-C7)


@pytest.mark.parametrize(
    "name",
    ["a\x00.wf", "x" * (MAX_PATH + 1) + ".wf", "dagon\n", "", "mission\u2028.wf"],
)
def test_the_mission_option_is_checked_before_any_file_is_opened(name: str) -> None:
    # WF-C7: a mission name no file could have (a NUL, a control character, too long,
    # empty) is one BadDataError naming the option, not a ValueError from the OS.
    with pytest.raises(BadDataError) as err:
        RS.resolve_config({"mission": name})
    assert err.value.file == "option mission" and "printable" in err.value.expected
    assert len(str(err.value)) < 400


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_the_mission_option_refuses_directories_and_pipes(tmp_path: Path) -> None:
    # WF-C7: a directory, a named pipe (which would block the read) or a device is not
    # a mission file; a regular file is read through the bounded reader.
    folder = tmp_path / "folder.wf"
    folder.mkdir()
    pipe = tmp_path / "pipe.wf"
    os.mkfifo(pipe)
    for path in (folder, pipe):
        with pytest.raises(BadDataError) as err:
            RS.resolve_config({"mission": str(path)})
        assert err.value.file == str(path) and "regular file" in err.value.expected
    big = tmp_path / "big.wf"
    big.write_bytes(b"#" * (DATA_FILE_LIMIT + 1))
    with pytest.raises(BadDataError) as err:
        RS.resolve_config({"mission": str(big)})
    assert "at most 1 MiB" in err.value.expected
    binary = tmp_path / "bin.wf"
    binary.write_bytes(DAGON.replace(b"turns: 6", b"turns: 6\x00"))
    with pytest.raises(BadDataError) as err:
        RS.resolve_config({"mission": str(binary)})
    assert err.value.file == str(binary) and err.value.line is not None


@pytest.mark.parametrize("digest", ["zz", "0" * 17, "ABCDEF0123456789", "x" * 100_000])
def test_the_mission_digest_option_is_sixteen_hex_digits(digest: str) -> None:
    # WF-C7: the digest a record keeps: empty (filled in) or 16 lowercase hex digits.
    with pytest.raises(RulesError) as err:
        RS.resolve_config({"mission_digest": digest})
    assert "mission_digest" in str(err.value) and len(str(err.value)) < 300
    digest = RS.resolve_config({})["mission_digest"]
    assert RS.resolve_config({"mission_digest": digest})["mission_digest"] == digest
