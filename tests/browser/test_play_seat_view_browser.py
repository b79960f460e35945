"""Hot-seat without peeking: the Play page shows a human seat its observation
(``Game.observation``), never what it hides, and the designer's whole view only
when asked for. Checked in Chromium on a game with hidden information: after the
human seat's first move the bots' face-down choices are masked on the table and
in the log, and the whole-position box reveals them."""

from __future__ import annotations


from playwright.sync_api import expect

from workbench.core.registry import get_game, providing


def _hot_seat_case():
    """The first game (in listing order) whose bots' first moves hide something
    from the human seat: (game id, the human's first move, the model after it)."""
    from workbench.dashboard.play import PlayModel
    for gid in providing("hidden_information"):
        model = PlayModel(gid)
        first = model.legal_moves()[0]
        model.move(first)
        masked = [r["action"] for r in model.log()]
        model.whole_view = True
        if masked != [r["action"] for r in model.log()]:
            model.whole_view = False
            return gid, first, model
    raise AssertionError("no game hides a bot's move from a human seat")


def _table_text(page) -> str:
    return " ".join(page.locator(".wb-table").all_inner_texts())


def test_a_human_seat_sees_only_its_observation(ui, console_errors):
    # the same set-up in this process: which of the bots' moves the seat may not see
    gid, first, model = _hot_seat_case()
    page = ui.page
    ui.open("Play")
    page.locator(".play-game select").select_option(gid)
    expect(page.locator(".play-status")).to_contain_text(get_game(gid).name)
    expect(page.locator(".play-status")).to_contain_text("sees")
    seat = model.viewer()
    masked_log = model.log()
    model.whole_view = True
    # the rivals' moves the seat may not see: masked in its log, whole in the designer's
    pairs = [(a, b) for a, b in zip(masked_log, model.log())
             if a["action"] != b["action"] and a["player"] != model.state.player_name(seat)]
    assert pairs
    hidden_rows, whole_rows = [a for a, _ in pairs], [b for _, b in pairs]

    page.locator(".play-moves select").select_option(first)
    page.get_by_role("button", name="Play move").click()
    expect(page.locator(".play-status")).to_contain_text(f"position {model.ply} of {model.ply}")
    log = page.locator(".play-log")
    for row in hidden_rows:                      # a rival's move as the table saw it
        expect(log).to_contain_text(row["action"])
    for row in whole_rows:                       # never the move itself
        expect(log).not_to_contain_text(f"{row['player']}: {row['action']}")
    masked = _table_text(page)
    ui.screenshot("play-seat-view")

    page.locator(".play-whole-view input").check()
    expect(page.locator(".play-status")).to_contain_text("the whole position")
    for row in whole_rows:
        expect(log).to_contain_text(row["action"])
    expect(page.locator(".wb-table").first).not_to_have_text(masked)
    assert console_errors == []
