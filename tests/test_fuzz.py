"""The fuzzer (``fogofwar fuzz``) on every rule set, short runs; and damaged data files
of every format. The long runs are ``bench/fuzz.py``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fogofwar.cli import main
from fogofwar.core.errors import BadDataError, RulesError
from fogofwar.core.files import decode_text
from fogofwar.core.game import Action, Event, State, get_ruleset, registered_rulesets
from fogofwar.core.rng import stream
from fogofwar.sim.fuzz import FuzzReport, fuzz
from fogofwar.sim.tamper import check_formats, check_loader
from tests.example_game import HideAndSeek, HideAndSeekState

# Every registered rule set with the configurations people play; the plug-in example too.
CONFIGS: list[tuple[str, dict[str, Any], int]] = [
    ("specter-ops", {}, 3000),
    ("specter-ops", {"characters": False, "players": 2}, 1500),
    ("specter-ops", {"players": 4, "characters": True}, 600),
    ("specter-ops", {"players": 5, "characters": True}, 500),
    ("zero-dark", {}, 800),
    ("zero-dark", {"mode": "versus", "map": "zd-open"}, 800),  # tasks: at the table (ZD-B4)
    ("zero-dark", {"mission": "the-spy"}, 600),
    ("rock-n-roll", {}, 2500),
    ("warfighter", {}, 3000),
    ("tests.example_game:HideAndSeek", {}, 3000),
]


def _check(report: FuzzReport) -> None:
    assert report.ok, [f.to_json() for f in report.findings]
    assert report.applied > 0 and report.refused > report.inputs // 3
    assert set(report.by_source) == {
        "mutant",
        "other-seat",
        "notation",
        "json",
        "index",
        "junk",
    }


@pytest.mark.parametrize(("ruleset", "config", "inputs"), CONFIGS)
def test_fuzzing_finds_no_crash_and_no_broken_promise(
    ruleset: str, config: dict[str, Any], inputs: int
) -> None:
    report = fuzz(get_ruleset(ruleset), config, inputs=inputs, seed=1)
    _check(report)
    if not ruleset.startswith("tests."):
        # A built-in rule set names the rule of every refusal of a well-formed action by a
        # seat that may act (the example game is deliberately plainer).
        assert report.ruleless == {}


def test_every_built_in_rule_set_is_fuzzed() -> None:
    built_in = {
        rs.id
        for rs in registered_rulesets().values()
        if type(rs).__module__.startswith("fogofwar.games")
    }
    assert (
        {r for r, _, _ in CONFIGS}
        >= built_in
        == {
            "specter-ops",
            "zero-dark",
            "rock-n-roll",
            "warfighter",
        }
    )


def test_the_same_seed_throws_the_same_inputs() -> None:
    rs = get_ruleset("warfighter")
    a, b = fuzz(rs, inputs=400, seed=5), fuzz(rs, inputs=400, seed=5)
    assert (a.applied, a.refused, a.games, a.by_source) == (
        b.applied,
        b.refused,
        b.games,
        b.by_source,
    )


# --------------------------------------------------------------------------- planted bugs
# The fuzzer must be able to fail: each broken game below is caught.


class _CrashingParser(HideAndSeek):
    aliases = ()
    id = "fuzz-crashing-parser"

    def parse_actions(self, text: str, seat: str, state: State) -> list[Action]:
        if "²" in text:
            raise KeyError(text)  # a parser that is not total
        return super().parse_actions(text, seat, state)


class _ExplainerThatChanges(HideAndSeekState):
    def explain_illegal(self, action: Action) -> tuple[str, str | None]:
        self.round += 1  # a refusal that changes the game
        return super().explain_illegal(action)


class _ChangingRefusals(HideAndSeek):
    aliases = ()
    id = "fuzz-changing-refusals"

    def new_game(self, config: Any = None, seed: int | str = 0) -> State:
        state = super().new_game(config, seed)
        state.__class__ = _ExplainerThatChanges
        return state


class _MissingIndex(HideAndSeek):
    aliases = ()
    id = "fuzz-missing-index"

    def encoding(self, config: Any = None) -> Any:
        full = super().encoding(config)
        from fogofwar.core.game import ActionEncoding

        return ActionEncoding(t for t in full._templates if t != ("stop", ()))


class _RulelessStateApply(HideAndSeekState):
    def apply_unchecked(self, action: Action) -> list[Event]:
        if action.kind == "dodge":
            raise ValueError("dodge broke")  # a legal action that crashes the umpire
        return super().apply_unchecked(action)


class _CrashingApply(HideAndSeek):
    aliases = ()
    id = "fuzz-crashing-apply"

    def new_game(self, config: Any = None, seed: int | str = 0) -> State:
        state = super().new_game(config, seed)
        state.__class__ = _RulelessStateApply
        return state


@pytest.mark.parametrize(
    ("ruleset", "kind"),
    [
        (_CrashingParser(), "crash"),
        (_ChangingRefusals(), "changed"),
        (_MissingIndex(), "encoding"),
        (_CrashingApply(), "crash"),
    ],
)
def test_the_fuzzer_catches_planted_bugs(ruleset: HideAndSeek, kind: str) -> None:
    report = fuzz(ruleset, inputs=3000, seed=2)
    assert not report.ok and report.counts.get(kind, 0) > 0, report.counts
    finding = next(f for f in report.findings if f.kind == kind)
    assert finding.message and finding.game_seed >= 0


# --------------------------------------------------------------------------- the command


def test_the_fuzz_command(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["fuzz", "tests.example_game:HideAndSeek", "-n", "500", "--records", "20", "--json"]
    )
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["inputs"] == 500 and data["crashes"] == data["violations"] == 0
    assert data["records"]["trials"] == 20 and data["records"]["broken"] == []
    code = main(["fuzz", "warfighter", "-n", "300"])
    out = capsys.readouterr().out
    assert code == 0 and "inputs per second" in out


def test_the_fuzz_command_exits_1_on_a_finding(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["fuzz", "tests.test_fuzz:_CrashingParser", "-n", "2000"])
    out = capsys.readouterr().out
    assert code == 1 and "crash" in out and "KeyError" in out


# --------------------------------------------------------------------------- data files


@pytest.mark.parametrize("ruleset", ["specter-ops", "zero-dark", "rock-n-roll", "warfighter"])
def test_damaged_data_files_load_or_fail_cleanly(ruleset: str) -> None:
    # Every shipped board, card and mission file, damaged (bytes, lines, huge numbers,
    # binary junk, cut short): it loads, or fails with one BadDataError.
    rs = get_ruleset(ruleset)
    assert rs.data_formats()
    tried, broken = check_formats(rs, stream(3, "damage", ruleset), trials=30)
    assert tried >= 30 and broken == []


def test_a_loader_that_crashes_is_caught() -> None:
    def fragile(b: bytes) -> object:
        text = decode_text(b, file="f")
        if "9999" in text:
            raise OverflowError("too big")
        raise BadDataError("f", "nothing")

    broken = check_loader(fragile, "copies 3\n" * 5, stream(1, "fragile"), trials=200)
    assert broken and broken[0][1].startswith("OverflowError")


# --------------------------------------------------------------------------- options

_TEXT = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=300
) | st.sampled_from(["", "x" * 5000, "/dev/zero", "/", "..", "a\x00b", "grunt=9" * 50])


@pytest.mark.parametrize("ruleset", ["specter-ops", "zero-dark", "rock-n-roll", "warfighter"])
def test_any_text_for_any_option_sets_up_a_game_or_is_one_rules_error(ruleset: str) -> None:
    # Every option, given any text as --set gives it: a game, or a RulesError (one line
    # at the command line) — no other exception, no hang, no MemoryError.
    rs = get_ruleset(ruleset)

    @settings(max_examples=40, deadline=None)
    @given(st.sampled_from([o.name for o in rs.config_schema.options]), _TEXT)
    def one(name: str, text: str) -> None:
        try:
            overrides = rs.config_schema.parse_sets([f"{name}={text}"])
            rs.new_game(rs.resolve_config(overrides), 1)
        except RulesError as exc:
            assert str(exc) and "\n" not in str(exc)

    one()
