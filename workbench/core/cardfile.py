"""Saving the designer's YAML card files without losing anything of theirs.

A :class:`LoadedFile` is one file as read: its text, a fingerprint of its bytes
and its data. :func:`save_files` writes new data for one or more of them:

- **Only the edited lines change.** The new text is the old text with the
  changed values put in place by ruamel.yaml's round-trip mode (comments, key
  order, flow or block style and quoting stay); whatever ruamel would re-format
  on its own is mapped back onto the original lines, so untouched lines stay
  byte for byte.
- **The file stays the designer's**: its mode (and owner, where allowed) is
  kept, a symlink is written through to its target (the link stays), and a
  read-only file is refused, never replaced.
- **Compare-and-swap under a lock**: the check that the file is unchanged since
  it was loaded and the replace happen while holding a lock on the folder (a lock
  file in the user's own cache folder, ``$XDG_CACHE_HOME/workbench/save-locks``,
  named from the folder's real path, so the designer's folder stays clean and no
  other user can take or plant the lock), so of two simultaneous saves one wins
  and the other is refused; no edit is lost.
- **All or nothing**: every new file and backup is staged as a temp file and
  synced, then a journal naming them is written (the commit point), then the
  renames happen. A crash before the journal leaves the old files (the stale
  temps are removed by the next load or save); a crash after it is rolled
  forward by the next load or save (:func:`recover`).
- **A journal never reaches outside its folder**: it names its files relative to
  the folder it lies in, and recovery first checks every entry (a plain relative
  path, no ``..``, no link leading out, temp files named as saves name them). A
  journal that fails the check (a shared or downloaded card folder could carry one
  naming ``~/.bashrc``) is refused with one line, renamed aside
  (``.workbench-save.journal.refused-…``) and nothing is moved.
- **Card files are regular files inside their folder**: a link is followed only to
  a regular file inside the card folder (saving through a link elsewhere would
  write outside it); FIFOs and devices are refused by
  :func:`workbench.core.data.read_file_bytes` before they are opened.
- **Backups rotate** (``name.bak``, ``name.bak.1``, ``name.bak.2``); a failed
  save never touches them.
- Every ``OSError`` becomes one :class:`SaveError` sentence saying what to do.
"""

from __future__ import annotations

import codecs
import contextlib
import difflib
import hashlib
import io
import json
import os
import stat
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from .data import MAX_FILE_BYTES, decode_text, dump_yaml, read_file_bytes, safe_load_text
from .errors import DataError, WorkbenchError
from .storage import os_error_message, refuse_inside_installed_package, user_cache

LOCK_DIR = "save-locks"
JOURNAL_NAME = ".workbench-save.journal"
#: a refused journal is renamed to this name plus a time stamp (kept, never deleted)
REFUSED_JOURNAL = JOURNAL_NAME + ".refused-"
TEMP_MARK = ".wbsave-"
BACKUPS = 3
#: the journal format: names relative to the journal's folder
JOURNAL_VERSION = 2
#: how long a save waits for another save of the same folder to finish
LOCK_TIMEOUT = 10.0


class SaveError(WorkbenchError):
    """A save that did not happen; the files on disk and their backups are as before."""


class JournalRefused(SaveError):
    """A save journal naming something outside its folder (or not written by a
    save); it was renamed aside and nothing was moved."""


@dataclass(frozen=True)
class LoadedFile:
    """One card file as read: ``path`` as given (maybe a symlink), ``target`` the
    real file written to, the exact ``text``, its ``fingerprint`` and ``data``."""

    path: Path
    target: Path
    text: str
    fingerprint: str
    data: Any
    #: how the designer's file spells itself on disk, kept on save: a UTF-8
    #: byte-order mark, and Windows line ends (``text`` itself always uses "\n")
    bom: bool = False
    newline: str = "\n"

    def encode(self, text: str) -> bytes:
        """``text`` (with "\n" line ends) as this file's bytes: its own line ends
        and byte-order mark, so a save changes the edited lines and nothing else."""
        if self.newline != "\n":
            text = text.replace("\n", self.newline)
        return (codecs.BOM_UTF8 if self.bom else b"") + text.encode("utf-8")


def _digest(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def load(path: str | Path) -> LoadedFile:
    """Read a card file (after finishing or clearing any interrupted save in its
    folder), keeping what a later :func:`save_files` needs."""
    path = Path(path)
    target = Path(os.path.realpath(path))
    folder = Path(os.path.realpath(path.parent))
    if not target.is_relative_to(folder):
        raise DataError(f"is a link to {target}, outside its card folder; the workbench edits only "
                        "files inside the folder (copy the file in instead of linking it)", file=str(path))
    if _interrupted(folder):  # only then a lock (reading writes nothing otherwise)
        try:
            with _locked([folder], timeout=0.5):
                _recover_dirs([folder])
        except JournalRefused:
            raise
        except (SaveError, OSError):
            pass  # another save holds the folder: it finishes the journal itself
    raw = read_file_bytes(path)  # one read: the text and its fingerprint are of the same bytes
    text = decode_text(raw, path)
    # a file written on Windows keeps its CRLF line ends on save; one with mixed
    # line ends is saved with "\n" (there is no single style to keep)
    crlf = b"\r\n" in raw and raw.count(b"\r\n") == raw.count(b"\n")
    if crlf:
        text = text.replace("\r\n", "\n")
    return LoadedFile(path, target, text, _digest(raw), safe_load_text(text, file=str(path)),
                      bom=raw.startswith(codecs.BOM_UTF8), newline="\r\n" if crlf else "\n")


# -- rendering -----------------------------------------------------------------

def _yaml():
    from ruamel.yaml import YAML

    yml = YAML()
    yml.preserve_quotes = True
    yml.width = 4096
    # ruamel writes None as an empty value; the card files spell it ``null``
    yml.representer.add_representer(
        type(None), lambda rep, _: rep.represent_scalar("tag:yaml.org,2002:null", "null"))
    return yml


def _guess_indent(text: str) -> tuple[int, int]:
    """(mapping indent, dash offset) as the file writes them, from its first
    nested key and its first block sequence under a key (a cheap scan; ruamel's
    own guess parses the whole file)."""
    indent = offset = None
    previous: tuple[int, str] | None = None
    for line in text.splitlines():
        body = line.lstrip(" ")
        if not body or body.startswith("#"):
            continue
        here = len(line) - len(body)
        if previous is not None and previous[1].endswith(":"):
            if body.startswith("- ") or body == "-":
                offset = here - previous[0] if offset is None else offset
            elif indent is None and here > previous[0]:
                indent = here - previous[0]
        previous = (here, body.split(" #")[0].rstrip())
        if indent is not None and offset is not None:
            break
    return indent or 2, offset or 0


def _configured(text: str):
    yml = _yaml()
    indent, offset = _guess_indent(text)
    yml.indent(mapping=indent, sequence=max(indent, offset + 2), offset=offset)
    return yml


def _dump(yml, doc) -> str:
    out = io.StringIO()
    yml.dump(doc, out)
    return out.getvalue()


def _as_roundtrip(value: Any) -> Any:
    """Plain data as ruamel nodes; small collections of scalars in flow style,
    as the card files write them."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(value, dict):
        node = CommentedMap((k, _as_roundtrip(v)) for k, v in value.items())
        if all(not isinstance(v, (dict, list)) for v in value.values()):
            node.fa.set_flow_style()
        return node
    if isinstance(value, (list, tuple)):
        node = CommentedSeq(_as_roundtrip(v) for v in value)
        if all(not isinstance(v, (dict, list)) for v in value):
            node.fa.set_flow_style()
        return node
    return value


def _apply(node: Any, old: Any, new: Any) -> Any:
    """Change the round-trip ``node`` (which holds ``old``) so it holds ``new``,
    touching only what differs; returns the node to keep in the parent."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if old == new and type(old) is type(new):
        return node
    if isinstance(old, dict) and isinstance(new, dict) and isinstance(node, CommentedMap):
        for key in [k for k in old if k not in new]:
            node.pop(key, None)
        for key, value in new.items():
            if key in old and key in node:
                node[key] = _apply(node[key], old[key], value)
            else:
                node[key] = _as_roundtrip(value)
        return node
    # records (cards) are matched by content, not by place: a sheet that removes one card
    # and adds another leaves the list as long as it was, and pairing by index would
    # rewrite every card between the two
    if (isinstance(old, list) and isinstance(new, list) and isinstance(node, CommentedSeq)
            and len(old) == len(node) and any(isinstance(v, dict) for v in (*old, *new))):
        return _apply_records(node, old, new)
    if (isinstance(old, list) and isinstance(new, list) and isinstance(node, CommentedSeq)
            and len(old) == len(new) == len(node)):
        for i, value in enumerate(new):
            node[i] = _apply(node[i], old[i], value)
        return node
    fresh = _as_roundtrip(new)
    if isinstance(node, (CommentedMap, CommentedSeq)) and hasattr(fresh, "fa"):
        # keep the old collection's style; an empty one (``[]``) says nothing
        if node.fa.flow_style() or not len(node):
            if all(not isinstance(v, (dict, list)) for v in (new.values() if isinstance(new, dict) else new)):
                fresh.fa.set_flow_style()
        else:
            fresh.fa.set_block_style()
    return fresh


def _apply_records(node: Any, old: list, new: list) -> Any:
    """A list of records (cards) that grew or shrank: the records kept stay the
    designer's nodes (comments, style), a removed one is deleted and an added
    one is written in the style of the records beside it (the Cards page's
    add, duplicate and delete; docs/reliability.md)."""
    from ruamel.yaml.comments import CommentedMap

    def keys(items: list) -> list[str]:
        return [json.dumps(v, sort_keys=True, default=str) for v in items]

    like = next((x for x in node if isinstance(x, CommentedMap)), None)
    ops = difflib.SequenceMatcher(None, keys(old), keys(new), autojunk=False).get_opcodes()
    for tag, i1, i2, j1, j2 in reversed(ops):  # from the end: earlier indices stay valid
        if tag == "equal":
            continue
        paired = min(i2 - i1, j2 - j1)
        for k in range(paired):
            node[i1 + k] = _apply(node[i1 + k], old[i1 + k], new[j1 + k])
        for k in range(i2 - i1 - 1, paired - 1, -1):
            del node[i1 + k]
        for k in range(paired, j2 - j1):
            fresh = _as_roundtrip(new[j1 + k])
            if like is not None and hasattr(fresh, "fa"):
                if like.fa.flow_style():
                    fresh.fa.set_flow_style()
                else:
                    fresh.fa.set_block_style()
            node.insert(i1 + k, fresh)
    return node


def _project(original: str, baseline: str, edited: str) -> str:
    """Put the line changes ``baseline -> edited`` (two ruamel dumps) onto
    ``original`` (the file as the designer wrote it). Where ruamel re-formats a
    line on its own (baseline differs from original), a change next to it takes
    the neighbouring ruamel lines along; every other line stays as written."""
    t_lines = original.splitlines(keepends=True)
    b_lines = baseline.splitlines(keepends=True)
    e_lines = edited.splitlines(keepends=True)
    to_t: dict[int, int] = {}
    for tag, i1, i2, j1, _ in difflib.SequenceMatcher(None, b_lines, t_lines, autojunk=False).get_opcodes():
        if tag == "equal":
            for k in range(i2 - i1):
                to_t[i1 + k] = j1 + k
    hunks: list[list[int]] = []   # baseline range, edited range, original range
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, b_lines, e_lines, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        exact = _exact_range(tag, i1, i2, to_t, len(b_lines), len(t_lines))
        if exact is None:
            # widen the hunk until the lines around it are lines of the original
            while i1 > 0 and (i1 - 1) not in to_t:
                i1, j1 = i1 - 1, j1 - 1
            while i2 < len(b_lines) and i2 not in to_t:
                i2, j2 = i2 + 1, j2 + 1
            exact = (to_t[i1 - 1] + 1 if i1 > 0 else 0, to_t[i2] if i2 < len(b_lines) else len(t_lines))
        if hunks and i1 <= hunks[-1][1]:
            last = hunks[-1]
            last[1], last[3], last[5] = max(last[1], i2), max(last[3], j2), max(last[5], exact[1])
            last[4] = min(last[4], exact[0])
        else:
            hunks.append([i1, i2, j1, j2, *exact])
    out: list[str] = []
    t_pos = 0
    for _, _, j1, j2, t_start, t_end in hunks:
        out += t_lines[t_pos:t_start]
        out += e_lines[j1:j2]
        t_pos = t_end
    out += t_lines[t_pos:]
    return "".join(out)


def _exact_range(tag: str, i1: int, i2: int, to_t: dict[int, int], b_len: int, t_len: int):
    """The lines of the original a pure insertion or deletion of whole baseline
    lines replaces (an added or deleted card), when those lines map onto the
    original exactly; None: widen as for any other change."""
    if tag == "insert":
        if i1 == b_len:
            return (t_len, t_len)
        if i1 in to_t:
            return (to_t[i1], to_t[i1])
    if tag == "delete" and all(k in to_t for k in range(i1, i2)):
        span = [to_t[k] for k in range(i1, i2)]
        if span == list(range(span[0], span[0] + len(span))):
            return (span[0], span[-1] + 1)
    return None


class _NoSplice(Exception):
    """The edit is not one :func:`_splice` can write in place."""


def _flow_text(value: Any) -> str:
    """``value`` as it stands as a value inside a YAML flow mapping (quoted when
    flow context needs it), on one line: libyaml's emitter, where installed."""
    import yaml
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    text = yaml.dump({"k": value}, Dumper=dumper, default_flow_style=True, width=10 ** 9, sort_keys=False,
                     allow_unicode=True).strip()
    if not (text.startswith("{k: ") and text.endswith("}")) or "\n" in text:
        raise _NoSplice
    return text[4:-1]


def _splices(node, old: Any, new: Any, out: list) -> None:
    """Where (character spans of the text) and what to write so the composed
    ``node`` (which reads as ``old``) reads as ``new``: a changed value written in
    place of its old text when it is a scalar or a flow collection on one line;
    anything else (a key added or removed, a block collection resized, a value over
    several lines) raises :class:`_NoSplice`."""
    import yaml
    if same_data(old, new):
        return
    if isinstance(old, dict) and isinstance(new, dict) and isinstance(node, yaml.MappingNode) \
            and list(old) == list(new) and len(node.value) == len(old) and not node.flow_style:
        for (key_node, value_node), key in zip(node.value, old):
            if not isinstance(key_node, yaml.ScalarNode) or key_node.value != str(key):
                raise _NoSplice
            _splices(value_node, old[key], new[key], out)
        return
    if isinstance(old, list) and isinstance(new, list) and isinstance(node, yaml.SequenceNode) \
            and len(old) == len(new) == len(node.value) and not node.flow_style:
        for child, a, b in zip(node.value, old, new):
            _splices(child, a, b, out)
        return
    if isinstance(old, dict) and isinstance(new, dict) and isinstance(node, yaml.MappingNode) \
            and node.flow_style and list(old) == list(new) and len(node.value) == len(old):
        # a record written on one line ({name: ..., age: 1}): its changed values in place
        for (key_node, value_node), key in zip(node.value, old):
            if not isinstance(key_node, yaml.ScalarNode) or key_node.value != str(key):
                raise _NoSplice
            _splices(value_node, old[key], new[key], out)
        return
    one_line = node.start_mark.line == node.end_mark.line and node.end_mark.index > node.start_mark.index
    flow = isinstance(node, yaml.ScalarNode) or getattr(node, "flow_style", False)
    if not (one_line and flow):
        raise _NoSplice
    out.append((node.start_mark.index, node.end_mark.index, _flow_text(new)))


def _splice(loaded: LoadedFile, new: Any) -> str | None:
    """The fast way to :func:`render` an edit of values (a sheet changing
    thousands of cells): each changed value's text replaced in place, every other
    character kept, from libyaml's node positions (a round trip through ruamel of
    a 2,500-card file took 19 CPU seconds). None when the edit is not only values
    changed in place (the caller then takes the round trip)."""
    import yaml
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        root = yaml.compose(loaded.text, Loader=loader)
        spans: list[tuple[int, int, str]] = []
        _splices(root, loaded.data, new, spans)
    except (_NoSplice, yaml.YAMLError, AttributeError, TypeError, ValueError):
        return None
    text, out, pos = loaded.text, [], 0
    for start, end, value in sorted(spans):
        if start < pos:
            return None
        out += [text[pos:start], value]
        pos = end
    out.append(text[pos:])
    return "".join(out)


def render(loaded: LoadedFile, new: Any) -> str:
    """The text of ``loaded`` holding ``new``: only the lines of changed values
    differ from the file as loaded. Falls back to a full re-dump (data exact,
    comments lost) only if the round trip would not read back as ``new``."""
    if same_data(new, loaded.data):     # (== would take true for 1)
        return loaded.text
    fast = _splice(loaded, new)
    if fast is not None:
        try:
            if same_data(safe_load_text(fast), new):
                return fast
        except DataError:
            pass
    candidates = []
    try:
        yml = _configured(loaded.text)
        doc = yml.load(loaded.text)
        baseline = _dump(yml, doc)
        doc = _apply(doc, loaded.data, new)
        edited = _dump(yml, doc)
        candidates += [_project(loaded.text, baseline, edited), edited]
    except Exception:  # noqa: BLE001 - ruamel refusing a file only costs the layout
        pass
    candidates.append(dump_yaml(new))
    for text in candidates:
        try:
            if safe_load_text(text) == new:
                return text
        except DataError:
            continue
    raise SaveError(f"cannot write {loaded.path.name}: the edited data does not survive a YAML round trip")


# -- locking, journal, recovery ---------------------------------------------------

@contextlib.contextmanager
def _locked(dirs: list[Path], timeout: float = LOCK_TIMEOUT) -> Iterator[None]:
    """Hold the save lock of every folder in ``dirs`` (in a fixed order, so two
    saves can never wait for each other)."""
    from filelock import FileLock, Timeout

    with contextlib.ExitStack() as stack:
        for folder in sorted(set(dirs)):
            try:
                lock = FileLock(str(_lock_path(folder)), timeout=timeout, mode=0o600)
            except OSError as exc:
                raise SaveError(os_error_message(exc, folder, "locking")) from None
            try:
                stack.enter_context(lock)
            except Timeout:
                raise SaveError(f"another save of {folder} is still running; try again in a moment") from None
            except OSError as exc:
                raise SaveError(os_error_message(exc, folder, "locking")) from None
        yield


def _lock_path(folder: Path) -> Path:
    """The lock of ``folder``: one file per folder (by its real path) in the
    user's own cache folder (:func:`lock_dir`), never in a folder other users
    can write to."""
    key = hashlib.sha256(os.path.realpath(folder).encode("utf-8", "surrogateescape")).hexdigest()[:32]
    return lock_dir() / f"{key}.lock"


def lock_dir() -> Path:
    """``$WORKBENCH_LOCK_DIR``, else ``save-locks`` in the user's workbench cache
    (:func:`.storage.user_cache`: ``~/.cache/workbench/save-locks``), private to the user (mode 0700).
    Saves of the same folder by the same user exclude each other; two users
    saving one shared folder at once are not locked against each other (the
    compare-and-swap still refuses the second save's stale edit in almost every
    case; see docs/reliability.md)."""
    chosen = os.environ.get("WORKBENCH_LOCK_DIR")
    if chosen:
        place = Path(chosen)
    else:
        place = user_cache(LOCK_DIR)
    place.mkdir(parents=True, exist_ok=True, mode=0o700)
    return place


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _rotate_backups(target: Path, staged: Path, keep: int = BACKUPS) -> None:
    """``staged`` becomes ``target.bak``; older backups move down one place and
    the oldest beyond ``keep`` is dropped."""
    names = [target.with_name(target.name + ".bak")] + [
        target.with_name(f"{target.name}.bak.{i}") for i in range(1, keep)]
    for newer, older in zip(reversed(names[:-1]), reversed(names[1:])):
        if newer.exists():
            os.replace(newer, older)
    os.replace(staged, names[0])


def _journal_entries(folder: Path, journal: Path) -> tuple[list[tuple[Path, Path]], list[tuple[Path, Path]]]:
    """The ``(replace, backups)`` pairs of ``journal`` as paths inside ``folder``,
    or :class:`JournalRefused` (the journal renamed aside, nothing moved) when an
    entry is not what a save writes: a relative path without ``..`` whose real
    folder is ``folder`` or inside it, a source that is one of the save's own temp
    files (a regular file, not a link), a target that is a regular file or
    absent."""
    try:
        doc = json.loads(read_file_bytes(journal, limit=1024 * 1024).decode("utf-8"))
    except (DataError, ValueError):
        doc = None  # an unreadable journal moves nothing; it is set aside too
    root = Path(os.path.realpath(folder))

    def inside(name) -> Path:
        if not isinstance(name, str) or not name or "\0" in name:
            raise ValueError(f"{name!r} is not a file name")
        rel = Path(name)
        if rel.is_absolute() or ".." in rel.parts or not rel.parts:
            raise ValueError(f"{name!r} is not a path inside the folder")
        full = root / rel
        if not Path(os.path.realpath(full.parent)).is_relative_to(root):
            raise ValueError(f"{name!r} leads outside the folder")
        if full.is_symlink() or (full.exists() and not full.is_file()):
            raise ValueError(f"{name!r} is not a regular file")
        return full

    def pairs(key: str) -> list[tuple[Path, Path]]:
        out = []
        for entry in doc.get(key, []):
            if not (isinstance(entry, list) and len(entry) == 2):
                raise ValueError(f"an entry of {key!r} is not a pair of names")
            source, target = inside(entry[0]), inside(entry[1])
            if TEMP_MARK not in source.name or source.parent != target.parent \
                    or not source.name.startswith(f".{target.name}{TEMP_MARK}"):
                raise ValueError(f"{entry[0]!r} is not a temporary copy of {entry[1]!r}")
            out.append((source, target))
        return out

    try:
        if not isinstance(doc, dict) or set(doc) - {"version", "replace", "backups"} \
                or doc.get("version") != JOURNAL_VERSION:
            raise ValueError("it is not a journal this workbench writes")
        return pairs("replace"), pairs("backups")
    except ValueError as exc:
        aside = journal.with_name(REFUSED_JOURNAL + time.strftime("%Y%m%d-%H%M%S"))
        os.replace(journal, aside)
        raise JournalRefused(f"{journal} was refused ({exc}); nothing was moved and the journal was "
                             f"kept as {aside.name} (delete it if you did not expect it)") from None


def _recover_dirs(dirs: list[Path]) -> None:
    """Finish the save a journal in ``dirs`` records (its temps are complete), then
    remove temp files of saves that never reached their journal. Call with the
    folders' locks held. A journal naming anything outside its folder is refused
    (:func:`_journal_entries`) before anything moves."""
    for folder in sorted(set(dirs)):
        journal = folder / JOURNAL_NAME
        if not journal.exists() and not journal.is_symlink():
            continue
        replace, backups = _journal_entries(folder, journal)
        for tmp, target in replace:
            if tmp.exists():
                os.replace(tmp, target)
        for staged, target in backups:
            if staged.exists():
                _rotate_backups(target, staged)
        journal.unlink()
        _fsync_dir(folder)
    for folder in sorted(set(dirs)):
        with contextlib.suppress(OSError):
            for stale in folder.glob(f".*{TEMP_MARK}*"):
                if stale.is_file() and not stale.is_symlink():
                    stale.unlink()


def _interrupted(folder: Path) -> bool:
    """Whether ``folder`` holds a journal or temp files of an unfinished save."""
    try:
        return (folder / JOURNAL_NAME).exists() or (folder / JOURNAL_NAME).is_symlink() \
            or any(folder.glob(f".*{TEMP_MARK}*"))
    except OSError:
        return False


def recover(folder: str | Path) -> None:
    """Complete or clear an interrupted save in ``folder`` (loading does this too)."""
    folder = Path(folder)
    with _locked([folder]):
        try:
            _recover_dirs([folder])
        except OSError as exc:
            raise SaveError(os_error_message(exc, folder, "finishing an interrupted save in")) from None


# -- saving ----------------------------------------------------------------------

def _earlier_text(new: Any, versions) -> str | None:
    """The text of the latest of ``versions`` that holds exactly ``new``."""
    for data, text in reversed(list(versions)):
        if same_data(data, new):
            return text
    return None


def _writable_check(loaded: LoadedFile) -> tuple[os.stat_result, bytes]:
    """The target's stat and bytes, refusing a file that is gone, changed or read-only."""
    target = loaded.target
    try:
        st = target.stat()
        current = target.read_bytes() if st.st_size <= MAX_FILE_BYTES else b""
    except FileNotFoundError:
        raise SaveError(f"{loaded.path} was moved or deleted since it was loaded; "
                        "Reload from disk before saving") from None
    except OSError as exc:
        raise SaveError(os_error_message(exc, loaded.path, "reading")) from None
    if _digest(current) != loaded.fingerprint:
        raise SaveError(f"{loaded.path} changed on disk since it was loaded (another window, "
                        "notebook or program saved it); Reload from disk and make your edit again")
    if not st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(target, os.W_OK):
        raise SaveError(f"{loaded.path} is read-only; make it writable (chmod u+w) if you mean "
                        "to change it, or copy the card folder elsewhere (WORKBENCH_CARDS)")
    return st, current


def _stage(folder: Path, name: str, content: bytes, st: os.stat_result | None, suffix: str) -> Path:
    """A complete, synced temp file in ``folder`` with the mode (and owner) of
    ``st`` (private when ``st`` is None)."""
    tmp = folder / f".{name}{TEMP_MARK}{uuid.uuid4().hex[:12]}{suffix}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(content)
            handle.flush()
            if st is not None:
                os.fchmod(handle.fileno(), stat.S_IMODE(st.st_mode))
                with contextlib.suppress(OSError):
                    if (st.st_uid, st.st_gid) != (os.getuid(), os.getgid()):
                        os.fchown(handle.fileno(), st.st_uid, st.st_gid)
            os.fsync(handle.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    return tmp


def same_data(a: Any, b: Any) -> bool:
    """Whether two YAML values are the same, type for type and in the same order
    (``1``, ``1.0`` and ``true`` are equal in Python, not here)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same_data(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same_data(x, y) for x, y in zip(a, b))
    return a == b


def save_files(changes: list[tuple[LoadedFile, Any]], *, backups: bool = True,
               earlier: dict[Path, list[tuple[Any, str]]] | None = None) -> list[LoadedFile]:
    """Write each ``(loaded, new_data)`` pair, all or nothing; returns the files as
    now on disk (new fingerprints). Raises :class:`SaveError` (nothing written) when
    a file changed since it was loaded, is read-only, or the disk refuses.

    ``earlier``: per file path, ``(data, text)`` of versions the file had (loaded
    or saved before). New data that is one of them is written as that text, byte
    for byte: an undo then a save gives the designer's file back exactly, where a
    render from the edited file could move a comment's column."""
    changes = [(lf, new) for lf, new in changes if not same_data(new, lf.data)]
    if not changes:
        return []
    for lf, _ in changes:
        try:
            refuse_inside_installed_package(lf.target)
        except WorkbenchError as exc:
            raise SaveError(str(exc)) from None
    # the journal lies in the card folder of the first file and names every file
    # relative to it, so all files of one save must be inside that folder
    root = Path(os.path.realpath(changes[0][0].path.parent))
    for lf, _ in changes:
        if not lf.target.is_relative_to(root):
            raise SaveError(f"{lf.path} is not inside {root}; save the files of one card folder together")
    dirs = [root] + [lf.target.parent for lf, _ in changes]
    texts = [_earlier_text(new, (earlier or {}).get(lf.path, ())) or render(lf, new) for lf, new in changes]
    staged: list[Path] = []
    journal: Path | None = None
    with _locked(dirs):
        try:
            _recover_dirs(dirs)
        except OSError as exc:
            raise SaveError(os_error_message(exc, dirs[0], "finishing an interrupted save in")) from None
        checked = [_writable_check(lf) for lf, _ in changes]
        replace: list[tuple[str, str]] = []
        kept: list[tuple[str, str]] = []
        doing, where = "writing a temporary copy beside", changes[0][0].path
        try:
            for (lf, _), text, (st, current) in zip(changes, texts, checked):
                where = lf.path
                tmp = _stage(lf.target.parent, lf.target.name, lf.encode(text), st, ".tmp")
                staged.append(tmp)
                replace.append((tmp.relative_to(root).as_posix(), lf.target.relative_to(root).as_posix()))
                if backups:
                    bak = _stage(lf.target.parent, lf.target.name, current, st, ".bak")
                    staged.append(bak)
                    kept.append((bak.relative_to(root).as_posix(), lf.target.relative_to(root).as_posix()))
            for folder in set(dirs):
                _fsync_dir(folder)
            # the journal is the commit point: from here on, the save completes
            doing, where = "writing the save journal in", root
            journal = root / JOURNAL_NAME
            body = json.dumps({"version": JOURNAL_VERSION, "replace": replace, "backups": kept}).encode("utf-8")
            jtmp = _stage(root, JOURNAL_NAME, body, None, ".tmp")
            staged.append(jtmp)
            os.replace(jtmp, journal)
            staged.remove(jtmp)
            _fsync_dir(root)
        except OSError as exc:
            for tmp in staged:
                with contextlib.suppress(OSError):
                    tmp.unlink()
            raise SaveError(os_error_message(exc, Path(where), doing)) from None
        try:
            _recover_dirs([root])  # performs the journal: renames, backup rotation
        except OSError as exc:
            raise SaveError(os_error_message(exc, root, "completing the save in")
                            + " (the save completes on the next load)") from None
    return [LoadedFile(lf.path, lf.target, text, _digest(lf.encode(text)),
                       safe_load_text(text, file=str(lf.path)), bom=lf.bom, newline=lf.newline)
            for (lf, _), text in zip(changes, texts)]
