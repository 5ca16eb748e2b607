"""Trust: the game's secret, commit and reveal, ``fogofwar verify``, records that cannot
fool the umpire."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from fogofwar.cli import main
from fogofwar.commands.play import TerminalGame, default_record_path
from fogofwar.core.errors import (
    BadDataError,
    IllegalActionError,
    InvalidNotationError,
    MalformedActionError,
    RulesError,
)
from fogofwar.core.game import Action, get_ruleset
from fogofwar.core.record import (
    Record,
    Recorder,
    TamperedRecordError,
    verify_record,
)
from fogofwar.core.rng import Streams, check_seed, stream
from fogofwar.core.secret import SECRET_BITS, commitment, matches, new_secret
from fogofwar.sim.runner import run_batch
from fogofwar.sim.tamper import check_tampering, tamper_record
from tests.example_game import EXAMPLE

BUILTIN = ("specter-ops", "zero-dark", "rock-n-roll", "warfighter")


def finished(ruleset: str = "warfighter", seed: int = 3) -> Record:
    """The record of a finished bot game."""
    record = run_batch(get_ruleset(ruleset), games=1, seed=seed, records=True).games[0].record
    assert record is not None and record.outcome is not None
    return record


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --------------------------------------------------------------------------- the secret


def test_a_fresh_secret_has_256_bits_from_secrets() -> None:
    secrets_drawn = {new_secret() for _ in range(200)}
    assert len(secrets_drawn) == 200
    for s in secrets_drawn:
        assert len(s) * 4 == SECRET_BITS >= 128
        assert check_seed(s) == s


def test_a_number_written_as_text_is_refused_as_a_number() -> None:
    # The lobby's seed field sends "-5" as text, which was refused as "a secret of 32
    # to 128 lowercase hex digits": no help to someone who typed a number.
    for text in ("-5", "-18446744073709551616", "7"):
        with pytest.raises(RulesError, match=r"an integer from 0 to 2\*\*64 - 1"):
            check_seed(text)
    digits = "1" * 32  # 32 hex digits that are all decimal ones: a secret all the same
    assert check_seed(digits) == digits
    with pytest.raises(RulesError, match="hex digits"):
        check_seed("-" + "a" * 32)


def test_the_commitment_is_a_domain_separated_sha256_anyone_can_compute() -> None:
    secret = new_secret()
    # What the docs tell a player to run: printf 'fogofwar-commitment-v1\0s:%s' SECRET | sha256sum
    by_hand = hashlib.sha256(b"fogofwar-commitment-v1\x00s:" + secret.encode()).hexdigest()
    assert commitment(secret) == by_hand and matches(secret, by_hand)
    assert commitment(12345) == hashlib.sha256(b"fogofwar-commitment-v1\x00i:12345").hexdigest()
    assert not matches(new_secret(), by_hand)
    # Domain separation: not the plain hash of the secret.
    assert commitment(secret) != hashlib.sha256(secret.encode()).hexdigest()


@pytest.mark.parametrize("seed", [10**100, 2**64, -5, "", "a-seed", "AB" * 16, "ab" * 65, "g" * 32])
def test_seeds_out_of_range_are_refused(seed: object) -> None:
    with pytest.raises(RulesError):
        Streams(seed)  # type: ignore[arg-type]
    data = finished().to_json()
    data["seed"] = seed
    with pytest.raises(BadDataError, match='"seed": an integer from 0 to 2\\*\\*64 - 1'):
        Record.loads(json.dumps(data), source="r.json")


def test_bools_and_floats_are_not_seeds() -> None:
    for seed in (True, 1.5, None):
        with pytest.raises(TypeError):
            Streams(seed)  # type: ignore[arg-type]


def test_a_recorder_without_a_seed_plays_a_secret_game() -> None:
    a, b = Recorder(EXAMPLE), Recorder(EXAMPLE)
    assert not a.seeded and a.commitment != b.commitment
    record = a.record()
    assert isinstance(record.seed, str) and len(record.seed) == 64
    assert matches(record.seed, a.commitment)
    seeded = Recorder(EXAMPLE, {}, 7)
    assert seeded.seeded and seeded.record().seed == 7


@pytest.mark.parametrize("ruleset", BUILTIN)
def test_no_view_and_no_event_carries_the_secret(ruleset: str) -> None:
    # A seat's view and every event it receives: never the secret, nor its commitment
    # (which is shown beside the game, not derived into it).
    rs = get_ruleset(ruleset)
    rec = Recorder(rs)
    secret = str(rec.record().seed)
    pick = stream(1, "trust", ruleset)
    seats = [*rs.seats(rec.config), None]
    for _ in range(120):
        if rec.state.is_over:
            break
        seat = sorted(rec.state.to_act())[0]
        events = rec.apply(pick.choice(list(rec.state.legal_actions(seat))))
        texts = [json.dumps(e.to_json()) for e in events]
        texts += [rec.state.view(s).canonical() for s in seats]
        for text in texts:
            assert secret not in text and rec.commitment not in text


def test_the_record_file_name_never_carries_the_seed(tmp_path: Path) -> None:
    first = default_record_path("specter-ops", tmp_path)
    first.write_text("{}")
    second = default_record_path("specter-ops", tmp_path)
    assert first != second and second.name.startswith("specter-ops-")
    assert first.name[len("specter-ops-") :].replace("-", "").replace(".json", "").isdigit()


def _scripted_game(tmp_path: Path, seed: int | None) -> tuple[TerminalGame, str]:
    """A whole example game at the terminal, the person typing the first legal action;
    returns the game and everything the screen showed."""
    screen = io.StringIO()
    console = Console(file=screen, width=100, force_terminal=False, color_system=None)
    holder: list[TerminalGame] = []

    def read(prompt: str) -> str:
        game = holder[0]
        seat = sorted(game.state.to_act())[0]
        return str(game.state.legal_actions(seat)[0])

    game = TerminalGame(
        EXAMPLE,
        EXAMPLE.resolve_config({}),
        seed,
        {seat: "human" for seat in EXAMPLE.seats()},
        console=console,
        record_path=tmp_path / "game.json",
        read=read,
    )
    holder.append(game)
    game.announce()
    assert game.run() == 0
    return game, screen.getvalue()


def test_a_played_game_shows_the_commitment_first_and_the_secret_only_at_the_end(
    tmp_path: Path,
) -> None:
    _, shown = _scripted_game(tmp_path, None)
    record = Record.load(tmp_path / "game.json")
    secret = str(record.seed)
    before_end, _, after_end = shown.partition("the game is over")
    assert record.commitment is not None and record.commitment in before_end
    assert secret not in before_end and "seeded" not in before_end
    assert secret in after_end and "fogofwar verify" in after_end
    assert verify_record(record).verified and not record.seeded


def test_a_seeded_game_says_that_the_seed_gives_its_secrets_away(tmp_path: Path) -> None:
    _, shown = _scripted_game(tmp_path, 11)
    assert "This game is seeded" in shown and "knows every" in shown
    record = Record.load(tmp_path / "game.json")
    verdict = verify_record(record)
    assert record.seeded and verdict.verified
    assert "seeded" in verdict.checks[0]


def test_play_refuses_a_seed_out_of_range(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "play", "warfighter", "--seed", str(2**64))
    assert code == 2 and "seed" in err and err.count("\n") == 1


# --------------------------------------------------------------------------- verify


def test_verify_confirms_a_finished_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = finished("rock-n-roll")
    # A file name that looks like console markup is printed as it is.
    path = tmp_path / "[red]g.json"
    record.save(path)
    code, out, _ = run(capsys, "verify", str(path))
    assert code == 0 and "verified:" in out and "matches the commitment" in out
    assert "[red]g.json" in out.replace("\n", "")
    # A batch's game is seeded: said as a warning, not ticked as a check passed.
    assert record.seeded and "! the game was seeded" in out and "✓ the game was" not in out
    code, out, _ = run(capsys, "verify", str(path), "--json")
    data = json.loads(out)
    assert code == 0 and data["verified"] and data["seed"] == record.seed
    assert data["actions"] == len(record.actions) and data["finished"]


def test_verify_warns_of_a_secret_too_small_to_be_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A record that calls its seed a secret ("seeded": false) with fewer bits than the
    # umpire's 256 (an audit made one by hand): still verified, with a warning that the
    # secret could be found from the commitment; the umpire's own secret games have none.
    rs = get_ruleset("warfighter")
    weak = Recorder(rs, {}, 42, seeded=False)
    weak.apply(weak.state.legal_actions("squad")[0])
    weak.record().save(tmp_path / "weak.json")
    code, out, _ = run(capsys, "verify", str(tmp_path / "weak.json"))
    assert code == 0 and "verified:" in out
    assert "! the game's secret is weak" in out and "at most 6 bits" in " ".join(out.split())
    strong = Recorder(rs, {})
    strong.apply(strong.state.legal_actions("squad")[0])
    assert not any("weak" in c for c in verify_record(strong.record()).checks)
    # A number seed is at most 64 bits (check_seed): weak for a secret; 32 hex digits
    # (128 bits, the fewest a text seed may have) are not.
    for seed, warned in ((2**64 - 1, True), ("a" * 32, False)):
        rec = Recorder(rs, {}, seed, seeded=False)
        assert any("weak" in c for c in verify_record(rec.record()).checks) == warned


def test_verify_names_the_first_action_of_a_tampered_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Two actions swapped where both are still legal: the chain breaks at the first.
    record = finished("warfighter")

    def swapped(i: int) -> dict[str, object]:
        data = record.to_json()
        data["actions"][i], data["actions"][i + 1] = data["actions"][i + 1], data["actions"][i]
        return data

    def still_legal(i: int) -> bool:
        try:
            Record.loads(json.dumps(swapped(i))).replay()
        except TamperedRecordError:
            return True
        except BadDataError:
            return False
        return False

    i = next(i for i in range(len(record.actions) - 1) if still_legal(i))
    path = tmp_path / "t.json"
    path.write_text(json.dumps(swapped(i)), encoding="utf-8")
    code, out, _ = run(capsys, "verify", str(path))
    # Counted from 1, as `replay --step` titles its steps ("after action N of ...").
    assert code == 1 and "not verified" in out and f"action {i + 1} " in out
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2 and f"action {i + 1} " in err and err.count("\n") == 1
    with pytest.raises(TamperedRecordError) as info:
        Record.load(path).replay()
    assert info.value.index == i


def test_verify_an_unfinished_game_without_showing_its_secret(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = Recorder(get_ruleset("warfighter"))
    rec.apply(rec.state.legal_actions("squad")[0])
    path = tmp_path / "u.json"
    rec.record().save(path)
    assert path.stat().st_mode & 0o077 == 0  # it holds the secret: the owner's only
    code, out, _ = run(capsys, "verify", str(path), "--json")
    data = json.loads(out)
    assert code == 0 and data["verified"] and not data["finished"] and data["seed"] is None


@pytest.mark.parametrize("removed", ["null", "deleted"])
def test_a_finished_game_whose_outcome_was_removed_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], removed: str
) -> None:
    # Its actions finish the game: without the outcome it would pass for an unfinished
    # game (verify "as far as it was played", resumed by play, replayed from one seat).
    data = finished("warfighter", seed=5).to_json()
    if removed == "null":
        data["outcome"] = None
    else:
        del data["outcome"]
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, _ = run(capsys, "verify", str(path))
    assert code == 1 and "not verified" in out and "a finished game" in out
    code, _, err = run(capsys, "replay", str(path), "--seat", "squad")
    assert code == 2 and "a finished game" in err
    code, _, err = run(capsys, "play", "--resume", str(path))
    assert code == 2 and "a finished game" in err


def test_a_format_1_record_replays_but_cannot_be_verified(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = finished().to_json()
    for key in ("seeded", "commitment", "digests"):
        del data[key]
    data["version"] = 1
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    record = Record.load(path)
    assert record.replay().outcome() == record.outcome
    code, out, _ = run(capsys, "verify", str(path))
    assert code == 1 and "cannot be verified" in out


def test_meta_is_not_vouched_for_but_everything_else_is() -> None:
    record = finished()
    data = record.to_json()
    data["meta"] = {"players": "someone else"}
    assert verify_record(Record.loads(json.dumps(data))).verified
    data["seeded"] = not data["seeded"]
    assert not verify_record(Record.loads(json.dumps(data))).verified


@pytest.mark.parametrize("ruleset", [*BUILTIN, "tests.example_game:HideAndSeek"])
def test_tampered_records_never_verify(ruleset: str) -> None:
    # Generated tampering (swaps, copies, drops, seeds, configs, forged digests, outcomes,
    # damaged text): every copy is refused, with a BadDataError or a failed verification,
    # unless only what the chain does not vouch for changed.
    record = finished(ruleset, seed=5)
    report = check_tampering(record, stream(2, "tamper-test", ruleset), trials=40)
    assert report.ok, report.broken
    assert report.refused >= 30 and report.trials == 40


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**40))
def test_one_tampered_copy_is_refused_or_unchanged(key: int) -> None:
    record = _EXAMPLE_RECORD
    what, text = tamper_record(record.to_json(), stream(key, "one-tamper"))
    try:
        copy = Record.loads(text)
        verdict = verify_record(copy)
    except BadDataError:
        return
    if verdict.verified:
        assert (copy.seed, copy.actions, copy.digests, copy.outcome) == (
            record.seed,
            record.actions,
            record.digests,
            record.outcome,
        ), what


_EXAMPLE_RECORD = finished("tests.example_game:HideAndSeek", seed=9)


# --------------------------------------------------------------------------- record fields


def test_deeply_nested_json_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2 and "nested" in err and err.count("\n") == 1
    path.write_text('{"format": "fogofwar-record", "version": ' + "9" * 5000 + "}")
    code, _, err = run(capsys, "verify", str(path))
    assert code == 2 and err.count("\n") == 1


def test_a_record_must_name_every_option() -> None:
    # A Zero Dark config without its mission used to replay with the default map.
    record = finished("zero-dark")
    config = dict(record.config)
    del config["mission"]
    data = {**record.to_json(), "config": config}
    with pytest.raises(BadDataError, match="no mission"):
        Record.loads(json.dumps(data)).replay()


def test_a_record_longer_than_its_game_can_be_is_refused() -> None:
    record = finished()
    rs = get_ruleset(record.ruleset)
    data = record.to_json()
    data["actions"] = data["actions"] * (rs.metadata.max_length // len(record.actions) + 1)
    data["digests"] = ["0" * 16] * len(data["actions"])
    with pytest.raises(BadDataError, match="at most"):
        Record.loads(json.dumps(data)).replay()


def test_a_recorded_action_that_is_too_long_is_refused() -> None:
    data = finished().to_json()
    data["actions"][0] = {"seat": "squad", "kind": "x" * 500, "args": []}
    with pytest.raises(BadDataError, match=r"actions\[0\]"):
        Record.loads(json.dumps(data))


def test_records_of_every_rule_set_replay_and_verify() -> None:
    for ruleset in BUILTIN:
        record = finished(ruleset, seed=2)
        again = Record.loads(record.dumps())
        assert verify_record(again).verified, ruleset
        assert again.replay().outcome() == record.outcome


def test_an_illegal_action_in_a_record_is_still_named() -> None:
    record = finished()
    data = record.to_json()
    data["actions"][2] = Action("squad", "move", ("S9", "L1")).to_json()
    with pytest.raises(BadDataError, match=r"action 3 \("):
        Record.loads(json.dumps(data)).replay()


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("ruleset", "action", "says", "rule"),
    [
        ("specter-ops", Action("agent", "stop", ("A2",)), "stop takes no arguments", "SO-A1"),
        ("specter-ops", Action("agent", "step", ()), "step takes one neighbouring", "SO-A1"),
        ("specter-ops", Action("agent", "step", ("X99",)), "X99", "SO-A1"),
        ("zero-dark", Action("team", "step", ()), "step takes", "FR-M1"),
        ("zero-dark", Action("team", "stop", ("A2",)), "stop takes", None),
        ("rock-n-roll", Action("vietnam", "deploy", ("V1",)), "deploy takes", "PT-C2"),
        ("warfighter", Action("squad", "move", ("S1",)), "move", "WF-C2"),
    ],
)
def test_a_malformed_action_is_a_notation_error_that_says_what_it_takes(
    ruleset: str, action: Action, says: str, rule: str | None
) -> None:
    # A malformed action is refused as what it is — malformed input — with what the
    # action takes and the rule that defines the action, not as some rule it happens to
    # break where it stands (SO-A3's "may not end on a hunter's square" for `stop A2`).
    state = get_ruleset(ruleset).new_game(None, 3)
    before = {s: state.view(s).canonical() for s in (*state.ruleset.seats(state.config), None)}
    with pytest.raises(MalformedActionError) as info:
        state.apply(action)
    err = info.value
    assert isinstance(err, InvalidNotationError) and isinstance(err, IllegalActionError)
    assert says in err.reason and str(err).startswith("malformed action")
    if rule is not None:
        assert err.rule == rule
    else:
        assert err.rule is not None and err.rule.startswith(("ZD-", "FR-"))
    after = {s: state.view(s).canonical() for s in (*state.ruleset.seats(state.config), None)}
    assert after == before


def test_unknown_seats_and_kinds_are_malformed_too() -> None:
    state = get_ruleset("rock-n-roll").new_game(None, 1)
    with pytest.raises(MalformedActionError, match="no seat 'umpire'"):
        state.apply(Action("umpire", "end"))
    with pytest.raises(MalformedActionError, match="has no action 'castle'"):
        state.apply(Action("vietnam", "castle"))


def test_a_record_of_an_unknown_rule_set_cannot_be_judged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = finished().to_json()
    data["ruleset"] = "warfigh/er"  # one byte changed
    path = tmp_path / "x.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(BadDataError, match="unknown rule set 'warfigh/er'"):
        Record.load(path).replay()
    code, _, err = run(capsys, "verify", str(path))
    assert code == 2 and "a rule set this fogofwar plays" in err and err.count("\n") == 1
