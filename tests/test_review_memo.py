"""The process's kept translation reviews: the same review is handed out while the
game's card folder is unchanged, made again once any file in it changes, and two
threads asking at once make it once; accepting a finding is applied to the kept
findings without a new review, accepting words makes one (the review itself is a
stand-in here: the real one is tested in tests/test_rules_review*.py)."""

from __future__ import annotations

import threading

import pytest

from workbench.rules import review as review_mod
from workbench.rules import review_memo


@pytest.fixture
def counted(monkeypatch, cards_copy):
    calls = []

    def fake(game_id, lang, words, *, spelling=True):
        calls.append((game_id, lang, spelling, words))
        finding = review_mod.Finding("meaning-made/actions/gather", "negation", "a stand-in", "never", lang)
        return review_mod.Review(game_id, lang, "en", entries=len(calls)), [finding]
    monkeypatch.setattr(review_mod, "review_unaccepted", fake)
    review_memo.forget()
    yield calls
    review_memo.forget()


def test_kept_while_unchanged_and_made_again_after_a_change(counted, cards_copy):
    first = review_memo.memo_review("meaning-made", "hu", spelling=False)
    assert review_memo.memo_review("meaning-made", "hu", spelling=False) == first
    assert len(counted) == 1
    # spelling on is another review
    review_memo.memo_review("meaning-made", "hu", spelling=True)
    assert len(counted) == 2
    # one byte of the catalogue changed, same size: a new review
    po = cards_copy / "meaning_made" / "rules" / "hu.po"
    text = po.read_bytes()
    po.write_bytes(text[:-1] + (b"\n" if text[-1:] != b"\n" else b" "))
    again = review_memo.memo_review("meaning-made", "hu", spelling=False)
    assert len(counted) == 3 and again.entries == 3
    # the run history is not read by a review
    (cards_copy / "meaning_made" / ".workbench").mkdir(exist_ok=True)
    (cards_copy / "meaning_made" / ".workbench" / "runs.txt").write_text("x")
    assert review_memo.memo_review("meaning-made", "hu", spelling=False) == again and len(counted) == 3


def test_two_threads_make_one_review(counted):
    got = []
    threads = [threading.Thread(target=lambda: got.append(
        review_memo.memo_review("meaning-made", "hu", spelling=False))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(counted) == 1 and len(got) == 4 and all(g == got[0] for g in got)


def test_an_accepted_finding_shows_at_once_and_accepted_words_review_again(counted, cards_copy):
    rules = cards_copy / "meaning_made" / "rules"
    accepted = rules / "accepted-findings.yaml"
    accepted.write_text("[]\n", encoding="utf-8")
    first = review_memo.memo_review("meaning-made", "hu", spelling=False)
    assert [f.check for f in first.findings] == ["negation"] and first.accepted == []
    accepted.write_text("- {clause: meaning-made/actions/gather, check: negation, detail: never, "
                        "reason: the rule says so}\n", encoding="utf-8")
    after = review_memo.memo_review("meaning-made", "hu", spelling=False)
    assert len(counted) == 1                              # no new review
    assert after.findings == [] and [f.accepted for f in after.accepted] == ["the rule says so"]
    assert first.findings[0].accepted is None            # the kept finding is not changed
    # a word list changes what the spelling check reads: a new review, given the words
    accepted.write_text("- {check: spelling, lang: hu, words: [Burok], reason: a made-up word}\n",
                        encoding="utf-8")
    review_memo.memo_review("meaning-made", "hu", spelling=False)
    assert len(counted) == 2 and counted[-1][3] == (("spelling", "hu", ("Burok",)),)
