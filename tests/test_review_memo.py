"""The process's kept translation reviews: the same review is handed out while the
game's card folder is unchanged, made again once any file in it changes, and two
threads asking at once make it once (the review itself is a stand-in here: the
real one is tested in tests/test_rules_review*.py)."""

from __future__ import annotations

import threading

import pytest

from workbench.rules import review as review_mod
from workbench.rules import review_memo


@pytest.fixture
def counted(monkeypatch, cards_copy):
    calls = []

    def fake(game_id, lang, *, spelling=True):
        calls.append((game_id, lang, spelling))
        return object()
    monkeypatch.setattr(review_mod, "review", fake)
    review_memo.forget()
    yield calls
    review_memo.forget()


def test_kept_while_unchanged_and_made_again_after_a_change(counted, cards_copy):
    first = review_memo.memo_review("meaning-made", "hu", spelling=False)
    assert review_memo.memo_review("meaning-made", "hu", spelling=False) is first
    assert len(counted) == 1
    # spelling on is another review
    review_memo.memo_review("meaning-made", "hu", spelling=True)
    assert len(counted) == 2
    # one byte of the catalogue changed, same size: a new review
    po = cards_copy / "meaning_made" / "rules" / "hu.po"
    text = po.read_bytes()
    po.write_bytes(text[:-1] + (b"\n" if text[-1:] != b"\n" else b" "))
    again = review_memo.memo_review("meaning-made", "hu", spelling=False)
    assert again is not first and len(counted) == 3
    # the run history is not read by a review
    (cards_copy / "meaning_made" / ".workbench").mkdir(exist_ok=True)
    (cards_copy / "meaning_made" / ".workbench" / "runs.txt").write_text("x")
    assert review_memo.memo_review("meaning-made", "hu", spelling=False) is again


def test_two_threads_make_one_review(counted):
    got = []
    threads = [threading.Thread(target=lambda: got.append(
        review_memo.memo_review("meaning-made", "hu", spelling=False))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(counted) == 1 and len({id(g) for g in got}) == 1
