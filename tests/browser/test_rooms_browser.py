"""Playtest rooms in real browsers, one room of each game: three people (three
browser contexts) and a bot play it to its end by clicking on their drawn seat
pages (a move's button, or a card on the table; no typed notation), answer the
survey, and the journal holds the moves, the public text of each and the answers.
Every websocket frame and page snapshot of every person's seat, and of the room's
spectator link, is read for what that seat must not see: a rival's Secret and
dealt cards, a face-down pick, an unrevealed Mandate, a deck's order (the truth is
rebuilt from the journal's moves).

Each game is played by its real rules from a fixed seed, short only where the game
itself has a switch for it (Pax Transhumanity's and Meaning Made's ``round_limit``);
Mandate 2038 always plays its four Eras."""

from __future__ import annotations

import json
import random
import re
import sqlite3
import urllib.request

import pytest
from playwright.sync_api import expect

from workbench.core.game import GameConfig
from workbench.core.registry import get_game


@pytest.fixture(autouse=True)
def _patient_expect():
    """The machine is shared: an assertion on a page waits up to a minute for the
    page to show it (Playwright's default is 5 s), so only a hang fails."""
    expect.set_options(timeout=60_000)


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


def _plies_text(n: int) -> str:
    return "1 move played" if n == 1 else f"{n} moves played"


def _where(server, room_id):
    """(plies, the seat to act or None, over) from the designer's view of the room
    (the test's clock only: every move is made on a seat page)."""
    view = _api(server, path=f"/{room_id}")
    acting = [i for i, o in enumerate(view["observations"]) if o["to_move"]]
    over = bool(view["observations"][0]["over"])
    return view["room"]["plies"], (acting[0] if acting else None), over


def _click_a_move(page, rng) -> str:
    """Play one move on ``page`` by clicking: now and then a playable card or
    district on the drawn table (when several moves name it, only those are shown,
    and one of them is clicked), otherwise one of the move buttons shown. Says
    which way it went."""
    cards = page.locator("#table [data-card].playable")
    if cards.count() and rng.random() < 0.5:
        cards.nth(rng.randrange(cards.count())).click()
        picked = page.locator("#moves button.picked")
        if picked.count() > 1:
            picked.nth(rng.randrange(picked.count())).click()
        return "card"
    buttons = page.locator("#moves button[data-move]")     # a move's button, not "show all"
    buttons.nth(rng.randrange(buttons.count())).click()
    return "button"


def _play_by_clicking(server, room_id, pages, rng, max_plies=400):
    """The person to act clicks a move on their page, until the game ends; the
    text of that page at each turn (``(plies, seat, text)``) and the ways moves were
    made."""
    snapshots, ways = [], []
    while True:
        plies, acting, over = _where(server, room_id)
        if over:
            return snapshots, ways
        assert plies < max_plies, "the game did not end"
        if acting is None or acting >= len(pages):
            # the bot's answer is on its way: a person's page shows it come (the
            # room's view is asked for again only then, not twenty times a second
            # beside the server's work)
            expect(pages[0].locator("#plies")).not_to_have_text(_plies_text(plies))
            continue
        page = pages[acting]
        expect(page.locator("#plies")).to_have_text(_plies_text(plies))
        expect(page.locator("#status")).to_have_text("your turn")
        snapshots.append((plies, acting, page.locator("body").inner_text()))
        ways.append(_click_a_move(page, rng))
        try:    # the move played: the clicking page's count of moves goes on
            expect(page.locator("#plies")).not_to_have_text(_plies_text(plies))
        except AssertionError:
            raise AssertionError(f"the click on seat {acting}'s page played nothing: "
                                 + page.locator("#error").inner_text()) from None


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


#: each game with its shortest switch the game itself offers (none for Mandate 2038)
GAMES = {"pax-transhumanity": {"round_limit": 1}, "mandate-2038": {}, "meaning-made": {"round_limit": 2}}


@pytest.mark.parametrize("gid", list(GAMES))
def test_three_people_and_a_bot_play_a_room_to_its_end_by_clicking(browser, server, gid):
    opened = _api(server, {"game": gid, "players": 4, "seed": 11, "options": GAMES[gid],
                           "seats": [{"kind": "person"}] * 3 + [{"kind": "bot", "bot": "random"}]})
    seats = [_open_seat(browser, link) for link in opened["links"].values()]
    pages = [page for _, page, _ in seats]
    watch_context, watch_page, watch_frames = _open_seat(browser, opened["spectator"])
    snapshots, ways = _play_by_clicking(server, opened["room"], pages, random.Random(f"{gid}-11"))
    # moves made both ways: a move's button, and a card or district on the table
    assert len(snapshots) >= 8 and {"button", "card"} <= set(ways)

    plies = _where(server, opened["room"])[0]
    for page in pages + [watch_page]:
        expect(page.locator("#plies")).to_have_text(_plies_text(plies))
        expect(page.locator("#status")).to_have_text("the game is over")
        expect(page.locator("#end")).to_be_visible()      # scores, who won, the ending in the game's words
    expect(watch_page.locator("#survey")).to_be_hidden()
    for i, page in enumerate(pages):
        form = page.locator("#surveyform")
        expect(form).to_be_visible()
        form.locator("[name=fun]").fill(str(3 + i % 3))
        form.locator("[name=clarity]").fill("4")
        form.locator("[name=length]").select_option("about right")
        # the strongest card, picked from the game's own card names the page offers
        form.locator("[name=strongest]").fill(page.locator("#cardnames option").first.get_attribute("value"))
        form.locator("[name=text]").fill(f"seat {i} on {gid}")
        # the questions about this person's own game, and the tester profile
        for box in form.locator("textarea[name^='m:']").all():
            box.fill(f"seat {i} about {box.get_attribute('name')[2:]}")
        form.locator("select[name='m:profile']").select_option("monthly")
        form.locator("button[type=submit]").click()
        expect(page.locator("#survey")).to_be_hidden()

    db = _journal(server)
    game = db.execute("SELECT * FROM games WHERE room = ?", (opened["room"],)).fetchone()
    assert game["status"] == "finished"
    moves = db.execute("SELECT * FROM moves WHERE game = ? AND undone = 0 ORDER BY ply", (game["id"],)).fetchall()
    assert len(moves) == plies and {m["by"] for m in moves} == {"person", "bot"}
    assert {m["seat"] for m in moves if m["by"] == "person"} == {0, 1, 2}
    # the public text of every move is in the journal, and every seat's log reads it
    assert all(m["public"] for m in moves)
    for page in pages + [watch_page]:
        shown = page.locator("#log div").all_inner_texts()
        expected = [f"{m['ply'] + 1}. {m['public']}" for m in moves][-len(shown):]
        assert len(shown) == min(60, plies) and all(a.startswith(b) for a, b in zip(shown, expected))
    surveys = db.execute("SELECT * FROM surveys WHERE game = ? ORDER BY seat", (game["id"],)).fetchall()
    assert [(s["seat"], s["text"]) for s in surveys] == [(i, f"seat {i} on {gid}") for i in range(3)]
    assert all(s["length"] == "about right" and s["strongest"] for s in surveys)
    answers = db.execute("SELECT * FROM answers WHERE game = ? ORDER BY seat, key", (game["id"],)).fetchall()
    assert [(a["seat"], a["answer"]) for a in answers if a["key"] == "profile"] == [(i, "monthly") for i in range(3)]
    assert all(a["answer"] == f"seat {a['seat']} about {a['key']}" for a in answers if a["key"] != "profile")
    # the journal's moves replay to the game the seats saw end
    engine, states = _truth(server, opened["room"])
    assert len(states) == plies + 1 and states[-1].is_terminal()

    # nothing a seat may not see reached it: every frame of every person's seat,
    # their pages at each of their turns, and the spectator link
    for seat, (_, _, frames) in enumerate(seats):
        _check_frames(gid, states, frames, seat)
    for plies_then, seat, text in snapshots:
        strings, _ = _hidden(gid, states[plies_then], seat)
        assert not [s for s in strings if s in text], (gid, seat, plies_then)
    _check_spectator(gid, states, watch_frames, watch_page)
    for context, _, _ in seats:
        context.close()
    watch_context.close()


def _check_frames(gid, states, frames, seat):
    """Every state frame ``seat`` received holds none of the position's hidden
    strings for it, masks each rival's hidden values, and its log shows no
    rival move's notation."""
    seen_checks = 0
    assert len(frames) > 5
    for frame in frames:
        msg = json.loads(frame)
        if msg.get("type") != "state":
            # one-line errors, and the chat (its lines come on their own, history first)
            assert msg.get("type") in ("error", "chat") and "Secret" not in msg.get("message", "")
            continue
        state = states[msg["room"]["plies"]]
        strings, checks = _hidden(gid, state, seat)
        body = json.dumps({k: v for k, v in msg.items() if k != "cards"})   # the survey's card list is public
        for text in strings:
            assert text not in body, (gid, seat, msg["room"]["plies"], text)
        for path, allowed in checks:
            value = msg["observation"]["table"]
            for key in path:
                value = value[key]
            assert value in allowed, (gid, seat, path, value)
            seen_checks += 1
        assert all(e["action"] is None for e in msg["log"] if e["seat"] != msg["observation"]["seat"])
    if gid != "meaning-made":
        assert seen_checks, "no frame had a rival's hidden value to check"


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
