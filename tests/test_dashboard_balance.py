"""The Balance page's model: a tiny search with its proposal, fresh check,
apply and undo through the shared tweak session; the page builds."""

from __future__ import annotations

from workbench.dashboard.balance import BalanceModel, BalancePage
from workbench.graphs.tweak import TweakSession


def test_balance_model_searches_checks_applies_and_undoes(cards_copy, tmp_path):
    session = TweakSession(folder=cards_copy / "meaning_made")
    changed = []
    m = BalanceModel(session=session, on_change=lambda: changed.append(1),
                     targets="survival=0.55..0.8 @players=3", vary="initiatives.Quiet Hour.order_spaces",
                     trials=2, games_per_trial=2, fresh_games=2, workers=0, study=str(tmp_path / "b.sqlite"))
    m.run()
    assert not m.running and m.version == 1
    assert m.message.startswith("2 trials"), m.message
    assert len(m.trials_table()) == 2 and list(m.check_table()["players"]) == [3]
    if not m.edits:  # the cards as they are fit best: give the page a proposal to apply
        m.edits = [{"card": "Quiet Hour", "field": "order_spaces", "old": 3, "new": 2}]
    m.apply()
    assert m.applied and changed == [1], m.message
    m.undo()
    assert not m.applied and changed == [1, 1], m.message
    row = TweakSession(folder=cards_copy / "meaning_made").table()
    assert row.filter(row["name"] == "Quiet Hour")["order_spaces"][0] == 3


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
        cards_version = 0

    model = BalanceModel()
    page = BalancePage(bench=Bench(), model=model)
    page._on_run()
    assert "read-only" in page._status.object and not model.running and model.version == 0
    model.edits = [{"card": "Quiet Hour", "field": "order_spaces", "old": 3, "new": 2}]
    page._guarded(model.apply)
    assert model.version == 0 and not model.applied
