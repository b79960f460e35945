"""The Cards page's Add card, Duplicate and Delete in a real browser: a card
added from the game's blank shows in the table, is deleted again, and a card
the scenarios name is refused with the list (the model is tested for every
game in tests/test_card_add_delete.py)."""

from __future__ import annotations

from playwright.sync_api import expect


def find(name_filter, name: str) -> None:
    """Type ``name`` in the table's name filter (Tabulator filters on a key, not on fill)."""
    name_filter.fill(name)
    name_filter.press("Enter")


def select(row, field: str, info, text: str, attempts: int = 5) -> None:
    """Click the ``field`` cell of ``row`` until ``info`` shows ``text``: on a loaded
    machine a click can land while the filtered table is still being drawn and
    select nothing. A selected row is not clicked again (that would unselect it)."""
    for _ in range(attempts):
        if "tabulator-selected" not in (row.get_attribute("class") or ""):
            row.locator(f".tabulator-cell[tabulator-field='{field}']").click()
        try:
            expect(info).to_contain_text(text, timeout=30_000)
            return
        except AssertionError:
            continue
    expect(info).to_contain_text(text)


def test_cards_page_adds_and_deletes_a_card(ui, console_errors):
    page = ui.page
    ui.open("Cards")
    cards = page.locator(".page-cards")
    notice, message = page.locator(".cards-notice"), page.locator(".cards-message")
    name_filter = cards.locator(".tabulator-header-filter input").first
    name_filter.wait_for()
    page.get_by_role("button", name="Add card").click()
    expect(notice).to_contain_text("added New Initiative (initiative)")
    find(name_filter, "New Initiative")
    added = cards.locator(".tabulator-row", has_text="New Initiative")
    expect(added).to_have_count(1)
    expect(page.locator(".cards-info")).to_contain_text("New Initiative (Layer 7)")
    ui.screenshot("cards-add")
    page.get_by_role("button", name="Delete").click()
    expect(notice).to_contain_text("deleted New Initiative (initiative)")
    expect(added).to_have_count(0)
    # a card the scenarios play with stays, and the refusal says who names it
    find(name_filter, "Listening Circle")
    # a click on a cell that takes no edit selects the row (a name cell opens its editor)
    row = cards.locator(".tabulator-row", has_text="Listening Circle").first
    select(row, "kind", page.locator(".cards-info"), "Listening Circle (Layer 7)")
    page.get_by_role("button", name="Delete").click()
    expect(message).to_contain_text("cannot delete Listening Circle: it is named by scenario")
    expect(cards.locator(".tabulator-row", has_text="Listening Circle")).to_have_count(1)
    page.get_by_role("button", name="Undo").click()
    expect(notice).to_contain_text("undone: deleted New Initiative")
    assert console_errors == []
