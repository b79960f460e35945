"""Card data of Meaning Made: the files load and validate, keep the source's
values, and a broken file is refused naming the file, the card and the field."""

from __future__ import annotations

import pickle
import re

import pytest
import yaml

from workbench.core.errors import DataError, NotationError
from workbench.games.meaning_made import GAME, MeaningMade
from workbench.games.meaning_made.data import load_cards


@pytest.fixture(scope="module")
def cards():
    return load_cards()


def test_sixty_unique_patterns_ten_per_layer(cards):
    assert len(cards.patterns) == 60
    per_layer = {}
    for p in cards.patterns.values():
        per_layer[p.layer] = per_layer.get(p.layer, 0) + 1
    assert per_layer == {layer: 10 for layer in range(1, 7)}
    assert len({n.lower() for n in cards.patterns}) == 60


@pytest.mark.parametrize("name,layer,tokens,layers,bonus", [
    ("Shell", 1, {"E": 1}, [], {"E": 1}),
    ("Selective Membrane", 1, {"E": 1, "I": 1}, [], {"I": 1}),
    ("Shelter", 1, {"E": 1, "S": 1}, [], {"vitals": 1}),
    ("Pulse", 2, {"E": 1}, [1], {"E": 1}),
    ("Setpoint", 2, {"E": 1, "I": 1}, [1], {"I": 1}),
    ("Buffer", 2, {"E": 1, "S": 1}, [1], {"S": 1}),
    ("Scaffold", 3, {"E": 2}, [1, 2], {"E": 1}),
    ("Reciprocity", 4, {"E": 1, "S": 2}, [2, 3], {"S": 1}),
    ("Division of Labor", 4, {"E": 1, "I": 2, "S": 1}, [2, 3], {"I": 1}),
    ("Opportunity Scan", 5, {"E": 2, "I": 2}, [3, 4], {"E": 1}),
    ("Valence Tag", 6, {"I": 2, "S": 1}, [4, 5], {"I": 1}),
])
def test_seed_patterns_keep_the_source_values(cards, name, layer, tokens, layers, bonus):
    p = cards.patterns[name]
    assert p.provenance == "seed"
    assert p.layer == layer
    assert {k: v for k, v in p.requirement.tokens.as_dict().items() if v} == tokens
    assert p.requirement.layers == layers
    got = {k: v for k, v in p.bonus.model_dump().items() if v and k != "target"}
    assert got == bonus


def test_inferred_layer_is_marked_draft(cards):
    assert "layer" in cards.patterns["Division of Labor"].draft_fields


def test_draft_patterns_are_gated_by_lower_layers(cards):
    for p in cards.patterns.values():
        assert all(layer < p.layer for layer in p.requirement.layers), p.name
        if p.layer > 1 and p.provenance == "draft":
            assert p.requirement.layers, f"{p.name} should need a lower Layer"


@pytest.mark.parametrize("name,layer,contributors,tokens,layers,completed,meaning", [
    ("Listening Circle", 7, 2, {"S": 1, "I": 1}, [4, 5], [], 1),
    ("Trade Standard", 8, 3, {"E": 2, "I": 2, "S": 1}, [2, 4, 5], [7], 1),
    ("Mentorship Chain", 9, 3, {"I": 3, "S": 1, "E": 1}, [4, 5, 6], [8], 2),
    ("Stewardship", 10, 5, {"E": 3, "S": 3, "I": 3, "V": 2}, [2, 4, 5, 6], [7, 8, 9], 2),
])
def test_seed_initiatives_keep_the_source_values(cards, name, layer, contributors, tokens, layers, completed, meaning):
    card = cards.initiatives[name]
    assert card.provenance == "seed"
    assert card.layer == layer
    assert card.requirement.contributors == contributors
    assert card.requirement.tokens == tokens
    assert card.requirement.layers == layers
    assert card.requirement.completed == completed
    assert card.meaning == meaning
    assert card.order_spaces >= contributors
    if name == "Stewardship":
        assert card.requirement.patterns_in_play == 8


def test_initiative_pool_covers_a_full_game_and_the_long_game(cards):
    layers = [c.layer for n, c in cards.initiatives.items() if n != "Stewardship"]
    for layer in (7, 8, 9):
        assert layers.count(layer) >= 2
    assert len(layers) >= 3 + 2 + 3  # a full Index, Long Game's 2 extra slots, refills


def test_event_letters_and_codes_from_the_example_are_seed(cards):
    seed = {"A": 2, "B": 3, "C": 1, "D": 2, "E": 4, "F": 5, "H": 4, "J": 5, "K": 3}
    for letter, code in seed.items():
        assert cards.events[letter].code == code
        assert cards.events[letter].provenance == "seed"
    assert all(e.provenance == "draft" for k, e in cards.events.items() if k not in seed)


def test_resolution_tables_have_ten_columns_and_later_layers_hit_no_softer(cards):
    for table in ("event", "group", "individual"):
        assert cards.tables[table]
        for key, row in cards.tables[table].items():
            assert sorted(row.outcomes) == list(range(1, 11))
            losses = [-(o.meaning) + -(o.vitals) + o.lose_tokens + (1 if o.consequence else 0)
                      for o in (row.outcomes[c] for c in range(1, 11))]
            assert losses == sorted(losses), f"{table} {key}: a later column is softer"


def test_event_outcomes_may_chain_a_consequence_but_consequence_tables_may_not(cards):
    chained = [(k, c) for k, row in cards.tables["event"].items() for c, o in row.outcomes.items() if o.consequence]
    assert chained, "the draft Event table should show the 'further Consequence' outcome somewhere"
    for table in ("group", "individual"):
        assert not any(o.consequence for row in cards.tables[table].values() for o in row.outcomes.values())


def test_every_code_has_rows_in_both_consequence_tables(cards):
    for e in cards.events.values():
        assert str(e.code) in cards.tables["group"]
        assert str(e.code) in cards.tables["individual"]


def test_end_tables_cover_their_tracks(cards):
    assert [cards.reading(cards.world_table, m).title for m in (0, 1, 8, 12)] == [
        "Collapse", "Critical", "Resilient", "Flourishing"]
    assert cards.reading(cards.mark_table, 25).title == "World-Shaping Legacy"
    assert cards.reading(cards.mark_table, 30).title == "Defining Legacy"


def test_settings_hold_the_starting_values(cards):
    s = cards.settings
    assert (s.meaning, s.vitals, s.legacy, s.markers, s.prism_size, s.index_size) == (5, 5, 0, 4, 6, 3)
    assert s.tokens.as_dict() == {"E": 3, "I": 2, "S": 1}
    assert s.order_rewards == [5, 3] and s.other_reward == 1 and s.stability_cap == 3
    assert s.solo["easy"] == {"E": 4, "I": 3, "S": 2, "vitals": 6, "meaning": 6}
    assert s.solo["hard"] == {"E": 2, "I": 1, "S": 0, "vitals": 4, "meaning": 4}
    assert s.end_initiative == "Stewardship"


def test_game_validates_its_data():
    assert GAME.validate_data() == []


# -- broken files --------------------------------------------------------------

def _edit(path, old, new, count=1):
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def test_bad_field_names_file_card_and_field(cards_copy):
    mm = cards_copy / "meaning_made"
    _edit(mm / "patterns.yaml", "- name: Shell\n  layer: 1", "- name: Shell\n  layer: 9")
    with pytest.raises(DataError) as err:
        load_cards(mm)
    e = err.value
    assert e.file.endswith("patterns.yaml") and e.card == "Shell" and e.field == "layer"
    assert "patterns.yaml" in str(e) and "Shell" in str(e) and "layer" in str(e)
    assert MeaningMade().validate_data() and "Shell" in MeaningMade().validate_data()[0]


def test_nested_field_is_named_with_its_path(cards_copy):
    mm = cards_copy / "meaning_made"
    _edit(mm / "initiatives.yaml", "tokens: {S: 1, I: 1}", "tokens: {S: 1, I: -1}")
    with pytest.raises(DataError) as err:
        load_cards(mm)
    assert err.value.card == "Listening Circle" and err.value.field == "requirement.tokens"


def test_unknown_field_is_refused(cards_copy):
    mm = cards_copy / "meaning_made"
    _edit(mm / "patterns.yaml", "- name: Pulse\n", "- name: Pulse\n  colour: red\n")
    with pytest.raises(DataError) as err:
        load_cards(mm)
    assert err.value.card == "Pulse" and err.value.field == "colour"


def test_duplicate_name_is_refused(cards_copy):
    mm = cards_copy / "meaning_made"
    _edit(mm / "patterns.yaml", "- name: Cell Wall", "- name: Shell")
    with pytest.raises(DataError) as err:
        load_cards(mm)
    assert err.value.card == "Shell" and err.value.field == "name" and "duplicate" in str(err.value)


def test_missing_table_column_is_refused(cards_copy):
    mm = cards_copy / "meaning_made"
    text = (mm / "tables.yaml").read_text(encoding="utf-8")
    first_row = text.index("- key: A")
    col10 = text.index("    10:", first_row)
    end = text.index("\n", col10)
    (mm / "tables.yaml").write_text(text[:col10] + text[end + 1:], encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_cards(mm)
    assert err.value.card == "event A" and err.value.field == "outcomes"


def test_cross_file_problems_name_the_card(cards_copy):
    mm = cards_copy / "meaning_made"
    _edit(mm / "settings.yaml", "end_initiative: Stewardship", "end_initiative: Stewardshp")
    with pytest.raises(DataError) as err:
        load_cards(mm)
    assert err.value.field == "end_initiative" and "did you mean 'Stewardship'" in str(err.value)


def test_a_layer_losing_a_card_is_refused(cards_copy):
    mm = cards_copy / "meaning_made"
    _edit(mm / "patterns.yaml", "- name: Cell Wall\n  layer: 1", "- name: Cell Wall\n  layer: 2")
    with pytest.raises(DataError) as err:
        load_cards(mm)
    assert "10 Patterns" in str(err.value)


def test_broken_yaml_names_the_line(cards_copy):
    mm = cards_copy / "meaning_made"
    _edit(mm / "events.yaml", "{id: A,", "{id: [A,")
    with pytest.raises(DataError) as err:
        load_cards(mm)
    assert "events.yaml" in str(err.value) and re.search(r"line \d+", str(err.value))


def test_misspelt_card_suggests_the_nearest():
    state = GAME.new_initial_state(GAME.config(4, seed=1))
    with pytest.raises(NotationError, match="did you mean 'Shell'"):
        GAME.parse_action(state, "load Shel")
    with pytest.raises(NotationError, match="did you mean 'Listening Circle'"):
        GAME.parse_action(state, "contribute listening circel")


# -- a game bound to an in-memory pool -----------------------------------------

def test_game_with_its_own_card_pool_pickles(cards):
    game = MeaningMade(cards)
    clone = pickle.loads(pickle.dumps(game))
    a = game.new_initial_state(game.config(3, seed=5))
    b = clone.new_initial_state(clone.config(3, seed=5))
    assert GAME.observe(a) == GAME.observe(b)
    assert clone.validate_data() == []


def test_in_memory_pool_changes_play(cards):
    data = yaml.safe_load((cards.folder / "settings.yaml").read_text(encoding="utf-8"))
    assert data["meaning"] == 5
    from workbench.games.meaning_made.data import CardSet, Settings
    data["meaning"] = 7
    edited = CardSet(list(cards.patterns.values()), list(cards.initiatives.values()), list(cards.events.values()),
                     cards.tables, cards.world_table, cards.mark_table, Settings.model_validate(data), None)
    state = MeaningMade(edited).new_initial_state(GAME.config(4, seed=2, events="scripted"))
    assert state.meaning == 7


def test_rulings_name_real_switches(cards_copy):
    assert MeaningMade().validate_data() == []
    path = cards_copy / "meaning_made" / "rulings.yaml"
    _edit(path, "switch: contributors", "switch: contributers")
    problems = MeaningMade().validate_data()
    assert problems and "contributors-scaled" in problems[0] and "did you mean 'contributors'" in problems[0]


def test_validate_data_lists_every_problem_and_load_cards_raises_the_first(cards_copy):
    """A designer fixes a broken pool in one go: every bad field of every card in
    every file is listed; loading stops at the first, with the same message."""
    mm = cards_copy / "meaning_made"
    _edit(mm / "patterns.yaml", "- name: Shell\n  layer: 1", "- name: Shell\n  layer: 9")
    _edit(mm / "patterns.yaml", "- name: Shelter\n  layer: 1", "- name: Shelter\n  layer: 0")
    _edit(mm / "initiatives.yaml", "tokens: {S: 1, I: 1}", "tokens: {S: 1, I: -1}")
    _edit(mm / "events.yaml", "- {id: A, code: 2, provenance: seed}", "- {id: A, code: zero, provenance: seed}")
    problems = MeaningMade().validate_data()
    wanted = [("patterns.yaml", "'Shell'", "'layer'"), ("patterns.yaml", "'Shelter'", "'layer'"),
              ("initiatives.yaml", "'Listening Circle'", "'requirement.tokens"),
              ("events.yaml", "'A'", "'code'")]
    for file, card, field in wanted:
        assert any(file in p and f"card {card}" in p and f"field {field}" in p for p in problems), (file, card, problems)
    # in the order the files are read, and the loader raises exactly the first
    first = [next(i for i, p in enumerate(problems) if file in p and f"card {card}" in p) for file, card, _ in wanted]
    assert first == sorted(first)
    with pytest.raises(DataError) as err:
        load_cards(mm)
    assert str(err.value) == problems[0]


def test_validate_data_lists_each_bad_field_of_one_card(cards_copy):
    mm = cards_copy / "meaning_made"
    _edit(mm / "patterns.yaml", "- name: Shell\n  layer: 1", "- name: Shell\n  layer: 9\n  colour: red")
    problems = [p for p in MeaningMade().validate_data() if "card 'Shell'" in p]
    assert any("field 'layer'" in p for p in problems) and any("field 'colour'" in p for p in problems)
    with pytest.raises(DataError, match=r"and 1 more problem"):
        load_cards(mm)
