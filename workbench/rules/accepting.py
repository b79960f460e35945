"""Recording an accepted translation-review finding in the game's
``cards/<game>/rules/accepted-findings.yaml``, in the form the file already uses
(``clause``, ``check``, ``lang``, ``detail``, ``reason``, and ``text``: the
translation the finding was accepted for, so that a changed translation reopens it;
a spelling finding as a ``words`` list), so the review reports it as accepted from then on.

The entry is appended as text, so the comments and entries already in the file
stay as they are; a refused acceptance (no reason, no such finding) writes nothing."""

from __future__ import annotations

from pathlib import Path

from workbench.core.data import read_text_file
from workbench.core.errors import WorkbenchError

from . import catalog as cat_mod

HEADER = ("# Translation-review findings that are right to accept, each with the reason\n"
          "# (see docs/rules.md). The review lists them as accepted.\n")


def acceptance_entry(finding, reason: str) -> dict:
    """The YAML entry that accepts ``finding`` (a :class:`workbench.rules.review.Finding`)."""
    reason = " ".join((reason or "").split())
    if not reason:
        raise WorkbenchError("say why the finding is right to accept: a reason is required")
    if finding.check in ("spelling", "terms-spelling"):
        return {"check": finding.check, "lang": finding.lang, "words": finding.detail.split(), "reason": reason}
    entry = {"clause": finding.clause, "check": finding.check, "lang": finding.lang, "reason": reason}
    if finding.detail:
        entry["detail"] = finding.detail
    if getattr(finding, "text", ""):
        entry["text"] = finding.text   # a changed translation reopens the finding
    return entry


def _yaml_block(entry: dict) -> str:
    import io

    from ruamel.yaml import YAML
    y = YAML()
    y.width = 100
    y.default_flow_style = None
    buf = io.StringIO()
    y.dump([entry], buf)
    return buf.getvalue()


def accept_finding(game_id: str, finding, reason: str) -> Path:
    """Append the acceptance of ``finding`` to the game's accepted-findings file;
    returns the file. Raises :class:`WorkbenchError` (and writes nothing) without a
    reason or when the finding is already accepted."""
    from workbench.core.storage import atomic_write_text

    from .review import load_accepted
    entry = acceptance_entry(finding, reason)
    for old in load_accepted(game_id):
        if all(old.get(k) == entry.get(k) for k in ("clause", "check", "lang", "detail", "words", "text")):
            raise WorkbenchError(f"{finding.clause} [{finding.check}] is already accepted")
    path = cat_mod.rules_dir(game_id) / "accepted-findings.yaml"
    text = read_text_file(path) if path.exists() else HEADER
    lines = text.splitlines()
    # an empty list written as "[]" gives way to the first entry
    kept = [ln for ln in lines if ln.strip() != "[]"]
    text = "\n".join(kept).rstrip("\n") + "\n" if kept else HEADER
    atomic_write_text(path, text + _yaml_block(entry))
    return path
