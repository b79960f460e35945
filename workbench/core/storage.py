"""The one place that decides where the workbench may write, and how.

Every path the workbench writes (an output named on the command line, a file
derived from it such as a Tabletop Simulator image folder or the ``<kind>.csv``
files of a CSV folder, the pool history and the playtest journal) goes through
:func:`check_path` or :func:`inside`:

* **A link is followed only into the folder that holds it.** Each component of
  the path, from the filesystem root down, that is a symbolic link must resolve
  to somewhere inside the folder the link lies in (``out -> out-v2`` is fine,
  ``save-images -> /home/me/Pictures`` or ``.workbench -> /elsewhere`` is
  refused). A folder handed to the designer cannot so redirect a write (or a
  delete) outside it, at any level of the path. The workaround for a link the
  designer made on purpose is to give the real path.
* **Derived paths stay in their root**: :func:`inside` also refuses a name that
  resolves outside the folder it is derived from (``..``, an absolute name).
* **Only regular files and folders**: an existing FIFO, device or socket is
  refused before anything opens it.

Writes are atomic (a temp file beside the target, synced, then renamed over
it: readers see the old file or the new one), deletes are of regular files
only, and :func:`connect_sqlite` is the only door to an SQLite file (what makes
a database *ours* is :mod:`.databases`). Also here: a kept previous version, a
refusal to overwrite a file that changed on disk since it was read, and the one
sentence an OSError becomes for the designer (:func:`os_error_message`, used by
:mod:`.cardfile` too, which builds on this module). A test walks the package's
source for writes that bypass this module (tests/test_safety_source.py)."""

from __future__ import annotations

import errno
import os
import shutil
import stat as _stat
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


def refuse_inside_game_package(path: Path) -> None:
    """A pool's history and the journal belong to the designer's workspace, never
    to the folder of a game's Python package (a plugin that ships its cards in its
    package): a run on those cards records nothing rather than write there."""
    import sys

    from .registry import load_all
    real = Path(path).resolve()
    for game in load_all().values():
        module = sys.modules.get(type(game).__module__)
        file = getattr(module, "__file__", None)
        if file and real.is_relative_to(Path(file).resolve().parent):
            raise WorkbenchError(
                f"{path} is inside the package of the game {game.id}; make your own card folder with "
                f"`workbench init DIR --game {game.id}` and pass `--cards DIR`")


class PathRefused(WorkbenchError):
    """A path the workbench will not write: a link out of its folder, a name
    leaving its root, a special file."""


def _within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def check_path(path: str | Path, what: str = "") -> Path:
    """The real path to write ``path`` at, after checking every link on the way
    (see the module's docstring); refuses with one line naming the link.

    ``what`` names the path for the message (``--out``, ``the history``...)."""
    given = Path(path)
    lexical = os.path.abspath(os.fspath(given))
    parts = Path(lexical).parts
    current = parts[0]
    for part in parts[1:]:
        holder, current = current, os.path.join(current, part)
        if os.path.islink(current):
            target = os.path.realpath(current)
            if not _within(target, os.path.realpath(holder)):
                label = f"{what}: " if what else ""
                raise PathRefused(
                    f"{label}{current} is a link to {target}, outside the folder holding it; the workbench "
                    "never follows a link out of its folder (give the real path if you mean it)")
    real = Path(os.path.realpath(lexical))
    refuse_special(real, what or str(given))
    return real


def refuse_special(real: Path, label: str) -> None:
    """Refuse an existing FIFO, device or socket (from ``lstat``, nothing opened)."""
    try:
        mode = os.lstat(real).st_mode
    except OSError:
        return
    from .data import special_kind
    kind = special_kind(mode)
    if kind is not None:
        # "special file" stays in the line: it is the word the designer searches the docs for
        raise PathRefused(f"{label}: {real} is a special file ({kind}), not a file the workbench "
                          "reads or writes")


def inside(root: str | Path, name: str | Path, what: str = "") -> Path:
    """The real path of ``name`` under ``root`` (a folder the workbench derived
    or was given), refused if it leaves ``root`` by ``..``, an absolute name or
    a link (every link checked as in :func:`check_path`)."""
    base = check_path(root, what)
    rel = Path(name)
    if rel.is_absolute() or ".." in rel.parts:
        raise PathRefused(f"{what or root}: {str(name)!r} is not a plain name inside {root}")
    real = check_path(Path(root) / rel, what)
    if not _within(str(real), str(base)):
        raise PathRefused(f"{what or root}: {Path(root) / rel} leads to {real}, outside {base}")
    return real


def make_folder(path: str | Path, what: str = "") -> Path:
    """Create ``path`` (and missing parents) after :func:`check_path`; returns
    its real path. An existing file there is refused."""
    real = check_path(path, what)
    if real.exists() and not real.is_dir():
        raise PathRefused(f"{what or path}: {real} is a file, not a folder")
    try:
        real.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WorkbenchError(f"{what + ': ' if what else ''}cannot write {real}: cannot create the folder "
                             f"({exc.strerror or exc})") from None
    # a link planted between the check and the mkdir would show here
    if os.path.realpath(real) != str(real):
        raise PathRefused(f"{what or path}: {real} changed while it was being created; nothing written")
    return real


def write_bytes(path: str | Path, data: bytes, what: str = "") -> Path:
    """Write ``data`` at ``path`` atomically after :func:`check_path` (a link
    inside its folder is written through to its target); returns the real path."""
    real = check_path(path, what)
    refuse_inside_installed_package(real)
    if real.is_dir():
        raise PathRefused(f"{what or path}: {real} is a folder; give a file name")
    try:
        _write_raw(real, data, keep_previous=False)
    except OSError as exc:
        raise WorkbenchError(os_error_message(exc, real, "writing")) from None
    return real


def write_text(path: str | Path, text: str, what: str = "", *, encoding: str = "utf-8") -> Path:
    """:func:`write_bytes` of ``text`` (LF line ends as given)."""
    return write_bytes(path, text.encode(encoding), what)


def remove_file(root: str | Path, name: str, what: str = "") -> bool:
    """Delete the regular file ``name`` directly in ``root`` (never a link's
    target, never a folder); False when there was nothing to delete."""
    real_root = check_path(root, what)
    if os.sep in name or name in ("", ".", ".."):
        raise PathRefused(f"{what or root}: {name!r} is not a plain file name")
    target = real_root / name
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        return False
    if not _stat.S_ISREG(mode):
        return False
    os.unlink(target)
    return True


def open_new(path: str | Path, what: str = ""):
    """A new file at ``path`` opened for writing bytes (a stream too large to
    hold), after :func:`check_path`; refused if anything is there already (it
    is a temp file the caller renames into place with :func:`replace`)."""
    real = check_path(path, what)
    fd = os.open(real, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o666)
    return os.fdopen(fd, "wb")


def replace(source: str | Path, target: str | Path, what: str = "") -> Path:
    """Rename ``source`` (a temp file the caller wrote beside ``target``) over
    ``target`` after both are checked; returns the real target."""
    src, real = check_path(source, what), check_path(target, what)
    if real.is_dir():
        raise PathRefused(f"{what or target}: {real} is a folder; give a file name")
    os.replace(src, real)
    return real


def scratch_folder(prefix: str, near: str | Path | None = None) -> Path:
    """A new private folder (mode 0700) for work files: in the temp folder, or
    beside ``near`` (an output's folder, so the finished file is renamed, not
    copied, into place)."""
    base = check_path(near, "the output's folder") if near is not None else None
    return Path(tempfile.mkdtemp(prefix=prefix, dir=base))


def scratch_write(folder: str | Path, name: str, data: str | bytes) -> Path:
    """Write a work file ``name`` in a folder made by :func:`scratch_folder` or
    ``tempfile.TemporaryDirectory`` (no sync, no rename: nobody else reads it
    and it is thrown away)."""
    if os.sep in name or name in ("", ".", ".."):
        raise PathRefused(f"{name!r} is not a plain file name")
    target = Path(folder) / name
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
    with os.fdopen(os.open(target, flags, 0o600), "wb") as handle:
        handle.write(data.encode("utf-8") if isinstance(data, str) else data)
    return target


def scratch_copy(source: str | Path, folder: str | Path, name: str | None = None) -> Path:
    """Copy the regular file ``source`` (read as the designer's files are read:
    :func:`workbench.core.data.read_file_bytes`) into a scratch folder."""
    from .data import read_file_bytes
    return scratch_write(folder, name or Path(source).name, read_file_bytes(Path(source)))


def remove_scratch(folder: str | Path) -> None:
    """Delete a folder made by :func:`scratch_folder` and what is in it (never
    through a link: the folder itself must be a real folder)."""
    folder = Path(folder)
    if folder.is_symlink() or not folder.is_dir():
        return
    shutil.rmtree(folder, ignore_errors=True)


def copy_tree(source: str | Path, dest: str | Path, what: str = "", ignore=None) -> Path:
    """Copy the folder ``source`` to ``dest``, which must not exist yet (its
    parent is checked and created); links inside ``source`` are copied as links."""
    real = check_path(dest, what)
    if real.exists():
        raise PathRefused(f"{what or dest}: {real} already exists; nothing copied")
    make_folder(real.parent, what)
    shutil.copytree(source, real, symlinks=True, ignore=ignore)
    return real


def user_cache(*parts: str) -> Path:
    """A folder of the user's own cache for the workbench: ``$WORKBENCH_CACHE_DIR``,
    else ``$XDG_CACHE_HOME/workbench`` (``~/.cache/workbench``), then ``parts``.
    Only named here: the caller makes it when it writes there."""
    chosen = os.environ.get("WORKBENCH_CACHE_DIR")
    base = chosen or os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
                                  "workbench")
    return Path(base, *parts)


def connect_sqlite(path: str | Path, *, read_only: bool, timeout: float, what: str = "",
                   immutable: bool = False):
    """The one ``sqlite3.connect`` of the workbench: ``path`` checked like any
    write (links, special files, folders), opened read-only (``mode=ro``: no
    file is created, nothing written; ``immutable``: not even a WAL's side files,
    for a file no writer holds) or read-write. Whether the file is ours is
    :mod:`.databases`' question."""
    import sqlite3
    real = check_path(path, what)
    if real.is_dir():
        raise PathRefused(f"{what or path}: {real} is a folder, not a database")
    if read_only:
        from urllib.parse import quote
        flags = "mode=ro&immutable=1" if immutable else "mode=ro"
        return sqlite3.connect(f"file:{quote(str(real))}?{flags}", uri=True, timeout=timeout,
                               isolation_level=None, check_same_thread=False)
    refuse_inside_installed_package(real)
    return sqlite3.connect(str(real), timeout=timeout, isolation_level=None, check_same_thread=False)


def atomic_write_text(path: Path, text: str, *, expected: str | None = None,
                      keep_previous: bool = False) -> None:
    """Write ``text`` to ``path`` so readers see the old file or the new one,
    never half of one.

    ``expected`` is the fingerprint taken when the file was loaded: if the file
    on disk no longer matches it, nothing is written. ``keep_previous`` keeps the
    replaced file as ``<name>.bak``."""
    path = check_path(path)
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


def _umask() -> int:
    global _UMASK
    if _UMASK is None:
        _UMASK = os.umask(0o022)
        os.umask(_UMASK)
    return _UMASK


_UMASK: int | None = None


def _write(path: Path, text: str, keep_previous: bool) -> None:
    _write_raw(path, text.encode("utf-8"), keep_previous)


def _write_raw(path: Path, data: bytes, keep_previous: bool) -> None:
    if not path.parent.is_dir():
        make_folder(path.parent)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        # mkstemp makes 0600; the file gets the mode it had, or a new file's usual one
        try:
            mode = _stat.S_IMODE(os.stat(path).st_mode)
        except OSError:
            mode = 0o666 & ~_umask()
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if keep_previous and path.exists():
            shutil.copy2(path, path.with_name(path.name + ".bak"))
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
