"""Shared helpers for turning card-file entries into printable card records.

A printable card is a plain dict of texts (already in the chosen language) that the
kind's Typst template lays out. Every record carries ``name``, ``draft_all`` (the
whole card is ``provenance: draft``) and ``draft`` (the fields authored by us), which
the templates turn into the printed draft mark, and ``extra``: the designer's own
fields of the card (:mod:`workbench.core.extra_fields`) as texts, name -> text, for
a template to place (``c.extra.at("art", default: "")``).
"""

from __future__ import annotations

from typing import Any, Mapping

from workbench.core.extra_fields import as_texts


def provenance(entry: Mapping, *, default: str = "seed") -> dict:
    """The draft marks of a card-file entry."""
    prov = entry.get("provenance", default)
    return {"draft_all": prov == "draft", "draft": [str(f) for f in entry.get("draft_fields") or []]}


def record(name: str, entry: Mapping | None = None, *, default: str = "seed", **fields: Any) -> dict:
    rec = {"name": name, **provenance(entry or {}, default=default), "extra": as_texts(dict(entry or {}))}
    rec.update(fields)
    return rec


def with_copies(records: list[dict]) -> list[dict]:
    """Each record as many times as its ``copies`` says (a whole number of at
    least 1; absent: once), so a sheet and a Tabletop Simulator deck hold every
    copy the card file declares. The copies are separate dicts (a sheet writes
    its geometry into each) and each knows which one it is (``copy``: 1, 2...)."""
    out = []
    for rec in records:
        n = rec.get("copies", 1)
        n = n if isinstance(n, int) and not isinstance(n, bool) and n >= 1 else 1
        out += [{**rec, "copy": k + 1} for k in range(n)]
    return out


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n).replace("-", "−")
