"""Safe file writing: atomic replace, a kept previous version, and a refusal to
overwrite a file that changed on disk since it was read; the one sentence an
OSError becomes for the designer (:func:`os_error_message`, used by
:mod:`.cardfile` too, which builds on this module)."""

from __future__ import annotations

import errno
import os
import shutil
import tempfile
from pathlib import Path

from .errors import WorkbenchError


def fingerprint(path: Path) -> str | None:
    """Content hash of a file (None if it does not exist or is not a regular
    file the workbench reads)."""
    from .data import file_digest
    return file_digest(Path(path))


def refuse_inside_installed_package(path: Path) -> None:
    """Nothing is ever written inside the installed package (site-packages):
    the bundled cards there are the pristine copy every ``workbench init`` starts
    from. A source checkout's ``cards/`` stays writable for the project's own
    developers."""
    from .data import bundled_cards_root, bundled_is_installed
    if not bundled_is_installed():
        return
    package = Path(bundled_cards_root()).resolve().parent
    if Path(path).resolve().is_relative_to(package):
        raise WorkbenchError(
            f"{path} is inside the installed package and read-only; make your own card folder with "
            f"`workbench init DIR` and pass `--cards DIR`")


def atomic_write_text(path: Path, text: str, *, expected: str | None = None,
                      keep_previous: bool = False) -> None:
    """Write ``text`` to ``path`` so readers see the old file or the new one,
    never half of one.

    ``expected`` is the fingerprint taken when the file was loaded: if the file
    on disk no longer matches it, nothing is written. ``keep_previous`` keeps the
    replaced file as ``<name>.bak``."""
    path = Path(path)
    refuse_inside_installed_package(path)
    if expected is not None and fingerprint(path) != expected:
        raise WorkbenchError(f"{path} changed on disk since it was loaded; reload it before saving")
    try:
        _write(path, text, keep_previous)
    except OSError as exc:
        # one sentence for the designer, not a traceback (card files go through
        # workbench.core.cardfile, which says more)
        raise WorkbenchError(os_error_message(exc, path, "writing")) from None


def os_error_message(exc: OSError, path: Path, doing: str) -> str:
    """One sentence for an OSError: what failed and what the designer can do."""
    where = f"{doing} {path}"
    code = exc.errno
    if code == errno.ENOSPC or code == errno.EDQUOT:
        return (f"{where} failed: the disk is full; free some space and save again "
                "(your edits are still open; nothing on disk was changed, backups included)")
    if code in (errno.EACCES, errno.EPERM):
        return (f"{where} failed: permission denied; make the file and its folder writable "
                "for you, or copy the card folder somewhere you can write (WORKBENCH_CARDS)")
    if code == errno.EROFS:
        return f"{where} failed: the disk is read-only; copy the card folder to a writable place (WORKBENCH_CARDS)"
    if code == errno.ENOENT:
        return f"{where} failed: the file or its folder no longer exists; Reload from disk"
    return f"{where} failed: {exc.strerror or exc}; nothing was changed"


def _write(path: Path, text: str, keep_previous: bool) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if keep_previous and path.exists():
            shutil.copy2(path, path.with_name(path.name + ".bak"))
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
