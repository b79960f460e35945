"""``workbench rules``: render, review, import and glossary for rulebooks."""

from __future__ import annotations

import sys

from .common import emit_json


def add_parser(sub) -> None:
    p = sub.add_parser("rules", help="rulebooks: render, review translations, import, glossary",
                       description="Work with rulebooks and their translations.")
    rs = p.add_subparsers(dest="rules_command", metavar="ACTION", required=True)

    r = rs.add_parser("render", help="print a rulebook in a language, placeholders filled")
    r.add_argument("game")
    r.add_argument("--lang", required=True, help="language code, e.g. en, hu or pt-BR")
    r.add_argument("--template", default=None, metavar="FILE",
                   help="render this Markdown template instead of the game's rulebook")
    r.add_argument("--template-lang", default=None, metavar="LANG",
                   help="the language the template's prose is in (default: the game's original language)")
    r.add_argument("--plain", action="store_true",
                   help="leave out the marks for draft values (‡) and rulings (†), their legend and the "
                        "<!-- rule: --> marker comments, for print")
    r.set_defaults(func=run_render)

    pdf = rs.add_parser("pdf", help="the rulebook as a PDF, or two languages side by side",
                        description="Typeset the rendered rulebook (clause ids and rulings marked); with "
                                    "--side-by-side LANG2 a two-column PDF matched clause by clause.")
    pdf.add_argument("game")
    pdf.add_argument("--lang", required=True)
    pdf.add_argument("--side-by-side", default=None, metavar="LANG2", dest="side_by_side",
                     help="a second language in the right-hand column")
    pdf.add_argument("--paper", default="a4", choices=["a4", "letter"])
    pdf.add_argument("--out", required=True, metavar="FILE.pdf",
                     help="where to write the PDF (missing folders on the way are created)")
    pdf.set_defaults(func=run_pdf)

    v = rs.add_parser("review", help="review a translation clause by clause")
    v.add_argument("game")
    v.add_argument("--lang", required=True)
    v.add_argument("--no-spell", action="store_true", help="skip the spelling check")
    v.add_argument("--spelling-locale", default=None, metavar="LOCALE",
                   help="spell against this locale (en-GB, en-US); default: the catalogue's "
                        "X-Spelling-Locale header, else its Language")
    v.add_argument("--json", action="store_true", help="print one JSON document")
    v.set_defaults(func=run_review)

    i = rs.add_parser("import", help="split a rulebook into clauses, or import a translated Markdown",
                      description="Without markers (or in the original's language): split FILE into clauses "
                                  "with stable ids and write Markdown plus an empty .pot. With the game's "
                                  "clause markers and another language: update cards/<game>/rules/<lang>.po.")
    i.add_argument("file", metavar="FILE")
    i.add_argument("--lang", required=True)
    i.add_argument("--game", default=None)
    i.add_argument("--out", default=None, metavar="DIR", help="where the split writes (default FILE-rules/; missing folders on the way "
                   "are created)")
    i.add_argument("--force", action="store_true",
                   help="import even where the translation holds rendered numbers in place of the "
                        "original's placeholders (they stop following the card data)")
    i.add_argument("--json", action="store_true", help="print one JSON document")
    i.set_defaults(func=run_import)

    u = rs.add_parser("update", help="bring the translations in line with a changed original",
                      description="Update cards/<game>/rules/<lang>.po after the original changed: changed "
                                  "clauses keep their translation marked fuzzy, removed ones become obsolete.")
    u.add_argument("game")
    u.add_argument("--lang", action="append", default=[], help="a language (default: every .po)")
    u.add_argument("--json", action="store_true", help="print one JSON document")
    u.set_defaults(func=run_update)

    t = rs.add_parser("terms", help="a game's terminology: one rendering per term?",
                      description="Each game term with its rendering in LANG and the clauses that use it; "
                                  "flags a term with two renderings, a clause that renders a term otherwise "
                                  "or uses a rendering for no source term, and a word that renders two terms. "
                                  "Exits 1 when the terminology is not one-to-one.")
    t.add_argument("game")
    t.add_argument("--lang", required=True)
    t.add_argument("--json", action="store_true", help="print one JSON document")
    t.set_defaults(func=run_terms)

    n = rs.add_parser("init-lang", help="start a new translation (an empty catalogue)",
                      description="Start cards/<game>/rules/<lang>.po from the original: every clause an "
                                  "untranslated entry. Refused when the catalogue exists (use rules update).")
    n.add_argument("game")
    n.add_argument("--lang", required=True, help="the new language, e.g. de or pt-BR")
    n.add_argument("--json", action="store_true", help="print one JSON document")
    n.set_defaults(func=run_init_lang)

    g = rs.add_parser("glossary", help="term pairs and icon-marked terms of a text")
    g.add_argument("file", metavar="FILE")
    g.add_argument("--yaml", metavar="LANG,OTHER", default=None,
                   help="print the pairs as glossary.yaml entries, e.g. --yaml hu,en for 'Kincs (Treasure)'")
    g.add_argument("--json", action="store_true", help="print one JSON document")
    g.set_defaults(func=run_glossary)


def _game_id(name: str) -> str:
    from workbench.core.errors import WorkbenchError, suggest
    from workbench.core.registry import game_ids
    if name not in game_ids():
        raise WorkbenchError(f"unknown game {name!r}{suggest(name, game_ids())}; choose one of "
                             + ", ".join(game_ids()))
    return name


def _engine(game_id: str):
    """The game's engine if it loads; rules work without it (terms only)."""
    from workbench.core.registry import get_game
    try:
        return get_game(game_id)
    except Exception:
        return None


def run_render(args) -> int:
    from pathlib import Path

    from workbench.rules.render import render

    from .validate import lang
    game_id = _game_id(args.game)
    lang(args.lang)
    res = render(game_id, args.lang, template=Path(args.template) if args.template else None,
                 game=_engine(game_id), plain=args.plain, template_lang=args.template_lang)
    sys.stdout.write(res.text)
    if res.untranslated:
        print(f"rules render: {len(res.untranslated)} entries not translated into {args.lang}, shown in the "
              f"original: {', '.join(res.untranslated[:5])}{' ...' if len(res.untranslated) > 5 else ''}",
              file=sys.stderr)
    if res.fuzzy:
        print(f"rules render: {len(res.fuzzy)} translations out of date (fuzzy)", file=sys.stderr)
    if res.unresolved:
        for u in res.unresolved:
            where = f"{u['where']}" + (f" (line {u['line']})" if u.get("line") else "")
            print(f"rules render: unresolved {u['placeholder']} in {where}: {u['reason']}", file=sys.stderr)
        print(f"rules render: {len(res.unresolved)} unresolved placeholder(s)", file=sys.stderr)
        return 1
    return 0


def run_pdf(args) -> int:
    from workbench.print.rulebook import compile_book, side_by_side, single

    from . import validate
    game_id = _game_id(args.game)
    validate.lang(args.lang)
    if args.side_by_side:
        validate.lang(args.side_by_side, "--side-by-side")
    out = validate.out_path(args.out, "--out", (".pdf",))
    book = (side_by_side(game_id, args.lang, args.side_by_side, paper=args.paper) if args.side_by_side
            else single(game_id, args.lang, paper=args.paper))
    compile_book(book, out)
    for w in book.warnings:
        print(f"rules pdf: {w}", file=sys.stderr)
    print(f"wrote {out}: {game_id} in {' | '.join(book.langs)}, {book.clauses} clauses; rules {book.version}")
    return 0


def run_review(args) -> int:
    from workbench.rules.review import review

    from .validate import lang
    game_id = _game_id(args.game)
    lang(args.lang)
    locale = args.spelling_locale
    if locale is not None and not __import__("re").fullmatch(r"[a-z]{2,3}(?:[-_][A-Za-z]{2})?", locale):
        from workbench.core.errors import WorkbenchError
        raise WorkbenchError(f"--spelling-locale {locale!r}: write a locale such as en-GB or en-US")
    rev = review(game_id, args.lang, spelling=not args.no_spell, game=_engine(game_id),
                 spelling_locale_setting=locale)
    if args.json:
        emit_json(rev.to_dict())
        return 0 if rev.ok else 1
    print(f"{game_id}: {args.lang} translation of the {rev.source_lang} original: {rev.entries} entries, "
          f"{rev.translated} translated, {rev.fuzzy} fuzzy, {rev.missing} missing; spelling {rev.spelling}")
    for clause, items in rev.by_clause().items():
        print(f"  {clause}")
        for f in items:
            print(f"    [{f.check}] {f.message}")
            if f.explanation:
                print(f"        ({f.explanation})")
    if rev.accepted:
        print(f"  {len(rev.accepted)} finding(s) accepted in accepted-findings.yaml")
    for st in rev.stale:
        print(f"  stale acceptance (matches nothing now): {st.get('clause', '*')} [{st.get('check', '*')}] "
              f"{st.get('detail', '')}")
    print(f"{len(rev.findings)} finding(s)" + (" to fix" if rev.findings else ""))
    return 0 if rev.ok else 1


def run_import(args) -> int:
    from pathlib import Path

    from workbench.core.errors import WorkbenchError
    from workbench.rules.catalog import import_translation, source_language
    from workbench.rules.model import RULE_RE

    from workbench.core.data import read_text_file

    from .validate import lang, out_path
    lang(args.lang)
    path = Path(args.file)
    if not path.is_file():
        raise WorkbenchError(f"no such file: {path}")
    text = read_text_file(path)
    from workbench.core.registry import game_ids
    if args.game in game_ids():  # another id names a new game being split for the first time
        src_lang = source_language(args.game)
        if src_lang and args.lang != src_lang and RULE_RE.search(text):
            _cat, summary = import_translation(args.game, args.lang, path, force=args.force)
            doc = {"mode": "translation", "game": args.game, "lang": args.lang,
                   "catalog": f"cards/{args.game.replace('-', '_')}/rules/{args.lang}.po", **summary.to_dict()}
            if args.json:
                emit_json(doc)
            else:
                print(f"{doc['catalog']}: {len(summary.translated)} entries imported, {len(summary.changed)} "
                      f"marked fuzzy (source changed), {len(summary.new)} new untranslated, "
                      f"{len(summary.obsolete)} kept as obsolete")
            return 0
    from workbench.rules.importer import import_file
    if args.out:
        out_path(args.out, "--out", None, folder_ok=True)  # a folder: made if missing
    imp, md_path, pot_path = import_file(path, lang=args.lang, game=args.game,
                                         out_dir=Path(args.out) if args.out else None)
    if args.json:
        emit_json({"mode": "split", "game": imp.game, "lang": imp.lang, "markdown": str(md_path),
                   "template": str(pot_path), "sections": imp.sections, "clauses": imp.clauses})
    else:
        print(f"{len(imp.clauses)} clauses in {len(imp.sections)} sections")
        print(f"wrote {md_path} and {pot_path}")
    return 0


def run_update(args) -> int:
    from workbench.core.errors import WorkbenchError
    from workbench.rules.catalog import translation_languages, update_game_catalog
    from .validate import lang
    game_id = _game_id(args.game)
    langs = [lang(x) for x in args.lang] or translation_languages(game_id)
    if not langs:
        raise WorkbenchError(f"{game_id} has no translations to update")
    have = translation_languages(game_id)
    for code in langs:
        # update never starts a translation: a typo (--lang zh for hu) would leave a new file behind
        if code not in have:
            raise WorkbenchError(f"{game_id} has no {code} translation to update (it has "
                                 f"{', '.join(have) or 'none'}); start one with "
                                 f"`workbench rules init-lang {game_id} --lang {code}`")
    summaries = [update_game_catalog(game_id, lang)[1] for lang in langs]
    if args.json:
        emit_json({"game": game_id, "languages": [s.to_dict() for s in summaries]})
        return 0
    for s in summaries:
        print(f"{s.lang}.po: {len(s.changed)} marked fuzzy (source changed), {len(s.new)} new untranslated, "
              f"{len(s.obsolete)} kept as obsolete, {len(s.revived)} restored")
    return 0


def run_terms(args) -> int:
    from workbench.core.errors import WorkbenchError
    from workbench.rules import catalog as C
    from workbench.rules.terminology import terminology

    from .validate import lang
    game_id = _game_id(args.game)
    lang(args.lang)
    src = C.source_language(game_id)
    if src is None or args.lang == src or not C.po_path(game_id, args.lang).exists():
        raise WorkbenchError(f"{game_id} has no {args.lang} translation; choose one of "
                             + (", ".join(C.translation_languages(game_id)) or "none yet"))
    rep = terminology(game_id, args.lang)
    if args.json:
        emit_json(rep.to_dict())
        return 0 if rep.ok else 1
    print(f"{game_id}: terms of the {rep.source_lang} original in {rep.lang}")
    for r in rep.rows:
        marks = []
        if len(r.renderings) != 1:
            marks.append("more than one rendering")
        if r.otherwise:
            marks.append(f"rendered otherwise in {', '.join(r.otherwise)}")
        if r.unsourced:
            marks.append(f"used with no source term in {', '.join(r.unsourced)}")
        mark = f"   <- {'; '.join(marks)}" if marks else ""
        print(f"  {r.term:<32} {' | '.join(r.renderings):<34} {r.clauses:>3} clause(s){mark}")
    for word, terms in rep.shared.items():
        print(f"  {word!r} renders {len(terms)} terms: {', '.join(terms)}")
    print("one rendering per term, used for it in every clause" if rep.ok else "terminology is not one-to-one")
    return 0 if rep.ok else 1

def run_init_lang(args) -> int:
    from workbench.core.errors import WorkbenchError
    from workbench.rules.catalog import po_path, update_game_catalog
    from .validate import lang
    game_id = _game_id(args.game)
    code = lang(args.lang)
    path = po_path(game_id, code)
    if path.exists():
        raise WorkbenchError(f"{game_id} already has a {code} translation ({path.name}); "
                             f"use `workbench rules update {game_id} --lang {code}`")
    _cat, summary = update_game_catalog(game_id, code)
    if args.json:
        emit_json({"game": game_id, "catalog": str(path), **summary.to_dict()})
    else:
        print(f"started {path}: {len(summary.new)} entries to translate")
    return 0


def run_glossary(args) -> int:
    from pathlib import Path

    from workbench.core.errors import WorkbenchError
    from workbench.rules.glossary import extract_icon_terms, extract_pairs
    from workbench.core.data import read_text_file
    path = Path(args.file)
    text = read_text_file(path)
    pairs, icon_terms = extract_pairs(text), extract_icon_terms(text)
    if args.yaml:
        from workbench.core.data import dump_yaml
        from workbench.rules.glossary import glossary_entries_from
        langs = [x.strip() for x in args.yaml.split(",")]
        if len(langs) != 2 or not all(langs):
            raise WorkbenchError(f"--yaml takes two language codes, e.g. hu,en (got {args.yaml!r})")
        from .validate import lang
        for code in langs:
            lang(code, "--yaml")
        sys.stdout.write(dump_yaml(glossary_entries_from(pairs, langs[0], langs[1])))
        return 0
    if args.json:
        emit_json({"file": str(path), "pairs": [p.to_dict() for p in pairs],
                   "icons": [t.to_dict() for t in icon_terms]})
        return 0
    print(f"{len(pairs)} term pair(s):")
    for p in pairs:
        print(f"  {p.term} ({p.other})" + (f"  ×{p.count}" if p.count > 1 else ""))
    print(f"{len(icon_terms)} icon-marked term(s):")
    for t in icon_terms:
        print(f"  {t.icon}{t.term}" + (f"  ×{t.count}" if t.count > 1 else ""))
    return 0
