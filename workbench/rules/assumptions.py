"""Telling a broken rule from a scenario whose card values differ from the pool.

A rule check (a scenario, a Python check) proves code; the card values it runs
with are data the designer changes. ``workbench check --cards DIR`` runs every
check on the designer's pool, and for each one:

- a scenario that states its card values (``setup.cards``) runs with them laid
  over the pool, so it proves its rule whatever the pool holds; where the pool
  holds other values for those cards, the report says so (information);
- a check that fails on the designer's pool is run again, same engine, on the
  pool bundled with the workbench (the reference). It passes there: the rule
  works and the check leans on a card value the designer changed, so the
  report calls it an *assumption* (information, not a failure) and names the
  changed values of the cards the check mentions. It fails there too: the rule
  is broken (or the check itself is), a failure.

Without a reference distinct from the pool (no ``--cards``: the pool checked is
the bundled one) a failing check is a failure.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from pathlib import Path

#: status of a check that failed only because the pool differs from its assumption
ASSUMPTION = "assumption"


@dataclass
class Assumption:
    """One check whose card values differ from the designer's pool."""

    kind: str            # scenario | python
    name: str
    how: str             # stated (setup.cards, the check passed) | reference (failed, passes on the bundled pool)
    message: str
    differences: list[dict] = field(default_factory=list)   # {card, field, pool, assumed}

    def to_dict(self) -> dict:
        return {"kind": self.kind, "name": self.name, "how": self.how, "message": self.message,
                "differences": self.differences}


def reference_folder(game_id: str) -> Path | None:
    """The bundled card folder of the game when the pool being checked is
    another one (``--cards DIR``), else None."""
    from workbench.core.data import bundled_cards_root, cards_dir

    here = cards_dir(game_id)
    ref = bundled_cards_root() / here.name
    try:
        if not ref.is_dir() or ref.resolve() == here.resolve():
            return None
    except OSError:
        return None
    return ref


def _named(text: str, differences: list[dict]) -> list[dict]:
    lowered = text.lower()
    return [d for d in differences if d["card"].split(" (")[0].lower() in lowered]


def _leaning(text: str, differences: list[dict]) -> tuple[str, list[dict]]:
    """What to tell about a check whose text is ``text``: the changed values of
    the cards it names, else every changed value (it may draw any card)."""
    named = _named(text, differences)
    if named:
        return f"it names cards your pool changed: {_short(named)}", named
    return f"your pool changes {len(differences)} value(s) it may draw on: {_short(differences)}", differences


def _short(differences: list[dict], limit: int = 4) -> str:
    from workbench.core.pool_values import format_value
    parts = []
    for d in differences[:limit]:
        if d.get("field") is None:
            parts.append(f"{d['card']} ({'missing from' if d['pool'] == 'absent' else 'only in'} your pool)")
        else:
            parts.append(f"{d['card']} {d['field']}: {format_value(d['assumed'])} -> "
                         f"{format_value(d['pool'])} in your pool")
    more = f" and {len(differences) - limit} more" if len(differences) > limit else ""
    return "; ".join(parts) + more


def pool_differences(game, folder: Path, reference: Path) -> list[dict]:
    """Values that play (not flavour) where the pool differs from the reference,
    as ``{card, field, assumed (reference), pool}``."""
    from workbench.core.pool_values import diff_values, read_values

    files = game.pool_spec.files
    return [{"card": d["card"], "field": d["field"], "assumed": d["old"], "pool": d["new"]}
            for d in diff_values(read_values(reference, files), read_values(folder, files), cosmetic=False)]


def stated_differences(game, name: str, stated: dict, folder: Path) -> Assumption | None:
    """Information for a scenario with ``setup.cards`` whose values the pool does not hold."""
    from workbench.core.pool_values import assumption_differences

    diffs = assumption_differences(stated, folder, game.pool_spec.files)
    if not diffs:
        return None
    return Assumption("scenario", name, "stated",
                      f"runs with its own values for {len(diffs)} card value(s): {_short(diffs)}", diffs)


def rerun_scenario(path: Path, game, first_failure: str, folder: Path, reference: Path,
                   report: bool = False) -> Assumption | None:
    """Run a failing scenario again on the reference pool; an :class:`Assumption`
    when it passes there, None when it fails there too (the rule is broken)."""
    from workbench.core.data import read_text_file
    from workbench.core.scenario import run_file

    ref_game = game.with_cards(game.load_cards(reference))
    again = run_file(path, report=report, game=ref_game, folder=reference)
    if not again.passed:
        return None
    where, diffs = _leaning(read_text_file(path), pool_differences(game, folder, reference))
    return Assumption("scenario", path.name, "reference",
                      f"fails with your card values ({first_failure}) and passes with the bundled ones; "
                      f"{where}", diffs)


def worked_example_on_reference(path: Path, game, res, folder: Path, reference: Path, notes: list):
    """A worked example's errata are about the text, whose numbers are the
    bundled cards': when it diverges less on the reference pool, those are its
    errata, and how much more it diverges with the designer's values is a note."""
    from workbench.core.scenario import run_file

    ref_game = game.with_cards(game.load_cards(reference))
    again = run_file(path, report=True, game=ref_game, folder=reference)
    if len(again.divergences) >= len(res.divergences):
        return res
    from workbench.core.data import read_text_file
    where, diffs = _leaning(read_text_file(path), pool_differences(game, folder, reference))
    notes.append(Assumption("example", path.name, "reference",
                            f"replayed with your card values it diverges {len(res.divergences)} time(s), with "
                            f"the bundled ones {len(again.divergences)} (its errata below); {where}", diffs))
    return again


@contextlib.contextmanager
def reading_cards(root: Path):
    """Every card read inside points at ``root`` (a folder of game folders)."""
    from workbench.core.workspace import current, using

    with using(current().with_cards(root)):
        yield


def rerun_python_check(chk, game, message: str, folder: Path, reference: Path) -> Assumption | None:
    """Run a failing Python check again with every card read from the reference."""
    with reading_cards(reference.parent):
        passed, _ = chk.run()
    if not passed:
        return None
    import inspect
    try:
        source = inspect.getsource(chk.func)
    except (OSError, TypeError):
        source = ""
    where, diffs = _leaning(source, pool_differences(game, folder, reference))
    return Assumption("python", chk.name.rsplit(".", 1)[-1], "reference",
                      f"fails with your card values ({message}) and passes with the bundled ones; {where}", diffs)
