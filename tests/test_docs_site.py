"""The documentation site builds in strict mode, its generated reference names
every command and option, and the user docs cite no issue or outside file.

The site is built once (MkDocs, ``mkdocs.yml``) from a copy of ``docs/`` with
two pages added that the navigation does not name (a dated measurement and a
page another helper might add), so the same build shows that such pages are
listed and do not fail it. A second, tiny build shows a broken link does fail."""

from __future__ import annotations

import argparse
import re
import shutil
from pathlib import Path

import pytest

pytest.importorskip("mkdocs")
pytest.importorskip("material")

ROOT = Path(__file__).resolve().parents[1]
if not (ROOT / "mkdocs.yml").is_file():
    pytest.skip("no mkdocs.yml (not a source checkout)", allow_module_level=True)
DOCS = ROOT / "docs"
#: user docs: the README, every page of docs/, and the scenario guides beside the cards
USER_DOCS = [ROOT / "README.md", *sorted(DOCS.rglob("*.md")), *sorted((ROOT / "cards").glob("*/scenarios/README.md"))]


def _build(config_file: Path, docs_dir: Path, site_dir: Path):
    import os

    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    config = load_config(str(config_file), strict=True, docs_dir=str(docs_dir), site_dir=str(site_dir))
    build(config)
    return config


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("docs")
    docs = tmp / "docs"
    shutil.copytree(DOCS, docs)
    (docs / "measurements" / "2099-01-01-planted.md").write_text(
        "# A planted dated run\n\nNothing measured.\n", encoding="utf-8")
    (docs / "planted-extra.md").write_text("# A page nobody listed\n\nSee [home](index.md).\n", encoding="utf-8")
    config = _build(ROOT / "mkdocs.yml", docs, tmp / "site")
    return tmp / "site", config


def test_the_site_builds_strictly_and_lists_pages_the_nav_does_not_name(site):
    site_dir, config = site
    home = (site_dir / "index.html").read_text(encoding="utf-8")
    assert "A planted dated run" in home and "A page nobody listed" in home
    for part in ("Tutorials", "How-to", "Reference", "Explanation", "Measurements"):
        assert part in home
    for page in ("tutorials/first-tweak", "tutorials/first-room", "tutorials/own-game", "reference/commands",
                 "reference/scenario-format", "reference/card-files", "reference/metrics",
                 "explanation/hidden-information", "verdicts"):
        assert (site_dir / page / "index.html").is_file(), page


def _leaves(parser: argparse.ArgumentParser, prog: str):
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    yield prog, parser
    for action in subs:
        seen = set()
        for name, child in action.choices.items():
            if id(child) not in seen:
                seen.add(id(child))
                yield from _leaves(child, f"{prog} {name}")


def test_every_command_and_option_is_in_the_generated_reference(site):
    from workbench.cli import build_parser
    site_dir, _ = site
    html = (site_dir / "reference" / "commands" / "index.html").read_text(encoding="utf-8")
    # one section per command: its heading, then everything up to the next one
    sections = {}
    for prog, parser in _leaves(build_parser(), "workbench"):
        if prog == "workbench":
            continue
        anchor = re.sub(r"[^a-z0-9]+", "-", prog.lower()).strip("-")
        assert f'id="{anchor}"' in html, f"{prog} has no section"
        sections[prog] = (html.index(f'id="{anchor}"'), parser)
    assert "<code>--version</code>" in html[:min(s for s, _ in sections.values())]
    starts = sorted(s for s, _ in sections.values()) + [len(html)]
    missing = []
    for prog, (start, parser) in sections.items():
        body = html[start:next(s for s in starts if s > start)]
        for action in parser._actions:
            if action.help == argparse.SUPPRESS or isinstance(action, argparse._HelpAction):
                continue
            for option in action.option_strings:
                if f"<code>{option}</code>" not in body:
                    missing.append(f"{prog} {option}")
    assert not missing, missing


def test_the_metrics_reference_defines_every_metric(site):
    from workbench.sim.metrics import CARD_METRICS, METRICS
    site_dir, _ = site
    html = (site_dir / "reference" / "metrics" / "index.html").read_text(encoding="utf-8")
    for metric in METRICS + CARD_METRICS:
        assert f'id="{metric.key.replace("_", "-")}"' in html, metric.key


def test_the_card_files_reference_lists_each_games_pool_files(site):
    from workbench.core.registry import load_all
    site_dir, _ = site
    html = (site_dir / "reference" / "card-files" / "index.html").read_text(encoding="utf-8")
    for game in load_all().values():
        if game.pool_spec is not None:
            for name in game.pool_spec.files:
                assert f"<code>{name}</code>" in html, (game.id, name)


def test_a_broken_link_fails_the_strict_build(tmp_path):
    from mkdocs.exceptions import Abort
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\n[gone](no-such-page.md)\n", encoding="utf-8")
    config = tmp_path / "mkdocs.yml"
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    text = text[:text.index("\nnav:")] + "\nnav:\n  - Home: index.md\n"
    config.write_text(text.replace("docsite/hooks.py", str(ROOT / "docsite" / "hooks.py")), encoding="utf-8")
    with pytest.raises(Abort):
        _build(config, docs, tmp_path / "site")


def test_a_page_the_nav_names_but_nobody_wrote_fails_the_strict_build(tmp_path):
    from mkdocs.exceptions import Abort
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n", encoding="utf-8")
    config = tmp_path / "mkdocs.yml"
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    text = text[:text.index("\nnav:")] + "\nnav:\n  - Home: index.md\n  - Missing: missing.md\n"
    config.write_text(text.replace("docsite/hooks.py", str(ROOT / "docsite" / "hooks.py")), encoding="utf-8")
    with pytest.raises(Abort):
        _build(config, docs, tmp_path / "site")


@pytest.mark.parametrize("path", USER_DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_user_docs_cite_no_issue_and_no_outside_design_file(path):
    text = path.read_text(encoding="utf-8")
    found = re.findall(r"\b[Ii]ssues? #?\d+|\bDESIGN\.md\b|/work/shared", text)
    assert not found, found


def test_the_readme_fits_on_two_screens_and_keeps_its_two_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    for marker in ("<!-- run-command -->", "<!-- test-command -->"):
        after = text.split(marker, 1)[1].lstrip("\n")
        assert after.startswith("```\npython3 -m venv .venv && .venv/bin/pip install -e ")


#: the project's own text: code, docs, notebooks, analyses, card folders, tests and build files
PROJECT_TEXT = ("*.py", "*.md", "*.ipynb", "*.yaml", "*.yml", "*.txt", "*.toml", "*.typ", "*.po", "*.cfg")
#: a citation of the outside design file: its name, a section of it, or where it lies
DESIGN_CITATION = re.compile(r"\bDESIGN\.md\b|\bDESIGN\s*(?:§|section\b|\d)|/work/shared")


def _project_files():
    skip = {".venv", ".git", "out", "site", "node_modules", ".pytest_cache", ".hypothesis", "build", "dist"}
    for pattern in PROJECT_TEXT:
        for path in ROOT.rglob(pattern):
            parts = path.relative_to(ROOT).parts
            if not any(p in skip or p.endswith(".egg-info") for p in parts) and path.is_file():
                yield path


def test_nothing_in_the_project_cites_the_outside_design_file():
    """Docstrings, comments, notebooks and docs point at the project's own pages
    (docs/...), never at a design file outside it."""
    found = []
    for path in _project_files():
        if path == Path(__file__).resolve():
            continue   # this file spells the pattern out
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if DESIGN_CITATION.search(line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:100]}")
    assert not found, found


def test_the_design_citation_pattern_finds_each_way_of_citing():
    for cited in ("see DESIGN.md", "(DESIGN §3.2)", "(DESIGN 3.1)", "DESIGN section 3.3", "/work/shared/x"):
        assert DESIGN_CITATION.search(cited), cited
    for plain in ("the design of the page", "DESIGNER", "docs/reference/json-output.md"):
        assert not DESIGN_CITATION.search(plain), plain
