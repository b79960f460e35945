"""The per-language content overlay (`cards/<game>/rules/content.<lang>.yaml`):
strings a game's data holds in one language read in the rulebook's language."""

import shutil
from pathlib import Path

import pytest

from workbench.core.errors import DataError
from workbench.rules.placeholders import context_for

CARDS = Path(__file__).resolve().parent.parent / "cards"


def _tile(ctx, key):
    return next(r for r in ctx["content"]["gameConfig"]["board"]["tiles"] if r["key"] == key)


def test_hungarian_content_overlays_the_english_data():
    en, hu = context_for("mandate-2038", "en"), context_for("mandate-2038", "hu")
    assert _tile(en, "capital")["visit"] == "Fund +1 Runway; Influence target"
    assert "Tartalék" in _tile(hu, "capital")["visit"]
    assert hu["content"]["projects"]["byId"]["quantum"]["name"] == "Kvantum"
    # the overlay changes words only: numbers and the rest of the row are the data's
    assert _tile(hu, "capital")["yield"] == _tile(en, "capital")["yield"]
    assert hu["content"]["gameConfig"]["agiAchievement"] == en["content"]["gameConfig"]["agiAchievement"]


def test_the_overlay_does_not_leak_into_other_languages():
    context_for("mandate-2038", "hu")
    assert context_for("mandate-2038", "en")["content"]["projects"]["byId"]["quantum"]["name"] == "Quantum"


def test_an_overlay_row_that_matches_no_data_row_is_a_data_error(tmp_path, monkeypatch):
    shutil.copytree(CARDS / "mandate_2038", tmp_path / "mandate_2038")
    (tmp_path / "mandate_2038" / "rules" / "content.hu.yaml").write_text(
        "content:\n  gameConfig:\n    board:\n      tiles:\n        atlantis: {visit: Sehol}\n", encoding="utf-8")
    monkeypatch.setenv("WORKBENCH_CARDS", str(tmp_path))
    with pytest.raises(DataError, match="atlantis"):
        context_for("mandate-2038", "hu")
