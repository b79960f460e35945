"""One icon per term: the Play page, the printed cards and the rulebook show each
term with the icon its terms file gives it, for every game with a terms file."""

from __future__ import annotations

import re

import pytest

from workbench.core.data import cards_dir
from workbench.core.registry import game_ids, get_game
from workbench.rules.term_icons import game_terms, icon_problems, split_icon, term_icon

GAMES = [g for g in game_ids() if (cards_dir(g) / "terms" / "en.yaml").exists()]
LANGS = ("en", "hu")


def _langs(game_id):
    return [lang for lang in LANGS if (cards_dir(game_id) / "terms" / f"{lang}.yaml").exists()]


def test_the_check_finds_an_icon_that_is_not_the_terms():
    # the Play page's old labels: a heart was Vitals on screen and Support on paper
    old = "⚡ Energy 3 · 💡 Insight 1 · 🤝 Support 0 · ♥ Vitals 5 · 🌳 Legacy 0"
    assert [p.split()[1] for p in icon_problems("meaning-made", old)] == ["Energy", "Insight", "Support", "Vitals"]
    good = "☀️ Energy 3 · 🔍Insight 1 · ❤️ Support · 🛡️Vitals 5 · 🧫🪪Layer 4 · ☀️🔍Gather Energy/Insight"
    assert icon_problems("meaning-made", good) == []
    assert icon_problems("meaning-made", "🔍Gather Energy/Insight")   # the pair, not half of it


def test_a_term_icon_is_written_in_front_or_given_as_a_field():
    assert split_icon("🛡️Vitals") == ("🛡️", "Vitals")
    assert term_icon("meaning-made", "tracks.vitals") == "🛡️"
    assert term_icon("meaning-made", "tokens.support") == "❤️"
    runway = game_terms("mandate-2038")["resources.runway"]
    assert (runway.icon, runway.word) == ("💵", "Runway")
    assert term_icon("mandate-2038", "no.such.term") == ""


@pytest.mark.parametrize("game_id", GAMES)
def test_every_language_gives_a_term_the_same_icon(game_id):
    en = game_terms(game_id, "en")
    for lang in _langs(game_id):
        other = game_terms(game_id, lang)
        differ = {p: (t.icon, other[p].icon) for p, t in en.items() if p in other and t.icon != other[p].icon}
        assert not differ, f"{lang}: {differ}"


@pytest.fixture
def emoji(monkeypatch):
    from workbench import tabletop
    tabletop.emoji_font_available.cache_clear()
    monkeypatch.setenv("WORKBENCH_ICONS", "emoji")
    yield
    tabletop.emoji_font_available.cache_clear()


def _page_text(pane) -> str:
    objs = [o.object for o in pane.select(lambda o: isinstance(getattr(o, "object", None), str))]
    return re.sub(r"<[^>]+>", " ", " ".join(objs))


@pytest.mark.parametrize("game_id", GAMES)
def test_the_play_page_labels_values_with_their_terms_icon(game_id, emoji):
    from workbench import tabletop
    game = get_game(game_id)
    state = game.new_initial_state(game.config(game.default_players or game.min_players, seed=3))
    text = _page_text(tabletop.draw_table(game, state))
    assert icon_problems(game_id, text) == []
    # each term a shown value names is on the page with its icon and word
    obs = game.observe(state)
    shown = set(obs) | {k for p in (obs.get("players") or {}).values() for k in p}
    for key, path in game.observation_terms.items():
        t = game_terms(game_id)[path]
        if key in shown and t.icon:
            assert f"{t.icon} {t.word}" in text, (key, t)


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("lang", LANGS)
def test_printed_cards_use_the_terms_icons(game_id, lang):
    from workbench.print.sheets import build_deck
    if lang not in _langs(game_id):
        pytest.skip(f"no {lang} terms")
    deck = build_deck(game_id, lang, emoji=True)
    doc = deck.document()
    texts = []

    def walk(node):
        if isinstance(node, str):
            texts.append(node)
        elif isinstance(node, dict):
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(doc["pages"])
    assert icon_problems(game_id, "\n".join(texts), lang) == []
    # an icon of print.yaml that stands for a term is that term's icon
    for key, entry in deck.words.icons.items():
        if entry.get("term"):
            assert doc["words"]["icons"][key] == term_icon(game_id, entry["term"], lang) != ""


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("lang", LANGS)
def test_the_rulebook_uses_the_terms_icons(game_id, lang):
    from workbench.rules.render import render
    if not (cards_dir(game_id) / "rules" / f"{lang}.po").exists() and lang != "en":
        pytest.skip(f"no {lang} rulebook")
    assert icon_problems(game_id, render(game_id, lang, plain=True).text, lang) == []
