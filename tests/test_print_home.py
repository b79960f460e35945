"""Sheets for a home printer, measured from the PDFs: on A4 and US Letter every
mark, line, text and picture of every sheet of the three games lies at least
5 mm inside the paper (where home printers print), every page prints the flip
instruction its orientation needs (the backs mirror the columns: long edge when
portrait, short edge when landscape), and no text is set under 6 pt."""

from __future__ import annotations

import pytest

pytest.importorskip("pypdfium2")
pytest.importorskip("typst")

from pdf_pages import EDGE_TOLERANCE_MM, MM, read_pages  # noqa: E402

from workbench.cli import main  # noqa: E402
from workbench.print.checks import small_text  # noqa: E402
from workbench.print.sheets import build_deck, typeset  # noqa: E402
from workbench.print.words import print_folder  # noqa: E402

GAMES = ["meaning-made", "mandate-2038", "pax-transhumanity"]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", GAMES)
def test_every_sheet_keeps_5_mm_prints_its_flip_and_no_small_text(game, paper, tmp_path):
    deck = build_deck(game, "en", paper=paper)
    out = tmp_path / "sheets.pdf"
    typeset(deck, out)
    pages = read_pages(out)
    assert len(pages) == len(deck.pages)
    for n, page in enumerate(pages):
        w, h = page.width, page.height
        assert page.lines, f"page {n + 1}: no crop marks"
        for o in page.drawn:
            edge = o.edge(w, h) / MM
            assert edge >= 5 - EDGE_TOLERANCE_MM, (n + 1, o.kind, o.text, round(edge, 2))
        small = {(c.text, round(c.size, 2)) for c in page.chars if c.size < 6 - 1e-3}
        assert not small, (n + 1, sorted(small)[:5])
        wanted = "flip on the short edge" if w > h else "flip on the long edge"
        assert wanted in page.text, (n + 1, wanted)


def test_templates_have_no_text_under_6_pt_and_the_check_finds_it(tmp_path):
    for game in GAMES:
        assert small_text(print_folder(game)) == [], game
    (tmp_path / "x.typ").write_text('#text(5.5pt, "a")\n#line(stroke: 0.4pt + black)\n'
                                    '#set text(size: 4pt)\n', encoding="utf-8")
    assert [line.split(":")[0] for line in small_text(tmp_path)] == ["x.typ line 1", "x.typ line 3"]


def test_margin_option_and_cut_list(tmp_path, capsys):
    out = tmp_path / "p.pdf"
    assert main(["print", "pax-transhumanity", "--margin", "8", "--out", str(out), "--json"]) == 0
    import json
    doc = json.loads(capsys.readouterr().out)
    assert doc["margin"] == 8 and doc["small_text"] == []
    rows = doc["cut_list"]
    assert sum(r["cards"] for r in rows) == sum(doc["cards"].values())
    assert all(r["flip"].endswith("long edge") == (r["orientation"] == "portrait") for r in rows)
    page = read_pages(out)[0]
    assert min(o.edge(page.width, page.height) for o in page.drawn) / MM >= 8 - EDGE_TOLERANCE_MM
    assert main(["print", "pax-transhumanity", "--margin", "45", "--out", str(out)]) == 1
    assert "--margin" in capsys.readouterr().err


def test_rulebook_tables_repeat_their_header_and_keep_ruling_marks_in_their_row():
    from workbench.print.mdtypst import markdown_to_typst
    md = "| District | Yield |\n|---|---|\n| Grid | 1 |\n| Media | 2 |\n\n[†4](#ruling-a)[†5](#ruling-b)\n\nNext."
    typ = markdown_to_typst(md)
    assert "table.header([#strong[District]], [#strong[Yield]])" in typ     # repeated after a page break
    assert "[2 †4†5])" in typ and typ.rstrip().endswith("Next.")            # the marks stay in the last row


def test_side_by_side_counts_the_clauses_the_single_book_heads():
    """Mandate 2038's title introduction is text outside any clause marker: the
    side-by-side book shows it without counting it (it counted 77 against 76)."""
    from workbench.print.rulebook import side_by_side, single
    for game in GAMES:
        assert side_by_side(game, "en", "hu").clauses == single(game, "en").clauses, game


def test_text_running_out_of_its_card_is_reported(cards_copy, tmp_path, capsys):
    from workbench.print.sheets import overflows
    heads = cards_copy / "mandate_2038" / "headlines.yaml"
    text = heads.read_text(encoding="utf-8")
    long = " ".join(["Every institution gains 1 Runway and then some more."] * 12)
    heads.write_text(text.replace("Every institution gains 1 Runway.", long, 1), encoding="utf-8")
    found = overflows(build_deck("mandate-2038", "en"))
    assert [f["card"] for f in found] == ["Seed Round Frenzy"] and found[0]["over"] > 0
    assert main(["print", "mandate-2038", "--out", str(tmp_path / "m.pdf")]) == 0
    assert "'Seed Round Frenzy' runs" in capsys.readouterr().err


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", GAMES)
def test_the_cut_list_matches_the_page_footers(game, paper):
    """Each sheet's row names the cards its footer prints, found by their place in the
    kind (equal cards, such as identical tiles, must not be numbered as the first one)."""
    import re
    from workbench.commands.print import cut_list
    deck = build_deck(game, "en", paper=paper)
    rows = cut_list(deck)
    assert len(rows) * 2 == len(deck.pages)
    for row, face, back in zip(rows, deck.pages[::2], deck.pages[1::2]):
        for page in (face, back):
            m = next(filter(None, (re.fullmatch(r"(.+) (\d+)–(\d+)/(\d+)", part)
                                   for part in page["footer"].split(" · "))), None)
            assert m, page["footer"]
            assert (m.group(1), int(m.group(2)), int(m.group(3))) == (row["kind"], row["first"], row["last"]), \
                (row, page["footer"])
    for kind in deck.kinds:               # every card of the kind on exactly one row
        mine = [r for r in rows if r["kind"] == kind.title]
        assert [n for r in mine for n in range(r["first"], r["last"] + 1)] == list(range(1, len(kind.cards) + 1))


def test_the_draft_mark_never_rises_above_the_text_it_marks(tmp_path):
    """A ‡ set after a value stays level with that value's text: raised like a usual
    superscript beside small text it reached the line above (on the hex tiles)."""
    for game in GAMES:
        deck = build_deck(game, "en")
        out = tmp_path / f"{game}.pdf"
        typeset(deck, out)
        marks = 0
        for n, page in enumerate(read_pages(out)):
            chars = page.chars
            for before, c in zip(chars, chars[1:]):
                if c.text == "‡" and before.text != "‡" and abs(before.x1 - c.x0) < 2:
                    marks += 1
                    assert c.top >= before.top - 0.1, (game, n + 1, before.text, c.top, before.top)
        assert marks, game                     # every game has draft values: the test saw some
