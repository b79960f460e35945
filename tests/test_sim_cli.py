"""``workbench simulate`` and ``workbench bench`` on the command line."""

from __future__ import annotations

import json

import pytest

from workbench.cli import main

pytestmark = pytest.mark.usefixtures("no_history")  # not the checkout's card history

TOY = "workbench.games.pebble_race:GAME"




def test_simulate_json(capsys):
    assert main(["simulate", TOY, "--games", "20", "--players", "3", "--workers", "0", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["games"] == 20 and doc["players"] == 3
    assert sum(doc["endings"].values()) == 20
    assert 0 <= doc["metrics"]["completion"] <= 1
    assert "seat_advantage_seat3" in doc["metrics"]
    assert doc["cards"] and "pick_rate" in doc["cards"][0]


def test_simulate_table_and_parquet(capsys, tmp_path):
    out = tmp_path / "toy.parquet"
    assert main(["simulate", TOY, "--games", "10", "--workers", "0", "--out", str(out),
                 "--ideal-rounds", "4-8"]) == 0
    text = capsys.readouterr().out
    assert "Completion (games with a winner)" in text and "Ideal duration score" in text
    assert out.exists() and (tmp_path / "toy.players.parquet").exists() and (tmp_path / "toy.cards.parquet").exists()


def test_simulate_shows_faction_win_rates_with_intervals(capsys, tmp_path):
    """Mandate's factions: a table beside the seat win rates, the same figures
    in --json (``roles`` and the ``role_win_rate_*`` metrics), and the role
    column of the players file (streamed through --out)."""
    args = ["simulate", "mandate-2038", "--games", "4", "--players", "3", "--workers", "0", "--seed", "2"]
    assert main(args + ["--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    roles = {r["role"]: r for r in doc["roles"]}
    assert sum(r["player_games"] for r in roles.values()) == 12
    for name, row in roles.items():
        assert row["ci_low"] <= row["win_rate"] <= row["ci_high"] and row["fair"] == pytest.approx(1 / 3)
        assert doc["metrics"][f"role_win_rate_{name.lower().replace(' ', '_')}"] == row["win_rate"]
    assert doc["metrics"]["role_gap"] == max(abs(r["win_rate"] - r["fair"]) for r in roles.values())
    out = tmp_path / "m.parquet"
    assert main(args + ["--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Win rate by role, " in text and "faction" in text and "95% interval" in text
    import polars as pl
    players = pl.read_parquet(tmp_path / "m.players.parquet")
    assert sorted(set(players["role"].to_list())) == sorted(roles)


def test_same_json_for_any_worker_count(capsys):
    docs = []
    for workers in ("0", "2"):
        assert main(["simulate", TOY, "--games", "24", "--workers", workers, "--json", "--seed", "5"]) == 0
        doc = json.loads(capsys.readouterr().out)
        docs.append({k: doc[k] for k in ("metrics", "cards", "endings")})
    assert docs[0] == docs[1]


def test_bad_input_is_one_line(capsys):
    assert main(["simulate", "meaning-mad", "--games", "5"]) == 1
    err = capsys.readouterr().err
    assert "meaning-made" in err and len(err.strip().splitlines()) == 1
    assert main(["simulate", TOY, "--games", "5", "--bots", "mcts:x"]) == 1
    assert main(["simulate", TOY, "--games", "0"]) == 1
    assert main(["simulate", TOY, "--games", "5", "--ideal-rounds", "9-2"]) == 1


def test_bench_runs_a_reduced_figure(capsys):
    assert main(["bench", "--game", TOY, "--quick", "--only", "startup", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    (fig,) = doc["figures"]
    assert fig["name"] == "startup" and fig["target"] == 0.3 and isinstance(fig["met"], bool)
    assert main(["bench", "--only", "engin"]) == 1


def test_bench_has_one_section_per_game(capsys):
    """Per-game figures come in one section per ``--game``; batch figures after
    them, for the first game. (Shapes only: values are the machine's.)"""
    assert main(["bench", "--game", TOY, "--game", TOY, "--quick", "--only", "greedy", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [s["game"] for s in doc["games"]] == [TOY, TOY]
    for section in doc["games"]:
        (fig,) = section["figures"]
        assert fig["name"] == "greedy" and fig["unit"] == "games/s" and fig["value"] > 0
    assert doc["figures"] == []
