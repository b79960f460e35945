"""Live tweaking of Mandate 2038 and Pax Transhumanity, as a designer does it in
a notebook: edit a card, read what changed, undo, save, play the saved pool,
and open a game of the edited pool from the registry."""

from __future__ import annotations

import pytest
import yaml

from workbench.core.errors import DataError, WorkbenchError
from workbench.core.history import Match
from workbench.core.registry import get_game
from workbench.tweak.pool_session import PoolTweakSession
from workbench.tweak.session import PairedResult
from workbench.tweak import open_session


@pytest.fixture
def mandate(cards_copy):
    return open_session(game_id="mandate-2038")


@pytest.fixture
def pax(cards_copy):
    return open_session(game_id="pax-transhumanity")


def _cell(session, card, column):
    t = session.table()
    return t.filter(t["name"] == card)[column][0]


def test_every_bundled_game_has_a_session(cards_copy):
    for gid in ("meaning-made", "mandate-2038", "pax-transhumanity"):
        s = open_session(game_id=gid)
        assert s.game_id == gid and s.table().height > 10
        assert s.card_names() and s.columns
    assert isinstance(open_session("pax-transhumanity"), PoolTweakSession)
    with pytest.raises(WorkbenchError, match="unknown game 'chess'.*meaning-made"):
        open_session(game_id="chess")


def test_mandate_tile_production_edit_is_played(mandate):
    report = mandate.edit("Research", "compute", "3")
    assert _cell(mandate, "Research", "compute") == 3
    assert any("Research" in line and "3 compute" in line for line in report.lines())
    game = get_game(mandate.session_game())
    state = game.new_initial_state(game.config(3, seed=1))
    assert state.content.tile_kinds["research"].yield_ == {"compute": 3}
    # the bundled game still plays the files, which are unchanged
    assert get_game("mandate-2038").cards().tile_kinds["research"].yield_ == {"compute": 1}


def test_mandate_tile_production_text_follows_its_yield(mandate):
    """The printed production says the yield: an edit of the number rewrites the
    text (keeping Talent's extra words), and a text that disagrees is refused."""
    mandate.edit("Talent", "runway", 3)
    assert _cell(mandate, "Talent", "production") == "3 Runway and reassign one Agent"
    mandate.edit("Talent", "runway", 0)
    assert _cell(mandate, "Talent", "production") == "Reassign one Agent"
    mandate.edit("Talent", "runway", 1)
    assert _cell(mandate, "Talent", "production") == "1 Runway and reassign one Agent"
    mandate.edit("Talent", "compute", 2)  # a second amount, then a change of the first
    mandate.edit("Talent", "runway", 2)
    assert _cell(mandate, "Talent", "production") == "2 Runway and 2 Compute and reassign one Agent"
    mandate.edit("Research", "compute", 0)
    assert _cell(mandate, "Research", "production") == "None"
    mandate.undo()
    assert _cell(mandate, "Research", "production") == "1 Compute"
    before = mandate.raw
    with pytest.raises(DataError, match="does not say the yield.*write '2 Runway'"):
        mandate.edit("Capital", "production", "3 Runway")
    assert mandate.raw is before
    # a balance proposal goes through the same rewrite
    variables, _ = mandate.variables(["tiles.Media.runway=0..3"])
    raw = mandate.with_values({variables[0].name: 2}, variables)
    media = next(t for t in raw["game.yaml"]["content"]["gameConfig"]["board"]["tiles"] if t["key"] == "media")
    assert media["production"] == "2 Runway" and media["yield"] == {"runway": 2}


def test_mandate_district_name_is_one_word_and_a_renamed_district_plays(mandate):
    """A district's name is the word moves call it by: a name with a space is refused
    with the spelling to use (it used to pass and then break the first game), and
    that spelling plays."""
    before = mandate.raw
    with pytest.raises(DataError, match="one word: write 'Saltmarsh-Rule'"):
        mandate.edit("Renewable", "name", "Saltmarsh Rule")
    assert mandate.raw is before
    mandate.edit("Renewable", "name", "Saltmarsh-Rule")
    game = get_game(mandate.session_game())
    from workbench.core.bots import make_bots
    from workbench.core.play import play_game
    state, log = play_game(game, game.config(4, seed=3), make_bots("greedy", 4))
    assert state.is_terminal() and {"Saltmarsh-Rule1", "Saltmarsh-Rule2"} <= set(state.tile_ids)
    # a domain Training card is named by its domain, which the rules read
    with pytest.raises(DataError, match="named by its domain"):
        mandate.edit("Code", "name", "Codebase")


def test_renaming_the_end_initiative_keeps_it_in_its_slot(cards_copy):
    """The End Initiative slot names its card in the settings: renaming that card
    carries the new name there (it used to be refused: no Initiative named the old
    name), the game deals it to the slot, and undo puts both back."""
    mm = open_session(game_id="meaning-made")
    mm.edit("Stewardship", "name", "Caretaking")
    assert mm.raw["settings.yaml"]["end_initiative"] == "Caretaking"
    game = get_game(mm.session_game())
    state = game.new_initial_state(game.config(3, seed=2))
    assert state.end == "Caretaking" and "Caretaking" not in state.init_deck
    mm.undo()
    assert mm.raw["settings.yaml"]["end_initiative"] == "Stewardship"


@pytest.mark.parametrize("card, column, value, field", [
    ("Research", "compute", "lots", "compute"),
    ("Mega-Cluster", "runway", -1, "cost.runway"),
    ("Mirevanta", "trust", 9, "start.trust"),
    ("Facility", "runway", -2, "facilityCost"),
    ("AGI", "compute", "x", "compute"),
    ("Seed Round Frenzy", "era", 7, "era"),
    ("Code", "copies", 0, "copies"),
])
def test_mandate_bad_edit_names_file_card_field_and_changes_nothing(mandate, card, column, value, field):
    before, table = mandate.raw, mandate.table()
    with pytest.raises(DataError) as err:
        mandate.edit(card, column, value)
    msg = str(err.value)
    assert ".yaml" in msg and card in msg and field in msg
    assert mandate.raw is before and mandate.table().equals(table) and not mandate.can_undo


def test_mandate_costs_and_thresholds_feed_the_analyses(mandate):
    rep = mandate.edit("Mega-Cluster", "runway", 13)
    assert "Mega-Cluster" in rep.became_dead
    rep = mandate.edit("AGI", "compute", 11)
    assert "AGI" in rep.became_dead
    status = mandate.analyses()["card_status"]
    assert status.filter(status["card"] == "AGI")["dead_reason"][0].startswith("costs 11 compute")
    mandate.undo()
    rep = mandate.undo()
    assert "Mega-Cluster" in rep.became_loadable and "became live" in " ".join(rep.lines())
    mandate.redo()
    assert "Mega-Cluster" in mandate.analyses()["card_status"].filter(
        mandate.analyses()["card_status"]["dead"])["card"].to_list()


def test_mandate_every_card_kind_is_editable(mandate):
    mandate.edit("renewable generator", "runway", 3)
    mandate.edit("Quantum", "compute", 1)
    mandate.edit("Seed Round Frenzy", "effects", "[{who: all, gain: {runway: 2}}]")
    mandate.edit("Early Adopters", "minimum", 2)
    mandate.edit("Orisonix", "runway", 6)
    mandate.edit("Benchmark Leak", "copies", 3)
    mandate.edit("AGI", "capability", 9)
    pool = mandate.cards
    assert pool.generators["renewable"]["cost"] == 3
    assert pool.projects["quantum"].cost == {"runway": 3, "compute": 1}
    assert pool.headline_by_name["seed round frenzy"].effects[0].gain == {"runway": 2}
    assert pool.mandate_by_name["early adopters"].minimum == 2
    assert pool.faction_by_name["orisonix"].start.runway == 6
    assert len(pool.training_deck()) == 39 and pool.agi["capability"] == 9
    game = get_game(mandate.session_game())
    state = game.new_initial_state(game.config(4, seed=2))
    assert len(state.deck) == 39


def test_pax_idea_cost_spheres_effects_and_board(pax):
    rep = pax.edit("Gene Drive", "heat", "white white black")
    assert pax.cards.ideas["Gene Drive"].heat == ("white", "white", "black")
    assert any("Gene Drive" in line and "heat white white black" in line for line in rep.lines())
    pax.edit("Senolytic Therapy", "spheres", "orange blue")
    pax.edit("Tipping Point: Post-Scarcity", "effects", "recession; game end")
    assert pax.cards.ideas["Tipping Point: Post-Scarcity"].effects == ("recession", "game end")
    rep = pax.edit("green board", "rows", "[{T: company, M: barrier}, {T: barrier, M: utility}, "
                                          "{T: company, M: utility}, {T: utility, M: barrier}]")
    assert any("found green maker" in line for line in rep.lines())
    pax.edit("finance_start", "value", "{capital: 4, wealth: 2, debt: 2}")
    game = get_game(pax.session_game())
    state = game.new_initial_state(game.config(3, seed=1))
    assert state.fin[0] == [4, 2, 2]


@pytest.mark.parametrize("card, column, value, field", [
    ("Gene Drive", "spheres", "purple blue", "disciplines"),
    ("Gene Drive", "effects", "fly", "effects"),
    ("Gene Drive", "heat", "red", "heat"),
    ("hire_cost", "value", "x", "value"),
    ("yellow board", "rows.0.T", "castle", "rows.0.T"),
])
def test_pax_bad_edit_is_refused(pax, card, column, value, field):
    before = pax.raw
    with pytest.raises(DataError) as err:
        pax.edit(card, column, value)
    assert card in str(err.value) and field in str(err.value) and ".yaml" in str(err.value)
    assert pax.raw is before


def test_pax_dominance_follows_the_cost(pax):
    rep = pax.edit("Swarm Robotics", "heat", "white white black")
    assert any(d["card"] == "Gene Drive" for d in rep.dominance_changes)


def test_save_is_atomic_and_the_saved_pool_is_played(pax, cards_copy):
    pax.edit("Gene Drive", "heat", "black")
    written = pax.save()
    assert [p.name for p in written] == ["ideas.yaml"]
    assert (cards_copy / "pax_transhumanity" / "ideas.yaml.bak").exists()
    data = yaml.safe_load((cards_copy / "pax_transhumanity" / "ideas.yaml").read_text())
    assert next(i for i in data["ideas"] if i["name"] == "Gene Drive")["heat"] == ["black"]
    assert get_game("pax-transhumanity").cards().ideas["Gene Drive"].heat == ("black",)


def test_save_refuses_a_file_changed_on_disk(mandate, cards_copy):
    mandate.edit("Research", "compute", 2)
    path = cards_copy / "mandate_2038" / "game.yaml"
    path.write_text(path.read_text() + "\n# edited elsewhere\n")
    with pytest.raises(WorkbenchError):
        mandate.save()
    assert path.read_text().endswith("# edited elsewhere\n")


def test_a_flipped_game_opens_from_the_registry(pax):
    pax.edit("Gene Drive", "heat", "black black")
    game = pax.game
    config = game.config(2, seed=4)
    result = PairedResult(summary=None, flipped=[{"config_a": config.to_dict(), "bots_a": "random",
                                                  "config_b": config.to_dict(), "bots_b": "random"}],
                          games=1, players=2, card=None, elapsed=0.0, pools=(pax.baseline, pax.cards))
    data = pax.flipped_match(result, 0, "new")
    assert data["game"].startswith("pax-transhumanity@edited")
    match = Match.from_dict(data)
    assert match.game.cards() is pax.cards and len(match) == len(data["actions"]) > 0
    assert match.to_dict()["game"] == data["game"]
    old = pax.flipped_match(result, 0, "old")
    assert get_game(old["game"]).cards() is pax.baseline
    with pytest.raises(WorkbenchError):
        pax.flipped_match(result, 3, "new")


def test_paired_playtest_plays_both_pools(mandate):
    mandate.edit("Capital", "runway", 4)
    res = mandate.quick_playtest(n=2, players=2, workers=0)
    assert res.games == 2 and set(res.summary["metric"]) >= {"game length (rounds)"}
    assert res.pools == (mandate.baseline, mandate.cards)


def test_a_flipped_game_opens_on_the_play_page(pax):
    from workbench.dashboard.play import PlayModel
    pax.edit("Gene Drive", "heat", "black")
    config = pax.game.config(2, seed=6)
    result = PairedResult(summary=None, flipped=[{"config_b": config.to_dict(), "bots_b": "random",
                                                  "config_a": config.to_dict(), "bots_a": "random"}],
                          games=1, players=2, card=None, elapsed=0.0, pools=(pax.baseline, pax.cards))
    play = PlayModel(game_id="pax-transhumanity", games=["pax-transhumanity"])
    play.open_match(pax.flipped_match(result, 0, "new"))
    assert play.match.game.cards() is pax.cards and len(play.match) > 0
    assert play.match.to_dict()["game"].startswith("pax-transhumanity@")


@pytest.mark.parametrize("argv, kinds", [
    (["graph", "pax-transhumanity", "--json"], {"idea", "tipping_point", "plurality", "board", "sphere", "regime"}),
    (["graph", "mandate-2038", "--card-graph", "--json"], {"tile", "project", "generator", "facility", "era", "agi"}),
])
def test_card_graph_from_the_command_line(capsys, argv, kinds):
    import json

    from workbench.cli import main
    assert main(argv) == 0
    doc = json.loads(capsys.readouterr().out)
    assert kinds <= {n["kind"] for n in doc["nodes"]}
    assert {"card_status", "bottlenecks"} <= set(doc["analyses"])
    assert sum(r["bottleneck"] for r in doc["analyses"]["bottlenecks"]) == 1


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

VALUES = st.one_of(st.integers(-3, 15), st.sampled_from(
    ["", "white", "black white", "yellow blue", "growth", "solve green; game end", "company", "x",
     "{runway: 2}", "[1, 2]", "true", "3", "-1", "Era"]))


@pytest.mark.parametrize("game_id", ["mandate-2038", "pax-transhumanity"])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_edit_is_taken_whole_or_refused_whole(cards_copy, game_id, data):
    """Whatever a designer types: a refused edit leaves the pool exactly as it was;
    a taken one validates as a pool and undo gives back exactly the files as loaded."""
    import copy
    session = open_session(game_id=game_id)
    original = copy.deepcopy(session.raw)
    table = session.table()
    row = data.draw(st.integers(0, table.height - 1))
    card, kind = table["name"][row], table["kind"][row]
    columns = next(k.columns for k in session.catalogue.kinds if k.kind == kind)
    column = data.draw(st.sampled_from(sorted(columns)))
    value = data.draw(VALUES)
    try:
        session.edit(f"{kind}:{card}", column, value)
    except DataError as exc:
        assert "\n" not in str(exc) and session.raw == original and not session.can_undo
        return
    assert type(session.cards) is session.game.card_pool_type
    session.undo()
    assert session.raw == original and session.can_redo


@pytest.mark.parametrize("game_id, card, column, value", [
    ("pax-transhumanity", "Gene Drive", "heat", "white white black"),
    ("mandate-2038", "Research", "compute", 3),
])
def test_a_one_value_save_keeps_the_rest_of_the_file(cards_copy, game_id, card, column, value):
    """Saves of Mandate and Pax pools go through the same round-trip writer as
    Meaning Made's: only the edited value's lines change, comments stay."""
    import difflib

    session = open_session(game_id=game_id)
    before = {name: (session.folder / name).read_text(encoding="utf-8") for name in session.file_names}
    session.edit(card, column, value)
    written = session.save()
    assert len(written) == 1
    after = written[0].read_text(encoding="utf-8")
    old = before[written[0].name]
    changed = [line for line in difflib.unified_diff(old.splitlines(), after.splitlines(), lineterm="", n=0)
               if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    assert 0 < len(changed) <= 6, changed
    comments = [line for line in old.splitlines() if line.lstrip().startswith("#")]
    assert comments and all(c in after for c in comments)
    assert open_session(game_id=game_id).table().equals(session.table())
