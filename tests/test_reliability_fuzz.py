"""Fuzzing the files a designer hands the workbench: card files, scenarios, PO
catalogues and Markdown rulebooks. Whatever the bytes, the answer is a value or
one of the workbench's own errors (never a Python traceback), and a round-trip
card save reads back exactly what was saved."""

from __future__ import annotations

import copy
import difflib
import shutil
import string
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.core import cardfile
from workbench.core.data import cards_dir, safe_load_text
from workbench.core.errors import WorkbenchError

FUZZ = settings(max_examples=25, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
#: for the cheap targets (no card pool to validate), more examples
FUZZ_MORE = settings(FUZZ, max_examples=60)
#: a round-trip save takes a good part of a second
FUZZ_FEW = settings(FUZZ, max_examples=10)

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20), st.floats(allow_nan=True),
                    st.text(max_size=12))
keys = st.one_of(st.sampled_from(["name", "layer", "requirement", "tokens", "E", "players", "setup",
                                  "steps", "do", "player", "expect", "seed", "options", "game"]),
                 st.text(max_size=6))
trees = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                      st.dictionaries(keys, inner, max_size=4)),
                     max_leaves=20)
# text that looks like YAML (and sometimes is not)
yamlish = st.text(alphabet=string.printable + "őű{}[]&*!|>-:#'\"", max_size=300)


def _only_our_errors(call) -> None:
    try:
        call()
    except WorkbenchError:
        pass


@pytest.fixture(scope="module")
def mm_folder(tmp_path_factory) -> Path:
    dest = tmp_path_factory.mktemp("mm") / "meaning_made"
    shutil.copytree(cards_dir("meaning-made"), dest)
    return dest


# -- card files ------------------------------------------------------------------------

@FUZZ
@given(content=st.one_of(yamlish.map(str.encode), st.binary(max_size=300),
                         trees.map(lambda t: yaml.safe_dump({"patterns": [t]}).encode())))
def test_any_patterns_file_loads_or_is_refused(mm_folder, content):
    from workbench.games.meaning_made.data import card_problems, load_cards
    path = mm_folder / "patterns.yaml"
    original = path.read_bytes()
    try:
        path.write_bytes(content)
        _only_our_errors(lambda: load_cards(mm_folder))
        _only_our_errors(lambda: card_problems(mm_folder))
    finally:
        path.write_bytes(original)


@FUZZ
@given(entry=st.fixed_dictionaries({"name": st.one_of(st.text(max_size=30), scalars), "layer": scalars},
                                   optional={"requirement": trees, "bonus": trees, "provenance": scalars}))
def test_any_pattern_entry_validates_or_is_refused(mm_folder, entry):
    from workbench.games.meaning_made.data import load_cards
    path = mm_folder / "patterns.yaml"
    original = path.read_bytes()
    data = yaml.safe_load(original)
    data["patterns"][0] = entry
    try:
        path.write_text(yaml.safe_dump(data), encoding="utf-8")
        _only_our_errors(lambda: load_cards(mm_folder))
    finally:
        path.write_bytes(original)


# -- scenarios ---------------------------------------------------------------------------

@FUZZ_MORE
@given(game=st.sampled_from(["meaning-made", "mandate-2038", "pax-transhumanity"]),
       setup=st.one_of(trees, st.fixed_dictionaries({}, optional={"players": st.one_of(
           st.integers(-3, 8), st.lists(st.text(max_size=5), max_size=7)), "seed": scalars,
           "options": trees, "variants": trees})),
       steps=st.one_of(trees, st.lists(st.one_of(trees, st.dictionaries(
           st.sampled_from(["do", "player", "illegal", "expect", "Alex"]), scalars, max_size=3)), max_size=5)),
       expect=trees)
def test_any_scenario_runs_or_reports_without_a_traceback(tmp_path, game, setup, steps, expect):
    from workbench.core.scenario import run_file
    path = tmp_path / "fuzz.yaml"
    path.write_text(yaml.safe_dump({"game": game, "setup": setup, "steps": steps, "expect": expect}),
                    encoding="utf-8")
    result = run_file(path)
    assert result.file == str(path)


@FUZZ_MORE
@given(content=st.one_of(yamlish, st.binary(max_size=200).map(lambda b: b.decode("latin-1"))))
def test_any_scenario_text_runs_or_reports(tmp_path, content):
    from workbench.core.scenario import run_file
    path = tmp_path / "fuzz.yaml"
    path.write_text(content, encoding="utf-8", errors="surrogateescape")
    run_file(path)


# -- PO and Markdown ---------------------------------------------------------------------

po_lines = st.lists(st.one_of(
    st.sampled_from(['msgid ""', 'msgstr ""', '"Language: hu\\n"', "#, fuzzy", "#| msgid \"x\"", "",
                     '#~ msgid "old"', 'msgctxt "meaning-made/overview"']),
    st.builds(lambda k, v: f'{k} "{v}"', st.sampled_from(["msgctxt", "msgid", "msgstr", "msgstr[0]"]),
              st.text(alphabet=string.ascii_letters + " ${}.|\\\"őé", max_size=20)),
    st.text(max_size=30)), max_size=25)


@FUZZ_MORE
@given(lines=po_lines)
def test_any_po_file_reads_or_is_refused(tmp_path, lines):
    from workbench.rules.catalog import entries_by_context, read_catalog
    path = tmp_path / "hu.po"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _only_our_errors(lambda: entries_by_context(read_catalog(path)))


md_lines = st.lists(st.one_of(
    st.sampled_from(["<!-- rule: g/a/b -->", "<!-- section: a -->", "# Title", "## Part", "", "- item",
                     "${terms.energy}", "${terms.x|plural}", "${", "<!-- rule: -->", "<!-- section: a -->"]),
    st.text(max_size=40)), max_size=30)


@FUZZ_MORE
@given(lines=md_lines)
def test_any_markdown_rulebook_parses_or_is_refused(tmp_path, lines):
    from workbench.rules.model import load_rulebook
    path = tmp_path / "en.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _only_our_errors(lambda: load_rulebook(path, game="g", lang="en"))


# -- round-trip saves -------------------------------------------------------------------

edits = st.lists(st.tuples(st.integers(0, 59), st.sampled_from(["E", "I", "S", "layer", "flavour", "vitals"]),
                           st.one_of(st.integers(0, 9), st.text(max_size=25))), min_size=1, max_size=4)


@FUZZ_FEW
@given(changes=edits)
def test_a_save_reads_back_exactly_and_changes_only_the_edited_cards_lines(tmp_path, changes):
    path = tmp_path / "patterns.yaml"
    shutil.copyfile(cards_dir("meaning-made") / "patterns.yaml", path)
    loaded = cardfile.load(path)
    new = copy.deepcopy(loaded.data)
    for index, field, value in changes:
        card = new["patterns"][index]
        if field in ("E", "I", "S"):
            card["requirement"]["tokens"][field] = value
        elif field == "vitals":
            card["requirement"]["vitals"] = value
        else:
            card[field] = value
    text = cardfile.render(loaded, new)
    assert safe_load_text(text) == new
    changed = [line for line in difflib.unified_diff(loaded.text.splitlines(), text.splitlines(), n=0,
                                                     lineterm="") if line[:1] in "+-"
               and not line.startswith(("+++", "---"))]
    assert len(changed) <= 4 * len(changes) + 2, changed  # a value's line (or a few) per edit
    kept_comments = [line for line in loaded.text.splitlines() if line.lstrip().startswith("#")]
    assert all(line in text.splitlines() for line in kept_comments)
