"""The Tabletop Simulator export for remote play, checked on the files a designer
uploads: the saved object validates against a schema of the TTS save format
(tests/data/tts_save.schema.json) plus the rules a schema cannot say (DeckIDs =
100 x key + index inside the sheet's grid), every image is 300 ppi or at TTS's
4096 px cap with a grid that divides it exactly, names carry the content hash (a
card edit changes the URL of its sheet and of nothing else), components keep their
relative print sizes, Mandate 2038's districts exist once and lie on the board's
snap points, counters start at the setup's values and the pieces are there."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import pytest

jsonschema = pytest.importorskip("jsonschema")
pytest.importorskip("typst")

from PIL import Image  # noqa: E402

from workbench.cli import main  # noqa: E402
from workbench.core.game import GameConfig  # noqa: E402
from workbench.core.registry import get_game  # noqa: E402
from workbench.print import tts  # noqa: E402

SCHEMA = json.loads((Path(__file__).parent / "data" / "tts_save.schema.json").read_text(encoding="utf-8"))
BASE = "https://example.org/playtest"


@lru_cache(maxsize=None)
def _mandate(folder: str) -> tuple[dict, dict]:
    out = Path(folder) / "mandate.json"
    summary = tts.export("mandate-2038", out, base_url=BASE, seats=4, seed=1)
    return json.loads(out.read_text(encoding="utf-8")), summary


@pytest.fixture(scope="module")
def mandate(tmp_path_factory):
    return _mandate(str(tmp_path_factory.mktemp("tts")))


def _walk(objects):
    for o in objects:
        yield o
        yield from _walk(o.get("ContainedObjects", []))


def _urls(save: dict) -> dict[str, str]:
    """Image role (file name without its hash) -> URL."""
    out = {}
    for o in _walk(save["ObjectStates"]):
        found = [s["FaceURL"] for s in o.get("CustomDeck", {}).values()] + \
                [s["BackURL"] for s in o.get("CustomDeck", {}).values()] + \
                [u for u in (o.get("CustomImage") or {}).values() if isinstance(u, str) and u]
        for u in found:
            out[u.rsplit("/", 1)[1].rsplit("-", 1)[0]] = u
    return out


def test_mandate_export_validates_against_the_save_format(mandate):
    save, _ = mandate
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    jsonschema.validate(save, SCHEMA)
    for o in _walk(save["ObjectStates"]):
        if o["Name"] != "DeckCustom":
            continue
        cards = o["ContainedObjects"]
        assert [c["CardID"] for c in cards] == o["DeckIDs"] and len(set(o["DeckIDs"])) == len(cards)
        for c in cards:
            key, index = divmod(c["CardID"], 100)
            sheet = o["CustomDeck"][str(key)]
            assert c["CustomDeck"] == {str(key): sheet}
            assert index < sheet["NumWidth"] * sheet["NumHeight"] and sheet["NumWidth"] * sheet["NumHeight"] <= 70
            assert sheet["FaceURL"].startswith(BASE + "/") and sheet["BackURL"].startswith(BASE + "/")
    guids = [o["GUID"] for o in _walk(save["ObjectStates"])]
    assert len(guids) == len(set(guids))


def test_every_image_is_300_ppi_or_at_the_cap_and_the_grid_divides_it(mandate):
    save, summary = mandate
    folder = Path(summary["images"])
    for item in summary["image_list"]:
        w, h = Image.open(folder / item["file"]).size
        assert [w, h] == item["px"] and max(w, h) <= tts.MAX_PX
        ppi = min(w / (item["mm"][0] / 25.4), h / (item["mm"][1] / 25.4))
        assert ppi >= 300 - 1e-6 or max(w, h) == tts.MAX_PX, item
    for o in save["ObjectStates"]:
        for sheet in o.get("CustomDeck", {}).values():
            w, h = Image.open(folder / sheet["FaceURL"].rsplit("/", 1)[1]).size
            assert w % sheet["NumWidth"] == 0 and h % sheet["NumHeight"] == 0


def test_components_keep_their_relative_print_sizes(mandate):
    save, _ = mandate
    objs = save["ObjectStates"]
    width = {}          # nickname -> width on the table in mm
    for o in objs:
        native = tts.NATIVE_WIDTH["Card" if o["Name"] == "DeckCustom" else "Custom_Tile"] \
            if o["Name"] in ("DeckCustom", "Custom_Tile") else None
        if native:
            width[o["Nickname"]] = o["Transform"]["scaleX"] * native * 25.4
    assert width["Headlines II"] == pytest.approx(63, abs=0.05)           # Era piles as the setup deals them
    assert width["Training deck"] == pytest.approx(44, abs=0.05)
    hexes = [o for o in objs if o["Name"] == "Custom_Tile" and o["CustomImage"]["CustomTile"]["Type"] == 1]
    assert {round(o["Transform"]["scaleX"] * 2 * 25.4, 1) for o in hexes} == {70.0}
    board = next(o for o in objs if "map" in o["Nickname"])
    faction = next(o for o in objs if o["Nickname"] == "Lumen Civic Lab")
    assert faction["Transform"]["scaleX"] * 2 * 25.4 == pytest.approx(170, abs=0.05)
    assert board["Transform"]["scaleX"] * 2 * 25.4 > 4 * 70          # the map is wider than four hexes


def test_mandate_districts_exist_once_on_the_boards_snap_points(mandate):
    save, _ = mandate
    objs = save["ObjectStates"]
    hexes = [o for o in objs if o["Name"] == "Custom_Tile" and o["CustomImage"]["CustomTile"]["Type"] == 1]
    state = get_game("mandate-2038").new_initial_state(GameConfig(players=("a", "b", "c", "d"), seed=1))
    assert len(hexes) == len(state.tiles) == 19
    board = next(o for o in objs if "map" in o["Nickname"])
    assert board["Locked"] and len(board["AttachedSnapPoints"]) == 19
    s = board["Transform"]["scaleX"]
    snaps = sorted((round(-p["Position"]["x"] * s, 2), round(-p["Position"]["z"] * s, 2))
                   for p in board["AttachedSnapPoints"])
    placed = sorted((round(o["Transform"]["posX"], 2), round(o["Transform"]["posZ"], 2)) for o in hexes)
    assert placed == snaps
    # the board image carries no district of its own: one picture per district tile
    assert sum(1 for u in _urls(save) if u.startswith("tiles-") and u.endswith("-face")) == 19


def test_counters_start_at_the_setups_values_and_each_seat_has_its_pieces(mandate):
    save, summary = mandate
    objs = save["ObjectStates"]
    state = get_game("mandate-2038").new_initial_state(GameConfig(players=("a", "b", "c", "d"), seed=1))
    counters = {o["Nickname"]: o["Counter"]["value"] for o in objs if o["Name"] == "Counter"}
    assert len(counters) == 4 * 7
    for seat, p in enumerate(state.players):
        mine = {k.split(": ", 1)[1]: v for k, v in counters.items() if k.startswith(f"{seat + 1} {p.faction}:")}
        assert sorted(mine.values()) == sorted([p.runway, p.compute, p.capability, p.customers, p.trust,
                                                p.mandate, p.bag])
    assert any(v != 0 for v in counters.values())
    seats = {o["FogColor"] for o in objs if o["Name"] == "HandTrigger"}
    assert seats == {"Red", "Blue", "Green", "Yellow"}
    pawns = [o for o in objs if o["Name"] == "PlayerPawn"]
    assert len(pawns) == 4 * len(state.players[0].agents)
    assert len([o for o in objs if o["Name"] == "BlockRectangle"]) == 4 * 4
    bags = {o["Nickname"]: o for o in objs if o["Name"] == "Bag"}
    assert "Audit bag" in bags and len(bags["Audit bag"]["ContainedObjects"]) == state.bag_black + sum(
        p.bag for p in state.players)
    black = bags["Systemic Risk cubes"]["ContainedObjects"]
    assert len(black) == state.black_supply and all(c["Name"] == "BlockSquare" for c in black)
    scrutiny = [b for n, b in bags.items() if n.startswith("1 ")]
    assert len(scrutiny) == 1 and len(scrutiny[0]["ContainedObjects"]) == 10


def test_mandate_decks_and_seats_are_laid_as_the_setup_says(mandate):
    """Rules Setup: four Era piles of Headlines and of Mandates (Era I's Headline and
    Mandate face up), the Training deck; each seat's mat holds the faction board the
    setup dealt it, its supply Agents, Facilities and Generator; the Initiative chip
    lies on the mat of the seat that holds it."""
    save, summary = mandate
    _no_overlaps(save, summary)
    assert [t["title"] for t in save["TabStates"].values()] == ["Mandate 2038"]       # the rulebook
    state = get_game("mandate-2038").new_initial_state(GameConfig(players=("a", "b", "c", "d"), seed=1))
    shown = {state.headline, state.mandate_card}

    def count(area: str) -> int:
        return sum(len(_cards(o)) for o in _on(save, summary, area) if o["Name"] in ("Card", "DeckCustom"))
    for era, (heads, mands) in enumerate(zip(state.headline_decks, state.mandate_decks)):
        assert count(f"decks/headlines:{era}") == len([n for n in heads if n not in shown])
        assert count(f"decks/mandates:{era}") == len([n for n in mands if n not in shown])
    [head] = _on(save, summary, "decks/headline", "Card")
    [mand] = _on(save, summary, "decks/mandate", "Card")
    assert (head["Nickname"], mand["Nickname"]) == (state.headline, state.mandate_card)
    assert head["Transform"]["rotZ"] == mand["Transform"]["rotZ"] == 0.0
    assert count("decks/training") == len(state.deck) == 40
    for seat, p in enumerate(state.players, 1):
        [board] = _on(save, summary, f"seat{seat}/faction", "Custom_Tile")
        assert board["Nickname"] == p.faction
        assert len(_on(save, summary, f"seat{seat}/agents", "PlayerPawn")) == p.agents.count(None)
        assert len(_on(save, summary, f"seat{seat}/facilities", "BlockRectangle")) == len(p.facilities)
        assert len(_on(save, summary, f"seat{seat}/generator", "BlockTriangle")) == 1
        assert len(_on(save, summary, f"seat{seat}/initiative", "Chip_10")) == (seat - 1 == state.initiative)
    # each seat holds its faction's six Core Action cards in its hand (rules: Core Actions)
    for hand, p in zip((o for o in save["ObjectStates"] if o["Name"] == "HandTrigger"), state.players):
        t = hand["Transform"]
        rect = (t["posX"] - t["scaleX"] / 2, t["posZ"] - t["scaleZ"] / 2, t["posX"] + t["scaleX"] / 2,
                t["posZ"] + t["scaleZ"] / 2)
        held = [o for o in save["ObjectStates"] if o["Name"] == "Card" and _inside(o, rect)]
        assert sorted(o["Nickname"] for o in held) == sorted(["Fund", "Research", "Build", "Organize", "Deploy",
                                                              "Influence"])


def test_a_card_edit_changes_its_sheets_url_and_nothing_else(mandate, cards_copy, tmp_path):
    save, _ = mandate
    heads = cards_copy / "mandate_2038" / "headlines.yaml"
    text = heads.read_text(encoding="utf-8")
    assert "Every institution gains 1 Runway." in text
    heads.write_text(text.replace("Every institution gains 1 Runway.", "Every institution gains 2 Runway.", 1),
                     encoding="utf-8")
    out = tmp_path / "edited.json"
    assert main(["export", "tts", "mandate-2038", "--out", str(out), "--base-url", BASE]) == 0
    before, after = _urls(save), _urls(json.loads(out.read_text(encoding="utf-8")))
    assert before.keys() == after.keys()
    changed = {k for k in before if before[k] != after[k]}
    assert changed == {"headlines-faces-1"}      # every other image: the same bytes, the same URL
    # the image folder holds what the save names and nothing stale
    folder = tmp_path / "edited-images"
    assert {p.name for p in folder.glob("*.png")} == {u.rsplit("/", 1)[1] for u in after.values()}


def _check_save(save: dict) -> None:
    """The schema, plus what it cannot say: CardID = 100 x sheet key + index inside
    that sheet's grid, each card naming its own sheet, GUIDs unique."""
    jsonschema.validate(save, SCHEMA)
    for o in _walk(save["ObjectStates"]):
        if o["Name"] == "DeckCustom":
            assert [c["CardID"] for c in o["ContainedObjects"]] == o["DeckIDs"]
            assert {str(i // 100) for i in o["DeckIDs"]} == set(o["CustomDeck"])
        if o["Name"] == "Card":
            key, index = divmod(o["CardID"], 100)
            sheet = o["CustomDeck"][str(key)]
            assert index < sheet["NumWidth"] * sheet["NumHeight"]
    guids = [o["GUID"] for o in _walk(save["ObjectStates"])]
    assert len(guids) == len(set(guids))


def _inside(o: dict, rect) -> bool:
    x, z = o["Transform"]["posX"], o["Transform"]["posZ"]
    return rect[0] <= x <= rect[2] and rect[1] <= z <= rect[3]


def _on(save, summary, area: str, name: str | None = None) -> list[dict]:
    """The loose objects (not the locked mats) lying on a mat's area (``mat/area``),
    of TTS type ``name``."""
    rect = summary["areas"][area]
    return [o for o in save["ObjectStates"] if _inside(o, rect) and (name is None or o["Name"] == name)
            and not o["Locked"]]


def _cards(o: dict) -> list[dict]:
    return o["ContainedObjects"] if o["Name"] == "DeckCustom" else [o]


def _no_overlaps(save, summary) -> None:
    """Mats do not overlap one another, and no hand zone lies on a mat."""
    rects = list(summary["rects"].values())
    for i, a in enumerate(rects):
        for b in rects[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
    for h in (o for o in save["ObjectStates"] if o["Name"] == "HandTrigger"):
        t = h["Transform"]
        hz = (t["posX"] - t["scaleX"] / 2, t["posZ"] - t["scaleZ"] / 2, t["posX"] + t["scaleX"] / 2,
              t["posZ"] + t["scaleZ"] / 2)
        assert all(hz[2] <= r[0] or r[2] <= hz[0] or hz[3] <= r[1] or r[3] <= hz[1] for r in rects)


@lru_cache(maxsize=None)
def _export(game: str, seats: int, folder: str) -> tuple[dict, dict]:
    out = Path(folder) / f"{game}.json"
    summary = tts.export(game, out, seats=seats, seed=1)
    return json.loads(out.read_text(encoding="utf-8")), summary


@pytest.fixture(scope="module")
def meaning_made(tmp_path_factory):
    return _export("meaning-made", 2, str(tmp_path_factory.mktemp("tts-mm")))


@pytest.fixture(scope="module")
def pax(tmp_path_factory):
    return _export("pax-transhumanity", 4, str(tmp_path_factory.mktemp("tts-pax")))


def test_meaning_made_table_is_laid_as_the_setup_says(meaning_made):
    """Rules Components and Setup, counts from settings.yaml: the Prism and the Index
    dealt face up, the End Initiative in its slot, the three decks face down beside
    them, the two shared tracks and each seat's Vitals and Legacy tracks with their
    markers on the starting spaces, each seat's starting tokens and Contribution
    markers on its mat, the token supply in infinite bags; 60 Patterns over four
    300 ppi sheets of 5 x 3, each card once."""
    import yaml
    save, summary = meaning_made
    _check_save(save)
    _no_overlaps(save, summary)
    s = yaml.safe_load((Path(__file__).parents[1] / "cards/meaning_made/settings.yaml").read_text(encoding="utf-8"))
    ids = [o["CardID"] for o in _walk(save["ObjectStates"]) if o["Name"] == "Card"]
    assert len(ids) == len(set(ids)) == 60 + 12 + 12 and summary["decks"]["patterns"] == 60
    assert sorted(i for i in ids if i < 500) == [k * 100 + j for k in (1, 2, 3, 4) for j in range(15)]
    up = lambda o: o["Transform"]["rotZ"] == 0.0          # noqa: E731
    prism = [o for i in range(s["prism_size"]) for o in _on(save, summary, f"world/prism:{i}", "Card")]
    index = [o for i in range(s["index_size"]) for o in _on(save, summary, f"world/index:{i}", "Card")]
    assert len(prism) == s["prism_size"] and len(index) == s["index_size"] and all(map(up, prism + index))
    [end] = _on(save, summary, "world/end", "Card")
    assert end["Nickname"] == s["end_initiative"] and up(end)
    decks = {a: _on(save, summary, f"world/{a}", "DeckCustom")
             for a in ("pattern-deck", "initiative-deck", "event-deck")}
    assert [len(d[0]["ContainedObjects"]) for d in decks.values()] == [60 - s["prism_size"],
                                                                    12 - s["index_size"] - 1, 12]
    assert not any(up(d[0]) for d in decks.values())
    assert _on(save, summary, f"world/meaning:{s['meaning']}", "BlockSquare")
    assert _on(save, summary, "world/layer:1", "BlockSquare")
    for seat in (1, 2):
        mat = f"seat{seat}"
        assert len(_on(save, summary, f"{mat}/vitals:{s['vitals']}", "BlockSquare")) == 1
        assert len(_on(save, summary, f"{mat}/legacy:{s['legacy']}", "BlockSquare")) == 1
        assert len(_on(save, summary, f"{mat}/markers", "PlayerPawn")) == s["markers"]
        for key, n in s["tokens"].items():
            assert len(_on(save, summary, f"{mat}/stock:{key}")) == n
    supply = [o for o in save["ObjectStates"] if o["Name"] == "Infinite_Bag"]
    assert len(supply) == 4 and all(len(b["ContainedObjects"]) == 1 for b in supply)
    assert [o["FogColor"] for o in save["ObjectStates"] if o["Name"] == "HandTrigger"] == ["Blue", "Red"]
    assert not any(o["Name"] == "Counter" for o in save["ObjectStates"])      # the tracks carry the numbers
    # the Notebook: the rulebook, then the Player Aid's three Resolution Tables, a line per row
    tables = yaml.safe_load((Path(__file__).parents[1] / "cards/meaning_made/tables.yaml").read_text(encoding="utf-8"))
    tabs = [save["TabStates"][str(i)] for i in range(len(save["TabStates"]))]
    assert tabs[0]["title"].startswith("Meaning Made") and "\n## Setup\n" in tabs[0]["body"]
    assert "<!--" not in tabs[0]["body"]
    assert [t["title"] for t in tabs[1:]] == ["Event Resolution Table", "Group Consequence Table",
                                              "Individual Consequence Table"]
    for tab, table in zip(tabs[1:], ("event", "group", "individual")):
        assert [ln.split(" ", 1)[0].rstrip(":") for ln in tab["body"].splitlines() if not ln.startswith("‡")] == [
            str(r["key"]) for r in tables[table]]


def test_meaning_made_solo_table_has_the_communitys_markers():
    """No rendering: the table the game declares for one seat adds the Community's
    black markers (rule solo/community), as many as settings.yaml gives."""
    import yaml
    from workbench.print.sheets import build_deck
    s = yaml.safe_load((Path(__file__).parents[1] / "cards/meaning_made/settings.yaml").read_text(encoding="utf-8"))
    deck = build_deck("meaning-made", "en")
    solo, duo = tts.table_for(deck, 1, 1), tts.table_for(deck, 2, 1)
    [bag] = [b for b in solo.bags if not b.get("infinite")]
    assert sum(p["count"] for p in bag["contents"]) == s["community_markers"]
    assert all(b.get("infinite") for b in duo.bags) and solo.seats == 1 and duo.seats == 2


def test_pax_table_is_laid_as_the_setup_says(pax):
    """Rules Setup, counts from settings.yaml and boards.yaml: each sphere board
    with its problem tokens, the Market's 6, 6, 1, 1 cards face up from the lowest
    slot, the Splay's first card, the Draw Deck with the Tipping Points shuffled in
    and Plurality at the bottom, the set-aside ideas, two ideas in each hand for the
    Secret sphere; per seat 9 Agents in play (8 on the finance track as drafted, 1 on
    Human Progress) and the pool's Agents in a bag, its Company discs."""
    import yaml
    save, summary = pax
    _check_save(save)
    _no_overlaps(save, summary)
    root = Path(__file__).parents[1] / "cards/pax_transhumanity"
    s = {k: v["value"] for k, v in yaml.safe_load((root / "settings.yaml").read_text(encoding="utf-8")).items()}
    spheres = yaml.safe_load((root / "boards.yaml").read_text(encoding="utf-8"))["spheres"]
    ideas = yaml.safe_load((root / "ideas.yaml").read_text(encoding="utf-8"))["ideas"]
    plain = [i for i in ideas if i.get("kind", "idea") == "idea"]
    plurality = next(i["name"] for i in ideas if i.get("kind") == "plurality")
    up = lambda o: o["Transform"]["rotZ"] == 0.0          # noqa: E731
    for sphere, board in spheres.items():
        assert len(_on(save, summary, f"market/sphere:{sphere}", "Custom_Tile")) == 1
        assert len(_on(save, summary, f"market/problems:{sphere}", "Chip_10")) == board["problem_tokens"]
        dealt = [_on(save, summary, f"market/market:{sphere}:{i}", "Card") for i in range(s["market_slots"])]
        assert [len(d) for d in dealt] == [1] * s["market_deal"][sphere] + [0] * (
            s["market_slots"] - s["market_deal"][sphere])
        assert all(up(c) for d in dealt for c in d)
    [splay] = _on(save, summary, "progress/splay", "Card")
    assert up(splay)
    [draw] = _on(save, summary, "progress/draw", "DeckCustom")
    in_market = sum(s["market_deal"].values())
    names = [c["Nickname"] for c in draw["ContainedObjects"]]
    assert len(names) == s["draw_deck"] - in_market - 1 + len(ideas) - len(plain) and names[-1] == plurality
    [aside] = _on(save, summary, "progress/aside", "DeckCustom")
    assert len(aside["ContainedObjects"]) == len(plain) - s["draw_deck"] - 4 * s["secret_cards"]
    hands = [o for o in save["ObjectStates"] if o["Name"] == "HandTrigger"]
    assert [h["FogColor"] for h in hands] == ["Blue", "White", "Pink", "Red"]     # TTS's Black is the GM's
    for h in hands:
        t = h["Transform"]
        rect = (t["posX"] - t["scaleX"] / 2, t["posZ"] - t["scaleZ"] / 2, t["posX"] + t["scaleX"] / 2,
                t["posZ"] + t["scaleZ"] / 2)
        assert len([o for o in save["ObjectStates"] if o["Name"] == "Card" and _inside(o, rect)]) == s["secret_cards"]
    start = s["finance_start"]
    for seat in range(1, 5):
        on_track = {box: len(_on(save, summary, f"seat{seat}/{box}", "PlayerPawn")) for box in start}
        assert on_track == start
        assert len(_on(save, summary, f"seat{seat}/companies", "Chip_10")) == s["tycoon_company"]
        [pool] = _on(save, summary, f"seat{seat}/pool", "Bag")
        assert len(pool["ContainedObjects"]) == s["agents_in_pool"]
    on_progress = _on(save, summary, "progress/progress:blue", "PlayerPawn")
    assert len(on_progress) == s["agents_in_play"] - sum(start.values())
    assert len(_on(save, summary, "progress/regime:Globalization", "BlockSquare")) == 1
    cards = [c for o in save["ObjectStates"] if o["Name"] in ("Card", "DeckCustom") for c in _cards(o)]
    assert sorted(c["Nickname"] for c in cards) == sorted(i["name"] for i in ideas)      # every idea once


def test_host_and_base_url_are_checked(tmp_path, capsys):
    from workbench.commands.export import base_url_of
    assert base_url_of(None, "192.168.1.20") == "http://192.168.1.20:5006/tts"
    assert base_url_of(None, "box.local:8080") == "http://box.local:8080/tts"
    assert base_url_of("https://cdn.example.org/m", None) == "https://cdn.example.org/m"
    for args in (["--base-url", "ftp://x/y"], ["--host", "a b"], ["--host", "h:0"],
                 ["--host", "h", "--base-url", "https://x/y"]):
        assert main(["export", "tts", "pax-transhumanity", "--out", str(tmp_path / "p.json"), *args]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err


def test_serve_offers_the_image_folder_to_tts(monkeypatch, tmp_path):
    import panel as pn

    from workbench.dashboard import app
    from workbench.rooms import web
    from workbench.rooms import hosts
    seen = {}

    class Stop(Exception):
        """Raised where the real server would start listening: the test ends there."""

    class Server:
        _tornado = None

        def start(self):
            raise Stop

    def fake_serve(*a, **k):
        seen.update(k)
        return Server()

    monkeypatch.setattr(pn, "serve", fake_serve)
    monkeypatch.setattr(hosts, "guard_application", lambda application: None)
    monkeypatch.setattr(web, "hall", lambda *a, **k: None)       # no playtest journal opened
    with pytest.raises(Stop):
        app.serve(port=5999, show=False, tts_images=tmp_path)
    assert seen["static_dirs"] == {"tts": str(tmp_path)}


@pytest.mark.parametrize("which", ["mandate", "meaning_made", "pax"])
def test_every_tile_and_mat_loads_as_drawn_at_250_ppi_or_more(which, request):
    """The rule for ``Stretch`` (TTS's knowledge base, Custom Tile, "Stretch Aspect
    Ratio": checked stretches the image to a symmetrical tile, unchecked gives the
    tile the image's proportions): unchecked on every tile, board and mat, and every
    image drawn at its component's proportions (within a pixel), so each loads as
    drawn; every image 250 ppi or more (a mat larger than 4096 px at that is in pieces)."""
    save, summary = request.getfixturevalue(which)
    assert tts.STRETCH is False
    images = {i["file"]: i for i in summary["image_list"]}
    tiles = [o for o in _walk(save["ObjectStates"]) if o["Name"] == "Custom_Tile"]
    assert tiles
    for o in tiles:
        assert o["CustomImage"]["CustomTile"]["Stretch"] is False, o["Nickname"]
        for key in ("ImageURL", "ImageSecondaryURL"):
            item = images[o["CustomImage"][key].rsplit("/", 1)[1]]
            (w, h), (mw, mh) = item["px"], item["mm"]
            assert abs(h - w * mh / mw) <= 1.0, (o["Nickname"], item)          # within a pixel
            # its size on the table is its print size (a custom tile is 2 units wide at scale 1)
            assert o["Transform"]["scaleX"] * tts.NATIVE_WIDTH["Custom_Tile"] * 25.4 == pytest.approx(mw, abs=0.05)
    for item in summary["image_list"]:
        assert item["ppi"] >= 250 and max(item["px"]) <= tts.MAX_PX, item


@pytest.mark.parametrize("game,seats", [("mandate-2038", 4), ("meaning-made", 2), ("pax-transhumanity", 4)])
def test_mat_slots_fit_their_cards_within_10_percent(game, seats):
    from workbench.print.sheets import build_deck
    deck = build_deck(game, "en")
    table = tts.table_for(deck, seats, 1)
    slots = 0
    for m in table.mats:
        m.layout()
        for a in m.areas.values():
            if a.holds:
                slots += 1
                cw, ch = a.holds
                assert cw <= a.box[2] <= 1.1 * cw and ch <= a.box[3] <= 1.1 * ch, (m.key, a.key, a.box, a.holds)
    for p in table.piles:                       # every card the setup lays on a mat lies on a slot made for it
        if p.get("on"):
            mat = next(m for m in table.mats if m.key == p["on"][0])
            area = mat.areas[p["on"][1]]
            kind = next(k for k in deck.kinds if any(c is p["cards"][0] for c in k.cards))
            assert area.fan or area.holds == (kind.grid.card_w, kind.grid.card_h), (p["on"], area.holds)
    assert slots
