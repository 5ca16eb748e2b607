"""The dice notation (``docs/dice.md``): :func:`parse` and its recursive-descent parser."""

from __future__ import annotations

import functools
import re
from fractions import Fraction
from typing import Final, NoReturn

from ..errors import InvalidNotationError
from .builders import d
from .limits import MAX_DEPTH, MAX_DICE, MAX_FACES, MAX_NESTING
from .nodes import Compare, Const, Count, Dice, Die, Explode, Keep, Pool, Sum, _cached_dist

#: Integer literals in the notation are at most this large in magnitude.
_MAX_LITERAL: Final = 10**9


# ---------------------------------------------------------------------------------------
# The notation
# ---------------------------------------------------------------------------------------

_DIGITS = re.compile(r"[0-9]+")
_PROB = re.compile(r"[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?(?:/[0-9]+)?")
_CMP = re.compile(r">=|<=|==|=|>|<")
_SPACE = " \t"


class _Parser:
    """Recursive descent over the grammar in docs/dice.md (positions are 0-based)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.nesting = 0

    def fail(self, reason: str, pos: int | None = None) -> NoReturn:
        raise InvalidNotationError(self.text, reason, position=self.pos if pos is None else pos)

    def peek(self) -> str:
        return self.text[self.pos : self.pos + 1]

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in _SPACE:
            self.pos += 1

    def number(self, what: str) -> tuple[int, int]:
        """An unsigned integer literal and its position."""
        m = _DIGITS.match(self.text, self.pos)
        if not m:
            found = self.peek()
            self.fail(f"expected {what}" + (f", found {found!r}" if found else ""))
        digits = m.group().lstrip("0") or "0"  # leading zeros add nothing
        if len(digits) > 9:
            self.fail(f"number too large (at most {_MAX_LITERAL - 1:,})")
        self.pos = m.end()
        return int(digits), m.start()

    def signed(self, what: str) -> int:
        neg = self.peek() == "-"
        if neg:
            self.pos += 1
        value, _ = self.number(what)
        return -value if neg else value

    def comparison_op(self) -> str | None:
        m = _CMP.match(self.text, self.pos)
        if not m:
            return None
        self.pos = m.end()
        return "==" if m.group() == "=" else m.group()

    def parse(self) -> Dice:
        self.skip_space()
        if self.pos == len(self.text):
            self.fail("empty dice notation")
        node = self.comparison()
        self.skip_space()
        if self.pos < len(self.text):
            c = self.peek()
            hint = ""
            if c in "<>=":
                # A second comparison on one level ("2d6>7>3"): the rule is one a level,
                # so the hint shows the nesting, and '#' for counting dice that pass.
                done, rest = self.text[: self.pos].strip(), self.text[self.pos :].strip()
                hint = (
                    f" (one comparison a level: nest it, as '({done}){rest}',"
                    " or count dice with '#')"
                )
            self.fail(f"unexpected {c!r}{hint}")
        return node

    def comparison(self) -> Dice:
        node = self.sum()
        save = self.pos
        self.skip_space()
        op = self.comparison_op()
        if op is None:
            self.pos = save
            return node
        self.skip_space()
        threshold = self.signed(f"a whole number after {op!r}")
        return Compare(node, op, threshold)

    def sum(self) -> Dice:
        terms: list[Dice] = []
        sign = "+"
        if self.peek() == "-":
            self.pos += 1
            self.skip_space()
            sign = "-"
        while True:
            term = self.term()
            terms.append(-term if sign == "-" else term)
            save = self.pos
            self.skip_space()
            sign = self.peek()
            if sign not in ("+", "-") or not sign:
                self.pos = save
                break
            self.pos += 1
            self.skip_space()
        return terms[0] if len(terms) == 1 else Sum(tuple(terms))

    def term(self) -> Dice:
        c = self.peek()
        if c == "(":
            start = self.pos
            if self.nesting == MAX_NESTING:
                self.fail(f"parentheses nested more than {MAX_NESTING} deep")
            self.nesting += 1
            self.pos += 1
            self.skip_space()
            node = self.comparison()
            self.nesting -= 1
            self.skip_space()
            if self.peek() != ")":
                self.fail(f"expected ')' to close the '(' at column {start + 1}")
            self.pos += 1
            return node
        if c and c in "0123456789":
            value, start = self.number("a number")
            if self.peek() in ("d", "D") and self.peek():
                return self.dice(value, start)
            return Const(value)
        if c in ("d", "D") and c:
            return self.dice(None, self.pos)
        found = f", found {c!r}" if c else ", found the end"
        self.fail(f"expected a die (like d6 or 3d6), a number or '('{found}")

    def dice(self, count: int | None, start: int) -> Dice:
        self.pos += 1  # the 'd'
        die = self.faces()
        node: Dice = die
        if self.peek() == "!":
            node = self.explosion(die)
        select = self.text[self.pos : self.pos + 2].lower()
        if count is None and not (select[:1] in ("k", "#") or select in ("dh", "dl")):
            return node
        n = 1 if count is None else count
        if not 1 <= n <= MAX_DICE:
            self.fail(f"a pool has 1 to {MAX_DICE} dice, got {n}", start)
        pool = Pool(n, node)
        if select in ("kh", "kl", "dh", "dl") or select[:1] == "k":
            return self.keep(pool, select)
        if select[:1] == "#":
            return self.count(pool)
        return pool

    def faces(self) -> Die:
        if self.peek() == "{":
            open_pos = self.pos
            self.pos += 1
            faces: list[int] = []
            while True:
                self.skip_space()
                faces.append(self.signed("a face value (a whole number)"))
                self.skip_space()
                c = self.peek()
                if c == "}":
                    self.pos += 1
                    break
                if c != ",":
                    self.fail("expected ',' or '}' in the list of faces")
                self.pos += 1
            if len(faces) > MAX_FACES:
                self.fail(f"a die has at most {MAX_FACES} faces", open_pos)
            return Die(tuple(faces))
        sides, at = self.number("the number of sides or '{faces}' after 'd'")
        if not 1 <= sides <= MAX_FACES:
            self.fail(f"a die has 1 to {MAX_FACES} sides, got {sides}", at)
        return d(sides)

    def explosion(self, die: Die) -> Explode:
        bang = self.pos
        self.pos += 1
        on = frozenset({max(die.faces)})
        if self.peek() == "~":
            self.pos += 1
            m = _PROB.match(self.text, self.pos)
            if not m:
                self.fail("expected a probability bound after '!~' (like 1e-9 or 1/1000)")
            try:
                bound = Fraction(m.group())
            except (ValueError, ZeroDivisionError):
                self.fail(f"bad probability bound {m.group()!r}")
            at = self.pos
            self.pos = m.end()
            try:
                return Explode(die, on, bound=bound)
            except ValueError as exc:
                self.fail(str(exc), at)
        if not self.peek() or self.peek() not in "0123456789":
            self.fail(
                "expected an explosion depth (like d6!4) or a bound (like d6!~1e-9) after '!'"
            )
        depth, at = self.number("an explosion depth")
        if depth > MAX_DEPTH:
            self.fail(f"explosion depth must be at most {MAX_DEPTH}", at)
        try:
            return Explode(die, on, depth=depth)
        except ValueError as exc:  # pragma: no cover - depth checked above
            self.fail(str(exc), bang)

    def keep(self, pool: Pool, select: str) -> Keep:
        if select in ("kh", "kl", "dh", "dl"):
            self.pos += 2
        else:  # plain "k" = keep highest
            select = "kh"
            self.pos += 1
        k, at = self.number(f"the number of dice after {select!r}")
        n = pool.n
        if select[0] == "d":
            if not 0 <= k < n:
                self.fail(f"cannot drop {k} of {n} dice", at)
            return Keep(pool, n - k, highest=select == "dl")
        if not 1 <= k <= n:
            self.fail(f"cannot keep {k} of {n} dice", at)
        return Keep(pool, k, highest=select == "kh")

    def count(self, pool: Pool) -> Count:
        self.pos += 1  # the '#'
        if self.peek() == "{":
            self.pos += 1
            faces: list[int] = []
            while True:
                self.skip_space()
                faces.append(self.signed("a face to count (a whole number)"))
                self.skip_space()
                c = self.peek()
                if c == "}":
                    self.pos += 1
                    break
                if c != ",":
                    self.fail("expected ',' or '}' in the faces to count")
                self.pos += 1
            return Count(pool, "in", tuple(faces))
        op = self.comparison_op() or "=="
        value = self.signed("a threshold after '#' (like #>=4 or #6)")
        return Count(pool, op, (value,))


@functools.lru_cache(maxsize=1024)
def _parse_cached(text: str) -> Dice:
    return _Parser(text).parse()


def parse(text: str) -> Dice:
    """Parse dice notation (see ``docs/dice.md``) into an immutable :class:`Dice`.

    ``str()`` of the result is the canonical notation, and ``parse(str(x)) == x``.

    Raises:
        InvalidNotationError: with the 0-based ``position`` of the problem.
    """
    if not isinstance(text, str):
        raise TypeError(f"dice notation is a str, got {text!r}")
    return _parse_cached(text)


def clear_caches() -> None:
    """Forget every cached distribution and parsed expression (for benchmarks)."""
    _cached_dist.cache_clear()
    _parse_cached.cache_clear()
