"""The Balance page's model: a tiny search with its proposal, fresh check,
apply and undo through the shared tweak session; the page builds."""

from __future__ import annotations

from workbench.dashboard.balance import BalanceModel, BalancePage
from workbench.tweak import open_session


def test_balance_model_searches_checks_applies_and_undoes(cards_copy, tmp_path):
    session = open_session(folder=cards_copy / "meaning_made")
    m = BalanceModel(session=session,
                     targets="survival=0.55..0.8 @players=3", vary="initiatives.Quiet Hour.order_spaces",
                     trials=2, games_per_trial=2, fresh_games=2, workers=0, study=str(tmp_path / "b.sqlite"))
    m.run()
    assert not m.running and m.result is not None
    assert m.message.startswith("2 trials"), m.message
    assert len(m.trials_table()) == 2 and list(m.check_table()["players"]) == [3]
    if not m.edits:  # the cards as they are fit best: give the page a proposal to apply
        m.edits = [{"card": "Quiet Hour", "field": "order_spaces", "old": 3, "new": 2}]
    # two fresh games cannot vouch for anything: the proposal is not offered
    assert not m.offered and "40" in " ".join(m.verdict["reasons"])
    m.apply()
    assert not m.applied and m.message.startswith("cannot apply: the fresh check does not vouch")
    _vouched(m)
    pool = m.session()
    seen = []
    pool.param.watch(lambda e: seen.append(e.new), "raw")  # what the Cards and Graph pages depend on
    m.apply()
    assert m.applied and len(seen) >= 1 and not pool.dirty, m.message
    m.undo()
    assert not m.applied and seen[-1] == session.raw, m.message
    row = open_session(folder=cards_copy / "meaning_made").table()
    assert row.filter(row["name"] == "Quiet Hour")["order_spaces"][0] == 3


def _vouched(m) -> None:
    """Stand in for a fresh check that met every target with room to spare, to
    drive the apply path (what a real one decides is tested in test_balance.py)."""
    m.verdict = {"offered": True, "reasons": [], "fresh_games_needed": None,
                 "games_per_trial_needed": None, "trials_needed": None}


def test_a_tiny_budget_never_enables_apply(cards_copy, tmp_path):
    """Whatever a tiny search proposes, Apply stays off and the page says what
    sample would be needed (issue 25)."""
    session = open_session(folder=cards_copy / "meaning_made")
    # longer games: dearer cards get closer, so even three random trials propose edits (the
    # Initiatives alone: every varied field the proposal keeps is played again without it)
    m = BalanceModel(session=session, targets="duration_actions>=400 @players=2",
                     vary="initiatives.*.cost", trials=3, games_per_trial=2,
                     fresh_games=4, workers=0)
    page = BalancePage(model=m)
    m.run()
    assert m.edits, m.message  # the search did propose something
    page._show()
    assert page._apply.disabled and not m.offered
    # the page's advice names its own fields, never the command line's options
    assert "not offered" in m.message and "*Games for the fresh check* 40" in m.message
    assert "--" not in m.message
    shown = page._results.objects[2].object
    assert "Not offered" in shown and "at least 40" in shown and "--" not in shown


def test_bad_target_is_a_message_not_an_exception():
    m = BalanceModel(targets="survivl=0.5..0.8", trials=1, workers=0)
    m.run()
    assert m.message.startswith("cannot run:") and "did you mean" in m.message


def test_page_builds():
    page = BalancePage(model=BalanceModel())
    assert page.__panel__() is not None


def test_read_only_dashboard_refuses_search_and_apply():
    class Bench:
        read_only = True

    model = BalanceModel()
    page = BalancePage(bench=Bench(), model=model)
    page._on_run()
    assert "read-only" in page._status.object and not model.running and model.result is None
    model.edits = [{"card": "Quiet Hour", "field": "order_spaces", "old": 3, "new": 2}]
    page._guarded(model.apply)
    assert not model.applied and model.message == ""


def test_choosing_a_game_fills_in_its_targets_and_variables():
    m = BalanceModel()
    assert "survival" in m.targets and "initiatives" in m.vary
    m.game_id = "mandate-2038"
    assert "action_usage_min>=0.05 @players=4" in m.targets and "tiles.*.runway=0..3" in m.vary
    assert "faction_gap<=0.1 @players=4" in m.targets   # the faction target, by its alias
    from workbench.balance.targets import parse_target
    assert [parse_target(line).metric for line in m.targets.splitlines()] == ["action_usage_min", "role_gap"]
    # the game's 16 fresh games are raised to the verdict's minimum (MIN_FRESH_GAMES)
    from workbench.balance.verdict import MIN_FRESH_GAMES
    assert (m.trials, m.games_per_trial, m.fresh_games) == (8, 8, MIN_FRESH_GAMES)
    m.game_id = "pax-transhumanity"
    assert "tie_break<=0.2 @players=3" in m.targets and "boards.*.problem_tokens=1..5" in m.vary


def test_mandate_search_proposal_apply_and_undo_through_its_pool_session(cards_copy):
    from workbench.tweak.pool_session import PoolTweakSession
    m = BalanceModel(game_id="mandate-2038", trials=2, games_per_trial=1, fresh_games=2, workers=0)
    m.targets = "seat_gap<=0.1 @players=4"
    m.vary = "tiles.Capital.runway=0..3"
    m.run()
    assert m.result is not None and m.message.startswith("2 trials"), m.message
    pool = m.session()
    assert isinstance(pool.session, PoolTweakSession) and pool.game_id == "mandate-2038"
    before = pool.value_of("Capital", "runway")
    if not m.edits:  # the cards as they are fit best: give the page a proposal to apply
        m.edits = [{"card": "Capital", "field": "runway", "old": before, "new": (before + 1) % 4}]
        from workbench.balance.report import card_diff, proposal_raw
        m.diff = card_diff(pool, proposal_raw(pool, m.edits, m.result.variables))
    assert "game.yaml" in m.diff and m.diff.count("\n-") >= 1
    new = m.edits[0]["new"]
    assert not m.offered
    _vouched(m)
    m.apply()
    assert m.applied and pool.value_of("Capital", "runway") == new and pool.can_undo, m.message
    on_disk = PoolTweakSession("mandate-2038", cards_copy / "mandate_2038")
    assert on_disk.value_of("Capital", "runway") == new
    m.undo()
    assert not m.applied and pool.value_of("Capital", "runway") == before, m.message
    assert PoolTweakSession("mandate-2038", cards_copy / "mandate_2038").value_of("Capital", "runway") == before


def test_apply_refuses_while_the_shared_pool_has_unsaved_edits(cards_copy):
    from workbench.dashboard.pool import LivePool
    pool = LivePool(open_session(folder=cards_copy / "meaning_made"))
    m = BalanceModel(session=pool)
    old = pool.value_of("Quiet Hour", "order_spaces")
    m.edits = [{"card": "Quiet Hour", "field": "order_spaces", "old": old, "new": old + 1}]
    _vouched(m)
    pool.edit("Shell", "E", 3)  # made on the Cards page, not saved
    snapshot = pool.raw
    m.apply()
    assert m.message.startswith("cannot apply:") and "not saved" in m.message
    assert not m.applied and pool.raw is snapshot  # nothing changed, nothing written
    assert open_session(folder=cards_copy / "meaning_made").value_of("Quiet Hour", "order_spaces") == old
    pool.save()
    m.apply()
    assert m.applied and pool.value_of("Quiet Hour", "order_spaces") == old + 1


def test_a_mixed_table_shows_each_skill_level_of_the_fresh_check(cards_copy):
    """With a mix of bot skills seated, the page shows the fresh check per
    level (issue 25), as ``workbench balance`` prints it; with one bot for every
    seat it shows no such rows."""
    session = open_session(folder=cards_copy / "meaning_made")
    m = BalanceModel(session=session, targets="duration_rounds>=1 @players=2",
                     vary="initiatives.Quiet Hour.order_spaces", bots="skill:casual,greedy",
                     trials=1, games_per_trial=2, fresh_games=4, workers=0)
    page = BalancePage(model=m)
    m.run()
    assert m.result is not None, m.message
    table = m.skill_table()
    assert sorted(table["bot"]) == ["greedy", "skill:casual:greedy"] and set(table["players"]) == {2}
    assert (table["seats"] == 4).all() and table["win rate before"].between(0, 1).all()
    page._show()
    titles = [getattr(o, "object", None) for o in page._results.objects]  # a heading is a Markdown pane
    assert "#### Per skill level, fresh seeds (before → after)" in titles
    shown = next(o for o in page._results.objects if "balance-skills" in (getattr(o, "css_classes", None) or []))
    assert sorted(shown.value["bot"]) == ["greedy", "skill:casual:greedy"]
    m.bots = "greedy"
    m.run()
    page._show()
    assert m.skill_table().empty
    assert not any("balance-skills" in (getattr(o, "css_classes", None) or []) for o in page._results.objects)


def test_a_misspelt_bot_is_refused_before_any_game():
    m = BalanceModel(bots="skill:casual,gredy", trials=1, workers=0)
    m.run()
    assert m.message.startswith("cannot run:") and "gredy" in m.message and m.result is None


def test_fresh_games_default_meets_the_verdict_minimum():
    # defaults under the minimum would leave Apply disabled on every run
    from workbench.balance.verdict import MIN_FRESH_GAMES
    from workbench.dashboard.balance import BalanceModel, game_defaults
    assert BalanceModel.param.fresh_games.default == MIN_FRESH_GAMES
    assert game_defaults("mandate-2038")["fresh_games"] >= MIN_FRESH_GAMES
