"""Translations stay the translator's: `rules update` keeps the PO header, a
catalogue with a msgctxt twice is refused by name, importing a rendered rulebook
(numbers where placeholders stood) is refused without --force, and `check`
validates every translation's placeholders."""

from __future__ import annotations

import pytest

from workbench.cli import main
from workbench.core.errors import DataError, WorkbenchError
from workbench.rules.catalog import (entries_by_context, import_translation, placeholder_problems, po_path,
                                     read_catalog, update_game_catalog)


def _set_header(path, field: str, value: str) -> None:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    out = [f'"{field}: {value}\\n"\n' if line.startswith(f'"{field}:') else line for line in lines]
    path.write_text("".join(out), encoding="utf-8")


def test_rules_update_keeps_the_translators_header(cards_copy):
    path = po_path("meaning-made", "hu")
    _set_header(path, "Last-Translator", "Kovács Anna <anna@example.org>")
    _set_header(path, "Language-Team", "Magyar fordítók <hu@example.org>")
    text = path.read_text(encoding="utf-8").replace("# Keep every", "# Reviewed by Anna, 2026.\n# Keep every", 1)
    path.write_text(text, encoding="utf-8")
    assert main(["rules", "update", "meaning-made", "--lang", "hu"]) == 0
    after = path.read_text(encoding="utf-8")
    assert "Last-Translator: Kovács Anna <anna@example.org>" in after
    assert "Language-Team: Magyar fordítók <hu@example.org>" in after
    assert "# Reviewed by Anna, 2026." in after


def test_a_duplicate_msgctxt_is_refused_by_name(cards_copy, capsys):
    path = po_path("meaning-made", "hu")
    text = path.read_text(encoding="utf-8")
    start = text.index('msgctxt "meaning-made/overview/goal"')
    entry = text[start:text.index("\n\n", start)]
    path.write_text(text + "\n" + entry.replace('msgstr "', 'msgstr "MÁSIK ', 1) + "\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"msgctxt 'meaning-made/overview/goal' appears 2 times \(lines"):
        read_catalog(path)
    assert main(["rules", "update", "meaning-made", "--lang", "hu"]) == 1
    assert "meaning-made/overview/goal" in capsys.readouterr().err


def test_importing_a_rendered_rulebook_is_refused_without_force(cards_copy, tmp_path, capsys):
    from workbench.core.registry import get_game
    from workbench.rules.render import render
    rendered = tmp_path / "rendered-hu.md"
    rendered.write_text(render("mandate-2038", "hu", game=get_game("mandate-2038")).text, encoding="utf-8")
    before = po_path("mandate-2038", "hu").read_bytes()
    with pytest.raises(WorkbenchError, match="would lose .* placeholder.*--force"):
        import_translation("mandate-2038", "hu", rendered)
    assert po_path("mandate-2038", "hu").read_bytes() == before
    assert main(["rules", "import", str(rendered), "--lang", "hu", "--game", "mandate-2038"]) == 1
    assert "--force" in capsys.readouterr().err
    assert po_path("mandate-2038", "hu").read_bytes() == before
    assert main(["rules", "import", str(rendered), "--lang", "hu", "--game", "mandate-2038", "--force"]) == 0
    assert po_path("mandate-2038", "hu").read_bytes() != before


def test_check_validates_every_translations_placeholders(cards_copy, capsys):
    assert placeholder_problems("meaning-made") == []
    path = po_path("meaning-made", "hu")
    live = entries_by_context(read_catalog(path))
    ctxt = "meaning-made/overview/goal"
    old = live[ctxt].string.split("\n")[0][:20]
    text = path.read_text(encoding="utf-8")
    i = text.index("msgstr", text.index(f'msgctxt "{ctxt}"'))
    path.write_text(text[:i] + 'msgstr "${nosuch.value} ' + text[i + len('msgstr "'):], encoding="utf-8")
    problems = placeholder_problems("meaning-made")
    assert any(ctxt in p and "${nosuch.value}" in p for p in problems), problems
    assert old  # the entry had a translation to spoil
    assert main(["check", "meaning-made"]) == 1
    assert "nosuch.value" in capsys.readouterr().out


def test_update_against_an_unchanged_original_changes_nothing_but_keeps_working(cards_copy):
    cat, summary = update_game_catalog("meaning-made", "hu", write=False)
    assert summary.changed == [] and summary.obsolete == []
    assert entries_by_context(cat).keys() == entries_by_context(read_catalog(po_path("meaning-made", "hu"))).keys()
