"""Executable checks of the rulebook's own claims, each linked to its rule clause.

They read the card data and the engine (never the source document): the Audit
table equals its formula, the deck contracts add up, the ring pools make the
stated nineteen tiles, the board's outer ring touches as the text says, and each
faction's starting Mandate already includes the Trust milestones it starts past.
"""

from __future__ import annotations

from collections import Counter

from workbench.rules.checks import check

from . import audit, board
from .data import DOMAINS, factions_start_consistent, load_content


@check("mandate-2038/audit/draws")
def audit_table_matches_formula():
    """The printed Audit profiles equal round(base × players ÷ 4), halves up, min one."""
    r = load_content().rules
    printed = {int(k): list(v) for k, v in r["auditTable"].items()}
    computed = audit.audit_table(tuple(r["auditBaseDraws"]), tuple(sorted(printed)))
    problems = [f"{n} players: printed {printed[n]}, formula gives {computed[n]}"
                for n in sorted(printed) if printed[n] != computed[n]]
    if sorted(printed) != [2, 3, 4, 5]:
        problems.append(f"the table should cover 2–5 players, covers {sorted(printed)}")
    return problems


@check("mandate-2038/components/decks")
def deck_contracts_add_up():
    """40 Training cards = 7 domains × 4 + 4 + 4 + 4; Headlines 6/6/6/6; Mandates 3 per
    Era; 36 Core Actions + 24 + 12 + 40 = 112 standard cards."""
    c = load_content()
    k = c.rules["deckContracts"]
    problems = []
    training = c.training_deck()
    kinds = Counter(c.card_kind[name] for name in training)
    if len(training) != k["training"]:
        problems.append(f"Training deck has {len(training)} cards, contract says {k['training']}")
    domains = Counter(n for n in training if c.card_kind[n] == "domain")
    if sorted(domains) != sorted(DOMAINS) or set(domains.values()) != {k["trainingDomainCopies"]}:
        problems.append(f"domain cards {dict(domains)} are not {k['trainingDomainCopies']} of each of {DOMAINS}")
    for kind in ("curated_corpus", "benchmark_leak", "human_evaluation"):
        if kinds[kind] != k["trainingSpecialCopies"]:
            problems.append(f"{kind}: {kinds[kind]} copies, contract says {k['trainingSpecialCopies']}")
    per_era = Counter(h.era for h in c.headlines)
    if [per_era[e] for e in (1, 2, 3, 4)] != [k["headlinesPerEra"]] * 4:
        problems.append(f"Headlines per Era {dict(per_era)}, contract says {k['headlinesPerEra']} each")
    m_era = Counter(m.era for m in c.mandates)
    if [m_era[e] for e in (1, 2, 3, 4)] != [k["mandatesPerEra"]] * 4:
        problems.append(f"Mandates per Era {dict(m_era)}, contract says {k['mandatesPerEra']} each")
    core = c.supply["coreActionCards"] * len(c.factions)
    if core != k["coreActionCards"]:
        problems.append(f"{c.supply['coreActionCards']} Core Actions × {len(c.factions)} factions = {core}, not {k['coreActionCards']}")
    total = core + len(c.headlines) + len(c.mandates) + len(training)
    if total != k["standardCards"]:
        problems.append(f"standard cards add up to {total}, not {k['standardCards']}")
    return problems


STATED_KINDS = {"frontier": 1, "research": 3, "cloud": 3, "consumer": 2, "media": 2, "government": 2,
                "renewable": 2, "chip": 1, "capital": 1, "talent": 1, "grid": 1}


@check("mandate-2038/setup/board")
def pools_make_nineteen_tiles():
    """Centre + operational ring (6) + public ring (12) = 19 tiles of the stated kinds."""
    c = load_content()
    pools = c.pools
    problems = []
    if (len(pools["center"]), len(pools["operational"]), len(pools["public"])) != (1, 6, 12):
        problems.append("pools must hold 1, 6 and 12 tiles")
    counts = Counter(pools["center"] + pools["operational"] + pools["public"])
    if dict(counts) != STATED_KINDS:
        problems.append(f"tile kinds {dict(counts)} differ from the stated {STATED_KINDS}")
    total = sum(counts.values())
    if total != c.raw["content"]["gameConfig"]["board"]["selectedTileCount"] or total != len(board.COORDS):
        problems.append(f"{total} tiles for {len(board.COORDS)} positions")
    return problems


@check("mandate-2038/board/adjacency")
def outer_ring_touches():
    """Every outer tile touches its two outer neighbours and one or two inner tiles."""
    problems = []
    for pos in board.OUTER:
        outer = [n for n in board.ADJ[pos] if board.RINGS[n] == 2]
        inner = [n for n in board.ADJ[pos] if board.RINGS[n] == 1]
        if len(outer) != 2 or len(inner) not in (1, 2):
            problems.append(f"outer position {board.COORDS[pos]} touches {len(outer)} outer and {len(inner)} inner")
    return problems


@check("mandate-2038/setup/factions")
def faction_starts():
    """Starting Mandate includes the milestones the printed starts have passed."""
    return factions_start_consistent()


# -- setup and flow, proved on fresh and played games ------------------------------------

def _fresh(players: int = 4, seed: int = 1):
    from .game import GAME
    return GAME, GAME.new_initial_state(GAME.config(players, seed=seed))


@check("mandate-2038/setup/pieces")
def setup_pieces():
    """Two Agents per player on Frontier, two in supply; no Facility or Generator on the
    board; every Scrutiny cube outside an empty bag."""
    problems = []
    for n in (2, 5):
        game, s = _fresh(n)
        # no Headline moves pieces, so the position after the first reveal shows the setup
        for seat, p in enumerate(s.players):
            if p.agents.count(board.FRONTIER_POS) != 2 or p.agents.count(None) != 2:
                problems.append(f"{n} players: seat {seat} Agents {p.agents}")
            if any(f is not None for f in p.facilities) or p.generator is not None:
                problems.append(f"{n} players: seat {seat} starts with pieces built")
        # before Era I begins (a Headline may add Scrutiny at once): the bag is empty,
        # the Systemic Risk cubes wait in supply, no project chip is built, and each
        # faction's printed Mandate is on the track
        bare = game._setup(game.config(n, seed=1))
        if any(p.bag for p in bare.players) or bare.bag_black:
            problems.append(f"{n} players: the Audit bag does not start empty")
        if bare.black_supply != bare.content.shared["systemicRiskCubes"]:
            problems.append(f"{n} players: {bare.black_supply} Systemic Risk cubes in supply")
        for seat, p in enumerate(bare.players):
            start = bare.content.faction_by_name[p.faction.lower()].start
            if p.projects or p.mandate != start.mandate:
                problems.append(f"{n} players: seat {seat} starts with projects {p.projects} or Mandate {p.mandate}")
    return problems


@check("mandate-2038/setup/decks", "mandate-2038/setup/initiative")
def setup_decks_and_initiative():
    """Headline decks are split by Era (6 each, one revealed for cycle 1), the Training
    deck is whole, one Mandate card is in force, and Initiative is drawn from the seed."""
    problems = []
    holders = set()
    for seed in range(12):
        game, s = _fresh(4, seed)
        sizes = [len(d) for d in s.headline_decks]
        if sizes != [5, 6, 6, 6]:
            problems.append(f"seed {seed}: Headline decks {sizes} after the first reveal")
        if len(s.deck) + len(s.discard) != 40:
            problems.append(f"seed {seed}: Training deck has {len(s.deck)} cards")
        if s.mandate_card not in [m.name for m in s.content.mandates if m.era == 1]:
            problems.append(f"seed {seed}: Mandate {s.mandate_card} is not an Era I card")
        holders.add(s.initiative)
    if len(holders) < 2:
        problems.append("Initiative never changes with the seed")
    return problems


@check("mandate-2038/overview/era-structure", "mandate-2038/cycle/headline", "mandate-2038/resources/trust-floor",
       "mandate-2038/final-scoring/sequence",
       "mandate-2038/cycle/one-action")
def four_eras_of_three_cycles():
    """A played game reveals twelve Headlines (three per Era), scores four Era Mandates,
    and every player resolves exactly three Core Actions per Era."""
    from workbench.core.bots import make_bots
    from workbench.core.play import play_game
    from .game import GAME
    state, log = play_game(GAME, GAME.config(3, seed=4), make_bots("random", 3))
    problems = []
    if len(state.timeline) != 12:
        problems.append(f"{len(state.timeline)} Headlines revealed")
    if [m["era"] for m in state.mandate_results] != [1, 2, 3, 4]:
        problems.append(f"Mandates scored in Eras {[m['era'] for m in state.mandate_results]}")
    selects = [line for line in log if line.startswith("select ")]
    if len(selects) != 3 * 4 * 3:
        problems.append(f"{len(selects)} selections for 3 players in 12 cycles")
    return problems


SOURCE_CONTRACTS = ["none", "compute", "compute", "runway", "compute", "runway", "runway", "runway", "runway",
                    "compute", "runway"]


@check("mandate-2038/board/district-table")
def district_table_contracts():
    """The district rows carry the contract icons the source's table prints, row by
    row, and every district of the pools has a row."""
    c = load_content()
    rows = c.raw["content"]["gameConfig"]["board"]["tiles"]
    got = [r["contract"] or "none" for r in rows]
    problems = [] if got == SOURCE_CONTRACTS else [f"contract icons {got} differ from {SOURCE_CONTRACTS}"]
    missing = set(STATED_KINDS) - {r["key"] for r in rows}
    if missing:
        problems.append(f"no row for {sorted(missing)}")
    return problems


@check("mandate-2038/board/presence-control", "mandate-2038/influence/no-presence")
def control_follows_presence():
    """Most presence (Agents and Facilities) controls; a tie or an empty district has
    no controller; Frontier never has one."""
    game, s = _fresh(3, 2)
    problems = []
    pos = board.INNER[0]
    for p in s.players:
        p.agents = [None] * 4
        p.facilities = [None] * 4
    if board.controller(s, pos) is not None:
        problems.append("an empty district has a controller")
    s.players[0].agents[0] = pos
    if board.controller(s, pos) != 0:
        problems.append("a lone Agent does not control")
    s.players[1].facilities[0] = pos
    if board.controller(s, pos) is not None:
        problems.append("one Agent against one Facility is not a tie")
    s.players[1].agents[0] = pos
    if board.controller(s, pos) != 1:
        problems.append("two presence do not beat one")
    for p in s.players:
        p.agents[1] = board.FRONTIER_POS
    s.players[0].agents[2] = board.FRONTIER_POS
    if board.controller(s, board.FRONTIER_POS) is not None:
        problems.append("Frontier has a controller")
    return problems


# --------------------------------------------------------------------------- the source's
# smaller rules the full rulebook states (sections 2-8); each pins the engine on a
# fresh position so a change of the rule module shows here.

@check("mandate-2038/audit/bag-empty")
def audit_stops_when_bag_empty():
    """Five players in Era IV draw six cubes; a bag of two gives two losses and stops."""
    game, s = _fresh(5, 3)
    s.era = 4
    for p in s.players:
        p.bag, p.runway, p.trust = 0, 5, 3
    s.bag_black = 0
    s.players[0].bag = 2
    before = s.players[0].runway
    audit.public_audit(s)
    problems = []
    if s.players[0].bag != 0:
        problems.append(f"{s.players[0].bag} cubes left in a bag that should be empty")
    if before - s.players[0].runway != 2:
        problems.append(f"two drawn cubes cost {before - s.players[0].runway} Runway")
    if any(p.runway != 5 for p in s.players[1:]):
        problems.append("players with no cube in the bag lost Runway")
    return problems


@check("mandate-2038/agi/recorded")
def recognition_survives_audit():
    """A declared AGI stays recorded when the Audit then takes the Trust that qualified it."""
    from . import agi, world_ending
    game, s = _fresh(2, 5)
    s.era = 4
    p = s.players[0]
    p.compute, p.trust, p.runway, p.bag = 5, s.content.agi["trust"], 0, 0
    agi.declare(s, 0)
    s.bag_black = 0
    for q in s.players[1:]:
        q.bag = 0
    audit.public_audit(s)
    problems = []
    if p.trust >= s.content.agi["trust"]:
        problems.append("the Audit did not cost the declaring player Trust (check set-up)")
    if not p.agi or not agi.any_recognized(s):
        problems.append("recognition was lost with the Trust")
    if world_ending.ending(s) not in (world_ending.TABLE[(True, True)], world_ending.TABLE[(True, False)]):
        problems.append(f"the World Ending {world_ending.ending(s)!r} no longer reads the recognition")
    return problems


@check("mandate-2038/build/once-per-institution")
def project_once_per_institution():
    """A built personal project is never offered again to its builder, even on another host."""
    from . import build
    game, s = _fresh(2, 1)
    s.era = 4
    p = s.players[0]
    pos = board.INNER[0]
    p.facilities[0] = pos
    p.runway, p.compute = 12, 10
    offered = build.project_options(s, 0, pos, 12, 10, None)
    words = {o.split(" on ")[0] for o in offered if " on " in o}
    if not words:
        return ["no personal project offered on a connected Facility in Era IV (check set-up)"]
    first = sorted(words)[0]
    pid = next(k for k, w in build.WORD_OF.items() if w == first)
    p.facilities[1] = board.INNER[1]      # a second host elsewhere changes nothing
    p.projects = {**p.projects, pid: 1}
    again = {o.split(" on ")[0] for o in build.project_options(s, 0, pos, 12, 10, None) if " on " in o}
    return [f"{first} offered again after it was built"] if first in again else []


@check("mandate-2038/build/facilities-stay", "mandate-2038/resources/capability-spent",
       "mandate-2038/cycle/initiative", "mandate-2038/research/unique-domains")
def pieces_and_tracks_over_whole_games():
    """Over whole games: a built Facility never leaves the board (it only relocates),
    Capability never goes down (no effect spends it), Initiative moves one seat
    clockwise after every cycle, never otherwise, and only the seven ordinary domains
    are recorded as banked."""
    from workbench.core.bots import make_bots
    from workbench.core.rng import Rng, derive_seed
    from .game import GAME
    problems = []
    for seed in (2, 7):
        state = GAME.new_initial_state(GAME.config(3, seed=seed))
        agents = make_bots("random", 3)
        rngs = [Rng(derive_seed(seed, "bot", k)) for k in range(3)]
        prev = state.clone()
        while not state.is_terminal():
            seat = state.current_player()
            state.apply_action(agents[seat].choose(GAME, state, rngs[seat]))
            for a, b in zip(prev.players, state.players):
                if any(x is not None and y is None for x, y in zip(a.facilities, b.facilities)):
                    problems.append(f"seed {seed}: a Facility of {a.faction} left the board")
                if b.capability < a.capability:
                    problems.append(f"seed {seed}: {a.faction}'s Capability fell {a.capability} -> {b.capability}")
                odd = set(b.rec.get("domains", ())) - set(DOMAINS)
                if odd:
                    problems.append(f"seed {seed}: {sorted(odd)} counted as banked domains")
            if state.initiative != prev.initiative and state.initiative != (prev.initiative + 1) % state.n:
                problems.append(f"seed {seed}: Initiative jumped from seat {prev.initiative} to {state.initiative}")
            prev = state.clone()
            if len(problems) > 3:
                return problems
    return problems


@check("mandate-2038/production/compute-before-cap")
def compute_produced_counts_before_cap():
    """A Compute Facility producing at the cap still counts its printed output for the
    Era Mandate's 'Compute produced'."""
    from . import production
    game, s = _fresh(2, 1)
    kind = next(k for k, t in s.content.tile_kinds.items() if t.yield_.get("compute"))
    pos = next(i for i, t in enumerate(s.tiles) if t == kind)
    p = s.players[0]
    p.facilities[0] = pos
    p.compute = s.content.rules["computeCap"]
    p.rec = {}
    production.produce_facility(s, 0, 0, count=True)
    want = s.content.tile_kinds[kind].yield_["compute"]
    got = p.rec.get("compute_produced", 0)
    return [] if got == want else [f"Compute produced counted {got} at the cap, printed output is {want}"]


@check("mandate-2038/board/frontier-category")
def frontier_is_no_category():
    """Holding most presence on Frontier adds no category to 'controlled categories'."""
    from . import mandate_scoring
    game, s = _fresh(2, 1)
    for p in s.players:
        p.agents = [None] * len(p.agents)
    s.players[0].agents[0] = board.FRONTIER_POS
    s.players[0].agents[1] = board.FRONTIER_POS
    n = mandate_scoring.value(s, 0, "controlled_categories")
    return [] if n == 0 else [f"Frontier counted as {n} categories"]


@check("mandate-2038/cards/headline-production")
def headline_production_connected_only():
    """A Headline's immediate production runs only the connected Facilities of the named
    kind, and counts for no Era Mandate."""
    from . import production
    game, s = _fresh(2, 1)
    kind = next(k for k, t in s.content.tile_kinds.items() if t.yield_.get("runway"))
    spots = [i for i, t in enumerate(s.tiles) if t == kind]
    p = s.players[0]
    p.runway, p.rec = 0, {}
    p.facilities[0] = spots[0]            # Facility 1: always connected
    p.facilities[1] = spots[-1]           # no Generator anywhere: offline
    if board.is_connected(s, 0, 1):
        return ["set-up: the second Facility should be offline"]
    production.facilities_of_kind(s, 0, kind)
    want = s.content.tile_kinds[kind].yield_["runway"]
    problems = [] if p.runway == want else [f"{p.runway} Runway from one connected Facility (printed {want})"]
    if p.rec.get("compute_produced"):
        problems.append("Headline production counted toward Compute produced")
    return problems


@check("mandate-2038/mandate-scoring/no-tiebreak")
def mandate_tie_not_broken():
    """Two qualifiers tied on the card's criterion score one each, however their
    resources and control differ."""
    from . import mandate_scoring
    game, s = _fresh(3, 1)
    card = next(m for m in s.content.mandates if m.criterion == "trust")
    s.mandate_card = card.name
    for i, p in enumerate(s.players):
        p.trust = max(card.minimum, 1) if i < 2 else 0
        p.runway, p.compute = (12, 10) if i == 0 else (0, 0)
    before = [p.mandate for p in s.players]
    mandate_scoring.score(s)
    gained = [p.mandate - b for p, b in zip(s.players, before)]
    return [] if gained[:2] == [1, 1] and gained[2] == 0 else [f"tied leaders scored {gained}"]


@check("mandate-2038/research/run")
def training_run_copied_with_position():
    """A copy of a position in the middle of a Training run holds its own run: a card
    turned on the copy is not turned in the original (the cards seen, the provisional
    Capability), so a look-ahead or a replay from the copy leaves the table's run alone."""
    from workbench.core.rng import Rng
    from .game import GAME
    from .notation import Move
    draw = Move("draw")
    for seed in (3, 11):
        state = GAME.new_initial_state(GAME.config(3, seed=seed))
        rng = Rng(seed)
        while not state.is_terminal() and not (state.run is not None and draw in state.legal_actions()):
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        before = GAME.observe(state)["run"]
        copy = state.clone()
        copy.apply_action(draw)
        after = GAME.observe(state)["run"]
        if after != before:
            return [f"seed {seed}: turning a card on a copy changed the original's run {before} -> {after}"]
        return []
    return ["no seeded game reached a Training run with a card still to turn"]


@check("mandate-2038/cycle/agents")
def listing_independent_of_kept_district_classes():
    """An Agent may act on any district: the moves listed on a position are the same
    whether the districts' kinds were sorted into classes afresh or kept from the
    positions listed before (tables.kind_classes keeps the last board's classes, and
    build the words of each project's hosts)."""
    from workbench.core.rng import Rng
    from . import build, tables
    from .game import GAME
    state = GAME.new_initial_state(GAME.config(2, seed=5))
    rng = Rng(5)
    problems: list[str] = []
    for _ in range(160):   # into Era II, where the Build listing names projects
        if state.is_terminal():
            break
        kept = list(state.clone().legal_actions())
        tables._CLASSES.clear()
        build._ON_FACILITY.clear()
        fresh = list(state.clone().legal_actions())
        if fresh != kept:
            problems.append(f"cycle {state.cycle}, {state.phase}: {len(fresh)} moves listed afresh, {len(kept)} kept")
        state.apply_action(rng.choice(kept))
    return problems
