"""Planted defects: pools broken on purpose, in a known way, to measure
whether ``workbench hunt`` flags them.

Each game package may hold a ``defects`` module with ``KINDS`` and
``planted_defects(session, rng, kind, count, players)`` returning
:class:`PlantedDefect` objects: the edits (through the Cards page's tweak
session, as ``hunt --edit`` applies them), the game options, the player count
and the findings that would name the defect (``expect``: finding kind and
subject, the subject None for any). The kinds every bundled game plants:

* ``strong-card``: a card made far too strong (or strong and free);
* ``dominant-line``: one kind of move made to pay far too much;
* ``seat-advantage``: a seat or role (faction) given a head start;
* ``stall``: a rule option or value under which games cannot end.

:func:`run_defect` hunts one defect and says whether it was *flagged*: some
finding matches ``expect`` and its witness game replays. The figures per kind
come from ``analyses/hunt_planted.py`` (too slow for the test suite).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field


@dataclass
class PlantedDefect:
    kind: str
    edits: list[tuple[str, str, object]]
    players: int
    expect: list[tuple[str, str | None]]
    options: dict = field(default_factory=dict)
    note: str = ""

    def to_dict(self) -> dict:
        return {"kind": self.kind, "edits": [list(e) for e in self.edits], "players": self.players,
                "expect": [list(e) for e in self.expect], "options": dict(self.options), "note": self.note}


def defects_module(game):
    package = type(game).__module__.rpartition(".")[0]
    try:
        return importlib.import_module(f"{package}.defects")
    except ModuleNotFoundError:
        return None


def matches(finding: dict, expect) -> bool:
    """Whether a finding of the report names the planted defect."""
    for kind, subject in expect:
        if finding["kind"] != kind:
            continue
        names = {str(finding.get("subject", "")).lower(), str(finding.get("restriction") or "").lower()}
        names |= {str(v).lower() for v in (finding.get("involves") or {}).values()}
        if subject is None or subject.lower() in names:
            return True
    return False


def run_defect(game_id: str, defect: PlantedDefect, *, seed: int = 1, bots: str = "greedy", workers=None,
               out=None, **settings) -> dict:
    """Hunt one planted defect; returns the defect, ``flagged`` (a matching
    finding whose witness replays), the findings and the games and seconds spent."""
    from workbench.tweak import open_session

    from . import run_hunt
    session = open_session(game_id)
    session.analysing = False  # the edits' card-graph analyses are not read here
    for card, column, value in defect.edits:
        session.edit(card, column, value)
    ref = session.pool_refs()[1] if defect.edits else game_id
    doc = run_hunt(ref, players=defect.players, bots=bots, seed=seed, options=defect.options, workers=workers,
                   out=out, extra={"edits": [list(e) for e in defect.edits]}, **settings)
    hits = [f for f in doc["findings"] if matches(f, defect.expect)]
    flagged = any(f["witness"] and f["witness"]["replays"] for f in hits)
    return {**defect.to_dict(), "flagged": flagged, "named": bool(hits), "games": doc["games"],
            "seconds": doc["elapsed"], "stopped": doc["stopped"],
            "findings": [{"kind": f["kind"], "subject": f["subject"], "effect": f["effect"], "low": f["low"],
                          "replays": bool(f["witness"] and f["witness"]["replays"])} for f in doc["findings"]]}
