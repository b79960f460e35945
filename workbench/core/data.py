"""Finding and reading the designer's data files under ``cards/``.

The card folder is ``$WORKBENCH_CARDS`` when set, otherwise ``cards/`` beside the
``workbench`` package (the repository checkout an editable install points at).
YAML errors and validation errors come back as :class:`DataError` naming the
file, the card and the field."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import yaml

from .errors import DataError


def cards_root() -> Path:
    env = os.environ.get("WORKBENCH_CARDS")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "cards"


def cards_dir(game_id: str) -> Path:
    return cards_root() / game_id.replace("-", "_")


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
