"""The card graph of a game that writes no graph module of its own: built from
the cost and reward fields the game declares (``Game.card_fields``).

A :class:`CardFields` says where the cards are (file, path), which resources
there are, which mapping field of a card is its cost and which fields are what
it gives (a mapping of resource -> amount, e.g. a permanent discount, or a plain
number such as points). :class:`GenericGraph` then offers what every card-graph
module offers (``CATALOGUE``, ``build_graph``, ``analyses``), so ``workbench
graph``, the Cards and Graph pages and the balance search work on the game:

- the graph has a hub per resource (``hub=True``), an edge resource -> card for
  every resource a card costs and card -> resource for every resource it gives;
- ``card_status``: a card is dead when it costs a resource that nothing gives and
  the game does not hand out (``CardFields.base``), dominated when another card of
  its kind costs no more of anything and gives no less of anything (and differs)
  and the two cards are alike in everything else; where they differ in a field
  the model does not weigh (how many copies there are, a set size, a rule text),
  the pair is listed under ``cannot_judge`` with that field instead: the model
  cannot see whether that difference makes up for the cost;
- ``bottlenecks``: per resource, the cards that need it and give it, the total
  asked; the bottleneck is the resource asked most per card that gives it.

What it cannot tell: how often a resource comes, the order of play, any rule
text; a game that needs those writes its own graph module (docs/reference/game-contract.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx
import polars as pl

from .pool_edit import CardKind, Catalogue


@dataclass(frozen=True)
class CardFields:
    """Where a game's cards are and which fields are costs and rewards."""

    file: str                              # the card file, e.g. "cards.yaml"
    path: tuple[str, ...]                  # where the list of cards is inside it, e.g. ("cards",)
    resources: tuple[str, ...]             # every resource a cost or reward may name
    cost: str = "cost"                     # the card's mapping field resource -> amount it costs
    rewards: tuple[str, ...] = ()          # fields of what it gives: a mapping or a number
    base: tuple[str, ...] = ()             # resources every player gets without a card
    kind: str = "card"                     # the card kind's table label
    extra_columns: dict[str, str] = field(default_factory=dict)   # more flat columns -> dotted path
    copies: str | None = None              # the field saying how many copies of a card there are
    #: the fields the Cards page edits and what each holds (:data:`FIELD_TYPES`): a
    #: "tokens" field is a mapping key -> count, one column per key (the resources
    #: for the cost and rewards, else the keys the cards use); empty: the cost and
    #: reward columns and ``extra_columns``
    fields: dict[str, str] = field(default_factory=dict)


#: what a declared card field holds
FIELD_TYPES = ("count", "number", "text", "list", "tokens")


def _amounts(card: dict, key: str) -> dict[str, float]:
    value = card.get(key)
    if isinstance(value, dict):
        return {str(k): float(v) for k, v in value.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return {key: float(value)}
    return {}


def _text(amounts: dict[str, float]) -> str:
    return " ".join(f"{k}{'+' if v >= 0 else ''}{v:g}" for k, v in amounts.items() if v) or ""


class GenericGraph:
    """The card-graph module of a game with :class:`CardFields` (same names as one)."""

    def __init__(self, game) -> None:
        self.fields: CardFields = game.card_fields
        f = self.fields
        if f.fields:
            columns = self._declared_columns(game)
        else:
            columns = {f"{f.cost}_{r}": f"{f.cost}.{r}" for r in f.resources}
            for reward in f.rewards:
                columns.update({f"{reward}_{r}": f"{reward}.{r}" for r in f.resources}
                               if self._is_mapping_field(game, reward) else {reward: reward})
        columns.update(f.extra_columns)
        self.CATALOGUE = Catalogue(game.id, (CardKind(f.kind, f.file, f.path, columns, played=True),))
        self._game = game

    def _declared_columns(self, game) -> dict[str, str]:
        """The Cards table's columns of the declared fields: one per field, and one
        per key of a ``tokens`` field."""
        f = self.fields
        cards = _cards_of(game.cards(), f)
        columns = {}
        for name, kind in f.fields.items():
            if kind not in FIELD_TYPES:
                raise ValueError(f"card field {name!r}: {kind!r} is not one of {', '.join(FIELD_TYPES)}")
            if kind != "tokens":
                columns[name] = name
                continue
            keys = list(f.resources) if name in (f.cost, *f.rewards) else []
            for card in cards:
                value = card.get(name)
                keys += [str(k) for k in value if str(k) not in keys] if isinstance(value, dict) else []
            columns.update({f"{name}_{k}": f"{name}.{k}" for k in keys})
        return columns

    @staticmethod
    def _is_mapping_field(game, reward: str) -> bool:
        """Whether ``reward`` holds resource amounts (a mapping) in the game's cards."""
        cards = _cards_of(game.cards(), game.card_fields)
        return any(isinstance(c.get(reward), dict) for c in cards)

    def build_graph(self, pool) -> nx.DiGraph:
        f = self.fields
        g = nx.DiGraph()
        for r in f.resources:
            g.add_node(f"resource:{r}", kind="resource", name=r, hub=True, layer=0)
        for card in _cards_of(pool, f):
            cost = _amounts(card, f.cost)
            gives = {}
            for reward in f.rewards:
                gives.update({(f"{reward}:{k}" if k != reward else reward): v
                              for k, v in _amounts(card, reward).items()})
            node = f"{f.kind}:{card['name']}"
            weighed = {"name", "provenance", "draft_fields", f.cost, *f.rewards}
            copies = card.get(f.copies, 1) if f.copies else 1
            g.add_node(node, kind=f.kind, name=card["name"], layer=int(sum(cost.values())),
                       requirement=_text(cost), bonus=_text(gives), provenance=card.get("provenance", "draft"),
                       cost=cost, gives=gives, copies=copies,
                       unweighed={k: v for k, v in card.items() if k not in weighed})
            for r, n in cost.items():
                if n > 0:
                    g.add_edge(f"resource:{r}", node, relation="costs", amount=n)
            for key, n in gives.items():
                r = key.split(":", 1)[-1]
                if n > 0 and f"resource:{r}" in g:
                    g.add_edge(node, f"resource:{r}", relation="gives", amount=n)
        return g

    def analyses(self, pool, graph: nx.DiGraph | None = None) -> dict[str, pl.DataFrame]:
        f = self.fields
        g = graph if graph is not None else self.build_graph(pool)
        cards = [d for _, d in g.nodes(data=True) if not d.get("hub")]
        given = {r for d in cards for key in d["gives"] for r in [key.split(":", 1)[-1]] if d["gives"][key] > 0}
        available = given | set(f.base)
        rows = []
        for d in cards:
            missing = sorted(r for r, n in d["cost"].items() if n > 0 and r not in available)
            better = [o for o in cards if o is not d and _dominates(o, d)]
            dominated = sorted(o["name"] for o in better if not _unseen(o, d))
            unsure = sorted(f"{o['name']} ({', '.join(_unseen(o, d))} differ)" for o in better if _unseen(o, d))
            rows.append({"card": d["name"], "kind": d["kind"], "dead": bool(missing),
                         "dead_reason": (f"costs {', '.join(missing)}, which nothing gives" if missing else ""),
                         "never_reachable": bool(missing), "dominated_by": ", ".join(dominated),
                         "cannot_judge": ", ".join(unsure), "copies": d["copies"],
                         "cost": float(sum(d["cost"].values())), "gives": d["bonus"]})
        status = pl.DataFrame(rows, schema={"card": pl.Utf8, "kind": pl.Utf8, "dead": pl.Boolean,
                                            "dead_reason": pl.Utf8, "never_reachable": pl.Boolean,
                                            "dominated_by": pl.Utf8, "cannot_judge": pl.Utf8,
                                            "copies": pl.Int64, "cost": pl.Float64, "gives": pl.Utf8})
        pressure = []
        for r in f.resources:
            needing = [d for d in cards if d["cost"].get(r, 0) > 0]
            giving = [d for d in cards if any(k.split(":", 1)[-1] == r and v > 0 for k, v in d["gives"].items())]
            asked = sum(d["cost"][r] for d in needing)
            pressure.append({"resource": r, "cards_needing": len(needing), "cards_giving": len(giving),
                             "asked": float(asked), "asked_per_giver": float(asked / (len(giving) or 1))})
        top = max((p["asked_per_giver"] for p in pressure), default=0.0)
        for p in pressure:
            p["bottleneck"] = bool(top) and p["asked_per_giver"] == top
        # a game with no resources (set collection) still gets the table's columns:
        # the Cards page's edit report reads its first column and ``bottleneck``
        return {"card_status": status, "bottlenecks": pl.DataFrame(pressure, schema={
            "resource": pl.Utf8, "cards_needing": pl.Int64, "cards_giving": pl.Int64, "asked": pl.Float64,
            "asked_per_giver": pl.Float64, "bottleneck": pl.Boolean})}


def _dominates(a: dict, b: dict) -> bool:
    """``a`` costs no more of anything and gives no less of anything than ``b``, and differs."""
    if a["kind"] != b["kind"]:
        return False
    keys_c = set(a["cost"]) | set(b["cost"])
    keys_g = set(a["gives"]) | set(b["gives"])
    no_dearer = all(a["cost"].get(k, 0) <= b["cost"].get(k, 0) for k in keys_c)
    no_poorer = all(a["gives"].get(k, 0) >= b["gives"].get(k, 0) for k in keys_g)
    differs = any(a["cost"].get(k, 0) != b["cost"].get(k, 0) for k in keys_c) or \
        any(a["gives"].get(k, 0) != b["gives"].get(k, 0) for k in keys_g)
    return no_dearer and no_poorer and differs


def _unseen(a: dict, b: dict) -> list[str]:
    """The fields the model does not weigh (copies included) in which ``a`` and ``b`` differ."""
    keys = set(a["unweighed"]) | set(b["unweighed"])
    return sorted(k for k in keys if a["unweighed"].get(k) != b["unweighed"].get(k))


def _cards_of(pool, f: CardFields) -> list[dict]:
    """The cards as plain mappings, from a pool object (``model_dump``) or raw data."""
    node = pool.model_dump() if hasattr(pool, "model_dump") else pool
    if isinstance(node, dict) and f.file in node:
        node = node[f.file]
    for key in f.path:
        node = node[key] if isinstance(node, dict) and key in node else node
    return [c for c in (node or []) if isinstance(c, dict) and "name" in c]


def graph_json(graph) -> dict:
    """Nodes and edges as plain JSON (node-link form with sorted, stable order)."""
    nodes = [{"id": n, **{k: v for k, v in d.items()}} for n, d in sorted(graph.nodes(data=True))]
    edges = [{"source": u, "target": v, **d} for u, v, d in sorted(graph.edges(data=True))]
    return {"nodes": nodes, "edges": edges}
