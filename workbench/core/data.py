"""Finding and reading the designer's data files (the card folders).

Where the cards are read from, first match wins:

1. the card folder of the workspace (:mod:`workbench.core.workspace`: ``--cards
   DIR`` on the command line, else ``$WORKBENCH_CARDS``): a folder the designer
   owns, made by ``workbench init``;
2. the cards bundled inside the installed package (``workbench/_cards`` in a
   wheel, read through :mod:`importlib.resources`);
3. ``cards/`` of the repository checkout an editable install points at.

Bundled cards in an installed (non-editable) package are read-only: nothing is
ever written inside site-packages (:mod:`workbench.core.storage` refuses and
says to run ``workbench init``). YAML errors and validation errors come back as
:class:`DataError` naming the file, the card and the field.

Every YAML, Markdown and PO file the workbench reads goes through
:func:`read_text_file` (size limit, binary and non-UTF-8 files refused with one
line) and YAML through :func:`safe_load_text` (PyYAML's safe loader with limits on
nesting depth and on the size of the document once aliases are expanded, so an
alias bomb is refused instead of filling memory)."""

from __future__ import annotations

import os
import pickle
import re
import threading
from collections import OrderedDict
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

import yaml
from pydantic import AfterValidator, Strict

from .errors import DataError
from .workspace import current


def bundled_cards_root() -> Path:
    """The card folders that ship with the workbench.

    A wheel carries them as ``workbench/_cards`` (setup.py copies ``cards/``
    there at build time); a source checkout has them at ``cards/`` beside the
    package."""
    packaged = resources.files("workbench") / "_cards"
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[2] / "cards"


def bundled_is_installed() -> bool:
    """True when the bundled cards live inside an installed package (a wheel),
    where the designer must not edit them."""
    return (resources.files("workbench") / "_cards").is_dir()


def cards_root() -> Path:
    """The folder of game folders the current workspace reads (its card folder,
    else the bundled cards)."""
    own = current().cards
    return own if own is not None else bundled_cards_root()


def bundled_cards_dir(game_id: str) -> Path:
    """The card folder a game ships with: the one its ``Game.card_folder``
    declares (a plugin's own package), else ``<id with underscores>`` under
    :func:`bundled_cards_root`."""
    from .registry import get_game
    declared = get_game(game_id).card_folder
    return Path(declared) if declared is not None else bundled_cards_root() / game_id.replace("-", "_")


def cards_dir(game_id: str) -> Path:
    """The game's card folder: in the workspace's card folder when it holds the
    game, otherwise the bundled one (so ``workbench init DIR --game X`` and
    ``--cards DIR`` still leave the other games playable)."""
    root = current().cards
    if root is None:
        return bundled_cards_dir(game_id)
    own = root / game_id.replace("-", "_")
    if own.is_dir():
        return own
    bundled = bundled_cards_dir(game_id)
    return bundled if bundled.is_dir() else own


#: the largest file the workbench reads (card files are a few dozen KB, a rulebook
#: a few hundred); anything bigger is almost certainly the wrong file.
MAX_FILE_BYTES = 4 * 1024 * 1024
#: deepest nesting of YAML collections accepted (card files nest 4 deep)
MAX_YAML_DEPTH = 50
#: most nodes a YAML document may hold once aliases are expanded
MAX_YAML_NODES = 200_000


def read_text_file(path: Path, *, limit: int = MAX_FILE_BYTES) -> str:
    """The text of a designer's file, refused with one clear line when it is
    missing, too big, binary or not UTF-8 (a leading BOM is accepted)."""
    return decode_text(read_file_bytes(path, limit=limit), path)


def read_file_bytes(path: Path, *, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a designer's file (see :func:`read_text_file`).

    The file must be a regular file (a link to one is fine): ``os.stat`` says so
    before anything is opened, so a FIFO never blocks the reader and a link to
    ``/dev/zero`` is never read; the file is opened non-blocking and checked
    again on the open descriptor, so swapping it between the two looks gains
    nothing."""
    path = Path(path)
    try:
        check_regular_file(os.stat(path), path, limit)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
        with os.fdopen(fd, "rb") as handle:
            check_regular_file(os.fstat(handle.fileno()), path, limit)
            raw = handle.read(limit + 1)
    except FileNotFoundError:
        raise DataError("no such file", file=str(path)) from None
    except OSError as exc:
        raise DataError(f"cannot read: {exc.strerror or exc}", file=str(path)) from None
    if len(raw) > limit:
        raise DataError(f"is larger than {limit / 1e6:.0f} MB, the most the workbench reads", file=str(path))
    return raw


def special_kind(mode: int) -> str | None:
    """What a file of ``mode`` (a stat's ``st_mode``) is when it is neither a
    regular file nor a folder ("a named pipe (FIFO)", "a device", "a socket"),
    else None: the one test of special files, for the readers here and for
    :func:`workbench.core.storage.refuse_special`."""
    import stat as stat_module
    if stat_module.S_ISREG(mode) or stat_module.S_ISDIR(mode):
        return None
    return ("a named pipe (FIFO)" if stat_module.S_ISFIFO(mode)
            else "a device" if stat_module.S_ISCHR(mode) or stat_module.S_ISBLK(mode)
            else "a socket" if stat_module.S_ISSOCK(mode) else "of an unknown kind")


def check_regular_file(st: os.stat_result, path: Path, limit: int = MAX_FILE_BYTES) -> None:
    """Refuse, from its ``stat``, anything but a regular file within ``limit``
    bytes: a folder, a FIFO, a device (``/dev/zero``), a socket."""
    import stat as stat_module
    if stat_module.S_ISDIR(st.st_mode):
        raise DataError("is a folder, not a file", file=str(path))
    kind = special_kind(st.st_mode)
    if kind is not None:
        raise DataError(f"is {kind}, not a regular file; the workbench reads only regular files",
                        file=str(path))
    if st.st_size > limit:
        raise DataError(f"is {st.st_size / 1e6:.1f} MB; the workbench reads files up to "
                        f"{limit / 1e6:.0f} MB (is it the right file?)", file=str(path))


def file_digest(path: Path) -> str | None:
    """SHA-256 of a designer's file read safely (:func:`read_file_bytes`), or
    None when it cannot be read as a regular file within the size limit."""
    import hashlib
    try:
        return hashlib.sha256(read_file_bytes(path)).hexdigest()
    except DataError:
        return None


def decode_text(raw: bytes, path: Path) -> str:
    """``raw`` as text, or one line saying why it is not (binary, not UTF-8)."""
    if b"\x00" in raw:
        raise DataError("is a binary file, not text (save it as UTF-8 text)", file=str(path))
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise DataError(f"is not UTF-8 text (bad byte at line {line}); save it as UTF-8",
                        file=str(path)) from None


class _LimitedLoader(yaml.SafeLoader):
    """PyYAML's safe loader, refusing documents nested too deep or too big once
    aliases are expanded (the composer is recursive, and an alias bomb is small
    on disk but huge for whoever walks it)."""

    def __init__(self, stream):
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent, index):
        self._depth += 1
        try:
            if self._depth > MAX_YAML_DEPTH:
                mark = self.peek_event().start_mark
                raise yaml.YAMLError(f"nested more than {MAX_YAML_DEPTH} levels deep at line {mark.line + 1}")
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def compose_document(self):
        node = super().compose_document()
        _check_expanded_size(node)
        return node

    def construct_yaml_int(self, node):
        return _in_range_int(self, node)


def _in_range_int(loader, node):
    """A whole number of a YAML document, refused beyond 64 bits: no count,
    cost or seed of a physical game needs more, and the engine (numpy columns,
    the native extension, Parquet) holds no more."""
    value = yaml.constructor.SafeConstructor.construct_yaml_int(loader, node)
    if not INT_MIN <= value <= INT_MAX:
        raise _OutOfRange(
            None, None, f"the number {node.value} is beyond the 64-bit whole numbers the workbench "
            f"holds (at most {INT_MAX:,})", node.start_mark)
    return value


class _OutOfRange(yaml.constructor.ConstructorError):
    """A whole number too large for the engine (valid YAML, refused data)."""


#: the engine's whole-number range (signed 64-bit): larger numbers in a file are refused
INT_MIN, INT_MAX = -(2 ** 63), 2 ** 63 - 1
_LimitedLoader.add_constructor("tag:yaml.org,2002:int", _LimitedLoader.construct_yaml_int)


def _check_expanded_size(root) -> None:
    """Count the nodes of ``root`` with aliases expanded (memoised, so counting a
    bomb is cheap) and refuse a document above :data:`MAX_YAML_NODES`."""
    sizes: dict[int, int] = {}

    def size(node) -> int:
        key = id(node)
        if key in sizes:
            return sizes[key]
        sizes[key] = 1  # a recursive alias counts once instead of looping
        total = 1
        if isinstance(node, yaml.SequenceNode):
            total += sum(size(child) for child in node.value)
        elif isinstance(node, yaml.MappingNode):
            total += sum(size(k) + size(v) for k, v in node.value)
        total = min(total, MAX_YAML_NODES + 1)
        sizes[key] = total
        return total

    if root is not None and size(root) > MAX_YAML_NODES:
        raise yaml.YAMLError(f"expands to more than {MAX_YAML_NODES} values through aliases "
                             "(an alias bomb?)")


if getattr(yaml, "__with_libyaml__", False):
    class _FastLoader(yaml.CSafeLoader):
        """libyaml's parser and composer (six times faster than PyYAML's own,
        which is most of the start-up of a command reading a card folder)
        under the same safe constructors and whole-number range as
        :class:`_LimitedLoader`. It only ever accepts: a document deeper than
        :data:`MAX_YAML_DEPTH`, too big once aliases are expanded, or with any
        problem at all is handed to :class:`_LimitedLoader`, whose refusal
        (and its message) is then the one the designer reads."""

        def get_single_node(self):
            node = super().get_single_node()
            if node is not None and (_depth_of(node) > MAX_YAML_DEPTH or _expanded_size(node) > MAX_YAML_NODES):
                raise _Retry
            return node

    _FastLoader.add_constructor("tag:yaml.org,2002:int", _in_range_int)
else:  # pragma: no cover - a PyYAML built without libyaml
    _FastLoader = None


class _Retry(Exception):
    """The fast loader declines a document: :class:`_LimitedLoader` decides."""


def _depth_of(root) -> int:
    """Nesting depth of a composed document, counted as :class:`_LimitedLoader`
    counts it (the root is 1); an alias is walked where it stands, so a
    document reusing a deep anchor counts deeper here, and goes to the slow
    loader, which decides."""
    depth, stack, seen = 0, [(root, 1)], set()
    while stack:
        node, d = stack.pop()
        depth = max(depth, d)
        if depth > MAX_YAML_DEPTH or id(node) in seen:
            return depth if depth > MAX_YAML_DEPTH else MAX_YAML_DEPTH + 1  # a loop: let the slow loader judge
        if isinstance(node, yaml.SequenceNode):
            seen.add(id(node))
            stack += [(child, d + 1) for child in node.value]
        elif isinstance(node, yaml.MappingNode):
            seen.add(id(node))
            stack += [(x, d + 1) for pair in node.value for x in pair]
    return depth


def _expanded_size(root) -> int:
    try:
        _check_expanded_size(root)
    except yaml.YAMLError:
        return MAX_YAML_NODES + 1
    return 0


#: texts parsed lately (text -> pickled values), most recent last. A balance search,
#: a paired playtest or a prune writes trial folders in which most files are the
#: same text as the designer's and reads them back dozens of times: parsing (and
#: the depth and alias checks) was most of such a run. Only a text that parsed
#: without any problem is kept; each caller gets its own fresh copy.
_PARSED: OrderedDict[str, bytes] = OrderedDict()
_PARSED_LOCK = threading.Lock()
_PARSED_MAX = 256
_PARSED_MAX_TEXT = 4_000_000
#: the other way round: (fast, repr of the values) -> YAML text (see :func:`dump_yaml`)
_DUMPED: OrderedDict[tuple[bool, str], str] = OrderedDict()
_DUMPED_MAX = 64


def safe_load_text(text: str, *, file: str | None = None) -> Any:
    """Parse YAML text with :class:`_LimitedLoader`; every problem is a
    :class:`DataError` naming the file and line. A document the fast libyaml
    loader reads without any problem is read by it (the same values). A text
    read before gives a fresh copy of the same values without parsing again."""
    with _PARSED_LOCK:
        kept = _PARSED.get(text)
        if kept is not None:
            _PARSED.move_to_end(text)
    if kept is not None:
        return pickle.loads(kept)
    data = _parse_text(text, file=file)
    if len(text) <= _PARSED_MAX_TEXT:
        try:
            kept = pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # noqa: BLE001 - a value pickle cannot keep is simply not cached
            return data
        with _PARSED_LOCK:
            _PARSED[text] = kept
            while len(_PARSED) > _PARSED_MAX:
                _PARSED.popitem(last=False)
    return data


def _parse_text(text: str, *, file: str | None = None) -> Any:
    """:func:`safe_load_text` without the cache."""
    if _FastLoader is not None:
        fast = None
        try:
            fast = _FastLoader(text)
            return fast.get_single_data()
        except Exception:  # noqa: BLE001 - any doubt: the careful loader decides and words it
            pass
        finally:
            if fast is not None:
                fast.dispose()
    loader = None
    try:
        loader = _LimitedLoader(text)  # the reader refuses control characters at once
        return loader.get_single_data()
    except yaml.reader.ReaderError as exc:
        raise DataError(f"not valid YAML: character U+{exc.character:04X} is not allowed in a YAML file "
                        "(is it a binary file?)", file=file) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        if isinstance(exc, _OutOfRange):
            raise DataError(f"{problem}{where}", file=file) from None
        raise DataError(f"not valid YAML{where}: {problem}", file=file) from None
    except RecursionError:
        raise DataError(f"nested more than {MAX_YAML_DEPTH} levels deep", file=file) from None
    finally:
        if loader is not None:
            loader.dispose()


def load_yaml(path: Path) -> Any:
    """Parse a YAML file safely (see :func:`read_text_file` and
    :func:`safe_load_text`); every problem names the file and line."""
    path = Path(path)
    return safe_load_text(read_text_file(path), file=str(path))


#: a whole number that must be written as one: ``true`` is refused, not read as 1
Int = Annotated[int, Strict()]

NAME_PUNCTUATION = " -'’:.,()/!?+"
_NAME = re.compile(r"[^\W_](?:[^\W_]|[ \-'’:.,()/!?+])*")
MAX_NAME = 60


def check_card_name(value: str) -> str:
    """A card name: letters, digits, spaces and a little punctuation, at most
    :data:`MAX_NAME` characters; nothing that is markup in HTML or Markdown, so a
    name can never run as code wherever it is shown."""
    if len(value) > MAX_NAME:
        raise ValueError(f"a card name is at most {MAX_NAME} characters")
    if not _NAME.fullmatch(value):
        bad = "".join(sorted({c for c in value if not (c.isalnum() or c in NAME_PUNCTUATION)}))
        if bad:
            raise ValueError(f"a card name holds letters, digits, spaces and {NAME_PUNCTUATION.strip()} "
                             f"only, not {bad!r}")
        raise ValueError("a card name starts with a letter or digit")
    return value


#: a validated card name (see :func:`check_card_name`)
CardName = Annotated[str, AfterValidator(check_card_name)]


def validation_error(exc, *, file: str, card: str | None = None, model=None) -> DataError:
    """Turn a pydantic ``ValidationError`` into a :class:`DataError` that names the
    file, the card, the first failing field (its path inside the card) and, in
    the designer's words, what is allowed there (:func:`designer_message`).
    ``model`` (the pydantic class validated) lets an unknown field's message list
    the fields the card has; without it the class is looked up by the error's
    title."""
    errors = exc.errors(include_url=False)
    first = errors[0] if errors else {"loc": (), "msg": str(exc), "type": ""}
    loc = [str(p) for p in first.get("loc", ())]
    field = ".".join(loc) if loc else None
    more = f" (and {len(errors) - 1} more problem(s))" if len(errors) > 1 else ""
    model = model or _model_named(getattr(exc, "title", ""))
    return DataError(f"{designer_message(first, model)}{more}", file=file, card=card, field=field)


def designer_message(error: dict, model=None) -> str:
    """One pydantic error (an item of ``ValidationError.errors()``) said as a
    designer would: what is wrong with the value and what is allowed. The one
    place pydantic's wording ("Extra inputs are not permitted", "Input should be
    a valid integer") is translated."""
    kind = error.get("type", "")
    ctx = error.get("ctx") or {}
    value = error.get("input")
    shown = repr(value) if not isinstance(value, (dict, list)) else ("a mapping" if isinstance(value, dict)
                                                                    else "a list")
    loc = [p for p in error.get("loc", ()) if not isinstance(p, int)]
    if kind == "extra_forbidden":
        allowed = _fields_at(model, list(error.get("loc", ()))[:-1])
        known = f"; the fields here are {', '.join(allowed)}" if allowed else ""
        return f"{str(loc[-1]) if loc else 'this field'!r} is not a field the workbench knows{known} (misspelt?)"
    if kind == "missing":
        return "is missing; this field is required"
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return f"must be a whole number, not {shown}"
    if kind in ("float_type", "float_parsing"):
        return f"must be a number, not {shown}"
    if kind in ("bool_type", "bool_parsing"):
        return f"must be true or false, not {shown}"
    if kind in ("string_type",):
        return f"must be text, not {shown}"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return f"must be a mapping (key: value lines), not {shown}"
    if kind in ("list_type", "tuple_type", "set_type"):
        return f"must be a list, not {shown}"
    if kind == "literal_error" or kind == "enum":
        return f"must be one of {ctx.get('expected', '?')}, not {shown}"
    if kind == "greater_than_equal":
        return f"must be at least {ctx.get('ge')}, not {shown}"
    if kind == "greater_than":
        return f"must be more than {ctx.get('gt')}, not {shown}"
    if kind == "less_than_equal":
        return f"must be at most {ctx.get('le')}, not {shown}"
    if kind == "less_than":
        return f"must be less than {ctx.get('lt')}, not {shown}"
    if kind in ("too_short", "too_long"):
        least, most = ctx.get("min_length"), ctx.get("max_length")
        things = "characters" if isinstance(value, str) else "entries"
        if kind == "too_short":
            return f"needs at least {least} {things}"
        return f"holds at most {most} {things}"
    if kind == "value_error":
        message = str(error.get("msg", ""))
        return message.removeprefix("Value error, ")
    if kind == "assertion_error":
        return str(error.get("msg", "")).removeprefix("Assertion failed, ")
    return str(error.get("msg", "invalid value"))


def _fields_at(model, loc: list) -> list[str]:
    """The field names of the pydantic model found at ``loc`` inside ``model``
    (list indexes and mapping keys skipped over), or [] when it cannot be told."""
    import typing

    from pydantic import BaseModel

    def models_in(annotation) -> list:
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            return [annotation]
        return [m for arg in typing.get_args(annotation) for m in models_in(arg)]

    current = model
    for part in loc:
        if current is None:
            return []
        if isinstance(part, int) or part not in getattr(current, "model_fields", {}):
            continue
        found = models_in(current.model_fields[part].annotation)
        current = found[0] if len(found) == 1 else None
    if current is None or not hasattr(current, "model_fields"):
        return []
    return [f.alias or name for name, f in current.model_fields.items()]


def _model_named(title: str):
    """The one pydantic model class called ``title`` (None when none or several)."""
    if not title:
        return None
    from pydantic import BaseModel
    found, stack = [], list(BaseModel.__subclasses__())
    while stack:
        cls = stack.pop()
        if cls.__name__ == title and cls.__module__.startswith("workbench."):
            found.append(cls)
        stack.extend(cls.__subclasses__())
    return found[0] if len(found) == 1 else None


def dump_yaml(data: Any, *, fast: bool = False) -> str:
    """YAML as designers like to read it: block style, keys in the order given,
    unicode kept. ``fast``: libyaml's emitter (several times faster; the same
    values, though a long line may break elsewhere), for a text only the
    loader reads, such as the copy a tweak session validates."""
    fast = fast and getattr(yaml, "__with_libyaml__", False)
    # a session validates, and a search writes, the same unchanged files again and
    # again: the same values (repr tells 1 from True from 1.0 and keeps key order)
    # give the same text, so a recent one is reused
    key = (fast, repr(data))
    with _PARSED_LOCK:
        text = _DUMPED.get(key)
        if text is not None:
            _DUMPED.move_to_end(key)
            return text
    text = yaml.dump(data, Dumper=yaml.CSafeDumper if fast else yaml.SafeDumper, sort_keys=False,
                     allow_unicode=True, width=100)
    with _PARSED_LOCK:
        _DUMPED[key] = text
        while len(_DUMPED) > _DUMPED_MAX:
            _DUMPED.popitem(last=False)
    return text
