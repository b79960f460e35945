"""Translations as gettext PO catalogues (Babel), one entry per clause and heading.

``msgctxt`` is the clause id (or section id for a heading), ``msgid`` the source
body as :mod:`workbench.rules.model` extracts it, ``msgstr`` the translation.

Updating against a changed original never loses work: a clause whose source text
changed keeps its translation, flagged ``fuzzy``, and remembers the source it was
translated from as ``#| msgid`` (the oldest such source when it was already
fuzzy); a clause gone from the original is kept as an obsolete ``#~`` entry and
comes back, translation and all, if the clause returns.

The translator's header (Last-Translator, Language-Team, bug address, copyright
holder, the header comment) survives every update. A catalogue holding the same
msgctxt twice is refused, naming it. Importing a translated Markdown that was
rendered (numbers where the original has ``${...}`` placeholders) is refused
unless forced, and :func:`placeholder_problems` checks every translation's
placeholders against the original (``workbench check`` runs it).

This module also knows where a game's rules files live (see README.md).
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from workbench.core.errors import DataError, WorkbenchError

from .model import Rulebook, load_rulebook

HEADER_COMMENT = ("# Translation of the {game} rulebook into {lang}.\n"
                  "# One entry per clause (msgctxt = clause id) and per heading (msgctxt = section id).\n"
                  "# Keep every ${{...}} placeholder of the source in the translation.\n#")


# ----------------------------------------------------------------------------- files
def rules_dir(game_id: str) -> Path:
    from workbench.core.data import cards_dir
    return cards_dir(game_id) / "rules"


def source_path(game_id: str) -> Path | None:
    """The original rulebook: the one ``.md`` without a ``.po`` of its name."""
    folder = rules_dir(game_id)
    if not folder.is_dir():
        return None
    mds = sorted(folder.glob("*.md"))
    if len(mds) > 1:
        mds = [p for p in mds if not p.with_suffix(".po").exists()]
    if not mds:
        return None
    if len(mds) > 1:
        raise DataError("several rulebooks and no way to tell the original: "
                        + ", ".join(p.name for p in mds), file=str(folder))
    return mds[0]


def source_language(game_id: str) -> str | None:
    path = source_path(game_id)
    return path.stem if path else None


def po_path(game_id: str, lang: str) -> Path:
    return rules_dir(game_id) / f"{lang}.po"


def translation_languages(game_id: str) -> list[str]:
    folder = rules_dir(game_id)
    return sorted(p.stem for p in folder.glob("*.po")) if folder.is_dir() else []


def load_source(game_id: str) -> Rulebook | None:
    path = source_path(game_id)
    return load_rulebook(path, game=game_id) if path else None


# --------------------------------------------------------------------------- catalogues
def _locale(lang: str):
    from babel import Locale, UnknownLocaleError
    try:
        return Locale.parse(lang.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        return None


def new_catalog(game_id: str, lang: str | None, *, creation_date=None):
    from babel.messages.catalog import Catalog
    when = creation_date or datetime.now(timezone.utc).replace(microsecond=0)
    cat = Catalog(locale=_locale(lang) if lang else None, project=f"{game_id} rules", version="1",
                  header_comment=HEADER_COMMENT.format(game=game_id, lang=lang or "LANGUAGE"),
                  creation_date=when, revision_date=when, fuzzy=False,
                  language_team=None, last_translator=None)
    return cat


_MSGCTXT = re.compile(r'^msgctxt\s+"((?:[^"\\]|\\.)*)"\s*$')
_CONTINUATION = re.compile(r'^"((?:[^"\\]|\\.)*)"\s*$')


def duplicate_contexts(text: str) -> dict[str, list[int]]:
    """``{msgctxt: [line, line, ...]}`` for every context that live (not ``#~``)
    entries use more than once; Babel would keep one of them silently."""
    seen: dict[str, list[int]] = {}
    lines = text.splitlines()
    for n, line in enumerate(lines):
        m = _MSGCTXT.match(line.strip())
        if not m:
            continue
        value = m.group(1)
        for follow in lines[n + 1:]:
            c = _CONTINUATION.match(follow.strip())
            if not c:
                break
            value += c.group(1)
        seen.setdefault(value, []).append(n + 1)
    return {ctxt: where for ctxt, where in seen.items() if len(where) > 1}


_PO_LINE = re.compile(r'^(?:(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+)?"(?:[^"\\]|\\.)*"\s*$')


def check_po_syntax(text: str, file: str, *, duplicates: bool = False) -> None:
    """Babel reads a broken line without complaint and drops what it holds, so a
    catalogue is checked line by line first: every line is blank, a comment, or a
    keyword with one complete string (or a continuation string)."""
    for n, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if not _PO_LINE.match(stripped):
            raise DataError(f"line {n}: not valid PO syntax: {stripped[:60]!r} (a keyword and one quoted "
                            "string per line, inner quotes written as \\\")", file=file)
    dups = {} if duplicates else duplicate_contexts(text)
    if dups:
        ctxt, where = next(iter(dups.items()))
        more = f" (and {len(dups) - 1} more duplicated)" if len(dups) > 1 else ""
        raise DataError(f"msgctxt {ctxt!r} appears {len(where)} times (lines "
                        f"{', '.join(map(str, where))}); keep one entry per clause{more}", file=file)


def read_catalog(path: Path, *, duplicates: bool = False):
    from babel.messages.pofile import PoFileError, read_po
    from workbench.core.data import read_text_file
    path = Path(path)
    try:
        check_po_syntax(read_text_file(path), str(path), duplicates=duplicates)
        with path.open("rb") as fh:
            cat = read_po(fh, abort_invalid=True)
        _restore_previous(cat)
        return cat
    except OSError as exc:
        raise DataError(f"cannot read: {exc.strerror or exc}", file=str(path)) from None
    except UnicodeDecodeError:
        raise DataError("not UTF-8 text", file=str(path)) from None
    except (PoFileError, ValueError) as exc:
        raise DataError(f"not a valid PO file: {exc}", file=str(path)) from None


def parse_catalog_text(text: str):
    """A catalogue from PO text (what :func:`read_catalog` does for a file)."""
    from babel.messages.pofile import read_po
    check_po_syntax(text, "<text>")
    cat = read_po(io.BytesIO(text.encode("utf-8")), abort_invalid=True)
    _restore_previous(cat)
    return cat


def _restore_previous(catalog):
    """Babel writes ``#| msgid`` lines but reads them back as user comments; turn
    them into ``previous_id`` again so a fuzzy entry keeps its old source."""
    from babel.messages.pofile import unescape
    for msg in list(catalog) + list(catalog.obsolete.values()):
        prev = [c[1:].strip() for c in msg.user_comments if c.startswith("|")]
        if not prev:
            continue
        msg.user_comments = [c for c in msg.user_comments if not c.startswith("|")]
        literals, collecting = [], False
        for line in prev:
            if line.startswith("msgid "):
                collecting = True
                line = line[len("msgid "):]
            elif line.startswith("msgid_plural") or line.startswith("msgctxt"):
                collecting = False
            if collecting:
                literals.extend(_PO_STRING.findall(line))
        if literals:
            msg.previous_id = ["".join(unescape(lit) for lit in literals)]


_PO_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_ONE_LINE_PREVIOUS = re.compile(r'^#\| msgid (".*")$', re.M)


def _split_previous(text: str) -> str:
    """Babel writes a multi-line previous msgid on one line; gettext tools expect
    one string per line, as they write it themselves."""
    def fix(m: re.Match) -> str:
        lits = _PO_STRING.findall(m.group(1))
        if len(lits) <= 1:
            return m.group(0)
        return "\n".join([f"#| msgid {lits[0]}"] + [f"#| {lit}" for lit in lits[1:]])
    return _ONE_LINE_PREVIOUS.sub(fix, text)


def catalog_text(catalog) -> str:
    from babel.messages.pofile import write_po
    buf = io.BytesIO()
    write_po(buf, catalog, width=0, include_previous=True, sort_output=False)
    return _split_previous(buf.getvalue().decode("utf-8"))


def write_catalog(path: Path, catalog) -> None:
    from workbench.core.storage import atomic_write_text
    atomic_write_text(Path(path), catalog_text(catalog))


def entries_by_context(catalog) -> dict[str, object]:
    """Live entries keyed by msgctxt (entries without a context are ignored)."""
    return {m.context: m for m in catalog if m.id and m.context}


def obsolete_by_context(catalog) -> dict[str, object]:
    return {m.context: m for m in catalog.obsolete.values() if m.context}


def _previous(message) -> str | None:
    prev = message.previous_id
    if isinstance(prev, (list, tuple)):
        prev = prev[0] if prev else None
    return prev or None


@dataclass
class UpdateSummary:
    lang: str
    new: list[str] = field(default_factory=list)        # entries with no translation yet
    changed: list[str] = field(default_factory=list)    # source changed: translation kept, fuzzy
    obsolete: list[str] = field(default_factory=list)   # gone from the source, kept as #~
    revived: list[str] = field(default_factory=list)    # back from obsolete
    translated: list[str] = field(default_factory=list)  # set by an import

    def to_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items()}


def update_catalog(catalog, source: Rulebook, *, lang: str | None = None):
    """A new catalogue holding ``source``'s entries in document order, with every
    translation of ``catalog`` carried over (see the module docstring).
    Returns ``(catalog, UpdateSummary)``."""
    from babel.messages.catalog import Message
    old_locale = str(catalog.locale) if catalog is not None and catalog.locale else ""
    if lang and old_locale and old_locale.split("_")[0] == lang:
        lang = old_locale   # keep a region the translator chose (Language: en_GB picks British spelling)
    lang = lang or old_locale
    out = new_catalog(source.game, lang, creation_date=catalog.creation_date if catalog is not None else None)
    if catalog is not None:
        out.revision_date = catalog.revision_date
        _keep_header(catalog, out)
    summary = UpdateSummary(lang)
    live = entries_by_context(catalog) if catalog is not None else {}
    gone = obsolete_by_context(catalog) if catalog is not None else {}
    src_name = Path(source.path).name
    current = {e[0] for e in source.entries()}
    for ctxt, msgid, line in source.entries():
        old = live.get(ctxt)
        if old is None and ctxt in gone:
            old = gone[ctxt]
            summary.revived.append(ctxt)
        sec = source.sections.get(ctxt)
        comment = (f"heading of section {sec.slug}" if sec is not None
                   else _clause_comment(source, ctxt))
        msg = Message(msgid, "", locations=[(src_name, line)], auto_comments=[comment], context=ctxt)
        if old is not None:
            msg.string = old.string
            msg.user_comments = list(old.user_comments)
            if old.id == msgid:
                msg.flags = set(old.flags)
                prev = _previous(old)
                if prev and "fuzzy" in old.flags:
                    msg.previous_id = [prev]
            elif old.string:
                msg.flags = set(old.flags) | {"fuzzy"}
                prev = _previous(old) if "fuzzy" in old.flags else None
                msg.previous_id = [prev or old.id]
                summary.changed.append(ctxt)
            else:
                summary.new.append(ctxt)
        else:
            summary.new.append(ctxt)
        out[msgid] = msg
    for ctxt, old in list(live.items()) + [(c, m) for c, m in gone.items() if c not in live]:
        if ctxt in current or not old.string:
            continue  # still in the source, or nothing translated to keep
        out.obsolete[out._key_for(old.id, ctxt)] = old
        if ctxt in live:
            summary.obsolete.append(ctxt)
    return out, summary


#: header fields that belong to the translator, carried over by every update
_KEPT_HEADER = ("last_translator", "language_team", "msgid_bugs_address", "copyright_holder")


def _keep_header(old, new) -> None:
    """The translator's header fields and comment, from ``old`` onto ``new``."""
    for name in _KEPT_HEADER:
        value = getattr(old, name, None)
        if value:
            setattr(new, name, value)
    comment = getattr(old, "header_comment", None)
    if comment and comment.strip():
        new.header_comment = comment


def _clause_comment(source: Rulebook, ctxt: str) -> str:
    cl = source.clauses.get(ctxt)
    if cl is None:
        return ""
    sec = source.sections.get(cl.section) if cl.section else None
    return f"clause in section {sec.slug}" if sec else "clause"


def template_catalog(source: Rulebook):
    """An empty PO template (.pot) for ``source``."""
    cat, _ = update_catalog(None, source, lang=None)
    return cat


def update_game_catalog(game_id: str, lang: str, *, write: bool = True):
    """Bring ``cards/<game>/rules/<lang>.po`` in line with the original."""
    source = load_source(game_id)
    if source is None:
        raise WorkbenchError(f"{game_id} has no rules text yet")
    if lang == source.lang:
        raise WorkbenchError(f"{lang} is the original language of {game_id}; it has no catalogue")
    path = po_path(game_id, lang)
    old = read_catalog(path) if path.exists() else None
    cat, summary = update_catalog(old, source, lang=lang)
    if write:
        write_catalog(path, cat)
    return cat, summary


def translations(catalog) -> dict[str, tuple[str, bool]]:
    """``{msgctxt: (msgstr, fuzzy)}`` for every live entry with a translation."""
    return {m.context: (m.string, "fuzzy" in m.flags)
            for m in catalog if m.id and m.context and m.string}


def translation_from_markdown(source: Rulebook, translated: Rulebook) -> dict[str, str]:
    """Pair a translated Markdown with the original: clauses by id, headings by
    position. Raises :class:`DataError` listing what does not line up."""
    problems = []
    src_ids = [c for c in source.clauses if not source.clauses[c].auto]
    tr_ids = [c for c in translated.clauses if not translated.clauses[c].auto]
    missing = [c for c in src_ids if c not in translated.clauses]
    extra = [c for c in tr_ids if c not in source.clauses]
    if missing:
        problems.append("clauses missing: " + ", ".join(missing[:8]) + (" ..." if len(missing) > 8 else ""))
    if extra:
        problems.append("clauses not in the original: " + ", ".join(extra[:8]))
    src_heads = [s for s in source.sections.values()]
    tr_heads = [s for s in translated.sections.values()]
    if len(src_heads) != len(tr_heads):
        problems.append(f"{len(tr_heads)} headings, the original has {len(src_heads)}")
    src_auto = [c for c in source.clauses.values() if c.auto]
    tr_auto = [c for c in translated.clauses.values() if c.auto]
    if len(src_auto) != len(tr_auto):
        problems.append(f"{len(tr_auto)} unmarked paragraphs, the original has {len(src_auto)}")
    if problems:
        raise DataError("; ".join(problems), file=translated.path)
    out: dict[str, str] = {}
    for s, t in zip(src_heads, tr_heads):
        out[s.id] = t.title
    for cid in src_ids:
        out[cid] = translated.clauses[cid].body
    for s, t in zip(src_auto, tr_auto):
        out[s.id] = t.body
    return out


def lost_placeholders(source: Rulebook, pairs: dict[str, str]) -> dict[str, list[str]]:
    """``{msgctxt: [key, ...]}``: entries whose imported text lacks placeholders
    the original has (a rendered rulebook has numbers where ``${...}`` stood)."""
    from collections import Counter

    from .placeholders import find_placeholders
    originals = {ctxt: msgid for ctxt, msgid, _ in source.entries()}
    out: dict[str, list[str]] = {}
    for ctxt, text in pairs.items():
        if not text or ctxt not in originals:
            continue
        want = Counter(p.key for p in find_placeholders(originals[ctxt]))
        have = Counter(p.key for p in find_placeholders(text))
        missing = sorted((want - have).elements())
        if missing:
            out[ctxt] = missing
    return out


def import_translation(game_id: str, lang: str, path: Path, *, write: bool = True, force: bool = False):
    """Build or update ``cards/<game>/rules/<lang>.po`` from a translated Markdown
    carrying the original's markers. An entry whose imported text equals the
    translation already there keeps its fuzzy flag (re-importing an unrevised file
    must not hide that the source moved on); any other imported text clears it.

    A file whose entries lack the original's placeholders (a rendered rulebook)
    is refused unless ``force``: its numbers would stop following the card data."""
    source = load_source(game_id)
    if source is None:
        raise WorkbenchError(f"{game_id} has no original rulebook to translate")
    translated = load_rulebook(Path(path), game=game_id, lang=lang)
    pairs = translation_from_markdown(source, translated)
    lost = lost_placeholders(source, pairs)
    if lost and not force:
        ctxt, keys = next(iter(lost.items()))
        total = sum(len(k) for k in lost.values())
        raise WorkbenchError(
            f"{Path(path).name}: {len(lost)} entries would lose {total} placeholder(s) to rendered text "
            f"(first: {ctxt} lacks ${{{keys[0]}}}); import the Markdown with its ${{...}} placeholders "
            "(e.g. from the .po, not from 'rules render'), or pass --force to import it anyway")
    target = po_path(game_id, lang)
    old = read_catalog(target) if target.exists() else None
    cat, summary = update_catalog(old, source, lang=lang)
    live = entries_by_context(cat)
    for ctxt, text in pairs.items():
        msg = live[ctxt]
        if text and text != msg.string:
            msg.string = text
            msg.flags.discard("fuzzy")
            msg.previous_id = []
            summary.translated.append(ctxt)
    if summary.translated:
        cat.revision_date = datetime.now(timezone.utc).replace(microsecond=0)
    if write:
        write_catalog(target, cat)
    return cat, summary


def placeholder_problems(game_id: str, *, game=None) -> list[str]:
    """Every translation's placeholders checked against the original, one line
    per problem: a placeholder lost or added, one with no value in the
    translation's language, a filter that fails, a broken ``${``."""
    from collections import Counter

    from .placeholders import Unresolved, context_for, find_placeholders, is_defined, resolve_one, \
        stray_placeholders
    source = load_source(game_id)
    if source is None:
        return []
    originals = {ctxt: msgid for ctxt, msgid, _ in source.entries()}
    problems: list[str] = []
    for lang in translation_languages(game_id):
        if lang == source.lang:
            continue
        path = po_path(game_id, lang)
        try:
            live = entries_by_context(read_catalog(path))
            ctx = context_for(game_id, lang, game=game)
        except WorkbenchError as exc:
            problems.append(str(exc))
            continue
        for ctxt, msg in live.items():
            if not msg.string or ctxt not in originals:
                continue
            want = Counter(p.key for p in find_placeholders(originals[ctxt]))
            have = Counter(p.key for p in find_placeholders(msg.string))
            where = f"{path.name} {ctxt}"
            problems += [f"{where}: lacks ${{{k}}} of the original" for k in sorted(want - have)]
            problems += [f"{where}: has ${{{k}}}, which the original does not" for k in sorted(have - want)]
            for ph in find_placeholders(msg.string):
                if not is_defined(ctx, ph.key):
                    problems.append(f"{where}: ${{{ph.key}}} has no value in {lang}")
                    continue
                try:
                    resolve_one(ph, ctx)
                except Unresolved as exc:
                    problems.append(f"{where}: {ph.raw}: {exc}")
            problems += [f"{where}: {stray!r} is not a complete placeholder"
                         for stray in stray_placeholders(msg.string)]
    return problems
