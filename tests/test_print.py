"""Print-and-play sheets, rulebook PDFs and the Tabletop Simulator export, checked on
the PDFs and files a designer gets: pages, cards per kind, names and Hungarian words in
the PDF text, crop marks and mirrored backs, a tweak showing in the next print, and the
TTS saved object's structure. Each game and language is typeset once per module."""

from __future__ import annotations

import json
import math
import re
from functools import lru_cache
from pathlib import Path

import pytest
import yaml

pdfium = pytest.importorskip("pypdfium2")
pytest.importorskip("typst")

from workbench.cli import main  # noqa: E402
from workbench.core.data import cards_dir  # noqa: E402
from workbench.print.geometry import PAPERS, grid_for  # noqa: E402
from workbench.print.pool import pool_version  # noqa: E402
from workbench.print.sheets import build_deck, typeset  # noqa: E402

GAMES = ["meaning-made", "mandate-2038", "pax-transhumanity"]


def _yaml(game: str, name: str):
    return yaml.safe_load((cards_dir(game) / name).read_text(encoding="utf-8"))


def expected_counts(game: str) -> dict[str, int]:
    """Cards per kind, counted straight from the card files (not through workbench.print)."""
    if game == "meaning-made":
        return {"patterns": len(_yaml(game, "patterns.yaml")["patterns"]),
                "initiatives": len(_yaml(game, "initiatives.yaml")["initiatives"]),
                "events": len(_yaml(game, "events.yaml")["events"])}
    if game == "mandate-2038":
        g = _yaml(game, "game.yaml")
        pools = g["content"]["gameConfig"]["board"]["pools"]
        return {"headlines": len(_yaml(game, "headlines.yaml")["cards"]),
                "mandates": len(_yaml(game, "mandates.yaml")["cards"]),
                "training": sum(c["copies"] for c in _yaml(game, "training.yaml")["cards"]),
                "actions": len(_yaml(game, "factions.yaml")["factions"]) * g["content"]["gameConfig"]["playerSupply"][
                    "coreActionCards"],
                "projects": len(g["content"]["projects"]["byId"]) * g["content"]["rules"]["maxPlayers"],
                "factions": len(_yaml(game, "factions.yaml")["factions"]),
                "tiles": sum(len(v) for v in pools.values())}
    ideas = _yaml(game, "ideas.yaml")["ideas"]
    return {"ideas": sum(1 for c in ideas if c.get("kind", "idea") == "idea"),
            "tipping": sum(1 for c in ideas if c.get("kind", "idea") != "idea"),
            "boards": len(_yaml(game, "boards.yaml")["spheres"])}


def card_names(game: str) -> list[str]:
    if game == "meaning-made":
        return [c["name"] for f, k in (("patterns.yaml", "patterns"), ("initiatives.yaml", "initiatives"))
                for c in _yaml(game, f)[k]]
    if game == "mandate-2038":
        return ([c["name"] for f in ("headlines.yaml", "mandates.yaml", "training.yaml") for c in _yaml(game, f)["cards"]]
                + [f["name"] for f in _yaml(game, "factions.yaml")["factions"]])
    return [c["name"] for c in _yaml(game, "ideas.yaml")["ideas"]]


def page_texts(data: bytes) -> list[str]:
    """Each page's text (read with PDFium) with runs of white space made one space."""
    doc = pdfium.PdfDocument(data)
    try:
        # PDFium reads a hyphen that ends a line as U+FFFE
        return [re.sub(r"\s+", " ", doc[i].get_textpage().get_text_range().replace("\ufffe", "- "))
                for i in range(len(doc))]
    finally:
        doc.close()


def pdf_text(data: bytes) -> str:
    """All text of a PDF with runs of white space made one space."""
    return " ".join(page_texts(data))


@lru_cache(maxsize=None)
def printed(game: str, lang: str):
    """(deck, PDF bytes) of one game and language on A4: typeset once per module."""
    deck = build_deck(game, lang)
    return deck, typeset(deck)


# ---------------------------------------------------------------- geometry
def test_standard_sizes_fit_the_papers_as_expected():
    # with every crop mark 5 mm inside the paper, A4 takes eight poker cards landscape
    # (portrait's three columns leave 4.5 mm a side), Letter six
    a4 = grid_for("poker", "a4")
    assert (a4.cols, a4.rows, a4.paper_w) == (4, 2, 297.0)
    assert grid_for("poker", "a4", margin=2).per_page == 9          # a printer that prints to 2 mm
    letter = grid_for("poker", "letter")
    assert letter.per_page == 6
    hexes = grid_for("hex", "a4")                 # nested: 2 + 2 + 2 + 2, rows shifted half a hex
    assert (hexes.per_page, hexes.nest) == (8, True)
    assert hexes.cell(2)[0] - hexes.cell(0)[0] == pytest.approx(hexes.cell_w / 2)
    for size in ("poker", "mini", "chip", "hex", "board", "square", "tarot"):
        for paper in PAPERS:
            g = grid_for(size, paper)
            room = 5 + 1 + 1.5            # margin, mark gap, shortest mark
            assert g.x0 >= room - 1e-6 and g.y0 >= room - 1e-6, (size, paper)
            cells = [g.cell(i) for i in range(g.per_page)]
            assert max(x for x, _ in cells) + g.cell_w <= g.paper_w - room + 1e-6
            assert max(y for _, y in cells) + g.cell_h <= g.paper_h - room - 3 + 1e-6


@pytest.mark.parametrize("game", GAMES)
def test_backs_mirror_the_faces_and_crop_marks_sit_on_cut_lines(game):
    deck = build_deck(game, "en")
    for face, back in zip(deck.pages[0::2], deck.pages[1::2]):
        # every cut line of every card has its marks, on the face and on the back
        for page in (face, back):
            g = page["grid"]
            xs = {round(x + g["bleed"] + d, 3) for x, _ in page["cells"] for d in (0, g["w"])}
            assert {m[0] for m in page["marks"] if m[0] == m[2]} == xs
        assert not face["back"] and back["back"] and back["cards"] == face["cards"]
        g = face["grid"]
        for (fx, fy), (bx, by) in zip(face["cells"], back["cells"]):
            # turned over the long edge, the back lands exactly behind the face
            assert bx == pytest.approx(g["paper_w"] - fx - (g["w"] + 2 * g["bleed"]))
            assert by == fy
        cuts_x = {round(x + g["bleed"] + d, 3) for x, _ in face["cells"] for d in (0, g["w"])}
        cuts_y = {round(y + g["bleed"] + d, 3) for _, y in face["cells"] for d in (0, g["h"])}
        if g["nest"]:      # nested hexes are cut along the hexagon: six sides of one length each
            assert len(face["marks"]) == 6 * len(face["cells"])
            for x1, y1, x2, y2 in face["marks"]:
                assert math.hypot(x2 - x1, y2 - y1) == pytest.approx(g["h"] / 2, abs=0.01)
            continue
        for x1, y1, x2, y2 in face["marks"]:
            assert 0 <= min(x1, x2) and max(x1, x2) <= g["paper_w"] and 0 <= min(y1, y2) <= g["paper_h"]
            if x1 == x2:   # a vertical mark, above or below the grid, on a vertical cut
                assert round(x1, 3) in cuts_x
                assert max(y1, y2) <= min(y for _, y in face["cells"]) \
                    or min(y1, y2) >= max(y for _, y in face["cells"]) + g["h"] + 2 * g["bleed"]
            else:
                assert y1 == y2 and round(y1, 3) in cuts_y
                assert max(x1, x2) <= min(x for x, _ in face["cells"]) \
                    or min(x1, x2) >= max(x for x, _ in face["cells"]) + g["w"] + 2 * g["bleed"]


# ---------------------------------------------------------------- the printed decks
@pytest.mark.parametrize("game", GAMES)
def test_card_counts_per_kind_match_the_card_files(game):
    deck, _ = printed(game, "en")
    assert deck.counts() == expected_counts(game)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["en", "hu"])
def test_page_count_is_a_face_and_a_back_page_per_sheet(game, lang):
    deck, pdf = printed(game, lang)
    want = sum(2 * math.ceil(n / grid_for(k.size, "a4").per_page)
               for k, n in zip(deck.kinds, expected_counts(game).values()))
    assert len(page_texts(pdf)) == want == len(deck.pages)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["en", "hu"])
def test_every_card_name_appears_in_the_pdf_text(game, lang):
    # a translated name is printed with the card files' name under it
    _, pdf = printed(game, lang)
    text = pdf_text(pdf).replace("- ", "-")      # a long name may break after a hyphen
    missing = [n for n in card_names(game) if n not in text]
    assert not missing, missing


@pytest.mark.parametrize("game", GAMES)
def test_footer_names_game_language_and_card_pool_version_and_draft_marks_show(game):
    deck, pdf = printed(game, "en")
    text = pdf_text(pdf)
    assert f"{deck.game_name} · en · cards {pool_version(game)}" in text
    assert "‡" in text      # every game has draft values, and they carry the mark


def test_hungarian_decks_are_in_hungarian():
    text = pdf_text(printed("meaning-made", "hu")[1])
    for word in ("Minták", "Követelmény", "Energia", "Belátás", "Életerő", "Következménykód", "ív 1 előlap",
                 "Burok", "Szelektív hártya", "Közjavak alapítványa"):
        assert word in text, word
    for english in ("Requirement", "Energy", "Patterns"):
        assert english not in text, english
    text = pdf_text(printed("mandate-2038", "hu")[1])
    for word in ("Főcím", "Magvetőköri láz", "Minden intézmény 1 Tartalékot kap.", "Határvidék", "Tanítási futam",
                 "Megaklaszter", "Tudományos módszer", "Korai alkalmazók", "Kód"):
        assert word in text, word
    assert "Every institution gains 1 Runway." not in text
    text = pdf_text(printed("pax-transhumanity", "hu")[1])
    for word in ("Ötlet", "Hatások", "Növekedés", "Akadály", "Átbillenési pont", "Betegség", "Génhajtás", "Többség"):
        assert word in text, word


def test_without_the_emoji_font_icons_fall_back_to_text():
    deck = build_deck("mandate-2038", "en", emoji=False)
    cost = next(k for k in deck.kinds if k.key == "projects").cards[0]["cost"]
    assert cost and all(not re.search("[\U0001F300-\U0001FAFF]", x) for x in cost)
    assert cost[0].startswith("R")                     # the text of the runway icon
    mm = build_deck("meaning-made", "en", emoji=False)
    assert mm.words.term("tokens.energy") == "Energy"


# ---------------------------------------------------------------- the command line
def test_a_tweaked_card_shows_in_the_next_print(cards_copy, tmp_path, capsys):
    before = pool_version("meaning-made")
    path = cards_copy / "meaning_made" / "patterns.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("- name: Shell\n", "- name: Hardened Shell\n", 1)
                    .replace("bonus: {E: 1}", "bonus: {E: 7}", 1), encoding="utf-8")
    out = tmp_path / "deck.pdf"
    assert main(["print", "meaning-made", "--lang", "en", "--cards", str(cards_copy), "--out", str(out),
                 "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["version"] != before and doc["cards"]["patterns"] == 60
    printed_text = pdf_text(out.read_bytes())
    assert "Hardened Shell" in printed_text and "+7 ☀️Energy" in printed_text.replace(" ☀", " ☀")
    assert f"cards {doc['version']}" in printed_text


def test_letter_paper_and_bad_input(tmp_path, capsys):
    out = tmp_path / "deck.pdf"
    assert main(["print", "pax-transhumanity", "--paper", "letter", "--out", str(out)]) == 0
    doc = pdfium.PdfDocument(str(out))
    w, h = doc[0].get_size()
    doc.close()
    assert {round(w / 72 * 25.4, 1), round(h / 72 * 25.4, 1)} == {215.9, 279.4}
    capsys.readouterr()
    for argv, words in ((["print", "meaning-mad", "--out", str(out)], "unknown game"),
                        (["print", "meaning-made", "--lang", "xx", "--out", str(out)], "not a language Babel"),
                        (["print", "meaning-made", "--lang", "de", "--out", str(out)], "no de terms"),
                        (["print", "meaning-made", "--out", str(out / "x.pdf")], "is a file, not a folder"),
                        (["print", "meaning-made", "--cards", str(tmp_path / "none"), "--out", str(out)],
                         "no such folder"),
                        (["rules", "pdf", "meaning-made", "--lang", "en", "--side-by-side", "en",
                          "--out", str(out)], "second language")):
        assert main(argv) == 1
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and words in err[0], err


def test_a_broken_template_or_strings_file_is_one_clear_line(cards_copy, tmp_path, capsys):
    template = cards_copy / "meaning_made" / "print" / "events.typ"
    template.write_text(template.read_text(encoding="utf-8").replace("c.code", "c.no_such_field"), encoding="utf-8")
    out = tmp_path / "x.pdf"
    assert main(["print", "meaning-made", "--out", str(out)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "events.typ line" in err[0] and "no_such_field" in err[0], err
    assert not out.exists()
    strings = cards_copy / "meaning_made" / "print" / "strings.hu.yaml"
    strings.write_text("labels: [unclosed\n", encoding="utf-8")
    assert main(["print", "meaning-made", "--lang", "hu", "--out", str(out)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "strings.hu.yaml" in err[0] and "YAML" in err[0], err


def test_rulebook_pdf_and_side_by_side(tmp_path, capsys):
    one, two = tmp_path / "hu.pdf", tmp_path / "sbs.pdf"
    assert main(["rules", "pdf", "mandate-2038", "--lang", "hu", "--out", str(one)]) == 0
    assert main(["rules", "pdf", "mandate-2038", "--lang", "en", "--side-by-side", "hu", "--out", str(two)]) == 0
    text = pdf_text(one.read_bytes())
    assert "mandate-2038/" in text and "⚖" in text           # clause ids and ruling marks
    assert "Tartalék" in text and "Mandate 2038 · hu · rules" in text
    both = pdf_text(two.read_bytes())
    assert "Mandate 2038 · en | hu" in both
    # one clause in both languages on the same page of the two-column table
    pages = page_texts(two.read_bytes())
    assert any("Runway" in p and "Tartalék" in p for p in pages)


def test_clause_markers_give_notes_and_keep_text_on_their_line():
    from workbench.print.mdtypst import markdown_to_typst
    src = markdown_to_typst("<!-- rule: g/s/a ruling: r-1, r-2 --> Pay 2.\n\n<!-- rule: g/s/b -->\nTake 1.\n",
                            on_clause=lambda cid: f"[{cid}]")
    assert src.index("[g/s/a]") < src.index("Pay 2.") < src.index("[g/s/b]") < src.index("Take 1.")


def test_markdown_is_escaped_for_typst():
    import typst

    from workbench.print.mdtypst import markdown_to_typst
    md = ("# Costs #1\n\nPay $5 * 2 = 10 [sic] @home 1 < 2 > 0 a/b // c `x*y`(z) *em*(s) **b**.\n\n"
          "- one\n- two\n  1. inner\n\n| a | b |\n|---|---|\n| 1 = 1 | - |\n\nTen<sup>†</sup> <span>kept</span> [†1](#ruling-x)\n\n- <a id=\"ruling-x\"></a>†1 `x`\n")
    src = markdown_to_typst(md)
    pdf = typst.compile(src.encode("utf-8"))
    text = pdf_text(pdf)
    assert "#super[†];" in src
    for piece in ("Costs #1", "Pay $5 * 2 = 10 [sic] @home 1 < 2 > 0 a/b // c", "x*y(z)", "em(s)", "inner", "1 = 1",
                  "kept †1", "†1 x"):
        assert piece in text, piece


# The Tabletop Simulator export is checked in tests/test_tts.py.


def test_dashboard_print_model_previews_one_card_per_kind():
    from workbench.dashboard.print import PrintModel, languages
    assert languages("meaning-made") == ["en", "hu"]
    m = PrintModel(game="pax-transhumanity", lang="hu")
    previews = m.previews(ppi=40)
    assert [t for t, _ in previews] == ["Ötletek", "Átbillenési pontok", "Szfératáblák"]
    assert all(png[:8] == b"\x89PNG\r\n\x1a\n" for _, png in previews)
