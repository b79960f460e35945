"""Playtest rooms in real browsers: three people in three browser contexts and a
bot play a Pax Transhumanity game to its end through their seat pages, answer the
survey, and the journal holds the game, its moves and the surveys. Then, for each
game, every websocket frame and the DOM of one seat are read for what that seat
must not see: a rival's Secret and dealt cards, a face-down pick, an unrevealed
Mandate, a deck's order (the truth is rebuilt from the journal's moves)."""

from __future__ import annotations

import json
import re
import sqlite3
import urllib.request

import pytest
from playwright.sync_api import expect

from workbench.core.game import GameConfig
from workbench.core.registry import get_game


def _api(server, body=None, path=""):
    from workbench.rooms.hosts import script_headers
    req = urllib.request.Request(server["url"] + "playtest/api/rooms" + path,
                                 data=None if body is None else json.dumps(body).encode(),
                                 method="GET" if body is None else "POST", headers=script_headers(server["url"]))
    with urllib.request.urlopen(req, timeout=60) as answer:
        return json.loads(answer.read())


def _journal(server):
    db = sqlite3.connect(str(server["cards"] / "playtest-journal.sqlite"))
    db.row_factory = sqlite3.Row
    return db


def _open_seat(browser, link):
    """A fresh browser context on one seat's link, recording its frames."""
    context = browser.new_context(viewport={"width": 1300, "height": 900})
    page = context.new_page()
    page.set_default_timeout(60_000)
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
    page.goto(link)
    expect(page.locator("#status")).not_to_have_text("connecting…")
    return context, page, frames


def _plies(page) -> int:
    return page.locator("#log div").count()


def _wait(page, condition, timeout_s: float = 60) -> None:
    """Poll ``condition`` (the seat page forbids eval, so no wait_for_function)."""
    for _ in range(int(timeout_s * 20)):
        if condition():
            return
        page.wait_for_timeout(50)
    raise AssertionError("the seat page did not catch up")


def _take_turn(pages) -> bool:
    """The seat whose turn it is clicks the middle legal move; waits until every
    seat's log shows it. False once the game is over."""
    for page in pages:
        if page.locator("#status").inner_text() == "the game is over":
            return False
    for page in pages:
        if page.locator("#status").inner_text() == "your turn":
            before = _plies(page)
            buttons = page.locator("#moves button")
            buttons.nth(buttons.count() // 2).click()
            for other in pages:
                _wait(other, lambda: _plies(other) > before)
            return True
    pages[0].wait_for_timeout(200)   # a bot is thinking
    return True


def test_three_people_and_a_bot_play_pax_to_the_end(browser, server):
    opened = _api(server, {"game": "pax-transhumanity", "players": 4, "seed": 11,
                           "seats": [{"kind": "person"}] * 3 + [{"kind": "bot", "bot": "random"}],
                           "options": {"round_limit": 1}})
    seats = [_open_seat(browser, link) for link in opened["links"].values()]
    pages = [page for _, page, _ in seats]
    for _ in range(200):
        if not _take_turn(pages):
            break
    for page in pages:
        expect(page.locator("#status")).to_have_text("the game is over")
        expect(page.locator("#survey")).to_be_visible()
    for i, page in enumerate(pages):
        form = page.locator("#surveyform")
        form.locator("[name=fun]").fill(str(3 + i % 3))
        form.locator("[name=clarity]").fill("4")
        form.locator("[name=length]").select_option("too short")
        form.locator("[name=text]").fill(f"seat {i} liked the Market")
        # the questions about this person's own game, and the tester profile
        for box in form.locator("textarea[name^='m:']").all():
            box.fill(f"seat {i} about {box.get_attribute('name')[2:]}")
        form.locator("select[name='m:profile']").select_option("monthly")
        form.locator("button[type=submit]").click()
        expect(page.locator("#survey")).to_be_hidden()
    db = _journal(server)
    game = db.execute("SELECT * FROM games WHERE room = ?", (opened["room"],)).fetchone()
    assert game["status"] == "finished" and json.loads(game["outcome"])["ending"] == "timeout"
    moves = db.execute("SELECT * FROM moves WHERE game = ? AND undone = 0 ORDER BY ply", (game["id"],)).fetchall()
    assert {m["by"] for m in moves} == {"person", "bot"} and len(moves) == _plies(pages[0])
    surveys = db.execute("SELECT * FROM surveys WHERE game = ? ORDER BY seat", (game["id"],)).fetchall()
    assert [s["seat"] for s in surveys] == [0, 1, 2] and surveys[1]["text"] == "seat 1 liked the Market"
    answers = db.execute("SELECT * FROM answers WHERE game = ? ORDER BY seat, key", (game["id"],)).fetchall()
    assert [(a["seat"], a["answer"]) for a in answers if a["key"] == "profile"] == [(i, "monthly") for i in range(3)]
    assert all(a["answer"] == f"seat {a['seat']} about {a['key']}" for a in answers if a["key"] != "profile")
    # the public texts are in the journal beside the moves, and every seat's log shows them
    assert all(m["public"] for m in moves)
    assert pages[0].locator("#log div").first.inner_text().startswith("1. ")
    # the journal's moves replay to the game the seats saw end
    pax = get_game("pax-transhumanity")
    state = pax.new_initial_state(GameConfig.from_dict(json.loads(game["config"])))
    for m in moves:
        state.apply_action(pax.parse_action(state, m["action"]))
    assert state.is_terminal()
    for context, _, _ in seats:
        context.close()


def _truth(server, room_id):
    """The positions the game passed through, rebuilt from the journal: ply -> state."""
    db = _journal(server)
    game = db.execute("SELECT * FROM games WHERE room = ? ORDER BY id DESC", (room_id,)).fetchone()
    engine = get_game(json.loads(game["config"])["game"])
    state = engine.new_initial_state(GameConfig.from_dict(json.loads(game["config"])))
    states = [state.clone()]
    for m in db.execute("SELECT * FROM moves WHERE game = ? AND undone = 0 ORDER BY ply", (game["id"],)):
        state.apply_action(engine.parse_action(state, m["action"]))
        states.append(state.clone())
    return engine, states


def _runs(cards, k=3) -> list[str]:
    """Every run of ``k`` cards in a hidden order, as JSON and as the page shows a list."""
    cards = [str(c) for c in cards]
    out = []
    for i in range(len(cards) - k + 1):
        run = cards[i:i + k]
        out += [json.dumps(run)[1:-1], ", ".join(run)]
    return out


def _hidden(gid, state, seat) -> tuple[list[str], list]:
    """Strings ``seat`` must never receive in ``state``, and (path, allowed) checks."""
    strings, checks = [], []
    if state.is_terminal():
        return strings, checks     # the end reveals Secrets and the Mandates scored
    if gid == "pax-transhumanity":
        from workbench.games.pax_transhumanity.hidden import dealt_cards
        strings += _runs(state.deck)
        for rival in range(state.num_players):
            if rival != seat:
                strings += [f'"{card}"' for card in dealt_cards(state, rival)] + list(dealt_cards(state, rival))
                checks.append((("players", state.player_name(rival), "secret"), (None, "hidden")))
    elif gid == "mandate-2038":
        strings += _runs(state.deck) + [run for pile in state.headline_decks for run in _runs(pile)]
        strings += [card for era, pile in enumerate(state.mandate_decks) if era + 1 > state.era for card in pile]
        if state.phase == "select":
            for rival in range(state.num_players):
                if rival != seat:
                    checks.append((("players", state.player_name(rival), "selected"), (None, "hidden")))
    else:
        strings += _runs(state.pattern_deck) + _runs(state.init_deck) + _runs(state.event_deck)
    return strings, checks


GAMES = {"pax-transhumanity": (4, {"round_limit": 2}), "mandate-2038": (4, {}), "meaning-made": (3, {"round_limit": 2})}


@pytest.mark.parametrize("gid", list(GAMES))
def test_a_seats_frames_and_page_hold_nothing_hidden(browser, server, gid):
    players, options = GAMES[gid]
    opened = _api(server, {"game": gid, "players": players, "seed": 5, "options": options,
                           "seats": [{"kind": "person"}] + [{"kind": "bot", "bot": "random"}] * (players - 1)})
    context, page, frames = _open_seat(browser, next(iter(opened["links"].values())))
    # the spectator link: the public view only, checked against every seat's secrets
    watch_context, watch_page, watch_frames = _open_seat(browser, opened["spectator"])
    doms = []
    for _ in range(12):
        if not _take_turn([page]):
            break
        text = page.locator("body").inner_text()
        # the page says which position it shows: one snapshot, however fast the bots answer
        doms.append((int(re.search(r"(\d+) moves? played", text).group(1)), text))
    engine, states = _truth(server, opened["room"])
    assert len(frames) > 5 and len(states) > 5
    seen_checks = 0
    for frame in frames:
        msg = json.loads(frame)
        if msg.get("type") != "state":
            # one-line errors, and the chat (its lines come on their own, history first)
            assert msg.get("type") in ("error", "chat") and "Secret" not in msg.get("message", "")
            continue
        state = states[msg["room"]["plies"]]
        strings, checks = _hidden(gid, state, 0)
        body = json.dumps({k: v for k, v in msg.items() if k != "cards"})   # the survey's card list is public
        for text in strings:
            assert text not in body, (gid, msg["room"]["plies"], text)
        for path, allowed in checks:
            value = msg["observation"]["table"]
            for key in path:
                value = value[key]
            assert value in allowed, (gid, path, value)
            seen_checks += 1
        assert all(e["action"] is None for e in msg["log"] if e["seat"] != msg["observation"]["seat"])
    for plies, text in doms:
        strings, _ = _hidden(gid, states[plies], 0)
        for s in strings:
            assert s not in text, (gid, s)
    if gid != "meaning-made":
        assert seen_checks, "no frame had a rival's hidden value to check"
    _check_spectator(gid, states, watch_frames, watch_page)
    context.close()
    watch_context.close()


def _check_spectator(gid, states, frames, page):
    """Every frame the spectator link received holds no seat's hidden value (every
    seat is a rival to it), its log no move's notation, and it never acts."""
    checked = 0
    for frame in frames:
        msg = json.loads(frame)
        if msg.get("type") != "state":
            assert msg.get("type") in ("chat", "error")
            continue
        state = states[msg["room"]["plies"]]
        strings, checks = _hidden(gid, state, -1)
        body = json.dumps(msg)
        for text in strings:
            assert text not in body, (gid, "spectator", msg["room"]["plies"], text)
        for path, allowed in checks:
            value = msg["observation"]["table"]
            for key in path:
                value = value.get(key) if isinstance(value, dict) else None
            assert value in allowed, (gid, "spectator", path, value)
            checked += 1
        assert msg["observation"]["legal"] == [] and all(e["action"] is None for e in msg["log"])
    assert len(frames) > 3
    if gid != "meaning-made":
        assert checked, "no spectator frame had a hidden value to check"
    strings, _ = _hidden(gid, states[-1], -1)
    text = page.locator("body").inner_text()
    assert not any(s in text for s in strings)
