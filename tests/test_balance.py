"""workbench balance: target and vary parsing, seed provenance, and a tiny study
that runs, resumes from its SQLite file and proposes edits through the tweak
session (issue 15)."""

from __future__ import annotations

import json

import pytest

from workbench.balance.report import apply_edits, card_diff, fresh_check, proposal_raw, undo_edits
from workbench.balance.search import BalanceSpec, open_session, run_study
from workbench.balance.targets import parse_target, player_counts
from workbench.games.meaning_made.vary import expand_vary
from workbench.cli import main
from workbench.core.errors import WorkbenchError
from workbench import tweak


# -- targets ----------------------------------------------------------------------------

def test_target_band_with_player_range():
    t = parse_target("survival=0.55..0.8 @players=2..5")
    assert (t.metric, t.low, t.high, t.players) == ("completion", 0.55, 0.8, (2, 3, 4, 5))
    assert t.miss(0.6) == 0 and t.miss(0.9) == pytest.approx(0.1) and t.miss(0.5) == pytest.approx(0.05)
    assert t.miss(None) == 1.0


@pytest.mark.parametrize("text, metric, low, high, players", [
    ("legacy_cap_share<=0.1", "cap_saturation", None, 0.1, None),
    ("action_usage_min >= 0.05 @players=4", "action_usage_min", 0.05, None, (4,)),
    ("seat_gap=0", "seat_gap", 0.0, 0.0, None),
    ("seat_win_rate_seat2=0.2..0.4", "seat_win_rate_seat2", 0.2, 0.4, None),
    ("tie_break<=0.2 @players=3", "tie_break_share", None, 0.2, (3,)),
])
def test_target_forms(text, metric, low, high, players):
    t = parse_target(text)
    assert (t.metric, t.low, t.high, t.players) == (metric, low, high, players)


@pytest.mark.parametrize("text, words", [
    ("survivl=0.5..0.8", "did you mean"), ("survival<0.5", "cannot read"), ("survival=0.8..0.5", "low end"),
    ("survival<=0.2..0.4", "goes with '='"), ("survival=high", "not a number"),
    ("seat_win_rate<=0.3", "one value per seat"), ("survival=0.5..0.8 @players=5..2", "LOW <= HIGH"),
])
def test_bad_targets_are_one_clear_line(text, words):
    with pytest.raises(WorkbenchError) as exc:
        parse_target(text)
    assert words in str(exc.value) and "\n" not in str(exc.value)


def test_margin_aims_inside_the_band():
    band = parse_target("survival=0.55..0.8")
    assert band.miss(0.56) == 0 and band.miss(0.56, margin=0.02) == pytest.approx(0.01)
    assert band.miss(0.79, margin=0.02) == pytest.approx(0.01) and band.miss(0.7, margin=0.02) == 0
    floor = parse_target("action_usage_min>=0.05")
    assert floor.miss(0.0498) > 0 and floor.miss(0.055, margin=0.01) == pytest.approx(0.005)
    # a band narrower than twice the margin shrinks to its middle
    narrow = parse_target("seat_gap=0.1..0.12")
    assert narrow.miss(0.11, margin=0.05) == 0 and narrow.miss(0.1, margin=0.05) == pytest.approx(0.01)
    # the margin is part of what a stored study must share; without one the
    # fingerprint is what studies made before the option stored
    spec = BalanceSpec("meaning-made", [band], ["patterns.*.cost"])
    assert "margin" not in spec.fingerprint()
    spec.margin = 0.01
    assert json.loads(spec.fingerprint())["margin"] == 0.01


def test_player_counts_union_of_targets():
    targets = [parse_target("survival=0.5..0.8 @players=2..3"), parse_target("legacy_cap_share<=0.1")]
    assert player_counts(targets, 4) == [2, 3, 4]


# -- vary patterns and provenance -------------------------------------------------------

@pytest.fixture(scope="module")
def raw():
    return tweak.open_session().raw


def test_cost_expands_to_the_tokens_a_card_requires(raw):
    variables, protected = expand_vary(["initiatives.Quiet Hour.cost"], raw)
    assert sorted(v.field for v in variables) == ["E", "I", "S"]
    assert all(v.low == v.current - 1 and v.high == v.current + 1 for v in variables)
    assert protected == []


def test_ranges_and_floors(raw):
    (v,), _ = expand_vary(["initiatives.Quiet Hour.order_spaces=1..5"], raw)
    assert (v.low, v.high) == (1, 5)
    (v,), _ = expand_vary(["initiatives.Quiet Hour.contributors+-3"], raw)
    assert v.low == 1  # never below the field's floor


def test_seed_values_are_protected_unless_allowed(raw):
    # Listening Circle is a seed card; its order spaces are listed as our draft, its tokens are not
    with pytest.raises(WorkbenchError, match="seed value.*--allow-seed"):
        expand_vary(["initiatives.Listening Circle.cost"], raw)
    variables, _ = expand_vary(["initiatives.Listening Circle.order_spaces"], raw)
    assert [v.provenance for v in variables] == ["draft"]
    variables, _ = expand_vary(["initiatives.Listening Circle.cost"], raw, allow_seed=True)
    assert {v.provenance for v in variables} == {"seed"}
    # a wildcard leaves the seed values out and says which
    variables, protected = expand_vary(["patterns.*.cost"], raw)
    assert "Shell.E" in protected and all(v.card != "Shell" for v in variables)


@pytest.mark.parametrize("text, words", [
    ("patterns.*", "cannot read"), ("cards.*.cost", "no card kind"), ("patterns.*.colour", "no numeric field"),
    ("patterns.*.order_spaces", "not a field of a pattern"), ("patterns.Nosuch.cost", "no pattern named"),
])
def test_bad_vary_patterns(raw, text, words):
    with pytest.raises(WorkbenchError, match=words):
        expand_vary([text], raw)


# -- settings, Resolution Table cells and Event codes (games/meaning_made/cells.py) --------

def test_settings_cells_follow_the_settings_provenance(raw):
    # order_rewards is seed (the source's 5 and 3): protected unless allowed
    with pytest.raises(WorkbenchError, match="seed value.*--allow-seed"):
        expand_vary(["settings.order_rewards.0"], raw)
    variables, _ = expand_vary(["settings.order_rewards.0", "settings.order_rewards.1"], raw, allow_seed=True)
    assert [(v.card, v.field, v.current, v.low, v.high, v.provenance) for v in variables] == [
        ("settings", "order_rewards[0]", 5, 4, 6, "seed"), ("settings", "order_rewards[1]", 3, 2, 4, "seed")]
    # round_limit is our draft; a mapping's entry is named by its key
    (v,), _ = expand_vary(["settings.round_limit=30..60"], raw)
    assert (v.field, v.low, v.high, v.provenance) == ("round_limit", 30, 60, "draft")
    (v,), _ = expand_vary(["settings.tokens.S+-3"], raw, allow_seed=True)
    assert (v.field, v.low, v.high) == ("tokens[S]", 0, 4)  # never below 0


def test_table_cells_and_event_codes(raw):
    variables, protected = expand_vary(["event_table.*.meaning@7..10"], raw)
    assert len(variables) == 12 * 4 and not protected  # every Event row is our draft
    j8 = next(v for v in variables if v.name == "event table J.meaning@8")
    assert (j8.current, j8.low, j8.high) == (-3, -4, -2)  # a change may be negative
    (v,), _ = expand_vary(["individual_table.2.lose_tokens@1=-2..3"], raw)
    assert (v.low, v.high) == (0, 3)  # a count never below 0
    variables, protected = expand_vary(["events.*.code"], raw)
    assert [v.card for v in variables] == ["event G", "event I", "event L"]  # the draft codes only
    assert "event A.code" in protected and all(v.low >= 1 for v in variables)


@pytest.mark.parametrize("text, words", [
    ("settings.nosuch", "no setting named"), ("settings.order_rewards", "no whole-number value"),
    ("settings.tracks.meaning", "no whole-number value"), ("event_table.*.colour@7", "no outcome key"),
    ("event_table.Z.meaning", "no event row"), ("event_table.A.meaning@11", "columns run from 1 to 10"),
    ("events.G.meaning", "its code"), ("settings.meaning@3", "'@' picks table columns"),
])
def test_bad_cell_patterns(raw, text, words):
    with pytest.raises(WorkbenchError, match=words):
        expand_vary([text], raw, allow_seed=True)


def test_cells_go_through_the_tweak_session_validated_and_undoable(cards_copy):
    from workbench.core.errors import DataError
    folder = cards_copy / "meaning_made"
    session = tweak.open_session(folder=folder)
    variables, _ = session.variables(["settings.order_rewards.0", "event_table.J.meaning@8"], allow_seed=True)
    raw = session.with_values({"settings.order_rewards[0]": 4, "event table J.meaning@8": 0}, variables)
    assert raw["settings.yaml"]["order_rewards"] == [4, 3] and session.value_of("settings", "order_rewards[0]") == 5
    assert "meaning" not in raw["tables.yaml"]["event"][9]["outcomes"][8]  # a 0 change is left out
    # the loader judges every edit: a negative reward is refused, nothing changes
    with pytest.raises(DataError, match="must be at least 0, not -1"):
        session.with_values({"settings.order_rewards[0]": -1}, variables)
    with pytest.raises(DataError):
        session.edit("settings", "order_rewards[0]", -1)
    assert not session.can_undo
    # a proposal is applied through the session (saved with comments kept) and taken back
    edits = [{"card": "settings", "field": "order_rewards[0]", "old": 5, "new": 3},
             {"card": "settings", "field": "order_rewards[1]", "old": 3, "new": 2},
             {"card": "event table J", "field": "meaning@8", "old": -3, "new": -2}]
    diff = card_diff(session, proposal_raw(session, edits, session.variables(
        ["settings.order_rewards.0", "settings.order_rewards.1", "event_table.J.meaning@8"], allow_seed=True)[0]))
    assert "a/meaning_made/settings.yaml" in diff and "a/meaning_made/tables.yaml" in diff
    assert "patterns.yaml" not in diff and "initiatives.yaml" not in diff
    written = apply_edits(session, edits)
    assert sorted(p.name for p in written) == ["settings.yaml", "tables.yaml"]
    text = (folder / "settings.yaml").read_text(encoding="utf-8")
    assert "order_rewards: [3, 2]" in text and text.startswith("# Meaning Made")
    from workbench.games.meaning_made.data import load_cards
    cards = load_cards(folder)
    assert cards.settings.order_rewards == [3, 2] and cards.outcome("event", "J", 8).meaning == -2
    undo_edits(session, edits)
    assert load_cards(folder).settings.order_rewards == [5, 3]
    assert tweak.open_session(folder=folder).value_of("event table J", "meaning@8") == -3


# -- a tiny study -------------------------------------------------------------------------

def _spec(study, trials):
    return BalanceSpec("meaning-made", [parse_target("survival=0.55..0.8 @players=3"),
                                        parse_target("legacy_cap_share<=0.1 @players=3")],
                       ["initiatives.Quiet Hour.cost", "initiatives.Shared Attention.order_spaces"],
                       trials=trials, games_per_trial=2, seed=3, workers=0, study_path=study)


def test_tiny_study_runs_resumes_and_proposes_through_the_tweak_session(cards_copy, tmp_path):
    study = tmp_path / "study.sqlite"
    session = open_session("meaning-made", cards_copy / "meaning_made")
    first = run_study(_spec(study, 3), session=session)
    assert first.ran == 3 and len(first.trials) == 3
    baseline = first.trials[0]
    assert baseline["values"] == {v.name: v.current for v in first.variables}  # trial 0: the cards as they are
    assert set(baseline["metrics"]) == {"completion@3", "cap_saturation@3"}
    # resuming plays only the missing trial, and the earlier ones are kept as they were
    again = run_study(_spec(study, 4), session=session)
    assert again.ran == 1 and len(again.trials) == 4
    assert again.trials[0]["metrics"] == baseline["metrics"]
    # the same file for other settings is refused
    other = _spec(study, 4)
    other.vary = ["initiatives.Quiet Hour.order_spaces"]
    with pytest.raises(WorkbenchError, match="other settings"):
        run_study(other, session=session)
    # the proposal: the best trial's values that differ from the cards
    best = again.best
    assert best["loss"] == min(t["loss"] for t in again.trials if t["state"] == "COMPLETE")
    for e in again.edits:
        assert best["values"][f"{e['card']}.{e['field']}"] == e["new"] != e["old"]
    # edits of a trial that changed something go through the session: validated, saved, undone
    changed = next(t for t in again.trials[1:]
                   if any(t["values"][v.name] != v.current for v in again.variables))
    edits = [{"card": v.card, "field": v.field, "old": v.current, "new": changed["values"][v.name]}
             for v in again.variables if changed["values"][v.name] != v.current]
    diff = card_diff(session, proposal_raw(session, edits, again.variables))
    assert diff.startswith("--- a/meaning_made/initiatives.yaml")
    written = apply_edits(session, edits)
    assert [p.name for p in written] == ["initiatives.yaml"]
    fresh = tweak.open_session(folder=cards_copy / "meaning_made")
    row = fresh.table().filter(fresh.table()["name"] == edits[0]["card"]).row(0, named=True)
    assert row[edits[0]["field"]] == edits[0]["new"]
    undo_edits(session, edits)
    row = tweak.open_session(folder=cards_copy / "meaning_made").table()
    assert row.filter(row["name"] == edits[0]["card"]).row(0, named=True)[edits[0]["field"]] == edits[0]["old"]
    with pytest.raises(WorkbenchError, match="cards changed"):
        undo_edits(session, edits)  # already taken back


def test_fresh_check_has_intervals_and_verdicts(cards_copy):
    session = open_session("meaning-made", cards_copy / "meaning_made")
    spec = _spec(None, 1)
    rows = fresh_check(spec, session, session.raw, games=6, resamples=50)
    assert [r["metric"] for r in rows] == ["completion", "cap_saturation"]
    for r in rows:
        assert r["before"] == r["after"]  # the same cards on the same fresh seeds
        if r["before_low"] is None:   # a sample without spread under 30 games: no interval, and why
            assert r["before_interval"] == "none" and "too few games" in r["before_note"]
        else:
            assert r["before_low"] <= r["before"] <= r["before_high"] and r["before_high"] > r["before_low"]
        assert r["met_before"] == parse_target(r["target"]).met(r["before"])
        assert r["seed"] != spec.seed
    assert rows[0]["before_interval"] == "wilson"   # survival: a share of games
    few = fresh_check(spec, session, session.raw, games=3, resamples=50)
    assert all(r["before_low"] is None and "too few games" in r["before_note"] for r in few)


def test_cli_refuses_unknown_games_and_bad_input_in_one_line(capsys):
    assert main(["balance", "nosuch-game", "--target", "tie_break<=0.2", "--vary", "patterns.*.cost"]) == 1
    err = capsys.readouterr().err.strip()
    assert "unknown game" in err and "nosuch-game" in err and "\n" not in err
    assert main(["balance", "meaning-made", "--vary", "patterns.*.cost"]) == 1
    assert "--target" in capsys.readouterr().err
    assert main(["balance", "meaning-made", "--target", "survival=0.5..0.8", "--vary", "patterns.Shell.cost"]) == 1
    assert "--allow-seed" in capsys.readouterr().err
    assert main(["balance", "meaning-made", "--target", "survival=0.5..0.8", "--vary", "initiatives.*.cost",
                 "--margin", "-0.1"]) == 1
    assert "--margin" in capsys.readouterr().err


def test_cli_json_end_to_end(cards_copy, tmp_path, capsys):
    study = tmp_path / "s.sqlite"
    args = ["balance", "meaning-made", "--target", "survival=0.55..0.8 @players=3",
            "--vary", "initiatives.Quiet Hour.order_spaces", "--trials", "2", "--games-per-trial", "2",
            "--fresh-games", "2", "--workers", "0", "--study", str(study), "--json"]
    assert main(args) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["trials"] == 2 and doc["ran"] == 2 and doc["variables"] == 1
    assert doc["plot"] == str(study.with_suffix(".html"))
    html = study.with_suffix(".html").read_text()
    assert "Bokeh" in html and "cdn.bokeh.org" not in html  # inline resources
    assert main(args) == 0  # resumed: nothing left to play
    assert json.loads(capsys.readouterr().out)["ran"] == 0


# -- Mandate 2038 and Pax Transhumanity: the pool tweak session serves balance too --------

POOL_GAMES = {
    # game, card folder, targets, vary patterns, a seed value the patterns name
    "mandate-2038": ("mandate_2038", ["action_usage_min>=0.05 @players=4", "seat_gap<=0.1 @players=4"],
                     ["tiles.*.compute", "projects.Quantum.runway=2..4"], "agents_in_play"),
    "pax-transhumanity": ("pax_transhumanity", ["tie_break<=0.2 @players=3", "seat_gap<=0.1 @players=3"],
                          ["settings.finance_start.value.capital=2..4", "boards.*.problem_tokens"], None),
}


def test_pool_vary_patterns_read_the_catalogue_and_its_provenance():
    s = tweak.open_session("pax-transhumanity")
    variables, protected = s.variables(["settings.*.value"])
    names = {v.name for v in variables}
    # draft settings are ours; seed settings (the source's numbers) are left out and named
    assert {"agents_in_pool.value", "solo_target.value"} <= names
    assert "hire_cost.value" in protected and "hire_cost.value" not in names
    assert all(v.provenance == "draft" for v in variables)
    (v,), _ = s.variables(["settings.finance_start.value.capital=1..5"])  # a dotted path into a value
    assert (v.current, v.low, v.high) == (3, 1, 5)
    m = tweak.open_session("mandate-2038")
    variables, _ = m.variables(["tiles.*.compute"])
    # Research is a seed tile whose yield is listed in draft_fields: its Compute is ours
    assert "Research.compute" in {v.name for v in variables}
    assert all(s_.field == "compute" for s_ in variables)


@pytest.mark.parametrize("game, pattern, words", [
    ("pax-transhumanity", "settings", "cannot read"),
    ("pax-transhumanity", "cards.*.value", "no card kind"),
    ("pax-transhumanity", "ideas.*.heat", "no whole-number"),   # heat is a list of colours
    ("mandate-2038", "tiles.Nosuch.compute", "no tile named"),
    ("mandate-2038", "settings.*.value", "no card kind"),
])
def test_bad_pool_vary_patterns(game, pattern, words):
    with pytest.raises(WorkbenchError, match=words):
        tweak.open_session(game).variables([pattern])


@pytest.mark.parametrize("game, pattern", [
    ("pax-transhumanity", "settings.hire_cost.value"),
    ("mandate-2038", "facility.Facility.runway"),
])
def test_pool_seed_values_never_change_unless_allowed(game, pattern, cards_copy, capsys):
    session = open_session(game, cards_copy / POOL_GAMES[game][0])
    with pytest.raises(WorkbenchError, match="seed value.*--allow-seed"):
        session.variables([pattern])
    (v,), _ = session.variables([pattern], allow_seed=True)
    assert v.provenance == "seed"
    # the CLI refuses in one line and leaves the files alone
    before = {p.name: p.read_text() for p in (cards_copy / POOL_GAMES[game][0]).glob("*.yaml")}
    target = POOL_GAMES[game][1][0]
    assert main(["balance", game, "--target", target, "--vary", pattern, "--apply"]) == 1
    err = capsys.readouterr().err.strip()
    assert "--allow-seed" in err and "\n" not in err
    assert {p.name: p.read_text() for p in (cards_copy / POOL_GAMES[game][0]).glob("*.yaml")} == before


@pytest.mark.parametrize("game", sorted(POOL_GAMES))
def test_pool_game_tiny_study_proposes_edits_through_the_session(game, cards_copy, tmp_path):
    folder, targets, vary, _ = POOL_GAMES[game]
    session = open_session(game, cards_copy / folder)
    assert type(session).__name__ == "PoolTweakSession"
    spec = BalanceSpec(game, [parse_target(t) for t in targets], vary, trials=3, games_per_trial=2, seed=3,
                       workers=0, study_path=tmp_path / "s.sqlite")
    result = run_study(spec, session=session)
    assert result.ran == 3 and result.protected == []
    assert result.trials[0]["values"] == {v.name: v.current for v in result.variables}
    assert set(result.trials[0]["metrics"]) == {f"{parse_target(t).metric}@{parse_target(t).players[0]}"
                                                for t in targets}
    assert all(t["state"] == "COMPLETE" for t in result.trials)
    # a trial that changed something: its edits go through the session, validated, saved, undone
    changed = next(t for t in result.trials[1:] if any(t["values"][v.name] != v.current for v in result.variables))
    edits = [{"card": v.card, "field": v.field, "old": v.current, "new": changed["values"][v.name]}
             for v in result.variables if changed["values"][v.name] != v.current]
    diff = card_diff(session, proposal_raw(session, edits, result.variables))
    assert diff.startswith(f"--- a/{folder}/")
    written = apply_edits(session, edits)
    assert written and all(p.parent == cards_copy / folder for p in written)
    reread = open_session(game, cards_copy / folder)
    assert [reread.value_of(e["card"], e["field"]) for e in edits] == [e["new"] for e in edits]
    undo_edits(session, edits)
    reread = open_session(game, cards_copy / folder)
    assert [reread.value_of(e["card"], e["field"]) for e in edits] == [e["old"] for e in edits]
    with pytest.raises(WorkbenchError, match="cards changed"):
        undo_edits(session, edits)


def test_pool_with_values_refuses_a_bad_pool_and_changes_nothing():
    from workbench.core.errors import DataError
    s = tweak.open_session("pax-transhumanity")
    variables, _ = s.variables(["settings.finance_start.value.capital"])
    before = s.raw
    ok = s.with_values({variables[0].name: 2}, variables)
    assert ok["settings.yaml"]["finance_start"]["value"]["capital"] == 2
    assert s.raw is before and before["settings.yaml"]["finance_start"]["value"]["capital"] == 3
    bad, _ = s.variables(["settings.agents_in_pool.value"])
    with pytest.raises(DataError, match="agents_in_pool.*whole number"):
        s.with_values({bad[0].name: -3}, bad)  # below the loader's floor: refused with the card
    assert s.raw is before


def test_a_proposal_with_a_refused_edit_applies_nothing(cards_copy):
    from workbench.core.errors import DataError
    session = open_session("pax-transhumanity", cards_copy / "pax_transhumanity")
    before = session.raw
    text = (cards_copy / "pax_transhumanity" / "settings.yaml").read_text(encoding="utf-8")
    edits = [{"card": "finance_start", "field": "value.capital", "old": 3, "new": 2},
             {"card": "agents_in_pool", "field": "value", "old": 5, "new": -3}]  # below the floor
    with pytest.raises(DataError):
        apply_edits(session, edits)
    assert session.raw == before and not session.can_undo
    assert (cards_copy / "pax_transhumanity" / "settings.yaml").read_text(encoding="utf-8") == text


def test_pool_game_cli_with_a_tiny_budget_never_applies(cards_copy, tmp_path, capsys):
    """Two games per trial and two fresh games cannot vouch for a proposal:
    --apply writes nothing and the output says what sample would (issue 25)."""
    study = tmp_path / "pax.sqlite"
    args = ["balance", "pax-transhumanity", "--target", "tie_break<=0.2 @players=3",
            "--vary", "settings.finance_start.value.capital=1..5", "--vary", "boards.yellow*.problem_tokens=1..5",
            "--trials", "3", "--games-per-trial", "2", "--fresh-games", "2", "--workers", "0",
            "--study", str(study), "--json"]
    folder = cards_copy / "pax_transhumanity"
    before = {p.name: p.read_text() for p in folder.glob("*.yaml")}
    code = main(args + ["--apply"])
    doc = json.loads(capsys.readouterr().out)
    assert doc["variables"] == 2 and doc["trials"] == 3 and doc["fresh_check"][0]["players"] == 3
    assert [r["metric"] for r in doc["fresh_check"]] == ["tie_break_share"]
    assert not doc["offered"] and doc["applied"] == []
    assert doc["verdict"]["fresh_games_needed"] >= 40 and any("at least 40" in r for r in doc["verdict"]["reasons"])
    assert code == (1 if doc["edits"] else 0)
    assert {p.name: p.read_text() for p in folder.glob("*.yaml")} == before


def test_meaning_made_seed_setting_cli_as_typed_applies_and_undoes(cards_copy, tmp_path, capsys):
    # a seed setting is refused without --allow-seed, in one line
    base = ["balance", "meaning-made", "--target", "legacy_cap_share<=0.3 @players=2",
            "--vary", "settings.order_rewards.0=0..1", "--vary", "settings.order_rewards.1=0..1",
            "--trials", "3", "--games-per-trial", "4", "--fresh-games", "2", "--workers", "0"]
    assert main(base) == 1
    assert "--allow-seed" in capsys.readouterr().err
    args = base + ["--allow-seed", "--study", str(tmp_path / "mm.sqlite")]
    # two fresh games vouch for nothing: not applied, and the sample needed is named
    assert main(args + ["--apply"]) == 1
    out = capsys.readouterr().out
    assert "not offered" in out and "--fresh-games 40" in out
    assert load_cards_of(cards_copy).settings.order_rewards == [5, 3]
    # enough fresh games for the interval to land inside the band: offered, applied
    args[args.index("--fresh-games") + 1] = "60"
    assert main(args + ["--apply"]) == 0
    out = capsys.readouterr().out
    assert "2 values searched (2 seed)" in out and "offered: every target" in out and "applied: wrote" in out
    folder = cards_copy / "meaning_made"
    from workbench.games.meaning_made.data import load_cards
    rewards = load_cards(folder).settings.order_rewards
    assert rewards != [5, 3] and all(r <= 5 for r in rewards)  # the proposal, written through the session
    assert "order_rewards: [" in (folder / "settings.yaml").read_text(encoding="utf-8")  # its own layout kept
    assert main(args + ["--undo"]) == 0
    assert "took back" in capsys.readouterr().out
    assert load_cards(folder).settings.order_rewards == [5, 3]


def load_cards_of(root):
    from workbench.games.meaning_made.data import load_cards
    return load_cards(root / "meaning_made")


def _doc_commands() -> list[list[str]]:
    """Every ``workbench balance`` command written out in docs/balancing.md and its
    dated runs (docs/measurements/*balancing*.md), as argv."""
    import re
    import shlex
    from pathlib import Path
    docs = Path(__file__).resolve().parents[1] / "docs"
    text = "\n".join(p.read_text(encoding="utf-8")
                     for p in [docs / "balancing.md", *sorted((docs / "measurements").glob("*balancing*.md"))])
    out = []
    for block in re.findall(r"^ *```\n(.*?)^ *```", text, flags=re.S | re.M):
        joined = re.sub(r"\\\n\s*", " ", block)
        for line in joined.splitlines():
            line = line.split("#", 1)[0].strip()
            if line.startswith("workbench balance") and "..." not in line:
                out.append(shlex.split(line)[2:])
    return out


def test_every_balance_command_in_the_docs_reads_against_the_bundled_cards():
    import argparse
    commands = _doc_commands()
    assert len(commands) >= 7  # the overview, four Meaning Made runs, Pax, Mandate
    for argv in commands:
        parser = argparse.ArgumentParser()
        parser.add_argument("game")
        parser.add_argument("--target", action="append", default=[])
        parser.add_argument("--vary", action="append", default=[])
        parser.add_argument("--allow-seed", action="store_true")
        args, _ = parser.parse_known_args(argv)
        for t in args.target:
            parse_target(t)
        from workbench.balance.shifts import expand
        variables, shifts, _ = expand(tweak.open_session(args.game), args.vary, allow_seed=args.allow_seed)
        assert variables or all(sh.members for sh in shifts), argv


def test_a_card_named_like_a_cell_is_still_a_card(cards_copy):
    session = tweak.open_session(folder=cards_copy / "meaning_made")
    session.edit("Cell Wall", "name", "Event Horizon")  # a Pattern may be called so
    session.edit("Event Horizon", "E", 3)
    assert session.value_of("Event Horizon", "E") == 3
    session.edit("event G", "code", 4)  # the Event card is still reached by its own name
    assert session.value_of("event G", "code") == 4
    assert next(e for e in session.raw["events.yaml"]["events"] if e["id"] == "G")["code"] == 4


@pytest.mark.parametrize("card, field, words", [
    ("settings", "nosuch", "no setting 'nosuch'"), ("settings", "tracks", "not a whole number"),
    ("settings", "order_rewards[7]", "no entry '7'"), ("event G", "meaning", "its code"),
    ("event table J", "meaning", "no column"), ("event table J", "colour@7", "no outcome key"),
    ("event Z", "code", "no Event 'Z'"),
])
def test_bad_cell_edits_are_one_line_and_change_nothing(cards_copy, card, field, words):
    from workbench.core.errors import DataError
    session = tweak.open_session(folder=cards_copy / "meaning_made")
    before = session.raw
    with pytest.raises(DataError) as exc:
        session.edit(card, field, 1)
    assert words in str(exc.value) and "\n" not in str(exc.value)
    assert session.raw is before and not session.can_undo


@pytest.mark.parametrize("text, metric", [
    ("faction_gap<=0.1 @players=4", "role_gap"),
    ("faction_win_rate_mirevanta=0.15..0.35", "role_win_rate_mirevanta"),
    ("role_win_rate_orisonix>=0.1", "role_win_rate_orisonix"),
])
def test_faction_targets_name_the_role_metrics(text, metric):
    assert parse_target(text).metric == metric


def test_a_faction_win_rate_target_names_one_faction():
    with pytest.raises(WorkbenchError) as exc:
        parse_target("faction_win_rate<=0.3")
    assert "one value per role" in str(exc.value)


def test_a_shift_is_one_variable_moving_every_value_it_names(cards_copy, tmp_path):
    """``PATTERN+=LO..HI`` is one search parameter; the proposal is still
    written value by value (floors kept), and trial 0 is the cards as they are."""
    from workbench.balance.shifts import expand
    session = open_session("meaning-made", cards_copy / "meaning_made")
    plain, shifts, _ = expand(session, ["initiatives.*.cost+=-1..2", "initiatives.Quiet Hour.order_spaces"])
    assert [v.name for v in plain] == ["Quiet Hour.order_spaces"]
    (sh,) = shifts
    assert len(sh.members) > 5 and sh.values(0) == {m.name: m.current for m in sh.members}
    assert all(v == max(m.current - 1, 0) for m, v in zip(sh.members, sh.values(-1).values()))
    assert all(v == m.current + 2 for m, v in zip(sh.members, sh.values(2).values()))
    for bad, words in (("initiatives.*.cost+=1..2", "must hold 0"), ("initiatives.*.cost=0..3+=0..1", "no range"),
                       ("initiatives.*.cost+=0..0", "must hold 0")):
        with pytest.raises(WorkbenchError, match=words):
            expand(session, [bad])
    with pytest.raises(WorkbenchError, match="twice"):
        expand(session, ["initiatives.*.cost+=0..1", "initiatives.*.cost"])
    spec = BalanceSpec("meaning-made", [parse_target("duration_rounds>=1 @players=2")],
                       ["initiatives.*.cost+=0..1"], trials=2, games_per_trial=2, workers=0,
                       study_path=tmp_path / "s.sqlite")
    result = run_study(spec, session=session)
    base, other = result.trials
    assert base["values"] == {m.name: m.current for m in sh.members}
    assert set(other["values"]) == set(base["values"])        # every member spelled out in each trial
    assert all(e["new"] == e["old"] + 1 for e in result.edits)  # a step of 1 or none


def test_a_mixed_table_reports_each_skill_level_in_the_fresh_check(cards_copy, capsys):
    """Balance plays the bots it is given, a mix of skill levels included, and
    its fresh check reads the table per level (issue 25)."""
    args = ["balance", "meaning-made", "--target", "duration_rounds>=1 @players=2",
            "--vary", "initiatives.Quiet Hour.order_spaces", "--bots", "skill:casual,greedy",
            "--trials", "1", "--games-per-trial", "2", "--fresh-games", "4", "--workers", "0"]
    assert main(args + ["--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)["fresh_check"]
    assert sorted(b["bot"] for b in row["by_bot"]) == ["greedy", "skill:casual:greedy"]
    assert all(b["seats"] == 4 and 0 <= b["win_rate_before"] <= 1 for b in row["by_bot"])
    assert main(args) == 0
    assert "per bot (skill level) at 2 players" in capsys.readouterr().out


def _row(target, value, low, high, players=4):
    return {"target": target.text, "players": players, "after": value, "after_low": low, "after_high": high}


def test_judge_offers_only_an_interval_inside_the_band_on_enough_games():
    """Offered only when the interval lies inside the band on at least 40 fresh
    games; otherwise what would settle it: more games when the value is inside,
    more trials when it misses (issue 25)."""
    from workbench.balance.verdict import MIN_FRESH_GAMES, judge, summary_line
    band = parse_target("duration_rounds=18..24 @players=4")
    inside = judge([_row(band, 20.0, 19.0, 21.0)], [band], games=100, trials=6)
    assert inside["offered"] and not inside["reasons"] and summary_line(inside, 3).startswith("offered")
    few = judge([_row(band, 20.0, 19.0, 21.0)], [band], games=MIN_FRESH_GAMES - 1, trials=6)
    assert not few["offered"] and few["fresh_games_needed"] == MIN_FRESH_GAMES
    # inside, but the interval reaches below 18: games asked for, never trials
    crossing = judge([_row(band, 18.6, 17.9, 19.3)], [band], games=100, trials=6)
    assert not crossing["offered"] and crossing["trials_needed"] is None
    assert crossing["fresh_games_needed"] > 100
    assert crossing["games_per_trial_needed"] == -(-crossing["fresh_games_needed"] // 2)
    assert "--fresh-games" in summary_line(crossing, 3) and "--trials" not in summary_line(crossing, 3)
    # a missed value: more games will not help
    missed = judge([_row(band, 17.0, 16.5, 17.5)], [band], games=100, trials=6)
    assert not missed["offered"] and missed["trials_needed"] == 12 and missed["fresh_games_needed"] is None
    # on the edge: no number of games puts the interval inside
    edge = judge([_row(band, 18.0, 17.5, 18.5)], [band], games=100, trials=6)
    assert not edge["offered"] and edge["trials_needed"] == 12


def test_judge_measures_the_side_of_a_lopsided_interval_that_crosses():
    """A bootstrap interval need not be symmetric: the games asked for come from
    the side that crosses the band, and are always more than were played."""
    from workbench.balance.verdict import judge
    cap = parse_target("timeout<=0.1 @players=4")
    # value 0.05, interval [0.00, 0.12]: the upper side reaches 0.07 past the
    # value where the band leaves 0.05; the half width (0.06) alone would ask
    # for fewer games than were played
    v = judge([_row(cap, 0.05, 0.0, 0.12)], [cap], games=100, trials=6)
    assert not v["offered"] and v["fresh_games_needed"] >= 100 * (0.07 / 0.05) ** 2
    # [0.04, 0.12]: its half width (0.04) is under the room left (0.05), which
    # would ask for fewer games than the 100 that did not decide it
    lopsided = judge([_row(cap, 0.05, 0.04, 0.12)], [cap], games=100, trials=6)
    assert lopsided["fresh_games_needed"] > 100
