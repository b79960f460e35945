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


#: card kinds that are also the generic layers' own words: the Board page, a Track and
#: a Tile as game parts (core/parts.py, the Tabletop Simulator objects)
GENERIC_KINDS = frozenset({"Board", "Track", "Tile"})


def test_no_generic_module_names_a_card_kind():
    """No module outside the games' packages names a game's card kind either (after a
    dot it is Python's: ``re.Pattern``, ``np.random.Generator``)."""
    words = {gid: {w for w in ws if w not in GENERIC_KINDS} for gid, ws in kind_words().items()}
    offences = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if GAMES_DIR in path.parents:
            continue
        text = re.sub(r"\.(?=[A-Z])", "._", path.read_text(encoding="utf-8"))   # re.Pattern -> re._Pattern
        offences += [f"{path.relative_to(PACKAGE).as_posix()}: {w}" for w in sorted(kinds_named(text, words))]
    assert offences == []


def test_the_kind_search_finds_a_planted_kind():
    words = kind_words()
    text = (PACKAGE / "tweak" / "session.py").read_text(encoding="utf-8")
    some = next(iter(next(iter(words.values()))))
    assert not kinds_named(text, words) and kinds_named(text + f"\n# a {some} here\n", words) == {some}


# -- the rules review (issue 41): its checks, lexicons and planted mistakes speak the
# languages' words, and each game adds its own terms (its terms files, glossary and
# ``Game.rules_words``); a game's term written into workbench/rules/ fails here
RULES = PACKAGE / "rules"
#: words some game's terms file also uses that every rulebook says (a player, a turn's
#: build): a generic module may write them, except glued to a game's icon
EVERYDAY = frozenset({
    "Player", "Players", "Játékos", "Játékosok", "Group", "Csoport", "Build", "Import", "Form", "Forma",
    "Token", "Tokens", "Balance", "Market", "Power", "Research", "Support", "Ready", "Progress",
    "Requirement", "Discount", "Story", "Solve", "Fund", "Growth", "Media", "Social", "Sor",
    "Követelmény", "Rendszer", "Történet", "Kedvezmény",
})


def rules_game_words(allow: frozenset[str] = frozenset()) -> dict[str, re.Pattern]:
    """Each game with a rulebook -> one pattern finding its words as a generic module
    would write them: its terms and glossary forms (capitalised, as its rulebook
    writes a term; glued to its icon always) and its ``rules_words`` in any case,
    but for the words in ``allow``."""
    from workbench.rules.glossary import game_glossary
    out: dict[str, re.Pattern] = {}
    for gid, game in load_all().items():
        langs = tuple(game.rulebook_languages)
        exact: set[str] = set()
        forms = [f for tr in langs[1:] for p in game_glossary(gid, langs[0], tr) for f in (*p.source, *p.target)]
        for form in forms:
            bare = re.sub(r"^[^\w]+", "", form).strip()
            if bare != form and bare:
                exact.add(form)                      # 🧬Word: a term by its icon
            if bare[:1].isupper() and bare not in EVERYDAY and bare not in allow:
                exact.add(bare)
        declared = {w for by_lang in game.rules_words.values() for ws in by_lang.values() for w in ws
                    if w not in allow}
        if not exact and not declared:
            continue
        alts = [re.escape(w) for w in sorted(exact, key=len, reverse=True)]
        alts += ["(?i:" + re.escape(w) + ")" for w in sorted(declared, key=len, reverse=True)]
        # (not after a dot: ``re.Pattern`` is Python's, whatever a game calls a Pattern)
        out[gid] = re.compile(r"(?<![\w.-])(?:" + "|".join(alts) + r")(?![\w-])")
    return out


def rules_offences(text: str, words: dict[str, re.Pattern]) -> set[str]:
    return {f"{gid}: {m.group(0)}" for gid, pat in words.items() for m in pat.finditer(text)}


def test_the_rules_review_names_no_game_term():
    """workbench/rules/ (code, comments and lexicons) writes no game's term: a check
    needing one reads it from the game (its terms, glossary, ``rules_words``)."""
    words = rules_game_words()
    offences = []
    for path in sorted([*RULES.rglob("*.py"), *RULES.rglob("*.yaml")]):
        found = rules_offences(path.read_text(encoding="utf-8"), words)
        offences += [f"{path.relative_to(PACKAGE).as_posix()}: {w}" for w in sorted(found)]
    assert offences == []


#: everyday words of the generic modules that a game also uses as a term: a print
#: sheet's Grid, and "cycle" as English says it (a game's "cycle" of actions)
GENERIC_EVERYDAY = frozenset({"Grid", "cycle"})


def test_no_generic_module_writes_a_game_term():
    """Nor does any other module outside the games' packages (code, comments, help
    texts): an example in a generic module uses a made-up term."""
    words = rules_game_words(GENERIC_EVERYDAY)
    offences = []
    for path in sorted([*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.yaml")]):
        if GAMES_DIR in path.parents or RULES in path.parents:
            continue
        found = rules_offences(path.read_text(encoding="utf-8"), words)
        offences += [f"{path.relative_to(PACKAGE).as_posix()}: {w}" for w in sorted(found)]
    assert offences == []


def test_the_rules_term_search_finds_planted_terms():
    """The search above finds a term, a term by its icon and a declared rules word in
    any case, and leaves the everyday words alone."""
    from workbench.core.registry import get_game
    words = rules_game_words()
    assert len(words) >= 3
    assert rules_offences("The Player and the Group build a Market. Tokens of text.\n", words) == set()
    for planted in ("Era", "🧬Pattern", "🎟️Token", "Korszak", "Tőkebevonás", "Syndication"):
        assert rules_offences(f"# e.g. {planted}, here\n", words), planted
    gid, by_lang = next((gid, g.rules_words) for gid, g in load_all().items() if g.rules_words)
    word = next(iter(next(iter(by_lang.values())).values()))[0]
    assert f"{gid}: {word.upper()}" in rules_offences(f"words: [{word.upper()}]", words)
    assert get_game(gid).rulebook_languages
