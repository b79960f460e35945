"""Auto-balancing: search draft card values toward a designer's targets.

``workbench balance GAME --target EXPR ... --vary PATTERN ...`` (see
:mod:`workbench.commands.balance`) and the dashboard's Balance view both use
this package:

* :mod:`.targets`: target expressions (``survival=0.55..0.8 @players=2..5``,
  ``legacy_cap_share<=0.1``) and how far a measured value lies outside them;
* :mod:`workbench.tweak.variables`: balance variables, and vary patterns
  (``KIND.NAME.COLUMN``) expanded over a catalogue game's card files into
  integer variables; values with ``provenance: seed`` are protected unless the
  designer allows them (they live with the tweak session, which sets them: a
  game with a session of its own reads its own patterns there);
* :mod:`.pools`: a game reference for a card folder on disk that any worker
  process (pool or Dask) can resolve;
* :mod:`.search`: the Optuna study (TPE, paired seeds across trials, stored in
  SQLite so it resumes), each trial a batch on the process pool or Dask;
* :mod:`.report`: the proposal as a card-file diff, before/after metrics with
  intervals on fresh seeds, a plot of the search, and applying or undoing the
  proposal through :class:`workbench.tweak.session.TweakSession`.
"""

from __future__ import annotations

from workbench.tweak.variables import Variable

from .search import BalanceSpec, run_study
from .targets import Target, parse_target

__all__ = ["BalanceSpec", "run_study", "Target", "parse_target", "Variable"]
