"""Rulebook PDFs: one language, or two side by side for translation review on paper.

The text is the rules renderer's (``workbench.rules.render``: translation swapped in,
placeholders filled, and whatever marks the renderer adds), converted to Typst by
:mod:`.mdtypst`. Each clause is headed by its id in small grey type, with a ⚖ mark
naming the rulings (``cards/<game>/rulings.yaml``) that concern it. The side-by-side
book is a two-column table whose rows are matched by section and clause id.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from workbench.core.data import cards_dir, load_yaml, read_file_bytes
from workbench.core.errors import WorkbenchError

from .mdtypst import escape, markdown_to_typst
from .sheets import FONTS

PAGE = """#set page(paper: {paper}, margin: (x: {mx}, y: 18mm),
  footer: context align(center, text(7pt, fill: luma(90), {footer} + " · " + counter(page).display())))
#set text(font: ({fonts}), size: {size}, lang: {lang})
#set par(justify: false, leading: 0.55em)
#show regex("\\p{{Extended_Pictographic}}\\u{{FE0F}}?"): set text(font: "Noto Color Emoji")
"""


@dataclass
class Book:
    game: str
    langs: list[str]
    source: str                     # Typst markup
    version: str
    warnings: list[str] = field(default_factory=list)
    clauses: int = 0


def _s(text: str) -> str:
    """A Typst string literal (JSON's escapes are Typst's, as long as nothing is \\u-escaped)."""
    return json.dumps(text, ensure_ascii=False)


def rulings_by_clause(game_id: str) -> dict[str, list[str]]:
    path = cards_dir(game_id) / "rulings.yaml"
    out: dict[str, list[str]] = {}
    if path.exists():
        for r in load_yaml(path) or []:
            if isinstance(r, dict) and r.get("clause"):
                out.setdefault(str(r["clause"]), []).append(str(r.get("id", "?")))
    return out


def rules_version(game_id: str) -> str:
    """Eight hex digits over the rulebook's files (original, catalogues, terms, rulings)."""
    root = cards_dir(game_id)
    h = hashlib.sha256()
    files = sorted([*(root / "rules").glob("*"), *(root / "terms").glob("*.yaml"), root / "rulings.yaml"])
    for p in files:
        if p.is_file():
            h.update(p.relative_to(root).as_posix().encode() + b"\0" + read_file_bytes(p) + b"\0")
    return h.hexdigest()[:8]


def _clause_note(rulings: dict[str, list[str]]):
    def note(cid: str) -> str:
        mark = f" · ⚖ {', '.join(rulings[cid])}" if cid in rulings else ""
        return f"#block(below: 0.3em, text(6pt, fill: luma(110), {_s(cid + mark)}))\n"
    return note


def _render(game_id: str, lang: str, warnings: list[str]):
    from workbench.core.registry import get_game
    from workbench.rules.render import render
    try:
        engine = get_game(game_id)
    except Exception:
        engine = None
    res = render(game_id, lang, game=engine)
    if res.untranslated:
        warnings.append(f"{len(res.untranslated)} entries not translated into {lang}, shown in the original")
    if res.fuzzy:
        warnings.append(f"{len(res.fuzzy)} {lang} translations out of date (fuzzy)")
    for u in res.unresolved:
        warnings.append(f"unresolved {u['placeholder']} in {u['where']} ({lang}): {u['reason']}")
    return res


def _game_name(game_id: str) -> str:
    from workbench.core.registry import get_game
    return get_game(game_id).name


def single(game_id: str, lang: str, *, paper: str = "a4") -> Book:
    warnings: list[str] = []
    res = _render(game_id, lang, warnings)
    rulings = rulings_by_clause(game_id)
    version = rules_version(game_id)
    footer = _s(f"{_game_name(game_id)} · {lang} · rules {version}")
    body = markdown_to_typst(res.text, on_clause=_clause_note(rulings))
    head = PAGE.format(paper=_s("us-letter" if paper == "letter" else "a4"), mx="20mm",
                       footer=footer, fonts=", ".join(_s(f) for f in FONTS), size="9.5pt",
                       lang=_s(lang))
    return Book(game_id, [lang], head + body, version, warnings, body.count("#block(below: 0.3em"))


def side_by_side(game_id: str, lang: str, other: str, *, paper: str = "a4") -> Book:
    """Two columns, ``lang`` left and ``other`` right, one row per heading and clause."""
    from workbench.rules.model import parse_rulebook
    if other == lang:
        raise WorkbenchError("--side-by-side needs a second language other than --lang")
    warnings: list[str] = []
    left = parse_rulebook(_render(game_id, lang, warnings).text, game=game_id, lang=lang)
    right = parse_rulebook(_render(game_id, other, warnings).text, game=game_id, lang=other)
    rulings = rulings_by_clause(game_id)
    note = _clause_note(rulings)
    cells: list[str] = [f"[#strong[{lang}]]", f"[#strong[{other}]]"]
    rows: list[tuple[str | None, list[str]]] = []     # (clause id, its two cells)
    clauses = 0
    for seg in left.segments:
        if seg.kind == "heading":
            sec = left.sections[seg.ref]
            twin = right.sections.get(seg.ref)
            size = {1: "14pt", 2: "12pt"}.get(sec.level, "10.5pt")
            rows.append((None, [f"table.cell(fill: luma(235))[#text({size}, weight: \"bold\")[{escape(title)}]]"
                                for title in (sec.title, twin.title if twin else "—")]))
        elif seg.kind == "clause":
            cl = left.clauses[seg.ref]
            twin = right.clauses.get(seg.ref)
            # text outside any clause marker (a title's introduction) is shown, not counted:
            # the single-language book heads only marked clauses, and the counts agree
            head = "" if cl.auto else note(cl.id)
            clauses += not cl.auto
            if twin is None:
                warnings.append(f"{seg.ref} has no {other} clause")
            rows.append((cl.id, ["[" + head + markdown_to_typst(cl.body) + "]",
                                 "[" + (head + markdown_to_typst(twin.body) if twin else "—") + "]"]))
    # a clause only the second language has gets its row too, after the clause it follows there
    order = [seg.ref for seg in right.segments if seg.kind == "clause"]
    for i, cid in enumerate(order):
        cl = right.clauses[cid]
        if cid in left.clauses or cl.auto:
            continue
        warnings.append(f"{cid} has no {lang} clause")
        clauses += 1
        before = next((order[j] for j in range(i - 1, -1, -1) if order[j] in left.clauses), None)
        at = next((k + 1 for k, (rid, _) in enumerate(rows) if rid == before), len(rows))
        rows.insert(at, (cid, ["[—]", "[" + note(cid) + markdown_to_typst(cl.body) + "]"]))
    for _, pair in rows:
        cells += pair
    version = rules_version(game_id)
    footer = _s(f"{_game_name(game_id)} · {lang} | {other} · rules {version}")
    head = PAGE.format(paper=_s("us-letter" if paper == "letter" else "a4"), mx="12mm",
                       footer=footer, fonts=", ".join(_s(f) for f in FONTS), size="8pt",
                       lang=_s(lang))
    body = ("#table(columns: (1fr, 1fr), inset: 5pt, stroke: 0.4pt + luma(180), table.header("
            + ", ".join(cells[:2]) + "), " + ", ".join(cells[2:]) + ")\n")
    return Book(game_id, [lang, other], head + body, version, warnings, clauses)


def compile_book(book: Book, out: Path | None = None) -> bytes:
    import typst
    with tempfile.TemporaryDirectory(prefix="workbench-rules-") as tmp:
        from workbench.core import storage
        main = storage.scratch_write(tmp, "main.typ", book.source)
        try:
            data = typst.compile(str(main), root=tmp, format="pdf")
        except typst.TypstError as exc:
            from .sheets import typst_error
            raise WorkbenchError(typst_error(exc).replace("typesetting", "typesetting the rulebook", 1)) from None
    if out is not None:
        from workbench.core import storage
        storage.write_bytes(out, data, "--out")
    return data
