"""Card folders as game references that every worker can open.

A balance trial writes its card files to a folder and plays them with
:func:`workbench.sim.simulate`. The batch runner resolves games by reference
(``module:ATTR``) in each worker process, forked pool workers and Dask workers
alike, so the reference names the folder itself: the attribute
``pool_<hex of the game id>_<hex of the path>`` of this module is the game
playing the cards its own loader reads from that folder (PEP 562 module
``__getattr__``). Any process that
sees the same file system can open it; nothing has to be registered first.
"""

from __future__ import annotations

from pathlib import Path

from workbench.core.data import dump_yaml, read_file_bytes

#: ``pool_<hex game id>_<hex path>``: any registered game with its cards from a folder
POOL_PREFIX = "pool_"


def game_ref(folder: Path, game_id: str) -> str:
    """The reference of game ``game_id`` playing the cards in ``folder``."""
    path = Path(folder).resolve().as_posix()
    return f"{__name__}:{POOL_PREFIX}{game_id.encode('utf-8').hex()}_{path.encode('utf-8').hex()}"


def write_pool(raw: dict, source: Path, dest: Path) -> Path:
    """The card folder ``source`` copied to ``dest`` with the files in ``raw``
    (file name -> data) written over it."""
    from workbench.core import storage
    real = storage.make_folder(dest, "the trial's card folder")
    for item in Path(source).iterdir():
        if item.suffix == ".yaml" and item.name not in raw:
            storage.write_bytes(storage.inside(real, item.name), read_file_bytes(item))
    for name, data in raw.items():
        # only the loader reads a trial's folder: libyaml's emitter is several times faster
        storage.write_text(storage.inside(real, name), dump_yaml(data, fast=True))
    return dest


def __getattr__(name: str):
    if name.startswith(POOL_PREFIX):
        game_hex, _, path_hex = name[len(POOL_PREFIX):].partition("_")
        from workbench.core.registry import get_game
        game = get_game(bytes.fromhex(game_hex).decode("utf-8"))
        return game.with_cards(game.pool_spec.load(Path(bytes.fromhex(path_hex).decode("utf-8"))))
    raise AttributeError(name)
