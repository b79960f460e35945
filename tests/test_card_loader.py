"""The core card loader: every game reads its pool through it, an edited file
is played in the next game without a restart, and an injected pool is played
without touching files."""

from __future__ import annotations

import os

import pytest
import yaml

from workbench.core import cards as loader
from workbench.core.errors import DataError
from workbench.core.registry import get_game, providing


@pytest.mark.parametrize("game_id", providing("cards"))
def test_edited_file_is_read_again(cards_copy, game_id):
    game = get_game(game_id)
    first = game.cards()
    assert game.cards() is first            # unchanged files: the cached pool
    path = cards_copy / game_id.replace("-", "_") / game.pool_spec.files[-1]  # any file of the pool
    path.write_text(path.read_text(encoding="utf-8") + "\n# touched\n", encoding="utf-8")
    assert game.cards() is not first         # a changed file: read again


def test_same_size_rewrite_in_the_same_tick_is_noticed(cards_copy):
    """A rewrite that keeps the size and the modification time (a coarse clock)
    is caught by the content hash of a recently written file."""
    game = get_game("pax-transhumanity")
    path = cards_copy / "pax_transhumanity" / "settings.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")   # written just now: racily clean
    before = game.cards()
    assert before.settings["hire_cost"] == 3
    stat = os.stat(path)
    path.write_text(text.replace("hire_cost: {value: 3", "hire_cost: {value: 4"), encoding="utf-8")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert os.stat(path).st_size == stat.st_size
    assert game.cards().settings["hire_cost"] == 4


def test_broken_edit_names_file_card_and_field(cards_copy):
    game = get_game("mandate-2038")
    path = cards_copy / "mandate_2038" / "factions.yaml"
    data = yaml.safe_load(path.read_text())
    data["factions"][0]["start"]["compute"] = 99
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(DataError) as err:
        game.cards()
    assert "factions.yaml" in str(err.value) and "start.compute" in str(err.value)


@pytest.mark.parametrize("game_id", providing("cards"))
def test_injected_pool_plays_without_files(cards_copy, game_id):
    game = get_game(game_id)
    pool = game.cards()
    bound = game.with_cards(pool)
    folder = cards_copy / game_id.replace("-", "_")
    for name in os.listdir(folder):
        if name.endswith(".yaml"):
            os.remove(folder / name)
    state = bound.new_initial_state(bound.config(bound.default_players, seed=1))
    assert not state.is_terminal() and state.legal_actions()
    loader.forget(game_id)


def test_pool_is_validated_once_per_content(cards_copy, monkeypatch):
    """A new game only stats the files: the pool is validated once per content.
    A rewrite of the same bytes, or an edit undone, gets the pool validated
    then; an edit the checks refuse is refused each time it is asked for."""
    game = get_game("mandate-2038")
    path = cards_copy / "mandate_2038" / "factions.yaml"
    text = path.read_text(encoding="utf-8")
    first = game.cards()
    loads = []      # every validation starts with the name check
    real_check = loader.check_pool_names
    monkeypatch.setattr(loader, "check_pool_names", lambda *a: (loads.append(a), real_check(*a))[1])
    for _ in range(3):
        assert game.cards() is first and not loads          # unchanged: no validation
    path.write_text(text, encoding="utf-8")                 # the same bytes, a new stamp
    assert game.cards() is first and not loads
    data = yaml.safe_load(text)
    data["factions"][0]["start"]["compute"] = 99
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    for _ in range(2):                                      # refused, and refused again
        with pytest.raises(DataError, match="start.compute"):
            game.cards()
    assert len(loads) == 2
    path.write_text(text, encoding="utf-8")                 # the edit undone
    assert game.cards() is first and len(loads) == 2
    path.write_text(text + "\n# touched\n", encoding="utf-8")   # a new content: validated
    assert game.cards() is not first and len(loads) == 3
