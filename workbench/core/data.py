"""Finding and reading the designer's data files (the card folders).

Where the cards are read from, first match wins:

1. ``--cards DIR`` on the command line (the CLI sets ``$WORKBENCH_CARDS``) or
   ``$WORKBENCH_CARDS``: a folder the designer owns, made by ``workbench init``;
2. the cards bundled inside the installed package (``workbench/_cards`` in a
   wheel, read through :mod:`importlib.resources`);
3. ``cards/`` of the repository checkout an editable install points at.

Bundled cards in an installed (non-editable) package are read-only: nothing is
ever written inside site-packages (:mod:`workbench.core.storage` refuses and
says to run ``workbench init``). YAML errors and validation errors come back as
:class:`DataError` naming the file, the card and the field."""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from .errors import DataError


GAME_FOLDERS = ("meaning_made", "mandate_2038", "pax_transhumanity")


def bundled_cards_root() -> Path:
    """The card folders that ship with the workbench.

    A wheel carries them as ``workbench/_cards`` (setup.py copies ``cards/``
    there at build time); a source checkout has them at ``cards/`` beside the
    package."""
    packaged = resources.files("workbench") / "_cards"
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[2] / "cards"


def bundled_is_installed() -> bool:
    """True when the bundled cards live inside an installed package (a wheel),
    where the designer must not edit them."""
    return (resources.files("workbench") / "_cards").is_dir()


def cards_root() -> Path:
    env = os.environ.get("WORKBENCH_CARDS")
    return Path(env) if env else bundled_cards_root()


def cards_dir(game_id: str) -> Path:
    """The game's card folder: in the designer's folder when it holds the game,
    otherwise the bundled one (so ``workbench init DIR --game X`` and ``--cards
    DIR`` still leave the other games playable)."""
    folder = game_id.replace("-", "_")
    own = cards_root() / folder
    if own.is_dir() or not os.environ.get("WORKBENCH_CARDS"):
        return own
    bundled = bundled_cards_root() / folder
    return bundled if bundled.is_dir() else own


def load_yaml(path: Path) -> Any:
    """Parse a YAML file; a syntax error names the file and line."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(f"cannot read: {exc.strerror or exc}", file=str(path)) from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise DataError(f"not valid YAML{where}: {problem}", file=str(path)) from None


def validation_error(exc, *, file: str, card: str | None = None) -> DataError:
    """Turn a pydantic ``ValidationError`` into a :class:`DataError` that names the
    first failing field (with its path inside the card)."""
    errors = exc.errors()
    first = errors[0] if errors else {"loc": (), "msg": str(exc)}
    loc = [str(p) for p in first.get("loc", ())]
    field = ".".join(loc) if loc else None
    more = f" (and {len(errors) - 1} more problem(s))" if len(errors) > 1 else ""
    return DataError(f"{first.get('msg', 'invalid value')}{more}", file=file, card=card, field=field)


def dump_yaml(data: Any) -> str:
    """YAML as designers like to read it: block style, keys in the order given,
    unicode kept."""
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
