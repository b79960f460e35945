"""Mandate 2038's action notation: plain text, the same in logs, scenarios and the API.

::

    select fund                                   secret selection (others' picks stay hidden)
    offer runway for compute to Brooke            the one-for-one exchange before acting
    accept | reject                               the named rival's (or Joint Venture partner's) answer
    fund conservative with agent 1 at Capital     <action> [mode] with agent N at <district>
    fund venture with agent 2 at Frontier
    research with agent 1 at Cloud1
    build facility + generator with agent 1 at Grid
    build mega-cluster on facility 2 with agent 1 at Cloud1
    organize recruit with agent 1 at Talent
    organize relocate facility 2 to Cloud1 with agent 1 at Research1
    deploy with agent 1 at Consumer2
    influence trust with agent 1 at Media1        (or: scrutiny)
    influence venture facility 2 + Brooke facility 1 with agent 1 at Cloud1
    influence end venture 3 with agent 1 at Cloud1
    research blocked with agent 1 at Frontier     only when the Action has no legal effect anywhere
    draw | bank                                   during a Training run
    corpus Science                                the domain a Curated Corpus stands for
    method pay | method decline                   Scientific Method on a duplicate
    reassign agent 2 to Grid                      Talent production
    declare agi | decline agi                     Era IV recognition

Agents are numbered 1–4 per player; districts are named by tile id (``Research1``).
Words match case-insensitively.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple

from workbench.core.errors import NotationError, suggest

from .data import CORE_ACTIONS, DOMAINS

if TYPE_CHECKING:
    from .state import MandateState


class Move(NamedTuple):
    """One decision; a named tuple so the long legal-action lists stay cheap to build,
    hash and compare."""

    verb: str
    mode: str = ""
    agent: int = 0          # 1-based, 0 when no Agent is involved
    tile: str = ""

    def __str__(self) -> str:
        if self.verb in CORE_ACTIONS:
            mode = f" {self.mode}" if self.mode else ""
            return f"{self.verb}{mode} with agent {self.agent} at {self.tile}"
        if self.verb == "reassign":
            return f"reassign agent {self.agent} to {self.tile}"
        if self.verb == "agi":
            return f"{self.mode} agi"
        return f"{self.verb} {self.mode}".strip()


_ACT = re.compile(r"^(\w+)(?:\s+(.*?))?\s+with\s+agent\s+(\d+)\s+at\s+(\S+)$", re.I)
_REASSIGN = re.compile(r"^reassign\s+agent\s+(\d+)\s+to\s+(\S+)$", re.I)


def _canon_tile(state: MandateState, word: str) -> str:
    lowered = {t.lower(): t for t in state.tile_ids}
    if word.lower() in lowered:
        return lowered[word.lower()]
    raise NotationError(f"no district named {word!r}{suggest(word, state.tile_ids)}")


def _canon_words(state: MandateState, text: str) -> str:
    """Lower-case the words of a mode, keeping tile ids and player names as spelt."""
    tiles = {t.lower(): t for t in state.tile_ids}
    names = {n.lower(): n for n in state.config.players}
    out = []
    for w in text.split():
        lw = w.lower()
        out.append(tiles.get(lw) or names.get(lw) or lw)
    return " ".join(out)


def parse(state: MandateState, text: str) -> Move:
    raw = " ".join(str(text).strip().split())
    low = raw.lower()
    if not raw:
        raise NotationError("empty action")
    m = _ACT.match(raw)
    if m:
        verb = m.group(1).lower()
        if verb not in CORE_ACTIONS:
            raise NotationError(f"unknown Core Action {m.group(1)!r}{suggest(verb, CORE_ACTIONS)}")
        mode = _canon_words(state, m.group(2) or "")
        return Move(verb, mode, int(m.group(3)), _canon_tile(state, m.group(4)))
    m = _REASSIGN.match(raw)
    if m:
        return Move("reassign", "", int(m.group(1)), _canon_tile(state, m.group(2)))
    words = low.split()
    if words[0] == "select" and len(words) == 2:
        if words[1] not in CORE_ACTIONS:
            raise NotationError(f"unknown Core Action {words[1]!r}{suggest(words[1], CORE_ACTIONS)}")
        return Move("select", words[1])
    if words[0] == "offer":
        m = re.match(r"^offer\s+(runway|compute)\s+for\s+(runway|compute)\s+to\s+(\S+)$", low)
        if not m or m.group(1) == m.group(2):
            raise NotationError("write the exchange as: offer runway for compute to <player> "
                                "(or compute for runway)")
        return Move("offer", f"{m.group(1)} for {m.group(2)} to {_canon_words(state, m.group(3))}")
    if low in ("accept", "reject", "draw", "bank"):
        return Move(low)
    if words[0] == "corpus" and len(words) == 2:
        doms = {d.lower(): d for d in DOMAINS}
        if words[1] not in doms:
            raise NotationError(f"unknown domain {words[1]!r}{suggest(words[1], DOMAINS)}")
        return Move("corpus", doms[words[1]])
    if low in ("method pay", "method decline"):
        return Move("method", words[1])
    if low in ("declare agi", "decline agi"):
        return Move("agi", words[0])
    if words[0] in CORE_ACTIONS:
        raise NotationError(f"say which Agent acts and where: '{raw} with agent 1 at <district>'")
    verbs = list(CORE_ACTIONS) + ["select", "offer", "accept", "reject", "draw", "bank", "corpus",
                                  "method", "reassign", "declare"]
    raise NotationError(f"cannot read action {raw!r}{suggest(words[0], verbs)}")
