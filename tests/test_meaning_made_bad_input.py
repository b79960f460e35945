"""Bad input to Meaning Made gets one clear answer and changes nothing.

- a broken card file names the file, the card and the field (and the command
  line says so in one line, exit 1);
- an illegal action says why, and the state is exactly as it was;
- a misspelt card or player name suggests the nearest one.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
import yaml

from workbench.core.errors import DataError, IllegalAction, NotationError, WorkbenchError
from workbench.core.registry import get_game
from workbench.games.meaning_made.state import PLAYER_FIELDS, fields

GAME = get_game("meaning-made")


# ---------------------------------------------------------------- helpers

def snapshot(state) -> dict:
    """Every piece of a position as plain data, for before/after comparison."""
    out = {}
    for key, value in fields(state).items():
        if key in ("config", "rules", "cards"):
            continue
        if key == "rng":
            out[key] = repr(vars(value)) if hasattr(value, "__dict__") else repr(
                [getattr(value, s) for s in getattr(value, "__slots__", ())])
        elif key == "players":
            out[key] = [{s: (list(getattr(p, s)) if isinstance(getattr(p, s), list) else getattr(p, s))
                         for s in PLAYER_FIELDS} for p in value]
        elif key == "progress":
            out[key] = {k: (dict(v.filled), list(v.markers)) for k, v in value.items()}
        elif isinstance(value, list):
            out[key] = list(value)
        else:
            out[key] = value
    return out


def position(**setup):
    return GAME.scenario_state(setup)


def refuse(state, text: str) -> str:
    """Apply ``text``; it must be refused with a reason and change nothing."""
    before = snapshot(state)
    with pytest.raises(WorkbenchError) as info:
        state.apply_action(GAME.parse_action(state, text))
    assert snapshot(state) == before, f"{text!r} was refused but changed the state"
    message = str(info.value)
    assert message and "\n" not in message
    return message


def edit_yaml(path, change):
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


def find(items, key, value):
    return next(item for item in items if item.get(key) == value)


# ---------------------------------------------------------------- card files

BROKEN = [
    # (file, what to break, card named in the error, field named in the error)
    ("patterns.yaml", lambda d: find(d["patterns"], "name", "Pulse").update(layer="seven"), "Pulse", "layer"),
    ("patterns.yaml", lambda d: find(d["patterns"], "name", "Buffer")["requirement"]["tokens"].update(S=-1),
     "Buffer", "requirement"),
    ("patterns.yaml", lambda d: find(d["patterns"], "name", "Shelter").pop("layer"), "Shelter", "layer"),
    ("initiatives.yaml", lambda d: find(d["initiatives"], "name", "Trade Standard").update(meaning="lots"),
     "Trade Standard", "meaning"),
    ("initiatives.yaml", lambda d: find(d["initiatives"], "name", "Listening Circle").update(layer=3),
     "Listening Circle", "layer"),
    ("events.yaml", lambda d: find(d["events"], "id", "B").update(code="three"), "B", "code"),
]


@pytest.mark.parametrize("file,breaker,card,field", BROKEN, ids=[f"{b[0]}:{b[2]}:{b[3]}" for b in BROKEN])
def test_broken_card_file_names_file_card_and_field(cards_copy, file, breaker, card, field):
    from workbench.games.meaning_made.data import load_cards

    folder = cards_copy / "meaning_made"
    edit_yaml(folder / file, breaker)
    with pytest.raises(DataError) as info:
        load_cards(folder)
    err = info.value
    assert err.file and err.file.endswith(file), err
    assert err.card == card, err
    assert err.field and err.field.split(".")[0] == field, err
    text = str(err)
    assert file in text and card in text and field in text


def test_duplicate_pattern_name_is_named(cards_copy):
    from workbench.games.meaning_made.data import load_cards

    folder = cards_copy / "meaning_made"
    edit_yaml(folder / "patterns.yaml", lambda d: find(d["patterns"], "name", "Setpoint").update(name="Pulse"))
    with pytest.raises(DataError) as info:
        load_cards(folder)
    assert "Pulse" in str(info.value) and "patterns.yaml" in str(info.value)


def test_yaml_syntax_error_names_file_and_line(cards_copy):
    from workbench.games.meaning_made.data import load_cards

    folder = cards_copy / "meaning_made"
    path = folder / "events.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "\n- {id: Z, code: [\n", encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_cards(folder)
    assert "events.yaml" in str(info.value) and "line" in str(info.value)


def test_command_line_reports_a_broken_card_file_in_one_line(cards_copy):
    folder = cards_copy / "meaning_made"
    edit_yaml(folder / "patterns.yaml", lambda d: find(d["patterns"], "name", "Pulse").update(layer="seven"))
    proc = subprocess.run([sys.executable, "-m", "workbench.cli", "play", "meaning-made", "--json"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 1
    assert proc.stdout == ""
    lines = [l for l in proc.stderr.splitlines() if l.strip()]
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    for word in ("patterns.yaml", "Pulse", "layer"):
        assert word in lines[0]


# ---------------------------------------------------------------- illegal actions

def test_illegal_actions_say_why_and_change_nothing():
    state = position(players=["Alex", "Brooke"], start="turns",
                     world={"prism": ["Shell", "Selective Membrane", "Shelter", "Pulse", "Setpoint", "Buffer"],
                            "index": ["Listening Circle", "Quiet Hour", "Shared Attention"]},
                     players_state={"Alex": {"E": 1, "I": 0, "S": 0, "palette": []}})
    reasons = {
        "gather 2S": refuse(state, "gather 2S"),
        "gather E": refuse(state, "gather E"),
        "load Shelter": refuse(state, "load Shelter"),              # no Support
        "load Pulse with E": refuse(state, "load Pulse with E"),    # Layer 1 icon unpaid
        "contribute Listening Circle with S": refuse(state, "contribute Listening Circle with S"),
        "touchpoint give S to Brooke": refuse(state, "touchpoint give S to Brooke"),
        "convert": refuse(state, "convert"),
        "donate": refuse(state, "donate"),
        "accept": refuse(state, "accept"),
    }
    assert all(reasons.values())
    # The reasons differ: each says what is wrong with that action.
    assert len(set(reasons.values())) >= 7, reasons


def test_not_your_decision_is_refused_and_changes_nothing():
    state = position(players=["Alex", "Brooke"], start="turns",
                     players_state={"Alex": {"E": 2}, "Brooke": {"E": 0}})
    state.apply_action(GAME.parse_action(state, "touchpoint give E to Brooke"))
    # Brooke must answer; Alex cannot act now.
    refuse(state, "gather 2E")
    refuse(state, "touchpoint give E to Brooke")


def test_actions_after_the_game_ended_are_refused():
    state = position(players=["Alex", "Brooke"], start="stability", world={"meaning": 0},
                     players_state={"Alex": {"S": 0}, "Brooke": {"S": 0}})
    assert state.is_terminal()
    refuse(state, "gather 2E")
    assert state.legal_actions() == []


# ---------------------------------------------------------------- names

@pytest.mark.parametrize("text,nearest", [
    ("load Sheltr", "Shelter"),
    ("load selectve membrane", "Selective Membrane"),
    ("contribute Listenin Circle", "Listening Circle"),
    ("touchpoint give E to Brook", "Brooke"),
])
def test_misspelt_name_suggests_the_nearest(text, nearest):
    state = position(players=["Alex", "Brooke"], start="turns")
    before = snapshot(state)
    with pytest.raises(NotationError) as info:
        GAME.parse_action(state, text)
    assert f"'{nearest}'" in str(info.value) or f'"{nearest}"' in str(info.value), str(info.value)
    assert snapshot(state) == before


def test_names_match_case_insensitively():
    state = position(players=["Alex", "Brooke"], start="turns",
                     world={"prism": ["Shell", "Selective Membrane", "Shelter", "Pulse", "Setpoint", "Buffer"]})
    action = GAME.parse_action(state, "LOAD shell WITH e")
    assert str(action) == str(GAME.parse_action(state, "load Shell with E"))


def test_unknown_action_word_is_one_clear_line():
    state = position(players=["Alex", "Brooke"], start="turns")
    with pytest.raises(NotationError) as info:
        GAME.parse_action(state, "dance wildly")
    assert "\n" not in str(info.value) and str(info.value)


def test_scenario_setup_with_a_misspelt_card_suggests_the_nearest():
    with pytest.raises(WorkbenchError) as info:
        position(players=["Alex", "Brooke"], world={"prism": ["Shel"]})
    assert "Shell" in str(info.value)


def test_bad_variant_is_refused_with_a_suggestion():
    with pytest.raises(WorkbenchError) as info:
        GAME.new_initial_state(GAME.config(2, variants=["fastr-game"]))
    assert "faster-game" in str(info.value)


def test_bad_player_counts_are_refused():
    for n in (0, 7):
        with pytest.raises(WorkbenchError):
            GAME.new_initial_state(GAME.config(n))
