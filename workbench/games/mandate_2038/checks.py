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
from .data import DOMAINS, load_content


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


def factions_start_consistent() -> list[str]:
    """Each faction's printed Mandate includes the Trust and Capability milestones its
    printed starts have already passed (they are never scored again)."""
    c = load_content()
    r = c.rules
    problems = []
    for f in c.factions:
        owed = r["milestoneMandate"] * (sum(1 for t in r["trustMilestones"] if t <= f.start.trust)
                                        + sum(1 for t in r["capabilityMilestones"] if t <= f.start.capability))
        if f.start.mandate < owed:
            problems.append(f"factions.yaml, faction {f.name!r}, field 'start.mandate': {f.start.mandate} "
                            f"is less than the {owed} its starting milestones already awarded")
    return problems


@check("mandate-2038/setup/factions")
def faction_starts():
    """Starting Mandate includes the milestones the printed starts have passed."""
    return factions_start_consistent()


# -- setup and flow, proved on fresh and played games ------------------------------------

def _fresh(players: int = 4, seed: int = 1):
    from . import GAME
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


@check("mandate-2038/overview/era-structure", "mandate-2038/cycle/headline")
def four_eras_of_three_cycles():
    """A played game reveals twelve Headlines (three per Era), scores four Era Mandates,
    and every player resolves exactly three Core Actions per Era."""
    from workbench.core.bots import make_bots
    from workbench.core.play import play_game
    from . import GAME
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


@check("mandate-2038/board/presence-control")
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
