"""A save that only changes values writes each new value in place of the old
text (workbench.core.cardfile._splice): every other character of the file stays,
comments, quoting and spacing included, and the file reads back as the new data;
an edit that is more than values in place (a key added, a card added, a block
list grown) takes the round trip, with the same guarantees for the lines it keeps."""

from __future__ import annotations

import copy

import pytest

from workbench.core import cardfile

TEXT = """# the cards
provenance: draft
cards:
  # era 1
  - {name: Seed Round, era: 1, text: Every institution gains 1 Runway., effects: [{who: all, gain: {runway: 1}}]}   # c
  - {name: Other, era: 2, text: 'quoted: yes', effects: []}
settings:
  a: 1        # keep this column
  b: [x, y]
  c: "str"
  d:
    - one
    - two
"""


def _loaded(tmp_path, text=TEXT):
    path = tmp_path / "h.yaml"
    path.write_text(text, encoding="utf-8")
    return cardfile.load(path)


@pytest.mark.parametrize("edit", [
    lambda d: d["cards"][0].update(era=2, text="Every institution gains 1 Runway. (edited)"),
    lambda d: d["cards"][1].update(text="a, b: c {x}", effects=[{"who": "all"}]),
    lambda d: d["settings"].update(a=5, b=["x", "y", "z"], c="new # not a comment"),
    lambda d: d["settings"]["d"].__setitem__(1, "three"),
    lambda d: d["cards"][0].update(text="  leading spaces, 'quotes' and \"doubles\": kept"),
    lambda d: d["cards"][0].update(era=True),
    lambda d: d["settings"].update(a=None),
    lambda d: d["cards"][0].update(extra={"art": "x.png"}),    # a one-line record is written again whole
])
def test_values_changed_in_place_keep_every_other_character(tmp_path, edit):
    loaded = _loaded(tmp_path)
    new = copy.deepcopy(loaded.data)
    edit(new)
    fast = cardfile._splice(loaded, new)
    assert fast is not None
    assert cardfile.same_data(cardfile.safe_load_text(fast), new)
    assert cardfile.render(loaded, new) == fast
    # only the changed lines differ, and on them only the changed values' text
    old_lines, new_lines = TEXT.splitlines(), fast.splitlines()
    assert len(old_lines) == len(new_lines)
    changed = [(a, b) for a, b in zip(old_lines, new_lines) if a != b]
    assert changed and all(a[:len(a) - len(a.lstrip())] == b[:len(b) - len(b.lstrip())] and a.split()[0] == b.split()[0]
                           for a, b in changed)
    assert all("#" not in a or a[a.index("#"):] == b[b.rindex("#"):] for a, b in changed if "# " in a)


@pytest.mark.parametrize("edit", [
    lambda d: d["settings"].update(e=1),                               # a key added to a block mapping
    lambda d: d["cards"].append({"name": "New", "era": 1}),            # a card added
    lambda d: d["settings"]["d"].append("three"),                      # a block list grown
    lambda d: d["settings"].pop("c"),                                  # a key removed
])
def test_more_than_values_in_place_takes_the_round_trip(tmp_path, edit):
    loaded = _loaded(tmp_path)
    new = copy.deepcopy(loaded.data)
    edit(new)
    assert cardfile._splice(loaded, new) is None
    text = cardfile.render(loaded, new)
    assert cardfile.safe_load_text(text) == new
    assert "# keep this column" in text and "# era 1" in text
