"""Contradictory Meaning Made variants are refused, and ``scenario run --option`` replays a
scenario under a ruling's switch (as typed on the command line)."""

from __future__ import annotations

from workbench.cli import main
from workbench.core.data import cards_dir


def test_cooperative_and_competitive_are_refused(capsys):
    code = main(["play", "meaning-made", "--players", "3", "--variant", "cooperative",
                 "--variant", "competitive", "--seed", "3"])
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1 and "contradict" in err


def test_scenario_option_switches_a_ruling(capsys):
    path = str(cards_dir("meaning-made") / "scenarios" / "contribute-bare-marker-refused.yaml")
    assert main(["scenario", "run", path]) == 0
    capsys.readouterr()
    # Under the switch the refused bare marker is accepted, so the default's scenario fails.
    assert main(["scenario", "run", path, "--option", "bare_marker=true"]) == 1
    assert "was accepted but must be refused" in capsys.readouterr().out
    assert main(["scenario", "run", path, "--option", "bare_marker"]) == 1
    assert "must look like key=value" in capsys.readouterr().err


def test_variant_start_meaning_precedence():
    """Ruling variant-start-meaning: a variant's start replaces solo Hard's, High
    Instability's replaces Faster Game's; start_meaning=lowest takes the lowest."""
    from workbench.games.meaning_made import GAME

    def start(players, variants=(), **options):
        state = GAME.new_initial_state(GAME.config(players, seed=1, variants=variants, **options))
        return state.rules.start_meaning

    assert start(1, difficulty="hard") == 4
    assert start(1, ("faster-game",), difficulty="hard") == 6
    assert start(1, ("faster-game",), difficulty="hard", start_meaning="lowest") == 4
    assert start(3, ("faster-game", "high-instability")) == 4
    assert start(3, ("high-instability", "faster-game")) == 4      # order given does not matter
    assert start(1, ("faster-game",), difficulty="easy", start_meaning="lowest") == 6
