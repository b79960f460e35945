"""The one seeded random stream of a game.

A hand-rolled SplitMix64 generator rather than :mod:`random`: its whole state is
one integer, so cloning a game state for a bot's look-ahead costs nothing, and its
output (and our Fisher-Yates shuffle) is defined here, not by the Python version,
so the same seed gives the same game on every machine, worker and cluster node.

The 64-bit state is kept as two 32-bit halves and every step is worked on them
with no intermediate value above 2**62: the compiled build (:mod:`workbench.native`)
then does all of it in machine integers, where whole 64-bit values would be
arbitrary-precision Python integers (a draw was several thousand instructions).
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:  # a machine integer in the compiled build; annotations only, never run
    from mypy_extensions import i64

_MASK: Final = (1 << 64) - 1
_M32: Final["i64"] = 0xFFFFFFFF
_M16: Final["i64"] = 0xFFFF


def derive_seed(master: int, *labels: object) -> int:
    """A 63-bit seed derived from ``master`` and any labels (game index, worker...).

    Uses BLAKE2 so derived streams are independent and stable across platforms."""
    text = "/".join([str(int(master))] + [str(label) for label in labels])
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 1


def _mul_hi(hi: i64, lo: i64, c_hi: i64, c_lo: i64) -> i64:
    """The high 32 bits of ``(hi:lo) * (c_hi:c_lo) mod 2**64`` (see :func:`_mul_lo`
    for the low ones): products of 16-bit by 32-bit parts, all below 2**50."""
    a, b = lo & _M16, lo >> 16
    p1 = b * c_lo
    t = a * c_lo + ((p1 & _M16) << 16)
    return ((t >> 32) + (p1 >> 16)
            + (hi & _M16) * c_lo + ((((hi >> 16) * c_lo) & _M16) << 16)
            + a * c_hi + (((b * c_hi) & _M16) << 16)) & _M32


def _mul_lo(lo: i64, c_lo: i64) -> i64:
    """The low 32 bits of ``lo * c_lo``."""
    return ((lo & _M16) * c_lo + ((((lo >> 16) * c_lo) & _M16) << 16)) & _M32


def _mix(z: int) -> int:
    """SplitMix64's output for the (advanced) state ``z``: the definition."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def _mix_halves(hi: i64, lo: i64) -> tuple[i64, i64]:
    """:func:`_mix` worked on the 32-bit halves of ``z`` (the compiled build's
    way; ``tests/test_core.py`` checks the two agree)."""
    lo ^= ((hi << 2) | (lo >> 30)) & _M32            # z ^= z >> 30
    hi ^= hi >> 30
    hi, lo = _mul_hi(hi, lo, 0xBF58476D, 0x1CE4E5B9), _mul_lo(lo, 0x1CE4E5B9)
    lo ^= ((hi << 5) | (lo >> 27)) & _M32            # z ^= z >> 27
    hi ^= hi >> 27
    hi, lo = _mul_hi(hi, lo, 0x94D049BB, 0x133111EB), _mul_lo(lo, 0x133111EB)
    lo ^= ((hi << 1) | (lo >> 31)) & _M32            # z ^= z >> 31
    hi ^= hi >> 31
    return hi, lo


class Rng:
    """Deterministic random stream (SplitMix64)."""

    __slots__ = ("hi", "lo")
    hi: i64
    lo: i64

    def __init__(self, seed: int = 0, *, state: int | None = None) -> None:
        if state is None:
            state = (int(seed) * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK
        hi: i64 = state >> 32
        lo: i64 = state & 0xFFFFFFFF
        self.hi, self.lo = hi, lo

    @property
    def state(self) -> int:
        """The whole 64-bit state."""
        return (int(self.hi) << 32) | int(self.lo)

    def copy(self) -> "Rng":
        c = Rng(0, state=0)         # a state given: no seeding arithmetic on whole integers
        c.hi, c.lo = self.hi, self.lo
        return c

    def __reduce__(self) -> tuple:
        return _from_state, (self.state,)

    def _step(self) -> tuple[i64, i64]:
        """Advance the state; the next 64-bit output as ``(high, low)`` halves."""
        lo: i64 = self.lo + 0x7F4A7C15               # state += 0x9E3779B97F4A7C15
        hi: i64 = (self.hi + 0x9E3779B9 + (lo >> 32)) & _M32
        lo &= _M32
        self.hi, self.lo = hi, lo
        if _COMPILED:
            return _mix_halves(hi, lo)
        # interpreted, whole integers are the quicker way to the same value
        z = _mix((hi << 32) | lo)
        return z >> 32, z & _M32

    def next64(self) -> int:
        hi, lo = self._step()
        return (int(hi) << 32) | int(lo)

    def randbelow(self, n: int) -> int:
        """Uniform integer in ``[0, n)``, without modulo bias (rejection sampling)."""
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        if n > 1 << 31:
            limit = (1 << 64) - ((1 << 64) % n)
            while True:
                x = self.next64()
                if x < limit:
                    return x % n
        # the same draws on the halves: x is rejected when x >= 2**64 - r, r = 2**64 % n
        # (r < n <= 2**31, so only when the high half is all ones), and x % n is
        # (high % n) * (2**32 % n) + low, modulo n
        k: i64 = n
        m: i64 = (1 << 32) % k
        r: i64 = (m * m) % k
        while True:
            hi, lo = self._step()
            if hi != _M32 or lo < (1 << 32) - r:
                return int(((hi % k) * m + lo) % k)

    def randint(self, a: int, b: int) -> int:
        """Uniform integer in ``[a, b]`` inclusive."""
        return a + self.randbelow(b - a + 1)

    def random(self) -> float:
        """Uniform float in ``[0, 1)`` with 53 bits of precision."""
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def choice(self, seq):
        if not seq:
            raise IndexError("choice from an empty sequence")
        return seq[self.randbelow(len(seq))]

    def shuffle(self, items: list) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def fork(self, label: object) -> "Rng":
        """An independent stream derived from this one's state and a label; this
        stream does not advance, so adding a fork never changes other draws."""
        return Rng(derive_seed(self.state, label))

    def __repr__(self) -> str:
        return f"Rng(state={self.state:#x})"


def _probe() -> None:
    """Only its type matters: see ``_COMPILED``."""


#: True when this module runs as the compiled build (:mod:`workbench.native`),
#: whose functions are built-in functions rather than Python ones
_COMPILED = type(_probe).__name__ != "function"


def _from_state(state: int) -> Rng:
    """The stream :meth:`Rng.__reduce__` pickled."""
    return Rng(state=state)
