"""The game registry: games are plugins found through the ``workbench.games``
entry points, each declares what it offers, pages and commands ask the registry
("which games provide X"), a broken plugin is reported in one line while the
others load, and no game id is written in code outside the game's own package."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from workbench.core import registry
from workbench.core.errors import WorkbenchError
from workbench.core.game import CAPABILITIES, Game, resolve

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "workbench"
GAMES_DIR = PACKAGE / "games"

def _game_packages() -> list[str]:
    return sorted(p.name for p in GAMES_DIR.iterdir() if (p / "__init__.py").exists())


def _id_patterns() -> dict[str, re.Pattern]:
    """package folder -> a pattern matching the game's id (hyphens) or its
    package name (underscores), as a whole word."""
    out = {}
    for pkg in _game_packages():
        words = {pkg, pkg.replace("_", "-")}
        out[pkg] = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(words))) + r")(?![\w-])")
    return out


def test_no_game_id_outside_its_own_package():
    """Every code file of the workbench (Python, Typst) outside
    ``workbench/games/<game>/`` is searched for every game's id and package
    name; a game package is searched for the others'."""
    patterns = _id_patterns()
    offences = []
    for path in sorted(PACKAGE.rglob("*")):
        if path.suffix not in (".py", ".typ") or "__pycache__" in path.parts or "_native" in path.parts:
            continue
        rel = path.relative_to(ROOT).as_posix()
        own = path.relative_to(GAMES_DIR).parts[0] if GAMES_DIR in path.parents else None
        text = path.read_text(encoding="utf-8")
        for pkg, pattern in patterns.items():
            if pkg == own:
                continue
            for m in pattern.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                offences.append(f"{rel}:{line}: {m.group(0)}")
    assert not offences, "game ids outside their package:\n" + "\n".join(offences)


def test_the_id_search_finds_a_planted_id(tmp_path):
    """The search above is not blind: a planted id in a copy of a page is found."""
    pkg = _game_packages()[0]
    text = (PACKAGE / "dashboard" / "print.py").read_text() + f'\nDEFAULT = "{pkg.replace("_", "-")}"\n'
    assert _id_patterns()[pkg].search(text)
    assert not _id_patterns()[pkg].search(text.replace(pkg.replace("_", "-"), "x"))


def test_bundled_games_are_entry_points():
    from importlib import metadata
    eps = {ep.name: ep.value for ep in metadata.entry_points(group=registry.GROUP)}
    for gid in registry.game_ids():
        assert gid in eps
        module = eps[gid].partition(":")[0]
        assert module.startswith("workbench.games.") or gid not in registry.providing("cards")
    bundled = {p.replace("_", "-") for p in _game_packages()} - {"pebble-race"}  # the tests' toy is not listed
    assert bundled <= set(eps)


def test_listing_order_is_the_declared_one():
    games = registry.load_all()
    orders = [g.listing_order for g in games.values()]
    assert orders == sorted(orders)
    assert list(games)[0] == next(iter(registry.providing("card_graph")))


@pytest.mark.parametrize("capability", sorted(CAPABILITIES))
def test_providing_answers_from_the_declarations(capability):
    games = registry.load_all()
    expected = [gid for gid, g in games.items() if CAPABILITIES[capability](g)]
    assert registry.providing(capability) == expected
    assert all(games[gid].provides(capability) for gid in expected)


def test_unknown_capability_is_refused():
    game = next(iter(registry.load_all().values()))
    with pytest.raises(WorkbenchError, match="unknown capability"):
        game.provides("telepathy")


def test_every_declared_reference_resolves_to_what_callers_use():
    """A declaration names an importable object with the members its callers
    read, so a typo in a game's declaration fails here, not on a page."""
    needs = {"card_graph": ("build_graph", "analyses"), "board": ("document", "analyses", "analysis_lines",
                                                                  "tables", "caption", "figure", "tile_line"),
             "print_cards": ("cards",)}
    for gid, game in registry.load_all().items():
        for attr, members in needs.items():
            ref = getattr(game, attr)
            if ref is not None:
                obj = resolve(ref)
                missing = [m for m in members if not hasattr(obj, m)]
                assert not missing, f"{gid}.{attr} = {ref} lacks {missing}"
        if game.table_drawer:
            assert callable(resolve(game.table_drawer))
        if game.tweak_session:
            assert isinstance(resolve(game.tweak_session), type)


def test_declared_rulebook_languages_are_the_folders_files():
    from workbench.core.data import cards_dir
    for gid in registry.providing("rulebook"):
        game = registry.get_game(gid)
        rules = cards_dir(gid) / "rules"
        written = {p.stem for p in rules.glob("*.md")} | {p.stem for p in rules.glob("*.po")}
        assert set(game.rulebook_languages) == written, gid
        assert (rules / f"{game.rulebook_languages[0]}.md").exists(), f"{gid}: the source language is the .md"


def test_balance_declarations_parse():
    from workbench.balance.targets import parse_target
    for gid in registry.providing("balance"):
        b = registry.get_game(gid).balance
        assert b["targets"] and b["vary"]
        for text in b["targets"]:
            parse_target(text)


# -- a broken plugin next to the working ones ---------------------------------------

def _install_plugins(root: Path) -> None:
    """Two plugin distributions on ``root`` (a folder put on sys.path): one
    whose module raises on import, one that registers a game fine."""
    (root / "broken_game").mkdir()
    (root / "broken_game" / "__init__.py").write_text("raise RuntimeError('half-written rules')\n")
    (root / "fine_game").mkdir()
    (root / "fine_game" / "__init__.py").write_text(textwrap.dedent("""
        from workbench.games.pebble_race.game import PebbleRace

        class Fine(PebbleRace):
            id = "fine-game"
            name = "Fine Game"

        GAME = Fine()
    """))
    for dist, name, value in (("broken_game", "broken-game", "broken_game:GAME"),
                              ("fine_game", "fine-game", "fine_game:GAME")):
        info = root / f"{dist}-0.1.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist.replace('_', '-')}\nVersion: 0.1\n")
        (info / "entry_points.txt").write_text(f"[workbench.games]\n{name} = {value}\n")


@pytest.fixture
def plugins(tmp_path, monkeypatch):
    _install_plugins(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    registry.refresh()
    yield tmp_path
    for mod in ("broken_game", "fine_game"):
        sys.modules.pop(mod, None)
    monkeypatch.undo()
    registry.refresh()


def test_broken_plugin_is_one_line_and_the_others_load(plugins):
    assert {"broken-game", "fine-game"} <= set(registry.game_ids())
    with pytest.raises(WorkbenchError) as err:
        registry.get_game("broken-game")
    message = str(err.value)
    assert "\n" not in message
    assert "broken-game" in message and "RuntimeError: half-written rules" in message
    loaded = registry.load_all()
    assert "broken-game" not in loaded and "fine-game" in loaded
    assert set(registry.providing("cards")) >= {"fine-game"}
    assert [p for p in registry.problems() if "broken-game" in p] == [message]
    game = registry.get_game("fine-game")
    state = game.new_initial_state(game.config(2, seed=1))
    assert state.legal_actions()


def test_cli_reports_a_broken_plugin_in_one_line_and_plays_the_rest(tmp_path):
    _install_plugins(tmp_path)
    env_path = f"{tmp_path}"
    code = ("import sys; sys.path.insert(0, %r); from workbench.cli import main; sys.exit(main(sys.argv[1:]))"
            % env_path)
    bad = subprocess.run([sys.executable, "-c", code, "play", "broken-game", "--seed", "1"],
                         capture_output=True, text=True, timeout=300)
    assert bad.returncode == 1
    assert "Traceback" not in bad.stderr
    lines = [line for line in bad.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "broken-game" in lines[0] and "half-written rules" in lines[0]
    good = subprocess.run([sys.executable, "-c", code, "play", "fine-game", "--seed", "1", "--json"],
                          capture_output=True, text=True, timeout=300)
    assert good.returncode == 0, good.stderr
    assert '"game": "fine-game"' in good.stdout


def test_a_plugin_whose_object_is_not_a_game_is_broken(tmp_path, monkeypatch):
    (tmp_path / "not_game.py").write_text("GAME = 42\n")
    info = tmp_path / "not_game-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: not-game\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[workbench.games]\nnot-game = not_game:GAME\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    registry.refresh()
    try:
        with pytest.raises(WorkbenchError, match="names a int, not a Game"):
            registry.get_game("not-game")
        assert "not-game" not in registry.load_all()
    finally:
        sys.modules.pop("not_game", None)
        monkeypatch.undo()
        registry.refresh()


def test_register_in_process_and_take_out_again():
    class Local(Game):
        id, name, min_players, max_players = "local-toy", "Local", 1, 2

        def new_initial_state(self, config):
            raise NotImplementedError

        def parse_action(self, state, text):
            raise NotImplementedError

        def result(self, state):
            raise NotImplementedError
    registry.register(Local())
    try:
        assert registry.get_game("local-toy").name == "Local"
        assert "local-toy" in registry.game_ids()
    finally:
        registry.unregister("local-toy")
    with pytest.raises(WorkbenchError, match="unknown game"):
        registry.get_game("local-toy")


def test_every_game_has_a_frozen_type_record_apart_from_its_rules():
    """``Game.game_type()``: OpenSpiel's GameType for our games, plain JSON, frozen,
    and the registry's capability answers read from it agree with ``provides``."""
    import dataclasses
    import json

    from workbench.core.gametype import GameType
    for gid, game in registry.load_all().items():
        kind = game.game_type()
        assert isinstance(kind, GameType) and kind.id == gid
        assert json.loads(json.dumps(kind.to_dict())) == kind.to_dict()
        assert kind.offered() == [c for c in CAPABILITIES if game.provides(c)]
        assert kind.information == ("imperfect" if game.hidden_information else "perfect")
        with pytest.raises(dataclasses.FrozenInstanceError):
            kind.name = "x"
    with pytest.raises(ValueError, match="chance"):
        dataclasses.replace(kind, chance="dice")


def test_a_capability_is_a_reference_or_the_object_itself():
    """``resolve`` imports a ``"module:attr"`` reference, and hands back an object
    a game registered directly (a class, a module) as it is."""
    import workbench.core.game as game_module
    assert resolve("workbench.core.game:resolve") is resolve
    assert resolve("workbench.core.game") is game_module
    assert resolve(game_module) is game_module and resolve(Game) is Game


def test_a_part_is_registered_relative_to_its_games_package_and_imported_when_used():
    """``part(".module", "attr")`` on a Game subclass is bound to the class's package
    when the class is made (no module path written out), imported only by ``resolve``;
    the bundled games name every part that way."""
    import sys
    from workbench.core.game import PARTS, Part, part

    class Probe(Game):   # as if written in workbench/core/: its parts are workbench.core's
        __module__ = "workbench.core.probe"
        id, name, min_players, max_players = "probe", "Probe", 1, 1
        board = part(".rng", "Rng")
        card_graph = part(".game")
        new_initial_state = parse_action = result = None

    assert Probe.board == Part("workbench.core.rng", "Rng") and str(Probe.card_graph) == "workbench.core.game"
    assert resolve(Probe.board) is sys.modules["workbench.core.rng"].Rng
    with pytest.raises(WorkbenchError, match="never bound"):
        resolve(part(".rng"))
    with pytest.raises(WorkbenchError, match="in no package"):
        type("Loose", (Game,), {"__module__": "loose", "board": part(".rng")})
    for gid, game in registry.load_all().items():
        for attr in PARTS:
            ref = getattr(game, attr)
            assert ref is None or isinstance(ref, Part), f"{gid}.{attr} = {ref!r}: a module path written out"
            if ref is not None:
                assert ref.module.startswith(type(game).__module__.rpartition(".")[0] + ".")
