"""The open dashboard: text from card files, rules or the user reaches the page
escaped (a card name with HTML is refused by the data model, and a refused value
shown back is inert); ``serve`` beyond this machine asks for a password; a
read-only dashboard takes no edits, saves or sweeps."""

from __future__ import annotations

import io

import pytest
from markdown_it import MarkdownIt

from workbench.core.errors import DataError, WorkbenchError
from workbench.dashboard.escape import md

PAYLOADS = ["<img src=x onerror=alert(1)>", "<script>alert(1)</script>", "[click](javascript:alert(1))",
            "**bold** _it_ `code` # head", "&lt;script&gt;", "a\\<b>"]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_escaped_text_renders_as_typed_and_never_as_markup(payload):
    # CommonMark with raw HTML allowed: the strictest test of the escaping
    html = MarkdownIt("commonmark", {"html": True}).render(md(payload))
    assert "<img" not in html and "<script" not in html and "href=" not in html
    assert "<strong>" not in html and "<em>" not in html and "<code>" not in html


def test_a_card_name_with_html_is_refused_by_the_data_model(cards_copy):
    from workbench.games.meaning_made.data import load_cards
    path = cards_copy / "meaning_made" / "patterns.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(
        "- name: Shell\n", '- name: "<img src=x onerror=alert(1)>"\n', 1), encoding="utf-8")
    with pytest.raises(DataError, match="card name"):
        load_cards(cards_copy / "meaning_made")


def test_cards_page_refuses_an_html_name_and_shows_it_inert(cards_copy):
    from workbench.dashboard.cards import CardsModel, CardsPage
    model = CardsModel()
    page = CardsPage(model=model)
    assert not model.edit("Shell", "name", "<img src=x onerror=alert(1)>")
    page._show_message()
    shown = page._message.object
    assert "card name" in shown and "<img" not in shown and "&lt;img" in shown
    assert "Shell" in model.session.table()["name"].to_list()


def test_cards_page_reload_from_disk(cards_copy):
    from workbench.dashboard.cards import CardsModel
    model = CardsModel()
    assert model.edit("Shell", "E", 2)
    model.reload()
    assert model.message == "reloaded from disk" and not model.session.dirty
    assert model.cell("Shell", "E") == 1


def test_read_only_dashboard_takes_no_edit_save_or_sweep(cards_copy):
    from workbench.dashboard.app import Workbench
    from workbench.dashboard.cards import CardsModel, CardsPage
    from workbench.dashboard.sweeps import SweepsModel, SweepsPage
    bench = Workbench(read_only=True)
    model = CardsModel(bench=bench)
    page = CardsPage(bench=bench, model=model)
    assert not model.edit("Shell", "E", 2) and "read-only" in model.message
    assert model.save() == [] and "read-only" in model.message
    assert page._save.disabled
    assert all(editor is None for editor in page._table.editors.values())
    sweeps = SweepsPage(bench=bench, model=SweepsModel(game_id="meaning-made"))
    sweeps._on_run()
    assert "read-only" in sweeps._status.object and not sweeps.model.running


def test_serve_beyond_this_machine_asks_for_a_password(monkeypatch):
    from workbench.commands.serve import login_password
    assert login_password("127.0.0.1", env={}) is None
    out = io.StringIO()
    token = login_password("0.0.0.0", env={}, stream=out)
    assert token and len(token) >= 16 and token in out.getvalue()
    assert login_password("0.0.0.0", env={"WORKBENCH_PASSWORD": "a long secret"}) == "a long secret"
    with pytest.raises(WorkbenchError, match="at least"):
        login_password("0.0.0.0", env={"WORKBENCH_PASSWORD": "short"})


def test_served_dashboard_passes_the_password_to_panels_basic_auth(monkeypatch):
    import panel as pn

    from workbench.dashboard import app
    seen = {}

    class Server:      # what pn.serve(start=False) returns, as far as serve uses it
        _tornado = type("App", (), {"find_handler": None, "get_handler_delegate": None})()

        def start(self):
            seen["started"] = True

    def fake_serve(*a, **k):
        seen.update(k)
        return Server()
    monkeypatch.setattr(pn, "serve", fake_serve)
    from tornado.platform.asyncio import BaseAsyncIOLoop
    monkeypatch.setattr(BaseAsyncIOLoop, "start", lambda self: None)   # serve returns at once
    app.serve(port=5999, host="0.0.0.0", show=False, password="a long secret", read_only=True)
    assert seen["basic_auth"] == "a long secret" and len(seen["cookie_secret"]) >= 32 and seen["started"]
    seen.clear()
    app.serve(port=5999, host="127.0.0.1", show=False)
    assert "basic_auth" not in seen


def test_a_refused_save_says_what_to_do_in_one_line(cards_copy):
    from workbench.dashboard.cards import CardsModel
    model = CardsModel()
    assert model.edit("Shell", "E", 2)
    path = cards_copy / "meaning_made" / "patterns.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "# edited in a notebook\n", encoding="utf-8")
    assert model.save() == []
    assert model.message.startswith("not saved:") and "Reload from disk" in model.message
    assert "\n" not in model.message
    model.reload()
    assert model.edit("Shell", "E", 2) and model.save() == [path]
    assert path.read_text(encoding="utf-8").endswith("# edited in a notebook\n")
