"""Card folders as game references that every worker can open.

A balance trial writes its card files to a folder and plays them with
:func:`workbench.sim.simulate`. The batch runner resolves games by reference
(``module:ATTR``) in each worker process, forked pool workers and Dask workers
alike, so the reference names the folder itself: the attribute
``cards_<hex of the path>`` of this module is a Meaning Made game that loads
its cards from that folder (PEP 562 module ``__getattr__``). Any process that
sees the same file system can open it; nothing has to be registered first.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from workbench.core.data import dump_yaml

PREFIX = "cards_"


def game_ref(folder: Path) -> str:
    return f"{__name__}:{PREFIX}{Path(folder).resolve().as_posix().encode('utf-8').hex()}"


def write_pool(raw: dict, source: Path, dest: Path) -> Path:
    """The card folder ``source`` copied to ``dest`` with the files in ``raw``
    (file name -> data) written over it."""
    dest.mkdir(parents=True, exist_ok=True)
    for item in Path(source).iterdir():
        if item.suffix == ".yaml" and item.name not in raw:
            shutil.copyfile(item, dest / item.name)
    for name, data in raw.items():
        (dest / name).write_text(dump_yaml(data), encoding="utf-8")
    return dest


def __getattr__(name: str):
    if not name.startswith(PREFIX):
        raise AttributeError(name)
    folder = Path(bytes.fromhex(name[len(PREFIX):]).decode("utf-8"))
    from workbench.games.meaning_made import MeaningMade
    from workbench.games.meaning_made.data import load_cards
    return MeaningMade(cards=load_cards(folder))
