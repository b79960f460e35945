"""MkDocs hooks of the documentation site (``mkdocs.yml`` names this file).

- The reference pages that are generated from the code (every command and
  option, every metric, each game's pool files: :mod:`workbench.docs_reference`)
  are made as the site is built, so they are never stale and never tracked.
- The navigation tolerates pages it does not list: every dated file in
  ``docs/measurements/`` is listed under Measurements (newest first), and any
  other page that ``mkdocs.yml`` does not name is listed under "More pages", so
  a page added by anyone is reachable without an edit here, and the strict build
  does not fail over it. A page the navigation names that does not exist still
  fails the strict build.
"""

from __future__ import annotations

from pathlib import Path

#: generated page (path inside docs/) -> the function of workbench.docs_reference writing it
GENERATED = {"reference/commands.md": "commands_markdown", "reference/metrics.md": "metrics_markdown"}
#: marker in a written page -> the function of workbench.docs_reference whose text replaces it
INSERTED = {"<!-- generated: pool-files -->": "pool_files_markdown"}
MEASUREMENTS = "measurements"


def _named(nav) -> set[str]:
    """Every page path the navigation names."""
    found: set[str] = set()
    if isinstance(nav, str):
        found.add(nav)
    elif isinstance(nav, list):
        for item in nav:
            found |= _named(item)
    elif isinstance(nav, dict):
        for value in nav.values():
            found |= _named(value)
    return found


def _title(path: Path) -> str:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip().strip("`")
    return path.stem.replace("-", " ").capitalize()


def on_config(config, **kwargs):
    docs = Path(config["docs_dir"])
    nav = config.get("nav")
    if not nav:
        return config
    named = _named(nav)
    pages = sorted(p.relative_to(docs).as_posix() for p in docs.rglob("*.md"))
    measured = [p for p in pages if p.startswith(MEASUREMENTS + "/") and p != f"{MEASUREMENTS}/index.md"]
    dated = sorted((p for p in measured if p not in named), reverse=True)
    for item in nav:
        if isinstance(item, dict) and "Measurements" in item and isinstance(item["Measurements"], list):
            item["Measurements"].extend({_title(docs / p): p} for p in dated)
            named |= set(dated)
            break
    rest = [p for p in pages if p not in named and p not in GENERATED and not p.startswith("examples/")]
    if rest:
        nav.append({"More pages": [{_title(docs / p): p} for p in rest]})
    return config


def on_files(files, config, **kwargs):
    from mkdocs.structure.files import File

    from workbench import docs_reference
    for path, maker in GENERATED.items():
        existing = files.get_file_from_path(path)
        if existing is not None:
            files.remove(existing)
        files.append(File.generated(config, path, content=getattr(docs_reference, maker)()))
    return files



def on_page_markdown(markdown, page, config, files, **kwargs):
    """Generated parts of written pages (the marker is replaced by the text)."""
    from workbench import docs_reference
    for marker, maker in INSERTED.items():
        if marker in markdown:
            markdown = markdown.replace(marker, getattr(docs_reference, maker)())
    return markdown
