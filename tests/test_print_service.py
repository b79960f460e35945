"""Print-on-demand output: per-card files with a print service's bleed (pixel size,
resolution, names by card and copy, the manifest), and the other home sheets
(faces only, single-sided, fold-in-half; A3 and Tabloid) measured from their PDFs."""

from __future__ import annotations

import csv
from collections import Counter

import pytest

pytest.importorskip("pypdfium2")
pytest.importorskip("typst")

from pdf_pages import EDGE_TOLERANCE_MM, MM, read_pages  # noqa: E402

from workbench.cli import main  # noqa: E402
from workbench.print import pod, sheets  # noqa: E402
from workbench.print.geometry import FOOTER, PAPERS, SERVICE_BLEED, SIZES, grid_for  # noqa: E402
from workbench.print.sheets import SIDES, build_deck, crop_marks, fold_ticks, typeset  # noqa: E402

GAMES = ["meaning-made", "mandate-2038", "pax-transhumanity"]


def _trimmed(game: str, n: int = 2, **kw):
    """The game's deck with the first ``n`` cards of each kind (every size it prints)."""
    deck = build_deck(game, "en", **kw)
    for k in deck.kinds:
        k.cards = k.cards[:n]
    return deck


@pytest.mark.parametrize("game", GAMES)
def test_per_card_images_are_the_card_plus_bleed_at_the_stated_ppi(game, tmp_path):
    from PIL import Image
    ppi = 300
    deck = _trimmed(game, bleed=SERVICE_BLEED)
    summary = pod.export(deck, tmp_path / "pod", ppi=ppi)
    with open(tmp_path / "pod" / "manifest.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert summary["files"] == len(rows) == 4 * sum(len(k.cards) for k in deck.kinds)
    for kind in deck.kinds:
        w, h = SIZES[kind.size]
        want = tuple(round((v + 2 * 3.175) / 25.4 * ppi) for v in (w, h))
        pngs = [r for r in rows if r["kind"] == kind.key and r["file"].endswith(".png")]
        assert len(pngs) == 2 * len(kind.cards)
        for r in pngs:
            pic = Image.open(tmp_path / "pod" / r["file"])
            assert pic.size == want, (r["file"], pic.size, want)
            assert [round(v) for v in pic.info["dpi"]] == [ppi, ppi]
            assert r["px"] == f"{want[0]}x{want[1]}" and r["bleed_mm"] == "3.175"
        from pypdf import PdfReader
        for r in (r for r in rows if r["kind"] == kind.key and r["file"].endswith(".pdf")):
            box = PdfReader(tmp_path / "pod" / r["file"]).pages[0].mediabox
            assert (float(box.width) / MM, float(box.height) / MM) == pytest.approx((w + 6.35, h + 6.35), abs=0.01)


def test_copies_get_their_own_files_named_by_card_and_copy():
    deck = build_deck("mandate-2038", "en")
    names = pod.file_names(deck)
    files = [(k, s, n) for k, _, s, n in names]
    assert len(set(files)) == len(files) == sum(len(k.cards) for k in deck.kinds)
    by_card = Counter((k, c["name"]) for k, c, _, _ in names)
    assert max(by_card.values()) > 1                 # identical cards exist, and each has its own file
    for (k, name), count in by_card.items():
        copies = sorted(n for kk, c, _, n in names if kk == k and c["name"] == name)
        assert copies == list(range(1, count + 1)), (k, name)
    assert pod.slug("Kőszívű Ember: 2/3") == "koszivu-ember-2-3" and pod.slug("../..") == "card"


def test_print_service_command_writes_the_folder_and_replaces_only_its_own_files(tmp_path, monkeypatch, capsys):
    real = sheets.build_deck
    monkeypatch.setattr(sheets, "build_deck", lambda *a, **kw: _trimmed_from(real, *a, **kw))
    out = tmp_path / "shop"
    out.mkdir()
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    assert main(["print", "pax-transhumanity", "--target", "print-service", "--out", str(out), "--json"]) == 0
    import json
    doc = json.loads(capsys.readouterr().out)
    assert doc["bleed"] == SERVICE_BLEED and doc["ppi"] == 300
    first = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    assert "notes.txt" in first and "manifest.csv" in first
    assert main(["print", "pax-transhumanity", "--target", "print-service", "--ppi", "350", "--bleed", "2",
                 "--out", str(out)]) == 0
    assert "350 ppi" in capsys.readouterr().out
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert main(["print", "pax-transhumanity", "--target", "print-service", "--ppi", "150", "--out",
                 str(out)]) == 1
    assert "--ppi" in capsys.readouterr().err
    assert main(["print", "pax-transhumanity", "--target", "print-service", "--out", str(tmp_path / "x.pdf")]) == 1
    assert "folder" in capsys.readouterr().err


def _trimmed_from(real, *a, **kw):
    deck = real(*a, **kw)
    for k in deck.kinds:
        k.cards = k.cards[:1]
    return deck


@pytest.mark.parametrize("sides", ["faces", "fold", "single"])
@pytest.mark.parametrize("paper", list(PAPERS))
def test_every_layout_keeps_marks_cards_and_footer_inside_the_margin(paper, sides):
    """Geometry of every size on every paper: cells, crop marks and fold ticks at
    least the margin from the paper's edge, the footer's room kept, a fold sheet's
    backs the mirror image of its faces."""
    for size in SIZES:
        try:
            g = grid_for(size, paper, bleed=SERVICE_BLEED, fold=sides == "fold")
        except Exception:
            assert sides == "fold" and size in ("tarot", "board"), (size, paper)   # too tall for half a page
            continue
        faces = [g.cell(i) for i in range(g.per_page)]
        backs = [g.cell(i, back=True) for i in range(g.per_page)]
        lines = crop_marks(g, faces) + crop_marks(g, backs) + (fold_ticks(g) if g.fold else [])
        for x1, y1, x2, y2 in lines:
            assert min(x1, x2, y1, y2) >= g.margin - 1e-6 and max(x1, x2) <= g.paper_w - g.margin + 1e-6
            assert max(y1, y2) <= g.paper_h - g.margin - FOOTER + 1e-6 or g.nest
        for x, y in faces + backs:
            assert x >= g.margin and y >= g.margin
            assert x + g.cell_w <= g.paper_w - g.margin and y + g.cell_h <= g.paper_h - g.margin - FOOTER
        if g.fold:
            for (fx, fy), (bx, by) in zip(faces, backs):
                assert fx == bx and fy + g.cell_h <= g.paper_h / 2 <= by
                assert fy + g.cell_h / 2 == pytest.approx(g.paper_h - (by + g.cell_h / 2), abs=1e-3)


@pytest.mark.parametrize("game,sides,paper", [("meaning-made", "faces", "a3"), ("meaning-made", "fold", "letter"),
                                              ("mandate-2038", "faces", "letter"), ("mandate-2038", "fold", "a4"),
                                              ("pax-transhumanity", "faces", "tabloid"),
                                              ("pax-transhumanity", "fold", "a3")])
def test_faces_only_and_fold_pdfs_print_nothing_within_5_mm_of_the_edge(game, sides, paper, tmp_path):
    deck = build_deck(game, "en", paper=paper, bleed=SERVICE_BLEED, sides=sides)
    out = tmp_path / "s.pdf"
    typeset(deck, out)
    note = "faces only" if sides == "faces" else "fold on the dashed line"
    pages = read_pages(out)
    assert len(pages) == len(deck.pages) == len({p["sheet"] for p in deck.pages})
    for n, page in enumerate(pages):
        w, h = page.width, page.height
        assert (round(w / MM, 1), round(h / MM, 1)) in {tuple(round(v, 1) for v in PAPERS[paper]),
                                                        tuple(round(v, 1) for v in PAPERS[paper][::-1])}
        assert page.lines, f"page {n + 1}: no crop marks"
        for o in page.drawn:
            edge = o.edge(w, h) / MM
            assert edge >= 5 - EDGE_TOLERANCE_MM, (n + 1, o.kind, o.text, round(edge, 2))
        assert note in page.text, n + 1
    counts = Counter()
    for p in deck.pages:
        counts[p["kind"]] += len(p["cards"])
    assert dict(counts) == deck.counts()         # every card once, no backs-only page


def test_single_sided_puts_every_back_after_every_face():
    deck = build_deck("meaning-made", "en", sides="single")
    backs = [p["back"] for p in deck.pages]
    assert backs == sorted(backs) and backs.count(True) == backs.count(False)
    faces = [p for p in deck.pages if not p["back"]]
    assert [p["sheet"] for p in faces] == [p["sheet"] for p in deck.pages if p["back"]]
    from workbench.commands.print import cut_list
    rows = cut_list(deck)
    assert rows[0]["pages"] == f"1, {len(faces) + 1}"
    assert set(SIDES) == {"duplex", "single", "faces", "fold"}
