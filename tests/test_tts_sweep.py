"""The TTS export's stale-image sweep deletes only images it wrote (issue 38): a
file listed in its manifest whose name still ends in its own SHA-256; never an
unlisted file, a changed one, a link or anything outside the images folder."""

from __future__ import annotations

import hashlib
import json

from workbench.print.tts import MANIFEST, sweep_stale_images


def _image(folder, stem: str, data: bytes) -> str:
    name = f"{stem}-{hashlib.sha256(data).hexdigest()[:16]}.png"
    (folder / name).write_bytes(data)
    return name


def test_only_listed_unchanged_images_are_swept(tmp_path):
    folder = tmp_path / "save-images"
    folder.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    old = _image(folder, "deck-faces-1", b"old sheet")
    kept_now = _image(folder, "deck-faces-2", b"still used")
    unlisted = _image(folder, "mine", b"the designer's own picture")
    changed = _image(folder, "deck-back", b"was ours")
    (folder / changed).write_bytes(b"edited since")          # no longer the file we wrote
    far = _image(outside, "x", b"outside")
    (folder / far).symlink_to(outside / far)                  # a link named like ours
    (folder / MANIFEST).write_text(json.dumps({"images": [old, kept_now, changed, far, "../" + far]}),
                                   encoding="utf-8")
    removed = sweep_stale_images(folder, {kept_now})
    assert removed == [old]
    assert {p.name for p in folder.iterdir()} == {kept_now, unlisted, changed, far, MANIFEST}
    assert (outside / far).read_bytes() == b"outside"
    assert json.loads((folder / MANIFEST).read_text(encoding="utf-8")) == {"images": [kept_now]}


def test_without_a_manifest_nothing_is_swept(tmp_path):
    folder = tmp_path / "save-images"
    folder.mkdir()
    stale = _image(folder, "deck-faces-1", b"an older export's")
    assert sweep_stale_images(folder, set()) == []
    assert (folder / stale).exists()
