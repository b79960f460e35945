"""``workbench play meaning-made`` as a user types it: a whole game for every
player count, the JSON shape of the command reference, the same bytes for the
same seed, and one clear line (exit 1, no traceback) for bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from workbench.core.registry import get_game


def workbench(*args: str) -> subprocess.CompletedProcess:
    """Run the command line in a fresh interpreter, as a shell would."""
    return subprocess.run([sys.executable, "-m", "workbench.cli", *args],
                          capture_output=True, text=True, timeout=300)


def play_json(players: int, seed: int, *extra: str) -> tuple[str, dict]:
    proc = workbench("play", "meaning-made", "--players", str(players), "--seed", str(seed),
                     "--json", *extra)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout, json.loads(proc.stdout)


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_whole_game_for_each_player_count(players):
    _, doc = play_json(players, 11)
    assert doc["game"] == "meaning-made"
    assert doc["seed"] == 11
    assert len(doc["players"]) == players
    names = [p["name"] for p in doc["players"]]
    assert len(set(names)) == players
    for p in doc["players"]:
        assert isinstance(p["score"], (int, float))
    assert set(doc["winners"]) <= set(names)
    assert doc["ending"] in {"survived", "collapsed", "timeout"}
    assert isinstance(doc["turns"], int) and doc["turns"] >= 1
    assert doc["log"] and all(isinstance(a, str) for a in doc["log"])
    if doc["ending"] == "collapsed":
        assert doc["winners"] == []   # a collapsed world has no winner
    # Every logged action parses back in the game's notation: the log is a
    # replayable record, not prose.
    game = get_game("meaning-made")
    state = game.new_initial_state(game.config(names, seed=11))
    for text in doc["log"]:
        action = game.parse_action(state, text)
        assert game.format_action(state, action) == text
        state.apply_action(action)
    assert state.is_terminal()
    assert game.result(state).ending == doc["ending"]


def test_same_seed_gives_the_same_bytes():
    first, _ = play_json(4, 2024)
    second, _ = play_json(4, 2024)
    assert first == second


def test_a_different_seed_gives_a_different_game():
    _, a = play_json(3, 1)
    _, b = play_json(3, 2)
    assert a["log"] != b["log"]


def test_random_bots_and_a_variant_run_to_the_end():
    _, doc = play_json(2, 5, "--bots", "random", "--variant", "faster-game")
    assert doc["ending"] in {"survived", "collapsed", "timeout"}
    assert doc["variants"] == ["faster-game"]


def _one_clear_line(proc: subprocess.CompletedProcess, *words: str) -> str:
    assert proc.returncode == 1, (proc.returncode, proc.stdout, proc.stderr)
    assert proc.stdout == ""
    lines = [l for l in proc.stderr.splitlines() if l.strip()]
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    for word in words:
        assert word.lower() in lines[0].lower(), lines[0]
    return lines[0]


def test_bad_game_id_is_one_line_with_a_suggestion():
    line = _one_clear_line(workbench("play", "meaning-mad", "--json"), "meaning-mad")
    assert "meaning-made" in line


def test_bad_variant_is_one_line():
    _one_clear_line(workbench("play", "meaning-made", "--variant", "fastr-game", "--json"), "fastr-game")


def test_bad_bot_is_one_line():
    _one_clear_line(workbench("play", "meaning-made", "--bots", "cleverest", "--json"), "cleverest")


def test_bad_player_count_is_one_line():
    _one_clear_line(workbench("play", "meaning-made", "--players", "9", "--json"), "9")


def test_play_says_which_card_folder_and_pool_it_played(tmp_path):
    from workbench.core.data import cards_dir
    from workbench.core.versions import pool_version
    run = workbench("play", "meaning-made", "--players", "2", "--seed", "4", "--json")
    doc = json.loads(run.stdout)
    # the shipped cards are "bundled" in the JSON (the same bytes on every machine)
    assert doc["cards"] == ("bundled" if not os.environ.get("WORKBENCH_CARDS") else str(cards_dir("meaning-made")))
    assert doc["pool"] == pool_version("meaning-made") and doc["pool"].startswith("p")
    # the new keys come last: the document before them is what it was
    assert list(doc)[-2:] == ["cards", "pool"] and list(doc)[:3] == ["game", "seed", "variants"]
    text = workbench("play", "meaning-made", "--players", "2", "--seed", "4").stdout
    assert f"cards: {cards_dir('meaning-made')} (pool {doc['pool']})" in text
    assert "2 players" in text and " 1 rounds" not in text
