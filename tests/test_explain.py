"""Why an edit mattered (workbench/tweak/explain.py): the paired games' first
parting, the cards whose use moved, and each edit's share (Shapley: the shares
add up to the whole effect; an edit no rule reads gets exactly nothing)."""

from __future__ import annotations

import pytest

from workbench.sim import SimSpec, simulate
from workbench.tweak.explain import card_use_shift, divergence, edit_shares, parting, record

TOY = "workbench.games.pebble_race:GAME"
# compare enters its run in the card folder's history: not the checkout's
pytestmark = pytest.mark.usefixtures("no_history")


def test_paired_games_part_ways_where_the_bots_first_differ():
    a = SimSpec(TOY, games=6, players=3, bots="random", seed=3)
    b = a.with_(bots="first")
    part = divergence(a, b, range(6))
    assert part["games"] == 6 and part["parted"] + part["identical"] == 6
    assert part["parted"] >= 1
    assert sum(k["games"] for k in part["by_kind"]) == part["parted"]
    assert all(x["old"] != x["new"] for x in part["examples"])
    same = divergence(a, a, range(4))
    assert same["parted"] == 0 and same["identical"] == 4


def test_side_by_side_parting_is_where_the_whole_replays_first_differ():
    # the explanation plays the paired games side by side and stops at the parting:
    # it must find the move two whole replays first differ at, and the moves there
    a = SimSpec(TOY, games=8, players=3, bots="random", seed=5)
    for b in (a.with_(bots="first"), a.with_(bots="random,first,random"), a):
        for i in range(8):
            old, new = record(a, i), record(b, i)
            at = next((k for k, (x, y) in enumerate(zip(old, new)) if x[0] != y[0]), None)
            if at is None and len(old) != len(new):
                at = min(len(old), len(new))
            got = parting(a, b, i)
            if at is None:
                assert got is None
                continue
            assert got == (at, old[at] if at < len(old) else None, new[at] if at < len(new) else None)


def test_card_use_shift_sees_a_forced_seat_take_its_card():
    a = simulate(SimSpec(TOY, games=20, players=3, bots="random", seed=2), workers=0)
    b = simulate(SimSpec(TOY, games=20, players=3, bots="force:Gem:random,random,random", seed=2), workers=0)
    moved = card_use_shift(a, b)
    assert moved
    assert [abs(r["change"]) for r in moved] == sorted((abs(r["change"]) for r in moved), reverse=True)
    assert all(r["change"] == pytest.approx(r["new"] - r["old"]) for r in moved)
    # the forced seat takes Gem whenever it can: Gem's part of every card taken grows
    share = {r["card"]: (r["old"], r["new"]) for r in moved}
    assert "Gem" in share
    assert share["Gem"][1] / sum(n for _, n in share.values()) > share["Gem"][0] / sum(o for o, _ in share.values())


def test_shapley_shares_add_up_and_a_no_op_gets_nothing():
    spec = SimSpec("meaning-made", games=8, players=3, bots="random", seed=4, trace=False)
    edits = [("settings", "meaning", "2"), ("Shell", "flavour", "A quiet river.")]
    out = edit_shares("meaning-made", edits, spec, "completion", workers=0)
    assert out["method"] == "shapley"
    total = sum(s["contribution"] for s in out["shares"])
    assert total == pytest.approx(out["effect"])
    assert out["shares"][1]["contribution"] == 0
    if out["effect"]:
        assert out["shares"][0]["share"] == pytest.approx(1.0)


def test_compare_explains_a_decided_change_with_each_edits_share(capsys):
    import json

    from workbench.cli import main
    code = main(["compare", "meaning-made", "--edit", "settings.meaning=1", "--edit", "Shell.flavour=Moss.",
                 "--games", "40", "--players", "4", "--bots", "random", "--workers", "0", "--explain-pairs", "4",
                 "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    doc = json.loads(out.out)
    e = doc["explanation"]
    assert e is not None and e["metric"]
    assert e["parting"]["games"] == 4 and e["parting"]["parted"] >= 1
    shares = {s["edit"][0]: s for s in e["shares"]["shares"]}
    assert shares["Shell"]["contribution"] == 0
    assert abs(shares["settings"]["contribution"]) == pytest.approx(abs(e["shares"]["effect"]))
