"""Pax Transhumanity's printable components: the ideas, the Tipping Points (with
Plurality) and the four sphere boards."""

from __future__ import annotations

from workbench.core.data import cards_dir, load_yaml

from workbench.print.cardlist import record
from workbench.print.words import Words

GAME_ID = "pax-transhumanity"
EFFECT_KEYS = {"growth": "effects.growth", "solve": "effects.solve", "found": "effects.foundCompany",
               "resilience": "effects.socialResilience", "disruption": "effects.industryDisruption",
               "recession": "effects.exoglobalRecession", "damping": "effects.heatDampingGrowth",
               "nuclear": "effects.nuclearExchange"}
SIDE_KEYS = {"thinker": "board.thinker", "maker": "board.maker"}
PLACE_KEYS = {"barrier": "board.barrier", "company": "board.company", "utility": "board.utility"}


def _effect(w: Words, term: str) -> str:
    """One effect term in words: "Solve 🟨", "Found Company 🟩 Maker !2"."""
    alts = []
    for alt in term.lower().split(" or "):
        words = alt.split()
        if words == ["game", "end"]:
            alts.append(w.label("game_end"))
            continue
        out = [w.term(EFFECT_KEYS[words[0]])]
        for extra in words[1:]:
            if extra in SIDE_KEYS:
                out.append(w.term(SIDE_KEYS[extra]))
            elif extra == "any":
                out.append(w.label("any_sphere"))
            elif extra.startswith("!"):
                out.append(f"({w.term('board.brash', w.label('brash'))} {extra[1:]})")
            else:
                out.append(w.icon(extra) or extra)
        alts.append(" ".join(out))
    return f" {w.label('or')} ".join(alts)


def _idea(w: Words, c: dict) -> dict:
    kind = c.get("kind", "idea")
    label = {"tipping point": w.term("board.tippingPoint"), "plurality": w.term("board.plurality")}.get(
        kind, w.label("idea"))
    return record(c["name"], c, title=w.card_text(c["name"], "name", c["name"]), kind=kind, kind_label=label,
                  disciplines=list(c.get("disciplines") or []),
                  bands=[w.icon(x) for x in c.get("disciplines") or []],
                  arrows=" ".join(w.icon(x) for x in c.get("arrows") or []),
                  heat=" ".join(w.icon("heat_" + h) for h in c.get("heat") or []),
                  effects=[_effect(w, t) for t in c.get("effects") or []])


def cards(w: Words) -> dict[str, list[dict]]:
    folder = cards_dir(GAME_ID)
    ideas = (load_yaml(folder / "ideas.yaml") or {}).get("ideas", [])
    out = {"ideas": [_idea(w, c) for c in ideas if c.get("kind", "idea") == "idea"],
           "tipping": [_idea(w, c) for c in ideas if c.get("kind", "idea") != "idea"]}
    boards = []
    for colour, s in ((load_yaml(folder / "boards.yaml") or {}).get("spheres") or {}).items():
        rows = [{"T": w.term(PLACE_KEYS[r["T"]]), "M": w.term(PLACE_KEYS[r["M"]])} for r in s.get("rows") or []]
        boards.append(record(w.label("sphere." + colour), s, colour=colour, icon=w.icon(colour),
                             problem=w.card_text(str(s.get("problem")), "name", s.get("problem")),
                             problem_tokens=int(s.get("problem_tokens") or 0),
                             developing=bool(s.get("developing_world")), rows=rows,
                             thinker=w.term("board.thinker"), maker=w.term("board.maker")))
    out["boards"] = boards
    return out


# ---------------------------------------------------------------- Tabletop Simulator
#: the board colours as TTS piece colours, and the TTS player colour of each seat's
#: hand zone: TTS's Black is the Game Master's seat (it sees every hand), so the black
#: board's player sits at White, with black pieces
PIECE_RGB = {"blue": (0.118, 0.53, 1.0), "black": (0.12, 0.12, 0.12), "pink": (0.96, 0.439, 0.807),
             "red": (0.856, 0.1, 0.094)}
HAND_COLOUR = {"blue": "Blue", "black": "White", "pink": "Pink", "red": "Red"}
SPHERE_RGB = {"yellow": (0.95, 0.8, 0.15), "green": (0.2, 0.65, 0.3), "blue": (0.2, 0.45, 0.9),
              "orange": (0.95, 0.5, 0.1)}
AGENT = {"type": "PlayerPawn", "scale": 0.3}


def tts_table(deck, seats: int, seed: int):
    """Pax Transhumanity's table as the setup lays it for ``seed`` (rules section
    Setup): the four sphere boards side by side with their problem tokens above and
    the Market's 6 slots per sphere below (the 6, 6, 1, 1 cards dealt face up), the
    Human Progress area with one Agent per player and the Splay's first card, the
    Draw Deck (Tipping Points and Plurality shuffled in as the setup does), the
    set-aside ideas, a Regime track with its marker on Globalization; per seat (the
    boards the player count uses, in board order) a player board: the finance
    track's Agents on Capital, Wealth and Debt, the Secret sphere and Think Tank
    slots, Patents, the Company discs, the pool's Agents in a bag, and the two
    set-aside ideas dealt to choose the Secret sphere in the seat's hand. The
    Regime cards are not in the card data: the track stands for their deck."""
    from workbench.core.game import GameConfig
    from workbench.core.registry import get_game
    from workbench.print.tts import Table
    from workbench.print.tts_mats import PAD, Area, Mat, gap, slot
    from .data import SPHERES
    from .regime import REGIMES
    from .setup import new_game

    w = deck.words
    game = get_game(GAME_ID)
    players = max(game.min_players, min(seats, game.max_players))
    content = game.cards()
    state = new_game(GameConfig(players=tuple(f"seat{i + 1}" for i in range(players)), seed=seed), content)
    colours = list(state.colours)
    by_name = {c["name"]: c for k in deck.kinds if k.key in ("ideas", "tipping") for c in k.cards}
    boards = {c["colour"]: c for k in deck.kinds if k.key == "boards" for c in k.cards}
    kinds = {k.key: k for k in deck.kinds}
    card_w, card_h = kinds["ideas"].grid.card_w, kinds["ideas"].grid.card_h
    board_w, board_h = kinds["boards"].grid.card_w, kinds["boards"].grid.card_h
    slots = len(next(iter(state.market.values())))
    column = board_w + 4.0

    def regime_key(name: str) -> str:
        return name[0].lower() + name.title().replace(" ", "")[1:]

    def pairs(values: list[int]) -> list[list[int]]:
        return [values[i:i + 2] for i in range(0, len(values), 2)]

    def market_pair(s: str, prices: list[int]) -> list[Area]:
        out = [slot(f"market:{s}:{p}", f"{w.label('sphere.' + s)} · {w.term('board.market')} {p}", card_w, card_h)
               for p in prices]
        used = sum(a.w + PAD for a in out)
        return out + [gap(column - used)] if s != SPHERES[-1] else out

    market = Mat("market", f"{deck.game_name}: {w.term('board.market')}", [
        [Area(f"problems:{s}", f"{w.card_text(str(content.boards[s].problem), 'name', content.boards[s].problem)}"
              f" · {w.label('problem_tokens')}", column, 22) for s in SPHERES],
        [slot(f"sphere:{s}", w.label("sphere." + s), board_w, board_h) for s in SPHERES],
        # slots the size of the card they take (a slot as wide as its sphere's board left
        # 170 mm for a 63 mm card), two abreast under each sphere's board, highest price first
        *[[area for s in SPHERES for area in market_pair(s, prices)]
          for prices in pairs(list(reversed(range(slots))))]], title=w.term("board.market"))
    progress = Mat("progress", f"{deck.game_name}: {w.term('board.humanProgress')}", [
        [Area(f"progress:{c}", w.label("seat." + c), 22, 22) for c in colours],
        [Area(f"regime:{r}", w.term("regimes." + regime_key(r)), 30, 22) for r in REGIMES],
        [slot("draw", w.term("board.drawDeck"), card_w, card_h),
         slot("aside", w.label("tts.set_aside"), card_w, card_h),
         Area("splay", w.term("board.splay"), card_w + 4.0, card_h * 2, fan=True)]], title=w.term("board.humanProgress"))
    mats = [market, progress]
    pieces = [{"type": "Chip_10", "scale": 0.35,
               "nickname": f"{w.label('sphere.' + s)}: {w.label('tts.problem_token')}",
               "colour": SPHERE_RGB[s], "on": ("market", f"problems:{s}"), "count": state.problems[s]}
              for s in SPHERES]
    pieces.append({"type": "BlockSquare", "scale": 0.4, "nickname": w.label("tts.regime_marker"),
                   "colour": (1.0, 1.0, 1.0), "on": ("progress", f"regime:{state.regime}"), "count": 1})
    bags = []
    agent = w.term("agents.agent")
    for seat, colour in enumerate(colours):
        who = w.label("seat." + colour)
        key = f"seat{seat + 1}"
        mats.append(Mat(key, f"{who}: {w.label('tts.player_board')}", [
            [Area("capital", w.term("finance.capital"), 70, 22), Area("pool", w.label("tts.pool"), 40, 48)],
            [Area("wealth", w.term("finance.wealth"), 70, 22)],
            [Area("debt", w.term("finance.debt"), 70, 22), Area("companies", w.term("board.company"), 40, 22)],
            [slot("secret", w.term("board.secretSphere"), card_w, card_h),
             slot("think-tank", w.term("board.thinkTank"), card_w, card_h)],
            [Area(f"patents:{s}", f"{w.term('agents.patent')} {w.icon(s)}", 34, 22) for s in SPHERES]],
            seat=seat, title=f"{who} · {w.label('tts.player_board')}"))
        capital, wealth, debt = state.fin[seat]
        for area, n in (("capital", capital), ("wealth", wealth), ("debt", debt)):
            pieces.append({**AGENT, "nickname": f"{who}: {agent}", "seat": seat, "on": (key, area), "count": n})
        pieces.append({**AGENT, "nickname": f"{who}: {agent}", "seat": seat, "on": ("progress", f"progress:{colour}"),
                       "count": state.marker[seat]})
        pieces.append({"type": "Chip_10", "scale": 0.4, "nickname": f"{who}: {w.label('tts.company_disc')}",
                       "seat": seat, "on": (key, "companies"), "count": content.settings["tycoon_company"]})
        bags.append({"nickname": f"{who}: {w.label('tts.pool')}", "seat": seat, "on": (key, "pool"), "scale": 0.8,
                     "contents": [{**AGENT, "nickname": f"{who}: {agent}", "seat": seat, "count": state.pool[seat]}]})
    k = content.settings["secret_cards"]
    aside = list(state.set_aside)
    offers = [aside[len(aside) - k * (seat + 1):len(aside) - k * seat] for seat in range(players)]
    dealt = {n for offer in offers for n in offer}
    piles = [{"nickname": w.label("sphere." + s), "on": ("market", f"sphere:{s}"), "cards": [boards[s]]}
             for s in SPHERES]
    piles += [{"nickname": w.term("board.market"), "on": ("market", f"market:{s}:{i}"), "face_up": True,
               "cards": [by_name[n]]} for s in SPHERES for i, n in enumerate(state.market[s]) if n]
    piles += [{"nickname": w.term("board.drawDeck"), "on": ("progress", "draw"),
               "cards": [by_name[n] for n in reversed(state.deck)]},           # the state keeps the top last
              {"nickname": w.term("board.splay"), "on": ("progress", "splay"), "face_up": True,
               "cards": [by_name[n] for n, _, _ in state.splay]},
              {"nickname": w.label("tts.set_aside"), "on": ("progress", "aside"),
               "cards": [by_name[n] for n in aside if n not in dealt]}]
    piles += [{"nickname": w.term("board.secretSphere"), "hand": seat, "cards": [by_name[n] for n in offer]}
              for seat, offer in enumerate(offers)]
    return Table(pieces=pieces, bags=bags, mats=mats, piles=piles, seats=players,
                 hand_colours=[HAND_COLOUR[c] for c in colours], seat_rgb=[PIECE_RGB[c] for c in colours],
                 hand_names=[f"{w.label('seat.' + c)} · {w.label('tts.hand')}" for c in colours])
