"""The one seeded random stream of a game.

A hand-rolled SplitMix64 generator rather than :mod:`random`: its whole state is
one integer, so cloning a game state for a bot's look-ahead costs nothing, and its
output (and our Fisher-Yates shuffle) is defined here, not by the Python version,
so the same seed gives the same game on every machine, worker and cluster node.
"""

from __future__ import annotations

import hashlib

_MASK = (1 << 64) - 1


def derive_seed(master: int, *labels: object) -> int:
    """A 63-bit seed derived from ``master`` and any labels (game index, worker...).

    Uses BLAKE2 so derived streams are independent and stable across platforms."""
    text = "/".join([str(int(master))] + [str(label) for label in labels])
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 1


class Rng:
    """Deterministic random stream (SplitMix64)."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0, *, state: int | None = None):
        self.state = (int(seed) * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK if state is None else state

    def copy(self) -> "Rng":
        return Rng(state=self.state)

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def randbelow(self, n: int) -> int:
        """Uniform integer in ``[0, n)``, without modulo bias (rejection sampling)."""
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

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
