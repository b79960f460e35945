"""Python checks of Pax Transhumanity's computable clauses, each comparing the
engine with the rule written out independently here: the Regime from the Cutting
Edge, the finance track, Fundraise's three steps, action costs and their doubling,
patent sale values, the endings and their scoring."""

from __future__ import annotations

from itertools import product
from typing import TYPE_CHECKING

from workbench.rules.checks import check

from .data import SPHERES

if TYPE_CHECKING:
    from .state import PaxState

G = "pax-transhumanity"


def _state(setup: dict):
    from .game import GAME
    return GAME.scenario_state(setup)


@check(f"{G}/regime/table", f"{G}/regime/cutting-edge")
def regime_table_every_cutting_edge():
    """Every Cutting Edge of 1 to 3 bands (and longer Splays) gets the Regime of the table."""
    from .regime import cutting_edge, regime_for
    names = {"yellow": "Transbiology", "green": "Group Dynamics", "blue": "Computing", "orange": "Assembly"}
    problems = []
    for n in range(1, 5):
        for bands in product(SPHERES, repeat=n):
            edge = list(bands[-3:])
            want = "Globalization"
            pairs = [c for c in SPHERES if edge.count(c) == 2]
            if len(edge) >= 2 and pairs:
                want = names[pairs[0]]
            elif len(edge) == 3 and len(set(edge)) == 1:
                want = "Paradigm Shift"
            got = regime_for(cutting_edge([("x", b, ()) for b in bands]))
            if got != want:
                problems.append(f"{bands}: engine {got}, rule {want}")
    return problems


@check(f"{G}/money/finance-track", f"{G}/money/install", f"{G}/money/divest")
def finance_track_moves():
    """Paying moves the topmost agent one box down; installing takes the topmost; divesting adds to Wealth."""
    from .finance import divest, install, move_finance_agent, track_money
    problems = []
    for c, w, d in product(range(4), repeat=3):
        st = _state({"players": 2, "players_state": {"Alex": {"capital": c, "wealth": w, "debt": d}}})
        if track_money(st, 0) != 2 * c + w:
            problems.append(f"{(c, w, d)}: can pay {track_money(st, 0)}, rule {2 * c + w}")
        if c or w:
            move_finance_agent(st, 0)
            want = [c - 1, w + 1, d] if c else [c, w - 1, d + 1]
            if st.fin[0] != want:
                problems.append(f"pay $1 from {(c, w, d)} gave {st.fin[0]}, rule {want}")
        st = _state({"players": 2, "players_state": {"Alex": {"capital": c, "wealth": w, "debt": d}}})
        if c or w or d:
            install(st, 0)
            want = [c - 1, w, d] if c else ([c, w - 1, d] if w else [c, w, d - 1])
            if st.fin[0] != want:
                problems.append(f"install from {(c, w, d)} gave {st.fin[0]}, rule {want}")
        divest(st, 0)
    return problems


@check(f"{G}/fundraise/steps")
def fundraise_three_steps():
    """Steps 2 and 3: pair Capital with Debt into Wealth while both last, then Wealth to Capital."""
    from .fundraise import fundraise_steps
    problems = []
    for c, w, d in product(range(6), repeat=3):
        cc, ww, dd = c, w, d
        while cc and dd:
            cc, dd, ww = cc - 1, dd - 1, ww + 2
        want = (cc + ww, 0, dd)
        if fundraise_steps(c, w, d) != want:
            problems.append(f"{(c, w, d)}: engine {fundraise_steps(c, w, d)}, rule {want}")
    st = _state({"players": 2, "players_state": {"Alex": {"capital": 2, "wealth": 1, "debt": 3,
                                                          "patents": {"blue": 1}, "employees": ["yellow T1"]}}})
    for text in ("fundraise", "divest patent blue", "divest employee yellow T1", "raise"):
        st.apply_action(text)
    if st.fin[0] != [7, 0, 1] or st.patents[0].get("blue") or st.staff.get("yellow T1"):
        problems.append(f"fundraise with two divestments gave {st.fin[0]}")
    return problems


@check(f"{G}/commercialize/cost", f"{G}/research/cost", f"{G}/labour/subsidized",
       f"{G}/regime/assembly", f"{G}/regime/globalization", f"{G}/regime/computing")
def action_costs_and_doubling():
    """Cost = uncovered Barriers of the sphere, doubled if labour or act is not Subsidized (default reading)."""
    from . import commercialize, research
    problems = []
    regimes = {"Globalization": ["Orbital Mirror/orange"],
               "Assembly": ["Orbital Mirror/orange", "Mycelium Brick/orange"],
               "Computing": ["Space Elevator Tether/blue", "Longevity Escape Pill/blue"]}
    for regime, splay in regimes.items():
        for sphere in SPHERES:
            st = _state({"players": 2, "splay": splay, "market": {sphere: ["Gene Drive"]}})
            developing = st.content.boards[sphere].developing_world
            for key in st.content.sphere_places[sphere]:
                place = st.content.places[key]
                st.staff = {key: (0,)}          # the only Employee of the sphere, doing the labour
                uncovered = sum(1 for k in st.content.sphere_places[sphere]
                                if st.content.places[k].kind == "barrier" and k != key)
                labour_sub = place.kind == "utility"
                if place.side == "M":
                    act_sub = regime == "Assembly" or (regime == "Globalization" and developing)
                    want = uncovered if (labour_sub and act_sub) else 2 * uncovered
                    got = commercialize.cost(st, "Gene Drive", key)
                else:
                    act_sub = regime == "Globalization" and developing
                    want = 0 if regime == "Computing" else (uncovered if (labour_sub and act_sub) else 2 * uncovered)
                    got = research.cost(st, sphere, key)
                if got != want:
                    problems.append(f"{regime}, labour at {key}: engine {got}, rule {want}")
    return problems


@check(f"{G}/hire/cost", f"{G}/syndicate/price", f"{G}/regime/group-dynamics", f"{G}/regime/paradigm-shift")
def hire_and_syndicate_prices():
    """Hire costs 3 (0 under Group Dynamics); Syndicate costs the height, doubled after a rival, 0 under Paradigm Shift."""
    from .hire import hire_cost
    from .syndicate import price
    problems = []
    st = _state({"players": 2})
    if hire_cost(st) != 3:
        problems.append(f"hire costs {hire_cost(st)}")
    st = _state({"players": 2, "splay": ["Synthetic Genome/green", "Open Source Seed Bank/green"]})
    if hire_cost(st) != 0:
        problems.append(f"hire under Group Dynamics costs {hire_cost(st)}")
    for slot in range(6):
        col = [None] * slot + ["Protein Folding Engine"]
        st = _state({"players": 2, "market": {"yellow": col}})
        if price(st, 0, "Protein Folding Engine") != slot:
            problems.append(f"price at height {slot}: {price(st, 0, 'Protein Folding Engine')}")
        st = _state({"players": 2, "market": {"yellow": col},
                     "players_state": {"Brooke": {"syndications": ["Protein Folding Engine"]}}})
        if price(st, 0, "Protein Folding Engine") != 2 * slot:
            problems.append(f"price after a rival at height {slot}: {price(st, 0, 'Protein Folding Engine')}")
        st = _state({"players": 2, "market": {"yellow": col},
                     "splay": ["Gene Drive/yellow", "Swarm Robotics/yellow", "Attention Filter/yellow"]})
        if price(st, 0, "Protein Folding Engine") != 0:
            problems.append("Syndicate is not free under Paradigm Shift")
    return problems


@check(f"{G}/money/patent-sale")
def patent_sale_values():
    """Visible bands of the colour; doubled for the dominant sphere, every one doubled under Paradigm Shift."""
    from .finance import patent_value
    from .regime import cutting_edge, dominant_sphere, regime_for
    problems = []
    for bands in product(SPHERES, repeat=4):
        cards = {"yellow": ["Gene Drive", "Swarm Robotics", "Attention Filter", "Drone Courier"],
                 "green": ["Synthetic Genome", "Open Source Seed Bank", "Quantum Annealer", "Empathy Amplifier"],
                 "blue": ["Space Elevator Tether", "Longevity Escape Pill", "Fusion Torus", "Sleep Compression"],
                 "orange": ["Orbital Mirror", "Mycelium Brick", "Xenotransplant", "Nootropic Stack"]}
        used = {c: 0 for c in SPHERES}
        splay = []
        for b in bands:
            splay.append(f"{cards[b][used[b]]}/{b}")
            used[b] += 1
        st = _state({"players": 2, "splay": splay})
        regime = regime_for(cutting_edge(st.splay))
        for colour in SPHERES:
            want = bands.count(colour)
            if regime == "Paradigm Shift" or dominant_sphere(regime) == colour:
                want *= 2
            if patent_value(st, colour) != want:
                problems.append(f"{bands} {colour}: {patent_value(st, colour)}, rule {want}")
    return problems


@check(f"{G}/scoring/normal", f"{G}/scoring/globalization", f"{G}/scoring/paradigm-shift",
       f"{G}/scoring/singular", f"{G}/scoring/plurality", f"{G}/scoring/tie-break",
       f"{G}/ending/tipping-points", f"{G}/ending/singular", f"{G}/ending/plurality", f"{G}/ending/tycoon")
def endings_and_scoring():
    """The scoring of each ending on a fixed position, worked out by hand from the clauses."""
    from . import scoring
    problems = []
    holdings = {"Alex": {"secret": "yellow", "companies": ["yellow M1", "green T1"], "solved": {"yellow": 1, "blue": 2}},
                "Brooke": {"secret": "blue", "companies": ["blue T2"], "solved": {"green": 1, "blue": 1}}}
    fs_splay = [{"card": "Drone Courier", "down": "yellow", "future_shock": ["Brooke", "Brooke"]},
                {"card": "Xenotransplant", "down": "orange", "future_shock": ["Alex"]}]
    cases = [
        # (extra splay giving the Regime, ending, Alex, Brooke)
        # Transbiology: Alex yellow (dominant, Secret) 2 x 3; Brooke blue (Secret) 2 x 1
        (["Gene Drive/yellow", "Swarm Robotics/yellow"], "tipping-point", 2 * 3, 2 * 1),
        # Computing: Alex blue (dominant) 2 x 2 + yellow (Secret) 2 x 1; Brooke blue (both) 2 x 3
        (["Space Elevator Tether/blue", "Fusion Torus/blue"], "tipping-point", 2 * 2 + 2, 2 * 3),
        (["Synthetic Genome/green", "Gene Drive/yellow"], "tipping-point", 2, 2),                 # Globalization
        (["Synthetic Genome/green", "Quantum Annealer/green", "Empathy Amplifier/green"], "tipping-point", 1, 2),  # PS
        (["Synthetic Genome/green", "Gene Drive/yellow"], "singular", 1, 2),
        (["Synthetic Genome/green", "Gene Drive/yellow"], "plurality", 3 + 1, 2 + 1),
    ]
    for extra, ending, alex, brooke in cases:
        st = _state({"players": ["Alex", "Brooke"], "splay": fs_splay + extra, "players_state": holdings})
        st.ending = ending
        got = scoring.scores(st)
        if got != [alex, brooke]:
            problems.append(f"{ending} under {st.regime}: engine {got}, rule {[alex, brooke]}")
    st = _state({"players": ["Alex", "Brooke"], "players_state": {
        "Alex": {"solved": {"green": 1}, "capital": 2, "wealth": 1},
        "Brooke": {"solved": {"green": 1}, "capital": 2, "wealth": 4}}, "secret": {"Alex": "blue", "Brooke": "blue"}})
    st.ending = "plurality"
    if scoring.winners(st) != [1]:
        problems.append(f"tie on score and Capital should go to more Wealth; winners {scoring.winners(st)}")
    st.ending = "tycoon"
    st.tycoon = 0
    if scoring.winners(st) != [0]:
        problems.append("the Tycoon does not win")
    return problems


@check(f"{G}/setup/player-boards", f"{G}/setup/spheres", f"{G}/setup/draw-deck", f"{G}/setup/tipping-points",
       f"{G}/setup/market-deal", f"{G}/setup/splay-start", f"{G}/setup/agents")
def setup_for_every_player_count():
    """Boards by player count, 6 Market slots per sphere, the Tipping Points in the lower half
    of the 24 remaining cards, Plurality at the bottom, over many seeds."""
    from workbench.core.errors import WorkbenchError
    from .data import content
    from .game import GAME
    from .scenario import agent_total
    problems = []
    boards = {1: ("blue",), 2: ("blue", "red"), 3: ("blue", "pink", "red"), 4: ("blue", "black", "pink", "red")}
    tps = set(content().tipping_points)
    for n, colours in boards.items():
        for seed in range(10):
            st = GAME.new_initial_state(GAME.config(n, seed=seed))
            if st.colours != colours:
                problems.append(f"{n} players sit at {st.colours}, rule {colours}")
            counts = {s: sum(1 for c in st.market[s] if c) for s in SPHERES}
            if counts != {"yellow": 6, "green": 6, "blue": 1, "orange": 1} or any(len(st.market[s]) != 6 for s in SPHERES):
                problems.append(f"Market dealt {counts}")
            top_first = st.deck[::-1]
            if len(top_first) != 28 or top_first[-1] != content().plurality:
                problems.append(f"Draw Deck of {len(top_first)}, bottom {top_first[-1]}")
            # after the Splay took the top card: 11 cards of the upper half, then 16 with the Tipping Points
            if set(top_first[11:27]) & tps != tps:
                problems.append(f"seed {seed}: a Tipping Point is outside the lower half")
            if len(st.splay) != 1 or any(agent_total(st, s) != 14 for s in range(n)):
                problems.append("Splay or agents wrong at setup")
    try:
        GAME.new_initial_state(GAME.config(5))
        problems.append("five players were accepted")
    except WorkbenchError:
        pass
    return problems


@check(f"{G}/commercialize/future-shock")
def future_shock_follows_the_side_put_down():
    """Heat agents become Future Shock agents on the side of the card put down: with the
    right-hand discipline down they stand on that band, and a rival's idea needing
    that band's pair is no longer feasible through it."""
    from .commercialize import splay_feasible
    state = _state({"players": ["Alex", "Brooke"],
                    "splay": ["Orbital Mirror/orange", "Gene Drive/yellow", "Synthetic Genome/green"],
                    "market": {"yellow": ["Carbon Capture Reef"]},
                    "players_state": {"Alex": {"syndications": ["Carbon Capture Reef"],
                                               "heat": {"Carbon Capture Reef": ["white", "white"]},
                                               "employees": ["yellow M2"]}}})
    right = state.idea("Carbon Capture Reef").disciplines[1]
    state.apply_action(f"commercialize Carbon Capture Reef down {right} via splay labour yellow M2")
    while state.decision is not None:          # the card's own effects (where the Company goes)
        state.apply_action(state.legal_actions()[0])
    card, band, owners = state.splay[-1]
    problems = []
    if (card, band) != ("Carbon Capture Reef", right):
        problems.append(f"the Splay ends with {card}/{band}, not Carbon Capture Reef/{right}")
    if [o for o in owners if o is not None] != [0, 0]:
        problems.append(f"Future Shock agents on the card: {owners}")
    prev_band = state.splay[-2][1]
    if splay_feasible(state, 1, (prev_band, right)):
        problems.append("a rival still uses the pair the Future Shock agents now stand on")
    if not splay_feasible(state, 0, (prev_band, right)):
        problems.append("the owner of the Future Shock agents cannot use their own pair")
    return problems


def _drawn_mismatch(state: PaxState, legal: list, streams: int) -> str | None:
    """Draw a main action with ``streams`` seeded streams (``sample_legal_action``) and
    compare each with the action at the index a copy of the same stream draws from
    the listing; the first difference, or None. A copy of a real stream is used, not a
    stand-in object, because the compiled build accepts only the workbench's own Rng."""
    from workbench.core.rng import Rng
    for seed in range(streams):
        rng = Rng(seed)
        i = rng.copy().randbelow(len(legal))
        got, k = state.sample_legal_action(rng)
        if got != legal[i] or k != len(legal):
            return f"stream {seed} drew {got} of {k}, the listing has {legal[i]} of {len(legal)} at index {i}"
    return None


@check(f"{G}/turn/two-actions")
def every_drawn_action_is_the_listed_one():
    """A random player's draw of a main action (``sample_legal_action``, which counts the
    Syndicates and Hires without listing them) gives, for every index, the action at that
    index of the list of legal actions (drawn by seeded streams), in positions of seeded games of 1 to 4 players and
    in a position where the player to move cannot pay for a Hire."""
    from workbench.core.rng import Rng

    from .game import GAME
    problems = []
    broke = _state({"players": 2, "players_state": {"Alex": {"capital": 0, "wealth": 0, "debt": 2}}})
    legal = broke.legal_actions()
    # three streams per listed action: almost every index is drawn at least once
    wrong = _drawn_mismatch(broke, legal, 3 * len(legal))
    if wrong:
        return [f"no money: {wrong}"]
    for players, seed in ((1, 5), (2, 7), (3, 11), (4, 13)):
        state = GAME.new_initial_state(GAME.config(players, seed=seed, round_limit=6))
        walk = Rng(seed)
        for step in range(40):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            wrong = _drawn_mismatch(state, legal, 3 * len(legal))
            if wrong:
                problems.append(f"{players} players, seed {seed}, step {step}: {wrong}")
                return problems
            state.apply_action(walk.choice(legal))
    return problems
