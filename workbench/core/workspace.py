"""The workspace a run works in: the designer's card folder, the pool histories
kept in it, the playtest journal and the output folder.

The command line builds one :class:`Workspace` from its options (``--cards``)
and hands it down: it sits on ``args.workspace`` for the command and is the
active workspace (:func:`current`) while the command runs, so every card read,
history entry and journal of the run follows the same object. Code run without
the command line (a notebook, a test, a worker process started by a command)
gets :meth:`Workspace.from_environment`. Where a game's cards are found in a
workspace is :func:`workbench.core.data.cards_dir`'s. This module is the one place that reads
``$WORKBENCH_CARDS`` and ``$WORKBENCH_JOURNAL``, and :meth:`Workspace.environment`
is the one place that writes them for a child process.

A pool's history lives beside the pool (``<game folder>/.workbench/``) and only
in a folder the designer owns: never inside an installed package, the
workbench's or a plugin's (see :func:`workbench.core.storage.refuse_inside_installed_package`).
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterator, Mapping

#: the environment variables a workspace is read from (and handed to a child process in)
CARDS_ENV = "WORKBENCH_CARDS"
JOURNAL_ENV = "WORKBENCH_JOURNAL"
#: the journal's file name in the card folder (or in the folder the command runs in)
JOURNAL_FILE = "playtest-journal.sqlite"


@dataclass(frozen=True)
class Workspace:
    """Where a run reads and writes.

    ``cards``: the designer's folder of game folders (``workbench init DIR``);
    None reads the cards bundled with the workbench and the plugins.
    ``journal``: the playtest journal file; None puts it in ``cards`` (else in
    the folder the command runs in). ``output``: where files a command makes go
    by default; None is the folder the command runs in."""

    cards: Path | None = None
    journal: Path | None = None
    output: Path | None = None

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> "Workspace":
        """The workspace ``$WORKBENCH_CARDS`` and ``$WORKBENCH_JOURNAL`` name (unset: the defaults)."""
        env = os.environ if environ is None else environ
        cards, journal = env.get(CARDS_ENV), env.get(JOURNAL_ENV)
        return cls(cards=Path(cards) if cards else None, journal=Path(journal) if journal else None)

    def with_cards(self, folder: str | Path | None) -> "Workspace":
        """The same workspace reading the cards of ``folder`` (None: the bundled ones)."""
        return replace(self, cards=None if folder is None else Path(folder))

    def with_journal(self, path: str | Path | None) -> "Workspace":
        """The same workspace keeping its playtest journal at ``path``."""
        return replace(self, journal=None if path is None else Path(path))

    def journal_path(self) -> Path:
        """The playtest journal: ``journal``, else in the card folder, else in the
        folder the command runs in."""
        if self.journal is not None:
            return self.journal
        return (self.cards if self.cards is not None else Path(".")) / JOURNAL_FILE

    def output_folder(self) -> Path:
        return self.output if self.output is not None else Path(".")

    def environment(self, base: Mapping[str, str] | None = None) -> dict[str, str]:
        """``base`` (default: this process's environment) with this workspace
        written in, for a child process that builds its own from it."""
        env = dict(os.environ if base is None else base)
        for name, value in ((CARDS_ENV, self.cards), (JOURNAL_ENV, self.journal)):
            if value is None:
                env.pop(name, None)
            else:
                env[name] = str(value)
        return env


_active: list[Workspace] = []


def current() -> Workspace:
    """The workspace of this run: the one the command line (or :func:`using`)
    made active, else the one the environment names."""
    return _active[-1] if _active else Workspace.from_environment()


@contextlib.contextmanager
def using(workspace: Workspace) -> Iterator[Workspace]:
    """Run the block in ``workspace`` (card reads, histories, the journal),
    the previous one back afterwards."""
    # (the card cache is keyed by the workspace's folder: nothing to forget here)
    _active.append(workspace)
    try:
        yield workspace
    finally:
        _active.pop()
