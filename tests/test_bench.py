"""Every script in ``bench/`` and ``examples/`` runs as its docs say, at tiny sizes.

The benches are how the figures in the docs and notes are made, and their command lines
are written in those docs: a bench that no longer starts, or that reads one option's
value as another argument, breaks every figure made with it. Each script is run here in
its own process with the forms of its command line that the docs use, at sizes that
take a few seconds, and must exit 0 and print its table. Nothing is timed: the figures
themselves are the bench's to print, not the tests' to check. OpenSpiel is hidden from
the scripts, as where the ``openspiel`` extra is not installed (``make test``): its rows
must say so.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"
EXAMPLES = ROOT / "examples"

#: (script, arguments, a text its output must hold): every bench's command-line forms.
RUNS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("bench_card_games.py", ("1",), "actions/s"),
    ("bench_dice.py", ("--quick",), "geometric mean"),
    (
        "bench_ismcts.py",
        ("--speed-only", "--only", "warfighter", "--depth", "5", "--after", "5"),
        "after 5 actions",
    ),
    (
        "bench_ismcts.py",
        ("--only", "warfighter", "--fixed", "2"),
        "rollout=heuristic, depth=20, after 60 actions",
    ),
    (
        "bench_ismcts.py",
        ("1", "--iterations", "2", "--rollout", "random", "--only", "warfighter"),
        "strength: ismcts:iterations=2,rollout=random",
    ),
    (
        "bench_ismcts.py",
        (
            *("1", "--iterations", "2", "--depth", "5", "--only", "warfighter"),
            *("--set", "mission=dagon", "--seat", "squad", "--strength-only"),
        ),
        "warfighter squad",
    ),
    ("bench_map_facts.py", ("--players", "3", "--games", "1", "--repeat", "1"), "a fact"),
    ("bench_map_moves.py", ("--players", "3", "--games", "1"), "agent moves"),
    ("bench_openspiel_peer.py", ("0.05", "--map-cost"), "the possibility maps' cost"),
    ("bench_openspiel_peer.py", ("0.05", "--frozen"), "the loaded objects frozen"),
    ("bench_rl.py", ("0.05",), "steps/s"),
    ("bench_rl.py", ("--parts", "20", "--only", "specter-ops players=3"), "encode"),
    ("bench_rl.py", ("--count", "5", "--only", "warfighter"), ""),
    (
        "bench_root_regret.py",
        ("--games", "1", "--every", "40", "--worlds", "2", "--budget", "2"),
        "regret",
    ),
    ("bench_search_mode.py", ("0.05",), "players"),
    ("bench_server.py", ("--tables", "2", "--seconds", "5"), "p99"),
    (
        "bench_server.py",
        ("--tables", "2", "--seconds", "5", "--workers", "2", "--set", "players=5"),
        "p99",
    ),
    ("bench_sight.py", (), "sampled pairs"),
    ("bench_site_shapes.py", ("--players", "4", "--games", "1"), "parts"),
    ("bench_slowest_apply.py", ("--players", "3", "--games", "1", "--repeat", "1"), "slowest"),
    ("bench_specter_ops.py", ("0.05",), "actions/s"),
    ("bench_specter_ops.py", ("--fixed", "1"), "digest"),
    ("bench_study.py", ("2",), "games/hour"),
    ("bench_study.py", ("--scaling", "4"), "scaling 1->2"),
    ("bench_zero_dark_test.py", ("2",), "10d12"),
    ("fit_evaluation.py", ("warfighter", "6"), "log loss"),
    ("fuzz.py", ("60", "--workers", "1"), "crashes"),
    ("profile_possibility_map.py", ("--actions", "30", "--seconds", "2"), "parts"),
)

#: The examples: (script, arguments, a text its output must hold). The training example
#: trains for 1 s and evaluates 4 games (its figures need minutes: docs/rl.md).
EXAMPLE_RUNS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("train_seat.py", ("1", "4"), "evaluation on 4 new games"),
)

#: Scripts that are not benches of their own (helpers the benches import), and those
#: too long to run here even at their smallest (none yet).
NOT_RUN = {"_args.py", "_forms.py", "_full_collections.py"}


def test_every_script_has_a_run() -> None:
    """A new bench or example gets its tiny run in :data:`RUNS` or :data:`EXAMPLE_RUNS`."""
    scripts = {p.name for p in BENCH.glob("*.py")} - NOT_RUN
    assert scripts == {script for script, _, _ in RUNS}
    assert {p.name for p in EXAMPLES.glob("*.py")} == {s for s, _, _ in EXAMPLE_RUNS}


@pytest.mark.parametrize(
    "script",
    sorted({BENCH / s for s, _, _ in RUNS} | {EXAMPLES / s for s, _, _ in EXAMPLE_RUNS}),
    ids=lambda p: p.name,
)
def test_script_answers_help_and_refuses_a_bad_argument(script: Path) -> None:
    # `--help` ended in a traceback in some (a float of "--help"), and started a whole
    # study or a million-input fuzz run in others; a bad argument gave a traceback.
    helped = subprocess.run(
        [sys.executable, str(script), "--help"], cwd=ROOT, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert helped.returncode == 0 and "Traceback" not in helped.stderr, helped.stderr[-2000:]
    assert helped.stdout.strip(), "--help printed nothing"
    bad = subprocess.run(
        [sys.executable, str(script), "--no-such-option", "abc"], cwd=ROOT,
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert bad.returncode == 2 and "Traceback" not in bad.stderr, bad.stderr[-2000:]
    assert bad.stderr.strip(), "refused without a word"


@pytest.mark.parametrize(
    ("script", "args", "expected"),
    [(BENCH / s, a, e) for s, a, e in RUNS] + [(EXAMPLES / s, a, e) for s, a, e in EXAMPLE_RUNS],
    ids=lambda x: x.name if isinstance(x, Path) else str(x),
)
def test_script_runs(script: Path, args: tuple[str, ...], expected: str, tmp_path: Path) -> None:
    # OpenSpiel hidden, as where it is not installed (CI): the peer rows must then say
    # so, not stop the bench. A developer's `make bench` runs them with it.
    for module in ("pyspiel.py", "open_spiel/__init__.py"):
        (tmp_path / module).parent.mkdir(exist_ok=True)
        (tmp_path / module).write_text('raise ImportError("hidden by tests/test_bench.py")\n')
    # The long fuzzing run's tampered records and damaged files, a few of each.
    env = {
        **os.environ,
        "FUZZ_RECORD_TRIALS": "20",
        "FUZZ_FILE_TRIALS": "10",
        "PYTHONPATH": str(tmp_path),
    }
    done = subprocess.run(
        [sys.executable, str(script), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    out = done.stdout + done.stderr
    assert done.returncode == 0, out[-3000:]
    assert expected in out, out[-3000:]
