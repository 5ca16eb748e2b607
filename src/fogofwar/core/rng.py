"""Keyed random streams.

Every draw in fogofwar comes from a :class:`Stream` identified by a *key*: the game's
seed, a purpose string and any number of indices, e.g.
``streams.stream("attack", 7, "hunter2")``. A stream's numbers are a pure function of
its key, never of how many other draws happened before, so

* a hidden roll cannot shift a later public one,
* two games that differ only in hidden choices share every public roll, and
* the same key gives the same numbers on every machine and Python version.

The generator is BLAKE2b in counter mode over a canonical byte encoding of the key
(no ``random`` module, no platform-dependent float code), and the sampling functions
(:meth:`Stream.randbelow`, :meth:`Stream.shuffle`, ...) are our own: rejection
sampling on 64-bit words, Fisher-Yates from the last position down.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterable, MutableSequence, Sequence
from fractions import Fraction
from typing import TypeVar

from .errors import RulesError

__all__ = ["MAX_INT_SEED", "KeyPart", "Stream", "Streams", "check_seed", "encode_key", "stream"]

T = TypeVar("T")
KeyPart = int | str

_MASK64 = (1 << 64) - 1

#: The largest integer seed (seeds a person or a study gives: ``--seed``, batches).
MAX_INT_SEED = _MASK64
_HEX = frozenset("0123456789abcdef")


def check_seed(seed: object) -> int | str:
    """Return ``seed`` if it is a valid game seed, else raise.

    A game seed is either an integer in ``[0, 2**64)`` (a seed that someone chose: tests,
    studies, ``--seed``) or a secret: 32 to 128 lowercase hexadecimal digits, i.e. 128 to
    512 bits (see :mod:`fogofwar.core.secret`).

    Raises:
        TypeError: not an int or a str (a bool is not an int here).
        RulesError: an int out of range, or a string that is not such a secret.
    """
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise TypeError(f"a game seed is an int or a str, got {seed!r}")
    if isinstance(seed, int):
        if not 0 <= seed <= MAX_INT_SEED:
            raise RulesError(f"a game seed is an integer from 0 to 2**64 - 1, got {_short(seed)}")
        return seed
    if seed.removeprefix("-").isdigit() and not (32 <= len(seed) <= 128 and _HEX.issuperset(seed)):
        # A number written as text (a form's field): said as a number, not as a secret.
        raise RulesError(f"a game seed is an integer from 0 to 2**64 - 1, got {_short(seed)}")
    if not 32 <= len(seed) <= 128 or not _HEX.issuperset(seed):
        raise RulesError(
            f"a game seed given as text is a secret of 32 to 128 lowercase hex digits, "
            f"got {_short(seed)}"
        )
    return seed


def _short(value: int | str) -> str:
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= 40 else text[:39] + "…"


_KEY_PREFIX = b"fogofwar-rng-v1"


def encode_key(parts: Iterable[KeyPart]) -> bytes:
    """Encode key parts unambiguously: a type tag and a length before every part.

    ``("a", 1)`` and ``("a1",)`` and ``(1, "a")`` all encode differently.
    """
    # Exact ints and strings (nearly every key) in one pass; anything else by the
    # general form below, byte for byte the same (tested).
    if type(parts) is not tuple:
        parts = tuple(parts)  # the general form may go over them again
    chunks = [_KEY_PREFIX]
    for part in parts:
        kind = type(part)
        if kind is str:
            raw = part.encode("utf-8")  # type: ignore[union-attr]
            chunks.append(b"s" + len(raw).to_bytes(4, "big") + raw)
        elif kind is int:
            raw = str(part).encode("ascii")
            chunks.append(b"i" + len(raw).to_bytes(4, "big") + raw)
        else:
            return _encode_key_checked(parts)
    return b"".join(chunks)


def _encode_key_checked(parts: Sequence[KeyPart]) -> bytes:
    """:func:`encode_key` for any parts: a bool or another type refused."""
    out = bytearray(_KEY_PREFIX)
    for part in parts:
        if isinstance(part, bool):  # bool is an int subclass; keep it distinct
            raise TypeError("random stream keys take ints and strings, not bools")
        if isinstance(part, int):
            raw = str(part).encode("ascii")
            out += b"i"
        elif isinstance(part, str):
            raw = part.encode("utf-8")
            out += b"s"
        else:
            raise TypeError(f"random stream key parts must be int or str, got {part!r}")
        out += struct.pack(">I", len(raw)) + raw
    return bytes(out)


class Stream:
    """A deterministic, endless stream of random 64-bit words and the draws built on it.

    Create one with :func:`stream` or :meth:`Streams.stream`; the numbers depend only
    on the key. A stream is mutable (it advances as it is drawn from); :meth:`fork`
    makes an independent sub-stream keyed below this one.
    """

    __slots__ = ("_block", "_buf", "_key", "_pos")

    def __init__(self, key: bytes) -> None:
        # Keep only a one-way digest of the key: the encoded key contains the game's
        # seed, and a stream handed to a bot must not let it rebuild the game's streams.
        self._key = hashlib.blake2b(key, digest_size=32, person=b"fogofwar-key").digest()
        self._block = 0
        self._buf: tuple[int, ...] = ()
        self._pos = 0

    @property
    def key(self) -> bytes:
        """A one-way digest of this stream's key (never the seed itself)."""
        return self._key

    def _refill(self) -> None:
        digest = hashlib.blake2b(
            self._key + struct.pack(">Q", self._block), digest_size=64
        ).digest()
        self._block += 1
        self._buf = struct.unpack(">8Q", digest)
        self._pos = 0

    def bits64(self) -> int:
        """Return the next 64-bit word."""
        if self._pos >= len(self._buf):
            self._refill()
        word = self._buf[self._pos]
        self._pos += 1
        return word

    def randbelow(self, n: int) -> int:
        """Return a uniform integer in ``[0, n)`` (exact; rejection sampling)."""
        if n <= 0:
            raise ValueError(f"randbelow needs n > 0, got {n}")
        if n == 1:
            return 0
        if n > _MASK64:
            # Big ranges: stitch words together, then reject.
            nbits = n.bit_length()
            words = (nbits + 63) // 64
            while True:
                v = 0
                for _ in range(words):
                    v = (v << 64) | self.bits64()
                v >>= words * 64 - nbits
                if v < n:
                    return v
        limit = (1 << 64) - ((1 << 64) % n)  # largest multiple of n <= 2**64
        while True:
            # bits64, inlined: dice, choices and shuffles all come through here.
            pos = self._pos
            if pos >= len(self._buf):
                self._refill()
                pos = 0
            v = self._buf[pos]
            self._pos = pos + 1
            if v < limit:
                return v % n

    def randint(self, low: int, high: int) -> int:
        """Return a uniform integer in ``[low, high]`` (both ends included)."""
        if high < low:
            raise ValueError(f"randint needs low <= high, got {low}, {high}")
        return low + self.randbelow(high - low + 1)

    def die(self, sides: int) -> int:
        """Roll one die with faces ``1..sides``."""
        return 1 + self.randbelow(sides)

    def random(self) -> float:
        """Return a float in ``[0, 1)`` with 53 random bits."""
        return (self.bits64() >> 11) * (1.0 / (1 << 53))

    def choice(self, seq: Sequence[T]) -> T:
        """Return one element of a non-empty sequence, uniformly."""
        if not seq:
            raise IndexError("cannot choose from an empty sequence")
        return seq[self.randbelow(len(seq))]

    def weighted(self, outcomes: Sequence[tuple[T, Fraction | int]]) -> T:
        """Draw one outcome with exact rational weights (which need not sum to 1)."""
        if not outcomes:
            raise IndexError("cannot draw from no outcomes")
        weights = [Fraction(w) for _, w in outcomes]
        if any(w < 0 for w in weights):
            raise ValueError("weights must not be negative")
        denom = 1
        for w in weights:
            denom = denom * w.denominator // _gcd(denom, w.denominator)
        ints = [int(frac * denom) for frac in weights]
        total = sum(ints)
        if total <= 0:
            raise ValueError("weights must not all be zero")
        r = self.randbelow(total)
        for (value, _), n in zip(outcomes, ints, strict=True):
            if r < n:
                return value
            r -= n
        raise AssertionError("unreachable: r < total")  # pragma: no cover

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle a list in place (Fisher-Yates, last position first)."""
        # randbelow(i + 1) for each i, inlined (the same words, the same draws): a deck
        # is shuffled for every new game and every sampled world.
        two64 = 1 << 64
        buf, pos = self._buf, self._pos
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = two64 - two64 % n
            while True:
                if pos >= len(buf):
                    self._refill()
                    buf, pos = self._buf, 0
                v = buf[pos]
                pos += 1
                if v < limit:
                    break
            j = v % n
            items[i], items[j] = items[j], items[i]
        self._pos = pos

    def shuffled(self, items: Iterable[T]) -> list[T]:
        """Return a new, shuffled list of the items."""
        out = list(items)
        self.shuffle(out)
        return out

    def sample(self, seq: Sequence[T], k: int) -> list[T]:
        """Return ``k`` distinct elements in random order (a partial Fisher-Yates)."""
        if not 0 <= k <= len(seq):
            raise ValueError(f"sample size {k} out of range for {len(seq)} items")
        pool = list(seq)
        n = len(pool)
        for i in range(k):
            j = i + self.randbelow(n - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]

    def fork(self, *parts: KeyPart) -> Stream:
        """Return an independent stream keyed by this stream's key plus ``parts``."""
        return Stream(self._key + encode_key(parts))


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


def stream(seed: int | str, purpose: str, *indices: KeyPart) -> Stream:
    """Return the stream for ``(seed, purpose, *indices)``."""
    return Stream(encode_key((seed, purpose, *indices)))


class Streams:
    """All the random streams of one game, keyed below the game's seed.

    The seed is a secret of the umpire: never put a ``Streams`` (or its seed) in a
    view, an event or anything a seat receives.
    """

    __slots__ = ("_seed",)

    def __init__(self, seed: int | str) -> None:
        self._seed = check_seed(seed)

    @property
    def seed(self) -> int | str:
        """The game's seed (secret: never shown to a seat)."""
        return self._seed

    def stream(self, purpose: str, *indices: KeyPart) -> Stream:
        """Return the stream for ``(seed, purpose, *indices)``."""
        return stream(self._seed, purpose, *indices)

    def __repr__(self) -> str:
        return "Streams(<secret seed>)"
