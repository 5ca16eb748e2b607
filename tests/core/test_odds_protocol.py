"""Odds as a protocol capability: every rule set declares its queries, the command line
is built from them (plug-ins included), and the answers are exact."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from fogofwar.cli import main
from fogofwar.core.errors import RulesError
from fogofwar.core.game import get_ruleset
from fogofwar.core.odds import OddsParam, find_query, percent
from tests.example_game import EXAMPLE

BUILTIN = ("specter-ops", "zero-dark", "rock-n-roll", "warfighter")


@pytest.mark.parametrize("ruleset", BUILTIN)
def test_every_rule_set_declares_queries_that_answer_exactly(ruleset: str) -> None:
    rs = get_ruleset(ruleset)
    queries = rs.odds_queries()
    assert queries
    for q in queries:
        assert q.help and q.rules and all(p.help for p in q.params)
        json.dumps(q.to_json())
        # Each required parameter its first choice (a bogey's tier), or 3.
        required = {p.name: p.choices[0] if p.choices else 3 for p in q.params if p.required}
        answer = q.ask(required)
        json.dumps(answer.data)  # exact fractions as text
        assert answer.table is not None


def test_a_parameter_is_checked_before_the_answer() -> None:
    p = OddsParam("bound", int, "Actions listed.", default=20, minimum=1, maximum=200)
    assert p.check(None) == 20 and p.check(7) == 7 and p.option == "--bound"
    for bad in (0, 201, "7", True):
        with pytest.raises(RulesError):
            p.check(bad)
    choice = OddsParam("roll", str, "The roll.", choices=("capture", "torture"))
    assert choice.check("CAPTURE") == "capture"
    with pytest.raises(RulesError, match="not one of capture, torture"):
        choice.check("bribe")
    rs = get_ruleset("warfighter")
    check = find_query(rs.id, rs.odds_queries(), "check")
    with pytest.raises(RulesError, match="--need is required"):
        check.ask({})
    with pytest.raises(RulesError, match="unknown parameter 'cover'"):
        check.ask({"need": 7, "cover": 3})
    with pytest.raises(RulesError, match="expected one of: check, hostile, door"):
        find_query(rs.id, rs.odds_queries(), "shoot")


def test_a_plug_in_rule_set_gets_odds_too(capsys: pytest.CaptureFixture[str]) -> None:
    # The example game declares `search` (EX-4); the command line builds it on demand.
    ref = "tests.example_game:HideAndSeek"
    assert main(["odds", ref, "search", "--target", "5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert Fraction(data["success"]) == Fraction(1, 3)
    # The answer comes from the die the search rolls.
    q = find_query(EXAMPLE.id, EXAMPLE.odds_queries(), "search")
    assert q.ask({"target": 4}).data["success"] == "1/2"
    assert main(["odds", ref, "search"]) == 0
    assert "1/2" in capsys.readouterr().out
    assert main(["odds", ref, "peek"]) == 2
    err = capsys.readouterr().err
    assert "expected one of: search" in err and err.count("\n") == 1


def test_odds_lists_every_rule_set_with_queries(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "--help"]) == 0
    out = capsys.readouterr().out
    for name in ("dice", *BUILTIN):
        assert name in out
    assert main(["odds", "chess", "mate"]) == 2
    assert "unknown rule set 'chess'" in capsys.readouterr().err


def test_a_percentage_never_shows_a_possible_outcome_as_impossible_or_certain() -> None:
    # QA: 1/60466176 printed as 0.00 and 60466175/60466176 as 100.00 in the odds tables.
    assert percent(Fraction(1, 60466176)) == "<0.01"
    assert percent(Fraction(60466175, 60466176)) == ">99.99"
    assert (percent(0), percent(1), percent("5/36")) == ("0.00", "100.00", "13.89")
    assert percent(Fraction(1, 10000)) == "0.01" and percent(Fraction(9999, 10000)) == "99.99"
