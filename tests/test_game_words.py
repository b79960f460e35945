"""No game is named outside its own package, counted by its display name
(``Game.name``, "Mandate 2038"), as tests/test_registry.py counts ids; and the
card tools (tweak sessions, card graphs, the Cards and Graph pages) name no
game's card kinds either (:func:`test_card_tools_name_no_card_kind`).

Issue 41 moved every game's words into its own package; these tests keep them
there: a generic module that names a game, or a card tool that names a card
kind, fails."""

from __future__ import annotations

import re
from pathlib import Path

from workbench.core.registry import load_all

PACKAGE = Path(__file__).resolve().parents[1] / "workbench"
GAMES_DIR = PACKAGE / "games"


def naming_modules() -> dict[str, set[str]]:
    """Every module outside a game's package that names a registered game (or
    the package of another game naming it): module -> the names found."""
    games = load_all()
    found: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        own = path.relative_to(GAMES_DIR).parts[0] if GAMES_DIR in path.parents else None
        text = path.read_text(encoding="utf-8")
        for gid, game in games.items():
            if own == gid.replace("-", "_"):
                continue
            if re.search(r"(?<![\w-])" + re.escape(game.name) + r"(?![\w-])", text, re.I):
                found.setdefault(rel, set()).add(game.name)
    return found


def test_no_new_module_names_a_game():
    found = {m for m in naming_modules() if not m.startswith("games/")}
    assert sorted(found) == [], "a generic module names a game: say it in the game's package"


def test_game_packages_name_no_other_game():
    assert sorted(m for m in naming_modules() if m.startswith("games/")) == []


#: the generic layers the card tools live in: they name no game's card kinds either
KIND_FREE = ("tweak", "graphs", "dashboard/graph.py", "dashboard/cards.py", "dashboard/cards_model.py",
             "dashboard/pool.py")


def kind_words() -> dict[str, set[str]]:
    """Each game with a card graph -> the names of the kinds of its graph's nodes
    as a reader sees them capitalised (``Layer``, ``Tipping Point``, ``AGI``)."""
    from workbench.tweak.pool_session import graph_module
    out = {}
    for gid, game in load_all().items():
        try:
            graph = graph_module(gid).build_graph(game.cards())
        except Exception:  # a game without a card graph has no kinds to name
            continue
        kinds = {str(d["kind"]).replace("_", " ") for _, d in graph.nodes(data=True)}
        out[gid] = {k.title() for k in kinds} | {k.upper() for k in kinds if len(k) <= 3}
    return out


def kinds_named(text: str, words: dict[str, set[str]]) -> set[str]:
    return {w for ws in words.values() for w in ws if re.search(r"(?<![\w-])" + re.escape(w) + r"s?(?![\w-])", text)}


def test_card_tools_name_no_card_kind():
    """The tweak sessions, card graphs and the Cards and Graph pages name no
    game's card kind (capitalised, as a game's term is written)."""
    words = kind_words()
    offences = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if not rel.startswith(KIND_FREE):
            continue
        found = kinds_named(path.read_text(encoding="utf-8"), words)
        offences += [f"{rel}: {w}" for w in sorted(found)]
    assert offences == []


def test_the_kind_search_finds_a_planted_kind():
    words = kind_words()
    text = (PACKAGE / "tweak" / "session.py").read_text(encoding="utf-8")
    some = next(iter(next(iter(words.values()))))
    assert not kinds_named(text, words) and kinds_named(text + f"\n# a {some} here\n", words) == {some}
