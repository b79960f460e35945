"""Translation reviews already made in this process, handed out again while
nothing they read has changed.

A review takes tens of CPU seconds, and the served dashboard asks for one each
time a browser session opens the Rules page or chooses a game there: every tab
used to review the same unchanged catalogue again. A review reads only the
game's card folder (the rulebook, its catalogues, terms, glossary and accepted
findings, the cards the placeholders name) and the spelling dictionaries, which
do not change while the process runs; so a review is kept under the folder's
fingerprint (a digest of every file's path and bytes: a modification time is too
coarse for two saves in the same few milliseconds) and made again as soon as any
of them changes (a catalogue saved, a word accepted). Accepting a finding changes
only which findings are shown as accepted: the findings kept are handed out with
the acceptances read again, so an acceptance shows at once instead of after a
whole review.
Two sessions asking for the same review at once make it once: the second waits
for the first."""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path

#: (game, language, spelling, folder, fingerprint, accepted words) -> (counts, findings before acceptances)
_made: dict[tuple, tuple] = {}
#: the acceptances file, left out of the fingerprint (only its word lists change a review)
ACCEPTED = "accepted-findings.yaml"
_locks: dict[tuple, threading.Lock] = {}
_guard = threading.Lock()


def fingerprint(folder: Path, leave_out: frozenset[str] = frozenset()) -> str:
    """A digest of every file under ``folder``, its path and its bytes (the pool's
    run history in ``.workbench`` left out: a review never reads it; about a
    megabyte a game, read in milliseconds), but for files named in ``leave_out``."""
    digest = hashlib.blake2b(digest_size=20)
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if (rel.parts and rel.parts[0] == ".workbench") or not path.is_file() or path.name in leave_out:
            continue
        try:
            data = path.read_bytes()
        except OSError:   # removed while listed: the next fingerprint differs anyway
            continue
        digest.update(str(rel).encode("utf-8", "surrogateescape") + b"\0")
        digest.update(len(data).to_bytes(8, "little") + data)
    return digest.hexdigest()


def memo_review(game_id: str, lang: str, *, spelling: bool):
    """:func:`workbench.rules.review.review` of ``game_id``'s ``lang`` catalogue,
    made once per state of the game's card folder in this process."""
    from workbench.core.data import cards_dir

    from .review import load_accepted, review_unaccepted, with_acceptances, word_lists
    folder = cards_dir(game_id)
    base = (game_id, lang, bool(spelling), str(folder))
    with _guard:
        lock = _locks.setdefault(base, threading.Lock())
    with lock:
        accepted = load_accepted(game_id)
        words = word_lists(accepted)
        key = (*base, fingerprint(folder, frozenset({ACCEPTED})), words)
        if key not in _made:
            made = review_unaccepted(game_id, lang, words, spelling=spelling)
            # the files as the review read them: one written meanwhile makes the
            # next fingerprint differ, so a stale review is never handed out
            for old in [k for k in _made if k[:4] == base]:
                del _made[old]
            _made[key] = made
        counts, raw = _made[key]
        return with_acceptances(counts, raw, accepted)


def forget() -> None:
    """Drop every review kept (tests that rewrite a catalogue in place)."""
    with _guard:
        _made.clear()
