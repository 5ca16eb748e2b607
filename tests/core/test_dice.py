"""Tests for fogofwar.core.dice: exact distributions, sampling, notation.

Three independent oracles check the exact distributions: brute-force enumeration over
the faces (itertools.product, Fractions), icepool (test-only), and the sampler itself
(chi-square on 20k rolls from a fixed stream).
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Callable
from fractions import Fraction

import icepool
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fogofwar.core.dice import (
    Bind,
    Compare,
    Const,
    Count,
    Dice,
    Die,
    Dist,
    Explode,
    Keep,
    Map,
    Neg,
    Pool,
    PoolApply,
    Sum,
    best_of,
    clear_caches,
    d,
    exploding_check,
    parse,
    worst_of,
)
from fogofwar.core.errors import InvalidNotationError, RulesError
from fogofwar.core.rng import stream

Probs = dict[int, Fraction]


# ---------------------------------------------------------------------------------------
# Oracle 1: brute-force enumeration
# ---------------------------------------------------------------------------------------


def _add(acc: Probs, x: int, p: Fraction) -> None:
    acc[x] = acc.get(x, Fraction(0)) + p


def _clean(acc: Probs) -> Probs:
    return {x: p for x, p in acc.items() if p}


def _chain_levels(base: Probs, on: frozenset[int], bound: Fraction) -> int:
    """The first number of explosions in a row whose chance is below ``bound``."""
    p_go = sum((p for x, p in base.items() if x in on), Fraction(0))
    j = 0
    while p_go**j >= bound:
        j += 1
    return j


def _explode_tree(base: Probs, on: frozenset[int], j: int, levels: int, cut: bool) -> Probs:
    """Enumerate the explosion tree from level ``j`` (``j`` explosions so far).

    ``cut``: the chains reaching ``levels`` explosions are dropped (a bound); otherwise the
    roll at level ``levels`` simply cannot explode (a depth).
    """
    out: Probs = {}
    for x, p in base.items():
        if x in on and j < levels:
            if cut and j + 1 == levels:
                continue  # this chain is truncated
            for y, q in _explode_tree(base, on, j + 1, levels, cut).items():
                _add(out, x + y, p * q)
        else:
            _add(out, x, p)
    return out


def brute(x: Dice) -> Probs:
    """The distribution of ``x`` by enumerating every roll (small cases only)."""
    if isinstance(x, Const):
        return {x.value: Fraction(1)}
    if isinstance(x, Die):
        acc: Probs = {}
        for f in x.faces:
            _add(acc, f, Fraction(1, len(x.faces)))
        return acc
    if isinstance(x, Neg):
        return {-v: p for v, p in brute(x.operand).items()}
    if isinstance(x, Sum):
        parts = [list(brute(t).items()) for t in x.terms]
        acc = {}
        for combo in itertools.product(*parts):
            _add(acc, sum(v for v, _ in combo), math.prod((p for _, p in combo), start=Fraction(1)))
        return acc
    if isinstance(x, Compare):
        acc = {}
        for v, p in brute(x.operand).items():
            _add(acc, int(_OPS[x.op](v, x.threshold)), p)
        return _clean(acc)
    if isinstance(x, Explode):
        base = brute(x.operand)
        if x.depth is not None:
            return _explode_tree(base, x.on, 0, x.depth, cut=False)
        assert x.bound is not None
        return _explode_tree(base, x.on, 0, _chain_levels(base, x.on, x.bound), cut=True)
    if isinstance(x, Pool | Keep | Count | PoolApply):
        pool = x if isinstance(x, Pool) else x.source
        elem = list(brute(pool.die).items())
        acc = {}
        for combo in itertools.product(elem, repeat=pool.n):
            rolls = [v for v, _ in combo]
            p = math.prod((q for _, q in combo), start=Fraction(1))
            if isinstance(x, Pool):
                value = sum(rolls)
            elif isinstance(x, Keep):
                value = sum(sorted(rolls, reverse=x.highest)[: x.k])
            elif isinstance(x, Count):
                value = sum(1 for r in rolls if x.test(r))
            else:
                value = int(x.f(tuple(sorted(rolls))))
            _add(acc, value, p)
        return acc
    if isinstance(x, Map):
        acc = {}
        for v, p in brute(x.operand).items():
            _add(acc, int(x.f(v)), p)
        return acc
    if isinstance(x, Bind):
        acc = {}
        for v, p in brute(x.operand).items():
            nxt = x.f(v)
            sub = brute(nxt) if isinstance(nxt, Dice) else {int(nxt): Fraction(1)}
            for y, q in sub.items():
                _add(acc, y, p * q)
        return acc
    raise TypeError(type(x))


_OPS: dict[str, Callable[[int, int], bool]] = {
    ">=": lambda a, b: a >= b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    "<": lambda a, b: a < b,
    "==": lambda a, b: a == b,
}


def as_probs(dist: Dist) -> Probs:
    return dict(dist.items())


BRUTE_CASES = [
    "d6",
    "3d6",
    "3d6+2",
    "d10+2",
    "2d6-1",
    "d6+d8",
    "-d6+3",
    "d6-d4-1",
    "d{0,0,1,1,2,3}",
    "2d{-1,0,1}",
    "5d6kh3",
    "4d6kl1",
    "4d6kh3",
    "6d4kh2",
    "3d{1,1,5}kl2",
    "5d6#>=4",
    "4d6#6",
    "4d6#{2,5,6}",
    "5d4#<2",
    "d10+2>=8",
    "2d6<5",
    "2d6==7",
    "3d6>12",
    "d20<=5",
    "(d6>=4)+(d6>=5)",
    "d6!1",
    "d6!2",
    "d6!4",
    "d4!3+1",
    "d{1,3,3}!3",
    "2d6!2",
    "3d6!1kh2",
    "3d6!2kl1",
    "3d4!2#>=4",
    "d6!4>=8",
    "d6!~1/1000",
    "d6!~1e-2",
    "2d6!~1/200",
    "2d4!~0.01kh1",
    "-(d6+1)",
    "(d6+1)+2",
]


@pytest.mark.parametrize("text", BRUTE_CASES)
def test_exact_equals_brute_force(text: str) -> None:
    x = parse(text)
    assert as_probs(x.dist()) == _clean(brute(x))


def test_brute_force_by_hand() -> None:
    # A check of the oracle itself on a case small enough to do by hand.
    assert brute(parse("d6!1")) == {
        **{k: Fraction(1, 6) for k in range(1, 6)},
        **{k: Fraction(1, 36) for k in range(7, 13)},
    }


# ---------------------------------------------------------------------------------------
# Random expressions (hypothesis)
# ---------------------------------------------------------------------------------------

small_die = st.one_of(
    st.integers(1, 6).map(d),
    st.lists(st.integers(-2, 4), min_size=1, max_size=4).map(lambda fs: Die(tuple(fs))),
)


@st.composite
def die_like(draw: st.DrawFn) -> Dice:
    die = draw(small_die)
    if len(set(die.faces)) > 1 and draw(st.booleans()):
        if draw(st.booleans()):
            return die.explode(draw(st.integers(0, 2)))
        return die.explode(bound=draw(st.sampled_from([Fraction(1, 10), Fraction(1, 40)])))
    return die


@st.composite
def pool_like(draw: st.DrawFn) -> Dice:
    n = draw(st.integers(1, 3))
    pool = Pool(n, draw(die_like()))
    kind = draw(st.sampled_from(["sum", "kh", "kl", "count", "in"]))
    if kind == "kh":
        return pool.highest(draw(st.integers(1, n)))
    if kind == "kl":
        return pool.lowest(draw(st.integers(1, n)))
    if kind == "count":
        return pool.count(
            draw(st.sampled_from([">=", "<=", ">", "<", "=="])), draw(st.integers(-1, 5))
        )
    if kind == "in":
        return pool.count_in(draw(st.sets(st.integers(-1, 6), min_size=1, max_size=3)))
    return pool


term = st.one_of(st.integers(-5, 5).map(Const), die_like(), pool_like())


@st.composite
def expression(draw: st.DrawFn) -> Dice:
    x = draw(term)
    for _ in range(draw(st.integers(0, 2))):
        y = draw(term)
        x = x - y if draw(st.booleans()) else x + y
    if draw(st.booleans()):
        x = -x
    if draw(st.booleans()):
        x = x.compare(
            draw(st.sampled_from([">=", "<=", ">", "<", "=="])), draw(st.integers(-3, 12))
        )
    return x


@given(expression())
def test_random_expressions_match_brute_force(x: Dice) -> None:
    assert as_probs(x.dist()) == _clean(brute(x))


@given(expression())
def test_random_expressions_round_trip(x: Dice) -> None:
    text = str(x)
    assert parse(text) == x
    assert str(parse(text)) == text


@given(expression(), st.integers(0, 10**6))
def test_roll_and_sample_make_the_same_draws(x: Dice, seed: int) -> None:
    a, b = stream(seed, "same"), stream(seed, "same")
    assert x.roll(a).value == x.sample(b)
    assert a.bits64() == b.bits64()  # both consumed the same words


@given(
    st.lists(st.integers(-3, 6), min_size=1, max_size=5),
    st.integers(1, 4),
    st.data(),
)
def test_keep_dp_matches_enumeration_on_custom_dice(
    faces: list[int], n: int, data: st.DataObject
) -> None:
    k = data.draw(st.integers(1, n))
    for highest in (True, False):
        x = Keep(Pool(n, Die(tuple(faces))), k, highest)
        assert as_probs(x.dist()) == _clean(brute(x))


# ---------------------------------------------------------------------------------------
# Oracle 2: icepool
# ---------------------------------------------------------------------------------------

I = icepool  # noqa: E741 - short name for the table below


def _bool(die: icepool.Die) -> icepool.Die:
    return die.map(lambda v: int(v))


ICEPOOL_CASES: list[tuple[str, Callable[[], icepool.Die]]] = [
    ("d6", lambda: I.d6),
    ("3d6", lambda: 3 @ I.d6),
    ("3d6+2", lambda: 3 @ I.d6 + 2),
    ("d10+2", lambda: I.d10 + 2),
    ("2d6-1", lambda: 2 @ I.d6 - 1),
    ("d6+d8", lambda: I.d6 + I.d8),
    ("d20-d4", lambda: I.d20 - I.d4),
    ("-d6+3", lambda: -I.d6 + 3),
    ("d{0,0,1,1,2,3}", lambda: I.Die([0, 0, 1, 1, 2, 3])),
    ("10d6kh3", lambda: I.d6.pool(10).highest(3).sum()),
    ("4d6kh3", lambda: I.d6.pool(4).highest(3).sum()),
    ("4d6dl1", lambda: I.d6.pool(4).highest(3).sum()),
    ("4d6kl1", lambda: I.d6.pool(4).lowest(1).sum()),
    ("5d10kl2", lambda: I.d10.pool(5).lowest(2).sum()),
    ("2d20kh1", lambda: I.d20.pool(2).highest(1).sum()),
    ("2d20k1", lambda: I.d20.pool(2).highest(1).sum()),
    ("2d20kl1", lambda: I.d20.pool(2).lowest(1).sum()),
    ("8d8kh4", lambda: I.d8.pool(8).highest(4).sum()),
    ("12d6kh5", lambda: I.d6.pool(12).highest(5).sum()),
    ("d6!4", lambda: I.d6.explode(depth=4)),
    ("d6!1", lambda: I.d6.explode(depth=1)),
    ("d10!3", lambda: I.d10.explode(depth=3)),
    ("d4!6", lambda: I.d4.explode(depth=6)),
    ("3d6!2", lambda: 3 @ I.d6.explode(depth=2)),
    ("4d6!1kh3", lambda: I.d6.explode(depth=1).pool(4).highest(3).sum()),
    ("3d6!2kl1", lambda: I.d6.explode(depth=2).pool(3).lowest(1).sum()),
    ("d6!4>=8", lambda: _bool(I.d6.explode(depth=4) >= 8)),
    ("d10+2>=8", lambda: _bool(I.d10 + 2 >= 8)),
    ("2d6<5", lambda: _bool(2 @ I.d6 < 5)),
    ("2d6==7", lambda: (2 @ I.d6).map(lambda v: int(v == 7))),
    ("3d6>12", lambda: _bool(3 @ I.d6 > 12)),
    ("d20<=5", lambda: _bool(I.d20 <= 5)),
    ("5d6#>=4", lambda: 5 @ _bool(I.d6 >= 4)),
    ("5d6#6", lambda: 5 @ I.d6.map(lambda v: int(v == 6))),
    ("6d6#{2,5,6}", lambda: 6 @ I.d6.map(lambda v: int(v in (2, 5, 6)))),
    ("10d10#>8", lambda: 10 @ _bool(I.d10 > 8)),
    ("5d10!2#>=8", lambda: 5 @ _bool(I.d10.explode(depth=2) >= 8)),
    ("(d6>=4)+(d6>=5)", lambda: _bool(I.d6 >= 4) + _bool(I.d6 >= 5)),
    ("4d6kh3>=15", lambda: _bool(I.d6.pool(4).highest(3).sum() >= 15)),
    ("d12+d12+d12", lambda: 3 @ I.d12),
]


def icepool_probs(die: icepool.Die) -> Probs:
    denom = die.denominator()
    return {
        int(o): Fraction(q, denom)
        for o, q in zip(die.outcomes(), die.quantities(), strict=True)
        if q
    }


def test_at_least_30_icepool_cases() -> None:
    assert len(ICEPOOL_CASES) >= 30


@pytest.mark.parametrize(("text", "oracle"), ICEPOOL_CASES, ids=[t for t, _ in ICEPOOL_CASES])
def test_exact_equals_icepool(text: str, oracle: Callable[[], icepool.Die]) -> None:
    assert as_probs(parse(text).dist()) == icepool_probs(oracle())


def test_builders_equal_icepool() -> None:
    assert d(6).pool(10).highest(3).dist() == icepool_probs(I.d6.pool(10).highest(3).sum())
    assert d(6).explode(4).at_least(8).dist() == icepool_probs(_bool(I.d6.explode(depth=4) >= 8))
    assert d(10).explode(3, on={9, 10}).dist() == icepool_probs(I.d10.explode([9, 10], depth=3))
    assert best_of(d(6)).dist() == icepool_probs(I.d6.pool(2).highest(1).sum())
    assert worst_of(d(8), 3).dist() == icepool_probs(I.d8.pool(3).lowest(1).sum())


# ---------------------------------------------------------------------------------------
# Oracle 3: the sampler (chi-square)
# ---------------------------------------------------------------------------------------


def chi_square_p(observed: Counter[int], dist: Dist, n: int) -> float:
    """Pearson's chi-square p-value, bins under 5 expected pooled; Wilson-Hilferty.

    Outcomes outside the distribution (a truncated explosion's long chains) go in one
    bin with the truncated mass.
    """
    expected = {x: float(p) * n for x, p in dist.items()}
    bins: list[tuple[float, int]] = []
    rest_e, rest_o = float(dist.truncated) * n, 0
    for x, e in expected.items():
        if e >= 5:
            bins.append((e, observed.get(x, 0)))
        else:
            rest_e += e
            rest_o += observed.get(x, 0)
    rest_o += sum(c for x, c in observed.items() if x not in expected)
    if rest_e > 0 or rest_o:
        bins.append((rest_e, rest_o))
    if any(e == 0 and o for e, o in bins):
        return 0.0
    stat = sum((o - e) ** 2 / e for e, o in bins if e > 0)
    k = len(bins) - 1
    if k <= 0:
        return 1.0
    z = ((stat / k) ** (1 / 3) - (1 - 2 / (9 * k))) / math.sqrt(2 / (9 * k))
    return 0.5 * math.erfc(z / math.sqrt(2))


def _specter_bind(distance: int) -> Dice:
    extra = d(6).explode(bound="1e-9")
    return d(6).bind(
        lambda n: 0 if n == 1 else (n + extra).at_least(distance) if n == 6 else int(n >= distance)
    )


SAMPLED: list[tuple[str, Callable[[], Dice]]] = [
    ("3d6+2", lambda: parse("3d6+2")),
    ("10d6kh3", lambda: parse("10d6kh3")),
    ("4d6!1kl2", lambda: parse("4d6!1kl2")),
    ("d6!~1e-3", lambda: parse("d6!~1e-3")),
    ("5d6#>=4", lambda: parse("5d6#>=4")),
    ("d{0,0,1,1,2,3}-1", lambda: parse("d{0,0,1,1,2,3}-1")),
    ("d10+2>=8", lambda: parse("d10+2>=8")),
    ("specter-8", lambda: exploding_check(6, 8)),
    ("specter-20+1", lambda: exploding_check(6, 20, modifier=1)),
    ("specter-bind", lambda: _specter_bind(9)),
    ("apply", lambda: d(6).pool(3).apply(lambda r: r[-1] - r[0], "spread")),
]

N_SAMPLES = 20_000


@pytest.mark.parametrize(("name", "make"), SAMPLED, ids=[n for n, _ in SAMPLED])
def test_samples_follow_the_exact_distribution(name: str, make: Callable[[], Dice]) -> None:
    x = make()
    s = stream(2024, "chi-square", name)
    counts = Counter(x.sample(s) for _ in range(N_SAMPLES))
    assert chi_square_p(counts, x.dist(), N_SAMPLES) > 1e-4


def test_chi_square_has_power() -> None:
    # The same test rejects a near miss: 3d6 samples against d6+d6+d6 with a loaded face.
    s = stream(2024, "power")
    counts = Counter(parse("3d6").sample(s) for _ in range(N_SAMPLES))
    loaded = Sum((Die((1, 2, 3, 4, 5, 6, 6)), d(6), d(6))).dist()
    assert chi_square_p(counts, loaded, N_SAMPLES) < 1e-4


def test_sampling_is_a_function_of_the_key() -> None:
    x = parse("10d6kh3+d8!3")
    a = [x.sample(stream(7, "attack", i)) for i in range(50)]
    b = [x.sample(stream(7, "attack", i)) for i in range(50)]
    c = [x.sample(stream(8, "attack", i)) for i in range(50)]
    assert a == b
    assert a != c


def test_standard_die_draws_like_stream_die() -> None:
    # Record compatibility: a dX is one stream.die(X) call.
    a, b = stream(1, "die"), stream(1, "die")
    assert [d(20).sample(a) for _ in range(30)] == [b.die(20) for _ in range(30)]


def test_bounded_explosion_samples_beyond_the_cut() -> None:
    # The sampler rolls the real, unbounded process: chains longer than the cut occur.
    x = parse("d2!~1/3")  # keeps chains of 0 or 1 explosions; P(>= 2 in a row) = 1/4
    assert x.dist().truncated == Fraction(1, 4)
    s = stream(3, "long")
    assert x.dist().max_outcome() == 3
    assert max(x.sample(s) for _ in range(400)) > 3


# ---------------------------------------------------------------------------------------
# Truncation
# ---------------------------------------------------------------------------------------


def test_truncated_mass_is_reported() -> None:
    x = parse("d6!~1e-3")
    # (1/6)**3 = 1/216 >= 1/1000 > (1/6)**4 = 1/1296: chains of 4 explosions are cut.
    dist = x.dist()
    assert dist.truncated == Fraction(1, 1296)
    assert dist.mass == 1 - Fraction(1, 1296)
    assert dist.is_truncated
    assert dist.max_outcome() == 6 * 3 + 5
    # Every listed outcome has its exact probability.
    assert dist[23] == Fraction(1, 6**4)
    assert dist == Dist(_explode_tree(brute(d(6)), frozenset({6}), 0, 4, cut=True))


def test_truncation_is_below_the_bound_and_composes() -> None:
    for bound in (Fraction(1, 10), Fraction(1, 1000), Fraction(1, 10**9)):
        one = d(6).explode(bound=bound).dist()
        assert 0 < one.truncated < bound
        two = parse(f"2d6!~{bound}").dist()
        assert two.truncated == 1 - (1 - one.truncated) ** 2
        cmp = (d(6).explode(bound=bound) + 3).at_least(9).dist()
        assert cmp.truncated == one.truncated
        kept = Pool(3, d(6).explode(bound=bound)).highest(2).dist()
        assert kept.truncated == 1 - (1 - one.truncated) ** 3


def test_truncated_probabilities_are_lower_bounds() -> None:
    # Deep-enough depth cut vs a bound cut: the bound version never exceeds, and the
    # gap is at most the truncated mass.
    cut = d(6).explode(bound="1e-4").at_least(20).dist()
    deep = d(6).explode(30).at_least(20).dist()
    assert cut.pmf(1) <= deep.pmf(1) <= cut.pmf(1) + cut.truncated


def test_depth_explosion_is_complete() -> None:
    dist = parse("d6!4").dist()
    assert not dist.is_truncated
    assert dist.truncated == 0
    assert dist.max_outcome() == 30
    assert dist[30] == Fraction(1, 6**5)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({}, ValueError),
        ({"depth": 2, "bound": Fraction(1, 10)}, ValueError),
        ({"depth": -1}, ValueError),
        ({"depth": 101}, ValueError),
        ({"bound": Fraction(0)}, ValueError),
        ({"bound": Fraction(1)}, ValueError),
        ({"bound": Fraction(1, 10**200)}, ValueError),
    ],
)
def test_bad_explosions(kwargs: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error):
        d(6).explode(**kwargs)  # type: ignore[arg-type]


def test_explosion_that_never_ends_is_refused() -> None:
    with pytest.raises(ValueError, match="never end"):
        Die((3, 3)).explode(bound="1e-3")
    assert Die((3, 3)).explode(2).dist() == Dist({9: 1})  # a depth is fine


# ---------------------------------------------------------------------------------------
# Outcome -> result functions and the three rules cases
# ---------------------------------------------------------------------------------------


def _specter_enumerated(distance: int, depth: int) -> Probs:
    """SO-X1/X3/X4/X5 by enumeration: natural 1 misses; 6s add another die, at most
    ``depth`` extra dice; hit if total >= distance."""
    acc: Probs = {}

    def walk(total: int, p: Fraction, extra: int, natural: bool) -> None:
        for face in range(1, 7):
            q = p / 6
            if natural and face == 1:
                _add(acc, 0, q)
            elif face == 6 and extra < depth:
                walk(total + face, q, extra + 1, False)
            else:
                _add(acc, int(total + face >= distance), q)

    walk(0, Fraction(1), 0, True)
    return _clean(acc)


@pytest.mark.parametrize("distance", [0, 1, 2, 5, 6, 7, 8, 12, 13, 20])
@pytest.mark.parametrize("depth", [0, 1, 3])
def test_specter_attack_natural_one_misses_exploding(distance: int, depth: int) -> None:
    x = exploding_check(6, distance, depth=depth)
    assert as_probs(x.dist()) == _specter_enumerated(distance, depth)


def test_specter_attack_known_values() -> None:
    def hit(k: int) -> Dist:
        return exploding_check(6, k).dist()

    assert hit(1).pmf(1) == Fraction(5, 6)  # a natural 1 misses even at distance 1
    assert hit(2).pmf(1) == Fraction(5, 6)
    assert hit(6).pmf(1) == Fraction(1, 6)
    assert hit(7).pmf(1) == Fraction(1, 6)
    assert hit(8).pmf(1) == Fraction(1, 6) * Fraction(5, 6)
    assert hit(13).pmf(1) == Fraction(1, 36)
    # Unlimited explosion, yet exact: the roll stops mattering once the distance is met.
    assert not hit(40).is_truncated
    assert hit(40) == exploding_check(6, 40, depth=40).dist()
    # The hand-written bind with a bounded explosion is the same roll, up to its cut.
    written = _specter_bind(9).dist()
    assert written.truncated > 0
    assert written.pmf(1) <= hit(9).pmf(1) <= written.pmf(1) + written.truncated
    assert written.pmf(0) == hit(9).pmf(0)
    with pytest.raises(ValueError):
        exploding_check(6, 10_000)


def test_modifier_does_not_save_a_natural_one() -> None:
    # Prophet: +2 to attack rolls, a natural 1 still misses.
    x = exploding_check(6, 2, modifier=2, depth=2)
    assert x.dist().pmf(1) == Fraction(5, 6)
    assert exploding_check(6, 3, modifier=2, natural_miss=None, depth=2).dist().pmf(1) == 1
    assert exploding_check(6, 1, modifier=-1, natural_miss=None).dist().pmf(1) == Fraction(5, 6)


def test_exactly_three_on_the_natural_die() -> None:
    # Rock-n-Roll prisoner roll: 2 = exactly 3 on the natural die, 1 = 6+ after the
    # bonus, 0 = fail. The bonus never turns a natural 3 into anything else.

    def prisoner(bonus: int) -> Callable[[int], int]:
        return lambda n: 2 if n == 3 else int(n + bonus >= 6)

    for bonus in range(0, 4):
        x = d(6).map(prisoner(bonus))
        expected: Probs = {}
        for n in range(1, 7):
            _add(expected, 2 if n == 3 else int(n + bonus >= 6), Fraction(1, 6))
        assert as_probs(x.dist()) == _clean(expected)
        assert x.dist().pmf(2) == Fraction(1, 6)
    assert d(6).exactly(3).dist() == Dist({1: Fraction(1, 6), 0: Fraction(5, 6)})
    assert parse("d6==3") == d(6).exactly(3)


def test_keep_the_better_of_two() -> None:
    better = best_of(d(6))
    expected: Probs = {}
    for a, b in itertools.product(range(1, 7), repeat=2):
        _add(expected, max(a, b), Fraction(1, 36))
    assert as_probs(better.dist()) == expected
    assert better.dist() == parse("2d6kh1").dist()
    assert str(better) == "2d6kh1"
    # Keep the better of two Specter attacks (the Gun): hit unless both miss.
    one = exploding_check(6, 5, depth=3)
    two = best_of(one)
    miss = one.dist().pmf(0)
    assert two.dist() == Dist({0: miss**2, 1: 1 - miss**2})
    assert worst_of(d(6)).dist() == parse("2d6kl1").dist()


def test_count_fives_and_sixes() -> None:
    x = d(6).pool(4).count_in({5, 6})
    assert str(x) == "4d6#{5,6}"
    assert as_probs(x.dist()) == _clean(brute(x))
    assert x.dist() == parse("4d6#>=5").dist()
    assert x.dist().pmf(4) == Fraction(1, 81)


def test_map_and_bind_against_enumeration() -> None:
    m = d(8).map(lambda v: v // 3)
    assert as_probs(m.dist()) == _clean(brute(m))
    b = d(4).bind(lambda v: v + d(v))  # the first die chooses the second die's size
    assert as_probs(b.dist()) == _clean(brute(b))
    assert b.dist()[2] == Fraction(1, 4)  # 1 + d1
    nested = d(3).bind(lambda v: d(6).pool(v).highest(1) if v > 1 else 0)
    assert as_probs(nested.dist()) == _clean(brute(nested))
    bools = d(6).map(lambda v: v >= 5)  # bools become 0/1
    assert bools.dist() == Dist({0: Fraction(2, 3), 1: Fraction(1, 3)})


def test_pool_apply_groups() -> None:
    # Zero Dark style: the most groups whose sums reach the TN (greedy is enough here,
    # the oracle only needs the same function).
    def groups(rolls: tuple[int, ...]) -> int:
        count, acc = 0, 0
        for r in sorted(rolls, reverse=True):
            acc += r
            if acc >= 10:
                count, acc = count + 1, 0
        return count

    x = d(12).pool(3).apply(groups, "groups")
    assert as_probs(x.dist()) == _clean(brute(x))
    assert str(x) == "apply(3d12, groups)"
    with pytest.raises(ValueError, match="too many"):
        d(100).pool(10).apply(groups).dist()


# ---------------------------------------------------------------------------------------
# Notation
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("3d6+2", "3d6+2"),
        (" 3D6 + 2 ", "3d6+2"),
        ("d10+2 >= 8", "d10+2>=8"),
        ("4d6dl1", "4d6kh3"),
        ("4d6dh1", "4d6kl3"),
        ("2d20k1", "2d20kh1"),
        ("d6kh1", "1d6kh1"),
        ("5d6#=6", "5d6#6"),
        ("5d6#==6", "5d6#6"),
        ("2d6=7", "2d6==7"),
        ("6d6#{6, 5,2}", "6d6#{2,5,6}"),
        ("d6!~0.001", "d6!~1e-3"),
        ("d6!~1/1000", "d6!~1e-3"),
        ("d6!~2/7", "d6!~2/7"),
        ("d{ 0, -1 ,1}", "d{0,-1,1}"),
        ("d{1,2,3}", "d3"),
        ("-(-d6)", "d6"),
        ("-3", "-3"),
        ("d6-3", "d6-3"),
        ("( d6 >= 4 ) + (d6>=5)", "(d6>=4)+(d6>=5)"),
        ("(2d6)", "2d6"),
        ("(d6+1)+2", "(d6+1)+2"),
        ("d6-(d4+1)", "d6-(d4+1)"),
        ("(d6>=4)>=1", "(d6>=4)>=1"),
        ("d6>=-1", "d6>=-1"),
        ("5d10!2#>=8", "5d10!2#>=8"),
    ],
)
def test_canonical_notation(text: str, canonical: str) -> None:
    x = parse(text)
    assert str(x) == canonical
    assert parse(canonical) == x


@pytest.mark.parametrize(
    ("text", "position"),
    [
        ("", 0),
        ("   ", 3),
        ("3d", 2),
        ("d6+", 3),
        ("d6 +", 4),
        ("10d6kh11", 6),
        ("4d6dl4", 5),
        ("3d6kh0", 5),
        ("d6kh", 4),
        ("d6!", 3),
        ("d6!x", 3),
        ("d6!101", 3),
        ("d6!~2", 4),
        ("d6!~x", 4),
        ("d1!~1e-3", 4),
        ("d6!~1e-300", 4),
        ("d0", 1),
        ("d1001", 1),
        ("0d6", 0),
        ("101d6", 0),
        ("d6 x", 3),
        ("3 d6", 2),
        ("(d6", 3),
        ("d6)", 2),
        ("3d6>=", 5),
        ("3d6>=x", 5),
        ("5d6#", 4),
        ("5d6#>", 5),
        ("d{1,2", 5),
        ("d{}", 2),
        ("d{1;2}", 3),
        ("2d6>=4>=3", 6),
        ("d6++1", 3),
        ("--d6", 1),
        ("1234567890", 0),
        ("d6x2", 2),
        ("3d6 kh2", 4),
    ],
)
def test_bad_notation_reports_position(text: str, position: int) -> None:
    with pytest.raises(InvalidNotationError) as info:
        parse(text)
    err = info.value
    assert err.position == position, err
    assert err.text == text
    assert err.reason
    assert isinstance(err, RulesError)


def test_the_largest_number_the_notation_takes_is_the_one_it_names() -> None:
    # QA: 1000000000d6 was refused as "too large (at most 1,000,000,000)".
    with pytest.raises(InvalidNotationError, match=r"at most 999,999,999\)"):
        parse("1000000000d6")
    assert parse("d6+999999999").dist().mean() == Fraction(7, 2) + 999_999_999
    assert parse("d6+0000000001").dist().mean() == Fraction(9, 2)  # leading zeros


def test_parse_rejects_non_strings() -> None:
    with pytest.raises(TypeError):
        parse(6)  # type: ignore[arg-type]


def test_non_notation_expressions_print_readably() -> None:
    assert str(d(6).map(abs, "abs")) == "map(d6, abs)"
    assert str(d(10).explode(2, on={9, 10})) == "explode(d10, on={9,10}, depth=2)"
    assert str(Pool(2, d(6) + 1)) == "pool(2, d6+1)"
    with pytest.raises(InvalidNotationError):
        parse(str(d(6).map(abs, "abs")))


def test_builders_equal_parsed() -> None:
    assert d(6).pool(3) + 2 == parse("3d6+2")
    assert (d(10) + 2).at_least(8) == parse("d10+2>=8")
    assert d(6).pool(10).highest(3) == parse("10d6kh3")
    assert d(6).pool(4).lowest(1) == parse("4d6kl1")
    assert d(6).explode(4) == parse("d6!4")
    assert d(6).explode(bound=Fraction(1, 10**9)) == parse("d6!~1e-9")
    assert d(6).pool(5).count(">=", 4) == parse("5d6#>=4")
    assert 3 - d(6) == parse("3-d6")
    assert d(6) + d(8) == parse("d6+d8")
    assert d(6) + 1 + 2 == parse("d6+3")
    assert d(6).below(3) == parse("d6<3")
    assert d(6).above(3) == parse("d6>3")
    assert d(6).at_most(3) == parse("d6<=3")
    minus = -d(6)
    assert -minus == d(6)
    assert hash(parse("3d6+2")) == hash(d(6).pool(3) + 2)


def test_structural_equality_is_not_distribution_equality() -> None:
    assert parse("2d6") != d(6) + d(6)
    assert parse("2d6").dist() == (d(6) + d(6)).dist()


def test_builder_validation() -> None:
    with pytest.raises(ValueError):
        d(0)
    with pytest.raises(TypeError):
        d(True)
    with pytest.raises(ValueError):
        Pool(0, d(6))
    with pytest.raises(ValueError):
        d(6).pool(3).highest(4)
    with pytest.raises(ValueError):
        d(6).compare("!=", 3)
    with pytest.raises(ValueError):
        Die(())
    with pytest.raises(TypeError):
        Die((1.5,))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        d(6) + 1.5  # type: ignore[operator]
    with pytest.raises(ValueError):
        Sum((d(6),))
    with pytest.raises(ValueError):
        Count(d(6).pool(2), "in", ())
    with pytest.raises(TypeError):
        d(6).map(lambda v: str(v)).dist()  # type: ignore[arg-type,return-value]
    with pytest.raises(TypeError):
        Neg(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Keep(d(6), 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Pool(2, 6)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        d(6).bind(3)  # type: ignore[arg-type]


def test_roll_trace() -> None:
    r = parse("3d6+2").roll(stream(1, "trace"))
    assert r.text.startswith("3d6[") and r.text.endswith("]+2")
    assert str(r) == f"{r.text} = {r.value}"
    assert parse("10d6kh3").roll(stream(1, "t")).text.count("|") == 1
    assert "*" in parse("20d6#6").roll(stream(1, "t")).text


# ---------------------------------------------------------------------------------------
# Dist
# ---------------------------------------------------------------------------------------


def test_dist_basics() -> None:
    d6 = d(6).dist()
    assert list(d6) == [1, 2, 3, 4, 5, 6]
    assert len(d6) == 6
    assert d6[3] == Fraction(1, 6)
    assert d6.pmf(7) == 0
    with pytest.raises(KeyError):
        d6[7]
    assert 3 in d6 and 7 not in d6 and "3" not in d6  # type: ignore[comparison-overlap]
    assert d6.mean() == Fraction(7, 2)
    assert d6.variance() == Fraction(35, 12)
    assert d6.prob_at_least(5) == Fraction(1, 3)
    assert d6.prob_above(5) == Fraction(1, 6)
    assert d6.prob_at_most(2) == Fraction(1, 3)
    assert d6.prob_below(2) == Fraction(1, 6)
    assert d6.prob(">=", 5) == d6.prob_at_least(5)
    assert d6.prob_at_least(0) == 1 and d6.prob_at_least(7) == 0
    assert d6.min_outcome() == 1 and d6.max_outcome() == 6
    assert d6.denominator == 6 and d6.weights == (1,) * 6
    assert d6.mass == 1 and d6.truncated == 0 and not d6.is_truncated
    assert d6 == {i: Fraction(1, 6) for i in range(1, 7)}
    assert d6 == Dist.uniform(range(1, 7))
    assert hash(d6) == hash(Dist({i: Fraction(1, 6) for i in range(1, 7)}))
    assert d6.map(lambda v: v % 2) == Dist({0: Fraction(1, 2), 1: Fraction(1, 2)})
    assert d6.to_json()["1"] == "1/6"
    assert repr(Dist({1: 1})) == "Dist({1: 1})"


def test_dist_construction() -> None:
    assert Dist([(1, Fraction(1, 2)), (1, Fraction(1, 2))]) == Dist.constant(1)
    assert Dist({True: 1}) == Dist({1: 1})  # type: ignore[arg-type]
    part = Dist({1: Fraction(1, 3)})
    assert part.truncated == Fraction(2, 3)
    assert "truncated=2/3" in repr(part)
    assert part.mean() == 1
    with pytest.raises(ValueError):
        Dist({1: Fraction(2, 3), 2: Fraction(2, 3)})
    with pytest.raises(ValueError):
        Dist({1: -1})
    with pytest.raises(TypeError):
        Dist({"a": 1})  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Dist({}).max_outcome()
    with pytest.raises(ValueError):
        Dist.uniform([])


def test_dist_sample() -> None:
    dist = parse("2d6").dist()
    s = stream(5, "dist-sample")
    counts = Counter(dist.sample(s) for _ in range(N_SAMPLES))
    assert chi_square_p(counts, dist, N_SAMPLES) > 1e-4


def test_caching() -> None:
    clear_caches()
    x = parse("10d6kh3")
    first = x.dist()
    assert parse("10d6kh3") is x  # parse is cached per text
    assert d(6).pool(10).highest(3).dist() is first  # dist per structural expression
    clear_caches()
    assert x.dist() is not first
    assert x.dist() == first


def test_big_pools_are_fast_enough() -> None:
    # Never enumerates 6**60 rolls.
    dist = parse("60d6kh5").dist()
    assert dist.max_outcome() == 30
    assert sum(dist.values()) == 1
    assert parse("100d6").dist().mean() == 350


def test_a_roll_keeps_every_face_in_order() -> None:
    # The natural faces, for rules that read them (a natural 1, "exactly 3") and for
    # events that show the dice: no parsing of the trace text.
    from fogofwar.core.dice import best_of, exploding_check, parse
    from fogofwar.core.rng import stream

    for expr in (parse("3d6+2"), parse("4d6kh3"), parse("d6!4"), best_of(exploding_check(6, 5), 2)):
        roll = expr.roll(stream(7, "faces"))
        assert roll.value == expr.sample(stream(7, "faces"))  # the same draws
        assert roll.faces and all(1 <= f <= 6 for f in roll.faces)
        assert [int(x) for x in re.findall(r"\d+", roll.text.split("[", 1)[1])][: len(roll.faces)]
    assert parse("3d6").roll(stream(1, "x")).faces == tuple(
        int(x) for x in parse("3d6").roll(stream(1, "x")).text[4:-1].split(",")
    )


def test_an_exact_distribution_past_its_work_limit_is_refused_but_rolls() -> None:
    # docs/dice.md: a sum step combines at most MAX_PAIRS pairs of outcomes; past it the
    # exact distribution is refused (it ran for minutes to hours), while rolling the same
    # dice still works.
    from fogofwar.core.dice import d
    from fogofwar.core.errors import RulesError
    from fogofwar.core.rng import stream

    big = d(1000).pool(10)
    with pytest.raises(RulesError, match="too large to work out"):
        big.dist()
    assert 10 <= big.roll(stream(1, "big")).value <= 10_000
    assert d(6).pool(100).dist().mean() == 350  # within it


def test_a_bound_of_hundreds_of_digits_is_said_in_one_short_line() -> None:
    # A notation error quotes the bound: 1e-400 was printed as a 400-digit fraction.
    from fogofwar.core.dice import parse as parse_dice
    from fogofwar.core.errors import InvalidNotationError

    for text, said in (("d6!~1e-400", "≈ 1e-400"), ("d6!~1e999", "≈ 1e999")):
        with pytest.raises(InvalidNotationError) as info:
            parse_dice(text)
        assert said in str(info.value) and len(str(info.value)) < 200


def test_parentheses_nested_past_the_limit_are_refused_with_their_position() -> None:
    # 500 levels ran past Python's recursion limit: a traceback, where the notation
    # promises a one-line error.
    deep = "(" * 51 + "d6" + ")" * 51
    with pytest.raises(InvalidNotationError, match="nested more than 50 deep") as refused:
        parse(deep)
    assert refused.value.position == 50
    with pytest.raises(InvalidNotationError):
        parse("(" * 500 + "d6" + ")" * 500)
    # Fifty levels are read, and comparisons nested as deep work out and print back.
    assert parse("(" * 50 + "d6" + ")" * 50) == parse("d6")
    nested = "d6>=2"
    for _ in range(49):
        nested = f"({nested})>=1"
    expr = parse(nested)
    assert expr.dist() == parse("d6>=2").dist()
    assert parse(str(expr)) == expr


@given(st.sampled_from(["d6", "3d6", "d6!3", "2d10kh1-d4", "d6!~1/1000", "4d6#>=5"]))
def test_at_least_each_outcome_is_prob_at_least(text: str) -> None:
    dist = parse(text).dist()
    assert dist.at_least_each() == tuple(dist.prob_at_least(k) for k in dist.outcomes)


def test_a_second_comparison_on_one_level_is_refused_with_the_nesting() -> None:
    # A designer's QA: "2d6>7>3" was answered "did you mean '#' to count dice?", where the
    # rule is one comparison a level; the hint now shows the nesting that reads.
    with pytest.raises(InvalidNotationError) as refused:
        parse("2d6>7>3")
    assert refused.value.position == 5
    assert "nest it, as '(2d6>7)>3'" in str(refused.value)
    parse("(2d6>7)>3")  # the nesting the hint shows parses
